/* polytable.games.formfinity._cformfinity: FORMFINITY's placement generation in C (see _native.py).
 *
 * It mirrors _board.py bit for bit: a board is the same Python int (cell (x, y) is bit y * S + x with
 * S = W + 1, a guard column that is always empty), held here as NW 64-bit words (templates are at most
 * 40 x 40). element_anchors is _board.element_anchors (the anchors of every orientation of an element,
 * anywhere or slid in from the card's edges, filtered by the squares it may cover and the squares it
 * must touch); flood is geometry.flood on such a board. The shapes (fixed polyominoes) are not defined
 * here: Python passes _cards.SHAPES once (init), so the tables stay single-sourced.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../../core/_bits.h"   /* bit tricks, shifts across words, the flood fill */
#include "../../core/_layout.h" /* layout(): the state buffer as this build lays it out */
#include "../../core/_pylong.h" /* ints as bytes */
#include "../../core/_rng.h"    /* next_u64, below: the generator of core._rng */

#define NW 27 /* 1,728 bits: a 40 x 40 template with stride 41 needs 1,640 */
#define MAXSIDE 40
#define MAXSHAPES 128
#define MAXCELLS 5

typedef struct {
    uint64_t w[NW];
} BB;

/* The words the current call's boards use (H * S bits, rounded up; a set-up's `words`): loops stop there.
 * Words past it are zero in every input (from_py fills all NW) and never read. Set by each entry point
 * from the boards it is given (the GIL is held); every game's own values live in its context (FF). */
static int nw = NW;
static void set_words(int bits) { nw = bits <= 0 ? 1 : bits > NW * 64 ? NW : (bits + 63) / 64; }

static int nshapes;
static int sh_n[MAXSHAPES], sh_x[MAXSHAPES][MAXCELLS], sh_y[MAXSHAPES][MAXCELLS], sh_w[MAXSHAPES], sh_h[MAXSHAPES];
/* Per shape column dx: its top and bottom cell; per row dy: its left and right cell (_board.PROFILES). */
static int col_top[MAXSHAPES][MAXCELLS], col_bot[MAXSHAPES][MAXCELLS];
static int row_left[MAXSHAPES][MAXCELLS], row_right[MAXSHAPES][MAXCELLS];

/* ------------------------------------------------------------------ words */
static int from_py(PyObject *o, BB *b) {
    if (!PyLong_Check(o) || pylong_negative(o)) {
        PyErr_SetString(PyExc_ValueError, "a board is a non-negative int");
        return -1;
    }
    return pylong_to_bytes(o, (unsigned char *)b->w, sizeof(b->w), "board") < 0 ? -1 : 0;
}

static PyObject *to_py(const BB *b) {
    return pylong_from_bytes((const unsigned char *)b->w, sizeof(uint64_t) * (size_t)nw);
}

static inline int b_any(const BB *a) { return bits_any(a->w, nw); }
static inline void b_set(BB *a, int i) { a->w[i >> 6] |= 1ULL << (i & 63); }
static inline int b_get(const BB *a, int i) { return (int)(a->w[i >> 6] >> (i & 63) & 1); }

/* o = a >> k, o = a << k (k >= 0; the bits past the last word dropped) */
static inline void b_shr(const BB *a, int k, BB *o) { bits_shr(a->w, nw, k, o->w); }
static inline void b_shl(const BB *a, int k, BB *o) { bits_shl(a->w, nw, k, o->w); }

/* ------------------------------------------------------------------ anchors */
typedef struct {
    int ftop[MAXSIDE], lbot[MAXSIDE], fleft[MAXSIDE], lright[MAXSIDE];
} Prof;

/* Bits base .. base + W - 1 of a board (W <= 40: one row). */
static inline uint64_t b_row(const BB *a, int base, int W) {
    int w = base >> 6, off = base & 63;
    uint64_t v = a->w[w] >> off;
    if (off && off + W > 64 && w + 1 < NW) v |= a->w[w + 1] << (64 - off);
    return v & ((1ULL << W) - 1);
}

/* _board._profile: the first and last blocked row of each column and column of each row (row by row,
 * a column's first and last rows from the columns not yet met going down and going up). */
static void profile(const BB *blocked, int W, int H, int S, Prof *p) {
    uint64_t rows[MAXSIDE], seen = 0;
    for (int x = 0; x < W; x++) {
        p->ftop[x] = H;
        p->lbot[x] = -1;
    }
    for (int y = 0; y < H; y++) {
        uint64_t r = rows[y] = b_row(blocked, y * S, W);
        p->fleft[y] = r ? __builtin_ctzll(r) : W;
        p->lright[y] = r ? 63 - __builtin_clzll(r) : -1;
        for (uint64_t m = r & ~seen; m; m &= m - 1) p->ftop[__builtin_ctzll(m)] = y;
        seen |= r;
    }
    seen = 0;
    for (int y = H - 1; y >= 0; y--) {
        for (uint64_t m = rows[y] & ~seen; m; m &= m - 1) p->lbot[__builtin_ctzll(m)] = y;
        seen |= rows[y];
    }
}

/* _board.slide_anchors: where an element comes to rest when slid in from an edge in `edges`. */
static void slide(int s, int edges, int W, int H, int S, const Prof *p, BB *ok) {
    int w = sh_w[s], h = sh_h[s];
    memset(ok, 0, sizeof(*ok));
    if (w > W || h > H) return;
    if (edges & 1) /* from the top, moving down */
        for (int x = 0; x <= W - w; x++) {
            int m = 1 << 20;
            for (int dx = 0; dx < w; dx++) {
                int v = p->ftop[x + dx] - col_bot[s][dx];
                if (v < m) m = v;
            }
            if (m >= 1) b_set(ok, (m - 1) * S + x);
        }
    if (edges & 4) /* from the bottom, moving up */
        for (int x = 0; x <= W - w; x++) {
            int m = -(1 << 20);
            for (int dx = 0; dx < w; dx++) {
                int v = p->lbot[x + dx] - col_top[s][dx];
                if (v > m) m = v;
            }
            if (m < H - h) b_set(ok, (m + 1) * S + x);
        }
    if (edges & 8) /* from the left, moving right */
        for (int y = 0; y <= H - h; y++) {
            int m = 1 << 20;
            for (int dy = 0; dy < h; dy++) {
                int v = p->fleft[y + dy] - row_right[s][dy];
                if (v < m) m = v;
            }
            if (m >= 1) b_set(ok, y * S + m - 1);
        }
    if (edges & 2) /* from the right, moving left */
        for (int y = 0; y <= H - h; y++) {
            int m = -(1 << 20);
            for (int dy = 0; dy < h; dy++) {
                int v = p->lright[y + dy] - row_left[s][dy];
                if (v > m) m = v;
            }
            if (m < W - w) b_set(ok, y * S + m + 1);
        }
}

/* The anchors where shape s's bounding box lies on the W x H board (_board.Setup.shape_fit). */
static void fit(int s, int W, int H, int S, BB *ok) {
    memset(ok, 0, sizeof(*ok));
    int w = sh_w[s], h = sh_h[s];
    if (w > W || h > H) return;
    for (int y = 0; y <= H - h; y++)
        for (int x = 0; x <= W - w; x++) b_set(ok, y * S + x);
}

static int init_rotations(PyObject *rotations);

static PyObject *py_init(PyObject *self, PyObject *args) {
    PyObject *shapes, *rotations;
    if (!PyArg_ParseTuple(args, "OO", &shapes, &rotations)) return NULL;
    PyObject *fast = PySequence_Fast(shapes, "shapes must be a sequence");
    if (fast == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > MAXSHAPES) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "too many shapes");
        return NULL;
    }
    for (Py_ssize_t s = 0; s < n; s++) {
        PyObject *cells = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, s), "a shape is a sequence of (x, y)");
        if (cells == NULL) {
            Py_DECREF(fast);
            return NULL;
        }
        Py_ssize_t k = PySequence_Fast_GET_SIZE(cells);
        int ok = k >= 1 && k <= MAXCELLS, w = 0, h = 0;
        for (Py_ssize_t i = 0; ok && i < k; i++) {
            int x, y;
            ok = PyArg_ParseTuple(PySequence_Fast_GET_ITEM(cells, i), "ii", &x, &y) && x >= 0 && y >= 0 &&
                 x < MAXCELLS && y < MAXCELLS;
            if (ok) {
                sh_x[s][i] = x;
                sh_y[s][i] = y;
                if (x + 1 > w) w = x + 1;
                if (y + 1 > h) h = y + 1;
            }
        }
        Py_DECREF(cells);
        if (!ok) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a shape has 1 to 5 cells within 5 x 5");
            return NULL;
        }
        sh_n[s] = (int)k;
        sh_w[s] = w;
        sh_h[s] = h;
        for (int d = 0; d < MAXCELLS; d++) {
            col_top[s][d] = row_left[s][d] = 1 << 20;
            col_bot[s][d] = row_right[s][d] = -(1 << 20);
        }
        for (int i = 0; i < k; i++) {
            int x = sh_x[s][i], y = sh_y[s][i];
            if (y < col_top[s][x]) col_top[s][x] = y;
            if (y > col_bot[s][x]) col_bot[s][x] = y;
            if (x < row_left[s][y]) row_left[s][y] = x;
            if (x > row_right[s][y]) row_right[s][y] = x;
        }
    }
    Py_DECREF(fast);
    nshapes = (int)n;
    if (init_rotations(rotations) < 0) {
        nshapes = 0;
        return NULL;
    }
    Py_RETURN_NONE;
}

/* _board.element_anchors on words: the shapes of `orients` with a legal anchor, and their anchors, in
 * order (touch NULL: none needed); returns how many. */
static int anchors_core(int W, int H, const int *orients, int norients, int edges, const BB *blocked, const BB *allowed,
                        const BB *touch, int *oshape, BB *oanch) {
    int S = W + 1, n = 0;
    Prof prof;
    if (edges) profile(blocked, W, H, S, &prof);
    for (int i = 0; i < norients; i++) {
        int s = orients[i];
        BB ok, t;
        if (edges)
            slide(s, edges, W, H, S, &prof, &ok);
        else
            fit(s, W, H, S, &ok);
        for (int c = 0; c < sh_n[s] && b_any(&ok); c++) {
            b_shr(allowed, sh_y[s][c] * S + sh_x[s][c], &t);
            for (int j = 0; j < nw; j++) ok.w[j] &= t.w[j];
        }
        if (touch != NULL && b_any(&ok)) {
            BB any;
            memset(&any, 0, sizeof(any));
            for (int c = 0; c < sh_n[s]; c++) {
                b_shr(touch, sh_y[s][c] * S + sh_x[s][c], &t);
                for (int j = 0; j < nw; j++) any.w[j] |= t.w[j];
            }
            for (int j = 0; j < nw; j++) ok.w[j] &= any.w[j];
        }
        if (!b_any(&ok)) continue;
        oshape[n] = s;
        oanch[n++] = ok;
    }
    return n;
}

/* element_anchors(W, H, orients, edges, blocked, allowed, touch or None) -> [(shape, anchors), ...] */
static PyObject *py_element_anchors(PyObject *self, PyObject *args) {
    int W, H, edges;
    PyObject *orients, *oblocked, *oallowed, *otouch;
    if (!PyArg_ParseTuple(args, "iiOiOOO", &W, &H, &orients, &edges, &oblocked, &oallowed, &otouch)) return NULL;
    if (W < 1 || H < 1 || W > MAXSIDE || H > MAXSIDE || !nshapes) {
        PyErr_SetString(PyExc_ValueError, "the board is 1 to 40 squares a side (and init must come first)");
        return NULL;
    }
    set_words(H * (W + 1));
    BB blocked, allowed, touch;
    if (from_py(oblocked, &blocked) < 0 || from_py(oallowed, &allowed) < 0) return NULL;
    int has_touch = otouch != Py_None;
    if (has_touch && from_py(otouch, &touch) < 0) return NULL;
    PyObject *fast = PySequence_Fast(orients, "orients must be a sequence of shape ids");
    if (fast == NULL) return NULL;
    int ids[MAXSHAPES], shapes[MAXSHAPES], n = 0;
    static BB anch[MAXSHAPES];
    Py_ssize_t k = PySequence_Fast_GET_SIZE(fast);
    for (Py_ssize_t i = 0; i < k; i++) {
        long s = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (s < 0 || s >= nshapes || i >= MAXSHAPES) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "no such shape");
            return NULL;
        }
        ids[i] = (int)s;
    }
    Py_DECREF(fast);
    n = anchors_core(W, H, ids, (int)k, edges, &blocked, &allowed, has_touch ? &touch : NULL, shapes, anch);
    PyObject *out = PyList_New(n);
    for (int i = 0; out != NULL && i < n; i++) {
        PyObject *item = Py_BuildValue("(iN)", shapes[i], to_py(&anch[i]));
        if (item == NULL) Py_CLEAR(out);
        else PyList_SET_ITEM(out, i, item);
    }
    return out;
}

/* ------------------------------------------------------------------ regions (connection goal) */
static inline void b_and(BB *a, const BB *b) {
    for (int j = 0; j < nw; j++) a->w[j] &= b->w[j];
}
static inline void b_or(BB *a, const BB *b) {
    for (int j = 0; j < nw; j++) a->w[j] |= b->w[j];
}
static inline void b_andnot(BB *a, const BB *b) {
    for (int j = 0; j < nw; j++) a->w[j] &= ~b->w[j];
}
static inline int b_meets(const BB *a, const BB *b) { return bits_meets(a->w, b->w, nw); }
static inline int b_lowest(const BB *a) { return bits_low(a->w, nw); }

/* geometry.flood: the squares of pass edge-connected to seed & pass (pass leaves the guard column empty).
 * With a target: stops early (returning 1) once the region meets it. */
static int b_flood_to(const BB *seed, const BB *pass, int S, BB *region, const BB *target) {
    return bits_flood(seed->w, pass->w, nw, S, region->w, target ? target->w : NULL);
}
static void b_flood(const BB *seed, const BB *pass, int S, BB *region) { b_flood_to(seed, pass, S, region, NULL); }

/* Setup.n4 (edge neighbours) and Setup.n8 (the squares and everything touching them) within full. */
static void b_n4(const BB *x, const BB *full, int S, BB *o) {
    BB a;
    b_shl(x, 1, o);
    b_shr(x, 1, &a);
    b_or(o, &a);
    b_shl(x, S, &a);
    b_or(o, &a);
    b_shr(x, S, &a);
    b_or(o, &a);
    b_and(o, full);
}
static void b_n8(const BB *x, const BB *full, int S, BB *o) {
    BB h = *x, a;
    b_shl(x, 1, &a);
    b_or(&h, &a);
    b_shr(x, 1, &a);
    b_or(&h, &a);
    *o = h;
    b_shl(&h, S, &a);
    b_or(o, &a);
    b_shr(&h, S, &a);
    b_or(o, &a);
    b_and(o, full);
}

static PyObject *py_flood(PyObject *self, PyObject *args) {
    PyObject *oseed, *opass;
    int S;
    if (!PyArg_ParseTuple(args, "OOi", &oseed, &opass, &S)) return NULL;
    if (S < 2 || S > MAXSIDE + 1) {
        PyErr_SetString(PyExc_ValueError, "the stride is 2 to 41");
        return NULL;
    }
    BB seed, pass, region;
    if (from_py(oseed, &seed) < 0 || from_py(opass, &pass) < 0) return NULL;
    set_words((int)pylong_bits(opass));
    b_flood(&seed, &pass, S, &region);
    return to_py(&region);
}

/* The connection goal's fixed squares and the two drawings (2 players). */
typedef struct {
    int S, corner;
    BB full, playable, star[2], own[2];
} Race;

/* _flow.constraints for the connection goal: where `player` may draw, and what they must touch. */
static void race_constraints(const Race *r, int player, BB *allowed, BB *touch) {
    BB ring, own;
    const BB *opp = &r->own[1 - player];
    if (r->corner) {
        b_n4(opp, &r->full, r->S, &ring);
        b_or(&ring, opp);
    } else
        b_n8(opp, &r->full, r->S, &ring);
    *allowed = r->playable;
    b_andnot(allowed, &r->own[0]);
    b_andnot(allowed, &r->own[1]);
    b_andnot(allowed, &ring);
    own = r->own[player];
    b_or(&own, &r->star[player]);
    b_n4(&own, &r->full, r->S, touch);
}

/* _flow.way: one shortest way `player` could still draw to the other start square (empty: none). */
static void race_way(const Race *r, int player, BB *path) {
    static BB layers[MAXSIDE * MAXSIDE + 2];
    BB allowed, touch, side, seen, end;
    race_constraints(r, player, &allowed, &touch);
    b_n4(&r->star[1 - player], &r->full, r->S, &side);
    int n = 0;
    layers[0] = touch;
    b_and(&layers[0], &allowed);
    seen = layers[0];
    while (b_any(&layers[n]) && !b_meets(&layers[n], &side)) {
        b_n4(&layers[n], &r->full, r->S, &layers[n + 1]);
        b_and(&layers[n + 1], &allowed);
        b_andnot(&layers[n + 1], &seen);
        b_or(&seen, &layers[n + 1]);
        n++;
    }
    memset(path, 0, sizeof(*path));
    end = layers[n];
    b_and(&end, &side);
    int cell = b_lowest(&end);
    if (cell < 0) return;
    b_set(path, cell);
    for (int k = n - 1; k >= 0; k--) {
        BB one, step;
        memset(&one, 0, sizeof(one));
        b_set(&one, cell);
        b_n4(&one, &r->full, r->S, &step);
        b_and(&step, &layers[k]);
        cell = b_lowest(&step);
        if (cell < 0) return; /* cannot happen: every square of a layer touches the layer before */
        b_set(path, cell);
    }
}

/* _flow.connects: whether `own` joins both black squares, edge to edge. */
static int race_connects(const Race *r, const BB *own, int player) {
    BB pass = *own, region;
    b_or(&pass, &r->star[0]);
    b_or(&pass, &r->star[1]);
    b_and(&pass, &r->full);
    b_flood(&r->star[player], &pass, r->S, &region);
    return b_meets(&region, &r->star[1 - player]);
}

/* _flow.can_connect: whether `player` could still ever connect, that is whether their drawing, start
 * square and the squares they may still reach touch the goal; n4 is symmetric within the template, so
 * "n4(region) meets the goal" is "region meets n4(goal)", and the flood stops when it gets there. */
static int race_can_connect(const Race *r, int player) {
    BB allowed, touch, region, seed, side, mine = r->own[player];
    b_n4(&r->star[1 - player], &r->full, r->S, &side);
    b_or(&mine, &r->star[player]);
    if (b_meets(&mine, &side)) return 1;
    race_constraints(r, player, &allowed, &touch);
    seed = touch;
    b_and(&seed, &allowed);
    b_and(&allowed, &r->full);
    return b_flood_to(&seed, &allowed, r->S, &region, &side);
}

/* _flow.keeps_a_way on words: keeps, of the n options (shape, anchors), the anchors that leave the
 * opponent of `player` a way to their goal, dropping emptied options in place; returns how many are left. */
static int keep_way_near(Race *r, int player, const BB *near, int n, int *shapes, BB *anch);
static int keep_way_core(Race *r, int player, int n, int *shapes, BB *anch) {
    BB path, near;
    race_way(r, 1 - player, &path);
    if (!b_any(&path)) return n;
    b_n8(&path, &r->full, r->S, &near);
    return keep_way_near(r, player, &near, n, shapes, anch);
}

/* keep_way_core once the squares on and around the opponent's way (`near`) are known. */
static int keep_way_near(Race *r, int player, const BB *near, int n, int *shapes, BB *anch) {
    int opp = 1 - player, m = 0;
    const BB mine = r->own[player];
    for (int i = 0; i < n; i++) {
        int s = shapes[i];
        BB hit, t, risky, ok;
        memset(&hit, 0, sizeof(hit));
        for (int c = 0; c < sh_n[s]; c++) {
            b_shr(near, sh_y[s][c] * r->S + sh_x[s][c], &t);
            b_or(&hit, &t);
        }
        risky = anch[i];
        b_and(&risky, &hit);
        ok = anch[i];
        b_andnot(&ok, &hit);
        for (int low = b_lowest(&risky); low >= 0; low = b_lowest(&risky)) {
            risky.w[low >> 6] &= ~(1ULL << (low & 63));
            r->own[player] = mine;
            for (int c = 0; c < sh_n[s]; c++) b_set(&r->own[player], low + sh_y[s][c] * r->S + sh_x[s][c]);
            if (race_connects(r, &r->own[player], player) || race_can_connect(r, opp)) b_set(&ok, low);
        }
        r->own[player] = mine;
        if (!b_any(&ok)) continue;
        shapes[m] = s;
        anch[m++] = ok;
    }
    return m;
}

/* keeps_a_way(W, H, full, playable, star0, star1, corner_touch, own0, own1, player, options) -> the
 * anchors of options that leave the opponent a way to their goal (_flow.keeps_a_way). */
static PyObject *py_keeps_a_way(PyObject *self, PyObject *args) {
    int W, H, corner, player;
    PyObject *o[7], *options;
    if (!PyArg_ParseTuple(args, "iiOOOOpOOiO", &W, &H, &o[0], &o[1], &o[2], &o[3], &corner, &o[4], &o[5], &player,
                          &options))
        return NULL;
    if (W < 1 || H < 1 || W > MAXSIDE || H > MAXSIDE || player < 0 || player > 1 || !nshapes) {
        PyErr_SetString(PyExc_ValueError, "bad board size or player (init must come first)");
        return NULL;
    }
    Race r;
    r.S = W + 1;
    set_words(H * r.S);
    r.corner = corner;
    BB *dst[6] = {&r.full, &r.playable, &r.star[0], &r.star[1], &r.own[0], &r.own[1]};
    for (int i = 0; i < 6; i++)
        if (from_py(o[i], dst[i]) < 0) return NULL;
    PyObject *fast = PySequence_Fast(options, "options must be a sequence of (shape, anchors)");
    if (fast == NULL) return NULL;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(fast);
    int shapes[MAXSHAPES];
    static BB anch[MAXSHAPES];
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *oanchors;
        if (i >= MAXSHAPES || !PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "iO", &shapes[i], &oanchors) ||
            shapes[i] < 0 || shapes[i] >= nshapes || from_py(oanchors, &anch[i]) < 0) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "no such shape");
            return NULL;
        }
    }
    Py_DECREF(fast);
    int n = keep_way_core(&r, player, (int)k, shapes, anch);
    PyObject *out = PyList_New(n);
    for (int i = 0; out != NULL && i < n; i++) {
        PyObject *item = Py_BuildValue("(iN)", shapes[i], to_py(&anch[i]));
        if (item == NULL) Py_CLEAR(out);
        else PyList_SET_ITEM(out, i, item);
    }
    return out;
}

#include "_cformfinity_flow.h"
#include "_cformfinity_playout.h"

/* The orientations of each shape (_cards.ROTATIONS) and the shape ids of each size, which SHAPES lists
 * by size (checked). */
static int init_rotations(PyObject *rotations) {
    PyObject *fast = PySequence_Fast(rotations, "rotations must be a sequence");
    if (fast == NULL) return -1;
    int ok = PySequence_Fast_GET_SIZE(fast) == nshapes;
    for (int s = 0; ok && s < nshapes; s++) {
        ok = int_items(PySequence_Fast_GET_ITEM(fast, s), rot_ids[s], 4, &rot_n[s]) == 0 && rot_n[s] >= 1;
        for (int k = 0; ok && k < rot_n[s]; k++) ok = rot_ids[s][k] >= 0 && rot_ids[s][k] < nshapes;
    }
    Py_DECREF(fast);
    memset(size_count, 0, sizeof(size_count));
    for (int s = 0; ok && s < nshapes; s++) {
        int z = sh_n[s];
        if (size_count[z]++ == 0) size_first[z] = s;
        ok = s == 0 || sh_n[s - 1] <= z;
    }
    if (!ok && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad rotation table or shapes not by size");
    return ok ? 0 : -1;
}

static PyMethodDef methods[] = {
    {"init", py_init, METH_VARARGS,
     "init(shapes, rotations): every shape's cells (x, y), the index is the shape id, and its orientations."},
    {"setup_bytes", py_setup_bytes, METH_NOARGS, "setup_bytes() -> the size of a prepared set-up."},
    {"prepare", py_prepare, METH_VARARGS,
     "prepare(pack, buffer) -> bool: the packed set-up read into the buffer; False where the kernel declines it."},
    {"playout", py_playout, METH_VARARGS,
     "playout(setup, deck, lines, numbers, buffer) -> (deck, lines, numbers) or None: a random playout; the rest "
     "of the state in the buffer."},
    {"layout", py_layout, METH_NOARGS, "layout() -> ((name, offset, size), ...), sizeof: the state buffer."},
    {"element_anchors", py_element_anchors, METH_VARARGS,
     "element_anchors(W, H, orients, edges, blocked, allowed, touch) -> [(shape, anchors)] (_board.element_anchors)."},
    {"flood", py_flood, METH_VARARGS, "flood(seed, passable, stride) -> the connected region (geometry.flood)."},
    {"keeps_a_way", py_keeps_a_way, METH_VARARGS,
     "keeps_a_way(W, H, full, playable, star0, star1, corner_touch, own0, own1, player, options) -> the options "
     "that leave the opponent a way (_flow.keeps_a_way)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_cformfinity", "FORMFINITY's compiled placements.",
                                       -1, methods};

PyMODINIT_FUNC PyInit__cformfinity(void) { return PyModule_Create(&moduledef); }
