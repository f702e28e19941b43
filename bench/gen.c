/* gen.c -- a synthetic trajectory CSV for the benchmarks: time, then qm, um and a third field
 * (umdot by default, or taum) of n_q joints, smooth sinusoids written as %.17g.
 * usage: gen NQ ROWS [THIRD] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int nq = argc > 1 ? atoi(argv[1]) : 7;
  long rows = argc > 2 ? atol(argv[2]) : 1000000;
  printf("time");
  const char *names[3] = {"qm", "um", argc > 3 ? argv[3] : "umdot"};
  for (int f = 0; f < 3; f++) {
    for (int j = 1; j <= nq; j++) {
      printf(",%s_%d", names[f], j);
    }
  }
  putchar('\n');
  for (long r = 0; r < rows; r++) {
    double t = r * 1e-3;
    printf("%.3f", t);
    for (int j = 0; j < nq; j++) {
      printf(",%.17g", 0.8 * sin(0.5 * t + j));
    }
    for (int j = 0; j < nq; j++) {
      printf(",%.17g", 0.4 * cos(0.5 * t + j));
    }
    for (int j = 0; j < nq; j++) {
      printf(",%.17g", -0.2 * sin(0.5 * t + j));
    }
    putchar('\n');
  }
  return 0;
}
