/* reader.h -- inside src/cli's readers (read*.c, record.c, state_check.c): the reader's
 * state and what its files share.  Nothing else includes it. */
#ifndef SPART_READER_H
#define SPART_READER_H

#include <sys/types.h>

#include "records.h"
#include "spart_text.h"

#define SPART_MAX_RECORD (64 << 20) /* bytes in one record */

/* state fields: name, number of rows (0: nq, -2: nv, -1: n links), columns (record.c) */
typedef struct {
  const char *name;
  int rows, cols;
} cli_field_def;
extern const cli_field_def cli_fields[CLI_NFIELD];

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
  int format0;     /* the format asked for (CLI_FMT_AUTO: each input's own) */
  int input;       /* inputs read so far, counting from 0 (cli_reader_next_input) */
  unsigned keep;   /* the state fields read that pass through too (--keep-state), 1 << CLI_F_* */
  long long array; /* the line of the '[' of the JSON array of records being read, or 0 */
  int fd;    /* the stream's file descriptor, or -1 */
  char *buf; /* input block: [bpos, bend) is read and not yet taken, a spare byte after it */
  size_t bcap, bpos, bend;
  int eof;          /* the input has ended */
  char *line;       /* the current line, in buf */
  long long lineno; /* lines read so far (64 bits: never wraps) */
  char *rec;        /* JSON record being gathered, or a CSV record of several lines */
  size_t reclen, reccap;
  size_t pos, len;  /* unread part of line */
  int started;      /* CSV header read */
  char delim;       /* CSV delimiter: ',', ';' or a tab, from the header */
  int pending;      /* the line in rd->line is still to be read */
  unsigned reads;   /* fields the command reads: others are ignored (JSON) or pass (CSV) */
  int dead;         /* the CSV header was bad: nothing more can be read */
  spart_model *own; /* model that came with the input */
  spart_json js;    /* the scanner of JSON records */
  cli_record r;  /* the record read (its pass-through values its own: for a CSV input, the
                    pass-through columns' names made once a header, the cells copied a row) */
  cli_state vin; /* where the vectors are read: st's own, or with coupled mimic joints the
                   system's (nqc, nvc), which st holds expanded to the tree's (nq, nv) */
  const spart_model *stm; /* model the state was sized for */
  unsigned char *given;   /* (nb) the joints a record names (by joint name) */
  column *cols;           /* CSV columns */
  int ncol;
  char **colname; /* CSV header names */
  size_t *cell;   /* CSV cells of the current row: start, length pairs into line */
  unsigned has;   /* the fields of the CSV columns */
  int *pass;      /* indices of pass-through columns */
  int npass;
  /* the first of two records (cli_read2): a copy of the record read, kept while the next is
     read; the fault of a record read ahead, which the next read returns
     (later.code 0: none) */
  cli_record h;
  spart_err later;
  /* the end of the next line, found by cli_read2, for next_line to take rather than look
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

/* an input format: one file (read_json.c, read_csv.c) and a row of read.c's table.  record: the
   next record into rd->r, its state and its pass-through values (1, 0 at the end, or -1 / a
   negative SPART_E* with err filled; *m the model, or NULL when the input may bring its own);
   named: the next record of named values into rd->nr (spart-cmp); frame: where records end in
   a buffer (-j's blocks) */
typedef struct cli_input {
  int id; /* CLI_FMT_* */
  int (*record)(cli_reader *rd, spart_model **m, spart_err *err);
  int (*named)(cli_reader *rd, spart_err *err);
  void (*frame)(cli_frame *f, const char *buf, size_t len, int eof);
} cli_input;

extern const cli_input cli_read_json, cli_read_csv;

/* a cut point after the line break at i: whether the block holds the most records it can */
static inline int rd_frame_cut(cli_frame *f, size_t i) {
  f->cut = i + 1;
  f->clines = f->lines;
  f->units++;
  return f->most > 0 && f->units >= f->most;
}

/* ---- what the readers' files share ---- */

/* read_lines.c: the next line (rd->line, rd->len, a 0 after it; 1, 0 at the end, -1); give it
   back; free what a CSV header made */
int rd_next_line(cli_reader *rd, spart_err *err);
/* after an empty line: the empty lines that follow it in the block, skipped and counted */
void rd_skip_blank_lines(cli_reader *rd);
void rd_unread_line(cli_reader *rd);
void rd_header_free(cli_reader *rd);

/* record.c: the state record sized for model m (rd_state_init), its defaults (rd_state_reset),
   the record's vectors into the tree's (coupled mimic joints); field k's rows and where its
   values go; a field by name; another toolkit's name for one and its message; a record without
   the qm the command needs (0, or -SPART_EDATA) */
size_t rd_state_len(const spart_model *m);
int rd_state_init(cli_reader *rd, const spart_model *m);
void rd_state_reset(cli_reader *rd, const spart_model *m);
void rd_state_expand(cli_reader *rd, const spart_model *m);
int rd_field_rows(const spart_model *m, int k);
double *rd_field_ptr(cli_reader *rd, const spart_model *m, int k, int *count);
int rd_field_find(const char *name, size_t len);
int rd_foreign_find(const char *h, size_t n);
int rd_foreign_refuse(int f, const char *what, const char *h, size_t n, long long line,
                      spart_err *err);
int rd_qm_missing(const cli_reader *rd, const spart_model *m, unsigned has, int csv, long long line,
                  spart_err *err);
/* whether field k is keyed by joint name with --by-name (qm, um...) */
int rd_by_name_field(int k);


/* read_json.c: one JSON object's text into rd->rec (1, 0 at the end, -1); the scanner's fault
   as the reader's */
int rd_json_gather(cli_reader *rd, long long *start, spart_err *err);
int rd_json_fault(const spart_json *j, spart_err *err);

/* read_csv.c: the names of the pass-through columns into the record (once a header) */
int rd_csv_pass_names(cli_reader *rd);
/* read_csv.c: the next line that is not blank; the record that starts at rd->line split into
   cells (joined over quoted line breaks) */
int rd_csv_line(cli_reader *rd, spart_err *err);
long rd_csv_split(cli_reader *rd, int want, int *open);
long rd_csv_cells(cli_reader *rd, int want, spart_err *err);

/* record.c: a named value into the record of named values (NAN: not a number); 0 or -1 */
int rd_named_add(cli_reader *rd, const char *name, size_t n, const char *text, size_t tn, double v);

#endif
