/* polytable.core._rng in C: one step of the splitmix64 generator and the unbiased draw below n, exactly as
 * the Python (the same numbers from the same state), for the compiled engines that draw as the pure rules
 * do. Included by each engine that needs it (the functions are static inline: one copy per extension). */
#ifndef POLYTABLE_RNG_H
#define POLYTABLE_RNG_H

#include <stdint.h>

#define GOLDEN 0x9E3779B97F4A7C15ULL

/* The next 64 random bits; advances the state *s. */
static inline uint64_t next_u64(uint64_t *s) {
    *s += GOLDEN;
    uint64_t z = *s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* exactly core._rng.below (n >= 1): the fewest high bits that can hold n - 1, redrawn until below n */
static inline uint64_t below(uint64_t *s, uint64_t n) {
    if (n == 1) return 0;
    int bits = 64 - __builtin_clzll(n - 1);
    for (;;) {
        uint64_t r = next_u64(s) >> (64 - bits);
        if (r < n) return r;
    }
}

#endif
