/* spart_control.c -- closed-loop control of the joints: a reference interpolated in time, PD
 * with gravity compensation, computed torque (inverse dynamics of the model plus PD on the
 * error), gravity compensation alone; each force clipped to its joint's effort limit.
 *
 * Errors are taken in each joint's local coordinates around the state (spart_joint_difference,
 * a quaternion's log) as velocities (spart_joint_v_of_local), so that a ball or floating joint
 * is controlled in its tangent space. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_sim.h"
#include "spart_internal.h"

/* the scratch of a controller */
typedef struct {
  double *qr, *ur, *ar; /* the reference: nq, nv, nv */
  double *e;            /* (nv) the error of the configuration, as a velocity */
  double *tau;          /* (6 + nv) the inverse dynamics' forces */
  double *xi;           /* (nv) local coordinates */
  unsigned char *clip;  /* (nv) whether each force was clipped at the last evaluation */
  int hint;             /* the reference's last interval */
} control_ws;


spart_control *spart_control_new(const spart_model *m) {
  size_t nq = (size_t)m->nq, nv = (size_t)m->nv;
  spart_control *c = calloc(1, sizeof(*c));
  control_ws *w = calloc(1, sizeof(*w) + (nq + 4 * nv + 6 + nv) * sizeof(double) + nv + 1);
  if (!c || !w) {
    free(c);
    free(w);
    return NULL;
  }
  double *p = (double *)(w + 1);
  w->qr = p, p += nq;
  w->ur = p, p += nv;
  w->ar = p, p += nv;
  w->e = p, p += nv;
  w->tau = p, p += 6 + nv;
  w->xi = p, p += nv;
  w->clip = (unsigned char *)p;
  c->ws_ = w;
  return c;
}


void spart_control_free(spart_control *c) {
  if (c) {
    free(c->ws_);
    free(c);
  }
}


/* the interval [t[a], t[a + 1]) holding t, from the hint when t is in it or the next one, else
   by bisection; t within the records' span */
static int interval(const spart_reference *r, double t, int hint) {
  for (int a = hint; a >= 0 && a < hint + 2 && a < r->n - 1; a++) {
    if (r->t[a] <= t && t < r->t[a + 1]) {
      return a;
    }
  }
  int lo = 0, hi = r->n - 1; /* t[lo] <= t < t[hi] */
  while (hi - lo > 1) {
    int mid = lo + (hi - lo) / 2;
    if (r->t[mid] <= t) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}


/* record a of the reference as it is */
static void record(const spart_model *m, const spart_reference *r, int a, double *qm, double *um,
                   double *umdot) {
  size_t nq = (size_t)m->nq, nv = (size_t)m->nv;
  memcpy(qm, r->qm + (size_t)a * nq, nq * sizeof(double));
  if (r->um) {
    memcpy(um, r->um + (size_t)a * nv, nv * sizeof(double));
  } else {
    memset(um, 0, nv * sizeof(double));
  }
  if (r->umdot) {
    memcpy(umdot, r->umdot + (size_t)a * nv, nv * sizeof(double));
  } else {
    memset(umdot, 0, nv * sizeof(double));
  }
}


void spart_reference_at(const spart_model *m, const spart_reference *r, double t, int *hint,
                        spart_state *ref) {
  const int n = r->n, nq = m->nq, nv = m->nv;
  double *qm = ref->qm, *um = ref->um, *umdot = ref->umdot;
  if (n == 1 || !(t > r->t[0])) {
    record(m, r, 0, qm, um, umdot);
    return;
  }
  if (t >= r->t[n - 1]) {
    record(m, r, n - 1, qm, um, umdot);
    return;
  }
  int a = *hint = interval(r, t, *hint);
  double h = r->t[a + 1] - r->t[a], s = (t - r->t[a]) / h;
  /* Hermite's basis on [0, 1] for the second point and the two rates (the first point is 0) */
  double h10 = s * (s - 1) * (s - 1), h01 = s * s * (3 - 2 * s), h11 = s * s * (s - 1);
  const double *qa = r->qm + (size_t)a * nq, *qb = qa + nq;
  const double *ua = r->um ? r->um + (size_t)a * nv : NULL, *ub = ua ? ua + nv : NULL;
  for (int i = 1; i < m->nb; i++) {
    int nvi = m->jnt_nv[i], qa_ = m->jnt_qadr[i], va = m->jnt_vadr[i];
    double xi[6], p[6], ma[6], mb[6];
    if (nvi == 0) {
      continue;
    }
    /* joint i's local coordinates of record b around record a, and the curve in them */
    spart_joint_difference(m, i, qa + qa_, qb + qa_, xi);
    if (ua) {
      double zero[6] = {0};
      spart_joint_local_rate(m, i, qa + qa_, zero, ua + va, ma);
      spart_joint_local_rate(m, i, qa + qa_, xi, ub + va, mb);
      for (int k = 0; k < nvi; k++) {
        p[k] = h10 * h * ma[k] + h01 * xi[k] + h11 * h * mb[k];
      }
    } else {
      for (int k = 0; k < nvi; k++) {
        p[k] = s * xi[k];
      }
    }
    spart_joint_integrate(m, i, qa + qa_, p, qm + qa_);
    if (!ua) { /* the line's rate at the point reached */
      for (int k = 0; k < nvi; k++) {
        xi[k] /= h;
      }
      spart_joint_v_of_local(m, i, qm + qa_, xi, um + va);
    }
  }
  /* the velocities and accelerations, linear */
  for (int k = 0; k < nv; k++) {
    if (ua) {
      um[k] = ua[k] + s * (ub[k] - ua[k]);
    }
    if (r->umdot) {
      const double *aa = r->umdot + (size_t)a * nv;
      umdot[k] = aa[k] + s * (aa[nv + k] - aa[k]);
    } else {
      umdot[k] = ua ? (ub[k] - ua[k]) / h : 0;
    }
  }
}


/* the error e (nv) of the configuration qm to the reference qr, as a velocity */
static void error(const spart_model *m, const double *qm, const double *qr, double *e) {
  for (int i = 1; i < m->nb; i++) {
    if (m->jnt_nv[i] > 0) {
      double xi[6];
      int a = m->jnt_qadr[i];
      spart_joint_difference(m, i, qm + a, qr + a, xi);
      spart_joint_v_of_local(m, i, qm + a, xi, e + m->jnt_vadr[i]);
    }
  }
}


/* clip tau (nv) to the effort limits, counting the evaluation when one binds; add to taum */
static void clip_add(const spart_model *m, spart_control *c, double t, const double *tau,
                     double *taum) {
  control_ws *w = c->ws_;
  int bound = 0;
  for (int k = 0; k < m->nv; k++) {
    double lim = m->jnt_effort[m->dof_body[k]], f = tau[k];
    w->clip[k] = lim > 0 && fabs(f) > lim;
    if (w->clip[k]) {
      f = f > 0 ? lim : -lim;
      if (!bound && c->nclip == 0) {
        c->tclip = t;
        c->vclip = k;
      }
      bound = 1;
    }
    taum[k] += f;
  }
  c->nclip += bound;
}


int spart_control_torque(const spart_model *m, spart_data *d, spart_control *c, double t,
                         const spart_state *x, double *taum, spart_err *err) {
  control_ws *w = c->ws_;
  const int nv = m->nv;
  const int fixed = c->flags & SPART_FD_FIXED;
  double *tau = w->tau, *a = w->ar;
  const double *um = x->um;
  /* the state at the accelerations a (the base held still with a fixed base), without
     wrenches: the model's inverse dynamics */
  spart_state v = *x;
  v.u0 = fixed ? NULL : x->u0;
  v.u0dot = NULL;
  v.umdot = a;
  v.wF = NULL;
  c->neval++;
  /* the reference and the errors of the state to it */
  if (c->law != SPART_CONTROL_GRAVITY) {
    spart_state ref = {.qm = w->qr, .um = w->ur, .umdot = w->ar};
    spart_reference_at(m, c->ref, t, &w->hint, &ref);
    error(m, x->qm, w->qr, w->e);
  }
  if (c->law == SPART_CONTROL_CTC) {
    /* computed torque: the model's inverse dynamics at the commanded acceleration */
    for (int k = 0; k < nv; k++) {
      a[k] += c->kp[k] * w->e[k] + c->kd[k] * (w->ur[k] - um[k]);
    }
    if (fixed) {
      spart_rnea(m, d, &v, c->gravity, tau);
    } else {
      double u0dot[6];
      if (spart_floating_id(m, d, &v, c->gravity, tau + 6, u0dot) != 0) {
        return spart_err_set(err, SPART_ENUM, 0,
                             "t = %.17g: computed torque: singular inertia at link 0: the base "
                             "can move without moving any mass",
                             t);
      }
    }
    if (c->flags & SPART_FD_FRICTION) {
      spart_friction(m, um, 1, tau + 6);
    }
    clip_add(m, c, t, tau + 6, taum);
    return 0;
  }
  /* the gravity compensation: the base held still, the joints at rest */
  if (c->gravity) {
    v.u0 = v.um = v.umdot = NULL; /* at rest */
    spart_rnea(m, d, &v, c->gravity, tau);
  } else {
    memset(tau, 0, (size_t)(6 + nv) * sizeof(double));
  }
  if (c->law == SPART_CONTROL_PD) {
    for (int k = 0; k < nv; k++) {
      tau[6 + k] += c->kp[k] * w->e[k] + c->kd[k] * (w->ur[k] - um[k]);
    }
  }
  clip_add(m, c, t, tau + 6, taum);
  return 0;
}


void spart_control_damping(const spart_model *m, const spart_control *c, const double *H, int n,
                           int off, double *D) {
  const control_ws *w = c->ws_;
  const int nv = m->nv;
  if (c->law == SPART_CONTROL_PD) { /* Kd on the diagonal */
    for (int a = 0; a < nv; a++) {
      D[(off + a) * (n + 1)] += w->clip[a] ? 0 : c->kd[a];
    }
    return;
  }
  if (c->law != SPART_CONTROL_CTC) {
    return;
  }
  /* computed torque: the joints' accelerations -Kd um with the base's reaction, the forces
     Hs Kd um on the joints, Hs = Hmm - Hm0 H00^-1 H0m their inertia with the base free (Hmm
     with it fixed) */
  double H00i[36], work[36], H00[36];
  for (int i = 0; i < off; i++) {
    for (int j = 0; j < off; j++) {
      H00[6 * i + j] = H[i * n + j];
    }
  }
  if (off && spart_spd_inverse(H00, 6, work, H00i) != 0) {
    return; /* (the dynamics then fail on the same singular inertia) */
  }
  for (int a = 0; a < nv; a++) {
    for (int b = 0; b < nv; b++) {
      double hs = H[(off + a) * n + off + b];
      for (int i = 0; i < off; i++) {
        for (int j = 0; j < off; j++) {
          hs -= H[(off + a) * n + i] * H00i[6 * i + j] * H[j * n + off + b];
        }
      }
      D[(off + a) * n + off + b] += w->clip[a] ? 0 : hs * c->kd[b];
    }
  }
}
