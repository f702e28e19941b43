/* spart_jacobian.c -- geometric Jacobians of points on links, their time derivatives, and the
 * natural orthogonal complement (SPART Jacob, Jacobdot, NOC) */
#include <string.h>

#include "spart.h"
#include "spu.h"


/* write column col of a 6-row matrix with leading dimension ld */
static void setcol(double *J, int ld, int col, const double v[6]) {
  for (int k = 0; k < 6; k++) {
    J[k * ld + col] = v[k];
  }
}


/* Jacobian of point p on body i into J0 (6 x 6, leading dimension ld0) and Jm (6 x nq,
   leading dimension ldm) */
static void jacob(const spart_model *m, const spart_data *d, int i, const double p[3], double *J0,
                  int ld0, double *Jm, int ldm) {
  double dr[3], col[6];
  for (int k = 0; k < 3; k++) {
    dr[k] = p[k] - d->xpos[k];
  }

  /* base: B(p - r0) P0 */
  for (int c = 0; c < 3; c++) {
    double s[6] = {d->P0[c], d->P0[3 + c], d->P0[6 + c], 0, 0, 0};
    spu_mshift(col, s, dr);
    setcol(J0, ld0, c, col);
    double lin[6] = {0, 0, 0, c == 0, c == 1, c == 2};
    setcol(J0, ld0, 3 + c, lin);
  }

  /* joints on the path from body i to the base: B(p - r_j) pm_j */
  for (int r = 0; r < 6; r++) {
    memset(Jm + r * ldm, 0, (size_t)m->nv * sizeof(double));
  }
  for (int j = i; j > 0; j = m->body_parent[j]) {
    for (int k = 0; k < 3; k++) {
      dr[k] = p[k] - d->xpos[3 * j + k];
    }
    for (int a = m->jnt_vadr[j], end = a + m->jnt_nv[j]; a < end; a++) {
      spu_mshift(col, d->xS + 6 * a, dr);
      setcol(Jm, ldm, a, col);
    }
  }
}


void spart_jacobian(const spart_model *m, const spart_data *d, int i, const double *point,
                    double J0[36], double *Jm) {
  jacob(m, d, i, point ? point : d->xpos + 3 * i, J0, 6, Jm, m->nv);
}


void spart_jacobian_dot(const spart_model *m, const spart_data *d, int i, const double *point,
                        double J0dot[36], double *Jmdot) {
  const double *p = point ? point : d->xpos + 3 * i, *ti = d->t + 6 * i, *t0 = d->t;
  double dr[3], vp[3], dv[3], col[6], om[6];

  /* velocity of the point, moving with body i */
  for (int k = 0; k < 3; k++) {
    dr[k] = p[k] - d->xpos[3 * i + k];
  }
  spu_cross(vp, ti, dr);
  for (int k = 0; k < 3; k++) {
    vp[k] += ti[3 + k];
  }

  /* base: B(p - r0) Omega0 P0 + [0 0; [v0 - vp]x 0] P0; the linear columns vanish */
  memset(J0dot, 0, 36 * sizeof(double));
  for (int k = 0; k < 3; k++) {
    dr[k] = p[k] - d->xpos[k];
    dv[k] = t0[3 + k] - vp[k];
  }
  for (int c = 0; c < 3; c++) {
    double s[6] = {d->P0[c], d->P0[3 + c], d->P0[6 + c], 0, 0, 0}, e[3];
    spu_cross(om, t0, s);
    om[3] = om[4] = om[5] = 0;
    spu_mshift(col, om, dr);
    spu_cross(e, dv, s);
    for (int k = 0; k < 3; k++) {
      col[3 + k] += e[k];
    }
    setcol(J0dot, 6, c, col);
  }

  /* joints on the path: B(p - r_j) Omega_j pm_j + [0; (v_j - vp) x pm_j(omega)] */
  memset(Jmdot, 0, 6 * (size_t)m->nv * sizeof(double));
  for (int j = i; j > 0; j = m->body_parent[j]) {
    const double *tj = d->t + 6 * j;
    for (int k = 0; k < 3; k++) {
      dr[k] = p[k] - d->xpos[3 * j + k];
      dv[k] = tj[3 + k] - vp[k];
    }
    for (int a = m->jnt_vadr[j], end = a + m->jnt_nv[j]; a < end; a++) {
      const double *S = d->xS + 6 * a;
      double e[3];
      spu_omega(om, tj, S);
      spu_mshift(col, om, dr);
      spu_cross(e, dv, S);
      for (int k = 0; k < 3; k++) {
        col[3 + k] += e[k];
      }
      setcol(Jmdot, m->nv, a, col);
    }
  }
}


void spart_noc(const spart_model *m, const spart_data *d, double *N) {
  /* block row 0 is the base twist t0 = [P0 0] u, block row i the Jacobian of the CoM of
     link i: t_i = N_i u */
  int ld = 6 + m->nv;
  memset(N, 0, (size_t)6 * ld * sizeof(double));
  for (int r = 0; r < 3; r++) {
    memcpy(N + r * ld, d->P0 + 3 * r, 3 * sizeof(double));
    N[(3 + r) * ld + 3 + r] = 1;
  }
  for (int i = 1; i < m->nb; i++) {
    double *row = N + (size_t)6 * i * ld;
    jacob(m, d, i, d->xpos + 3 * i, row, ld, row + 6, ld);
  }
}


void spart_jacobian_reference(int ref, const double R[9], const double p[3], int ncols,
                              double *J) {
  for (int c = 0; c < ncols; c++) {
    double w[3] = {J[c], J[ncols + c], J[2 * ncols + c]};
    double v[3] = {J[3 * ncols + c], J[4 * ncols + c], J[5 * ncols + c]}, a[3], b[3];
    if (ref == SPART_REF_LOCAL) { /* both parts in the body's axes */
      spu_mulmtv3(a, R, w);
      spu_mulmtv3(b, R, v);
    } else if (ref == SPART_REF_WORLD) { /* the body's point at the origin: v - omega x p */
      double x[3];
      spu_cross(x, p, w);
      for (int k = 0; k < 3; k++) {
        a[k] = w[k];
        b[k] = v[k] + x[k];
      }
    } else {
      continue;
    }
    for (int k = 0; k < 3; k++) {
      J[k * ncols + c] = a[k];
      J[(3 + k) * ncols + c] = b[k];
    }
  }
}
