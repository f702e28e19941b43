/* spart-fd -- forward dynamics: accelerations for given forces */
#include <stddef.h>
#include <string.h>

#include "cli.h"
#include "spart_sim.h"

/* its own options */
typedef struct fd_opts {
  int derivatives; /* --derivatives */
  int linearize;   /* --linearize */
} fd_opts;

/* their bits in the gates */
enum { ON_DERIV = CLI_ON_OWN << 0, ON_LIN = CLI_ON_OWN << 1 };

static const cli_gate gates[] = {{"u0dot", 0, CLI_ON_FIXED, 0},
                                 {"dudot_dq,dudot_du,dudot_dtau", ON_DERIV, 0, 0},
                                 {"A,B", ON_LIN, 0, 0},
                                 {NULL, 0, 0, 0}};

static const cli_option options[] = {
    CLI_FLAG("derivatives", offsetof(fd_opts, derivatives), ON_DERIV,
             "      --derivatives    also dudot_dq, dudot_du, dudot_dtau ((6 + n_v) x (6 + n_v);\n"
             "                       n_v x n_v with --fixed-base): -H^-1 dtau_dq, -H^-1 dtau_du,\n"
             "                       H^-1, by recursion (Carpentier-Mansard)\n"),
    CLI_FLAG("linearize", offsetof(fd_opts, linearize), ON_LIN,
             "      --linearize      also A = [0 I; dudot_dq dudot_du] (2n x 2n) and\n"
             "                       B = [0; dudot_dtau] (2n x n), the state-space model of\n"
             "                       x = (delta q, u), n = 6 + n_v (n_v with --fixed-base)\n"),
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
    .outputs = "u0dot,umdot,dudot_dq,dudot_du,dudot_dtau,A,B",
    .gates = gates};


/* --derivatives' and --linearize's outputs of the current record at flags; 0, or -1 after
   reporting */
static int derivatives(cli_session *s, int flags) {
  const fd_opts *o = s->o.own;
  const int b = s->o.fixed_base ? 0 : 6, n = b + s->m->nvc;
  const size_t nn = (size_t)n * n, N = 6 + (size_t)s->m->nv;
  double *D = cli_session_buf(s, 2, 3 * N * N);
  double *AB = o->linearize ? cli_session_buf(s, 3, 6 * nn) : NULL;
  if (!D || (o->linearize && !AB)) {
    return -1;
  }
  if (spart_fd_derivatives(s->m, s->d, &s->st->x, flags, s->gravity, D) != 0) {
    cli_fail_singular(s);
    return -1;
  }
  if (o->derivatives) {
    cli_put(s->wr, "dudot_dq", D, n, n, -1);
    cli_put(s->wr, "dudot_du", D + nn, n, n, -1);
    cli_put(s->wr, "dudot_dtau", D + 2 * nn, n, n, -1);
  }
  if (o->linearize) { /* A = [0 I; dudot_dq dudot_du], B = [0; dudot_dtau] */
    double *A = AB, *B = AB + 4 * nn;
    memset(AB, 0, 6 * nn * sizeof(double));
    for (int r = 0; r < n; r++) {
      A[(size_t)r * 2 * n + n + r] = 1;
      memcpy(A + (size_t)(n + r) * 2 * n, D + (size_t)r * n, (size_t)n * sizeof(double));
      memcpy(A + (size_t)(n + r) * 2 * n + n, D + nn + (size_t)r * n, (size_t)n * sizeof(double));
      memcpy(B + (size_t)(n + r) * n, D + 2 * nn + (size_t)r * n, (size_t)n * sizeof(double));
    }
    cli_put(s->wr, "A", A, 2 * n, 2 * n, -1);
    cli_put(s->wr, "B", B, 2 * n, n, -1);
  }
  return 0;
}


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
  const fd_opts *o = s->o.own;
  return o->derivatives || o->linearize ? derivatives(s, flags) : 0;
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
  fd_opts o = {0};
  int status;
  cli_session *s = cli_session_start(&tool, &o, argc, argv, &status);
  if (!s) {
    return status;
  }
  return cli_run(s, records, 0);
}
