/* base.c -- the small helpers under every other file of src/cli (readers, writers, -j,
 * options): a buffer grown, a CSV cell's quotes undone.  Calls nothing of src/cli. */
#include <stdlib.h>
#include <string.h>

#include "records.h"


int cli_grow(char **buf, size_t *cap, size_t need) {
  if (need <= *cap) {
    return 0;
  }
  size_t c = *cap ? *cap : 256;
  while (c < need) {
    c *= 2;
  }
  char *p = realloc(*buf, c);
  if (!p) {
    return -1;
  }
  *buf = p;
  *cap = c;
  return 0;
}


size_t cli_unquote(char *out, const char *s, size_t n) {
  size_t k = 0;
  if (n >= 2 && s[0] == '"') {
    for (size_t i = 1; i + 1 < n; i++) {
      out[k++] = s[i];
      i += s[i] == '"'; /* "" is one quote */
    }
  } else {
    memcpy(out, s, n);
    k = n;
  }
  out[k] = 0;
  return k;
}
