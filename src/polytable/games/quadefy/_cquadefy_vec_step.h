/* The step of _cquadefy_vec's games, included by _cquadefy_vec.c once per instruction set: VEC_NAME(x)
 * names this copy's functions, VEC_ATTR gives their target (empty: the build's own), VEC_MASK_WORD writes a
 * word of a mask row. The copies differ only in the instructions the compiler may use (the sets' words are
 * GCC vectors of 64 bytes) and in the mask writer; _cquadefy_vec.c picks one at import, simd() another. */

/* The mask row and the game's legal bits become ``now`` (count ids): only the words that changed are written. */
VEC_ATTR static void VEC_NAME(mask_set)(VecSlot *v, const uint64_t *now, int count, signed char *mask) {
    v->count = count;
    for (int w = 0; w < vec_words; w++) {
        if (now[w] == v->legal[w]) continue;
        v->legal[w] = now[w];
        VEC_MASK_WORD(mask, w, now[w]);
    }
}

/* Apply a placement for the seat to move (the kernel's apply, which the caller's mask made legal), and list
 * the next seat's placements into its mask row: none, and that seat has lost (the kernel's qs_any). One pass
 * over the words: each word's sets take the 4 new cells' covers (on the words of the hands still held: the
 * others are never read again, since hands only shrink), then its legal bits are found (on the words of
 * the next seat's hand; 0 elsewhere) and the mask's 64 ids rewritten if they changed. */
VEC_ATTR static inline void VEC_NAME(apply)(VecSlot *v, int pid, signed char *mask) {
    QPos *q = &v->q;
    int p = q->to_move;
    uint64_t m = p_mask[pid];
    q->occ |= m;
    q->own[p] |= m;
    q->rem[p] &= ~(1 << p_block[pid]);
    q->to_move = 1 - p;
    if (v->nmoves < VEC_MOVES) v->moves[v->nmoves++] = pid;
    int held = (q->rem[0] | q->rem[1]) & 255, me = q->rem[q->to_move] & 255;
    int a = vec_hw0[held], b = vec_hw1[held], ma = vec_hw0[me], mb = vec_hw1[me];
    int flags = v->flags & (REACH_FLAG | STABLE_FLAG), n = 0;
    const VecW *t0 = vec_cell[__builtin_ctzll(m)];
    m &= m - 1;
    const VecW *t1 = vec_cell[__builtin_ctzll(m)];
    m &= m - 1;
    const VecW *t2 = vec_cell[__builtin_ctzll(m)];
    m &= m - 1;
    const VecW *t3 = vec_cell[__builtin_ctzll(m)];
    const uint64_t *hand = vec_hand[me];
    VecFlood f;
    f.boards = 0;
    for (int w = 0; w < vec_words; w++) {
        uint64_t now = 0;
        if (w >= a && w < b) {
            VecW x = v->set[w] | t0[w] | t1[w] | t2[w] | t3[w];
            v->set[w] = x;
            if (w >= ma && w < mb) {
                now = vec_word_legal(v, w, x, hand[w], flags, q->occ, &f);
                n += __builtin_popcountll(now);
            }
        }
        if (now != v->legal[w]) {
            v->legal[w] = now;
            VEC_MASK_WORD(mask, w, now);
        }
    }
    v->count = n;
    if (!n) q->loser = q->to_move;
}

/* The games' step (py_vec_step's loop, its checks done): each game's action applied, its rows written, a game
 * that ends counted and, with a fresh game, started again from it. Returns how many games ended. */
VEC_ATTR static Py_ssize_t VEC_NAME(games)(const VecGames *g) {
    Py_ssize_t count = 0;
    uint64_t fresh_legal[NW];
    int fresh_count = -1;
    for (Py_ssize_t i = 0; i < g->n; i++) {
        VecSlot *v = &g->slots[i];
        signed char *mask = g->masks + i * (Py_ssize_t)VEC_IDS;
        unsigned char *obs = g->obs + i * 16 * VEC_CHANNELS;
        int mover = v->q.to_move;
        VEC_NAME(apply)(v, (int)g->acts[i], mask);
        if (v->q.loser >= 0) {
            float *returns = g->returns + 2 * i;
            returns[v->q.loser] = -1.0f;
            returns[1 - v->q.loser] = 1.0f;
            g->rewards[i] = returns[mover];
            g->ended[i] = 1;
            count++;
            if (g->episodes) g->episodes[i]++;
            if (!g->fresh) continue;
            /* the new game's position and sets; its legal bits found once a call */
            memcpy(v, g->fresh, offsetof(VecSlot, legal));
            memcpy(v->set, g->fresh->set, sizeof v->set);
            if (fresh_count < 0) fresh_count = vec_legal(v, fresh_legal);
            VEC_NAME(mask_set)(v, fresh_legal, fresh_count, mask);
        }
        g->to_act[i] = (short)v->q.to_move;
        vec_obs(v, v->q.to_move, obs);
    }
    return count;
}
