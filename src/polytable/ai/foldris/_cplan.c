/* polytable.ai.foldris._cplan: the solo planner's beam search over a known card order, in C.
 *
 * The same search as ``_plan.beam_lines`` in Python (the reference the tests compare it with): from a
 * sheet, drop the cards of one order in turn, keeping the ``width`` best sheets by the one-ply evaluation
 * (width 1 is the greedy player), and answer the most lines any kept branch reaches (an elimination ends
 * its branch with the lines made so far, as in the solo game). Sheets are 128-bit ints (rows of 8 bits,
 * row 0 at the bottom), so heights up to 15 rows. Stateless: every call brings its tables, cards, sheets,
 * orders and weights; the answer is one list of lines per sheet, one entry per order.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

#define MAXV 64   /* variants a table */
#define MAXT 64   /* tables */
#define MAXC 256  /* cards */
#define NW 12     /* weights: the 11 one-ply weights, then the flaw cost */

enum { W_LAND, W_LINES, W_ROWT, W_COLT, W_HOLES, W_WELLS, W_BONUS, W_GAP, W_DANGER, W_TRIM, W_BUMP, W_FLAW };

typedef struct {
    int cost, width, height, trim;
    uint64_t bits;
    int low[8];
} Var;

typedef struct {
    int n;
    Var v[MAXV];
} Table;

typedef struct {
    u128 ink, bar;
    int height, bonus, trims, lines;
    double key;
    long order; /* generation index: the tie-break, as the Python reference sorts */
} Node;

static const u128 ONE = 1;

static inline int popc(u128 x) {
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}

static u128 rep(uint64_t byte) {
    u128 r = 0;
    for (int k = 0; k < 16; k++) r |= ((u128)byte) << (8 * k);
    return r;
}

static inline int bitlen(u128 x) {
    uint64_t hi = (uint64_t)(x >> 64), lo = (uint64_t)x;
    if (hi) return 128 - __builtin_clzll(hi);
    return lo ? 64 - __builtin_clzll(lo) : 0;
}

/* Rows up to and including each column's highest square: scan down from the top row until every column
 * has been seen. */
static void heights(u128 b, int *hts) {
    for (int c = 0; c < 8; c++) hts[c] = 0;
    unsigned unset = 0xFF;
    for (int r = (bitlen(b) + 7) / 8 - 1; r >= 0 && unset; r--) {
        unsigned found = (unsigned)(b >> (8 * r)) & unset;
        unset &= ~found;
        while (found) {
            int c = __builtin_ctz(found);
            hts[c] = r + 1;
            found &= found - 1;
        }
    }
}

static u128 fold(u128 b, int row) {
    int shift = 8 * row;
    u128 low = shift ? (b & ((ONE << shift) - 1)) : 0;
    return low | ((b >> (shift + 8)) << shift);
}

static u128 barrier_drop(const int *hts, int lane, int height) {
    int c = lane - 1;
    int y = hts[c] > hts[c + 1] ? hts[c] : hts[c + 1];
    if (y >= height) return 0;
    return ((u128)3) << (8 * y + c);
}

/* evaluate_sheet of ai.foldris._eval, term for term and in the same order (hole_rows is 0). */
static double sheet_value(u128 ink, const int *hts, int height, u128 barrier, const double *w) {
    static u128 row7 = 0, col0 = 0, col7 = 0;
    if (!row7) {
        row7 = rep(0x7F);
        col0 = rep(0x01);
        col7 = rep(0x80);
    }
    u128 rows = height >= 16 ? ~(u128)0 : (ONE << (8 * height)) - 1;
    int sum = 0, top = 0;
    for (int c = 0; c < 8; c++) {
        sum += hts[c];
        if (hts[c] > top) top = hts[c];
    }
    int holes = sum - popc(ink);
    u128 empty = ~ink & rows;
    int row_t = popc((ink ^ (ink >> 1)) & row7 & rows) + popc(empty & col0) + popc(empty & col7);
    u128 b = (ink << 8) | 0xFF;
    int col_t = popc((b ^ (b >> 8)) & rows);
    int wells = 0, bump = 0, left = height;
    for (int c = 0; c < 8; c++) {
        int right = c < 7 ? hts[c + 1] : height;
        int d = (left < right ? left : right) - hts[c];
        if (d > 0) wells += d * (d + 1) / 2;
        if (c) bump += abs(hts[c] - left);
        left = hts[c];
    }
    int free = height - top;
    int danger = free < 4 ? 4 - free : 0;
    double value = w[W_ROWT] * row_t + w[W_COLT] * col_t + w[W_HOLES] * holes + w[W_WELLS] * wells +
                   w[W_DANGER] * danger + w[W_BUMP] * bump;
    if (barrier) {
        int lo = 0;
        while (!((barrier >> lo) & 1)) lo++;
        int y = lo / 8, c = lo % 8;
        int gap = 2 * y - hts[c] - hts[c + 1];
        value += w[W_GAP] * gap;
    }
    return value;
}

static int cmp_node(const void *a, const void *b) {
    const Node *x = a, *y = b;
    if (x->key > y->key) return -1;
    if (x->key < y->key) return 1;
    return (x->order > y->order) - (x->order < y->order);
}

/* The children of every node of ``beam`` for one card, appended to ``out`` (which has room). */
static long expand(const Node *beam, long nb, const Table *t, int lane, const double *w, Node *out, int *dead_lines) {
    long k = 0;
    for (long i = 0; i < nb; i++) {
        const Node *s = &beam[i];
        int hts[8];
        heights(s->ink | s->bar, hts);
        long before = k;
        for (int vi = 0; vi < t->n; vi++) {
            const Var *v = &t->v[vi];
            if (v->cost > s->bonus) break;
            int top = s->height - v->height;
            for (int col = 0; col + v->width <= 8; col++) {
                int y = 0;
                for (int j = 0; j < v->width; j++) {
                    int d = hts[col + j] - v->low[j];
                    if (d > y) y = d;
                }
                if (y > top) continue;
                u128 ink = s->ink | (((u128)v->bits) << (8 * y + col));
                int n = 0;
                for (int r = y + v->height - 1; r >= y; r--) {
                    if (((unsigned)(ink >> (8 * r)) & 0xFF) == 0xFF) {
                        ink = fold(ink, r);
                        n++;
                    }
                }
                int h = s->height - n;
                int hts2[8];
                heights(ink, hts2);
                u128 bar = barrier_drop(hts2, lane, h);
                Node *c = &out[k];
                c->ink = ink;
                c->bar = bar;
                c->height = h;
                c->bonus = s->bonus + n - v->cost;
                c->trims = s->trims + (v->trim ? 1 : 0);
                c->lines = s->lines + n;
                c->order = k;
                double land = w[W_LAND] * (y + (v->height - 1) / 2.0 - n);
                if (w[W_FLAW] != 0.0) {
                    int sum = 0;
                    for (int j = 0; j < 8; j++) sum += hts2[j];
                    if (c->trims || sum != popc(ink)) land += w[W_FLAW];
                }
                c->key = sheet_value(ink, hts2, h, bar, w) + land + w[W_LINES] * 4 * c->lines + w[W_BONUS] * c->bonus +
                         w[W_TRIM] * c->trims;
                k++;
            }
        }
        if (k == before && s->lines > *dead_lines) *dead_lines = s->lines;
    }
    return k;
}

typedef struct {
    u128 ink, bar;
    int height, bonus;
    int used;
} Slot;

static uint64_t hash_node(const Node *n) {
    uint64_t x = (uint64_t)n->ink * 0x9E3779B97F4A7C15ULL ^ (uint64_t)(n->ink >> 64) * 0xC2B2AE3D27D4EB4FULL;
    x ^= (uint64_t)n->bar * 0x165667B19E3779F9ULL ^ (uint64_t)(n->bar >> 64);
    x ^= ((uint64_t)n->height << 8 | (uint64_t)n->bonus) * 0x27D4EB2F165667C5ULL;
    x ^= x >> 29;
    return x * 0xFF51AFD7ED558CCDULL;
}

/* Most lines reached from ``root`` dropping the cards ``order[0..len)`` with a beam of ``width``. */
static int beam_lines(const Node *root, const Table *tables, const int *card_table, const int *card_lane,
                      const int *order, int len, long width, const double *w, Node *bufa, Node *bufb, Slot *slots,
                      long nslots, long room) {
    Node *beam = bufa, *next = bufb;
    beam[0] = *root;
    beam[0].lines = 0;
    beam[0].trims = 0;
    long nb = 1;
    int dead = 0;
    for (int step = 0; step < len && nb; step++) {
        int card = order[step];
        long nk = expand(beam, nb, &tables[card_table[card]], card_lane[card], w, next, &dead);
        if (nk > room) nk = room; /* never: the buffers are sized for the widest expansion */
        if (width == 1) {
            long best = -1;
            for (long i = 0; i < nk; i++)
                if (best < 0 || cmp_node(&next[i], &next[best]) < 0) best = i;
            if (best >= 0) next[0] = next[best];
            nb = nk ? 1 : 0;
        } else {
            qsort(next, (size_t)nk, sizeof(Node), cmp_node);
            memset(slots, 0, sizeof(Slot) * (size_t)nslots);
            long kept = 0;
            for (long i = 0; i < nk && kept < width; i++) {
                uint64_t hsh = hash_node(&next[i]) & (uint64_t)(nslots - 1);
                int dup = 0;
                while (slots[hsh].used) {
                    Slot *sl = &slots[hsh];
                    if (sl->ink == next[i].ink && sl->bar == next[i].bar && sl->height == next[i].height &&
                        sl->bonus == next[i].bonus) {
                        dup = 1;
                        break;
                    }
                    hsh = (hsh + 1) & (uint64_t)(nslots - 1);
                }
                if (dup) continue;
                slots[hsh].used = 1;
                slots[hsh].ink = next[i].ink;
                slots[hsh].bar = next[i].bar;
                slots[hsh].height = next[i].height;
                slots[hsh].bonus = next[i].bonus;
                next[kept++] = next[i];
            }
            nb = kept;
        }
        Node *tmp = beam;
        beam = next;
        next = tmp;
    }
    int best = dead;
    for (long i = 0; i < nb; i++)
        if (beam[i].lines > best) best = beam[i].lines;
    return best;
}

static int read_u128(PyObject *lo, PyObject *hi, u128 *out) {
    unsigned long long a = PyLong_AsUnsignedLongLong(lo);
    if (a == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    unsigned long long b = PyLong_AsUnsignedLongLong(hi);
    if (b == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *out = ((u128)b << 64) | a;
    return 0;
}

static int read_tables(PyObject *seq, Table *tables, int *nt) {
    PyObject *fast = PySequence_Fast(seq, "tables must be a sequence");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > MAXT) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "too many tables");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *rows = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, i), "a table must be a sequence");
        if (!rows) {
            Py_DECREF(fast);
            return -1;
        }
        Py_ssize_t m = PySequence_Fast_GET_SIZE(rows);
        if (m > MAXV) {
            Py_DECREF(rows);
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "too many variants");
            return -1;
        }
        tables[i].n = (int)m;
        for (Py_ssize_t j = 0; j < m; j++) {
            Var *v = &tables[i].v[j];
            PyObject *low;
            unsigned long long bits;
            if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(rows, j), "iiiKOi", &v->cost, &v->width, &v->height, &bits,
                                  &low, &v->trim)) {
                Py_DECREF(rows);
                Py_DECREF(fast);
                return -1;
            }
            v->bits = bits;
            if (v->width < 1 || v->width > 8 || PySequence_Size(low) != v->width) {
                Py_DECREF(rows);
                Py_DECREF(fast);
                PyErr_SetString(PyExc_ValueError, "a variant's lowest rows must give one row per column");
                return -1;
            }
            for (int c = 0; c < v->width; c++) {
                PyObject *x = PySequence_GetItem(low, c);
                v->low[c] = x ? (int)PyLong_AsLong(x) : 0;
                Py_XDECREF(x);
            }
        }
        Py_DECREF(rows);
    }
    Py_DECREF(fast);
    *nt = (int)n;
    return PyErr_Occurred() ? -1 : 0;
}

/* lines(tables, cards, sheets, orders, width, weights) -> [[lines per order] per sheet]
 * tables: per table, its variants (cost, width, height, bits, lowest row per column, trimmed);
 * cards: per card index, (table, lane); sheets: (ink_lo, ink_hi, barrier_lo, barrier_hi, height, bonus);
 * orders: sequences of card indices; weights: the 11 weights of WEIGHT_ORDER, then the flaw cost. */
static PyObject *lines_with(const Table *tables, int nt, PyObject *cards, PyObject *sheets, PyObject *orders,
                            long width, const double *w);

static PyObject *py_lines(PyObject *self, PyObject *args) {
    PyObject *tabs, *cards, *sheets, *orders, *weights;
    long width;
    if (!PyArg_ParseTuple(args, "OOOOlO", &tabs, &cards, &sheets, &orders, &width, &weights)) return NULL;
    if (width < 1) {
        PyErr_SetString(PyExc_ValueError, "width must be at least 1");
        return NULL;
    }
    double w[NW];
    PyObject *wf = PySequence_Fast(weights, "weights must be a sequence");
    if (!wf) return NULL;
    if (PySequence_Fast_GET_SIZE(wf) != NW) {
        Py_DECREF(wf);
        PyErr_SetString(PyExc_ValueError, "expected 12 weights");
        return NULL;
    }
    for (int i = 0; i < NW; i++) w[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(wf, i));
    Py_DECREF(wf);
    if (PyErr_Occurred()) return NULL;
    Table *tables = PyMem_Malloc(sizeof(Table) * MAXT);
    if (!tables) return PyErr_NoMemory();
    int nt = 0;
    if (read_tables(tabs, tables, &nt) < 0) {
        PyMem_Free(tables);
        return NULL;
    }
    PyObject *result = lines_with(tables, nt, cards, sheets, orders, width, w);
    PyMem_Free(tables);
    return result;
}

static PyObject *lines_with(const Table *tables, int nt, PyObject *cards, PyObject *sheets, PyObject *orders,
                            long width, const double *w) {
    int card_table[MAXC], card_lane[MAXC];
    Py_ssize_t ncards = PySequence_Size(cards);
    if (ncards < 0 || ncards > MAXC) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "too many cards");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < ncards; i++) {
        PyObject *item = PySequence_GetItem(cards, i);
        if (!item) return NULL;
        int ok = PyArg_ParseTuple(item, "ii", &card_table[i], &card_lane[i]);
        Py_DECREF(item);
        if (!ok) return NULL;
        if (card_table[i] < 0 || card_table[i] >= nt || card_lane[i] < 1 || card_lane[i] > 7) {
            PyErr_SetString(PyExc_ValueError, "a card names an unknown table or a lane outside 1-7");
            return NULL;
        }
    }
    PyObject *ofast = PySequence_Fast(orders, "orders must be a sequence");
    if (!ofast) return NULL;
    Py_ssize_t norders = PySequence_Fast_GET_SIZE(ofast);
    int *flat = NULL, *lens = PyMem_Calloc((size_t)norders + 1, sizeof(int));
    int total = 0;
    for (Py_ssize_t i = 0; i < norders; i++) {
        Py_ssize_t l = PySequence_Size(PySequence_Fast_GET_ITEM(ofast, i));
        if (l < 0) goto fail;
        lens[i] = (int)l;
        total += (int)l;
    }
    flat = PyMem_Calloc((size_t)total + 1, sizeof(int));
    {
        int at = 0;
        for (Py_ssize_t i = 0; i < norders; i++) {
            PyObject *o = PySequence_Fast_GET_ITEM(ofast, i);
            for (int j = 0; j < lens[i]; j++) {
                PyObject *x = PySequence_GetItem(o, j);
                if (!x) goto fail;
                long c = PyLong_AsLong(x);
                Py_DECREF(x);
                if (c < 0 || c >= ncards) {
                    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "an order names an unknown card");
                    goto fail;
                }
                flat[at++] = (int)c;
            }
        }
    }
    PyObject *sfast = PySequence_Fast(sheets, "sheets must be a sequence");
    if (!sfast) goto fail;
    Py_ssize_t nsheets = PySequence_Fast_GET_SIZE(sfast);
    long room = width * (long)MAXV * 8 + 8;
    long nslots = 1;
    while (nslots < 4 * width) nslots <<= 1;
    Node *bufa = PyMem_Malloc(sizeof(Node) * (size_t)room), *bufb = PyMem_Malloc(sizeof(Node) * (size_t)room);
    Slot *slots = PyMem_Malloc(sizeof(Slot) * (size_t)nslots);
    PyObject *out = PyList_New(nsheets);
    if (!bufa || !bufb || !slots || !out) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t s = 0; s < nsheets; s++) {
        PyObject *ilo, *ihi, *blo, *bhi;
        Node root;
        memset(&root, 0, sizeof root);
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(sfast, s), "OOOOii", &ilo, &ihi, &blo, &bhi, &root.height,
                              &root.bonus) ||
            read_u128(ilo, ihi, &root.ink) < 0 || read_u128(blo, bhi, &root.bar) < 0)
            goto done;
        if (root.height < 0 || root.height > 15) {
            PyErr_SetString(PyExc_ValueError, "the compiled planner handles sheets of at most 15 rows");
            goto done;
        }
        PyObject *row = PyList_New(norders);
        if (!row) goto done;
        PyList_SET_ITEM(out, s, row);
        int at = 0;
        for (Py_ssize_t i = 0; i < norders; i++) {
            int got;
            Py_BEGIN_ALLOW_THREADS;
            got = beam_lines(&root, tables, card_table, card_lane, flat + at, lens[i], width, w, bufa, bufb, slots,
                             nslots, room);
            Py_END_ALLOW_THREADS;
            PyList_SET_ITEM(row, i, PyLong_FromLong(got));
            at += lens[i];
        }
    }
done:
    PyMem_Free(bufa);
    PyMem_Free(bufb);
    PyMem_Free(slots);
    Py_DECREF(sfast);
    PyMem_Free(flat);
    PyMem_Free(lens);
    Py_DECREF(ofast);
    if (PyErr_Occurred()) {
        Py_XDECREF(out);
        return NULL;
    }
    return out;
fail:
    PyMem_Free(flat);
    PyMem_Free(lens);
    Py_DECREF(ofast);
    return NULL;
}

static PyMethodDef methods[] = {
    {"lines", py_lines, METH_VARARGS, "Most lines a beam search reaches from each sheet, for each card order."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_cplan", "Foldris solo planner's beam search.", -1,
                                       methods};

PyMODINIT_FUNC PyInit__cplan(void) { return PyModule_Create(&moduledef); }
