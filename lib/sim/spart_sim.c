/* spart_sim.c -- forward dynamics of a state, and the state moved through time by Runge-Kutta
 * (RK4, Dormand-Prince 5(4)) or an implicit step on the configuration manifold, the joint
 * limits held by one-sided springs and dampers.
 *
 * Each step works in local coordinates around the state at its start (Munthe-Kaas's RKMK): y
 * (ny = 2 (6 + nv)) is [theta (3), dr0 (3), xi (nv), du0 (6), dum (nv)], the state at y being
 * R0 exp([theta]x), r0 + dr0, the joints moved by xi (spart_joint_integrate), u0 + du0, um + dum.
 * y = 0 at the start; its rate is [dexp^-1(theta) omega0, r0dot, the joints' local rates,
 * u0dot, umdot], a smooth ODE in a vector space that any Runge-Kutta method integrates at its
 * order.  The step ends by mapping y back: R0 stays a rotation, a quaternion a unit.  A scene
 * with a state of its own (a ground's deflections, nz) adds it to y after the rest, moved by
 * addition. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_sim.h"
#include "spart_internal.h"
#include "spu.h"

/* the scratch of a simulation */
typedef struct {
  int nq, nv, ny, nf; /* sizes: coordinates, velocities, local coordinates, forces */
  int nyb, nz;        /* ny = nyb + nz: the model's local coordinates, the scene's state */
  double *k[7];       /* (ny) the stages' rates */
  double *y;          /* (ny) a stage's local coordinates */
  double *yn;         /* (ny) the step's end */
  spart_state xs;     /* a stage's state: R0, r0 its own, qm, u0, um in the scratch, its forces
                         the simulation's (or the scene's, rate()) */
  double *z;          /* (nz) a stage's scene state */
  double *acc;        /* (6 + nv + nz) the accelerations and the scene state's rates at the
                         state, when acc_ok */
  double *key;        /* (nf + 18 + nq + nv + nz) the forces and the state they were computed
                         for */
  double *base;       /* the part of the one allocation place() lays out for nz = 0 */
  double *ext;        /* its own allocation for nz > 0 (spart_sim_set_scene), or NULL */
  int acc_ok;
  double t_end; /* the end of the step being taken */
  double tc;    /* the time of the stage being evaluated (s->scene's forces depend on it) */
  double *stab_tau; /* (nv) the joint forces less the smoothed friction (coulomb_v > 0) */
  double *lim_tau;  /* (nv) the joint forces with the limits' */
  double *imp;      /* the implicit step's scratch (its own allocation, at its first step): */
  double *H, *A;    /* (n x n, n = 6 + nv) the mass matrix; H + h D */
  double *A0, *b0;  /* (n x n, n) H + h D and the right side before the Coulomb friction's */
  double *b, *Jm;   /* (n) the right side, then v+ - v; (6 x nv) a contact's Jacobian */
  double *J;        /* (3 x n) a contact point's velocity rows */
  double *coul;     /* (nv) 1 where a joint's Coulomb friction is taken implicitly */
  double *tv;       /* (nb x 6) the links' twists at the step's start */
} sim_ws;


int spart_forward_dynamics(const spart_model *m, spart_data *d, const spart_state *s, int flags,
                           const double *gravity, double *udot) {
  const spart_state *x = s; /* the dynamics do not depend on where the robot is (r0) */
  spart_state f;
  /* the drive train's friction opposes the joint velocities: it takes from the joint forces (at
     rest, um NULL, it takes nothing) */
  if ((flags & SPART_FD_FRICTION) && s->um) {
    double *taum = d->own_->fdw;
    if (s->taum) {
      memcpy(taum, s->taum, (size_t)m->nv * sizeof(double));
    } else {
      memset(taum, 0, (size_t)m->nv * sizeof(double));
    }
    spart_friction(m, s->um, -1, taum);
    f = *s;
    f.taum = taum;
    x = &f;
  }
  if (m->coupled) { /* mimic joints on their leaders: the system's inertia (spart_mimic_fd.c) */
    return spart_mimic_fd(m, d, x, flags & SPART_FD_FIXED, gravity, udot);
  }
  return spart_aba(m, d, x, flags & SPART_FD_FIXED, gravity, udot);
}


/* the doubles place() lays out for a scene state of nz */
static size_t placed(const sim_ws *w, int nz) {
  size_t ny = (size_t)(w->nyb + nz), z = (size_t)nz;
  return 9 * ny + z + (6 + (size_t)w->nv + z) + ((size_t)w->nf + 18 + (size_t)(w->nq + w->nv) + z) +
         z;
}


/* the stages, the stage's scene state, acc, its key and the simulation's z laid out from p for
   a scene state of nz (zero there) */
static void place(spart_sim *s, sim_ws *w, double *p, int nz) {
  w->nz = nz;
  w->ny = w->nyb + nz;
  for (int k = 0; k < 7; k++) {
    w->k[k] = p, p += w->ny;
  }
  w->y = p, p += w->ny;
  w->yn = p, p += w->ny;
  w->z = p, p += nz;
  w->acc = p, p += 6 + w->nv + nz;
  w->key = p, p += w->nf + 18 + w->nq + w->nv + nz;
  s->z = p;
  s->nz = nz;
  w->acc_ok = 0;
}


spart_sim *spart_sim_new(const spart_model *m) {
  size_t nq = (size_t)m->nq, nv = (size_t)m->nv, nb = (size_t)m->nb, ny = 2 * (6 + nv);
  size_t nf = 6 + nv + 6 * nb;
  /* doubles: the scratch's 7 + 2 stages, acc and its key, a stage's state, the joint forces of
     the smoothed friction and of the limits, the limits' springs and dampers */
  size_t n = 9 * ny + (6 + nv) + (nf + 18 + nq + nv) + (6 + nq + nv) + 2 * nv + 2 * nb;
  spart_sim *s = calloc(1, sizeof(*s));
  sim_ws *w = calloc(1, sizeof(*w));
  double *p = calloc(n, sizeof(double));
  unsigned char *seen = calloc(nb, 1);
  spart_state *x = spart_state_new(m);
  if (!s || !w || !p || !seen || !x) {
    free(s);
    free(w);
    free(p);
    free(seen);
    spart_state_free(x);
    return NULL;
  }
  s->x = x;
  s->buf_ = p;
  s->ws_ = w;
  w->nq = (int)nq;
  w->nv = (int)nv;
  w->nyb = (int)ny;
  w->nf = (int)nf;
  w->base = p;
  place(s, w, p, 0);
  p += placed(w, 0);
  w->xs = (spart_state){.nb = m->nb, .nq = m->nq, .nv = m->nv};
  w->xs.u0 = p, p += 6;
  w->xs.qm = p, p += nq;
  w->xs.um = p, p += nv;
  w->stab_tau = p, p += nv;
  w->lim_tau = p, p += nv;
  s->limit_k = p, p += nb;
  s->limit_c = p;
  s->limit_seen = seen;
  s->method = SPART_SIM_RK4;
  s->flags = SPART_FD_FRICTION;
  s->rtol = 1e-6;
  s->atol = 1e-9;
  s->max_steps = 0;
  return s;
}


void spart_sim_free(spart_sim *s) {
  if (s) {
    spart_stab_free(s->stab_);
    free(((sim_ws *)s->ws_)->ext);
    free(((sim_ws *)s->ws_)->imp);
    free(s->limit_seen);
    free(s->ws_);
    free(s->buf_);
    spart_state_free(s->x);
    free(s);
  }
}


int spart_sim_set_scene(spart_sim *s, struct spart_scene *scene) {
  sim_ws *w = s->ws_;
  int nz = spart_scene_nstate(scene);
  double *ext = NULL;
  if (nz > 0 && !(ext = calloc(placed(w, nz), sizeof(double)))) {
    s->scene = NULL;
    return -SPART_ENOMEM;
  }
  free(w->ext);
  w->ext = ext;
  place(s, w, ext ? ext : w->base, nz);
  s->scene = scene;
  return 0;
}


/* the scene's state is the size the simulation has room for: 0, or -SPART_ENUM */
static int scene_fits(const spart_sim *s, spart_err *err) {
  int nz = spart_scene_nstate(s->scene);
  if (nz == s->nz) {
    return 0;
  }
  return spart_err_set(err, SPART_ENUM, 0, "the scene has %d state variables, the simulation "
                       "room for %d: set it by spart_sim_set_scene", nz, s->nz);
}


/* the parts of what the accelerations depend on: the forces held and the state (set by hand
   between steps too), with their lengths */
static int key_parts(const spart_sim *s, const sim_ws *w, const double *part[9], size_t n[9]) {
  const spart_state *x = s->x;
  const double *p[9] = {x->tau0, x->taum, x->wF, x->R0, x->r0, x->u0, x->qm, x->um, s->z};
  const size_t len[9] = {6, (size_t)w->nv, (size_t)(w->nf - 6 - w->nv), 9, 3, 6, (size_t)w->nq,
                         (size_t)w->nv, (size_t)w->nz};
  for (int k = 0; k < 9; k++) {
    part[k] = p[k];
    n[k] = len[k];
  }
  return 9;
}


/* keep what the accelerations in w->acc were computed from */
static void key_keep(const spart_sim *s, sim_ws *w) {
  const double *part[9];
  size_t n[9], off = 0;
  for (int k = 0, np = key_parts(s, w, part, n); k < np; off += n[k], k++) {
    memcpy(w->key + off, part[k], n[k] * sizeof(double));
  }
  w->acc_ok = 1;
}


/* whether the accelerations kept are those of the state at the forces held now */
static int acc_valid(const spart_sim *s, const sim_ws *w) {
  const double *part[9];
  size_t n[9], off = 0;
  if (!w->acc_ok) {
    return 0;
  }
  for (int k = 0, np = key_parts(s, w, part, n); k < np; off += n[k], k++) {
    if (memcmp(w->key + off, part[k], n[k] * sizeof(double)) != 0) {
      return 0;
    }
  }
  return 1;
}


/* x as the records write it (the shortest decimal that reads back to it), in buf (32 bytes) */
static const char *num(char buf[32], double x) {
  buf[spu_dtoa(buf, x)] = 0;
  return buf;
}


/* the message of a singular inertia at d->warn_body, at time t */
static int singular(const spart_data *d, double t, spart_err *err) {
  int i = d->warn_body[SPART_WARN_SINGULAR];
  char b[32];
  if (i == 0) {
    return spart_err_set(err, SPART_ENUM, 0,
                         "t = %s: singular inertia at link 0: the base can move without "
                         "moving any mass", num(b, t));
  }
  return spart_err_set(err, SPART_ENUM, 0,
                       "t = %s: singular inertia at link %d: joint %d can move without moving "
                       "any mass", num(b, t), i, i);
}


/* the name of the first part of the scratch's stage state that is not finite, or NULL */
static const char *not_finite(const sim_ws *w) {
  static const char *name[5] = {"R0", "r0", "qm", "u0", "um"};
  const double *v[5] = {w->xs.R0, w->xs.r0, w->xs.qm, w->xs.u0, w->xs.um};
  const int n[5] = {9, 3, w->nq, 6, w->nv};
  for (int p = 0; p < 5; p++) {
    for (int k = 0; k < n[p]; k++) {
      if (!isfinite(v[p][k])) {
        return name[p];
      }
    }
  }
  return NULL;
}


/* the state at local coordinates y into the scratch's stage state */
static void state_at(const spart_model *m, const spart_sim *s, sim_ws *w, const double *y) {
  const int nv = w->nv;
  if (y[0] == 0 && y[1] == 0 && y[2] == 0) {
    memcpy(w->xs.R0, s->x->R0, 9 * sizeof(double));
  } else {
    double E[9];
    spu_expso3(E, y);
    spu_mulmm3(w->xs.R0, s->x->R0, E);
  }
  for (int k = 0; k < 3; k++) {
    w->xs.r0[k] = s->x->r0[k] + y[3 + k];
  }
  for (int i = 1; i < m->nb; i++) {
    if (m->jnt_nq[i] > 0) {
      int a = m->jnt_qadr[i];
      spart_joint_integrate(m, i, s->x->qm + a, y + 6 + (m->jnt_nv[i] ? m->jnt_vadr[i] : 0),
                            w->xs.qm + a);
    }
  }
  for (int k = 0; k < 6; k++) {
    w->xs.u0[k] = s->x->u0[k] + y[6 + nv + k];
  }
  for (int k = 0; k < nv; k++) {
    w->xs.um[k] = s->x->um[k] + y[12 + nv + k];
  }
  for (int k = 0; k < w->nz; k++) {
    w->z[k] = s->z[k] + y[w->nyb + k];
  }
}


/* the joint limits' forces at the stage's state x added to its joint forces (in w->lim_tau,
   x->taum then pointing there, when a joint is past a limit and its spring or damper pushes);
   with D (n x n, NULL: not), for the implicit step of h instead: each one that pushes, its
   damper and its spring taken implicitly, c + h k on D's diagonal at row off + its dof, and
   -h^2 k v added to b there */
static void limit_forces(const spart_model *m, spart_sim *s, sim_ws *w, spart_state *x,
                         double *D, int off, double h) {
  const double *k = s->limit_k, *c = s->limit_c;
  double *tau = NULL;
  for (int i = 1; i < m->nb && !m->coupled; i++) {
    if (!(k[i] > 0 || c[i] > 0) || !m->jnt_limited[i] || m->jnt_nq[i] != 1) {
      continue;
    }
    const int v = m->jnt_vadr[i];
    const double q = x->qm[m->jnt_qadr[i]], u = x->um ? x->um[v] : 0, *r = m->jnt_range + 2 * i;
    double f;
    if (q > r[1]) {
      f = -fmax(0, k[i] * (q - r[1]) + c[i] * u);
    } else if (q < r[0]) {
      f = fmax(0, k[i] * (r[0] - q) - c[i] * u);
    } else if (D && (q + h * u > r[1] || q + h * u < r[0])) {
      /* the implicit step: a joint inside that would pass the limit within the step meets it
         there, the spring at the step's end k (q + h u+ - r) and the damper at u+: its force
         at u, -k (q - r) - (c + h k) u, on the right side (h of it) */
      const double lim = q + h * u > r[1] ? r[1] : r[0];
      s->limit_seen[i] = 1;
      D[(off + v) * (w->nv + off + 1)] += c[i] + h * k[i];
      w->b[off + v] -= h * (k[i] * (q - lim) + (c[i] + h * k[i]) * u);
      continue;
    } else {
      continue;
    }
    s->limit_seen[i] = 1;
    if (f == 0) {
      continue;
    }
    if (D) {
      D[(off + v) * (w->nv + off + 1)] += c[i] + h * k[i];
      w->b[off + v] -= h * h * k[i] * u;
      continue;
    }
    if (!tau) {
      tau = w->lim_tau;
      memcpy(tau, x->taum, (size_t)w->nv * sizeof(double));
      x->taum = tau;
    }
    tau[v] += f;
  }
}


/* the rate k (ny) of the local coordinates y: the state's velocities mapped to y's, its
   accelerations and the scene state's rates (taken from the kept ones at y = 0 when they are
   valid).  0 or -SPART_ENUM. */
static int rate(const spart_model *m, spart_data *d, spart_sim *s, sim_ws *w, const double *y,
                double *k, int at_start, spart_err *err) {
  const int nv = w->nv;
  state_at(m, s, w, y);
  if (at_start && acc_valid(s, w)) {
    memcpy(k + 6 + nv, w->acc, (size_t)(6 + nv) * sizeof(double));
    memcpy(k + w->nyb, w->acc + 6 + nv, (size_t)w->nz * sizeof(double));
  } else {
    spart_state *x = &w->xs; /* the stage's state, at the forces held */
    x->tau0 = s->x->tau0;
    x->taum = s->x->taum;
    x->wF = s->x->wF;
    s->nfd++;
    int flags = s->flags;
    if (s->scene && spart_scene_forces(m, d, s->scene, w->tc, x, w->z, k + w->nyb, err) != 0) {
      return -SPART_ENUM;
    }
    limit_forces(m, s, w, x, NULL, 0, 0);
    if ((flags & SPART_FD_FRICTION) && s->coulomb_v > 0) { /* the smoothed law: its forces here */
      double *f = w->stab_tau;
      memcpy(f, x->taum, (size_t)nv * sizeof(double));
      spart_friction_smooth(m, x->um, -1, s->coulomb_v, f);
      x->taum = f;
      flags &= ~SPART_FD_FRICTION;
    }
    int rc = spart_forward_dynamics(m, d, x, flags, s->gravity, k + 6 + nv);
    /* spart_aba need not fail on a state that is not finite (a leaf's inertia does not depend
       on its joint's position): the state is looked at whatever it returns */
    const char *bad = not_finite(w);
    if (rc != 0 || bad) {
      if (bad) { /* not a singular inertia: what it was computed from had overflowed */
        char b0[32], b1[32];
        return spart_err_set(err, SPART_ENUM, 0, "t = %s: %s is not finite within the step to "
                             "t = %s", num(b0, s->t), bad, num(b1, w->t_end));
      }
      return singular(d, s->t, err);
    }
    if (at_start) {
      memcpy(w->acc, k + 6 + nv, (size_t)(6 + nv) * sizeof(double));
      memcpy(w->acc + 6 + nv, k + w->nyb, (size_t)w->nz * sizeof(double));
      key_keep(s, w);
    }
  }
  spu_dexpinv3(k, y, w->xs.u0);
  memcpy(k + 3, w->xs.u0 + 3, 3 * sizeof(double));
  for (int i = 1; i < m->nb; i++) {
    if (m->jnt_nv[i] > 0) {
      int a = m->jnt_vadr[i];
      spart_joint_local_rate(m, i, s->x->qm + m->jnt_qadr[i], y + 6 + a, w->xs.um + a, k + 6 + a);
    }
  }
  return 0;
}


/* the name of the state's part at y's index j */
static const char *part_name(int j, int nv) {
  return j < 3            ? "R0"
         : j < 6          ? "r0"
         : j < 6 + nv     ? "qm"
         : j < 12 + nv    ? "u0"
         : j < 12 + 2 * nv ? "um"
                          : "a contact's tangential deflection";
}


/* the state moved to the local coordinates y, at time t (the scene's state then released where
   a contact ended); 0, or -SPART_ENUM when a value is not finite (the state unchanged) */
static int commit(const spart_model *m, spart_data *d, spart_sim *s, sim_ws *w, const double *y,
                  double t, spart_err *err) {
  for (int j = 0; j < w->ny; j++) {
    if (!isfinite(y[j])) {
      char b0[32], b1[32];
      return spart_err_set(err, SPART_ENUM, 0, "t = %s: %s is not finite after the step from "
                           "t = %s", num(b0, t), part_name(j, w->nv), num(b1, s->t));
    }
  }
  state_at(m, s, w, y);
  if (!(s->flags & SPART_FD_FIXED)) {
    spu_orthonormalize3(w->xs.R0);
    memcpy(s->x->R0, w->xs.R0, 9 * sizeof(double));
  }
  memcpy(s->x->r0, w->xs.r0, 3 * sizeof(double));
  memcpy(s->x->qm, w->xs.qm, (size_t)w->nq * sizeof(double));
  memcpy(s->x->u0, w->xs.u0, 6 * sizeof(double));
  memcpy(s->x->um, w->xs.um, (size_t)w->nv * sizeof(double));
  if (w->nz > 0) {
    memcpy(s->z, w->z, (size_t)w->nz * sizeof(double));
    spart_scene_release(m, d, s->scene, s->x, s->z);
  }
  s->t = t;
  s->nstep++;
  return 0;
}


/* y = h sum_j a[j] k[j], j < n */
static void combine(double *y, const sim_ws *w, double h, const double *a, int n) {
  memset(y, 0, (size_t)w->ny * sizeof(double));
  for (int j = 0; j < n; j++) {
    if (a[j] != 0) {
      double c = h * a[j];
      const double *kj = w->k[j];
      for (int i = 0; i < w->ny; i++) {
        y[i] += c * kj[i];
      }
    }
  }
}


/* the classical Runge-Kutta method: one step of h = t_end - s->t */
static int rk4(const spart_model *m, spart_data *d, spart_sim *s, double t_end, spart_err *err) {
  static const double a[4][4] = {{0}, {0.5}, {0, 0.5}, {0, 0, 1}};
  static const double b[4] = {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6};
  static const double c[4] = {0, 0.5, 0.5, 1};
  sim_ws *w = s->ws_;
  double h = t_end - s->t;
  for (int i = 0; i < 4; i++) {
    w->tc = s->t + c[i] * h;
    combine(w->y, w, h, a[i], i);
    if (rate(m, d, s, w, w->y, w->k[i], i == 0, err) != 0) {
      return -SPART_ENUM;
    }
  }
  combine(w->yn, w, h, b, 4);
  w->acc_ok = 0;
  return commit(m, d, s, w, w->yn, t_end, err);
}


/* Dormand and Prince's 5(4) pair (Hairer, Norsett, Wanner, Solving ODEs I, table II.5.2): the
   fifth-order solution is the seventh stage, whose rate is the next step's first (FSAL) */
static const double dp_a[7][6] = {
    {0},
    {1.0 / 5},
    {3.0 / 40, 9.0 / 40},
    {44.0 / 45, -56.0 / 15, 32.0 / 9},
    {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
    {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656},
    {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84}};
/* the stages' times, fractions of the step */
static const double dp_c[7] = {0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1, 1};
/* the fifth-order weights minus the fourth-order ones */
static const double dp_e[7] = {71.0 / 57600,      0, -71.0 / 16695, 71.0 / 1920,
                               -17253.0 / 339200, 22.0 / 525, -1.0 / 40};


/* the scaled RMS norm of the error h sum e_j k_j: each coordinate against atol + rtol times
   its size (the velocities' values, the positions' moves over the step) */
static double dp_error(const spart_sim *s, sim_ws *w, double h) {
  const int nv = w->nv, ny = w->ny;
  double sum = 0;
  combine(w->y, w, h, dp_e, 7);
  for (int j = 0; j < ny; j++) {
    double size = fabs(w->yn[j]);
    if (j >= 6 + nv) { /* the velocities, the scene's state: their values */
      double u = j < 12 + nv  ? s->x->u0[j - 6 - nv]
                 : j < w->nyb ? s->x->um[j - 12 - nv]
                              : s->z[j - w->nyb];
      size = fmax(fabs(u), fabs(u + w->yn[j]));
    }
    double e = w->y[j] / (s->atol + s->rtol * size);
    sum += e * e;
  }
  return sqrt(sum / ny);
}


/* the message of DOPRI5 stopped after n steps short of t_end (spart_sim's max_steps) */
static int too_many_steps(const spart_sim *s, long n, double t_end, spart_err *err) {
  char b0[32], b1[32];
  const char *why = s->coulomb_v > 0 || !(s->flags & SPART_FD_FRICTION)
                        ? "the dynamics are too stiff for these tolerances"
                        : "a joint held by Coulomb friction, or too stiff dynamics";
  return spart_err_set(err, SPART_ENUM, 0,
                       "t = %s: dopri5 took %ld steps without reaching t = %s (its step is now "
                       "%.3g s): %s", num(b0, s->t), n, num(b1, t_end), s->h, why);
}


/* adaptive Dormand-Prince steps from s->t to t_end, the last one cut to end on it */
static int dopri5(const spart_model *m, spart_data *d, spart_sim *s, double t_end,
                  spart_err *err) {
  sim_ws *w = s->ws_;
  const int nv = w->nv;
  if (s->h <= 0) {
    s->h = fmin(1e-3, t_end - s->t);
  }
  for (long n = 0; s->t < t_end; n++) {
    double h = s->h, t0 = s->t;
    if (s->max_steps > 0 && n >= s->max_steps) {
      return too_many_steps(s, n, t_end, err);
    }
    int cut = h >= t_end - t0;
    if (cut || t0 + 1.01 * h >= t_end) { /* end on t_end, not just short of it */
      h = t_end - t0;
      cut = 1;
    }
    if (!(h > 1e-14 * fmax(1, fabs(t0)))) {
      char b[32];
      return spart_err_set(err, SPART_ENUM, 0,
                           "t = %s: the step fell to %g s: the dynamics are too stiff or not "
                           "smooth enough for rtol %g, atol %g", num(b, t0), h, s->rtol, s->atol);
    }
    for (int i = 0; i < 7; i++) {
      w->tc = t0 + dp_c[i] * h;
      combine(i < 6 ? w->y : w->yn, w, h, dp_a[i], i);
      if (rate(m, d, s, w, i < 6 ? w->y : w->yn, w->k[i], i == 0, err) != 0) {
        return -SPART_ENUM;
      }
    }
    double e = dp_error(s, w, h);
    double f = e > 0 ? 0.9 * pow(e, -0.2) : 5;
    if (!(e <= 1)) {
      s->nreject++;
      s->h = h * fmax(0.2, fmin(1, isfinite(f) ? f : 0.2));
      continue;
    }
    if (commit(m, d, s, w, w->yn, cut ? t_end : t0 + h, err) != 0) {
      return -SPART_ENUM;
    }
    /* the last stage's accelerations are those of the new state at the same forces */
    memcpy(w->acc, w->k[6] + 6 + nv, (size_t)(6 + nv) * sizeof(double));
    memcpy(w->acc + 6 + nv, w->k[6] + w->nyb, (size_t)w->nz * sizeof(double));
    key_keep(s, w);
    /* a step cut short to end on t_end does not shrink the next one */
    double next = h * fmin(5, fmax(0.2, f));
    s->h = cut ? fmax(s->h, next) : next;
  }
  return 0;
}


/* the implicit step's scratch for n = 6 + nv: 0, or -1 when out of memory */
static int implicit_scratch(const spart_model *m, sim_ws *w) {
  const size_t n = 6 + (size_t)m->nv;
  if (w->imp) {
    return 0;
  }
  double *p = w->imp =
      malloc((3 * n * n + 2 * n + 7 * (size_t)m->nv + 3 * n + 6 * (size_t)m->nb) * sizeof(double));
  if (!p) {
    return -1;
  }
  w->H = p, p += n * n;
  w->A = p, p += n * n;
  w->A0 = p, p += n * n;
  w->b0 = p, p += n;
  w->b = p, p += n;
  w->Jm = p, p += 6 * (size_t)m->nv;
  w->coul = p, p += m->nv;
  w->J = p, p += 3 * n;
  w->tv = p;
  return 0;
}


/* the implicit step's Coulomb friction of a joint within this of rest (rad/s, m/s): the force
   -F um / IMPLICIT_REST, a stiff damper (the joint held while the other forces on it stay
   within F, creeping at most IMPLICIT_REST) */
#define IMPLICIT_REST 1e-8


/* D (n x n, row-major, n = off + nv), the derivative of the forces with respect to the
   velocities [u0; um] (less), at the state (spart_fk's, spart_velocity's): the joints' damping,
   the controller's (H, spart_crba's), the ground's dampers, J' C J at each contact (the
   limits': limit_forces; the discontinuous Coulomb friction's: coulomb()) */
static void damping(const spart_model *m, spart_data *d, spart_sim *s, sim_ws *w, int off,
                    double *D) {
  const int n = off + w->nv;
  const spart_control *c = s->scene ? s->scene->control : NULL;
  const spart_ground *g = s->scene ? s->scene->ground : NULL;
  /* the joints' friction (computed torque cancels it): the viscous damping, and the smoothed
     Coulomb law's slope (the discontinuous law's: coulomb()) */
  if ((s->flags & SPART_FD_FRICTION) && !(c && c->law == SPART_CONTROL_CTC)) {
    for (int a = 0; a < w->nv; a++) {
      const int i = m->dof_body[a];
      const double u = s->x->um[a], *F = m->jnt_friction + 2 * i;
      double slope = 0;
      if (s->coulomb_v > 0) {
        double th = tanh(u / s->coulomb_v);
        slope = (u >= 0 ? F[0] : -F[1]) * (1 - th * th) / s->coulomb_v;
      }
      D[(off + a) * (n + 1)] += m->jnt_damping[i] + slope;
    }
  }
  if (c) {
    spart_control_damping(m, c, w->H, n, off, D);
  }

  /* the ground: J' C J, J the contact point's velocity rows */
  for (int j = 0; g && j < g->n; j++) {
    spart_ground_at at;
    double J0[36], *J = w->J, CJ[3];
    if (!spart_ground_contact(m, d, g, j, s->z && s->nz ? s->z : NULL, &at)) {
      continue;
    }
    spart_jacobian(m, d, g->body[j], at.x, J0, w->Jm);
    for (int r = 0; r < 3; r++) {
      for (int k = 0; k < n; k++) {
        J[r * n + k] = k < off ? J0[6 * (3 + r) + k] : w->Jm[(3 + r) * w->nv + k - off];
      }
    }
    for (int b = 0; b < n; b++) {
      for (int r = 0; r < 3; r++) {
        CJ[r] = at.C[3 * r] * J[b] + at.C[3 * r + 1] * J[n + b] + at.C[3 * r + 2] * J[2 * n + b];
      }
      if (CJ[0] == 0 && CJ[1] == 0 && CJ[2] == 0) {
        continue;
      }
      for (int a = 0; a < n; a++) {
        D[a * n + b] += J[a] * CJ[0] + J[n + a] * CJ[1] + J[2 * n + a] * CJ[2];
      }
    }
  }
}


/* (H + h D) dv = b solved (w->A, w->b, n = off + nv; both overwritten, dv in w->b) with the
   joints' discontinuous Coulomb friction F taken implicitly where it must be: a joint within
   IMPLICIT_REST of rest gets the force -F um / IMPLICIT_REST (for the law's, spart_friction's,
   in b) and the damper F / IMPLICIT_REST; one whose velocity crosses zero in the step with the
   force -F sign(um) explicit (which would turn it back the next step: it chatters) the secant
   F / |um|, its force at the step's end -F um+ / |um|; solved again until no other crosses
   (each joint at most once).  0, or -1 when H + h D is singular */
static int coulomb(const spart_model *m, spart_sim *s, sim_ws *w, int off, double h) {
  const int nv = w->nv, n = off + nv;
  const spart_control *c = s->scene ? s->scene->control : NULL;
  if (!(s->flags & SPART_FD_FRICTION) || s->coulomb_v > 0 ||
      (c && c->law == SPART_CONTROL_CTC)) {
    return spu_lusolve(w->A, w->b, n, 1);
  }
  memcpy(w->A0, w->A, (size_t)n * (size_t)n * sizeof(double));
  for (int k = 0; k < nv; k++) {
    const double u = s->x->um[k], *F = m->jnt_friction + 2 * m->dof_body[k];
    w->coul[k] = fabs(u) < IMPLICIT_REST;
    if (w->coul[k]) {
      double law = F[0] * (u > 0) + F[1] * (u < 0);
      w->b[off + k] += h * (law - (u > 0 ? F[0] : u < 0 ? -F[1] : 0) * u / IMPLICIT_REST);
    }
  }
  memcpy(w->b0, w->b, (size_t)n * sizeof(double));
  for (int more = 1, pass = 0; more && pass <= nv; pass++) {
    if (pass > 0) {
      memcpy(w->A, w->A0, (size_t)n * (size_t)n * sizeof(double));
      memcpy(w->b, w->b0, (size_t)n * sizeof(double));
    }
    for (int k = 0; k < nv; k++) {
      if (w->coul[k]) {
        const double u = s->x->um[k], *F = m->jnt_friction + 2 * m->dof_body[k];
        double f = u > 0 ? F[0] : u < 0 ? -F[1] : fmax(F[0], -F[1]);
        w->A[(off + k) * (n + 1)] += h * f / fmax(fabs(u), IMPLICIT_REST);
      }
    }
    if (spu_lusolve(w->A, w->b, n, 1) != 0) {
      return -1;
    }
    more = 0;
    for (int k = 0; k < nv; k++) {
      const double u = s->x->um[k];
      const double *F = m->jnt_friction + 2 * m->dof_body[k];
      if (!w->coul[k] && (F[0] != 0 || F[1] != 0) && (u > 0) != (u + w->b[off + k] > 0)) {
        w->coul[k] = 1;
        more = 1;
      }
    }
  }
  return 0;
}


/* one implicit step of h = t_end - s->t (spart_sim_step): the accelerations a at the state,
   (H + h D) dv = h H a, the state moved to y = h [omega0+; r0dot+; the joints' local rates at
   um+], v + dv, and the deflections by h times their rates at v+ */
static int implicit(const spart_model *m, spart_data *d, spart_sim *s, double t_end,
                    spart_err *err) {
  sim_ws *w = s->ws_;
  const int nv = w->nv, fixed = (s->flags & SPART_FD_FIXED) != 0, off = fixed ? 0 : 6;
  const int n = off + nv;
  const double h = t_end - s->t;
  if (m->coupled) {
    return spart_err_set(err, SPART_ENUM, 0, "the implicit step does not take coupled mimic "
                         "joints: use rk4 or dopri5");
  }
  if (implicit_scratch(m, w) != 0) {
    return spart_err_set(err, SPART_ENOMEM, 0, "out of memory");
  }
  /* the accelerations at the state, with the world's forces, once */
  w->tc = s->t;
  memset(w->y, 0, (size_t)w->ny * sizeof(double));
  if (rate(m, d, s, w, w->y, w->k[0], 1, err) != 0) {
    return -SPART_ENUM;
  }
  const double *a = w->k[0] + 6 + nv + (6 - off);
  /* H + h D, and h H a */
  double *H = w->H, *A = w->A, *dv = w->b;
  spart_crba(m, d, s->x, fixed, H);
  spart_fk(m, d, s->x);
  spart_velocity(m, d, s->x);
  memcpy(w->tv, d->t, 6 * (size_t)m->nb * sizeof(double));
  memset(A, 0, (size_t)n * (size_t)n * sizeof(double));
  damping(m, d, s, w, off, A);
  for (int i = 0; i < n; i++) {
    double sum = 0;
    for (int j = 0; j < n; j++) {
      sum += H[i * n + j] * a[j];
    }
    dv[i] = h * sum;
  }
  /* the limits' dampers and springs (-h^2 k v into dv) */
  limit_forces(m, s, w, s->x, A, off, h);
  for (int k = 0; k < n * n; k++) {
    A[k] = H[k] + h * A[k];
  }
  if (coulomb(m, s, w, off, h) != 0) {
    char b0[32];
    return spart_err_set(err, SPART_ENUM, 0, "t = %s: the implicit step's H + h D is singular",
                         num(b0, s->t));
  }
  /* the new velocities, and the local coordinates at the step's end */
  double *y = w->yn, *up = w->xs.u0, *ump = w->xs.um;
  memcpy(w->xs.qm, s->x->qm, (size_t)w->nq * sizeof(double));
  for (int k = 0; k < 6; k++) {
    up[k] = s->x->u0[k] + (fixed ? 0 : dv[k]);
    y[6 + nv + k] = fixed ? 0 : dv[k];
    y[k] = h * up[k]; /* dexp^-1(0) omega = omega */
  }
  for (int k = 0; k < nv; k++) {
    ump[k] = s->x->um[k] + dv[off + k];
    y[12 + nv + k] = dv[off + k];
  }
  for (int i = 1; i < m->nb; i++) {
    if (m->jnt_nv[i] > 0) {
      double zero[6] = {0};
      int va = m->jnt_vadr[i];
      spart_joint_local_rate(m, i, s->x->qm + m->jnt_qadr[i], zero, ump + va, y + 6 + va);
      for (int k = 0; k < m->jnt_nv[i]; k++) {
        y[6 + va + k] *= h;
      }
    }
  }
  /* the links' velocities at v+ (at the state's pose: spart_fk still in d, damping()'s), and
     the error estimate: each CoM moved h / 2 |v_i+ - v_i| further than the trapezoid's */
  spart_state *x = &w->xs;
  memcpy(x->R0, s->x->R0, 9 * sizeof(double));
  memcpy(x->r0, s->x->r0, 3 * sizeof(double));
  spart_velocity(m, d, x);
  double most = 0;
  for (int i = 0; i < m->nb; i++) {
    const double *v0 = w->tv + 6 * i + 3, *v1 = d->t + 6 * i + 3;
    double dx = v1[0] - v0[0], dy = v1[1] - v0[1], dz = v1[2] - v0[2];
    most = fmax(most, dx * dx + dy * dy + dz * dz);
  }
  s->err_pos += 0.5 * h * sqrt(most);
  /* the deflections: their rates at the state's pose, at v+, a sliding one's relaxation
     -kt e / ct implicit (backward Euler: the rate over 1 + h kt / ct) */
  if (w->nz > 0) {
    const spart_ground *g = s->scene->ground;
    const double relax = 1 + h * g->tstiffness / g->tdamping;
    for (int j = 0; j < g->n; j++) {
      spart_ground_at at;
      spart_ground_contact(m, d, g, j, s->z, &at);
      for (int k = 0; k < 3; k++) {
        y[w->nyb + 3 * j + k] = h * at.rate[k] / (at.slide ? relax : 1);
      }
    }
  }
  w->acc_ok = 0;
  return commit(m, d, s, w, y, t_end, err);
}


int spart_sim_step(const spart_model *m, spart_data *d, spart_sim *s, double t_end,
                   spart_err *err) {
  if (!(t_end > s->t)) {
    char b0[32], b1[32];
    return spart_err_set(err, SPART_ENUM, 0, "t = %s: the step ends at %s, not later",
                         num(b0, s->t), num(b1, t_end));
  }
  if (scene_fits(s, err) != 0) {
    return -SPART_ENUM;
  }
  ((sim_ws *)s->ws_)->t_end = t_end;
  return s->method == SPART_SIM_DOPRI5    ? dopri5(m, d, s, t_end, err)
         : s->method == SPART_SIM_IMPLICIT ? implicit(m, d, s, t_end, err)
                                           : rk4(m, d, s, t_end, err);
}


int spart_sim_accel(const spart_model *m, spart_data *d, spart_sim *s, spart_err *err) {
  sim_ws *w = s->ws_;
  const int nv = w->nv;
  if (scene_fits(s, err) != 0) {
    return -SPART_ENUM;
  }
  if (!acc_valid(s, w)) {
    w->t_end = s->t;
    w->tc = s->t;
    memset(w->y, 0, (size_t)w->ny * sizeof(double));
    if (rate(m, d, s, w, w->y, w->k[0], 1, err) != 0) {
      return -SPART_ENUM;
    }
  }
  memcpy(s->x->u0dot, w->acc, 6 * sizeof(double));
  memcpy(s->x->umdot, w->acc + 6, (size_t)nv * sizeof(double));
  return 0;
}


int spart_sim_limit_defaults(const spart_model *m, spart_data *d, spart_sim *s) {
  const int fixed = (s->flags & SPART_FD_FIXED) != 0, n = (fixed ? 0 : 6) + m->nv;
  const double w = SPART_LIMIT_RATE;
  const size_t nn = (size_t)n * (size_t)n;
  double *H = m->coupled ? NULL : malloc((3 * nn + 1) * sizeof(double));
  if (!H && !m->coupled) {
    return -SPART_ENOMEM;
  }
  /* each joint's inertia with the rest of the robot free, 1 / (H^-1)jj (Hjj, the rest held,
     when H is singular) */
  int inv = 0;
  if (H) {
    spart_crba(m, d, s->x, fixed, H);
    inv = spart_spd_inverse(H, n, H + nn, H + 2 * nn) == 0;
  }
  for (int i = 0; i < m->nb; i++) {
    double Hjj = 0;
    if (i > 0 && m->jnt_limited[i] && m->jnt_nq[i] == 1 && !m->coupled) {
      int a = (fixed ? 0 : 6) + m->jnt_vadr[i];
      Hjj = inv && H[2 * nn + (size_t)a * (size_t)(n + 1)] > 0
                ? 1 / H[2 * nn + (size_t)a * (size_t)(n + 1)]
                : H[a * (n + 1)];
    }
    s->limit_k[i] = Hjj * w * w;
    s->limit_c[i] = 2 * Hjj * w;
  }
  free(H);
  ((sim_ws *)s->ws_)->acc_ok = 0;
  return 0;
}


int spart_sim_limits(const spart_model *m, const double *qm, int *outside) {
  int n = 0;
  for (int i = 1; i < m->nb; i++) {
    int out = 0;
    if (m->jnt_limited[i] && m->jnt_nq[i] == 1) {
      double q = qm[m->jnt_qadr[i]], *r = m->jnt_range + 2 * i;
      out = q < r[0] || q > r[1];
    }
    outside[i] = out ? (outside[i] ? 1 : 2) : 0;
    n += outside[i] == 2;
  }
  return n;
}


long spart_sim_grid_steps(double T, double h) {
  return (long)ceil(T / h * (1 - 1e-12));
}


double spart_sim_grid_time(double T, double h, long k, long n) {
  double per_s = round(1 / h);
  if (k >= n) {
    return T;
  }
  return fabs(per_s * h - 1) < 1e-15 ? (double)k / per_s : (double)k * h;
}
