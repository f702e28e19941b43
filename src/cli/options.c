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


/* ---- the rows' parses ---- */

int cli_opt_text(const cli_arg *a) {
  *(const char **)a->at = a->value;
  return -1;
}


/* a number, the whole of the value, above lo (at least lo when closed); -1 to go on, or the
   usage message: the row's what expected */
static int number_arg(const cli_arg *a, int closed) {
  double *v = a->at;
  if (cli_vec(a->value, v, 1) == 0 && (closed ? *v >= 0 : *v > 0)) {
    return -1;
  }
  char opt[64];
  snprintf(opt, sizeof opt, "--%s", a->opt->name);
  return cli_bad_number(a->tool->name, opt, a->opt->what, a->value);
}


int cli_opt_positive(const cli_arg *a) {
  return number_arg(a, 0);
}


int cli_opt_nonnegative(const cli_arg *a) {
  return number_arg(a, 1);
}


/* -i FORMAT, --csv: json or csv (-i and --csv for the same one may be given again) */
static int input_arg(const cli_arg *a) {
  int fmt = CLI_FMT_CSV;
  if (a->value && strcmp(a->value, "json") == 0) {
    fmt = CLI_FMT_JSON;
  } else if (a->value && strcmp(a->value, "csv") != 0) {
    return cli_usage(a->tool->name, "--input: expected json or csv, got '%s'", a->value);
  }
  if (a->o->input != CLI_FMT_AUTO && fmt != a->o->input) {
    return cli_usage(a->tool->name, "--input: json and csv both given");
  }
  a->o->input = fmt;
  return -1;
}


/* -o FORMAT: json or csv */
static int output_arg(const cli_arg *a) {
  if (strcmp(a->value, "json") == 0 || strcmp(a->value, "csv") == 0) {
    a->o->output = a->value[0] == 'j' ? CLI_FMT_JSON : CLI_FMT_CSV;
    return -1;
  }
  return cli_usage(a->tool->name, "--output: expected json or csv, got '%s'", a->value);
}


/* --only NAMES: every name one of the command's outputs, all in one list */
static int only_arg(const cli_arg *a) {
  const cli_tool *t = a->tool;
  if (a->o->only) {
    return cli_usage(t->name, "--only: give all the names in one list (a,b)");
  }
  for (const char *p = a->value;; p++) {
    size_t n = strcspn(p, ",");
    if (n == 0 || !cli_listed(t->outputs, p, n)) {
      return cli_usage(t->name, "--only: '%.*s' is not an output of %s (%s)", (int)n, p,
                       t->name, t->outputs);
    }
    p += n;
    if (*p == 0) {
      a->o->only = a->value;
      return -1;
    }
  }
}


/* -j N: threads, 0..CLI_MAX_JOBS (0: one a CPU online) */
static int jobs_arg(const cli_arg *a) {
  const char *v = a->value;
  char *end;
  errno = 0;
  long j = strtol(v, &end, 10);
  if (!(*v >= '0' && *v <= '9') || *end || errno || j > CLI_MAX_JOBS) {
    return cli_usage(a->tool->name, "--jobs: expected a whole number 0..%d, got '%s'",
                     CLI_MAX_JOBS, v);
  }
  a->o->jobs = (int)j;
  if (j == 0) {
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    a->o->jobs = cpus < 1 ? 1 : cpus > CLI_MAX_JOBS ? CLI_MAX_JOBS : (int)cpus;
  }
  return -1;
}


static void help(const cli_tool *t);


static int help_arg(const cli_arg *a) {
  help(a->tool);
  return cli_finish(a->tool->name, CLI_EXIT_OK);
}


static int version_arg(const cli_arg *a) {
  return cli_version(a->tool->name);
}


/* --gravity GX,GY,GZ */
static int gravity_arg(const cli_arg *a) {
  if (cli_vec(a->value, a->o->gravity, 3) != 0) {
    return cli_bad_number(a->tool->name, "--gravity", "gx,gy,gz", a->value);
  }
  a->o->has_gravity = 1;
  return -1;
}


/* ---- the tables ---- */

#define AT(f) offsetof(cli_opts, f)

/* the options of every command, in cli_opts ("only" for a command with outputs); --help's
   common part tells them */
static const cli_option common[] = {
    {"model", 'm', CLI_ARG_ONE, cli_opt_text, AT(model), 1, 0, NULL, NULL},
    {"mimic", 0, CLI_ARG_NONE, NULL, AT(mimic), 0, 0, NULL, NULL},
    {"input", 'i', CLI_ARG_ONE, input_arg, 0, 0, 0, NULL, NULL},
    {"csv", 0, CLI_ARG_NONE, input_arg, 0, 0, 0, NULL, NULL},
    {"output", 'o', CLI_ARG_ONE, output_arg, 0, 1, 0, NULL, NULL},
    {"seq", 0, CLI_ARG_NONE, NULL, AT(seq), 0, 0, NULL, NULL},
    {"unbuffered", 'u', CLI_ARG_NONE, NULL, AT(unbuffered), 0, 0, NULL, NULL},
    {"keep-going", 'k', CLI_ARG_NONE, NULL, AT(keep_going), 0, 0, NULL, NULL},
    {"only", 0, CLI_ARG_ONE, only_arg, 0, 0, 0, NULL, NULL},
    {"keep-state", 0, CLI_ARG_NONE, NULL, AT(keep_state), 0, 0, NULL, NULL},
    {"by-name", 0, CLI_ARG_NONE, NULL, AT(by_name), 0, 0, NULL, NULL},
    {"jobs", 'j', CLI_ARG_ONE, jobs_arg, 0, 0, 0, NULL, NULL},
    {"help", 'h', CLI_ARG_NONE, help_arg, 0, 0, 0, NULL, NULL},
    {"version", 'V', CLI_ARG_NONE, version_arg, 0, 0, 0, NULL, NULL},
    CLI_END};

/* the options several commands take, each naming those it does (CLI_SHARED) with its words for
   them in --help, or these; in cli_opts */
static const cli_option shared[] = {
    {"fixed-base", 0, CLI_ARG_NONE, NULL, AT(fixed_base), 0, CLI_ON_FIXED, NULL, NULL},
    {"floating-base", 0, CLI_ARG_NONE, NULL, AT(floating_base), 0, 0, NULL, NULL},
    {"gravity", 0, CLI_ARG_ONE, gravity_arg, 0, 1, CLI_ON_GRAVITY, NULL,
     "      --gravity G      gx,gy,gz: adds the weight m*g at every CoM, base included\n"},
    {"no-friction", 0, CLI_ARG_NONE, NULL, AT(no_friction), 0, 0, NULL,
     "      --no-friction    leave out the joints' viscous and Coulomb friction (the model's\n"
     "                       damping and friction; SPART has none); armature stays\n"},
    {"check-limits", 0, CLI_ARG_NONE, NULL, AT(check_limits), 0, 0, NULL, NULL},
    CLI_END};

#undef AT

/* a command's options at most, the common ones with its own */
#define MAX_OPTIONS 96


/* row r of a command's table as it is: itself, or for a shared option (CLI_SHARED) the shared
   table's row with r's help (or its own) */
static cli_option resolved(const cli_tool *t, const cli_option *r) {
  if (r->at != CLI_SHARED_AT) {
    return *r;
  }
  for (const cli_option *s = shared; s->name; s++) {
    if (strcmp(s->name, r->name) == 0) {
      cli_option o = *s;
      o.help = r->help ? r->help : s->help;
      return o;
    }
  }
  fprintf(stderr, "%s: bug: no shared option --%s\n", t->name, r->name);
  abort();
}


/* the command's options: the common ones, then its own table's, into rows (MAX_OPTIONS at
   most), *own set for each of its own (their values in its own options, the others' in
   cli_opts); returns how many */
static int rows_of(const cli_tool *t, cli_option *rows, unsigned char *own) {
  int n = 0;
  for (const cli_option *r = common; r->name; r++) {
    if (r->parse != only_arg || t->outputs) {
      own[n] = 0;
      rows[n++] = *r;
    }
  }
  for (const cli_option *r = t->options; r && r->name; r++) {
    if (n == MAX_OPTIONS) {
      fprintf(stderr, "%s: bug: more than %d options\n", t->name, MAX_OPTIONS);
      abort();
    }
    own[n] = r->at != CLI_SHARED_AT;
    rows[n++] = resolved(t, r);
  }
  return n;
}


int cli_takes(const cli_tool *t, const char *name) {
  for (const cli_option *r = t->options; r && r->name; r++) {
    if (strcmp(r->name, name) == 0) {
      return 1;
    }
  }
  return 0;
}


/* ---- --help ---- */

/* whether the tool writes a joint vector (qm, um, umdot, taum): --by-name names its values */
static int joint_outputs(const cli_tool *t) {
  return t->outputs && (cli_listed(t->outputs, "qm", 2) || cli_listed(t->outputs, "um", 2) ||
                        cli_listed(t->outputs, "umdot", 5) || cli_listed(t->outputs, "taum", 4));
}


static void help(const cli_tool *t) {
  printf("Usage: %s %s\n\n%s", t->name, t->synopsis, t->help);
  if (t->options && t->options->name) {
    printf("Options:\n");
  }
  for (const cli_option *r = t->options; r && r->name; r++) {
    const char *h = resolved(t, r).help;
    fputs(h ? h : "", stdout);
  }
  printf(
      "\nThe records come from the FILEs in order (\"-\": standard input), or standard input.\n\n"
      "Common options:\n"
      "  -m, --model FILE     the model: a .urdf, a model JSON (urdf2robot) or a DH\n"
      "                       description (dh2robot); without it, the first record holds\n"
      "                       it: {\"robot\": MODEL, STATE...}\n"
      "      --mimic          couple the model's mimic joints to their leaders (urdf2robot\n"
      "                       --mimic): qm, um, umdot, taum and the matrices are the system's\n");
  if (t->reads & CLI_NEEDS_CONTACTS) { /* contacts and the outputs' shapes vary: JSON only */
    printf("  -i, --input FORMAT   json, the only one (contacts are JSON)\n"
           "  -o, --output FORMAT  json (one object a line), the only one\n");
  } else if (t->reads & CLI_READS_TARGETS) { /* targets are JSON, the outputs' shapes fixed */
    printf("  -i, --input FORMAT   json, the only one (targets are JSON)\n"
           "  -o, --output FORMAT  json (one object a line, the default) or csv\n");
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
  if (cli_takes(t, "floating-base")) {
    printf("      --floating-base  the base is free though the model says it is fixed (a URDF\n"
           "                       whose root is a link named world with a fixed joint, or\n"
           "                       \"fixed_base\" in a model JSON: read as with --fixed-base)\n");
  }
  if (cli_takes(t, "gravity")) {
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
      cli_takes(t, "check-limits") ? ", 4 a record left the joint\nlimits (--check-limits)" : "",
      t->name);
}


/* ---- the gates ---- */

/* the name of the option whose gate bit is the lowest of b */
static const char *gate_name(const cli_tool *t, unsigned b) {
  unsigned low = b & -b;
  for (const cli_option *r = t->options; r && r->name; r++) {
    if (resolved(t, r).on == low) {
      return r->name;
    }
  }
  return "?";
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


int cli_gates_check(const cli_tool *t, unsigned asked, unsigned on, const char *only) {
  const cli_gate *why = NULL;
  for (const char *p = only; p && *p; p += *p == ',') {
    size_t n = strcspn(p, ",");
    if (!gate_open(t, on, p, n, &why)) {
      unsigned need = why->when & ~on;
      return cli_usage(t->name, "--only %.*s: %s writes it only %s --%s", (int)n, p, t->name,
                       need ? "with" : "without", gate_name(t, need ? need : why->unless & on));
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
        kept |= !only || cli_listed(only, p, n);
      } else if (!first) {
        first = w;
      }
      p += n;
    }
    if (!some && first) {
      unsigned need = first->when & ~on;
      return cli_usage(t->name, "--%s does nothing %s --%s", gate_name(t, g->opt),
                       need ? "without" : "with",
                       gate_name(t, need ? need : first->unless & on));
    }
    if (!kept) {
      return cli_usage(t->name, "--%s does nothing with --only %s: it changes only %s",
                       gate_name(t, g->opt), only, g->outputs);
    }
  }
  return 0;
}


/* ---- the command line ---- */

/* the common options together, the file operands (first: those of the input and output, then
   the others, after the command's own): -1 to go on, or CLI_EXIT_USAGE after the message */
static int io_check(cli_opts *o, const cli_tool *t) {
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
  return -1;
}


static int common_check(const cli_opts *o, const cli_tool *t) {
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
  return -1;
}


static int has_arg(int arg) {
  return arg == CLI_ARG_ONE ? required_argument
         : arg == CLI_ARG_MAYBE ? optional_argument
                                : no_argument;
}


int cli_parse(cli_opts *o, const cli_tool *t, void *own, int argc, char **argv) {
  cli_option rows[MAX_OPTIONS];
  unsigned char mine[MAX_OPTIONS];
  struct option longopts[MAX_OPTIONS + 1];
  char shortopts[3 * MAX_OPTIONS + 3] = "+:"; /* ':' first: a missing value is told apart */
  int count[MAX_OPTIONS] = {0}, n = rows_of(t, rows, mine), ns = 2;
  memset(o, 0, sizeof(*o));
  o->jobs = 1;
  o->own = own;
  for (int k = 0; k < n; k++) {
    const cli_option *r = &rows[k];
    longopts[k] = (struct option){r->name, has_arg(r->arg), NULL, r->letter ? r->letter : 256 + k};
    if (r->letter) {
      shortopts[ns++] = (char)r->letter;
      for (int c = 0; c < r->arg; c++) {
        shortopts[ns++] = ':';
      }
    }
  }
  shortopts[ns] = 0;
  memset(&longopts[n], 0, sizeof(longopts[n]));

  opterr = 0;
  optind = 1;
  for (int c; (c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1;) {
    int k = 0;
    while (k < n && longopts[k].val != c) {
      k++;
    }
    if (k == n) {
      return cli_bad_option(t->name, c, argv); /* ':' too */
    }
    const cli_option *r = &rows[k];
    if (r->once && count[k]++ > 0) {
      return cli_usage(t->name, "--%s given twice", r->name);
    }
    o->given |= r->on;
    cli_arg a = {t, r, optarg, (char *)(mine[k] ? own : (void *)o) + r->at, o, argc, argv};
    int status = r->parse ? r->parse(&a) : (*(int *)a.at = 1, -1);
    if (status >= 0) {
      return status;
    }
  }
  o->files = argv + optind;
  o->nfiles = argc - optind;
  int status = io_check(o, t);
  if (status < 0 && t->check) {
    status = t->check(t, own, o);
  }
  if (status < 0) {
    status = common_check(o, t);
  }
  /* with -m, once the model is read: its fixed base and gravity count (cli_session_open) */
  if (status < 0 && !o->model && cli_gates_check(t, o->given, o->given, o->only)) {
    status = CLI_EXIT_USAGE;
  }
  if (status < 0 && t->finish) {
    status = t->finish(t, own, o);
  }
  return status;
}
