/* The environments' observation and mask writers: small kernels that write a game's bitboards, features
 * and legal ids straight into preallocated NumPy buffers (uint8 planes of shape height x width x channels,
 * int8 masks), so a step pays one C call per plane instead of several NumPy calls.
 *
 * Game-neutral on purpose: the codecs of polytable/interop/_fast.py know each game's state and call these
 * with its bitboards; the same codecs fall back to NumPy when this module is not built, and the view-based
 * encoders of _planes.py stay the reference both are tested against (tests/interop/test_fast.py).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "../core/_pylong.h" /* ints as bytes */

#define MAX_BYTES 4096

/* The low bytes of a non-negative int, little-endian, zero-padded to ``n`` bytes (n <= MAX_BYTES). */
static int low_bytes(PyObject *v, unsigned char *buf, Py_ssize_t n) {
    if (!PyLong_Check(v)) {
        PyErr_SetString(PyExc_TypeError, "a bitboard must be an int");
        return -1;
    }
    memset(buf, 0, (size_t)n);
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t got = PyLong_AsNativeBytes(v, buf, n, Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER);
    return got < 0 ? -1 : 0;
#else
    int64_t bits = (int64_t)pylong_bits(v);
    if (bits < 0) return -1;
    Py_ssize_t need = (Py_ssize_t)((bits + 7) / 8);
    if (need <= n) return pylong_to_bytes(v, buf, (size_t)n, "bitboard");
    if (need > MAX_BYTES) {
        PyErr_SetString(PyExc_ValueError, "bitboard too large");
        return -1;
    }
    unsigned char whole[MAX_BYTES];
    if (pylong_to_bytes(v, whole, (size_t)need, "bitboard") < 0) return -1;
    memcpy(buf, whole, (size_t)n);
    return 0;
#endif
}

/* A writable C-contiguous uint8 buffer of 3 dimensions. */
static int planes_view(PyObject *obj, Py_buffer *view, Py_ssize_t *h, Py_ssize_t *w, Py_ssize_t *c) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE | PyBUF_FORMAT) < 0) return -1;
    if (view->ndim != 3 || view->itemsize != 1) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "planes must be a C-contiguous uint8 array (height, width, channels)");
        return -1;
    }
    *h = view->shape[0];
    *w = view->shape[1];
    *c = view->shape[2];
    return 0;
}

/* Planes ``ch`` .. ``ch + layers - 1`` from a bitboard (see grid). */
static int write_grid(unsigned char *out, Py_ssize_t h, Py_ssize_t w, Py_ssize_t c, Py_ssize_t ch, PyObject *value,
                      Py_ssize_t stride, int flip, Py_ssize_t layers) {
    Py_ssize_t nbytes = (layers * h * stride + 7) / 8;
    if (ch < 0 || layers < 1 || ch + layers > c || stride < w || nbytes > MAX_BYTES) {
        PyErr_SetString(PyExc_ValueError, "channel or stride outside the planes");
        return -1;
    }
    unsigned char bytes[MAX_BYTES];
    if (low_bytes(value, bytes, nbytes) < 0) return -1;
    for (Py_ssize_t z = 0; z < layers; z++) {
        for (Py_ssize_t r = 0; r < h; r++) {
            Py_ssize_t base = z * h * stride + (flip ? h - 1 - r : r) * stride;
            unsigned char *row = out + (r * w) * c + ch + z;
            for (Py_ssize_t x = 0; x < w; x++) {
                Py_ssize_t i = base + x;
                row[x * c] = (bytes[i >> 3] >> (i & 7)) & 1;
            }
        }
    }
    return 0;
}

/* grid(out, channel, bitboard, stride, flip[, layers]): plane ``channel`` gets bit ``row * stride + column``
 * of the bitboard at (row, column), rows counted from the bottom of the plane when ``flip``; with ``layers``
 * the next planes get the next ``height * stride`` bits each (a stack of layers in one bitboard). */
static PyObject *grid(PyObject *self, PyObject *args) {
    PyObject *obj, *value;
    Py_ssize_t ch, stride, layers = 1;
    int flip;
    if (!PyArg_ParseTuple(args, "OnOnp|n", &obj, &ch, &value, &stride, &flip, &layers)) return NULL;
    Py_buffer view;
    Py_ssize_t h, w, c;
    if (planes_view(obj, &view, &h, &w, &c) < 0) return NULL;
    int bad = write_grid((unsigned char *)view.buf, h, w, c, ch, value, stride, flip, layers);
    PyBuffer_Release(&view);
    if (bad) return NULL;
    Py_RETURN_NONE;
}

/* grids(out, channel, bitboards, stride, flip): one plane per bitboard, from ``channel`` on. */
static PyObject *grids(PyObject *self, PyObject *args) {
    PyObject *obj, *values;
    Py_ssize_t ch, stride;
    int flip;
    if (!PyArg_ParseTuple(args, "OnOnp", &obj, &ch, &values, &stride, &flip)) return NULL;
    PyObject *seq = PySequence_Fast(values, "bitboards must be a sequence of ints");
    if (seq == NULL) return NULL;
    Py_buffer view;
    Py_ssize_t h, w, c;
    if (planes_view(obj, &view, &h, &w, &c) < 0) {
        Py_DECREF(seq);
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    int bad = 0;
    for (Py_ssize_t k = 0; k < n && !bad; k++)
        bad = write_grid((unsigned char *)view.buf, h, w, c, ch + k, items[k], stride, flip, 1);
    PyBuffer_Release(&view);
    Py_DECREF(seq);
    if (bad) return NULL;
    Py_RETURN_NONE;
}

/* rect(out, channel, row0, row1, col0, col1): plane ``channel`` is 1 inside the rectangle, 0 elsewhere. */
static PyObject *rect(PyObject *self, PyObject *args) {
    PyObject *obj;
    Py_ssize_t ch, r0, r1, c0, c1;
    if (!PyArg_ParseTuple(args, "Onnnnn", &obj, &ch, &r0, &r1, &c0, &c1)) return NULL;
    Py_buffer view;
    Py_ssize_t h, w, c;
    if (planes_view(obj, &view, &h, &w, &c) < 0) return NULL;
    if (ch < 0 || ch >= c) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "channel outside the planes");
        return NULL;
    }
    unsigned char *out = (unsigned char *)view.buf;
    for (Py_ssize_t r = 0; r < h; r++)
        for (Py_ssize_t x = 0; x < w; x++)
            out[(r * w + x) * c + ch] = (r >= r0 && r < r1 && x >= c0 && x < c1) ? 1 : 0;
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

/* features(out, first, values): the channels from ``first`` on hold ``values`` row by row (each saturated
 * to 0..255), zeros after them. */
static PyObject *features(PyObject *self, PyObject *args) {
    PyObject *obj, *values;
    Py_ssize_t first;
    if (!PyArg_ParseTuple(args, "OnO", &obj, &first, &values)) return NULL;
    PyObject *seq = PySequence_Fast(values, "features must be a sequence of ints");
    if (seq == NULL) return NULL;
    Py_buffer view;
    Py_ssize_t h, w, c;
    if (planes_view(obj, &view, &h, &w, &c) < 0) {
        Py_DECREF(seq);
        return NULL;
    }
    Py_ssize_t k = c - first, n = PySequence_Fast_GET_SIZE(seq), area = h * w;
    if (first < 0 || k < 0 || n > k * area) {
        PyBuffer_Release(&view);
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "more features than the feature channels hold");
        return NULL;
    }
    unsigned char *out = (unsigned char *)view.buf;
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t j = 0; j < k * area; j++) {
        long v = 0;
        if (j < n) {
            v = PyLong_AsLong(items[j]);
            if (v == -1 && PyErr_Occurred()) {
                PyBuffer_Release(&view);
                Py_DECREF(seq);
                return NULL;
            }
        }
        Py_ssize_t plane = j / area, cell = j % area;
        out[cell * c + first + plane] = (unsigned char)(v < 0 ? 0 : (v > 255 ? 255 : v));
    }
    PyBuffer_Release(&view);
    Py_DECREF(seq);
    Py_RETURN_NONE;
}

/* mask(out, ids): the int8 mask is 1 at each id, 0 elsewhere. */
static PyObject *mask(PyObject *self, PyObject *args) {
    PyObject *obj, *ids;
    if (!PyArg_ParseTuple(args, "OO", &obj, &ids)) return NULL;
    PyObject *seq = PySequence_Fast(ids, "ids must be a sequence of ints");
    if (seq == NULL) return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) {
        Py_DECREF(seq);
        return NULL;
    }
    unsigned char *out = (unsigned char *)view.buf;
    Py_ssize_t size = view.len;
    memset(out, 0, (size_t)size);
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t j = 0; j < n; j++) {
        Py_ssize_t i = PyLong_AsSsize_t(items[j]);
        if (i == -1 && PyErr_Occurred()) break;
        if (i < 0 || i >= size) {
            PyErr_Format(PyExc_ValueError, "action id %zd outside the mask", i);
            break;
        }
        out[i] = 1;
    }
    PyBuffer_Release(&view);
    Py_DECREF(seq);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"grid", grid, METH_VARARGS, "grid(out, channel, bitboard, stride, flip[, layers]): planes from a bitboard."},
    {"grids", grids, METH_VARARGS, "grids(out, channel, bitboards, stride, flip): one plane per bitboard."},
    {"rect", rect, METH_VARARGS, "rect(out, channel, row0, row1, col0, col1): a 0/1 rectangle plane."},
    {"features", features, METH_VARARGS, "features(out, first, values): the feature channels, row by row."},
    {"mask", mask, METH_VARARGS, "mask(out, ids): an int8 mask with ones at the ids."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_cplanes", "Observation and mask writers.", -1, methods};

PyMODINIT_FUNC PyInit__cplanes(void) { return PyModule_Create(&module); }
