/* polytable.games.qwirkle_cubes._cqwirkle_vec: a batch of Qwirkle Cubes games held in C and stepped in one
 * call, for the batched environment (polytable.interop.vector) and the PettingZoo environment (a batch of
 * one). Per game and step: the action (by index, see below) is applied, the chance events that follow (draws
 * and rolls) are settled from the game's own generator, and the next seat's observation planes and
 * legal-action mask are written into preallocated NumPy rows, with no Python object made. A game that ends
 * can start its next game here too, from a seed the caller gives per game.
 *
 * The rules are the compiled kernel's own: this unit includes _cqwirkle.c (the state buffer, cells between
 * the Python and the C table), qwirkle_board.c (the table and the placement walk) and qwirkle_flow.c (the
 * turn sequence and its chance events), so it reaches their static functions; nothing of the rules is
 * written twice. The pure rules stay the reference the batch is tested against
 * (tests/interop/test_vector_fast.py).
 *
 * Actions are indexed (polytable.interop._table): action k is the k-th legal action in the order
 * Game.legal_actions lists them (the reroll masks in increasing order; the placements in the walk's order),
 * at most VEC_CAP of them; a mask row is that many ones followed by zeros. A game's state is loaded and read
 * back through the kernel's playout buffer (_kernel.PLAYOUT) and the table's cubes.
 */
#include "_cqwirkle.c"
#undef R_OK /* unistd.h's access() mode (through Python.h); the walk's flag of that name is unrelated */
#include "qwirkle_board.c"
#include "qwirkle_flow.c"
#include "../../core/_batch.h" /* the callers' buffers */
#include "../../core/_seedseq.h" /* the next episode's seed */

#define VEC_CAP 32768   /* polytable.interop._table.INDEXED_CAP */
#define VEC_WINDOW 31   /* polytable.interop._planes.QWIRKLE_WINDOW */
#define VEC_PLANES 12   /* a colour plane and a shape plane per cube */
#define VEC_CHANNELS 13 /* the planes and one channel of features (at most 4 * 43 + 9 values) */

/* What the last write put in a game's observation row: the row (its address), the window's corner and how
 * many of the table's cubes it shows, the feature rows that hold the hands' counts; valid is 0 after a load or
 * a new game (the row is then written whole). A step writes only the cubes placed since, or moves the cubes
 * when the window moved, and the features (the hands' counts cleared where they were). */
typedef struct {
    unsigned char *row;
    int cx, cy, cubes, valid, counts;
    unsigned char at[QMAXP * QHAND];
} VecDrawn;

/* A game of the batch: its state and table (which keeps the record of its last count, so that the placement
 * chosen is found by walking one root: qb_find), the bounds of its cubes (the observation's window), how many
 * actions its mask row lists (and how many are legal, past the cap), what its observation row holds. */
typedef struct {
    QGame g;
    int count, total;
    int minx, maxx, miny, maxy;
    VecDrawn drawn;
    QBoard b;
} VecSlot;

static int floor_half(int v) { return v >= 0 ? v / 2 : -((1 - v) / 2); }

static void vec_bounds(VecSlot *v, int from) {
    if (!from) {
        v->minx = v->miny = 1 << 20;
        v->maxx = v->maxy = -(1 << 20);
    }
    for (int i = from; i < v->b.ncubes; i++) {
        int x = q_x(v->b.at[i]), y = q_y(v->b.at[i]);
        if (x < v->minx) v->minx = x;
        if (x > v->maxx) v->maxx = x;
        if (y < v->miny) v->miny = y;
        if (y > v->maxy) v->maxy = y;
    }
}

/* The distinct rerolls of a sorted hand in increasing order (reroll_masks in _game.py): of identical cubes
 * the leftmost are named, so a reroll is how many of each group of identical cubes (0 .. its size), and as the
 * groups hold increasing bits, the rerolls in increasing order are those numbers read with the last group as
 * the most significant digit. How many there are, and the k-th. */
static int vec_reroll_count(const QGame *g) {
    const int *h = g->hand[g->player];
    int n = g->hlen[g->player], m = 1;
    for (int i = 0; i < n;) {
        int j = i;
        while (j + 1 < n && h[j + 1] == h[i]) j++;
        m *= j - i + 2;
        i = j + 1;
    }
    return m;
}

static int vec_reroll(const QGame *g, int k) {
    const int *h = g->hand[g->player];
    int n = g->hlen[g->player], mask = 0;
    for (int i = 0; i < n;) {
        int j = i;
        while (j + 1 < n && h[j + 1] == h[i]) j++;
        int size = j - i + 1, c = k % (size + 1);
        k /= size + 1;
        mask |= ((1 << c) - 1) << i;
        i = j + 1;
    }
    return mask;
}

/* The number of legal actions of the seat to act (the placements by a count the table keeps a record of). */
static void vec_count(VecSlot *v) {
    QGame *g = &v->g;
    long long n = 1;
    if (g->phase == REROLL) {
        n = vec_reroll_count(g);
    } else if (g->phase == PLACE) {
        QWalk w = {0};
        w.hand = hand_mask(g, g->player);
        w.need = v->b.ncubes ? 0 : q_largest_line(w.hand);
        n = qb_walk(&v->b, &w);
    } else if (g->phase != PASS)
        n = 0;
    v->total = n > 0x7fffffff ? 0x7fffffff : (int)n;
    v->count = n > VEC_CAP ? VEC_CAP : (int)n;
}

/* The placement number r of the last count (from the table's record of it; else, the first placement of a
 * game, by a full walk). */
static void vec_locate(VecSlot *v, long long r, Found *f) {
    QWalk w = {0};
    QGame *g = &v->g;
    w.hand = hand_mask(g, g->player);
    w.need = v->b.ncubes ? 0 : q_largest_line(w.hand);
    w.r = r;
    w.emit = locate;
    w.ctx = f;
    if (!qb_find(&v->b, &w)) roots(&v->b, &w);
}

/* Chance events until a seat acts or the game ends (Table.settle). */
static void vec_settle(VecSlot *v) {
    for (;;) {
        int ph = v->g.phase;
        if (ph != SETUP_DRAW && ph != SETUP_ROLL && ph != ROLL && ph != DRAW && ph != DRAW_ROLL) return;
        chance(&v->g, &v->b);
    }
}

/* Game.new_game(seed) for the slot's player count, its chance settled. */
static void vec_new(VecSlot *v, int players, long long seed) {
    QGame *g = &v->g;
    qb_clear(&v->b);
    v->drawn.valid = 0;
    memset(g, 0, sizeof *g);
    g->players = players;
    g->rng = rng_seed_state(seed, 0);
    g->phase = SETUP_DRAW;
    g->finisher = -1;
    g->last[0] = -1;
    for (int c = 0; c < 6; c++) g->bag[c] = 15;
    vec_bounds(v, 0);
    vec_settle(v);
}

/* Apply action k of the seat to act (legal: k < count), then the chance events after it. */
static void vec_apply(VecSlot *v, int k) {
    QGame *g = &v->g;
    if (g->phase == REROLL) {
        int mask = vec_reroll(g, k);
        if (mask) {
            g->phase = ROLL;
            g->rolling = mask;
        } else
            to_place(g, &v->b);
    } else if (g->phase == PLACE) {
        Found f = {0};
        int before = v->b.ncubes;
        vec_locate(v, k, &f);
        place(g, &v->b, &f);
        vec_bounds(v, before);
    } else { /* PASS */
        g->passes++;
        if (g->passes >= g->players)
            g->phase = END;
        else
            begin(g, &v->b, (g->player + 1) % g->players);
    }
    vec_settle(v);
}

/* The returns at the end (Game.returns): n / k - 1 for each of k winners, -1 for the others, 0 for all when
 * every seat wins. */
static void vec_returns(const QGame *g, float *out) {
    int best = g->points[0], k = 0;
    for (int p = 1; p < g->players; p++)
        if (g->points[p] > best) best = g->points[p];
    for (int p = 0; p < g->players; p++) k += g->points[p] == best;
    for (int p = 0; p < g->players; p++)
        out[p] = k == g->players ? 0.0f : g->points[p] == best ? (float)g->players / (float)k - 1.0f : -1.0f;
}

static unsigned char vec_sat(int v) { return (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v); }

/* The features into the last channel of an observation row (see vec_obs), row by row, saturated at 255. The
 * hands' counts are added to rows that must hold 0 (a row written whole, or the rows of the last write's
 * counts cleared): `at` receives those rows (at most QMAXP * QHAND), and how many is returned, so that the
 * next write of the row clears only them instead of the 42 rows of every seat. */
static int vec_put_features(const VecSlot *v, int observer, unsigned char *out, unsigned char *at) {
    const QGame *g = &v->g;
    unsigned char *o = out + VEC_PLANES;
    int na = 0, nv = 0;
    for (int k = 0; k < g->players; k++, nv += 43) {
        int seat = (observer + k) % g->players, pending = seat == g->player ? g->rolling : 0;
        for (int i = 0; i < g->hlen[seat]; i++) {
            int face = g->hand[seat][i], colour = face / 6; /* row colour * 7 + shape, or + 6 while rolled */
            int j = nv + (pending >> i & 1 ? colour * 7 + 6 : face + colour);
            o[j * VEC_CHANNELS]++;
            at[na++] = (unsigned char)j;
        }
        o[(nv + 42) * VEC_CHANNELS] = vec_sat(g->points[seat]);
    }
    for (int i = 0; i < 6; i++) o[(nv + i) * VEC_CHANNELS] = vec_sat(g->bag[i]);
    o[(nv + 6) * VEC_CHANNELS] = g->phase == REROLL;
    o[(nv + 7) * VEC_CHANNELS] = g->phase == PLACE;
    o[(nv + 8) * VEC_CHANNELS] = g->phase == PASS;
    return na;
}

/* The corner of the observation's window (VEC_WINDOW cells centred on the cubes' bounds). */
static void vec_corner(const VecSlot *v, int *cx, int *cy) {
    *cx = floor_half(v->minx + v->maxx) - VEC_WINDOW / 2;
    *cy = floor_half(v->miny + v->maxy) - VEC_WINDOW / 2;
}

/* Cubes from .. to - 1 of the table into an observation row whose window has its corner at (cx, cy); on: 1,
 * or 0 to take them off the row. */
static void vec_cubes(const VecSlot *v, unsigned char *out, int cx, int cy, int from, int to, unsigned char on) {
    const int n = VEC_WINDOW, c = VEC_CHANNELS;
    for (int i = from; i < to; i++) {
        int r = q_y(v->b.at[i]) - cy, col = q_x(v->b.at[i]) - cx, face = v->b.face[i];
        if (r < 0 || r >= n || col < 0 || col >= n) continue;
        unsigned char *o = out + (r * n + col) * c;
        o[face / 6] = on;
        o[6 + face % 6] = on;
    }
}

/* The observation of seat ``observer`` (polytable.interop._fast's Qwirkle Cubes codec), written whole: the
 * window of VEC_WINDOW cells centred on the cubes' bounds, one plane per colour and one per shape; then the
 * features row by row in the last channel (saturated at 255): per seat from the observer on, the hand's cubes
 * per colour and shape (a cube waiting for its roll counts as the colour's seventh shape) and the points; the
 * bag per colour; the phase (reroll, place, pass). */
static int vec_obs(const VecSlot *v, int observer, unsigned char *out, unsigned char *at) {
    int cx, cy;
    vec_corner(v, &cx, &cy);
    memset(out, 0, (size_t)VEC_WINDOW * VEC_WINDOW * VEC_CHANNELS);
    vec_cubes(v, out, cx, cy, 0, v->b.ncubes, 1);
    return vec_put_features(v, observer, out, at);
}

/* The same into the game's own row, writing only what changed since the slot's last write there (``drawn``):
 * the cubes placed since, or, when the window moved, the cubes taken off at the old corner and put at the new
 * one; and the features. Written whole when the slot does not know what the row holds (after a load or a new
 * game, or another row). */
static void vec_obs_row(VecSlot *v, int observer, unsigned char *out) {
    VecDrawn *d = &v->drawn;
    int cx, cy;
    vec_corner(v, &cx, &cy);
    if (!d->valid || d->row != out || d->cubes > v->b.ncubes)
        d->counts = vec_obs(v, observer, out, d->at);
    else {
        if (cx != d->cx || cy != d->cy) {
            vec_cubes(v, out, d->cx, d->cy, 0, d->cubes, 0);
            d->cubes = 0;
        }
        vec_cubes(v, out, cx, cy, d->cubes, v->b.ncubes, 1);
        for (int k = 0; k < d->counts; k++) out[d->at[k] * VEC_CHANNELS + VEC_PLANES] = 0;
        d->counts = vec_put_features(v, observer, out, d->at);
    }
    d->cubes = v->b.ncubes;
    d->row = out;
    d->cx = cx;
    d->cy = cy;
    d->valid = 1;
}

/* The mask row: the first `count` actions; the row held `had` before. */
static void vec_mask(signed char *mask, int had, int count) {
    if (count > had)
        memset(mask + had, 1, (size_t)(count - had));
    else if (had > count)
        memset(mask + count, 0, (size_t)(had - count));
}

/* ------------------------------------------------------------------ Python */
static PyObject *py_vec_state_bytes(PyObject *self, PyObject *noargs) { return PyLong_FromSize_t(sizeof(VecSlot)); }

static VecSlot *vec_slot(PyObject *buf, Py_buffer *view, Py_ssize_t i) {
    if (i < 0 || batch_buffer(buf, view, (i + 1) * (Py_ssize_t)sizeof(VecSlot), "states") < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_IndexError, "game index out of range");
        return NULL;
    }
    return (VecSlot *)view->buf + i;
}

/* load(states, i, placed, buffer): game i becomes the state in a _kernel.PLAYOUT buffer with the table's
 * cubes `placed` (the generators and the limit are not read). */
static PyObject *py_vec_load(PyObject *self, PyObject *args) {
    PyObject *states, *placed;
    Py_ssize_t i;
    Py_buffer in = {0}, view = {0};
    if (!PyArg_ParseTuple(args, "OnOy*", &states, &i, &placed, &in)) return NULL;
    QPlayoutBuf s;
    int bad = in.len != (Py_ssize_t)sizeof s || !PyTuple_Check(placed) || PyTuple_GET_SIZE(placed) > QMAXCUBES;
    if (!bad) memcpy(&s, in.buf, sizeof s);
    PyBuffer_Release(&in);
    bad = bad || s.players < 2 || s.players > QMAXP || s.phase < 0 || s.phase > END || s.player < 0 ||
          s.player >= s.players || s.rolling < 0 || s.rolling > 63;
    for (int p = 0; !bad && p < s.players; p++) {
        bad = s.hlen[p] < 0 || s.hlen[p] > QHAND;
        for (int k = 0; !bad && k < s.hlen[p]; k++) bad = s.hand[p][k] >= 36;
    }
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "a bad state buffer (size, players, phase or hands) or table");
        return NULL;
    }
    VecSlot *v = vec_slot(states, &view, i);
    if (!v) return NULL;
    QGame *g = &v->g;
    qb_clear(&v->b);
    v->drawn.valid = 0;
    memset(g, 0, sizeof *g);
    g->players = (int)s.players;
    g->rng = s.rng;
    g->phase = (int)s.phase;
    g->player = (int)s.player;
    g->rolling = (int)s.rolling;
    g->forced = (int)s.forced;
    g->passes = (int)s.passes;
    g->turn = (int)s.turn;
    g->finisher = (int)s.finisher;
    for (int p = 0; p < g->players; p++) {
        g->hlen[p] = (int)s.hlen[p];
        for (int k = 0; k < g->hlen[p]; k++) g->hand[p][k] = s.hand[p][k];
        g->points[p] = (int)s.points[p];
    }
    for (int c = 0; c < 6; c++) g->bag[c] = (int)s.bag[c];
    for (int k = 0; k < 3; k++) g->last[k] = (int)s.last[k];
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(placed); k++) {
        PyObject *item = PyTuple_GET_ITEM(placed, k);
        long t = -1, c = -1;
        int at;
        if (PyTuple_Check(item) && PyTuple_GET_SIZE(item) == 2) {
            t = PyLong_AsLong(PyTuple_GET_ITEM(item, 0));
            c = PyLong_AsLong(PyTuple_GET_ITEM(item, 1));
        }
        if (PyErr_Occurred() || t < 0 || t >= 36 || to_c(c, &at) < 0 || v->b.cell[at]) {
            qb_clear(&v->b);
            PyBuffer_Release(&view);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a placed cube is out of range, or on a taken cell");
            return NULL;
        }
        qb_put(&v->b, (int)t, at);
    }
    vec_bounds(v, 0);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

/* export(states, i, buffer) -> placed: game i's state into a _kernel.PLAYOUT buffer, its table's cubes back. */
static PyObject *py_vec_export(PyObject *self, PyObject *args) {
    PyObject *states;
    Py_ssize_t i;
    Py_buffer out = {0}, view = {0};
    if (!PyArg_ParseTuple(args, "Onw*", &states, &i, &out)) return NULL;
    if (out.len != (Py_ssize_t)sizeof(QPlayoutBuf)) {
        PyBuffer_Release(&out);
        PyErr_SetString(PyExc_ValueError, "the buffer must be one _kernel.PLAYOUT");
        return NULL;
    }
    VecSlot *v = vec_slot(states, &view, i);
    if (!v) {
        PyBuffer_Release(&out);
        return NULL;
    }
    const QGame *g = &v->g;
    QPlayoutBuf s;
    memset(&s, 0, sizeof s);
    s.players = g->players;
    s.rng = g->rng;
    s.phase = g->phase;
    s.player = g->player;
    s.rolling = g->rolling;
    s.forced = g->forced;
    s.passes = g->passes;
    s.turn = g->turn;
    s.finisher = g->finisher;
    s.max_actions = -1;
    for (int p = 0; p < g->players && p < QMAXP; p++) {
        s.hlen[p] = g->hlen[p];
        for (int k = 0; k < g->hlen[p]; k++) s.hand[p][k] = (unsigned char)g->hand[p][k];
        s.points[p] = g->points[p];
    }
    for (int c = 0; c < 6; c++) s.bag[c] = g->bag[c];
    for (int k = 0; k < 3; k++) s.last[k] = g->last[k];
    memcpy(out.buf, &s, sizeof s);
    PyBuffer_Release(&out);
    PyObject *placed = PyTuple_New(v->b.ncubes);
    for (int k = 0; placed && k < v->b.ncubes; k++) {
        PyObject *pair = Py_BuildValue("(il)", v->b.face[k], to_py(v->b.at[k]));
        if (!pair) Py_CLEAR(placed);
        else PyTuple_SET_ITEM(placed, k, pair);
    }
    PyBuffer_Release(&view);
    return placed;
}

/* listed(states, i) -> (count, total): the actions game i's mask lists, and its legal actions (more past the
 * cap). */
static PyObject *py_vec_listed(PyObject *self, PyObject *args) {
    PyObject *states;
    Py_ssize_t i;
    Py_buffer view = {0};
    if (!PyArg_ParseTuple(args, "On", &states, &i)) return NULL;
    VecSlot *v = vec_slot(states, &view, i);
    if (!v) return NULL;
    int count = v->count, total = v->total;
    PyBuffer_Release(&view);
    return Py_BuildValue("(ii)", count, total);
}

/* restart(states, i, players, seed): game i becomes a new game (Game.new_game(seed)), its chance settled. */
static PyObject *py_vec_restart(PyObject *self, PyObject *args) {
    PyObject *states;
    Py_ssize_t i;
    int players;
    long long seed;
    Py_buffer view = {0};
    if (!PyArg_ParseTuple(args, "OniL", &states, &i, &players, &seed)) return NULL;
    if (players < 2 || players > QMAXP) {
        PyErr_SetString(PyExc_ValueError, "2 to 4 players");
        return NULL;
    }
    VecSlot *v = vec_slot(states, &view, i);
    if (!v) return NULL;
    vec_new(v, players, seed);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

/* observe(states, i, observer, out): game i's observation of seat ``observer`` (any seat, also at the end)
 * into ``out``, a uint8 (31, 31, 13) array. */
static PyObject *py_vec_observe(PyObject *self, PyObject *args) {
    PyObject *states, *o_out;
    Py_ssize_t i;
    int observer;
    Py_buffer view = {0}, out = {0};
    if (!PyArg_ParseTuple(args, "OniO", &states, &i, &observer, &o_out)) return NULL;
    VecSlot *v = vec_slot(states, &view, i);
    if (!v) return NULL;
    PyObject *result = NULL;
    if (batch_buffer(o_out, &out, VEC_WINDOW * VEC_WINDOW * VEC_CHANNELS, "observation") < 0) goto done;
    if (observer < 0 || observer >= v->g.players) {
        PyErr_SetString(PyExc_ValueError, "no such seat");
        goto done;
    }
    unsigned char at[QMAXP * QHAND];
    vec_obs(v, observer, (unsigned char *)out.buf, at);
    result = Py_NewRef(Py_None);
done:
    if (out.obj) PyBuffer_Release(&out);
    PyBuffer_Release(&view);
    return result;
}

typedef struct {
    Py_buffer states, obs, masks;
    Py_ssize_t n;
} VecBufs;

static void vec_release(VecBufs *b) { BATCH_RELEASE(&b->states, &b->obs, &b->masks); }

static int vec_acquire(VecBufs *b, PyObject *states, PyObject *obs, PyObject *masks) {
    memset(b, 0, sizeof *b);
    if ((b->n = batch_obs(obs, &b->obs, VEC_WINDOW, VEC_WINDOW, VEC_CHANNELS)) < 0) return -1;
    if (batch_buffer(states, &b->states, b->n * (Py_ssize_t)sizeof(VecSlot), "states") < 0 ||
        batch_buffer(masks, &b->masks, b->n * (Py_ssize_t)VEC_CAP, "masks") < 0)
        return -1;
    return 0;
}

/* Game i's seat to act, observation and mask (a count for its seat to act). */
static void vec_row(VecBufs *b, Py_ssize_t i, short *to_act) {
    VecSlot *v = (VecSlot *)b->states.buf + i;
    int had = v->count;
    vec_count(v);
    to_act[i] = (short)v->g.player;
    vec_obs_row(v, v->g.player, (unsigned char *)b->obs.buf + i * VEC_WINDOW * VEC_WINDOW * VEC_CHANNELS);
    vec_mask((signed char *)b->masks.buf + i * (Py_ssize_t)VEC_CAP, had, v->count);
}

static int vec_over(const VecSlot *v) { return v->g.phase == END; }

/* write(states, ids, size, i, obs, masks, index, to_act): the rows of game i (after a load); ``ids``, ``size``
 * and ``index`` are the other batches' (unused here: the legal actions are 0 .. count - 1). */
static PyObject *py_vec_write(PyObject *self, PyObject *args) {
    PyObject *states, *ids, *obs, *masks, *index, *o_to_act;
    int size;
    Py_ssize_t i;
    if (!PyArg_ParseTuple(args, "OOinOOOO", &states, &ids, &size, &i, &obs, &masks, &index, &o_to_act)) return NULL;
    VecBufs b;
    Py_buffer ta = {0};
    PyObject *result = NULL;
    if (vec_acquire(&b, states, obs, masks) < 0 || batch_buffer(o_to_act, &ta, b.n * 2, "to_act") < 0 ||
        batch_game(i, b.n) < 0)
        goto done;
    VecSlot *v = (VecSlot *)b.states.buf + i;
    vec_settle(v);
    v->drawn.valid = 0; /* the row written whole */
    if (vec_over(v) || v->g.players < 2) {
        PyErr_SetString(PyExc_ValueError, "the game has no seat to act");
        goto done;
    }
    vec_row(&b, i, (short *)ta.buf);
    result = Py_NewRef(Py_None);
done:
    if (ta.obj) PyBuffer_Release(&ta);
    vec_release(&b);
    return result;
}

/* The step of step() and play() (see them); words and episodes: play's, else NULL. */
static PyObject *vec_steps(PyObject *states, PyObject *o_act, PyObject *obs, PyObject *masks, PyObject *o_to_act,
                           PyObject *o_rew, PyObject *o_ret, PyObject *o_end, PyObject *o_seeds, PyObject *o_words,
                           PyObject *o_eps) {
    VecBufs b;
    BatchIO io = {0};
    Py_buffer sd = {0}, wv = {0}, eps = {0};
    PyObject *result = NULL;
    long long *seeds = NULL, *episodes = NULL;
    const uint32_t *words = NULL;
    int nwords = 0;
    if (vec_acquire(&b, states, obs, masks) < 0) goto done;
    VecSlot *slots = (VecSlot *)b.states.buf;
    int players = b.n ? slots[0].g.players : 2;
    if (players < 2 || players > QMAXP) {
        PyErr_SetString(PyExc_ValueError, "the batch's games are not loaded");
        goto done;
    }
    if (o_seeds != Py_None) {
        if (batch_buffer(o_seeds, &sd, b.n * 8, "seeds") < 0) goto done;
        seeds = (long long *)sd.buf;
    }
    if (o_words) {
        if (PyObject_GetBuffer(o_words, &wv, PyBUF_C_CONTIGUOUS) < 0) goto done;
        if (wv.len % 4 || wv.len < 4 || wv.len / 4 > SEEDSEQ_MAX_WORDS - 4 || !seeds) {
            PyErr_SetString(PyExc_ValueError, "seed words: 1 to 12 uint32, and the games' seeds");
            goto done;
        }
        if (batch_buffer(o_eps, &eps, b.n * 8, "episodes") < 0) goto done;
        words = (const uint32_t *)wv.buf;
        nwords = (int)(wv.len / 4);
        episodes = (long long *)eps.buf;
    }
    if (batch_io(&io, b.n, players, o_act, o_to_act, o_rew, o_ret, o_end, "ended", NULL) < 0) goto done;
    const long long *acts = io.acts;
    short *to_act = io.to_act;
    float *rewards = io.rewards, *returns = io.returns;
    unsigned char *ended = io.ended;
    if (batch_check(acts, b.n, (const signed char *)b.masks.buf, VEC_CAP) < 0) goto done;
    for (Py_ssize_t i = 0; i < b.n; i++) /* the slots agree with the masks (a mask row is the caller's to spoil) */
        if (vec_over(&slots[i]) || slots[i].g.players != players || acts[i] >= slots[i].count) {
            PyErr_Format(PyExc_ValueError, "game %zd: no seat to act, or action %lld is not legal", i, acts[i]);
            goto done;
        }
    batch_io_clear(&io, b.n, players);
    Py_ssize_t count = 0;
    for (Py_ssize_t i = 0; i < b.n; i++) {
        VecSlot *v = &slots[i];
        int mover = v->g.player;
        vec_apply(v, (int)acts[i]);
        if (!vec_over(v)) {
            vec_row(&b, i, to_act);
            continue;
        }
        vec_returns(&v->g, returns + i * players);
        rewards[i] = returns[i * players + mover];
        ended[i] = 1;
        count++;
        if (seeds) {
            vec_new(v, players, seeds[i]);
            vec_row(&b, i, to_act);
        }
        if (episodes) {
            episodes[i]++;
            seeds[i] = seedseq_episode(words, nwords, (uint64_t)i, (uint64_t)episodes[i] + 1);
        }
    }
    result = PyLong_FromSsize_t(count);
done:
    BATCH_RELEASE(&sd, &wv, &eps);
    batch_io_release(&io);
    vec_release(&b);
    return result;
}

/* A game's legal action number k: action k (the legal actions are 0 .. count - 1). */
static long long vec_pick(const void *slot, const int *ids, int k) {
    (void)slot, (void)ids;
    return k;
}

/* step(states, ids, size, actions, obs, masks, index, to_act, rewards, returns, ended[, seeds]) -> how many games
 * ended. One action index per game, for its seat to act, every one checked against its game's mask row before
 * any game moves (core/_batch.h's batch_check); the chance events after it are settled; the rows of the games
 * that go on are rewritten. A game that ended gets its returns (n / k - 1 for each of k winners, -1 for the
 * others), the mover's as its reward and 1 in ``ended`` (one byte per game); with ``seeds`` (one int64 per
 * game, or None) it starts its next game from its seed here (Game.new_game(seed), chance settled) and its
 * rows are the new game's. */
static PyObject *py_vec_step(PyObject *self, PyObject *args) {
    PyObject *states, *ids, *o_act, *obs, *masks, *index, *o_to_act, *o_rew, *o_ret, *o_end, *o_seeds = Py_None;
    int size;
    if (!PyArg_ParseTuple(args, "OOiOOOOOOOO|O", &states, &ids, &size, &o_act, &obs, &masks, &index, &o_to_act,
                          &o_rew, &o_ret, &o_end, &o_seeds))
        return NULL;
    return vec_steps(states, o_act, obs, masks, o_to_act, o_rew, o_ret, o_end, o_seeds, NULL, NULL);
}

/* play(states, words, actions, obs, masks, to_act, rewards, returns, terminations, episodes, seeds) -> how many
 * games ended: the vector env's whole step (vector.VectorEnv.step, as step() with the env's bookkeeping): a
 * game that ends also counts its episode and its next game's seed is derived from the env's seed (words:
 * uint32, NumPy's entropy words of it) as episode_seed does (core/_seedseq.h). */
static PyObject *py_vec_play(PyObject *self, PyObject *args) {
    PyObject *states, *o_words, *o_act, *obs, *masks, *o_to_act, *o_rew, *o_ret, *o_term, *o_eps, *o_seeds;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOO", &states, &o_words, &o_act, &obs, &masks, &o_to_act, &o_rew, &o_ret,
                          &o_term, &o_eps, &o_seeds))
        return NULL;
    return vec_steps(states, o_act, obs, masks, o_to_act, o_rew, o_ret, o_term, o_seeds, o_words, o_eps);
}

/* sample(states, ids, draws, out): for each game, action floor(draws[i] * count) (uniform over its legal
 * actions for uniform draws; ``ids`` is unused: core/_batch.h). */
static PyObject *py_vec_sample(PyObject *self, PyObject *args) {
    return batch_sample_by(args, sizeof(VecSlot), offsetof(VecSlot, count), 0, vec_pick);
}

static PyMethodDef vec_methods[] = {
    {"state_bytes", py_vec_state_bytes, METH_NOARGS, "the bytes of one game's state"},
    {"load", py_vec_load, METH_VARARGS, "load(states, i, placed, buffer): game i becomes a PLAYOUT buffer's state"},
    {"export", py_vec_export, METH_VARARGS, "export(states, i, buffer) -> placed: game i's state"},
    {"restart", py_vec_restart, METH_VARARGS, "restart(states, i, players, seed): game i starts anew"},
    {"observe", py_vec_observe, METH_VARARGS, "observe(states, i, observer, out): a seat's observation of game i"},
    {"listed", py_vec_listed, METH_VARARGS, "listed(states, i) -> (actions in the mask, legal actions)"},
    {"write", py_vec_write, METH_VARARGS, "game i's observation and mask rows"},
    {"step", py_vec_step, METH_VARARGS, "apply one action per game; how many games ended"},
    {"play", py_vec_play, METH_VARARGS, "the vector env's step: actions checked, applied, games restarted"},
    {"sample", py_vec_sample, METH_VARARGS, "one uniformly random legal action per game"},
    {"layout", py_layout, METH_NOARGS, "layout() -> ((name, offset, size), ...), sizeof: the state buffer."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef vec_moduledef = {PyModuleDef_HEAD_INIT, "_cqwirkle_vec",
                                           "A batch of Qwirkle Cubes games stepped in C.", -1, vec_methods};

PyMODINIT_FUNC PyInit__cqwirkle_vec(void) {
    PyObject *m = batch_module(&vec_moduledef, VEC_CAP);
    if (m && PyModule_AddIntConstant(m, "WINDOW", VEC_WINDOW) < 0) Py_CLEAR(m);
    return m;
}
