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

typedef struct {
    uint8_t cell[QCELLS];  /* 0: empty, else face + 1 */
    uint8_t front[QCELLS]; /* 1: an empty cell touching a cube */
    int nfront, fl[QFRONT]; /* the frontier, sorted */
    int ncubes, face[QMAXCUBES], at[QMAXCUBES]; /* the cubes in the order placed */
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

/* What the greedy evaluation needs besides the table (_ai.threat): the hands, whose turn it is, and the
 * constants of the Qwirkle chances. look = 0: points only. */
typedef struct {
    int look, player, nplayers;
    uint64_t hmask[QMAXP];
    int hands[QMAXP][QHAND], hlen[QMAXP];
    double qv, hit;
} QLook;


void qb_clear(QBoard *b);
void qb_put(QBoard *b, int face, int at);
uint64_t qb_placeable(const QBoard *b);
int qb_score(const QBoard *b, const int *cells, int n, int *qwirkles);
long long qb_walk(const QBoard *b, QWalk *w);
/* The placement number w->r of the last counting qb_walk on this table and hand (w->emit picks it). */
void qb_locate(const QBoard *b, QWalk *w);
int q_largest_line(uint64_t faces);
/* The value of the k cubes (faces, cells) as a placement on b: points, minus with lk->look the Qwirkle
 * chances it hands the others (_ai.threat), computed in the same order as the Python (the same doubles).
 * The cubes are put on the table for the look and taken off again. */
double qb_value(QBoard *b, const int *faces, const int *cells, int k, const QLook *lk);
/* Placements by colour counts: set w->left (6 counts) and w->hand to the faces of the colours held. */
uint64_t qb_colour_offer(const int *left);

/* The game's flow from a player's decision to the next one (see _game.py). Return values: the number of
 * player actions taken; *err is set (non-zero) when a state is impossible (no legal action). */
long long q_playout(QGame *g, QBoard *b, uint64_t *rngs, int shared, long long max_actions, int *err);

static inline int q_index(int x, int y) { return (y + QOFF) * QW + (x + QOFF); }
static inline int q_x(int i) { return i % QW - QOFF; }
static inline int q_y(int i) { return i / QW - QOFF; }

#endif
