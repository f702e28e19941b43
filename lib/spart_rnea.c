/* spart_rnea.c -- inverse dynamics by recursive Newton-Euler (SPART ID, Floating_ID), O(n), and
 * the drive train's friction */
#include <string.h>

#include "spart.h"
#include "spu.h"


/* the Newton-Euler force of a body at its CoM, c from its frame's origin, in its frame: the
   velocity-product and acceleration parts [Ic alpha + w x Ic w; m (ac + w x vc)] (Featherstone's
   I a + v x* I v), with vc, ac the velocity and acceleration [w; v], [alpha; a] at the origin
   moved to the CoM (v + w x c); when c is NULL the origin is the CoM */
static void body_force(double f[6], const double I[6], double mass, const double c[3],
                       const double v[6], const double a[6]) {
  double Iw[3], wIw[3], wv[3], vc[3], ac[3];
  memcpy(vc, v + 3, sizeof vc);
  memcpy(ac, a + 3, sizeof ac);
  if (c) {
    double wc[3], alc[3];
    spu_cross(wc, v, c);
    spu_cross(alc, a, c);
    for (int k = 0; k < 3; k++) {
      vc[k] += wc[k];
      ac[k] += alc[k];
    }
  }
  spu_mulsv3(f, I, a);
  spu_mulsv3(Iw, I, v);
  spu_cross(wIw, v, Iw);
  spu_cross(wv, v, vc);
  for (int k = 0; k < 3; k++) {
    f[k] += wIw[k];
    f[3 + k] = mass * (ac[k] + wv[k]);
  }
}


/* f -= the external wrench wF_i (inertial frame, at the CoM) seen in the frame R */
static void sub_wrench(double f[6], const double R[9], const double wF[6]) {
  double w[3];
  for (int h = 0; h < 6; h += 3) {
    spu_mulmtv3(w, R, wF + h);
    for (int k = 0; k < 3; k++) {
      f[h + k] -= w[k];
    }
  }
}


/* res = X m: a motion vector [w; v] of the parent at its frame's origin, moved to the child's
   origin rho away (parent frame) and turned into the child's frame Q: [Q' w; Q' (v + w x rho)] */
static void motion_down(double res[6], const double Q[9], const double rho[3], const double m[6]) {
  double wr[3], v[3];
  spu_cross(wr, m, rho);
  for (int k = 0; k < 3; k++) {
    v[k] = m[3 + k] + wr[k];
  }
  spu_mulmtv3(res, Q, m);
  spu_mulmtv3(res + 3, Q, v);
}


void spart_rnea(const spart_model *m, spart_data *d, const double R0[9], const double *qm,
                const double *u0, const double *um, const double *u0dot, const double *umdot,
                const double *wF, const double *gravity, double *tau) {
  double *v0 = d->bv, *a0 = d->ba, g0[3] = {0, 0, 0}, wv[3];

  /* base, in its frame: v0 = [w0; R0' r0dot]; a0 = [w0dot; R0' (r0ddot - g) - w0 x v0]
     (spatial, with gravity as an acceleration of the base, Featherstone RBDA 5.3) */
  memset(v0, 0, 6 * sizeof(double));
  memset(a0, 0, 6 * sizeof(double));
  if (u0) {
    memcpy(v0, u0, 3 * sizeof(double));
    spu_mulmtv3(v0 + 3, R0, u0 + 3);
  }
  if (u0dot) {
    memcpy(a0, u0dot, 3 * sizeof(double));
    spu_mulmtv3(a0 + 3, R0, u0dot + 3);
  }
  if (gravity) {
    spu_mulmtv3(g0, R0, gravity);
  }
  spu_cross(wv, v0, v0 + 3);
  for (int k = 0; k < 3; k++) {
    a0[3 + k] -= g0[k] + wv[k];
  }
  body_force(d->bf, m->body_inertia, m->body_mass[0], NULL, v0, a0);
  if (wF) {
    memcpy(d->bR, R0, 9 * sizeof(double));
    sub_wrench(d->bf, R0, wF);
  }

  /* forward pass in the joint frames F_i (spart_xup), S = e_z (revolute) or [0; e_z]
     (prismatic): v_i = X_i v_p + S qd, a_i = X_i a_p + S qdd + v_i x S qd (RBDA table 5.1),
     then the Newton-Euler force at the CoM moved to F_i's origin */
  spart_xup(m, d, qm);
  for (int i = 1; i < m->nb; i++) {
    int p = m->body_parent[i], j = m->jnt_qadr[i], type = m->jnt_type[i];
    const double *com = d->jc + SPART_JC * i + SPART_JC_C, *Ic = d->jc + SPART_JC * i + SPART_JC_IC;
    const double *Q = d->Xrot + 9 * i, *rho = d->Xpos + 3 * i;
    double *restrict v = d->bv + 6 * i, *restrict a = d->ba + 6 * i;
    double qd = j >= 0 && um ? um[j] : 0, qdd = j >= 0 && umdot ? umdot[j] : 0;
    motion_down(v, Q, rho, d->bv + 6 * p);
    motion_down(a, Q, rho, d->ba + 6 * p);
    if (type == SPART_JNT_REVOLUTE) {
      v[2] += qd;
      a[2] += qdd;
      a[0] += v[1] * qd;
      a[1] -= v[0] * qd;
      a[3] += v[4] * qd;
      a[4] -= v[3] * qd;
    } else if (type == SPART_JNT_PRISMATIC) {
      v[5] += qd;
      a[5] += qdd;
      a[3] += v[1] * qd;
      a[4] -= v[0] * qd;
    }
    double *f = d->bf + 6 * i, nc[3];
    body_force(f, Ic, m->body_mass[i], com, v, a);
    if (wF) {
      spu_mulmm3(d->bR + 9 * i, d->bR + 9 * p, Q);
      sub_wrench(f, d->bR + 9 * i, wF + 6 * i);
    }
    spu_cross(nc, com, f + 3);
    for (int k = 0; k < 3; k++) {
      f[k] += nc[k];
    }
  }

  /* backward pass: tau_i = S_i' f_i (+ the armature), f_p += X_i' f_i */
  for (int i = m->nb - 1; i > 0; i--) {
    int p = m->body_parent[i], j = m->jnt_qadr[i];
    const double *f = d->bf + 6 * i;
    double *fp = d->bf + 6 * p, fx[6];
    if (j >= 0) {
      tau[6 + j] = f[spart_s_index(m, i)] + m->jnt_armature[i] * (umdot ? umdot[j] : 0);
    }
    spu_fparent(fx, d->Xrot + 9 * i, d->Xpos + 3 * i, f);
    for (int k = 0; k < 6; k++) {
      fp[k] += fx[k];
    }
  }

  /* base: tau0 = [torque (base frame); R0 force] */
  spu_rotlin(tau, R0, d->bf);
}


int spart_floating_id(const spart_model *m, spart_data *d, const double R0[9], const double *qm,
                      const double *u0, const double *um, const double *umdot, const double *wF,
                      const double *gravity, double *taum, double u0dot[6]) {
  double *tau = d->work, *H0 = d->work + 6 + m->nq;

  /* tau0 needed for zero base acceleration */
  spart_rnea(m, d, R0, qm, u0, um, NULL, umdot, wF, gravity, tau);

  /* base inertia H0 = B' IC_0 B of the whole system */
  spart_composite(m, d); /* the joint transforms of spart_rnea */
  spart_base_inertia(m, d, R0, H0);

  /* u0dot = -H0 \ tau0 so that the base needs no force (SPART Floating_ID) */
  for (int k = 0; k < 6; k++) {
    u0dot[k] = -tau[k];
  }
  if (spu_cholsolve(H0, u0dot, 6, 1) != 0) {
    d->warn[SPART_WARN_SINGULAR]++;
    d->warn_body[SPART_WARN_SINGULAR] = 0;
    return -SPART_ENUM;
  }

  /* joint forces with that base acceleration */
  spart_rnea(m, d, R0, qm, u0, um, u0dot, umdot, wF, gravity, tau);
  memcpy(taum, tau + 6, (size_t)m->nq * sizeof(double));
  return 0;
}


void spart_friction(const spart_model *m, const double *um, double sign, double *tau) {
  for (int i = 1; i < m->nb; i++) {
    int a = m->jnt_qadr[i];
    if (a >= 0) {
      const double *f = m->jnt_friction + 2 * i;
      /* the Coulomb part without a branch on the sign of um (random): one of the two terms is
         f exactly, the other +-0 */
      double coulomb = f[0] * (um[a] > 0) + f[1] * (um[a] < 0);
      tau[a] += sign * (m->jnt_damping[i] * um[a] + coulomb);
    }
  }
}
