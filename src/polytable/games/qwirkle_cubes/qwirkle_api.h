/* Qwirkle Cubes' compiled kernel (_cqwirkle) as a C interface for an extension above the rules: the AI's
 * evaluation (ai/qwirkle_cubes/_cqwirkle_eval.c) includes this header downward and reaches the kernel's table
 * (the one loaded for the last `placed`), its placement walk and scoring through one capsule, the module
 * attribute QWIRKLE_API (CPython's documented way for extensions to share C functions): nothing of the
 * rules is compiled twice, and both extensions read the same table.
 */
#ifndef QWIRKLE_API_H
#define QWIRKLE_API_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "qwirkle_rules.h"

typedef struct {
    QBoard *(*board_of)(PyObject *placed); /* the table of `placed`, or NULL with an exception set */
    long long (*walk)(const QBoard *b, QWalk *w);
    int (*score)(const QBoard *b, const int *cells, int n, int *qwirkles);
    uint64_t (*colour_offer)(const int *left);
    int (*set_hand)(QWalk *w, unsigned long long hand);
    int (*int_seq)(PyObject *seq, int *out, Py_ssize_t n, const char *what);
    PyObject *(*cubes_tuple)(const int *faces, const int *cells, int k);
    int (*append_new)(PyObject *list, PyObject *item);
} QwirkleAPI;
#define QWIRKLE_API "polytable.games.qwirkle_cubes._cqwirkle.api"

#endif
