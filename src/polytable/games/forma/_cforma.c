/* polytable.games.forma._cforma: Forma's play-phase hot path in C (see _native.py for how it is used).
 *
 * It mirrors, bit for bit, the bitboard rules of _pieces.py and _rules.py: a board is the same Python int
 * (row stride size + 4, guard columns empty), held here as eight 64-bit words. The geometry is not
 * defined here: Python passes every orientation's cell offsets (init), so the tables stay single-sourced.
 * Random draws use the same SplitMix64 generator and the same draws in the same order as
 * _rules.sample_move, so a seeded game is identical in both engines. Bridges are counted by the Python
 * code (bridge_total), called back only when the cheap C tests say a new bridge may have formed.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define NW 8 /* 512 bits: a 20 x 20 board with stride 24 needs 480 */
#define NO 91
#define NP 21
#define MAXOFF 5
#define MAXSIZE 20
#define MAXPLAYERS 4
#define TERMINAL (-4)
#define TRIES 6
#define GOLDEN 0x9E3779B97F4A7C15ULL

typedef struct {
    uint64_t w[NW];
} B;

typedef struct {
    int size, stride, cells;
    B board, top, bottom, left, right;
    uint64_t row_mask;
    int nd, dist[64];
    int olen[NO], oidx[NO][MAXOFF], ooff[NO][MAXOFF];
    int nflat, flat_shift;
    uint8_t *flat_g;
    uint16_t *flat_pos;
} T;

static T *tabs[MAXSIZE + 1];
static int orient_piece[NO], piece_size[NP], piece_first[NP + 1];

/* ------------------------------------------------------------------ words */
static inline int b_any(const B *a) {
    uint64_t x = 0;
    for (int i = 0; i < NW; i++) x |= a->w[i];
    return x != 0;
}
static inline int b_count(const B *a) {
    int c = 0;
    for (int i = 0; i < NW; i++) c += __builtin_popcountll(a->w[i]);
    return c;
}
static inline void b_shr(const B *a, int k, B *o) {
    int q = k >> 6, r = k & 63;
    for (int i = 0; i < NW; i++) {
        uint64_t lo = i + q < NW ? a->w[i + q] : 0, hi = i + q + 1 < NW ? a->w[i + q + 1] : 0;
        o->w[i] = r ? (lo >> r) | (hi << (64 - r)) : lo;
    }
}
static inline void b_shl(const B *a, int k, B *o) {
    int q = k >> 6, r = k & 63;
    for (int i = NW - 1; i >= 0; i--) {
        uint64_t hi = i - q >= 0 ? a->w[i - q] : 0, lo = i - q - 1 >= 0 ? a->w[i - q - 1] : 0;
        o->w[i] = r ? (hi << r) | (lo >> (64 - r)) : hi;
    }
}
static inline int b_bit(const B *a, int i) { return (int)(a->w[i >> 6] >> (i & 63) & 1); }
static inline void b_set(B *a, int i) { a->w[i >> 6] |= 1ULL << (i & 63); }
static inline int b_eq(const B *a, const B *b) { return memcmp(a, b, sizeof(B)) == 0; }
static inline int b_intersects(const B *a, const B *b) {
    uint64_t x = 0;
    for (int i = 0; i < NW; i++) x |= a->w[i] & b->w[i];
    return x != 0;
}
/* index of the k-th (0-based) set bit */
static inline int b_select(const B *a, int k) {
    for (int i = 0; i < NW; i++) {
        int c = __builtin_popcountll(a->w[i]);
        if (k < c) {
            uint64_t x = a->w[i];
            while (k--) x &= x - 1;
            return 64 * i + __builtin_ctzll(x);
        }
        k -= c;
    }
    return -1;
}
static inline int b_low(const B *a) {
    for (int i = 0; i < NW; i++)
        if (a->w[i]) return 64 * i + __builtin_ctzll(a->w[i]);
    return -1;
}

/* ------------------------------------------------------------------ Python ints */
static int to_b(PyObject *v, B *b) {
    unsigned char buf[8 * NW];
    if (!PyLong_Check(v)) {
        PyErr_SetString(PyExc_TypeError, "a Forma bitboard must be an int");
        return -1;
    }
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t r = PyLong_AsNativeBytes(v, buf, sizeof buf,
                                        Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
                                            Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (r < 0) return -1;
    if (r > (Py_ssize_t)sizeof buf) {
        PyErr_SetString(PyExc_OverflowError, "bitboard too large");
        return -1;
    }
#else
    if (_PyLong_AsByteArray((PyLongObject *)v, buf, sizeof buf, 1, 0) < 0) return -1;
#endif
    for (int i = 0; i < NW; i++) {
        uint64_t x = 0;
        for (int j = 7; j >= 0; j--) x = x << 8 | buf[8 * i + j];
        b->w[i] = x;
    }
    return 0;
}
static PyObject *from_b(const B *b) {
    unsigned char buf[8 * NW];
    for (int i = 0; i < NW; i++)
        for (int j = 0; j < 8; j++) buf[8 * i + j] = (unsigned char)(b->w[i] >> (8 * j));
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromUnsignedNativeBytes(buf, sizeof buf, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    return _PyLong_FromByteArray(buf, sizeof buf, 1, 0);
#endif
}

/* ------------------------------------------------------------------ rules */
static inline uint64_t next_u64(uint64_t *s) {
    *s += GOLDEN;
    uint64_t z = *s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
/* exactly core._rng.below (n >= 1) */
static inline uint64_t below(uint64_t *s, uint64_t n) {
    if (n == 1) return 0;
    int bits = 64 - __builtin_clzll(n - 1);
    for (;;) {
        uint64_t r = next_u64(s) >> (64 - bits);
        if (r < n) return r;
    }
}

/* All distinct shifted copies of free: sh[d] = free >> dist[d]. */
static inline void shifts(const T *t, const B *free, B *sh) {
    for (int d = 0; d < t->nd; d++) b_shr(free, t->dist[d], &sh[d]);
}
static inline void anchors_of(const T *t, const B *sh, int g, B *out) {
    *out = sh[t->oidx[g][0]];
    for (int k = 1; k < t->olen[g]; k++) {
        const B *s = &sh[t->oidx[g][k]];
        for (int i = 0; i < NW; i++) out->w[i] &= s->w[i];
    }
}
static inline void enclosed(const T *t, const B *filled, const B *among, B *out) {
    B a, b, c, d;
    b_shl(filled, 1, &a);
    b_shr(filled, 1, &b);
    b_shl(filled, t->stride, &c);
    b_shr(filled, t->stride, &d);
    for (int i = 0; i < NW; i++)
        out->w[i] = among->w[i] & (a.w[i] | t->left.w[i]) & (b.w[i] | t->right.w[i]) & (c.w[i] | t->top.w[i]) &
                    (d.w[i] | t->bottom.w[i]);
}
static inline void neighbours(const T *t, const B *x, B *out) {
    B a, b, c, d;
    b_shl(x, 1, &a);
    b_shr(x, 1, &b);
    b_shl(x, t->stride, &c);
    b_shr(x, t->stride, &d);
    for (int i = 0; i < NW; i++) out->w[i] = (a.w[i] | b.w[i] | c.w[i] | d.w[i]) & t->board.w[i];
}
static void flood(const T *t, const B *seed, const B *pass, B *out) {
    B r, a, b, c, d;
    for (int i = 0; i < NW; i++) r.w[i] = seed->w[i] & pass->w[i];
    for (;;) {
        b_shl(&r, 1, &a);
        b_shr(&r, 1, &b);
        b_shl(&r, t->stride, &c);
        b_shr(&r, t->stride, &d);
        B g;
        for (int i = 0; i < NW; i++) g.w[i] = (r.w[i] | a.w[i] | b.w[i] | c.w[i] | d.w[i]) & pass->w[i];
        if (b_eq(&g, &r)) break;
        r = g;
    }
    *out = r;
}
static inline void b_and(const B *a, const B *b, B *o) {
    for (int i = 0; i < NW; i++) o->w[i] = a->w[i] & b->w[i];
}
static inline void b_or_shr(B *a, int k) {
    B s;
    b_shr(a, k, &s);
    for (int i = 0; i < NW; i++) a->w[i] |= s.w[i];
}
/* _rules.may_bridge */
static int may_bridge(const T *t, const B *own, const B *nw) {
    if (!((b_intersects(own, &t->top) && b_intersects(own, &t->bottom)) ||
          (b_intersects(own, &t->left) && b_intersects(own, &t->right))))
        return 0;
    B a = *own, x, y, m;
    b_or_shr(&a, 1);
    b_or_shr(&a, 2);
    b_or_shr(&a, 4);
    b_shr(&a, 8, &x);
    b_shr(&a, 15, &y);
    for (int i = 0; i < NW; i++) m.w[i] = (a.w[i] | x.w[i] | y.w[i]) & t->left.w[i];
    int ns = b_eq(&m, &t->left);
    B c = *own;
    int st = t->stride;
    b_or_shr(&c, st);
    b_or_shr(&c, 2 * st);
    b_or_shr(&c, 4 * st);
    b_or_shr(&c, 8 * st);
    b_or_shr(&c, 16 * st);
    b_and(&c, &t->top, &m);
    int ew = b_eq(&m, &t->top);
    if (!(ns || ew)) return 0;
    B comp;
    flood(t, nw, own, &comp);
    return (b_intersects(&comp, &t->top) && b_intersects(&comp, &t->bottom)) ||
           (b_intersects(&comp, &t->left) && b_intersects(&comp, &t->right));
}
/* _rules.bridge_bound */
static int bridge_bound(const T *t, const B *own) {
    B s, e, ns, ew, m;
    b_and(own, &t->top, &s);
    flood(t, &s, own, &s);
    b_and(own, &t->bottom, &e);
    flood(t, &e, own, &e);
    b_and(&s, &e, &ns);
    b_and(own, &t->left, &s);
    flood(t, &s, own, &s);
    b_and(own, &t->right, &e);
    flood(t, &e, own, &e);
    b_and(&s, &e, &ew);
    int bound = 0;
    if (b_any(&ns)) {
        int best = 1 << 30;
        for (int y = 0; y < t->size; y++) {
            b_shr(&ns, y * t->stride, &m);
            int c = __builtin_popcountll(m.w[0] & t->row_mask);
            if (c < best) best = c;
        }
        bound += best;
    }
    if (b_any(&ew)) {
        int best = 1 << 30;
        for (int x = 0; x < t->size; x++) {
            b_shr(&ew, x, &m);
            b_and(&m, &t->left, &m);
            int c = b_count(&m);
            if (c < best) best = c;
        }
        bound += best;
    }
    return bound;
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
    if (tabs[size]) {
        PyMem_Free(tabs[size]->flat_g);
        PyMem_Free(tabs[size]->flat_pos);
        PyMem_Free(tabs[size]);
    }
    tabs[size] = t;
    Py_RETURN_NONE;
fail:
    PyMem_Free(t->flat_g);
    PyMem_Free(t->flat_pos);
    PyMem_Free(t);
    return NULL;
}

static T *table_for(int size) {
    if (size < 0 || size > MAXSIZE || !tabs[size]) {
        PyErr_Format(PyExc_ValueError, "no Forma tables for size %d (call init first)", size);
        return NULL;
    }
    return tabs[size];
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

/* ------------------------------------------------------------------ move generation */
static int count_moves(const T *t, const int *stock, const B *free, int only) {
    B sh[64], a;
    shifts(t, free, sh);
    int total = 0;
    for (int p = only < 0 ? 0 : only; p < (only < 0 ? NP : only + 1); p++) {
        if (!stock[p]) continue;
        for (int g = piece_first[p]; g < piece_first[p + 1]; g++) {
            anchors_of(t, sh, g, &a);
            total += b_count(&a);
        }
    }
    return total;
}

static int can_place(const T *t, const int *stock, const B *free) {
    if (!b_any(free)) return 0;
    int held = 0;
    for (int p = 0; p < NP; p++) held |= stock[p];
    if (!held) return 0;
    if (stock[0]) return 1;
    B sh[64], a;
    shifts(t, free, sh);
    for (int p = 1; p < NP; p++) {
        if (!stock[p]) continue;
        for (int g = piece_first[p]; g < piece_first[p + 1]; g++) {
            anchors_of(t, sh, g, &a);
            if (b_any(&a)) return 1;
        }
    }
    return 0;
}

/* _rules.sample_move: (orientation, anchor) of a uniform legal placement; -1 when none. */
static int sample_move(const T *t, const int *stock, const B *free, uint64_t *rng, int only, int *anchor) {
    if (only < 0 && b_count(free) * 100 > t->cells * 72) {
        uint64_t n = (uint64_t)t->nflat;
        for (int i = 0; i < TRIES; i++) {
            uint64_t r;
            do r = next_u64(rng) >> t->flat_shift;
            while (r >= n);
            int g = t->flat_g[r], pos = t->flat_pos[r];
            if (!stock[orient_piece[g]]) continue;
            int ok = 1;
            for (int k = 0; k < t->olen[g]; k++)
                if (!b_bit(free, pos + t->ooff[g][k])) {
                    ok = 0;
                    break;
                }
            if (ok) {
                *anchor = pos;
                return g;
            }
        }
    }
    B sh[64], tab[NO];
    int counts[NO], gs[NO], ng = 0, total = 0;
    shifts(t, free, sh);
    for (int p = only < 0 ? 0 : only; p < (only < 0 ? NP : only + 1); p++) {
        if (!stock[p] && only < 0) continue;
        for (int g = piece_first[p]; g < piece_first[p + 1]; g++) {
            anchors_of(t, sh, g, &tab[ng]);
            counts[ng] = b_count(&tab[ng]);
            total += counts[ng];
            gs[ng++] = g;
        }
    }
    if (!total) return -1;
    int r = (int)below(rng, (uint64_t)total);
    for (int i = 0; i < ng; i++) {
        if (r < counts[i]) {
            *anchor = b_select(&tab[i], r);
            return gs[i];
        }
        r -= counts[i];
    }
    return -1;
}

static void placement_mask(const T *t, int g, int anchor, B *m) {
    memset(m, 0, sizeof *m);
    for (int k = 0; k < t->olen[g]; k++) b_set(m, anchor + t->ooff[g][k]);
}

/* ------------------------------------------------------------------ one placement and its score */
typedef struct {
    int n, turn, moves, exact;
    B obstacles, tower, filled, closed, watch, last;
    B pieces[MAXPLAYERS], markers[MAXPLAYERS];
    int stock[MAXPLAYERS][NP];
    long scores[MAXPLAYERS], bridges[MAXPLAYERS];
} S;

/* _rules.place_effect without the bridge count: fills *filled, *enc, *closed (new), *own; returns the
 * points; *bound is bridge_bound(own) when may_bridge says a bridge may have formed, else -1. */
static long effect(const T *t, const B *filled0, const B *watch, const B *obstacles, const B *tower,
                   const B *closed0, const B *own0, const B *mask, int size, B *filled, B *enc, B *closed, B *own,
                   int *bound) {
    B free;
    for (int i = 0; i < NW; i++) {
        filled->w[i] = filled0->w[i] | mask->w[i];
        free.w[i] = t->board.w[i] & ~filled->w[i];
    }
    enclosed(t, filled, &free, enc);
    B nw;
    for (int i = 0; i < NW; i++) {
        filled->w[i] |= enc->w[i];
        own->w[i] = own0->w[i] | mask->w[i] | enc->w[i];
        nw.w[i] = mask->w[i] | enc->w[i];
    }
    long points = size + 10L * b_count(enc);
    memset(closed, 0, sizeof *closed);
    if (b_intersects(&nw, watch)) {
        B pending;
        for (int i = 0; i < NW; i++) pending.w[i] = (obstacles->w[i] | tower->w[i]) & ~closed0->w[i];
        enclosed(t, filled, &pending, closed);
        if (b_any(closed)) {
            if (b_intersects(closed, tower)) points += 50;
            B co, mine;
            b_and(closed, obstacles, &co);
            enclosed(t, own, &co, &mine);
            points += 10L * b_count(&mine);
        }
    }
    *bound = may_bridge(t, own, &nw) ? bridge_bound(t, own) : -1;
    return points;
}

/* bridge_fn(own) -> (total, exact) from the Python rules; -1 on error */
static int call_bridges(PyObject *fn, const B *own, long *total, int *exact) {
    PyObject *o = from_b(own);
    if (!o) return -1;
    PyObject *r = PyObject_CallOneArg(fn, o);
    Py_DECREF(o);
    if (!r) return -1;
    int ok = PyArg_ParseTuple(r, "lp", total, exact);
    Py_DECREF(r);
    return ok ? 0 : -1;
}

static int next_turn(const T *t, const S *s, const B *free, int player) {
    for (int i = 1; i <= s->n; i++) {
        int q = (player + i) % s->n;
        if (can_place(t, s->stock[q], free)) return q;
    }
    return TERMINAL;
}

/* Game._apply for a placement of orientation g at anchor by the player to move. */
static int apply_place(const T *t, S *s, int g, int anchor, PyObject *bridge_fn) {
    int pl = s->turn, p = orient_piece[g];
    B mask, filled, enc, closed, own, own0;
    placement_mask(t, g, anchor, &mask);
    for (int i = 0; i < NW; i++) own0.w[i] = s->pieces[pl].w[i] | s->markers[pl].w[i];
    int bound;
    long points = effect(t, &s->filled, &s->watch, &s->obstacles, &s->tower, &s->closed, &own0, &mask, piece_size[p],
                         &filled, &enc, &closed, &own, &bound);
    if (bound > s->bridges[pl]) {
        long total;
        int exact;
        if (call_bridges(bridge_fn, &own, &total, &exact) < 0) return -1;
        if (!exact) s->exact = 0;
        if (total > s->bridges[pl]) {
            points += 50 * (total - s->bridges[pl]);
            s->bridges[pl] = total;
        }
    }
    for (int i = 0; i < NW; i++) {
        s->pieces[pl].w[i] |= mask.w[i];
        s->markers[pl].w[i] |= enc.w[i];
    }
    s->stock[pl][p]--;
    s->scores[pl] += points;
    if (b_any(&closed)) {
        B pend;
        for (int i = 0; i < NW; i++) {
            s->closed.w[i] |= closed.w[i];
            pend.w[i] = (s->obstacles.w[i] | s->tower.w[i]) & ~s->closed.w[i];
        }
        neighbours(t, &pend, &s->watch);
    }
    s->filled = filled;
    B free;
    for (int i = 0; i < NW; i++) free.w[i] = t->board.w[i] & ~filled.w[i];
    s->turn = next_turn(t, s, &free, pl);
    s->moves++;
    s->last = mask;
    return 0;
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
        PyObject *v = from_b(&a);
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
    return PyLong_FromLong(count_moves(t, stock, &free, only));
}

static PyObject *py_can_place(PyObject *self, PyObject *args) {
    int size, stock[NP];
    PyObject *so, *fo;
    if (!PyArg_ParseTuple(args, "iOO", &size, &so, &fo)) return NULL;
    T *t = table_for(size);
    B free;
    if (!t || to_stock(so, stock) < 0 || to_b(fo, &free) < 0) return NULL;
    return PyBool_FromLong(can_place(t, stock, &free));
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
    int g = sample_move(t, stock, &free, &rng, only, &anchor);
    if (g < 0) return Py_BuildValue("(iiK)", -1, 0, (unsigned long long)rng);
    placement_mask(t, g, anchor, &mask);
    PyObject *m = from_b(&mask);
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
    long points = effect(t, &in[0], &in[1], &in[2], &in[3], &in[4], &in[5], &in[6], pieces, &filled, &enc, &closed,
                         &own, &bound);
    return Py_BuildValue("(NNNlNi)", from_b(&filled), from_b(&enc), from_b(&closed), points, from_b(&own), bound);
}

static PyObject *py_neighbours(PyObject *self, PyObject *args) {
    int size;
    PyObject *o;
    if (!PyArg_ParseTuple(args, "iO", &size, &o)) return NULL;
    T *t = table_for(size);
    B x, out;
    if (!t || to_b(o, &x) < 0) return NULL;
    neighbours(t, &x, &out);
    return from_b(&out);
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
    return PyLong_FromLong(next_turn(t, &s, &free, player));
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
static int longs_in(PyObject *seq, long *out, int n) {
    PyObject *fast = PySequence_Fast(seq, "expected a sequence of ints");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "one value per player");
        return -1;
    }
    for (int i = 0; i < n; i++) out[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
    Py_DECREF(fast);
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *boards_out(const B *b, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = from_b(&b[i]);
        if (!v) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

/* playout(size, obstacles, tower, pieces, markers, filled, stocks, scores, bridges, closed, watch, turn,
 *         moves, last, exact, rngs, shared, max_actions, bridge_fn)
 * -> (pieces, markers, filled, stocks, scores, bridges, closed, watch, turn, moves, last, exact, rngs, actions) */
static PyObject *py_playout(PyObject *self, PyObject *args) {
    int size, turn, moves, exact, shared, max_actions;
    PyObject *o_obst, *o_tower, *o_pieces, *o_markers, *o_filled, *o_stocks, *o_scores, *o_bridges, *o_closed,
        *o_watch, *o_last, *o_rngs, *bridge_fn;
    if (!PyArg_ParseTuple(args, "iOOOOOOOOOOiiOpOpiO", &size, &o_obst, &o_tower, &o_pieces, &o_markers, &o_filled,
                          &o_stocks, &o_scores, &o_bridges, &o_closed, &o_watch, &turn, &moves, &o_last, &exact,
                          &o_rngs, &shared, &max_actions, &bridge_fn))
        return NULL;
    T *t = table_for(size);
    if (!t) return NULL;
    S s;
    memset(&s, 0, sizeof s);
    s.n = (int)PySequence_Size(o_pieces);
    if (s.n < 2 || s.n > MAXPLAYERS) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "2 to 4 players");
        return NULL;
    }
    s.turn = turn;
    s.moves = moves;
    s.exact = exact;
    if (to_b(o_obst, &s.obstacles) < 0 || to_b(o_tower, &s.tower) < 0 || to_b(o_filled, &s.filled) < 0 ||
        to_b(o_closed, &s.closed) < 0 || to_b(o_watch, &s.watch) < 0 || to_b(o_last, &s.last) < 0 ||
        boards_in(o_pieces, s.pieces, s.n) < 0 || boards_in(o_markers, s.markers, s.n) < 0 ||
        longs_in(o_scores, s.scores, s.n) < 0 || longs_in(o_bridges, s.bridges, s.n) < 0)
        return NULL;
    {
        PyObject *fast = PySequence_Fast(o_stocks, "stocks must be a sequence");
        if (!fast) return NULL;
        if (PySequence_Fast_GET_SIZE(fast) != s.n) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "one stock per player");
            return NULL;
        }
        for (int i = 0; i < s.n; i++)
            if (to_stock(PySequence_Fast_GET_ITEM(fast, i), s.stock[i]) < 0) {
                Py_DECREF(fast);
                return NULL;
            }
        Py_DECREF(fast);
    }
    int nr = shared ? 1 : s.n;
    uint64_t rng[MAXPLAYERS];
    {
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
    }
    int actions = 0;
    while (s.turn >= 0 && (max_actions < 0 || actions < max_actions)) {
        if (s.turn >= s.n) {
            PyErr_SetString(PyExc_ValueError, "turn out of range");
            return NULL;
        }
        B free;
        for (int i = 0; i < NW; i++) free.w[i] = t->board.w[i] & ~s.filled.w[i];
        int anchor = 0;
        int g = sample_move(t, s.stock[s.turn], &free, &rng[shared ? 0 : s.turn], -1, &anchor);
        if (g < 0) {
            PyErr_SetString(PyExc_ValueError, "the player to move has no legal placement");
            return NULL;
        }
        if (apply_place(t, &s, g, anchor, bridge_fn) < 0) return NULL;
        actions++;
    }
    PyObject *stocks = PyTuple_New(s.n), *scores = PyTuple_New(s.n), *bridges = PyTuple_New(s.n),
             *rngs = PyList_New(nr);
    if (!stocks || !scores || !bridges || !rngs) goto fail;
    for (int i = 0; i < s.n; i++) {
        PyObject *st = PyTuple_New(NP);
        if (!st) goto fail;
        for (int p = 0; p < NP; p++) PyTuple_SET_ITEM(st, p, PyLong_FromLong(s.stock[i][p]));
        PyTuple_SET_ITEM(stocks, i, st);
        PyTuple_SET_ITEM(scores, i, PyLong_FromLong(s.scores[i]));
        PyTuple_SET_ITEM(bridges, i, PyLong_FromLong(s.bridges[i]));
    }
    for (int i = 0; i < nr; i++) PyList_SET_ITEM(rngs, i, PyLong_FromUnsignedLongLong(rng[i]));
    return Py_BuildValue("(NNNNNNNNiiNONi)", boards_out(s.pieces, s.n), boards_out(s.markers, s.n), from_b(&s.filled),
                         stocks, scores, bridges, from_b(&s.closed), from_b(&s.watch), s.turn, s.moves,
                         from_b(&s.last), s.exact ? Py_True : Py_False, rngs, actions);
fail:
    Py_XDECREF(stocks);
    Py_XDECREF(scores);
    Py_XDECREF(bridges);
    Py_XDECREF(rngs);
    return NULL;
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
    {"playout", py_playout, METH_VARARGS, "Random placements to the end (or max_actions); see the C source."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_cforma", "Forma's compiled play-phase kernel.", -1,
                                       methods};

PyMODINIT_FUNC PyInit__cforma(void) { return PyModule_Create(&moduledef); }
