/* spart.h -- the one public header of libspart.
 *
 * Conventions (SPART's, see spart-model(5)):
 *  - A model is a kinematic tree of nb bodies: the base link (body 0) and links 1..nb-1, numbered
 *    depth-first from the base so that body_parent[i] < i.  Joint i connects body_parent[i] to
 *    link i; n = nb-1 is SPART's n_links_joints.  Joint i owns jnt_nq[i] entries of qm from
 *    jnt_qadr[i] (SPART's q_id, 0-based) and jnt_nv[i] of um from jnt_vadr[i], in joint order:
 *    one each for a revolute or prismatic joint, none for a fixed one, 7 and 6 (floating), 4
 *    and 3 (ball), 3 and 3 (planar) (spart_joint.c).
 *  - Each link frame is its centre-of-mass frame (URDF <inertial> origin).
 *  - Every vector is projected in the inertial frame, except u0 = [omega0 (base body frame);
 *    r0dot (inertial)] and tau0 = [torque (base body frame); force (inertial)].
 *  - Twists are [omega; v] and wrenches [n; f], taken at link CoMs (angular first).
 *  - Rotations are 9 numbers, row-major; SI units and radians.
 *  - The generalized velocity is u = [u0 (6); um (nv)]: every n x n matrix has size 6+nv (nv =
 *    nq unless a joint has a quaternion).
 */
#ifndef SPART_H
#define SPART_H

#include <stddef.h>
#include <stdint.h>

/* the library's version (the Makefile's VERSION, which the commands' --version prints) */
#define SPART_VERSION_STRING "0.1.0"

#ifdef __cplusplus
extern "C" {
#endif

/* error codes returned (negated) by library calls */
enum {
  SPART_EOK = 0,
  SPART_EDATA = 1,  /* bad input: a record, a model, a URDF */
  SPART_EIO = 3,    /* I/O or system error */
  SPART_ENOMEM = 4, /* out of memory */
  SPART_ENUM = 5,   /* numerical failure (singular matrix) */
  SPART_EPIPE = 6   /* the reader of the output has gone */
};

/* what went wrong, filled by a failing call */
typedef struct spart_err {
  int code;      /* 0, or a positive SPART_E* */
  long long line; /* input line of the fault, 0 if none (64 bits: never wraps) */
  char msg[512]; /* lowercase, no final period */
} spart_err;

/* joint types: SPART's codes, then the kinds of several coordinates (spart-model(5)) */
enum {
  SPART_JNT_FIXED = 0,
  SPART_JNT_REVOLUTE = 1,
  SPART_JNT_PRISMATIC = 2,
  SPART_JNT_FLOATING = 3, /* q: unit quaternion [w x y z], position (7); v: twist [w; v] (6) */
  SPART_JNT_BALL = 4,     /* q: unit quaternion [w x y z] (4); v: angular velocity (3) */
  SPART_JNT_PLANAR = 5,   /* q: x, y, angle (3); v: vx, vy in the frame after, angle rate (3) */
  SPART_JNT_SINCOS = 6,   /* q: sin, cos of the angle (2); v: the angle's rate (1) */
  SPART_JNT_SPQUAT = 7,   /* q: the quaternion's stereographic projection, position (6); v: as
                             SPART_JNT_FLOATING's (6) */
  SPART_JNT_HELICAL = 8   /* q: the angle about the axis, which moves it jnt_pitch / (2 pi) per
                             radian along the axis (1); v: the angle's rate (1) */
};

/* numerical failures, counted in spart_data.warn with the body in warn_body */
enum { SPART_WARN_SINGULAR = 0, SPART_NWARN };

/* ---------------------------------------------------------------------------------------------
 * model: read-only after it is loaded
 */
typedef struct spart_model {
  int nb;               /* bodies, base included: n_links_joints + 1 */
  int nq;               /* configuration coordinates: n_q, the length of qm */
  int nv;               /* the joints' degrees of freedom, the length of um (spart_joint_setup) */
  char *name;           /* robot name */
  char **body_name;     /* (nb) link names */
  char **jnt_name;      /* (nb) joint names; [0] is NULL */
  int *body_parent;     /* (nb) parent body; -1 for the base */
  double *body_mass;    /* (nb) link mass */
  double *body_inertia; /* (nb x 6) inertia about the CoM, link frame: xx yy zz xy xz yz */
  double *body_pos;     /* (nb x 3) link CoM in its joint frame (SPART link.T), which is the URDF
                           link frame (turned by the joint); [0] the base's CoM in its URDF
                           link frame (base_link.T, 0 by default): only spart_link_frame reads it */
  double *body_rot;     /* (nb x 9) link (CoM) frame in its joint frame, [0] in the base's URDF
                           link frame, as body_pos (the URDF <inertial> origin) */
  int *jnt_type;        /* (nb) SPART_JNT_*; [0] unused */
  int *jnt_qadr;        /* (nb) index of the joint's first coordinate in qm, -1 if it has none */
  /* filled by spart_joint_setup (spart_model_check) from jnt_type and jnt_axis: */
  int *jnt_nq;          /* (nb) coordinates of joint i in qm (its configuration); [0] 0 */
  int *jnt_nv;          /* (nb) its degrees of freedom in um (its velocity); [0] 0 */
  int *jnt_vadr;        /* (nb) index of its first degree of freedom in um, -1 if it has none */
  int *dof_body;        /* (nv) the body whose joint owns degree of freedom v */
  int *dof_axis;        /* (nv) S_v = e_k in the joint frame F_i (spart_joint.c): k =
                           0..2 a rotation about, 3..5 a translation along F_i's axis k - 3;
                           -1 when S_v is not one unit column (a helical joint's): dof_S */
  int *jnt_zaxis;       /* (nb) 2 when joint i is one coordinate turning F_i about its z (the
                           angle; S = e_2), 5 one moving it along z (S = e_5), else -1: the
                           common joints, which the dynamics passes take with the axis known */
  int *jnt_sub;         /* (nb x 2) [lo, hi): the degrees of freedom of the subtree of body i
                           (joint i's first, lo to lo + jnt_nv[i]) in dof_tree, depth-first */
  int *jnt_up;          /* (nb) the nearest body above body i whose joint has degrees of freedom,
                           or 0 (the base); [0] 0 */
  int *dof_tree;        /* (nv) the degrees of freedom in depth-first order: each subtree's a
                           block, jnt_sub (0, 1, ... when bodies are numbered depth-first) */
  double *dof_S;        /* (nv x 6) that column S_v, [angular; linear] in F_i */
  double *dof_screw;    /* (nv x 2) its rotation about and translation along the joint axis per
                           unit of the degree of freedom: 1 0 (revolute), 0 1 (prismatic) */
  double *jnt_axis;     /* (nb x 3) unit axis in the joint frame; fixed joints: URDF's or 0 */
  double *jnt_pos;      /* (nb x 3) joint origin in the parent link frame (SPART joint.T) */
  double *jnt_rot;      /* (nb x 9) joint frame in the parent link frame (SPART joint.T) */
  double *jnt_armature; /* (nb) motor inertia reflected to the joint, G^2 Jm: on H's diagonal */
  double *jnt_damping;  /* (nb) viscous friction at the joint, G^2 B: force damping * qd */
  double *jnt_friction; /* (nb x 2) Coulomb friction at the joint, |G| Tc, for qd > 0 (>= 0) and
                           for qd < 0 (<= 0) */
  double *jnt_range;    /* (nb x 2) joint limits lower, upper (qlim), where jnt_limited */
  int *jnt_limited;     /* (nb) 1 if the joint has limits */
  double *jnt_effort;   /* (nb) effort limit: |force| of each of its dofs at most this; 0 none */
  double *jnt_pitch;    /* (nb) a helical joint's pitch, metres along its axis per revolution
                           (positive: a right-handed screw); 0 for every other kind */
  double *jnt_velocity; /* (nb) velocity limit: |velocity| of each of its dofs at most this; 0
                           none (URDF <limit effort velocity>) */
  char **jnt_mimic;     /* (nb) the joint that joint i mimics (URDF <mimic>), NULL if none: only
                           shown and kept, joint i stays an independent degree of freedom */
  double *jnt_mimic_k;  /* (nb x 2) that mimic's multiplier and offset: q_i = k0 q_mimicked + k1 */
  /* the mimic couplings (spart_mimic.c), filled by spart_model_check from the above: */
  int coupled;          /* 1: each mimic joint follows its leader and is no coordinate of the
                           system (spart_mimic_couple, urdf2robot --mimic); 0: mimic joints are
                           free degrees of freedom, as in SPART, KDL and Pinocchio */
  int nqc, nvc;         /* the system's coordinates and degrees of freedom, the lengths of a
                           record's qm and um: nq and nv less the followers' when coupled */
  int *jnt_qadrc;       /* (nb) index of joint i's first coordinate in the system's qm (a
                           follower: its leader's), -1 if it has none */
  int *jnt_vadrc;       /* (nb) the same in the system's um */
  double *jnt_couple;   /* (nb x 2) a follower's q_i = k0 q_leader + k1, its chain of mimics
                           resolved to a free leader; 1 0 for every other joint */
  /* what the model says of its use (the model JSON's "fixed_base" and "gravity"); the algorithms
     take the base mode and the gravity as arguments, the caller deciding: */
  int fixed_base;       /* 1: the base is fixed to the world (a URDF whose root is a link named
                           world without <inertial>, with a fixed joint to the robot) */
  int has_gravity;      /* 1: gravity holds the gravity the model was given */
  double gravity[3];    /* (urdf2robot --gravity) */
  void *buf_;           /* the one allocation that holds the arrays above */
  /* the links' shapes, collision and visual geometry (spart_shape.c; URDF <collision>,
     <visual>), in body order and, within a body, in the order of the file; none: nshape 0 and
     every pointer below NULL.  A shape's frame is given in its body's URDF link frame
     (spart_link_frame: for link i > 0 the joint frame F_i, the frame URDF's <inertial>,
     <collision> and <visual> origins are given in; for the base its URDF link frame, where
     base_link.T puts the CoM), never in the CoM frame. */
  int nshape;           /* shapes of all bodies */
  int *shape_body;      /* (nshape) the body it belongs to, 0..nb-1, non-decreasing */
  int *shape_kind;      /* (nshape) SPART_SHAPE_BOX .. SPART_SHAPE_MESH */
  int *shape_role;      /* (nshape) SPART_SHAPE_COLLISION or SPART_SHAPE_VISUAL */
  int *shape_mesh;      /* (nshape) a mesh's state, SPART_MESH_*; SPART_MESH_NONE for the others */
  double *shape_rot;    /* (nshape x 9) the shape's frame in its body's URDF link frame */
  double *shape_pos;    /* (nshape x 3) its origin there */
  double *shape_size;   /* (nshape x 3) box: its lengths along x, y, z; cylinder and capsule:
                           radius, length along z (a capsule's: of its cylinder, between the
                           centres of its end spheres), 0; sphere: radius, 0, 0; mesh: the
                           scale along x, y, z */
  double *shape_bound;  /* (nshape x 6) the shape's bounding box in its frame, low x y z then
                           high x y z (a mesh's: of its scaled vertices, when SPART_MESH_READ;
                           zeros when it is a reference only) */
  char **shape_name;    /* (nshape) URDF's name attribute, or NULL */
  char **shape_file;    /* (nshape) a mesh's filename as the URDF gives it; NULL for the others */
  void *shape_buf_;     /* the one allocation of the shapes' arrays */
  /* the meshes read (SPART_MESH_READ), in their shape's frame with the scale applied; shape s's
     rows are from shape_X[s] to shape_X[s + 1] - 1 of each array (none for a primitive or a
     mesh not read); spart_shape_mesh and spart_shape_hull give one shape's */
  int *shape_hull;      /* (nshape + 1) shape s's first row in hull_vert */
  double *hull_vert;    /* (shape_hull[nshape] x 3) the vertices of its convex hull, each once,
                           computed at load (its contact points: the ground's, spart-contact's) */
  int *shape_vert;      /* (nshape + 1) shape s's first row in mesh_vert */
  double *mesh_vert;    /* (shape_vert[nshape] x 3) its vertices, equal corners merged */
  int *shape_tri;       /* (nshape + 1) shape s's first row in mesh_tri */
  int *mesh_tri;        /* (shape_tri[nshape] x 3) its triangles, counter-clockwise from outside
                           (as the file gives them): rows of its own vertices, 0 its first */
  int *body_automass;   /* (nb) 1 where the URDF reader gave the link its shapes' mass
                           properties (SPART_AUTOMASS_*), or NULL when it gave none */
} spart_model;

/* shape kinds (spart_model.shape_kind) */
enum {
  SPART_SHAPE_BOX = 0,
  SPART_SHAPE_CYLINDER, /* its axis along z, centred on its frame's origin */
  SPART_SHAPE_SPHERE,
  SPART_SHAPE_CAPSULE,  /* a cylinder along z with a hemisphere on each end */
  SPART_SHAPE_MESH,     /* a triangle mesh from a file, in its frame times the scale */
  SPART_SHAPE_KINDS
};

/* shape roles (spart_model.shape_role): what the URDF gave it as */
enum { SPART_SHAPE_COLLISION = 1, SPART_SHAPE_VISUAL = 2 };

/* a mesh's state (spart_model.shape_mesh) */
enum {
  SPART_MESH_NONE = 0, /* not a mesh */
  SPART_MESH_READ,     /* a mesh file read (STL, OBJ, COLLADA, ... through Assimp): shape_bound
                          holds its bounding box, the mesh arrays its hull and triangles */
  SPART_MESH_MISSING,  /* its file was not found: a reference only */
  SPART_MESH_FORMAT    /* a format that is not read (Assimp does not know its extension): a
                          reference only */
};

/* Mesh shape s's vertices (*vert, in its frame with its scale applied, 3 a vertex) and
   triangles (*tri, 3 vertex indices a triangle, from 0): their numbers into *nvert and the
   return value, the triangles' number; 0 (and *nvert 0) for a primitive or a mesh not read.
   The arrays are the model's (m->mesh_vert, m->mesh_tri). */
int spart_shape_mesh(const spart_model *m, int s, const double **vert, int *nvert,
                     const int **tri);

/* Mesh shape s's convex hull vertices (*pts, 3 each, in its frame with its scale applied, each
   once), their number; 0 for a primitive or a mesh not read (m->hull_vert). */
int spart_shape_hull(const spart_model *m, int s, const double **pts);

/* Allocate a model of nb bodies with all names NULL and every array zeroed but the rotations
   (identity); NULL when out of memory. */
spart_model *spart_model_new(int nb);

/* Free a model and its names; NULL is allowed. */
void spart_model_free(spart_model *m);

/* The name of a shape kind ("box", "cylinder", "sphere", "capsule", "mesh"), or NULL. */
const char *spart_shape_kind_name(int kind);

/* Check a model built by hand or read from JSON: parent order, joint types, q numbering, finite
   numbers, non-negative masses, unit axes.  Sets m->nq and the joint model (spart_joint_setup).
   Returns 0 or -SPART_EDATA. */
int spart_model_check(spart_model *m, spart_err *err);

/* ---------------------------------------------------------------------------------------------
 * state: what the algorithms take of a model's motion, the one currency of the library and the
 * commands (a record read is one, the simulation steps one): the base's pose, the joints'
 * coordinates, the velocities, their rates and the forces.  The pose is always there; each
 * array of rates or forces may be NULL, which is zero (the algorithms then skip it: a state of
 * the joints alone, or without wrenches, costs no work for the zeros).  A copy of the struct is
 * a view of the same arrays (set one of its arrays to NULL, or to others of the same size, to
 * compute with them); free only what spart_state_new made.
 */
typedef struct spart_state {
  int nb, nq, nv;  /* the model's sizes (the tree's nq, nv: coupled mimic joints expanded) */
  double R0[9];    /* base orientation (base body frame -> inertial), row-major */
  double r0[3];    /* base CoM position, inertial frame */
  double *qm;      /* (nq) joint coordinates (NULL only when nq is 0) */
  double *u0;      /* (6) base velocity [omega0 (base body frame); r0dot (inertial)] */
  double *um;      /* (nv) joint velocities */
  double *u0dot;   /* (6) base acceleration, the rate of u0 */
  double *umdot;   /* (nv) joint accelerations */
  double *tau0;    /* (6) base force [torque (base body frame); force (inertial)] */
  double *taum;    /* (nv) joint forces */
  double *wF;      /* (nb x 6) external wrenches [torque; force] at the link CoMs, inertial
                      frame; [0] = wF0 on the base */
} spart_state;

/* A state for model m at rest at the origin: R0 the identity, every other number 0, every
   array its own, in one allocation with the struct (u0 and um one array [u0; um] of 6 + nv,
   u0dot and umdot, tau0 and taum the same); NULL when out of memory. */
spart_state *spart_state_new(const spart_model *m);

/* Free a state of spart_state_new; NULL is allowed. */
void spart_state_free(spart_state *s);

/* Copy src into dst (states of one model): R0, r0 and each array dst has (dst's NULL arrays are
   left out), src's NULL arrays as zeros. */
void spart_state_copy(spart_state *dst, const spart_state *src);

/* ---------------------------------------------------------------------------------------------
 * mimic joints coupled to their leaders (spart_mimic.c): the system's coordinates qc (nqc) and
 * velocities vc (nvc) are the tree's q = K qc + o, v = K vc, K a column of each free degree of
 * freedom (a follower's row its multiplier in its leader's column) and o the followers'
 * offsets; its matrices are K' H K, J K, its forces K' tau.  b is 6 for [u0; um] (the base's
 * rows as they are) or 0 for um alone.  Without coupling K is the identity and o = 0.
 */

/* Couple the model's mimic joints (each to the joint its <mimic> names, q_f = multiplier q_l +
   offset, a chain resolved to its free leader) and fill the maps above; 0, or -SPART_EDATA
   (the model then uncoupled) when a follower or its leader is not a revolute or prismatic
   joint, when the two are of different kinds, or when mimics form a cycle. */
int spart_mimic_couple(spart_model *m, spart_err *err);

/* The tree's coordinates q (nq) of the system's qc (nqc): q = K qc + o; the tree's rates or
   velocities of the system's: qdot = K qcdot (nq), v = K vc (nv). */
void spart_mimic_q(const spart_model *m, const double *qc, double *q);
void spart_mimic_qdot(const spart_model *m, const double *qcdot, double *qdot);
void spart_mimic_v(const spart_model *m, const double *vc, double *v);

/* The system's coordinates qc (nqc) of the tree's q (nq): the free joints' (the followers' are
   left out: qc is right for a q = K qc + o). */
void spart_mimic_qc(const spart_model *m, const double *q, double *qc);

/* Forces f (nv) of the tree for the system's fc (nvc): fc at each free degree of freedom, 0 at
   the followers, so that K' f = fc. */
void spart_mimic_lift(const spart_model *m, const double *fc, double *f);

/* The system's forces fc (b + nvc) = K' f of the tree's f (b + nv); fc may not alias f. */
void spart_mimic_force(const spart_model *m, int b, const double *f, double *fc);

/* Ac (rows x (b + nvc)) = A K for the tree's A (rows x (b + nv)), row-major (Jacobians). */
void spart_mimic_cols(const spart_model *m, int b, int rows, const double *A, double *Ac);

/* Ac ((b + nvc) x (b + nvc)) = K' A K for the tree's A ((b + nv) x (b + nv)) (H, C). */
void spart_mimic_matrix(const spart_model *m, int b, const double *A, double *Ac);

/* The system's velocities vc (nvc) of the tree's v (nv): the free degrees of freedom's (v is
   right for a v = K vc). */
void spart_mimic_vc(const spart_model *m, const double *v, double *vc);

/* ---------------------------------------------------------------------------------------------
 * joints (spart_joint.c): every joint kind, its sizes, transform, motion subspace, velocity
 * product and the map between qdot and v; the algorithms loop over degrees of freedom with the
 * addresses jnt_qadr, jnt_vadr and the per-dof data dof_*, never branching on a kind
 */

/* coordinates (nq) and degrees of freedom (nv) of a joint of kind type, -1 for an unknown kind */
int spart_joint_nq(int type);
int spart_joint_nv(int type);
/* the kind's name ("revolute"; "unknown" for a type that is none), and whether one of its degrees
   of freedom turns (then a body it moves has an inertia to show, not only a mass); whether it
   uses jnt_axis (revolute, prismatic: the axis; planar: the plane's normal) */
const char *spart_joint_name(int type);
int spart_joint_rotates(int type);
int spart_joint_has_axis(int type);
/* whether a joint of kind type takes its translation per radian from the model's jnt_pitch
   (helical) */
int spart_joint_pitched(int type);

/* Normalise every quaternion (and a sin-cos joint's [sin, cos]) in qm (nq) whose norm is within
   tol of 1; 0, or -SPART_EDATA with err naming the first joint whose quaternion (or pair) is
   further off (qm is then partly normalised). */
int spart_joint_normalize(const spart_model *m, double *qm, double tol, spart_err *err);

/* Whether the rates qmdot (nq) of every unit vector in qm (a quaternion, a sin-cos pair) are
   tangent to it: the part along it within tol of the rate's size (a unit vector's rate has
   none); 0, or -SPART_EDATA
   with err naming the first joint whose rate is not. */
int spart_joint_rates_tangent(const spart_model *m, const double *qm, const double *qmdot,
                              double tol, spart_err *err);

/* Make every quaternion (and a sin-cos joint's [sin, cos]) in qm (nq) unit, whatever its norm
   (RigidBodyDynamics.jl's normalize_configuration!): divided by its norm, or left as it is when
   that is 1 within 4 DBL_EPSILON (its bits kept: normalising twice is normalising once); the
   other coordinates are left (an spquat joint's are any point of R^3).  0, or -SPART_EDATA with
   err naming the first joint whose quaternion (or pair) is zero (or not finite): no direction
   (qm is then partly normalised). */
int spart_joint_unit(const spart_model *m, double *qm, spart_err *err);

/* Set the quaternions' w (a sin-cos joint's cos) in qm to 1 (the rest of qm is left): qm = 0
   then this is the neutral configuration, every joint at its zero. */
void spart_joint_neutral(const spart_model *m, double *qm);

/* Every joint of kind from made of kind to, the same motion in other coordinates
   (RigidBodyDynamics.jl's revolute_joint_type and floating_joint_type of its URDF parser):
   SPART_JNT_REVOLUTE to SPART_JNT_SINCOS or back, SPART_JNT_FLOATING to SPART_JNT_SPQUAT or
   back; the coordinates renumbered (jnt_qadr, nq) and the model checked again.  0, or
   -SPART_EDATA for another pair of kinds or from the check.  Before spart_mimic_couple (which
   couples only revolute and prismatic joints). */
int spart_joint_retype(spart_model *m, int from, int to, spart_err *err);

/* A pseudo-random generator of spart's own (xoshiro256**, seeded by splitmix64), so that the
   same seed gives the same numbers on every machine and C library. */
typedef struct spart_rng {
  uint64_t s[4];
} spart_rng;
void spart_rng_seed(spart_rng *r, uint64_t seed);

/* A random state of the joints within the model's limits (RigidBodyDynamics.jl's
   rand_configuration!) into s: qm (nq) joint by joint, a limited one-coordinate joint's uniform
   in its limits (a sin-cos joint's angle too), an unlimited angle in [-pi, pi], an unlimited
   displacement (prismatic, planar x and y, a floating joint's position) in [-1, 1] m, a
   quaternion uniform on the unit sphere (unit to rounding; a projected one with w >= 0, |p| <=
   1); then, each that s has (not NULL), um (nv) in +-each joint's velocity limit (+-1 without
   one), umdot (nv) in [-1, 1], taum (nv) in +-the effort limit (+-1 without one); the base's
   parts are left.  qm is drawn from rq, the rest from rv: the same seeds give the same qm
   whatever else is asked.  Only +, *, / and sqrt of IEEE doubles and spu_sincos: the same bits
   on every machine. */
void spart_random_state(const spart_model *m, spart_rng *rq, spart_rng *rv, spart_state *s);

/* Fill m->nv, jnt_nq, jnt_nv, jnt_vadr, dof_body, dof_axis, dof_S, dof_screw and jnt_zaxis from
   jnt_type and the coordinates' order (jnt_qadr), for a model whose kinds spart_model_check
   accepted. */
void spart_joint_setup(spart_model *m);

/* The transform of joint i at its coordinates q (jnt_nq[i]) (Featherstone's jcalc with the
   joint's fixed part): the frame F_i in its parent's F_p, Q (9) and origin rho (3), from Tr,
   F_i in F_p at q = 0 (the model's joint frame; the library keeps it among its constants), its
   orientation T (9) then its origin r (3). */
void spart_joint_transform(const spart_model *m, int i, const double *q, const double Tr[12],
                           double Q[9], double rho[3]);

/* Joint i's own motion at the coordinates qm (nq, the joint's from jnt_qadr[i]) applied to a
   frame on its right: Q (9) becomes Q X_J(q), rho (3) moves with the joint, in Q's parent (the
   part of spart_joint_transform after T, r: spart_fk applies it to F_i's world pose at q = 0). */
void spart_joint_move(const spart_model *m, int i, const double *qm, double Q[9], double rho[3]);

/* The motion subspace of joint i in F_i: S (6 x jnt_nv[i]), row-major. */
void spart_joint_motion(const spart_model *m, int i, double *S);

/* The velocity-product term of joint i in F_i, c = Sdot v (6) at q, v (0 for every kind: S is
   constant in F_i). */
void spart_joint_bias(const spart_model *m, int i, const double *q, const double *v, double c[6]);

/* The maps between a joint's coordinate rates qdot (jnt_nq[i]) and its velocity v (jnt_nv[i])
   at q (its jnt_nq[i] coordinates): the identity for one-coordinate kinds; a quaternion's
   qdot = q (0, w) / 2 and w = 2 vec(conj(q) qdot) (q unit), a floating joint's position
   rate R(q) v_lin, a planar joint's [xdot ydot] = Rz(angle) [vx vy] (RigidBodyDynamics.jl's
   velocity_to_configuration_derivative and its inverse).  out may not alias in. */
void spart_joint_v_of_qdot(const spart_model *m, int i, const double *q, const double *qdot,
                           double *v);
void spart_joint_qdot_of_v(const spart_model *m, int i, const double *q, const double *v,
                           double *qdot);
/* 1 when some joint's coordinate rates are not its velocity (a quaternion's, a sin-cos pair's,
   a planar joint's, a projected quaternion's), 0 when qmdot is um. */
int spart_joint_rates_differ(const spart_model *m);
/* The same for every joint: the coordinate rates qmdot (n_q) of the velocities um (n_v) at qm. */
void spart_qdot_of_v(const spart_model *m, const double *qm, const double *um, double *qmdot);

/* The configuration qout (jnt_nq[i]) of joint i reached from q by the local coordinates xi
   (jnt_nv[i]) of its configuration space around q (Pinocchio's integrate: q + xi for a vector
   space, q exp(xi) for a quaternion).  Integrators move the joints with it, so that a
   quaternion stays on its manifold. */
void spart_joint_integrate(const spart_model *m, int i, const double *q, const double *xi,
                           double *qout);
/* The local coordinates xi (jnt_nv[i]) of joint i's configuration r around q,
   spart_joint_integrate's inverse (Pinocchio's difference): r - q for a vector space, the log of
   conj(q) r for a quaternion (the shorter way round), a floating joint's position move in the
   frame before. */
void spart_joint_difference(const spart_model *m, int i, const double *q, const double *r,
                            double *xi);

/* Attitude conversions (spart_attitude.c), SPART's: a DCM is SPART's direction cosine matrix,
   the transpose of the rotation R (body -> inertial) of spart's R0 and RL (R0 = DCM').
   Quaternions are [w, x, y, z], the scalar first (SPART's q = [q1 q2 q3 q4] is [q4 q1 q2 q3]),
   and a quaternion returned has w >= 0.  Angles in radians. */
/* 321 sequence, angles [phi theta psi] about x, y, z: DCM = C1(phi) C2(theta) C3(psi), whose R =
   Rz(psi) Ry(theta) Rx(phi) is URDF's and ROS's roll-pitch-yaw (SPART Angles321_DCM) */
void spart_angles321_dcm(double DCM[9], const double angles[3]);
/* 123 sequence: DCM = C3(psi) C2(theta) C1(phi), R = Rx(phi) Ry(theta) Rz(psi) (Angles123_DCM) */
void spart_angles123_dcm(double DCM[9], const double angles[3]);
/* the inverses (DCM_Angles321, and of Angles123_DCM): theta in [-pi/2, pi/2], the others in
   [-pi, pi]; at theta = +-pi/2 (gimbal lock) phi = 0 */
void spart_dcm_angles321(double angles[3], const double DCM[9]);
void spart_dcm_angles123(double angles[3], const double DCM[9]);
/* the DCM of a unit quaternion, and back (quat_DCM, DCM_quat) */
void spart_quat_dcm(double DCM[9], const double q[4]);
void spart_dcm_quat(double q[4], const double DCM[9]);
/* the DCM of a turn by alpha about the unit axis e, and back (Euler_DCM, DCM_Euler): alpha in
   [0, pi], e = (1, 0, 0) when alpha = 0 */
void spart_euler_dcm(double DCM[9], const double e[3], double alpha);
void spart_dcm_euler(double e[3], double *alpha, const double DCM[9]);
/* the quaternion [w, x, y, z] and the roll-pitch-yaw [r, p, y] (R = Rz(y) Ry(p) Rx(r)) of a
   rotation matrix R */
void spart_rot_quat(double q[4], const double R[9]);
/* q [w, x, y, z] made unit as spart_joint_unit does; 0, or -1 when it is zero (or not finite),
   left as it is */
int spart_quat_unit(double q[4]);
/* the rotation matrix R of a unit quaternion q [w, x, y, z] (R = DCM', spart_quat_dcm's) */
void spart_quat_rot(double R[9], const double q[4]);
void spart_rot_rpy(double rpy[3], const double R[9]);

/* How the URDF reader finds meshes and fills inertias from geometry (spart_model_load_opts). */
enum {
  SPART_AUTOMASS_OFF = 0, /* a link with <inertial> but no <inertia> is refused */
  SPART_AUTOMASS_MISSING, /* such a link, with collision geometry, gets its shapes' inertia */
  SPART_AUTOMASS_ALL      /* every link with collision geometry gets its shapes' inertia */
};
typedef struct spart_urdf_opts {
  const char *dir;              /* the directory a relative mesh filename is in (the URDF's);
                                   NULL: the current directory */
  const char *const *packages;  /* directories a package://NAME/PATH is looked for in, as
                                   DIR/NAME/PATH or, when DIR's last part is NAME, DIR/PATH */
  int npackages;
  int automass;                 /* SPART_AUTOMASS_* (spart_geometry.c computes it) */
  double density;               /* kg/m^3 for an automassed link without <mass>; 0: none, such a
                                   link is refused */
} spart_urdf_opts;

/* The same as spart_model_load and spart_model_read, with o (NULL: no packages, no automass,
   meshes relative to the file; spart_model_read's: relative to the current directory). */
spart_model *spart_model_load_opts(const char *path, const spart_urdf_opts *o, spart_err *err);
spart_model *spart_model_read_opts(int fd, const char *name, const spart_urdf_opts *o,
                                   spart_err *err);

/* Same, from a buffer; name is used only in messages. */
spart_model *spart_urdf_parse(const char *buf, size_t len, spart_err *err);

/* Read a model JSON text (as written by spart_model_json). */
spart_model *spart_model_parse(const char *text, spart_err *err);

/* Same, for a text whose first line is line of its input: messages name the line of the fault
   (a path "links[2].mass" in the message is where). */
spart_model *spart_model_parse_at(const char *text, long line, spart_err *err);

/* Load a model file: a .urdf (or any file that starts with '<') or a model JSON. */
spart_model *spart_model_load(const char *path, spart_err *err);

/* The same from the open file descriptor fd, read to its end and left open (name: what messages
   call it, e.g. "<stdin>"; a name in .urdf picks the URDF reader as a path does). */
spart_model *spart_model_read(int fd, const char *name, spart_err *err);

/* The model JSON text (SPART's robot structure plus keys), malloc'd; NULL when out of memory. */
char *spart_model_json(const spart_model *m);

/* A limit of a joint that a state passes (spart_limits_check). */
enum {
  SPART_LIMIT_LOWER = 0, /* position below the lower limit */
  SPART_LIMIT_UPPER,     /* position above the upper limit */
  SPART_LIMIT_VELOCITY,  /* |velocity| above the velocity limit */
  SPART_LIMIT_EFFORT     /* |force| above the effort limit */
};
typedef struct spart_limit_hit {
  int joint;    /* the joint (its body), 1..nb-1 */
  int kind;     /* SPART_LIMIT_* */
  int index;    /* where the value is: in qm (positions), in um or taum (velocity, effort) */
  double value; /* the value */
  double limit; /* the limit it passes: lower or upper, or the velocity or effort limit */
} spart_limit_hit;

/* The limits of the model's joints that the positions qm (nq), velocities um (nv) and joint
   forces taum (nv) pass (each NULL: not checked), in joint order, for each joint its position
   (joints of one coordinate with jnt_limited), then each degree of freedom's velocity and force
   (jnt_velocity, jnt_effort: 0 is none).  A value at its limit is within.  Fills hit[0..most)
   and returns how many limits are passed (more than most when hit had no room for all). */
int spart_limits_check(const spart_model *m, const double *qm, const double *um,
                       const double *taum, spart_limit_hit *hit, int most);

/* The principal inertias of link i: the eigenvalues of its rotational inertia (body_inertia),
   ascending (spart_mass.c). */
void spart_principal_inertias(const spart_model *m, int i, double ev[3]);

/* What each link carries, itself and the links after it in the tree: their mass, in mass (nb),
   and whether any of their inertias is not zero, in inertia (nb) (spart_mass.c). */
void spart_carried(const spart_model *m, double *mass, int *inertia);

/* Index of the body (link) named name, or -1. */
int spart_model_body(const spart_model *m, const char *name);

/* ---------------------------------------------------------------------------------------------
 * data: every result and scratch array, sized from a model
 */
struct spart_own;
typedef struct spart_data {
  int nb, nq, nv;

  /* computed by spart_joint_frames */
  double *xrotJ; /* (nb x 9) joint frame orientations RJ; [0] unused */

  /* computed by spart_fk: the joint frames F_i (spart_joint.c; F_0 the base's CoM
     frame) in the inertial frame, and SPART's quantities derived from them */
  double *xrotF; /* (nb x 9) F_i's orientation; [0] = R0 */
  double *xposF; /* (nb x 3) F_i's origin - r0 (a joint's position moved with the joint); [0] = 0 */
  double *xposJ; /* (nb x 3) joint positions rJ - r0; [0] unused */
  double *xrot;  /* (nb x 9) link orientations RL; [0] = R0 */
  double *xpos;  /* (nb x 3) link CoM positions rL - r0; [0] = 0 (spart_positions adds r0) */
  double *xaxis; /* (nb x 3) joint axes e; [0] unused */
  double *xg;    /* (nb x 3) joint to link CoM vectors g; [0] unused */
  double *xS;    /* (nv x 6) motion subspace pm of each degree of freedom at its link's CoM */
  double *xI;    /* (nb x 6) inertia about the CoM, inertial frame: xx yy zz xy xz yz */
  double P0[9];  /* R0 again: u0 -> t0 is t0 = [R0 omega0; r0dot] (SPART's P0) */
  double com[3]; /* centre of mass of the whole system - r0 (0 without mass: r_com = r0) */
  double r0[3];  /* the base position of spart_fk */
  double mass;   /* total mass */

  /* computed by spart_velocity */
  double *t; /* (nb x 6) twists [omega; v] at link CoMs; [0] = t0 */

  /* computed by spart_acceleration (and the dynamics passes) */
  double *tdot; /* (nb x 6) twist rates; [0] = t0dot */
  double *c;    /* (nb x 6) velocity-product part of tdot */

  /* dynamics scratch: spart_rnea, spart_crba, spart_aba */
  double *f;    /* (nb x 6) scratch: wrenches at link CoMs (spart_cim), accelerations in F_i
                   (spart_aba), subtrees' masses (spart_dof_scale) */
  double *Ic;   /* (nb x 10) composite inertias (spart_composite): m, h (3), J (6) */
  double *work; /* (6 x (6+nq) + 6*nb) general scratch */

  /* the joint frames F_i (F_0 is the base's CoM frame), spart_xup: F_i in its parent's (Xup) */
  double *Xrot; /* (nb x 9) F_i in F_p; [0] unused */
  double *Xpos; /* (nb x 3) F_i's origin in F_p */

  int warn[SPART_NWARN];      /* warnings counted since spart_data_new */
  int warn_body[SPART_NWARN]; /* body of the last warning of each kind */

  struct spart_own *own_; /* the library's own arrays (spart_internal.h): not for programs */
} spart_data;

/* Allocate the data for a model; NULL when out of memory. */
spart_data *spart_data_new(const spart_model *m);

/* Free data; NULL is allowed. */
void spart_data_free(spart_data *d);

/* ---------------------------------------------------------------------------------------------
 * algorithms: each reads what earlier passes left in d
 */

/* Forward kinematics (SPART Kinematics, DiffKinematics, I_I, Center_of_Mass): the pose of every
   joint frame F_i (d->xrotF, d->xposF) from its parent's and the joint transform (F_i at q = 0,
   the joint's constants, then spart_joint_move), F_0 the base's CoM frame at (R0, r0); from
   them the positions of every joint, poses of every link, axes, pm, inertias in the inertial
   frame, CoM.  Reads the state's R0, r0, qm.  The joint frames RJ need spart_joint_frames. */
void spart_fk(const spart_model *m, spart_data *d, const spart_state *s);

/* Orientations RJ of the joint frames (d->xrotJ).  Needs spart_fk. */
void spart_joint_frames(const spart_model *m, spart_data *d);

/* The joint transforms Xup of every body in the joint frames F_i (spart_joint.c):
   d->Xrot, d->Xpos.  qm: nq. */
void spart_xup(const spart_model *m, spart_data *d, const double *qm);

/* Positions in the inertial frame (SPART Kinematics, Center_of_Mass): rJ and rL (n x 3, links
   1..n) and r_com (3), r0 added to spart_fk's.  Needs spart_fk. */
void spart_positions(const spart_model *m, const spart_data *d, double *rJ, double *rL,
                     double r_com[3]);

/* The position r in the inertial frame of a position x given from r0 (as d->xpos and
   spart_link_frame give them): r = r0 + x. */
void spart_world(const spart_data *d, const double x[3], double r[3]);

/* SPART I_I: the inertia of every body about its CoM in the inertial frame, I (nb x 9: I0, then
   links 1..n), each a full row-major 3x3 (d->xI holds their 6 distinct values).  Needs
   spart_fk. */
void spart_inertias(const spart_model *m, const spart_data *d, double *I);

/* Twists of every link (SPART Velocities, right on every tree) at the state's u0, um.  Needs
   spart_fk. */
void spart_velocity(const spart_model *m, spart_data *d, const spart_state *s);

/* Twist rates of every link (SPART Accelerations) at the state's u0dot, umdot (its um that of
   spart_velocity).  Needs spart_velocity. */
void spart_acceleration(const spart_model *m, spart_data *d, const spart_state *s);

/* The URDF link frame of body i (spart_frames.c): the frame its <inertial> origin is given in
   (the joint's frame turned by the joint, for links 1..n), R (9) and its origin p (3) from r0,
   like d->xpos, from the CoM frame and body_rot, body_pos.  It is the CoM frame when the
   <inertial> origin is zero.  Needs spart_fk. */
void spart_link_frame(const spart_model *m, const spart_data *d, int i, double R[9],
                      double p[3]);

/* The pose of body i's URDF link frame in the inertial frame (spart-kin --frame, tf's): R (9)
   as spart_link_frame, its origin r (3) with r0 added.  Needs spart_fk. */
void spart_link_pose(const spart_model *m, const spart_data *d, int i, double R[9], double r[3]);

/* rim points of a flat disk (a cylinder standing on an end) in spart_support_points */
#define SPART_DISK_POINTS 16

/* Where the collision shapes of body i touch a support below them: the lowest points along
   gravity (3, nonzero) of the whole link, those within 1e-9 of the largest extent of its
   shapes' bounding boxes (and of its points' spread) of the lowest: a sphere's bottom (a
   point's place, a sphere of radius 0), a box's lowest corners (four when a face is level), a
   capsule's lowest end's bottom (both when it lies level), a cylinder's lowest rim point of
   each end that is lowest, or SPART_DISK_POINTS points evenly on the rim of an end that is
   level (an inscribed polygon), a mesh's lowest hull vertices (spart_shape_hull).  Each into
   pts (3 a point, most of them) in body i's URDF link frame (as spart_contact.point).  Returns
   how many there are (more than most when pts had no room), or -1 when the body has no
   collision shapes, -2 when one of them is a mesh that was not read (SPART_MESH_MISSING,
   SPART_MESH_FORMAT), -3 when out of memory.  Needs spart_fk. */
int spart_support_points(const spart_model *m, const spart_data *d, int i,
                         const double gravity[3], double *pts, int most);

/* Views of a picture (spart_view.c): orthographic projections onto a plane, the image's
   right and up axes and the direction toward the viewer in the inertial frame.  Front: seen
   from +x (right +y, up +z); side: from -y (right +x, up +z); top: from +z (right +x, up +y);
   isometric: from (1, -1, 1) (right (1, 1, 0)/sqrt 2, up z-ward). */
enum { SPART_VIEW_FRONT = 0, SPART_VIEW_SIDE, SPART_VIEW_TOP, SPART_VIEW_ISO, SPART_VIEWS };
/* x (inertial) in the view: uvd = [right; up; toward the viewer] coordinates */
void spart_view_project(int view, const double x[3], double uvd[3]);

/* points of a round shape's outline: its circles are drawn with this many */
#define SPART_OUTLINE_ARC 32
/* the most vertices of an outline */
#define SPART_OUTLINE_MAX (2 * SPART_OUTLINE_ARC)

/* The outline of shape s in the view at the state spart_fk left: the convex polygon its
   projection fills (a mesh: its bounding box's), counter-clockwise, into uv (at most
   SPART_OUTLINE_MAX x 2), and the depth of its frame's origin toward the viewer in *depth.
   Returns its vertices, 1 for a point (a sphere of radius 0), 0 for a mesh that was not read
   (nothing to draw).  Needs spart_fk. */
int spart_shape_outline(const spart_model *m, const spart_data *d, int s, int view, double *uv,
                        double *depth);

/* a round shape's faces: its circles have this many sides */
#define SPART_FACET 16
/* the most faces of a shape and their vertices, all together */
#define SPART_FACES_MAX 1024
#define SPART_FACE_VERTS_MAX 4096

/* The faces of shape s at the state spart_fk left, for a picture: planar polygons in the
   inertial frame (r0 added, as spart_shape_pose), each counter-clockwise seen from outside,
   their vertices one after the other into out->xyz and their counts into out->nvert: a box's
   six, a mesh's triangles (spart_shape_mesh's, as they turn; decimated by vertex clustering to
   at most out->most_face and out->most_vert / 3 where it has more: its vertices snapped to the
   finest grid whose triangles fit, deterministic; a mesh read without triangles: its bounding
   box), a cylinder's SPART_FACET sides and two ends,
   a sphere's SPART_FACET x SPART_FACET / 2 patches, a capsule's side and two half spheres.  A
   flat face (a box's, a cylinder's side) is cut into tiles no longer than tile (0: none, at most
   12 along an edge), so that faces sorted by depth cover one another as the solids do.
   Returns the number of faces, 0 for a point or a mesh not read, -1 when they did not fit,
   -SPART_ENOMEM (a dense mesh's decimation). */
typedef struct spart_faces {
  double *xyz;   /* (most_vert x 3) the faces' vertices, one face after the other */
  int *nvert;    /* (most_face) each face's number of vertices */
  int most_face, most_vert;
} spart_faces;
int spart_shape_faces(const spart_model *m, const spart_data *d, int s, double tile,
                      const spart_faces *out);

/* Face xyz (n x 3, inertial) in the view: its vertices into uv (n x 2), their mean depth
   toward the viewer into *depth.  Returns its shade in [0.3, 1] (flat shading: an ambient 0.3
   and Lambert's diffuse of one light from the viewer's upper left), or -1 when it faces away
   from the viewer (a back face, or edge-on), uv and depth then unset. */
double spart_view_face(int view, const double *xyz, int n, double *uv, double *depth);

/* The robot's size at the state spart_fk left, for a picture's dots and arrows: the diagonal of
   the box around its joints' origins and its shapes (each a cube about its origin as wide as
   its bounding box's largest extent), 1 when that is 0; the box's centre (inertial) into c. */
double spart_view_size(const spart_model *m, const spart_data *d, double c[3]);

/* How body i's joint shows in the skeleton: 2 a joint that moves (a line to it and a dot), 1 a
   fixed joint to a link with mass on a link that moves (a foot, a tool: a line, no dot), 0 a
   fixed joint to a massless frame (a camera's, a sensor's) or to a part of the base (a shell,
   a battery): neither. */
int spart_view_joint(const spart_model *m, int i);

/* The ground of spart_ground_defaults as a grid: lines on the plane through 0 against gravity
   (3, nonzero), a square of half width half about centre's foot on it, a step of 1, 2 or 5
   times a power of ten near half / 4.  Each line's two ends (6 numbers) into seg (most x 6).
   Returns the number of lines (more than most when seg had no room), 0 for a zero gravity. */
int spart_view_grid(const double gravity[3], const double centre[3], double half, double *seg,
                    int most);

/* The points of model m's contact spheres (spart_ground_spheres: spart-sim's ground contacts,
   in its order) the furthest along gravity (3, nonzero), from r0, into x (most x 3), at the
   state spart_fk left.  Returns how many there are (more than most: x not written), -1 when
   out of memory. */
int spart_ground_points(const spart_model *m, const spart_data *d, const double gravity[3],
                        double *x, int most);

/* Position x (from r0) of the point at local in body i's URDF link frame.  Needs spart_fk. */
void spart_link_point(const spart_model *m, const spart_data *d, int i, const double local[3],
                      double x[3]);

/* The point r given in the inertial frame (r0 included, as spart_link_pose's origin) in body
   i's URDF link frame, local (spart_link_point's inverse, r0 added).  Needs spart_fk. */
void spart_link_local(const spart_model *m, const spart_data *d, int i, const double r[3],
                      double local[3]);

/* SPART DiffKinematics' matrices (spart_diffkin.c), each skipped when NULL: P0 (6x6) =
   [R0 0; 0 1]; pm (spart_diffkin_pm_rows x 6), link by link the twist at its CoM per unit
   rate of each of its joint's degrees of freedom (one row each; one zero row for a fixed joint:
   n rows when no joint has several, SPART's); Bi0 (n x 6x6) = [1 0; skew(r0 - rL_i) 1];
   Bij (n x n x 6x6, block (i-1) n + (j-1)) = [1 0; skew(rL_j - rL_i) 1] when link j is on the
   path from link i to the base (i itself included), else 0.  Needs spart_fk. */
void spart_diffkin(const spart_model *m, const spart_data *d, double *P0, double *pm,
                   double *Bi0, double *Bij);

/* The rows of spart_diffkin's pm: the degrees of freedom of the joints, a fixed joint counting
   one. */
int spart_diffkin_pm_rows(const spart_model *m);

/* Time derivative of the natural orthogonal complement (SPART NOCdot): Ndot (6(n+1) x (6+nq)),
   [t0dot; tLdot] = N udot + Ndot u.  Needs spart_velocity; overwrites d->work. */
void spart_noc_dot(const spart_model *m, spart_data *d, double *Ndot);

/* Velocity v (3) of the system's centre of mass (spart_momentum.c): sum m_i v_i / M (r0dot
   without mass).  Needs spart_velocity. */
void spart_com_velocity(const spart_model *m, const spart_data *d, double v[3]);

/* Jacobian of the system's centre of mass: v_com = J0 u0 + Jm um, J0 (3x6), Jm (3 x nq),
   row-major (0 for the joints without mass).  Needs spart_fk; overwrites d->f. */
void spart_com_jacobian(const spart_model *m, spart_data *d, double J0[18], double *Jm);

/* Momentum of the system h (6), inertial frame: [angular momentum about the system's CoM;
   linear momentum].  Needs spart_velocity. */
void spart_momentum(const spart_model *m, const spart_data *d, double h[6]);

/* Centroidal momentum matrix (Orin and Goswami's A_G, Pinocchio's ccrba): AG (6 x (6+nv)),
   row-major, with h = AG [u0; um] spart_momentum's momentum ([angular about the system's CoM;
   linear], inertial frame): AG = sum_i [I_i, m_i [r_i - r_com]x; 0, m_i 1] J_i, J_i the
   Jacobian of link i's CoM.  work: 6 (6+nv) doubles.  Needs spart_fk. */
void spart_centroidal(const spart_model *m, const spart_data *d, double *AG, double *work);

/* Its bias AGdot u (6): the rate of h at zero accelerations, sum_i [I_i alpha_i + w_i x I_i w_i
   + (r_i - r_com) x m_i a_i; m_i a_i] for the twist rates [alpha_i; a_i] of u0dot = umdot = 0
   (the term m_i (v_i - v_com) x v_i sums to 0).  Needs spart_velocity (of the state s); runs
   spart_acceleration (d->tdot is then that of zero accelerations). */
void spart_centroidal_bias(const spart_model *m, spart_data *d, const spart_state *s,
                           double h[6]);

/* Kinetic energy of the system, 1/2 u' H u.  Needs spart_velocity. */
double spart_kinetic_energy(const spart_model *m, const spart_data *d);

/* Potential energy of the system in the uniform field g (3): -M g . r_com, 0 at the inertial
   origin.  Needs spart_fk. */
double spart_potential_energy(const spart_model *m, const spart_data *d, const double g[3]);

/* Composite inertias (SPART MCB), inertial frame: M0 (6x6) of the whole system about the base
   CoM, Mm (n x 6x6) of the subtree of link i about link i's CoM, each [J [h]x; [h]x' m] for
   twists [omega; v] there.  Needs spart_fk. */
void spart_mcb(const spart_model *m, const spart_data *d, double M0[36], double *Mm);

/* Geometric Jacobian of a point on body i (SPART Jacob): J0 (6x6), Jm (6 x nq), row-major.
   point: its position from r0, like d->xpos (NULL = the link CoM).  Needs
   spart_fk. */
void spart_jacobian(const spart_model *m, const spart_data *d, int i, const double *point,
                    double J0[36], double *Jm);

/* Reference frames of a Jacobian (Pinocchio's): SPART_REF_ALIGNED (LOCAL_WORLD_ALIGNED, the
   twist [omega; v] of spart_jacobian: inertial axes, the velocity of the point),
   SPART_REF_LOCAL (LOCAL: the same in the axes R of the body's frame, [R' omega; R' v]),
   SPART_REF_WORLD (WORLD: inertial axes, the velocity of the body's point at the inertial
   origin, [omega; v + p x omega], p the point's position with r0 added).  Angular part first,
   as every twist here. */
enum { SPART_REF_ALIGNED = 0, SPART_REF_LOCAL = 1, SPART_REF_WORLD = 2 };

/* J (6 x ncols, row-major) of the point p (3, inertial frame, r0 added) given in
   SPART_REF_ALIGNED turned into the reference ref (SPART_REF_*), R (9) the body frame's axes
   for SPART_REF_LOCAL: J_local = diag(R', R') J, J_world = [1 0; [p]x 1] J. */
void spart_jacobian_reference(int ref, const double R[9], const double p[3], int ncols,
                              double *J);

/* Time derivative of the Jacobian (SPART Jacobdot): J0dot (6x6), Jmdot (6 x nq).  point: as in
   spart_jacobian, moving with body i.  Needs spart_velocity. */
void spart_jacobian_dot(const spart_model *m, const spart_data *d, int i, const double *point,
                        double J0dot[36], double *Jmdot);

/* Natural orthogonal complement (SPART NOC): N (6(n+1) x (6+nq)), row-major: [t0; tL] = N u,
   the base's rows first.  Needs spart_fk. */
void spart_noc(const spart_model *m, const spart_data *d, double *N);

/* Composite inertia of the subtree of every body (RBDA table 6.2), into d->Ic: the base's about
   its CoM in its frame, link i's about the origin of its joint frame F_i in F_i's axes.  Needs
   spart_xup. */
void spart_composite(const spart_model *m, spart_data *d);

/* Base block H0 = B' IC_0 B (6x6, row-major) of the generalized inertia matrix, B = diag(1, R0')
   (u0 = [omega0 in the base frame; r0dot]).  R0: 9.  Needs spart_composite. */
void spart_base_inertia(const spart_model *m, const spart_data *d, const double R0[9],
                        double H0[36]);

/* Generalized inertia matrix by composite rigid bodies (SPART GIM, Featherstone CRBA) in the
   joint frames: H ((6+nv) x (6+nv)), row-major; with fixed_base only the joints' block Hm
   (nv x nv).  The joints' armature is on its diagonal.  Reads the state's R0, qm; needs
   nothing else.  Leaves spart_xup's joint transforms in d; d->work and d->Ic are its scratch
   (d->Ic is not spart_composite's afterwards: the bodies it skips, those of fixed joints, hold
   their own). */
void spart_crba(const spart_model *m, spart_data *d, const spart_state *s, int fixed_base,
                double *H);

/* Split a (6+nv) x (6+nv) matrix A into SPART's blocks A0 (6x6), A0m (6 x nv), Am0 (nv x 6) and
   Am (nv x nv); NULL blocks are skipped.  nv is the system's, nvc (spart_mimic.c). */
void spart_split(const spart_model *m, const double *A, double *A0, double *A0m, double *Am0,
                 double *Am);

/* Ainv = inverse of the symmetric positive definite n x n A (Klampt's getMassMatrixInv), by
   Cholesky; work: n*n.  Returns 0 or -SPART_ENUM when A is not positive definite (a pivot fails
   spu_pivot_ok against its diagonal entry before elimination). */
int spart_spd_inverse(const double *A, int n, double *work, double *Ainv);

/* Hinv = inverse of the generalized inertia matrix H ((6+nq)^2, or the joints' nq^2 with
   fixed_base), by Cholesky in the order of the articulated-body algorithm (spart_aba): the joints
   from the last to the first, then the base; each pivot passes spu_pivot_ok against its
   spart_dof_scale (of either base).  work: 2 n^2 + n + 6 + nv doubles, n the order of H.
   Needs spart_xup (spart_crba leaves it); overwrites d->f.  Returns 0, or -SPART_ENUM with the
   body of the failing pivot in d->warn_body. */
int spart_gim_inverse(const spart_model *m, spart_data *d, int fixed_base, const double *H,
                      double *work, double *Hinv);

/* Convective inertia matrix (SPART CIM): C ((6+nq) x (6+nq)), row-major, with
   H udot + C u = tau + N' wF.  Needs spart_fk and spart_velocity. */
void spart_cim(const spart_model *m, spart_data *d, double *C);

/* Inverse dynamics of a flying base by Newton-Euler (SPART ID, Featherstone's RNEA in the
   joint frames F_i): tau = [tau0; taum] (6+nv) at the state s (its R0, qm, u0, um, u0dot, umdot
   and its external wrenches wF; r0 and its forces tau0, taum do not matter) under gravity (3;
   NULL = none); taum holds the armature's share, not the friction (spart_friction).  Needs
   nothing else. */
void spart_rnea(const spart_model *m, spart_data *d, const spart_state *s, const double *gravity,
                double *tau);

/* The same for n = 1 or 2 states at once (a trajectory's rows), in the two lanes of pairs of
   doubles: each state's results exactly those it has alone, s[k]'s forces in tau[k] (6+nv). */
void spart_rnea_pair(const spart_model *m, spart_data *d, int n, const spart_state *const s[],
                     const double *gravity, double *const tau[]);

/* The joint reaction wrenches of the last spart_rnea (or spart_floating_id) on d, one record
   (RigidBodyDynamics.jl's joint wrenches, the RNEA's backward-pass forces f_i): w ((nb-1) x 6,
   joint 1 first), the wrench the parent exerts on the child across joint i, [torque; force] in
   the inertial frame at the joint's position rJ (spart_fk's xposJ, not moved with a prismatic
   joint), s that record's state.  Its projection on the joint's motion subspace is the joint's
   taum less the armature's share (and the friction spart_friction adds).  Runs spart_fk (d's
   poses become this state's). */
void spart_joint_wrenches(const spart_model *m, spart_data *d, const spart_state *s, double *w);

/* Drive-train friction forces at the joint velocities um, damping um + Coulomb friction by the
   sign of um (0 at rest), added to tau (nv) times sign: inverse dynamics adds them (+1), forward
   dynamics takes them from the joint forces (-1); spart_rnea, spart_crba and spart_aba include
   the armature. */
void spart_friction(const spart_model *m, const double *um, double sign, double *tau);

/* Inverse dynamics of a floating base, tau0 = 0 (SPART Floating_ID): taum (nv) and u0dot (6)
   for the state of spart_rnea (its u0dot not read).  Returns 0 or -SPART_ENUM when the base
   inertia is singular (spu_pivot_ok against the base's spart_dof_scale; d->warn_body = 0).
   Needs nothing else. */
int spart_floating_id(const spart_model *m, spart_data *d, const spart_state *s,
                      const double *gravity, double *taum, double u0dot[6]);

/* Forward dynamics by articulated bodies (SPART FD, Featherstone's ABA in the joint frames F_i):
   udot = [u0dot; umdot] (6+nv) at the state s (its R0, qm, u0, um) for its forces tau0, taum and
   external wrenches wF (as spart_rnea's), under gravity (3; NULL = none), with the joints'
   armature (friction is the caller's: spart_friction).  fixed_base: the base does not move (u0
   is taken as 0; u0dot = 0).  Returns 0 or -SPART_ENUM when an articulated inertia is singular
   (spu_pivot_ok against spart_dof_scale; the body in d->warn_body).  Needs nothing else;
   overwrites d->f. */
int spart_aba(const spart_model *m, spart_data *d, const spart_state *s, int fixed_base,
              const double *gravity, double *udot);

/* spart_rnea_derivatives' flags (the values of spart_sim.h's SPART_FD_FIXED, SPART_FD_FRICTION) */
enum {
  SPART_ID_FIXED = 1,   /* the base does not move: the joints' rows and columns alone */
  SPART_ID_FRICTION = 2 /* with the drive train's friction (spart_friction) */
};

/* Derivatives of the inverse dynamics tau = ID(q, u, udot) of spart_rnea (and of spart_friction
   with SPART_ID_FRICTION) at the state s, under gravity (3; NULL = none), by recursion
   (Carpentier and Mansard, RSS 2018; not finite differences): out holds dtau_dq then dtau_du,
   each n x n row-major, n = 6 + nv (nv with SPART_ID_FIXED; a model with coupled mimic joints:
   the system's nvc, K' A K), entry (r, k) the derivative of force r along coordinate k.  The
   configuration is moved along the velocity coordinates: the base's attitude by a rotation in
   its own frame (u0's omega0), r0 by a displacement in the inertial frame (u0's r0dot), each
   joint by its degrees of freedom (a ball or floating joint: a rotation, a twist, in the frame
   after it).  The Coulomb friction's derivative is taken as 0, also at um = 0 where it has
   none.  Its scratch is d's. */
void spart_rnea_derivatives(const spart_model *m, spart_data *d, const spart_state *s, int flags,
                            const double *gravity, double *out);


/* ---------------------------------------------------------------------------------------------
 * inverse kinematics (spart_ik.c): the configuration (the joints' qm and, unless held, the base's
 * R0, r0) that meets targets on links and on the system's CoM
 */
enum {
  SPART_IK_LINK = 0, /* a point of a link at a position, and its frame's orientation if given */
  SPART_IK_COM,      /* the system's CoM at a position */
  SPART_IK_COM_XY    /* the system's CoM's x and y (inertial) at position[0], position[1]; or,
                        oriented, its components along R's first two columns at position's */
};

#define SPART_IK_TOLERANCE 1e-10 /* m and rad, unless the caller says */
#define SPART_IK_ITERATIONS 100  /* each attempt's iterations, unless the caller says */
#define SPART_IK_RESTARTS 50     /* random restarts after the first attempt, the commands' */

/* a target of spart_ik */
typedef struct spart_ik_target {
  int kind;           /* SPART_IK_* */
  int body;           /* SPART_IK_LINK: the link, 0..nb-1 */
  double point[3];    /* SPART_IK_LINK: the point in the link's URDF frame (spart_link_point) */
  double position[3]; /* where the point (the CoM) must be, inertial frame */
  int oriented;       /* SPART_IK_LINK: 1 when R is a target too; SPART_IK_COM_XY: 1 when its
                         x, y are along R's first two columns (a frame that is not level) */
  double R[9];        /* the link's URDF frame's orientation (spart_link_pose), row-major */
  double weight;      /* > 0: its rows' weight in the least squares (1 as a rule) */
  int root;           /* 1: position and R are given in the URDF root link's frame at the
                         state's base pose (a com_xy's x, y that frame's), as the problem's
                         root_frame gives every target; 0: in the inertial frame */
} spart_ik_target;

/* what spart_ik solves, how, and what it found */
typedef struct spart_ik_problem {
  int nt;                    /* in: targets */
  const spart_ik_target *t;  /* in: (nt) */
  int fixed_base;            /* in: the base is held at the state's R0, r0 */
  int root_frame;            /* in: every target is given in the URDF root link's frame at the
                                state's base pose (as a target's root says of one), and the
                                base's pose is returned in it */
  int from_middle;           /* in: the state's qm is no guess: start from the middle of each
                                limited joint's limits (the others as the state has them) */
  double tolerance;          /* in: the largest error allowed (m, rad); <= 0 or NaN:
                                SPART_IK_TOLERANCE */
  int max_iterations;        /* in: each attempt's; <= 0: SPART_IK_ITERATIONS */
  int restarts;              /* in: random restarts within the limits after the first attempt */
  uint64_t seed;             /* in: their generator's seed (spart_rng): the same, the same answer */
  double *work;              /* in: spart_ik_worksize(m, nt) doubles */
  double err[2];             /* out: the largest position (m) and orientation (rad) error */
  int attempts, iterations;  /* out: attempts made, and iterations in all */
} spart_ik_problem;

/* The errors of target t (in the inertial frame: its root is not read) at the configuration
   spart_fk left in d: err[0] its position's (m), err[1] its orientation's (rad; 0 when it has
   none), as spart_ik measures them. */
void spart_ik_target_error(const spart_model *m, const spart_data *d, const spart_ik_target *t,
                           double err[2]);

/* Doubles of work spart_ik needs for model m and nt targets. */
size_t spart_ik_worksize(const spart_model *m, int nt);

/* Inverse kinematics by damped least squares (Levenberg-Marquardt on the stacked errors of the
   targets, each a link point's position error and its frame's orientation error log(R_t R'),
   the CoM's position error, rows weighted by sqrt(weight), with Nielsen's update of the
   damping), from the state s (its R0, r0, qm: the first guess; with more unknowns than rows
   the damped steps stay near it), each step moving every joint on its manifold (local
   coordinates: a quaternion's exponential map; the base turned in its own frame) and kept
   within the joint limits (limited joints of one coordinate, a coupled mimic's through its
   leader, a sin-cos angle); then, until the targets are met within p->tolerance, up to
   p->restarts attempts from the joints at random within their limits (spart_random_state,
   seeded by p->seed). s gets the configuration that met the targets, or the best one found
   (least weighted squared error), its errors in p->err.  Returns 1 (met), 0 (not: s the best),
   or -SPART_EDATA (a target of no link or kind, a weight not > 0) with err filled.  Runs
   spart_fk (d is left at some configuration tried). */
int spart_ik(const spart_model *m, spart_data *d, spart_state *s, spart_ik_problem *p,
             spart_err *err);


/* ---------------------------------------------------------------------------------------------
 * contact statics (spart_contact.c): point contacts with polyhedral friction cones, as linear
 * programs solved by GLPK (Klampt's contact mechanics)
 */
typedef struct spart_contact {
  int body;         /* the link touched, 0..nb-1 */
  double point[3];  /* the point in the link's URDF frame: link i > 0, its joint frame F_i (the
                       frame of joint i, URDF's link frame); the base, its CoM frame */
  double normal[3]; /* unit normal, inertial frame, pointing into the robot */
  double mu;        /* friction coefficient >= 0; 0: frictionless */
} spart_contact;

#define SPART_CONTACT_EDGES 8     /* friction cone edges unless the caller says */
#define SPART_CONTACT_MAXEDGES 64 /* most edges a cone */

/* a stance (Klampt's): point contacts and the polyhedral cones their friction is taken in */
typedef struct spart_stance {
  int nc;                 /* contacts */
  const spart_contact *c; /* (nc) */
  int edges;              /* each cone's edges, 3 to SPART_CONTACT_MAXEDGES (SPART_CONTACT_EDGES
                             unless the caller says) */
} spart_stance;

/* Free what GLPK keeps between the programs below (its environment), for a program that is done
   with them (the next call starts it again). */
void spart_contact_release(void);

/* Positions x (nc x 3, from r0 like d->xpos) of the stance's contact points.  Needs spart_fk. */
void spart_contact_points(const spart_model *m, const spart_data *d, const spart_stance *st,
                          double *x);

/* Force closure: whether the stance's cones can resist any wrench, i.e. their edges' wrenches
   positively span R^6 (7 feasibility programs, one each for e_1..e_6 and -(e_1 + ... +
   e_6)).  Returns 1, 0, or -SPART_EDATA (no contacts, a number of edges out of range) /
   -SPART_ENOMEM / -SPART_ENUM with err filled.  Needs spart_fk. */
int spart_force_closure(const spart_model *m, const spart_data *d, const spart_stance *st,
                        spart_err *err);

/* The axes u, v of the plane orthogonal to gravity (3, nonzero) the support polygon is drawn
   in: u the inertial x axis projected on the plane (the y axis when |x . g| > 0.9 |g|), v =
   n x u with n = -g / |g| (up): x, y when gravity is along -z. */
void spart_support_axes(const double gravity[3], double u[3], double v[3]);

/* the support region of spart_support_polygon */
typedef struct spart_support {
  int cap;         /* in: the vertices vert may hold */
  double *vert;    /* in: (cap x 2); out: the polygon's vertices, counter-clockwise seen against
                      gravity, none repeated and none on an edge */
  double *half;    /* in: (max(cap, 4) x 3); out: its half-planes [a1, a2, b], a . x <= b,
                      |a| = 1 */
  int nvert;       /* vertices: 0, no CoM is held; 1 or 2, a point or a segment */
  int nhalf;       /* half-planes: one an edge, or 4 for a point or a segment (0 when empty) */
  int bounded;     /* 0: the contacts can hold the CoM arbitrarily far (no polygon, no margin) */
  int com_eq;      /* whether the robot's own CoM (d->com) is held */
  double com[2];   /* the CoM in the plane */
  double margin;   /* its signed distance to the polygon's boundary, < 0 outside (the distance to
                      the polygon), >= 0 inside (to the nearest edge); NAN with no polygon */
} spart_support;

/* The support polygon (Bretl and Lall's projection, as Klampt's supportPolygon): the CoM
   positions, in the plane of spart_support_axes, at which contact forces in the stance's cones
   hold the robot as one rigid body under gravity (3, nonzero), found by linear programs for
   support points until no point lies beyond any edge of the polygon; and whether the robot's
   own CoM is held (one more program), into sp.  Returns 0, or -SPART_EDATA / -SPART_ENOMEM /
   -SPART_ENUM (more than sp->cap vertices, or GLPK failed) with err filled.  Needs spart_fk. */
int spart_support_polygon(const spart_model *m, const spart_data *d, const spart_stance *st,
                          const double gravity[3], spart_support *sp, spart_err *err);

/* the equilibrium spart_contact_statics looks for, and what it finds */
typedef struct spart_statics {
  int fixed_base;     /* in: the base's rows are left to the base's reaction */
  double max_torque;  /* in: > 0, every |taum_k| at most this; else each joint's effort limit
                         (jnt_effort, when not 0) */
  double *taum;       /* in: room for nv; out: the joint torques */
  double *f;          /* in: room for nc x 3; out: the contact forces, inertial frame */
  const char *reason; /* out: why no equilibrium exists (0 returned), else NULL */
} spart_statics;

/* Joint torques taum (nv) and contact forces f (nc x 3) with G = [0; taum] + sum J_i' f_i (J_i
   the linear rows of the contact point's Jacobian), every f_i in its polyhedral cone of the
   stance, the torques within eq's bound (max_torque, or the effort limits), minimising max_k
   |taum_k| (the max-norm, a linear program; solved again with the effort limits as bounds when
   the torques found without them pass one); G (6 + nv) is the generalized force the motion
   needs without contacts (spart_rnea, spart_friction).  Returns 1 (found: eq's taum and f), 0
   (none exists: eq->reason says why; taum and f hold no answer), or -SPART_EDATA /
   -SPART_ENOMEM / -SPART_ENUM with err filled.  Needs spart_fk. */
int spart_contact_statics(const spart_model *m, const spart_data *d, const spart_stance *st,
                          const double *G, spart_statics *eq, spart_err *err);

#ifdef __cplusplus
}
#endif

#endif
