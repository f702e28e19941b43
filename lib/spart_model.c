/* spart_model.c -- the model: allocation, checks, lookup by name; spart_err_set for its readers */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"

/* doubles per body in the model's one allocation: mass 1, inertia 6, body pos 3, body rot 9,
   axis 3, joint pos 3, joint rot 9, armature 1, damping 1, friction 2, range 2, mimic 2,
   effort 1, velocity 1, coupling 2 */
#define NDOUBLE 46

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

/* rotations must be orthonormal to this tolerance */
#define ROT_TOL 1e-6


/* the checks below call spart_err_set by this name */
#define fail spart_err_set


int spart_err_set(spart_err *err, int code, int line, const char *fmt, ...) {
  if (err) {
    va_list ap;
    err->code = code;
    err->line = line;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    /* control characters (a name may hold "\n") become '?': a message is one line */
    for (unsigned char *c = (unsigned char *)err->msg; *c; c++) {
      *c = *c < 0x20 || *c == 0x7f ? '?' : *c;
    }
  }
  return -code;
}


/* "joint 'JB'" or "joint 3" when the joint has no name */
static const char *label(char *buf, size_t n, const char *kind, char *const *names, int i) {
  if (names[i]) {
    snprintf(buf, n, "%s '%s'", kind, names[i]);
  } else {
    snprintf(buf, n, "%s %d", kind, i);
  }
  return buf;
}


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


static int all_finite(const double *v, int n) {
  for (int k = 0; k < n; k++) {
    if (!isfinite(v[k])) {
      return 0;
    }
  }
  return 1;
}


int spart_is_rotation(const double R[9]) {
  double c[3];
  for (int r = 0; r < 3; r++) {
    for (int s = 0; s < 3; s++) {
      if (fabs(spu_dot3(R + 3 * r, R + 3 * s) - (r == s)) > ROT_TOL) {
        return 0;
      }
    }
  }
  spu_cross(c, R + 3, R + 6);
  return spu_dot3(R, c) > 0;
}


static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}


/* the first name that appears twice in names[from..nb-1] (NULL names skipped), or NULL */
static const char *duplicate(char *const *names, int from, int nb, int *oom) {
  char **v = malloc((size_t)nb * sizeof *v);
  const char *dup = NULL;
  int n = 0;
  if (!v) {
    *oom = 1;
    return NULL;
  }
  for (int i = from; i < nb; i++) {
    if (names[i]) {
      v[n++] = names[i];
    }
  }
  qsort(v, (size_t)n, sizeof *v, cmp_str);
  for (int i = 1; i < n && !dup; i++) {
    if (strcmp(v[i - 1], v[i]) == 0) {
      dup = v[i];
    }
  }
  free(v);
  return dup;
}


/* joint i's drive train and limits: finite, friction that opposes motion, lower <= upper, effort
   and velocity limits >= 0 */
static int check_drive(const spart_model *m, int i, const char *who, spart_err *err) {
  const double *f = m->jnt_friction + 2 * i, *r = m->jnt_range + 2 * i;
  if (!isfinite(m->jnt_armature[i]) || !isfinite(m->jnt_damping[i]) || !all_finite(f, 2) ||
      !all_finite(r, 2) || !isfinite(m->jnt_effort[i]) || !isfinite(m->jnt_velocity[i])) {
    return fail(err, SPART_EDATA, 0, "%s: a number is not finite", who);
  }
  if (m->jnt_armature[i] < 0) {
    return fail(err, SPART_EDATA, 0, "%s: negative armature %g", who, m->jnt_armature[i]);
  }
  if (m->jnt_damping[i] < 0) {
    return fail(err, SPART_EDATA, 0, "%s: negative damping %g", who, m->jnt_damping[i]);
  }
  if (f[0] < 0 || f[1] > 0) {
    return fail(err, SPART_EDATA, 0, "%s: friction %g %g does not oppose motion: expected "
                "[>= 0, <= 0] (for qd > 0, qd < 0)", who, f[0], f[1]);
  }
  if (m->jnt_limited[i] && !(r[0] <= r[1])) {
    return fail(err, SPART_EDATA, 0, "%s: limits %g > %g", who, r[0], r[1]);
  }
  if (m->jnt_effort[i] < 0 || m->jnt_velocity[i] < 0) {
    return fail(err, SPART_EDATA, 0, "%s: negative %s limit %g", who,
                m->jnt_effort[i] < 0 ? "effort" : "velocity",
                m->jnt_effort[i] < 0 ? m->jnt_effort[i] : m->jnt_velocity[i]);
  }
  return 0;
}


/* every <mimic> names another joint of the model, with a finite multiplier and offset */
static int check_mimic(const spart_model *m, spart_err *err) {
  char who[320], **v = NULL;
  int n = 0, rc = 0;

  for (int i = 1; i < m->nb; i++) {
    n += m->jnt_mimic[i] != NULL;
  }
  if (n == 0) {
    return 0;
  }
  v = malloc((size_t)m->nb * sizeof *v);
  if (!v) {
    return fail(err, SPART_ENOMEM, 0, "out of memory");
  }
  n = 0;
  for (int i = 1; i < m->nb; i++) {
    if (m->jnt_name[i]) {
      v[n++] = m->jnt_name[i];
    }
  }
  qsort(v, (size_t)n, sizeof *v, cmp_str);
  for (int i = 1; i < m->nb && !rc; i++) {
    const char *mim = m->jnt_mimic[i];
    if (!mim) {
      continue;
    }
    label(who, sizeof who, "joint", m->jnt_name, i);
    if (!all_finite(m->jnt_mimic_k + 2 * i, 2)) {
      rc = fail(err, SPART_EDATA, 0, "%s: mimic: a number is not finite", who);
    } else if (m->jnt_name[i] && strcmp(mim, m->jnt_name[i]) == 0) {
      rc = fail(err, SPART_EDATA, 0, "%s: mimics itself", who);
    } else if (!bsearch(&mim, v, (size_t)n, sizeof *v, cmp_str)) {
      rc = fail(err, SPART_EDATA, 0, "%s: mimics unknown joint '%s'", who, mim);
    }
  }
  free(v);
  return rc;
}


int spart_model_check(spart_model *m, spart_err *err) {
  char who[320];
  int nq = 0, oom = 0;
  const char *dup;

  if (!m || m->nb < 1) {
    return fail(err, SPART_EDATA, 0, "a model needs at least the base link");
  }
  if (m->body_parent[0] != -1) {
    return fail(err, SPART_EDATA, 0, "base link: parent must be -1, got %d", m->body_parent[0]);
  }

  /* links: finite numbers, masses, frames */
  for (int i = 0; i < m->nb; i++) {
    label(who, sizeof who, "link", m->body_name, i);
    if (!isfinite(m->body_mass[i]) || !all_finite(m->body_inertia + 6 * i, 6) ||
        !all_finite(m->body_pos + 3 * i, 3) || !all_finite(m->body_rot + 9 * i, 9)) {
      return fail(err, SPART_EDATA, 0, "%s: a number is not finite", who);
    }
    if (m->body_mass[i] < 0) {
      return fail(err, SPART_EDATA, 0, "%s: negative mass %g", who, m->body_mass[i]);
    }
    if (!spart_is_rotation(m->body_rot + 9 * i)) {
      return fail(err, SPART_EDATA, 0, "%s: T does not hold a rotation matrix", who);
    }
  }

  /* joints: topology, type, q numbering, axis, frame */
  for (int i = 1; i < m->nb; i++) {
    double *a = m->jnt_axis + 3 * i;
    int nv = spart_joint_nv(m->jnt_type[i]), moving = nv > 0;
    label(who, sizeof who, "joint", m->jnt_name, i);
    if (m->body_parent[i] < 0 || m->body_parent[i] >= i) {
      return fail(err, SPART_EDATA, 0, "%s: parent link %d must be below %d", who,
                  m->body_parent[i], i);
    }
    if (nv < 0) {
      /* the kinds as spart_joint.c names them: "0 (fixed), 1 (revolute), ... or 5 (planar)" */
      char kinds[256];
      size_t len = 0;
      for (int t = 0, n = spart_joint_kinds(); t < n && len < sizeof kinds; t++) {
        len += (size_t)snprintf(kinds + len, sizeof kinds - len, "%s%d (%s)",
                                t == 0 ? "" : t == n - 1 ? " or " : ", ", t, spart_joint_name(t));
      }
      return fail(err, SPART_EDATA, 0, "%s: type %d, expected %s", who, m->jnt_type[i], kinds);
    }
    if (moving && m->jnt_qadr[i] != nq) {
      return fail(err, SPART_EDATA, 0, "%s: q_id %d, expected %d", who,
                  m->jnt_qadr[i] < 0 ? -1 : m->jnt_qadr[i] + 1, nq + 1);
    }
    if (!moving && m->jnt_qadr[i] != -1) {
      return fail(err, SPART_EDATA, 0, "%s: fixed joint with q_id %d, expected -1", who,
                  m->jnt_qadr[i] + 1);
    }
    if (!all_finite(a, 3) || !all_finite(m->jnt_pos + 3 * i, 3) ||
        !all_finite(m->jnt_rot + 9 * i, 9)) {
      return fail(err, SPART_EDATA, 0, "%s: a number is not finite", who);
    }
    if (!spart_is_rotation(m->jnt_rot + 9 * i)) {
      return fail(err, SPART_EDATA, 0, "%s: T does not hold a rotation matrix", who);
    }
    if (check_drive(m, i, who, err)) {
      return -SPART_EDATA;
    }
    if (spart_joint_has_axis(m->jnt_type[i])) {
      double norm = sqrt(spu_dot3(a, a));
      if (norm == 0) {
        return fail(err, SPART_EDATA, 0, "%s: zero axis", who);
      }
      if (fabs(norm - 1) > 1e-12) {
        for (int k = 0; k < 3; k++) {
          a[k] /= norm;
        }
      }
    }
    nq += spart_joint_nq(m->jnt_type[i]);
  }

  /* -0 becomes 0, so that a model and its JSON are the same bits */
  for (size_t k = 0; k < NDOUBLE * (size_t)m->nb; k++) {
    double *x = (double *)m->buf_ + k;
    *x = *x == 0 ? 0 : *x;
  }

  /* names are unique among links and among joints */
  dup = duplicate(m->body_name, 0, m->nb, &oom);
  if (dup) {
    return fail(err, SPART_EDATA, 0, "two links named '%s'", dup);
  }
  dup = duplicate(m->jnt_name, 1, m->nb, &oom);
  if (dup) {
    return fail(err, SPART_EDATA, 0, "two joints named '%s'", dup);
  }
  if (oom) {
    return fail(err, SPART_ENOMEM, 0, "out of memory");
  }
  if (check_mimic(m, err) || spart_shapes_check(m, err)) {
    return -err->code;
  }
  m->nq = nq;
  spart_joint_setup(m);
  return spart_mimic_setup(m, err);
}


int spart_model_body(const spart_model *m, const char *name) {
  for (int i = 0; i < m->nb; i++) {
    if (m->body_name[i] && strcmp(m->body_name[i], name) == 0) {
      return i;
    }
  }
  return -1;
}


const char *spart_name_or(char *buf, size_t n, const char *name, char kind, int i) {
  if (name) {
    return name;
  }
  snprintf(buf, n, "%c%d", kind, i);
  return buf;
}
