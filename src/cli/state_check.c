/* state_check.c -- what a state record must be, checked after it is read whatever its format:
 * R0 a rotation, q0 a unit quaternion (to R0), qmdot the rates of the joints' coordinates (to
 * um).  No I/O. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "reader.h"

/* R0 must be a rotation: R0 R0' = 1 to 1e-5 (6 decimals give 2e-6), and det R0 = +1 */
int cli_check_rotation(const double R[9], long long line, spart_err *err) {
  double worst = 0;
  for (int a = 0; a < 3; a++) {
    for (int b = 0; b < 3; b++) {
      double dot = R[3 * a] * R[3 * b] + R[3 * a + 1] * R[3 * b + 1] + R[3 * a + 2] * R[3 * b + 2];
      worst = fmax(worst, fabs(dot - (a == b)));
    }
  }
  double det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) +
               R[2] * (R[3] * R[7] - R[4] * R[6]);
  if (worst > 1e-5) {
    return cli_errf(err, SPART_EDATA, line, "R0 is not a rotation: R0 R0' differs from 1 by %.3g",
                    worst);
  }
  if (det < 0) {
    return cli_errf(err, SPART_EDATA, line, "R0 is a reflection (determinant -1), not a rotation");
  }
  return 0;
}


/* q0, the base attitude as a unit quaternion [w x y z] (within 1e-6, then normalised; any: of
   any norm but 0, made unit in q0 itself, spart_quat_unit), to R0; R0 given as well is an error */
int cli_check_q0(cli_state *st, int any, spart_err *err) {
  double *q = st->q0, n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (st->has & 1u << CLI_F_R0) {
    return cli_errf(err, SPART_EDATA, st->line, "R0 and q0 are both given: give one");
  }
  if (any) {
    if (spart_quat_unit(q) != 0) {
      return cli_errf(err, SPART_EDATA, st->line,
                      "q0: quaternion of norm 0: no direction to normalise to");
    }
    spart_quat_rot(st->x.R0, q);
    return 0;
  }
  if (!(fabs(n - 1) <= 1e-6)) {
    return cli_errf(err, SPART_EDATA, st->line,
                    "q0: norm %.17g, expected a unit quaternion [w, x, y, z] (within 1e-6)", n);
  }
  double unit[4] = {q[0] / n, q[1] / n, q[2] / n, q[3] / n};
  spart_quat_rot(st->x.R0, unit);
  return 0;
}


/* qmdot, the joints' coordinate rates, to their velocities um at qm (spart_joint_v_of_qdot);
   um given as well is an error */
int cli_check_qmdot(const spart_model *m, cli_state *st, unsigned given, spart_err *err) {
  if (given & 1u << CLI_F_um) {
    return cli_errf(err, SPART_EDATA, st->line, "um and qmdot are both given: give one");
  }
  if (m->nq != m->nv && spart_joint_rates_tangent(m, st->x.qm, st->qmdot, 1e-6, err) != 0) {
    err->line = st->line;
    return -SPART_EDATA; /* not projected away: the rate given is not one of a unit quaternion */
  }
  for (int i = 1; i < m->nb; i++) {
    if (m->jnt_nq[i] > 0) {
      spart_joint_v_of_qdot(m, i, st->x.qm + m->jnt_qadr[i], st->qmdot + m->jnt_qadr[i],
                            st->x.um + m->jnt_vadr[i]);
    }
  }
  st->has |= 1u << CLI_F_um;
  return 0;
}
