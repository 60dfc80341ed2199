/* polytable.games.forma._cforma_vec: a batch of Forma games held in C and stepped in one call, for the
 * batched environment (polytable.interop.vector). Per game and step: the action id is applied, the set-up's
 * random fill is settled from the state's generator, and the next seat's observation planes and legal-action
 * mask are written into preallocated NumPy rows, with no Python object made.
 *
 * The rules are the compiled kernel's own: this unit includes _cforma.c (tables, init) and _cforma_rules.c
 * (placement, touch-move pick, set-up) so it reaches their static step functions, and the extension links
 * the kernel's other units; nothing of the rules is written twice. A new game is made by the Python rules
 * (Game.new_game, rare) and loaded with load(); the pure rules stay the reference the batch is tested
 * against (tests/interop/test_vector_fast.py).
 *
 * Ids are the game's dense ids (_notation.py): orientation * 400 + row * 20 + column for a placement (the
 * column of the orientation's reference cell), then one pick id per piece, then an obstacle and a tower id
 * per cell, then the fill.
 */
#include "_cforma.c"
#include "_cforma_rules.c"
#include "../../core/_batch.h" /* the callers' buffers, one legal id drawn per game */
#if defined(__SSE2__)
#include <emmintrin.h> /* the observation's byte transpose (x86-64 always has SSE2; others take plain C) */
#endif

#define PLACE_IDS (NO * 400)
#define OBSTACLE_IDS (PLACE_IDS + NP)
#define TOWER_IDS (OBSTACLE_IDS + 400)
#define FILL_ID (TOWER_IDS + 400)
#define NUM_IDS (FILL_ID + 1)

static int vec_orient_ref[NO];

/* One long per player from a sequence of ints. */
static int vec_longs_in(PyObject *seq, long *out, int n) {
    PyObject *fast = PySequence_Fast(seq, "expected a sequence of ints");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "one value per player");
        return -1;
    }
    for (int i = 0; i < n; i++) out[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
    Py_DECREF(fast);
    return PyErr_Occurred() ? -1 : 0;
}

/* A tuple of n boards as ints. */
static PyObject *vec_boards_out(const B *b, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = forma_from_b(&b[i]);
        if (!v) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

/* A game of the batch: its state, and how many legal ids its mask row holds (listed in its ids row, so the
 * next write clears only those and a random legal action costs one draw). */
/* What the last write put in a game's observation row, a group of 8 cells of a row at a time (the groups
 * vec_cells writes): its planes' bytes (lo, hi) and its 8 feature bytes. A step rewrites only the groups
 * that differ; ``valid`` is 0 until a whole row was written (after a load, or another layout). */
typedef struct {
    int valid;
    uint64_t lo[MAXSIZE][3], hi[MAXSIZE][3], feat[MAXSIZE][3];
} VecDrawn;

typedef struct {
    S s;
    int count;
    VecDrawn drawn;
} VecSlot;

/* ------------------------------------------------------------------ one game */
/* The legal ids of the seat to move (Game.legal_actions, as ids) into the mask row and the ids row; the
 * row's previous ids are cleared first. */
#define SET(id)                      \
    do {                             \
        int id_ = (id);              \
        mask[id_] = 1;               \
        ids[n++] = id_;              \
    } while (0)
static int vec_listed(const T *t, const S *s, signed char *mask, int *ids);

/* row * 20 + column of each bit of a board of t's size (the ids' cell numbers), without a division a bit. */
static const short *vec_cells_of(const T *t) {
    static const T *made = NULL;
    static short cells[NW * 64];
    if (made != t) {
        for (int bit = 0; bit < NW * 64; bit++)
            cells[bit] = (short)((t->size - 1 - bit / t->stride) * 20 + bit % t->stride);
        made = t;
    }
    return cells;
}

static void vec_mask(const T *t, const S *s, signed char *mask, int *ids, int *count) {
    for (int k = 0, was = *count; k < was; k++) mask[ids[k]] = 0;
    *count = vec_listed(t, s, mask, ids);
}

/* The listing of vec_mask (the row cleared): how many ids. A local count, not one through a pointer that
 * every mask byte written might alias. */
static int vec_listed(const T *t, const S *s, signed char *mask, int *ids) {
    int n = 0;
    if (s->turn < 0 || s->turn >= s->n) return 0;
    const short *cells = vec_cells_of(t);
    if (s->placing) { /* the players' set-up: an obstacle or the tower on an allowed cell, or the fill */
        B taken, allowed;
        for (int i = 0; i < NW; i++) taken.w[i] = s->obstacles.w[i] | s->tower.w[i];
        allowed_cells(t, &taken, &allowed);
        int has_tower = b_any(&s->tower), obstacles = s->placing - (has_tower ? 0 : 1) > 0;
        for (int i = 0; i < NW; i++)
            for (uint64_t w = allowed.w[i]; w; w &= w - 1) {
                int cell = cells[i * 64 + __builtin_ctzll(w)];
                if (obstacles) SET(OBSTACLE_IDS + cell);
                if (!has_tower) SET(TOWER_IDS + cell);
            }
        SET(FILL_ID);
        return n;
    }
    const int *stock = s->stock[s->turn];
    if (s->touch && s->picked < 0) { /* the pick: one id per piece held */
        for (int p = 0; p < NP; p++)
            if (stock[p]) SET(PLACE_IDS + p);
        return n;
    }
    B free, sh[64], a;
    for (int i = 0; i < NW; i++) free.w[i] = t->board.w[i] & ~s->filled.w[i];
    shifts(t, &free, sh);
    int p0 = s->picked < 0 ? 0 : s->picked, p1 = s->picked < 0 ? NP : s->picked + 1;
    for (int p = p0; p < p1; p++) {
        if (!stock[p]) continue;
        for (int g = piece_first[p]; g < piece_first[p + 1]; g++) {
            anchors_of(t, sh, g, &a);
            for (int i = 0; i < NW; i++)
                for (uint64_t w = a.w[i]; w; w &= w - 1) {
                    SET(g * 400 + cells[i * 64 + __builtin_ctzll(w)] + vec_orient_ref[g]);
                }
        }
    }
    return n;
}
#undef SET

/* Bits base .. base + n - 1 of a board (n <= 32). */
static inline uint32_t vec_bits(const B *b, int base, int n) {
    int w = base >> 6, off = base & 63;
    uint64_t v = b->w[w] >> off;
    if (off + n > 64 && w + 1 < NW) v |= b->w[w + 1] << (64 - off);
    return (uint32_t)(v & ((1ULL << n) - 1));
}

#define LOW_BYTES 0x0101010101010101ULL

/* Byte g of the row's 8 first planes: out[g] holds byte g of row[k] in its byte k (k < np), for the 4 bytes
 * of a row (a byte transpose; with SSE2 in 6 instructions). */
static inline __attribute__((always_inline)) void vec_bytes8(const uint32_t *row, const int np, uint64_t out[4]) {
#if defined(__SSE2__)
    /* interleaving the bytes of planes (0, 4, 2, 6) with (1, 5, 3, 7), then their pairs, then their quads,
     * puts the planes in order 0..7 in each group's 8 bytes */
    uint32_t p[8];
    for (int k = 0; k < 8; k++) p[k] = k < np ? row[k] : 0;
    __m128i a = _mm_set_epi32((int)p[6], (int)p[2], (int)p[4], (int)p[0]);
    __m128i b = _mm_set_epi32((int)p[7], (int)p[3], (int)p[5], (int)p[1]);
    __m128i c = _mm_unpacklo_epi8(a, b), d = _mm_unpackhi_epi8(a, b);
    __m128i e = _mm_unpacklo_epi16(c, d), f = _mm_unpackhi_epi16(c, d);
    _mm_storeu_si128((__m128i *)out, _mm_unpacklo_epi32(e, f));
    _mm_storeu_si128((__m128i *)(out + 2), _mm_unpackhi_epi32(e, f));
#else
    for (int g = 0; g < 4; g++) {
        uint64_t v = 0;
        for (int k = 0; k < np && k < 8; k++) v |= (uint64_t)(row[k] >> (8 * g) & 255) << (8 * k);
        out[g] = v;
    }
#endif
}

/* Cells of ``np`` plane channels and one feature channel (``c`` = np + 1 bytes each, constants when inlined).
 * Eight cells of a row at a time: byte k of ``lo`` holds plane k's bits for those cells (``hi``: planes 8 and
 * 9), so cell x's channels are (lo >> x) & LOW_BYTES, bit x of every byte brought down to bit 0, written in
 * two stores that stay inside the cell (the second overlaps the first). A group equal to what ``drawn``
 * says the row holds is skipped (most of a touch-move pick's observation, and the empty parts of the board). */
static inline __attribute__((always_inline)) void vec_cells(const uint32_t rows[][2 + 2 * MAXPLAYERS],
                                                            const unsigned char *feat, unsigned char *out, int n,
                                                            const int np, const int c, VecDrawn *drawn) {
    int valid = drawn->valid;
    for (int r = 0; r < n; r++) {
        const uint32_t *row = rows[r];
        uint64_t los[4];
        vec_bytes8(row, np, los);
        for (int x0 = 0, g = 0; x0 < n; x0 += 8, g++) {
            uint64_t lo = los[g], hi = 0, fg;
            for (int k = 8; k < np; k++) hi |= (uint64_t)(row[k] >> x0 & 255) << (8 * (k - 8));
            memcpy(&fg, feat + r * n + x0, 8);
            if (valid && lo == drawn->lo[r][g] && hi == drawn->hi[r][g] && fg == drawn->feat[r][g]) continue;
            drawn->lo[r][g] = lo;
            drawn->hi[r][g] = hi;
            drawn->feat[r][g] = fg;
            int x1 = x0 + 8 < n ? x0 + 8 : n;
            for (int x = x0; x < x1; x++) {
                int cell = r * n + x;
                unsigned char *o = out + (Py_ssize_t)cell * c;
                uint64_t a = lo >> (x - x0) & LOW_BYTES, b = hi >> (x - x0) & LOW_BYTES, f = feat[cell];
                if (np == 6) { /* o[0..3], then o[3..6] */
                    uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 24 & 0xffffff) | (uint32_t)f << 24;
                    memcpy(o, &a0, 4);
                    memcpy(o + 3, &a1, 4);
                } else if (np == 8) {
                    memcpy(o, &a, 8);
                    o[8] = (unsigned char)f;
                } else { /* 10: o[0..7], then o[3..10] */
                    uint64_t a1 = a >> 24 | (b & 0xffff) << 40 | f << 56;
                    memcpy(o, &a, 8);
                    memcpy(o + 3, &a1, 8);
                }
            }
        }
    }
    drawn->valid = 1;
}

/* The observation of ``observer`` (polytable.interop._fast's Forma codec): planes of the tower, the
 * obstacles, then pieces and markers per seat from the observer on, bit i of a board at row size - 1 -
 * i / stride and column i % stride; features from plane 2 + 2 * players, row by row (saturated to
 * 0..255): per seat the score and the stock of the pieces in ``index``, then the piece in hand (one-hot
 * over ``index``). Written cell by cell, each cell's channels at once. */
static void vec_obs(const T *t, const S *s, int observer, const int *index, int nindex, unsigned char *out, int c,
                    VecDrawn *drawn) {
    enum { MAXPLANES = 2 + 2 * MAXPLAYERS };
    int n = t->size, st = t->stride, area = n * n, np = 2 + 2 * s->n, nf = c - np;
    const B *boards[MAXPLANES];
    uint32_t rows[MAXSIZE][MAXPLANES];
    boards[0] = &s->tower;
    boards[1] = &s->obstacles;
    for (int k = 0; k < s->n; k++) {
        int seat = (observer + k) % s->n;
        boards[2 + 2 * k] = &s->pieces[seat];
        boards[3 + 2 * k] = &s->markers[seat];
    }
    for (int r = 0; r < n; r++)
        for (int k = 0; k < np; k++) rows[r][k] = vec_bits(boards[k], (n - 1 - r) * st, n);
    unsigned char feat[4 * MAXSIZE * MAXSIZE + 8]; /* + 8: a row's last group reads 8 bytes */
    int nfeat = nf < 4 ? nf : 4; /* channels holding values (at most 4 * 22 + 21 of them: one channel) */
    memset(feat, 0, (size_t)nfeat * area + 8);
    int j = 0;
#define FEATURE(v)                                                                         \
    do {                                                                                   \
        long v_ = (v);                                                                     \
        if (j < nfeat * area) feat[j] = (unsigned char)(v_ < 0 ? 0 : v_ > 255 ? 255 : v_); \
        j++;                                                                               \
    } while (0)
    for (int k = 0; k < s->n; k++) {
        int seat = (observer + k) % s->n;
        FEATURE(s->scores[seat]);
        for (int q = 0; q < nindex; q++) FEATURE(s->stock[seat][index[q]]);
    }
    for (int q = 0; q < nindex; q++) FEATURE(s->picked == index[q] ? 1 : 0);
#undef FEATURE
    if (np + nf == c && nf == 1) { /* the usual layout (2 to 4 seats, one feature plane): fixed-size cells */
        switch (np) {
        case 6: vec_cells(rows, feat, out, n, 6, 7, drawn); return;
        case 8: vec_cells(rows, feat, out, n, 8, 9, drawn); return;
        case 10: vec_cells(rows, feat, out, n, 10, 11, drawn); return;
        default: break;
        }
    }
    drawn->valid = 0;
    for (int r = 0; r < n; r++) {
        const uint32_t *row = rows[r];
        for (int x = 0; x < n; x++) {
            int cell = r * n + x;
            unsigned char *o = out + (Py_ssize_t)cell * c;
            for (int k = 0; k < np; k++) o[k] = (unsigned char)(row[k] >> x & 1);
            for (int f = 0; f < nf; f++) o[np + f] = f < nfeat ? feat[f * area + cell] : 0;
        }
    }
}

/* Apply one legal id for the seat to move, then settle the set-up's random fill (chance). */
static int vec_apply(const T *t, S *s, int id) {
    int top = t->size - 1, st = t->stride;
    if (id == FILL_ID)
        s->turn = CHANCE;
    else if (id >= OBSTACLE_IDS) {
        int cell = (id - OBSTACLE_IDS) % 400, row = cell / 20, col = cell % 20;
        setup_place(t, s, id >= TOWER_IDS, (top - row) * st + col);
    } else if (id >= PLACE_IDS)
        apply_pick(t, s, id - PLACE_IDS);
    else {
        int g = id / 400, row = id % 400 / 20, col = id % 20;
        apply_place(t, s, g, (top - row) * st + col - vec_orient_ref[g]);
    }
    while (s->turn == CHANCE)
        if (setup_step(t, s, NULL) < 0) return -1;
    return 0;
}

/* ------------------------------------------------------------------ Python */
/* init(size, stride, offsets, orient_piece, piece_size, vec_orient_ref): the kernel's tables, and each
 * orientation's reference column offset (_pieces.ORIENT_REF) for the ids. */
static PyObject *py_vec_init(PyObject *self, PyObject *args) {
    int size, stride;
    PyObject *offsets, *opiece, *psize, *ref;
    if (!PyArg_ParseTuple(args, "iiOOOO", &size, &stride, &offsets, &opiece, &psize, &ref)) return NULL;
    if (PySequence_Size(ref) != NO) {
        PyErr_SetString(PyExc_ValueError, "expected 91 reference offsets");
        return NULL;
    }
    for (int g = 0; g < NO; g++) {
        PyObject *v = PySequence_GetItem(ref, g);
        if (!v) return NULL;
        vec_orient_ref[g] = (int)PyLong_AsLong(v);
        Py_DECREF(v);
    }
    if (PyErr_Occurred()) return NULL;
    if (size >= 0 && size <= MAXSIZE && forma_tabs[size]) Py_RETURN_NONE;
    PyObject *inner = Py_BuildValue("(iiOOO)", size, stride, offsets, opiece, psize);
    if (!inner) return NULL;
    PyObject *got = py_init(self, inner);
    Py_DECREF(inner);
    return got;
}

/* load(states, i, size, obstacles, tower, pieces, markers, filled, stocks, scores, bridges, closed, watch,
 *      turn, moves, last, exact, touch, picked, misses, placing, rng): a FormaState into game i. */
static PyObject *py_vec_load(PyObject *self, PyObject *args) {
    PyObject *buf, *o_obst, *o_tower, *o_pieces, *o_markers, *o_filled, *o_stocks, *o_scores, *o_bridges, *o_closed,
        *o_watch, *o_last;
    Py_ssize_t i;
    int size, turn, moves, exact, touch, picked, misses, placing;
    unsigned long long setup_rng;
    if (!PyArg_ParseTuple(args, "OniOOOOOOOOOOiiOppiiiK", &buf, &i, &size, &o_obst, &o_tower, &o_pieces, &o_markers,
                          &o_filled, &o_stocks, &o_scores, &o_bridges, &o_closed, &o_watch, &turn, &moves, &o_last,
                          &exact, &touch, &picked, &misses, &placing, &setup_rng))
        return NULL;
    T *t = table_for(size);
    if (!t) return NULL;
    S s;
    memset(&s, 0, sizeof s);
    s.n = (int)PySequence_Size(o_pieces);
    if (s.n < 2 || s.n > MAXPLAYERS || picked < -1 || picked >= NP || placing < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "2 to 4 players; picked and placing in range");
        return NULL;
    }
    s.turn = turn;
    s.moves = moves;
    s.exact = exact;
    s.touch = touch;
    s.picked = picked;
    s.misses = misses;
    s.placing = placing;
    s.setup_rng = setup_rng;
    if (to_b(o_obst, &s.obstacles) < 0 || to_b(o_tower, &s.tower) < 0 || to_b(o_filled, &s.filled) < 0 ||
        to_b(o_closed, &s.closed) < 0 || to_b(o_watch, &s.watch) < 0 || to_b(o_last, &s.last) < 0 ||
        boards_in(o_pieces, s.pieces, s.n) < 0 || boards_in(o_markers, s.markers, s.n) < 0 ||
        vec_longs_in(o_scores, s.scores, s.n) < 0 || vec_longs_in(o_bridges, s.bridges, s.n) < 0)
        return NULL;
    PyObject *fast = PySequence_Fast(o_stocks, "stocks must be a sequence");
    if (!fast) return NULL;
    int bad = PySequence_Fast_GET_SIZE(fast) != s.n;
    for (int k = 0; k < s.n && !bad; k++) bad = to_stock(PySequence_Fast_GET_ITEM(fast, k), s.stock[k]) < 0;
    Py_DECREF(fast);
    if (bad) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one stock per player");
        return NULL;
    }
    Py_buffer view;
    if (i < 0 || batch_buffer(buf, &view, (i + 1) * (Py_ssize_t)sizeof(VecSlot), "states") < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_IndexError, "game index out of range");
        return NULL;
    }
    VecSlot *slot = &((VecSlot *)view.buf)[i];
    memcpy(&slot->s, &s, sizeof s); /* the count stays: the row's ids are cleared next write */
    slot->drawn.valid = 0;          /* and its observation is written whole */
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

/* export(states, i) -> (pieces, markers, filled, stocks, scores, bridges, closed, watch, turn, moves, last,
 * exact, obstacles, tower, picked, misses, placing, rng): game i's state, for a FormaState. */
static PyObject *py_vec_export(PyObject *self, PyObject *args) {
    PyObject *buf;
    Py_ssize_t i;
    if (!PyArg_ParseTuple(args, "On", &buf, &i)) return NULL;
    Py_buffer view;
    if (i < 0 || batch_buffer(buf, &view, (i + 1) * (Py_ssize_t)sizeof(VecSlot), "states") < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_IndexError, "game index out of range");
        return NULL;
    }
    S s = ((VecSlot *)view.buf)[i].s;
    PyBuffer_Release(&view);
    PyObject *stocks = PyTuple_New(s.n), *scores = PyTuple_New(s.n), *bridges = PyTuple_New(s.n);
    if (!stocks || !scores || !bridges) goto fail;
    for (int k = 0; k < s.n; k++) {
        PyObject *st = PyTuple_New(NP);
        if (!st) goto fail;
        for (int p = 0; p < NP; p++) PyTuple_SET_ITEM(st, p, PyLong_FromLong(s.stock[k][p]));
        PyTuple_SET_ITEM(stocks, k, st);
        PyTuple_SET_ITEM(scores, k, PyLong_FromLong(s.scores[k]));
        PyTuple_SET_ITEM(bridges, k, PyLong_FromLong(s.bridges[k]));
    }
    return Py_BuildValue("(NNNNNNNNiiNONNiiiK)", vec_boards_out(s.pieces, s.n), vec_boards_out(s.markers, s.n),
                         forma_from_b(&s.filled), stocks, scores, bridges, forma_from_b(&s.closed),
                         forma_from_b(&s.watch), s.turn, s.moves, forma_from_b(&s.last), s.exact ? Py_True : Py_False,
                         forma_from_b(&s.obstacles), forma_from_b(&s.tower), s.picked, s.misses, s.placing,
                         (unsigned long long)s.setup_rng);
fail:
    Py_XDECREF(stocks);
    Py_XDECREF(scores);
    Py_XDECREF(bridges);
    return NULL;
}

/* The buffers every call reads or writes: states (N games), observations (N, size, size, c) uint8, masks
 * (N, ids) int8, the stock index (pieces the features list). */
typedef struct {
    Py_buffer states, obs, masks, index, ids;
    Py_ssize_t n, c;
} VecBufs;

static void vec_release(VecBufs *b) { BATCH_RELEASE(&b->states, &b->obs, &b->masks, &b->index, &b->ids); }

static int vec_acquire(VecBufs *b, const T *t, PyObject *states, PyObject *ids, PyObject *obs, PyObject *masks,
                   PyObject *index) {
    memset(b, 0, sizeof *b);
    if ((b->n = batch_obs(obs, &b->obs, t->size, t->size, -1)) < 0) return -1;
    b->c = b->obs.shape[3];
    if (batch_buffer(states, &b->states, b->n * (Py_ssize_t)sizeof(VecSlot), "states") < 0 ||
        batch_buffer(ids, &b->ids, b->n * (Py_ssize_t)NUM_IDS * 4, "ids") < 0 ||
        batch_buffer(masks, &b->masks, b->n * (Py_ssize_t)NUM_IDS, "masks") < 0)
        return -1;
    if (PyObject_GetBuffer(index, &b->index, PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (b->index.len % (Py_ssize_t)sizeof(int) || b->index.len / (Py_ssize_t)sizeof(int) > NP) {
        PyErr_SetString(PyExc_ValueError, "the stock index must be int32 piece numbers");
        return -1;
    }
    return 0;
}

/* The seat to act, its observation row and its mask row for game i (a game in progress). */
static void vec_row(const T *t, VecBufs *b, Py_ssize_t i, short *to_act) {
    VecSlot *slot = (VecSlot *)b->states.buf + i;
    S *s = &slot->s;
    int nindex = (int)(b->index.len / (Py_ssize_t)sizeof(int));
    to_act[i] = (short)s->turn;
    vec_obs(t, s, s->turn, (const int *)b->index.buf, nindex,
              (unsigned char *)b->obs.buf + i * (Py_ssize_t)t->size * t->size * b->c, (int)b->c, &slot->drawn);
    vec_mask(t, s, (signed char *)b->masks.buf + i * (Py_ssize_t)NUM_IDS, (int *)b->ids.buf + i * (Py_ssize_t)NUM_IDS,
               &slot->count);
}

/* write(states, ids, size, i, obs, masks, index, to_act): the rows of game i (after a load). */
static PyObject *py_vec_write(PyObject *self, PyObject *args) {
    PyObject *states, *ids, *obs, *masks, *index, *o_to_act;
    int size;
    Py_ssize_t i;
    if (!PyArg_ParseTuple(args, "OOinOOOO", &states, &ids, &size, &i, &obs, &masks, &index, &o_to_act)) return NULL;
    T *t = table_for(size);
    if (!t) return NULL;
    VecBufs b;
    Py_buffer ta = {0};
    PyObject *result = NULL;
    if (vec_acquire(&b, t, states, ids, obs, masks, index) < 0 || batch_buffer(o_to_act, &ta, b.n * 2, "to_act") < 0 ||
        batch_game(i, b.n) < 0)
        goto done;
    S *s = &((VecSlot *)b.states.buf)[i].s;
    if (s->turn < 0 || s->turn >= s->n) {
        PyErr_SetString(PyExc_ValueError, "the game has no seat to act");
        goto done;
    }
    ((VecSlot *)b.states.buf)[i].drawn.valid = 0; /* the whole row */
    vec_row(t, &b, i, (short *)ta.buf);
    result = Py_None;
    Py_INCREF(result);
done:
    if (ta.obj) PyBuffer_Release(&ta);
    vec_release(&b);
    return result;
}

/* step(states, ids, size, actions, obs, masks, index, to_act, rewards, returns, terminations[, None]) -> how
 * many games ended. actions: int64 (N,), each checked against its game's mask row before any game moves
 * (core/_batch.h). A game that goes on gets its next rows; one that ends gets its returns (Game.returns: n/k
 * - 1 for each of k winners among n, -1 for the others, 0 for all when everyone wins), its reward (the
 * mover's return) and True in terminations, for the caller to start its next game. */
static PyObject *py_vec_step(PyObject *self, PyObject *args) {
    PyObject *states, *ids, *o_act, *obs, *masks, *index, *o_to_act, *o_rew, *o_ret, *o_term, *fresh = Py_None;
    int size;
    if (!PyArg_ParseTuple(args, "OOiOOOOOOOO|O", &states, &ids, &size, &o_act, &obs, &masks, &index, &o_to_act,
                          &o_rew, &o_ret, &o_term, &fresh))
        return NULL;
    if (fresh != Py_None) { /* Forma's new games differ (the set-up's generator): the caller starts them */
        PyErr_SetString(PyExc_ValueError, "a Forma batch takes no fresh state");
        return NULL;
    }
    T *t = table_for(size);
    if (!t) return NULL;
    VecBufs b;
    BatchIO io = {0};
    PyObject *result = NULL;
    if (vec_acquire(&b, t, states, ids, obs, masks, index) < 0) goto done;
    VecSlot *slots = (VecSlot *)b.states.buf;
    int players = b.n ? slots[0].s.n : 0;
    if (batch_io(&io, b.n, players, o_act, o_to_act, o_rew, o_ret, o_term, "terminations", NULL) < 0) goto done;
    const long long *acts = io.acts;
    short *to_act = io.to_act;
    float *rewards = io.rewards, *returns = io.returns;
    unsigned char *ended = io.ended;
    if (batch_check(acts, b.n, (const signed char *)b.masks.buf, NUM_IDS) < 0) goto done;
    for (Py_ssize_t i = 0; i < b.n; i++)
        if (slots[i].s.turn < 0 || slots[i].s.turn >= slots[i].s.n) {
            PyErr_Format(PyExc_ValueError, "game %zd has no seat to act", i);
            goto done;
        }
    batch_io_clear(&io, b.n, players);
    Py_ssize_t count = 0;
    for (Py_ssize_t i = 0; i < b.n; i++) {
        S *s = &slots[i].s;
        int mover = s->turn;
        if (vec_apply(t, s, (int)acts[i]) < 0) goto done;
        if (s->turn != TERMINAL) {
            vec_row(t, &b, i, to_act);
            continue;
        }
        long best = s->scores[0];
        int won = 0;
        for (int k = 1; k < s->n; k++)
            if (s->scores[k] > best) best = s->scores[k];
        for (int k = 0; k < s->n; k++) won += s->scores[k] == best;
        float share = won == s->n ? 0.0f : (float)((double)s->n / won - 1.0);
        for (int k = 0; k < s->n; k++)
            returns[i * players + k] = won == s->n ? 0.0f : s->scores[k] == best ? share : -1.0f;
        rewards[i] = returns[i * players + mover];
        ended[i] = 1;
        count++;
    }
    result = PyLong_FromSsize_t(count);
done:
    batch_io_release(&io);
    vec_release(&b);
    return result;
}

/* sample(states, ids, draws, out): one legal id per game (core/_batch.h). */
static PyObject *py_vec_sample(PyObject *self, PyObject *args) {
    return batch_sample(args, sizeof(VecSlot), offsetof(VecSlot, count), NUM_IDS);
}

static PyObject *py_vec_state_bytes(PyObject *self, PyObject *noargs) { return PyLong_FromSize_t(sizeof(VecSlot)); }

static PyMethodDef vec_methods[] = {
    {"init", py_vec_init, METH_VARARGS, "init(size, stride, offsets, orient_piece, piece_size, vec_orient_ref)"},
    {"state_bytes", py_vec_state_bytes, METH_NOARGS, "the bytes of one game's state"},
    {"load", py_vec_load, METH_VARARGS, "load a FormaState into game i"},
    {"export", py_vec_export, METH_VARARGS, "game i's state fields"},
    {"write", py_vec_write, METH_VARARGS, "game i's observation and mask rows"},
    {"step", py_vec_step, METH_VARARGS, "apply one action per game; how many games ended"},
    {"sample", py_vec_sample, METH_VARARGS, "one uniformly random legal id per game"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef vec_moduledef = {PyModuleDef_HEAD_INIT, "_cforma_vec",
                                           "A batch of Forma games stepped in C.", -1, vec_methods};

PyMODINIT_FUNC PyInit__cforma_vec(void) { return batch_module(&vec_moduledef, NUM_IDS); }
