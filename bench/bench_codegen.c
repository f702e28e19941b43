/* bench_codegen.c -- per-call cost of the code spart-codegen writes for a model (built with its
 * robot.h and robot.c, --prefix robot) beside libspart's on the same model, no I/O: the states,
 * batches and medians of bench_lib.c (random states, batches of 64 calls, 2,000 batches of
 * each, the generated code's and libspart's taking turns batch by batch so that both see the
 * same load), gravity given to both; for each of inverse dynamics, the mass matrix and forward
 * dynamics (libspart: spart_rnea, spart_crba, spart_aba), the median and the best batch's time
 * a call.
 *
 * usage: bench_codegen MODEL (the model robot.c was generated from) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "robot.h"
#include "spart.h"

#define BATCH 64
#define NBATCH 2000
#define NSTATE 256
#define NQ (robot_NQ > 0 ? robot_NQ : 1)
#define NV (robot_NV > 0 ? robot_NV : 1)

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


/* the median and best of n batch times (sorted in place), in us */
static void stats(double *t, int n, double *median, double *best) {
  qsort(t, (size_t)n, sizeof(double), cmp);
  *median = 1e6 * t[n / 2];
  *best = 1e6 * t[0];
}


int main(int argc, char **argv) {
  static double q[NSTATE][3 * NQ], H[robot_N * robot_N + 1], times[NBATCH], ltimes[NBATCH];
  static double LH[(6 + NV) * (6 + NV)];
  double out[6 + NV], g[3] = {0, 0, -9.81}, sink = 0, acc[6 + NV], tau[6 + NV];
  double R0[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, u0[6] = {0}, u0dot[6] = {0};
  spart_err err = {0};
  spart_model *m = argc > 1 ? spart_model_load(argv[1], &err) : NULL;
  spart_data *d = m ? spart_data_new(m) : NULL;
  if (!d || m->nq != robot_NQ || m->nv != robot_NV) {
    fprintf(stderr, "usage: bench_codegen MODEL (robot.c's)%s%s\n", m ? "" : ": ", err.msg);
    return 2;
  }
  int fixed = robot_FIXED_BASE;
#if !robot_FIXED_BASE
  double o0[6];
  for (int k = 0; k < 6; k++) {
    u0[k] = 0.3 * urand();
    u0dot[k] = urand();
  }
#endif
  for (int s = 0; s < NSTATE; s++) {
    for (int k = 0; k < 3 * NQ; k++) {
      q[s][k] = urand();
    }
  }
  const char *names[3] = {"inverse dynamics", "mass matrix", "forward dynamics"};
  /* libspart's state: a view, its joints' arrays pointed at each random record (um, then umdot,
     also the joint forces of forward dynamics) */
  spart_state x = {.nb = m->nb, .nq = NQ, .nv = NV, .u0 = u0, .u0dot = u0dot};
  memcpy(x.R0, R0, sizeof R0);
  for (int alg = 0; alg < 3; alg++) {
    for (int b = 0; b < NBATCH; b++) {
      double t0 = now();
      for (int c = 0; c < BATCH; c++) {
        double *s = q[(b * BATCH + c) % NSTATE];
        x.qm = s, x.um = s + NQ, x.umdot = x.taum = s + 2 * NQ;
        if (alg == 0) {
          spart_rnea(m, d, &x, g, tau);
          sink += tau[6];
        } else if (alg == 1) {
          spart_crba(m, d, &x, fixed, LH);
          sink += LH[1];
        } else {
          spart_aba(m, d, &x, fixed, g, acc);
          sink += acc[6];
        }
      }
      ltimes[b] = (now() - t0) / BATCH;
      t0 = now();
      for (int c = 0; c < BATCH; c++) {
        const double *s = q[(b * BATCH + c) % NSTATE];
#if robot_FIXED_BASE
        if (alg == 0) {
          robot_id(s, s + NQ, s + 2 * NQ, g, out);
        } else if (alg == 1) {
          robot_mass(s, H);
        } else {
          robot_fd(s, s + NQ, s + 2 * NQ, g, out);
        }
#else
        if (alg == 0) {
          robot_id(R0, s, u0, s + NQ, u0dot, s + 2 * NQ, g, o0, out);
        } else if (alg == 1) {
          robot_mass(R0, s, H);
        } else {
          robot_fd(R0, s, u0, s + NQ, u0dot, s + 2 * NQ, g, o0, out);
        }
#endif
        sink += out[0] + H[1];
      }
      times[b] = (now() - t0) / BATCH;
    }
    double gm, gb, lm, lb;
    stats(times, NBATCH, &gm, &gb);
    stats(ltimes, NBATCH, &lm, &lb);
    printf("  %-17s generated median %.3f us (best batch %.3f), libspart median %.3f us (best "
           "batch %.3f): %.2fx, best %.2fx\n",
           names[alg], gm, gb, lm, lb, lm / gm, lb / gb);
  }
  spart_data_free(d);
  spart_model_free(m);
  return sink == 12345.678; /* keep the results alive */
}
