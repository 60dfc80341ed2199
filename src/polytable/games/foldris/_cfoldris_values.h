/* Foldris's kernel: the Python values (part of _cfoldris.c, included once after the rules).
 *
 * Sheets are Python ints (bit = row * 8 + column) read into and written from one byte per row; the frozen
 * value classes (_state.Sheet, _state.FoldrisState) are registered by the kernel and their fields read and
 * written through their classes' member tables (core/_slots.h), as their generated __init__ would (they
 * have no __post_init__ or validation).
 */

/* ------------------------------------------------------------------ Python ints <-> rows */
static int to_rows(PyObject *v, uint8_t *rows) {
    if (!PyLong_Check(v)) {
        PyErr_SetString(PyExc_TypeError, "a Foldris sheet must be an int");
        return -1;
    }
    return pylong_to_bytes(v, rows, ROWS, "sheet");
}
/* the int of the first n rows (the rows above are empty) */
static PyObject *from_rows(const uint8_t *rows, int n) {
    return pylong_from_bytes(rows, (size_t)n);
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

/* The frozen value classes (_state.Sheet, _state.FoldrisState), bound by types(). */
static Slots sheet_s, state_s;

/* Field i of a bound value o (borrowed; NULL with an exception when unset), and a new value of fields v (stolen). */
static inline PyObject *slot(const Slots *c, PyObject *o, int i) { return slots_get(c, o, i); }
static inline PyObject *make(const Slots *c, PyObject **v) { return slots_make(c, v); }

/* one Sheet(ink, barrier, height, lines, bonus, out) */
static int sheet_in(PyObject *o, Sheet *s) {
    PyObject *f[6];
    if (!sheet_s.type || Py_TYPE(o) != sheet_s.type) {
        PyErr_SetString(PyExc_TypeError, "expected a Foldris Sheet (and types() called)");
        return -1;
    }
    for (int i = 0; i < 6; i++)
        if (!(f[i] = slot(&sheet_s, o, i))) return -1;
    if (to_rows(f[0], s->ink) < 0 || to_rows(f[1], s->bar) < 0) return -1;
    s->height = PyLong_AsLong(f[2]);
    s->lines = PyLong_AsLong(f[3]);
    s->bonus = PyLong_AsLong(f[4]);
    s->out = PyLong_AsLong(f[5]);
    if (PyErr_Occurred()) return -1;
    set_top(s, top_of(f[0], f[1]));
    if (s->height < 1 || s->height > ROWS - 8) {
        PyErr_SetString(PyExc_ValueError, "sheet height out of range");
        return -1;
    }
    return 0;
}
static PyObject *sheet_out(const Sheet *s) {
    PyObject *v[6] = {from_rows(s->ink, s->top), from_rows(s->bar, s->top),        PyLong_FromLong(s->height),
                      PyLong_FromLong(s->lines), PyLong_FromLong(s->bonus), PyLong_FromLong(s->out)};
    return make(&sheet_s, v);
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
    PyObject *f[6];
    if (!sheet_s.type || Py_TYPE(o) != sheet_s.type) {
        PyErr_SetString(PyExc_TypeError, "expected a Foldris Sheet (and types() called)");
        return NULL;
    }
    for (int j = 0; j < KEEP; j++)
        if (kept[j].obj == o) return &kept[j].s;
    for (int i = 0; i < 6; i++)
        if (!(f[i] = slot(&sheet_s, o, i))) return NULL;
    Sheet s;
    if (to_rows(f[0], s.ink) < 0 || to_rows(f[1], s.bar) < 0) return NULL;
    s.height = PyLong_AsLong(f[2]);
    s.lines = PyLong_AsLong(f[3]);
    s.bonus = PyLong_AsLong(f[4]);
    s.out = PyLong_AsLong(f[5]);
    if (PyErr_Occurred()) return NULL;
    set_top(&s, top_of(f[0], f[1]));
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

static PyObject *py_types(PyObject *self, PyObject *const *a, Py_ssize_t n) {
    if (n != 4 || !PyType_Check(a[0]) || !PyType_Check(a[2]))
        return PyErr_Format(PyExc_TypeError, "types(Sheet, fields, FoldrisState, fields)");
    if (slots_bind(&sheet_s, a[0], a[1], 6) < 0 || slots_bind(&state_s, a[2], a[3], 10) < 0) return NULL;
    Py_RETURN_NONE;
}

