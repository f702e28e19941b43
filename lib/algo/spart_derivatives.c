/* spart_derivatives.c -- analytical derivatives of the inverse dynamics (the RNEA's) with respect
 * to the configuration, along the velocity coordinates, and to the velocities: Carpentier and
 * Mansard's idea (Analytical derivatives of rigid body dynamics algorithms, RSS 2018), derived
 * here in spatial_v2's notation, in O(n) passes and O(n d) products of 6-vectors (d the depth).
 *
 * Every quantity is in W, the frame with the inertial axes at r0 (fixed while differentiating;
 * nothing depends on r0).  For a body i: v_i, a_i its velocity and acceleration (gravity as the
 * world's acceleration -a_g = [0; -g]), I_i its inertia, f_i = I_i a_i + v_i x* I_i v_i - fx_i,
 * F_i the sum of f over its subtree; each degree of freedom's column S (the joint's dof_S, fixed
 * in the frame after the joint, so that Sdot = v_i x S) gives tau = S' F_i.  The base is two
 * joints from the world: T, its translation (columns [0; e_k], u0's r0dot, parent the world),
 * then R, its rotation (columns [R0 e_k; 0], u0's omega0 in the base frame, body 0).
 *
 * Moving degree of freedom j (body b_j, parent p) by delta moves the subtree of b_j rigidly by
 * the twist S_j delta; with w = v_p, al = a_p, psi = S_j x w, x = S_j x al - psi x w, and
 * B_k psi = I_k (psi x v_k) + psi x* I_k v_k + v_k x* I_k psi (Carpentier-Mansard's B), the
 * subtree's sums IC, BC:
 *   d tau_i / dq_j = S_i' (-IC_i x - BC_i psi + XC_i S_j)            i in the subtree of b_j
 *                  = S_i' (S_j x* F_j - IC_j x - BC_j psi + XC_j S_j) i above b_j
 *   d tau_i / du_j = S_i' (BC_i S_j + IC_i c),  c = -S_j x (w + v_j) i in the subtree of b_j
 *                  = S_i' (BC_j S_j + IC_j c)                        i above b_j
 * and 0 elsewhere; XC corrects the external wrenches wF, which keep their inertial directions
 * while the bodies turn.  BC = AC + AC' + M(hC), AC the sum of (v_k x*) I_k, hC of I_k v_k, M(h)
 * psi = psi x* h.  The armature's share depends on neither; the friction's on um, its damping. */
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"

/* every call of the function inlined (GCC, Clang; LTO reaches spu's): the passes' small 6-vector
   operations cost more called than done (2_iiwa floating: 3.76 us against 3.87 called) */
#define FLAT __attribute__((flatten))

/* a body's scratch in d->own_->dw */
enum {
  DB_E = 0,    /* F_i's axes in W (9) */
  DB_P = 9,    /* F_i's origin in W (3) */
  DB_V = 12,   /* its velocity (6) */
  DB_A = 18,   /* its acceleration (6) */
  DB_F = 24,   /* the force of its subtree, F (6) */
  DB_IC = 30,  /* the inertia of its subtree, IC, compact (10) */
  DB_BS = 40,  /* AC + AC' (9: its symmetric upper left block L, xx yy zz xy xz yz, and k, its
                  upper right [k]x, lower left -[k]x, lower right 0) */
  DB_H = 49,   /* hC (6) */
  DB_XN = 55,  /* the external wrenches of its subtree: the sum of n (3) */
  DB_XF = 58,  /* of f (3) */
  DB_XS = 61,  /* of c . f (1), c the CoM (in W) */
  DB_XG = 62,  /* of f c' (9) */
  DB_END = 71, /* the sums (DB_F ..) end */
  DB = SPART_DERIV_BODY
};

/* a degree of freedom's (a column's) scratch after the bodies' */
enum {
  DC_S = 0,    /* S in W (6) */
  DC_R1 = 6,   /* IC_i S (6) */
  DC_R2 = 12,  /* BC_i' S (6) */
  DC_R3 = 18,  /* XC_i' S (6) */
  DC_X = 24,   /* x (6) */
  DC_PSI = 30, /* psi (6) */
  DC_C = 36,   /* c (6) */
  DC_G = 42,   /* d F / dq above the body (6) */
  DC_H = 48,   /* d F / du above the body (6) */
  DC_XC = 54,  /* the pairs (-x_k, c_k) (12): an entry's two numbers at once */
  DC_PS = 66,  /* (-psi_k, S_k) (12) */
  DC_GH = 78,  /* (g_k, h_k) (12) */
  DC = SPART_DERIV_COLUMN
};
_Static_assert(DB_END <= DB && DC_GH + 12 <= DC, "the scratch's layout fits its size");


/* x[k], or 0 where x is not given */
static double given(const double *x, int k) {
  return x ? x[k] : 0;
}


/* res = M v for M = AC + AC' (DB_BS's 9 numbers): [L v_w + k x v_v; -k x v_w] */
static void bs_mul(double res[6], const double *M, const double v[6]) {
  double a[3];
  spu_mulsv3(res, M, v);
  spu_cross(a, M + 6, v + 3);
  spu_cross(res + 3, v, M + 6);
  for (int k = 0; k < 3; k++) {
    res[k] += a[k];
  }
}


/* M += AC + AC' of one body: (v x*) I + its transpose, I = [J [h]x; -[h]x m]: L = [w]x J -
   J [w]x - [v]x [h]x - [h]x [v]x, k = w x h + m v (w, v: the velocity's parts) */
static void bs_add(double *M, const double I[10], const double v[6]) {
  const double *J = I + 4, *h = I + 1, m = I[0], *w = v, *vl = v + 3;
  double Jm[9], WJ[9], wh[3];
  spu_sym_to_mat3(Jm, J);
  for (int c = 0; c < 3; c++) { /* column c of [w]x J: w x J's column c */
    const double col[3] = {Jm[c], Jm[3 + c], Jm[6 + c]};
    double r[3];
    spu_cross(r, w, col);
    WJ[c] = r[0], WJ[3 + c] = r[1], WJ[6 + c] = r[2];
  }
  /* [v]x [h]x + [h]x [v]x = h v' + v h' - 2 (v . h) 1 */
  double vh = 2 * spu_dot3(vl, h);
  static const int rc[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
  for (int e = 0; e < 6; e++) {
    int r = rc[e][0], c = rc[e][1];
    M[e] += WJ[3 * r + c] + WJ[3 * c + r] - h[r] * vl[c] - vl[r] * h[c] + (r == c ? vh : 0);
  }
  spu_cross(wh, w, h);
  for (int k = 0; k < 3; k++) {
    M[6 + k] += wh[k] + m * vl[k];
  }
}


/* res = BC v = M v + v x* h */
static void bc(double res[6], const double *M, const double h[6], const double v[6]) {
  double a[6];
  bs_mul(a, M, v);
  spu_crossf6(res, v, h);
  for (int k = 0; k < 6; k++) {
    res[k] += a[k];
  }
}


/* res = XC S (t = 0) or XC' S (t = 1) of the external wrenches' sums e (DB_XN ..): XC S =
   [S_w x n + sigma S_w - G S_w; S_w x f], XC' S = [n x S_w + sigma S_w - G' S_w + f x S_v; 0] */
static void xc(double res[6], const double *e, const double S[6], int t) {
  const double *n = e, *f = e + 3, sigma = e[6], *G = e + 7;
  double a[3], b[3];
  if (t) {
    spu_cross(a, n, S);
    spu_mulmtv3(b, G, S);
    spu_cross(res, f, S + 3);
    for (int k = 0; k < 3; k++) {
      res[k] += a[k] + sigma * S[k] - b[k];
      res[3 + k] = 0;
    }
  } else {
    spu_cross(a, S, n);
    spu_mulmv3(b, G, S);
    spu_cross(res + 3, S, f);
    for (int k = 0; k < 3; k++) {
      res[k] = a[k] + sigma * S[k] - b[k];
    }
  }
}


/* forward pass: each body's pose, velocity, acceleration, inertia and force in W, its columns
   S; the subtree sums start as the body's own */
static FLAT void forward(const spart_model *m, spart_data *d, const spart_state *s, int fixed,
                         const double *g, double *dw) {
  const int b = fixed ? 0 : 6;
  double *dc = dw + (size_t)m->nb * DB;
  for (int i = 0; i < m->nb; i++) {
    double *B = dw + (size_t)DB * i, *E = B + DB_E, *p = B + DB_P, *v = B + DB_V, *a = B + DB_A;
    double I10[10], It[10], Ip[10];
    if (i == 0) {
      /* the base: v = [R0 omega0; r0dot], a = [R0 omegadot0; r0ddot - g + r0dot x R0 omega0] */
      memcpy(E, s->R0, 9 * sizeof(double));
      memset(p, 0, 3 * sizeof(double));
      double w[3] = {0, 0, 0}, wd[3] = {0, 0, 0}, rw[3] = {0, 0, 0};
      for (int k = 0; k < 3 && !fixed; k++) {
        w[k] = given(s->u0, k);
        wd[k] = given(s->u0dot, k);
        v[3 + k] = given(s->u0, 3 + k);
        a[3 + k] = given(s->u0dot, 3 + k);
      }
      if (fixed) {
        memset(v, 0, 6 * sizeof(double));
        memset(a, 0, 6 * sizeof(double));
      }
      spu_mulmv3(v, E, w);
      spu_mulmv3(a, E, wd);
      spu_cross(rw, v + 3, v);
      for (int k = 0; k < 3; k++) {
        a[3 + k] += rw[k] - given(g, k);
      }
      spu_inertbody(I10, m->body_mass[0], m->body_inertia);
    } else {
      const double *P = dw + (size_t)DB * m->body_parent[i];
      double t[3];
      spu_mulmm3(E, P + DB_E, d->Xrot + 9 * i);
      spu_mulmv3(t, P + DB_E, d->Xpos + 3 * i);
      double vJ[6] = {0, 0, 0, 0, 0, 0}, vxvJ[6];
      for (int k = 0; k < 3; k++) {
        p[k] = P[DB_P + k] + t[k];
      }
      memcpy(v, P + DB_V, 6 * sizeof(double));
      memcpy(a, P + DB_A, 6 * sizeof(double));
      for (int j = m->jnt_vadr[i]; j < m->jnt_vadr[i] + m->jnt_nv[i]; j++) {
        const double *sl = m->dof_S + 6 * j;
        double *S = dc + (size_t)DC * (b + j), pw[3];
        spu_mulmv3(S, E, sl);
        spu_mulmv3(S + 3, E, sl + 3);
        spu_cross(pw, p, S);
        for (int k = 0; k < 6; k++) {
          S[k] += k < 3 ? 0 : pw[k - 3];
          vJ[k] += S[k] * given(s->um, j);
          a[k] += S[k] * given(s->umdot, j);
        }
      }
      for (int k = 0; k < 6; k++) {
        v[k] += vJ[k];
      }
      spu_crossm6(vxvJ, v, vJ);
      for (int k = 0; k < 6; k++) {
        a[k] += vxvJ[k];
      }
      memcpy(I10, d->own_->jc + SPART_JC * i + SPART_JC_IO, 10 * sizeof(double));
    }

    /* the inertia in W: turned by E, moved from p to W's origin */
    It[0] = I10[0];
    spu_mulmv3(It + 1, E, I10 + 1);
    spu_rotsym3(It + 4, E, I10 + 4);
    spu_inertshift(Ip, It, p);
    double *h = B + DB_H, *F = B + DB_F, vh[6];
    memcpy(B + DB_IC, Ip, sizeof Ip);
    spu_inertmul(h, Ip, v);
    spu_inertmul(F, Ip, a);
    spu_crossf6(vh, v, h);
    for (int k = 0; k < 6; k++) {
      F[k] += vh[k];
    }
    memset(B + DB_BS, 0, 9 * sizeof(double));
    bs_add(B + DB_BS, Ip, v);

    /* the external wrench [n; f] at the CoM c (inertial axes): [n + c x f; f] at W's origin */
    double *e = B + DB_XN;
    memset(e, 0, 16 * sizeof(double));
    if (s->wF) {
      const double *wf = s->wF + 6 * i;
      double c[3], cl[3] = {0, 0, 0}, cf[3];
      if (i > 0) {
        memcpy(cl, d->own_->jc + SPART_JC * i + SPART_JC_C, sizeof(cl));
      }
      spu_mulmv3(c, E, cl);
      for (int k = 0; k < 3; k++) {
        c[k] += p[k];
      }
      spu_cross(cf, c, wf + 3);
      for (int k = 0; k < 3; k++) {
        F[k] -= wf[k] + cf[k];
        F[3 + k] -= wf[3 + k];
        e[k] = wf[k];
        e[3 + k] = wf[3 + k];
        for (int l = 0; l < 3; l++) {
          e[7 + 3 * k + l] = wf[3 + k] * c[l];
        }
      }
      e[6] = spu_dot3(c, wf + 3);
    }
  }
}


/* backward pass: the subtree sums, children into their parents */
static void backward(const spart_model *m, double *dw, int ext) {
  const int end = ext ? DB_END : DB_XN;
  for (int i = m->nb - 1; i > 0; i--) {
    const double *B = dw + (size_t)DB * i;
    double *P = dw + (size_t)DB * m->body_parent[i];
    int k = DB_F;
    for (; k + 1 < end; k += 2) { /* in pairs */
      spu_store2(P + k, spu_load2(P + k) + spu_load2(B + k));
    }
    if (k < end) {
      P[k] += B[k];
    }
  }
}


/* a column's vectors: S of the base's (k < b), its rows' (IC S, BC' S, XC' S) and, with w, al
   the velocity and acceleration of what it moves from and vj of what it moves, x, psi, c and
   the force derivatives above it (w = al = 0, the base's translation: x = psi = c = 0) */
static FLAT void column(double *col, const double *B, const double *w, const double *al,
                        const double vj[6], int ext) {
  const double *S = col + DC_S, *IC = B + DB_IC, *M = B + DB_BS, *h = B + DB_H;
  double *x = col + DC_X, *psi = col + DC_PSI, *c = col + DC_C, *g = col + DC_G;
  double *hh = col + DC_H, MS[6], Sh[6], a[6];
  spu_inertmul(col + DC_R1, IC, S);
  bs_mul(MS, M, S);
  spu_crossf6(Sh, S, h);
  for (int k = 0; k < 6; k++) {
    col[DC_R2 + k] = MS[k] - Sh[k]; /* BC' S */
    hh[k] = MS[k] + Sh[k];          /* BC S */
  }
  if (w) {
    double u[6], t[6];
    spu_crossm6(psi, S, w);
    spu_crossm6(x, S, al);
    spu_crossm6(t, psi, w);
    for (int k = 0; k < 6; k++) {
      x[k] -= t[k];
      u[k] = -(w[k] + vj[k]);
    }
    spu_crossm6(c, S, u);
    /* above: g = S x* F - IC x - BC psi + XC S,  h = BC S + IC c */
    spu_crossf6(g, S, B + DB_F);
    spu_inertmul(a, IC, x);
    bc(t, M, h, psi);
    spu_inertmul(u, IC, c);
    for (int k = 0; k < 6; k++) {
      g[k] -= a[k] + t[k];
      hh[k] += u[k];
    }
  } else {
    memset(x, 0, 18 * sizeof(double)); /* x, psi, c */
    spu_crossf6(g, S, B + DB_F);
  }
  memset(col + DC_R3, 0, 6 * sizeof(double));
  if (ext) {
    xc(col + DC_R3, B + DB_XN, S, 1);
    xc(a, B + DB_XN, S, 0);
    for (int k = 0; k < 6; k++) {
      g[k] += a[k];
    }
  }
  for (int k = 0; k < 6; k++) {
    col[DC_XC + 2 * k] = -x[k], col[DC_XC + 2 * k + 1] = c[k];
    col[DC_PS + 2 * k] = -psi[k], col[DC_PS + 2 * k + 1] = S[k];
    col[DC_GH + 2 * k] = g[k], col[DC_GH + 2 * k + 1] = hh[k];
  }
}


/* a . b over 6 */
static inline double dot6(const double *a, const double *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5];
}


/* the entries of column k (its vectors ck) in row r (its vectors cr): within the subtree of
   the column's body (in: 1, with external wrenches 2), or above it (0); dq and du in the two
   lanes of a pair */
static inline void entry(const double *cr, const double *ck, int in, double *dq, double *du) {
  v2 t = {0, 0};
  if (in) {
    for (int k = 0; k < 6; k++) {
      t += cr[DC_R1 + k] * spu_load2(ck + DC_XC + 2 * k) +
           cr[DC_R2 + k] * spu_load2(ck + DC_PS + 2 * k);
    }
    *dq = t[0] + (in == 2 ? dot6(cr + DC_R3, ck + DC_S) : 0);
    *du = t[1];
  } else {
    for (int k = 0; k < 6; k++) {
      t += cr[DC_S + k] * spu_load2(ck + DC_GH + 2 * k);
    }
    *dq = t[0];
    *du = t[1];
  }
}


/* the two matrices (n x n, n = b + nv, the tree's) from the columns; ext: external wrenches */
static void assemble(const spart_model *m, int b, const double *dc, int ext, double *dq,
                     double *du) {
  const int n = b + m->nv, in = 1 + ext;
  memset(dq, 0, (size_t)n * n * sizeof(double));
  memset(du, 0, (size_t)n * n * sizeof(double));
  /* the base's columns: R's (0..2) move every row but T's; T's (3..5) move every row, but
     nothing depends on r0 (dq 0) and BC' S_r . e_k is the only term of du */
  for (int k = 0; k < 3 && b; k++) {
    for (int r = 0; r < n; r++) {
      entry(dc + (size_t)DC * r, dc + (size_t)DC * k, r < 3 || r >= 6 ? in : 0, dq + r * n + k,
            du + r * n + k);
      du[r * n + 3 + k] = dc[(size_t)DC * r + DC_R2 + 3 + k];
    }
  }
  /* a joint's columns: the rows of its subtree's, then those of the joints above and the base */
  for (int j = 0; j < m->nv; j++) {
    const int k = b + j, i = m->dof_body[j];
    const double *ck = dc + (size_t)DC * k;
    for (int t = m->jnt_sub[2 * i]; t < m->jnt_sub[2 * i + 1]; t++) {
      const int r = b + m->dof_tree[t];
      entry(dc + (size_t)DC * r, ck, in, dq + r * n + k, du + r * n + k);
    }
    for (int up = m->jnt_up[i]; up > 0; up = m->jnt_up[up]) {
      for (int r = b + m->jnt_vadr[up]; r < b + m->jnt_vadr[up] + m->jnt_nv[up]; r++) {
        entry(dc + (size_t)DC * r, ck, 0, dq + r * n + k, du + r * n + k);
      }
    }
    for (int r = 0; r < b; r++) {
      entry(dc + (size_t)DC * r, ck, 0, dq + r * n + k, du + r * n + k);
    }
  }
}


void spart_rnea_derivatives(const spart_model *m, spart_data *d, const spart_state *s, int flags,
                            const double *gravity, double *out) {
  const int fixed = flags & SPART_ID_FIXED, b = fixed ? 0 : 6, n = b + m->nv;
  const int nc = b + m->nvc;
  double *dw = d->own_->dw, *dc = dw + (size_t)m->nb * DB;
  double *mq = dc + (size_t)DC * (6 + m->nv), *mu = mq + (size_t)n * n;

  spart_xup(m, d, s->qm);
  forward(m, d, s, fixed, gravity, dw);
  backward(m, dw, s->wF != NULL);

  /* the base's columns: R's from T (velocity [0; r0dot], acceleration [0; r0ddot - g]) moving
     the base, T's from the world moving T */
  const double *B0 = dw + DB_V;
  double vT[6] = {0, 0, 0}, aT[6] = {0, 0, 0};
  for (int k = 0; k < 3; k++) {
    vT[3 + k] = fixed ? 0 : given(s->u0, 3 + k);
    aT[3 + k] = (fixed ? 0 : given(s->u0dot, 3 + k)) - given(gravity, k);
  }
  for (int k = 0; k < b; k++) {
    double *S = dc + (size_t)DC * k;
    memset(S, 0, 6 * sizeof(double));
    if (k < 3) {
      for (int r = 0; r < 3; r++) {
        S[r] = s->R0[3 * r + k];
      }
      column(S, dw, vT, aT, B0, s->wF != NULL);
    } else {
      S[k] = 1;
      column(S, dw, NULL, NULL, vT, s->wF != NULL);
    }
  }
  for (int j = 0; j < m->nv; j++) {
    const int i = m->dof_body[j];
    const double *B = dw + (size_t)DB * i, *P = dw + (size_t)DB * m->body_parent[i];
    column(dc + (size_t)DC * (b + j), B, P + DB_V, P + DB_A, B + DB_V, s->wF != NULL);
  }

  /* the matrices, the tree's (coupled mimic joints: K' A K into out after) */
  double *oq = m->coupled ? mq : out, *ou = m->coupled ? mu : out + (size_t)n * n;
  assemble(m, b, dc, s->wF != NULL, oq, ou);
  if ((flags & SPART_ID_FRICTION) && s->um) {
    /* the damping's; the Coulomb part is constant but at um = 0, where it has no derivative */
    for (int j = 0; j < m->nv; j++) {
      ou[(size_t)(b + j) * n + b + j] += m->jnt_damping[m->dof_body[j]];
    }
  }
  if (m->coupled) {
    spart_mimic_matrix(m, b, mq, out);
    spart_mimic_matrix(m, b, mu, out + (size_t)nc * nc);
  }
}
