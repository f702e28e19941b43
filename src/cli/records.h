/* records.h -- inside src/cli: what the record readers (read*.c, reader.h), the writer (write.c)
 * and its formats (write_json.c, write_csv.c), and -j (jobs.c) share.  A new output form is one
 * file with one cli_format, named in write.c's table; a new input form one file with one
 * cli_input (reader.h), named in read.c's table. */
#ifndef SPART_RECORDS_H
#define SPART_RECORDS_H

#include <stdint.h>
#include <stdio.h>

#include "cli.h"

#define SPART_MAX_FIELDS 32 /* output fields in one record */
#define CLI_WRITE_AT (1 << 16) /* bytes of whole records written at once (unless eager) */

/* an output field: name, values, dims (-1 for none) */
typedef struct {
  const char *name;
  const double *v;
  int d0, d1, d2;
  int n; /* values */
  const char *text; /* JSON text written as it is instead of v (cli_put_text), or NULL */
} outfield;

/* an output format: one record of the fields the writer holds (wr->f, wr->nf), with the
   pass-through values of record r (or NULL) in front, appended to wr->buf (from wr->len); line
   is the record's input line, for messages.  Returns 0, or a negative SPART_E* with err filled
   (wr->nf = 0 then; what was appended is dropped by the caller). */
typedef struct cli_format {
  int id; /* CLI_FMT_* */
  int (*record)(cli_writer *wr, const cli_record *r, long long line, spart_err *err);
  /* the name that value e of output field k takes in this form into *col (of *cap bytes,
     grown: a joint's name is kept whole): 1, or 0 when the value has no name of its own (a
     JSON key names the whole field: e = 0 only; a CSV column names each value), or -1 when out
     of memory.  Pass-through names are checked against these (write.c), one rule for both
     forms. */
  int (*name)(const cli_writer *wr, int k, int e, char **col, size_t *cap);
} cli_format;

extern const cli_format cli_write_json, cli_write_csv;

#define CLI_MEMO 256      /* numbers remembered by a CSV writer (a power of two) */
#define CLI_MEMO_PROBE 64 /* records a CSV writer counts its memo's use over */
struct cli_writer {
  FILE *out;
  const cli_format *fmt;
  const char *only; /* the fields to write, comma-separated, or NULL for all */
  const char *outputs; /* spart-sim's outputs, comma-separated (its cli_tool's), or NULL: no
                          pass-through value takes one of their names, written or not (a
                          value of another run never passes for this one's) */
  int seq, unbuffered;
  int eager; /* write every record at once: --unbuffered, or out is a terminal */
  int hold;  /* write nothing: a -j worker's, whose records the main thread writes */
  int nrec;
  size_t pend; /* buf[0, pend): whole records not written yet */
  outfield f[SPART_MAX_FIELDS];
  int nf;
  outfield head[SPART_MAX_FIELDS]; /* the fields of the CSV header */
  char **passname; /* the output names of the records' pass-through values */
  char **passorig; /* their names in the input */
  int npassname;
  int passinput;   /* the input they were made for (cli_record.input), -1 for none */
  int nhead;
  char *buf; /* the record being written */
  size_t len, cap;
  /* the text of numbers written lately (write_csv.c), by a hash of their bits: a record repeats
     many (spart-kin's e is a column of RJ, RL is often RJ, zeros); text[31] is the length.  Used
     while enough numbers are found there (memo_hits of memo_vals, over memo_rows records); a
     record in CLI_MEMO_PROBE looks again when it is not */
  struct cli_memo {
    uint64_t bits;
    char text[32];
  } memo[CLI_MEMO];
  int memo_on, memo_rows;
  const spart_model *names; /* --by-name: the model whose joint names key qm, um... or NULL */
  long memo_hits, memo_vals;
};

/* shared by the writer and its formats (fields.c): append n bytes (a string) to the record; -1
   when out of memory */
int cli_add(cli_writer *wr, const char *s, size_t n);
int cli_addstr(cli_writer *wr, const char *s);

/* the dims of output field k into dims (nd of them); its number of values */
int cli_dims(const cli_writer *wr, int k, int *dims, int *nd);

/* whether output field k is written by joint name (--by-name): 0 no, 1 a vector of joint
   coordinates (qm, qmdot), 2 of degrees of freedom (um, umdot, taum); *system: 1 when it has
   a record's length (a --mimic follower has no value), 0 the tree's */
int cli_by_name(const cli_writer *wr, int k, int *system);

/* a value of the record that is not finite: the record is dropped, -SPART_EDATA; else 0 */
int cli_check_finite(cli_writer *wr, long long line, spart_err *err);

/* the names the pass-through values of record r take in the output (wr->passname), made at
   the first record of an input (each JSON record's own); 0, or -SPART_ENOMEM with err filled */
int cli_pass_names(cli_writer *wr, const cli_record *r, spart_err *err);

/* record r's pass-through values (record.c): their number (0 for NULL), the name of value p,
   its text as a CSV cell (n bytes; NULL for a JSON array or object), a JSON input's value as it
   came (NULL for a CSV input's) */
static inline int cli_record_npass(const cli_record *r) {
  return r ? r->npass : 0;
}
static inline const char *cli_record_pass_name(const cli_record *r, int p) {
  return r->text + r->pass[p].name;
}
static inline const char *cli_record_pass_cell(const cli_record *r, int p, size_t *n) {
  *n = r->pass[p].clen < 0 ? 0 : (size_t)r->pass[p].clen;
  return r->pass[p].clen < 0 ? NULL : r->text + r->pass[p].cell;
}
static inline const char *cli_record_pass_json(const cli_record *r, int p, size_t *n) {
  *n = r->pass[p].jlen < 0 ? 0 : (size_t)r->pass[p].jlen;
  return r->pass[p].jlen < 0 ? NULL : r->text + r->pass[p].json;
}
/* room for one more pass-through value in r (r->pass[r->npass]); the n bytes at s (and a 0)
   after r's text: their offset.  0 or the offset, or -1 when out of memory */
int cli_record_room(cli_record *r);
long cli_record_text(cli_record *r, const char *s, size_t n);
/* src into dst, a value of its own: its state's values and arrays, its pass-through texts; 0,
   or -1 when out of memory */
int cli_record_copy(cli_record *dst, const cli_record *src);
void cli_record_free(cli_record *r);
/* the record's state checks (state_check.c, no I/O): R0 a rotation; q0 a unit quaternion (any:
   of any norm but 0, made unit), to R0; qmdot to um (given: the fields the record or the CSV
   header gives).  0, or -SPART_EDATA with err filled. */
int cli_check_rotation(const double R[9], long long line, spart_err *err);
int cli_check_q0(cli_state *st, int any, spart_err *err);
int cli_check_qmdot(const spart_model *m, cli_state *st, unsigned given, spart_err *err);

/* shared with the readers (read*.c) */

/* fill err (code, line, message); returns -code (errors.c) */
int cli_errf(spart_err *err, int code, long long line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* under everything (base.c): *buf of *cap bytes grown to hold need bytes; 0, or -1 when out
   of memory */
int cli_grow(char **buf, size_t *cap, size_t need);

/* a CSV cell's text without its quotes into out (n + 1 bytes); its length */
size_t cli_unquote(char *out, const char *s, size_t n);

/* The fault err of a record read ahead, which the next read returns before reading on (in its
   turn: after the record before it is written): a record cli_read2 gave that its user refuses. */
void cli_reader_later(cli_reader *rd, const spart_err *err);

/* ---- the input formats' grammar, for -j (jobs.c) as for the readers ---- */

/* the bytes a UTF-8 byte order mark takes at p (n bytes), the start of an input: 3 or 0 */
size_t cli_bom(const char *p, size_t n);

/* an input's format by the one rule (read.c): JSON if its first character that is not blank
   (spaces, tabs, line ends) is '{', '[' or RS, else CSV.  Looks at p[*at, n) (after the byte
   order mark); CLI_FMT_AUTO when it cannot tell yet, *at then where to look again once more
   input has come (eof: no more comes) */
int cli_detect(const char *p, size_t n, int eof, size_t *at);

/* where the records of an input end, found by its format's grammar (the format's frame in
   read_json.c, read_csv.c): the state carried from one buffer to the next.  A cut is after a
   line break that ends a record; what a block cannot be cut at (a JSON array or RFC 7464, text
   after a CSV cell's closing quote) sets bad: one thread reads the rest. */
typedef struct cli_frame {
  size_t scan;      /* bytes of the buffer looked at */
  size_t cut;       /* buf[0, cut): whole records */
  long long line;   /* lines before buf[0] */
  long long lines;  /* lines in buf[0, scan) */
  long long clines; /* lines in buf[0, cut) */
  long units;       /* records (cut points) in buf[0, cut) */
  long most;        /* records a block holds at most (0: any number) */
  /* CSV: 0 before the header, then the cell state and the delimiter; JSON: depth, in a
     string, after '\' */
  int header, cell, depth, instr, esc;
  char delim;
  int bad;
} cli_frame;

/* the cuts in buf[f->scan, len) of an input of format fmt (eof: the input ends there) */
void cli_frame_scan(cli_frame *f, int fmt, const char *buf, size_t len, int eof);

/* the delimiter of a CSV header line (its first line): a comma if it has one outside quotes,
   else a tab, else a semicolon, else a comma */
char cli_csv_delimiter(const char *line, size_t len);

/* -j (jobs.c): read on from the n bytes at p (copied; the lines before them: lines), then from
   file descriptor fd, or -1: the input ends with them.  0, or -1 when out of memory. */
int cli_reader_feed(cli_reader *rd, const char *p, size_t n, long long lines, int fd);
/* read on from the n bytes at *p (*cap bytes, more than n), the whole input after lines lines:
   the reader's buffer and *p are exchanged */
void cli_reader_block(cli_reader *rd, char **p, size_t *cap, size_t n, long long lines);
/* the format and the CSV header of src (a reader of the same command that has read it) into rd,
   new, for model m: rd reads the rows after it; 0, or -1 when out of memory */
int cli_reader_share(cli_reader *rd, const cli_reader *src, const spart_model *m);
/* whether the reader can read no more (its CSV header was bad) */
int cli_reader_dead(const cli_reader *rd);
/* n bytes of whole records (another writer's) held back after those wr holds, written with
   them; 0, or -1 when out of memory */
int cli_writer_pend(cli_writer *wr, const char *p, size_t n);
/* hold the records instead of writing them: cli_writer_take hands them over */
void cli_writer_hold(cli_writer *wr);
/* the records held: the writer's buffer exchanged with *buf (*cap bytes); their length */
size_t cli_writer_take(cli_writer *wr, char **buf, size_t *cap);
/* what src's first record made (the CSV header, the pass-through names) into wr, new; 0, or
   -1 when out of memory */
int cli_writer_share(cli_writer *wr, const cli_writer *src);

/* states by joint name (names.c).  cli_joint_find: the body whose joint is named name (n
   bytes), or -1.  cli_joint_span: the number of values of joint i (vel: in um, umdot, taum;
   else in qm, qmdot) and the first's index in *at; system: in a record's vectors (a follower
   of --mimic has none), else in the tree's.  cli_joint_of: the joint (body) that owns value e
   and *coord, the value's place among the joint's, or -1.  cli_joint_refuse: the message for a
   joint name field (qm...) cannot take: a follower's, a fixed joint's, or one the model does
   not have (naming the nearest by edit distance); -SPART_EDATA with err filled. */
int cli_joint_find(const spart_model *m, const char *name, size_t n);
int cli_joint_span(const spart_model *m, int i, int vel, int system, int *at);
int cli_joint_of(const spart_model *m, int vel, int system, int e, int *coord);
int cli_joint_refuse(const spart_model *m, const char *field, const char *name, size_t n,
                     long long line, spart_err *err);


#endif
