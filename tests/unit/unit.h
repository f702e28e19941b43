/* unit.h -- what the model-driven unit drivers (test_dynamics, test_recursions,
 * test_derivatives) share: each model of their command line loaded and named; random trees of
 * every joint kind (test_recursions, test_derivatives). */
#ifndef SPART_UNIT_H
#define SPART_UNIT_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_internal.h"

/* The model of the file path, *name its file name (path's last part); NULL after printing
   "FAIL NAME: why" and counting it in *nfail. */
static inline spart_model *unit_model(const char *path, const char **name, int *nfail) {
  spart_err err = {0};
  spart_model *m = spart_model_load(path, &err);
  *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  if (!m) {
    printf("FAIL %s: %s\n", *name, err.msg);
    ++*nfail;
  }
  return m;
}


/* a number uniform in [lo, hi) */
static inline double unit_urand(spart_rng *r, double lo, double hi) {
  return lo + (hi - lo) * spart_rng_uniform(r);
}


/* a random rotation (a unit quaternion uniform on the sphere, from four normal-ish numbers) */
static inline void unit_random_rotation(spart_rng *r, double R[9]) {
  double q[4], n = 0;
  do {
    n = 0;
    for (int k = 0; k < 4; k++) {
      q[k] = unit_urand(r, -1, 1);
      n += q[k] * q[k];
    }
  } while (n > 1 || n < 1e-3);
  n = sqrt(n);
  double w = q[0] / n, x = q[1] / n, y = q[2] / n, z = q[3] / n;
  double M[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z),     2 * (x * z + w * y),
                 2 * (x * y + w * z),     1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                 2 * (x * z - w * y),     2 * (y * z + w * x),     1 - 2 * (x * x + y * y)};
  memcpy(R, M, sizeof M);
}


/* a rotational inertia about the CoM: principal moments that make a body (each below the sum
   of the others) turned by a random rotation, as xx yy zz xy xz yz */
static inline void unit_random_inertia(spart_rng *r, double I[6]) {
  const double d[3] = {unit_urand(r, 0.05, 0.09), unit_urand(r, 0.05, 0.09),
                       unit_urand(r, 0.05, 0.09)};
  double R[9];
  static const int rc[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
  unit_random_rotation(r, R);
  for (int e = 0; e < 6; e++) {
    double s = 0;
    for (int k = 0; k < 3; k++) {
      s += R[3 * rc[e][0] + k] * d[k] * R[3 * rc[e][1] + k];
    }
    I[e] = s;
  }
}


/* a random tree of nb bodies: each joint's parent any body before it, its kind any of the joint
   module's, its frame, axis, the link's CoM frame, mass and inertia random, some armature, a
   helical joint's pitch */
static inline spart_model *unit_random_tree(spart_rng *r, int nb) {
  spart_model *m = spart_model_new(nb);
  spart_err err;
  int nq = 0;
  m->body_parent[0] = -1;
  m->body_mass[0] = unit_urand(r, 1, 4);
  unit_random_inertia(r, m->body_inertia);
  for (int i = 1; i < nb; i++) {
    int t = (int)(spart_rng_uniform(r) * spart_joint_kinds());
    m->body_parent[i] = (int)(spart_rng_uniform(r) * i);
    m->jnt_type[i] = t;
    m->jnt_qadr[i] = spart_joint_nq(t) > 0 ? nq : -1;
    nq += spart_joint_nq(t);
    for (int k = 0; k < 3; k++) {
      m->jnt_axis[3 * i + k] = unit_urand(r, -1, 1);
      m->jnt_pos[3 * i + k] = unit_urand(r, -0.4, 0.4);
      m->body_pos[3 * i + k] = unit_urand(r, -0.2, 0.2);
    }
    unit_random_rotation(r, m->jnt_rot + 9 * i);
    unit_random_rotation(r, m->body_rot + 9 * i);
    m->body_mass[i] = unit_urand(r, 0.5, 2);
    unit_random_inertia(r, m->body_inertia + 6 * i);
    m->jnt_armature[i] = spart_joint_nv(t) > 0 ? unit_urand(r, 0, 0.2) : 0;
    /* a helical joint's pitch, of either sign: S not one unit column, the fast paths' general
       column held against the references */
    m->jnt_pitch[i] = spart_joint_pitched(t) ? unit_urand(r, -0.5, 0.5) : 0;
  }
  if (spart_model_check(m, &err) != 0) {
    printf("FAIL random tree: %s\n", err.msg);
    exit(1);
  }
  return m;
}


/* kinds[t] += the joints of kind t in m (16 kinds at most) */
static inline void unit_count_kinds(const spart_model *m, int kinds[16]) {
  for (int i = 1; i < m->nb; i++) {
    kinds[m->jnt_type[i] & 15]++;
  }
}


/* one line a joint kind: ok when the random trees had one, else FAIL, counted */
static inline void unit_report_kinds(const int kinds[16], int *npass, int *nfail) {
  for (int t = 0; t < spart_joint_kinds(); t++) {
    int ok = kinds[t] > 0;
    printf("%s random trees: %d joints of kind %s\n", ok ? "ok" : "FAIL", kinds[t],
           spart_joint_name(t));
    ok ? ++*npass : ++*nfail;
  }
}

#endif
