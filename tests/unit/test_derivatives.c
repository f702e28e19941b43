/* test_derivatives.c -- spart_rnea_derivatives and spart_fd_derivatives against central finite
 * differences of spart_rnea (+ spart_friction) and spart_forward_dynamics through the library,
 * at random states (spart_random_state, seeded; random u0, u0dot, tau0, external wrenches and
 * gravity), each model with a flying base and a fixed one, with the friction and without, and,
 * for a model with mimic joints, coupled (spart_mimic_couple) too.  The configuration is moved
 * on its manifold along the velocity coordinates: R0 exp(h [e_k]x), r0 + h e_k, the joints by
 * q + h qdot_of_v(q, e_a) made unit again (spart_joint_unit: a quaternion's step leaves the
 * sphere by O(h^2), the same both ways); velocities and forces by +-h e_k.
 *
 * Tolerance: each matrix's largest difference at most 1e-6 of its largest entry, or of its
 * family's (ID's two, FD's three) when that is larger (h = 1e-6: the differences' own error is
 * about h^2 times the third derivative, plus rounding of 1e-16 / h, some 1e-9 here).  Also the
 * identities, to 1e-10 of the scale: dtau_du u = 2 (ID(q, u, 0) - ID(q, 0, 0)) without
 * friction (of the forces'), dudot_dtau H = I.
 *
 * Also on TREES random trees of every joint kind (unit.h's, test_recursions' generator: branching,
 * random frames, axes, inertias, armature, helical pitches), each mode's worst over all of them.
 *
 * usage: test_derivatives TREES MODEL...   (one line per model, base and check, then per mode of
 *        the random trees; then "N passed, N failed") */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spart_sim.h"
#include "spu.h"
#include "unit.h"

#define STEP 1e-6
#define STEP_U 1e-4 /* velocities and forces: the functions are quadratic, linear in them */
#define TOL 1e-6
#define TOL_ID 1e-10
#define STATES 4

static int npass, nfail;


/* the largest |a_k| (n entries) */
static double maxabs(const double *a, int n) {
  double s = 0;
  for (int k = 0; k < n; k++) {
    s = fmax(s, fabs(a[k]));
  }
  return s;
}


/* the largest |a - b| over the largest |b| (n entries), or over s when that is larger: the
   scale of the family b belongs to (a matrix that is 0, as dtau_du of one revolute joint on a
   fixed base, is compared at the scale of its companions, not at its own rounding's) */
static double rel(const double *a, const double *b, int n, double s) {
  double e = 0;
  s = fmax(s, fmax(maxabs(b, n), 1e-300));
  for (int k = 0; k < n; k++) {
    e = fmax(e, fabs(a[k] - b[k]));
  }
  return e / s;
}


/* the function differentiated: the system's forces (fd = 0) or accelerations (fd = 1) at x */
static int eval(const spart_model *m, spart_data *d, const spart_state *x, int flags, int fd,
                const double *g, double *out) {
  const int b = (flags & SPART_FD_FIXED) ? 0 : 6, nv = m->nv;
  double *t = malloc((6 + (size_t)nv) * sizeof(double));
  int rc = 0;
  if (fd) {
    rc = spart_forward_dynamics(m, d, x, flags, g, t);
    memcpy(out, t, (size_t)b * sizeof(double));
    if (m->coupled) {
      spart_mimic_vc(m, t + 6, out + b);
    } else {
      memcpy(out + b, t + 6, (size_t)nv * sizeof(double));
    }
  } else {
    spart_state y = *x;
    if (!b) {
      y.u0 = y.u0dot = NULL;
    }
    spart_rnea(m, d, &y, g, t);
    if ((flags & SPART_FD_FRICTION) && x->um) {
      spart_friction(m, x->um, 1, t + 6);
    }
    if (m->coupled) {
      memcpy(out, t, (size_t)b * sizeof(double));
      double *tc = malloc((6 + (size_t)nv) * sizeof(double));
      spart_mimic_force(m, 0, t + 6, tc);
      memcpy(out + b, tc, (size_t)m->nvc * sizeof(double));
      free(tc);
    } else {
      memcpy(out, t + 6 - b, (size_t)(b + nv) * sizeof(double));
    }
  }
  free(t);
  return rc;
}


/* x moved by h along the system's coordinate k: what = 0 the configuration, 1 the velocity, 2
   the force */
static void move(const spart_model *m, spart_state *x, int b, int k, double h, int what) {
  const int nv = m->nv;
  double *e = calloc(6 + (size_t)nv, sizeof(double)), *ev = calloc(6 + (size_t)nv, sizeof(double));
  if (k < b) {
    e[k] = h;
  } else if (m->coupled) {
    e[6 + k - b] = 1;
    spart_mimic_v(m, e + 6, ev + 6); /* K e_k */
    for (int j = 0; j < nv; j++) {
      ev[6 + j] *= h;
    }
    memcpy(e + 6, ev + 6, (size_t)nv * sizeof(double));
  } else {
    e[6 + k - b] = h;
  }
  if (what == 1 || what == 2) {
    double *v0 = what == 1 ? x->u0 : x->tau0, *vm = what == 1 ? x->um : x->taum;
    if (what == 2 && m->coupled && k >= b) { /* the system's force: lifted, K' f = e_k */
      memset(ev, 0, (6 + (size_t)nv) * sizeof(double));
      double *fc = calloc((size_t)m->nvc + 1, sizeof(double));
      fc[k - b] = h;
      spart_mimic_lift(m, fc, ev + 6);
      memcpy(e + 6, ev + 6, (size_t)nv * sizeof(double));
      free(fc);
    }
    for (int j = 0; j < 6; j++) {
      v0[j] += e[j];
    }
    for (int j = 0; j < nv; j++) {
      vm[j] += e[6 + j];
    }
  } else {
    double R[9], Rn[9], *qd = calloc((size_t)m->nq + 1, sizeof(double));
    spu_expso3(R, e);
    spu_mulmm3(Rn, x->R0, R);
    memcpy(x->R0, Rn, sizeof Rn);
    for (int j = 0; j < 3; j++) {
      x->r0[j] += e[3 + j];
    }
    spart_qdot_of_v(m, x->qm, e + 6, qd);
    for (int j = 0; j < m->nq; j++) {
      x->qm[j] += qd[j];
    }
    spart_err err;
    spart_joint_unit(m, x->qm, &err);
    free(qd);
  }
  free(e);
  free(ev);
}


/* the central differences of eval along each coordinate (what as move's) into D (n x n) */
static void differences(const spart_model *m, spart_data *d, const spart_state *x, int flags,
                        int fd, const double *g, int what, double *D) {
  const int b = (flags & SPART_FD_FIXED) ? 0 : 6, n = b + m->nvc;
  spart_state *y = spart_state_new(m);
  double *fp = malloc((size_t)n * sizeof(double)), *fm = malloc((size_t)n * sizeof(double));
  for (int k = 0; k < n; k++) {
    spart_state_copy(y, x);
    move(m, y, b, k, what ? STEP_U : STEP, what);
    eval(m, d, y, flags, fd, g, fp);
    spart_state_copy(y, x);
    move(m, y, b, k, what ? -STEP_U : -STEP, what);
    eval(m, d, y, flags, fd, g, fm);
    for (int r = 0; r < n; r++) {
      D[r * n + k] = (fp[r] - fm[r]) / (2 * (what ? STEP_U : STEP));
    }
  }
  free(fp);
  free(fm);
  spart_state_free(y);
}


/* one line a check of a model (or of the random trees) in one mode: its worst, w (7) */
static void report(const char *name, int coupled, int flags, const double w[7]) {
  static const char *what[7] = {"dtau_dq", "dtau_du", "dudot_dq", "dudot_du", "dudot_dtau",
                                "dudot_dtau H = I", "dtau_du u = 2 (ID(u) - ID(0))"};
  char full[200];
  snprintf(full, sizeof full, "%s%s%s%s", name, coupled ? " coupled" : "",
           flags & SPART_FD_FIXED ? " fixed" : " flying",
           flags & SPART_FD_FRICTION ? " friction" : "");
  for (int c = 0; c < 7; c++) {
    int ok = w[c] <= (c >= 5 ? TOL_ID : TOL);
    printf("%s %s: %s (worst %.3g)\n", ok ? "ok" : "FAIL", full, what[c], w[c]);
    ok ? npass++ : nfail++;
  }
}


/* the four modes (flying or fixed, friction or none) of a model, flags of mode f */
static int mode(int f) {
  return (f & 1 ? SPART_FD_FIXED : 0) | (f & 2 ? SPART_FD_FRICTION : 0);
}


/* every check of one model in one mode, the worst of each into w (7) */
static void check(const spart_model *m, int flags, uint64_t seed, double w[7]) {
  const int b = (flags & SPART_FD_FIXED) ? 0 : 6, n = b + m->nvc;
  const size_t nn = (size_t)n * n;
  spart_data *d = spart_data_new(m);
  spart_state *x = spart_state_new(m), *y = spart_state_new(m);
  double *A = malloc(3 * nn * sizeof(double)), *D = malloc(3 * nn * sizeof(double));
  double *H = malloc((6 + (size_t)m->nv) * (6 + (size_t)m->nv) * sizeof(double));
  double *t1 = calloc((size_t)n, sizeof(double)), *t2 = calloc((size_t)n, sizeof(double));
  spart_rng rq, rv;
  spart_rng_seed(&rq, seed);
  spart_rng_seed(&rv, seed + 1);
  for (int st = 0; st < STATES; st++) {
    double g[3] = {unit_urand(&rv, -3, 3), unit_urand(&rv, -3, 3), -9.81};
    double R[9], ax[3] = {unit_urand(&rv, -2, 2), unit_urand(&rv, -2, 2), unit_urand(&rv, -2, 2)};
    spart_random_state(m, &rq, &rv, x);
    spu_expso3(R, ax);
    memcpy(x->R0, R, sizeof R);
    for (int k = 0; k < 3; k++) {
      x->r0[k] = unit_urand(&rv, -1, 1);
    }
    for (int k = 0; k < 6; k++) {
      x->u0[k] = b ? unit_urand(&rv, -1, 1) : 0;
      x->u0dot[k] = b ? unit_urand(&rv, -1, 1) : 0;
      x->tau0[k] = unit_urand(&rv, -1, 1);
    }
    if (m->coupled) { /* the followers on their leaders */
      double *c = malloc(((size_t)m->nq + (size_t)m->nv + 1) * sizeof(double));
      spart_mimic_qc(m, x->qm, c);
      spart_mimic_q(m, c, x->qm);
      spart_mimic_vc(m, x->um, c);
      spart_mimic_v(m, c, x->um);
      spart_mimic_vc(m, x->umdot, c);
      spart_mimic_v(m, c, x->umdot);
      free(c);
    }
    x->wF = st % 2 ? malloc(6 * (size_t)m->nb * sizeof(double)) : NULL;
    for (int k = 0; x->wF && k < 6 * m->nb; k++) {
      x->wF[k] = unit_urand(&rv, -1, 1);
    }

    /* the inverse dynamics' */
    spart_rnea_derivatives(m, d, x, flags, g, A);
    differences(m, d, x, flags, 0, g, 0, D);
    differences(m, d, x, flags, 0, g, 1, D + nn);
    double sc = maxabs(D, 2 * (int)nn); /* the family's scale: dtau_dq's and dtau_du's */
    w[0] = fmax(w[0], rel(A, D, (int)nn, sc));
    w[1] = fmax(w[1], rel(A + nn, D + nn, (int)nn, sc));

    /* the forward dynamics' */
    if (spart_fd_derivatives(m, d, x, flags, g, A) == 0) {
      for (int what = 0; what < 3; what++) {
        differences(m, d, x, flags, 1, g, what, D + what * nn);
      }
      sc = maxabs(D, 3 * (int)nn);
      for (int what = 0; what < 3; what++) {
        w[2 + what] = fmax(w[2 + what], rel(A + what * nn, D + what * nn, (int)nn, sc));
      }
      /* dudot_dtau H = I */
      spart_crba(m, d, x, !b, H);
      if (m->coupled) {
        double *Hc = malloc(nn * sizeof(double));
        spart_mimic_matrix(m, b, H, Hc);
        memcpy(H, Hc, nn * sizeof(double));
        free(Hc);
      }
      double e = 0;
      for (int r = 0; r < n; r++) {
        for (int c = 0; c < n; c++) {
          double s = 0;
          for (int k = 0; k < n; k++) {
            s += A[2 * nn + (size_t)r * n + k] * H[k * n + c];
          }
          e = fmax(e, fabs(s - (r == c)));
        }
      }
      w[5] = fmax(w[5], e);
    } else {
      w[2] = w[3] = w[4] = w[5] = INFINITY;
    }

    /* dtau_du u = 2 (ID(q, u, 0) - ID(q, 0, 0)), without friction */
    spart_state_copy(y, x);
    memset(y->u0dot, 0, 6 * sizeof(double));
    memset(y->umdot, 0, (size_t)m->nv * sizeof(double));
    spart_rnea_derivatives(m, d, y, flags & SPART_ID_FIXED, g, A);
    eval(m, d, y, flags & SPART_ID_FIXED, 0, g, t1);
    memset(y->u0, 0, 6 * sizeof(double));
    memset(y->um, 0, (size_t)m->nv * sizeof(double));
    eval(m, d, y, flags & SPART_ID_FIXED, 0, g, t2);
    double *u = calloc((size_t)n, sizeof(double)), *Au = calloc((size_t)n, sizeof(double));
    memcpy(u, x->u0, (size_t)b * sizeof(double));
    if (m->coupled) {
      spart_mimic_vc(m, x->um, u + b);
    } else {
      memcpy(u + b, x->um, (size_t)m->nv * sizeof(double));
    }
    sc = fmax(maxabs(t1, n), maxabs(t2, n)); /* the forces' scale */
    for (int r = 0; r < n; r++) {
      for (int k = 0; k < n; k++) {
        Au[r] += A[nn + (size_t)r * n + k] * u[k];
      }
      t1[r] = 2 * (t1[r] - t2[r]);
    }
    w[6] = fmax(w[6], rel(Au, t1, n, sc));
    free(u);
    free(Au);
    free(x->wF);
    x->wF = NULL;
  }
  free(A);
  free(D);
  free(H);
  free(t1);
  free(t2);
  spart_state_free(x);
  spart_state_free(y);
  spart_data_free(d);
}


int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_derivatives TREES MODEL...\n");
    return 2;
  }
  int trees = atoi(argv[1]);
  for (int k = 2; k < argc; k++) {
    const char *name;
    spart_model *m = unit_model(argv[k], &name, &nfail);
    if (!m) {
      continue;
    }
    spart_err err = {0};
    int mimic = 0;
    for (int i = 1; i < m->nb; i++) {
      mimic |= m->jnt_mimic[i] != NULL;
    }
    for (int pass = 0; pass < 1 + mimic; pass++) {
      if (pass == 1 && spart_mimic_couple(m, &err) != 0) {
        printf("FAIL %s: %s\n", name, err.msg);
        nfail++;
        break;
      }
      for (int f = 0; f < 4; f++) {
        double w[7] = {0};
        check(m, mode(f), 100 * (uint64_t)(k - 1) + (uint64_t)f, w);
        report(name, m->coupled, mode(f), w);
      }
    }
    spart_model_free(m);
  }
  /* test_recursions' random trees: every joint kind, branching, random frames, inertias and
     armature; each mode's worst over all of them */
  spart_rng r;
  double w[4][7] = {{0}};
  int bodies = 0, kinds[16] = {0};
  spart_rng_seed(&r, 42);
  for (int k = 0; k < trees; k++) {
    spart_model *m = unit_random_tree(&r, 2 + (int)(spart_rng_uniform(&r) * 9));
    bodies += m->nb;
    unit_count_kinds(m, kinds);
    for (int f = 0; f < 4; f++) {
      check(m, mode(f), 7000 + 10 * (uint64_t)k + (uint64_t)f, w[f]);
    }
    spart_model_free(m);
  }
  for (int f = 0; f < 4 && trees > 0; f++) {
    char name[64];
    snprintf(name, sizeof name, "%d random trees (%d bodies)", trees, bodies);
    report(name, 0, mode(f), w[f]);
  }
  if (trees > 0) {
    unit_report_kinds(kinds, &npass, &nfail);
  }
  printf("%d passed, %d failed\n", npass, nfail);
  return nfail != 0;
}
