/* spart_internal.h -- what the library's files share and its users do not see (not installed):
 * filling a spart_err, names for unnamed links and joints, the library's own arrays in
 * spart_data (struct spart_own) and the layouts of its joint constants (SPART_JC, SPART_JP),
 * the calls between the library's files that are no part of its interface (the loader's
 * readers and meshes, the URDF reader's XML text and tree, the simulation's parts, the joints'
 * local rates), the bias forces spart_aba takes from spart_rnea, the JSON readers' typed fields
 * of a cJSON tree.
 * spart-codegen's generator (src/codegen/) and the unit drivers that look at the joint constants
 * include it too. */
#ifndef SPART_INTERNAL_H
#define SPART_INTERNAL_H

#include <stddef.h>

#include "spart.h"
#include "spart_sim.h"
#include "spart_text.h"

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

/* ---- spart_ground.c (lib/sim) ---- */

/* Sphere j's point the furthest into the ground at the state spart_fk left, p (3, from r0 like
   d->xpos): its centre less its radius along the normal; returns its depth (> 0: in the ground,
   where spart_ground_forces pushes on it). */
double spart_ground_point(const spart_model *m, const spart_data *d, const spart_ground *g, int j,
                          double p[3]);

/* sphere j's contact with the ground (spart_ground_contact) */
typedef struct spart_ground_at {
  double x[3];    /* its point the furthest into the ground, from r0 (spart_ground_point) */
  double p[3];    /* the same from its body's CoM */
  double f[3];    /* the force on it (0 when apart) */
  double rate[3]; /* its deflection's rate (SPART_GROUND_STICK; 0 when apart) */
  int slide;      /* 1 when it slides (SPART_GROUND_STICK): the rate relaxes the deflection at
                     kt / ct */
  double C[9];    /* -d f / d v (3x3, row-major), v its material point's velocity, the depth
                     and the deflection held: its dampers (the normal one while it pushes, the
                     friction's along the plane, and while sliding the friction's size mu fn
                     with the normal velocity: not symmetric then) */
} spart_ground_at;

/* Sphere j's contact at the state spart_fk and spart_velocity left, its deflection defl + 3 j
   (defl NULL: 0), by spart_ground_forces' law into at; returns 1 when it is in the ground (its
   seen flag then set), else 0 (at's f, rate, C 0). */
int spart_ground_contact(const spart_model *m, const spart_data *d, const spart_ground *g, int j,
                         const double *defl, spart_ground_at *at);

/* ---- spart_stability.c (lib/sim) ---- */

/* Free spart_sim_rk4_limit's scratch; NULL is allowed. */
struct spart_stab;
void spart_stab_free(struct spart_stab *w);

/* ---- spart_shape.c (lib/model) ---- */

/* Free the model's shapes (none left). */
void spart_shapes_free(spart_model *m);

/* Check the model's shapes (bodies in order, kinds, roles, finite numbers, rotations, sizes);
   -0 becomes 0.  0 or -SPART_EDATA with err filled ("shapes[2]: ..."). */
int spart_shapes_check(spart_model *m, spart_err *err);

/* The bounding box (low x y z, high x y z) of a primitive of that kind and size, in its frame
   (zeros for a mesh). */
void spart_shape_box(int kind, const double size[3], double bound[6]);

/* Whether shape s is a point: a sphere of radius 0 (Drake's point contacts), of no volume. */
int spart_shape_point(const spart_model *m, int s);

/* ---- spart_file.c (lib/read) ---- */

/* A whole file read into a malloc'd buffer with a NUL after the len bytes; NULL with err filled
   (SPART_EIO: "cannot open FILE: strerror") on failure.  spart_slurp_fd: the same from the open
   file descriptor fd, read to its end and left open (where: what messages call it). */
char *spart_slurp(const char *path, size_t *len, spart_err *err);
char *spart_slurp_fd(int fd, const char *where, size_t *len, spart_err *err);

/* the file a mesh filename names, malloc'd (NULL when out of memory, *none when it names none
   that exists): package://NAME/PATH in each package directory (DIR/NAME/PATH, or DIR/PATH when
   DIR ends in NAME), file://PATH, a relative name in the URDF's directory (o's packages and dir;
   o NULL: no packages, the current directory) */
char *spart_mesh_file(const spart_urdf_opts *o, const char *file, int *none);

/* ---- the XML text that libxml2 is not asked about (spart_xml_text.c, lib/read): the URDF
   reader's (spart_urdf.c) ---- */

/* libxml2 2.9 checks each attribute of an element against all the ones before it: 200,000
   attributes (a 2 MB file) take minutes.  No URDF element has more than a dozen. */
#define SPART_XML_MAX_ATTRIBUTES 1000

/* the line of the first start tag with more than SPART_XML_MAX_ATTRIBUTES attributes (counted
   as '=' outside quotes), or 0; comments, CDATA, processing instructions and declarations are
   skipped */
int spart_xml_crowded_tag(const char *buf, size_t len);

/* libxml2 refuses an XML declaration with a version other than 1.x ("unsupported version
   '0.0'": PyBullet's URDF exporter writes that) or none; urdfdom and PyBullet (TinyXML2) do not
   look at it.  *copy = the document with the declaration's version made "1.0" (its line breaks
   kept, so that lines stay), malloc'd, or NULL when the document is fine as it is; -1 when out
   of memory. */
int spart_xml_version(const char *buf, size_t len, char **copy, size_t *copy_len);

/* exactly n numbers of xs:double's decimal grammar separated by XML white space, finite as
   doubles; 0, -1 (not that) or -2 (INF, NaN or beyond the range of a double) */
int spart_xml_doubles(const char *s, double *v, int n);

/* ---- a URDF's tree on file indices (spart_urdf_tree.c, lib/read): the URDF reader's ---- */

/* a name and its file index, sorted for lookups */
typedef struct spart_named {
  const char *name;
  int idx;
} spart_named;

/* sort (name, index) pairs, a name's by index; the index of a name given twice at its second
   place (the first such place in the file), or -1 */
int spart_names_sort(spart_named *v, int n);

/* file index of the name in v (n, sorted), or -1 */
int spart_names_find(const spart_named *v, int n, const char *name);

/* SPART's numbering of a tree of nl links and nj joints, joint j from link parent[j] to link
   child[j] (file indices, each link the child of one joint at most): depth-first pre-order from
   the link root, children in joint file order.  jid (nj): joint j's id, and its child link's,
   1.. in that order; 0 for a joint not reached from the root.  0, or -SPART_ENOMEM. */
int spart_urdf_number(int nl, int nj, const int *parent, const int *child, int root, int *jid);

/* ---- spart_rnea_pair.c ---- */

/* The forward pass of spart_rnea for one record at zero accelerations (u0dot = 0, umdot = 0;
   u0 = 0 too with fixed_base): the bias forces of spart_aba.  Leaves, as pairs of equal
   doubles, the joint transforms in bQ, brho of d->own_ (spart_xup's) and each body's force,
   velocity products, gravity and -wF, in its bf: link i's in F_i at its origin, the base's in
   its CoM frame. */
void spart_rnea_bias(const spart_model *m, spart_data *d, const spart_state *s, int fixed_base,
                     const double *gravity);

/* ---- spart_aba_fast.c ---- */

/* The scale spart's singularity test (spu_pivot_ok) compares each degree of freedom's pivot
   with: what it moves, in its units.  scale: 6 + nq, in the order of u = [u0; um]: a rotation
   of the base (0..2), the trace of the whole robot's rotational inertia about the base CoM; a
   translation (3..5), the robot's mass; a revolute joint, the trace of the rotational inertia of
   its subtree about the joint, and a prismatic joint the subtree's mass, each plus the joint's
   armature.  Invariant, with the pivots, under any scaling of lengths or masses.  Needs
   spart_xup; overwrites d->f. */
void spart_dof_scale(const spart_model *m, spart_data *d, double *scale);

/* ---- the reference recursions (spart_rnea.c, spart_crba.c, spart_aba.c) ----
   RNEA, CRBA and ABA as RBDA states them, one lane, 6x6 matrices, no kind or layout
   specialised: where to read an algorithm.  The library's entry points (spart_rnea,
   spart_crba, spart_aba) run the fast paths (spart_rnea_pair.c, spart_crba_fast.c,
   spart_aba_fast.c); tests/unit/test_recursions.c holds each equal to its reference.  Same
   arguments and results as the entry point's; the parts of d each overwrites are said above
   it, and each leaves spart_xup's joint transforms. */
void spart_rnea_ref(const spart_model *m, spart_data *d, const spart_state *s,
                    const double *gravity, double *tau);
void spart_crba_ref(const spart_model *m, spart_data *d, const spart_state *s, int fixed_base,
                    double *H);
int spart_aba_ref(const spart_model *m, spart_data *d, const spart_state *s, int fixed_base,
                  const double *gravity, double *udot);

/* Their common parts: the external wrench fx (6) of body i, wF's (nb x 6, inertial frame, at
   the CoMs; NULL: none) row i in F_i at its origin (needs spart_fk); the spatial inertia I
   (6x6) of body i about F_i's origin in F_i (the base's about its CoM). */
void spart_ref_wrench(const spart_data *d, int i, const double *wF, double fx[6]);
void spart_ref_inertia(const spart_model *m, const spart_data *d, int i, double I[36]);

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

/* ---- the joint constants in spart_data (spart_joint.c, lib/model; spart_data.c allocates
   them, spart_fk, spart_xup, spart_rnea, spart_crba and spart-codegen read them) ---- */

/* doubles of joint constants a body (spart_joint_constants): the joint frame F_i of spart_fk,
   spart_xup, spart_rnea and spart_crba in its parent's at q = 0, and link i in F_i; for the base
   (body 0) F_0 is its CoM frame: T, r unused, c = 0, CR = 1, Ic its own inertia */
#define SPART_JC 46
enum {
  SPART_JC_T = 0,                 /* F_i in F_p at q = 0 (9) */
  SPART_JC_R = SPART_JC_T + 9,    /* F_i's origin in F_p at q = 0 (3): the joint's position */
  SPART_JC_C = SPART_JC_R + 3,    /* link i's CoM in F_i (3) */
  SPART_JC_IC = SPART_JC_C + 3,   /* its rotational inertia about the CoM, F_i's axes (6) */
  SPART_JC_IO = SPART_JC_IC + 6,  /* its compact inertia about F_i's origin (10) */
  SPART_JC_CR = SPART_JC_IO + 10, /* its link frame in F_i (9) */
  SPART_JC_AX = SPART_JC_CR + 9,  /* the joint's axis (jnt_axis) in F_i (3): e_z for a joint that
                                     moves, the model's axis for a fixed one */
  SPART_JC_CRP = SPART_JC_AX + 3  /* CR as a signed permutation, when it is one (most URDFs'):
                                     column j of CR is sign(x) e_(|x| - 1), x the number j of 3;
                                     0 when CR is not one */
};

/* spart_rnea_pair's constants a body (jp of struct spart_own), each a pair of equal doubles: T,
   r and the CoM (from SPART_JC_T), its rotational inertia (the base's own), the mass and the
   armature */
enum {
  SPART_JP_T = 0,
  SPART_JP_R = 9,
  SPART_JP_C = 12,
  SPART_JP_IC = 15,
  SPART_JP_M = 21,
  SPART_JP_ARM = 22,
  SPART_JP = 23
};

/* The library's own arrays in spart_data (d->own_; spart_data_new carves them from its one
   buffer): the model's joint constants, spart_aba's articulated bodies, spart_rnea_pair's two
   records at once, spart_cim's scratch.  No part of the interface: spart.h declares the type
   and nothing of it. */
struct spart_own {
  double *jc; /* (nb x SPART_JC) the joint constants of the model, set by spart_data_new */
  double *jp; /* (nb x SPART_JP x 2) some of them as pairs, for spart_rnea_pair (aligned) */
  double *IA; /* (nb x 36) articulated inertias about F_i's origin, in F_i (spart_aba) */
  double *pA; /* (nb x 6) articulated bias forces, in F_i */
  double *U;  /* (nv x 6) IA * S, a degree of freedom, in F_i */
  double *D;  /* (nv) S' * IA * S */
  double *u;  /* (nv) tau - S' * pA */
  /* two records at once, each number a pair, the records' values side by side (aligned) */
  double *bQ;   /* (nb x 9 x 2) F_i in F_p; [0] unused */
  double *brho; /* (nb x 3 x 2) F_i's origin in F_p */
  double *bv;   /* (nb x 6 x 2) spatial velocity [omega; v] at F_i's origin */
  double *ba;   /* (nb x 6 x 2) spatial acceleration (gravity as a base acceleration) */
  double *bf;   /* (nb x 6 x 2) force [n; f] */
  double *bR;   /* (nb x 9 x 2) F_i in the inertial frame, when wrenches are given */
  double *xS0;  /* (nv x 6) pm referred to the base CoM (spart_cim) */
  double *mark; /* (nb) scratch: spart_cim's subtree */
  double *fdw;  /* (nv, and spart_mimic_fd_work(m) more with coupled mimic joints) scratch of
                   spart_forward_dynamics: the joint forces less the friction, spart_mimic_fd's */
  double *dw;   /* (SPART_DERIV_WORK) scratch of spart_rnea_derivatives, spart_fd_derivatives */
  void *buf;    /* the one buffer every array of spart_data is carved from */
};

/* The constants spart_fk, spart_xup, spart_rnea and spart_crba need for each joint (jc, jp of
   d->own_), computed once from the model. */
void spart_joint_constants(const spart_model *m, spart_data *d);

/* The bodies of a model's dynamics with each body on a fixed joint merged into the nearest
   body above it on a moving joint, or the base (spart_mass.c): per body (nb x SPART_CJ, from
   the joint constants jc of d), its joint's constant transform T, r in the frame of its
   dynamics' parent, and the merged mass, CoM c, inertia Ic about it and compact inertia IO
   about its origin; cpar (nb) that parent, -1 for a merged body (and the base).  Exact: a
   fixed joint moves nothing, so its body's inertia moves with the one it is merged into (IO
   by spu_inertparent_add), and its children's joints are composed with its transform.
   spart-codegen's dynamics take these.  0, or -1 out of memory. */
enum {
  SPART_CJ_T = 0,   /* the joint's T (9) and r (3) in the dynamics' parent's frame */
  SPART_CJ_R = 9,
  SPART_CJ_C = 12,  /* the merged body's CoM (3), rotational inertia about it (6), compact */
  SPART_CJ_IC = 15, /* inertia about its origin (10) and mass, in its frame */
  SPART_CJ_IO = 21,
  SPART_CJ_M = 31,
  SPART_CJ = 32
};
int spart_merge_fixed(const spart_model *m, const spart_data *d, double *cj, int *cpar);

/* ---- the JSON scanner's, for the loader (spart_json.c, lib/base) ---- */

/* Where the scanner is, as "links[2].mass" (keys and array indices from 0), into buf. */
const char *spart_json_path(const spart_json *j, char *buf, size_t n);

/* Check that s is one JSON value and nothing more; 0, or -SPART_EDATA (-SPART_ENOMEM) with err
   filled, err->line the line of the first fault. */
int spart_json_check(const char *s, size_t len, long line, spart_err *err);

/* The line of the value at path ("links[2].mass", as in messages) in the JSON text s, or of the
   deepest part of the path that is there; 0 if s is not JSON. */
long spart_json_line_of(const char *s, size_t len, long line, const char *path);

/* ---- calls between the library's files, no part of its interface ---- */

/* The maps of the couplings (nqc, nvc, jnt_qadrc, jnt_vadrc, jnt_couple) for m->coupled, as
   spart_model_check calls it; 0 or -SPART_EDATA with err filled. */
int spart_mimic_setup(spart_model *m, spart_err *err);

/* A triangle mesh (spart_mesh.c): vertices (nvert x 3) and triangles (ntri x 3 vertex indices,
   counter-clockwise seen from outside for a closed mesh). */
typedef struct spart_mesh {
  int nvert, ntri;
  double *vert;
  int *tri;
} spart_mesh;

/* Read a mesh file through Assimp (STL, OBJ, COLLADA, ...: spart_mesh_format says which) into
   mesh, every node's transform applied (a COLLADA <unit> too, not its up axis), equal corners
   merged into one vertex.  0; -SPART_EIO when the file cannot be opened (err says so);
   -SPART_EDATA when Assimp does not read it or it holds no triangles (err without the file's
   name); or -SPART_ENOMEM.  spart_mesh_format: 1 when a file of that name's extension is one
   Assimp reads, 0 when not, -SPART_ENOMEM when Assimp could not say. */
int spart_mesh_read(const char *path, spart_mesh *mesh, spart_err *err);
int spart_mesh_format(const char *name);
void spart_mesh_free(spart_mesh *mesh);

/* The vertices of the convex hull of the n points p (n x 3), each once, in the order of p: their
   indices into out (room for n), their number; or -SPART_ENOMEM (spart_hull.c).  A point within
   1e-7 of the points' extent of the hull of the others is not one of them, nor a point inside a
   face or an edge of the hull (a cube's hull is its 8 corners, however finely its faces are
   cut); a flat set (within that tolerance of a plane) gives its polygon's corners, a line its two
   ends, equal points one.  Every point lies within 1e-6 of the extent of the corners' hull, each
   corner no nearer than that inside the hull of the others (tests/unit/test_hull.c checks both;
   a point within the tolerance of a face's plane is added when farther than it from the faces,
   as beyond the rim of a near-flat set's thin hull).  The hull is always closed (exact signs):
   no fallback. */
int spart_hull(const double *p, int n, int *out);

/* The triangles of the convex hull of the n points p (n x 3) that spart_hull starts from (each
   point farther than its tolerance outside added; before its corners are picked): each three
   indices into p, counter-clockwise seen from outside, into *tri (malloc'd; the caller frees
   it), their number (2 V - 4 of V vertices); 0 (and *tri NULL) for fewer than 4 points or a flat
   set; -SPART_ENOMEM (spart_hull.c; for tests/unit/test_hull.c). */
int spart_hull_tri(const double *p, int n, int **tri);

/* Two directed edges, each two ints (a, b), in order of a then b: qsort's and bsearch's
   comparison (spart_hull.c; spart_geometry.c's closed-mesh check). */
int spart_edge_cmp(const void *x, const void *y);

/* The triangles (ntri x 3 indices into vert, nvert x 3) of a mesh, at most most of them, for a
   picture: each its three corners (9 doubles, in the order of its vertices) into out (room for
   most x 9), their number.  All of them when they fit; else the mesh decimated by vertex
   clustering (spart_decimate.c): its vertices snapped to the finest cubic grid whose triangles
   fit (each cell's vertices to their mean; a triangle left with fewer than three cells, or of
   no area, dropped; each left once), a grid of at most 256 cells along its largest extent.
   Deterministic.  -1 when none fits, -SPART_ENOMEM. */
int spart_decimate(const double *vert, int nvert, const int *tri, int ntri, int most,
                   double *out);

/* Mesh s's vertices (nvert x 3, in its frame, times its scale), triangles (ntri x 3, indices
   into those vertices) and the vertices of its convex hull (nhull x 3) into the model's mesh
   arrays (spart_shape.c); meshes are given in shape order, each once.  0 or -SPART_ENOMEM. */
int spart_shape_mesh_set(spart_model *m, int s, const double *vert, int nvert, const int *tri,
                         int ntri, const double *hull, int nhull);

/* Mesh shape s read (mesh, in its file's units) into the model's mesh arrays: its vertices
   times the shape's scale (shape_size), its triangles (turned back under a mirroring scale),
   its hull's vertices (spart_hull); in shape order, as spart_shape_mesh_set.  0 or
   -SPART_ENOMEM. */
int spart_shape_mesh_put(spart_model *m, int s, const spart_mesh *mesh);

/* The bounding box of a mesh times scale (3) in its frame, as spart_shape_box's of a primitive
   (spart_shape.c); bound left alone when the mesh has no vertices. */
void spart_mesh_box(const spart_mesh *mesh, const double scale[3], double bound[6]);

/* Mass properties at unit density (spart_geometry.c), in the shape's frame: the volume, the
   centroid c (3) and the inertia about it (6: xx yy zz xy xz yz; times a density, a mass's).
   spart_primitive_volume: a box, cylinder, sphere or capsule of spart_model's shape_size by
   their closed forms, 0 or -SPART_EDATA for another kind.  spart_mesh_volume: a closed mesh
   times scale (3), by the signed tetrahedra of its triangles with the origin (a scale of
   negative determinant mirrors the mesh, and the winding with it); 0 or -SPART_EDATA when its
   volume is not positive (the triangles face inwards).
   spart_mesh_closed: 1 when every edge is shared by exactly two triangles that agree on their
   orientation, 0 if not, -SPART_ENOMEM. */
int spart_primitive_volume(int kind, const double size[3], double *vol, double c[3],
                           double I[6]);
int spart_mesh_volume(const spart_mesh *mesh, const double scale[3], double *vol, double c[3],
                      double I[6]);
int spart_mesh_closed(const spart_mesh *mesh);

/* Klampt's automass for body i: its collision shapes (meshes[s] the mesh of each mesh shape s,
   read; NULL when it has none) at one uniform density, mass / their volume when mass >= 0,
   else density (> 0), give its mass, CoM (body_pos, in its URDF link frame, body_rot the
   identity: the CoM frame has the link frame's axes) and inertia about the CoM, by the
   parallel-axis theorem.  0, or -SPART_EDATA with err filled (no collision shapes, a mesh not
   read, open or inside out, no mass and no density) or -SPART_ENOMEM. */
int spart_automass(spart_model *m, int i, const spart_mesh *meshes, double mass,
                   double density, spart_err *err);

/* Forward dynamics of the coupled system (spart_mimic_fd.c), as spart_aba's with the tree's
   state (qm nq, um nv, forces taum nv: spart_mimic_lift of the system's) and the tree's udot
   (6 + nv) out, its umdot K ucdot: K' H K ucdot = K' ([tau0; taum] - c(q, u)) by spart_crba,
   spart_rnea and Cholesky (each pivot against its diagonal entry), its scratch the
   spart_mimic_fd_work(m) doubles (spart_mimic.c) of d's fdw after its first nv.  Returns 0 or
   -SPART_ENUM when K' H K is singular (d->warn_body the body of the pivot). */
size_t spart_mimic_fd_work(const spart_model *m);

/* The doubles of d->own_->dw (spart_derivatives.c): spart_rnea_derivatives' vectors, 72 a
   body and 84 a column (6 + nv), then three (6 + nv)^2 matrices and 6 + nv more */
#define SPART_DERIV_BODY 72
#define SPART_DERIV_COLUMN 84
#define SPART_DERIV_WORK(nb, nv)                                                           \
  ((size_t)(nb)*SPART_DERIV_BODY + (6 + (size_t)(nv)) * (SPART_DERIV_COLUMN + 1) +          \
   3 * (6 + (size_t)(nv)) * (6 + (size_t)(nv)))
int spart_mimic_fd(const spart_model *m, spart_data *d, const spart_state *s, int fixed_base,
                   const double *gravity, double *udot);

/* The forces at time t and the state x (with z, the world's own state, spart_scene_nstate):
   x's held ones, taum (nv) and wF (nb x 6, neither NULL), with the controller's joint forces
   and the ground's wrenches added, in the world's scratch, x->taum and x->wF then pointing to
   them (each left when the world adds nothing to it); zdot the rate of z.  0, or -SPART_ENUM
   from spart_control_torque. */
int spart_scene_forces(const spart_model *m, spart_data *d, spart_scene *w, double t,
                       spart_state *x, const double *z, double *zdot, spart_err *err);

/* The number of state variables the world integrates with the model's state (a stick-slip
   ground's deflections, spart_ground_nstate), 0 for NULL. */
int spart_scene_nstate(const spart_scene *w);

/* The world's state z after a step to the state x: a ground's deflections of the spheres out
   of the ground set to 0 (spart_ground_release). */
void spart_scene_release(const spart_model *m, spart_data *d, const spart_scene *w,
                         const spart_state *x, double *z);

/* Add the controller's joint forces at time t and the state x (its R0, qm, u0, um) to taum
   (nv): with e the error of the joints' configuration (spart_joint_difference of the state to
   the reference, as a velocity: spart_joint_v_of_local) and edot = um_ref - um, the gravity
   compensation g is the joint forces of inverse dynamics with the base held still, at rest
   (spart_rnea at um = 0, umdot = 0); pd: g + Kp e + Kd edot; ctc: the inverse dynamics of the
   state at umdot_ref + Kp e + Kd edot, the fixed base's (spart_rnea) or the floating base's
   (spart_floating_id, tau0 = 0), with the model's friction (spart_friction) when flags has
   SPART_FD_FRICTION; gravity: g.  The external forces are not in the model inverted.  Each
   force is clipped to its joint's effort limit (jnt_effort, when not 0) before it is added.
   0, or -SPART_ENUM (a singular base inertia, spart_floating_id) with err filled. */
int spart_control_torque(const spart_model *m, spart_data *d, spart_control *c, double t,
                         const spart_state *x, double *taum, spart_err *err);

/* Add the controller's damping, -d taum / d um at its last evaluation (spart_control_torque),
   to D (n x n, row-major, the joints' block at row and column off): PD's Kd on the diagonal;
   computed torque's Hs Kd, Hs the joints' inertia with the base free, Hmm - Hm0 H00^-1 H0m
   (Hmm with off 0), H the mass matrix (n x n, spart_crba's); a force clipped to its effort
   limit none. */
void spart_control_damping(const spart_model *m, const spart_control *c, const double *H, int n,
                           int off, double *D);

/* The edges of a contact's friction cone, the polyhedral cone inscribed in the circular one:
   e_j = n + mu (cos(2 pi j / edges) t1 + sin(2 pi j / edges) t2), j = 0..edges-1, t1 = n x a
   (normalised), a the coordinate axis least along n (the first of equals), t2 = n x t1; n alone
   when mu = 0.  e: 3 x edges (3 <= edges <= SPART_CONTACT_MAXEDGES).  Returns their number. */
int spart_cone_edges(const spart_contact *c, int edges, double *e);

/* Give model m room for nshape shapes (spart_model.nshape and its arrays, zeroed but the
   rotations, identity; names NULL), replacing any it had.  0 or -SPART_ENOMEM. */
int spart_model_shapes(spart_model *m, int nshape);

/* The kind of a shape kind's name (spart_shape_kind_name's), or -1. */
int spart_shape_kind_of(const char *name);

/* The shapes of body i whose role is in roles (SPART_SHAPE_COLLISION, SPART_SHAPE_VISUAL or
   both or'ed): their indices, in the model's order, in idx[0..most) (idx may be NULL when most
   is 0).  Returns how many there are (more than most when idx had no room for all). */
int spart_link_shapes(const spart_model *m, int i, int roles, int *idx, int most);

/* the number of joint kinds (types 0 .. spart_joint_kinds() - 1) */
int spart_joint_kinds(void);

/* a double uniform in [0, 1): 53 random bits (spu_rand.c) */
double spart_rng_uniform(spart_rng *r);

/* The rate xidot (jnt_nv[i]) of joint i's local coordinates xi around q (spart_joint_integrate's)
   for the joint velocity v: qdot of v at q + xi for a vector space, dexp^-1(xi) v for a
   quaternion, a floating joint's position moving at its linear velocity in the frame before
   (the integrators', spart_sim.c and spart_control.c). */
void spart_joint_local_rate(const spart_model *m, int i, const double *q, const double *xi,
                            const double *v, double *xidot);

/* Joint i's coordinates q (its jnt_nq[i]) put within lim[0] <= x <= lim[1] (lim[0] <= lim[1]),
   x its one coordinate (revolute, prismatic, helical) or its angle (a sin-cos pair's); the
   other kinds are left (spart_ik's limits). */
void spart_joint_clamp(const spart_model *m, int i, const double lim[2], double *q);

/* The velocity v (jnt_nv[i]) at q whose local rate at xi = 0 is xidot (spart_joint_difference's
   local coordinates as a velocity: a controller's error, spart_control.c). */
void spart_joint_v_of_local(const spart_model *m, int i, const double *q, const double *xidot,
                            double *v);

/* spart_friction with the Coulomb part smoothed: f tanh(um / v) for the velocity scale v > 0
   (within a few v of rest the force grows with um, as a stiff viscous law; f beyond): the
   simulation's spart_sim.coulomb_v. */
void spart_friction_smooth(const spart_model *m, const double *um, double sign, double v,
                           double *tau);

/* spart_urdf_parse with o (NULL: no packages, no automass, meshes relative to the current
   directory): spart_load.c's */
spart_model *spart_urdf_parse_opts(const char *buf, size_t len, const spart_urdf_opts *o,
                                   spart_err *err);

/* a view's right and up axes and the direction toward the viewer (spart_view.c) */
void spart_view_axes(int view, double right[3], double up[3], double toward[3]);

/* The pose of shape s in the inertial frame: its frame's orientation R (9) and origin r (3,
   r0 added, as spart_link_pose).  Needs spart_fk (spart_shape_pose.c). */
void spart_shape_pose(const spart_model *m, const spart_data *d, int s, double R[9],
                      double r[3]);

/* ---- a serial arm by DH parameters (spart_dh.c, lib/read): spart_dh_json.c's ---- */

/* A serial arm by Denavit-Hartenberg parameters: SPART's DH structure (DH_Serial2robot) or a
   Robotics Toolbox table (standard or modified DH).  Angles in radians, SI units. */
enum { SPART_DH_SPART = 0, SPART_DH_STANDARD, SPART_DH_MODIFIED };
typedef struct spart_dh_link {
  int type;                  /* SPART_JNT_REVOLUTE or SPART_JNT_PRISMATIC */
  double theta, d, a, alpha; /* DH parameters (the joint's own variable is q + offset) */
  double offset;             /* joint coordinate offset (Toolbox) */
  int flip;                  /* the joint moves the other way: -z (Toolbox) */
  double com[3];             /* SPART: b, CoM to the next joint; Toolbox: r, CoM; link frame */
  double mass, inertia[6];   /* about the CoM, link frame: xx yy zz xy xz yz */
  double Jm, B, Tc[2], G;    /* drive train, motor side: inertia, viscous and Coulomb (qd > 0,
                                qd < 0) friction, gear ratio */
  int limited;               /* qlim given */
  double qlim[2];            /* lower, upper */
} spart_dh_link;

typedef struct spart_dh {
  int n;                   /* links and joints */
  int convention;          /* SPART_DH_* */
  const char *name;        /* robot name (NULL: "DH robot") */
  double base_R[9];        /* first joint frame (SPART T_L0_J1) or the Toolbox base frame {0}, */
  double base_p[3];        /* in the base link frame */
  double base_mass;        /* base link */
  double base_inertia[6];  /* xx yy zz xy xz yz */
  double ee_theta, ee_d;   /* SPART: end-effector rotation and offset along the last z */
  const spart_dh_link *link; /* (n) */
} spart_dh;

/* The model of a DH arm: base link "Base", links L1..Ln, joints J1..Jn about z (SPART's
   DH_Serial2robot for SPART_DH_SPART), drive train reflected to the joints.  NULL with err filled
   on bad values or when out of memory. */
spart_model *spart_dh_model(const spart_dh *dh, spart_err *err);

#endif
