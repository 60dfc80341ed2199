/* polytable.games.foldris._cfoldris_vec: a batch of Foldris games held in C and stepped in one call, for the
 * batched environment (polytable.interop.vector). Per game and step: the seat to act records its drop; after
 * the last survivor's choice the round resolves (blocks fall, lines fold, barriers fall) and the next card is
 * revealed from the game's own generator and deck, eliminating who cannot draw it; then the next seat's
 * observation planes and legal-action mask are written into preallocated NumPy rows. A game that ends is
 * started again here (its next episode's seed derived as the vector API derives it, core/_seedseq.h), so no
 * Python object is made per game or step.
 *
 * The rules are the compiled kernel's own: this unit includes _cfoldris.c (tables, decks, drops, folds,
 * barriers, the playout's reveal), nothing of the rules is written twice. The pure rules stay the reference
 * the batch is tested against (tests/interop/test_vector_fast.py). The functions take the arguments of
 * _cquadefy_vec's, so polytable.interop._batch drives it the same way; ``index`` is the batch's
 * configuration buffer (configure()), ``ids`` is unused: a game's legal ids are listed in its slot, as the
 * affordable variants' base ids with the columns they fit at (eight ids a variant, in the rules' order).
 */
#include "_cfoldris.c"
#include "../../core/_batch.h"   /* the callers' buffers */
#include "../../core/_seedseq.h" /* the next episode's seed */

#define VEC_DROP_IDS 576 /* DROP_IDS: ((mirror * 9 + trim) * 4 + rot) * 8 + column */
#define VEC_MAX_HEIGHT 40
#define VEC_MAX_SEED 8
#define VEC_CHUNKS 12 /* 16-byte chunks of a row of cells: 8 cells of at most 24 channels */

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#include <immintrin.h>
#define VEC_SSSE3 1
static int vec_ssse3; /* the CPU has SSSE3's byte shuffle (checked once, at import) */
#endif

/* A batch's configuration, in a buffer the Python side keeps (one per batch: several may coexist). */
typedef struct {
    int players, height, channels, actions, deck, ncards, nseed;
    uint32_t seed[VEC_MAX_SEED]; /* the vector env's seed as NumPy's entropy words */
    int lane[MAXDECK];
    uint8_t shape[MAXDECK][VEC_MAX_HEIGHT]; /* the card's block on its plane: row r's columns (the view's drawing) */
    /* A row of cells in 16-byte chunks: byte j of chunk k is a channel (its index among the row's channel
     * bytes 0-15 in ``lo``, 16-31 in ``hi``; 0x80 in the other) and the column ``bit`` (0: past the row). */
    uint8_t lo[VEC_CHUNKS][16], hi[VEC_CHUNKS][16], bit[VEC_CHUNKS][16];
} VecConf;

/* A game of the batch: the playout's game (deck, sheets, generator, pending drops as 8 * variant + column),
 * the seat to act, its legal drops (the variants it can afford with the columns they fit at) and, for its
 * restarts, which game of the env it is and its episode. */
typedef struct {
    Game g;
    int to_act, count, nlist, listed; /* listed: the mask row is zero but for this listing (else unknown) */
    int16_t base[MAXV];
    uint8_t fit[MAXV];
    int64_t env, episode;
} VecSlot;

static uint8_t spread[256][8]; /* byte b -> eight bytes, byte c being bit c of b */

static const VecConf *conf_of(Py_buffer *view) {
    if (view->len < (Py_ssize_t)sizeof(VecConf)) {
        PyErr_SetString(PyExc_ValueError, "not a Foldris batch configuration");
        return NULL;
    }
    const VecConf *cf = (const VecConf *)view->buf;
    if (cf->players < 1 || cf->deck < 0 || cf->deck >= ndecks) {
        PyErr_SetString(PyExc_ValueError, "the Foldris batch configuration is not set (configure)");
        return NULL;
    }
    return cf;
}

/* The seat to act: the lowest survivor still to choose this round (-1: none). */
static int vec_first(const Game *g, int from) {
    for (int p = from; p < g->n; p++)
        if (!g->sh[p].out && g->pending[p] < 0) return p;
    return -1;
}

/* A new game (FoldrisGame._new from the seed of the slot's episode) settled to its first choice: the start
 * card and the first round's card revealed. */
static void vec_new(const VecConf *cf, VecSlot *v) {
    Game *g = &v->g;
    for (;;) {
        int64_t seed = seedseq_episode(cf->seed, cf->nseed, (uint64_t)v->env, (uint64_t)v->episode);
        memset(g, 0, sizeof *g);
        g->d = decks[cf->deck];
        g->tid = g->d->tid;
        g->key = g->d->key;
        g->lane = g->d->lane;
        g->ndeck = g->d->ncards;
        for (int i = 0; i < g->ndeck; i++) g->deck[i] = i;
        g->n = cf->players;
        g->solo = g->n == 1;
        g->card = -1;
        g->rng = rng_seed_state(seed, 0);
        uint64_t st = rng_seed_state(seed, 1);
        g->starter = (int)below(&st, (uint64_t)g->n);
        for (int p = 0; p < g->n; p++) {
            Sheet *s = &g->sh[p];
            s->height = cf->height;
            s->bonus = 2;
            set_top(s, 0);
            g->pending[p] = -1;
        }
        while (!g->over && g->card < 0) reveal(g); /* the deck has a card while the game goes on */
        if (!g->over) break;
        v->episode++; /* over before anyone acts (as the vector env, the next episode) */
    }
    v->to_act = vec_first(g, 0);
}

/* The mask row of the seat to act (zero elsewhere) and the slot's list of its legal drops. */
static void vec_mask(const VecConf *cf, VecSlot *v, signed char *mask) {
    if (v->listed) /* the row holds this slot's last listing: clear only its ids */
        for (int j = 0; j < v->nlist; j++) memset(mask + v->base[j], 0, 8);
    else
        memset(mask, 0, (size_t)cf->actions);
    v->listed = 1;
    v->count = v->nlist = 0;
    Game *g = &v->g;
    if (g->over || g->card < 0 || v->to_act < 0) return;
    const Table *t = tables[g->tid[g->card]];
    const int *fit;
    int total, k = masks(t, &g->sh[v->to_act], &fit, &total);
    for (int i = 0; i < k; i++) {
        if (!fit[i]) continue;
        const V *x = &t->v[i];
        int base = ((x->mirror * 9 + x->trim) * 4 + x->rot) * 8;
        memcpy(mask + base, spread[fit[i]], 8);
        v->base[v->nlist] = (int16_t)base;
        v->fit[v->nlist++] = (uint8_t)fit[i];
    }
    v->count = total;
}

/* The 8 x 8 bit matrix transposed: bit c of byte i becomes bit i of byte c. */
static inline uint64_t transpose8(uint64_t x) {
    uint64_t t = (x ^ (x >> 7)) & 0x00AA00AA00AA00AAULL;
    x ^= t ^ (t << 7);
    t = (x ^ (x >> 14)) & 0x0000CCCC0000CCCCULL;
    x ^= t ^ (t << 14);
    t = (x ^ (x >> 28)) & 0x00000000F0F0F0F0ULL;
    return x ^ t ^ (t << 28);
}

/* A row's cells from its channel words (x[q]: channels 8q .. 8q + 7, byte i bit c being channel 8q + i of
 * column c): each word transposed gives a cell's eight channel bits, which the spread table turns into its
 * eight channel bytes; a store past the cell is the next cell's, written after it (the row's last cell
 * stores only its own bytes when ``last``). G words a cell, C channels. */
static inline __attribute__((always_inline)) void obs_cells(unsigned char *o, const uint64_t *xin, int C, const int G,
                                                            int last) {
    uint64_t x[4];
    for (int q = 0; q < G; q++) x[q] = transpose8(xin[q]);
    for (int c = 0; c < 7; c++, o += C)
        for (int q = 0; q < G; q++) memcpy(o + 8 * q, spread[(x[q] >> (8 * c)) & 0xFF], 8);
    for (int q = 0; q < G; q++) {
        const uint8_t *bytes = spread[x[q] >> 56];
        if (last && 8 * q + 8 > C)
            memcpy(o + 8 * q, bytes, (size_t)(C - 8 * q));
        else
            memcpy(o + 8 * q, bytes, 8);
    }
}

/* Every row of cells from its channel words (obs_cells); a row equal to the one below is copied. */
static void obs_rows_plain(const VecConf *cf, unsigned char *out, const uint64_t (*xs)[4]) {
    int H = cf->height, C = cf->channels, G = (C + 7) / 8;
    size_t row = (size_t)8 * C;
    for (int r = 0; r < H; r++) {
        unsigned char *o = out + r * row;
        if (r && r < H - 1 && xs[r][0] == xs[r - 1][0] && xs[r][1] == xs[r - 1][1] && xs[r][2] == xs[r - 1][2]) {
            memcpy(o, o - row, row); /* the row below's cells */
            continue;
        }
        int last = r == H - 1;
        if (G == 2)
            obs_cells(o, xs[r], C, 2, last);
        else if (G == 3)
            obs_cells(o, xs[r], C, 3, last);
        else
            obs_cells(o, xs[r], C, 1, last);
    }
}

#ifdef VEC_SSSE3
/* Every row of cells from its channel words (as obs_cells) with SSSE3: each 16-byte chunk of a row gathers
 * its bytes' channels (a byte shuffle per 16 channels), keeps its bytes' column bits and makes them 0 or 1. */
__attribute__((target("ssse3"))) static void obs_rows_ssse3(const VecConf *cf, unsigned char *out,
                                                           const uint64_t (*xs)[4]) {
    int C = cf->channels, bytes = 8 * C, full = bytes / 16, H = cf->height;
    const __m128i one = _mm_set1_epi8(1);
    for (int r = 0; r < H; r++, out += bytes) {
        if (r && xs[r][0] == xs[r - 1][0] && xs[r][1] == xs[r - 1][1] && xs[r][2] == xs[r - 1][2]) {
            memcpy(out, out - bytes, (size_t)bytes); /* the row below's cells */
            continue;
        }
        __m128i lo = _mm_set_epi64x((long long)xs[r][1], (long long)xs[r][0]);
        __m128i hi = _mm_set_epi64x(0, (long long)xs[r][2]);
#define VEC_CHUNK(k)                                                                                                 \
    _mm_min_epu8(                                                                                                    \
        _mm_and_si128(                                                                                               \
            C > 16 ? _mm_or_si128(_mm_shuffle_epi8(lo, _mm_loadu_si128((const __m128i *)cf->lo[k])),                \
                                  _mm_shuffle_epi8(hi, _mm_loadu_si128((const __m128i *)cf->hi[k])))                 \
                   : _mm_shuffle_epi8(lo, _mm_loadu_si128((const __m128i *)cf->lo[k])),                              \
            _mm_loadu_si128((const __m128i *)cf->bit[k])),                                                           \
        one)
        for (int k = 0; k < full; k++) _mm_storeu_si128((__m128i *)(out + 16 * k), VEC_CHUNK(k));
        if (bytes & 15) _mm_storel_epi64((__m128i *)(out + 16 * full), VEC_CHUNK(full)); /* the row's last 8 bytes */
#undef VEC_CHUNK
    }
}
#endif

/* The observation of ``observer`` (polytable.interop._fast's Foldris codec): per seat from the observer on,
 * its ink, its barrier and its visible rows; the card's block and its lane; then the features row by row
 * (per seat lines, bonus, out, chosen; the cards left), saturated to 0..255 (one channel: at most 29 values,
 * and a sheet has at least 32 cells). Every byte of the row is written, a sheet row at a time: the row's
 * planes are bytes (bit c: column c) packed into channel words (obs_cells); a row equal to the one below is
 * copied. */
static void vec_obs(const VecConf *cf, const VecSlot *v, int observer, unsigned char *out) {
    const Game *g = &v->g;
    int H = cf->height, C = cf->channels, n = g->n, base = 3 * n;
    unsigned char values[4 * MAXP + 1];
    const uint8_t *ink[MAXP], *bar[MAXP];
    int rows[MAXP], nv = 0;
    for (int k = 0; k < n; k++) {
        int seat = (observer + k) % n;
        const Sheet *s = &g->sh[seat];
        ink[k] = s->ink;
        bar[k] = s->bar;
        rows[k] = s->height < H ? (int)s->height : H;
        long f[4] = {s->lines, s->bonus, s->out ? 1 : 0, g->pending[seat] >= 0};
        for (int j = 0; j < 4; j++) values[nv++] = (unsigned char)(f[j] < 0 ? 0 : f[j] > 255 ? 255 : f[j]);
    }
    values[nv++] = (unsigned char)(g->ndeck > 255 ? 255 : g->ndeck);
    uint64_t xs[VEC_MAX_HEIGHT][4]; /* per row, its channel words: first the card's block and lane */
    static const uint8_t no_shape[VEC_MAX_HEIGHT];
    const uint8_t *shape = g->card >= 0 ? cf->shape[g->card] : no_shape;
    uint64_t lane = g->card >= 0 ? (uint64_t)3 << (cf->lane[g->card] - 1 + 8) : 0;
    int cq = base >> 3, csh = 8 * (base & 7);
    for (int r = 0; r < H; r++) {
        uint64_t w = shape[r] | lane;
        xs[r][0] = xs[r][1] = xs[r][2] = xs[r][3] = 0;
        xs[r][cq] = w << csh;
        if (csh > 48) xs[r][cq + 1] = w >> (64 - csh);
    }
    for (int k = 0; k < n; k++) {
        int at = 3 * k, q = at >> 3, sh = 8 * (at & 7), top = rows[k];
        const uint8_t *a = ink[k], *b = bar[k];
        if (sh <= 40)
            for (int r = 0; r < top; r++) xs[r][q] |= ((uint64_t)a[r] | (uint64_t)b[r] << 8 | 0xFF0000ULL) << sh;
        else
            for (int r = 0; r < top; r++) {
                uint64_t w = (uint64_t)a[r] | (uint64_t)b[r] << 8 | 0xFF0000ULL;
                xs[r][q] |= w << sh;
                xs[r][q + 1] |= w >> (64 - sh);
            }
    }
#ifdef VEC_SSSE3
    if (vec_ssse3)
        obs_rows_ssse3(cf, out, (const uint64_t(*)[4])xs);
    else
#endif
        obs_rows_plain(cf, out, (const uint64_t(*)[4])xs);
    for (int j = 0; j < nv; j++) out[j * C + base + 2] = values[j];
}

/* The returns of a finished game (FoldrisGame.returns): solo, the lines over the sheet's rows; else the
 * protocol's zero-sum shares among the winners (the last survivor; else, among those still in or out
 * last, the most lines then bonus). */
static void vec_returns(const VecConf *cf, const Game *g, float *ret) {
    int n = g->n;
    if (n == 1) {
        ret[0] = (float)((double)g->sh[0].lines / (double)cf->height);
        return;
    }
    int in[MAXP], k = 0, won[MAXP] = {0}, nwon = 0;
    for (int p = 0; p < n; p++)
        if (!g->sh[p].out) in[k++] = p;
    if (k == 0) {
        long last = 0;
        for (int p = 0; p < n; p++)
            if (g->sh[p].out > last) last = g->sh[p].out;
        for (int p = 0; p < n; p++)
            if (g->sh[p].out == last) in[k++] = p;
    }
    if (k == 1) {
        won[in[0]] = 1;
        nwon = 1;
    } else {
        long lines = -1, bonus = -1;
        for (int j = 0; j < k; j++) {
            const Sheet *s = &g->sh[in[j]];
            if (s->lines > lines || (s->lines == lines && s->bonus > bonus)) lines = s->lines, bonus = s->bonus;
        }
        for (int j = 0; j < k; j++)
            if (g->sh[in[j]].lines == lines && g->sh[in[j]].bonus == bonus) won[in[j]] = 1, nwon++;
    }
    for (int p = 0; p < n; p++) ret[p] = 0.0f;
    if (nwon == 0 || nwon == n) return;
    double share = (double)n / nwon - 1.0;
    for (int p = 0; p < n; p++) ret[p] = won[p] ? (float)share : -1.0f;
}

/* The drop ``id`` of the seat to act, checked as the mask allows it; after the last survivor's choice, the
 * round resolves (_game._resolve) and chance is settled (the next reveal). 1: the game ended, 0: it goes on,
 * -1: the id is not a legal drop (an exception set). */
static int vec_play(VecSlot *v, long long id) {
    Game *g = &v->g;
    int p = v->to_act;
    if (g->over || g->card < 0 || p < 0) {
        PyErr_SetString(PyExc_ValueError, "the game has no seat to act");
        return -1;
    }
    const Table *t = tables[g->tid[g->card]];
    int col = (int)(id & 7), rot = (int)(id >> 3 & 3), rest = (int)(id >> 5);
    int vi = id < 0 || id >= VEC_DROP_IDS ? -1 : t->by_key[rest / 9][rest % 9][rot];
    Sheet *s = &g->sh[p];
    if (vi < 0 || t->v[vi].mirror != rest / 9 || t->v[vi].trim != rest % 9 || t->v[vi].rot != rot ||
        col + t->v[vi].width > 8 || t->v[vi].cost > s->bonus ||
        rest_row(&t->v[vi], heights(s), col) + t->v[vi].height > s->height) {
        PyErr_Format(PyExc_ValueError, "action %lld is not a legal drop now", id);
        return -1;
    }
    g->pending[p] = 8 * vi + col;
    if ((v->to_act = vec_first(g, p + 1)) >= 0) return 0;
    int vis[MAXP], cols[MAXP];
    for (int q = 0; q < g->n; q++) {
        vis[q] = g->pending[q] < 0 ? -1 : (int)(g->pending[q] >> 3);
        cols[q] = (int)(g->pending[q] & 7);
        g->pending[q] = -1;
    }
    resolve(t, g->lane[g->card], g->solo, g->sh, g->n, vis, cols);
    g->card = -1;
    g->over = g->ndeck == 0;
    while (!g->over && g->card < 0) reveal(g);
    if (g->over) return 1;
    v->to_act = vec_first(g, 0);
    return 0;
}

/* ------------------------------------------------------------------ Python */
static PyObject *py_vec_state_bytes(PyObject *self, PyObject *noargs) { return PyLong_FromSize_t(sizeof(VecSlot)); }
static PyObject *py_vec_conf_bytes(PyObject *self, PyObject *noargs) { return PyLong_FromSize_t(sizeof(VecConf)); }

/* configure(conf, players, height, channels, actions, deck, lanes, shapes): the batch's configuration; shapes
 * per card: ``height`` bytes, row r's columns of the card's block on its plane. */
static PyObject *py_vec_configure(PyObject *self, PyObject *args) {
    PyObject *buf, *o_lanes, *o_shapes;
    int players, height, channels, actions, deck;
    if (!PyArg_ParseTuple(args, "OiiiiiOO", &buf, &players, &height, &channels, &actions, &deck, &o_lanes, &o_shapes))
        return NULL;
    if (players < 1 || players > MAXP || height < 1 || height > VEC_MAX_HEIGHT || deck < 0 || deck >= ndecks ||
        actions < VEC_DROP_IDS || channels != 3 * players + 3 || 4 * players + 1 > 8 * height) {
        PyErr_SetString(PyExc_ValueError, "configure(): players, height, channels, actions or deck out of range");
        return NULL;
    }
    int nc = decks[deck]->ncards, lanes[MAXDECK];
    if (ints_in(o_lanes, lanes, MAXDECK, "lanes") != nc) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "configure(): one lane per card");
        return NULL;
    }
    PyObject *f = PySequence_Fast(o_shapes, "configure(): one shape per card");
    if (!f) return NULL;
    if (PySequence_Fast_GET_SIZE(f) != nc) {
        Py_DECREF(f);
        PyErr_SetString(PyExc_ValueError, "configure(): one shape per card");
        return NULL;
    }
    Py_buffer view;
    if (batch_buffer(buf, &view, (Py_ssize_t)sizeof(VecConf), "conf") < 0) {
        Py_DECREF(f);
        return NULL;
    }
    VecConf *cf = (VecConf *)view.buf;
    memset(cf, 0, sizeof *cf);
    cf->players = players;
    cf->height = height;
    cf->channels = channels;
    cf->actions = actions;
    cf->deck = deck;
    cf->ncards = nc;
    cf->nseed = 1;
    for (int k = 0; k < VEC_CHUNKS; k++)
        for (int j = 0; j < 16; j++) {
            int at = 16 * k + j, ch = at % channels, in = at < 8 * channels;
            cf->lo[k][j] = in && ch < 16 ? (uint8_t)ch : 0x80;
            cf->hi[k][j] = in && ch >= 16 ? (uint8_t)(ch - 16) : 0x80;
            cf->bit[k][j] = in ? (uint8_t)(1 << (at / channels)) : 0;
        }
    for (int i = 0; i < nc; i++) {
        PyObject *b = PySequence_Fast_GET_ITEM(f, i);
        if (!PyBytes_Check(b) || PyBytes_GET_SIZE(b) != height || lanes[i] < 1 || lanes[i] > 7) {
            PyErr_SetString(PyExc_ValueError, "configure(): a shape is ``height`` bytes, a lane 1-7");
            cf->players = 0;
            break;
        }
        memcpy(cf->shape[i], PyBytes_AS_STRING(b), (size_t)height);
        cf->lane[i] = lanes[i];
    }
    Py_DECREF(f);
    PyBuffer_Release(&view);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

/* seed(conf, words): the vector env's seed as NumPy's entropy words (its restarts' episode seeds) */
static PyObject *py_vec_seed(PyObject *self, PyObject *args) {
    PyObject *buf, *o_words;
    if (!PyArg_ParseTuple(args, "OO", &buf, &o_words)) return NULL;
    long words[VEC_MAX_SEED];
    PyObject *f = PySequence_Fast(o_words, "seed(): a sequence of words");
    if (!f) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(f);
    if (n < 1 || n > VEC_MAX_SEED) {
        Py_DECREF(f);
        return PyErr_Format(PyExc_ValueError, "seed(): 1 to %d words", VEC_MAX_SEED);
    }
    Py_DECREF(f);
    if (longs_in(o_words, words, (int)n, "seed words") < 0) return NULL;
    Py_buffer view;
    if (batch_buffer(buf, &view, (Py_ssize_t)sizeof(VecConf), "conf") < 0) return NULL;
    VecConf *cf = (VecConf *)view.buf;
    cf->nseed = (int)n;
    for (int i = 0; i < n; i++) cf->seed[i] = (uint32_t)words[i];
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

/* episode_seed(conf, env, episode): the seed the batch starts that episode of that game with */
static PyObject *py_vec_episode_seed(PyObject *self, PyObject *args) {
    PyObject *buf;
    long long env, episode;
    if (!PyArg_ParseTuple(args, "OLL", &buf, &env, &episode)) return NULL;
    if (env < 0 || episode < 0) return PyErr_Format(PyExc_ValueError, "episode_seed(): non-negative counters");
    Py_buffer view;
    if (batch_buffer(buf, &view, (Py_ssize_t)sizeof(VecConf), "conf") < 0) return NULL;
    const VecConf *cf = (const VecConf *)view.buf;
    int64_t seed = seedseq_episode(cf->seed, cf->nseed, (uint64_t)env, (uint64_t)episode);
    PyBuffer_Release(&view);
    return PyLong_FromLongLong(seed);
}

/* load(states, i, conf, env, episode, sheets, deck, start_lane, round, card, pending, rng, over, starter):
 * game i becomes a FoldrisState's fields; a sheet is (ink, barrier, height, lines, bonus, out), a pending
 * drop 8 * variant + column or -1. */
static PyObject *py_vec_load(PyObject *self, PyObject *args) {
    PyObject *buf, *o_conf, *o_sheets, *o_deck, *o_pending;
    Py_ssize_t i;
    long long env, episode;
    int start_lane, card, over, starter;
    long rnd;
    unsigned long long rng;
    if (!PyArg_ParseTuple(args, "OnOLLOOiliOKpi", &buf, &i, &o_conf, &env, &episode, &o_sheets, &o_deck, &start_lane,
                          &rnd, &card, &o_pending, &rng, &over, &starter))
        return NULL;
    Py_buffer cv;
    if (PyObject_GetBuffer(o_conf, &cv, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    const VecConf *cf = conf_of(&cv);
    if (!cf) {
        PyBuffer_Release(&cv);
        return NULL;
    }
    VecSlot *v = PyMem_Calloc(1, sizeof(VecSlot));
    PyObject *f = NULL, *result = NULL;
    if (!v) {
        PyErr_NoMemory();
        goto done;
    }
    Game *g = &v->g;
    g->d = decks[cf->deck];
    g->tid = g->d->tid;
    g->key = g->d->key;
    g->lane = g->d->lane;
    g->n = cf->players;
    g->solo = g->n == 1;
    if ((g->ndeck = ints_in(o_deck, g->deck, MAXDECK, "deck")) < 0) goto done;
    for (int k = 0; k < g->ndeck; k++)
        if (g->deck[k] < 0 || g->deck[k] >= g->d->ncards) {
            PyErr_SetString(PyExc_ValueError, "load(): bad deck entry");
            goto done;
        }
    if (card < -1 || card >= g->d->ncards || starter < 0 || starter >= g->n) {
        PyErr_SetString(PyExc_ValueError, "load(): bad card or starter");
        goto done;
    }
    g->start_lane = start_lane;
    g->round = rnd;
    g->card = card;
    g->rng = rng;
    g->over = over;
    g->starter = starter;
    if (longs_in(o_pending, g->pending, g->n, "pending") < 0) goto done;
    for (int p = 0; p < g->n; p++)
        if (g->pending[p] >= 0 && (card < 0 || (g->pending[p] >> 3) >= tables[g->tid[card]]->n)) {
            PyErr_SetString(PyExc_ValueError, "load(): bad pending drop");
            goto done;
        }
    if (!(f = PySequence_Fast(o_sheets, "load(): the sheets"))) goto done;
    if (PySequence_Fast_GET_SIZE(f) != g->n) {
        PyErr_SetString(PyExc_ValueError, "load(): one sheet per player");
        goto done;
    }
    for (int p = 0; p < g->n; p++) {
        PyObject *o = PySequence_Fast_GET_ITEM(f, p), *ink, *bar;
        Sheet *s = &g->sh[p];
        if (!PyArg_ParseTuple(o, "OOllll", &ink, &bar, &s->height, &s->lines, &s->bonus, &s->out) ||
            to_rows(ink, s->ink) < 0 || to_rows(bar, s->bar) < 0)
            goto done;
        if (s->height < 1 || s->height > ROWS - 8) {
            PyErr_SetString(PyExc_ValueError, "sheet height out of range");
            goto done;
        }
        set_top(s, top_of(ink, bar));
    }
    v->env = env;
    v->episode = episode;
    v->to_act = g->over || g->card < 0 ? -1 : vec_first(g, 0);
    Py_buffer view;
    if (i < 0 || batch_buffer(buf, &view, (i + 1) * (Py_ssize_t)sizeof(VecSlot), "states") < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_IndexError, "game index out of range");
        goto done;
    }
    memcpy((VecSlot *)view.buf + i, v, sizeof *v);
    PyBuffer_Release(&view);
    result = Py_NewRef(Py_None);
done:
    Py_XDECREF(f);
    PyMem_Free(v);
    PyBuffer_Release(&cv);
    return result;
}

/* export(states, i) -> (sheets, deck, start_lane, round, card, pending, rng, over, starter, episode), as load
 * takes them */
static PyObject *py_vec_export(PyObject *self, PyObject *args) {
    PyObject *buf;
    Py_ssize_t i;
    if (!PyArg_ParseTuple(args, "On", &buf, &i)) return NULL;
    Py_buffer view;
    if (i < 0 || batch_buffer(buf, &view, (i + 1) * (Py_ssize_t)sizeof(VecSlot), "states") < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_IndexError, "game index out of range");
        return NULL;
    }
    const VecSlot *v = (const VecSlot *)view.buf + i;
    const Game *g = &v->g;
    PyObject *sheets = PyTuple_New(g->n), *deck = PyTuple_New(g->ndeck), *pending = PyTuple_New(g->n), *out = NULL;
    if (!sheets || !deck || !pending) goto done;
    for (int p = 0; p < g->n; p++) {
        const Sheet *s = &g->sh[p];
        PyObject *o = Py_BuildValue("(NNllll)", pylong_from_bytes(s->ink, ROWS), pylong_from_bytes(s->bar, ROWS), s->height, s->lines,
                                    s->bonus, s->out);
        if (!o) goto done;
        PyTuple_SET_ITEM(sheets, p, o);
        PyTuple_SET_ITEM(pending, p, PyLong_FromLong(g->pending[p]));
    }
    for (int k = 0; k < g->ndeck; k++) PyTuple_SET_ITEM(deck, k, PyLong_FromLong(g->deck[k]));
    out = Py_BuildValue("(OOiliOKiiL)", sheets, deck, g->start_lane, g->round, g->card, pending,
                        (unsigned long long)g->rng, g->over, g->starter, (long long)v->episode);
done:
    Py_XDECREF(sheets);
    Py_XDECREF(deck);
    Py_XDECREF(pending);
    PyBuffer_Release(&view);
    return out;
}

typedef struct {
    Py_buffer states, obs, masks, conf, to_act;
    const VecConf *cf;
    Py_ssize_t n;
} VecBufs;

static void vec_release(VecBufs *b) { BATCH_RELEASE(&b->states, &b->obs, &b->masks, &b->conf, &b->to_act); }

static int vec_acquire(VecBufs *b, PyObject *states, PyObject *obs, PyObject *masks, PyObject *conf, PyObject *to_act) {
    memset(b, 0, sizeof *b);
    if (PyObject_GetBuffer(conf, &b->conf, PyBUF_C_CONTIGUOUS) < 0 || !(b->cf = conf_of(&b->conf))) return -1;
    const VecConf *cf = b->cf;
    if ((b->n = batch_obs(obs, &b->obs, cf->height, 8, cf->channels)) < 0) return -1;
    if (batch_buffer(states, &b->states, b->n * (Py_ssize_t)sizeof(VecSlot), "states") < 0 ||
        batch_buffer(masks, &b->masks, b->n * (Py_ssize_t)cf->actions, "masks") < 0 ||
        batch_buffer(to_act, &b->to_act, b->n * 2, "to_act") < 0)
        return -1;
    return 0;
}

/* Game i's seat to act, observation and mask rows. */
static void vec_row(VecBufs *b, Py_ssize_t i) {
    VecSlot *v = (VecSlot *)b->states.buf + i;
    const VecConf *cf = b->cf;
    ((short *)b->to_act.buf)[i] = (short)v->to_act;
    vec_obs(cf, v, v->to_act, (unsigned char *)b->obs.buf + i * (Py_ssize_t)cf->height * 8 * cf->channels);
    vec_mask(cf, v, (signed char *)b->masks.buf + i * (Py_ssize_t)cf->actions);
}

/* write(states, ids, size, i, obs, masks, conf, to_act): the rows of game i (after a load). */
static PyObject *py_vec_write(PyObject *self, PyObject *args) {
    PyObject *states, *ids, *obs, *masks, *conf, *o_to_act;
    int size;
    Py_ssize_t i;
    if (!PyArg_ParseTuple(args, "OOinOOOO", &states, &ids, &size, &i, &obs, &masks, &conf, &o_to_act)) return NULL;
    VecBufs b;
    PyObject *result = NULL;
    if (vec_acquire(&b, states, obs, masks, conf, o_to_act) < 0 || batch_game(i, b.n) < 0) goto done;
    if (((VecSlot *)b.states.buf)[i].to_act < 0) {
        PyErr_SetString(PyExc_ValueError, "the game has no seat to act");
        goto done;
    }
    vec_row(&b, i);
    result = Py_NewRef(Py_None);
done:
    vec_release(&b);
    return result;
}

/* step(states, ids, size, actions, obs, masks, conf, to_act, rewards, returns, ended[, restart]) -> how many
 * games ended: every action checked against its game's mask row first (core/_batch.h's batch_check: nothing
 * moves on a refusal), then applied; a game that ends gets its returns, the mover's reward and True in
 * ``ended``. With ``restart`` (not None), it starts its next episode here, its rows written: the caller only
 * counts the episode. */
static PyObject *py_vec_step(PyObject *self, PyObject *args) {
    PyObject *states, *ids, *o_act, *obs, *masks, *conf, *o_to_act, *o_rew, *o_ret, *o_term, *o_restart = Py_None;
    int size;
    if (!PyArg_ParseTuple(args, "OOiOOOOOOOO|O", &states, &ids, &size, &o_act, &obs, &masks, &conf, &o_to_act, &o_rew,
                          &o_ret, &o_term, &o_restart))
        return NULL;
    VecBufs b;
    BatchIO io = {0};
    PyObject *result = NULL;
    if (vec_acquire(&b, states, obs, masks, conf, o_to_act) < 0) goto done;
    int np = b.cf->players;
    if (batch_io(&io, b.n, np, o_act, NULL, o_rew, o_ret, o_term, "ended", NULL) < 0) goto done;
    const long long *acts = io.acts;
    float *rewards = io.rewards, *returns = io.returns;
    unsigned char *ended = io.ended;
    VecSlot *slots = (VecSlot *)b.states.buf;
    if (batch_check(acts, b.n, (const signed char *)b.masks.buf, b.cf->actions) < 0) goto done;
    for (Py_ssize_t i = 0; i < b.n; i++)
        if (slots[i].to_act < 0) {
            PyErr_Format(PyExc_ValueError, "game %zd has no seat to act", i);
            goto done;
        }
    batch_io_clear(&io, b.n, np);
    Py_ssize_t count = 0;
    for (Py_ssize_t i = 0; i < b.n; i++) {
        VecSlot *v = &slots[i];
        int mover = v->to_act, r = vec_play(v, acts[i]);
        if (r < 0) goto done; /* a mask row not the batch's own: the game is left as it was */
        if (r == 0) {
            vec_row(&b, i);
            continue;
        }
        vec_returns(b.cf, &v->g, returns + i * np);
        rewards[i] = returns[i * np + mover];
        ended[i] = 1;
        count++;
        v->to_act = -1;
        v->count = v->nlist = v->listed = 0; /* the row keeps its ids until the next load */
        if (o_restart != Py_None) {
            v->episode++;
            vec_new(b.cf, v);
            vec_row(&b, i);
        }
    }
    result = PyLong_FromSsize_t(count);
done:
    batch_io_release(&io);
    vec_release(&b);
    return result;
}

/* play(states, conf, actions, obs, masks, to_act, rewards, returns, terminations, episodes): the vector env's
 * whole step for a batch that starts its games' next episodes itself. Every action is checked against its
 * game's mask row first (ValueError naming the first game whose action is outside the ids or not legal, and
 * nothing changed); then step() with restarts, each game's termination written and the episodes of the
 * games that ended counted. */
static PyObject *py_vec_play(PyObject *self, PyObject *args) {
    PyObject *states, *conf, *o_act, *obs, *masks, *o_to_act, *o_rew, *o_ret, *o_term, *o_eps;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOO", &states, &conf, &o_act, &obs, &masks, &o_to_act, &o_rew, &o_ret, &o_term,
                          &o_eps))
        return NULL;
    VecBufs b;
    BatchIO io = {0};
    PyObject *result = NULL;
    if (vec_acquire(&b, states, obs, masks, conf, o_to_act) < 0) goto done;
    int np = b.cf->players, A = b.cf->actions;
    if (batch_io(&io, b.n, np, o_act, NULL, o_rew, o_ret, o_term, "terminations", o_eps) < 0) goto done;
    const long long *acts = io.acts;
    if (batch_check(acts, b.n, (const signed char *)b.masks.buf, A) < 0) goto done;
    float *rewards = io.rewards, *returns = io.returns;
    unsigned char *terminated = io.ended;
    long long *episodes = io.episodes;
    VecSlot *slots = (VecSlot *)b.states.buf;
    batch_io_clear(&io, b.n, np);
    for (Py_ssize_t i = 0; i < b.n; i++) {
        VecSlot *v = &slots[i];
        int mover = v->to_act, r = vec_play(v, acts[i]);
        if (r < 0) goto done; /* a mask row not the batch's own: the game is left as it was */
        if (r == 0) {
            vec_row(&b, i);
            continue;
        }
        vec_returns(b.cf, &v->g, returns + i * np);
        rewards[i] = returns[i * np + mover];
        terminated[i] = 1;
        v->episode++;
        vec_new(b.cf, v);
        episodes[i] = v->episode; /* the env's count, loaded with the game (and any game over at once) */
        vec_row(&b, i);
    }
    result = Py_NewRef(Py_None);
done:
    batch_io_release(&io);
    vec_release(&b);
    return result;
}

/* A game's legal id number k in the rules' order (variants, then columns): the k-th set bit of its fit masks. */
static long long vec_pick(const void *slot, const int *ids, int k) {
    const VecSlot *v = slot;
    (void)ids; /* the batch keeps no ids row */
    for (int j = 0; j < v->nlist; j++) {
        int c = __builtin_popcount(v->fit[j]);
        if (k < c) {
            unsigned m = v->fit[j];
            while (k--) m &= m - 1;
            return v->base[j] + __builtin_ctz(m);
        }
        k -= c;
    }
    return 0; /* a count the masks do not hold: not reached */
}

/* sample(states, ids, draws, out): for each game, its legal id number floor(draws[i] * count) in the rules'
 * order: uniform over the legal ids for uniform draws (core/_batch.h). */
static PyObject *py_vec_sample(PyObject *self, PyObject *args) {
    return batch_sample_by(args, sizeof(VecSlot), offsetof(VecSlot, count), 0, vec_pick);
}

/* simd([use]) -> whether observations are written with SSSE3; ``use`` False selects the plain writer (the
 * tests compare both), True SSSE3 where the CPU has it. */
static PyObject *py_vec_simd(PyObject *self, PyObject *args) {
    int use = -1;
    if (!PyArg_ParseTuple(args, "|p", &use)) return NULL;
#ifdef VEC_SSSE3
    if (use >= 0) vec_ssse3 = use && __builtin_cpu_supports("ssse3");
    return PyBool_FromLong(vec_ssse3);
#else
    Py_RETURN_FALSE;
#endif
}

static PyMethodDef vec_methods[] = {
    {"simd", py_vec_simd, METH_VARARGS, "simd([use]) -> whether observations are written with SSSE3"},
    {"register", (PyCFunction)(void (*)(void))py_register, METH_FASTCALL,
     "register(variants, by_key items) -> table id (as the kernel's)"},
    {"deck", (PyCFunction)(void (*)(void))py_deck, METH_FASTCALL, "deck(tables, keys, lanes) -> deck id (as the kernel's)"},
    {"state_bytes", py_vec_state_bytes, METH_NOARGS, "the bytes of one game's state"},
    {"conf_bytes", py_vec_conf_bytes, METH_NOARGS, "the bytes of a batch's configuration"},
    {"configure", py_vec_configure, METH_VARARGS, "configure(conf, players, height, channels, actions, deck, lanes, shapes)"},
    {"seed", py_vec_seed, METH_VARARGS, "seed(conf, words): the vector env's seed as entropy words"},
    {"episode_seed", py_vec_episode_seed, METH_VARARGS, "episode_seed(conf, env, episode) -> that episode's game seed"},
    {"load", py_vec_load, METH_VARARGS, "load a FoldrisState's fields into game i"},
    {"export", py_vec_export, METH_VARARGS, "game i's state fields"},
    {"write", py_vec_write, METH_VARARGS, "game i's observation and mask rows"},
    {"step", py_vec_step, METH_VARARGS, "apply one action per game; how many games ended"},
    {"play", py_vec_play, METH_VARARGS, "the vector env's step: actions checked, applied, games restarted"},
    {"sample", py_vec_sample, METH_VARARGS, "one uniformly random legal id per game"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef vec_moduledef = {PyModuleDef_HEAD_INIT, "_cfoldris_vec",
                                           "A batch of Foldris games stepped in C.", -1, vec_methods};

PyMODINIT_FUNC PyInit__cfoldris_vec(void) {
#ifdef VEC_SSSE3
    __builtin_cpu_init();
    vec_ssse3 = __builtin_cpu_supports("ssse3");
#endif
    for (int b = 0; b < 256; b++)
        for (int c = 0; c < 8; c++) spread[b][c] = (uint8_t)(b >> c & 1);
    return batch_module(&vec_moduledef, 1);
}
