/* fuzz.h -- what every libFuzzer harness of spart checks: a reader either succeeds or fails
   with a filled, one-line error; anything else is a bug, reported by abort() */
#ifndef SPART_FUZZ_H
#define SPART_FUZZ_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* the largest model a harness writes back as JSON (its connectivity maps are n x n) */
#define FUZZ_MAX_ROUNDTRIP 300

#define FUZZ_CHECK(cond, ...)                                                        \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      fprintf(stderr, "fuzz: %s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                                  \
      fputc('\n', stderr);                                                           \
      abort();                                                                       \
    }                                                                                \
  } while (0)


/* a failed call left a code and a non-empty message on one line, without control characters
   (a '\r' would overwrite the line on a terminal) */
static inline void fuzz_check_err(const spart_err *err) {
  FUZZ_CHECK(err->code == SPART_EDATA || err->code == SPART_ENOMEM || err->code == SPART_EIO,
             "code %d (%s)", err->code, err->msg);
  FUZZ_CHECK(err->msg[0] != '\0', "empty message");
  FUZZ_CHECK(err->line >= 0, "line %lld", err->line);
  for (const unsigned char *p = (const unsigned char *)err->msg; *p; p++) {
    FUZZ_CHECK(*p >= 0x20 && *p != 0x7f, "a control character in the message: %s", err->msg);
  }
}


/* a model's JSON reads back to a model whose JSON is the same text */
static inline void fuzz_roundtrip(const spart_model *m) {
  spart_err err = {0};
  char *text, *again, *summary;
  spart_model *m2;
  if (m->nb > FUZZ_MAX_ROUNDTRIP) {
    return;
  }
  text = spart_model_json(m);
  FUZZ_CHECK(text != NULL, "spart_model_json failed");
  summary = cli_model_summary(m);
  FUZZ_CHECK(summary != NULL, "cli_model_summary failed");
  free(summary);
  m2 = spart_model_parse(text, &err);
  FUZZ_CHECK(m2 != NULL, "the model JSON does not read back: %s\n%s", err.msg, text);
  again = spart_model_json(m2);
  FUZZ_CHECK(again && strcmp(text, again) == 0, "the model JSON changes on a second reading");
  FUZZ_CHECK(m2->nb == m->nb && m2->nq == m->nq, "sizes change on a second reading");
  free(again);
  free(text);
  spart_model_free(m2);
}

#endif
