/* test_kinds.c -- the joint kinds of several coordinates (floating, ball, planar) against the
 * equivalent chains of one-degree-of-freedom joints, through the library's algorithms:
 *  - H of the chain = E' H E of the kind and G of the chain = E' G, E the map from the chain's
 *    coordinate rates to the kind's v (fixed and floating base, gravity on)
 *  - inverse dynamics: ID(vdot) - ID(0) = H [u0dot; vdot] (RNEA against CRBA, nq != nv)
 *  - H symmetric positive definite (Cholesky), and d(kinetic energy)/dt = u' tau without gravity
 *    by central differences along the motion (q moved by the kind's qdot of v)
 *
 * usage: test_kinds DIR   (DIR holds ball.urdf, ball_chain.urdf, planar*.urdf, floating*.urdf)
 *        prints one line per check, then "N passed, N failed" */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"

static int npass, nfail;
static const double gravity[3] = {0.3, -0.5, -9.81};


static void expect(const char *model, const char *what, const double *a, const double *b, int n,
                   double tol) {
  double err = 0, scale = 1;
  for (int k = 0; k < n; k++) {
    scale = fmax(scale, fabs(b[k]));
  }
  for (int k = 0; k < n; k++) {
    err = fmax(err, fabs(a[k] - b[k]));
  }
  int ok = err <= tol * scale && isfinite(err);
  printf("%s %s: %s (error %.3g, scale %.3g)\n", ok ? "ok" : "FAIL", model, what, err, scale);
  ok ? npass++ : nfail++;
}


static spart_model *load(const char *dir, const char *file) {
  char path[512];
  spart_err err;
  snprintf(path, sizeof path, "%s/%s", dir, file);
  spart_model *m = spart_model_load(path, &err);
  if (!m) {
    printf("FAIL %s: %s\n", path, err.msg);
    exit(1);
  }
  return m;
}


/* rotations about x, y, z; the quaternion of Rz(a) Ry(b) Rx(c) */
static void rot(double R[9], int axis, double t) {
  double c = cos(t), s = sin(t);
  int i = (axis + 1) % 3, j = (axis + 2) % 3;
  memset(R, 0, 9 * sizeof(double));
  R[4 * axis] = 1;
  R[3 * i + i] = c;
  R[3 * i + j] = -s;
  R[3 * j + i] = s;
  R[3 * j + j] = c;
}


static void quat_mul(double r[4], const double a[4], const double b[4]) {
  r[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  r[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  r[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  r[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}


static void quat_zyx(double q[4], double a, double b, double c) {
  double qz[4] = {cos(a / 2), 0, 0, sin(a / 2)}, qy[4] = {cos(b / 2), 0, sin(b / 2), 0};
  double qx[4] = {cos(c / 2), sin(c / 2), 0, 0}, t[4];
  quat_mul(t, qz, qy);
  quat_mul(q, t, qx);
}


static void mulmm(double *C, const double *A, const double *B, int n, int k, int m, int ta) {
  /* C (n x m) = op(A) B, op(A) n x k (A' when ta: A is k x n) */
  for (int r = 0; r < n; r++) {
    for (int c = 0; c < m; c++) {
      double s = 0;
      for (int l = 0; l < k; l++) {
        s += (ta ? A[l * n + r] : A[r * k + l]) * B[l * m + c];
      }
      C[r * m + c] = s;
    }
  }
}


/* E (3x3): the angular velocity in the frame after of angle rates (z, y, x) of Rz(a) Ry(b) Rx(c):
   w = Rx' Ry' e_z adot + Rx' e_y bdot + e_x cdot */
static void euler_rates(double E[9], double b, double c) {
  const double ez[3] = {0, 0, 1};
  double Ry[9], Rx[9], t[3];
  rot(Ry, 1, b);
  rot(Rx, 0, c);
  for (int r = 0; r < 3; r++) {
    t[r] = Ry[0 + r] * ez[0] + Ry[3 + r] * ez[1] + Ry[6 + r] * ez[2];
  }
  for (int r = 0; r < 3; r++) {
    E[3 * r] = Rx[r] * t[0] + Rx[3 + r] * t[1] + Rx[6 + r] * t[2];
    E[3 * r + 1] = Rx[3 + r];
    E[3 * r + 2] = r == 0;
  }
}


/* a view of the state R0, q with u = [u0; um] and ud = [u0dot; umdot] (NULL: zero) */
static spart_state view(const spart_model *m, const double R0[9], const double *q, double *u,
                        double *ud) {
  spart_state x = {.nb = m->nb, .nq = m->nq, .nv = m->nv, .qm = (double *)q, .u0 = u,
                   .um = u ? u + 6 : NULL, .u0dot = ud, .umdot = ud ? ud + 6 : NULL};
  memcpy(x.R0, R0, sizeof x.R0);
  return x;
}


typedef struct {
  const char *name;
  spart_model *kind, *chain;
  double *qk, *qc, *E; /* E: nv(kind) x nv(chain) */
} pair_t;


/* the kind's H and G mapped by E against the chain's, with either base */
static void compare(const pair_t *p, int fixed) {
  const spart_model *mk = p->kind, *mc = p->chain;
  int off = fixed ? 0 : 6, nk = off + mk->nv, nc = off + mc->nv;
  double R0[9], *Hk = calloc((size_t)nk * nk, sizeof(double)), *Hc = calloc((size_t)nc * nc, 8);
  double *E = calloc((size_t)nk * nc, 8), *t = calloc((size_t)nk * nc, 8),
         *EHE = calloc((size_t)nc * nc, 8);
  double *Gk = calloc(6 + (size_t)mk->nv, 8), *Gc = calloc(6 + (size_t)mc->nv, 8),
         *EG = calloc((size_t)nc, 8);
  spart_data *dk = spart_data_new(mk), *dc = spart_data_new(mc);
  char what[96];
  rot(R0, 1, 0.4);
  for (int k = 0; k < off; k++) {
    E[k * nc + k] = 1;
  }
  for (int r = 0; r < mk->nv; r++) {
    for (int c = 0; c < mc->nv; c++) {
      E[(off + r) * nc + off + c] = p->E[r * mc->nv + c];
    }
  }
  spart_state xk = view(mk, R0, p->qk, NULL, NULL), xc = view(mc, R0, p->qc, NULL, NULL);
  spart_crba(mk, dk, &xk, fixed, Hk);
  spart_crba(mc, dc, &xc, fixed, Hc);
  mulmm(t, Hk, E, nk, nk, nc, 0);
  mulmm(EHE, E, t, nc, nk, nc, 1);
  snprintf(what, sizeof what, "H of the chain = E' H E (%s base)", fixed ? "fixed" : "floating");
  expect(p->name, what, EHE, Hc, nc * nc, 1e-9);

  spart_rnea(mk, dk, &xk, gravity, Gk);
  spart_rnea(mc, dc, &xc, gravity, Gc);
  mulmm(EG, E, fixed ? Gk + 6 : Gk, nc, nk, 1, 1);
  snprintf(what, sizeof what, "G of the chain = E' G (%s base)", fixed ? "fixed" : "floating");
  expect(p->name, what, EG, fixed ? Gc + 6 : Gc, nc, 1e-9);
  spart_data_free(dk);
  spart_data_free(dc);
  free(Hk), free(Hc), free(E), free(t), free(EHE), free(Gk), free(Gc), free(EG);
}


/* kinetic energy 1/2 u' H u at R0, q */
static double energy(const spart_model *m, spart_data *d, const double R0[9], const double *q,
                     const double *u) {
  int n = 6 + m->nv;
  double *H = malloc((size_t)n * n * sizeof(double)), e = 0;
  spart_state x = view(m, R0, q, NULL, NULL);
  spart_crba(m, d, &x, 0, H);
  for (int r = 0; r < n; r++) {
    for (int c = 0; c < n; c++) {
      e += u[r] * H[r * n + c] * u[c];
    }
  }
  free(H);
  return e / 2;
}


/* q moved by h along v: each joint by its qdot of v, quaternions normalised; R0 by h w0 */
static void step(const spart_model *m, const double *q, const double *u, double h, double *qo,
                 const double R0[9], double R0o[9]) {
  double qd[7], w[3] = {h * u[0], h * u[1], h * u[2]},
                th = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  spart_err err;
  memcpy(qo, q, (size_t)m->nq * sizeof(double));
  for (int i = 1; i < m->nb; i++) {
    if (m->jnt_nq[i] > 0) {
      spart_joint_qdot_of_v(m, i, q + m->jnt_qadr[i], u + 6 + m->jnt_vadr[i], qd);
      for (int k = 0; k < m->jnt_nq[i]; k++) {
        qo[m->jnt_qadr[i] + k] += h * qd[k];
      }
    }
  }
  spart_joint_normalize(m, qo, 1, &err);
  /* R0 exp([w]) (Rodrigues), w in the base frame */
  double K[9] = {0, -w[2], w[1], w[2], 0, -w[0], -w[1], w[0], 0}, K2[9], X[9];
  mulmm(K2, K, K, 3, 3, 3, 0);
  double s = th > 0 ? sin(th) / th : 1, c = th > 0 ? (1 - cos(th)) / (th * th) : 0.5;
  for (int k = 0; k < 9; k++) {
    X[k] = (k % 4 == 0) + s * K[k] + c * K2[k];
  }
  mulmm(R0o, R0, X, 3, 3, 3, 0);
}


/* ID against H, H positive definite, the power of the forces */
static void dynamics(const char *name, const spart_model *m, const double *q) {
  int n = 6 + m->nv;
  spart_data *d = spart_data_new(m);
  double R0[9], *u = calloc((size_t)n, 8), *ud = calloc((size_t)n, 8), *t1 = calloc((size_t)n, 8);
  double *t0 = calloc((size_t)n, 8), *H = calloc((size_t)n * n, 8), *Hud = calloc((size_t)n, 8);
  double *L = calloc((size_t)n * n, 8), *qp = calloc((size_t)m->nq, 8),
         *qm = calloc((size_t)m->nq, 8);
  double *up = calloc((size_t)n, 8), *um = calloc((size_t)n, 8), Rp[9], Rm[9];
  rot(R0, 0, 0.7);
  for (int k = 0; k < n; k++) {
    u[k] = 0.3 * sin(1.7 * k + 0.4);
    ud[k] = 0.8 * cos(2.3 * k + 0.1);
  }
  spart_state x = view(m, R0, q, u, ud), x0 = view(m, R0, q, u, NULL);
  spart_rnea(m, d, &x, gravity, t1);
  spart_rnea(m, d, &x0, gravity, t0);
  spart_crba(m, d, &x, 0, H);
  mulmm(Hud, H, ud, n, n, 1, 0);
  for (int k = 0; k < n; k++) {
    t1[k] -= t0[k];
  }
  expect(name, "ID(udot) - ID(0) = H udot", t1, Hud, n, 1e-9);

  /* symmetric, and Cholesky's pivots positive */
  double asym = 0, minpiv = INFINITY;
  for (int r = 0; r < n; r++) {
    for (int c = 0; c < n; c++) {
      asym = fmax(asym, fabs(H[r * n + c] - H[c * n + r]));
    }
  }
  memcpy(L, H, (size_t)n * n * sizeof(double));
  for (int j = 0; j < n; j++) {
    for (int k = 0; k < j; k++) {
      for (int r = j; r < n; r++) {
        L[r * n + j] -= L[r * n + k] * L[j * n + k];
      }
    }
    minpiv = fmin(minpiv, L[j * n + j]);
    double s = sqrt(fmax(L[j * n + j], 0));
    for (int r = j; r < n; r++) {
      L[r * n + j] /= s;
    }
  }
  int ok = asym == 0 && minpiv > 0;
  printf("%s %s: H symmetric positive definite (asymmetry %.3g, least pivot %.3g)\n",
         ok ? "ok" : "FAIL", name, asym, minpiv);
  ok ? npass++ : nfail++;

  /* d(1/2 u' H u)/dt = u' tau without gravity, central differences */
  double h = 1e-5, power = 0;
  spart_rnea(m, d, &x, NULL, t1);
  for (int k = 0; k < n; k++) {
    power += u[k] * t1[k];
    up[k] = u[k] + h * ud[k];
    um[k] = u[k] - h * ud[k];
  }
  step(m, q, u, h, qp, R0, Rp);
  step(m, q, u, -h, qm, R0, Rm);
  double dE = (energy(m, d, Rp, qp, up) - energy(m, d, Rm, qm, um)) / (2 * h);
  expect(name, "d(kinetic energy)/dt = u' tau", &dE, &power, 1, 1e-7);
  spart_data_free(d);
  free(u), free(ud), free(t1), free(t0), free(H), free(Hud), free(L), free(qp), free(qm);
  free(up), free(um);
}


int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_kinds DIR\n");
    return 2;
  }
  const char *dir = argv[1];
  double a = 0.7, b = -0.4, c = 1.1, el = 0.3, Ez[9];
  euler_rates(Ez, b, c);

  /* ball against z, y, x: v = E qdot_chain */
  {
    double qk[5], qc[4] = {a, b, c, el}, E[16] = {0};
    quat_zyx(qk, a, b, c);
    qk[4] = el;
    for (int r = 0; r < 3; r++) {
      memcpy(E + 4 * r, Ez + 3 * r, 3 * sizeof(double));
    }
    E[15] = 1;
    pair_t p = {"ball", load(dir, "ball.urdf"), load(dir, "ball_chain.urdf"), qk, qc, E};
    compare(&p, 1);
    compare(&p, 0);
    dynamics("ball", p.kind, qk);
    dynamics("ball_chain", p.chain, qc);
    spart_model_free(p.kind);
    spart_model_free(p.chain);
  }

  /* planar against prismatic x, y and revolute z: v = [Rz' (xdot, ydot); thetadot] */
  {
    double x = 0.2, y = -0.6, qk[4] = {x, y, a, el}, qc[4] = {x, y, a, el}, E[16] = {0};
    E[0] = cos(a), E[1] = sin(a), E[4] = -sin(a), E[5] = cos(a), E[10] = E[15] = 1;
    pair_t p = {"planar", load(dir, "planar.urdf"), load(dir, "planar_chain.urdf"), qk, qc, E};
    compare(&p, 1);
    compare(&p, 0);
    dynamics("planar", p.kind, qk);
    spart_model_free(p.kind);
    spart_model_free(p.chain);
  }

  /* floating in a tree against prismatic x, y, z and revolute z, y, x: v = [E adot; R' pdot] */
  {
    double j1 = -0.5, pos[3] = {0.1, -0.2, 0.35}, side = 0.15, R[9], Rz[9], Ry[9], Rx[9], t[9];
    double qk[10] = {j1}, qc[9] = {j1, pos[0], pos[1], pos[2], a, b, c, el, side}, E[81] = {0};
    quat_zyx(qk + 1, a, b, c);
    memcpy(qk + 5, pos, sizeof pos);
    qk[8] = el, qk[9] = side;
    rot(Rz, 2, a), rot(Ry, 1, b), rot(Rx, 0, c);
    mulmm(t, Rz, Ry, 3, 3, 3, 0);
    mulmm(R, t, Rx, 3, 3, 3, 0);
    E[0] = 1;
    for (int r = 0; r < 3; r++) {
      for (int k = 0; k < 3; k++) {
        E[(1 + r) * 9 + 4 + k] = Ez[3 * r + k]; /* w from the angle rates */
        E[(4 + r) * 9 + 1 + k] = R[3 * k + r];  /* v_lin = R' pdot */
      }
    }
    E[7 * 9 + 7] = E[8 * 9 + 8] = 1;
    pair_t p = {"floating", load(dir, "floating_tree.urdf"), load(dir, "floating_chain.urdf"), qk,
                qc, E};
    compare(&p, 1);
    compare(&p, 0);
    dynamics("floating", p.kind, qk);
    spart_model_free(p.kind);
    spart_model_free(p.chain);
  }
  printf("%d passed, %d failed\n", npass, nfail);
  return nfail ? 1 : 0;
}
