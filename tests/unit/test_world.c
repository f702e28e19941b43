/* test_world.c -- a simulation's world (lib/sim/spart_control.c, lib/sim/spart_ground.c) and
 * the joints' local coordinates they use, by values computed here:
 *  - spart_joint_difference inverts spart_joint_integrate for every kind of the models given
 *  - the reference: a cubic's records with their rates give the cubic back between them
 *    (Hermite), without rates the straight line, outside the records the nearest
 *  - the ground: a sphere's normal force, friction and wrench in closed form, never pulling;
 *    the stick-slip friction sticking, sliding, rolling, released; the contact spheres of a
 *    box, a cylinder, a capsule and a sphere; a box thrown onto it, sliding and spinning,
 *    stops, its energy (the tangential springs' with it) never growing; spart-sim's defaults
 *    of the ground's parameters (spart_ground_defaults) in closed form
 *
 * usage: test_world MODEL.urdf... (models with every joint kind: tests/data/joints)
 * prints one line per check, then "N passed, N failed"
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_sim.h"

static int npass, nfail;


static void check(int ok, const char *what, const char *name) {
  printf("%s %s%s%s\n", ok ? "ok" : "FAIL", name ? name : "", name ? ": " : "", what);
  ok ? npass++ : nfail++;
}


/* a number in [-1, 1) from a fixed sequence */
static double rnd(unsigned *s) {
  *s = *s * 1103515245u + 12345u;
  return (double)(*s >> 8) / (double)(1u << 23) - 1;
}


/* every joint: xi of the configuration integrate(q, xi) around q is xi again */
static void difference(const char *path) {
  spart_err err = {0};
  spart_model *m = spart_model_load(path, &err);
  if (!m) {
    check(0, err.msg, path);
    return;
  }
  unsigned seed = 7;
  double worst = 0;
  for (int i = 1; i < m->nb; i++) {
    int nq = m->jnt_nq[i], nv = m->jnt_nv[i];
    for (int trial = 0; trial < 50 && nv > 0; trial++) {
      double q[7] = {0}, r[7], xi[6], back[6];
      for (int k = 0; k < nq; k++) {
        q[k] = rnd(&seed);
      }
      if (nq == 4 || nq == 7) { /* a unit quaternion */
        double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        for (int k = 0; k < 4; k++) {
          q[k] /= n;
        }
      }
      for (int k = 0; k < nv; k++) {
        xi[k] = 1.5 * rnd(&seed); /* within a turn of pi: the shorter way is xi's */
      }
      spart_joint_integrate(m, i, q, xi, r);
      spart_joint_difference(m, i, q, r, back);
      for (int k = 0; k < nv; k++) {
        worst = fmax(worst, fabs(back[k] - xi[k]));
      }
    }
  }
  check(worst < 1e-12, "difference(q, integrate(q, xi)) = xi, every joint", path);
  spart_model_free(m);
}


/* a one-joint arm (a revolute joint) for the reference */
static const char *arm =
    "<robot name=\"arm\"><link name=\"b\"/><joint name=\"j\" type=\"continuous\"><parent "
    "link=\"b\"/><child link=\"l\"/><axis xyz=\"0 0 1\"/></joint><link name=\"l\"><inertial>"
    "<mass value=\"1\"/><inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/>"
    "</inertial></link></robot>";


static double cubic(double t) {
  return 0.3 - 0.5 * t + 0.7 * t * t - 0.4 * t * t * t;
}


static double cubic_rate(double t) {
  return -0.5 + 1.4 * t - 1.2 * t * t;
}


static void reference(void) {
  spart_err err = {0};
  spart_model *m = spart_urdf_parse(arm, strlen(arm), &err);
  if (!m) {
    check(0, err.msg, "arm");
    return;
  }
  double t[4] = {0, 0.3, 1.0, 1.2}, qm[4], um[4], q = 0, u = 0, a = 0; /* ref's */
  for (int k = 0; k < 4; k++) {
    qm[k] = cubic(t[k]);
    um[k] = cubic_rate(t[k]);
  }
  spart_reference r = {4, t, qm, um, NULL};
  spart_state ref = {.nb = m->nb, .nq = 1, .nv = 1, .qm = &q, .um = &u, .umdot = &a};
  int hint = 0;
  double worst = 0, worst_u = 0;
  for (double s = 0; s <= 1.2; s += 0.01) {
    spart_reference_at(m, &r, s, &hint, &ref);
    worst = fmax(worst, fabs(q - cubic(s)));
    /* um: linear between the records' */
    int k = s < 0.3 ? 0 : s < 1 ? 1 : 2;
    double lin = um[k] + (s - t[k]) / (t[k + 1] - t[k]) * (um[k + 1] - um[k]);
    worst_u = fmax(worst_u, fabs(u - (s >= 1.2 ? um[3] : lin)));
  }
  check(worst < 1e-14, "with um: a cubic's records give the cubic back (Hermite)", NULL);
  check(worst_u < 1e-14, "um linear between the records", NULL);
  spart_reference_at(m, &r, 0.65, &hint, &ref);
  check(fabs(a - (um[2] - um[1]) / 0.7) < 1e-14, "umdot: the rate of the linear um", NULL);
  /* without um: the straight line at its rate */
  r.um = NULL;
  spart_reference_at(m, &r, 0.5, &hint, &ref);
  double want = qm[1] + (0.5 - 0.3) / 0.7 * (qm[2] - qm[1]);
  check(fabs(q - want) < 1e-15 && fabs(u - (qm[2] - qm[1]) / 0.7) < 1e-14 && a == 0,
        "without um: the straight line, at its rate, umdot 0", NULL);
  /* outside: the nearest record as it is */
  r.um = um;
  spart_reference_at(m, &r, -1, &hint, &ref);
  check(q == qm[0] && u == um[0], "before the first record: the first", NULL);
  spart_reference_at(m, &r, 5, &hint, &ref);
  check(q == qm[3] && u == um[3], "after the last: the last", NULL);
  r.n = 1;
  spart_reference_at(m, &r, 0.5, &hint, &ref);
  check(q == qm[0] && u == um[0], "one record: held", NULL);
  spart_model_free(m);
}


/* a 2 kg sphere of radius 0.1 and the shapes that give contact spheres */
static const char *ball =
    "<robot name=\"ball\"><link name=\"b\"><inertial><mass value=\"2\"/><inertia ixx=\"0.008\" "
    "iyy=\"0.008\" izz=\"0.008\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial><collision><geometry>"
    "<sphere radius=\"0.1\"/></geometry></collision></link></robot>";
static const char *shapes =
    "<robot name=\"shapes\"><link name=\"b\"><inertial><mass value=\"2\"/><inertia ixx=\"1\" "
    "iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>"
    "<collision><origin xyz=\"1 0 0\"/><geometry><box size=\"0.2 0.4 0.6\"/></geometry>"
    "</collision><collision><geometry><cylinder radius=\"0.1\" length=\"0.5\"/></geometry>"
    "</collision><collision><origin xyz=\"0 0 0\" rpy=\"1.5707963267948966 0 0\"/><geometry>"
    "<capsule radius=\"0.05\" length=\"0.3\"/></geometry></collision><visual><geometry><sphere "
    "radius=\"1\"/></geometry></visual></link></robot>";


static void ground(void) {
  spart_err err = {0};
  spart_model *m = spart_urdf_parse(ball, strlen(ball), &err);
  spart_model *s = spart_urdf_parse(shapes, strlen(shapes), &err);
  if (!m || !s) {
    check(0, err.msg, "ground");
    spart_model_free(m);
    return;
  }
  spart_data *d = spart_data_new(m);
  int body[32];
  double centre[96], radius[32];
  int n = spart_ground_spheres(m, body, centre, radius, 32);
  check(n == 1 && body[0] == 0 && radius[0] == 0.1 && centre[2] == 0, "a sphere: itself", NULL);
  spart_ground g = {{0, 0, 1}, 0, 1000, 50, 0.8, SPART_GROUND_SLIP, 0.01, 0, 0, n, body, centre,
                    radius, NULL, 0};
  /* 5 mm deep, moving down at 0.1 m/s and along x at 0.3 m/s, turning about y at 2 rad/s: the
     lowest point moves along x at 0.3 - 2 * 0.1 (omega x (0, 0, -0.1)) */
  double u0[6] = {0, 2, 0, 0.3, 0, -0.1};
  double wF[6] = {0}, f[3], rt[3];
  spart_state x = {.nb = m->nb, .r0 = {0, 0, 0.095}, .u0 = u0}; /* a body without joints */
  x.R0[0] = x.R0[4] = x.R0[8] = 1;
  const spart_ground_out out = {wF, f, NULL}, outr = {wF, f, rt};
  spart_ground_forces(m, d, &g, &x, NULL, &out);
  double fn = 1000 * 0.005 + 50 * 0.1, vt = 0.3 - 0.2;
  double ft = -0.8 * fn * vt / sqrt(vt * vt + 0.01 * 0.01);
  check(fabs(f[2] - fn) < 1e-12 && fabs(f[0] - ft) < 1e-12 && f[1] == 0,
        "normal force k delta - c vn, friction -mu fn vt / sqrt(vt^2 + vs^2)", NULL);
  /* the wrench at the CoM: the force, and (0, 0, -0.1) x f */
  check(fabs(wF[3] - ft) < 1e-12 && fabs(wF[5] - fn) < 1e-12 && fabs(wF[1] - -0.1 * ft) < 1e-12 &&
            wF[0] == 0 && wF[2] == 0,
        "its wrench at the CoM: [p x f; f]", NULL);
  /* leaving fast: no pull */
  double up[6] = {0, 0, 0, 0, 0, 1};
  memset(wF, 0, sizeof wF);
  x.u0 = up;
  spart_ground_forces(m, d, &g, &x, NULL, &out);
  check(f[0] == 0 && f[1] == 0 && f[2] == 0 && wF[5] == 0, "never pulling", NULL);
  x.u0 = u0;
  double e = spart_ground_energy(m, d, &g, &x, NULL);
  check(fabs(e - 0.5 * 1000 * 0.005 * 0.005) < 1e-15, "the spring's energy k delta^2 / 2", NULL);
  check(spart_ground_nstate(&g) == 0, "the regularised friction: no state", NULL);
  /* stick-slip: kt 2000, ct 30, a deflection (1 mm, -0.5 mm, 0) */
  g.law = SPART_GROUND_STICK, g.tstiffness = 2000, g.tdamping = 30;
  check(spart_ground_nstate(&g) == 3, "stick-slip: a deflection a sphere", NULL);
  const double e0[3] = {1e-3, -5e-4, 0};
  /* sticking (mu 0.8 fn = 8 N): fs = -kt e - ct vt = (-2 - 3, 1, 0), |fs| = 5.1 */
  memset(wF, 0, sizeof wF);
  spart_ground_forces(m, d, &g, &x, e0, &outr);
  check(fabs(f[0] - (-2000 * 1e-3 - 30 * vt)) < 1e-12 && fabs(f[1] - 1) < 1e-12 &&
            fabs(f[2] - fn) < 1e-12 && fabs(rt[0] - vt) < 1e-15 && rt[1] == 0 && rt[2] == 0,
        "sticking: the spring and damper's force -kt e - ct vt, the deflection moving at vt", NULL);
  /* sliding (mu 0.3: 3 N < 5.1 N): Coulomb's force along fs, the rate that gives it */
  g.mu = 0.3;
  spart_ground_forces(m, d, &g, &x, e0, &outr);
  double fs = sqrt(5 * 5 + 1), ft0 = 3 * -5 / fs, ft1 = 3 * 1 / fs;
  check(fabs(f[0] - ft0) < 1e-12 && fabs(f[1] - ft1) < 1e-12 &&
            fabs(rt[0] - -(ft0 + 2000 * 1e-3) / 30) < 1e-12 &&
            fabs(rt[1] - -(ft1 + 2000 * -5e-4) / 30) < 1e-12 &&
            fabs(hypot(f[0], f[1]) - 0.3 * fn) < 1e-12,
        "sliding: MU fn along -kt e - ct vt, e' = -(ft + kt e) / ct", NULL);
  /* rolling (the lowest point still: 0.3 - 3 * 0.1 = 0): no deflection builds */
  double roll[6] = {0, 3, 0, 0.3, 0, 0};
  x.u0 = roll;
  spart_ground_forces(m, d, &g, &x, NULL, &outr);
  check(fabs(rt[0]) < 1e-15 && fabs(rt[1]) < 1e-15 && fabs(f[0]) < 1e-12 && fabs(f[1]) < 1e-12,
        "rolling: the contact point does not slip, no deflection builds", NULL);
  e = spart_ground_energy(m, d, &g, &x, e0);
  check(fabs(e - 0.5 * 1000 * 0.005 * 0.005 - 0.5 * 2000 * 1.25e-6) < 1e-15,
        "the springs' energy k delta^2 / 2 + kt |e|^2 / 2", NULL);
  /* out of the ground: the deflection released; in it, kept */
  double ek[3] = {1e-3, 2e-3, 0};
  spart_ground_release(m, d, &g, &x, ek);
  check(ek[0] == 1e-3 && ek[1] == 2e-3, "in the ground: the deflection kept", NULL);
  x.r0[2] = 0.2;
  spart_ground_release(m, d, &g, &x, ek);
  check(ek[0] == 0 && ek[1] == 0 && ek[2] == 0, "out of the ground: the deflection released", NULL);
  /* the contact spheres of the other shapes (the visual sphere has none) */
  n = spart_ground_spheres(s, body, centre, radius, 32);
  check(n == 8 + 2 * SPART_GROUND_RIM + 2,
        "a box's 8 corners, a cylinder's 2 rims, a capsule's 2 ends", NULL);
  int box = 1, rim = 1;
  for (int k = 0; k < 8; k++) {
    const double *c = centre + 3 * k;
    box &= fabs(fabs(c[0] - 1) - 0.1) < 1e-15 && fabs(fabs(c[1]) - 0.2) < 1e-15 &&
           fabs(fabs(c[2]) - 0.3) < 1e-15 && radius[k] == 0;
  }
  for (int k = 8; k < 8 + 2 * SPART_GROUND_RIM; k++) {
    const double *c = centre + 3 * k;
    rim &= fabs(hypot(c[0], c[1]) - 0.1) < 1e-15 && fabs(fabs(c[2]) - 0.25) < 1e-15;
  }
  const double *c1 = centre + 3 * (n - 2), *c2 = centre + 3 * (n - 1);
  check(box, "the box's corners, at its origin", NULL);
  check(rim, "the cylinder's rims", NULL);
  check(fabs(c1[1] + c2[1]) < 1e-15 && fabs(fabs(c1[1]) - 0.15) < 1e-15 && fabs(c1[2]) < 1e-15 &&
            radius[n - 1] == 0.05,
        "the capsule's ends, turned by its frame", NULL);
  check(spart_ground_spheres(s, body, centre, radius, 4) == n, "too little room: the count", NULL);
  spart_data_free(d);
  spart_model_free(m);
  spart_model_free(s);
}


/* a base of 3 kg with a box, a link of 0.5 kg with a sphere, a lighter one (0.2 kg) with no
   collision shape; a link with a box and no mass */
static const char *legs =
    "<robot name=\"legs\"><link name=\"base\"><inertial><mass value=\"3\"/><inertia ixx=\"1\" "
    "iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial><collision><geometry><box "
    "size=\"0.2 0.2 0.2\"/></geometry></collision></link><link name=\"foot\"><inertial><mass "
    "value=\"0.5\"/><inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.01\" ixy=\"0\" ixz=\"0\" "
    "iyz=\"0\"/></inertial><collision><geometry><sphere radius=\"0.05\"/></geometry></collision>"
    "</link><link name=\"tail\"><inertial><mass value=\"0.2\"/><inertia ixx=\"0.01\" "
    "iyy=\"0.01\" izz=\"0.01\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>"
    "<joint name=\"knee\" type=\"revolute\"><parent link=\"base\"/><child link=\"foot\"/>"
    "<origin xyz=\"0 0 -0.3\"/><axis xyz=\"0 1 0\"/><limit lower=\"-1\" upper=\"1\" effort=\"10\" "
    "velocity=\"1\"/></joint><joint name=\"wag\" type=\"revolute\"><parent link=\"base\"/>"
    "<child link=\"tail\"/><axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1\" effort=\"10\" "
    "velocity=\"1\"/></joint></robot>";
static const char *ghost =
    "<robot name=\"ghost\"><link name=\"b\"><collision><geometry><box size=\"0.2 0.2 0.2\"/>"
    "</geometry></collision></link></robot>";


/* a ground of model m's spheres (body: 32 at most), every parameter NaN (not given), law l */
static spart_ground unset(const spart_model *m, int *body, double *centre, double *radius,
                          int l) {
  spart_ground g = {{NAN, NAN, NAN}, NAN, NAN, NAN, NAN, l, NAN, NAN, NAN, 0, body, centre,
                    radius, NULL, 0};
  g.n = spart_ground_spheres(m, body, centre, radius, 32);
  return g;
}


/* spart_ground_defaults: spart-sim's defaults, each in closed form (spart-sim(1): the robot's
   weight on four contacts 1 mm deep, the whole robot critically damped on one, mu 1, the
   tangential spring the normal one, its damper critical for the lightest body with contacts on
   one), those given kept and the others from them; no
   plane without gravity; a model without mass refused; the plane made unit */
static void defaults(void) {
  spart_err err = {0};
  spart_model *m = spart_urdf_parse(legs, strlen(legs), &err);
  spart_model *z = m ? spart_urdf_parse(ghost, strlen(ghost), &err) : NULL;
  if (!m || !z) {
    check(0, err.msg, "ground defaults");
    spart_model_free(m);
    return;
  }
  int body[32];
  double centre[96], radius[32];
  const double down[3] = {0, 0, -9.81}, tilted[3] = {0, -3, -4}, none[3] = {0, 0, 0};
  const double M = 3 + 0.5 + 0.2, mc = 0.5; /* the lightest with contacts: the foot */
  const double k = M * 9.81 / 4e-3, c = 2 * sqrt(k * M), ct = 2 * sqrt(k * mc);
  spart_ground g = unset(m, body, centre, radius, SPART_GROUND_STICK);
  int r = spart_ground_defaults(m, down, &g);
  check(r == 0 && g.n == 9 && g.normal[0] == 0 && g.normal[1] == 0 && g.normal[2] == 1 &&
            g.offset == 0,
        "the plane through 0 against gravity", "ground defaults");
  check(g.stiffness == k && g.damping == c && g.mu == 1 && g.tstiffness == k &&
            g.tdamping == ct && g.law == SPART_GROUND_STICK && isnan(g.slip),
        "k = M |g| / 4 mm, c = 2 sqrt(k M), mu 1, kt = k, ct = 2 sqrt(k m) (m: the lightest "
        "body with contacts); law and slip left",
        "ground defaults");
  g = unset(m, body, centre, radius, SPART_GROUND_SLIP);
  r = spart_ground_defaults(m, tilted, &g);
  check(r == 0 && fabs(g.normal[1] - 0.6) < 1e-15 && fabs(g.normal[2] - 0.8) < 1e-15 &&
            g.normal[0] == 0 && fabs(g.stiffness - M * 5 / 4e-3) < 1e-9 &&
            g.law == SPART_GROUND_SLIP,
        "gravity (0, -3, -4): the normal (0, 0.6, 0.8), k = M 5 / 4 mm", "ground defaults");
  g = unset(m, body, centre, radius, SPART_GROUND_STICK);
  g.stiffness = 1000, g.tdamping = 7, g.mu = 0;
  g.normal[0] = 1, g.normal[1] = 0, g.normal[2] = 0, g.offset = 2;
  r = spart_ground_defaults(m, NULL, &g);
  check(r == 0 && g.normal[0] == 1 && g.offset == 2 && g.stiffness == 1000 &&
            g.damping == 2 * sqrt(1000 * M) && g.mu == 0 && g.tstiffness == 1000 &&
            g.tdamping == 7,
        "those given kept, the others from them (the plane, no gravity needed)",
        "ground defaults");
  g = unset(m, body, centre, radius, SPART_GROUND_STICK);
  check(spart_ground_defaults(m, NULL, &g) == -1 && isnan(g.stiffness) &&
            spart_ground_defaults(m, none, &g) == -1 && isnan(g.normal[0]),
        "no plane without gravity, or with a zero one: -1, nothing set", "ground defaults");
  g = unset(m, body, centre, radius, SPART_GROUND_STICK);
  g.normal[0] = 0, g.normal[1] = 0, g.normal[2] = 1, g.offset = 0;
  check(spart_ground_defaults(m, none, &g) == 0 && g.stiffness == M * 9.81 / 4e-3,
        "a plane given and a zero gravity: k of |g| 9.81", "ground defaults");
  g = unset(z, body, centre, radius, SPART_GROUND_STICK);
  check(spart_ground_defaults(z, down, &g) == -2, "a model without mass: -2",
        "ground defaults");
  g.stiffness = 1e4, g.damping = 10, g.tdamping = 5;
  check(spart_ground_defaults(z, down, &g) == 0, "... with k, c and ct given: 0",
        "ground defaults");
  double p[4] = {0, 0, 2, 4}, tiny[4] = {1e-300, 0, 0, 1e-300}, zero[4] = {0, 0, 0, 1};
  check(spart_ground_plane(p) == 2 && p[2] == 1 && p[3] == 2 && spart_ground_plane(tiny) > 0 &&
            tiny[0] == 1 && tiny[3] == 1 && spart_ground_plane(zero) == 0,
        "spart_ground_plane: n / |n|, d / |n| (|n| 1e-300 too), 0 for n = 0", "ground defaults");
  spart_model_free(m);
  spart_model_free(z);
}


/* a 1 kg box, a 0.2 m cube (its inertia m a^2 / 6 the same about every axis) */
static const char *box =
    "<robot name=\"box\"><link name=\"b\"><inertial><mass value=\"1\"/><inertia "
    "ixx=\"0.0066666666666666667\" iyy=\"0.0066666666666666667\" izz=\"0.0066666666666666667\" "
    "ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial><collision><geometry><box size=\"0.2 0.2 0.2\"/>"
    "</geometry></collision></link></robot>";


/* the box thrown onto the ground, sliding and spinning, stopped by the stick-slip friction:
   its energy (kinetic, potential, the normal and tangential springs') never grows from the
   first touch on, it comes to rest, and the deflections of the corners above the ground are
   0 */
static void throw_box(void) {
  spart_err err = {0};
  spart_model *m = spart_urdf_parse(box, strlen(box), &err);
  spart_data *d = m ? spart_data_new(m) : NULL;
  spart_sim *s = m ? spart_sim_new(m) : NULL;
  spart_scene *w = m ? spart_scene_new(m) : NULL;
  int body[8];
  double centre[24], radius[8];
  if (!m || !d || !s || !w || spart_ground_spheres(m, body, centre, radius, 8) != 8) {
    check(0, err.msg, "a box thrown");
    return;
  }
  const double k = 9.81 / 4e-3, c = 2 * sqrt(k), g[3] = {0, 0, -9.81};
  spart_ground gr = {{0, 0, 1}, 0, k, c, 0.5, SPART_GROUND_STICK, 0, k, c, 8, body, centre, radius,
                     NULL, 0};
  w->ground = &gr;
  check(spart_sim_set_scene(s, w) == 0 && s->nz == 24, "spart_sim_set_scene: 8 deflections",
        "a box thrown");
  const double u0[6] = {0, 0, 3, 1, 0.5, 0};
  s->x->r0[2] = 0.11;
  memcpy(s->x->u0, u0, sizeof u0);
  s->gravity = g;
  double last = 0, grow = 0;
  int touched = 0, ok = 1;
  for (int n = 1; n <= 20000 && ok; n++) {
    ok = spart_sim_step(m, d, s, n * 1e-4, &err) == 0;
    const double *v0 = s->x->u0;
    double e = 0.5 * (v0[3] * v0[3] + v0[4] * v0[4] + v0[5] * v0[5]) +
               0.5 / 150 * (v0[0] * v0[0] + v0[1] * v0[1] + v0[2] * v0[2]) +
               9.81 * s->x->r0[2] + spart_ground_energy(m, d, &gr, s->x, s->z);
    if (touched) {
      grow = fmax(grow, e - last);
    }
    touched |= s->x->r0[2] < 0.1;
    last = e;
  }
  double v = 0, top = 0;
  for (int j = 0; j < 6; j++) {
    v = fmax(v, fabs(s->x->u0[j]));
  }
  for (int j = 0; j < 8; j++) {
    top += centre[3 * j + 2] > 0 ? fabs(s->z[3 * j]) + fabs(s->z[3 * j + 1]) : 0;
  }
  printf("# the box's energy: its largest growth %g J, its speed at 2 s %g\n", grow, v);
  check(ok && touched && grow < 1e-9, "its energy never grows after it touches", "a box thrown");
  check(ok && v < 1e-6 && s->x->r0[2] < 0.1, "at rest on the ground at 2 s", "a box thrown");
  check(ok && top == 0, "the corners above the ground: no deflection", "a box thrown");
  spart_sim_free(s);
  spart_scene_free(w);
  spart_data_free(d);
  spart_model_free(m);
}


int main(int argc, char **argv) {
  for (int k = 1; k < argc; k++) {
    difference(argv[k]);
  }
  reference();
  ground();
  defaults();
  throw_box();
  printf("%d passed, %d failed\n", npass, nfail);
  return nfail ? 1 : 0;
}
