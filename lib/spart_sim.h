/* spart_sim.h -- libspart's simulation (lib/sim): forward dynamics of a state with the joints'
 * friction and coupled mimic joints, a state moved through time (RK4, Dormand-Prince, an
 * implicit step), joint limits held, and the
 * world that pushes on it at every stage of a step (a controller, a ground).  Installed beside
 * spart.h, which it includes; a program that steps a robot through time includes it.  See
 * spart(3).
 */
#ifndef SPART_SIM_H
#define SPART_SIM_H

#include "spart.h"

#ifdef __cplusplus
extern "C" {
#endif
/* ---------------------------------------------------------------------------------------------
 * simulation (spart_sim.c): forward dynamics of a state, and the state moved through time
 */

/* spart_forward_dynamics' flags */
enum {
  SPART_FD_FIXED = 1,   /* the base does not move */
  SPART_FD_FRICTION = 2 /* the drive train's friction (spart_friction) takes from taum */
};

/* Forward dynamics of a state (what spart-fd computes for a record): the joints' friction at the
   state's um when flags has SPART_FD_FRICTION, then spart_aba, or K' H K ucdot = K' (tau - c) by
   spart_crba, spart_rnea and Cholesky (spart_mimic_fd.c) for a model whose mimic joints are
   coupled (the state and umdot the tree's): udot = [u0dot; umdot] (6+nv) at the state s (its r0
   does not matter) for its forces under gravity (3, NULL = none).  Its scratch is d's.  Returns
   0 or -SPART_ENUM when an articulated inertia is singular (the body in d->warn_body). */
int spart_forward_dynamics(const spart_model *m, spart_data *d, const spart_state *s, int flags,
                           const double *gravity, double *udot);

/* Derivatives of the forward dynamics udot = FD(q, u, tau) of spart_forward_dynamics (same
   flags) at the state s, from those of the inverse dynamics there (spart_rnea_derivatives at
   udot = FD): dudot_dq = -H^-1 dtau_dq, dudot_du = -H^-1 dtau_du, dudot_dtau = H^-1, H the mass
   matrix (spart_crba; the system's K' H K with coupled mimic joints).  out: the three n x n
   matrices in that order, row-major, n as spart_rnea_derivatives' (6 + nv, nv with
   SPART_FD_FIXED, the system's with coupled mimic joints).  Returns 0 or -SPART_ENUM when H is
   singular. */
int spart_fd_derivatives(const spart_model *m, spart_data *d, const spart_state *s, int flags,
                         const double *gravity, double *out);

/* integrators of spart_sim_step */
enum {
  SPART_SIM_RK4 = 0, /* classical Runge-Kutta, one step of the given length, 4 dynamics calls */
  SPART_SIM_DOPRI5,  /* Dormand-Prince 5(4), adaptive steps to rtol, atol, ending on the time */
  SPART_SIM_IMPLICIT /* one step, 1 dynamics call, the velocity-dependent forces implicit
                        (spart_sim_step) */
};

/* A simulation: the state, the forces held on it, the integrator and its scratch
   (spart_sim_new).  The caller sets the settings, the initial state and the forces (into x:
   spart_state_copy, or its arrays one by one); the forces (and the state) may change between
   calls of spart_sim_step (zero-order hold). */
typedef struct spart_sim {
  /* settings */
  int method;            /* SPART_SIM_* */
  int flags;             /* SPART_FD_* */
  const double *gravity; /* (3) or NULL */
  double rtol, atol;     /* SPART_SIM_DOPRI5's tolerances, on each coordinate of the step */
  /* the state at time t (at rest at the origin at spart_sim_new), its own (spart_state_new's:
     write into its arrays, never point them elsewhere): R0, r0, qm, u0, um, moved by the steps
     (the base's attitude by the exponential map, each joint's coordinates by
     spart_joint_integrate, so that R0 stays a rotation to rounding); the forces tau0, taum, wF
     held constant over each call (zero at spart_sim_new); u0dot, umdot the accelerations at the
     state that spart_sim_accel leaves */
  double t;
  spart_state *x;
  /* counts since spart_sim_new: steps taken, steps DOPRI5 rejected, dynamics calls */
  long nstep, nreject, nfd;
  double h;   /* DOPRI5: the next step it will try (0: it chooses) */
  /* SPART_SIM_IMPLICIT: an estimate of the error of the links' positions (m, their CoMs and
     the base's), the steps' own errors since spart_sim_new added up (spart_sim_step); 0 with
     the other integrators.  Read, never used by the steps. */
  double err_pos;
  struct spart_scene *scene; /* forces that depend on the time and the state (a controller,
                                a ground: spart_scene.c) added to those held, or NULL: set
                                by spart_sim_set_scene */
  int nz;    /* the scene's own state: its size (spart_scene_nstate) */
  double *z; /* (nz) its value at time t (a ground's deflections), 0 at spart_sim_set_scene;
                moved by the steps with the rest of the state, never written in records */
  /* DOPRI5's way through a joint held by Coulomb friction: coulomb_v > 0 smooths each joint's
     Coulomb force f to f tanh(um / coulomb_v) (0: the discontinuous law, which a joint
     sticking makes DOPRI5 resolve with ever smaller steps); max_steps > 0: a call of
     spart_sim_step that takes more steps (rejected ones too) fails, naming the step size */
  double coulomb_v;
  long max_steps;
  /* joint limits held (spart_sim_limit_defaults): past a limited joint of one coordinate, a
     one-sided spring and damper, the joint force f = max(0, k d - c v) pushing it back, d its
     depth past the limit, v its rate away from its range; limit_k, limit_c (nb, the
     simulation's own) each joint's k and c, 0 (free) at spart_sim_new; limit_seen (nb) set to 1
     by each evaluation that finds the joint past a limit (spart_sim_rk4_limit clears them) */
  double *limit_k, *limit_c;
  unsigned char *limit_seen;
  struct spart_stab *stab_; /* spart_sim_rk4_limit's scratch (made at its first call) */
  void *ws_;  /* the scratch */
  void *buf_; /* the one allocation */
} spart_sim;

/* A simulation of model m at rest at t = 0 (R0 the identity, everything else 0): RK4, friction
   on, no gravity, rtol 1e-6, atol 1e-9.  NULL when out of memory. */
spart_sim *spart_sim_new(const spart_model *m);

/* Free a simulation; NULL is allowed. */
void spart_sim_free(spart_sim *s);

/* Set the simulation's scene (NULL: none) and make room for its state s->z, set to 0.
   Returns 0 or -SPART_ENOMEM (the scene then unset). */
int spart_sim_set_scene(spart_sim *s, struct spart_scene *w);

/* Move the state from s->t to t_end (> s->t): one RK4 step, or as many DOPRI5 steps as its
   tolerances need, the last ending on t_end, or one implicit step.  The implicit step (MuJoCo's
   implicitfast's idea) evaluates the dynamics once, a = H^-1 (f - c) at the state, and takes
   the forces' derivative -D with respect to the velocities v = [u0; um] implicitly:
   (H + h D) (v+ - v) = h H a, H the mass matrix (spart_crba), D (not symmetric: Gaussian
   elimination with partial pivoting) made of
   - the joints' viscous damping, and their Coulomb friction F, where the joint is within
     1e-8 of rest or its velocity would cross zero in the step, as its secant damper F / |um|
     (F / 1e-8 within 1e-8 of rest, where the force is -F um / 1e-8: a joint held while the
     other forces on it stay within F; elsewhere explicit), or the smoothed law's slope
     (coulomb_v > 0);
   - a PD controller's Kd (computed torque's Hs Kd, Hs the joints' inertia with the base free);
   - the ground's dampers at each contact in it, J' C J (C: its normal damper while it pushes;
     along the plane ct sticking, sliding the damping across the slip and the friction's size
     mu fn changing with the normal velocity);
   - the joint limits' dampers while they push, and their springs k (h k added to D, -h^2 k v
     to the right side: backward Euler), a joint inside whose q + h um passes its limit meeting
     it within the step (the spring at the step's end, the damper at um+);
   the Coriolis forces and the other springs (the ground's, Kp) explicit; then the configuration
   moved by h v+ (the exponential map, each joint's spart_joint_integrate) and the deflections
   by h times their rates at v+ (a sliding one's relaxation -kt e / ct backward Euler: that rate
   over 1 + h kt / ct).  First order; not for coupled mimic joints.  Its error: the
   configuration moved by h v+ where the trapezoid, second order, moves it by h (v + v+) / 2,
   each link's CoM moves by h / 2 |v_i+ - v_i| (v_i its velocity, at the step's start pose) too
   far; the largest over the links is added to s->err_pos each step (the sum of the steps' own
   errors: it does not see an error grown by an unstable motion, a limp robot buckling).
   Returns 0, or -SPART_ENUM
   with err saying why (a singular inertia, a value that is not finite, a DOPRI5 step too
   small, H + h D singular) at which time; the state is then the last good one. */
int spart_sim_step(const spart_model *m, spart_data *d, spart_sim *s, double t_end,
                   spart_err *err);

/* The accelerations at the state into s->x's u0dot, umdot (those a step or call before computed
   at the same state and forces are reused, and kept for the next step's first stage).  Returns
   0 or -SPART_ENUM with err filled. */
int spart_sim_accel(const spart_model *m, spart_data *d, spart_sim *s, spart_err *err);

/* what bounds RK4's step most (spart_sim_rk4_limit): the cause and its joint or link */
enum {
  SPART_STIFF_NONE = 0, /* nothing: the step is stable */
  SPART_STIFF_DAMPING,  /* the joints' viscous damping (and the smoothed Coulomb friction) */
  SPART_STIFF_CONTROL,  /* the controller's gains */
  SPART_STIFF_GROUND,   /* the ground's springs and dampers at the contacts in it */
  SPART_STIFF_LIMIT     /* a joint limit's spring and damper (spart_sim.limit_k, limit_c) */
};
typedef struct spart_stiff {
  int cause; /* SPART_STIFF_* */
  int body;  /* the joint whose damping or gains are the fastest on its own inertia, or the
                link whose contact has the lightest effective mass along the normal */
} spart_stiff;

/* Whether the RK4 step h is stable at the state for the run's stiff terms, linearised there:
   the joints' viscous damping and the slope of the smoothed Coulomb friction (coulomb_v > 0)
   when s->flags has SPART_FD_FRICTION, the scene's controller's gains (PD: K = Kp, C = Kd on the
   joints; computed torque: the joints' accelerations -Kp e - Kd edot, the base's reaction to
   them), and its ground's springs and dampers at each sphere in the ground, J' k J through the
   Jacobian J of its point (the normal's k and c; the stick-slip friction's kt and ct along the
   plane, and the rate kt / ct of its deflection sliding; --slip's slope mu fn / vs), and the
   spring and damper of each joint limit held that the joint is past.  With H the
   mass matrix, every eigenvalue z of [0 1; -H^-1 K, -H^-1 C] must have |R(h z)| <= 1, R RK4's
   stability function (the real axis down to -2.785, the imaginary one to +-2.83 i); it is
   checked through the spectral radius of R(h A) (Gelfand's formula, 2^24 steps by squaring).
   Returns h when stable (why->cause SPART_STIFF_NONE), else the largest stable step (to 1e-6),
   why saying which term alone bounds it the most; 0 when H is not positive definite.  h
   without a check for a model with coupled mimic joints.  The contacts are the spheres in the
   ground at the state and those the ground's seen flags name (then cleared), each at its point
   at the state.  Calls spart_fk with a ground. */
double spart_sim_rk4_limit(const spart_model *m, spart_data *d, spart_sim *s, double h,
                           spart_stiff *why);

/* The same for the implicit step of h (SPART_SIM_IMPLICIT; why the same): the springs it takes
   explicitly (the ground's k and kt, a PD controller's Kp, computed torque's), with H^-1 K = Ka
   and the dampers it takes implicitly H^-1 C = Ca (the joints', Kd, the ground's c and ct, the
   limits' c + h k), move the displacements x and w = h v by (I + h Ca) w+ = w - h^2 Ka x,
   x+ = x + w+; every eigenvalue of that map must have a modulus within 1 + 1e-6.  On one
   spring k and damper c on a mass m it is h^2 k / m <= 4 + 2 h c / m.  Returns h when stable,
   else the largest stable step (bisection, to h 1e-12), why the part alone the most bounding. */
double spart_sim_implicit_limit(const spart_model *m, spart_data *d, spart_sim *s, double h,
                                spart_stiff *why);

/* 1 when a sphere of the scene's ground was found in it (its seen flag, by the steps' stages),
   or a joint past a limit held (limit_seen), that the last spart_sim_rk4_limit or
   spart_sim_implicit_limit did not count (a new contact: the step is to be checked again),
   else 0. */
int spart_sim_rk4_contacts(const spart_sim *s);

/* The joint limits' defaults at the simulation's state s->x (its flags' SPART_FD_FIXED): for
   each limited joint of one coordinate (jnt_limited, jnt_nq 1; a continuous joint has no
   limits), critically damped at SPART_LIMIT_RATE on its own inertia Ij there, that with the
   rest of the robot free, Ij = 1 / (H^-1)jj (H the mass matrix, spart_crba; Hjj, the rest
   held, when H is singular): limit_k = Ij w^2, limit_c = 2 Ij w, w = SPART_LIMIT_RATE (a joint
   without inertia: 0, free), for every integrator (the implicit step takes the limits
   implicitly, met within the step, at no cost in its step; rk4's stable step shrinks as 1/w,
   and its check names the limit spring); every other joint 0.  Under
   a steady force f past its limit a joint rests f / limit_k past it.  A model whose mimic joints
   are coupled (m->coupled) gets none.  Returns 0, or -SPART_ENOMEM. */
#define SPART_LIMIT_RATE 1000.0 /* 1/s: a time constant of 1 ms */
int spart_sim_limit_defaults(const spart_model *m, spart_data *d, spart_sim *s);

/* The joints with limits (a limited one-coordinate joint's jnt_range) that qm has left: outside
   (nb flags, zero at the start) says for each joint 0 inside, 1 outside and already at the last
   call, 2 outside and not at the last call (it has just left).  Returns the number of 2s. */
int spart_sim_limits(const spart_model *m, const double *qm, int *outside);

/* The grid of a run of T seconds in steps of h: its number of steps n (the last one shorter when
   h does not divide T, within rounding), and the time of step k of them: k h, as the decimal
   reads when 1/h is a whole number (k / 1000 for h = 0.001, so 1.4 and not
   1.4000000000000001), T for k = n. */
long spart_sim_grid_steps(double T, double h);
double spart_sim_grid_time(double T, double h, long k, long n);

/* ---------------------------------------------------------------------------------------------
 * the simulation's world (spart_control.c, spart_ground.c, spart_scene.c): forces that depend
 * on the time and the state, evaluated at every stage of a step: a controller's joint forces
 * and the contact forces of a ground plane
 */

/* a reference trajectory of the joints: n records at increasing times t (n), their qm (n x nq),
   um (n x nv, or NULL) and umdot (n x nv, or NULL) */
typedef struct spart_reference {
  int n;
  const double *t, *qm, *um, *umdot;
} spart_reference;

/* The reference at time t (spart_control.c) into ref's qm (nq), um (nv), umdot (nv) (a state's
   other parts are not written).  Outside the records' span (and with one record) the nearest
   record as it is (um, umdot 0 when not given).  Between records a and b, each joint moves in its
   local coordinates around record a's configuration (spart_joint_difference,
   spart_joint_integrate): by a cubic Hermite curve through both configurations with the records'
   velocities as its rates when um is given, else along the straight line at a constant rate; um
   is interpolated linearly (without um, the line's rate), umdot linearly (without umdot, the rate
   of the linear um; without um either, 0).  *hint is the last interval found (start at 0), so that
   times that go forward cost O(1). */
void spart_reference_at(const spart_model *m, const spart_reference *r, double t, int *hint,
                        spart_state *ref);

/* control laws */
enum {
  SPART_CONTROL_PD = 1, /* Kp e + Kd edot + the gravity compensation */
  SPART_CONTROL_CTC,    /* computed torque: inverse dynamics at umdot_ref + Kp e + Kd edot */
  SPART_CONTROL_GRAVITY /* the gravity compensation alone */
};

/* a controller of the joints: its law, gains and reference, and what it saw */
typedef struct spart_control {
  int law;                    /* SPART_CONTROL_* */
  const double *kp, *kd;      /* (nv) gains, per velocity coordinate (1/s^2, 1/s for ctc; N m /
                                 rad, N m s / rad or N / m, N s / m for pd) */
  const spart_reference *ref; /* the reference (not for SPART_CONTROL_GRAVITY) */
  int flags;                  /* SPART_FD_FIXED, SPART_FD_FRICTION: the model computed torque
                                 inverts (its friction included when the simulation has it) */
  const double *gravity;      /* (3) or NULL */
  /* counts since spart_control_new: evaluations, those where an effort limit bound, and the
     first of those: its time and degree of freedom */
  long neval, nclip;
  double tclip;
  int vclip;
  void *ws_; /* the scratch */
} spart_control;

/* A controller for model m, law 0 until set; NULL when out of memory. */
spart_control *spart_control_new(const spart_model *m);
void spart_control_free(spart_control *c);

/* a ground's contact laws: the friction along its plane */
enum {
  SPART_GROUND_STICK = 0, /* stick-slip: a tangential spring and damper at each sphere, with
                             stiction (its deflection a state) */
  SPART_GROUND_SLIP       /* regularised Coulomb friction: no stiction, no state */
};

/* a ground: the plane of the points x with normal . x = offset (normal unit, out of the
   ground), and the contact spheres that touch it (a point is a sphere of radius 0) */
typedef struct spart_ground {
  double normal[3], offset;
  double stiffness; /* k, N/m: the normal force k depth + ... at each contact */
  double damping;   /* c, N s/m: ... - c times the normal velocity, never pulling */
  double mu;        /* Coulomb friction coefficient */
  int law;          /* SPART_GROUND_*: the friction along the plane */
  double slip;      /* vs, m/s, > 0 (SPART_GROUND_SLIP): the regularised friction
                       mu fn vt / sqrt(|vt|^2 + vs^2) against the slip velocity vt */
  double tstiffness; /* kt, N/m: the tangential spring (SPART_GROUND_STICK) */
  double tdamping;   /* ct, N s/m, > 0: the tangential damper (SPART_GROUND_STICK) */
  int n;                /* contact spheres */
  const int *body;      /* (n) the body each is on */
  const double *centre; /* (n x 3) its centre in the body's URDF link frame */
  const double *radius; /* (n) its radius */
  unsigned char *seen;  /* (n) or NULL: spart_ground_forces sets each sphere's to 1 when it
                           finds it in the ground (spart_sim_rk4_limit clears them: the contacts
                           that a step's stages met) */
  int implicit;         /* 1: the steps take the dampers implicitly (SPART_SIM_IMPLICIT); the
                           defaults no longer depend on it (every integrator's are the same) */
} spart_ground;

/* where spart_ground_forces writes, each NULL: not written */
typedef struct spart_ground_out {
  double *wF;    /* (nb x 6) each contact's wrench at its body's CoM added (inertial frame, as a
                    state's wF) */
  double *force; /* (n x 3, inertial frame) the force on each sphere (0 when apart) */
  double *rate;  /* (n x 3) each deflection's rate e' (0 for a sphere out of the ground and with
                    SPART_GROUND_SLIP) */
} spart_ground_out;

/* The contact forces of the ground on the model at the state s (its R0, r0, qm, u0, um) (a
   compliant contact, as a penalty method): at each sphere whose depth delta = radius - (normal
   . centre - offset) is positive, at its point the furthest into the ground (the body's
   material point there, moving at v: vn its velocity along the normal, vt along the plane), the
   normal force fn = max(0, k delta - c vn) and a friction ft along the plane:
   - SPART_GROUND_SLIP: ft = -mu fn vt / sqrt(|vt|^2 + vs^2);
   - SPART_GROUND_STICK (an elasto-plastic spring at each sphere): the sphere's tangential
     deflection e (defl + 3 j, in the plane, inertial frame; NULL: all 0), a state that moves
     with the contact, gives fs = -kt e - ct vt; ft = fs while |fs| <= mu fn (sticking: e' = vt),
     else ft = mu fn fs / |fs| (sliding, Coulomb's force: e' = -(ft + kt e) / ct, which brings
     e back to the cone's edge |kt e| = mu fn and holds it there);
   into out: each deflection's rate, the force on each sphere, and each one's wrench at its
   body's CoM added to out->wF.  Calls spart_fk and spart_velocity. */
void spart_ground_forces(const spart_model *m, spart_data *d, const spart_ground *g,
                         const spart_state *s, const double *defl, const spart_ground_out *out);

/* The defaults of ground g's parameters that are NaN, for model m under gravity (3; NULL:
   none), given g's others and its contact spheres (n, body); spart-sim(1)'s:
   - the plane (normal[0] NaN): through 0 against gravity, normal -g/|g|, offset 0;
   - stiffness: the whole robot, of mass M, on four contacts 1 mm deep: k = M |g| / 4 mm (|g|
     9.81 without gravity or with a zero one);
   - damping: critical for the whole robot on one contact, 2 sqrt(k M), which takes an impact
     without rebound (RK4's step is bounded by it on the lightest contact: spart-sim(1));
   - mu: 1;
   - tstiffness: k; tdamping: 2 sqrt(kt mc), mc the mass of the lightest body with contact
     spheres (M when none has a mass).
   law and slip are the caller's (0 is SPART_GROUND_STICK).  Returns 0; -1 when the plane has
   no default (normal[0] NaN and gravity NULL or zero; g unchanged); -2 when the parameters are
   not a ground's (a stiffness or a tdamping not > 0, a damping not finite: a model without
   mass). */
int spart_ground_defaults(const spart_model *m, const double *gravity, spart_ground *g);

/* The plane p (4: n . x = d, [n; d]) made unit in place: n / |n|, d / |n|, |n| taken through
   n's largest component (its squares neither overflow nor underflow).  Returns |n|: 0 when n
   is 0 (n then 0, d kept). */
double spart_ground_plane(double p[4]);

/* The number of state variables of the ground's friction: 3 n (the deflections) for the
   stick-slip friction (SPART_GROUND_STICK), 0 for the regularised one. */
int spart_ground_nstate(const spart_ground *g);

/* The deflections defl (n x 3) of the spheres that are out of the ground at the state s (its
   pose) set to 0 (a contact that ends forgets its deflection).  Calls spart_fk when one is not
   0. */
void spart_ground_release(const spart_model *m, spart_data *d, const spart_ground *g,
                          const spart_state *s, double *defl);

/* The contact spheres of model m's collision shapes (spart_model.shape_*): a sphere itself, a
   capsule's two end spheres, a box's eight corners and the points of a cylinder's two rims
   (SPART_GROUND_RIM each, radius 0); meshes have none.  Their bodies in body (most), centres
   in the body's URDF link frame in centre (most x 3), radii in radius (most); NULL arrays with
   most 0 only count them.  Returns how many there are (more than most when the arrays had no
   room for all). */
#define SPART_GROUND_RIM 8
int spart_ground_spheres(const spart_model *m, int *body, double *centre, double *radius,
                         int most);

/* The potential energy stored in the contacts' springs, sum k delta^2 / 2 + kt |e|^2 / 2 over
   the spheres in the ground at the state s (its pose) (e their deflections defl, n x 3, NULL: 0;
   SPART_GROUND_STICK only).  Calls spart_fk. */
double spart_ground_energy(const spart_model *m, spart_data *d, const spart_ground *g,
                           const spart_state *s, const double *defl);

/* a simulation's world: a controller and a ground, either NULL */
typedef struct spart_scene {
  spart_control *control;
  const spart_ground *ground;
  void *ws_; /* the scratch */
} spart_scene;

/* A world for model m with neither; NULL when out of memory. */
spart_scene *spart_scene_new(const spart_model *m);
void spart_scene_free(spart_scene *w);

#ifdef __cplusplus
}
#endif

#endif
