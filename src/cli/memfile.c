/* memfile.c -- text written through a FILE into memory, whole or known to be lost.  glibc's
 * open_memstream drops what it cannot grow its buffer for, and neither ferror nor fclose says
 * so (a generated source with a constant cut short, exit 0); this stream's write then fails,
 * stdio's error flag is set, and cli_memfile_close returns -1. */
#define _GNU_SOURCE /* fopencookie */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "cli.h"


/* the cookie's write: n bytes appended, or 0 (an error to stdio) when the text cannot grow */
static ssize_t memfile_write(void *cookie, const char *buf, size_t n) {
  cli_memfile *mf = cookie;
  if (mf->lost || n > (size_t)SSIZE_MAX - mf->len - 1) {
    mf->lost = 1;
    return 0;
  }
  if (mf->len + n + 1 > mf->cap) {
    size_t cap = mf->cap ? mf->cap : 4096;
    while (cap < mf->len + n + 1) {
      cap *= 2;
    }
    char *t = realloc(mf->text, cap);
    if (!t) {
      mf->lost = 1;
      return 0;
    }
    mf->text = t;
    mf->cap = cap;
  }
  memcpy(mf->text + mf->len, buf, n);
  mf->len += n;
  mf->text[mf->len] = 0;
  return (ssize_t)n;
}


FILE *cli_memfile_open(cli_memfile *mf) {
  cookie_io_functions_t io = {NULL, memfile_write, NULL, NULL};
  memset(mf, 0, sizeof *mf);
  return fopencookie(mf, "w", io);
}


int cli_memfile_close(FILE *f, cli_memfile *mf) {
  int err = ferror(f);
  err |= fclose(f) != 0;
  if (err || mf->lost || !mf->text) {
    free(mf->text);
    memset(mf, 0, sizeof *mf);
    return -1;
  }
  return 0;
}


int cli_save(const char *prog, const char *path, const char *text, size_t len) {
  FILE *f = fopen(path, "w");
  int err = !f || fwrite(text, 1, len, f) != len;
  err |= f && fclose(f) != 0;
  if (err) {
    cli_error(prog, NULL, 0, "cannot write %s: %s", path, strerror(errno));
    if (f) {
      remove(path);
    }
    return CLI_EXIT_IO;
  }
  return 0;
}
