/* Foldris's random playout in C: part of _cfoldris.c (included once, after the rules and argument helpers).
 *
 * Exactly Game.playout over FoldrisGame: at a reveal the state's generator draws the card (chance_outcome,
 * then _reveal: the first deck entry equal to it leaves the deck); in a round every surviving player who
 * has not chosen draws a drop with their generator (rngs[p], or rngs[0] when shared), in seat order, and
 * the round resolves after the last one; max_actions is checked only between rounds, as there.
 */

typedef struct {
    int ncards, tid[MAXDECK], key[MAXDECK], lane[MAXDECK];
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

/* playout(tables, keys, lanes, deck, sheets, pending, start_lane, round, card, rng, over, starter, solo, rngs,
 *         shared, max_actions) -> (sheets, deck, start_lane, round, card, rng, over, pending cleared,
 *         generator states, player actions taken). tables/keys/lanes are per card of the deck file (equal
 *         keys: equal cards); pending[p] is 8 * variant + column, or -1. */
static PyObject *py_playout(PyObject *self, PyObject *const *a, Py_ssize_t nargs) {
    Game g;
    uint64_t rngs[MAXP];
    if (nargs != 16) return PyErr_Format(PyExc_TypeError, "playout() takes 16 arguments");
    memset(&g, 0, sizeof g);
    g.ncards = ints_in(a[0], g.tid, MAXDECK, "tables");
    if (g.ncards < 0 || ints_in(a[1], g.key, MAXDECK, "keys") != g.ncards ||
        ints_in(a[2], g.lane, MAXDECK, "lanes") != g.ncards)
        return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_ValueError, "one table, key and lane per card");
    for (int i = 0; i < g.ncards; i++)
        if (g.tid[i] < 0 || g.tid[i] >= ntables || g.lane[i] < 1 || g.lane[i] > 7)
            return PyErr_Format(PyExc_ValueError, "bad table or lane of card %d", i);
    if ((g.ndeck = ints_in(a[3], g.deck, MAXDECK, "deck")) < 0 || sheets_in(a[4], g.sh, &g.n) < 0 ||
        longs_in(a[5], g.pending, g.n, "pending") < 0)
        return NULL;
    for (int i = 0; i < g.ndeck; i++)
        if (g.deck[i] < 0 || g.deck[i] >= g.ncards) return PyErr_Format(PyExc_ValueError, "bad deck entry");
    g.start_lane = (int)PyLong_AsLong(a[6]);
    g.round = PyLong_AsLong(a[7]);
    g.card = (int)PyLong_AsLong(a[8]);
    g.rng = PyLong_AsUnsignedLongLong(a[9]);
    g.over = PyObject_IsTrue(a[10]);
    g.starter = (int)PyLong_AsLong(a[11]);
    g.solo = PyObject_IsTrue(a[12]);
    int shared = PyObject_IsTrue(a[14]);
    long max_actions = PyLong_AsLong(a[15]);
    if (PyErr_Occurred()) return NULL;
    if (g.card >= g.ncards) return PyErr_Format(PyExc_ValueError, "bad card");
    for (int p = 0; p < g.n; p++)
        if (g.pending[p] >= 0 && g.card >= 0 && (g.pending[p] >> 3) >= tables[g.tid[g.card]]->n)
            return PyErr_Format(PyExc_ValueError, "bad pending drop");
    PyObject *rf = PySequence_Fast(a[13], "rngs");
    if (!rf) return NULL;
    int nr = (int)PySequence_Fast_GET_SIZE(rf);
    if (nr != (shared ? 1 : g.n)) {
        Py_DECREF(rf);
        return PyErr_Format(PyExc_ValueError, "one generator, or one per player");
    }
    for (int i = 0; i < nr; i++) rngs[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(rf, i));
    Py_DECREF(rf);
    if (PyErr_Occurred()) return NULL;
    long taken;
    if (run(&g, rngs, shared, max_actions, &taken) < 0) return NULL;
    PyObject *deck = PyTuple_New(g.ndeck), *states = PyList_New(nr);
    if (!deck || !states) goto fail;
    for (int i = 0; i < g.ndeck; i++) PyTuple_SET_ITEM(deck, i, PyLong_FromLong(g.deck[i]));
    for (int i = 0; i < nr; i++) PyList_SET_ITEM(states, i, PyLong_FromUnsignedLongLong(rngs[i]));
    PyObject *sheets = sheets_out(g.sh, g.n);
    if (!sheets) goto fail;
    return Py_BuildValue("(NNiliKOONl)", sheets, deck, g.start_lane, g.round, g.card, (unsigned long long)g.rng,
                         g.over ? Py_True : Py_False, g.cleared ? Py_True : Py_False, states, taken);
fail:
    Py_XDECREF(deck);
    Py_XDECREF(states);
    return NULL;
}
