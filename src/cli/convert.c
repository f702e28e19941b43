/* convert.c -- the command line of the model converters (urdf2robot, dh2robot): options, the
 * messages of a model that cannot be read, the model text written out. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"


int cli_convert_parse(cli_convert *o, const char *prog, const char *about, int argc,
                      char **argv) {
  static const struct option all[] = {{"summary", no_argument, NULL, 's'},
                                      {"dot", no_argument, NULL, 'D'},
                                      {"output", required_argument, NULL, 'o'},
                                      {"help", no_argument, NULL, 'h'},
                                      {"version", no_argument, NULL, 'V'},
                                      {"mimic", no_argument, NULL, 'M'},
                                      {NULL, 0, NULL, 0}};
  /* --mimic for urdf2robot: a DH arm has no mimic joints */
  const int urdf = strcmp(prog, "urdf2robot") == 0, n = urdf ? 6 : 5;
  struct option longopts[7];
  memcpy(longopts, all, (size_t)n * sizeof all[0]);
  memset(&longopts[n], 0, sizeof longopts[n]);
  int c;
  o->prog = prog;
  o->in = "-";
  o->out = NULL;
  o->summary = 0;
  o->dot = 0;
  o->mimic = 0;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, ":so:hV", longopts, NULL)) != -1) {
    if (c == 's') {
      o->summary = 1;
    } else if (c == 'D') {
      o->dot = 1;
    } else if (c == 'M') {
      o->mimic = 1;
    } else if (c == 'o') {
      o->out = optarg;
    } else if (c == 'h') {
      printf("Usage: %s [-s | --dot]%s [-o FILE] [FILE|-]\n%s\n", prog, urdf ? " [--mimic]" : "",
             about);
      fputs("  -s, --summary      write a human-readable tree with masses and warnings instead\n"
            "      --dot          write the kinematic tree as Graphviz instead (links, joints\n"
            "                     with kind and axis, masses): dot -Tsvg draws it\n",
            stdout);
      if (urdf) {
        fputs("      --mimic        couple each mimic joint to its leader (q = multiplier\n"
              "                     q_leader + offset): the followers are no coordinates\n",
              stdout);
      }
      fputs("  -o, --output FILE  write to FILE instead of standard output (only on success)\n"
            "  -h, --help         show this help and exit\n"
            "  -V, --version      show the version and exit\n\n"
            "Exit status: 0 success, 1 bad input, 2 bad usage, 3 I/O or system error.\n",
            stdout);
      return cli_finish(prog, CLI_EXIT_OK);
    } else if (c == 'V') {
      printf("%s %s\n", prog, SPART_VERSION);
      return cli_finish(prog, CLI_EXIT_OK);
    } else if (c == ':') {
      return cli_usage(prog, "option '%s' needs an argument", argv[optind - 1]);
    } else if (optopt) {
      return cli_usage(prog, "unknown option '-%c'", optopt);
    } else {
      return cli_usage(prog, "unknown option '%s'", argv[optind - 1]);
    }
  }
  if (o->summary && o->dot) {
    return cli_usage(prog, "--summary and --dot may not be combined");
  }
  if (argc - optind > 1) {
    return cli_usage(prog, "too many arguments: one FILE at most");
  }
  o->in = optind < argc ? argv[optind] : o->in;
  return -1;
}


int cli_convert_fail(const cli_convert *o, const spart_err *err) {
  if (err->code == SPART_EDATA) {
    cli_error(o->prog, strcmp(o->in, "-") ? o->in : "<stdin>", err->line, "%s", err->msg);
    return CLI_EXIT_DATA;
  }
  cli_error(o->prog, NULL, 0, "%s", err->msg);
  /* an input that cannot be read is bad input (SPEC.md); out of memory is a system error */
  return err->code == SPART_ENOMEM ? CLI_EXIT_IO : CLI_EXIT_DATA;
}


int cli_convert_write(const cli_convert *o, char *text) {
  if (!text) {
    cli_error(o->prog, NULL, 0, "out of memory");
    return CLI_EXIT_IO;
  }
  if (o->out && !freopen(o->out, "w", stdout)) {
    cli_error(o->prog, NULL, 0, "cannot open %s: %s", o->out, strerror(errno));
    free(text);
    return CLI_EXIT_IO;
  }
  fputs(text, stdout);
  if (!o->summary && !o->dot) {
    putchar('\n');
  }
  free(text);
  return cli_finish(o->prog, CLI_EXIT_OK);
}


spart_model *cli_convert_load(const cli_convert *o, spart_err *err) {
  spart_model *m = spart_model_load(o->in, err);
  if (m && o->mimic && spart_mimic_couple(m, err) != 0) {
    spart_model_free(m);
    return NULL;
  }
  return m;
}
