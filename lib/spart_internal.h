/* spart_internal.h -- what the library's files share and its users do not see (not installed):
 * filling a spart_err, names for unnamed links and joints, the bias forces spart_aba takes from
 * spart_rnea, the JSON readers' typed fields of a cJSON tree, and the readers under the loader
 * (spart_load.c). */
#ifndef SPART_INTERNAL_H
#define SPART_INTERNAL_H

#include <stddef.h>

#include "spart.h"

struct cJSON;

/* ---- spart_err.c (lib/base) ---- */

/* Fill err (when not NULL) with code, line and the message, control characters as '?' so that
   it is one line; returns -code. */
int spart_err_set(spart_err *err, int code, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* name, or kind ('L' or 'J') followed by i ("L3") in buf (n bytes) when name is NULL */
const char *spart_name_or(char *buf, size_t n, const char *name, char kind, int i);

/* 1 if R (3x3, row-major) is a proper rotation: orthonormal rows to 1e-6, determinant +1
   (spart_attitude.c; the model's and the shapes' frames) */
int spart_is_rotation(const double R[9]);

/* ---- spart_model.c (lib/model) ---- */

/* The model's own numbers, the doubles per body at the start of its one allocation (masses,
   inertias, frames, drive trains, limits: not the joint model's), *n of them (spart_check.c
   makes their -0 0). */
double *spart_model_doubles(spart_model *m, size_t *n);

/* ---- spart_joint.c (lib/model) ---- */

/* spart_joint_retype without the check that follows (spart_check.c's spart_joint_retype): every
   joint of kind from made of kind to and the coordinates renumbered; 0, or -SPART_EDATA for a
   pair of kinds that is not one */
int spart_joint_retype_only(spart_model *m, int from, int to, spart_err *err);

/* ---- spart_shape.c (lib/model) ---- */

/* Free the model's shapes (none left). */
void spart_shapes_free(spart_model *m);

/* Check the model's shapes (bodies in order, kinds, roles, finite numbers, rotations, sizes);
   -0 becomes 0.  0 or -SPART_EDATA with err filled ("shapes[2]: ..."). */
int spart_shapes_check(spart_model *m, spart_err *err);

/* The bounding box (low x y z, high x y z) of a primitive of that kind and size, in its frame
   (zeros for a mesh). */
void spart_shape_box(int kind, const double size[3], double bound[6]);

/* ---- spart_file.c (lib/read) ---- */

/* A whole file read into a malloc'd buffer with a NUL after the len bytes; NULL with err filled
   (SPART_EIO: "cannot open FILE: strerror") on failure.  spart_slurp_fd: the same from the open
   file descriptor fd, read to its end and left open (where: what messages call it). */
char *spart_slurp(const char *path, size_t *len, spart_err *err);
char *spart_slurp_fd(int fd, const char *where, size_t *len, spart_err *err);

/* ---- spart_rnea.c ---- */

/* The forward pass of spart_rnea for one record at zero accelerations (u0dot = 0, umdot = 0):
   the bias forces of spart_aba.  Leaves, as pairs of equal doubles, the joint transforms in
   d->bQ, d->brho (spart_xup's) and each body's force, velocity products, gravity and -wF, in
   d->bf: link i's in F_i at its origin, the base's in its CoM frame. */
void spart_rnea_bias(const spart_model *m, spart_data *d, const double R0[9], const double *qm,
                     const double *u0, const double *um, const double *wF, const double *gravity);

/* ---- typed fields of a cJSON object (spart_cjson.c) ----
   where ("links[2]", "" at the top) and key name the field in messages; each returns 0, or
   -SPART_EDATA with err filled ("links[2].mass: expected a finite number, got a string"). */

/* what a JSON value is, for "expected X, got Y" ("a number", "3x3 numbers"), in buf if need be */
const char *spart_shape(const struct cJSON *v, char *buf, size_t n);

/* the message "where.key: expected EXPECTED, got SHAPE-OF-v" */
int spart_bad_field(spart_err *err, const char *where, const char *key, const char *expected,
                    const struct cJSON *v);

/* a finite number; an integer; n finite numbers of an array v (0 or -1, no message) */
int spart_get_num(const struct cJSON *obj, const char *where, const char *key, double *out,
                  spart_err *err);
int spart_get_int(const struct cJSON *obj, const char *where, const char *key, int *out,
                  spart_err *err);
int spart_numbers(const struct cJSON *v, int n, double *out);

/* n numbers; rows x cols numbers, row-major; an optional field of n numbers (n = 1: a number),
   out left alone when it is absent */
int spart_get_vec(const struct cJSON *obj, const char *where, const char *key, int n, double *out,
                  spart_err *err);
int spart_get_mat(const struct cJSON *obj, const char *where, const char *key, int rows, int cols,
                  double *out, spart_err *err);
int spart_get_opt(const struct cJSON *obj, const char *where, const char *key, int n, double *out,
                  spart_err *err);

/* a homogeneous transform [R p; 0 0 0 1]; a symmetric 3x3 inertia into xx yy zz xy xz yz */
int spart_get_T(const struct cJSON *obj, const char *where, const char *key, double R[9],
                double p[3], spart_err *err);
int spart_get_inertia(const struct cJSON *obj, const char *where, const char *key, double I[6],
                      spart_err *err);

/* ---- the readers of a parsed JSON object (obj is an object, err is not NULL) ---- */

/* the model JSON form (spart_model_json.c); path (pathlen bytes) receives where in the document
   a fault the checks find is ("links[2]"), "" if the message says where */
spart_model *spart_model_json_read(const struct cJSON *obj, spart_err *err, char *path,
                                   size_t pathlen);

/* the path at the start of a reader's message ("links[2].mass: ..."), or where the part of the
   model m (or NULL) a check message names is ("link 'a': ..." is "links[0]"); "" if none
   (spart_model_json.c) */
void spart_message_path(const char *msg, const spart_model *m, char *path, size_t n);

/* a DH description, SPART's ("man") or a Robotics Toolbox table ("dh") (spart_dh_json.c) */
spart_model *spart_dh_json_read(const struct cJSON *obj, spart_err *err);

#endif
