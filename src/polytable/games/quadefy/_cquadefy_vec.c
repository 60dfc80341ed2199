/* polytable.games.quadefy._cquadefy_vec: a batch of Quadefy games held in C and stepped in one call, for the
 * batched environment (polytable.interop.vector). Per game and step: the placement id is applied as the
 * kernel's apply does, and the next seat's observation planes and legal-action mask are written into
 * preallocated NumPy rows, with no Python object made.
 *
 * The rules are the compiled kernel's own: this unit includes _cquadefy.c (its tables and init) and the
 * extension links the move generator (quadefy_moves.c). A new game is made by the Python rules
 * (Game.new_game) and loaded with load(); the pure rules stay the reference the batch is tested against
 * (tests/interop/test_vector_fast.py). The functions take the same arguments as _cforma_vec's, so
 * polytable.interop._batch drives both the same way (``size`` is unused here).
 */
#include "_cquadefy.c"
#include "../../core/_batch.h" /* the callers' buffers, one legal id drawn per game */

#define VEC_IDS 2172 /* the game's dense ids: one per placement */
#define VEC_MOVES 16  /* 8 blocks a seat */
#define VEC_CHANNELS 9

/* A game of the batch: position, flags, the placements made (QuadefyState.moves) and how many legal ids
 * its mask row holds (listed in its ids row: the next write clears only those). */
typedef struct {
    QPos q;
    int flags, nmoves, moves[VEC_MOVES], count;
} VecSlot;

/* The legal placement ids of the seat to move (the kernel's legal(), rules order) into both rows. */
static void vec_mask(VecSlot *v, signed char *mask, int *ids) {
    for (int k = 0; k < v->count; k++) mask[ids[k]] = 0;
    v->count = 0;
    if (v->q.loser >= 0) return;
    int n = qs_legal(v->q.occ, v->q.rem[v->q.to_move] & 255, v->flags, ids);
    for (int k = 0; k < n; k++) mask[ids[k]] = 1;
    v->count = n;
}

/* The observation of ``observer`` (polytable.interop._fast's Quadefy codec): per seat from the observer on,
 * four planes, layer z's cell (row, column) being bit 16 z + 4 row + column of its cubes; then one plane of
 * features row by row: per seat, whether each of the 8 blocks is in hand. */
static void vec_obs(const VecSlot *v, int observer, unsigned char *out) {
    for (int cell = 0; cell < 16; cell++) {
        unsigned char *o = out + cell * VEC_CHANNELS;
        for (int k = 0; k < 2; k++) {
            uint64_t own = v->q.own[(observer + k) & 1];
            for (int z = 0; z < 4; z++) o[4 * k + z] = (unsigned char)(own >> (16 * z + cell) & 1);
        }
        int seat = (observer + cell / 8) & 1;
        o[8] = (unsigned char)(v->q.rem[seat] >> (cell % 8) & 1);
    }
}

/* Apply a placement for the seat to move (the kernel's apply, which the caller's mask made legal), and list
 * the next seat's placements into its mask row: none, and that seat has lost (the kernel's qs_any). */
static void vec_apply(VecSlot *v, int pid, signed char *mask, int *ids) {
    QPos *q = &v->q;
    int p = q->to_move;
    q->occ |= p_mask[pid];
    q->own[p] |= p_mask[pid];
    q->rem[p] &= ~(1 << p_block[pid]);
    q->to_move = 1 - p;
    if (v->nmoves < VEC_MOVES) v->moves[v->nmoves++] = pid;
    vec_mask(v, mask, ids);
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
    v.count = slot->count; /* the row's ids are cleared on the next write */
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
    Py_buffer states, ids, obs, masks;
    Py_ssize_t n;
} VecBufs;

static void vec_release(VecBufs *b) {
    if (b->states.obj) PyBuffer_Release(&b->states);
    if (b->ids.obj) PyBuffer_Release(&b->ids);
    if (b->obs.obj) PyBuffer_Release(&b->obs);
    if (b->masks.obj) PyBuffer_Release(&b->masks);
}

static int vec_acquire(VecBufs *b, PyObject *states, PyObject *ids, PyObject *obs, PyObject *masks) {
    memset(b, 0, sizeof *b);
    if (!check_ready()) return -1;
    if (PyObject_GetBuffer(obs, &b->obs, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE | PyBUF_ND) < 0) return -1;
    if (b->obs.ndim != 4 || b->obs.itemsize != 1 || b->obs.shape[1] != 4 || b->obs.shape[2] != 4 ||
        b->obs.shape[3] != VEC_CHANNELS) {
        PyErr_SetString(PyExc_ValueError, "observations must be uint8 (games, 4, 4, 9)");
        return -1;
    }
    b->n = b->obs.shape[0];
    if (batch_buffer(states, &b->states, b->n * (Py_ssize_t)sizeof(VecSlot), "states") < 0 ||
        batch_buffer(ids, &b->ids, b->n * (Py_ssize_t)VEC_IDS * 4, "ids") < 0 ||
        batch_buffer(masks, &b->masks, b->n * (Py_ssize_t)VEC_IDS, "masks") < 0)
        return -1;
    return 0;
}

static signed char *vec_mask_row(VecBufs *b, Py_ssize_t i) { return (signed char *)b->masks.buf + i * (Py_ssize_t)VEC_IDS; }
static int *vec_ids_row(VecBufs *b, Py_ssize_t i) { return (int *)b->ids.buf + i * (Py_ssize_t)VEC_IDS; }

/* Game i's seat to act and observation; its mask too unless ``listed`` (vec_apply wrote it). */
static void vec_row(VecBufs *b, Py_ssize_t i, short *to_act, int listed) {
    VecSlot *v = (VecSlot *)b->states.buf + i;
    to_act[i] = (short)v->q.to_move;
    vec_obs(v, v->q.to_move, (unsigned char *)b->obs.buf + i * 16 * VEC_CHANNELS);
    if (!listed) vec_mask(v, vec_mask_row(b, i), vec_ids_row(b, i));
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
    if (vec_acquire(&b, states, ids, obs, masks) < 0 || batch_buffer(o_to_act, &ta, b.n * 2, "to_act") < 0) goto done;
    if (i < 0 || i >= b.n) {
        PyErr_SetString(PyExc_IndexError, "game index out of range");
        goto done;
    }
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

/* step(states, ids, size, actions, obs, masks, index, to_act, rewards, returns[, fresh]) -> games that
 * ended: as _cforma_vec.step (the winner's return 1, the loser's -1). With ``fresh`` (the bytes of a loaded
 * new game: Quadefy has no chance, so every new game is the same), a game that ends starts again from it
 * here, its rows written: the caller only counts the episode. */
static PyObject *py_vec_step(PyObject *self, PyObject *args) {
    PyObject *states, *ids, *o_act, *obs, *masks, *index, *o_to_act, *o_rew, *o_ret, *o_fresh = Py_None;
    int size;
    if (!PyArg_ParseTuple(args, "OOiOOOOOOO|O", &states, &ids, &size, &o_act, &obs, &masks, &index, &o_to_act, &o_rew,
                          &o_ret, &o_fresh))
        return NULL;
    VecBufs b;
    Py_buffer act = {0}, ta = {0}, rew = {0}, ret = {0}, fr = {0};
    PyObject *ended = NULL;
    const VecSlot *fresh = NULL;
    if (vec_acquire(&b, states, ids, obs, masks) < 0) goto done;
    if (o_fresh != Py_None) {
        if (PyObject_GetBuffer(o_fresh, &fr, PyBUF_C_CONTIGUOUS) < 0) goto done;
        if (fr.len != (Py_ssize_t)sizeof(VecSlot) || ((const VecSlot *)fr.buf)->q.loser >= 0) {
            PyErr_SetString(PyExc_ValueError, "fresh must be one game's state, not over");
            goto done;
        }
        fresh = (const VecSlot *)fr.buf;
    }
    if (PyObject_GetBuffer(o_act, &act, PyBUF_C_CONTIGUOUS) < 0 || act.len != b.n * 8 ||
        batch_buffer(o_to_act, &ta, b.n * 2, "to_act") < 0 || batch_buffer(o_rew, &rew, b.n * 4, "rewards") < 0 ||
        batch_buffer(o_ret, &ret, b.n * 2 * 4, "returns") < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one int64 action per game");
        goto done;
    }
    const long long *acts = (const long long *)act.buf;
    short *to_act = (short *)ta.buf;
    float *rewards = (float *)rew.buf, *returns = (float *)ret.buf;
    VecSlot *slots = (VecSlot *)b.states.buf;
    ended = PyList_New(0);
    if (!ended) goto done;
    memset(rewards, 0, (size_t)b.n * 4);
    memset(returns, 0, (size_t)b.n * 2 * 4);
    for (Py_ssize_t i = 0; i < b.n; i++) {
        VecSlot *v = &slots[i];
        int mover = v->q.to_move;
        long long id = acts[i];
        if (v->q.loser >= 0 || id < 0 || id >= n_place) {
            PyErr_Format(PyExc_ValueError, "game %zd: no seat to act or action out of range", i);
            Py_CLEAR(ended);
            goto done;
        }
        vec_apply(v, (int)id, vec_mask_row(&b, i), vec_ids_row(&b, i));
        if (v->q.loser < 0) {
            vec_row(&b, i, to_act, 1);
            continue;
        }
        returns[2 * i + v->q.loser] = -1.0f;
        returns[2 * i + 1 - v->q.loser] = 1.0f;
        rewards[i] = returns[2 * i + mover];
        PyObject *k = PyLong_FromSsize_t(i);
        if (!k || PyList_Append(ended, k) < 0) {
            Py_XDECREF(k);
            Py_CLEAR(ended);
            goto done;
        }
        Py_DECREF(k);
        if (fresh) {
            int count = v->count;
            *v = *fresh;
            v->count = count;
            vec_row(&b, i, to_act, 0);
        }
    }
done:
    if (fr.obj) PyBuffer_Release(&fr);
    if (act.obj) PyBuffer_Release(&act);
    if (ta.obj) PyBuffer_Release(&ta);
    if (rew.obj) PyBuffer_Release(&rew);
    if (ret.obj) PyBuffer_Release(&ret);
    vec_release(&b);
    return ended;
}

/* sample(states, ids, draws, out): one legal id per game (core/_batch.h). */
static PyObject *py_vec_sample(PyObject *self, PyObject *args) {
    return batch_sample(args, sizeof(VecSlot), offsetof(VecSlot, count), VEC_IDS);
}

static PyMethodDef vec_methods[] = {
    {"init", py_init, METH_VARARGS, "init(solver_tables, pmask, pblock, porient, pbit): the kernel's tables"},
    {"bind", py_bind, METH_VARARGS, "bind(state_class): as the kernel's (CompiledQuadefy calls it)"},
    {"state_bytes", py_vec_state_bytes, METH_NOARGS, "the bytes of one game's state"},
    {"load", py_vec_load, METH_VARARGS, "load a QuadefyState's fields into game i"},
    {"export", py_vec_export, METH_VARARGS, "game i's state fields"},
    {"write", py_vec_write, METH_VARARGS, "game i's observation and mask rows"},
    {"step", py_vec_step, METH_VARARGS, "apply one action per game; the games that ended"},
    {"sample", py_vec_sample, METH_VARARGS, "one uniformly random legal id per game"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef vec_moduledef = {PyModuleDef_HEAD_INIT, "_cquadefy_vec",
                                           "A batch of Quadefy games stepped in C.", -1, vec_methods};

PyMODINIT_FUNC PyInit__cquadefy_vec(void) {
    PyObject *m = PyModule_Create(&vec_moduledef);
    if (m && PyModule_AddIntConstant(m, "NUM_IDS", VEC_IDS) < 0) Py_CLEAR(m);
    return m;
}
