/* Frozen value classes (dataclasses with __slots__) read into and made from C structs, through the public C
 * API only.
 *
 * A kernel's state buffer is a C struct described once, in Python (a core.StateLayout named after the value
 * class's fields). A codec binds the class to that struct (codec_bind, with StateLayout.codec_spec): each
 * described field of the class is read into its member of the struct (codec_read) and made from it
 * (codec_make), the class's other fields (objects the kernel keeps as they are: a config, a tuple of moves)
 * are handed over by the caller. At bind time the description's offsets and sizes are checked against the
 * struct as this build lays it out (core/_layout.h's LayoutMember list), so the kernel's code reads and
 * writes structs only and cannot drift from the Python description.
 *
 * A field is found once, at bind time, in the class's member table (the type's documented tp_members: a
 * PyMemberDef of type T_OBJECT_EX per slot), and read and written through the documented member functions
 * PyMember_GetOne and PyMember_SetOne: no offset into an object is followed here, no descriptor object's
 * internals (PyMemberDescrObject), no private function (ints as bytes: core/_pylong.h). A value made here
 * is allocated by its type's tp_alloc and its fields set as object.__setattr__ sets them, without the
 * dataclass's __init__ (a Python call per field, slower than the kernel's step): the classes bound have no
 * __post_init__ or validation.
 *
 * Other ways, measured: calling each field's descriptor (tp_descr_get / tp_descr_set) cost Foldris's protocol
 * loop 13 to 17% of its speed (docs/benchmarks/2026-12-05-kernel-interfaces.md); building the state in
 * Python from a buffer the kernel wrote costs more than a whole compiled Quadefy step
 * (docs/benchmarks/2026-12-05-state-codecs.md); the member functions against the direct slot reads this
 * header replaced: docs/benchmarks/2026-12-05-c-seam-leftovers.md. */
#ifndef POLYTABLE_CODEC_H
#define POLYTABLE_CODEC_H

#include <Python.h>
#include <string.h>

#include "_layout.h" /* LayoutMember: the struct a codec fills */
#include "_pylong.h" /* ints as bytes */
#if PY_VERSION_HEX < 0x030C0000
#include <structmember.h> /* PyMember_GetOne and the type codes (in Python.h, as Py_T_OBJECT_EX, from 3.12) */
#define Py_T_OBJECT_EX T_OBJECT_EX
#define Py_READONLY READONLY
#endif

#define FIELDS_MAX 12

typedef struct {
    PyTypeObject *type;              /* the class (a strong reference once bound) */
    int n;                           /* its fields, in the order of names */
    PyMemberDef *def[FIELDS_MAX];    /* each field's entry in the class's member table (the type holds it) */
    PyObject *last;                  /* held: the instance last read or made (NULL: none) */
    unsigned known;                  /* bit i: its field i is in value[i] */
    PyObject *value[FIELDS_MAX];     /* its fields known (borrowed: last holds them) */
} Fields;

/* The member named name of type or a base (the tp_base chain), or NULL. */
static inline PyMemberDef *fields_member(PyTypeObject *type, const char *name) {
    for (PyTypeObject *t = type; t; t = t->tp_base)
        for (PyMemberDef *m = t->tp_members; m && m->name; m++)
            if (strcmp(m->name, name) == 0) return m;
    return NULL;
}

/* Binds c to class type and its n field names (a sequence of str): 0, or -1 with an exception. */
static inline int fields_bind(Fields *c, PyObject *type, PyObject *names, int n) {
    if (!PyType_Check(type) || n > FIELDS_MAX) {
        PyErr_SetString(PyExc_TypeError, "fields_bind: a class with at most FIELDS_MAX fields");
        return -1;
    }
    PyObject *f = PySequence_Fast(names, "field names");
    if (!f) return -1;
    if (PySequence_Fast_GET_SIZE(f) != n) {
        Py_DECREF(f);
        PyErr_Format(PyExc_ValueError, "expected %d field names", n);
        return -1;
    }
    Fields b = {NULL, n, {NULL}, NULL, 0, {NULL}};
    for (int i = 0; i < n; i++) {
        PyObject *name = PySequence_Fast_GET_ITEM(f, i);
        const char *s = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
        PyMemberDef *m = s ? fields_member((PyTypeObject *)type, s) : NULL;
        if (!m || m->type != Py_T_OBJECT_EX || (m->flags & Py_READONLY)) {
            if (!PyErr_Occurred()) PyErr_Format(PyExc_TypeError, "field %R is not a slot of %R", name, type);
            Py_DECREF(f);
            return -1;
        }
        b.def[i] = m;
    }
    Py_DECREF(f);
    b.type = (PyTypeObject *)Py_NewRef(type);
    Py_XDECREF(c->type);
    Py_CLEAR(c->last);
    *c = b;
    return 0;
}

/* Field i of o, a borrowed reference (NULL with AttributeError when unset). o must be an instance of the
 * bound class (the caller checks Py_TYPE(o) == c->type), and frozen: o holds the value as long as o lives.
 * The last instance read or made is held with the fields fetched from it: one step reads a state in several
 * calls (the view, its sample, the apply, the next state made like it), and the state the kernel made last
 * is the one it is handed next, so most fields are fetched once or not at all (a held address seen again is
 * the same object). */
static inline PyObject *fields_get(Fields *c, PyObject *o, int i) {
    PyObject *was = NULL, *v;
    if (o != c->last) {
        was = c->last;
        c->last = Py_NewRef(o);
        c->known = 0;
    }
    if (c->known >> i & 1) {
        v = c->value[i];
    } else if ((v = PyMember_GetOne((const char *)o, c->def[i]))) { /* NULL: unset, AttributeError */
        Py_DECREF(v); /* o holds it */
        c->value[i] = v;
        c->known |= 1u << i;
    }
    Py_XDECREF(was); /* last: freeing the old instance may run code that reads through c again */
    return v;
}

/* A new instance of the bound class with fields v[0..n) (the references are stolen, also on failure), made
 * without running __init__ (no __post_init__ or validation there: the kernel's values are the rules'). NULL
 * with an exception when some v[i] is NULL or the object cannot be made. */
static inline PyObject *fields_make(Fields *c, PyObject **v) {
    PyObject *o = c->type->tp_alloc(c->type, 0);
    int ok = o != NULL;
    for (int i = 0; i < c->n; i++) {
        if (ok && (!v[i] || PyMember_SetOne((char *)o, c->def[i], v[i]) < 0)) ok = 0;
        Py_XDECREF(v[i]); /* o holds it (when ok) */
    }
    if (!ok) {
        Py_XDECREF(o);
        if (!PyErr_Occurred()) PyErr_NoMemory();
        return NULL;
    }
    PyObject *was = c->last;
    c->last = Py_NewRef(o);
    memcpy(c->value, v, (size_t)c->n * sizeof *v);
    c->known = (1u << c->n) - 1;
    Py_XDECREF(was); /* last, as in fields_get */
    return o;
}

/* ------------------------------------------------------------------ codecs: a value class <-> a C struct */
enum { CODEC_INT = 'i', CODEC_UINT = 'u', CODEC_BOOL = 'b', CODEC_BYTES = 'n' };

typedef struct {
    Fields cls; /* the class and every one of its fields, in the order of StateLayout.codec_spec's names */
    int n;      /* the fields held in the struct, in its order */
    int member[FIELDS_MAX]; /* per field of the class: its member of the struct, or -1 (an object field) */
    struct {
        int slot, kind, count;      /* the class's field, how an item is held, items (more than one: a tuple) */
        Py_ssize_t offset, item;    /* the member's offset in the struct, an item's size in bytes */
    } f[FIELDS_MAX];
} Codec;

/* The index of the class's field called name (-1 when it has none). */
static inline int codec_index(const Codec *c, PyObject *names, const char *name) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(names); i++) {
        const char *s = PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, i));
        if (s && strcmp(s, name) == 0) return (int)i;
    }
    PyErr_Clear();
    return -1;
}

/* Binds c to the class type, described by spec (StateLayout.codec_spec: the class's field names, then per
 * member of the struct (name, kind, count, offset, item size)), checked against the struct's members as
 * this build lays them out. objs: the names of the class's fields the kernel takes as objects, their
 * indices written to idx. 0, or -1 with an exception. */
static inline int codec_bind(Codec *c, PyObject *type, PyObject *spec, const LayoutMember *members, int nmembers,
                             const char *const *objs, int *idx, int nobjs) {
    PyObject *names, *items;
    if (!PyArg_ParseTuple(spec, "O!O!", &PyTuple_Type, &names, &PyTuple_Type, &items)) return -1;
    if (PyTuple_GET_SIZE(items) != nmembers || nmembers > FIELDS_MAX) {
        PyErr_Format(PyExc_ValueError, "the description has %zd members, the struct %d", PyTuple_GET_SIZE(items),
                     nmembers);
        return -1;
    }
    Codec b;
    memset(&b, 0, sizeof b);
    if (fields_bind(&b.cls, type, names, (int)PyTuple_GET_SIZE(names)) < 0) return -1;
    b.n = nmembers;
    for (int i = 0; i < FIELDS_MAX; i++) b.member[i] = -1;
    for (int j = 0; j < nmembers; j++) {
        const char *name, *kind;
        Py_ssize_t count, offset, item;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(items, j), "ssnnn", &name, &kind, &count, &offset, &item)) goto fail;
        int slot = codec_index(&b, names, name);
        int k = kind[0], wide = k == CODEC_INT || k == CODEC_UINT || k == CODEC_BOOL;
        if (strcmp(name, members[j].name) || offset != members[j].offset || count * item != members[j].size ||
            slot < 0 || count < 1 || (wide ? item != 8 : k != CODEC_BYTES || item < 1)) {
            PyErr_Format(PyExc_ValueError,
                         "member %d (%s at %zd, %zd bytes) is not the struct's (%s at %zd, %zd bytes)", j, name, offset,
                         count * item, members[j].name, members[j].offset, members[j].size);
            goto fail;
        }
        if (b.member[slot] >= 0) {
            PyErr_Format(PyExc_ValueError, "field %s described twice", name);
            goto fail;
        }
        b.member[slot] = j;
        b.f[j].slot = slot;
        b.f[j].kind = k;
        b.f[j].count = (int)count;
        b.f[j].offset = offset;
        b.f[j].item = item;
    }
    for (int i = 0; i < nobjs; i++)
        if ((idx[i] = codec_index(&b, names, objs[i])) < 0) {
            PyErr_Format(PyExc_ValueError, "the class has no field %s", objs[i]);
            goto fail;
        }
    Py_XDECREF(c->cls.type);
    Py_CLEAR(c->cls.last);
    *c = b;
    return 0;
fail:
    Py_XDECREF(b.cls.type);
    return -1;
}

/* Described member j of o (an instance of the bound class: the caller checks), a field of one 8-byte int,
 * into *out: 1, 0 when it is not an int, -1 with an exception (out of range). The short form of
 * codec_read_member for a step that needs one number. */
static inline int codec_int(Codec *c, PyObject *o, int j, int64_t *out) {
    PyObject *v = fields_get(&c->cls, o, c->f[j].slot);
    if (!v) return -1;
    if (!PyLong_Check(v)) return 0;
    int64_t i = c->f[j].kind == CODEC_UINT ? (int64_t)PyLong_AsUnsignedLongLong(v) : (int64_t)PyLong_AsLongLong(v);
    if (i == -1 && PyErr_Occurred()) return -1;
    *out = i;
    return 1;
}

/* Reads described member j of o (an instance of the bound class: the caller checks, codec_is) into its place
 * in buf: 1, 0 when the field is not of the described form (not an int, a tuple of another size), -1 with
 * an exception (an int out of range). */
static inline int codec_read_member(Codec *c, PyObject *o, int j, void *buf) {
    PyObject *v = fields_get(&c->cls, o, c->f[j].slot), *const *items = &v;
    if (!v) return -1;
    int count = c->f[j].count, kind = c->f[j].kind, maybe_error = 0;
    if (count > 1) {
        if (!PyTuple_CheckExact(v) || PyTuple_GET_SIZE(v) != count) return 0;
        items = &PyTuple_GET_ITEM(v, 0);
    }
    char *at = (char *)buf + c->f[j].offset;
    for (int k = 0; k < count; k++, at += c->f[j].item) {
        PyObject *x = items[k];
        if (!PyLong_Check(x)) return 0;
        if (kind == CODEC_BYTES) {
            if (pylong_to_bytes(x, (unsigned char *)at, (size_t)c->f[j].item, "a field") < 0) return -1;
            continue;
        }
        int64_t i = kind == CODEC_UINT ? (int64_t)PyLong_AsUnsignedLongLong(x) : (int64_t)PyLong_AsLongLong(x);
        maybe_error |= i == -1;
        memcpy(at, &i, 8);
    }
    return maybe_error && PyErr_Occurred() ? -1 : 1;
}

/* Whether o is an instance of the bound class. */
static inline int codec_is(const Codec *c, PyObject *o) { return c->cls.type && Py_TYPE(o) == c->cls.type; }

/* Reads every described field of o into buf: 1, 0 when o is not an instance of the bound class or a field is
 * not of the described form, -1 with an exception. */
static inline int codec_read(Codec *c, PyObject *o, void *buf) {
    if (!codec_is(c, o)) return 0;
    for (int j = 0; j < c->n; j++) {
        int r = codec_read_member(c, o, j, buf);
        if (r <= 0) return r;
    }
    return 1;
}

/* One item of a described field as a new Python object (NULL with an exception). */
static inline PyObject *codec_item(int kind, const char *at, Py_ssize_t size) {
    if (kind == CODEC_BYTES) { /* the int's leading zero bytes dropped: a word at a time, then a byte */
        for (uint64_t w = 0; size >= 8 && (memcpy(&w, at + size - 8, 8), !w);) size -= 8;
        while (size > 0 && !at[size - 1]) size--;
        return pylong_from_bytes((const unsigned char *)at, (size_t)size);
    }
    int64_t i;
    memcpy(&i, at, 8);
    if (kind == CODEC_UINT) return PyLong_FromUnsignedLongLong((uint64_t)i);
    if (kind == CODEC_BOOL) return PyBool_FromLong(i != 0);
    return PyLong_FromLongLong(i);
}

/* Described member j made from buf (a new reference, or NULL with an exception). */
static inline PyObject *codec_member(const Codec *c, const void *buf, int j) {
    const char *at = (const char *)buf + c->f[j].offset;
    int count = c->f[j].count, kind = c->f[j].kind;
    Py_ssize_t item = c->f[j].item;
    if (count == 1) return codec_item(kind, at, item);
    PyObject *x = PyTuple_New(count);
    for (int k = 0; x && k < count; k++) {
        PyObject *y = codec_item(kind, at + k * item, item);
        if (!y) Py_CLEAR(x);
        else PyTuple_SET_ITEM(x, k, y);
    }
    return x;
}

/* A new instance of the bound class like old (a bound instance, or NULL): the described members whose bit is
 * set in made (bit j: member j; all of them when old is NULL) made from buf, the others old's; each of the
 * class's other fields v[i] (stolen, also on failure; v has an entry per field of the class, NULL for a
 * described one) or, where NULL, old's. NULL with an exception. */
static inline PyObject *codec_remake(Codec *c, PyObject *old, const void *buf, unsigned made, PyObject **v) {
    for (int j = 0; j < c->n; j++) {
        int i = c->f[j].slot;
        v[i] = !old || made >> j & 1 ? codec_member(c, buf, j) : Py_XNewRef(fields_get(&c->cls, old, i));
    }
    if (old)
        for (int i = 0; i < c->cls.n; i++)
            if (!v[i] && c->member[i] < 0) v[i] = Py_XNewRef(fields_get(&c->cls, old, i));
    return fields_make(&c->cls, v); /* a NULL v[i]: the rest released, NULL returned */
}

/* A new instance of the bound class: the described fields made from buf, the others v[i] (as codec_remake). */
static inline PyObject *codec_make(Codec *c, const void *buf, PyObject **v) {
    return codec_remake(c, NULL, buf, ~0u, v);
}

#endif
