/* bench_lib.c -- per-call cost of libspart's algorithms, no I/O: random states, batches of 64
 * calls, the time a call of the best batch and the median batch of 2,000 (128,000 calls; a clock
 * that moves shows as the two apart).
 * Each figure includes the kinematics the algorithm needs (spart_rnea, spart_crba and spart_aba
 * compute their own), as the C++ libraries' own figures do.
 *
 * usage: bench_lib MODEL [fixed|floating [BATCHES]] (BATCHES: 2000 unless given; fewer for a
 * quick check of the output's form)
 *
 * bench_lib MODEL ik LINK [N]: inverse kinematics (spart_ik, the base held, the commands'
 * defaults): full pose targets of LINK made by forward kinematics of N (10,000 unless given)
 * random configurations within the limits (spart_random_state, seed 1), each solved from the
 * zero configuration; how many are met to 1e-10 and within the limits (the library's own
 * errors, and spart_limits_check), the median and 95th percentile time a solve. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "spart.h"
#include "spart_sim.h"

#define BATCH 64
#define NBATCH 2000 /* batches unless given */
#define NSTATE 256
#define NALG 8
#define STEP 1e-6

static unsigned long long rng = 0x9E3779B97F4A7C15ull;


static double urand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (double)(rng >> 11) / 9007199254740992.0 * 2 - 1;
}


static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}


static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}


/* bench_lib MODEL ik LINK [N] */
static int ik(spart_model *m, const char *link, int n) {
  spart_err err = {0};
  spart_data *d = spart_data_new(m);
  spart_state *s = spart_state_new(m), *g = spart_state_new(m);
  int body = spart_model_body(m, link), solved = 0, within = 0;
  spart_ik_target t = {.kind = SPART_IK_LINK, .body = body, .oriented = 1, .weight = 1};
  spart_ik_problem p = {.nt = 1, .t = &t, .fixed_base = 1, .restarts = SPART_IK_RESTARTS};
  double *times = malloc(sizeof(double) * (size_t)n);
  p.work = malloc(sizeof(double) * spart_ik_worksize(m, 1));
  if (!d || !s || !g || !times || !p.work || body < 0) {
    fprintf(stderr, "bench_lib: %s\n", body < 0 ? "no such link" : "out of memory");
    free(times), free(p.work);
    return 1;
  }
  spart_rng rq;
  spart_rng_seed(&rq, 1);
  g->um = g->umdot = g->taum = NULL;
  for (int k = 0; k < n; k++) {
    spart_random_state(m, &rq, &rq, g);
    spart_fk(m, d, g);
    spart_link_pose(m, d, body, t.R, t.position);
    memset(s->qm, 0, sizeof(double) * (size_t)m->nq);
    double t0 = now();
    int r = spart_ik(m, d, s, &p, &err);
    times[k] = now() - t0;
    solved += r == 1 && p.err[0] <= 1e-10 && p.err[1] <= 1e-10;
    within += spart_limits_check(m, s->qm, NULL, NULL, NULL, 0) == 0;
  }
  qsort(times, (size_t)n, sizeof(double), cmp);
  printf("  %d full poses of %s, from zero: %d met to 1e-10 (%.2f%%), %d within the limits; "
         "median %.1f us a solve, 95th percentile %.1f us, slowest %.1f us\n",
         n, link, solved, 100.0 * solved / n, within, 1e6 * times[n / 2],
         1e6 * times[(int)(0.95 * n)], 1e6 * times[n - 1]);
  free(times), free(p.work);
  spart_state_free(s), spart_state_free(g);
  spart_data_free(d);
  spart_model_free(m);
  return 0;
}


/* the inverse dynamics' derivatives as a user without spart_rnea_derivatives gets them: central
   differences of spart_rnea along each coordinate (R0 turned about its own axis k, qm, u0, um
   moved by +-STEP), 4 n calls; the matrices in D (2 n x n), its first entry returned.  tau: 2 n
   scratch */
static double differences(const spart_model *m, spart_data *d, spart_state *x, int fixed,
                          double *tau, double *D) {
  const int b = fixed ? 0 : 6, n = b + m->nv;
  for (int what = 0; what < 2; what++) {
    for (int k = 0; k < n; k++) {
      for (int side = 0; side < 2; side++) {
        double h = side ? -STEP : STEP, R0[9], *t = tau + side * (6 + m->nv);
        double *v = what ? (k < 6 && b ? x->u0 + k : x->um + k - b) : NULL;
        memcpy(R0, x->R0, sizeof R0);
        if (!what && k < 3 && b) { /* R0 times the turn by h about axis k */
          int i = (k + 1) % 3, j = (k + 2) % 3;
          double c = cos(h), s = sin(h);
          for (int r = 0; r < 3; r++) {
            x->R0[3 * r + i] = c * R0[3 * r + i] + s * R0[3 * r + j];
            x->R0[3 * r + j] = -s * R0[3 * r + i] + c * R0[3 * r + j];
          }
        } else if (!what && k < b) {
          v = &x->r0[k % 3];
        } else if (!what) {
          v = x->qm + k - b;
        }
        double old = v ? *v : 0;
        if (v) {
          *v += h;
        }
        spart_rnea(m, d, x, NULL, t);
        if (v) {
          *v = old;
        }
        memcpy(x->R0, R0, sizeof R0);
      }
      for (int r = 0; r < n; r++) {
        D[(what * n + r) * n + k] = (tau[6 - b + r] - tau[6 + m->nv + 6 - b + r]) / (2 * STEP);
      }
    }
  }
  return D[0];
}


int main(int argc, char **argv) {
  if (argc > 3 && strcmp(argv[2], "ik") == 0) {
    spart_err err = {0};
    spart_model *m = spart_model_load(argv[1], &err);
    if (!m) {
      fprintf(stderr, "bench_lib: %s: %s\n", argv[1], err.msg);
      return 1;
    }
    return ik(m, argv[3], argc > 4 ? atoi(argv[4]) : 10000);
  }
  int nbatch = argc > 3 ? atoi(argv[3]) : NBATCH;
  if (argc < 2 || nbatch < 1) {
    fprintf(stderr, "usage: bench_lib MODEL [fixed|floating [BATCHES]]\n");
    return 2;
  }
  spart_err err = {0};
  spart_model *m = spart_model_load(argv[1], &err);
  if (!m) {
    fprintf(stderr, "bench_lib: %s: %s\n", argv[1], err.msg);
    return 1;
  }
  int fixed = argc > 2 && strcmp(argv[2], "fixed") == 0, nq = m->nq, nv = 6 + nq;
  spart_data *d = spart_data_new(m);
  double *q = malloc(sizeof(double) * NSTATE * nq * 3), *H = malloc(sizeof(double) * nv * nv);
  double *tau = malloc(sizeof(double) * 2 * nv), *acc = malloc(sizeof(double) * nv);
  double *D = malloc(sizeof(double) * 3 * nv * nv);
  double R0[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, u0[6], u0dot[6], sink = 0;
  double *times = malloc(sizeof(double) * (size_t)nbatch);
  for (int k = 0; k < NSTATE * nq * 3; k++) {
    q[k] = urand();
  }
  for (int k = 0; k < 6; k++) {
    u0[k] = fixed ? 0 : 0.3 * urand();
    u0dot[k] = fixed ? 0 : urand();
  }

  const char *names[NALG] = {"inverse dynamics (rnea, own kinematics)",
                             "mass matrix (crba, own kinematics)",
                             "forward dynamics (aba, own kinematics)",
                             "inverse dynamics, two at once (a record)",
                             "RK4 step (4 forward dynamics + updates)",
                             "ID derivatives (dtau_dq, dtau_du)",
                             "ID derivatives by central differences",
                             "FD derivatives (dudot_dq, _du, _dtau)"};
  spart_sim *sim = spart_sim_new(m);
  if (!sim) {
    fprintf(stderr, "bench_lib: out of memory\n");
    return 1;
  }
  sim->flags = fixed ? SPART_FD_FIXED : 0;
  memcpy(sim->x->u0, u0, sizeof(u0));
  printf("%s, %s base, n_q = %d\n", argv[1], fixed ? "fixed" : "floating", nq);
  /* the states: one view, its joints' arrays pointed at each random record (um, then umdot,
     also the joint forces of forward dynamics), no wrenches; a second for the pair */
  spart_state x = {.nb = m->nb, .nq = nq, .nv = m->nv, .u0 = u0, .u0dot = u0dot}, x2 = x;
  memcpy(x.R0, R0, sizeof R0);
  memcpy(x2.R0, R0, sizeof R0);
  for (int alg = 0; alg < NALG; alg++) {
    for (int b = 0; b < nbatch; b++) {
      double t0 = now();
      for (int c = 0; c < BATCH; c++) {
        double *s = q + 3 * nq * ((b * BATCH + c) % NSTATE);
        x.qm = s, x.um = s + nq, x.umdot = x.taum = s + 2 * nq;
        if (alg == 0) {
          spart_rnea(m, d, &x, NULL, tau);
          sink += tau[6];
          continue;
        }
        if (alg == 1) {
          spart_crba(m, d, &x, fixed, H);
          sink += H[nv + 1];
          continue;
        }
        if (alg == 3) {
          /* two records in one call, the time of each (the pair's shows as two calls) */
          double *s2 = q + 3 * nq * ((b * BATCH + c + 1) % NSTATE);
          x2.qm = s2, x2.um = s2 + nq, x2.umdot = s2 + 2 * nq;
          const spart_state *two[2] = {&x, &x2};
          double *out[2] = {tau, tau + nv};
          spart_rnea_pair(m, d, 2, two, NULL, out);
          sink += tau[6] + tau[nv + 6];
          c++;
          continue;
        }
        if (alg == 5) {
          spart_rnea_derivatives(m, d, &x, fixed ? SPART_ID_FIXED : 0, NULL, D);
          sink += D[nv + 1];
          continue;
        }
        if (alg == 6) {
          sink += differences(m, d, &x, fixed, tau, D);
          continue;
        }
        if (alg == 7) {
          spart_fd_derivatives(m, d, &x, fixed ? SPART_FD_FIXED : 0, NULL, D);
          sink += D[nv + 1];
          continue;
        }
        if (alg == 4) {
          /* a step of 1 ms from a state, the simulation's own (as spart-sim takes them) */
          if (c == 0) {
            memcpy(sim->x->qm, s, (size_t)nq * sizeof(double));
            memcpy(sim->x->um, s + nq, (size_t)nq * sizeof(double));
            memcpy(sim->x->taum, s + 2 * nq, (size_t)nq * sizeof(double));
            sim->t = 0;
          }
          if (spart_sim_step(m, d, sim, sim->t + 1e-3, &err) != 0) {
            fprintf(stderr, "bench_lib: %s\n", err.msg);
            return 1;
          }
          sink += sim->x->um[0];
          continue;
        }
        spart_aba(m, d, &x, fixed, NULL, acc);
        sink += acc[6];
      }
      times[b] = (now() - t0) / BATCH;
    }
    qsort(times, (size_t)nbatch, sizeof(double), cmp);
    /* the median last: scripts/bench.sh (and BASE's older bench_lib) read it there */
    printf("  %-42s best %.3f median %.3f us/call\n", names[alg], 1e6 * times[0],
           1e6 * times[nbatch / 2]);
  }
  free(q), free(H), free(tau), free(acc), free(times), free(D);
  spart_sim_free(sim);
  spart_data_free(d);
  spart_model_free(m);
  return sink == 12345.678; /* keep the results alive */
}
