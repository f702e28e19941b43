/* codegen_driver.c -- tests/spart-codegen.bats's driver of the code spart-codegen writes: built
 * with the generated robot.h (--prefix robot --header) and robot.c, it reads states as numbers
 * on stdin, one state a line, and writes what every generated function gives for it as one JSON
 * object a line (spart's field names), for codegencheck.py to compare with spart's commands.
 *   fixed base:    q (NQ) v (NV) a (NV) tau (NV) g (3)
 *   floating base: R0 (9) r0 (3) qm (NQ) u0 (6) um (NV) u0dot (6) umdot (NV) tau0 (6) taum (NV)
 *                  g (3) */
#include <stdio.h>

#include "robot.h"

#define NL robot_NLINKS


static int get(double *x, int n) {
  for (int k = 0; k < n; k++) {
    if (scanf("%lf", x + k) != 1) {
      return -1;
    }
  }
  return 0;
}


static void put(const char *name, const double *x, int n, const char *sep) {
  printf("\"%s\": [", name);
  for (int k = 0; k < n; k++) {
    printf(k ? ", %.17g" : "%.17g", x[k]);
  }
  printf("]%s", sep);
}


int main(void) {
  static double T[16 * NL + 1], H[robot_N * robot_N + 1], J[36 * NL + 1], Jm[6 * NL * robot_NV + 1];
  double q[robot_NQ + 1], v[robot_NV + 1], a[robot_NV + 1], tau[robot_NV + 1], g[3];
  double out[robot_NV + 1], acc[robot_NV + 1];
#if robot_FIXED_BASE
  (void)J;
  while (get(q, robot_NQ) == 0 && get(v, robot_NV) == 0 && get(a, robot_NV) == 0 &&
         get(tau, robot_NV) == 0 && get(g, 3) == 0) {
    robot_id(q, v, a, g, out);
    robot_mass(q, H);
    robot_fd(q, v, tau, g, acc);
    robot_fk(q, T);
    robot_jac(q, Jm);
    printf("{");
    put("taum", out, robot_NV, ", ");
    put("H", H, robot_N * robot_N, ", ");
    put("umdot", acc, robot_NV, ", ");
    put("T", T, 16 * NL, ", ");
    put("Jm", Jm, 6 * NL * robot_NV, "}\n");
  }
#else
  double R0[9], r0[3], u0[6], u0dot[6], tau0[6], o0[6], a0[6];
  while (get(R0, 9) == 0 && get(r0, 3) == 0 && get(q, robot_NQ) == 0 && get(u0, 6) == 0 &&
         get(v, robot_NV) == 0 && get(u0dot, 6) == 0 && get(a, robot_NV) == 0 &&
         get(tau0, 6) == 0 && get(tau, robot_NV) == 0 && get(g, 3) == 0) {
    robot_id(R0, q, u0, v, u0dot, a, g, o0, out);
    robot_mass(R0, q, H);
    robot_fd(R0, q, u0, v, tau0, tau, g, a0, acc);
    robot_fk(R0, r0, q, T);
    robot_jac(R0, r0, q, J, Jm);
    printf("{");
    put("tau0", o0, 6, ", ");
    put("taum", out, robot_NV, ", ");
    put("H", H, robot_N * robot_N, ", ");
    put("u0dot", a0, 6, ", ");
    put("umdot", acc, robot_NV, ", ");
    put("T", T, 16 * NL, ", ");
    put("J0", J, 36 * NL, ", ");
    put("Jm", Jm, 6 * NL * robot_NV, "}\n");
  }
#endif
  return 0;
}
