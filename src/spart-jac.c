/* spart-jac -- geometric Jacobian of a point on a link, its derivative, the NOC matrix */
#include "cli.h"

/* the Jacobians need --link, their derivatives --dot too, N --noc; what --link, --point, --dot
   and --noc change */
static const cli_gate gates[] = {{"J0,Jm", CLI_ON_LINK, 0, 0},
                                 {"J0dot,Jmdot", CLI_ON_LINK | CLI_ON_DOT, 0, 0},
                                 {"N", CLI_ON_NOC, 0, 0},
                                 {"J0,Jm,J0dot,Jmdot", 0, 0, CLI_ON_LINK},
                                 {"J0,Jm,J0dot,Jmdot", 0, 0, CLI_ON_POINT},
                                 {"J0dot,Jmdot", 0, 0, CLI_ON_DOT},
                                 {"N", 0, 0, CLI_ON_NOC},
                                 {NULL, 0, 0, 0}};

static const cli_tool tool = {
    "spart-jac", "--link ID|NAME [--point X,Y,Z] [--dot] [--noc] [OPTIONS] [-m MODEL] < STATES",
    "Jacobians (SPART Jacob, Jacobdot, NOC).  For each state record, writes the geometric\n"
    "Jacobian of a point on a link: its twist [omega; v] (inertial frame) is J0 u0 + Jm um.\n\n"
    "Outputs: J0 (6x6), Jm (6 x n_q); with --dot also J0dot, Jmdot (needs the velocities);\n"
    "with --noc, N (6(n+1) x (6+n_q)): the twists of the base and of every link CoM,\n[t0; tL] = N "
    "[u0; um].\n\n"
    "Options:\n"
    "  -l, --link ID|NAME   the link: its id (0 is the base) or its URDF name\n"
    "      --point X,Y,Z    the point in the link frame, from the link CoM (default: the CoM)\n"
    "      --dot            also the time derivatives J0dot, Jmdot\n"
    "      --noc            the natural orthogonal complement N (--link then optional)\n",
    CLI_OPT_LINK, CLI_READS_VEL, "J0,Jm,J0dot,Jmdot,N", gates};


/* the Jacobian of the point, its derivative, the NOC */
static int compute(cli_session *s) {
  cli_session_kinematics(s);
  const cli_opts *o = &s->o;
  int nq = s->m->nq, n = s->m->nb - 1, i = o->link ? cli_session_link(s) : 0;
  double x[3], *p = o->has_point ? x : NULL;
  double *J = cli_session_buf(s, 0, 2 * (36 + 6 * (size_t)nq));
  double *N = o->noc ? cli_session_buf(s, 1, 6 * ((size_t)n + 1) * (6 + (size_t)nq)) : NULL;
  if (i < 0 || !J || (o->noc && !N)) {
    return -1;
  }
  if (o->link) {
    if (p) {
      spart_point(s->d, i, o->point, x);
    }
    spart_jacobian(s->m, s->d, i, p, J, J + 36);
    cli_put(s->wr, "J0", J, 6, 6, -1);
    cli_put(s->wr, "Jm", J + 36, 6, nq, -1);
    if (o->dot) {
      double *Jdot = J + 36 + 6 * nq;
      spart_jacobian_dot(s->m, s->d, i, p, Jdot, Jdot + 36);
      cli_put(s->wr, "J0dot", Jdot, 6, 6, -1);
      cli_put(s->wr, "Jmdot", Jdot + 36, 6, nq, -1);
    }
  }
  if (o->noc) {
    spart_noc(s->m, s->d, N);
    cli_put(s->wr, "N", N, 6 * (n + 1), 6 + nq, -1);
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
