/* spart-sim -- a robot moved through time from one initial state (forward dynamics integrated) */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static const cli_tool tool = {
    "spart-sim", "[OPTIONS] -m MODEL --duration T < INITIAL_STATE",
    "Simulation: from one initial state record (R0, r0, qm, u0, um; the forces tau0, taum,\n"
    "wF0, wFm held), integrates the forward dynamics of spart-fd and writes the state every K\n"
    "steps from t = 0 to T, and at T.  The base attitude moves by the exponential map: R0 stays\n"
    "a rotation to rounding.\n\n"
    "Outputs: t, R0 (3x3), r0 (3), qm (n_q), u0 (6), um (n_v); with --accelerations u0dot (6),\n"
    "umdot (n_v), those of the state written.\n\n"
    "Options:\n"
    "      --duration T     simulate T seconds (required)\n"
    "      --dt H           the step (rk4) or the output grid (dopri5), s (default 0.001)\n"
    "      --every K        write every K-th step (default 1)\n"
    "      --integrator I   rk4 (fixed step, the default) or dopri5 (Dormand-Prince 5(4),\n"
    "                       adaptive, landing on every output and input time)\n"
    "      --rtol R, --atol A   dopri5's tolerances (default 1e-6, 1e-9)\n"
    "      --inputs FILE    CSV of forces over time: a column t (s, increasing) and any of\n"
    "                       tau0, taum, wF0, wFm (missing ones 0), each row held from its t\n"
    "                       to the next (zero-order hold; rk4 takes the row at each step's\n"
    "                       start); before the first row, the initial record's forces\n"
    "      --accelerations  write u0dot and umdot too\n"
    "      --check-limits   report on stderr each time a joint leaves its limits (exit 1)\n"
    "      --fixed-base     the base does not move (u0 = 0)\n"
    "      --gravity G      gx,gy,gz: adds the weight m*g at every CoM, base included\n"
    "      --no-friction    leave out the joints' viscous and Coulomb friction\n",
    CLI_OPT_FIXED | CLI_OPT_GRAVITY | CLI_OPT_FRICTION | CLI_OPT_SIM | CLI_OPT_LIMITS,
    CLI_READS_VEL | CLI_READS(tau0) | CLI_READS(taum) | CLI_READS_WRENCH,
    "t,R0,r0,qm,u0,um,u0dot,umdot", NULL};


/* the --inputs file: a reader and its next row, not yet applied */
typedef struct {
  FILE *f;
  cli_reader *rd;
  int has;                /* a next row */
  double t;               /* its time */
  const cli_state *row;   /* its forces */
} inputs;


/* seconds on a monotonic clock */
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


/* read the next row of --inputs into in; 0, or -1 after reporting */
static int inputs_next(cli_session *s, inputs *in) {
  spart_err err = {0};
  cli_state *st;
  double t0 = in->t;
  spart_model *m = s->m;
  int r = cli_read(in->rd, &m, &st, &err);
  if (r == 0) {
    in->has = 0;
    return 0;
  }
  if (r < 0) {
    cli_error(tool.name, s->o.inputs, err.line, "%s", err.msg);
    s->status = err.code == SPART_EDATA ? CLI_EXIT_DATA : CLI_EXIT_IO;
    return -1;
  }
  r = cli_reader_pass_number(in->rd, "t", &in->t);
  if (r <= 0) {
    cli_error(tool.name, s->o.inputs, st->line,
              r == 0 ? "no time column 't'" : "t is not a finite number");
    s->status = CLI_EXIT_DATA;
    return -1;
  }
  if (in->has && !(in->t > t0)) {
    cli_error(tool.name, s->o.inputs, st->line, "t = %.17g after t = %.17g: times must increase",
              in->t, t0);
    s->status = CLI_EXIT_DATA;
    return -1;
  }
  in->row = st;
  in->has = 1;
  return 0;
}


/* hold the rows of --inputs whose time has come at time t (within rounding of the step) */
static int inputs_apply(cli_session *s, inputs *in, spart_sim *sim, double t) {
  while (in->rd && in->has && in->t <= t + 1e-9 * s->o.dt) {
    memcpy(sim->tau0, in->row->tau0, sizeof(sim->tau0));
    memcpy(sim->taum, in->row->taum, (size_t)s->m->nv * sizeof(double));
    memcpy(sim->wF, in->row->wF, 6 * (size_t)s->m->nb * sizeof(double));
    if (inputs_next(s, in) != 0) {
      return -1;
    }
  }
  return 0;
}


/* write the state of sim; 0, or -1 after reporting */
static int put_state(cli_session *s, spart_sim *sim, int accel) {
  spart_err err = {0};
  if (accel && spart_sim_accel(s->m, s->d, sim, &err) != 0) {
    cli_fail(s, "%s", err.msg);
    return -1;
  }
  cli_put(s->wr, "t", &sim->t, -1, -1, -1);
  cli_put(s->wr, "R0", sim->R0, 3, 3, -1);
  cli_put(s->wr, "r0", sim->r0, 3, -1, -1);
  const double *qm = sim->qm, *um = sim->um, *umdot = sim->umdot;
  if (s->m->coupled) { /* mimic joints on their leaders: the system's coordinates (spart_mimic.c) */
    double *c = cli_session_buf(s, 0, (size_t)s->m->nqc + 2 * (size_t)s->m->nvc);
    if (!c) {
      return -1;
    }
    spart_mimic_qc(s->m, sim->qm, c);
    spart_mimic_vc(s->m, sim->um, c + s->m->nqc);
    spart_mimic_vc(s->m, sim->umdot, c + s->m->nqc + s->m->nvc);
    qm = c, um = c + s->m->nqc, umdot = um + s->m->nvc;
  }
  cli_put(s->wr, "qm", qm, s->m->nqc, -1, -1);
  cli_put(s->wr, "u0", sim->u0, 6, -1, -1);
  cli_put(s->wr, "um", um, s->m->nvc, -1, -1);
  if (accel) {
    cli_put(s->wr, "u0dot", sim->u0dot, 6, -1, -1);
    cli_put(s->wr, "umdot", umdot, s->m->nvc, -1, -1);
  }
  cli_write(s);
  return s->stop ? -1 : 0;
}


/* --check-limits: report each joint that has left its limits since the last call (out: nb
   flags, the joints outside) */
static void check_limits(cli_session *s, const spart_sim *sim, int *out) {
  const spart_model *m = s->m;
  int i = 0;
  while ((i = spart_sim_outside(m, sim->qm, i + 1)) > 0) {
    if (!out[i]) {
      const double q = sim->qm[m->jnt_qadr[i]], *r = m->jnt_range + 2 * i;
      cli_error(tool.name, NULL, 0, "t = %.17g: joint %d '%s' leaves its limits: qm_%d = %.17g %s",
                sim->t, i, m->jnt_name[i], m->jnt_qadr[i] + 1, q,
                q < r[0] ? "< lower" : "> upper");
      s->status = CLI_EXIT_DATA;
    }
    out[i] = 2; /* outside now */
  }
  for (i = 1; i < m->nb; i++) {
    out[i] = out[i] == 2; /* 1 for those outside now, 0 for those back inside */
  }
}


/* the time of step k of n (--dt), written as a decimal reads: k / (1/H) when 1/H is a whole
   number (k 0.001 = k / 1000, so 1.4 and not 1.4000000000000001), the last one T */
static double step_time(const cli_opts *o, long k, long n) {
  double rate = round(1 / o->dt);
  if (k == n) {
    return o->duration;
  }
  return fabs(rate * o->dt - 1) < 1e-15 ? (double)k / rate : (double)k * o->dt;
}


/* the run from the current record; 0, or -1 after reporting */
static int run(cli_session *s, spart_sim *sim, inputs *in, int *out) {
  const cli_opts *o = &s->o;
  const spart_model *m = s->m;
  const cli_state *st = s->st;
  const int accel = o->accelerations || (o->only && (cli_listed(o->only, "u0dot", 5) ||
                                                     cli_listed(o->only, "umdot", 5)));
  long nstep = (long)ceil(o->duration / o->dt * (1 - 1e-12)), k = 0;
  double tick = now(), start = tick;
  spart_err err = {0};

  memcpy(sim->R0, st->R0, sizeof(sim->R0));
  memcpy(sim->r0, st->r0, sizeof(sim->r0));
  memcpy(sim->u0, st->u0, sizeof(sim->u0));
  memcpy(sim->qm, st->qm, (size_t)m->nq * sizeof(double));
  memcpy(sim->um, st->um, (size_t)m->nv * sizeof(double));
  memcpy(sim->tau0, st->tau0, sizeof(sim->tau0));
  memcpy(sim->taum, st->taum, (size_t)m->nv * sizeof(double));
  memcpy(sim->wF, st->wF, 6 * (size_t)m->nb * sizeof(double));
  sim->t = 0;
  if (inputs_apply(s, in, sim, 0) != 0) {
    return -1;
  }
  /* the accelerations at t = 0 (kept for the first step): a model that cannot move is refused
     before anything is written */
  if (spart_sim_accel(m, s->d, sim, &err) != 0) {
    cli_fail(s, "%s", err.msg);
    return -1;
  }
  if (put_state(s, sim, accel) != 0) {
    return -1;
  }
  if (o->check_limits) {
    check_limits(s, sim, out);
  }
  while (k < nstep) {
    long kn = k + o->every < nstep ? k + o->every : nstep;
    double tout = step_time(o, kn, nstep);
    if (o->integrator == SPART_SIM_RK4) {
      for (; k < kn; k++) {
        double t1 = step_time(o, k + 1, nstep);
        if (inputs_apply(s, in, sim, sim->t) != 0) {
          return -1;
        }
        if (spart_sim_step(m, s->d, sim, t1, &err) != 0) {
          cli_fail(s, "%s", err.msg);
          return -1;
        }
        if (o->check_limits) {
          check_limits(s, sim, out);
        }
      }
    } else {
      while (sim->t < tout) {
        if (inputs_apply(s, in, sim, sim->t) != 0) {
          return -1;
        }
        double t1 = in->has && in->t < tout ? in->t : tout;
        if (spart_sim_step(m, s->d, sim, t1, &err) != 0) {
          cli_fail(s, "%s", err.msg);
          return -1;
        }
      }
      k = kn;
      if (o->check_limits) {
        check_limits(s, sim, out);
      }
    }
    if (put_state(s, sim, accel) != 0) {
      return -1;
    }
    if (s->tty && now() > tick + 0.5) {
      tick = now();
      fprintf(stderr, "\r%s: t = %.6g of %g s, %.0f steps/s", tool.name, sim->t, o->duration,
              (double)sim->nstep / (tick - start));
    }
  }
  if (s->tty && tick > start) {
    fprintf(stderr, "\n");
  }
  return 0;
}


int main(int argc, char **argv) {
  int status;
  cli_session *s = cli_session_start(&tool, argc, argv, &status);
  inputs in = {0};
  spart_sim *sim = NULL;
  int *out = NULL;
  if (!s) {
    return status;
  }
  if (s->o.inputs) {
    in.f = fopen(s->o.inputs, "r");
    if (!in.f) {
      cli_error(tool.name, NULL, 0, "cannot open %s: %s", s->o.inputs, strerror(errno));
      s->status = CLI_EXIT_DATA;
      return cli_session_close(s);
    }
  }
  if (cli_next(s)) {
    const spart_model *m = s->m;
    sim = spart_sim_new(m);
    out = calloc((size_t)m->nb, sizeof(int));
    if (in.f) {
      in.rd = cli_reader_new(in.f, s->o.inputs, CLI_FMT_AUTO, 0,
                             CLI_READS(tau0) | CLI_READS(taum) | CLI_READS_WRENCH);
    }
    if (!sim || !out || (in.f && !in.rd)) {
      cli_error(tool.name, NULL, 0, "out of memory");
      s->status = CLI_EXIT_IO;
    } else {
      sim->method = s->o.integrator;
      sim->flags = (s->o.fixed_base ? SPART_FD_FIXED : 0) |
                   (s->o.no_friction ? 0 : SPART_FD_FRICTION);
      sim->gravity = s->gravity;
      sim->rtol = s->o.rtol;
      sim->atol = s->o.atol;
      if ((!in.rd || inputs_next(s, &in) == 0) && run(s, sim, &in, out) == 0 && cli_next(s)) {
        cli_fail(s, "one initial state only: this is a second record");
      }
    }
  } else if (s->status == CLI_EXIT_OK) {
    cli_error(tool.name, NULL, 0, "no initial state on stdin");
    s->status = CLI_EXIT_DATA;
  }
  cli_reader_free(in.rd);
  if (in.f) {
    fclose(in.f);
  }
  free(out);
  spart_sim_free(sim);
  return cli_session_close(s);
}
