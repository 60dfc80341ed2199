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
#define GOLDEN 0x9E3779B97F4A7C15ULL

typedef struct {
    int cost, width, height;
    uint64_t bits; /* row r of the shape in byte r */
    int low[8];    /* per column j of the shape: its lowest square's row */
    int need[8];   /* free rows column j needs: height - low[j] */
    uint8_t colmask;
} V;

typedef struct {
    int n, max_height;
    V v[MAXV];
} Table;

static Table *tables[MAXT];
static int ntables;

typedef struct {
    uint8_t ink[ROWS], bar[ROWS];
    long height, lines, bonus, out;
} Sheet;

/* ------------------------------------------------------------------ generator (core._rng) */
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

/* ------------------------------------------------------------------ Python ints <-> rows */
static int to_rows(PyObject *v, uint8_t *rows) {
    if (!PyLong_Check(v)) {
        PyErr_SetString(PyExc_TypeError, "a Foldris sheet must be an int");
        return -1;
    }
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t r = PyLong_AsNativeBytes(v, rows, ROWS,
                                        Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
                                            Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (r < 0) return -1;
    if (r > ROWS) {
        PyErr_SetString(PyExc_OverflowError, "sheet too large");
        return -1;
    }
    return 0;
#else
    return _PyLong_AsByteArray((PyLongObject *)v, rows, ROWS, 1, 0);
#endif
}
static PyObject *from_rows(const uint8_t *rows) {
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromUnsignedNativeBytes(rows, ROWS, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    return _PyLong_FromByteArray(rows, ROWS, 1, 0);
#endif
}

/* ------------------------------------------------------------------ rules (_rules.py) */
/* Rows up to and including the highest occupied square of each column (ink or barrier). */
static inline void heights(const Sheet *s, int *hts) {
    int left = 0xFF;
    for (int c = 0; c < 8; c++) hts[c] = 0;
    for (int r = ROWS - 1; r >= 0 && left; r--) {
        int m = (s->ink[r] | s->bar[r]) & left;
        while (m) {
            int c = __builtin_ctz(m);
            hts[c] = r + 1;
            m &= m - 1;
        }
        left &= ~(s->ink[r] | s->bar[r]);
    }
}

/* _rules.room: room[k] has bit c set when column c has at least k free rows (k = 0..8). */
static inline void room(const int *hts, long height, uint8_t *rm) {
    for (int k = 0; k <= 8; k++) rm[k] = 0;
    for (int c = 0; c < 8; c++) {
        long f = height - hts[c];
        if (f < 0) continue;
        if (f > 8) f = 8;
        for (int k = 0; k <= f; k++) rm[k] |= (uint8_t)(1 << c);
    }
}

static inline int fit_mask(const V *v, const uint8_t *rm) {
    int m = v->colmask;
    for (int j = 0; j < v->width; j++) m &= rm[v->need[j]] >> j;
    return m;
}

/* The fit masks of every affordable variant; returns how many variants are affordable (a prefix). */
static inline int masks(const Table *t, const Sheet *s, int *fit, int *total) {
    int hts[8];
    uint8_t rm[9];
    heights(s, hts);
    room(hts, s->height, rm);
    int k = 0, n = 0;
    for (; k < t->n && t->v[k].cost <= s->bonus; k++) {
        fit[k] = fit_mask(&t->v[k], rm);
        n += __builtin_popcount(fit[k]);
    }
    *total = n;
    return k;
}

static int count(const Table *t, const Sheet *s) {
    int fit[MAXV], total;
    masks(t, s, fit, &total);
    return total;
}

/* FoldrisGame._sample: below(total), then the pick-th (variant, column) in order; -1 when none. */
static int sample(const Table *t, const Sheet *s, uint64_t *rng, int *col) {
    int fit[MAXV], total;
    int k = masks(t, s, fit, &total);
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
    int hts[8];
    heights(s, hts);
    int y = rest_row(v, hts, col);
    for (int r = 0; r < v->height; r++) s->ink[y + r] |= (uint8_t)(((v->bits >> (8 * r)) & 0xFF) << col);
    int n = 0;
    for (int r = y + v->height - 1; r >= y; r--) {
        if (s->ink[r] == 0xFF) {
            memmove(&s->ink[r], &s->ink[r + 1], ROWS - 1 - r);
            s->ink[ROWS - 1] = 0;
            n++;
        }
    }
    return n;
}

/* _rules.barrier_drop, written into s->bar (cleared first); the barrier falls on the ink only. */
static void barrier_drop(Sheet *s, int lane, long height) {
    memset(s->bar, 0, ROWS);
    int c = lane - 1, y = 0;
    for (int r = ROWS - 1; r >= 0; r--)
        if (s->ink[r] & (3 << c)) {
            y = r + 1;
            break;
        }
    if (y >= height) return;
    s->bar[y] = (uint8_t)(3 << c);
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
        else
            memset(s->bar, 0, ROWS);
        s->lines += k;
        s->bonus += k - t->v[vi[p]].cost;
    }
}

/* ------------------------------------------------------------------ arguments */
static Table *table_arg(PyObject *o) {
    long i = PyLong_AsLong(o);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (i < 0 || i >= ntables) {
        PyErr_SetString(PyExc_ValueError, "unknown Foldris table");
        return NULL;
    }
    return tables[i];
}

/* (ink, barrier, height, bonus) as in FoldrisGame's per-sheet calls */
static int sheet_args(PyObject *const *a, Sheet *s) {
    if (to_rows(a[0], s->ink) < 0 || to_rows(a[1], s->bar) < 0) return -1;
    s->height = PyLong_AsLong(a[2]);
    s->bonus = PyLong_AsLong(a[3]);
    s->lines = s->out = 0;
    return PyErr_Occurred() ? -1 : 0;
}

static int longs_in(PyObject *seq, long *out, int n, const char *what) {
    PyObject *f = PySequence_Fast(seq, what);
    if (!f) return -1;
    if (PySequence_Fast_GET_SIZE(f) != n) {
        Py_DECREF(f);
        PyErr_Format(PyExc_ValueError, "%s: expected %d items", what, n);
        return -1;
    }
    for (int i = 0; i < n; i++) out[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(f, i));
    Py_DECREF(f);
    return PyErr_Occurred() ? -1 : 0;
}

/* one sheet as (ink, barrier, height, lines, bonus, out) */
static int sheet_in(PyObject *o, Sheet *s) {
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 6) {
        PyErr_SetString(PyExc_TypeError, "a sheet is (ink, barrier, height, lines, bonus, out)");
        return -1;
    }
    if (to_rows(PyTuple_GET_ITEM(o, 0), s->ink) < 0 || to_rows(PyTuple_GET_ITEM(o, 1), s->bar) < 0) return -1;
    s->height = PyLong_AsLong(PyTuple_GET_ITEM(o, 2));
    s->lines = PyLong_AsLong(PyTuple_GET_ITEM(o, 3));
    s->bonus = PyLong_AsLong(PyTuple_GET_ITEM(o, 4));
    s->out = PyLong_AsLong(PyTuple_GET_ITEM(o, 5));
    if (PyErr_Occurred()) return -1;
    if (s->height < 1 || s->height > ROWS - 8) {
        PyErr_SetString(PyExc_ValueError, "sheet height out of range");
        return -1;
    }
    return 0;
}
static PyObject *sheet_out(const Sheet *s) {
    PyObject *ink = from_rows(s->ink), *bar = ink ? from_rows(s->bar) : NULL;
    if (!bar) {
        Py_XDECREF(ink);
        return NULL;
    }
    return Py_BuildValue("(NNllll)", ink, bar, s->height, s->lines, s->bonus, s->out);
}
static int sheets_in(PyObject *seq, Sheet *sh, int *n) {
    PyObject *f = PySequence_Fast(seq, "sheets");
    if (!f) return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(f);
    if (k < 1 || k > MAXP) {
        Py_DECREF(f);
        PyErr_SetString(PyExc_ValueError, "1 to 7 sheets");
        return -1;
    }
    *n = (int)k;
    for (int p = 0; p < k; p++)
        if (sheet_in(PySequence_Fast_GET_ITEM(f, p), &sh[p]) < 0) {
            Py_DECREF(f);
            return -1;
        }
    Py_DECREF(f);
    return 0;
}
static PyObject *sheets_out(const Sheet *sh, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int p = 0; p < n; p++) {
        PyObject *o = sheet_out(&sh[p]);
        if (!o) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, p, o);
    }
    return t;
}

/* ------------------------------------------------------------------ module functions */
static PyObject *py_register(PyObject *self, PyObject *arg) {
    if (ntables >= MAXT) {
        PyErr_SetString(PyExc_RuntimeError, "too many Foldris tables");
        return NULL;
    }
    PyObject *f = PySequence_Fast(arg, "register() takes a sequence of variants");
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
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(f, i), "iiiKO", &v->cost, &v->width, &v->height, &bits, &lows))
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
            v->need[j] = v->height - v->low[j];
        }
        v->colmask = (uint8_t)((1 << (8 - v->width + 1)) - 1);
        if (v->height > t->max_height) t->max_height = v->height;
    }
    Py_DECREF(f);
    tables[ntables] = t;
    return PyLong_FromLong(ntables++);
fail:
    Py_DECREF(f);
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
    int fit[MAXV], total;
    if (n != 5) return PyErr_Format(PyExc_TypeError, "legal() takes 5 arguments");
    if (!(t = table_arg(a[0])) || sheet_args(a + 1, &s) < 0) return NULL;
    int k = masks(t, &s, fit, &total);
    PyObject *out = PyTuple_New(total);
    if (!out) return NULL;
    int j = 0;
    for (int i = 0; i < k; i++)
        for (int m = fit[i]; m; m &= m - 1) PyTuple_SET_ITEM(out, j++, PyLong_FromLong(8 * i + __builtin_ctz(m)));
    return out;
}

/* resolve(table, lane, solo, sheets, drops): drops[p] = 8 * variant + column, or -1 */
static PyObject *py_resolve(PyObject *self, PyObject *const *a, Py_ssize_t n) {
    Sheet sh[MAXP];
    long d[MAXP];
    int np, vi[MAXP], col[MAXP];
    Table *t;
    if (n != 5) return PyErr_Format(PyExc_TypeError, "resolve() takes 5 arguments");
    if (!(t = table_arg(a[0]))) return NULL;
    long lane = PyLong_AsLong(a[1]), solo = PyLong_AsLong(a[2]);
    if (PyErr_Occurred() || sheets_in(a[3], sh, &np) < 0 || longs_in(a[4], d, np, "drops") < 0) return NULL;
    for (int p = 0; p < np; p++) {
        vi[p] = d[p] < 0 ? -1 : (int)(d[p] >> 3);
        col[p] = (int)(d[p] & 7);
        if (vi[p] >= t->n) {
            PyErr_SetString(PyExc_ValueError, "unknown variant");
            return NULL;
        }
    }
    resolve(t, (int)lane, (int)solo, sh, np, vi, col);
    return sheets_out(sh, np);
}

#include "_cfoldris_playout.h"

static PyMethodDef methods[] = {
    {"register", py_register, METH_O,
     "register(variants) -> table id; a variant is (cost, width, height, bits, lowest row per column)."},
    {"count", (PyCFunction)(void (*)(void))py_count, METH_FASTCALL,
     "count(table, ink, barrier, height, bonus) -> number of legal drops."},
    {"sample", (PyCFunction)(void (*)(void))py_sample, METH_FASTCALL,
     "sample(table, ink, barrier, height, bonus, rng) -> (variant or -1, column, rng)."},
    {"legal", (PyCFunction)(void (*)(void))py_legal, METH_FASTCALL,
     "legal(table, ink, barrier, height, bonus) -> every legal drop as 8 * variant + column, in order."},
    {"resolve", (PyCFunction)(void (*)(void))py_resolve, METH_FASTCALL,
     "resolve(table, lane, solo, sheets, drops) -> the sheets after the round (see _game._resolve)."},
    {"playout", (PyCFunction)(void (*)(void))py_playout, METH_FASTCALL,
     "Random drops and reveals to the end (or max_actions); see _cfoldris_playout.h."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_cfoldris", "Foldris's compiled kernel.", -1, methods};

PyMODINIT_FUNC PyInit__cfoldris(void) { return PyModule_Create(&moduledef); }
