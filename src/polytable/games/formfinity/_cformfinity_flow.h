/* FORMFINITY's turn flow and random playout in C, included by _cformfinity.c (see _native.py).
 *
 * It mirrors _flow.py and the sampling of _game.py step for step: the card drawn at a chance node (the
 * generator's draws or the deck, from the state's own generator), the uniform pick among the legal
 * actions with the same draws as FormfinityGame._sample (a placement: below(total), then the k-th anchor
 * in (orientation, bit) order; a claim or an area: below(count), the k-th in the legal order), and every
 * consequence: lines claimed (or a choice when they exclude each other), areas finished and scored, the
 * connection, numbers, the end of a blocked or hopeless game and its winners.
 *
 * A game is a context (FF): the set-up of its configuration (FFSetup, read from Python's packed tuple,
 * _kernel.pack, and shared by every game of that configuration), its state (FFState) and the work of the
 * step under way. Every function takes it, so one extension can hold many games at once (the batch,
 * _cformfinity_vec.c). Whatever a context does not hold (more than 64 areas, a deck table overflow)
 * makes the playout decline: Python then plays.
 */
#define MAXPLAYERS 4
#define MAXAREAS 64
#define MAXNUMS (MAXSIDE * MAXSIDE)
#define MAXLINES (4 * MAXSIDE * MAXSIDE) /* every line of every direction: the tables never overflow */
#define MAXDECK 10000
#define MAXPOSS 256 /* every fixed shape, and each with its rotations: 182 */
#define NO_WAY 999 /* _flow.NO_WAY */

enum { G_LINES, G_AREAS, G_CONN, G_NUMBERS };
enum { PH_CHOOSE, PH_DRAW, PH_PLACE, PH_CLAIM, PH_OVER };

/* Orientations per shape (_cards.ROTATIONS) and shape ids by size (contiguous: SHAPES is by size). */
static int rot_n[MAXSHAPES], rot_ids[MAXSHAPES][4], size_first[6], size_count[6];

/* The set-up of one configuration (_board.Setup and its Rules); words: the board words it uses. */
typedef struct {
    int W, H, S, words, goal, players, nareas, nnums, corner, connect, length, target, hard, dirs, arrows, rotmode;
    BB full, playable, wall, star[2], areas[MAXAREAS], nums[MAXNUMS], nums_all;
    int gen, sizes[5], counts[3], arrw[5], rotation, ndeck, shuffle, deck[MAXDECK];
    int nposs, poss_n[MAXPOSS], poss_o[MAXPOSS][4], poss_ne[MAXPOSS], poss_e[MAXPOSS][5];
} FFSetup;

/* One game's state (FormfinityState). */
typedef struct {
    uint64_t rng, done;
    BB own[MAXPLAYERS], last;
    int turn, phase, card, left, placed, area, fails, nwin, win[MAXPLAYERS];
    long points[MAXPLAYERS], cards_drawn, unused;
    int ndeck, nlines, nnum, num[MAXNUMS], lines[MAXLINES][3], deck[MAXDECK];
} FFState;

/* A game being played: its set-up and state, and the step's work. fail: a table would overflow (the
 * playout declines); deck_moved: a card left the deck (Python's deck tuple is made anew); cur_*: the
 * placements of the current element (cur_placements); cd/cb: the claimable lines (claimable). */
typedef struct {
    const FFSetup *g;
    FFState *f;
    int fail, deck_moved, cur_n, cur_s[4];
    BB cur_a[4];
    int cd[MAXLINES], cb[MAXLINES];
} FF;

/* ------------------------------------------------------------------ the generator (core._rng) */
/* next_u64 and below: core/_rng.h, included by _cformfinity.c */
/* _cards._pick: an index drawn with the given weights. */
static int ff_pick(uint64_t *s, const int *w, int n) {
    uint64_t total = 0;
    for (int i = 0; i < n; i++) total += (uint64_t)w[i];
    uint64_t r = below(s, total);
    for (int i = 0; i < n; i++) {
        if (r < (uint64_t)w[i]) return i;
        r -= (uint64_t)w[i];
    }
    return n - 1;
}
/* CardGenerator.draw: a card id. */
static int gen_draw(FF *c, uint64_t *s) {
    const FFSetup *g = c->g;
    int size = ff_pick(s, g->sizes, 5);
    int shape = size_first[size + 1] + (int)below(s, (uint64_t)size_count[size + 1]);
    int count = ff_pick(s, g->counts, 3), narrows = ff_pick(s, g->arrw, 5), nsub = 0, subs[16];
    for (int m = 0; m < 16; m++)
        if (__builtin_popcount((unsigned)m) == narrows) subs[nsub++] = m;
    int edges = subs[below(s, (uint64_t)nsub)];
    int rot = (int)below(s, 100) < g->rotation;
    return ((shape * 3 + count) * 16 + edges) * 2 + rot;
}

/* ------------------------------------------------------------------ constraints and placements */
static void drawn_bb(FF *c, BB *d) {
    const FFSetup *g = c->g;
    FFState *f = c->f;
    *d = f->own[0];
    for (int p = 1; p < g->players; p++) b_or(d, &f->own[p]);
}
static void race_of(FF *c, Race *r) {
    const FFSetup *g = c->g;
    FFState *f = c->f;
    r->S = g->S;
    r->corner = g->corner;
    r->full = g->full;
    r->playable = g->playable;
    r->star[0] = g->star[0];
    r->star[1] = g->star[1];
    r->own[0] = f->own[0];
    r->own[1] = f->own[1];
}

/* _flow.constraints: blocked, allowed and (returns 1) touch for `p`'s next element. */
static int constraints(FF *c, int p, BB *blocked, BB *allowed, BB *touch) {
    const FFSetup *g = c->g;
    FFState *f = c->f;
    BB drawn, free = g->playable, t;
    drawn_bb(c, &drawn);
    *blocked = g->wall;
    b_or(blocked, &drawn);
    b_andnot(&free, &drawn);
    *allowed = free;
    if (g->goal == G_LINES) return 0;
    if (g->goal == G_AREAS) {
        if (f->area >= 0) b_and(allowed, &g->areas[f->area]);
        else memset(allowed, 0, sizeof(*allowed));
        return 0;
    }
    if (g->goal == G_CONN) {
        const BB *opp = &f->own[1 - p];
        BB ring, own = f->own[p];
        if (g->corner) {
            b_n4(opp, &g->full, g->S, &ring);
            b_or(&ring, opp);
        } else
            b_n8(opp, &g->full, g->S, &ring);
        b_andnot(allowed, &ring);
        b_or(&own, &g->star[p]);
        b_n4(&own, &g->full, g->S, touch);
        return 1;
    }
    t = g->nums_all;
    if (f->nnum < g->nnums) b_andnot(&t, &g->nums[f->nnum]);
    b_andnot(allowed, &t);
    if (g->connect && b_any(&drawn)) {
        b_n4(&drawn, &g->full, g->S, touch);
        return 1;
    }
    return 0;
}

/* _flow._anchors: the orientations of an element that `p` can place, with their anchors. */
static int anchors_for(FF *c, int p, const int *orients, int no, int edges, int *shapes, BB *anch) {
    const FFSetup *g = c->g;
    BB blocked, allowed, touch;
    int ht = constraints(c, p, &blocked, &allowed, &touch);
    int n = anchors_core(g->W, g->H, orients, no, edges, &blocked, &allowed, ht ? &touch : NULL, shapes, anch);
    if (n && g->goal == G_CONN) {
        Race r;
        race_of(c, &r);
        n = keep_way_core(&r, p, n, shapes, anch);
    }
    return n;
}

/* The squares of shape `s` placed with its anchor at bit `at` (the batch applies an id, the AI's greedy its pick). */
static void shape_mask(FF *c, int s, int at, BB *mask) {
    const FFSetup *g = c->g;
    memset(mask, 0, sizeof(*mask));
    for (int k = 0; k < sh_n[s]; k++) b_set(mask, at + sh_y[s][k] * g->S + sh_x[s][k]);
}

/* _flow.placements for the current card and the player to move, into cur_*. */
static int cur_placements(FF *c) {
    const FFSetup *g = c->g;
    FFState *f = c->f;
    int shape = f->card / 96, rot = f->card & 1, edges = (f->card >> 1) & 15, o[4], no;
    if (g->rotmode == 1 || (g->rotmode == 0 && rot)) {
        no = rot_n[shape];
        memcpy(o, rot_ids[shape], sizeof(o));
    } else {
        no = 1;
        o[0] = shape;
    }
    c->cur_n = anchors_for(c, f->turn, o, no, g->arrows ? edges : 0, c->cur_s, c->cur_a);
    return c->cur_n;
}

/* ------------------------------------------------------------------ lines */
static int line_off(const FF *c, int d) {
    int S = c->g->S;
    return d == 0 ? 1 : d == 1 ? S : d == 2 ? S + 1 : S - 1;
}

/* _flow.claimable into c->cd/cb (in the legal order: by direction, then start square); returns how many. */
static int claimable(FF *c) {
    const FFSetup *g = c->g;
    FFState *f = c->f;
    BB drawn, by[4], every, acc, t;
    drawn_bb(c, &drawn);
    memset(by, 0, sizeof(by));
    memset(&every, 0, sizeof(every));
    for (int i = 0; i < f->nlines; i++) {
        int d = f->lines[i][1], b = f->lines[i][2], off = line_off(c, d);
        for (int k = 0; k < g->length; k++) {
            b_set(&by[d], b + off * k);
            b_set(&every, b + off * k);
        }
    }
    int n = 0;
    for (int d = 0; d < 4; d++) {
        if (!(g->dirs >> d & 1)) continue;
        int off = line_off(c, d);
        acc = drawn; /* the starts of runs of `len` drawn squares along off, len doubling up to the length */
        int len = 1;
        while (2 * len <= g->length && b_any(&acc)) {
            b_shr(&acc, off * len, &t);
            b_and(&acc, &t);
            len *= 2;
        }
        if (len < g->length && b_any(&acc)) { /* two runs of len, overlapping, make one of the length */
            b_shr(&acc, off * (g->length - len), &t);
            b_and(&acc, &t);
        }
        const BB *forbid = g->hard ? &every : &by[d];
        for (int b = b_lowest(&acc); b >= 0; b = b_lowest(&acc)) {
            acc.w[b >> 6] &= ~(1ULL << (b & 63));
            int ok = 1;
            for (int k = 0; ok && k < g->length; k++) ok = !b_get(forbid, b + off * k);
            if (!ok) continue;
            if (n == MAXLINES) {
                c->fail = 1;
                return n;
            }
            c->cd[n] = d;
            c->cb[n++] = b;
        }
    }
    return n;
}

static int windows_meet(FF *c, int d1, int b1, int d2, int b2) {
    const FFSetup *g = c->g;
    int o1 = line_off(c, d1), o2 = line_off(c, d2);
    for (int i = 0; i < g->length; i++)
        for (int j = 0; j < g->length; j++)
            if (b1 + o1 * i == b2 + o2 * j) return 1;
    return 0;
}

static int add_line(FF *c, int d, int b) {
    FFState *f = c->f;
    if (f->nlines == MAXLINES) return c->fail = 1;
    f->lines[f->nlines][0] = f->turn;
    f->lines[f->nlines][1] = d;
    f->lines[f->nlines++][2] = b;
    return 0;
}

/* _flow._check_lines_win: 1 when the mover has reached the target (the game is over). */
static int check_lines_win(FF *c) {
    const FFSetup *g = c->g;
    FFState *f = c->f;
    int mine = 0;
    for (int i = 0; i < f->nlines; i++) mine += f->lines[i][0] == f->turn;
    if (mine < g->target) return 0;
    f->phase = PH_OVER;
    f->nwin = 1;
    f->win[0] = f->turn;
    f->left = 0;
    return 1;
}

/* _flow._claims: claim every new line, or stop for a choice when they exclude each other. */
static void claims(FF *c) {
    const FFSetup *g = c->g;
    FFState *f = c->f;
    int n = claimable(c);
    if (!n || c->fail) return;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if ((g->hard || c->cd[i] == c->cd[j]) && windows_meet(c, c->cd[i], c->cb[i], c->cd[j], c->cb[j])) {
                f->phase = PH_CLAIM;
                return;
            }
    for (int i = 0; i < n; i++)
        if (add_line(c, c->cd[i], c->cb[i])) return;
    check_lines_win(c);
}
