/* spart-ik -- inverse kinematics: the configuration that puts links' points and frames, and the
 * system's CoM, where each record's targets say */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* its own options */
typedef struct ik_opts {
  int restarts, iterations; /* --restarts, --max-iterations */
  uint64_t seed;            /* --seed */
  double tolerance;         /* --tolerance, or 0: the library's */
  int best_effort, root_frame;
  const char *stance;       /* --stance FILE, or NULL */
  cli_stance held;          /* its holds (resolve): their constraints are targets */
} ik_opts;

/* their bits in the gates */
enum { ON_ROOT = CLI_ON_OWN << 0 };


/* --stance needs the model of -m (its links are resolved before the records) */
static int check(const cli_tool *t, void *own, cli_opts *o) {
  const ik_opts *k = own;
  return k->stance ? cli_stance_needs_model(t, "stance", o) : -1;
}


/* --stance: its holds' constraints, once the model is read */
static int resolve(cli_session *s) {
  ik_opts *o = s->o.own;
  return o->stance ? cli_stance_read(s, o->stance, &o->held) : 0;
}


/* R0, r0 are written unless the base is held; --root-frame changes the configuration written
   (the targets it is sought for, the frame of the base's pose), not the errors */
static const cli_gate gates[] = {
    {"R0,r0", 0, CLI_ON_FIXED, 0}, {"qm,R0,r0", 0, 0, ON_ROOT}, {NULL, 0, 0, 0}};


/* the value, a whole number lo..hi, into *x; -1 to go on, or the usage message */
static int whole(const cli_arg *a, unsigned long long lo, unsigned long long hi,
                 unsigned long long *x) {
  char *end;
  errno = 0;
  *x = strtoull(a->value, &end, 10);
  if (a->value[0] < '0' || a->value[0] > '9' || *end || errno || *x < lo || *x > hi) {
    return cli_usage(a->tool->name, "--%s: expected a whole number %s, got '%s'", a->opt->name,
                     a->opt->what, a->value);
  }
  return -1;
}


/* a count lo..1e9 into the int at a->at */
static int count(const cli_arg *a, unsigned long long lo) {
  unsigned long long x;
  int r = whole(a, lo, 1000000000, &x);
  *(int *)a->at = (int)x;
  return r;
}


/* --restarts K (0..1e9), --max-iterations N (1..1e9) */
static int restarts_arg(const cli_arg *a) {
  return count(a, 0);
}


static int iterations_arg(const cli_arg *a) {
  return count(a, 1);
}


/* --seed S: any 64-bit whole number */
static int seed_arg(const cli_arg *a) {
  unsigned long long x;
  int r = whole(a, 0, UINT64_MAX, &x);
  *(uint64_t *)a->at = x;
  return r;
}


#define AT(f) offsetof(ik_opts, f)

static const cli_option options[] = {
    {"restarts", 0, CLI_ARG_ONE, restarts_arg, AT(restarts), 1, 0, "0..1000000000",
     "      --restarts K     random restarts within the joint limits after the first attempt\n"
     "                       (default 50)\n"},
    {"seed", 0, CLI_ARG_ONE, seed_arg, AT(seed), 1, 0, "0..18446744073709551615",
     "      --seed S         the restarts' generator's seed (default 0): each record's restarts\n"
     "                       drawn from it afresh, the same bytes on every machine and -j\n"},
    {"tolerance", 0, CLI_ARG_ONE, cli_opt_positive, AT(tolerance), 1, 0, "a tolerance > 0",
     "      --tolerance T    the largest position (m) and orientation (rad) error of a\n"
     "                       solution (default 1e-10)\n"},
    {"max-iterations", 0, CLI_ARG_ONE, iterations_arg, AT(iterations), 1, 0, "1..1000000000",
     "      --max-iterations N  each attempt's iterations at most (default 100)\n"},
    {"stance", 0, CLI_ARG_ONE, cli_opt_text, AT(stance), 1, 0, NULL,
     "      --stance FILE    add the IK constraints of the stance's holds to every record's\n"
     "                       targets (Klampt's holds; a record may then give none)\n"},
    CLI_FLAG("best-effort", AT(best_effort), 0,
             "      --best-effort    write a record whose targets are not met too, with its best\n"
             "                       configuration and ik_error (exit 0)\n"),
    CLI_FLAG("root-frame", AT(root_frame), ON_ROOT,
             "      --root-frame     targets, and the base pose written, in the URDF root\n"
             "                       link's frame at the record's base pose (tf's), not in the\n"
             "                       inertial one\n"),
    CLI_SHARED("fixed-base", "      --fixed-base     hold the base at the record's R0, r0: only qm "
                             "is sought and written\n"),
    CLI_SHARED("floating-base", NULL),
    CLI_END};

#undef AT

static const cli_tool tool = {
    .name = "spart-ik",
    .synopsis = "[OPTIONS] [-m MODEL] < RECORDS",
    .help =
        "Inverse kinematics (damped least squares, Levenberg-Marquardt, with the joint limits\n"
        "kept and random restarts within them).  Each record carries \"targets\": [{\"link\":\n"
        "NAME or ID, \"point\": [x,y,z] (the link's URDF frame; default its origin),\n"
        "\"position\": [x,y,z] (inertial), \"R\": 3x3 or \"quat\": [w,x,y,z] (the link frame's\n"
        "orientation; optional), \"weight\": W (optional)}, {\"com\": [x,y,z]}, {\"com_xy\":\n"
        "[x,y]}, ...], each with \"frame\": \"root\" to give it in the URDF root link's frame\n"
        "(optional); its qm (R0, r0) the first guess: without qm, the middle of each joint's\n"
        "limits (0 without limits).  JSON input (CSV output too).\n\n"
        "Outputs: qm, and R0, r0 unless the base is held (--fixed-base), that meet the targets\n"
        "within --tolerance, every joint within its limits; ik_error [position m, orientation\n"
        "rad], the largest over the targets.  A record whose targets are not met is a bad\n"
        "record (the error reached said), unless --best-effort.\n\n",
    .options = options,
    .reads = CLI_READS_POSE | CLI_READS_TARGETS | CLI_QM_OPTIONAL,
    .outputs = "qm,R0,r0,ik_error",
    .gates = gates,
    .check = check,
    .resolve = resolve};


/* the record's targets (none with --stance but the holds') and the stance's holds after them
   into *t (grown, *cap), *nt of them; 0, or -1 after reporting */
static int targets(cli_session *s, spart_ik_target **t, int *cap, int *nt) {
  const ik_opts *o = s->o.own;
  const cli_stance *h = &o->held;
  *nt = 0;
  if ((s->st->targets || !o->stance) && cli_targets(s, t, cap, nt) != 0) {
    return -1;
  }
  if (*nt + h->nhold > *cap) {
    spart_ik_target *g = realloc(*t, sizeof(**t) * (size_t)(*nt + h->nhold));
    if (!g) {
      cli_fail(s, "out of memory");
      return -1;
    }
    *t = g, *cap = *nt + h->nhold;
  }
  if (h->nhold > 0) {
    memcpy(*t + *nt, h->hold, sizeof(**t) * (size_t)h->nhold);
  }
  *nt += h->nhold;
  if (*nt == 0) {
    cli_fail(s, "no targets: the record gives none and the stance has no holds");
    return -1;
  }
  return 0;
}


/* the records of the input (or of a block of it, with -j) */
static void records(cli_session *s) {
  const ik_opts *o = s->o.own;
  spart_ik_target *t = NULL;
  int cap = 0, nt;
  while (cli_next(s)) {
    spart_state *x = &s->st->x;
    double *sys = NULL, *work;
    spart_err err = {0};
    if (targets(s, &t, &cap, &nt) != 0 ||
        !(work = cli_session_buf(s, 0, spart_ik_worksize(s->m, nt))) ||
        (s->m->coupled &&
         !(sys = cli_session_buf(s, 1, (size_t)s->m->nqc + 3 * (size_t)s->m->nvc)))) {
      continue;
    }
    spart_ik_problem p = {.nt = nt,
                          .t = t,
                          .fixed_base = s->o.fixed_base,
                          .root_frame = o->root_frame,
                          .from_middle = !(s->st->has & CLI_READS(qm)),
                          .tolerance = o->tolerance,
                          .max_iterations = o->iterations,
                          .restarts = o->restarts,
                          .seed = o->seed,
                          .work = work};
    int r = spart_ik(s->m, s->d, x, &p, &err);
    if (r < 0) {
      cli_fail(s, "%s", err.msg);
      continue;
    }
    if (r == 0 && !o->best_effort) {
      cli_fail(s, "targets not met: error %.3g m, %.3g rad (tolerance %g) after %d attempts",
               p.err[0], p.err[1], p.tolerance, p.attempts);
      continue;
    }
    cli_put_state(s->wr, s->m, x,
                  CLI_READS(qm) | (s->o.fixed_base ? 0 : CLI_READS(R0) | CLI_READS(r0)), sys);
    cli_put(s->wr, "ik_error", p.err, 2, -1, -1);
    cli_write(s);
  }
  free(t);
}


int main(int argc, char **argv) {
  ik_opts o = {.restarts = SPART_IK_RESTARTS, .iterations = SPART_IK_ITERATIONS};
  int status;
  cli_session *s = cli_session_start(&tool, &o, argc, argv, &status);
  if (!s) {
    cli_stance_free(&o.held);
    return status;
  }
  status = cli_run(s, records, 0);
  cli_stance_free(&o.held);
  return status;
}
