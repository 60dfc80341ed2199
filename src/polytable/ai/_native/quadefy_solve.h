/* The Quadefy exact solver's C interface (quadefy_solve.c), wrapped for Python by _qsolve.c. Its move
 * generator is the game's (games/quadefy/quadefy_moves.h), included downward. */
#ifndef POLYTABLE_QUADEFY_SOLVE_H
#define POLYTABLE_QUADEFY_SOLVE_H
#include <stdint.h>

#include "../../games/quadefy/quadefy_moves.h"

typedef void (*record_fn)(uint64_t lo, int hi, int val);
typedef void (*progress_fn)(int ply, int done, int total);

int qs_tt_alloc(int log2_entries);
void qs_tt_clear(void);
int qs_tt_put(uint64_t lo, int hi, int val);
/* max_seconds (0: none) on the wall clock, or with cpu != 0 on this thread's CPU time (see qs_now). */
int qs_solve(uint64_t occ, int me, int opp, int flags, int ply, int use_tt, double max_seconds, int cpu,
             int64_t node_budget, int persist, int dedup, record_fn rec, progress_fn prog, int *best);
double qs_now(int cpu);
void qs_abort(void);
int qs_stats(int64_t *out);
void qs_reset_stats(void);
int qs_path(int *out);
#endif
