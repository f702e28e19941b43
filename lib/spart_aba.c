/* spart_aba.c -- forward dynamics by articulated bodies (SPART FD, Featherstone's ABA, RBDA
 * table 7.1), O(n), in the joint frames F_i of spart_rnea and spart_crba */
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"


/* Articulated inertias are symmetric 6x6 matrices [A B; B' C] (row-major, angular first) of
   which only the upper triangle is kept: entry (r, c) of either triangle is at UP[r][c]. */
static const unsigned char UP[6][6] = {{0, 1, 2, 3, 4, 5},       {1, 7, 8, 9, 10, 11},
                                       {2, 8, 14, 15, 16, 17},   {3, 9, 15, 21, 22, 23},
                                       {4, 10, 16, 22, 28, 29},  {5, 11, 17, 23, 29, 35}};

/* pairs of doubles: the blocks A and C turn by the same rotation, side by side (GCC's vector
   types, as spart_rnea's: one SSE2 instruction does both) */
typedef double v2 __attribute__((vector_size(16)));


/* the upper triangle of a body's own inertia (compact: mass, h, J about F_i's origin):
   [J [h]x; [h]x' m 1] */
static void inertia_body(double *restrict M, const double I[10]) {
  const double *h = I + 1, *J = I + 4;
  M[0] = J[0], M[1] = J[3], M[2] = J[4], M[7] = J[1], M[8] = J[5], M[14] = J[2];
  M[3] = 0, M[4] = -h[2], M[5] = h[1];
  M[9] = h[2], M[10] = 0, M[11] = -h[0];
  M[15] = -h[1], M[16] = h[0], M[17] = 0;
  M[21] = M[28] = M[35] = I[0];
  M[22] = M[23] = M[29] = 0;
}


/* M += X' I X (upper triangles): the articulated inertia I of F_i seen in F_p at its origin,
   F_i being Q (9) at rho (3) in F_p.  Turned, A1 = Q A Q', B1 = Q B Q', C1 = Q C Q'; then moved
   by rho (R = [rho]x, RBDA 2.66): [A1 + R B1' + B1 R' + R C1 R', B1 + R C1; ., C1], where
   column j of R B1' is rho x (row j of B1), column j of R C1 is rho x (column j of C1) and row j
   of R C1 R' is rho x (row j of R C1). */
static void inertia_up(double *restrict M, const double Q[9], const double rho[3],
                       const double *restrict I) {
  v2 AC[9], QAC[9], AC1[9], RBC[9];
  double QB[9], B[9];
  for (int r = 0; r < 3; r++) {
    for (int c = 0; c < 3; c++) {
      AC[3 * r + c] = (v2){I[UP[r][c]], I[UP[3 + r][3 + c]]};
    }
  }
  for (int r = 0; r < 3; r++) {
    const double *q = Q + 3 * r;
    for (int c = 0; c < 3; c++) {
      QAC[3 * r + c] = q[0] * AC[c] + q[1] * AC[3 + c] + q[2] * AC[6 + c];
      QB[3 * r + c] = q[0] * I[3 + c] + q[1] * I[9 + c] + q[2] * I[15 + c];
    }
  }
  for (int r = 0; r < 3; r++) {
    const v2 *qa = QAC + 3 * r;
    const double *qb = QB + 3 * r;
    for (int c = 0; c < 3; c++) {
      const double *q = Q + 3 * c;
      B[3 * r + c] = qb[0] * q[0] + qb[1] * q[1] + qb[2] * q[2];
      if (c >= r) {
        AC1[3 * r + c] = AC1[3 * c + r] = qa[0] * q[0] + qa[1] * q[1] + qa[2] * q[2];
      }
    }
  }
  /* RBC[3 r + j]: lane 0 (R B1')_rj, lane 1 (R C1)_rj */
  for (int j = 0; j < 3; j++) {
    v2 x = {B[3 * j], AC1[j][1]}, y = {B[3 * j + 1], AC1[3 + j][1]},
       z = {B[3 * j + 2], AC1[6 + j][1]};
    RBC[j] = rho[1] * z - rho[2] * y;
    RBC[3 + j] = rho[2] * x - rho[0] * z;
    RBC[6 + j] = rho[0] * y - rho[1] * x;
  }
  for (int r = 0; r < 3; r++) {
    double rc0 = RBC[3 * r][1], rc1 = RBC[3 * r + 1][1], rc2 = RBC[3 * r + 2][1];
    double rcr[3] = {rho[1] * rc2 - rho[2] * rc1, rho[2] * rc0 - rho[0] * rc2,
                     rho[0] * rc1 - rho[1] * rc0};
    for (int c = 0; c < 3; c++) {
      M[6 * r + 3 + c] += B[3 * r + c] + RBC[3 * r + c][1];
      if (c >= r) {
        M[6 * r + c] += AC1[3 * r + c][0] + RBC[3 * r + c][0] + RBC[3 * c + r][0] + rcr[c];
        M[6 * (3 + r) + 3 + c] += AC1[3 * r + c][1];
      }
    }
  }
}


int spart_aba(const spart_model *m, spart_data *d, int fixed_base, const double R0[9],
              const double *qm, const double *u0, const double *um, const double *tau0,
              const double *taum, const double *wF, const double *gravity, double u0dot[6],
              double *umdot) {
  /* pass 1 (spart_rnea's forward pass at zero accelerations): the joint transforms and the
     bias force of each body, its velocity products, the weight and -wF, in F_i; the singularity
     test's scales need the transforms only */
  spart_rnea_bias(m, d, R0, qm, fixed_base ? NULL : u0, um, wF, gravity);
  double *scale = d->work;
  spart_dof_scale(m, d, scale);

  /* the bodies alone: IA_i the link's inertia about F_i's origin, pA_i its bias force */
  for (int i = fixed_base; i < m->nb; i++) {
    double I0[10], *pA = d->pA + 6 * i;
    const double *I = d->jc + SPART_JC * i + SPART_JC_IO;
    if (i == 0) {
      spu_inertbody(I0, m->body_mass[0], m->body_inertia);
      I = I0;
    }
    inertia_body(d->IA + 36 * i, I);
    for (int k = 0; k < 6; k++) {
      pA[k] = d->bf[12 * i + 2 * k];
    }
  }

  /* pass 2, backward: articulated inertias IA and bias forces pA */
  for (int i = m->nb - 1; i > 0; i--) {
    int p = m->body_parent[i];
    double *IA = d->IA + 36 * i, *pA = d->pA + 6 * i;
    /* the joint's degrees of freedom one at a time, the last first (as a chain of massless
       bodies), S = e_k in F_i (dof_axis): U = IA S the column k, D = S' U + the armature, u =
       tau - S' pA; then Ia = IA - U U'/D, pa = pA + U u/D (the bias accelerations are in pA) */
    for (int a = m->jnt_vadr[i] + m->jnt_nv[i] - 1, first = m->jnt_vadr[i]; a >= first; a--) {
      int k = m->dof_axis[a];
      double U[6], W[6];
      for (int r = 0; r < 6; r++) {
        U[r] = IA[UP[r][k]];
      }
      double D = U[k] + m->jnt_armature[i]; /* the rotor spins with the joint alone */
      double u = (taum ? taum[a] : 0) - pA[k];
      if (!spu_pivot_ok(D, scale[6 + a])) {
        d->warn[SPART_WARN_SINGULAR]++;
        d->warn_body[SPART_WARN_SINGULAR] = i;
        return -SPART_ENUM;
      }
      for (int r = 0; r < 6; r++) {
        W[r] = U[r] / D;
        pA[r] += W[r] * u;
        for (int c = r; c < 6; c++) {
          IA[6 * r + c] -= W[r] * U[c];
        }
      }
      memcpy(d->U + 6 * a, U, sizeof U);
      d->D[a] = D;
      d->u[a] = u;
    }
    if (p == 0 && fixed_base) {
      continue;
    }

    /* both to the parent: IA_p += X' Ia X, pA_p += X' pa */
    double fx[6], *pp = d->pA + 6 * p;
    inertia_up(d->IA + 36 * p, d->Xrot + 9 * i, d->Xpos + 3 * i, IA);
    spu_fparent(fx, d->Xrot + 9 * i, d->Xpos + 3 * i, pA);
    for (int k = 0; k < 6; k++) {
      pp[k] += fx[k];
    }
  }

  /* the base, in its CoM frame F_0: IA_0 a0 = [tau0 torque; R0' tau0 force] - pA_0, or a
     fixed base (a0 = 0: the weight is in the bias forces, as an acceleration of the base) */
  double *a0 = d->f;
  memset(a0, 0, 6 * sizeof(double));
  if (!fixed_base) {
    double A[36];
    if (tau0) {
      memcpy(a0, tau0, 3 * sizeof(double));
      spu_mulmtv3(a0 + 3, R0, tau0 + 3);
    }
    for (int k = 0; k < 6; k++) {
      a0[k] -= d->pA[k];
    }
    for (int r = 0; r < 6; r++) {
      for (int c = 0; c < 6; c++) {
        A[6 * r + c] = d->IA[UP[r][c]];
      }
    }
    if (spu_cholsolve(A, a0, 6, 1, scale) != 0) {
      d->warn[SPART_WARN_SINGULAR]++;
      d->warn_body[SPART_WARN_SINGULAR] = 0;
      return -SPART_ENUM;
    }
  }
  /* u0dot = [omega0dot (base frame); r0ddot]: a0 past the bias accelerations is the base's
     [omegadot; R0' r0ddot] */
  memcpy(u0dot, a0, 3 * sizeof(double));
  spu_mulmv3(u0dot + 3, R0, a0 + 3);

  /* pass 3, forward: a_i = X a_p + S qdd past the bias accelerations, qdd = (u - U' X a_p)/D */
  for (int i = 1; i < m->nb; i++) {
    const double *Q = d->Xrot + 9 * i, *rho = d->Xpos + 3 * i, *ap = d->f + 6 * m->body_parent[i];
    double *ai = d->f + 6 * i, wr[3], v[3];
    spu_cross(wr, ap, rho);
    for (int k = 0; k < 3; k++) {
      v[k] = ap[3 + k] + wr[k];
    }
    spu_mulmtv3(ai, Q, ap);
    spu_mulmtv3(ai + 3, Q, v);
    for (int a = m->jnt_vadr[i], end = a + m->jnt_nv[i]; a < end; a++) {
      umdot[a] = (d->u[a] - spu_dot6(d->U + 6 * a, ai)) / d->D[a];
      ai[m->dof_axis[a]] += umdot[a];
    }
  }
  return 0;
}
