/* Quadefy's compiled move generator: its C interface (quadefy_gen.h defines it, quadefy_cover.h the
 * candidate sets). Shared downward: the game's kernel (_cquadefy.c, through quadefy_moves.c) and the exact
 * solver (ai/_native/quadefy_solve.c) each compile their own copy, since the tables are static. */
#ifndef POLYTABLE_QUADEFY_MOVES_H
#define POLYTABLE_QUADEFY_MOVES_H
#include <stdint.h>

int qs_init(int no, const int *oblock, const int *ooff, const uint64_t *omasks, const int *osub, const int16_t *pat,
            int np, const uint64_t *pmask, const int *pblock, const uint8_t *perm, int sl, int sr);
int qs_legal(uint64_t occ, int hand, int flags, int *pids);
int qs_count(uint64_t occ, int hand, int flags);
int qs_any(uint64_t occ, int hand, int flags);
void qs_orient_legal(int o, uint64_t occ, int flags, uint64_t out[4]);
void qs_boards(uint64_t occ, uint64_t occ_p[8], uint64_t sup_p[8]);
void qs_orient_legal_at(int o, const uint64_t occ_p[8], const uint64_t sup_p[8], int flags, uint64_t out[4]);
void qs_canon(uint64_t occ, int me, int opp, uint64_t *lo, int *hi);

/* candidate sets over placement ids (quadefy_cover.h): QS_NW words, over the words of hand rem */
#define QS_NW 36
void qs_covers(uint64_t occ, int rem, uint64_t blk[QS_NW], uint64_t sup[QS_NW]);
void qs_covers_add(uint64_t mask, int rem, uint64_t blk[QS_NW], uint64_t sup[QS_NW]);
int qs_candidates(int rem, const uint64_t blk[QS_NW], const uint64_t sup[QS_NW], uint64_t out[QS_NW]);
int qs_first_word(int rem);
int qs_straight_in(int p, uint64_t occ);

#define QS_MAXSUB 24
#define QS_MAXPLY 20
#define QS_MAXMOVES 1024
#endif
