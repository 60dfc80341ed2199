/* Foldris's kernel: the Python values (part of _cfoldris.c, included once after the rules).
 *
 * Sheets are Python ints (bit = row * 8 + column) read into and written from one byte per row; the frozen
 * value classes (_state.Sheet, _state.FoldrisState) are registered by _native.py and their slots read and
 * written directly, as their generated __init__ would (they have no __post_init__ or validation).
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

/* The frozen value classes (_state.Sheet, _state.FoldrisState), registered by _native.py: their slots are
 * read and written directly, as their generated __init__ would (no __post_init__ or validation there). */
static PyTypeObject *sheet_type, *state_type;
static Py_ssize_t sheet_off[6], state_off[10];

static PyObject *slot(PyObject *o, Py_ssize_t off) {
    PyObject *v = *(PyObject **)((char *)o + off);
    if (!v) PyErr_SetString(PyExc_AttributeError, "a Foldris value with an unset field");
    return v;
}
static PyObject *make(PyTypeObject *t, const Py_ssize_t *off, int n, PyObject **v) { /* steals v[] */
    PyObject *o = t->tp_alloc(t, 0);
    for (int i = 0; i < n; i++) {
        if (!o || !v[i]) {
            Py_XDECREF(v[i]);
            continue;
        }
        *(PyObject **)((char *)o + off[i]) = v[i];
    }
    for (int i = 0; i < n; i++)
        if (!v[i]) {
            Py_XDECREF(o);
            return NULL;
        }
    return o;
}

/* one Sheet(ink, barrier, height, lines, bonus, out) */
static int sheet_in(PyObject *o, Sheet *s) {
    PyObject *f[6];
    if (!sheet_type || Py_TYPE(o) != sheet_type) {
        PyErr_SetString(PyExc_TypeError, "expected a Foldris Sheet (and types() called)");
        return -1;
    }
    for (int i = 0; i < 6; i++)
        if (!(f[i] = slot(o, sheet_off[i]))) return -1;
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
    return make(sheet_type, sheet_off, 6, v);
}
/* ------------------------------------------------------------------ decoded sheets, kept
 * Sheet values are immutable: the last ones read or made are kept decoded (with their heights and fit masks),
 * so a round's reveal, draws, checks and resolution convert each sheet's ints once. An entry holds its object
 * and the object's fields, so a pointer compared here is never a freed object's address reused. */
#define KEEP 16
typedef struct {
    PyObject *obj, *f[6];
    Sheet s;
} Kept;
static Kept kept[KEEP];
static int kept_next;

/* The entry for o with its fields f, s copied in (the ring's oldest entry is given up). */
static Sheet *kept_add(PyObject *o, PyObject **f, const Sheet *s) {
    Kept *k = &kept[kept_next];
    kept_next = (kept_next + 1) % KEEP;
    Py_CLEAR(k->obj);
    for (int i = 0; i < 6; i++) Py_CLEAR(k->f[i]);
    k->obj = Py_NewRef(o);
    for (int i = 0; i < 6; i++) k->f[i] = Py_NewRef(f[i]);
    k->s = *s;
    return &k->s;
}

/* The Sheet object o decoded (as sheet_in reads it, without its height check); NULL with an exception. The
 * pointer is good until the next call of kept_sheet or kept_add; what it caches (heights, masks) may be
 * filled in through it. */
static Sheet *kept_sheet(PyObject *o) {
    PyObject *f[6];
    if (!sheet_type || Py_TYPE(o) != sheet_type) {
        PyErr_SetString(PyExc_TypeError, "expected a Foldris Sheet (and types() called)");
        return NULL;
    }
    for (int i = 0; i < 6; i++)
        if (!(f[i] = slot(o, sheet_off[i]))) return NULL;
    for (int j = 0; j < KEEP; j++) {
        Kept *k = &kept[j];
        if (k->obj == o && k->f[0] == f[0] && k->f[1] == f[1] && k->f[2] == f[2] && k->f[3] == f[3] &&
            k->f[4] == f[4] && k->f[5] == f[5])
            return &k->s;
    }
    Sheet s;
    if (to_rows(f[0], s.ink) < 0 || to_rows(f[1], s.bar) < 0) return NULL;
    s.height = PyLong_AsLong(f[2]);
    s.lines = PyLong_AsLong(f[3]);
    s.bonus = PyLong_AsLong(f[4]);
    s.out = PyLong_AsLong(f[5]);
    if (PyErr_Occurred()) return NULL;
    set_top(&s, top_of(f[0], f[1]));
    return kept_add(o, f, &s);
}

/* Keep a Sheet object just made from s. */
static int kept_made(PyObject *o, const Sheet *s) {
    PyObject *f[6];
    for (int i = 0; i < 6; i++)
        if (!(f[i] = slot(o, sheet_off[i]))) return -1;
    kept_add(o, f, s);
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

static int offsets(PyObject *type, PyObject *names, Py_ssize_t *off, int n) {
    PyObject *f = PySequence_Fast(names, "field names");
    if (!f) return -1;
    if (PySequence_Fast_GET_SIZE(f) != n) {
        Py_DECREF(f);
        PyErr_Format(PyExc_ValueError, "expected %d field names", n);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        PyObject *d = PyObject_GetAttr(type, PySequence_Fast_GET_ITEM(f, i));
        if (!d) break;
        if (!Py_IS_TYPE(d, &PyMemberDescr_Type) || ((PyMemberDescrObject *)d)->d_member->type != T_OBJECT_EX) {
            Py_DECREF(d);
            PyErr_SetString(PyExc_TypeError, "a field is not a plain slot");
            break;
        }
        off[i] = ((PyMemberDescrObject *)d)->d_member->offset;
        Py_DECREF(d);
    }
    Py_DECREF(f);
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *py_types(PyObject *self, PyObject *const *a, Py_ssize_t n) {
    if (n != 4 || !PyType_Check(a[0]) || !PyType_Check(a[2]))
        return PyErr_Format(PyExc_TypeError, "types(Sheet, fields, FoldrisState, fields)");
    if (offsets(a[0], a[1], sheet_off, 6) < 0 || offsets(a[2], a[3], state_off, 10) < 0) return NULL;
    Py_INCREF(a[0]);
    Py_INCREF(a[2]);
    Py_XSETREF(sheet_type, (PyTypeObject *)a[0]);
    Py_XSETREF(state_type, (PyTypeObject *)a[2]);
    Py_RETURN_NONE;
}

