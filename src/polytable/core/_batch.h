/* The buffers of a batch of games held in C (polytable.interop.vector): each game is one fixed-size slot in
 * a caller's buffer, with a row of legal ids beside it. What every game's batch shares: checking a caller's
 * buffer, and drawing one legal id per game from its row. Needs Python.h first. */
#ifndef POLYTABLE_BATCH_H
#define POLYTABLE_BATCH_H

#include <stddef.h>

/* A writable C-contiguous buffer of at least ``need`` bytes (released on failure). */
static int batch_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t need, const char *what) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) return -1;
    if (view->len < need) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "%s buffer too small (%zd bytes, %zd needed)", what, view->len, need);
        return -1;
    }
    return 0;
}

/* sample(states, ids, draws, out): for each game, its legal id number floor(draws[i] * count) in its ids row
 * (uniform over the legal ids for uniform draws; the order is the listing's, not the ids'). A slot is
 * ``slot`` bytes with its count of listed ids, an int, at ``count_at``; a row holds ``row`` ids. */
static PyObject *batch_sample(PyObject *args, size_t slot, size_t count_at, Py_ssize_t row) {
    PyObject *states, *ids, *o_draws, *o_out;
    if (!PyArg_ParseTuple(args, "OOOO", &states, &ids, &o_draws, &o_out)) return NULL;
    Py_buffer st = {0}, id = {0}, d = {0}, o = {0};
    PyObject *result = NULL;
    if (PyObject_GetBuffer(o_draws, &d, PyBUF_C_CONTIGUOUS) < 0 || batch_buffer(o_out, &o, d.len, "out") < 0 ||
        d.len % 8 || batch_buffer(states, &st, d.len / 8 * (Py_ssize_t)slot, "states") < 0 ||
        batch_buffer(ids, &id, d.len / 8 * row * 4, "ids") < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one float64 draw per game");
        goto done;
    }
    const double *draws = (const double *)d.buf;
    long long *out = (long long *)o.buf;
    const char *slots = (const char *)st.buf;
    const int *rows = (const int *)id.buf;
    for (Py_ssize_t i = 0; i < d.len / 8; i++) {
        int count = *(const int *)(slots + i * (Py_ssize_t)slot + count_at);
        if (!count) {
            PyErr_Format(PyExc_ValueError, "game %zd has no legal action", i);
            goto done;
        }
        out[i] = rows[i * row + (Py_ssize_t)(draws[i] * count)];
    }
    result = Py_NewRef(Py_None);
done:
    if (st.obj) PyBuffer_Release(&st);
    if (id.obj) PyBuffer_Release(&id);
    if (d.obj) PyBuffer_Release(&d);
    if (o.obj) PyBuffer_Release(&o);
    return result;
}

/* Every game's action checked before any game moves (vector.VectorEnv's checks, its messages): inside 0 ..
 * row - 1, then legal in the game's mask row (non-zero). 0, or -1 with ValueError naming the first game at
 * fault (an action outside the ids before an illegal one). */
static int batch_check(const long long *acts, Py_ssize_t n, const signed char *masks, Py_ssize_t row) {
    Py_ssize_t illegal = -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        long long a = acts[i];
        if (a < 0 || a >= row) {
            PyErr_Format(PyExc_ValueError, "game %zd: action %lld is outside 0..%zd", i, a, row - 1);
            return -1;
        }
        if (illegal < 0 && !masks[i * row + a]) illegal = i;
    }
    if (illegal >= 0) {
        PyErr_Format(PyExc_ValueError, "game %zd: action %lld is not legal now (see its action mask)", illegal,
                     acts[illegal]);
        return -1;
    }
    return 0;
}

#endif
