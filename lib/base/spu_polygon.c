/* spu_polygon.c -- convex polygons in the plane: clean-up of a counter-clockwise vertex list,
 * its half-planes a.x <= b, and a point's signed distance to its boundary. */
#include <math.h>

#include "spu.h"


/* twice the signed area of the triangle a, b, c (> 0: counter-clockwise) */
static double turn(const double a[2], const double b[2], const double c[2]) {
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}


int spu_polygon_clean(double *v, int n, double tol) {
  for (int changed = 1; changed && n > 1;) {
    changed = 0;
    for (int k = 0; k < n && n > 1; k++) {
      const double *a = v + 2 * ((k + n - 1) % n), *b = v + 2 * k, *c = v + 2 * ((k + 1) % n);
      double ab = hypot(b[0] - a[0], b[1] - a[1]), bc = hypot(c[0] - b[0], c[1] - b[1]);
      double ac = hypot(c[0] - a[0], c[1] - a[1]);
      /* b repeats a, or lies on the segment a-c (within tol of its line, between its ends) */
      int drop = ab <= tol || (n > 2 && fabs(turn(a, b, c)) <= tol * ac && ab + bc <= ac + tol);
      if (drop) {
        for (int j = 2 * k; j < 2 * (n - 1); j++) {
          v[j] = v[j + 2];
        }
        n--, k--, changed = 1;
      }
    }
  }
  return n;
}


int spu_polygon_halfplanes(double *h, const double *v, int n) {
  if (n <= 0) {
    return 0;
  }
  if (n >= 3) {
    for (int k = 0; k < n; k++) {
      const double *a = v + 2 * k, *b = v + 2 * ((k + 1) % n);
      double dx = b[0] - a[0], dy = b[1] - a[1], l = hypot(dx, dy);
      h[3 * k] = dy / l + 0.0; /* outward normal of a counter-clockwise edge (no -0) */
      h[3 * k + 1] = -dx / l + 0.0;
      h[3 * k + 2] = h[3 * k] * a[0] + h[3 * k + 1] * a[1];
    }
    return n;
  }
  /* a segment: its line from both sides, and its two ends; a point: four sides of it */
  double t[2] = {1, 0};
  if (n == 2 && hypot(v[2] - v[0], v[3] - v[1]) > 0) {
    double l = hypot(v[2] - v[0], v[3] - v[1]);
    t[0] = (v[2] - v[0]) / l, t[1] = (v[3] - v[1]) / l;
  }
  const double *e = v + 2 * (n - 1);
  double a[4][2] = {{t[1], -t[0]}, {-t[1], t[0]}, {t[0], t[1]}, {-t[0], -t[1]}};
  const double *at[4] = {v, v, e, v};
  for (int k = 0; k < 4; k++) {
    h[3 * k] = a[k][0] + 0.0; /* no -0 */
    h[3 * k + 1] = a[k][1] + 0.0;
    h[3 * k + 2] = a[k][0] * at[k][0] + a[k][1] * at[k][1] + 0.0;
  }
  return 4;
}


/* distance from p to the segment a-b */
static double seg_dist(const double a[2], const double b[2], const double p[2]) {
  double dx = b[0] - a[0], dy = b[1] - a[1], l2 = dx * dx + dy * dy;
  double s = l2 > 0 ? ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2 : 0;
  s = s < 0 ? 0 : s > 1 ? 1 : s;
  return hypot(p[0] - a[0] - s * dx, p[1] - a[1] - s * dy);
}


double spu_polygon_margin(const double *v, int n, const double *h, int nh, const double p[2]) {
  double inside = INFINITY;
  for (int k = 0; k < nh; k++) {
    double s = h[3 * k + 2] - h[3 * k] * p[0] - h[3 * k + 1] * p[1];
    inside = s < inside ? s : inside;
  }
  if (inside >= 0) {
    return inside; /* inside: the nearest edge's line is the nearest boundary */
  }
  double out = INFINITY;
  for (int k = 0; k < n; k++) {
    double s = seg_dist(v + 2 * k, v + 2 * ((k + 1) % n), p);
    out = s < out ? s : out;
  }
  return -out;
}
