/* spart_err.c -- how the library's files fill a spart_err, and the names of unnamed links and
 * joints in its messages */
#include <stdarg.h>
#include <stdio.h>

#include "spart.h"
#include "spart_internal.h"


int spart_err_set(spart_err *err, int code, int line, const char *fmt, ...) {
  if (err) {
    va_list ap;
    err->code = code;
    err->line = line;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    /* control characters (a name may hold "\n") become '?': a message is one line */
    for (unsigned char *c = (unsigned char *)err->msg; *c; c++) {
      *c = *c < 0x20 || *c == 0x7f ? '?' : *c;
    }
  }
  return -code;
}


const char *spart_name_or(char *buf, size_t n, const char *name, char kind, int i) {
  if (name) {
    return name;
  }
  snprintf(buf, n, "%c%d", kind, i);
  return buf;
}
