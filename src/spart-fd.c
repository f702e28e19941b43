/* spart-fd -- forward dynamics: accelerations for given forces */
#include "cli.h"
#include "spart_sim.h"

static const cli_gate gates[] = {{"u0dot", 0, CLI_ON_FIXED, 0}, {NULL, 0, 0, 0}};

static const cli_option options[] = {
    CLI_SHARED("fixed-base", "      --fixed-base     the base does not move (u0 = 0): writes umdot "
                             "only\n"),
    CLI_SHARED("floating-base", NULL),
    CLI_SHARED("gravity", NULL),
    CLI_SHARED("no-friction", NULL),
    CLI_END};

static const cli_tool tool = {
    .name = "spart-fd",
    .synopsis = "[OPTIONS] [-m MODEL] < STATES",
    .help =
        "Forward dynamics (SPART FD, by Featherstone's articulated-body algorithm, O(n)).  For\n"
        "each state record, writes the accelerations that the base force tau0, the joint forces\n"
        "taum and the external wrenches wF0, wFm produce at the velocities u0, um.\n\n"
        "Outputs: u0dot (6: [omegadot (base frame); r0ddot]), umdot (n_v).\n\n",
    .options = options,
    .reads = CLI_READS_VEL | CLI_READS(tau0) | CLI_READS(taum) | CLI_READS_WRENCH,
    .outputs = "u0dot,umdot",
    .gates = gates};


/* the accelerations of the current record, put as its outputs; 0, or -1 after reporting */
static int compute(cli_session *s) {
  const cli_state *st = s->st;
  const int nv = s->m->nv;
  double *acc = cli_session_buf(s, 0, 6 + (size_t)nv);
  double *umdot = s->m->coupled ? cli_session_buf(s, 1, (size_t)s->m->nvc) : NULL;
  if (!acc || (s->m->coupled && !umdot)) {
    return -1;
  }
  int flags = (s->o.fixed_base ? SPART_FD_FIXED : 0) | (s->o.no_friction ? 0 : SPART_FD_FRICTION);
  if (spart_forward_dynamics(s->m, s->d, &st->x, flags, s->gravity, acc) != 0) {
    cli_fail_singular(s);
    return -1;
  }
  if (!s->o.fixed_base) {
    cli_put(s->wr, "u0dot", acc, 6, -1, -1);
  }
  if (umdot) { /* coupled mimic joints: the system's, the leaders' (spart_mimic.c) */
    spart_mimic_vc(s->m, acc + 6, umdot);
    cli_put(s->wr, "umdot", umdot, s->m->nvc, -1, -1);
  } else {
    cli_put(s->wr, "umdot", acc + 6, nv, -1, -1);
  }
  return 0;
}


/* the records of the input (or of a block of it, with -j) */
static void records(cli_session *s) {
  while (cli_next(s)) {
    if (compute(s) == 0) {
      cli_write(s);
    }
  }
}


int main(int argc, char **argv) {
  int status;
  cli_session *s = cli_session_start(&tool, NULL, argc, argv, &status);
  if (!s) {
    return status;
  }
  return cli_run(s, records, 0);
}
