/* test_sim.c -- the simulation's bookkeeping in lib/sim/spart_sim.c, by hand-computed values:
 *  - the grid of a run's times (spart_sim_grid_steps, spart_sim_grid_time)
 *  - the joints that leave their limits, each reported once (spart_sim_limits)
 *  - one RK4 step is four forward dynamics calls, the state and forces set as given
 *
 * usage: test_sim MODEL.urdf (a fixed-base arm with limited revolute joints: kuka_iiwa)
 * prints one line per check, then "N passed, N failed"
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_sim.h"

static int npass, nfail;


static void check(int ok, const char *what) {
  printf("%s %s\n", ok ? "ok" : "FAIL", what);
  ok ? npass++ : nfail++;
}


static void grid(void) {
  check(spart_sim_grid_steps(1, 0.001) == 1000, "1 s in 1 ms steps: 1000 steps");
  check(spart_sim_grid_steps(0.0105, 0.001) == 11, "10.5 ms in 1 ms steps: 11, the last short");
  check(spart_sim_grid_steps(1, 0.1) == 10, "1 s in 0.1 s steps: 10");
  check(spart_sim_grid_steps(0.3, 0.1) == 3, "0.3 s in 0.1 s steps: 3 (0.3 / 0.1 < 3)");
  check(spart_sim_grid_time(1, 0.001, 1400, 2000) == 1.4, "step 1400 of 1 ms is 1.4, as it reads");
  check(spart_sim_grid_time(0.0105, 0.001, 10, 11) == 0.01, "step 10 of 1 ms is 0.01");
  check(spart_sim_grid_time(0.0105, 0.001, 11, 11) == 0.0105, "the last step ends on T");
  check(spart_sim_grid_time(1, 0.3, 2, 4) == 2 * 0.3, "a step whose inverse is not whole: k h");
}


static void limits(const spart_model *m) {
  int *out = calloc((size_t)m->nb, sizeof(int));
  double *qm = calloc((size_t)m->nq, sizeof(double));
  int i = 2, a = m->jnt_qadr[i];
  const double *r = m->jnt_range + 2 * i;
  check(m->nb > 3 && m->jnt_limited[i] && m->jnt_nq[i] == 1, "joint 2 has limits");
  check(spart_sim_limits(m, qm, out) == 0, "at q = 0: no joint outside");
  qm[a] = r[1] + 1e-9;
  int n = spart_sim_limits(m, qm, out);
  check(n == 1 && out[i] == 2, "past its upper limit: joint 2 has just left");
  qm[a] = r[1] + 0.1;
  n = spart_sim_limits(m, qm, out);
  check(n == 0 && out[i] == 1, "still outside: not again");
  qm[a] = r[1];
  n = spart_sim_limits(m, qm, out);
  check(n == 0 && out[i] == 0, "on its limit: inside");
  qm[a] = r[0] - 1e-9;
  n = spart_sim_limits(m, qm, out);
  check(n == 1 && out[i] == 2, "past its lower limit: left again");
  free(out);
  free(qm);
}


static void steps(const spart_model *m) {
  spart_data *d = spart_data_new(m);
  spart_sim *s = spart_sim_new(m);
  double *v = calloc(6 * (size_t)m->nb + (size_t)m->nq + (size_t)m->nv, sizeof(double));
  double R0[9] = {0, -1, 0, 1, 0, 0, 0, 0, 1}, r0[3] = {1, 2, 3}, u0[6] = {0}, tau0[6] = {0};
  spart_err err = {0};
  if (!d || !s || !v) {
    check(0, "memory");
    return;
  }
  double *qm = v, *um = v + m->nq, *wF = um + m->nv;
  for (int k = 0; k < m->nv; k++) {
    qm[k] = 0.1 * k;
    um[k] = 0.2 - 0.05 * k;
  }
  wF[6 * 2 + 5] = 1; /* a force on link 2 */
  s->flags = SPART_FD_FIXED;
  /* the state and forces (taum = um, any values) copied from a state of the caller's arrays */
  spart_state x = {.nb = m->nb, .nq = m->nq, .nv = m->nv, .qm = qm, .u0 = u0, .um = um,
                   .tau0 = tau0, .taum = um, .wF = wF};
  memcpy(x.R0, R0, sizeof R0);
  memcpy(x.r0, r0, sizeof r0);
  spart_state_copy(s->x, &x);
  check(memcmp(s->x->R0, R0, sizeof(R0)) == 0 && memcmp(s->x->r0, r0, sizeof(r0)) == 0 &&
            memcmp(s->x->qm, qm, (size_t)m->nq * sizeof(double)) == 0 &&
            memcmp(s->x->um, um, (size_t)m->nv * sizeof(double)) == 0,
        "spart_state_copy copies the state into the simulation's");
  check(memcmp(s->x->taum, um, (size_t)m->nv * sizeof(double)) == 0 &&
            s->x->wF[6 * 2 + 5] == 1 && s->x->wF[6 * 2 + 4] == 0,
        "and the forces");
  int ok = 1;
  for (int k = 1; k <= 10 && ok; k++) {
    ok = spart_sim_step(m, d, s, 0.001 * k, &err) == 0;
  }
  check(ok && s->nstep == 10 && s->nfd == 40, "10 RK4 steps: 40 forward dynamics calls");
  check(spart_sim_accel(m, d, s, &err) == 0 && s->nfd == 41 &&
            spart_sim_step(m, d, s, 0.011, &err) == 0 && s->nfd == 44,
        "the accelerations of the state written are the next step's first stage");
  spart_sim_free(s);
  spart_data_free(d);
  free(v);
}


int main(int argc, char **argv) {
  spart_err err = {0};
  spart_model *m = argc == 2 ? spart_model_load(argv[1], &err) : NULL;
  if (!m) {
    fprintf(stderr, "usage: test_sim MODEL.urdf%s%s\n", err.msg[0] ? ": " : "", err.msg);
    return 2;
  }
  grid();
  limits(m);
  steps(m);
  spart_model_free(m);
  printf("%d passed, %d failed\n", npass, nfail);
  return nfail != 0;
}
