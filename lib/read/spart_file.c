/* spart_file.c -- files under the readers: a whole file in memory, a model file (spart_load.c)
 * or a mesh's name; the file a URDF's mesh filename names (spart_urdf.c) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
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


char *spart_mesh_file(const spart_urdf_opts *o, const char *file, int *none) {
  char *p = NULL;
  *none = 1;
  if (strncmp(file, "package://", 10) == 0) {
    const char *pkg = file + 10, *rest = strchr(pkg, '/');
    size_t plen = rest ? (size_t)(rest - pkg) : strlen(pkg);
    for (int d = 0; rest && o && d < o->npackages; d++) {
      const char *dir = o->packages[d];
      size_t dlen = strlen(dir);
      while (dlen > 1 && dir[dlen - 1] == '/') {
        dlen--;
      }
      size_t n = dlen + plen + strlen(rest) + 3;
      const char *last = dir + dlen;
      while (last > dir && last[-1] != '/') {
        last--;
      }
      free(p);
      p = malloc(n);
      if (!p) {
        return NULL;
      }
      snprintf(p, n, "%.*s/%.*s%s", (int)dlen, dir, (int)plen, pkg, rest);
      if (access(p, R_OK) == 0) {
        *none = 0;
        return p;
      }
      if ((size_t)(dir + dlen - last) == plen && strncmp(last, pkg, plen) == 0) {
        snprintf(p, n, "%.*s%s", (int)dlen, dir, rest);
        if (access(p, R_OK) == 0) {
          *none = 0;
          return p;
        }
      }
    }
    free(p);
    return strdup("");
  }
  if (strncmp(file, "file://", 7) == 0) {
    p = strdup(file + 7);
  } else if (file[0] == '/' || !o || !o->dir || !o->dir[0]) {
    p = strdup(file);
  } else {
    size_t n = strlen(o->dir) + strlen(file) + 2;
    p = malloc(n);
    if (p) {
      snprintf(p, n, "%s/%s", o->dir, file);
    }
  }
  *none = p && access(p, R_OK) != 0;
  return p;
}
