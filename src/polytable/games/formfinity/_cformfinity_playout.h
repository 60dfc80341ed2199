/* FORMFINITY's turns, the end of a game and the random playout in C, after _cformfinity_flow.h (the
 * state, constraints, placements and lines); included by _cformfinity.c. Each function is the _flow.py
 * function of the same name. */

/* ------------------------------------------------------------------ the end */
static int squares_needed(int p) {
    Race r;
    BB path;
    race_of(&r);
    race_way(&r, p, &path);
    int n = 0;
    for (int j = 0; j < nw; j++) n += __builtin_popcountll(path.w[j]);
    return n ? n : NO_WAY;
}

static void scores(long *sc) {
    for (int p = 0; p < G.players; p++) sc[p] = 0;
    if (G.goal == G_LINES)
        for (int i = 0; i < F.nlines; i++) sc[F.lines[i][0]]++;
    else if (G.goal == G_AREAS)
        for (int p = 0; p < G.players; p++) sc[p] = F.points[p];
    else if (G.goal == G_CONN) {
        if (F.nwin == 1) sc[F.win[0]] = 1;
    } else
        for (int i = 0; i < F.nnum; i++) sc[F.num[i]]++;
}

static void game_over(void) {
    if (G.goal == G_CONN) { /* nobody connected: fewer squares still needed wins */
        int n0 = squares_needed(0), n1 = squares_needed(1);
        F.nwin = 0;
        if (n0 <= n1) F.win[F.nwin++] = 0;
        if (n1 <= n0) F.win[F.nwin++] = 1;
    } else {
        long sc[MAXPLAYERS], best;
        scores(sc);
        best = sc[0];
        for (int p = 1; p < G.players; p++)
            if (sc[p] > best) best = sc[p];
        F.nwin = 0;
        for (int p = 0; p < G.players; p++)
            if (sc[p] == best) F.win[F.nwin++] = p;
    }
    F.phase = PH_OVER;
    F.left = 0;
    F.card = -1;
}

/* _flow._blocked: no card that can ever be drawn has a placement for any player (who may draw). Faster
 * than asking anchors_for of every card, with the same answer: an element slid in comes to rest on an
 * anchor where it could also be placed anywhere, and the connection goal's last-way filter judges each
 * anchor alone; so each orientation's anchors anywhere are found (and filtered) once, and a card's
 * slides are only intersected with them. */
static int blocked(void) {
    static BB keep[MAXSHAPES];
    int shapes[1];
    signed char has[MAXSHAPES];
    BB b, a, t, path, near, ok;
    Prof prof;
    Race r;
    for (int p = G.goal == G_CONN ? 0 : F.turn; p < (G.goal == G_CONN ? G.players : F.turn + 1); p++) {
        int ht = constraints(p, &b, &a, &t), way = 0;
        if (!b_any(&a)) continue;
        profile(&b, G.W, G.H, G.S, &prof);
        if (G.goal == G_CONN) {
            race_of(&r);
            race_way(&r, 1 - p, &path);
            if ((way = b_any(&path))) b_n8(&path, &G.full, G.S, &near);
        }
        memset(has, -1, sizeof(has));
        for (int i = 0; i < G.nposs; i++)
            for (int k = 0; k < G.poss_n[i]; k++) {
                int s = G.poss_o[i][k];
                if (has[s] < 0) {
                    shapes[0] = s;
                    int n = anchors_core(G.W, G.H, shapes, 1, 0, &b, &a, ht ? &t : NULL, shapes, &keep[s]);
                    if (n && way) n = keep_way_near(&r, p, &near, 1, shapes, &keep[s]);
                    has[s] = (signed char)n;
                }
                if (!has[s]) continue;
                for (int e = 0; e < G.poss_ne[i]; e++) {
                    if (!G.poss_e[i][e]) return 0;
                    slide(s, G.poss_e[i][e], G.W, G.H, G.S, &prof, &ok);
                    if (b_meets(&ok, &keep[s])) return 0;
                }
            }
    }
    return 1;
}

/* _flow._hopeless: nobody can still reach the goal (can_connect, number_reachable). */
static int hopeless(void) {
    if (G.goal == G_CONN) {
        Race r;
        race_of(&r);
        return !(race_can_connect(&r, 0) || race_can_connect(&r, 1));
    }
    if (G.goal != G_NUMBERS || F.nnum >= G.nnums || !G.connect) return 0;
    BB drawn, b, allowed, touch, seed, region;
    drawn_bb(&drawn);
    if (!b_any(&drawn)) return 0;
    constraints(F.turn, &b, &allowed, &touch);
    seed = touch;
    b_and(&seed, &allowed);
    b_and(&allowed, &G.full);
    return !b_flood_to(&seed, &allowed, G.S, &region, &G.nums[F.nnum]);
}

/* ------------------------------------------------------------------ turns */
static void finish_area(void) {
    const BB *a = &G.areas[F.area];
    for (int p = 0; p < G.players; p++)
        for (int j = 0; j < nw; j++) F.points[p] += __builtin_popcountll(F.own[p].w[j] & a->w[j]);
    F.done |= 1ULL << F.area;
    F.area = -1;
    F.fails = 0;
}

static void start_turn(void) {
    F.phase = PH_DRAW;
    if (G.goal != G_AREAS || F.area >= 0) return;
    int n = 0, last = -1;
    for (int i = 0; i < G.nareas; i++)
        if (!(F.done >> i & 1)) {
            n++;
            last = i;
        }
    if (n == 0) game_over();
    else if (n == 1) F.area = last;
    else F.phase = PH_CHOOSE;
}

static void end_turn(void) {
    F.unused = F.left;
    F.left = 0;
    F.card = -1;
    if (G.goal == G_AREAS) {
        if (F.placed == 0 && F.area >= 0 && ++F.fails >= G.players) finish_area();
    } else if ((F.placed == 0 && blocked()) || hopeless()) {
        game_over();
        return;
    }
    F.turn = (F.turn + 1) % G.players;
    F.placed = 0;
    start_turn();
}

/* _flow._continue: the card's next element, or the end of the turn. */
static void continue_turn(void) {
    if (F.left > 0 && cur_placements() > 0) F.phase = PH_PLACE;
    else end_turn();
}

static void apply_card(int card) {
    F.card = card;
    F.left = (card / 32) % 3 + 1;
    F.placed = 0;
    F.phase = PH_PLACE;
    F.cards_drawn++;
    continue_turn();
}

/* A chance node: draw_card then apply_card (the state's generator advances once). */
static void chance(void) {
    if (G.gen) {
        apply_card(gen_draw(&F.rng));
        return;
    }
    int i = G.shuffle ? (int)below(&F.rng, (uint64_t)F.ndeck) : 0, card = F.deck[i];
    deck_moved = 1;
    for (i = 0; F.deck[i] != card; i++) {
    } /* deck.index: the first copy goes */
    memmove(&F.deck[i], &F.deck[i + 1], sizeof(int) * (size_t)(F.ndeck - i - 1));
    if (--F.ndeck == 0) { /* an empty deck is shuffled back in whole */
        F.ndeck = G.ndeck;
        memcpy(F.deck, G.deck, sizeof(int) * (size_t)G.ndeck);
    }
    apply_card(card);
}

static void apply_place(const BB *mask) {
    int p = F.turn;
    b_or(&F.own[p], mask);
    F.left--;
    F.placed++;
    F.last = *mask;
    F.fails = 0;
    if (G.goal == G_LINES) {
        claims();
        if (F.phase != PH_PLACE || fail) return;
    } else if (G.goal == G_AREAS) {
        BB rest = G.areas[F.area], drawn;
        drawn_bb(&drawn);
        b_andnot(&rest, &drawn);
        if (!b_any(&rest)) {
            finish_area();
            end_turn();
            return;
        }
    } else if (G.goal == G_CONN) {
        Race r;
        race_of(&r);
        if (race_connects(&r, &F.own[p], p)) {
            F.phase = PH_OVER;
            F.nwin = 1;
            F.win[0] = p;
            F.left = 0;
            return;
        }
    } else if (b_meets(mask, &G.nums[F.nnum])) {
        F.num[F.nnum++] = p;
        if (F.nnum == G.nnums) {
            F.left = 0;
            game_over();
            return;
        }
    }
    continue_turn();
}

static void apply_claim(int d, int b) {
    if (add_line(d, b)) return;
    F.phase = PH_PLACE;
    if (check_lines_win()) return;
    claims();
    if (F.phase == PH_PLACE && !fail) continue_turn();
}

/* One player action drawn with `rng` as FormfinityGame._sample draws it, then applied. */
static void act(uint64_t *rng) {
    if (F.phase == PH_PLACE) {
        uint64_t total = 0;
        for (int i = 0; i < cur_n; i++)
            for (int j = 0; j < nw; j++) total += (uint64_t)__builtin_popcountll(cur_a[i].w[j]);
        if (!total) {
            fail = 1;
            return;
        }
        uint64_t k = below(rng, total);
        for (int i = 0; i < cur_n; i++)
            for (int j = 0; j < nw; j++) {
                uint64_t w = cur_a[i].w[j], c = (uint64_t)__builtin_popcountll(w);
                if (k >= c) {
                    k -= c;
                    continue;
                }
                for (; k; k--) w &= w - 1;
                int at = j * 64 + __builtin_ctzll(w), s = cur_s[i];
                BB mask;
                memset(&mask, 0, sizeof(mask));
                for (int c2 = 0; c2 < sh_n[s]; c2++) b_set(&mask, at + sh_y[s][c2] * G.S + sh_x[s][c2]);
                apply_place(&mask);
                return;
            }
        fail = 1;
    } else if (F.phase == PH_CLAIM) {
        int n = claimable();
        if (!n || fail) {
            fail = 1;
            return;
        }
        int k = (int)below(rng, (uint64_t)n);
        apply_claim(cd[k], cb[k]);
    } else { /* PH_CHOOSE: the areas not finished, in order */
        int n = 0;
        for (int i = 0; i < G.nareas; i++) n += !(F.done >> i & 1);
        int k = (int)below(rng, (uint64_t)n);
        for (int i = 0; i < G.nareas; i++)
            if (!(F.done >> i & 1) && k-- == 0) {
                F.area = i;
                F.phase = PH_DRAW;
                F.fails = 0;
                return;
            }
    }
}

/* ------------------------------------------------------------------ the Python face */
static int int_items(PyObject *seq, int *out, int max, int *n) {
    PyObject *fast = PySequence_Fast(seq, "a sequence of ints");
    if (fast == NULL) return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(fast);
    if (k > max) {
        Py_DECREF(fast);
        return 1;
    }
    for (Py_ssize_t i = 0; i < k; i++) out[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
    Py_DECREF(fast);
    *n = (int)k;
    return PyErr_Occurred() ? -1 : 0;
}
static int bb_items(PyObject *seq, BB *out, int max, int *n) {
    PyObject *fast = PySequence_Fast(seq, "a sequence of boards");
    if (fast == NULL) return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(fast);
    int r = k > max ? 1 : 0;
    for (Py_ssize_t i = 0; !r && i < k; i++) r = from_py(PySequence_Fast_GET_ITEM(fast, i), &out[i]);
    Py_DECREF(fast);
    *n = (int)k;
    return r;
}

/* Reads _native._pack(setup) into G: 0 done, 1 not held here (decline), -1 error. */
static int read_pack(PyObject *pack) {
    if (pack == G.pack) return 0;
    PyObject *ofull, *oplay, *owall, *ostars, *oareas, *onums, *onall, *ogen, *odeck, *oposs;
    int nstars;
    Py_CLEAR(G.pack);
    if (!PyArg_ParseTuple(pack, "iiiiOOOOOOOppiipipiOOpO", &G.W, &G.H, &G.goal, &G.players, &ofull, &oplay, &owall,
                          &ostars, &oareas, &onums, &onall, &G.corner, &G.connect, &G.length, &G.target, &G.hard,
                          &G.dirs, &G.arrows, &G.rotmode, &ogen, &odeck, &G.shuffle, &oposs))
        return -1;
    if (G.W < 1 || G.H < 1 || G.W > MAXSIDE || G.H > MAXSIDE || G.players < 1 || G.players > MAXPLAYERS ||
        G.goal < 0 || G.goal > 3 || G.length < 1 || G.length > MAXSIDE)
        return 1;
    G.S = G.W + 1;
    set_words(G.H * G.S);
    int r = from_py(ofull, &G.full) || from_py(oplay, &G.playable) || from_py(owall, &G.wall) ||
            from_py(onall, &G.nums_all);
    if (r) return -1;
    memset(G.star, 0, sizeof(G.star));
    if ((r = bb_items(ostars, G.star, 2, &nstars)) || (r = bb_items(oareas, G.areas, MAXAREAS, &G.nareas)) ||
        (r = bb_items(onums, G.nums, MAXNUMS, &G.nnums)))
        return r;
    if (G.goal == G_CONN && (G.players != 2 || nstars != 2)) return 1;
    G.gen = ogen != Py_None;
    if (G.gen) {
        PyObject *os, *oc, *oa;
        int a, b, c;
        if (!PyArg_ParseTuple(ogen, "OOOi", &os, &oc, &oa, &G.rotation)) return -1;
        if ((r = int_items(os, G.sizes, 5, &a)) || (r = int_items(oc, G.counts, 3, &b)) ||
            (r = int_items(oa, G.arrw, 5, &c)))
            return r;
        if (a != 5 || b != 3 || c != 5) return 1;
    }
    if ((r = int_items(odeck, G.deck, MAXDECK, &G.ndeck))) return r;
    PyObject *fast = PySequence_Fast(oposs, "possible: a sequence of (orients, edges)");
    if (fast == NULL) return -1;
    G.nposs = (int)PySequence_Fast_GET_SIZE(fast);
    r = G.nposs > MAXPOSS;
    for (int i = 0; !r && i < G.nposs; i++) {
        PyObject *oo, *oe;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "OO", &oo, &oe)) r = -1;
        else if (!(r = int_items(oo, G.poss_o[i], 4, &G.poss_n[i]))) r = int_items(oe, G.poss_e[i], 5, &G.poss_ne[i]);
        for (int k = 0; !r && k < G.poss_n[i]; k++) r = G.poss_o[i][k] < 0 || G.poss_o[i][k] >= nshapes;
    }
    Py_DECREF(fast);
    if (r) return r;
    Py_INCREF(pack);
    G.pack = pack;
    return 0;
}

/* The state buffer of playout and greedy_run: a FormfinityState's fixed-size fields, the generators and each
 * call's limits and answers, written back with the end state. The deck, the lines and the numbers (as long as
 * the game makes them) travel beside it as the state's own tuples. The fields and their order are described
 * once, in Python (_kernel.PLAYOUT, a core.StateLayout): layout() reports each member's offset and size and
 * tests/kernel/test_layouts.py compares them. Boards are the Python ints' little-endian bytes (8 * NW); every
 * member is a multiple of 8 bytes, so the struct has no padding. Players past `players` are zeros. */
#define BOARD_BYTES (8 * NW)
typedef struct {
    int64_t players, nrngs, max_actions, taken;     /* playout: rngs used (1: shared); -1: no limit; out: actions */
    int64_t me, left_me, steps, done, holes;        /* greedy_run's (its generator is rngs[0]); out: the last three */
    uint64_t rng, done_areas, rngs[MAXPLAYERS];     /* FormfinityState.rng, .done_areas; the players' generators */
    int64_t turn, phase, card, left, placed, area, fails, cards_drawn, unused, nwin;
    int64_t winners[MAXPLAYERS], points[MAXPLAYERS];
    unsigned char owners[MAXPLAYERS][BOARD_BYTES], last[BOARD_BYTES];
} PlayoutBuf;

/* X(member) for every member of PlayoutBuf, in order (layout() reports them). */
#define PLAYOUT_FIELDS(X)                                                                                          \
    X(players) X(nrngs) X(max_actions) X(taken) X(me) X(left_me) X(steps) X(done) X(holes) X(rng) X(done_areas)   \
    X(rngs) X(turn) X(phase) X(card) X(left) X(placed) X(area) X(fails) X(cards_drawn) X(unused) X(nwin)          \
    X(winners) X(points) X(owners) X(last)

/* layout() -> ((name, offset, size), ...), sizeof: the state buffer's members as this build lays them out. */
static PyObject *py_layout(PyObject *self, PyObject *noargs) {
#define ONE(m) LAYOUT_ITEM(PlayoutBuf, m)
    PyObject *items[] = {PLAYOUT_FIELDS(ONE)};
#undef ONE
    return layout_of(items, sizeof items / sizeof items[0], sizeof(PlayoutBuf));
}

/* A board from its little-endian bytes and back (a copy where the words are little-endian themselves). */
static void bb_load(const unsigned char *buf, BB *b) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(b->w, buf, BOARD_BYTES);
#else
    for (int i = 0; i < NW; i++) {
        uint64_t x = 0;
        for (int j = 7; j >= 0; j--) x = x << 8 | buf[8 * i + j];
        b->w[i] = x;
    }
#endif
}
static void bb_store(const BB *b, unsigned char *buf) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(buf, b->w, BOARD_BYTES);
#else
    for (int i = 0; i < NW; i++)
        for (int j = 0; j < 8; j++) buf[8 * i + j] = (unsigned char)(b->w[i] >> (8 * j));
#endif
}

/* Reads the state (the buffer `in`, the deck, lines and numbers beside it) into F: 0 done, 1 not held here
 * (decline: Python plays), -1 error. */
static int read_state(const PlayoutBuf *in, PyObject *odeck, PyObject *olines, PyObject *onum) {
    int r;
    if (in->players != G.players || in->turn < 0 || in->turn >= G.players || in->phase < 0 || in->phase > PH_OVER ||
        G.nareas > 64 || in->area < -1 || in->area >= G.nareas || in->nwin < 0 || in->nwin > G.players)
        return 1;
    F.rng = in->rng;
    F.done = in->done_areas;
    F.turn = (int)in->turn;
    F.phase = (int)in->phase;
    F.card = (int)in->card;
    F.left = (int)in->left;
    F.placed = (int)in->placed;
    F.area = (int)in->area;
    F.fails = (int)in->fails;
    F.cards_drawn = (long)in->cards_drawn;
    F.unused = (long)in->unused;
    F.nwin = (int)in->nwin;
    for (int p = 0; p < MAXPLAYERS; p++) {
        F.points[p] = p < G.players ? (long)in->points[p] : 0;
        F.win[p] = (int)in->winners[p];
        bb_load(in->owners[p], &F.own[p]);
    }
    bb_load(in->last, &F.last);
    if ((r = int_items(odeck, F.deck, MAXDECK, &F.ndeck))) return r;
    if (!G.gen && !F.ndeck) return 1;
    if (F.phase == PH_PLACE && (F.card < 0 || F.card / 96 >= nshapes)) return 1;
    PyObject *fast = PySequence_Fast(olines, "lines");
    if (fast == NULL) return -1;
    F.nlines = (int)PySequence_Fast_GET_SIZE(fast);
    r = F.nlines > MAXLINES;
    for (int i = 0; !r && i < F.nlines; i++)
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "iii", &F.lines[i][0], &F.lines[i][1],
                              &F.lines[i][2]))
            r = -1;
    Py_DECREF(fast);
    if (r || (r = int_items(onum, F.num, MAXNUMS, &F.nnum))) return r;
    /* what the flow indexes with must be in range (a state built by hand may not be: Python plays it) */
    if (F.phase != PH_OVER && (F.nnum > G.nnums || (G.goal == G_NUMBERS && F.nnum == G.nnums))) return 1;
    if (G.goal == G_AREAS && F.phase == PH_PLACE && F.area < 0) return 1;
    for (int i = 0; i < F.nlines; i++)
        if (F.lines[i][0] < 0 || F.lines[i][0] >= G.players || F.lines[i][1] < 0 || F.lines[i][1] > 3 ||
            F.lines[i][2] < 0 || F.lines[i][2] + (G.length - 1) * (G.S + 1) >= NW * 64)
            return 1;
    for (int i = 0; i < F.nnum; i++)
        if (F.num[i] < 0 || F.num[i] >= G.players) return 1;
    deck_moved = 0;
    return 0;
}

/* Reads the setup and the buffer of a call (a bytearray of _kernel.PLAYOUT, held in `view`): as read_state. */
static int read_call(PyObject *pack, Py_buffer *view, PlayoutBuf *in, PyObject *odeck, PyObject *olines,
                     PyObject *onum) {
    if (view->len != (Py_ssize_t)sizeof *in) {
        PyErr_Format(PyExc_ValueError, "a playout buffer has %zu bytes", sizeof *in);
        return -1;
    }
    if (!nshapes) {
        PyErr_SetString(PyExc_ValueError, "init must come first");
        return -1;
    }
    memcpy(in, view->buf, sizeof *in);
    int r = read_pack(pack);
    if (r) return r;
    set_words(G.H * G.S);
    return read_state(in, odeck, olines, onum);
}

static PyObject *int_tuple(const int *v, int n) {
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t != NULL && i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(v[i]));
    return t;
}

/* Writes F into the buffer and returns (deck, lines, numbers): the given tuples where unchanged, the lines
 * and numbers grown from them (the game only appends to them). */
static PyObject *write_state(PlayoutBuf *in, Py_buffer *view, PyObject *odeck, PyObject *olines, PyObject *onum) {
    in->rng = F.rng;
    in->done_areas = F.done;
    in->turn = F.turn;
    in->phase = F.phase;
    in->card = F.card;
    in->left = F.left;
    in->placed = F.placed;
    in->area = F.area;
    in->fails = F.fails;
    in->cards_drawn = F.cards_drawn;
    in->unused = F.unused;
    in->nwin = F.nwin;
    for (int p = 0; p < MAXPLAYERS; p++) {
        in->points[p] = p < G.players ? F.points[p] : 0;
        in->winners[p] = p < F.nwin ? F.win[p] : 0;
        if (p < G.players) bb_store(&F.own[p], in->owners[p]);
    }
    bb_store(&F.last, in->last);
    memcpy(view->buf, in, sizeof *in);
    Py_ssize_t before = PyObject_Length(olines);
    PyObject *lines = olines;
    if (before < 0) return NULL;
    if (F.nlines == before) Py_INCREF(lines);
    else {
        lines = PyTuple_New(F.nlines);
        for (int i = 0; lines != NULL && i < F.nlines; i++) {
            PyObject *item = i < before ? PySequence_GetItem(olines, i)
                                        : Py_BuildValue("(iii)", F.lines[i][0], F.lines[i][1], F.lines[i][2]);
            if (item == NULL) Py_CLEAR(lines);
            else PyTuple_SET_ITEM(lines, i, item);
        }
    }
    PyObject *deck = deck_moved ? int_tuple(F.deck, F.ndeck) : (Py_INCREF(odeck), odeck);
    Py_ssize_t nnum = PyObject_Length(onum);
    PyObject *num = nnum == F.nnum ? (Py_INCREF(onum), onum) : int_tuple(F.num, F.nnum);
    if (lines == NULL || deck == NULL || num == NULL) {
        Py_XDECREF(lines);
        Py_XDECREF(deck);
        Py_XDECREF(num);
        return NULL;
    }
    return Py_BuildValue("(NNN)", deck, lines, num);
}

/* playout(pack, deck, lines, numbers, buffer) -> (deck, lines, numbers), the rest of the end state, the
 * generators and the actions taken written into the buffer; or None (declined: nothing written). */
static PyObject *py_playout(PyObject *self, PyObject *args) {
    PyObject *pack, *odeck, *olines, *onum;
    Py_buffer view;
    PlayoutBuf in;
    if (!PyArg_ParseTuple(args, "OOOOw*", &pack, &odeck, &olines, &onum, &view)) return NULL;
    int r = read_call(pack, &view, &in, odeck, olines, onum);
    long nr = (long)in.nrngs, max = (long)in.max_actions;
    if (r == 0 && (nr < 1 || (nr > 1 && nr < G.players) || nr > MAXPLAYERS)) r = 1;
    if (r != 0) {
        PyBuffer_Release(&view);
        if (r < 0) return NULL;
        Py_RETURN_NONE;
    }
    fail = 0;
    if (F.phase == PH_PLACE) cur_placements();
    long taken = 0;
    while (!fail) {
        if (F.phase == PH_DRAW) {
            chance();
            continue;
        }
        if (F.phase == PH_OVER || (max >= 0 && taken >= max)) break;
        act(&in.rngs[nr > 1 ? F.turn : 0]);
        taken++;
    }
    if (fail) {
        PyBuffer_Release(&view);
        Py_RETURN_NONE;
    }
    in.taken = taken;
    PyObject *out = write_state(&in, &view, odeck, olines, onum);
    PyBuffer_Release(&view);
    return out;
}
