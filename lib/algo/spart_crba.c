/* spart_crba.c -- composite rigid body inertias, the generalized inertia matrix (SPART GIM,
 * Featherstone's CRBA) and the convective inertia matrix (SPART CIM), O(n^2) */
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"


/* the base's generalized forces P0' f of a wrench f at r0 */
static void base_force(double res[6], const spart_data *d, const double f[6]) {
  spu_mulmtv3(res, d->P0, f);
  memcpy(res + 3, f + 3, 3 * sizeof(double));
}


/* column c of P0: the base twist of u0 = e_c */
static void base_mode(double s[6], const spart_data *d, int c) {
  memset(s, 0, 6 * sizeof(double));
  if (c < 3) {
    s[0] = d->P0[c];
    s[1] = d->P0[3 + c];
    s[2] = d->P0[6 + c];
  } else {
    s[c] = 1;
  }
}


/* the motion subspaces pm referred to the base CoM r0 (d->xS0), so that a wrench referred to r0
   projects on any joint without being carried from link to link */
static void subspaces_at_base(const spart_model *m, spart_data *d) {
  for (int v = 0; v < m->nv; v++) {
    int i = m->dof_body[v];
    double dr[3];
    for (int k = 0; k < 3; k++) {
      dr[k] = d->xpos[k] - d->xpos[3 * i + k];
    }
    spu_mshift(d->xS0 + 6 * v, d->xS + 6 * v, dr);
  }
}


/* the wrench F at body j's CoM, referred to r0, projected on every moving joint k above j: S_k' F
   into column col of C ((6+nq) x (6+nq)) at row 6 + q index, and P0' F into its first rows (the
   base).  Needs subspaces_at_base. */
static void project_up(const spart_model *m, const spart_data *d, int j, const double F[6],
                       double *C, int col) {
  int nv = 6 + m->nv;
  double dr[3], F0[6], f0[6];
  for (int c = 0; c < 3; c++) {
    dr[c] = d->xpos[3 * j + c] - d->xpos[c];
  }
  spu_fshift(F0, F, dr);
  for (int k = m->body_parent[j]; k > 0; k = m->body_parent[k]) {
    for (int v = m->jnt_vadr[k], end = v + m->jnt_nv[k]; v < end; v++) {
      C[(6 + v) * nv + col] = spu_dot6(d->xS0 + 6 * v, F0);
    }
  }
  base_force(f0, d, F0);
  for (int r = 0; r < 6; r++) {
    C[r * nv + col] = f0[r];
  }
}


void spart_composite(const spart_model *m, spart_data *d) {
  /* the bodies alone: the base about its CoM, link i about F_i's origin (constants) */
  spu_inertbody(d->Ic, m->body_mass[0], m->body_inertia);
  for (int i = 1; i < m->nb; i++) {
    memcpy(d->Ic + 10 * i, d->jc + SPART_JC * i + SPART_JC_IO, 10 * sizeof(double));
  }

  /* backward pass: IC_p += X_i' IC_i X_i (RBDA table 6.2) */
  for (int i = m->nb - 1; i > 0; i--) {
    spu_inertparent_add(d->Ic + 10 * m->body_parent[i], d->Xrot + 9 * i, d->Xpos + 3 * i,
                        d->Ic + 10 * i);
  }
}


/* B = diag(1, R0') is the base's motion [w0; R0' r0dot] of u0 (SPART's u0), B' f = [n; R0 f] its
   generalized forces (SPART's tau0, spu_rotlin): with IC_0 = [J [h]x; -[h]x m 1],
   H0 = [J, [h]x R0'; R0 [h]x', m 1] */
void spart_base_inertia(const spart_model *m, const spart_data *d, const double R0[9],
                        double H0[36]) {
  (void)m;
  const double *I = d->Ic, *h = I + 1, *J = I + 4;
  static const int sym[9] = {0, 3, 4, 3, 1, 5, 4, 5, 2};
  for (int r = 0; r < 3; r++) {
    for (int c = 0; c < 3; c++) {
      H0[6 * r + c] = J[sym[3 * r + c]];
      H0[6 * (r + 3) + c + 3] = r == c ? I[0] : 0;
    }
  }
  /* column c of [h]x R0' is h x (row c of R0) */
  for (int c = 0; c < 3; c++) {
    double k[3];
    spu_cross(k, h, R0 + 3 * c);
    for (int r = 0; r < 3; r++) {
      H0[6 * r + 3 + c] = H0[6 * (3 + c) + r] = k[r];
    }
  }
}


/* column k of a compact inertia I (the 6x6 [J [h]x; -[h]x m 1]): the force I e_k, into F[0],
   F[ld], ... F[5 ld] */
static void inert_column(double *F, int ld, const double I[10], int k) {
  double m = I[0], h0 = I[1], h1 = I[2], h2 = I[3], f[6];
  switch (k) {
  case 0: /* [J e_0; -h x e_0] */
    f[0] = I[4], f[1] = I[7], f[2] = I[8], f[3] = 0, f[4] = -h2, f[5] = h1;
    break;
  case 1:
    f[0] = I[7], f[1] = I[5], f[2] = I[9], f[3] = h2, f[4] = 0, f[5] = -h0;
    break;
  case 2:
    f[0] = I[8], f[1] = I[9], f[2] = I[6], f[3] = -h1, f[4] = h0, f[5] = 0;
    break;
  case 3: /* [h x e_0; m e_0] */
    f[0] = 0, f[1] = h2, f[2] = -h1, f[3] = m, f[4] = 0, f[5] = 0;
    break;
  case 4:
    f[0] = -h2, f[1] = 0, f[2] = h0, f[3] = 0, f[4] = m, f[5] = 0;
    break;
  default:
    f[0] = h1, f[1] = -h0, f[2] = 0, f[3] = 0, f[4] = 0, f[5] = m;
    break;
  }
  for (int r = 0; r < 6; r++) {
    F[r * ld] = f[r];
  }
}


/* two columns at once: pairs of doubles (spu.h's v2, as spart_rnea's pairs) */

/* X' f = [Q n + rho x Q f; Q f] of the forces f = [n; f] of two columns, in place: a force in
   a child frame, Q (9) with its origin at rho (3) in its parent's, seen in the parent's frame at
   its origin; Q and rho as pairs of equal numbers */
static inline __attribute__((always_inline)) void fparent2(v2 f[6], const v2 Q[9],
                                                           const v2 rho[3]) {
  v2 f0 = Q[0] * f[3] + Q[1] * f[4] + Q[2] * f[5], f1 = Q[3] * f[3] + Q[4] * f[4] + Q[5] * f[5];
  v2 f2 = Q[6] * f[3] + Q[7] * f[4] + Q[8] * f[5];
  v2 n0 = (Q[0] * f[0] + Q[1] * f[1] + Q[2] * f[2]) + (rho[1] * f2 - rho[2] * f1);
  v2 n1 = (Q[3] * f[0] + Q[4] * f[1] + Q[5] * f[2]) + (rho[2] * f0 - rho[0] * f2);
  v2 n2 = (Q[6] * f[0] + Q[7] * f[1] + Q[8] * f[2]) + (rho[0] * f1 - rho[1] * f0);
  f[0] = n0, f[1] = n1, f[2] = n2, f[3] = f0, f[4] = f1, f[5] = f2;
}


/* the forces of a block of columns carried to the parent: F (6 rows of stride ld, a column a
   force [n; f] in F_i) = X' F for columns lo..hi-1, X F_i (Q) at rho in F_p (fparent2 on
   each column, two at a time; an odd last one in both halves of the pairs) */
static void carry_block(double *F, int ld, int lo, int hi, const double Q[9],
                        const double rho[3]) {
  v2 q[9], r[3], f[6];
  for (int k = 0; k < 9; k++) {
    q[k] = (v2){Q[k], Q[k]};
  }
  for (int k = 0; k < 3; k++) {
    r[k] = (v2){rho[k], rho[k]};
  }
  int t = lo;
  for (; t + 1 < hi; t += 2) {
    for (int k = 0; k < 6; k++) {
      f[k] = spu_load2(F + k * ld + t);
    }
    fparent2(f, q, r);
    for (int k = 0; k < 6; k++) {
      spu_store2(F + k * ld + t, f[k]);
    }
  }
  if (t < hi) {
    for (int k = 0; k < 6; k++) {
      f[k] = (v2){F[k * ld + t], F[k * ld + t]};
    }
    fparent2(f, q, r);
    for (int k = 0; k < 6; k++) {
      F[k * ld + t] = f[k][0];
    }
  }
}


/* component k (0..5) alone of X' f (fparent2's) for two columns: row k of Q times the linear
   or the angular part, plus (rho x Q f)_k for an angular one */
static inline v2 fparent2_at(const v2 f[6], const v2 Q[9], const v2 rho[3], int k) {
  static const int next[5] = {1, 2, 0, 1, 2};
  if (k >= 3) {
    const v2 *q = Q + 3 * (k - 3);
    return q[0] * f[3] + q[1] * f[4] + q[2] * f[5];
  }
  int k1 = next[k], k2 = next[k + 1];
  const v2 *q = Q + 3 * k, *q1 = Q + 3 * k1, *q2 = Q + 3 * k2;
  v2 g1 = q1[0] * f[3] + q1[1] * f[4] + q1[2] * f[5];
  v2 g2 = q2[0] * f[3] + q2[1] * f[4] + q2[2] * f[5];
  return q[0] * f[0] + q[1] * f[1] + q[2] * f[2] + (rho[k1] * g2 - rho[k2] * g1);
}


/* rows[0..nrows) alone of X' F for the columns lo..hi-1 of F (carry_block's, two at a time),
   when no more is needed: the components on the degrees of freedom of a joint whose parent is
   a fixed base */
static void carry_rows(double *F, int ld, int lo, int hi, const double Q[9], const double rho[3],
                       const int *rows, int nrows) {
  v2 q[9], r[3], f[6], g[6];
  for (int k = 0; k < 9; k++) {
    q[k] = (v2){Q[k], Q[k]};
  }
  for (int k = 0; k < 3; k++) {
    r[k] = (v2){rho[k], rho[k]};
  }
  for (int t = lo; t < hi; t += 2) {
    int two = t + 1 < hi;
    for (int k = 0; k < 6; k++) {
      f[k] = two ? spu_load2(F + k * ld + t) : (v2){F[k * ld + t], F[k * ld + t]};
    }
    for (int k = 0; k < nrows; k++) {
      g[k] = fparent2_at(f, q, r, rows[k]);
    }
    for (int k = 0; k < nrows; k++) {
      if (two) {
        spu_store2(F + rows[k] * ld + t, g[k]);
      } else {
        F[rows[k] * ld + t] = g[k][0];
      }
    }
  }
}


/* the transform of F_i in the frame of the body t above it (m->jnt_up), Q at rho: spart_xup's through
   the joints without a degree of freedom in between, so that nothing is carried through them
   twice */
static void fold_fixed(const spart_model *m, const spart_data *d, int i, int t, double Q[9],
                       double rho[3]) {
  memcpy(Q, d->Xrot + 9 * i, 9 * sizeof(double));
  memcpy(rho, d->Xpos + 3 * i, 3 * sizeof(double));
  for (int p = m->body_parent[i]; p != t; p = m->body_parent[p]) {
    double Q2[9], r2[3];
    const double *Qp = d->Xrot + 9 * p, *rp = d->Xpos + 3 * p;
    spu_mulmm3(Q2, Qp, Q);
    spu_mulmv3(r2, Qp, rho);
    memcpy(Q, Q2, sizeof Q2);
    for (int k = 0; k < 3; k++) {
      rho[k] = rp[k] + r2[k];
    }
  }
}


void spart_crba(const spart_model *m, spart_data *d, const double R0[9], const double *qm,
                int fixed_base, double *H) {
  int off = fixed_base ? 0 : 6, n = off + m->nv, nv = m->nv;
  const int *sub = m->jnt_sub, *tree = m->dof_tree, *axis = m->dof_axis;
  /* Ic the composite inertias; F (6 x nv, d->work) the forces of the columns, column t for the
     degree of freedom tree[t], each in the frame of the body its force has reached */
  double *Ic = d->Ic, *F = d->work;
  spart_xup(m, d, qm);

  spu_inertbody(Ic, m->body_mass[0], m->body_inertia);
  for (int i = 1; i < m->nb; i++) {
    memcpy(Ic + 10 * i, d->jc + SPART_JC * i + SPART_JC_IO, 10 * sizeof(double));
  }

  /* bodies from the leaves (RBDA table 6.2, the columns of a subtree as one block, as
     Pinocchio's CRBA): IC_i is whole once its children are done; joint i's columns
     F_a = IC_i S_a (S_a = e_(dof_axis): a column of IC_i) join the block of its subtree's, whose
     forces have reached F_i; the rows of its degrees of freedom are H_ba = S_b' F_a (one
     component of F_a) for every column a of the block, 0 for the columns after it (the other
     branches); then IC_i and the block go to the next body up with degrees of freedom (with a
     fixed base, none into the base) and at the base give the base's rows B' F_a */
  for (int i = m->nb - 1; i > 0; i--) {
    int lo = sub[2 * i], own = lo + m->jnt_nv[i], hi = sub[2 * i + 1], t = m->jnt_up[i];
    double Qc[9], rc[3];
    const double *Q = d->Xrot + 9 * i, *rho = d->Xpos + 3 * i;
    if (t != m->body_parent[i]) {
      fold_fixed(m, d, i, t, Qc, rc);
      Q = Qc, rho = rc;
    }
    for (int c = lo; c < own; c++) {
      inert_column(F + c, nv, Ic + 10 * i, axis[tree[c]]);
    }
    for (int s = lo; s < own; s++) {
      int b = tree[s];
      const double *Fb = F + axis[b] * nv;
      double *row = H + (off + b) * n + off, *col = H + off * n + off + b;
      for (int c = s; c < hi; c++) {
        double x = Fb[c];
        row[tree[c]] = x;
        col[tree[c] * n] = x;
      }
      for (int c = hi; c < nv; c++) {
        row[tree[c]] = col[tree[c] * n] = 0;
      }
      row[b] += m->jnt_armature[i];
    }
    if (t == 0 && fixed_base) {
      continue;
    }
    spu_inertparent_add(Ic + 10 * t, Q, rho, Ic + 10 * i);
    if (own == lo) {
      continue; /* no joint: its subtree's columns went past it */
    }
    if (t > 0 && fixed_base && m->jnt_up[t] == 0) {
      carry_rows(F, nv, lo, hi, Q, rho, axis + m->jnt_vadr[t], m->jnt_nv[t]);
      continue;
    }
    carry_block(F, nv, lo, hi, Q, rho);
    for (int c = lo; t == 0 && c < hi; c++) {
      int a = off + tree[c];
      double f[6], f0[6];
      for (int r = 0; r < 6; r++) {
        f[r] = F[r * nv + c];
      }
      spu_rotlin(f0, R0, f);
      for (int r = 0; r < 6; r++) {
        H[r * n + a] = H[a * n + r] = f0[r];
      }
    }
  }

  /* base block H0 = B' IC_0 B */
  if (!fixed_base) {
    double H0[36];
    spart_base_inertia(m, d, R0, H0);
    for (int r = 0; r < 6; r++) {
      memcpy(H + r * n, H0 + 6 * r, 6 * sizeof(double));
    }
  }
}


/* column col of C for the unit motion s of body j (at its CoM): with t = N u,
   C = N' (M Ndot + Mdot N), Mdot_i = [w_i x I_i, 0; 0, 0]; d->f and d->mark are scratch */
static void cim_column(const spart_model *m, spart_data *d, int j, const double s[6], double *C,
                       int col) {
  int nv = 6 + m->nv;
  const double *tj = d->t + 6 * j, *rj = d->xpos + 3 * j;
  double q[6], *in = d->mark;

  /* q = Omega_j s (the base's Omega has no linear block) */
  spu_omega(q, tj, s);
  if (j == 0) {
    q[3] = q[4] = q[5] = 0;
  }

  /* forward over the subtree of j: twist s_i, its rate a_i and the wrench g_i */
  for (int i = j; i < m->nb; i++) {
    in[i] = i == j || (i > j && m->body_parent[i] >= j && in[m->body_parent[i]] != 0);
    if (in[i] == 0) {
      continue;
    }
    const double *ti = d->t + 6 * i, *Ii = d->xI + 6 * i;
    double dr[3], dv[3], si[6], ai[6], e[3], Is[3], *g = d->f + 6 * i;
    for (int k = 0; k < 3; k++) {
      dr[k] = d->xpos[3 * i + k] - rj[k];
      dv[k] = tj[3 + k] - ti[3 + k];
    }
    spu_mshift(si, s, dr);
    spu_mshift(ai, q, dr);
    spu_cross(e, dv, s);
    for (int k = 0; k < 3; k++) {
      ai[3 + k] += e[k];
    }
    spu_mulsv3(g, Ii, ai);
    spu_mulsv3(Is, Ii, si);
    spu_cross(e, ti, Is);
    for (int k = 0; k < 3; k++) {
      g[k] += e[k];
      g[3 + k] = m->body_mass[i] * ai[3 + k];
    }
  }

  /* backward over the subtree: accumulate, project on each joint */
  for (int i = m->nb - 1; i > j; i--) {
    if (in[i] == 0) {
      continue;
    }
    int p = m->body_parent[i];
    double dr[3], sh[6];
    for (int a = m->jnt_vadr[i], end = a + m->jnt_nv[i]; a < end; a++) {
      C[(6 + a) * nv + col] = spu_dot6(d->xS + 6 * a, d->f + 6 * i);
    }
    for (int k = 0; k < 3; k++) {
      dr[k] = d->xpos[3 * i + k] - d->xpos[3 * p + k];
    }
    spu_fshift(sh, d->f + 6 * i, dr);
    for (int k = 0; k < 6; k++) {
      d->f[6 * p + k] += sh[k];
    }
  }

  /* body j itself, then its ancestors and the base */
  double F[6];
  memcpy(F, d->f + 6 * j, sizeof(F));
  for (int a = m->jnt_vadr[j], end = a + m->jnt_nv[j]; j > 0 && a < end; a++) {
    C[(6 + a) * nv + col] = spu_dot6(d->xS + 6 * a, F);
  }
  project_up(m, d, j, F, C, col);
}


void spart_cim(const spart_model *m, spart_data *d, double *C) {
  int nv = 6 + m->nv;
  memset(C, 0, (size_t)nv * nv * sizeof(double));
  subspaces_at_base(m, d);

  /* base columns: the motion P0 e_c of the base moves every body */
  for (int c = 0; c < 6; c++) {
    double s[6];
    base_mode(s, d, c);
    cim_column(m, d, 0, s, C, c);
  }

  /* joint columns: pm_v moves the subtree of its body */
  for (int v = 0; v < m->nv; v++) {
    cim_column(m, d, m->dof_body[v], d->xS + 6 * v, C, 6 + v);
  }
}


void spart_split(const spart_model *m, const double *A, double *A0, double *A0m, double *Am0,
                 double *Am) {
  int nq = m->nvc, nv = 6 + nq; /* the system's (spart_mimic.c): nv without coupled mimics */
  for (int r = 0; r < nv; r++) {
    for (int c = 0; c < nv; c++) {
      double x = A[r * nv + c];
      if (r < 6 && c < 6 && A0) {
        A0[6 * r + c] = x;
      } else if (r < 6 && c >= 6 && A0m) {
        A0m[nq * r + c - 6] = x;
      } else if (r >= 6 && c < 6 && Am0) {
        Am0[6 * (r - 6) + c] = x;
      } else if (r >= 6 && c >= 6 && Am) {
        Am[nq * (r - 6) + c - 6] = x;
      }
    }
  }
}


int spart_spd_inverse(const double *A, int n, double *work, double *Ainv) {
  memcpy(work, A, (size_t)n * n * sizeof(double));
  memset(Ainv, 0, (size_t)n * n * sizeof(double));
  for (int k = 0; k < n; k++) {
    Ainv[k * n + k] = 1;
  }
  return spu_cholsolve(work, Ainv, n, n, NULL) == 0 ? 0 : -SPART_ENUM;
}


/* the body whose degree of freedom is row k of u = [u0; um] */
static int dof_body(const spart_model *m, int k) {
  return k < 6 ? 0 : m->dof_body[k - 6];
}


/* row k of H in the order of elimination: the joints from the last to the first (each after its
   subtree's), then the base, rotations first: the articulated-body algorithm's pivots (RBDA 6.5) */
static int gim_order(int k, int nq, int n) {
  return k < nq ? n - 1 - k : k - nq;
}


int spart_gim_inverse(const spart_model *m, spart_data *d, int fixed_base, const double *H,
                      const double *scale, double *work, double *Hinv) {
  int off = fixed_base ? 6 : 0, nq = m->nv, n = 6 + nq - off;
  double *A = work, *X = work + (size_t)n * n, *sc = X + (size_t)n * n;
  for (int r = 0; r < n; r++) {
    int hr = gim_order(r, nq, n);
    sc[r] = scale[hr + off];
    for (int c = 0; c < n; c++) {
      A[r * n + c] = H[hr * n + gim_order(c, nq, n)];
      X[r * n + c] = r == c;
    }
  }
  int bad = spu_cholsolve(A, X, n, n, sc);
  if (bad != 0) {
    d->warn[SPART_WARN_SINGULAR]++;
    d->warn_body[SPART_WARN_SINGULAR] = dof_body(m, gim_order(bad - 1, nq, n) + off);
    return -SPART_ENUM;
  }
  for (int r = 0; r < n; r++) {
    for (int c = 0; c < n; c++) {
      Hinv[gim_order(r, nq, n) * n + gim_order(c, nq, n)] = X[r * n + c];
    }
  }
  return 0;
}
