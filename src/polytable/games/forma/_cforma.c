/* polytable.games.forma._cforma: Forma's hot path in C (see _native.py for how it is used).
 *
 * Four units: _cforma.h (the shared types and inline word operations), _cforma_rules.c (the rules: move
 * generation, a placement's effect, touch-move picks, the players' set-up, a random playout),
 * _cforma_bridges.c (the bridge count) and this file, the Python side: arguments, the tables Python passes
 * in (init), the module's functions, and the capsule (FORMA_API) through which the AI's evaluator
 * (ai/forma/_cforma_eval.c, its own extension) calls the rules. The geometry
 * is not defined here: Python passes every orientation's cell offsets, so the tables stay single-sourced.
 */
#include "_cforma.h"
#include "../../core/_layout.h" /* layout(): the state buffer as this build lays it out */

T *forma_tabs[MAXSIZE + 1];
int orient_piece[NO], piece_size[NP], piece_first[NP + 1];

/* ------------------------------------------------------------------ Python ints */
/* A board from its little-endian bytes, and back. */
static void b_load(const unsigned char *buf, B *b) {
    for (int i = 0; i < NW; i++) {
        uint64_t x = 0;
        for (int j = 7; j >= 0; j--) x = x << 8 | buf[8 * i + j];
        b->w[i] = x;
    }
}
static void b_store(const B *b, unsigned char *buf) {
    for (int i = 0; i < NW; i++)
        for (int j = 0; j < 8; j++) buf[8 * i + j] = (unsigned char)(b->w[i] >> (8 * j));
}

static int to_b(PyObject *v, B *b) {
    unsigned char buf[BOARD_BYTES];
    if (!PyLong_Check(v)) {
        PyErr_SetString(PyExc_TypeError, "a Forma bitboard must be an int");
        return -1;
    }
    if (pylong_to_bytes(v, buf, sizeof buf, "bitboard") < 0) return -1;
    b_load(buf, b);
    return 0;
}
PyObject *forma_from_b(const B *b) {
    unsigned char buf[BOARD_BYTES];
    b_store(b, buf);
    return pylong_from_bytes(buf, sizeof buf);
}


/* ------------------------------------------------------------------ tables */
static PyObject *py_init(PyObject *self, PyObject *args) {
    int size, stride;
    PyObject *offsets, *opiece, *psize;
    if (!PyArg_ParseTuple(args, "iiOOO", &size, &stride, &offsets, &opiece, &psize)) return NULL;
    if (size < 5 || size > MAXSIZE || stride != size + 4 || (size - 1) * stride + size > 64 * NW) {
        PyErr_SetString(PyExc_ValueError, "unsupported Forma board size");
        return NULL;
    }
    if (!PySequence_Check(offsets) || PySequence_Size(offsets) != NO || PySequence_Size(opiece) != NO ||
        PySequence_Size(psize) != NP) {
        PyErr_SetString(PyExc_ValueError, "expected 91 orientations of 21 pieces");
        return NULL;
    }
    T *t = PyMem_Calloc(1, sizeof(T));
    if (!t) return PyErr_NoMemory();
    t->size = size;
    t->stride = stride;
    t->cells = size * size;
    t->row_mask = (1ULL << size) - 1;
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int i = y * stride + x;
            b_set(&t->board, i);
            if (y == 0) b_set(&t->top, i);
            if (y == size - 1) b_set(&t->bottom, i);
            if (x == 0) b_set(&t->left, i);
            if (x == size - 1) b_set(&t->right, i);
        }
    for (int g = 0; g < NO; g++) {
        PyObject *o = PySequence_GetItem(offsets, g);
        PyObject *p = PySequence_GetItem(opiece, g);
        if (!o || !p) goto fail_items;
        orient_piece[g] = (int)PyLong_AsLong(p);
        Py_ssize_t n = PySequence_Size(o);
        if (n < 1 || n > MAXOFF) {
            PyErr_SetString(PyExc_ValueError, "a piece has 1 to 5 cells");
        }
        for (Py_ssize_t k = 0; k < n && !PyErr_Occurred(); k++) {
            PyObject *it = PySequence_GetItem(o, k);
            if (!it) break;
            int off = (int)PyLong_AsLong(it);
            Py_DECREF(it);
            int d;
            for (d = 0; d < t->nd && t->dist[d] != off; d++) {
            }
            if (d == t->nd) {
                if (t->nd >= 64) {
                    PyErr_SetString(PyExc_ValueError, "too many distinct offsets");
                    break;
                }
                t->dist[t->nd++] = off;
            }
            t->ooff[g][k] = off;
            t->oidx[g][k] = d;
        }
        t->olen[g] = (int)n;
        Py_DECREF(o);
        Py_DECREF(p);
        if (PyErr_Occurred()) goto fail;
        continue;
    fail_items:
        Py_XDECREF(o);
        Py_XDECREF(p);
        goto fail;
    }
    for (int p = 0; p < NP; p++) {
        PyObject *it = PySequence_GetItem(psize, p);
        if (!it) goto fail;
        piece_size[p] = (int)PyLong_AsLong(it);
        Py_DECREF(it);
    }
    for (int p = 0; p <= NP; p++) piece_first[p] = NO;
    for (int g = NO - 1; g >= 0; g--) {
        if (orient_piece[g] < 0 || orient_piece[g] >= NP || (g && orient_piece[g] < orient_piece[g - 1])) {
            PyErr_SetString(PyExc_ValueError, "orientations must be grouped by piece");
            goto fail;
        }
        piece_first[orient_piece[g]] = g;
    }
    if (PyErr_Occurred()) goto fail;
    {
        /* every placement on the empty board, in the order of Tables.flat() */
        B sh[64], a;
        shifts(t, &t->board, sh);
        int n = 0;
        for (int g = 0; g < NO; g++) {
            anchors_of(t, sh, g, &a);
            n += b_count(&a);
        }
        t->nflat = n;
        t->flat_shift = 64 - (64 - __builtin_clzll((uint64_t)n - 1));
        t->flat_g = PyMem_Malloc(n);
        t->flat_pos = PyMem_Malloc(2 * (size_t)n);
        if (!t->flat_g || !t->flat_pos) {
            PyErr_NoMemory();
            goto fail;
        }
        n = 0;
        for (int g = 0; g < NO; g++) {
            anchors_of(t, sh, g, &a);
            for (int i = 0; i < NW; i++) {
                uint64_t x = a.w[i];
                while (x) {
                    t->flat_g[n] = (uint8_t)g;
                    t->flat_pos[n++] = (uint16_t)(64 * i + __builtin_ctzll(x));
                    x &= x - 1;
                }
            }
        }
    }
    if (forma_tabs[size]) {
        PyMem_Free(forma_tabs[size]->flat_g);
        PyMem_Free(forma_tabs[size]->flat_pos);
        PyMem_Free(forma_tabs[size]);
    }
    forma_tabs[size] = t;
    Py_RETURN_NONE;
fail:
    PyMem_Free(t->flat_g);
    PyMem_Free(t->flat_pos);
    PyMem_Free(t);
    return NULL;
}

static T *table_for(int size) {
    if (size < 0 || size > MAXSIZE || !forma_tabs[size]) {
        PyErr_Format(PyExc_ValueError, "no Forma tables for size %d (call init first)", size);
        return NULL;
    }
    return forma_tabs[size];
}

/* A stock tuple of 21 counts into ints. */
static int to_stock(PyObject *o, int *stock) {
    PyObject *fast = PySequence_Fast(o, "a stock is a sequence of 21 counts");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != NP) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "a stock has 21 counts");
        return -1;
    }
    for (int p = 0; p < NP; p++) {
        stock[p] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, p));
    }
    Py_DECREF(fast);
    return PyErr_Occurred() ? -1 : 0;
}

/* ------------------------------------------------------------------ Python functions */
static PyObject *py_anchors(PyObject *self, PyObject *args) {
    int size;
    PyObject *fo;
    if (!PyArg_ParseTuple(args, "iO", &size, &fo)) return NULL;
    T *t = table_for(size);
    B free, sh[64], a;
    if (!t || to_b(fo, &free) < 0) return NULL;
    shifts(t, &free, sh);
    PyObject *out = PyTuple_New(NO);
    if (!out) return NULL;
    for (int g = 0; g < NO; g++) {
        anchors_of(t, sh, g, &a);
        PyObject *v = forma_from_b(&a);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, g, v);
    }
    return out;
}

static PyObject *py_count(PyObject *self, PyObject *args) {
    int size, only, stock[NP];
    PyObject *so, *fo;
    if (!PyArg_ParseTuple(args, "iOOi", &size, &so, &fo, &only)) return NULL;
    T *t = table_for(size);
    B free;
    if (!t || to_stock(so, stock) < 0 || to_b(fo, &free) < 0) return NULL;
    if (only >= NP) only = NP - 1;
    return PyLong_FromLong(forma_count_moves(t, stock, &free, only));
}

static PyObject *py_can_place(PyObject *self, PyObject *args) {
    int size, stock[NP];
    PyObject *so, *fo;
    if (!PyArg_ParseTuple(args, "iOO", &size, &so, &fo)) return NULL;
    T *t = table_for(size);
    B free;
    if (!t || to_stock(so, stock) < 0 || to_b(fo, &free) < 0) return NULL;
    return PyBool_FromLong(forma_can_place(t, stock, &free));
}

static PyObject *py_sample(PyObject *self, PyObject *args) {
    int size, only, stock[NP];
    PyObject *so, *fo;
    unsigned long long rs;
    if (!PyArg_ParseTuple(args, "iOOKi", &size, &so, &fo, &rs, &only)) return NULL;
    T *t = table_for(size);
    B free, mask;
    if (!t || to_stock(so, stock) < 0 || to_b(fo, &free) < 0) return NULL;
    if (only >= NP) only = NP - 1;
    uint64_t rng = rs;
    int anchor = 0;
    int g = forma_sample_move(t, stock, &free, &rng, only, &anchor);
    if (g < 0) return Py_BuildValue("(iiK)", -1, 0, (unsigned long long)rng);
    forma_placement_mask(t, g, anchor, &mask);
    PyObject *m = forma_from_b(&mask);
    if (!m) return NULL;
    return Py_BuildValue("(iNK)", g, m, (unsigned long long)rng);
}

static PyObject *py_effect(PyObject *self, PyObject *args) {
    int size, pieces;
    PyObject *o[7];
    if (!PyArg_ParseTuple(args, "iOOOOOOOi", &size, &o[0], &o[1], &o[2], &o[3], &o[4], &o[5], &o[6], &pieces))
        return NULL;
    T *t = table_for(size);
    B in[7], filled, enc, closed, own;
    if (!t) return NULL;
    for (int i = 0; i < 7; i++)
        if (to_b(o[i], &in[i]) < 0) return NULL;
    int bound;
    long points = forma_effect(t, &in[0], &in[1], &in[2], &in[3], &in[4], &in[5], &in[6], pieces, &filled, &enc, &closed,
                         &own, &bound);
    return Py_BuildValue("(NNNlNi)", forma_from_b(&filled), forma_from_b(&enc), forma_from_b(&closed), points, forma_from_b(&own), bound);
}

static PyObject *py_neighbours(PyObject *self, PyObject *args) {
    int size;
    PyObject *o;
    if (!PyArg_ParseTuple(args, "iO", &size, &o)) return NULL;
    T *t = table_for(size);
    B x, out;
    if (!t || to_b(o, &x) < 0) return NULL;
    neighbours(t, &x, &out);
    return forma_from_b(&out);
}

static PyObject *py_next_turn(PyObject *self, PyObject *args) {
    int size, player;
    PyObject *so, *fo;
    if (!PyArg_ParseTuple(args, "iOOi", &size, &so, &fo, &player)) return NULL;
    T *t = table_for(size);
    B free;
    if (!t || to_b(fo, &free) < 0) return NULL;
    S s;
    PyObject *fast = PySequence_Fast(so, "stocks must be a sequence");
    if (!fast) return NULL;
    s.n = (int)PySequence_Fast_GET_SIZE(fast);
    if (s.n < 1 || s.n > MAXPLAYERS || player < 0 || player >= s.n) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "1 to 4 stocks, and a player among them");
        return NULL;
    }
    for (int i = 0; i < s.n; i++)
        if (to_stock(PySequence_Fast_GET_ITEM(fast, i), s.stock[i]) < 0) {
            Py_DECREF(fast);
            return NULL;
        }
    Py_DECREF(fast);
    return PyLong_FromLong(forma_next_turn(t, &s, &free, player));
}

static PyObject *py_setup_sample(PyObject *self, PyObject *args) {
    int size, placing, chance, bit = 0;
    PyObject *o_obst, *o_tower;
    unsigned long long rs;
    if (!PyArg_ParseTuple(args, "iOOiKp", &size, &o_obst, &o_tower, &placing, &rs, &chance)) return NULL;
    T *t = table_for(size);
    B obstacles, tower;
    if (!t || to_b(o_obst, &obstacles) < 0 || to_b(o_tower, &tower) < 0) return NULL;
    uint64_t rng = rs;
    int kind = forma_setup_draw(t, &obstacles, &tower, placing, &rng, chance, &bit);
    if (kind < 0) return PyErr_Format(PyExc_ValueError, "no cell is allowed");
    return Py_BuildValue("(iiK)", kind, bit, (unsigned long long)rng);
}

static int boards_in(PyObject *seq, B *out, int n) {
    PyObject *fast = PySequence_Fast(seq, "expected a sequence of bitboards");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "one bitboard per player");
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (to_b(PySequence_Fast_GET_ITEM(fast, i), &out[i]) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    Py_DECREF(fast);
    return 0;
}

/* layout() -> ((name, offset, size), ...): the playout buffer's members as this build lays them out. */
static PyObject *py_layout(PyObject *self, PyObject *noargs) {
#define ONE(m) LAYOUT_ITEM(PlayoutBuf, m)
    PyObject *items[] = {PLAYOUT_FIELDS(ONE)};
#undef ONE
    return layout_of(items, sizeof items / sizeof items[0], sizeof(PlayoutBuf));
}

/* The buffer's board members, in the order of _kernel.PLAYOUT: (offset, boards held). The boards travel as
 * the state's Python ints (a board, or a sequence of one per player), which this file converts itself. */
static const struct {
    size_t offset;
    int many;
} playout_boards[] = {
#define BOARD_MEMBER(m) {offsetof(PlayoutBuf, m), sizeof(((PlayoutBuf *)0)->m) / BOARD_BYTES},
    PLAYOUT_BOARDS(BOARD_MEMBER)
#undef BOARD_MEMBER
};
#define NBOARDS ((int)(sizeof playout_boards / sizeof playout_boards[0]))

/* The boards (ints, or sequences of `players` ints) into their members of the buffer; players past them zeros. */
static int boards_into(PyObject *boards, int players, unsigned char *buf) {
    PyObject *fast = PySequence_Fast(boards, "the boards are a sequence");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != NBOARDS) {
        Py_DECREF(fast);
        return PyErr_Format(PyExc_ValueError, "a playout takes %d boards", NBOARDS), -1;
    }
    for (int k = 0; k < NBOARDS; k++) {
        PyObject *o = PySequence_Fast_GET_ITEM(fast, k);
        unsigned char *at = buf + playout_boards[k].offset;
        int many = playout_boards[k].many, rc = 0;
        memset(at, 0, (size_t)many * BOARD_BYTES);
        if (many == 1) {
            rc = PyLong_Check(o) ? pylong_to_bytes(o, at, BOARD_BYTES, "bitboard") : -1;
            if (rc < 0 && !PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "a Forma bitboard must be an int");
        } else {
            PyObject *each = PySequence_Fast(o, "one bitboard per player");
            if (!each) rc = -1;
            else if (PySequence_Fast_GET_SIZE(each) != players) {
                PyErr_SetString(PyExc_ValueError, "one bitboard per player");
                rc = -1;
            }
            for (int i = 0; rc == 0 && i < players; i++) {
                PyObject *v = PySequence_Fast_GET_ITEM(each, i);
                rc = PyLong_Check(v) ? pylong_to_bytes(v, at + (size_t)i * BOARD_BYTES, BOARD_BYTES, "bitboard") : -1;
                if (rc < 0 && !PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "a Forma bitboard must be an int");
            }
            Py_XDECREF(each);
        }
        if (rc < 0) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return 0;
}

/* Each player's stock (NP counts, each below 256) into the buffer; players past them zeros. */
static int stocks_into(PyObject *stocks, int players, PlayoutBuf *in) {
    PyObject *fast = PySequence_Fast(stocks, "the stocks are a sequence");
    if (!fast) return -1;
    int rc = 0, stock[NP];
    memset(in->stock, 0, sizeof in->stock);
    if (PySequence_Fast_GET_SIZE(fast) != players) {
        PyErr_SetString(PyExc_ValueError, "one stock per player");
        rc = -1;
    }
    for (int i = 0; rc == 0 && i < players; i++) {
        rc = to_stock(PySequence_Fast_GET_ITEM(fast, i), stock);
        for (int p = 0; rc == 0 && p < NP; p++) {
            if (stock[p] < 0 || stock[p] > 255) {
                PyErr_SetString(PyExc_ValueError, "a stock's counts are 0 to 255");
                rc = -1;
            } else in->stock[i][p] = (unsigned char)stock[p];
        }
    }
    Py_DECREF(fast);
    return rc;
}

/* The boards of the buffer as ints, in the shape boards_into takes them, then the stocks as tuples of
 * ints (a new tuple, or NULL). */
static PyObject *boards_out(const PlayoutBuf *in, int players) {
    const unsigned char *buf = (const unsigned char *)in;
    PyObject *out = PyTuple_New(NBOARDS + 1);
    PyObject *stocks = out ? PyTuple_New(players) : NULL;
    for (int i = 0; stocks && i < players; i++) {
        PyObject *one = PyTuple_New(NP);
        for (int p = 0; one && p < NP; p++) {
            PyObject *c = PyLong_FromLong(in->stock[i][p]);
            if (!c) Py_CLEAR(one);
            else PyTuple_SET_ITEM(one, p, c);
        }
        if (!one) Py_CLEAR(stocks);
        else PyTuple_SET_ITEM(stocks, i, one);
    }
    if (!stocks) {
        Py_XDECREF(out);
        return NULL;
    }
    PyTuple_SET_ITEM(out, NBOARDS, stocks);
    for (int k = 0; out && k < NBOARDS; k++) {
        const unsigned char *at = buf + playout_boards[k].offset;
        PyObject *v;
        if (playout_boards[k].many == 1) v = pylong_from_bytes(at, BOARD_BYTES);
        else {
            v = PyTuple_New(players);
            for (int i = 0; v && i < players; i++) {
                PyObject *b = pylong_from_bytes(at + (size_t)i * BOARD_BYTES, BOARD_BYTES);
                if (!b) Py_CLEAR(v);
                else PyTuple_SET_ITEM(v, i, b);
            }
        }
        if (!v) Py_CLEAR(out);
        else PyTuple_SET_ITEM(out, k, v);
    }
    return out;
}

/* playout(buffer, boards, stocks) -> (*boards, stocks): random set-up steps, touch-move picks and placements
 * from the state in the buffer (a bytearray of _kernel.PLAYOUT), its boards (as boards_into takes them) and
 * stocks (per player, NP counts) to the end or max_actions. The end state, generators and actions taken are
 * written back into the buffer; the end boards and stocks (tuples of NP ints) come back as Python objects. */
static PyObject *py_playout(PyObject *self, PyObject *args) {
    Py_buffer view;
    PyObject *boards, *stocks;
    if (!PyArg_ParseTuple(args, "w*OO", &view, &boards, &stocks)) return NULL;
    PlayoutBuf in;
    if (view.len != (Py_ssize_t)sizeof in) {
        PyBuffer_Release(&view);
        return PyErr_Format(PyExc_ValueError, "a playout buffer has %zu bytes", sizeof in);
    }
    memcpy(&in, view.buf, sizeof in);
    T *t = table_for((int)in.size);
    S s;
    memset(&s, 0, sizeof s);
    s.n = (int)in.players;
    if (!t || s.n < 2 || s.n > MAXPLAYERS || in.picked < -1 || in.picked >= NP || in.placing < 0) {
        PyBuffer_Release(&view);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "2 to 4 players; picked or placing in range");
        return NULL;
    }
    if (boards_into(boards, s.n, (unsigned char *)&in) < 0 || stocks_into(stocks, s.n, &in) < 0) {
        PyBuffer_Release(&view);
        return NULL;
    }
    s.turn = (int)in.turn;
    s.moves = (int)in.moves;
    s.exact = (int)in.exact;
    s.touch = (int)in.touch;
    s.picked = (int)in.picked;
    s.misses = (int)in.misses;
    s.placing = (int)in.placing;
    s.setup_rng = in.setup_rng;
    b_load(in.obstacles, &s.obstacles);
    b_load(in.tower, &s.tower);
    b_load(in.filled, &s.filled);
    b_load(in.closed, &s.closed);
    b_load(in.watch, &s.watch);
    b_load(in.last, &s.last);
    for (int i = 0; i < s.n; i++) {
        b_load(in.pieces[i], &s.pieces[i]);
        b_load(in.markers[i], &s.markers[i]);
        for (int p = 0; p < NP; p++) s.stock[i][p] = in.stock[i][p];
        s.scores[i] = (long)in.scores[i];
        s.bridges[i] = (long)in.bridges[i];
    }
    int actions = 0;
    if (forma_run(t, &s, in.rngs, (int)in.shared, (int)in.max_actions, &actions) < 0) {
        PyBuffer_Release(&view);
        return NULL;
    }
    in.turn = s.turn;
    in.moves = s.moves;
    in.exact = s.exact;
    in.picked = s.picked;
    in.misses = s.misses;
    in.placing = s.placing;
    in.setup_rng = s.setup_rng;
    in.actions = actions;
    b_store(&s.obstacles, in.obstacles);
    b_store(&s.tower, in.tower);
    b_store(&s.filled, in.filled);
    b_store(&s.closed, in.closed);
    b_store(&s.watch, in.watch);
    b_store(&s.last, in.last);
    for (int i = 0; i < s.n; i++) {
        b_store(&s.pieces[i], in.pieces[i]);
        b_store(&s.markers[i], in.markers[i]);
        for (int p = 0; p < NP; p++) in.stock[i][p] = (unsigned char)s.stock[i][p];
        in.scores[i] = s.scores[i];
        in.bridges[i] = s.bridges[i];
    }
    memcpy(view.buf, &in, sizeof in);
    PyBuffer_Release(&view);
    return boards_out(&in, s.n);
}

/* bridges(size, own) -> (total, north-south, east-west, exact): _bridges.count_bridges of a colour */
static PyObject *py_bridges(PyObject *self, PyObject *args) {
    int size;
    PyObject *o;
    if (!PyArg_ParseTuple(args, "iO", &size, &o)) return NULL;
    T *t = table_for(size);
    B own;
    if (!t || to_b(o, &own) < 0) return NULL;
    unsigned char cells[MAXSIZE * MAXSIZE];
    long out[3];
    forma_cells_of(t, &own, cells);
    int exact = forma_count_bridges(t->size, cells, out);
    return Py_BuildValue("(lllO)", out[0], out[1], out[2], exact ? Py_True : Py_False);
}

static PyMethodDef methods[] = {
    {"init", py_init, METH_VARARGS, "init(size, stride, offsets, orient_piece, piece_sizes): build one size's tables."},
    {"anchors", py_anchors, METH_VARARGS, "anchors(size, free) -> the 91 anchor sets (Tables.anchors)."},
    {"count", py_count, METH_VARARGS, "count(size, stock, free, only) -> number of legal placements."},
    {"can_place", py_can_place, METH_VARARGS, "can_place(size, stock, free) -> whether any held piece fits."},
    {"sample", py_sample, METH_VARARGS, "sample(size, stock, free, rng, only) -> (orientation or -1, mask, rng)."},
    {"effect", py_effect, METH_VARARGS,
     "effect(size, filled, watch, obstacles, tower, closed, own, mask, cells) -> (filled, enc, closed, points, own, "
     "bridge bound or -1)."},
    {"neighbours", py_neighbours, METH_VARARGS, "neighbours(size, cells) -> their orthogonal neighbours."},
    {"next_turn", py_next_turn, METH_VARARGS, "next_turn(size, stocks, free, player) -> next player able to place."},
    {"setup_sample", py_setup_sample, METH_VARARGS,
     "setup_sample(size, obstacles, tower, placing, rng, chance) -> (0 obstacle, 1 tower or 2 fill; cell bit; rng)."},
    {"bridges", py_bridges, METH_VARARGS, "bridges(size, own) -> (total, north-south, east-west, exact)."},
    {"playout", py_playout, METH_VARARGS, "playout(buffer, boards, stocks) -> (*boards, stocks): random steps to the end (or max_actions), in place."},
    {"layout", py_layout, METH_NOARGS, "layout() -> ((name, offset, size), ...), sizeof: the playout buffer."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_cforma", "Forma's compiled play-phase kernel.", -1,
                                       methods};

/* The C interface the AI's evaluator calls (FormaAPI in _cforma.h). */
static const FormaAPI api = {
    .table = table_for,
    .piece_size = piece_size,
    .piece_first = piece_first,
    .to_b = to_b,
    .boards_in = boards_in,
    .to_stock = to_stock,
    .flood = forma_flood,
    .effect = forma_effect,
    .bridge_total = forma_bridge_total,
    .placement_mask = forma_placement_mask,
};

PyMODINIT_FUNC PyInit__cforma(void) {
    PyObject *m = PyModule_Create(&moduledef);
    PyObject *cap = m ? PyCapsule_New((void *)&api, FORMA_API, NULL) : NULL;
    if (m && (!cap || PyModule_AddObjectRef(m, "api", cap) < 0)) Py_CLEAR(m);
    Py_XDECREF(cap);
    return m;
}

