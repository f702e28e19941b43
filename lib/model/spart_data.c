/* spart_data.c -- the workspace of the algorithms: one allocation carved into arrays */
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_internal.h"

/* per-body arrays of doubles: name, stride and where (DATA: spart_data's, OWN: the library's
   own, struct spart_own), in the buffer's order */
#define SPART_DATA_ARRAYS(X) \
  X(xrotJ, 9, DATA)          \
  X(xrotF, 9, DATA)          \
  X(xposF, 3, DATA)          \
  X(xposJ, 3, DATA)          \
  X(xrot, 9, DATA)           \
  X(xpos, 3, DATA)           \
  X(xaxis, 3, DATA)          \
  X(xg, 3, DATA)             \
  X(xI, 6, DATA)             \
  X(t, 6, DATA)              \
  X(tdot, 6, DATA)           \
  X(c, 6, DATA)              \
  X(f, 6, DATA)              \
  X(Ic, 10, DATA)            \
  X(IA, 36, OWN)             \
  X(pA, 6, OWN)              \
  X(jc, SPART_JC, OWN)       \
  X(jp, 2 * SPART_JP, OWN)   \
  X(Xrot, 9, DATA)           \
  X(Xpos, 3, DATA)           \
  X(bQ, 18, OWN)             \
  X(brho, 6, OWN)            \
  X(bv, 12, OWN)             \
  X(ba, 12, OWN)             \
  X(bf, 12, OWN)             \
  X(bR, 18, OWN)             \
  X(mark, 1, OWN)

/* per degree of freedom */
#define SPART_DATA_DOF_ARRAYS(X) \
  X(xS, 6, DATA)                 \
  X(xS0, 6, OWN)                 \
  X(U, 6, OWN)                   \
  X(D, 1, OWN)                   \
  X(u, 1, OWN)

/* the data and the library's own in one allocation (d first: freeing d frees both) */
struct spart_data_block {
  spart_data d;
  struct spart_own own;
};

spart_data *spart_data_new(const spart_model *m) {
  size_t nb = (size_t)m->nb, nv = (size_t)m->nv, nwork = 6 * (6 + nv) + 6 * nb + 36;
  size_t nfd = nv + (m->coupled ? spart_mimic_fd_work(m) : 0);
  size_t n = nwork + nfd + SPART_DERIV_WORK(nb, nv);
/* every array at a multiple of 16 bytes from the block, which calloc aligns to 16: the pairs of
   spart_rnea_pair */
#define ROUND2(k) (((k) + 1) & ~(size_t)1)
#define X(name, stride, where) n += ROUND2((stride)*nb);
  SPART_DATA_ARRAYS(X)
#undef X
#define X(name, stride, where) n += ROUND2((stride)*nv);
  SPART_DATA_DOF_ARRAYS(X)
#undef X

  struct spart_data_block *b = calloc(1, sizeof(*b));
  double *p = b ? calloc(n, sizeof(double)) : NULL;
  if (!p) {
    free(b);
    return NULL;
  }
  spart_data *d = &b->d;
  struct spart_own *own = &b->own;
  d->own_ = own;
  own->buf = p;
  d->nb = m->nb;
  d->nq = m->nq;
  d->nv = m->nv;
#define IN_DATA d
#define IN_OWN own
#define X(name, stride, where) \
  IN_##where->name = p;        \
  p += ROUND2((stride)*nb);
  SPART_DATA_ARRAYS(X)
#undef X
#define X(name, stride, where) \
  IN_##where->name = p;        \
  p += ROUND2((stride)*nv);
  SPART_DATA_DOF_ARRAYS(X)
#undef X
#undef IN_DATA
#undef IN_OWN
  d->work = p;
  own->fdw = p + nwork;
  own->dw = p + nwork + nfd;
  spart_joint_constants(m, d);
  return d;
}


void spart_data_free(spart_data *d) {
  if (d) {
    free(d->own_->buf);
    free(d); /* the block spart_data_new allocated, d its first member */
  }
}
