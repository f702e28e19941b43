/* write_json.c -- JSON output: one object a line (RFC 7464 records with --seq), the
 * pass-through CSV cells first, then each field as a number or nested arrays. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "records.h"
#include "spart_text.h"


/* a JSON array of n0 x n1 x n2 values (0 dims dropped) */
static int add_array(cli_writer *wr, const double *v, int nd, const int *dims) {
  if (nd == 0) {
    char num[40];
    return cli_add(wr, num, (size_t)spu_dtoa(num, *v));
  }
  int stride = 1;
  for (int k = 1; k < nd; k++) {
    stride *= dims[k];
  }
  int bad = cli_addstr(wr, "[");
  for (int i = 0; i < dims[0] && !bad; i++) {
    bad = (i && cli_addstr(wr, ",")) || add_array(wr, v + (size_t)i * stride, nd - 1, dims + 1);
  }
  return bad || cli_addstr(wr, "]");
}


/* whether s (n bytes) is a number as JSON writes them */
static int json_number(const char *s, size_t n) {
  size_t i = s[0] == '-';
  size_t d = i;
  while (i < n && s[i] >= '0' && s[i] <= '9') {
    i++;
  }
  if (i == d || (s[d] == '0' && i > d + 1)) {
    return 0;
  }
  if (i < n && s[i] == '.') {
    size_t f = ++i;
    while (i < n && s[i] >= '0' && s[i] <= '9') {
      i++;
    }
    if (i == f) {
      return 0;
    }
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    i += i + 1 < n && (s[i + 1] == '+' || s[i + 1] == '-');
    size_t e = ++i;
    while (i < n && s[i] >= '0' && s[i] <= '9') {
      i++;
    }
    if (i == e) {
      return 0;
    }
  }
  return i == n;
}


/* text as a JSON string: quotes, backslashes and control characters (a 0 byte too) escaped;
   -1 when out of memory, 1 when the text is not UTF-8 (nothing is added then) */
static int add_json_string(cli_writer *wr, const char *s, size_t n) {
  if (cli_grow(&wr->buf, &wr->cap, wr->len + 6 * n + 3) != 0) {
    return -1;
  }
  char *o = wr->buf + wr->len;
  *o++ = '"';
  for (size_t i = 0; i < n;) {
    unsigned char ch = (unsigned char)s[i];
    size_t k = spart_utf8_len((const unsigned char *)s + i, n - i);
    if (k == 0) {
      return 1;
    }
    if (ch == '"' || ch == '\\') {
      *o++ = '\\';
      *o++ = (char)ch;
    } else if (ch == '\n' || ch == '\t' || ch == '\r') {
      *o++ = '\\';
      *o++ = ch == '\n' ? 'n' : ch == '\t' ? 't' : 'r';
    } else if (ch < 0x20) {
      o += snprintf(o, 7, "\\u%04x", ch);
    } else {
      memcpy(o, s + i, k);
      o += k;
    }
    i += k;
  }
  *o++ = '"';
  wr->len = (size_t)(o - wr->buf);
  return 0;
}


/* a CSV cell as a JSON value: a number as it was written, else the text, CSV quotes undone;
   -1 when out of memory, 1 when the text is not UTF-8 */
static int add_json_cell(cli_writer *wr, const char *s, size_t n) {
  if (n > 0 && json_number(s, n)) {
    return cli_add(wr, s, n);
  }
  char *tmp = malloc(n + 1);
  if (!tmp) {
    return -1;
  }
  int r = add_json_string(wr, tmp, cli_unquote(tmp, s, n));
  free(tmp);
  return r;
}


/* whether the n bytes at s are UTF-8 */
static int is_utf8(const char *s, size_t n) {
  for (size_t i = 0; i < n;) {
    size_t k = spart_utf8_len((const unsigned char *)s + i, n - i);
    if (k == 0) {
      return 0;
    }
    i += k;
  }
  return 1;
}


/* the first pass-through text of the record (a column name or a cell) that is not UTF-8, which
   JSON cannot carry: its column, or -1 */
static int not_utf8(const cli_record *pr) {
  for (int p = 0; p < cli_record_npass(pr); p++) {
    size_t n;
    const char *name = cli_record_pass_name(pr, p), *cell = cli_record_pass_cell(pr, p, &n);
    if (!is_utf8(name, strlen(name)) || (cell && !is_utf8(cell, n))) {
      return p;
    }
  }
  return -1;
}


/* a joints' vector v (vel: of degrees of freedom, else of coordinates; system: a record's) as
   an object keyed by joint name (--by-name): a number for a joint of one value, an array for
   one of more */
static int add_by_name(cli_writer *wr, const double *v, int vel, int system) {
  const spart_model *m = wr->names;
  int bad = cli_addstr(wr, "{"), first = 1;
  for (int i = 1; i < m->nb && !bad; i++) {
    int at, n = cli_joint_span(m, i, vel, system, &at);
    if (n == 0) {
      continue;
    }
    bad = (!first && cli_addstr(wr, ",")) ||
          add_json_string(wr, m->jnt_name[i], strlen(m->jnt_name[i])) || cli_addstr(wr, ":") ||
          add_array(wr, v + at, n > 1, &n);
    first = 0;
  }
  return bad || cli_addstr(wr, "}");
}


static int json_name(const cli_writer *wr, int k, int e, char **col, size_t *cap) {
  if (e > 0) {
    return 0;
  }
  size_t n = strlen(wr->f[k].name);
  if (cli_grow(col, cap, n + 1) != 0) {
    return -1;
  }
  memcpy(*col, wr->f[k].name, n + 1);
  return 1;
}


static int json_record(cli_writer *wr, const cli_record *pr, long long line, spart_err *err) {
  /* no record with a value that is not finite */
  if (cli_check_finite(wr, line, err) != 0) {
    return -SPART_EDATA;
  }
  if (cli_pass_names(wr, pr, err) != 0) {
    return -SPART_ENOMEM;
  }

  /* JSON carries UTF-8 text only */
  int bad_text = not_utf8(pr);
  if (bad_text >= 0) {
    char txt[200];
    const char *name = cli_record_pass_name(pr, bad_text);
    return cli_errf(err, SPART_EDATA, line,
                    "column '%s': text that is not UTF-8, which JSON output cannot carry (use -o "
                    "csv)",
                    spart_printable(txt, name, strlen(name)));
  }

  /* the record */
  int bad = (wr->seq && cli_addstr(wr, "\x1e")) || cli_addstr(wr, "{");
  int first = 1;
  for (int p = 0; p < cli_record_npass(pr) && !bad; p++, first = 0) {
    size_t n;
    const char *name = wr->passname[p], *cell = cli_record_pass_cell(pr, p, &n);
    size_t nj;
    const char *json = cli_record_pass_json(pr, p, &nj); /* a JSON value as it came */
    bad = (!first && cli_addstr(wr, ",")) || add_json_string(wr, name, strlen(name)) ||
          cli_addstr(wr, ":") ||
          (json ? cli_add(wr, json, nj) : add_json_cell(wr, cell, n)); /* UTF-8: see not_utf8 */
  }
  for (int k = 0; k < wr->nf && !bad; k++, first = 0) {
    int dims[3], nd, system, by = cli_by_name(wr, k, &system);
    if (by) {
      bad = (!first && cli_addstr(wr, ",")) || cli_addstr(wr, "\"") ||
            cli_addstr(wr, wr->f[k].name) || cli_addstr(wr, "\":") ||
            add_by_name(wr, wr->f[k].v, by == 2, system);
      continue;
    }
    cli_dims(wr, k, dims, &nd);
    bad = (!first && cli_addstr(wr, ",")) || cli_addstr(wr, "\"") ||
          cli_addstr(wr, wr->f[k].name) || cli_addstr(wr, "\":") ||
          (wr->f[k].text ? cli_addstr(wr, wr->f[k].text) : add_array(wr, wr->f[k].v, nd, dims));
  }
  if (bad || cli_addstr(wr, "}\n")) {
    return cli_errf(err, SPART_ENOMEM, 0, "out of memory");
  }
  return 0;
}


const cli_format cli_write_json = {CLI_FMT_JSON, json_record, json_name};
