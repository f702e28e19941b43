/* test_num.c -- spu_strtod is strtod bit for bit (value and end); spu_dtoa reads back, is never
 * longer than the shortest %.Ng that reads back, and writes the same bytes as a plain reference
 * (ref_dtoa: exact 128-bit integers, as spu_dtoa worked before it was made fast, and printf's
 * shortest %.Pg outside 2^-36 <= |x| < 1e17).  On millions of random doubles and decimal strings,
 * values near powers of 10 and 2, texts near half-way between two doubles and exact ties.
 *
 * usage: test_num [N]   prints one line per check, then "N passed, N failed" (4 lines) */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_text.h"
#include "spu.h"

__extension__ typedef unsigned __int128 u128;

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static int npass, nfail;


static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}


/* the shortest %.Pg that reads back, by trying P = 1, 2, ... in turn (the library bisects) */
static int ref_printf(char *buf, double x) {
  if (!isfinite(x)) {
    return snprintf(buf, 32, "%g", x);
  }
  for (int p = 1; p < 17; p++) {
    int n = snprintf(buf, 32, "%.*g", p, x);
    if (n < 32 && strtod(buf, NULL) == x) {
      return n;
    }
  }
  return snprintf(buf, 32, "%.17g", x);
}


/* the reference: for 2^-36 <= |x| < 1e17, v = |x| 10^s (17 digits before the point) and its
   rounding interval as exact 128-bit integers scaled by 2^D; v rounded half even to 17 digits,
   then half up to the fewest digits that some integer inside the interval has, kept inside; laid
   out fixed for decimal exponents -5..16, else d.ddde-X.  Elsewhere ref_printf.  (Up to 16
   digits could go before, so that 1e-6 and 1e-7 were written 1.0e-6 and 1.0e-7.) */
static int ref_dtoa(char *buf, double x) {
  uint64_t bits, p5 = 1, p10[19] = {1};
  memcpy(&bits, &x, sizeof(bits));
  int neg = (int)(bits >> 63), be = (int)((bits >> 52) & 0x7ff), E = be - 1075, s, t = 0;
  uint64_t f = bits & ((1ull << 52) - 1), m = f | (1ull << 52), c, lo, hi;
  double ax = fabs(x);
  for (int k = 1; k < 19; k++) {
    p10[k] = 10 * p10[k - 1];
  }
  if (x == 0) {
    return (int)(strcpy(buf, neg ? "-0" : "0"), neg ? 2 : 1);
  }
  if (be == 0 || be == 0x7ff || E < -88 || ax >= 1e17) {
    return ref_printf(buf, x);
  }
  for (s = 0; ax * pow(10, s) < 1e16 * (1 - 1e-9); s++) {
  }
  for (int k = 0; k < s; k++) {
    p5 *= 5;
  }
  int D = 2 - (E + s), lift = D < 0 ? -D : 0;
  D = D < 0 ? 0 : D;
  u128 V = ((u128)(4 * m) * p5) << lift, H = ((u128)(4 * m + 2) * p5) << lift;
  u128 L = ((u128)(f == 0 ? 4 * m - 1 : 4 * m - 2) * p5) << lift, unit = (u128)1 << D;
  if ((V >> D) >= p10[17] || (V >> D) < p10[16]) {
    s += (V >> D) < p10[16] ? 1 : -1; /* the guess of s was off by one */
    p5 = 1;
    for (int k = 0; k < s; k++) {
      p5 *= 5;
    }
    D = 2 - (E + s), lift = D < 0 ? -D : 0;
    D = D < 0 ? 0 : D;
    V = ((u128)(4 * m) * p5) << lift, H = ((u128)(4 * m + 2) * p5) << lift;
    L = ((u128)(f == 0 ? 4 * m - 1 : 4 * m - 2) * p5) << lift, unit = (u128)1 << D;
  }
  int incl = (m & 1) == 0;
  u128 v = V >> D, rem = V & (unit - 1), half = unit >> 1;
  lo = (uint64_t)(L >> D) + ((L & (unit - 1)) != 0 || !incl);
  hi = (uint64_t)(H >> D) - ((H & (unit - 1)) == 0 && !incl);
  c = (uint64_t)v + (D > 0 && (rem > half || (rem == half && (v & 1))));
  while (t < 17 && (lo + p10[t + 1] - 1) / p10[t + 1] <= hi / p10[t + 1]) {
    t++;
  }
  if (t > 0) {
    uint64_t l = (lo + p10[t] - 1) / p10[t], h = hi / p10[t];
    c = (c + p10[t] / 2) / p10[t];
    c = c < l ? l : c > h ? h : c;
  }
  int nd = 1, X, n = 0;
  while (nd < 18 && c >= p10[nd]) {
    nd++;
  }
  X = nd - 1 + t - s;
  char d[24];
  snprintf(d, sizeof(d), "%llu", (unsigned long long)c);
  if (neg) {
    buf[n++] = '-';
  }
  if (X >= 0 && X <= 16) {
    for (int k = 0; k < nd || k <= X; k++) {
      if (k == X + 1) {
        buf[n++] = '.';
      }
      buf[n++] = k < nd ? d[k] : '0';
    }
  } else if (X < 0 && X >= -5) {
    n += sprintf(buf + n, "0.%.*s%s", -X - 1, "0000", d);
  } else {
    n += sprintf(buf + n, "%c%s%s", d[0], nd > 1 ? "." : "", d + 1);
    n += sprintf(buf + n, "e%d", X);
  }
  buf[n] = 0;
  return n;
}


/* a random double: random bits, a random "nice" decimal, a random binary fraction, a value near
   a power of ten or of two, a result-like value */
static double random_double(void) {
  uint64_t r = next(), bits;
  double x;
  switch (r % 6) {
    case 0:
      bits = next();
      memcpy(&x, &bits, sizeof(x));
      return x;
    case 1:
      return (double)(int64_t)(next() % 2000001 - 1000000) / pow(10, (double)(next() % 12));
    case 2:
      return ldexp((double)(next() >> 11), (int)(next() % 120) - 100);
    case 3:
      x = pow(10, (double)((int)(next() % 80) - 40));
      bits = (uint64_t)(int64_t)(next() % 5) - 2;
      return nextafter(x, bits & 1 ? INFINITY : 0);
    case 4:
      x = ldexp(1, (int)(next() % 200) - 100);
      for (int k = (int)(next() % 5) - 2; k != 0; k += k < 0 ? 1 : -1) {
        x = nextafter(x, k < 0 ? 0 : INFINITY);
      }
      return x;
    default:
      return sin((double)(next() % 1000000)) * pow(10, (double)((int)(next() % 20) - 14));
  }
}


static void report(long bad, long n, const char *what) {
  printf("%s %s: %ld failures in %ld\n", bad ? "FAIL" : "ok", what, bad, n);
  bad ? nfail++ : npass++;
}


/* spu_strtod against strtod on txt, with lim at its end, without lim, and on txt followed by
   more text (a CSV row goes on after a number) with lim 40 bytes on; 1 if they differ */
static int parse_differs(const char *txt) {
  static const char *more[] = {",0.25,1", "", "e5,", "x,", ".5", "0000000", " 1", "\r", "-"};
  static unsigned next_more;
  char padded[160];
  snprintf(padded, sizeof(padded), "%s%s%s", txt, more[next_more++ % 9],
           ",1.5,2.5,3.5,4.5,5.5,6.5,7.5,8.5,9.5,10.5,11.5");
  for (int k = 0; k < 4; k++) {
    const char *end, *t = k < 2 ? txt : padded;
    char *send;
    size_t n = strlen(t);
    double a = spu_strtod(t, k == 0 ? NULL : k == 1 ? t + n : t + (n < 40 ? n : 40), &end);
    double b = strtod(t, &send);
    if ((memcmp(&a, &b, sizeof(a)) != 0 && !(isnan(a) && isnan(b))) || end != send) {
      printf("parse '%s': %.17g (end +%d), strtod %.17g (end +%d)\n", t, a, (int)(end - t), b,
             (int)(send - t));
      return 1;
    }
  }
  return 0;
}


/* spu_dtoa of x: reads back, has the reference's bytes; adds to the failure counts */
static void check_dtoa(double x, long *bad_rt, long *bad_ref) {
  char buf[64], ref[64];
  memset(buf, 'x', sizeof(buf));
  int len = spu_dtoa(buf, x), rlen = ref_dtoa(ref, x);
  double y = strtod(buf, NULL);
  if (isfinite(x) && (memcmp(&x, &y, sizeof(x)) != 0 || (int)strlen(buf) != len)) {
    if ((*bad_rt)++ < 5) {
      printf("round trip: %.17g -> %s -> %.17g\n", x, buf, y);
    }
  }
  if (len != rlen || strcmp(buf, ref) != 0 || memchr(buf + 32, 0, 32) || buf[40] != 'x') {
    if ((*bad_ref)++ < 5) {
      printf("bytes: %.17g -> '%s', reference '%s'\n", x, buf, ref);
    }
  }
}


/* the decimal digits of v */
static int u128_text(char *out, u128 v) {
  char t[48];
  int n = 0;
  do {
    t[n++] = (char)('0' + (int)(v % 10));
    v /= 10;
  } while (v);
  for (int k = 0; k < n; k++) {
    out[k] = t[n - 1 - k];
  }
  out[n] = 0;
  return n;
}


int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 2000000;
  long bad_rt = 0, bad_short = 0, bad_ref = 0, bad_parse = 0, bad_rand = 0, bad_half = 0;
  long bad_str = 0, nref = 0, nrand = 0, nhalf = 0;
  char buf[64], ref[64];

  /* random doubles: spu_dtoa reads back, is the reference, is no longer than the shortest %.Ng;
     spu_strtod equals strtod on the %.15g, %.16g, %.17g texts and on the shortest */
  for (long k = 0; k < n; k++) {
    double x = random_double();
    if (!isfinite(x)) {
      continue;
    }
    check_dtoa(x, &bad_rt, &bad_ref);
    nref++;
    int len = spu_dtoa(buf, x);
    if (k % 8 == 0) {
      int digits = 0, shortest = 0;
      for (int p = 1; p <= 17; p++) {
        snprintf(ref, sizeof(ref), "%.*e", p - 1, x);
        if (strtod(ref, NULL) == x) {
          shortest = p;
          break;
        }
      }
      const char *e = strchr(buf, 'e') ? strchr(buf, 'e') : buf + len;
      for (const char *c = buf; c < e; c++) {
        digits += *c >= '0' && *c <= '9';
      }
      /* trailing zeros of an integer written in full are not significant either */
      for (const char *c = e - 1; !strchr(buf, '.') && c > buf && *c == '0'; c--) {
        digits--;
      }
      /* leading zeros of 0.000ddd are not significant */
      for (const char *c = buf + (buf[0] == '-'); *c == '0' || *c == '.'; c++) {
        digits -= *c == '0';
      }
      if (digits > shortest && bad_short++ < 5) {
        printf("not shortest: %.17g -> %s (%d digits, %d suffice)\n", x, buf, digits, shortest);
      }
    }
    for (int p = 0; p < 4; p++) {
      if (p < 3) {
        snprintf(ref, sizeof(ref), "%.*g", 15 + p, x);
      }
      bad_parse += parse_differs(p < 3 ? ref : buf);
    }
  }

  /* every power of ten and of two, and their neighbours */
  for (int e = -330; e <= 310; e++) {
    snprintf(ref, sizeof(ref), "1e%d", e);
    double x = strtod(ref, NULL), lo = x, hi = x;
    for (int k = 0; k < 40; k++, nref += 2) {
      check_dtoa(lo, &bad_rt, &bad_ref);
      check_dtoa(-hi, &bad_rt, &bad_ref);
      lo = nextafter(lo, 0);
      hi = nextafter(hi, INFINITY);
    }
  }
  for (int e = -1074; e <= 1023; e++) {
    double x = ldexp(1, e), lo = x, hi = x;
    for (int k = 0; k < 4; k++, nref += 2) {
      check_dtoa(lo, &bad_rt, &bad_ref);
      check_dtoa(hi, &bad_rt, &bad_ref);
      lo = nextafter(lo, 0);
      hi = nextafter(hi, INFINITY);
    }
  }
  static const double special[] = {INFINITY, -INFINITY, NAN, 0.0, -0.0, DBL_MAX, DBL_MIN,
                                   DBL_TRUE_MIN, 1e-7, 1e-6, 0.1, 0.5, 1, 3, 1e16, 9.81};
  for (size_t k = 0; k < sizeof(special) / sizeof(special[0]); k++, nref++) {
    check_dtoa(special[k], &bad_rt, &bad_ref);
  }

  /* random texts of 16 to 19 digits, a point anywhere, exponents -30..30 */
  for (long k = 0; k < n; k++, nrand++) {
    int nd = 16 + (int)(next() % 4), pt = (int)(next() % (uint64_t)(nd + 1)), p = 0;
    if (next() & 1) {
      buf[p++] = '-';
    }
    for (int i = 0; i < nd; i++) {
      if (i == pt) {
        buf[p++] = '.';
      }
      buf[p++] = (char)('0' + (i == 0 ? 1 + next() % 9 : next() % 10));
    }
    if (next() % 3) {
      p += sprintf(buf + p, next() & 1 ? "e%d" : "E%+03d", (int)(next() % 61) - 30);
    }
    buf[p] = 0;
    bad_rand += parse_differs(buf);
  }

  /* plain decimals as CSV files hold them: a sign or none, 0 to 9 digits, a point or none, 0 to
     25 digits, often zeros first (and the padding of parse_differs after them) */
  for (long k = 0; k < n; k++, nrand++) {
    int p = 0, ni = (int)(next() % 10), nf = (int)(next() % 26), zeros = (int)(next() % 12);
    if (next() % 3 == 0) {
      buf[p++] = next() & 1 ? '-' : '+';
    }
    for (int i = 0; i < ni; i++) {
      buf[p++] = (char)('0' + (i < zeros ? 0 : next() % 10));
    }
    if (next() % 8) {
      buf[p++] = '.';
    }
    for (int i = 0; i < nf; i++) {
      buf[p++] = (char)('0' + (ni + i < zeros ? 0 : next() % 10));
    }
    buf[p] = 0;
    bad_rand += parse_differs(buf);
  }

  /* half-way between two doubles: exact ties of at most 19 digits, (2m + 1) 2^(e-1) for small e,
     and (where long double has 64 bits) 17 to 19 digits of any half-way point, and the last
     digit one up or down */
  for (long k = 0; k < n / 4; k++) {
    uint64_t m = (1ull << 52) | (next() >> 12);
    int e = (int)(next() % 18) - 4;
    if (e >= 1) {
      u128_text(buf, (u128)(2 * m + 1) << (e - 1));
    } else {
      u128 v = 2 * m + 1; /* (2m + 1) 5^(1-e) / 10^(1-e) */
      for (int i = 0; i < 1 - e; i++) {
        v *= 5;
      }
      int len = u128_text(buf, v);
      memmove(buf + len - (1 - e) + 1, buf + len - (1 - e), (size_t)(1 - e) + 1);
      buf[len - (1 - e)] = '.';
    }
    bad_half += parse_differs(buf);
    nhalf++;
#if LDBL_MANT_DIG >= 64
    uint64_t bits = ((uint64_t)(1023 - 250 + next() % 500) << 52) | (next() >> 12);
    double x;
    memcpy(&x, &bits, sizeof(x));
    long double mid = ((long double)x + (long double)nextafter(x, INFINITY)) / 2;
    snprintf(buf, sizeof(buf), "%.*Le", 16 + (int)(next() % 3), mid);
    bad_half += parse_differs(buf);
    char *ex = strchr(buf, 'e');
    ex[-1] = (char)(ex[-1] == '9' ? '8' : ex[-1] + 1);
    bad_half += parse_differs(buf);
    nhalf += 2;
#endif
  }

  /* awkward strings: signs, points, exponents, junk, many digits, zeros */
  static const char *strs[] = {"0", "-0", "+1", ".5", "5.", "-.5e-3", "1e", "1e+", "1.5E+3x",
                               "00000000000000000000001", "123456789012345678901234567890",
                               "0.000000000000000000000000000001", "1e400", "-1e-400", "inf",
                               "nan", "0x1p3", "", "-", ".", "e5", "1.2.3", "9007199254740993",
                               "17976931348623157000000000000000000000e271",
                               "2.2250738585072011e-308", "4.9406564584124654e-324",
                               "0.000000000123456789", "1e99999999999", "4503599627370496.5",
                               "9007199254740993e3", "18446744073709551615",
                               "99999999999999999999", "0.10000000000000000555", " 1", "1,5",
                               "7.e-1x", "+.e1"};
  for (size_t k = 0; k < sizeof(strs) / sizeof(strs[0]); k++) {
    bad_str += parse_differs(strs[k]);
  }

  /* four lines, as tests/lib.bats expects */
  report(bad_rt + bad_ref, nref, "spu_dtoa reads back and writes the reference's bytes");
  report(bad_short, (n + 7) / 8, "spu_dtoa is shortest");
  report(bad_parse + bad_rand + bad_half, 4 * n + nrand + nhalf,
         "spu_strtod is strtod on written doubles, 16-19 digit texts, plain decimals and "
         "half-way texts");
  report(bad_str, (long)(sizeof(strs) / sizeof(strs[0])), "spu_strtod on awkward strings");
  printf("%d passed, %d failed\n", npass, nfail);
  return nfail != 0;
}
