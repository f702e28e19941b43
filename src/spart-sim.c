/* spart-sim -- a robot moved through time from each initial state (forward dynamics integrated) */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim.h"
#include "spart_text.h"

/* its own options, the world's among them */
typedef struct sim_opts {
  double duration, dt;  /* --duration T (0: not given), --dt H */
  long every;           /* --every K */
  int integrator;       /* --integrator: SPART_SIM_* */
  double rtol, atol;    /* --rtol, --atol (0: not given) */
  double coulomb_v;     /* --coulomb-scale V (0: the discontinuous law) */
  long max_steps;       /* --max-steps N (dopri5's steps a call; -1: not given) */
  const char *inputs;   /* --inputs FILE, or NULL */
  int accelerations;    /* --accelerations */
  int no_limits;        /* --no-limits */
  double tol_implicit;  /* --tol-implicit E (m; -1: not given; 0: no warning) */
  cli_world_opts world; /* --control, --ground... (world.c) */
} sim_opts;

/* their bit in the gates */
enum { ON_ACCELERATIONS = CLI_ON_OWN << 0 };

/* u0dot, umdot with --accelerations only, which writes them */
static const cli_gate gates[] = {{"u0dot,umdot", ON_ACCELERATIONS, 0, 0},
                                 {"u0dot,umdot", 0, 0, ON_ACCELERATIONS},
                                 {NULL, 0, 0, 0}};


/* --every K, --max-steps N: a whole number, at least the row's least */
static int whole_arg(const cli_arg *a, long least) {
  long *v = a->at;
  char *end;
  errno = 0;
  *v = strtol(a->value, &end, 10);
  return *a->value >= '0' && *a->value <= '9' && *end == 0 && errno == 0 && *v >= least
             ? -1
             : cli_usage(a->tool->name, "--%s: expected a whole number >= %ld, got '%s'",
                         a->opt->name, least, a->value);
}


static int every_arg(const cli_arg *a) {
  return whole_arg(a, 1);
}


static int max_steps_arg(const cli_arg *a) {
  return whole_arg(a, 0);
}


/* --integrator rk4|dopri5|implicit */
static int integrator_arg(const cli_arg *a) {
  int *method = a->at;
  if (strcmp(a->value, "rk4") == 0) {
    *method = SPART_SIM_RK4;
  } else if (strcmp(a->value, "dopri5") == 0) {
    *method = SPART_SIM_DOPRI5;
  } else if (strcmp(a->value, "implicit") == 0) {
    *method = SPART_SIM_IMPLICIT;
  } else {
    return cli_usage(a->tool->name, "--integrator: expected rk4, dopri5 or implicit, got '%s'",
                     a->value);
  }
  return -1;
}


/* the options together, after every other check, and the defaults of those not given */
static int finish(const cli_tool *t, void *own, cli_opts *o) {
  sim_opts *so = own;
  if (so->duration == 0) {
    return cli_usage(t->name, "--duration T is required");
  }
  if (o->keep_state && so->inputs) {
    return cli_usage(t->name, "--keep-state with --inputs: the initial record's forces, kept, "
                     "are not those held from the inputs");
  }
  if ((so->rtol > 0 || so->atol > 0 || so->max_steps >= 0) &&
      so->integrator != SPART_SIM_DOPRI5) {
    return cli_usage(t->name, "--rtol, --atol and --max-steps are dopri5's: add --integrator "
                     "dopri5");
  }
  if (so->integrator == SPART_SIM_IMPLICIT && o->mimic) {
    return cli_usage(t->name, "--integrator implicit with --mimic: the implicit step does not "
                     "take coupled mimic joints");
  }
  if (so->tol_implicit >= 0 && so->integrator != SPART_SIM_IMPLICIT) {
    return cli_usage(t->name, "--tol-implicit is the implicit step's: add --integrator implicit");
  }
  so->tol_implicit = so->tol_implicit >= 0 ? so->tol_implicit : 0.01;
  so->world.implicit = so->integrator == SPART_SIM_IMPLICIT;
  so->max_steps = so->max_steps >= 0 ? so->max_steps : 100000;
  so->dt = so->dt > 0 ? so->dt : 1e-3;
  so->every = so->every > 0 ? so->every : 1;
  so->rtol = so->rtol > 0 ? so->rtol : 1e-6;
  so->atol = so->atol > 0 ? so->atol : 1e-9;
  if (so->duration / so->dt > 1e15) {
    return cli_usage(t->name, "--duration %g with --dt %g: more than 1e15 steps", so->duration,
                     so->dt);
  }
  return cli_world_check(&so->world, o->mimic, t->name);
}


#define AT(f) offsetof(sim_opts, f)

static const cli_option options[] = {
    {"duration", 0, CLI_ARG_ONE, cli_opt_positive, AT(duration), 0, 0, "a time > 0 in s",
     "      --duration T     simulate T seconds (required)\n"},
    {"dt", 0, CLI_ARG_ONE, cli_opt_positive, AT(dt), 0, 0, "a step > 0 in s",
     "      --dt H           the step (rk4, implicit) or the output grid (dopri5), s (default\n"
     "                       0.001);\n"
     "                       rk4 or implicit past its stability (damping, gains, ground):\n"
     "                       an error\n"},
    {"every", 0, CLI_ARG_ONE, every_arg, AT(every), 0, 0, NULL,
     "      --every K        write every K-th step (default 1)\n"},
    {"integrator", 0, CLI_ARG_ONE, integrator_arg, AT(integrator), 0, 0, NULL,
     "      --integrator I   rk4 (fixed step, the default), dopri5 (Dormand-Prince 5(4),\n"
     "                       adaptive, landing on every output and input time) or implicit\n"
     "                       (fixed step, first order, one dynamics evaluation, the dampers\n"
     "                       and Kd implicit: a controller's rate)\n"},
    {"tol-implicit", 0, CLI_ARG_ONE, cli_opt_nonnegative, AT(tol_implicit), 0, 0,
     "a length >= 0 in m",
     "      --tol-implicit E the implicit step's error estimate (the links' positions, m: its\n"
     "                       steps' own errors added up) past which a line on stderr says\n"
     "                       so, once a trajectory (default 0.01; 0: none)\n"},
    {"rtol", 0, CLI_ARG_ONE, cli_opt_positive, AT(rtol), 0, 0, "a tolerance > 0",
     "      --rtol R, --atol A   dopri5's tolerances (default 1e-6, 1e-9)\n"},
    {"atol", 0, CLI_ARG_ONE, cli_opt_positive, AT(atol), 0, 0, "a tolerance > 0", NULL},
    {"max-steps", 0, CLI_ARG_ONE, max_steps_arg, AT(max_steps), 0, 0, NULL,
     "      --max-steps N    dopri5's most steps between two times it lands on, then an\n"
     "                       error naming the cause (default 100000; 0: no limit)\n"},
    {"coulomb-scale", 0, CLI_ARG_ONE, cli_opt_positive, AT(coulomb_v), 0, 0, "a velocity > 0",
     "      --coulomb-scale V  smooth the joints' Coulomb friction f to f tanh(um / V)\n"
     "                       (a joint stuck by friction stalls dopri5's step without it)\n"},
    {"inputs", 0, CLI_ARG_ONE, cli_opt_text, AT(inputs), 0, 0, NULL,
     "      --inputs FILE    forces over time, JSON (lines or an array) or CSV: a time t (s,\n"
     "                       increasing) and any of tau0, taum, wF0, wFm (missing ones 0;\n"
     "                       no other key) a record, all read before the run, each held\n"
     "                       from its t to the next (zero-order hold; rk4 takes the one\n"
     "                       at each step's start); before the first, the\n"
     "                       initial record's forces; every trajectory reads it all\n"},
    CLI_FLAG("accelerations", AT(accelerations), ON_ACCELERATIONS,
             "      --accelerations  write u0dot and umdot too\n"),
    CLI_FLAG("no-limits", AT(no_limits), 0,
             "      --no-limits      let the joints pass their position limits (by default a\n"
             "                       one-sided spring and damper holds each limited joint)\n"),
    CLI_SHARED("check-limits",
               "      --check-limits   report on stderr each time a joint leaves its limits "
               "(position,\n"
               "                       velocity, the effort of the forces held), go on, exit 4\n"),
    CLI_SHARED("fixed-base", "      --fixed-base     the base does not move (u0 = 0)\n"),
    CLI_SHARED("floating-base", NULL),
    CLI_SHARED("gravity", NULL),
    CLI_SHARED("no-friction",
               "      --no-friction    leave out the joints' viscous and Coulomb friction\n"),
    /* the world (world.c): a controller */
    {"control", 0, CLI_ARG_ONE, cli_world_control, AT(world.control), 1, 0, NULL,
     "\nClosed loop (forces added to the held ones at every stage of a step):\n"
     "      --control LAW    pd (Kp e + Kd edot + gravity compensation), ctc (computed torque:\n"
     "                       the model's inverse dynamics at umdot_ref + Kp e + Kd edot, its\n"
     "                       friction included) or gravity (the compensation alone: inverse\n"
     "                       dynamics at rest, the base held); each force clipped to its\n"
     "                       joint's effort limit (a line on stderr when one binds)\n"},
    {"kp", 0, CLI_ARG_ONE, cli_opt_text, AT(world.kp), 1, 0, NULL,
     "      --kp K, --kd D   gains: one for all or one a velocity coordinate (K1,K2,...)\n"},
    {"kd", 0, CLI_ARG_ONE, cli_opt_text, AT(world.kd), 1, 0, NULL, NULL},
    {"reference", 0, CLI_ARG_ONE, cli_opt_text, AT(world.reference), 1, 0, NULL,
     "      --reference FILE records of t, qm and optionally um, umdot (JSON or CSV): cubic\n"
     "                       Hermite between them with um, linear without; before the first\n"
     "                       and after the last, that record\n"},
    /* and a ground */
    {"ground", 0, CLI_ARG_MAYBE, cli_world_ground, AT(world), 1, 0, NULL,
     "Ground (compliant contact of the collision shapes' spheres, box corners, capsule ends\n"
     "and cylinder rims with one plane; no self-collision):\n"
     "      --ground [NX,NY,NZ,D]  the plane n.x = D, n out of the ground (default: z = 0\n"
     "                       against gravity, n = -g/|g|, D = 0)\n"},
    {"stiffness", 0, CLI_ARG_ONE, cli_opt_positive, AT(world.stiffness), 1, 0,
     "a stiffness > 0 in N/m",
     "      --stiffness K    N/m a contact (default: M |g| / 4 mm, M the model's mass)\n"},
    {"damping", 0, CLI_ARG_ONE, cli_opt_nonnegative, AT(world.damping), 1, 0,
     "a damping >= 0 in N s/m",
     "      --damping C      N s/m a contact (default: 2 sqrt(K m), m the lightest body with\n"
     "                       contacts)\n"},
    {"mu", 0, CLI_ARG_ONE, cli_opt_nonnegative, AT(world.mu), 1, 0, "a coefficient >= 0",
     "      --mu MU          Coulomb friction coefficient (default 1), with stiction\n"},
    {"tangential-stiffness", 0, CLI_ARG_ONE, cli_opt_positive, AT(world.tstiffness), 1, 0,
     "a stiffness > 0 in N/m",
     "      --tangential-stiffness KT, --tangential-damping CT  N/m, N s/m: a contact's\n"
     "                       tangential spring and damper (default K, 2 sqrt(KT m))\n"},
    {"tangential-damping", 0, CLI_ARG_ONE, cli_opt_positive, AT(world.tdamping), 1, 0,
     "a damping > 0 in N s/m", NULL},
    {"slip", 0, CLI_ARG_ONE, cli_opt_positive, AT(world.slip), 1, 0, "a speed > 0 in m/s",
     "      --slip V         regularised friction instead, V m/s, no stiction\n"},
    CLI_FLAG("contact-forces", AT(world.contact_forces), 0,
             "      --contact-forces write contact_forces (n x 3, inertial frame) in every "
             "record\n"),
    CLI_END};

#undef AT

static const cli_tool tool = {
    .name = "spart-sim",
    .synopsis = "[OPTIONS] -m MODEL --duration T < INITIAL_STATES",
    .help =
        "Simulation: from each initial state record (R0, r0, qm, u0, um; the forces tau0, "
        "taum,\n"
        "wF0, wFm held; u0dot, umdot, which the dynamics give, not read), integrates the "
        "forward\n"
        "dynamics of spart-fd and writes the state every K steps from t = 0 to T, and at T: "
        "one\n"
        "trajectory a record, in input order, each record's other keys (an id) passing through\n"
        "to its states; -j N runs N trajectories at once.  The base attitude moves by the\n"
        "exponential map: R0 stays a rotation to rounding, and so does a ball or floating "
        "joint's\n"
        "quaternion, a unit.\n\n"
        "Outputs: t, R0 (3x3), r0 (3), qm (n_q), u0 (6), um (n_v); with --accelerations u0dot "
        "(6),\n"
        "umdot (n_v), those of the state written.\n\n",
    .options = options,
    .reads = CLI_READS_VEL | CLI_READS(tau0) | CLI_READS(taum) | CLI_READS_WRENCH |
             CLI_READS(u0dot) | CLI_READS(umdot) | CLI_WRITES_LATER,
    .outputs = "t,R0,r0,qm,u0,um,u0dot,umdot,contact_forces",
    .gates = gates,
    .finish = finish};


/* the options of the session's command */
static const sim_opts *opts(const cli_session *s) {
  return s->o.own;
}


/* seconds on a monotonic clock */
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


/* --inputs read from a pipe: its text, read once before the trajectories, each of which reads
   it from memory (NULL: a file each opens); not written once the threads run (-j) */
static char *inputs_text;
static size_t inputs_len;


/* hold the forces of the --inputs records whose time has come at time t (within rounding of
   the step); 0, or -1 after reporting: a bad inputs file stops the run, the trajectories
   after this one would meet it too */
static int hold(cli_session *s, cli_inputs *in, spart_sim *sim, double t) {
  if (cli_inputs_hold(s, in, t, 1e-9 * opts(s)->dt, sim->x) < 0) {
    s->stop = 1;
    return -1;
  }
  return 0;
}


/* --reference FILE's text, read once before the trajectories (NULL: none); each trajectory
   parses it (cli_world_open) */
static char *reference_text;
static size_t reference_len;


/* write the state of sim (and its world's contact forces); 0, or -1 after reporting */
static int put_state(cli_session *s, spart_sim *sim, cli_world *w) {
  const int accel = opts(s)->accelerations;
  spart_err err = {0};
  if (accel && spart_sim_accel(s->m, s->d, sim, &err) != 0) {
    cli_fail(s, "%s", err.msg);
    return -1;
  }
  /* mimic joints on their leaders: the system's coordinates (spart_mimic.c) */
  double *c = s->m->coupled ? cli_session_buf(s, 0, (size_t)s->m->nqc + 3 * (size_t)s->m->nvc)
                            : NULL;
  if (s->m->coupled && !c) {
    return -1;
  }
  cli_put(s->wr, "t", &sim->t, -1, -1, -1);
  cli_put_state(s->wr, s->m, sim->x,
                CLI_READS(R0) | CLI_READS(r0) | CLI_READS(qm) | CLI_READS(u0) | CLI_READS(um) |
                    (accel ? CLI_READS(u0dot) | CLI_READS(umdot) : 0),
                c);
  cli_world_put(s, w, sim);
  cli_write(s);
  return s->stop ? -1 : 0;
}


/* --check-limits: report each limit of a joint (position, velocity, the effort of the forces
   held) that the state has passed since the last call, naming the initial record (its
   trajectory) as the other messages do; outside: per joint, the SPART_LIMIT_* bits passed at the
   last call, [0] whether this trajectory has passed one (it counts once for the exit status 4) */
static void check_limits(cli_session *s, const spart_sim *sim, int *outside) {
  enum { MOST = 64 };
  static const char *const bound[] = {"< lower", "> upper", "exceeds velocity limit",
                                      "exceeds effort limit"};
  const spart_model *m = s->m;
  spart_limit_hit hit[MOST];
  int n = spart_limits_check(m, sim->x->qm, sim->x->um, sim->x->taum, hit, MOST);
  for (int k = 0; k < n && k < MOST; k++) {
    const spart_limit_hit *h = &hit[k];
    int i = h->joint, bit = 1 << h->kind;
    if (outside[i] & bit << 4) {
      continue; /* (reported this call: a joint of several coordinates) */
    }
    outside[i] |= bit << 4;
    if (outside[i] & bit) {
      continue; /* passed at the last call too */
    }
    char bt[32], bv[32], bl[32]; /* as the records write them */
    bt[spu_dtoa(bt, sim->t)] = 0;
    bv[spu_dtoa(bv, h->value)] = 0;
    if (h->kind <= SPART_LIMIT_UPPER) {
      cli_error(tool.name, cli_reader_name(s->rd), s->st->line,
                "t = %s: joint %d '%s' leaves its limits: qm_%d = %s %s", bt, i, m->jnt_name[i],
                h->index + 1, bv, bound[h->kind]);
    } else {
      bl[spu_dtoa(bl, h->limit)] = 0;
      cli_error(tool.name, cli_reader_name(s->rd), s->st->line,
                "t = %s: joint %d '%s' leaves its limits: %s_%d = %s %s %s", bt, i,
                m->jnt_name[i], h->kind == SPART_LIMIT_VELOCITY ? "um" : "taum", h->index + 1,
                bv, bound[h->kind], bl);
    }
    if (!outside[0]) {
      outside[0] = 1;
      s->nlimits++; /* exit 4 at the end, as spart-id and spart-kin */
    }
  }
  /* the bits of this call become the last call's */
  for (int i = 1; i < m->nb; i++) {
    outside[i] = outside[i] >> 4;
  }
}


/* the implicit step: one line at a trajectory's end when its error estimate (sim->err_pos)
   has passed --tol-implicit, at time passed */
static void error_estimate(cli_session *s, const spart_sim *sim, double passed) {
  const double tol = opts(s)->tol_implicit;
  char bp[32], bl[32], be[32], bt[32];
  bp[spu_dtoa(bp, passed)] = 0;
  bl[spu_dtoa(bl, tol)] = 0;
  snprintf(be, sizeof be, "%.2g", sim->err_pos);
  bt[spu_dtoa(bt, sim->t)] = 0;
  cli_error(tool.name, cli_reader_name(s->rd), s->st->line,
            "t = %s: the implicit step's error estimate passed --tol-implicit %s m, %s m at "
            "t = %s (the links' positions, the steps' own errors added up): take a smaller "
            "--dt, or --integrator rk4 or dopri5", bp, bl, be, bt);
}


/* rk4, implicit: whether its step is stable at the state for the run's stiff terms
   (spart_sim_rk4_limit, spart_sim_implicit_limit: the joints' damping, the controller's gains,
   the ground at the contacts in it, the limits); 0, or -1 after reporting the time, the cause
   and the largest stable step (rounded down) */
static int step_stable(cli_session *s, spart_sim *sim) {
  const spart_model *m = s->m;
  spart_stiff why;
  const double dt = opts(s)->dt;
  const int rk4 = opts(s)->integrator == SPART_SIM_RK4;
  double hmax = rk4 ? spart_sim_rk4_limit(m, s->d, sim, dt, &why)
                    : spart_sim_implicit_limit(m, s->d, sim, dt, &why);
  if (dt <= hmax) {
    return 0;
  }
  char bt[32], bh[32], cause[320];
  bt[spu_dtoa(bt, sim->t)] = 0;
  bh[spu_dtoa(bh, dt)] = 0;
  int i = why.body;
  if (why.cause == SPART_STIFF_DAMPING) {
    snprintf(cause, sizeof cause, "the damping of joint %d '%s'", i, m->jnt_name[i]);
  } else if (why.cause == SPART_STIFF_CONTROL) {
    snprintf(cause, sizeof cause, "the controller's gains (the fastest at joint %d '%s')", i,
             m->jnt_name[i]);
  } else if (why.cause == SPART_STIFF_LIMIT) {
    snprintf(cause, sizeof cause, "the limit spring of joint %d '%s'", i, m->jnt_name[i]);
  } else if (why.cause == SPART_STIFF_GROUND) {
    snprintf(cause, sizeof cause, "the ground's stiffness at link %d '%s'", i, m->body_name[i]);
  } else {
    snprintf(cause, sizeof cause, "a mass matrix that is not positive definite");
  }
  double unit = hmax > 0 ? pow(10, floor(log10(hmax)) - 3) : 1;
  cli_fail(s, "t = %s: --dt %s is an unstable step for %s with %s: the largest stable step "
           "here is %.4g s (use a smaller --dt, or --integrator %s)", bt, bh,
           rk4 ? "rk4" : "the implicit step", cause, floor(hmax / unit) * unit,
           rk4 ? "implicit or dopri5" : "dopri5");
  return -1;
}


/* the trajectory from the current record; 0, or after reporting -1 (nothing written) or -2
   (the states before the fault written) */
static int run(cli_session *s, spart_sim *sim, cli_inputs *in, cli_world *w, int *out) {
  const sim_opts *o = opts(s);
  const spart_model *m = s->m;
  const cli_state *st = s->st;
  long nstep = spart_sim_grid_steps(o->duration, o->dt), k = 0;
  /* the time the implicit step's error estimate passed --tol-implicit (-1: not) */
  const double tol = o->integrator == SPART_SIM_IMPLICIT ? o->tol_implicit : 0;
  double passed = -1;
  double tick = now(), start = tick;
  spart_err err = {0};

  spart_state_copy(sim->x, &st->x); /* the state, the forces held */
  sim->t = 0;
  /* the joint limits held, scaled to the joints' inertias at the initial state */
  if (!o->no_limits && spart_sim_limit_defaults(m, s->d, sim) != 0) {
    cli_fail(s, "out of memory");
    return -1;
  }
  if (hold(s, in, sim, 0) != 0) {
    return -1;
  }
  /* the accelerations at t = 0 (kept for the first step): a model that cannot move is refused
     before anything is written */
  if (spart_sim_accel(m, s->d, sim, &err) != 0) {
    cli_fail(s, "%s", err.msg);
    return -1;
  }
  /* rk4 or the implicit step past its stability diverges (a trajectory of wrong numbers):
     refused before anything is written, and checked again every 64 steps (the implicit step,
     whose check costs more than its step: every 256) as the inertia changes and at every step
     that brings a new contact with the ground, before its state is written */
  const int grid = o->integrator != SPART_SIM_DOPRI5;
  const long every = o->integrator == SPART_SIM_RK4 ? 63 : 255;
  if (grid && step_stable(s, sim) != 0) {
    return -1;
  }
  if (put_state(s, sim, w) != 0) {
    return -1;
  }
  if (s->o.check_limits) {
    check_limits(s, sim, out);
  }
  while (k < nstep) {
    long kn = k + o->every < nstep ? k + o->every : nstep;
    double tout = spart_sim_grid_time(o->duration, o->dt, kn, nstep);
    /* rk4, implicit: the grid's steps, each with the forces held at its start, the limits
       after each; dopri5: to the next time written or of an input, the limits at the times
       written */
    for (; grid ? k < kn : sim->t < tout; k += grid) {
      if (hold(s, in, sim, sim->t) != 0) {
        return -2; /* after the first state written */
      }
      double t1 = grid ? spart_sim_grid_time(o->duration, o->dt, k + 1, nstep)
                      : fmin(cli_inputs_next(in), tout);
      if (spart_sim_step(m, s->d, sim, t1, &err) != 0) {
        /* the step limit's message names Coulomb friction: the option that smooths it */
        cli_fail(s, "%s%s", err.msg, strstr(err.msg, "Coulomb") ? " (--coulomb-scale V smooths "
                 "it)" : "");
        return -2; /* after the first state written */
      }
      if (s->o.check_limits && grid) {
        check_limits(s, sim, out);
      }
      if (tol > 0 && passed < 0 && sim->err_pos > tol) {
        passed = sim->t;
      }
      if (grid && ((k & every) == every || spart_sim_rk4_contacts(sim)) &&
          step_stable(s, sim) != 0) {
        return -2; /* after the first state written */
      }
      if (s->tty && now() > tick + 0.5) { /* progress, also within a long wait for a record */
        tick = now();
        fprintf(stderr, "\r%s: t = %.6g of %g s, %.0f steps/s", tool.name, sim->t, o->duration,
                (double)sim->nstep / (tick - start));
      }
    }
    if (!grid) {
      k = kn;
      if (s->o.check_limits) {
        check_limits(s, sim, out);
      }
    }
    if (put_state(s, sim, w) != 0) {
      return -2; /* after the first state written */
    }
  }
  if (s->tty && tick > start) {
    fprintf(stderr, "\n");
  }
  if (passed >= 0) {
    error_estimate(s, sim, passed);
  }
  return 0;
}


/* the trajectory of each record in turn (cli_run: with -j N, N at once, each on a session of
   its own), each from a simulation of its own (dopri5's step size, the counts: as if alone) */
static void trajectories(cli_session *s) {
  const sim_opts *o = opts(s);
  int *out = NULL; /* the model's (the first record's without -m) */
  while (!s->stop && cli_next(s)) {
    spart_sim *sim = spart_sim_new(s->m);
    cli_inputs *in = NULL;
    cli_world *w = NULL;
    out = out ? out : calloc((size_t)s->m->nb, sizeof(int));
    if (!sim || !out) {
      cli_error(tool.name, NULL, 0, "out of memory");
      s->status = CLI_EXIT_IO;
      s->stop = 1;
    } else if ((!o->inputs ||
                (in = cli_inputs_open(s, o->inputs, inputs_text, inputs_len)) != NULL) &&
               (w = cli_world_open(s, &o->world, reference_text, reference_len)) != NULL) {
      memset(out, 0, (size_t)s->m->nb * sizeof(int));
      sim->method = o->integrator;
      sim->flags =
          (s->o.fixed_base ? SPART_FD_FIXED : 0) | (s->o.no_friction ? 0 : SPART_FD_FRICTION);
      sim->gravity = s->gravity;
      sim->rtol = o->rtol;
      sim->atol = o->atol;
      sim->coulomb_v = o->coulomb_v;
      sim->max_steps = o->max_steps;
      long nbad = s->nbad;
      if (spart_sim_set_scene(sim, cli_world_scene(w)) != 0) {
        cli_error(tool.name, NULL, 0, "out of memory");
        s->status = CLI_EXIT_IO;
        s->stop = 1;
      } else if (run(s, sim, in, w, out) == -2 && s->nbad > nbad) {
        /* a trajectory that fails after its first state is written is partly written, not
           skipped (-k's count says which) */
        s->npart++;
      }
    } else {
      s->stop = 1; /* a bad inputs or reference file: the same for every trajectory */
    }
    cli_world_close(s, w);
    cli_inputs_close(in);
    spart_sim_free(sim);
  }
  free(out);
}


int main(int argc, char **argv) {
  sim_opts o = {.integrator = SPART_SIM_RK4, .max_steps = -1, .tol_implicit = -1,
                .world = CLI_WORLD_OPTS};
  int status;
  cli_session *s = cli_session_start(&tool, &o, argc, argv, &status);
  if (!s) {
    return status;
  }
  if ((o.inputs && cli_inputs_read(s, o.inputs, &inputs_text, &inputs_len) != 0) ||
      cli_world_read(s, &o.world, &reference_text, &reference_len) != 0) {
    free(inputs_text);
    return cli_session_close(s);
  }
  s->none = s->o.nfiles ? "no initial state in the files given" : "no initial state on stdin";
  /* one trajectory a block of the input (one record): a trajectory's states are its block's
     output */
  status = cli_run(s, trajectories, 1);
  free(inputs_text);
  free(reference_text);
  return status;
}
