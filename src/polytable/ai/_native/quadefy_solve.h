/* The Quadefy exact solver's C interface (quadefy_solve.c), wrapped for Python by _qsolve.c. */
#ifndef POLYTABLE_QUADEFY_SOLVE_H
#define POLYTABLE_QUADEFY_SOLVE_H
#include <stdint.h>

typedef void (*record_fn)(uint64_t lo, int hi, int val);
typedef void (*progress_fn)(int ply, int done, int total);

int qs_init(int no, const int *oblock, const int *ooff, const uint64_t *omasks, const int *osub, const int16_t *pat,
            int np, const uint64_t *pmask, const int *pblock, const uint8_t *perm, int sl, int sr);
int qs_legal(uint64_t occ, int hand, int flags, int *pids);
int qs_count(uint64_t occ, int hand, int flags);
int qs_any(uint64_t occ, int hand, int flags);
void qs_orient_legal(int o, uint64_t occ, int flags, uint64_t out[4]);
void qs_boards(uint64_t occ, uint64_t occ_p[8], uint64_t sup_p[8]);
void qs_orient_legal_at(int o, const uint64_t occ_p[8], const uint64_t sup_p[8], int flags, uint64_t out[4]);
void qs_canon(uint64_t occ, int me, int opp, uint64_t *lo, int *hi);
int qs_tt_alloc(int log2_entries);
void qs_tt_clear(void);
int qs_tt_put(uint64_t lo, int hi, int val);
int qs_solve(uint64_t occ, int me, int opp, int flags, int ply, int use_tt, double max_seconds, int64_t node_budget,
             int persist, int dedup, record_fn rec, progress_fn prog, int *best);
void qs_abort(void);
int qs_stats(int64_t *out);
void qs_reset_stats(void);
int qs_path(int *out);

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
