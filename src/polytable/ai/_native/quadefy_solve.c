/* Quadefy exact solver: boolean negamax over bitboards, built with the package as part of the
 * polytable.ai._native._qsolve extension (the Python face is _qsolve.c).
 *
 * The rules are NOT defined here. Python (polytable.games.quadefy._tables and ._symmetry) passes every
 * table this file needs through qs_init: per orientation its block, its four cube offsets on the padded
 * translation board, the inside/box/seed masks and the minimal stable subsets; per placement its cells and
 * block; the placement id at every padded translation of every orientation; and the cell permutation of
 * the 8 symmetries. The move generator (quadefy_gen.h) only mirrors the bit logic of
 * polytable.games.quadefy._moves.orient_legal (overlap, support or stability, reachability flood fill) on
 * four 64-bit words, one per layer of the 256-bit padded board. Per-word shifts give the same result as
 * the Python 256-bit shifts because cell bits sit in columns 3-6 and rows 3-6 of each word and the guard
 * column/row 7 is never in "free". quadefy_cover.h gives the candidate placements as bit sets over ids.
 *
 * Search: negamax on win/loss (no draws), a 4-way bucketed transposition table replacing the entry with
 * the smallest subtree and a never-evicted table for positions near the root (checkpointed through a
 * callback). Two kinds of node:
 * - within ORDER_PLIES plies (absolute depth) of the empty cube: canonical keys over the 8 symmetries
 *   (reflections swap the SL and SR bits of both hands, as in _symmetry.canonical_key, so keys equal the
 *   Python keys and checkpoint files are shared), every child generated with its key and its table bucket
 *   prefetched, enhanced transposition cutoffs (a child already known lost for the opponent wins at once,
 *   a child known won for the opponent is skipped), ordering by the opponent's number of replies, fewest
 *   first;
 * - deeper, where almost all nodes are: plain (cells, hands) keys, children from the candidate sets kept
 *   along the path (the parent's plus the 4 cells just placed), searched in generation order as they are
 *   found (no tests, keys or probes for the children after a refutation); from TABLE_PLIES on no table
 *   at all.
 * Reply counts use the candidate sets too. A candidate that slides in along a straight line of empty cells is
 * reachable; only the others take their orientation's flood fill. Children come in the same order as
 * before these changes and the values are the same (tests/games/quadefy/test_quadefy_solver_verdicts.py);
 * only the table's reach (TABLE_PLIES) changes which positions are searched again.
 */
#include "quadefy_solve.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../games/quadefy/quadefy_gen.h" /* the game's move generator, included downward */

#define TRACK 8
/* Children are ordered by the opponent's number of replies only this close to the root: deeper, counting
 * every child's replies costs more than the better order saves (the figures:
 * docs/benchmarks/2026-12-05-engine-log.md). */
#define ORDER_PLIES 8
/* Positions at most this deep get symmetry-canonical table keys (see key_of); at least PERSIST_PLIES of
 * ai/quadefy/_fullsolve.py, so checkpoint lines keep the Python keys. */
#define CANON_PLIES 8
/* Only positions less deep than this go to the transposition table: deeper subtrees are a few nodes, and
 * searching one again costs less than the cache miss of a probe and a store
 * (docs/benchmarks/2026-12-05-engine-log.md). */
#define TABLE_PLIES 10
#if CANON_PLIES > ORDER_PLIES + 1
#error "expand_deep prefetches by plain keys: CANON_PLIES must not exceed ORDER_PLIES + 1"
#endif

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
static int keep_cells = -1; /* the most occupied cells of a pinned entry: deeper keys skip that table */
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
    keep_cells = -1;
    tt_stores = 0;
    return 0;
}

void qs_tt_clear(void) {
    memset(tt, 0, (tt_mask + 1) * 4 * sizeof(Entry));
    memset(keep, 0, (keep_mask + 1) * sizeof(Entry));
    keep_used = 0;
    keep_cells = -1;
    tt_stores = 0;
}

static int probe(uint64_t lo, int hi) {
    uint64_t h = hash_key(lo, hi);
    Entry *b = tt + 4 * (h & tt_mask);
    for (int i = 0; i < 4; i++)
        if (b[i].lo == lo && b[i].hi == hi && b[i].work) return b[i].val;
    if (keep_used && __builtin_popcountll(lo) <= keep_cells) {
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
                if (__builtin_popcountll(lo) > keep_cells) keep_cells = __builtin_popcountll(lo);
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
static int cpu_clock; /* the deadline's clock: 0 monotonic (wall), 1 this thread's CPU time */
static int aborted;
static record_fn on_record;
static progress_fn on_progress;
static int64_t ply_count[MAXPLY], ply_nodes[MAXPLY];
static int path_len, path_ply[TRACK + 1], path_done[TRACK + 1], path_total[TRACK + 1];
static int win_move[MAXPLY];
static int top_ply;

/* Seconds on the clock a budget is read from: the monotonic wall clock, or with ``cpu`` the calling
 * thread's CPU time (the clocks of Python's time.monotonic and time.thread_time). */
double qs_now(int cpu) {
    struct timespec ts;
    clock_gettime(cpu ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double now(void) { return qs_now(cpu_clock); }

typedef struct {
    int count, pid, key_hi;
    uint64_t key_lo;
} Kid;

static int kid_cmp(const void *a, const void *b) {
    const Kid *x = a, *y = b;
    if (x->count != y->count) return x->count - y->count;
    return x->pid - y->pid;
}

/* A position's table key: canonical over the 8 symmetries within CANON_PLIES of the start, where images of
 * one position are often reached by different paths; deeper, the plain (cells, hands) key, which costs
 * nothing. Both kinds are exact: a key names one position and its value, and a canonical key is the plain
 * key of an image with the same value, so the two kinds share one table. */
static inline void key_of(uint64_t occ, int me, int opp, int ply, uint64_t *lo, int *hi) {
    if (ply <= CANON_PLIES) {
        canon(occ, me, opp, lo, hi);
    } else {
        *lo = occ;
        *hi = me | opp << 8;
    }
}

static int expand(uint64_t occ, int me, int opp, int ply, uint64_t lo, int hi, uint64_t placed);

/* The value of a position for the player to move: from the table when it is there, else searched. */
static inline int node(uint64_t occ, int me, int opp, int ply, uint64_t lo, int hi, int use_tt, uint64_t placed) {
    if (use_tt) {
        int v = probe(lo, hi);
        if (v >= 0) {
            tt_hits++;
            return v;
        }
    }
    return expand(occ, me, opp, ply, lo, hi, placed);
}

static int win(uint64_t occ, int me, int opp, int ply, int use_tt) {
    uint64_t lo;
    int hi;
    key_of(occ, me, opp, ply, &lo, &hi);
    return node(occ, me, opp, ply, lo, hi, use_tt, 0);
}

/* The candidate sets (quadefy_cover.h) of the positions on the path, one per deep ply. */
static uint64_t d_blk[MAXPLY + 1][NW], d_sup[MAXPLY + 1][NW];

/* Deep in the tree (beyond ORDER_PLIES): the children in generation order (placement id order, as
 * qs_legal), searched as they are found: most nodes there are decided by their first children, so the
 * later children are never tested, keyed or probed. The candidates come from the position's cover sets,
 * its parent's plus the 4 cells just placed; a candidate is legal at once without reachability and
 * stability, or with reachability alone when it slides in along a straight line; else its orientation's
 * rules are computed (once per orientation). The children of one word of candidates have their buckets
 * prefetched before the first is searched. */
static int expand_deep(uint64_t occ, int me, int opp, int ply, uint64_t placed) {
    uint64_t *blk = d_blk[ply], *sup = d_sup[ply];
    int all = me | opp, w0 = hand_w0[all], w1 = hand_w1[all];
    uint64_t cand[NW], occ_p[8], sup_p[8], bits[4];
    if (ply > top_ply && ply - 1 > ORDER_PLIES) {
        if (!covers_child(d_blk[ply - 1], d_sup[ply - 1], placed, w0, w1, me, blk, sup, cand)) return 0;
    } else {
        covers(occ, w0, w1, blk, sup);
        if (!hand_candidates(me, blk, sup, cand)) return 0;
    }
    int cur_o = -1, boards = 0, probe_kids = ply + 1 < TABLE_PLIES;
    for (int w = hand_w0[me]; w < hand_w1[me]; w++) {
        int pids[64], n = 0;
        for (uint64_t x = cand[w]; x; x &= x - 1) {
            int pid = 64 * w + __builtin_ctzll(x);
            if (g_flags && (g_flags != REACH || !straight_in(pid, occ))) {
                int o = p_orient[pid];
                if (o != cur_o) {
                    if (!boards) {
                        embed(occ, occ_p);
                        embed(support_cells(occ), sup_p);
                        boards = 1;
                    }
                    if (!orient_legal(o, occ_p, sup_p, g_flags, bits)) memset(bits, 0, sizeof bits);
                    cur_o = o;
                }
                if (!(bits[p_bit[pid] >> 6] >> (p_bit[pid] & 63) & 1)) continue;
            }
            pids[n++] = pid;
            if (probe_kids) {
                int rest = me & ~(1 << p_block[pid]);
                __builtin_prefetch(tt + 4 * (hash_key(occ | p_mask[pid], opp | rest << 8) & tt_mask));
            }
        }
        for (int i = 0; i < n; i++) {
            int pid = pids[i];
            uint64_t child = occ | p_mask[pid];
            int rest = me & ~(1 << p_block[pid]);
            uint64_t clo;
            int chi;
            key_of(child, opp, rest, ply + 1, &clo, &chi);
            int r = node(child, opp, rest, ply + 1, clo, chi, probe_kids, p_mask[pid]);
            if (aborted) return 0;
            if (!r) {
                win_move[ply] = pid;
                return 1;
            }
        }
    }
    return 0;
}

/* The legal placements of hand in position occ among its candidates cand (as qs_count: only those that
 * do not slide in along a straight line take their orientation's rules). */
static int count_legal(uint64_t occ, int hand, const uint64_t cand[NW]) {
    uint64_t occ_p[8], sup_p[8], bits[4];
    int n = 0;
    for (int w = hand_w0[hand]; w < hand_w1[hand]; w++) n += __builtin_popcountll(cand[w]);
    if (!n || !g_flags) return n;
    int count = 0, cur_o = -1, boards = 0;
    for (int w = hand_w0[hand]; w < hand_w1[hand]; w++)
        for (uint64_t x = cand[w]; x; x &= x - 1) {
            int pid = 64 * w + __builtin_ctzll(x);
            if (g_flags == REACH && straight_in(pid, occ)) {
                count++;
                continue;
            }
            int o = p_orient[pid];
            if (o != cur_o) {
                if (!boards) {
                    embed(occ, occ_p);
                    embed(support_cells(occ), sup_p);
                    boards = 1;
                }
                if (!orient_legal(o, occ_p, sup_p, g_flags, bits)) memset(bits, 0, sizeof bits);
                cur_o = o;
            }
            count += (int)(bits[p_bit[pid] >> 6] >> (p_bit[pid] & 63) & 1);
        }
    return count;
}

static int expand(uint64_t occ, int me, int opp, int ply, uint64_t lo, int hi, uint64_t placed) {
    nodes++;
    if ((nodes & 4095) == 0) {
        if ((max_nodes > 0 && nodes >= max_nodes) || (deadline > 0 && now() > deadline)) aborted = 1;
    }
    if (aborted) return 0;
    int64_t start = nodes;
    int result = 0;
    if (ply > ORDER_PLIES) {
        result = expand_deep(occ, me, opp, ply, placed);
        if (aborted) return 0;
        goto done;
    }
    int pids[MAXMOVES];
    Kid kids[MAXMOVES];
    uint64_t seen_lo[MAXMOVES];
    int seen_hi[MAXMOVES];
    int nseen = 0;
    int n = qs_legal(occ, me, g_flags, pids);
    int nk = 0;
    uint64_t blk[NW], sup[NW], cblk[NW], csup[NW], ccand[NW];
    int w0 = hand_w0[me | opp], w1 = hand_w1[me | opp];
    covers(occ, w0, w1, blk, sup);
    /* Every child's key first, with its table bucket prefetched: the probes below then find the buckets
     * in cache instead of waiting for memory one child at a time. */
    uint64_t ck_lo[MAXMOVES];
    int ck_hi[MAXMOVES];
    for (int i = 0; i < n; i++) {
        int pid = pids[i];
        key_of(occ | p_mask[pid], opp, me & ~(1 << p_block[pid]), ply + 1, &ck_lo[i], &ck_hi[i]);
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
        int c = covers_child(blk, sup, p_mask[pid], w0, w1, opp, cblk, csup, ccand) ? count_legal(child, opp, ccand) : 0;
        if (c == 0) {
            result = 1;
            win_move[ply] = pid;
            goto done;
        }
        kids[nk].count = c;
        kids[nk].key_hi = chi;
        kids[nk].key_lo = clo;
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
            int r = node(occ | p_mask[pid], opp, me & ~(1 << p_block[pid]), ply + 1, kids[i].key_lo, kids[i].key_hi, 1,
                         p_mask[pid]);
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
    if (ply < TABLE_PLIES) store(lo, hi, result, nodes - start + 1, ply <= g_persist);
    if (ply <= g_persist && on_record) on_record(lo, hi, result);
    if (ply < MAXPLY) {
        ply_count[ply]++;
        ply_nodes[ply] += nodes - start + 1;
    }
    return result;
}

int qs_solve(uint64_t occ, int me, int opp, int flags, int ply, int use_tt, double max_seconds, int cpu,
             int64_t node_budget, int persist, int dedup, record_fn rec, progress_fn prog, int *best) {
    cpu_clock = cpu != 0;
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
