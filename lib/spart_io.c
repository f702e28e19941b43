/* spart_io.c -- records: JSON objects (one a line, pretty-printed, or RFC 7464) and CSV rows in,
 * JSON lines or CSV out.  Memory is O(model + one record). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spart.h"
#include "spu.h"

#define SPART_MAX_RECORD (64 << 20) /* bytes in one record */
#define SPART_MAX_FIELDS 32         /* output fields in one record */

/* state fields: name, number of rows (0: nq, -1: n links), columns */
static const struct {
  const char *name;
  int rows, cols;
} fields[SPART_NFIELD] = {
    {"R0", 3, 3},    {"r0", 1, 3},   {"qm", 0, 1},   {"u0", 1, 6},  {"um", 0, 1},   {"u0dot", 1, 6},
    {"umdot", 0, 1}, {"tau0", 1, 6}, {"taum", 0, 1}, {"wF0", 1, 6}, {"wFm", -1, 6},
};

/* a CSV column: the state value it fills, or -1 to pass through */
typedef struct {
  int field;   /* SPART_F_*, or -1 */
  int index;   /* position in the field's values */
  double *dst; /* the value in the reader's state */
} column;

struct spart_reader {
  FILE *in;
  const char *name;
  int format, seq;
  int fd;    /* the stream's file descriptor, or -1 */
  char *buf; /* input block: [bpos, bend) is read and not yet taken, a spare byte after it */
  size_t bcap, bpos, bend;
  int eof;     /* the input has ended */
  char *line;  /* the current line, in buf */
  long lineno; /* lines read so far */
  char *rec;   /* JSON record being gathered */
  size_t reclen, reccap;
  size_t pos, len;  /* unread part of line */
  int started;      /* CSV header read */
  int pending;      /* the line in rd->line is still to be read */
  unsigned reads;   /* fields the command reads: others are ignored (JSON) or pass (CSV) */
  int dead;         /* the CSV header was bad: nothing more can be read */
  spart_model *own; /* model that came with the input */
  spart_json js;    /* the scanner of JSON records */
  spart_state st;
  double *stbuf;
  const spart_model *stm; /* model the state was sized for */
  column *cols;           /* CSV columns */
  int ncol;
  char **colname; /* CSV header names */
  size_t *cell;   /* CSV cells of the current row: start, length pairs into line */
  unsigned has;   /* the fields of the CSV columns */
  int *pass;      /* indices of pass-through columns */
  int npass;
  /* a CSV record held while the next is read (spart_reader_hold): its state, line and cells */
  spart_state hst;
  double *hbuf;
  char *hline;
  size_t hlen, *hcell;
};

/* an output field: name, values, dims (-1 for none) */
typedef struct {
  const char *name;
  const double *v;
  int d0, d1, d2;
  int n; /* values */
} outfield;

#define SPART_WRITE_AT (1 << 16) /* bytes of whole records written at once */

struct spart_writer {
  FILE *out;
  const char *only; /* the fields to write, comma-separated, or NULL for all */
  int format, seq, unbuffered;
  int eager; /* write every record at once: --unbuffered, or out is a terminal */
  int nrec;
  size_t pend; /* buf[0, pend): whole records not written yet */
  outfield f[SPART_MAX_FIELDS];
  int nf;
  outfield head[SPART_MAX_FIELDS]; /* the fields of the CSV header */
  int nhead;
  char *buf; /* the record being written */
  size_t len, cap;
};


static int fail(spart_err *err, int code, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(spart_err *err, int code, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
  va_end(ap);
  err->code = code;
  err->line = line;
  return -code;
}


/* text from the input made fit for a one-line message: at most 40 characters, control characters
   (a 0 byte too) and quotes as \xNN */
static const char *printable(char out[200], const char *s, size_t n) {
  size_t k = 0;
  for (size_t i = 0; i < n && i < 40; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (ch < 0x20 || ch == 0x7f || ch == '\'' || ch == '\\') {
      k += (size_t)snprintf(out + k, 8, "\\x%02x", ch);
    } else {
      out[k++] = (char)ch;
    }
  }
  if (n > 40) {
    k += (size_t)snprintf(out + k, 8, "...");
  }
  out[k] = 0;
  return out;
}


/* ---- the state record ---- */

/* size the state for model m; defaults are set by state_reset */
/* the state's arrays in buf (4 nq + 6 nb doubles) */
static void state_carve(spart_state *st, double *buf, const spart_model *m) {
  size_t nq = (size_t)m->nq;
  st->qm = buf;
  st->um = st->qm + nq;
  st->umdot = st->um + nq;
  st->taum = st->umdot + nq;
  st->wF = st->taum + nq;
}


static int state_init(spart_reader *rd, const spart_model *m) {
  size_t n = 4 * (size_t)m->nq + 6 * (size_t)m->nb + 1;
  free(rd->stbuf);
  free(rd->hbuf);
  rd->stbuf = malloc(n * sizeof(double));
  rd->hbuf = malloc(n * sizeof(double));
  if (!rd->stbuf || !rd->hbuf) {
    return -1;
  }
  state_carve(&rd->st, rd->stbuf, m);
  state_carve(&rd->hst, rd->hbuf, m);
  rd->stm = m;
  return 0;
}


static void state_reset(spart_state *st, const spart_model *m) {
  static const double eye[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  memcpy(st->R0, eye, sizeof(eye));
  memset(st->r0, 0, sizeof(st->r0));
  memset(st->u0, 0, sizeof(st->u0));
  memset(st->u0dot, 0, sizeof(st->u0dot));
  memset(st->tau0, 0, sizeof(st->tau0));
  memset(st->qm, 0, (4 * (size_t)m->nq + 6 * (size_t)m->nb) * sizeof(double));
  st->has = 0;
}


/* rows of field k for model m */
static int field_rows(const spart_model *m, int k) {
  return fields[k].rows == 0 ? m->nq : fields[k].rows < 0 ? m->nb - 1 : fields[k].rows;
}


/* where field k's values live, and how many there are */
static double *field_ptr(spart_state *st, const spart_model *m, int k, int *count) {
  *count = field_rows(m, k) * fields[k].cols;
  switch (k) {
    case SPART_F_R0: return st->R0;
    case SPART_F_r0: return st->r0;
    case SPART_F_qm: return st->qm;
    case SPART_F_u0: return st->u0;
    case SPART_F_um: return st->um;
    case SPART_F_u0dot: return st->u0dot;
    case SPART_F_umdot: return st->umdot;
    case SPART_F_tau0: return st->tau0;
    case SPART_F_taum: return st->taum;
    case SPART_F_wF0: return st->wF;
    default: return st->wF + 6;
  }
}


static int field_find(const char *name, size_t len) {
  for (int k = 0; k < SPART_NFIELD; k++) {
    if (strlen(fields[k].name) == len && memcmp(fields[k].name, name, len) == 0) {
      return k;
    }
  }
  return -1;
}


/* ---- reading lines ---- */

spart_reader *spart_reader_new(void *in, const char *name, int format, int seq, unsigned reads) {
  spart_reader *rd = calloc(1, sizeof(*rd));
  if (rd) {
    rd->in = in;
    rd->fd = fileno(in);
    rd->name = name;
    rd->format = format;
    rd->seq = seq;
    rd->reads = reads ? reads : ~0u;
  }
  return rd;
}


void spart_reader_free(spart_reader *rd) {
  if (!rd) {
    return;
  }
  for (int k = 0; k < rd->ncol; k++) {
    free(rd->colname[k]);
  }
  free(rd->colname);
  free(rd->cols);
  free(rd->cell);
  free(rd->hcell);
  free(rd->pass);
  free(rd->buf);
  free(rd->rec);
  spart_json_free(&rd->js);
  free(rd->stbuf);
  free(rd->hbuf);
  spart_model_free(rd->own);
  free(rd);
}


const spart_model *spart_reader_model(const spart_reader *rd) {
  return rd->own;
}


/* up to n bytes of input into p: from the file descriptor when the stream has one (a read
   returns what has come, so that records stream), else through stdio; the count, 0 at the end,
   or -1 */
static long fill(spart_reader *rd, char *p, size_t n) {
  if (rd->fd >= 0) {
    ssize_t r;
    do {
      r = read(rd->fd, p, n);
    } while (r < 0 && errno == EINTR);
    return (long)r;
  }
  size_t r = fread(p, 1, n, rd->in);
  return r == 0 && ferror(rd->in) ? -1 : (long)r;
}


/* read the next line: rd->line points to it in the input block, without its end of line and
   with a 0 after it; 1, 0 at the end, or -1.  Past SPART_MAX_RECORD the rest of the line is read
   and dropped. */
static int next_line(spart_reader *rd, spart_err *err) {
  const size_t most = (size_t)SPART_MAX_RECORD - 2; /* bytes in a line, without its \n */
  char *nl = NULL;
  size_t n;
  int over = 0;
  if (rd->pending) {
    rd->pending = 0;
    rd->pos = 0;
    return 1;
  }
  for (;;) {
    size_t have = rd->bend - rd->bpos;
    nl = have ? memchr(rd->buf + rd->bpos, '\n', have) : NULL;
    if (nl || rd->eof) {
      break;
    }
    if (have > most) {
      over = 1; /* too long: drop what is there, keep looking for the end of the line */
      rd->bpos = rd->bend;
      have = 0;
    }
    /* make room: the partial line to the front, the block twice as big if it fills it */
    if (rd->bpos > 0) {
      memmove(rd->buf, rd->buf + rd->bpos, have);
      rd->bend = have;
      rd->bpos = 0;
    }
    if (rd->bend + 1 >= rd->bcap) {
      size_t c = rd->bcap ? 2 * rd->bcap : 1 << 17;
      char *p = realloc(rd->buf, c);
      if (!p) {
        return fail(err, SPART_ENOMEM, (int)rd->lineno + 1, "out of memory"), -1;
      }
      rd->buf = p;
      rd->bcap = c;
    }
    errno = 0;
    long r = fill(rd, rd->buf + rd->bend, rd->bcap - 1 - rd->bend);
    if (r < 0) {
      return fail(err, SPART_EIO, 0, "read error: %s", strerror(errno)), -1;
    }
    rd->eof = r == 0;
    rd->bend += (size_t)r;
  }
  n = nl ? (size_t)(nl - (rd->buf + rd->bpos)) : rd->bend - rd->bpos;
  if (n == 0 && !nl && !over) {
    return 0;
  }
  rd->line = rd->buf + rd->bpos;
  rd->bpos += n + (nl != NULL);
  rd->lineno++;
  if (over || n > most) {
    return fail(err, SPART_EDATA, (int)rd->lineno, "line longer than %d bytes", SPART_MAX_RECORD),
           -1;
  }
  while (n > 0 && rd->line[n - 1] == '\r') {
    n--;
  }
  rd->line[n] = 0; /* the \n, a \r, or the spare byte after the block */

  /* a UTF-8 byte order mark at the start of the stream is not data */
  if (rd->lineno == 1 && n >= 3 && memcmp(rd->line, "\xef\xbb\xbf", 3) == 0) {
    rd->line += 3;
    n -= 3;
  }
  rd->pos = 0;
  rd->len = n;
  return 1;
}


/* give the current line back: the next next_line returns it again */
static void unread_line(spart_reader *rd) {
  rd->pending = 1;
  rd->pos = rd->len;
}


/* ---- JSON records ---- */

static int grow(char **buf, size_t *cap, size_t need) {
  if (need <= *cap) {
    return 0;
  }
  size_t c = *cap ? *cap : 256;
  while (c < need) {
    c *= 2;
  }
  char *p = realloc(*buf, c);
  if (!p) {
    return -1;
  }
  *buf = p;
  *cap = c;
  return 0;
}


/* gather one JSON object's text into rd->rec; returns 1, 0 at the end, or -1.  A line that
   starts with RS, or with '{' where the record could not go on with an object inside "robot"
   (the only member that holds objects), starts a new record: the one gathered so far was cut
   short.  A pretty-printed record (Python's indent=0 puts each element on its own line) is one
   record. */
static int json_gather(spart_reader *rd, int *start, spart_err *err) {
  int depth = 0, instr = 0, esc = 0;
  int robot = 0;      /* the member at depth 1 is "robot" */
  char last = 0;      /* the last character outside strings that is not blank */
  char key[6];        /* the start of the last string at depth 1 */
  size_t keylen = 0;
  rd->reclen = 0;
  *start = 0;
  for (;;) {
    if (rd->pos >= rd->len) {
      int r = next_line(rd, err);
      if (r <= 0) {
        if (r == 0 && rd->reclen > 0) {
          return fail(err, SPART_EDATA, *start, "unterminated JSON object"), -1;
        }
        return r;
      }
      int inside = robot && depth >= 2 && !instr && (last == '[' || last == ',' || last == ':');
      if (rd->reclen > 0 && rd->len > 0 &&
          ((rd->line[0] == '{' && !inside) || rd->line[0] == 0x1e)) {
        unread_line(rd); /* a new record starts: the one gathered so far is cut short */
        return fail(err, SPART_EDATA, *start, "unterminated JSON object"), -1;
      }
      if (rd->reclen > 0) {
        if (grow(&rd->rec, &rd->reccap, rd->reclen + 2) != 0) {
          return fail(err, SPART_ENOMEM, (int)rd->lineno, "out of memory"), -1;
        }
        rd->rec[rd->reclen++] = '\n';
      }
    }
    const char *s = rd->line;
    size_t from = rd->pos;
    while (rd->pos < rd->len) {
      char ch = s[rd->pos];
      if (rd->reclen == 0 && rd->pos == from && depth == 0 &&
          (ch == ' ' || ch == '\t' || ch == 0x1e || ch == ',')) {
        from = ++rd->pos; /* blanks, record separators and commas between records */
        continue;
      }
      if (depth == 0 && ch != '{') {
        char txt[200];
        fail(err, SPART_EDATA, (int)rd->lineno, "expected a JSON object, got '%s'",
             printable(txt, s + rd->pos, rd->len - rd->pos < 20 ? rd->len - rd->pos : 20));
        rd->pos = rd->len;
        return -1;
      }
      if (!*start) {
        *start = (int)rd->lineno;
      }
      rd->pos++;
      if (instr) {
        instr = !(ch == '"' && !esc);
        esc = ch == '\\' && !esc;
        if (depth == 1 && instr && keylen < sizeof key) {
          key[keylen++] = ch;
        }
        if (depth == 1 && !instr && (last == '{' || last == ',')) { /* a key at depth 1 */
          robot = keylen == 5 && memcmp(key, "robot", 5) == 0;
        }
        continue;
      }
      if (ch == 0x1e) {
        rd->pos--; /* RFC 7464: a record separator ends any record */
        return fail(err, SPART_EDATA, *start, "unterminated JSON object"), -1;
      }
      instr = ch == '"';
      keylen = 0;
      if (!instr && ch != ' ' && ch != '\t' && ch != '\r') {
        last = ch;
      }
      depth += (ch == '{') - (ch == '}');
      if (depth == 0) {
        break;
      }
    }
    size_t n = rd->pos - from;
    if (rd->reclen + n > SPART_MAX_RECORD) {
      return fail(err, SPART_EDATA, *start, "record longer than %d bytes", SPART_MAX_RECORD), -1;
    }
    if (grow(&rd->rec, &rd->reccap, rd->reclen + n + 1) != 0) {
      return fail(err, SPART_ENOMEM, *start, "out of memory"), -1;
    }
    memcpy(rd->rec + rd->reclen, s + from, n);
    rd->reclen += n;
    rd->rec[rd->reclen] = 0;
    if (depth == 0 && rd->reclen > 0) {
      return 1;
    }
  }
}


/* the scanner's fault as the reader's */
static int json_fault(const spart_json *j, spart_err *err) {
  return fail(err, j->oom ? SPART_ENOMEM : SPART_EDATA, (int)j->eline, "%s", j->msg);
}


/* fill v (count values) from the JSON array that comes next: flat, or (cols > 1, rows > 0) rows
   of cols numbers, not a mix of both */
static int json_values(spart_json *j, double *v, int count, int rows, int cols, const char *name,
                       int line, spart_err *err) {
  int n = 0, shape = 0, t = spart_json_next(j); /* shape: 1 flat, 2 rows */
  if (t != SPART_JSON_ARRAY) {
    return t < 0 ? json_fault(j, err)
                 : fail(err, SPART_EDATA, line, "%s: expected an array of %d numbers", name, count);
  }
  while ((t = spart_json_next(j)) != SPART_JSON_ARRAY_END) {
    if (t == SPART_JSON_ARRAY && cols > 1 && rows > 0 && shape != 1) {
      int nc = 0;
      shape = 2;
      while ((t = spart_json_next(j)) != SPART_JSON_ARRAY_END) {
        double x = t == SPART_JSON_NUMBER ? spart_json_number(j) : NAN;
        if (t < 0) {
          return json_fault(j, err);
        }
        if (!isfinite(x)) {
          return fail(err, SPART_EDATA, line, "%s[%d][%d] is not a finite number", name,
                      (n - nc) / cols + 1, nc + 1);
        }
        if (n < count) {
          v[n] = x;
        }
        n++, nc++;
      }
      if (nc != cols) {
        return fail(err, SPART_EDATA, line, "%s: row %d has %d values, expected %d", name,
                    (n - nc) / cols + 1, nc, cols);
      }
      continue;
    }
    if (t < 0) {
      return json_fault(j, err);
    }
    if (shape == 2 || (shape == 1 && t == SPART_JSON_ARRAY && cols > 1 && rows > 0)) {
      return fail(err, SPART_EDATA, line,
                  "%s mixes rows and numbers: give %d rows of %d numbers, or %d numbers", name,
                  rows, cols, count);
    }
    double x = t == SPART_JSON_NUMBER ? spart_json_number(j) : NAN;
    if (!isfinite(x)) {
      return fail(err, SPART_EDATA, line, "%s[%d] is not a finite number", name, n + 1);
    }
    shape = 1;
    if (n < count) {
      v[n] = x;
    }
    n++;
  }
  if (n != count) {
    if (shape == 2 || cols > 1) {
      return fail(err, SPART_EDATA, line, "%s has %d values, model needs %dx%d", name, n, rows,
                  cols);
    }
    return fail(err, SPART_EDATA, line, "%s has %d values, model needs %d", name, n, count);
  }
  return 0;
}


/* the model of the record's "robot" member: the first record's, when no -m gave one */
static int json_robot(spart_reader *rd, spart_json *j, int start, spart_err *err) {
  int t;
  if (spart_json_next(j) < 0) { /* the record's '{' */
    return json_fault(j, err);
  }
  while ((t = spart_json_next(j)) == SPART_JSON_KEY) {
    int robot = j->strlen == 5 && memcmp(j->str, "robot", 5) == 0;
    if (spart_json_next(j) < 0) {
      break;
    }
    if (robot) {
      size_t from = j->tpos;
      long line = j->tline;
      if (spart_json_skip(j)) {
        break;
      }
      spart_err merr = {0};
      char keep = rd->rec[j->pos];
      rd->rec[j->pos] = 0;
      rd->own = spart_model_parse_at(rd->rec + from, line, &merr);
      rd->rec[j->pos] = keep;
      if (!rd->own) {
        return fail(err, merr.code == SPART_ENOMEM ? SPART_ENOMEM : SPART_EDATA,
                    merr.line ? merr.line : start, "robot: %s", merr.msg);
      }
      return 0;
    }
    if (spart_json_skip(j)) {
      break;
    }
  }
  if (t < 0 || j->tok < 0) {
    return json_fault(j, err);
  }
  return fail(err, SPART_EDATA, start, "no model: give -m FILE or a \"robot\" key");
}


/* the state fields of the record in rd->rec */
static int json_fields(spart_reader *rd, spart_model **m, int start, spart_err *err) {
  spart_json *j = &rd->js;
  int t, had_robot = !*m;
  if (!*m) {
    spart_json_reset(j, rd->rec, rd->reclen, start);
    if (json_robot(rd, j, start, err)) {
      return -err->code;
    }
    *m = rd->own;
  }
  if (rd->stm != *m && state_init(rd, *m) != 0) {
    return fail(err, SPART_ENOMEM, start, "out of memory");
  }
  state_reset(&rd->st, *m);
  rd->st.line = start;

  /* the members, one at a time */
  spart_json_reset(j, rd->rec, rd->reclen, start);
  if (spart_json_next(j) < 0) { /* the record's '{' */
    return json_fault(j, err);
  }
  while ((t = spart_json_next(j)) == SPART_JSON_KEY) {
    int k = field_find(j->str, j->strlen), count;
    if (j->strlen == 5 && memcmp(j->str, "robot", 5) == 0) {
      if (!had_robot) {
        return fail(err, SPART_EDATA, start,
                    rd->own ? "robot: only the first record may carry the model"
                            : "robot: the model is given by -m");
      }
      if (spart_json_next(j) < 0 || spart_json_skip(j)) {
        return json_fault(j, err);
      }
      continue;
    }
    if (k < 0) {
      char txt[200];
      return fail(err, SPART_EDATA, start, "unknown key '%s'", printable(txt, j->str, j->strlen));
    }
    rd->st.has |= 1u << k; /* fields this command does not use are checked all the same */
    double *v = field_ptr(&rd->st, *m, k, &count);
    if (json_values(j, v, count, field_rows(*m, k), fields[k].cols, fields[k].name, start, err)) {
      return -err->code;
    }
  }
  if (t == SPART_JSON_OBJECT_END) {
    t = spart_json_next(j);
  }
  return t == SPART_JSON_END ? 1 : json_fault(j, err);
}


static int json_record(spart_reader *rd, spart_model **m, spart_err *err) {
  int start, r = json_gather(rd, &start, err);
  if (r <= 0) {
    return r;
  }
  return json_fields(rd, m, start, err);
}


/* ---- CSV records ---- */

/* the end of the cell of line (len bytes) that starts at i: the next comma, or the end; double
   quotes at the start of the cell protect commas */
static size_t cell_end(const char *line, size_t len, size_t i) {
  if (line[i] == '"') {
    for (i++; i < len && !(line[i] == '"' && line[i + 1] != '"'); i++) {
      i += line[i] == '"';
    }
    i += i < len;
  }
  const char *comma = memchr(line + i, ',', len - i);
  return comma ? (size_t)(comma - line) : len;
}


/* split rd->line into cells; returns the number of cells */
static int csv_split(spart_reader *rd, int want) {
  int n = 0;
  size_t i = 0;
  for (;;) {
    size_t start = i;
    i = cell_end(rd->line, rd->len, i);
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


/* read lines up to the next one that is not blank or a comment */
static int csv_line(spart_reader *rd, spart_err *err) {
  for (;;) {
    int r = next_line(rd, err);
    if (r <= 0) {
      return r;
    }
    if (rd->len > 0 && rd->line[0] != '#') {
      return 1;
    }
  }
}


/* map a header name to a state value: qm_3, R0_1_2, wFm_2_6 */
static int csv_column(const char *h, const spart_model *m, unsigned reads, column *c,
                      spart_err *err, int line) {
  const char *us = strchr(h, '_');
  c->field = -1;
  c->index = 0;
  int k = us ? field_find(h, (size_t)(us - h)) : -1;
  if (k < 0 || !(reads & 1u << k)) {
    return 0; /* not a state field, or one this command does not read: it passes through */
  }
  int idx[3] = {0, 0, 0}, nidx = 0, rows, count;
  const char *p = us;
  while (*p == '_' && nidx < 3) {
    char *end;
    errno = 0;
    long v = strtol(p + 1, &end, 10);
    if (end == p + 1 || v < 1 || v > 1000000000 || errno) {
      return 0; /* not ours: qm_a passes through */
    }
    idx[nidx++] = (int)v;
    p = end;
  }
  if (*p) {
    return 0;
  }
  rows = field_rows(m, k);
  count = rows * fields[k].cols;
  int want = fields[k].rows == 3 || fields[k].rows == -1 ? 2 : 1; /* matrices: name_i_j */
  if (nidx != want) {
    char txt[200];
    return fail(err, SPART_EDATA, line, "column '%s': %s takes %d index%s",
                printable(txt, h, strlen(h)), fields[k].name, want, want > 1 ? "es" : "");
  }
  long pos = want == 2 ? (long)(idx[0] - 1) * fields[k].cols + idx[1] - 1 : idx[0] - 1;
  if ((want == 2 && (idx[0] > rows || idx[1] > fields[k].cols)) || pos >= count) {
    char txt[200];
    return fail(err, SPART_EDATA, line, "column '%s' is out of range: model has %s of %s",
                printable(txt, h, strlen(h)), fields[k].name,
                want == 2 ? "more rows or columns than that" : "fewer values");
  }
  c->field = k;
  c->index = (int)pos;
  return 0;
}


static int csv_header(spart_reader *rd, const spart_model *m, spart_err *err) {
  int r = csv_line(rd, err);
  if (r <= 0) {
    return r;
  }
  int line = (int)rd->lineno;
  if (rd->line[0] == '{' || rd->line[0] == '[') {
    return fail(err, SPART_EDATA, line, "expected a CSV header, got JSON (use -i json)"), -1;
  }
  int n = csv_split(rd, 0);
  rd->cell = malloc(2 * (size_t)n * sizeof(size_t));
  rd->hcell = malloc(2 * (size_t)n * sizeof(size_t));
  rd->cols = calloc((size_t)n, sizeof(column));
  rd->colname = calloc((size_t)n, sizeof(char *));
  rd->pass = malloc((size_t)n * sizeof(int));
  if (!rd->cell || !rd->hcell || !rd->cols || !rd->colname || !rd->pass) {
    return fail(err, SPART_ENOMEM, line, "out of memory"), -1;
  }
  rd->ncol = n;
  csv_split(rd, n);

  /* name each column; every value of a field must have exactly one column */
  int seen[SPART_NFIELD] = {0};
  for (int j = 0; j < n; j++) {
    size_t a = rd->cell[2 * j], len = rd->cell[2 * j + 1];
    while (len > 0 && rd->line[a] == ' ') {
      a++, len--;
    }
    while (len > 0 && rd->line[a + len - 1] == ' ') {
      len--;
    }
    rd->colname[j] = strndup(rd->line + a, len);
    if (!rd->colname[j]) {
      return fail(err, SPART_ENOMEM, line, "out of memory"), -1;
    }
    if (csv_column(rd->colname[j], m, rd->reads, &rd->cols[j], err, line) != 0) {
      return -1;
    }
    if (rd->cols[j].field < 0) {
      rd->pass[rd->npass++] = j;
      continue;
    }
    for (int i = 0; i < j; i++) {
      if (rd->cols[i].field == rd->cols[j].field && rd->cols[i].index == rd->cols[j].index) {
        char txt[200];
        fail(err, SPART_EDATA, line, "column '%s' appears twice",
             printable(txt, rd->colname[j], strlen(rd->colname[j])));
        return -1;
      }
    }
    seen[rd->cols[j].field]++;
    rd->has |= 1u << rd->cols[j].field;
  }
  for (int k = 0; k < SPART_NFIELD; k++) {
    int count = field_rows(m, k) * fields[k].cols;
    if (seen[k] && seen[k] != count) {
      return fail(err, SPART_EDATA, line, "%s has %d columns, model needs %d", fields[k].name,
                  seen[k], count),
             -1;
    }
  }
  for (int j = 0; j < n; j++) {
    int count;
    if (rd->cols[j].field >= 0) {
      rd->cols[j].dst = field_ptr(&rd->st, m, rd->cols[j].field, &count) + rd->cols[j].index;
    }
  }
  rd->started = 1;
  return 1;
}


/* the usual row, read in one pass: every cell where the header says, every number read to its
   comma; 0 for anything else (then csv_record splits the row and says what is wrong).  Only the
   cells that pass through are noted in rd->cell: the numbers go straight to the state. */
static int csv_fast(spart_reader *rd) {
  const char *line = rd->line, *lim = line + rd->len, *p = line;
  /* numbers are read ahead 8 bytes at a time up to the end of what the block holds (the 0
     after the line stops them) */
  const char *ahead = rd->buf + rd->bend > lim + 1 ? rd->buf + rd->bend : lim + 1;
  const column *c = rd->cols, *last = c + rd->ncol - 1;
  if (!ahead) {
    __builtin_unreachable(); /* it never is: spu_strtod, inlined, need not test it for NULL */
  }
  for (;; c++) {
    const char *end;
    if (c->field < 0) {
      size_t j = (size_t)(c - rd->cols), i = (size_t)(p - line);
      end = line + cell_end(line, rd->len, i);
      rd->cell[2 * j] = i;
      rd->cell[2 * j + 1] = (size_t)(end - p);
    } else {
      double x = spu_strtod(p, ahead, &end);
      if (end == p || !isfinite(x)) {
        return 0;
      }
      *c->dst = x;
    }
    /* a cell ends at a comma, the last at the end of the line (a comma there is one cell more;
       the 0 at lim is no comma: a cell fewer) */
    if (c == last) {
      return end == lim;
    }
    if (*end != ',') {
      return 0;
    }
    p = end + 1;
  }
}


static int csv_record(spart_reader *rd, spart_model **m, spart_err *err) {
  if (!*m) {
    return fail(err, SPART_EDATA, 1, "CSV input needs a model: give -m FILE");
  }
  if (rd->stm != *m) {
    if (state_init(rd, *m) != 0) {
      return fail(err, SPART_ENOMEM, 0, "out of memory");
    }
    /* once: every row fills the same fields, all their values (csv_header sees to that), and
       leaves the others alone */
    state_reset(&rd->st, *m);
  }
  if (!rd->started) {
    int r = csv_header(rd, *m, err);
    if (r <= 0) {
      rd->dead = r < 0; /* no row can be read without its header */
      return r;
    }
  }
  int r = csv_line(rd, err);
  if (r <= 0) {
    return r;
  }
  int line = (int)rd->lineno;
  rd->st.line = line;
  if (csv_fast(rd)) {
    rd->st.has = rd->has;
    return 1;
  }
  rd->st.has = 0;
  int n = csv_split(rd, rd->ncol);
  if (n != rd->ncol) {
    return fail(err, SPART_EDATA, line, "expected %d fields, got %d", rd->ncol, n);
  }
  for (int j = 0; j < n; j++) {
    const column *c = &rd->cols[j];
    if (c->field < 0) {
      continue;
    }
    const char *s = rd->line + rd->cell[2 * j], *stop = s + rd->cell[2 * j + 1], *end;
    double x = spu_strtod(s, stop, &end);
    while (end < stop && *end == ' ') {
      end++;
    }
    if (end == s || end != stop || !isfinite(x)) {
      char name[200], txt[200];
      return fail(err, SPART_EDATA, line, "column '%s': '%s' is not a finite number",
                  printable(name, rd->colname[j], strlen(rd->colname[j])),
                  printable(txt, s, (size_t)(stop - s)));
    }
    *c->dst = x;
    rd->st.has |= 1u << c->field;
  }
  return 1;
}


/* R0 must be a rotation: R0 R0' = 1 to 1e-5 (6 decimals give 2e-6), and det R0 = +1 */
static int check_rotation(const double R[9], int line, spart_err *err) {
  double worst = 0;
  for (int a = 0; a < 3; a++) {
    for (int b = 0; b < 3; b++) {
      double dot = R[3 * a] * R[3 * b] + R[3 * a + 1] * R[3 * b + 1] + R[3 * a + 2] * R[3 * b + 2];
      worst = fmax(worst, fabs(dot - (a == b)));
    }
  }
  double det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) +
               R[2] * (R[3] * R[7] - R[4] * R[6]);
  if (worst > 1e-5) {
    return fail(err, SPART_EDATA, line, "R0 is not a rotation: R0 R0' differs from 1 by %.3g",
                worst);
  }
  if (det < 0) {
    return fail(err, SPART_EDATA, line, "R0 is a reflection (determinant -1), not a rotation");
  }
  return 0;
}


int spart_read(spart_reader *rd, spart_model **m, spart_state **st, spart_err *err) {
  if (rd->dead) {
    return 0;
  }
  /* the format, from the first line that is not blank: JSON if it starts with {, [ or RS */
  while (rd->format == SPART_FMT_AUTO) {
    int r = next_line(rd, err);
    if (r <= 0) {
      return r;
    }
    size_t k = strspn(rd->line, " \t");
    if (k < rd->len) {
      char ch = rd->line[k];
      rd->format = ch == '{' || ch == '[' || ch == 0x1e ? SPART_FMT_JSON : SPART_FMT_CSV;
      unread_line(rd); /* the format's reader takes this line again */
    }
  }
  int r = rd->format == SPART_FMT_JSON ? json_record(rd, m, err) : csv_record(rd, m, err);
  if (r > 0 && (rd->st.has & 1u << SPART_F_R0) && check_rotation(rd->st.R0, rd->st.line, err)) {
    return -SPART_EDATA;
  }
  if (r > 0) {
    *st = &rd->st;
  }
  return r;
}


int spart_reader_ready(const spart_reader *rd) {
  /* a CSV row after the header, whole in the block: reading it moves nothing in the block */
  if (rd->format != SPART_FMT_CSV || !rd->started || rd->pending || rd->dead ||
      rd->bpos >= rd->bend) {
    return 0;
  }
  const char *p = rd->buf + rd->bpos, *nl = memchr(p, '\n', rd->bend - rd->bpos);
  return nl && nl > p && *p != '#' && *p != '\r';
}


spart_state *spart_reader_hold(spart_reader *rd) {
  /* the values to the held state (its arrays stay its own), the cells swapped: the next row's
     go to the other array */
  double *qm = rd->hst.qm, *um = rd->hst.um, *umdot = rd->hst.umdot, *taum = rd->hst.taum;
  double *wF = rd->hst.wF;
  size_t n = 4 * (size_t)rd->stm->nq + 6 * (size_t)rd->stm->nb;
  rd->hst = rd->st;
  rd->hst.qm = qm;
  rd->hst.um = um;
  rd->hst.umdot = umdot;
  rd->hst.taum = taum;
  rd->hst.wF = wF;
  memcpy(rd->hbuf, rd->stbuf, n * sizeof(double));
  size_t *c = rd->cell;
  rd->cell = rd->hcell;
  rd->hcell = c;
  rd->hline = rd->line;
  rd->hlen = rd->len;
  return &rd->hst;
}


void spart_reader_swap(spart_reader *rd) {
  size_t *c = rd->cell, len = rd->len;
  char *line = rd->line;
  int l = rd->st.line;
  rd->cell = rd->hcell;
  rd->hcell = c;
  rd->line = rd->hline;
  rd->hline = line;
  rd->len = rd->hlen;
  rd->hlen = len;
  rd->st.line = rd->hst.line;
  rd->hst.line = l;
}


/* ---- writing ---- */

spart_writer *spart_writer_new(void *out, int format, int seq, int unbuffered) {
  spart_writer *wr = calloc(1, sizeof(*wr));
  if (wr) {
    wr->out = out;
    wr->format = format == SPART_FMT_CSV ? SPART_FMT_CSV : SPART_FMT_JSON;
    wr->seq = seq;
    wr->unbuffered = unbuffered;
    wr->eager = unbuffered || isatty(fileno(out));
  }
  return wr;
}


/* write the records held back; 0, or -1 with err filled */
static int write_out(spart_writer *wr, spart_err *err) {
  size_t n = wr->pend;
  wr->pend = 0;
  if ((n > 0 && fwrite(wr->buf, 1, n, wr->out) != n) || (wr->unbuffered && fflush(wr->out) != 0)) {
    return fail(err, errno == EPIPE ? SPART_EPIPE : SPART_EIO, 0, "write error: %s",
                strerror(errno));
  }
  return 0;
}


int spart_flush(spart_writer *wr, spart_err *err) {
  return write_out(wr, err);
}


void spart_writer_free(spart_writer *wr) {
  if (wr) {
    if (wr->pend > 0) {
      spart_err err = {0};
      write_out(wr, &err); /* a failure stays in the stream's error flag */
    }
    free(wr->buf);
    free(wr);
  }
}


void spart_writer_only(spart_writer *wr, const char *names) {
  wr->only = names;
}


int spart_listed(const char *list, const char *name, size_t n) {
  for (const char *p = list;; p++) {
    size_t k = strcspn(p, ",");
    if (k == n && memcmp(p, name, n) == 0) {
      return 1;
    }
    p += k;
    if (*p == 0) {
      return 0;
    }
  }
}


void spart_put(spart_writer *wr, const char *name, const double *v, int d0, int d1, int d2) {
  if (wr->only && !spart_listed(wr->only, name, strlen(name))) {
    return;
  }
  if (wr->nf < SPART_MAX_FIELDS) {
    wr->f[wr->nf].name = name;
    wr->f[wr->nf].v = v;
    wr->f[wr->nf].d0 = d0;
    wr->f[wr->nf].d1 = d1;
    wr->f[wr->nf].d2 = d2;
    wr->f[wr->nf].n = (d0 >= 0 ? d0 : 1) * (d0 >= 0 && d1 >= 0 ? d1 : 1) *
                      (d0 >= 0 && d1 >= 0 && d2 >= 0 ? d2 : 1);
    wr->nf++;
  }
}


void spart_discard(spart_writer *wr) {
  wr->nf = 0;
}


/* append text to the record buffer; -1 when out of memory */
static int add(spart_writer *wr, const char *s, size_t n) {
  if (grow(&wr->buf, &wr->cap, wr->len + n + 1) != 0) {
    return -1;
  }
  memcpy(wr->buf + wr->len, s, n);
  wr->len += n;
  return 0;
}


static int addstr(spart_writer *wr, const char *s) {
  return add(wr, s, strlen(s));
}


/* a JSON array of n0 x n1 x n2 values (0 dims dropped) */
static int add_array(spart_writer *wr, const double *v, int nd, const int *dims) {
  if (nd == 0) {
    char num[40];
    return add(wr, num, (size_t)spu_dtoa(num, *v));
  }
  int stride = 1;
  for (int k = 1; k < nd; k++) {
    stride *= dims[k];
  }
  int bad = addstr(wr, "[");
  for (int i = 0; i < dims[0] && !bad; i++) {
    bad = (i && addstr(wr, ",")) || add_array(wr, v + (size_t)i * stride, nd - 1, dims + 1);
  }
  return bad || addstr(wr, "]");
}


/* the dims of output field k, and its number of values */
static int dims_of(const spart_writer *wr, int k, int *dims, int *nd) {
  int n = 1;
  *nd = 0;
  if (wr->f[k].d0 >= 0) {
    dims[(*nd)++] = wr->f[k].d0;
    if (wr->f[k].d1 >= 0) {
      dims[(*nd)++] = wr->f[k].d1;
    }
    if (wr->f[k].d1 >= 0 && wr->f[k].d2 >= 0) {
      dims[(*nd)++] = wr->f[k].d2;
    }
  }
  for (int j = 0; j < *nd; j++) {
    n *= dims[j];
  }
  return n;
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


/* a CSV cell as a JSON value: a number as it was written, else the text, CSV quotes undone */
static int add_json_cell(spart_writer *wr, const char *s, size_t n) {
  if (n > 0 && json_number(s, n)) {
    return add(wr, s, n);
  }
  char *tmp = malloc(n + 1);
  size_t k = 0;
  if (!tmp) {
    return -1;
  }
  if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
    for (size_t i = 1; i + 1 < n; i++) {
      tmp[k++] = s[i];
      i += s[i] == '"' && s[i + 1] == '"'; /* "" is one quote */
    }
  } else {
    memcpy(tmp, s, n);
    k = n;
  }
  /* a JSON string: quotes, backslashes and control characters (a NUL too) escaped, UTF-8 as it
     is (spart_emit has refused text that is not UTF-8) */
  int bad = addstr(wr, "\"");
  for (size_t i = 0; i < k && !bad;) {
    unsigned char ch = (unsigned char)tmp[i];
    size_t run = i;
    while (run < k && (unsigned char)tmp[run] >= 0x20 && tmp[run] != '"' && tmp[run] != '\\') {
      run++;
    }
    if (run > i) {
      bad = add(wr, tmp + i, run - i);
      i = run;
      continue;
    }
    char e[8];
    snprintf(e, sizeof e, ch == '"' || ch == '\\' ? "\\%c" : "\\u%04x", ch);
    bad = addstr(wr, e);
    i++;
  }
  bad = bad || addstr(wr, "\"");
  free(tmp);
  return bad;
}


/* the first pass-through text of the record (a column name or a cell) that is not UTF-8, which
   JSON cannot carry: its column, or -1 */
static int not_utf8(const spart_reader *rd) {
  for (int p = 0; p < rd->npass; p++) {
    int c = rd->pass[p];
    const char *txt[2] = {rd->colname[c], rd->line + rd->cell[2 * c]};
    const size_t len[2] = {strlen(rd->colname[c]), rd->cell[2 * c + 1]};
    for (int t = 0; t < 2; t++) {
      for (size_t i = 0; i < len[t];) {
        size_t n = spart_utf8_len((const unsigned char *)txt[t] + i, len[t] - i);
        if (n == 0) {
          return c;
        }
        i += n;
      }
    }
  }
  return -1;
}


/* a CSV cell copied from the input, or a JSON value for it */
static int add_pass(spart_writer *wr, const spart_reader *rd, int j, int json) {
  const char *s = rd->line + rd->cell[2 * j];
  size_t n = rd->cell[2 * j + 1];
  return json ? add_json_cell(wr, s, n) : add(wr, s, n);
}


/* the CSV header row: pass-through names, then name_i_j_k for every output value */
static int csv_header_row(spart_writer *wr, const spart_reader *rd) {
  int bad = 0, first = 1;
  for (int p = 0; rd && p < rd->npass && !bad; p++, first = 0) {
    bad = (!first && addstr(wr, ",")) || addstr(wr, rd->colname[rd->pass[p]]);
  }
  for (int k = 0; k < wr->nf && !bad; k++) {
    int dims[3], nd, n = dims_of(wr, k, dims, &nd);
    for (int e = 0; e < n && !bad; e++, first = 0) {
      char col[128];
      int len = snprintf(col, sizeof(col), "%s", wr->f[k].name), rest = e;
      for (int j = 0; j < nd; j++) {
        int stride = 1;
        for (int i = j + 1; i < nd; i++) {
          stride *= dims[i];
        }
        len += snprintf(col + len, sizeof(col) - (size_t)len, "_%d", rest / stride + 1);
        rest %= stride;
      }
      bad = (!first && addstr(wr, ",")) || addstr(wr, col);
    }
  }
  return bad || addstr(wr, "\n");
}


/* the values of the record's fields as CSV cells, after a comma unless first; -1 when out of
   memory, 1 when a value is not finite (what is written is then of no use) */
static int add_csv_values(spart_writer *wr, int first) {
  size_t most = 0;
  for (int k = 0; k < wr->nf; k++) {
    most += (size_t)wr->f[k].n;
  }
  if (grow(&wr->buf, &wr->cap, wr->len + 32 * most + 32) != 0) {
    return -1; /* spu_dtoa writes up to 32 bytes; a number and its comma take at most 26 */
  }
  char *o = wr->buf + wr->len;
  double sum = 0; /* x - x is 0 for a finite x, else NaN: the sum stays 0 while all are finite */
  for (int k = 0; k < wr->nf; k++) {
    const double *v = wr->f[k].v;
    int e = 0, n = wr->f[k].n;
    if (first && n > 0) {
      sum += v[0] - v[0];
      o += spu_dtoa(o, v[0]);
      e = 1;
      first = 0;
    }
    for (; e < n; e++) {
      sum += v[e] - v[e];
      *o++ = ',';
      o += spu_dtoa(o, v[e]);
    }
  }
  wr->len = (size_t)(o - wr->buf);
  return sum == 0 ? 0 : 1;
}


/* whether the record's fields are those of the CSV header (the first record's) */
static int same_fields(const spart_writer *wr) {
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


/* a value of the record that is not finite: the record is dropped, -SPART_EDATA; else 0 */
static int check_finite(spart_writer *wr, const spart_reader *rd, spart_err *err) {
  for (int k = 0; k < wr->nf; k++) {
    for (int e = 0; e < wr->f[k].n; e++) {
      if (!isfinite(wr->f[k].v[e])) {
        wr->nf = 0;
        return fail(err, SPART_EDATA, rd ? rd->st.line : 0, "result %s is not finite",
                    wr->f[k].name);
      }
    }
  }
  return 0;
}


int spart_emit(spart_writer *wr, const spart_reader *rd, spart_err *err) {
  int csv = wr->format == SPART_FMT_CSV, bad = 0;
  const spart_reader *pr = rd && rd->format == SPART_FMT_CSV ? rd : NULL;
  wr->len = wr->pend; /* after the records held back */

  /* a CSV row after the header with its fields, the usual case: its values are checked as they
     are written */
  int row = csv && wr->nhead && same_fields(wr);

  /* no record with a value that is not finite */
  if (!row && check_finite(wr, rd, err) != 0) {
    return -SPART_EDATA;
  }

  /* CSV: the header before the first row, the same fields in every row */
  if (csv && !row) {
    if (!wr->nhead) {
      int ncol = pr ? pr->npass : 0;
      for (int k = 0; k < wr->nf; k++) {
        ncol += wr->f[k].n;
      }
      if (ncol == 0) { /* a row of no cells is a blank line: nothing a reader could tell apart */
        wr->nf = 0;
        return fail(err, SPART_EDATA, rd ? rd->st.line : 0,
                    "no values to write as CSV (no moving joint, or --only names none written): "
                    "use -o json");
      }
      memcpy(wr->head, wr->f, sizeof(wr->head));
      wr->nhead = wr->nf;
      bad = csv_header_row(wr, pr);
    } else {
      wr->nf = 0;
      return fail(err, SPART_EDATA, rd ? rd->st.line : 0,
                  "this record gives other outputs than the CSV header names");
    }
  }

  /* JSON carries UTF-8 text only */
  int bad_text = pr && !csv ? not_utf8(pr) : -1;
  if (bad_text >= 0) {
    char txt[200];
    const char *name = pr->colname[bad_text];
    wr->nf = 0;
    wr->len = wr->pend;
    return fail(err, SPART_EDATA, rd->st.line,
                "column '%s': text that is not UTF-8, which JSON output cannot carry (use -o csv)",
                printable(txt, name, strlen(name)));
  }

  /* the record */
  if (wr->seq && !csv) {
    bad = bad || addstr(wr, "\x1e");
  }
  bad = bad || (!csv && addstr(wr, "{"));
  int first = 1;
  for (int p = 0; pr && p < pr->npass && !bad; p++, first = 0) {
    if (!csv) {
      const char *name = pr->colname[pr->pass[p]];
      size_t len = strlen(name);
      bad = (!first && addstr(wr, ",")) || (json_number(name, len) && addstr(wr, "\"")) ||
            add_json_cell(wr, name, len) || (json_number(name, len) && addstr(wr, "\"")) ||
            addstr(wr, ":");
    } else {
      bad = !first && addstr(wr, ",");
    }
    bad = bad || add_pass(wr, pr, pr->pass[p], !csv);
  }
  if (csv && !bad) {
    bad = add_csv_values(wr, first);
    if (bad > 0) {
      wr->len = wr->pend;
      return check_finite(wr, rd, err);
    }
  }
  for (int k = 0; k < wr->nf && !bad && !csv; k++, first = 0) {
    int dims[3], nd;
    dims_of(wr, k, dims, &nd);
    bad = (!first && addstr(wr, ",")) || addstr(wr, "\"") || addstr(wr, wr->f[k].name) ||
          addstr(wr, "\":") || add_array(wr, wr->f[k].v, nd, dims);
  }
  bad = bad || (!csv && addstr(wr, "}")) || addstr(wr, "\n");
  wr->nf = 0;
  if (bad) {
    return fail(err, SPART_ENOMEM, 0, "out of memory");
  }

  /* whole records only are written (no row is ever half written by us), 64 KiB at once unless
     each must go at once */
  wr->pend = wr->len;
  wr->nrec++;
  return wr->eager || wr->pend >= SPART_WRITE_AT ? write_out(wr, err) : 0;
}
