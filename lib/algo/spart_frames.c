/* spart_frames.c -- the URDF link frames of the bodies (the CoM frames turned back by the
 * <inertial> origin, body_rot and body_pos), their poses in the inertial frame, and points given
 * in them */
#include "spart.h"
#include "spu.h"


void spart_link_frame(const spart_model *m, const spart_data *d, int i, double R[9],
                      double p[3]) {
  /* the CoM frame (RL, rL) is the link frame (R, p) moved by T = (B, b): RL = R B,
     rL = p + R b, so R = RL B' and p = rL - R b */
  const double *B = m->body_rot + 9 * i, *RL = d->xrot + 9 * i, *rL = d->xpos + 3 * i;
  double Rb[3];
  for (int r = 0; r < 3; r++) {
    for (int c = 0; c < 3; c++) {
      R[3 * r + c] = spu_dot3(RL + 3 * r, B + 3 * c);
    }
  }
  spu_mulmv3(Rb, R, m->body_pos + 3 * i);
  for (int k = 0; k < 3; k++) {
    p[k] = rL[k] - Rb[k];
  }
}


void spart_link_point(const spart_model *m, const spart_data *d, int i, const double local[3],
                      double x[3]) {
  double R[9], p[3];
  spart_link_frame(m, d, i, R, p);
  spu_mulmv3(x, R, local);
  for (int k = 0; k < 3; k++) {
    x[k] += p[k];
  }
}


void spart_link_pose(const spart_model *m, const spart_data *d, int i, double R[9], double r[3]) {
  double p[3];
  spart_link_frame(m, d, i, R, p);
  spart_world(d, p, r);
}


void spart_link_local(const spart_model *m, const spart_data *d, int i, const double r[3],
                      double local[3]) {
  double R[9], o[3], dr[3];
  spart_link_pose(m, d, i, R, o);
  for (int k = 0; k < 3; k++) {
    dr[k] = r[k] - o[k];
  }
  spu_mulmtv3(local, R, dr);
}
