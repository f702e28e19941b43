/* errors.c -- the one way src/cli fills a spart_err: code, line, message (the readers, the
 * writers, the names of joints, the commands' checks) */
#include <stdarg.h>
#include <stdio.h>

#include "records.h"

int cli_errf(spart_err *err, int code, long long line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
  va_end(ap);
  err->code = code;
  err->line = line;
  return -code;
}
