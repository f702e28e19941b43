/* spart_joint.c -- the joint model, once (Featherstone's jcalc, Pinocchio's JointModel): every
 * joint kind with its sizes nq and nv, its transform from q, its motion subspace S, its
 * velocity-product term and the map between qdot and v; the per-dof data the algorithms loop
 * over (spart_joint_setup) and the joint constants that do not depend on q
 * (spart_joint_constants).
 *
 * The frame of joint i, F_i (Featherstone's), is the joint's own frame turned so that its axis is
 * z and moved with the joint.  In F_i a degree of freedom is a unit column S_v = e_k
 * (m->dof_axis): a rotation about z (revolute, k = 2) or a translation along it (prismatic,
 * k = 5); but for a helical joint's, a turn about z moving h = jnt_pitch / (2 pi) along it per
 * radian, S_v = e_2 + h e_5 (dof_axis -1: the algorithms' general column, dof_S).  The
 * transform of F_i in its parent's is the constant part T, r (at q = 0) followed by one screw
 * per coordinate about and along z (m->dof_screw), so that the algorithms apply any kind with
 * the same code: loops over a joint's coordinates and degrees of freedom, never a branch on its
 * kind.  A kind whose configuration is not one screw per
 * coordinate (the quaternion of a ball or free joint, nq != nv) adds its own transform here. */
#include <math.h>
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"


/* the kinds' own motions, applied to a frame Q (9) at rho (3) on its right, in place (the
   joint transform is T, r then the motion) */

/* Q = Q R(q) */
static void turn_quat(double *restrict Q, const double *q) {
  double R[9], X[9];
  spart_quat_rot(R, q); /* turns the frame after the joint into the one before */
  spu_mulmm3(X, Q, R);
  memcpy(Q, X, sizeof X);
}


/* ball: Q R(q) */
static void ball_move(const double *q, double *restrict Q, double *restrict rho) {
  (void)rho;
  turn_quat(Q, q);
}


/* floating: the position p = q[4..6] of the frame after in Q, then Q R(q) */
static void floating_move(const double *q, double *restrict Q, double *restrict rho) {
  double p[3];
  spu_mulmv3(p, Q, q + 4);
  for (int k = 0; k < 3; k++) {
    rho[k] += p[k];
  }
  turn_quat(Q, q);
}


/* the rotation about Q's z whose sine and cosine are s, c */
static void turn_z(double *restrict Q, double s, double c) {
  for (int l = 0; l < 9; l += 3) {
    double x0 = Q[l], y0 = Q[l + 1];
    Q[l] = c * x0 + s * y0;
    Q[l + 1] = c * y0 - s * x0;
  }
}


/* sin-cos revolute: the rotation about Q's z whose sine and cosine are q[0], q[1] (as given:
   the readers normalise them) */
static void sincos_move(const double *q, double *restrict Q, double *restrict rho) {
  (void)rho;
  turn_z(Q, q[0], q[1]);
}


/* the unit quaternion [w x y z] of the stereographic projection p (3) of one (modified
   Rodrigues parameters): w = (1 - |p|^2) / (1 + |p|^2), [x y z] = 2 p / (1 + |p|^2) */
static void spquat_quat(const double *p, double *qt) {
  double n = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
  qt[0] = (1 - n) / (1 + n);
  for (int k = 0; k < 3; k++) {
    qt[1 + k] = 2 * p[k] / (1 + n);
  }
}


/* spquat: the position p = q[3..5] of the frame after in Q, then Q R(quaternion of q[0..2]) */
static void spquat_move(const double *q, double *restrict Q, double *restrict rho) {
  double p[3], qt[4];
  spu_mulmv3(p, Q, q + 3);
  for (int k = 0; k < 3; k++) {
    rho[k] += p[k];
  }
  spquat_quat(q, qt);
  turn_quat(Q, qt);
}


/* planar: the translation x, y along Q's x and y, then the rotation theta about its z */
static void planar_move(const double *q, double *restrict Q, double *restrict rho) {
  double s, c;
  spu_sincos(q[2], &s, &c);
  for (int l = 0; l < 9; l += 3) {
    double x0 = Q[l], y0 = Q[l + 1];
    rho[l / 3] += q[0] * x0 + q[1] * y0;
    Q[l] = c * x0 + s * y0;
    Q[l + 1] = c * y0 - s * x0;
  }
}


/* qdot of a quaternion q for the angular velocity w in the frame after: qdot = q (0, w) / 2 */
static void quat_rate(const double *q, const double *w, double *qd) {
  const double r[4] = {0 - (q[1] * w[0] + q[2] * w[1] + q[3] * w[2]),
                 q[0] * w[0] + q[2] * w[2] - q[3] * w[1],
                 q[0] * w[1] + q[3] * w[0] - q[1] * w[2],
                 q[0] * w[2] + q[1] * w[1] - q[2] * w[0]};
  for (int k = 0; k < 4; k++) {
    qd[k] = r[k] / 2;
  }
}


/* the inverse on the tangent space of a unit q: w = 2 vec(conj(q) qdot) */
static void quat_omega(const double *q, const double *qd, double *w) {
  const double r[3] = {q[0] * qd[1] - q[1] * qd[0] - q[2] * qd[3] + q[3] * qd[2],
                 q[0] * qd[2] - q[2] * qd[0] - q[3] * qd[1] + q[1] * qd[3],
                 q[0] * qd[3] - q[3] * qd[0] - q[1] * qd[2] + q[2] * qd[1]};
  for (int k = 0; k < 3; k++) {
    w[k] = 2 * r[k];
  }
}


/* the maps between qdot and v of the kinds whose v is not qdot */
static void ball_qdot(const double *q, const double *v, double *qd) {
  quat_rate(q, v, qd);
}


static void ball_v(const double *q, const double *qd, double *v) {
  quat_omega(q, qd, v);
}


static void floating_qdot(const double *q, const double *v, double *qd) {
  double R[9], p[3];
  spart_quat_rot(R, q);
  spu_mulmv3(p, R, v + 3);
  quat_rate(q, v, qd);
  memcpy(qd + 4, p, sizeof p);
}


static void floating_v(const double *q, const double *qd, double *v) {
  double R[9], p[3];
  spart_quat_rot(R, q);
  spu_mulmtv3(p, R, qd + 4);
  quat_omega(q, qd, v);
  memcpy(v + 3, p, sizeof p);
}


static void planar_qdot(const double *q, const double *v, double *qd) {
  double s, c, vx = v[0], vy = v[1];
  spu_sincos(q[2], &s, &c);
  qd[0] = c * vx - s * vy;
  qd[1] = s * vx + c * vy;
  qd[2] = v[2];
}


static void planar_v(const double *q, const double *qd, double *v) {
  double s, c, x = qd[0], y = qd[1];
  spu_sincos(q[2], &s, &c);
  v[0] = c * x + s * y;
  v[1] = c * y - s * x;
  v[2] = qd[2];
}


/* sin-cos revolute (RigidBodyDynamics.jl's SinCosRevolute): qdot = [c, -s] v, v = c sdot -
   s cdot */
static void sincos_qdot(const double *q, const double *v, double *qd) {
  double s = q[0], c = q[1], w = v[0];
  qd[0] = c * w;
  qd[1] = -s * w;
}


static void sincos_v(const double *q, const double *qd, double *v) {
  v[0] = q[1] * qd[0] - q[0] * qd[1];
}


/* the stereographic projection p of the quaternion moving at the angular velocity w in the
   frame after (from qdot = q (0, w) / 2): pdot = ((1 - |p|^2) w + 2 p x w + 2 (p.w) p) / 4 */
static void spquat_rate(const double *p, const double *w, double *pd) {
  double n = spu_dot3(p, p), pw = spu_dot3(p, w), c[3];
  spu_cross(c, p, w);
  for (int k = 0; k < 3; k++) {
    pd[k] = ((1 - n) * w[k] + 2 * c[k] + 2 * pw * p[k]) / 4;
  }
}


/* its inverse: w = 4 ((1 - |p|^2) pdot - 2 p x pdot + 2 (p.pdot) p) / (1 + |p|^2)^2 (the map
   above is (1 + |p|^2) / 4 times a rotation) */
static void spquat_omega(const double *p, const double *pd, double *w) {
  double n = spu_dot3(p, p), pp = spu_dot3(p, pd), c[3], f = 4 / ((1 + n) * (1 + n));
  spu_cross(c, p, pd);
  for (int k = 0; k < 3; k++) {
    w[k] = f * ((1 - n) * pd[k] - 2 * c[k] + 2 * pp * p[k]);
  }
}


/* spquat: as floating, the attitude's rate by the projection's map, the position's R v_lin */
static void spquat_qdot(const double *q, const double *v, double *qd) {
  double R[9], qt[4];
  spquat_quat(q, qt);
  spart_quat_rot(R, qt);
  spquat_rate(q, v, qd);
  spu_mulmv3(qd + 3, R, v + 3);
}


static void spquat_v(const double *q, const double *qd, double *v) {
  double R[9], qt[4];
  spquat_quat(q, qt);
  spart_quat_rot(R, qt);
  spquat_omega(q, qd, v);
  spu_mulmtv3(v + 3, R, qd + 3);
}


/* the joints on a manifold (a quaternion): local coordinates xi around q.  A ball's q exp(xi),
   exp(xi) the quaternion of the turn by |xi| about xi, moving at dexp^-1(xi) w for its angular
   velocity w in the frame after (as the base's R0 exp([theta]x)); a floating joint's the same
   for its quaternion and its position p + dp, dp moving at the linear velocity turned into the
   frame before, R(q exp(theta)) v */
static void quat_exp_mul(const double *q, const double *xi, double *out) {
  double t2 = xi[0] * xi[0] + xi[1] * xi[1] + xi[2] * xi[2], t = sqrt(t2);
  /* sin(t/2)/t, its series near 0 */
  double s = t > 1e-4 ? sin(t / 2) / t : 0.5 - t2 / 48 + t2 * t2 / 3840;
  const double e[4] = {cos(t / 2), s * xi[0], s * xi[1], s * xi[2]};
  const double r[4] = {q[0] * e[0] - q[1] * e[1] - q[2] * e[2] - q[3] * e[3],
                       q[0] * e[1] + q[1] * e[0] + q[2] * e[3] - q[3] * e[2],
                       q[0] * e[2] - q[1] * e[3] + q[2] * e[0] + q[3] * e[1],
                       q[0] * e[3] + q[1] * e[2] - q[2] * e[1] + q[3] * e[0]};
  double n = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
  for (int k = 0; k < 4; k++) {
    out[k] = r[k] / n;
  }
}


static void ball_integrate(const double *q, const double *xi, double *out) {
  quat_exp_mul(q, xi, out);
}


static void ball_rate(const double *q, const double *xi, const double *v, double *xid) {
  (void)q;
  spu_dexpinv3(xid, xi, v);
}


static void floating_integrate(const double *q, const double *xi, double *out) {
  quat_exp_mul(q, xi, out);
  for (int k = 0; k < 3; k++) {
    out[4 + k] = q[4 + k] + xi[3 + k];
  }
}


static void floating_rate(const double *q, const double *xi, const double *v, double *xid) {
  double R[9], E[9], t[3];
  spu_dexpinv3(xid, xi, v);
  spart_quat_rot(R, q);
  spu_expso3(E, xi);
  spu_mulmv3(t, E, v + 3);
  spu_mulmv3(xid + 3, R, t);
}


/* sin-cos revolute: the angle turned by xi (RigidBodyDynamics.jl's global_coordinates: the
   pair stays on the circle), xi moving at v */
static void sincos_integrate(const double *q, const double *xi, double *out) {
  double s, c;
  spu_sincos(xi[0], &s, &c);
  out[0] = q[0] * c + q[1] * s;
  out[1] = q[1] * c - q[0] * s;
}


static void sincos_local_rate(const double *q, const double *xi, const double *v, double *xid) {
  (void)q;
  (void)xi;
  xid[0] = v[0];
}


/* spquat: a floating joint's local coordinates on its quaternion q exp(xi), projected back
   (continuous in xi: the projection's pole, the turn by 2 pi, is not reached by a step) */
static void spquat_integrate(const double *q, const double *xi, double *out) {
  double qt[4], r[4];
  spquat_quat(q, qt);
  quat_exp_mul(qt, xi, r);
  for (int k = 0; k < 3; k++) {
    out[k] = r[1 + k] / (1 + r[0]);
    out[3 + k] = q[3 + k] + xi[3 + k];
  }
}


static void spquat_local_rate(const double *q, const double *xi, const double *v, double *xid) {
  double qf[7];
  spquat_quat(q, qf);
  floating_rate(qf, xi, v, xid);
}


/* the inverse of the exponential map: xi (3) with q exp(xi) = r, the shorter way round (the
   rotation from q to r in the frame after q) */
static void quat_log_between(const double *q, const double *r, double *xi) {
  /* e = conj(q) r */
  double e[4] = {q[0] * r[0] + q[1] * r[1] + q[2] * r[2] + q[3] * r[3],
                 q[0] * r[1] - q[1] * r[0] - q[2] * r[3] + q[3] * r[2],
                 q[0] * r[2] - q[2] * r[0] - q[3] * r[1] + q[1] * r[3],
                 q[0] * r[3] - q[3] * r[0] - q[1] * r[2] + q[2] * r[1]};
  if (e[0] < 0) {
    for (int k = 0; k < 4; k++) {
      e[k] = -e[k];
    }
  }
  double n = sqrt(e[1] * e[1] + e[2] * e[2] + e[3] * e[3]);
  double f = n > 1e-8 ? 2 * atan2(n, e[0]) / n : 2 / e[0];
  for (int k = 0; k < 3; k++) {
    xi[k] = f * e[k + 1];
  }
}


/* a ball's local coordinates of r around q (ball_integrate's inverse) */
static void ball_difference(const double *q, const double *r, double *xi) {
  quat_log_between(q, r, xi);
}


/* a floating joint's: the turn, then the position's move in the frame before */
static void floating_difference(const double *q, const double *r, double *xi) {
  quat_log_between(q, r, xi);
  for (int k = 0; k < 3; k++) {
    xi[3 + k] = r[4 + k] - q[4 + k];
  }
}


/* the velocity v at q whose local rate at xi = 0 is xidot (floating_rate's inverse there): the
   position's rate turned into the frame after */
static void floating_v_of_local(const double *q, const double *xid, double *v) {
  double R[9], p[3];
  spart_quat_rot(R, q);
  spu_mulmtv3(p, R, xid + 3);
  memmove(v, xid, 3 * sizeof(double));
  memcpy(v + 3, p, sizeof p);
}


/* a sin-cos pair's local coordinate of r around q (sincos_integrate's inverse): the angle from
   q to r */
static void sincos_difference(const double *q, const double *r, double *xi) {
  xi[0] = atan2(r[0] * q[1] - r[1] * q[0], r[1] * q[1] + r[0] * q[0]);
}


/* an spquat joint's configuration as a floating joint's (quaternion, then position) */
static void spquat_floating(const double *q, double *qf) {
  spquat_quat(q, qf);
  memcpy(qf + 4, q + 3, 3 * sizeof(double));
}


/* an spquat joint's local coordinates of r around q: those of the floating joints they are */
static void spquat_difference(const double *q, const double *r, double *xi) {
  double qf[7], rf[7];
  spquat_floating(q, qf);
  spquat_floating(r, rf);
  floating_difference(qf, rf, xi);
}


static void spquat_v_of_local(const double *q, const double *xid, double *v) {
  double qf[7];
  spquat_floating(q, qf);
  floating_v_of_local(qf, xid, v);
}


typedef void joint_xform(const double *q, double *restrict Q, double *restrict rho);
typedef void joint_map(const double *q, const double *in, double *out);
typedef void joint_rate(const double *q, const double *xi, const double *v, double *xidot);

/* the kinds, indexed by SPART_JNT_*: coordinates, degrees of freedom, and for each of those the
   column of S in F_i (dof_axis: 0..2 a rotation about, 3..5 a translation along an axis of F_i)
   and its screw (rotation, translation); whether F_i is turned so that the joint axis is its z
   (the kinds without an axis leave F_i the joint frame); the motion when it is not one screw
   about and along z a coordinate (NULL), the maps qdot <-> v when v is not qdot (NULL), the
   coordinates that are a unit vector (unit: where it starts in q, its length, 0 none, and the
   one of them that is 1 at the zero configuration: a quaternion's w, a sin-cos pair's cos),
   and the local coordinates of a configuration space that is not a vector space with their
   rate (NULL: q + xi, at the rate qdot of v), and their inverse: the local coordinates of a
   configuration around another (NULL: r - q) and the velocity of a local rate at xi = 0 (NULL:
   the local rate is v, or v of qdot where the kind has no local coordinates); pitched: the
   translation along the axis per unit of its one screw is the joint's own, jnt_pitch / (2 pi)
   (a helical joint: S = e_2 + h e_5, not one unit column, dof_axis -1) */
static const struct {
  const char *name;
  int nq, nv;
  int axis[6];
  double screw[6][2];
  int has_axis;
  joint_xform *move;
  joint_map *qdot_of_v, *v_of_qdot;
  int unit[3];
  joint_map *integrate;
  joint_rate *local_rate;
  joint_map *difference, *v_of_local;
  int pitched;
} kinds[] = {
    [SPART_JNT_FIXED] = {.name = "fixed"},
    [SPART_JNT_REVOLUTE] = {.name = "revolute", .nq = 1, .nv = 1, .axis = {2},
                            .screw = {{1, 0}}, .has_axis = 1},
    [SPART_JNT_PRISMATIC] = {.name = "prismatic", .nq = 1, .nv = 1, .axis = {5},
                             .screw = {{0, 1}}, .has_axis = 1},
    [SPART_JNT_FLOATING] = {.name = "floating", .nq = 7, .nv = 6, .axis = {0, 1, 2, 3, 4, 5},
                            .screw = {{1, 0}, {1, 0}, {1, 0}, {0, 1}, {0, 1}, {0, 1}},
                            .move = floating_move, .qdot_of_v = floating_qdot,
                            .v_of_qdot = floating_v, .unit = {0, 4, 0},
                            .integrate = floating_integrate, .local_rate = floating_rate,
                            .difference = floating_difference,
                            .v_of_local = floating_v_of_local},
    [SPART_JNT_BALL] = {.name = "ball", .nq = 4, .nv = 3, .axis = {0, 1, 2},
                        .screw = {{1, 0}, {1, 0}, {1, 0}}, .move = ball_move,
                        .qdot_of_v = ball_qdot, .v_of_qdot = ball_v, .unit = {0, 4, 0},
                        .integrate = ball_integrate, .local_rate = ball_rate,
                        .difference = ball_difference},
    [SPART_JNT_PLANAR] = {.name = "planar", .nq = 3, .nv = 3, .axis = {3, 4, 2},
                          .screw = {{0, 1}, {0, 1}, {1, 0}}, .has_axis = 1,
                          .move = planar_move, .qdot_of_v = planar_qdot,
                          .v_of_qdot = planar_v},
    [SPART_JNT_SINCOS] = {.name = "sincos", .nq = 2, .nv = 1, .axis = {2}, .screw = {{1, 0}},
                          .has_axis = 1, .move = sincos_move, .qdot_of_v = sincos_qdot,
                          .v_of_qdot = sincos_v, .unit = {0, 2, 1},
                          .integrate = sincos_integrate, .local_rate = sincos_local_rate,
                          .difference = sincos_difference},
    [SPART_JNT_SPQUAT] = {.name = "spquat", .nq = 6, .nv = 6, .axis = {0, 1, 2, 3, 4, 5},
                          .screw = {{1, 0}, {1, 0}, {1, 0}, {0, 1}, {0, 1}, {0, 1}},
                          .move = spquat_move, .qdot_of_v = spquat_qdot, .v_of_qdot = spquat_v,
                          .integrate = spquat_integrate, .local_rate = spquat_local_rate,
                          .difference = spquat_difference, .v_of_local = spquat_v_of_local},
    [SPART_JNT_HELICAL] = {.name = "helical", .nq = 1, .nv = 1, .axis = {2}, .screw = {{1, 0}},
                           .has_axis = 1, .pitched = 1},
};
#define NKIND ((int)(sizeof kinds / sizeof kinds[0]))


int spart_joint_nq(int type) {
  return type >= 0 && type < NKIND ? kinds[type].nq : -1;
}


int spart_joint_nv(int type) {
  return type >= 0 && type < NKIND ? kinds[type].nv : -1;
}


const char *spart_joint_name(int type) {
  return type >= 0 && type < NKIND ? kinds[type].name : "unknown";
}


int spart_joint_kinds(void) {
  return NKIND;
}


int spart_joint_has_axis(int type) {
  return type >= 0 && type < NKIND && kinds[type].has_axis && kinds[type].nv > 0;
}


int spart_joint_pitched(int type) {
  return type >= 0 && type < NKIND && kinds[type].pitched;
}


int spart_joint_rotates(int type) {
  for (int k = 0; type >= 0 && type < NKIND && k < kinds[type].nv; k++) {
    if (kinds[type].screw[k][0] != 0) {
      return 1;
    }
  }
  return 0;
}


void spart_joint_setup(spart_model *m) {
  int nv = 0;
  m->jnt_nq[0] = m->jnt_nv[0] = 0;
  m->jnt_vadr[0] = -1;
  m->jnt_zaxis[0] = -1;
  for (int i = 1; i < m->nb; i++) {
    int t = m->jnt_type[i], a = kinds[t].axis[0];
    m->jnt_nq[i] = kinds[t].nq;
    m->jnt_nv[i] = kinds[t].nv;
    m->jnt_vadr[i] = kinds[t].nv > 0 ? nv : -1;
    m->jnt_zaxis[i] = -1;
    for (int k = 0; k < kinds[t].nv; k++, nv++) {
      double *S = m->dof_S + 6 * nv, *h = m->dof_screw + 2 * nv;
      int ax = kinds[t].axis[k];
      h[0] = kinds[t].screw[k][0];
      h[1] = kinds[t].screw[k][1];
      m->dof_body[nv] = i;
      memset(S, 0, 6 * sizeof(double));
      S[ax] = 1;
      if (kinds[t].pitched) { /* a screw about z moving h[1] along it per radian */
        h[1] = m->jnt_pitch[i] / (2 * 3.14159265358979323846);
        S[5] = h[1];
      }
      /* S one unit column e_ax, or (a helical joint's) not: its column in dof_S alone */
      m->dof_axis[nv] = S[ax] == 1 && (ax == 5 || S[5] == 0) ? ax : -1;
    }
    /* one screw about z (S = e_2) or along it (S = e_5) for its one coordinate */
    int one = kinds[t].nq == 1 && kinds[t].nv == 1 && !kinds[t].move && kinds[t].has_axis;
    const double *h = one ? m->dof_screw + 2 * m->jnt_vadr[i] : NULL;
    m->jnt_zaxis[i] = one && a == 2 && h[0] == 1 && h[1] == 0   ? 2
                      : one && a == 5 && h[0] == 0 && h[1] == 1 ? 5
                                                                : -1;
  }
  m->nv = nv;

  /* the degrees of freedom depth-first (parents before children, children in body order):
     hi holds each subtree's count, then a cursor at the next free place in the body's block,
     which ends at the block's end once every child has taken its place */
  m->jnt_up[0] = 0;
  for (int i = 1; i < m->nb; i++) {
    int p = m->body_parent[i];
    m->jnt_up[i] = p == 0 || m->jnt_nv[p] > 0 ? p : m->jnt_up[p];
  }
  int *sub = m->jnt_sub;
  for (int i = 0; i < m->nb; i++) {
    sub[2 * i + 1] = m->jnt_nv[i];
  }
  for (int i = m->nb - 1; i > 0; i--) {
    sub[2 * m->body_parent[i] + 1] += sub[2 * i + 1];
  }
  sub[0] = 0;
  sub[1] = m->jnt_nv[0];
  for (int i = 1; i < m->nb; i++) {
    int p = m->body_parent[i], count = sub[2 * i + 1];
    sub[2 * i] = sub[2 * p + 1];
    sub[2 * p + 1] += count;
    sub[2 * i + 1] = sub[2 * i] + m->jnt_nv[i];
    for (int k = 0; k < m->jnt_nv[i]; k++) {
      m->dof_tree[sub[2 * i] + k] = m->jnt_vadr[i] + k;
    }
  }
}


int spart_joint_retype_only(spart_model *m, int from, int to, spart_err *err) {
  static const int pairs[][2] = {{SPART_JNT_REVOLUTE, SPART_JNT_SINCOS},
                                 {SPART_JNT_FLOATING, SPART_JNT_SPQUAT}};
  int ok = 0, nq = 0;
  for (int k = 0; k < 2; k++) {
    ok |= (from == pairs[k][0] && to == pairs[k][1]) || (from == pairs[k][1] && to == pairs[k][0]);
  }
  if (!ok) {
    return spart_err_set(err, SPART_EDATA, 0, "a %s joint cannot be made a %s joint",
                         spart_joint_name(from), spart_joint_name(to));
  }
  for (int i = 1; i < m->nb; i++) {
    m->jnt_type[i] = m->jnt_type[i] == from ? to : m->jnt_type[i];
    m->jnt_qadr[i] = kinds[m->jnt_type[i]].nq > 0 ? nq : -1;
    nq += kinds[m->jnt_type[i]].nq;
  }
  return 0;
}


/* joint i's own motion at its coordinates q + a applied to the frame T (9) at r (3) on its right,
   into Q, rho (T, r may be Q, rho: in place): the kind's own, or one screw about and along the
   frame's z per coordinate, each read from the frame before it (from T, r for the first: no
   frame written then read back through memory) */
static void joint_move(const spart_model *m, int i, const double *q, int a, const double *T,
                       const double *r, double *Q, double *rho) {
  joint_xform *f = kinds[m->jnt_type[i]].move;
  if (f || m->jnt_nq[i] == 0) {
    if (Q != T) {
      memcpy(Q, T, 9 * sizeof(double));
      memcpy(rho, r, 3 * sizeof(double));
    }
    if (f) {
      f(q + a, Q, rho);
    }
    return;
  }
  for (int k = 0; k < m->jnt_nq[i]; k++) {
    const double *h = m->dof_screw + 2 * (m->jnt_vadr[i] + k);
    double s, c, x = h[1] * q[a + k];
    spu_sincos(h[0] * q[a + k], &s, &c);
    for (int l = 0; l < 3; l++) {
      double x0 = T[3 * l], y0 = T[3 * l + 1], z0 = T[3 * l + 2];
      Q[3 * l] = c * x0 + s * y0;
      Q[3 * l + 1] = c * y0 - s * x0;
      Q[3 * l + 2] = z0;
      rho[l] = r[l] + x * z0;
    }
    T = Q;
    r = rho;
  }
}


/* the transform of joint i: the constant T, r then its motion, the joint's coordinates at
   q + a */
static void joint_transform(const spart_model *m, int i, const double *q, int a, const double *T,
                            const double *r, double *restrict Q, double *restrict rho) {
  joint_move(m, i, q, a, T, r, Q, rho);
}


void spart_joint_move(const spart_model *m, int i, const double *qm, double Q[9], double rho[3]) {
  joint_move(m, i, qm, m->jnt_qadr[i], Q, rho, Q, rho);
}


void spart_joint_transform(const spart_model *m, int i, const double *q, const double Tr[12],
                           double Q[9], double rho[3]) {
  joint_transform(m, i, q, 0, Tr, Tr + 9, Q, rho);
}


/* the transform of a joint of one screw about and along z (m->jnt_zaxis), h its rotation and
   translation per unit of q: joint_move's loop for its one coordinate, each row's x and y as a
   pair (GCC's vector types: one SSE2 instruction does both) */
static void one_screw(const double *h, double q, const double *restrict T,
                      const double *restrict r, double *restrict Q, double *restrict rho) {
  double s, c, x = h[1] * q;
  spu_sincos(h[0] * q, &s, &c);
  v2 cc = {c, c}, sn = {s, -s};
  for (int l = 0; l < 3; l++) {
    v2 xy, yx;
    memcpy(&xy, T + 3 * l, sizeof xy);
    yx = (v2){xy[1], xy[0]};
    xy = cc * xy + sn * yx; /* c x0 + s y0, c y0 - s x0 */
    memcpy(Q + 3 * l, &xy, sizeof xy);
    Q[3 * l + 2] = T[3 * l + 2];
    rho[l] = r[l] + x * T[3 * l + 2];
  }
}


void spart_xup(const spart_model *m, spart_data *d, const double *qm) {
  const double *jc = d->own_->jc;
  for (int i = 1; i < m->nb; i++) {
    const double *c = jc + SPART_JC * i;
    if (m->jnt_zaxis[i] >= 0) {
      one_screw(m->dof_screw + 2 * m->jnt_vadr[i], qm[m->jnt_qadr[i]], c + SPART_JC_T,
                c + SPART_JC_R, d->Xrot + 9 * i, d->Xpos + 3 * i);
    } else {
      joint_transform(m, i, qm, m->jnt_qadr[i], c + SPART_JC_T, c + SPART_JC_R,
                      d->Xrot + 9 * i, d->Xpos + 3 * i);
    }
  }
}


void spart_joint_motion(const spart_model *m, int i, double *S) {
  int nv = m->jnt_nv[i];
  for (int k = 0; k < nv; k++) {
    for (int r = 0; r < 6; r++) {
      S[r * nv + k] = m->dof_S[6 * (m->jnt_vadr[i] + k) + r];
    }
  }
}


void spart_joint_bias(const spart_model *m, int i, const double *q, const double *v, double c[6]) {
  /* S is constant in F_i for every kind here (v is the motion of the frame after the joint in
     its own axes): Sdot v = 0 */
  (void)m;
  (void)i;
  (void)q;
  (void)v;
  memset(c, 0, 6 * sizeof(double));
}


void spart_joint_v_of_qdot(const spart_model *m, int i, const double *q, const double *qdot,
                           double *v) {
  joint_map *f = kinds[m->jnt_type[i]].v_of_qdot;
  if (f) {
    f(q, qdot, v);
  } else {
    memmove(v, qdot, (size_t)m->jnt_nv[i] * sizeof(double));
  }
}


void spart_joint_qdot_of_v(const spart_model *m, int i, const double *q, const double *v,
                           double *qdot) {
  joint_map *f = kinds[m->jnt_type[i]].qdot_of_v;
  if (f) {
    f(q, v, qdot);
  } else {
    memmove(qdot, v, (size_t)m->jnt_nq[i] * sizeof(double));
  }
}


int spart_joint_rates_differ(const spart_model *m) {
  for (int i = 1; i < m->nb; i++) {
    if (kinds[m->jnt_type[i]].qdot_of_v) {
      return 1;
    }
  }
  return 0;
}


void spart_qdot_of_v(const spart_model *m, const double *qm, const double *um, double *qmdot) {
  for (int i = 1; i < m->nb; i++) {
    if (m->jnt_nq[i] > 0) {
      spart_joint_qdot_of_v(m, i, qm + m->jnt_qadr[i], um + m->jnt_vadr[i],
                            qmdot + m->jnt_qadr[i]);
    }
  }
}


int spart_joint_normalize(const spart_model *m, double *qm, double tol, spart_err *err) {
  for (int i = 1; i < m->nb; i++) {
    const int *u = kinds[m->jnt_type[i]].unit;
    double *q = qm + m->jnt_qadr[i] + u[0], n = 0;
    for (int c = 0; c < u[1]; c++) {
      n += q[c] * q[c];
    }
    n = sqrt(n);
    if (u[1] > 0 && !(fabs(n - 1) <= tol)) {
      char b[64];
      return spart_err_set(err, SPART_EDATA, 0,
                           "joint '%s': %s of norm %.17g, expected 1 (within %g)",
                           spart_name_or(b, sizeof b, m->jnt_name[i], 'J', i),
                           u[1] == 4 ? "quaternion" : "[sin, cos]", n, tol);
    }
    for (int c = 0; c < u[1]; c++) {
      q[c] /= n;
    }
  }
  return 0;
}


int spart_joint_unit(const spart_model *m, double *qm, spart_err *err) {
  for (int i = 1; i < m->nb; i++) {
    const int *u = kinds[m->jnt_type[i]].unit;
    double *q = qm + m->jnt_qadr[i] + u[0];
    if (u[1] > 0 && spu_unit(q, u[1]) != 0) {
      char b[64];
      int zero = 1;
      for (int c = 0; c < u[1]; c++) {
        zero = zero && q[c] == 0;
      }
      return spart_err_set(err, SPART_EDATA, 0, "joint '%s': %s %s: no direction to normalise to",
                           spart_name_or(b, sizeof b, m->jnt_name[i], 'J', i),
                           u[1] == 4 ? "quaternion" : "[sin, cos] pair",
                           zero ? "of norm 0" : "not finite");
    }
  }
  return 0;
}


int spart_joint_rates_tangent(const spart_model *m, const double *qm, const double *qmdot,
                               double tol, spart_err *err) {
  for (int i = 1; i < m->nb; i++) {
    const int *u = kinds[m->jnt_type[i]].unit;
    const double *q = qm + m->jnt_qadr[i] + u[0], *qd = qmdot + m->jnt_qadr[i] + u[0];
    double n = 0, dot = 0, size = 0;
    for (int c = 0; c < u[1]; c++) {
      n += q[c] * q[c];
      dot += q[c] * qd[c];
      size += qd[c] * qd[c];
    }
    if (u[1] == 0) {
      continue;
    }
    double along = dot / sqrt(n);
    size = sqrt(size);
    if (!(fabs(along) <= tol * size)) {
      char b[64], ba[32], bs[32];
      ba[spu_dtoa(ba, along)] = 0;
      bs[spu_dtoa(bs, size)] = 0;
      return spart_err_set(err, SPART_EDATA, 0,
                           "joint '%s': qmdot has a part %s along the %s (of %s): the rate of a "
                           "unit %s is tangent to it (within %g)",
                           spart_name_or(b, sizeof b, m->jnt_name[i], 'J', i), ba,
                           u[1] == 4 ? "quaternion" : "[sin, cos] pair", bs,
                           u[1] == 4 ? "quaternion" : "pair", tol);
    }
  }
  return 0;
}


void spart_joint_clamp(const spart_model *m, int i, const double lim[2], double *q) {
  const int *u = kinds[m->jnt_type[i]].unit;
  if (m->jnt_nq[i] == 1) {
    q[0] = q[0] < lim[0] ? lim[0] : q[0] > lim[1] ? lim[1] : q[0];
  } else if (u[1] == 2) { /* a sin-cos pair: its angle */
    double a = atan2(q[u[0]], q[u[0] + 1]);
    if (a < lim[0] || a > lim[1]) {
      spu_sincos(a < lim[0] ? lim[0] : lim[1], q + u[0], q + u[0] + 1);
    }
  }
}


void spart_joint_neutral(const spart_model *m, double *qm) {
  for (int i = 1; i < m->nb; i++) {
    const int *u = kinds[m->jnt_type[i]].unit;
    if (u[1] > 0) {
      qm[m->jnt_qadr[i] + u[0] + u[2]] = 1;
    }
  }
}


/* a joint's local coordinates xi around q: q + xi moving at qdot(q + xi, v) when its
   configuration space is a vector space (v itself when qdot is v), else the kind's own (a
   quaternion's exponential map) */
void spart_joint_integrate(const spart_model *m, int i, const double *q, const double *xi,
                           double *qout) {
  joint_map *f = kinds[m->jnt_type[i]].integrate;
  if (f) {
    f(q, xi, qout);
    return;
  }
  for (int k = 0; k < m->jnt_nq[i]; k++) {
    qout[k] = q[k] + xi[k];
  }
}


void spart_joint_local_rate(const spart_model *m, int i, const double *q, const double *xi,
                            const double *v, double *xidot) {
  int t = m->jnt_type[i];
  if (kinds[t].local_rate) {
    kinds[t].local_rate(q, xi, v, xidot);
  } else if (kinds[t].qdot_of_v) {
    double qx[7];
    for (int k = 0; k < m->jnt_nq[i]; k++) {
      qx[k] = q[k] + xi[k];
    }
    kinds[t].qdot_of_v(qx, v, xidot);
  } else {
    memmove(xidot, v, (size_t)m->jnt_nv[i] * sizeof(double));
  }
}


/* a rotation A with A e_z = a (a unit): a signed permutation when a is a coordinate axis */
static void axis_frame(double A[9], const double a[3]) {
  double x[3], y[3], t[3] = {0, 0, 0};
  int big = 0;
  for (int k = 1; k < 3; k++) {
    big = fabs(a[k]) > fabs(a[big]) ? k : big;
  }
  if (fabs(a[big]) == 1 && a[(big + 1) % 3] == 0 && a[(big + 2) % 3] == 0) {
    /* x, y the next two axes in cyclic order (x, y, +-a right-handed with a sign on x) */
    memset(x, 0, sizeof x);
    memset(y, 0, sizeof y);
    x[(big + 1) % 3] = a[big];
    y[(big + 2) % 3] = 1;
  } else {
    /* x: the coordinate axis least along a, made normal to it */
    t[fabs(a[0]) < 0.6 ? 0 : 1] = 1;
    double ta = spu_dot3(t, a), nx = 0;
    for (int k = 0; k < 3; k++) {
      x[k] = t[k] - ta * a[k];
      nx += x[k] * x[k];
    }
    nx = sqrt(nx);
    for (int k = 0; k < 3; k++) {
      x[k] /= nx;
    }
    spu_cross(y, a, x);
  }
  for (int r = 0; r < 3; r++) {
    A[3 * r] = x[r];
    A[3 * r + 1] = y[r];
    A[3 * r + 2] = a[r];
  }
}


/* P (3) for a rotation R that is a signed permutation: column j of R is sign(P_j) e_(|P_j| - 1);
   P = 0 when R is not one */
static void signed_permutation(double P[3], const double R[9]) {
  for (int j = 0; j < 3; j++) {
    P[j] = 0;
    for (int k = 0; k < 3; k++) {
      double x = R[3 * k + j];
      if ((x == 1 || x == -1) && R[3 * ((k + 1) % 3) + j] == 0 && R[3 * ((k + 2) % 3) + j] == 0) {
        P[j] = x * (k + 1);
      }
    }
    if (P[j] == 0) {
      P[0] = P[1] = P[2] = 0;
      return;
    }
  }
}


/* joint constants (jc of d->own_, SPART_JC a body): the algorithms work in the joint frames F:
   F_i is joint i's frame turned by A_i (A e_z = a, the joint's axis; the identity for a joint
   without a degree of freedom) and moved with the joint, F_0 the base's CoM frame.  With J the
   joint frame in the parent link, B the link frame and b the CoM in the joint frame: at q = 0
   F_i is T_i = CR_p J A, at r_i = c_p + CR_p p, in F_p; the link's CoM frame is CR_i = A'B at
   c_i = A'b in F_i, and Ic_i is its rotational inertia about the CoM in F_i's axes. */
void spart_joint_constants(const spart_model *m, spart_data *d) {
  double *jc = d->own_->jc;
  /* the base: F_0 is its CoM frame */
  memset(jc, 0, SPART_JC * sizeof(double));
  for (int k = 0; k < 3; k++) {
    jc[SPART_JC_CR + 4 * k] = 1;
  }
  for (int k = 0; k < 3; k++) {
    jc[SPART_JC_CRP + k] = k + 1;
  }
  memcpy(jc + SPART_JC_IC, m->body_inertia, 6 * sizeof(double));
  spu_inertbody(jc + SPART_JC_IO, m->body_mass[0], jc + SPART_JC_IC);
  for (int i = 1; i < m->nb; i++) {
    const double *J = m->jnt_rot + 9 * i, *B = m->body_rot + 9 * i, *a = m->jnt_axis + 3 * i;
    const double *b = m->body_pos + 3 * i, *cp = jc + SPART_JC * m->body_parent[i];
    double *c = jc + SPART_JC * i, A[9], JA[9];

    /* the joint frame F_i: A, T = CR_p J A, r = c_p + CR_p p */
    memset(A, 0, sizeof A);
    A[0] = A[4] = A[8] = 1;
    if (spart_joint_has_axis(m->jnt_type[i])) {
      axis_frame(A, a);
    }
    spu_mulmm3(JA, J, A);
    spu_mulmm3(c + SPART_JC_T, cp + SPART_JC_CR, JA);
    spu_mulmv3(c + SPART_JC_R, cp + SPART_JC_CR, m->jnt_pos + 3 * i);
    for (int k = 0; k < 3; k++) {
      c[SPART_JC_R + k] += cp[SPART_JC_C + k];
    }
    /* the link in F_i: CR = A'B, c = A'b, Ic = CR I CR'; the axis A'a (e_z when A turns it) */
    for (int r = 0; r < 3; r++) {
      for (int k = 0; k < 3; k++) {
        c[SPART_JC_CR + 3 * r + k] = A[r] * B[k] + A[3 + r] * B[3 + k] + A[6 + r] * B[6 + k];
      }
    }
    signed_permutation(c + SPART_JC_CRP, c + SPART_JC_CR);
    spu_mulmtv3(c + SPART_JC_C, A, b);
    spu_rotsym3(c + SPART_JC_IC, c + SPART_JC_CR, m->body_inertia + 6 * i);
    spu_inertbody(c + SPART_JC_IO, m->body_mass[i], c + SPART_JC_IC);
    spu_inertshift(c + SPART_JC_IO, c + SPART_JC_IO, c + SPART_JC_C);
    if (spart_joint_has_axis(m->jnt_type[i])) {
      c[SPART_JC_AX] = c[SPART_JC_AX + 1] = 0;
      c[SPART_JC_AX + 2] = 1;
    } else { /* a fixed joint's axis as given (SPART's e), none (0) for a ball or free joint */
      memcpy(c + SPART_JC_AX, a, 3 * sizeof(double));
    }
  }

  /* spart_rnea_pair's: T, r, c, Ic (the base's own inertia), mass and armature, each twice */
  for (int i = 0; i < m->nb; i++) {
    const double *c = jc + SPART_JC * i;
    double v[SPART_JP], *jp = d->own_->jp + 2 * SPART_JP * i;
    memcpy(v + SPART_JP_T, c + SPART_JC_T, 15 * sizeof(double)); /* T, r, c */
    memcpy(v + SPART_JP_IC, i ? c + SPART_JC_IC : m->body_inertia, 6 * sizeof(double));
    v[SPART_JP_M] = m->body_mass[i];
    v[SPART_JP_ARM] = m->jnt_armature[i];
    for (int k = 0; k < SPART_JP; k++) {
      jp[2 * k] = jp[2 * k + 1] = v[k];
    }
  }
}


/* random states (spart_random_state): x uniform in [a, b], within it; b - a may overflow
   (limits [-1e308, 1.7e308]): then a and b have opposite signs, and (1 - u) a + u b does not */
static double uniform(spart_rng *r, double a, double b) {
  const double u = spart_rng_uniform(r), w = b - a;
  double x = isfinite(w) ? a + w * u : (1 - u) * a + u * b;
  return x < a ? a : x > b ? b : x;
}


/* a unit vector uniform on the sphere S^(n-1) (n 2 or 4): a point of the ball by rejection,
   divided by its norm (no transcendental function: the same bits everywhere) */
static void unit_random(spart_rng *r, int n, double *q) {
  double s;
  do {
    s = 0;
    for (int k = 0; k < n; k++) {
      q[k] = uniform(r, -1, 1);
      s += q[k] * q[k];
    }
  } while (s > 1 || s < 1e-4);
  s = sqrt(s);
  for (int k = 0; k < n; k++) {
    q[k] /= s;
  }
}


/* joint i's coordinates q at random within its limits (spart_random_state) */
static void joint_random(const spart_model *m, int i, spart_rng *r, double *q) {
  const int t = m->jnt_type[i], lim = m->jnt_limited[i];
  const double *lo = m->jnt_range + 2 * i, pi = 3.14159265358979323846;
  double a;
  if (t == SPART_JNT_REVOLUTE || t == SPART_JNT_PRISMATIC || t == SPART_JNT_HELICAL) {
    q[0] = lim                       ? uniform(r, lo[0], lo[1])
           : t == SPART_JNT_PRISMATIC ? uniform(r, -1, 1)
                                      : uniform(r, -pi, pi);
  } else if (t == SPART_JNT_SINCOS) {
    if (lim) {
      a = uniform(r, lo[0], lo[1]);
      spu_sincos(a, q, q + 1);
    } else {
      unit_random(r, 2, q);
    }
  } else if (t == SPART_JNT_BALL || t == SPART_JNT_FLOATING || t == SPART_JNT_SPQUAT) {
    double qt[4];
    unit_random(r, 4, qt);
    if (t == SPART_JNT_SPQUAT) { /* the projection of the quaternion with w >= 0 */
      double sg = qt[0] < 0 ? -1 : 1;
      for (int k = 0; k < 3; k++) {
        q[k] = sg * qt[1 + k] / (1 + sg * qt[0]);
        q[3 + k] = uniform(r, -1, 1);
      }
    } else {
      memcpy(q, qt, sizeof qt);
      for (int k = 4; k < m->jnt_nq[i]; k++) {
        q[k] = uniform(r, -1, 1);
      }
    }
  } else if (t == SPART_JNT_PLANAR) {
    q[0] = uniform(r, -1, 1);
    q[1] = uniform(r, -1, 1);
    q[2] = uniform(r, -pi, pi);
  }
}


void spart_random_state(const spart_model *m, spart_rng *rq, spart_rng *r, spart_state *s) {
  double *qm = s->qm, *um = s->um, *umdot = s->umdot, *taum = s->taum;
  for (int i = 1; i < m->nb; i++) {
    if (m->jnt_nq[i] > 0) {
      joint_random(m, i, rq, qm + m->jnt_qadr[i]);
    }
  }
  for (int v = 0; um && v < m->nv; v++) {
    double x = m->jnt_velocity[m->dof_body[v]];
    um[v] = x > 0 ? uniform(r, -x, x) : uniform(r, -1, 1);
  }
  for (int v = 0; umdot && v < m->nv; v++) {
    umdot[v] = uniform(r, -1, 1);
  }
  for (int v = 0; taum && v < m->nv; v++) {
    double x = m->jnt_effort[m->dof_body[v]];
    taum[v] = x > 0 ? uniform(r, -x, x) : uniform(r, -1, 1);
  }
}


void spart_joint_difference(const spart_model *m, int i, const double *q, const double *r,
                            double *xi) {
  joint_map *f = kinds[m->jnt_type[i]].difference;
  if (f) {
    f(q, r, xi);
    return;
  }
  for (int k = 0; k < m->jnt_nq[i]; k++) {
    xi[k] = r[k] - q[k];
  }
}


/* the velocity whose local rate at xi = 0 is xidot: the kind's own, else v of qdot (xidot is
   qdot there) */
void spart_joint_v_of_local(const spart_model *m, int i, const double *q, const double *xidot,
                            double *v) {
  int t = m->jnt_type[i];
  if (kinds[t].local_rate) {
    if (kinds[t].v_of_local) {
      kinds[t].v_of_local(q, xidot, v);
    } else {
      memmove(v, xidot, (size_t)m->jnt_nv[i] * sizeof(double));
    }
    return;
  }
  spart_joint_v_of_qdot(m, i, q, xidot, v);
}
