/* spart_mass.c -- the mass distribution of a model's links: a link's principal inertias, the mass
 * and inertia each link carries with the links after it, the bodies of fixed joints merged into
 * the ones they ride on */
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"


void spart_principal_inertias(const spart_model *m, int i, double ev[3]) {
  spu_eigsym3(ev, m->body_inertia + 6 * i);
}


void spart_carried(const spart_model *m, double *mass, int *inertia) {
  /* children come after their parent: one backward pass adds each link's to its parent's */
  for (int i = m->nb - 1; i >= 0; i--) {
    const double *I = m->body_inertia + 6 * i;
    mass[i] = m->body_mass[i];
    inertia[i] = I[0] != 0 || I[1] != 0 || I[2] != 0 || I[3] != 0 || I[4] != 0 || I[5] != 0;
  }
  for (int i = m->nb - 1; i > 0; i--) {
    mass[m->body_parent[i]] += mass[i];
    inertia[m->body_parent[i]] |= inertia[i];
  }
}


int spart_merge_fixed(const spart_model *m, const spart_data *d, double *cj, int *cpar) {
  int nb = m->nb;
  /* per body: F_i in the frame of the body of the dynamics it belongs to, ep (itself if kept) */
  double *A = calloc((size_t)nb * 12, sizeof(double));
  int *ep = calloc((size_t)nb, sizeof(int));
  if (!A || !ep) {
    free(A), free(ep);
    return -1;
  }
  for (int i = 0; i < nb; i++) {
    const double *J = d->own_->jc + SPART_JC * i;
    double *c = cj + SPART_CJ * i, *Ai = A + 12 * i;
    memset(c, 0, SPART_CJ * sizeof(double));
    memcpy(c + SPART_CJ_IO, J + SPART_JC_IO, 10 * sizeof(double));
    Ai[0] = Ai[4] = Ai[8] = 1; /* a kept body's frame is its own */
    if (i == 0) {
      continue;
    }
    int p = m->body_parent[i], fixed = m->jnt_nv[i] == 0;
    const double *Ap = A + 12 * p; /* F_p in the frame of ep[p]: the identity when p is kept */
    double *T = fixed ? Ai : c + SPART_CJ_T, *r = fixed ? Ai + 9 : c + SPART_CJ_R;
    ep[i] = fixed ? ep[p] : i;
    /* T = A_p T_i, r = a_p + A_p r_i */
    for (int a = 0; a < 3; a++) {
      r[a] = Ap[9 + a];
      for (int b = 0; b < 3; b++) {
        T[3 * a + b] = Ap[3 * a] * J[SPART_JC_T + b] + Ap[3 * a + 1] * J[SPART_JC_T + 3 + b] +
                       Ap[3 * a + 2] * J[SPART_JC_T + 6 + b];
        r[a] += Ap[3 * a + b] * J[SPART_JC_R + b];
      }
    }
    if (fixed) {
      spu_inertparent_add(cj + SPART_CJ * ep[i] + SPART_CJ_IO, Ai, Ai + 9, J + SPART_JC_IO);
    }
  }
  /* each kept body's mass, CoM and inertia about it: its own (jc's, the same numbers), or from
     its compact inertia when a body is merged into it */
  for (int i = 1; i < nb; i++) {
    if (ep[i] != i) {
      A[12 * ep[i]] = -1; /* a mark: ep[i] takes a merged body */
    }
  }
  for (int i = 0; i < nb; i++) {
    const double *J = d->own_->jc + SPART_JC * i;
    double *c = cj + SPART_CJ * i, dc[3], I[10];
    cpar[i] = i == 0 || ep[i] != i ? -1 : ep[m->body_parent[i]];
    if (ep[i] != i) {
      continue;
    }
    if (A[12 * i] != -1) {
      c[SPART_CJ_M] = m->body_mass[i];
      memcpy(c + SPART_CJ_C, J + SPART_JC_C, 9 * sizeof(double)); /* c, Ic */
      continue;
    }
    c[SPART_CJ_M] = c[SPART_CJ_IO];
    for (int k = 0; k < 3; k++) {
      c[SPART_CJ_C + k] = c[SPART_CJ_M] > 0 ? c[SPART_CJ_IO + 1 + k] / c[SPART_CJ_M] : 0;
      dc[k] = -c[SPART_CJ_C + k];
    }
    spu_inertshift(I, c + SPART_CJ_IO, dc);
    memcpy(c + SPART_CJ_IC, I + 4, 6 * sizeof(double));
  }
  free(A), free(ep);
  return 0;
}
