/* spart_aba.c -- forward dynamics by articulated bodies (SPART FD, Featherstone's ABA), O(n):
 * the recursion as the textbook states it (spart_aba_ref).  spart_aba itself runs the fast path
 * (spart_aba_fast.c, with the scales of its singularity test, spart_dof_scale), held equal to
 * spart_aba_ref by tests/unit/test_recursions.c. */
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"


/* The recursion as RBDA table 7.1 states it (spatial_v2's FDab.m), with the floating base of
   RBDA 9.3 (spart_rnea_ref's base: B = diag(1, R0'), gravity an acceleration of the base), over
   the joint table as spart_rnea_ref's (spart_rnea.c): X_i, S_a, I_i.

     pass 1, i = 0 .. n (velocities and bias accelerations; the bodies alone):
       v_0 = B u0 (0 with a fixed base),  c_0 = -[0; w0 x v0 + R0' g]
       vJ  = S_i qd_i,  v_i = X_i v_p + vJ,  c_i = c_J + v_i x vJ   (c_J = 0: spart_joint_bias)
       IA_i = I_i,  pA_i = v_i x* I_i v_i - fx_i
     pass 2, i = n .. 1 (articulated inertias and bias forces), each degree of freedom a of
       joint i the last first: a joint of several is eliminated one degree of freedom at a time,
       which is RBDA's D_i^-1 = (S_i' IA_i S_i)^-1 by Gaussian elimination:
         U_a = IA_i S_a,  D_a = S_a' U_a + armature_i,  u_a = tau_a - S_a' pA_i
         IA_i -= U_a U_a' / D_a,  pA_i += U_a u_a / D_a
       then Ia = IA_i, pa = pA_i + Ia c_i:
         IA_p += X_i' Ia X_i,  pA_p += X_i' pa
     the base: a_0 = IA_0^-1 ([tau0 torque; R0' tau0 force] - pA_0), u0dot = B^-1 (a_0 - c_0);
       a fixed base: a_0 = c_0, u0dot = 0
     pass 3, i = 1 .. n (accelerations), each degree of freedom a of joint i the first first:
       a_i = X_i a_p + c_i
       qdd_a = (u_a - U_a' a_i) / D_a,  a_i += S_a qdd_a

   Each pivot (D_a, and the base's IA_0) passes spu_pivot_ok against its spart_dof_scale, as
   spart_aba's.  Held in d: v_i, c_i, a_i in d->t, d->c, d->f; IA_i, pA_i in IA, pA of d->own_
   (6x6 and 6 a body); U, D, u in its U, D, u; the scales in d->work; spart_fk's poses are
   this state's. */
int spart_aba_ref(const spart_model *m, spart_data *d, const spart_state *x, int fixed_base,
                  const double *gravity, double *udot) {
  static const double zero[3] = {0, 0, 0};
  const double *R0 = x->R0, *qm = x->qm, *u0 = x->u0, *um = x->um, *tau0 = x->tau0;
  const double *taum = x->taum, *wF = x->wF;
  double *u0dot = udot, *umdot = udot + 6;
  double *v = d->t, *c = d->c, *a = d->f, *scale = d->work;
  struct spart_own *o = d->own_;
  double *IA = o->IA, *pA = o->pA;
  double X[36], Iv[6], fx[6];
  spart_fk(m, d, x); /* F_i's orientations, for the external wrenches */
  spart_xup(m, d, qm);
  spart_dof_scale(m, d, scale);

  /* pass 1: the base, then every link */
  double w0xv0[3], R0g[3];
  memset(v, 0, 6 * sizeof(double));
  memset(c, 0, 6 * sizeof(double));
  if (!fixed_base && u0) {
    memcpy(v, u0, 3 * sizeof(double));
    spu_mulmtv3(v + 3, R0, u0 + 3);
  }
  spu_cross(w0xv0, v, v + 3);
  spu_mulmtv3(R0g, R0, gravity ? gravity : zero);
  for (int k = 0; k < 3; k++) {
    c[3 + k] = -(w0xv0[k] + R0g[k]);
  }
  for (int i = 0; i < m->nb; i++) {
    double *vi = v + 6 * i, *ci = c + 6 * i, *Ii = IA + 36 * i, *pi = pA + 6 * i;
    if (i > 0) {
      const double *q = m->jnt_nq[i] > 0 ? qm + m->jnt_qadr[i] : NULL;
      double vJ[6] = {0, 0, 0, 0, 0, 0}, cJ[6], vxvJ[6];
      spu_xform6(X, d->Xrot + 9 * i, d->Xpos + 3 * i);
      spu_mulm6v(vi, X, v + 6 * m->body_parent[i]);
      for (int s = m->jnt_vadr[i]; s < m->jnt_vadr[i] + m->jnt_nv[i]; s++) {
        for (int k = 0; k < 6; k++) {
          vJ[k] += m->dof_S[6 * s + k] * (um ? um[s] : 0);
        }
      }
      spart_joint_bias(m, i, q, vJ, cJ);
      for (int k = 0; k < 6; k++) {
        vi[k] += vJ[k];
      }
      spu_crossm6(vxvJ, vi, vJ);
      for (int k = 0; k < 6; k++) {
        ci[k] = cJ[k] + vxvJ[k];
      }
    }
    spart_ref_inertia(m, d, i, Ii);
    spu_mulm6v(Iv, Ii, vi);
    spu_crossf6(pi, vi, Iv);
    spart_ref_wrench(d, i, wF, fx);
    for (int k = 0; k < 6; k++) {
      pi[k] -= fx[k];
    }
  }

  /* pass 2 */
  for (int i = m->nb - 1; i > 0; i--) {
    double *Ii = IA + 36 * i, *pi = pA + 6 * i, Ic[6], pp[6];
    for (int s = m->jnt_vadr[i] + m->jnt_nv[i] - 1; s >= m->jnt_vadr[i]; s--) {
      const double *S = m->dof_S + 6 * s;
      double *U = o->U + 6 * s;
      spu_mulm6v(U, Ii, S);
      o->D[s] = spu_dot6(S, U) + m->jnt_armature[i];
      o->u[s] = (taum ? taum[s] : 0) - spu_dot6(S, pi);
      if (!spu_pivot_ok(o->D[s], scale[6 + s])) {
        d->warn[SPART_WARN_SINGULAR]++;
        d->warn_body[SPART_WARN_SINGULAR] = i;
        return -SPART_ENUM;
      }
      spu_mat6_downdate(Ii, U, o->D[s]);
      for (int k = 0; k < 6; k++) {
        pi[k] += U[k] * o->u[s] / o->D[s];
      }
    }
    spu_mulm6v(Ic, Ii, c + 6 * i);
    for (int k = 0; k < 6; k++) {
      pi[k] += Ic[k];
    }
    spu_xform6(X, d->Xrot + 9 * i, d->Xpos + 3 * i);
    spu_mat6_congruence_add(IA + 36 * m->body_parent[i], X, Ii);
    spu_mulm6tv(pp, X, pi);
    for (int k = 0; k < 6; k++) {
      pA[6 * m->body_parent[i] + k] += pp[k];
    }
  }

  /* the base */
  memset(u0dot, 0, 6 * sizeof(double));
  if (fixed_base) {
    memcpy(a, c, 6 * sizeof(double));
  } else {
    double A[36], a0[6];
    memcpy(A, IA, sizeof A);
    memset(a, 0, 6 * sizeof(double));
    if (tau0) {
      memcpy(a, tau0, 3 * sizeof(double));
      spu_mulmtv3(a + 3, R0, tau0 + 3);
    }
    for (int k = 0; k < 6; k++) {
      a[k] -= pA[k];
    }
    if (spu_cholsolve(A, a, 6, 1, scale) != 0) {
      d->warn[SPART_WARN_SINGULAR]++;
      d->warn_body[SPART_WARN_SINGULAR] = 0;
      return -SPART_ENUM;
    }
    for (int k = 0; k < 6; k++) {
      a0[k] = a[k] - c[k];
    }
    memcpy(u0dot, a0, 3 * sizeof(double));
    spu_mulmv3(u0dot + 3, R0, a0 + 3);
  }

  /* pass 3 */
  for (int i = 1; i < m->nb; i++) {
    double *ai = a + 6 * i;
    spu_xform6(X, d->Xrot + 9 * i, d->Xpos + 3 * i);
    spu_mulm6v(ai, X, a + 6 * m->body_parent[i]);
    for (int k = 0; k < 6; k++) {
      ai[k] += c[6 * i + k];
    }
    for (int s = m->jnt_vadr[i]; s < m->jnt_vadr[i] + m->jnt_nv[i]; s++) {
      umdot[s] = (o->u[s] - spu_dot6(o->U + 6 * s, ai)) / o->D[s];
      for (int k = 0; k < 6; k++) {
        ai[k] += m->dof_S[6 * s + k] * umdot[s];
      }
    }
  }
  return 0;
}
