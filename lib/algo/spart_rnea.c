/* spart_rnea.c -- inverse dynamics by recursive Newton-Euler (SPART ID, Floating_ID), O(n): the
 * recursion as the textbook states it (spart_rnea_ref), the floating base's inverse dynamics
 * on the library's RNEA, and the drive train's friction.  spart_rnea itself runs the fast path
 * (spart_rnea_pair.c), held equal to spart_rnea_ref by tests/unit/test_recursions.c. */
#include <math.h>
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"


/* x[k], or 0 where x is not given */
static double given(const double *x, int k) {
  return x ? x[k] : 0;
}


/* The recursion as RBDA (Featherstone, Rigid Body Dynamics Algorithms, 2008) table 5.1 states
   it, spatial_v2's ID.m, over the joint table: body i's parent p = body_parent[i]; its joint's
   transform X_i from F_p to F_i (spart_xup, the joint module's jcalc at qm) and motion subspace
   S_i, a column S_a = dof_S[a] for each of its degrees of freedom a (jnt_vadr[i] ..
   + jnt_nv[i]); its spatial inertia I_i about F_i's origin in F_i (the joint module's
   constants, spart_joint_constants).  Every motion and force is a 6-vector [angular; linear] in
   a body's frame F_i at its origin.  The base (body 0, F_0 its CoM frame) is the free body whose
   motion is given, B u0 with B = diag(1, R0'), and gravity is an acceleration of the base
   (RBDA 5.3), so that every body feels it:

     v_0 = B u0,  a_0 = B u0dot - [0; w0 x v0 + R0' g],  f_0 = I_0 a_0 + v_0 x* I_0 v_0 - fx_0
     for i = 1 .. n (parents before children):
       vJ  = S_i qd_i                                    the joint's velocity
       v_i = X_i v_p + vJ
       a_i = X_i a_p + S_i qdd_i + c_J + v_i x vJ        c_J = Sdot qd (spart_joint_bias: 0)
       f_i = I_i a_i + v_i x* I_i v_i - fx_i             fx_i the external wrench, in F_i
     for i = n .. 1 (children before parents):
       tau_a = S_a' f_i + armature_i qdd_a               each degree of freedom a of joint i
       f_p  += X_i' f_i
     tau0 = B' f_0

   v, a, f of body i are held in d->t, d->tdot, d->f (6 a body, in F_i): this pass's own, not
   the twists of spart_velocity; with wrenches, spart_fk's poses are this state's. */
void spart_rnea_ref(const spart_model *m, spart_data *d, const spart_state *x,
                    const double *gravity, double *tau) {
  static const double zero[3] = {0, 0, 0};
  const double *R0 = x->R0, *qm = x->qm, *u0 = x->u0, *um = x->um, *u0dot = x->u0dot;
  const double *umdot = x->umdot, *wF = x->wF;
  double *v = d->t, *a = d->tdot, *f = d->f, I[36], X[36], Iv[6], vIv[6], fx[6];
  if (wF) {
    spart_fk(m, d, x); /* F_i's orientations, for the external wrenches */
  }
  spart_xup(m, d, qm);

  /* the base */
  double vw[3], R0g[3];
  for (int k = 0; k < 6; k++) {
    v[k] = given(u0, k);
    a[k] = given(u0dot, k);
  }
  double lin[3] = {given(u0, 3), given(u0, 4), given(u0, 5)};
  double lindot[3] = {given(u0dot, 3), given(u0dot, 4), given(u0dot, 5)};
  spu_mulmtv3(v + 3, R0, lin);
  spu_mulmtv3(a + 3, R0, lindot);
  spu_cross(vw, v, v + 3);
  spu_mulmtv3(R0g, R0, gravity ? gravity : zero);
  for (int k = 0; k < 3; k++) {
    a[3 + k] -= vw[k] + R0g[k];
  }

  /* forward: velocities, accelerations and forces, the base's then every link's */
  for (int i = 0; i < m->nb; i++) {
    int p = m->body_parent[i];
    double *vi = v + 6 * i, *ai = a + 6 * i, *fi = f + 6 * i;
    if (i > 0) {
      const double *q = m->jnt_nq[i] > 0 ? qm + m->jnt_qadr[i] : NULL;
      double vJ[6] = {0, 0, 0, 0, 0, 0}, cJ[6], vxvJ[6];
      spu_xform6(X, d->Xrot + 9 * i, d->Xpos + 3 * i);
      spu_mulm6v(vi, X, v + 6 * p);
      spu_mulm6v(ai, X, a + 6 * p);
      for (int s = m->jnt_vadr[i]; s < m->jnt_vadr[i] + m->jnt_nv[i]; s++) {
        const double *S = m->dof_S + 6 * s;
        for (int k = 0; k < 6; k++) {
          vJ[k] += S[k] * given(um, s);
          ai[k] += S[k] * given(umdot, s);
        }
      }
      spart_joint_bias(m, i, q, vJ, cJ);
      for (int k = 0; k < 6; k++) {
        vi[k] += vJ[k];
      }
      spu_crossm6(vxvJ, vi, vJ);
      for (int k = 0; k < 6; k++) {
        ai[k] += cJ[k] + vxvJ[k];
      }
    }
    spart_ref_inertia(m, d, i, I);
    spu_mulm6v(fi, I, ai);
    spu_mulm6v(Iv, I, vi);
    spu_crossf6(vIv, vi, Iv);
    spart_ref_wrench(d, i, wF, fx);
    for (int k = 0; k < 6; k++) {
      fi[k] += vIv[k] - fx[k];
    }
  }

  /* backward: each joint's forces, and the body's force to its parent */
  for (int i = m->nb - 1; i > 0; i--) {
    double *fi = f + 6 * i, fp[6];
    for (int s = m->jnt_vadr[i]; s < m->jnt_vadr[i] + m->jnt_nv[i]; s++) {
      tau[6 + s] = spu_dot6(m->dof_S + 6 * s, fi) + m->jnt_armature[i] * given(umdot, s);
    }
    spu_xform6(X, d->Xrot + 9 * i, d->Xpos + 3 * i);
    spu_mulm6tv(fp, X, fi);
    for (int k = 0; k < 6; k++) {
      f[6 * m->body_parent[i] + k] += fp[k];
    }
  }
  spu_rotlin(tau, R0, f); /* B' f_0 = [n_0; R0 f_0] */
}


int spart_floating_id(const spart_model *m, spart_data *d, const spart_state *s,
                      const double *gravity, double *taum, double u0dot[6]) {
  double *tau = d->work, *H0 = d->work + 6 + m->nv;
  spart_state b = *s; /* the state at the base's acceleration: 0, then u0dot */

  /* tau0 needed for zero base acceleration */
  b.u0dot = NULL;
  spart_rnea(m, d, &b, gravity, tau);

  /* base inertia H0 = B' IC_0 B of the whole system */
  spart_xup(m, d, s->qm);
  spart_composite(m, d);
  spart_base_inertia(m, d, s->R0, H0);

  /* u0dot = -H0 \ tau0 so that the base needs no force (SPART Floating_ID) */
  for (int k = 0; k < 6; k++) {
    u0dot[k] = -tau[k];
  }
  /* the singularity test's scales (spart_dof_scale's, from the composite inertia of the whole
     robot about the base CoM): the trace of its rotational inertia, its mass */
  const double *I = d->Ic;
  double scale[6] = {I[4] + I[5] + I[6], I[4] + I[5] + I[6], I[4] + I[5] + I[6], I[0], I[0], I[0]};
  if (spu_cholsolve(H0, u0dot, 6, 1, scale) != 0) {
    d->warn[SPART_WARN_SINGULAR]++;
    d->warn_body[SPART_WARN_SINGULAR] = 0;
    return -SPART_ENUM;
  }

  /* joint forces with that base acceleration */
  b.u0dot = u0dot;
  spart_rnea(m, d, &b, gravity, tau);
  memcpy(taum, tau + 6, (size_t)m->nv * sizeof(double));
  return 0;
}


void spart_friction(const spart_model *m, const double *um, double sign, double *tau) {
  /* degree of freedom by degree of freedom, each with its joint's (dof_body) coefficients: one
     loop, not one over the joints and one over each joint's */
  const int *body = m->dof_body;
  const double *damping = m->jnt_damping, *friction = m->jnt_friction;
  for (int a = 0; a < m->nv; a++) {
    int i = body[a];
    /* the Coulomb part without a branch on the sign of um (random): one of the two terms is f
       exactly, the other +-0 */
    double coulomb = friction[2 * i] * (um[a] > 0) + friction[2 * i + 1] * (um[a] < 0);
    tau[a] += sign * (damping[i] * um[a] + coulomb);
  }
}


void spart_friction_smooth(const spart_model *m, const double *um, double sign, double v,
                           double *tau) {
  const int *body = m->dof_body;
  const double *damping = m->jnt_damping, *friction = m->jnt_friction;
  for (int a = 0; a < m->nv; a++) {
    int i = body[a];
    double th = tanh(um[a] / v);
    double coulomb = friction[2 * i] * fmax(th, 0) + friction[2 * i + 1] * fmax(-th, 0);
    tau[a] += sign * (damping[i] * um[a] + coulomb);
  }
}
