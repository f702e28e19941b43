/* naive.c -- the floor that spart's streaming is measured against: a filter that reads every
 * field of every CSV row with strtod, and writes 7 numbers a row with printf("%.17g").  It does
 * no dynamics at all: it only moves the numbers. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  double sum[7] = {0};
  if (getline(&line, &cap, stdin) < 0) {
    return 0;
  }
  puts("taum_1,taum_2,taum_3,taum_4,taum_5,taum_6,taum_7");
  while ((len = getline(&line, &cap, stdin)) > 0) {
    char *p = line, *end;
    int k = 0;
    for (;;) {
      double x = strtod(p, &end);
      if (end == p) {
        break;
      }
      sum[k % 7] = x;
      k++;
      p = *end == ',' ? end + 1 : end;
    }
    printf("%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", sum[0], sum[1], sum[2], sum[3], sum[4],
           sum[5], sum[6]);
  }
  free(line);
  return 0;
}
