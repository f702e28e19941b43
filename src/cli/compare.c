/* compare.c -- two streams' records of named values compared field by field within
 * tolerances (spart-cmp): the tolerances, the differences listed, each field's largest errors */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "spart_text.h"

/* the largest error of a field (its name without the indices _I..., or before its first '.':
   taum.JOINT is taum's) */
struct cli_cmp_stat {
  char *name;
  long n;                /* values compared */
  double abs, rel;       /* largest |a - b| and |a - b| / max(|a|, |b|) */
  long abs_rec, rel_rec; /* their records, from 1 */
};


/* whether name is field or field followed by its indices (_1, _2_3), or by '.' and more (a
   value named by joint, taum.JOINT, or an object's member); a field with a '.' (taum.JOINT)
   has no indices _I */
static int of_field(const char *name, const char *field, size_t n) {
  if (strncmp(name, field, n) != 0) {
    return 0;
  }
  if (name[n] == '.') {
    return 1;
  }
  if (memchr(field, '.', n)) {
    return name[n] == 0;
  }
  for (const char *p = name + n; *p; p++) {
    if (*p != '_' && (*p < '0' || *p > '9')) {
      return 0;
    }
  }
  return 1;
}


/* the length of name's field: name before its first '.' (taum.JOINT, taum.JOINT.K, an object's
   member), else without its indices (groups of _ and digits at its end) */
static size_t field_len(const char *name) {
  size_t n = strcspn(name, ".");
  if (n > 0 && name[n] == '.') {
    return n;
  }
  n = strlen(name);
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


int cli_cmp_tol(cli_cmp *c, const char *prog, const char *opt, const char *s, int rel) {
  const char *eq = strchr(s, '='), *v = eq ? eq + 1 : s;
  char *end;
  if (c->ntol == CLI_CMP_MAXTOL) {
    return cli_usage(prog, "%s: more than %d tolerances", opt, CLI_CMP_MAXTOL);
  }
  double x = strtod(v, &end);
  if (end == v || *end || !(x >= 0) || !isfinite(x) || (eq && eq == s)) {
    return cli_usage(prog, "%s: expected [FIELD=]X, X >= 0, got '%s'", opt, s);
  }
  cli_cmp_tolerance *t = &c->tols[c->ntol++];
  *t = (cli_cmp_tolerance){eq ? s : NULL, eq ? (size_t)(eq - s) : 0, rel ? NAN : x,
                           rel ? x : NAN};
  return 0;
}


/* the tolerances of a value: the last --atol and --rtol that name its field, else the last
   that name none */
static void tolerance(const cli_cmp *c, const char *name, double *atol, double *rtol) {
  int a = 0, r = 0;
  *atol = *rtol = 0;
  for (int k = 0; k < c->ntol; k++) {
    const cli_cmp_tolerance *t = &c->tols[k];
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


/* whether --fields takes name, noting which of its names did */
static int wanted(cli_cmp *c, const char *name) {
  if (!c->fields) {
    return 1;
  }
  int k = 0;
  for (const char *p = c->fields;; k++) {
    size_t n = strcspn(p, ",");
    if (n > 0 && of_field(name, p, n)) {
      c->seen |= k < 64 ? 1ULL << k : 0;
      return 1;
    }
    if (!p[n]) {
      return 0;
    }
    p += n + 1;
  }
}


const char *cli_cmp_unseen(const cli_cmp *c, size_t *len) {
  int k = 0;
  for (const char *p = c->fields; p; k++) {
    size_t n = strcspn(p, ",");
    if (n > 0 && k < 64 && !(c->seen & 1ULL << k)) {
      *len = n;
      return p;
    }
    p = p[n] ? p + n + 1 : NULL;
  }
  return NULL;
}


static struct cli_cmp_stat *field_stat(cli_cmp *c, const char *name) {
  size_t n = field_len(name);
  for (int k = 0; k < c->nst; k++) {
    if (strlen(c->st[k].name) == n && strncmp(c->st[k].name, name, n) == 0) {
      return &c->st[k];
    }
  }
  struct cli_cmp_stat *p = realloc(c->st, (size_t)(c->nst + 1) * sizeof *p);
  if (!p) {
    return NULL;
  }
  c->st = p;
  p = &c->st[c->nst];
  *p = (struct cli_cmp_stat){0};
  p->name = strndup(name, n);
  if (!p->name) {
    return NULL;
  }
  c->nst++;
  return p;
}


/* report a difference (the first --max of them) */
static void differ(cli_cmp *c, const cli_named *ra, const cli_named *rb, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void differ(cli_cmp *c, const cli_named *ra, const cli_named *rb, const char *fmt, ...) {
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
/* n: the wanted ones, or -1 out of memory, or -2 after the message of two values of one name
   (a JSON key a_1 beside an array a flattened to a_1, or a key twice) */
static int sorted(cli_cmp *c, const char *prog, const char *input, const cli_named *r, int **idx,
                  int *cap) {
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
    (*idx)[k] = k;
  }
  sort_rec = r;
  qsort(*idx, (size_t)r->n, sizeof **idx, by_name);
  for (int k = 0; k < r->n; k++) {
    const char *name = r->name[(*idx)[k]];
    if (k > 0 && strcmp(name, r->name[(*idx)[k - 1]]) == 0) {
      cli_error(prog, input, r->line, "two values named '%s' (a key, or an array's flattened "
                "column, given twice): which to compare is not known", name);
      return -2;
    }
    if (wanted(c, name)) {
      (*idx)[n++] = (*idx)[k];
    }
  }
  return n;
}


/* compare one pair of values, noting the field's largest errors; 0, or -1 out of memory */
static int compare_value(cli_cmp *c, const cli_named *ra, int i, const cli_named *rb, int j) {
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
  if (isinf(x) || isinf(y)) { /* no tolerance takes a finite value to an infinity */
    e = x == y ? 0 : INFINITY;
    rel = x == y ? 0 : 1;
    big = 0;
  }
  struct cli_cmp_stat *s = field_stat(c, name);
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
  if (isinf(e)) {
    char tx[32], ty[32];
    tx[spu_dtoa(tx, x)] = 0;
    ty[spu_dtoa(ty, y)] = 0;
    differ(c, ra, rb, "%s: %s vs %s: an infinity agrees only with itself", name, tx, ty);
  } else if (!(e <= atol + rtol * big)) {
    char tx[32], ty[32];
    tx[spu_dtoa(tx, x)] = 0;
    ty[spu_dtoa(ty, y)] = 0;
    differ(c, ra, rb, "%s: %s vs %s: error %.3g > %.3g (atol %g + rtol %g * %.3g)", name, tx,
           ty, e, atol + rtol * big, atol, rtol, big);
  }
  return 0;
}


int cli_cmp_records(cli_cmp *c, const char *prog, const cli_named *ra, const cli_named *rb) {
  c->nrec++;
  int na = sorted(c, prog, c->a, ra, &c->ia, &c->ca);
  int nb = na < 0 ? na : sorted(c, prog, c->b, rb, &c->ib, &c->cb);
  const int *ia = c->ia, *ib = c->ib;
  if (nb < 0) {
    return nb;
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


void cli_cmp_ended(cli_cmp *c, int a_goes_on) {
  c->ndiff++;
  if (!c->quiet) {
    printf("%s ends after record %ld, %s goes on\n", a_goes_on ? c->b : c->a, c->nrec,
           a_goes_on ? c->a : c->b);
  }
}


void cli_cmp_report(const cli_cmp *c) {
  if (c->quiet) {
    return;
  }
  if (c->ndiff > c->max) {
    printf("... %ld differences in all\n", c->ndiff);
  }
  /* the largest error of each field */
  printf("%-16s %8s %12s %8s %12s %8s\n", "field", "values", "max_abs_err", "record",
         "max_rel_err", "record");
  for (int k = 0; k < c->nst; k++) {
    const struct cli_cmp_stat *s = &c->st[k];
    char ar[24] = "-", rr[24] = "-";
    if (s->abs_rec) {
      snprintf(ar, sizeof ar, "%ld", s->abs_rec);
    }
    if (s->rel_rec) {
      snprintf(rr, sizeof rr, "%ld", s->rel_rec);
    }
    printf("%-16s %8ld %12.3g %8s %12.3g %8s\n", s->name, s->n, s->abs, ar, s->rel, rr);
  }
  printf("%ld records: %s\n", c->nrec, c->ndiff ? "differ" : "equal within the tolerances");
}


void cli_cmp_free(cli_cmp *c) {
  free(c->ia);
  free(c->ib);
  for (int k = 0; k < c->nst; k++) {
    free(c->st[k].name);
  }
  free(c->st);
}
