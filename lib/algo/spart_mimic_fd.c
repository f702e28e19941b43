/* spart_mimic_fd.c -- forward dynamics of a model whose mimic joints are coupled: K' H K ucdot =
 * K' (tau - c), H by composite rigid bodies (spart_crba), c by Newton-Euler at zero acceleration,
 * solved by Cholesky (the articulated bodies cannot keep a follower on its leader) */
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"


/* the body whose joint has the system's degree of freedom r (the base, 0, for r < 0) */
static int pivot_body(const spart_model *m, int r) {
  for (int i = 1; i < m->nb && r >= 0; i++) {
    int a = m->jnt_vadrc[i];
    if (!(m->coupled && m->jnt_mimic[i]) && a >= 0 && r >= a && r < a + m->jnt_nv[i]) {
      return i;
    }
  }
  return 0;
}


size_t spart_mimic_fd_work(const spart_model *m) {
  size_t n = 6 + (size_t)m->nv, nc = 6 + (size_t)m->nvc;
  return n * n + nc * nc + 2 * n + nc;
}


int spart_mimic_fd(const spart_model *m, spart_data *d, int fixed_base, const double R0[9],
                   const double *qm, const double *u0, const double *um, const double *tau0,
                   const double *taum, const double *wF, const double *gravity, double *work,
                   double u0dot[6], double *umdot) {
  const int b = fixed_base ? 0 : 6, n = b + m->nv, nc = b + m->nvc;
  double *H = work, *Hc = H + (size_t)n * n, *f = Hc + (size_t)nc * nc, *x = f + 6 + m->nv;

  /* the forces left to accelerate the tree: tau - c(q, u), c by Newton-Euler at udot = 0 */
  spart_rnea(m, d, R0, qm, fixed_base ? NULL : u0, um, NULL, NULL, wF, gravity, f);
  for (int k = 0; k < 6; k++) {
    f[k] = (tau0 ? tau0[k] : 0) - f[k];
  }
  for (int j = 0; j < m->nv; j++) {
    f[6 + j] = (taum ? taum[j] : 0) - f[6 + j];
  }

  /* the system's: K' H K x = K' f (the base's rows only for a floating base) */
  spart_crba(m, d, R0, qm, fixed_base, H);
  spart_mimic_matrix(m, b, H, Hc);
  spart_mimic_force(m, b, f + 6 - b, x);
  int bad = spu_cholsolve(Hc, x, nc, 1, NULL);
  if (bad != 0) {
    d->warn[SPART_WARN_SINGULAR]++;
    d->warn_body[SPART_WARN_SINGULAR] = pivot_body(m, bad - 1 - b);
    return -SPART_ENUM;
  }

  /* the tree's accelerations: K x */
  if (fixed_base) {
    memset(u0dot, 0, 6 * sizeof(double));
  } else {
    memcpy(u0dot, x, 6 * sizeof(double));
  }
  spart_mimic_v(m, x + b, umdot);
  return 0;
}
