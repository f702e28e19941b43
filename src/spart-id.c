/* spart-id -- inverse dynamics: joint and base forces for given accelerations */
#include "spart.h"

static const spart_tool tool = {
    "spart-id", "[OPTIONS] [-m MODEL] < STATES",
    "Inverse dynamics (SPART ID, by recursive Newton-Euler).  For each state record, writes\n"
    "the base and joint forces that produce the accelerations u0dot, umdot under the external\n"
    "wrenches wF0, wFm.\n\n"
    "Outputs: tau0 (6: [torque (base frame); force]), taum (n_q).\n\n"
    "Options:\n"
    "      --floating       floating base, tau0 = 0 (SPART Floating_ID): writes taum and the\n"
    "                       base acceleration u0dot instead (u0dot of the input is ignored)\n"
    "      --fixed-base     the base does not move (u0 = u0dot = 0): tau0 is its reaction\n"
    "      --gravity G      gx,gy,gz: adds the weight m*g at every CoM, base included\n"
    "      --no-friction    leave out the joints' viscous and Coulomb friction (the model's\n"
    "                       damping and friction; SPART has none); armature stays\n",
    SPART_OPT_FIXED | SPART_OPT_GRAVITY | SPART_OPT_FLOATING | SPART_OPT_FRICTION,
    SPART_READS_VEL | SPART_READS(u0dot) | SPART_READS(umdot) | SPART_READS_WRENCH,
    "tau0,taum,u0dot"};


/* forces of one record */
static int compute(spart_session *s) {
  const spart_state *st = s->st;
  const int nq = s->m->nq;
  const double *wF = (st->has & SPART_READS_WRENCH) ? st->wF : NULL; /* none: no work for them */
  double *tau = spart_session_buf(s, 0, 6 + (size_t)nq);
  if (!tau) {
    return -1;
  }
  if (s->o.floating) {
    if (spart_floating_id(s->m, s->d, st->R0, st->qm, st->u0, st->um, st->umdot, wF, s->gravity,
                          tau + 6, tau) != 0) {
      spart_fail(s, "the base inertia is singular");
      return -1;
    }
  } else {
    spart_rnea(s->m, s->d, st->R0, st->qm, st->u0, st->um, st->u0dot, st->umdot, wF, s->gravity,
               tau);
  }

  /* the drive train's friction opposes the joint velocities */
  if (!s->o.no_friction) {
    spart_friction(s->m, st->um, 1, tau + 6);
  }
  if (s->o.floating) {
    spart_put(s->wr, "taum", tau + 6, nq, -1, -1);
    spart_put(s->wr, "u0dot", tau, 6, -1, -1);
    return 0;
  }
  spart_put(s->wr, "tau0", tau, 6, -1, -1);
  spart_put(s->wr, "taum", tau + 6, nq, -1, -1);
  return 0;
}


int main(int argc, char **argv) {
  return spart_run(&tool, argc, argv, compute);
}
