/* Forma's compiled kernel: what its C units share (see _cforma.c for the whole and _native.py for its use).
 *
 * A board is the same Python int as in _pieces.py (row stride size + 4, guard columns empty), held as eight
 * 64-bit words; the small word operations, the generator and the geometry helpers are inline here.
 */
#ifndef POLYTABLE_CFORMA_H
#define POLYTABLE_CFORMA_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../../core/_bits.h"   /* bit tricks, shifts across words, the flood fill */
#include "../../core/_pylong.h" /* ints as bytes */
#include "../../core/_rng.h"    /* next_u64, below: the generator of core._rng */

#define NW 8 /* 512 bits: a 20 x 20 board with stride 24 needs 480 */
#define NO 91
#define NP 21
#define MAXOFF 5
#define MAXSIZE 20
#define MAXPLAYERS 4
#define TERMINAL (-4)
#define CHANCE (-1)
#define TRIES 6

typedef struct {
    uint64_t w[NW];
} B;

typedef struct {
    int size, stride, cells;
    B board, top, bottom, left, right;
    uint64_t row_mask;
    int nd, dist[64];
    int olen[NO], oidx[NO][MAXOFF], ooff[NO][MAXOFF];
    int nflat, flat_shift;
    uint8_t *flat_g;
    uint16_t *flat_pos;
} T;

/* A game in progress (a FormaState's fields the kernel plays with). */
typedef struct {
    int n, turn, moves, exact, touch, picked, misses, placing;
    uint64_t setup_rng; /* the set-up's random fill (FormaState.rng) */
    B obstacles, tower, filled, closed, watch, last;
    B pieces[MAXPLAYERS], markers[MAXPLAYERS];
    int stock[MAXPLAYERS][NP];
    long scores[MAXPLAYERS], bridges[MAXPLAYERS];
} S;

/* The playout's state buffer: a FormaState, the generators and the limits, written back with the end state.
 * The fields and their order are described once, in Python (_kernel.PLAYOUT, a core.StateLayout): C reports
 * each member's offset and size (layout()) and tests/kernel/test_layouts.py compares them. Boards are the
 * Python ints' little-endian bytes (8 * NW: a board of up to 20 x 20); every member is a multiple of 8 bytes,
 * so the struct has no padding. Players past `players` are zeros. */
#define BOARD_BYTES (8 * NW)
#define STOCK_BYTES 24 /* NP counts of at most 255, rounded up to 8 bytes */
typedef struct {
    int64_t size, players, turn, moves, exact, touch, picked, misses, placing;
    int64_t shared, max_actions, actions; /* one generator for all; -1: no limit; out: actions taken */
    uint64_t setup_rng, rngs[MAXPLAYERS];
    unsigned char obstacles[BOARD_BYTES], tower[BOARD_BYTES], filled[BOARD_BYTES], closed[BOARD_BYTES],
        watch[BOARD_BYTES], last[BOARD_BYTES];
    unsigned char pieces[MAXPLAYERS][BOARD_BYTES], markers[MAXPLAYERS][BOARD_BYTES];
    unsigned char stock[MAXPLAYERS][STOCK_BYTES]; /* each piece's count, then zeros */
    int64_t scores[MAXPLAYERS], bridges[MAXPLAYERS];
} PlayoutBuf;

/* X(member) for every member of PlayoutBuf, in order (layout() reports them). */
#define PLAYOUT_FIELDS(X)                                                                                          \
    X(size) X(players) X(turn) X(moves) X(exact) X(touch) X(picked) X(misses) X(placing) X(shared) X(max_actions) \
    X(actions) X(setup_rng) X(rngs) X(obstacles) X(tower) X(filled) X(closed) X(watch) X(last) X(pieces)          \
    X(markers) X(stock) X(scores) X(bridges)

/* X(member) for the board members, in order: playout() takes and returns them as Python ints. */
#define PLAYOUT_BOARDS(X) X(obstacles) X(tower) X(filled) X(closed) X(watch) X(last) X(pieces) X(markers)

extern T *forma_tabs[MAXSIZE + 1];
extern int orient_piece[NO], piece_size[NP], piece_first[NP + 1];

/* ------------------------------------------------------------------ words (core/_bits.h on eight) */
static inline int b_any(const B *a) { return bits_any(a->w, NW); }
static inline int b_count(const B *a) { return bits_count(a->w, NW); }
static inline void b_shr(const B *a, int k, B *o) { bits_shr(a->w, NW, k, o->w); }
static inline void b_shl(const B *a, int k, B *o) { bits_shl(a->w, NW, k, o->w); }
static inline int b_bit(const B *a, int i) { return (int)(a->w[i >> 6] >> (i & 63) & 1); }
static inline void b_set(B *a, int i) { a->w[i >> 6] |= 1ULL << (i & 63); }
static inline int b_eq(const B *a, const B *b) { return memcmp(a, b, sizeof(B)) == 0; }
static inline int b_intersects(const B *a, const B *b) { return bits_meets(a->w, b->w, NW); }
/* index of the k-th (0-based) set bit */
static inline int b_select(const B *a, int k) { return bits_select(a->w, NW, k); }
static inline int b_low(const B *a) { return bits_low(a->w, NW); }

/* ------------------------------------------------------------------ rules */

/* All distinct shifted copies of free: sh[d] = free >> dist[d]. */
static inline void shifts(const T *t, const B *free, B *sh) {
    for (int d = 0; d < t->nd; d++) b_shr(free, t->dist[d], &sh[d]);
}
static inline void anchors_of(const T *t, const B *sh, int g, B *out) {
    *out = sh[t->oidx[g][0]];
    for (int k = 1; k < t->olen[g]; k++) {
        const B *s = &sh[t->oidx[g][k]];
        for (int i = 0; i < NW; i++) out->w[i] &= s->w[i];
    }
}
static inline void enclosed(const T *t, const B *filled, const B *among, B *out) {
    B a, b, c, d;
    b_shl(filled, 1, &a);
    b_shr(filled, 1, &b);
    b_shl(filled, t->stride, &c);
    b_shr(filled, t->stride, &d);
    for (int i = 0; i < NW; i++)
        out->w[i] = among->w[i] & (a.w[i] | t->left.w[i]) & (b.w[i] | t->right.w[i]) & (c.w[i] | t->top.w[i]) &
                    (d.w[i] | t->bottom.w[i]);
}
static inline void neighbours(const T *t, const B *x, B *out) {
    B a, b, c, d;
    b_shl(x, 1, &a);
    b_shr(x, 1, &b);
    b_shl(x, t->stride, &c);
    b_shr(x, t->stride, &d);
    for (int i = 0; i < NW; i++) out->w[i] = (a.w[i] | b.w[i] | c.w[i] | d.w[i]) & t->board.w[i];
}

/* ------------------------------------------------------------------ _cforma_rules.c */
void forma_flood(const T *t, const B *seed, const B *pass, B *out);
int forma_count_moves(const T *t, const int *stock, const B *free, int only);
int forma_can_place(const T *t, const int *stock, const B *free);
int forma_sample_move(const T *t, const int *stock, const B *free, uint64_t *rng, int only, int *anchor);
void forma_placement_mask(const T *t, int g, int anchor, B *m);
long forma_effect(const T *t, const B *filled0, const B *watch, const B *obstacles, const B *tower, const B *closed0,
                  const B *own0, const B *mask, int size, B *filled, B *enc, B *closed, B *own, int *bound);
int forma_next_turn(const T *t, const S *s, const B *free, int player);
int forma_setup_draw(const T *t, const B *obstacles, const B *tower, int placing, uint64_t *rng, int chance,
                     int *bit);
int forma_run(const T *t, S *s, uint64_t *rng, int shared, int max_actions, int *actions);

/* ------------------------------------------------------------------ _cforma_bridges.c */
int forma_count_bridges(int n, const unsigned char *all, long out[3]);
void forma_cells_of(const T *t, const B *own, unsigned char *cells);
int forma_bridge_total(const T *t, const B *own, long *total);

/* ------------------------------------------------------------------ _cforma.c */
PyObject *forma_from_b(const B *b);

/* ------------------------------------------------------------------ the kernel's C interface for the AI
 * An extension above the rules (the AI's evaluator, ai/forma/_cforma_eval.c) includes this header downward
 * and reaches this extension's tables and rules through one capsule, the module attribute FORMA_API
 * (CPython's documented way for extensions to share C functions): nothing of the rules is compiled twice,
 * and the tables Python builds once (init) serve both. */
typedef struct {
    T *(*table)(int size); /* the tables of a board size, or NULL with an exception set */
    const int *piece_size, *piece_first;
    int (*to_b)(PyObject *v, B *b);
    int (*boards_in)(PyObject *seq, B *out, int n);
    int (*to_stock)(PyObject *o, int *stock);
    void (*flood)(const T *t, const B *seed, const B *pass, B *out);
    long (*effect)(const T *t, const B *filled0, const B *watch, const B *obstacles, const B *tower,
                   const B *closed0, const B *own0, const B *mask, int size, B *filled, B *enc, B *closed, B *own,
                   int *bound);
    int (*bridge_total)(const T *t, const B *own, long *total);
    void (*placement_mask)(const T *t, int g, int anchor, B *m);
} FormaAPI;
#define FORMA_API "polytable.games.forma._cforma.api"

#endif
