/* write_csv.c -- CSV output: a header row of the pass-through columns and name_i_j_k for every
 * output value, then one row a record with the same columns. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "records.h"
#include "spart_text.h"


/* text as a CSV cell: quoted when it holds a comma, a quote or a line break (RFC 4180), or
   when the readers would read it otherwise unquoted: blanks at its ends (dropped around a
   name), a '#' first (a header's first cell starting a comment); else as it is */
static int add_csv_text(cli_writer *wr, const char *s, size_t n) {
  if (!memchr(s, ',', n) && !memchr(s, '"', n) && !memchr(s, '\n', n) && !memchr(s, '\r', n) &&
      !(n > 0 && (s[0] == ' ' || s[n - 1] == ' ' || s[0] == '#'))) {
    return cli_add(wr, s, n);
  }
  int bad = cli_add(wr, "\"", 1);
  for (size_t i = 0; i < n && !bad; i++) {
    bad = cli_add(wr, s + i, 1) || (s[i] == '"' && cli_add(wr, "\"", 1));
  }
  return bad || cli_add(wr, "\"", 1);
}


/* a pass-through cell copied from the input (a quoted cell as it was: the reader checked it);
   an unquoted cell of a comma-separated input holds no comma and no line break, only maybe a
   quote */
static int add_pass(cli_writer *wr, const cli_record *pr, int p) {
  size_t n;
  const char *s = cli_record_pass_cell(pr, p, &n);
  if (pr->format != CLI_FMT_CSV) {
    return add_csv_text(wr, s, n); /* a JSON value's text */
  }
  if ((n > 0 && s[0] == '"') || (pr->delim == ',' && !memchr(s, '"', n))) {
    return cli_add(wr, s, n);
  }
  return add_csv_text(wr, s, n);
}


/* the CSV name of value e of output field k into *col (*cap bytes, grown): name_i_j_k, or by
   joint name, the name whole; 0, or -1 when out of memory */
static int col_name(const cli_writer *wr, int k, int e, char **col, size_t *cap) {
  int dims[3], nd, system, by = cli_by_name(wr, k, &system);
  const char *joint = "";
  int at = 0, coord = 0, ij = by ? cli_joint_of(wr->names, by == 2, system, e, &coord) : -1;
  if (ij > 0) {
    joint = wr->names->jnt_name[ij];
  }
  size_t n = strlen(wr->f[k].name) + strlen(joint) + 48; /* and three indices, or .K */
  if (cli_grow(col, cap, n) != 0) {
    return -1;
  }
  if (by) { /* --by-name: taum.JOINT, qm.JOINT.K */
    int count = ij > 0 ? cli_joint_span(wr->names, ij, by == 2, system, &at) : 0;
    if (count == 1) {
      snprintf(*col, n, "%s.%s", wr->f[k].name, joint);
    } else {
      snprintf(*col, n, "%s.%s.%d", wr->f[k].name, joint, coord + 1);
    }
    return 0;
  }
  cli_dims(wr, k, dims, &nd);
  int len = snprintf(*col, n, "%s", wr->f[k].name), rest = e;
  for (int j = 0; j < nd && (size_t)len < n; j++) {
    int stride = 1;
    for (int i = j + 1; i < nd; i++) {
      stride *= dims[i];
    }
    len += snprintf(*col + len, n - (size_t)len, "_%d", rest / stride + 1);
    rest %= stride;
  }
  return 0;
}


static int csv_name(const cli_writer *wr, int k, int e, char **col, size_t *cap) {
  if (e >= wr->f[k].n) {
    return 0;
  }
  return col_name(wr, k, e, col, cap) ? -1 : 1;
}


/* the CSV header row: pass-through names, then name_i_j_k for every output value */
static int header_row(cli_writer *wr, const cli_record *pr) {
  int bad = 0, first = 1;
  for (int p = 0; p < cli_record_npass(pr) && !bad; p++, first = 0) {
    bad = (!first && cli_addstr(wr, ",")) ||
          add_csv_text(wr, wr->passname[p], strlen(wr->passname[p]));
  }
  char *col = NULL; /* a column's name, quoted as it needs (a joint's name may hold a comma) */
  size_t cap = 0;
  for (int k = 0; k < wr->nf && !bad; k++) {
    for (int e = 0; e < wr->f[k].n && !bad; e++, first = 0) {
      bad = col_name(wr, k, e, &col, &cap) || (!first && cli_addstr(wr, ",")) ||
            add_csv_text(wr, col, strlen(col));
    }
  }
  free(col);
  return bad || cli_addstr(wr, "\n");
}


/* x as spu_dtoa writes it at o, from the writer's memo when it wrote the same bits lately (its
   32 bytes copied: o has room for them), *hits counting the numbers found there but zeros (which
   spu_dtoa writes at once); past the text */
static inline char *put_number(cli_writer *wr, char *o, double x, long *hits) {
  uint64_t b;
  memcpy(&b, &x, sizeof b);
  struct cli_memo *c = wr->memo + ((b * 0x9E3779B97F4A7C15ull) >> 56 & (CLI_MEMO - 1));
  if (c->bits != b) {
    c->bits = b;
    c->text[31] = (char)spu_dtoa(c->text, x);
  } else {
    *hits += (b << 1) != 0;
  }
  memcpy(o, c->text, sizeof c->text);
  return o + c->text[31];
}


/* the values of the record's fields as CSV cells, after a comma unless first; -1 when out of
   memory, 1 when a value is not finite (what is written is then of no use) */
static int add_values(cli_writer *wr, int first) {
  size_t most = 0;
  for (int k = 0; k < wr->nf; k++) {
    most += (size_t)wr->f[k].n;
  }
  if (cli_grow(&wr->buf, &wr->cap, wr->len + 32 * most + 32) != 0) {
    return -1; /* spu_dtoa writes up to 32 bytes; a number and its comma take at most 26 */
  }
  /* the memo, while a tenth of the numbers or more are found there (a miss costs about a
     fifteenth of spu_dtoa, a hit saves it), and in one record of CLI_MEMO_PROBE to look again */
  int probe = !wr->memo_on && wr->memo_rows == 0, memo = wr->memo_on || probe;
  char *o = wr->buf + wr->len;
  double sum = 0; /* x - x is 0 for a finite x, else NaN: the sum stays 0 while all are finite */
  long hits = 0;
  for (int k = 0; k < wr->nf; k++) {
    const double *v = wr->f[k].v;
    int e = 0, n = wr->f[k].n;
    if (first && n > 0) {
      sum += v[0] - v[0];
      o = memo ? put_number(wr, o, v[0], &hits) : o + spu_dtoa(o, v[0]);
      e = 1;
      first = 0;
    }
    if (memo) {
      for (; e < n; e++) {
        sum += v[e] - v[e];
        *o++ = ',';
        o = put_number(wr, o, v[e], &hits);
      }
    } else {
      for (; e < n; e++) {
        sum += v[e] - v[e];
        *o++ = ',';
        o += spu_dtoa(o, v[e]);
      }
    }
  }
  if (memo) {
    wr->memo_hits += hits;
    wr->memo_vals += (long)most;
  }
  if (++wr->memo_rows == CLI_MEMO_PROBE || probe) {
    wr->memo_on = memo && 10 * wr->memo_hits >= wr->memo_vals;
    wr->memo_hits = wr->memo_vals = 0;
    wr->memo_rows = probe; /* after a probe, the next in CLI_MEMO_PROBE records */
  }
  wr->len = (size_t)(o - wr->buf);
  return sum == 0 ? 0 : 1;
}


/* whether the record's fields are those of the CSV header (the first record's) */
static int same_fields(const cli_writer *wr) {
  if (wr->nf != wr->nhead) {
    return 0;
  }
  for (int k = 0; k < wr->nf; k++) {
    if ((wr->f[k].name != wr->head[k].name && strcmp(wr->f[k].name, wr->head[k].name) != 0) ||
        wr->f[k].d0 != wr->head[k].d0 || wr->f[k].d1 != wr->head[k].d1 ||
        wr->f[k].d2 != wr->head[k].d2) {
      return 0;
    }
  }
  return 1;
}


/* the header before the first row: the first record's fields, which every row must have */
static int header(cli_writer *wr, const cli_record *pr, long long line, spart_err *err) {
  if (wr->nhead) {
    return cli_errf(err, SPART_EDATA, line,
                    "this record gives other outputs than the CSV header names");
  }
  int ncol = cli_record_npass(pr);
  for (int k = 0; k < wr->nf; k++) {
    ncol += wr->f[k].n;
  }
  if (ncol == 0) { /* a row of no cells is a blank line: nothing a reader could tell apart */
    return cli_errf(err, SPART_EDATA, line,
                    "no values to write as CSV (no moving joint, or --only names none written): "
                    "use -o json");
  }
  memcpy(wr->head, wr->f, sizeof(wr->head));
  wr->nhead = wr->nf;
  return header_row(wr, pr) ? cli_errf(err, SPART_ENOMEM, 0, "out of memory") : 0;
}


static int csv_record(cli_writer *wr, const cli_record *pr, long long line, spart_err *err) {
  /* a row after the header with its fields, the usual case: its values are checked as they are
     written */
  int row = wr->nhead && same_fields(wr), r;
  if (!row && cli_check_finite(wr, line, err) != 0) {
    return -SPART_EDATA;
  }
  if (cli_pass_names(wr, pr, err) != 0) {
    return -SPART_ENOMEM;
  }
  if (!row && (r = header(wr, pr, line, err)) != 0) {
    return r;
  }

  /* a JSON array or object has no cell */
  for (int p = 0; p < cli_record_npass(pr); p++) {
    size_t n;
    if (!cli_record_pass_cell(pr, p, &n)) {
      char txt[200];
      const char *name = cli_record_pass_name(pr, p);
      return cli_errf(err, SPART_EDATA, line,
                      "key '%s' holds an array or an object: no CSV cell can carry it (use -o "
                      "json)",
                      spart_printable(txt, name, strlen(name)));
    }
  }

  /* the row: pass-through cells, then the values */
  int bad = 0, first = 1;
  for (int p = 0; p < cli_record_npass(pr) && !bad; p++, first = 0) {
    bad = (!first && cli_addstr(wr, ",")) || add_pass(wr, pr, p);
  }
  if (!bad) {
    bad = add_values(wr, first);
    if (bad > 0) {
      return cli_check_finite(wr, line, err);
    }
  }
  if (bad || cli_addstr(wr, "\n")) {
    return cli_errf(err, SPART_ENOMEM, 0, "out of memory");
  }
  return 0;
}


const cli_format cli_write_csv = {CLI_FMT_CSV, csv_record, csv_name};
