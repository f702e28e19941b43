/* spart_state.c -- a state of a model: the base's pose, the joints' coordinates, the velocities,
 * their rates and the forces, in one allocation sized from the model */
#include <stdlib.h>
#include <string.h>

#include "spart.h"


spart_state *spart_state_new(const spart_model *m) {
  size_t nq = (size_t)m->nq, nv = (size_t)m->nv, nb = (size_t)m->nb;
  spart_state *s = calloc(1, sizeof(*s) + (3 * (6 + nv) + nq + 6 * nb) * sizeof(double));
  if (!s) {
    return NULL;
  }
  double *p = (double *)(s + 1);
  s->nb = m->nb;
  s->nq = m->nq;
  s->nv = m->nv;
  s->R0[0] = s->R0[4] = s->R0[8] = 1;
  /* [u0; um], [u0dot; umdot], [tau0; taum]: each one array of the generalized velocity's size */
  s->u0 = p, s->um = p + 6, p += 6 + nv;
  s->u0dot = p, s->umdot = p + 6, p += 6 + nv;
  s->tau0 = p, s->taum = p + 6, p += 6 + nv;
  s->qm = p, p += nq;
  s->wF = p;
  return s;
}


void spart_state_free(spart_state *s) {
  free(s); /* the struct and its arrays: one block */
}


/* dst (n) = src, or zeros when src is NULL; nothing when dst is NULL */
static void part(double *dst, const double *src, int n) {
  if (!dst || n == 0) {
    return;
  }
  if (src) {
    memcpy(dst, src, (size_t)n * sizeof(double));
  } else {
    memset(dst, 0, (size_t)n * sizeof(double));
  }
}


void spart_state_copy(spart_state *dst, const spart_state *src) {
  memcpy(dst->R0, src->R0, sizeof(dst->R0));
  memcpy(dst->r0, src->r0, sizeof(dst->r0));
  part(dst->qm, src->qm, dst->nq);
  part(dst->u0, src->u0, 6);
  part(dst->um, src->um, dst->nv);
  part(dst->u0dot, src->u0dot, 6);
  part(dst->umdot, src->umdot, dst->nv);
  part(dst->tau0, src->tau0, 6);
  part(dst->taum, src->taum, dst->nv);
  part(dst->wF, src->wF, 6 * dst->nb);
}
