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
