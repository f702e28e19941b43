/* spu_spatial.c -- spatial algebra at moving reference points, inertial frame projection (spu_:
 * utilities that take no model or data, as MuJoCo's mju_).
 *
 * The only file with element-by-element 6x6 formulas.  A twist shift by d is
 * B(d) = [1 0; -[d]x 1]; wrenches and inertias move with its transpose (Featherstone ch. 2,
 * SPART's Bij).
 */
#include <string.h>

#include "spu.h"


void spu_mshift(double res[6], const double m[6], const double d[3]) {
  double wxd[3];
  spu_cross(wxd, m, d);
  res[0] = m[0];
  res[1] = m[1];
  res[2] = m[2];
  res[3] = m[3] + wxd[0];
  res[4] = m[4] + wxd[1];
  res[5] = m[5] + wxd[2];
}


void spu_fshift(double res[6], const double f[6], const double d[3]) {
  double dxf[3];
  spu_cross(dxf, d, f + 3);
  res[0] = f[0] + dxf[0];
  res[1] = f[1] + dxf[1];
  res[2] = f[2] + dxf[2];
  res[3] = f[3];
  res[4] = f[4];
  res[5] = f[5];
}


void spu_omega(double res[6], const double w[3], const double m[6]) {
  spu_cross(res, w, m);
  spu_cross(res + 3, w, m + 3);
}


double spu_dot6(const double a[6], const double b[6]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5];
}


void spu_inertmul(double res[6], const double I[10], const double m[6]) {
  /* [J w + h x v; mass v - h x w] */
  double hxv[3], hxw[3];
  spu_mulsv3(res, I + 4, m);
  spu_cross(hxv, I + 1, m + 3);
  spu_cross(hxw, I + 1, m);
  for (int k = 0; k < 3; k++) {
    res[k] += hxv[k];
    res[3 + k] = I[0] * m[3 + k] - hxw[k];
  }
}


void spu_inertshift(double res[10], const double I[10], const double d[3]) {
  /* h' = h + m d;  J' = J - d h' - h d' + 2 (h.d) 1 - m (d d' - |d|^2 1) */
  double m = I[0], h[3] = {I[1], I[2], I[3]};
  double hd = spu_dot3(h, d), dd = spu_dot3(d, d);
  double diag = 2 * hd + m * dd;
  res[0] = m;
  res[4] = I[4] - 2 * d[0] * h[0] + diag - m * d[0] * d[0];
  res[5] = I[5] - 2 * d[1] * h[1] + diag - m * d[1] * d[1];
  res[6] = I[6] - 2 * d[2] * h[2] + diag - m * d[2] * d[2];
  res[7] = I[7] - d[0] * h[1] - h[0] * d[1] - m * d[0] * d[1];
  res[8] = I[8] - d[0] * h[2] - h[0] * d[2] - m * d[0] * d[2];
  res[9] = I[9] - d[1] * h[2] - h[1] * d[2] - m * d[1] * d[2];
  res[1] = h[0] + m * d[0];
  res[2] = h[1] + m * d[1];
  res[3] = h[2] + m * d[2];
}


void spu_rotlin(double res[6], const double R[9], const double f[6]) {
  for (int k = 0; k < 3; k++) {
    res[k] = f[k];
  }
  spu_mulmv3(res + 3, R, f + 3);
}


/* p[0], p[1] += x (a pair of doubles, spu.h's v2) */
static inline void add2(double *p, v2 x) {
  v2 y;
  memcpy(&y, p, sizeof y);
  y += x;
  memcpy(p, &y, sizeof y);
}


void spu_inertparent_add(double res[10], const double Q[9], const double rho[3],
                         const double I[10]) {
  /* turned: h = Q h_i, J = Q J_i Q' = Q (J_i - c 1) Q' + c 1 (c = J_i's zz: a matrix with a zero
     for the rows t_r = (J_i - c 1) q_r, q_r row r of Q, then J_rs = t_r . q_s); moved by
     d = rho: h' = h + m d, J' = J - (d e' + e d') + 2 (e . d) 1 with e = h + m d / 2
     (spu_inertshift's terms).  Rows 0 and 1 as pairs, in the layout of res: (m, h0) (h1, h2)
     (xx, yy) (zz, xy) (xz, yz). */
  double m = I[0], c = I[6], a = I[4] - c, b = I[5] - c, xy = I[7], xz = I[8], yz = I[9];
  v2 P0 = {Q[0], Q[3]}, P1 = {Q[1], Q[4]}, P2 = {Q[2], Q[5]};
  double q6 = Q[6], q7 = Q[7], q8 = Q[8];
  /* rows 0, 1 of T = Q (J_i - c 1) by columns; row 2 */
  v2 T0 = a * P0 + xy * P1 + xz * P2, T1 = xy * P0 + b * P1 + yz * P2, T2 = xz * P0 + yz * P1;
  v2 t2ab = (v2){a, xy} * q6 + (v2){xy, b} * q7 + (v2){xz, yz} * q8;
  double t22 = xz * q6 + yz * q7;
  v2 j01 = T0 * P0 + T1 * P1 + T2 * P2;                             /* (J_00, J_11) */
  v2 j2 = T0 * q6 + T1 * q7 + T2 * q8;                               /* (J_02, J_12) */
  v2 x = T0 * (v2){P0[1], 0} + T1 * (v2){P1[1], 0} + T2 * (v2){P2[1], 0}; /* J_01 */
  double j22 = t2ab[0] * q6 + t2ab[1] * q7 + t22 * q8;
  /* h = Q h_i, then the shift */
  v2 h01 = P0 * I[1] + P1 * I[2] + P2 * I[3], d01 = spu_load2(rho);
  double h2 = q6 * I[1] + q7 * I[2] + q8 * I[3], d2 = rho[2], hm = 0.5 * m;
  v2 e01 = h01 + hm * d01;
  double e2 = h2 + hm * d2;
  double diag = c + 2 * (e01[0] * d01[0] + e01[1] * d01[1] + e2 * d2);
  v2 hn = h01 + m * d01;
  add2(res, (v2){m, hn[0]});
  add2(res + 2, (v2){hn[1], h2 + m * d2});
  add2(res + 4, j01 - 2 * d01 * e01 + diag);
  add2(res + 6, (v2){j22 - 2 * d2 * e2 + diag, x[0] - (d01[0] * e01[1] + e01[0] * d01[1])});
  add2(res + 8, j2 - (d01 * e2 + e01 * d2));
}


void spu_inertbody(double res[10], double mass, const double J[6]) {
  res[0] = mass;
  res[1] = res[2] = res[3] = 0;
  for (int k = 0; k < 6; k++) {
    res[4 + k] = J[k];
  }
}


void spu_inert_to_mat6(double M[36], const double I[10]) {
  static const int sym[9] = {0, 3, 4, 3, 1, 5, 4, 5, 2};
  const double *h = I + 1;
  for (int r = 0; r < 3; r++) {
    for (int c = 0; c < 3; c++) {
      M[6 * r + c] = I[4 + sym[3 * r + c]];
      M[6 * (r + 3) + c + 3] = r == c ? I[0] : 0;
    }
  }

  /* upper right [h]x, lower left its transpose */
  const double hx[9] = {0, -h[2], h[1], h[2], 0, -h[0], -h[1], h[0], 0};
  for (int r = 0; r < 3; r++) {
    for (int c = 0; c < 3; c++) {
      M[6 * r + c + 3] = hx[3 * r + c];
      M[6 * (r + 3) + c] = hx[3 * c + r];
    }
  }
}


void spu_mat6shift(double M[36], const double d[3]) {
  /* with M = [A K; K' C] and D = [d]x:  A' = A - K D + D K' - D C D,  K' = K + D C.  A product
     with D is a cross product with d (row r of K D is k_r x d, column c of D C is d x c_c), and
     A', D C D are symmetric: their upper triangles, mirrored */
  double KD[9], DC[9], DCD[9];
  for (int r = 0; r < 3; r++) {
    const double *k = M + 6 * r + 3;
    double *kd = KD + 3 * r;
    kd[0] = k[1] * d[2] - k[2] * d[1];
    kd[1] = k[2] * d[0] - k[0] * d[2];
    kd[2] = k[0] * d[1] - k[1] * d[0];
  }
  for (int c = 0; c < 3; c++) {
    const double *cc = M + 6 * (c + 3) + 3; /* row c of C, its column c (C symmetric) */
    DC[c] = d[1] * cc[2] - d[2] * cc[1];
    DC[3 + c] = d[2] * cc[0] - d[0] * cc[2];
    DC[6 + c] = d[0] * cc[1] - d[1] * cc[0];
  }
  for (int r = 0; r < 3; r++) {
    const double *dc = DC + 3 * r;
    DCD[3 * r] = dc[1] * d[2] - dc[2] * d[1];
    DCD[3 * r + 1] = dc[2] * d[0] - dc[0] * d[2];
    DCD[3 * r + 2] = dc[0] * d[1] - dc[1] * d[0];
  }
  for (int r = 0; r < 3; r++) {
    for (int c = 0; c < 3; c++) {
      /* (D K')_rc = -(K D)_cr since D' = -D */
      if (c >= r) {
        double a = M[6 * r + c] - KD[3 * r + c] - KD[3 * c + r] - DCD[3 * r + c];
        M[6 * r + c] = a;
        M[6 * c + r] = a;
      }
      double k = M[6 * r + c + 3] + DC[3 * r + c];
      M[6 * r + c + 3] = k;
      M[6 * (c + 3) + r] = k;
    }
  }
}


void spu_mat6_downdate(double M[36], const double U[6], double D) {
  /* M symmetric: the upper triangle, mirrored */
  for (int r = 0; r < 6; r++) {
    for (int k = r; k < 6; k++) {
      M[6 * r + k] -= U[r] * U[k] / D;
      M[6 * k + r] = M[6 * r + k];
    }
  }
}


void spu_mulm6v(double res[6], const double M[36], const double v[6]) {
  for (int r = 0; r < 6; r++) {
    const double *a = M + 6 * r;
    res[r] = a[0] * v[0] + a[1] * v[1] + a[2] * v[2] + a[3] * v[3] + a[4] * v[4] + a[5] * v[5];
  }
}


/* the 6x6 forms of the reference recursions (spart_rnea_ref, spart_crba_ref, spart_aba_ref) */

void spu_xform6(double X[36], const double Q[9], const double rho[3]) {
  /* [E 0; -E [r]x E], E = Q', r = rho: row k of the lower left block takes w to
     q_k . (w x rho) = (rho x q_k) . w, q_k column k of Q */
  memset(X, 0, 36 * sizeof(double));
  for (int k = 0; k < 3; k++) {
    const double q[3] = {Q[k], Q[3 + k], Q[6 + k]};
    double qr[3];
    spu_cross(qr, rho, q);
    for (int c = 0; c < 3; c++) {
      X[6 * k + c] = X[6 * (3 + k) + 3 + c] = q[c];
      X[6 * (3 + k) + c] = qr[c];
    }
  }
}


void spu_mulm6tv(double res[6], const double M[36], const double v[6]) {
  for (int c = 0; c < 6; c++) {
    res[c] = 0;
    for (int r = 0; r < 6; r++) {
      res[c] += M[6 * r + c] * v[r];
    }
  }
}


void spu_crossm6(double res[6], const double v[6], const double m[6]) {
  /* [w x m_w; w x m_v + v_lin x m_w] */
  double a[3];
  spu_cross(res, v, m);
  spu_cross(res + 3, v, m + 3);
  spu_cross(a, v + 3, m);
  for (int k = 0; k < 3; k++) {
    res[3 + k] += a[k];
  }
}


void spu_crossf6(double res[6], const double v[6], const double f[6]) {
  /* [w x n + v_lin x f; w x f] */
  double a[3];
  spu_cross(res, v, f);
  spu_cross(a, v + 3, f + 3);
  spu_cross(res + 3, v, f + 3);
  for (int k = 0; k < 3; k++) {
    res[k] += a[k];
  }
}


void spu_mat6_congruence_add(double res[36], const double X[36], const double M[36]) {
  double MX[36];
  for (int r = 0; r < 6; r++) {
    for (int c = 0; c < 6; c++) {
      MX[6 * r + c] = 0;
      for (int k = 0; k < 6; k++) {
        MX[6 * r + c] += M[6 * r + k] * X[6 * k + c];
      }
    }
  }
  for (int r = 0; r < 6; r++) {
    for (int c = 0; c < 6; c++) {
      for (int k = 0; k < 6; k++) {
        res[6 * r + c] += X[6 * k + r] * MX[6 * k + c];
      }
    }
  }
}
