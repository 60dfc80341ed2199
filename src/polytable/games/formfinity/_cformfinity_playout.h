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

/* Reads FormfinityState's fields (_native.native_playout's order) into F: as read_pack. */
static int read_state(PyObject *st) {
    PyObject *odeck, *oown, *olines, *odone, *opoints, *onum, *owin, *olast;
    int n, r;
    if (!PyArg_ParseTuple(st, "KOOiiiiiOiOiOOOlOl", &F.rng, &odeck, &oown, &F.turn, &F.phase, &F.card, &F.left,
                          &F.placed, &olines, &F.area, &odone, &F.fails, &opoints, &onum, &owin, &F.cards_drawn,
                          &olast, &F.unused))
        return -1;
    if ((r = int_items(odeck, F.deck, MAXDECK, &F.ndeck)) || (r = bb_items(oown, F.own, MAXPLAYERS, &n))) return r;
    if (n != G.players || F.turn < 0 || F.turn >= n || F.phase < 0 || F.phase > PH_OVER || G.nareas > 64 ||
        F.area >= G.nareas || (!G.gen && !G.ndeck))
        return 1;
    if (F.phase == PH_PLACE && (F.card < 0 || F.card / 96 >= nshapes)) return 1;
    if (pylong_bits(odone) > 64) return 1;
    F.done = PyLong_AsUnsignedLongLong(odone);
    if (from_py(olast, &F.last)) return -1;
    PyObject *fast = PySequence_Fast(olines, "lines");
    if (fast == NULL) return -1;
    F.nlines = (int)PySequence_Fast_GET_SIZE(fast);
    r = F.nlines > MAXLINES;
    for (int i = 0; !r && i < F.nlines; i++)
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "iii", &F.lines[i][0], &F.lines[i][1],
                              &F.lines[i][2]))
            r = -1;
    Py_DECREF(fast);
    int pts[MAXPLAYERS];
    if (r || (r = int_items(opoints, pts, MAXPLAYERS, &n))) return r;
    for (int p = 0; p < MAXPLAYERS; p++) F.points[p] = p < n ? pts[p] : 0;
    if (n != G.players) return 1;
    if ((r = int_items(onum, F.num, MAXNUMS, &F.nnum)) || (r = int_items(owin, F.win, MAXPLAYERS, &F.nwin))) return r;
    if (PyErr_Occurred()) return -1;
    /* what the flow indexes with must be in range (a state built by hand may not be: Python plays it) */
    if (F.phase != PH_OVER && (F.nnum > G.nnums || (G.goal == G_NUMBERS && F.nnum == G.nnums))) return 1;
    if (G.goal == G_AREAS && F.phase == PH_PLACE && F.area < 0) return 1;
    for (int i = 0; i < F.nlines; i++)
        if (F.lines[i][0] < 0 || F.lines[i][0] >= G.players || F.lines[i][1] < 0 || F.lines[i][1] > 3 ||
            F.lines[i][2] < 0 || F.lines[i][2] + (G.length - 1) * (G.S + 1) >= NW * 64)
            return 1;
    for (int i = 0; i < F.nnum; i++)
        if (F.num[i] < 0 || F.num[i] >= G.players) return 1;
    return 0;
}

static PyObject *int_tuple(const int *v, int n) {
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t != NULL && i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(v[i]));
    return t;
}

/* The state's fields in _native._FIELDS order (as py_playout returns them). */
static PyObject *fields_out(void) {
    PyObject *lines = PyTuple_New(F.nlines), *own = PyTuple_New(G.players), *pts = PyTuple_New(G.players);
    for (int i = 0; lines != NULL && i < F.nlines; i++)
        PyTuple_SET_ITEM(lines, i, Py_BuildValue("(iii)", F.lines[i][0], F.lines[i][1], F.lines[i][2]));
    for (int p = 0; own != NULL && pts != NULL && p < G.players; p++) {
        PyTuple_SET_ITEM(own, p, to_py(&F.own[p]));
        PyTuple_SET_ITEM(pts, p, PyLong_FromLong(F.points[p]));
    }
    if (lines == NULL || own == NULL || pts == NULL) {
        Py_XDECREF(lines);
        Py_XDECREF(own);
        Py_XDECREF(pts);
        return NULL;
    }
    return Py_BuildValue("(KNNiiiiiNiKiNNNlNl)", F.rng, int_tuple(F.deck, F.ndeck), own, F.turn, F.phase, F.card,
                         F.left, F.placed, lines, F.area, (unsigned long long)F.done, F.fails, pts,
                         int_tuple(F.num, F.nnum), int_tuple(F.win, F.nwin), F.cards_drawn, to_py(&F.last), F.unused);
}

/* playout(pack, fields, rng_states, max_actions) -> (fields, rng_states, taken) or None (declined). */
static PyObject *py_playout(PyObject *self, PyObject *args) {
    PyObject *pack, *st, *orngs;
    long max;
    if (!PyArg_ParseTuple(args, "OOO!l", &pack, &st, &PyList_Type, &orngs, &max)) return NULL;
    if (!nshapes) {
        PyErr_SetString(PyExc_ValueError, "init must come first");
        return NULL;
    }
    int r = read_pack(pack);
    if (r == 0) {
        set_words(G.H * G.S);
        r = read_state(st);
    }
    Py_ssize_t nr = PyList_GET_SIZE(orngs);
    if (r == 0 && (nr < 1 || (nr > 1 && nr < G.players) || nr > MAXPLAYERS)) r = 1;
    uint64_t rs[MAXPLAYERS];
    for (Py_ssize_t i = 0; r == 0 && i < nr; i++) {
        rs[i] = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(orngs, i));
        if (PyErr_Occurred()) r = -1;
    }
    if (r < 0) return NULL;
    if (r > 0) Py_RETURN_NONE;
    fail = 0;
    if (F.phase == PH_PLACE) cur_placements();
    long taken = 0;
    while (!fail) {
        if (F.phase == PH_DRAW) {
            chance();
            continue;
        }
        if (F.phase == PH_OVER || (max >= 0 && taken >= max)) break;
        act(&rs[nr > 1 ? F.turn : 0]);
        taken++;
    }
    if (fail) Py_RETURN_NONE;
    PyObject *states = PyList_New(nr);
    for (Py_ssize_t i = 0; states != NULL && i < nr; i++)
        PyList_SET_ITEM(states, i, PyLong_FromUnsignedLongLong(rs[i]));
    if (states == NULL) return NULL;
    return Py_BuildValue("NNl", fields_out(), states, taken);
}
