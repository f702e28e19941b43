/* spart-cmp -- compare two record streams (JSON or CSV, in any mix) field by field within
 * tolerances: the regression check of a pipeline's output */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define PROG "spart-cmp"
#define MAXTOL 64 /* --atol and --rtol given */

/* exit statuses: those of cmp(1) and diff(1) */
enum { EQUAL = 0, DIFFER = 1, TROUBLE = 2 };

static const char usage_text[] =
    "Usage: spart-cmp [OPTIONS] A B\n\n"
    "Compare two streams of records (JSON objects or CSV rows, in any mix; '-' is stdin for\n"
    "one of them) record by record, field by field: a JSON array is its CSV columns (taum is\n"
    "taum_1, taum_2, ...), numbers agree when |a - b| <= atol + rtol * max(|a|, |b|), other\n"
    "values when their texts are the same.  Writes the first differences and the largest\n"
    "error of each field on stdout.\n\n"
    "Options:\n"
    "      --atol [FIELD=]A  absolute tolerance, of FIELD only (taum: taum and taum_I...)\n"
    "                        when named; repeatable (default 0)\n"
    "      --rtol [FIELD=]R  relative tolerance, the same way (default 0)\n"
    "  -f, --fields NAMES    compare only these fields (comma-separated), which both must\n"
    "                        have; others are ignored (default: every field, in both)\n"
    "  -n, --max N           list at most N differences (default 10; 0: none)\n"
    "  -q, --quiet           write nothing: the exit status says it\n"
    "  -h, --help            show this help\n"
    "  -V, --version         show the version\n\n"
    "Exit status: 0 equal within the tolerances, 1 not, 2 trouble (bad usage, an input that\n"
    "cannot be read).  See spart-cmp(1).\n";

typedef struct {
  const char *field; /* NULL: every field */
  size_t len;
  double atol, rtol;
} tol;

/* the largest error of a field (its name without the indices _I...) */
typedef struct {
  char *name;
  long n;               /* values compared */
  double abs, rel;      /* largest |a - b| and |a - b| / max(|a|, |b|) */
  long abs_rec, rel_rec; /* their records, from 1 */
} stat;

typedef struct {
  tol tols[MAXTOL];
  int ntol;
  const char *fields;
  long max, ndiff, nrec;
  int quiet;
  stat *st;
  int nst;
  const char *path_a, *path_b; /* the inputs, "-" for stdin */
  const char *a, *b;           /* their names in messages */
  int *ia, *ib, ca, cb;        /* scratch: the records' values in name order */
} cmp;


/* whether name is field or field followed by its indices (_1, _2_3) */
static int of_field(const char *name, const char *field, size_t n) {
  if (strncmp(name, field, n) != 0) {
    return 0;
  }
  for (const char *p = name + n; *p; p++) {
    if (*p != '_' && (*p < '0' || *p > '9')) {
      return 0;
    }
  }
  return 1;
}


/* the length of name's field: name without its indices (groups of _ and digits at its end) */
static size_t field_len(const char *name) {
  size_t n = strlen(name);
  for (;;) {
    size_t k = n;
    while (k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9') {
      k--;
    }
    if (k == n || k < 2 || name[k - 1] != '_') {
      return n;
    }
    n = k - 1;
  }
}


/* the tolerances of a value: the last --atol and --rtol that name its field, else the last
   that name none */
static void tolerance(const cmp *c, const char *name, double *atol, double *rtol) {
  int a = 0, r = 0;
  *atol = *rtol = 0;
  for (int k = 0; k < c->ntol; k++) {
    const tol *t = &c->tols[k];
    int named = t->field != NULL, hit = !named || of_field(name, t->field, t->len);
    if (hit && !isnan(t->atol) && named >= a) {
      *atol = t->atol;
      a = named;
    }
    if (hit && !isnan(t->rtol) && named >= r) {
      *rtol = t->rtol;
      r = named;
    }
  }
}


/* whether --fields takes name */
static int wanted(const cmp *c, const char *name) {
  if (!c->fields) {
    return 1;
  }
  for (const char *p = c->fields;;) {
    size_t n = strcspn(p, ",");
    if (n > 0 && of_field(name, p, n)) {
      return 1;
    }
    if (!p[n]) {
      return 0;
    }
    p += n + 1;
  }
}


static stat *field_stat(cmp *c, const char *name) {
  size_t n = field_len(name);
  for (int k = 0; k < c->nst; k++) {
    if (strlen(c->st[k].name) == n && strncmp(c->st[k].name, name, n) == 0) {
      return &c->st[k];
    }
  }
  stat *p = realloc(c->st, (size_t)(c->nst + 1) * sizeof *p);
  if (!p) {
    return NULL;
  }
  c->st = p;
  p = &c->st[c->nst];
  *p = (stat){0};
  p->name = strndup(name, n);
  if (!p->name) {
    return NULL;
  }
  c->nst++;
  return p;
}


/* report a difference (the first --max of them) */
static void differ(cmp *c, const cli_named *ra, const cli_named *rb, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void differ(cmp *c, const cli_named *ra, const cli_named *rb, const char *fmt, ...) {
  if (!c->quiet && c->ndiff < c->max) {
    va_list ap;
    printf("record %ld (%s:%lld, %s:%lld): ", c->nrec, c->a, ra->line, c->b, rb->line);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
  }
  c->ndiff++;
}


/* the indices of a record's wanted values, sorted by name */
static const cli_named *sort_rec;
static int by_name(const void *x, const void *y) {
  return strcmp(sort_rec->name[*(const int *)x], sort_rec->name[*(const int *)y]);
}
static int sorted(const cmp *c, const cli_named *r, int **idx, int *cap) {
  int n = 0;
  if (r->n > *cap) {
    int *p = realloc(*idx, (size_t)r->n * sizeof *p);
    if (!p) {
      return -1;
    }
    *idx = p;
    *cap = r->n;
  }
  for (int k = 0; k < r->n; k++) {
    if (wanted(c, r->name[k])) {
      (*idx)[n++] = k;
    }
  }
  sort_rec = r;
  qsort(*idx, (size_t)n, sizeof **idx, by_name);
  return n;
}


/* compare one pair of values, noting the field's largest errors; 0, or -1 out of memory */
static int compare_value(cmp *c, const cli_named *ra, int i, const cli_named *rb, int j) {
  const char *name = ra->name[i];
  double x = ra->v[i], y = rb->v[j];
  if (isnan(x) || isnan(y)) {
    if (isnan(x) != isnan(y) || strcmp(ra->text[i], rb->text[j]) != 0) {
      differ(c, ra, rb, "%s: '%s' vs '%s'", name, ra->text[i], rb->text[j]);
    }
    return 0;
  }
  double atol, rtol, e = fabs(x - y), big = fmax(fabs(x), fabs(y));
  double rel = e == 0 ? 0 : e / big;
  stat *s = field_stat(c, name);
  if (!s) {
    return -1;
  }
  s->n++;
  if (e > s->abs) {
    s->abs = e;
    s->abs_rec = c->nrec;
  }
  if (rel > s->rel) {
    s->rel = rel;
    s->rel_rec = c->nrec;
  }
  tolerance(c, name, &atol, &rtol);
  if (!(e <= atol + rtol * big)) {
    char tx[32], ty[32];
    tx[spu_dtoa(tx, x)] = 0;
    ty[spu_dtoa(ty, y)] = 0;
    differ(c, ra, rb, "%s: %s vs %s: error %.3g > %.3g (atol %g + rtol %g * %.3g)", name, tx,
           ty, e, atol + rtol * big, atol, rtol, big);
  }
  return 0;
}


/* compare two records field by field; 0, or -1 out of memory */
static int compare(cmp *c, const cli_named *ra, const cli_named *rb) {
  int na = sorted(c, ra, &c->ia, &c->ca), nb = na < 0 ? -1 : sorted(c, rb, &c->ib, &c->cb);
  const int *ia = c->ia, *ib = c->ib;
  if (nb < 0) {
    return -1;
  }
  for (int p = 0, q = 0; p < na || q < nb;) {
    int d = p == na ? 1 : q == nb ? -1 : strcmp(ra->name[ia[p]], rb->name[ib[q]]);
    if (d < 0) {
      differ(c, ra, rb, "%s: only in %s", ra->name[ia[p++]], c->a);
    } else if (d > 0) {
      differ(c, ra, rb, "%s: only in %s", rb->name[ib[q++]], c->b);
    } else if (compare_value(c, ra, ia[p++], rb, ib[q++]) != 0) {
      return -1;
    }
  }
  return 0;
}


/* --atol/--rtol [FIELD=]X */
static int tol_arg(cmp *c, const char *opt, const char *s, int rel) {
  const char *eq = strchr(s, '='), *v = eq ? eq + 1 : s;
  char *end;
  if (c->ntol == MAXTOL) {
    return cli_usage(PROG, "%s: more than %d tolerances", opt, MAXTOL);
  }
  double x = strtod(v, &end);
  if (end == v || *end || !(x >= 0) || !isfinite(x) || (eq && eq == s)) {
    return cli_usage(PROG, "%s: expected [FIELD=]X, X >= 0, got '%s'", opt, s);
  }
  tol *t = &c->tols[c->ntol++];
  *t = (tol){eq ? s : NULL, eq ? (size_t)(eq - s) : 0, rel ? NAN : x, rel ? x : NAN};
  return 0;
}


static int parse(cmp *c, int argc, char **argv) {
  static const struct option longopts[] = {
      {"atol", required_argument, NULL, 'a'}, {"rtol", required_argument, NULL, 'r'},
      {"fields", required_argument, NULL, 'f'}, {"max", required_argument, NULL, 'n'},
      {"quiet", no_argument, NULL, 'q'},       {"help", no_argument, NULL, 'h'},
      {"version", no_argument, NULL, 'V'},     {NULL, 0, NULL, 0}};
  opterr = 0;
  for (int o; (o = getopt_long(argc, argv, "f:n:qhV", longopts, NULL)) != -1;) {
    char *end;
    switch (o) {
      case 'a':
      case 'r':
        if (tol_arg(c, o == 'a' ? "--atol" : "--rtol", optarg, o == 'r')) {
          return TROUBLE;
        }
        break;
      case 'f': c->fields = optarg; break;
      case 'n':
        c->max = strtol(optarg, &end, 10);
        if (end == optarg || *end || c->max < 0) {
          return cli_usage(PROG, "--max: expected a count, got '%s'", optarg);
        }
        break;
      case 'q': c->quiet = 1; break;
      case 'h': fputs(usage_text, stdout); return cli_finish(PROG, EQUAL);
      case 'V': printf("%s %s\n", PROG, SPART_VERSION); return cli_finish(PROG, EQUAL);
      default:
        if (optopt && strchr("afnr", optopt)) {
          return cli_usage(PROG, "option '%s' needs a value", argv[optind - 1]);
        }
        return cli_usage(PROG, "unknown option '%s'", argv[optind - 1]);
    }
  }
  if (argc - optind != 2) {
    return cli_usage(PROG, "expected two inputs A B, got %d", argc - optind);
  }
  c->path_a = argv[optind];
  c->path_b = argv[optind + 1];
  if (strcmp(c->path_a, "-") == 0 && strcmp(c->path_b, "-") == 0) {
    return cli_usage(PROG, "only one input may be stdin ('-')");
  }
  c->a = strcmp(c->path_a, "-") == 0 ? "<stdin>" : c->path_a;
  c->b = strcmp(c->path_b, "-") == 0 ? "<stdin>" : c->path_b;
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


/* the largest error of each field */
static void summary(const cmp *c) {
  printf("%-16s %8s %12s %8s %12s %8s\n", "field", "values", "max_abs_err", "record",
         "max_rel_err", "record");
  for (int k = 0; k < c->nst; k++) {
    const stat *s = &c->st[k];
    char ar[24] = "-", rr[24] = "-";
    if (s->abs_rec) {
      snprintf(ar, sizeof ar, "%ld", s->abs_rec);
    }
    if (s->rel_rec) {
      snprintf(rr, sizeof rr, "%ld", s->rel_rec);
    }
    printf("%-16s %8ld %12.3g %8s %12.3g %8s\n", s->name, s->n, s->abs, ar, s->rel, rr);
  }
}


int main(int argc, char **argv) {
  cmp c = {.max = 10};
  int status = parse(&c, argc, argv);
  if (status >= 0) {
    return status;
  }
  FILE *fa = NULL, *fb = NULL;
  cli_reader *ra = open_in(c.path_a, &fa), *rb = ra ? open_in(c.path_b, &fb) : NULL;
  status = rb ? EQUAL : TROUBLE;
  while (status != TROUBLE) {
    const cli_named *x = NULL, *y = NULL;
    int na = next(ra, c.a, &x), nb = na < 0 ? -1 : next(rb, c.b, &y);
    if (na < 0 || nb < 0) {
      status = TROUBLE;
      break;
    }
    if (na == 0 || nb == 0) {
      if (na != nb) {
        c.ndiff++;
        if (!c.quiet) {
          printf("%s ends after record %ld, %s goes on\n", na ? c.b : c.a, c.nrec,
                 na ? c.a : c.b);
        }
      }
      break;
    }
    c.nrec++;
    if (compare(&c, x, y) != 0) {
      cli_error(PROG, NULL, 0, "out of memory");
      status = TROUBLE;
    }
  }
  free(c.ia);
  free(c.ib);
  if (status != TROUBLE) {
    status = c.ndiff ? DIFFER : EQUAL;
    if (!c.quiet) {
      if (c.ndiff > c.max) {
        printf("... %ld differences in all\n", c.ndiff);
      }
      summary(&c);
      printf("%ld records: %s\n", c.nrec, c.ndiff ? "differ" : "equal within the tolerances");
    }
  }
  cli_reader_free(ra);
  cli_reader_free(rb);
  if (fa && fa != stdin) {
    fclose(fa);
  }
  if (fb && fb != stdin) {
    fclose(fb);
  }
  for (int k = 0; k < c.nst; k++) {
    free(c.st[k].name);
  }
  free(c.st);
  status = cli_finish(PROG, status);
  return status == CLI_EXIT_IO ? TROUBLE : status;
}
