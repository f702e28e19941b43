/* spart_linearize.c -- derivatives of the forward dynamics, from those of the inverse dynamics:
 * ID(q, u, FD(q, u, tau)) = tau, so dFD/dx = -H^-1 dID/dx (x = q, u) and dFD/dtau = H^-1
 * (Carpentier and Mansard, RSS 2018, section IV), H the mass matrix. */
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spart_sim.h"
#include "spu.h"

_Static_assert((int)SPART_FD_FIXED == (int)SPART_ID_FIXED &&
                   (int)SPART_FD_FRICTION == (int)SPART_ID_FRICTION,
               "spart_fd_derivatives passes its flags on");


/* Hinv (n x n) of the symmetric positive definite H (n x n) by Cholesky, H = L L', Hinv =
   L^-T L^-1: L in L's lower triangle (spu_cholsolve's factor, each pivot against its diagonal
   entry of H), L^-1 in Li's.  0, or -1 when H is not positive definite. */
static int spd_inverse(const double *H, int n, double *L, double *Li, double *Hinv) {
  memcpy(L, H, (size_t)n * n * sizeof(double));
  if (spu_cholsolve(L, NULL, n, 0, NULL) != 0) {
    return -1;
  }
  /* L^-1, column by column down: Li[i][j] = -(sum over j <= k < i of L[i][k] Li[k][j]) / L[i][i] */
  for (int j = 0; j < n; j++) {
    Li[j * n + j] = 1 / L[j * n + j];
    for (int i = j + 1; i < n; i++) {
      double t = 0;
      for (int k = j; k < i; k++) {
        t += L[i * n + k] * Li[k * n + j];
      }
      Li[i * n + j] = -t / L[i * n + i];
    }
  }
  /* Hinv[i][j] = sum over k >= max(i, j) of Li[k][i] Li[k][j], symmetric */
  for (int i = 0; i < n; i++) {
    for (int j = 0; j <= i; j++) {
      double t = 0;
      for (int k = i; k < n; k++) {
        t += Li[k * n + i] * Li[k * n + j];
      }
      Hinv[i * n + j] = Hinv[j * n + i] = t;
    }
  }
  return 0;
}


/* columns lo .. hi - 1 of A = -Hinv W for n x n matrices (W: A's copy), two at once in the lanes
   of a pair */
static void left_solve(const double *Hinv, int n, const double *W, int lo, int hi, double *A) {
  for (int r = 0; r < n; r++) {
    const double *h = Hinv + (size_t)r * n;
    int c = lo;
    for (; c + 1 < hi; c += 2) {
      v2 t = {0, 0};
      for (int k = 0; k < n; k++) {
        t += h[k] * spu_load2(W + (size_t)k * n + c);
      }
      spu_store2(A + (size_t)r * n + c, -t);
    }
    if (c < hi) {
      double t = 0;
      for (int k = 0; k < n; k++) {
        t += h[k] * W[(size_t)k * n + c];
      }
      A[(size_t)r * n + c] = -t;
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
  if (spd_inverse(H, n, M1, H == M2 ? M3 : M2, out + 2 * nn) != 0) {
    d->warn[SPART_WARN_SINGULAR]++;
    d->warn_body[SPART_WARN_SINGULAR] = 0;
    return -SPART_ENUM;
  }
  /* dtau_dq's columns of r0 are 0 (nothing depends on where the robot is), dudot_dq's too */
  memcpy(M1, out, nn * sizeof(double));
  left_solve(out + 2 * nn, n, M1, 0, b ? 3 : n, out);
  left_solve(out + 2 * nn, n, M1, b ? 6 : n, n, out);
  memcpy(M1, out + nn, nn * sizeof(double));
  left_solve(out + 2 * nn, n, M1, 0, n, out + nn);
  return 0;
}
