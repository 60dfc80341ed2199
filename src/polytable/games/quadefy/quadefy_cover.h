/* Candidate placements as bit sets over placement ids (included by quadefy_gen.h; static tables).
 *
 * cover8[i][v] holds the placements with a cube in the cells given by value v of byte i of the space, so
 * a position's "meets an occupied cell" set (blk) and "has a cube on the floor or right above an occupied
 * cell" set (sup) are 8 lookups a word. sup & ~blk, within a hand's placements, is _moves.candidates: a
 * placement whose support cube is occupied meets the occupied cells. Both sets only grow as blocks are
 * placed, so a child's sets are its parent's plus the covers of the 4 new cells. Without reachability and
 * stability the candidates are the legal placements; with reachability alone, a candidate that slides in
 * along a straight line of empty cells (p_line) is reachable; the others take their orientation's rules.
 * Placement ids run by block, orientation, then layer, row, column: the order of qs_legal.
 */
#ifndef POLYTABLE_QUADEFY_COVER_H
#define POLYTABLE_QUADEFY_COVER_H
#include <stdint.h>
#include <string.h>

#define NW ((MAXP + 63) / 64)

static uint64_t cover8[8][256][NW];
static uint64_t hand_ids[256][NW];     /* the placements of the blocks of a hand */
static int hand_w0[256], hand_w1[256]; /* the words where a hand's placements are */
/* the cells the block sweeps when it is slid straight in: from the top, from -x, +x, -y, +y */
static uint64_t p_line[MAXP][5];
static int p_orient[MAXP], p_bit[MAXP]; /* a placement's orientation and padded translation bit */

static void build_cell_tables(void);

static void build_cover_tables(void) {
    memset(cover8, 0, sizeof cover8);
    memset(hand_ids, 0, sizeof hand_ids);
    for (int p = 0; p < n_place; p++) {
        for (int i = 0; i < 8; i++)
            for (int v = 1; v < 256; v++)
                if (p_mask[p] >> (8 * i) & (uint64_t)v) cover8[i][v][p >> 6] |= 1ULL << (p & 63);
        for (int h = 0; h < 256; h++)
            if (h >> p_block[p] & 1) hand_ids[h][p >> 6] |= 1ULL << (p & 63);
        memset(p_line[p], 0, sizeof p_line[p]);
        for (uint64_t x = p_mask[p]; x; x &= x - 1) {
            int c = __builtin_ctzll(x), cx = c & 3, cy = c >> 2 & 3, cz = c >> 4;
            for (int z = cz + 1; z < 4; z++) p_line[p][0] |= 1ULL << (c + 16 * (z - cz));
            for (int i = 0; i < 4; i++) {
                if (i < cx) p_line[p][1] |= 1ULL << (c - (cx - i));
                if (i > cx) p_line[p][2] |= 1ULL << (c + (i - cx));
                if (i < cy) p_line[p][3] |= 1ULL << (c - 4 * (cy - i));
                if (i > cy) p_line[p][4] |= 1ULL << (c + 4 * (i - cy));
            }
        }
    }
    for (int o = 0; o < n_orient; o++)
        for (int i = 0; i < 256; i++)
            if (place_at[o][i] >= 0) {
                p_orient[place_at[o][i]] = o;
                p_bit[place_at[o][i]] = i;
            }
    for (int h = 0; h < 256; h++) {
        hand_w0[h] = NW;
        hand_w1[h] = 0;
        for (int w = 0; w < NW; w++)
            if (hand_ids[h][w]) {
                if (hand_w0[h] == NW) hand_w0[h] = w;
                hand_w1[h] = w + 1;
            }
    }
    build_cell_tables();
}

/* blk and sup of position occ on words [w0, w1) */
static inline void covers(uint64_t occ, int w0, int w1, uint64_t blk[NW], uint64_t sup[NW]) {
    uint64_t above = 0xffffULL | occ << 16;
    for (int w = w0; w < w1; w++) {
        uint64_t b = 0, s = 0;
        for (int i = 0; i < 8; i++) {
            b |= cover8[i][occ >> (8 * i) & 255][w];
            s |= cover8[i][above >> (8 * i) & 255][w];
        }
        blk[w] = b;
        sup[w] = s;
    }
}

/* covers() after the cells of mask are occupied too (words [w0, w1)) */
static inline void covers_add(uint64_t mask, int w0, int w1, uint64_t blk[NW], uint64_t sup[NW]) {
    for (uint64_t x = mask; x; x &= x - 1) {
        int c = __builtin_ctzll(x);
        const uint64_t *b = cover8[c >> 3][1 << (c & 7)];
        for (int w = w0; w < w1; w++) blk[w] |= b[w];
        if (c < 48) {
            const uint64_t *s = cover8[(c + 16) >> 3][1 << (c & 7)];
            for (int w = w0; w < w1; w++) sup[w] |= s[w];
        }
    }
}

/* The placements meeting cell c (cell_blk) and those with a cube right above cell c (cell_sup, none for
 * the top layer): the single-cell rows of cover8, packed together for covers_child. */
static uint64_t cell_blk[64][NW], cell_sup[64][NW];

static void build_cell_tables(void) {
    memset(cell_sup, 0, sizeof cell_sup);
    for (int c = 0; c < 64; c++) {
        memcpy(cell_blk[c], cover8[c >> 3][1 << (c & 7)], sizeof cell_blk[c]);
        if (c < 48) memcpy(cell_sup[c], cover8[(c + 16) >> 3][1 << (c & 7)], sizeof cell_sup[c]);
    }
}

/* A child's sets in one pass: its parent's (pblk, psup) plus the covers of the 4 cells of placement mask
 * (words [w0, w1)), and the candidates of hand `hand` (hand_candidates on the new sets, 0 outside its
 * words); returns whether there is any candidate. One pass over the words reads each source once and
 * writes each word once, where a copy and four read-modify-write passes per set did 9 times the stores. */
static inline int covers_child(const uint64_t *restrict pblk, const uint64_t *restrict psup, uint64_t mask, int w0,
                               int w1, int hand, uint64_t *restrict blk, uint64_t *restrict sup,
                               uint64_t *restrict cand) {
    int c0 = __builtin_ctzll(mask);
    mask &= mask - 1;
    int c1 = __builtin_ctzll(mask);
    mask &= mask - 1;
    int c2 = __builtin_ctzll(mask);
    mask &= mask - 1;
    int c3 = __builtin_ctzll(mask);
    const uint64_t *b0 = cell_blk[c0], *b1 = cell_blk[c1], *b2 = cell_blk[c2], *b3 = cell_blk[c3];
    const uint64_t *s0 = cell_sup[c0], *s1 = cell_sup[c1], *s2 = cell_sup[c2], *s3 = cell_sup[c3];
    const uint64_t *h = hand_ids[hand];
    uint64_t any = 0;
    for (int w = w0; w < w1; w++) {
        uint64_t b = pblk[w] | b0[w] | b1[w] | b2[w] | b3[w];
        uint64_t s = psup[w] | s0[w] | s1[w] | s2[w] | s3[w];
        blk[w] = b;
        sup[w] = s;
        uint64_t x = h[w] & s & ~b;
        cand[w] = x;
        any |= x;
    }
    return any != 0;
}

/* Whether placement p (a candidate: on empty cells, supported) slides in from outside along a straight
 * line through empty cells (down from the top or level from a side), which makes it reachable: a path of
 * the flood fill of _moves.orient_legal. The others need that flood fill. */
static inline int straight_in(int p, uint64_t occ) {
    return !(p_line[p][0] & occ) || !(p_line[p][1] & occ) || !(p_line[p][2] & occ) || !(p_line[p][3] & occ) ||
           !(p_line[p][4] & occ);
}

/* The candidates of hand rem, in words [hand_w0[rem], hand_w1[rem]) of out; their count. */
static inline int hand_candidates(int rem, const uint64_t blk[NW], const uint64_t sup[NW], uint64_t out[NW]) {
    int n = 0;
    for (int w = hand_w0[rem]; w < hand_w1[rem]; w++) {
        out[w] = hand_ids[rem][w] & sup[w] & ~blk[w];
        n += __builtin_popcountll(out[w]);
    }
    return n;
}

/* The same for the other extensions (_cquadefy's sampler and playouts). */
void qs_covers(uint64_t occ, int rem, uint64_t blk[QS_NW], uint64_t sup[QS_NW]) {
    covers(occ, hand_w0[rem], hand_w1[rem], blk, sup);
}
void qs_covers_add(uint64_t mask, int rem, uint64_t blk[QS_NW], uint64_t sup[QS_NW]) {
    covers_add(mask, hand_w0[rem], hand_w1[rem], blk, sup);
}
int qs_candidates(int rem, const uint64_t blk[QS_NW], const uint64_t sup[QS_NW], uint64_t out[QS_NW]) {
    return hand_candidates(rem, blk, sup, out);
}
int qs_first_word(int rem) { return hand_w0[rem]; }
int qs_straight_in(int p, uint64_t occ) { return straight_in(p, occ); }

#endif
