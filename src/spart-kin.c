/* spart-kin -- poses, twists and twist rates of every link */
#include "cli.h"

static const cli_tool tool = {
    "spart-kin", "[OPTIONS] [-m MODEL] < STATES",
    "Kinematics (SPART Kinematics, Velocities, Accelerations, Center_of_Mass).  For each state\n"
    "record, writes the poses of every joint and link (inertial frame), and their twists when\n"
    "the record gives velocities or accelerations, and twist rates when it gives\n"
    "accelerations (u0dot or umdot).\n\n"
    "Outputs: RJ, RL (n x 3x3: joint and link orientations), rJ, rL (n x 3: joint positions,\n"
    "link CoMs), e (n x 3: joint axes), g (n x 3: joint to link CoM), r_com (3: system CoM);\n"
    "t0 (6), tL (n x 6) with velocities or accelerations; t0dot (6), tLdot (n x 6) with\n"
    "accelerations.\n"
    "Twists are [omega; v] at link CoMs, all in the inertial frame.\n",
    0, CLI_READS_VEL | CLI_READS(u0dot) | CLI_READS(umdot),
    "RJ,RL,rJ,rL,e,g,r_com,t0,tL,t0dot,tLdot", NULL};


/* poses, and twists and rates when the record gives them, put as outputs; 0, or -1 */
static int compute(cli_session *s) {
  cli_session_kinematics(s);
  const unsigned vel = 1u << CLI_F_u0 | 1u << CLI_F_um;
  const unsigned acc = 1u << CLI_F_u0dot | 1u << CLI_F_umdot;
  const cli_state *st = s->st;
  spart_data *d = s->d;
  int n = s->m->nb - 1;
  double *pos = cli_session_buf(s, 0, 6 * (size_t)n + 3);
  if (!pos) {
    return -1;
  }
  spart_joint_frames(s->m, d);
  spart_positions(s->m, d, pos, pos + 3 * n, pos + 6 * n);
  cli_put(s->wr, "RJ", d->xrotJ + 9, n, 3, 3);
  cli_put(s->wr, "RL", d->xrot + 9, n, 3, 3);
  cli_put(s->wr, "rJ", pos, n, 3, -1);
  cli_put(s->wr, "rL", pos + 3 * n, n, 3, -1);
  cli_put(s->wr, "e", d->xaxis + 3, n, 3, -1);
  cli_put(s->wr, "g", d->xg + 3, n, 3, -1);
  cli_put(s->wr, "r_com", pos + 6 * n, 3, -1, -1);
  if (st->has & (vel | acc)) {
    cli_put(s->wr, "t0", d->t, 6, -1, -1);
    cli_put(s->wr, "tL", d->t + 6, n, 6, -1);
  }
  if (st->has & acc) {
    spart_acceleration(s->m, d, st->um, st->u0dot, st->umdot);
    cli_put(s->wr, "t0dot", d->tdot, 6, -1, -1);
    cli_put(s->wr, "tLdot", d->tdot + 6, n, 6, -1);
  }
  return 0;
}


int main(int argc, char **argv) {
  int status;
  cli_session *s = cli_session_start(&tool, argc, argv, &status);
  if (!s) {
    return status;
  }
  while (cli_next(s)) {
    if (compute(s) == 0) {
      cli_write(s);
    }
  }
  return cli_session_close(s);
}
