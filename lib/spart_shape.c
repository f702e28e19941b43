/* spart_shape.c -- the links' shapes in the model: their arrays, kinds and checks, the shapes of
 * a link, and a shape's pose */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"

/* doubles per shape: rot 9, pos 3, size 3, bound 6; ints: body, kind, role, mesh; names 2 */
#define SDOUBLE 21
#define SINT 4
#define SNAME 2

/* rotations must be orthonormal to this tolerance (as the model's) */

static const char *const kind_name[SPART_SHAPE_KINDS] = {"box", "cylinder", "sphere", "capsule",
                                                         "mesh"};


const char *spart_shape_kind_name(int kind) {
  return kind >= 0 && kind < SPART_SHAPE_KINDS ? kind_name[kind] : NULL;
}


int spart_shape_kind_of(const char *name) {
  for (int k = 0; k < SPART_SHAPE_KINDS; k++) {
    if (strcmp(name, kind_name[k]) == 0) {
      return k;
    }
  }
  return -1;
}


/* free the shapes' names and arrays, none left */
void spart_shapes_free(spart_model *m) {
  for (int s = 0; s < m->nshape; s++) {
    free(m->shape_name[s]);
    free(m->shape_file[s]);
  }
  free(m->shape_buf_);
  m->shape_buf_ = NULL;
  m->nshape = 0;
  m->shape_body = m->shape_kind = m->shape_role = m->shape_mesh = NULL;
  m->shape_rot = m->shape_pos = m->shape_size = m->shape_bound = NULL;
  m->shape_name = m->shape_file = NULL;
}


int spart_model_shapes(spart_model *m, int nshape) {
  size_t n = (size_t)nshape;
  double *d;
  char **p;
  int *k;

  spart_shapes_free(m);
  if (nshape <= 0) {
    return 0;
  }
  if (n > SIZE_MAX / 1024 ||
      !(m->shape_buf_ = calloc(n, SDOUBLE * sizeof(double) + SNAME * sizeof(char *) +
                                      SINT * sizeof(int)))) {
    return -SPART_ENOMEM;
  }
  d = m->shape_buf_;
  m->shape_rot = d;
  m->shape_pos = d + 9 * n;
  m->shape_size = d + 12 * n;
  m->shape_bound = d + 15 * n;
  p = (char **)(d + SDOUBLE * n);
  m->shape_name = p;
  m->shape_file = p + n;
  k = (int *)(p + SNAME * n);
  m->shape_body = k;
  m->shape_kind = k + n;
  m->shape_role = k + 2 * n;
  m->shape_mesh = k + 3 * n;
  for (size_t s = 0; s < n; s++) {
    m->shape_name[s] = m->shape_file[s] = NULL;
    for (int c = 0; c < 9; c += 4) {
      m->shape_rot[9 * s + c] = 1;
    }
  }
  m->nshape = nshape;
  return 0;
}


void spart_shape_box(int kind, const double size[3], double bound[6]) {
  double h[3] = {0, 0, 0};
  if (kind == SPART_SHAPE_BOX) {
    h[0] = size[0] / 2;
    h[1] = size[1] / 2;
    h[2] = size[2] / 2;
  } else if (kind == SPART_SHAPE_CYLINDER || kind == SPART_SHAPE_CAPSULE) {
    h[0] = h[1] = size[0];
    h[2] = size[1] / 2 + (kind == SPART_SHAPE_CAPSULE ? size[0] : 0);
  } else if (kind == SPART_SHAPE_SPHERE) {
    h[0] = h[1] = h[2] = size[0];
  }
  for (int c = 0; c < 3; c++) {
    bound[c] = -h[c];
    bound[3 + c] = h[c];
  }
}


int spart_shapes_check(spart_model *m, spart_err *err) {
  for (int s = 0; s < m->nshape; s++) {
    const int b = m->shape_body[s], kind = m->shape_kind[s];
    const double *sz = m->shape_size + 3 * s;
    double *v = m->shape_rot + 9 * s;
    if (b < 0 || b >= m->nb || (s > 0 && b < m->shape_body[s - 1])) {
      return spart_err_set(err, SPART_EDATA, 0, "shapes[%d].link: expected a link from %d to "
                           "%d, in order, got %d", s, s > 0 ? m->shape_body[s - 1] : 0,
                           m->nb - 1, b);
    }
    if (kind < 0 || kind >= SPART_SHAPE_KINDS) {
      return spart_err_set(err, SPART_EDATA, 0, "shapes[%d]: unknown kind %d", s, kind);
    }
    if (m->shape_role[s] != SPART_SHAPE_COLLISION && m->shape_role[s] != SPART_SHAPE_VISUAL) {
      return spart_err_set(err, SPART_EDATA, 0, "shapes[%d]: unknown role %d", s,
                           m->shape_role[s]);
    }
    if ((kind == SPART_SHAPE_MESH) != (m->shape_file[s] != NULL) ||
        (kind == SPART_SHAPE_MESH) != (m->shape_mesh[s] != SPART_MESH_NONE)) {
      return spart_err_set(err, SPART_EDATA, 0, "shapes[%d]: a mesh and only a mesh has a file",
                           s);
    }
    for (int k = 0; k < SDOUBLE; k++) {
      double *x = k < 9 ? v + k : k < 12 ? m->shape_pos + 3 * s + k - 9
                        : k < 15 ? m->shape_size + 3 * s + k - 12
                                 : m->shape_bound + 6 * s + k - 15;
      if (!isfinite(*x)) {
        return spart_err_set(err, SPART_EDATA, 0, "shapes[%d]: a number is not finite", s);
      }
      *x = *x == 0 ? 0 : *x; /* -0 becomes 0, as the model's */
    }
    if (!spart_is_rotation(v)) {
      return spart_err_set(err, SPART_EDATA, 0, "shapes[%d]: T does not hold a rotation matrix",
                           s);
    }
    /* sizes: positive where the kind has them, 0 where not; a mesh's scale not 0 */
    for (int c = 0; c < 3; c++) {
      int used = kind == SPART_SHAPE_BOX || kind == SPART_SHAPE_MESH ||
                 ((kind == SPART_SHAPE_CYLINDER || kind == SPART_SHAPE_CAPSULE) && c < 2) ||
                 (kind == SPART_SHAPE_SPHERE && c == 0);
      int bad = !used                   ? sz[c] != 0
                : kind == SPART_SHAPE_MESH ? sz[c] == 0
                : kind == SPART_SHAPE_CAPSULE && c == 1 ? sz[c] < 0
                                                        : !(sz[c] > 0);
      if (bad) {
        return spart_err_set(err, SPART_EDATA, 0, "shapes[%d]: %s size %g: expected %s", s,
                             kind_name[kind], sz[c],
                             !used ? "0 (not used by the kind)"
                             : kind == SPART_SHAPE_MESH ? "a scale that is not 0"
                                                        : "a positive size");
      }
    }
  }
  return 0;
}


int spart_link_shapes(const spart_model *m, int i, int roles, int *idx, int most) {
  int n = 0;
  for (int s = 0; s < m->nshape; s++) {
    if (m->shape_body[s] == i && (m->shape_role[s] & roles)) {
      if (n < most) {
        idx[n] = s;
      }
      n++;
    }
  }
  return n;
}


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
                         const double gravity[3], double *pts, int most, int *mesh) {
  double g[3], gn = sqrt(spu_dot3(gravity, gravity)), size = 0, RL[9], pL[3], deep = -INFINITY;
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
    if (m->shape_kind[s] == SPART_SHAPE_MESH) {
      *mesh = s;
      return -2;
    }
    for (int k = 0; k < 3; k++) {
      size = fmax(size, m->shape_bound[6 * s + 3 + k] - m->shape_bound[6 * s + k]);
    }
    cap += 2 * SPART_DISK_POINTS;
    nshape++;
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
