/* spart_stability.c -- the largest step the classical Runge-Kutta method (RK4) takes stably at
 * a simulation's state.  The run's stiff terms, linearised there, give x' = A x for the
 * displacements and velocities x = [dq; v] (2n, n the velocity coordinates): A = [0 1; -Ka -Ca],
 * Ka = H^-1 K and Ca = H^-1 C the accelerations per displacement and per velocity (H the mass
 * matrix; K and C the generalized stiffness and damping: the joints' viscous damping and the
 * smoothed Coulomb friction's slope on the diagonal, a PD controller's gains there too, the
 * joint limits' springs and dampers of the joints past them, and the ground's springs and
 * dampers J' k J at each contact in it, J the Jacobian of its point along the normal and the
 * plane); computed torque adds its gains to the joints' accelerations
 * directly (the model's inertia and friction cancelled).  A step h is stable when every
 * eigenvalue z of A has |R(h z)| <= 1, R(z) = 1 + z + z^2/2 + z^3/6 + z^4/24 the method's
 * stability function (on the real axis down to -2.785, on the imaginary one to 2.83).  The
 * eigenvalues come from Francis's double-shift QR steps on A's Hessenberg form (Golub and Van
 * Loan, Matrix Computations, 7.4-7.5); gravity and the velocity products, slow terms, are left
 * out.  The implicit step's check (spart_sim_implicit_limit) takes the dampers implicitly and
 * the springs explicitly, as the step does: (I + h Ca) w+ = w - h^2 Ka x, x+ = x + w+ (w = h v),
 * its map's eigenvalues within the unit circle; on one spring and damper, h^2 k / m <= 4 +
 * 2 h c / m (the map's trace (2 + b - a) / (1 + b) >= -1 - det, det = 1 / (1 + b), a = h^2 k / m,
 * b = h c / m: Jury's test). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_sim.h"
#include "spart_internal.h"
#include "spu.h"

/* the parts of the stiffness, each alone to name the cause */
enum { DAMPING = 1, CONTROL = 2, GROUND = 4, LIMIT = 8, ALL = 15 };

/* RK4's bound on the negative real axis: R(-2.785293563...) = 1 */
#define RK4_REAL 2.785293563405282
/* QR steps an eigenvalue at most */
#define QR_STEPS 60

/* the scratch (its own allocation, at the first call, sized for the model and the ground) */
typedef struct spart_stab {
  int n, nn;             /* the order of H (nv, or 6 + nv with the base free), 2 n */
  int nsph;              /* the ground's spheres the flags below have room for */
  double *H, *Hi, *work; /* n x n: the mass matrix, its inverse, Cholesky's scratch */
  double *HiKg, *HiCg;   /* n x n: H^-1 times the ground's stiffness, damping */
  double *Kg, *Cg;       /* n x n: the ground's stiffness, damping (generalized forces) */
  double *Ka, *Ca;       /* n x n: the accelerations per displacement, per velocity */
  double *B;             /* 6 x nv: H00^-1 H0m (computed torque on a free base) */
  double *kd, *kp, *cd;  /* nv: the PD gains (force units), the joints' damping */
  double *kl, *cl;       /* nv: the limits' springs and dampers of the joints past them */
  unsigned char *lim_in; /* (nb) the joints past a limit at the last check */
  double *A;             /* 2n x 2n: A, then its Hessenberg form */
  double *re, *im, *v;   /* 2n: A's eigenvalues; Householder's vector */
  double *J, *Jm;        /* 3 x n: a contact point's Jacobian's linear rows; 6 x nv: its joints' */
  double *u, *jn;        /* n: the velocities; the contact's normal row of J */
  unsigned char *in;     /* (nsph) the spheres in the ground at the last check */
  double relax;          /* the fastest rate of a sliding contact's deflection, kt / ct */
  int ground_link;       /* the link of the contact of the lightest effective mass */
  double ground_inv;     /* its inverse effective mass (largest n' J H^-1 J' n) */
  int ncontact;          /* the spheres in the ground at the last check */
  int nb;                /* the model's bodies */
  double hk;             /* the step whose h k of a limit's spring is a damper (implicit), or 0 */
} stab_ws;


void spart_stab_free(struct spart_stab *w) {
  if (w) {
    free(w->in);
    free(w);
  }
}


/* the scratch of s, made at the first call or when the ground's spheres grew; NULL when out of
   memory */
static stab_ws *scratch(const spart_model *m, spart_sim *s, int fixed) {
  const int n = (fixed ? 0 : 6) + m->nv, nsph = s->scene && s->scene->ground ? s->scene->ground->n
                                                                             : 0;
  stab_ws *w = s->stab_;
  if (w && w->n == n && w->nsph >= nsph) {
    return w;
  }
  spart_stab_free(w);
  s->stab_ = NULL;
  size_t nd = (size_t)n * (size_t)n, n4 = 4 * nd, nv = (size_t)m->nv;
  w = calloc(1, sizeof(*w) + (9 * nd + n4 + 12 * nv + 5 * nv + 11 * (size_t)n) *
                                 sizeof(double));
  unsigned char *in = calloc((size_t)nsph + 1 + (size_t)m->nb, 1);
  if (!w || !in) {
    free(w);
    free(in);
    return NULL;
  }
  double *p = (double *)(w + 1);
  double **mats[9] = {&w->H, &w->Hi, &w->work, &w->HiKg, &w->HiCg, &w->Kg, &w->Cg, &w->Ka, &w->Ca};
  for (int k = 0; k < 9; k++) {
    *mats[k] = p, p += nd;
  }
  w->A = p, p += n4;
  w->re = p, p += 2 * (size_t)n;
  w->im = p, p += 2 * (size_t)n;
  w->v = p, p += 2 * (size_t)n;
  w->B = p, p += 6 * nv;
  w->kd = p, p += nv;
  w->kp = p, p += nv;
  w->cd = p, p += nv;
  w->kl = p, p += nv;
  w->cl = p, p += nv;
  w->Jm = p, p += 6 * nv;
  w->J = p, p += 3 * (size_t)n;
  w->u = p, p += n;
  w->jn = p;
  w->n = n;
  w->nn = 2 * n;
  w->nb = m->nb;
  w->nsph = nsph;
  w->in = in;
  w->lim_in = in + nsph + 1;
  s->stab_ = w;
  return w;
}


/* c = a b, n x n, row-major */
static void matmul(double *c, const double *a, const double *b, int n) {
  for (int i = 0; i < n; i++) {
    double *ci = c + (size_t)i * n;
    memset(ci, 0, (size_t)n * sizeof(double));
    for (int k = 0; k < n; k++) {
      double aik = a[(size_t)i * n + k];
      if (aik != 0) {
        const double *bk = b + (size_t)k * n;
        for (int j = 0; j < n; j++) {
          ci[j] += aik * bk[j];
        }
      }
    }
  }
}


/* the joints' terms: the viscous damping and the smoothed Coulomb friction's slope (the
   drive train's, when the simulation has it; computed torque cancels the viscous one), the PD
   gains, the limits' springs and dampers of the joints past them (the simulation's limit_seen
   flags taken and cleared) */
static void joint_terms(const spart_model *m, spart_sim *s, stab_ws *w) {
  const spart_control *c = s->scene ? s->scene->control : NULL;
  const int friction = (s->flags & SPART_FD_FRICTION) != 0, ctc = c && c->law == SPART_CONTROL_CTC;
  for (int a = 0; a < m->nv; a++) {
    int i = m->dof_body[a];
    double slope = 0;
    if (friction && s->coulomb_v > 0) {
      slope = fmax(m->jnt_friction[2 * i], m->jnt_friction[2 * i + 1]) / s->coulomb_v;
    }
    w->cd[a] = friction ? (ctc ? 0 : m->jnt_damping[i]) + slope : 0;
    int gains = c && (c->law == SPART_CONTROL_PD || ctc);
    w->kp[a] = gains ? c->kp[a] : 0;
    w->kd[a] = gains ? c->kd[a] : 0;
    w->kl[a] = w->cl[a] = 0;
  }
  /* the limits held of the joints past them, or found past them since the last check */
  for (int i = 1; i < m->nb; i++) {
    w->lim_in[i] = s->limit_seen[i];
    s->limit_seen[i] = 0;
    if (m->jnt_limited[i] && m->jnt_nq[i] == 1) {
      const double q = s->x->qm[m->jnt_qadr[i]], *r = m->jnt_range + 2 * i;
      w->lim_in[i] |= q < r[0] || q > r[1];
      if (w->lim_in[i]) {
        w->kl[m->jnt_vadr[i]] = s->limit_k[i];
        w->cl[m->jnt_vadr[i]] = s->limit_c[i];
      }
    }
  }
}


/* the ground's terms at the state (spart_fk's) into Kg, Cg (n x n, generalized forces through
   the Jacobian J of each contact's point): at each sphere in the ground, its spring k and damper
   c along the normal, and along the plane the stick-slip friction's tangential spring kt and
   damper ct (sticking; mu 0: none) or the regularised friction's (SPART_GROUND_SLIP) slope at
   rest, mu fn / vs; the flags of the spheres in the ground, the fastest relaxation kt / ct of a
   sliding contact's deflection, and the contact of the lightest effective mass
   1 / (n' J H^-1 J' n) */
static void ground_terms(const spart_model *m, spart_data *d, const spart_sim *s, stab_ws *w,
                         int fixed) {
  const spart_ground *g = s->scene->ground;
  const int n = w->n, off = fixed ? 0 : 6;
  const double *nrm = g->normal;
  double *rows = w->J, *jn = w->jn, J0[36];
  memset(w->Kg, 0, (size_t)n * (size_t)n * sizeof(double));
  memset(w->Cg, 0, (size_t)n * (size_t)n * sizeof(double));
  w->relax = 0;
  w->ground_inv = 0;
  w->ground_link = 0;
  w->ncontact = 0;
  for (int k = 0; k < n; k++) { /* the velocities [u0; um] */
    w->u[k] = k < off ? s->x->u0[k] : s->x->um[k - off];
  }
  for (int j = 0; j < g->n; j++) {
    double p[3], delta = spart_ground_point(m, d, g, j, p);
    w->in[j] = delta > 0 || (g->seen && g->seen[j]);
    if (!w->in[j]) {
      continue;
    }
    w->ncontact++;
    /* the point's Jacobian: its linear rows (3 x n) into rows, the normal's into jn */
    spart_jacobian(m, d, g->body[j], p, J0, w->Jm);
    double vn = 0, kt = 0, ct = 0, inv = 0;
    for (int k = 0; k < n; k++) {
      jn[k] = 0;
      for (int r = 0; r < 3; r++) {
        rows[r * n + k] = k < off ? J0[6 * (3 + r) + k] : w->Jm[(3 + r) * m->nv + k - off];
        jn[k] += nrm[r] * rows[r * n + k];
      }
      vn += jn[k] * w->u[k];
    }
    if (g->law == SPART_GROUND_SLIP) {
      ct = g->mu * fmax(0, g->stiffness * delta - g->damping * vn) / g->slip;
    } else {
      kt = g->mu > 0 ? g->tstiffness : 0;
      ct = g->mu > 0 ? g->tdamping : 0;
      w->relax = fmax(w->relax, g->tstiffness / g->tdamping);
    }
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < n; b++) {
        double tt = -jn[a] * jn[b]; /* (P J)' (P J), P = 1 - n n' */
        for (int r = 0; r < 3; r++) {
          tt += rows[r * n + a] * rows[r * n + b];
        }
        w->Kg[a * n + b] += g->stiffness * jn[a] * jn[b] + kt * tt;
        w->Cg[a * n + b] += g->damping * jn[a] * jn[b] + ct * tt;
        inv += jn[a] * w->Hi[a * n + b] * jn[b];
      }
    }
    if (inv > w->ground_inv) {
      w->ground_inv = inv;
      w->ground_link = g->body[j];
    }
  }
  if (g->seen) {
    memset(g->seen, 0, (size_t)g->n);
  }
  matmul(w->HiKg, w->Hi, w->Kg, n);
  matmul(w->HiCg, w->Hi, w->Cg, n);
}


/* computed torque on a free base: the base's acceleration -H00^-1 H0m a that comes with the
   joints' a, B = H00^-1 H0m (6 x nv) */
static int base_reaction(const spart_model *m, stab_ws *w) {
  const int n = w->n, nv = m->nv;
  double H00[36], H00i[36], work[36];
  for (int i = 0; i < 6; i++) {
    for (int j = 0; j < 6; j++) {
      H00[6 * i + j] = w->H[i * n + j];
    }
  }
  if (spart_spd_inverse(H00, 6, work, H00i) != 0) {
    return -1;
  }
  for (int i = 0; i < 6; i++) {
    for (int a = 0; a < nv; a++) {
      double sum = 0;
      for (int k = 0; k < 6; k++) {
        sum += H00i[6 * i + k] * w->H[k * n + 6 + a];
      }
      w->B[i * nv + a] = sum;
    }
  }
  return 0;
}


/* Ka, Ca of the parts in mask (DAMPING, CONTROL, GROUND) */
static void build(const spart_model *m, const spart_sim *s, stab_ws *w, int mask, int fixed) {
  const int n = w->n, off = fixed ? 0 : 6, ground = (mask & GROUND) && w->ncontact > 0;
  const spart_control *c = s->scene ? s->scene->control : NULL;
  const int ctc = c && c->law == SPART_CONTROL_CTC, control = (mask & CONTROL) != 0;
  for (int k = 0; k < n * n; k++) {
    w->Ka[k] = ground ? w->HiKg[k] : 0;
    w->Ca[k] = ground ? w->HiCg[k] : 0;
  }
  for (int a = 0; a < m->nv; a++) {
    const int col = off + a;
    /* a diagonal term of K or C: H^-1's column times it */
    double ka = (control && !ctc ? w->kp[a] : 0) + (mask & LIMIT ? w->kl[a] : 0);
    double ca = (mask & DAMPING ? w->cd[a] : 0) + (control && !ctc ? w->kd[a] : 0) +
                (mask & LIMIT ? w->cl[a] + w->hk * w->kl[a] : 0);
    for (int i = 0; i < n; i++) {
      w->Ka[i * n + col] += w->Hi[i * n + col] * ka;
      w->Ca[i * n + col] += w->Hi[i * n + col] * ca;
    }
    /* computed torque: the joint's acceleration, and a free base's reaction to it */
    if (control && ctc) {
      w->Ka[col * n + col] += w->kp[a];
      w->Ca[col * n + col] += w->kd[a];
      for (int i = 0; i < off; i++) {
        w->Ka[i * n + col] -= w->B[i * m->nv + a] * w->kp[a];
        w->Ca[i * n + col] -= w->B[i * m->nv + a] * w->kd[a];
      }
    }
  }
}


/* the reflector I - beta v v' that takes x (n) to a multiple of e1: v into x, beta returned
   (0: x is 0) */
static double house(double *x, int n) {
  double norm = 0;
  for (int k = 0; k < n; k++) {
    norm += x[k] * x[k];
  }
  if (!(norm > 0)) {
    return 0;
  }
  norm = sqrt(norm);
  x[0] += x[0] < 0 ? -norm : norm;
  double vv = 0;
  for (int k = 0; k < n; k++) {
    vv += x[k] * x[k];
  }
  return 2 / vv;
}


/* rows r0..r1 of columns c0..c0+nv-1 of a (ld) times I - beta v v' from the right (right) or
   columns c0..c1 of rows r0..r0+nv-1 from the left */
static void reflect(double *a, int ld, const double *v, int nv, double beta, int right, int from,
                    int to, int at) {
  for (int t = from; t <= to; t++) {
    double sum = 0;
    for (int k = 0; k < nv; k++) {
      sum += v[k] * (right ? a[t * ld + at + k] : a[(at + k) * ld + t]);
    }
    sum *= beta;
    for (int k = 0; k < nv; k++) {
      *(right ? &a[t * ld + at + k] : &a[(at + k) * ld + t]) -= sum * v[k];
    }
  }
}


/* a (n x n) to upper Hessenberg form by Householder's reflections (the same eigenvalues) */
static void hessenberg(double *a, int n, double *v) {
  for (int k = 0; k + 2 < n; k++) {
    int m = n - k - 1;
    for (int i = 0; i < m; i++) {
      v[i] = a[(k + 1 + i) * n + k];
    }
    double beta = house(v, m);
    if (beta != 0) {
      reflect(a, n, v, m, beta, 0, k, n - 1, k + 1);
      reflect(a, n, v, m, beta, 1, 0, n - 1, k + 1);
    }
    for (int i = 1; i < m; i++) {
      a[(k + 1 + i) * n + k] = 0;
    }
  }
}


/* one double-shift QR step of Francis on the unreduced Hessenberg block of h (ld) at
   [lo, lo + m), m >= 3, its shifts those of the trailing 2x2 (their sum s, product t: Golub and
   Van Loan, algorithm 7.5.1) */
static void francis(double *h, int ld, int lo, int m, double s, double t) {
  double *b = h + lo * ld + lo;
#define B(i, j) b[(i) * ld + (j)]
  double v[3] = {B(0, 0) * B(0, 0) + B(0, 1) * B(1, 0) - s * B(0, 0) + t,
                 B(1, 0) * (B(0, 0) + B(1, 1) - s), B(1, 0) * B(2, 1)};
  for (int k = 0; k + 2 < m; k++) {
    double beta = house(v, 3);
    if (beta != 0) {
      reflect(b, ld, v, 3, beta, 0, k > 0 ? k - 1 : 0, m - 1, k);
      reflect(b, ld, v, 3, beta, 1, 0, k + 3 < m ? k + 3 : m - 1, k);
    }
    v[0] = B(k + 1, k);
    v[1] = B(k + 2, k);
    v[2] = k + 3 < m ? B(k + 3, k) : 0;
  }
  double beta = house(v, 2);
  if (beta != 0) {
    reflect(b, ld, v, 2, beta, 0, m - 3, m - 1, m - 2);
    reflect(b, ld, v, 2, beta, 1, 0, m - 1, m - 2);
  }
#undef B
}


/* the eigenvalues of the upper Hessenberg h (n x n, overwritten) into re, im: QR steps on the
   unreduced block at its bottom until a 1x1 or 2x2 block splits off; 0, or -1 when one takes
   more than QR_STEPS */
static int eigenvalues(double *h, int n, double *re, double *im) {
#define H(i, j) h[(i) * n + (j)]
  int q = n - 1, steps = 0;
  while (q >= 0) {
    /* the negligible subdiagonal entries made 0; lo the unreduced block's first row */
    int lo = q;
    while (lo > 0) {
      if (fabs(H(lo, lo - 1)) <= DBL_EPSILON * (fabs(H(lo, lo)) + fabs(H(lo - 1, lo - 1)))) {
        H(lo, lo - 1) = 0;
        break;
      }
      lo--;
    }
    if (lo == q) { /* a 1x1 block */
      re[q] = H(q, q);
      im[q] = 0;
      q--;
      steps = 0;
    } else if (lo == q - 1) { /* a 2x2 block: its roots */
      double a = H(q - 1, q - 1), b = H(q - 1, q), c = H(q, q - 1), d = H(q, q);
      double mid = (a + d) / 2, disc = (a - d) * (a - d) / 4 + b * c;
      re[q - 1] = re[q] = mid;
      im[q - 1] = im[q] = 0;
      if (disc >= 0) {
        re[q - 1] += sqrt(disc);
        re[q] -= sqrt(disc);
      } else {
        im[q - 1] = sqrt(-disc);
        im[q] = -sqrt(-disc);
      }
      q -= 2;
      steps = 0;
    } else {
      if (++steps > QR_STEPS) {
        return -1;
      }
      /* the shifts: the trailing 2x2's eigenvalues, or now and then others (its scale) */
      double s = H(q - 1, q - 1) + H(q, q);
      double t = H(q - 1, q - 1) * H(q, q) - H(q - 1, q) * H(q, q - 1);
      if (steps % 11 == 10) {
        double e = fabs(H(q, q - 1)) + fabs(H(q - 1, q - 2));
        s = 1.5 * e;
        t = e * e;
      }
      francis(h, n, lo, q - lo + 1, s, t);
    }
  }
  return 0;
#undef H
}


/* |R(x + i y)|^2, R RK4's stability function */
static double rk4_gain(double x, double y) {
  /* R = 1 + z (1 + z/2 (1 + z/3 (1 + z/4))) by Horner, z = x + i y */
  double pr = 1, pi = 0;
  for (int k = 4; k >= 1; k--) {
    double qr = (x * pr - y * pi) / k, qi = (x * pi + y * pr) / k;
    pr = 1 + qr;
    pi = qi;
  }
  return pr * pr + pi * pi;
}


/* the largest h with |R(h z)| <= 1 on (0, h], z = x + i y, x <= 0 (x > 0 from rounding taken
   as 0); INFINITY for z = 0 */
static double ray_limit(double x, double y) {
  double r = hypot(fmin(x, 0), y);
  if (!(r > 0)) {
    return INFINITY;
  }
  double ux = fmin(x, 0) / r, uy = y / r, lo = 0, hi = 0;
  /* the first point out of the region along the ray (the region lies within |z| < 3), then
     bisection */
  for (double t = 0.01; t < 4 && hi == 0; t += 0.01) {
    if (rk4_gain(t * ux, t * uy) > 1) {
      hi = t;
    } else {
      lo = t;
    }
  }
  for (int it = 0; it < 50 && hi > 0; it++) {
    double mid = (lo + hi) / 2;
    *(rk4_gain(mid * ux, mid * uy) > 1 ? &hi : &lo) = mid;
  }
  return lo / r;
}


/* the largest stable step of the parts built (and, with the ground, its sliding contacts'
   rate): that of A's eigenvalue the closest to the region's edge; -1 when they were not
   found */
static double limit(stab_ws *w, int ground) {
  const int n = w->n, nn = w->nn;
  double *A = w->A;
  /* A = [0 1; -Ka -Ca] in its Hessenberg form */
  memset(A, 0, (size_t)nn * (size_t)nn * sizeof(double));
  for (int i = 0; i < n; i++) {
    A[i * nn + n + i] = 1;
    for (int j = 0; j < n; j++) {
      A[(n + i) * nn + j] = -w->Ka[i * n + j];
      A[(n + i) * nn + n + j] = -w->Ca[i * n + j];
    }
  }
  hessenberg(A, nn, w->v);
  if (eigenvalues(A, nn, w->re, w->im) != 0) {
    return -1;
  }
  double h = ground && w->relax > 0 ? RK4_REAL / w->relax : INFINITY;
  for (int k = 0; k < nn; k++) {
    h = fmin(h, ray_limit(w->re[k], w->im[k]));
  }
  return h;
}


/* the degree of freedom whose own term of K or C (k, c: nv) on its own inertia (1 / H^-1's
   diagonal; 1 with hi NULL) is the fastest for RK4 */
static int fastest(const spart_model *m, const stab_ws *w, const double *k, const double *c,
                   const double *hi, int off) {
  int best = 0;
  double most = -1;
  for (int a = 0; a < m->nv; a++) {
    double inv = hi ? hi[(off + a) * (w->n + 1)] : 1;
    double r = fmax(c[a] * inv / RK4_REAL, k ? sqrt(k[a] * inv) / 2.83 : 0);
    if (r > most) {
      most = r;
      best = a;
    }
  }
  return m->dof_body[best];
}


/* the scratch with the run's terms at the state (H, H^-1, the joints', the ground's) and the
   parts present in *parts; NULL with *parts 0 when there is nothing to check (no stiff term,
   coupled mimic joints, out of memory), NULL with *parts -1 when H is not positive definite */
static stab_ws *terms(const spart_model *m, spart_data *d, spart_sim *s, int fixed, int *parts) {
  const spart_control *c = s->scene ? s->scene->control : NULL;
  const int ctc = c && c->law == SPART_CONTROL_CTC;
  const int ground = s->scene && s->scene->ground;
  *parts = 0;
  if (m->coupled) {
    return NULL; /* (the coupled inertia is not formed here: neither the controller nor the
                    ground take mimic joints) */
  }
  stab_ws *w = scratch(m, s, fixed);
  if (!w) {
    return NULL; /* no check rather than no run: the run itself needs no more memory */
  }
  joint_terms(m, s, w);
  int p = ground ? GROUND : 0;
  for (int a = 0; a < m->nv; a++) {
    p |= (w->cd[a] > 0 ? DAMPING : 0) | (w->kp[a] > 0 || w->kd[a] > 0 ? CONTROL : 0) |
         (w->kl[a] > 0 || w->cl[a] > 0 ? LIMIT : 0);
  }
  if (!p) {
    return NULL;
  }
  spart_crba(m, d, s->x, fixed, w->H);
  if (spart_spd_inverse(w->H, w->n, w->work, w->Hi) != 0 ||
      (ctc && !fixed && base_reaction(m, w) != 0)) {
    *parts = -1;
    return NULL;
  }
  w->ncontact = 0;
  if (ground) {
    spart_fk(m, d, s->x);
    ground_terms(m, d, s, w, fixed);
  }
  *parts = p;
  return w;
}


/* why's joint or link for its cause */
static void culprit(const spart_model *m, const spart_sim *s, const stab_ws *w, int fixed,
                    spart_stiff *why) {
  const spart_control *c = s->scene ? s->scene->control : NULL;
  const int ctc = c && c->law == SPART_CONTROL_CTC, off = fixed ? 0 : 6;
  why->body = why->cause == SPART_STIFF_DAMPING   ? fastest(m, w, NULL, w->cd, w->Hi, off)
              : why->cause == SPART_STIFF_CONTROL ? fastest(m, w, w->kp, w->kd,
                                                            ctc ? NULL : w->Hi, off)
              : why->cause == SPART_STIFF_LIMIT   ? fastest(m, w, w->kl, w->cl, w->Hi, off)
                                                  : w->ground_link;
}


/* a part's SPART_STIFF_* */
static int cause_of(int part) {
  return part == DAMPING   ? SPART_STIFF_DAMPING
         : part == CONTROL ? SPART_STIFF_CONTROL
         : part == GROUND  ? SPART_STIFF_GROUND
                           : SPART_STIFF_LIMIT;
}


/* the implicit step's growth over one step of h for the parts in mask (Ka, Ca built for h): in
   x (the displacements) and w = h v, (I + h Ca) w+ = w - h^2 Ka x, x+ = x + w+, so
   [x+; w+] = [I - P, G; -P, G] [x; w], G = (I + h Ca)^-1, P = h^2 G Ka; the largest modulus of
   its eigenvalues, or -1 when they were not found (or I + h Ca is singular) */
static double implicit_growth(const spart_model *m, const spart_sim *s, stab_ws *w, int mask,
                              int fixed, double h) {
  const int n = w->n, nn = w->nn;
  double *G = w->Kg, *P = w->Cg, *A = w->A; /* (Kg, Cg: free once HiKg, HiCg are made) */
  w->hk = h;
  build(m, s, w, mask, fixed);
  for (int i = 0; i < n * n; i++) {
    w->work[i] = (i % (n + 1) == 0) + h * w->Ca[i];
  }
  for (int i = 0; i < n * n; i++) {
    G[i] = i % (n + 1) == 0;
  }
  if (spu_lusolve(w->work, G, n, n) != 0) { /* G = (I + h Ca)^-1 */
    return -1;
  }
  matmul(P, G, w->Ka, n);
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      double p = h * h * P[i * n + j], g = G[i * n + j];
      A[i * nn + j] = (i == j) - p;
      A[i * nn + n + j] = g;
      A[(n + i) * nn + j] = -p;
      A[(n + i) * nn + n + j] = g;
    }
  }
  hessenberg(A, nn, w->v);
  if (eigenvalues(A, nn, w->re, w->im) != 0) {
    return -1;
  }
  double most = 0;
  for (int k = 0; k < nn; k++) {
    most = fmax(most, hypot(w->re[k], w->im[k]));
  }
  return most;
}


/* the implicit step's growth allowed: a free body's [1 1; 0 1] has a double eigenvalue 1, which
   rounding splits by about the square root of the machine's epsilon */
#define IMPLICIT_GROWTH (1 + 1e-6)


/* the largest step in (0, h] whose growth is allowed, for the parts in mask, by bisection from h
   (not allowed) */
static double implicit_bound(const spart_model *m, const spart_sim *s, stab_ws *w, int mask,
                             int fixed, double h) {
  double lo = 0, hi = h;
  for (int it = 0; it < 40; it++) {
    double mid = (lo + hi) / 2, g = implicit_growth(m, s, w, mask, fixed, mid);
    *(g >= 0 && g <= IMPLICIT_GROWTH ? &lo : &hi) = mid;
  }
  return lo;
}


/* the largest stable step of the parts in mask, rk4's (beyond h too) or the implicit step's
   (h when h is stable); -1 when the eigenvalues were not found */
static double part_limit(const spart_model *m, const spart_sim *s, stab_ws *w, int mask,
                         int fixed, double h, int implicit) {
  if (!implicit) {
    w->hk = 0;
    build(m, s, w, mask, fixed);
    return limit(w, (mask & GROUND) != 0);
  }
  double g = implicit_growth(m, s, w, mask, fixed, h);
  return g < 0 ? -1 : g <= IMPLICIT_GROWTH ? h : implicit_bound(m, s, w, mask, fixed, h);
}


/* spart_sim_rk4_limit, or with implicit spart_sim_implicit_limit */
static double step_limit(const spart_model *m, spart_data *d, spart_sim *s, double h,
                         spart_stiff *why, int implicit) {
  const int fixed = (s->flags & SPART_FD_FIXED) != 0;
  int parts;
  why->cause = SPART_STIFF_NONE;
  why->body = 0;
  stab_ws *w = terms(m, d, s, fixed, &parts);
  if (!w) {
    return parts < 0 ? 0 : h;
  }
  double hmax = part_limit(m, s, w, ALL, fixed, h, implicit);
  if (h <= hmax || hmax < 0) {
    return h; /* (no eigenvalues: no check rather than no run) */
  }
  /* the cause: the part whose own limit is the smallest */
  double least = INFINITY;
  for (int part = DAMPING; part <= LIMIT; part *= 2) {
    if (parts & part) {
      double hp = part_limit(m, s, w, part, fixed, h, implicit);
      if (hp >= 0 && hp < least) {
        least = hp;
        why->cause = cause_of(part);
      }
    }
  }
  culprit(m, s, w, fixed, why);
  return hmax;
}


double spart_sim_rk4_limit(const spart_model *m, spart_data *d, spart_sim *s, double h,
                           spart_stiff *why) {
  return step_limit(m, d, s, h, why, 0);
}


double spart_sim_implicit_limit(const spart_model *m, spart_data *d, spart_sim *s, double h,
                                spart_stiff *why) {
  return step_limit(m, d, s, h, why, 1);
}


int spart_sim_rk4_contacts(const spart_sim *s) {
  const spart_ground *g = s->scene ? s->scene->ground : NULL;
  const stab_ws *w = s->stab_;
  for (int i = 1; w && i < w->nb; i++) {
    if (s->limit_seen[i] && !w->lim_in[i]) {
      return 1;
    }
  }
  if (!g || !g->seen || !w || w->nsph < g->n) {
    return 0;
  }
  for (int j = 0; j < g->n; j++) {
    if (g->seen[j] && !w->in[j]) {
      return 1;
    }
  }
  return 0;
}
