/* spart_scene.c -- a simulation's world: the forces that depend on the time and the state (a
 * controller's joint forces, a ground's contact forces) added to those held, at every stage of
 * a step (spart_sim.c's rate) */
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_sim.h"
#include "spart_internal.h"

/* the scratch: the forces with the world's */
typedef struct {
  double *taum; /* (nv) */
  double *wF;   /* (nb x 6) */
} scene_ws;


spart_scene *spart_scene_new(const spart_model *m) {
  size_t n = (size_t)m->nv + 6 * (size_t)m->nb;
  spart_scene *w = calloc(1, sizeof(*w));
  scene_ws *s = calloc(1, sizeof(*s) + n * sizeof(double));
  if (!w || !s) {
    free(w);
    free(s);
    return NULL;
  }
  s->taum = (double *)(s + 1);
  s->wF = s->taum + m->nv;
  w->ws_ = s;
  return w;
}


void spart_scene_free(spart_scene *w) {
  if (w) {
    free(w->ws_);
    free(w);
  }
}


int spart_scene_nstate(const spart_scene *w) {
  return w && w->ground ? spart_ground_nstate(w->ground) : 0;
}


int spart_scene_forces(const spart_model *m, spart_data *d, spart_scene *w, double t,
                       spart_state *x, const double *z, double *zdot, spart_err *err) {
  scene_ws *s = w->ws_;
  if (w->control) {
    memcpy(s->taum, x->taum, (size_t)m->nv * sizeof(double));
    if (spart_control_torque(m, d, w->control, t, x, s->taum, err) != 0) {
      return -SPART_ENUM;
    }
    x->taum = s->taum;
  }
  if (w->ground) {
    const int stick = spart_ground_nstate(w->ground) > 0;
    const spart_ground_out out = {s->wF, NULL, stick ? zdot : NULL};
    memcpy(s->wF, x->wF, 6 * (size_t)m->nb * sizeof(double));
    spart_ground_forces(m, d, w->ground, x, stick ? z : NULL, &out);
    x->wF = s->wF;
  }
  return 0;
}


void spart_scene_release(const spart_model *m, spart_data *d, const spart_scene *w,
                         const spart_state *x, double *z) {
  if (spart_scene_nstate(w) > 0) {
    spart_ground_release(m, d, w->ground, x, z);
  }
}
