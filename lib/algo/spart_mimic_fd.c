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


int spart_mimic_fd(const spart_model *m, spart_data *d, const spart_state *s, int fixed_base,
                   const double *gravity, double *udot) {
  const int b = fixed_base ? 0 : 6, n = b + m->nv, nc = b + m->nvc;
  const double *tau0 = s->tau0, *taum = s->taum;
  /* the scratch after spart_forward_dynamics' joint forces */
  double *H = d->own_->fdw + m->nv, *Hc = H + (size_t)n * n, *f = Hc + (size_t)nc * nc;
  double *x = f + 6 + m->nv;
  spart_state c = *s; /* the state at zero accelerations, the base held with fixed_base */
  c.u0 = fixed_base ? NULL : s->u0;
  c.u0dot = c.umdot = NULL;

  /* the forces left to accelerate the tree: tau - c(q, u), c by Newton-Euler at udot = 0 */
  spart_rnea(m, d, &c, gravity, f);
  for (int k = 0; k < 6; k++) {
    f[k] = (tau0 ? tau0[k] : 0) - f[k];
  }
  for (int j = 0; j < m->nv; j++) {
    f[6 + j] = (taum ? taum[j] : 0) - f[6 + j];
  }

  /* the system's: K' H K x = K' f (the base's rows only for a floating base) */
  spart_crba(m, d, s, fixed_base, H);
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
    memset(udot, 0, 6 * sizeof(double));
  } else {
    memcpy(udot, x, 6 * sizeof(double));
  }
  spart_mimic_v(m, x + b, udot + 6);
  return 0;
}
