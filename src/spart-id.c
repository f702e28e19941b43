/* spart-id -- inverse dynamics: joint and base forces for given accelerations */
#include <stddef.h>

#include "cli.h"

/* its own options */
typedef struct id_opts {
  int floating;       /* --floating: SPART's Floating_ID */
  int joint_wrenches; /* --joint-wrenches */
  int derivatives;    /* --derivatives */
} id_opts;

/* their bits in the gates */
enum { ON_FLOATING = CLI_ON_OWN << 0, ON_WRENCHES = CLI_ON_OWN << 1, ON_DERIV = CLI_ON_OWN << 2 };

/* tau0 but with --floating, u0dot only with it, joint_wrenches only with --joint-wrenches */
static const cli_gate gates[] = {{"tau0", 0, ON_FLOATING, 0},
                                 {"u0dot", ON_FLOATING, 0, 0},
                                 {"joint_wrenches", ON_WRENCHES, 0, 0},
                                 {"dtau_dq,dtau_du", ON_DERIV, 0, 0},
                                 {NULL, 0, 0, 0}};


/* --floating: the base is free, whatever the model says */
static int floating(const cli_arg *a) {
  *(int *)a->at = 1;
  a->o->floating_base = 1;
  return -1;
}


static int check(const cli_tool *t, void *own, cli_opts *o) {
  const id_opts *id = own;
  if (id->floating && id->derivatives) {
    return cli_usage(t->name,
                     "--derivatives and --floating may not be combined (the base's "
                     "acceleration is solved for: spart-fd --derivatives)");
  }
  return id->floating && o->fixed_base
             ? cli_usage(t->name, "--floating and --fixed-base may not be combined")
             : -1;
}


static const cli_option options[] = {
    {"floating", 0, CLI_ARG_NONE, floating, offsetof(id_opts, floating), 0, ON_FLOATING, NULL,
     "      --floating       floating base, tau0 = 0 (SPART Floating_ID): writes taum and the\n"
     "                       base acceleration u0dot instead (u0dot of the input is ignored)\n"},
    CLI_SHARED("fixed-base", "      --fixed-base     the base does not move (u0 = u0dot = 0): "
                             "tau0 is its reaction\n"),
    CLI_SHARED("floating-base", NULL),
    CLI_SHARED("gravity", NULL),
    CLI_SHARED("no-friction", NULL),
    CLI_SHARED("check-limits",
               "      --check-limits   report on stderr each record whose joint positions qm or\n"
               "                       velocities um (input) or forces taum (output) pass the "
               "model's\n"
               "                       limits, one line a limit; exit 4 at the end if any did\n"),
    {"joint-wrenches", 0, CLI_ARG_NONE, NULL, offsetof(id_opts, joint_wrenches), 0, ON_WRENCHES,
     NULL,
     "      --joint-wrenches also joint_wrenches (n x 6): the wrench the parent exerts on the\n"
     "                       child across each joint, [torque; force], inertial frame, at\n"
     "                       the joint's position rJ\n"},
    CLI_FLAG("derivatives", offsetof(id_opts, derivatives), ON_DERIV,
             "      --derivatives    also dtau_dq and dtau_du ((6 + n_v) x (6 + n_v); n_v x n_v\n"
             "                       with --fixed-base), the forces' derivatives along the\n"
             "                       velocity coordinates, by recursion (Carpentier-Mansard)\n"),
    CLI_END};

static const cli_tool tool = {
    .name = "spart-id",
    .synopsis = "[OPTIONS] [-m MODEL] < STATES",
    .help =
        "Inverse dynamics (SPART ID, by recursive Newton-Euler).  For each state record, writes\n"
        "the base and joint forces that produce the accelerations u0dot, umdot under the "
        "external\n"
        "wrenches wF0, wFm.\n\n"
        "Outputs: tau0 (6: [torque (base frame); force]), taum (n_v).\n\n",
    .options = options,
    .reads = CLI_READS_VEL | CLI_READS(u0dot) | CLI_READS(umdot) | CLI_READS_WRENCH,
    .outputs = "tau0,taum,u0dot,joint_wrenches,dtau_dq,dtau_du",
    .gates = gates,
    .check = check};


/* the outputs of record k (0, or 1: the second of a pair) from its forces in buffer k */
static void put(cli_session *s, int k) {
  const id_opts *o = s->o.own;
  const int nv = s->m->nvc; /* the system's (spart_mimic.c) */
  const double *tau = cli_session_buf(s, k, 6 + (size_t)s->m->nv);
  if (s->m->coupled) { /* coupled mimic joints: K' tau */
    double *tc = cli_session_buf(s, 2, 6 + (size_t)nv);
    if (!tc) {
      return;
    }
    spart_mimic_force(s->m, 6, tau, tc);
    tau = tc;
  }
  if (o->floating) {
    cli_put(s->wr, "taum", tau + 6, nv, -1, -1);
    cli_put(s->wr, "u0dot", tau, 6, -1, -1);
  } else {
    cli_put(s->wr, "tau0", tau, 6, -1, -1);
    cli_put(s->wr, "taum", tau + 6, nv, -1, -1);
  }
  if (o->joint_wrenches) { /* from this record's pass (records: one at a time) */
    const int n = s->m->nb - 1;
    double *w = cli_session_buf(s, 3, 6 * (size_t)n);
    if (w) {
      spart_joint_wrenches(s->m, s->d, &s->st->x, w);
      cli_put(s->wr, "joint_wrenches", w, n, 6, -1);
    }
  }
  if (o->derivatives) { /* buffer 1: a pair's, unused (records one at a time) */
    const int b = s->o.fixed_base ? 0 : 6, n = b + nv;
    int flags = (b ? 0 : SPART_ID_FIXED) | (s->o.no_friction ? 0 : SPART_ID_FRICTION);
    double *D = cli_session_buf(s, 1, 2 * (size_t)(6 + s->m->nv) * (size_t)(6 + s->m->nv));
    if (D) {
      spart_rnea_derivatives(s->m, s->d, &s->st->x, flags, s->gravity, D);
      cli_put(s->wr, "dtau_dq", D, n, n, -1);
      cli_put(s->wr, "dtau_du", D + (size_t)n * n, n, n, -1);
    }
  }
}


/* --check-limits on record k: its positions and velocities, its forces in buffer k */
static void limits(cli_session *s, int k) {
  const double *tau = cli_session_buf(s, k, 6 + (size_t)s->m->nv);
  /* coupled mimic joints: the tree's joint forces are not the system's, no effort to check */
  cli_check_limits(s, s->st->x.qm, s->st->x.um, s->m->coupled ? NULL : tau + 6);
}


/* the drive train's friction, opposing the joint velocities, unless --no-friction */
static void friction(const cli_session *s, const spart_state *x, double *tau) {
  if (!s->o.no_friction) {
    spart_friction(s->m, x->um, 1, tau + 6);
  }
}


/* forces of the current record, in buffer 0; 0, or -1 after reporting */
static int compute(cli_session *s) {
  const id_opts *o = s->o.own;
  const cli_state *st = s->st;
  double *tau = cli_session_buf(s, 0, 6 + (size_t)s->m->nv);
  if (!tau) {
    return -1;
  }
  if (o->floating) {
    if (spart_floating_id(s->m, s->d, &st->x, s->gravity, tau + 6, tau) != 0) {
      cli_fail_singular(s);
      return -1;
    }
  } else {
    spart_rnea(s->m, s->d, &st->x, s->gravity, tau);
  }
  friction(s, &st->x, tau);
  return 0;
}


/* forces of two records together (rows of a trajectory), in buffers 0 and 1; 0, or -1 after
   reporting */
static int both(cli_session *s, const spart_state *const x[2]) {
  size_t n = 6 + (size_t)s->m->nv;
  double *tau[2] = {cli_session_buf(s, 0, n), cli_session_buf(s, 1, n)};
  if (!tau[0] || !tau[1]) {
    return -1;
  }
  spart_rnea_pair(s->m, s->d, 2, x, s->gravity, tau);
  friction(s, x[0], tau[0]);
  friction(s, x[1], tau[1]);
  return 0;
}


/* the records of the input (or of a block of it, with -j) */
static void records(cli_session *s) {
  /* two records at once where the input has them at hand (not --floating: Floating_ID has no
     paired form; not --joint-wrenches: they come from one record's pass; not --derivatives:
     they use the pair's second buffer), each written in its turn */
  const id_opts *o = s->o.own;
  const spart_state *x[2];
  const int most = o->floating || o->joint_wrenches || o->derivatives ? 1 : 2;
  for (int n; (n = cli_next_pair(s, most, x)) > 0;) {
    if (n == 2 && both(s, x) != 0) {
      continue;
    }
    for (int k = 0; k < n && !s->stop; k++) {
      cli_turn(s, k);
      if (n == 2 || compute(s) == 0) {
        limits(s, k);
        put(s, k);
        cli_write(s);
      }
    }
  }
}


int main(int argc, char **argv) {
  id_opts o = {0};
  int status;
  cli_session *s = cli_session_start(&tool, &o, argc, argv, &status);
  if (!s) {
    return status;
  }
  return cli_run(s, records, 0);
}
