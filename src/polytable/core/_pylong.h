/* Python ints as little-endian bytes for the compiled kernels: the one place they reach into CPython for
 * it. Python 3.13 has a public API for both directions (PyLong_AsNativeBytes, PyLong_FromUnsignedNativeBytes);
 * before it only the long-standing private helpers exist, so they are used here and nowhere else. The bit
 * length and the sign have no public C function before 3.14 (_PyLong_NumBits, _PyLong_Sign: here too). */
#ifndef POLYTABLE_PYLONG_H
#define POLYTABLE_PYLONG_H

#include <Python.h>
#include <stdint.h>

/* A non-negative int into n little-endian bytes: 0, or -1 with OverflowError (negative, or too large:
 * `what` names the thing, on 3.13; the older helper says "int too big to convert"). */
static inline int pylong_to_bytes(PyObject *v, unsigned char *buf, size_t n, const char *what) {
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t r = PyLong_AsNativeBytes(v, buf, (Py_ssize_t)n,
                                        Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
                                            Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (r < 0) return -1;
    if (r > (Py_ssize_t)n) {
        PyErr_Format(PyExc_OverflowError, "%s too large", what);
        return -1;
    }
    return 0;
#else
    (void)what;
    return _PyLong_AsByteArray((PyLongObject *)v, buf, n, 1, 0);
#endif
}

/* The non-negative int of n little-endian bytes (a new reference, or NULL with an exception). */
static inline PyObject *pylong_from_bytes(const unsigned char *buf, size_t n) {
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromUnsignedNativeBytes(buf, (Py_ssize_t)n, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    return _PyLong_FromByteArray(buf, n, 1, 0);
#endif
}

/* The bit length of an int (its magnitude's), or (size_t)-1 with an exception. */
static inline size_t pylong_bits(PyObject *v) { return _PyLong_NumBits(v); }

/* Whether an int is negative (no public C function before 3.14). */
static inline int pylong_negative(PyObject *v) { return _PyLong_Sign(v) < 0; }

#endif
