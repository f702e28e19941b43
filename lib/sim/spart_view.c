/* spart_view.c -- the geometry of pictures: views (orthographic projections) and the outlines
 * of the links' shapes in them, from the poses of spart_fk */
#include <math.h>
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
