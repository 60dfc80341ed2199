/* Foldris's kernel: the Python values (part of _cfoldris.c, included once after the rules).
 *
 * Sheets are Python ints (bit = row * 8 + column) read into and written from one byte per row. The frozen
 * value classes (_state.Sheet, _state.FoldrisState) are read into two structs, SheetBuf and StateBuf, and
 * made from them, each described once in Python (_kernel.SHEET and _kernel.STATE, core.StateLayouts named
 * after the classes' fields): types() binds the classes with those descriptions, checked against the
 * structs (core/_codec.h's codec), and layout() reports the structs for tests/kernel/test_layouts.py. Every
 * field is reached through its bound member (SB_*, ST_*), never by position. The hot pair, a whole sheet
 * read into the kernel's Sheet and made from it, goes straight between the ints and the rows through those
 * members (no copy through SheetBuf: measured, docs/benchmarks/2026-12-05-state-codecs.md). A state's
 * config, sheets, deck and pending choices travel as its own objects (a sheet that does not change is the
 * same object in the next state).
 */

/* ------------------------------------------------------------------ Python ints <-> rows */
static int to_rows(PyObject *v, uint8_t *rows) {
    if (!PyLong_Check(v)) {
        PyErr_SetString(PyExc_TypeError, "a Foldris sheet must be an int");
        return -1;
    }
    return pylong_to_bytes(v, rows, ROWS, "sheet");
}
/* rows that may hold a square of ink or barrier (both ints already read into rows: non-negative, small) */
static int top_of(PyObject *ink, PyObject *bar) {
    size_t a = pylong_bits(ink), b = pylong_bits(bar), m = a > b ? a : b;
    return m == (size_t)-1 || (m + 7) / 8 > ROWS ? ROWS : (int)((m + 7) / 8);
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
    set_top(s, top_of(a[0], a[1]));
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

/* ------------------------------------------------------------------ the structs a value is read into */
typedef struct {
    uint8_t ink[ROWS], barrier[ROWS]; /* the ints as little-endian bytes: row r is byte r */
    int64_t height, lines, bonus, out;
} SheetBuf;
#define SHEET_FIELDS(X) X(ink) X(barrier) X(height) X(lines) X(bonus) X(out)

typedef struct {
    int64_t start_lane, round, card;
    uint64_t rng;
    int64_t over, starter;
} StateBuf;
#define STATE_FIELDS(X) X(start_lane) X(round) X(card) X(rng) X(over) X(starter)

#define ONE(m) SB_##m,
enum { SHEET_FIELDS(ONE) SB_N };
#undef ONE
_Static_assert(SB_lines == SB_height + 1 && SB_bonus == SB_height + 2 && SB_out == SB_height + 3, "sheet_read");
#define ONE(m) ST_##m,
enum { STATE_FIELDS(ONE) ST_N };
#undef ONE
#define ONE(m) LAYOUT_MEMBER(SheetBuf, m)
static const LayoutMember sheet_members[] = {SHEET_FIELDS(ONE)};
#undef ONE
#define ONE(m) LAYOUT_MEMBER(StateBuf, m)
static const LayoutMember state_members[] = {STATE_FIELDS(ONE)};
#undef ONE
#define BIT(m) (1u << (m)) /* a member in codec_remake's mask */

static Codec sheet_c, state_c; /* _state.Sheet <-> SheetBuf, _state.FoldrisState <-> StateBuf, bound by types() */
enum { O_CONFIG, O_SHEETS, O_DECK, O_PENDING, NOBJ }; /* the state's fields kept as objects */
static int obj_at[NOBJ];                             /* their indices among its fields */

/* A state's object field k (borrowed; NULL with an exception when unset). st is a bound state. */
#define OBJ(st, k) fields_get(&state_c.cls, (st), obj_at[k])

/* layout() -> {"sheet": ((name, offset, size), ...), size), "state": ...}: the structs as this build lays them out. */
static PyObject *py_layout(PyObject *self, PyObject *noargs) {
    return Py_BuildValue("{sNsN}", "sheet", layout_of_members(sheet_members, SB_N, sizeof(SheetBuf)), "state",
                         layout_of_members(state_members, ST_N, sizeof(StateBuf)));
}

/* Member j of a bound state (a number) into *out: 0, or -1 with an exception (TypeError when not an int). */
static inline int state_get(PyObject *st, int j, int64_t *out) {
    int r = codec_int(&state_c, st, j, out);
    if (!r) PyErr_SetString(PyExc_TypeError, "a Foldris state's field is not an int");
    return r > 0 ? 0 : -1;
}

/* Whether Sheet o is out (its round of elimination, non-zero): 1 or 0, -1 with an exception. */
static inline int sheet_is_out(PyObject *o) {
    int64_t out;
    if (!codec_is(&sheet_c, o)) {
        PyErr_SetString(PyExc_TypeError, "expected a Foldris Sheet (and types() called)");
        return -1;
    }
    int r = codec_int(&sheet_c, o, SB_out, &out);
    if (!r) PyErr_SetString(PyExc_TypeError, "a Foldris sheet's field is not an int");
    return r > 0 ? out != 0 : -1;
}

/* one Sheet(ink, barrier, height, lines, bonus, out) read into s (without the height check: 0, or -1) */
static int sheet_read(PyObject *o, Sheet *s) {
    /* SheetBuf's members read into s as codec_read would, without the copy (ink and barrier straight into
     * the rows, the top bounded by their bit lengths) */
    Codec *c = &sheet_c;
    int64_t n[4];
    if (!codec_is(c, o)) {
        PyErr_SetString(PyExc_TypeError, "expected a Foldris Sheet (and types() called)");
        return -1;
    }
    PyObject *ink = fields_get(&c->cls, o, c->f[SB_ink].slot), *bar = fields_get(&c->cls, o, c->f[SB_barrier].slot);
    if (!ink || !bar || to_rows(ink, s->ink) < 0 || to_rows(bar, s->bar) < 0) return -1;
    for (int j = 0; j < 4; j++) { /* height, lines, bonus, out: the last four members, in this order */
        int r = codec_int(c, o, SB_height + j, &n[j]);
        if (r <= 0) {
            if (!r) PyErr_SetString(PyExc_TypeError, "a Foldris sheet's field is not an int");
            return -1;
        }
    }
    s->height = (long)n[0];
    s->lines = (long)n[1];
    s->bonus = (long)n[2];
    s->out = (long)n[3];
    set_top(s, top_of(ink, bar));
    return 0;
}

/* one Sheet(ink, barrier, height, lines, bonus, out) */
static int sheet_in(PyObject *o, Sheet *s) {
    if (sheet_read(o, s) < 0) return -1;
    if (s->height < 1 || s->height > ROWS - 8) {
        PyErr_SetString(PyExc_ValueError, "sheet height out of range");
        return -1;
    }
    return 0;
}
static PyObject *sheet_out(const Sheet *s) {
    /* SheetBuf's members made from s as codec_make would, without the copy: the rows at and above s->top are
     * empty, so each int is made from the rows below it */
    PyObject *v[FIELDS_MAX] = {NULL};
    Codec *c = &sheet_c;
    v[c->f[SB_ink].slot] = pylong_from_bytes(s->ink, (size_t)s->top);
    v[c->f[SB_barrier].slot] = pylong_from_bytes(s->bar, (size_t)s->top);
    v[c->f[SB_height].slot] = PyLong_FromLong(s->height);
    v[c->f[SB_lines].slot] = PyLong_FromLong(s->lines);
    v[c->f[SB_bonus].slot] = PyLong_FromLong(s->bonus);
    v[c->f[SB_out].slot] = PyLong_FromLong(s->out);
    return fields_make(&c->cls, v);
}
/* ------------------------------------------------------------------ decoded sheets, kept
 * Sheet values are immutable: the last ones read or made are kept decoded (with their heights and fit masks),
 * so a round's reveal, draws, checks and resolution convert each sheet's ints once. An entry holds its object,
 * so a pointer compared here is never a freed object's address reused, and a frozen object's fields are
 * those it was decoded from. */
#define KEEP 16
typedef struct {
    PyObject *obj;
    Sheet s;
} Kept;
static Kept kept[KEEP];
static int kept_next;

/* The entry for o, s copied in (the ring's oldest entry is given up). */
static Sheet *kept_add(PyObject *o, const Sheet *s) {
    Kept *k = &kept[kept_next];
    kept_next = (kept_next + 1) % KEEP;
    Py_XSETREF(k->obj, Py_NewRef(o));
    k->s = *s;
    return &k->s;
}

/* The Sheet object o decoded (as sheet_in reads it, without its height check); NULL with an exception. The
 * pointer is good until the next call of kept_sheet or kept_add; what it caches (heights, masks) may be
 * filled in through it. */
static Sheet *kept_sheet(PyObject *o) {
    if (!codec_is(&sheet_c, o)) {
        PyErr_SetString(PyExc_TypeError, "expected a Foldris Sheet (and types() called)");
        return NULL;
    }
    for (int j = 0; j < KEEP; j++)
        if (kept[j].obj == o) return &kept[j].s;
    Sheet s;
    if (sheet_read(o, &s) < 0) return NULL;
    return kept_add(o, &s);
}

/* Keep a Sheet object just made from s. */
static int kept_made(PyObject *o, const Sheet *s) {
    kept_add(o, s);
    return 0;
}

static int sheets_in(PyObject *seq, Sheet *sh, int *n) {
    PyObject *f = PySequence_Fast(seq, "the sheets");
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

/* types(Sheet, its spec, FoldrisState, its spec): the value classes and their structs' descriptions
 * (_kernel.SHEET and _kernel.STATE's codec_spec of them), checked against SheetBuf and StateBuf. */
static PyObject *py_types(PyObject *self, PyObject *const *a, Py_ssize_t n) {
    static const char *const objs[NOBJ] = {"config", "sheets", "deck", "pending"};
    if (n != 4) return PyErr_Format(PyExc_TypeError, "types(Sheet, spec, FoldrisState, spec)");
    if (codec_bind(&sheet_c, a[0], a[1], sheet_members, SB_N, NULL, NULL, 0) < 0 ||
        codec_bind(&state_c, a[2], a[3], state_members, ST_N, objs, obj_at, NOBJ) < 0)
        return NULL;
    Py_RETURN_NONE;
}
