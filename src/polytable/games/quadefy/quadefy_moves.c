/* The game kernel's copy of Quadefy's move generator (quadefy_gen.h: static tables, so each extension
 * that needs it compiles it once; the exact solver's copy is in ai/_native/quadefy_solve.c). */
#include "quadefy_moves.h"

#include "quadefy_gen.h"
