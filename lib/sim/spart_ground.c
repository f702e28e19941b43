/* spart_ground.c -- compliant contact of a model's contact spheres with a ground plane: a
 * spring-damper normal force that never pulls, and Coulomb friction either with stiction (an
 * elasto-plastic tangential spring and damper at each sphere whose deflection is a state: it
 * sticks while the spring's force is inside the friction cone and slides at Coulomb's force
 * on its edge, as Featherstone's compliant ground model, Rigid Body Dynamics Algorithms, 11.8)
 * or regularised at low slip speed (no state, no stiction) (a penalty method, as Klampt's;
 * MuJoCo's soft contacts are constraints made soft, solved for at each step instead) */
#include <math.h>
#include <string.h>

#include "spart.h"
#include "spart_sim.h"
#include "spart_internal.h"
#include "spu.h"

#define PI 3.14159265358979323846


/* sphere j's centre from r0 (x) and its depth in the ground; needs spart_fk */
static double depth(const spart_model *m, const spart_data *d, const spart_ground *g, int j,
                    double x[3]) {
  spart_link_point(m, d, g->body[j], g->centre + 3 * j, x);
  double h = -g->offset;
  for (int k = 0; k < 3; k++) {
    h += g->normal[k] * (d->r0[k] + x[k]);
  }
  return g->radius[j] - h;
}


double spart_ground_point(const spart_model *m, const spart_data *d, const spart_ground *g, int j,
                          double p[3]) {
  double delta = depth(m, d, g, j, p);
  for (int k = 0; k < 3; k++) {
    p[k] -= g->radius[j] * g->normal[k];
  }
  return delta;
}


/* P - u u' added to C (3x3) times a, P = 1 - n n' the projection on the plane (u NULL: 0) */
static void plane_damper(double *C, double a, const double n[3], const double *u) {
  for (int r = 0; r < 3; r++) {
    for (int k = 0; k < 3; k++) {
      C[3 * r + k] += a * ((r == k) - n[r] * n[k] - (u ? u[r] * u[k] : 0));
    }
  }
}


/* a u n' added to C (3x3) */
static void friction_rate(double *C, double a, const double u[3], const double n[3]) {
  for (int r = 0; r < 3; r++) {
    for (int k = 0; k < 3; k++) {
      C[3 * r + k] += a * u[r] * n[k];
    }
  }
}


/* the friction of sphere j (SPART_GROUND_STICK): its force ft (3) from its deflection e (3,
   NULL: 0), the slip velocity vt and the normal force fn, and the deflection's rate (3); C
   (3x3, NULL: not) gets -d ft / d v added, v the point's velocity, cn = -d fn / d vn */
static int stick_slip(const spart_ground *g, const double *e, const double vt[3], double fn,
                      double cn, double ft[3], double rate[3], double *C) {
  const double kt = g->tstiffness, ct = g->tdamping, lim = g->mu * fn;
  for (int k = 0; k < 3; k++) {
    ft[k] = -ct * vt[k] - (e ? kt * e[k] : 0);
  }
  double f2 = spu_dot3(ft, ft);
  if (f2 <= lim * lim) { /* sticking: the spring follows the material point */
    memcpy(rate, vt, 3 * sizeof(double));
    if (C) {
      plane_damper(C, ct, g->normal, NULL);
    }
    return 0;
  }
  /* sliding: Coulomb's force along the sticking one, and the deflection such that the spring
     and the damper give it */
  double s = lim / sqrt(f2);
  if (C) { /* its direction u turns with vt: the damper across it, ct lim / |fs|; its size
               mu fn with the normal velocity: mu cn u n' */
    double u[3];
    for (int k = 0; k < 3; k++) {
      u[k] = ft[k] / sqrt(f2);
    }
    plane_damper(C, ct * s, g->normal, u);
    friction_rate(C, g->mu * cn, u, g->normal);
  }
  for (int k = 0; k < 3; k++) {
    ft[k] *= s;
    rate[k] = -(ft[k] + (e ? kt * e[k] : 0)) / ct;
  }
  return 1;
}


int spart_ground_contact(const spart_model *m, const spart_data *d, const spart_ground *g, int j,
                         const double *defl, spart_ground_at *at) {
  const double *n = g->normal;
  double *f = at->f, *e_rate = at->rate, *C = at->C;
  double delta = spart_ground_point(m, d, g, j, at->x);
  memset(f, 0, 3 * sizeof(double));
  memset(e_rate, 0, 3 * sizeof(double));
  memset(C, 0, 9 * sizeof(double));
  at->slide = 0;
  if (!(delta > 0)) {
    return 0;
  }
  int i = g->body[j];
  if (g->seen) {
    g->seen[j] = 1;
  }
  const double *w = d->t + 6 * i, *v = d->t + 6 * i + 3, *c = d->xpos + 3 * i;
  /* the point deepest in the ground, from the body's CoM, and its velocity */
  double *p = at->p, vp[3], vt[3], ft[3];
  for (int k = 0; k < 3; k++) {
    p[k] = at->x[k] - c[k];
  }
  spu_cross(vp, w, p);
  for (int k = 0; k < 3; k++) {
    vp[k] += v[k];
  }
  double vn = spu_dot3(n, vp);
  /* the normal force, never pulling; the friction against the slip */
  double fn = fmax(0, g->stiffness * delta - g->damping * vn);
  for (int k = 0; k < 3; k++) {
    vt[k] = vp[k] - vn * n[k];
    for (int r = 0; fn > 0 && r < 3; r++) { /* the normal damper while it pushes */
      C[3 * r + k] += g->damping * n[r] * n[k];
    }
  }
  if (g->law == SPART_GROUND_SLIP) {
    double s = g->mu * fn / sqrt(spu_dot3(vt, vt) + g->slip * g->slip);
    for (int k = 0; k < 3; k++) {
      ft[k] = -s * vt[k];
    }
    /* -d ft / d v: s (P - vt vt' / (|vt|^2 + vs^2)) along the plane, -mu cn vt n' / S along
       the normal (fn's rate) */
    double u[3], S = sqrt(spu_dot3(vt, vt) + g->slip * g->slip);
    for (int k = 0; k < 3; k++) {
      u[k] = vt[k] / S;
    }
    plane_damper(C, s, n, u);
    friction_rate(C, -g->mu * (fn > 0 ? g->damping : 0), u, n);
  } else {
    at->slide = stick_slip(g, defl ? defl + 3 * j : NULL, vt, fn, fn > 0 ? g->damping : 0, ft,
                           e_rate, C);
  }
  for (int k = 0; k < 3; k++) {
    f[k] = fn * n[k] + ft[k] + 0.0; /* + 0: no -0 written */
  }
  return 1;
}


void spart_ground_forces(const spart_model *m, spart_data *d, const spart_ground *g,
                         const spart_state *st, const double *defl, const spart_ground_out *out) {
  double *wF = out->wF, *force = out->force, *rate = out->rate;
  spart_fk(m, d, st);
  spart_velocity(m, d, st);
  for (int j = 0; j < g->n; j++) {
    spart_ground_at at = {0};
    if (spart_ground_contact(m, d, g, j, defl, &at)) {
      /* its wrench at the body's CoM */
      int i = g->body[j];
      double tq[3];
      spu_cross(tq, at.p, at.f);
      for (int k = 0; wF && k < 3; k++) {
        wF[6 * i + k] += tq[k];
        wF[6 * i + 3 + k] += at.f[k];
      }
    }
    if (force) {
      memcpy(force + 3 * j, at.f, sizeof at.f);
    }
    if (rate) {
      memcpy(rate + 3 * j, at.rate, sizeof at.rate);
    }
  }
}


int spart_ground_nstate(const spart_ground *g) {
  return g->law == SPART_GROUND_SLIP ? 0 : 3 * g->n;
}


void spart_ground_release(const spart_model *m, spart_data *d, const spart_ground *g,
                          const spart_state *st, double *defl) {
  int any = 0;
  for (int k = 0; k < 3 * g->n && !any; k++) {
    any = defl[k] != 0;
  }
  if (!any) {
    return;
  }
  spart_fk(m, d, st);
  for (int j = 0; j < g->n; j++) {
    double x[3];
    if (!(depth(m, d, g, j, x) > 0)) {
      memset(defl + 3 * j, 0, 3 * sizeof(double));
    }
  }
}


double spart_ground_energy(const spart_model *m, spart_data *d, const spart_ground *g,
                           const spart_state *st, const double *defl) {
  double e = 0;
  spart_fk(m, d, st);
  for (int j = 0; j < g->n; j++) {
    double x[3], delta = depth(m, d, g, j, x);
    if (delta > 0) {
      e += g->stiffness * delta * delta / 2;
      if (defl && g->law != SPART_GROUND_SLIP) {
        e += g->tstiffness * spu_dot3(defl + 3 * j, defl + 3 * j) / 2;
      }
    }
  }
  return e;
}


/* the n spheres of radius r at the points p (n x 3) of shape s's frame, from index k when they
   fit (k + n <= most): their bodies, centres in the link frame, radii; n */
static int put_spheres(const spart_model *m, int s, const double *p, int n, double r, int *body,
                       double *centre, double *radius, int k, int most) {
  const double *R = m->shape_rot + 9 * s, *o = m->shape_pos + 3 * s;
  for (int j = 0; j < n && k + n <= most; j++) {
    body[k + j] = m->shape_body[s];
    spu_mulmv3(centre + 3 * (k + j), R, p + 3 * j);
    for (int a = 0; a < 3; a++) {
      centre[3 * (k + j) + a] += o[a];
    }
    radius[k + j] = r;
  }
  return n;
}


/* the contact spheres of one shape s: count, and when they fit (k + count <= most) their
   bodies, centres in the link frame and radii from index k */
static int shape_spheres(const spart_model *m, int s, int *body, double *centre, double *radius,
                         int k, int most) {
  const double *size = m->shape_size + 3 * s;
  double p[2 * SPART_GROUND_RIM][3], r = 0;
  int n = 0;
  switch (m->shape_kind[s]) {
    case SPART_SHAPE_SPHERE:
      p[n][0] = p[n][1] = p[n][2] = 0, n++;
      r = size[0];
      break;
    case SPART_SHAPE_CAPSULE:
      for (int e = -1; e <= 1; e += 2, n++) {
        p[n][0] = p[n][1] = 0, p[n][2] = e * size[1] / 2;
      }
      r = size[0];
      break;
    case SPART_SHAPE_BOX:
      for (int c = 0; c < 8; c++, n++) {
        for (int a = 0; a < 3; a++) {
          p[n][a] = (c >> a & 1 ? 0.5 : -0.5) * size[a];
        }
      }
      break;
    case SPART_SHAPE_CYLINDER:
      for (int e = -1; e <= 1; e += 2) {
        for (int c = 0; c < SPART_GROUND_RIM; c++, n++) {
          double a = 2 * PI * c / SPART_GROUND_RIM;
          p[n][0] = size[0] * cos(a), p[n][1] = size[0] * sin(a), p[n][2] = e * size[1] / 2;
        }
      }
      break;
    default: { /* a mesh: its hull's vertices (none when it was not read) */
      const double *h;
      n = spart_shape_hull(m, s, &h);
      return put_spheres(m, s, h, n, 0, body, centre, radius, k, most);
    }
  }
  return put_spheres(m, s, p[0], n, r, body, centre, radius, k, most);
}


int spart_ground_spheres(const spart_model *m, int *body, double *centre, double *radius,
                         int most) {
  int k = 0;
  for (int s = 0; s < m->nshape; s++) {
    if (m->shape_role[s] == SPART_SHAPE_COLLISION) {
      k += shape_spheres(m, s, body, centre, radius, k, most);
    }
  }
  return k;
}


/* u (3) = v / |v| through v's largest component (its squares neither overflow nor underflow);
   returns |v|, 0 when v is 0 (u then 0), not finite when v is not */
static double unit3(const double v[3], double u[3]) {
  double big = fmax(fabs(v[0]), fmax(fabs(v[1]), fabs(v[2]))), n2 = 0;
  if (!(big > 0) || !isfinite(big)) {
    u[0] = u[1] = u[2] = 0;
    return big > 0 ? big : 0 * big;
  }
  for (int k = 0; k < 3; k++) {
    u[k] = v[k] / big;
    n2 += u[k] * u[k];
  }
  double len = sqrt(n2); /* in [1, sqrt 3] */
  for (int k = 0; k < 3; k++) {
    u[k] /= len;
  }
  return big * len;
}


double spart_ground_plane(double p[4]) {
  double n = unit3(p, p);
  if (n > 0) {
    p[3] /= n;
  }
  return n;
}


int spart_ground_defaults(const spart_model *m, const double *gravity, spart_ground *g) {
  /* the plane: through 0 against gravity */
  double g0 = 9.81, down[3] = {0, 0, 0};
  if (gravity) {
    g0 = unit3(gravity, down);
  }
  if (isnan(g->normal[0])) {
    if (!(g0 > 0 && gravity)) {
      return -1;
    }
    for (int k = 0; k < 3; k++) {
      g->normal[k] = -down[k];
    }
    g->offset = 0;
  }
  /* the whole robot on four contacts 1 mm deep, and critically damped on one (an impact taken
     without rebound; rk4's step bounded by it on the lightest contact); mu 1; the tangential
     spring the normal one, its damper critical for the lightest body that has contacts */
  double mass = 0, light = INFINITY;
  for (int i = 0; i < m->nb; i++) {
    mass += m->body_mass[i];
  }
  for (int j = 0; j < g->n; j++) {
    double mb = m->body_mass[g->body[j]];
    light = mb > 0 && mb < light ? mb : light;
  }
  light = isfinite(light) ? light : mass;
  g->stiffness = isnan(g->stiffness) ? mass * (g0 > 0 ? g0 : 9.81) / 4e-3 : g->stiffness;
  g->damping = isnan(g->damping) ? 2 * sqrt(g->stiffness * mass) : g->damping;
  g->mu = isnan(g->mu) ? 1 : g->mu;
  g->tstiffness = isnan(g->tstiffness) ? g->stiffness : g->tstiffness;
  g->tdamping = isnan(g->tdamping) ? 2 * sqrt(g->tstiffness * light) : g->tdamping;
  return !(g->stiffness > 0) || !isfinite(g->damping) || !(g->tdamping > 0) ||
                 !isfinite(g->tdamping)
             ? -2
             : 0;
}
