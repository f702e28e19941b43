/* spart_rnea_pair.c -- the fast path of inverse dynamics by recursive Newton-Euler (spart_rnea's
 * recursion, RBDA table 5.1, for two records at once), which spart_rnea, spart_rnea_pair and
 * spart_aba's bias forces (spart_rnea_bias) run; the joint wrenches it leaves.  The recursion to
 * read is spart_rnea_ref (spart_rnea.c); tests/unit/test_recursions.c holds the two equal. */
#include <math.h>
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"


/* Two records at once: every quantity of the passes is a pair of doubles, one for each record
   (GCC's vector types: one SSE2 instruction does both), the model's constants pairs of the same
   value (jp of struct spart_own).  Each lane does exactly the operations a record alone would,
   so a record's results do not depend on what it is paired with. */
#define RNEA_INLINE static inline __attribute__((always_inline))

/* what the passes read of a record: its state's arrays, those the call takes as zero NULL */
typedef struct {
  const double *R0, *qm, *u0, *um, *u0dot, *umdot, *wF;
} rnea_in;

/* a pair from the values of two records, 0 where a record gives none */
RNEA_INLINE v2 pair(const double *a, const double *b, int k) {
  return (v2){a ? a[k] : 0, b ? b[k] : 0};
}


/* the same for the joint rates um, umdot, which both records give when dense (a constant where
   it is called: no test then) */
RNEA_INLINE v2 rate_pair(int dense, const double *a, const double *b, int k) {
  return dense ? (v2){a[k], b[k]} : pair(a, b, k);
}


RNEA_INLINE void cross2(v2 r[3], const v2 a[3], const v2 b[3]) {
  r[0] = a[1] * b[2] - a[2] * b[1];
  r[1] = a[2] * b[0] - a[0] * b[2];
  r[2] = a[0] * b[1] - a[1] * b[0];
}


/* r = R' v, r = R v */
RNEA_INLINE void mulmtv2(v2 r[3], const v2 R[9], const v2 v[3]) {
  r[0] = R[0] * v[0] + R[3] * v[1] + R[6] * v[2];
  r[1] = R[1] * v[0] + R[4] * v[1] + R[7] * v[2];
  r[2] = R[2] * v[0] + R[5] * v[1] + R[8] * v[2];
}


RNEA_INLINE void mulmv2(v2 r[3], const v2 R[9], const v2 v[3]) {
  r[0] = R[0] * v[0] + R[1] * v[1] + R[2] * v[2];
  r[1] = R[3] * v[0] + R[4] * v[1] + R[5] * v[2];
  r[2] = R[6] * v[0] + R[7] * v[1] + R[8] * v[2];
}


/* r = I v for a symmetric I (6: xx yy zz xy xz yz) */
RNEA_INLINE void mulsv2(v2 r[3], const v2 I[6], const v2 v[3]) {
  r[0] = I[0] * v[0] + I[3] * v[1] + I[4] * v[2];
  r[1] = I[3] * v[0] + I[1] * v[1] + I[5] * v[2];
  r[2] = I[4] * v[0] + I[5] * v[1] + I[2] * v[2];
}


/* the Newton-Euler force of a body at its CoM, c from its frame's origin, in its frame: the
   velocity-product and acceleration parts [Ic alpha + w x Ic w; m (ac + w x vc)] (Featherstone's
   I a + v x* I v), with vc, ac the velocity and acceleration [w; v], [alpha; a] at the origin
   moved to the CoM (v + w x c); when c is NULL the origin is the CoM */
RNEA_INLINE void body_force(v2 f[6], const v2 I[6], v2 mass, const v2 *c, const v2 v[6],
                            const v2 a[6]) {
  v2 Iw[3], wIw[3], wv[3], vc[3], ac[3];
  for (int k = 0; k < 3; k++) {
    vc[k] = v[3 + k];
    ac[k] = a[3 + k];
  }
  if (c) {
    v2 wc[3], alc[3];
    cross2(wc, v, c);
    cross2(alc, a, c);
    for (int k = 0; k < 3; k++) {
      vc[k] += wc[k];
      ac[k] += alc[k];
    }
  }
  mulsv2(f, I, a);
  mulsv2(Iw, I, v);
  cross2(wIw, v, Iw);
  cross2(wv, v, vc);
  for (int k = 0; k < 3; k++) {
    f[k] += wIw[k];
    f[3 + k] = mass * (ac[k] + wv[k]);
  }
}


/* f -= the external wrenches wF (inertial frame, at the CoM; a record without: 0) seen in the
   frame R */
static void sub_wrench(v2 f[6], const v2 R[9], const double *wa, const double *wb) {
  for (int h = 0; h < 6; h += 3) {
    v2 w[3], in[3] = {pair(wa, wb, h), pair(wa, wb, h + 1), pair(wa, wb, h + 2)};
    mulmtv2(w, R, in);
    for (int k = 0; k < 3; k++) {
      f[h + k] -= w[k];
    }
  }
}


/* res = X m: a motion vector [w; v] of the parent at its frame's origin, moved to the child's
   origin rho away (parent frame) and turned into the child's frame Q: [Q' w; Q' (v + w x rho)] */
RNEA_INLINE void motion_down(v2 res[6], const v2 Q[9], const v2 rho[3], const v2 m[6]) {
  v2 wr[3], v[3];
  cross2(wr, m, rho);
  for (int k = 0; k < 3; k++) {
    v[k] = m[3 + k] + wr[k];
  }
  mulmtv2(res, Q, m);
  mulmtv2(res + 3, Q, v);
}


/* res = X' f: a force of the child seen in the parent's frame at its origin:
   [Q n + rho x Q f; Q f] */
RNEA_INLINE void force_up(v2 res[6], const v2 Q[9], const v2 rho[3], const v2 f[6]) {
  v2 rf[3];
  mulmv2(res, Q, f);
  mulmv2(res + 3, Q, f + 3);
  cross2(rf, rho, res + 3);
  for (int k = 0; k < 3; k++) {
    res[k] += rf[k];
  }
}


/* the transform of a joint of several coordinates (spart_joint_transform), record by record */
static void xup2_multi(const spart_model *m, const spart_data *d, int i, const double *qa,
                       const double *qb, int j, v2 Q[9], v2 rho[3]) {
  const double *c = d->own_->jc + SPART_JC * i;
  double Qa[9], Qb[9], ra[3], rb[3];
  spart_joint_transform(m, i, qa + j, c + SPART_JC_T, Qa, ra); /* T, then r (SPART_JC_R) */
  spart_joint_transform(m, i, qb + j, c + SPART_JC_T, Qb, rb);
  for (int k = 0; k < 9; k++) {
    Q[k] = (v2){Qa[k], Qb[k]};
  }
  for (int k = 0; k < 3; k++) {
    rho[k] = (v2){ra[k], rb[k]};
  }
}


/* the joint transform of body i (spart_joint_transform) for both records, K its constants, the
   joint's coordinate at qa[j] and qb[j] (the same when same): T, r then, when the joint is one
   unit screw (m->jnt_zaxis: s = 2 about, s = 5 along F_i's z), the coordinate's turn or
   shift; a joint of no coordinate is T, r; any other (s < 0) has its own transform. */
RNEA_INLINE void xup2(const spart_model *m, const spart_data *d, int i, const v2 *K,
                      const double *qa, const double *qb, int j, int same, int s, v2 Q[9],
                      v2 rho[3]) {
  const v2 *T = K + SPART_JP_T, *r = K + SPART_JP_R;
  if (s < 0 && m->jnt_nq[i] > 0) {
    xup2_multi(m, d, i, qa, qb, j, Q, rho);
    return;
  }
  if (s == 2) {
    double sn[2], cs[2];
    if (same) {
      spu_sincos(qa[j], sn, cs);
      sn[1] = sn[0];
      cs[1] = cs[0];
    } else {
      const double q[2] = {qa[j], qb[j]};
      spu_sincos2(q, sn, cs); /* both at once */
    }
    v2 sq = {sn[0], sn[1]}, cq = {cs[0], cs[1]};
    for (int k = 0; k < 9; k += 3) {
      Q[k] = cq * T[k] + sq * T[k + 1];
      Q[k + 1] = cq * T[k + 1] - sq * T[k];
      Q[k + 2] = T[k + 2];
    }
    for (int k = 0; k < 3; k++) {
      rho[k] = r[k];
    }
    return;
  }
  for (int k = 0; k < 9; k++) {
    Q[k] = T[k];
  }
  for (int k = 0; k < 3; k++) {
    rho[k] = r[k];
  }
  if (s == 5) {
    v2 x = {qa[j], qb[j]};
    for (int k = 0; k < 3; k++) {
      rho[k] += x * T[3 * k + 2];
    }
  }
}


/* a += S qdd + (X v_p) x S qd for a degree of freedom S = e_s in F_i (dof_axis), v = X v_p:
   for a rotation about axis s, [w x e_s; v_lin x e_s] qd, for a translation along axis s - 3,
   [0; w x e_(s-3)] qd; none of it reads v[s].  s is a constant where the passes know it (the
   indices fold), a variable for the joints of several degrees of freedom. */
RNEA_INLINE void dof_acc(v2 a[6], const v2 v[6], int s, v2 qd, v2 qdd) {
  static const unsigned char X[6][4] = {{1, 2, 2, 1}, {2, 0, 0, 2}, {0, 1, 1, 0},
                                        {4, 2, 5, 1}, {5, 0, 3, 2}, {3, 1, 4, 0}};
  const unsigned char *t = X[s];
  a[s] += qdd;
  a[t[0]] += v[t[1]] * qd;
  a[t[2]] -= v[t[3]] * qd;
  if (s < 3) {
    a[t[0] + 3] += v[t[1] + 3] * qd;
    a[t[2] + 3] -= v[t[3] + 3] * qd;
  }
}


/* the same for a degree of freedom whose S (6, dof_S) is not one unit column (dof_axis -1: a
   helical joint's): a += S qdd + v x S qd, v x S = [w x s_w; w x s_v + v_lin x s_w] */
static void dof_acc_col(v2 a[6], const v2 v[6], const double *S, v2 qd, v2 qdd) {
  v2 s[6], c1[3], c2[3], c3[3];
  for (int k = 0; k < 6; k++) {
    s[k] = (v2){S[k], S[k]};
  }
  cross2(c1, v, s);
  cross2(c2, v, s + 3);
  cross2(c3, v + 3, s);
  for (int k = 0; k < 3; k++) {
    a[k] += s[k] * qdd + c1[k] * qd;
    a[3 + k] += s[3 + k] * qdd + (c2[k] + c3[k]) * qd;
  }
}


/* body i's step of the forward pass, o the data's own (spart_internal.h), its joint transform in
   o->bQ, o->brho: v_i = X_i v_p + S qd, a_i = X_i a_p + S qdd + v_i x S qd (RBDA table 5.1),
   then the Newton-Euler force at the CoM moved to F_i's origin; s the axis of the joint's one
   unit screw (m->jnt_zaxis, a constant here), -1 for the others: their degrees of freedom one
   by one */
RNEA_INLINE void body_forward(const spart_model *m, const struct spart_own *o, int i,
                              const rnea_in *x, const rnea_in *y, int wrench, int s,
                              int dense) {
  int p = m->body_parent[i];
  const v2 *K = (const v2 *)o->jp + SPART_JP * i, *com = K + SPART_JP_C;
  v2 *Q = (v2 *)o->bQ + 9 * i, *rho = (v2 *)o->brho + 3 * i, *v = (v2 *)o->bv + 6 * i;
  v2 *a = (v2 *)o->ba + 6 * i, *f = (v2 *)o->bf + 6 * i, nc[3];
  motion_down(v, Q, rho, (v2 *)o->bv + 6 * p);
  motion_down(a, Q, rho, (v2 *)o->ba + 6 * p);
  if (s >= 0) {
    int dof = m->jnt_vadr[i];
    v2 qd = rate_pair(dense, x->um, y->um, dof);
    dof_acc(a, v, s, qd, rate_pair(dense, x->umdot, y->umdot, dof));
    v[s] += qd;
  } else {
    /* v_i x S qd = (X v_p) x S qd: S qd x S qd = 0, and a joint of several degrees of freedom
       must not cross them with each other, so v takes them after */
    int dof0 = m->jnt_vadr[i], dofend = dof0 + m->jnt_nv[i];
    for (int dof = dof0; dof < dofend; dof++) {
      int k = m->dof_axis[dof];
      v2 qd = rate_pair(dense, x->um, y->um, dof), qdd = rate_pair(dense, x->umdot, y->umdot, dof);
      if (k >= 0) {
        dof_acc(a, v, k, qd, qdd);
      } else {
        dof_acc_col(a, v, m->dof_S + 6 * dof, qd, qdd);
      }
    }
    for (int dof = dof0; dof < dofend; dof++) {
      int k = m->dof_axis[dof];
      v2 qd = rate_pair(dense, x->um, y->um, dof);
      if (k >= 0) {
        v[k] += qd;
        continue;
      }
      for (int r = 0; r < 6; r++) { /* S qd, S not one unit column */
        v[r] += (v2){m->dof_S[6 * dof + r], m->dof_S[6 * dof + r]} * qd;
      }
    }
  }
  body_force(f, K + SPART_JP_IC, K[SPART_JP_M], com, v, a);
  if (wrench) {
    v2 *R = (v2 *)o->bR + 9 * i, *Rp = (v2 *)o->bR + 9 * p;
    for (int r = 0; r < 3; r++) {
      for (int c = 0; c < 3; c++) {
        R[3 * r + c] = Rp[3 * r] * Q[c] + Rp[3 * r + 1] * Q[3 + c] + Rp[3 * r + 2] * Q[6 + c];
      }
    }
    sub_wrench(f, R, x->wF ? x->wF + 6 * i : NULL, y->wF ? y->wF + 6 * i : NULL);
  }
  cross2(nc, com, f + 3);
  for (int k = 0; k < 3; k++) {
    f[k] += nc[k];
  }
}


/* the forward pass of n = 1 or 2 records (lane 1: the second record, or the first again): the
   joint transforms (bQ, brho of d->own_), velocities (bv), accelerations (ba) and each body's
   force in F_i at F_i's origin (bf), the base's in its CoM frame; dense: both give um and
   umdot */
RNEA_INLINE void rnea_forward(const spart_model *m, spart_data *d, int n, const rnea_in in[],
                              const v2 R0[9], const double *gravity, int dense) {
  const rnea_in *x = in, *y = in + (n > 1);
  const struct spart_own *o = d->own_;
  const v2 *JP = (const v2 *)o->jp;
  v2 *V = (v2 *)o->bv, *A = (v2 *)o->ba, *F = (v2 *)o->bf, *RR = (v2 *)o->bR;
  v2 *XQ = (v2 *)o->bQ, *XR = (v2 *)o->brho, g0[3] = {{0, 0}, {0, 0}, {0, 0}}, wv[3];
  int wrench = x->wF || y->wF;

  /* base, in its frame: v0 = [w0; R0' r0dot]; a0 = [w0dot; R0' (r0ddot - g) - w0 x v0]
     (spatial, with gravity as an acceleration of the base, Featherstone RBDA 5.3) */
  for (int k = 0; k < 3; k++) {
    V[k] = pair(x->u0, y->u0, k);
    A[k] = pair(x->u0dot, y->u0dot, k);
    V[3 + k] = A[3 + k] = (v2){0, 0};
  }
  if (x->u0 || y->u0) {
    v2 u[3] = {pair(x->u0, y->u0, 3), pair(x->u0, y->u0, 4), pair(x->u0, y->u0, 5)};
    mulmtv2(V + 3, R0, u);
  }
  if (x->u0dot || y->u0dot) {
    v2 u[3] = {pair(x->u0dot, y->u0dot, 3), pair(x->u0dot, y->u0dot, 4),
               pair(x->u0dot, y->u0dot, 5)};
    mulmtv2(A + 3, R0, u);
  }
  if (gravity) {
    v2 g[3] = {{gravity[0], gravity[0]}, {gravity[1], gravity[1]}, {gravity[2], gravity[2]}};
    mulmtv2(g0, R0, g);
  }
  cross2(wv, V, V + 3);
  for (int k = 0; k < 3; k++) {
    A[3 + k] -= g0[k] + wv[k];
  }
  body_force(F, JP + SPART_JP_IC, JP[SPART_JP_M], NULL, V, A);
  if (wrench) {
    memcpy(RR, R0, 9 * sizeof(v2));
    sub_wrench(F, R0, x->wF, y->wF);
  }

  /* forward pass in the joint frames F_i (spart_joint_constants): first every joint transform
     (bQ, brho), which depend on no other body, so that their sines and cosines overlap instead
     of holding up the recursion; then the bodies from the base out, the common joints (one unit
     screw about or along z) with their axis a constant */
  for (int i = 1; i < m->nb; i++) {
    int s = m->jnt_zaxis[i];
    xup2(m, d, i, JP + SPART_JP * i, x->qm, y->qm, m->jnt_qadr[i], n == 1, s, XQ + 9 * i,
         XR + 3 * i);
  }
  for (int i = 1; i < m->nb; i++) {
    int s = m->jnt_zaxis[i];
    if (s == 2) {
      body_forward(m, o, i, x, y, wrench, 2, dense);
    } else if (s == 5) {
      body_forward(m, o, i, x, y, wrench, 5, dense);
    } else {
      body_forward(m, o, i, x, y, wrench, -1, dense);
    }
  }
}


void spart_rnea_bias(const spart_model *m, spart_data *d, const spart_state *s, int fixed_base,
                     const double *gravity) {
  rnea_in in = {s->R0, s->qm, fixed_base ? NULL : s->u0, s->um, NULL, NULL, s->wF};
  v2 R[9];
  for (int k = 0; k < 9; k++) {
    R[k] = (v2){s->R0[k], s->R0[k]};
  }
  rnea_forward(m, d, 1, &in, R, gravity, 0);
}


/* S' f for a degree of freedom whose S (6, dof_S) is not one unit column */
static v2 col_dot(const double *S, const v2 f[6]) {
  v2 t = {0, 0};
  for (int k = 0; k < 6; k++) {
    t += (v2){S[k], S[k]} * f[k];
  }
  return t;
}


/* spart_rnea_pair, dense as rnea_forward's */
RNEA_INLINE void rnea_pair(const spart_model *m, spart_data *d, int n, const rnea_in in[],
                           const double *gravity, double *const tau[], int dense) {
  const rnea_in *x = in, *y = in + (n > 1); /* lane 1: the second record, or the first */
  const struct spart_own *o = d->own_;
  const v2 *JP = (const v2 *)o->jp;
  v2 *F = (v2 *)o->bf, *XQ = (v2 *)o->bQ, *XR = (v2 *)o->brho, R0[9];
  for (int k = 0; k < 9; k++) {
    R0[k] = (v2){x->R0[k], y->R0[k]};
  }
  rnea_forward(m, d, n, in, R0, gravity, dense);

  /* backward pass: tau_i = S_i' f_i (+ the armature), f_p += X_i' f_i */
  for (int i = m->nb - 1; i > 0; i--) {
    int p = m->body_parent[i];
    const v2 *f = F + 6 * i;
    v2 *fp = F + 6 * p, fx[6];
    for (int j = m->jnt_vadr[i], end = j + m->jnt_nv[i]; j < end; j++) {
      int k = m->dof_axis[j];
      v2 t = (k >= 0 ? f[k] : col_dot(m->dof_S + 6 * j, f)) +
             JP[SPART_JP * i + SPART_JP_ARM] * rate_pair(dense, x->umdot, y->umdot, j);
      tau[0][6 + j] = t[0];
      if (n > 1) {
        tau[1][6 + j] = t[1];
      }
    }
    force_up(fx, XQ + 9 * i, XR + 3 * i, f);
    for (int k = 0; k < 6; k++) {
      fp[k] += fx[k];
    }
  }

  /* base: tau0 = [torque (base frame); R0 force] (spu_rotlin) */
  v2 f0[3];
  mulmv2(f0, R0, F + 3);
  for (int l = 0; l < n; l++) {
    for (int k = 0; k < 3; k++) {
      tau[l][k] = F[k][l];
      tau[l][3 + k] = f0[k][l];
    }
  }
}


/* n = 1 or 2 records, in[k] what the passes read of record k */
static void lanes(const spart_model *m, spart_data *d, int n, const rnea_in in[],
                  const double *gravity, double *const tau[]) {
  const rnea_in *x = in, *y = in + (n > 1);
  /* the usual case, every rate given, in a copy of its own without a test for each */
  if (x->um && y->um && x->umdot && y->umdot) {
    rnea_pair(m, d, n, in, gravity, tau, 1);
  } else {
    rnea_pair(m, d, n, in, gravity, tau, 0);
  }
}


void spart_rnea_pair(const spart_model *m, spart_data *d, int n, const spart_state *const s[],
                     const double *gravity, double *const tau[]) {
  const spart_state *a = s[0], *b = s[n > 1];
  const rnea_in in[2] = {{a->R0, a->qm, a->u0, a->um, a->u0dot, a->umdot, a->wF},
                         {b->R0, b->qm, b->u0, b->um, b->u0dot, b->umdot, b->wF}};
  lanes(m, d, n, in, gravity, tau);
}


void spart_rnea(const spart_model *m, spart_data *d, const spart_state *s, const double *gravity,
                double *tau) {
  rnea_in in = {s->R0, s->qm, s->u0, s->um, s->u0dot, s->umdot, s->wF};
  lanes(m, d, 1, &in, gravity, &tau);
}


void spart_joint_wrenches(const spart_model *m, spart_data *d, const spart_state *s, double *w) {
  /* the backward pass left f_i (lane 0: the record) in F_i at its origin; F_i's world pose */
  const v2 *F = (const v2 *)d->own_->bf;
  spart_fk(m, d, s);
  for (int i = 1; i < m->nb; i++) {
    const double *W = d->xrotF + 9 * i, *o = d->xposF + 3 * i, *rJ = d->xposJ + 3 * i;
    double n[3], f[3], nw[3], fw[3], dr[3], mf[3];
    for (int k = 0; k < 3; k++) {
      n[k] = F[6 * i + k][0];
      f[k] = F[6 * i + 3 + k][0];
      dr[k] = o[k] - rJ[k];
    }
    /* turned into the inertial frame, moved from F_i's origin to rJ: n + (o - rJ) x f */
    spu_mulmv3(nw, W, n);
    spu_mulmv3(fw, W, f);
    spu_cross(mf, dr, fw);
    for (int k = 0; k < 3; k++) {
      w[6 * (i - 1) + k] = nw[k] + mf[k];
      w[6 * (i - 1) + 3 + k] = fw[k];
    }
  }
}

