/* spu_linalg.c -- small dense linear algebra: the pivot test, Cholesky, Gaussian elimination,
   symmetric 3x3 eigenvalues
   (spu_: utilities that take no model or data, as MuJoCo's mju_) */
#include <math.h>

#include "spu.h"


int spu_pivot_ok(double pivot, double scale) {
  return scale > 0 && pivot > SPU_PIVOT_TOL * scale; /* NaN fails */
}


int spu_lusolve(double *A, double *b, int n, int nrhs) {
  for (int c = 0; c < n; c++) {
    int p = c;
    for (int r = c + 1; r < n; r++) {
      p = fabs(A[r * n + c]) > fabs(A[p * n + c]) ? r : p;
    }
    double piv = A[p * n + c];
    if (!(fabs(piv) > 0) || !isfinite(piv)) {
      return -1;
    }
    for (int k = c; k < n && p != c; k++) {
      double t = A[c * n + k];
      A[c * n + k] = A[p * n + k];
      A[p * n + k] = t;
    }
    for (int j = 0; j < nrhs && p != c; j++) {
      double t = b[c * nrhs + j];
      b[c * nrhs + j] = b[p * nrhs + j];
      b[p * nrhs + j] = t;
    }
    for (int r = c + 1; r < n; r++) {
      double f = A[r * n + c] / piv;
      if (f != 0) {
        for (int k = c + 1; k < n; k++) {
          A[r * n + k] -= f * A[c * n + k];
        }
        for (int j = 0; j < nrhs; j++) {
          b[r * nrhs + j] -= f * b[c * nrhs + j];
        }
      }
    }
  }
  for (int r = n - 1; r >= 0; r--) {
    for (int j = 0; j < nrhs; j++) {
      double sum = b[r * nrhs + j];
      for (int k = r + 1; k < n; k++) {
        sum -= A[r * n + k] * b[k * nrhs + j];
      }
      b[r * nrhs + j] = sum / A[r * n + r];
    }
  }
  return 0;
}


int spu_cholsolve(double *A, double *b, int n, int nrhs, const double *scale) {
  /* factor A = L L' in the lower triangle */
  for (int j = 0; j < n; j++) {
    double s = A[j * n + j];
    for (int k = 0; k < j; k++) {
      s -= A[j * n + k] * A[j * n + k];
    }
    if (!spu_pivot_ok(s, scale ? scale[j] : A[j * n + j])) {
      return 1 + j;
    }
    A[j * n + j] = sqrt(s);
    for (int i = j + 1; i < n; i++) {
      double t = A[i * n + j];
      for (int k = 0; k < j; k++) {
        t -= A[i * n + k] * A[j * n + k];
      }
      A[i * n + j] = t / A[j * n + j];
    }
  }

  /* forward and back substitution, one right-hand side (a column of b) at a time */
  for (int r = 0; r < nrhs; r++) {
    for (int i = 0; i < n; i++) {
      double t = b[i * nrhs + r];
      for (int k = 0; k < i; k++) {
        t -= A[i * n + k] * b[k * nrhs + r];
      }
      b[i * nrhs + r] = t / A[i * n + i];
    }
    for (int i = n - 1; i >= 0; i--) {
      double t = b[i * nrhs + r];
      for (int k = i + 1; k < n; k++) {
        t -= A[k * n + i] * b[k * nrhs + r];
      }
      b[i * nrhs + r] = t / A[i * n + i];
    }
  }
  return 0;
}


/* cyclic Jacobi rotations */
void spu_eigsym3(double ev[3], const double I[6]) {
  double A[3][3] = {{I[0], I[3], I[4]}, {I[3], I[1], I[5]}, {I[4], I[5], I[2]}};
  static const int pq[3][2] = {{0, 1}, {0, 2}, {1, 2}};

  /* each rotation zeroes A[p][q]; a few sweeps reach machine precision */
  for (int sweep = 0; sweep < 50; sweep++) {
    double off = fabs(A[0][1]) + fabs(A[0][2]) + fabs(A[1][2]);
    double diag = fabs(A[0][0]) + fabs(A[1][1]) + fabs(A[2][2]);
    if (off <= 1e-300 || off <= 1e-17 * diag) {
      break;
    }
    for (int k = 0; k < 3; k++) {
      int p = pq[k][0], q = pq[k][1], r = 3 - p - q;
      double apq = A[p][q], theta, t, c, sn, arp, arq;
      if (apq == 0) {
        continue;
      }
      theta = (A[q][q] - A[p][p]) / (2 * apq);
      t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
      c = 1 / sqrt(t * t + 1);
      sn = t * c;
      A[p][p] -= t * apq;
      A[q][q] += t * apq;
      A[p][q] = A[q][p] = 0;
      arp = A[r][p];
      arq = A[r][q];
      A[r][p] = A[p][r] = c * arp - sn * arq;
      A[r][q] = A[q][r] = sn * arp + c * arq;
    }
  }

  /* sort */
  for (int k = 0; k < 3; k++) {
    ev[k] = A[k][k];
  }
  for (int k = 0; k < 2; k++) {
    for (int l = k + 1; l < 3; l++) {
      if (ev[l] < ev[k]) {
        double t = ev[k];
        ev[k] = ev[l];
        ev[l] = t;
      }
    }
  }
}

