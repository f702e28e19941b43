/* spart-codegen -- a model's inverse dynamics, mass matrix, forward dynamics, kinematics and
 * Jacobians as C99 source specialised to it: options -> read the model -> write
 * (src/cli/codegen.c) */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define PROG "spart-codegen"

static const char usage_text[] =
    "Usage: spart-codegen -m MODEL [OPTIONS] > FILE.c\n\n"
    "Write C99 source of the model's dynamics, specialised to it (its joint axes, transforms,\n"
    "inertias and tree as constants, every loop unrolled; <math.h> only): PREFIX_id (inverse\n"
    "dynamics), PREFIX_mass (the mass matrix), PREFIX_fd (forward dynamics), PREFIX_fk (each\n"
    "link's frame) and PREFIX_jac (each link's CoM Jacobian).  Without --fixed-base (or a model\n"
    "fixed to the world) the floating base's forms, with spart's state R0, r0, qm, u0, um, tau0,\n"
    "taum.\n\n"
    "Options:\n"
    "  -m, --model FILE       the model (URDF, model JSON or DH; - for stdin)\n"
    "      --prefix P         the functions' names P_id, ... (a C identifier, 64 characters at\n"
    "                         most; default robot)\n"
    "      --header           write the declarations (and P_NQ, P_NV, ...) instead\n"
    "      --functions LIST   which, comma-separated: id,mass,fd,fk,jac (default all)\n"
    "      --fixed-base       the base does not move: the fixed-base forms (q, v, a, tau);\n"
    "                         a model fixed to the world (a URDF's world root, \"fixed_base\"\n"
    "                         in a model JSON) is read as with it\n"
    "      --floating-base    the base moves though the model says it is fixed\n"
    "  -h, --help             show this help\n"
    "  -V, --version          show the version\n\n"
    "See spart-codegen(1) for the functions' arguments.\n";

enum { OPT_PREFIX = 256, OPT_HEADER, OPT_FUNCTIONS, OPT_FIXED, OPT_FLOATING };

enum { PREFIX_MAX = 64 }; /* a prefix's characters at most */


/* LIST into o->functions; 0 or the usage error */
static int functions(cli_codegen *o, const char *list) {
  static const char *const names[] = {"id", "mass", "fd", "fk", "jac"};
  o->functions = 0;
  for (const char *p = list;;) {
    size_t len = strcspn(p, ",");
    int k = 0;
    while (k < 5 && !(strlen(names[k]) == len && strncmp(p, names[k], len) == 0)) {
      k++;
    }
    if (k == 5) {
      return cli_usage(PROG, "--functions: unknown function '%.*s' (id, mass, fd, fk, jac)",
                       (int)len, p);
    }
    o->functions |= 1u << k;
    if (!p[len]) {
      return 0;
    }
    p += len + 1;
  }
}


/* the options into o and *model; -1 to go on, or the exit code */
static int parse(cli_codegen *o, const char **model, int argc, char **argv) {
  static const struct option longopts[] = {
      {"model", required_argument, NULL, 'm'},
      {"prefix", required_argument, NULL, OPT_PREFIX},
      {"header", no_argument, NULL, OPT_HEADER},
      {"functions", required_argument, NULL, OPT_FUNCTIONS},
      {"fixed-base", no_argument, NULL, OPT_FIXED},
      {"floating-base", no_argument, NULL, OPT_FLOATING},
      {"help", no_argument, NULL, 'h'},
      {"version", no_argument, NULL, 'V'},
      {NULL, 0, NULL, 0}};
  opterr = 0;
  for (int c; (c = getopt_long(argc, argv, ":m:hV", longopts, NULL)) != -1;) {
    switch (c) {
    case 'm': *model = optarg; break;
    case OPT_PREFIX:
      o->prefix = optarg;
      if (!*optarg || strspn(optarg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123"
                                     "456789") != strlen(optarg) ||
          (*optarg >= '0' && *optarg <= '9')) {
        return cli_usage(PROG, "--prefix: expected a C identifier, got '%s'", optarg);
      }
      if (strlen(optarg) > PREFIX_MAX) {
        return cli_usage(PROG, "--prefix: too long: %zu characters, at most %d", strlen(optarg),
                         PREFIX_MAX);
      }
      break;
    case OPT_HEADER: o->header = 1; break;
    case OPT_FUNCTIONS:
      if (functions(o, optarg)) {
        return CLI_EXIT_USAGE;
      }
      break;
    case OPT_FIXED:
    case OPT_FLOATING:
      if (o->fixed_base == (c == OPT_FLOATING)) {
        return cli_usage(PROG, "--floating-base and --fixed-base may not be combined");
      }
      o->fixed_base = c == OPT_FIXED;
      break;
    case 'h': fputs(usage_text, stdout); return cli_finish(PROG, CLI_EXIT_OK);
    case 'V': return cli_version(PROG);
    default: return cli_bad_option(PROG, c, argv);
    }
  }
  if (optind < argc) {
    return cli_usage(PROG, "unexpected operand '%s'", argv[optind]);
  }
  if (!*model) {
    return cli_usage(PROG, "no model: give -m MODEL");
  }
  return -1;
}


int main(int argc, char **argv) {
  cli_codegen o = {"robot", 0, -1, CLI_CG_ID | CLI_CG_MASS | CLI_CG_FD | CLI_CG_FK | CLI_CG_JAC};
  const char *path = NULL;
  int status = parse(&o, &path, argc, argv);
  if (status >= 0) {
    return status;
  }
  spart_err err = {0};
  spart_model *m = cli_model_load(path, &err);
  if (!m) {
    cli_error(PROG, err.code == SPART_EIO ? NULL : path, err.line, "%s", err.msg);
    return err.code == SPART_ENOMEM ? CLI_EXIT_IO : CLI_EXIT_DATA;
  }
  if (o.fixed_base < 0) {
    o.fixed_base = m->fixed_base; /* neither option: the model's, as spart's other commands */
  }
  const char *why = cli_codegen_refuse(m);
  spart_data *d = why ? NULL : spart_data_new(m);
  if (why) {
    cli_error(PROG, strcmp(path, "-") == 0 ? "<stdin>" : path, 0, "%s", why);
    status = CLI_EXIT_DATA;
  } else {
    cli_memfile mf = {0};
    FILE *mem = d ? cli_memfile_open(&mf) : NULL;
    int bad = !mem || cli_codegen_write(mem, m, d, &o) != 0;
    if (mem && cli_memfile_close(mem, &mf) != 0) {
      bad = 1;
    }
    if (bad) {
      cli_error(PROG, NULL, 0, "out of memory");
      status = CLI_EXIT_IO;
    } else {
      /* the whole file at once: nothing half written */
      fwrite(mf.text, 1, mf.len, stdout);
      status = CLI_EXIT_OK;
    }
    free(mf.text);
  }
  spart_data_free(d);
  spart_model_free(m);
  return cli_finish(PROG, status);
}
