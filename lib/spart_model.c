/* spart_model.c -- the model: allocation, checks, the model JSON (SPART's robot structure),
   loading and a human-readable summary */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "spart.h"
#include "spu.h"

/* doubles per body in the model's one allocation: mass 1, inertia 6, body pos 3, body rot 9,
   axis 3, joint pos 3, joint rot 9, armature 1, damping 1, friction 2, range 2, mimic 2 */
#define NDOUBLE 42

/* names per body: link, joint, mimicked joint */
#define NNAME 3

/* ints per body: parent, type, qadr, limited */
#define NINT 4

/* the joint model's (spart_joint_setup), per body: doubles dof_S and dof_screw, ints jnt_nq,
   jnt_nv, jnt_vadr, dof_body and dof_axis, for up to 6 degrees of freedom a joint */
#define NJDOUBLE (6 * (6 + 2))
#define NJINT (3 + 6 * 2)

/* the largest model file read into memory (1 GiB) */
#define MAX_FILE ((size_t)1 << 30)

/* rotations must be orthonormal to this tolerance */
#define ROT_TOL 1e-6

/* the largest n_links_joints for which the writer adds SPART's n x n connectivity maps "con"
   (6 n^2 bytes: 6 MB at 1,000 links, 600 MB at 10,000) */
#define CON_MAX 1000

/* containers nested deeper than this in "con" are left to cJSON (SPART's maps nest 3 deep) */
#define SKIP_DEPTH 64

/* a string that grows, for the summary */
typedef struct sbuf {
  char *s;
  size_t len, cap;
  int oom;
} sbuf;


static int fail(spart_err *err, int code, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));


static int fail(spart_err *err, int code, int line, const char *fmt, ...) {
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


static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));


static void sb_printf(sbuf *b, const char *fmt, ...) {
  va_list ap;
  int n;
  if (b->oom) {
    return;
  }
  va_start(ap, fmt);
  n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
  va_end(ap);
  if (n < 0) {
    b->oom = 1;
    return;
  }
  if (!b->s || b->len + (size_t)n >= b->cap) {
    /* grow to at least twice the size, then print again */
    size_t cap = b->cap ? 2 * b->cap : 256;
    char *s;
    while (cap <= b->len + (size_t)n) {
      cap *= 2;
    }
    s = realloc(b->s, cap);
    if (!s) {
      b->oom = 1;
      return;
    }
    b->s = s;
    b->cap = cap;
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
  }
  b->len += (size_t)n;
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


/* 1 if R is a proper rotation (orthonormal rows, determinant +1) */
static int is_rotation(const double R[9]) {
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


/* joint i's drive train and limits: finite, friction that opposes motion, lower <= upper */
static int check_drive(const spart_model *m, int i, const char *who, spart_err *err) {
  const double *f = m->jnt_friction + 2 * i, *r = m->jnt_range + 2 * i;
  if (!isfinite(m->jnt_armature[i]) || !isfinite(m->jnt_damping[i]) || !all_finite(f, 2) ||
      !all_finite(r, 2)) {
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
    if (i > 0 && !is_rotation(m->body_rot + 9 * i)) {
      return fail(err, SPART_EDATA, 0, "%s: T does not hold a rotation matrix", who);
    }
  }

  /* joints: topology, type, q numbering, axis, frame */
  for (int i = 1; i < m->nb; i++) {
    double *a = m->jnt_axis + 3 * i;
    int moving = m->jnt_type[i] == SPART_JNT_REVOLUTE || m->jnt_type[i] == SPART_JNT_PRISMATIC;
    label(who, sizeof who, "joint", m->jnt_name, i);
    if (m->body_parent[i] < 0 || m->body_parent[i] >= i) {
      return fail(err, SPART_EDATA, 0, "%s: parent link %d must be below %d", who,
                  m->body_parent[i], i);
    }
    if (!moving && m->jnt_type[i] != SPART_JNT_FIXED) {
      return fail(err, SPART_EDATA, 0, "%s: type %d, expected 0 (fixed), 1 (revolute) or 2 "
                  "(prismatic)", who, m->jnt_type[i]);
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
    if (!is_rotation(m->jnt_rot + 9 * i)) {
      return fail(err, SPART_EDATA, 0, "%s: T does not hold a rotation matrix", who);
    }
    if (check_drive(m, i, who, err)) {
      return -SPART_EDATA;
    }
    if (moving) {
      double norm = sqrt(spu_dot3(a, a));
      if (norm == 0) {
        return fail(err, SPART_EDATA, 0, "%s: zero axis", who);
      }
      if (fabs(norm - 1) > 1e-12) {
        for (int k = 0; k < 3; k++) {
          a[k] /= norm;
        }
      }
      nq++;
    }
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
  if (check_mimic(m, err)) {
    return -err->code;
  }
  m->nq = nq;
  spart_joint_setup(m);
  return 0;
}


int spart_model_body(const spart_model *m, const char *name) {
  for (int i = 0; i < m->nb; i++) {
    if (m->body_name[i] && strcmp(m->body_name[i], name) == 0) {
      return i;
    }
  }
  return -1;
}


/* ---------------------------------------------------------------------------------------------
 * writing the model JSON
 */

/* add item to obj under key (or to an array when key is NULL); failure clears *ok */
static void put(cJSON *obj, const char *key, cJSON *item, int *ok) {
  int added = 0;
  if (obj && item) {
    added = key ? cJSON_AddItemToObject(obj, key, item) : cJSON_AddItemToArray(obj, item);
  }
  if (!added) {
    cJSON_Delete(item);
    *ok = 0;
  }
}


/* x in the shortest decimal that reads back to x (cJSON_Print is not exact: it keeps 15 digits
   when they read back to within an epsilon) */
static cJSON *json_num(double x) {
  char buf[40];
  spu_dtoa(buf, x);
  return cJSON_CreateRaw(buf);
}


/* n numbers as a JSON array */
static cJSON *json_vec(const double *v, int n) {
  cJSON *a = cJSON_CreateArray();
  int ok = a != NULL;
  for (int k = 0; k < n && ok; k++) {
    put(a, NULL, json_num(v[k]), &ok);
  }
  if (!ok) {
    cJSON_Delete(a);
    return NULL;
  }
  return a;
}


/* [[R p]; [0 0 0 1]] */
static cJSON *json_T(const double R[9], const double p[3]) {
  static const double last[4] = {0, 0, 0, 1};
  cJSON *T = cJSON_CreateArray();
  int ok = T != NULL;
  for (int r = 0; r < 3 && ok; r++) {
    double row[4] = {R[3 * r], R[3 * r + 1], R[3 * r + 2], p[r]};
    put(T, NULL, json_vec(row, 4), &ok);
  }
  if (ok) {
    put(T, NULL, json_vec(last, 4), &ok);
  }
  if (!ok) {
    cJSON_Delete(T);
    return NULL;
  }
  return T;
}


/* full symmetric 3x3 from xx yy zz xy xz yz */
static cJSON *json_inertia(const double I[6]) {
  const double M[9] = {I[0], I[3], I[4], I[3], I[1], I[5], I[4], I[5], I[2]};
  cJSON *J = cJSON_CreateArray();
  int ok = J != NULL;
  for (int r = 0; r < 3 && ok; r++) {
    put(J, NULL, json_vec(M + 3 * r, 3), &ok);
  }
  if (!ok) {
    cJSON_Delete(J);
    return NULL;
  }
  return J;
}


static const char *name_or(char *buf, size_t n, const char *name, char kind, int i) {
  if (name) {
    return name;
  }
  snprintf(buf, n, "%c%d", kind, i);
  return buf;
}


/* one row of 0/1 as raw JSON "[0, 1, 0]" (row: 3 n + 2 chars), so that n x n maps stay small */
static cJSON *json_row(const unsigned char *bits, int n, char *row) {
  char *c = row;
  *c++ = '[';
  for (int j = 0; j < n; j++) {
    if (j > 0) {
      *c++ = ',';
      *c++ = ' ';
    }
    *c++ = (char)('0' + bits[j]);
  }
  *c++ = ']';
  *c = '\0';
  return cJSON_CreateRaw(row);
}


/* SPART's ConnectivityMap: branch, child, child_base */
static cJSON *json_con(const spart_model *m) {
  int n = m->nb - 1;
  cJSON *con = cJSON_CreateObject(), *branch = cJSON_CreateArray(), *child = cJSON_CreateArray();
  unsigned char *bits = calloc((size_t)n + 1, 1);
  int *base = calloc((size_t)n + 1, sizeof *base);
  char *row = malloc(3 * (size_t)n + 3);
  int ok = con && branch && child && bits && base && row;

  /* branch row i: link i and its ancestors; child row i: the parent of link i */
  for (int i = 1; i <= n && ok; i++) {
    for (int a = i; a > 0; a = m->body_parent[a]) {
      bits[a - 1] = 1;
    }
    put(branch, NULL, json_row(bits, n, row), &ok);
    memset(bits, 0, (size_t)n);
    if (m->body_parent[i] > 0) {
      bits[m->body_parent[i] - 1] = 1;
    }
    put(child, NULL, json_row(bits, n, row), &ok);
    memset(bits, 0, (size_t)n);
    base[i - 1] = m->body_parent[i] == 0;
  }
  if (ok) {
    put(con, "branch", branch, &ok);
    put(con, "child", child, &ok);
    branch = child = NULL;
    put(con, "child_base", cJSON_CreateIntArray(base, n), &ok);
  }
  free(row);
  free(bits);
  free(base);
  cJSON_Delete(branch);
  cJSON_Delete(child);
  if (!ok) {
    cJSON_Delete(con);
    return NULL;
  }
  return con;
}


/* "keys": link_id, joint_id, q_id, in id order */
static cJSON *json_keys(const spart_model *m) {
  char nm[32];
  cJSON *keys = cJSON_CreateObject(), *lid = cJSON_CreateObject(), *jid = cJSON_CreateObject();
  cJSON *qid = cJSON_CreateObject();
  int ok = keys && lid && jid && qid;
  for (int i = 0; i < m->nb && ok; i++) {
    put(lid, name_or(nm, sizeof nm, m->body_name[i], 'L', i), cJSON_CreateNumber(i), &ok);
  }
  for (int i = 1; i < m->nb && ok; i++) {
    const char *jn = name_or(nm, sizeof nm, m->jnt_name[i], 'J', i);
    put(jid, jn, cJSON_CreateNumber(i), &ok);
    if (ok && m->jnt_qadr[i] >= 0) {
      put(qid, jn, cJSON_CreateNumber(m->jnt_qadr[i] + 1), &ok);
    }
  }
  if (ok) {
    put(keys, "link_id", lid, &ok);
    put(keys, "joint_id", jid, &ok);
    put(keys, "q_id", qid, &ok);
    return keys;
  }
  cJSON_Delete(keys);
  cJSON_Delete(lid);
  cJSON_Delete(jid);
  cJSON_Delete(qid);
  return NULL;
}


static cJSON *json_link(const spart_model *m, int i) {
  char nm[32];
  cJSON *l = cJSON_CreateObject();
  int ok = l != NULL;
  put(l, "id", cJSON_CreateNumber(i), &ok);
  put(l, "name", cJSON_CreateString(name_or(nm, sizeof nm, m->body_name[i], 'L', i)), &ok);
  put(l, "parent_joint", cJSON_CreateNumber(i), &ok);
  put(l, "T", json_T(m->body_rot + 9 * i, m->body_pos + 3 * i), &ok);
  put(l, "mass", json_num(m->body_mass[i]), &ok);
  put(l, "inertia", json_inertia(m->body_inertia + 6 * i), &ok);
  if (!ok) {
    cJSON_Delete(l);
    return NULL;
  }
  return l;
}


static cJSON *json_joint(const spart_model *m, int i) {
  char nm[32];
  cJSON *j = cJSON_CreateObject();
  int ok = j != NULL;
  put(j, "id", cJSON_CreateNumber(i), &ok);
  put(j, "name", cJSON_CreateString(name_or(nm, sizeof nm, m->jnt_name[i], 'J', i)), &ok);
  put(j, "type", cJSON_CreateNumber(m->jnt_type[i]), &ok);
  put(j, "q_id", cJSON_CreateNumber(m->jnt_qadr[i] < 0 ? -1 : m->jnt_qadr[i] + 1), &ok);
  put(j, "parent_link", cJSON_CreateNumber(m->body_parent[i]), &ok);
  put(j, "child_link", cJSON_CreateNumber(i), &ok);
  put(j, "axis", json_vec(m->jnt_axis + 3 * i, 3), &ok);
  put(j, "T", json_T(m->jnt_rot + 9 * i, m->jnt_pos + 3 * i), &ok);

  /* spart's own fields, only where they are not zero */
  if (m->jnt_armature[i] != 0) {
    put(j, "armature", json_num(m->jnt_armature[i]), &ok);
  }
  if (m->jnt_damping[i] != 0) {
    put(j, "damping", json_num(m->jnt_damping[i]), &ok);
  }
  if (m->jnt_friction[2 * i] != 0 || m->jnt_friction[2 * i + 1] != 0) {
    put(j, "friction", json_vec(m->jnt_friction + 2 * i, 2), &ok);
  }
  if (m->jnt_limited[i]) {
    put(j, "limit", json_vec(m->jnt_range + 2 * i, 2), &ok);
  }
  if (m->jnt_mimic[i]) {
    cJSON *mim = cJSON_CreateObject();
    put(j, "mimic", mim, &ok);
    put(mim, "joint", cJSON_CreateString(m->jnt_mimic[i]), &ok);
    put(mim, "multiplier", json_num(m->jnt_mimic_k[2 * i]), &ok);
    put(mim, "offset", json_num(m->jnt_mimic_k[2 * i + 1]), &ok);
  }
  if (!ok) {
    cJSON_Delete(j);
    return NULL;
  }
  return j;
}


char *spart_model_json(const spart_model *m) {
  char nm[32];
  cJSON *root = cJSON_CreateObject(), *base = cJSON_CreateObject();
  cJSON *links = cJSON_CreateArray(), *joints = cJSON_CreateArray();
  char *text = NULL;
  int ok = root && base && links && joints;

  /* header and base link */
  put(root, "version", cJSON_CreateNumber(1), &ok);
  put(root, "name", cJSON_CreateString(m->name ? m->name : ""), &ok);
  put(root, "n_q", cJSON_CreateNumber(m->nq), &ok);
  put(root, "n_links_joints", cJSON_CreateNumber(m->nb - 1), &ok);
  put(base, "name", cJSON_CreateString(name_or(nm, sizeof nm, m->body_name[0], 'L', 0)), &ok);
  put(base, "mass", json_num(m->body_mass[0]), &ok);
  put(base, "inertia", json_inertia(m->body_inertia), &ok);

  /* links and joints 1..n */
  for (int i = 1; i < m->nb && ok; i++) {
    put(links, NULL, json_link(m, i), &ok);
    put(joints, NULL, json_joint(m, i), &ok);
  }
  if (ok) {
    put(root, "base_link", base, &ok);
    put(root, "links", links, &ok);
    put(root, "joints", joints, &ok);
    base = links = joints = NULL;
    if (m->nb - 1 <= CON_MAX) {
      put(root, "con", json_con(m), &ok);
    }
    put(root, "keys", json_keys(m), &ok);
  }
  if (ok) {
    text = cJSON_Print(root);
  }
  cJSON_Delete(root);
  cJSON_Delete(base);
  cJSON_Delete(links);
  cJSON_Delete(joints);
  return text;
}


/* ---------------------------------------------------------------------------------------------
 * reading the model JSON
 */

/* what a JSON value is, for "expected X, got Y" */
static const char *shape(const cJSON *v, char *buf, size_t n) {
  int len = 0, cols = -1, rect = 1, nums = 1;
  const cJSON *e;
  if (!v) {
    return "nothing";
  }
  if (cJSON_IsNumber(v)) {
    return "a number";
  }
  if (cJSON_IsString(v)) {
    return "a string";
  }
  if (cJSON_IsObject(v)) {
    return "an object";
  }
  if (cJSON_IsBool(v)) {
    return "a boolean";
  }
  if (!cJSON_IsArray(v)) {
    return "null";
  }
  cJSON_ArrayForEach(e, v) {
    const cJSON *x;
    int c = 0;
    len++;
    nums = nums && cJSON_IsNumber(e);
    if (!cJSON_IsArray(e)) {
      rect = 0;
      continue;
    }
    cJSON_ArrayForEach(x, e) {
      rect = rect && cJSON_IsNumber(x);
      c++;
    }
    rect = rect && (cols < 0 || cols == c);
    cols = c;
  }
  if (len == 0) {
    return "an empty array";
  }
  if (nums) {
    snprintf(buf, n, "%d numbers", len);
  } else if (rect) {
    snprintf(buf, n, "%dx%d numbers", len, cols);
  } else {
    snprintf(buf, n, "an array of %d items", len);
  }
  return buf;
}


static int bad_field(spart_err *err, const char *where, const char *key, const char *expected,
                     const cJSON *v) {
  char buf[64];
  return fail(err, SPART_EDATA, 0, "%s%s%s: expected %s, got %s", where, *where ? "." : "", key,
              expected, shape(v, buf, sizeof buf));
}


static int get_num(const cJSON *obj, const char *where, const char *key, double *out,
                   spart_err *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble)) {
    return bad_field(err, where, key, "a finite number", v);
  }
  *out = v->valuedouble;
  return 0;
}


static int get_int(const cJSON *obj, const char *where, const char *key, int *out,
                   spart_err *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  double d = cJSON_IsNumber(v) ? v->valuedouble : 0.5;
  if (!(d >= INT_MIN && d <= INT_MAX && d == floor(d))) {
    return bad_field(err, where, key, "an integer", v);
  }
  *out = (int)d;
  return 0;
}


/* n finite numbers from a JSON array; 0 or -1 */
static int numbers(const cJSON *v, int n, double *out) {
  const cJSON *x;
  int k = 0;
  if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != n) {
    return -1;
  }
  cJSON_ArrayForEach(x, v) {
    if (!cJSON_IsNumber(x) || !isfinite(x->valuedouble)) {
      return -1;
    }
    out[k++] = x->valuedouble;
  }
  return 0;
}


static int get_vec(const cJSON *obj, const char *where, const char *key, int n, double *out,
                   spart_err *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (numbers(v, n, out)) {
    char want[32];
    snprintf(want, sizeof want, "%d numbers", n);
    return bad_field(err, where, key, want, v);
  }
  return 0;
}


/* rows x cols numbers, row-major */
static int get_mat(const cJSON *obj, const char *where, const char *key, int rows, int cols,
                   double *out, spart_err *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  int i = 0, bad = !cJSON_IsArray(v) || cJSON_GetArraySize(v) != rows;
  if (!bad) {
    const cJSON *r;
    cJSON_ArrayForEach(r, v) {
      bad = bad || numbers(r, cols, out + cols * i++);
    }
  }
  if (bad) {
    char want[32];
    snprintf(want, sizeof want, "%dx%d numbers", rows, cols);
    return bad_field(err, where, key, want, v);
  }
  return 0;
}


/* an optional field of n numbers (n = 1: a number); out is left alone when it is absent */
static int get_opt(const cJSON *obj, const char *where, const char *key, int n, double *out,
                   spart_err *err) {
  if (!cJSON_GetObjectItemCaseSensitive(obj, key)) {
    return 0;
  }
  return n == 1 ? get_num(obj, where, key, out, err) : get_vec(obj, where, key, n, out, err);
}


/* a homogeneous transform [R p; 0 0 0 1] */
static int get_T(const cJSON *obj, const char *where, const char *key, double R[9], double p[3],
                 spart_err *err) {
  double T[16];
  if (get_mat(obj, where, key, 4, 4, T, err)) {
    return -SPART_EDATA;
  }
  if (T[12] != 0 || T[13] != 0 || T[14] != 0 || T[15] != 1) {
    return fail(err, SPART_EDATA, 0, "%s.%s: last row must be 0 0 0 1", where, key);
  }
  for (int r = 0; r < 3; r++) {
    for (int c = 0; c < 3; c++) {
      R[3 * r + c] = T[4 * r + c];
    }
    p[r] = T[4 * r + 3];
  }
  return 0;
}


/* a symmetric 3x3 inertia into xx yy zz xy xz yz */
static int get_inertia(const cJSON *obj, const char *where, const char *key, double I[6],
                       spart_err *err) {
  double M[9];
  if (get_mat(obj, where, key, 3, 3, M, err)) {
    return -SPART_EDATA;
  }
  if (M[1] != M[3] || M[2] != M[6] || M[5] != M[7]) {
    return fail(err, SPART_EDATA, 0, "%s.%s: not symmetric", where, key);
  }
  I[0] = M[0];
  I[1] = M[4];
  I[2] = M[8];
  I[3] = M[1];
  I[4] = M[2];
  I[5] = M[5];
  return 0;
}


/* an object's "name", else the name keys gives to id, else kind followed by the id */
static char *get_name(const cJSON *obj, const char *where, const char *key_name, char kind, int id,
                      spart_err *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, "name");
  char buf[32], *s;
  if (v && !cJSON_IsString(v)) {
    bad_field(err, where, "name", "a string", v);
    return NULL;
  }
  s = strdup(v ? v->valuestring : key_name ? key_name : name_or(buf, sizeof buf, NULL, kind, id));
  if (!s) {
    fail(err, SPART_ENOMEM, 0, "out of memory");
  }
  return s;
}


/* names by id from keys.link_id or keys.joint_id (pointers into the cJSON tree) */
static void key_names(const cJSON *obj, const char *which, const char **names, int nb) {
  const cJSON *keys = cJSON_GetObjectItemCaseSensitive(obj, "keys"), *e;
  const cJSON *map = cJSON_GetObjectItemCaseSensitive(keys, which);
  cJSON_ArrayForEach(e, map) {
    if (cJSON_IsNumber(e) && e->valuedouble >= 0 && e->valuedouble < nb &&
        e->valuedouble == floor(e->valuedouble) && e->string) {
      names[(int)e->valuedouble] = e->string;
    }
  }
}


/* an optional integer field that, when present, must equal i */
static int get_id(const cJSON *obj, const char *where, const char *key, int i, spart_err *err) {
  int id = 0;
  if (!cJSON_GetObjectItemCaseSensitive(obj, key)) {
    return 0;
  }
  if (get_int(obj, where, key, &id, err)) {
    return -SPART_EDATA;
  }
  if (id != i) {
    return fail(err, SPART_EDATA, 0, "%s.%s: expected %d, got %d", where, key, i, id);
  }
  return 0;
}


static int read_link(spart_model *m, const cJSON *l, int i, const char *kname, spart_err *err) {
  char where[32];
  snprintf(where, sizeof where, "links[%d]", i - 1);
  if (!cJSON_IsObject(l)) {
    return bad_field(err, "", where, "an object", l);
  }
  if (get_id(l, where, "id", i, err) || get_id(l, where, "parent_joint", i, err)) {
    return -SPART_EDATA;
  }
  m->body_name[i] = get_name(l, where, kname, 'L', i, err);
  if (!m->body_name[i] || get_T(l, where, "T", m->body_rot + 9 * i, m->body_pos + 3 * i, err) ||
      get_num(l, where, "mass", m->body_mass + i, err) ||
      get_inertia(l, where, "inertia", m->body_inertia + 6 * i, err)) {
    return -err->code;
  }
  return 0;
}


/* a joint's optional "mimic": {"joint": name, "multiplier": 1, "offset": 0} */
static int read_mimic(spart_model *m, const cJSON *j, int i, const char *where, spart_err *err) {
  const cJSON *mim = cJSON_GetObjectItemCaseSensitive(j, "mimic"), *name;
  char w[48];
  if (!mim) {
    return 0;
  }
  if (!cJSON_IsObject(mim)) {
    return bad_field(err, where, "mimic", "an object", mim);
  }
  snprintf(w, sizeof w, "%s.mimic", where);
  name = cJSON_GetObjectItemCaseSensitive(mim, "joint");
  if (!cJSON_IsString(name) || !name->valuestring[0]) {
    return bad_field(err, w, "joint", "a joint name", name);
  }
  m->jnt_mimic_k[2 * i] = 1;
  m->jnt_mimic_k[2 * i + 1] = 0;
  if (get_opt(mim, w, "multiplier", 1, m->jnt_mimic_k + 2 * i, err) ||
      get_opt(mim, w, "offset", 1, m->jnt_mimic_k + 2 * i + 1, err)) {
    return -SPART_EDATA;
  }
  m->jnt_mimic[i] = strdup(name->valuestring);
  return m->jnt_mimic[i] ? 0 : fail(err, SPART_ENOMEM, 0, "out of memory");
}


static int read_joint(spart_model *m, const cJSON *j, int i, const char *kname, spart_err *err) {
  char where[32];
  int qid = 0;
  snprintf(where, sizeof where, "joints[%d]", i - 1);
  if (!cJSON_IsObject(j)) {
    return bad_field(err, "", where, "an object", j);
  }
  if (get_id(j, where, "id", i, err) || get_id(j, where, "child_link", i, err)) {
    return -SPART_EDATA;
  }
  m->jnt_name[i] = get_name(j, where, kname, 'J', i, err);
  if (!m->jnt_name[i] || get_int(j, where, "type", m->jnt_type + i, err) ||
      get_int(j, where, "q_id", &qid, err) ||
      get_int(j, where, "parent_link", m->body_parent + i, err) ||
      get_vec(j, where, "axis", 3, m->jnt_axis + 3 * i, err) ||
      get_T(j, where, "T", m->jnt_rot + 9 * i, m->jnt_pos + 3 * i, err)) {
    return -err->code;
  }
  if (get_opt(j, where, "armature", 1, m->jnt_armature + i, err) ||
      get_opt(j, where, "damping", 1, m->jnt_damping + i, err) ||
      get_opt(j, where, "friction", 2, m->jnt_friction + 2 * i, err)) {
    return -SPART_EDATA;
  }
  m->jnt_limited[i] = cJSON_GetObjectItemCaseSensitive(j, "limit") != NULL;
  if (get_opt(j, where, "limit", 2, m->jnt_range + 2 * i, err)) {
    return -SPART_EDATA;
  }
  if (read_mimic(m, j, i, where, err)) {
    return -err->code;
  }
  m->jnt_qadr[i] = qid > 0 ? qid - 1 : qid == -1 ? -1 : INT_MIN;
  if (m->jnt_qadr[i] == INT_MIN) {
    return fail(err, SPART_EDATA, 0, "%s.q_id: expected -1 or a positive integer, got %d", where,
                qid);
  }
  return 0;
}


/* the body of spart_model_from_cjson, with the model allocated */
static int read_model(spart_model *m, const cJSON *obj, spart_err *err) {
  const int nb = m->nb;
  const char **lnames = calloc((size_t)nb, sizeof *lnames);
  const char **jnames = calloc((size_t)nb, sizeof *jnames);
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, "name"), *l, *j;
  const cJSON *base = cJSON_GetObjectItemCaseSensitive(obj, "base_link");
  int rc = 0, i = 1;

  if (!lnames || !jnames) {
    rc = fail(err, SPART_ENOMEM, 0, "out of memory");
  } else if (v && !cJSON_IsString(v)) {
    rc = bad_field(err, "", "name", "a string", v);
  } else if (!(m->name = strdup(v ? v->valuestring : ""))) {
    rc = fail(err, SPART_ENOMEM, 0, "out of memory");
  } else if (!cJSON_IsObject(base)) {
    rc = bad_field(err, "", "base_link", "an object", base);
  }
  if (rc) {
    free(lnames);
    free(jnames);
    return rc;
  }

  /* base link, then links and joints side by side */
  key_names(obj, "link_id", lnames, nb);
  key_names(obj, "joint_id", jnames, nb);
  m->body_parent[0] = -1;
  m->body_name[0] = get_name(base, "base_link", lnames[0], 'L', 0, err);
  if (!m->body_name[0] || get_num(base, "base_link", "mass", m->body_mass, err) ||
      get_inertia(base, "base_link", "inertia", m->body_inertia, err)) {
    rc = -err->code;
  }
  l = cJSON_GetObjectItemCaseSensitive(obj, "links")->child;
  j = cJSON_GetObjectItemCaseSensitive(obj, "joints")->child;
  for (; !rc && l && j; l = l->next, j = j->next, i++) {
    rc = read_link(m, l, i, lnames[i], err);
    if (!rc) {
      rc = read_joint(m, j, i, jnames[i], err);
    }
  }
  free(lnames);
  free(jnames);
  return rc;
}


/* ---------------------------------------------------------------------------------------------
 * reading a DH description: SPART's DH structure or a Robotics Toolbox table
 */

/* the first key of obj that is not in keys (NULL-terminated), or NULL */
static const char *unknown_key(const cJSON *obj, const char *const *keys) {
  const cJSON *e;
  cJSON_ArrayForEach(e, obj) {
    const char *const *k = keys;
    while (*k && strcmp(*k, e->string) != 0) {
      k++;
    }
    if (!*k) {
      return e->string;
    }
  }
  return NULL;
}


/* obj must be an object with no key outside keys */
static int dh_object(const cJSON *obj, const char *where, const char *const *keys,
                     spart_err *err) {
  const char *k;
  if (!cJSON_IsObject(obj)) {
    return bad_field(err, "", where, "an object", obj);
  }
  if ((k = unknown_key(obj, keys))) {
    return fail(err, SPART_EDATA, 0, "%s: unknown field '%.60s'", where, k);
  }
  return 0;
}


/* an optional number, default dflt */
static int dh_num(const cJSON *obj, const char *where, const char *key, double dflt, double *out,
                  spart_err *err) {
  *out = dflt;
  return get_opt(obj, where, key, 1, out, err);
}


/* a Toolbox inertia: 3x3 symmetric, 3 numbers (principal) or 6 (Ixx Iyy Izz Ixy Iyz Ixz) */
static int dh_inertia(const cJSON *obj, const char *where, const char *key, double I[6],
                      spart_err *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  double w[6] = {0};
  int n = cJSON_GetArraySize(v);
  if (!v) {
    return 0;
  }
  if (cJSON_IsArray(v) && cJSON_IsArray(v->child)) {
    return get_inertia(obj, where, key, I, err);
  }
  if ((n != 3 && n != 6) || numbers(v, n, w)) {
    return bad_field(err, where, key, "3x3, 3 or 6 numbers", v);
  }
  I[0] = w[0];
  I[1] = w[1];
  I[2] = w[2];
  I[3] = w[3];
  I[4] = w[5];
  I[5] = w[4];
  return 0;
}


/* the drive train and limits of a link, both formats: Jm B Tc G qlim */
static int dh_drive(const cJSON *obj, const char *where, spart_dh_link *l, spart_err *err) {
  const cJSON *tc = cJSON_GetObjectItemCaseSensitive(obj, "Tc");
  if (dh_num(obj, where, "Jm", 0, &l->Jm, err) || dh_num(obj, where, "B", 0, &l->B, err) ||
      dh_num(obj, where, "G", 1, &l->G, err)) {
    return -SPART_EDATA;
  }
  if (cJSON_IsNumber(tc)) {
    if (get_num(obj, where, "Tc", l->Tc, err)) {
      return -SPART_EDATA;
    }
    l->Tc[1] = -l->Tc[0]; /* the Toolbox's symmetric Coulomb friction */
  } else if (get_opt(obj, where, "Tc", 2, l->Tc, err)) {
    return -SPART_EDATA;
  }
  l->limited = cJSON_GetObjectItemCaseSensitive(obj, "qlim") != NULL;
  return get_opt(obj, where, "qlim", 2, l->qlim, err);
}


/* man[i] of SPART's DH structure */
static int dh_spart_link(const cJSON *obj, const char *where, spart_dh_link *l, spart_err *err) {
  static const char *const keys[] = {"type", "DH", "b", "mass", "I", "Jm", "B", "Tc", "G", "qlim",
                                     NULL};
  static const char *const dh_keys[] = {"d", "alpha", "a", "theta", NULL};
  const cJSON *dh = cJSON_GetObjectItemCaseSensitive(obj, "DH");
  char w[48];
  snprintf(w, sizeof w, "%s.DH", where);
  if (dh_object(obj, where, keys, err) || get_int(obj, where, "type", &l->type, err) ||
      dh_object(dh, w, dh_keys, err) || get_num(dh, w, "d", &l->d, err) ||
      get_num(dh, w, "alpha", &l->alpha, err) || get_num(dh, w, "a", &l->a, err) ||
      get_num(dh, w, "theta", &l->theta, err) || get_vec(obj, where, "b", 3, l->com, err) ||
      get_num(obj, where, "mass", &l->mass, err) ||
      get_inertia(obj, where, "I", l->inertia, err)) {
    return -SPART_EDATA;
  }
  if (l->type != SPART_JNT_REVOLUTE && l->type != SPART_JNT_PRISMATIC) {
    return fail(err, SPART_EDATA, 0, "%s.type: expected 1 (revolute) or 2 (prismatic), got %d",
                where, l->type);
  }
  return dh_drive(obj, where, l, err);
}


/* links[i] of a Toolbox table */
static int dh_toolbox_link(const cJSON *obj, const char *where, spart_dh_link *l, spart_err *err) {
  static const char *const keys[] = {"type", "theta", "d", "a", "alpha", "offset", "flip", "m",
                                     "r", "I", "Jm", "B", "Tc", "G", "qlim", NULL};
  const cJSON *type = cJSON_GetObjectItemCaseSensitive(obj, "type");
  const cJSON *flip = cJSON_GetObjectItemCaseSensitive(obj, "flip");
  const char *var;
  if (dh_object(obj, where, keys, err)) {
    return -SPART_EDATA;
  }
  l->type = SPART_JNT_REVOLUTE;
  if (type && !(cJSON_IsString(type) && (strcmp(type->valuestring, "revolute") == 0 ||
                                         strcmp(type->valuestring, "prismatic") == 0))) {
    return bad_field(err, where, "type", "\"revolute\" or \"prismatic\"", type);
  }
  if (type && strcmp(type->valuestring, "prismatic") == 0) {
    l->type = SPART_JNT_PRISMATIC;
  }
  var = l->type == SPART_JNT_REVOLUTE ? "theta" : "d";
  if (cJSON_GetObjectItemCaseSensitive(obj, var)) {
    return fail(err, SPART_EDATA, 0, "%s.%s: the joint variable of a %s joint: use offset",
                where, var, l->type == SPART_JNT_REVOLUTE ? "revolute" : "prismatic");
  }
  if (flip && !cJSON_IsBool(flip)) {
    return bad_field(err, where, "flip", "true or false", flip);
  }
  l->flip = cJSON_IsTrue(flip);
  if (dh_num(obj, where, "theta", 0, &l->theta, err) || dh_num(obj, where, "d", 0, &l->d, err) ||
      dh_num(obj, where, "a", 0, &l->a, err) || dh_num(obj, where, "alpha", 0, &l->alpha, err) ||
      dh_num(obj, where, "offset", 0, &l->offset, err) ||
      dh_num(obj, where, "m", 0, &l->mass, err) || get_opt(obj, where, "r", 3, l->com, err) ||
      dh_inertia(obj, where, "I", l->inertia, err)) {
    return -SPART_EDATA;
  }
  return dh_drive(obj, where, l, err);
}


/* the base of either format: the first joint frame (SPART's T_L0_J1, the Toolbox's T), mass,
   inertia */
static int dh_base(const cJSON *obj, spart_dh *dh, int toolbox, spart_err *err) {
  static const char *const spart_keys[] = {"T_L0_J1", "mass", "I", NULL};
  static const char *const toolbox_keys[] = {"T", "mass", "I", NULL};
  const cJSON *base = cJSON_GetObjectItemCaseSensitive(obj, "base");
  if (toolbox && !base) {
    return 0;
  }
  if (dh_object(base, "base", toolbox ? toolbox_keys : spart_keys, err)) {
    return -SPART_EDATA;
  }
  if (toolbox) {
    if (cJSON_GetObjectItemCaseSensitive(base, "T") &&
        get_T(base, "base", "T", dh->base_R, dh->base_p, err)) {
      return -SPART_EDATA;
    }
    return dh_num(base, "base", "mass", 0, &dh->base_mass, err) ||
                   dh_inertia(base, "base", "I", dh->base_inertia, err)
               ? -SPART_EDATA
               : 0;
  }
  return get_T(base, "base", "T_L0_J1", dh->base_R, dh->base_p, err) ||
                 get_num(base, "base", "mass", &dh->base_mass, err) ||
                 get_inertia(base, "base", "I", dh->base_inertia, err)
             ? -SPART_EDATA
             : 0;
}


/* a DH description (obj has "man" or "dh") into a model */
static spart_model *read_dh(const cJSON *obj, spart_err *err) {
  static const char *const spart_keys[] = {"name", "n", "man", "base", "EE", NULL};
  static const char *const toolbox_keys[] = {"name", "dh", "links", "base", NULL};
  static const char *const ee_keys[] = {"theta", "d", NULL};
  const cJSON *conv = cJSON_GetObjectItemCaseSensitive(obj, "dh");
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(obj, "name");
  const cJSON *ee = cJSON_GetObjectItemCaseSensitive(obj, "EE"), *links, *l;
  int toolbox = conv != NULL, n = 0, i = 0, rc;
  const char *key = toolbox ? "links" : "man", *k;
  spart_dh dh = {0};
  spart_dh_link *link;
  spart_model *m = NULL;

  /* the document */
  if ((k = unknown_key(obj, toolbox ? toolbox_keys : spart_keys))) {
    fail(err, SPART_EDATA, 0, "unknown field '%.60s' in a %s", k,
         toolbox ? "Toolbox DH table" : "SPART DH structure");
    return NULL;
  }
  dh.convention = SPART_DH_SPART;
  if (toolbox) {
    if (!cJSON_IsString(conv) || (strcmp(conv->valuestring, "standard") != 0 &&
                                  strcmp(conv->valuestring, "modified") != 0)) {
      bad_field(err, "", "dh", "\"standard\" or \"modified\"", conv);
      return NULL;
    }
    dh.convention = conv->valuestring[0] == 's' ? SPART_DH_STANDARD : SPART_DH_MODIFIED;
  }
  if (name && !cJSON_IsString(name)) {
    bad_field(err, "", "name", "a string", name);
    return NULL;
  }
  dh.name = name ? name->valuestring : NULL;
  links = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!cJSON_IsArray(links) || cJSON_GetArraySize(links) < 1) {
    bad_field(err, "", key, "an array of at least one link", links);
    return NULL;
  }
  n = cJSON_GetArraySize(links);
  if (!toolbox && get_int(obj, "", "n", &dh.n, err)) {
    return NULL;
  }
  if (!toolbox && dh.n != n) {
    fail(err, SPART_EDATA, 0, "n: expected %d (the links of man), got %d", n, dh.n);
    return NULL;
  }
  dh.n = n;
  for (int c = 0; c < 9; c += 4) {
    dh.base_R[c] = 1;
  }
  if (dh_base(obj, &dh, toolbox, err)) {
    return NULL;
  }
  if (!toolbox && ee &&
      (dh_object(ee, "EE", ee_keys, err) || dh_num(ee, "EE", "theta", 0, &dh.ee_theta, err) ||
       dh_num(ee, "EE", "d", 0, &dh.ee_d, err))) {
    return NULL;
  }

  /* the links, then the model */
  link = calloc((size_t)n, sizeof *link);
  if (!link) {
    fail(err, SPART_ENOMEM, 0, "out of memory");
    return NULL;
  }
  rc = 0;
  cJSON_ArrayForEach(l, links) {
    char where[32];
    snprintf(where, sizeof where, "%s[%d]", key, i);
    rc = toolbox ? dh_toolbox_link(l, where, link + i, err) : dh_spart_link(l, where, link + i, err);
    if (rc) {
      break;
    }
    i++;
  }
  dh.link = link;
  if (!rc) {
    m = spart_dh_model(&dh, err);
  }
  free(link);
  return m;
}


/* the path at the start of a message from the readers ("links[2].mass: ..."), or where the
   part of the model a check message names ("link 'a': ...", "two joints named 'b'") is; "" if
   none */
static void message_path(const char *msg, const spart_model *m, char *path, size_t n) {
  size_t k = strspn(msg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.[]");
  const char *q;
  path[0] = 0;
  if (k > 0 && k < n && msg[k] == ':' && msg[k + 1] == ' ') {
    memcpy(path, msg, k);
    path[k] = 0;
    if (strncmp(msg + k + 2, "unknown field '", 15) == 0) { /* the key itself */
      q = msg + k + 17;
      snprintf(path + k, n - k, ".%.*s", (int)strcspn(q, "'"), q);
    }
    return;
  }
  if (strncmp(msg, "unknown field '", 15) == 0) {
    snprintf(path, n, "%.*s", (int)strcspn(msg + 15, "'"), msg + 15);
    return;
  }
  if (!m) {
    return;
  }
  /* a link or joint by name or id: link 'a', joint 3, two links named 'a' (the second) */
  int joint = strncmp(msg, "joint ", 6) == 0 || strncmp(msg, "two joints named '", 18) == 0;
  int two = strncmp(msg, "two ", 4) == 0, i = -1;
  q = two ? msg + (joint ? 18 : 17) : strncmp(msg, "link ", 5) == 0 ? msg + 5 : joint ? msg + 6 : NULL;
  if (!q || (two && strncmp(msg, joint ? "two joints" : "two links", joint ? 10 : 9) != 0)) {
    return;
  }
  if (*q == '\'' || two) {
    const char *name = q + !two;
    size_t len = strcspn(name, "'");
    char *const *names = joint ? m->jnt_name : m->body_name;
    for (int b = 0; b < m->nb; b++) {
      if (names[b] && strlen(names[b]) == len && strncmp(names[b], name, len) == 0) {
        i = b;
        if (!two) {
          break;
        }
      }
    }
  } else if (*q >= '0' && *q <= '9') {
    i = atoi(q);
  }
  if (i == 0 && !joint) {
    snprintf(path, n, "base_link");
  } else if (i > 0 && i < m->nb) {
    snprintf(path, n, "%s[%d]", joint ? "joints" : "links", i - 1);
  }
}


/* spart_model_from_cjson; path (pathlen bytes) receives where in the document a fault the checks
   find is ("links[2]"), "" if the message says where */
static spart_model *from_cjson(const cJSON *obj, spart_err *err, char *path, size_t pathlen) {
  spart_err dummy = {0};
  const cJSON *links, *joints, *v;
  spart_model *m;
  int n = 0, nq = 0, version = 1;

  /* sizes first, so that nothing is allocated for a bad document */
  err = err ? err : &dummy;
  err->code = 0;
  err->line = 0;
  if (!cJSON_IsObject(obj)) {
    char buf[64];
    fail(err, SPART_EDATA, 0, "expected a model object, got %s", shape(obj, buf, sizeof buf));
    return NULL;
  }
  if (cJSON_GetObjectItemCaseSensitive(obj, "man") || cJSON_GetObjectItemCaseSensitive(obj, "dh")) {
    return read_dh(obj, err);
  }
  v = cJSON_GetObjectItemCaseSensitive(obj, "version");
  if (v && get_int(obj, "", "version", &version, err)) {
    return NULL;
  }
  if (version != 1) {
    fail(err, SPART_EDATA, 0, "version: expected 1, got %d", version);
    return NULL;
  }
  if (get_int(obj, "", "n_links_joints", &n, err) || get_int(obj, "", "n_q", &nq, err)) {
    return NULL;
  }
  if (n < 0) {
    fail(err, SPART_EDATA, 0, "n_links_joints: expected at least 0, got %d", n);
    return NULL;
  }
  links = cJSON_GetObjectItemCaseSensitive(obj, "links");
  joints = cJSON_GetObjectItemCaseSensitive(obj, "joints");
  if (!cJSON_IsArray(links) || cJSON_GetArraySize(links) != n) {
    char want[48];
    snprintf(want, sizeof want, "%d links (n_links_joints)", n);
    bad_field(err, "", "links", want, links);
    return NULL;
  }
  if (!cJSON_IsArray(joints) || cJSON_GetArraySize(joints) != n) {
    char want[48];
    snprintf(want, sizeof want, "%d joints (n_links_joints)", n);
    bad_field(err, "", "joints", want, joints);
    return NULL;
  }

  /* fill and check */
  m = spart_model_new(n + 1);
  if (!m) {
    fail(err, SPART_ENOMEM, 0, "out of memory");
    return NULL;
  }
  if (read_model(m, obj, err) || spart_model_check(m, err)) {
    message_path(err->msg, m, path, pathlen);
    spart_model_free(m);
    return NULL;
  }
  if (m->nq != nq) {
    fail(err, SPART_EDATA, 0, "n_q: expected %d (moving joints), got %d", m->nq, nq);
    spart_model_free(m);
    return NULL;
  }
  return m;
}


spart_model *spart_model_from_cjson(const cJSON *obj, spart_err *err) {
  char path[256];
  return from_cjson(obj, err, path, sizeof path);
}


/* past the JSON string at p (which starts with '"'), or NULL */
static const char *skip_string(const char *p) {
  for (p++; *p != '"'; p++) {
    if ((unsigned char)*p < 0x20) {
      return NULL;
    }
    if (*p == '\\') {
      p++;
      if (*p == 'u') {
        for (int k = 1; k <= 4; k++) {
          if (!isxdigit((unsigned char)p[k])) {
            return NULL;
          }
        }
        p += 4;
      } else if (!strchr("\"\\/bfnrt", *p) || !*p) {
        return NULL;
      }
    }
  }
  return p + 1;
}


/* past the JSON number at p, or NULL */
static const char *skip_number(const char *p) {
  p += *p == '-';
  if (!isdigit((unsigned char)*p)) {
    return NULL;
  }
  p += *p == '0' ? 1 : strspn(p, "0123456789");
  if (*p == '.') {
    if (!isdigit((unsigned char)p[1])) {
      return NULL;
    }
    p += 1 + strspn(p + 1, "0123456789");
  }
  if (*p == 'e' || *p == 'E') {
    p += 1 + (p[1] == '+' || p[1] == '-');
    if (!isdigit((unsigned char)*p)) {
      return NULL;
    }
    p += strspn(p, "0123456789");
  }
  return p;
}


static const char *skip_space(const char *p) {
  return p + strspn(p, " \t\r\n");
}


/* past the JSON value at p, checked but not built, without recursion; NULL if it is not JSON or
   nests deeper than SKIP_DEPTH */
static const char *skip_value(const char *p) {
  char stack[SKIP_DEPTH]; /* the open containers: '[' or '{' */
  int depth = 0;

  for (;;) {
    /* a value */
    p = skip_space(p);
    if (*p == '[' || *p == '{') {
      if (depth == SKIP_DEPTH) {
        return NULL;
      }
      stack[depth++] = *p;
      p = skip_space(p + 1);
      if (*p == (stack[depth - 1] == '[' ? ']' : '}')) {
        p++;
        depth--;
      } else if (stack[depth - 1] == '{') {
        /* the first key */
        if (*p != '"' || !(p = skip_string(p)) || *(p = skip_space(p)) != ':') {
          return NULL;
        }
        p++;
        continue;
      } else {
        continue;
      }
    } else if (*p == '"') {
      p = skip_string(p);
    } else if (*p == '-' || isdigit((unsigned char)*p)) {
      p = skip_number(p);
    } else if (strncmp(p, "true", 4) == 0 || strncmp(p, "null", 4) == 0) {
      p += 4;
    } else if (strncmp(p, "false", 5) == 0) {
      p += 5;
    } else {
      return NULL;
    }

    /* then the end of containers, or a comma and the next member */
    for (;;) {
      if (!p) {
        return NULL;
      }
      if (depth == 0) {
        return p;
      }
      p = skip_space(p);
      if (*p == (stack[depth - 1] == '[' ? ']' : '}')) {
        p++;
        depth--;
        continue;
      }
      if (*p != ',') {
        return NULL;
      }
      p = skip_space(p + 1);
      if (stack[depth - 1] == '{') {
        if (*p != '"' || !(p = skip_string(p)) || *(p = skip_space(p)) != ':') {
          return NULL;
        }
        p++;
      }
      break;
    }
  }
}


/* blank the value of every top-level "con" member of the object text (keeping its newlines, so
   that lines in messages stay right): the reader ignores it, and SPART's n x n maps would cost
   cJSON some 64 bytes a digit.  Text that is not a JSON object is left to cJSON. */
static void drop_con(char *text) {
  char *p = (char *)skip_space(text + (strncmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0));
  if (*p != '{') {
    return;
  }
  p = (char *)skip_space(p + 1);
  while (*p == '"') {
    char *key = p, *value, *end;
    if (!(p = (char *)skip_string(p)) || *(p = (char *)skip_space(p)) != ':') {
      return;
    }
    value = (char *)skip_space(p + 1);
    if (!(end = (char *)skip_value(value))) {
      return;
    }
    if (p - key >= 5 && strncmp(key, "\"con\"", 5) == 0 && (char *)skip_space(key + 5) == p) {
      for (char *c = value; c < end; c++) {
        *c = *c == '\n' ? '\n' : ' ';
      }
      *value = '0';
    }
    p = (char *)skip_space(end);
    if (*p != ',') {
      return;
    }
    p = (char *)skip_space(p + 1);
  }
}


/* spart_model_parse_at on a text it may change */
static spart_model *parse_text(char *text, long line, spart_err *err) {
  const char *p = text;
  size_t len = strlen(text), skip = strncmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
  cJSON *obj;
  spart_model *m;

  while (isspace((unsigned char)*p)) {
    p++;
  }
  if (!*p) {
    fail(err, SPART_EDATA, 0, "empty input");
    return NULL;
  }

  /* the strict scanner first: cJSON takes 1., 01, repeated keys, a key "qm\u0000x" as qm */
  if (spart_json_check(text + skip, len - skip, line, err)) {
    if (strncmp(err->msg, "invalid JSON: ", 14) == 0) {
      memmove(err->msg + 10, err->msg + 14, strlen(err->msg + 14) + 1);
      memcpy(err->msg, "not JSON: ", 10);
    }
    return NULL;
  }

  /* then cJSON's tree: what it cannot build of a text the scanner took is for want of memory */
  drop_con(text);
  obj = cJSON_ParseWithOpts(text + skip, NULL, 1);
  if (!obj) {
    fail(err, SPART_ENOMEM, 0, "out of memory");
    return NULL;
  }
  char path[256] = "";
  m = from_cjson(obj, err, path, sizeof path);
  cJSON_Delete(obj);

  /* a fault in the model: the line of the part of the text it names */
  if (!m && err->code == SPART_EDATA && err->line == 0 && !path[0]) {
    message_path(err->msg, NULL, path, sizeof path);
  }
  if (!m && err->code == SPART_EDATA && err->line == 0 && path[0]) {
    err->line = (int)spart_json_line_of(text + skip, len - skip, line, path);
  }
  return m;
}


spart_model *spart_model_parse_at(const char *text, long line, spart_err *err) {
  char *copy = strdup(text);
  spart_model *m;
  if (!copy) {
    fail(err, SPART_ENOMEM, 0, "out of memory");
    return NULL;
  }
  m = parse_text(copy, line, err);
  free(copy);
  return m;
}


spart_model *spart_model_parse(const char *text, spart_err *err) {
  return spart_model_parse_at(text, 1, err);
}


char *spart_model_slurp(const char *path, size_t *len, spart_err *err) {
  int std = !path || strcmp(path, "-") == 0;
  const char *where = std ? "<stdin>" : path;
  FILE *f = std ? stdin : fopen(path, "rb");
  size_t n = 0, cap = 0;
  char *buf = NULL;

  if (!f) {
    fail(err, SPART_EIO, 0, "cannot open %s: %s", path, strerror(errno));
    return NULL;
  }

  /* read all, doubling the buffer */
  for (;;) {
    size_t got;
    if (cap - n < 2) {
      char *b = cap < MAX_FILE ? realloc(buf, cap ? 2 * cap : 65536) : NULL;
      if (!b) {
        if (cap < MAX_FILE) {
          fail(err, SPART_ENOMEM, 0, "out of memory");
        } else {
          fail(err, SPART_EDATA, 0, "input larger than %zu bytes", MAX_FILE);
        }
        free(buf);
        buf = NULL;
        break;
      }
      buf = b;
      cap = cap ? 2 * cap : 65536;
    }
    got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
    if (got == 0) {
      if (ferror(f)) {
        fail(err, SPART_EIO, 0, "cannot read %s: %s", where, strerror(errno));
        free(buf);
        buf = NULL;
      }
      break;
    }
  }
  if (!std) {
    fclose(f);
  }
  if (buf) {
    buf[n] = '\0';
    *len = n;
  }
  return buf;
}


spart_model *spart_model_load(const char *path, spart_err *err) {
  size_t len = 0, plen = path ? strlen(path) : 0;
  char *buf = spart_model_slurp(path, &len, err);
  const char *p = buf;
  spart_model *m;

  if (!buf) {
    return NULL;
  }
  if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) {
    p += 3; /* a UTF-8 byte order mark */
  }
  while (p < buf + len && isspace((unsigned char)*p)) {
    p++;
  }
  if ((plen >= 5 && strcmp(path + plen - 5, ".urdf") == 0) || (p < buf + len && *p == '<')) {
    m = spart_urdf_parse(buf, len, err);
  } else if (memchr(buf, '\0', len)) {
    fail(err, SPART_EDATA, 0, "not JSON: a NUL byte in the input");
    m = NULL;
  } else {
    m = parse_text(buf, 1, err);
  }
  free(buf);
  return m;
}


/* ---------------------------------------------------------------------------------------------
 * the summary
 */

/* eigenvalues of a symmetric 3x3 (xx yy zz xy xz yz), ascending, by cyclic Jacobi rotations */
static void principal(double ev[3], const double I[6]) {
  double A[3][3] = {{I[0], I[3], I[4]}, {I[3], I[1], I[5]}, {I[4], I[5], I[2]}};
  static const int pq[3][2] = {{0, 1}, {0, 2}, {1, 2}};

  /* each rotation zeroes A[p][q]; a few sweeps reach machine precision */
  for (int sweep = 0; sweep < 50; sweep++) {
    double off = fabs(A[0][1]) + fabs(A[0][2]) + fabs(A[1][2]);
    double diag = fabs(A[0][0]) + fabs(A[1][1]) + fabs(A[2][2]);
    if (off <= 1e-300 || off <= 1e-17 * diag) {
      break;
    }
    for (int k = 0; k < 3; k++) {
      int p = pq[k][0], q = pq[k][1], r = 3 - p - q;
      double apq = A[p][q], theta, t, c, sn, arp, arq;
      if (apq == 0) {
        continue;
      }
      theta = (A[q][q] - A[p][p]) / (2 * apq);
      t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
      c = 1 / sqrt(t * t + 1);
      sn = t * c;
      A[p][p] -= t * apq;
      A[q][q] += t * apq;
      A[p][q] = A[q][p] = 0;
      arp = A[r][p];
      arq = A[r][q];
      A[r][p] = A[p][r] = c * arp - sn * arq;
      A[r][q] = A[q][r] = sn * arp + c * arq;
    }
  }

  /* sort */
  for (int k = 0; k < 3; k++) {
    ev[k] = A[k][k];
  }
  for (int k = 0; k < 2; k++) {
    for (int l = k + 1; l < 3; l++) {
      if (ev[l] < ev[k]) {
        double t = ev[k];
        ev[k] = ev[l];
        ev[l] = t;
      }
    }
  }
}


static const char *type_name(int type) {
  if (type == SPART_JNT_REVOLUTE) {
    return "revolute";
  }
  return type == SPART_JNT_PRISMATIC ? "prismatic" : "fixed";
}


/* s with control characters and '\' escaped as in C (\n, \t, \r, \\, \xNN): one line, and
   the same name always reads the same */
static void sb_name(sbuf *b, const char *s) {
  const char *run = s;
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c >= 0x20 && c != 0x7f && c != '\\') {
      continue;
    }
    sb_printf(b, "%.*s", (int)(s - run), run);
    if (c == '\n' || c == '\t' || c == '\r' || c == '\\') {
      sb_printf(b, "\\%c", c == '\n' ? 'n' : c == '\t' ? 't' : c == '\r' ? 'r' : '\\');
    } else {
      sb_printf(b, "\\x%02x", c);
    }
    run = s + 1;
  }
  sb_printf(b, "%s", run);
}


/* "link 3 'name'" (kind 'L') or "joint 3 'name'" (kind 'J'), the name escaped */
static void sb_who(sbuf *b, const spart_model *m, char kind, int i) {
  char nm[32];
  const char *name = kind == 'L' ? m->body_name[i] : m->jnt_name[i];
  sb_printf(b, "%s %d '", kind == 'L' ? "link" : "joint", i);
  sb_name(b, name_or(nm, sizeof nm, name, kind, i));
  sb_printf(b, "'");
}


/* the inertia warnings of link i */
static void inertia_warnings(sbuf *b, const spart_model *m, int i) {
  double ev[3], tol;
  principal(ev, m->body_inertia + 6 * i);
  tol = 1e-6 * (fabs(ev[0]) + fabs(ev[1]) + fabs(ev[2]));
  if (ev[0] < -tol) {
    sb_printf(b, "warning: ");
    sb_who(b, m, 'L', i);
    sb_printf(b, ": inertia is not positive semi-definite (principal inertias %g %g %g)\n",
              ev[0], ev[1], ev[2]);
  } else if (ev[0] + ev[1] < ev[2] - tol) {
    sb_printf(b, "warning: ");
    sb_who(b, m, 'L', i);
    sb_printf(b, ": principal inertias %g %g %g violate the triangle inequality\n", ev[0], ev[1],
              ev[2]);
  }
}


/* the tree line of link i and the joint that leads to it */
static void tree_line(sbuf *b, const spart_model *m, int i, int depth) {
  char nm[32];
  sb_printf(b, "%*s", 2 * (depth < 32 ? depth : 32), "");
  if (depth > 32) {
    sb_printf(b, "[depth %d] ", depth);
  }
  sb_printf(b, "%d ", i);
  sb_name(b, name_or(nm, sizeof nm, m->body_name[i], 'L', i));
  sb_printf(b, "  mass %g", m->body_mass[i]);
  if (i > 0) {
    sb_printf(b, "  <- joint %d ", i);
    sb_name(b, name_or(nm, sizeof nm, m->jnt_name[i], 'J', i));
    sb_printf(b, " %s", type_name(m->jnt_type[i]));
  }
  if (i > 0 && m->jnt_qadr[i] >= 0) {
    const double *a = m->jnt_axis + 3 * i, *f = m->jnt_friction + 2 * i;
    const double *r = m->jnt_range + 2 * i;
    sb_printf(b, " axis %g %g %g q %d", a[0], a[1], a[2], m->jnt_qadr[i] + 1);
    if (m->jnt_limited[i]) {
      sb_printf(b, " limits %g %g", r[0], r[1]);
    }
    if (m->jnt_armature[i] != 0) {
      sb_printf(b, " armature %g", m->jnt_armature[i]);
    }
    if (m->jnt_damping[i] != 0) {
      sb_printf(b, " damping %g", m->jnt_damping[i]);
    }
    if (f[0] != 0 || f[1] != 0) {
      sb_printf(b, " friction %g %g", f[0], f[1]);
    }
  }
  if (i > 0 && m->jnt_mimic[i]) {
    sb_printf(b, " mimics ");
    sb_name(b, m->jnt_mimic[i]);
  }
  sb_printf(b, "\n");
}


char *spart_model_summary(const spart_model *m) {
  int *depth = calloc((size_t)m->nb, sizeof *depth);
  int *inert = calloc((size_t)m->nb, sizeof *inert);
  double *carried = calloc((size_t)m->nb, sizeof *carried);
  sbuf b = {0};
  double total = 0;

  if (!depth || !inert || !carried) {
    free(depth);
    free(inert);
    free(carried);
    return NULL;
  }

  /* the tree: ids are depth-first, so id order indented by depth draws it */
  sb_printf(&b, "robot '");
  sb_name(&b, m->name ? m->name : "");
  sb_printf(&b, "'\n");
  for (int i = 0; i < m->nb; i++) {
    depth[i] = i > 0 ? depth[m->body_parent[i]] + 1 : 0;
    total += m->body_mass[i];
    tree_line(&b, m, i, depth[i]);
  }
  sb_printf(&b, "total mass %g\nn_q %d\nn_links_joints %d\n", total, m->nq, m->nb - 1);

  /* what each link carries, itself included: mass, and whether any inertia is not zero (a
     massless flywheel on a revolute joint); children come after their parent */
  for (int i = m->nb - 1; i >= 0; i--) {
    const double *I = m->body_inertia + 6 * i;
    carried[i] += m->body_mass[i];
    inert[i] |= I[0] != 0 || I[1] != 0 || I[2] != 0 || I[3] != 0 || I[4] != 0 || I[5] != 0;
    if (i > 0) {
      carried[m->body_parent[i]] += carried[i];
      inert[m->body_parent[i]] |= inert[i];
    }
  }

  /* joints that mimic others: spart does not couple them */
  for (int i = 1; i < m->nb; i++) {
    if (m->jnt_mimic[i]) {
      sb_printf(&b, "note: ");
      sb_who(&b, m, 'J', i);
      sb_printf(&b, " mimics joint '");
      sb_name(&b, m->jnt_mimic[i]);
      sb_printf(&b, "' (multiplier %g, offset %g): spart treats it as an independent degree of "
                "freedom, as SPART and KDL do\n", m->jnt_mimic_k[2 * i], m->jnt_mimic_k[2 * i + 1]);
    }
  }

  /* warnings: a moving joint that carries nothing (a singular mass matrix; a massless sensor or
     tool frame on a fixed joint is normal), odd inertias */
  if (total == 0) {
    sb_printf(&b, "warning: every link is massless\n");
  }
  for (int i = 0; i < m->nb; i++) {
    if (i > 0 && total != 0 && m->jnt_qadr[i] >= 0 && carried[i] == 0 &&
        (m->jnt_type[i] == SPART_JNT_PRISMATIC || !inert[i])) {
      sb_printf(&b, "warning: ");
      sb_who(&b, m, 'L', i);
      sb_printf(&b, " is massless and moves: ");
      sb_who(&b, m, 'J', i);
      sb_printf(&b, " carries no mass%s\n",
                m->jnt_type[i] == SPART_JNT_PRISMATIC ? "" : " and no inertia");
    }
    inertia_warnings(&b, m, i);
  }
  free(depth);
  free(inert);
  free(carried);
  if (b.oom) {
    free(b.s);
    return NULL;
  }
  return b.s;
}
