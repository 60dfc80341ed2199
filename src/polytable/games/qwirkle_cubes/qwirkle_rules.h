/* Qwirkle Cubes' rules in C, shared by the units of polytable.games.qwirkle_cubes._cqwirkle.
 *
 * The table is a fixed grid (W x W cells, the first cube at the centre) wide enough for any game: a
 * connected table of 90 cubes stays within 89 cells of the first one, and walks look at most 7 cells
 * further. A cell's C index (y + OFF) * W + (x + OFF) orders cells like the Python packed cell (by y,
 * then x), so the sorted frontier, and with it the order of placements, is the same in both engines.
 */
#ifndef QWIRKLE_RULES_H
#define QWIRKLE_RULES_H

#include <stdint.h>

#include "../../core/_rng.h" /* next_u64, below, GOLDEN: the generator of core._rng */

#define QW 256
#define QOFF 128
#define QCELLS (QW * QW)
#define QFRONT 512
#define QMAXCUBES 90
#define QHAND 6
#define QLINE 6
#define QMAXP 4
#define ALL_FACES ((1ULL << 36) - 1)

/* Phases, as in _state.py. */
enum { SETUP_DRAW, SETUP_ROLL, REROLL, ROLL, PLACE, DRAW, DRAW_ROLL, PASS, END };

/* What the table alone says of a frontier cell: along rows (0) and columns (1), the faces of the runs just
 * before and after it, and the faces a cube there may show judged by the line across. */
typedef struct {
    uint64_t before[2], after[2], cross[2];
} QFact;

typedef struct {
    uint8_t cell[QCELLS];  /* 0: empty, else face + 1 */
    uint8_t front[QCELLS]; /* 1: an empty cell touching a cube (2: its facts wait for qb_facts) */
    int nfront, fl[QFRONT]; /* the frontier, sorted */
    int ncubes, face[QMAXCUBES], at[QMAXCUBES]; /* the cubes in the order placed */
    /* The frontier's facts, kept up to date by qb_facts where a cube changed them (the cells at the ends of
     * the four runs through it): fl[i]'s are facts[fact[i]] (fact moves with fl; entries of cells that left
     * the frontier are reused); and the faces that fit somewhere alone. */
    short fact[QFRONT], freed[QFRONT];
    short fact_at[QCELLS]; /* a frontier cell's entry in facts (read only where front is set) */
    int nfacts, nfreed, nstale, placeable_ok;
    int stale[4 * QMAXCUBES]; /* frontier cells whose facts a cube changed (front 2) */
    uint64_t placeable;
    QFact facts[QFRONT];
    /* Kept with the facts, for the placement count (qb_walk) without a walk over the whole frontier: per
     * entry (0 for an entry no cell holds), its cell, the faces that fit it alone and, along rows and
     * columns, the faces that may start a placement of two cubes or more from its roots (see count_fast). */
    int cell_of[QFRONT];
    uint64_t alone[QFRONT], starts[QFRONT][2];
    /* The last plain count (qb_walk): its hand and number, and per entry and axis the placements of two
     * cubes or more of its roots (read where stamped with that number), so that qb_find walks one root. */
    int counted;
    unsigned count_no;
    uint64_t count_hand;
    unsigned multi_no[QFRONT][2];
    int multi[QFRONT][2];
} QBoard;

typedef struct {
    int players, phase, player, rolling, forced, passes, turn, finisher;
    uint64_t rng;
    int hand[QMAXP][QHAND], hlen[QMAXP];
    int bag[6], points[QMAXP], last[3];
} QGame;

/* A walk over the placements of one hand (count, locate the r-th, or list through a callback). */
typedef struct QWalk QWalk;
typedef int (*QEmit)(QWalk *w, int k);
struct QWalk {
    uint64_t hand;
    int need;
    long long count; /* placements met */
    long long r;     /* qb_locate: the number of the placement wanted (the emitter counts it down) */
    QEmit emit;      /* NULL: count only; else called for each placement (non-zero stops the walk) */
    void *ctx;
    int *left; /* NULL: the walk of one hand; else cubes left per colour (Board.placements_by_colour) */
    int faces[QHAND], cells[QHAND]; /* the placement being built (k cubes) */
};

void qb_clear(QBoard *b);
void qb_put(QBoard *b, int face, int at);
uint64_t qb_placeable(const QBoard *b);
/* The table with its frontier's facts and placeable faces up to date (those the cubes put since the last
 * call changed are computed again). */
const QBoard *qb_facts(const QBoard *b);
int qb_score(const QBoard *b, const int *cells, int n, int *qwirkles);
long long qb_walk(const QBoard *b, QWalk *w);
/* The placement number w->r of the last counting qb_walk on this table and hand (w->emit picks it). */
void qb_locate(const QBoard *b, QWalk *w);
/* The same from the table's own record of its last plain count (0: none for this hand and table, nothing
 * walked). */
int qb_find(const QBoard *b, QWalk *w);
/* Every root of one frontier cell (its index in fl) along one axis, in the walk's order (non-zero: the
 * emitter stopped the walk). */
int qb_roots_at(const QBoard *b, QWalk *w, int i, int d);
int q_largest_line(uint64_t faces);
/* Placements by colour counts: set w->left (6 counts) and w->hand to the faces of the colours held. */
uint64_t qb_colour_offer(const int *left);

/* The game's flow from a player's decision to the next one (see _game.py). Return values: the number of
 * player actions taken; *err is set (non-zero) when a state is impossible (no legal action). */
long long q_playout(QGame *g, QBoard *b, uint64_t *rngs, int shared, long long max_actions, int *err);

/* ------------------------------------------------------------------ faces and lines
 * The line logic the placement walk (qwirkle_board.c) and the AI's evaluation (ai/qwirkle_cubes, which
 * includes this header downward) share. */
#define SHAPE_MASK0 0x1041041041ULL /* shape 0 in each of the 6 colours */

/* ------------------------------------------------------------------ faces and lines */
static inline int pc(uint64_t x) { return __builtin_popcountll(x); }

/* A line is one colour or one shape: only the colour and the shape of its lowest face can be shared. */
static inline uint64_t common(uint64_t line) {
    int t = __builtin_ctzll(line);
    uint64_t col = 0x3FULL << (6 * (t / 6)), shp = SHAPE_MASK0 << (t % 6), out = 0;
    if (!(line & ~col)) out |= col;
    if (!(line & ~shp)) out |= shp;
    return out;
}

/* The faces that may join a line holding the faces `line` (_tiles.addable). */
static inline uint64_t addable(uint64_t line) {
    if (!line) return ALL_FACES;
    if (pc(line) >= QLINE) return 0;
    return common(line) & ~line;
}

/* Whether a set of distinct faces is a legal line (_tiles.line_ok). */
static inline int line_ok(uint64_t line) { return !line || (pc(line) <= QLINE && common(line)); }

static inline uint64_t run(const QBoard *b, int c, int step) {
    uint64_t m = 0;
    while (b->cell[c]) {
        m |= 1ULL << (b->cell[c] - 1);
        c += step;
    }
    return m;
}

static inline int run_length(const QBoard *b, int c, int step) {
    int n = 0;
    while (b->cell[c]) {
        n++;
        c += step;
    }
    return n;
}

/* The faces a new cube on empty cell c may show, judged by the line through c along step. */
static inline uint64_t fits_across(const QBoard *b, int c, int step) {
    uint64_t a = run(b, c - step, -step), z = run(b, c + step, step);
    if (a & z) return 0;
    if (a | z) return line_ok(a | z) ? addable(a | z) : 0;
    return ALL_FACES;
}

static inline int q_index(int x, int y) { return (y + QOFF) * QW + (x + QOFF); }
static inline int q_x(int i) { return (int)((unsigned)i % QW) - QOFF; } /* (cell indices are not negative) */
static inline int q_y(int i) { return (int)((unsigned)i / QW) - QOFF; }

#endif
