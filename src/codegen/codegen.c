/* codegen.c -- a model's algorithms as C99 source specialised to it (spart-codegen): the
 * algorithms of lib/ (spart_rnea, spart_crba, spart_fk, spart_jacobian) run once on symbols
 * instead of numbers, each operation folded when an operand is a constant of the model (0 and 1
 * of the joint axes and transforms drop out) and the rest written as straight-line C.  The
 * model's numbers come from the library (the joint constants jc of spart_joint_constants,
 * the degrees of freedom's axes and screws of spart_joint_setup); this file only writes text.
 * Two branches of one shape are written in pairs, two values a statement (cg_pair). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "codegen.h"
#include "emit.h"
#include "graph.h"
#include "pair.h"
#include "spart_internal.h"

/* ---------------------------------------------------------------------------------------------
 * the algorithms on symbols: lib/'s passes in the joint frames F_i (spart_joint_constants)
 */

typedef struct gen {
  cg g;
  const spart_model *m;
  const spart_data *d;
  int fixed;
  sx *Q, *rho; /* (nb x 9), (nb x 3): F_i in F_p (spart_xup's) */
  double *cj;  /* (nb x SPART_CJ) the dynamics' bodies, fixed joints merged (spart_merge_fixed) */
  int *cpar;   /* (nb) the dynamics' parent of a body, -1 for one merged into a body above */
  int *role;   /* (nv) a degree of freedom's role in its branch pair (cg_branch_roles) */
} gen;


static const double *jc(const gen *G, int i) {
  return G->d->own_->jc + SPART_JC * i;
}


/* the joint transform of body i at the coordinates q (spart_xup's one_screw), its constant part
   T (9) and r (3): the model's (jc) or the dynamics' (spart_merge_fixed) */
static void xup_one(gen *G, const sx *q, int i, const double *T, const double *r) {
  const spart_model *m = G->m;
  cg *g = &G->g;
  sx *Q = G->Q + 9 * i, *rho = G->rho + 3 * i;
  for (int k = 0; k < 9; k++) {
    Q[k] = cg_cst(T[k]);
  }
  for (int k = 0; k < 3; k++) {
    rho[k] = cg_cst(r[k]);
  }
  if (m->jnt_nv[i] == 0) {
    return;
  }
  const double *h = m->dof_screw + 2 * m->jnt_vadr[i];
  sx x = q[m->jnt_qadr[i]];
  if (h[0] != 0) {
    sx ang = cg_mul(g, cg_cst(h[0]), x);
    sx sc = cg_op(g, N_SC, ang, ZERO); /* the sine and cosine of one call */
    sx s = cg_op(g, N_SIN, sc, ZERO), c = cg_op(g, N_COS, sc, ZERO);
    for (int l = 0; l < 9; l += 3) {
      Q[l] = cg_add(g, cg_mul(g, c, cg_cst(T[l])), cg_mul(g, s, cg_cst(T[l + 1])));
      Q[l + 1] = cg_sub(g, cg_mul(g, c, cg_cst(T[l + 1])), cg_mul(g, s, cg_cst(T[l])));
    }
  }
  if (h[1] != 0) {
    sx z = cg_mul(g, cg_cst(h[1]), x);
    for (int l = 0; l < 3; l++) {
      rho[l] = cg_add(g, rho[l], cg_mul(g, z, cg_cst(T[3 * l + 2])));
    }
  }
}


/* the joint transforms of every body (the nodes are made where first needed: a pass that
   takes them body by body makes each just before its use, fewer values held at once) */
static void xup(gen *G, const sx *q) {
  for (int i = 1; i < G->m->nb; i++) {
    xup_one(G, q, i, jc(G, i) + SPART_JC_T, jc(G, i) + SPART_JC_R);
  }
}


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
static void rnea(gen *G, const sx R0[9], const sx *q, const sx *v, const sx *a, const sx g3[3],
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
    xup_one(G, q, i, cj + SPART_CJ_T, cj + SPART_CJ_R);
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
static void friction(gen *G, const sx *um, sx *fr) {
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
static void crba(gen *G, const sx R0[9], const sx *q, sx *H) {
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
      xup_one(G, q, i, G->cj + SPART_CJ * i + SPART_CJ_T, G->cj + SPART_CJ * i + SPART_CJ_R);
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
static void dof_parents(const spart_model *m, int fixed, int *lam) {
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
static int ltdl_solve(cg *g, sx *H, int n, int lo, const int *lam, sx *b) {
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


/* the pose of every link's CoM frame (spart_fk): T (nb x 16) row-major 4x4, [0] the base */
static void fk(gen *G, const sx R0[9], const sx r0[3], const sx *q, sx *T) {
  const spart_model *m = G->m;
  cg *g = &G->g;
  int nb = m->nb;
  sx *R = calloc((size_t)nb * 12, sizeof(sx));
  if (!R) {
    g->oom = 1;
    return;
  }
  sx *p = R + 9 * nb;
  xup(G, q);
  memcpy(R, R0, 9 * sizeof(sx));
  memcpy(p, r0, 3 * sizeof(sx));
  for (int i = 1; i < nb; i++) {
    int par = m->body_parent[i];
    sx *Ri = R + 9 * i, *Rp = R + 9 * par, *Q = G->Q + 9 * i, t[3];
    for (int a = 0; a < 3; a++) {
      for (int b = 0; b < 3; b++) {
        const sx col[3] = {Q[b], Q[3 + b], Q[6 + b]};
        Ri[3 * a + b] = cg_dot3(g, Rp + 3 * a, col);
      }
    }
    cg_mulmv(g, t, Rp, G->rho + 3 * i);
    for (int k = 0; k < 3; k++) {
      p[3 * i + k] = cg_add(g, p[3 * par + k], t[k]);
    }
  }
  /* the link frames: RL = R CR, rL = p + R c */
  for (int i = 0; i < nb; i++) {
    const double *CR = jc(G, i) + SPART_JC_CR, *c = jc(G, i) + SPART_JC_C;
    sx *Ti = T + 16 * i, cc[3] = {cg_cst(c[0]), cg_cst(c[1]), cg_cst(c[2])}, t[3];
    for (int a = 0; a < 3; a++) {
      for (int b = 0; b < 3; b++) {
        const sx col[3] = {cg_cst(CR[b]), cg_cst(CR[3 + b]), cg_cst(CR[6 + b])};
        Ti[4 * a + b] = cg_dot3(g, R + 9 * i + 3 * a, col);
      }
    }
    cg_mulmv(g, t, R + 9 * i, cc);
    for (int k = 0; k < 3; k++) {
      Ti[4 * k + 3] = cg_add(g, p[3 * i + k], t[k]);
      Ti[12 + k] = ZERO;
    }
    Ti[15] = ONE;
  }
  free(R);
}


/* ---------------------------------------------------------------------------------------------
 * the file
 */


const char *codegen_refuse(const spart_model *m) {
  if (m->coupled) {
    return "coupled mimic joints are not generated (leave out --mimic: they stay free joints)";
  }
  for (int i = 1; i < m->nb; i++) {
    if (m->jnt_nv[i] > 0 && (m->jnt_nq[i] != 1 || m->jnt_nv[i] != 1)) {
      return "only revolute, continuous, prismatic, helical and fixed joints are generated";
    }
    if (m->jnt_nv[i] > 0 && m->jnt_nq[i] != m->jnt_nv[i]) {
      return "only joints with as many coordinates as degrees of freedom are generated";
    }
  }
  return NULL;
}


static void begin(gen *G) {
  cg_reset(&G->g);
}


/* the inputs of an argument array, or n zeros when arr is NULL; those of a joint array
   (joint: one entry a degree of freedom) stand for their degree of freedom's role */
static void inputs_of(gen *G, sx *x, const char *arr, int n, int joint) {
  for (int k = 0; k < n; k++) {
    x[k] = arr ? cg_in(&G->g, arr, k) : ZERO;
    if (x[k].id >= 0) {
      G->g.n[x[k].id].role = joint ? G->role[k] : k;
    }
  }
}


static void inputs(gen *G, sx *x, const char *arr, int n) {
  inputs_of(G, x, arr, n, 0);
}


static void joint_inputs(gen *G, sx *x, const char *arr, int n) {
  inputs_of(G, x, arr, n, 1);
}


static void identity(sx R[9]) {
  for (int k = 0; k < 9; k++) {
    R[k] = k % 4 == 0 ? ONE : ZERO;
  }
}


typedef struct proto {
  int fn;
  const char *fixed, *floating;
} proto;

static const proto protos[] = {
    {CODEGEN_ID, "id(const double *q, const double *v, const double *a, const double *g, "
                "double *tau)",
     "id(const double *R0, const double *qm, const double *u0, const double *um, "
     "const double *u0dot, const double *umdot, const double *g, double *tau0, double *taum)"},
    {CODEGEN_MASS, "mass(const double *q, double *H)", "mass(const double *R0, const double *qm, "
                                                      "double *H)"},
    {CODEGEN_FD, "fd(const double *q, const double *v, const double *tau, const double *g, "
                "double *a)",
     "fd(const double *R0, const double *qm, const double *u0, const double *um, "
     "const double *tau0, const double *taum, const double *g, double *u0dot, double *umdot)"},
    {CODEGEN_FK, "fk(const double *q, double *T)", "fk(const double *R0, const double *r0, "
                                                  "const double *qm, double *T)"},
    {CODEGEN_JAC, "jac(const double *q, double *J)",
     "jac(const double *R0, const double *r0, const double *qm, double *J0, double *Jm)"},
};


static void put_proto(FILE *f, const codegen_opts *o, const proto *p, const char *end) {
  fprintf(f, "void %s_%s%s", o->prefix, o->fixed_base ? p->fixed : p->floating, end);
}


/* the functions' bodies, each from its arguments (fixed base: q, v, a, tau; floating: R0, qm,
   u0, um, ...; the base's missing arguments are constants, identity and zeros) to its outputs */
static void body_id(gen *G, FILE *f) {
  const spart_model *m = G->m;
  int n = 6 + m->nv, fixed = G->fixed;
  sx R0[9], g3[3], *x = calloc((size_t)(m->nq + 3 * n), sizeof(sx));
  if (!x) {
    G->g.oom = 1;
    return;
  }
  sx *q = x, *v = q + m->nq, *a = v + n, *tau = a + n;
  begin(G);
  if (fixed) {
    identity(R0);
  } else {
    inputs(G, R0, "R0", 9);
  }
  joint_inputs(G, q, fixed ? "q" : "qm", m->nq);
  inputs(G, v, fixed ? NULL : "u0", 6);
  joint_inputs(G, v + 6, fixed ? "v" : "um", m->nv);
  inputs(G, a, fixed ? NULL : "u0dot", 6);
  joint_inputs(G, a + 6, fixed ? "a" : "umdot", m->nv);
  inputs(G, g3, "g", 3);
  rnea(G, R0, q, v, a, g3, tau);
  sx *frv = calloc((size_t)m->nv + 1, sizeof(sx));
  if (!frv) {
    G->g.oom = 1;
    free(x);
    return;
  }
  friction(G, v + 6, frv);
  if (!fixed) {
    for (int k = 0; k < 6; k++) {
      cg_output(&G->g, "tau0", k, tau[k]);
    }
  }
  for (int j = 0; j < m->nv; j++) {
    cg_output(&G->g, fixed ? "tau" : "taum", j, cg_add(&G->g, tau[6 + j], frv[j]));
  }
  cg_write(&G->g, f);
  free(frv);
  free(x);
}


static void body_mass(gen *G, FILE *f) {
  const spart_model *m = G->m;
  int n = 6 + m->nv, fixed = G->fixed, lo = fixed ? 6 : 0, nn = n - lo;
  sx R0[9], *x = calloc((size_t)(m->nq + n * n), sizeof(sx));
  if (!x) {
    G->g.oom = 1;
    return;
  }
  sx *q = x, *H = q + m->nq;
  begin(G);
  if (fixed) {
    identity(R0);
  } else {
    inputs(G, R0, "R0", 9);
  }
  joint_inputs(G, q, fixed ? "q" : "qm", m->nq);
  crba(G, R0, q, H);
  for (int r = lo; r < n; r++) {
    for (int c = lo; c < n; c++) {
      cg_output(&G->g, "H", (r - lo) * nn + c - lo, H[r * n + c]);
    }
  }
  cg_write(&G->g, f);
  free(x);
}


static void body_fd(gen *G, FILE *f) {
  const spart_model *m = G->m;
  int n = 6 + m->nv, fixed = G->fixed, lo = fixed ? 6 : 0;
  sx R0[9], g3[3], *x = calloc((size_t)(m->nq + 5 * n + n * n), sizeof(sx));
  int *lam = calloc((size_t)n, sizeof(int));
  if (!x || !lam) {
    free(x);
    free(lam);
    G->g.oom = 1;
    return;
  }
  sx *q = x, *v = q + m->nq, *tau = v + n, *zero = tau + n, *bias = zero + n, *b = bias + n;
  sx *H = b + n, I3[9], gb[3];
  begin(G);
  if (fixed) {
    identity(R0);
  } else {
    inputs(G, R0, "R0", 9);
  }
  joint_inputs(G, q, fixed ? "q" : "qm", m->nq);
  inputs(G, v, fixed ? NULL : "u0", 6);
  joint_inputs(G, v + 6, fixed ? "v" : "um", m->nv);
  inputs(G, tau, fixed ? NULL : "tau0", 6);
  joint_inputs(G, tau + 6, fixed ? "tau" : "taum", m->nv);
  inputs(G, zero, NULL, n);
  inputs(G, g3, "g", 3);
  /* H udot = tau - friction - c, c the forces at udot = 0 (spart_rnea), H by spart_crba, solved
     with the base's linear rows and columns in its own frame: T' H T z = T' (tau - c),
     udot = T z, T = diag(1, R0, 1) (a rotation: the same solution), which the passes make with R0
     the identity and gravity in the base's frame, R0 then only at the base's force and
     acceleration (rnea's tau0 = [n; R0 f], crba's base rows R0 F, made and turned back, are not
     made) */
  identity(I3);
  cg_mulmtv(&G->g, gb, R0, g3);
  rnea(G, I3, q, v, zero, gb, bias);
  cg_mulmtv(&G->g, tau + 3, R0, tau + 3);
  friction(G, v + 6, b + 6);
  for (int k = 0; k < 6; k++) {
    b[k] = cg_sub(&G->g, tau[k], bias[k]);
  }
  for (int j = 0; j < m->nv; j++) {
    b[6 + j] = cg_sub(&G->g, cg_sub(&G->g, tau[6 + j], b[6 + j]), bias[6 + j]);
  }
  crba(G, I3, q, H);
  dof_parents(m, fixed, lam);
  if (ltdl_solve(&G->g, H, n, lo, lam, b) != 0) {
    G->g.oom = 1;
  }
  cg_mulmv(&G->g, b + 3, R0, b + 3);
  if (!fixed) {
    for (int k = 0; k < 6; k++) {
      cg_output(&G->g, "u0dot", k, b[k]);
    }
  }
  for (int j = 0; j < m->nv; j++) {
    cg_output(&G->g, fixed ? "a" : "umdot", j, b[6 + j]);
  }
  cg_write(&G->g, f);
  free(lam);
  free(x);
}


static void body_fk(gen *G, FILE *f) {
  const spart_model *m = G->m;
  int fixed = G->fixed;
  sx R0[9], r0[3], *x = calloc((size_t)(m->nq + 16 * m->nb), sizeof(sx));
  if (!x) {
    G->g.oom = 1;
    return;
  }
  sx *q = x, *T = q + m->nq;
  begin(G);
  if (fixed) {
    identity(R0);
  } else {
    inputs(G, R0, "R0", 9);
  }
  inputs(G, r0, fixed ? NULL : "r0", 3);
  joint_inputs(G, q, fixed ? "q" : "qm", m->nq);
  fk(G, R0, r0, q, T);
  for (int k = 16; k < 16 * m->nb; k++) {
    cg_output(&G->g, "T", k - 16, T[k]);
  }
  cg_write(&G->g, f);
  free(x);
}


/* the Jacobian of every link's CoM (spart_jacobian at the CoM): for a degree of freedom k of a
   joint on the path to link i, [S_w; S_v + S_w x (rL_i - p_k)] turned into the inertial frame
   (pm's column at the CoM), 0 elsewhere; the base's [R0, 0; -[rL_i - r0]x R0, 1] */
static void body_jac(gen *G, FILE *f) {
  const spart_model *m = G->m;
  cg *g = &G->g;
  int fixed = G->fixed, nb = m->nb, nv = m->nv;
  sx R0[9], r0[3], *x = calloc((size_t)(m->nq + 16 * nb + 12 * nb), sizeof(sx));
  if (!x) {
    g->oom = 1;
    return;
  }
  sx *q = x, *T = q + m->nq, *R = T + 16 * nb, *p = R + 9 * nb;
  begin(G);
  if (fixed) {
    identity(R0);
  } else {
    inputs(G, R0, "R0", 9);
  }
  inputs(G, r0, fixed ? NULL : "r0", 3);
  joint_inputs(G, q, fixed ? "q" : "qm", m->nq);
  fk(G, R0, r0, q, T);
  /* the joint frames F_i in the inertial frame again (fk's, the same nodes) */
  memcpy(R, R0, 9 * sizeof(sx));
  memcpy(p, r0, 3 * sizeof(sx));
  for (int i = 1; i < nb; i++) {
    int par = m->body_parent[i];
    sx *Ri = R + 9 * i, *Rp = R + 9 * par, *Q = G->Q + 9 * i, t[3];
    for (int a = 0; a < 3; a++) {
      for (int b = 0; b < 3; b++) {
        const sx col[3] = {Q[b], Q[3 + b], Q[6 + b]};
        Ri[3 * a + b] = cg_dot3(g, Rp + 3 * a, col);
      }
    }
    cg_mulmv(g, t, Rp, G->rho + 3 * i);
    for (int k = 0; k < 3; k++) {
      p[3 * i + k] = cg_add(g, p[3 * par + k], t[k]);
    }
  }
  for (int i = 1; i < nb; i++) {
    const sx rL[3] = {T[16 * i + 3], T[16 * i + 7], T[16 * i + 11]};
    int row0 = 6 * nv * (i - 1);
    for (int j = 0; j < nv; j++) {
      int b = m->dof_body[j], on = 0;
      for (int k = i; k > 0 && !on; k = m->body_parent[k]) {
        on = k == b;
      }
      sx col[6] = {ZERO, ZERO, ZERO, ZERO, ZERO, ZERO};
      if (on) {
        sx Sw[3], Sv[3], w[3], lin[3], d[3], wd[3];
        for (int k = 0; k < 3; k++) {
          Sw[k] = cg_cst(m->dof_S[6 * j + k]);
          Sv[k] = cg_cst(m->dof_S[6 * j + 3 + k]);
          d[k] = cg_sub(g, rL[k], p[3 * b + k]);
        }
        cg_mulmv(g, w, R + 9 * b, Sw);
        cg_mulmv(g, lin, R + 9 * b, Sv);
        cg_cross3(g, wd, w, d);
        for (int k = 0; k < 3; k++) {
          col[k] = w[k];
          col[3 + k] = cg_add(g, lin[k], wd[k]);
        }
      }
      for (int r = 0; r < 6; r++) {
        cg_output(g, fixed ? "J" : "Jm", row0 + r * nv + j, col[r]);
      }
    }
    if (!fixed) {
      sx d[3];
      for (int k = 0; k < 3; k++) {
        d[k] = cg_sub(g, rL[k], r0[k]);
      }
      for (int c = 0; c < 3; c++) {
        const sx e[3] = {R0[c], R0[3 + c], R0[6 + c]};
        sx wd[3];
        cg_cross3(g, wd, e, d);
        for (int r = 0; r < 3; r++) {
          cg_output(g, "J0", 36 * (i - 1) + 6 * r + c, e[r]);
          cg_output(g, "J0", 36 * (i - 1) + 6 * r + 3 + c, ZERO);
          cg_output(g, "J0", 36 * (i - 1) + 6 * (3 + r) + c, wd[r]);
          cg_output(g, "J0", 36 * (i - 1) + 6 * (3 + r) + 3 + c, r == c ? ONE : ZERO);
        }
      }
    }
  }
  cg_write(&G->g, f);
  free(x);
}


/* the argument names a function of the state has (for the (void) of the unused ones) */
static const char *const fixed_args[] = {"q", "v", "a", "g", "tau", "H", "T", "J", NULL};
static const char *const floating_args[] = {"R0",  "r0",   "qm",   "u0",   "um",    "u0dot",
                                            "umdot", "tau0", "taum", "g",    "H",     "T",
                                            "J0",  "Jm",   NULL};


/* (void) each argument of the prototype text, so that a model without joints compiles clean */
static void unused(FILE *f, const char *text, int fixed) {
  for (const char *const *a = fixed ? fixed_args : floating_args; *a; a++) {
    char pat[16];
    snprintf(pat, sizeof pat, "*%s,", *a);
    int has = strstr(text, pat) != NULL;
    snprintf(pat, sizeof pat, "*%s)", *a);
    has = has || strstr(text, pat) != NULL;
    if (has) {
      fprintf(f, "  (void)%s;\n", *a);
    }
  }
}




int codegen_write(FILE *f, const spart_model *m, const spart_data *d, const codegen_opts *o) {
  const char *P = o->prefix;
  int nv = m->nv, n = o->fixed_base ? nv : 6 + nv;
  fprintf(f, "/* %s -- the dynamics of the robot '", o->header ? "declarations" : "source");
  cg_put_name(f, m->name ? m->name : "");
  fprintf(f,
          "' (%d links, %d joint degrees of freedom, %s base), written by spart-codegen for this "
          "model alone: C99, <math.h> only.\n"
          " * Arrays row-major, SI units, angles in radians; spart-codegen(1). */\n",
          m->nb - 1, nv, o->fixed_base ? "fixed" : "floating");
  if (o->header) {
    /* the prefix with each letter's case swapped: one guard a prefix (arm ARM_CODEGEN_H, ARM
       arm_CODEGEN_H), the default robot's ROBOT_CODEGEN_H */
    char guard[96];
    size_t k = 0;
    for (const char *c = P; *c && k + 8 < sizeof guard; c++) {
      guard[k++] = (char)(*c >= 'a' && *c <= 'z'   ? *c - 'a' + 'A'
                          : *c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a'
                                                   : *c);
    }
    guard[k] = 0;
    fprintf(f, "#ifndef %s_CODEGEN_H\n#define %s_CODEGEN_H\n\n", guard, guard);
    fprintf(f,
            "#define %s_NQ %d /* coordinates q */\n#define %s_NV %d /* degrees of freedom v */\n",
            P, m->nq, P, nv);
    fprintf(f, "#define %s_NLINKS %d /* links 1..n (the base is 0) */\n", P, m->nb - 1);
    fprintf(f, "#define %s_N %d /* the order of H: %s */\n", P, n,
            o->fixed_base ? "nv" : "6 + nv");
    fprintf(f, "#define %s_FIXED_BASE %d\n\n", P, o->fixed_base);
    for (size_t k2 = 0; k2 < sizeof protos / sizeof protos[0]; k2++) {
      if (o->functions & (unsigned)protos[k2].fn) {
        put_proto(f, o, protos + k2, ";\n");
      }
    }
    fprintf(f, "\n#endif\n");
    return ferror(f) ? -1 : 0;
  }
  fprintf(f, "#include <math.h>\n");
  gen G = {{0}, m, d, o->fixed_base, NULL, NULL, NULL, NULL, NULL};
  G.g.prefix = P;
  G.Q = calloc((size_t)m->nb * 12, sizeof(sx));
  G.cj = malloc((size_t)m->nb * SPART_CJ * sizeof(double));
  G.cpar = malloc((size_t)m->nb * sizeof(int));
  G.role = malloc(((size_t)m->nv + 1) * sizeof(int));
  if (!G.Q || !G.cj || !G.cpar || !G.role || spart_merge_fixed(m, d, G.cj, G.cpar) != 0 ||
      (G.g.pairs = cg_branch_roles(m, G.role)) < 0) {
    free(G.Q), free(G.cj), free(G.cpar), free(G.role);
    return -1;
  }
  G.rho = G.Q + 9 * m->nb;
  /* the functions first, in memory: what they call (the vector type, sincos) goes before them */
  cli_memfile mf;
  FILE *body_f = cli_memfile_open(&mf);
  void (*body[])(gen *, FILE *) = {body_id, body_mass, body_fd, body_fk, body_jac};
  for (size_t k = 0; body_f && k < sizeof protos / sizeof protos[0]; k++) {
    if (!(o->functions & (unsigned)protos[k].fn)) {
      continue;
    }
    const char *ptext = o->fixed_base ? protos[k].fixed : protos[k].floating;
    fputc('\n', body_f);
    put_proto(body_f, o, protos + k, " {\n");
    unused(body_f, ptext, o->fixed_base);
    body[k](&G, body_f);
    fputs("}\n", body_f);
  }
  int oom = !body_f || cli_memfile_close(body_f, &mf) != 0 || G.g.oom;
  if (!oom && G.g.vec) {
    cg_put_vector(f, P);
  }
  if (!oom && G.g.sincos) {
    cg_put_sincos(f, P);
  }
  if (!oom) {
    fwrite(mf.text, 1, mf.len, f);
  }
  free(mf.text);
  cg_free(&G.g);
  free(G.Q), free(G.cj), free(G.cpar), free(G.role);
  return oom || ferror(f) ? -1 : 0;
}
