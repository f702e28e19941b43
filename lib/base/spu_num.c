/* spu_num.c -- doubles to and from decimal text, exactly and fast (spu_: utilities that take no
 * model or data, as MuJoCo's mju_).
 *
 * Reading: a plain decimal of at most 19 significant digits, taken 8 at a time, is w * 10^q.
 * The usual CSV number ([-]d.ddd, no exponent, room to read ahead before lim) takes a shorter
 * path that loads the three words after the point at once (fast_decimal), with no branch on
 * whether 16 or 17 digits follow the point or on the size of w.  Elsewhere, when w < 2^53 and
 * |q| <= 22 one IEEE operation on exact operands rounds it correctly (Clinger's fast path).
 * Otherwise, and always in fast_decimal, w, shifted to 64 bits, is multiplied by the 128-bit
 * significand of 10^q (table p10: truncated, exact for 0 <= q <= 55).  With the high 64 bits
 * of 10^q the product falls short by less than one unit of its first 64 bits, which decides the
 * rounding unless a half-way point between two doubles lies that close; then the low 64 bits make
 * it exact, or short by less than one unit of its first 128 bits.  What is still undecided, like
 * every other text, goes to strtod.
 *
 * Writing: the shortest decimal that reads back to the same double.  v = |x| 10^s has 17 digits
 * before the point, and the integers lo..hi in v's rounding interval (at most 23 apart) tell how
 * many digits can go.  For 2^-36 <= |x| < 1e17, s <= 27 and v = m 5^s 2^-sh (x = m 2^e) is an
 * exact 128-bit integer, of which the bits below the point and the interval fit in 64 bits; the
 * digits are the 17-digit rounding of v rounded again, half up, to the shortest length and kept
 * inside lo..hi, as they were chosen before this code was made fast (then 1e-6 and 1e-7 came out
 * as 1.0e-6 and 1.0e-7).  Further out, v comes from the 128-bit 10^s with an error below 2^-55,
 * and the digits are those of printf's shortest %.Pg that reads back, as written there before:
 * v rounded half even to the shortest length.  A value that close to an integer or a half, a
 * power of two (its interval is not symmetric), a subnormal or 10^s beyond the table are left to
 * printf itself.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_text.h"
#include "spu.h"

__extension__ typedef unsigned __int128 u128;

#define KMIN (-64) /* p10 holds 10^KMIN .. 10^KMAX */
#define KMAX 64

/* 10^k = (p10[k - KMIN] + a fraction < 1) * 2^(flog2_10(k) - 127): the 128-bit significand as
   {high, low} 64 bits, truncated (computed once with exact integers) */
static const uint64_t p10[KMAX - KMIN + 1][2] = {
    {0xa87fea27a539e9a5ull, 0x3f2398d747b36224ull}, /* 1e-64 */
    {0xd29fe4b18e88640eull, 0x8eec7f0d19a03aadull}, /* 1e-63 */
    {0x83a3eeeef9153e89ull, 0x1953cf68300424acull}, /* 1e-62 */
    {0xa48ceaaab75a8e2bull, 0x5fa8c3423c052dd7ull}, /* 1e-61 */
    {0xcdb02555653131b6ull, 0x3792f412cb06794dull}, /* 1e-60 */
    {0x808e17555f3ebf11ull, 0xe2bbd88bbee40bd0ull}, /* 1e-59 */
    {0xa0b19d2ab70e6ed6ull, 0x5b6aceaeae9d0ec4ull}, /* 1e-58 */
    {0xc8de047564d20a8bull, 0xf245825a5a445275ull}, /* 1e-57 */
    {0xfb158592be068d2eull, 0xeed6e2f0f0d56712ull}, /* 1e-56 */
    {0x9ced737bb6c4183dull, 0x55464dd69685606bull}, /* 1e-55 */
    {0xc428d05aa4751e4cull, 0xaa97e14c3c26b886ull}, /* 1e-54 */
    {0xf53304714d9265dfull, 0xd53dd99f4b3066a8ull}, /* 1e-53 */
    {0x993fe2c6d07b7fabull, 0xe546a8038efe4029ull}, /* 1e-52 */
    {0xbf8fdb78849a5f96ull, 0xde98520472bdd033ull}, /* 1e-51 */
    {0xef73d256a5c0f77cull, 0x963e66858f6d4440ull}, /* 1e-50 */
    {0x95a8637627989aadull, 0xdde7001379a44aa8ull}, /* 1e-49 */
    {0xbb127c53b17ec159ull, 0x5560c018580d5d52ull}, /* 1e-48 */
    {0xe9d71b689dde71afull, 0xaab8f01e6e10b4a6ull}, /* 1e-47 */
    {0x9226712162ab070dull, 0xcab3961304ca70e8ull}, /* 1e-46 */
    {0xb6b00d69bb55c8d1ull, 0x3d607b97c5fd0d22ull}, /* 1e-45 */
    {0xe45c10c42a2b3b05ull, 0x8cb89a7db77c506aull}, /* 1e-44 */
    {0x8eb98a7a9a5b04e3ull, 0x77f3608e92adb242ull}, /* 1e-43 */
    {0xb267ed1940f1c61cull, 0x55f038b237591ed3ull}, /* 1e-42 */
    {0xdf01e85f912e37a3ull, 0x6b6c46dec52f6688ull}, /* 1e-41 */
    {0x8b61313bbabce2c6ull, 0x2323ac4b3b3da015ull}, /* 1e-40 */
    {0xae397d8aa96c1b77ull, 0xabec975e0a0d081aull}, /* 1e-39 */
    {0xd9c7dced53c72255ull, 0x96e7bd358c904a21ull}, /* 1e-38 */
    {0x881cea14545c7575ull, 0x7e50d64177da2e54ull}, /* 1e-37 */
    {0xaa242499697392d2ull, 0xdde50bd1d5d0b9e9ull}, /* 1e-36 */
    {0xd4ad2dbfc3d07787ull, 0x955e4ec64b44e864ull}, /* 1e-35 */
    {0x84ec3c97da624ab4ull, 0xbd5af13bef0b113eull}, /* 1e-34 */
    {0xa6274bbdd0fadd61ull, 0xecb1ad8aeacdd58eull}, /* 1e-33 */
    {0xcfb11ead453994baull, 0x67de18eda5814af2ull}, /* 1e-32 */
    {0x81ceb32c4b43fcf4ull, 0x80eacf948770ced7ull}, /* 1e-31 */
    {0xa2425ff75e14fc31ull, 0xa1258379a94d028dull}, /* 1e-30 */
    {0xcad2f7f5359a3b3eull, 0x096ee45813a04330ull}, /* 1e-29 */
    {0xfd87b5f28300ca0dull, 0x8bca9d6e188853fcull}, /* 1e-28 */
    {0x9e74d1b791e07e48ull, 0x775ea264cf55347dull}, /* 1e-27 */
    {0xc612062576589ddaull, 0x95364afe032a819dull}, /* 1e-26 */
    {0xf79687aed3eec551ull, 0x3a83ddbd83f52204ull}, /* 1e-25 */
    {0x9abe14cd44753b52ull, 0xc4926a9672793542ull}, /* 1e-24 */
    {0xc16d9a0095928a27ull, 0x75b7053c0f178293ull}, /* 1e-23 */
    {0xf1c90080baf72cb1ull, 0x5324c68b12dd6338ull}, /* 1e-22 */
    {0x971da05074da7beeull, 0xd3f6fc16ebca5e03ull}, /* 1e-21 */
    {0xbce5086492111aeaull, 0x88f4bb1ca6bcf584ull}, /* 1e-20 */
    {0xec1e4a7db69561a5ull, 0x2b31e9e3d06c32e5ull}, /* 1e-19 */
    {0x9392ee8e921d5d07ull, 0x3aff322e62439fcfull}, /* 1e-18 */
    {0xb877aa3236a4b449ull, 0x09befeb9fad487c2ull}, /* 1e-17 */
    {0xe69594bec44de15bull, 0x4c2ebe687989a9b3ull}, /* 1e-16 */
    {0x901d7cf73ab0acd9ull, 0x0f9d37014bf60a10ull}, /* 1e-15 */
    {0xb424dc35095cd80full, 0x538484c19ef38c94ull}, /* 1e-14 */
    {0xe12e13424bb40e13ull, 0x2865a5f206b06fb9ull}, /* 1e-13 */
    {0x8cbccc096f5088cbull, 0xf93f87b7442e45d3ull}, /* 1e-12 */
    {0xafebff0bcb24aafeull, 0xf78f69a51539d748ull}, /* 1e-11 */
    {0xdbe6fecebdedd5beull, 0xb573440e5a884d1bull}, /* 1e-10 */
    {0x89705f4136b4a597ull, 0x31680a88f8953030ull}, /* 1e-9 */
    {0xabcc77118461cefcull, 0xfdc20d2b36ba7c3dull}, /* 1e-8 */
    {0xd6bf94d5e57a42bcull, 0x3d32907604691b4cull}, /* 1e-7 */
    {0x8637bd05af6c69b5ull, 0xa63f9a49c2c1b10full}, /* 1e-6 */
    {0xa7c5ac471b478423ull, 0x0fcf80dc33721d53ull}, /* 1e-5 */
    {0xd1b71758e219652bull, 0xd3c36113404ea4a8ull}, /* 1e-4 */
    {0x83126e978d4fdf3bull, 0x645a1cac083126e9ull}, /* 1e-3 */
    {0xa3d70a3d70a3d70aull, 0x3d70a3d70a3d70a3ull}, /* 1e-2 */
    {0xccccccccccccccccull, 0xccccccccccccccccull}, /* 1e-1 */
    {0x8000000000000000ull, 0x0000000000000000ull}, /* 1e0 */
    {0xa000000000000000ull, 0x0000000000000000ull}, /* 1e1 */
    {0xc800000000000000ull, 0x0000000000000000ull}, /* 1e2 */
    {0xfa00000000000000ull, 0x0000000000000000ull}, /* 1e3 */
    {0x9c40000000000000ull, 0x0000000000000000ull}, /* 1e4 */
    {0xc350000000000000ull, 0x0000000000000000ull}, /* 1e5 */
    {0xf424000000000000ull, 0x0000000000000000ull}, /* 1e6 */
    {0x9896800000000000ull, 0x0000000000000000ull}, /* 1e7 */
    {0xbebc200000000000ull, 0x0000000000000000ull}, /* 1e8 */
    {0xee6b280000000000ull, 0x0000000000000000ull}, /* 1e9 */
    {0x9502f90000000000ull, 0x0000000000000000ull}, /* 1e10 */
    {0xba43b74000000000ull, 0x0000000000000000ull}, /* 1e11 */
    {0xe8d4a51000000000ull, 0x0000000000000000ull}, /* 1e12 */
    {0x9184e72a00000000ull, 0x0000000000000000ull}, /* 1e13 */
    {0xb5e620f480000000ull, 0x0000000000000000ull}, /* 1e14 */
    {0xe35fa931a0000000ull, 0x0000000000000000ull}, /* 1e15 */
    {0x8e1bc9bf04000000ull, 0x0000000000000000ull}, /* 1e16 */
    {0xb1a2bc2ec5000000ull, 0x0000000000000000ull}, /* 1e17 */
    {0xde0b6b3a76400000ull, 0x0000000000000000ull}, /* 1e18 */
    {0x8ac7230489e80000ull, 0x0000000000000000ull}, /* 1e19 */
    {0xad78ebc5ac620000ull, 0x0000000000000000ull}, /* 1e20 */
    {0xd8d726b7177a8000ull, 0x0000000000000000ull}, /* 1e21 */
    {0x878678326eac9000ull, 0x0000000000000000ull}, /* 1e22 */
    {0xa968163f0a57b400ull, 0x0000000000000000ull}, /* 1e23 */
    {0xd3c21bcecceda100ull, 0x0000000000000000ull}, /* 1e24 */
    {0x84595161401484a0ull, 0x0000000000000000ull}, /* 1e25 */
    {0xa56fa5b99019a5c8ull, 0x0000000000000000ull}, /* 1e26 */
    {0xcecb8f27f4200f3aull, 0x0000000000000000ull}, /* 1e27 */
    {0x813f3978f8940984ull, 0x4000000000000000ull}, /* 1e28 */
    {0xa18f07d736b90be5ull, 0x5000000000000000ull}, /* 1e29 */
    {0xc9f2c9cd04674edeull, 0xa400000000000000ull}, /* 1e30 */
    {0xfc6f7c4045812296ull, 0x4d00000000000000ull}, /* 1e31 */
    {0x9dc5ada82b70b59dull, 0xf020000000000000ull}, /* 1e32 */
    {0xc5371912364ce305ull, 0x6c28000000000000ull}, /* 1e33 */
    {0xf684df56c3e01bc6ull, 0xc732000000000000ull}, /* 1e34 */
    {0x9a130b963a6c115cull, 0x3c7f400000000000ull}, /* 1e35 */
    {0xc097ce7bc90715b3ull, 0x4b9f100000000000ull}, /* 1e36 */
    {0xf0bdc21abb48db20ull, 0x1e86d40000000000ull}, /* 1e37 */
    {0x96769950b50d88f4ull, 0x1314448000000000ull}, /* 1e38 */
    {0xbc143fa4e250eb31ull, 0x17d955a000000000ull}, /* 1e39 */
    {0xeb194f8e1ae525fdull, 0x5dcfab0800000000ull}, /* 1e40 */
    {0x92efd1b8d0cf37beull, 0x5aa1cae500000000ull}, /* 1e41 */
    {0xb7abc627050305adull, 0xf14a3d9e40000000ull}, /* 1e42 */
    {0xe596b7b0c643c719ull, 0x6d9ccd05d0000000ull}, /* 1e43 */
    {0x8f7e32ce7bea5c6full, 0xe4820023a2000000ull}, /* 1e44 */
    {0xb35dbf821ae4f38bull, 0xdda2802c8a800000ull}, /* 1e45 */
    {0xe0352f62a19e306eull, 0xd50b2037ad200000ull}, /* 1e46 */
    {0x8c213d9da502de45ull, 0x4526f422cc340000ull}, /* 1e47 */
    {0xaf298d050e4395d6ull, 0x9670b12b7f410000ull}, /* 1e48 */
    {0xdaf3f04651d47b4cull, 0x3c0cdd765f114000ull}, /* 1e49 */
    {0x88d8762bf324cd0full, 0xa5880a69fb6ac800ull}, /* 1e50 */
    {0xab0e93b6efee0053ull, 0x8eea0d047a457a00ull}, /* 1e51 */
    {0xd5d238a4abe98068ull, 0x72a4904598d6d880ull}, /* 1e52 */
    {0x85a36366eb71f041ull, 0x47a6da2b7f864750ull}, /* 1e53 */
    {0xa70c3c40a64e6c51ull, 0x999090b65f67d924ull}, /* 1e54 */
    {0xd0cf4b50cfe20765ull, 0xfff4b4e3f741cf6dull}, /* 1e55 */
    {0x82818f1281ed449full, 0xbff8f10e7a8921a4ull}, /* 1e56 */
    {0xa321f2d7226895c7ull, 0xaff72d52192b6a0dull}, /* 1e57 */
    {0xcbea6f8ceb02bb39ull, 0x9bf4f8a69f764490ull}, /* 1e58 */
    {0xfee50b7025c36a08ull, 0x02f236d04753d5b4ull}, /* 1e59 */
    {0x9f4f2726179a2245ull, 0x01d762422c946590ull}, /* 1e60 */
    {0xc722f0ef9d80aad6ull, 0x424d3ad2b7b97ef5ull}, /* 1e61 */
    {0xf8ebad2b84e0d58bull, 0xd2e0898765a7deb2ull}, /* 1e62 */
    {0x9b934c3b330c8577ull, 0x63cc55f49f88eb2full}, /* 1e63 */
    {0xc2781f49ffcfa6d5ull, 0x3cbf6b71c76b25fbull}, /* 1e64 */
};

/* the bits of the smallest double >= 10^k, k = -11 .. 17 (comparing bits compares values) */
static const uint64_t p10up[29] = {
    0x3da5fd7fe1796496ull, 0x3ddb7cdfd9d7bdbbull, 0x3e112e0be826d695ull,
    0x3e45798ee2308c3aull, 0x3e7ad7f29abcaf49ull, 0x3eb0c6f7a0b5ed8eull,
    0x3ee4f8b588e368f1ull, 0x3f1a36e2eb1c432dull, 0x3f50624dd2f1a9fcull,
    0x3f847ae147ae147bull, 0x3fb999999999999aull, 0x3ff0000000000000ull,
    0x4024000000000000ull, 0x4059000000000000ull, 0x408f400000000000ull,
    0x40c3880000000000ull, 0x40f86a0000000000ull, 0x412e848000000000ull,
    0x416312d000000000ull, 0x4197d78400000000ull, 0x41cdcd6500000000ull,
    0x4202a05f20000000ull, 0x42374876e8000000ull, 0x426d1a94a2000000ull,
    0x42a2309ce5400000ull, 0x42d6bcc41e900000ull, 0x430c6bf526340000ull,
    0x4341c37937e08000ull, 0x4376345785d8a000ull,
};

static const uint64_t pow5[28] = {1ull,
                                  5ull,
                                  25ull,
                                  125ull,
                                  625ull,
                                  3125ull,
                                  15625ull,
                                  78125ull,
                                  390625ull,
                                  1953125ull,
                                  9765625ull,
                                  48828125ull,
                                  244140625ull,
                                  1220703125ull,
                                  6103515625ull,
                                  30517578125ull,
                                  152587890625ull,
                                  762939453125ull,
                                  3814697265625ull,
                                  19073486328125ull,
                                  95367431640625ull,
                                  476837158203125ull,
                                  2384185791015625ull,
                                  11920928955078125ull,
                                  59604644775390625ull,
                                  298023223876953125ull,
                                  1490116119384765625ull,
                                  7450580596923828125ull};

static const double pow10d[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                  1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                  1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static const uint64_t pow10u[20] = {1ull,
                                    10ull,
                                    100ull,
                                    1000ull,
                                    10000ull,
                                    100000ull,
                                    1000000ull,
                                    10000000ull,
                                    100000000ull,
                                    1000000000ull,
                                    10000000000ull,
                                    100000000000ull,
                                    1000000000000ull,
                                    10000000000000ull,
                                    100000000000000ull,
                                    1000000000000000ull,
                                    10000000000000000ull,
                                    100000000000000000ull,
                                    1000000000000000000ull,
                                    10000000000000000000ull};


/* floor(a / 2^sh) for any sign */
static int floor_shift(int64_t a, int sh) {
  return a >= 0 ? (int)(a >> sh) : -(int)((-a - 1) >> sh) - 1;
}


/* floor(log10(2^n)) for |n| <= 1650 */
static int flog10_2(int n) {
  return floor_shift((int64_t)n * 78913, 18);
}


/* floor(log2(10^q)) for |q| < 643 */
static int flog2_10(int q) {
  return floor_shift((int64_t)q * 217706, 16);
}


/* 8 bytes as a number whose lowest byte is the first in memory, and back */
static uint64_t load8(const char *p) {
  uint64_t x;
  memcpy(&x, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  x = __builtin_bswap64(x);
#endif
  return x;
}


static void store8(char *p, uint64_t x) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  x = __builtin_bswap64(x);
#endif
  memcpy(p, &x, 8);
}


/* the slow, always right path */
static double slow_strtod(const char *s, const char **end) {
  char *e;
  double x = strtod(s, &e);
  *end = e;
  return x;
}


/* the number written by 8 digits less '0', one a byte, the first in the lowest byte (SWAR: pairs,
   then pairs of pairs) */
static uint64_t value8(uint64_t d) {
  d = (d * 10) + (d >> 8);
  return (((d & 0x000000FF000000FFull) * (100 + (1000000ull << 32))) +
          (((d >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32)))) >>
         32;
}


/* 8 bytes less '0' each (first byte lowest): the high bit of each byte that is not a digit, and
   maybe of later ones (subtracting borrows only into later bytes), so that the first is exact */
static uint64_t not_digits(uint64_t d) {
  return (d | (d + 0x7676767676767676ull)) & 0x8080808080808080ull;
}


/* the digits at *pp appended to *w (modulo 2^64), 8 at a time from the 8 bytes at p, and 3 to 7
   last ones before lim from the 8 bytes that end there; returns how many */
static inline int take_digits(const char **pp, const char *s, const char *lim, uint64_t *w) {
  const char *p = *pp, *start = p;
  uint64_t v = *w;
  if (lim && lim - s >= 8) {
    int n = 8;
    while (lim - p >= 8) {
      uint64_t d = load8(p) - 0x3030303030303030ull, other = not_digits(d);
      n = other ? __builtin_ctzll(other) >> 3 : 8; /* digits before the first other byte */
      if (n > 0) {
        v = v * pow10u[n] + value8(d << (64 - 8 * n));
        p += n;
      }
      if (n < 8) {
        break;
      }
    }
    if (n == 8 && lim - p > 2 && *p >= '0' && *p <= '9') {
      /* the digits up to lim (the usual end), or up to another byte; the bytes shifted in are
         not digits */
      int k = (int)(lim - p);
      uint64_t d = (load8(lim - 8) >> (64 - 8 * k)) - 0x3030303030303030ull;
      n = __builtin_ctzll(not_digits(d)) >> 3;
      v = v * pow10u[n] + value8(d << (64 - 8 * n));
      p += n;
    }
  }
  while (*p >= '0' && *p <= '9') {
    v = 10 * v + (uint64_t)(*p++ - '0');
  }
  *pp = p;
  *w = v;
  return (int)(p - start);
}


/* the bits of the double nearest w 10^q (w > 0, KMIN <= q <= KMAX, so that it is a normal
   number), or 0 when that is not decided here */
static uint64_t scale(uint64_t w, int q) {
  const uint64_t *t = p10[q - KMIN];
  int lz = __builtin_clzll(w);
  uint64_t wn = w << lz;

  /* z = wn * t has 191 or 192 bits: keep 53, round at bit sh of hi (y: that bit and those
     below); the true product is in [z, z + 2^64) in units of lo */
  u128 z = (u128)wn * t[0];
  uint64_t hi = (uint64_t)(z >> 64), lo = (uint64_t)z, up;
  int top = (int)(hi >> 63), sh = 9 + top;
  uint64_t below = (1ull << sh) - 1, y = hi & (2 * below + 1);
  if (y - below > 1 || (y == below + 1 && lo != 0)) {
    up = y > below; /* no half-way point in reach */
  } else {
    /* add wn * t[1] (z is now hi, lo, lo2): exact, or in [z, z + 1) in units of lo */
    u128 z2 = (u128)wn * t[1];
    uint64_t lo2 = (uint64_t)z2;
    lo += (uint64_t)(z2 >> 64);
    hi += lo < (uint64_t)(z2 >> 64);
    top = (int)(hi >> 63);
    sh = 9 + top;
    below = (1ull << sh) - 1;
    y = hi & (2 * below + 1);
    if (q >= 0 && q <= 55) {
      up = y > below && (y > below + 1 || lo != 0 || lo2 != 0 || ((hi >> sh) & 2)); /* to even */
    } else if ((y == below && lo == UINT64_MAX) || (y == below + 1 && lo == 0 && lo2 == 0)) {
      return 0;
    } else {
      up = y > below;
    }
  }
  /* x = mant 2^(11 + top + flog2_10(q) - lz), 2^52 <= mant <= 2^53: the leading bit of mant
     adds one to the biased exponent be, a carry out of it one more */
  uint64_t be = (uint64_t)(1085 + top + flog2_10(q) - lz);
  return (be << 52) + (hi >> (sh + 1)) + up;
}


/* scale's usual case, inline: the bits of w 10^q when the first 64 bits of the product decide
   them, else scale itself.  The same rounding in fewer steps: u = hi >> top has the 53 bits at
   the same place either way, to be rounded at bit 9.  Every product scale looks at further has
   u & 1023 = 511 or 512 (hi's bits from the rounding bit down 0111.. or 1000.., less the last
   one when top = 1), and so do a few more, which scale decides exactly all the same.
   ((u >> 9) + 1) / 2 is u >> 10 plus its rounding bit.  w = 0 is let through (w | 1 has the
   leading zeros of w > 0, and is not 0): its product is 0, decided, and the result, a positive
   power of two, is for the caller to drop. */
static inline uint64_t scale_fast(uint64_t w, int q) {
  const uint64_t *t = p10[q - KMIN];
  int lz = __builtin_clzll(w | 1);
  uint64_t hi = (uint64_t)(((u128)(w << lz) * t[0]) >> 64);
  int top = (int)(hi >> 63);
  uint64_t u = hi >> top;
  if ((u & 1023) - 511 <= 1) {
    return scale(w, q);
  }
  uint64_t be = (uint64_t)(1085 + top + flog2_10(q) - lz);
  return (be << 52) + (((u >> 9) + 1) >> 1);
}


/* the value of the first n digits of d (8 digits less '0', the first in the lowest byte) */
static inline uint64_t value_n(uint64_t d, int n) {
  return n ? value8(d << (64 - 8 * n)) : 0;
}


/* the usual text, [+-]i.fff: one to seven digits i (or none, before a point), up to 23
   digits f, at most 19 significant digits in all, no exponent, with 24 bytes to read before lim
   after the point.  The three words of f are taken at once.  Returns 1 with the value and the
   end, or 0 to leave the text to the rest of spu_strtod. */
static inline int fast_decimal(const char *s, const char *lim, const char **end, double *x) {
  const char *p = s + (*s == '-' || *s == '+');
  uint64_t sign = (uint64_t)(*s == '-') << 63, w;
  int nint, nfrac = 0;

  /* the digits before the point: usually one */
  if (*p >= '0' && *p <= '9' && p[1] == '.') {
    w = (uint64_t)(*p - '0');
    nint = 1;
  } else {
    uint64_t d = load8(p) - 0x3030303030303030ull, other = not_digits(d);
    if (!other) {
      return 0;
    }
    nint = __builtin_ctzll(other) >> 3;
    w = value_n(d, nint);
  }
  p += nint;

  /* the digits after it */
  if (*p == '.') {
    if (lim - p <= 24) {
      return 0;
    }
    p++;
    uint64_t a = load8(p) - 0x3030303030303030ull, b = load8(p + 8) - 0x3030303030303030ull;
    uint64_t c = load8(p + 16) - 0x3030303030303030ull;
    uint64_t oa = not_digits(a), ob = not_digits(b), oc = not_digits(c), f;
    if (oa) {
      nfrac = __builtin_ctzll(oa) >> 3;
      f = value_n(a, nfrac);
    } else if (ob) {
      int n = __builtin_ctzll(ob) >> 3;
      f = value8(a) * pow10u[n] + value_n(b, n);
      nfrac = 8 + n;
    } else if (oc) {
      /* n = 0..7 digits in c (usually 0 or 1, as the digits come, so no branch on n): their
         value is that of the 8 digits c << (64 - 8n), zeros first, shifted in two steps so that
         n = 0 shifts all of c out (value 0) rather than by 64 */
      int n = __builtin_ctzll(oc) >> 3;
      f = (value8(a) * 100000000 + value8(b)) * pow10u[n] + value8((c << 1) << (63 - 8 * n));
      nfrac = 16 + n;
    } else {
      return 0;
    }
    if (nint + nfrac > 19) {
      /* more than 19 digits: fine if zeros lead (then i is all zeros); a counts them */
      int z = a ? __builtin_ctzll(a) >> 3 : 8;
      if (w != 0 || nfrac > 22 || nfrac - (z < nfrac ? z : nfrac) > 19) {
        return 0;
      }
    }
    if (nint + nfrac == 0) {
      return 0;
    }
    w = w ? w * pow10u[nfrac] + f : f; /* < 10^19 (w != 0: nint + nfrac <= 19) */
    p += nfrac;
  } else if (nint == 0) {
    return 0;
  }
  if ((unsigned char)*p >= 'A') {
    return 0; /* a letter after the digits: maybe an exponent (or hexadecimal); one test for
                 all, as the delimiters and line ends that usually follow are below 'A' */
  }

  /* w times the 128-bit 10^-nfrac, whatever w: Clinger's one division would do when w < 2^53,
     but w is on either side of 2^53 as the digits come (16 or 17 of them), a branch that does
     not predict.  Both round correctly, so the bits are the same; 0 (w = 0) is masked in. */
  uint64_t bits = scale_fast(w, -nfrac);
  if (!bits) {
    return 0;
  }
  bits = w != 0 ? bits | sign : sign;
  memcpy(x, &bits, sizeof(*x));
  *end = p;
  return 1;
}


/* the general case: every text strtod reads */
static double __attribute__((noinline))
strtod_rest(const char *s, const char *lim, const char **end);


/* inline where it is called: a CSV row calls it for every number, and the call's own cost is a
   seventh of the number's.  spart.h declares it without inline, so this is its external
   definition (C11 6.7.4p7), which may name static functions; clang warns as if it could not. */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wstatic-in-inline"
#endif
__attribute__((always_inline)) inline double spu_strtod(const char *s, const char *lim,
                                                         const char **end) {
  double x;
  if (lim && lim - s >= 16 && fast_decimal(s, lim, end, &x)) {
    return x;
  }
  return strtod_rest(s, lim, end);
}


static double strtod_rest(const char *s, const char *lim, const char **end) {
  const char *p = s;
  int e10 = 0, nfrac = 0, nsig; /* nsig: digits from the first that is not 0 */
  uint64_t w = 0, sign = 0;

  /* sign, digits, a point and digits, then an optional exponent */
  if (*p == '-' || *p == '+') {
    sign = (uint64_t)(*p++ == '-') << 63;
  }
  const char *digits = p;
  if (*p >= '0' && *p <= '9' && p[1] == '.') {
    w = (uint64_t)(*p++ - '0'); /* one digit before the point, the usual case */
    nsig = w != 0;
  } else {
    if (p[0] == '0' && (p[1] | 0x20) == 'x') {
      return slow_strtod(s, end); /* hexadecimal */
    }
    while (*p == '0') {
      p++; /* leading zeros are not significant */
    }
    nsig = take_digits(&p, s, lim, &w);
  }
  int ndigits = (int)(p - digits);
  if (*p == '.') {
    const char *frac = ++p;
    if (nsig == 0) {
      if (lim && lim - p >= 8) {
        uint64_t z = load8(p) ^ 0x3030303030303030ull; /* '0' bytes are 0 */
        p += z ? __builtin_ctzll(z) >> 3 : 8;
      }
      while (*p == '0') {
        p++;
      }
    }
    nsig += take_digits(&p, s, lim, &w);
    nfrac = (int)(p - frac);
    ndigits += nfrac;
  }
  if (ndigits == 0 || nsig > 19) {
    return slow_strtod(s, end); /* no digits (inf, nan, junk), or w did not hold them */
  }
  if ((*p | 0x20) == 'e') {
    const char *q = p + 1;
    int eneg = 0;
    if (*q == '-' || *q == '+') {
      eneg = *q++ == '-';
    }
    if (*q >= '0' && *q <= '9') {
      int ex = 0;
      while (*q >= '0' && *q <= '9') {
        if (ex > 100000) {
          return slow_strtod(s, end);
        }
        ex = 10 * ex + (*q++ - '0');
      }
      e10 = eneg ? -ex : ex;
      p = q;
    } /* else "1e" is 1 followed by junk, as strtod reads it */
  }
  *end = p;
  e10 -= nfrac;

  /* Clinger: both operands exact, one rounding; else w times the 128-bit 10^e10 */
  uint64_t bits = 0;
  if (w < (1ull << 53) && e10 >= -22 && e10 <= 22) {
    double x = (double)w;
    x = e10 < 0 ? x / pow10d[-e10] : x * pow10d[e10];
    memcpy(&bits, &x, sizeof(bits));
  } else if (w != 0) {
    bits = e10 >= KMIN && e10 <= KMAX ? scale(w, e10) : 0;
    if (bits == 0) {
      return slow_strtod(s, end);
    }
  }
  bits |= sign;
  double x;
  memcpy(&x, &bits, sizeof(x));
  return x;
}


/* the slow path: the shortest %.Pg that reads back, by bisection on P (if P digits read back,
   so do P + 1) */
static int slow_dtoa(char *buf, double x) {
  int lo = 1, hi = 17;
  if (!isfinite(x)) {
    return snprintf(buf, 32, "%g", x);
  }
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (snprintf(buf, 32, "%.*g", mid, x) < 32 && strtod(buf, NULL) == x) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return snprintf(buf, 32, "%.*g", lo, x);
}


/* the 8 decimal digits of y < 10^8 as ASCII, the first in the lowest byte: 4 + 4 digits, then
   2 + 2 in each half, then 1 + 1, all lanes at once.  Each step puts q = n / b in the low half of
   a lane and n - b q in the high half: (n << w) + q (1 - b 2^w), for all lanes in one go
   (n / 100 = n * 10486 >> 20 for n < 10^4, n / 10 = n * 103 >> 10 for n < 100). */
static inline uint64_t digits8(uint64_t y) {
  uint64_t z = (y << 32) + (uint32_t)y / 10000 * (1 - (10000ull << 32));
  z = (z << 16) + (((z * 10486) >> 20) & 0x0000007F0000007Full) * (1 - (100ull << 16));
  z = (z << 8) + (((z * 103) >> 10) & 0x000F000F000F000Full) * (1 - (10ull << 8));
  return z + 0x3030303030303030ull;
}


/* the 17 digits of 10^16 <= C < 10^17: returns the first; the next 8 and the last 8 go to *w1 and
   *w2 as ASCII, the first of them in the lowest byte */
static inline uint64_t digits17(uint64_t C, uint64_t *w1, uint64_t *w2) {
  uint64_t a = C / 100000000, top = (uint32_t)a / 100000000; /* (a < 2^32: 32-bit division) */
  *w1 = digits8(a - 100000000 * top);
  *w2 = digits8(C - 100000000 * a);
  return top;
}


/* the number of digits left when the zeros at the end of 10^16 <= C < 10^17, a multiple of 100,
   go */
static int cut_zeros(uint64_t C) {
  uint64_t q = C / 100;
  int nd = 15;
  if (q % 100000000 == 0) {
    q /= 100000000;
    nd -= 8;
  }
  if (q % 10000 == 0) {
    q /= 10000;
    nd -= 4;
  }
  if (q % 100 == 0) {
    q /= 100;
    nd -= 2;
  }
  return nd - (q % 10 == 0);
}


_Static_assert(16 - KMIN < 99 && KMAX - 16 < 99, "dtoa_far writes exponents of two digits");

/* |x| = m 2^E outside [2^-36, 1e17), not a power of two: what slow_dtoa writes, v = |x| 10^s
   rounded half even to the fewest digits that keep it inside its interval (which is symmetric, so
   the nearest of a length is inside if any is), laid out d.ddde-XX.  G / 2^F is v within
   [G, G + 2), the ends of the interval within 3; what is that close to an integer or a half goes
   to slow_dtoa. */
static int dtoa_far(char *buf, double x, int neg, uint64_t m, int E) {
  for (int s = 16 - flog10_2(E + 52), tries = 0; tries < 2; tries++, s--) {
    if (s < KMIN || s > KMAX) {
      break;
    }
    const uint64_t *t = p10[s - KMIN];
    int F = 63 - E - flog2_10(s); /* 56..63 */
    u128 G = (u128)m * t[0] + (uint64_t)(((u128)m * t[1]) >> 64);
    uint64_t vi = (uint64_t)(G >> F);
    if (vi >= 100000000000000000ull) {
      continue; /* 18 digits: one power of ten less */
    }
    uint64_t mask = (1ull << F) - 1, half = 1ull << (F - 1), g = (uint64_t)G & mask;
    u128 L = G - (t[0] >> 1) - 1, U = G + (t[0] >> 1); /* half the gap is t / 2^65 */
    uint64_t lf = (uint64_t)L & mask, uf = (uint64_t)U & mask;
    if (g <= 1 || g >= mask - 1 || (g + 2 > half && g <= half) || lf == 0 || lf >= mask - 2 ||
        uf == 0 || uf >= mask - 2) {
      break;
    }
    uint64_t lo = (uint64_t)(L >> F) + 1, hi = (uint64_t)(U >> F), C, w1, w2;
    int X = 16 - s, nd;
    if (hi / 10 * 10 < lo) {
      C = vi + (g > half);
      nd = 17;
    } else if (hi / 100 * 100 < lo) {
      C = (vi / 10 + (vi % 10 >= 5)) * 10;
      nd = 16;
    } else if (hi / 100 < 1000000000000000ull) {
      C = hi / 100 * 100; /* the only multiple of 100 inside is the nearest */
      nd = cut_zeros(C);
    } else {
      C = 10000000000000000ull; /* 10^17 */
      nd = 1;
      X++;
    }
    char *o = buf + neg;
    int n = nd > 1 ? nd + 1 : 1, a = X < 0 ? -X : X;
    buf[0] = '-';
    o[0] = (char)('0' + digits17(C, &w1, &w2));
    o[1] = '.';
    store8(o + 2, w1);
    store8(o + 10, w2);
    o[n++] = 'e';
    o[n++] = X < 0 ? '-' : '+';
    o[n++] = (char)('0' + a / 10);
    o[n++] = (char)('0' + a % 10);
    o[n] = 0;
    return n + neg;
  }
  return slow_dtoa(buf, x);
}


/* zero, subnormals, inf, nan and |x| outside [2^-36, 1e17) */
static int __attribute__((noinline)) dtoa_other(char *buf, double x, uint64_t bits) {
  uint64_t ax = bits & ~(1ull << 63), f = ax & ((1ull << 52) - 1);
  int neg = (int)(bits >> 63), be = (int)(ax >> 52);
  if (ax == 0) {
    return (int)(strcpy(buf, neg ? "-0" : "0"), neg ? 2 : 1);
  }
  if (be == 0 || be == 0x7ff || f == 0) {
    return slow_dtoa(buf, x); /* subnormal, inf, nan, power of two */
  }
  return dtoa_far(buf, x, neg, f | (1ull << 52), be - 1075);
}


/* not 2^-36 <= |x| < 1e17: zero ("0" or "-0": a pose's matrices hold many) without a call */
static inline __attribute__((always_inline)) int dtoa_outside(char *buf, double x, uint64_t bits) {
  if ((bits & ~(1ull << 63)) == 0) {
    int neg = (int)(bits >> 63);
    buf[0] = '-';
    buf[neg] = '0';
    buf[neg + 1] = 0;
    return neg + 1;
  }
  return dtoa_other(buf, x, bits);
}


/* inline where it is called, as spu_strtod (and for the same reason: a CSV row calls it for every
   number); what is not 2^-36 <= |x| < 1e17 but zero is a call */
__attribute__((always_inline)) inline int spu_dtoa(char *buf, double x) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof(bits));
  uint64_t ax = bits & ~(1ull << 63);
  if (ax - (987ull << 52) >= p10up[28] - (987ull << 52)) {
    return dtoa_outside(buf, x, bits); /* not 2^-36 <= |x| < 1e17 */
  }
  uint64_t f = ax & ((1ull << 52) - 1), m = f | (1ull << 52);
  int neg = (int)(bits >> 63), E = (int)(ax >> 52) - 1075;

  /* 10^k <= |x| < 10^(k+1): v = |x| 10^s, s = 16 - k <= 27, is P 2^-sh, P = m 5^s, sh <= 61 */
  int k = flog10_2(E + 52);
  k += ax >= p10up[k + 12];
  int s = 16 - k, sh = -(E + s);
  uint64_t p5 = pow5[s];
  u128 P = (u128)m * p5;
  uint64_t plo = (uint64_t)P, phi = (uint64_t)(P >> 64);
  if (sh < 0) {
    plo <<= -sh; /* v an integer (|x| >= 2^52, P < 2^56): the same in units of 1/2 */
    p5 <<= -sh;
    sh = 0;
  }

  /* in units of 2^-D, D = sh + 1 <= 62: v = 2P = vi + fr, the gaps to the next doubles are
     5^s = hq + hr (the lower one half that below a power of two), their middles end the
     interval, and they count (read back) when m is even */
  int D = sh + 1;
  uint64_t mask = (2ull << sh) - 1, excl = m & 1, hq = p5 >> D, hr = p5 & mask;
  uint64_t vi = ((phi << 1) << (63 - sh)) | (plo >> sh), fr = (plo << 1) & mask;
  uint64_t c17 = vi + ((fr + (mask >> 1) + (vi & 1)) >> D); /* half even */
  uint64_t hi = vi + hq - 1 + ((fr + hr + mask + 1 - excl) >> D), lo;
  if (f != 0) {
    lo = vi - hq + ((fr + mask + excl - hr) >> D);
  } else {
    uint64_t mask2 = 2 * mask + 1; /* units of 2^-(D+1) */
    lo = vi - (p5 >> (D + 1)) + ((2 * fr + mask2 + excl - (p5 & mask2)) >> (D + 1));
  }

  /* drop digits while an integer of the shorter length stays inside (c17 always is): the
     17-digit rounding rounded half up, kept inside; C is that with its zeros, nd digits */
  uint64_t C, h10 = hi / 10, h100 = hi / 100;
  int nd, X = 16 - s;
  if (h100 * 100 >= lo) {
    if (h100 < 1000000000000000ull) {
      C = h100 * 100; /* the only multiple of 100 inside */
      nd = cut_zeros(C);
    } else {
      C = 10000000000000000ull; /* 10^17 (|x| just below 1e-6 or 1e-7): one digit */
      nd = 1;
      X++;
    }
  } else {
    /* no multiple of 100 inside: 17 or 16 digits, as the digits come, so both are made and
       one is taken by a mask (the compiler makes a branch of ?: here).  16: c17 rounded half up
       to a multiple of 10 and clamped to lo..hi.  With H the last multiple of 10 up to hi
       (lo <= c17 <= hi < H + 10) and d = H - c17 <= hi - lo <= 23, the nearest is H, or H - 10
       when d >= 6, or H - 20 when d >= 16 (ties go up); never above hi, and at most one step of
       10 below lo (it is within 5 of c17 >= lo), which the next line takes back */
    uint64_t H = h10 * 10, in17 = H < lo; /* no multiple of 10 inside: 17 digits */
    int64_t d = (int64_t)(H - c17);
    uint64_t c = H - 10 * (uint64_t)((d >= 6) + (d >= 16));
    c += 10 & (0 - (uint64_t)(c < lo));
    C = c + ((c17 - c) & (0 - in17));
    nd = 16 + (int)in17;
  }

  /* lay out C 10^(X - 16) like %g: fixed for exponents -5..16, else d.ddde-X; the digits are
     top, then 8 in w1 and 8 in w2, stored 8 at a time (buf has 32 bytes) */
  uint64_t w1, w2, top = digits17(C, &w1, &w2);
  char *o = buf + neg;
  int n;
  buf[0] = '-';
  o[0] = (char)('0' + top);
  if ((unsigned)(X + 5) <= 12 && X < nd - 1) {
    /* the usual case, -5 <= X <= 7 with a point among the digits or before them: one test for
       the range, then one on the sign of X (laying out both ways without a branch costs more
       instructions than the branch's mispredictions here) */
    if (X >= 0) {
      store8(o + 1, w1);
      store8(o + X + 2, (w1 >> 8 * X) | ((w2 << 1) << (63 - 8 * X)));
      store8(o + X + 10, w2 >> 8 * X);
      o[X + 1] = '.';
      n = nd + 1;
    } else {
      store8(o, 0x3030303030302e30ull); /* "0.000000" */
      o[1 - X] = (char)('0' + top);
      store8(o + 2 - X, w1);
      store8(o + 10 - X, w2);
      n = nd + 1 - X;
    }
  } else if (X >= nd - 1) {
    store8(o + 1, w1); /* an integer: the digits and their zeros */
    store8(o + 9, w2);
    n = X + 1;
  } else if (X >= 8) {
    store8(o + 1, w1);
    store8(o + 9, w2);
    store8(o + X + 2, w2 >> (8 * X - 64)); /* the digits after the point, one byte on */
    o[X + 1] = '.';
    n = nd + 1;
  } else {
    o[1] = '.';
    store8(o + 2, w1);
    store8(o + 10, w2);
    n = nd > 1 ? nd + 1 : 1;
    o[n++] = 'e';
    o[n++] = '-';
    if (X <= -10) {
      o[n++] = '1';
      X += 10;
    }
    o[n++] = (char)('0' - X);
  }
  o[n] = 0;
  return n + neg;
}
