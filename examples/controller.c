/* controller.c -- a computed-torque controller of the KUKA iiwa on the code spart-codegen wrote
 * for it (README, spart-codegen(1)):
 *
 *   spart-codegen -m models/kuka_iiwa.urdf --fixed-base --prefix iiwa > iiwa.c
 *   spart-codegen -m models/kuka_iiwa.urdf --fixed-base --prefix iiwa --header > iiwa.h
 *   cc -std=c99 -O2 -I. -o controller examples/controller.c iiwa.c -lm
 *   ./controller > run.csv
 *
 * Every millisecond for 2 s the controller reads the arm's state, asks for the acceleration that
 * brings it back to a reference trajectory (a sine on each joint) and commands the torques that
 * give it, iiwa_id (friction included); the arm itself is simulated by iiwa_fd under those
 * torques (semi-implicit Euler steps).  Every 100th step is written as a CSV record of spart's
 * (time, qm, um, umdot the commanded acceleration, taum), which spart-id reads; the largest
 * tracking error goes to standard error. */
#include <math.h>
#include <stdio.h>

#include "iiwa.h"

#define N iiwa_NV


/* the reference of joint k at time t: its position, velocity, acceleration */
static void reference(double t, double *q, double *v, double *a) {
  for (int k = 0; k < N; k++) {
    double w = 1 + 0.25 * k, amp = 0.4 / (1 + k);
    q[k] = amp * sin(w * t);
    v[k] = amp * w * cos(w * t);
    a[k] = -amp * w * w * sin(w * t);
  }
}


int main(void) {
  const double g[3] = {0, 0, -9.81}, dt = 1e-3, kp = 400, kd = 40;
  double q[N], v[N], qr[N], vr[N], ar[N], acc[N], tau[N], a[N], worst = 0;
  reference(0, q, v, ar); /* the arm starts on the reference */
  printf("time");
  for (int k = 1; k <= N; k++) {
    printf(",qm_%d", k);
  }
  for (int k = 1; k <= N; k++) {
    printf(",um_%d", k);
  }
  for (int k = 1; k <= N; k++) {
    printf(",umdot_%d", k);
  }
  for (int k = 1; k <= N; k++) {
    printf(",taum_%d", k);
  }
  printf("\n");
  for (int step = 0; step <= 2000; step++) {
    double t = step * dt;
    /* control: the acceleration of the reference corrected by the errors, and its torques */
    reference(t, qr, vr, ar);
    for (int k = 0; k < N; k++) {
      acc[k] = ar[k] + kd * (vr[k] - v[k]) + kp * (qr[k] - q[k]);
      worst = fmax(worst, fabs(qr[k] - q[k]));
    }
    iiwa_id(q, v, acc, g, tau);
    if (step % 100 == 0) {
      printf("%.3f", t);
      for (int k = 0; k < N; k++) {
        printf(",%.17g", q[k]);
      }
      for (int k = 0; k < N; k++) {
        printf(",%.17g", v[k]);
      }
      for (int k = 0; k < N; k++) {
        printf(",%.17g", acc[k]);
      }
      for (int k = 0; k < N; k++) {
        printf(",%.17g", tau[k]);
      }
      printf("\n");
    }
    /* the arm: its acceleration under the torques, one step */
    iiwa_fd(q, v, tau, g, a);
    for (int k = 0; k < N; k++) {
      v[k] += dt * a[k];
      q[k] += dt * v[k];
    }
  }
  fprintf(stderr, "largest tracking error %.3g rad\n", worst);
  return 0;
}
