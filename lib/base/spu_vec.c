/* spu_vec.c -- 3-vectors, 3x3 matrices and rotations (spu_: utilities that take no model or
   data, as MuJoCo's mju_) */
#include <float.h>
#include <math.h>
#include <string.h>

#include "spu.h"


int spu_unit(double *v, int n) {
  double big = 0, s = 0;
  for (int k = 0; k < n; k++) {
    big = fmax(big, fabs(v[k]));
    s += v[k] * v[k];
  }
  if (!(big > 0) || !isfinite(big)) {
    return -1;
  }
  if (!(s >= DBL_MIN && s <= DBL_MAX)) { /* its square under- or overflows: scaled first */
    s = 0;
    for (int k = 0; k < n; k++) {
      v[k] /= big;
      s += v[k] * v[k];
    }
  }
  double norm = sqrt(s);
  if (fabs(norm - 1) > 4 * DBL_EPSILON) {
    for (int k = 0; k < n; k++) {
      v[k] /= norm;
    }
  }
  return 0;
}


void spu_cross(double res[restrict 3], const double a[3], const double b[3]) {
  res[0] = a[1] * b[2] - a[2] * b[1];
  res[1] = a[2] * b[0] - a[0] * b[2];
  res[2] = a[0] * b[1] - a[1] * b[0];
}


double spu_dot3(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}


void spu_mulmv3(double res[restrict 3], const double R[9], const double v[3]) {
  res[0] = R[0] * v[0] + R[1] * v[1] + R[2] * v[2];
  res[1] = R[3] * v[0] + R[4] * v[1] + R[5] * v[2];
  res[2] = R[6] * v[0] + R[7] * v[1] + R[8] * v[2];
}


void spu_mulmtv3(double res[restrict 3], const double R[9], const double v[3]) {
  res[0] = R[0] * v[0] + R[3] * v[1] + R[6] * v[2];
  res[1] = R[1] * v[0] + R[4] * v[1] + R[7] * v[2];
  res[2] = R[2] * v[0] + R[5] * v[1] + R[8] * v[2];
}


void spu_mulmm3(double res[restrict 9], const double A[9], const double B[9]) {
  for (int r = 0; r < 3; r++) {
    for (int c = 0; c < 3; c++) {
      res[3 * r + c] = A[3 * r] * B[c] + A[3 * r + 1] * B[3 + c] + A[3 * r + 2] * B[6 + c];
    }
  }
}


void spu_mulsv3(double res[restrict 3], const double I[6], const double v[3]) {
  res[0] = I[0] * v[0] + I[3] * v[1] + I[4] * v[2];
  res[1] = I[3] * v[0] + I[1] * v[1] + I[5] * v[2];
  res[2] = I[4] * v[0] + I[5] * v[1] + I[2] * v[2];
}


void spu_sym_to_mat3(double M[9], const double I[6]) {
  M[0] = I[0];
  M[1] = M[3] = I[3];
  M[2] = M[6] = I[4];
  M[4] = I[1];
  M[5] = M[7] = I[5];
  M[8] = I[2];
}


void spu_rotsym3(double res[restrict 6], const double R[9], const double I[6]) {
  /* T = R * I: 9 products for a diagonal I (principal axes, as most URDFs give), else 27 */
  double T[9];
  if (I[3] == 0 && I[4] == 0 && I[5] == 0) {
    for (int r = 0; r < 3; r++) {
      T[3 * r + 0] = R[3 * r + 0] * I[0];
      T[3 * r + 1] = R[3 * r + 1] * I[1];
      T[3 * r + 2] = R[3 * r + 2] * I[2];
    }
  } else {
    for (int r = 0; r < 3; r++) {
      const double *a = R + 3 * r;
      T[3 * r + 0] = a[0] * I[0] + a[1] * I[3] + a[2] * I[4];
      T[3 * r + 1] = a[0] * I[3] + a[1] * I[1] + a[2] * I[5];
      T[3 * r + 2] = a[0] * I[4] + a[1] * I[5] + a[2] * I[2];
    }
  }

  /* res = T * R', upper triangle */
  res[0] = T[0] * R[0] + T[1] * R[1] + T[2] * R[2];
  res[1] = T[3] * R[3] + T[4] * R[4] + T[5] * R[5];
  res[2] = T[6] * R[6] + T[7] * R[7] + T[8] * R[8];
  res[3] = T[0] * R[3] + T[1] * R[4] + T[2] * R[5];
  res[4] = T[0] * R[6] + T[1] * R[7] + T[2] * R[8];
  res[5] = T[3] * R[6] + T[4] * R[7] + T[5] * R[8];
}


/* pi/2 = P1 + P2 + P3, P1 and P2 of 33 bits so that k P1, k P2 are exact for |k| < 2^20 */
static const double P1 = 0x1.921fb544p+0, P2 = 0x1.0b4611a6p-34, P3 = 0x1.3198a2e037073p-69;
static const double TWO_OVER_PI = 0x1.45f306dc9c883p-1, ROUND = 0x1.8p52;
/* Taylor to r^15 and r^16 (the coefficients of the sine and the cosine series, spu_sincos2's;
   spu_sincos holds them in pairs): the first term left out is below 7e-17 at pi/4 */
static const double SIN[7] = {-1.0 / 6,        1.0 / 120,        -1.0 / 5040,
                              1.0 / 362880,    -1.0 / 39916800,  1.0 / 6227020800,
                              -1.0 / 1307674368000};
static const double COS[7] = {1.0 / 24,         -1.0 / 720,          1.0 / 40320,
                              -1.0 / 3628800,   1.0 / 479001600,     -1.0 / 87178291200,
                              1.0 / 20922789888000};




void spu_sincos(double x, double *s, double *c) {
  double k, r, r2, sr, cr;
  int n;
  if (!(fabs(x) < 1e5) || x == 0) {
    *s = sin(x); /* -0 stays -0 */
    *c = cos(x);
    return;
  }

  /* x = k pi/2 + r, |r| <= pi/4 (k to the nearest integer by the 1.5 2^52 rounding trick) */
  k = (x * TWO_OVER_PI + ROUND) - ROUND;
  r = ((x - k * P1) - k * P2) - k * P3;
  n = (int)k & 3;

  /* Taylor to r^15 and r^16, the two series as one pair (GCC's vector types: one SSE2
     instruction does both), a polynomial of degree 6 in r^2 by Estrin's scheme (its terms in
     pairs: a shorter chain of dependent operations than Horner's); the first term left out is
     below 7e-17 at pi/4 */
  static const v2 SC[7] = {{-1.0 / 6, 1.0 / 24},
                           {1.0 / 120, -1.0 / 720},
                           {-1.0 / 5040, 1.0 / 40320},
                           {1.0 / 362880, -1.0 / 3628800},
                           {-1.0 / 39916800, 1.0 / 479001600},
                           {1.0 / 6227020800, -1.0 / 87178291200},
                           {-1.0 / 1307674368000, 1.0 / 20922789888000}};
  r2 = r * r;
  double r4 = r2 * r2, r8 = r4 * r4;
  v2 p = (SC[0] + SC[1] * r2) + (SC[2] + SC[3] * r2) * r4 +
         ((SC[4] + SC[5] * r2) + SC[6] * r4) * r8;
  sr = r + r * r2 * p[0];
  cr = 1 - r2 * 0.5 + r2 * r2 * p[1];
  /* the quadrant n by a table rather than by branches (n is as random as x) */
  const double v[5] = {sr, cr, -sr, -cr, sr};
  *s = v[n];
  *c = v[n + 1];
}


/* two at once: the operations of spu_sincos, each lane those of its own x (GCC's vector types,
   one SSE2 instruction for both), so the same results to the bit; the quadrant's choice and
   signs by masks (a sign flipped by its bit, as - does) */
typedef long long v2i __attribute__((vector_size(16)));          /* comparisons */
typedef unsigned long long v2u __attribute__((vector_size(16))); /* bits */

void spu_sincos2(const double x[2], double s[2], double c[2]) {
  v2 xv = {x[0], x[1]}, ax;
  v2u bits, sign = {1ull << 63, 1ull << 63};
  memcpy(&bits, &xv, sizeof(bits));
  bits &= ~sign;
  memcpy(&ax, &bits, sizeof(ax));
  v2i ok = (ax < 1e5) & (xv != 0); /* -1 in a lane that spu_sincos takes this way */
  if (!(ok[0] & ok[1])) {
    spu_sincos(x[0], s, c);
    spu_sincos(x[1], s + 1, c + 1);
    return;
  }
  /* k + 1.5 2^52 holds k in its low bits (two's complement): n = k & 3 */
  v2 kr = xv * TWO_OVER_PI + ROUND, k = kr - ROUND;
  v2 r = ((xv - k * P1) - k * P2) - k * P3;
  /* Estrin's scheme, as spu_sincos: the same operations on each lane's r2 */
  v2 r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
  v2 ps = (SIN[0] + SIN[1] * r2) + (SIN[2] + SIN[3] * r2) * r4 +
          ((SIN[4] + SIN[5] * r2) + SIN[6] * r4) * r8;
  v2 pc = (COS[0] + COS[1] * r2) + (COS[2] + COS[3] * r2) * r4 +
          ((COS[4] + COS[5] * r2) + COS[6] * r4) * r8;
  v2 sr = r + r * r2 * ps;
  v2 cr = 1 - r2 * 0.5 + r2 * r2 * pc;
  v2u n, si, ci;
  memcpy(&n, &kr, sizeof(n));
  memcpy(&si, &sr, sizeof(si));
  memcpy(&ci, &cr, sizeof(ci));
  /* n = 0: sr, cr; 1: cr, -sr; 2: -sr, -cr; 3: -cr, sr */
  v2u odd = -(n & 1), ss = ((si & ~odd) | (ci & odd)) ^ ((n & 2) << 62);
  v2u cc = ((ci & ~odd) | (si & odd)) ^ (((n + 1) & 2) << 62);
  memcpy(s, &ss, sizeof(ss));
  memcpy(c, &cc, sizeof(cc));
}


void spu_axisangle(double R[9], const double a[3], double q) {
  /* Rodrigues: R = c 1 + (1 - c) a a' + s [a]x */
  double c = cos(q), s = sin(q), v = 1 - c;
  R[0] = c + v * a[0] * a[0];
  R[1] = v * a[0] * a[1] - s * a[2];
  R[2] = v * a[0] * a[2] + s * a[1];
  R[3] = v * a[1] * a[0] + s * a[2];
  R[4] = c + v * a[1] * a[1];
  R[5] = v * a[1] * a[2] - s * a[0];
  R[6] = v * a[2] * a[0] - s * a[1];
  R[7] = v * a[2] * a[1] + s * a[0];
  R[8] = c + v * a[2] * a[2];
}


void spu_rpy(double R[9], const double rpy[3]) {
  double cr = cos(rpy[0]), sr = sin(rpy[0]);
  double cp = cos(rpy[1]), sp = sin(rpy[1]);
  double cy = cos(rpy[2]), sy = sin(rpy[2]);
  R[0] = cy * cp;
  R[1] = cy * sp * sr - sy * cr;
  R[2] = cy * sp * cr + sy * sr;
  R[3] = sy * cp;
  R[4] = sy * sp * sr + cy * cr;
  R[5] = sy * sp * cr - cy * sr;
  R[6] = -sp;
  R[7] = cp * sr;
  R[8] = cp * cr;
}



void spu_expso3(double R[9], const double w[3]) {
  /* Rodrigues with 1 - cos t = 2 sin^2(t/2) and sin t / t, (1 - cos t) / t^2 by their series
     near 0: exact to rounding at every angle */
  double t2 = spu_dot3(w, w), t = sqrt(t2), a, b;
  if (t < 1e-4) {
    a = 1 - t2 / 6 * (1 - t2 / 20);
    b = 0.5 - t2 / 24 * (1 - t2 / 30);
  } else {
    double sh = sin(0.5 * t);
    a = sin(t) / t;
    b = 2 * sh * sh / t2;
  }
  R[0] = 1 - b * (w[1] * w[1] + w[2] * w[2]);
  R[4] = 1 - b * (w[0] * w[0] + w[2] * w[2]);
  R[8] = 1 - b * (w[0] * w[0] + w[1] * w[1]);
  R[1] = b * w[0] * w[1] - a * w[2];
  R[3] = b * w[0] * w[1] + a * w[2];
  R[2] = b * w[0] * w[2] + a * w[1];
  R[6] = b * w[0] * w[2] - a * w[1];
  R[5] = b * w[1] * w[2] - a * w[0];
  R[7] = b * w[1] * w[2] + a * w[0];
}


void spu_dexpinv3(double res[restrict 3], const double th[3], const double w[3]) {
  /* Jr^-1 = 1 + [th]x / 2 + c [th]x^2, c = (1 - (t/2) cot(t/2)) / t^2 = 1/12 + t^2/720 + ... */
  double t2 = spu_dot3(th, th), c, x[3], xx[3];
  if (t2 < 1e-4) {
    c = 1.0 / 12 + t2 / 720 + t2 * t2 / 30240;
  } else {
    double t = sqrt(t2);
    c = (1 - 0.5 * t * cos(0.5 * t) / sin(0.5 * t)) / t2;
  }
  spu_cross(x, th, w);
  spu_cross(xx, th, x);
  for (int k = 0; k < 3; k++) {
    res[k] = w[k] + 0.5 * x[k] + c * xx[k];
  }
}


void spu_orthonormalize3(double R[9]) {
  /* one Newton step of the polar decomposition, R <- R (3 - R'R) / 2: an error e in R'R - 1
     becomes O(e^2) */
  double E[9], RE[9];
  for (int r = 0; r < 3; r++) {
    for (int k = 0; k < 3; k++) {
      E[3 * r + k] = R[r] * R[k] + R[3 + r] * R[3 + k] + R[6 + r] * R[6 + k] - (r == k);
    }
  }
  spu_mulmm3(RE, R, E);
  for (int k = 0; k < 9; k++) {
    R[k] -= 0.5 * RE[k];
  }
}
