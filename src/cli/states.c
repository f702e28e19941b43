/* states.c -- spart-states: its options (a parser of its own), the records it makes, random
 * within the model's limits or the zero configuration, written as the other commands write
 * theirs, and the records it reads and writes back normalised (--normalize: a session, as the
 * compute commands read and write theirs) */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* its options */
typedef struct cli_states {
  const char *model;                    /* -m FILE */
  int random, zero, has_seed;           /* --random N, --zero, --seed given */
  unsigned long long count, seed;       /* N, S */
  int velocities, accelerations, forces; /* --velocities, --accelerations, --forces */
  int output;                           /* CLI_FMT_*: -o, or CLI_FMT_AUTO (JSON, or with
                                           --normalize the input's) */
  int normalize;                        /* --normalize */
  cli_opts read;                        /* --normalize's session: -i, -j, -k, --by-name, the
                                           file operands */
} cli_states;

static const char help_text[] =
    "Usage: spart-states -m MODEL (--random N [--seed S] | --zero) [--velocities]\n"
    "                    [--accelerations] [--forces] [-o json|csv]\n"
    "       spart-states -m MODEL --normalize [-i json|csv] [-o json|csv] [-j N]\n"
    "                    [--keep-going] [--by-name] [FILE...]\n"
    "Write state records of a model (RigidBodyDynamics.jl's rand_configuration!,\n"
    "zero_configuration! and normalize_configuration!): qm, and on request um, umdot, taum;\n"
    "or the records read with their quaternions and sin-cos pairs made unit.\n\n"
    "  -m, --model FILE     the model: a .urdf, a model JSON or a DH description\n"
    "      --random N       N records within the joint limits (quaternions unit)\n"
    "      --seed S         the generator's seed, a whole number (default 0): the same seed,\n"
    "                       the same bytes on every machine\n"
    "      --zero           one record, every joint at its zero (quaternions the identity)\n"
    "      --velocities     also um: within each joint's velocity limit (+-1 without one;\n"
    "                       0 with --zero)\n"
    "      --accelerations  also umdot, in [-1, 1] (0 with --zero)\n"
    "      --forces         also taum: within each joint's effort limit (+-1 without one;\n"
    "                       0 with --zero)\n"
    "      --normalize      read state records (FILEs, or stdin) and write each back with\n"
    "                       every quaternion of qm and q0 and every sin-cos pair made unit\n"
    "                       (of any norm but 0); the rest passes through, qm and q0 after it\n"
    "  -i, --input FORMAT   with --normalize: json or csv (default: told from the input)\n"
    "  -o, --output FORMAT  json (one object a line) or csv; the default is json, with\n"
    "                       --normalize the input's format\n"
    "  -j, --jobs N         with --normalize: N threads (0: one a CPU), the same bytes\n"
    "  -k, --keep-going     with --normalize: report a bad record and go on\n"
    "      --by-name        with --normalize: qm written keyed by joint name\n"
    "  -h, --help           show this help\n"
    "  -V, --version        show the version\n\n"
    "Exit status: 0 ok, 1 bad model or record, 2 bad usage, 3 I/O error.  See\n"
    "spart-states(1).\n";


/* a whole number >= lo, all of s; 0 or -1 */
static int whole_arg(const char *s, unsigned long long lo, unsigned long long *v) {
  char *end;
  errno = 0;
  *v = strtoull(s, &end, 10);
  return *s >= '0' && *s <= '9' && *end == 0 && errno == 0 && *v >= lo ? 0 : -1;
}


/* json or csv: CLI_FMT_*, or CLI_FMT_AUTO */
static int format_of(const char *s) {
  return strcmp(s, "json") == 0 ? CLI_FMT_JSON : strcmp(s, "csv") == 0 ? CLI_FMT_CSV
                                                                        : CLI_FMT_AUTO;
}


/* the options that go together: one mode; --seed with --random; the made records' options
   without --normalize, the read records' with it */
static int check(const cli_states *o, const char *prog, int reading, int argc, char **argv) {
  if (!o->model) {
    return cli_usage(prog, "-m MODEL is required");
  }
  if (o->random + o->zero + o->normalize != 1) {
    return cli_usage(prog, "give one of --random N, --zero and --normalize");
  }
  if (o->has_seed && !o->random) {
    return cli_usage(prog, "--seed needs --random");
  }
  if (o->normalize && (o->velocities || o->accelerations || o->forces)) {
    return cli_usage(prog, "--normalize writes back the records read: not with --velocities, "
                     "--accelerations or --forces");
  }
  if (!o->normalize && optind < argc) {
    return cli_usage(prog, "unexpected argument '%s' (records are read with --normalize only)",
                     argv[optind]);
  }
  if (!o->normalize && reading) {
    return cli_usage(prog, "-i, -j, --keep-going and --by-name need --normalize");
  }
  int stdin_used = o->read.nfiles == 0;
  for (int k = 0; k < o->read.nfiles; k++) {
    if (strcmp(o->read.files[k], "-") == 0 && stdin_used++) {
      return cli_usage(prog, "'-' (standard input) given twice");
    }
  }
  if (o->normalize && strcmp(o->model, "-") == 0 && stdin_used) {
    return cli_usage(prog, "--model -: the records come on standard input; give a file");
  }
  return -1;
}


/* the command line into o: -1 to go on, or the exit status (after --help, --version or a usage
   error, which it reports) */
static int parse(cli_states *o, int argc, char **argv) {
  static const struct option longopts[] = {{"model", required_argument, NULL, 'm'},
                                           {"random", required_argument, NULL, 'r'},
                                           {"seed", required_argument, NULL, 's'},
                                           {"zero", no_argument, NULL, 'z'},
                                           {"velocities", no_argument, NULL, 'v'},
                                           {"accelerations", no_argument, NULL, 'a'},
                                           {"forces", no_argument, NULL, 'f'},
                                           {"normalize", no_argument, NULL, 'n'},
                                           {"input", required_argument, NULL, 'i'},
                                           {"output", required_argument, NULL, 'o'},
                                           {"jobs", required_argument, NULL, 'j'},
                                           {"keep-going", no_argument, NULL, 'k'},
                                           {"by-name", no_argument, NULL, 'b'},
                                           {"help", no_argument, NULL, 'h'},
                                           {"version", no_argument, NULL, 'V'},
                                           {NULL, 0, NULL, 0}};
  const char *prog = "spart-states";
  int c, reading = 0;
  memset(o, 0, sizeof *o);
  o->output = CLI_FMT_AUTO;
  o->read.jobs = 1;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, "+:m:i:o:j:khV", longopts, NULL)) != -1) {
    switch (c) {
      case 'm': o->model = optarg; break;
      case 'r':
        if (whole_arg(optarg, 0, &o->count) != 0) {
          return cli_usage(prog, "--random: expected a whole number of records, got '%s'",
                           optarg);
        }
        o->random = 1;
        break;
      case 's':
        if (whole_arg(optarg, 0, &o->seed) != 0) {
          return cli_usage(prog, "--seed: expected a whole number, got '%s'", optarg);
        }
        o->has_seed = 1;
        break;
      case 'z': o->zero = 1; break;
      case 'v': o->velocities = 1; break;
      case 'a': o->accelerations = 1; break;
      case 'f': o->forces = 1; break;
      case 'n': o->normalize = 1; break;
      case 'i':
        if ((o->read.input = format_of(optarg)) == CLI_FMT_AUTO) {
          return cli_usage(prog, "--input: expected json or csv, got '%s'", optarg);
        }
        reading = 1;
        break;
      case 'o':
        if ((o->output = format_of(optarg)) == CLI_FMT_AUTO) {
          return cli_usage(prog, "--output: expected json or csv, got '%s'", optarg);
        }
        break;
      case 'j': {
        unsigned long long j;
        if (whole_arg(optarg, 0, &j) != 0 || j > CLI_MAX_JOBS) {
          return cli_usage(prog, "--jobs: expected a whole number 0..%d, got '%s'",
                           CLI_MAX_JOBS, optarg);
        }
        long cpus = j == 0 ? sysconf(_SC_NPROCESSORS_ONLN) : (long)j; /* 0: one a CPU */
        o->read.jobs = cpus < 1 ? 1 : cpus > CLI_MAX_JOBS ? CLI_MAX_JOBS : (int)cpus;
        reading = 1;
        break;
      }
      case 'k': o->read.keep_going = reading = 1; break;
      case 'b': o->read.by_name = reading = 1; break;
      case 'h': fputs(help_text, stdout); return cli_finish(prog, CLI_EXIT_OK);
      case 'V': return cli_version(prog);
      default: return cli_bad_option(prog, c, argv);
    }
  }
  o->read.files = argv + optind;
  o->read.nfiles = argc - optind;
  return check(o, prog, reading, argc, argv);
}


/* --normalize: the session's loop over its records, each written back with qm (the record's
   own: with coupled mimic joints, the free joints') and q0, when it gives it, as the reader made
   them (CLI_READS_ANY_NORM: unit, spart_joint_unit); the rest of it passes through */
static void normalized(cli_session *s) {
  while (cli_next(s)) {
    const spart_model *m = s->m;
    const cli_state *st = s->st;
    const double *qm = st->x.qm;
    if (m->coupled) {
      double *qc = cli_session_buf(s, 0, (size_t)m->nqc + 1);
      if (!qc) {
        continue;
      }
      spart_mimic_qc(m, st->x.qm, qc);
      qm = qc;
    }
    if (st->has & CLI_READS(qm)) {
      cli_put(s->wr, "qm", qm, m->nqc, -1, -1);
    }
    if (st->has & CLI_READS(q0)) {
      cli_put(s->wr, "q0", st->q0, 4, -1, -1);
    }
    cli_write(s);
  }
}


/* --normalize: read the records (qm and q0 alone; everything else passes through) and write
   them back */
static int normalize(cli_states *o) {
  static const cli_tool tool = {.name = "spart-states",
                                .synopsis = "-m MODEL --normalize [FILE...]",
                                .help = "",
                                .reads = CLI_READS(qm) | CLI_READS(q0) | CLI_READS_ANY_NORM};
  int status;
  o->read.model = o->model;
  o->read.output = o->output;
  cli_session *s = cli_session_open(&tool, &o->read, &status);
  return s ? cli_run(s, normalized, 0) : status;
}


/* the records of o's model, written or read and written back; the exit status */
static int write_records(cli_states *o) {
  const char *prog = "spart-states";
  if (o->normalize) {
    return normalize(o);
  }
  spart_err err = {0};
  spart_model *m = cli_model_load(o->model, &err);
  if (!m) {
    cli_error(prog, err.code == SPART_EIO ? NULL : o->model, err.line, "%s", err.msg);
    return err.code == SPART_ENOMEM ? CLI_EXIT_IO : CLI_EXIT_DATA;
  }
  const size_t nq = (size_t)m->nq, nv = (size_t)m->nv;
  /* the state's joints' vectors, then room for the system's (nqc + 3 nvc: cli_put_state) */
  double *buf = calloc(2 * nq + 6 * nv + 1, sizeof(double));
  int format = o->output == CLI_FMT_CSV ? CLI_FMT_CSV : CLI_FMT_JSON;
  cli_writer *wr = cli_writer_new(stdout, format, 0, 0);
  int status = buf && wr ? CLI_EXIT_OK : CLI_EXIT_IO;
  double *qm = buf, *um = qm + nq, *umdot = um + nv, *taum = umdot + nv, *sys = taum + nv;
  /* the state, with what is asked */
  spart_state x = {.nb = m->nb, .nq = m->nq, .nv = m->nv, .qm = qm};
  x.um = o->velocities ? um : NULL;
  x.umdot = o->accelerations ? umdot : NULL;
  x.taum = o->forces ? taum : NULL;
  unsigned fields = CLI_READS(qm) | (x.um ? CLI_READS(um) : 0) |
                    (x.umdot ? CLI_READS(umdot) : 0) | (x.taum ? CLI_READS(taum) : 0);
  spart_rng rq, rv; /* qm's, the rest's: qm the same whatever else is asked */
  spart_rng_seed(&rq, o->seed);
  spart_rng_seed(&rv, ~o->seed);
  for (unsigned long long k = 0; status == CLI_EXIT_OK && k < (o->zero ? 1 : o->count); k++) {
    if (o->zero) {
      spart_joint_neutral(m, qm);
    } else {
      spart_random_state(m, &rq, &rv, &x);
    }
    /* a record holds the system's coordinates (coupled mimic joints: the followers' left out) */
    cli_put_state(wr, m, &x, fields, sys);
    if (cli_emit(wr, NULL, &err) != 0) {
      status = CLI_EXIT_IO;
    }
  }
  if (status == CLI_EXIT_OK && wr && cli_flush(wr, &err) != 0) {
    status = CLI_EXIT_IO;
  }
  if (status != CLI_EXIT_OK) {
    cli_error(prog, NULL, 0, "%s", err.msg[0] ? err.msg : "out of memory");
  }
  if (wr) {
    cli_writer_free(wr);
  }
  free(buf);
  spart_model_free(m);
  return cli_finish(prog, status);
}


int cli_states_main(int argc, char **argv) {
  cli_states o;
  int status = parse(&o, argc, argv);
  return status < 0 ? write_records(&o) : status;
}
