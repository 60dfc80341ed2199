/* Quadefy's compiled sampling and playout, without Python objects (included by _cquadefy.c only).
 *
 * Sampling repeats _moves.sample_placement draw for draw: the candidates (the hand's placements on empty
 * cells with a supported cube) in id order, Lemire's method on 32-bit halves, up to 24 rejections by one
 * orientation's rules, then the k-th legal placement in the order of _moves.legal_sets. Candidates are bit
 * sets over the placement ids: cover8[i][v] holds the placements with a cube in the cells given by value v
 * of byte i of the space, so a position's "meets an occupied cell" and "has a cube on the floor or on a
 * placed cube" sets are 8 lookups a word. A playout keeps both sets and adds the 4 cells of each placed
 * block (both only grow), and draws the next player's move right after a move: that draw also tells
 * whether the game is over (the rules' any_legal), and it is undone when there is no legal move, so the
 * generators advance exactly as in a game of random bots.
 */
#ifndef POLYTABLE_QUADEFY_KERNEL_H
#define POLYTABLE_QUADEFY_KERNEL_H
#include <stdint.h>
#include <string.h>

#include "quadefy_moves.h"
#include "../../core/_bits.h" /* bit_select64, bits_select */
#include "../../core/_rng.h"  /* next_u64, rng_seed_state: the generator of core._rng */

#define MAXP 2304
#define MAXO 128
#define NW QS_NW
#define TRIES 24

static int n_place = 0;
static uint64_t p_mask[MAXP];
static int p_block[MAXP], p_orient[MAXP], p_bit[MAXP];

/* _moves._below: uniform in [0, n) from 32-bit halves (Lemire) */
static inline int below32(uint64_t *s, uint64_t n) {
    uint64_t thresh = ((1ULL << 32) - n) % n;
    for (;;) {
        uint64_t v = next_u64(s);
        for (int i = 0; i < 2; i++) {
            uint64_t m = (v & 0xFFFFFFFFULL) * n;
            if ((m & 0xFFFFFFFFULL) >= thresh) return (int)(m >> 32);
            v >>= 32;
        }
    }
}

static inline uint64_t support_cells(uint64_t occ) { return (0xffffULL | occ << 16) & ~occ; }

/* The id of the k-th (0-based) set bit of bits, from word w. */
static inline int select_kth(const uint64_t bits[NW], int w, int k) {
    return 64 * w + bits_select(bits + w, NW - w, k);
}

/* _moves.sample_placement from the n candidates cand of hand rem: a placement id, or -1 when the hand
 * cannot move. The generator advances as in Python, except that with undo_if_none a -1 leaves it as it
 * was (the rules then never sample: the game is over). */
static int draw(uint64_t occ, int rem, int flags, uint64_t *rng, const uint64_t cand[NW], int n, int undo_if_none) {
    if (!n) return -1;
    int w0 = qs_first_word(rem);
    uint64_t r = *rng;
    int p = -1;
    if (!flags) {
        p = select_kth(cand, w0, below32(&r, (uint64_t)n));
    } else {
        /* A candidate that slides in along a straight line of empty cells is reachable (a path of the
         * flood fill): with reachability alone that decides most draws without the orientation's rules. */
        uint64_t bits[MAXO][4], occ_p[8], sup_p[8];
        unsigned char seen[MAXO];
        int boards = 0;
        memset(seen, 0, sizeof seen);
        for (int t = 0; t < TRIES && p < 0; t++) {
            int q = select_kth(cand, w0, below32(&r, (uint64_t)n));
            if (flags == 1 && qs_straight_in(q, occ)) {
                p = q;
                break;
            }
            int o = p_orient[q];
            if (!seen[o]) {
                if (!boards) qs_boards(occ, occ_p, sup_p);
                boards = 1;
                qs_orient_legal_at(o, occ_p, sup_p, flags, bits[o]);
                seen[o] = 1;
            }
            if (bits[o][p_bit[q] >> 6] >> (p_bit[q] & 63) & 1) p = q;
        }
        if (p < 0) {
            int pids[QS_MAXMOVES];
            int count = qs_legal(occ, rem, flags, pids);
            if (count) p = pids[below32(&r, (uint64_t)count)];
        }
    }
    if (p >= 0 || !undo_if_none) *rng = r;
    return p;
}

/* A uniformly random legal placement for hand rem (_moves.sample_placement), or -1. */
static int sample(uint64_t occ, int rem, int flags, uint64_t *rng) {
    uint64_t blk[NW], sup[NW], cand[NW];
    qs_covers(occ, rem, blk, sup);
    return draw(occ, rem, flags, rng, cand, qs_candidates(rem, blk, sup, cand), 0);
}

/* Why placement p is illegal in position occ (the order and the tests of _moves.reason): 0 legal,
 * 1 overlap, 2 floats, 3 topples (stability), 4 unreachable. */
static int why_illegal(uint64_t occ, int p, int flags) {
    if (p_mask[p] & occ) return 1;
    if (!(p_mask[p] & support_cells(occ))) return 2;
    if (flags == 1 && qs_straight_in(p, occ)) return 0; /* slid straight in */
    uint64_t bits[4];
    int w = p_bit[p] >> 6, b = p_bit[p] & 63;
    if (flags & 2) {
        qs_orient_legal(p_orient[p], occ, 2, bits);
        if (!(bits[w] >> b & 1)) return 3;
    }
    if (flags & 1) {
        qs_orient_legal(p_orient[p], occ, flags, bits);
        if (!(bits[w] >> b & 1)) return 4;
    }
    return 0;
}

typedef struct {
    uint64_t occ, own[2];
    int rem[2], to_move, loser;
} QPos;

/* Random placements from s until the game ends or max_actions (< 0: no limit) are taken, player p drawing
 * from rng[shared ? 0 : p]; the placements go to pids (16 at most). blk and sup are qs_covers(s->occ) on the
 * words of both hands (they are updated). Returns how many, or -1 when the player to move at the start
 * has no legal placement although the game is not over. */
static int run_playout(QPos *s, int flags, uint64_t rng[2], int shared, int max_actions, int *pids, uint64_t blk[NW],
                       uint64_t sup[NW]) {
    uint64_t cand[NW];
    int taken = 0, next = -1;
    while (s->loser < 0 && (max_actions < 0 || taken < max_actions)) {
        int p = s->to_move;
        int pid = next;
        if (pid < 0) {
            pid = draw(s->occ, s->rem[p], flags, &rng[shared ? 0 : p], cand,
                       qs_candidates(s->rem[p], blk, sup, cand), 0);
            if (pid < 0) return -1;
        }
        uint64_t m = p_mask[pid];
        s->occ |= m;
        s->own[p] |= m;
        s->rem[p] &= ~(1 << p_block[pid]);
        pids[taken++] = pid;
        qs_covers_add(m, s->rem[0] | s->rem[1], blk, sup);
        int nxt = 1 - p;
        s->to_move = nxt;
        if (max_actions >= 0 && taken >= max_actions) {
            s->loser = qs_any(s->occ, s->rem[nxt], flags) ? -1 : nxt;
            break;
        }
        next = draw(s->occ, s->rem[nxt], flags, &rng[shared ? 0 : nxt], cand,
                    qs_candidates(s->rem[nxt], blk, sup, cand), 1);
        if (next < 0) s->loser = nxt;
    }
    return taken;
}

#endif
