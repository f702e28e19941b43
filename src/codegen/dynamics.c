/* dynamics.c -- spart-codegen's dynamics on symbols (passes.h): inverse dynamics (spart_rnea's
 * recursion), the joints' friction, the mass matrix (spart_crba's) and the LTDL solve of forward
 * dynamics, in the joint frames F_i, each link on a fixed joint merged into the link it rides on
 * (spart_merge_fixed: G->cj, G->cpar). */
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "passes.h"
#include "spart_internal.h"

/* res = X' f: [Q n + rho x Q f; Q f] (spart_rnea's force_up) */
static void force_up(cg *g, sx res[6], const sx Q[9], const sx rho[3], const sx f[6]) {
  sx r[6], rf[3];
  cg_mulmv(g, r, Q, f);
  cg_mulmv(g, r + 3, Q, f + 3);
  cg_cross3(g, rf, rho, r + 3);
  for (int k = 0; k < 3; k++) {
    r[k] = cg_add(g, r[k], rf[k]);
  }
  memcpy(res, r, sizeof r);
}


/* y = Q' x (tr) or Q x for body i's joint rotation Q = T Rz(h0 q) (xup_one's) kept in its two
   factors: T' x by the constant T, then the turn by the joint's sine and cosine (or the
   reverse).  For a vector taken through the joint once this is as cheap as Q's own entries,
   which need not then be made nor held from the forward pass to the backward one */
static void joint_rot(gen *G, const sx *q, int i, const double *T, int tr, sx y[3],
                      const sx x[3]) {
  cg *g = &G->g;
  const double *h = G->m->dof_screw + 2 * G->m->jnt_vadr[i];
  sx Tc[9], u[3], s = ZERO, c = ONE;
  for (int k = 0; k < 9; k++) {
    Tc[k] = cg_cst(T[k]);
  }
  if (G->m->jnt_nv[i] > 0 && h[0] != 0) {
    sx sc = cg_op(g, N_SC, cg_mul(g, cg_cst(h[0]), q[G->m->jnt_qadr[i]]), ZERO);
    s = cg_op(g, N_SIN, sc, ZERO), c = cg_op(g, N_COS, sc, ZERO);
  }
  if (tr) { /* Rz' T' x */
    cg_mulmtv(g, u, Tc, x);
    y[0] = cg_add(g, cg_mul(g, c, u[0]), cg_mul(g, s, u[1]));
    y[1] = cg_sub(g, cg_mul(g, c, u[1]), cg_mul(g, s, u[0]));
    y[2] = u[2];
  } else { /* T Rz x */
    u[0] = cg_sub(g, cg_mul(g, c, x[0]), cg_mul(g, s, x[1]));
    u[1] = cg_add(g, cg_mul(g, s, x[0]), cg_mul(g, c, x[1]));
    u[2] = x[2];
    cg_mulmv(g, y, Tc, u);
  }
}


/* the Newton-Euler force of a body, at its origin, from its angular velocity w, angular
   acceleration al and the classical acceleration ao of its origin (the origin's acceleration as
   a point, not the spatial one: ao = a + w x v), its CoM at c (NULL: at the origin):
   f = m (ao + al x c + w x (w x c)) at the CoM, n = Ic al + w x Ic w + c x f.  Equal to
   spart_rnea's I a + v x* I v; the body's linear velocity, which neither needs, is never made. */
static void body_force(cg *g, sx f[6], const double *Ic, double mass, const double *c,
                       const sx w[3], const sx al[3], const sx ao[3]) {
  sx I[6], Iw[3], wIw[3], ac[3], cc[3], m = cg_cst(mass);
  for (int k = 0; k < 6; k++) {
    I[k] = cg_cst(Ic[k]);
  }
  for (int k = 0; k < 3; k++) {
    ac[k] = ao[k];
    cc[k] = cg_cst(c ? c[k] : 0);
  }
  if (c) {
    sx wc[3], wwc[3], alc[3];
    cg_cross3(g, wc, w, cc);
    cg_cross3(g, wwc, w, wc);
    cg_cross3(g, alc, al, cc);
    for (int k = 0; k < 3; k++) {
      ac[k] = cg_add(g, ac[k], cg_add(g, alc[k], wwc[k]));
    }
  }
  cg_mulsv(g, f, I, al);
  cg_mulsv(g, Iw, I, w);
  cg_cross3(g, wIw, w, Iw);
  for (int k = 0; k < 3; k++) {
    f[k] = cg_add(g, f[k], wIw[k]);
    f[3 + k] = cg_mul(g, m, ac[k]);
  }
  if (c) {
    sx nc[3];
    cg_cross3(g, nc, cc, f + 3);
    for (int k = 0; k < 3; k++) {
      f[k] = cg_add(g, f[k], nc[k]);
    }
  }
}


/* inverse dynamics (spart_rnea's recursion, RBDA table 5.1): tau (6 + nv) at R0 (9), q,
   v = [u0; um], a = [u0dot; umdot] (6 + nv each), gravity g (3), with the armature; the
   friction is the caller's.  The forward pass carries each body's angular velocity w, angular
   acceleration al and its origin's classical acceleration ao (RBDA 2.11: ao = a + w x v of the
   spatial a, v), which need no linear velocity: from the parent p through the joint (Q, rho),
   ao = Q' (ao_p + al_p x rho + w_p x (w_p x rho)), then for the degree of freedom S = [sw; sv]
   at the rate qd, qdd: w += sw qd, al += sw qdd + (w x sw) qd,
   ao += sv qdd + 2 qd (w_before x sv) + qd^2 (sw x sv)  (equal to a + S qdd + v x S qd) */
void cg_rnea(gen *G, const sx R0[9], const sx *q, const sx *v, const sx *a, const sx g3[3],
             sx *tau) {
  const spart_model *m = G->m;
  cg *g = &G->g;
  int nb = m->nb;
  sx *W = calloc((size_t)nb * 15, sizeof(sx));
  if (!W) {
    g->oom = 1;
    return;
  }
  sx *A = W + 3 * nb, *F = A + 6 * nb, ga[3];

  /* base, in its frame: w0, w0dot, ao = R0' (r0ddot - g) */
  for (int k = 0; k < 3; k++) {
    W[k] = v[k];
    A[k] = a[k];
    ga[k] = cg_sub(g, a[3 + k], g3[k]);
  }
  cg_mulmtv(g, A + 3, R0, ga);
  body_force(g, F, G->cj + SPART_CJ_IC, G->cj[SPART_CJ_M], G->cj + SPART_CJ_C, W, A, A + 3);

  for (int i = 1; i < nb; i++) {
    int p = G->cpar[i];
    if (p < 0) {
      continue; /* merged into a body above it (spart_merge_fixed) */
    }
    const double *cj = G->cj + SPART_CJ * i;
    sx *wi = W + 3 * i, *ai = A + 6 * i, *wp = W + 3 * p, *ap = A + 6 * p;
    sx *rho = G->rho + 3 * i, wr[3], wwr[3], ar[3], t[3];
    cg_xup_one(G, q, i, cj + SPART_CJ_T, cj + SPART_CJ_R);
    cg_cross3(g, wr, wp, rho);
    cg_cross3(g, wwr, wp, wr);
    cg_cross3(g, ar, ap, rho);
    for (int k = 0; k < 3; k++) {
      t[k] = cg_add(g, ap[3 + k], cg_add(g, ar[k], wwr[k]));
    }
    joint_rot(G, q, i, cj + SPART_CJ_T, 1, wi, wp);
    joint_rot(G, q, i, cj + SPART_CJ_T, 1, ai, ap);
    joint_rot(G, q, i, cj + SPART_CJ_T, 1, ai + 3, t);
    for (int j = m->jnt_vadr[i], end = j + m->jnt_nv[i]; j < end; j++) {
      sx sw[3], sv[3], wsv[3], swsv[3], wsw[3], qd = v[6 + j], qdd = a[6 + j];
      for (int k = 0; k < 3; k++) {
        sw[k] = cg_cst(m->dof_S[6 * j + k]);
        sv[k] = cg_cst(m->dof_S[6 * j + 3 + k]);
      }
      cg_cross3(g, wsv, wi, sv);
      cg_cross3(g, swsv, sw, sv);
      sx qd2 = cg_mul(g, qd, qd), qdx2 = cg_mul(g, cg_cst(2), qd);
      for (int k = 0; k < 3; k++) {
        sx lin = cg_add(g, cg_mul(g, sv[k], qdd), cg_mul(g, wsv[k], qdx2));
        ai[3 + k] = cg_add(g, ai[3 + k], cg_add(g, lin, cg_mul(g, swsv[k], qd2)));
        wi[k] = cg_add(g, wi[k], cg_mul(g, sw[k], qd));
      }
      cg_cross3(g, wsw, wi, sw);
      for (int k = 0; k < 3; k++) {
        ai[k] = cg_add(g, ai[k], cg_add(g, cg_mul(g, sw[k], qdd), cg_mul(g, wsw[k], qd)));
      }
    }
    body_force(g, F + 6 * i, cj + SPART_CJ_IC, cj[SPART_CJ_M], cj + SPART_CJ_C, wi, ai, ai + 3);
  }

  /* backward pass: tau_i = S_i' f_i + armature qdd, f_p += X_i' f_i */
  for (int i = nb - 1; i > 0; i--) {
    if (G->cpar[i] < 0) {
      continue;
    }
    sx *f = F + 6 * i, *fp = F + 6 * G->cpar[i], fx[6];
    for (int j = m->jnt_vadr[i], end = j + m->jnt_nv[i]; j < end; j++) {
      sx t = ZERO;
      for (int k = 0; k < 6; k++) {
        t = cg_add(g, t, cg_mul(g, cg_cst(m->dof_S[6 * j + k]), f[k]));
      }
      tau[6 + j] = cg_add(g, t, cg_mul(g, cg_cst(m->jnt_armature[i]), a[6 + j]));
    }
    sx rf[3];
    joint_rot(G, q, i, G->cj + SPART_CJ * i + SPART_CJ_T, 0, fx, f);
    joint_rot(G, q, i, G->cj + SPART_CJ * i + SPART_CJ_T, 0, fx + 3, f + 3);
    cg_cross3(g, rf, G->rho + 3 * i, fx + 3); /* force_up's, Q in its factors */
    for (int k = 0; k < 6; k++) {
      fp[k] = cg_add(g, fp[k], k < 3 ? cg_add(g, fx[k], rf[k]) : fx[k]);
    }
  }

  /* base: tau0 = [torque (base frame); R0 force] */
  for (int k = 0; k < 3; k++) {
    tau[k] = F[k];
  }
  cg_mulmv(g, tau + 3, R0, F + 3);
  free(W);
}


/* the friction forces of the joints at the velocities um (spart_friction), into fr (nv) */
void cg_friction(gen *G, const sx *um, sx *fr) {
  const spart_model *m = G->m;
  cg *g = &G->g;
  for (int j = 0; j < m->nv; j++) {
    int i = m->dof_body[j];
    const double *c = m->jnt_friction + 2 * i;
    sx t = cg_mul(g, cg_cst(m->jnt_damping[i]), um[j]);
    if (c[0] != 0) {
      t = cg_add(g, t, cg_mul(g, cg_cst(c[0]), cg_op(g, N_GT0, um[j], ZERO)));
    }
    if (c[1] != 0) {
      t = cg_add(g, t, cg_mul(g, cg_cst(c[1]), cg_op(g, N_LT0, um[j], ZERO)));
    }
    fr[j] = t;
  }
}


/* the compact inertia (m, h, J: xx yy zz xy xz yz) X' I X of a child's I in its parent's frame
   (spu_inertparent_add's: turned, J = Q J_i Q', h = Q h_i, then moved by rho, spu_inertshift) */
static void inert_up(cg *g, sx res[10], const sx Q[9], const sx rho[3], const sx I[10]) {
  static const int sym[9] = {0, 3, 4, 3, 1, 5, 4, 5, 2};
  sx J[9], QJ[9], Jt[9], h[3], r[10];
  for (int k = 0; k < 9; k++) {
    J[k] = I[4 + sym[k]];
  }
  for (int a = 0; a < 3; a++) {
    for (int b = 0; b < 3; b++) {
      const sx col[3] = {J[b], J[3 + b], J[6 + b]};
      QJ[3 * a + b] = cg_dot3(g, Q + 3 * a, col);
    }
  }
  for (int a = 0; a < 3; a++) {
    for (int b = a; b < 3; b++) {
      Jt[3 * a + b] = cg_dot3(g, QJ + 3 * a, Q + 3 * b);
    }
  }
  cg_mulmv(g, h, Q, I + 1);
  /* h' = h + m d;  J' = J - d h' - h d' + 2 (h.d) 1 - m (d d' - |d|^2 1) */
  sx m = I[0], hd = cg_dot3(g, h, rho), dd = cg_dot3(g, rho, rho);
  sx diag = cg_add(g, cg_mul(g, cg_cst(2), hd), cg_mul(g, m, dd));
  static const int pa[6] = {0, 1, 2, 0, 0, 1}, pb[6] = {0, 1, 2, 1, 2, 2};
  for (int k = 0; k < 6; k++) {
    int a = pa[k], b = pb[k];
    sx t = cg_sub(g, Jt[3 * a + b], cg_add(g, cg_mul(g, rho[a], h[b]), cg_mul(g, h[a], rho[b])));
    t = cg_sub(g, t, cg_mul(g, m, cg_mul(g, rho[a], rho[b])));
    r[4 + k] = a == b ? cg_add(g, t, diag) : t;
  }
  r[0] = m;
  for (int k = 0; k < 3; k++) {
    r[1 + k] = cg_add(g, h[k], cg_mul(g, m, rho[k]));
  }
  memcpy(res, r, sizeof r);
}


/* the force I S of a compact inertia for the motion S: [J w + h x v; m v - h x w] */
static void inert_mul(cg *g, sx f[6], const sx I[10], const sx S[6]) {
  static const int sym[9] = {0, 3, 4, 3, 1, 5, 4, 5, 2};
  sx J[9], hv[3], hw[3];
  for (int k = 0; k < 9; k++) {
    J[k] = I[4 + sym[k]];
  }
  cg_mulmv(g, f, J, S);
  cg_cross3(g, hv, I + 1, S + 3);
  cg_cross3(g, hw, I + 1, S);
  for (int k = 0; k < 3; k++) {
    f[k] = cg_add(g, f[k], hv[k]);
    f[3 + k] = cg_sub(g, cg_mul(g, I[0], S[3 + k]), hw[k]);
  }
}


/* the generalized inertia matrix (spart_crba): H ((6 + nv)^2, row-major) at R0 (9), q; the
   joints' armature on its diagonal */
void cg_crba(gen *G, const sx R0[9], const sx *q, sx *H) {
  const spart_model *m = G->m;
  cg *g = &G->g;
  int nb = m->nb, n = 6 + m->nv;
  sx *IC = calloc((size_t)nb * 10, sizeof(sx));
  if (!IC) {
    g->oom = 1;
    return;
  }
  for (int i = 1; i < nb; i++) {
    if (G->cpar[i] >= 0) {
      cg_xup_one(G, q, i, G->cj + SPART_CJ * i + SPART_CJ_T, G->cj + SPART_CJ * i + SPART_CJ_R);
    }
  }
  for (int k = 0; k < n * n; k++) {
    H[k] = ZERO;
  }
  /* the bodies alone (the base about its CoM; fixed joints' bodies merged: spart_merge_fixed), then
     IC_p += X_i' IC_i X_i (RBDA table 6.2) */
  for (int i = 0; i < nb; i++) {
    for (int k = 0; k < 10; k++) {
      IC[10 * i + k] = cg_cst(G->cj[SPART_CJ * i + SPART_CJ_IO + k]);
    }
  }
  for (int i = nb - 1; i > 0; i--) {
    if (G->cpar[i] < 0) {
      continue;
    }
    sx t[10], *p = IC + 10 * G->cpar[i];
    inert_up(g, t, G->Q + 9 * i, G->rho + 3 * i, IC + 10 * i);
    for (int k = 0; k < 10; k++) {
      p[k] = cg_add(g, p[k], t[k]);
    }
  }

  /* each degree of freedom: F = IC_i S, H_jj = S' F, then carried up the tree, H_kj = S_k' F at
     every degree of freedom k above, B' F at the base */
  for (int j = 0; j < m->nv; j++) {
    int i = m->dof_body[j];
    sx S[6], F[6];
    for (int k = 0; k < 6; k++) {
      S[k] = cg_cst(m->dof_S[6 * j + k]);
    }
    inert_mul(g, F, IC + 10 * i, S);
    for (int b = i; b > 0; b = G->cpar[b]) {
      for (int k = m->jnt_vadr[b], end = k + m->jnt_nv[b]; k < end && k <= j; k++) {
        sx t = ZERO;
        for (int c = 0; c < 6; c++) {
          t = cg_add(g, t, cg_mul(g, cg_cst(m->dof_S[6 * k + c]), F[c]));
        }
        if (k == j) {
          t = cg_add(g, t, cg_cst(m->jnt_armature[i]));
        }
        H[(6 + k) * n + 6 + j] = H[(6 + j) * n + 6 + k] = t;
      }
      force_up(g, F, G->Q + 9 * b, G->rho + 3 * b, F); /* into the parent's frame */
    }
    sx f0[3];
    cg_mulmv(g, f0, R0, F + 3);
    for (int k = 0; k < 3; k++) {
      H[k * n + 6 + j] = H[(6 + j) * n + k] = F[k];
      H[(3 + k) * n + 6 + j] = H[(6 + j) * n + 3 + k] = f0[k];
    }
  }

  /* the base: H0 = [J, [h]x R0'; R0 [h]x', m 1] (spart_base_inertia) */
  static const int sym[9] = {0, 3, 4, 3, 1, 5, 4, 5, 2};
  const sx *I0 = IC;
  for (int r = 0; r < 3; r++) {
    for (int c = 0; c < 3; c++) {
      H[n * r + c] = I0[4 + sym[3 * r + c]];
      H[n * (r + 3) + c + 3] = r == c ? I0[0] : ZERO;
    }
  }
  for (int c = 0; c < 3; c++) {
    sx k[3];
    cg_cross3(g, k, I0 + 1, R0 + 3 * c);
    for (int r = 0; r < 3; r++) {
      H[n * r + 3 + c] = H[n * (3 + c) + r] = k[r];
    }
  }
  free(IC);
}


/* the parent of each degree of freedom of u = [u0; um] in the tree of H (-1 for the first):
   the base's six a chain, a joint's first the last of the nearest joint above (jnt_up), the
   base's last at the root; fixed: the joints alone (the base's are not in the system) */
void cg_dof_parents(const spart_model *m, int fixed, int *lam) {
  for (int k = 0; k < 6; k++) {
    lam[k] = fixed ? -1 : k - 1;
  }
  for (int j = 0; j < m->nv; j++) {
    int i = m->dof_body[j], up = m->jnt_up[i];
    if (j > m->jnt_vadr[i]) {
      lam[6 + j] = 6 + j - 1;
    } else if (up > 0) {
      lam[6 + j] = 6 + m->jnt_vadr[up] + m->jnt_nv[up] - 1;
    } else {
      lam[6 + j] = fixed ? -1 : 5;
    }
  }
}


/* x = H^-1 b for the degrees of freedom lo..n-1 of H (n x n, row-major, overwritten), in place
   in b: H = L' D L with the tree's sparsity (Featherstone's LTDL, RBDA 6.5), lam the parents.
   What a subtree takes from the entries above it is summed by the tree, not in one chain:
   T_k[i n + j] (i, j above k) is what k's subtree takes from H[i][j], k's own a H[k][j] plus
   its children's T_c, and it is taken when i is reached; Tb_k[j] the same for b[j].  Two
   branches of one shape then make alike sums (cg_pair), with as many operations as one chain.
   0, or -1 out of memory. */
int cg_ltdl_solve(cg *g, sx *H, int n, int lo, const int *lam, sx *b) {
  sx **T = calloc((size_t)n, sizeof(sx *));
  int err = !T;
  for (int k = n - 1; !err && k >= lo; k--) {
    size_t nt = (size_t)n * n + n; /* T_k, then Tb_k */
    T[k] = malloc(nt * sizeof(sx));
    if (!T[k]) {
      err = 1;
      break;
    }
    for (size_t e = 0; e < nt; e++) {
      T[k][e] = ZERO;
    }
    for (int c = k + 1; c < n; c++) { /* the children's sums: in T_k, or taken from row k */
      for (int i = k; T[c] && lam[c] == k && i >= lo; i = lam[i]) {
        for (int j = i; j >= lo; j = lam[j]) {
          if (i == k) {
            H[k * n + j] = cg_sub(g, H[k * n + j], T[c][k * n + j]);
          } else {
            T[k][i * n + j] = cg_add(g, T[k][i * n + j], T[c][i * n + j]);
          }
        }
      }
    }
    sx inv = cg_div(g, ONE, H[k * n + k]);
    for (int i = lam[k]; i >= lo; i = lam[i]) {
      sx a = cg_mul(g, H[k * n + i], inv);
      for (int j = i; j >= lo; j = lam[j]) {
        T[k][i * n + j] = cg_add(g, cg_mul(g, a, H[k * n + j]), T[k][i * n + j]);
      }
      H[k * n + i] = a;
    }
    H[k * n + k] = inv; /* kept as its inverse */
  }
  /* L' y = b, D z = y, L x = z */
  for (int i = n - 1; !err && i >= lo; i--) {
    sx *Tb = T[i] + (size_t)n * n;
    for (int c = i + 1; c < n; c++) {
      for (int j = i; T[c] && lam[c] == i && j >= lo; j = lam[j]) {
        sx *Tc = T[c] + (size_t)n * n;
        if (j == i) {
          b[i] = cg_sub(g, b[i], Tc[i]);
        } else {
          Tb[j] = cg_add(g, Tb[j], Tc[j]);
        }
      }
    }
    for (int j = lam[i]; j >= lo; j = lam[j]) {
      Tb[j] = cg_add(g, cg_mul(g, H[i * n + j], b[i]), Tb[j]);
    }
  }
  for (int i = lo; !err && i < n; i++) {
    b[i] = cg_mul(g, b[i], H[i * n + i]);
  }
  for (int i = lo; !err && i < n; i++) {
    for (int j = lam[i]; j >= lo; j = lam[j]) {
      b[i] = cg_sub(g, b[i], cg_mul(g, H[i * n + j], b[j]));
    }
  }
  for (int k = 0; T && k < n; k++) {
    free(T[k]);
  }
  free(T);
  return err ? -1 : 0;
}
