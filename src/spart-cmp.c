/* spart-cmp -- compare two record streams (JSON or CSV, in any mix) field by field within
 * tolerances: the regression check of a pipeline's output */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define PROG "spart-cmp"

/* exit statuses: those of cmp(1) and diff(1) */
enum { EQUAL = 0, DIFFER = 1, TROUBLE = 2 };

static const char usage_text[] =
    "Usage: spart-cmp [OPTIONS] A B\n\n"
    "Compare two streams of records (JSON objects or CSV rows, in any mix; '-' is stdin for\n"
    "one of them) record by record, field by field: a JSON array is its CSV columns (taum is\n"
    "taum_1, taum_2, ...), numbers agree when |a - b| <= atol + rtol * max(|a|, |b|), other\n"
    "values (NaN too) when their texts are the same; an infinity only with itself.  Writes\n"
    "the first differences and the largest error of each field on stdout.\n\n"
    "Options:\n"
    "      --atol [FIELD=]A  absolute tolerance, of FIELD only (taum: taum, taum_I...,\n"
    "                        taum.JOINT) when named; repeatable (default 0)\n"
    "      --rtol [FIELD=]R  relative tolerance, the same way (default 0)\n"
    "  -f, --fields NAMES    compare only these fields (comma-separated, at most 64),\n"
    "                        which both must have (a name no record has: exit 2); others\n"
    "                        are ignored (default: every field, in both)\n"
    "  -n, --max N           list at most N differences (default 10; 0: none)\n"
    "  -q, --quiet           write nothing: the exit status says it\n"
    "  -h, --help            show this help\n"
    "  -V, --version         show the version\n\n"
    "Exit status: 0 equal within the tolerances, 1 not, 2 trouble (bad usage, an input that\n"
    "cannot be read, two values of one name in a record).  See spart-cmp(1).\n";

/* the names in a comma-separated list */
static int count_names(const char *s) {
  int n = 1;
  for (; *s; s++) {
    n += *s == ',';
  }
  return n;
}


/* the options and the two inputs into c, *path_a and *path_b; -1 to go on, or the exit code */
static int parse(cli_cmp *c, const char **path_a, const char **path_b, int argc, char **argv) {
  static const struct option longopts[] = {
      {"atol", required_argument, NULL, 'a'}, {"rtol", required_argument, NULL, 'r'},
      {"fields", required_argument, NULL, 'f'}, {"max", required_argument, NULL, 'n'},
      {"quiet", no_argument, NULL, 'q'},       {"help", no_argument, NULL, 'h'},
      {"version", no_argument, NULL, 'V'},     {NULL, 0, NULL, 0}};
  opterr = 0;
  for (int o; (o = getopt_long(argc, argv, ":f:n:qhV", longopts, NULL)) != -1;) {
    char *end;
    switch (o) {
      case 'a':
      case 'r':
        if (cli_cmp_tol(c, PROG, o == 'a' ? "--atol" : "--rtol", optarg, o == 'r')) {
          return TROUBLE;
        }
        break;
      case 'f':
        c->fields = optarg;
        if (count_names(optarg) > 64) {
          return cli_usage(PROG, "--fields: more than 64 names");
        }
        break;
      case 'n':
        c->max = strtol(optarg, &end, 10);
        if (end == optarg || *end || c->max < 0) {
          return cli_usage(PROG, "--max: expected a count, got '%s'", optarg);
        }
        break;
      case 'q': c->quiet = 1; break;
      case 'h': fputs(usage_text, stdout); return cli_finish(PROG, EQUAL);
      case 'V': return cli_version(PROG);
      default: return cli_bad_option(PROG, o, argv);
    }
  }
  if (argc - optind != 2) {
    return cli_usage(PROG, "expected two inputs A B, got %d", argc - optind);
  }
  *path_a = argv[optind];
  *path_b = argv[optind + 1];
  if (strcmp(*path_a, "-") == 0 && strcmp(*path_b, "-") == 0) {
    return cli_usage(PROG, "only one input may be stdin ('-')");
  }
  c->a = strcmp(*path_a, "-") == 0 ? "<stdin>" : *path_a;
  c->b = strcmp(*path_b, "-") == 0 ? "<stdin>" : *path_b;
  return -1;
}


/* open an input as a reader of named records; NULL after the message */
static cli_reader *open_in(const char *path, FILE **f) {
  *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
  if (!*f) {
    cli_error(PROG, NULL, 0, "cannot open %s: %s", path, strerror(errno));
    return NULL;
  }
  cli_reader *rd = cli_reader_new(*f, strcmp(path, "-") == 0 ? "<stdin>" : path, CLI_FMT_AUTO, 0,
                                  0);
  if (!rd) {
    cli_error(PROG, NULL, 0, "out of memory");
  }
  return rd;
}


/* the next record of one input; 1, 0 at the end, -1 after the message */
static int next(cli_reader *rd, const char *name, const cli_named **r) {
  spart_err err = {0};
  int n = cli_read_named(rd, r, &err);
  if (n < 0) {
    cli_error(PROG, name, err.line, "%s", err.msg);
  }
  return n < 0 ? -1 : n;
}


int main(int argc, char **argv) {
  cli_cmp c = {.max = 10};
  const char *path_a = NULL, *path_b = NULL;
  int status = parse(&c, &path_a, &path_b, argc, argv);
  if (status >= 0) {
    return status;
  }
  FILE *fa = NULL, *fb = NULL;
  cli_reader *ra = open_in(path_a, &fa), *rb = ra ? open_in(path_b, &fb) : NULL;
  status = rb ? EQUAL : TROUBLE;
  while (status != TROUBLE) {
    const cli_named *x = NULL, *y = NULL;
    int na = next(ra, c.a, &x), nb = na < 0 ? -1 : next(rb, c.b, &y);
    if (na < 0 || nb < 0) {
      status = TROUBLE;
    } else if (na == 0 || nb == 0) {
      if (na != nb) {
        cli_cmp_ended(&c, na);
      }
      break;
    } else if ((na = cli_cmp_records(&c, PROG, x, y)) != 0) {
      if (na == -1) {
        cli_error(PROG, NULL, 0, "out of memory");
      }
      status = TROUBLE;
    }
  }
  size_t len = 0;
  const char *unseen = status != TROUBLE ? cli_cmp_unseen(&c, &len) : NULL;
  if (unseen) {
    cli_error(PROG, NULL, 0, "--fields: no record of %s or %s has a field '%.*s'", c.a, c.b,
              (int)len, unseen);
    status = TROUBLE;
  }
  if (status != TROUBLE) {
    status = c.ndiff ? DIFFER : EQUAL;
    cli_cmp_report(&c);
  }
  cli_cmp_free(&c);
  cli_reader_free(ra);
  cli_reader_free(rb);
  if (fa && fa != stdin) {
    fclose(fa);
  }
  if (fb && fb != stdin) {
    fclose(fb);
  }
  status = cli_finish(PROG, status);
  return status == CLI_EXIT_IO ? TROUBLE : status;
}
