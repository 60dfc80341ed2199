/* The step of _cquadefy_vec's games, included by _cquadefy_vec.c once per instruction set: VEC_NAME(x)
 * names this copy's functions, VEC_ATTR gives their target (empty: the build's own), VEC_MASK_WORD writes a
 * word of a mask row. The copies differ only in the instructions the compiler may use (the sets' words are
 * GCC vectors of 64 bytes) and in the mask writer; _cquadefy_vec.c picks one at import, simd() another. */

/* The mask row and the game's legal bits become ``now`` (count ids, VW words): only the words that changed
 * are written. */
VEC_ATTR static void VEC_NAME(mask_set)(VecSlot *v, const uint64_t *now, int count, signed char *mask) {
    v->count = count;
    int n = 0;
    for (int w = 0; w < VW; w++) {
        v->cum[w] = (uint16_t)n;
        n += __builtin_popcountll(now[w]);
        if (now[w] == v->legal[w]) continue;
        v->legal[w] = now[w];
        VEC_MASK_WORD(mask, w, now[w]);
    }
}

/* Apply a placement for the seat to move (the kernel's apply, which the caller's mask made legal), and list
 * the next seat's placements into its mask row: none, and that seat has lost (the kernel's qs_any). The
 * sets take the 4 new cells' covers and the legal bits are found 8 words at a time, on the chunks of the
 * words of the hands still held (the others are never read again: hands only shrink; the next seat's hand
 * leaves its legal bits 0 elsewhere); a candidate that needs its orientation's rules is rare, and is
 * settled word by word. Then the mask's words of 64 ids that changed are rewritten. */
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
    int k0 = vec_hw0[held] & ~7, k1 = vec_hw1[held], flags = v->flags & (REACH_FLAG | STABLE_FLAG);
    const uint64_t(*t0)[VW] = vec_cell[__builtin_ctzll(m)];
    m &= m - 1;
    const uint64_t(*t1)[VW] = vec_cell[__builtin_ctzll(m)];
    m &= m - 1;
    const uint64_t(*t2)[VW] = vec_cell[__builtin_ctzll(m)];
    m &= m - 1;
    const uint64_t(*t3)[VW] = vec_cell[__builtin_ctzll(m)];
    const uint64_t *hand = vec_hand[me];
    uint64_t now[VW];
    VecFlood f;
    f.boards = 0;
    int k = k0;
    for (; k < k1; k += 8) {
        V8 x[VL_DEAD];
        for (int l = 0; l < VL_DEAD; l++) {
            x[l] = V8_OF(&v->set[l][k]) | V8_OF(&t0[l][k]) | V8_OF(&t1[l][k]) | V8_OF(&t2[l][k]) | V8_OF(&t3[l][k]);
            V8_AT(&v->set[l][k]) = x[l];
        }
        V8 cand = V8_OF(&hand[k]) & x[VL_SUP] & ~x[VL_BLK], ok = cand, test = cand & 0;
        if (flags == REACH_FLAG) { /* slid straight in from the top or a side, else the flood fill */
            V8 closed = x[VL_LINE] & x[VL_LINE + 1] & x[VL_LINE + 2] & x[VL_LINE + 3] & x[VL_LINE + 4];
            ok = cand & ~closed;
            test = cand & closed & ~V8_OF(&v->set[VL_DEAD][k]);
        } else if (flags) {
            test = cand;
            ok = cand & 0;
        }
        V8_AT(&now[k]) = ok;
        uint64_t any = test[0] | test[1] | test[2] | test[3] | test[4] | test[5] | test[6] | test[7];
        if (any)
            for (int j = 0; j < 8; j++)
                if (test[j]) now[k + j] |= vec_orient_pass(v, k + j, test[j], flags, q->occ, &f);
    }
    int n = 0;
    for (int w = 0; w < vec_words; w++) {
        uint64_t x = w >= k0 && w < k ? now[w] : 0;
        v->cum[w] = (uint16_t)n;
        n += __builtin_popcountll(x);
        if (x != v->legal[w]) {
            v->legal[w] = x;
            VEC_MASK_WORD(mask, w, x);
        }
    }
    for (int w = vec_words; w < VW; w++) v->cum[w] = (uint16_t)n;
    v->count = n;
    if (!n) q->loser = q->to_move;
}

/* The games' step (py_vec_step's loop, its checks done): each game's action applied, its rows written, a game
 * that ends counted and, with a fresh game, started again from it. Returns how many games ended. */
VEC_ATTR static Py_ssize_t VEC_NAME(games)(const VecGames *g) {
    Py_ssize_t count = 0;
    uint64_t fresh_legal[VW];
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
