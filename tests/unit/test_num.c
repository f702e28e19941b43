/* test_num.c -- spu_strtod is strtod bit for bit, spu_dtoa reads back and is never longer than
 * the shortest %.Ng that reads back, on millions of random doubles and decimal strings.
 *
 * usage: test_num [N]   prints one line per check, then "N passed, N failed" */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spu.h"

static uint64_t rng = 0x2545F4914F6CDD1Dull;


static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}


/* a random double: random bits, or a random "nice" decimal, or a value near a power of ten */
static double random_double(void) {
  uint64_t r = next(), bits;
  double x;
  switch (r % 4) {
    case 0:
      bits = next();
      memcpy(&x, &bits, sizeof(x));
      return x;
    case 1:
      return (double)(int64_t)(next() % 2000001 - 1000000) / pow(10, (double)(next() % 12));
    case 2:
      return ldexp((double)(next() >> 11), (int)(next() % 120) - 100);
    default:
      x = pow(10, (double)((int)(next() % 40) - 20));
      bits = (uint64_t)(int64_t)(next() % 5) - 2;
      return nextafter(x, bits & 1 ? INFINITY : 0);
  }
}


int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 2000000;
  long bad_rt = 0, bad_short = 0, bad_parse = 0, bad_str = 0;
  char buf[64], ref[64];

  for (long k = 0; k < n; k++) {
    double x = random_double(), y;
    if (!isfinite(x)) {
      continue;
    }
    /* spu_dtoa reads back (with strtod), and is no longer than the shortest %.Ng */
    int len = spu_dtoa(buf, x);
    y = strtod(buf, NULL);
    if (memcmp(&x, &y, sizeof(x)) != 0 || (int)strlen(buf) != len) {
      if (bad_rt++ < 5) {
        printf("round trip: %.17g -> %s -> %.17g\n", x, buf, y);
      }
    }
    if (k % 8 == 0) {
      int digits = 0, shortest = 0;
      for (int p = 1; p <= 17; p++) {
        snprintf(ref, sizeof(ref), "%.*e", p - 1, x);
        if (strtod(ref, NULL) == x) {
          shortest = p;
          break;
        }
      }
      const char *e = strchr(buf, 'e') ? strchr(buf, 'e') : buf + strlen(buf);
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
      if (digits > shortest) {
        if (bad_short++ < 5) {
          printf("not shortest: %.17g -> %s (%d digits, %d suffice)\n", x, buf, digits, shortest);
        }
      }
    }

    /* spu_strtod equals strtod on the %.17g, %.16g, %.15g texts and on the shortest */
    for (int p = 0; p < 4; p++) {
      const char *txt = buf;
      if (p < 3) {
        snprintf(ref, sizeof(ref), "%.*g", 15 + p, x);
        txt = ref;
      }
      const char *end;
      char *send;
      double a = spu_strtod(txt, txt + strlen(txt), &end), b = strtod(txt, &send);
      if (memcmp(&a, &b, sizeof(a)) != 0 || end != send) {
        if (bad_parse++ < 5) {
          printf("parse: %s -> %.17g, strtod %.17g\n", txt, a, b);
        }
      }
    }
  }

  /* awkward strings: signs, points, exponents, junk, many digits */
  static const char *strs[] = {"0", "-0", "+1", ".5", "5.", "-.5e-3", "1e", "1e+", "1.5E+3x",
                               "00000000000000000000001", "123456789012345678901234567890",
                               "0.000000000000000000000000000001", "1e400", "-1e-400", "inf",
                               "nan", "0x1p3", "", "-", ".", "e5", "1.2.3", "9007199254740993",
                               "179769313486231570000000000000000000000000000000000000000000000e246",
                               "2.2250738585072011e-308", "4.9406564584124654e-324"};
  for (size_t k = 0; k < sizeof(strs) / sizeof(strs[0]); k++) {
    const char *end;
    char *send;
    double a = spu_strtod(strs[k], strs[k] + strlen(strs[k]), &end), b = strtod(strs[k], &send);
    if ((memcmp(&a, &b, sizeof(a)) != 0 && !(isnan(a) && isnan(b))) || end != send) {
      bad_str++;
      printf("parse '%s': %.17g (end +%d), strtod %.17g (end +%d)\n", strs[k], a,
             (int)(end - strs[k]), b, (int)(send - strs[k]));
    }
  }

  int npass = 0, nfail = 0;
  printf("%s spu_dtoa reads back: %ld failures in %ld\n", bad_rt ? "FAIL" : "ok", bad_rt, n);
  bad_rt ? nfail++ : npass++;
  printf("%s spu_dtoa is shortest: %ld failures in %ld\n", bad_short ? "FAIL" : "ok", bad_short,
         n / 8);
  bad_short ? nfail++ : npass++;
  printf("%s spu_strtod is strtod: %ld failures in %ld\n", bad_parse ? "FAIL" : "ok", bad_parse,
         4 * n);
  bad_parse ? nfail++ : npass++;
  printf("%s spu_strtod on awkward strings: %ld failures\n", bad_str ? "FAIL" : "ok", bad_str);
  bad_str ? nfail++ : npass++;
  printf("%d passed, %d failed\n", npass, nfail);
  return nfail != 0;
}
