/* options.c -- the commands' options: one getopt_long table for every command, --help, and the
 * values of --gravity, --point, --only, -i and -o */
#include <errno.h>
#include <float.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "records.h"


int cli_bad_option(const char *prog, int c, char **argv) {
  if (c == ':') {
    return cli_usage(prog, "option '%s' needs a value", argv[optind - 1]);
  }
  if (optopt && optopt < 256 && argv[optind - 1][1] != '-') {
    return cli_usage(prog, "unknown option '-%c'", optopt);
  }
  return cli_usage(prog, "unknown option '%s'", argv[optind - 1]);
}


int cli_vec(const char *s, double *v, int n) {
  const char *p = s;
  for (int k = 0; k < n; k++) {
    char *end;
    errno = 0;
    v[k] = strtod(p, &end);
    if (end == p || errno == ERANGE || !isfinite(v[k])) {
      return -1;
    }
    if (k < n - 1 && *end != ',') {
      return -1;
    }
    p = end + (k < n - 1);
  }
  return *p == '\0' ? 0 : -1;
}


const char *cli_not_finite(const char *arg) {
  for (const char *p = arg; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
    char *end;
    double x = strtod(p, &end);
    if (end != p && !(fabs(x) <= DBL_MAX)) {
      return strchr(arg, ',') ? "has a number that is not finite" : "is not a finite number";
    }
  }
  return NULL;
}


int cli_bad_number(const char *prog, const char *opt, const char *what, const char *arg) {
  const char *why = cli_not_finite(arg);
  return why ? cli_usage(prog, "%s: '%s' %s", opt, arg, why)
             : cli_usage(prog, "%s: expected %s, got '%s'", opt, what, arg);
}


/* ---- options ---- */

enum {
  OPT_CSV = 256,
  OPT_SEQ,
  OPT_FIXED,
  OPT_FLOATING_BASE,
  OPT_GRAVITY,
  OPT_FLOATING,
  OPT_POINT,
  OPT_DOT,
  OPT_NOC,
  OPT_CORIOLIS,
  OPT_INVERSE,
  OPT_NO_FRICTION,
  OPT_ONLY,
  OPT_EDGES,
  OPT_MAX_TORQUE,
  OPT_DURATION,
  OPT_DT,
  OPT_EVERY,
  OPT_INTEGRATOR,
  OPT_RTOL,
  OPT_ATOL,
  OPT_INPUTS,
  OPT_ACCEL,
  OPT_COULOMB_V,
  OPT_MAX_STEPS,
  OPT_FRAME,
  OPT_ATTITUDE,
  OPT_DIFFKIN,
  OPT_INERTIA,
  OPT_MCB,
  OPT_COM,
  OPT_MOMENTUM,
  OPT_ENERGY,
  OPT_CHECK_LIMITS,
  OPT_KEEP_STATE,
  OPT_BY_NAME,
  OPT_JOBS,
  OPT_MIMIC,
  OPT_CONTROL, /* spart-sim's world (world.c), in cli_world_arg's order */
  OPT_KP,
  OPT_KD,
  OPT_REFERENCE,
  OPT_GROUND,
  OPT_MU,
  OPT_STIFFNESS,
  OPT_DAMPING,
  OPT_SLIP,
  OPT_TSTIFFNESS,
  OPT_TDAMPING,
  OPT_CONTACT_FORCES,
  OPT_WRENCHES,
  OPT_CENTROIDAL,
  OPT_JAC_REFERENCE
};

static const struct {
  struct option opt;
  unsigned need; /* CLI_OPT_* the tool must take, 0 for every tool */
} options[] = {
    {{"model", required_argument, NULL, 'm'}, 0},
    {{"mimic", no_argument, NULL, OPT_MIMIC}, 0},
    {{"input", required_argument, NULL, 'i'}, 0},
    {{"csv", no_argument, NULL, OPT_CSV}, 0},
    {{"output", required_argument, NULL, 'o'}, 0},
    {{"seq", no_argument, NULL, OPT_SEQ}, 0},
    {{"unbuffered", no_argument, NULL, 'u'}, 0},
    {{"keep-going", no_argument, NULL, 'k'}, 0},
    {{"only", required_argument, NULL, OPT_ONLY}, 0},
    {{"keep-state", no_argument, NULL, OPT_KEEP_STATE}, 0},
    {{"by-name", no_argument, NULL, OPT_BY_NAME}, 0},
    {{"jobs", required_argument, NULL, 'j'}, 0},
    {{"help", no_argument, NULL, 'h'}, 0},
    {{"version", no_argument, NULL, 'V'}, 0},
    {{"fixed-base", no_argument, NULL, OPT_FIXED}, CLI_OPT_FIXED},
    {{"floating-base", no_argument, NULL, OPT_FLOATING_BASE}, CLI_OPT_FIXED},
    {{"gravity", required_argument, NULL, OPT_GRAVITY}, CLI_OPT_GRAVITY},
    {{"floating", no_argument, NULL, OPT_FLOATING}, CLI_OPT_FLOATING},
    {{"link", required_argument, NULL, 'l'}, CLI_OPT_LINK},
    {{"point", required_argument, NULL, OPT_POINT}, CLI_OPT_LINK},
    {{"dot", no_argument, NULL, OPT_DOT}, CLI_OPT_LINK},
    {{"noc", no_argument, NULL, OPT_NOC}, CLI_OPT_LINK},
    {{"coriolis", no_argument, NULL, OPT_CORIOLIS}, CLI_OPT_GIM},
    {{"inverse", no_argument, NULL, OPT_INVERSE}, CLI_OPT_GIM},
    {{"no-friction", no_argument, NULL, OPT_NO_FRICTION}, CLI_OPT_FRICTION},
    {{"edges", required_argument, NULL, OPT_EDGES}, CLI_OPT_CONTACT},
    {{"max-torque", required_argument, NULL, OPT_MAX_TORQUE}, CLI_OPT_CONTACT},
    {{"duration", required_argument, NULL, OPT_DURATION}, CLI_OPT_SIM},
    {{"dt", required_argument, NULL, OPT_DT}, CLI_OPT_SIM},
    {{"every", required_argument, NULL, OPT_EVERY}, CLI_OPT_SIM},
    {{"integrator", required_argument, NULL, OPT_INTEGRATOR}, CLI_OPT_SIM},
    {{"rtol", required_argument, NULL, OPT_RTOL}, CLI_OPT_SIM},
    {{"atol", required_argument, NULL, OPT_ATOL}, CLI_OPT_SIM},
    {{"inputs", required_argument, NULL, OPT_INPUTS}, CLI_OPT_SIM},
    {{"accelerations", no_argument, NULL, OPT_ACCEL}, CLI_OPT_SIM},
    {{"coulomb-scale", required_argument, NULL, OPT_COULOMB_V}, CLI_OPT_SIM},
    {{"max-steps", required_argument, NULL, OPT_MAX_STEPS}, CLI_OPT_SIM},
    {{"frame", required_argument, NULL, OPT_FRAME}, CLI_OPT_KIN},
    {{"attitude", required_argument, NULL, OPT_ATTITUDE}, CLI_OPT_KIN},
    {{"diffkin", no_argument, NULL, OPT_DIFFKIN}, CLI_OPT_KIN},
    {{"inertia", no_argument, NULL, OPT_INERTIA}, CLI_OPT_KIN},
    {{"mcb", no_argument, NULL, OPT_MCB}, CLI_OPT_KIN},
    {{"momentum", no_argument, NULL, OPT_MOMENTUM}, CLI_OPT_KIN},
    {{"energy", no_argument, NULL, OPT_ENERGY}, CLI_OPT_KIN},
    {{"com", no_argument, NULL, OPT_COM}, CLI_OPT_COM},
    {{"check-limits", no_argument, NULL, OPT_CHECK_LIMITS}, CLI_OPT_LIMITS},
    {{"control", required_argument, NULL, OPT_CONTROL}, CLI_OPT_WORLD},
    {{"kp", required_argument, NULL, OPT_KP}, CLI_OPT_WORLD},
    {{"kd", required_argument, NULL, OPT_KD}, CLI_OPT_WORLD},
    {{"reference", required_argument, NULL, OPT_REFERENCE}, CLI_OPT_WORLD},
    {{"ground", optional_argument, NULL, OPT_GROUND}, CLI_OPT_WORLD},
    {{"mu", required_argument, NULL, OPT_MU}, CLI_OPT_WORLD},
    {{"stiffness", required_argument, NULL, OPT_STIFFNESS}, CLI_OPT_WORLD},
    {{"damping", required_argument, NULL, OPT_DAMPING}, CLI_OPT_WORLD},
    {{"slip", required_argument, NULL, OPT_SLIP}, CLI_OPT_WORLD},
    {{"tangential-stiffness", required_argument, NULL, OPT_TSTIFFNESS}, CLI_OPT_WORLD},
    {{"tangential-damping", required_argument, NULL, OPT_TDAMPING}, CLI_OPT_WORLD},
    {{"contact-forces", no_argument, NULL, OPT_CONTACT_FORCES}, CLI_OPT_WORLD},
    {{"joint-wrenches", no_argument, NULL, OPT_WRENCHES}, CLI_OPT_WRENCHES},
    {{"centroidal", no_argument, NULL, OPT_CENTROIDAL}, CLI_OPT_LINK},
    {{"reference", required_argument, NULL, OPT_JAC_REFERENCE}, CLI_OPT_LINK},
};
#define NOPTIONS ((int)(sizeof(options) / sizeof(options[0])))


/* whether the tool writes a joint vector (qm, um, umdot, taum): --by-name names its values */
static int joint_outputs(const cli_tool *t) {
  return t->outputs && (cli_listed(t->outputs, "qm", 2) || cli_listed(t->outputs, "um", 2) ||
                        cli_listed(t->outputs, "umdot", 5) || cli_listed(t->outputs, "taum", 4));
}


static void help(const cli_tool *t) {
  printf("Usage: %s %s\n\n%s\n", t->name, t->synopsis, t->help);
  printf(
      "The records come from the FILEs in order (\"-\": standard input), or standard input.\n\n"
      "Common options:\n"
      "  -m, --model FILE     the model: a .urdf, a model JSON (urdf2robot) or a DH\n"
      "                       description (dh2robot); without it, the first record holds\n"
      "                       it: {\"robot\": MODEL, STATE...}\n"
      "      --mimic          couple the model's mimic joints to their leaders (urdf2robot\n"
      "                       --mimic): qm, um, umdot, taum and the matrices are the system's\n");
  if (t->opts & CLI_OPT_CONTACT) { /* contacts and the outputs' shapes vary: JSON only */
    printf("  -i, --input FORMAT   json, the only one (contacts are JSON)\n"
           "  -o, --output FORMAT  json (one object a line), the only one\n");
  } else {
    printf("  -i, --input FORMAT   json or csv (default: json when the first line that is not\n"
           "                       blank starts with '{', '[' or RS, else csv)\n"
           "      --csv            same as --input csv\n"
           "  -o, --output FORMAT  json (one object a line) or csv; default: the input's format\n");
  }
  printf(
      "      --seq            JSON records as RFC 7464 text sequences (JSON output)\n"
      "  -u, --unbuffered     flush the output after every record\n"
      "  -k, --keep-going     report bad records, skip them, go on (exit 1 at the end)\n"

      "      --keep-state     the state fields read pass through too, so that the next\n"
      "                       command of a pipeline has the state (CSV to CSV, JSON to JSON);\n"
      "                       not those the command writes itself, even left out by --only\n");
  if (joint_outputs(t)) {
    printf("      --by-name        write qm, um, umdot, taum keyed by joint name: JSON objects,\n"
           "                       CSV columns taum.JOINT (spart-records(5))\n");
  }
  printf("  -j, --jobs N         compute with N threads (0: one a CPU; default 1), the output\n"
         "                       and the messages the same as with one\n");
  if (t->outputs) {
    printf("      --only NAMES     write only the outputs named (comma-separated) of:\n"
           "                       %s\n",
           t->outputs);
  }
  if (t->opts & CLI_OPT_FIXED) {
    printf("      --floating-base  the base is free though the model says it is fixed (a URDF\n"
           "                       whose root is a link named world with a fixed joint, or\n"
           "                       \"fixed_base\" in a model JSON: read as with --fixed-base)\n");
  }
  if (t->opts & CLI_OPT_GRAVITY) {
    printf("  (no --gravity)       the model's \"gravity\" if it has one (urdf2robot --gravity),\n"
           "                       else none\n");
  }
  printf(
      "  -h, --help           show this help\n"
      "  -V, --version        show the version\n\n"
      "State fields (JSON keys, CSV column prefixes such as qm_1, R0_1_2, wFm_2_6): R0 r0 qm\n"
      "u0 um u0dot umdot tau0 taum wF0 wFm; SI units, radians, angular parts first.  Every\n"
      "field of a record, state or the user's own (a time stamp), passes through to its\n"
      "output, the outputs after them (a field an output names is written as in_NAME), so\n"
      "that commands chain.  A record must give a field this command reads, and qm when the\n"
      "model has joints (never defaulted); a name like one that is not (QM_1, qm1, qm_0) or\n"
      "another toolkit's (q, qd, qdd, tau, position...) is an error.  Joint vectors may be\n"
      "keyed by joint name ({\"qm\": {\"JOINT\": 0.1, ...}}, CSV qm.JOINT).  A JSON array of\n"
      "records, quoted cells, tab- or ';'-separated files and '#' lines before the header are\n"
      "read: spart-records(5).\n"
      "Exit status: 0 ok, 1 bad input, 2 bad usage, 3 I/O error%s.  See %s(1).\n",
      (t->opts & CLI_OPT_LIMITS) ? ", 4 a record left the joint\nlimits (--check-limits)" : "",
      t->name);
}


/* --only NAMES: every name one of the tool's outputs; 0, or CLI_EXIT_USAGE after the message */
static int only_arg(const cli_tool *t, const char *s) {
  for (const char *p = s;; p++) {
    size_t n = strcspn(p, ",");
    if (n == 0 || !cli_listed(t->outputs, p, n)) {
      return cli_usage(t->name, "--only: '%.*s' is not an output of %s (%s)", (int)n, p,
                             t->name, t->outputs);
    }
    p += n;
    if (*p == 0) {
      return 0;
    }
  }
}


/* --attitude FORMS: matrix, quat, rpy, comma-separated, into CLI_ATT_* bits; 0 or -1 */
static int attitude_arg(const char *s, int *bits) {
  static const char *const name[3] = {"matrix", "quat", "rpy"};
  *bits = 0;
  for (const char *p = s;; p++) {
    size_t n = strcspn(p, ",");
    int k = 0;
    while (k < 3 && !(strlen(name[k]) == n && strncmp(p, name[k], n) == 0)) {
      k++;
    }
    if (k == 3) {
      return -1;
    }
    *bits |= 1 << k;
    p += n;
    if (*p == 0) {
      return 0;
    }
  }
}


static int format_arg(const char *s, int *fmt) {
  if (strcmp(s, "json") == 0) {
    *fmt = CLI_FMT_JSON;
  } else if (strcmp(s, "csv") == 0) {
    *fmt = CLI_FMT_CSV;
  } else {
    return -1;
  }
  return 0;
}


/* a positive finite number, the whole of s; 0 or -1 */
static int positive_arg(const char *s, double *v) {
  return cli_vec(s, v, 1) == 0 && *v > 0 ? 0 : -1;
}


/* spart-jac's --reference world|local|aligned (SPART_REF_*); -1 to go on, or CLI_EXIT_USAGE
   after the message */
static int reference_arg(cli_opts *o, const cli_tool *t, const char *arg) {
  static const char *const name[3] = {"aligned", "local", "world"};
  for (int k = 0; k < 3; k++) {
    if (strcmp(arg, name[k]) == 0) {
      o->reference = k;
      return -1;
    }
  }
  return cli_usage(t->name, "--reference: expected world, local or aligned, got '%s'", arg);
}


/* spart-sim's options; -1 to go on, or CLI_EXIT_USAGE after the message */
static int sim_arg(cli_opts *o, const cli_tool *t, int c, const char *arg) {
  char *end;
  switch (c) {
    case OPT_DURATION:
      return positive_arg(arg, &o->duration) == 0
                 ? -1
                 : cli_bad_number(t->name, "--duration", "a time > 0 in s", arg);
    case OPT_DT:
      return positive_arg(arg, &o->dt) == 0
                 ? -1
                 : cli_bad_number(t->name, "--dt", "a step > 0 in s", arg);
    case OPT_RTOL:
      return positive_arg(arg, &o->rtol) == 0
                 ? -1
                 : cli_bad_number(t->name, "--rtol", "a tolerance > 0", arg);
    case OPT_ATOL:
      return positive_arg(arg, &o->atol) == 0
                 ? -1
                 : cli_bad_number(t->name, "--atol", "a tolerance > 0", arg);
    case OPT_EVERY:
      errno = 0;
      o->every = strtol(arg, &end, 10);
      return *arg >= '0' && *arg <= '9' && *end == 0 && errno == 0 && o->every >= 1
                 ? -1
                 : cli_usage(t->name, "--every: expected a whole number >= 1, got '%s'", arg);
    case OPT_INTEGRATOR:
      if (strcmp(arg, "rk4") == 0) {
        o->integrator = SPART_SIM_RK4;
      } else if (strcmp(arg, "dopri5") == 0) {
        o->integrator = SPART_SIM_DOPRI5;
      } else {
        return cli_usage(t->name, "--integrator: expected rk4 or dopri5, got '%s'", arg);
      }
      return -1;
    case OPT_INPUTS: o->inputs = arg; return -1;
    case OPT_COULOMB_V:
      return positive_arg(arg, &o->coulomb_v) == 0
                 ? -1
                 : cli_bad_number(t->name, "--coulomb-scale", "a velocity > 0", arg);
    case OPT_MAX_STEPS:
      errno = 0;
      o->max_steps = strtol(arg, &end, 10);
      return *arg >= '0' && *arg <= '9' && *end == 0 && errno == 0 && o->max_steps >= 0
                 ? -1
                 : cli_usage(t->name, "--max-steps: expected a whole number >= 0, got '%s'", arg);
    default: o->accelerations = 1; return -1; /* OPT_ACCEL */
  }
}


/* spart-sim's options together; -1 to go on, or CLI_EXIT_USAGE after the message */
static int sim_check(cli_opts *o, const cli_tool *t) {
  if (!(t->opts & CLI_OPT_SIM)) {
    return -1;
  }
  if (o->duration == 0) {
    return cli_usage(t->name, "--duration T is required");
  }
  if (o->keep_state && o->inputs) {
    return cli_usage(t->name, "--keep-state with --inputs: the initial record's forces, kept, "
                     "are not those held from the inputs");
  }
  if ((o->rtol > 0 || o->atol > 0 || o->max_steps >= 0) && o->integrator != SPART_SIM_DOPRI5) {
    return cli_usage(t->name, "--rtol, --atol and --max-steps are dopri5's: add --integrator "
                     "dopri5");
  }
  o->max_steps = o->max_steps >= 0 ? o->max_steps : 100000;
  o->dt = o->dt > 0 ? o->dt : 1e-3;
  o->every = o->every > 0 ? o->every : 1;
  o->rtol = o->rtol > 0 ? o->rtol : 1e-6;
  o->atol = o->atol > 0 ? o->atol : 1e-9;
  if (o->duration / o->dt > 1e15) {
    return cli_usage(t->name, "--duration %g with --dt %g: more than 1e15 steps", o->duration,
                     o->dt);
  }
  return (t->opts & CLI_OPT_WORLD) ? cli_world_check(o, t->name) : -1;
}


/* the options of the gates that o gives, CLI_ON_* */
static unsigned gate_bits(const cli_opts *o) {
  return (o->fixed_base ? CLI_ON_FIXED : 0) | (o->floating ? CLI_ON_FLOATING : 0) |
         (o->link ? CLI_ON_LINK : 0) | (o->has_point ? CLI_ON_POINT : 0) |
         (o->dot ? CLI_ON_DOT : 0) | (o->noc ? CLI_ON_NOC : 0) |
         (o->coriolis ? CLI_ON_CORIOLIS : 0) | (o->has_gravity ? CLI_ON_GRAVITY : 0) |
         (o->inverse ? CLI_ON_INVERSE : 0) | (o->com ? CLI_ON_COM : 0) |
         (o->frame ? CLI_ON_FRAME : 0) | (o->diffkin ? CLI_ON_DIFFKIN : 0) |
         (o->inertia ? CLI_ON_INERTIA : 0) | (o->mcb ? CLI_ON_MCB : 0) |
         (o->momentum ? CLI_ON_MOMENTUM : 0) | (o->energy ? CLI_ON_ENERGY : 0) |
         (o->accelerations ? CLI_ON_ACCELERATIONS : 0) |
         (o->joint_wrenches ? CLI_ON_WRENCHES : 0) |
         (o->centroidal ? CLI_ON_CENTROIDAL : 0) |
         (o->reference >= 0 ? CLI_ON_REFERENCE : 0);
}


static const char *const gate_names[] = {"--fixed-base", "--floating", "--link",
                                         "--point",      "--dot",      "--noc",
                                         "--coriolis",   "--gravity",  "--inverse",
                                         "--com",        "--frame",    "--diffkin",
                                         "--inertia",    "--mcb",      "--momentum",
                                         "--energy",     "--accelerations",
                                         "--joint-wrenches", "--centroidal",
                                         "--reference"};


/* the name of the lowest bit of b */
static const char *gate_name(unsigned b) {
  int k = 0;
  while (!(b & 1u << k)) {
    k++;
  }
  return gate_names[k];
}


/* whether output name (n bytes) is written with the options on; *why: the gate that keeps it
   out */
static int gate_open(const cli_tool *t, unsigned on, const char *name, size_t n,
                     const cli_gate **why) {
  for (const cli_gate *g = t->gates; g && g->outputs; g++) {
    if ((g->when || g->unless) && cli_listed(g->outputs, name, n) &&
        ((g->when & on) != g->when || (g->unless & on))) {
      *why = g;
      return 0;
    }
  }
  return 1;
}


/* an output --only names that the options do not write, an option that changes no output
   written: a usage error; 0 when there is none */
int cli_gates_check(const cli_opts *given, const cli_opts *o, const cli_tool *t) {
  unsigned on = gate_bits(o), asked = gate_bits(given);
  const cli_gate *why = NULL;
  for (const char *p = o->only; p && *p; p += *p == ',') {
    size_t n = strcspn(p, ",");
    if (!gate_open(t, on, p, n, &why)) {
      unsigned need = why->when & ~on;
      return cli_usage(t->name, "--only %.*s: %s writes it only %s %s", (int)n, p, t->name,
                       need ? "with" : "without", gate_name(need ? need : why->unless & on));
    }
    p += n;
  }
  for (const cli_gate *g = t->gates; g && g->outputs; g++) {
    if (!g->opt || !(g->opt & on & asked)) { /* an option given, not the model's */
      continue;
    }
    /* the outputs it changes: is one of them written? */
    int some = 0, kept = 0;
    const cli_gate *first = NULL;
    for (const char *p = g->outputs; *p; p += *p == ',') {
      size_t n = strcspn(p, ",");
      const cli_gate *w = NULL;
      if (gate_open(t, on, p, n, &w)) {
        some = 1;
        kept |= !o->only || cli_listed(o->only, p, n);
      } else if (!first) {
        first = w;
      }
      p += n;
    }
    if (!some && first) {
      unsigned need = first->when & ~on;
      return cli_usage(t->name, "%s does nothing %s %s", gate_name(g->opt),
                       need ? "without" : "with", gate_name(need ? need : first->unless & on));
    }
    if (!kept) {
      return cli_usage(t->name, "%s does nothing with --only %s: it changes only %s",
                       gate_name(g->opt), o->only, g->outputs);
    }
  }
  return 0;
}


/* an option that takes a value given a second time: a usage error (the first would do
   nothing); 0 when not */
static int twice(const cli_tool *t, const char *name, int *count) {
  return ++*count > 1 ? cli_usage(t->name, "%s given twice", name) : 0;
}


int cli_parse(cli_opts *o, const cli_tool *t, int argc, char **argv) {
  struct option longopts[NOPTIONS + 1];
  int n = 0, nm = 0, ni = 0, no = 0, nl = 0, np = 0, ng = 0;
  memset(o, 0, sizeof(*o));
  o->jobs = 1;
  o->reference = -1;
  o->max_steps = -1;
  o->edges = SPART_CONTACT_EDGES;
  for (int k = 0; k < NOPTIONS; k++) {
    if ((options[k].need & t->opts) == options[k].need &&
        (options[k].opt.val != OPT_ONLY || t->outputs)) {
      longopts[n++] = options[k].opt;
    }
  }
  memset(&longopts[n], 0, sizeof(longopts[n]));
  /* ':' first: a missing value is told from an unknown option */
  const char *shortopts = (t->opts & CLI_OPT_LINK) ? "+:m:i:o:ukhVj:l:" : "+:m:i:o:ukhVj:";

  opterr = 0;
  optind = 1;
  for (int c; (c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1;) {
    switch (c) {
      case 'm':
        if (twice(t, "--model", &nm)) {
          return CLI_EXIT_USAGE;
        }
        o->model = optarg;
        break;
      case 'i':
      case OPT_CSV: {
        int fmt = CLI_FMT_CSV;
        if (c == 'i' && format_arg(optarg, &fmt) != 0) {
          return cli_usage(t->name, "--input: expected json or csv, got '%s'", optarg);
        }
        if (ni++ && fmt != o->input) {
          return cli_usage(t->name, "--input: json and csv both given");
        }
        o->input = fmt;
        break;
      }
      case 'o':
        if (twice(t, "--output", &no)) {
          return CLI_EXIT_USAGE;
        }
        if (format_arg(optarg, &o->output) != 0) {
          return cli_usage(t->name, "--output: expected json or csv, got '%s'", optarg);
        }
        break;
      case OPT_SEQ: o->seq = 1; break;
      case 'u': o->unbuffered = 1; break;
      case 'k': o->keep_going = 1; break;
      case OPT_MIMIC: o->mimic = 1; break;
      case OPT_KEEP_STATE: o->keep_state = 1; break;
      case OPT_BY_NAME: o->by_name = 1; break;
      case 'j': {
        char *end;
        errno = 0;
        long j = strtol(optarg, &end, 10);
        if (!(*optarg >= '0' && *optarg <= '9') || *end || errno || j > CLI_MAX_JOBS) {
          return cli_usage(t->name, "--jobs: expected a whole number 0..%d, got '%s'",
                           CLI_MAX_JOBS, optarg);
        }
        o->jobs = (int)j;
        if (j == 0) { /* one thread a CPU online */
          long cpus = sysconf(_SC_NPROCESSORS_ONLN);
          o->jobs = cpus < 1 ? 1 : cpus > CLI_MAX_JOBS ? CLI_MAX_JOBS : (int)cpus;
        }
        break;
      }
      case OPT_ONLY:
        if (o->only) {
          return cli_usage(t->name, "--only: give all the names in one list (a,b)");
        }
        if (only_arg(t, optarg) != 0) {
          return CLI_EXIT_USAGE;
        }
        o->only = optarg;
        break;
      case 'h': help(t); return cli_finish(t->name, CLI_EXIT_OK);
      case 'V': return cli_version(t->name);
      case OPT_FIXED: o->fixed_base = 1; break;
      case OPT_FLOATING_BASE: o->floating_base = 1; break;
      case OPT_GRAVITY:
        if (twice(t, "--gravity", &ng)) {
          return CLI_EXIT_USAGE;
        }
        if (cli_vec(optarg, o->gravity, 3) != 0) {
          return cli_bad_number(t->name, "--gravity", "gx,gy,gz", optarg);
        }
        o->has_gravity = 1;
        break;
      case OPT_FLOATING: o->floating = 1; break;
      case 'l':
        if (twice(t, "--link", &nl)) {
          return CLI_EXIT_USAGE;
        }
        o->link = optarg;
        break;
      case OPT_POINT:
        if (twice(t, "--point", &np)) {
          return CLI_EXIT_USAGE;
        }
        if (cli_vec(optarg, o->point, 3) != 0) {
          return cli_usage(t->name, "--point: expected x,y,z, got '%s'", optarg);
        }
        o->has_point = 1;
        break;
      case OPT_DOT: o->dot = 1; break;
      case OPT_NOC: o->noc = 1; break;
      case OPT_CORIOLIS: o->coriolis = 1; break;
      case OPT_INVERSE: o->inverse = 1; break;
      case OPT_NO_FRICTION: o->no_friction = 1; break;
      case OPT_WRENCHES: o->joint_wrenches = 1; break;
      case OPT_CENTROIDAL: o->centroidal = 1; break;
      case OPT_JAC_REFERENCE:
        if (reference_arg(o, t, optarg) >= 0) {
          return CLI_EXIT_USAGE;
        }
        break;
      case OPT_EDGES: {
        double k;
        if (cli_vec(optarg, &k, 1) != 0 || k != floor(k) || k < 3 || k > SPART_CONTACT_MAXEDGES) {
          return cli_usage(t->name, "--edges: expected a whole number 3..%d, got '%s'",
                           SPART_CONTACT_MAXEDGES, optarg);
        }
        o->edges = (int)k;
        break;
      }
      case OPT_MAX_TORQUE:
        if (cli_vec(optarg, &o->max_torque, 1) != 0 || !(o->max_torque > 0)) {
          return cli_usage(t->name, "--max-torque: expected a number > 0, got '%s'", optarg);
        }
        break;
      case OPT_DURATION:
      case OPT_DT:
      case OPT_EVERY:
      case OPT_INTEGRATOR:
      case OPT_RTOL:
      case OPT_ATOL:
      case OPT_INPUTS:
      case OPT_COULOMB_V:
      case OPT_MAX_STEPS:
      case OPT_ACCEL: {
        int r = sim_arg(o, t, c, optarg);
        if (r >= 0) {
          return r;
        }
        break;
      }
      case OPT_CONTROL:
      case OPT_KP:
      case OPT_KD:
      case OPT_REFERENCE:
      case OPT_GROUND:
      case OPT_MU:
      case OPT_STIFFNESS:
      case OPT_DAMPING:
      case OPT_SLIP:
      case OPT_TSTIFFNESS:
      case OPT_TDAMPING:
      case OPT_CONTACT_FORCES: {
        int r = cli_world_arg(&o->world, t->name, c - OPT_CONTROL, optarg, argc, argv);
        if (r >= 0) {
          return r;
        }
        break;
      }
      case OPT_FRAME:
        if (o->frame) {
          return cli_usage(t->name, "--frame: give all the links in one list (a,b)");
        }
        o->frame = optarg;
        break;
      case OPT_ATTITUDE:
        if (attitude_arg(optarg, &o->attitude) != 0) {
          return cli_usage(
              t->name, "--attitude: expected matrix, quat or rpy (or a list), got '%s'", optarg);
        }
        break;
      case OPT_DIFFKIN: o->diffkin = 1; break;
      case OPT_INERTIA: o->inertia = 1; break;
      case OPT_MCB: o->mcb = 1; break;
      case OPT_COM: o->com = 1; break;
      case OPT_MOMENTUM: o->momentum = 1; break;
      case OPT_ENERGY: o->energy = 1; break;
      case OPT_CHECK_LIMITS: o->check_limits = 1; break;
      default: return cli_bad_option(t->name, c, argv); /* ':' too */
    }
  }
  o->files = argv + optind;
  o->nfiles = argc - optind;
  int stdin_used = o->nfiles == 0;
  for (int k = 0; k < o->nfiles; k++) {
    if (strcmp(o->files[k], "-") == 0 && stdin_used++) {
      return cli_usage(t->name, "'-' (standard input) given twice");
    }
  }
  if (o->model && strcmp(o->model, "-") == 0 && stdin_used) {
    return cli_usage(t->name, "--model -: the records come on standard input; give a file");
  }
  if (o->seq && o->output == CLI_FMT_CSV) {
    return cli_usage(t->name, "--seq: RFC 7464 records are JSON; not with -o csv");
  }
  if (o->seq) {
    o->output = CLI_FMT_JSON;
  }
  if (o->reference > 0 && o->dot) {
    return cli_usage(t->name, "--reference %s with --dot: the derivatives are given in the "
                     "aligned frame only", o->reference == SPART_REF_LOCAL ? "local" : "world");
  }
  if ((t->opts & CLI_OPT_LINK) && !o->link && !o->noc && !o->com && !o->centroidal) {
    return cli_usage(t->name, "--link ID|NAME, --noc, --com or --centroidal is required");
  }
  if (o->attitude && !o->frame) {
    return cli_usage(t->name, "--attitude needs --frame");
  }
  if (!o->attitude) {
    o->attitude = CLI_ATT_MATRIX;
  }
  if ((t->opts & CLI_OPT_KIN) && o->has_gravity && !o->energy) {
    return cli_usage(t->name, "--gravity needs --energy");
  }
  if (o->floating && o->fixed_base) {
    return cli_usage(t->name, "--floating and --fixed-base may not be combined");
  }
  if (o->floating_base && o->fixed_base) {
    return cli_usage(t->name, "--floating-base and --fixed-base may not be combined");
  }
  if (o->mimic && !o->model) {
    return cli_usage(t->name, "--mimic needs -m FILE (a model in the records couples its mimic "
                     "joints by \"mimic_coupled\")");
  }
  if (o->by_name && !joint_outputs(t)) {
    return cli_usage(t->name, "--by-name: %s writes no joint vector (qm, um, umdot, taum)",
                     t->name);
  }
  /* with -m, once the model is read: its fixed base and gravity count (cli_session_open) */
  return !o->model && cli_gates_check(o, o, t) ? CLI_EXIT_USAGE : sim_check(o, t);
}
