/* polytable.ai.forma._cforma_eval: Forma's AI evaluation in C, its own extension beside the players (the
 * rules' extension, games/forma/_cforma, knows nothing of it): the same values as the Python, bit for bit.
 *
 * forma_value is _eval.place_value (a placement's points now plus its positional features, under the
 * weights passed in) and forma_best_bonus is _player.best_bonus (the most bonus points the next player can
 * take with one placement). Both need the game's rules (a placement's effect, the flood fill, the bridge
 * count, the tables of a board size): this file includes the game's header downward and calls those through
 * the rules' extension's capsule (FormaAPI, _cforma.h), so the rules are compiled once and the tables the
 * game object's kernel builds serve both. The Python functions stay the reference (what a game on the pure
 * kernel is valued with); tests/ai/forma/test_forma_eval_native.py compares both on seeded positions.
 * Floating point follows the Python's order of operations (pow for ** 2), so the doubles are identical.
 */
#include <math.h>

#include "../../games/forma/_cforma.h"

static const FormaAPI *F; /* the rules' extension's C interface, imported with this module */

/* _eval.extent's max(rows, columns) of a non-empty cell set (_eval._span) */
static int span(const T *t, const B *comp) {
    int r0 = -1, r1 = -1, c0 = t->size, c1 = -1;
    for (int y = 0; y < t->size; y++) {
        B row;
        b_shr(comp, y * t->stride, &row);
        uint64_t bits = row.w[0] & t->row_mask;
        if (!bits) continue;
        if (r0 < 0) r0 = y;
        r1 = y;
        int lo = __builtin_ctzll(bits), hi = 63 - __builtin_clzll(bits);
        if (lo < c0) c0 = lo;
        if (hi > c1) c1 = hi;
    }
    if (r0 < 0) return 0;
    int a = r1 - r0, b = c1 - c0;
    return (a > b ? a : b) + 1;
}

static void sides(const T *t, const B *f, B *le, B *ri, B *up, B *dn) {
    b_shl(f, 1, le);
    b_shr(f, 1, ri);
    b_shl(f, t->stride, up);
    b_shr(f, t->stride, dn);
    for (int i = 0; i < NW; i++) {
        le->w[i] |= t->left.w[i];
        ri->w[i] |= t->right.w[i];
        up->w[i] |= t->top.w[i];
        dn->w[i] |= t->bottom.w[i];
    }
}

static double forma_value(const T *t, const B *filled0, const B *watch, const B *obstacles, const B *tower,
                          const B *closed0, const B *pieces, const B *markers, int np, int player, long bridges,
                          const B *mask, int p, const int *stock, const double *w) {
    int n = t->size, st = t->stride, bound;
    B own0, filled, enc, closed, own, empty, le, ri, up, dn, three, two, near, a, b, c, d, comp, seed;
    for (int i = 0; i < NW; i++) own0.w[i] = pieces[player].w[i] | markers[player].w[i];
    long points = F->effect(t, filled0, watch, obstacles, tower, closed0, &own0, mask, F->piece_size[p], &filled,
                            &enc, &closed, &own, &bound);
    if (bound > bridges) {
        long total;
        F->bridge_total(t, &own, &total);
        if (total > bridges) points += 50 * (total - bridges);
    }
    for (int i = 0; i < NW; i++) empty.w[i] = t->board.w[i] & ~filled.w[i];
    sides(t, &filled, &le, &ri, &up, &dn);
    for (int i = 0; i < NW; i++) {
        three.w[i] = empty.w[i] & ((le.w[i] & ri.w[i] & (up.w[i] | dn.w[i])) | (up.w[i] & dn.w[i] & (le.w[i] | ri.w[i])));
        two.w[i] = empty.w[i] & ~three.w[i] &
                   ((le.w[i] & (ri.w[i] | up.w[i] | dn.w[i])) | (ri.w[i] & (up.w[i] | dn.w[i])) | (up.w[i] & dn.w[i]));
    }
    b_shl(&own, 1, &a);
    b_shr(&own, 1, &b);
    b_shl(&own, st, &c);
    b_shr(&own, st, &d);
    for (int i = 0; i < NW; i++) near.w[i] = (a.w[i] | b.w[i] | c.w[i] | d.w[i]) & two.w[i];
    double value = (double)points - w[0] * b_count(&three) + w[1] * b_count(&near);
    for (int i = 0; i < NW; i++) seed.w[i] = mask->w[i] | enc.w[i];
    F->flood(t, &seed, &own, &comp);
    value += w[2] * pow((double)span(t, &comp) / n, 2.0);
    B touch;
    b_shl(mask, 1, &a);
    b_shr(mask, 1, &b);
    b_shl(mask, st, &c);
    b_shr(mask, st, &d);
    for (int i = 0; i < NW; i++) touch.w[i] = (a.w[i] | b.w[i] | c.w[i] | d.w[i]) & t->board.w[i];
    for (int q = 0; q < np; q++) {
        if (q == player) continue;
        B theirs, tt;
        for (int i = 0; i < NW; i++) {
            theirs.w[i] = pieces[q].w[i] | markers[q].w[i];
            tt.w[i] = touch.w[i] & theirs.w[i];
        }
        if (b_any(&tt)) {
            F->flood(t, &tt, &theirs, &comp);
            value += w[3] * pow((double)span(t, &comp) / n, 2.0);
        }
    }
    B sh_after[64], sh_before[64], free0, x;
    for (int i = 0; i < NW; i++) free0.w[i] = t->board.w[i] & ~filled0->w[i];
    shifts(t, &empty, sh_after);
    shifts(t, &free0, sh_before);
    long room_after = 0, room_before = 0;
    for (int q = stock[0] || stock[1] ? 9 : 5; q < NP; q++) {
        if (stock[q] - (q == p) <= 0) continue;
        for (int g = F->piece_first[q]; g < F->piece_first[q + 1]; g++) {
            anchors_of(t, sh_after, g, &x);
            room_after += b_count(&x);
            anchors_of(t, sh_before, g, &x);
            room_before += b_count(&x);
        }
    }
    if (room_before) value += w[4] * (double)room_after / (double)room_before;
    value += w[5] * F->piece_size[p];
    return value;
}

/* _player._bonus */
static long bonus(const T *t, const B *filled0, const B *watch, const B *obstacles, const B *tower, const B *pending,
                  const B *own0, const B *mask) {
    B filled, empty, enc, x, closed, co, own, mine;
    for (int i = 0; i < NW; i++) {
        filled.w[i] = filled0->w[i] | mask->w[i];
        empty.w[i] = t->board.w[i] & ~filled.w[i];
    }
    enclosed(t, &filled, &empty, &enc);
    long gain = 10L * b_count(&enc);
    for (int i = 0; i < NW; i++) x.w[i] = mask->w[i] | enc.w[i];
    if (b_intersects(&x, watch)) {
        for (int i = 0; i < NW; i++) x.w[i] = filled.w[i] | enc.w[i];
        enclosed(t, &x, pending, &closed);
        if (b_any(&closed)) {
            if (b_intersects(&closed, tower)) gain += 50;
            for (int i = 0; i < NW; i++) {
                own.w[i] = own0->w[i] | mask->w[i] | enc.w[i];
                co.w[i] = closed.w[i] & obstacles->w[i];
            }
            enclosed(t, &own, &co, &mine);
            gain += 10L * b_count(&mine);
        }
    }
    return gain;
}

/* _player.best_bonus over the orientations gs[0..ng) */
static long forma_best_bonus(const T *t, const B *filled, const B *watch, const B *obstacles, const B *tower,
                             const B *closed0, const B *own, const int *gs, int ng, long cap) {
    B empty, le, ri, up, dn, two, target, pending, x, y;
    for (int i = 0; i < NW; i++) empty.w[i] = t->board.w[i] & ~filled->w[i];
    sides(t, filled, &le, &ri, &up, &dn);
    for (int i = 0; i < NW; i++) {
        two.w[i] = (le.w[i] & (ri.w[i] | up.w[i] | dn.w[i])) | (ri.w[i] & (up.w[i] | dn.w[i])) | (up.w[i] & dn.w[i]);
        x.w[i] = empty.w[i] & two.w[i];
        pending.w[i] = (obstacles->w[i] | tower->w[i]) & ~closed0->w[i];
    }
    neighbours(t, &x, &target);
    if (b_any(&pending)) {
        for (int i = 0; i < NW; i++) x.w[i] = pending.w[i] & two.w[i];
        neighbours(t, &x, &y);
        for (int i = 0; i < NW; i++) target.w[i] |= y.w[i];
    }
    for (int i = 0; i < NW; i++) target.w[i] &= empty.w[i];
    if (!b_any(&target)) return 0;
    B sh[64], ok, hit, cand, mask;
    shifts(t, &empty, sh);
    long best = 0, tried = 0;
    for (int j = 0; j < ng; j++) {
        int g = gs[j];
        anchors_of(t, sh, g, &ok);
        if (!b_any(&ok)) continue;
        memset(&hit, 0, sizeof hit);
        for (int k = 0; k < t->olen[g]; k++) {
            b_shr(&target, t->ooff[g][k], &x);
            for (int i = 0; i < NW; i++) hit.w[i] |= x.w[i];
        }
        for (int i = 0; i < NW; i++) cand.w[i] = ok.w[i] & hit.w[i];
        tried += b_count(&cand);
        if (tried > cap) break;
        for (int i = 0; i < NW; i++) {
            uint64_t bits = cand.w[i];
            while (bits) {
                F->placement_mask(t, g, 64 * i + __builtin_ctzll(bits), &mask);
                long gain = bonus(t, filled, watch, obstacles, tower, &pending, own, &mask);
                if (gain > best) best = gain;
                bits &= bits - 1;
            }
        }
    }
    return best;
}

/* ------------------------------------------------------------------ Python functions */
/* value(size, filled, watch, obstacles, tower, closed, pieces, markers, player, bridges, mask, piece, stock,
 *       weights) -> _eval.place_value */
static PyObject *py_value(PyObject *self, PyObject *args) {
    int size, player, piece, stock[NP];
    long bridges;
    PyObject *o[5], *o_pieces, *o_markers, *o_mask, *o_stock, *o_w;
    if (!PyArg_ParseTuple(args, "iOOOOOOOilOiOO", &size, &o[0], &o[1], &o[2], &o[3], &o[4], &o_pieces, &o_markers,
                          &player, &bridges, &o_mask, &piece, &o_stock, &o_w))
        return NULL;
    T *t = F->table(size);
    if (!t) return NULL;
    B in[5], pieces[MAXPLAYERS], markers[MAXPLAYERS], mask;
    for (int i = 0; i < 5; i++)
        if (F->to_b(o[i], &in[i]) < 0) return NULL;
    Py_ssize_t np = PySequence_Size(o_pieces);
    if (np < 1 || np > MAXPLAYERS || player < 0 || player >= np || piece < 0 || piece >= NP) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "1 to 4 players, a player and a piece among them");
        return NULL;
    }
    if (F->boards_in(o_pieces, pieces, (int)np) < 0 || F->boards_in(o_markers, markers, (int)np) < 0 ||
        F->to_b(o_mask, &mask) < 0 || F->to_stock(o_stock, stock) < 0)
        return NULL;
    double w[6];
    PyObject *fast = PySequence_Fast(o_w, "weights are a sequence of 6 floats");
    if (!fast) return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != 6) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "weights are a sequence of 6 floats");
        return NULL;
    }
    for (int i = 0; i < 6; i++) w[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
    Py_DECREF(fast);
    if (PyErr_Occurred()) return NULL;
    return PyFloat_FromDouble(forma_value(t, &in[0], &in[1], &in[2], &in[3], &in[4], pieces, markers, (int)np, player,
                                          bridges, &mask, piece, stock, w));
}

/* best_bonus(size, filled, watch, obstacles, tower, closed, own, orients, cap) -> _player.best_bonus */
static PyObject *py_best_bonus(PyObject *self, PyObject *args) {
    int size;
    long cap;
    PyObject *o[6], *o_gs;
    if (!PyArg_ParseTuple(args, "iOOOOOOOl", &size, &o[0], &o[1], &o[2], &o[3], &o[4], &o[5], &o_gs, &cap)) return NULL;
    T *t = F->table(size);
    if (!t) return NULL;
    B in[6];
    for (int i = 0; i < 6; i++)
        if (F->to_b(o[i], &in[i]) < 0) return NULL;
    int gs[NO];
    PyObject *fast = PySequence_Fast(o_gs, "orientations are a sequence of ints");
    if (!fast) return NULL;
    Py_ssize_t ng = PySequence_Fast_GET_SIZE(fast);
    if (ng > NO) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "at most 91 orientations");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < ng; i++) {
        gs[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (gs[i] < 0 || gs[i] >= NO) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "orientation out of range");
            Py_DECREF(fast);
            return NULL;
        }
    }
    Py_DECREF(fast);
    return PyLong_FromLong(forma_best_bonus(t, &in[0], &in[1], &in[2], &in[3], &in[4], &in[5], gs, (int)ng, cap));
}

static PyMethodDef methods[] = {
    {"value", py_value, METH_VARARGS, "value(...) -> a placement's one-ply value (_eval.place_value)."},
    {"best_bonus", py_best_bonus, METH_VARARGS, "best_bonus(...) -> the next player's best bonus (_player)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_cforma_eval", "Forma's AI evaluation in C.", -1,
                                       methods};

PyMODINIT_FUNC PyInit__cforma_eval(void) {
    F = (const FormaAPI *)PyCapsule_Import(FORMA_API, 0);
    return F ? PyModule_Create(&moduledef) : NULL;
}
