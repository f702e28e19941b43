/* test_attitude.c -- SPART's attitude conversions (spart_attitude.c) against SPART's definitions
 * written out here from elementary rotations (the DCM is the product of the passive C1, C2, C3;
 * quat_DCM's matrix is that of the quaternion with its scalar last), and the round trips
 * angles -> DCM -> angles, q -> DCM -> q, axis-angle -> DCM -> axis-angle on random values,
 * gimbal locks included.
 *
 * usage: test_attitude   prints one line per check, then "N passed, N failed" */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"

#define PI 3.14159265358979323846

static int npass, nfail;
static unsigned long long rng = 0x9E3779B97F4A7C15ull;


static double uniform(double lo, double hi) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return lo + (hi - lo) * (double)(rng >> 11) / 9007199254740992.0;
}


static void report(const char *what, double err, double tol) {
  int ok = err <= tol;
  printf("%s %s: worst error %.3g (tolerance %.3g)\n", ok ? "ok" : "FAIL", what, err, tol);
  ok ? npass++ : nfail++;
}


static double maxdiff(const double *a, const double *b, int n) {
  double e = 0;
  for (int k = 0; k < n; k++) {
    e = fmax(e, fabs(a[k] - b[k]));
  }
  return e;
}


static void mul(double C[9], const double A[9], const double B[9]) {
  for (int r = 0; r < 3; r++) {
    for (int c = 0; c < 3; c++) {
      C[3 * r + c] = A[3 * r] * B[c] + A[3 * r + 1] * B[3 + c] + A[3 * r + 2] * B[6 + c];
    }
  }
}


/* SPART's passive elementary rotations C1, C2, C3 */
static void passive(double C[9], int axis, double a) {
  double c = cos(a), s = sin(a);
  double c1[9] = {1, 0, 0, 0, c, s, 0, -s, c}, c2[9] = {c, 0, -s, 0, 1, 0, s, 0, c},
         c3[9] = {c, s, 0, -s, c, 0, 0, 0, 1};
  const double *src = axis == 1 ? c1 : axis == 2 ? c2 : c3;
  for (int k = 0; k < 9; k++) {
    C[k] = src[k];
  }
}


int main(void) {
  double e321 = 0, e123 = 0, r321 = 0, r123 = 0, eq = 0, rq = 0, eax = 0, rax = 0, lock = 0;
  for (int t = 0; t < 100000; t++) {
    double a[3] = {uniform(-PI, PI), uniform(-PI / 2, PI / 2), uniform(-PI, PI)};
    double C1[9], C2[9], C3[9], T[9], want[9], got[9], back[3];
    passive(C1, 1, a[0]);
    passive(C2, 2, a[1]);
    passive(C3, 3, a[2]);

    /* Angles321_DCM = C1 C2 C3, Angles123_DCM = C3 C2 C1, and back */
    mul(T, C1, C2);
    mul(want, T, C3);
    spart_angles321_dcm(got, a);
    e321 = fmax(e321, maxdiff(got, want, 9));
    spart_dcm_angles321(back, got);
    r321 = fmax(r321, maxdiff(back, a, 3));
    mul(T, C3, C2);
    mul(want, T, C1);
    spart_angles123_dcm(got, a);
    e123 = fmax(e123, maxdiff(got, want, 9));
    spart_dcm_angles123(back, got);
    r123 = fmax(r123, maxdiff(back, a, 3));

    /* quat_DCM with SPART's q = [q1 q2 q3 q4] (scalar last) is ours [q4 q1 q2 q3] */
    double q[4] = {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)}, n = 0, qb[4];
    for (int k = 0; k < 4; k++) {
      n += q[k] * q[k];
    }
    for (int k = 0; k < 4; k++) {
      q[k] /= sqrt(n) * (q[0] < 0 ? -1 : 1);
    }
    double q1 = q[1], q2 = q[2], q3 = q[3], q4 = q[0];
    double spart[9] = {
        1 - 2 * (q2 * q2 + q3 * q3), 2 * (q1 * q2 + q3 * q4),     2 * (q1 * q3 - q2 * q4),
        2 * (q2 * q1 - q3 * q4),     1 - 2 * (q1 * q1 + q3 * q3), 2 * (q2 * q3 + q1 * q4),
        2 * (q3 * q1 + q2 * q4),     2 * (q3 * q2 - q1 * q4),     1 - 2 * (q1 * q1 + q2 * q2)};
    spart_quat_dcm(got, q);
    eq = fmax(eq, maxdiff(got, spart, 9));
    spart_dcm_quat(qb, got);
    rq = fmax(rq, maxdiff(qb, q, 4));

    /* Euler_DCM(e, alpha) = cos 1 + (1 - cos) e e' - sin [e]x, and back */
    double e[3] = {q[1], q[2], q[3]}, en = sqrt(q1 * q1 + q2 * q2 + q3 * q3), al = uniform(0, PI);
    double eb[3], alb, c = cos(al), s = sin(al);
    for (int k = 0; k < 3; k++) {
      e[k] /= en;
    }
    const double ex[9] = {0, -e[2], e[1], e[2], 0, -e[0], -e[1], e[0], 0};
    for (int r = 0; r < 3; r++) {
      for (int k = 0; k < 3; k++) {
        want[3 * r + k] = c * (r == k) + (1 - c) * e[r] * e[k] - s * ex[3 * r + k];
      }
    }
    spart_euler_dcm(got, e, al);
    eax = fmax(eax, maxdiff(got, want, 9));
    spart_dcm_euler(eb, &alb, got);
    if (al > 1e-6 && al < PI - 1e-6) {
      rax = fmax(rax, fmax(maxdiff(eb, e, 3), fabs(alb - al)) * sin(al));
    }

    /* gimbal lock: theta = +-pi/2 gives the DCM back with phi = 0 */
    a[1] = t % 2 ? PI / 2 : -PI / 2;
    spart_angles321_dcm(want, a);
    spart_dcm_angles321(back, want);
    spart_angles321_dcm(got, back);
    lock = fmax(lock, maxdiff(got, want, 9) + fabs(back[0]));
    spart_angles123_dcm(want, a);
    spart_dcm_angles123(back, want);
    spart_angles123_dcm(got, back);
    lock = fmax(lock, maxdiff(got, want, 9) + fabs(back[0]));
  }
  report("Angles321_DCM = C1 C2 C3", e321, 1e-15);
  report("DCM_Angles321 inverts it", r321, 1e-12);
  report("Angles123_DCM = C3 C2 C1", e123, 1e-15);
  report("the 123 angles from the DCM invert it", r123, 1e-12);
  report("quat_DCM is SPART's, scalar first", eq, 1e-15);
  report("DCM_quat inverts it (w >= 0)", rq, 2e-15);
  report("Euler_DCM is SPART's", eax, 1e-15);
  report("DCM_Euler inverts it", rax, 1e-14);
  report("gimbal lock: phi = 0, the DCM back", lock, 1e-15);

  /* spart_quat_unit: a quaternion of any norm (1e-300 to 1e300: its square under- and
     overflows) made unit along its direction; once unit its bits kept (twice is once); zero
     refused */
  double unit_err = 0, kept = 0;
  for (int t = 0; t < 100000; t++) {
    double q[4] = {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)}, n = 0;
    double s = pow(10, uniform(-300, 300)), got[4], twice[4];
    for (int k = 0; k < 4; k++) {
      n += q[k] * q[k];
      got[k] = q[k] * s;
    }
    kept += spart_quat_unit(got) != 0;
    double gn = 0;
    for (int k = 0; k < 4; k++) {
      gn += got[k] * got[k];
      unit_err = fmax(unit_err, fabs(got[k] - q[k] / sqrt(n)));
      twice[k] = got[k];
    }
    unit_err = fmax(unit_err, fabs(sqrt(gn) - 1));
    kept += spart_quat_unit(twice) != 0 || memcmp(twice, got, sizeof got) != 0;
  }
  double zero[4] = {0, 0, 0, 0}, one[4] = {1, 0, 0, 0}, half[4] = {0.5, -0.5, 0.5, 0.5};
  kept += spart_quat_unit(zero) != -1 || zero[0] != 0;
  kept += spart_quat_unit(one) != 0 || one[0] != 1 || spart_quat_unit(half) != 0 ||
          half[0] != 0.5 || half[1] != -0.5;
  report("a quaternion of any norm made unit along its direction", unit_err, 1e-15);
  report("made unit twice is once, bits kept; zero refused (count of misses)", kept, 0);
  printf("%d passed, %d failed\n", npass, nfail);
  return nfail > 0;
}
