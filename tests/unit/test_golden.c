/* test_golden.c -- libspart against the SPART toolkit's own outputs (the files in tests/reference,
 * computed by SPART under MATLAB for SPART's example models at random states).
 *
 * usage: test_golden MODELDIR REF.json...   prints one line per check, then "N passed, N failed"
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "spart.h"

static int npass, nfail;


/* flatten a nested JSON array of numbers into v (at most cap values); returns the count */
static int flatten(const cJSON *j, double *v, int cap) {
  if (cJSON_IsNumber(j)) {
    if (cap > 0) {
      v[0] = j->valuedouble;
    }
    return 1;
  }
  int n = 0;
  const cJSON *e;
  cJSON_ArrayForEach(e, j) {
    n += flatten(e, v + n, cap - n > 0 ? cap - n : 0);
  }
  return n;
}


/* compare got (n values) with the expected JSON field, 1e-9 relative to the field's scale */
static void check(const char *file, const char *field, const cJSON *exp, const double *got, int n) {
  double *want = calloc((size_t)n + 1, sizeof(double)), scale = 0, worst = 0;
  int ne = exp ? flatten(exp, want, n) : -1;
  for (int k = 0; k < n && ne == n; k++) {
    scale = fmax(scale, fabs(want[k]));
  }
  for (int k = 0; k < n && ne == n; k++) {
    worst = fmax(worst, fabs(got[k] - want[k]) / (scale > 1e-300 ? scale : 1));
  }
  int ok = ne == n && worst <= 1e-9;
  printf("%s %s %s (%d values, worst relative error %.3g)\n", ok ? "ok" : "FAIL", file, field, ne,
         worst);
  ok ? npass++ : nfail++;
  free(want);
}


static cJSON *readjson(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)len + 1);
  size_t got = fread(buf, 1, (size_t)len, f);
  buf[got] = 0;
  fclose(f);
  cJSON *j = cJSON_Parse(buf);
  free(buf);
  return j;
}


static void golden(const char *modeldir, const char *path) {
  cJSON *ref = readjson(path);
  const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  char mpath[4096];
  spart_err err = {0};
  snprintf(mpath, sizeof(mpath), "%s/%s", modeldir,
           cJSON_GetObjectItemCaseSensitive(ref, "model")->valuestring);
  spart_model *m = spart_model_load(mpath, &err);
  if (!m) {
    printf("FAIL %s: %s\n", mpath, err.msg);
    nfail++;
    cJSON_Delete(ref);
    return;
  }
  spart_data *d = spart_data_new(m);
  int n = m->nb - 1, nq = m->nq, nv = 6 + nq;
  const cJSON *st = cJSON_GetObjectItemCaseSensitive(ref, "state"),
              *ex = cJSON_GetObjectItemCaseSensitive(ref, "expected");
  spart_state *x = spart_state_new(m);
  double *buf = malloc(sizeof(double) * ((size_t)(6 * n + 6 + nv) * nv * 4 + 64 * (size_t)m->nb));
  flatten(cJSON_GetObjectItemCaseSensitive(st, "R0"), x->R0, 9);
  flatten(cJSON_GetObjectItemCaseSensitive(st, "r0"), x->r0, 3);
  flatten(cJSON_GetObjectItemCaseSensitive(st, "qm"), x->qm, nq);
  flatten(cJSON_GetObjectItemCaseSensitive(st, "u0"), x->u0, 6);
  flatten(cJSON_GetObjectItemCaseSensitive(st, "um"), x->um, nq);
  flatten(cJSON_GetObjectItemCaseSensitive(st, "u0dot"), x->u0dot, 6);
  flatten(cJSON_GetObjectItemCaseSensitive(st, "umdot"), x->umdot, nq);
  flatten(cJSON_GetObjectItemCaseSensitive(st, "tau0"), x->tau0, 6);
  flatten(cJSON_GetObjectItemCaseSensitive(st, "taum"), x->taum, nq);
  flatten(cJSON_GetObjectItemCaseSensitive(st, "wF0"), x->wF, 6);
  flatten(cJSON_GetObjectItemCaseSensitive(st, "wFm"), x->wF + 6, 6 * n);

  /* kinematics */
  spart_fk(m, d, x);
  spart_joint_frames(m, d);
  check(name, "RJ", cJSON_GetObjectItemCaseSensitive(ex, "RJ"), d->xrotJ + 9, 9 * n);
  check(name, "RL", cJSON_GetObjectItemCaseSensitive(ex, "RL"), d->xrot + 9, 9 * n);
  spart_positions(m, d, buf, buf + 3 * n, buf + 6 * n);
  check(name, "rJ", cJSON_GetObjectItemCaseSensitive(ex, "rJ"), buf, 3 * n);
  check(name, "rL", cJSON_GetObjectItemCaseSensitive(ex, "rL"), buf + 3 * n, 3 * n);
  check(name, "e", cJSON_GetObjectItemCaseSensitive(ex, "e"), d->xaxis + 3, 3 * n);
  check(name, "g", cJSON_GetObjectItemCaseSensitive(ex, "g"), d->xg + 3, 3 * n);
  check(name, "r_com", cJSON_GetObjectItemCaseSensitive(ex, "r_com"), buf + 6 * n, 3);
  /* SPART's pm, a link's: its joint's degree of freedom, 0 for a fixed joint */
  for (int i = 1; i <= n; i++) {
    for (int k = 0; k < 6; k++) {
      buf[6 * (i - 1) + k] = m->jnt_nv[i] ? d->xS[6 * m->jnt_vadr[i] + k] : 0;
    }
  }
  check(name, "pm", cJSON_GetObjectItemCaseSensitive(ex, "pm"), buf, 6 * n);

  /* velocities, accelerations */
  spart_velocity(m, d, x);
  check(name, "t0", cJSON_GetObjectItemCaseSensitive(ex, "t0"), d->t, 6);
  check(name, "tL", cJSON_GetObjectItemCaseSensitive(ex, "tL"), d->t + 6, 6 * n);
  spart_acceleration(m, d, x);
  check(name, "t0dot", cJSON_GetObjectItemCaseSensitive(ex, "t0dot"), d->tdot, 6);
  check(name, "tLdot", cJSON_GetObjectItemCaseSensitive(ex, "tLdot"), d->tdot + 6, 6 * n);

  /* Jacobians of every link CoM, NOC */
  double *J = buf;
  for (int i = 1; i <= n; i++) {
    spart_jacobian(m, d, i, NULL, J + 36 * (i - 1), J + 36 * n + 6 * nq * (i - 1));
  }
  check(name, "J0", cJSON_GetObjectItemCaseSensitive(ex, "J0"), J, 36 * n);
  check(name, "Jm", cJSON_GetObjectItemCaseSensitive(ex, "Jm"), J + 36 * n, 6 * nq * n);
  for (int i = 1; i <= n; i++) {
    spart_jacobian_dot(m, d, i, NULL, J + 36 * (i - 1), J + 36 * n + 6 * nq * (i - 1));
  }
  check(name, "J0dot", cJSON_GetObjectItemCaseSensitive(ex, "J0dot"), J, 36 * n);
  check(name, "Jmdot", cJSON_GetObjectItemCaseSensitive(ex, "Jmdot"), J + 36 * n, 6 * nq * n);
  spart_noc(m, d, buf);
  check(name, "N", cJSON_GetObjectItemCaseSensitive(ex, "N"), buf, 6 * (n + 1) * nv);

  /* inertia matrices */
  double *H = buf, *C = buf + nv * nv;
  memset(buf, 0x7f, sizeof(double) * 2 * nv * nv); /* no output entry may be left unwritten */
  spart_crba(m, d, x, 0, H);
  check(name, "H", cJSON_GetObjectItemCaseSensitive(ex, "H"), H, nv * nv);
  spart_cim(m, d, C);
  check(name, "C", cJSON_GetObjectItemCaseSensitive(ex, "C"), C, nv * nv);

  /* dynamics */
  double *tau = buf, ud[6], *qd = buf + nv;
  spart_rnea(m, d, x, NULL, tau);
  check(name, "tau0", cJSON_GetObjectItemCaseSensitive(ex, "tau0"), tau, 6);
  check(name, "taum", cJSON_GetObjectItemCaseSensitive(ex, "taum"), tau + 6, nq);
  const cJSON *fl = cJSON_GetObjectItemCaseSensitive(ex, "floating");
  spart_floating_id(m, d, x, NULL, qd, ud);
  check(name, "floating.taum", cJSON_GetObjectItemCaseSensitive(fl, "taum"), qd, nq);
  check(name, "floating.u0dot", cJSON_GetObjectItemCaseSensitive(fl, "u0dot"), ud, 6);
  const cJSON *fd = cJSON_GetObjectItemCaseSensitive(ex, "fd");
  spart_aba(m, d, x, 0, NULL, qd);
  check(name, "fd.u0dot", cJSON_GetObjectItemCaseSensitive(fd, "u0dot"), qd, 6);
  check(name, "fd.umdot", cJSON_GetObjectItemCaseSensitive(fd, "umdot"), qd + 6, nq);

  spart_state_free(x);
  free(buf);
  spart_data_free(d);
  spart_model_free(m);
  cJSON_Delete(ref);
}


int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: test_golden MODELDIR REF.json...\n");
    return 2;
  }
  for (int k = 2; k < argc; k++) {
    golden(argv[1], argv[k]);
  }
  printf("%d passed, %d failed\n", npass, nfail);
  return nfail != 0;
}
