/* spart_decimate.c -- a triangle mesh made coarse for a picture: vertex clustering (its vertices
 * snapped to a grid, each cell's to their mean; the triangles left with three cells, each once),
 * the finest grid whose triangles fit found by bisection on the cells along the mesh's extent */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"

/* the finest grid tried: this many cells along the mesh's largest extent */
#define DECIMATE_CELLS 256

/* a vertex: its cell, its index */
typedef struct {
  long key;
  int i;
} cellv;

/* the work of one mesh: its vertices and triangles, their low corner and largest extent, room */
typedef struct {
  const double *v;
  const int *t;
  int nv, nt;
  double lo[3], ext;
  cellv *c;     /* (nv) the vertices by cell */
  int *id;      /* (nv) each vertex's cluster */
  double *at;   /* (nv x 3) each cluster's point, the mean of its vertices */
  int *tri;     /* (nt x 3) the triangles between clusters */
} work;


static int cellv_cmp(const void *x, const void *y) {
  const cellv *a = x, *b = y;
  return a->key != b->key ? (a->key < b->key ? -1 : 1) : (a->i > b->i) - (a->i < b->i);
}


static int tri_cmp(const void *x, const void *y) {
  const int *a = x, *b = y;
  for (int k = 0; k < 3; k++) {
    if (a[k] != b[k]) {
      return a[k] < b[k] ? -1 : 1;
    }
  }
  return 0;
}


/* the clusters of a grid of n cells along the extent into w->id and w->at */
static void cluster(work *w, int n) {
  const double h = w->ext / n;
  for (int i = 0; i < w->nv; i++) {
    long key = 0;
    for (int k = 0; k < 3; k++) {
      double q = floor((w->v[3 * i + k] - w->lo[k]) / h);
      key = key * (n + 1) + (long)(q < 0 ? 0 : q > n ? n : q);
    }
    w->c[i].key = key;
    w->c[i].i = i;
  }
  qsort(w->c, (size_t)w->nv, sizeof *w->c, cellv_cmp);
  for (int j = 0, end = 0, nc = 0; j < w->nv; j = end, nc++) {
    /* the vertices j..end-1 share a cell: cluster nc, at their mean */
    double *a = w->at + 3 * nc;
    while (end < w->nv && w->c[end].key == w->c[j].key) {
      end++;
    }
    a[0] = a[1] = a[2] = 0;
    for (int q = j; q < end; q++) {
      w->id[w->c[q].i] = nc;
      for (int k = 0; k < 3; k++) {
        a[k] += w->v[3 * w->c[q].i + k] / (end - j);
      }
    }
  }
}


/* the triangles between three clusters of a grid of n cells, each once (its smallest cluster
   first, its turn kept) and of an area, sorted, into w->tri: their number */
static int triangles(work *w, int n) {
  int nt = 0, kept = 0;
  cluster(w, n);
  for (int j = 0; j < w->nt; j++) {
    int a = w->id[w->t[3 * j]], b = w->id[w->t[3 * j + 1]], c = w->id[w->t[3 * j + 2]];
    int *o = w->tri + 3 * nt, r = a < b && a < c ? 0 : b < c ? 1 : 2;
    const int abc[3] = {a, b, c};
    if (a == b || b == c || c == a) {
      continue;
    }
    for (int k = 0; k < 3; k++) {
      o[k] = abc[(r + k) % 3];
    }
    double e[3], f[3], x[3];
    for (int k = 0; k < 3; k++) {
      e[k] = w->at[3 * o[1] + k] - w->at[3 * o[0] + k];
      f[k] = w->at[3 * o[2] + k] - w->at[3 * o[0] + k];
    }
    spu_cross(x, e, f);
    nt += sqrt(spu_dot3(x, x)) > 1e-12 * w->ext * w->ext;
  }
  qsort(w->tri, (size_t)nt, 3 * sizeof *w->tri, tri_cmp);
  for (int j = 0; j < nt; j++) {
    if (j == 0 || tri_cmp(w->tri + 3 * j, w->tri + 3 * (kept - 1))) {
      memmove(w->tri + 3 * kept++, w->tri + 3 * j, 3 * sizeof *w->tri);
    }
  }
  return kept;
}


/* the finest grid (cells along the extent, at most DECIMATE_CELLS) whose triangles fit most:
   bisection between one that fits and one that does not; 0 when none does */
static int finest(work *w, int most) {
  int fit = 0, over = DECIMATE_CELLS;
  if (triangles(w, DECIMATE_CELLS) <= most) {
    return DECIMATE_CELLS;
  }
  while (over - fit > 1) {
    int mid = fit + (over - fit) / 2;
    if (triangles(w, mid) <= most) {
      fit = mid;
    } else {
      over = mid;
    }
  }
  return fit;
}


int spart_decimate(const double *vert, int nvert, const int *tri, int ntri, int most,
                   double *out) {
  work w = {vert, tri, nvert, ntri, {0, 0, 0}, 0, NULL, NULL, NULL, NULL};
  double hi[3];
  int nt;
  if (ntri <= most) {
    for (int j = 0; j < 3 * ntri; j++) {
      memcpy(out + 3 * j, vert + 3 * tri[j], 3 * sizeof *out);
    }
    return ntri;
  }
  for (int k = 0; k < 3; k++) {
    w.lo[k] = hi[k] = nvert ? vert[k] : 0;
  }
  for (int i = 1; i < nvert; i++) {
    for (int k = 0; k < 3; k++) {
      w.lo[k] = fmin(w.lo[k], vert[3 * i + k]);
      hi[k] = fmax(hi[k], vert[3 * i + k]);
    }
  }
  for (int k = 0; k < 3; k++) {
    w.ext = fmax(w.ext, hi[k] - w.lo[k]);
  }
  if (!(w.ext > 0)) {
    return 0; /* a point */
  }
  w.c = malloc((size_t)nvert * sizeof *w.c);
  w.id = malloc((size_t)nvert * sizeof *w.id);
  w.at = malloc(3 * (size_t)nvert * sizeof *w.at);
  w.tri = malloc(3 * (size_t)ntri * sizeof *w.tri);
  if (!w.c || !w.id || !w.at || !w.tri) {
    nt = -SPART_ENOMEM;
  } else {
    int n = finest(&w, most);
    nt = n > 0 ? triangles(&w, n) : -1;
    for (int j = 0; j < 3 * nt; j++) {
      memcpy(out + 3 * j, w.at + 3 * w.tri[j], 3 * sizeof *out);
    }
  }
  free(w.c);
  free(w.id);
  free(w.at);
  free(w.tri);
  return nt;
}
