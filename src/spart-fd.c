/* spart-fd -- forward dynamics: accelerations for given forces */
#include <string.h>

#include "spart.h"

static const spart_tool tool = {
    "spart-fd", "[OPTIONS] [-m MODEL] < STATES",
    "Forward dynamics (SPART FD, by Featherstone's articulated-body algorithm, O(n)).  For\n"
    "each state record, writes the accelerations that the base force tau0, the joint forces\n"
    "taum and the external wrenches wF0, wFm produce at the velocities u0, um.\n\n"
    "Outputs: u0dot (6: [omegadot (base frame); r0ddot]), umdot (n_q).\n\n"
    "Options:\n"
    "      --fixed-base     the base does not move (u0 = 0): writes umdot only\n"
    "      --gravity G      gx,gy,gz: adds the weight m*g at every CoM, base included\n"
    "      --no-friction    leave out the joints' viscous and Coulomb friction (the model's\n"
    "                       damping and friction; SPART has none); armature stays\n",
    SPART_OPT_FIXED | SPART_OPT_GRAVITY | SPART_OPT_FRICTION,
    SPART_READS_VEL | SPART_READS(tau0) | SPART_READS(taum) | SPART_READS_WRENCH,
    "u0dot,umdot"};


/* accelerations of one record */
static int compute(spart_session *s) {
  spart_session_kinematics(s);
  const spart_state *st = s->st;
  const int nq = s->m->nq;
  double *acc = spart_session_buf(s, 0, 6 + 2 * (size_t)nq), *taum = st->taum;
  if (!acc) {
    return -1;
  }

  /* the drive train's friction opposes the joint velocities: it takes from the joint forces */
  if (!s->o.no_friction) {
    taum = memcpy(acc + 6 + nq, st->taum, (size_t)nq * sizeof(double));
    spart_friction(s->m, st->um, -1, taum);
  }
  if (spart_aba(s->m, s->d, s->o.fixed_base, st->um, st->tau0, taum, st->wF, s->gravity, acc,
                acc + 6) != 0) {
    spart_fail_singular(s);
    return -1;
  }
  if (!s->o.fixed_base) {
    spart_put(s->wr, "u0dot", acc, 6, -1, -1);
  }
  spart_put(s->wr, "umdot", acc + 6, s->m->nq, -1, -1);
  return 0;
}


int main(int argc, char **argv) {
  return spart_run(&tool, argc, argv, compute);
}
