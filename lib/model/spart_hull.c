/* spart_hull.c -- the vertices of the convex hull of a set of points in space (a mesh's contact
 * points): incremental, each point farther than a tolerance outside the hull (from its faces,
 * not only from their planes) added, the faces it sees (by the exact sign of their orientation:
 * one region whatever the rounding) replaced by a cone from their horizon; then only the corners
 * kept, in rounds: a vertex within the tolerance of the hull of its neighbours dropped (a cube's
 * 8 corners, however its faces are cut), the hull of those left made again; a flat set's polygon
 * (the hull of the set and a point off its plane, that point left out), a line's two ends, a
 * point.  Never more faces than a hull has (2 V - 4): the exact signs keep the surface closed, so
 * there is no fallback. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"

/* a point within SPART_HULL_TOL times the points' extent of the hull of the others is not one of
   its corners (a float mesh's rounding is some 6e-8 of it) */
#define SPART_HULL_TOL 1e-7

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

static void sub3(const double *a, const double *b, double *c) {
  for (int k = 0; k < 3; k++) {
    c[k] = a[k] - b[k];
  }
}


/* exact arithmetic on expansions: a number as a sum of doubles of increasing magnitude that do
   not overlap (each term's bits below the next's), zeros dropped; its sign the largest term's */
static void two_sum(double a, double b, double *x, double *y) {
  double bv, av;
  *x = a + b;
  bv = *x - a;
  av = *x - bv;
  *y = (a - av) + (b - bv);
}


/* e (ne terms) plus b into h (room for ne + 1); h's number of terms */
static int grow(const double *e, int ne, double b, double *h) {
  int nh = 0;
  for (int k = 0; k < ne; k++) {
    double y;
    two_sum(b, e[k], &b, &y);
    if (y != 0) {
      h[nh++] = y;
    }
  }
  if (b != 0) {
    h[nh++] = b;
  }
  return nh;
}


/* e (ne terms) times f (nf terms) plus sign times the expansion a (na terms) into h (room for
   na + 2 ne nf); h's number of terms */
static int mul_add(const double *e, int ne, const double *f, int nf, double sign, const double *a,
                   int na, double *h) {
  double t[200];
  int nh = na;
  for (int k = 0; k < na; k++) {
    h[k] = sign * a[k];
  }
  for (int i = 0; i < ne; i++) {
    for (int j = 0; j < nf; j++) {
      double x = e[i] * f[j], y = fma(e[i], f[j], -x);
      memcpy(t, h, (size_t)nh * sizeof *t);
      nh = grow(t, nh, y, h);
      memcpy(t, h, (size_t)nh * sizeof *t);
      nh = grow(t, nh, x, h);
    }
  }
  return nh;
}


/* the sign of (b - a) x (c - a) . (d - a) exactly: 1 when d is on the side the normal of the
   triangle a, b, c (counter-clockwise) points to, -1 the other, 0 in its plane.  In doubles when
   the result is larger than its rounding error can be, else in expansions. */
static int orient(const double *a, const double *b, const double *c, const double *d) {
  double u[3], w[3], z[3], m[3], det = 0, perm = 0;
  for (int k = 0; k < 3; k++) {
    u[k] = b[k] - a[k], w[k] = c[k] - a[k], z[k] = d[k] - a[k];
  }
  for (int k = 0; k < 3; k++) {
    int i = (k + 1) % 3, j = (k + 2) % 3;
    m[k] = u[i] * w[j] - u[j] * w[i];
    det += z[k] * m[k];
    perm += fabs(z[k]) * (fabs(u[i] * w[j]) + fabs(u[j] * w[i]));
  }
  if (fabs(det) > 1e-15 * perm) { /* the error bound of this sum in doubles is below 8e-16 */
    return (det > 0) - (det < 0);
  }
  /* each difference exactly (two terms), each minor (at most 16), the determinant (at most 192) */
  double U[3][2], W[3][2], Z[3][2], mk[16], m2[16], sum[200] = {0}, s2[200];
  int nu[3], nw[3], nz[3], ns = 0;
  for (int k = 0; k < 3; k++) {
    double y;
    two_sum(b[k], -a[k], &U[k][1], &y), U[k][0] = y, nu[k] = 2;
    two_sum(c[k], -a[k], &W[k][1], &y), W[k][0] = y, nw[k] = 2;
    two_sum(d[k], -a[k], &Z[k][1], &y), Z[k][0] = y, nz[k] = 2;
  }
  for (int k = 0; k < 3; k++) {
    int i = (k + 1) % 3, j = (k + 2) % 3;
    int nm = mul_add(U[i], nu[i], W[j], nw[j], 0, NULL, 0, m2);
    memcpy(mk, m2, (size_t)nm * sizeof *mk);
    for (int q = 0; q < nm; q++) {
      mk[q] = -mk[q];
    }
    nm = mul_add(U[j], nu[j], W[i], nw[i], 1, mk, nm, m2); /* -(u_i w_j - u_j w_i) */
    memcpy(s2, sum, (size_t)ns * sizeof *s2);
    ns = mul_add(Z[k], nz[k], m2, nm, 1, s2, ns, sum); /* minus z_k m_k */
  }
  return ns ? (sum[ns - 1] < 0) - (sum[ns - 1] > 0) : 0;
}


static int cmp_int(const void *x, const void *y) {
  int a = *(const int *)x, b = *(const int *)y;
  return (a > b) - (a < b);
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


/* point i added to the hull when it lies farther than the tolerance outside some face: 1 added,
   0 inside, -1 out of memory.  The faces replaced are those it sees by the exact sign of their
   orientation (a point on a face's plane does not see it): one region of faces, its border one
   loop of edges, whatever the rounding of nearly coplanar points */
static double tri_dist2(const double *x, const double *a, const double *b, const double *c);
static int add_point(hull *h, int i, dedge **e, int *ecap) {
  const double *x = h->p + 3 * i;
  int ne = 0, seen = 0;
  double most = -INFINITY;
  for (int k = 0; k < h->nf; k++) {
    most = fmax(most, spu_dot3(h->f[k].n, x) - h->f[k].d);
  }
  if (!(most > 0)) {
    return 0;
  }
  double near = INFINITY; /* within eps of a seen face's plane: its distance to their triangles */
  for (int k = 0; k < h->nf; k++) {
    face *f = h->f + k;
    const double *a = h->p + 3 * f->v[0], *b = h->p + 3 * f->v[1], *c = h->p + 3 * f->v[2];
    f->dead = orient(a, b, c, x) > 0 ? 2 : 0;
    seen += f->dead != 0;
    if (f->dead && !(most > h->eps)) {
      near = fmin(near, tri_dist2(x, a, b, c));
    }
  }
  /* none seen (a sliver face's rounded normal saw it), or within eps of the hull: beyond a
     thin hull's rim a point lies near its faces' planes, not near the faces */
  if (!seen || (!(most > h->eps) && !(near > h->eps * h->eps))) {
    for (int k = 0; k < h->nf; k++) {
      h->f[k].dead = 0;
    }
    return 0;
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


/* the squared distance of x from the segment a b */
static double seg_dist2(const double *x, const double *a, const double *b) {
  double e[3], w[3], ee, t;
  sub3(b, a, e);
  sub3(x, a, w);
  ee = spu_dot3(e, e);
  t = ee > 0 ? fmin(fmax(spu_dot3(w, e) / ee, 0), 1) : 0;
  for (int c = 0; c < 3; c++) {
    w[c] -= t * e[c];
  }
  return spu_dot3(w, w);
}


/* the squared distance of x from the triangle a b c */
static double tri_dist2(const double *x, const double *a, const double *b, const double *c) {
  const double *v[3] = {a, b, c};
  double e[3], g[3], nrm[3], w[3], nn, d;
  int in = 1;
  sub3(b, a, e);
  sub3(c, a, g);
  spu_cross(nrm, e, g);
  nn = spu_dot3(nrm, nrm);
  sub3(x, a, w);
  d = nn > 0 ? spu_dot3(w, nrm) : 0;
  for (int k = 0; k < 3 && nn > 0; k++) { /* x's foot inside each edge */
    double y[3];
    sub3(v[(k + 1) % 3], v[k], e);
    sub3(x, v[k], w);
    spu_cross(y, nrm, e);
    in = in && spu_dot3(w, y) >= 0;
  }
  if (nn > 0 && in) {
    return d * d / nn;
  }
  return fmin(seg_dist2(x, a, b), fmin(seg_dist2(x, b, c), seg_dist2(x, c, a)));
}


/* whether point x lies within eps of the hull of the k points u (indices into p, a vertex's
   neighbours, x not inside their hull): Gilbert's iteration for the hull's point nearest x,
   from above (its distance) and below (the hull's extent along the way to it); when undecided,
   the nearest of the triangles of three of them (the hull's surface is some of them); 1 within,
   0 not (or more than 40 of them undecided) */
static int near_hull(const double *p, const double *x, int *u, int k, double eps) {
  double y[3] = {0, 0, 0}, best = INFINITY;
  int m = 0;
  for (int j = 0; j < k; j++) { /* the nearest of them to start */
    double d[3];
    sub3(p + 3 * u[j], x, d);
    if (spu_dot3(d, d) < best) {
      best = spu_dot3(d, d);
      memcpy(y, d, sizeof y);
    }
  }
  for (int it = 0; it < 32; it++) {
    double yy = spu_dot3(y, y), low = INFINITY, z[3] = {0, 0, 0}, d[3], t;
    if (yy <= eps * eps) {
      return 1;
    }
    for (int j = 0; j < k; j++) { /* the point farthest the other way along y */
      double w[3];
      sub3(p + 3 * u[j], x, w);
      if (spu_dot3(w, y) < low) {
        low = spu_dot3(w, y);
        memcpy(z, w, sizeof z);
      }
    }
    if (low > eps * sqrt(yy)) { /* every point farther than eps along y */
      return 0;
    }
    sub3(z, y, d); /* y moved toward z, to the segment's point nearest x */
    t = spu_dot3(d, d) > 0 ? fmin(fmax(-spu_dot3(y, d) / spu_dot3(d, d), 0), 1) : 0;
    for (int c = 0; c < 3; c++) {
      y[c] += t * d[c];
    }
  }
  qsort(u, (size_t)k, sizeof *u, cmp_int); /* each once */
  for (int j = 0; j < k; j++) {
    if (m == 0 || u[j] != u[m - 1]) {
      u[m++] = u[j];
    }
  }
  for (int a = 0; a < m && m <= 40; a++) {
    for (int b = a + 1; b < m; b++) {
      for (int c = b + 1; c < m; c++) {
        if (tri_dist2(x, p + 3 * u[a], p + 3 * u[b], p + 3 * u[c]) <= eps * eps) {
          return 1;
        }
      }
    }
  }
  return 0;
}


/* the hull's vertices marked in st (n of them): 1 a corner; 2 within the tolerance of the hull
   of its neighbours (so of all the others), none of its neighbours marked 2 (a round drops only
   vertices apart); 0 not on the hull.  The number marked 2, or -SPART_ENOMEM */
static int thin(const hull *h, int n, char *st) {
  int *first = calloc((size_t)n + 1, sizeof *first), *fl = malloc((size_t)3 * h->nf * sizeof *fl);
  int *at = malloc((size_t)n * sizeof *at), *nb = malloc((size_t)6 * h->nf * sizeof *nb), nd = 0;
  if (!first || !fl || !at || !nb) {
    free(first), free(fl), free(at), free(nb);
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
  memcpy(at, first, (size_t)n * sizeof *at);
  for (int f = 0; f < h->nf; f++) {
    for (int c = 0; c < 3; c++) {
      fl[at[h->f[f].v[c]]++] = f;
    }
  }
  for (int i = 0; i < n; i++) {
    int k = 0, apart = 1;
    st[i] = first[i + 1] > first[i];
    for (int l = first[i]; l < first[i + 1]; l++) { /* its neighbours */
      for (int c = 0; c < 3; c++) {
        int u = h->f[fl[l]].v[c];
        if (u != i) {
          nb[k++] = u;
          apart = apart && (u > i || st[u] != 2);
        }
      }
    }
    if (st[i] && apart && near_hull(h->p, h->p + 3 * i, nb, k, h->eps)) {
      st[i] = 2;
      nd++;
    }
  }
  free(first), free(fl), free(at), free(nb);
  return nd;
}


/* the first simplex of the n points (n > 0): two far points, the farthest from their line, the
   farthest from its plane into i[4]; the tolerance into *eps, the plane's normal into nrm; the
   set's dimension (0 all within eps of one point, 1 of a line, 2 of a plane, 3) */
static int simplex(const double *p, int n, int i[4], double *eps, double nrm[3]) {
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  double size = 0, u[3], w[3], pl[2], len;
  for (int k = 0; k < n; k++) {
    for (int c = 0; c < 3; c++) {
      lo[c] = fmin(lo[c], p[3 * k + c]);
      hi[c] = fmax(hi[c], p[3 * k + c]);
    }
  }
  for (int c = 0; c < 3; c++) {
    size = fmax(size, hi[c] - lo[c]);
  }
  *eps = SPART_HULL_TOL * size;
  i[0] = farthest(p, n, p, NULL, 0);
  i[1] = farthest(p, n, p + 3 * i[0], NULL, 0);
  i[0] = farthest(p, n, p + 3 * i[1], NULL, 0);
  if (size == 0) {
    return 0;
  }
  i[2] = farthest(p, n, p + 3 * i[0], p + 3 * i[1], 1);
  if (line_dist(p + 3 * i[0], p + 3 * i[1], p + 3 * i[2]) <= *eps) {
    return 1;
  }
  sub3(p + 3 * i[1], p + 3 * i[0], u);
  sub3(p + 3 * i[2], p + 3 * i[0], w);
  spu_cross(nrm, u, w);
  len = sqrt(spu_dot3(nrm, nrm));
  for (int c = 0; c < 3; c++) {
    nrm[c] /= len;
  }
  pl[0] = spu_dot3(nrm, p + 3 * i[0]);
  i[3] = farthest(p, n, nrm, pl, 2);
  return fabs(spu_dot3(nrm, p + 3 * i[3]) - pl[0]) <= *eps ? 2 : 3;
}


/* the hull h of the n points from their simplex i (of dimension 3), each point added in turn when
   farther than the tolerance outside it: 0 or -SPART_ENOMEM */
static int build(hull *h, int n, int i[4]) {
  const double *p = h->p;
  double nrm[3], u[3], w[3];
  dedge *e = NULL;
  int ecap = 0, rc = 0;
  /* the tetrahedron, its faces outwards: i3 below the plane (i0, i1, i2) */
  sub3(p + 3 * i[1], p + 3 * i[0], u);
  sub3(p + 3 * i[2], p + 3 * i[0], w);
  spu_cross(nrm, u, w);
  if (spu_dot3(nrm, p + 3 * i[3]) - spu_dot3(nrm, p + 3 * i[0]) > 0) {
    int t = i[1];
    i[1] = i[2];
    i[2] = t;
  }
  if (add_face(h, i[0], i[1], i[2]) || add_face(h, i[0], i[3], i[1]) ||
      add_face(h, i[1], i[3], i[2]) || add_face(h, i[2], i[3], i[0])) {
    rc = -SPART_ENOMEM;
  }
  for (int k = 0; k < n && !rc; k++) {
    if (k != i[0] && k != i[1] && k != i[2] && k != i[3] && add_point(h, k, &e, &ecap) < 0) {
      rc = -SPART_ENOMEM;
    }
  }
  free(e);
  return rc;
}


int spart_hull_tri(const double *p, int n, int **tri) {
  hull h = {p, NULL, 0, 0, 0};
  double nrm[3];
  int i[4], rc;
  *tri = NULL;
  if (n <= 0 || simplex(p, n, i, &h.eps, nrm) < 3) {
    return 0;
  }
  rc = build(&h, n, i);
  *tri = rc ? NULL : malloc((size_t)3 * h.nf * sizeof **tri);
  rc = rc ? rc : *tri ? h.nf : -SPART_ENOMEM;
  for (int k = 0; k < rc; k++) {
    memcpy(*tri + 3 * k, h.f[k].v, sizeof h.f[k].v);
  }
  free(h.f);
  return rc;
}


/* a set that lies on a line (dim 1) or at a point (0), i its simplex: its ends (map[i]) in
   order, or its one point, into out; their number */
static int ends(const int i[4], int dim, const int *map, int *out) {
  int a = map ? map[i[0]] : i[0], b = map ? map[i[1]] : i[1];
  out[0] = dim ? (a < b ? a : b) : a;
  out[1] = a < b ? b : a;
  return dim + 1;
}


/* q (m points, room for one more) made a solid when it is flat: a point off its plane at its
   extent's distance added (the apex of a pyramid on the polygon; map[m] -1); the first simplex
   into i, the hull's tolerance kept; the set's dimension (3 when made a solid) */
static int solid(hull *h, double *q, int *m, int *map, int i[4]) {
  double nrm[3], eps = h->eps, e;
  int dim = simplex(q, *m, i, &e, nrm);
  if (dim == 2) {
    int i0 = i[0], i1 = i[1];
    for (int c = 0; c < 3; c++) {
      q[3 * *m + c] = q[3 * i[0] + c] + e / SPART_HULL_TOL * nrm[c];
    }
    map[(*m)++] = -1;
    dim = simplex(q, *m, i, &e, nrm);
    if (dim < 3) { /* a polygon too thin for a pyramid: a line, its ends */
      --*m;
      dim = 1, i[0] = i0, i[1] = i1;
    }
  }
  h->eps = eps;
  return dim;
}


int spart_hull(const double *p, int n, int *out) {
  hull h = {NULL, NULL, 0, 0, 0};
  double nrm[3], *q;
  char *st;
  int i[4], rc, dim, m = n, *map;

  if (n <= 0) {
    return 0;
  }
  dim = simplex(p, n, i, &h.eps, nrm);
  if (dim < 2) {
    return ends(i, dim, NULL, out);
  }
  /* the hull (of a flat set and a point off its plane), then rounds of dropping its vertices
     within the tolerance of the hull of the others (no two neighbours in a round), the hull of
     those left made again */
  q = malloc((size_t)3 * (n + 1) * sizeof *q);
  st = malloc((size_t)n + 1);
  map = malloc(((size_t)n + 1) * sizeof *map);
  rc = q && st && map ? 0 : -SPART_ENOMEM;
  for (int k = 0; k < n && !rc; k++) {
    memcpy(q + 3 * k, p + 3 * k, 3 * sizeof *q);
    map[k] = k;
  }
  h.p = q;
  dim = rc ? 3 : solid(&h, q, &m, map, i);
  rc = rc ? rc : dim < 3 ? ends(i, dim, map, out) : build(&h, m, i);
  while (dim == 3 && !rc && (rc = thin(&h, m, st)) > 0) {
    int left = 0;
    for (int k = 0; k < m; k++) {
      if (st[k] == 1) {
        memmove(q + 3 * left, q + 3 * k, 3 * sizeof *q);
        map[left++] = map[k];
      }
    }
    m = left;
    free(h.f);
    h.f = NULL, h.nf = h.cap = 0;
    dim = solid(&h, q, &m, map, i);
    rc = dim < 3 ? ends(i, dim, map, out) : build(&h, m, i);
  }
  if (dim < 3) { /* what was left lies on a line or at a point */
    free(h.f), free(q), free(st), free(map);
    return rc;
  }
  for (int k = 0, left = 0; k < m && !rc; k++) {
    out[left] = map[k];
    left += st[k] == 1 && map[k] >= 0;
    rc = k == m - 1 ? left : 0;
  }
  free(h.f), free(q), free(st), free(map);
  return rc;
}
