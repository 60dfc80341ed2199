/* polytable.core._rng in C: one step of the splitmix64 generator, the unbiased draw below n and the seeding
 * of a stream, exactly as the Python (the same numbers from the same state), for the compiled engines that
 * draw as the pure rules do. The one copy every kernel includes (the functions are static inline: one
 * copy per extension). */
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

/* exactly core._rng.below: the fewest high bits that can hold n - 1, redrawn until below n (n <= 1: 0,
 * nothing drawn) */
static inline uint64_t below(uint64_t *s, uint64_t n) {
    if (n <= 1) return 0;
    int bits = 64 - __builtin_clzll(n - 1);
    for (;;) {
        uint64_t r = next_u64(s) >> (64 - bits);
        if (r < n) return r;
    }
}

/* core._rng.seed_state for a seed and stream that fit 64 bits (Python's arithmetic modulo 2**64) */
static inline uint64_t rng_seed_state(int64_t seed, int64_t stream) {
    uint64_t s = (uint64_t)seed * 0x2545F4914F6CDD1DULL + (uint64_t)stream * GOLDEN + 0x632BE59BD9B4E019ULL;
    return next_u64(&s);
}

#endif
