/* spart_view.c -- the geometry of pictures: views (orthographic projections) and the outlines
 * of the links' shapes in them, from the poses of spart_fk */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"

static const double PI = 3.14159265358979323846;


void spart_view_axes(int view, double right[3], double up[3], double toward[3]) {
  static const double t[SPART_VIEWS][3] = {{1, 0, 0}, {0, -1, 0}, {0, 0, 1}, {1, -1, 1}};
  const double z[3] = {0, 0, 1};
  double n;
  memcpy(toward, t[view], sizeof t[view]);
  n = sqrt(spu_dot3(toward, toward));
  for (int k = 0; k < 3; k++) {
    toward[k] /= n;
  }
  if (view == SPART_VIEW_TOP) {
    right[0] = 1;
    right[1] = right[2] = 0;
  } else {
    spu_cross(right, z, toward);
    n = sqrt(spu_dot3(right, right));
    for (int k = 0; k < 3; k++) {
      right[k] /= n;
    }
  }
  spu_cross(up, toward, right);
}


void spart_view_project(int view, const double x[3], double uvd[3]) {
  double r[3], u[3], t[3];
  spart_view_axes(view, r, u, t);
  uvd[0] = spu_dot3(x, r);
  uvd[1] = spu_dot3(x, u);
  uvd[2] = spu_dot3(x, t);
}


/* the convex hull of the n points p (n x 2), counter-clockwise, into h; its vertices */
static int hull(double *p, int n, double *h) {
  int k = 0;
  /* sort by x then y (insertion: n is small) */
  for (int i = 1; i < n; i++) {
    double a = p[2 * i], b = p[2 * i + 1];
    int j = i - 1;
    while (j >= 0 && (p[2 * j] > a || (p[2 * j] == a && p[2 * j + 1] > b))) {
      p[2 * j + 2] = p[2 * j];
      p[2 * j + 3] = p[2 * j + 1];
      j--;
    }
    p[2 * j + 2] = a;
    p[2 * j + 3] = b;
  }
  for (int pass = 0; pass < 2; pass++) {
    int start = k;
    for (int q = 0; q < n; q++) {
      const double *c = p + 2 * (pass ? n - 1 - q : q);
      while (k >= start + 2 &&
             (h[2 * k - 2] - h[2 * k - 4]) * (c[1] - h[2 * k - 3]) -
                     (h[2 * k - 1] - h[2 * k - 3]) * (c[0] - h[2 * k - 4]) <= 0) {
        k--;
      }
      h[2 * k] = c[0];
      h[2 * k + 1] = c[1];
      k++;
    }
    k--; /* the last is the next pass's first */
  }
  return k < 1 ? 1 : k;
}


int spart_shape_outline(const spart_model *m, const spart_data *d, int s, int view, double *uv,
                        double *depth) {
  double R[9], p[3], pts[2 * 2 * SPART_OUTLINE_ARC], c[3], r[3], u[3], t[3];
  const double *z = m->shape_size + 3 * s, *b = m->shape_bound + 6 * s;
  int n = 0, kind = m->shape_kind[s];
  if (kind == SPART_SHAPE_MESH && m->shape_mesh[s] != SPART_MESH_READ) {
    return 0;
  }
  spart_shape_pose(m, d, s, R, p);
  spart_view_axes(view, r, u, t);
  spart_view_project(view, p, c);
  *depth = c[2];
  if (spart_shape_point(m, s)) { /* a point: its one point */
    uv[0] = c[0];
    uv[1] = c[1];
    return 1;
  }
  if (kind == SPART_SHAPE_BOX || kind == SPART_SHAPE_MESH) {
    for (int k = 0; k < 8; k++) {
      double l[3] = {b[k & 1 ? 3 : 0], b[k & 2 ? 4 : 1], b[k & 4 ? 5 : 2]}, x[3], q[3];
      spu_mulmv3(x, R, l);
      for (int j = 0; j < 3; j++) {
        x[j] += p[j];
      }
      spart_view_project(view, x, q);
      pts[2 * n] = q[0];
      pts[2 * n + 1] = q[1];
      n++;
    }
  } else {
    /* a sphere's circle, a capsule's two, a cylinder's two end circles seen askew */
    for (int end = kind == SPART_SHAPE_SPHERE ? 0 : -1; end <= 1; end += 2) {
      double e[3];
      for (int j = 0; j < 3; j++) {
        e[j] = p[j] + (kind == SPART_SHAPE_SPHERE ? 0 : end * z[1] / 2 * R[3 * j + 2]);
      }
      for (int q = 0; q < SPART_OUTLINE_ARC; q++) {
        double a = 2 * PI * q / SPART_OUTLINE_ARC, x[3], w[3];
        for (int j = 0; j < 3; j++) {
          x[j] = kind == SPART_SHAPE_CYLINDER
                     ? e[j] + z[0] * (cos(a) * R[3 * j] + sin(a) * R[3 * j + 1])
                     : e[j] + z[0] * (cos(a) * r[j] + sin(a) * u[j]);
        }
        spart_view_project(view, x, w);
        pts[2 * n] = w[0];
        pts[2 * n + 1] = w[1];
        n++;
      }
    }
  }
  {
    double h[2 * (2 * SPART_OUTLINE_MAX + 2)];
    int k = hull(pts, n, h);
    k = k > SPART_OUTLINE_MAX ? SPART_OUTLINE_MAX : k;
    memcpy(uv, h, 2 * (size_t)k * sizeof *h);
    return k;
  }
}


/* the faces being made: room and what is there */
typedef struct {
  double *xyz;
  int *nvert, nface, nv, most_face, most_vert;
} faces;


/* a face of n vertices (n x 3) counter-clockwise seen from outside; none when out of room
   (the count then goes on, so that the caller sees it had too little) */
static void face(faces *f, const double *v, int n) {
  if (f->nface < f->most_face && f->nv + n <= f->most_vert) {
    memcpy(f->xyz + 3 * f->nv, v, 3 * (size_t)n * sizeof *v);
    f->nvert[f->nface] = n;
  }
  f->nface++;
  f->nv += n;
}


/* pieces along a length: one a tile, at least 1, at most 12 */
static int pieces(double length, double tile) {
  double k = tile > 0 ? ceil(length / tile - 1e-9) : 1;
  return k < 1 ? 1 : k > 12 ? 12 : (int)k;
}


/* the quadrilateral c + s a + t b (s, t in [-1, 1], a x b outward) cut into tiles */
static void quad(faces *f, const double c[3], const double a[3], const double b[3],
                 double tile) {
  const int na = pieces(2 * sqrt(spu_dot3(a, a)), tile);
  const int nb = pieces(2 * sqrt(spu_dot3(b, b)), tile);
  for (int i = 0; i < na; i++) {
    for (int j = 0; j < nb; j++) {
      static const int cs[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
      double v[12];
      for (int q = 0; q < 4; q++) {
        double s = -1 + 2.0 * (i + cs[q][0]) / na, t = -1 + 2.0 * (j + cs[q][1]) / nb;
        for (int k = 0; k < 3; k++) {
          v[3 * q + k] = c[k] + s * a[k] + t * b[k];
        }
      }
      face(f, v, 4);
    }
  }
}


/* the point R l + p */
static void place(const double R[9], const double p[3], const double l[3], double x[3]) {
  spu_mulmv3(x, R, l);
  for (int k = 0; k < 3; k++) {
    x[k] += p[k];
  }
}


/* a box between lo and hi in the frame (R, p): its six faces */
static void box(faces *f, const double R[9], const double p[3], const double *lo,
                const double *hi, double tile) {
  double c[3], h[3], C[3];
  for (int k = 0; k < 3; k++) {
    c[k] = (lo[k] + hi[k]) / 2;
    h[k] = (hi[k] - lo[k]) / 2;
  }
  place(R, p, c, C);
  for (int ax = 0; ax < 3; ax++) {
    for (int sg = -1; sg <= 1; sg += 2) {
      /* the face at sg h[ax] along ax, its edges along the next two axes (a x b = sg e_ax) */
      int i = (ax + 1) % 3, j = (ax + 2) % 3;
      double o[3], a[3], b[3];
      for (int k = 0; k < 3; k++) {
        o[k] = C[k] + sg * h[ax] * R[3 * k + ax];
        a[k] = sg * h[i] * R[3 * k + i];
        b[k] = h[j] * R[3 * k + j];
      }
      quad(f, o, a, b, tile);
    }
  }
}


/* the point at angle th around z, latitude ph, of a sphere of radius r centred at z0 */
static void ball(double r, double z0, double th, double ph, double l[3]) {
  l[0] = r * cos(ph) * cos(th);
  l[1] = r * cos(ph) * sin(th);
  l[2] = z0 + r * sin(ph);
}


/* the latitude bands ph0..ph1 (nb of them) of a sphere of radius r about z0 on z */
static void bands(faces *f, const double R[9], const double p[3], double r, double z0,
                  double ph0, double ph1, int nb) {
  for (int j = 0; j < nb; j++) {
    double a = ph0 + (ph1 - ph0) * j / nb, b = ph0 + (ph1 - ph0) * (j + 1) / nb;
    for (int q = 0; q < SPART_FACET; q++) {
      double t0 = 2 * PI * q / SPART_FACET, t1 = 2 * PI * (q + 1) / SPART_FACET, l[3], v[12];
      int n = 0;
      const double at[4][2] = {{t0, a}, {t1, a}, {t1, b}, {t0, b}};
      for (int c = 0; c < 4; c++) {
        if ((c == 1 && fabs(a) > PI / 2 - 1e-9) || (c == 3 && fabs(b) > PI / 2 - 1e-9)) {
          continue; /* a pole: a triangle */
        }
        ball(r, z0, at[c][0], at[c][1], l);
        place(R, p, l, v + 3 * n++);
      }
      face(f, v, n);
    }
  }
}


/* a cylinder of radius r from z = -h to h: its side (tiles along z) and, with caps, its ends */
static void tube(faces *f, const double R[9], const double p[3], double r, double h, int caps,
                 double tile) {
  double v[3 * SPART_FACET];
  for (int q = 0; q < SPART_FACET; q++) {
    double t0 = 2 * PI * q / SPART_FACET, t1 = 2 * PI * (q + 1) / SPART_FACET;
    double lc[3] = {r * (cos(t0) + cos(t1)) / 2, r * (sin(t0) + sin(t1)) / 2, 0};
    double la[3] = {r * (cos(t1) - cos(t0)) / 2, r * (sin(t1) - sin(t0)) / 2, 0};
    double lb[3] = {0, 0, h}, c[3], a[3], b[3];
    place(R, p, lc, c);
    spu_mulmv3(a, R, la);
    spu_mulmv3(b, R, lb);
    quad(f, c, a, b, tile);
  }
  for (int end = -1; caps && end <= 1; end += 2) {
    for (int q = 0; q < SPART_FACET; q++) {
      double t = 2 * PI * (end > 0 ? q : SPART_FACET - q) / SPART_FACET;
      double l[3] = {r * cos(t), r * sin(t), end * h};
      place(R, p, l, v + 3 * q);
    }
    face(f, v, SPART_FACET);
  }
}


/* mesh s's triangles (decimated to fit, spart_decimate) placed in the frame (R, p); its
   bounding box when it has no triangles; -SPART_ENOMEM */
static int mesh(faces *f, const spart_model *m, int s, const double R[9], const double p[3],
                double tile) {
  const double *v;
  const int *t;
  int nv, most = f->most_vert / 3 < f->most_face ? f->most_vert / 3 : f->most_face;
  int nt = spart_shape_mesh(m, s, &v, &nv, &t);
  if (nt == 0) {
    box(f, R, p, m->shape_bound + 6 * s, m->shape_bound + 6 * s + 3, tile);
    return 0;
  }
  nt = spart_decimate(v, nv, t, nt, most, f->xyz);
  if (nt == -SPART_ENOMEM) {
    return nt;
  }
  f->nface = nt < 0 ? f->most_face + 1 : nt;
  for (int j = 0; j < 3 * nt; j++) {
    double l[3];
    memcpy(l, f->xyz + 3 * j, sizeof l);
    place(R, p, l, f->xyz + 3 * j);
    f->nvert[j / 3] = 3;
  }
  f->nv = 3 * nt;
  return 0;
}


int spart_shape_faces(const spart_model *m, const spart_data *d, int s, double tile,
                      const spart_faces *out) {
  const double *z = m->shape_size + 3 * s, *b = m->shape_bound + 6 * s;
  const int kind = m->shape_kind[s];
  faces f = {out->xyz, out->nvert, 0, 0, out->most_face, out->most_vert};
  double R[9], p[3];
  if ((kind == SPART_SHAPE_MESH && m->shape_mesh[s] != SPART_MESH_READ) ||
      spart_shape_point(m, s)) {
    return 0;
  }
  spart_shape_pose(m, d, s, R, p);
  if (kind == SPART_SHAPE_MESH) {
    if (mesh(&f, m, s, R, p, tile)) {
      return -SPART_ENOMEM;
    }
  } else if (kind == SPART_SHAPE_BOX) {
    box(&f, R, p, b, b + 3, tile);
  } else if (kind == SPART_SHAPE_SPHERE) {
    bands(&f, R, p, z[0], 0, -PI / 2, PI / 2, SPART_FACET / 2);
  } else {
    tube(&f, R, p, z[0], z[1] / 2, kind == SPART_SHAPE_CYLINDER, tile);
    if (kind == SPART_SHAPE_CAPSULE) {
      bands(&f, R, p, z[0], z[1] / 2, 0, PI / 2, SPART_FACET / 4);
      bands(&f, R, p, z[0], -z[1] / 2, -PI / 2, 0, SPART_FACET / 4);
    }
  }
  return f.nface <= out->most_face && f.nv <= out->most_vert ? f.nface : -1;
}


double spart_view_face(int view, const double *xyz, int n, double *uv, double *depth) {
  double r[3], u[3], t[3], N[3] = {0, 0, 0}, L[3], len;
  spart_view_axes(view, r, u, t);
  /* the face's normal (Newell's), toward the viewer or not */
  for (int q = 0; q < n; q++) {
    const double *a = xyz + 3 * q, *b = xyz + 3 * ((q + 1) % n);
    N[0] += (a[1] - b[1]) * (a[2] + b[2]);
    N[1] += (a[2] - b[2]) * (a[0] + b[0]);
    N[2] += (a[0] - b[0]) * (a[1] + b[1]);
  }
  len = sqrt(spu_dot3(N, N));
  if (!(len > 0) || spu_dot3(N, t) <= 1e-9 * len) {
    return -1;
  }
  *depth = 0;
  for (int q = 0; q < n; q++) {
    double w[3];
    spart_view_project(view, xyz + 3 * q, w);
    uv[2 * q] = w[0];
    uv[2 * q + 1] = w[1];
    *depth += w[2] / n;
  }
  /* one light, from the viewer's upper left: ambient and Lambert's diffuse */
  for (int k = 0; k < 3; k++) {
    L[k] = 0.75 * t[k] + 0.5 * u[k] - 0.35 * r[k];
  }
  double c = spu_dot3(N, L) / (len * sqrt(spu_dot3(L, L)));
  return 0.3 + 0.7 * (c > 0 ? c : 0);
}


int spart_view_joint(const spart_model *m, int i) {
  if (m->jnt_nv[i] > 0) {
    return 2;
  }
  if (!(m->body_mass[i] > 0)) {
    return 0;
  }
  /* a link with mass welded to a link that moves (a foot, a tool), not to the base */
  int p = m->body_parent[i];
  while (p > 0 && m->jnt_nv[p] == 0) {
    p = m->body_parent[p];
  }
  return p > 0 ? 1 : 0;
}


int spart_view_grid(const double gravity[3], const double centre[3], double half, double *seg,
                    int most) {
  double U[3], V[3], c[3], g = sqrt(spu_dot3(gravity, gravity)), step, e;
  int count = 0;
  if (!(g > 0) || !(half > 0)) {
    return 0;
  }
  spart_support_axes(gravity, U, V);
  /* the centre on the plane n . x = 0, on the grid; a step of 1, 2 or 5 times a power of ten,
     about a quarter of half */
  e = pow(10, floor(log10(half / 4)));
  step = half / 4 / e >= 5 ? 5 * e : half / 4 / e >= 2 ? 2 * e : e;
  double cu = step * round(spu_dot3(centre, U) / step);
  double cv = step * round(spu_dot3(centre, V) / step);
  int k0 = (int)ceil(half / step);
  for (int k = 0; k < 3; k++) {
    c[k] = cu * U[k] + cv * V[k];
  }
  for (int dir = 0; dir < 2; dir++) {
    const double *a = dir ? V : U, *b = dir ? U : V;
    for (int q = -k0; q <= k0; q++) {
      if (count < most) {
        for (int k = 0; k < 3; k++) {
          seg[6 * count + k] = c[k] + q * step * a[k] - k0 * step * b[k];
          seg[6 * count + 3 + k] = c[k] + q * step * a[k] + k0 * step * b[k];
        }
      }
      count++;
    }
  }
  return count;
}


int spart_ground_points(const spart_model *m, const spart_data *d, const double gravity[3],
                        double *x, int most) {
  const int n = spart_ground_spheres(m, NULL, NULL, NULL, 0);
  const double g = sqrt(spu_dot3(gravity, gravity));
  if (n > most || !(g > 0)) {
    return n;
  }
  int *body = malloc((size_t)(n ? n : 1) * sizeof *body);
  double *centre = malloc(4 * (size_t)(n ? n : 1) * sizeof *centre);
  if (!body || !centre) {
    free(body);
    free(centre);
    return -1;
  }
  spart_ground gr = {.n = n, .body = body, .centre = centre, .radius = centre + 3 * n};
  spart_ground_spheres(m, body, centre, centre + 3 * n, n);
  for (int k = 0; k < 3; k++) {
    gr.normal[k] = -gravity[k] / g;
  }
  for (int j = 0; j < n; j++) {
    spart_ground_point(m, d, &gr, j, x + 3 * j);
  }
  free(body);
  free(centre);
  return n;
}


double spart_view_size(const spart_model *m, const spart_data *d, double c[3]) {
  double lo[3], hi[3], R[9], p[3], size = 0;
  spart_link_pose(m, d, 0, R, p);
  memcpy(lo, p, sizeof lo);
  memcpy(hi, p, sizeof hi);
  for (int i = 1; i < m->nb; i++) {
    spart_world(d, d->xposJ + 3 * i, p);
    for (int k = 0; k < 3; k++) {
      lo[k] = fmin(lo[k], p[k]);
      hi[k] = fmax(hi[k], p[k]);
    }
  }
  for (int s2 = 0; s2 < m->nshape; s2++) {
    double rad = 0;
    for (int k = 0; k < 6; k++) {
      rad = fmax(rad, fabs(m->shape_bound[6 * s2 + k]));
    }
    spart_shape_pose(m, d, s2, R, p);
    for (int k = 0; k < 3; k++) {
      lo[k] = fmin(lo[k], p[k] - rad);
      hi[k] = fmax(hi[k], p[k] + rad);
    }
  }
  for (int k = 0; k < 3; k++) {
    size += (hi[k] - lo[k]) * (hi[k] - lo[k]);
    c[k] = (lo[k] + hi[k]) / 2;
  }
  size = sqrt(size);
  return size > 0 ? size : 1;
}
