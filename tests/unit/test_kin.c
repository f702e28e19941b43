/* test_kin.c -- spart_fk against the joint frames and an independent route: the world poses of
 * the joint frames F_i (d->xrotF, d->xposF) are spart_xup's transforms composed from the base,
 * spart_joint_move after T, r is spart_joint_transform, and SPART's link frames, CoMs, joint
 * positions, axes, g and pm are those of SPART's own chain of link frames (the model's joint and
 * link frames, a rotation about and a translation along the joint axis per coordinate).
 *
 * usage: test_kin MODEL...   prints one line per model, then "N passed, N failed" */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"

static int npass, nfail;


/* the largest difference of n values */
static double diff(const double *a, const double *b, int n) {
  double w = 0;
  for (int k = 0; k < n; k++) {
    w = fmax(w, fabs(a[k] - b[k]));
  }
  return w;
}


static void check(double err, double tol, const char *what, const char *model, int i) {
  if (err <= tol) {
    npass++;
  } else {
    nfail++;
    printf("FAIL %s: body %d: %s (%.3g)\n", model, i, what, err);
  }
}


static void test_state(const char *name, const spart_model *m, spart_data *d, int seed) {
  double R0[9], r0[3] = {0.3 * seed, -1.2, 2.5}, qm[64], e0[3] = {0.36, 0.48, 0.8};
  for (int j = 0; j < m->nq; j++) {
    qm[j] = 0.7 * sin(1.3 * j + seed) + 0.1 * seed;
  }
  spu_axisangle(R0, e0, 0.4 + seed);
  spart_state x = {.nb = m->nb, .nq = m->nq, .nv = m->nv, .qm = qm};
  memcpy(x.R0, R0, sizeof R0);
  memcpy(x.r0, r0, sizeof r0);
  spart_fk(m, d, &x);

  /* F_i's world pose is the product of the joint transforms from the base */
  double RL[64 * 9], rL[64 * 3];
  spart_xup(m, d, qm);
  check(diff(d->xrotF, R0, 9), 0, "F_0 is the base CoM frame", name, 0);
  for (int i = 1; i < m->nb; i++) {
    int p = m->body_parent[i];
    double W[9], o[3], Q[9], rho[3], zero[3] = {0, 0, 0};
    const double *c = d->own_->jc + SPART_JC * i;
    spu_mulmm3(W, d->xrotF + 9 * p, d->Xrot + 9 * i);
    spu_mulmv3(o, d->xrotF + 9 * p, d->Xpos + 3 * i);
    for (int k = 0; k < 3; k++) {
      o[k] += d->xposF[3 * p + k];
    }
    check(diff(W, d->xrotF + 9 * i, 9), 1e-14, "F_i = F_p Xup", name, i);
    check(diff(o, d->xposF + 3 * i, 3), 1e-13, "o_i = o_p + W_p rho", name, i);
    /* the joint's motion after T, r is the joint transform */
    int a = m->jnt_qadr[i];
    memcpy(Q, c + SPART_JC_T, sizeof Q);
    memcpy(rho, c + SPART_JC_R, sizeof rho);
    spart_joint_move(m, i, qm, Q, rho);
    spart_joint_transform(m, i, a >= 0 ? qm + a : zero, c + SPART_JC_T, W, o); /* T, r */
    check(diff(Q, W, 9) + diff(rho, o, 3), 0, "spart_joint_move after T, r", name, i);
  }

  /* SPART's chain of link frames: RJ = RL_p J, rJ = rL_p + RL_p p, e = RJ a; a coordinate turns
     the link by h0 q about a and moves it by h1 q along it: RL = RJ Rot(a, h0 q) B,
     g = RJ (Rot b + h1 q a), rL = rJ + g; pm = [h0 e; h0 e x g + h1 e] */
  memcpy(RL, R0, sizeof R0);
  memset(rL, 0, 3 * sizeof(double));
  for (int i = 1; i < m->nb; i++) {
    int p = m->body_parent[i];
    const double *ax = m->jnt_axis + 3 * i;
    double RJ[9], rJ[3], e[3], Rq[9], RJq[9], t[3], g[3], h0 = 0, h1 = 0, q = 0;
    if (m->jnt_nv[i] > 0) {
      h0 = m->dof_screw[2 * m->jnt_vadr[i]];
      h1 = m->dof_screw[2 * m->jnt_vadr[i] + 1];
      q = qm[m->jnt_qadr[i]];
    }
    spu_mulmm3(RJ, RL + 9 * p, m->jnt_rot + 9 * i);
    spu_mulmv3(rJ, RL + 9 * p, m->jnt_pos + 3 * i);
    spu_mulmv3(e, RJ, ax);
    spu_axisangle(Rq, ax, h0 * q);
    spu_mulmm3(RJq, RJ, Rq);
    spu_mulmm3(RL + 9 * i, RJq, m->body_rot + 9 * i);
    spu_mulmv3(t, Rq, m->body_pos + 3 * i);
    for (int k = 0; k < 3; k++) {
      t[k] += h1 * q * ax[k];
    }
    spu_mulmv3(g, RJ, t);
    for (int k = 0; k < 3; k++) {
      rJ[k] += rL[3 * p + k];
      rL[3 * i + k] = rJ[k] + g[k];
    }
    check(diff(RL + 9 * i, d->xrot + 9 * i, 9), 1e-13, "link frame RL", name, i);
    check(diff(rL + 3 * i, d->xpos + 3 * i, 3), 1e-13, "link CoM rL", name, i);
    check(diff(rJ, d->xposJ + 3 * i, 3), 1e-13, "joint position rJ", name, i);
    check(diff(e, d->xaxis + 3 * i, 3), 1e-14, "joint axis e", name, i);
    check(diff(g, d->xg + 3 * i, 3), 1e-13, "joint to CoM g", name, i);
    /* the URDF link frame is the joint frame after the joint's motion, RJ Rot(a, h0 q) at
       rJ + RJ h1 q a; spart_link_pose gives it in the inertial frame (r0 added) */
    double R[9], r[3], pl[3], hqa[3] = {h1 * q * ax[0], h1 * q * ax[1], h1 * q * ax[2]};
    spu_mulmv3(pl, RJ, hqa);
    for (int k = 0; k < 3; k++) {
      pl[k] += rJ[k] + r0[k];
    }
    spart_link_pose(m, d, i, R, r);
    check(diff(R, RJq, 9), 1e-13, "link frame pose R", name, i);
    check(diff(r, pl, 3), 1e-12, "link frame pose r (r0 added)", name, i);
    /* SPART I_I: RL I RL' as a full 3x3 */
    const double *J = m->body_inertia + 6 * i; /* xx yy zz xy xz yz */
    double Ib[9] = {J[0], J[3], J[4], J[3], J[1], J[5], J[4], J[5], J[2]}, T[9], Iw[9];
    double I3[64 * 9];
    spu_mulmm3(T, RL + 9 * i, Ib);
    for (int a = 0; a < 9; a++) {
      Iw[a] = spu_dot3(T + 3 * (a / 3), RL + 9 * i + 3 * (a % 3));
    }
    spart_inertias(m, d, I3);
    check(diff(I3 + 9 * i, Iw, 9), 1e-12 * (1 + fabs(Ib[0]) + fabs(Ib[4]) + fabs(Ib[8])),
          "I_I: RL I RL'", name, i);
    if (m->jnt_nv[i] > 0) {
      double pm[6], exg[3];
      spu_cross(exg, e, g);
      for (int k = 0; k < 3; k++) {
        pm[k] = h0 * e[k];
        pm[3 + k] = h0 * exg[k] + h1 * e[k];
      }
      check(diff(pm, d->xS + 6 * m->jnt_vadr[i], 6), 1e-13, "pm", name, i);
    }
  }
}


int main(int argc, char **argv) {
  for (int f = 1; f < argc; f++) {
    spart_err err;
    spart_model *m = spart_model_load(argv[f], &err);
    spart_data *d = m ? spart_data_new(m) : NULL;
    const char *name = strrchr(argv[f], '/') ? strrchr(argv[f], '/') + 1 : argv[f];
    if (!d || m->nb > 64 || m->nq > 64) {
      printf("FAIL %s: cannot load\n", name);
      nfail++;
    } else {
      int before = nfail;
      for (int s = 0; s < 3; s++) {
        test_state(name, m, d, s);
      }
      printf("%s %s: %d bodies\n", nfail == before ? "ok" : "FAIL", name, m->nb);
    }
    spart_data_free(d);
    spart_model_free(m);
  }
  printf("%d passed, %d failed\n", npass, nfail);
  return nfail > 0;
}
