/* polytable.games.quadefy._cquadefy_vec: a batch of Quadefy games held in C and stepped in one call, for the
 * batched environment (polytable.interop.vector). Per game and step: the placement id is applied as the
 * kernel's apply does, and the next seat's observation planes and legal-action mask are written into
 * preallocated NumPy rows, with no Python object made.
 *
 * The rules are the compiled kernel's own: this unit includes _cquadefy.c (its tables and init) and the
 * extension links the move generator (quadefy_moves.c). A new game is made by the Python rules
 * (Game.new_game) and loaded with load(); the pure rules stay the reference the batch is tested against
 * (tests/interop/test_vector_fast.py). The functions take the same arguments as _cforma_vec's, so
 * polytable.interop._batch drives both the same way (``size`` and ``ids`` are unused here).
 *
 * The legal placements are found as the kernel's sampler finds its candidates (quadefy_cover.h): bit sets
 * over the placement ids, kept per game and grown by the 4 cells of each placed block (they only grow):
 * the placements meeting an occupied cell, those with a cube on the floor or right above an occupied cell,
 * and, per direction (down from the top, level from each of the 4 sides), those whose straight slide in
 * sweeps an occupied cell. A hand's candidates (on empty cells, supported) are legal without the
 * orientation's rules when the game has neither reachability nor stability; with reachability alone, a
 * candidate with one straight slide clear is reachable and only the others take their orientation's flood
 * fill (one found unreachable stays so: the free translations only shrink); with stability every candidate
 * takes its orientation's rules. The legal set is kept as bits beside the game: a step rewrites only the
 * mask's words of 64 ids that changed, and a random legal action is the k-th set bit (ids in increasing
 * order, the order of the kernel's qs_legal).
 */
#include "_cquadefy.c"
#include "../../core/_batch.h" /* the callers' buffers, the actions' check */

#define VEC_IDS 2172 /* the game's dense ids: one per placement */
#define VEC_MOVES 16  /* 8 blocks a seat */
#define VEC_CHANNELS 9
#define REACH_FLAG 1 /* the option bits (quadefy_gen.h's REACH and STABLE) */
#define STABLE_FLAG 2

/* A game of the batch: position, flags, the placements made (QuadefyState.moves), how many legal ids its
 * mask row holds and which (legal), and the position's sets over placement ids (blk: meeting an occupied
 * cell; sup: a cube on the floor or right above an occupied cell; line[d]: a straight slide in from
 * direction d sweeps an occupied cell). */
typedef struct {
    QPos q;
    int flags, nmoves, moves[VEC_MOVES], count;
    uint64_t legal[NW], blk[NW], sup[NW], line[5][NW];
    uint64_t dead[NW]; /* placements found unreachable (with reachability alone): they stay so */
} VecSlot;

/* ------------------------------------------------------------------ tables (built from the kernel's) */
static uint64_t vec_cell_blk[64][NW], vec_cell_sup[64][NW], vec_floor[NW];
/* vec_cell_line[d][c]: the placements whose straight slide in from direction d (the top, -x, +x, -y, +y)
 * sweeps cell c (quadefy_cover.h's p_line) */
static uint64_t vec_cell_line[5][64][NW];
static uint64_t vec_hand[256][NW]; /* the placements of a hand's blocks */
static int vec_hw0[256], vec_hw1[256]; /* the words where a hand's placements are */
static int vec_words;                  /* words of n_place bits */
static uint64_t vec_spread8[256];      /* byte k of spread8[v] is bit k of v */

static void vec_tables(void) {
    memset(vec_cell_blk, 0, sizeof vec_cell_blk);
    memset(vec_cell_sup, 0, sizeof vec_cell_sup);
    memset(vec_cell_line, 0, sizeof vec_cell_line);
    memset(vec_floor, 0, sizeof vec_floor);
    memset(vec_hand, 0, sizeof vec_hand);
    vec_words = (n_place + 63) / 64;
    for (int p = 0; p < n_place; p++) {
        uint64_t bit = 1ULL << (p & 63);
        int w = p >> 6;
        for (uint64_t x = p_mask[p]; x; x &= x - 1) {
            int c = __builtin_ctzll(x);
            vec_cell_blk[c][w] |= bit;
            if (c < 16) vec_floor[w] |= bit;
            if (c >= 16) vec_cell_sup[c - 16][w] |= bit;
            int cx = c & 3, cy = c >> 2 & 3; /* as quadefy_cover.h's p_line */
            for (int a = c + 16; a < 64; a += 16) vec_cell_line[0][a][w] |= bit;
            for (int i = 0; i < 4; i++) {
                if (i < cx) vec_cell_line[1][c - (cx - i)][w] |= bit;
                if (i > cx) vec_cell_line[2][c + (i - cx)][w] |= bit;
                if (i < cy) vec_cell_line[3][c - 4 * (cy - i)][w] |= bit;
                if (i > cy) vec_cell_line[4][c + 4 * (i - cy)][w] |= bit;
            }
        }
        for (int h = 0; h < 256; h++)
            if (h >> p_block[p] & 1) vec_hand[h][w] |= bit;
    }
    for (int h = 0; h < 256; h++) {
        vec_hw0[h] = vec_words;
        vec_hw1[h] = 0;
        for (int w = 0; w < vec_words; w++)
            if (vec_hand[h][w]) {
                if (vec_hw0[h] == vec_words) vec_hw0[h] = w;
                vec_hw1[h] = w + 1;
            }
    }
    for (int v = 0; v < 256; v++) {
        uint64_t x = 0;
        for (int k = 0; k < 8; k++) x |= (uint64_t)(v >> k & 1) << (8 * k);
        vec_spread8[v] = x;
    }
}

/* The sets of position occ, from nothing (after a load). */
static void vec_covers(VecSlot *v) {
    memset(v->blk, 0, sizeof v->blk);
    memset(v->line, 0, sizeof v->line);
    memset(v->dead, 0, sizeof v->dead);
    memcpy(v->sup, vec_floor, sizeof v->sup);
    for (uint64_t x = v->q.occ; x; x &= x - 1) {
        int c = __builtin_ctzll(x);
        for (int w = 0; w < vec_words; w++) {
            v->blk[w] |= vec_cell_blk[c][w];
            v->sup[w] |= vec_cell_sup[c][w];
            for (int d = 0; d < 5; d++) v->line[d][w] |= vec_cell_line[d][c][w];
        }
    }
}

/* The sets after the 4 cells of mask are occupied, on words [w0, w1) (those of the hands still held: the
 * others are never read again, since hands only shrink). */
static inline void vec_covers_add(VecSlot *v, uint64_t mask, int w0, int w1) {
    int c0 = __builtin_ctzll(mask);
    mask &= mask - 1;
    int c1 = __builtin_ctzll(mask);
    mask &= mask - 1;
    int c2 = __builtin_ctzll(mask);
    mask &= mask - 1;
    int c3 = __builtin_ctzll(mask);
    for (int w = w0; w < w1; w++) {
        v->blk[w] |= vec_cell_blk[c0][w] | vec_cell_blk[c1][w] | vec_cell_blk[c2][w] | vec_cell_blk[c3][w];
        v->sup[w] |= vec_cell_sup[c0][w] | vec_cell_sup[c1][w] | vec_cell_sup[c2][w] | vec_cell_sup[c3][w];
        for (int d = 0; d < 5; d++)
            v->line[d][w] |= vec_cell_line[d][c0][w] | vec_cell_line[d][c1][w] | vec_cell_line[d][c2][w] |
                             vec_cell_line[d][c3][w];
    }
}

/* The legal placements of the seat to move (the kernel's legal(), as bits over the ids) into out (all
 * vec_words words); their count. */
static int vec_legal(VecSlot *v, uint64_t *out) {
    memset(out, 0, (size_t)vec_words * 8);
    if (v->q.loser >= 0) return 0;
    int rem = v->q.rem[v->q.to_move] & 255, flags = v->flags & (REACH_FLAG | STABLE_FLAG), n = 0;
    const uint64_t *hand = vec_hand[rem];
    uint64_t occ = v->q.occ, occ_p[8], sup_p[8], obits[MAXO][4];
    unsigned char seen[MAXO];
    int boards = 0;
    for (int w = vec_hw0[rem]; w < vec_hw1[rem]; w++) {
        uint64_t cand = hand[w] & v->sup[w] & ~v->blk[w], ok = cand, test = 0;
        if (flags == REACH_FLAG) { /* slid straight in from the top or a side, else the flood fill */
            test = cand & v->line[0][w] & v->line[1][w] & v->line[2][w] & v->line[3][w] & v->line[4][w];
            ok = cand & ~test;
            test &= ~v->dead[w];
        } else if (flags) {
            test = cand;
            ok = 0;
        }
        for (; test; test &= test - 1) {
            int p = 64 * w + __builtin_ctzll(test);
            int o = p_orient[p];
            if (!boards) {
                qs_boards(occ, occ_p, sup_p);
                memset(seen, 0, sizeof seen);
                boards = 1;
            }
            if (!seen[o]) {
                qs_orient_legal_at(o, occ_p, sup_p, flags, obits[o]);
                seen[o] = 1;
            }
            if (obits[o][p_bit[p] >> 6] >> (p_bit[p] & 63) & 1)
                ok |= test & -test;
            else if (flags == REACH_FLAG) /* the free translations only shrink: unreachable for good */
                v->dead[w] |= test & -test;
        }
        out[w] = ok;
        n += __builtin_popcountll(ok);
    }
    return n;
}

/* The mask row and the game's legal bits become the seat to move's: only the words of ids that changed are written. */
static void vec_mask(VecSlot *v, signed char *mask) {
    uint64_t now[NW];
    v->count = vec_legal(v, now);
    for (int w = 0; w < vec_words; w++) {
        if (now[w] == v->legal[w]) continue;
        v->legal[w] = now[w];
        signed char *row = mask + 64 * w;
        if (64 * w + 64 <= VEC_IDS) { /* a word that changed: its 64 ids in 8 stores */
            for (int j = 0; j < 8; j++) memcpy(row + 8 * j, &vec_spread8[now[w] >> (8 * j) & 255], 8);
        } else { /* the row's last ids: nothing past it */
            for (int k = 0; k < VEC_IDS - 64 * w; k++) row[k] = (signed char)(now[w] >> k & 1);
        }
    }
}

/* The observation of ``observer`` (polytable.interop._fast's Quadefy codec): per seat from the observer on,
 * four planes, layer z's cell (row, column) being bit 16 z + 4 row + column of its cubes; then one plane of
 * features row by row: per seat, whether each of the 8 blocks is in hand. A cell's 8 planes are one store:
 * its four layer bits of each seat gathered into a byte and spread (vec_spread8). */
static void vec_obs(const VecSlot *v, int observer, unsigned char *out) {
    const uint64_t layers = 0x0001000100010001ULL;
    uint64_t mine = v->q.own[observer & 1], theirs = v->q.own[(observer + 1) & 1];
    for (int cell = 0; cell < 16; cell++) {
        uint64_t a = mine >> cell & layers, b = theirs >> cell & layers;
        unsigned n = (unsigned)((a | a >> 15 | a >> 30 | a >> 45) & 15) |
                     (unsigned)((b | b >> 15 | b >> 30 | b >> 45) & 15) << 4;
        unsigned char *o = out + cell * VEC_CHANNELS;
        memcpy(o, &vec_spread8[n], 8);
        int seat = (observer + cell / 8) & 1;
        o[8] = (unsigned char)(v->q.rem[seat] >> (cell % 8) & 1);
    }
}

/* Apply a placement for the seat to move (the kernel's apply, which the caller's mask made legal), and list
 * the next seat's placements into its mask row: none, and that seat has lost (the kernel's qs_any). */
static void vec_apply(VecSlot *v, int pid, signed char *mask) {
    QPos *q = &v->q;
    int p = q->to_move;
    q->occ |= p_mask[pid];
    q->own[p] |= p_mask[pid];
    q->rem[p] &= ~(1 << p_block[pid]);
    q->to_move = 1 - p;
    if (v->nmoves < VEC_MOVES) v->moves[v->nmoves++] = pid;
    int held = (q->rem[0] | q->rem[1]) & 255;
    vec_covers_add(v, p_mask[pid], vec_hw0[held], vec_hw1[held]);
    vec_mask(v, mask);
    if (!v->count) q->loser = q->to_move;
}

/* ------------------------------------------------------------------ Python */
static PyObject *py_vec_state_bytes(PyObject *self, PyObject *noargs) { return PyLong_FromSize_t(sizeof(VecSlot)); }

/* load(states, i, occupied, owned0, owned1, remaining0, remaining1, to_move, loser, flags, moves) */
static PyObject *py_vec_load(PyObject *self, PyObject *args) {
    PyObject *buf, *o_moves;
    Py_ssize_t i;
    unsigned long long occ, own0, own1;
    int rem0, rem1, to_move, loser, flags;
    if (!PyArg_ParseTuple(args, "OnKKKiiiiiO", &buf, &i, &occ, &own0, &own1, &rem0, &rem1, &to_move, &loser, &flags,
                          &o_moves) ||
        !check_ready())
        return NULL;
    VecSlot v;
    memset(&v, 0, sizeof v);
    v.q.occ = occ;
    v.q.own[0] = own0;
    v.q.own[1] = own1;
    v.q.rem[0] = rem0 & 255;
    v.q.rem[1] = rem1 & 255;
    v.q.to_move = to_move;
    v.q.loser = loser;
    v.flags = flags;
    if (int_list(o_moves, v.moves, VEC_MOVES, &v.nmoves) < 0) return NULL;
    if ((to_move != 0 && to_move != 1) || loser < -1 || loser > 1) {
        PyErr_SetString(PyExc_ValueError, "to_move and loser out of range");
        return NULL;
    }
    Py_buffer view;
    if (i < 0 || batch_buffer(buf, &view, (i + 1) * (Py_ssize_t)sizeof(VecSlot), "states") < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_IndexError, "game index out of range");
        return NULL;
    }
    VecSlot *slot = (VecSlot *)view.buf + i;
    v.count = slot->count; /* the mask row's bits: the next write changes only what differs */
    memcpy(v.legal, slot->legal, sizeof v.legal);
    vec_covers(&v);
    *slot = v;
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

/* export(states, i) -> (occupied, (owned0, owned1), (remaining0, remaining1), moves, to_move, loser) */
static PyObject *py_vec_export(PyObject *self, PyObject *args) {
    PyObject *buf;
    Py_ssize_t i;
    if (!PyArg_ParseTuple(args, "On", &buf, &i)) return NULL;
    Py_buffer view;
    if (i < 0 || batch_buffer(buf, &view, (i + 1) * (Py_ssize_t)sizeof(VecSlot), "states") < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_IndexError, "game index out of range");
        return NULL;
    }
    VecSlot v = ((VecSlot *)view.buf)[i];
    PyBuffer_Release(&view);
    PyObject *moves = PyTuple_New(v.nmoves);
    if (!moves) return NULL;
    for (int k = 0; k < v.nmoves; k++) PyTuple_SET_ITEM(moves, k, PyLong_FromLong(v.moves[k]));
    return Py_BuildValue("(K(KK)(ii)Nii)", (unsigned long long)v.q.occ, (unsigned long long)v.q.own[0],
                         (unsigned long long)v.q.own[1], v.q.rem[0], v.q.rem[1], moves, v.q.to_move, v.q.loser);
}

typedef struct {
    Py_buffer states, obs, masks;
    Py_ssize_t n;
} VecBufs;

static void vec_release(VecBufs *b) { BATCH_RELEASE(&b->states, &b->obs, &b->masks); }

static int vec_acquire(VecBufs *b, PyObject *states, PyObject *obs, PyObject *masks) {
    memset(b, 0, sizeof *b);
    if (!check_ready()) return -1;
    if ((b->n = batch_obs(obs, &b->obs, 4, 4, VEC_CHANNELS)) < 0) return -1;
    if (batch_buffer(states, &b->states, b->n * (Py_ssize_t)sizeof(VecSlot), "states") < 0 ||
        batch_buffer(masks, &b->masks, b->n * (Py_ssize_t)VEC_IDS, "masks") < 0)
        return -1;
    return 0;
}

static signed char *vec_mask_row(VecBufs *b, Py_ssize_t i) { return (signed char *)b->masks.buf + i * (Py_ssize_t)VEC_IDS; }

/* Game i's seat to act and observation; its mask too unless ``listed`` (vec_apply wrote it). */
static void vec_row(VecBufs *b, Py_ssize_t i, short *to_act, int listed) {
    VecSlot *v = (VecSlot *)b->states.buf + i;
    to_act[i] = (short)v->q.to_move;
    vec_obs(v, v->q.to_move, (unsigned char *)b->obs.buf + i * 16 * VEC_CHANNELS);
    if (!listed) vec_mask(v, vec_mask_row(b, i));
}

/* write(states, ids, size, i, obs, masks, index, to_act): the rows of game i (after a load). */
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
    if (((VecSlot *)b.states.buf)[i].q.loser >= 0) {
        PyErr_SetString(PyExc_ValueError, "the game has no seat to act");
        goto done;
    }
    vec_row(&b, i, (short *)ta.buf, 0);
    result = Py_NewRef(Py_None);
done:
    if (ta.obj) PyBuffer_Release(&ta);
    vec_release(&b);
    return result;
}

/* step(states, ids, size, actions, obs, masks, index, to_act, rewards, returns, terminations[, fresh[,
 * episodes]]) -> how many games ended: as _cforma_vec.step (the winner's return 1, the loser's -1). With
 * ``fresh`` (the bytes of a loaded new game: Quadefy has no chance, so every new game is the same), a game that
 * ends starts again from it here, its rows written: the caller only counts the episode, or not even that with
 * ``episodes`` (int64 per game, each game's count raised here when it ends: the vector env's whole step). */
static PyObject *py_vec_step(PyObject *self, PyObject *args) {
    PyObject *states, *ids, *o_act, *obs, *masks, *index, *o_to_act, *o_rew, *o_ret, *o_term, *o_fresh = Py_None;
    PyObject *o_eps = Py_None;
    int size;
    if (!PyArg_ParseTuple(args, "OOiOOOOOOOO|OO", &states, &ids, &size, &o_act, &obs, &masks, &index, &o_to_act,
                          &o_rew, &o_ret, &o_term, &o_fresh, &o_eps))
        return NULL;
    VecBufs b;
    BatchIO io = {0};
    Py_buffer fr = {0};
    PyObject *result = NULL;
    const VecSlot *fresh = NULL;
    if (vec_acquire(&b, states, obs, masks) < 0) goto done;
    if (o_fresh != Py_None) {
        if (PyObject_GetBuffer(o_fresh, &fr, PyBUF_C_CONTIGUOUS) < 0) goto done;
        if (fr.len != (Py_ssize_t)sizeof(VecSlot) || ((const VecSlot *)fr.buf)->q.loser >= 0) {
            PyErr_SetString(PyExc_ValueError, "fresh must be one game's state, not over");
            goto done;
        }
        fresh = (const VecSlot *)fr.buf;
    }
    if (batch_io(&io, b.n, 2, o_act, o_to_act, o_rew, o_ret, o_term, "terminations", o_eps == Py_None ? NULL : o_eps) <
        0)
        goto done;
    long long *episodes = io.episodes; /* NULL: the caller counts the episodes */
    const long long *acts = io.acts;
    short *to_act = io.to_act;
    float *rewards = io.rewards, *returns = io.returns;
    unsigned char *ended = io.ended;
    VecSlot *slots = (VecSlot *)b.states.buf;
    if (batch_check(acts, b.n, (const signed char *)b.masks.buf, VEC_IDS) < 0) goto done;
    for (Py_ssize_t i = 0; i < b.n; i++)
        if (slots[i].q.loser >= 0) {
            PyErr_Format(PyExc_ValueError, "game %zd has no seat to act", i);
            goto done;
        }
    batch_io_clear(&io, b.n, 2);
    Py_ssize_t count = 0;
    for (Py_ssize_t i = 0; i < b.n; i++) {
        VecSlot *v = &slots[i];
        int mover = v->q.to_move;
        vec_apply(v, (int)acts[i], vec_mask_row(&b, i));
        if (v->q.loser < 0) {
            vec_row(&b, i, to_act, 1);
            continue;
        }
        returns[2 * i + v->q.loser] = -1.0f;
        returns[2 * i + 1 - v->q.loser] = 1.0f;
        rewards[i] = returns[2 * i + mover];
        ended[i] = 1;
        count++;
        if (episodes) episodes[i]++;
        if (fresh) {
            uint64_t legal[NW];
            int was = v->count;
            memcpy(legal, v->legal, sizeof legal);
            *v = *fresh;
            v->count = was;
            memcpy(v->legal, legal, sizeof legal);
            vec_row(&b, i, to_act, 0);
        }
    }
    result = PyLong_FromSsize_t(count);
done:
    if (fr.obj) PyBuffer_Release(&fr);
    batch_io_release(&io);
    vec_release(&b);
    return result;
}

/* A game's legal id number k in increasing order: the k-th set bit of its legal words. */
static long long vec_pick(const void *slot, const int *ids, int k) {
    (void)ids; /* the batch keeps no ids row */
    return bits_select(((const VecSlot *)slot)->legal, vec_words, k);
}

/* sample(states, ids, draws, out): for each game, its legal id number floor(draws[i] * count) in increasing
 * order (uniform over the legal ids for uniform draws; core/_batch.h). */
static PyObject *py_vec_sample(PyObject *self, PyObject *args) {
    return batch_sample_by(args, sizeof(VecSlot), offsetof(VecSlot, count), 0, vec_pick);
}

/* init(...): the kernel's init (_cquadefy.c), then the batch's tables built from the kernel's. */
static PyObject *py_vec_init(PyObject *self, PyObject *args) {
    PyObject *got = py_init(self, args);
    if (got) vec_tables();
    return got;
}

static PyMethodDef vec_methods[] = {
    {"init", py_vec_init, METH_VARARGS, "init(solver_tables, pmask, pblock, porient, pbit): the kernel's tables"},
    {"bind", py_bind, METH_VARARGS, "bind(state_class): as the kernel's (CompiledQuadefy calls it)"},
    {"state_bytes", py_vec_state_bytes, METH_NOARGS, "the bytes of one game's state"},
    {"load", py_vec_load, METH_VARARGS, "load a QuadefyState's fields into game i"},
    {"export", py_vec_export, METH_VARARGS, "game i's state fields"},
    {"write", py_vec_write, METH_VARARGS, "game i's observation and mask rows"},
    {"step", py_vec_step, METH_VARARGS, "apply one action per game; how many games ended"},
    {"sample", py_vec_sample, METH_VARARGS, "one uniformly random legal id per game"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef vec_moduledef = {PyModuleDef_HEAD_INIT, "_cquadefy_vec",
                                           "A batch of Quadefy games stepped in C.", -1, vec_methods};

PyMODINIT_FUNC PyInit__cquadefy_vec(void) { return batch_module(&vec_moduledef, VEC_IDS); }
