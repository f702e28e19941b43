/* spu_rand.c -- spart's own pseudo-random numbers: xoshiro256** (Blackman and Vigna, 2018)
 * seeded by splitmix64 (Steele, Lea and Flood, 2014), written from the published
 * algorithms, so that a seed gives the same numbers whatever the C library */
#include "spart.h"
#include "spart_internal.h"


static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}


static uint64_t rotl(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}


void spart_rng_seed(spart_rng *r, uint64_t seed) {
  for (int k = 0; k < 4; k++) {
    r->s[k] = splitmix64(&seed);
  }
}


double spart_rng_uniform(spart_rng *r) {
  uint64_t *s = r->s, out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return (double)(out >> 11) * 0x1.0p-53;
}
