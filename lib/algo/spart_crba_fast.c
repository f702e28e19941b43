/* spart_crba_fast.c -- the fast path of the generalized inertia matrix by composite rigid bodies
 * (spart_crba: RBDA table 6.2 with the columns of a subtree carried as one block, two at a time,
 * fixed joints folded, a fixed base's first joints' rows alone), which the commands run.  The
 * recursion to read is spart_crba_ref (spart_crba.c); tests/unit/test_recursions.c holds the two
 * equal. */
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"


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


/* the force I S of a compact inertia I for a degree of freedom whose S (6, dof_S) is not one
   unit column (a helical joint's): the columns of I weighted by S, into F[0], F[ld], ... */
static void inert_general(double *F, int ld, const double I[10], const double *S) {
  double f[6] = {0, 0, 0, 0, 0, 0}, c[6];
  for (int k = 0; k < 6; k++) {
    if (S[k] != 0) {
      inert_column(c, 1, I, k);
      for (int r = 0; r < 6; r++) {
        f[r] += S[k] * c[r];
      }
    }
  }
  for (int r = 0; r < 6; r++) {
    F[r * ld] = f[r];
  }
}


/* whether every degree of freedom of body t's joint is one unit column of S (dof_axis) */
static int unit_columns(const spart_model *m, int t) {
  for (int a = m->jnt_vadr[t], end = a + m->jnt_nv[t]; a < end; a++) {
    if (m->dof_axis[a] < 0) {
      return 0;
    }
  }
  return 1;
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


/* the transform of F_i in the frame of the body t above it (m->jnt_up), Q at rho: spart_xup's
   through the joints without a degree of freedom in between, so that nothing is carried through
   them twice */
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


void spart_crba(const spart_model *m, spart_data *d, const spart_state *st, int fixed_base,
                double *H) {
  const double *R0 = st->R0, *qm = st->qm;
  int off = fixed_base ? 0 : 6, n = off + m->nv, nv = m->nv;
  const int *sub = m->jnt_sub, *tree = m->dof_tree, *axis = m->dof_axis;
  /* Ic the composite inertias; F (6 x nv, d->work) the forces of the columns, column t for the
     degree of freedom tree[t], each in the frame of the body its force has reached */
  double *Ic = d->Ic, *F = d->work;
  spart_xup(m, d, qm);

  spu_inertbody(Ic, m->body_mass[0], m->body_inertia);
  const double *jc = d->own_->jc;
  for (int i = 1; i < m->nb; i++) {
    memcpy(Ic + 10 * i, jc + SPART_JC * i + SPART_JC_IO, 10 * sizeof(double));
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
      if (axis[tree[c]] >= 0) {
        inert_column(F + c, nv, Ic + 10 * i, axis[tree[c]]);
      } else {
        inert_general(F + c, nv, Ic + 10 * i, m->dof_S + 6 * tree[c]);
      }
    }
    for (int s = lo; s < own; s++) {
      int b = tree[s];
      double *row = H + (off + b) * n + off, *col = H + off * n + off + b;
      if (axis[b] >= 0) {
        const double *Fb = F + axis[b] * nv;
        for (int c = s; c < hi; c++) {
          double x = Fb[c];
          row[tree[c]] = x;
          col[tree[c] * n] = x;
        }
      } else { /* S_b not one unit column: S_b' F_a */
        const double *Sb = m->dof_S + 6 * b;
        for (int c = s; c < hi; c++) {
          double x = 0;
          for (int r = 0; r < 6; r++) {
            x += Sb[r] * F[r * nv + c];
          }
          row[tree[c]] = x;
          col[tree[c] * n] = x;
        }
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
    if (t > 0 && fixed_base && m->jnt_up[t] == 0 && unit_columns(m, t)) {
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
