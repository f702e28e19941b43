/* read.c -- the input formats' table, the detection of an input's format (one rule), a record
 * read whatever its format and checked (state_check.c), two records at once, records of named
 * values (spart-cmp). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "reader.h"

/* the input formats: a new one is a file with its cli_input and a row here (and its name in
   options.c's -i) */
static const cli_input *const inputs[] = {&cli_read_json, &cli_read_csv};


static const cli_input *input_of(int fmt) {
  for (size_t k = 0; k < sizeof(inputs) / sizeof(inputs[0]); k++) {
    if (inputs[k]->id == fmt) {
      return inputs[k];
    }
  }
  return &cli_read_csv; /* (never: fmt is one of them) */
}


int cli_detect(const char *p, size_t n, int eof, size_t *at) {
  size_t i = *at;
  for (; i < n; i++) {
    char ch = p[i];
    if (ch == ' ' || ch == '\t' || ch == '\n') {
      continue;
    }
    if (ch == '\r') { /* a line's end (the readers drop it), or its first character */
      size_t k = i;
      while (k < n && p[k] == '\r') {
        k++;
      }
      if (k == n && !eof) {
        break; /* the next byte tells */
      }
      if (k == n || p[k] == '\n') {
        i = k - 1;
        continue;
      }
    }
    *at = i;
    return ch == '{' || ch == '[' || ch == 0x1e ? CLI_FMT_JSON : CLI_FMT_CSV;
  }
  *at = i;
  return CLI_FMT_AUTO;
}


void cli_frame_scan(cli_frame *f, int fmt, const char *buf, size_t len, int eof) {
  input_of(fmt)->frame(f, buf, len, eof);
}


/* the format, from the first line that is not blank (cli_detect); 1, or 0 at the end, or -1 */
static int detect(cli_reader *rd, spart_err *err) {
  while (rd->format == CLI_FMT_AUTO) {
    int r = rd_next_line(rd, err);
    if (r <= 0) {
      return r;
    }
    if (rd->len == 0) { /* a run of empty lines at once */
      rd_skip_blank_lines(rd);
      continue;
    }
    size_t at = 0;
    rd->format = cli_detect(rd->line, rd->len, 1, &at);
    if (rd->format != CLI_FMT_AUTO) {
      rd_unread_line(rd); /* the format's reader takes this line again */
    }
  }
  return 1;
}


int cli_read(cli_reader *rd, spart_model **m, cli_record **rec, spart_err *err) {
  if (rd->later.code != 0) { /* the fault of a record read ahead, in its turn */
    *err = rd->later;
    rd->later.code = 0;
    return -err->code;
  }
  if (rd->dead) {
    return 0;
  }
  int r = detect(rd, err);
  if (r <= 0) {
    return r;
  }
  r = input_of(rd->format)->record(rd, m, err);
  /* quaternions and [sin, cos] pairs unit within 1e-6, or of any norm but 0 (made unit) */
  int any = rd->reads != ~0u && (rd->reads & CLI_READS_ANY_NORM);
  if (r > 0 && (rd->r.st.has & 1u << CLI_F_q0) && cli_check_q0(&rd->r.st, any, err)) {
    return -SPART_EDATA;
  }
  if (r > 0 && (rd->r.st.has & 1u << CLI_F_R0) &&
      cli_check_rotation(rd->r.st.x.R0, rd->r.st.line, err)) {
    return -SPART_EDATA;
  }
  if (r > 0 && rd->stm->coupled) {
    rd_state_expand(rd, rd->stm);
  }
  if (r > 0 && rd->stm->nq != rd->stm->nv &&
      (any ? spart_joint_unit(rd->stm, rd->r.st.x.qm, err)
           : spart_joint_normalize(rd->stm, rd->r.st.x.qm, 1e-6, err))) {
    err->line = rd->r.st.line; /* a joint's quaternion off unit norm (or zero) */
    return -SPART_EDATA;
  }
  if (r > 0 && (rd->r.st.has & 1u << CLI_F_qmdot) &&
      cli_check_qmdot(rd->stm, &rd->r.st, rd->format == CLI_FMT_CSV ? rd->has : rd->r.st.has,
                      err)) {
    return -SPART_EDATA;
  }
  if (r > 0) {
    /* the wrenches the library takes: none (no work for zeros) unless the record gives them */
    rd->r.st.x.wF = (rd->r.st.has & CLI_READS_WRENCH) ? rd->vin.x.wF : NULL;
    rd->r.file = rd->name;
    rd->r.input = rd->input;
    rd->r.format = rd->format;
    rd->r.delim = rd->delim;
    *rec = &rd->r;
  }
  return r;
}


/* whether the next record is at hand: a CSV row after the header, whole in the input block, so
   that reading it waits for no input (a stream's next record may be long in coming: the current
   one is not held back for it) */
static int at_hand(cli_reader *rd) {
  if (rd->format != CLI_FMT_CSV || !rd->started || rd->pending || rd->dead ||
      rd->later.code != 0 || rd->bpos >= rd->bend) {
    return 0;
  }
  /* (a quote in it may open a cell that runs on to the next lines) */
  const char *p = rd->buf + rd->bpos, *nl = memchr(p, '\n', rd->bend - rd->bpos);
  if (!(nl && nl > p && *p != '\r' && !memchr(p, '"', (size_t)(nl - p)))) {
    return 0;
  }
  rd->nlfrom = p; /* the line's end for next_line, which reads it next */
  rd->nlnext = (size_t)(nl - rd->buf);
  return 1;
}


int cli_read2(cli_reader *rd, spart_model **m, cli_record *rec[2]) {
  rec[0] = &rd->r;
  /* the record read, copied aside (its pass-through texts too), while the next is read */
  if (!at_hand(rd) ||
      cli_record_copy(&rd->h, &rd->r) != 0) {
    return 1;
  }
  rec[0] = &rd->h;
  spart_err err; /* filled only on failure */
  err.code = 0;
  err.line = 0;
  err.msg[0] = 0;
  int r = cli_read(rd, m, &rec[1], &err);
  if (r < 0) {
    cli_reader_later(rd, &err);
  }
  return r == 1 ? 2 : 1;
}


void cli_reader_later(cli_reader *rd, const spart_err *err) {
  rd->later = *err;
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
  r = input_of(rd->format)->named(rd, err);
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
