/* names.c -- states by joint name: which joint owns which value of a record's qm, um, umdot,
 * taum (and qmdot), for the reader ({"qm": {"JOINT": x}}, columns qm.JOINT and qm.JOINT.K) and
 * the writer (--by-name); a name the model does not have, and the nearest one it has. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "records.h"
#include "spart_text.h"


/* whether body i's joint is a follower of another (--mimic): it has no value of its own */
static int follower(const spart_model *m, int i) {
  return m->coupled && m->jnt_mimic && m->jnt_mimic[i];
}


int cli_joint_find(const spart_model *m, const char *name, size_t n) {
  for (int i = 1; i < m->nb; i++) {
    const char *j = m->jnt_name[i];
    if (j && strlen(j) == n && memcmp(j, name, n) == 0) {
      return i;
    }
  }
  return -1;
}


int cli_joint_span(const spart_model *m, int i, int vel, int system, int *at) {
  int n = vel ? m->jnt_nv[i] : m->jnt_nq[i];
  if (n == 0 || (system && follower(m, i))) {
    return 0;
  }
  *at =
      system ? (vel ? m->jnt_vadrc[i] : m->jnt_qadrc[i]) : (vel ? m->jnt_vadr[i] : m->jnt_qadr[i]);
  return n;
}


int cli_joint_of(const spart_model *m, int vel, int system, int e, int *coord) {
  *coord = 0;
  for (int i = 1; i < m->nb; i++) {
    int at, n = cli_joint_span(m, i, vel, system, &at);
    if (n > 0 && e >= at && e < at + n) {
      *coord = e - at;
      return i;
    }
  }
  return -1;
}


/* the edit distance (Levenshtein) of a (na bytes) and b, up to 255 bytes of each */
static int distance(const char *a, size_t na, const char *b) {
  size_t nb = strlen(b);
  int row[256];
  na = na > 255 ? 255 : na;
  nb = nb > 255 ? 255 : nb;
  for (size_t j = 0; j <= nb; j++) {
    row[j] = (int)j;
  }
  for (size_t i = 1; i <= na; i++) {
    int diag = row[0];
    row[0] = (int)i;
    for (size_t j = 1; j <= nb; j++) {
      int up = row[j], best = diag + (a[i - 1] != b[j - 1]);
      best = up + 1 < best ? up + 1 : best;
      best = row[j - 1] + 1 < best ? row[j - 1] + 1 : best;
      diag = up;
      row[j] = best;
    }
  }
  return row[nb];
}


int cli_joint_refuse(const spart_model *m, const char *field, const char *name, size_t n,
                     long long line, spart_err *err) {
  char txt[200];
  int i = cli_joint_find(m, name, n);
  spart_printable(txt, name, n);
  if (i > 0 && follower(m, i)) {
    return cli_errf(err, SPART_EDATA, line,
                    "%s: joint '%s' follows '%s' (--mimic): give the joint it follows", field,
                    txt, m->jnt_mimic[i]);
  }
  if (i > 0) {
    return cli_errf(err, SPART_EDATA, line, "%s: joint '%s' is fixed: it has no coordinate",
                    field, txt);
  }
  int best = -1, d = 0;
  for (int k = 1; k < m->nb; k++) {
    int at;
    if (m->jnt_name[k] && cli_joint_span(m, k, 0, 1, &at) > 0) {
      int dk = distance(name, n, m->jnt_name[k]);
      if (best < 0 || dk < d) {
        best = k;
        d = dk;
      }
    }
  }
  if (best < 0) {
    return cli_errf(err, SPART_EDATA, line,
                    "%s: the model has no joint '%s' (it has no moving joint)", field, txt);
  }
  return cli_errf(err, SPART_EDATA, line, "%s: the model has no joint '%s'; the nearest is '%s'",
                  field, txt, m->jnt_name[best]);
}
