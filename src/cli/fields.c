/* fields.c -- the record being written, as write.c and its formats (write_json.c,
 * write_csv.c) share it: its bytes (cli_add), its fields' shapes (cli_dims, cli_by_name) and
 * values (cli_check_finite), the names of its pass-through values in the output
 * (cli_pass_names).  Calls no format but through the writer's (its name). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "records.h"


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
