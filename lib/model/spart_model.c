/* spart_model.c -- the model: allocation, freeing, lookup by name (its checks, which need the
 * joints, the mimic couplings and the shapes: spart_check.c) */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_internal.h"

/* doubles per body in the model's one allocation: mass 1, inertia 6, body pos 3, body rot 9,
   axis 3, joint pos 3, joint rot 9, armature 1, damping 1, friction 2, range 2, mimic 2,
   effort 1, velocity 1, coupling 2, pitch 1 */
#define NDOUBLE 47

/* names per body: link, joint, mimicked joint */
#define NNAME 3

/* ints per body: parent, type, qadr, limited, and the couplings' qadrc, vadrc (after the
   joint model's) */
#define NINT 6

/* the joint model's (spart_joint_setup), per body: doubles dof_S and dof_screw, ints jnt_nq,
   jnt_nv, jnt_vadr, dof_body and dof_axis, for up to 6 degrees of freedom a joint, and
   jnt_zaxis; jnt_sub (2), jnt_up and dof_tree (6) */
#define NJDOUBLE (6 * (6 + 2))
#define NJINT (3 + 6 * 2 + 1 + 2 + 1 + 6)

spart_model *spart_model_new(int nb) {
  spart_model *m;
  size_t n = (size_t)nb;
  double *d;
  char **p;
  int *k;

  if (nb < 1 || n > SIZE_MAX / 1024) {
    return NULL;
  }
  m = calloc(1, sizeof *m);
  if (!m) {
    return NULL;
  }
  m->buf_ = calloc(1, n * ((NDOUBLE + NJDOUBLE) * sizeof(double) + NNAME * sizeof(char *) +
                            (NINT + NJINT) * sizeof(int)));
  if (!m->buf_) {
    free(m);
    return NULL;
  }

  /* carve the one allocation: doubles first, then name pointers, then ints */
  d = m->buf_;
  m->body_mass = d;
  m->body_inertia = d + n;
  m->body_pos = d + 7 * n;
  m->body_rot = d + 10 * n;
  m->jnt_axis = d + 19 * n;
  m->jnt_pos = d + 22 * n;
  m->jnt_rot = d + 25 * n;
  m->jnt_armature = d + 34 * n;
  m->jnt_damping = d + 35 * n;
  m->jnt_friction = d + 36 * n;
  m->jnt_range = d + 38 * n;
  m->jnt_mimic_k = d + 40 * n;
  m->jnt_effort = d + 42 * n;
  m->jnt_velocity = d + 43 * n;
  m->jnt_couple = d + 44 * n;
  m->jnt_pitch = d + 46 * n;
  m->dof_S = d + NDOUBLE * n;
  m->dof_screw = m->dof_S + 36 * n;
  p = (char **)(d + (NDOUBLE + NJDOUBLE) * n);
  m->body_name = p;
  m->jnt_name = p + n;
  m->jnt_mimic = p + 2 * n;
  k = (int *)(p + NNAME * n);
  m->body_parent = k;
  m->jnt_type = k + n;
  m->jnt_qadr = k + 2 * n;
  m->jnt_limited = k + 3 * n;
  m->jnt_nq = k + 4 * n;
  m->jnt_nv = k + 5 * n;
  m->jnt_vadr = k + 6 * n;
  m->dof_body = k + 7 * n;
  m->dof_axis = k + 13 * n;
  m->jnt_zaxis = k + 19 * n;
  m->jnt_qadrc = k + 20 * n;
  m->jnt_vadrc = k + 21 * n;
  m->jnt_sub = k + 22 * n;
  m->jnt_up = k + 24 * n;
  m->dof_tree = k + 25 * n;

  /* names NULL, rotations identity */
  for (size_t i = 0; i < n; i++) {
    m->body_name[i] = NULL;
    m->jnt_name[i] = NULL;
    m->jnt_mimic[i] = NULL;
    for (int c = 0; c < 9; c += 4) {
      m->body_rot[9 * i + c] = 1;
      m->jnt_rot[9 * i + c] = 1;
    }
  }
  m->nb = nb;
  return m;
}


void spart_model_free(spart_model *m) {
  if (!m) {
    return;
  }
  for (int i = 0; i < m->nb; i++) {
    free(m->body_name[i]);
    free(m->jnt_name[i]);
    free(m->jnt_mimic[i]);
  }
  spart_shapes_free(m);
  free(m->body_automass);
  free(m->name);
  free(m->buf_);
  free(m);
}


double *spart_model_doubles(spart_model *m, size_t *n) {
  *n = NDOUBLE * (size_t)m->nb;
  return m->buf_;
}


int spart_model_body(const spart_model *m, const char *name) {
  for (int i = 0; i < m->nb; i++) {
    if (m->body_name[i] && strcmp(m->body_name[i], name) == 0) {
      return i;
    }
  }
  return -1;
}
