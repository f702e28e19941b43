/* spart_rnea.c -- inverse dynamics by recursive Newton-Euler (SPART ID, Floating_ID), O(n), and
 * the drive train's friction */
#include <string.h>

#include "spart.h"
#include "spu.h"


/* external wrench on body i: wF_i plus gravity m_i g at its CoM (NULLs are zero) */
static void ext_wrench(double res[6], const spart_model *m, int i, const double *wF,
                       const double *gravity) {
  for (int k = 0; k < 6; k++) {
    res[k] = wF ? wF[6 * i + k] : 0;
  }
  if (gravity) {
    for (int k = 0; k < 3; k++) {
      res[3 + k] += m->body_mass[i] * gravity[k];
    }
  }
}


void spart_rnea(const spart_model *m, spart_data *d, const double *um, const double *u0dot,
                const double *umdot, const double *wF, const double *gravity, double *tau) {
  /* forward pass: twist rates */
  spart_acceleration(m, d, um, u0dot, umdot);

  /* Newton-Euler wrench at each CoM: [I wdot + w x I w; m a] - wF (SPART ID) */
  for (int i = 0; i < m->nb; i++) {
    const double *t = d->t + 6 * i, *a = d->tdot + 6 * i, *I = d->xI + 6 * i;
    double Iw[3], wIw[3], fe[6], *f = d->f + 6 * i;
    spu_mulsv3(f, I, a);
    spu_mulsv3(Iw, I, t);
    spu_cross(wIw, t, Iw);
    ext_wrench(fe, m, i, wF, gravity);
    for (int k = 0; k < 3; k++) {
      f[k] += wIw[k] - fe[k];
      f[3 + k] = m->body_mass[i] * a[3 + k] - fe[3 + k];
    }
  }

  /* backward pass: project on each joint, carry to the parent */
  for (int i = m->nb - 1; i > 0; i--) {
    int p = m->body_parent[i], a = m->jnt_qadr[i];
    double dr[3], sh[6];
    if (a >= 0) {
      tau[6 + a] = spu_dot6(d->xS + 6 * i, d->f + 6 * i) + m->jnt_armature[i] * (umdot ? umdot[a] : 0);
    }
    for (int k = 0; k < 3; k++) {
      dr[k] = d->xpos[3 * i + k] - d->xpos[3 * p + k];
    }
    spu_fshift(sh, d->f + 6 * i, dr);
    for (int k = 0; k < 6; k++) {
      d->f[6 * p + k] += sh[k];
    }
  }

  /* base: tau0 = P0' f0 */
  spu_mulmtv3(tau, d->P0, d->f);
  memcpy(tau + 3, d->f + 3, 3 * sizeof(double));
}


int spart_floating_id(const spart_model *m, spart_data *d, const double *um, const double *umdot,
                      const double *wF, const double *gravity, double *taum, double u0dot[6]) {
  double *tau = d->work, *H0 = d->work + 6 + m->nq;

  /* tau0 needed for zero base acceleration */
  spart_rnea(m, d, um, NULL, umdot, wF, gravity, tau);

  /* base inertia H0 = P0' Ic_0 P0 of the whole system */
  spart_composite(m, d);
  spart_base_inertia(m, d, H0);

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
  spart_rnea(m, d, um, u0dot, umdot, wF, gravity, tau);
  memcpy(taum, tau + 6, (size_t)m->nq * sizeof(double));
  return 0;
}


void spart_friction(const spart_model *m, const double *um, double *tau) {
  for (int i = 1; i < m->nb; i++) {
    int a = m->jnt_qadr[i];
    if (a >= 0) {
      const double *f = m->jnt_friction + 2 * i;
      tau[a] = m->jnt_damping[i] * um[a] + (um[a] > 0 ? f[0] : um[a] < 0 ? f[1] : 0);
    }
  }
}
