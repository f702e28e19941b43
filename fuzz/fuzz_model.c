/* fuzz_model.c -- libFuzzer harness for the model-JSON reader (spart_model_parse): any text
   either gives a model that survives a JSON round trip, or a one-line error */
#include <stddef.h>
#include <stdint.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  spart_err err = {0};
  char *text = malloc(size + 1);
  spart_model *m;
  if (!text) {
    return 0;
  }
  memcpy(text, data, size);
  text[size] = '\0'; /* the reader takes a string: stop at the first NUL as it does */
  m = spart_model_parse(text, &err);
  free(text);
  if (!m) {
    fuzz_check_err(&err);
    return 0;
  }
  FUZZ_CHECK(spart_model_check(m, &err) == 0, "a model that fails its check: %s", err.msg);
  fuzz_roundtrip(m);
  spart_model_free(m);
  return 0;
}
