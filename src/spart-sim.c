/* spart-sim -- a robot moved through time from each initial state (forward dynamics integrated) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "spart_text.h"

/* u0dot, umdot with --accelerations only, which writes them */
static const cli_gate gates[] = {{"u0dot,umdot", CLI_ON_ACCELERATIONS, 0, 0},
                                 {"u0dot,umdot", 0, 0, CLI_ON_ACCELERATIONS},
                                 {NULL, 0, 0, 0}};

static const cli_tool tool = {
    "spart-sim", "[OPTIONS] -m MODEL --duration T < INITIAL_STATES",
    "Simulation: from each initial state record (R0, r0, qm, u0, um; the forces tau0, taum,\n"
    "wF0, wFm held; u0dot, umdot, which the dynamics give, not read), integrates the forward\n"
    "dynamics of spart-fd and writes the state every K steps from t = 0 to T, and at T: one\n"
    "trajectory a record, in input order, each record's other keys (an id) passing through\n"
    "to its states; -j N runs N trajectories at once.  The base attitude moves by the\n"
    "exponential map: R0 stays a rotation to rounding, and so does a ball or floating joint's\n"
    "quaternion, a unit.\n\n"
    "Outputs: t, R0 (3x3), r0 (3), qm (n_q), u0 (6), um (n_v); with --accelerations u0dot (6),\n"
    "umdot (n_v), those of the state written.\n\n"
    "Options:\n"
    "      --duration T     simulate T seconds (required)\n"
    "      --dt H           the step (rk4) or the output grid (dopri5), s (default 0.001);\n"
    "                       rk4 past its stability (damping, gains, ground): an error\n"
    "      --every K        write every K-th step (default 1)\n"
    "      --integrator I   rk4 (fixed step, the default) or dopri5 (Dormand-Prince 5(4),\n"
    "                       adaptive, landing on every output and input time)\n"
    "      --rtol R, --atol A   dopri5's tolerances (default 1e-6, 1e-9)\n"
    "      --max-steps N    dopri5's most steps between two times it lands on, then an\n"
    "                       error naming the cause (default 100000; 0: no limit)\n"
    "      --coulomb-scale V  smooth the joints' Coulomb friction f to f tanh(um / V)\n"
    "                       (a joint stuck by friction stalls dopri5's step without it)\n"
    "      --inputs FILE    forces over time, JSON (lines or an array) or CSV: a time t (s,\n"
    "                       increasing) and any of tau0, taum, wF0, wFm (missing ones 0;\n"
    "                       no other key) a record, all read before the run, each held\n"
    "                       from its t to the next (zero-order hold; rk4 takes the one\n"
    "                       at each step's start); before the first, the\n"
    "                       initial record's forces; every trajectory reads it all\n"
    "      --accelerations  write u0dot and umdot too\n"
    "      --check-limits   report on stderr each time a joint leaves its limits (position,\n"
    "                       velocity, the effort of the forces held), go on, exit 4\n"
    "      --fixed-base     the base does not move (u0 = 0)\n"
    "      --gravity G      gx,gy,gz: adds the weight m*g at every CoM, base included\n"
    "      --no-friction    leave out the joints' viscous and Coulomb friction\n\n"
    "Closed loop (forces added to the held ones at every stage of a step):\n"
    "      --control LAW    pd (Kp e + Kd edot + gravity compensation), ctc (computed torque:\n"
    "                       the model's inverse dynamics at umdot_ref + Kp e + Kd edot, its\n"
    "                       friction included) or gravity (the compensation alone: inverse\n"
    "                       dynamics at rest, the base held); each force clipped to its\n"
    "                       joint's effort limit (a line on stderr when one binds)\n"
    "      --kp K, --kd D   gains: one for all or one a velocity coordinate (K1,K2,...)\n"
    "      --reference FILE records of t, qm and optionally um, umdot (JSON or CSV): cubic\n"
    "                       Hermite between them with um, linear without; before the first\n"
    "                       and after the last, that record\n"
    "Ground (compliant contact of the collision shapes' spheres, box corners, capsule ends\n"
    "and cylinder rims with one plane; no self-collision):\n"
    "      --ground [NX,NY,NZ,D]  the plane n.x = D, n out of the ground (default: z = 0\n"
    "                       against gravity, n = -g/|g|, D = 0)\n"
    "      --stiffness K    N/m a contact (default: M |g| / 4 mm, M the model's mass)\n"
    "      --damping C      N s/m a contact (default: 2 sqrt(K m), m the lightest body with\n"
    "                       contacts)\n"
    "      --mu MU          Coulomb friction coefficient (default 1), with stiction\n"
    "      --tangential-stiffness KT, --tangential-damping CT  N/m, N s/m: a contact's\n"
    "                       tangential spring and damper (default K, 2 sqrt(KT m))\n"
    "      --slip V         regularised friction instead, V m/s, no stiction\n"
    "      --contact-forces write contact_forces (n x 3, inertial frame) in every record\n",
    CLI_OPT_FIXED | CLI_OPT_GRAVITY | CLI_OPT_FRICTION | CLI_OPT_SIM | CLI_OPT_LIMITS |
        CLI_OPT_WORLD,
    CLI_READS_VEL | CLI_READS(tau0) | CLI_READS(taum) | CLI_READS_WRENCH | CLI_READS(u0dot) |
        CLI_READS(umdot),
    "t,R0,r0,qm,u0,um,u0dot,umdot,contact_forces", gates};


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
  if (cli_inputs_hold(s, in, t, 1e-9 * s->o.dt, sim->x) < 0) {
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
  const int accel = s->o.accelerations;
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


/* rk4: whether its step is stable at the state for the run's stiff terms (spart_sim_rk4_limit:
   the joints' damping, the controller's gains, the ground at the contacts in it); 0, or -1
   after reporting the time, the cause and the largest stable step (rounded down) */
static int rk4_stable(cli_session *s, spart_sim *sim) {
  const spart_model *m = s->m;
  spart_stiff why;
  double hmax = spart_sim_rk4_limit(m, s->d, sim, s->o.dt, &why);
  if (s->o.dt <= hmax) {
    return 0;
  }
  char bt[32], bh[32], cause[320];
  bt[spu_dtoa(bt, sim->t)] = 0;
  bh[spu_dtoa(bh, s->o.dt)] = 0;
  int i = why.body;
  if (why.cause == SPART_STIFF_DAMPING) {
    snprintf(cause, sizeof cause, "the damping of joint %d '%s'", i, m->jnt_name[i]);
  } else if (why.cause == SPART_STIFF_CONTROL) {
    snprintf(cause, sizeof cause, "the controller's gains (the fastest at joint %d '%s')", i,
             m->jnt_name[i]);
  } else if (why.cause == SPART_STIFF_GROUND) {
    snprintf(cause, sizeof cause, "the ground's stiffness at link %d '%s'", i, m->body_name[i]);
  } else {
    snprintf(cause, sizeof cause, "a mass matrix that is not positive definite");
  }
  double unit = hmax > 0 ? pow(10, floor(log10(hmax)) - 3) : 1;
  cli_fail(s, "t = %s: --dt %s is an unstable step for rk4 with %s: the largest stable step "
           "here is %.4g s (use a smaller --dt, or --integrator dopri5)", bt, bh, cause,
           floor(hmax / unit) * unit);
  return -1;
}


/* the trajectory from the current record; 0, or after reporting -1 (nothing written) or -2
   (the states before the fault written) */
static int run(cli_session *s, spart_sim *sim, cli_inputs *in, cli_world *w, int *out) {
  const cli_opts *o = &s->o;
  const spart_model *m = s->m;
  const cli_state *st = s->st;
  long nstep = spart_sim_grid_steps(o->duration, o->dt), k = 0;
  double tick = now(), start = tick;
  spart_err err = {0};

  spart_state_copy(sim->x, &st->x); /* the state, the forces held */
  sim->t = 0;
  if (hold(s, in, sim, 0) != 0) {
    return -1;
  }
  /* the accelerations at t = 0 (kept for the first step): a model that cannot move is refused
     before anything is written */
  if (spart_sim_accel(m, s->d, sim, &err) != 0) {
    cli_fail(s, "%s", err.msg);
    return -1;
  }
  /* rk4 past its stability diverges (a trajectory of wrong numbers): refused before anything
     is written, and checked again every 64 steps as the inertia changes and at every step that
     brings a new contact with the ground, before its state is written */
  const int rk4 = o->integrator == SPART_SIM_RK4;
  if (rk4 && rk4_stable(s, sim) != 0) {
    return -1;
  }
  if (put_state(s, sim, w) != 0) {
    return -1;
  }
  if (o->check_limits) {
    check_limits(s, sim, out);
  }
  while (k < nstep) {
    long kn = k + o->every < nstep ? k + o->every : nstep;
    double tout = spart_sim_grid_time(o->duration, o->dt, kn, nstep);
    /* rk4: the grid's steps, each with the forces held at its start, the limits after each;
       dopri5: to the next time written or of an input, the limits at the times written */
    for (; rk4 ? k < kn : sim->t < tout; k += rk4) {
      if (hold(s, in, sim, sim->t) != 0) {
        return -2; /* after the first state written */
      }
      double t1 = rk4 ? spart_sim_grid_time(o->duration, o->dt, k + 1, nstep)
                      : fmin(cli_inputs_next(in), tout);
      if (spart_sim_step(m, s->d, sim, t1, &err) != 0) {
        /* the step limit's message names Coulomb friction: the option that smooths it */
        cli_fail(s, "%s%s", err.msg, strstr(err.msg, "Coulomb") ? " (--coulomb-scale V smooths "
                 "it)" : "");
        return -2; /* after the first state written */
      }
      if (o->check_limits && rk4) {
        check_limits(s, sim, out);
      }
      if (rk4 && ((k & 63) == 63 || spart_sim_rk4_contacts(sim)) &&
          rk4_stable(s, sim) != 0) {
        return -2; /* after the first state written */
      }
      if (s->tty && now() > tick + 0.5) { /* progress, also within a long wait for a record */
        tick = now();
        fprintf(stderr, "\r%s: t = %.6g of %g s, %.0f steps/s", tool.name, sim->t, o->duration,
                (double)sim->nstep / (tick - start));
      }
    }
    if (o->integrator != SPART_SIM_RK4) {
      k = kn;
      if (o->check_limits) {
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
  return 0;
}


/* the trajectory of each record in turn (cli_run: with -j N, N at once, each on a session of
   its own), each from a simulation of its own (dopri5's step size, the counts: as if alone) */
static void trajectories(cli_session *s) {
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
    } else if ((!s->o.inputs || (in = cli_inputs_open(s, inputs_text, inputs_len)) != NULL) &&
               (w = cli_world_open(s, reference_text, reference_len)) != NULL) {
      memset(out, 0, (size_t)s->m->nb * sizeof(int));
      sim->method = s->o.integrator;
      sim->flags =
          (s->o.fixed_base ? SPART_FD_FIXED : 0) | (s->o.no_friction ? 0 : SPART_FD_FRICTION);
      sim->gravity = s->gravity;
      sim->rtol = s->o.rtol;
      sim->atol = s->o.atol;
      sim->coulomb_v = s->o.coulomb_v;
      sim->max_steps = s->o.max_steps;
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
  int status;
  cli_session *s = cli_session_start(&tool, argc, argv, &status);
  if (!s) {
    return status;
  }
  if ((s->o.inputs && cli_inputs_read(s, &inputs_text, &inputs_len) != 0) ||
      cli_world_read(s, &reference_text, &reference_len) != 0) {
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
