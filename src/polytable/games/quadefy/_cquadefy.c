/* polytable.games.quadefy._cquadefy: Quadefy's move generation, sampling and random playout in C.
 *
 * The bit logic is the Quadefy solver's (ai/_native/quadefy_solve.c, compiled into this extension too):
 * it mirrors _moves.orient_legal on the padded board, and the tables come from Python (init), so the
 * geometry stays single-sourced. Sampling repeats _moves.sample_placement draw for draw (candidates in id
 * order, Lemire's method on 32-bit halves, up to 24 rejections, then the k-th legal placement in the
 * order of _moves.legal_sets), so a seeded game is identical on both engines.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "../../ai/_native/quadefy_pyinit.h"
#include "../../ai/_native/quadefy_solve.h"

#define MAXP 2304
#define MAXO 128
#define TRIES 24
#define GOLDEN 0x9E3779B97F4A7C15ULL

static int n_place = 0, ready = 0;
static uint64_t p_mask[MAXP];
static int p_block[MAXP], p_orient[MAXP], p_bit[MAXP];

static inline uint64_t next_u64(uint64_t *s) {
    *s += GOLDEN;
    uint64_t z = *s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* _moves._below: uniform in [0, n) from 32-bit halves (Lemire) */
static inline int below32(uint64_t *s, uint64_t n) {
    uint64_t thresh = ((1ULL << 32) - n) % n;
    for (;;) {
        uint64_t v = next_u64(s);
        for (int i = 0; i < 2; i++) {
            uint64_t m = (v & 0xFFFFFFFFULL) * n;
            if ((m & 0xFFFFFFFFULL) >= thresh) return (int)(m >> 32);
            v >>= 32;
        }
    }
}

static inline uint64_t support_cells(uint64_t occ) { return (0xffffULL | occ << 16) & ~occ; }

/* _moves.candidates in id order: the hand's placements on empty cells with a supported cube */
static int candidates(uint64_t occ, int rem, int *out) {
    uint64_t sup = support_cells(occ);
    int n = 0;
    for (int p = 0; p < n_place; p++)
        if ((rem >> p_block[p] & 1) && !(p_mask[p] & occ) && (p_mask[p] & sup)) out[n++] = p;
    return n;
}

/* _moves.sample_placement: a placement id, or -1 when the hand cannot move */
static int sample(uint64_t occ, int rem, int flags, uint64_t *rng) {
    int cand[MAXP];
    int n = candidates(occ, rem, cand);
    if (!n) return -1;
    if (!flags) return cand[below32(rng, (uint64_t)n)];
    static uint64_t bits[MAXO][4];
    unsigned char seen[MAXO];
    memset(seen, 0, sizeof seen);
    for (int t = 0; t < TRIES; t++) {
        int p = cand[below32(rng, (uint64_t)n)];
        int o = p_orient[p];
        if (!seen[o]) {
            qs_orient_legal(o, occ, flags, bits[o]);
            seen[o] = 1;
        }
        if (bits[o][p_bit[p] >> 6] >> (p_bit[p] & 63) & 1) return p;
    }
    int pids[QS_MAXMOVES];
    int count = qs_legal(occ, rem, flags, pids);
    if (!count) return -1;
    return pids[below32(rng, (uint64_t)count)];
}

static int int_list(PyObject *seq, int *out, int max, int *len) {
    PyObject *fast = PySequence_Fast(seq, "expected a sequence of ints");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > max) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "too many entries");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) out[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
    Py_DECREF(fast);
    *len = (int)n;
    return PyErr_Occurred() ? -1 : 0;
}

/* init(solver_tables, pmask, pblock, porient, pbit): the move generator's tables (the arguments of the
 * solver's init, as a tuple) and, per placement, its cells, block, orientation and padded translation bit */
static PyObject *py_init(PyObject *self, PyObject *args) {
    PyObject *tables, *pm, *pb, *po, *pbit;
    if (!PyArg_ParseTuple(args, "O!OOOO", &PyTuple_Type, &tables, &pm, &pb, &po, &pbit)) return NULL;
    if (qs_init_from(tables) < 0) return NULL;
    PyObject *fast = PySequence_Fast(pm, "pmask must be a sequence");
    if (!fast) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > MAXP) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "too many placements");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) p_mask[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
    Py_DECREF(fast);
    if (PyErr_Occurred()) return NULL;
    int l1, l2, l3;
    if (int_list(pb, p_block, MAXP, &l1) < 0 || int_list(po, p_orient, MAXP, &l2) < 0 ||
        int_list(pbit, p_bit, MAXP, &l3) < 0)
        return NULL;
    if (l1 != n || l2 != n || l3 != n) {
        PyErr_SetString(PyExc_ValueError, "placement tables of different lengths");
        return NULL;
    }
    for (int i = 0; i < n; i++)
        if (p_orient[i] < 0 || p_orient[i] >= MAXO || p_bit[i] < 0 || p_bit[i] >= 256 || p_block[i] < 0 ||
            p_block[i] > 7) {
            PyErr_SetString(PyExc_ValueError, "placement table out of range");
            return NULL;
        }
    n_place = (int)n;
    ready = 1;
    Py_RETURN_NONE;
}

static int check_ready(void) {
    if (!ready) PyErr_SetString(PyExc_RuntimeError, "call init() with the Quadefy tables first");
    return ready;
}

static PyObject *py_sample(PyObject *self, PyObject *args) {
    unsigned long long occ, rs;
    int rem, flags;
    if (!PyArg_ParseTuple(args, "KiiK", &occ, &rem, &flags, &rs) || !check_ready()) return NULL;
    uint64_t rng = rs;
    int p = sample(occ, rem & 255, flags, &rng);
    return Py_BuildValue("(iK)", p, (unsigned long long)rng);
}

static PyObject *py_count(PyObject *self, PyObject *args) {
    unsigned long long occ;
    int rem, flags;
    if (!PyArg_ParseTuple(args, "Kii", &occ, &rem, &flags) || !check_ready()) return NULL;
    return PyLong_FromLong(qs_count(occ, rem & 255, flags));
}

static PyObject *py_any(PyObject *self, PyObject *args) {
    unsigned long long occ;
    int rem, flags;
    if (!PyArg_ParseTuple(args, "Kii", &occ, &rem, &flags) || !check_ready()) return NULL;
    return PyBool_FromLong(qs_any(occ, rem & 255, flags));
}

static PyObject *py_legal(PyObject *self, PyObject *args) {
    unsigned long long occ;
    int rem, flags;
    if (!PyArg_ParseTuple(args, "Kii", &occ, &rem, &flags) || !check_ready()) return NULL;
    int pids[QS_MAXMOVES];
    int n = qs_legal(occ, rem & 255, flags, pids);
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(pids[i]));
    return out;
}

/* playout(occ, owned0, owned1, rem0, rem1, to_move, loser, flags, rngs, shared, max_actions)
 * -> (occ, owned0, owned1, rem0, rem1, to_move, loser, new placement ids, rngs) */
static PyObject *py_playout(PyObject *self, PyObject *args) {
    unsigned long long occ, own[2];
    int rem[2], to_move, loser, flags, shared, max_actions;
    PyObject *o_rngs;
    if (!PyArg_ParseTuple(args, "KKKiiiiiOpi", &occ, &own[0], &own[1], &rem[0], &rem[1], &to_move, &loser, &flags,
                          &o_rngs, &shared, &max_actions) ||
        !check_ready())
        return NULL;
    if (to_move < 0 || to_move > 1) {
        PyErr_SetString(PyExc_ValueError, "the player to move is 0 or 1");
        return NULL;
    }
    uint64_t rng[2];
    int nr = shared ? 1 : 2;
    PyObject *fast = PySequence_Fast(o_rngs, "rngs must be a sequence");
    if (!fast) return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != nr) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "one generator state per player (or one shared)");
        return NULL;
    }
    for (int i = 0; i < nr; i++) rng[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
    Py_DECREF(fast);
    if (PyErr_Occurred()) return NULL;
    PyObject *moves = PyList_New(0);
    if (!moves) return NULL;
    int taken = 0;
    while (loser < 0 && (max_actions < 0 || taken < max_actions)) {
        int p = to_move;
        int pid = sample(occ, rem[p], flags, &rng[shared ? 0 : p]);
        if (pid < 0) {
            Py_DECREF(moves);
            PyErr_SetString(PyExc_ValueError, "the player to move cannot place any block");
            return NULL;
        }
        occ |= p_mask[pid];
        own[p] |= p_mask[pid];
        rem[p] &= ~(1 << p_block[pid]);
        int nxt = 1 - p;
        loser = qs_any(occ, rem[nxt], flags) ? -1 : nxt;
        to_move = nxt;
        PyObject *v = PyLong_FromLong(pid);
        if (!v || PyList_Append(moves, v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(moves);
            return NULL;
        }
        Py_DECREF(v);
        taken++;
    }
    PyObject *rngs = PyList_New(nr);
    if (!rngs) {
        Py_DECREF(moves);
        return NULL;
    }
    for (int i = 0; i < nr; i++) PyList_SET_ITEM(rngs, i, PyLong_FromUnsignedLongLong(rng[i]));
    return Py_BuildValue("(KKKiiiiNN)", occ, own[0], own[1], rem[0], rem[1], to_move, loser, moves, rngs);
}

static PyMethodDef methods[] = {
    {"init", py_init, METH_VARARGS, "init(solver_tables, pmask, pblock, porient, pbit)."},
    {"sample", py_sample, METH_VARARGS, "sample(occ, hand, flags, rng) -> (placement id or -1, rng)."},
    {"count", py_count, METH_VARARGS, "count(occ, hand, flags) -> legal placements."},
    {"any", py_any, METH_VARARGS, "any(occ, hand, flags) -> whether the hand can move."},
    {"legal", py_legal, METH_VARARGS, "legal(occ, hand, flags) -> placement ids in rules order."},
    {"playout", py_playout, METH_VARARGS, "Random placements to the end (or max_actions)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_cquadefy", "Quadefy's compiled move generator.", -1,
                                       methods};

PyMODINIT_FUNC PyInit__cquadefy(void) { return PyModule_Create(&moduledef); }
