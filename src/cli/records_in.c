/* records_in.c -- the record reader: JSON objects (one a line, pretty-printed, or RFC 7464) and
 * CSV rows in, as state records for the commands.  Memory is O(model + one record). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "records.h"
#include "spart_text.h"

#define SPART_MAX_RECORD (64 << 20) /* bytes in one record */

/* state fields: name, number of rows (0: nq, -2: nv, -1: n links), columns */
static const struct {
  const char *name;
  int rows, cols;
} fields[CLI_NFIELD] = {
    {"R0", 3, 3},     {"r0", 1, 3},   {"qm", 0, 1},    {"u0", 1, 6},  {"um", -2, 1}, {"u0dot", 1, 6},
    {"umdot", -2, 1}, {"tau0", 1, 6}, {"taum", -2, 1}, {"wF0", 1, 6}, {"wFm", -1, 6}, {"q0", 1, 4},
    {"qmdot", 0, 1},
};

/* a CSV column: the state value it fills, or -1 to pass through */
typedef struct {
  int field;   /* CLI_F_*, or -1 */
  int index;   /* position in the field's values */
  double *dst; /* the value in the reader's state */
} column;

struct cli_reader {
  FILE *in;
  const char *name;
  int format, seq;
  int format0; /* the format asked for (CLI_FMT_AUTO: each input's own) */
  int input;   /* inputs read so far, counting from 0 (cli_reader_next_input) */
  unsigned keep; /* the state fields read that pass through too (--keep-state), 1 << CLI_F_* */
  long long array; /* the line of the '[' of the JSON array of records being read, or 0 */
  /* the JSON record's members that pass through: key (decoded) and CSV text (a string decoded,
     a number, true or false as they came, null empty) in jtext, value as it came in rec; csv -1
     for an array or an object */
  struct jpass {
    size_t key, klen, val, vlen, csv;
    ssize_t clen;
  } *jpass;
  int njpass, capjpass;
  char *jtext;
  size_t jtlen, jtcap;
  int fd;    /* the stream's file descriptor, or -1 */
  char *buf; /* input block: [bpos, bend) is read and not yet taken, a spare byte after it */
  size_t bcap, bpos, bend;
  int eof;     /* the input has ended */
  char *line;  /* the current line, in buf */
  long long lineno; /* lines read so far (64 bits: never wraps) */
  char *rec;   /* JSON record being gathered, or a CSV record of several lines */
  size_t reclen, reccap;
  size_t pos, len;  /* unread part of line */
  int started;      /* CSV header read */
  char delim;       /* CSV delimiter: ',', ';' or a tab, from the header */
  int pending;      /* the line in rd->line is still to be read */
  unsigned reads;   /* fields the command reads: others are ignored (JSON) or pass (CSV) */
  int dead;         /* the CSV header was bad: nothing more can be read */
  spart_model *own; /* model that came with the input */
  spart_json js;    /* the scanner of JSON records */
  cli_state st;
  cli_state vin; /* where the vectors are read: st's own, or with coupled mimic joints the
                   system's (nqc, nvc), which st holds expanded to the tree's (nq, nv) */
  double *stbuf;
  const spart_model *stm; /* model the state was sized for */
  unsigned char *given;   /* (nb) the joints a record names (by joint name) */
  column *cols;           /* CSV columns */
  int ncol;
  char **colname; /* CSV header names */
  size_t *cell;   /* CSV cells of the current row: start, length pairs into line */
  unsigned has;   /* the fields of the CSV columns */
  int *pass;      /* indices of pass-through columns */
  int npass;
  /* a CSV record held while the next is read (cli_reader_hold): its state, line and cells */
  cli_state hst;
  double *hbuf;
  char *hline;
  size_t hlen, *hcell;
  /* the end of the next line, found by cli_reader_ready, for next_line to take rather than look
     for it again: valid while nlfrom is buf + bpos (cleared when taken and when the block
     changes), else NULL */
  const char *nlfrom;
  size_t nlnext;
  /* records of named values (cli_read_named): names and texts in an arena */
  cli_named nr;
  char *arena;
  size_t alen, acap;
  size_t *aoff; /* (2 x cap) offsets of each value's name and text in the arena */
  int ncap;
};

int cli_errf(spart_err *err, int code, long long line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
  va_end(ap);
  err->code = code;
  err->line = line;
  return -code;
}


/* ---- the state record ---- */

/* size the state for model m; defaults are set by state_reset */
/* the record's arrays in buf (2 nqc + 3 nvc + 6 nb doubles), then for a model with coupled
   mimic joints the tree's (2 nq + 3 nv) */
static size_t state_len(const spart_model *m) {
  size_t tree = m->coupled ? 2 * (size_t)m->nq + 3 * (size_t)m->nv : 0;
  return 2 * (size_t)m->nqc + 3 * (size_t)m->nvc + 6 * (size_t)m->nb + tree;
}


static void state_carve(cli_state *st, double *buf, const spart_model *m) {
  size_t nv = (size_t)m->nvc;
  st->qm = buf;
  st->um = st->qm + m->nqc;
  st->umdot = st->um + nv;
  st->taum = st->umdot + nv;
  st->wF = st->taum + nv;
  st->qmdot = st->wF + 6 * (size_t)m->nb;
  if (m->coupled) { /* the tree's vectors, after the record's */
    st->qm = st->qmdot + m->nqc;
    st->um = st->qm + m->nq;
    st->umdot = st->um + m->nv;
    st->taum = st->umdot + m->nv;
    st->qmdot = st->taum + m->nv;
  }
}


/* the record's vectors in the tree's (spart_mimic.c), for coupled mimic joints */
static void state_expand(cli_reader *rd, const spart_model *m) {
  cli_state *in = &rd->vin, *st = &rd->st;
  spart_mimic_q(m, in->qm, st->qm);
  spart_mimic_v(m, in->um, st->um);
  spart_mimic_v(m, in->umdot, st->umdot);
  spart_mimic_lift(m, in->taum, st->taum);
  spart_mimic_qdot(m, in->qmdot, st->qmdot);
}


static int state_init(cli_reader *rd, const spart_model *m) {
  size_t n = state_len(m) + 1;
  free(rd->stbuf);
  free(rd->hbuf);
  free(rd->given);
  rd->stbuf = malloc(n * sizeof(double));
  rd->hbuf = malloc(n * sizeof(double));
  rd->given = malloc((size_t)m->nb);
  if (!rd->stbuf || !rd->hbuf || !rd->given) {
    return -1;
  }
  state_carve(&rd->st, rd->stbuf, m);
  state_carve(&rd->hst, rd->hbuf, m);
  rd->vin = rd->st;
  if (m->coupled) {
    spart_model uncoupled = *m; /* the record's arrays alone */
    uncoupled.coupled = 0;
    state_carve(&rd->vin, rd->stbuf, &uncoupled);
  }
  rd->stm = m;
  return 0;
}


static void state_reset(cli_reader *rd, const spart_model *m) {
  cli_state *st = &rd->st;
  static const double eye[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  memcpy(st->R0, eye, sizeof(eye));
  memset(st->r0, 0, sizeof(st->r0));
  memset(st->u0, 0, sizeof(st->u0));
  memset(st->u0dot, 0, sizeof(st->u0dot));
  memset(st->tau0, 0, sizeof(st->tau0));
  memset(rd->stbuf, 0, state_len(m) * sizeof(double));
  if (m->nq != m->nv) {
    spart_joint_neutral(m, st->qm); /* a quaternion not given is the identity */
    if (m->coupled) {
      spart_mimic_qc(m, st->qm, rd->vin.qm);
    }
  }
  st->has = 0;
  st->contacts = NULL;
}


/* rows of field k for model m */
static int field_rows(const spart_model *m, int k) {
  int r = fields[k].rows;
  return r == 0 ? m->nqc : r == -2 ? m->nvc : r < 0 ? m->nb - 1 : r;
}


/* where field k's values are read (the record's vectors into rd->vin), and how many there are */
static double *field_ptr(cli_reader *rd, const spart_model *m, int k, int *count) {
  cli_state *st = &rd->st, *in = &rd->vin;
  *count = field_rows(m, k) * fields[k].cols;
  switch (k) {
    case CLI_F_R0: return st->R0;
    case CLI_F_r0: return st->r0;
    case CLI_F_qm: return in->qm;
    case CLI_F_u0: return st->u0;
    case CLI_F_um: return in->um;
    case CLI_F_u0dot: return st->u0dot;
    case CLI_F_umdot: return in->umdot;
    case CLI_F_tau0: return st->tau0;
    case CLI_F_taum: return in->taum;
    case CLI_F_wF0: return in->wF;
    case CLI_F_q0: return st->q0;
    case CLI_F_qmdot: return in->qmdot;
    default: return in->wF + 6;
  }
}


/* other toolkits' names for the state fields: a key or column named so is refused with the
   name spart gives it, never passed through while the command computes at the default */
static const struct {
  const char *name, *who;
  int field;
} foreign[] = {
    {"q", "Pinocchio, RigidBodyDynamics.jl, Robotics Toolbox", CLI_F_qm},
    {"qd", "Robotics Toolbox", CLI_F_um},
    {"qdd", "Robotics Toolbox", CLI_F_umdot},
    {"dq", "libfranka", CLI_F_um},
    {"ddq", "libfranka", CLI_F_umdot},
    {"v", "Pinocchio, RigidBodyDynamics.jl", CLI_F_um},
    {"vd", "RigidBodyDynamics.jl", CLI_F_umdot},
    {"a", "Pinocchio", CLI_F_umdot},
    {"tau", "Pinocchio, Robotics Toolbox", CLI_F_taum},
    {"position", "ROS joint_states", CLI_F_qm},
    {"velocity", "ROS joint_states", CLI_F_um},
    {"effort", "ROS joint_states", CLI_F_taum},
};


/* the entry of foreign[] that a key or column (n bytes) is: the name itself, with digits
   (q1), with _ and indices (qd_1, q_1_2), or with '.' and a joint's name (position.joint1);
   -1 for none.  Case matters: V or A may be a logger's volts and amperes. */
static int foreign_find(const char *h, size_t n) {
  for (int f = 0; f < (int)(sizeof(foreign) / sizeof(foreign[0])); f++) {
    size_t len = strlen(foreign[f].name);
    if (n < len || memcmp(h, foreign[f].name, len) != 0) {
      continue;
    }
    const char *r = h + len, *end = h + n;
    if (r == end || *r == '.') {
      return f;
    }
    size_t d = strspn(r, "0123456789");
    if (d > 0 && (size_t)(end - r) == d) {
      return f;
    }
    if (*r == '_' && r + 1 < end) {
      for (r++; r < end && ((*r >= '0' && *r <= '9') || (*r == '_' && r[-1] != '_')); r++) {
      }
      if (r == end && end[-1] != '_') {
        return f;
      }
    }
  }
  return -1;
}


/* the message for h (n bytes), another toolkit's name foreign[f]; what: "key" or "column" */
static int foreign_refuse(int f, const char *what, const char *h, size_t n, long long line,
                          spart_err *err) {
  char txt[200];
  return cli_errf(err, SPART_EDATA, line, "%s '%s': '%s' (%s) is %s here%s", what,
                  spart_printable(txt, h, n), foreign[f].name, foreign[f].who,
                  fields[foreign[f].field].name,
                  strncmp(foreign[f].who, "ROS", 3) == 0
                      ? " (a joint's may be keyed by its name: spart-records(5))"
                      : "");
}


/* a record that gives no qm for a model with joint coordinates (nqc > 0), when the command
   reads qm: the configuration is never defaulted.  has: the fields the record (or the CSV
   header) gives; csv: the header's message.  0, or -SPART_EDATA with err filled. */
static int qm_missing(const cli_reader *rd, const spart_model *m, unsigned has, int csv,
                      long long line, spart_err *err) {
  if (!(rd->reads & 1u << CLI_F_qm) || m->nqc == 0 || (has & 1u << CLI_F_qm)) {
    return 0;
  }
  /* outputs of another command (spart-id's taum into spart-fd, spart-fd's umdot into spart-id)
     without the state they were computed at: that command's --keep-state passes it on */
  static const int outs[] = {CLI_F_taum, CLI_F_tau0, CLI_F_umdot, CLI_F_u0dot};
  char why[160] = "";
  for (size_t i = 0; i < sizeof(outs) / sizeof(outs[0]) && !why[0]; i++) {
    if (has & 1u << outs[i]) {
      snprintf(why, sizeof(why),
               "; if it is another command's output (it gives %s), give that command "
               "--keep-state to pass on the state it read",
               fields[outs[i]].name);
    }
  }
  if (csv) {
    char cols[40];
    snprintf(cols, sizeof(cols), "qm_1..qm_%d", m->nqc);
    cols[m->nqc > 1 ? sizeof(cols) - 1 : 4] = 0; /* one joint coordinate: qm_1 */
    return cli_errf(err, SPART_EDATA, line,
                    "the header has no %s: the model's joint configuration is never defaulted%s",
                    cols, why);
  }
  return cli_errf(err, SPART_EDATA, line,
                  "no qm: the model has %d joint coordinates and the record must give them (the "
                  "configuration is never defaulted)%s",
                  m->nqc, why);
}


static int field_find(const char *name, size_t len) {
  for (int k = 0; k < CLI_NFIELD; k++) {
    if (strlen(fields[k].name) == len && memcmp(fields[k].name, name, len) == 0) {
      return k;
    }
  }
  return -1;
}


/* ---- reading lines ---- */

cli_reader *cli_reader_new(void *in, const char *name, int format, int seq, unsigned reads) {
  cli_reader *rd = calloc(1, sizeof(*rd));
  if (rd) {
    rd->in = in;
    rd->fd = fileno(in);
    rd->name = name;
    rd->format = rd->format0 = format;
    rd->seq = seq;
    rd->reads = reads ? reads : ~0u;
    rd->reads |= (rd->reads & 1u << CLI_F_R0) ? 1u << CLI_F_q0 : 0; /* q0 stands for R0 */
    rd->reads |= (rd->reads & 1u << CLI_F_um) ? 1u << CLI_F_qmdot : 0; /* qmdot for um */
  }
  return rd;
}


/* free what a CSV header made: the columns, their names, the cells, the pass-through list */
static void header_free(cli_reader *rd) {
  for (int k = 0; k < rd->ncol; k++) {
    free(rd->colname[k]);
  }
  free(rd->colname);
  free(rd->cols);
  free(rd->cell);
  free(rd->hcell);
  free(rd->pass);
}


void cli_reader_free(cli_reader *rd) {
  if (!rd) {
    return;
  }
  header_free(rd);
  free(rd->buf);
  free(rd->rec);
  free(rd->jpass);
  free(rd->jtext);
  spart_json_free(&rd->js);
  free(rd->stbuf);
  free(rd->hbuf);
  free(rd->given);
  free(rd->arena);
  free(rd->aoff);
  free(rd->nr.name);
  free(rd->nr.text);
  free(rd->nr.v);
  spart_model_free(rd->own);
  free(rd);
}


const spart_model *cli_reader_model(const cli_reader *rd) {
  return rd->own;
}


/* up to n bytes of input into p: from the file descriptor when the stream has one (a read
   returns what has come, so that records stream), else through stdio; the count, 0 at the end,
   or -1 */
static long fill(cli_reader *rd, char *p, size_t n) {
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
static int next_line(cli_reader *rd, spart_err *err) {
  const size_t most = (size_t)SPART_MAX_RECORD - 2; /* bytes in a line, without its \n */
  char *nl = NULL;
  size_t n;
  int over = 0;
  if (rd->pending) {
    rd->pending = 0;
    rd->pos = 0;
    return 1;
  }
  if (rd->nlfrom && rd->nlfrom == rd->buf + rd->bpos) {
    nl = rd->buf + rd->nlnext;
  }
  rd->nlfrom = NULL;
  for (; !nl;) {
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
        return cli_errf(err, SPART_ENOMEM, rd->lineno + 1, "out of memory"), -1;
      }
      rd->buf = p;
      rd->bcap = c;
    }
    errno = 0;
    long r = fill(rd, rd->buf + rd->bend, rd->bcap - 1 - rd->bend);
    if (r < 0) {
      return cli_errf(err, SPART_EIO, 0, "read error: %s", strerror(errno)), -1;
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
    return cli_errf(err, SPART_EDATA, rd->lineno, "line longer than %d bytes", SPART_MAX_RECORD),
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
static void unread_line(cli_reader *rd) {
  rd->pending = 1;
  rd->pos = rd->len;
}


/* ---- JSON records ---- */

int cli_grow(char **buf, size_t *cap, size_t need) {
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
static int json_gather(cli_reader *rd, long long *start, spart_err *err) {
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
          return cli_errf(err, SPART_EDATA, *start, "unterminated JSON object"), -1;
        }
        if (r == 0 && rd->array) {
          long long at = rd->array;
          rd->array = 0;
          return cli_errf(err, SPART_EDATA, at, "unterminated JSON array (no ']')"), -1;
        }
        return r;
      }
      int inside = robot && depth >= 2 && !instr && (last == '[' || last == ',' || last == ':');
      if (rd->reclen > 0 && rd->len > 0 &&
          ((rd->line[0] == '{' && !inside) || rd->line[0] == 0x1e)) {
        unread_line(rd); /* a new record starts: the one gathered so far is cut short */
        return cli_errf(err, SPART_EDATA, *start, "unterminated JSON object"), -1;
      }
      if (rd->reclen > 0) {
        if (cli_grow(&rd->rec, &rd->reccap, rd->reclen + 2) != 0) {
          return cli_errf(err, SPART_ENOMEM, rd->lineno, "out of memory"), -1;
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
      /* a JSON array of records (jq -s, Miller's JSON): its brackets around them */
      if (rd->reclen == 0 && rd->pos == from && depth == 0 &&
          ((ch == '[' && !rd->array) || (ch == ']' && rd->array))) {
        rd->array = ch == '[' ? rd->lineno : 0;
        from = ++rd->pos;
        continue;
      }
      if (depth == 0 && ch != '{') {
        char txt[200];
        cli_errf(err, SPART_EDATA, rd->lineno, "expected a JSON object, got '%s'",
             spart_printable(txt, s + rd->pos, rd->len - rd->pos < 20 ? rd->len - rd->pos : 20));
        rd->pos = rd->len;
        return -1;
      }
      if (!*start) {
        *start = rd->lineno;
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
        return cli_errf(err, SPART_EDATA, *start, "unterminated JSON object"), -1;
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
      return cli_errf(err, SPART_EDATA, *start, "record longer than %d bytes", SPART_MAX_RECORD), -1;
    }
    if (cli_grow(&rd->rec, &rd->reccap, rd->reclen + n + 1) != 0) {
      return cli_errf(err, SPART_ENOMEM, *start, "out of memory"), -1;
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
  return cli_errf(err, j->oom ? SPART_ENOMEM : SPART_EDATA, j->eline, "%s", j->msg);
}


/* fill v (count values) from the JSON array that comes next: flat, or (cols > 1, rows > 0) rows
   of cols numbers, not a mix of both */
static int json_values(spart_json *j, double *v, int count, int rows, int cols, const char *name,
                       long long line, spart_err *err) {
  int n = 0, shape = 0, t = spart_json_next(j); /* shape: 1 flat, 2 rows */
  if (t != SPART_JSON_ARRAY) {
    return t < 0 ? json_fault(j, err)
                 : cli_errf(err, SPART_EDATA, line, "%s: expected an array of %d numbers", name, count);
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
          return cli_errf(err, SPART_EDATA, line, "%s[%d][%d] is not a finite number", name,
                      (n - nc) / cols + 1, nc + 1);
        }
        if (n < count) {
          v[n] = x;
        }
        n++, nc++;
      }
      if (nc != cols) {
        return cli_errf(err, SPART_EDATA, line, "%s: row %d has %d values, expected %d", name,
                    (n - nc) / cols + 1, nc, cols);
      }
      continue;
    }
    if (t < 0) {
      return json_fault(j, err);
    }
    if (shape == 2 || (shape == 1 && t == SPART_JSON_ARRAY && cols > 1 && rows > 0)) {
      return cli_errf(err, SPART_EDATA, line,
                  "%s mixes rows and numbers: give %d rows of %d numbers, or %d numbers", name,
                  rows, cols, count);
    }
    double x = t == SPART_JSON_NUMBER ? spart_json_number(j) : NAN;
    if (!isfinite(x)) {
      return cli_errf(err, SPART_EDATA, line, "%s[%d] is not a finite number", name, n + 1);
    }
    shape = 1;
    if (n < count) {
      v[n] = x;
    }
    n++;
  }
  if (n != count) {
    if (shape == 2 || cols > 1) {
      return cli_errf(err, SPART_EDATA, line, "%s has %d values, model needs %dx%d", name, n, rows,
                  cols);
    }
    return cli_errf(err, SPART_EDATA, line, "%s has %d values, model needs %d", name, n, count);
  }
  return 0;
}


/* whether field k may be given by joint name: the joints' vectors */
static int by_name_field(int k) {
  return k == CLI_F_qm || k == CLI_F_um || k == CLI_F_umdot || k == CLI_F_taum || k == CLI_F_qmdot;
}


/* field k (v, the record's vector) given as an object keyed by joint name, next in j: a number
   for a joint of one value, an array for one of more (a ball joint's quaternion); every joint
   with values named once */
static int json_by_name(cli_reader *rd, spart_json *j, const spart_model *m, int k, double *v,
                        long long line, spart_err *err) {
  const char *field = fields[k].name;
  int vel = fields[k].rows == -2, t = spart_json_next(j); /* the '{' */
  if (t < 0) {
    return json_fault(j, err);
  }
  memset(rd->given, 0, (size_t)m->nb);
  while ((t = spart_json_next(j)) == SPART_JSON_KEY) {
    int at, i = cli_joint_find(m, j->str, j->strlen);
    int n = i > 0 ? cli_joint_span(m, i, vel, 1, &at) : 0;
    char label[300], txt[200];
    if (n == 0) {
      return cli_joint_refuse(m, field, j->str, j->strlen, line, err);
    }
    snprintf(label, sizeof(label), "%s.%s", field, spart_printable(txt, j->str, j->strlen));
    if (rd->given[i]) {
      return cli_errf(err, SPART_EDATA, line, "%s is given twice", label);
    }
    rd->given[i] = 1;
    if (n > 1) {
      if (json_values(j, v + at, n, 0, 1, label, line, err)) {
        return -err->code;
      }
      continue;
    }
    t = spart_json_next(j);
    if (t < 0) {
      return json_fault(j, err);
    }
    double x = t == SPART_JSON_NUMBER ? spart_json_number(j) : NAN;
    if (!isfinite(x)) {
      return cli_errf(err, SPART_EDATA, line, "%s is not a finite number", label);
    }
    v[at] = x;
  }
  if (t != SPART_JSON_OBJECT_END) {
    return json_fault(j, err);
  }
  for (int i = 1; i < m->nb; i++) {
    int at;
    if (!rd->given[i] && cli_joint_span(m, i, vel, 1, &at) > 0) {
      return cli_errf(err, SPART_EDATA, line,
                      "%s by joint name gives no '%s': every joint's values are given", field,
                      m->jnt_name[i] ? m->jnt_name[i] : "?");
    }
  }
  return 0;
}


/* whether the value that comes next in j (after blanks and the ':') is an object */
static int json_next_object(const spart_json *j) {
  size_t pos = j->pos;
  while (pos < j->len && strchr(" \t\r\n:", j->s[pos]) && j->s[pos]) {
    pos++;
  }
  return pos < j->len && j->s[pos] == '{';
}


/* the model of the record's "robot" member: the first record's, when no -m gave one */
static int json_robot(cli_reader *rd, spart_json *j, long long start, spart_err *err) {
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
        return cli_errf(err, merr.code == SPART_ENOMEM ? SPART_ENOMEM : SPART_EDATA,
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
  return cli_errf(err, SPART_EDATA, start, "no model: give -m FILE or a \"robot\" key");
}


/* text into rd->jtext; its offset, or -1 when out of memory */
static ssize_t jtext_add(cli_reader *rd, const char *s, size_t n) {
  if (cli_grow(&rd->jtext, &rd->jtcap, rd->jtlen + n + 1) != 0) {
    return -1;
  }
  memcpy(rd->jtext + rd->jtlen, s, n);
  rd->jtext[rd->jtlen + n] = 0;
  rd->jtlen += n + 1;
  return (ssize_t)(rd->jtlen - n - 1);
}


/* the state field a JSON key that is none looks like: another case (QM), a CSV column's name
   (qm_1, qm1), the name and more after '_' (qm_dot), as a CSV header refuses them; -1 for a key
   of the user's own */
static int key_lookalike(const char *key, size_t n) {
  for (int k = 0; k < CLI_NFIELD; k++) {
    size_t f = strlen(fields[k].name);
    if (n >= f && strncasecmp(key, fields[k].name, f) == 0 &&
        (n == f || key[f] == '_' || strspn(key + f, "0123456789") == n - f)) {
      return k;
    }
  }
  return -1;
}


/* room for one more pass-through JSON member in rd->jpass; 0, or -1 out of memory */
static int jpass_room(cli_reader *rd) {
  if (rd->njpass == rd->capjpass) {
    int c = rd->capjpass ? 2 * rd->capjpass : 8;
    struct jpass *p = realloc(rd->jpass, (size_t)c * sizeof(*p));
    if (!p) {
      return -1;
    }
    rd->jpass = p;
    rd->capjpass = c;
  }
  return 0;
}


/* member key (j->str) whose value comes next in j passes through: noted in rd->jpass, its value
   skipped; 0, or -1 with err filled */
static int json_pass(cli_reader *rd, spart_json *j, long long start, spart_err *err) {
  if (jpass_room(rd) != 0) {
    return cli_errf(err, SPART_ENOMEM, start, "out of memory");
  }
  struct jpass *p = &rd->jpass[rd->njpass];
  ssize_t key = jtext_add(rd, j->str, j->strlen);
  p->klen = j->strlen;
  int t = spart_json_next(j);
  if (t < 0) {
    return json_fault(j, err);
  }
  p->val = j->tpos;
  ssize_t csv = 0;
  p->clen = -1;
  if (t == SPART_JSON_STRING || t == SPART_JSON_NUMBER) {
    csv = jtext_add(rd, j->str, j->strlen);
    p->clen = (ssize_t)j->strlen;
  } else if (t == SPART_JSON_TRUE || t == SPART_JSON_FALSE || t == SPART_JSON_NULL) {
    const char *w = t == SPART_JSON_TRUE ? "true" : t == SPART_JSON_FALSE ? "false" : "";
    csv = jtext_add(rd, w, strlen(w));
    p->clen = (ssize_t)strlen(w);
  }
  if (key < 0 || csv < 0) {
    return cli_errf(err, SPART_ENOMEM, start, "out of memory");
  }
  p->key = (size_t)key;
  p->csv = (size_t)csv;
  if (spart_json_skip(j)) {
    return json_fault(j, err);
  }
  p->vlen = j->pos - p->val;
  rd->njpass++;
  return 0;
}


/* field k, read from rd->rec at from to the scanner's place, passes through as it came too
   (--keep-state); 0, or -1 with err filled */
static int json_keep(cli_reader *rd, int k, size_t from, long long start, spart_err *err) {
  if (jpass_room(rd) != 0) {
    return cli_errf(err, SPART_ENOMEM, start, "out of memory");
  }
  while (from < rd->js.pos && rd->rec[from] != '[' && rd->rec[from] != '{') {
    from++;
  }
  struct jpass *p = &rd->jpass[rd->njpass];
  ssize_t key = jtext_add(rd, fields[k].name, strlen(fields[k].name));
  if (key < 0) {
    return cli_errf(err, SPART_ENOMEM, start, "out of memory");
  }
  p->key = (size_t)key;
  p->klen = strlen(fields[k].name);
  p->val = from;
  p->vlen = rd->js.pos - from;
  p->csv = 0;
  p->clen = -1; /* an array */
  rd->njpass++;
  return 0;
}


/* the state fields of the record in rd->rec */
static int json_fields(cli_reader *rd, spart_model **m, long long start, spart_err *err) {
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
    return cli_errf(err, SPART_ENOMEM, start, "out of memory");
  }
  state_reset(rd, *m);
  rd->st.line = start;
  rd->njpass = 0;
  rd->jtlen = 0;

  /* the members, one at a time */
  spart_json_reset(j, rd->rec, rd->reclen, start);
  if (spart_json_next(j) < 0) { /* the record's '{' */
    return json_fault(j, err);
  }
  while ((t = spart_json_next(j)) == SPART_JSON_KEY) {
    int k = field_find(j->str, j->strlen), count;
    if (j->strlen == 5 && memcmp(j->str, "robot", 5) == 0) {
      if (!had_robot) {
        return cli_errf(err, SPART_EDATA, start,
                    rd->own ? "robot: only the first record may carry the model"
                            : "robot: the model is given by -m");
      }
      if (spart_json_next(j) < 0 || spart_json_skip(j)) {
        return json_fault(j, err);
      }
      continue;
    }
    if (k < 0 && (rd->reads & CLI_READS_CONTACTS) && j->strlen == 8 &&
        memcmp(j->str, "contacts", 8) == 0) { /* kept as text, for src/cli/contacts.c */
      if (spart_json_next(j) < 0) {
        return json_fault(j, err);
      }
      size_t from = j->tpos;
      rd->st.contacts_line = j->tline;
      if (spart_json_skip(j)) {
        return json_fault(j, err);
      }
      rd->st.contacts = rd->rec + from;
      rd->st.contacts_len = j->pos - from;
      continue;
    }
    if (k < 0 && key_lookalike(j->str, j->strlen) >= 0) {
      char txt[200];
      k = key_lookalike(j->str, j->strlen);
      return cli_errf(err, SPART_EDATA, start,
                      "key '%s' is not a state field: the field is %s, an array (case matters)",
                      spart_printable(txt, j->str, j->strlen), fields[k].name);
    }
    if (k < 0 && foreign_find(j->str, j->strlen) >= 0) {
      return foreign_refuse(foreign_find(j->str, j->strlen), "key", j->str, j->strlen, start, err);
    }
    if (k < 0 || !(rd->reads & 1u << k)) { /* the user's own, or a field this command does not
                                              read: it passes through */
      if (json_pass(rd, j, start, err) != 0) {
        return -err->code;
      }
      continue;
    }
    rd->st.has |= 1u << k;
    double *v = field_ptr(rd, *m, k, &count);
    size_t from = j->pos; /* before the value: blanks, maybe the ':' */
    if (by_name_field(k) && json_next_object(j) ? json_by_name(rd, j, *m, k, v, start, err)
                                                : json_values(j, v, count, field_rows(*m, k),
                                                              fields[k].cols, fields[k].name,
                                                              start, err)) {
      return -err->code;
    }
    if ((rd->keep & 1u << k) && json_keep(rd, k, from, start, err) != 0) { /* --keep-state */
      return -err->code;
    }
  }
  if (t == SPART_JSON_OBJECT_END) {
    t = spart_json_next(j);
  }
  if (t != SPART_JSON_END) {
    return json_fault(j, err);
  }
  if (!(rd->st.has & rd->reads) && !rd->st.contacts && !(rd->reads & CLI_READS_NONE_OK)) {
    /* never the defaults alone: the record gives no state (or contacts) */
    char want[200] = "";
    for (int k = 0, n = 0; k < CLI_NFIELD; k++) {
      if (rd->reads & 1u << k) {
        n += snprintf(want + n, sizeof(want) - (size_t)n, "%s%s", n ? " " : "", fields[k].name);
      }
    }
    return cli_errf(err, SPART_EDATA, start, "the record gives no state field; expected some of %s",
                    want);
  }
  if (qm_missing(rd, *m, rd->st.has, 0, start, err) != 0) {
    return -SPART_EDATA;
  }
  return 1;
}


static int json_record(cli_reader *rd, spart_model **m, spart_err *err) {
  long long start;
  int r = json_gather(rd, &start, err);
  if (r <= 0) {
    return r;
  }
  return json_fields(rd, m, start, err);
}


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
static long csv_split(cli_reader *rd, int want, int *open) {
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
static int csv_line(cli_reader *rd, spart_err *err) {
  for (;;) {
    int r = next_line(rd, err);
    if (r <= 0 || rd->len > 0) {
      return r;
    }
    while (rd->bpos < rd->bend && rd->buf[rd->bpos] == '\n') {
      rd->bpos++;
      rd->lineno++;
    }
  }
}


/* the record that starts with rd->line, split: while a quoted cell holds a line break, the lines
   after it are joined to it in rd->rec (with \n).  The number of cells, or -1 with err filled. */
static long csv_cells(cli_reader *rd, int want, spart_err *err) {
  long long line = rd->lineno;
  for (;;) {
    int open;
    long n = csv_split(rd, want, &open);
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
      return cli_errf(err, SPART_EDATA, line, "column %ld%s: text after its closing quote", -n, name),
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
    int r = next_line(rd, err);
    if (r < 0) {
      return -1;
    }
    if (r == 0) {
      return cli_errf(err, SPART_EDATA, line, "column %ld%s: its quote is never closed", -n, name), -1;
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


size_t cli_unquote(char *out, const char *s, size_t n) {
  size_t k = 0;
  if (n >= 2 && s[0] == '"') {
    for (size_t i = 1; i + 1 < n; i++) {
      out[k++] = s[i];
      i += s[i] == '"'; /* "" is one quote */
    }
  } else {
    memcpy(out, s, n);
    k = n;
  }
  out[k] = 0;
  return k;
}


/* the state field whose name, in any case, starts h and is followed by digits only (qm1, QM_1's
   'QM' is found by csv_column), or -1 */
static int field_lookalike(const char *h) {
  for (int k = 0; k < CLI_NFIELD; k++) {
    size_t n = strlen(fields[k].name);
    if (strncasecmp(h, fields[k].name, n) == 0 && h[n] && strspn(h + n, "0123456789") ==
        strlen(h + n)) {
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
static int csv_by_name(const char *h, const char *name, int k, const spart_model *m,
                       unsigned reads, column *c, spart_err *err, long long line) {
  char txt[200];
  size_t n = strlen(name);
  int vel = fields[k].rows == -2, at = 0, coord = 0;
  int i = cli_joint_find(m, name, n), count = i > 0 ? cli_joint_span(m, i, vel, 1, &at) : 0;
  if (count > 1) {
    return cli_errf(err, SPART_EDATA, line,
                    "column '%s': joint '%s' has %d values: columns %s.%s.1..%s.%s.%d",
                    spart_printable(txt, h, strlen(h)), m->jnt_name[i], count, fields[k].name,
                    m->jnt_name[i], fields[k].name, m->jnt_name[i], count);
  }
  const char *dot = strrchr(name, '.');
  if (i < 0 && dot && dot[1] >= '1' && dot[1] <= '9' && strspn(dot + 1, "0123456789") ==
      strlen(dot + 1) && strlen(dot + 1) < 6) { /* JOINT.K */
    i = cli_joint_find(m, name, (size_t)(dot - name));
    count = i > 0 ? cli_joint_span(m, i, vel, 1, &at) : 0;
    coord = atoi(dot + 1) - 1;
    if (count == 1 || (count > 1 && coord >= count)) {
      return cli_errf(err, SPART_EDATA, line, "column '%s': joint '%s' has %d value%s%s%s%s",
                      spart_printable(txt, h, strlen(h)), m->jnt_name[i], count,
                      count == 1 ? ": the column is " : "s", count == 1 ? fields[k].name : "",
                      count == 1 ? "." : "", count == 1 ? m->jnt_name[i] : "");
    }
    n = (size_t)(dot - name);
  }
  if (count == 0) {
    return cli_joint_refuse(m, fields[k].name, name, n, line, err);
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
  int k = field_find(h, base);
  c->field = -1;
  c->index = 0;
  size_t dot = strcspn(h, "._");
  if (h[dot] == '.' && field_find(h, dot) >= 0 && by_name_field(field_find(h, dot))) {
    return csv_by_name(h, h + dot + 1, field_find(h, dot), m, reads, c, err, line); /* qm.JOINT */
  }
  if (k < 0) {
    /* another case of a field's name, or a field's name run into its index */
    int like = -1;
    for (int f = 0; f < CLI_NFIELD && like < 0; f++) {
      like = strlen(fields[f].name) == base && strncasecmp(h, fields[f].name, base) == 0 ? f : -1;
    }
    like = like >= 0 ? like : field_lookalike(h);
    if (like >= 0) {
      return cli_errf(err, SPART_EDATA, line,
                  "column '%s' is not a state column: state columns are %s_%s (case matters)",
                  spart_printable(txt, h, len), fields[like].name,
                  fields[like].rows == 3 || fields[like].rows == -1 ? "I_J" : "I");
    }
    if (foreign_find(h, len) >= 0) {
      return foreign_refuse(foreign_find(h, len), "column", h, len, line, err);
    }
    return 0; /* a column of the user's own: it passes through */
  }
  int rows = field_rows(m, k), cols = fields[k].cols;
  int two = fields[k].rows == 3 || fields[k].rows == -1; /* matrices: name_i_j */
  const char *p = h + base;
  long i = col_index(&p, two ? rows : (long)rows * cols), j = two ? col_index(&p, cols) : 1;
  if (i == 0 || j == 0 || *p) {
    if (two) {
      return cli_errf(err, SPART_EDATA, line,
                  "column '%s' is not a state column: %s_I_J takes I from 1 to %d and J from 1 "
                  "to %d, without sign or leading zeros",
                  spart_printable(txt, h, len), fields[k].name, rows, cols);
    }
    return cli_errf(err, SPART_EDATA, line,
                "column '%s' is not a state column: %s_I takes I from 1 to %d, without sign or "
                "leading zeros",
                spart_printable(txt, h, len), fields[k].name, rows * cols);
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
    int rows = field_rows(m, f), two = fields[f].rows == 3 || fields[f].rows == -1;
    if (!(reads & 1u << f) || rows * fields[f].cols == 0 || f >= CLI_F_q0) { /* stand-ins */
      continue;
    }
    if (two) {
      k += (size_t)snprintf(out + k, n - k, "%s%s_1_1..%s_%d_%d", k ? ", " : "", fields[f].name,
                            fields[f].name, rows, fields[f].cols);
    } else {
      k += (size_t)snprintf(out + k, n - k, "%s%s_1..%s_%d", k ? ", " : "", fields[f].name,
                            fields[f].name, rows * fields[f].cols);
    }
  }
}


static int csv_header(cli_reader *rd, const spart_model *m, spart_err *err) {
  /* a logger's preamble: blank lines and lines that start with '#', before the header only */
  long long hint = 0; /* a comment that names a state column */
  int r;
  while ((r = csv_line(rd, err)) > 0 && rd->line[0] == '#') {
    for (int k = 0; k < CLI_NFIELD && !hint; k++) {
      char pat[16];
      snprintf(pat, sizeof(pat), "%s_1", fields[k].name);
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
  if (rd->reads != ~0u && (rd->reads & CLI_READS_CONTACTS)) {
    return cli_errf(err, SPART_EDATA, line,
                    "contacts are read from JSON records only, not CSV (use -i json)"),
           -1;
  }
  rd->delim = cli_csv_delimiter(rd->line, rd->len);
  long n = csv_cells(rd, 0, err);
  if (n < 0) {
    return -1;
  }
  if (n > 1000000) {
    return cli_errf(err, SPART_EDATA, line, "%ld columns: more than 1000000", n), -1;
  }
  rd->cell = malloc(2 * (size_t)n * sizeof(size_t));
  rd->hcell = malloc(2 * (size_t)n * sizeof(size_t));
  rd->cols = calloc((size_t)n, sizeof(column));
  rd->colname = calloc((size_t)n, sizeof(char *));
  rd->pass = malloc((size_t)n * sizeof(int));
  char **sorted = malloc((size_t)n * sizeof(char *));
  if (!rd->cell || !rd->hcell || !rd->cols || !rd->colname || !rd->pass || !sorted) {
    free(sorted);
    return cli_errf(err, SPART_ENOMEM, line, "out of memory"), -1;
  }
  rd->ncol = (int)n;
  int open;
  csv_split(rd, (int)n, &open);

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
               rd->delim == ',' ? "" : rd->delim == ';' ? " (read as ';'-separated)"
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
    bad = qm_missing(rd, m, rd->has, 1, line, err);
  }
  if (bad) {
    return -1;
  }
  /* no value twice (qm_1 and qm.JOINT both): the columns of each value */
  int off[CLI_NFIELD + 1] = {0};
  for (int k = 0; k < CLI_NFIELD; k++) {
    off[k + 1] = off[k] + field_rows(m, k) * fields[k].cols;
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
  free(who);
  if (bad) {
    return -1;
  }
  /* every value of a field */
  for (int k = 0; k < CLI_NFIELD; k++) {
    int count = field_rows(m, k) * fields[k].cols;
    if (seen[k] && seen[k] != count) {
      return cli_errf(err, SPART_EDATA, line, "%s has %d columns, model needs %d", fields[k].name,
                  seen[k], count),
             -1;
    }
  }
  for (int j = 0; j < n; j++) {
    int count;
    if (rd->cols[j].field >= 0) {
      rd->cols[j].dst = field_ptr(rd, m, rd->cols[j].field, &count) + rd->cols[j].index;
    }
  }
  rd->started = 1;
  return 1;
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
    if (state_init(rd, *m) != 0) {
      return cli_errf(err, SPART_ENOMEM, 0, "out of memory");
    }
    /* once: every row fills the same fields, all their values (csv_header sees to that), and
       leaves the others alone */
    state_reset(rd, *m);
  }
  if (!rd->started) {
    int r = csv_header(rd, *m, err);
    if (r <= 0) {
      rd->dead = r < 0; /* no row can be read without its header */
      return r;
    }
  }
  int r = csv_line(rd, err); /* after the header, every line that is not blank is a record */
  if (r <= 0) {
    return r;
  }
  long long line = rd->lineno;
  rd->st.line = line;
  if (csv_fast(rd)) {
    rd->st.has = rd->has;
    return 1;
  }
  rd->st.has = 0;
  long n = csv_cells(rd, rd->ncol, err);
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
    rd->st.has |= 1u << c->field;
  }
  return 1;
}


/* R0 must be a rotation: R0 R0' = 1 to 1e-5 (6 decimals give 2e-6), and det R0 = +1 */
static int check_rotation(const double R[9], long long line, spart_err *err) {
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
    return cli_errf(err, SPART_EDATA, line, "R0 is not a rotation: R0 R0' differs from 1 by %.3g",
                worst);
  }
  if (det < 0) {
    return cli_errf(err, SPART_EDATA, line, "R0 is a reflection (determinant -1), not a rotation");
  }
  return 0;
}


/* q0, the base attitude as a unit quaternion [w x y z] (within 1e-6, then normalised), to R0;
   R0 given as well is an error */
static int base_quaternion(cli_state *st, spart_err *err) {
  double *q = st->q0, n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (st->has & 1u << CLI_F_R0) {
    return cli_errf(err, SPART_EDATA, st->line, "R0 and q0 are both given: give one");
  }
  if (!(fabs(n - 1) <= 1e-6)) {
    return cli_errf(err, SPART_EDATA, st->line,
                    "q0: norm %.17g, expected a unit quaternion [w, x, y, z] (within 1e-6)", n);
  }
  double unit[4] = {q[0] / n, q[1] / n, q[2] / n, q[3] / n};
  spart_quat_rot(st->R0, unit);
  return 0;
}


/* qmdot, the joints' coordinate rates, to their velocities um at qm (spart_joint_v_of_qdot);
   um given as well is an error */
static int joint_rates(const spart_model *m, cli_state *st, unsigned given, spart_err *err) {
  if (given & 1u << CLI_F_um) {
    return cli_errf(err, SPART_EDATA, st->line, "um and qmdot are both given: give one");
  }
  if (m->nq != m->nv && spart_joint_rates_tangent(m, st->qm, st->qmdot, 1e-6, err) != 0) {
    err->line = st->line;
    return -SPART_EDATA; /* not projected away: the rate given is not one of a unit quaternion */
  }
  for (int i = 1; i < m->nb; i++) {
    if (m->jnt_nq[i] > 0) {
      spart_joint_v_of_qdot(m, i, st->qm + m->jnt_qadr[i], st->qmdot + m->jnt_qadr[i],
                            st->um + m->jnt_vadr[i]);
    }
  }
  st->has |= 1u << CLI_F_um;
  return 0;
}


/* the format, from the first line that is not blank: JSON if it starts with {, [ or RS; 1, or
   0 at the end, or -1 */
static int detect(cli_reader *rd, spart_err *err) {
  while (rd->format == CLI_FMT_AUTO) {
    int r = next_line(rd, err);
    if (r <= 0) {
      return r;
    }
    size_t k = strspn(rd->line, " \t");
    if (k < rd->len) {
      char ch = rd->line[k];
      rd->format = ch == '{' || ch == '[' || ch == 0x1e ? CLI_FMT_JSON : CLI_FMT_CSV;
      unread_line(rd); /* the format's reader takes this line again */
    }
  }
  return 1;
}


int cli_read(cli_reader *rd, spart_model **m, cli_state **st, spart_err *err) {
  if (rd->dead) {
    return 0;
  }
  int r = detect(rd, err);
  if (r <= 0) {
    return r;
  }
  r = rd->format == CLI_FMT_JSON ? json_record(rd, m, err) : csv_record(rd, m, err);
  if (r > 0 && (rd->st.has & 1u << CLI_F_q0) && base_quaternion(&rd->st, err)) {
    return -SPART_EDATA;
  }
  if (r > 0 && (rd->st.has & 1u << CLI_F_R0) && check_rotation(rd->st.R0, rd->st.line, err)) {
    return -SPART_EDATA;
  }
  if (r > 0 && rd->stm->coupled) {
    state_expand(rd, rd->stm);
  }
  if (r > 0 && rd->stm->nq != rd->stm->nv && spart_joint_normalize(rd->stm, rd->st.qm, 1e-6, err)) {
    err->line = rd->st.line; /* a joint's quaternion off unit norm */
    return -SPART_EDATA;
  }
  if (r > 0 && (rd->st.has & 1u << CLI_F_qmdot) && joint_rates(rd->stm, &rd->st, rd->format == CLI_FMT_CSV ? rd->has : rd->st.has, err)) {
    return -SPART_EDATA;
  }
  if (r > 0) {
    *st = &rd->st;
  }
  return r;
}


int cli_reader_ready(cli_reader *rd) {
  /* a CSV row after the header, whole in the block: reading it moves nothing in the block nor
     rd->rec, where the current row may be */
  if (rd->format != CLI_FMT_CSV || !rd->started || rd->pending || rd->dead ||
      rd->bpos >= rd->bend) {
    return 0;
  }
  /* (a quote in it may open a cell that runs on to the next lines, through rd->rec) */
  const char *p = rd->buf + rd->bpos, *nl = memchr(p, '\n', rd->bend - rd->bpos);
  if (!(nl && nl > p && *p != '\r' && !memchr(p, '"', (size_t)(nl - p)))) {
    return 0;
  }
  rd->nlfrom = p; /* the line's end for next_line, which reads it next */
  rd->nlnext = (size_t)(nl - rd->buf);
  return 1;
}


cli_state *cli_reader_hold(cli_reader *rd) {
  /* the values to the held state (its arrays stay its own), the cells swapped: the next row's
     go to the other array */
  double *qm = rd->hst.qm, *um = rd->hst.um, *umdot = rd->hst.umdot, *taum = rd->hst.taum;
  double *wF = rd->hst.wF, *qmdot = rd->hst.qmdot;
  size_t n = state_len(rd->stm);
  rd->hst = rd->st;
  rd->hst.qm = qm;
  rd->hst.um = um;
  rd->hst.umdot = umdot;
  rd->hst.taum = taum;
  rd->hst.wF = wF;
  rd->hst.qmdot = qmdot;
  memcpy(rd->hbuf, rd->stbuf, n * sizeof(double));
  size_t *c = rd->cell;
  rd->cell = rd->hcell;
  rd->hcell = c;
  rd->hline = rd->line;
  rd->hlen = rd->len;
  return &rd->hst;
}


void cli_reader_swap(cli_reader *rd) {
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


int cli_reader_npass(const cli_reader *rd) {
  return !rd ? 0 : rd->format == CLI_FMT_CSV ? rd->npass : rd->njpass;
}


const char *cli_reader_pass_name(const cli_reader *rd, int p) {
  return rd->format == CLI_FMT_CSV ? rd->colname[rd->pass[p]] : rd->jtext + rd->jpass[p].key;
}


const char *cli_reader_pass_cell(const cli_reader *rd, int p, size_t *n) {
  if (rd->format != CLI_FMT_CSV) { /* a JSON value's text for CSV; NULL: it has none */
    *n = rd->jpass[p].clen < 0 ? 0 : (size_t)rd->jpass[p].clen;
    return rd->jpass[p].clen < 0 ? NULL : rd->jtext + rd->jpass[p].csv;
  }
  *n = rd->cell[2 * rd->pass[p] + 1];
  return rd->line + rd->cell[2 * rd->pass[p]];
}


const char *cli_reader_pass_json(const cli_reader *rd, int p, size_t *n) {
  if (rd->format == CLI_FMT_CSV) {
    return NULL;
  }
  *n = rd->jpass[p].vlen;
  return rd->rec + rd->jpass[p].val;
}


char cli_reader_delim(const cli_reader *rd) {
  return rd->delim;
}


long long cli_reader_line(const cli_reader *rd) {
  return rd->st.line;
}


int cli_reader_pass_number(const cli_reader *rd, const char *name, double *v) {
  for (int p = 0; p < cli_reader_npass(rd); p++) {
    if (strcmp(cli_reader_pass_name(rd, p), name) == 0) {
      int csv = rd->format == CLI_FMT_CSV;
      size_t n;
      const char *cell = csv ? cli_reader_pass_cell(rd, p, &n) : cli_reader_pass_json(rd, p, &n);
      char txt[64], *end;
      /* in JSON a number (the scanner checked its form), not a string or another value */
      if (n >= sizeof(txt) ||
          (!csv && !(n > 0 && (*cell == '-' || (*cell >= '0' && *cell <= '9'))))) {
        return -1;
      }
      if (csv) {
        n = cli_unquote(txt, cell, n);
      } else {
        memcpy(txt, cell, n);
        txt[n] = 0;
      }
      *v = strtod(txt, &end);
      return n > 0 && end == txt + n && isfinite(*v) ? 1 : -1;
    }
  }
  return 0;
}
/* ---- records of named values (spart-cmp) ---- */

/* append n bytes and a 0 to the arena; its offset, or (size_t)-1 when out of memory */
static size_t arena_add(cli_reader *rd, const char *p, size_t n) {
  size_t at = rd->alen;
  if (cli_grow(&rd->arena, &rd->acap, rd->alen + n + 1) != 0) {
    return (size_t)-1;
  }
  memcpy(rd->arena + at, p, n);
  rd->arena[at + n] = 0;
  rd->alen += n + 1;
  return at;
}


/* add a value: its name (n bytes at name), its text and its number (NAN: not one); 0 or -1 */
static int named_add(cli_reader *rd, const char *name, size_t n, const char *text, size_t tn,
                     double v) {
  cli_named *r = &rd->nr;
  if (r->n == rd->ncap) {
    int cap = rd->ncap ? 2 * rd->ncap : 64;
    size_t *o = realloc(rd->aoff, 2 * (size_t)cap * sizeof *o);
    double *pv = o ? realloc(r->v, (size_t)cap * sizeof *pv) : NULL;
    if (pv) {
      r->v = pv;
    }
    const char **pn = pv ? realloc(r->name, (size_t)cap * sizeof *pn) : NULL;
    if (pn) {
      r->name = pn;
    }
    const char **pt = pn ? realloc(r->text, (size_t)cap * sizeof *pt) : NULL;
    if (o) {
      rd->aoff = o;
    }
    if (!pt) {
      return -1;
    }
    r->text = pt;
    rd->ncap = cap;
  }
  size_t a = arena_add(rd, name, n), b = arena_add(rd, text, tn);
  if (a == (size_t)-1 || b == (size_t)-1) {
    return -1;
  }
  rd->aoff[2 * r->n] = a;
  rd->aoff[2 * r->n + 1] = b;
  r->v[r->n++] = v;
  return 0;
}


/* the value that comes next in j, under the name in *name (n bytes, grown as the value nests:
   arrays add _I from 1, objects .KEY); 0 or -1 with err filled */
static int named_json_value(cli_reader *rd, spart_json *j, char **name, size_t *cap, size_t n,
                            long long line, spart_err *err) {
  int t = spart_json_next(j);
  if (t < 0) {
    return json_fault(j, err), -1;
  }
  if (t == SPART_JSON_ARRAY || t == SPART_JSON_OBJECT) {
    int end = t == SPART_JSON_ARRAY ? SPART_JSON_ARRAY_END : SPART_JSON_OBJECT_END;
    for (int i = 1;; i++) {
      size_t k = n;
      if (t == SPART_JSON_OBJECT) {
        int kt = spart_json_next(j);
        if (kt < 0) {
          return json_fault(j, err), -1;
        }
        if (kt == end) {
          return 0;
        }
        if (cli_grow(name, cap, n + j->strlen + 2) != 0) {
          return cli_errf(err, SPART_ENOMEM, line, "out of memory"), -1;
        }
        (*name)[k++] = '.';
        memcpy(*name + k, j->str, j->strlen);
        k += j->strlen;
      } else {
        /* peek: the end of the array, or an element */
        size_t pos = j->pos;
        while (pos < j->len && strchr(" \t\r\n", j->s[pos])) {
          pos++;
        }
        if (pos < j->len && j->s[pos] == ']') {
          return spart_json_next(j) < 0 ? (json_fault(j, err), -1) : 0;
        }
        if (cli_grow(name, cap, n + 24) != 0) {
          return cli_errf(err, SPART_ENOMEM, line, "out of memory"), -1;
        }
        k += (size_t)snprintf(*name + k, 24, "_%d", i);
      }
      if (named_json_value(rd, j, name, cap, k, line, err) != 0) {
        return -1;
      }
    }
  }
  const char *text = t == SPART_JSON_TRUE ? "true" : t == SPART_JSON_FALSE ? "false"
                   : t == SPART_JSON_NULL ? "null" : j->str;
  size_t tn = t == SPART_JSON_NUMBER || t == SPART_JSON_STRING ? j->strlen : strlen(text);
  double v = t == SPART_JSON_NUMBER ? spart_json_number(j) : NAN;
  if (named_add(rd, *name, n, text, tn, v) != 0) {
    return cli_errf(err, SPART_ENOMEM, line, "out of memory"), -1;
  }
  return 0;
}


static int named_json(cli_reader *rd, spart_err *err) {
  long long start;
  int r = json_gather(rd, &start, err);
  if (r <= 0) {
    return r;
  }
  spart_json *j = &rd->js;
  char *name = NULL;
  size_t cap = 0;
  int t;
  rd->nr.line = start;
  spart_json_reset(j, rd->rec, rd->reclen, start);
  if (spart_json_next(j) < 0) {
    return json_fault(j, err);
  }
  while ((t = spart_json_next(j)) == SPART_JSON_KEY) {
    if (cli_grow(&name, &cap, j->strlen + 1) != 0) {
      free(name);
      return cli_errf(err, SPART_ENOMEM, start, "out of memory");
    }
    size_t n = j->strlen;
    memcpy(name, j->str, n);
    if (named_json_value(rd, j, &name, &cap, n, start, err) != 0) {
      free(name);
      return -err->code;
    }
  }
  free(name);
  if (t == SPART_JSON_OBJECT_END) {
    t = spart_json_next(j);
  }
  return t == SPART_JSON_END ? 1 : json_fault(j, err);
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
    while ((r = csv_line(rd, err)) > 0 && rd->line[0] == '#') {
    }
    if (r <= 0) {
      rd->dead = r < 0;
      return r;
    }
    long long line = rd->lineno;
    rd->delim = cli_csv_delimiter(rd->line, rd->len);
    long n = csv_cells(rd, 0, err);
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
    csv_split(rd, (int)n, &open);
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
  r = csv_line(rd, err);
  if (r <= 0) {
    return r;
  }
  long long line = rd->lineno;
  rd->nr.line = line;
  long n = csv_cells(rd, rd->ncol, err);
  if (n < 0) {
    return -SPART_EDATA;
  }
  if (n != rd->ncol) {
    return cli_errf(err, SPART_EDATA, line, "expected %d fields, got %ld", rd->ncol, n);
  }
  for (int k = 0; k < n; k++) {
    size_t len = named_cell(&buf, &cap, rd->line + rd->cell[2 * k], rd->cell[2 * k + 1]);
    const char *end;
    double x = len == (size_t)-1 ? NAN : spu_strtod(buf, buf + len, &end);
    if (len == (size_t)-1 ||
        named_add(rd, rd->colname[k], strlen(rd->colname[k]), buf, len,
                  len > 0 && end == buf + len ? x : NAN) != 0) {
      free(buf);
      return cli_errf(err, SPART_ENOMEM, line, "out of memory");
    }
  }
  free(buf);
  return 1;
}


int cli_read_named(cli_reader *rd, const cli_named **rec, spart_err *err) {
  if (rd->dead) {
    return 0;
  }
  int r = detect(rd, err);
  if (r <= 0) {
    return r;
  }
  rd->nr.n = 0;
  rd->alen = 0;
  r = rd->format == CLI_FMT_JSON ? named_json(rd, err) : named_csv(rd, err);
  if (r > 0) {
    /* the arena has stopped moving: its offsets to pointers */
    for (int k = 0; k < rd->nr.n; k++) {
      rd->nr.name[k] = rd->arena + rd->aoff[2 * k];
      rd->nr.text[k] = rd->arena + rd->aoff[2 * k + 1];
    }
    *rec = &rd->nr;
  }
  return r;
}


int cli_reader_format(const cli_reader *rd) {
  return rd->format;
}


const char *cli_reader_name(const cli_reader *rd) {
  return rd->name;
}


int cli_reader_input(const cli_reader *rd) {
  return rd->input;
}


void cli_reader_next_input(cli_reader *rd, void *in, const char *name) {
  rd->nlfrom = NULL;
  /* what a CSV header made goes: the next input has its own; the model and the state stay */
  header_free(rd);
  rd->colname = NULL;
  rd->cols = NULL;
  rd->cell = rd->hcell = NULL;
  rd->pass = NULL;
  rd->ncol = rd->npass = 0;
  rd->has = 0;
  rd->in = in;
  rd->fd = fileno(in);
  rd->name = name;
  rd->format = rd->format0;
  rd->bpos = rd->bend = 0;
  rd->eof = rd->pending = rd->started = rd->dead = 0;
  rd->lineno = 0;
  rd->array = 0;
  rd->pos = rd->len = 0;
  rd->delim = 0;
  rd->input++;
  if (rd->stm) {
    state_reset(rd, rd->stm); /* a CSV reader sets the defaults once an input */
  }
}


void cli_reader_keep(cli_reader *rd, const char *outputs) {
  unsigned out = 0;
  for (const char *p = outputs; p && *p;) {
    size_t n = strcspn(p, ",");
    int k = field_find(p, n);
    out |= k >= 0 ? 1u << k : 0;
    p += n + (p[n] == ',');
  }
  /* the stand-ins go with what they stand for: q0 with R0, qmdot with um (and qm) */
  out |= out & 1u << CLI_F_R0 ? 1u << CLI_F_q0 : 0;
  out |= out & (1u << CLI_F_um | 1u << CLI_F_qm) ? 1u << CLI_F_qmdot : 0;
  rd->keep = ((1u << CLI_NFIELD) - 1) & ~out;
}


int cli_reader_feed(cli_reader *rd, const char *p, size_t n, long long lines, int fd) {
  rd->nlfrom = NULL;
  if (n + 1 > rd->bcap) {
    size_t c = n + 1 > (1 << 17) ? n + 1 : 1 << 17;
    char *b = malloc(c);
    if (!b) {
      return -1;
    }
    free(rd->buf);
    rd->buf = b;
    rd->bcap = c;
  }
  memcpy(rd->buf, p, n);
  rd->bpos = 0;
  rd->bend = n;
  rd->fd = fd;
  rd->eof = fd < 0;
  rd->pending = 0;
  rd->pos = rd->len = 0;
  rd->lineno = lines;
  return 0;
}


void cli_reader_block(cli_reader *rd, char **p, size_t *cap, size_t n, long long lines) {
  rd->nlfrom = NULL;
  char *b = rd->buf;
  size_t c = rd->bcap;
  rd->buf = *p;
  rd->bcap = *cap;
  *p = b;
  *cap = c;
  rd->bpos = 0;
  rd->bend = n;
  rd->fd = -1;
  rd->eof = 1;
  rd->pending = 0;
  rd->pos = rd->len = 0;
  rd->lineno = lines;
}


int cli_reader_share(cli_reader *rd, const cli_reader *src, const spart_model *m) {
  rd->format = src->format;
  if (src->format != CLI_FMT_CSV || !src->started) {
    return 0;
  }
  size_t n = (size_t)src->ncol;
  rd->cell = malloc(2 * n * sizeof(size_t));
  rd->hcell = malloc(2 * n * sizeof(size_t));
  rd->cols = malloc(n * sizeof(column));
  rd->colname = calloc(n, sizeof(char *));
  rd->pass = malloc(n * sizeof(int));
  if (!rd->cell || !rd->hcell || !rd->cols || !rd->colname || !rd->pass || state_init(rd, m)) {
    return -1;
  }
  rd->ncol = src->ncol;
  state_reset(rd, m);
  for (size_t j = 0; j < n; j++) {
    int count;
    rd->colname[j] = strdup(src->colname[j]);
    if (!rd->colname[j]) {
      return -1;
    }
    rd->cols[j] = src->cols[j];
    if (rd->cols[j].field >= 0) {
      rd->cols[j].dst = field_ptr(rd, m, rd->cols[j].field, &count) + rd->cols[j].index;
    }
  }
  memcpy(rd->pass, src->pass, (size_t)src->npass * sizeof(int));
  rd->npass = src->npass;
  rd->has = src->has;
  rd->delim = src->delim;
  rd->keep = src->keep;
  rd->started = 1;
  return 0;
}


int cli_reader_dead(const cli_reader *rd) {
  return rd->dead;
}
