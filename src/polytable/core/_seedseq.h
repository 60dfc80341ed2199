/* The vector API's episode seeds in C (polytable.interop.vector.episode_seed): the first 32-bit word of
 * NumPy's SeedSequence of the entropy (seed, env, episode), shifted right once, so a batch that starts its
 * own next games in C plays the same games as the Python path. SeedSequence is O'Neill's seed_seq hash:
 * the entropy, as 32-bit words, is hashed into a pool of four words (every word mixed into every other),
 * and the output words are hashed from the pool. tests/interop/test_vector_fast.py compares this with
 * NumPy. */
#ifndef POLYTABLE_SEEDSEQ_H
#define POLYTABLE_SEEDSEQ_H

#include <stdint.h>

#define SEEDSEQ_POOL 4
#define SEEDSEQ_MAX_WORDS 16 /* entropy words this implementation takes (the seed's, then two per counter) */

static inline uint32_t seedseq_hashmix(uint32_t value, uint32_t *hash) {
    value ^= *hash;
    *hash *= 0x931e8875u;
    value *= *hash;
    return value ^ (value >> 16);
}

static inline uint32_t seedseq_mix(uint32_t x, uint32_t y) {
    uint32_t r = 0xca01f9ddu * x - 0x4973f715u * y;
    return r ^ (r >> 16);
}

/* A non-negative int as NumPy takes it into entropy: its 32-bit words, least significant first (0 is one
 * word). Appends to words[*n]; returns -1 when they would not fit. */
static inline int seedseq_push(uint32_t *words, int *n, uint64_t value) {
    do {
        if (*n >= SEEDSEQ_MAX_WORDS) return -1;
        words[(*n)++] = (uint32_t)value;
        value >>= 32;
    } while (value);
    return 0;
}

/* The first output word of SeedSequence(entropy words). */
static inline uint32_t seedseq_first(const uint32_t *words, int n) {
    uint32_t pool[SEEDSEQ_POOL], hash = 0x43b0d7e5u;
    for (int i = 0; i < SEEDSEQ_POOL; i++) pool[i] = seedseq_hashmix(i < n ? words[i] : 0, &hash);
    for (int src = 0; src < SEEDSEQ_POOL; src++)
        for (int dst = 0; dst < SEEDSEQ_POOL; dst++)
            if (src != dst) pool[dst] = seedseq_mix(pool[dst], seedseq_hashmix(pool[src], &hash));
    for (int src = SEEDSEQ_POOL; src < n; src++)
        for (int dst = 0; dst < SEEDSEQ_POOL; dst++) pool[dst] = seedseq_mix(pool[dst], seedseq_hashmix(words[src], &hash));
    uint32_t out = pool[0], h = 0x8b51f9ddu;
    out ^= h;
    h *= 0x58f38dedu;
    out *= h;
    return out ^ (out >> 16);
}

/* episode_seed(seed, env, episode): the seed given as its words (seedseq_push), then env and episode. */
static inline int64_t seedseq_episode(const uint32_t *seed_words, int nseed, uint64_t env, uint64_t episode) {
    uint32_t words[SEEDSEQ_MAX_WORDS];
    int n = 0;
    for (int i = 0; i < nseed && i < SEEDSEQ_MAX_WORDS - 4; i++) words[n++] = seed_words[i];
    seedseq_push(words, &n, env);
    seedseq_push(words, &n, episode);
    return (int64_t)(seedseq_first(words, n) >> 1);
}

#endif
