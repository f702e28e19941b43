/* limits.c -- --check-limits: the joint limits a record passes, reported on stderr */
#include <stdio.h>

#include <string.h>

#include "records.h"
#include "spart_text.h"

#define MOST 64 /* limits reported a record */


/* a double as the shortest text that reads back to it */
static const char *num(char buf[32], double x) {
  buf[spu_dtoa(buf, x)] = 0;
  return buf;
}


void cli_check_limits(cli_session *s, const double *qm, const double *um, const double *taum) {
  static const char *const what[] = {"qm", "qm", "um", "taum"};
  static const char *const bound[] = {"< lower limit", "> upper limit", "exceeds velocity limit",
                                      "exceeds effort limit"};
  spart_limit_hit hit[MOST];
  if (!s->o.check_limits) {
    return;
  }
  int n = spart_limits_check(s->m, qm, um, taum, hit, MOST);
  for (int k = 0; k < n && k < MOST; k++) {
    const spart_limit_hit *h = &hit[k];
    const char *name = s->m->jnt_name[h->joint];
    char v[32], l[32], who[240];
    if (name) {
      char txt[200];
      snprintf(who, sizeof who, "joint '%s'", spart_printable(txt, name, strlen(name)));
    } else {
      snprintf(who, sizeof who, "joint %d", h->joint);
    }
    /* the value by its CSV column (1-based); coupled mimic joints: the system's, a follower's
       its leader's */
    int pos = h->kind <= SPART_LIMIT_UPPER, j = h->joint;
    int col = h->index - (pos ? s->m->jnt_qadr[j] : s->m->jnt_vadr[j]) +
              (pos ? s->m->jnt_qadrc[j] : s->m->jnt_vadrc[j]);
    cli_error(s->tool->name, cli_reader_name(s->rd), s->st->line, "%s: %s_%d = %s %s %s", who,
              what[h->kind], col + 1, num(v, h->value), bound[h->kind], num(l, h->limit));
  }
  if (n > MOST) {
    cli_error(s->tool->name, cli_reader_name(s->rd), s->st->line, "%d more limits passed",
              n - MOST);
  }
  s->nlimits += n > 0;
}
