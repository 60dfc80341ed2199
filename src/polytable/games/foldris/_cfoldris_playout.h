/* Foldris's random playout in C: part of _cfoldris.c (included once, after the rules and argument helpers).
 *
 * Exactly Game.playout over FoldrisGame: at a reveal the state's generator draws the card (chance_outcome,
 * then _reveal: the first deck entry equal to it leaves the deck); in a round every surviving player who
 * has not chosen draws a drop with their generator (rngs[p], or rngs[0] when shared), in seat order, and
 * the round resolves after the last one; max_actions is checked only between rounds, as there.
 */

typedef struct {
    int ncards, tid[MAXDECK], key[MAXDECK], lane[MAXDECK];
} Deck;

static Deck *decks[MAXT];
static int deck_of(PyObject *state); /* _cfoldris_step.h: the deck of the state's config */
static PyObject *state_str; /* "state", the attribute of core.Rng */
static int ndecks;

typedef struct {
    const Deck *d;
    const int *tid, *key, *lane;
    int ndeck, deck[MAXDECK];
    int n, solo, start_lane, card, over, starter, cleared;
    long round;
    uint64_t rng;
    Sheet sh[MAXP];
    long pending[MAXP];
} Game;

/* a chance node: _game._reveal of the card chance_outcome draws */
static int reveal(Game *g) {
    if (g->ndeck < 1) {
        PyErr_SetString(PyExc_ValueError, "the deck is empty at a reveal");
        return -1;
    }
    int i = (int)below(&g->rng, (uint64_t)g->ndeck), key = g->key[g->deck[i]], pos = 0;
    while (g->key[g->deck[pos]] != key) pos++;
    int index = g->deck[pos];
    memmove(&g->deck[pos], &g->deck[pos + 1], sizeof(int) * (size_t)(g->ndeck - pos - 1));
    g->ndeck--;
    if (!g->start_lane) {
        int lane = g->lane[index];
        for (int p = 0; p < g->n; p++) {
            Sheet *s = &g->sh[p];
            int c = (lane - 1 + ((p - g->starter) % g->n + g->n) % g->n) % 7;
            memset(s->ink, 0, ROWS);
            memset(s->bar, 0, ROWS);
            s->ink[0] = s->ink[1] = (uint8_t)(3 << c);
            s->out = 0;
            s->top = 2;
            memset(s->ih, 0, sizeof s->ih);
            memset(s->bh, 0, sizeof s->bh);
            s->ih[c] = s->ih[c + 1] = 2;
            s->ihv = 1;
            s->hv = 0;
        }
        g->start_lane = lane;
        g->round = 0;
        g->card = -1;
        return 0;
    }
    long rnd = g->round + 1;
    const Table *t = tables[g->tid[index]];
    int alive = 0;
    for (int p = 0; p < g->n; p++) {
        Sheet *s = &g->sh[p];
        if (s->out) continue;
        if (count(t, s))
            alive++;
        else
            s->out = rnd;
    }
    g->over = alive == 0 || (!g->solo && alive == 1);
    g->round = rnd;
    g->card = g->over ? -1 : index;
    return 0;
}

static int run(Game *g, uint64_t *rngs, int shared, long max_actions, long *taken) {
    int vi[MAXP], col[MAXP];
    *taken = 0;
    for (;;) {
        if (g->over) return 0;
        if (g->card < 0) {
            if (reveal(g) < 0) return -1;
            continue;
        }
        if (max_actions >= 0 && *taken >= max_actions) return 0;
        const Table *t = tables[g->tid[g->card]];
        for (int p = 0; p < g->n; p++) {
            vi[p] = g->pending[p] < 0 ? -1 : (int)(g->pending[p] >> 3);
            col[p] = (int)(g->pending[p] & 7);
            if (g->sh[p].out || g->pending[p] >= 0) continue;
            vi[p] = sample(t, &g->sh[p], &rngs[shared ? 0 : p], &col[p]);
            if (vi[p] < 0) {
                PyErr_Format(PyExc_ValueError, "player %d has no legal drop", p + 1);
                return -1;
            }
            ++*taken;
        }
        resolve(t, g->lane[g->card], g->solo, g->sh, g->n, vi, col);
        for (int p = 0; p < g->n; p++) g->pending[p] = -1;
        g->cleared = 1;
        g->card = -1;
        g->over = g->ndeck == 0;
    }
}

static int ints_in(PyObject *seq, int *out, int max, const char *what) {
    PyObject *f = PySequence_Fast(seq, what);
    if (!f) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(f);
    if (n > max) {
        Py_DECREF(f);
        PyErr_Format(PyExc_ValueError, "%s: at most %d items", what, max);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) out[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(f, i));
    Py_DECREF(f);
    return PyErr_Occurred() ? -1 : (int)n;
}

/* deck(tables, keys, lanes) -> deck id: per card of a deck file, its table, a key (equal for equal cards)
 * and its lane */
static PyObject *py_deck(PyObject *self, PyObject *const *a, Py_ssize_t nargs) {
    if (nargs != 3) return PyErr_Format(PyExc_TypeError, "deck() takes 3 arguments");
    if (ndecks >= MAXT) return PyErr_Format(PyExc_RuntimeError, "too many Foldris decks");
    Deck *d = PyMem_Calloc(1, sizeof(Deck));
    if (!d) return PyErr_NoMemory();
    d->ncards = ints_in(a[0], d->tid, MAXDECK, "tables");
    if (d->ncards < 1 || ints_in(a[1], d->key, MAXDECK, "keys") != d->ncards ||
        ints_in(a[2], d->lane, MAXDECK, "lanes") != d->ncards) {
        PyMem_Free(d);
        return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_ValueError, "one table, key and lane per card");
    }
    for (int i = 0; i < d->ncards; i++)
        if (d->tid[i] < 0 || d->tid[i] >= ntables || d->lane[i] < 1 || d->lane[i] > 7) {
            PyMem_Free(d);
            return PyErr_Format(PyExc_ValueError, "bad table or lane of card %d", i);
        }
    decks[ndecks] = d;
    return PyLong_FromLong(ndecks++);
}

/* playout(deck, state, pending, rngs, shared, max_actions) -> (final state, player actions taken); deck -1: the
 * state's config's (found as the protocol's step finds it). pending[p]
 * is player p's pending drop as 8 * variant + column, or -1 (None: nobody's); rngs are core.Rng objects
 * (their state attribute is read and advanced): one shared, or one per player (extra ones are left alone). */
static PyObject *py_playout(PyObject *self, PyObject *const *a, Py_ssize_t nargs) {
    Game g;
    StateBuf b;
    uint64_t rngs[MAXP];
    if (nargs != 6) return PyErr_Format(PyExc_TypeError, "playout() takes 6 arguments");
    long did = PyLong_AsLong(a[0]);
    if (PyErr_Occurred()) return NULL;
    int ok = codec_read(&state_c, a[1], &b);
    if (ok <= 0) return ok < 0 ? NULL : PyErr_Format(PyExc_TypeError, "expected a FoldrisState");
    if (did == -1 && (did = deck_of(a[1])) < 0) return NULL;
    if (did < 0 || did >= ndecks) return PyErr_Format(PyExc_ValueError, "unknown deck");
    PyObject *sheets = OBJ(a[1], O_SHEETS), *deck0 = OBJ(a[1], O_DECK), *pending0 = OBJ(a[1], O_PENDING);
    if (!sheets || !deck0 || !pending0) return NULL;
    memset(&g, 0, sizeof g);
    g.d = decks[did];
    g.tid = g.d->tid;
    g.key = g.d->key;
    g.lane = g.d->lane;
    if ((g.ndeck = ints_in(deck0, g.deck, MAXDECK, "deck")) < 0 || sheets_in(sheets, g.sh, &g.n) < 0) return NULL;
    if (a[2] == Py_None)
        for (int p = 0; p < g.n; p++) g.pending[p] = -1;
    else if (longs_in(a[2], g.pending, g.n, "pending") < 0)
        return NULL;
    for (int i = 0; i < g.ndeck; i++)
        if (g.deck[i] < 0 || g.deck[i] >= g.d->ncards) return PyErr_Format(PyExc_ValueError, "bad deck entry");
    g.start_lane = (int)b.start_lane;
    g.round = (long)b.round;
    g.card = (int)b.card;
    g.rng = b.rng;
    g.over = b.over != 0;
    g.starter = (int)b.starter;
    g.solo = g.n == 1;
    int shared = PyObject_IsTrue(a[4]);
    long max_actions = PyLong_AsLong(a[5]);
    if (PyErr_Occurred()) return NULL;
    if (g.card >= g.d->ncards) return PyErr_Format(PyExc_ValueError, "bad card");
    for (int p = 0; p < g.n; p++)
        if (g.pending[p] >= 0 && (g.card < 0 || (g.pending[p] >> 3) >= tables[g.tid[g.card]]->n))
            return PyErr_Format(PyExc_ValueError, "bad pending drop");
    PyObject *rf = PySequence_Fast(a[3], "rngs");
    if (!rf) return NULL;
    int nr = shared ? 1 : g.n; /* one generator, or the first n of several: one per player */
    if (PySequence_Fast_GET_SIZE(rf) < nr || (shared && PySequence_Fast_GET_SIZE(rf) != 1)) {
        Py_DECREF(rf);
        return PyErr_Format(PyExc_ValueError, "one generator, or one per player");
    }
    if (!state_str && !(state_str = PyUnicode_InternFromString("state"))) {
        Py_DECREF(rf);
        return NULL;
    }
    for (int i = 0; i < nr; i++) {
        PyObject *st = PyObject_GetAttr(PySequence_Fast_GET_ITEM(rf, i), state_str);
        if (!st) break;
        rngs[i] = PyLong_AsUnsignedLongLong(st);
        Py_DECREF(st);
    }
    if (PyErr_Occurred()) {
        Py_DECREF(rf);
        return NULL;
    }
    long taken;
    if (run(&g, rngs, shared, max_actions, &taken) < 0) {
        Py_DECREF(rf);
        return NULL;
    }
    for (int i = 0; i < nr; i++) {
        PyObject *st = PyLong_FromUnsignedLongLong(rngs[i]);
        if (!st || PyObject_SetAttr(PySequence_Fast_GET_ITEM(rf, i), state_str, st) < 0) {
            Py_XDECREF(st);
            Py_DECREF(rf);
            return NULL;
        }
        Py_DECREF(st);
    }
    Py_DECREF(rf);
    PyObject *deck = PyTuple_New(g.ndeck), *v[FIELDS_MAX] = {NULL};
    if (!deck) return NULL;
    for (int i = 0; i < g.ndeck; i++) PyTuple_SET_ITEM(deck, i, PyLong_FromLong(g.deck[i]));
    v[obj_at[O_SHEETS]] = sheets_out(g.sh, g.n);
    v[obj_at[O_DECK]] = deck;
    if (g.cleared) {
        PyObject *none = v[obj_at[O_PENDING]] = PyTuple_New(g.n);
        for (int p = 0; none && p < g.n; p++) PyTuple_SET_ITEM(none, p, Py_NewRef(Py_None));
    }
    if (!v[obj_at[O_SHEETS]] || (g.cleared && !v[obj_at[O_PENDING]])) {
        for (int i = 0; i < FIELDS_MAX; i++) Py_XDECREF(v[i]);
        return NULL;
    }
    b.start_lane = g.start_lane;
    b.round = g.round;
    b.card = g.card;
    b.rng = g.rng;
    b.over = g.over;
    unsigned made = BIT(ST_start_lane) | BIT(ST_round) | BIT(ST_card) | BIT(ST_rng) | BIT(ST_over);
    PyObject *state = codec_remake(&state_c, a[1], &b, made, v); /* config, starter (and pending) as they were */
    if (!state) return NULL;
    return Py_BuildValue("(Nl)", state, taken);
}
