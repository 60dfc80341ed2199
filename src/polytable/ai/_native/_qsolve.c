/* polytable.ai._native._qsolve: the Python face of the Quadefy solver (quadefy_solve.c).
 *
 * Plain C against the CPython API, built by setuptools with the package (see setup.py). The functions
 * take and return Python ints and lists; the wrapper class NativeQuadefy in __init__.py gives them their
 * Python-friendly shape and the lock that guards the solver's global tables. The solver runs with the GIL
 * held: its callbacks (checkpoint lines, progress) are Python callables, and a failing callback stops the
 * search and raises its exception.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "../../games/quadefy/quadefy_pyinit.h"
#include "quadefy_solve.h"

static int initialised = 0;
static PyObject *cb_record = NULL, *cb_progress = NULL;

static PyObject *py_init(PyObject *self, PyObject *args) {
    if (qs_init_from(args) < 0) return NULL;
    initialised = 1;
    Py_RETURN_NONE;
}

static int ready(void) {
    if (!initialised) PyErr_SetString(PyExc_RuntimeError, "call init() with the Quadefy tables first");
    return initialised;
}

static PyObject *py_legal(PyObject *self, PyObject *args) {
    unsigned long long occ;
    int hand, flags;
    if (!PyArg_ParseTuple(args, "Kii", &occ, &hand, &flags) || !ready()) return NULL;
    int pids[QS_MAXMOVES];
    int n = qs_legal(occ, hand & 255, flags, pids);
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(pids[i]));
    return out;
}

static PyObject *py_count(PyObject *self, PyObject *args) {
    unsigned long long occ;
    int hand, flags;
    if (!PyArg_ParseTuple(args, "Kii", &occ, &hand, &flags) || !ready()) return NULL;
    return PyLong_FromLong(qs_count(occ, hand & 255, flags));
}

static PyObject *py_canon(PyObject *self, PyObject *args) {
    unsigned long long occ;
    int me, opp;
    if (!PyArg_ParseTuple(args, "Kii", &occ, &me, &opp) || !ready()) return NULL;
    uint64_t lo;
    int hi;
    qs_canon(occ, me & 255, opp & 255, &lo, &hi);
    return Py_BuildValue("(Ki)", (unsigned long long)lo, hi);
}

static PyObject *py_tt_alloc(PyObject *self, PyObject *args) {
    int log2;
    if (!PyArg_ParseTuple(args, "i", &log2)) return NULL;
    if (log2 < 4 || log2 > 40) {
        PyErr_SetString(PyExc_ValueError, "table size out of range");
        return NULL;
    }
    if (qs_tt_alloc(log2) != 0) return PyErr_NoMemory();
    return Py_NewRef(Py_None);
}

static PyObject *py_tt_clear(PyObject *self, PyObject *noargs) {
    qs_tt_clear();
    return Py_NewRef(Py_None);
}

static PyObject *py_tt_put(PyObject *self, PyObject *args) {
    unsigned long long lo;
    int hi, val;
    if (!PyArg_ParseTuple(args, "Kii", &lo, &hi, &val)) return NULL;
    qs_tt_put(lo, hi, val);
    return Py_NewRef(Py_None);
}

static void record_tramp(uint64_t lo, int hi, int val) {
    if (!cb_record || PyErr_Occurred()) return;
    PyObject *r = PyObject_CallFunction(cb_record, "Kii", (unsigned long long)lo, hi, val);
    if (!r) qs_abort();
    Py_XDECREF(r);
}

static void progress_tramp(int ply, int done, int total) {
    if (!cb_progress || PyErr_Occurred()) return;
    PyObject *r = PyObject_CallFunction(cb_progress, "iii", ply, done, total);
    if (!r) qs_abort();
    Py_XDECREF(r);
}

static PyObject *py_solve(PyObject *self, PyObject *args) {
    unsigned long long occ;
    int me, opp, flags, ply, use_tt, persist, dedup, cpu = 0;
    double max_seconds;
    long long max_nodes;
    PyObject *rec, *prog;
    if (!PyArg_ParseTuple(args, "KiiiiidLiiOO|p", &occ, &me, &opp, &flags, &ply, &use_tt, &max_seconds, &max_nodes,
                          &persist, &dedup, &rec, &prog, &cpu) ||
        !ready())
        return NULL;
    if (ply < 0 || ply >= QS_MAXPLY) {
        PyErr_SetString(PyExc_ValueError, "ply out of range");
        return NULL;
    }
    cb_record = rec == Py_None ? NULL : rec;
    cb_progress = prog == Py_None ? NULL : prog;
    int best = -1;
    int r = qs_solve(occ, me & 255, opp & 255, flags, ply, use_tt, max_seconds, cpu, max_nodes, persist, dedup,
                     cb_record ? record_tramp : NULL, cb_progress ? progress_tramp : NULL, &best);
    cb_record = cb_progress = NULL;
    if (PyErr_Occurred()) return NULL;
    return Py_BuildValue("(ii)", r, best);
}

static PyObject *py_now(PyObject *self, PyObject *args) {
    int cpu = 0;
    if (!PyArg_ParseTuple(args, "|p", &cpu)) return NULL;
    return PyFloat_FromDouble(qs_now(cpu));
}

static PyObject *py_stats(PyObject *self, PyObject *noargs) {
    int64_t buf[4 + 2 * QS_MAXPLY];
    qs_stats(buf);
    PyObject *out = PyList_New(4 + 2 * QS_MAXPLY);
    if (!out) return NULL;
    for (int i = 0; i < 4 + 2 * QS_MAXPLY; i++) PyList_SET_ITEM(out, i, PyLong_FromLongLong(buf[i]));
    return out;
}

static PyObject *py_reset_stats(PyObject *self, PyObject *noargs) {
    qs_reset_stats();
    return Py_NewRef(Py_None);
}

static PyObject *py_path(PyObject *self, PyObject *noargs) {
    int buf[3 * 64];
    int n = qs_path(buf);
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(out, i, Py_BuildValue("(iii)", buf[3 * i], buf[3 * i + 1], buf[3 * i + 2]));
    return out;
}

static PyMethodDef methods[] = {
    {"init", py_init, METH_VARARGS, "Copy the rules tables (see export_tables)."},
    {"legal", py_legal, METH_VARARGS, "legal(occ, hand, flags) -> placement ids in rules order."},
    {"count", py_count, METH_VARARGS, "count(occ, hand, flags) -> number of legal placements."},
    {"canon", py_canon, METH_VARARGS, "canon(occ, me, opp) -> (lo, hi) canonical key parts."},
    {"tt_alloc", py_tt_alloc, METH_VARARGS, "tt_alloc(log2_entries): (re)allocate the transposition table."},
    {"tt_clear", py_tt_clear, METH_NOARGS, "Empty the transposition tables."},
    {"tt_put", py_tt_put, METH_VARARGS, "tt_put(lo, hi, value): keep a proven position for good."},
    {"solve", py_solve, METH_VARARGS, "solve(...) -> (1 win / 0 loss / -1 stopped, best placement or -1)."},
    {"now", py_now, METH_VARARGS, "now(cpu=False) -> seconds on the clock solve reads its budget from."},
    {"stats", py_stats, METH_NOARGS, "Counters: nodes, tt hits, tt stores, pinned, then (count, nodes) per ply."},
    {"reset_stats", py_reset_stats, METH_NOARGS, "Zero the node counters."},
    {"path", py_path, METH_NOARGS, "Where a stopped search was: (ply, done, total) per tracked level."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_qsolve", "The compiled Quadefy solver.", -1, methods};

PyMODINIT_FUNC PyInit__qsolve(void) { return PyModule_Create(&moduledef); }
