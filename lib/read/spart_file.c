/* spart_file.c -- a whole file in memory, under the readers: a model file (spart_load.c), an STL
 * mesh (spart_stl.c) */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spart.h"
#include "spart_internal.h"

/* the largest file read into memory (1 GiB) */
#define MAX_FILE ((size_t)1 << 30)


char *spart_slurp_fd(int fd, const char *where, size_t *len, spart_err *err) {
  size_t n = 0, cap = 0;
  char *buf = NULL;

  /* read all, doubling the buffer */
  for (;;) {
    ssize_t got;
    if (cap - n < 2) {
      char *b = cap < MAX_FILE ? realloc(buf, cap ? 2 * cap : 65536) : NULL;
      if (!b) {
        if (cap < MAX_FILE) {
          spart_err_set(err, SPART_ENOMEM, 0, "out of memory");
        } else {
          spart_err_set(err, SPART_EDATA, 0, "input larger than %zu bytes", MAX_FILE);
        }
        free(buf);
        return NULL;
      }
      buf = b;
      cap = cap ? 2 * cap : 65536;
    }
    got = read(fd, buf + n, cap - n - 1);
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got < 0) {
      spart_err_set(err, SPART_EIO, 0, "cannot read %s: %s", where, strerror(errno));
      free(buf);
      return NULL;
    }
    if (got == 0) {
      break;
    }
    n += (size_t)got;
  }
  buf[n] = '\0';
  *len = n;
  return buf;
}


char *spart_slurp(const char *path, size_t *len, spart_err *err) {
  int fd = open(path, O_RDONLY);
  char *buf;
  if (fd < 0) {
    spart_err_set(err, SPART_EIO, 0, "cannot open %s: %s", path, strerror(errno));
    return NULL;
  }
  buf = spart_slurp_fd(fd, path, len, err);
  close(fd);
  return buf;
}
