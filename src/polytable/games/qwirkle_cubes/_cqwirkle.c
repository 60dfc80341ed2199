/* polytable.games.qwirkle_cubes._cqwirkle: Qwirkle Cubes' hot path in C (see _native.py for its use).
 *
 * This unit is the Python face: it converts the state's tuples (cells packed as in _tiles.cell) to the
 * C table of qwirkle_board.c and back, and runs the turn sequence of qwirkle_flow.c for a random
 * playout. The table of the last call is kept (with a reference to the `placed` tuple it came from),
 * so the calls of one turn, and the next turn's (whose `placed` extends it), do not rebuild it.
 * Not thread-safe: it relies on the GIL, like the rest of the interpreter's objects.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "qwirkle_rules.h"

#include <math.h>
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

static PyObject *int_tuple(const int *v, int n) {
    PyObject *out = PyTuple_New(n);
    for (int i = 0; out != NULL && i < n; i++) PyTuple_SET_ITEM(out, i, PyLong_FromLong(v[i]));
    return out;
}

/* playout(players, rng, phase, player, hands, bag, points, placed, rolling, forced, passes, turn, last,
 *         finisher, seat_rngs, shared, max_actions)
 *   -> (rng, phase, player, hands, bag, points, placed, rolling, forced, passes, turn, last, finisher,
 *       seat_rngs, taken): QwirkleCubes.playout's random actions (max_actions < 0: to the end). */
static PyObject *py_playout(PyObject *self, PyObject *args) {
    QGame g = {0};
    unsigned long long rng;
    PyObject *hands, *bag, *points, *placed, *last, *seats;
    int shared;
    long long max_actions;
    if (!PyArg_ParseTuple(args, "iKiiOOOOiiiiOiOpL", &g.players, &rng, &g.phase, &g.player, &hands, &bag, &points,
                          &placed, &g.rolling, &g.forced, &g.passes, &g.turn, &last, &g.finisher, &seats, &shared,
                          &max_actions))
        return NULL;
    g.rng = rng;
    if (g.players < 2 || g.players > QMAXP || g.phase < 0 || g.phase > END || g.player < 0 ||
        g.player >= g.players) {
        PyErr_SetString(PyExc_ValueError, "bad players, phase or player");
        return NULL;
    }
    PyObject *hf = PySequence_Fast(hands, "hands must be a sequence");
    if (hf == NULL) return NULL;
    int bad = PySequence_Fast_GET_SIZE(hf) != g.players;
    for (int p = 0; !bad && p < g.players; p++) {
        PyObject *h = PySequence_Fast_GET_ITEM(hf, p);
        Py_ssize_t n = PySequence_Size(h);
        bad = n < 0 || n > QHAND || int_seq(h, g.hand[p], n, "a hand holds faces") < 0;
        g.hlen[p] = (int)n;
        for (int i = 0; !bad && i < n; i++) bad = g.hand[p][i] < 0 || g.hand[p][i] >= 36;
    }
    Py_DECREF(hf);
    if (bad || int_seq(bag, g.bag, 6, "bag holds 6 counts") < 0 ||
        int_seq(points, g.points, g.players, "points hold one number a player") < 0 ||
        int_seq(last, g.last, 3, "last holds 3 numbers") < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad hands");
        return NULL;
    }
    Py_ssize_t nseats = PySequence_Size(seats);
    if (nseats < 1 || nseats > QMAXP || (!shared && nseats < g.players)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one generator state, or one a seat");
        return NULL;
    }
    uint64_t st[QMAXP];
    for (Py_ssize_t i = 0; i < nseats; i++) {
        PyObject *v = PySequence_GetItem(seats, i);
        st[i] = v ? PyLong_AsUnsignedLongLong(v) : 0;
        Py_XDECREF(v);
        if (PyErr_Occurred()) return NULL;
    }
    if (load(placed) < 0) return NULL;
    Py_ssize_t before = board.ncubes;
    int err;
    long long taken = q_playout(&g, &board, st, shared, max_actions, &err);
    if (err) {
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
        Py_CLEAR(loaded);
        qb_clear(&board);
        return NULL;
    }
    Py_SETREF(loaded, newplaced);
    Py_INCREF(loaded);
    PyObject *hs = PyTuple_New(g.players), *seat_out = PyList_New(nseats);
    for (int p = 0; hs != NULL && p < g.players; p++) PyTuple_SET_ITEM(hs, p, int_tuple(g.hand[p], g.hlen[p]));
    for (Py_ssize_t i = 0; seat_out != NULL && i < nseats; i++)
        PyList_SET_ITEM(seat_out, i, PyLong_FromUnsignedLongLong(st[i]));
    if (hs == NULL || seat_out == NULL || PyErr_Occurred()) {
        Py_XDECREF(hs);
        Py_XDECREF(seat_out);
        Py_DECREF(newplaced);
        return NULL;
    }
    return Py_BuildValue("(KiiNNNNiiiiNiNL)", (unsigned long long)g.rng, g.phase, g.player, hs,
                         int_tuple(g.bag, 6), int_tuple(g.points, g.players), newplaced, g.rolling, g.forced,
                         g.passes, g.turn, int_tuple(g.last, 3), g.finisher, seat_out, taken);
}

/* ------------------------------------------------------------------ the greedy evaluation (_eval.py) */
static int parse_look(PyObject *hands, int player, int look, double qv, double hit, QLook *lk) {
    PyObject *hf = PySequence_Fast(hands, "hands must be a sequence");
    if (hf == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(hf);
    int bad = n < 1 || n > QMAXP || player < 0 || player >= n;
    lk->look = look;
    lk->player = player;
    lk->nplayers = (int)n;
    lk->qv = qv;
    lk->hit = hit;
    for (Py_ssize_t p = 0; !bad && p < n; p++) {
        PyObject *h = PySequence_Fast_GET_ITEM(hf, p);
        Py_ssize_t m = PySequence_Size(h);
        bad = m < 0 || m > QHAND || int_seq(h, lk->hands[p], m, "a hand holds faces") < 0;
        lk->hlen[p] = (int)m;
        lk->hmask[p] = 0;
        for (int i = 0; !bad && i < m; i++) {
            bad = lk->hands[p][i] < 0 || lk->hands[p][i] >= 36;
            if (!bad) lk->hmask[p] |= 1ULL << lk->hands[p][i];
        }
    }
    Py_DECREF(hf);
    if (bad && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad hands or player");
    return bad ? -1 : 0;
}

typedef struct {
    QLook lk;
    PyObject *list; /* values, colour_values: the list built */
    int size;       /* best, colour_values: the hand's size (the going-out bonus needs all of it) */
    double out_bonus, per_cube, best;
    int bk, bfaces[QHAND], bcells[QHAND];
} Eval;

static int emit_value(QWalk *w, int k) {
    Eval *e = (Eval *)w->ctx;
    double v = qb_value(&board, w->faces, w->cells, k, &e->lk);
    PyObject *cubes = cubes_tuple(w->faces, w->cells, k);
    return append_new(e->list, cubes == NULL ? NULL : Py_BuildValue("(Nd)", cubes, v));
}

static int emit_best(QWalk *w, int k) {
    Eval *e = (Eval *)w->ctx;
    double v = qb_value(&board, w->faces, w->cells, k, &e->lk);
    if (e->out_bonus != 0.0 && k == e->size) v += e->out_bonus;
    if (v > e->best) {
        e->best = v;
        e->bk = k;
        memcpy(e->bfaces, w->faces, sizeof(int) * (size_t)k);
        memcpy(e->bcells, w->cells, sizeof(int) * (size_t)k);
    }
    return 0;
}

static int emit_colour(QWalk *w, int k) {
    Eval *e = (Eval *)w->ctx;
    double v = qb_value(&board, w->faces, w->cells, k, &e->lk) + e->per_cube * k;
    if (e->out_bonus != 0.0 && k == e->size) v += e->out_bonus;
    uint64_t fm = 0;
    for (int i = 0; i < k; i++) fm |= 1ULL << w->faces[i];
    PyObject *cubes = cubes_tuple(w->faces, w->cells, k);
    return append_new(e->list, cubes == NULL ? NULL : Py_BuildValue("(dKN)", v, (unsigned long long)fm, cubes));
}

/* values(placed, hand, need, hands, player, look, qv, hit) -> [(placement, value)] in Board.placements order. */
static PyObject *py_values(PyObject *self, PyObject *args) {
    QWalk w = {0};
    Eval e = {0};
    PyObject *placed, *hands;
    unsigned long long hand;
    int player, look;
    if (!PyArg_ParseTuple(args, "OKiOipdd", &placed, &hand, &w.need, &hands, &player, &look, &e.lk.qv, &e.lk.hit) ||
        parse_look(hands, player, look, e.lk.qv, e.lk.hit, &e.lk) < 0 || load(placed) < 0)
        return NULL;
    if (set_hand(&w, hand) < 0) return NULL;
    if ((e.list = PyList_New(0)) == NULL) return NULL;
    w.emit = emit_value;
    w.ctx = &e;
    qb_walk(&board, &w);
    if (PyErr_Occurred()) Py_CLEAR(e.list);
    return e.list;
}

/* best(placed, hand, need, size, out_bonus, hands, player, look, qv, hit) -> (value, placement), the first
 * of the highest value in walk order ((-inf, ()) when nothing fits). */
static PyObject *py_best(PyObject *self, PyObject *args) {
    QWalk w = {0};
    Eval e = {0};
    PyObject *placed, *hands;
    unsigned long long hand;
    int player, look;
    if (!PyArg_ParseTuple(args, "OKiidOipdd", &placed, &hand, &w.need, &e.size, &e.out_bonus, &hands, &player, &look,
                          &e.lk.qv, &e.lk.hit) ||
        parse_look(hands, player, look, e.lk.qv, e.lk.hit, &e.lk) < 0 || load(placed) < 0)
        return NULL;
    if (set_hand(&w, hand) < 0) return NULL;
    e.best = -HUGE_VAL;
    w.emit = emit_best;
    w.ctx = &e;
    qb_walk(&board, &w);
    PyObject *cubes = cubes_tuple(e.bfaces, e.bcells, e.bk);
    if (cubes == NULL) return NULL;
    return Py_BuildValue("(dN)", e.best, cubes);
}

/* colour_values(placed, counts, size, per_cube, out_bonus, hands, player, look, qv, hit)
 *   -> [(value, faces mask, placement)] in Board.placements_by_colour order. */
static PyObject *py_colour_values(PyObject *self, PyObject *args) {
    QWalk w = {0};
    Eval e = {0};
    PyObject *placed, *counts, *hands;
    int player, look, left[6];
    if (!PyArg_ParseTuple(args, "OOiddOipdd", &placed, &counts, &e.size, &e.per_cube, &e.out_bonus, &hands, &player,
                          &look, &e.lk.qv, &e.lk.hit) ||
        int_seq(counts, left, 6, "counts holds 6 numbers") < 0 ||
        parse_look(hands, player, look, e.lk.qv, e.lk.hit, &e.lk) < 0 || load(placed) < 0)
        return NULL;
    for (int c = 0; c < 6; c++)
        if (left[c] < 0 || left[c] > QHAND) {
            PyErr_SetString(PyExc_ValueError, "counts are 0 to 6 cubes a colour");
            return NULL;
        }
    w.left = left;
    w.hand = qb_colour_offer(left);
    if ((e.list = PyList_New(0)) == NULL) return NULL;
    w.emit = emit_colour;
    w.ctx = &e;
    qb_walk(&board, &w);
    if (PyErr_Occurred()) Py_CLEAR(e.list);
    return e.list;
}

/* roll_diffs(fms, values, hand, masks, base, rng, rounds) -> ([[diff a round] a mask], rng): see _eval.py. */
#define MEMO_BITS 14
#define MEMO_SIZE (1 << MEMO_BITS)
static uint64_t memo_key[MEMO_SIZE];
static double memo_val[MEMO_SIZE];
static unsigned memo_gen[MEMO_SIZE], memo_now;

static double table_best(const uint64_t *fms, const double *vals, Py_ssize_t n, uint64_t faces, int *fill) {
    uint64_t h = (faces * 0x9E3779B97F4A7C15ULL) >> (64 - MEMO_BITS);
    while (memo_gen[h] == memo_now) {
        if (memo_key[h] == faces) return memo_val[h];
        h = (h + 1) & (MEMO_SIZE - 1);
    }
    double v = 0.0; /* nothing fits: the hand scores nothing */
    for (Py_ssize_t i = 0; i < n; i++)
        if (!(fms[i] & ~faces)) {
            v = vals[i];
            break;
        }
    if (*fill < MEMO_SIZE / 2) {
        memo_gen[h] = memo_now;
        memo_key[h] = faces;
        memo_val[h] = v;
        ++*fill;
    }
    return v;
}

static PyObject *py_roll_diffs(PyObject *self, PyObject *args) {
    PyObject *fms_in, *vals_in, *hand_in, *masks_in;
    int base, rounds;
    unsigned long long rng;
    if (!PyArg_ParseTuple(args, "OOOOiKi", &fms_in, &vals_in, &hand_in, &masks_in, &base, &rng, &rounds)) return NULL;
    PyObject *ff = PySequence_Fast(fms_in, "fms must be a sequence"), *vf = NULL, *out = NULL;
    uint64_t *fms = NULL;
    double *vals = NULL, *got = NULL;
    int hand[QHAND], masks[64], nm = 0, n = 0, ibase = -1;
    if (ff == NULL || (vf = PySequence_Fast(vals_in, "values must be a sequence")) == NULL) goto done;
    Py_ssize_t ne = PySequence_Fast_GET_SIZE(ff);
    if (PySequence_Fast_GET_SIZE(vf) != ne) {
        PyErr_SetString(PyExc_ValueError, "one value an entry");
        goto done;
    }
    fms = PyMem_Malloc(sizeof(uint64_t) * (size_t)(ne + 1));
    vals = PyMem_Malloc(sizeof(double) * (size_t)(ne + 1));
    if (fms == NULL || vals == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < ne; i++) {
        fms[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(ff, i));
        vals[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(vf, i));
        if (PyErr_Occurred()) goto done;
    }
    Py_ssize_t hn = PySequence_Size(hand_in), mn = PySequence_Size(masks_in);
    if (hn < 0 || hn > QHAND || mn < 1 || mn > 64 || rounds < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a hand of 6 at most, 1 to 64 masks");
        goto done;
    }
    n = (int)hn;
    nm = (int)mn;
    if (int_seq(hand_in, hand, hn, "a hand holds faces") < 0 || int_seq(masks_in, masks, mn, "masks") < 0) goto done;
    int valid = 1;
    for (int j = 0; j < nm; j++) {
        if (masks[j] == base && ibase < 0) ibase = j;
        if (masks[j] < 0 || masks[j] >= (1 << n)) valid = 0;
    }
    for (int i = 0; i < n; i++)
        if (hand[i] < 0 || hand[i] >= 36) valid = 0;
    if (ibase < 0 || !valid) {
        PyErr_SetString(PyExc_ValueError, "masks must be of the hand and hold base; faces 0 to 35");
        goto done;
    }
    got = PyMem_Malloc(sizeof(double) * (size_t)nm * (size_t)(rounds + 1));
    if (got == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    uint64_t st = rng;
    int fill = 0;
    if (++memo_now == 0) { /* the generations wrapped: forget everything */
        memset(memo_gen, 0, sizeof memo_gen);
        memo_now = 1;
    }
    for (int r = 0; r < rounds; r++) {
        int shapes[QHAND];
        for (int i = 0; i < n; i++) shapes[i] = (int)below(&st, 6);
        double *row = got + (size_t)r * nm;
        for (int j = 0; j < nm; j++) {
            uint64_t fm = 0;
            for (int i = 0; i < n; i++)
                fm |= 1ULL << (masks[j] >> i & 1 ? hand[i] / 6 * 6 + shapes[i] : hand[i]);
            row[j] = table_best(fms, vals, ne, fm, &fill);
        }
        double ref = row[ibase];
        for (int j = 0; j < nm; j++) row[j] -= ref;
    }
    PyObject *lists = PyList_New(nm);
    for (int j = 0; lists != NULL && j < nm; j++) {
        PyObject *l = PyList_New(rounds);
        for (int r = 0; l != NULL && r < rounds; r++) {
            PyObject *v = PyFloat_FromDouble(got[(size_t)r * nm + j]);
            if (v == NULL) Py_CLEAR(l);
            else PyList_SET_ITEM(l, r, v);
        }
        if (l == NULL) Py_CLEAR(lists);
        else PyList_SET_ITEM(lists, j, l);
    }
    if (lists != NULL) out = Py_BuildValue("(NK)", lists, (unsigned long long)st);
done:
    Py_XDECREF(ff);
    Py_XDECREF(vf);
    PyMem_Free(fms);
    PyMem_Free(vals);
    PyMem_Free(got);
    return out;
}

static PyMethodDef methods[] = {
    {"count", py_count, METH_VARARGS, "count(placed, hand, need) -> the number of legal placements."},
    {"sample", py_sample, METH_VARARGS,
     "sample(placed, hand, need, rng) -> (placement number rng.below(count), or None when there is none; rng)."},
    {"placements", py_placements, METH_VARARGS, "placements(placed, hand, need) -> every placement, in order."},
    {"table", py_table, METH_VARARGS, "table(placed) -> (Board.cells, Board.frontier): cell -> face, the frontier."},
    {"placeable", py_placeable, METH_VARARGS, "placeable(placed) -> the faces that fit somewhere alone."},
    {"values", py_values, METH_VARARGS, "values(placed, hand, need, hands, player, look, qv, hit): see the source."},
    {"best", py_best, METH_VARARGS, "best(placed, hand, need, size, out_bonus, hands, player, look, qv, hit)."},
    {"colour_values", py_colour_values, METH_VARARGS, "colour_values(placed, counts, size, per_cube, out_bonus, ...)."},
    {"roll_diffs", py_roll_diffs, METH_VARARGS, "roll_diffs(fms, values, hand, masks, base, rng, rounds)."},
    {"playout", py_playout, METH_VARARGS, "Random actions to the end (or max_actions); see the C source."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_cqwirkle", "Qwirkle Cubes' compiled kernel.", -1,
                                       methods};

PyMODINIT_FUNC PyInit__cqwirkle(void) { return PyModule_Create(&moduledef); }
