/* spart_mass.c -- the mass distribution of a model's links: a link's principal inertias, the mass
 * and inertia each link carries with the links after it */
#include "spart.h"
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
