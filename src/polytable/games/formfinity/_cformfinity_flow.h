/* FORMFINITY's turn flow and random playout in C, included by _cformfinity.c (see _native.py).
 *
 * It mirrors _flow.py and the sampling of _game.py step for step: the card drawn at a chance node (the
 * generator's draws or the deck, from the state's own generator), the uniform pick among the legal
 * actions with the same draws as FormfinityGame._sample (a placement: below(total), then the k-th anchor
 * in (orientation, bit) order; a claim or an area: below(count), the k-th in the legal order), and every
 * consequence: lines claimed (or a choice when they exclude each other), areas finished and scored, the
 * connection, numbers, the end of a blocked or hopeless game and its winners. The setup comes from
 * Python as one tuple (_native._pack), read again only when another setup comes. Whatever it does not
 * hold (more than 64 areas, a line or deck table overflow) makes the playout decline: Python then plays.
 * Single-threaded: the GIL is held, so the flow state is one static value.
 */
#define MAXPLAYERS 4
#define MAXAREAS 64
#define MAXNUMS (MAXSIDE * MAXSIDE)
#define MAXLINES 4096
#define MAXDECK 10000
#define MAXPOSS 256 /* every fixed shape, and each with its rotations: 182 */
#define NO_WAY 999 /* _flow.NO_WAY */

enum { G_LINES, G_AREAS, G_CONN, G_NUMBERS };
enum { PH_CHOOSE, PH_DRAW, PH_PLACE, PH_CLAIM, PH_OVER };

/* Orientations per shape (_cards.ROTATIONS) and shape ids by size (contiguous: SHAPES is by size). */
static int rot_n[MAXSHAPES], rot_ids[MAXSHAPES][4], size_first[6], size_count[6];

/* The setup of one configuration (_board.Setup and its Rules). */
static struct {
    PyObject *pack; /* the tuple these values came from (a reference held until the next one) */
    int W, H, S, goal, players, nareas, nnums, corner, connect, length, target, hard, dirs, arrows, rotmode;
    BB full, playable, wall, star[2], areas[MAXAREAS], nums[MAXNUMS], nums_all;
    int gen, sizes[5], counts[3], arrw[5], rotation, ndeck, shuffle, deck[MAXDECK];
    int nposs, poss_n[MAXPOSS], poss_o[MAXPOSS][4], poss_ne[MAXPOSS], poss_e[MAXPOSS][5];
} G;

/* The game state (FormfinityState) during a playout. */
static struct {
    uint64_t rng, done;
    int ndeck, deck[MAXDECK];
    BB own[MAXPLAYERS], last;
    int turn, phase, card, left, placed, area, fails, nlines, lines[MAXLINES][3], nnum, num[MAXNUMS], nwin,
        win[MAXPLAYERS];
    long points[MAXPLAYERS], cards_drawn, unused;
} F;

static int fail;                           /* set when a table would overflow: the playout declines */
static int deck_moved; /* set when a card leaves the deck (the deck tuple is made anew) */
static int cur_n, cur_s[4], cd[MAXLINES], cb[MAXLINES];
static BB cur_a[4];

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
static int gen_draw(uint64_t *s) {
    int size = ff_pick(s, G.sizes, 5);
    int shape = size_first[size + 1] + (int)below(s, (uint64_t)size_count[size + 1]);
    int count = ff_pick(s, G.counts, 3), narrows = ff_pick(s, G.arrw, 5), nsub = 0, subs[16];
    for (int m = 0; m < 16; m++)
        if (__builtin_popcount((unsigned)m) == narrows) subs[nsub++] = m;
    int edges = subs[below(s, (uint64_t)nsub)];
    int rot = (int)below(s, 100) < G.rotation;
    return ((shape * 3 + count) * 16 + edges) * 2 + rot;
}

/* ------------------------------------------------------------------ constraints and placements */
static void drawn_bb(BB *d) {
    *d = F.own[0];
    for (int p = 1; p < G.players; p++) b_or(d, &F.own[p]);
}
static void race_of(Race *r) {
    r->S = G.S;
    r->corner = G.corner;
    r->full = G.full;
    r->playable = G.playable;
    r->star[0] = G.star[0];
    r->star[1] = G.star[1];
    r->own[0] = F.own[0];
    r->own[1] = F.own[1];
}

/* _flow.constraints: blocked, allowed and (returns 1) touch for `p`'s next element. */
static int constraints(int p, BB *blocked, BB *allowed, BB *touch) {
    BB drawn, free = G.playable, t;
    drawn_bb(&drawn);
    *blocked = G.wall;
    b_or(blocked, &drawn);
    b_andnot(&free, &drawn);
    *allowed = free;
    if (G.goal == G_LINES) return 0;
    if (G.goal == G_AREAS) {
        if (F.area >= 0) b_and(allowed, &G.areas[F.area]);
        else memset(allowed, 0, sizeof(*allowed));
        return 0;
    }
    if (G.goal == G_CONN) {
        const BB *opp = &F.own[1 - p];
        BB ring, own = F.own[p];
        if (G.corner) {
            b_n4(opp, &G.full, G.S, &ring);
            b_or(&ring, opp);
        } else
            b_n8(opp, &G.full, G.S, &ring);
        b_andnot(allowed, &ring);
        b_or(&own, &G.star[p]);
        b_n4(&own, &G.full, G.S, touch);
        return 1;
    }
    t = G.nums_all;
    if (F.nnum < G.nnums) b_andnot(&t, &G.nums[F.nnum]);
    b_andnot(allowed, &t);
    if (G.connect && b_any(&drawn)) {
        b_n4(&drawn, &G.full, G.S, touch);
        return 1;
    }
    return 0;
}

/* _flow._anchors: the orientations of an element that `p` can place, with their anchors. */
static int anchors_for(int p, const int *orients, int no, int edges, int *shapes, BB *anch) {
    BB blocked, allowed, touch;
    int ht = constraints(p, &blocked, &allowed, &touch);
    int n = anchors_core(G.W, G.H, orients, no, edges, &blocked, &allowed, ht ? &touch : NULL, shapes, anch);
    if (n && G.goal == G_CONN) {
        Race r;
        race_of(&r);
        n = keep_way_core(&r, p, n, shapes, anch);
    }
    return n;
}

/* _flow.placements for the current card and the player to move, into cur_*. */
static int cur_placements(void) {
    int shape = F.card / 96, rot = F.card & 1, edges = (F.card >> 1) & 15, o[4], no;
    if (G.rotmode == 1 || (G.rotmode == 0 && rot)) {
        no = rot_n[shape];
        memcpy(o, rot_ids[shape], sizeof(o));
    } else {
        no = 1;
        o[0] = shape;
    }
    cur_n = anchors_for(F.turn, o, no, G.arrows ? edges : 0, cur_s, cur_a);
    return cur_n;
}

/* ------------------------------------------------------------------ lines */
static int line_off(int d) { return d == 0 ? 1 : d == 1 ? G.S : d == 2 ? G.S + 1 : G.S - 1; }

/* _flow.claimable into cd/cb (in the legal order: by direction, then start square); returns how many. */
static int claimable(void) {
    BB drawn, by[4], every, acc, t;
    drawn_bb(&drawn);
    memset(by, 0, sizeof(by));
    memset(&every, 0, sizeof(every));
    for (int i = 0; i < F.nlines; i++) {
        int d = F.lines[i][1], b = F.lines[i][2], off = line_off(d);
        for (int k = 0; k < G.length; k++) {
            b_set(&by[d], b + off * k);
            b_set(&every, b + off * k);
        }
    }
    int n = 0;
    for (int d = 0; d < 4; d++) {
        if (!(G.dirs >> d & 1)) continue;
        int off = line_off(d);
        acc = drawn;
        for (int k = 1; k < G.length && b_any(&acc); k++) {
            b_shr(&drawn, off * k, &t);
            b_and(&acc, &t);
        }
        const BB *forbid = G.hard ? &every : &by[d];
        for (int b = b_lowest(&acc); b >= 0; b = b_lowest(&acc)) {
            acc.w[b >> 6] &= ~(1ULL << (b & 63));
            int ok = 1;
            for (int k = 0; ok && k < G.length; k++) ok = !b_get(forbid, b + off * k);
            if (!ok) continue;
            if (n == MAXLINES) {
                fail = 1;
                return n;
            }
            cd[n] = d;
            cb[n++] = b;
        }
    }
    return n;
}

static int windows_meet(int d1, int b1, int d2, int b2) {
    int o1 = line_off(d1), o2 = line_off(d2);
    for (int i = 0; i < G.length; i++)
        for (int j = 0; j < G.length; j++)
            if (b1 + o1 * i == b2 + o2 * j) return 1;
    return 0;
}

static int add_line(int d, int b) {
    if (F.nlines == MAXLINES) return fail = 1;
    F.lines[F.nlines][0] = F.turn;
    F.lines[F.nlines][1] = d;
    F.lines[F.nlines++][2] = b;
    return 0;
}

/* _flow._check_lines_win: 1 when the mover has reached the target (the game is over). */
static int check_lines_win(void) {
    int mine = 0;
    for (int i = 0; i < F.nlines; i++) mine += F.lines[i][0] == F.turn;
    if (mine < G.target) return 0;
    F.phase = PH_OVER;
    F.nwin = 1;
    F.win[0] = F.turn;
    F.left = 0;
    return 1;
}

/* _flow._claims: claim every new line, or stop for a choice when they exclude each other. */
static void claims(void) {
    int n = claimable();
    if (!n || fail) return;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if ((G.hard || cd[i] == cd[j]) && windows_meet(cd[i], cb[i], cd[j], cb[j])) {
                F.phase = PH_CLAIM;
                return;
            }
    for (int i = 0; i < n; i++)
        if (add_line(cd[i], cb[i])) return;
    check_lines_win();
}
