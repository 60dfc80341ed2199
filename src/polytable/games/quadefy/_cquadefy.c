/* polytable.games.quadefy._cquadefy: Quadefy's move generation, sampling, apply and random playouts in C.
 *
 * The bit logic is the Quadefy solver's (ai/_native/quadefy_solve.c, compiled into this extension too):
 * it mirrors _moves.orient_legal on the padded board, and the tables come from Python (init), so the
 * geometry stays single-sourced. Sampling and playouts (_cquadefy_kernel.h) repeat
 * _moves.sample_placement draw for draw, so a seeded game is identical on both engines.
 *
 * This file is the Python face. apply, draw, playout and playouts take QuadefyState objects and answer new
 * ones; the kernel reads and writes a state's numbers as one struct, QBuf, described once in Python
 * (_kernel.POSITION, a core.StateLayout named after the state's fields): bind() checks the description
 * against the struct and the state class's fields are read into it and made from it by that description
 * (core/_codec.h's codec), not through the dataclass's __init__ (the per-step Python objects were most of
 * the protocol loop's time). layout() reports the struct; tests/kernel/test_layouts.py compares it with the
 * description. Each entry point declines (returns None) what it does not handle, and the caller then runs
 * the checked Python path.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "../../core/_codec.h" /* the state class read into QBuf and made from it (a codec) */
#include "quadefy_moves.h"
#include "quadefy_pyinit.h"
#include "_cquadefy_kernel.h"

static int ready = 0;

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

static PyObject *py_why(PyObject *self, PyObject *args) {
    unsigned long long occ;
    int p, flags;
    if (!PyArg_ParseTuple(args, "Kii", &occ, &p, &flags) || !check_ready()) return NULL;
    if (p < 0 || p >= n_place) {
        PyErr_SetString(PyExc_ValueError, "placement id out of range");
        return NULL;
    }
    return PyLong_FromLong(why_illegal(occ, p, flags));
}

/* ---- the state buffer: QuadefyState's numbers, described once in Python (_kernel.POSITION) ---- */
typedef struct {
    uint64_t occupied, owned[2];
    int64_t remaining[2], to_move, loser, flags;
} QBuf;
#define QBUF_FIELDS(X) X(occupied) X(owned) X(remaining) X(to_move) X(loser) X(flags)
#define QBUF_MEMBER(m) LAYOUT_MEMBER(QBuf, m)
static const LayoutMember qbuf_members[] = {QBUF_FIELDS(QBUF_MEMBER)};
#undef QBUF_MEMBER
#define QBUF_N ((int)(sizeof qbuf_members / sizeof qbuf_members[0]))

/* layout() -> ((name, offset, size), ...), sizeof: QBuf as this build lays it out. */
static PyObject *py_layout(PyObject *self, PyObject *noargs) {
    return layout_of_members(qbuf_members, QBUF_N, sizeof(QBuf));
}

static Codec state_codec;            /* QuadefyState <-> QBuf, bound by bind */
enum { O_CONFIG, O_MOVES, NOBJ };    /* the state's fields kept as objects */
static int obj_at[NOBJ];             /* their indices among the class's fields */
static PyObject *str_state = NULL; /* "state": the attribute of core.Rng */
static PyObject *pid_obj[MAXP];     /* the int object of every placement id, shared by the move tuples */

/* bind(QuadefyState, spec): the state class and its buffer's description (_kernel.POSITION.codec_spec of
 * it), checked against QBuf, so apply can read and build states without the dataclass's __init__. */
static PyObject *py_bind(PyObject *self, PyObject *args) {
    PyObject *cls, *spec;
    static const char *const objs[NOBJ] = {"config", "moves"};
    if (!PyArg_ParseTuple(args, "O!O!", &PyType_Type, &cls, &PyTuple_Type, &spec)) return NULL;
    if (codec_bind(&state_codec, cls, spec, qbuf_members, QBUF_N, objs, obj_at, NOBJ) < 0) return NULL;
    if (!str_state && !(str_state = PyUnicode_InternFromString("state"))) return NULL;
    for (int p = 0; p < n_place; p++)
        if (!pid_obj[p] && !(pid_obj[p] = PyLong_FromLong(p))) return NULL;
    Py_RETURN_NONE;
}

/* A bound state's position and flags: 1, or 0 when st is not a well-formed bound state, -1 on error. */
static int read_state(PyObject *st, QPos *q, int *flags) {
    QBuf b;
    int ok = codec_read(&state_codec, st, &b);
    if (ok <= 0) return ok;
    PyObject *moves = fields_get(&state_codec.cls, st, obj_at[O_MOVES]);
    if (!moves) return -1;
    if (!PyTuple_CheckExact(moves)) return 0;
    q->occ = b.occupied;
    q->own[0] = b.owned[0];
    q->own[1] = b.owned[1];
    q->rem[0] = (int)(b.remaining[0] & 255);
    q->rem[1] = (int)(b.remaining[1] & 255);
    q->to_move = (int)b.to_move;
    q->loser = (int)b.loser;
    *flags = (int)b.flags;
    return b.to_move == 0 || b.to_move == 1;
}

/* A new 2-tuple holding a and b (stolen), or NULL when either is NULL or the tuple cannot be made. */
static PyObject *pair_of(PyObject *a, PyObject *b) {
    PyObject *t = a && b ? PyTuple_New(2) : NULL;
    if (!t) {
        Py_XDECREF(a);
        Py_XDECREF(b);
        return NULL;
    }
    PyTuple_SET_ITEM(t, 0, a);
    PyTuple_SET_ITEM(t, 1, b);
    return t;
}

/* A new state: the config of st, position q with flags, the moves of st followed by pids[0..n). The same
 * values as the dataclass built by _game._apply, without its __init__. */
static PyObject *make_state(PyObject *st, const QPos *q, int flags, const int *pids, int n) {
    PyObject *moves = fields_get(&state_codec.cls, st, obj_at[O_MOVES]);
    PyObject *config = fields_get(&state_codec.cls, st, obj_at[O_CONFIG]);
    if (!moves || !config) return NULL;
    Py_ssize_t k = PyTuple_GET_SIZE(moves);
    PyObject *v_moves = PyTuple_New(k + n);
    if (v_moves) {
        for (Py_ssize_t i = 0; i < k; i++) PyTuple_SET_ITEM(v_moves, i, Py_NewRef(PyTuple_GET_ITEM(moves, i)));
        for (int i = 0; i < n; i++) PyTuple_SET_ITEM(v_moves, k + i, Py_NewRef(pid_obj[pids[i]]));
    }
    QBuf b = {q->occ, {q->own[0], q->own[1]}, {q->rem[0], q->rem[1]}, q->to_move, q->loser, flags};
    PyObject *v[FIELDS_MAX] = {NULL};
    v[obj_at[O_CONFIG]] = Py_NewRef(config);
    v[obj_at[O_MOVES]] = v_moves;
    return codec_make(&state_codec, &b, v);
}

/* apply(state, pid, player or None) -> the next state, or None when this fast path does not apply (not a
 * bound state, the game is over, not that player's turn, the block is not in hand, the placement is
 * illegal): the caller then takes the checked Python path, which gives the error. */
static PyObject *py_apply(PyObject *self, PyObject *args) {
    PyObject *st, *who;
    int pid, flags;
    QPos q;
    if (!PyArg_ParseTuple(args, "OiO", &st, &pid, &who) || !check_ready()) return NULL;
    int ok = read_state(st, &q, &flags);
    if (ok < 0) return NULL;
    if (!ok || pid < 0 || pid >= n_place || q.loser >= 0) Py_RETURN_NONE;
    if (who != Py_None) {
        if (!PyLong_CheckExact(who)) Py_RETURN_NONE;
        int overflow;
        long player = PyLong_AsLongAndOverflow(who, &overflow);
        if (overflow || player != q.to_move) Py_RETURN_NONE;
    }
    int p = q.to_move;
    if (!(q.rem[p] >> p_block[pid] & 1) || why_illegal(q.occ, pid, flags)) Py_RETURN_NONE;
    q.occ |= p_mask[pid];
    q.own[p] |= p_mask[pid];
    q.rem[p] &= ~(1 << p_block[pid]);
    q.to_move = 1 - p;
    q.loser = qs_any(q.occ, q.rem[q.to_move], flags) ? -1 : q.to_move;
    return make_state(st, &q, flags, &pid, 1);
}

static int rng_get(PyObject *rng, uint64_t *out) {
    PyObject *v = PyObject_GetAttr(rng, str_state);
    if (!v) return -1;
    *out = PyLong_AsUnsignedLongLong(v);
    Py_DECREF(v);
    return PyErr_Occurred() ? -1 : 0;
}

static int rng_set(PyObject *rng, uint64_t value) {
    PyObject *v = PyLong_FromUnsignedLongLong(value);
    if (!v) return -1;
    int r = PyObject_SetAttr(rng, str_state, v);
    Py_DECREF(v);
    return r;
}

/* draw(state, player, rng) -> a uniformly random legal placement id of that player's hand with the draws
 * of _moves.sample_placement, rng.state advanced; -1, rng untouched, when state is not a bound state or
 * the hand cannot move (the caller's Python path then decides). */
static PyObject *py_draw(PyObject *self, PyObject *args) {
    PyObject *st, *rng_obj;
    int player, flags;
    QPos q;
    if (!PyArg_ParseTuple(args, "OiO", &st, &player, &rng_obj) || !check_ready()) return NULL;
    int ok = read_state(st, &q, &flags);
    if (ok < 0) return NULL;
    if (!ok || (player != 0 && player != 1)) return PyLong_FromLong(-1);
    uint64_t rng, blk[NW], sup[NW], cand[NW];
    if (rng_get(rng_obj, &rng) < 0) return NULL;
    qs_covers(q.occ, q.rem[player], blk, sup);
    int p = draw(q.occ, q.rem[player], flags, &rng, cand, qs_candidates(q.rem[player], blk, sup, cand), 1);
    if (p >= 0 && rng_set(rng_obj, rng) < 0) return NULL;
    return PyLong_FromLong(p);
}

/* One playout from a bound state whose covers are blk0, sup0: (final state, actions taken), or NULL with an
 * error set. */
static PyObject *playout_of(PyObject *st, const QPos *start, int flags, uint64_t rng[2], int shared, int max_actions,
                            const uint64_t blk0[NW], const uint64_t sup0[NW]) {
    QPos q = *start;
    int pids[64];
    uint64_t blk[NW], sup[NW];
    memcpy(blk, blk0, sizeof blk);
    memcpy(sup, sup0, sizeof sup);
    int n = run_playout(&q, flags, rng, shared, max_actions, pids, blk, sup);
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "the player to move cannot place any block");
        return NULL;
    }
    return pair_of(make_state(st, &q, flags, pids, n), PyLong_FromLong(n));
}

/* playout(state, rngs, max_actions or -1) -> (final state, actions taken), the generators (core.Rng:
 * one shared or one per seat) advanced; None when state is not a bound state (the caller plays in Python). */
static PyObject *py_playout(PyObject *self, PyObject *args) {
    PyObject *st, *rngs;
    int max_actions, flags;
    QPos q;
    if (!PyArg_ParseTuple(args, "OO!i", &st, &PyList_Type, &rngs, &max_actions) || !check_ready()) return NULL;
    int ok = read_state(st, &q, &flags);
    if (ok <= 0) {
        if (ok < 0) return NULL;
        Py_RETURN_NONE;
    }
    Py_ssize_t nr = PyList_GET_SIZE(rngs);
    if (nr < 1) {
        PyErr_SetString(PyExc_ValueError, "give one generator, or one per seat");
        return NULL;
    }
    int shared = nr == 1;
    uint64_t rng[2];
    for (int i = 0; i < (shared ? 1 : 2); i++)
        if (rng_get(PyList_GET_ITEM(rngs, i), &rng[i]) < 0) return NULL;
    uint64_t blk[NW], sup[NW];
    qs_covers(q.occ, 255, blk, sup);
    PyObject *out = playout_of(st, &q, flags, rng, shared, max_actions, blk, sup);
    if (!out) return NULL;
    for (int i = 0; i < (shared ? 1 : 2); i++)
        if (rng_set(PyList_GET_ITEM(rngs, i), rng[i]) < 0) {
            Py_DECREF(out);
            return NULL;
        }
    return out;
}

/* playouts(state, seeds, stream) -> [(final state, actions taken)] per seed: seat p draws from the
 * generator core.Rng(seed, stream=stream + p) (a batch of simulated games in one call); None when state
 * is not a bound state or a seed does not fit 64 bits (the caller plays in Python). */
static PyObject *py_playouts(PyObject *self, PyObject *args) {
    PyObject *st, *seeds;
    long long stream;
    int flags;
    QPos q;
    if (!PyArg_ParseTuple(args, "OO!L", &st, &PyList_Type, &seeds, &stream) || !check_ready()) return NULL;
    int ok = read_state(st, &q, &flags);
    if (ok < 0) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(seeds);
    int64_t *vals = PyMem_Malloc((n ? n : 1) * sizeof(int64_t));
    if (!vals) return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < n && ok > 0; i++) {
        PyObject *s = PyList_GET_ITEM(seeds, i);
        int overflow = 0;
        vals[i] = PyLong_Check(s) && !PyBool_Check(s) ? PyLong_AsLongLongAndOverflow(s, &overflow) : 0;
        if (!PyLong_Check(s) || PyBool_Check(s) || overflow) ok = 0;
    }
    PyObject *out = ok > 0 ? PyList_New(n) : NULL;
    uint64_t blk[NW], sup[NW];
    qs_covers(q.occ, 255, blk, sup);
    /* The batch makes only acyclic objects (ints, tuples of them, states of those): no collection needed. */
    int gc_was = PyGC_Disable();
    for (Py_ssize_t i = 0; out && i < n; i++) {
        uint64_t rng[2] = {rng_seed_state(vals[i], stream), rng_seed_state(vals[i], stream + 1)};
        PyObject *one = playout_of(st, &q, flags, rng, 0, -1, blk, sup);
        if (!one) Py_CLEAR(out);
        else PyList_SET_ITEM(out, i, one);
    }
    if (gc_was) PyGC_Enable();
    PyMem_Free(vals);
    if (!out && !PyErr_Occurred()) Py_RETURN_NONE;
    return out;
}

static PyMethodDef methods[] = {
    {"init", py_init, METH_VARARGS, "init(solver_tables, pmask, pblock, porient, pbit)."},
    {"sample", py_sample, METH_VARARGS, "sample(occ, hand, flags, rng) -> (placement id or -1, rng)."},
    {"count", py_count, METH_VARARGS, "count(occ, hand, flags) -> legal placements."},
    {"any", py_any, METH_VARARGS, "any(occ, hand, flags) -> whether the hand can move."},
    {"legal", py_legal, METH_VARARGS, "legal(occ, hand, flags) -> placement ids in rules order."},
    {"playout", py_playout, METH_VARARGS, "playout(state, rngs, max_actions) -> (state, taken) or None."},
    {"draw", py_draw, METH_VARARGS, "draw(state, player, rng) -> placement id, or -1 (rng untouched)."},
    {"playouts", py_playouts, METH_VARARGS, "playouts(state, seeds, stream) -> [(state, taken)] or None."},
    {"why", py_why, METH_VARARGS, "why(occ, pid, flags) -> 0 legal, 1 overlap, 2 floats, 3 topples, 4 unreachable."},
    {"bind", py_bind, METH_VARARGS, "bind(state_class, spec): the state class and its buffer's description."},
    {"layout", py_layout, METH_NOARGS, "layout() -> the state buffer's members (name, offset, size) and size."},
    {"apply", py_apply, METH_VARARGS, "apply(state, pid, player or None) -> next state or None."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_cquadefy", "Quadefy's compiled move generator.", -1,
                                       methods};

PyMODINIT_FUNC PyInit__cquadefy(void) { return PyModule_Create(&moduledef); }
