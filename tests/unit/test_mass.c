/* test_mass.c -- spart_mass.c against independent values: the mass each link carries is the sum
 * over the links whose chain to the base passes it (walked up the parent array link by link), and
 * a link's principal inertias are the roots of its inertia's characteristic polynomial (their sum
 * the trace, their product the determinant, det(I - ev 1) = 0), ascending.
 *
 * usage: test_mass MODEL...   prints one line per model, then "N passed, N failed" */
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
    printf("FAIL %s: link %d: %s (%.3g)\n", model, i, what, err);
  }
}


/* the determinant of the symmetric 3x3 I (xx yy zz xy xz yz) less s on the diagonal */
static double det_shift(const double *I, double s) {
  double a = I[0] - s, b = I[1] - s, c = I[2] - s;
  return a * (b * c - I[5] * I[5]) - I[3] * (I[3] * c - I[5] * I[4]) +
         I[4] * (I[3] * I[5] - b * I[4]);
}


static void test_model(const char *name, const spart_model *m) {
  double *mass = malloc((size_t)m->nb * sizeof *mass);
  int *inertia = malloc((size_t)m->nb * sizeof *inertia);
  if (!mass || !inertia) {
    nfail++;
    free(mass);
    free(inertia);
    return;
  }
  spart_carried(m, mass, inertia);
  for (int i = 0; i < m->nb; i++) {
    double sum = 0;
    int any = 0;
    for (int j = 0; j < m->nb; j++) {
      int a = j;
      while (a > i) {
        a = m->body_parent[a];
      }
      if (a == i) {
        const double *I = m->body_inertia + 6 * j;
        sum += m->body_mass[j];
        any |= I[0] != 0 || I[1] != 0 || I[2] != 0 || I[3] != 0 || I[4] != 0 || I[5] != 0;
      }
    }
    check(fabs(mass[i] - sum) <= 1e-12 * fmax(1, sum), "carried mass", name, i, mass[i] - sum);
    check(inertia[i] == any, "carried inertia", name, i, inertia[i] - any);

    const double *I = m->body_inertia + 6 * i;
    double ev[3], tr = I[0] + I[1] + I[2], scale = fabs(I[0]) + fabs(I[1]) + fabs(I[2]) +
                                                   fabs(I[3]) + fabs(I[4]) + fabs(I[5]);
    spart_principal_inertias(m, i, ev);
    double tol = 1e-12 * fmax(scale, 1e-300);
    check(ev[0] <= ev[1] && ev[1] <= ev[2], "ascending", name, i, ev[1] - ev[0]);
    check(fabs(ev[0] + ev[1] + ev[2] - tr) <= tol, "sum = trace", name, i,
          ev[0] + ev[1] + ev[2] - tr);
    check(fabs(ev[0] * ev[1] * ev[2] - det_shift(I, 0)) <= tol * scale * scale, "product = det",
          name, i, ev[0] * ev[1] * ev[2] - det_shift(I, 0));
    for (int k = 0; k < 3; k++) {
      check(fabs(det_shift(I, ev[k])) <= tol * scale * scale, "det(I - ev 1) = 0", name, i,
            det_shift(I, ev[k]));
    }
  }
  printf("ok %s: %d links\n", name, m->nb);
  free(mass);
  free(inertia);
}


int main(int argc, char **argv) {
  for (int f = 1; f < argc; f++) {
    spart_err err = {0};
    spart_model *m = spart_model_load(argv[f], &err);
    const char *name = strrchr(argv[f], '/') ? strrchr(argv[f], '/') + 1 : argv[f];
    if (!m) {
      printf("FAIL %s: %s\n", name, err.msg);
      nfail++;
      continue;
    }
    test_model(name, m);
    spart_model_free(m);
  }
  printf("%d passed, %d failed\n", npass, nfail);
  return nfail > 0;
}
