/* spart_check.c -- the model's checks (spart_model_check), the top of the model's layer: they
 * call the joint model (spart_joint.c), the mimic couplings (spart_mimic.c) and the shapes'
 * checks (spart_shape.c); and a joint kind changed into another, checked again
 * (spart_joint_retype) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"


/* the checks below call spart_err_set by this name */
#define fail spart_err_set


/* "joint 'JB'" or "joint 3" when the joint has no name */
static const char *label(char *buf, size_t n, const char *kind, char *const *names, int i) {
  if (names[i]) {
    snprintf(buf, n, "%s '%s'", kind, names[i]);
  } else {
    snprintf(buf, n, "%s %d", kind, i);
  }
  return buf;
}


static int all_finite(const double *v, int n) {
  for (int k = 0; k < n; k++) {
    if (!isfinite(v[k])) {
      return 0;
    }
  }
  return 1;
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
    if (!isfinite(m->jnt_pitch[i])) {
      return fail(err, SPART_EDATA, 0, "%s: pitch is not finite", who);
    }
    if (m->jnt_pitch[i] != 0 && !spart_joint_pitched(m->jnt_type[i])) {
      return fail(err, SPART_EDATA, 0, "%s: a pitch on a %s joint (only a helical joint has one)",
                  who, spart_joint_name(m->jnt_type[i]));
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
  size_t nd;
  double *dbl = spart_model_doubles(m, &nd);
  for (size_t k = 0; k < nd; k++) {
    dbl[k] = dbl[k] == 0 ? 0 : dbl[k];
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


int spart_joint_retype(spart_model *m, int from, int to, spart_err *err) {
  int rc = spart_joint_retype_only(m, from, to, err);
  return rc ? rc : spart_model_check(m, err);
}
