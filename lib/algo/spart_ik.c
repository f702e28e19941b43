/* spart_ik.c -- inverse kinematics: the configuration that puts points and frames of links, and
 * the system's CoM, where targets say (damped least squares, Levenberg-Marquardt on the stacked
 * task error, with the joint limits kept and random restarts within them) */
#include <math.h>
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"

/* what an attempt works with, carved from the caller's work array (spart_ik_worksize) */
typedef struct ik_ws {
  int rows, nvar, base; /* stacked task rows, unknowns (base's 6, unless held, then joints') */
  double *A;            /* (rows x nvar) the weighted task Jacobian */
  double *e, *etry;     /* (rows) the weighted task errors at the configuration and a trial */
  double *N;            /* (n x n, n = min(rows, nvar)) the damped normal matrix */
  double *y, *g, *h;    /* (n) its solution, (nvar) A' e, the step */
  double *J;            /* (6 x (6 + nv)) one target's Jacobian, J0 then Jm */
  double *Jc;           /* (6 x nvc) its joints' columns of the system (coupled mimic joints) */
  double *qc;           /* (nqc) the system's coordinates (limits of coupled joints) */
  double *v;            /* (nv) the step of the tree's joints */
  double *q, *qtry;     /* (nq) the configuration, a trial */
  double *qbest;        /* (nq) the best met */
  spart_ik_target *t;    /* (nt) the targets in the inertial frame (root_frame) */
  double R0[9], r0[3], R0try[9], r0try[3], R0best[9], r0best[3];
} ik_ws;

/* doubles a target takes in the work array */
#define TARGET_DOUBLES ((sizeof(spart_ik_target) + sizeof(double) - 1) / sizeof(double))

/* a target's rows: 6 for a link's pose, 3 for a point, 3 (2) for the CoM (its x, y) */
static int target_rows(const spart_ik_target *t) {
  if (t->kind == SPART_IK_COM) {
    return 3;
  }
  if (t->kind == SPART_IK_COM_XY) {
    return 2;
  }
  return t->oriented ? 6 : 3;
}


size_t spart_ik_worksize(const spart_model *m, int nt) {
  size_t rows = 6 * (size_t)(nt > 0 ? nt : 0), nvar = 6 + (size_t)m->nv, nq = (size_t)m->nq;
  size_t n = rows < nvar ? rows : nvar;
  return rows * nvar + 2 * rows + n * n + n + 2 * nvar + 6 * (6 + nvar) + 6 * nvar + nvar +
         (size_t)m->nv + 4 * nq + 8 + TARGET_DOUBLES * (size_t)(nt > 0 ? nt : 0);
}


static void carve(const spart_model *m, const spart_ik_problem *p, ik_ws *w) {
  double *x = p->work;
  size_t nv = (size_t)m->nv, nq = (size_t)m->nq;
  w->rows = 0;
  for (int k = 0; k < p->nt; k++) {
    w->rows += target_rows(p->t + k);
  }
  w->base = p->fixed_base ? 0 : 6;
  w->nvar = w->base + m->nvc;
  size_t rows = (size_t)w->rows, nvar = (size_t)w->nvar, n = rows < nvar ? rows : nvar;
  w->A = x, x += rows * nvar;
  w->e = x, x += rows;
  w->etry = x, x += rows;
  w->N = x, x += n * n;
  w->y = x, x += n;
  w->g = x, x += nvar;
  w->h = x, x += nvar;
  w->J = x, x += 6 * (6 + nv);
  w->Jc = x, x += 6 * nv;
  w->qc = x, x += nq + 1;
  w->v = x, x += nv;
  w->q = x, x += nq;
  w->qtry = x, x += nq;
  w->qbest = x, x += nq;
  w->t = (spart_ik_target *)(void *)x;
}


/* the rotation vector w of R (log R, the shorter way round), from its quaternion */
static void rot_log(double w[3], const double R[9]) {
  double q[4];
  spart_rot_quat(q, R);
  double n = sqrt(q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  double f = n > 1e-8 ? 2 * atan2(n, q[0]) / n : 2 / q[0];
  for (int k = 0; k < 3; k++) {
    w[k] = f * q[1 + k];
  }
}


/* the errors of target t at the configuration spart_fk left in d, not weighted, into e (a
   link's orientation's 3 before its point's 3; a CoM's 3, or 2 of its x, y); the position's and
   the orientation's sizes in err; returns its rows */
static int target_error(const spart_model *m, const spart_data *d, const spart_ik_target *t,
                        double e[6], double err[2]) {
  double x[3], dx[3], pos = 0;
  int r = 0;
  err[0] = err[1] = 0;
  if (t->kind == SPART_IK_LINK) {
    if (t->oriented) {
      double R[9], o[3], Re[9], w[3], rot = 0;
      spart_link_pose(m, d, t->body, R, o);
      /* log(Rt R'): the turn from the link's frame to the target's, inertial axes */
      for (int a = 0; a < 3; a++) {
        for (int b = 0; b < 3; b++) {
          Re[3 * a + b] = t->R[3 * a] * R[3 * b] + t->R[3 * a + 1] * R[3 * b + 1] +
                          t->R[3 * a + 2] * R[3 * b + 2];
        }
      }
      rot_log(w, Re);
      for (int a = 0; a < 3; a++) {
        rot += w[a] * w[a];
        e[r++] = w[a];
      }
      err[1] = sqrt(rot);
    }
    spart_link_point(m, d, t->body, t->point, x);
  } else {
    memcpy(x, d->com, sizeof x);
  }
  /* positions from r0, as d's: the target's less r0, less the point's */
  for (int a = 0; a < 3; a++) {
    dx[a] = (t->position[a] - d->r0[a]) - x[a];
  }
  if (t->kind == SPART_IK_COM_XY && t->oriented) { /* along R's first two columns */
    double u = t->R[0] * dx[0] + t->R[3] * dx[1] + t->R[6] * dx[2];
    dx[1] = t->R[1] * dx[0] + t->R[4] * dx[1] + t->R[7] * dx[2];
    dx[0] = u;
  }
  int nr = t->kind == SPART_IK_COM_XY ? 2 : 3;
  for (int a = 0; a < nr; a++) {
    pos += dx[a] * dx[a];
    e[r++] = dx[a];
  }
  err[0] = sqrt(pos);
  return r;
}


void spart_ik_target_error(const spart_model *m, const spart_data *d, const spart_ik_target *t,
                           double err[2]) {
  double e[6];
  target_error(m, d, t, e, err);
}


/* the errors of the targets at the configuration spart_fk left in d, weighted, into e (the
   rows of the targets in order, target_error's); the largest position and orientation errors
   (not weighted) in err; returns E = e'e / 2 */
static double task_error(const spart_model *m, const spart_data *d, const spart_ik_problem *p,
                         double *e, double err[2]) {
  double E = 0;
  int r = 0;
  err[0] = err[1] = 0;
  for (int k = 0; k < p->nt; k++) {
    const spart_ik_target *t = p->t + k;
    double sw = sqrt(t->weight), te[2];
    int nr = target_error(m, d, t, e + r, te);
    for (int a = 0; a < nr; a++) {
      e[r + a] *= sw;
    }
    r += nr;
    err[0] = fmax(err[0], te[0]);
    err[1] = fmax(err[1], te[1]);
  }
  for (int k = 0; k < r; k++) {
    E += e[k] * e[k];
  }
  return E / 2;
}


/* rows 0 and 1 of J (3 rows of n columns, inertial axes) made its rows along R's first two
   columns: a com_xy's in a frame that is not level */
static void along(double *J, int n, const double R[9]) {
  for (int c = 0; c < n; c++) {
    double x = J[c], y = J[n + c], z = J[2 * n + c];
    J[c] = R[0] * x + R[3] * y + R[6] * z;
    J[n + c] = R[1] * x + R[4] * y + R[7] * z;
  }
}


/* the weighted Jacobian of the targets' rows (task_error's order) at d's configuration into
   w->A: the base's columns (body-frame turn, inertial move: u0's) unless held, then the
   system's joints' */
static void task_jacobian(const spart_model *m, spart_data *d, const spart_ik_problem *p,
                          ik_ws *w) {
  int r = 0, nvar = w->nvar;
  double *J0 = w->J, *Jm = w->J + 36;
  for (int k = 0; k < p->nt; k++) {
    const spart_ik_target *t = p->t + k;
    double sw = sqrt(t->weight);
    int first = 0, nr; /* the rows of J taken (J0's rows 6 apart, Jm's nv or nvc) */
    if (t->kind == SPART_IK_LINK) {
      double x[3];
      spart_link_point(m, d, t->body, t->point, x);
      spart_jacobian(m, d, t->body, x, J0, Jm);
      first = t->oriented ? 0 : 3;
      nr = 6 - first;
    } else { /* 3 rows, the CoM's velocity; of them x, y for com_xy (along R's columns) */
      spart_com_jacobian(m, d, J0, Jm);
      nr = t->kind == SPART_IK_COM ? 3 : 2;
      if (t->kind == SPART_IK_COM_XY && t->oriented) {
        along(J0, 6, t->R);
        along(Jm, m->nv, t->R);
      }
    }
    const double *Jj = Jm;
    if (m->coupled) {
      spart_mimic_cols(m, 0, first + nr, Jm, w->Jc);
      Jj = w->Jc;
    }
    for (int a = 0; a < nr; a++, r++) {
      double *row = w->A + (size_t)r * nvar;
      for (int c = 0; c < w->base; c++) {
        row[c] = sw * J0[(first + a) * 6 + c];
      }
      for (int c = 0; c < m->nvc; c++) {
        row[w->base + c] = sw * Jj[(first + a) * m->nvc + c];
      }
    }
  }
}


/* the limits of the system's coordinates qc kept: each limited joint's (its one coordinate, a
   follower's through its leader, q = k0 qc + k1; a sin-cos pair's angle), spart_joint_clamp */
static void clamp(const spart_model *m, double *qc) {
  for (int i = 1; i < m->nb; i++) {
    if (!m->jnt_limited[i] || m->jnt_qadrc[i] < 0) {
      continue;
    }
    const double *lim = m->jnt_range + 2 * i, *k = m->jnt_couple + 2 * i;
    double b[2] = {lim[0], lim[1]};
    if (m->jnt_nq[i] == 1) {
      b[0] = (lim[0] - k[1]) / k[0];
      b[1] = (lim[1] - k[1]) / k[0];
      if (b[0] > b[1]) {
        double t = b[0];
        b[0] = b[1];
        b[1] = t;
      }
    }
    spart_joint_clamp(m, i, b, qc + m->jnt_qadrc[i]);
  }
}


/* the limits kept on the tree's coordinates q (through the system's when coupled) */
static void keep_limits(const spart_model *m, ik_ws *w, double *q) {
  if (!m->coupled) {
    clamp(m, q);
    return;
  }
  spart_mimic_qc(m, q, w->qc);
  clamp(m, w->qc);
  spart_mimic_q(m, w->qc, q);
}


/* the middle of each limited joint's limits in q (a follower's from its leader's) */
static void middle(const spart_model *m, ik_ws *w, double *q) {
  for (int i = 1; i < m->nb; i++) {
    if (m->jnt_limited[i] && m->jnt_qadr[i] >= 0) {
      const double *lim = m->jnt_range + 2 * i;
      const double mid[2] = {(lim[0] + lim[1]) / 2, (lim[0] + lim[1]) / 2};
      spart_joint_clamp(m, i, mid, q + m->jnt_qadr[i]);
    }
  }
  if (m->coupled) {
    spart_mimic_qc(m, q, w->qc);
    spart_mimic_q(m, w->qc, q);
  }
}


/* the trial configuration: the current one moved by the step w->h, each joint on its manifold
   (its local coordinates at the rate of its step: a quaternion's exponential map), the base
   turned in its own frame and moved; limits kept */
static void step(const spart_model *m, ik_ws *w) {
  const double *h = w->h;
  if (w->base) {
    double E[9];
    spu_expso3(E, h);
    spu_mulmm3(w->R0try, w->R0, E);
    for (int k = 0; k < 3; k++) {
      w->r0try[k] = w->r0[k] + h[3 + k];
    }
  } else {
    memcpy(w->R0try, w->R0, sizeof w->R0);
    memcpy(w->r0try, w->r0, sizeof w->r0);
  }
  const double *hv = h + w->base;
  if (m->coupled) {
    spart_mimic_v(m, hv, w->v);
    hv = w->v;
  }
  for (int i = 1; i < m->nb; i++) {
    int a = m->jnt_qadr[i], b = m->jnt_vadr[i];
    if (m->jnt_nq[i] == 1 && m->jnt_nv[i] == 1) {
      w->qtry[a] = w->q[a] + hv[b];
    } else if (m->jnt_nq[i] > 0) {
      double xi[6], zero[6] = {0, 0, 0, 0, 0, 0};
      spart_joint_local_rate(m, i, w->q + a, zero, hv + b, xi);
      spart_joint_integrate(m, i, w->q + a, xi, w->qtry + a);
    }
  }
  keep_limits(m, w, w->qtry);
}


/* the damped step h = (A'A + lambda 1)^-1 A'e, by the smaller of A'A and A A' (h = A' (A A' +
   lambda 1)^-1 e); g = A'e; 0, or -1 when the damped matrix is singular to rounding */
static int damped_step(ik_ws *w, double lambda) {
  int rows = w->rows, nvar = w->nvar;
  const double *A = w->A;
  for (int c = 0; c < nvar; c++) {
    double s = 0;
    for (int r = 0; r < rows; r++) {
      s += A[(size_t)r * nvar + c] * w->e[r];
    }
    w->g[c] = s;
  }
  if (rows <= nvar) {
    for (int a = 0; a < rows; a++) {
      for (int b = 0; b <= a; b++) {
        const double *ra = A + (size_t)a * nvar, *rb = A + (size_t)b * nvar;
        double s = 0;
        for (int c = 0; c < nvar; c++) {
          s += ra[c] * rb[c];
        }
        w->N[a * rows + b] = w->N[b * rows + a] = s + (a == b ? lambda : 0);
      }
      w->y[a] = w->e[a];
    }
    if (spu_cholsolve(w->N, w->y, rows, 1, NULL) != 0) {
      return -1;
    }
    for (int c = 0; c < nvar; c++) {
      double s = 0;
      for (int r = 0; r < rows; r++) {
        s += A[(size_t)r * nvar + c] * w->y[r];
      }
      w->h[c] = s;
    }
    return 0;
  }
  for (int a = 0; a < nvar; a++) {
    for (int b = 0; b <= a; b++) {
      double s = 0;
      for (int r = 0; r < rows; r++) {
        s += A[(size_t)r * nvar + a] * A[(size_t)r * nvar + b];
      }
      w->N[a * nvar + b] = w->N[b * nvar + a] = s + (a == b ? lambda : 0);
    }
    w->h[a] = w->g[a];
  }
  return spu_cholsolve(w->N, w->h, nvar, 1, NULL) != 0 ? -1 : 0;
}


/* the joints at a limit that the step w->h would move past it taken out of the step: their
   columns of w->A made zero (until the next Jacobian); whether there were any */
static int blocked(const spart_model *m, ik_ws *w) {
  int any = 0;
  for (int i = 1; i < m->nb; i++) {
    if (!m->jnt_limited[i] || m->jnt_nq[i] != 1 || (m->coupled && m->jnt_mimic[i])) {
      continue;
    }
    const double *lim = m->jnt_range + 2 * i, q = w->q[m->jnt_qadr[i]];
    int c = w->base + (m->coupled ? m->jnt_vadrc[i] : m->jnt_vadr[i]);
    double h = w->h[c];
    if ((q <= lim[0] && h < 0) || (q >= lim[1] && h > 0)) {
      for (int r = 0; r < w->rows; r++) {
        w->A[(size_t)r * w->nvar + c] = 0;
      }
      any = 1;
    }
  }
  return any;
}


/* the state s at w's configuration (R0, r0, q: the trial's with try) */
static void at(const spart_model *m, spart_state *s, const ik_ws *w, int trial) {
  memcpy(s->R0, trial ? w->R0try : w->R0, 9 * sizeof(double));
  memcpy(s->r0, trial ? w->r0try : w->r0, 3 * sizeof(double));
  memcpy(s->qm, trial ? w->qtry : w->q, (size_t)m->nq * sizeof(double));
}


static int met(const double err[2], double tol) {
  return err[0] <= tol && err[1] <= tol;
}


/* w's configuration kept as the best, with its errors err, when its E is below *best */
static void keep_best(const spart_model *m, spart_ik_problem *p, ik_ws *w, double E,
                      const double err[2], double *best) {
  if (E < *best) {
    *best = E;
    memcpy(p->err, err, 2 * sizeof(double));
    memcpy(w->qbest, w->q, (size_t)m->nq * sizeof(double));
    memcpy(w->R0best, w->R0, sizeof w->R0);
    memcpy(w->r0best, w->r0, sizeof w->r0);
  }
}


/* one attempt from w's configuration (Levenberg-Marquardt, Nielsen's update of the damping):
   1 when the targets are met (w's configuration then meets them), else 0 after max
   iterations or when the damping grows past use (a local minimum, a limit); the best
   configuration met so far kept in w (*best its E, err its errors) */
static int attempt(const spart_model *m, spart_data *d, spart_state *s, spart_ik_problem *p,
                   ik_ws *w, double *best) {
  double err[2], tol = p->tolerance;
  at(m, s, w, 0);
  spart_fk(m, d, s);
  double E = task_error(m, d, p, w->e, err);
  keep_best(m, p, w, E, err, best);
  if (met(err, tol)) {
    return 1;
  }
  task_jacobian(m, d, p, w);
  double dmax = 0, nu = 2;
  for (int c = 0; c < w->nvar; c++) {
    double s2 = 0;
    for (int r = 0; r < w->rows; r++) {
      s2 += w->A[(size_t)r * w->nvar + c] * w->A[(size_t)r * w->nvar + c];
    }
    dmax = fmax(dmax, s2);
  }
  double lambda = 1e-3 * (dmax > 0 ? dmax : 1), lmax = 1e12 * (dmax > 0 ? dmax : 1);
  for (int it = 0; it < p->max_iterations; it++) {
    p->iterations++;
    if (damped_step(w, lambda) != 0 || (blocked(m, w) && damped_step(w, lambda) != 0)) {
      lambda *= nu;
      nu *= 2;
      if (lambda > lmax) {
        return 0;
      }
      continue;
    }
    step(m, w);
    at(m, s, w, 1);
    spart_fk(m, d, s);
    double Et = task_error(m, d, p, w->etry, err), pred = 0;
    for (int c = 0; c < w->nvar; c++) {
      pred += w->h[c] * (lambda * w->h[c] + w->g[c]);
    }
    pred /= 2;
    if (Et < E) {
      /* taken: its gain over the model's sets the damping (Nielsen) */
      double rho = pred > 0 ? (E - Et) / pred : 1, t = 2 * rho - 1;
      double *x = w->e;
      w->e = w->etry;
      w->etry = x;
      memcpy(w->q, w->qtry, (size_t)m->nq * sizeof(double));
      memcpy(w->R0, w->R0try, sizeof w->R0);
      memcpy(w->r0, w->r0try, sizeof w->r0);
      E = Et;
      keep_best(m, p, w, E, err, best);
      if (met(err, tol)) {
        return 1;
      }
      task_jacobian(m, d, p, w);
      lambda *= fmax(1.0 / 3, 1 - t * t * t);
      nu = 2;
    } else {
      lambda *= nu;
      nu *= 2;
      if (lambda > lmax) {
        return 0;
      }
    }
  }
  return 0;
}


/* the targets, those given in the URDF root link's frame at the state s (each its root, or
   every one with root_frame) turned into the inertial frame, into out (p's nt of them); that
   frame's pose in Rf, rf */
static void from_root(const spart_model *m, spart_data *d, const spart_state *s,
                      const spart_ik_problem *p, spart_ik_target *out, double Rf[9],
                      double rf[3]) {
  spart_fk(m, d, s);
  spart_link_pose(m, d, 0, Rf, rf);
  for (int k = 0; k < p->nt; k++) {
    const spart_ik_target *t = p->t + k;
    out[k] = *t;
    out[k].root = 0;
    if (!t->root && !p->root_frame) {
      continue;
    }
    /* a com_xy's (x, y, 0), its x and y then along the frame's axes */
    double x[3] = {t->position[0], t->position[1],
                   t->kind == SPART_IK_COM_XY ? 0 : t->position[2]};
    spu_mulmv3(out[k].position, Rf, x);
    for (int a = 0; a < 3; a++) {
      out[k].position[a] += rf[a];
    }
    if (t->kind == SPART_IK_COM_XY) {
      out[k].oriented = 1;
      memcpy(out[k].R, Rf, sizeof out[k].R);
    } else if (t->oriented) {
      spu_mulmm3(out[k].R, Rf, t->R);
    }
  }
}


/* the targets' checks; 0 or -SPART_EDATA */
static int check(const spart_model *m, const spart_ik_problem *p, spart_err *err) {
  for (int k = 0; k < p->nt; k++) {
    const spart_ik_target *t = p->t + k;
    if (t->kind < SPART_IK_LINK || t->kind > SPART_IK_COM_XY ||
        (t->kind == SPART_IK_LINK && (t->body < 0 || t->body >= m->nb))) {
      return spart_err_set(err, SPART_EDATA, 0, "target %d: no such link or kind", k);
    }
    if (!(t->weight > 0) || !isfinite(t->weight)) {
      return spart_err_set(err, SPART_EDATA, 0, "target %d: weight %g, expected > 0", k,
                           t->weight);
    }
  }
  return 0;
}


int spart_ik(const spart_model *m, spart_data *d, spart_state *s, spart_ik_problem *p,
             spart_err *err) {
  ik_ws w;
  if (check(m, p, err) != 0) {
    return -SPART_EDATA;
  }
  if (!(p->tolerance > 0)) {
    p->tolerance = SPART_IK_TOLERANCE;
  }
  if (p->max_iterations <= 0) {
    p->max_iterations = SPART_IK_ITERATIONS;
  }
  carve(m, p, &w);
  p->iterations = p->attempts = 0;
  p->err[0] = p->err[1] = INFINITY;
  /* the state the attempts compute with: s's arrays, its pose alone */
  spart_state x = *s, r = *s;
  x.um = x.u0 = x.u0dot = x.umdot = x.tau0 = x.taum = x.wF = NULL;
  double Rf[9], rf[3];
  spart_ik_problem q = *p;
  int root = p->root_frame;
  for (int k = 0; k < p->nt; k++) {
    root |= p->t[k].root;
  }
  if (root) {
    from_root(m, d, s, p, w.t, Rf, rf);
    q.t = w.t;
  }
  memcpy(w.R0, s->R0, sizeof w.R0);
  memcpy(w.r0, s->r0, sizeof w.r0);
  memcpy(w.q, s->qm, (size_t)m->nq * sizeof(double));
  if (p->from_middle) {
    middle(m, &w, w.q);
  }
  keep_limits(m, &w, w.q);
  spart_rng rng;
  spart_rng_seed(&rng, p->seed);
  double best = INFINITY;
  int ok = 0;
  r.qm = w.q;
  r.um = r.umdot = r.taum = NULL;
  for (int a = 0; !ok && a <= p->restarts; a++) {
    q.attempts++;
    if (a > 0) {
      /* a restart: the joints at random within their limits, the base where it was given */
      spart_random_state(m, &rng, &rng, &r);
      keep_limits(m, &w, w.q);
      memcpy(w.R0, s->R0, sizeof w.R0);
      memcpy(w.r0, s->r0, sizeof w.r0);
    }
    ok = attempt(m, d, &x, &q, &w, &best);
  }
  p->attempts = q.attempts;
  p->iterations = q.iterations;
  memcpy(p->err, q.err, sizeof p->err);
  /* the best configuration met (the one that met the targets, when one did) */
  memcpy(s->qm, w.qbest, (size_t)m->nq * sizeof(double));
  spu_orthonormalize3(w.R0best);
  if (p->root_frame) { /* the base's pose in the root link's frame: Rf' R0, Rf' (r0 - rf) */
    double dr[3];
    for (int k = 0; k < 3; k++) {
      dr[k] = w.r0best[k] - rf[k];
    }
    spu_mulmtv3(s->r0, Rf, dr);
    for (int a = 0; a < 3; a++) {
      for (int b = 0; b < 3; b++) {
        s->R0[3 * a + b] = Rf[a] * w.R0best[b] + Rf[3 + a] * w.R0best[3 + b] +
                           Rf[6 + a] * w.R0best[6 + b];
      }
    }
  } else {
    memcpy(s->R0, w.R0best, sizeof w.R0best);
    memcpy(s->r0, w.r0best, sizeof w.r0best);
  }
  return ok;
}
