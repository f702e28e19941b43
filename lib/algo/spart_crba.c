/* spart_crba.c -- the generalized inertia matrix by composite rigid bodies (SPART GIM,
 * Featherstone's CRBA), O(n^2): the recursion as the textbook states it (spart_crba_ref); the
 * composite inertias, the base's block, the convective inertia matrix (SPART CIM) and the
 * inverses of H.  spart_crba itself runs the fast path (spart_crba_fast.c), held equal to
 * spart_crba_ref by tests/unit/test_recursions.c. */
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"


/* The recursion as RBDA table 6.2 states it (spatial_v2's HandC.m, its second half), over the
   joint table as spart_rnea_ref's (spart_rnea.c): X_i, S_a, I_i.  IC_i, the composite inertia
   of the subtree of body i about F_i's origin (6x6, in IA of d->own_), starts as I_i and takes each
   child's as the children are done; then the column of each degree of freedom a of joint i is
   the force F = IC_i S_a carried toward the base, projected on each joint it passes:

     IC_i = I_i for every body
     for i = n .. 1:  IC_p += X_i' IC_i X_i
     for i = n .. 1, each degree of freedom a of joint i:
       F = IC_i S_a
       H_ba = S_b' F (+ armature_i when b = a)  each degree of freedom b of joint i
       j = i
       while j > 0:
         F = X_j' F,  j = p(j)
         H_ba = H_ab = S_b' F                    each degree of freedom b of joint j > 0
       H_0a = H_a0' = B' F                       at the base: its motions B = diag(1, R0')
     H_00 = B' IC_0 B

   With a fixed base H is the joints' block alone (the rows and columns of the base left out).
   Leaves spart_xup's joint transforms in d; IA of d->own_ holds the IC_i. */
void spart_crba_ref(const spart_model *m, spart_data *d, const spart_state *s, int fixed_base,
                    double *H) {
  const double *R0 = s->R0, *qm = s->qm;
  int off = fixed_base ? 0 : 6, n = off + m->nv;
  double *IC = d->own_->IA, X[36], F[6], Fp[6];
  memset(H, 0, (size_t)n * n * sizeof(double)); /* the branches that do not meet */
  spart_xup(m, d, qm);
  for (int i = 0; i < m->nb; i++) {
    spart_ref_inertia(m, d, i, IC + 36 * i);
  }
  for (int i = m->nb - 1; i > 0; i--) {
    spu_xform6(X, d->Xrot + 9 * i, d->Xpos + 3 * i);
    spu_mat6_congruence_add(IC + 36 * m->body_parent[i], X, IC + 36 * i);
  }

  for (int i = m->nb - 1; i > 0; i--) {
    for (int a = m->jnt_vadr[i]; a < m->jnt_vadr[i] + m->jnt_nv[i]; a++) {
      spu_mulm6v(F, IC + 36 * i, m->dof_S + 6 * a);
      for (int b = m->jnt_vadr[i]; b < m->jnt_vadr[i] + m->jnt_nv[i]; b++) {
        H[(off + b) * n + off + a] = spu_dot6(m->dof_S + 6 * b, F);
      }
      H[(off + a) * n + off + a] += m->jnt_armature[i];
      for (int j = i; j > 0;) {
        spu_xform6(X, d->Xrot + 9 * j, d->Xpos + 3 * j);
        spu_mulm6tv(Fp, X, F);
        memcpy(F, Fp, sizeof F);
        j = m->body_parent[j];
        for (int b = m->jnt_vadr[j]; j > 0 && b < m->jnt_vadr[j] + m->jnt_nv[j]; b++) {
          H[(off + b) * n + off + a] = H[(off + a) * n + off + b] = spu_dot6(m->dof_S + 6 * b, F);
        }
      }
      if (!fixed_base) {
        spu_rotlin(Fp, R0, F); /* B' F = [n; R0 f] */
        for (int r = 0; r < 6; r++) {
          H[r * n + off + a] = H[(off + a) * n + r] = Fp[r];
        }
      }
    }
  }

  if (!fixed_base) {
    double B[36] = {0}, H0[36] = {0};
    for (int k = 0; k < 3; k++) {
      B[7 * k] = 1;
      for (int c = 0; c < 3; c++) {
        B[6 * (3 + k) + 3 + c] = R0[3 * c + k]; /* R0' */
      }
    }
    spu_mat6_congruence_add(H0, B, IC);
    for (int r = 0; r < 6; r++) {
      memcpy(H + r * n, H0 + 6 * r, 6 * sizeof(double));
    }
  }
}


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


/* the motion subspaces pm referred to the base CoM r0 (xS0 of d->own_), so that a wrench
   referred to r0 projects on any joint without being carried from link to link */
static void subspaces_at_base(const spart_model *m, spart_data *d) {
  double *xS0 = d->own_->xS0;
  for (int v = 0; v < m->nv; v++) {
    int i = m->dof_body[v];
    double dr[3];
    for (int k = 0; k < 3; k++) {
      dr[k] = d->xpos[k] - d->xpos[3 * i + k];
    }
    spu_mshift(xS0 + 6 * v, d->xS + 6 * v, dr);
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
  const double *xS0 = d->own_->xS0;
  for (int k = m->body_parent[j]; k > 0; k = m->body_parent[k]) {
    for (int v = m->jnt_vadr[k], end = v + m->jnt_nv[k]; v < end; v++) {
      C[(6 + v) * nv + col] = spu_dot6(xS0 + 6 * v, F0);
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
  const double *jc = d->own_->jc;
  for (int i = 1; i < m->nb; i++) {
    memcpy(d->Ic + 10 * i, jc + SPART_JC * i + SPART_JC_IO, 10 * sizeof(double));
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


/* column col of C for the unit motion s of body j (at its CoM): with t = N u,
   C = N' (M Ndot + Mdot N), Mdot_i = [w_i x I_i, 0; 0, 0]; d->f and mark of d->own_ are scratch */
static void cim_column(const spart_model *m, spart_data *d, int j, const double s[6], double *C,
                       int col) {
  int nv = 6 + m->nv;
  const double *tj = d->t + 6 * j, *rj = d->xpos + 3 * j;
  double q[6], *in = d->own_->mark;

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
                      double *work, double *Hinv) {
  int off = fixed_base ? 6 : 0, nq = m->nv, n = 6 + nq - off;
  double *A = work, *X = work + (size_t)n * n, *sc = X + (size_t)n * n, *scale = sc + n;
  spart_dof_scale(m, d, scale); /* on spart_crba's joint transforms */
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
