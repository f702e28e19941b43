/* spart_dh_json.c -- the DH reader: SPART's DH structure or a Toolbox table in JSON to a model */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "spart.h"
#include "spart_internal.h"


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
    return spart_bad_field(err, "", where, "an object", obj);
  }
  if ((k = unknown_key(obj, keys))) {
    return spart_err_set(err, SPART_EDATA, 0, "%s: unknown field '%.60s'", where, k);
  }
  return 0;
}


/* an optional number, default dflt */
static int dh_num(const cJSON *obj, const char *where, const char *key, double dflt, double *out,
                  spart_err *err) {
  *out = dflt;
  return spart_get_opt(obj, where, key, 1, out, err);
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
    return spart_get_inertia(obj, where, key, I, err);
  }
  if ((n != 3 && n != 6) || spart_numbers(v, n, w)) {
    return spart_bad_field(err, where, key, "3x3, 3 or 6 numbers", v);
  }
  static const int from[6] = {0, 1, 2, 3, 5, 4}; /* Ixx Iyy Izz Ixy Iyz Ixz to xx yy zz xy xz yz */
  for (int k = 0; k < 6; k++) {
    I[k] = w[from[k]];
  }
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
    if (spart_get_num(obj, where, "Tc", l->Tc, err)) {
      return -SPART_EDATA;
    }
    l->Tc[1] = -l->Tc[0]; /* the Toolbox's symmetric Coulomb friction */
  } else if (spart_get_opt(obj, where, "Tc", 2, l->Tc, err)) {
    return -SPART_EDATA;
  }
  l->limited = cJSON_GetObjectItemCaseSensitive(obj, "qlim") != NULL;
  return spart_get_opt(obj, where, "qlim", 2, l->qlim, err);
}


/* man[i] of SPART's DH structure */
static int dh_spart_link(const cJSON *obj, const char *where, spart_dh_link *l, spart_err *err) {
  static const char *const keys[] = {"type", "DH", "b", "mass", "I", "Jm", "B", "Tc", "G", "qlim",
                                     NULL};
  static const char *const dh_keys[] = {"d", "alpha", "a", "theta", NULL};
  const cJSON *dh = cJSON_GetObjectItemCaseSensitive(obj, "DH");
  char w[48];
  snprintf(w, sizeof w, "%s.DH", where);
  if (dh_object(obj, where, keys, err) || spart_get_int(obj, where, "type", &l->type, err) ||
      dh_object(dh, w, dh_keys, err) || spart_get_num(dh, w, "d", &l->d, err) ||
      spart_get_num(dh, w, "alpha", &l->alpha, err) || spart_get_num(dh, w, "a", &l->a, err) ||
      spart_get_num(dh, w, "theta", &l->theta, err) ||
      spart_get_vec(obj, where, "b", 3, l->com, err) ||
      spart_get_num(obj, where, "mass", &l->mass, err) ||
      spart_get_inertia(obj, where, "I", l->inertia, err)) {
    return -SPART_EDATA;
  }
  if (l->type != SPART_JNT_REVOLUTE && l->type != SPART_JNT_PRISMATIC) {
    return spart_err_set(err, SPART_EDATA, 0,
                         "%s.type: expected 1 (revolute) or 2 (prismatic), got %d", where, l->type);
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
    return spart_bad_field(err, where, "type", "\"revolute\" or \"prismatic\"", type);
  }
  if (type && strcmp(type->valuestring, "prismatic") == 0) {
    l->type = SPART_JNT_PRISMATIC;
  }
  var = l->type == SPART_JNT_REVOLUTE ? "theta" : "d";
  if (cJSON_GetObjectItemCaseSensitive(obj, var)) {
    return spart_err_set(err, SPART_EDATA, 0, "%s.%s: the joint variable of a %s joint: use offset",
                         where, var, l->type == SPART_JNT_REVOLUTE ? "revolute" : "prismatic");
  }
  if (flip && !cJSON_IsBool(flip)) {
    return spart_bad_field(err, where, "flip", "true or false", flip);
  }
  l->flip = cJSON_IsTrue(flip);
  if (dh_num(obj, where, "theta", 0, &l->theta, err) || dh_num(obj, where, "d", 0, &l->d, err) ||
      dh_num(obj, where, "a", 0, &l->a, err) || dh_num(obj, where, "alpha", 0, &l->alpha, err) ||
      dh_num(obj, where, "offset", 0, &l->offset, err) ||
      dh_num(obj, where, "m", 0, &l->mass, err) || spart_get_opt(obj, where, "r", 3, l->com, err) ||
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
        spart_get_T(base, "base", "T", dh->base_R, dh->base_p, err)) {
      return -SPART_EDATA;
    }
    return dh_num(base, "base", "mass", 0, &dh->base_mass, err) ||
                   dh_inertia(base, "base", "I", dh->base_inertia, err)
               ? -SPART_EDATA
               : 0;
  }
  return spart_get_T(base, "base", "T_L0_J1", dh->base_R, dh->base_p, err) ||
                 spart_get_num(base, "base", "mass", &dh->base_mass, err) ||
                 spart_get_inertia(base, "base", "I", dh->base_inertia, err)
             ? -SPART_EDATA
             : 0;
}


/* the description (obj has "man" or "dh"), then the model */
spart_model *spart_dh_json_read(const cJSON *obj, spart_err *err) {
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
    spart_err_set(err, SPART_EDATA, 0, "unknown field '%.60s' in a %s", k,
                  toolbox ? "Toolbox DH table" : "SPART DH structure");
    return NULL;
  }
  dh.convention = SPART_DH_SPART;
  if (toolbox) {
    if (!cJSON_IsString(conv) || (strcmp(conv->valuestring, "standard") != 0 &&
                                  strcmp(conv->valuestring, "modified") != 0)) {
      spart_bad_field(err, "", "dh", "\"standard\" or \"modified\"", conv);
      return NULL;
    }
    dh.convention = conv->valuestring[0] == 's' ? SPART_DH_STANDARD : SPART_DH_MODIFIED;
  }
  if (name && !cJSON_IsString(name)) {
    spart_bad_field(err, "", "name", "a string", name);
    return NULL;
  }
  dh.name = name ? name->valuestring : NULL;
  links = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!cJSON_IsArray(links) || cJSON_GetArraySize(links) < 1) {
    spart_bad_field(err, "", key, "an array of at least one link", links);
    return NULL;
  }
  n = cJSON_GetArraySize(links);
  if (!toolbox && spart_get_int(obj, "", "n", &dh.n, err)) {
    return NULL;
  }
  if (!toolbox && dh.n != n) {
    spart_err_set(err, SPART_EDATA, 0, "n: expected %d (the links of man), got %d", n, dh.n);
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
    spart_err_set(err, SPART_ENOMEM, 0, "out of memory");
    return NULL;
  }
  rc = 0;
  cJSON_ArrayForEach(l, links) {
    char where[32];
    snprintf(where, sizeof where, "%s[%d]", key, i);
    rc =
        toolbox ? dh_toolbox_link(l, where, link + i, err) : dh_spart_link(l, where, link + i, err);
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
