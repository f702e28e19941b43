/* fuzz_records.h -- the body of the state-record harnesses (fuzz_json.c, fuzz_csv.c): records
   read through the public API (cli_reader_new, cli_read) from a memory stream, with one
   fixed model, computed and written as a command would, with --keep-going; the same input read
   as named values (spart-cmp's mode of the same readers, cli_read_named); and cut by the
   format's frame (-j's blocks, cli_frame_scan) byte by byte as it comes and at once, which must
   cut it at the same places, each after a line break */
#ifndef SPART_FUZZ_RECORDS_H
#define SPART_FUZZ_RECORDS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "fuzz.h"
#include "records.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static spart_model *fuzz_m;
static spart_data *fuzz_d;
static FILE *fuzz_null;


/* the model: $SPART_FUZZ_MODEL, else models/SC_3DoF.urdf (scripts/fuzz.sh runs from the top) */
static void fuzz_records_init(void) {
  const char *path = getenv("SPART_FUZZ_MODEL");
  spart_err err = {0};
  fuzz_m = spart_model_load(path ? path : "models/SC_3DoF.urdf", &err);
  FUZZ_CHECK(fuzz_m != NULL, "cannot load the model: %s", err.msg);
  fuzz_d = spart_data_new(fuzz_m);
  fuzz_null = fopen("/dev/null", "w");
  FUZZ_CHECK(fuzz_d && fuzz_null, "out of memory or no /dev/null");
}


/* every value of a record that was read is finite */
static void fuzz_check_state(const cli_state *st, const spart_model *m) {
  const double *fixed[5] = {st->x.R0, st->x.r0, st->x.u0, st->x.u0dot, st->x.tau0};
  const int nfixed[5] = {9, 3, 6, 6, 6};
  FUZZ_CHECK(st->line >= 1, "record line %lld", st->line);
  for (int f = 0; f < 5; f++) {
    for (int k = 0; k < nfixed[f]; k++) {
      FUZZ_CHECK(isfinite(fixed[f][k]), "field %d[%d] is not finite", f, k);
    }
  }
  for (int k = 0; k < m->nq; k++) {
    FUZZ_CHECK(isfinite(st->x.qm[k]) && isfinite(st->x.um[k]) && isfinite(st->x.umdot[k]) &&
                   isfinite(st->x.taum[k]),
               "joint value %d is not finite", k);
  }
  for (int k = 0; st->x.wF && k < 6 * m->nb; k++) { /* NULL: the record gives none */
    FUZZ_CHECK(isfinite(st->x.wF[k]), "wF[%d] is not finite", k);
  }
}


/* own: the model comes with the first record ("robot"), as without -m; else fuzz_m */
/* put and write a record as spart-kin does (pos: rJ, rL, r_com) */
static void fuzz_kin(cli_writer *wr, const cli_record *rec, const spart_model *m, spart_data *d,
                     double *pos) {
  const cli_state *st = &rec->st;
  int n = m->nb - 1;
  spart_err err = {0};
  spart_fk(m, d, &st->x);
  spart_velocity(m, d, &st->x);
  spart_positions(m, d, pos, pos + 3 * n, pos + 6 * n);
  cli_put(wr, "qm", st->x.qm, m->nq, -1, -1);
  cli_put(wr, "rL", pos + 3 * n, n, 3, -1);
  cli_put(wr, "r_com", pos + 6 * n, 3, -1, -1);
  if (cli_emit(wr, rec, &err) != 0) {
    fuzz_check_err(&err);
  }
}


/* two records' inverse dynamics together are each one's alone, bit for bit (NaN for NaN) */
static void fuzz_pair(const spart_model *m, spart_data *d, const cli_state *a,
                      const cli_state *b) {
  size_t nv = 6 + (size_t)m->nq;
  double *t = malloc(4 * nv * sizeof(double)), *out[2] = {t, t + nv};
  FUZZ_CHECK(t != NULL, "out of memory");
  const spart_state *two[2] = {&a->x, &b->x};
  spart_rnea_pair(m, d, 2, two, NULL, out);
  spart_rnea(m, d, &a->x, NULL, t + 2 * nv);
  spart_rnea(m, d, &b->x, NULL, t + 3 * nv);
  for (size_t k = 0; k < 2 * nv; k++) {
    double x = t[k], y = t[2 * nv + k];
    FUZZ_CHECK(x == y || (isnan(x) && isnan(y)), "a pair's force %zu: %g alone, %g paired", k, y,
               x);
  }
  free(t);
}


/* the cuts of the format's frame: the input whole (step = size) or coming step bytes at a time,
   one record a call; their number, the first most of them in cut */
static size_t fuzz_cuts(const char *p, size_t size, int fmt, size_t step, size_t *cut,
                        size_t most) {
  cli_frame f = {0};
  size_t n = 0, len = step < size ? step : size;
  f.most = 1;
  for (;;) {
    size_t before = f.cut;
    cli_frame_scan(&f, fmt, p, len, len == size);
    if (f.units > 0) {
      FUZZ_CHECK(f.cut > before && f.cut <= len && p[f.cut - 1] == '\n',
                 "a cut at %zu, after %zu, of %zu bytes", f.cut, before, len);
      if (n < most) {
        cut[n] = f.cut;
      }
      n++;
      f.units = 0;
      continue;
    }
    if (f.bad || len == size) {
      return n;
    }
    len = len + step < size ? len + step : size;
  }
}


/* the frame of the input's format (cli_detect's): the same cuts whole and as it comes */
static void fuzz_frame(const uint8_t *data, size_t size, int format) {
  const char *p = (const char *)data;
  size_t at = cli_bom(p, size), a[64], b[64];
  int fmt = format == CLI_FMT_AUTO ? cli_detect(p, size, 1, &at) : format;
  if (fmt == CLI_FMT_AUTO) {
    return; /* blanks only */
  }
  size_t na = fuzz_cuts(p, size, fmt, size, a, 64), nb = fuzz_cuts(p, size, fmt, 7, b, 64);
  FUZZ_CHECK(na == nb, "%zu cuts at once, %zu as the input comes", na, nb);
  for (size_t k = 0; k < na && k < 64; k++) {
    FUZZ_CHECK(a[k] == b[k], "cut %zu at %zu at once, at %zu as the input comes", k, a[k], b[k]);
  }
}


/* the input as records of named values (spart-cmp), to its end or its first error */
static void fuzz_named(const uint8_t *data, size_t size, int format) {
  FILE *in = size ? fmemopen((void *)data, size, "r") : fopen("/dev/null", "r");
  FUZZ_CHECK(in != NULL, "fmemopen failed");
  cli_reader *rd = cli_reader_new(in, "<fuzz>", format, 0, 0);
  FUZZ_CHECK(rd != NULL, "out of memory");
  for (size_t calls = 1;; calls++) {
    const cli_named *rec = NULL;
    spart_err err = {0};
    int r = cli_read_named(rd, &rec, &err);
    FUZZ_CHECK(calls <= size + 2, "%zu calls to cli_read_named on %zu bytes", calls, size);
    if (r == 0) {
      break;
    }
    if (r < 0) {
      fuzz_check_err(&err); /* spart-cmp stops at it */
      break;
    }
    for (int k = 0; k < rec->n; k++) {
      FUZZ_CHECK(rec->name[k] && rec->text[k], "value %d without a name or a text", k);
    }
  }
  cli_reader_free(rd);
  fclose(in);
}


static int fuzz_records(const uint8_t *data, size_t size, int format, int seq, int own) {
  if (!own) {
    fuzz_frame(data, size, format);
    fuzz_named(data, size, format);
  }
  FILE *in = size ? fmemopen((void *)data, size, "r") : fopen("/dev/null", "r");
  spart_model *model = own ? NULL : fuzz_m;
  spart_data *d = own ? NULL : fuzz_d;
  double *pos = NULL; /* rJ, rL, r_com of spart_positions */
  cli_reader *rd;
  cli_writer *wr;
  size_t calls = 0;

  FUZZ_CHECK(in != NULL, "fmemopen failed");
  rd = cli_reader_new(in, "<fuzz>", format, seq, 0);
  wr = cli_writer_new(fuzz_null, format == CLI_FMT_JSON ? CLI_FMT_JSON : CLI_FMT_CSV, seq,
                        0);
  FUZZ_CHECK(rd && wr, "out of memory");

  /* read until the end as --keep-going does: a bad record is skipped; m is kept from call to
     call, as the commands keep it (after a first record whose model was read but whose state
     was bad, the reader has handed the model out already) */
  spart_model *m = model;
  for (;;) {
    cli_record *rec = NULL;
    spart_err err = {0};
    int r = cli_read(rd, &m, &rec, &err);
    /* every call consumes input: at most one record per byte, and the end */
    FUZZ_CHECK(++calls <= size + 2, "%zu calls to cli_read on %zu bytes", calls, size);
    if (r == 0) {
      break;
    }
    if (r < 0) {
      fuzz_check_err(&err);
      if (r == -SPART_EDATA) {
        continue;
      }
      break;
    }
    FUZZ_CHECK(r == 1 && rec != NULL && m != NULL, "cli_read returned %d", r);
    const cli_state *st = &rec->st;
    FUZZ_CHECK(model ? m == model : m == cli_reader_model(rd), "the model changed");
    if (!model) {
      /* the model of the first record: a model that was read passes its check */
      spart_err merr = {0};
      model = m;
      FUZZ_CHECK(spart_model_check(m, &merr) == 0, "a model that fails its check: %s", merr.msg);
      d = spart_data_new(m);
      FUZZ_CHECK(d != NULL, "out of memory");
    }
    fuzz_check_state(st, m);

    /* compute and write as spart-kin does; with the next row at hand, as cli_next_pair does:
       the two records cli_read2 gives, both written in order */
    if (!pos) {
      pos = malloc((6 * (size_t)m->nb + 3) * sizeof(double)); /* m stays the same from here */
      FUZZ_CHECK(pos != NULL, "out of memory");
    }
    cli_record *two[2];
    int n = cli_read2(rd, &m, two);
    FUZZ_CHECK(n == 1 || (n == 2 && m == model), "cli_read2 returned %d", n);
    if (n == 2) {
      fuzz_check_state(&two[1]->st, m);
      fuzz_pair(m, d, &two[0]->st, &two[1]->st);
    }
    fuzz_kin(wr, two[0], m, d, pos);
    if (n == 2) {
      fuzz_kin(wr, two[1], m, d, pos); /* (a fault of it: the next cli_read's) */
    }
  }
  if (own) {
    spart_data_free(d);
  }
  free(pos);
  cli_writer_free(wr);
  cli_reader_free(rd);
  fclose(in);
  clearerr(fuzz_null);
  return 0;
}

#endif
