/* polytable.ai.formfinity._cformfinity_greedy: the lines goal's greedy playout in C, the AI's
 * ai/formfinity/_greedy.py step for step. AI code, so beside the players; the rules are the game's compiled
 * kernel, included downward (games/formfinity/_cformfinity.c, whose functions take a game's context FF, as
 * the batch _cformfinity_vec.c includes it): this extension loads the shape tables itself (init) and reads
 * the set-up the rules' extension prepared (the same FFSetup, checked by size). greedy_place is
 * _greedy.greedy_place (the one-ply greedy's value of every placement of the next element from one bitboard
 * pass per direction over `drawn | placement`, ties drawn uniformly with the sample's generator, as
 * Rng.below), greedy_run is _greedy.greedy_run (card draws from the state's generator and greedy placements
 * to the horizon: my next draw). A claim choice, an area choice or an element without a placement is left
 * to Python (one step, then the run resumes). */
#include "../../games/formfinity/_cformfinity.c"

#define MAXPICKS (4 * NW * 64)
static int pick_s[MAXPICKS], pick_b[MAXPICKS]; /* greedy_place's ties (scratch: the GIL is held) */

/* _greedy.near_lines: start bits of the windows of g->length squares along `off` that `board` fills but
 * for one square (`short_`) and of those it fills (`full`). */
static void near_lines(FF *c, const BB *board, int off, BB *short_, BB *full) {
    const FFSetup *g = c->g;
    BB pres[MAXSIDE + 1], planes[MAXSIDE], suf, t;
    int L = g->length;
    memset(&pres[0], 0xff, sizeof(BB));
    for (int i = 0; i < L; i++) {
        b_shr(board, off * i, &planes[i]);
        pres[i + 1] = pres[i];
        b_and(&pres[i + 1], &planes[i]);
    }
    memset(&suf, 0xff, sizeof(BB));
    memset(short_, 0, sizeof(BB));
    for (int i = L - 1; i >= 0; i--) {
        t = pres[i];
        b_and(&t, &suf);
        b_or(short_, &t);
        b_and(&suf, &planes[i]);
    }
    b_andnot(short_, &suf);
    *full = suf;
    for (int j = nw; j < NW; j++) full->w[j] = 0;
}

/* _greedy.line_rooms and _greedy.claim_starts for every direction (unused ones are left empty). */
static void rooms_and_claims(FF *c, BB *room, BB *ok) {
    const FFSetup *g = c->g;
    FFState *f = c->f;
    BB every, by[4], spread, t;
    int L = g->length;
    memset(by, 0, sizeof(by));
    memset(&every, 0, sizeof(every));
    for (int i = 0; i < f->nlines; i++) {
        int d = f->lines[i][1], b = f->lines[i][2], off = line_off(c, d);
        for (int k = 0; k < L; k++) {
            b_set(&by[d], b + off * k);
            b_set(&every, b + off * k);
        }
    }
    for (int d = 0; d < 4; d++) {
        memset(&room[d], 0, sizeof(BB));
        memset(&ok[d], 0, sizeof(BB));
        if (!(g->dirs >> d & 1)) continue;
        int off = line_off(c, d);
        room[d] = g->playable;
        for (int i = 1; i < L; i++) {
            b_shr(&g->playable, off * i, &t);
            b_and(&room[d], &t);
        }
        ok[d] = room[d];
        const BB *forbid = g->hard ? &every : &by[d];
        if (!b_any(forbid)) continue;
        spread = *forbid;
        for (int i = 1; i < L; i++) {
            b_shr(forbid, off * i, &t);
            b_or(&spread, &t);
        }
        b_andnot(&ok[d], &spread);
    }
}

/* _greedy.greedy_place for the mover among cur_* (cur_placements first): the chosen placement's mask;
 * 0 when there is none, -1 when a table would overflow (the caller declines). */
static int greedy_place(FF *c, uint64_t *rng, BB *out) {
    const FFSetup *g = c->g;
    FFState *f = c->f;
    BB room[4], ok[4], drawn, mask, nb, sh, fl;
    int counts[MAXPLAYERS] = {0}, p = f->turn, n = 0, fd[MAXLINES], fb[MAXLINES];
    double best = -1.0 / 0.0;
    if (!c->cur_n) return 0;
    rooms_and_claims(c, room, ok);
    for (int i = 0; i < f->nlines; i++) counts[f->lines[i][0]]++;
    int mine = counts[p], opp = -1;
    for (int q = 0; q < g->players; q++)
        if (q != p && counts[q] > opp) opp = counts[q];
    double tw0 = f->left > 1 ? 4.0 : -8.0;
    drawn_bb(c, &drawn);
    for (int i = 0; i < c->cur_n; i++) {
        int s = c->cur_s[i];
        for (int j = 0; j < nw; j++)
            for (uint64_t w = c->cur_a[i].w[j]; w; w &= w - 1) {
                int at = j * 64 + __builtin_ctzll(w), threats = 0, gained = 0;
                shape_mask(c, s, at, &mask);
                nb = drawn;
                b_or(&nb, &mask);
                for (int d = 0; d < 4; d++) {
                    if (!(g->dirs >> d & 1)) continue;
                    near_lines(c, &nb, line_off(c, d), &sh, &fl);
                    b_and(&sh, &room[d]);
                    b_and(&fl, &ok[d]);
                    for (int k = 0; k < nw; k++) threats += __builtin_popcountll(sh.w[k]);
                    for (int b = b_lowest(&fl); b >= 0; b = b_lowest(&fl)) {
                        fl.w[b >> 6] &= ~(1ULL << (b & 63));
                        if (gained == MAXLINES) return -1;
                        fd[gained] = d;
                        fb[gained++] = b;
                    }
                }
                double tw = tw0, value;
                if (gained > 1) { /* lines that exclude each other: a claim choice, valued as such */
                    int compatible = 1;
                    for (int a = 0; compatible && a < gained; a++)
                        for (int e = a + 1; compatible && e < gained; e++)
                            if ((g->hard || fd[a] == fd[e]) && windows_meet(c, fd[a], fb[a], fd[e], fb[e])) compatible = 0;
                    if (!compatible) {
                        gained = 0;
                        tw = 4.0;
                    }
                }
                if (mine + gained >= g->target) value = 10000.0;
                else value = 100.0 * (mine + gained - opp) + tw * threats;
                if (value > best + 1e-9) {
                    best = value;
                    n = 0;
                }
                if (value >= best - 1e-9) {
                    if (n == MAXPICKS) return -1;
                    pick_s[n] = s;
                    pick_b[n++] = at;
                }
            }
    }
    int k = n > 1 ? (int)below(rng, (uint64_t)n) : 0;
    shape_mask(c, pick_s[k], pick_b[k], out);
    return 1;
}

/* _greedy.claimable_holes: how many free squares would each complete a line that may still be claimed. */
static int claimable_holes(FF *c) {
    const FFSetup *g = c->g;
    BB room[4], ok[4], drawn, holes, sh, fl;
    int n = 0, L = g->length;
    rooms_and_claims(c, room, ok);
    drawn_bb(c, &drawn);
    memset(&holes, 0, sizeof(holes));
    for (int d = 0; d < 4; d++) {
        if (!(g->dirs >> d & 1)) continue;
        int off = line_off(c, d);
        near_lines(c, &drawn, off, &sh, &fl);
        b_and(&sh, &ok[d]);
        for (int b = b_lowest(&sh); b >= 0; b = b_lowest(&sh)) {
            sh.w[b >> 6] &= ~(1ULL << (b & 63));
            for (int k = 0; k < L; k++)
                if (!b_get(&drawn, b + off * k)) b_set(&holes, b + off * k);
        }
    }
    for (int j = 0; j < nw; j++) n += __builtin_popcountll(holes.w[j]);
    return n;
}

/* greedy_run(setup, deck, lines, numbers, buffer) -> (deck, lines, numbers), the rest of the end state, the
 * generator (rngs[0]), left_me, steps, done and holes written into the buffer (_kernel.PLAYOUT); or None
 * (declined: Python runs; nothing written). setup: a buffer of prepare(). */
static PyObject *py_greedy_run(PyObject *self, PyObject *args) {
    PyObject *osetup, *odeck, *olines, *onum;
    Py_buffer view, sview;
    PlayoutBuf in;
    FF ctx, *c = &ctx;
    int done = 0;
    if (!PyArg_ParseTuple(args, "OOOOw*", &osetup, &odeck, &olines, &onum, &view)) return NULL;
    int r = call_begin(c, osetup, &sview, &view, &in, odeck, olines, onum);
    if (r < 0) return NULL;
    if (r > 0) Py_RETURN_NONE;
    if (c->g->goal != G_LINES || c->g->players < 2) {
        call_end(c, &sview, &view);
        Py_RETURN_NONE;
    }
    FFState *f = c->f;
    uint64_t rng = in.rngs[0];
    int me = (int)in.me, left_me = in.left_me != 0;
    long steps = (long)in.steps;
    if (f->phase == PH_PLACE) cur_placements(c); /* from here on continue_turn keeps cur_* current */
    while (steps > 0) {
        if (f->phase == PH_OVER) {
            done = 1;
            break;
        }
        if (f->phase == PH_DRAW) {
            if (left_me && f->turn == me) {
                done = 1;
                break;
            }
            chance(c);
            steps--;
        } else {
            BB mask;
            if (f->turn != me) left_me = 1;
            else if (left_me && f->phase == PH_CHOOSE) {
                done = 1;
                break;
            }
            if (f->phase != PH_PLACE || !c->cur_n) break;
            int got = greedy_place(c, &rng, &mask);
            if (got <= 0) {
                if (got < 0) c->fail = 1;
                break;
            }
            apply_place(c, &mask);
            steps--;
        }
        if (c->fail) break;
    }
    PyObject *out = Py_None;
    if (c->fail) Py_INCREF(out);
    else {
        if (steps <= 0) done = 1;
        in.holes = done && f->phase != PH_OVER ? claimable_holes(c) : 0;
        in.rngs[0] = rng;
        in.left_me = left_me;
        in.steps = steps;
        in.done = done;
        out = write_state(c, &in, view.buf, odeck, olines, onum);
    }
    call_end(c, &sview, &view);
    return out;
}

static PyMethodDef greedy_methods[] = {
    {"init", py_init, METH_VARARGS,
     "init(shapes, rotations): every shape's cells (x, y), the index is the shape id, and its orientations."},
    {"setup_bytes", py_setup_bytes, METH_NOARGS, "setup_bytes() -> the size of a prepared set-up."},
    {"layout", py_layout, METH_NOARGS, "layout() -> ((name, offset, size), ...), sizeof: the state buffer."},
    {"greedy_run", py_greedy_run, METH_VARARGS,
     "greedy_run(setup, deck, lines, numbers, buffer) -> (deck, lines, numbers) or None: the greedy to the "
     "horizon; the rest of the state in the buffer."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef greedy_moduledef = {PyModuleDef_HEAD_INIT, "_cformfinity_greedy",
                                              "FORMFINITY's compiled greedy playout (the lines goal).", -1,
                                              greedy_methods};

PyMODINIT_FUNC PyInit__cformfinity_greedy(void) { return PyModule_Create(&greedy_moduledef); }
