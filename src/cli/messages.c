/* messages.c -- what a command says: its errors on stderr (or kept, for a -j worker's block),
 * a usage error with the hint to --help, --version's line, and stdout closed with the exit
 * status that its last write gives */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "records.h"


/* where this thread's messages go: stderr, or a -j worker's block's messages (cli_error_to) */
static _Thread_local cli_msgs *err_to;


void cli_error_to(cli_msgs *m) {
  err_to = m;
}


size_t cli_error_at(void) {
  return err_to ? err_to->len : 0;
}


/* fmt's text appended to m; -1 when out of memory (nothing appended) */
static int msgs_add(cli_msgs *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int msgs_vadd(cli_msgs *m, const char *fmt, va_list ap) {
  va_list aq;
  va_copy(aq, ap);
  int n = vsnprintf(NULL, 0, fmt, aq);
  va_end(aq);
  if (n < 0 || cli_grow(&m->p, &m->cap, m->len + (size_t)n + 1) != 0) {
    return -1;
  }
  vsnprintf(m->p + m->len, (size_t)n + 1, fmt, ap);
  m->len += (size_t)n;
  return 0;
}
static int msgs_add(cli_msgs *m, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = msgs_vadd(m, fmt, ap);
  va_end(ap);
  return r;
}


void cli_error(const char *prog, const char *where, long long line, const char *fmt, ...) {
  va_list ap;
  cli_msgs *m = err_to;
  if (m) { /* kept whole, or (out of memory) written at once: never lost */
    size_t len = m->len;
    va_start(ap, fmt);
    int r = (where && line > 0   ? msgs_add(m, "%s: %s:%lld: ", prog, where, line)
             : where             ? msgs_add(m, "%s: %s: ", prog, where)
                                 : msgs_add(m, "%s: ", prog)) ||
            msgs_vadd(m, fmt, ap) || msgs_add(m, "\n");
    va_end(ap);
    if (r == 0) {
      return;
    }
    m->len = len;
  }
  FILE *e = stderr;
  fprintf(e, "%s: ", prog);
  if (where && line > 0) {
    fprintf(e, "%s:%lld: ", where, line);
  } else if (where) {
    fprintf(e, "%s: ", where);
  }
  va_start(ap, fmt);
  vfprintf(e, fmt, ap);
  va_end(ap);
  fputc('\n', e);
}


int cli_usage(const char *prog, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "%s: ", prog);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\nTry '%s --help'.\n", prog);
  return CLI_EXIT_USAGE;
}


int cli_finish(const char *prog, int status) {
  int bad = fflush(stdout) != 0 || ferror(stdout);
  int err = errno;
  if (fclose(stdout) != 0 && !bad) {
    bad = 1;
    err = errno;
  }
  if (!bad) {
    return status;
  }
  if (err != EPIPE && status != CLI_EXIT_IO) { /* an I/O error is reported once */
    fprintf(stderr, "%s: write error: %s\n", prog, strerror(err));
  }
  return CLI_EXIT_IO;
}


int cli_version(const char *prog) {
  printf("%s %s\n", prog, SPART_VERSION);
  return cli_finish(prog, CLI_EXIT_OK);
}
