/* spu_num.c -- doubles to and from decimal text, exactly and fast.
 *
 * Reading: a plain decimal of at most 19 significant digits and a small exponent is w * 10^e.
 * When w < 2^53 and |e| <= 22 one IEEE operation on exact operands rounds it correctly
 * (Clinger's fast path).  Otherwise, where long double has a 64-bit significand (x87), w and
 * 10^e (|e| <= 27) are exact in it and one operation rounds to 64 bits; rounding that again to 53
 * bits is wrong only when the 64-bit result lies exactly half-way between two doubles, which is
 * detected.  Everything else goes to strtod.
 *
 * Writing: the shortest decimal that reads back to the same double.  For 1e-11 < |x| < 1e17 the
 * value and the bounds of its rounding interval are computed exactly as 128-bit integers scaled by
 * 10^s * 2^D (s <= 27, so 5^s fits in 64 bits), and digits are dropped while an integer of the
 * shorter length stays inside the interval (the idea of Steele & White's and Ryu's shortest
 * output, with exact integers in place of their tables).  Other values bisect on printf's %.Pg.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spu.h"

__extension__ typedef unsigned __int128 u128;

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


/* the slow, always right path */
static double slow_strtod(const char *s, const char **end) {
  char *e;
  double x = strtod(s, &e);
  *end = e;
  return x;
}


/* 8 ASCII digits at p as a number, or -1 when they are not all digits (little-endian SWAR) */
static int64_t eight_digits(const char *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  v -= 0x3030303030303030ull;
  if (((v + 0x7676767676767676ull) | v) & 0x8080808080808080ull) {
    return -1;
  }
  v = (v * 10) + (v >> 8);
  v = (((v & 0x000000FF000000FFull) * (100 + (1000000ull << 32))) +
       (((v >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32)))) >> 32;
  return (int64_t)v;
}


/* digits at *pp into *w (at most 19 significant ones counted in *nd); returns how many digits */
static int read_digits(const char **pp, const char *lim, uint64_t *w, int *nd) {
  const char *p = *pp, *start = p;
  if (*w == 0) {
    while (*p == '0') {
      p++; /* leading zeros are not significant */
    }
  }
  while (lim && p + 8 <= lim && *nd <= 11) {
    int64_t eight = eight_digits(p);
    if (eight < 0) {
      break;
    }
    *w = *w * 100000000u + (uint64_t)eight;
    *nd += *w ? 8 : 0;
    p += 8;
  }
  while (*p >= '0' && *p <= '9') {
    *w = 10 * *w + (uint64_t)(*p - '0');
    *nd += *w != 0;
    p++;
  }
  *pp = p;
  return (int)(p - start);
}


double spu_strtod(const char *s, const char *lim, const char **end) {
  const char *p = s;
  int neg = 0, nd = 0, frac = 0, e10 = 0;
  uint64_t w = 0;

  /* sign, digits, a point and digits, then an optional exponent */
  if (*p == '-' || *p == '+') {
    neg = *p++ == '-';
  }
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
    return slow_strtod(s, end); /* hexadecimal */
  }
  int nint = read_digits(&p, lim, &w, &nd), nfrac = 0;
  if (*p == '.') {
    p++;
    nfrac = read_digits(&p, lim, &w, &nd);
    frac = nfrac;
  }
  if (nint + nfrac == 0 || nd > 19) {
    return slow_strtod(s, end); /* no digits (inf, nan, junk) or too many */
  }
  if (*p == 'e' || *p == 'E') {
    const char *q = p + 1;
    int eneg = 0, ex = 0;
    if (*q == '-' || *q == '+') {
      eneg = *q++ == '-';
    }
    if (*q >= '0' && *q <= '9') {
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
  e10 -= frac;
  if (w == 0) {
    return neg ? -0.0 : 0.0;
  }

  /* Clinger: both operands exact, one rounding */
  if (w < (1ull << 53) && e10 >= -22 && e10 <= 22) {
    double x = (double)w;
    x = e10 < 0 ? x / pow10d[-e10] : x * pow10d[e10];
    return neg ? -x : x;
  }

#if LDBL_MANT_DIG == 64
  /* x87: exact operands, one rounding to 64 bits, then to 53 unless that is a tie */
  if (e10 >= -27 && e10 <= 27) {
    int a = e10 < 0 ? -e10 : e10;
    long double pw = (long double)pow5[a] * (long double)(1ull << a); /* 10^a, exact */
    long double r = e10 < 0 ? (long double)w / pw : (long double)w * pw;
    uint64_t mant;
    memcpy(&mant, &r, sizeof(mant));
    if ((mant & 0x7ff) != 0x400) {
      double x = (double)r;
      return neg ? -x : x;
    }
  }
#endif
  return slow_strtod(s, end);
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
    snprintf(buf, 32, "%.*g", mid, x);
    if (strtod(buf, NULL) == x) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return snprintf(buf, 32, "%.*g", lo, x);
}


/* write the nd last decimal digits of c at buf, two at a time */
static void put_digits(char *buf, uint64_t c, int nd) {
  static const char pairs[201] = "00010203040506070809101112131415161718192021222324252627282930"
                                 "31323334353637383940414243444546474849505152535455565758596061"
                                 "62636465666768697071727374757677787980818283848586878889909192"
                                 "93949596979899";
  int k = nd;
  while (k >= 2) {
    const char *p = pairs + 2 * (c % 100);
    buf[k - 2] = p[0];
    buf[k - 1] = p[1];
    c /= 100;
    k -= 2;
  }
  if (k == 1) {
    buf[0] = (char)('0' + c % 10);
  }
}


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


/* number of decimal digits of c < 10^18, counting down from 17 (the usual case) */
static int ndigits(uint64_t c) {
  int nd = 17 + (c >= pow10u[17]);
  while (nd > 1 && c < pow10u[nd - 1]) {
    nd--;
  }
  return nd;
}


int spu_dtoa(char *buf, double x) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof(bits));
  int neg = (int)(bits >> 63), be = (int)((bits >> 52) & 0x7ff);
  uint64_t f = bits & ((1ull << 52) - 1);
  if (x == 0) {
    return (int)(strcpy(buf, neg ? "-0" : "0"), neg ? 2 : 1);
  }
  if (be == 0 || be == 0x7ff) {
    return slow_dtoa(buf, x); /* subnormal, inf, nan */
  }

  /* x = m 2^E; scale by 10^s so that 1e16 <= v = x 10^s < 1e17 */
  uint64_t m = f | (1ull << 52);
  int E = be - 1075;
  int s = 16 - (((E + 52) * 78913) >> 18); /* floor(log10(2^(E+52))), exact for |E| < 1650 */
  for (int tries = 0; tries < 3; tries++) {
    if (s < 0 || s > 27) {
      return slow_dtoa(buf, x);
    }
    /* v = Vn / 2^D, its rounding interval (Ln, Hn) / 2^D; 4x to keep the narrow lower gap of a
       power of two integral */
    int D = -(E + s) + 2, lift = 0;
    if (D < 0) {
      lift = -D;
      D = 0;
    }
    u128 p5 = pow5[s];
    u128 Vn = ((u128)(4 * m) * p5) << lift;
    u128 Ln = ((u128)(f == 0 && be > 1 ? 4 * m - 1 : 4 * m - 2) * p5) << lift;
    u128 Hn = ((u128)(4 * m + 2) * p5) << lift;
    u128 unit = (u128)1 << D;
    u128 v = Vn >> D;
    if (v >= 100000000000000000ull) {
      s--;
      continue;
    }
    if (v < 10000000000000000ull) {
      s++;
      continue;
    }

    /* the integers inside the interval; its ends count when m is even (ties to even) */
    int incl = (m & 1) == 0;
    uint64_t lo = (uint64_t)(Ln >> D), hi = (uint64_t)(Hn >> D);
    if ((Ln & (unit - 1)) != 0 || !incl) {
      lo++;
    }
    if ((Hn & (unit - 1)) == 0 && !incl) {
      hi--;
    }
    /* the nearest 17-digit integer, ties to even */
    u128 rem = Vn & (unit - 1), half = unit >> 1;
    uint64_t c = (uint64_t)v + (D > 0 && (rem > half || (rem == half && (v & 1))));

    /* drop digits while a shorter integer stays inside */
    int t = 0;
    uint64_t pw = 1;
    while (t < 16) {
      uint64_t qlo = (lo + 9) / 10, qhi = hi / 10;
      if (qlo > qhi) {
        break;
      }
      lo = qlo;
      hi = qhi;
      t++;
      pw *= 10;
    }
    if (t > 0) {
      c = (c + pw / 2) / pw;
      c = c < lo ? lo : c > hi ? hi : c;
    }

    /* lay out c 10^(t - s) like %g: fixed for exponents -5..16, else scientific */
    int nd = ndigits(c);
    int X = nd - 1 + t - s, n = 0;
    if (neg) {
      buf[n++] = '-';
    }
    if (X >= 0 && X <= 16) {
      if (X >= nd - 1) {
        put_digits(buf + n, c, nd);
        n += nd;
        for (int z = 0; z < X - (nd - 1); z++) {
          buf[n++] = '0';
        }
      } else {
        put_digits(buf + n, c / pow10u[nd - 1 - X], X + 1);
        n += X + 1;
        buf[n++] = '.';
        put_digits(buf + n, c % pow10u[nd - 1 - X], nd - 1 - X);
        n += nd - 1 - X;
      }
    } else if (X < 0 && X >= -5) {
      buf[n++] = '0';
      buf[n++] = '.';
      for (int z = 0; z < -X - 1; z++) {
        buf[n++] = '0';
      }
      put_digits(buf + n, c, nd);
      n += nd;
    } else {
      put_digits(buf + n, c / pow10u[nd - 1], 1);
      n++;
      if (nd > 1) {
        buf[n++] = '.';
        put_digits(buf + n, c % pow10u[nd - 1], nd - 1);
        n += nd - 1;
      }
      buf[n++] = 'e';
      if (X < 0) {
        buf[n++] = '-';
        X = -X;
      }
      int ne = ndigits((uint64_t)X);
      put_digits(buf + n, (uint64_t)X, ne);
      n += ne;
    }
    buf[n] = 0;
    return n;
  }
  return slow_dtoa(buf, x);
}
