/* polytable.games.qwirkle_cubes._cqwirkle: Qwirkle Cubes' hot path in C (see _native.py for its use).
 *
 * This unit is the Python face: it converts the state's tuples (cells packed as in _tiles.cell) to the
 * C table of qwirkle_board.c and back, and runs the turn sequence of qwirkle_flow.c for a random
 * playout. The table of the last call is kept (with a reference to the `placed` tuple it came from),
 * so the calls of one turn, and the next turn's (whose `placed` extends it), do not rebuild it.
 * Not thread-safe: it relies on the GIL, like the rest of the interpreter's objects.
 */
#include "qwirkle_api.h"
#include "../../core/_layout.h" /* layout(): the state buffer as this build lays it out */

#include <stddef.h>
#include <string.h>

#define PSTRIDE 512 /* the Python packed cell: (y + 256) * 512 + (x + 256) */
#define POFF 256
#define MAXC 89

static QBoard board;
static PyObject *loaded; /* the `placed` tuple the board holds (a strong reference), or NULL */

static int to_c(long c, int *out) {
    if (c < 0) return -1;
    long x = c % PSTRIDE - POFF, y = c / PSTRIDE - POFF;
    if (x < -MAXC || x > MAXC || y < -MAXC || y > MAXC) return -1;
    *out = q_index((int)x, (int)y);
    return 0;
}

static long to_py(int i) { return (long)(q_y(i) + POFF) * PSTRIDE + (q_x(i) + POFF); }

static int put_item(PyObject *item) {
    if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 2) {
        PyErr_SetString(PyExc_ValueError, "a placed cube is a (face, cell) pair");
        return -1;
    }
    long t = PyLong_AsLong(PyTuple_GET_ITEM(item, 0)), c = PyLong_AsLong(PyTuple_GET_ITEM(item, 1));
    if (PyErr_Occurred()) return -1;
    int at;
    if (t < 0 || t >= 36 || to_c(c, &at) < 0 || board.cell[at] || board.ncubes >= QMAXCUBES) {
        PyErr_SetString(PyExc_ValueError, "a placed cube is out of range, or on a taken cell");
        return -1;
    }
    qb_put(&board, (int)t, at);
    return 0;
}

/* Make the C table hold `placed`; reuse what it holds when `placed` is it, or extends it. */
static int load(PyObject *placed) {
    if (!PyTuple_Check(placed)) {
        PyErr_SetString(PyExc_TypeError, "placed must be a tuple of (face, cell) pairs");
        return -1;
    }
    if (placed == loaded) return 0;
    Py_ssize_t n = PyTuple_GET_SIZE(placed), from = 0;
    if (loaded != NULL && PyTuple_GET_SIZE(loaded) <= n) {
        Py_ssize_t m = PyTuple_GET_SIZE(loaded);
        while (from < m && PyTuple_GET_ITEM(loaded, from) == PyTuple_GET_ITEM(placed, from)) from++;
        if (from < m) from = 0;
    }
    if (from == 0) qb_clear(&board);
    Py_CLEAR(loaded);
    for (Py_ssize_t i = from; i < n; i++)
        if (put_item(PyTuple_GET_ITEM(placed, i)) < 0) {
            qb_clear(&board);
            return -1;
        }
    Py_INCREF(placed);
    loaded = placed;
    return 0;
}

static PyObject *cubes_tuple(const int *faces, const int *cells, int k) {
    PyObject *out = PyTuple_New(k);
    if (out == NULL) return NULL;
    for (int i = 0; i < k; i++) {
        PyObject *pair = Py_BuildValue("(il)", faces[i], to_py(cells[i]));
        if (pair == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, pair);
    }
    return out;
}

static int int_seq(PyObject *seq, int *out, Py_ssize_t n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL) return -1;
    int ok = PySequence_Fast_GET_SIZE(fast) == n;
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        out[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (out[i] == -1 && PyErr_Occurred()) ok = 0;
    }
    Py_DECREF(fast);
    if (!ok && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, what);
    return ok ? 0 : -1;
}

/* The walk's hand and count, checked (need is already parsed into w). */
static int set_hand(QWalk *w, unsigned long long hand) {
    if (hand > ALL_FACES || w->need < 0 || w->need > QHAND) {
        PyErr_SetString(PyExc_ValueError, "hand is a 36-bit face mask and need is 0 to 6");
        return -1;
    }
    w->hand = hand;
    return 0;
}

static int parse_walk(PyObject *args, QWalk *w, const char *fmt, unsigned long long *rng) {
    PyObject *placed;
    unsigned long long hand;
    int ok = rng ? PyArg_ParseTuple(args, fmt, &placed, &hand, &w->need, rng)
                 : PyArg_ParseTuple(args, fmt, &placed, &hand, &w->need);
    if (!ok || load(placed) < 0) return -1;
    return set_hand(w, hand);
}

static PyObject *py_count(PyObject *self, PyObject *args) {
    QWalk w = {0};
    if (parse_walk(args, &w, "OKi", NULL) < 0) return NULL;
    return PyLong_FromLongLong(qb_walk(&board, &w));
}

typedef struct {
    int k, faces[QHAND], cells[QHAND];
} Pick;

static int pick(QWalk *w, int k) {
    Pick *p = (Pick *)w->ctx;
    if (w->r--) return 0;
    p->k = k;
    for (int i = 0; i < k; i++) {
        p->faces[i] = w->faces[i];
        p->cells[i] = w->cells[i];
    }
    return 1;
}

static PyObject *py_sample(PyObject *self, PyObject *args) {
    QWalk w = {0};
    unsigned long long rng;
    if (parse_walk(args, &w, "OKiK", &rng) < 0) return NULL;
    long long n = qb_walk(&board, &w);
    if (n == 0) return Py_BuildValue("(OK)", Py_None, rng);
    uint64_t st = rng;
    Pick p = {0};
    w.r = (long long)below(&st, (uint64_t)n);
    w.emit = pick;
    w.ctx = &p;
    qb_locate(&board, &w);
    PyObject *cubes = cubes_tuple(p.faces, p.cells, p.k);
    if (cubes == NULL) return NULL;
    return Py_BuildValue("(NK)", cubes, (unsigned long long)st);
}

/* Appends a new reference to a list and drops it: 1 when either failed (the emitters' error value). */
static int append_new(PyObject *list, PyObject *item) {
    if (item == NULL) return 1;
    int failed = PyList_Append(list, item) < 0;
    Py_DECREF(item);
    return failed;
}

static int collect(QWalk *w, int k) { return append_new((PyObject *)w->ctx, cubes_tuple(w->faces, w->cells, k)); }

static PyObject *py_placements(PyObject *self, PyObject *args) {
    QWalk w = {0};
    if (parse_walk(args, &w, "OKi", NULL) < 0) return NULL;
    PyObject *out = PyList_New(0);
    if (out == NULL) return NULL;
    w.emit = collect;
    w.ctx = out;
    qb_walk(&board, &w);
    if (PyErr_Occurred()) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

static PyObject *py_placeable(PyObject *self, PyObject *args) {
    PyObject *placed;
    if (!PyArg_ParseTuple(args, "O", &placed) || load(placed) < 0) return NULL;
    return PyLong_FromUnsignedLongLong(qb_placeable(&board));
}

static PyObject *py_table(PyObject *self, PyObject *args) {
    PyObject *placed;
    if (!PyArg_ParseTuple(args, "O", &placed) || load(placed) < 0) return NULL;
    PyObject *cells = PyDict_New(), *front = PySet_New(NULL);
    for (int i = 0; cells != NULL && front != NULL && i < board.ncubes; i++) {
        PyObject *k = PyLong_FromLong(to_py(board.at[i])), *v = PyLong_FromLong(board.face[i]);
        int bad = k == NULL || v == NULL || PyDict_SetItem(cells, k, v) < 0;
        Py_XDECREF(k);
        Py_XDECREF(v);
        if (bad) Py_CLEAR(cells);
    }
    for (int i = 0; cells != NULL && front != NULL && i < board.nfront; i++) {
        PyObject *k = PyLong_FromLong(to_py(board.fl[i]));
        if (k == NULL || PySet_Add(front, k) < 0) Py_CLEAR(front);
        Py_XDECREF(k);
    }
    if (cells == NULL || front == NULL) {
        Py_XDECREF(cells);
        Py_XDECREF(front);
        return NULL;
    }
    return Py_BuildValue("(NN)", cells, front);
}

/* The playout's state buffer: a QState's numbers (the table travels as the `placed` tuple beside it), the
 * generators and the limit, written back with the end state. Described once, in Python (_kernel.PLAYOUT, a
 * core.StateLayout): layout() reports the members and tests/kernel/test_layouts.py compares them. Every
 * member is a multiple of 8 bytes (no padding); players past `players` are zeros. */
#define HAND_BYTES 8 /* QHAND faces of one byte, rounded up to 8 */
typedef struct {
    int64_t players;
    uint64_t rng;
    int64_t phase, player, rolling, forced, passes, turn, finisher;
    int64_t shared, max_actions, taken; /* one generator for all; -1: no limit; out: the actions taken */
    uint64_t seats[QMAXP];              /* the seats' generators (seats[0] when shared) */
    int64_t hlen[QMAXP];
    unsigned char hand[QMAXP][HAND_BYTES];
    int64_t bag[6], points[QMAXP], last[3];
} QPlayoutBuf;
#define PLAYOUT_FIELDS(X)                                                                                          \
    X(players) X(rng) X(phase) X(player) X(rolling) X(forced) X(passes) X(turn) X(finisher) X(shared)             \
    X(max_actions) X(taken) X(seats) X(hlen) X(hand) X(bag) X(points) X(last)

/* layout() -> ((name, offset, size), ...), sizeof: the playout buffer's members as this build lays them out. */
static PyObject *py_layout(PyObject *self, PyObject *noargs) {
#define ONE(m) LAYOUT_ITEM(QPlayoutBuf, m)
    PyObject *items[] = {PLAYOUT_FIELDS(ONE)};
#undef ONE
    return layout_of(items, sizeof items / sizeof items[0], sizeof(QPlayoutBuf));
}

/* playout(placed, buffer) -> the table's cubes at the end (placed, then the playout's): QwirkleCubes.playout's
 * random actions from the state in the buffer (a bytearray of _kernel.PLAYOUT), the end state written back. */
static PyObject *py_playout(PyObject *self, PyObject *args) {
    PyObject *placed;
    Py_buffer view;
    if (!PyArg_ParseTuple(args, "Ow*", &placed, &view)) return NULL;
    QPlayoutBuf in;
    QGame g = {0};
    int bad = view.len != (Py_ssize_t)sizeof in;
    if (!bad) {
        memcpy(&in, view.buf, sizeof in);
        g.players = (int)in.players;
        g.rng = in.rng;
        g.phase = (int)in.phase;
        g.player = (int)in.player;
        g.rolling = (int)in.rolling;
        g.forced = (int)in.forced;
        g.passes = (int)in.passes;
        g.turn = (int)in.turn;
        g.finisher = (int)in.finisher;
        bad = g.players < 2 || g.players > QMAXP || g.phase < 0 || g.phase > END || g.player < 0 ||
              g.player >= g.players;
        for (int p = 0; !bad && p < g.players; p++) {
            bad = in.hlen[p] < 0 || in.hlen[p] > QHAND;
            g.hlen[p] = (int)in.hlen[p];
            for (int i = 0; !bad && i < g.hlen[p]; i++) bad = (g.hand[p][i] = in.hand[p][i]) >= 36;
            g.points[p] = (int)in.points[p];
        }
        for (int i = 0; i < 6; i++) g.bag[i] = (int)in.bag[i];
        for (int i = 0; i < 3; i++) g.last[i] = (int)in.last[i];
    }
    if (bad || load(placed) < 0) {
        PyBuffer_Release(&view);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a bad playout buffer (size, players or hands)");
        return NULL;
    }
    Py_ssize_t before = board.ncubes;
    int err;
    in.taken = q_playout(&g, &board, in.seats, (int)in.shared, in.max_actions, &err);
    if (err) {
        PyBuffer_Release(&view);
        Py_CLEAR(loaded);
        qb_clear(&board);
        PyErr_SetString(PyExc_RuntimeError, "qwirkle playout: a player has no legal action");
        return NULL;
    }
    PyObject *newplaced = PyTuple_New(board.ncubes);
    for (Py_ssize_t i = 0; newplaced != NULL && i < board.ncubes; i++) {
        PyObject *item = i < before ? PyTuple_GET_ITEM(placed, i) : Py_BuildValue("(il)", board.face[i],
                                                                                 to_py(board.at[i]));
        if (item == NULL) {
            Py_CLEAR(newplaced);
            break;
        }
        if (i < before) Py_INCREF(item);
        PyTuple_SET_ITEM(newplaced, i, item);
    }
    if (newplaced == NULL) { /* the table holds the playout's cubes, not `placed`'s: forget both */
        PyBuffer_Release(&view);
        Py_CLEAR(loaded);
        qb_clear(&board);
        return NULL;
    }
    Py_SETREF(loaded, newplaced);
    Py_INCREF(loaded);
    in.rng = g.rng;
    in.phase = g.phase;
    in.player = g.player;
    in.rolling = g.rolling;
    in.forced = g.forced;
    in.passes = g.passes;
    in.turn = g.turn;
    in.finisher = g.finisher;
    for (int p = 0; p < g.players; p++) {
        in.hlen[p] = g.hlen[p];
        memset(in.hand[p], 0, HAND_BYTES);
        for (int i = 0; i < g.hlen[p]; i++) in.hand[p][i] = (unsigned char)g.hand[p][i];
        in.points[p] = g.points[p];
    }
    for (int i = 0; i < 6; i++) in.bag[i] = g.bag[i];
    for (int i = 0; i < 3; i++) in.last[i] = g.last[i];
    memcpy(view.buf, &in, sizeof in);
    PyBuffer_Release(&view);
    return newplaced;
}

static PyMethodDef methods[] = {
    {"count", py_count, METH_VARARGS, "count(placed, hand, need) -> the number of legal placements."},
    {"sample", py_sample, METH_VARARGS,
     "sample(placed, hand, need, rng) -> (placement number rng.below(count), or None when there is none; rng)."},
    {"placements", py_placements, METH_VARARGS, "placements(placed, hand, need) -> every placement, in order."},
    {"table", py_table, METH_VARARGS, "table(placed) -> (Board.cells, Board.frontier): cell -> face, the frontier."},
    {"placeable", py_placeable, METH_VARARGS, "placeable(placed) -> the faces that fit somewhere alone."},
    {"playout", py_playout, METH_VARARGS, "playout(placed, buffer) -> placed at the end; the state in place."},
    {"layout", py_layout, METH_NOARGS, "layout() -> ((name, offset, size), ...), sizeof: the playout buffer."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_cqwirkle", "Qwirkle Cubes' compiled kernel.", -1,
                                       methods};

/* The table of `placed` (load's, kept between calls), or NULL with an exception set. */
static QBoard *board_of(PyObject *placed) { return load(placed) < 0 ? NULL : &board; }

/* The C interface the AI's evaluation calls (QwirkleAPI in qwirkle_api.h). */
static const QwirkleAPI api = {
    .board_of = board_of,
    .walk = qb_walk,
    .score = qb_score,
    .colour_offer = qb_colour_offer,
    .set_hand = set_hand,
    .int_seq = int_seq,
    .cubes_tuple = cubes_tuple,
    .append_new = append_new,
};

PyMODINIT_FUNC PyInit__cqwirkle(void) {
    PyObject *m = PyModule_Create(&moduledef);
    PyObject *cap = m ? PyCapsule_New((void *)&api, QWIRKLE_API, NULL) : NULL;
    if (m && (!cap || PyModule_AddObjectRef(m, "api", cap) < 0)) Py_CLEAR(m);
    Py_XDECREF(cap);
    return m;
}
