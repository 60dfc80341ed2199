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
 * order, the order of the kernel's qs_legal), found by each word's count of the legal ids before it.
 *
 * The step itself (_cquadefy_vec_step.h) works on 8 words of every set at a time and is compiled three
 * times, plain, AVX2 and AVX-512, the best the CPU runs picked at import (simd() picks another; the tests run
 * each). The vector env holds its buffers here once (hold) and steps with the actions alone (play).
 * Measurements: docs/benchmarks/2026-12-05-quadefy-vector-5x.md.
 */
#include "_cquadefy.c"
#include "../../core/_batch.h" /* the callers' buffers, the actions' check */

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#include <immintrin.h>
#define VEC_X86 1
#endif

#define VEC_IDS 2172 /* the game's dense ids: one per placement */
#define VEC_MOVES 16  /* 8 blocks a seat */
#define VEC_CHANNELS 9
#define REACH_FLAG 1 /* the option bits (quadefy_gen.h's REACH and STABLE) */
#define STABLE_FLAG 2

/* A game's sets over the placement ids, lane by lane (VL_BLK: meeting an occupied cell; VL_SUP: a cube on
 * the floor or right above an occupied cell; VL_LINE + d: a straight slide in from direction d (the top,
 * -x, +x, -y, +y) sweeps an occupied cell; VL_DEAD: found unreachable, with reachability alone: it stays
 * so), each lane VW words: the ids' 36 words padded to chunks of 8, which a step reads and writes as GCC
 * vectors of 64 bytes (V8: one AVX-512 register, two AVX2 or four SSE2 ones). The first seven only grow,
 * by the covers of the placed cells. */
#define VW 40
enum { VL_BLK = 0, VL_SUP = 1, VL_LINE = 2, VL_DEAD = 7, VL_N = 8 };
typedef uint64_t V8 __attribute__((vector_size(64), aligned(8)));
#define V8_AT(p) (*(V8 *)(p))
#define V8_OF(p) (*(const V8 *)(p))

/* A game of the batch: position, flags, the placements made (QuadefyState.moves), how many legal ids its
 * mask row holds and which (legal; cum[w]: how many in the words before w), and the position's sets. */
typedef struct {
    QPos q;
    int flags, nmoves, moves[VEC_MOVES], count;
    uint64_t legal[VW];
    uint16_t cum[VW];
    uint64_t set[VL_N][VW];
} VecSlot;

/* ------------------------------------------------------------------ tables (built from the kernel's) */
/* vec_cell[c][l]: the placements that cell c, once occupied, adds to lane l (the line lanes as
 * quadefy_cover.h's p_line); vec_floor: those with a cube on the floor (the sup lane's start). */
static uint64_t vec_cell[64][VL_DEAD][VW] __attribute__((aligned(64)));
static uint64_t vec_floor[VW];
static uint64_t vec_hand[256][VW] __attribute__((aligned(64))); /* the placements of a hand's blocks */
static int vec_hw0[256], vec_hw1[256]; /* the words where a hand's placements are */
static int vec_words;                  /* words of n_place bits */
static uint64_t vec_spread8[256];      /* byte k of spread8[v] is bit k of v */
static uint8_t vec_select8[256][8];    /* the index of the k-th set bit of a byte */

static void vec_tables(void) {
    memset(vec_cell, 0, sizeof vec_cell);
    memset(vec_floor, 0, sizeof vec_floor);
    memset(vec_hand, 0, sizeof vec_hand);
    vec_words = (n_place + 63) / 64;
    for (int p = 0; p < n_place; p++) {
        uint64_t bit = 1ULL << (p & 63);
        int w = p >> 6;
        for (uint64_t x = p_mask[p]; x; x &= x - 1) {
            int c = __builtin_ctzll(x);
            vec_cell[c][VL_BLK][w] |= bit;
            if (c < 16) vec_floor[w] |= bit;
            if (c >= 16) vec_cell[c - 16][VL_SUP][w] |= bit;
            int cx = c & 3, cy = c >> 2 & 3; /* as quadefy_cover.h's p_line */
            for (int a = c + 16; a < 64; a += 16) vec_cell[a][VL_LINE + 0][w] |= bit;
            for (int i = 0; i < 4; i++) {
                if (i < cx) vec_cell[c - (cx - i)][VL_LINE + 1][w] |= bit;
                if (i > cx) vec_cell[c + (i - cx)][VL_LINE + 2][w] |= bit;
                if (i < cy) vec_cell[c - 4 * (cy - i)][VL_LINE + 3][w] |= bit;
                if (i > cy) vec_cell[c + 4 * (i - cy)][VL_LINE + 4][w] |= bit;
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
        for (int k = 0, j = 0; k < 8; k++)
            if (v >> k & 1) vec_select8[v][j++] = (uint8_t)k;
    }
}

/* The index of the k-th (0-based) set bit of x (k < its count), without a loop: the bytes' counts summed
 * byte by byte (byte b of cum: the set bits of bytes 0..b), the byte holding it is the number of bytes whose
 * sum is at most k, then a table. */
static inline int vec_select64(uint64_t x, int k) {
    const uint64_t ones = 0x0101010101010101ULL;
    uint64_t s = x - (x >> 1 & 0x5555555555555555ULL);
    s = (s & 0x3333333333333333ULL) + (s >> 2 & 0x3333333333333333ULL);
    s = (s + (s >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    uint64_t cum = s * ones;
    int byte = 8 - __builtin_popcountll(((cum | 0x8080808080808080ULL) - (uint64_t)(k + 1) * ones) & 0x8080808080808080ULL);
    int before = (int)((cum << 8) >> (8 * byte) & 255);
    return 8 * byte + vec_select8[x >> (8 * byte) & 255][k - before];
}

/* The sets of position occ, from nothing (after a load). */
static void vec_covers(VecSlot *v) {
    memset(v->set, 0, sizeof v->set);
    memcpy(v->set[VL_SUP], vec_floor, sizeof vec_floor);
    for (uint64_t x = v->q.occ; x; x &= x - 1) {
        int c = __builtin_ctzll(x);
        for (int l = 0; l < VL_DEAD; l++)
            for (int w = 0; w < VW; w++) v->set[l][w] |= vec_cell[c][l][w];
    }
}

/* The padded boards and the legal translations of the orientations met so far, for the flood fills of one
 * position (made on first use). */
typedef struct {
    int boards;
    uint64_t occ_p[8], sup_p[8], obits[MAXO][4];
    unsigned char seen[MAXO];
} VecFlood;

/* Which of the candidates ``test`` of word w take their orientation's rules and pass them (in position occ):
 * those with reachability alone that fail are marked dead (the free translations only shrink: unreachable
 * for good). */
static uint64_t vec_orient_pass(VecSlot *v, int w, uint64_t test, int flags, uint64_t occ, VecFlood *f) {
    uint64_t ok = 0;
    for (; test; test &= test - 1) {
        int p = 64 * w + __builtin_ctzll(test);
        int o = p_orient[p];
        if (!f->boards) {
            qs_boards(occ, f->occ_p, f->sup_p);
            memset(f->seen, 0, sizeof f->seen);
            f->boards = 1;
        }
        if (!f->seen[o]) {
            qs_orient_legal_at(o, f->occ_p, f->sup_p, flags, f->obits[o]);
            f->seen[o] = 1;
        }
        if (f->obits[o][p_bit[p] >> 6] >> (p_bit[p] & 63) & 1)
            ok |= test & -test;
        else if (flags == REACH_FLAG)
            v->set[VL_DEAD][w] |= test & -test;
    }
    return ok;
}

/* The legal placements of word w of a hand (its placements there: hand) in position occ: the candidates
 * (on empty cells, supported), legal without the orientation's rules when the game has neither
 * reachability nor stability; with reachability alone, a candidate with one straight slide clear is
 * reachable and only the others (not yet found unreachable) take their orientation's flood fill; with
 * stability every candidate takes its orientation's rules. (The step does the same 8 words at a time.) */
static inline uint64_t vec_word_legal(VecSlot *v, int w, uint64_t hand, int flags, uint64_t occ, VecFlood *f) {
    uint64_t cand = hand & v->set[VL_SUP][w] & ~v->set[VL_BLK][w], ok = cand, test = 0;
    if (flags == REACH_FLAG) { /* slid straight in from the top or a side, else the flood fill */
        test = cand;
        for (int d = 0; d < 5; d++) test &= v->set[VL_LINE + d][w];
        ok = cand & ~test;
        test &= ~v->set[VL_DEAD][w];
    } else if (flags) {
        test = cand;
        ok = 0;
    }
    return test ? ok | vec_orient_pass(v, w, test, flags, occ, f) : ok;
}

/* The legal placements of the seat to move (the kernel's legal(), as bits over the ids) into out (VW
 * words); their count. */
static int vec_legal(VecSlot *v, uint64_t out[VW]) {
    memset(out, 0, VW * 8);
    if (v->q.loser >= 0) return 0;
    int rem = v->q.rem[v->q.to_move] & 255, flags = v->flags & (REACH_FLAG | STABLE_FLAG), n = 0;
    VecFlood f;
    f.boards = 0;
    for (int w = vec_hw0[rem]; w < vec_hw1[rem]; w++) {
        out[w] = vec_word_legal(v, w, vec_hand[rem][w], flags, v->q.occ, &f);
        n += __builtin_popcountll(out[w]);
    }
    return n;
}

/* Word w of a mask row becomes the legal bits ``now``: its 64 ids as bytes 0/1, in 8 stores (the row's last
 * word: only its ids, nothing past the row). */
static inline void vec_mask_word_plain(signed char *mask, int w, uint64_t now) {
    signed char *row = mask + 64 * w;
    if (64 * w + 64 <= VEC_IDS) {
        for (int j = 0; j < 8; j++) memcpy(row + 8 * j, &vec_spread8[now >> (8 * j) & 255], 8);
    } else {
        unsigned char tmp[64];
        for (int j = 0; j < 8; j++) memcpy(tmp + 8 * j, &vec_spread8[now >> (8 * j) & 255], 8);
        memcpy(row, tmp, VEC_IDS - 64 * w);
    }
}

#ifdef VEC_X86
/* The same with AVX2: per 32 ids, their 4 bytes of bits broadcast, each byte of the result given its byte
 * of bits (a shuffle), its own bit kept and made 0 or 1 (min with 1). */
__attribute__((target("avx2"))) static inline void vec_mask_word_avx2(signed char *mask, int w, uint64_t now) {
    const __m256i pick = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3,
                                          3, 3, 3, 3, 3, 3, 3);
    const __m256i bit = _mm256_set1_epi64x((long long)0x8040201008040201ULL), one = _mm256_set1_epi8(1);
    __m256i lo = _mm256_shuffle_epi8(_mm256_set1_epi32((int)(uint32_t)now), pick);
    __m256i hi = _mm256_shuffle_epi8(_mm256_set1_epi32((int)(uint32_t)(now >> 32)), pick);
    lo = _mm256_min_epu8(_mm256_and_si256(lo, bit), one);
    hi = _mm256_min_epu8(_mm256_and_si256(hi, bit), one);
    signed char *row = mask + 64 * w;
    if (64 * w + 64 <= VEC_IDS) {
        _mm256_storeu_si256((__m256i *)row, lo);
        _mm256_storeu_si256((__m256i *)(row + 32), hi);
    } else {
        unsigned char tmp[64];
        _mm256_storeu_si256((__m256i *)tmp, lo);
        _mm256_storeu_si256((__m256i *)(tmp + 32), hi);
        memcpy(row, tmp, VEC_IDS - 64 * w);
    }
}

/* The same with AVX-512 (BW): one masked store of ones, the row's last word with a store mask. */
__attribute__((target("avx512f,avx512bw"))) static inline void vec_mask_word_avx512(signed char *mask, int w,
                                                                                   uint64_t now) {
    __m512i x = _mm512_maskz_set1_epi8(now, 1);
    if (64 * w + 64 <= VEC_IDS)
        _mm512_storeu_si512(mask + 64 * w, x);
    else
        _mm512_mask_storeu_epi8(mask + 64 * w, (1ULL << (VEC_IDS - 64 * w)) - 1, x);
}
#endif

/* The observation of ``observer`` (polytable.interop._fast's Quadefy codec): per seat from the observer on,
 * four planes, layer z's cell (row, column) being bit 16 z + 4 row + column of its cubes; then one plane of
 * features row by row: per seat, whether each of the 8 blocks is in hand. A cell's 8 planes are one store of
 * its byte spread (vec_spread8): bit z its cube in layer z of the observer's, bit 4 + z of the other's. For
 * 8 cells at once those bytes are a transposed 8 x 8 bit matrix, whose rows are the layers' 8 cells. */
static inline uint64_t vec_layers8(uint64_t own) { /* byte z: layer z's 8 cells, z < 4 (own's bits 16 z ...) */
    uint64_t x = own & 0x00FF00FF00FF00FFULL;
    x = (x | x >> 8) & 0x0000FFFF0000FFFFULL;
    return (x | x >> 16) & 0xFFFFFFFFULL;
}

static inline uint64_t vec_transpose8(uint64_t x) { /* bit j of byte i becomes bit i of byte j */
    uint64_t t = (x ^ x >> 7) & 0x00AA00AA00AA00AAULL;
    x ^= t ^ t << 7;
    t = (x ^ x >> 14) & 0x0000CCCC0000CCCCULL;
    x ^= t ^ t << 14;
    t = (x ^ x >> 28) & 0x00000000F0F0F0F0ULL;
    return x ^ t ^ t << 28;
}

static void vec_obs(const VecSlot *v, int observer, unsigned char *out) {
    uint64_t mine = v->q.own[observer & 1], theirs = v->q.own[(observer + 1) & 1];
    for (int half = 0; half < 2; half++) {
        uint64_t cells = vec_transpose8(vec_layers8(mine >> 8 * half) | vec_layers8(theirs >> 8 * half) << 32);
        unsigned hand = (unsigned)v->q.rem[(observer + half) & 1];
        unsigned char *o = out + 8 * half * VEC_CHANNELS;
        for (int c = 0; c < 8; c++, o += VEC_CHANNELS) {
            memcpy(o, &vec_spread8[cells >> 8 * c & 255], 8);
            o[8] = (unsigned char)(hand >> c & 1);
        }
    }
}

/* What a step's loop reads and writes (py_vec_step's buffers, checked). */
typedef struct {
    VecSlot *slots;
    const VecSlot *fresh; /* NULL: the caller starts the games that end */
    Py_ssize_t n;
    const long long *acts;
    signed char *masks;
    unsigned char *obs, *ended;
    short *to_act;
    float *rewards, *returns;
    long long *episodes; /* NULL: the caller counts the episodes */
} VecGames;

/* The step's copies: plain (the build's instructions), and on x86 AVX2 and AVX-512 (F and BW), picked at
 * import by what the CPU has (vec_level: 0, 1, 2). */
#define VEC_ATTR
#define VEC_NAME(x) vec_##x##_plain
#define VEC_MASK_WORD vec_mask_word_plain
#include "_cquadefy_vec_step.h"
#undef VEC_ATTR
#undef VEC_NAME
#undef VEC_MASK_WORD
#ifdef VEC_X86
#define VEC_ATTR __attribute__((target("avx2")))
#define VEC_NAME(x) vec_##x##_avx2
#define VEC_MASK_WORD vec_mask_word_avx2
#include "_cquadefy_vec_step.h"
#undef VEC_ATTR
#undef VEC_NAME
#undef VEC_MASK_WORD
#define VEC_ATTR __attribute__((target("avx512f,avx512bw")))
#define VEC_NAME(x) vec_##x##_avx512
#define VEC_MASK_WORD vec_mask_word_avx512
#include "_cquadefy_vec_step.h"
#undef VEC_ATTR
#undef VEC_NAME
#undef VEC_MASK_WORD
#endif
static int vec_level, vec_level_max; /* the copy in use, and the best the CPU runs */

static Py_ssize_t vec_games(const VecGames *g) {
#ifdef VEC_X86
    if (vec_level == 2) return vec_games_avx512(g);
    if (vec_level == 1) return vec_games_avx2(g);
#endif
    return vec_games_plain(g);
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
    memcpy(v.cum, slot->cum, sizeof v.cum);
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

/* The mask row and the game's legal bits become the seat to move's. */
static void vec_mask(VecSlot *v, signed char *mask) {
    uint64_t now[VW];
    int count = vec_legal(v, now);
    vec_mask_set_plain(v, now, count, mask);
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
    VecGames g = {slots, fresh, b.n, acts, (signed char *)b.masks.buf, (unsigned char *)b.obs.buf, ended, to_act,
                  rewards, returns, episodes};
    Py_ssize_t count = vec_games(&g);
    result = PyLong_FromSsize_t(count);
done:
    if (fr.obj) PyBuffer_Release(&fr);
    batch_io_release(&io);
    vec_release(&b);
    return result;
}

/* The vector env's buffers, held for its life by hold() (a capsule: released when it goes), so that its step
 * takes only the actions: the per-call finding of eleven buffers was a tenth of a 64-game step. */
#define VEC_BOUND "polytable.quadefy_vec_bound"
enum { VB_STATES, VB_OBS, VB_MASKS, VB_TO_ACT, VB_REW, VB_RET, VB_TERM, VB_FRESH, VB_EPS, VB_N };
typedef struct {
    Py_buffer b[VB_N];
    Py_ssize_t n;
} VecBound;

static void vec_bound_free(PyObject *cap) {
    VecBound *h = (VecBound *)PyCapsule_GetPointer(cap, VEC_BOUND);
    if (!h) return;
    for (int k = 0; k < VB_N; k++)
        if (h->b[k].obj) PyBuffer_Release(&h->b[k]);
    PyMem_Free(h);
}

/* hold(states, obs, masks, to_act, rewards, returns, terminations, fresh, episodes) -> a handle for play(). */
static PyObject *py_vec_hold(PyObject *self, PyObject *args) {
    PyObject *o[VB_N];
    if (!PyArg_ParseTuple(args, "OOOOOOOOO", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5], &o[6], &o[7], &o[8]) ||
        !check_ready())
        return NULL;
    VecBound *h = (VecBound *)PyMem_Calloc(1, sizeof(VecBound));
    if (!h) return PyErr_NoMemory();
    VecBufs b;
    if (vec_acquire(&b, o[VB_STATES], o[VB_OBS], o[VB_MASKS]) < 0) goto fail;
    h->b[VB_STATES] = b.states;
    h->b[VB_OBS] = b.obs;
    h->b[VB_MASKS] = b.masks;
    h->n = b.n;
    if (batch_buffer(o[VB_TO_ACT], &h->b[VB_TO_ACT], b.n * 2, "to_act") < 0 ||
        batch_buffer(o[VB_REW], &h->b[VB_REW], b.n * 4, "rewards") < 0 ||
        batch_buffer(o[VB_RET], &h->b[VB_RET], b.n * 2 * 4, "returns") < 0 ||
        batch_buffer(o[VB_TERM], &h->b[VB_TERM], b.n, "terminations") < 0 ||
        batch_buffer(o[VB_EPS], &h->b[VB_EPS], b.n * 8, "episodes") < 0 ||
        PyObject_GetBuffer(o[VB_FRESH], &h->b[VB_FRESH], PyBUF_C_CONTIGUOUS) < 0)
        goto fail;
    if (h->b[VB_FRESH].len != (Py_ssize_t)sizeof(VecSlot) || ((const VecSlot *)h->b[VB_FRESH].buf)->q.loser >= 0) {
        PyErr_SetString(PyExc_ValueError, "fresh must be one game's state, not over");
        goto fail;
    }
    PyObject *cap = PyCapsule_New(h, VEC_BOUND, vec_bound_free);
    if (cap) return cap;
fail:
    for (int k = 0; k < VB_N; k++)
        if (h->b[k].obj) PyBuffer_Release(&h->b[k]);
    PyMem_Free(h);
    return NULL;
}

/* play(bound, actions) -> how many games ended: step() with the buffers hold() holds (fresh and episodes
 * included: the vector env's whole step). */
static PyObject *py_vec_play(PyObject *self, PyObject *args) {
    PyObject *cap, *o_act;
    if (!PyArg_ParseTuple(args, "OO", &cap, &o_act)) return NULL;
    VecBound *h = (VecBound *)PyCapsule_GetPointer(cap, VEC_BOUND);
    if (!h) return NULL;
    Py_buffer act;
    if (PyObject_GetBuffer(o_act, &act, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = h->n;
    const long long *acts = (const long long *)act.buf;
    VecSlot *slots = (VecSlot *)h->b[VB_STATES].buf;
    if (act.len != n * 8) {
        PyErr_SetString(PyExc_ValueError, "one int64 action per game");
        goto done;
    }
    if (batch_check(acts, n, (const signed char *)h->b[VB_MASKS].buf, VEC_IDS) < 0) goto done;
    for (Py_ssize_t i = 0; i < n; i++)
        if (slots[i].q.loser >= 0) {
            PyErr_Format(PyExc_ValueError, "game %zd has no seat to act", i);
            goto done;
        }
    float *rewards = (float *)h->b[VB_REW].buf, *returns = (float *)h->b[VB_RET].buf;
    unsigned char *ended = (unsigned char *)h->b[VB_TERM].buf;
    memset(rewards, 0, (size_t)n * 4);
    memset(returns, 0, (size_t)n * 2 * 4);
    memset(ended, 0, (size_t)n);
    VecGames g = {slots, (const VecSlot *)h->b[VB_FRESH].buf, n, acts, (signed char *)h->b[VB_MASKS].buf,
                  (unsigned char *)h->b[VB_OBS].buf, ended, (short *)h->b[VB_TO_ACT].buf, rewards, returns,
                  (long long *)h->b[VB_EPS].buf};
    result = PyLong_FromSsize_t(vec_games(&g));
done:
    PyBuffer_Release(&act);
    return result;
}

/* A game's legal id number k in increasing order: the last word with at most k legal ids before it (cum),
 * then the k-th set bit there. */
static long long vec_pick(const void *slot, const int *ids, int k) {
    (void)ids; /* the batch keeps no ids row */
    const VecSlot *v = (const VecSlot *)slot;
    int w = -1;
    for (int j = 0; j < VW; j++) w += v->cum[j] <= k;
    return 64 * w + vec_select64(v->legal[w], k - v->cum[w]);
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

/* simd([level]) -> the step's instructions in use: 0 plain, 1 AVX2, 2 AVX-512; ``level`` selects that copy, or
 * the best below it the CPU runs (the tests compare them). */
static PyObject *py_vec_simd(PyObject *self, PyObject *args) {
    int level = -1;
    if (!PyArg_ParseTuple(args, "|i", &level)) return NULL;
    if (level >= 0) vec_level = level < vec_level_max ? level : vec_level_max;
    return PyLong_FromLong(vec_level);
}

static PyMethodDef vec_methods[] = {
    {"simd", py_vec_simd, METH_VARARGS, "simd([level]) -> the step's instructions: 0 plain, 1 AVX2, 2 AVX-512"},
    {"init", py_vec_init, METH_VARARGS, "init(solver_tables, pmask, pblock, porient, pbit): the kernel's tables"},
    {"bind", py_bind, METH_VARARGS, "bind(state_class): as the kernel's (CompiledQuadefy calls it)"},
    {"state_bytes", py_vec_state_bytes, METH_NOARGS, "the bytes of one game's state"},
    {"load", py_vec_load, METH_VARARGS, "load a QuadefyState's fields into game i"},
    {"export", py_vec_export, METH_VARARGS, "game i's state fields"},
    {"write", py_vec_write, METH_VARARGS, "game i's observation and mask rows"},
    {"step", py_vec_step, METH_VARARGS, "apply one action per game; how many games ended"},
    {"hold", py_vec_hold, METH_VARARGS, "hold(states, obs, masks, to_act, rewards, returns, terminations, fresh, episodes)"},
    {"play", py_vec_play, METH_VARARGS, "play(bound, actions): the vector env's whole step; how many games ended"},
    {"sample", py_vec_sample, METH_VARARGS, "one uniformly random legal id per game"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef vec_moduledef = {PyModuleDef_HEAD_INIT, "_cquadefy_vec",
                                           "A batch of Quadefy games stepped in C.", -1, vec_methods};

PyMODINIT_FUNC PyInit__cquadefy_vec(void) {
#ifdef VEC_X86
    __builtin_cpu_init();
    vec_level_max = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") ? 2
                    : __builtin_cpu_supports("avx2")                                         ? 1
                                                                                             : 0;
#endif
    vec_level = vec_level_max;
    return batch_module(&vec_moduledef, VEC_IDS);
}
