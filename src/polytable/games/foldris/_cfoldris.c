/* polytable.games.foldris._cfoldris: Foldris's hot path in C (see _native.py for how it is used).
 *
 * It mirrors, bit for bit, the bitboard rules of _rules.py and the round logic of _game.py. A sheet is the
 * same Python int (bit = row * 8 + column), held here as one byte per row, so folding a row is a memmove.
 * The variant tables are not built here: Python registers each card's VariantTable once (register), so
 * the shapes and their canonical order stay single-sourced. Random draws use the same SplitMix64 generator
 * and the same draws in the same order as FoldrisGame._sample and the chance reveals, so a seeded game
 * is identical in both engines.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define ROWS 64 /* bytes of a sheet: the height option is at most 40, a resting block's top stays below it */
#define MAXV 80 /* variants of one table: 2 mirrors x (8 + 1) trims x 4 turns = 72 at most */
#define MAXT 4096
#define MAXP 7
#define MAXDECK 256

typedef struct {
    int cost, width, height, mirror, trim, rot;
    uint64_t bits; /* row r of the shape in byte r */
    int low[8];    /* per column j of the shape: its lowest square's row */
    int shift[8];  /* 8 * (free rows column j needs: height - low[j]) + j: its shift into the packed room */
    int top[8];    /* per column j of the shape: its highest square's row + 1 */
    uint8_t colmask;
} V;

typedef struct {
    int n, max_height;
    V v[MAXV];
    int8_t by_key[2][9][4]; /* VariantTable.by_key: (mirror, trim, rot) -> variant, or -1 */
} Table;

static Table *tables[MAXT];
static int ntables;

typedef struct {
    uint8_t ink[ROWS], bar[ROWS];
    long height, lines, bonus, out;
    int top;         /* no square at or above this row (an upper bound kept as the sheet changes) */
    int ihv, ih[8];  /* when ihv: each column's ink height */
    int bh[8];       /* each column's barrier height */
    int hv, hts[8];  /* when hv: each column's height (ink or barrier), what drops rest on */
    const void *mt;  /* when the heights are current: the table whose fit masks are below, for mbonus */
    long mbonus;
    int mk, mtotal, fit[MAXV];
} Sheet;

/* Rows up to and including the highest square of each column, in one layer of the sheet. */
static inline void scan(const uint8_t *rows, int top, int *h) {
    int left = 0xFF;
    for (int c = 0; c < 8; c++) h[c] = 0;
    for (int r = top - 1; r >= 0 && left; r--) {
        int m = rows[r] & left;
        left &= ~rows[r];
        while (m) {
            h[__builtin_ctz(m)] = r + 1;
            m &= m - 1;
        }
    }
}

static inline void set_top(Sheet *s, int bound) {
    s->top = bound;
    while (s->top > 0 && !(s->ink[s->top - 1] | s->bar[s->top - 1])) s->top--;
    scan(s->ink, s->top, s->ih);
    scan(s->bar, s->top, s->bh);
    s->ihv = 1;
    s->hv = 0;
    s->mt = NULL;
}

static inline const int *ink_heights(Sheet *s) {
    if (!s->ihv) {
        scan(s->ink, s->top, s->ih);
        s->ihv = 1;
    }
    return s->ih;
}

/* ------------------------------------------------------------------ generator (core._rng) */
#include "../../core/_pylong.h" /* ints as bytes */
#include "../../core/_rng.h"    /* next_u64, below */
#include "../../core/_codec.h"  /* the value classes read into structs and made from them (codecs) */

/* ------------------------------------------------------------------ rules (_rules.py) */
/* Rows up to and including the highest occupied square of each column (ink or barrier). */
static inline const int *heights(Sheet *s) {
    if (!s->hv) {
        const int *ih = ink_heights(s);
        for (int c = 0; c < 8; c++) s->hts[c] = ih[c] > s->bh[c] ? ih[c] : s->bh[c];
        s->hv = 1;
        s->mt = NULL;
    }
    return s->hts;
}

/* THERMO[f]: bit 0 of bytes 0..f */
static const uint64_t THERMO[8] = {0x1ULL,           0x101ULL,           0x10101ULL,           0x1010101ULL,
                                   0x101010101ULL, 0x10101010101ULL, 0x1010101010101ULL, 0x101010101010101ULL};

/* _rules.room: bit c of byte k set when column c has at least k free rows (k = 0..8, so 72 bits). */
static inline unsigned __int128 room(const int *hts, long height) {
    unsigned __int128 r = 0;
    for (int c = 0; c < 8; c++) {
        long f = height - hts[c];
        if (f < 0) continue;
        r |= (unsigned __int128)THERMO[f < 7 ? f : 7] << c;
        if (f >= 8) r |= (unsigned __int128)1 << (64 + c);
    }
    return r;
}

static inline int fit_mask(const V *v, unsigned __int128 rm) {
    unsigned __int128 m = v->colmask;
    for (int j = 0; j < v->width; j++) m &= rm >> v->shift[j];
    return (int)(m & 0xFF);
}

/* The fit masks of every affordable variant (kept in the sheet: the reveal's check and the draw share them);
 * returns how many variants are affordable (a prefix). */
static inline int masks(const Table *t, Sheet *s, const int **fit, int *total) {
    const int *hts = heights(s);
    if (s->mt != t || s->mbonus != s->bonus) {
        unsigned __int128 rm = room(hts, s->height);
        int k = 0, n = 0;
        for (; k < t->n && t->v[k].cost <= s->bonus; k++) {
            s->fit[k] = fit_mask(&t->v[k], rm);
            n += __builtin_popcount(s->fit[k]);
        }
        s->mt = t;
        s->mbonus = s->bonus;
        s->mk = k;
        s->mtotal = n;
    }
    *fit = s->fit;
    *total = s->mtotal;
    return s->mk;
}

static int count(const Table *t, Sheet *s) {
    const int *fit;
    int total;
    masks(t, s, &fit, &total);
    return total;
}

/* FoldrisGame._sample: below(total), then the pick-th (variant, column) in order; -1 when none. */
static int sample(const Table *t, Sheet *s, uint64_t *rng, int *col) {
    const int *fit;
    int total, k = masks(t, s, &fit, &total);
    if (!total) return -1;
    int pick = (int)below(rng, (uint64_t)total);
    for (int i = 0; i < k; i++) {
        int c = __builtin_popcount(fit[i]);
        if (pick < c) {
            int m = fit[i];
            while (pick--) m &= m - 1;
            *col = __builtin_ctz(m);
            return i;
        }
        pick -= c;
    }
    return -1;
}

/* _rules.rest_row */
static inline int rest_row(const V *v, const int *hts, int col) {
    int y = 0;
    for (int j = 0; j < v->width; j++) {
        int d = hts[col + j] - v->low[j];
        if (d > y) y = d;
    }
    return y;
}

/* The drop of _game._resolve: place the block, fold its completed rows (highest first); lines made. */
static int drop(Sheet *s, const V *v, int col) {
    int y = rest_row(v, heights(s), col);
    for (int r = 0; r < v->height; r++) s->ink[y + r] |= (uint8_t)(((v->bits >> (8 * r)) & 0xFF) << col);
    if (s->ihv)
        for (int j = 0; j < v->width; j++)
            if (y + v->top[j] > s->ih[col + j]) s->ih[col + j] = y + v->top[j];
    int n = 0;
    for (int r = y + v->height - 1; r >= y; r--) {
        if (s->ink[r] == 0xFF) {
            memmove(&s->ink[r], &s->ink[r + 1], ROWS - 1 - r);
            s->ink[ROWS - 1] = 0;
            s->ihv = 0;
            n++;
        }
    }
    if (y + v->height > s->top) s->top = y + v->height; /* folds move squares down: still a bound */
    s->hv = 0;
    return n;
}

/* _rules.barrier_drop, written into s->bar (cleared first); the barrier falls on the ink only. */
static void barrier_drop(Sheet *s, int lane, long height) {
    memset(s->bar, 0, ROWS);
    memset(s->bh, 0, sizeof s->bh);
    s->hv = 0;
    const int *ih = ink_heights(s);
    int c = lane - 1, y = ih[c] > ih[c + 1] ? ih[c] : ih[c + 1];
    if (y >= height) return;
    s->bar[y] = (uint8_t)(3 << c);
    s->bh[c] = s->bh[c + 1] = y + 1;
    if (y + 1 > s->top) s->top = y + 1;
}

/* _game._resolve: every survivor's pending drop (vi[p] >= 0) at once, then barriers. */
static void resolve(const Table *t, int lane, int solo, Sheet *sh, int n, const int *vi, const int *col) {
    int made[MAXP], anyone = 0;
    for (int p = 0; p < n; p++) {
        made[p] = -1;
        if (sh[p].out || vi[p] < 0) continue;
        made[p] = drop(&sh[p], &t->v[vi[p]], col[p]);
        if (made[p]) anyone = 1;
    }
    for (int p = 0; p < n; p++) {
        Sheet *s = &sh[p];
        if (made[p] < 0) {
            if (!s->out && (solo || anyone)) barrier_drop(s, lane, s->height);
            continue;
        }
        int k = made[p];
        s->height -= k;
        if (solo || (anyone && !k))
            barrier_drop(s, lane, s->height);
        else {
            memset(s->bar, 0, ROWS);
            memset(s->bh, 0, sizeof s->bh);
            s->hv = 0;
        }
        s->lines += k;
        s->bonus += k - t->v[vi[p]].cost;
    }
}

#include "_cfoldris_values.h"

/* ------------------------------------------------------------------ module functions */
static PyObject *py_register(PyObject *self, PyObject *const *a, Py_ssize_t nargs) {
    if (nargs != 2) return PyErr_Format(PyExc_TypeError, "register() takes 2 arguments");
    if (ntables >= MAXT) {
        PyErr_SetString(PyExc_RuntimeError, "too many Foldris tables");
        return NULL;
    }
    PyObject *f = PySequence_Fast(a[0], "register() takes a sequence of variants");
    if (!f) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(f);
    if (n < 1 || n > MAXV) {
        Py_DECREF(f);
        PyErr_SetString(PyExc_ValueError, "a table has 1 to 80 variants");
        return NULL;
    }
    Table *t = PyMem_Calloc(1, sizeof(Table));
    if (!t) {
        Py_DECREF(f);
        return PyErr_NoMemory();
    }
    t->n = (int)n;
    for (int i = 0; i < n; i++) {
        V *v = &t->v[i];
        unsigned long long bits;
        PyObject *lows;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(f, i), "iiiKOiii", &v->cost, &v->width, &v->height, &bits,
                              &lows, &v->mirror, &v->trim, &v->rot))
            goto fail;
        if (v->width < 1 || v->width > 8 || v->height < 1 || v->height > 8) {
            PyErr_SetString(PyExc_ValueError, "a variant is 1 to 8 squares wide and high");
            goto fail;
        }
        long low[8];
        if (longs_in(lows, low, v->width, "a variant's lowest rows") < 0) goto fail;
        v->bits = bits;
        for (int j = 0; j < v->width; j++) {
            v->low[j] = (int)low[j];
            v->shift[j] = 8 * (v->height - v->low[j]) + j;
            for (int r = 0; r < v->height; r++)
                if (bits >> (8 * r + j) & 1) v->top[j] = r + 1;
        }
        v->colmask = (uint8_t)((1 << (8 - v->width + 1)) - 1);
        if (v->height > t->max_height) t->max_height = v->height;
    }
    Py_DECREF(f);
    memset(t->by_key, -1, sizeof t->by_key);
    if (!(f = PySequence_Fast(a[1], "register() takes the by_key items"))) goto fail;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(f); i++) {
        int m, tr, r, vi;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(f, i), "iiii", &m, &tr, &r, &vi)) goto fail;
        if (m < 0 || m > 1 || tr < 0 || tr > 8 || r < 0 || r > 3 || vi < 0 || vi >= n) {
            PyErr_SetString(PyExc_ValueError, "a by_key item out of range");
            goto fail;
        }
        t->by_key[m][tr][r] = (int8_t)vi;
    }
    Py_DECREF(f);
    tables[ntables] = t;
    return PyLong_FromLong(ntables++);
fail:
    Py_XDECREF(f);
    PyMem_Free(t);
    return NULL;
}

static PyObject *py_count(PyObject *self, PyObject *const *a, Py_ssize_t n) {
    Sheet s;
    Table *t;
    if (n != 5) return PyErr_Format(PyExc_TypeError, "count() takes 5 arguments");
    if (!(t = table_arg(a[0])) || sheet_args(a + 1, &s) < 0) return NULL;
    return PyLong_FromLong(count(t, &s));
}

static PyObject *py_sample(PyObject *self, PyObject *const *a, Py_ssize_t n) {
    Sheet s;
    Table *t;
    if (n != 6) return PyErr_Format(PyExc_TypeError, "sample() takes 6 arguments");
    if (!(t = table_arg(a[0])) || sheet_args(a + 1, &s) < 0) return NULL;
    uint64_t rng = PyLong_AsUnsignedLongLong(a[5]);
    if (PyErr_Occurred()) return NULL;
    int col = 0, vi = sample(t, &s, &rng, &col);
    return Py_BuildValue("(iiK)", vi, col, (unsigned long long)rng);
}

static PyObject *py_legal(PyObject *self, PyObject *const *a, Py_ssize_t n) {
    Sheet s;
    Table *t;
    const int *fit;
    int total;
    if (n != 5) return PyErr_Format(PyExc_TypeError, "legal() takes 5 arguments");
    if (!(t = table_arg(a[0])) || sheet_args(a + 1, &s) < 0) return NULL;
    int k = masks(t, &s, &fit, &total);
    PyObject *out = PyTuple_New(total);
    if (!out) return NULL;
    int j = 0;
    for (int i = 0; i < k; i++)
        for (int m = fit[i]; m; m &= m - 1) PyTuple_SET_ITEM(out, j++, PyLong_FromLong(8 * i + __builtin_ctz(m)));
    return out;
}

/* FoldrisGame._check of a drop of this round's card (the name is checked by the caller): whole numbers in
 * range, the canonical form, affordable, inside the 8 columns, resting below the top. */
static PyObject *py_check(PyObject *self, PyObject *const *a, Py_ssize_t n) {
    Sheet s;
    Table *t;
    long k[4];
    if (n != 9) return PyErr_Format(PyExc_TypeError, "check() takes 9 arguments");
    if (!(t = table_arg(a[0]))) return NULL;
    for (int i = 0; i < 4; i++) {
        if (!PyLong_CheckExact(a[1 + i])) Py_RETURN_FALSE; /* not an int, or a bool */
        k[i] = PyLong_AsLong(a[1 + i]);
        if (k[i] == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            Py_RETURN_FALSE;
        }
    }
    if (k[0] < 0 || k[0] > 1 || k[1] < 0 || k[1] > 8 || k[2] < 0 || k[2] > 3 || k[3] < 0 || k[3] > 7) Py_RETURN_FALSE;
    int vi = t->by_key[k[0]][k[1]][k[2]];
    if (vi < 0) Py_RETURN_FALSE;
    const V *v = &t->v[vi];
    if (v->mirror != k[0] || v->trim != k[1] || v->rot != k[2] || k[3] + v->width > 8) Py_RETURN_FALSE;
    if (sheet_args(a + 5, &s) < 0) return NULL;
    if (v->cost > s.bonus || rest_row(v, heights(&s), (int)k[3]) + v->height > s.height) Py_RETURN_FALSE;
    Py_RETURN_TRUE;
}

/* FoldrisGame.acting_players(state): the survivors who have not chosen this round (none between rounds) */
static PyObject *py_acting(PyObject *self, PyObject *st) {
    int64_t card, over;
    if (!codec_is(&state_c, st)) return PyErr_Format(PyExc_TypeError, "expected a FoldrisState");
    PyObject *sheets = OBJ(st, O_SHEETS), *pending = OBJ(st, O_PENDING);
    if (!sheets || !pending || state_get(st, ST_card, &card) < 0 || state_get(st, ST_over, &over) < 0) return NULL;
    if (!PyTuple_Check(sheets) || !PyTuple_Check(pending) || PyTuple_GET_SIZE(sheets) > MAXP ||
        PyTuple_GET_SIZE(pending) != PyTuple_GET_SIZE(sheets))
        return PyErr_Format(PyExc_TypeError, "sheets and pending choices: one per player");
    if (over || card < 0) return PyTuple_New(0);
    int who[MAXP], k = 0;
    for (Py_ssize_t p = 0; p < PyTuple_GET_SIZE(sheets); p++) {
        int is_out = sheet_is_out(PyTuple_GET_ITEM(sheets, p));
        if (is_out < 0) return NULL;
        if (!is_out && PyTuple_GET_ITEM(pending, p) == Py_None) who[k++] = (int)p;
    }
    PyObject *act = PyTuple_New(k);
    for (int i = 0; act && i < k; i++) PyTuple_SET_ITEM(act, i, PyLong_FromLong(who[i]));
    return act;
}

/* choose(table, lane, state, player, drop): FoldrisGame._apply of a checked drop. The choice is recorded;
 * after the last survivor's, the round resolves (_game._resolve): blocks fall, lines fold, barriers fall. */
static PyObject *choose(const Table *t, long lane, PyObject *state, long player, PyObject *drop) {
    if (!codec_is(&state_c, state)) return PyErr_Format(PyExc_TypeError, "expected a FoldrisState");
    PyObject *sheets = OBJ(state, O_SHEETS), *pending = OBJ(state, O_PENDING), *deck = OBJ(state, O_DECK);
    if (!sheets || !pending || !deck) return NULL;
    Py_ssize_t np = PyTuple_Check(sheets) ? PyTuple_GET_SIZE(sheets) : -1;
    if (np < 1 || np > MAXP || !PyTuple_Check(pending) || PyTuple_GET_SIZE(pending) != np || !PyTuple_Check(deck) ||
        player < 0 || player >= np || lane < 1 || lane > 7)
        return PyErr_Format(PyExc_ValueError, "choose(): bad state, player or lane");
    PyObject *chosen = PyTuple_New(np), *v[FIELDS_MAX] = {NULL};
    StateBuf b;
    if (!chosen) return NULL;
    int waiting = 0;
    for (Py_ssize_t p = 0; p < np; p++) {
        PyObject *d = p == player ? drop : PyTuple_GET_ITEM(pending, p);
        PyTuple_SET_ITEM(chosen, p, Py_NewRef(d));
        if (d != Py_None) continue;
        int is_out = sheet_is_out(PyTuple_GET_ITEM(sheets, p));
        if (is_out < 0) goto fail;
        if (!is_out) waiting = 1;
    }
    if (waiting) {
        v[obj_at[O_PENDING]] = chosen; /* others still choose: record this choice only */
        return codec_remake(&state_c, state, &b, 0, v);
    }
    Sheet sh[MAXP];
    int vi[MAXP], col[MAXP];
    for (Py_ssize_t p = 0; p < np; p++) {
        Sheet *s = kept_sheet(PyTuple_GET_ITEM(sheets, p));
        if (!s) goto fail;
        if (s->height < 1 || s->height > ROWS - 8) {
            PyErr_SetString(PyExc_ValueError, "sheet height out of range");
            goto fail;
        }
        sh[p] = *s;
    }
    for (int p = 0; p < np; p++) {
        PyObject *d = PyTuple_GET_ITEM(chosen, p);
        vi[p] = -1;
        col[p] = 0;
        if (d == Py_None || sh[p].out) continue;
        long m[4];
        if (!PyTuple_Check(d) || PyTuple_GET_SIZE(d) != 5) {
            PyErr_SetString(PyExc_TypeError, "a pending choice is a Drop");
            goto fail;
        }
        for (int i = 0; i < 4; i++) m[i] = PyLong_AsLong(PyTuple_GET_ITEM(d, i + 1));
        if (PyErr_Occurred()) goto fail;
        if (m[0] < 0 || m[0] > 1 || m[1] < 0 || m[1] > 8 || m[2] < 0 || m[2] > 3 || m[3] < 0 || m[3] > 7 ||
            (vi[p] = t->by_key[m[0]][m[1]][m[2]]) < 0) {
            PyErr_SetString(PyExc_ValueError, "a pending choice that is not a drop of this card");
            goto fail;
        }
        col[p] = (int)m[3];
    }
    resolve(t, (int)lane, np == 1, sh, np, vi, col);
    Py_DECREF(chosen);
    PyObject *made = sheets_out(sh, np), *none = PyTuple_New(np);
    for (Py_ssize_t p = 0; none && p < np; p++) PyTuple_SET_ITEM(none, p, Py_NewRef(Py_None));
    if (!made || !none) {
        Py_XDECREF(made);
        Py_XDECREF(none);
        return NULL;
    }
    for (Py_ssize_t p = 0; p < np; p++) kept_made(PyTuple_GET_ITEM(made, p), &sh[p]); /* the next reveal reads them */
    v[obj_at[O_SHEETS]] = made;
    v[obj_at[O_PENDING]] = none;
    b.card = -1;
    b.over = PyTuple_GET_SIZE(deck) == 0;
    return codec_remake(&state_c, state, &b, BIT(ST_card) | BIT(ST_over), v);
fail:
    Py_DECREF(chosen);
    return NULL;
}

static PyObject *py_choose(PyObject *self, PyObject *const *a, Py_ssize_t n) {
    Table *t;
    if (n != 5) return PyErr_Format(PyExc_TypeError, "choose() takes 5 arguments");
    if (!(t = table_arg(a[0]))) return NULL;
    long lane = PyLong_AsLong(a[1]), player = PyLong_AsLong(a[3]);
    if (PyErr_Occurred()) return NULL;
    return choose(t, lane, a[2], player, a[4]);
}

#include "_cfoldris_playout.h"
#include "_cfoldris_step.h"

static PyMethodDef methods[] = {
    {"types", (PyCFunction)(void (*)(void))py_types, METH_FASTCALL,
     "types(Sheet, its spec, FoldrisState, its spec): the value classes the kernel reads and builds, and their "
     "structs' descriptions (_kernel.SHEET and _kernel.STATE)."},
    {"layout", py_layout, METH_NOARGS, "layout() -> {'sheet': (members, size), 'state': (members, size)}."},
    {"register", (PyCFunction)(void (*)(void))py_register, METH_FASTCALL,
     "register(variants, by_key items) -> table id; a variant is (cost, width, height, bits, lowest row per "
     "column, mirror, trim, rot); an item (mirror, trim, rot, variant)."},
    {"check", (PyCFunction)(void (*)(void))py_check, METH_FASTCALL,
     "check(table, mirror, trim, rot, col, ink, barrier, height, bonus) -> whether this drop of the card is legal."},
    {"count", (PyCFunction)(void (*)(void))py_count, METH_FASTCALL,
     "count(table, ink, barrier, height, bonus) -> number of legal drops."},
    {"sample", (PyCFunction)(void (*)(void))py_sample, METH_FASTCALL,
     "sample(table, ink, barrier, height, bonus, rng) -> (variant or -1, column, rng)."},
    {"legal", (PyCFunction)(void (*)(void))py_legal, METH_FASTCALL,
     "legal(table, ink, barrier, height, bonus) -> every legal drop as 8 * variant + column, in order."},
    {"acting", py_acting, METH_O, "acting(state) -> the players who may choose now (acting_players)."},
    {"choose", (PyCFunction)(void (*)(void))py_choose, METH_FASTCALL,
     "choose(table, lane, state, player, drop) -> the state after a checked drop (_apply)."},
    {"deck", (PyCFunction)(void (*)(void))py_deck, METH_FASTCALL,
     "deck(tables, keys, lanes) -> deck id: per card, its table, a key equal for equal cards, its lane."},
    {"playout", (PyCFunction)(void (*)(void))py_playout, METH_FASTCALL,
     "Random drops and reveals to the end (or max_actions); see _cfoldris_playout.h."},
    {"bind", (PyCFunction)(void (*)(void))py_bind, METH_FASTCALL,
     "bind(Drop, resolver, view class, its slots): the drop class, config -> deck id (the deck's values given) "
     "and the legal-actions view, for the calls below."},
    {"values", (PyCFunction)(void (*)(void))py_values, METH_FASTCALL,
     "values(deck, names, drops): per card of a deck its block name and its drops at 8 * variant + column."},
    {"new", (PyCFunction)(void (*)(void))py_new, METH_FASTCALL,
     "new(config, seed, height, cards, starter stream) -> the new game's state (FoldrisGame._new)."},
    {"view", (PyCFunction)(void (*)(void))py_view, METH_FASTCALL,
     "view(game, state, player) -> legal_actions(state, player) of a player choosing now, else None."},
    {"can_act", (PyCFunction)(void (*)(void))py_can_act, METH_FASTCALL,
     "can_act(state, player) -> whether player (an int) is a survivor still to choose this round."},
    {"sample_drop", (PyCFunction)(void (*)(void))py_sample_drop, METH_FASTCALL,
     "sample_drop(state, player, rng) -> a uniformly random legal drop (rng advanced), or None if there is none."},
    {"try_drop", (PyCFunction)(void (*)(void))py_try_drop, METH_FASTCALL,
     "try_drop(state, drop, player) -> the state after a legal drop of a player choosing now, else None."},
    {"reveal", py_reveal, METH_O, "reveal(state) -> apply_chance(state) at a chance node, else None."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_cfoldris", "Foldris's compiled kernel.", -1, methods};

PyMODINIT_FUNC PyInit__cfoldris(void) { return PyModule_Create(&moduledef); }
