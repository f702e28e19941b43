/* spart_cjson.c -- typed fields of a cJSON object for the JSON readers, faults named by field */
#include <limits.h>
#include <math.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "spart.h"
#include "spart_internal.h"


/* what a JSON value is, for "expected X, got Y" */
const char *spart_shape(const cJSON *v, char *buf, size_t n) {
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


int spart_bad_field(spart_err *err, const char *where, const char *key, const char *expected,
                    const cJSON *v) {
  char buf[64];
  return spart_err_set(err, SPART_EDATA, 0, "%s%s%s: expected %s, got %s", where, *where ? "." : "",
                       key, expected, spart_shape(v, buf, sizeof buf));
}


int spart_get_num(const cJSON *obj, const char *where, const char *key, double *out,
                  spart_err *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble)) {
    return spart_bad_field(err, where, key, "a finite number", v);
  }
  *out = v->valuedouble;
  return 0;
}


int spart_get_int(const cJSON *obj, const char *where, const char *key, int *out, spart_err *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  double d = cJSON_IsNumber(v) ? v->valuedouble : 0.5;
  if (!(d >= INT_MIN && d <= INT_MAX && d == floor(d))) {
    return spart_bad_field(err, where, key, "an integer", v);
  }
  *out = (int)d;
  return 0;
}


/* n finite numbers from a JSON array; 0 or -1 */
int spart_numbers(const cJSON *v, int n, double *out) {
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


int spart_get_vec(const cJSON *obj, const char *where, const char *key, int n, double *out,
                  spart_err *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (spart_numbers(v, n, out)) {
    char want[32];
    snprintf(want, sizeof want, "%d numbers", n);
    return spart_bad_field(err, where, key, want, v);
  }
  return 0;
}


/* rows x cols numbers, row-major */
int spart_get_mat(const cJSON *obj, const char *where, const char *key, int rows, int cols,
                  double *out, spart_err *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  int i = 0, bad = !cJSON_IsArray(v) || cJSON_GetArraySize(v) != rows;
  if (!bad) {
    const cJSON *r;
    cJSON_ArrayForEach(r, v) {
      bad = bad || spart_numbers(r, cols, out + cols * i++);
    }
  }
  if (bad) {
    char want[32];
    snprintf(want, sizeof want, "%dx%d numbers", rows, cols);
    return spart_bad_field(err, where, key, want, v);
  }
  return 0;
}


/* an optional field of n numbers (n = 1: a number); out is left alone when it is absent */
int spart_get_opt(const cJSON *obj, const char *where, const char *key, int n, double *out,
                  spart_err *err) {
  if (!cJSON_GetObjectItemCaseSensitive(obj, key)) {
    return 0;
  }
  return n == 1 ? spart_get_num(obj, where, key, out, err)
                : spart_get_vec(obj, where, key, n, out, err);
}


/* a homogeneous transform [R p; 0 0 0 1] */
int spart_get_T(const cJSON *obj, const char *where, const char *key, double R[9], double p[3],
                spart_err *err) {
  double T[16];
  if (spart_get_mat(obj, where, key, 4, 4, T, err)) {
    return -SPART_EDATA;
  }
  if (T[12] != 0 || T[13] != 0 || T[14] != 0 || T[15] != 1) {
    return spart_err_set(err, SPART_EDATA, 0, "%s.%s: last row must be 0 0 0 1", where, key);
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
int spart_get_inertia(const cJSON *obj, const char *where, const char *key, double I[6],
                      spart_err *err) {
  double M[9];
  if (spart_get_mat(obj, where, key, 3, 3, M, err)) {
    return -SPART_EDATA;
  }
  if (M[1] != M[3] || M[2] != M[6] || M[5] != M[7]) {
    return spart_err_set(err, SPART_EDATA, 0, "%s.%s: not symmetric", where, key);
  }
  static const int from[6] = {0, 4, 8, 1, 2, 5}; /* xx yy zz xy xz yz of the row-major 3x3 */
  for (int k = 0; k < 6; k++) {
    I[k] = M[from[k]];
  }
  return 0;
}
