/* read.c -- the input formats' table, the detection of an input's format (one rule), a record
 * read whatever its format and checked (state_check.c), two records at once, the record's
 * pass-through values, records of named values (spart-cmp). */
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
    size_t at = 0;
    rd->format = cli_detect(rd->line, rd->len, 1, &at);
    if (rd->format != CLI_FMT_AUTO) {
      rd_unread_line(rd); /* the format's reader takes this line again */
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
  r = input_of(rd->format)->record(rd, m, err);
  if (r > 0 && (rd->st.has & 1u << CLI_F_q0) && cli_check_q0(&rd->st, err)) {
    return -SPART_EDATA;
  }
  if (r > 0 && (rd->st.has & 1u << CLI_F_R0) && cli_check_rotation(rd->st.R0, rd->st.line, err)) {
    return -SPART_EDATA;
  }
  if (r > 0 && rd->stm->coupled) {
    rd_state_expand(rd, rd->stm);
  }
  if (r > 0 && rd->stm->nq != rd->stm->nv && spart_joint_normalize(rd->stm, rd->st.qm, 1e-6, err)) {
    err->line = rd->st.line; /* a joint's quaternion off unit norm */
    return -SPART_EDATA;
  }
  if (r > 0 && (rd->st.has & 1u << CLI_F_qmdot) &&
      cli_check_qmdot(rd->stm, &rd->st, rd->format == CLI_FMT_CSV ? rd->has : rd->st.has, err)) {
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
  size_t n = rd_state_len(rd->stm);
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
