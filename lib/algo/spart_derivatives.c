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

/* a degree of freedom's (a column's) scratch after the bodies': its column's pairs, then its
   row's vectors each number twice (a pair of the same: one load multiplies both lanes) */
enum {
  DC_S = 0,   /* S in W (6) */
  DC_R3 = 6,  /* XC_i' S (6) */
  DC_XC = 12, /* the pairs (-x_k, c_k) (12): an entry's two numbers at once */
  DC_PS = 24, /* (-psi_k, S_k) (12) */
  DC_GH = 36, /* (g_k, h_k) (12): d F / dq, d F / du above the body */
  DC_R1 = 48, /* IC_i S, twice (12) */
  DC_R2 = 60, /* BC_i' S, twice (12) */
  DC_SS = 72, /* S, twice (12) */
  DC = SPART_DERIV_COLUMN
};
_Static_assert(DB_END <= DB && DC_SS + 12 <= DC, "the scratch's layout fits its size");
_Static_assert((DB_XN - DB_F) % 2 == 1, "the subtree sums: pairs, then one");


/* x[k], or 0 where x is not given */
static double given(const double *x, int k) {
  return x ? x[k] : 0;
}


/* M = AC + AC' of one body: (v x*) I + its transpose, I = [J [h]x; -[h]x m]: L = [w]x J -
   J [w]x - [v]x [h]x - [h]x [v]x, k = w x h + m v (w, v: the velocity's parts) */
static void bs_set(double *M, const double I[10], const double v[6]) {
  const double *J = I + 4, *h = I + 1, m = I[0], *w = v, *vl = v + 3;
  double wh[3];
  /* [w]x J + J' [w]x' (J: xx yy zz xy xz yz), minus [v]x [h]x + [h]x [v]x = h v' + v h' -
     2 (v . h) 1 */
  double vh = 2 * spu_dot3(vl, h);
  M[0] = 2 * (w[1] * J[4] - w[2] * J[3] - h[0] * vl[0]) + vh;
  M[1] = 2 * (w[2] * J[3] - w[0] * J[5] - h[1] * vl[1]) + vh;
  M[2] = 2 * (w[0] * J[5] - w[1] * J[4] - h[2] * vl[2]) + vh;
  M[3] = w[1] * J[5] - w[2] * J[1] + w[2] * J[0] - w[0] * J[4] - h[0] * vl[1] - vl[0] * h[1];
  M[4] = w[1] * J[2] - w[2] * J[5] + w[0] * J[3] - w[1] * J[0] - h[0] * vl[2] - vl[0] * h[2];
  M[5] = w[2] * J[4] - w[0] * J[2] + w[0] * J[1] - w[1] * J[3] - h[1] * vl[2] - vl[1] * h[2];
  spu_cross(wh, w, h);
  for (int k = 0; k < 3; k++) {
    M[6 + k] = wh[k] + m * vl[k];
  }
}


/* ---- the same operations on pairs (spu.h's v2: two vectors in the two lanes, one SSE2
   instruction for both): a column's two derivatives at once ---- */

/* r = a x b, a given, b pairs */
static inline void cross_sp(v2 r[3], const double a[3], const v2 b[3]) {
  r[0] = a[1] * b[2] - a[2] * b[1];
  r[1] = a[2] * b[0] - a[0] * b[2];
  r[2] = a[0] * b[1] - a[1] * b[0];
}


/* r = a x b, a pairs, b given */
static inline void cross_ps(v2 r[3], const v2 a[3], const double b[3]) {
  r[0] = a[1] * b[2] - a[2] * b[1];
  r[1] = a[2] * b[0] - a[0] * b[2];
  r[2] = a[0] * b[1] - a[1] * b[0];
}


/* r = S x m (motions), S given, m pairs: [S_w x m_w; S_w x m_v + S_v x m_w] */
static inline void crossm_sp(v2 r[6], const double S[6], const v2 m[6]) {
  v2 a[3];
  cross_sp(r, S, m);
  cross_sp(r + 3, S, m + 3);
  cross_sp(a, S + 3, m);
  for (int k = 0; k < 3; k++) {
    r[3 + k] += a[k];
  }
}


/* r = p x* h (p motions in pairs, h a force): [p_w x h_n + p_v x h_f; p_w x h_f] */
static inline void crossf_ps(v2 r[6], const v2 p[6], const double h[6]) {
  v2 a[3];
  cross_ps(r, p, h);
  cross_ps(a, p + 3, h + 3);
  cross_ps(r + 3, p, h + 3);
  for (int k = 0; k < 3; k++) {
    r[k] += a[k];
  }
}


/* r = I p (a compact inertia (m, c, J) on motions in pairs): [J p_w + c x p_v; m p_v - c x p_w] */
static inline void inertmul_p(v2 r[6], const double I[10], const v2 p[6]) {
  const double *J = I + 4;
  v2 a[3], b[3];
  cross_sp(a, I + 1, p + 3);
  cross_sp(b, I + 1, p);
  r[0] = J[0] * p[0] + J[3] * p[1] + J[4] * p[2] + a[0];
  r[1] = J[3] * p[0] + J[1] * p[1] + J[5] * p[2] + a[1];
  r[2] = J[4] * p[0] + J[5] * p[1] + J[2] * p[2] + a[2];
  for (int k = 0; k < 3; k++) {
    r[3 + k] = I[0] * p[3 + k] - b[k];
  }
}


/* r = M p for M = AC + AC' (DB_BS's 9 numbers) on pairs: [L p_w + k x p_v; p_w x k] */
static inline void bs_mul_p(v2 r[6], const double *M, const v2 p[6]) {
  v2 a[3];
  cross_sp(a, M + 6, p + 3);
  cross_ps(r + 3, p, M + 6);
  r[0] = M[0] * p[0] + M[3] * p[1] + M[4] * p[2] + a[0];
  r[1] = M[3] * p[0] + M[1] * p[1] + M[5] * p[2] + a[1];
  r[2] = M[4] * p[0] + M[5] * p[1] + M[2] * p[2] + a[2];
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
    double Ib[10];
    const double *I10 = Ib;
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
      spu_inertbody(Ib, m->body_mass[0], m->body_inertia);
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
        const double *sl = m->dof_S + 6 * j, uj = given(s->um, j), udj = given(s->umdot, j);
        double *S = dc + (size_t)DC * (b + j), pw[3];
        spu_mulmv3(S, E, sl);
        spu_mulmv3(S + 3, E, sl + 3);
        spu_cross(pw, p, S);
        for (int k = 0; k < 6; k++) {
          S[k] += k < 3 ? 0 : pw[k - 3];
          vJ[k] += S[k] * uj;
          a[k] += S[k] * udj;
        }
      }
      for (int k = 0; k < 6; k++) {
        v[k] += vJ[k];
      }
      spu_crossm6(vxvJ, v, vJ);
      for (int k = 0; k < 6; k++) {
        a[k] += vxvJ[k];
      }
      I10 = d->own_->jc + SPART_JC * i + SPART_JC_IO;
    }

    /* the inertia in W: turned by E, moved from p to W's origin; h = I v, F = I a + v x* h
       (I v and I a in a pair's lanes) */
    double *IC = B + DB_IC, *h = B + DB_H, *F = B + DB_F, vh[6];
    v2 va[6], ha[6];
    memset(IC, 0, 10 * sizeof(double));
    spu_inertparent_add(IC, E, p, I10);
    for (int k = 0; k < 6; k++) {
      va[k] = (v2){v[k], a[k]};
    }
    inertmul_p(ha, IC, va);
    for (int k = 0; k < 6; k++) {
      h[k] = ha[k][0];
    }
    spu_crossf6(vh, v, h);
    for (int k = 0; k < 6; k++) {
      F[k] = ha[k][1] + vh[k];
    }
    bs_set(B + DB_BS, IC, v);

    /* the external wrench [n; f] at the CoM c (inertial axes): [n + c x f; f] at W's origin */
    double *e = B + DB_XN;
    if (s->wF) {
      memset(e, 0, 16 * sizeof(double));
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
  for (int i = m->nb - 1; i > 0; i--) {
    const double *B = dw + (size_t)DB * i;
    double *P = dw + (size_t)DB * m->body_parent[i];
    for (int k = DB_F; k + 1 < DB_XN; k += 2) { /* in pairs, the odd one after */
      spu_store2(P + k, spu_load2(P + k) + spu_load2(B + k));
    }
    P[DB_XN - 1] += B[DB_XN - 1];
    for (int k = DB_XN; ext && k < DB_END; k++) {
      P[k] += B[k];
    }
  }
}


/* a column's vectors: S of the base's (k < b), its rows' (IC S, BC' S, XC' S) and, with w, al
   the velocity and acceleration of what it moves from and vj of what it moves, the pairs
   (-x, c), (-psi, S) and the force derivatives above it (g, h), each pair's two lanes at once:
   (-x, c) = S x (-al, -(w + vj)) + (psi x w, 0), (g, h) = IC (-x, c) + BC (-psi, S) + (S x* F,
   0) with BC p = M p + p x* hC (M = AC + AC'), and BC' S = M S - S x* hC (the base's translation:
   w = al = vj = 0, so x = psi = c = 0) */
static FLAT void column(double *col, const double *B, const double w[6], const double al[6],
                        const double vj[6], int ext) {
  const double *S = col + DC_S, *IC = B + DB_IC, *M = B + DB_BS, *h = B + DB_H;
  double psi[6], pw[6], SF[6], R1[6];
  v2 P[6], Q[6], X[6], G[6], T[6], U[6];
  spu_crossm6(psi, S, w);
  spu_crossm6(pw, psi, w);
  for (int k = 0; k < 6; k++) {
    P[k] = (v2){-psi[k], S[k]};
    Q[k] = (v2){-al[k], -(w[k] + vj[k])};
  }
  crossm_sp(X, S, Q);
  for (int k = 0; k < 6; k++) {
    X[k] += (v2){pw[k], 0};
  }
  inertmul_p(G, IC, X);
  bs_mul_p(T, M, P);
  crossf_ps(U, P, h);
  spu_crossf6(SF, S, B + DB_F);
  spu_inertmul(R1, IC, S);
  for (int k = 0; k < 6; k++) {
    double r2 = T[k][1] - U[k][1]; /* BC' S */
    G[k] += T[k] + U[k] + (v2){SF[k], 0};
    spu_store2(col + DC_R1 + 2 * k, (v2){R1[k], R1[k]});
    spu_store2(col + DC_R2 + 2 * k, (v2){r2, r2});
    spu_store2(col + DC_SS + 2 * k, (v2){S[k], S[k]});
  }
  if (ext) {
    double a[6];
    xc(col + DC_R3, B + DB_XN, S, 1);
    xc(a, B + DB_XN, S, 0);
    for (int k = 0; k < 6; k++) {
      G[k] += (v2){a[k], 0};
    }
  }
  for (int k = 0; k < 6; k++) {
    spu_store2(col + DC_XC + 2 * k, X[k]);
    spu_store2(col + DC_PS + 2 * k, P[k]);
    spu_store2(col + DC_GH + 2 * k, G[k]);
  }
}


/* a . b over 6 */
static inline double dot6(const double *a, const double *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5];
}


/* the entries of column k (its vectors ck) in row r (its vectors cr) within the subtree of the
   column's body (ext: with external wrenches), dq and du in the two lanes of a pair */
static inline void entry_in(const double *cr, const double *ck, int ext, double *dq, double *du) {
  v2 t = {0, 0};
  for (int k = 0; k < 12; k += 2) {
    t += spu_load2(cr + DC_R1 + k) * spu_load2(ck + DC_XC + k) +
         spu_load2(cr + DC_R2 + k) * spu_load2(ck + DC_PS + k);
  }
  *dq = t[0] + (ext ? dot6(cr + DC_R3, ck + DC_S) : 0);
  *du = t[1];
}


/* entry_in of column k in the rows of its body's subtree (from lo to hi in dof_tree, row r at
   b + dof_tree[t]; n the matrices' size), the column's pairs loaded once */
static inline void entries_in(const double *ck, const double *dc, const int *tree, int lo,
                              int hi, int b, int n, int ext, double *dq, double *du) {
  v2 X[6], P[6];
  for (int k = 0; k < 6; k++) {
    X[k] = spu_load2(ck + DC_XC + 2 * k);
    P[k] = spu_load2(ck + DC_PS + 2 * k);
  }
  for (int t = lo; t < hi; t++) {
    const int r = b + tree[t];
    const double *cr = dc + (size_t)DC * r;
    v2 e = spu_load2(cr + DC_R1) * X[0] + spu_load2(cr + DC_R2) * P[0];
    for (int k = 1; k < 6; k++) {
      e += spu_load2(cr + DC_R1 + 2 * k) * X[k] + spu_load2(cr + DC_R2 + 2 * k) * P[k];
    }
    dq[(size_t)r * n] = e[0] + (ext ? dot6(cr + DC_R3, ck + DC_S) : 0);
    du[(size_t)r * n] = e[1];
  }
}


/* the entries of row r (its vectors cr) in the columns below its body (the subtree's degrees
   of freedom in dof_tree from lo to hi, k's at b + dof_tree[t]): S_r . (g_k, h_k) */
static inline void entries_up(const double *cr, const double *dc, const int *tree, int lo,
                              int hi, int b, double *dq, double *du) {
  v2 S[6];
  for (int k = 0; k < 6; k++) {
    S[k] = spu_load2(cr + DC_SS + 2 * k);
  }
  for (int t = lo; t < hi; t++) {
    const int k = b + tree[t];
    const double *gh = dc + (size_t)DC * k + DC_GH;
    v2 e = S[0] * spu_load2(gh) + S[1] * spu_load2(gh + 2) + S[2] * spu_load2(gh + 4) +
           S[3] * spu_load2(gh + 6) + S[4] * spu_load2(gh + 8) + S[5] * spu_load2(gh + 10);
    dq[k] = e[0], du[k] = e[1];
  }
}


/* the entries of column k (ck) in the base's rows, all above it: R's rows S_r = [R0 e_r; 0]
   give R0' g's (h's) upper half, T's rows S_r = [0; e_r] its lower half */
static inline void entry_base(const double R0[9], const double *ck, int n, double *dq,
                              double *du) {
  const double *gh = ck + DC_GH;
  for (int r = 0; r < 3; r++) {
    v2 t = R0[r] * spu_load2(gh) + R0[3 + r] * spu_load2(gh + 2) + R0[6 + r] * spu_load2(gh + 4);
    v2 u = spu_load2(gh + 6 + 2 * r);
    dq[r * n] = t[0], du[r * n] = t[1];
    dq[(3 + r) * n] = u[0], du[(3 + r) * n] = u[1];
  }
}


/* the two matrices (n x n, n = b + nv, the tree's) from the columns; ext: external wrenches */
static void assemble(const spart_model *m, int b, const double R0[9], const double *dc, int ext,
                     double *dq, double *du) {
  const int n = b + m->nv;
  /* the joints' block is 0 where a row is neither in a column's subtree nor above it */
  for (int r = b; r < n; r++) {
    for (int c = b; c < n; c++) {
      dq[r * n + c] = du[r * n + c] = 0;
    }
  }
  /* the base's columns: R's (0..2) move every row, T's rows from above; T's (3..5) move every
     row, but nothing depends on r0 (dq 0) and BC' S_r . e_k is the only term of du */
  for (int k = 0; k < 3 && b; k++) {
    const double *ck = dc + (size_t)DC * k;
    for (int r = 0; r < n; r++) {
      const double *cr = dc + (size_t)DC * r;
      if (r < 3 || r >= 6) {
        entry_in(cr, ck, ext, dq + r * n + k, du + r * n + k);
      } else {
        dq[r * n + k] = ck[DC_GH + 2 * r];
        du[r * n + k] = ck[DC_GH + 2 * r + 1];
      }
      dq[r * n + 3 + k] = 0;
      du[r * n + 3 + k] = cr[DC_R2 + 2 * (3 + k)];
    }
  }
  /* a joint's column: the rows of its subtree's, and the base's; its row: the columns below
     its body (the joints' above, by rows: the row's S loaded once) */
  for (int j = 0; j < m->nv; j++) {
    const int k = b + j, i = m->dof_body[j], lo = m->jnt_sub[2 * i], hi = m->jnt_sub[2 * i + 1];
    const double *ck = dc + (size_t)DC * k;
    entries_in(ck, dc, m->dof_tree, lo, hi, b, n, ext, dq + k, du + k);
    entries_up(ck, dc, m->dof_tree, lo + m->jnt_nv[i], hi, b, dq + k * n, du + k * n);
    if (b) {
      entry_base(R0, ck, n, dq + k, du + k);
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
  double vT[6] = {0, 0, 0}, aT[6] = {0, 0, 0}, zero[6] = {0, 0, 0};
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
      column(S, dw, zero, zero, zero, s->wF != NULL);
    }
  }
  for (int j = 0; j < m->nv; j++) {
    const int i = m->dof_body[j];
    const double *B = dw + (size_t)DB * i, *P = dw + (size_t)DB * m->body_parent[i];
    column(dc + (size_t)DC * (b + j), B, P + DB_V, P + DB_A, B + DB_V, s->wF != NULL);
  }

  /* the matrices, the tree's (coupled mimic joints: K' A K into out after) */
  double *oq = m->coupled ? mq : out, *ou = m->coupled ? mu : out + (size_t)n * n;
  assemble(m, b, s->R0, dc, s->wF != NULL, oq, ou);
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
