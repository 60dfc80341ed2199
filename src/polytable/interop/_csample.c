/* polytable.interop._csample: one uniformly random legal action per row of a batch of action masks, in C.
 *
 * The vector API's sample_legal (the benchmark's and a baseline's policy) walked every row in NumPy, which
 * cost more than stepping the games in C. This picks, for row i with c legal (non-zero) entries, the
 * legal entry number floor(draws[i] * c) in index order: the same choice as the NumPy path for the same
 * draws (tests/interop/test_vector_fast.py checks it), without a Python object per row.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define LOW_BYTES 0x0101010101010101ULL

/* How many of the 8 bytes of w are non-zero. */
static inline int nonzero_bytes(uint64_t w) {
    w |= w >> 4;
    w |= w >> 2;
    w |= w >> 1;
    return __builtin_popcountll(w & LOW_BYTES);
}

/* sample(masks (N, A) int8, draws (N,) float64, out (N,) int64) -> -1, or the first row with no legal entry */
static PyObject *sample(PyObject *self, PyObject *args) {
    PyObject *o_masks, *o_draws, *o_out;
    if (!PyArg_ParseTuple(args, "OOO", &o_masks, &o_draws, &o_out)) return NULL;
    Py_buffer m = {0}, d = {0}, o = {0};
    PyObject *result = NULL;
    if (PyObject_GetBuffer(o_masks, &m, PyBUF_C_CONTIGUOUS | PyBUF_ND) < 0 ||
        PyObject_GetBuffer(o_draws, &d, PyBUF_C_CONTIGUOUS) < 0 ||
        PyObject_GetBuffer(o_out, &o, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0)
        goto done;
    if (m.ndim != 2 || m.itemsize != 1) {
        PyErr_SetString(PyExc_ValueError, "masks must be a C-contiguous int8 array (games, actions)");
        goto done;
    }
    Py_ssize_t n = m.shape[0], a = m.shape[1];
    if (d.len != n * 8 || o.len != n * 8) {
        PyErr_SetString(PyExc_ValueError, "one float64 draw and one int64 slot per row");
        goto done;
    }
    const double *draws = (const double *)d.buf;
    int64_t *out = (int64_t *)o.buf;
    Py_ssize_t bad = -1;
    for (Py_ssize_t i = 0; i < n && bad < 0; i++) {
        const unsigned char *row = (const unsigned char *)m.buf + i * a;
        Py_ssize_t words = a / 8, count = 0;
        for (Py_ssize_t k = 0; k < words; k++) {
            uint64_t w;
            memcpy(&w, row + 8 * k, 8);
            if (w) count += nonzero_bytes(w);
        }
        for (Py_ssize_t j = words * 8; j < a; j++) count += row[j] != 0;
        if (!count) {
            bad = i;
            break;
        }
        Py_ssize_t want = (Py_ssize_t)(draws[i] * (double)count), j = 0;
        for (Py_ssize_t k = 0; k < words; k++, j += 8) {
            uint64_t w;
            memcpy(&w, row + j, 8);
            if (!w) continue;
            int c = nonzero_bytes(w);
            if (want >= c) {
                want -= c;
                continue;
            }
            break;
        }
        for (;; j++)
            if (row[j] && want-- == 0) break;
        out[i] = j;
    }
    result = PyLong_FromSsize_t(bad);
done:
    if (m.obj) PyBuffer_Release(&m);
    if (d.obj) PyBuffer_Release(&d);
    if (o.obj) PyBuffer_Release(&o);
    return result;
}

static PyMethodDef methods[] = {
    {"sample", sample, METH_VARARGS, "sample(masks, draws, out): one random legal id per row; -1 or a row with none"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_csample", "Random legal actions of a batch of masks.",
                                       -1, methods};

PyMODINIT_FUNC PyInit__csample(void) { return PyModule_Create(&moduledef); }
