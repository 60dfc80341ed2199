/* Bit tricks and bitboards of any number of 64-bit words, for every compiled kernel: counts, the lowest and
 * the k-th set bit, shifts across words, and the flood fill of geometry.flood on a board with a row stride
 * (the squares of `pass` edge-connected to a seed). Word 0 holds bits 0..63, as the Python int's bits.
 *
 * The functions are static inline and take the word count: a kernel whose boards have a fixed size (Forma's
 * eight words) gets them unrolled for that size, one whose size varies (FORMFINITY's) passes its count. */
#ifndef POLYTABLE_BITS_H
#define POLYTABLE_BITS_H

#include <stdint.h>

#define BITS_MAXW 32 /* the most words a board of these functions has (2,048 bits) */

/* ------------------------------------------------------------------ one word */
static inline int bit_count64(uint64_t x) { return __builtin_popcountll(x); }
static inline int bit_low64(uint64_t x) { return __builtin_ctzll(x); } /* x != 0 */

/* The index of the k-th (0-based) set bit of x; k < bit_count64(x). */
static inline int bit_select64(uint64_t x, int k) {
    while (k--) x &= x - 1;
    return __builtin_ctzll(x);
}

/* ------------------------------------------------------------------ boards of nw words */
static inline int bits_any(const uint64_t *a, int nw) {
    uint64_t x = 0;
    for (int i = 0; i < nw; i++) x |= a[i];
    return x != 0;
}
static inline int bits_count(const uint64_t *a, int nw) {
    int c = 0;
    for (int i = 0; i < nw; i++) c += __builtin_popcountll(a[i]);
    return c;
}
static inline int bits_meets(const uint64_t *a, const uint64_t *b, int nw) {
    uint64_t x = 0;
    for (int i = 0; i < nw; i++) x |= a[i] & b[i];
    return x != 0;
}
/* The lowest set bit's index, or -1 when none. */
static inline int bits_low(const uint64_t *a, int nw) {
    for (int i = 0; i < nw; i++)
        if (a[i]) return 64 * i + __builtin_ctzll(a[i]);
    return -1;
}
/* The index of the k-th (0-based) set bit, or -1 when there are not that many. */
static inline int bits_select(const uint64_t *a, int nw, int k) {
    for (int i = 0; i < nw; i++) {
        int c = __builtin_popcountll(a[i]);
        if (k < c) return 64 * i + bit_select64(a[i], k);
        k -= c;
    }
    return -1;
}
/* o = a >> k (k >= 0); o may be a (each word is written after the words it reads). */
static inline void bits_shr(const uint64_t *a, int nw, int k, uint64_t *o) {
    int q = k >> 6, r = k & 63;
    for (int i = 0; i < nw; i++) {
        uint64_t lo = i + q < nw ? a[i + q] : 0, hi = i + q + 1 < nw ? a[i + q + 1] : 0;
        o[i] = r ? (lo >> r) | (hi << (64 - r)) : lo;
    }
}
/* o = a << k (k >= 0), the bits past the last word dropped; o may be a (as bits_shr). */
static inline void bits_shl(const uint64_t *a, int nw, int k, uint64_t *o) {
    int q = k >> 6, r = k & 63;
    for (int i = nw - 1; i >= 0; i--) {
        uint64_t hi = i - q >= 0 ? a[i - q] : 0, lo = i - q - 1 >= 0 ? a[i - q - 1] : 0;
        o[i] = r ? (hi << r) | (lo >> (64 - r)) : hi;
    }
}

/* geometry.flood: region = the squares of pass edge-connected (left, right: 1 bit; up, down: stride bits) to
 * seed & pass. pass must leave a guard column empty, so that a row's end does not touch the next row's start.
 * With a target, the fill stops as soon as the region meets it (then 1); else (or when it never does) 0.
 * region may be seed. nw <= BITS_MAXW. */
static inline int bits_flood(const uint64_t *seed, const uint64_t *pass, int nw, int stride, uint64_t *region,
                             const uint64_t *target) {
    uint64_t r[BITS_MAXW], a[BITS_MAXW], b[BITS_MAXW], c[BITS_MAXW], d[BITS_MAXW];
    for (int i = 0; i < nw; i++) r[i] = seed[i] & pass[i];
    int met = target != 0 && bits_meets(r, target, nw);
    while (!met) {
        bits_shl(r, nw, 1, a);
        bits_shr(r, nw, 1, b);
        bits_shl(r, nw, stride, c);
        bits_shr(r, nw, stride, d);
        uint64_t grew = 0;
        for (int i = 0; i < nw; i++) {
            uint64_t g = (r[i] | a[i] | b[i] | c[i] | d[i]) & pass[i];
            grew |= g ^ r[i];
            r[i] = g;
        }
        if (!grew) break;
        met = target != 0 && bits_meets(r, target, nw);
    }
    for (int i = 0; i < nw; i++) region[i] = r[i];
    return met;
}

#endif
