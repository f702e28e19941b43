/* inputs.c -- spart-sim's --inputs file: forces over time (a time t and any of tau0, taum, wF0,
 * wFm, JSON or CSV), each record held from its time to the next's (zero-order hold) */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "records.h"
#include "sim.h"
#include "spart_text.h"

struct cli_inputs {
  const char *name;      /* the file's, in messages */
  FILE *f;
  cli_reader *rd;
  int has;               /* a next record, not yet held */
  double t;              /* its time */
  const cli_state *row;  /* its forces (the reader's) */
};


int cli_only_time(cli_session *s, cli_reader *rd, const cli_record *rec, const char *name,
                  const char *what, const char *gives) {
  for (int p = 0; p < cli_record_npass(rec); p++) {
    const char *key = cli_record_pass_name(rec, p);
    if (strcmp(key, "t") != 0) {
      char txt[SPART_PRINTABLE];
      int csv = cli_reader_format(rd) == CLI_FMT_CSV;
      cli_error(s->tool->name, name, rec->st.line, "%s '%s' is not %s: a record gives %s",
                csv ? "column" : "key", spart_printable(txt, key, strlen(key)), what, gives);
      s->status = CLI_EXIT_DATA;
      return -1;
    }
  }
  return 0;
}


/* read the next record into in; 0, or -1 after reporting */
static int next(cli_session *s, cli_inputs *in) {
  spart_err err = {0};
  cli_record *rec;
  double t0 = in->t;
  const char *name = in->name;
  spart_model *m = s->m;
  int r = cli_read(in->rd, &m, &rec, &err);
  const cli_state *st = r > 0 ? &rec->st : NULL;
  if (r == 0) {
    in->has = 0;
    return 0;
  }
  if (r < 0) {
    cli_error(s->tool->name, name, err.line, "%s", err.msg);
    s->status = err.code == SPART_EDATA ? CLI_EXIT_DATA : CLI_EXIT_IO;
    return -1;
  }
  r = cli_record_number(rec, "t", &in->t);
  if (r <= 0) {
    int csv = cli_reader_format(in->rd) == CLI_FMT_CSV;
    cli_error(s->tool->name, name, st->line,
              r < 0 ? "t is not a finite number" : csv ? "no time column 't'" : "no time key 't'");
    s->status = CLI_EXIT_DATA;
    return -1;
  }
  /* nothing but the forces and t: a state, a misspelt force would be dropped unread */
  if (cli_only_time(s, in->rd, rec, name, "an input", "t and any of tau0, taum, wF0, wFm") != 0) {
    return -1;
  }
  if (in->has && !(in->t > t0)) {
    char b0[32], b1[32];
    b0[spu_dtoa(b0, in->t)] = 0;
    b1[spu_dtoa(b1, t0)] = 0;
    cli_error(s->tool->name, name, st->line, "t = %s after t = %s: times must increase", b0, b1);
    s->status = CLI_EXIT_DATA;
    return -1;
  }
  in->row = st;
  in->has = 1;
  return 0;
}


void cli_inputs_close(cli_inputs *in) {
  if (in) {
    cli_reader_free(in->rd);
    if (in->f) {
      fclose(in->f);
    }
    free(in);
  }
}


int cli_inputs_read(cli_session *s, const char *name, char **text, size_t *len) {
  struct stat sb;
  *text = NULL;
  *len = 0;
  if (stat(name, &sb) != 0 || S_ISREG(sb.st_mode)) {
    return 0; /* a file each trajectory opens (and one that is not there, refused by the first) */
  }
  FILE *f = fopen(name, "r");
  if (!f) {
    cli_error(s->tool->name, NULL, 0, "cannot open %s: %s", name, strerror(errno));
    s->status = CLI_EXIT_DATA;
    return -1;
  }
  return cli_read_whole(s, f, name, text, len);
}


int cli_read_whole(cli_session *s, FILE *f, const char *name, char **text, size_t *len) {
  size_t cap = 0;
  for (;;) {
    if (*len + 1 >= cap) {
      char *t = realloc(*text, cap = cap ? 2 * cap : 1 << 16);
      if (!t) {
        cli_error(s->tool->name, NULL, 0, "out of memory");
        s->status = CLI_EXIT_IO;
        break;
      }
      *text = t;
    }
    size_t r = fread(*text + *len, 1, cap - 1 - *len, f);
    *len += r;
    if (r == 0) {
      if (ferror(f)) {
        cli_error(s->tool->name, NULL, 0, "%s: read error: %s", name, strerror(errno));
        s->status = CLI_EXIT_IO;
      }
      break;
    }
  }
  fclose(f);
  if (s->status != CLI_EXIT_OK) {
    free(*text);
    *text = NULL;
    return -1;
  }
  return 0;
}


/* the inputs opened, not yet read; NULL after reporting */
static cli_inputs *open_raw(cli_session *s, const char *name, const char *text, size_t len) {
  cli_inputs *in = calloc(1, sizeof(*in));
  if (!in) {
    cli_error(s->tool->name, NULL, 0, "out of memory");
    s->status = CLI_EXIT_IO;
    return NULL;
  }
  in->name = name;
  /* the text read, a stream of its own over it (fmemopen: writes nothing to it) */
  in->f = text ? fmemopen((void *)text, len, "r") : fopen(name, "r");
  if (!in->f && text) {
    cli_error(s->tool->name, NULL, 0, "out of memory");
    s->status = CLI_EXIT_IO;
    cli_inputs_close(in);
    return NULL;
  }
  if (!in->f) {
    cli_error(s->tool->name, NULL, 0, "cannot open %s: %s", name, strerror(errno));
    s->status = CLI_EXIT_DATA;
    cli_inputs_close(in);
    return NULL;
  }
  in->rd = cli_reader_new(in->f, name, CLI_FMT_AUTO, 0,
                          CLI_READS(tau0) | CLI_READS(taum) | CLI_READS_WRENCH |
                              CLI_READS_NONE_OK);
  if (!in->rd) {
    cli_error(s->tool->name, NULL, 0, "out of memory");
    s->status = CLI_EXIT_IO;
    cli_inputs_close(in);
    return NULL;
  }
  return in;
}


cli_inputs *cli_inputs_open(cli_session *s, const char *name, const char *text, size_t len) {
  /* every record read once before the run: a bad one (a time out of order past the duration
     too) is refused before a state is written */
  cli_inputs *in = open_raw(s, name, text, len);
  long n = 0;
  do {
    if (!in || next(s, in) != 0) {
      cli_inputs_close(in);
      return NULL;
    }
    n += in->has;
  } while (in->has);
  cli_inputs_close(in);
  if (n == 0) {
    cli_error(s->tool->name, name, 0, "no records: expected a time t and any of tau0, "
              "taum, wF0, wFm");
    s->status = CLI_EXIT_DATA;
    return NULL;
  }
  in = open_raw(s, name, text, len);
  if (in && next(s, in) != 0) {
    cli_inputs_close(in);
    return NULL;
  }
  return in;
}


int cli_inputs_hold(cli_session *s, cli_inputs *in, double t, double slack, spart_state *x) {
  const spart_model *m = s->m;
  int held = 0;
  while (in && in->has && in->t <= t + slack) {
    const spart_state *row = &in->row->x;
    memcpy(x->tau0, row->tau0, 6 * sizeof(double));
    memcpy(x->taum, row->taum, (size_t)m->nv * sizeof(double));
    if (row->wF) {
      memcpy(x->wF, row->wF, 6 * (size_t)m->nb * sizeof(double));
    } else { /* a record without wrenches */
      memset(x->wF, 0, 6 * (size_t)m->nb * sizeof(double));
    }
    held = 1;
    if (next(s, in) != 0) {
      return -1;
    }
  }
  return held;
}


double cli_inputs_next(const cli_inputs *in) {
  return in && in->has ? in->t : INFINITY;
}
