/* write.c -- the record writer: the fields a command puts, held and written whole records at a
 * time, in the output format chosen (write_json.c, write_csv.c). */
#include <errno.h>
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


void cli_put_state(cli_writer *wr, const spart_model *m, const spart_state *x, unsigned fields,
                   double *scratch) {
  /* R0 .. taum: the joints' vectors the record's (with coupled mimic joints the system's, in
     scratch: qm nqc, then um, umdot, taum nvc each) */
  const double *qm = x->qm, *v[3] = {x->um, x->umdot, x->taum};
  if (m->coupled) {
    spart_mimic_qc(m, x->qm, scratch);
    qm = scratch;
    for (int k = 0; k < 3; k++) {
      double *c = scratch + m->nqc + k * m->nvc;
      if (v[k] && (fields & 1u << (CLI_F_um + 2 * k))) {
        spart_mimic_vc(m, v[k], c);
        v[k] = c;
      }
    }
  }
  static const char *const name[] = {"R0", "r0", "qm", "u0", "um", "u0dot", "umdot", "tau0",
                                     "taum"}; /* CLI_F_R0 .. CLI_F_taum */
  const double *base[3] = {x->u0, x->u0dot, x->tau0};
  for (int f = CLI_F_R0; f <= CLI_F_taum; f++) {
    if (!(fields & 1u << f)) {
      continue;
    }
    if (f == CLI_F_R0) {
      cli_put(wr, name[f], x->R0, 3, 3, -1);
    } else if (f == CLI_F_r0) {
      cli_put(wr, name[f], x->r0, 3, -1, -1);
    } else if (f == CLI_F_qm) {
      cli_put(wr, name[f], qm, m->nqc, -1, -1);
    } else if ((f - CLI_F_u0) % 2 == 0) { /* u0, u0dot, tau0 */
      cli_put(wr, name[f], base[(f - CLI_F_u0) / 2], 6, -1, -1);
    } else { /* um, umdot, taum */
      cli_put(wr, name[f], v[(f - CLI_F_um) / 2], m->nvc, -1, -1);
    }
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
