/* spart_data.c -- the workspace of the algorithms: one allocation carved into arrays */
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_internal.h"

/* per-body arrays of doubles: name and stride */
#define SPART_DATA_ARRAYS(X) \
  X(xrotJ, 9)                \
  X(xrotF, 9)                \
  X(xposF, 3)                \
  X(xposJ, 3)                \
  X(xrot, 9)                 \
  X(xpos, 3)                 \
  X(xaxis, 3)                \
  X(xg, 3)                   \
  X(xI, 6)                   \
  X(t, 6)                    \
  X(tdot, 6)                 \
  X(c, 6)                    \
  X(f, 6)                    \
  X(Ic, 10)                  \
  X(IA, 36)                  \
  X(pA, 6)                   \
  X(jc, SPART_JC)            \
  X(jp, 2 * SPART_JP)        \
  X(Xrot, 9)                 \
  X(Xpos, 3)                 \
  X(bQ, 18)                  \
  X(brho, 6)                 \
  X(bv, 12)                  \
  X(ba, 12)                  \
  X(bf, 12)                  \
  X(bR, 18)                  \
  X(mark, 1)

/* per degree of freedom */
#define SPART_DATA_DOF_ARRAYS(X) \
  X(xS, 6)                       \
  X(xS0, 6)                      \
  X(U, 6)                        \
  X(D, 1)                        \
  X(u, 1)


spart_data *spart_data_new(const spart_model *m) {
  size_t nb = (size_t)m->nb, nv = (size_t)m->nv, nwork = 6 * (6 + nv) + 6 * nb + 36;
  size_t n = nwork;
/* every array at a multiple of 16 bytes from the block, which calloc aligns to 16: the pairs of
   spart_rnea_pair */
#define ROUND2(k) (((k) + 1) & ~(size_t)1)
#define X(name, stride) n += ROUND2((stride)*nb);
  SPART_DATA_ARRAYS(X)
#undef X
#define X(name, stride) n += ROUND2((stride)*nv);
  SPART_DATA_DOF_ARRAYS(X)
#undef X

  spart_data *d = calloc(1, sizeof(*d));
  double *p = d ? calloc(n, sizeof(double)) : NULL;
  if (!p) {
    free(d);
    return NULL;
  }
  d->buf_ = p;
  d->nb = m->nb;
  d->nq = m->nq;
  d->nv = m->nv;
#define X(name, stride) \
  d->name = p;          \
  p += ROUND2((stride)*nb);
  SPART_DATA_ARRAYS(X)
#undef X
#define X(name, stride) \
  d->name = p;          \
  p += ROUND2((stride)*nv);
  SPART_DATA_DOF_ARRAYS(X)
#undef X
  d->work = p;
  spart_joint_constants(m, d);
  return d;
}


void spart_data_free(spart_data *d) {
  if (d) {
    free(d->buf_);
    free(d);
  }
}
