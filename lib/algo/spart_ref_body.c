/* spart_ref_body.c -- what the reference recursions (spart_rnea_ref, spart_crba_ref,
 * spart_aba_ref) take of a body: its spatial inertia and its external wrench, 6x6 and 6-vectors
 * in its joint frame F_i at F_i's origin */
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"


/* body i's external wrench wF_i in F_i (0 when wF is NULL) */
void spart_ref_wrench(const spart_data *d, int i, const double *wF, double fx[6]) {
  /* wF_i (inertial frame, at the CoM c_i) turned into F_i (R_i = d->xrotF) and moved to F_i's
     origin: [R_i' n + c_i x R_i' f; R_i' f] */
  const double *R = d->xrotF + 9 * i, *c = d->own_->jc + SPART_JC * i + SPART_JC_C;
  double n[3], cf[3];
  memset(fx, 0, 6 * sizeof(double));
  if (!wF) {
    return;
  }
  spu_mulmtv3(n, R, wF + 6 * i);
  spu_mulmtv3(fx + 3, R, wF + 6 * i + 3);
  spu_cross(cf, c, fx + 3);
  for (int k = 0; k < 3; k++) {
    fx[k] = n[k] + (i > 0 ? cf[k] : 0); /* the base's F_0 is at its CoM */
  }
}


/* body i's spatial inertia about F_i's origin, 6x6 in F_i */
void spart_ref_inertia(const spart_model *m, const spart_data *d, int i, double I[36]) {
  double base[10];
  const double *Ic = d->own_->jc + SPART_JC * i + SPART_JC_IO;
  if (i == 0) {
    spu_inertbody(base, m->body_mass[0], m->body_inertia);
    Ic = base;
  }
  spu_inert_to_mat6(I, Ic);
}
