/* spart_aba_fast.c -- the fast path of forward dynamics by articulated bodies (spart_aba: RBDA
 * table 7.1 in the joint frames F_i of spart_rnea and spart_crba, its inertias compact and in
 * pairs, the common joints' axis a constant), which the commands run, and the scale of its
 * singularity test (spart_dof_scale).  The recursion to read is spart_aba_ref (spart_aba.c);
 * tests/unit/test_recursions.c holds the two equal. */
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"


/* Pairs of doubles (GCC's vector types, as in spart_rnea: one SSE2 instruction does both).  The
   joint transforms come from spart_rnea's forward pass as pairs of equal doubles (bQ, brho
   of d->own_), ready to multiply pairs.

   An articulated inertia [A B; B' C] (symmetric 6x6, angular first) is kept in 21 doubles: the
   symmetric blocks A and C side by side as 6 pairs {A_e, C_e} (e a symmetric 3x3's entry, SY),
   then B (9, row-major); entry (r, c) of the 6x6 is at IX[r][c]. */

/* SY[3 r + c]: entry (r, c) of a symmetric 3x3 kept as 6 numbers, whose (r, c) are SYRC[e] */
static const unsigned char SY[9] = {0, 1, 2, 1, 3, 4, 2, 4, 5};
static const unsigned char SYRC[6][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 2}, {2, 2}};
static const unsigned char IX[6][6] = {
    {0, 2, 4, 12, 13, 14},  {2, 6, 8, 15, 16, 17},  {4, 8, 10, 18, 19, 20},
    {12, 15, 18, 1, 3, 5}, {13, 16, 19, 3, 7, 9}, {14, 17, 20, 5, 9, 11}};


/* a body's own inertia (compact: mass, h, J about F_i's origin): [J [h]x; [h]x' m 1] */
static void inertia_body(double *restrict M, const double I[10]) {
  const double *h = I + 1, *J = I + 4, m = I[0];
  v2 *AC = (v2 *)M;
  double *B = M + 12;
  AC[0] = (v2){J[0], m}, AC[1] = (v2){J[3], 0}, AC[2] = (v2){J[4], 0};
  AC[3] = (v2){J[1], m}, AC[4] = (v2){J[5], 0}, AC[5] = (v2){J[2], m};
  B[0] = 0, B[1] = -h[2], B[2] = h[1];
  B[3] = h[2], B[4] = 0, B[5] = -h[0];
  B[6] = -h[1], B[7] = h[0], B[8] = 0;
}


/* M += X' I X: the articulated inertia I of F_i seen in F_p at its origin, F_i being Q (9) at
   rho (3) in F_p (pairs of equal doubles).  Turned, A1 = Q A Q', C1 = Q C Q' (side by side),
   B1 = Q (B Q'); then moved by rho (R = [rho]x, RBDA 2.66): [A1 + R B1' + B1 R' + R C1 R',
   B1 + R C1; ., C1], where column j of R B1' is rho x (row j of B1), column j of R C1 is rho x
   (column j of C1) and row j of R C1 R' is rho x (row j of R C1). */
static void inertia_up(double *restrict M, const v2 Q[9], const v2 rho[3],
                       const double *restrict I) {
  const v2 *AC = (const v2 *)I;
  const double *B = I + 12;
  v2 QAC[9], AC1[6], BQ[3], B1[3], RBC[9];
  double BQ2[3], B12[3];
  for (int r = 0; r < 3; r++) {
    const v2 *q = Q + 3 * r;
    for (int c = 0; c < 3; c++) {
      QAC[3 * r + c] = q[0] * AC[SY[c]] + q[1] * AC[SY[3 + c]] + q[2] * AC[SY[6 + c]];
    }
  }
  for (int e = 0; e < 6; e++) {
    const v2 *qa = QAC + 3 * SYRC[e][0], *q = Q + 3 * SYRC[e][1];
    AC1[e] = qa[0] * q[0] + qa[1] * q[1] + qa[2] * q[2];
  }
  /* B Q': columns 0 and 1 as pairs (rows 0 and 1 of Q side by side), column 2 alone; then
     B1 = Q (B Q') the same way */
  const v2 q01[3] = {{Q[0][0], Q[3][0]}, {Q[1][0], Q[4][0]}, {Q[2][0], Q[5][0]}};
  for (int r = 0; r < 3; r++) {
    const double *b = B + 3 * r;
    BQ[r] = b[0] * q01[0] + b[1] * q01[1] + b[2] * q01[2];
    BQ2[r] = b[0] * Q[6][0] + b[1] * Q[7][0] + b[2] * Q[8][0];
  }
  for (int r = 0; r < 3; r++) {
    const v2 *q = Q + 3 * r;
    B1[r] = q[0] * BQ[0] + q[1] * BQ[1] + q[2] * BQ[2];
    B12[r] = q[0][0] * BQ2[0] + q[1][0] * BQ2[1] + q[2][0] * BQ2[2];
  }
  /* RBC[3 r + j]: lane 0 (R B1')_rj, lane 1 (R C1)_rj */
  for (int j = 0; j < 3; j++) {
    v2 x = {B1[j][0], AC1[SY[j]][1]}, y = {B1[j][1], AC1[SY[3 + j]][1]},
       z = {B12[j], AC1[SY[6 + j]][1]};
    RBC[j] = rho[1] * z - rho[2] * y;
    RBC[3 + j] = rho[2] * x - rho[0] * z;
    RBC[6 + j] = rho[0] * y - rho[1] * x;
  }
  v2 *MAC = (v2 *)M;
  double *MB = M + 12;
  const double p0 = rho[0][0], p1 = rho[1][0], p2 = rho[2][0];
  for (int e = 0; e < 6; e++) {
    int r = SYRC[e][0], c = SYRC[e][1];
    const v2 *rc = RBC + 3 * r;
    double rcr = c == 0   ? p1 * rc[2][1] - p2 * rc[1][1]
                 : c == 1 ? p2 * rc[0][1] - p0 * rc[2][1]
                          : p0 * rc[1][1] - p1 * rc[0][1];
    MAC[e] += AC1[e] + (v2){RBC[3 * r + c][0] + RBC[3 * c + r][0] + rcr, 0};
  }
  for (int r = 0; r < 3; r++) {
    MB[3 * r] += B1[r][0] + RBC[3 * r][1];
    MB[3 * r + 1] += B1[r][1] + RBC[3 * r + 1][1];
    MB[3 * r + 2] += B12[r] + RBC[3 * r + 2][1];
  }
}


/* the subtree of a body, s: mass, CoM in its frame (3), the trace of its rotational inertia
   about that CoM; s_p += s_i, F_i being Q (9) at rho (3) in F_p, each number qs doubles from the
   last (1, or 2 for spart_rnea's pairs).  Merging adds two positive terms: nothing cancels. */
static inline void subtree_merge(double *restrict sp, const double *restrict s, const double *Q,
                                 const double *rho, int qs) {
  double M = sp[0] + s[0];
  if (M > 0) {
    double dg[3], w = s[0] / M;
    for (int k = 0; k < 3; k++) {
      const double *q = Q + 3 * qs * k;
      dg[k] = q[0] * s[1] + q[qs] * s[2] + q[2 * qs] * s[3] + rho[qs * k] - sp[1 + k];
    }
    for (int k = 0; k < 3; k++) {
      sp[1 + k] += w * dg[k];
    }
    sp[4] += s[4] + 2 * sp[0] * w * spu_dot3(dg, dg); /* 2 (Mp Mc / M) |gc - gp|^2 */
    sp[0] = M;
  }
}


/* body i alone as a subtree (F_0 is the base's CoM frame) */
static inline void subtree_body(const spart_model *m, const double *jc, int i, double *s) {
  const double *I = m->body_inertia + 6 * i;
  s[0] = m->body_mass[i];
  if (i > 0) {
    memcpy(s + 1, jc + SPART_JC * i + SPART_JC_C, 3 * sizeof(double));
  } else {
    s[1] = s[2] = s[3] = 0;
  }
  s[4] = I[0] + I[1] + I[2];
}


/* what degree of freedom a of body i moves, its subtree being s: a rotation (h0) turns it about
   the joint (F_i's origin), a translation (h1 per unit, of either sign: a helical joint's) moves
   its mass; plus the armature */
static inline double subtree_scale(const spart_model *m, int i, int a, const double *s) {
  const double *h = m->dof_screw + 2 * a;
  return h[0] * (s[4] + 2 * s[0] * spu_dot3(s + 1, s + 1)) + h[1] * h[1] * s[0] +
         m->jnt_armature[i];
}


/* the base: its rotations turn everything about its CoM, its translations move all the mass */
static void base_scale(const double *s, double scale[6]) {
  for (int k = 0; k < 3; k++) {
    scale[k] = s[4] + 2 * s[0] * spu_dot3(s + 1, s + 1);
    scale[3 + k] = s[0];
  }
}


void spart_dof_scale(const spart_model *m, spart_data *d, double *scale) {
  /* each body's subtree, backward (d->f is scratch) */
  const double *jc = d->own_->jc;
  for (int i = 0; i < m->nb; i++) {
    subtree_body(m, jc, i, d->f + 6 * i);
  }
  for (int i = m->nb - 1; i > 0; i--) {
    subtree_merge(d->f + 6 * m->body_parent[i], d->f + 6 * i, d->Xrot + 9 * i, d->Xpos + 3 * i,
                  1);
  }
  base_scale(d->f, scale);
  for (int a = 0; a < m->nv; a++) {
    scale[6 + a] = subtree_scale(m, m->dof_body[a], a, d->f + 6 * m->dof_body[a]);
  }
}


/* degree of freedom a of body i, S = e_k in F_i (dof_axis), or the column S (dof_S) when it is
   not one unit column (k -1, a helical joint's), out of its articulated inertia IA and bias force
   pA (RBDA table 7.1): U = IA S (the column k), D = S' U + the armature, u = tau - S' pA; then
   Ia = IA - U U'/D, pa = pA + U u/D (the bias accelerations are in pA); U, D, u kept in o (d's
   own) for the forward pass.  The pivot D against what the degree of freedom moves (its
   subtree, d->f, is whole now): 1 when it fails. */
static inline __attribute__((always_inline)) int dof_reduce(const spart_model *m,
                                                            const spart_data *d,
                                                            struct spart_own *o, int i, int a,
                                                            int k, double *IA, double *pA,
                                                            const double *taum) {
  double U[6], W[6], D, u = taum ? taum[a] : 0;
  if (k >= 0) {
    for (int r = 0; r < 6; r++) {
      U[r] = IA[IX[r][k]];
    }
    D = U[k];
    u -= pA[k];
  } else {
    const double *S = m->dof_S + 6 * a;
    for (int r = 0; r < 6; r++) {
      U[r] = 0;
      for (int c = 0; c < 6; c++) {
        U[r] += IA[IX[r][c]] * S[c];
      }
    }
    D = spu_dot6(S, U);
    u -= spu_dot6(S, pA);
  }
  D += m->jnt_armature[i]; /* the rotor spins with the joint alone */
  if (!spu_pivot_ok(D, subtree_scale(m, i, a, d->f + 6 * i))) {
    return 1;
  }
  for (int r = 0; r < 6; r++) {
    W[r] = U[r] / D;
    pA[r] += W[r] * u;
  }
  v2 *AC = (v2 *)IA;
  double *B = IA + 12;
  for (int e = 0; e < 6; e++) {
    int r = SYRC[e][0], c = SYRC[e][1];
    AC[e] -= (v2){W[r], W[3 + r]} * (v2){U[c], U[3 + c]};
  }
  for (int r = 0; r < 3; r++) {
    for (int c = 0; c < 3; c++) {
      B[3 * r + c] -= W[r] * U[3 + c];
    }
  }
  memcpy(o->U + 6 * a, U, sizeof U);
  o->D[a] = D;
  o->u[a] = u;
  return 0;
}


int spart_aba(const spart_model *m, spart_data *d, const spart_state *s, int fixed_base,
              const double *gravity, double *udot) {
  const double *R0 = s->R0, *tau0 = s->tau0, *taum = s->taum;
  double *u0dot = udot, *umdot = udot + 6;
  /* pass 1 (spart_rnea's forward pass at zero accelerations): the joint transforms and the
     bias force of each body, its velocity products, the weight and -wF, in F_i */
  spart_rnea_bias(m, d, s, fixed_base, gravity);
  struct spart_own *o = d->own_;
  const v2 *XQ = (const v2 *)o->bQ, *XR = (const v2 *)o->brho;

  /* the bodies alone: IA_i the link's inertia about F_i's origin, pA_i its bias force, and
     the subtree of the singularity test's scales (d->f) */
  for (int i = 0; i < m->nb; i++) {
    double I0[10], *pA = o->pA + 6 * i;
    const double *I = o->jc + SPART_JC * i + SPART_JC_IO;
    if (i == 0) {
      spu_inertbody(I0, m->body_mass[0], m->body_inertia);
      I = I0;
    }
    inertia_body(o->IA + 36 * i, I);
    for (int k = 0; k < 6; k++) {
      pA[k] = o->bf[12 * i + 2 * k];
    }
    subtree_body(m, o->jc, i, d->f + 6 * i);
  }

  /* pass 2, backward: articulated inertias IA and bias forces pA */
  for (int i = m->nb - 1; i > 0; i--) {
    int p = m->body_parent[i];
    double *IA = o->IA + 36 * i, *pA = o->pA + 6 * i;
    /* the joint's degrees of freedom one at a time, the last first (as a chain of massless
       bodies); the common joints' one (m->jnt_zaxis) with its axis a constant */
    int z = m->jnt_zaxis[i], bad = 0;
    if (z == 2) {
      bad = dof_reduce(m, d, o, i, m->jnt_vadr[i], 2, IA, pA, taum);
    } else if (z == 5) {
      bad = dof_reduce(m, d, o, i, m->jnt_vadr[i], 5, IA, pA, taum);
    } else {
      for (int a = m->jnt_vadr[i] + m->jnt_nv[i] - 1; !bad && a >= m->jnt_vadr[i]; a--) {
        bad = dof_reduce(m, d, o, i, a, m->dof_axis[a], IA, pA, taum);
      }
    }
    if (bad) {
      d->warn[SPART_WARN_SINGULAR]++;
      d->warn_body[SPART_WARN_SINGULAR] = i;
      return -SPART_ENUM;
    }
    subtree_merge(d->f + 6 * p, d->f + 6 * i, o->bQ + 18 * i, o->brho + 6 * i, 2);
    if (p == 0 && fixed_base) {
      continue;
    }

    /* both to the parent: IA_p += X' Ia X, pA_p += X' pa = [Q n + rho x Q f; Q f] (n and f
       side by side) */
    const v2 *Q = XQ + 9 * i, *rho = XR + 3 * i;
    double *pp = o->pA + 6 * p;
    inertia_up(o->IA + 36 * p, Q, rho, IA);
    const v2 nf[3] = {{pA[0], pA[3]}, {pA[1], pA[4]}, {pA[2], pA[5]}};
    v2 Qnf[3];
    for (int r = 0; r < 3; r++) {
      Qnf[r] = Q[3 * r] * nf[0] + Q[3 * r + 1] * nf[1] + Q[3 * r + 2] * nf[2];
    }
    const double p0 = rho[0][0], p1 = rho[1][0], p2 = rho[2][0];
    pp[0] += Qnf[0][0] + p1 * Qnf[2][1] - p2 * Qnf[1][1];
    pp[1] += Qnf[1][0] + p2 * Qnf[0][1] - p0 * Qnf[2][1];
    pp[2] += Qnf[2][0] + p0 * Qnf[1][1] - p1 * Qnf[0][1];
    pp[3] += Qnf[0][1];
    pp[4] += Qnf[1][1];
    pp[5] += Qnf[2][1];
  }

  /* the base, in its CoM frame F_0: IA_0 a0 = [tau0 torque; R0' tau0 force] - pA_0, or a
     fixed base (a0 = 0: the weight is in the bias forces, as an acceleration of the base) */
  double *a0 = d->f;
  if (fixed_base) {
    memset(a0, 0, 6 * sizeof(double));
  } else {
    double A[36], scale[6];
    base_scale(d->f, scale);
    memset(a0, 0, 6 * sizeof(double));
    if (tau0) {
      memcpy(a0, tau0, 3 * sizeof(double));
      spu_mulmtv3(a0 + 3, R0, tau0 + 3);
    }
    for (int k = 0; k < 6; k++) {
      a0[k] -= o->pA[k];
    }
    for (int r = 0; r < 6; r++) {
      for (int c = 0; c < 6; c++) {
        A[6 * r + c] = o->IA[IX[r][c]];
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

  /* pass 3, forward: a_i = X a_p + S qdd past the bias accelerations, qdd = (u - U' X a_p)/D,
     X a_p = [Q' w; Q' (v + w x rho)] (the two side by side) */
  for (int i = 1; i < m->nb; i++) {
    const v2 *Q = XQ + 9 * i, *rho = XR + 3 * i;
    const double *ap = d->f + 6 * m->body_parent[i], p0 = rho[0][0], p1 = rho[1][0],
                 p2 = rho[2][0];
    double *ai = d->f + 6 * i;
    const v2 wv[3] = {{ap[0], ap[3] + ap[1] * p2 - ap[2] * p1},
                      {ap[1], ap[4] + ap[2] * p0 - ap[0] * p2},
                      {ap[2], ap[5] + ap[0] * p1 - ap[1] * p0}};
    for (int r = 0; r < 3; r++) {
      v2 x = Q[r] * wv[0] + Q[3 + r] * wv[1] + Q[6 + r] * wv[2];
      ai[r] = x[0];
      ai[3 + r] = x[1];
    }
    int z = m->jnt_zaxis[i];
    if (z >= 0) { /* the common joints: one degree of freedom, S = e_z */
      int a = m->jnt_vadr[i];
      umdot[a] = (o->u[a] - spu_dot6(o->U + 6 * a, ai)) / o->D[a];
      ai[z == 2 ? 2 : 5] += umdot[a];
      continue;
    }
    for (int a = m->jnt_vadr[i], end = a + m->jnt_nv[i]; a < end; a++) {
      int k = m->dof_axis[a];
      umdot[a] = (o->u[a] - spu_dot6(o->U + 6 * a, ai)) / o->D[a];
      if (k >= 0) {
        ai[k] += umdot[a];
        continue;
      }
      for (int r = 0; r < 6; r++) { /* S not one unit column */
        ai[r] += m->dof_S[6 * a + r] * umdot[a];
      }
    }
  }
  return 0;
}
