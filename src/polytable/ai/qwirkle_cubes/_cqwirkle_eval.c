/* polytable.ai.qwirkle_cubes._cqwirkle_eval: Qwirkle Cubes' greedy evaluation in C, its own extension beside
 * the players (the rules' extension, games/qwirkle_cubes/_cqwirkle, knows nothing of it).
 *
 * A placement's value is _eval.placement_value's: its points, minus (look) the Qwirkle chances it hands the
 * others (threat). The functions answer what _values.py answers in Python (every placement of a hand with
 * its value, the best one, every placement by colour counts, a reroll's sampled rolls) with the same
 * placements in the same order and the same doubles; tests/ai/qwirkle_cubes/test_qwirkle_eval_native.py
 * compares both. The table, the placement walk and the scoring are the rules': this file includes the
 * game's header downward (the line logic is inline there) and calls the rest through the rules' extension's
 * capsule (QwirkleAPI, qwirkle_api.h), on the table that extension loaded for `placed`.
 * Not thread-safe: it relies on the GIL, like the rest of the interpreter's objects.
 */
#include "../../games/qwirkle_cubes/qwirkle_api.h"

#include <math.h>
#include <string.h>

static const QwirkleAPI *Q; /* the rules' extension's C interface, imported with this module */
static QBoard *table;       /* the table of the call in progress (the emitters read it) */

/* What the greedy evaluation needs besides the table (_eval.threat): the hands, whose turn it is, and the
 * constants of the Qwirkle chances. look = 0: points only. */
typedef struct {
    int look, player, nplayers;
    uint64_t hmask[QMAXP];
    int hands[QMAXP][QHAND], hlen[QMAXP];
    double qv, hit;
} QLook;

/* _eval.threat on the table with the placement on it: lines of 5 through a new cube, each once. */
static double threat(const QBoard *b, const int *cells, int k, const QLook *lk) {
    int seen[2 * QHAND], ns = 0, n = lk->nplayers;
    double total = 0.0;
    for (int i = 0; i < k; i++)
        for (int d = 0; d < 2; d++) {
            int ax = d ? QW : 1, first = cells[i], dup = 0;
            while (b->cell[first - ax]) first -= ax;
            int key = 2 * first + d;
            for (int j = 0; j < ns && !dup; j++) dup = seen[j] == key;
            if (dup) continue;
            seen[ns++] = key;
            if (run_length(b, first, ax) != QLINE - 1) continue;
            uint64_t line = run(b, first, ax), need = 0;
            int ends[2] = {first - ax, first + (QLINE - 1) * ax};
            for (int e = 0; e < 2; e++)
                if (!b->cell[ends[e]]) need |= addable(line) & fits_across(b, ends[e], d ? 1 : QW);
            if (!need) continue;
            for (int j = 1; j < n; j++) {
                int h = (lk->player + j) % n;
                double weight = j == 1 ? 1.0 : 0.5;
                if (lk->hmask[h] & need) {
                    total += weight * lk->qv;
                    continue;
                }
                int hits = 0;
                for (int t = 0; t < lk->hlen[h]; t++) hits += ((need >> (lk->hands[h][t] / 6 * 6)) & 0x3F) != 0;
                if (hits) total += weight * lk->qv * (1.0 - pow(1.0 - lk->hit, (double)hits));
            }
        }
    return total;
}

/* The value of the k cubes (faces, cells) as a placement on b: points, minus with lk->look the Qwirkle
 * chances it hands the others (threat), computed in the same order as the Python (the same doubles). The
 * cubes are put on the table for the look and taken off again. */
static double value_of(QBoard *b, const int *faces, const int *cells, int k, const QLook *lk) {
    for (int i = 0; i < k; i++) b->cell[cells[i]] = (uint8_t)(faces[i] + 1);
    int qw;
    double v = (double)Q->score(b, cells, k, &qw);
    if (lk->look) v -= threat(b, cells, k, lk);
    for (int i = 0; i < k; i++) b->cell[cells[i]] = 0;
    return v;
}

/* ------------------------------------------------------------------ Python functions */
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
        bad = m < 0 || m > QHAND || Q->int_seq(h, lk->hands[p], m, "a hand holds faces") < 0;
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
    double v = value_of(table, w->faces, w->cells, k, &e->lk);
    PyObject *cubes = Q->cubes_tuple(w->faces, w->cells, k);
    return Q->append_new(e->list, cubes == NULL ? NULL : Py_BuildValue("(Nd)", cubes, v));
}

static int emit_best(QWalk *w, int k) {
    Eval *e = (Eval *)w->ctx;
    double v = value_of(table, w->faces, w->cells, k, &e->lk);
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
    double v = value_of(table, w->faces, w->cells, k, &e->lk) + e->per_cube * k;
    if (e->out_bonus != 0.0 && k == e->size) v += e->out_bonus;
    uint64_t fm = 0;
    for (int i = 0; i < k; i++) fm |= 1ULL << w->faces[i];
    PyObject *cubes = Q->cubes_tuple(w->faces, w->cells, k);
    return Q->append_new(e->list, cubes == NULL ? NULL : Py_BuildValue("(dKN)", v, (unsigned long long)fm, cubes));
}

/* values(placed, hand, need, hands, player, look, qv, hit) -> [(placement, value)] in Board.placements order. */
static PyObject *py_values(PyObject *self, PyObject *args) {
    QWalk w = {0};
    Eval e = {0};
    PyObject *placed, *hands;
    unsigned long long hand;
    int player, look;
    if (!PyArg_ParseTuple(args, "OKiOipdd", &placed, &hand, &w.need, &hands, &player, &look, &e.lk.qv, &e.lk.hit) ||
        parse_look(hands, player, look, e.lk.qv, e.lk.hit, &e.lk) < 0 || (table = Q->board_of(placed)) == NULL)
        return NULL;
    if (Q->set_hand(&w, hand) < 0) return NULL;
    if ((e.list = PyList_New(0)) == NULL) return NULL;
    w.emit = emit_value;
    w.ctx = &e;
    Q->walk(table, &w);
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
        parse_look(hands, player, look, e.lk.qv, e.lk.hit, &e.lk) < 0 || (table = Q->board_of(placed)) == NULL)
        return NULL;
    if (Q->set_hand(&w, hand) < 0) return NULL;
    e.best = -HUGE_VAL;
    w.emit = emit_best;
    w.ctx = &e;
    Q->walk(table, &w);
    PyObject *cubes = Q->cubes_tuple(e.bfaces, e.bcells, e.bk);
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
        Q->int_seq(counts, left, 6, "counts holds 6 numbers") < 0 ||
        parse_look(hands, player, look, e.lk.qv, e.lk.hit, &e.lk) < 0 || (table = Q->board_of(placed)) == NULL)
        return NULL;
    for (int c = 0; c < 6; c++)
        if (left[c] < 0 || left[c] > QHAND) {
            PyErr_SetString(PyExc_ValueError, "counts are 0 to 6 cubes a colour");
            return NULL;
        }
    w.left = left;
    w.hand = Q->colour_offer(left);
    if ((e.list = PyList_New(0)) == NULL) return NULL;
    w.emit = emit_colour;
    w.ctx = &e;
    Q->walk(table, &w);
    if (PyErr_Occurred()) Py_CLEAR(e.list);
    return e.list;
}

/* roll_diffs(fms, values, hand, masks, base, rng, rounds) -> ([[diff a round] a mask], rng): see _values.py. */
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
    if (Q->int_seq(hand_in, hand, hn, "a hand holds faces") < 0 || Q->int_seq(masks_in, masks, mn, "masks") < 0)
        goto done;
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
    {"values", py_values, METH_VARARGS, "values(placed, hand, need, hands, player, look, qv, hit): see the source."},
    {"best", py_best, METH_VARARGS, "best(placed, hand, need, size, out_bonus, hands, player, look, qv, hit)."},
    {"colour_values", py_colour_values, METH_VARARGS, "colour_values(placed, counts, size, per_cube, out_bonus, ...)."},
    {"roll_diffs", py_roll_diffs, METH_VARARGS, "roll_diffs(fms, values, hand, masks, base, rng, rounds)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_cqwirkle_eval",
                                       "Qwirkle Cubes' greedy evaluation in C.", -1, methods};

PyMODINIT_FUNC PyInit__cqwirkle_eval(void) {
    Q = (const QwirkleAPI *)PyCapsule_Import(QWIRKLE_API, 0);
    return Q ? PyModule_Create(&moduledef) : NULL;
}
