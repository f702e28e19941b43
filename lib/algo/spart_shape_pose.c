/* spart_shape_pose.c -- the links' shapes at a state, from spart_fk's poses: a shape's pose in
 * the inertial frame, and where a link's collision shapes touch a support below them */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"


void spart_shape_pose(const spart_model *m, const spart_data *d, int s, double R[9],
                      double r[3]) {
  double RL[9], rL[3], x[3];
  spart_link_pose(m, d, m->shape_body[s], RL, rL);
  spu_mulmm3(R, RL, m->shape_rot + 9 * s);
  spu_mulmv3(x, RL, m->shape_pos + 3 * s);
  for (int k = 0; k < 3; k++) {
    r[k] = rL[k] + x[k];
  }
}


/* a candidate point x (from r0) at depth x . g into the list c (n, cap) */
static void candidate(double *c, int *n, int cap, const double x[3]) {
  if (*n < cap) {
    memcpy(c + 3 * *n, x, 3 * sizeof *x);
  }
  (*n)++;
}


/* the lowest points along the unit g of shape s at (R, p): candidates (a superset) into c */
static void lowest(const spart_model *m, int s, const double R[9], const double p[3],
                   const double g[3], double tol, double *c, int *n, int cap) {
  const double *z = m->shape_size + 3 * s;
  const int kind = m->shape_kind[s];
  double x[3], a[3] = {R[2], R[5], R[8]}; /* the shape's z axis */
  if (kind == SPART_SHAPE_SPHERE) {
    for (int k = 0; k < 3; k++) {
      x[k] = p[k] + z[0] * g[k];
    }
    candidate(c, n, cap, x);
  } else if (kind == SPART_SHAPE_BOX) {
    for (int corner = 0; corner < 8; corner++) {
      double l[3] = {(corner & 1 ? 0.5 : -0.5) * z[0], (corner & 2 ? 0.5 : -0.5) * z[1],
                     (corner & 4 ? 0.5 : -0.5) * z[2]};
      spu_mulmv3(x, R, l);
      for (int k = 0; k < 3; k++) {
        x[k] += p[k];
      }
      candidate(c, n, cap, x);
    }
  } else if (kind == SPART_SHAPE_MESH) { /* its hull's vertices */
    const double *h;
    int nh = spart_shape_hull(m, s, &h);
    for (int v = 0; v < nh; v++) {
      spu_mulmv3(x, R, h + 3 * v);
      for (int k = 0; k < 3; k++) {
        x[k] += p[k];
      }
      candidate(c, n, cap, x);
    }
  } else if (kind == SPART_SHAPE_CYLINDER || kind == SPART_SHAPE_CAPSULE) {
    /* w: g without its part along the axis, the way down on an end's rim */
    double ag = spu_dot3(a, g), w[3], wn;
    for (int k = 0; k < 3; k++) {
      w[k] = g[k] - ag * a[k];
    }
    wn = sqrt(spu_dot3(w, w));
    for (int end = -1; end <= 1; end += 2) {
      double e[3];
      for (int k = 0; k < 3; k++) {
        e[k] = p[k] + end * z[1] / 2 * a[k];
      }
      if (kind == SPART_SHAPE_CAPSULE) {
        for (int k = 0; k < 3; k++) {
          x[k] = e[k] + z[0] * g[k];
        }
        candidate(c, n, cap, x);
      } else if (z[0] * wn <= tol) {
        /* the end is level: its rim, evenly (x and y of the shape's frame) */
        for (int q = 0; q < SPART_DISK_POINTS; q++) {
          double t = 2 * 3.14159265358979323846 * q / SPART_DISK_POINTS;
          for (int k = 0; k < 3; k++) {
            x[k] = e[k] + z[0] * (cos(t) * R[3 * k] + sin(t) * R[3 * k + 1]);
          }
          candidate(c, n, cap, x);
        }
      } else {
        for (int k = 0; k < 3; k++) {
          x[k] = e[k] + z[0] * w[k] / wn;
        }
        candidate(c, n, cap, x);
      }
    }
  }
}


int spart_support_points(const spart_model *m, const spart_data *d, int i,
                         const double gravity[3], double *pts, int most) {
  double g[3], gn = sqrt(spu_dot3(gravity, gravity)), size = 0, RL[9], pL[3], deep = -INFINITY;
  double plo[3] = {INFINITY, INFINITY, INFINITY}, phi[3] = {-INFINITY, -INFINITY, -INFINITY};
  double *c;
  int nshape = 0, n = 0, cap = 0, kept = 0;

  for (int k = 0; k < 3; k++) {
    g[k] = gravity[k] / gn;
  }
  /* the scale of the tolerance, and room for the candidates */
  for (int s = 0; s < m->nshape; s++) {
    if (m->shape_body[s] != i || m->shape_role[s] != SPART_SHAPE_COLLISION) {
      continue;
    }
    if (m->shape_kind[s] == SPART_SHAPE_MESH && m->shape_mesh[s] != SPART_MESH_READ) {
      return -2;
    }
    if (m->shape_kind[s] == SPART_SHAPE_MESH) {
      const double *h;
      cap += spart_shape_hull(m, s, &h);
    }
    for (int k = 0; k < 3; k++) {
      size = fmax(size, m->shape_bound[6 * s + 3 + k] - m->shape_bound[6 * s + k]);
    }
    for (int k = 0; spart_shape_point(m, s) && k < 3; k++) { /* points: their spread */
      plo[k] = fmin(plo[k], m->shape_pos[3 * s + k]);
      phi[k] = fmax(phi[k], m->shape_pos[3 * s + k]);
    }
    cap += 2 * SPART_DISK_POINTS;
    nshape++;
  }
  for (int k = 0; k < 3; k++) {
    size = phi[k] > plo[k] ? fmax(size, phi[k] - plo[k]) : size;
  }
  if (nshape == 0) {
    return -1;
  }
  c = malloc((size_t)cap * 3 * sizeof *c);
  if (!c) {
    return -3;
  }
  /* every shape's lowest points, in the inertial frame from r0 */
  for (int s = 0; s < m->nshape; s++) {
    double R[9], p[3];
    if (m->shape_body[s] != i || m->shape_role[s] != SPART_SHAPE_COLLISION) {
      continue;
    }
    spart_shape_pose(m, d, s, R, p);
    for (int k = 0; k < 3; k++) {
      p[k] -= d->r0[k];
    }
    lowest(m, s, R, p, g, 1e-9 * size, c, &n, cap);
  }
  for (int k = 0; k < n; k++) {
    deep = fmax(deep, spu_dot3(c + 3 * k, g));
  }
  /* those at the lowest, in the link frame */
  spart_link_frame(m, d, i, RL, pL);
  for (int k = 0; k < n; k++) {
    if (spu_dot3(c + 3 * k, g) >= deep - 1e-9 * size) {
      double x[3];
      for (int j = 0; j < 3; j++) {
        x[j] = c[3 * k + j] - pL[j];
      }
      if (kept < most) {
        spu_mulmtv3(pts + 3 * kept, RL, x);
      }
      kept++;
    }
  }
  free(c);
  return kept;
}
