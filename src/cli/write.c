/* write.c -- the record writer: the fields a command puts, held and written whole records at a
 * time, in the output format chosen (write_json.c, write_csv.c). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "records.h"



cli_writer *cli_writer_new(void *out, int format, int seq, int unbuffered) {
  cli_writer *wr = calloc(1, sizeof(*wr));
  if (wr) {
    wr->out = out;
    wr->fmt = format == CLI_FMT_CSV    ? &cli_write_csv
              : format == CLI_FMT_JSON ? &cli_write_json
                                       : NULL;
    wr->seq = seq;
    wr->unbuffered = unbuffered;
    wr->eager = unbuffered || isatty(fileno(out));
    wr->passinput = -1;
    wr->memo_on = 1;
    for (int k = 0; k < CLI_MEMO; k++) {
      wr->memo[k].text[0] = '0'; /* bits 0: 0.0 */
      wr->memo[k].text[31] = 1;
    }
  }
  return wr;
}


/* write the records held back; 0, or -1 with err filled */
static int write_out(cli_writer *wr, spart_err *err) {
  size_t n = wr->pend;
  wr->pend = 0;
  if ((n > 0 && fwrite(wr->buf, 1, n, wr->out) != n) || (wr->unbuffered && fflush(wr->out) != 0)) {
    return cli_errf(err, errno == EPIPE ? SPART_EPIPE : SPART_EIO, 0, "write error: %s",
                    strerror(errno));
  }
  return 0;
}


int cli_flush(cli_writer *wr, spart_err *err) {
  return write_out(wr, err);
}


void cli_writer_free(cli_writer *wr) {
  if (wr) {
    if (wr->pend > 0) {
      spart_err err = {0};
      write_out(wr, &err); /* a failure stays in the stream's error flag */
    }
    for (int p = 0; p < wr->npassname; p++) {
      free(wr->passname[p]);
      free(wr->passorig[p]);
    }
    free(wr->passname);
    free(wr->passorig);
    free(wr->buf);
    free(wr);
  }
}


void cli_writer_only(cli_writer *wr, const char *names) {
  wr->only = names;
}


void cli_writer_by_name(cli_writer *wr, const spart_model *m) {
  wr->names = m;
}


int cli_by_name(const cli_writer *wr, int k, int *system) {
  const outfield *f = &wr->f[k];
  const spart_model *m = wr->names;
  if (!m || f->text || f->d0 < 0 || f->d1 >= 0) {
    return 0;
  }
  int q = strcmp(f->name, "qm") == 0 || strcmp(f->name, "qmdot") == 0;
  int v = strcmp(f->name, "um") == 0 || strcmp(f->name, "umdot") == 0 ||
          strcmp(f->name, "taum") == 0;
  if (!q && !v) {
    return 0;
  }
  *system = f->n == (q ? m->nqc : m->nvc);
  return *system || f->n == (q ? m->nq : m->nv) ? (q ? 1 : 2) : 0;
}


int cli_listed(const char *list, const char *name, size_t n) {
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


void cli_put(cli_writer *wr, const char *name, const double *v, int d0, int d1, int d2) {
  if (wr->only && !cli_listed(wr->only, name, strlen(name))) {
    return;
  }
  if (wr->nf < SPART_MAX_FIELDS) {
    wr->f[wr->nf].name = name;
    wr->f[wr->nf].v = v;
    wr->f[wr->nf].d0 = d0;
    wr->f[wr->nf].d1 = d1;
    wr->f[wr->nf].d2 = d2;
    wr->f[wr->nf].text = NULL;
    wr->f[wr->nf].n = (d0 >= 0 ? d0 : 1) * (d0 >= 0 && d1 >= 0 ? d1 : 1) *
                      (d0 >= 0 && d1 >= 0 && d2 >= 0 ? d2 : 1);
    wr->nf++;
  }
}


void cli_put_text(cli_writer *wr, const char *name, const char *s) {
  if (wr->only && !cli_listed(wr->only, name, strlen(name))) {
    return;
  }
  /* JSON only (a CSV row has no cell for it: n = 0); the format may be the input's, not known
     before the first record is written (spart-contact reads JSON only) */
  if (wr->nf < SPART_MAX_FIELDS && (!wr->fmt || wr->fmt->id == CLI_FMT_JSON)) {
    wr->f[wr->nf] = (outfield){name, NULL, -1, -1, -1, 0, s};
    wr->nf++;
  }
}


void cli_discard(cli_writer *wr) {
  wr->nf = 0;
}


int cli_add(cli_writer *wr, const char *s, size_t n) {
  if (cli_grow(&wr->buf, &wr->cap, wr->len + n + 1) != 0) {
    return -1;
  }
  memcpy(wr->buf + wr->len, s, n);
  wr->len += n;
  return 0;
}


int cli_addstr(cli_writer *wr, const char *s) {
  return cli_add(wr, s, strlen(s));
}


int cli_dims(const cli_writer *wr, int k, int *dims, int *nd) {
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


int cli_check_finite(cli_writer *wr, long long line, spart_err *err) {
  for (int k = 0; k < wr->nf; k++) {
    for (int e = 0; e < wr->f[k].n; e++) {
      if (!isfinite(wr->f[k].v[e])) {
        wr->nf = 0;
        return cli_errf(err, SPART_EDATA, line, "result %s is not finite", wr->f[k].name);
      }
    }
  }
  return 0;
}


/* whether name is one of the command's outputs (written or not: a value of an earlier run's
   would pass for this one's), as a JSON key or one of its CSV columns (NAME_1, NAME_1_2) */
static int command_output(const cli_writer *wr, const char *name) {
  for (const char *o = wr->outputs; o && *o; o += strcspn(o, ",") + (o[strcspn(o, ",")] != 0)) {
    size_t len = strcspn(o, ",");
    if (strncmp(name, o, len) == 0 &&
        (name[len] == 0 || (name[len] == '_' && name[len + 1] >= '0' && name[len + 1] <= '9'))) {
      return 1;
    }
  }
  return 0;
}


/* whether name is taken: an output's (a CSV column, or a JSON key; spart-sim's, written or
   not), or another pass-through column's (the first p, renamed, and those after p as they
   came); -1 when out of memory */
static int name_taken(const cli_writer *wr, const cli_record *pr, int p, const char *name) {
  if (command_output(wr, name)) {
    return 1;
  }
  for (int k = 0; k < wr->nf; k++) {
    size_t len = strlen(wr->f[k].name), cap = 0;
    if (strncmp(name, wr->f[k].name, len) != 0) {
      continue; /* every name of an output starts with the output's */
    }
    char *col = NULL;
    int r;
    for (int e = 0; (r = wr->fmt->name(wr, k, e, &col, &cap)) > 0; e++) {
      if (strcmp(col, name) == 0) {
        break;
      }
    }
    free(col);
    if (r != 0) {
      return r;
    }
  }
  for (int q = 0; q < cli_record_npass(pr); q++) {
    if (q != p && strcmp(name, q < p ? wr->passname[q] : cli_record_pass_name(pr, q)) == 0) {
      return 1;
    }
  }
  return 0;
}


/* the names the pass-through columns take in the output: their own, or with "in_" before it
   (as often as it takes) when an output or another column has that name (measured taum_1 beside
   the computed taum_1 becomes in_taum_1) */
static int pass_names(cli_writer *wr, const cli_record *pr) {
  int npass = cli_record_npass(pr);
  for (int p = 0; p < wr->npassname; p++) {
    free(wr->passname[p]);
    free(wr->passorig[p]);
  }
  free(wr->passname);
  free(wr->passorig);
  wr->npassname = 0;
  wr->passname = calloc((size_t)npass + 1, sizeof(char *));
  wr->passorig = calloc((size_t)npass + 1, sizeof(char *));
  if (!wr->passname || !wr->passorig) {
    return -1;
  }
  wr->npassname = npass;
  for (int p = 0; p < npass; p++) {
    wr->passorig[p] = strdup(cli_record_pass_name(pr, p));
    if (!wr->passorig[p]) {
      return -1;
    }
  }
  for (int p = 0; p < npass; p++) {
    const char *name = cli_record_pass_name(pr, p);
    char *mine = NULL;
    int taken;
    while ((taken = name_taken(wr, pr, p, name)) > 0) {
      size_t len = strlen(name);
      char *in = malloc(len + 4);
      if (!in) {
        free(mine);
        return -1;
      }
      memcpy(in, "in_", 3);
      memcpy(in + 3, name, len + 1);
      free(mine);
      name = mine = in;
    }
    if (taken < 0) {
      free(mine);
      return -1;
    }
    wr->passname[p] = mine ? mine : strdup(name);
    if (!wr->passname[p]) {
      return -1;
    }
  }
  return 0;
}


/* whether the record's pass-through fields are those the names were made for, in order */
static int same_pass(const cli_writer *wr, const cli_record *pr) {
  if (cli_record_npass(pr) != wr->npassname) {
    return 0;
  }
  for (int p = 0; p < wr->npassname; p++) {
    if (strcmp(cli_record_pass_name(pr, p), wr->passorig[p]) != 0) {
      return 0;
    }
  }
  return 1;
}


int cli_pass_names(cli_writer *wr, const cli_record *pr, spart_err *err) {
  /* made at the first record of an input: every row of a CSV input gives the same; each JSON
     record its own */
  int input = pr ? pr->input : -2, json = pr && pr->format != CLI_FMT_CSV;
  if (wr->passinput == input && !json) {
    return 0;
  }
  if (wr->nhead) { /* CSV output, its header written: the record must have its columns */
    if (!same_pass(wr, pr)) {
      wr->nf = 0;
      return cli_errf(err, SPART_EDATA, pr ? pr->st.line : 0,
                      "this record's own fields differ from the CSV header's (the first "
                      "record's): give every record the same, or use -o json");
    }
    wr->passinput = input;
    return 0;
  }
  wr->passinput = input;
  if (pass_names(wr, pr) != 0) {
    wr->nf = 0;
    return cli_errf(err, SPART_ENOMEM, 0, "out of memory");
  }
  return 0;
}


int cli_emit(cli_writer *wr, const cli_record *rec, spart_err *err) {
  if (!wr->fmt) { /* the input's format */
    wr->fmt = rec && rec->format == CLI_FMT_CSV ? &cli_write_csv : &cli_write_json;
  }
  wr->len = wr->pend; /* after the records held back */
  int r = wr->fmt->record(wr, rec, rec ? rec->st.line : 0, err);
  wr->nf = 0;
  if (r != 0) {
    wr->len = wr->pend;
    return r;
  }

  /* whole records only are written (no row is ever half written by us), 64 KiB at once unless
     each must go at once */
  wr->pend = wr->len;
  wr->nrec++;
  return (wr->eager || wr->pend >= CLI_WRITE_AT) && !wr->hold ? write_out(wr, err) : 0;
}


int cli_writer_pend(cli_writer *wr, const char *p, size_t n) {
  wr->len = wr->pend;
  if (cli_add(wr, p, n) != 0) {
    return -1;
  }
  wr->pend = wr->len;
  return 0;
}


void cli_writer_hold(cli_writer *wr) {
  wr->hold = 1;
}


size_t cli_writer_take(cli_writer *wr, char **buf, size_t *cap) {
  size_t n = wr->pend, c = wr->cap;
  char *b = wr->buf;
  wr->buf = *buf;
  wr->cap = *cap;
  *buf = b;
  *cap = c;
  wr->pend = wr->len = 0;
  return n;
}


int cli_writer_share(cli_writer *wr, const cli_writer *src) {
  wr->fmt = src->fmt;
  memcpy(wr->head, src->head, sizeof(wr->head));
  wr->nhead = src->nhead;
  wr->passinput = src->passinput;
  wr->nrec = src->nrec;
  if (src->npassname > 0) {
    wr->passname = calloc((size_t)src->npassname, sizeof(char *));
    wr->passorig = calloc((size_t)src->npassname, sizeof(char *));
    if (!wr->passname || !wr->passorig) {
      return -1;
    }
    wr->npassname = src->npassname;
    for (int p = 0; p < src->npassname; p++) {
      wr->passname[p] = strdup(src->passname[p]);
      wr->passorig[p] = strdup(src->passorig[p]);
      if (!wr->passname[p] || !wr->passorig[p]) {
        return -1;
      }
    }
  }
  return 0;
}
