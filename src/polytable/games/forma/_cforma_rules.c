/* Forma's rules in C (part of the _cforma extension; _cforma.h has the shared types, _cforma.c the Python side).
 *
 * It mirrors, bit for bit, the bitboard rules of _pieces.py, _rules.py, _setup.py and _game.py: move
 * generation through the anchor table, a placement's effect and score, whose turn is next, touch-move picks,
 * the players' set-up and its random fill, and a random playout to the end. Random draws use the same
 * SplitMix64 generator and the same draws in the same order as the Python rules, so a seeded game is
 * identical in both engines. Bridges are counted by _cforma_bridges.c (the port of _bridges.py), only when
 * the cheap C tests say a new bridge may have formed.
 */
#include "_cforma.h"

void forma_flood(const T *t, const B *seed, const B *pass, B *out) {
    bits_flood(seed->w, pass->w, NW, t->stride, out->w, NULL);
}
static inline void b_and(const B *a, const B *b, B *o) {
    for (int i = 0; i < NW; i++) o->w[i] = a->w[i] & b->w[i];
}
static inline void b_or_shr(B *a, int k) {
    B s;
    b_shr(a, k, &s);
    for (int i = 0; i < NW; i++) a->w[i] |= s.w[i];
}
/* _rules.may_bridge */
static int may_bridge(const T *t, const B *own, const B *nw) {
    if (!((b_intersects(own, &t->top) && b_intersects(own, &t->bottom)) ||
          (b_intersects(own, &t->left) && b_intersects(own, &t->right))))
        return 0;
    B a = *own, x, y, m;
    b_or_shr(&a, 1);
    b_or_shr(&a, 2);
    b_or_shr(&a, 4);
    b_shr(&a, 8, &x);
    b_shr(&a, 15, &y);
    for (int i = 0; i < NW; i++) m.w[i] = (a.w[i] | x.w[i] | y.w[i]) & t->left.w[i];
    int ns = b_eq(&m, &t->left);
    B c = *own;
    int st = t->stride;
    b_or_shr(&c, st);
    b_or_shr(&c, 2 * st);
    b_or_shr(&c, 4 * st);
    b_or_shr(&c, 8 * st);
    b_or_shr(&c, 16 * st);
    b_and(&c, &t->top, &m);
    int ew = b_eq(&m, &t->top);
    if (!(ns || ew)) return 0;
    B comp;
    forma_flood(t, nw, own, &comp);
    return (b_intersects(&comp, &t->top) && b_intersects(&comp, &t->bottom)) ||
           (b_intersects(&comp, &t->left) && b_intersects(&comp, &t->right));
}
/* _rules.bridge_bound */
static int bridge_bound(const T *t, const B *own) {
    B s, e, ns, ew, m;
    b_and(own, &t->top, &s);
    forma_flood(t, &s, own, &s);
    b_and(own, &t->bottom, &e);
    forma_flood(t, &e, own, &e);
    b_and(&s, &e, &ns);
    b_and(own, &t->left, &s);
    forma_flood(t, &s, own, &s);
    b_and(own, &t->right, &e);
    forma_flood(t, &e, own, &e);
    b_and(&s, &e, &ew);
    int bound = 0;
    if (b_any(&ns)) {
        int best = 1 << 30;
        for (int y = 0; y < t->size; y++) {
            b_shr(&ns, y * t->stride, &m);
            int c = __builtin_popcountll(m.w[0] & t->row_mask);
            if (c < best) best = c;
        }
        bound += best;
    }
    if (b_any(&ew)) {
        int best = 1 << 30;
        for (int x = 0; x < t->size; x++) {
            b_shr(&ew, x, &m);
            b_and(&m, &t->left, &m);
            int c = b_count(&m);
            if (c < best) best = c;
        }
        bound += best;
    }
    return bound;
}


/* ------------------------------------------------------------------ move generation */
int forma_count_moves(const T *t, const int *stock, const B *free, int only) {
    B sh[64], a;
    shifts(t, free, sh);
    int total = 0;
    for (int p = only < 0 ? 0 : only; p < (only < 0 ? NP : only + 1); p++) {
        if (!stock[p]) continue;
        for (int g = piece_first[p]; g < piece_first[p + 1]; g++) {
            anchors_of(t, sh, g, &a);
            total += b_count(&a);
        }
    }
    return total;
}

int forma_can_place(const T *t, const int *stock, const B *free) {
    if (!b_any(free)) return 0;
    int held = 0;
    for (int p = 0; p < NP; p++) held |= stock[p];
    if (!held) return 0;
    if (stock[0]) return 1;
    B sh[64], a;
    shifts(t, free, sh);
    for (int p = 1; p < NP; p++) {
        if (!stock[p]) continue;
        for (int g = piece_first[p]; g < piece_first[p + 1]; g++) {
            anchors_of(t, sh, g, &a);
            if (b_any(&a)) return 1;
        }
    }
    return 0;
}

/* _rules.sample_move: (orientation, anchor) of a uniform legal placement; -1 when none. */
int forma_sample_move(const T *t, const int *stock, const B *free, uint64_t *rng, int only, int *anchor) {
    if (only < 0 && b_count(free) * 100 > t->cells * 72) {
        uint64_t n = (uint64_t)t->nflat;
        for (int i = 0; i < TRIES; i++) {
            uint64_t r;
            do r = next_u64(rng) >> t->flat_shift;
            while (r >= n);
            int g = t->flat_g[r], pos = t->flat_pos[r];
            if (!stock[orient_piece[g]]) continue;
            int ok = 1;
            for (int k = 0; k < t->olen[g]; k++)
                if (!b_bit(free, pos + t->ooff[g][k])) {
                    ok = 0;
                    break;
                }
            if (ok) {
                *anchor = pos;
                return g;
            }
        }
    }
    B sh[64], tab[NO];
    int counts[NO], gs[NO], ng = 0, total = 0;
    shifts(t, free, sh);
    for (int p = only < 0 ? 0 : only; p < (only < 0 ? NP : only + 1); p++) {
        if (!stock[p] && only < 0) continue;
        for (int g = piece_first[p]; g < piece_first[p + 1]; g++) {
            anchors_of(t, sh, g, &tab[ng]);
            counts[ng] = b_count(&tab[ng]);
            total += counts[ng];
            gs[ng++] = g;
        }
    }
    if (!total) return -1;
    int r = (int)below(rng, (uint64_t)total);
    for (int i = 0; i < ng; i++) {
        if (r < counts[i]) {
            *anchor = b_select(&tab[i], r);
            return gs[i];
        }
        r -= counts[i];
    }
    return -1;
}

void forma_placement_mask(const T *t, int g, int anchor, B *m) {
    memset(m, 0, sizeof *m);
    for (int k = 0; k < t->olen[g]; k++) b_set(m, anchor + t->ooff[g][k]);
}

/* ------------------------------------------------------------------ one placement and its score */


/* _rules.place_effect without the bridge count: fills *filled, *enc, *closed (new), *own; returns the
 * points; *bound is bridge_bound(own) when may_bridge says a bridge may have formed, else -1. */
long forma_effect(const T *t, const B *filled0, const B *watch, const B *obstacles, const B *tower,
                   const B *closed0, const B *own0, const B *mask, int size, B *filled, B *enc, B *closed, B *own,
                   int *bound) {
    B free;
    for (int i = 0; i < NW; i++) {
        filled->w[i] = filled0->w[i] | mask->w[i];
        free.w[i] = t->board.w[i] & ~filled->w[i];
    }
    enclosed(t, filled, &free, enc);
    B nw;
    for (int i = 0; i < NW; i++) {
        filled->w[i] |= enc->w[i];
        own->w[i] = own0->w[i] | mask->w[i] | enc->w[i];
        nw.w[i] = mask->w[i] | enc->w[i];
    }
    long points = size + 10L * b_count(enc);
    memset(closed, 0, sizeof *closed);
    if (b_intersects(&nw, watch)) {
        B pending;
        for (int i = 0; i < NW; i++) pending.w[i] = (obstacles->w[i] | tower->w[i]) & ~closed0->w[i];
        enclosed(t, filled, &pending, closed);
        if (b_any(closed)) {
            if (b_intersects(closed, tower)) points += 50;
            B co, mine;
            b_and(closed, obstacles, &co);
            enclosed(t, own, &co, &mine);
            points += 10L * b_count(&mine);
        }
    }
    *bound = may_bridge(t, own, &nw) ? bridge_bound(t, own) : -1;
    return points;
}

int forma_next_turn(const T *t, const S *s, const B *free, int player) {
    for (int i = 1; i <= s->n; i++) {
        int q = (player + i) % s->n;
        if (forma_can_place(t, s->stock[q], free)) return q;
    }
    return TERMINAL;
}

/* Game._apply for a placement of orientation g at anchor by the player to move. */
static void apply_place(const T *t, S *s, int g, int anchor) {
    int pl = s->turn, p = orient_piece[g];
    B mask, filled, enc, closed, own, own0;
    forma_placement_mask(t, g, anchor, &mask);
    for (int i = 0; i < NW; i++) own0.w[i] = s->pieces[pl].w[i] | s->markers[pl].w[i];
    int bound;
    long points = forma_effect(t, &s->filled, &s->watch, &s->obstacles, &s->tower, &s->closed, &own0, &mask, piece_size[p],
                         &filled, &enc, &closed, &own, &bound);
    if (bound > s->bridges[pl]) {
        long total;
        if (!forma_bridge_total(t, &own, &total)) s->exact = 0;
        if (total > s->bridges[pl]) {
            points += 50 * (total - s->bridges[pl]);
            s->bridges[pl] = total;
        }
    }
    for (int i = 0; i < NW; i++) {
        s->pieces[pl].w[i] |= mask.w[i];
        s->markers[pl].w[i] |= enc.w[i];
    }
    s->stock[pl][p]--;
    s->scores[pl] += points;
    if (b_any(&closed)) {
        B pend;
        for (int i = 0; i < NW; i++) {
            s->closed.w[i] |= closed.w[i];
            pend.w[i] = (s->obstacles.w[i] | s->tower.w[i]) & ~s->closed.w[i];
        }
        neighbours(t, &pend, &s->watch);
    }
    s->filled = filled;
    B free;
    for (int i = 0; i < NW; i++) free.w[i] = t->board.w[i] & ~filled.w[i];
    s->turn = forma_next_turn(t, s, &free, pl);
    s->moves++;
    s->last = mask;
    s->picked = -1;
    s->misses = 0;
}


/* ------------------------------------------------------------------ touch-move (_game._apply_pick) */
/* _rules.piece_fits: some orientation of the piece fits somewhere on the free cells */
static int piece_fits(const T *t, int piece, const B *free) {
    if (piece == 0) return b_any(free);
    B sh[64], a;
    shifts(t, free, sh);
    for (int g = piece_first[piece]; g < piece_first[piece + 1]; g++) {
        anchors_of(t, sh, g, &a);
        if (b_any(&a)) return 1;
    }
    return 0;
}

/* Pick up a piece: if it fits it must be placed; if not it leaves the game and the player picks once more
 * (only when some remaining piece fits and this was the first miss), else the turn passes. */
static void apply_pick(const T *t, S *s, int piece) {
    int pl = s->turn;
    B free;
    for (int i = 0; i < NW; i++) free.w[i] = t->board.w[i] & ~s->filled.w[i];
    if (piece_fits(t, piece, &free)) {
        s->picked = piece;
        s->misses = 0;
    } else {
        s->stock[pl][piece]--;
        s->picked = -1;
        if (s->misses == 0 && forma_can_place(t, s->stock[pl], &free))
            s->misses = 1;
        else {
            s->turn = forma_next_turn(t, s, &free, pl);
            s->misses = 0;
        }
    }
    s->moves++;
}

/* _game._draw's pick: uniform over the pieces held */
static int sample_pick(const S *s, uint64_t *rng) {
    int held[NP], n = 0;
    for (int p = 0; p < NP; p++)
        if (s->stock[s->turn][p]) held[n++] = p;
    if (!n) return -1;
    return held[below(rng, (uint64_t)n)];
}

/* ------------------------------------------------------------------ the players' set-up (_setup.py) */
/* _state.allowed_cells: off the border, not on or next to a taken cell, not the last open side of an empty
 * cell the taken ones wall in on three sides */
static void allowed_cells(const T *t, const B *taken, B *out) {
    B le, ri, up, dn, three, a, b, c, d;
    b_shl(taken, 1, &le);
    b_shr(taken, 1, &ri);
    b_shl(taken, t->stride, &up);
    b_shr(taken, t->stride, &dn);
    for (int i = 0; i < NW; i++)
        three.w[i] = t->board.w[i] & ~taken->w[i] &
                     ((le.w[i] & ri.w[i] & (up.w[i] | dn.w[i])) | (up.w[i] & dn.w[i] & (le.w[i] | ri.w[i])));
    b_shl(&three, 1, &a);
    b_shr(&three, 1, &b);
    b_shl(&three, t->stride, &c);
    b_shr(&three, t->stride, &d);
    for (int i = 0; i < NW; i++) {
        uint64_t interior = t->board.w[i] & ~(t->top.w[i] | t->bottom.w[i] | t->left.w[i] | t->right.w[i]);
        uint64_t near = (le.w[i] | ri.w[i] | up.w[i] | dn.w[i]) & t->board.w[i];
        uint64_t danger = (a.w[i] | b.w[i] | c.w[i] | d.w[i]) & t->board.w[i];
        out->w[i] = interior & ~taken->w[i] & ~near & ~danger;
    }
}

/* _setup.setup_apply of an obstacle or the tower on cell bit; when the last one is down, player 1 moves */
static void setup_place(const T *t, S *s, int tower, int bit) {
    if (tower)
        memset(&s->tower, 0, sizeof s->tower), b_set(&s->tower, bit);
    else
        b_set(&s->obstacles, bit);
    s->placing--;
    for (int i = 0; i < NW; i++) s->filled.w[i] = s->obstacles.w[i] | s->tower.w[i];
    if (!s->placing) {
        s->setup_rng = 0;
        s->turn = 0;
        neighbours(t, &s->filled, &s->watch);
    }
}

/* _setup.setup_sample (chance: chance_outcome's draw): 0 an obstacle, 1 the tower (on cell *bit), 2 'fill';
 * -1 when chance has no cell */
int forma_setup_draw(const T *t, const B *obstacles, const B *tower, int placing, uint64_t *rng, int chance,
                     int *bit) {
    B taken, allowed;
    for (int i = 0; i < NW; i++) taken.w[i] = obstacles->w[i] | tower->w[i];
    allowed_cells(t, &taken, &allowed);
    int n = b_count(&allowed), has_tower = b_any(tower), kinds[2], nk = 0;
    if (chance) {
        if (!n) return -1;
        *bit = b_select(&allowed, (int)below(rng, (uint64_t)n));
        return !has_tower;
    }
    if (placing - (has_tower ? 0 : 1)) kinds[nk++] = 0;
    if (!has_tower) kinds[nk++] = 1;
    int k = (int)below(rng, (uint64_t)(n * nk + 1));
    if (k == n * nk) return 2;
    *bit = b_select(&allowed, k % n);
    return kinds[k / n];
}

/* a set-up step of the starting player (rng: theirs) or of chance (the state's generator) */
static int setup_step(const T *t, S *s, uint64_t *rng) {
    int chance = s->turn == CHANCE, bit = 0;
    if (!s->placing) {
        PyErr_SetString(PyExc_ValueError, "the set-up is over");
        return -1;
    }
    int kind = forma_setup_draw(t, &s->obstacles, &s->tower, s->placing, chance ? &s->setup_rng : rng, chance, &bit);
    if (kind < 0) {
        PyErr_SetString(PyExc_ValueError, "no cell for the random fill");
        return -1;
    }
    if (kind == 2)
        s->turn = CHANCE; /* fill: chance places the rest */
    else
        setup_place(t, s, kind, bit);
    return 0;
}

/* ------------------------------------------------------------------ playout */
/* Game.playout: uniformly random legal actions until the game ends or max_actions player actions (>= 0) were
 * taken; the player p to act draws with rng[p] (rng[0] when shared); chance nodes (the set-up's fill) draw
 * from the state's generator and are not counted. */
int forma_run(const T *t, S *s, uint64_t *rng, int shared, int max_actions, int *actions) {
    *actions = 0;
    for (;;) {
        if (s->turn == CHANCE) {
            if (setup_step(t, s, NULL) < 0) return -1;
            continue;
        }
        if (s->turn < 0 || (max_actions >= 0 && *actions >= max_actions)) return 0;
        if (s->turn >= s->n) {
            PyErr_SetString(PyExc_ValueError, "turn out of range");
            return -1;
        }
        uint64_t *r = &rng[shared ? 0 : s->turn];
        ++*actions;
        if (s->placing) {
            if (setup_step(t, s, r) < 0) return -1;
            continue;
        }
        if (s->touch && s->picked < 0) {
            int piece = sample_pick(s, r);
            if (piece < 0) {
                PyErr_SetString(PyExc_ValueError, "the player to move holds no piece");
                return -1;
            }
            apply_pick(t, s, piece);
            continue;
        }
        B free;
        for (int i = 0; i < NW; i++) free.w[i] = t->board.w[i] & ~s->filled.w[i];
        int anchor = 0;
        int g = forma_sample_move(t, s->stock[s->turn], &free, r, s->picked, &anchor);
        if (g < 0) {
            PyErr_SetString(PyExc_ValueError, "the player to move has no legal placement");
            return -1;
        }
        apply_place(t, s, g, anchor);
    }
}
