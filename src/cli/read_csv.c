/* read_csv.c -- CSV input (RFC 4180, one delimiter a file): the header mapped to the state
 * record's fields (by joint name too) and pass-through columns, the rows (the usual row in one
 * pass), the same rows as named values (spart-cmp), a header shared with -j's readers, and the
 * frame -j cuts CSV blocks by. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "reader.h"

/* ---- CSV records ---- */

/* RFC 4180 with one delimiter for the file (',', or ';' or a tab when the header has no comma):
   a cell that starts with a double quote runs to the quote before the next delimiter or the end
   of the record, "" being a quote in it, and may hold delimiters and line breaks (the record's
   lines are then joined in rd->rec). */
#define CELL_OPEN ((size_t)-1) /* the quoted cell runs on past the end of the line */
#define CELL_BAD ((size_t)-2)  /* text after the closing quote */

/* the end of the cell of line (len bytes) that starts at i: the next delimiter, or the end; a
   quoted cell's, or CELL_OPEN or CELL_BAD */
static size_t cell_end(const char *line, size_t len, size_t i, char delim) {
  if (i < len && line[i] == '"') {
    for (i++;; i += 2) {
      const char *q = memchr(line + i, '"', len - i);
      if (!q) {
        return CELL_OPEN;
      }
      i = (size_t)(q - line);
      if (i + 1 >= len || line[i + 1] != '"') {
        break;
      }
    }
    i++;
    if (i < len && line[i] != delim) {
      return CELL_BAD;
    }
    return i;
  }
  const char *d = memchr(line + i, delim, len - i);
  return d ? (size_t)(d - line) : len;
}


/* split rd->line into cells, noting the first want; returns the number of cells, or the negative
   of (1 + the number of the cell) that is open at the end of the line (-1 - n) or has text after
   its closing quote: *open tells which */
long rd_csv_split(cli_reader *rd, int want, int *open) {
  long n = 0;
  size_t i = 0;
  *open = 0;
  for (;;) {
    size_t start = i;
    i = cell_end(rd->line, rd->len, i, rd->delim);
    if (i == CELL_OPEN || i == CELL_BAD) {
      *open = i == CELL_OPEN;
      return -1 - n;
    }
    if (n < want) {
      rd->cell[2 * n] = start;
      rd->cell[2 * n + 1] = i - start;
    }
    n++;
    if (i >= rd->len) {
      return n;
    }
    i++;
  }
}


/* the next line that is not blank (runs of empty lines are skipped at once); 1, 0, -1 */
int rd_csv_line(cli_reader *rd, spart_err *err) {
  for (;;) {
    int r = rd_next_line(rd, err);
    if (r <= 0 || rd->len > 0) {
      return r;
    }
    rd_skip_blank_lines(rd);
  }
}


/* the record that starts with rd->line, split: while a quoted cell holds a line break, the lines
   after it are joined to it in rd->rec (with \n).  The number of cells, or -1 with err filled. */
long rd_csv_cells(cli_reader *rd, int want, spart_err *err) {
  long long line = rd->lineno;
  for (;;) {
    int open;
    long n = rd_csv_split(rd, want, &open);
    if (n >= 0) {
      return n;
    }
    char name[240] = "";
    if (rd->started && -n - 1 < rd->ncol) {
      char txt[200];
      snprintf(name, sizeof(name), " '%s'",
               spart_printable(txt, rd->colname[-n - 1], strlen(rd->colname[-n - 1])));
    }
    if (!open) {
      return cli_errf(err, SPART_EDATA, line, "column %ld%s: text after its closing quote", -n,
                      name),
             -1;
    }
    /* the record so far into rd->rec, a line break, the next line */
    if (rd->line != rd->rec) {
      if (cli_grow(&rd->rec, &rd->reccap, rd->len + 1) != 0) {
        return cli_errf(err, SPART_ENOMEM, line, "out of memory"), -1;
      }
      memcpy(rd->rec, rd->line, rd->len);
      rd->reclen = rd->len;
    }
    int r = rd_next_line(rd, err);
    if (r < 0) {
      return -1;
    }
    if (r == 0) {
      return cli_errf(err, SPART_EDATA, line, "column %ld%s: its quote is never closed", -n, name),
             -1;
    }
    if (rd->reclen + 1 + rd->len > SPART_MAX_RECORD) {
      return cli_errf(err, SPART_EDATA, line, "record longer than %d bytes", SPART_MAX_RECORD), -1;
    }
    if (cli_grow(&rd->rec, &rd->reccap, rd->reclen + rd->len + 2) != 0) {
      return cli_errf(err, SPART_ENOMEM, line, "out of memory"), -1;
    }
    rd->rec[rd->reclen++] = '\n';
    memcpy(rd->rec + rd->reclen, rd->line, rd->len);
    rd->reclen += rd->len;
    rd->rec[rd->reclen] = 0;
    rd->line = rd->rec;
    rd->len = rd->reclen;
  }
}


/* the state field named by the n bytes at h: its own name, else in another case (R0 and r0,
   told apart by case, first as they are); -1 for none */
static int field_any_case(const char *h, size_t n) {
  int k = rd_field_find(h, n);
  for (int f = 0; f < CLI_NFIELD && k < 0; f++) {
    k = strlen(cli_fields[f].name) == n && strncasecmp(h, cli_fields[f].name, n) == 0 ? f : -1;
  }
  return k;
}


/* the state field whose name, in any case, starts h and is followed by digits only (qm1, QM_1's
   'QM' is found by csv_column), or -1 */
static int field_lookalike(const char *h) {
  for (int k = 0; k < CLI_NFIELD; k++) {
    size_t n = strlen(cli_fields[k].name);
    if (strncasecmp(h, cli_fields[k].name, n) == 0 && h[n] &&
        strspn(h + n, "0123456789") == strlen(h + n)) {
      return k;
    }
  }
  return -1;
}


/* one index of a column name at *p ("_N", N from 1 to most, no sign, no leading 0); 0 if none */
static long col_index(const char **p, long most) {
  const char *s = *p;
  long v = 0;
  if (*s != '_' || s[1] < '1' || s[1] > '9') {
    return 0;
  }
  for (s++; *s >= '0' && *s <= '9'; s++) {
    v = 10 * v + (*s - '0');
    if (v > most) {
      return 0;
    }
  }
  *p = s;
  return v;
}


/* a column FIELD.JOINT (one value) or FIELD.JOINT.K (K from 1: a joint of several values) of
   field k, name the text after "FIELD."; as csv_column */
static int csv_by_name(const char *h, const char *name, int k, const spart_model *m, unsigned reads,
                       column *c, spart_err *err, long long line) {
  char txt[200];
  size_t n = strlen(name);
  int vel = cli_fields[k].rows == -2, at = 0, coord = 0;
  int i = cli_joint_find(m, name, n), count = i > 0 ? cli_joint_span(m, i, vel, 1, &at) : 0;
  if (count > 1) {
    return cli_errf(err, SPART_EDATA, line,
                    "column '%s': joint '%s' has %d values: columns %s.%s.1..%s.%s.%d",
                    spart_printable(txt, h, strlen(h)), m->jnt_name[i], count, cli_fields[k].name,
                    m->jnt_name[i], cli_fields[k].name, m->jnt_name[i], count);
  }
  const char *dot = strrchr(name, '.');
  if (i < 0 && dot && dot[1] >= '1' && dot[1] <= '9' &&
      strspn(dot + 1, "0123456789") == strlen(dot + 1) && strlen(dot + 1) < 6) { /* JOINT.K */
    i = cli_joint_find(m, name, (size_t)(dot - name));
    count = i > 0 ? cli_joint_span(m, i, vel, 1, &at) : 0;
    coord = atoi(dot + 1) - 1;
    if (count == 1 || (count > 1 && coord >= count)) {
      return cli_errf(err, SPART_EDATA, line, "column '%s': joint '%s' has %d value%s%s%s%s",
                      spart_printable(txt, h, strlen(h)), m->jnt_name[i], count,
                      count == 1 ? ": the column is " : "s", count == 1 ? cli_fields[k].name : "",
                      count == 1 ? "." : "", count == 1 ? m->jnt_name[i] : "");
    }
    n = (size_t)(dot - name);
  }
  if (count == 0) {
    return cli_joint_refuse(m, cli_fields[k].name, name, n, line, err);
  }
  if (reads & 1u << k) {
    c->field = k;
    c->index = at + coord;
  }
  return 0;
}


/* map a header name to a state value: qm_3, R0_1_2, wFm_2_6.  Any other name passes through,
   unless it looks like a state value and is not one (QM_1, qm1, qm_0, qm_03, qm_+1, qm_8 of a
   7-joint robot, qm): that is an error. */
static int csv_column(const char *h, const spart_model *m, unsigned reads, column *c,
                      spart_err *err, long long line) {
  char txt[200];
  size_t len = strlen(h), base = strcspn(h, "_");
  int k = rd_field_find(h, base);
  c->field = -1;
  c->index = 0;
  if (reads != ~0u && (reads & CLI_READS_CONTACTS) && strcasecmp(h, "contacts") == 0) {
    return cli_errf(err, SPART_EDATA, line,
                    "column '%s': contacts are read from JSON records only, not CSV (use -i json)",
                    spart_printable(txt, h, len));
  }
  if (reads != ~0u && (reads & CLI_READS_TARGETS) && strcasecmp(h, "targets") == 0) {
    return cli_errf(err, SPART_EDATA, line,
                    "column '%s': targets are read from JSON records only, not CSV (use -i json)",
                    spart_printable(txt, h, len));
  }
  size_t dot = strcspn(h, "._");
  int named = h[dot] == '.' ? field_any_case(h, dot) : -1; /* FIELD.JOINT, FIELD in any case */
  if (named >= 0 && rd_by_name_field(named) && memcmp(h, cli_fields[named].name, dot) == 0) {
    return csv_by_name(h, h + dot + 1, named, m, reads, c, err, line); /* qm.JOINT */
  }
  if (named >= 0) { /* UM.JOINT, or a field that joints do not name (r0.x) */
    const char *f = cli_fields[named].name;
    int by = rd_by_name_field(named),
        two = cli_fields[named].rows == 3 || cli_fields[named].rows == -1;
    return cli_errf(err, SPART_EDATA, line,
                    "column '%s' is not a state column: state columns are %s_%s%s%s%s%s",
                    spart_printable(txt, h, len), f, two ? "I_J" : "I", by ? " or " : "",
                    by ? f : "", by ? ".JOINT" : "",
                    memcmp(h, f, dot) != 0 ? " (case matters)" : "");
  }
  if (k < 0) {
    /* another case of a field's name, or a field's name run into its index */
    int like = field_any_case(h, base);
    like = like >= 0 ? like : field_lookalike(h);
    if (like >= 0) {
      return cli_errf(err, SPART_EDATA, line,
                      "column '%s' is not a state column: state columns are %s_%s (case matters)",
                      spart_printable(txt, h, len), cli_fields[like].name,
                      cli_fields[like].rows == 3 || cli_fields[like].rows == -1 ? "I_J" : "I");
    }
    if (rd_foreign_find(h, len) >= 0) {
      return rd_foreign_refuse(rd_foreign_find(h, len), "column", h, len, line, err);
    }
    return 0; /* a column of the user's own: it passes through */
  }
  int rows = rd_field_rows(m, k), cols = cli_fields[k].cols;
  int two = cli_fields[k].rows == 3 || cli_fields[k].rows == -1; /* matrices: name_i_j */
  const char *p = h + base;
  long i = col_index(&p, two ? rows : (long)rows * cols), j = two ? col_index(&p, cols) : 1;
  if (i == 0 || j == 0 || *p) {
    if (two) {
      return cli_errf(err, SPART_EDATA, line,
                      "column '%s' is not a state column: %s_I_J takes I from 1 to %d and J from 1 "
                      "to %d, without sign or leading zeros",
                      spart_printable(txt, h, len), cli_fields[k].name, rows, cols);
    }
    return cli_errf(err, SPART_EDATA, line,
                    "column '%s' is not a state column: %s_I takes I from 1 to %d, without sign or "
                    "leading zeros",
                    spart_printable(txt, h, len), cli_fields[k].name, rows * cols);
  }
  if (reads & 1u << k) {
    c->field = k;
    c->index = (int)(two ? (i - 1) * cols + j - 1 : i - 1);
  }
  return 0; /* a field this command does not read passes through */
}


/* the delimiter of a header line: a comma if it has one outside quotes, else a tab, else a
   semicolon, else a comma (one column) */
char cli_csv_delimiter(const char *line, size_t len) {
  int quoted = 0, tab = 0, semi = 0;
  for (size_t i = 0; i < len; i++) {
    quoted ^= line[i] == '"';
    if (!quoted) {
      if (line[i] == ',') {
        return ',';
      }
      tab |= line[i] == '\t';
      semi |= line[i] == ';';
    }
  }
  return tab ? '\t' : semi ? ';' : ',';
}


static int cmp_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}


/* "R0_1_1..R0_3_3, qm_1..qm_7" for the fields in reads */
static void expected_columns(char *out, size_t n, const spart_model *m, unsigned reads) {
  size_t k = 0;
  out[0] = 0;
  for (int f = 0; f < CLI_NFIELD && k < n; f++) {
    int rows = rd_field_rows(m, f), two = cli_fields[f].rows == 3 || cli_fields[f].rows == -1;
    if (!(reads & 1u << f) || rows * cli_fields[f].cols == 0 || f >= CLI_F_q0) { /* stand-ins */
      continue;
    }
    if (two) {
      k += (size_t)snprintf(out + k, n - k, "%s%s_1_1..%s_%d_%d", k ? ", " : "", cli_fields[f].name,
                            cli_fields[f].name, rows, cli_fields[f].cols);
    } else {
      k += (size_t)snprintf(out + k, n - k, "%s%s_1..%s_%d", k ? ", " : "", cli_fields[f].name,
                            cli_fields[f].name, rows * cli_fields[f].cols);
    }
  }
}


/* the columns of field k's values that no column gives (who: the column of each, 0 for none),
   the first three and how many more, named as the header names the field's others: by joint
   name (qm.JOINT) when one of them is, else by index */
static void missing_columns(char *out, size_t n, const cli_reader *rd, const spart_model *m, int k,
                            const int *who, int count) {
  const char *f = cli_fields[k].name;
  size_t len = strlen(f), at = 0;
  int by = 0, missing = 0, two = cli_fields[k].rows == 3 || cli_fields[k].rows == -1;
  for (int j = 0; j < rd->ncol; j++) {
    by |= rd->cols[j].field == k && rd->colname[j][len] == '.';
  }
  out[0] = 0;
  for (int e = 0; e < count; e++) {
    if (who[e] || ++missing > 3) {
      continue;
    }
    int coord, first, i = by ? cli_joint_of(m, cli_fields[k].rows == -2, 1, e, &coord) : -1;
    char txt[SPART_PRINTABLE], col[SPART_PRINTABLE + 40];
    if (i > 0) {
      int several = cli_joint_span(m, i, cli_fields[k].rows == -2, 1, &first) > 1;
      spart_printable(txt, m->jnt_name[i], strlen(m->jnt_name[i]));
      snprintf(col, sizeof(col), several ? "%s.%s.%d" : "%s.%s", f, txt, coord + 1);
    } else if (two) {
      snprintf(col, sizeof(col), "%s_%d_%d", f, e / cli_fields[k].cols + 1,
               e % cli_fields[k].cols + 1);
    } else {
      snprintf(col, sizeof(col), "%s_%d", f, e + 1);
    }
    at += (size_t)snprintf(out + at, n - at, "%s%s", missing > 1 ? ", " : "", col);
    at = at < n ? at : n - 1;
  }
  if (missing > 3) {
    snprintf(out + at, n - at, " and %d more", missing - 3);
  }
}


static int csv_header(cli_reader *rd, const spart_model *m, spart_err *err) {
  /* a logger's preamble: blank lines and lines that start with '#', before the header only */
  long long hint = 0; /* a comment that names a state column */
  int r;
  while ((r = rd_csv_line(rd, err)) > 0 && rd->line[0] == '#') {
    for (int k = 0; k < CLI_NFIELD && !hint; k++) {
      char pat[16];
      snprintf(pat, sizeof(pat), "%s_1", cli_fields[k].name);
      hint = strstr(rd->line, pat) ? rd->lineno : 0;
    }
  }
  if (r <= 0) {
    return r;
  }
  long long line = rd->lineno;
  if (rd->line[0] == '{' || rd->line[0] == '[') {
    return cli_errf(err, SPART_EDATA, line, "expected a CSV header, got JSON (use -i json)"), -1;
  }
  if (rd->line[0] == '<') {
    return cli_errf(err, SPART_EDATA, line,
                    "expected a CSV header, got XML (a URDF is a model: give it with -m)"),
           -1;
  }
  if (rd->reads != ~0u && (rd->reads & (CLI_NEEDS_CONTACTS | CLI_READS_TARGETS))) {
    return cli_errf(err, SPART_EDATA, line, "%s are read from JSON records only, not CSV (use -i "
                    "json)", rd->reads & CLI_READS_TARGETS ? "targets" : "contacts"),
           -1;
  }
  rd->delim = cli_csv_delimiter(rd->line, rd->len);
  long n = rd_csv_cells(rd, 0, err);
  if (n < 0) {
    return -1;
  }
  if (n > 1000000) {
    return cli_errf(err, SPART_EDATA, line, "%ld columns: more than 1000000", n), -1;
  }
  rd->cell = malloc(2 * (size_t)n * sizeof(size_t));
  rd->cols = calloc((size_t)n, sizeof(column));
  rd->colname = calloc((size_t)n, sizeof(char *));
  rd->pass = malloc((size_t)n * sizeof(int));
  char **sorted = malloc((size_t)n * sizeof(char *));
  if (!rd->cell || !rd->cols || !rd->colname || !rd->pass || !sorted) {
    free(sorted);
    return cli_errf(err, SPART_ENOMEM, line, "out of memory"), -1;
  }
  rd->ncol = (int)n;
  int open;
  rd_csv_split(rd, (int)n, &open);

  /* name each column (quotes undone, blanks around it dropped) */
  int seen[CLI_NFIELD] = {0}, bad = 0;
  for (int j = 0; j < n && !bad; j++) {
    size_t a = rd->cell[2 * j], len = rd->cell[2 * j + 1];
    while (len > 0 && rd->line[a] == ' ') {
      a++, len--;
    }
    while (len > 0 && rd->line[a + len - 1] == ' ') {
      len--;
    }
    rd->colname[j] = malloc(len + 1);
    if (!rd->colname[j]) {
      free(sorted);
      return cli_errf(err, SPART_ENOMEM, line, "out of memory"), -1;
    }
    len = cli_unquote(rd->colname[j], rd->line + a, len);
    sorted[j] = rd->colname[j];
    if (len == 0 || memchr(rd->colname[j], 0, len)) {
      bad = cli_errf(err, SPART_EDATA, line, "column %d has %s", j + 1,
                     len ? "a 0 byte in its name" : "no name");
    } else {
      bad = csv_column(rd->colname[j], m, rd->reads, &rd->cols[j], err, line);
    }
    if (rd->cols[j].field < 0 || (rd->keep & 1u << rd->cols[j].field)) { /* --keep-state */
      rd->pass[rd->npass++] = j;
    }
    if (rd->cols[j].field < 0) {
      continue;
    }
    seen[rd->cols[j].field]++;
    rd->has |= 1u << rd->cols[j].field;
  }
  /* some field the command reads (a '#' before the header, a file of other columns) */
  if (!bad && !(rd->has & rd->reads) && !(rd->reads & CLI_READS_NONE_OK)) {
    char want[600], also[100] = "";
    expected_columns(want, sizeof(want), m, rd->reads);
    if (hint) {
      snprintf(also, sizeof(also), " (line %lld, a comment, names some: remove its '#')", hint);
    }
    bad = cli_errf(err, SPART_EDATA, line, "the header names no state column%s; expected %s%s",
                   rd->delim == ','   ? ""
                   : rd->delim == ';' ? " (read as ';'-separated)"
                                      : " (read as tab-separated)",
                   want, also);
  }
  /* every name once (a state value has one name: one column) */
  if (!bad) {
    qsort(sorted, (size_t)n, sizeof(char *), cmp_name);
    for (long j = 1; j < n && !bad; j++) {
      if (strcmp(sorted[j], sorted[j - 1]) == 0) {
        char txt[200];
        bad = cli_errf(err, SPART_EDATA, line, "column '%s' appears twice",
                       spart_printable(txt, sorted[j], strlen(sorted[j])));
      }
    }
  }
  free(sorted);
  if (!bad) {
    bad = rd_qm_missing(rd, m, rd->has, 1, line, err);
  }
  if (bad) {
    return -1;
  }
  /* no value twice (qm_1 and qm.JOINT both): the columns of each value */
  int off[CLI_NFIELD + 1] = {0};
  for (int k = 0; k < CLI_NFIELD; k++) {
    off[k + 1] = off[k] + rd_field_rows(m, k) * cli_fields[k].cols;
  }
  int *who = calloc((size_t)off[CLI_NFIELD] + 1, sizeof(int));
  if (!who) {
    return cli_errf(err, SPART_ENOMEM, line, "out of memory"), -1;
  }
  for (int j = 0; j < n && !bad; j++) {
    const column *c = &rd->cols[j];
    int *w = c->field >= 0 ? &who[off[c->field] + c->index] : NULL;
    if (w && *w) {
      char a[200], b[200];
      bad = cli_errf(err, SPART_EDATA, line, "columns '%s' and '%s' give the same value",
                     spart_printable(a, rd->colname[*w - 1], strlen(rd->colname[*w - 1])),
                     spart_printable(b, rd->colname[j], strlen(rd->colname[j])));
    } else if (w) {
      *w = j + 1;
    }
  }
  /* every value of a field, the message naming those that have no column */
  for (int k = 0; k < CLI_NFIELD && !bad; k++) {
    int count = rd_field_rows(m, k) * cli_fields[k].cols;
    if (seen[k] && seen[k] != count) {
      char miss[400];
      missing_columns(miss, sizeof(miss), rd, m, k, who + off[k], count);
      bad = cli_errf(err, SPART_EDATA, line, "%s has %d columns, model needs %d: no column %s",
                     cli_fields[k].name, seen[k], count, miss);
    }
  }
  free(who);
  if (bad) {
    return -1;
  }
  for (int j = 0; j < n; j++) {
    int count;
    if (rd->cols[j].field >= 0) {
      rd->cols[j].dst = rd_field_ptr(rd, m, rd->cols[j].field, &count) + rd->cols[j].index;
    }
  }
  if (rd_csv_pass_names(rd) != 0) {
    return cli_errf(err, SPART_ENOMEM, line, "out of memory"), -1;
  }
  rd->started = 1;
  return 1;
}


int rd_csv_pass_names(cli_reader *rd) {
  cli_record *r = &rd->r;
  r->npass = 0;
  r->tlen = 0;
  for (int p = 0; p < rd->npass; p++) {
    const char *name = rd->colname[rd->pass[p]];
    long at = cli_record_text(r, name, strlen(name));
    if (at < 0 || cli_record_room(r) != 0) {
      r->npass = 0;
      r->tlen = r->tnames = 0;
      return -1;
    }
    r->pass[p] = (cli_pass){(size_t)at, 0, 0, 0, -1};
    r->npass++;
  }
  r->tnames = r->tlen;
  return 0;
}


/* the row's pass-through cells (as they came, quoted or not) into the record, after the names;
   0, or -1 when out of memory */
static int pass_cells(cli_reader *rd) {
  cli_record *r = &rd->r;
  r->tlen = r->tnames;
  for (int p = 0; p < rd->npass; p++) {
    size_t j = (size_t)rd->pass[p], n = rd->cell[2 * j + 1];
    long at = cli_record_text(r, rd->line + rd->cell[2 * j], n);
    if (at < 0) {
      return -1;
    }
    r->pass[p].cell = (size_t)at;
    r->pass[p].clen = (long)n;
  }
  return 0;
}


/* the usual row, read in one pass: every cell where the header says, every number read to its
   delimiter; 0 for anything else (then csv_record splits the row and says what is wrong).  Only
   the cells that pass through are noted in rd->cell: the numbers go straight to the state. */
static inline __attribute__((always_inline)) int csv_fast_row(cli_reader *rd, const int keep) {
  const char *line = rd->line, *lim = line + rd->len, *p = line;
  const char delim = rd->delim;
  /* numbers are read ahead 8 bytes at a time up to the end of what the block holds (the 0
     after the line stops them) */
  const char *ahead = rd->buf + rd->bend > lim + 1 ? rd->buf + rd->bend : lim + 1;
  const column *c = rd->cols, *last = c + rd->ncol - 1;
  /* x - x of every number: 0, or NaN when one is infinite or NaN (tested once, at the end) */
  double nonfinite = 0;
  if (!ahead) {
    __builtin_unreachable(); /* it never is: spu_strtod, inlined, need not test it for NULL */
  }
  for (;; c++) {
    const char *end;
    if (c->field < 0) {
      size_t j = (size_t)(c - rd->cols), i = (size_t)(p - line);
      if (*p == '"') {
        return 0; /* a quoted cell: csv_record reads it */
      }
      end = memchr(p, delim, (size_t)(lim - p));
      end = end ? end : lim;
      rd->cell[2 * j] = i;
      rd->cell[2 * j + 1] = (size_t)(end - p);
    } else {
      double x = spu_strtod(p, ahead, &end);
      if (end == p) {
        return 0;
      }
      nonfinite += x - x;
      *c->dst = x;
      if (keep) { /* the cell passes through too */
        size_t j = (size_t)(c - rd->cols);
        rd->cell[2 * j] = (size_t)(p - line);
        rd->cell[2 * j + 1] = (size_t)(end - p);
      }
    }
    /* a cell ends at a delimiter, the last at the end of the line (a delimiter there is one cell
       more; the 0 at lim is no delimiter: a cell fewer) */
    if (c == last) {
      return end == lim && nonfinite == 0;
    }
    if (*end != delim) {
      return 0;
    }
    p = end + 1;
  }
}


/* csv_fast_row with keep (--keep-state) a constant: a copy for each, without its test for every
   number */
static int csv_fast(cli_reader *rd) {
  return rd->keep ? csv_fast_row(rd, 1) : csv_fast_row(rd, 0);
}


static int csv_record(cli_reader *rd, spart_model **m, spart_err *err) {
  if (!*m) {
    return cli_errf(err, SPART_EDATA, 1, "CSV input needs a model: give -m FILE");
  }
  if (rd->stm != *m) {
    if (rd_state_init(rd, *m) != 0) {
      return cli_errf(err, SPART_ENOMEM, 0, "out of memory");
    }
    /* once: every row fills the same fields, all their values (csv_header sees to that), and
       leaves the others alone */
    rd_state_reset(rd, *m);
  }
  if (!rd->started) {
    int r = csv_header(rd, *m, err);
    if (r <= 0) {
      rd->dead = r < 0; /* no row can be read without its header */
      return r;
    }
  }
  int r = rd_csv_line(rd, err); /* after the header, every line that is not blank is a record */
  if (r <= 0) {
    return r;
  }
  long long line = rd->lineno;
  rd->r.st.line = line;
  if (csv_fast(rd)) {
    rd->r.st.has = rd->has;
    return rd->npass && pass_cells(rd) ? cli_errf(err, SPART_ENOMEM, line, "out of memory") : 1;
  }
  rd->r.st.has = 0;
  long n = rd_csv_cells(rd, rd->ncol, err);
  if (n < 0) {
    return -SPART_EDATA;
  }
  if (n != rd->ncol) {
    return cli_errf(err, SPART_EDATA, line, "expected %d fields, got %ld", rd->ncol, n);
  }
  for (int j = 0; j < n; j++) {
    const column *c = &rd->cols[j];
    if (c->field < 0) {
      continue;
    }
    const char *s = rd->line + rd->cell[2 * j], *stop = s + rd->cell[2 * j + 1], *end;
    char num[64];
    if (s < stop && *s == '"' && stop - s < (long)sizeof(num)) { /* a quoted number */
      size_t k = cli_unquote(num, s, (size_t)(stop - s));
      s = num;
      stop = num + k;
    }
    double x = spu_strtod(s, stop, &end);
    while (end < stop && *end == ' ') {
      end++;
    }
    if (end == s || end != stop || !isfinite(x)) {
      char name[200], txt[200];
      s = rd->line + rd->cell[2 * j];
      return cli_errf(err, SPART_EDATA, line, "column '%s': '%s' is not a finite number",
                      spart_printable(name, rd->colname[j], strlen(rd->colname[j])),
                      spart_printable(txt, s, rd->cell[2 * j + 1]));
    }
    *c->dst = x;
    rd->r.st.has |= 1u << c->field;
  }
  return rd->npass && pass_cells(rd) ? cli_errf(err, SPART_ENOMEM, line, "out of memory") : 1;
}


/* a CSV cell (n bytes at s) without quotes and blanks at its ends into the arena-bound buffer */
static size_t named_cell(char **buf, size_t *cap, const char *s, size_t n) {
  while (n > 0 && *s == ' ') {
    s++, n--;
  }
  while (n > 0 && s[n - 1] == ' ') {
    n--;
  }
  if (cli_grow(buf, cap, n + 1) != 0) {
    return (size_t)-1;
  }
  return cli_unquote(*buf, s, n);
}


static int named_csv(cli_reader *rd, spart_err *err) {
  int r;
  char *buf = NULL;
  size_t cap = 0;
  if (!rd->started) {
    /* the header, after '#' lines: the names */
    while ((r = rd_csv_line(rd, err)) > 0 && rd->line[0] == '#') {
    }
    if (r <= 0) {
      rd->dead = r < 0;
      return r;
    }
    long long line = rd->lineno;
    rd->delim = cli_csv_delimiter(rd->line, rd->len);
    long n = rd_csv_cells(rd, 0, err);
    if (n < 0 || n > 1000000) {
      rd->dead = 1;
      return n < 0 ? -1 : cli_errf(err, SPART_EDATA, line, "%ld columns: more than 1000000", n);
    }
    rd->cell = malloc(2 * (size_t)n * sizeof(size_t));
    rd->colname = calloc((size_t)n, sizeof(char *));
    if (!rd->cell || !rd->colname) {
      rd->dead = 1;
      return cli_errf(err, SPART_ENOMEM, line, "out of memory");
    }
    rd->ncol = (int)n;
    int open;
    rd_csv_split(rd, (int)n, &open);
    for (int k = 0; k < n; k++) {
      size_t len = named_cell(&buf, &cap, rd->line + rd->cell[2 * k], rd->cell[2 * k + 1]);
      rd->colname[k] = len == (size_t)-1 ? NULL : strdup(buf);
      if (!rd->colname[k]) {
        free(buf);
        rd->dead = 1;
        return cli_errf(err, SPART_ENOMEM, line, "out of memory");
      }
      if (len == 0) {
        free(buf);
        rd->dead = 1;
        return cli_errf(err, SPART_EDATA, line, "column %d has no name", k + 1);
      }
    }
    rd->started = 1;
  }
  r = rd_csv_line(rd, err);
  long long line = rd->lineno;
  long n = r > 0 ? rd_csv_cells(rd, rd->ncol, err) : 0;
  if (r <= 0 || n < 0 || n != rd->ncol) {
    free(buf); /* (the header's names, made above) */
    return r <= 0  ? r
           : n < 0 ? -SPART_EDATA
                   : cli_errf(err, SPART_EDATA, line, "expected %d fields, got %ld", rd->ncol, n);
  }
  rd->nr.line = line;
  for (int k = 0; k < n; k++) {
    size_t len = named_cell(&buf, &cap, rd->line + rd->cell[2 * k], rd->cell[2 * k + 1]);
    const char *end;
    double x = len == (size_t)-1 ? NAN : spu_strtod(buf, buf + len, &end);
    if (len == (size_t)-1 || rd_named_add(rd, rd->colname[k], strlen(rd->colname[k]), buf, len,
                                          len > 0 && end == buf + len ? x : NAN) != 0) {
      free(buf);
      return cli_errf(err, SPART_ENOMEM, line, "out of memory");
    }
  }
  free(buf);
  return 1;
}


int cli_reader_share(cli_reader *rd, const cli_reader *src, const spart_model *m) {
  rd->format = src->format;
  if (src->format != CLI_FMT_CSV || !src->started) {
    return 0;
  }
  size_t n = (size_t)src->ncol;
  rd->cell = malloc(2 * n * sizeof(size_t));
  rd->cols = malloc(n * sizeof(column));
  rd->colname = calloc(n, sizeof(char *));
  rd->pass = malloc(n * sizeof(int));
  if (!rd->cell || !rd->cols || !rd->colname || !rd->pass || rd_state_init(rd, m)) {
    return -1;
  }
  rd->ncol = src->ncol;
  rd_state_reset(rd, m);
  for (size_t j = 0; j < n; j++) {
    int count;
    rd->colname[j] = strdup(src->colname[j]);
    if (!rd->colname[j]) {
      return -1;
    }
    rd->cols[j] = src->cols[j];
    if (rd->cols[j].field >= 0) {
      rd->cols[j].dst = rd_field_ptr(rd, m, rd->cols[j].field, &count) + rd->cols[j].index;
    }
  }
  memcpy(rd->pass, src->pass, (size_t)src->npass * sizeof(int));
  rd->npass = src->npass;
  rd->has = src->has;
  rd->delim = src->delim;
  rd->keep = src->keep;
  rd->started = 1;
  return rd_csv_pass_names(rd);
}


/* ---- the frame (-j's blocks) ---- */

enum { C_START, C_PLAIN, C_QUOTED, C_QEND }; /* a cell's state, as cell_end reads it */

/* before the header: '#' and blank lines, then the header's first line names the delimiter
   (csv_header, cli_csv_delimiter); 1 when the header has begun, 0 for more input */
static int frame_preamble(cli_frame *f, const char *buf, size_t len, int eof) {
  while (!f->header) {
    size_t i = f->scan;
    const char *nl = memchr(buf + i, '\n', len - i);
    if (!nl && !eof) {
      return 0;
    }
    size_t n = nl ? (size_t)(nl - (buf + i)) : len - i;
    const char *p = buf + i;
    if (f->line + f->lines == 0) {
      size_t bom = cli_bom(p, n);
      p += bom, n -= bom;
    }
    size_t k = n;
    while (k > 0 && p[k - 1] == '\r') {
      k--;
    }
    if (k > 0 && p[0] != '#') {
      f->delim = cli_csv_delimiter(p, k);
      f->header = 1;
      f->cell = C_START;
      f->scan = (size_t)(p - buf); /* the header's cells from its start */
      return 1;
    }
    if (!nl) {
      f->scan = len;
      return 0;
    }
    f->scan = i + n + 1 + (size_t)(p - (buf + i)); /* no cut before the header */
    f->lines++;
  }
  return 1;
}


/* one byte of a record through the cell states (cell_end's grammar); whether the block is full
   after it */
static int frame_byte(cli_frame *f, const char *buf, size_t i) {
  char ch = buf[i];
  switch (f->cell) {
    case C_START:
      f->cell = ch == '"' ? C_QUOTED : ch == f->delim || ch == '\n' ? C_START : C_PLAIN;
      break;
    case C_PLAIN: f->cell = ch == f->delim ? C_START : C_PLAIN; break;
    case C_QUOTED: f->cell = ch == '"' ? C_QEND : C_QUOTED; break;
    default: /* after a quote in a quoted cell: another, the delimiter or the line's end */
      if (ch == '"') {
        f->cell = C_QUOTED;
      } else if (ch == f->delim) {
        f->cell = C_START;
      } else if (ch != '\n' && ch != '\r') {
        f->bad = 1;
      }
  }
  if (ch == '\n') {
    f->lines++;
    if (f->cell != C_QUOTED) {
      f->cell = C_START;
      return rd_frame_cut(f, i);
    }
  }
  return 0;
}


/* lines without a quote are records (memchr finds them); a line with one goes through the
   cell states */
static void csv_frame(cli_frame *f, const char *b, size_t len, int eof) {
  if (!frame_preamble(f, b, len, eof)) {
    return;
  }
  size_t i = f->scan;
  while (i < len && !f->bad) {
    if (f->cell == C_START && (i == 0 || b[i - 1] == '\n')) { /* at a record's start */
      const char *q = memchr(b + i, '"', len - i), *nl;
      size_t lim = q ? (size_t)(q - b) : len;
      while ((nl = memchr(b + i, '\n', lim - i))) {
        i = (size_t)(nl - b) + 1;
        f->lines++;
        if (rd_frame_cut(f, i - 1)) {
          f->scan = i;
          return;
        }
      }
      if (!q) {
        break; /* a line not whole yet: scanned again from its start */
      }
    }
    if (frame_byte(f, b, i++)) {
      break;
    }
  }
  f->scan = i;
}


const cli_input cli_read_csv = {CLI_FMT_CSV, csv_record, named_csv, csv_frame};
