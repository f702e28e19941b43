/* urdf2robot -- read a URDF (or a model JSON) and write the model JSON, SPART's robot structure */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"

static const char usage[] =
    "Usage: urdf2robot [-s] [-o FILE] [FILE|-]\n"
    "Read a URDF robot description (or a model JSON) and write the model JSON of the SPART\n"
    "toolkit (spart-model(5)): links and joints numbered depth-first from the base link.\n"
    "Without FILE, or with -, read standard input.\n"
    "\n"
    "  -s, --summary      write a human-readable tree with masses and warnings instead\n"
    "  -o, --output FILE  write to FILE instead of standard output (only on success)\n"
    "  -h, --help         show this help and exit\n"
    "  -V, --version      show the version and exit\n"
    "\n"
    "Exit status: 0 success, 1 bad input, 2 bad usage, 3 I/O or system error.\n";


int main(int argc, char **argv) {
  static const struct option longopts[] = {{"summary", no_argument, NULL, 's'},
                                           {"output", required_argument, NULL, 'o'},
                                           {"help", no_argument, NULL, 'h'},
                                           {"version", no_argument, NULL, 'V'},
                                           {NULL, 0, NULL, 0}};
  const char *prog = "urdf2robot", *in = "-", *out = NULL;
  spart_err err = {0};
  spart_model *m;
  char *text;
  int summary = 0, c;

  /* options */
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":so:hV", longopts, NULL)) != -1) {
    if (c == 's') {
      summary = 1;
    } else if (c == 'o') {
      out = optarg;
    } else if (c == 'h') {
      fputs(usage, stdout);
      return spart_cli_finish(prog, SPART_EXIT_OK);
    } else if (c == 'V') {
      printf("urdf2robot %s\n", SPART_VERSION);
      return spart_cli_finish(prog, SPART_EXIT_OK);
    } else if (c == ':') {
      return spart_cli_usage(prog, "option '%s' needs an argument", argv[optind - 1]);
    } else if (optopt) {
      return spart_cli_usage(prog, "unknown option '-%c'", optopt);
    } else {
      return spart_cli_usage(prog, "unknown option '%s'", argv[optind - 1]);
    }
  }
  if (argc - optind > 1) {
    return spart_cli_usage(prog, "too many arguments: one FILE at most");
  }
  in = optind < argc ? argv[optind] : in;

  /* read */
  m = spart_model_load(in, &err);
  if (!m) {
    if (err.code == SPART_EDATA) {
      spart_cli_error(prog, strcmp(in, "-") ? in : "<stdin>", err.line, "%s", err.msg);
      return SPART_EXIT_DATA;
    }
    spart_cli_error(prog, NULL, 0, "%s", err.msg);
    /* an input that cannot be read is bad input (SPEC.md); out of memory is a system error */
    return err.code == SPART_ENOMEM ? SPART_EXIT_IO : SPART_EXIT_DATA;
  }

  /* write */
  text = summary ? spart_model_summary(m) : spart_model_json(m);
  spart_model_free(m);
  if (!text) {
    spart_cli_error(prog, NULL, 0, "out of memory");
    return SPART_EXIT_IO;
  }
  if (out && !freopen(out, "w", stdout)) {
    spart_cli_error(prog, NULL, 0, "cannot open %s: %s", out, strerror(errno));
    free(text);
    return SPART_EXIT_IO;
  }
  fputs(text, stdout);
  if (!summary) {
    putchar('\n');
  }
  free(text);
  return spart_cli_finish(prog, SPART_EXIT_OK);
}
