/* Forma's bridge count in C (part of the _cforma extension): _bridges.py step by step, same results.
 *
 * The Python module is the reference and documents the algorithm (Menger flows, minimal north-south paths,
 * the layered crossing flow, the greedy system, the capped exhaustive search). This file follows it line by
 * line, including every order that can change a capped result: the neighbour order (up, left, right, down),
 * the breadth-first shortest path with the leftmost start first, the depth-first enumeration of minimal
 * paths with its step counter, their sort by (length, sorted cells) and the enumeration order of path sets.
 * Flow values do not depend on the order augmenting paths are found in, so the flows are plain Edmonds-Karp.
 * Cells are indexed y * n + x on an n x n grid (n <= MAXSIZE); sets of cells are byte arrays.
 */
#include "_cforma.h"

#define BR_PATH_CAP 300
#define BR_SYSTEM_CAP 24
#define BR_STEP_CAP 4000
#define MAXC (MAXSIZE * MAXSIZE)
#define PW ((MAXC + 63) / 64) /* words of a path set */

typedef struct {
    uint64_t w[PW];
} PS; /* a set of cells indexed x * n + y: increasing bits are the sorted (x, y) tuples */

/* ------------------------------------------------------------------ flow */
#define MAXV (2 * MAXC + 2)
#define MAXE (14 * MAXC + 8)
typedef struct {
    int nv, ne;
    int head[MAXV], nxt[MAXE], to[MAXE];
    unsigned char cap[MAXE];
} G;

static void g_init(G *g, int nv) {
    g->nv = nv;
    g->ne = 0;
    for (int i = 0; i < nv; i++) g->head[i] = -1;
}
static void g_add(G *g, int u, int v) {
    int e = g->ne;
    g->to[e] = v, g->cap[e] = 1, g->nxt[e] = g->head[u], g->head[u] = e;
    g->to[e + 1] = u, g->cap[e + 1] = 0, g->nxt[e + 1] = g->head[v], g->head[v] = e + 1;
    g->ne += 2;
}
/* the maximum flow from src to snk (unit capacities) */
static int g_flow(G *g, int src, int snk) {
    static int via[MAXV], queue[MAXV];
    int flow = 0;
    for (;;) {
        for (int i = 0; i < g->nv; i++) via[i] = -1;
        via[src] = -2;
        int qh = 0, qt = 0;
        queue[qt++] = src;
        while (qh < qt && via[snk] == -1) {
            int u = queue[qh++];
            for (int e = g->head[u]; e >= 0; e = g->nxt[e]) {
                int v = g->to[e];
                if (g->cap[e] && via[v] == -1) {
                    via[v] = e;
                    queue[qt++] = v;
                }
            }
        }
        if (via[snk] == -1) return flow;
        for (int v = snk; v != src;) {
            int e = via[v];
            g->cap[e]--;
            g->cap[e ^ 1]++;
            v = g->to[e ^ 1];
        }
        flow++;
    }
}

/* neighbours of cell c in the order of _bridges._nbrs: up, left, right, down; -1 off the board */
static inline void nbrs(int n, int c, int out[4]) {
    int x = c % n, y = c / n;
    out[0] = y > 0 ? c - n : -1;
    out[1] = x > 0 ? c - 1 : -1;
    out[2] = x < n - 1 ? c + 1 : -1;
    out[3] = y < n - 1 ? c + n : -1;
}

/* _bridges.max_disjoint: most cell-disjoint top-to-bottom paths through cells */
static int max_disjoint(int n, const unsigned char *cells) {
    static G g;
    int m = n * n, src = 2 * m, snk = 2 * m + 1, nb[4];
    g_init(&g, 2 * m + 2);
    for (int c = 0; c < m; c++) {
        if (!cells[c]) continue;
        g_add(&g, 2 * c, 2 * c + 1);
        nbrs(n, c, nb);
        for (int k = 0; k < 4; k++)
            if (nb[k] >= 0 && cells[nb[k]]) g_add(&g, 2 * c + 1, 2 * nb[k]);
        if (c / n == 0) g_add(&g, src, 2 * c);
        if (c / n == n - 1) g_add(&g, 2 * c + 1, snk);
    }
    return g_flow(&g, src, snk);
}

/* _bridges._spanning: the cells of the components touching both the top and the bottom row */
static int spanning(int n, const unsigned char *cells, unsigned char *out) {
    int m = n * n, any = 0;
    static int comp[MAXC], stack[MAXC];
    unsigned char seen[MAXC];
    memset(seen, 0, (size_t)m);
    memset(out, 0, (size_t)m);
    for (int s = 0; s < m; s++) {
        if (!cells[s] || seen[s]) continue;
        int nc = 0, sp = 0, top = 0, bottom = 0, nb[4];
        seen[s] = 1;
        stack[sp++] = s;
        while (sp) {
            int u = stack[--sp];
            comp[nc++] = u;
            top |= u / n == 0;
            bottom |= u / n == n - 1;
            nbrs(n, u, nb);
            for (int k = 0; k < 4; k++)
                if (nb[k] >= 0 && cells[nb[k]] && !seen[nb[k]]) seen[nb[k]] = 1, stack[sp++] = nb[k];
        }
        if (top && bottom) {
            for (int i = 0; i < nc; i++) out[comp[i]] = 1;
            any = 1;
        }
    }
    return any;
}

/* _bridges._side: board cells off the path, 8-connected (avoiding it) to the border column */
static void side(int n, const PS *path, int column, unsigned char *out) {
    static int stack[MAXC];
    int m = n * n, sp = 0;
    memset(out, 0, (size_t)m);
    for (int y = 0; y < n; y++) {
        int c = y * n + column;
        if (!(path->w[(column * n + y) >> 6] >> ((column * n + y) & 63) & 1)) out[c] = 1, stack[sp++] = c;
    }
    while (sp) {
        int c = stack[--sp], x = c % n, y = c / n;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int a = x + dx, b = y + dy;
                if (a < 0 || a >= n || b < 0 || b >= n) continue;
                int d = b * n + a, pi = a * n + b;
                if (out[d] || (path->w[pi >> 6] >> (pi & 63) & 1)) continue;
                out[d] = 1;
                stack[sp++] = d;
            }
    }
}

static inline int ps_has(const PS *p, int n, int c) {
    int i = (c % n) * n + c / n;
    return (int)(p->w[i >> 6] >> (i & 63) & 1);
}

/* _bridges._crossing_flow: most east-west paths pairwise disjoint crossing each path exactly once */
static int crossing_flow(int n, const unsigned char *cells, const PS *const *paths, int k) {
    static unsigned char lefts[MAXSIZE][MAXC], rights[MAXSIZE][MAXC];
    static G g;
    int m = n * n, first[MAXSIZE], key[MAXSIZE], order[MAXSIZE], layer[MAXC], nb[4];
    for (int i = 0; i < k; i++) {
        side(n, paths[i], 0, lefts[i]);
        side(n, paths[i], n - 1, rights[i]);
        int lo = -1; /* min(p): the lowest (x, y) index */
        for (int w = 0; w < PW && lo < 0; w++)
            if (paths[i]->w[w]) lo = 64 * w + __builtin_ctzll(paths[i]->w[w]);
        first[i] = (lo % n) * n + lo / n; /* back to y * n + x */
    }
    for (int i = 0; i < k; i++) {
        key[i] = 0;
        for (int j = 0; j < k; j++) key[i] += rights[j][first[i]];
    }
    /* a stable sort of range(k) by key */
    for (int i = 0; i < k; i++) order[i] = i;
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0 && key[order[j - 1]] > key[order[j]]; j--) {
            int t = order[j];
            order[j] = order[j - 1], order[j - 1] = t;
        }
    for (int c = 0; c < m; c++) layer[c] = -1;
    for (int r = 0; r < k; r++)
        for (int c = 0; c < m; c++)
            if (ps_has(paths[order[r]], n, c)) layer[c] = 2 * r + 1;
    for (int c = 0; c < m; c++) {
        if (!cells[c] || layer[c] >= 0) continue;
        int j = 0, ok = 1;
        for (int r = 0; r < k; r++) {
            int i = order[r];
            if (rights[i][c]) {
                if (r != j) {
                    ok = 0;
                    break;
                }
                j++;
            } else if (!lefts[i][c]) {
                ok = 0;
                break;
            }
        }
        if (ok) layer[c] = 2 * j;
    }
    int src = 2 * m, snk = 2 * m + 1;
    g_init(&g, 2 * m + 2);
    for (int c = 0; c < m; c++) {
        int lc = layer[c];
        if (lc < 0) continue;
        g_add(&g, 2 * c, 2 * c + 1);
        nbrs(n, c, nb);
        for (int q = 0; q < 4; q++) {
            if (nb[q] < 0) continue;
            int ld = layer[nb[q]];
            if (ld < 0) continue;
            if ((ld == lc && lc % 2 == 0) || ld == lc + 1 || (lc % 2 == 1 && ld == lc + 2)) g_add(&g, 2 * c + 1, 2 * nb[q]);
        }
        if (c % n == 0 && lc <= 1) g_add(&g, src, 2 * c);
        if (c % n == n - 1 && lc >= 2 * k - 1) g_add(&g, 2 * c + 1, snk);
    }
    return g_flow(&g, src, snk);
}

/* _bridges._shortest: a shortest top-to-bottom path through cells (leftmost start on ties); 0 if none */
static int shortest(int n, const unsigned char *cells, PS *out) {
    static int parent[MAXC], queue[MAXC];
    int m = n * n, qh = 0, qt = 0, nb[4];
    for (int c = 0; c < m; c++) parent[c] = -2; /* -2 unseen, -1 a start */
    for (int x = 0; x < n; x++)
        if (cells[x]) parent[x] = -1, queue[qt++] = x;
    while (qh < qt) {
        int u = queue[qh++];
        if (u / n == n - 1) {
            memset(out, 0, sizeof *out);
            for (int w = u; w >= 0; w = parent[w]) {
                int i = (w % n) * n + w / n;
                out->w[i >> 6] |= 1ULL << (i & 63);
            }
            return 1;
        }
        nbrs(n, u, nb);
        for (int k = 0; k < 4; k++)
            if (nb[k] >= 0 && cells[nb[k]] && parent[nb[k]] == -2) parent[nb[k]] = u, queue[qt++] = nb[k];
    }
    return 0;
}

/* ------------------------------------------------------------------ minimal paths (_bridges._minimal_paths) */
typedef struct {
    int n, steps, cap, stop;
    const unsigned char *cells;
    unsigned char on[MAXC];
    int path[MAXC], len;
    PS *out;
    int *lens;
    int nout;
} MP;

static void mp_emit(MP *s, int v) {
    PS *p = &s->out[s->nout];
    memset(p, 0, sizeof *p);
    for (int i = 0; i <= s->len; i++) {
        int c = i < s->len ? s->path[i] : v, j = (c % s->n) * s->n + c / s->n;
        p->w[j >> 6] |= 1ULL << (j & 63);
    }
    s->lens[s->nout++] = s->len + 1;
    if (s->nout >= s->cap) s->stop = 1;
}

static void mp_dfs(MP *s) {
    int n = s->n, u = s->path[s->len - 1], nb[4], nv[4];
    if (++s->steps > BR_STEP_CAP) return;
    nbrs(n, u, nb);
    for (int k = 0; k < 4 && !s->stop; k++) {
        int v = nb[k];
        if (v < 0 || !s->cells[v] || s->on[v] || v / n == 0) continue;
        nbrs(n, v, nv);
        int touch = 0;
        for (int q = 0; q < 4; q++)
            if (nv[q] >= 0 && nv[q] != u && s->on[nv[q]]) touch = 1;
        if (touch) continue;
        if (v / n == n - 1) {
            mp_emit(s, v);
            continue;
        }
        s->path[s->len++] = v;
        s->on[v] = 1;
        mp_dfs(s);
        s->on[v] = 0;
        s->len--;
    }
}

/* fills out/lens (room for cap paths); returns how many; *exact as the Python's second value */
static int minimal_paths(int n, const unsigned char *cells, int cap, PS *out, int *lens, int *exact) {
    static MP s;
    s.n = n, s.steps = 0, s.cap = cap, s.stop = 0, s.cells = cells, s.out = out, s.lens = lens, s.nout = 0;
    memset(s.on, 0, sizeof s.on);
    for (int x = 0; x < n; x++) {
        if (!cells[x]) continue;
        if (n == 1) {
            memset(&out[s.nout], 0, sizeof(PS));
            out[s.nout].w[0] = 1;
            lens[s.nout++] = 1;
            continue;
        }
        s.path[0] = x, s.len = 1, s.on[x] = 1;
        mp_dfs(&s);
        s.on[x] = 0;
        if (s.stop) {
            *exact = 0;
            return s.nout;
        }
    }
    *exact = s.steps <= BR_STEP_CAP;
    return s.nout;
}

/* ------------------------------------------------------------------ the search (_bridges._search) */
typedef struct {
    int n, swap, k_max, other, evaluated, exact, done, kk;
    const unsigned char *base;
    long best[3];
    const PS *paths;
    int np;
    const PS *chosen[MAXSIZE];
} SR;

static void sr_consider(SR *r, int k, int flow) {
    if (k + flow > r->best[0]) {
        r->best[0] = k + flow;
        r->best[1] = r->swap ? flow : k;
        r->best[2] = r->swap ? k : flow;
    }
}

/* _bridges._systems with the loop body of _search; returns 1 to stop the enumeration */
static int sr_systems(SR *r, int start, int depth, const PS *used) {
    if (depth == r->kk) {
        r->evaluated++;
        if (r->evaluated > BR_SYSTEM_CAP) {
            r->exact = 0;
            return 1;
        }
        sr_consider(r, r->kk, crossing_flow(r->n, r->base, r->chosen, r->kk));
        if (r->best[0] == r->k_max + r->other) {
            r->done = 1;
            return 1;
        }
        return 0;
    }
    for (int i = start; i < r->np; i++) {
        const PS *p = &r->paths[i];
        int clash = 0;
        for (int w = 0; w < PW; w++) clash |= (used->w[w] & p->w[w]) != 0;
        if (clash) continue;
        PS u2;
        for (int w = 0; w < PW; w++) u2.w[w] = used->w[w] | p->w[w];
        r->chosen[depth] = p;
        if (sr_systems(r, i + 1, depth + 1, &u2)) return 1;
    }
    return 0;
}

/* the key (len(p), sorted(p)): with equal lengths, the lowest differing bit belongs to the smaller set */
static int path_less(const PS *a, int la, const PS *b, int lb) {
    if (la != lb) return la < lb;
    for (int w = 0; w < PW; w++) {
        uint64_t d = a->w[w] ^ b->w[w];
        if (d) return (int)(a->w[w] >> __builtin_ctzll(d) & 1);
    }
    return 0;
}

/* _bridges.count_bridges on cells[y * n + x]: out = (total, north-south, east-west), returns exact */
int forma_count_bridges(int n, const unsigned char *all, long out[3]) {
    static unsigned char ns_cells[MAXC], tr[MAXC], ew_cells_t[MAXC];
    static PS paths[BR_PATH_CAP], greedy[MAXSIZE];
    static int lens[BR_PATH_CAP];
    int m = n * n;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) tr[y * n + x] = all[x * n + y];
    int has_ns = spanning(n, all, ns_cells), has_ew = spanning(n, tr, ew_cells_t);
    int ns = has_ns ? max_disjoint(n, ns_cells) : 0, ew = has_ew ? max_disjoint(n, ew_cells_t) : 0;
    if (ns == 0 || ew == 0) {
        out[0] = ns + ew, out[1] = ns, out[2] = ew;
        return 1;
    }
    SR r;
    memset(&r, 0, sizeof r);
    r.n = n;
    const unsigned char *pcells;
    if (ns <= ew)
        r.base = all, r.k_max = ns, r.other = ew, r.swap = 0, pcells = ns_cells;
    else
        r.base = tr, r.k_max = ew, r.other = ns, r.swap = 1, pcells = ew_cells_t;
    r.best[0] = ns > ew ? ns : ew;
    r.best[1] = ns >= ew ? ns : 0;
    r.best[2] = ew > ns ? ew : 0;
    /* the greedy system: repeatedly the shortest path in the cells still free */
    unsigned char left[MAXC];
    memcpy(left, pcells, (size_t)m);
    int ng = 0;
    while (ng < r.k_max && shortest(n, left, &greedy[ng])) {
        for (int c = 0; c < m; c++)
            if (ps_has(&greedy[ng], n, c)) left[c] = 0;
        ng++;
    }
    for (int k = ng; k >= 1; k--) {
        const PS *sys[MAXSIZE];
        for (int i = 0; i < k; i++) sys[i] = &greedy[i];
        sr_consider(&r, k, crossing_flow(n, r.base, sys, k));
    }
    if (r.best[0] == r.k_max + r.other) {
        memcpy(out, r.best, sizeof r.best);
        return 1;
    }
    int np = minimal_paths(n, pcells, BR_PATH_CAP, paths, lens, &r.exact);
    /* a stable insertion sort by (len, sorted cells): keys are distinct, so any sort agrees */
    for (int i = 1; i < np; i++)
        for (int j = i; j > 0 && path_less(&paths[j], lens[j], &paths[j - 1], lens[j - 1]); j--) {
            PS t = paths[j];
            paths[j] = paths[j - 1], paths[j - 1] = t;
            int l = lens[j];
            lens[j] = lens[j - 1], lens[j - 1] = l;
        }
    r.paths = paths;
    r.np = np;
    for (int k = r.k_max; k >= 1; k--) {
        if (k + r.other <= r.best[0]) break;
        PS none;
        memset(&none, 0, sizeof none);
        r.kk = k;
        sr_systems(&r, 0, 0, &none);
        if (r.done) break;
        if (r.evaluated > BR_SYSTEM_CAP) break;
    }
    memcpy(out, r.best, sizeof r.best);
    return r.exact;
}

/* a colour's bitboard (stride size + 4, rows from the top) to cells[y * n + x] */
void forma_cells_of(const T *t, const B *own, unsigned char *cells) {
    int n = t->size;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) cells[y * n + x] = (unsigned char)b_bit(own, y * t->stride + x);
}

/* _rules.bridge_total: a colour's largest allowed set of bridges; returns exact */
int forma_bridge_total(const T *t, const B *own, long *total) {
    unsigned char cells[MAXC];
    long out[3];
    forma_cells_of(t, own, cells);
    int exact = forma_count_bridges(t->size, cells, out);
    *total = out[0];
    return exact;
}
