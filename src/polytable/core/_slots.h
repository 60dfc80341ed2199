/* Frozen value classes (dataclasses with __slots__) read and made from C through the documented C API.
 *
 * A kernel that returns the rules' own state objects (Quadefy, Foldris) would spend most of a step in the
 * dataclass's generated __init__ (one object.__setattr__ a field). Instead the class's fields are found once
 * (slots_bind) in its member table, the type's documented tp_members: each slot is a PyMemberDef of type
 * T_OBJECT_EX at a documented offset in the instance, which is read and written as that type's contract
 * says (a PyObject pointer, NULL when unset), what PyMember_GetOne and PyMember_SetOne do. No descriptor
 * object's internals (PyMemberDescrObject), no private function. A class whose field is not such a slot is
 * refused at bind time.
 *
 * Calling each field's descriptor (tp_descr_get / tp_descr_set) instead was measured: Foldris's protocol
 * loop lost 13 to 17% of its speed (docs/engine.md). */
#ifndef POLYTABLE_SLOTS_H
#define POLYTABLE_SLOTS_H

#include <Python.h>
#include <string.h>
#if PY_VERSION_HEX < 0x030C0000
#include <structmember.h> /* PyMemberDef's type codes (in Python.h as Py_T_OBJECT_EX from 3.12) */
#define Py_T_OBJECT_EX T_OBJECT_EX
#define Py_READONLY READONLY
#endif

#define SLOTS_MAX 12

typedef struct {
    PyTypeObject *type;         /* the class (a strong reference once bound) */
    int n;                      /* its fields, in the order of names */
    Py_ssize_t off[SLOTS_MAX];  /* each field's PyMemberDef.offset */
} Slots;

/* The member named name of type or a base (the tp_base chain), or NULL. */
static inline const PyMemberDef *slots_member(PyTypeObject *type, const char *name) {
    for (PyTypeObject *t = type; t; t = t->tp_base)
        for (const PyMemberDef *m = t->tp_members; m && m->name; m++)
            if (strcmp(m->name, name) == 0) return m;
    return NULL;
}

/* Binds c to class type and its n field names (a sequence of str): 0, or -1 with an exception. */
static inline int slots_bind(Slots *c, PyObject *type, PyObject *names, int n) {
    if (!PyType_Check(type) || n > SLOTS_MAX) {
        PyErr_SetString(PyExc_TypeError, "slots_bind: a class with at most SLOTS_MAX fields");
        return -1;
    }
    PyObject *f = PySequence_Fast(names, "field names");
    if (!f) return -1;
    if (PySequence_Fast_GET_SIZE(f) != n) {
        Py_DECREF(f);
        PyErr_Format(PyExc_ValueError, "expected %d field names", n);
        return -1;
    }
    Slots b = {NULL, n, {0}};
    for (int i = 0; i < n; i++) {
        PyObject *name = PySequence_Fast_GET_ITEM(f, i);
        const char *s = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
        const PyMemberDef *m = s ? slots_member((PyTypeObject *)type, s) : NULL;
        if (!m || m->type != Py_T_OBJECT_EX || (m->flags & Py_READONLY)) {
            if (!PyErr_Occurred()) PyErr_Format(PyExc_TypeError, "field %R is not a slot of %R", name, type);
            Py_DECREF(f);
            return -1;
        }
        b.off[i] = m->offset;
    }
    Py_DECREF(f);
    b.type = (PyTypeObject *)Py_NewRef(type);
    Py_XDECREF(c->type);
    *c = b;
    return 0;
}

/* Field i of o, a borrowed reference (NULL with AttributeError when unset). o must be an instance of the
 * bound class (the caller checks Py_TYPE(o) == c->type), and frozen: the value lives as long as o does. */
static inline PyObject *slots_get(const Slots *c, PyObject *o, int i) {
    PyObject *v = *(PyObject **)((char *)o + c->off[i]);
    if (!v) PyErr_SetString(PyExc_AttributeError, "a value with an unset field");
    return v;
}

/* A new instance of the bound class with fields v[0..n) (the references are stolen, also on failure), made
 * without running __init__ (no __post_init__ or validation there: the kernel's values are the rules'). NULL
 * with an exception when some v[i] is NULL or the object cannot be made. */
static inline PyObject *slots_make(const Slots *c, PyObject **v) {
    PyObject *o = c->type->tp_alloc(c->type, 0);
    int ok = o != NULL;
    for (int i = 0; i < c->n; i++) {
        if (!v[i]) ok = 0;
        if (ok) *(PyObject **)((char *)o + c->off[i]) = v[i]; /* a fresh object: no old value */
        else Py_XDECREF(v[i]);
    }
    if (!ok) {
        Py_XDECREF(o);
        if (!PyErr_Occurred()) PyErr_NoMemory();
        return NULL;
    }
    return o;
}

#endif
