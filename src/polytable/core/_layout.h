/* A kernel's state buffer reported to Python: ``layout()`` answers ((name, offset, size), ...) and the
 * struct's size, so tests/kernel/test_layouts.py can compare the C struct with the one description in the
 * game's _kernel.py (a core.StateLayout). Needs Python.h first.
 *
 *   static PyObject *py_layout(PyObject *self, PyObject *noargs) {
 *   #define ONE(m) LAYOUT_ITEM(MyBuf, m)
 *       PyObject *items[] = {MY_FIELDS(ONE)};
 *   #undef ONE
 *       return layout_of(items, sizeof items / sizeof items[0], sizeof(MyBuf));
 *   }
 */
#ifndef POLYTABLE_LAYOUT_H
#define POLYTABLE_LAYOUT_H

#include <stddef.h>

/* A member as this build lays it out, without Python objects (what a codec checks a description against). */
typedef struct {
    const char *name;
    Py_ssize_t offset, size;
} LayoutMember;
#define LAYOUT_MEMBER(T, m) {#m, (Py_ssize_t)offsetof(T, m), (Py_ssize_t)sizeof(((T *)0)->m)},

/* layout() of members listed as LayoutMember: ((name, offset, size), ...) and the struct's size. */
static inline PyObject *layout_of_members(const LayoutMember *m, size_t count, size_t size) {
    PyObject *out = PyTuple_New((Py_ssize_t)count);
    for (size_t i = 0; out && i < count; i++) {
        PyObject *item = Py_BuildValue("(snn)", m[i].name, m[i].offset, m[i].size);
        if (!item) Py_CLEAR(out);
        else PyTuple_SET_ITEM(out, (Py_ssize_t)i, item);
    }
    return out ? Py_BuildValue("(Nn)", out, (Py_ssize_t)size) : NULL;
}

/* One member's (name, offset, size), followed by a comma for an initialiser list. */
#define LAYOUT_ITEM(T, m) \
    Py_BuildValue("(snn)", #m, (Py_ssize_t)offsetof(T, m), (Py_ssize_t)sizeof(((T *)0)->m)),

/* (items as a tuple, size); steals the items (NULL where one could not be made: then NULL, all released). */
static PyObject *layout_of(PyObject **items, size_t count, size_t size) {
    Py_ssize_t n = (Py_ssize_t)count;
    PyObject *out = PyTuple_New(n);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (out && items[i]) PyTuple_SET_ITEM(out, i, items[i]);
        else {
            Py_XDECREF(items[i]);
            Py_CLEAR(out);
        }
    }
    return out ? Py_BuildValue("(Nn)", out, (Py_ssize_t)size) : NULL;
}

#endif
