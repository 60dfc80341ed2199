/* FORMFINITY's turns, the end of a game and the random playout in C, after _cformfinity_flow.h (the
 * state, constraints, placements and lines); included by _cformfinity.c. Each function is the _flow.py
 * function of the same name. */

/* ------------------------------------------------------------------ the end */
static int squares_needed(FF *c, int p) {
    Race r;
    BB path;
    race_of(c, &r);
    race_way(&r, p, &path);
    int n = 0;
    for (int j = 0; j < nw; j++) n += __builtin_popcountll(path.w[j]);
    return n ? n : NO_WAY;
}

static void scores(FF *c, long *sc) {
    const FFSetup *g = c->g;
    FFState *f = c->f;
    for (int p = 0; p < g->players; p++) sc[p] = 0;
    if (g->goal == G_LINES)
        for (int i = 0; i < f->nlines; i++) sc[f->lines[i][0]]++;
    else if (g->goal == G_AREAS)
        for (int p = 0; p < g->players; p++) sc[p] = f->points[p];
    else if (g->goal == G_CONN) {
        if (f->nwin == 1) sc[f->win[0]] = 1;
    } else
        for (int i = 0; i < f->nnum; i++) sc[f->num[i]]++;
}

static void game_over(FF *c) {
    const FFSetup *g = c->g;
    FFState *f = c->f;
    if (g->goal == G_CONN) { /* nobody connected: fewer squares still needed wins */
        int n0 = squares_needed(c, 0), n1 = squares_needed(c, 1);
        f->nwin = 0;
        if (n0 <= n1) f->win[f->nwin++] = 0;
        if (n1 <= n0) f->win[f->nwin++] = 1;
    } else {
        long sc[MAXPLAYERS], best;
        scores(c, sc);
        best = sc[0];
        for (int p = 1; p < g->players; p++)
            if (sc[p] > best) best = sc[p];
        f->nwin = 0;
        for (int p = 0; p < g->players; p++)
            if (sc[p] == best) f->win[f->nwin++] = p;
    }
    f->phase = PH_OVER;
    f->left = 0;
    f->card = -1;
}

/* _flow._blocked: no card that can ever be drawn has a placement for any player (who may draw). Faster
 * than asking anchors_for of every card, with the same answer: an element slid in comes to rest on an
 * anchor where it could also be placed anywhere, and the connection goal's last-way filter judges each
 * anchor alone; so each orientation's anchors anywhere are found (and filtered) once, and a card's
 * slides are only intersected with them. */
static int blocked(FF *c) {
    const FFSetup *g = c->g;
    FFState *f = c->f;
    static BB keep[MAXSHAPES];
    int shapes[1];
    signed char has[MAXSHAPES];
    BB b, a, t, path, near, ok;
    Prof prof;
    Race r;
    for (int p = g->goal == G_CONN ? 0 : f->turn; p < (g->goal == G_CONN ? g->players : f->turn + 1); p++) {
        int ht = constraints(c, p, &b, &a, &t), way = 0;
        if (!b_any(&a)) continue;
        profile(&b, g->W, g->H, g->S, &prof);
        if (g->goal == G_CONN) {
            race_of(c, &r);
            race_way(&r, 1 - p, &path);
            if ((way = b_any(&path))) b_n8(&path, &g->full, g->S, &near);
        }
        memset(has, -1, sizeof(has));
        for (int i = 0; i < g->nposs; i++)
            for (int k = 0; k < g->poss_n[i]; k++) {
                int s = g->poss_o[i][k];
                if (has[s] < 0) {
                    shapes[0] = s;
                    int n = anchors_core(g->W, g->H, shapes, 1, 0, &b, &a, ht ? &t : NULL, shapes, &keep[s]);
                    if (n && way) n = keep_way_near(&r, p, &near, 1, shapes, &keep[s]);
                    has[s] = (signed char)n;
                }
                if (!has[s]) continue;
                for (int e = 0; e < g->poss_ne[i]; e++) {
                    if (!g->poss_e[i][e]) return 0;
                    slide(s, g->poss_e[i][e], g->W, g->H, g->S, &prof, &ok);
                    if (b_meets(&ok, &keep[s])) return 0;
                }
            }
    }
    return 1;
}

/* _flow._hopeless: nobody can still reach the goal (can_connect, number_reachable). */
static int hopeless(FF *c) {
    const FFSetup *g = c->g;
    FFState *f = c->f;
    if (g->goal == G_CONN) {
        Race r;
        race_of(c, &r);
        return !(race_can_connect(&r, 0) || race_can_connect(&r, 1));
    }
    if (g->goal != G_NUMBERS || f->nnum >= g->nnums || !g->connect) return 0;
    BB drawn, b, allowed, touch, seed, region;
    drawn_bb(c, &drawn);
    if (!b_any(&drawn)) return 0;
    constraints(c, f->turn, &b, &allowed, &touch);
    seed = touch;
    b_and(&seed, &allowed);
    b_and(&allowed, &g->full);
    return !b_flood_to(&seed, &allowed, g->S, &region, &g->nums[f->nnum]);
}

/* ------------------------------------------------------------------ turns */
static void finish_area(FF *c) {
    const FFSetup *g = c->g;
    FFState *f = c->f;
    const BB *a = &g->areas[f->area];
    for (int p = 0; p < g->players; p++)
        for (int j = 0; j < nw; j++) f->points[p] += __builtin_popcountll(f->own[p].w[j] & a->w[j]);
    f->done |= 1ULL << f->area;
    f->area = -1;
    f->fails = 0;
}

static void start_turn(FF *c) {
    const FFSetup *g = c->g;
    FFState *f = c->f;
    f->phase = PH_DRAW;
    if (g->goal != G_AREAS || f->area >= 0) return;
    int n = 0, last = -1;
    for (int i = 0; i < g->nareas; i++)
        if (!(f->done >> i & 1)) {
            n++;
            last = i;
        }
    if (n == 0) game_over(c);
    else if (n == 1) f->area = last;
    else f->phase = PH_CHOOSE;
}

static void end_turn(FF *c) {
    const FFSetup *g = c->g;
    FFState *f = c->f;
    f->unused = f->left;
    f->left = 0;
    f->card = -1;
    if (g->goal == G_AREAS) {
        if (f->placed == 0 && f->area >= 0 && ++f->fails >= g->players) finish_area(c);
    } else if ((f->placed == 0 && blocked(c)) || hopeless(c)) {
        game_over(c);
        return;
    }
    f->turn = (f->turn + 1) % g->players;
    f->placed = 0;
    start_turn(c);
}

/* _flow._continue: the card's next element, or the end of the turn. */
static void continue_turn(FF *c) {
    FFState *f = c->f;
    if (f->left > 0 && cur_placements(c) > 0) f->phase = PH_PLACE;
    else end_turn(c);
}

static void apply_card(FF *c, int card) {
    FFState *f = c->f;
    f->card = card;
    f->left = (card / 32) % 3 + 1;
    f->placed = 0;
    f->phase = PH_PLACE;
    f->cards_drawn++;
    continue_turn(c);
}

/* A chance node: draw_card then apply_card (the state's generator advances once). */
static void chance(FF *c) {
    const FFSetup *g = c->g;
    FFState *f = c->f;
    if (g->gen) {
        apply_card(c, gen_draw(c, &f->rng));
        return;
    }
    int i = g->shuffle ? (int)below(&f->rng, (uint64_t)f->ndeck) : 0, card = f->deck[i];
    c->deck_moved = 1;
    for (i = 0; f->deck[i] != card; i++) {
    } /* deck.index: the first copy goes */
    memmove(&f->deck[i], &f->deck[i + 1], sizeof(int) * (size_t)(f->ndeck - i - 1));
    if (--f->ndeck == 0) { /* an empty deck is shuffled back in whole */
        f->ndeck = g->ndeck;
        memcpy(f->deck, g->deck, sizeof(int) * (size_t)g->ndeck);
    }
    apply_card(c, card);
}

static void apply_place(FF *c, const BB *mask) {
    const FFSetup *g = c->g;
    FFState *f = c->f;
    int p = f->turn;
    b_or(&f->own[p], mask);
    f->left--;
    f->placed++;
    f->last = *mask;
    f->fails = 0;
    if (g->goal == G_LINES) {
        claims(c);
        if (f->phase != PH_PLACE || c->fail) return;
    } else if (g->goal == G_AREAS) {
        BB rest = g->areas[f->area], drawn;
        drawn_bb(c, &drawn);
        b_andnot(&rest, &drawn);
        if (!b_any(&rest)) {
            finish_area(c);
            end_turn(c);
            return;
        }
    } else if (g->goal == G_CONN) {
        Race r;
        race_of(c, &r);
        if (race_connects(&r, &f->own[p], p)) {
            f->phase = PH_OVER;
            f->nwin = 1;
            f->win[0] = p;
            f->left = 0;
            return;
        }
    } else if (b_meets(mask, &g->nums[f->nnum])) {
        f->num[f->nnum++] = p;
        if (f->nnum == g->nnums) {
            f->left = 0;
            game_over(c);
            return;
        }
    }
    continue_turn(c);
}

static void apply_claim(FF *c, int d, int b) {
    FFState *f = c->f;
    if (add_line(c, d, b)) return;
    f->phase = PH_PLACE;
    if (check_lines_win(c)) return;
    claims(c);
    if (f->phase == PH_PLACE && !c->fail) continue_turn(c);
}

/* One player action drawn with `rng` as FormfinityGame._sample draws it, then applied. */
static void act(FF *c, uint64_t *rng) {
    const FFSetup *g = c->g;
    FFState *f = c->f;
    if (f->phase == PH_PLACE) {
        uint64_t total = 0;
        for (int i = 0; i < c->cur_n; i++)
            for (int j = 0; j < nw; j++) total += (uint64_t)__builtin_popcountll(c->cur_a[i].w[j]);
        if (!total) {
            c->fail = 1;
            return;
        }
        uint64_t k = below(rng, total);
        for (int i = 0; i < c->cur_n; i++)
            for (int j = 0; j < nw; j++) {
                uint64_t w = c->cur_a[i].w[j], count = (uint64_t)__builtin_popcountll(w);
                if (k >= count) {
                    k -= count;
                    continue;
                }
                for (; k; k--) w &= w - 1;
                int at = j * 64 + __builtin_ctzll(w), s = c->cur_s[i];
                BB mask;
                memset(&mask, 0, sizeof(mask));
                for (int c2 = 0; c2 < sh_n[s]; c2++) b_set(&mask, at + sh_y[s][c2] * g->S + sh_x[s][c2]);
                apply_place(c, &mask);
                return;
            }
        c->fail = 1;
    } else if (f->phase == PH_CLAIM) {
        int n = claimable(c);
        if (!n || c->fail) {
            c->fail = 1;
            return;
        }
        int k = (int)below(rng, (uint64_t)n);
        apply_claim(c, c->cd[k], c->cb[k]);
    } else { /* PH_CHOOSE: the areas not finished, in order */
        int n = 0;
        for (int i = 0; i < g->nareas; i++) n += !(f->done >> i & 1);
        int k = (int)below(rng, (uint64_t)n);
        for (int i = 0; i < g->nareas; i++)
            if (!(f->done >> i & 1) && k-- == 0) {
                f->area = i;
                f->phase = PH_DRAW;
                f->fails = 0;
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

/* Reads _kernel.pack(setup) into g: 0 done, 1 not held here (decline), -1 error. */
static int read_pack(PyObject *pack, FFSetup *g) {
    PyObject *ofull, *oplay, *owall, *ostars, *oareas, *onums, *onall, *ogen, *odeck, *oposs;
    int nstars;
    memset(g, 0, sizeof *g);
    if (!PyArg_ParseTuple(pack, "iiiiOOOOOOOppiipipiOOpO", &g->W, &g->H, &g->goal, &g->players, &ofull, &oplay, &owall,
                          &ostars, &oareas, &onums, &onall, &g->corner, &g->connect, &g->length, &g->target, &g->hard,
                          &g->dirs, &g->arrows, &g->rotmode, &ogen, &odeck, &g->shuffle, &oposs))
        return -1;
    if (g->W < 1 || g->H < 1 || g->W > MAXSIDE || g->H > MAXSIDE || g->players < 1 || g->players > MAXPLAYERS ||
        g->goal < 0 || g->goal > 3 || g->length < 1 || g->length > MAXSIDE)
        return 1;
    g->S = g->W + 1;
    set_words(g->H * g->S);
    g->words = nw;
    int r = from_py(ofull, &g->full) || from_py(oplay, &g->playable) || from_py(owall, &g->wall) ||
            from_py(onall, &g->nums_all);
    if (r) return -1;
    if ((r = bb_items(ostars, g->star, 2, &nstars)) || (r = bb_items(oareas, g->areas, MAXAREAS, &g->nareas)) ||
        (r = bb_items(onums, g->nums, MAXNUMS, &g->nnums)))
        return r;
    if (g->goal == G_CONN && (g->players != 2 || nstars != 2)) return 1;
    g->gen = ogen != Py_None;
    if (g->gen) {
        PyObject *os, *oc, *oa;
        int na, nb, nc;
        if (!PyArg_ParseTuple(ogen, "OOOi", &os, &oc, &oa, &g->rotation)) return -1;
        if ((r = int_items(os, g->sizes, 5, &na)) || (r = int_items(oc, g->counts, 3, &nb)) ||
            (r = int_items(oa, g->arrw, 5, &nc)))
            return r;
        if (na != 5 || nb != 3 || nc != 5) return 1;
    }
    if ((r = int_items(odeck, g->deck, MAXDECK, &g->ndeck))) return r;
    PyObject *fast = PySequence_Fast(oposs, "possible: a sequence of (orients, edges)");
    if (fast == NULL) return -1;
    g->nposs = (int)PySequence_Fast_GET_SIZE(fast);
    r = g->nposs > MAXPOSS;
    for (int i = 0; !r && i < g->nposs; i++) {
        PyObject *oo, *oe;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "OO", &oo, &oe)) r = -1;
        else if (!(r = int_items(oo, g->poss_o[i], 4, &g->poss_n[i]))) r = int_items(oe, g->poss_e[i], 5, &g->poss_ne[i]);
        for (int k = 0; !r && k < g->poss_n[i]; k++) r = g->poss_o[i][k] < 0 || g->poss_o[i][k] >= nshapes;
    }
    Py_DECREF(fast);
    if (r) return r;
    if (g->nareas > 64) return 1; /* done_areas is one word (read_state declines such a state too) */
    return 0;
}

/* setup_bytes() -> the size of a prepared set-up (FFSetup). */
static PyObject *py_setup_bytes(PyObject *self, PyObject *noargs) { return PyLong_FromSize_t(sizeof(FFSetup)); }

/* prepare(pack, buffer) -> whether the kernel holds this set-up: _kernel.pack(setup) read into the buffer
 * (setup_bytes() long), which playout, greedy_run and the batch then take; False: it does not (they would
 * decline; Python plays). */
static PyObject *py_prepare(PyObject *self, PyObject *args) {
    PyObject *pack;
    Py_buffer view;
    if (!PyArg_ParseTuple(args, "Ow*", &pack, &view)) return NULL;
    if (!nshapes || view.len != (Py_ssize_t)sizeof(FFSetup)) {
        PyBuffer_Release(&view);
        PyErr_Format(PyExc_ValueError, "a set-up buffer has %zu bytes (and init must come first)", sizeof(FFSetup));
        return NULL;
    }
    int r = read_pack(pack, (FFSetup *)view.buf);
    if (r) memset(view.buf, 0, sizeof(FFSetup)); /* players 0: every call declines */
    PyBuffer_Release(&view);
    if (r < 0) return NULL;
    return PyBool_FromLong(r == 0);
}

/* The prepared set-up in `obj` (a buffer of prepare()), held in `view`: NULL with an error if it is not
 * one, its players 0 if prepare() declined it. */
static const FFSetup *setup_in(PyObject *obj, Py_buffer *view) {
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0) return NULL;
    if (view->len != (Py_ssize_t)sizeof(FFSetup) || !nshapes) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "a set-up buffer has %zu bytes (and init must come first)", sizeof(FFSetup));
        return NULL;
    }
    return (const FFSetup *)view->buf;
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

/* Reads the state (the buffer `in`, the deck, lines and numbers beside it) into c->f: 0 done, 1 not held
 * here (decline: Python plays), -1 error. */
static int read_state(FF *c, const PlayoutBuf *in, PyObject *odeck, PyObject *olines, PyObject *onum) {
    const FFSetup *g = c->g;
    FFState *f = c->f;
    int r;
    if (in->players != g->players || in->turn < 0 || in->turn >= g->players || in->phase < 0 || in->phase > PH_OVER ||
        g->nareas > 64 || in->area < -1 || in->area >= g->nareas || in->nwin < 0 || in->nwin > g->players)
        return 1;
    f->rng = in->rng;
    f->done = in->done_areas;
    f->turn = (int)in->turn;
    f->phase = (int)in->phase;
    f->card = (int)in->card;
    f->left = (int)in->left;
    f->placed = (int)in->placed;
    f->area = (int)in->area;
    f->fails = (int)in->fails;
    f->cards_drawn = (long)in->cards_drawn;
    f->unused = (long)in->unused;
    f->nwin = (int)in->nwin;
    for (int p = 0; p < MAXPLAYERS; p++) {
        f->points[p] = p < g->players ? (long)in->points[p] : 0;
        f->win[p] = (int)in->winners[p];
        bb_load(in->owners[p], &f->own[p]);
    }
    bb_load(in->last, &f->last);
    if ((r = int_items(odeck, f->deck, MAXDECK, &f->ndeck))) return r;
    if (!g->gen && !f->ndeck) return 1;
    if (f->phase == PH_PLACE && (f->card < 0 || f->card / 96 >= nshapes)) return 1;
    PyObject *fast = PySequence_Fast(olines, "lines");
    if (fast == NULL) return -1;
    f->nlines = (int)PySequence_Fast_GET_SIZE(fast);
    r = f->nlines > MAXLINES;
    for (int i = 0; !r && i < f->nlines; i++)
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "iii", &f->lines[i][0], &f->lines[i][1],
                              &f->lines[i][2]))
            r = -1;
    Py_DECREF(fast);
    if (r || (r = int_items(onum, f->num, MAXNUMS, &f->nnum))) return r;
    /* what the flow indexes with must be in range (a state built by hand may not be: Python plays it) */
    if (f->phase != PH_OVER && (f->nnum > g->nnums || (g->goal == G_NUMBERS && f->nnum == g->nnums))) return 1;
    if (g->goal == G_AREAS && f->phase == PH_PLACE && f->area < 0) return 1;
    for (int i = 0; i < f->nlines; i++)
        if (f->lines[i][0] < 0 || f->lines[i][0] >= g->players || f->lines[i][1] < 0 || f->lines[i][1] > 3 ||
            f->lines[i][2] < 0 || f->lines[i][2] + (g->length - 1) * (g->S + 1) >= NW * 64)
            return 1;
    for (int i = 0; i < f->nnum; i++)
        if (f->num[i] < 0 || f->num[i] >= g->players) return 1;
    c->deck_moved = 0;
    return 0;
}

/* The state a call of playout or greedy_run plays (read from its buffer and written back to it: nothing of it
 * outlives the call; allocated once, as a fresh allocation of its size per call cost the greedy run 5%). */
static FFState *call_state;

/* The context of a call: the prepared set-up `osetup` (held in `sview`), the buffer (a bytearray of
 * _kernel.PLAYOUT, held in `view`, copied into `in`) and a new state read from it into c (freed by
 * call_end): as read_state; on 1 or -1 nothing is held. */
static int call_begin(FF *c, PyObject *osetup, Py_buffer *sview, Py_buffer *view, PlayoutBuf *in, PyObject *odeck,
                      PyObject *olines, PyObject *onum) {
    memset(c, 0, offsetof(FF, cd));
    if (view->len != (Py_ssize_t)sizeof *in) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "a playout buffer has %zu bytes", sizeof *in);
        return -1;
    }
    memcpy(in, view->buf, sizeof *in);
    c->g = setup_in(osetup, sview);
    if (c->g == NULL) {
        PyBuffer_Release(view);
        return -1;
    }
    int r = c->g->players ? 0 : 1;
    if (r == 0 && call_state == NULL && (call_state = PyMem_RawMalloc(sizeof(FFState))) == NULL) {
        PyErr_NoMemory();
        r = -1;
    }
    if (r == 0) {
        c->f = call_state;
        nw = c->g->words;
        r = read_state(c, in, odeck, olines, onum);
    }
    if (r) {
        PyBuffer_Release(sview);
        PyBuffer_Release(view);
    }
    return r;
}

static void call_end(FF *c, Py_buffer *sview, Py_buffer *view) {
    PyBuffer_Release(sview);
    PyBuffer_Release(view);
}

static PyObject *int_tuple(const int *v, int n) {
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t != NULL && i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(v[i]));
    return t;
}

/* Writes c->f into the buffer and returns (deck, lines, numbers): the given tuples where unchanged, the lines
 * and numbers grown from them (the game only appends to them). */
static PyObject *write_state(FF *c, PlayoutBuf *in, void *buf, PyObject *odeck, PyObject *olines, PyObject *onum) {
    const FFSetup *g = c->g;
    const FFState *f = c->f;
    in->rng = f->rng;
    in->done_areas = f->done;
    in->turn = f->turn;
    in->phase = f->phase;
    in->card = f->card;
    in->left = f->left;
    in->placed = f->placed;
    in->area = f->area;
    in->fails = f->fails;
    in->cards_drawn = f->cards_drawn;
    in->unused = f->unused;
    in->nwin = f->nwin;
    for (int p = 0; p < MAXPLAYERS; p++) {
        in->points[p] = p < g->players ? f->points[p] : 0;
        in->winners[p] = p < f->nwin ? f->win[p] : 0;
        if (p < g->players) bb_store(&f->own[p], in->owners[p]);
    }
    bb_store(&f->last, in->last);
    memcpy(buf, in, sizeof *in);
    Py_ssize_t before = PyObject_Length(olines);
    PyObject *lines = olines;
    if (before < 0) return NULL;
    if (f->nlines == before) Py_INCREF(lines);
    else {
        lines = PyTuple_New(f->nlines);
        for (int i = 0; lines != NULL && i < f->nlines; i++) {
            PyObject *item = i < before ? PySequence_GetItem(olines, i)
                                        : Py_BuildValue("(iii)", f->lines[i][0], f->lines[i][1], f->lines[i][2]);
            if (item == NULL) Py_CLEAR(lines);
            else PyTuple_SET_ITEM(lines, i, item);
        }
    }
    PyObject *deck = c->deck_moved ? int_tuple(f->deck, f->ndeck) : (Py_INCREF(odeck), odeck);
    Py_ssize_t nnum = PyObject_Length(onum);
    PyObject *num = nnum == f->nnum ? (Py_INCREF(onum), onum) : int_tuple(f->num, f->nnum);
    if (lines == NULL || deck == NULL || num == NULL) {
        Py_XDECREF(lines);
        Py_XDECREF(deck);
        Py_XDECREF(num);
        return NULL;
    }
    return Py_BuildValue("(NNN)", deck, lines, num);
}

/* playout(setup, deck, lines, numbers, buffer) -> (deck, lines, numbers), the rest of the end state, the
 * generators and the actions taken written into the buffer; or None (declined: nothing written). setup: a
 * buffer of prepare(). */
static PyObject *py_playout(PyObject *self, PyObject *args) {
    PyObject *osetup, *odeck, *olines, *onum;
    Py_buffer view, sview;
    PlayoutBuf in;
    FF ctx, *c = &ctx;
    if (!PyArg_ParseTuple(args, "OOOOw*", &osetup, &odeck, &olines, &onum, &view)) return NULL;
    int r = call_begin(c, osetup, &sview, &view, &in, odeck, olines, onum);
    if (r < 0) return NULL;
    if (r > 0) Py_RETURN_NONE;
    long nr = (long)in.nrngs, max = (long)in.max_actions;
    if (nr < 1 || (nr > 1 && nr < c->g->players) || nr > MAXPLAYERS) {
        call_end(c, &sview, &view);
        Py_RETURN_NONE;
    }
    FFState *f = c->f;
    if (f->phase == PH_PLACE) cur_placements(c);
    long taken = 0;
    while (!c->fail) {
        if (f->phase == PH_DRAW) {
            chance(c);
            continue;
        }
        if (f->phase == PH_OVER || (max >= 0 && taken >= max)) break;
        act(c, &in.rngs[nr > 1 ? f->turn : 0]);
        taken++;
    }
    PyObject *out = Py_None;
    if (c->fail) Py_INCREF(out);
    else {
        in.taken = taken;
        out = write_state(c, &in, view.buf, odeck, olines, onum);
    }
    call_end(c, &sview, &view);
    return out;
}
