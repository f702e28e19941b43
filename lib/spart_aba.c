/* spart_aba.c -- forward dynamics by articulated bodies (SPART FD, Featherstone's ABA, RBDA
 * table 7.1), O(n), in SPART's formulation: everything at link CoMs, inertial projection */
#include <string.h>

#include "spart.h"
#include "spu.h"


/* articulated inertia and bias force of each body alone: M_i and [w x I w; 0] - wF - m g */
static void aba_init(const spart_model *m, spart_data *d, const double *wF, const double *gravity) {
  for (int i = 0; i < m->nb; i++) {
    const double *t = d->t + 6 * i, *I = d->xI + 6 * i;
    double Ib[10], Iw[3], *pA = d->pA + 6 * i;
    spu_inertbody(Ib, m->body_mass[i], I);
    spu_inert_to_mat6(d->IA + 36 * i, Ib);
    spu_mulsv3(Iw, I, t);
    spu_cross(pA, t, Iw);
    pA[3] = pA[4] = pA[5] = 0;
    for (int k = 0; k < 6; k++) {
      pA[k] -= wF ? wF[6 * i + k] : 0;
    }
    if (gravity) {
      for (int k = 0; k < 3; k++) {
        pA[3 + k] -= m->body_mass[i] * gravity[k];
      }
    }
  }
}


int spart_aba(const spart_model *m, spart_data *d, int fixed_base, const double *um,
              const double *tau0, const double *taum, const double *wF, const double *gravity,
              double u0dot[6], double *umdot) {
  /* pass 1: velocity-product accelerations c_i (SPART Accelerations at zero rates) */
  spart_acceleration(m, d, um, NULL, NULL);
  aba_init(m, d, wF, gravity);
  double *scale = d->work; /* what each degree of freedom moves, for the singularity test */
  spart_dof_scale(m, d, scale);

  /* pass 2, backward: articulated inertias IA and bias forces pA */
  for (int i = m->nb - 1; i > 0; i--) {
    int p = m->body_parent[i];
    double *IA = d->IA + 36 * i, *pA = d->pA + 6 * i, pa[6], dr[3];
    /* the joint's degrees of freedom one at a time, the last first (as a chain of massless
       bodies): Ia = IA - U U'/D, pA + U u/D */
    for (int a = m->jnt_vadr[i] + m->jnt_nv[i] - 1, first = m->jnt_vadr[i]; a >= first; a--) {
      const double *S = d->xS + 6 * a;
      double *U = d->U + 6 * a;
      spu_mulm6v(U, IA, S);
      double D = spu_dot6(S, U) + m->jnt_armature[i]; /* the rotor spins with the joint alone */
      double u = (taum ? taum[a] : 0) - spu_dot6(S, pA);
      d->D[a] = D;
      d->u[a] = u;
      if (!spu_pivot_ok(D, scale[6 + a])) {
        d->warn[SPART_WARN_SINGULAR]++;
        d->warn_body[SPART_WARN_SINGULAR] = i;
        return -SPART_ENUM;
      }
      spu_mat6_downdate(IA, U, D);
      for (int k = 0; k < 6; k++) {
        pA[k] += U[k] * u / D;
      }
    }

    /* pa = pA + Ia c, then both move to the parent */
    spu_mulm6v(pa, IA, d->c + 6 * i);
    for (int k = 0; k < 6; k++) {
      pa[k] += pA[k];
    }
    for (int k = 0; k < 3; k++) {
      dr[k] = d->xpos[3 * i + k] - d->xpos[3 * p + k];
    }
    spu_mat6shift(IA, dr);
    spu_fshift(pa, pa, dr);
    for (int k = 0; k < 36; k++) {
      d->IA[36 * p + k] += IA[k];
    }
    for (int k = 0; k < 6; k++) {
      d->pA[6 * p + k] += pa[k];
    }
  }

  /* base: IA_0 a0 = P0^-T tau0 - pA_0, or a fixed base */
  double *a0 = d->tdot;
  memset(a0, 0, 6 * sizeof(double));
  if (!fixed_base) {
    double A[36];
    if (tau0) {
      spu_mulmv3(a0, d->P0, tau0);
      memcpy(a0 + 3, tau0 + 3, 3 * sizeof(double));
    }
    for (int k = 0; k < 6; k++) {
      a0[k] -= d->pA[k];
    }
    memcpy(A, d->IA, sizeof(A));
    if (spu_cholsolve(A, a0, 6, 1, scale) != 0) {
      d->warn[SPART_WARN_SINGULAR]++;
      d->warn_body[SPART_WARN_SINGULAR] = 0;
      return -SPART_ENUM;
    }
  }
  spu_mulmtv3(u0dot, d->P0, a0);
  memcpy(u0dot + 3, a0 + 3, 3 * sizeof(double));

  /* pass 3, forward: joint and link accelerations */
  for (int i = 1; i < m->nb; i++) {
    int p = m->body_parent[i];
    double dr[3], *ai = d->tdot + 6 * i;
    for (int k = 0; k < 3; k++) {
      dr[k] = d->xpos[3 * i + k] - d->xpos[3 * p + k];
    }
    spu_mshift(ai, d->tdot + 6 * p, dr);
    for (int k = 0; k < 6; k++) {
      ai[k] += d->c[6 * i + k];
    }
    for (int a = m->jnt_vadr[i], end = a + m->jnt_nv[i]; a < end; a++) {
      umdot[a] = (d->u[a] - spu_dot6(d->U + 6 * a, ai)) / d->D[a];
      for (int k = 0; k < 6; k++) {
        ai[k] += d->xS[6 * a + k] * umdot[a];
      }
    }
  }
  return 0;
}
