/* spart_linearize.c -- derivatives of the forward dynamics, from those of the inverse dynamics:
 * ID(q, u, FD(q, u, tau)) = tau, so dFD/dx = -H^-1 dID/dx (x = q, u) and dFD/dtau = H^-1
 * (Carpentier and Mansard, RSS 2018, section IV), H the mass matrix. */
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spart_sim.h"

_Static_assert((int)SPART_FD_FIXED == (int)SPART_ID_FIXED &&
                   (int)SPART_FD_FRICTION == (int)SPART_ID_FRICTION,
               "spart_fd_derivatives passes its flags on");


/* A = -Hinv A for n x n matrices, work n x n */
static void left_solve(const double *Hinv, int n, double *A, double *work) {
  memcpy(work, A, (size_t)n * n * sizeof(double));
  for (int r = 0; r < n; r++) {
    for (int c = 0; c < n; c++) {
      double t = 0;
      for (int k = 0; k < n; k++) {
        t += Hinv[r * n + k] * work[k * n + c];
      }
      A[r * n + c] = -t;
    }
  }
}


int spart_fd_derivatives(const spart_model *m, spart_data *d, const spart_state *s, int flags,
                         const double *gravity, double *out) {
  const int fixed = flags & SPART_FD_FIXED, b = fixed ? 0 : 6, n = b + m->nvc;
  const size_t N = 6 + (size_t)m->nv, nn = (size_t)n * n;
  double *M1 = d->own_->dw + (size_t)m->nb * SPART_DERIV_BODY + N * SPART_DERIV_COLUMN;
  double *M2 = M1 + N * N, *M3 = M2 + N * N, *udot = M3 + N * N;

  /* the accelerations, and the inverse dynamics' derivatives there */
  int rc = spart_forward_dynamics(m, d, s, flags, gravity, udot);
  if (rc != 0) {
    return rc;
  }
  spart_state x = *s;
  x.u0dot = udot;
  x.umdot = udot + 6;
  spart_rnea_derivatives(m, d, &x, flags, gravity, out);

  /* H^-1 (the system's), then -H^-1 dtau_dq, -H^-1 dtau_du */
  double *H = M3;
  spart_crba(m, d, s, fixed, M3);
  if (m->coupled) {
    spart_mimic_matrix(m, b, M3, M2);
    H = M2;
  }
  if (spart_spd_inverse(H, n, M1, out + 2 * nn) != 0) {
    d->warn[SPART_WARN_SINGULAR]++;
    d->warn_body[SPART_WARN_SINGULAR] = 0;
    return -SPART_ENUM;
  }
  left_solve(out + 2 * nn, n, out, M1);
  left_solve(out + 2 * nn, n, out + nn, M1);
  return 0;
}
