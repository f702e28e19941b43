/* spart_stl.c -- STL triangle meshes, binary and ASCII, into a spart_mesh (vertices shared by
 * triangles merged when their coordinates are equal) */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_internal.h"

/* the most triangles read (a 1 GiB binary file holds some 21 million) */
#define MAX_TRI 50000000


void spart_mesh_free(spart_mesh *mesh) {
  if (mesh) {
    free(mesh->vert);
    free(mesh->tri);
    mesh->vert = NULL;
    mesh->tri = NULL;
    mesh->nvert = mesh->ntri = 0;
  }
}


/* a little-endian float and uint32 */
static double le_float(const unsigned char *p) {
  uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}


static uint32_t le_u32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}


/* a corner of a triangle and its place, sorted to merge equal corners */
typedef struct corner {
  double x[3];
  int k;
} corner;

static int cmp_corner(const void *a, const void *b) {
  const corner *p = a, *q = b;
  for (int k = 0; k < 3; k++) {
    if (p->x[k] != q->x[k]) {
      return p->x[k] < q->x[k] ? -1 : 1;
    }
  }
  return (p->k > q->k) - (p->k < q->k);
}


/* the mesh of ntri triangles whose corners are raw (9 ntri): equal corners merged */
static int build(spart_mesh *mesh, const double *raw, int ntri, spart_err *err) {
  int n = 3 * ntri, nv = 0;
  corner *c = malloc((size_t)n * sizeof *c);
  mesh->tri = malloc((size_t)n * sizeof *mesh->tri);
  mesh->vert = malloc((size_t)n * 3 * sizeof *mesh->vert);
  if (!c || !mesh->tri || !mesh->vert) {
    free(c);
    spart_mesh_free(mesh);
    return spart_err_set(err, SPART_ENOMEM, 0, "out of memory");
  }
  for (int k = 0; k < n; k++) {
    memcpy(c[k].x, raw + 3 * k, sizeof c[k].x);
    c[k].k = k;
  }
  qsort(c, (size_t)n, sizeof *c, cmp_corner);
  for (int k = 0; k < n; k++) {
    if (nv == 0 || memcmp(mesh->vert + 3 * (nv - 1), c[k].x, sizeof c[k].x) != 0) {
      memcpy(mesh->vert + 3 * nv++, c[k].x, sizeof c[k].x);
    }
    mesh->tri[c[k].k] = nv - 1;
  }
  mesh->nvert = nv;
  mesh->ntri = ntri;
  free(c);
  return 0;
}


/* an ASCII STL: "solid NAME", then facets "facet normal ... outer loop vertex x y z (3) endloop
   endfacet", then "endsolid" */
static int ascii(const char *buf, size_t len, const char *path, spart_mesh *mesh,
                 spart_err *err) {
  const char *p = buf, *end = buf + len;
  double *raw = NULL;
  int n = 0, cap = 0, corners = 0, rc;
  (void)path;
  while (p < end) {
    const char *w;
    while (p < end && isspace((unsigned char)*p)) {
      p++;
    }
    w = p;
    while (p < end && !isspace((unsigned char)*p)) {
      p++;
    }
    if ((size_t)(p - w) == 6 && memcmp(w, "vertex", 6) == 0) {
      if (3 * n + corners >= 3 * cap) {
        double *r = cap < MAX_TRI ? realloc(raw, (size_t)(cap ? 2 * cap : 64) * 9 * sizeof *raw)
                                  : NULL;
        if (!r) {
          free(raw);
          return cap < MAX_TRI ? spart_err_set(err, SPART_ENOMEM, 0, "out of memory")
                               : spart_err_set(err, SPART_EDATA, 0, "more than %d triangles",
                                               MAX_TRI);
        }
        raw = r;
        cap = cap ? 2 * cap : 64;
      }
      for (int k = 0; k < 3; k++) {
        char *e;
        double x = strtod(p, &e);
        if (e == p || !isfinite(x)) {
          free(raw);
          return spart_err_set(err, SPART_EDATA, 0, "a vertex without three finite numbers");
        }
        raw[9 * n + 3 * corners + k] = x;
        p = e;
      }
      if (++corners == 3) {
        corners = 0;
        n++;
      }
    } else if ((size_t)(p - w) == 7 && memcmp(w, "endloop", 7) == 0 && corners != 0) {
      free(raw);
      return spart_err_set(err, SPART_EDATA, 0, "a facet without three vertices");
    }
  }
  if (corners != 0 || n == 0) {
    free(raw);
    return spart_err_set(err, SPART_EDATA, 0, n ? "a facet without three vertices"
                                                : "no facets");
  }
  rc = build(mesh, raw, n, err);
  free(raw);
  return rc;
}


int spart_stl_parse(const char *buf, size_t len, const char *path, spart_mesh *mesh,
                    spart_err *err) {
  mesh->nvert = mesh->ntri = 0;
  mesh->vert = NULL;
  mesh->tri = NULL;
  /* binary when the size is what its count says (a binary header may start "solid" too) */
  if (len >= 84) {
    uint32_t n = le_u32((const unsigned char *)buf + 80);
    if (n <= MAX_TRI && len == 84 + 50 * (size_t)n) {
      double *raw = malloc(((size_t)n + 1) * 9 * sizeof *raw);
      int rc;
      if (!raw) {
        return spart_err_set(err, SPART_ENOMEM, 0, "out of memory");
      }
      for (size_t t = 0; t < n; t++) {
        const unsigned char *f = (const unsigned char *)buf + 84 + 50 * t + 12;
        for (int k = 0; k < 9; k++) {
          raw[9 * t + k] = le_float(f + 4 * k);
          if (!isfinite(raw[9 * t + k])) {
            free(raw);
            return spart_err_set(err, SPART_EDATA, 0, "triangle %zu: a number is not finite",
                                 t + 1);
          }
        }
      }
      rc = n ? build(mesh, raw, (int)n, err) : spart_err_set(err, SPART_EDATA, 0, "no facets");
      free(raw);
      return rc;
    }
  }
  if (len >= 5 && memcmp(buf, "solid", 5) == 0 && !memchr(buf, '\0', len)) {
    return ascii(buf, len, path, mesh, err);
  }
  return spart_err_set(err, SPART_EDATA, 0, "not an STL file (binary: %zu bytes where its "
                       "count says otherwise; ASCII: no 'solid')", len);
}


int spart_stl_read(const char *path, spart_mesh *mesh, spart_err *err) {
  size_t len = 0;
  char *buf = spart_slurp(path, &len, err);
  int rc;
  if (!buf) {
    return err && err->code == SPART_ENOMEM ? -SPART_ENOMEM : -SPART_EIO;
  }
  rc = spart_stl_parse(buf, len, path, mesh, err);
  free(buf);
  return rc;
}
