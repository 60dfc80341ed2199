/* Quadefy exact solver: boolean negamax over bitboards, built with the package as part of the
 * polytable.ai._native._qsolve extension (the Python face is _qsolve.c).
 *
 * The rules are NOT defined here. Python (polytable.games.quadefy._tables and ._symmetry) passes every
 * table this file needs through qs_init: per orientation its block, its four cube offsets on the padded
 * translation board, the inside/box/seed masks and the minimal stable subsets; per placement its cells and
 * block; the placement id at every padded translation of every orientation; and the cell permutation of
 * the 8 symmetries. This file only mirrors the bit logic of polytable.games.quadefy._moves.orient_legal
 * (overlap, support or stability, reachability flood fill) on four 64-bit words, one per layer of the
 * 256-bit padded board. Per-word shifts give the same result as the Python 256-bit shifts because cell
 * bits sit in columns 3-6 and rows 3-6 of each word and the guard column/row 7 is never in "free".
 *
 * Search: negamax on win/loss (no draws), canonical keys over the 8 symmetries (reflections swap the SL
 * and SR bits of both hands, as in _symmetry.canonical_key, so keys equal the Python keys and checkpoint
 * files are shared), a 4-way bucketed transposition table replacing the entry with the smallest subtree,
 * a never-evicted table for positions near the root (checkpointed through a callback), enhanced
 * transposition cutoffs (a child already known lost for the opponent wins at once, a child known won for
 * the opponent is skipped), move ordering by the opponent's number of replies, fewest first (within
 * ORDER_PLIES of the start), and the children's table buckets prefetched before they are probed.
 */
#include "quadefy_solve.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REACH 1
#define STABLE 2
#define MAXO 128
#define MAXP 2304
#define MAXMOVES 1024 /* more than the 761 legal moves of the empty cube */
#define MAXSUB 24
#define MAXPLY 20
#define TRACK 8
/* Children are ordered by the opponent's number of replies only this close to the root: deeper, counting
 * every child's replies costs more than the better order saves (docs/ai-quadefy.md has the figures). */
#define ORDER_PLIES 9

static int n_orient, n_place;
static int o_block[MAXO];
static int o_kxy[MAXO][4], o_kz[MAXO][4];
static uint64_t o_inside[MAXO][4], o_box[MAXO][4], o_seed[MAXO][4];
static int o_nsub[MAXO];
static int o_sublen[MAXO][MAXSUB];
static int o_subxy[MAXO][MAXSUB][4], o_subz[MAXO][MAXSUB][4];
static int16_t place_at[MAXO][256];
static uint64_t p_mask[MAXP];
static int p_block[MAXP];
static int block_first[9];
static uint64_t sym_tab[8][8][256];
static int screw_l, screw_r;

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
        for (int w = 0; w < 4; w++) {
            o_inside[o][w] = omasks[12 * o + w];
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
    return 0;
}

static inline void embed(uint64_t c, uint64_t out[4]) {
    for (int z = 0; z < 4; z++) {
        uint64_t l = c >> (16 * z) & 0xffff;
        out[z] = (l & 15) << 27 | (l >> 4 & 15) << 35 | (l >> 8 & 15) << 43 | (l >> 12 & 15) << 51;
    }
}

static inline uint64_t support_cells(uint64_t occ) { return (0xffffULL | occ << 16) & ~occ; }

/* The legal translations of orientation o (mirrors _moves.orient_legal); returns nonzero when any. */
static inline int orient_legal(int o, const uint64_t occ_p[4], const uint64_t sup_p[4], int flags, uint64_t out[4]) {
    uint64_t blk[4], cand[4], any = 0;
    for (int w = 0; w < 4; w++) {
        uint64_t b = 0, s = 0;
        for (int k = 0; k < 4; k++) {
            int i = w + o_kz[o][k];
            if (i < 4) {
                b |= occ_p[i] >> o_kxy[o][k];
                s |= sup_p[i] >> o_kxy[o][k];
            }
        }
        blk[w] = b;
        uint64_t c = o_inside[o][w] & ~b;
        if (flags & STABLE) {
            uint64_t st = 0;
            for (int j = 0; j < o_nsub[o]; j++) {
                uint64_t m = c;
                for (int k = 0; k < o_sublen[o][j]; k++) {
                    int i = w + o_subz[o][j][k];
                    m &= i < 4 ? sup_p[i] >> o_subxy[o][j][k] : 0;
                }
                st |= m;
            }
            c = st;
        } else {
            c &= s;
        }
        cand[w] = c;
        any |= c;
    }
    if (!any) return 0;
    if (!(flags & REACH)) {
        memcpy(out, cand, sizeof cand);
        return 1;
    }
    uint64_t fr[4], r[4];
    for (int w = 0; w < 4; w++) {
        fr[w] = o_box[o][w] & ~blk[w];
        r[w] = fr[w] & o_seed[o][w];
    }
    /* straight drops from above first (most placements are reached so) */
    for (int w = 2; w >= 0; w--) r[w] |= fr[w] & r[w + 1];
    uint64_t miss = 0;
    for (int w = 0; w < 4; w++) miss |= cand[w] & ~r[w];
    while (miss) {
        uint64_t n[4], ch = 0;
        for (int w = 0; w < 4; w++) {
            uint64_t x = r[w];
            uint64_t y = x | x << 1 | x >> 1 | x << 8 | x >> 8;
            if (w > 0) y |= r[w - 1];
            if (w < 3) y |= r[w + 1];
            n[w] = y & fr[w];
            ch |= n[w] ^ r[w];
        }
        memcpy(r, n, sizeof n);
        if (!ch) break;
        miss = 0;
        for (int w = 0; w < 4; w++) miss |= cand[w] & ~r[w];
    }
    any = 0;
    for (int w = 0; w < 4; w++) {
        out[w] = cand[w] & r[w];
        any |= out[w];
    }
    return any != 0;
}

/* Every legal placement id of hand `hand`, in the order of _moves.placement_ids; returns the count. */
int qs_legal(uint64_t occ, int hand, int flags, int *pids) {
    uint64_t occ_p[4], sup_p[4], bits[4];
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
    uint64_t occ_p[4], sup_p[4], bits[4];
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
    uint64_t occ_p[4], sup_p[4], bits[4];
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
void qs_orient_legal(int o, uint64_t occ, int flags, uint64_t out[4]) {
    uint64_t occ_p[4], sup_p[4];
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

/* ---- transposition tables ---- */
typedef struct {
    uint64_t lo;
    uint16_t hi;
    uint8_t val;
    uint8_t work;
    uint32_t pad;
} Entry;

static Entry *tt = NULL;
static uint64_t tt_mask = 0; /* bucket index mask; 4 entries per bucket */
static Entry *keep = NULL;    /* near-root positions, linear probing, never evicted */
static uint64_t keep_mask = 0, keep_used = 0;
static int64_t tt_stores = 0;

static inline uint64_t hash_key(uint64_t lo, int hi) {
    uint64_t h = (lo ^ ((uint64_t)hi * 0x9E3779B97F4A7C15ULL)) * 0xBF58476D1CE4E5B9ULL;
    return h ^ h >> 31;
}

int qs_tt_alloc(int log2_entries) {
    free(tt);
    free(keep);
    uint64_t n = 1ULL << log2_entries;
    tt = calloc(n, sizeof(Entry));
    keep = calloc(1ULL << 22, sizeof(Entry));
    if (!tt || !keep) return -1;
    tt_mask = n / 4 - 1;
    keep_mask = (1ULL << 22) - 1;
    keep_used = 0;
    tt_stores = 0;
    return 0;
}

void qs_tt_clear(void) {
    memset(tt, 0, (tt_mask + 1) * 4 * sizeof(Entry));
    memset(keep, 0, (keep_mask + 1) * sizeof(Entry));
    keep_used = 0;
    tt_stores = 0;
}

static int probe(uint64_t lo, int hi) {
    uint64_t h = hash_key(lo, hi);
    Entry *b = tt + 4 * (h & tt_mask);
    for (int i = 0; i < 4; i++)
        if (b[i].lo == lo && b[i].hi == hi && b[i].work) return b[i].val;
    if (keep_used) {
        for (uint64_t j = h & keep_mask;; j = (j + 1) & keep_mask) {
            Entry *e = keep + j;
            if (!e->work) break;
            if (e->lo == lo && e->hi == hi) return e->val;
        }
    }
    return -1;
}

static void store(uint64_t lo, int hi, int val, int64_t nodes, int pinned) {
    uint64_t h = hash_key(lo, hi);
    if (pinned && keep_used < (keep_mask + 1) / 4 * 3) {
        for (uint64_t j = h & keep_mask;; j = (j + 1) & keep_mask) {
            Entry *e = keep + j;
            if (!e->work) {
                e->lo = lo;
                e->hi = (uint16_t)hi;
                e->val = (uint8_t)val;
                e->work = 1;
                keep_used++;
                return;
            }
            if (e->lo == lo && e->hi == hi) return;
        }
    }
    int work = 1;
    while (nodes > 1 && work < 63) {
        nodes >>= 1;
        work++;
    }
    Entry *b = tt + 4 * (h & tt_mask);
    int victim = 0;
    for (int i = 0; i < 4; i++) {
        if (!b[i].work || (b[i].lo == lo && b[i].hi == hi)) {
            victim = i;
            break;
        }
        if (b[i].work < b[victim].work) victim = i;
    }
    b[victim].lo = lo;
    b[victim].hi = (uint16_t)hi;
    b[victim].val = (uint8_t)val;
    b[victim].work = (uint8_t)work;
    tt_stores++;
}

int qs_tt_put(uint64_t lo, int hi, int val) {
    store(lo, hi, val, 0, 1);
    return 0;
}

/* ---- search ---- */

static int g_flags, g_persist, g_dedup;
static int64_t nodes, tt_hits, max_nodes;
static double deadline;
static int aborted;
static record_fn on_record;
static progress_fn on_progress;
static int64_t ply_count[MAXPLY], ply_nodes[MAXPLY];
static int path_len, path_ply[TRACK + 1], path_done[TRACK + 1], path_total[TRACK + 1];
static int win_move[MAXPLY];
static int top_ply;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct {
    int count, pid;
} Kid;

static int kid_cmp(const void *a, const void *b) {
    const Kid *x = a, *y = b;
    if (x->count != y->count) return x->count - y->count;
    return x->pid - y->pid;
}

static int win(uint64_t occ, int me, int opp, int ply, int use_tt) {
    uint64_t lo;
    int hi;
    canon(occ, me, opp, &lo, &hi);
    if (use_tt) {
        int v = probe(lo, hi);
        if (v >= 0) {
            tt_hits++;
            return v;
        }
    }
    nodes++;
    if ((nodes & 4095) == 0) {
        if ((max_nodes > 0 && nodes >= max_nodes) || (deadline > 0 && now() > deadline)) aborted = 1;
    }
    if (aborted) return 0;
    int64_t start = nodes;
    int pids[MAXMOVES];
    Kid kids[MAXMOVES];
    uint64_t seen_lo[MAXMOVES];
    int seen_hi[MAXMOVES];
    int nseen = 0;
    int n = qs_legal(occ, me, g_flags, pids);
    int nk = 0, result = 0;
    /* Every child's canonical key first, with its table bucket prefetched: the probes below then find
     * the buckets in cache instead of waiting for memory one child at a time. */
    uint64_t ck_lo[MAXMOVES];
    int ck_hi[MAXMOVES];
    for (int i = 0; i < n; i++) {
        int pid = pids[i];
        canon(occ | p_mask[pid], opp, me & ~(1 << p_block[pid]), &ck_lo[i], &ck_hi[i]);
        __builtin_prefetch(tt + 4 * (hash_key(ck_lo[i], ck_hi[i]) & tt_mask));
    }
    for (int i = 0; i < n; i++) {
        int pid = pids[i];
        uint64_t child = occ | p_mask[pid];
        uint64_t clo = ck_lo[i];
        int chi = ck_hi[i];
        if (ply < g_dedup) {
            int dup = 0;
            for (int j = 0; j < nseen; j++)
                if (seen_lo[j] == clo && seen_hi[j] == chi) {
                    dup = 1;
                    break;
                }
            if (dup) continue;
            seen_lo[nseen] = clo;
            seen_hi[nseen++] = chi;
        }
        int v = probe(clo, chi);
        if (v == 0) { /* the opponent is known to lose there */
            tt_hits++;
            result = 1;
            win_move[ply] = pid;
            goto done;
        }
        if (v == 1) { /* known to lose for us: never search it */
            tt_hits++;
            continue;
        }
        int c = ply < 10 ? qs_count(child, opp, g_flags) : 1;
        if (c == 0) {
            result = 1;
            win_move[ply] = pid;
            goto done;
        }
        kids[nk].count = c;
        kids[nk++].pid = pid;
    }
    qsort(kids, nk, sizeof(Kid), kid_cmp);
    {
        int track = ply <= TRACK && path_len <= TRACK;
        int level = path_len;
        if (track) {
            path_ply[level] = ply;
            path_done[level] = 0;
            path_total[level] = nk;
            path_len++;
        }
        for (int i = 0; i < nk; i++) {
            int pid = kids[i].pid;
            int r = win(occ | p_mask[pid], opp, me & ~(1 << p_block[pid]), ply + 1, 1);
            if (aborted) return 0; /* the path stays as it was: it shows where the search stopped */
            if (!r) {
                result = 1;
                win_move[ply] = pid;
                break;
            }
            if (track) path_done[level] = i + 1;
            if (on_progress && ply <= top_ply + 1) on_progress(ply, i + 1, nk);
        }
        if (track) path_len--;
    }
done:
    store(lo, hi, result, nodes - start + 1, ply <= g_persist);
    if (ply <= g_persist && on_record) on_record(lo, hi, result);
    if (ply < MAXPLY) {
        ply_count[ply]++;
        ply_nodes[ply] += nodes - start + 1;
    }
    return result;
}

/* Solve one position. Returns 1 (the player to move wins), 0 (loses) or -1 (stopped by the budget).
 * *best gets a winning placement id when the result is 1 and one was found here (else -1). */
int qs_solve(uint64_t occ, int me, int opp, int flags, int ply, int use_tt, double max_seconds, int64_t node_budget,
             int persist, int dedup, record_fn rec, progress_fn prog, int *best) {
    g_flags = flags;
    g_persist = persist;
    g_dedup = dedup;
    on_record = rec;
    on_progress = prog;
    aborted = 0;
    max_nodes = node_budget > 0 ? nodes + node_budget : 0;
    deadline = max_seconds > 0 ? now() + max_seconds : 0;
    path_len = 0;
    top_ply = ply;
    for (int i = 0; i < MAXPLY; i++) win_move[i] = -1;
    int r = win(occ, me, opp, ply, use_tt);
    *best = (!aborted && r) ? win_move[ply] : -1;
    return aborted ? -1 : r;
}

/* Stop the running search at its next node (a callback failed). */
void qs_abort(void) { aborted = 1; }

/* Counters: nodes, tt hits, tt stores, near-root entries, then per ply (count, nodes) for MAXPLY plies. */
int qs_stats(int64_t *out) {
    out[0] = nodes;
    out[1] = tt_hits;
    out[2] = tt_stores;
    out[3] = (int64_t)keep_used;
    for (int i = 0; i < MAXPLY; i++) {
        out[4 + 2 * i] = ply_count[i];
        out[5 + 2 * i] = ply_nodes[i];
    }
    return MAXPLY;
}

void qs_reset_stats(void) {
    nodes = tt_hits = 0;
    memset(ply_count, 0, sizeof ply_count);
    memset(ply_nodes, 0, sizeof ply_nodes);
}

/* Where a stopped search was: (ply, children proven, children) per tracked level; returns the levels. */
int qs_path(int *out) {
    for (int i = 0; i < path_len; i++) {
        out[3 * i] = path_ply[i];
        out[3 * i + 1] = path_done[i];
        out[3 * i + 2] = path_total[i];
    }
    return path_len;
}
