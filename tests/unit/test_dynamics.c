/* test_dynamics.c -- physics identities of libspart on every model given, at random states:
 *  - ID equals H udot + C u - N' wF (and with gravity, - N' m g)
 *  - FD inverts ID, for a floating and for a fixed base
 *  - FD on fresh data equals H \ (tau - ID(q, u, 0)), with armature, for both bases
 *  - H and C from the NOC (N' M N, N' (M Ndot + Mdot N), Ndot by central differences) equal
 *    CRBA and CIM; H is symmetric positive definite
 *  - SPART's Floating_ID gives tau0 = 0 and agrees with FD
 *  - twists match central differences of poses, Jdot of Jacobians, tdot of twists
 *  - with zero momentum the CoM neither moves nor accelerates under joint forces
 *  - massless fixed links added to the tree change no generalized quantity
 *
 * usage: test_dynamics MODEL.urdf...   prints one line per check, then "N passed, N failed"
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spu.h"
#include "unit.h"

static int npass, nfail;
static unsigned long long rng = 88172645463325252ull;


static double urand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (double)(rng >> 11) / 9007199254740992.0 * 2 - 1;
}


static double maxabs(const double *a, int n) {
  double s = 0;
  for (int k = 0; k < n; k++) {
    s = fmax(s, fabs(a[k]));
  }
  return s;
}


/* |a - b| <= tol * max(1, |b|) elementwise in the max norm */
static void expect(const char *model, const char *what, const double *a, const double *b, int n,
                   double tol) {
  double err = 0, scale = fmax(1, maxabs(b, n));
  for (int k = 0; k < n; k++) {
    err = fmax(err, fabs(a[k] - b[k]));
  }
  int ok = err <= tol * scale && isfinite(err);
  printf("%s %s: %s (error %.3g, scale %.3g)\n", ok ? "ok" : "FAIL", model, what, err, scale);
  ok ? npass++ : nfail++;
}


/* a random state: rotation from a random unit quaternion */
typedef spart_state state;


static void random_state(const spart_model *m, state *s) {
  double q[4], n = 0;
  for (int k = 0; k < 4; k++) {
    q[k] = urand();
    n += q[k] * q[k];
  }
  n = sqrt(n);
  double w = q[0] / n, x = q[1] / n, y = q[2] / n, z = q[3] / n;
  double R[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z),     2 * (x * z + w * y),
                 2 * (x * y + w * z),     1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                 2 * (x * z - w * y),     2 * (y * z + w * x),     1 - 2 * (x * x + y * y)};
  memcpy(s->R0, R, sizeof(R));
  for (int k = 0; k < 3; k++) {
    s->r0[k] = urand();
  }
  for (int k = 0; k < 6; k++) {
    s->u0[k] = urand();
    s->u0dot[k] = urand();
    s->tau0[k] = urand();
  }
  for (int k = 0; k < m->nq; k++) {
    s->qm[k] = 2 * urand();
    s->um[k] = urand();
    s->umdot[k] = urand();
    s->taum[k] = urand();
  }
  for (int k = 0; k < 6 * m->nb; k++) {
    s->wF[k] = 0.2 * urand();
  }
}


static void state_alloc(const spart_model *m, state *s) {
  *s = (state){.nb = m->nb, .nq = m->nq, .nv = m->nv};
  s->qm = calloc(4 * (size_t)m->nq + 6 * (size_t)m->nb + 18 + 1, sizeof(double)); /* all */
  s->um = s->qm + m->nq;
  s->umdot = s->um + m->nq;
  s->taum = s->umdot + m->nq;
  s->wF = s->taum + m->nq;
  s->u0 = s->wF + 6 * m->nb;
  s->u0dot = s->u0 + 6;
  s->tau0 = s->u0dot + 6;
}


/* the state advanced by h along its velocities: q += h um, r0 += h v0, R0 = R0 exp(h [w0]x) */
static void advance(const spart_model *m, const state *s, double h, state *out) {
  const double a[3] = {s->u0[0], s->u0[1], s->u0[2]};
  double th = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  double E[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  if (th > 0) {
    double c = cos(h * th), sn = sin(h * th), v = 1 - c, x = a[0] / th, y = a[1] / th,
           z = a[2] / th;
    double Rr[9] = {c + v * x * x,      v * x * y - sn * z, v * x * z + sn * y,
                    v * y * x + sn * z, c + v * y * y,      v * y * z - sn * x,
                    v * z * x - sn * y, v * z * y + sn * x, c + v * z * z};
    memcpy(E, Rr, sizeof(E));
  }
  for (int r = 0; r < 3; r++) {
    for (int c = 0; c < 3; c++) {
      out->R0[3 * r + c] =
          s->R0[3 * r] * E[c] + s->R0[3 * r + 1] * E[3 + c] + s->R0[3 * r + 2] * E[6 + c];
    }
    out->r0[r] = s->r0[r] + h * s->u0[3 + r];
  }
  for (int k = 0; k < m->nq; k++) {
    out->qm[k] = s->qm[k] + h * s->um[k];
  }
}


/* y = A x for an r x c row-major A; y = A' x when trans */
static void matvec(double *y, const double *A, const double *x, int r, int c, int trans) {
  for (int i = 0; i < (trans ? c : r); i++) {
    y[i] = 0;
  }
  for (int i = 0; i < r; i++) {
    for (int j = 0; j < c; j++) {
      if (trans) {
        y[j] += A[i * c + j] * x[i];
      } else {
        y[i] += A[i * c + j] * x[j];
      }
    }
  }
}


/* the block-diagonal mass matrix M = diag(I_i, m_i 1) at the CoMs, and Mdot = diag([w]x I_i, 0) */
static void mass_blocks(const spart_model *m, const spart_data *d, double *M, double *Md) {
  int n6 = 6 * m->nb;
  memset(M, 0, sizeof(double) * n6 * n6);
  memset(Md, 0, sizeof(double) * n6 * n6);
  static const int sym[9] = {0, 3, 4, 3, 1, 5, 4, 5, 2};
  for (int i = 0; i < m->nb; i++) {
    const double *I = d->xI + 6 * i, *w = d->t + 6 * i;
    const double W[9] = {0, -w[2], w[1], w[2], 0, -w[0], -w[1], w[0], 0};
    for (int r = 0; r < 3; r++) {
      for (int c = 0; c < 3; c++) {
        M[(6 * i + r) * n6 + 6 * i + c] = I[sym[3 * r + c]];
        double wi = 0;
        for (int k = 0; k < 3; k++) {
          wi += W[3 * r + k] * I[sym[3 * k + c]];
        }
        Md[(6 * i + r) * n6 + 6 * i + c] = wi;
      }
      M[(6 * i + 3 + r) * n6 + 6 * i + 3 + r] = m->body_mass[i];
    }
  }
}


/* A' B C with A: r x a, B: r x r, C: r x c -> a x c */
static void sandwich(double *out, const double *A, const double *B, const double *C, int r, int a,
                     int c, double *tmp) {
  for (int i = 0; i < r; i++) {
    for (int j = 0; j < c; j++) {
      double s = 0;
      for (int k = 0; k < r; k++) {
        s += B[i * r + k] * C[k * c + j];
      }
      tmp[i * c + j] = s;
    }
  }
  for (int i = 0; i < a; i++) {
    for (int j = 0; j < c; j++) {
      double s = 0;
      for (int k = 0; k < r; k++) {
        s += A[k * a + i] * tmp[k * c + j];
      }
      out[i * c + j] = s;
    }
  }
}


static void identities(const char *name, const spart_model *m) {
  int nq = m->nq, nv = 6 + nq, nb = m->nb, n6 = 6 * nb;
  spart_data *d = spart_data_new(m), *d2 = spart_data_new(m);
  state s, s2;
  state_alloc(m, &s);
  state_alloc(m, &s2);
  double *H = calloc((size_t)nv * nv, 8), *C = calloc((size_t)nv * nv, 8);
  size_t big = (size_t)n6 * nv + 36 + 6 * (size_t)nq + (size_t)n6;
  double *N = calloc(big, 8), *Np = calloc(big, 8), *Nm = calloc(big, 8);
  double *M = calloc((size_t)n6 * n6, 8), *Md = calloc((size_t)n6 * n6, 8);
  double *tmp = calloc(big, 8), *A = calloc(big, 8), *B = calloc(big, 8);
  double *u = calloc((size_t)nv, 8), *ud = calloc((size_t)nv, 8), *tau = calloc((size_t)nv, 8);
  double *x = calloc((size_t)nv + n6, 8), *y = calloc((size_t)nv + n6, 8);
  double g[3] = {0.3, -0.2, -9.81}, h = 1e-6;
  random_state(m, &s);
  memcpy(u, s.u0, 6 * sizeof(double));
  memcpy(u + 6, s.um, sizeof(double) * nq);
  memcpy(ud, s.u0dot, 6 * sizeof(double));
  memcpy(ud + 6, s.umdot, sizeof(double) * nq);

  /* ID = H udot + C u - N' (wF + m g) */
  spart_fk(m, d, &s);
  spart_velocity(m, d, &s);
  spart_crba(m, d, &s, 0, H);
  spart_cim(m, d, C);
  spart_noc(m, d, N);
  spart_rnea(m, d, &s, g, tau);
  matvec(x, H, ud, nv, nv, 0);
  matvec(y, C, u, nv, nv, 0);
  for (int k = 0; k < nv; k++) {
    x[k] += y[k];
  }
  memcpy(y, s.wF, sizeof(double) * n6);
  for (int i = 0; i < nb; i++) {
    for (int k = 0; k < 3; k++) {
      y[6 * i + 3 + k] += m->body_mass[i] * g[k];
    }
  }
  matvec(A, N, y, n6, nv, 1);
  for (int k = 0; k < nv; k++) {
    x[k] -= A[k];
  }
  expect(name, "ID = H udot + C u - N' (wF + m g)", tau, x, nv, 1e-10);

  /* H symmetric positive definite, and N' M N */
  for (int r = 0; r < nv; r++) {
    for (int c = 0; c < nv; c++) {
      B[r * nv + c] = H[c * nv + r];
    }
  }
  expect(name, "H = H'", H, B, nv * nv, 0);
  spart_crba(m, d, &s, 1, A);
  for (int r = 0; r < nq; r++) {
    memcpy(B + r * nq, H + (6 + r) * nv + 6, sizeof(double) * nq);
  }
  expect(name, "fixed-base CRBA = the joint block of H", A, B, nq * nq, 0);
  printf("%s %s: H is positive definite\n",
         spart_spd_inverse(H, nv, A, B) == 0 ? (npass++, "ok") : (nfail++, "FAIL"), name);
  mass_blocks(m, d, M, Md);
  sandwich(A, N, M, N, n6, nv, nv, tmp);
  expect(name, "H = N' M N", H, A, nv * nv, 1e-12);

  /* C = N' (M Ndot + Mdot N), Ndot by central differences along the motion */
  advance(m, &s, h, &s2);
  spart_fk(m, d2, &s2);
  spart_noc(m, d2, Np);
  advance(m, &s, -h, &s2);
  spart_fk(m, d2, &s2);
  spart_noc(m, d2, Nm);
  for (int k = 0; k < n6 * nv; k++) {
    Np[k] = (Np[k] - Nm[k]) / (2 * h);
  }
  sandwich(A, N, M, Np, n6, nv, nv, tmp);
  sandwich(B, N, Md, N, n6, nv, nv, tmp);
  for (int k = 0; k < nv * nv; k++) {
    A[k] += B[k];
  }
  expect(name, "C = N' (M Ndot + Mdot N)", C, A, nv * nv, 1e-6);

  /* twists: [t0; tL] = N u, and against central differences of poses */
  matvec(x, N, u, n6, nv, 0);
  expect(name, "t = N u", d->t, x, n6, 1e-12);
  advance(m, &s, h, &s2);
  spart_fk(m, d2, &s2);
  for (int i = 0; i < 3 * nb; i++) {
    Np[i] = d2->xpos[i] + s2.r0[i % 3]; /* spart_fk's positions are from r0 */
  }
  memcpy(Np + 3 * nb, d2->xrot, sizeof(double) * 9 * nb);
  advance(m, &s, -h, &s2);
  spart_fk(m, d2, &s2);
  for (int i = 0; i < nb; i++) {
    double v[3], w[3], Rd[9], *Rp = Np + 3 * nb + 9 * i, *Rm = d2->xrot + 9 * i;
    double *R = d->xrot + 9 * i;
    for (int k = 0; k < 3; k++) {
      v[k] = (Np[3 * i + k] - (d2->xpos[3 * i + k] + s2.r0[k])) / (2 * h);
    }
    for (int k = 0; k < 9; k++) {
      Rd[k] = (Rp[k] - Rm[k]) / (2 * h);
    }
    /* [w]x = Rdot R' */
    w[0] = Rd[6] * R[3] + Rd[7] * R[4] + Rd[8] * R[5];
    w[1] = Rd[0] * R[6] + Rd[1] * R[7] + Rd[2] * R[8];
    w[2] = Rd[3] * R[0] + Rd[4] * R[1] + Rd[5] * R[2];
    memcpy(x + 6 * i, w, sizeof(w));
    memcpy(x + 6 * i + 3, v, sizeof(v));
  }
  expect(name, "twists = d/dt of poses", d->t, x, n6, 1e-7);

  /* twist rates and Jdot against central differences of twists and Jacobians */
  {
    int last = nb - 1;
    double *J = A, *Jd = B, *Jp = Np, *Jmn = Nm;
    spart_jacobian_dot(m, d, last, NULL, Jd, Jd + 36);
    for (int sg = -1; sg <= 1; sg += 2) {
      advance(m, &s, sg * h, &s2);
      memcpy(s2.um, s.um, sizeof(double) * nq);
      memcpy(s2.u0, s.u0, 6 * sizeof(double));
      for (int k = 0; k < nq; k++) {
        s2.um[k] += sg * h * s.umdot[k];
      }
      for (int k = 0; k < 6; k++) {
        s2.u0[k] += sg * h * s.u0dot[k];
      }
      spart_fk(m, d2, &s2);
      spart_velocity(m, d2, &s2);
      spart_jacobian(m, d2, last, NULL, sg > 0 ? Jp : Jmn, (sg > 0 ? Jp : Jmn) + 36);
      memcpy((sg > 0 ? Jp : Jmn) + 36 + 6 * nq, d2->t, sizeof(double) * n6);
    }
    for (int k = 0; k < 36 + 6 * nq + n6; k++) {
      J[k] = (Jp[k] - Jmn[k]) / (2 * h);
    }
    expect(name, "Jdot = d/dt of J", Jd, J, 36 + 6 * nq, 1e-6);
    spart_acceleration(m, d, &s);
    expect(name, "tdot = d/dt of twists", d->tdot, J + 36 + 6 * nq, n6, 1e-6);
  }

  /* FD inverts ID: floating base with tau0, then a fixed base */
  spart_rnea(m, d, &s, g, tau);
  state f = s; /* the forces of ID */
  f.tau0 = tau;
  f.taum = tau + 6;
  spart_aba(m, d, &f, 0, g, x);
  expect(name, "FD(ID(udot)) = udot", x, ud, nv, 1e-9);
  state z = s; /* the base held still */
  z.u0 = z.u0dot = NULL;
  spart_velocity(m, d, &z);
  spart_rnea(m, d, &z, g, tau);
  z.tau0 = NULL;
  z.taum = tau + 6;
  spart_aba(m, d, &z, 1, g, x);
  expect(name, "FD(ID(umdot)) = umdot, fixed base", x + 6, ud + 6, nq, 1e-9);

  /* Floating_ID: tau0 = 0 and FD agrees */
  spart_velocity(m, d, &s);
  if (spart_floating_id(m, d, &s, g, tau + 6, x) == 0) {
    state b = s; /* at the base acceleration x, then under the joint forces alone */
    b.u0dot = x;
    spart_rnea(m, d, &b, g, y);
    double zero[6] = {0};
    expect(name, "Floating_ID leaves tau0 = 0", y, zero, 6, 1e-10);
    b.tau0 = NULL;
    b.taum = tau + 6;
    spart_aba(m, d, &b, 0, g, y);
    expect(name, "FD(Floating_ID) = u0dot, umdot", y, x, 6, 1e-9);
    expect(name, "FD(Floating_ID) = u0dot, umdot (joints)", y + 6, ud + 6, nq, 1e-9);
  }

  /* zero momentum: u0 = -H0 \ H0m um, then the CoM has no velocity and no acceleration */
  for (int k = 0; k < 6; k++) {
    x[k] = 0;
    for (int j = 0; j < nq; j++) {
      x[k] -= H[k * nv + 6 + j] * s.um[j];
    }
  }
  {
    double H0[36], com[3], vcom[3] = {0}, acom[3] = {0}, zero[3] = {0};
    for (int r = 0; r < 6; r++) {
      memcpy(H0 + 6 * r, H + r * nv, sizeof(double) * 6);
    }
    spart_spd_inverse(H0, 6, A, B);
    matvec(s2.u0, B, x, 6, 6, 0);
    state v = s; /* the base at s2.u0, the accelerations y */
    v.u0 = s2.u0;
    v.u0dot = y;
    v.umdot = y + 6;
    spart_velocity(m, d, &v);
    v.tau0 = v.wF = NULL;
    spart_aba(m, d, &v, 0, NULL, y);
    spart_acceleration(m, d, &v);
    for (int i = 0; i < nb; i++) {
      for (int k = 0; k < 3; k++) {
        vcom[k] += m->body_mass[i] * d->t[6 * i + 3 + k] / d->mass;
        acom[k] += m->body_mass[i] * d->tdot[6 * i + 3 + k] / d->mass;
      }
    }
    memcpy(com, d->com, sizeof(com));
    expect(name, "zero momentum: CoM velocity = 0", vcom, zero, 3, 1e-12);
    expect(name, "joint forces alone: CoM acceleration = 0", acom, zero, 3, 1e-10);
  }

  free(H), free(C), free(N), free(Np), free(Nm), free(M), free(Md), free(tmp), free(A), free(B);
  free(u), free(ud), free(tau), free(x), free(y), free(s.qm), free(s2.qm);
  spart_data_free(d);
  spart_data_free(d2);
}


/* the same robot with massless fixed links on the base and on the last link */
static void massless(const char *name, const char *path, const spart_model *m) {
  FILE *f = fopen(path, "rb");
  char *buf = malloc(1 << 22);
  size_t len = f ? fread(buf, 1, (1 << 22) - 4096, f) : 0;
  if (f) {
    fclose(f);
  }
  buf[len] = 0;
  char *end = strstr(buf, "</robot>");
  if (!end) {
    printf("FAIL %s: no </robot>\n", name);
    nfail++;
    free(buf);
    return;
  }
  snprintf(end, 4096,
           "<link name=\"spart_test_a\"/><joint name=\"spart_test_ja\" type=\"fixed\">"
           "<origin xyz=\"0.1 0.2 0.3\" rpy=\"0.3 0.2 0.1\"/><parent link=\"%s\"/>"
           "<child link=\"spart_test_a\"/></joint>"
           "<link name=\"spart_test_b\"><inertial><mass value=\"0\"/><inertia ixx=\"0\" "
           "ixy=\"0\" ixz=\"0\" iyy=\"0\" iyz=\"0\" izz=\"0\"/></inertial></link>"
           "<joint name=\"spart_test_jb\" type=\"fixed\"><parent link=\"%s\"/>"
           "<child link=\"spart_test_b\"/></joint></robot>\n",
           m->body_name[0], m->body_name[m->nb - 1]);
  spart_err err = {0};
  spart_model *m2 = spart_urdf_parse(buf, strlen(buf), &err);
  free(buf);
  if (!m2) {
    printf("FAIL %s: massless variant: %s\n", name, err.msg);
    nfail++;
    return;
  }
  int nv = 6 + m->nq;
  spart_data *d = spart_data_new(m), *d2 = spart_data_new(m2);
  state s;
  state_alloc(m, &s);
  random_state(m, &s);
  memset(s.wF, 0, sizeof(double) * 6 * m->nb);
  double *a = calloc(4 * (size_t)nv * nv, 8), *b = a + 2 * nv * nv;
  spart_fk(m, d, &s);
  spart_fk(m2, d2, &s);
  spart_velocity(m, d, &s);
  spart_velocity(m2, d2, &s);
  spart_crba(m, d, &s, 0, a);
  spart_crba(m2, d2, &s, 0, b);
  expect(name, "massless fixed links: same H", b, a, nv * nv, 1e-13);
  spart_cim(m, d, a);
  spart_cim(m2, d2, b);
  expect(name, "massless fixed links: same C", b, a, nv * nv, 1e-13);
  s.wF = NULL;
  spart_aba(m, d, &s, 0, NULL, a);
  spart_aba(m2, d2, &s, 0, NULL, b);
  expect(name, "massless fixed links: same FD", b, a, nv, 1e-12);
  expect(name, "massless fixed links: same CoM", d2->com, d->com, 3, 1e-14);
  free(a), free(s.qm);
  spart_data_free(d);
  spart_data_free(d2);
  spart_model_free(m2);
}


/* FD on fresh data (spart_aba computes its own kinematics) against H \ (tau - ID(q, u, 0)) from
   CRBA and RNEA, with every moving joint given an armature, for a floating and a fixed base */
static void fd_direct(const char *name, spart_model *m) {
  int nq = m->nq, nv = 6 + nq;
  double *arm = malloc(sizeof(double) * m->nb);
  memcpy(arm, m->jnt_armature, sizeof(double) * m->nb);
  for (int i = 1; i < m->nb; i++) {
    m->jnt_armature[i] += 0.05 * (i % 3);
  }
  spart_data *d = spart_data_new(m), *e = spart_data_new(m);
  state s;
  state_alloc(m, &s);
  random_state(m, &s);
  double g[3] = {0.5, -1, -9.81};
  double *H = malloc(sizeof(double) * (3 * nv * nv + 4 * nv)), *W = H + nv * nv, *Hi = W + nv * nv;
  double *b = Hi + nv * nv, *rhs = b + nv, *x = rhs + nv, *y = x + nv;
  for (int fixed = 0; fixed <= 1; fixed++) {
    int off = fixed ? 6 : 0, n = nv - off;
    state c = s; /* at zero accelerations, the base held with a fixed one */
    c.u0 = fixed ? NULL : s.u0;
    c.u0dot = c.umdot = NULL;
    spart_crba(m, e, &s, fixed, H);
    spart_rnea(m, e, &c, g, b);
    spart_spd_inverse(H, n, W, Hi);
    for (int k = 0; k < n; k++) {
      rhs[k] = (k + off < 6 ? s.tau0[k + off] : s.taum[k + off - 6]) - b[k + off];
    }
    matvec(x, Hi, rhs, n, n, 0);
    int rc = spart_aba(m, d, &s, fixed, g, y);
    expect(name, fixed ? "FD = H \\ (tau - ID(q, u, 0)), fixed base, armature"
                       : "FD = H \\ (tau - ID(q, u, 0)), floating base, armature",
           y + off, x, rc == 0 ? n : 0, 1e-9);
    spart_data_free(d);
    d = spart_data_new(m); /* fresh again */
  }
  memcpy(m->jnt_armature, arm, sizeof(double) * m->nb);
  free(arm), free(H), free(s.qm);
  spart_data_free(d);
  spart_data_free(e);
}


/* the joints' sin and cos (spu_sincos) against libm: within 2^-51 everywhere it reduces, the
   same at 0, -0, +-pi/2 and beyond 1e5 */
static void sincos_check(void) {
  static const double exact[] = {0,    -0.0, 1.5707963267948966, -1.5707963267948966, 1e5,
                                 -3e7, 1e300};
  double err = 0;
  int same = 1;
  for (long k = 0; k < 2000000; k++) {
    double x = urand() * (k % 3 == 0 ? 4 : k % 3 == 1 ? 100 : 99999), s, c;
    spu_sincos(x, &s, &c);
    err = fmax(err, fmax(fabs(s - sin(x)), fabs(c - cos(x))));
  }
  for (size_t k = 0; k < sizeof exact / sizeof exact[0]; k++) {
    double s, c;
    spu_sincos(exact[k], &s, &c);
    same = same && fabs(s - sin(exact[k])) <= 0x1p-53 && fabs(c - cos(exact[k])) <= 0x1p-53 &&
           signbit(s) == signbit(sin(exact[k])) && (exact[k] != 0 || (s == exact[k] && c == 1));
  }
  int ok = err <= 0x1p-51 && same;
  printf("%s spu_sincos: 2,000,000 arguments within 2^-51 of libm (worst %.3g), exact cases %s\n",
         ok ? "ok" : "FAIL", err, same ? "same" : "differ");
  ok ? npass++ : nfail++;
}


/* spu_sincos2: spu_sincos's bits in each lane, whatever the other holds (either way of
   reducing, the exact cases and libm's range among them, every quadrant and sign) */
static void sincos2_check(void) {
  static const double odd[] = {0, -0.0, 1e5, -3e7, 1e300, 1.5707963267948966, -2.5, 7.0};
  int differ = 0;
  for (long k = 0; k < 400000; k++) {
    double x[2], s[2], c[2], s1, c1;
    for (int l = 0; l < 2; l++) {
      x[l] = urand() * (k % 3 == 0 ? 4 : k % 3 == 1 ? 100 : 199999);
      if ((k + l) % 97 == 0) {
        x[l] = odd[(k / 97) % (sizeof odd / sizeof odd[0])];
      }
    }
    spu_sincos2(x, s, c);
    for (int l = 0; l < 2; l++) {
      spu_sincos(x[l], &s1, &c1);
      differ += memcmp(&s1, s + l, sizeof s1) != 0 || memcmp(&c1, c + l, sizeof c1) != 0;
    }
  }
  printf("%s spu_sincos2: 400,000 pairs, each lane spu_sincos's bits (%d differ)\n",
         differ == 0 ? "ok" : "FAIL", differ);
  differ == 0 ? npass++ : nfail++;
}


/* spart_state_new: the model's sizes, at rest at the origin, every array its own ([u0; um] and
   the others one array each); spart_state_copy: every part, a NULL of the source as zeros, a
   NULL of the destination left out */
static void state_check(const char *name, const spart_model *m) {
  spart_state *a = spart_state_new(m), *b = spart_state_new(m);
  const double eye[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  int nq = m->nq, nv = m->nv, nb = m->nb;
  if (!a || !b) {
    printf("FAIL %s: spart_state_new: out of memory\n", name);
    nfail++;
    return;
  }
  int ok = a->nb == nb && a->nq == nq && a->nv == nv && memcmp(a->R0, eye, sizeof eye) == 0;
  double *all[8] = {a->qm, a->u0, a->um, a->u0dot, a->umdot, a->tau0, a->taum, a->wF};
  const int len[8] = {nq, 6, nv, 6, nv, 6, nv, 6 * nb};
  for (int p = 0; p < 8; p++) {
    for (int k = 0; k < len[p]; k++) {
      ok = ok && all[p][k] == 0;
      all[p][k] = 100 * p + k + 1; /* each number its own: arrays that overlapped would clash */
    }
  }
  for (int p = 0; p < 8; p++) {
    for (int k = 0; k < len[p]; k++) {
      ok = ok && all[p][k] == 100 * p + k + 1;
    }
  }
  ok = ok && a->um == a->u0 + 6 && a->umdot == a->u0dot + 6 && a->taum == a->tau0 + 6;
  a->R0[1] = 0.5, a->r0[2] = -1;
  spart_state src = *a; /* a view of a without wrenches and base velocity: zeros */
  src.wF = NULL;
  src.u0 = NULL;
  b->wF[0] = b->u0[0] = 7;
  if (nv > 0) {
    b->u0dot[6] = 9; /* b's umdot, which b leaves out of the copy */
  }
  b->umdot = NULL;
  spart_state_copy(b, &src);
  ok = ok && b->R0[1] == 0.5 && b->r0[2] == -1 && b->wF[0] == 0 && b->u0[0] == 0 &&
       b->u0dot[5] == a->u0dot[5] && (nv == 0 || (b->u0dot[6] == 9 && b->taum[0] == a->taum[0])) &&
       (nq == 0 || b->qm[nq - 1] == a->qm[nq - 1]);
  printf("%s %s: spart_state_new's arrays apart, spart_state_copy\n", ok ? "ok" : "FAIL", name);
  ok ? npass++ : nfail++;
  spart_state_free(a);
  spart_state_free(b);
}


int main(int argc, char **argv) {
  sincos_check();
  sincos2_check();
  if (argc < 2) {
    fprintf(stderr, "usage: test_dynamics MODEL.urdf...\n");
    return 2;
  }
  for (int k = 1; k < argc; k++) {
    const char *name;
    spart_model *m = unit_model(argv[k], &name, &nfail);
    if (!m) {
      continue;
    }
    state_check(name, m);
    identities(name, m);
    massless(name, argv[k], m);
    fd_direct(name, m);
    spart_model_free(m);
  }
  printf("%d passed, %d failed\n", npass, nfail);
  return nfail != 0;
}
