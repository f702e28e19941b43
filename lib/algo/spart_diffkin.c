/* spart_diffkin.c -- SPART's twist-propagation matrices (DiffKinematics: P0, pm, Bi0, Bij) and
 * the time derivative of the natural orthogonal complement (NOCdot), from the kinematics */
#include <string.h>

#include "spart.h"
#include "spu.h"


/* B = [1 0; skew(d) 1] (6x6, row-major): a twist at a point moved by -d, SPART's B */
static void bmat(double B[36], const double d[3]) {
  memset(B, 0, 36 * sizeof(double));
  for (int k = 0; k < 6; k++) {
    B[7 * k] = 1;
  }
  double *X = B + 18; /* rows 3..5, columns 0..2 */
  X[1] = -d[2];
  X[2] = d[1];
  X[6] = d[2];
  X[8] = -d[0];
  X[12] = -d[1];
  X[13] = d[0];
}


void spart_diffkin(const spart_model *m, const spart_data *d, double *P0, double *pm,
                   double *Bi0, double *Bij) {
  int n = m->nb - 1;
  /* P0 = [R0 0; 0 1] */
  if (P0) {
    memset(P0, 0, 36 * sizeof(double));
    for (int r = 0; r < 3; r++) {
      memcpy(P0 + 6 * r, d->P0 + 3 * r, 3 * sizeof(double));
      P0[6 * (3 + r) + 3 + r] = 1;
    }
  }
  /* pm: link i's joint's motion subspace at its CoM, one row a degree of freedom (SPART's one
     column a link for one; a zero row for a fixed joint) */
  for (int i = 1; pm && i < m->nb; i++) {
    if (m->jnt_nv[i] == 0) {
      memset(pm, 0, 6 * sizeof(double));
      pm += 6;
    }
    for (int v = m->jnt_vadr[i], end = v + m->jnt_nv[i]; v < end; v++, pm += 6) {
      for (int k = 0; k < 6; k++) {
        pm[k] = d->xS[6 * v + k] + 0.0; /* + 0.0: no -0 */
      }
    }
  }
  /* Bi0 = B(r0 - rL_i), Bij = B(rL_j - rL_i) when link j is on the path from link i to the
     base (SPART's con.branch), else 0 */
  for (int i = 1; i < m->nb; i++) {
    double dr[3];
    for (int k = 0; Bi0 && k < 3; k++) {
      dr[k] = d->xpos[k] - d->xpos[3 * i + k];
    }
    if (Bi0) {
      bmat(Bi0 + 36 * (i - 1), dr);
    }
    if (Bij) {
      for (int j = 1; j < m->nb; j++) {
        memset(Bij + 36 * ((size_t)(i - 1) * n + (j - 1)), 0, 36 * sizeof(double));
      }
      for (int j = i; j > 0; j = m->body_parent[j]) {
        for (int k = 0; k < 3; k++) {
          dr[k] = d->xpos[3 * j + k] - d->xpos[3 * i + k];
        }
        bmat(Bij + 36 * ((size_t)(i - 1) * n + (j - 1)), dr);
      }
    }
  }
}


int spart_diffkin_pm_rows(const spart_model *m) {
  int n = 0;
  for (int i = 1; i < m->nb; i++) {
    n += m->jnt_nv[i] > 0 ? m->jnt_nv[i] : 1;
  }
  return n;
}


void spart_noc_dot(const spart_model *m, spart_data *d, double *Ndot) {
  /* block row i is the derivative of the Jacobian of the CoM of body i (SPART Jacobdot), the
     base's [Omega0 P0 0] */
  int ld = 6 + m->nv;
  double *J0dot = d->work, *Jmdot = d->work + 36;
  for (int i = 0; i < m->nb; i++) {
    spart_jacobian_dot(m, d, i, NULL, J0dot, Jmdot);
    for (int r = 0; r < 6; r++) {
      double *row = Ndot + (size_t)(6 * i + r) * ld;
      memcpy(row, J0dot + 6 * r, 6 * sizeof(double));
      memcpy(row + 6, Jmdot + (size_t)m->nv * r, (size_t)m->nv * sizeof(double));
    }
  }
}
