/* fuzz_urdf.c -- libFuzzer harness for the URDF reader (spart_urdf_parse): any bytes either give
   a model that passes spart_model_check and survives a JSON round trip, or a one-line error;
   libxml2 never prints (its global error handlers abort here) */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <libxml/parser.h>
#include <libxml/xmlerror.h>

#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);


static void printed(void *ctx, const char *fmt, ...) {
  va_list ap;
  (void)ctx;
  va_start(ap, fmt);
  fprintf(stderr, "fuzz: libxml2 printed: ");
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  abort();
}


#if LIBXML_VERSION >= 21200
static void printed_structured(void *ctx, const xmlError *e) {
#else
static void printed_structured(void *ctx, xmlErrorPtr e) {
#endif
  (void)ctx;
  fprintf(stderr, "fuzz: libxml2 raised an error outside the parse: %s\n",
          e && e->message ? e->message : "?");
  abort();
}


int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  xmlInitParser();
  xmlSetGenericErrorFunc(NULL, printed);
  xmlSetStructuredErrorFunc(NULL, printed_structured);
  return 0;
}


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  spart_err err = {0};
  spart_model *m = spart_urdf_parse((const char *)data, size, &err);
  FUZZ_CHECK(xmlStructuredError == printed_structured,
             "the structured error handler is not "
             "restored");
  if (!m) {
    fuzz_check_err(&err);
    return 0;
  }
  FUZZ_CHECK(err.code == 0, "a model and error %d (%s)", err.code, err.msg);
  FUZZ_CHECK(spart_model_check(m, &err) == 0, "a model that fails its check: %s", err.msg);
  fuzz_roundtrip(m);
  spart_model_free(m);
  return 0;
}
