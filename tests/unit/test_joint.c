/* test_joint.c -- the joint model (spart_joint.c) on its own: each kind's sizes, the addresses
 * and per-dof data spart_joint_setup fills, the motion subspace S against a central difference
 * of the joint transform, the transform at q = 0, and the qdot <-> v maps round trip.
 *
 * usage: test_joint MODEL...   prints one line per check, then "N passed, N failed" */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"

static int npass, nfail;


static void check(int ok, const char *what, const char *model, int i, double err) {
  if (ok) {
    npass++;
  } else {
    nfail++;
    printf("FAIL %s: joint %d: %s (%.3g)\n", model, i, what, err);
  }
}


/* the velocity of F_i in F_p seen in F_i for the coordinate rates dq of joint i (its qdot of
   a unit v), by central differences of its transform: [vee(Q' dQ); Q' drho] */
static void fd_motion(const spart_model *m, int i, const double *q0, const double *dq,
                      const double Tr[12], double out[6]) {
  double h = 1e-6, qp[7], qm[7], Qp[9], Qm[9], Q0[9], rp[3], rm[3], r0[3], dQ[9], W[9], dr[3];
  int nq = m->jnt_nq[i];
  for (int k = 0; k < nq; k++) {
    qp[k] = q0[k] + h * dq[k];
    qm[k] = q0[k] - h * dq[k];
  }
  spart_joint_transform(m, i, q0, Tr, Q0, r0);
  spart_joint_transform(m, i, qp, Tr, Qp, rp);
  spart_joint_transform(m, i, qm, Tr, Qm, rm);
  for (int a = 0; a < 9; a++) {
    dQ[a] = (Qp[a] - Qm[a]) / (2 * h);
  }
  for (int a = 0; a < 3; a++) {
    dr[a] = (rp[a] - rm[a]) / (2 * h);
  }
  /* W = Q0' dQ, skew: w = (W32, W13, W21) */
  for (int a = 0; a < 3; a++) {
    for (int b = 0; b < 3; b++) {
      W[3 * a + b] = Q0[a] * dQ[b] + Q0[3 + a] * dQ[3 + b] + Q0[6 + a] * dQ[6 + b];
    }
  }
  out[0] = W[7];
  out[1] = W[2];
  out[2] = W[3];
  for (int a = 0; a < 3; a++) {
    out[3 + a] = Q0[a] * dr[0] + Q0[3 + a] * dr[1] + Q0[6 + a] * dr[2];
  }
}


/* a rotation from a unit quaternion of four numbers, for a T that is not the identity */
static void some_rotation(double R[9], double a, double b, double c, double d) {
  double n = sqrt(a * a + b * b + c * c + d * d);
  a /= n, b /= n, c /= n, d /= n;
  double x[9] = {a * a + b * b - c * c - d * d, 2 * (b * c - a * d), 2 * (b * d + a * c),
                 2 * (b * c + a * d), a * a - b * b + c * c - d * d, 2 * (c * d - a * b),
                 2 * (b * d - a * c), 2 * (c * d + a * b), a * a - b * b - c * c + d * d};
  memcpy(R, x, sizeof x);
}


static void test_model(const char *path) {
  spart_err err;
  spart_model *m = spart_model_load(path, &err);
  if (!m) {
    nfail++;
    printf("FAIL %s: %s\n", path, err.msg);
    return;
  }
  const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  int nv = 0, nq = 0, fails = nfail;
  double *qall = calloc((size_t)m->nq + 7, sizeof(double));
  for (int i = 1; i < m->nb; i++) {
    int t = m->jnt_type[i];
    /* sizes: SPART's kinds have one coordinate and one degree of freedom, or none; the others
       (RigidBodyDynamics.jl's) 7, 6 (floating), 4, 3 (ball), 3, 3 (planar), 2, 1 (sincos) and
       6, 6 (spquat); a helical joint 1, 1 */
    static const int wq[] = {0, 1, 1, 7, 4, 3, 2, 6, 1}, wv[] = {0, 1, 1, 6, 3, 3, 1, 6, 1};
    check(t >= 0 && t < 9 && spart_joint_nq(t) == wq[t] && spart_joint_nv(t) == wv[t] &&
              m->jnt_nq[i] == wq[t] && m->jnt_nv[i] == wv[t],
          "sizes nq, nv", name, i, 0);
    /* addresses: in joint order, dof -> body */
    check(m->jnt_nv[i] == 0 ? m->jnt_vadr[i] == -1 : m->jnt_vadr[i] == nv, "jnt_vadr", name, i,
          m->jnt_vadr[i]);
    check(m->jnt_nq[i] == 0 ? m->jnt_qadr[i] == -1 : m->jnt_qadr[i] == nq, "jnt_qadr", name, i,
          m->jnt_qadr[i]);
    for (int k = 0; k < m->jnt_nv[i]; k++) {
      check(m->dof_body[nv + k] == i, "dof_body", name, i, m->dof_body[nv + k]);
    }
    nv += m->jnt_nv[i];
    nq += m->jnt_nq[i];

    /* S against the transform's central difference, at a few q and a turned T */
    double S[36], Tr[12], *T = Tr, *r = Tr + 9, Q[9], rho[3], *qi = qall; /* T, then r */
    double *q = qall + (m->jnt_qadr[i] > 0 ? m->jnt_qadr[i] : 0);
    spart_err nerr;
    int n = m->jnt_nv[i];
    spart_joint_motion(m, i, S);
    some_rotation(T, 0.9, 0.1 * i, -0.3, 0.2);
    r[0] = 0.3, r[1] = -0.2, r[2] = 0.7;
    for (int trial = 0; trial < 3; trial++) {
      for (int k = 0; k < m->jnt_nq[i]; k++) {
        q[k] = 0.7 * trial - 0.4 + 0.1 * k;
      }
      spart_joint_normalize(m, qi, 10, &nerr); /* a quaternion, unit (the others stay) */
      for (int k = 0; k < n; k++) {
        double fd[6], worst = 0, e[6] = {0}, dq[7];
        e[k] = 1;
        spart_joint_qdot_of_v(m, i, q, e, dq);
        fd_motion(m, i, q, dq, Tr, fd);
        for (int a = 0; a < 6; a++) {
          worst = fmax(worst, fabs(fd[a] - S[a * n + k]));
        }
        check(worst < 1e-8, "S = d(transform)/dq", name, i, worst);
      }
    }
    /* the dynamics passes' shortcut (jnt_zaxis): 2 for the kinds of one turn about F_i's z
       (revolute), 5 for one shift along it (prismatic), -1 for the others; and the transform
       the passes write for it, T Rz(q) or T with r + q T e_z, is the joint model's */
    static const int wz[] = {-1, 2, 5, -1, -1, -1, -1, -1, -1}; /* helical: of a pitch not 0 */
    check(m->jnt_zaxis[i] == (t == SPART_JNT_HELICAL && m->jnt_pitch[i] == 0 ? 2 : wz[t]),
          "jnt_zaxis", name, i, m->jnt_zaxis[i]);
    if (m->jnt_zaxis[i] >= 0) {
      double x = 0.37, c = cos(x), sn = sin(x), want[9], wr[3], worst = 0;
      spart_joint_transform(m, i, &x, Tr, Q, rho);
      for (int k = 0; k < 3; k++) {
        int turn = m->jnt_zaxis[i] == 2;
        want[3 * k] = turn ? c * T[3 * k] + sn * T[3 * k + 1] : T[3 * k];
        want[3 * k + 1] = turn ? c * T[3 * k + 1] - sn * T[3 * k] : T[3 * k + 1];
        want[3 * k + 2] = T[3 * k + 2];
        wr[k] = r[k] + (turn ? 0 : x * T[3 * k + 2]);
      }
      for (int k = 0; k < 9; k++) {
        worst = fmax(worst, fabs(Q[k] - want[k]) + (k < 3 ? fabs(rho[k] - wr[k]) : 0));
      }
      check(worst < 1e-15, "jnt_zaxis: its transform", name, i, worst);
    }
    /* at the neutral q (0, a quaternion's w 1) the transform is T, r exactly */
    memset(qall, 0, ((size_t)m->nq + 7) * sizeof(double));
    spart_joint_neutral(m, qi);
    spart_joint_transform(m, i, q, Tr, Q, rho);
    check(memcmp(Q, T, sizeof Q) == 0 && memcmp(rho, r, sizeof rho) == 0, "transform(0) = T, r",
          name, i, 0);

    /* v -> qdot -> v (exact for one coordinate, to roundoff at another q for the others), and
       the bias term is S's rate: 0 for a constant S */
    double qd[7], v[6] = {0.25, -1.5, 3, 0.125, -2, 7}, back[6], c[6], worst = 0;
    if (m->jnt_nq[i] > 1) {
      for (int k = 0; k < m->jnt_nq[i]; k++) {
        q[k] = 0.3 + 0.2 * k;
      }
      spart_joint_normalize(m, qi, 10, &nerr);
    }
    spart_joint_qdot_of_v(m, i, q, v, qd);
    spart_joint_v_of_qdot(m, i, q, qd, back);
    for (int k = 0; k < n; k++) {
      worst = fmax(worst, fabs(back[k] - v[k]));
    }
    check(m->jnt_nq[i] > 1 ? worst < 1e-14 : memcmp(back, v, (size_t)n * sizeof(double)) == 0,
          "qdot <-> v round trip", name, i, worst);
    spart_joint_bias(m, i, q, v, c);
    double cmax = 0;
    for (int a = 0; a < 6; a++) {
      cmax = fmax(cmax, fabs(c[a]));
    }
    check(cmax == 0, "bias of a constant S", name, i, cmax);
  }
  check(nv == m->nv && nq == m->nq, "nv, nq", name, 0, m->nv);
  if (nfail == fails) {
    printf("ok %s: %d joints, nq %d, nv %d\n", name, m->nb - 1, m->nq, m->nv);
  }
  free(qall);
  spart_model_free(m);
}


int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_joint MODEL...\n");
    return 2;
  }
  check(spart_joint_nq(-1) == -1 && spart_joint_nv(99) == -1, "unknown kinds", "-", 0, 0);
  for (int k = 1; k < argc; k++) {
    test_model(argv[k]);
  }
  printf("%d passed, %d failed\n", npass, nfail);
  return nfail ? 1 : 0;
}
