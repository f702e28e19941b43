/* spart_limits.c -- joint limits: which of a state's positions, velocities and forces leave them */
#include "spart.h"


/* note a limit passed, in hit[n] if there is room; the new count */
static int note(spart_limit_hit *hit, int most, int n, int i, int kind, int index, double value,
                double limit) {
  if (n < most) {
    hit[n] = (spart_limit_hit){i, kind, index, value, limit};
  }
  return n + 1;
}


int spart_limits_check(const spart_model *m, const double *qm, const double *um,
                       const double *taum, spart_limit_hit *hit, int most) {
  int n = 0;
  for (int i = 1; i < m->nb; i++) {
    const double *r = m->jnt_range + 2 * i;
    const double vmax = m->jnt_velocity[i], fmax = m->jnt_effort[i];

    /* position: a joint of one coordinate within [lower, upper] */
    if (qm && m->jnt_limited[i] && m->jnt_nq[i] == 1) {
      const int a = m->jnt_qadr[i];
      if (qm[a] < r[0]) {
        n = note(hit, most, n, i, SPART_LIMIT_LOWER, a, qm[a], r[0]);
      } else if (qm[a] > r[1]) {
        n = note(hit, most, n, i, SPART_LIMIT_UPPER, a, qm[a], r[1]);
      }
    }

    /* velocity and force: each degree of freedom at most the limit in magnitude */
    for (int k = 0; k < m->jnt_nv[i]; k++) {
      const int v = m->jnt_vadr[i] + k;
      if (um && vmax > 0 && (um[v] > vmax || um[v] < -vmax)) {
        n = note(hit, most, n, i, SPART_LIMIT_VELOCITY, v, um[v], vmax);
      }
      if (taum && fmax > 0 && (taum[v] > fmax || taum[v] < -fmax)) {
        n = note(hit, most, n, i, SPART_LIMIT_EFFORT, v, taum[v], fmax);
      }
    }
  }
  return n;
}
