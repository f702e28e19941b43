/* states.c -- spart-states: its options (a parser of its own: it reads no records), and the
 * records it makes, random within the model's limits or the zero configuration, written as
 * the other commands write theirs */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char help_text[] =
    "Usage: spart-states -m MODEL (--random N [--seed S] | --zero) [--velocities]\n"
    "                    [--accelerations] [--forces] [-o json|csv]\n"
    "Write state records of a model (RigidBodyDynamics.jl's rand_configuration! and\n"
    "zero_configuration!): qm, and on request um, umdot, taum.\n\n"
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
    "  -o, --output FORMAT  json (one object a line, the default) or csv\n"
    "  -h, --help           show this help\n"
    "  -V, --version        show the version\n\n"
    "Exit status: 0 ok, 1 bad model, 2 bad usage, 3 I/O error.  See spart-states(1).\n";


/* a whole number >= lo, all of s; 0 or -1 */
static int whole_arg(const char *s, unsigned long long lo, unsigned long long *v) {
  char *end;
  errno = 0;
  *v = strtoull(s, &end, 10);
  return *s >= '0' && *s <= '9' && *end == 0 && errno == 0 && *v >= lo ? 0 : -1;
}


int cli_states_parse(cli_states *o, int argc, char **argv) {
  static const struct option longopts[] = {{"model", required_argument, NULL, 'm'},
                                           {"random", required_argument, NULL, 'r'},
                                           {"seed", required_argument, NULL, 's'},
                                           {"zero", no_argument, NULL, 'z'},
                                           {"velocities", no_argument, NULL, 'v'},
                                           {"accelerations", no_argument, NULL, 'a'},
                                           {"forces", no_argument, NULL, 'f'},
                                           {"output", required_argument, NULL, 'o'},
                                           {"help", no_argument, NULL, 'h'},
                                           {"version", no_argument, NULL, 'V'},
                                           {NULL, 0, NULL, 0}};
  const char *prog = "spart-states";
  int c;
  memset(o, 0, sizeof *o);
  o->output = CLI_FMT_JSON;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, ":m:o:hV", longopts, NULL)) != -1) {
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
      case 'o':
        if (strcmp(optarg, "json") == 0 || strcmp(optarg, "csv") == 0) {
          o->output = optarg[0] == 'j' ? CLI_FMT_JSON : CLI_FMT_CSV;
          break;
        }
        return cli_usage(prog, "--output: expected json or csv, got '%s'", optarg);
      case 'h': fputs(help_text, stdout); return cli_finish(prog, CLI_EXIT_OK);
      case 'V': return cli_version(prog);
      default: return cli_bad_option(prog, c, argv);
    }
  }
  if (optind < argc) {
    return cli_usage(prog, "unexpected argument '%s'", argv[optind]);
  }
  if (!o->model) {
    return cli_usage(prog, "-m MODEL is required");
  }
  if (o->random == o->zero) {
    return cli_usage(prog, "give one of --random N and --zero");
  }
  if (o->has_seed && !o->random) {
    return cli_usage(prog, "--seed needs --random");
  }
  return -1;
}


int cli_states_write(const cli_states *o) {
  const char *prog = "spart-states";
  spart_err err = {0};
  spart_model *m = cli_model_load(o->model, &err);
  if (!m) {
    cli_error(prog, err.code == SPART_EIO ? NULL : o->model, err.line, "%s", err.msg);
    return err.code == SPART_ENOMEM ? CLI_EXIT_IO : CLI_EXIT_DATA;
  }
  const size_t nq = (size_t)m->nq, nv = (size_t)m->nv;
  double *buf = calloc(nq + 3 * nv + 1, sizeof(double));
  cli_writer *wr = cli_writer_new(stdout, o->output, 0, 0);
  int status = buf && wr ? CLI_EXIT_OK : CLI_EXIT_IO;
  double *qm = buf, *um = qm + nq, *umdot = um + nv, *taum = umdot + nv;
  spart_rng rq, rv; /* qm's, the rest's: qm the same whatever else is asked */
  spart_rng_seed(&rq, o->seed);
  spart_rng_seed(&rv, ~o->seed);
  for (unsigned long long k = 0; status == CLI_EXIT_OK && k < (o->zero ? 1 : o->count); k++) {
    if (o->zero) {
      spart_joint_neutral(m, qm);
    } else {
      spart_random_state(m, &rq, &rv, qm, o->velocities ? um : NULL,
                         o->accelerations ? umdot : NULL, o->forces ? taum : NULL);
    }
    cli_put(wr, "qm", qm, (int)nq, -1, -1);
    if (o->velocities) {
      cli_put(wr, "um", um, (int)nv, -1, -1);
    }
    if (o->accelerations) {
      cli_put(wr, "umdot", umdot, (int)nv, -1, -1);
    }
    if (o->forces) {
      cli_put(wr, "taum", taum, (int)nv, -1, -1);
    }
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
