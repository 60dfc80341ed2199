/* Shared by the extensions that hold a copy of the Quadefy move generator (_cquadefy.c, and the solver's
 * ai/_native/_qsolve.c): reading the Python tables into qs_init. Included, not linked: each extension
 * has its own static tables. */
#ifndef POLYTABLE_QUADEFY_PYINIT_H
#define POLYTABLE_QUADEFY_PYINIT_H
#include <Python.h>

#include "quadefy_moves.h"

/* A Python sequence of ints into a fresh C array of `width`-byte integers (signed unless u64). */
static void *int_array(PyObject *seq, Py_ssize_t *len, int width, int is_u64) {
    PyObject *fast = PySequence_Fast(seq, "expected a sequence of ints");
    if (!fast) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    void *out = PyMem_Calloc(n ? n : 1, width);
    if (!out) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
        if (is_u64) {
            unsigned long long v = PyLong_AsUnsignedLongLong(item);
            ((uint64_t *)out)[i] = v;
        } else {
            long v = PyLong_AsLong(item);
            if (width == 4) ((int *)out)[i] = (int)v;
            else if (width == 2) ((int16_t *)out)[i] = (int16_t)v;
            else ((uint8_t *)out)[i] = (uint8_t)v;
        }
        if (PyErr_Occurred()) {
            PyMem_Free(out);
            Py_DECREF(fast);
            return NULL;
        }
    }
    Py_DECREF(fast);
    *len = n;
    return out;
}

/* qs_init from the Python tables (see export_tables): 0, or -1 with an exception set. */
static int qs_init_from(PyObject *args) {
    PyObject *o_block, *o_off, *o_masks, *o_sub, *o_pat, *o_pmask, *o_pblock, *o_perm;
    int sl, sr;
    if (!PyArg_ParseTuple(args, "OOOOOOOOii", &o_block, &o_off, &o_masks, &o_sub, &o_pat, &o_pmask, &o_pblock,
                          &o_perm, &sl, &sr))
        return -1;
    Py_ssize_t no, n2, n3, n4, n5, np, n7, n8;
    int *ob = NULL, *ooff = NULL, *osub = NULL, *pb = NULL;
    uint64_t *om = NULL, *pm = NULL;
    int16_t *pat = NULL;
    uint8_t *perm = NULL;
    int ret = -1;
    if (!(ob = int_array(o_block, &no, 4, 0)) || !(ooff = int_array(o_off, &n2, 4, 0)) ||
        !(om = int_array(o_masks, &n3, 8, 1)) || !(osub = int_array(o_sub, &n4, 4, 0)) ||
        !(pat = int_array(o_pat, &n5, 2, 0)) || !(pm = int_array(o_pmask, &np, 8, 1)) ||
        !(pb = int_array(o_pblock, &n7, 4, 0)) || !(perm = int_array(o_perm, &n8, 1, 0)))
        goto out;
    if (n2 != 4 * no || n3 != 12 * no || n4 != 5 * QS_MAXSUB * no || n5 != 256 * no || n7 != np || n8 != 512) {
        PyErr_SetString(PyExc_ValueError, "the Quadefy tables have inconsistent lengths");
        goto out;
    }
    if (qs_init((int)no, ob, ooff, om, osub, pat, (int)np, pm, pb, perm, sl, sr) != 0) {
        PyErr_SetString(PyExc_ValueError, "the native solver rejected the tables");
        goto out;
    }
    ret = 0;
out:
    PyMem_Free(ob);
    PyMem_Free(ooff);
    PyMem_Free(om);
    PyMem_Free(osub);
    PyMem_Free(pat);
    PyMem_Free(pm);
    PyMem_Free(pb);
    PyMem_Free(perm);
    return ret;
}

#endif
