/* polytable.games.formfinity._cformfinity_vec: a batch of FORMFINITY games held in C and stepped in one call,
 * for the batched environment (polytable.interop.vector) and the PettingZoo environment (a batch of one).
 * Per game and step: the action id is applied, the card reveals are drawn from the state's own generator or
 * deck (as Game.apply_chance draws them), and the next seat's observation planes and legal-action mask are
 * written into preallocated NumPy rows, with no Python object made.
 *
 * The rules are the compiled kernel's own: this unit includes _cformfinity.c, whose functions take a game's
 * context (FF: the set-up of its configuration, its state), so each game of the batch is one slot holding
 * its FFState and the batch holds one set-up (VecInfo, with what the observation needs besides). New games
 * are made by the Python rules (Game.new_game) and loaded with load(); the pure rules stay the reference the
 * batch is tested against (tests/interop/test_vector_fast.py).
 *
 * Ids are the game's dense ids (_game.py): the cards first (never a player's), then a placement's
 * (shape * 40 + row) * 40 + column, a claim's (direction * 40 + row) * 40 + column, an area's index.
 */
#include "_cformfinity.c"
#include "../../core/_batch.h" /* the callers' buffers, one legal id drawn per game */
#include "../../core/_seedseq.h" /* the next episode's seed */

#define VEC_SHAPES 91 /* _cards.SHAPES: init checks it */
#define VEC_SIDE 40   /* ids use a fixed 40 x 40 layout (_game.SIDE) */
#define VEC_CARDS (VEC_SHAPES * 96)
#define VEC_PLACE0 VEC_CARDS
#define VEC_CLAIM0 (VEC_PLACE0 + VEC_SHAPES * VEC_SIDE * VEC_SIDE)
#define VEC_AREA0 (VEC_CLAIM0 + 4 * VEC_SIDE * VEC_SIDE)
#define VEC_IDS (VEC_AREA0 + VEC_SIDE * VEC_SIDE)
#define VEC_CARD_FEATURES 33 /* _planes.FORMFINITY_CARD */

#define VEC_FEATURES (MAXPLAYERS + VEC_CARD_FEATURES + 5) /* the most features: scores, card, left, phase */
#define VEC_OBS (MAXSIDE * MAXSIDE * (7 + 2 * MAXPLAYERS) + VEC_FEATURES + MAXSIDE * MAXSIDE)

/* What a batch shares: the set-up, the observation's size (channels) and its blank, every cell zero but
 * the template's planes (blocked, start, number, area id: polytable.interop._fast's FORMFINITY codec), and
 * each card's features. */
typedef struct {
    FFSetup g;
    int channels, pad;
    short cell[NW * 64], place[NW * 64]; /* per board bit: its square (y * W + x, -1 off the template), row * 40 + column */
    unsigned char blank[VEC_OBS];
    unsigned char cards[VEC_CARDS][VEC_CARD_FEATURES];
} VecInfo;

/* A game of the batch: how many legal ids its mask row holds (listed in its ids row: the next write clears
 * only those), its state, and the observation row it last wrote with the planes it set there (the next
 * write into the same row changes only the squares whose planes changed; any other row is written whole). */
typedef struct {
    int count, pad;
    FFState f;
    unsigned char *row;
    BB held[3 + 2 * MAXPLAYERS];
} VecSlot;

/* ------------------------------------------------------------------ one game */
/* The legal ids of the seat to act (Game.legal_actions, as ids) into the mask row and the ids row, the row's
 * previous ids cleared first. A placement turn lists c->cur_* (computed here unless current). */
static void vec_mask(FF *c, const VecInfo *info, int *count, signed char *mask, int *ids) {
    const FFSetup *g = c->g;
    FFState *f = c->f;
    for (int k = 0; k < *count; k++) mask[ids[k]] = 0;
    int n = 0, S = g->S;
    if (f->phase == PH_PLACE) {
        if (c->cur_n < 0) cur_placements(c);
        for (int i = 0; i < c->cur_n; i++) {
            int base = VEC_PLACE0 + c->cur_s[i] * VEC_SIDE * VEC_SIDE;
            for (int j = 0; j < nw; j++)
                for (uint64_t w = c->cur_a[i].w[j]; w; w &= w - 1) {
                    int id = base + info->place[j * 64 + __builtin_ctzll(w)];
                    mask[id] = 1;
                    ids[n++] = id;
                }
        }
    } else if (f->phase == PH_CLAIM) {
        int m = claimable(c);
        for (int k = 0; k < m; k++) {
            int id = VEC_CLAIM0 + c->cd[k] * VEC_SIDE * VEC_SIDE + c->cb[k] / S * VEC_SIDE + c->cb[k] % S;
            mask[id] = 1;
            ids[n++] = id;
        }
    } else if (f->phase == PH_CHOOSE) {
        for (int a = 0; a < g->nareas; a++)
            if (!(f->done >> a & 1)) {
                mask[VEC_AREA0 + a] = 1;
                ids[n++] = VEC_AREA0 + a;
            }
    }
    *count = n;
}

/* The observation of the seat to act (polytable.interop._fast's FORMFINITY codec): the template's four
 * planes, the current area, the finished areas, the last element, per seat from the observer on its drawing
 * and its claimed lines; then the features row by row from plane 7 + 2 * players (saturated to 0..255): per
 * seat the score, the card's features, the elements left, the phase (choose, draw, place, claim). */
static void vec_obs(FF *c, const VecInfo *info, VecSlot *slot, unsigned char *out, int channels) {
    const FFSetup *g = c->g;
    const FFState *f = c->f;
    int W = g->W, H = g->H, P = g->players, np = 7 + 2 * P, observer = f->turn;
    BB boards[3 + 2 * MAXPLAYERS]; /* the words in use only (a full board is 27 words) */
    for (int k = 0; k < 3 + 2 * P; k++)
        for (int j = 0; j < nw; j++) boards[k].w[j] = 0;
    if (f->area >= 0) b_or(&boards[0], &g->areas[f->area]);
    for (int a = 0; a < g->nareas; a++)
        if (f->done >> a & 1) b_or(&boards[1], &g->areas[a]);
    b_or(&boards[2], &f->last);
    for (int k = 0; k < P; k++) b_or(&boards[3 + 2 * k], &f->own[(observer + k) % P]);
    for (int i = 0; i < f->nlines; i++) {
        int k = (f->lines[i][0] - observer + P) % P, off = line_off(c, f->lines[i][1]);
        for (int s = 0; s < g->length; s++) b_set(&boards[4 + 2 * k], f->lines[i][2] + off * s);
    }
    long sc[MAXPLAYERS];
    scores(c, sc);
    unsigned char feat[VEC_FEATURES];
    int nf = 0;
    for (int k = 0; k < P; k++) {
        long v = sc[(observer + k) % P];
        feat[nf++] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
    if (f->card >= 0 && f->card < VEC_CARDS) memcpy(feat + nf, info->cards[f->card], VEC_CARD_FEATURES);
    else memset(feat + nf, 0, VEC_CARD_FEATURES);
    nf += VEC_CARD_FEATURES;
    feat[nf++] = (unsigned char)(f->left < 0 ? 0 : f->left > 255 ? 255 : f->left);
    for (int ph = 0; ph < 4; ph++) feat[nf++] = f->phase == ph;
    int area = W * H;
    if (slot->row == out) /* the row holds the planes of slot->held: the squares that changed are rewritten */
        for (int k = 0; k < 3 + 2 * P; k++)
            for (int j = 0; j < nw; j++) {
                uint64_t now = boards[k].w[j];
                for (uint64_t w = now ^ slot->held[k].w[j]; w; w &= w - 1) {
                    int bit = __builtin_ctzll(w), cell = info->cell[j * 64 + bit];
                    if (cell >= 0) out[(Py_ssize_t)cell * channels + 4 + k] = (unsigned char)(now >> bit & 1);
                }
                slot->held[k].w[j] = now;
            }
    else {
        memcpy(out, info->blank, (size_t)area * channels); /* then the planes' set squares and the features */
        for (int k = 0; k < 3 + 2 * P; k++)
            for (int j = 0; j < nw; j++) {
                for (uint64_t w = boards[k].w[j]; w; w &= w - 1) {
                    int cell = info->cell[j * 64 + __builtin_ctzll(w)];
                    if (cell >= 0) out[(Py_ssize_t)cell * channels + 4 + k] = 1;
                }
                slot->held[k].w[j] = boards[k].w[j];
            }
        slot->row = out;
    }
    for (int j = 0, cell = 0, ch = np; j < nf && ch < channels; j++) { /* feature j: square j % area, plane np + j / area */
        out[(Py_ssize_t)cell * channels + ch] = feat[j];
        if (++cell == area) {
            cell = 0;
            ch++;
        }
    }
}

/* Settle chance: every card reveal until a player acts or the game ends (Table.settle). */
static void vec_settle(FF *c) {
    while (c->f->phase == PH_DRAW) chance(c);
}

/* Apply one legal id for the seat to act, then settle chance: 0, or -1 (an id this state cannot take). */
static int vec_apply(FF *c, int id) {
    const FFSetup *g = c->g;
    FFState *f = c->f;
    c->cur_n = -1;
    if (f->phase == PH_PLACE && id >= VEC_PLACE0 && id < VEC_CLAIM0) {
        int r = id - VEC_PLACE0, s = r / (VEC_SIDE * VEC_SIDE), y = r / VEC_SIDE % VEC_SIDE, x = r % VEC_SIDE;
        if (s >= nshapes || x + sh_w[s] > g->W || y + sh_h[s] > g->H) return -1;
        BB mask;
        shape_mask(c, s, y * g->S + x, &mask);
        apply_place(c, &mask);
    } else if (f->phase == PH_CLAIM && id >= VEC_CLAIM0 && id < VEC_AREA0) {
        int r = id - VEC_CLAIM0, d = r / (VEC_SIDE * VEC_SIDE), y = r / VEC_SIDE % VEC_SIDE, x = r % VEC_SIDE;
        if (x >= g->W || y >= g->H) return -1;
        apply_claim(c, d, y * g->S + x);
    } else if (f->phase == PH_CHOOSE && id >= VEC_AREA0 && id < VEC_AREA0 + g->nareas) {
        f->area = id - VEC_AREA0; /* _flow.apply_choose */
        f->phase = PH_DRAW;
        f->fails = 0;
    } else
        return -1;
    vec_settle(c);
    return c->fail ? -1 : 0;
}

/* A new game from a seed (Game.new_game: the card generator seeded as core.seed_state(seed), the deck whole,
 * _flow.start_state), chance settled. */
static void vec_new_game(FF *c, long long seed) {
    const FFSetup *g = c->g;
    FFState *f = c->f;
    memset(f, 0, offsetof(FFState, num));
    f->rng = rng_seed_state(seed, 0);
    f->phase = PH_DRAW;
    f->card = f->area = -1;
    f->ndeck = g->ndeck;
    memcpy(f->deck, g->deck, sizeof(int) * (size_t)g->ndeck);
    start_turn(c);
    vec_settle(c);
}

/* Game.returns of a finished game: n/k - 1 for each of k winners among n, -1 for the others, 0 for all when
 * nobody or everybody won. */
static void vec_returns(const FF *c, float *out) {
    int P = c->g->players, k = c->f->nwin, won[MAXPLAYERS] = {0};
    for (int i = 0; i < k; i++) won[c->f->win[i]] = 1;
    for (int p = 0; p < P; p++) out[p] = k == 0 || k == P ? 0.0f : won[p] ? (float)((double)P / k - 1.0) : -1.0f;
}

/* ------------------------------------------------------------------ Python */
/* The batch's shared part: `info` (a buffer of info_bytes()) and its set-up, NULL with an error if it is
 * not one. */
static const VecInfo *vec_info(PyObject *obj, Py_buffer *view) {
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0) return NULL;
    const VecInfo *info = (const VecInfo *)view->buf;
    if (view->len != (Py_ssize_t)sizeof(VecInfo) || !nshapes || !info->g.players) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "info must be a batch's prepared info (prepare_batch)");
        return NULL;
    }
    nw = info->g.words;
    return info;
}

static PyObject *py_vec_info_bytes(PyObject *self, PyObject *noargs) { return PyLong_FromSize_t(sizeof(VecInfo)); }
static PyObject *py_vec_state_bytes(PyObject *self, PyObject *noargs) { return PyLong_FromSize_t(sizeof(VecSlot)); }

/* prepare_batch(info, pack, statics, cards) -> bool: the set-up (_kernel.pack) read into info, with the
 * template's planes (H * W * 4 bytes) and the cards' features (uint8, 8,736 x 33); False where the kernel
 * does not hold the set-up (no batch: the tables serve). */
static PyObject *py_vec_prepare(PyObject *self, PyObject *args) {
    PyObject *o_info, *pack, *o_statics, *o_cards;
    if (!PyArg_ParseTuple(args, "OOOO", &o_info, &pack, &o_statics, &o_cards)) return NULL;
    if (!nshapes || nshapes != VEC_SHAPES) {
        PyErr_SetString(PyExc_ValueError, "init must come first, with the 91 shapes");
        return NULL;
    }
    Py_buffer iv = {0}, sv = {0}, cv = {0};
    PyObject *result = NULL;
    if (batch_buffer(o_info, &iv, (Py_ssize_t)sizeof(VecInfo), "info") < 0) goto done;
    VecInfo *info = (VecInfo *)iv.buf;
    int r = read_pack(pack, &info->g);
    if (r < 0) goto done;
    if (r > 0) {
        info->g.players = 0;
        result = Py_NewRef(Py_False);
        goto done;
    }
    Py_ssize_t cells = (Py_ssize_t)info->g.W * info->g.H;
    if (PyObject_GetBuffer(o_statics, &sv, PyBUF_C_CONTIGUOUS) < 0 ||
        PyObject_GetBuffer(o_cards, &cv, PyBUF_C_CONTIGUOUS) < 0)
        goto done;
    if (sv.len != cells * 4 || cv.len != (Py_ssize_t)sizeof info->cards) {
        info->g.players = 0;
        PyErr_SetString(PyExc_ValueError, "statics: H x W x 4 bytes; cards: 8,736 x 33 bytes");
        goto done;
    }
    int area = (int)cells, np = 7 + 2 * info->g.players, nfeat = info->g.players + VEC_CARD_FEATURES + 5;
    info->channels = np + (nfeat + area - 1) / area;
    for (int bit = 0; bit < NW * 64; bit++) {
        int y = bit / info->g.S, x = bit % info->g.S, on = y < info->g.H && x < info->g.W;
        info->cell[bit] = (short)(on ? y * info->g.W + x : -1);
        info->place[bit] = (short)(on ? y * VEC_SIDE + x : 0);
    }
    memset(info->blank, 0, sizeof info->blank);
    for (int cell = 0; cell < area; cell++) memcpy(info->blank + cell * info->channels, (char *)sv.buf + 4 * cell, 4);
    memcpy(info->cards, cv.buf, sizeof info->cards);
    result = Py_NewRef(Py_True);
done:
    if (iv.obj) PyBuffer_Release(&iv);
    if (sv.obj) PyBuffer_Release(&sv);
    if (cv.obj) PyBuffer_Release(&cv);
    return result;
}

/* Game i's slot in `states` (held in `view`), NULL with an error if out of range. */
static VecSlot *vec_slot(PyObject *states, Py_buffer *view, Py_ssize_t i) {
    if (i < 0 || batch_buffer(states, view, (i + 1) * (Py_ssize_t)sizeof(VecSlot), "states") < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_IndexError, "game index out of range");
        return NULL;
    }
    return (VecSlot *)view->buf + i;
}

/* load(info, states, i, deck, lines, numbers, buffer): a FormfinityState into game i (its fixed-size fields
 * in the buffer, _kernel.PLAYOUT, as CompiledFormfinity packs it). */
static PyObject *py_vec_load(PyObject *self, PyObject *args) {
    PyObject *o_info, *states, *odeck, *olines, *onum, *o_buf;
    Py_ssize_t i;
    if (!PyArg_ParseTuple(args, "OOnOOOO", &o_info, &states, &i, &odeck, &olines, &onum, &o_buf)) return NULL;
    Py_buffer iv = {0}, st = {0}, bv = {0};
    PyObject *result = NULL;
    const VecInfo *info = vec_info(o_info, &iv);
    if (!info) return NULL;
    VecSlot *slot = vec_slot(states, &st, i);
    if (!slot || PyObject_GetBuffer(o_buf, &bv, PyBUF_SIMPLE) < 0) goto done;
    if (bv.len != (Py_ssize_t)sizeof(PlayoutBuf)) {
        PyErr_Format(PyExc_ValueError, "a state buffer has %zu bytes", sizeof(PlayoutBuf));
        goto done;
    }
    PlayoutBuf in;
    memcpy(&in, bv.buf, sizeof in);
    FF ctx = {.g = &info->g, .f = &slot->f};
    slot->row = NULL;
    int r = read_state(&ctx, &in, odeck, olines, onum);
    if (r > 0) PyErr_SetString(PyExc_ValueError, "a state the compiled batch does not hold");
    if (r == 0) result = Py_NewRef(Py_None);
done:
    if (bv.obj) PyBuffer_Release(&bv);
    if (st.obj) PyBuffer_Release(&st);
    PyBuffer_Release(&iv);
    return result;
}

/* export(info, states, i, buffer) -> (deck, lines, numbers): game i's state, its fixed-size fields written
 * into the buffer (_kernel.PLAYOUT). */
static PyObject *py_vec_export(PyObject *self, PyObject *args) {
    PyObject *o_info, *states, *o_buf;
    Py_ssize_t i;
    if (!PyArg_ParseTuple(args, "OOnO", &o_info, &states, &i, &o_buf)) return NULL;
    Py_buffer iv = {0}, st = {0}, bv = {0};
    PyObject *result = NULL, *empty = NULL;
    const VecInfo *info = vec_info(o_info, &iv);
    if (!info) return NULL;
    VecSlot *slot = vec_slot(states, &st, i);
    if (!slot || batch_buffer(o_buf, &bv, (Py_ssize_t)sizeof(PlayoutBuf), "state") < 0) goto done;
    PlayoutBuf out;
    memset(&out, 0, sizeof out);
    out.players = info->g.players;
    FF ctx = {.g = &info->g, .f = &slot->f, .deck_moved = 1};
    empty = PyTuple_New(0);
    if (empty) result = write_state(&ctx, &out, bv.buf, empty, empty, empty);
done:
    Py_XDECREF(empty);
    if (bv.obj) PyBuffer_Release(&bv);
    if (st.obj) PyBuffer_Release(&st);
    PyBuffer_Release(&iv);
    return result;
}

/* The buffers every call reads or writes: the batch's info, states (N games), ids (N rows of VEC_IDS int32),
 * observations (N, H, W, channels) uint8, masks (N, VEC_IDS) int8. */
typedef struct {
    Py_buffer info, states, ids, obs, masks;
    const VecInfo *in;
    Py_ssize_t n, c;
} VecBufs;

static void vec_release(VecBufs *b) { BATCH_RELEASE(&b->info, &b->states, &b->ids, &b->obs, &b->masks); }

static int vec_acquire(VecBufs *b, PyObject *info, PyObject *states, PyObject *ids, PyObject *obs, PyObject *masks) {
    memset(b, 0, sizeof *b);
    if (!(b->in = vec_info(info, &b->info))) return -1;
    const FFSetup *g = &b->in->g;
    if ((b->n = batch_obs(obs, &b->obs, g->H, g->W, b->in->channels)) < 0) return -1;
    b->c = b->obs.shape[3];
    if (batch_buffer(states, &b->states, b->n * (Py_ssize_t)sizeof(VecSlot), "states") < 0 ||
        batch_buffer(ids, &b->ids, b->n * (Py_ssize_t)VEC_IDS * 4, "ids") < 0 ||
        batch_buffer(masks, &b->masks, b->n * (Py_ssize_t)VEC_IDS, "masks") < 0)
        return -1;
    return 0;
}

/* Game i's seat to act, observation row and mask row (a game in progress; c its context). */
static void vec_row(VecBufs *b, FF *c, Py_ssize_t i, short *to_act) {
    VecSlot *slot = (VecSlot *)b->states.buf + i;
    to_act[i] = (short)c->f->turn;
    vec_obs(c, b->in, slot, (unsigned char *)b->obs.buf + i * b->obs.shape[1] * b->obs.shape[2] * b->c, (int)b->c);
    vec_mask(c, b->in, &slot->count, (signed char *)b->masks.buf + i * (Py_ssize_t)VEC_IDS,
             (int *)b->ids.buf + i * (Py_ssize_t)VEC_IDS);
}

/* The context the calls below step games in (its line tables are large for the stack): made once, reused. */
static FF *vec_work(void) {
    static FF *work;
    if (work == NULL) work = PyMem_RawMalloc(sizeof(FF));
    return work;
}

/* The context of game i (its step's work not begun: no placements current). */
static FF *vec_ctx(VecBufs *b, FF *c, Py_ssize_t i) {
    c->g = &b->in->g;
    c->f = &((VecSlot *)b->states.buf)[i].f;
    c->fail = c->deck_moved = 0;
    c->cur_n = -1;
    return c;
}

/* write(info, states, ids, i, obs, masks, to_act): the rows of game i (after a load); chance is settled
 * first (a loaded state may wait for its card). */
static PyObject *py_vec_write(PyObject *self, PyObject *args) {
    PyObject *info, *states, *ids, *obs, *masks, *o_to_act;
    Py_ssize_t i;
    if (!PyArg_ParseTuple(args, "OOOnOOO", &info, &states, &ids, &i, &obs, &masks, &o_to_act)) return NULL;
    VecBufs b;
    Py_buffer ta = {0};
    PyObject *result = NULL;
    FF *c = vec_work();
    if (!c) return PyErr_NoMemory();
    if (vec_acquire(&b, info, states, ids, obs, masks) < 0 || batch_buffer(o_to_act, &ta, b.n * 2, "to_act") < 0 ||
        batch_game(i, b.n) < 0)
        goto done;
    vec_ctx(&b, c, i);
    ((VecSlot *)b.states.buf)[i].row = NULL; /* written whole */
    vec_settle(c);
    if (c->f->phase == PH_OVER) {
        PyErr_SetString(PyExc_ValueError, "the game has no seat to act");
        goto done;
    }
    vec_row(&b, c, i, (short *)ta.buf);
    result = Py_NewRef(Py_None);
done:
    if (ta.obj) PyBuffer_Release(&ta);
    vec_release(&b);
    return result;
}

/* step(info, states, ids, actions, obs, masks, to_act, rewards, returns) -> games that ended. actions: int64
 * (N,), each checked against its game's mask row before any game moves (ValueError naming the first game
 * at fault). A game that goes on
 * gets its next rows; one that ends gets its returns (N, players), its reward (the mover's return) and its
 * index in the list returned, for the caller to start its next game. */
static PyObject *py_vec_step(PyObject *self, PyObject *args) {
    PyObject *info, *states, *ids, *o_act, *obs, *masks, *o_to_act, *o_rew, *o_ret;
    if (!PyArg_ParseTuple(args, "OOOOOOOOO", &info, &states, &ids, &o_act, &obs, &masks, &o_to_act, &o_rew, &o_ret))
        return NULL;
    VecBufs b;
    BatchIO io = {0};
    PyObject *ended = NULL;
    FF *c = vec_work();
    if (!c) return PyErr_NoMemory();
    if (vec_acquire(&b, info, states, ids, obs, masks) < 0) goto done;
    int players = b.in->g.players;
    if (batch_io(&io, b.n, players, o_act, o_to_act, o_rew, o_ret, NULL, NULL, NULL) < 0) goto done;
    const long long *acts = io.acts;
    short *to_act = io.to_act;
    float *rewards = io.rewards, *returns = io.returns;
    if (batch_check(acts, b.n, (const signed char *)b.masks.buf, VEC_IDS) < 0) goto done;
    ended = PyList_New(0);
    if (!ended) goto done;
    batch_io_clear(&io, b.n, players);
    for (Py_ssize_t i = 0; i < b.n; i++) {
        vec_ctx(&b, c, i);
        int mover = c->f->turn;
        long long id = acts[i];
        if (c->f->phase == PH_OVER || c->f->phase == PH_DRAW || id < 0 || id >= VEC_IDS ||
            vec_apply(c, (int)id) < 0) {
            PyErr_Format(PyExc_ValueError, "game %zd: no seat to act, or action %lld is not legal", i, id);
            Py_CLEAR(ended);
            goto done;
        }
        if (c->f->phase != PH_OVER) {
            vec_row(&b, c, i, to_act);
            continue;
        }
        vec_returns(c, returns + i * players);
        rewards[i] = returns[i * players + mover];
        PyObject *v = PyLong_FromSsize_t(i);
        if (!v || PyList_Append(ended, v) < 0) {
            Py_XDECREF(v);
            Py_CLEAR(ended);
            goto done;
        }
        Py_DECREF(v);
    }
done:
    batch_io_release(&io);
    vec_release(&b);
    return ended;
}

/* restart(info, states, ids, games, seeds, obs, masks, to_act) -> the games over at once: each game listed
 * (int64) starts anew from its seed (int64: Game.new_game's), chance settled and its rows written. */
static PyObject *py_vec_restart(PyObject *self, PyObject *args) {
    PyObject *info, *states, *ids, *o_games, *o_seeds, *obs, *masks, *o_to_act;
    if (!PyArg_ParseTuple(args, "OOOOOOOO", &info, &states, &ids, &o_games, &o_seeds, &obs, &masks, &o_to_act))
        return NULL;
    VecBufs b;
    Py_buffer gv = {0}, sv = {0}, ta = {0};
    PyObject *over = NULL;
    FF *c = vec_work();
    if (!c) return PyErr_NoMemory();
    if (vec_acquire(&b, info, states, ids, obs, masks) < 0 || batch_buffer(o_to_act, &ta, b.n * 2, "to_act") < 0 ||
        PyObject_GetBuffer(o_games, &gv, PyBUF_C_CONTIGUOUS) < 0 ||
        PyObject_GetBuffer(o_seeds, &sv, PyBUF_C_CONTIGUOUS) < 0)
        goto done;
    if (gv.len % 8 || sv.len != gv.len) {
        PyErr_SetString(PyExc_ValueError, "games and seeds: int64, one seed per game");
        goto done;
    }
    const long long *games = (const long long *)gv.buf, *seeds = (const long long *)sv.buf;
    for (Py_ssize_t k = 0; k < gv.len / 8; k++)
        if (games[k] < 0 || games[k] >= b.n || seeds[k] < 0) {
            PyErr_SetString(PyExc_IndexError, "game index or seed out of range");
            goto done;
        }
    if (!(over = PyList_New(0))) goto done;
    for (Py_ssize_t k = 0; k < gv.len / 8; k++) {
        Py_ssize_t i = (Py_ssize_t)games[k];
        vec_ctx(&b, c, i);
        vec_new_game(c, seeds[k]);
        if (c->f->phase != PH_OVER) {
            vec_row(&b, c, i, (short *)ta.buf);
            continue;
        }
        PyObject *v = PyLong_FromSsize_t(i);
        if (!v || PyList_Append(over, v) < 0) {
            Py_XDECREF(v);
            Py_CLEAR(over);
            goto done;
        }
        Py_DECREF(v);
    }
done:
    BATCH_RELEASE(&gv, &sv, &ta);
    vec_release(&b);
    return over;
}

/* play(info, states, ids, words, actions, obs, masks, to_act, rewards, returns, terminations, episodes,
 * seeds): the vector env's whole step (vector.VectorEnv.step, as step() then restart() with the env's
 * bookkeeping): every action checked against its mask row before any game moves, then applied; a game that
 * ends gets its returns, reward and termination, its episode count goes up and its next game starts from
 * its seed, the seed after it derived from the env's seed (words: uint32, NumPy's entropy words of it) as
 * episode_seed does. RuntimeError where a new game ends at once (no shipped template does). */
static PyObject *py_vec_play(PyObject *self, PyObject *args) {
    PyObject *info, *states, *ids, *o_words, *o_act, *obs, *masks, *o_to_act, *o_rew, *o_ret, *o_term, *o_eps, *o_seeds;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOO", &info, &states, &ids, &o_words, &o_act, &obs, &masks, &o_to_act,
                          &o_rew, &o_ret, &o_term, &o_eps, &o_seeds))
        return NULL;
    VecBufs b;
    BatchIO io = {0};
    Py_buffer wv = {0}, sd = {0};
    PyObject *result = NULL;
    FF *c = vec_work();
    if (!c) return PyErr_NoMemory();
    if (vec_acquire(&b, info, states, ids, obs, masks) < 0) goto done;
    int players = b.in->g.players;
    if (PyObject_GetBuffer(o_words, &wv, PyBUF_C_CONTIGUOUS) < 0 || wv.len % 4 || wv.len < 4 ||
        wv.len / 4 > SEEDSEQ_MAX_WORDS - 4) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "seed words: uint32; one int64 action per game");
        goto done;
    }
    if (batch_io(&io, b.n, players, o_act, o_to_act, o_rew, o_ret, o_term, "terminations", o_eps) < 0 ||
        batch_buffer(o_seeds, &sd, b.n * 8, "seeds") < 0)
        goto done;
    const long long *acts = io.acts;
    if (batch_check(acts, b.n, (const signed char *)b.masks.buf, VEC_IDS) < 0) goto done;
    const uint32_t *words = (const uint32_t *)wv.buf;
    int nwords = (int)(wv.len / 4);
    short *to_act = io.to_act;
    float *rewards = io.rewards, *returns = io.returns;
    unsigned char *terminated = io.ended;
    long long *episodes = io.episodes, *seeds = (long long *)sd.buf;
    batch_io_clear(&io, b.n, players);
    for (Py_ssize_t i = 0; i < b.n; i++) {
        vec_ctx(&b, c, i);
        int mover = c->f->turn;
        if (c->f->phase == PH_OVER || c->f->phase == PH_DRAW || vec_apply(c, (int)acts[i]) < 0) {
            PyErr_Format(PyExc_ValueError, "game %zd: no seat to act, or action %lld is not legal", i, acts[i]);
            goto done;
        }
        if (c->f->phase != PH_OVER) {
            vec_row(&b, c, i, to_act);
            continue;
        }
        vec_returns(c, returns + i * players);
        rewards[i] = returns[i * players + mover];
        terminated[i] = 1;
        episodes[i]++;
        vec_ctx(&b, c, i);
        vec_new_game(c, seeds[i]);
        seeds[i] = seedseq_episode(words, nwords, (uint64_t)i, (uint64_t)episodes[i] + 1);
        if (c->f->phase == PH_OVER) {
            PyErr_Format(PyExc_RuntimeError, "game %zd: a new game ended at once, which the compiled batch cannot start", i);
            goto done;
        }
        vec_row(&b, c, i, to_act);
    }
    result = Py_NewRef(Py_None);
done:
    BATCH_RELEASE(&wv, &sd);
    batch_io_release(&io);
    vec_release(&b);
    return result;
}

/* sample(states, ids, draws, out): one legal id per game (core/_batch.h). */
static PyObject *py_vec_sample(PyObject *self, PyObject *args) {
    return batch_sample(args, sizeof(VecSlot), offsetof(VecSlot, count), VEC_IDS);
}

static PyMethodDef vec_methods[] = {
    {"init", py_init, METH_VARARGS, "init(shapes, rotations): as the kernel's (CompiledFormfinity calls it)"},
    {"info_bytes", py_vec_info_bytes, METH_NOARGS, "the bytes of a batch's shared info"},
    {"state_bytes", py_vec_state_bytes, METH_NOARGS, "the bytes of one game's state"},
    {"prepare_batch", py_vec_prepare, METH_VARARGS, "the set-up, template planes and card features into info"},
    {"load", py_vec_load, METH_VARARGS, "load a FormfinityState into game i"},
    {"export", py_vec_export, METH_VARARGS, "game i's state"},
    {"write", py_vec_write, METH_VARARGS, "game i's observation and mask rows"},
    {"step", py_vec_step, METH_VARARGS, "apply one action per game; the games that ended"},
    {"restart", py_vec_restart, METH_VARARGS, "start the listed games anew from their seeds; those over at once"},
    {"play", py_vec_play, METH_VARARGS, "the vector env's step: actions checked, applied, games restarted"},
    {"sample", py_vec_sample, METH_VARARGS, "one uniformly random legal id per game"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef vec_moduledef = {PyModuleDef_HEAD_INIT, "_cformfinity_vec",
                                           "A batch of FORMFINITY games stepped in C.", -1, vec_methods};

PyMODINIT_FUNC PyInit__cformfinity_vec(void) { return batch_module(&vec_moduledef, VEC_IDS); }
