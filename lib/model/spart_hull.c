/* spart_hull.c -- the vertices of the convex hull of a set of points in space (a mesh's contact
 * points): incremental, each point added past the faces it sees by more than a tolerance, the
 * faces it saw replaced by a cone from their horizon; then only the corners kept (a vertex whose
 * faces lie in fewer than three planes is inside a face or an edge: a cube's 8 corners, however
 * its faces are cut); a flat set's polygon, a line's two ends, a point */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"

/* a point within SPART_HULL_TOL times the points' extent of the hull is inside it (a float
   mesh's rounding is some 6e-8 of it); a vertex whose faces' normals span no angle larger than
   SPART_HULL_ANGLE (rad) out of a plane is not a corner */
#define SPART_HULL_TOL 1e-7
#define SPART_HULL_ANGLE 1e-6

/* a face: its corners counter-clockwise seen from outside, its outward unit normal and offset */
typedef struct face {
  int v[3];
  double n[3], d;
  int dead;
} face;

typedef struct hull {
  const double *p;
  face *f;
  int nf, cap;
  double eps;
} hull;

/* a directed edge, sorted to find its reverse */
typedef struct dedge {
  int a, b, f; /* f: its face */
} dedge;

int spart_edge_cmp(const void *x, const void *y) {
  const int *p = x, *q = y;
  return p[0] != q[0] ? (p[0] > q[0]) - (p[0] < q[0]) : (p[1] > q[1]) - (p[1] < q[1]);
}

static int cmp_int(const void *x, const void *y) {
  int a = *(const int *)x, b = *(const int *)y;
  return (a > b) - (a < b);
}


static void sub3(const double *a, const double *b, double *c) {
  for (int k = 0; k < 3; k++) {
    c[k] = a[k] - b[k];
  }
}


/* the face (a, b, c) added, its plane from its corners; 0 or -1 out of memory */
static int add_face(hull *h, int a, int b, int c) {
  double u[3], w[3], len;
  face *f;
  if (h->nf == h->cap) {
    face *g = realloc(h->f, (size_t)(h->cap ? 2 * h->cap : 64) * sizeof *g);
    if (!g) {
      return -1;
    }
    h->f = g;
    h->cap = h->cap ? 2 * h->cap : 64;
  }
  f = h->f + h->nf++;
  f->v[0] = a, f->v[1] = b, f->v[2] = c;
  sub3(h->p + 3 * b, h->p + 3 * a, u);
  sub3(h->p + 3 * c, h->p + 3 * a, w);
  spu_cross(f->n, u, w);
  len = sqrt(spu_dot3(f->n, f->n));
  for (int k = 0; k < 3; k++) {
    f->n[k] = len > 0 ? f->n[k] / len : 0;
  }
  f->d = spu_dot3(f->n, h->p + 3 * a);
  f->dead = 0;
  return 0;
}


/* the directed edges of the faces marked 2, sorted, into *e (*ne of them); 0 or -1 */
static int seen_edges(const hull *h, dedge **e, int *ecap, int *ne) {
  *ne = 0;
  for (int k = 0; k < h->nf; k++) {
    const face *f = h->f + k;
    if (f->dead != 2) {
      continue;
    }
    if (*ne + 3 > *ecap) {
      dedge *g = realloc(*e, (size_t)(2 * *ecap + 64) * sizeof *g);
      if (!g) {
        return -1;
      }
      *e = g;
      *ecap = 2 * *ecap + 64;
    }
    for (int c = 0; c < 3; c++) {
      (*e)[*ne].a = f->v[c];
      (*e)[*ne].b = f->v[(c + 1) % 3];
      (*e)[(*ne)++].f = k;
    }
  }
  qsort(*e, (size_t)*ne, sizeof **e, spart_edge_cmp);
  return 0;
}


/* point i added to the hull when some face sees it: 1 added, 0 inside, -1 out of memory.  The
   faces replaced are those it sees joined by edges to the one it sees most (the tolerance can
   make the seen faces more than one region; replacing them all would tear the hull) */
static int add_point(hull *h, int i, dedge **e, int *ecap) {
  const double *x = h->p + 3 * i;
  int ne = 0, top = -1;
  double most = h->eps;
  for (int k = 0; k < h->nf; k++) {
    face *f = h->f + k;
    double dist = spu_dot3(f->n, x) - f->d;
    if (!f->dead && dist > h->eps) {
      f->dead = 2; /* seen by i */
      if (dist > most || top < 0) {
        most = dist, top = k;
      }
    }
  }
  if (top < 0) {
    return 0;
  }
  if (seen_edges(h, e, ecap, &ne)) {
    return -1;
  }
  /* the region of seen faces around top (marked 3), by their shared edges */
  h->f[top].dead = 3;
  for (int grew = 1; grew;) {
    grew = 0;
    for (int k = 0; k < ne; k++) {
      if (h->f[(*e)[k].f].dead != 3) {
        continue;
      }
      dedge r = {(*e)[k].b, (*e)[k].a, 0};
      const dedge *q = bsearch(&r, *e, (size_t)ne, sizeof r, spart_edge_cmp);
      if (q && h->f[q->f].dead == 2) {
        h->f[q->f].dead = 3;
        grew = 1;
      }
    }
  }
  for (int k = 0; k < h->nf; k++) {
    h->f[k].dead = h->f[k].dead == 3 ? 2 : h->f[k].dead == 2 ? 0 : h->f[k].dead;
  }
  if (seen_edges(h, e, ecap, &ne)) {
    return -1;
  }
  /* the horizon: the edges of seen faces whose reverse is no seen face's; a cone to i on each */
  for (int k = 0; k < ne; k++) {
    dedge r = {(*e)[k].b, (*e)[k].a, 0};
    if (!bsearch(&r, *e, (size_t)ne, sizeof r, spart_edge_cmp) &&
        add_face(h, (*e)[k].a, (*e)[k].b, i)) {
      return -1;
    }
  }
  /* the dead faces dropped */
  int kept = 0;
  for (int k = 0; k < h->nf; k++) {
    if (!h->f[k].dead) {
      h->f[kept++] = h->f[k];
    }
  }
  h->nf = kept;
  return 1;
}


/* the distance of point c from the line through a, b (direction not unit) */
static double line_dist(const double *a, const double *b, const double *c) {
  double u[3], w[3], x[3], uu;
  sub3(b, a, u);
  sub3(c, a, w);
  spu_cross(x, u, w);
  uu = spu_dot3(u, u);
  return uu > 0 ? sqrt(spu_dot3(x, x) / uu) : 0;
}


/* the index of the point farthest by score from all n (the first of equals) */
static int farthest(const double *p, int n, const double *a, const double *b, int what) {
  int best = 0;
  double bd = -1;
  for (int k = 0; k < n; k++) {
    const double *x = p + 3 * k;
    double dd;
    if (what == 0) {
      double u[3];
      sub3(x, a, u);
      dd = spu_dot3(u, u);
    } else if (what == 1) {
      dd = line_dist(a, b, x);
    } else {
      dd = fabs(spu_dot3(a, x) - b[0]);
    }
    if (dd > bd) {
      bd = dd;
      best = k;
    }
  }
  return best;
}


/* a flat set's polygon (points within eps of the plane of normal nrm): Andrew's monotone chain
   in the plane's axes, points on an edge left out; the corners into out, their number */
static int flat_hull(const double *p, int n, const double nrm[3], double eps, int *out) {
  double u[3] = {1, 0, 0}, w[3], t;
  int *ord = malloc((size_t)n * sizeof *ord), *st = malloc(((size_t)2 * n + 1) * sizeof *st);
  double *uv = malloc((size_t)n * 2 * sizeof *uv);
  int k = 0;
  if (!ord || !st || !uv) {
    free(ord), free(st), free(uv);
    return -SPART_ENOMEM;
  }
  if (fabs(nrm[0]) > 0.6) {
    u[0] = 0, u[1] = 1;
  }
  t = spu_dot3(u, nrm);
  for (int c = 0; c < 3; c++) {
    u[c] -= t * nrm[c];
  }
  t = sqrt(spu_dot3(u, u));
  for (int c = 0; c < 3; c++) {
    u[c] /= t;
  }
  spu_cross(w, nrm, u);
  for (int i = 0; i < n; i++) {
    uv[2 * i] = spu_dot3(u, p + 3 * i);
    uv[2 * i + 1] = spu_dot3(w, p + 3 * i);
    ord[i] = i;
  }
  /* sorted by u then w (insertion: a flat mesh is small, and this keeps ties in index order) */
  for (int i = 1; i < n; i++) {
    int x = ord[i], j = i;
    while (j > 0 && (uv[2 * ord[j - 1]] > uv[2 * x] ||
                     (uv[2 * ord[j - 1]] == uv[2 * x] && uv[2 * ord[j - 1] + 1] > uv[2 * x + 1]))) {
      ord[j] = ord[j - 1];
      j--;
    }
    ord[j] = x;
  }
  for (int pass = 0; pass < 2; pass++) {
    int lo = k;
    for (int q = 0; q < n; q++) {
      int i = ord[pass ? n - 1 - q : q];
      while (k >= lo + 2) {
        const double *a = uv + 2 * st[k - 2], *b = uv + 2 * st[k - 1], *c = uv + 2 * i;
        double cr = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
        double ab = hypot(b[0] - a[0], b[1] - a[1]);
        if (cr > eps * ab) {
          break;
        }
        k--;
      }
      st[k++] = i;
    }
    k--; /* the last is the next chain's first */
  }
  for (int i = 0; i < k; i++) {
    out[i] = st[i];
  }
  qsort(out, (size_t)k, sizeof *out, cmp_int);
  free(ord), free(st), free(uv);
  return k;
}


/* the hull's vertices that are corners (their faces in three planes or more) into out */
static int corners(const hull *h, int n, int *out) {
  int *first = calloc((size_t)n + 1, sizeof *first), *fl = malloc((size_t)3 * h->nf * sizeof *fl);
  int k = 0;
  if (!first || !fl) {
    free(first), free(fl);
    return -SPART_ENOMEM;
  }
  for (int f = 0; f < h->nf; f++) { /* each vertex's faces: counted, then listed */
    for (int c = 0; c < 3; c++) {
      first[h->f[f].v[c] + 1]++;
    }
  }
  for (int i = 0; i < n; i++) {
    first[i + 1] += first[i];
  }
  int *at = malloc((size_t)n * sizeof *at);
  if (!at) {
    free(first), free(fl);
    return -SPART_ENOMEM;
  }
  memcpy(at, first, (size_t)n * sizeof *at);
  for (int f = 0; f < h->nf; f++) {
    for (int c = 0; c < 3; c++) {
      fl[at[h->f[f].v[c]]++] = f;
    }
  }
  for (int i = 0; i < n; i++) {
    const double *n0;
    double x[3] = {0, 0, 0}, big = 0, c3[3] = {0, 0, 0}, far = 0;
    if (first[i + 1] == first[i]) {
      continue;
    }
    n0 = h->f[fl[first[i]]].n;
    for (int j = first[i]; j < first[i + 1]; j++) { /* the normal farthest from the first */
      double y[3], l;
      spu_cross(y, n0, h->f[fl[j]].n);
      l = sqrt(spu_dot3(y, y));
      if (l > big) {
        big = l;
        memcpy(x, y, sizeof x);
      }
    }
    for (int c = 0; c < 3 && big > 0; c++) {
      c3[c] = x[c] / big;
    }
    for (int j = first[i]; j < first[i + 1] && big > SPART_HULL_ANGLE; j++) {
      far = fmax(far, fabs(spu_dot3(c3, h->f[fl[j]].n)));
    }
    if (far > SPART_HULL_ANGLE) {
      out[k++] = i;
    }
  }
  free(first), free(fl), free(at);
  return k;
}


int spart_hull(const double *p, int n, int *out) {
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  double size = 0, nrm[3], u[3], w[3], pl[2], len;
  hull h = {p, NULL, 0, 0, 0};
  dedge *e = NULL;
  int ecap = 0, i0, i1, i2, i3, rc = 0;

  if (n <= 0) {
    return 0;
  }
  for (int i = 0; i < n; i++) {
    for (int c = 0; c < 3; c++) {
      lo[c] = fmin(lo[c], p[3 * i + c]);
      hi[c] = fmax(hi[c], p[3 * i + c]);
    }
  }
  for (int c = 0; c < 3; c++) {
    size = fmax(size, hi[c] - lo[c]);
  }
  h.eps = SPART_HULL_TOL * size;
  /* a first simplex: two far points, the farthest from their line, the farthest from its plane */
  i0 = farthest(p, n, p, NULL, 0);
  i1 = farthest(p, n, p + 3 * i0, NULL, 0);
  i0 = farthest(p, n, p + 3 * i1, NULL, 0);
  if (size == 0) {
    out[0] = 0;
    return 1;
  }
  i2 = farthest(p, n, p + 3 * i0, p + 3 * i1, 1);
  if (line_dist(p + 3 * i0, p + 3 * i1, p + 3 * i2) <= h.eps) {
    out[0] = i0 < i1 ? i0 : i1;
    out[1] = i0 < i1 ? i1 : i0;
    return 2;
  }
  sub3(p + 3 * i1, p + 3 * i0, u);
  sub3(p + 3 * i2, p + 3 * i0, w);
  spu_cross(nrm, u, w);
  len = sqrt(spu_dot3(nrm, nrm));
  for (int c = 0; c < 3; c++) {
    nrm[c] /= len;
  }
  pl[0] = spu_dot3(nrm, p + 3 * i0);
  i3 = farthest(p, n, nrm, pl, 2);
  if (fabs(spu_dot3(nrm, p + 3 * i3) - pl[0]) <= h.eps) {
    return flat_hull(p, n, nrm, h.eps, out);
  }
  /* the tetrahedron, its faces outwards: i3 below the plane (i0, i1, i2) */
  if (spu_dot3(nrm, p + 3 * i3) - pl[0] > 0) {
    int t = i1;
    i1 = i2;
    i2 = t;
  }
  if (add_face(&h, i0, i1, i2) || add_face(&h, i0, i3, i1) || add_face(&h, i1, i3, i2) ||
      add_face(&h, i2, i3, i0)) {
    rc = -SPART_ENOMEM;
  }
  int lost = 0;
  for (int i = 0; i < n && !rc && !lost; i++) {
    if (i != i0 && i != i1 && i != i2 && i != i3 && add_point(&h, i, &e, &ecap) < 0) {
      rc = -SPART_ENOMEM;
    }
    /* a hull of n points has at most 2 n - 4 faces: more, and the tolerance's visible faces
       were not one region (nearly coplanar points, a float mesh's rounding) */
    lost = h.nf > 2 * n;
  }
  if (lost) { /* every point kept: the corners among them */
    for (int i = 0; i < n; i++) {
      out[i] = i;
    }
    rc = n;
  }
  rc = rc ? rc : corners(&h, n, out);
  free(h.f);
  free(e);
  return rc;
}
