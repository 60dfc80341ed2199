/* The buffers of a batch of games held in C (polytable.interop.vector): each game is one fixed-size slot in
 * a caller's buffer, with a row of legal ids beside it. What every game's batch shares: checking a caller's
 * buffers (the observations, a step's per-game inputs and outputs) and releasing them, the check of a game
 * index and of every action before any game moves, drawing one legal id per game, and the module's
 * creation. Needs Python.h first. */
#ifndef POLYTABLE_BATCH_H
#define POLYTABLE_BATCH_H

#include <stddef.h>
#include <string.h>

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

/* Releases each view that holds a buffer (a view never acquired is all zeros): BATCH_RELEASE(&a, &b, ...). */
static void batch_release(Py_buffer *const *views, int n) {
    for (int k = 0; k < n; k++)
        if (views[k]->obj) PyBuffer_Release(views[k]);
}
#define BATCH_RELEASE(...)                               \
    batch_release((Py_buffer *const[]){__VA_ARGS__},     \
                  (int)(sizeof((Py_buffer *const[]){__VA_ARGS__}) / sizeof(Py_buffer *)))

/* The observations: a writable C-contiguous uint8 buffer (games, h, w, c), c < 0 for any number of channels.
 * The games (shape[0]), or -1 with ValueError (the view, when acquired, is the caller's to release). */
static Py_ssize_t batch_obs(PyObject *obs, Py_buffer *view, Py_ssize_t h, Py_ssize_t w, Py_ssize_t c) {
    if (PyObject_GetBuffer(obs, view, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE | PyBUF_ND) < 0) return -1;
    if (view->ndim != 4 || view->itemsize != 1 || view->shape[1] != h || view->shape[2] != w ||
        (c >= 0 && view->shape[3] != c)) {
        if (c >= 0) PyErr_Format(PyExc_ValueError, "observations must be uint8 (games, %zd, %zd, %zd)", h, w, c);
        else PyErr_Format(PyExc_ValueError, "observations must be uint8 (games, %zd, %zd, channels)", h, w);
        return -1;
    }
    return view->shape[0];
}

/* Game index i of n: 0, or -1 with IndexError. */
static int batch_game(Py_ssize_t i, Py_ssize_t n) {
    if (i >= 0 && i < n) return 0;
    PyErr_SetString(PyExc_IndexError, "game index out of range");
    return -1;
}

/* A step's per-game buffers besides the rows (the vector env's arrays): the actions (int64) in; the seat to
 * act next (int16), the rewards (float32), the returns (float32, players a game), whether the game ended
 * (one byte) and the episodes (int64) out. One not given (NULL) is not acquired and its pointer is NULL. */
typedef struct {
    Py_buffer views[6];
    const long long *acts;
    short *to_act;
    float *rewards, *returns;
    unsigned char *ended;
    long long *episodes;
} BatchIO;

/* Acquires io's buffers for n games of ``players`` seats (``ended_name`` names the ended buffer in errors): 0,
 * or -1 with an exception (ValueError "one int64 action per game" when the actions are not n int64). */
static int batch_io(BatchIO *io, Py_ssize_t n, int players, PyObject *acts, PyObject *to_act, PyObject *rewards,
                    PyObject *returns, PyObject *ended, const char *ended_name, PyObject *episodes) {
    memset(io, 0, sizeof *io);
    Py_buffer *v = io->views;
    if (PyObject_GetBuffer(acts, &v[0], PyBUF_C_CONTIGUOUS) < 0 || v[0].len != n * 8 ||
        (to_act && batch_buffer(to_act, &v[1], n * 2, "to_act") < 0) ||
        batch_buffer(rewards, &v[2], n * 4, "rewards") < 0 ||
        batch_buffer(returns, &v[3], n * players * 4, "returns") < 0 ||
        (ended && batch_buffer(ended, &v[4], n, ended_name) < 0) ||
        (episodes && batch_buffer(episodes, &v[5], n * 8, "episodes") < 0)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one int64 action per game");
        return -1;
    }
    io->acts = (const long long *)v[0].buf;
    io->to_act = (short *)v[1].buf;
    io->rewards = (float *)v[2].buf;
    io->returns = (float *)v[3].buf;
    io->ended = (unsigned char *)v[4].buf;
    io->episodes = (long long *)v[5].buf;
    return 0;
}

/* The rewards, returns and ended flags of n games zeroed (after the checks, before any game moves). */
static void batch_io_clear(BatchIO *io, Py_ssize_t n, int players) {
    memset(io->rewards, 0, (size_t)n * 4);
    memset(io->returns, 0, (size_t)n * players * 4);
    if (io->ended) memset(io->ended, 0, (size_t)n);
}

static void batch_io_release(BatchIO *io) {
    for (int k = 0; k < 6; k++)
        if (io->views[k].obj) PyBuffer_Release(&io->views[k]);
}

/* A game's legal id number k (0 <= k < its count) from its slot and its ids row (NULL when the batch keeps
 * no ids row: its slot knows its legal ids). */
typedef long long (*BatchPick)(const void *slot, const int *ids, int k);

/* sample(states, ids, draws, out): for each game, its legal id number floor(draws[i] * count) (uniform over
 * the legal ids for uniform draws; the order is the listing's, not the ids'), found by pick, or in its ids
 * row when pick is NULL. A slot is ``slot`` bytes with its count of listed ids, an int, at ``count_at``; a
 * row holds ``row`` ids (0: no ids row, ``ids`` unused). */
static PyObject *batch_sample_by(PyObject *args, size_t slot, size_t count_at, Py_ssize_t row, BatchPick pick) {
    PyObject *states, *ids, *o_draws, *o_out;
    if (!PyArg_ParseTuple(args, "OOOO", &states, &ids, &o_draws, &o_out)) return NULL;
    Py_buffer st = {0}, id = {0}, d = {0}, o = {0};
    PyObject *result = NULL;
    if (PyObject_GetBuffer(o_draws, &d, PyBUF_C_CONTIGUOUS) < 0 || batch_buffer(o_out, &o, d.len, "out") < 0 ||
        d.len % 8 || batch_buffer(states, &st, d.len / 8 * (Py_ssize_t)slot, "states") < 0 ||
        (row && batch_buffer(ids, &id, d.len / 8 * row * 4, "ids") < 0)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one float64 draw per game");
        goto done;
    }
    const double *draws = (const double *)d.buf;
    long long *out = (long long *)o.buf;
    const char *slots = (const char *)st.buf;
    const int *rows = (const int *)id.buf;
    for (Py_ssize_t i = 0; i < d.len / 8; i++) {
        const char *at = slots + i * (Py_ssize_t)slot;
        int count = *(const int *)(at + count_at);
        if (!count) {
            PyErr_Format(PyExc_ValueError, "game %zd has no legal action", i);
            goto done;
        }
        int k = (int)(draws[i] * count);
        k = k < 0 ? 0 : k < count ? k : count - 1; /* a draw of 1.0 or a rounding up stays in the row */
        const int *own = row ? rows + i * row : NULL;
        out[i] = pick ? pick(at, own, k) : own[k];
    }
    result = Py_NewRef(Py_None);
done:
    BATCH_RELEASE(&st, &id, &d, &o);
    return result;
}

/* sample(states, ids, draws, out) of a batch whose ids rows list each game's legal ids (batch_sample_by). */
static PyObject *batch_sample(PyObject *args, size_t slot, size_t count_at, Py_ssize_t row) {
    return batch_sample_by(args, slot, count_at, row, NULL);
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

/* The batch's module made from def, with its action ids' count as NUM_IDS (NULL with an exception). */
static PyObject *batch_module(struct PyModuleDef *def, long num_ids) {
    PyObject *m = PyModule_Create(def);
    if (m && PyModule_AddIntConstant(m, "NUM_IDS", num_ids) < 0) Py_CLEAR(m);
    return m;
}

#endif
