/* spart_model_json.c -- the model JSON form (SPART's robot structure): its writer and reader */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"

/* the largest n_links_joints for which the writer adds SPART's n x n connectivity maps "con"
   (6 n^2 bytes: 6 MB at 1,000 links, 600 MB at 10,000) */
#define CON_MAX 1000


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


/* item, or NULL (item deleted) when a part of it failed (ok 0) */
static cJSON *kept(cJSON *item, int ok) {
  if (!ok) {
    cJSON_Delete(item);
    return NULL;
  }
  return item;
}


/* an object that starts {"id": i, "name": name, or kind followed by i}; failure clears *ok */
static cJSON *json_named(int i, const char *name, char kind, int *ok) {
  char nm[32];
  cJSON *o = cJSON_CreateObject();
  put(o, "id", cJSON_CreateNumber(i), ok);
  put(o, "name", cJSON_CreateString(spart_name_or(nm, sizeof nm, name, kind, i)), ok);
  return o;
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
  return kept(a, ok);
}


/* n rows of 3 numbers, doubles x or (x NULL) integers i, as an array of arrays */
static cJSON *json_rows(const double *x, const int *i, int n) {
  cJSON *a = cJSON_CreateArray();
  int ok = a != NULL;
  for (int k = 0; k < n && ok; k++) {
    if (x) {
      put(a, NULL, json_vec(x + 3 * k, 3), &ok);
    } else {
      cJSON *r = cJSON_CreateIntArray(i + 3 * k, 3);
      put(a, NULL, r, &ok);
    }
  }
  return kept(a, ok);
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
  return kept(T, ok);
}


/* full symmetric 3x3 from xx yy zz xy xz yz */
static cJSON *json_inertia(const double I[6]) {
  const double M[9] = {I[0], I[3], I[4], I[3], I[1], I[5], I[4], I[5], I[2]};
  cJSON *J = cJSON_CreateArray();
  int ok = J != NULL;
  for (int r = 0; r < 3 && ok; r++) {
    put(J, NULL, json_vec(M + 3 * r, 3), &ok);
  }
  return kept(J, ok);
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
  return kept(con, ok);
}


/* "keys": link_id, joint_id, q_id, in id order */
static cJSON *json_keys(const spart_model *m) {
  char nm[32];
  cJSON *keys = cJSON_CreateObject(), *lid = cJSON_CreateObject(), *jid = cJSON_CreateObject();
  cJSON *qid = cJSON_CreateObject();
  int ok = keys && lid && jid && qid;
  for (int i = 0; i < m->nb && ok; i++) {
    put(lid, spart_name_or(nm, sizeof nm, m->body_name[i], 'L', i), cJSON_CreateNumber(i), &ok);
  }
  for (int i = 1; i < m->nb && ok; i++) {
    const char *jn = spart_name_or(nm, sizeof nm, m->jnt_name[i], 'J', i);
    put(jid, jn, cJSON_CreateNumber(i), &ok);
    if (ok && m->jnt_qadr[i] >= 0) {
      put(qid, jn, cJSON_CreateNumber(m->jnt_qadr[i] + 1), &ok);
    }
  }
  if (ok) {
    put(keys, "link_id", lid, &ok);
    put(keys, "joint_id", jid, &ok);
    put(keys, "q_id", qid, &ok);
    return kept(keys, ok);
  }
  cJSON_Delete(keys);
  cJSON_Delete(lid);
  cJSON_Delete(jid);
  cJSON_Delete(qid);
  return NULL;
}


/* whether R, p is the identity transform (a base T that need not be written) */
static int is_identity_T(const double R[9], const double p[3]) {
  for (int k = 0; k < 9; k++) {
    if (R[k] != (k % 4 == 0)) {
      return 0;
    }
  }
  return p[0] == 0 && p[1] == 0 && p[2] == 0;
}


static cJSON *json_link(const spart_model *m, int i) {
  int ok = 1;
  cJSON *l = json_named(i, m->body_name[i], 'L', &ok);
  put(l, "parent_joint", cJSON_CreateNumber(i), &ok);
  put(l, "T", json_T(m->body_rot + 9 * i, m->body_pos + 3 * i), &ok);
  put(l, "mass", json_num(m->body_mass[i]), &ok);
  put(l, "inertia", json_inertia(m->body_inertia + 6 * i), &ok);
  return kept(l, ok);
}


static cJSON *json_joint(const spart_model *m, int i) {
  int ok = 1;
  cJSON *j = json_named(i, m->jnt_name[i], 'J', &ok);
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
  if (spart_joint_pitched(m->jnt_type[i])) { /* metres per revolution (spart-model(5)) */
    put(j, "pitch", json_num(m->jnt_pitch[i]), &ok);
  }
  if (m->jnt_limited[i]) {
    put(j, "limit", json_vec(m->jnt_range + 2 * i, 2), &ok);
  }
  if (m->jnt_effort[i] != 0) {
    put(j, "effort_limit", json_num(m->jnt_effort[i]), &ok);
  }
  if (m->jnt_velocity[i] != 0) {
    put(j, "velocity_limit", json_num(m->jnt_velocity[i]), &ok);
  }
  if (m->jnt_mimic[i]) {
    cJSON *mim = cJSON_CreateObject();
    put(j, "mimic", mim, &ok);
    put(mim, "joint", cJSON_CreateString(m->jnt_mimic[i]), &ok);
    put(mim, "multiplier", json_num(m->jnt_mimic_k[2 * i]), &ok);
    put(mim, "offset", json_num(m->jnt_mimic_k[2 * i + 1]), &ok);
  }
  return kept(j, ok);
}


/* a mesh's state (SPART_MESH_*) in the model JSON */
static const char *const mesh_state[] = {"", "read", "missing", "format"};


/* shape s: {"link", "role", "kind", "name", "T", its sizes; a mesh's file, scale, state and
   bounds} */
static cJSON *json_shape(const spart_model *m, int s) {
  const int kind = m->shape_kind[s];
  const double *sz = m->shape_size + 3 * s;
  cJSON *o = cJSON_CreateObject();
  int ok = o != NULL;
  put(o, "link", cJSON_CreateNumber(m->shape_body[s]), &ok);
  put(o, "role",
      cJSON_CreateString(m->shape_role[s] == SPART_SHAPE_COLLISION ? "collision" : "visual"), &ok);
  put(o, "kind", cJSON_CreateString(spart_shape_kind_name(kind)), &ok);
  if (m->shape_name[s]) {
    put(o, "name", cJSON_CreateString(m->shape_name[s]), &ok);
  }
  put(o, "T", json_T(m->shape_rot + 9 * s, m->shape_pos + 3 * s), &ok);
  if (kind == SPART_SHAPE_BOX) {
    put(o, "size", json_vec(sz, 3), &ok);
  } else if (kind == SPART_SHAPE_SPHERE) {
    put(o, "radius", json_num(sz[0]), &ok);
  } else if (kind != SPART_SHAPE_MESH) {
    put(o, "radius", json_num(sz[0]), &ok);
    put(o, "length", json_num(sz[1]), &ok);
  } else {
    put(o, "file", cJSON_CreateString(m->shape_file[s]), &ok);
    put(o, "scale", json_vec(sz, 3), &ok);
    put(o, "mesh", cJSON_CreateString(mesh_state[m->shape_mesh[s]]), &ok);
    if (m->shape_mesh[s] == SPART_MESH_READ) {
      cJSON *b = cJSON_CreateArray();
      put(o, "bounds", b, &ok);
      put(b, NULL, json_vec(m->shape_bound + 6 * s, 3), &ok);
      put(b, NULL, json_vec(m->shape_bound + 6 * s + 3, 3), &ok);
      put(o, "hull", json_rows(m->hull_vert + 3 * (size_t)m->shape_hull[s], NULL,
                               m->shape_hull[s + 1] - m->shape_hull[s]), &ok);
      put(o, "vertices", json_rows(m->mesh_vert + 3 * (size_t)m->shape_vert[s], NULL,
                                   m->shape_vert[s + 1] - m->shape_vert[s]), &ok);
      put(o, "triangles", json_rows(NULL, m->mesh_tri + 3 * (size_t)m->shape_tri[s],
                                    m->shape_tri[s + 1] - m->shape_tri[s]), &ok);
    }
  }
  return kept(o, ok);
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
  if (m->nv != m->nq) {
    /* a joint with a quaternion: the length of um differs from n_q's (spart-model(5)) */
    put(root, "n_v", cJSON_CreateNumber(m->nv), &ok);
  }
  put(root, "n_links_joints", cJSON_CreateNumber(m->nb - 1), &ok);
  if (m->coupled) {
    /* urdf2robot --mimic: the mimic joints follow their leaders (spart-model(5)) */
    put(root, "mimic_coupled", cJSON_CreateTrue(), &ok);
  }
  if (m->fixed_base) {
    /* the base fixed to the world (a URDF's world link, urdf2robot --fixed-base) */
    put(root, "fixed_base", cJSON_CreateTrue(), &ok);
  }
  if (m->has_gravity) {
    /* urdf2robot --gravity: the gravity the commands use when not given theirs */
    put(root, "gravity", json_vec(m->gravity, 3), &ok);
  }
  put(base, "name", cJSON_CreateString(spart_name_or(nm, sizeof nm, m->body_name[0], 'L', 0)), &ok);
  put(base, "mass", json_num(m->body_mass[0]), &ok);
  put(base, "inertia", json_inertia(m->body_inertia), &ok);
  if (!is_identity_T(m->body_rot, m->body_pos)) { /* the URDF <inertial> origin of the base */
    put(base, "T", json_T(m->body_rot, m->body_pos), &ok);
  }

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
    if (m->nshape > 0) {
      cJSON *shapes = cJSON_CreateArray();
      put(root, "shapes", shapes, &ok);
      for (int k = 0; k < m->nshape && ok; k++) {
        put(shapes, NULL, json_shape(m, k), &ok);
      }
    }
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

/* an object's "name", else the name keys gives to id, else kind followed by the id */
static char *get_name(const cJSON *obj, const char *where, const char *key_name, char kind, int id,
                      spart_err *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, "name");
  char buf[32], *s;
  if (v && !cJSON_IsString(v)) {
    spart_bad_field(err, where, "name", "a string", v);
    return NULL;
  }
  s = strdup(v ? v->valuestring
               : key_name ? key_name : spart_name_or(buf, sizeof buf, NULL, kind, id));
  if (!s) {
    spart_err_set(err, SPART_ENOMEM, 0, "out of memory");
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
  if (spart_get_int(obj, where, key, &id, err)) {
    return -SPART_EDATA;
  }
  if (id != i) {
    return spart_err_set(err, SPART_EDATA, 0, "%s.%s: expected %d, got %d", where, key, i, id);
  }
  return 0;
}


/* the start of links[i - 1] or joints[i - 1] (where): an object whose "id" and id2, when given,
   are i; its name (get_name), or NULL with err filled */
static char *read_named(const cJSON *o, const char *where, const char *id2, int i,
                        const char *kname, char kind, spart_err *err) {
  if (!cJSON_IsObject(o)) {
    spart_bad_field(err, "", where, "an object", o);
    return NULL;
  }
  if (get_id(o, where, "id", i, err) || get_id(o, where, id2, i, err)) {
    return NULL;
  }
  return get_name(o, where, kname, kind, i, err);
}


static int read_link(spart_model *m, const cJSON *l, int i, const char *kname, spart_err *err) {
  char where[32];
  snprintf(where, sizeof where, "links[%d]", i - 1);
  m->body_name[i] = read_named(l, where, "parent_joint", i, kname, 'L', err);
  if (!m->body_name[i] ||
      spart_get_T(l, where, "T", m->body_rot + 9 * i, m->body_pos + 3 * i, err) ||
      spart_get_num(l, where, "mass", m->body_mass + i, err) ||
      spart_get_inertia(l, where, "inertia", m->body_inertia + 6 * i, err)) {
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
    return spart_bad_field(err, where, "mimic", "an object", mim);
  }
  snprintf(w, sizeof w, "%s.mimic", where);
  name = cJSON_GetObjectItemCaseSensitive(mim, "joint");
  if (!cJSON_IsString(name) || !name->valuestring[0]) {
    return spart_bad_field(err, w, "joint", "a joint name", name);
  }
  m->jnt_mimic_k[2 * i] = 1;
  m->jnt_mimic_k[2 * i + 1] = 0;
  if (spart_get_opt(mim, w, "multiplier", 1, m->jnt_mimic_k + 2 * i, err) ||
      spart_get_opt(mim, w, "offset", 1, m->jnt_mimic_k + 2 * i + 1, err)) {
    return -SPART_EDATA;
  }
  m->jnt_mimic[i] = strdup(name->valuestring);
  return m->jnt_mimic[i] ? 0 : spart_err_set(err, SPART_ENOMEM, 0, "out of memory");
}


static int read_joint(spart_model *m, const cJSON *j, int i, const char *kname, spart_err *err) {
  char where[32];
  int qid = 0;
  snprintf(where, sizeof where, "joints[%d]", i - 1);
  m->jnt_name[i] = read_named(j, where, "child_link", i, kname, 'J', err);
  if (!m->jnt_name[i] || spart_get_int(j, where, "type", m->jnt_type + i, err) ||
      spart_get_int(j, where, "q_id", &qid, err) ||
      spart_get_int(j, where, "parent_link", m->body_parent + i, err) ||
      spart_get_vec(j, where, "axis", 3, m->jnt_axis + 3 * i, err) ||
      spart_get_T(j, where, "T", m->jnt_rot + 9 * i, m->jnt_pos + 3 * i, err) ||
      (spart_joint_pitched(m->jnt_type[i]) && spart_get_num(j, where, "pitch", m->jnt_pitch + i,
                                                            err))) { /* m/rev, a helical's */
    return -err->code;
  }
  if (spart_get_opt(j, where, "pitch", 1, m->jnt_pitch + i, err) || /* another kind's: refused */
      spart_get_opt(j, where, "armature", 1, m->jnt_armature + i, err) ||
      spart_get_opt(j, where, "damping", 1, m->jnt_damping + i, err) ||
      spart_get_opt(j, where, "friction", 2, m->jnt_friction + 2 * i, err)) {
    return -SPART_EDATA;
  }
  m->jnt_limited[i] = cJSON_GetObjectItemCaseSensitive(j, "limit") != NULL;
  if (spart_get_opt(j, where, "limit", 2, m->jnt_range + 2 * i, err) ||
      spart_get_opt(j, where, "effort_limit", 1, m->jnt_effort + i, err) ||
      spart_get_opt(j, where, "velocity_limit", 1, m->jnt_velocity + i, err)) {
    return -SPART_EDATA;
  }
  if (read_mimic(m, j, i, where, err)) {
    return -err->code;
  }
  m->jnt_qadr[i] = qid > 0 ? qid - 1 : qid == -1 ? -1 : INT_MIN;
  if (m->jnt_qadr[i] == INT_MIN) {
    return spart_err_set(err, SPART_EDATA, 0, "%s.q_id: expected -1 or a positive integer, got %d",
                         where, qid);
  }
  return 0;
}


/* the rows (n x 3) of the optional array key of a read mesh, doubles into x or integers into i
   (from 0 to below most), allocated: their number, or -1 after filling err */
static int get_rows(const cJSON *o, const char *where, const char *key, double **x, int **i,
                    int most, spart_err *err) {
  const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key), *r;
  const cJSON *list = a && cJSON_IsArray(a) ? a : NULL;
  int n = list ? cJSON_GetArraySize(list) : 0, k = 0, bad = a && !list;
  double v[3], *xv = x ? malloc((size_t)n * 3 * sizeof *xv + 1) : NULL;
  int *iv = x ? NULL : malloc((size_t)n * 3 * sizeof *iv + 1);
  if (!xv && !iv) {
    spart_err_set(err, SPART_ENOMEM, 0, "out of memory");
    return -1;
  }
  cJSON_ArrayForEach(r, list) {
    bad = bad || spart_numbers(r, 3, v);
    for (int c = 0; c < 3 && !bad; c++) {
      if (xv) {
        xv[3 * k + c] = v[c];
      } else {
        bad = !(v[c] >= 0 && v[c] < most && v[c] == (int)v[c]);
        iv[3 * k + c] = bad ? 0 : (int)v[c];
      }
    }
    k++;
  }
  if (bad) {
    char want[64];
    snprintf(want, sizeof want, xv ? "rows of 3 numbers" : "rows of 3 vertex indices below %d",
             most);
    free(xv), free(iv);
    spart_bad_field(err, where, key, want, a);
    return -1;
  }
  if (x) {
    *x = xv;
  } else {
    *i = iv;
  }
  return n;
}


/* a read mesh's "hull", "vertices" and "triangles" (each optional: an older model JSON's mesh
   has none) into the model's mesh arrays */
static int read_mesh_rows(spart_model *m, const cJSON *o, int s, const char *where,
                          spart_err *err) {
  double *h = NULL, *v = NULL;
  int *t = NULL, rc = -SPART_EDATA;
  int nh = get_rows(o, where, "hull", &h, NULL, 0, err);
  int nv = nh < 0 ? -1 : get_rows(o, where, "vertices", &v, NULL, 0, err);
  int nt = nv < 0 ? -1 : get_rows(o, where, "triangles", NULL, &t, nv, err);
  if (nt >= 0) {
    rc = spart_shape_mesh_set(m, s, v, nv, t, nt, h, nh);
    rc = rc ? spart_err_set(err, SPART_ENOMEM, 0, "out of memory") : 0;
  }
  free(h), free(v), free(t);
  return rc;
}


/* "shapes"[s] into shape s */
static int read_shape(spart_model *m, const cJSON *o, int s, spart_err *err) {
  char where[32];
  const cJSON *v;
  double *sz = m->shape_size + 3 * s;
  int kind;
  snprintf(where, sizeof where, "shapes[%d]", s);
  if (!cJSON_IsObject(o)) {
    return spart_bad_field(err, "", where, "an object", o);
  }
  if (spart_get_int(o, where, "link", m->shape_body + s, err)) {
    return -SPART_EDATA;
  }
  v = cJSON_GetObjectItemCaseSensitive(o, "role");
  m->shape_role[s] = !cJSON_IsString(v)                          ? 0
                     : strcmp(v->valuestring, "collision") == 0 ? SPART_SHAPE_COLLISION
                     : strcmp(v->valuestring, "visual") == 0    ? SPART_SHAPE_VISUAL
                                                                : 0;
  if (!m->shape_role[s]) {
    return spart_bad_field(err, where, "role", "\"collision\" or \"visual\"", v);
  }
  v = cJSON_GetObjectItemCaseSensitive(o, "kind");
  kind = cJSON_IsString(v) ? spart_shape_kind_of(v->valuestring) : -1;
  if (kind < 0) {
    return spart_bad_field(err, where, "kind", "box, cylinder, sphere, capsule or mesh", v);
  }
  m->shape_kind[s] = kind;
  v = cJSON_GetObjectItemCaseSensitive(o, "name");
  if (v && !cJSON_IsString(v)) {
    return spart_bad_field(err, where, "name", "a string", v);
  }
  if (v && !(m->shape_name[s] = strdup(v->valuestring))) {
    return spart_err_set(err, SPART_ENOMEM, 0, "out of memory");
  }
  if (spart_get_T(o, where, "T", m->shape_rot + 9 * s, m->shape_pos + 3 * s, err)) {
    return -SPART_EDATA;
  }
  if (kind == SPART_SHAPE_BOX) {
    return spart_get_vec(o, where, "size", 3, sz, err);
  }
  if (kind == SPART_SHAPE_SPHERE) {
    return spart_get_num(o, where, "radius", sz, err);
  }
  if (kind != SPART_SHAPE_MESH) {
    return spart_get_num(o, where, "radius", sz, err) ? -SPART_EDATA
           : spart_get_num(o, where, "length", sz + 1, err);
  }
  v = cJSON_GetObjectItemCaseSensitive(o, "file");
  if (!cJSON_IsString(v) || !v->valuestring[0]) {
    return spart_bad_field(err, where, "file", "a file name", v);
  }
  if (!(m->shape_file[s] = strdup(v->valuestring))) {
    return spart_err_set(err, SPART_ENOMEM, 0, "out of memory");
  }
  if (spart_get_vec(o, where, "scale", 3, sz, err)) {
    return -SPART_EDATA;
  }
  v = cJSON_GetObjectItemCaseSensitive(o, "mesh");
  for (int k = SPART_MESH_READ; k <= SPART_MESH_FORMAT && cJSON_IsString(v); k++) {
    m->shape_mesh[s] = strcmp(v->valuestring, mesh_state[k]) == 0 ? k : m->shape_mesh[s];
  }
  if (!m->shape_mesh[s]) {
    return spart_bad_field(err, where, "mesh", "\"read\", \"missing\" or \"format\"", v);
  }
  if (m->shape_mesh[s] == SPART_MESH_READ) {
    double b[6];
    if (spart_get_mat(o, where, "bounds", 2, 3, b, err)) {
      return -SPART_EDATA;
    }
    memcpy(m->shape_bound + 6 * s, b, sizeof b);
    return read_mesh_rows(m, o, s, where, err);
  } else if (cJSON_GetObjectItemCaseSensitive(o, "bounds")) {
    return spart_err_set(err, SPART_EDATA, 0, "%s.bounds: only a mesh that was read has bounds",
                         where);
  }
  return 0;
}


/* the optional "shapes" array */
static int read_shapes(spart_model *m, const cJSON *obj, spart_err *err) {
  const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, "shapes"), *o;
  int s = 0;
  if (!a) {
    return 0;
  }
  if (!cJSON_IsArray(a)) {
    return spart_bad_field(err, "", "shapes", "an array", a);
  }
  if (spart_model_shapes(m, cJSON_GetArraySize(a))) {
    return spart_err_set(err, SPART_ENOMEM, 0, "out of memory");
  }
  cJSON_ArrayForEach(o, a) {
    if (read_shape(m, o, s, err)) {
      return -err->code;
    }
    if (m->shape_kind[s] != SPART_SHAPE_MESH) {
      spart_shape_box(m->shape_kind[s], m->shape_size + 3 * s, m->shape_bound + 6 * s);
    }
    s++;
  }
  return 0;
}


/* the body of spart_model_json_read, with the model allocated */
static int read_model(spart_model *m, const cJSON *obj, spart_err *err) {
  const int nb = m->nb;
  const char **lnames = calloc((size_t)nb, sizeof *lnames);
  const char **jnames = calloc((size_t)nb, sizeof *jnames);
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, "name"), *l, *j;
  const cJSON *base = cJSON_GetObjectItemCaseSensitive(obj, "base_link");
  int rc = 0, i = 1;

  if (!lnames || !jnames) {
    rc = spart_err_set(err, SPART_ENOMEM, 0, "out of memory");
  } else if (v && !cJSON_IsString(v)) {
    rc = spart_bad_field(err, "", "name", "a string", v);
  } else if (!(m->name = strdup(v ? v->valuestring : ""))) {
    rc = spart_err_set(err, SPART_ENOMEM, 0, "out of memory");
  } else if (!cJSON_IsObject(base)) {
    rc = spart_bad_field(err, "", "base_link", "an object", base);
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
  if (!m->body_name[0] || spart_get_num(base, "base_link", "mass", m->body_mass, err) ||
      spart_get_inertia(base, "base_link", "inertia", m->body_inertia, err) ||
      (cJSON_GetObjectItemCaseSensitive(base, "T") &&
       spart_get_T(base, "base_link", "T", m->body_rot, m->body_pos, err))) {
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
  return rc ? rc : read_shapes(m, obj, err);
}


/* the path at the start of a message from the readers ("links[2].mass: ..."), or where the
   part of the model a check message names ("link 'a': ...", "two joints named 'b'") is; "" if
   none */
void spart_message_path(const char *msg, const spart_model *m, char *path, size_t n) {
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
  q = two                             ? msg + (joint ? 18 : 17)
      : strncmp(msg, "link ", 5) == 0 ? msg + 5
      : joint                         ? msg + 6
                                      : NULL;
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


/* sizes first, then links and joints, then the checks (spart_internal.h) */
spart_model *spart_model_json_read(const cJSON *obj, spart_err *err, char *path, size_t pathlen) {
  const cJSON *links, *joints, *v;
  spart_model *m;
  int n = 0, nq = 0, nv = -1, version = 1;

  /* sizes first, so that nothing is allocated for a bad document */
  v = cJSON_GetObjectItemCaseSensitive(obj, "version");
  if (v && spart_get_int(obj, "", "version", &version, err)) {
    return NULL;
  }
  if (version != 1) {
    spart_err_set(err, SPART_EDATA, 0, "version: expected 1, got %d", version);
    return NULL;
  }
  if (spart_get_int(obj, "", "n_links_joints", &n, err) ||
      spart_get_int(obj, "", "n_q", &nq, err)) {
    return NULL;
  }
  v = cJSON_GetObjectItemCaseSensitive(obj, "n_v");
  if (v && spart_get_int(obj, "", "n_v", &nv, err)) {
    return NULL;
  }
  if (n < 0) {
    spart_err_set(err, SPART_EDATA, 0, "n_links_joints: expected at least 0, got %d", n);
    return NULL;
  }
  links = cJSON_GetObjectItemCaseSensitive(obj, "links");
  joints = cJSON_GetObjectItemCaseSensitive(obj, "joints");
  if (!cJSON_IsArray(links) || cJSON_GetArraySize(links) != n) {
    char want[48];
    snprintf(want, sizeof want, "%d links (n_links_joints)", n);
    spart_bad_field(err, "", "links", want, links);
    return NULL;
  }
  if (!cJSON_IsArray(joints) || cJSON_GetArraySize(joints) != n) {
    char want[48];
    snprintf(want, sizeof want, "%d joints (n_links_joints)", n);
    spart_bad_field(err, "", "joints", want, joints);
    return NULL;
  }

  /* fill and check */
  m = spart_model_new(n + 1);
  if (!m) {
    spart_err_set(err, SPART_ENOMEM, 0, "out of memory");
    return NULL;
  }
  v = cJSON_GetObjectItemCaseSensitive(obj, "mimic_coupled");
  if (v && !cJSON_IsBool(v)) {
    spart_bad_field(err, "", "mimic_coupled", "true or false", v);
    spart_model_free(m);
    return NULL;
  }
  m->coupled = cJSON_IsTrue(v);
  v = cJSON_GetObjectItemCaseSensitive(obj, "fixed_base");
  if (v && !cJSON_IsBool(v)) {
    spart_bad_field(err, "", "fixed_base", "true or false", v);
    spart_model_free(m);
    return NULL;
  }
  m->fixed_base = cJSON_IsTrue(v);
  m->has_gravity = cJSON_GetObjectItemCaseSensitive(obj, "gravity") != NULL;
  if (m->has_gravity && spart_get_vec(obj, "", "gravity", 3, m->gravity, err)) {
    spart_model_free(m);
    return NULL;
  }
  if (read_model(m, obj, err) || spart_model_check(m, err)) {
    spart_message_path(err->msg, m, path, pathlen);
    spart_model_free(m);
    return NULL;
  }
  if (m->nq != nq) {
    spart_err_set(err, SPART_EDATA, 0, "n_q: expected %d (the joints' coordinates), got %d",
                  m->nq, nq);
    spart_model_free(m);
    return NULL;
  }
  if (m->nv != (nv < 0 ? m->nq : nv)) {
    spart_err_set(err, SPART_EDATA, 0, "n_v: expected %d (the joints' degrees of freedom), got %d",
                  m->nv, nv < 0 ? m->nq : nv);
    spart_model_free(m);
    return NULL;
  }
  return m;
}
