/* Quadefy's move generator and canonical keys (the interface: quadefy_moves.h), included by one file of each
 * extension that needs it (its tables are static): quadefy_moves.c for the game's kernel, the solver's
 * ai/_native/quadefy_solve.c.
 *
 * The rules are NOT defined here: qs_init copies the tables Python passes (see _native.export_tables). This
 * mirrors the bit logic of polytable.games.quadefy._moves.orient_legal (overlap, support or stability,
 * reachability flood fill) on four 64-bit words, one per layer of the 256-bit padded board.
 */
#ifndef POLYTABLE_QUADEFY_GEN_H
#define POLYTABLE_QUADEFY_GEN_H
#include <stdint.h>
#include <string.h>

#include "../../core/_bits.h" /* bits_flood_layers: the reachability fill */
#include "quadefy_moves.h"

#define REACH 1
#define STABLE 2
#define MAXO 128
#define MAXP 2304
#define MAXMOVES 1024 /* more than the 761 legal moves of the empty cube */
#define MAXSUB 24
#define MAXPLY 20
#if (MAXP + 63) / 64 != QS_NW
#error "QS_NW must be the words of MAXP placement bits"
#endif

static int n_orient, n_place;
static int o_block[MAXO];
static int o_kxy[MAXO][4], o_kz[MAXO][4];
static uint64_t o_inside[MAXO][4], o_box[MAXO][4], o_seed[MAXO][4];
static int o_nsub[MAXO];
static int o_nw[MAXO]; /* layers with inside translations */
static int o_sublen[MAXO][MAXSUB];
static int o_subxy[MAXO][MAXSUB][4], o_subz[MAXO][MAXSUB][4];
static int16_t place_at[MAXO][256];
static uint64_t p_mask[MAXP];
static int p_block[MAXP];
static int block_first[9];
static uint64_t sym_tab[8][8][256];
static int screw_l, screw_r;

#include "quadefy_cover.h"

int qs_init(int no, const int *oblock, const int *ooff, const uint64_t *omasks, const int *osub, const int16_t *pat,
            int np, const uint64_t *pmask, const int *pblock, const uint8_t *perm, int sl, int sr) {
    if (no > MAXO || np > MAXP) return -1;
    n_orient = no;
    n_place = np;
    for (int o = 0; o < no; o++) {
        o_block[o] = oblock[o];
        for (int k = 0; k < 4; k++) {
            int off = ooff[4 * o + k];
            o_kz[o][k] = off / 64;
            o_kxy[o][k] = off % 64;
        }
        o_nw[o] = 0;
        for (int w = 0; w < 4; w++) {
            o_inside[o][w] = omasks[12 * o + w];
            if (o_inside[o][w]) o_nw[o] = w + 1;
            o_box[o][w] = omasks[12 * o + 4 + w];
            o_seed[o][w] = omasks[12 * o + 8 + w];
        }
        /* osub: per orientation MAXSUB subsets of 5 ints: length, then up to 4 offsets */
        int ns = 0;
        for (int s = 0; s < MAXSUB; s++) {
            const int *e = osub + (o * MAXSUB + s) * 5;
            if (e[0] <= 0) break;
            o_sublen[o][s] = e[0];
            for (int k = 0; k < e[0]; k++) {
                o_subz[o][s][k] = e[1 + k] / 64;
                o_subxy[o][s][k] = e[1 + k] % 64;
            }
            ns++;
        }
        o_nsub[o] = ns;
        for (int i = 0; i < 256; i++) place_at[o][i] = pat[256 * o + i];
    }
    for (int p = 0; p < np; p++) {
        p_mask[p] = pmask[p];
        p_block[p] = pblock[p];
    }
    for (int b = 0; b <= 8; b++) block_first[b] = no;
    for (int o = no - 1; o >= 0; o--) block_first[o_block[o]] = o;
    for (int b = 7; b >= 0; b--)
        if (block_first[b] > block_first[b + 1]) block_first[b] = block_first[b + 1];
    for (int t = 0; t < 8; t++)
        for (int i = 0; i < 8; i++)
            for (int v = 0; v < 256; v++) {
                uint64_t m = 0;
                for (int j = 0; j < 8; j++)
                    if (v >> j & 1) m |= 1ULL << perm[64 * t + 8 * i + j];
                sym_tab[t][i][v] = m;
            }
    screw_l = sl;
    screw_r = sr;
    build_cover_tables();
    return 0;
}

/* The padded board of a 64-bit cell set: four words (one per layer), then four zero words, so that a
 * cube offset's layer shift never needs a bounds test. */
static inline void embed(uint64_t c, uint64_t out[8]) {
    for (int z = 0; z < 4; z++) {
        uint64_t l = c >> (16 * z) & 0xffff;
        out[z] = (l & 15) << 27 | (l >> 4 & 15) << 35 | (l >> 8 & 15) << 43 | (l >> 12 & 15) << 51;
        out[z + 4] = 0;
    }
}

static inline uint64_t support_cells(uint64_t occ) { return (0xffffULL | occ << 16) & ~occ; }

/* OR over the orientation's cubes of board word (w + cube layer) shifted by the cube's in-layer offset:
 * the translations in layer w where some cube meets a set cell of `board`. */
static inline uint64_t hits(int o, const uint64_t board[8], int w) {
    return board[w + o_kz[o][0]] >> o_kxy[o][0] | board[w + o_kz[o][1]] >> o_kxy[o][1] |
           board[w + o_kz[o][2]] >> o_kxy[o][2] | board[w + o_kz[o][3]] >> o_kxy[o][3];
}

/* The legal translations of orientation o (mirrors _moves.orient_legal); returns nonzero when any.
 * occ_p and sup_p are embedded boards (8 words). Only the o_nw[o] lowest layers hold translations that
 * keep the block inside; the layers above matter only to reachability, and are computed only then. */
static inline int orient_legal(int o, const uint64_t occ_p[8], const uint64_t sup_p[8], int flags, uint64_t out[4]) {
    uint64_t blk[4], cand[4] = {0, 0, 0, 0}, any = 0;
    int nw = o_nw[o];
    for (int w = 0; w < nw; w++) {
        uint64_t b = hits(o, occ_p, w);
        blk[w] = b;
        uint64_t c = o_inside[o][w] & ~b;
        if (!c) continue;
        if (flags & STABLE) {
            uint64_t st = 0;
            for (int j = 0; j < o_nsub[o]; j++) {
                uint64_t m = c;
                for (int k = 0; k < o_sublen[o][j]; k++) m &= sup_p[w + o_subz[o][j][k]] >> o_subxy[o][j][k];
                st |= m;
            }
            c = st;
        } else {
            c &= hits(o, sup_p, w);
        }
        cand[w] = c;
        any |= c;
    }
    if (!any) return 0;
    if (!(flags & REACH)) {
        memcpy(out, cand, sizeof cand);
        return 1;
    }
    for (int w = nw; w < 4; w++) blk[w] = hits(o, occ_p, w);
    uint64_t fr[4], r[4];
    for (int w = 0; w < 4; w++) {
        fr[w] = o_box[o][w] & ~blk[w];
        r[w] = fr[w] & o_seed[o][w];
    }
    /* straight drops from above first (most placements are reached so) */
    for (int w = 2; w >= 0; w--) r[w] |= fr[w] & r[w + 1];
    uint64_t miss = 0;
    for (int w = 0; w < 4; w++) miss |= cand[w] & ~r[w];
    if (!miss) {
        memcpy(out, cand, sizeof cand);
        return 1;
    }
    bits_flood_layers(r, fr, 4, cand);
    any = 0;
    for (int w = 0; w < 4; w++) {
        out[w] = cand[w] & r[w];
        any |= out[w];
    }
    return any != 0;
}

/* Every legal placement id of hand `hand`, in the order of _moves.placement_ids; returns the count. */
int qs_legal(uint64_t occ, int hand, int flags, int *pids) {
    uint64_t occ_p[8], sup_p[8], bits[4];
    embed(occ, occ_p);
    embed(support_cells(occ), sup_p);
    int n = 0;
    for (int b = 0; b < 8; b++) {
        if (!(hand >> b & 1)) continue;
        for (int o = block_first[b]; o < block_first[b + 1]; o++) {
            if (!orient_legal(o, occ_p, sup_p, flags, bits)) continue;
            for (int w = 0; w < 4; w++) {
                uint64_t x = bits[w];
                while (x) {
                    pids[n++] = place_at[o][64 * w + __builtin_ctzll(x)];
                    x &= x - 1;
                }
            }
        }
    }
    return n;
}

int qs_count(uint64_t occ, int hand, int flags) {
    uint64_t occ_p[8], sup_p[8], bits[4];
    embed(occ, occ_p);
    embed(support_cells(occ), sup_p);
    int n = 0;
    for (int b = 0; b < 8; b++) {
        if (!(hand >> b & 1)) continue;
        for (int o = block_first[b]; o < block_first[b + 1]; o++)
            if (orient_legal(o, occ_p, sup_p, flags, bits))
                n += __builtin_popcountll(bits[0]) + __builtin_popcountll(bits[1]) + __builtin_popcountll(bits[2]) +
                     __builtin_popcountll(bits[3]);
    }
    return n;
}

/* Whether hand `hand` can place anything (stops at the first orientation that fits). */
int qs_any(uint64_t occ, int hand, int flags) {
    uint64_t occ_p[8], sup_p[8], bits[4];
    embed(occ, occ_p);
    embed(support_cells(occ), sup_p);
    for (int b = 0; b < 8; b++) {
        if (!(hand >> b & 1)) continue;
        for (int o = block_first[b]; o < block_first[b + 1]; o++)
            if (orient_legal(o, occ_p, sup_p, flags, bits)) return 1;
    }
    return 0;
}

/* The padded legal translations of one orientation (4 words), as _moves.orient_legal. */
/* The padded boards of occ and of its support cells, for qs_orient_legal_at. */
void qs_boards(uint64_t occ, uint64_t occ_p[8], uint64_t sup_p[8]) {
    embed(occ, occ_p);
    embed(support_cells(occ), sup_p);
}

/* qs_orient_legal on boards made by qs_boards (several orientations of one position). */
void qs_orient_legal_at(int o, const uint64_t occ_p[8], const uint64_t sup_p[8], int flags, uint64_t out[4]) {
    if (!orient_legal(o, occ_p, sup_p, flags, out)) memset(out, 0, 4 * sizeof(uint64_t));
}

void qs_orient_legal(int o, uint64_t occ, int flags, uint64_t out[4]) {
    uint64_t occ_p[8], sup_p[8];
    embed(occ, occ_p);
    embed(support_cells(occ), sup_p);
    if (!orient_legal(o, occ_p, sup_p, flags, out)) memset(out, 0, 4 * sizeof(uint64_t));
}

static inline int swap_screws(int h) {
    int keep = h & ~((1 << screw_l) | (1 << screw_r)) & 255;
    return keep | (h >> screw_l & 1) << screw_r | (h >> screw_r & 1) << screw_l;
}

/* The canonical key (as _symmetry.canonical_key): lo = cells, hi = me | opp << 8, smallest over 8 images. */
static inline void canon(uint64_t occ, int me, int opp, uint64_t *lo, int *hi) {
    uint64_t blo = occ;
    int hands = me | opp << 8;
    int mirrored = swap_screws(me) | swap_screws(opp) << 8;
    int bhi = hands;
    for (int t = 1; t < 8; t++) {
        uint64_t img = 0;
        for (int i = 0; i < 8; i++) img |= sym_tab[t][i][occ >> (8 * i) & 255];
        int h = t >= 4 ? mirrored : hands;
        if (h < bhi || (h == bhi && img < blo)) {
            bhi = h;
            blo = img;
        }
    }
    *lo = blo;
    *hi = bhi;
}

void qs_canon(uint64_t occ, int me, int opp, uint64_t *lo, int *hi) { canon(occ, me, opp, lo, hi); }

#endif
