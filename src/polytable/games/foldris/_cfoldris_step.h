/* Foldris's protocol step in C: part of _cfoldris.c (included once, after the playout, whose decks it uses).
 *
 * A random step through the protocol is acting_players, legal_actions(s, p).sample(rng), apply(s, drop, p),
 * and apply_chance between rounds. Each is one call here, reading the state's numbers through its struct
 * (StateBuf, _cfoldris_values.h) and its objects as they are: the deck of the state's config is found
 * through the last config seen (else the Python resolver registered by bind()), and a drawn drop is the
 * card's own Drop object (actions are immutable values). The answers, states and draws are those of the
 * pure rules; anything that is not a plain legal step returns None and the general Python path judges it
 * (and explains a refusal).
 */

static PyTypeObject *drop_type; /* _state.Drop */
static Fields view_s; /* _native.Drops, a core.LegalActions: slots _game, _player, _state */
static PyObject *resolver;      /* config -> deck id (registering the deck and its values on first use) */
static PyObject *last_config;   /* held: the config whose deck is last_deck */
static int last_deck = -1;
static PyObject *deck_names[MAXT]; /* per deck: a tuple, each card's block name */
static PyObject *deck_drops[MAXT]; /* per deck: a tuple, per card every Drop at 8 * variant + column */

/* The deck id of the state's config (equal configs have the same deck); -1 with an exception set. */
static int deck_of(PyObject *state) {
    PyObject *config = OBJ(state, O_CONFIG);
    if (!config) return -1;
    if (config == last_config) return last_deck;
    if (last_config && Py_TYPE(config) == Py_TYPE(last_config)) { /* a new game's config: equal to the last? */
        int same = PyObject_RichCompareBool(config, last_config, Py_EQ);
        if (same < 0) return -1;
        if (same) {
            Py_INCREF(config);
            Py_SETREF(last_config, config);
            return last_deck;
        }
    }
    if (!resolver) {
        PyErr_SetString(PyExc_RuntimeError, "Foldris kernel: bind() was not called");
        return -1;
    }
    PyObject *r = PyObject_CallOneArg(resolver, config);
    if (!r) return -1;
    long d = PyLong_AsLong(r);
    Py_DECREF(r);
    if (d == -1 && PyErr_Occurred()) return -1;
    if (d < 0 || d >= ndecks || !deck_drops[d]) {
        PyErr_SetString(PyExc_ValueError, "unknown Foldris deck, or its values not given");
        return -1;
    }
    Py_INCREF(config);
    Py_XSETREF(last_config, config);
    last_deck = (int)d;
    return last_deck;
}

/* The state's card (-1 between rounds) and its tuples of sheets and pending choices, checked; -2 on error. */
static long round_of(PyObject *state, PyObject **sheets, PyObject **pending) {
    int64_t card;
    if (!codec_is(&state_c, state)) {
        PyErr_SetString(PyExc_TypeError, "expected a FoldrisState");
        return -2;
    }
    *sheets = OBJ(state, O_SHEETS);
    *pending = OBJ(state, O_PENDING);
    if (!*sheets || !*pending || state_get(state, ST_card, &card) < 0) return -2;
    if (!PyTuple_Check(*sheets) || !PyTuple_Check(*pending) || PyTuple_GET_SIZE(*sheets) < 1 ||
        PyTuple_GET_SIZE(*sheets) > MAXP || PyTuple_GET_SIZE(*pending) != PyTuple_GET_SIZE(*sheets)) {
        PyErr_SetString(PyExc_TypeError, "sheets and pending choices: one per player");
        return -2;
    }
    return (long)card;
}

/* _native.can_act: 1 when player (an int, not a bool) is a survivor still to choose this round, else 0. */
static int acts(PyObject *state, PyObject *player, long *p, long *card) {
    PyObject *sheets, *pending;
    int64_t over;
    if (!PyLong_CheckExact(player) || !codec_is(&state_c, state)) return 0;
    if ((*card = round_of(state, &sheets, &pending)) == -2) return -1;
    if (*card < 0) return 0;
    if (state_get(state, ST_over, &over) < 0) return -1;
    if (over) return 0;
    *p = PyLong_AsLong(player);
    if (*p == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    if (*p < 0 || *p >= PyTuple_GET_SIZE(sheets) || PyTuple_GET_ITEM(pending, *p) != Py_None) return 0;
    int is_out = sheet_is_out(PyTuple_GET_ITEM(sheets, *p));
    return is_out < 0 ? -1 : !is_out;
}

static PyObject *py_can_act(PyObject *self, PyObject *const *a, Py_ssize_t n) {
    long p, card;
    if (n != 2) return PyErr_Format(PyExc_TypeError, "can_act() takes 2 arguments");
    int r = acts(a[0], a[1], &p, &card);
    return r < 0 ? NULL : PyBool_FromLong(r);
}

/* sample_drop(state, player, rng) -> FoldrisGame._sample of a player choosing now: the same draw (rng.state
 * advanced), the card's Drop object; None when the player has no legal drop (rng unchanged). */
static PyObject *py_sample_drop(PyObject *self, PyObject *const *a, Py_ssize_t n) {
    PyObject *sheets, *pending;
    Sheet *s;
    if (n != 3) return PyErr_Format(PyExc_TypeError, "sample_drop() takes 3 arguments");
    long card = round_of(a[0], &sheets, &pending), p = PyLong_AsLong(a[1]);
    if (card == -2 || (p == -1 && PyErr_Occurred())) return NULL;
    int d = deck_of(a[0]);
    if (d < 0) return NULL;
    if (card < 0 || card >= decks[d]->ncards || p < 0 || p >= PyTuple_GET_SIZE(sheets))
        return PyErr_Format(PyExc_ValueError, "sample_drop(): no card face up, or no such player");
    if (!(s = kept_sheet(PyTuple_GET_ITEM(sheets, p)))) return NULL;
    if (!state_str && !(state_str = PyUnicode_InternFromString("state"))) return NULL;
    PyObject *st = PyObject_GetAttr(a[2], state_str);
    if (!st) return NULL;
    uint64_t rng = PyLong_AsUnsignedLongLong(st);
    Py_DECREF(st);
    if (PyErr_Occurred()) return NULL;
    int col = 0, vi = sample(tables[decks[d]->tid[card]], s, &rng, &col);
    if (vi < 0) Py_RETURN_NONE;
    PyObject *drops = PyTuple_GET_ITEM(deck_drops[d], card);
    if (8 * vi + col >= PyTuple_GET_SIZE(drops)) return PyErr_Format(PyExc_ValueError, "a card's drops: too few");
    if (!(st = PyLong_FromUnsignedLongLong(rng)) || PyObject_SetAttr(a[2], state_str, st) < 0) {
        Py_XDECREF(st);
        return NULL;
    }
    Py_DECREF(st);
    return Py_NewRef(PyTuple_GET_ITEM(drops, 8 * vi + col));
}

/* try_drop(state, drop, player) -> FoldrisGame.apply of a legal drop by a player still to choose (the
 * record, or the round's resolution); None for anything else (the general path judges it). */
static PyObject *py_try_drop(PyObject *self, PyObject *const *a, Py_ssize_t n) {
    long p, card, k[4];
    Sheet *s;
    if (n != 3) return PyErr_Format(PyExc_TypeError, "try_drop() takes 3 arguments");
    PyObject *action = a[1];
    if (!drop_type || Py_TYPE(action) != drop_type || PyTuple_GET_SIZE(action) != 5) Py_RETURN_NONE;
    int r = acts(a[0], a[2], &p, &card);
    if (r <= 0) return r < 0 ? NULL : Py_NewRef(Py_None);
    int d = deck_of(a[0]);
    if (d < 0) return NULL;
    if (card >= decks[d]->ncards) Py_RETURN_NONE;
    int same = PyObject_RichCompareBool(PyTuple_GET_ITEM(action, 0), PyTuple_GET_ITEM(deck_names[d], card), Py_EQ);
    if (same <= 0) return same < 0 ? NULL : Py_NewRef(Py_None);
    for (int i = 0; i < 4; i++) {
        PyObject *x = PyTuple_GET_ITEM(action, i + 1);
        if (!PyLong_CheckExact(x)) Py_RETURN_NONE; /* not an int, or a bool */
        k[i] = PyLong_AsLong(x);
        if (k[i] == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            Py_RETURN_NONE;
        }
    }
    if (k[0] < 0 || k[0] > 1 || k[1] < 0 || k[1] > 8 || k[2] < 0 || k[2] > 3 || k[3] < 0 || k[3] > 7) Py_RETURN_NONE;
    const Table *t = tables[decks[d]->tid[card]];
    int vi = t->by_key[k[0]][k[1]][k[2]];
    if (vi < 0) Py_RETURN_NONE;
    const V *v = &t->v[vi];
    if (v->mirror != k[0] || v->trim != k[1] || v->rot != k[2] || k[3] + v->width > 8) Py_RETURN_NONE;
    if (!(s = kept_sheet(PyTuple_GET_ITEM(OBJ(a[0], O_SHEETS), p)))) return NULL;
    if (v->cost > s->bonus || rest_row(v, heights(s), (int)k[3]) + v->height > s->height) Py_RETURN_NONE;
    return choose(t, decks[d]->lane[card], a[0], p, action);
}

/* A new Sheet: the fields of old, with out = rnd. */
static PyObject *sheet_out_at(PyObject *old, long rnd) {
    SheetBuf b;
    PyObject *v[FIELDS_MAX] = {NULL};
    b.out = rnd;
    return codec_remake(&sheet_c, old, &b, BIT(SB_out), v);
}

/* reveal(state) -> FoldrisGame.apply_chance: the state's generator draws the card, the first equal card
 * leaves the deck, and _reveal follows (the start squares, or the new round and its eliminations); None
 * when the state is not a chance node (the protocol's error is raised by the caller). */
static PyObject *py_reveal(PyObject *self, PyObject *st) {
    PyObject *sheets, *pending;
    StateBuf b;
    long card = round_of(st, &sheets, &pending);
    if (card == -2) return NULL;
    int ok = codec_read(&state_c, st, &b);
    if (ok <= 0) return ok < 0 ? NULL : PyErr_Format(PyExc_TypeError, "a Foldris state's field is not an int");
    PyObject *deck0 = OBJ(st, O_DECK);
    if (!deck0) return NULL;
    if (b.over || card >= 0) Py_RETURN_NONE;
    int d = deck_of(st);
    if (d < 0) return NULL;
    const Deck *D = decks[d];
    if (!PyTuple_Check(deck0) || PyTuple_GET_SIZE(deck0) < 1 || PyTuple_GET_SIZE(deck0) > MAXDECK)
        return PyErr_Format(PyExc_ValueError, "reveal(): the deck is empty");
    int nd = (int)PyTuple_GET_SIZE(deck0), deck[MAXDECK];
    for (int i = 0; i < nd; i++) {
        long x = PyLong_AsLong(PyTuple_GET_ITEM(deck0, i));
        if (x == -1 && PyErr_Occurred()) return NULL;
        if (x < 0 || x >= D->ncards) return PyErr_Format(PyExc_ValueError, "bad deck entry");
        deck[i] = (int)x;
    }
    uint64_t rng = b.rng;
    long start = (long)b.start_lane, rnd = (long)b.round + 1, starter = (long)b.starter;
    int i = (int)below(&rng, (uint64_t)nd), key = D->key[deck[i]], pos = 0;
    while (D->key[deck[pos]] != key) pos++;
    int index = deck[pos], np = (int)PyTuple_GET_SIZE(sheets), alive = 0;
    PyObject *v[FIELDS_MAX] = {NULL}, *left = PyTuple_New(nd - 1), *out = PyTuple_New(np);
    if (!left || !out) goto fail;
    for (int j = 0, m = 0; j < nd; j++)
        if (j != pos) PyTuple_SET_ITEM(left, m++, Py_NewRef(PyTuple_GET_ITEM(deck0, j)));
    for (int p = 0; p < np; p++) {
        PyObject *o = PyTuple_GET_ITEM(sheets, p), *x;
        int is_out = sheet_is_out(o);
        if (is_out < 0) goto fail;
        if (!start) { /* the start card: 2x2 squares, the starting player's in its lane, the next seat's next */
            int c = (int)((D->lane[index] - 1 + ((p - starter) % np + np) % np) % 7);
            SheetBuf sb;
            PyObject *w[FIELDS_MAX] = {NULL};
            memset(sb.ink, 0, ROWS);
            memset(sb.barrier, 0, ROWS);
            sb.ink[0] = sb.ink[1] = (uint8_t)(3 << c);
            sb.out = 0;
            x = codec_remake(&sheet_c, o, &sb, BIT(SB_ink) | BIT(SB_barrier) | BIT(SB_out), w);
        } else {
            Sheet *s = NULL;
            if (!is_out && !(s = kept_sheet(o))) goto fail;
            int keep = is_out || count(tables[D->tid[index]], s) > 0;
            alive += !is_out && keep;
            x = keep ? Py_NewRef(o) : sheet_out_at(o, rnd);
        }
        if (!x) goto fail;
        PyTuple_SET_ITEM(out, p, x);
    }
    int ends = start && (alive == 0 || (np > 1 && alive == 1));
    v[obj_at[O_SHEETS]] = out;
    v[obj_at[O_DECK]] = left;
    b.start_lane = start ? start : D->lane[index];
    b.round = start ? rnd : 0;
    b.card = ends ? -1 : (start ? index : -1);
    b.rng = rng;
    b.over = ends;
    unsigned made = BIT(ST_start_lane) | BIT(ST_round) | BIT(ST_card) | BIT(ST_rng) | BIT(ST_over);
    return codec_remake(&state_c, st, &b, made, v); /* config, pending and starter as they were */
fail:
    Py_XDECREF(left);
    Py_XDECREF(out);
    return NULL;
}

/* legal(game, state, player) -> the view legal_actions(state, player) returns (LegalActions's slots set,
 * as its __init__ does) when player is a survivor still to choose; None for anything else. */
static PyObject *py_view(PyObject *self, PyObject *const *a, Py_ssize_t n) {
    long p, card;
    if (n != 3) return PyErr_Format(PyExc_TypeError, "view() takes 3 arguments");
    if (!view_s.type) return PyErr_Format(PyExc_RuntimeError, "Foldris kernel: bind() was not called");
    int r = acts(a[1], a[2], &p, &card);
    if (r <= 0) return r < 0 ? NULL : Py_NewRef(Py_None);
    PyObject *v[3] = {Py_NewRef(a[0]), Py_NewRef(a[2]), Py_NewRef(a[1])};
    return fields_make(&view_s, v);
}

/* core._rng.seed_state: the generator state of a seed (any int: taken modulo 2**64, as the Python's mask) and
 * a stream */
static uint64_t seed_state(PyObject *seed, uint64_t stream) {
    uint64_t s = (uint64_t)PyLong_AsUnsignedLongLongMask(seed) * 0x2545F4914F6CDD1DULL + stream * GOLDEN +
                 0x632BE59BD9B4E019ULL;
    return next_u64(&s);
}

/* new(config, seed, height, cards, starter stream) -> FoldrisGame._new: one empty sheet for every player,
 * the whole deck, the seed's generator, the starting player drawn from the seed's starter stream. */
static PyObject *py_new(PyObject *self, PyObject *const *a, Py_ssize_t n) {
    if (n != 5) return PyErr_Format(PyExc_TypeError, "new() takes 5 arguments");
    if (!PyLong_Check(a[1])) return PyErr_Format(PyExc_TypeError, "a seed is an int");
    PyObject *players = PyObject_GetAttrString(a[0], "players");
    if (!players) return NULL;
    long np = PyLong_AsLong(players), cards = PyLong_AsLong(a[3]), stream = PyLong_AsLong(a[4]);
    Py_DECREF(players);
    if (PyErr_Occurred()) return NULL;
    if (np < 1 || np > MAXP || cards < 0 || cards > MAXDECK || stream < 0)
        return PyErr_Format(PyExc_ValueError, "new(): 1 to 7 players, 0 to 256 cards");
    uint64_t rng = seed_state(a[1], 0), st = seed_state(a[1], (uint64_t)stream);
    long height = PyLong_AsLong(a[2]);
    if (PyErr_Occurred()) return NULL;
    long starter = (long)below(&st, (uint64_t)np);
    SheetBuf sb;
    memset(&sb, 0, sizeof sb);
    sb.height = height;
    sb.bonus = 2;
    PyObject *w[FIELDS_MAX] = {NULL}, *v[FIELDS_MAX] = {NULL};
    PyObject *sheet = codec_make(&sheet_c, &sb, w);
    if (!sheet) return NULL;
    PyObject *sheets = v[obj_at[O_SHEETS]] = PyTuple_New(np), *deck = v[obj_at[O_DECK]] = PyTuple_New(cards),
             *pending = v[obj_at[O_PENDING]] = PyTuple_New(np);
    v[obj_at[O_CONFIG]] = Py_NewRef(a[0]);
    for (long p = 0; sheets && pending && p < np; p++) {
        PyTuple_SET_ITEM(sheets, p, Py_NewRef(sheet));
        PyTuple_SET_ITEM(pending, p, Py_NewRef(Py_None));
    }
    for (long i = 0; deck && i < cards; i++) {
        PyObject *x = PyLong_FromLong(i);
        if (!x) {
            Py_CLEAR(v[obj_at[O_DECK]]);
            break;
        }
        PyTuple_SET_ITEM(deck, i, x);
    }
    Py_DECREF(sheet);
    StateBuf b = {0, 0, -1, rng, 0, starter};
    return codec_make(&state_c, &b, v);
}

/* bind(Drop, resolver, view class, its slot names): the action class the kernel returns and checks, config ->
 * deck id, and the legal-actions view it builds (slots _game, _player, _state). */
static PyObject *py_bind(PyObject *self, PyObject *const *a, Py_ssize_t n) {
    if (n != 4 || !PyType_Check(a[0]) || !PyCallable_Check(a[1]) || !PyType_Check(a[2]))
        return PyErr_Format(PyExc_TypeError, "bind(Drop, resolver, view class, its slot names)");
    if (fields_bind(&view_s, a[2], a[3], 3) < 0) return NULL;
    Py_INCREF(a[0]);
    Py_INCREF(a[1]);
    Py_XSETREF(drop_type, (PyTypeObject *)a[0]);
    Py_XSETREF(resolver, a[1]);
    Py_CLEAR(last_config);
    return Py_NewRef(Py_None);
}

/* values(deck, names, drops): a registered deck's card names and, per card, its drops (8 * variant + col). */
static PyObject *py_values(PyObject *self, PyObject *const *a, Py_ssize_t n) {
    if (n != 3) return PyErr_Format(PyExc_TypeError, "values() takes 3 arguments");
    long d = PyLong_AsLong(a[0]);
    if (d == -1 && PyErr_Occurred()) return NULL;
    if (d < 0 || d >= ndecks) return PyErr_Format(PyExc_ValueError, "unknown deck");
    if (!PyTuple_Check(a[1]) || !PyTuple_Check(a[2]) || PyTuple_GET_SIZE(a[1]) != decks[d]->ncards ||
        PyTuple_GET_SIZE(a[2]) != decks[d]->ncards)
        return PyErr_Format(PyExc_ValueError, "values(): a tuple of names and one of drops, one per card");
    for (int i = 0; i < decks[d]->ncards; i++) {
        PyObject *drops = PyTuple_GET_ITEM(a[2], i);
        if (!PyTuple_Check(drops) || PyTuple_GET_SIZE(drops) != 8 * tables[decks[d]->tid[i]]->n)
            return PyErr_Format(PyExc_ValueError, "values(): card %d needs 8 drops per variant", i);
    }
    Py_INCREF(a[1]);
    Py_INCREF(a[2]);
    Py_XSETREF(deck_names[d], a[1]);
    Py_XSETREF(deck_drops[d], a[2]);
    return Py_NewRef(Py_None);
}
