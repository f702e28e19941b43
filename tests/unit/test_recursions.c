/* test_recursions.c -- the fast paths the commands run against the reference recursions that
 * state RNEA, CRBA and ABA as RBDA does (spart_rnea_ref, spart_crba_ref, spart_aba_ref):
 *  - spart_rnea (the two-lane path with one record) and spart_rnea_pair with two different
 *    records, each lane, against spart_rnea_ref: flying base, and a base held still (u0 = u0dot
 *    = 0), with gravity, external wrenches, the armature, every rate given or some not
 *  - spart_floating_id against the floating base's inverse dynamics made of the references:
 *    u0dot = -H00 \ tau0(u0dot = 0) with H00 from spart_crba_ref, taum = spart_rnea_ref at it
 *  - spart_crba against spart_crba_ref, floating and fixed base
 *  - spart_aba against spart_aba_ref, floating and fixed base
 * on every model given (URDF, JSON, DH) and on random trees of every joint kind (fixed joints
 * among them, branching, random frames, axes, inertias and armature), at random states (the
 * joints' by spart_random_state, seeded).
 *
 * Tolerance: the largest difference at most 1e-12 times the largest magnitude of the reference's
 * result.  The two sides do the same arithmetic in another order and grouping (6x6 products
 * against compact and paired forms), so they differ by rounding: a few ulps per operation, grown
 * by the depth of the tree and, for ABA and the floating base's solve, by the conditioning of
 * the inertias: below 1e-13 of the scale here (5e-14 the worst seen, on 200 random trees and
 * every model).  A wrong term (a sign, an axis, a frame, a missing armature or wrench) moves the
 * result by its own size, far above (each such change tried fails the test).
 *
 * usage: test_recursions TREES MODEL...   (TREES random trees; prints one line per model and
 *        check, then "N passed, N failed") */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"
#include "unit.h"

#define TOL 1e-12
#define STATES 8 /* random states a model and base */

static int npass, nfail;


/* the worst of a comparison over a model's states, reported once */
typedef struct {
  double err, scale; /* the worst relative difference's error and scale */
  int n, bad;
} worst;


static void compare(worst *w, const double *got, const double *ref, int n) {
  double err = 0, scale = 0;
  for (int k = 0; k < n; k++) {
    scale = fmax(scale, fabs(ref[k]));
  }
  for (int k = 0; k < n; k++) {
    err = fmax(err, fabs(got[k] - ref[k]));
  }
  scale = fmax(scale, 1e-300);
  if (!(err <= TOL * scale)) {
    w->bad++;
  }
  if (w->n == 0 || !(err / scale <= w->err / w->scale)) {
    w->err = err;
    w->scale = scale;
  }
  w->n++;
}


static void report(const char *model, const char *what, const worst *w) {
  int ok = w->n > 0 && w->bad == 0;
  printf("%s %s: %s (%d cases, worst error %.3g of scale %.3g)\n", ok ? "ok" : "FAIL", model, what,
         w->n, w->err, w->scale);
  ok ? npass++ : nfail++;
}


/* a random state: the joints' from spart_random_state; the base's and the forces uniform */
typedef spart_state state;


static void random_state(const spart_model *m, spart_rng *r, state *s) {
  unit_random_rotation(r, s->R0);
  for (int k = 0; k < 6; k++) {
    s->u0[k] = unit_urand(r, -1, 1);
    s->u0dot[k] = unit_urand(r, -1, 1);
    s->tau0[k] = unit_urand(r, -1, 1);
  }
  spart_random_state(m, r, r, s);
  for (int k = 0; k < 6 * m->nb; k++) {
    s->wF[k] = unit_urand(r, -0.5, 0.5);
  }
}


static void state_alloc(const spart_model *m, state *s) {
  size_t nq = (size_t)m->nq, nv = (size_t)m->nv;
  *s = (state){.nb = m->nb, .nq = m->nq, .nv = m->nv};
  s->qm = calloc(nq + 3 * nv + 6 * (size_t)m->nb + 18 + 1, sizeof(double)); /* all of them */
  if (s->qm) {
    s->um = s->qm + nq;
    s->umdot = s->um + nv;
    s->taum = s->umdot + nv;
    s->wF = s->taum + nv;
    s->u0 = s->wF + 6 * (size_t)m->nb;
    s->u0dot = s->u0 + 6;
    s->tau0 = s->u0dot + 6;
  }
}


/* the comparisons, each the worst over the states of a model (or of all the random trees) */
enum { ID, ID_STILL, PAIR, SPARSE, FID, CRBA, CRBA_FIXED, ABA, ABA_FIXED, NCHECK };
static const char *const what[NCHECK] = {
    "spart_rnea = spart_rnea_ref, flying base",
    "spart_rnea = spart_rnea_ref, base held still",
    "spart_rnea_pair's two lanes = spart_rnea_ref, every rate given",
    "spart_rnea_pair's two lanes = spart_rnea_ref, rates and wrenches left out",
    "spart_floating_id = Floating_ID of spart_rnea_ref and spart_crba_ref",
    "spart_crba = spart_crba_ref, floating base",
    "spart_crba = spart_crba_ref, fixed base",
    "spart_aba = spart_aba_ref, floating base",
    "spart_aba = spart_aba_ref, fixed base"};


/* the checks of one model at STATES random states from the seed, into w */
static void check_model(const char *name, const spart_model *m, uint64_t seed, worst w[NCHECK]) {
  static const double g[3] = {0.3, -0.5, -9.81};
  int n = 6 + m->nv;
  spart_data *d = spart_data_new(m), *e = spart_data_new(m);
  double *a = calloc(3 * (size_t)n * n + 8, sizeof(double)), *b, *a2;
  state s, t;
  spart_rng r;
  spart_rng_seed(&r, seed);
  state_alloc(m, &s);
  state_alloc(m, &t);
  if (!d || !e || !a || !s.qm || !t.qm) {
    printf("FAIL %s: out of memory\n", name);
    exit(1);
  }
  b = a + (size_t)n * n;
  a2 = b + (size_t)n * n;

  for (int k = 0; k < STATES; k++) {
    random_state(m, &r, &s);
    random_state(m, &r, &t);

    /* RNEA: a flying base, then one held still; gravity and wrenches on */
    spart_rnea_ref(m, e, &s, g, b);
    spart_rnea(m, d, &s, g, a);
    compare(w + ID, a, b, n);
    state still = s;
    still.u0 = still.u0dot = NULL;
    spart_rnea_ref(m, e, &still, g, b);
    spart_rnea(m, d, &still, g, a);
    compare(w + ID_STILL, a, b, n);

    /* two records in the two lanes, each against its reference: every rate given (the dense
       path), then the second without umdot nor wrenches (the other) */
    for (int dense = 1; dense >= 0; dense--) {
      state t2 = t;
      t2.umdot = dense ? t.umdot : NULL;
      t2.wF = dense ? t.wF : NULL;
      const spart_state *two[2] = {&s, &t2};
      double *tau[2] = {a, a2};
      spart_rnea_pair(m, d, 2, two, g, tau);
      spart_rnea_ref(m, e, &s, g, b);
      compare(w + (dense ? PAIR : SPARSE), a, b, n);
      spart_rnea_ref(m, e, &t2, g, b);
      compare(w + (dense ? PAIR : SPARSE), a2, b, n);
    }

    /* Floating_ID of the references: tau0 at u0dot = 0, H00 u0dot = -tau0, taum at u0dot */
    double u0dot[6], want[6], *H = b, *tau = a2;
    if (spart_floating_id(m, d, &s, g, a + 6, a) == 0) {
      double H00[36];
      state f = s; /* at u0dot = 0, then at the u0dot found */
      f.u0dot = NULL;
      spart_rnea_ref(m, e, &f, g, tau);
      spart_crba_ref(m, e, &s, 0, H);
      for (int r6 = 0; r6 < 6; r6++) {
        memcpy(H00 + 6 * r6, H + r6 * n, 6 * sizeof(double));
        want[r6] = -tau[r6];
      }
      if (spu_cholsolve(H00, want, 6, 1, NULL) != 0) {
        printf("FAIL %s: the base's inertia is singular\n", name);
        nfail++;
        continue;
      }
      memcpy(u0dot, want, sizeof u0dot);
      f.u0dot = u0dot;
      spart_rnea_ref(m, e, &f, g, tau);
      memcpy(tau, u0dot, sizeof u0dot); /* [u0dot; taum], as a */
      compare(w + FID, a, tau, n);
    } else {
      w[FID].bad++;
    }

    /* CRBA */
    spart_crba(m, d, &s, 0, a);
    spart_crba_ref(m, e, &s, 0, b);
    compare(w + CRBA, a, b, n * n);
    spart_crba(m, d, &s, 1, a);
    spart_crba_ref(m, e, &s, 1, b);
    compare(w + CRBA_FIXED, a, b, m->nv * m->nv);

    /* ABA */
    for (int fixed = 0; fixed < 2; fixed++) {
      int ra = spart_aba(m, d, &s, fixed, g, a);
      int rb = spart_aba_ref(m, e, &s, fixed, g, b);
      if (ra != 0 || rb != 0) {
        w[fixed ? ABA_FIXED : ABA].bad++;
        continue;
      }
      compare(w + (fixed ? ABA_FIXED : ABA), a, b, n);
    }
  }
  free(a);
  free(s.qm);
  free(t.qm);
  spart_data_free(d);
  spart_data_free(e);
}


int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_recursions TREES MODEL...\n");
    return 2;
  }
  int trees = atoi(argv[1]);
  for (int k = 2; k < argc; k++) {
    const char *name;
    spart_model *m = unit_model(argv[k], &name, &nfail);
    if (!m) {
      continue;
    }
    worst w[NCHECK] = {{0}};
    check_model(name, m, 1000 + (uint64_t)k, w);
    for (int c = 0; c < NCHECK; c++) {
      report(name, what[c], w + c);
    }
    spart_model_free(m);
  }

  /* random trees: every kind, in proportion, over all of them */
  spart_rng r;
  int kinds[16] = {0}, bodies = 0;
  worst w[NCHECK] = {{0}};
  spart_rng_seed(&r, 26);
  for (int k = 0; k < trees; k++) {
    char name[32];
    spart_model *m = unit_random_tree(&r, 2 + (int)(spart_rng_uniform(&r) * 11));
    unit_count_kinds(m, kinds);
    bodies += m->nb;
    snprintf(name, sizeof name, "random tree %d", k);
    check_model(name, m, 5000 + (uint64_t)k, w);
    spart_model_free(m);
  }
  for (int c = 0; c < NCHECK && trees > 0; c++) {
    char name[64];
    snprintf(name, sizeof name, "%d random trees (%d bodies)", trees, bodies);
    report(name, what[c], w + c);
  }
  if (trees > 0) {
    unit_report_kinds(kinds, &npass, &nfail);
  }
  printf("%d passed, %d failed\n", npass, nfail);
  return nfail != 0;
}
