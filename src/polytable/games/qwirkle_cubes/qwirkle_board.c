/* Qwirkle Cubes' table in C: cubes, the frontier, lines, scoring and the placement walk.
 *
 * It mirrors _board.py: the same roots (frontier cells in sorted order, rows before columns, then the
 * free cells just before a frontier cell), the same depth-first walk (faces in increasing order, a
 * placement before its extensions) and the same cuts, so the r-th placement is the same placement in
 * both engines. A plain count of a table with cubes walks nothing: it counts the placements through each
 * frontier cell by combinations (multi_at), and the walk then locates the one chosen in one cell's roots
 * (qb_find). The other counting walks keep a small memo of the counts they found (below, MEMO); the walks
 * that list or locate placements keep none.
 */
#include "qwirkle_rules.h"

#include <string.h>

int q_largest_line(uint64_t faces) {
    int best = 0;
    for (int c = 0; c < 6; c++) {
        int n = pc(faces >> (6 * c) & 0x3F);
        if (n > best) best = n;
    }
    for (int s = 0; s < 6; s++) {
        int n = pc(faces >> s & SHAPE_MASK0);
        if (n > best) best = n;
    }
    return best;
}

/* ------------------------------------------------------------------ the table */
void qb_clear(QBoard *b) {
    for (int i = 0; i < b->ncubes; i++) {
        int c = b->at[i];
        b->cell[c] = 0;
        b->front[c] = b->front[c - 1] = b->front[c + 1] = b->front[c - QW] = b->front[c + QW] = 0;
    }
    b->counted = 0;
    b->ncubes = 0;
    b->nfront = 0;
    b->nfacts = b->nfreed = b->nstale = b->placeable_ok = 0;
}

static int front_pos(const QBoard *b, int c) {
    int lo = 0, hi = b->nfront;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (b->fl[mid] < c)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void qb_put(QBoard *b, int face, int at) {
    b->placeable_ok = 0;
    b->counted = 0;
    b->cell[at] = (uint8_t)(face + 1);
    b->face[b->ncubes] = face;
    b->at[b->ncubes++] = at;
    if (b->front[at]) {
        int i = front_pos(b, at), e = b->fact[i];
        b->alone[e] = b->starts[e][0] = b->starts[e][1] = 0;
        b->freed[b->nfreed++] = (short)e;
        memmove(b->fl + i, b->fl + i + 1, sizeof(int) * (size_t)(b->nfront - i - 1));
        memmove(b->fact + i, b->fact + i + 1, sizeof(short) * (size_t)(b->nfront - i - 1));
        b->nfront--;
        b->front[at] = 0;
    }
    const int nb[4] = {at - QW, at - 1, at + 1, at + QW};
    for (int j = 0; j < 4; j++) {
        int n = nb[j];
        if (b->cell[n] || b->front[n]) continue;
        int i = front_pos(b, n);
        memmove(b->fl + i + 1, b->fl + i, sizeof(int) * (size_t)(b->nfront - i));
        memmove(b->fact + i + 1, b->fact + i, sizeof(short) * (size_t)(b->nfront - i));
        b->fl[i] = n;
        int e = b->nfreed ? b->freed[--b->nfreed] : b->nfacts++;
        b->fact[i] = (short)e;
        b->fact_at[n] = (short)e;
        b->cell_of[e] = n;
        b->alone[e] = b->starts[e][0] = b->starts[e][1] = 0; /* set with its facts (qb_facts) */
        b->nfront++;
        b->front[n] = 1;
    }
    /* the runs through the new cube grew: the empty cells at their ends (the new frontier cells among them) */
    for (int j = 0; j < 4; j++) {
        int step = nb[j] - at, e = nb[j];
        while (b->cell[e]) e += step;
        if (b->front[e] == 1) {
            b->front[e] = 2;
            b->stale[b->nstale++] = e;
        }
    }
}

/* fits_across from the runs on either side of an empty cell. */
static inline uint64_t fits_between(uint64_t a, uint64_t z) {
    if (a & z) return 0;
    if (a | z) return line_ok(a | z) ? addable(a | z) : 0;
    return ALL_FACES;
}

const QBoard *qb_facts(const QBoard *b) {
    if (!b->nstale && b->placeable_ok) return b;
    QBoard *m = (QBoard *)b; /* a cache of what the table says: filling it leaves the table as it was */
    for (int k = 0; k < b->nstale; k++) {
        int c = b->stale[k];
        if (b->front[c] != 2) continue; /* covered since */
        int e = b->fact_at[c];
        QFact *f = &m->facts[e];
        for (int d = 0; d < 2; d++) {
            int step = d ? QW : 1;
            f->before[d] = run(b, c - step, -step);
            f->after[d] = run(b, c + step, step);
        }
        f->cross[0] = fits_between(f->before[1], f->after[1]);
        f->cross[1] = fits_between(f->before[0], f->after[0]);
        m->alone[e] = f->cross[0] & f->cross[1] & ALL_FACES; /* (SHAPE_MASK0 reaches past the faces) */
        for (int d = 0; d < 2; d++) /* the roots of this cell along d start with a face on it, after the run
                                     * before it or before the run after it: see count_fast */
            m->starts[e][d] = f->cross[d] & addable(f->before[d] ? f->before[d] : f->after[d]) & ALL_FACES;
        m->front[c] = 1;
    }
    m->nstale = 0;
    if (!b->placeable_ok) {
        uint64_t out = 0;
        for (int e = 0; e < b->nfacts; e++) out |= b->alone[e];
        m->placeable = out;
        m->placeable_ok = 1;
    }
    return b;
}

uint64_t qb_placeable(const QBoard *b) { return b->ncubes ? qb_facts(b)->placeable : ALL_FACES; }

int qb_score(const QBoard *b, const int *cells, int n, int *qwirkles) {
    int points = 0, qw = 0, axes[2] = {1, QW}, na = 2;
    if (n > 1) {
        int main = cells[1] - cells[0] < QW ? 1 : QW;
        int len = run_length(b, cells[0], -main) + run_length(b, cells[0] + main, main);
        if (len == QLINE) qw++;
        points += len + (len == QLINE ? QLINE : 0);
        axes[0] = main == 1 ? QW : 1;
        na = 1;
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < na; j++) {
            int ax = axes[j];
            int len = run_length(b, cells[i], -ax) + run_length(b, cells[i] + ax, ax);
            if (len >= 2) {
                points += len;
                if (len == QLINE) {
                    points += QLINE;
                    qw++;
                }
            }
        }
    *qwirkles = qw;
    return points;
}

/* ------------------------------------------------------------------ the placement walk */
static int reach_of(const QBoard *b, int q, int step) {
    int r = 0;
    while (r < QLINE && !b->front[q + r * step]) r++;
    return r;
}

/* A counting walk's memo (single-threaded: the GIL is held): the placements that go on from a cell with a
 * given line are the same whatever order the cubes before it were put in, so a walk that reaches the same
 * cell, axis and line again (another order of the same faces) adds the count it found the first time. Entries
 * of earlier walks are told apart by the walk's number. Only for a plain count (no emitter, one hand, any
 * number of cubes). */
#define MEMO_BITS 12
static struct {
    uint64_t key;
    unsigned gen;
    long long n;
} MEMO[1 << MEMO_BITS];
static unsigned MEMO_GEN;

/* A walk that has placed k cubes and reaches empty cell p with the faces `line` in its main line (see
 * Board._count and Board._steps). Returns non-zero when the emitter stopped the walk. */
static int node(const QBoard *b, QWalk *w, int p, int step, uint64_t line, int conn, int k) {
    uint64_t fits = addable(line) & w->hand, after = 0;
    if (!fits) return 0;
    if (b->front[p]) { /* the facts are up to date (qb_facts before the walk); elsewhere no cube is near */
        const QFact *x = &b->facts[b->fact_at[p]];
        int d = step != 1;
        fits &= x->cross[d];
        after = x->after[d];
    }
    if (!fits) return 0;
    int q = p + step * (pc(after) + 1);
    int here = conn || b->front[p];
    int k1 = k + 1;
    int counts_here = here && (w->need ? k1 == w->need : (k1 >= 2 || step == 1));
    int go_on = !w->need || k1 < w->need;
    int reach = -1;
    while (fits) {
        uint64_t bit = fits & (~fits + 1);
        fits ^= bit;
        uint64_t m = line | bit;
        if (after) {
            if (m & after) continue;
            m |= after;
            if (!line_ok(m)) continue;
        }
        if (w->emit) {
            w->faces[k] = __builtin_ctzll(bit);
            w->cells[k] = p;
        }
        if (counts_here) {
            w->count++;
            if (w->emit && w->emit(w, k1)) return 1;
        }
        if (!go_on) continue;
        int size = pc(m);
        if (size >= QLINE) continue;
        if (!here) {
            if (reach < 0) reach = reach_of(b, q, step);
            if (size + reach >= QLINE) continue;
        }
        if (w->left) { /* by colour counts: a colour's faces stay offered while a cube of it is left */
            int c = __builtin_ctzll(bit) / 6, stop = 0;
            uint64_t keep = w->hand;
            if (!--w->left[c]) w->hand &= ~(0x3FULL << (6 * c));
            if (addable(m) & w->hand) stop = node(b, w, q, step, m, here, k1);
            w->left[c]++;
            w->hand = keep;
            if (stop) return 1;
            continue;
        }
        uint64_t next = addable(m) & w->hand; /* the faces the next cell could take (its first cut, here) */
        if (next && b->front[q]) next &= b->facts[b->fact_at[q]].cross[step != 1];
        if (!next) continue;
        if (k1 >= 2 && !w->emit && !w->need) { /* orders of the same faces meet here again */
            uint64_t key = m | (uint64_t)q << 36 | (uint64_t)(step != 1) << 52 | (uint64_t)here << 53;
            unsigned h = (unsigned)((key * 0x9E3779B97F4A7C15ULL) >> (64 - MEMO_BITS));
            if (MEMO[h].gen == MEMO_GEN && MEMO[h].key == key) {
                w->count += MEMO[h].n;
                continue;
            }
            long long before = w->count;
            node(b, w, q, step, m, here, k1);
            MEMO[h].key = key;
            MEMO[h].gen = MEMO_GEN;
            MEMO[h].n = w->count - before;
            continue;
        }
        if (node(b, w, q, step, m, here, k1)) return 1;
    }
    return 0;
}

static int longest(uint64_t faces) { return q_largest_line(faces); }

/* The roots of the last counting walk with their counts, so that locating the r-th placement walks
 * only the root that holds it (single-threaded: the GIL is held). */
#define MAXROOTS 4096
static struct {
    int p, step, conn;
    uint64_t line;
    long long n;
} R[MAXROOTS];
static int NR, R_OK;

static int root(const QBoard *b, QWalk *w, int p, int step, uint64_t line, int conn) {
    long long before = w->count;
    int stop = node(b, w, p, step, line, conn, 0);
    if (!w->emit && w->count > before) {
        if (NR < MAXROOTS) {
            R[NR].p = p;
            R[NR].step = step;
            R[NR].conn = conn;
            R[NR].line = line;
            R[NR++].n = w->count - before;
        } else
            R_OK = 0;
    }
    return stop;
}

/* The roots of frontier cell fl[i] along axis d (Board._roots), in their order. */
int qb_roots_at(const QBoard *b, QWalk *w, int i, int d) {
    int f = b->fl[i], step = d ? QW : 1;
    const QFact *x = &b->facts[b->fact[i]];
    uint64_t fits = w->hand & x->cross[d];
    if (!fits) return 0;
    uint64_t before = x->before[d];
    if (before) return fits & addable(before) && root(b, w, f, step, before, 0);
    uint64_t after = x->after[d], after_fits = addable(after), at_f = fits & after_fits;
    if (!at_f) return 0;
    /* Every placement of these roots puts a face g of at_f on f (the cells before f are free, a placement
     * starts on f or runs into it), so its faces share g's colour or shape and may join `after`: the walks
     * offer only those (the same placements, without the dead ends). */
    uint64_t near = 0, hand = w->hand;
    for (uint64_t g = at_f; g; g &= g - 1) {
        int t = __builtin_ctzll(g);
        near |= 0x3FULL << (6 * (t / 6)) | SHAPE_MASK0 << (t % 6);
    }
    w->hand = hand & near & after_fits;
    int stop = root(b, w, f, step, 0, 0);
    int back = 0, p = f - step;
    while (!stop && back < QLINE - 1 && !b->front[p] && !b->cell[p]) {
        back++;
        p -= step;
    }
    int cap = longest(w->hand) - 1;
    if (back < cap) cap = back;
    if (QLINE - 1 - pc(after) < cap) cap = QLINE - 1 - pc(after);
    for (int j = 1; !stop && j <= cap; j++) stop = root(b, w, f - j * step, step, 0, 0);
    w->hand = hand;
    return stop;
}

/* Every root of Board._roots, in its order; returns non-zero when the emitter stopped the walk. */
static int roots(const QBoard *b, QWalk *w) {
    if (!b->ncubes) return root(b, w, q_index(0, 0), 1, 0, 1);
    qb_facts(b);
    for (int i = 0; i < b->nfront; i++)
        for (int d = 0; d < 2; d++)
            if (qb_roots_at(b, w, i, d)) return 1;
    return 0;
}

/* The faces of a hand that share their colour or their shape with another face of it: every placement of
 * two cubes or more shows only such faces (its faces are distinct and share one colour or one shape). */
static uint64_t paired(uint64_t hand) {
    uint64_t out = 0;
    for (int c = 0; c < 6; c++) {
        uint64_t m = hand & 0x3FULL << (6 * c);
        if (m & (m - 1)) out |= m;
    }
    for (int s = 0; s < 6; s++) {
        uint64_t m = hand & SHAPE_MASK0 << s;
        if (m & (m - 1)) out |= m;
    }
    return out;
}

/* r + r (r - 1) + .. + r (r - 1) .. (r - back + 1), plus 1: the ways to fill 0 to `back` free cells with
 * distinct faces out of r (the sums for r up to 6 and back up to 5). */
static long long ff_sum(int r, int back) {
    static const unsigned short sums[QLINE + 1][QLINE] = {
        {1, 1, 1, 1, 1, 1},           {1, 2, 2, 2, 2, 2},         {1, 3, 5, 5, 5, 5},
        {1, 4, 10, 16, 16, 16},       {1, 5, 17, 41, 65, 65},     {1, 6, 26, 86, 206, 326},
        {1, 7, 37, 157, 517, 1237},
    };
    return sums[r][back];
}

/* The placements filling cells i .. of a kind (s: the faces each cell may take; runs: the run after each,
 * which no face placed may show; weight[t]: what a placement of t cells counts), `used` placed before i. */
static long long seqs(const uint64_t *s, const uint64_t *runs, const long long *weight, int len, int i,
                      uint64_t used) {
    uint64_t free = s[i] & ~used;
    long long n = pc(free) * weight[i + 1];
    if (i + 1 == len || used & runs[i + 1]) return n; /* no cell after this one */
    for (uint64_t g = free & ~runs[i + 1]; g; g &= g - 1)
        n += seqs(s, runs, weight, len, i + 1, used | (g & (~g + 1)));
    return n;
}

/* The placements of two cubes or more through entry e's cell f along axis d (the roots of qb_roots_at: from
 * the cell after the run before f, or, with no run before it, from f or a free cell before it), counted by
 * combinations instead of walked. Such a placement's faces and the runs it joins are one line of one kind (a
 * colour or a shape: two distinct faces share at most one), so the count is summed over the kinds with two
 * faces or more in the hand (`kinds`; `hand`: the faces that pair) of which f may take a face. Within a kind,
 * the cells the placement fills from f on are fixed (each after the run after the last), and a face fits a
 * cell when it fits across there and is neither in the line's runs nor placed already; the placements
 * filling t of them are counted by a short enumeration (seqs), and those that also fill j free cells before f
 * (where any face fits) by the r (r - 1) .. (r - j + 1) choices of the r faces of the kind left (ff_sum). */
static long long multi_at(const QBoard *b, const uint64_t *kinds, int nk, uint64_t hand, int e, int d) {
    const QFact *x = &b->facts[e];
    uint64_t before = x->before[d], after = x->after[d], first = hand & x->cross[d] & ~after, mine[12];
    int nm = 0, most = 0;
    for (int k = 0; k < nk; k++) { /* the kinds of line the placements may make: f takes a face of it */
        uint64_t kind = kinds[k];
        int n = pc(hand & kind & ~(before | after));
        if ((before | after) & ~kind || !(first & kind) || n < 2) continue;
        mine[nm++] = kind;
        if (n > most) most = n;
    }
    if (!nm) return 0;
    /* the cells from f on (at most as many as a kind has faces, while the line has room): the faces that fit
     * across each, and the run after it */
    int f = b->cell_of[e], step = d ? QW : 1, len = 0, back = 0;
    uint64_t cross[QLINE], runs[QLINE];
    for (int room = QLINE - pc(before), p = f; len < most;) {
        uint64_t across = ALL_FACES, run_after = 0; /* a cell off the frontier has no cube near */
        if (!len) {
            across = x->cross[d];
            run_after = after;
        } else if (b->front[p]) {
            const QFact *y = &b->facts[b->fact_at[p]];
            across = y->cross[d];
            run_after = y->after[d];
        }
        room -= 1 + pc(run_after);
        if (room < 0) break;
        cross[len] = across;
        runs[len++] = run_after;
        p += step * (pc(run_after) + 1);
    }
    if (!before) /* the free cells before f (a frontier cell further back has roots of its own), as many as
                  * the kind's faces left after one on f could fill */
        for (int p = f - step, most_back = most - 1; back < most_back && !b->front[p] && !b->cell[p]; p -= step)
            back++;
    long long total = 0;
    for (int k = 0; k < nm; k++) {
        uint64_t kind = mine[k], faces = hand & kind, line = before, s[QLINE];
        long long weight[QLINE + 1];
        int t = 0;
        for (; t < len && !(runs[t] & (~kind | line)); t++) {
            line |= runs[t];
            s[t] = faces & cross[t] & ~line;
            /* a placement of t + 1 cells from f: those of two cubes or more, with 0 .. back cells before f */
            int r = pc(faces & ~line) - (t + 1);
            weight[t + 1] = r < 0 ? 0 : before ? t >= 1 : ff_sum(r, back) - (t == 0);
        }
        if (t) total += seqs(s, runs, weight, t, 0, 0);
    }
    return total;
}

/* A plain count (no emitter, one hand, a table with cubes): the placements of one cube from the faces each
 * frontier entry takes alone, those of two cubes or more by combinations (multi_at) through only the entries
 * a face that pairs with another of the hand may start (starts), of the kinds of line with two faces of the
 * hand or more. The counts per entry and axis are kept for qb_find. */
static long long count_fast(const QBoard *cb, QWalk *w) {
    QBoard *b = (QBoard *)qb_facts(cb); /* the record of the count is a cache too: the table is unchanged */
    uint64_t hand = w->hand, pairs = paired(hand);
    long long total = 0;
    unsigned no = ++b->count_no;
    if (!pairs)
        for (int e = 0; e < b->nfacts; e++) total += pc(hand & b->alone[e]);
    else {
        uint64_t kinds[12];
        int nk = 0;
        for (int a = 0; a < 12; a++) {
            uint64_t kind = a < 6 ? 0x3FULL << (6 * a) : SHAPE_MASK0 << (a - 6);
            if (pc(hand & kind) >= 2) kinds[nk++] = kind;
        }
        for (int e = 0; e < b->nfacts; e++) {
            total += pc(hand & b->alone[e]);
            if (!(pairs & (b->starts[e][0] | b->starts[e][1]))) continue;
            for (int d = 0; d < 2; d++)
                if (pairs & b->starts[e][d]) {
                    long long n = multi_at(b, kinds, nk, pairs, e, d);
                    b->multi[e][d] = (int)n;
                    b->multi_no[e][d] = no;
                    total += n;
                }
        }
    }
    w->count = total;
    b->counted = 1;
    b->count_hand = hand;
    return total;
}

int qb_find(const QBoard *b, QWalk *w) {
    if (!b->counted || b->count_hand != w->hand || w->left || w->need || !b->ncubes) return 0;
    w->count = 0;
    for (int i = 0; i < b->nfront; i++) {
        int e = b->fact[i];
        for (int d = 0; d < 2; d++) {
            long long n = d ? 0 : pc(w->hand & b->alone[e]);
            if (b->multi_no[e][d] == b->count_no) n += b->multi[e][d];
            if (w->r < n) {
                qb_roots_at(b, w, i, d);
                return 1;
            }
            w->r -= n;
        }
    }
    return 1; /* past the count: nothing to find */
}

long long qb_walk(const QBoard *b, QWalk *w) {
    w->count = 0;
    if (!++MEMO_GEN) { /* the walk numbers wrapped: forget every entry */
        memset(MEMO, 0, sizeof MEMO);
        MEMO_GEN = 1;
    }
    if (!w->emit && !w->left && !w->need && b->ncubes) {
        R_OK = 0; /* qb_locate: qb_find */
        return count_fast(b, w);
    }
    if (!w->emit) {
        NR = 0;
        R_OK = 1;
    }
    roots(b, w);
    return w->count;
}

void qb_locate(const QBoard *b, QWalk *w) {
    if (qb_find(b, w)) return;
    w->count = 0;
    if (b->ncubes) qb_facts(b);
    if (!R_OK) {
        roots(b, w);
        return;
    }
    for (int i = 0; i < NR; i++) {
        if (w->r < R[i].n) {
            node(b, w, R[i].p, R[i].step, R[i].line, R[i].conn, 0);
            return;
        }
        w->r -= R[i].n;
    }
}

/* ------------------------------------------------------------------ the walk by colour counts */
uint64_t qb_colour_offer(const int *left) {
    uint64_t offer = 0;
    for (int c = 0; c < 6; c++)
        if (left[c]) offer |= 0x3FULL << (6 * c);
    return offer;
}
