/* spart_attitude.c -- attitude conversions (SPART's Angles321_DCM, Angles123_DCM, DCM_Angles321,
 * quat_DCM, DCM_quat, Euler_DCM, DCM_Euler) and the rotation matrix's quaternion and
 * roll-pitch-yaw; whether a matrix is a rotation (spart_is_rotation: the model's and the shapes'
 * frames) */
#include <math.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"

/* below this, cos(pitch) is taken for 0 (gimbal lock): roll is set to 0 */
#define LOCK_TOL 1e-12


static void transpose3(double T[9], const double A[9]) {
  for (int r = 0; r < 3; r++) {
    for (int c = 0; c < 3; c++) {
      T[3 * c + r] = A[3 * r + c];
    }
  }
}


/* R = Rx(a0) Ry(a1) Rz(a2) */
static void rot_xyz(double R[9], const double a[3]) {
  double ca = cos(a[0]), sa = sin(a[0]), cb = cos(a[1]), sb = sin(a[1]);
  double cc = cos(a[2]), sc = sin(a[2]);
  R[0] = cb * cc;
  R[1] = -cb * sc;
  R[2] = sb;
  R[3] = sa * sb * cc + ca * sc;
  R[4] = -sa * sb * sc + ca * cc;
  R[5] = -sa * cb;
  R[6] = -ca * sb * cc + sa * sc;
  R[7] = ca * sb * sc + sa * cc;
  R[8] = ca * cb;
}


void spart_angles321_dcm(double DCM[9], const double angles[3]) {
  double R[9];
  spu_rpy(R, angles);
  transpose3(DCM, R);
}


void spart_angles123_dcm(double DCM[9], const double angles[3]) {
  double R[9];
  rot_xyz(R, angles);
  transpose3(DCM, R);
}


void spart_rot_rpy(double rpy[3], const double R[9]) {
  /* R = Rz(y) Ry(p) Rx(r): R31 = -sin p, R11, R21 = cos p (cos y, sin y), R32, R33 = cos p
     (sin r, cos r) */
  double c = hypot(R[0], R[3]);
  rpy[1] = atan2(-R[6], c) + 0.0; /* + 0.0: no -0 */
  if (c > LOCK_TOL) {
    rpy[0] = atan2(R[7], R[8]) + 0.0;
    rpy[2] = atan2(R[3], R[0]) + 0.0;
  } else { /* only r - y (p = pi/2) or r + y (p = -pi/2) is defined: r = 0 */
    rpy[0] = 0;
    rpy[2] = atan2(-R[1], R[4]) + 0.0;
  }
}


void spart_dcm_angles321(double angles[3], const double DCM[9]) {
  double R[9];
  transpose3(R, DCM);
  spart_rot_rpy(angles, R);
}


void spart_dcm_angles123(double angles[3], const double DCM[9]) {
  /* R = Rx(a) Ry(b) Rz(c): R13 = sin b, R11, R12 = cos b (cos c, -sin c), R23, R33 = cos b
     (-sin a, cos a) */
  double R[9];
  transpose3(R, DCM);
  double c = hypot(R[0], R[1]);
  angles[1] = atan2(R[2], c);
  if (c > LOCK_TOL) {
    angles[0] = atan2(-R[5], R[8]);
    angles[2] = atan2(-R[1], R[0]);
  } else {
    angles[0] = 0;
    angles[2] = atan2(R[3], R[4]);
  }
}


/* the rotation of a unit quaternion q = [w, x, y, z]: (w^2 - v.v) 1 + 2 v v' + 2 w [v]x */
void spart_quat_rot(double R[9], const double q[4]) {
  double w = q[0], x = q[1], y = q[2], z = q[3];
  R[0] = 1 - 2 * (y * y + z * z);
  R[1] = 2 * (x * y - w * z);
  R[2] = 2 * (x * z + w * y);
  R[3] = 2 * (x * y + w * z);
  R[4] = 1 - 2 * (x * x + z * z);
  R[5] = 2 * (y * z - w * x);
  R[6] = 2 * (x * z - w * y);
  R[7] = 2 * (y * z + w * x);
  R[8] = 1 - 2 * (x * x + y * y);
}


int spart_quat_unit(double q[4]) {
  return spu_unit(q, 4);
}


void spart_quat_dcm(double DCM[9], const double q[4]) {
  double R[9];
  spart_quat_rot(R, q);
  transpose3(DCM, R);
}


void spart_rot_quat(double q[4], const double R[9]) {
  /* Shepperd: from the largest of 4w^2, 4x^2, 4y^2, 4z^2 (trace and diagonal), the others by
     the off-diagonal sums and differences */
  double t = R[0] + R[4] + R[8], s;
  if (t >= R[0] && t >= R[4] && t >= R[8]) {
    s = 2 * sqrt(1 + t);
    q[0] = s / 4;
    q[1] = (R[7] - R[5]) / s;
    q[2] = (R[2] - R[6]) / s;
    q[3] = (R[3] - R[1]) / s;
  } else if (R[0] >= R[4] && R[0] >= R[8]) {
    s = 2 * sqrt(1 + R[0] - R[4] - R[8]);
    q[0] = (R[7] - R[5]) / s;
    q[1] = s / 4;
    q[2] = (R[1] + R[3]) / s;
    q[3] = (R[2] + R[6]) / s;
  } else if (R[4] >= R[8]) {
    s = 2 * sqrt(1 - R[0] + R[4] - R[8]);
    q[0] = (R[2] - R[6]) / s;
    q[1] = (R[1] + R[3]) / s;
    q[2] = s / 4;
    q[3] = (R[5] + R[7]) / s;
  } else {
    s = 2 * sqrt(1 - R[0] - R[4] + R[8]);
    q[0] = (R[3] - R[1]) / s;
    q[1] = (R[2] + R[6]) / s;
    q[2] = (R[5] + R[7]) / s;
    q[3] = s / 4;
  }
  /* one of q and -q: w >= 0, then a unit quaternion */
  double sign = q[0] < 0 ? -1 : 1,
         norm = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (int k = 0; k < 4; k++) {
    q[k] *= sign / norm;
  }
}


void spart_dcm_quat(double q[4], const double DCM[9]) {
  double R[9];
  transpose3(R, DCM);
  spart_rot_quat(q, R);
}


void spart_euler_dcm(double DCM[9], const double e[3], double alpha) {
  double R[9];
  spu_axisangle(R, e, alpha);
  transpose3(DCM, R);
}


void spart_dcm_euler(double e[3], double *alpha, const double DCM[9]) {
  double q[4];
  spart_dcm_quat(q, DCM);
  double s = sqrt(q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  *alpha = 2 * atan2(s, q[0]);
  for (int k = 0; k < 3; k++) {
    e[k] = s > 0 ? q[1 + k] / s : k == 0;
  }
}


/* rotations must be orthonormal to this tolerance */
#define ROT_TOL 1e-6


int spart_is_rotation(const double R[9]) {
  double c[3];
  for (int r = 0; r < 3; r++) {
    for (int s = 0; s < 3; s++) {
      if (fabs(spu_dot3(R + 3 * r, R + 3 * s) - (r == s)) > ROT_TOL) {
        return 0;
      }
    }
  }
  spu_cross(c, R + 3, R + 6);
  return spu_dot3(R, c) > 0;
}
