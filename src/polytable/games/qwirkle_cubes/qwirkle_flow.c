/* Qwirkle Cubes' turn sequence in C: chance (draws and rolls from the state's generator), the random
 * player's draws, and the steps of _game.py (QwirkleCubes._apply, _begin, _to_place), for the compiled
 * random playout. Every random draw is the one the Python rules make, in the same order: the chance
 * outcome from the state's generator (chance_outcome), then a seat's reroll (one draw per group of
 * identical cubes, _sample) or placement (rng.below(count), then the placement with that number).
 */
#include "qwirkle_rules.h"

#include <stddef.h>

static uint64_t hand_mask(const QGame *g, int p) {
    uint64_t m = 0;
    for (int i = 0; i < g->hlen[p]; i++) m |= 1ULL << g->hand[p][i];
    return m;
}

static uint64_t colour_mask(const QGame *g, int p) {
    uint64_t m = 0;
    for (int i = 0; i < g->hlen[p]; i++) m |= 0x3FULL << (6 * (g->hand[p][i] / 6));
    return m;
}

static int bag_size(const QGame *g) {
    int n = 0;
    for (int c = 0; c < 6; c++) n += g->bag[c];
    return n;
}

static void sort_hand(int *h, int n) {
    for (int i = 1; i < n; i++) {
        int v = h[i], j = i - 1;
        while (j >= 0 && h[j] > v) {
            h[j + 1] = h[j];
            j--;
        }
        h[j + 1] = v;
    }
}

/* _begin: player p's turn starts; they reroll (or keep), or pass when no roll could ever help. */
static void begin(QGame *g, const QBoard *b, int p) {
    g->player = p;
    g->rolling = 0;
    g->forced = 0;
    g->turn++;
    int hopeless = b->ncubes && !(qb_placeable(b) & colour_mask(g, p));
    g->phase = hopeless ? PASS : REROLL;
}

/* _to_place: after the rolls, place, or reroll the whole hand when nothing fits. */
static void to_place(QGame *g, const QBoard *b) {
    int p = g->player;
    uint64_t hm = hand_mask(g, p);
    int ok = b->ncubes ? (qb_placeable(b) & hm) != 0 : q_largest_line(hm) >= 2;
    if (ok) {
        g->phase = PLACE;
        g->rolling = 0;
    } else {
        g->phase = ROLL;
        g->rolling = (1 << g->hlen[p]) - 1;
        g->forced++;
    }
}

/* chance_outcome and _apply for a draw or a roll. */
static void chance(QGame *g, const QBoard *b) {
    uint64_t sub = g->rng;
    sub = next_u64(&sub); /* the outcome's own generator: the next value of the state's */
    g->rng += GOLDEN;  /* applying a chance outcome steps the state's generator once */
    int p = g->player, n = g->players;
    if (g->phase == SETUP_DRAW || g->phase == DRAW) {
        int want = QHAND - g->hlen[p], total = bag_size(g);
        if (total < want) want = total;
        int out[QHAND];
        for (int i = 0; i < want; i++) {
            int r = (int)below(&sub, (uint64_t)total), c = 0;
            while (r >= g->bag[c]) r -= g->bag[c++];
            g->bag[c]--;
            total--;
            out[i] = c;
        }
        sort_hand(out, want);
        int len = g->hlen[p];
        for (int i = 0; i < want; i++) g->hand[p][len + i] = out[i] * 6;
        g->hlen[p] = len + want;
        g->rolling = ((1 << want) - 1) << len;
        g->phase = g->phase == SETUP_DRAW ? SETUP_ROLL : DRAW_ROLL;
        return;
    }
    int k = __builtin_popcount((unsigned)g->rolling);
    uint64_t ways = 1;
    for (int i = 0; i < k; i++) ways *= 6;
    uint64_t r = below(&sub, ways);
    for (int i = 0; i < g->hlen[p]; i++)
        if (g->rolling >> i & 1) {
            g->hand[p][i] = g->hand[p][i] / 6 * 6 + (int)(r % 6);
            r /= 6;
        }
    sort_hand(g->hand[p], g->hlen[p]);
    g->rolling = 0;
    if (g->phase == SETUP_ROLL) {
        if (p + 1 < n) {
            g->phase = SETUP_DRAW;
            g->player = p + 1;
        } else
            begin(g, b, 0);
    } else if (g->phase == DRAW_ROLL)
        begin(g, b, (p + 1) % n);
    else
        to_place(g, b);
}

typedef struct {
    int n, faces[QHAND], cells[QHAND];
} Found;

static int locate(QWalk *w, int k) {
    Found *f = (Found *)w->ctx;
    if (w->r--) return 0;
    f->n = k;
    for (int i = 0; i < k; i++) {
        f->faces[i] = w->faces[i];
        f->cells[i] = w->cells[i];
    }
    return 1;
}

/* _apply of a placement the walk produced (legal by construction). */
static void place(QGame *g, QBoard *b, const Found *f) {
    int p = g->player, qw = 0;
    for (int i = 0; i < f->n; i++) qb_put(b, f->faces[i], f->cells[i]);
    int pts = qb_score(b, f->cells, f->n, &qw);
    for (int i = 0; i < f->n; i++) {
        int *h = g->hand[p], j = 0;
        while (h[j] != f->faces[i]) j++;
        for (; j + 1 < g->hlen[p]; j++) h[j] = h[j + 1];
        g->hlen[p]--;
    }
    int bag = bag_size(g), finished = !g->hlen[p] && !bag;
    g->points[p] += pts + (finished ? QLINE : 0);
    g->passes = 0;
    g->last[0] = p;
    g->last[1] = pts;
    g->last[2] = qw;
    if (finished) {
        g->phase = END;
        g->finisher = p;
    } else if (bag)
        g->phase = DRAW;
    else
        begin(g, b, (p + 1) % g->players);
}

long long q_playout(QGame *g, QBoard *b, uint64_t *rngs, int shared, long long max_actions, int *err) {
    long long taken = 0;
    *err = 0;
    for (;;) {
        int ph = g->phase;
        if (ph == SETUP_DRAW || ph == SETUP_ROLL || ph == ROLL || ph == DRAW || ph == DRAW_ROLL) {
            chance(g, b);
            continue;
        }
        if (ph == END || (max_actions >= 0 && taken >= max_actions)) return taken;
        int p = g->player;
        uint64_t *rng = &rngs[shared ? 0 : p];
        if (ph == REROLL) {
            const int *h = g->hand[p];
            int mask = 0;
            for (int i = 0; i < g->hlen[p];) {
                int j = i;
                while (j + 1 < g->hlen[p] && h[j + 1] == h[i]) j++;
                int size = j - i + 1;
                mask |= ((1 << below(rng, (uint64_t)size + 1)) - 1) << i;
                i = j + 1;
            }
            if (mask) {
                g->phase = ROLL;
                g->rolling = mask;
            } else
                to_place(g, b);
        } else if (ph == PLACE) {
            QWalk w = {0};
            w.hand = hand_mask(g, p);
            w.need = b->ncubes ? 0 : q_largest_line(w.hand);
            long long n = qb_walk(b, &w);
            if (n <= 0) {
                *err = 1;
                return taken;
            }
            Found f = {0};
            w.r = (long long)below(rng, (uint64_t)n);
            w.emit = locate;
            w.ctx = &f;
            qb_locate(b, &w);
            place(g, b, &f);
        } else if (ph == PASS) {
            g->passes++;
            if (g->passes >= g->players)
                g->phase = END;
            else
                begin(g, b, (p + 1) % g->players);
        } else {
            *err = 2;
            return taken;
        }
        taken++;
    }
}
