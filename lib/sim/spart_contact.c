/* spart_contact.c -- contact statics (Klampt's contact mechanics): polyhedral friction cones,
 * force closure, the support polygon (Bretl and Lall), CoM equilibrium, and the joint torques
 * and contact forces that hold a robot, each a linear program solved by GLPK (the only file
 * that uses it). */
#include <glpk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"

#define TWO_PI 6.283185307179586
#define SUPPORT_TOL 1e-9 /* a new support point counts when it is this far (in units of the
                            contacts' spread) past the edge it was sought beyond */


void spart_contact_points(const spart_model *m, const spart_data *d, const spart_stance *st,
                          double *x) {
  for (int k = 0; k < st->nc; k++) {
    const spart_contact *c = st->c + k;
    spart_link_point(m, d, c->body, c->point, x + 3 * k); /* the URDF link frame's point */
  }
}


void spart_contact_release(void) {
  glp_free_env();
}


int spart_cone_edges(const spart_contact *c, int edges, double *e) {
  const double *n = c->normal;
  if (c->mu == 0) {
    memcpy(e, n, 3 * sizeof(double));
    return 1;
  }
  /* t1 = n x a, a the coordinate axis least along n (the first of equals), t2 = n x t1 */
  double a[3] = {0, 0, 0}, t1[3], t2[3];
  int least = 0;
  for (int k = 1; k < 3; k++) {
    least = fabs(n[k]) < fabs(n[least]) ? k : least;
  }
  a[least] = 1;
  spu_cross(t1, n, a);
  double l = sqrt(spu_dot3(t1, t1));
  for (int k = 0; k < 3; k++) {
    t1[k] /= l;
  }
  spu_cross(t2, n, t1);
  for (int j = 0; j < edges; j++) {
    double s = sin(TWO_PI * j / edges), co = cos(TWO_PI * j / edges);
    for (int k = 0; k < 3; k++) {
      e[3 * j + k] = n[k] + c->mu * (co * t1[k] + s * t2[k]);
    }
  }
  return edges;
}


void spart_support_axes(const double gravity[3], double u[3], double v[3]) {
  double g = sqrt(spu_dot3(gravity, gravity)), up[3], a[3] = {1, 0, 0};
  for (int k = 0; k < 3; k++) {
    up[k] = -gravity[k] / g;
  }
  if (fabs(up[0]) > 0.9) { /* x nearly along gravity: y instead */
    a[0] = 0, a[1] = 1;
  }
  double s = spu_dot3(a, up);
  for (int k = 0; k < 3; k++) {
    u[k] = a[k] - s * up[k];
  }
  double l = sqrt(spu_dot3(u, u));
  for (int k = 0; k < 3; k++) {
    u[k] /= l;
  }
  spu_cross(v, up, u);
}


/* ---- the linear programs ---- */

/* a linear program being built: GLPK's problem and its nonzeros (1-based, as GLPK takes them) */
typedef struct {
  glp_prob *P;
  int *ia, *ja;
  double *ar;
  int nz, cap;
} lp;


static int lp_new(lp *l, int rows, int cols, int cap) {
  memset(l, 0, sizeof(*l));
  l->ia = malloc(sizeof(int) * (size_t)(cap + 1));
  l->ja = malloc(sizeof(int) * (size_t)(cap + 1));
  l->ar = malloc(sizeof(double) * (size_t)(cap + 1));
  l->cap = cap;
  if (!l->ia || !l->ja || !l->ar) {
    return -1;
  }
  glp_term_out(GLP_OFF);
  l->P = glp_create_prob();
  if (rows > 0) {
    glp_add_rows(l->P, rows);
  }
  if (cols > 0) {
    glp_add_cols(l->P, cols);
  }
  return 0;
}


static void lp_free(lp *l) {
  if (l->P) {
    glp_delete_prob(l->P);
  }
  free(l->ia);
  free(l->ja);
  free(l->ar);
}


/* entry (row, col), 0-based; zeros are left out */
static void lp_set(lp *l, int row, int col, double v) {
  if (v != 0 && l->nz < l->cap) {
    l->nz++;
    l->ia[l->nz] = row + 1;
    l->ja[l->nz] = col + 1;
    l->ar[l->nz] = v;
  }
}


enum { LP_FAIL = -1, LP_INFEASIBLE = 0, LP_OPTIMAL = 1, LP_UNBOUNDED = 2 };

/* solve by the simplex method from the last basis (a fresh one when it will not do) */
static int lp_solve(lp *l) {
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.presolve = GLP_OFF;
  int r = glp_simplex(l->P, &parm);
  if (r == GLP_EBADB || r == GLP_ESING || r == GLP_ECOND) {
    glp_std_basis(l->P);
    r = glp_simplex(l->P, &parm);
  }
  if (r != 0) {
    return LP_FAIL;
  }
  switch (glp_get_status(l->P)) {
    case GLP_OPT: return LP_OPTIMAL;
    case GLP_NOFEAS: return LP_INFEASIBLE;
    case GLP_UNBND: return LP_UNBOUNDED;
    default: return LP_FAIL;
  }
}


static int fail(spart_err *err, int code, const char *msg) {
  if (err) {
    err->code = code;
    strncpy(err->msg, msg, sizeof(err->msg) - 1);
    err->msg[sizeof(err->msg) - 1] = 0;
  }
  return -code;
}


/* whether the contacts and the cones' edges are ones the programs take; 0, or -SPART_EDATA */
static int check(int nc, int edges, spart_err *err) {
  if (nc < 1) {
    return fail(err, SPART_EDATA, "no contacts");
  }
  if (edges < 3 || edges > SPART_CONTACT_MAXEDGES) {
    return fail(err, SPART_EDATA, "a friction cone has 3 to 64 edges");
  }
  return 0;
}


/* the contacts' cone edges as wrenches [(x - o) / L x e; e] about their centroid o, lengths in
   units of L, their largest distance from o (1 when they coincide): gen (ng x 6), o, L; the
   number of edges ng.  x: the points (nc x 3). */
static int wrench_edges(int nc, const spart_contact *c, int edges, const double *x, double *gen,
                        double o[3], double *L) {
  int ng = 0;
  o[0] = o[1] = o[2] = 0;
  for (int k = 0; k < nc; k++) {
    for (int e = 0; e < 3; e++) {
      o[e] += x[3 * k + e] / nc;
    }
  }
  *L = 0;
  for (int k = 0; k < nc; k++) {
    double r = sqrt(pow(x[3 * k] - o[0], 2) + pow(x[3 * k + 1] - o[1], 2) +
                    pow(x[3 * k + 2] - o[2], 2));
    *L = r > *L ? r : *L;
  }
  if (*L == 0) {
    *L = 1;
  }
  for (int k = 0; k < nc; k++) {
    double e[3 * 64], r[3];
    int ne = spart_cone_edges(c + k, edges, e);
    for (int q = 0; q < 3; q++) {
      r[q] = (x[3 * k + q] - o[q]) / *L;
    }
    for (int j = 0; j < ne; j++, ng++) {
      spu_cross(gen + 6 * ng, r, e + 3 * j);
      memcpy(gen + 6 * ng + 3, e + 3 * j, 3 * sizeof(double));
    }
  }
  return ng;
}


/* the contacts' points (from r0) and edge wrenches, malloc'd into *x and *gen; ng or -1 */
static int contact_wrenches(const spart_model *m, const spart_data *d, const spart_stance *st,
                            double **x, double **gen, double o[3], double *L) {
  *x = malloc(sizeof(double) * 3 * (size_t)st->nc);
  *gen = malloc(sizeof(double) * 6 * (size_t)st->nc * (size_t)st->edges);
  if (!*x || !*gen) {
    return -1;
  }
  spart_contact_points(m, d, st, *x);
  return wrench_edges(st->nc, st->c, st->edges, *x, *gen, o, L);
}


int spart_force_closure(const spart_model *m, const spart_data *d, const spart_stance *st,
                        spart_err *err) {
  if (check(st->nc, st->edges, err) != 0) {
    return -SPART_EDATA;
  }
  double *x = NULL, *gen = NULL, o[3], L;
  lp l = {0};
  int ng = contact_wrenches(m, d, st, &x, &gen, o, &L), closure = 1;
  if (ng < 0 || lp_new(&l, 6, ng, 6 * ng) != 0) {
    free(x), free(gen);
    lp_free(&l);
    return fail(err, SPART_ENOMEM, "out of memory");
  }

  /* the edges' cone is all of wrench space when it holds the 7 vectors of a positive basis,
     e_1..e_6 and -(e_1 + ... + e_6): 7 feasibility problems sum lambda_j w_j = b, lambda >= 0 */
  for (int j = 0; j < ng; j++) {
    glp_set_col_bnds(l.P, j + 1, GLP_LO, 0, 0);
    for (int r = 0; r < 6; r++) {
      lp_set(&l, r, j, gen[6 * j + r]);
    }
  }
  glp_load_matrix(l.P, l.nz, l.ia, l.ja, l.ar);
  for (int b = 0; b < 7 && closure == 1; b++) {
    for (int r = 0; r < 6; r++) {
      double v = b == 6 ? -1 : r == b;
      glp_set_row_bnds(l.P, r + 1, GLP_FX, v, v);
    }
    int s = ng > 0 ? lp_solve(&l) : LP_INFEASIBLE;
    closure = s == LP_FAIL ? -1 : s == LP_OPTIMAL;
  }
  free(x), free(gen);
  lp_free(&l);
  return closure < 0 ? fail(err, SPART_ENUM, "the force-closure program failed (GLPK)") : closure;
}


/* the point of the support region furthest along direction dir (2), into p; LP_* */
static int support_point(lp *l, int cx, const double dir[2], double p[2]) {
  glp_set_obj_coef(l->P, cx + 1, dir[0]);
  glp_set_obj_coef(l->P, cx + 2, dir[1]);
  int s = lp_solve(l);
  p[0] = glp_get_col_prim(l->P, cx + 1);
  p[1] = glp_get_col_prim(l->P, cx + 2);
  return s;
}


/* Bretl and Lall's projection: the polygon of the support region (the LP's columns cx, cx + 1)
   by support points, each edge of the inner polygon pushed out along its normal until no point
   lies beyond it; vertices into v (cap x 2), their number into *n.  LP_* (LP_INFEASIBLE: the
   region is empty), or -2 when there are more than cap vertices. */
static int bretl_lall(lp *l, int cx, int cap, double *v, int *n, int *final) {
  glp_set_obj_dir(l->P, GLP_MAX);
  *n = 0;
  for (int j = 0; j < 3; j++) { /* three directions 120 degrees apart */
    double dir[2] = {cos(TWO_PI * j / 3), sin(TWO_PI * j / 3)};
    int s = support_point(l, cx, dir, v + 2 * *n);
    if (s != LP_OPTIMAL) {
      return s;
    }
    final[(*n)++] = 0;
  }
  for (;;) {
    int k = 0;
    while (k < *n && final[k]) {
      k++;
    }
    if (k == *n) {
      return LP_OPTIMAL;
    }
    const double *a = v + 2 * k, *b = v + 2 * ((k + 1) % *n);
    double dx = b[0] - a[0], dy = b[1] - a[1], len = hypot(dx, dy), p[2];
    if (len <= SUPPORT_TOL) { /* one point is the furthest over the whole angle between */
      final[k] = 1;
      continue;
    }
    double dir[2] = {dy / len, -dx / len};
    int s = support_point(l, cx, dir, p);
    if (s != LP_OPTIMAL) {
      return s == LP_INFEASIBLE ? LP_FAIL : s;
    }
    if (dir[0] * (p[0] - a[0]) + dir[1] * (p[1] - a[1]) <= SUPPORT_TOL) {
      final[k] = 1; /* an edge of the region */
      continue;
    }
    if (*n == cap) {
      return -2;
    }
    for (int j = *n; j > k + 1; j--) { /* p goes in between a and b */
      v[2 * j] = v[2 * j - 2], v[2 * j + 1] = v[2 * j - 1];
      final[j] = final[j - 1];
    }
    v[2 * (k + 1)] = p[0], v[2 * (k + 1) + 1] = p[1];
    final[k] = final[k + 1] = 0;
    (*n)++;
  }
}


int spart_support_polygon(const spart_model *m, const spart_data *d, const spart_stance *st,
                          const double gravity[3], spart_support *sp, spart_err *err) {
  if (check(st->nc, st->edges, err) != 0) {
    return -SPART_EDATA;
  }
  double *x = NULL, *gen = NULL, o[3], L, u[3], v[3], w[3], uw[3], vw[3], cg[3];
  int *final = malloc(sizeof(int) * (size_t)(sp->cap > 0 ? sp->cap : 1));
  lp l = {0};
  int ng = contact_wrenches(m, d, st, &x, &gen, o, &L);
  if (!final || ng < 0 || lp_new(&l, 6, ng + 2, 6 * ng + 6) != 0) {
    free(x), free(gen), free(final);
    lp_free(&l);
    return fail(err, SPART_ENOMEM, "out of memory");
  }
  free(x);

  /* the plane's axes u, v; a unit weight w along gravity at c = o + L (cx u + cy v) (+ along w) */
  spart_support_axes(gravity, u, v);
  double gn = sqrt(spu_dot3(gravity, gravity));
  for (int k = 0; k < 3; k++) {
    w[k] = gravity[k] / gn;
    o[k] += d->r0[k];
    cg[k] = d->com[k] + d->r0[k] - o[k];
  }
  spu_cross(uw, u, w);
  spu_cross(vw, v, w);

  /* statics of the whole robot as one body: sum of edge wrenches lambda_j w_j (about o, moments
     over L) + the weight's wrench [(c - o) / L x w; w] = 0, lambda >= 0, cx and cy free */
  for (int j = 0; j < ng; j++) {
    glp_set_col_bnds(l.P, j + 1, GLP_LO, 0, 0);
    for (int r = 0; r < 6; r++) {
      lp_set(&l, r, j, gen[6 * j + r]);
    }
  }
  for (int r = 0; r < 3; r++) {
    lp_set(&l, r, ng, uw[r]);
    lp_set(&l, r, ng + 1, vw[r]);
    glp_set_row_bnds(l.P, r + 1, GLP_FX, 0, 0);
    glp_set_row_bnds(l.P, r + 4, GLP_FX, -w[r], -w[r]);
  }
  glp_load_matrix(l.P, l.nz, l.ia, l.ja, l.ar);
  free(gen);

  /* the CoM: held when the program has a solution with cx, cy fixed there */
  double ccx = spu_dot3(cg, u) / L, ccy = spu_dot3(cg, v) / L, ou = spu_dot3(o, u),
         ov = spu_dot3(o, v);
  glp_set_col_bnds(l.P, ng + 1, GLP_FX, ccx, ccx);
  glp_set_col_bnds(l.P, ng + 2, GLP_FX, ccy, ccy);
  int s = lp_solve(&l);
  sp->com_eq = s == LP_OPTIMAL;
  sp->com[0] = ou + L * ccx;
  sp->com[1] = ov + L * ccy;

  /* the region: cx, cy free */
  if (s != LP_FAIL) {
    glp_set_col_bnds(l.P, ng + 1, GLP_FR, 0, 0);
    glp_set_col_bnds(l.P, ng + 2, GLP_FR, 0, 0);
    s = bretl_lall(&l, ng, sp->cap, sp->vert, &sp->nvert, final);
  }
  lp_free(&l);
  free(final);
  if (s == -2) {
    return fail(err, SPART_ENUM, "the support polygon has too many vertices");
  }
  if (s == LP_FAIL) {
    return fail(err, SPART_ENUM, "the support polygon's program failed (GLPK)");
  }
  sp->bounded = s != LP_UNBOUNDED;
  sp->nvert = s == LP_OPTIMAL ? sp->nvert : 0;

  /* vertices: no repeats, none on an edge; in the plane's coordinates; half-planes, margin */
  sp->nvert = spu_polygon_clean(sp->vert, sp->nvert, SUPPORT_TOL);
  for (int k = 0; k < sp->nvert; k++) {
    sp->vert[2 * k] = ou + L * sp->vert[2 * k];
    sp->vert[2 * k + 1] = ov + L * sp->vert[2 * k + 1];
  }
  sp->nhalf = spu_polygon_halfplanes(sp->half, sp->vert, sp->nvert);
  sp->margin = sp->nvert > 0 ? spu_polygon_margin(sp->vert, sp->nvert, sp->half, sp->nhalf,
                                                  sp->com)
                             : NAN;
  return 0;
}


/* the contacts' Jacobians' linear rows transposed times each cone edge: col (ng x (6+nv)) */
static int edge_forces(const spart_model *m, const spart_data *d, int nc, const spart_contact *c,
                       int edges, const double *x, double *E, double *col) {
  int nu = 6 + m->nv, ng = 0;
  double *J = malloc(sizeof(double) * (36 + 6 * (size_t)m->nv));
  if (!J) {
    return -1;
  }
  for (int k = 0; k < nc; k++) {
    int ne = spart_cone_edges(c + k, edges, E + 3 * ng);
    spart_jacobian(m, d, c[k].body, x + 3 * k, J, J + 36);
    for (int j = 0; j < ne; j++, ng++) {
      const double *e = E + 3 * ng;
      for (int q = 0; q < nu; q++) { /* J' e over the point's velocity rows */
        const double *Jr = q < 6 ? J + 18 + q : J + 36 + 3 * m->nv + (q - 6);
        int st = q < 6 ? 6 : m->nv;
        col[(size_t)ng * nu + q] = Jr[0] * e[0] + Jr[st] * e[1] + Jr[2 * st] * e[2];
      }
    }
  }
  free(J);
  return ng;
}


/* the forces from the solved program's edge weights (none below 0); the torques from the
   forces, so that the joints' rows hold to rounding */
static void statics_solution(lp *l, const spart_model *m, int nc, const spart_contact *c,
                             int edges, const double *G, double sF, const double *E,
                             const double *col, double *taum, double *f) {
  int nv = m->nv, nu = 6 + nv;
  memset(f, 0, sizeof(double) * 3 * (size_t)nc);
  memcpy(taum, G + 6, sizeof(double) * (size_t)nv);
  for (int k = 0, j = 0; k < nc; k++) {
    int ne = c[k].mu == 0 ? 1 : edges;
    for (int e = 0; e < ne; e++, j++) {
      double lam = glp_get_col_prim(l->P, j + 1);
      lam = lam > 0 ? lam * sF : 0;
      for (int q = 0; q < 3; q++) {
        f[3 * k + q] += lam * E[3 * j + q];
      }
      for (int q = 0; q < nv; q++) {
        taum[q] -= lam * col[(size_t)j * nu + 6 + q];
      }
    }
  }
}


/* whether a torque of taum (nv) is beyond its joint's effort limit */
static int beyond_effort(const spart_model *m, const double *taum) {
  for (int k = 0; k < m->nv; k++) {
    double lim = m->jnt_effort[m->dof_body[k]];
    if (lim > 0 && fabs(taum[k]) > lim) {
      return 1;
    }
  }
  return 0;
}


int spart_contact_statics(const spart_model *m, const spart_data *d, const spart_stance *st,
                          const double *G, spart_statics *eq, spart_err *err) {
  const int nc = st->nc, edges = st->edges, fixed_base = eq->fixed_base;
  const spart_contact *c = st->c;
  const double max_torque = eq->max_torque;
  double *taum = eq->taum, *f = eq->f;
  const char **reason = &eq->reason;
  eq->reason = NULL;
  if (check(nc, edges, err) != 0) {
    return -SPART_EDATA;
  }
  int nv = m->nv, nu = 6 + nv, base = fixed_base ? 6 : 0;
  double *x = malloc(sizeof(double) * 3 * (size_t)nc);
  double *E = malloc(sizeof(double) * 3 * (size_t)nc * (size_t)edges);
  double *col = malloc(sizeof(double) * (size_t)nu * (size_t)nc * (size_t)edges);
  lp l = {0};
  int ng = -1;
  if (x && E && col) {
    spart_contact_points(m, d, st, x);
    ng = edge_forces(m, d, nc, c, edges, x, E, col);
  }
  if (ng < 0 || lp_new(&l, nu + 2 * nv, ng + nv + 1, (ng + 3) * nu) != 0) {
    free(x), free(E), free(col);
    lp_free(&l);
    return fail(err, SPART_ENOMEM, "out of memory");
  }

  /* forces in units of the largest of G */
  double sF = 0;
  for (int q = 0; q < nu; q++) {
    sF = fabs(G[q]) > sF ? fabs(G[q]) : sF;
  }
  sF = sF > 0 ? sF : 1;

  /* G = [0; tau] + sum J_i' f_i, f_i = sum lambda_j e_j (lambda >= 0), |tau_k| <= t (and
     max_torque): minimise t, the torques' largest magnitude */
  for (int j = 0; j < ng; j++) {
    glp_set_col_bnds(l.P, j + 1, GLP_LO, 0, 0);
    for (int q = base; q < nu; q++) {
      lp_set(&l, q, j, col[(size_t)j * nu + q]);
    }
  }
  for (int q = 0; q < nu; q++) {
    glp_set_row_bnds(l.P, q + 1, q < base ? GLP_FR : GLP_FX, G[q] / sF, G[q] / sF);
  }
  for (int k = 0; k < nv; k++) {
    int ct = ng + k;
    if (max_torque > 0) {
      glp_set_col_bnds(l.P, ct + 1, GLP_DB, -max_torque / sF, max_torque / sF);
    } else {
      glp_set_col_bnds(l.P, ct + 1, GLP_FR, 0, 0);
    }
    lp_set(&l, 6 + k, ct, 1);
    lp_set(&l, nu + 2 * k, ct, 1); /* tau_k - t <= 0 */
    lp_set(&l, nu + 2 * k, ng + nv, -1);
    lp_set(&l, nu + 2 * k + 1, ct, -1); /* -tau_k - t <= 0 */
    lp_set(&l, nu + 2 * k + 1, ng + nv, -1);
    glp_set_row_bnds(l.P, nu + 2 * k + 1, GLP_UP, 0, 0);
    glp_set_row_bnds(l.P, nu + 2 * k + 2, GLP_UP, 0, 0);
  }
  glp_set_col_bnds(l.P, ng + nv + 1, GLP_LO, 0, 0);
  glp_set_obj_coef(l.P, ng + nv + 1, 1);
  glp_set_obj_dir(l.P, GLP_MIN);
  glp_load_matrix(l.P, l.nz, l.ia, l.ja, l.ar);
  int s = lp_solve(&l);
  if (s == LP_INFEASIBLE && max_torque > 0) { /* why: the cones, or the torque limit */
    for (int k = 0; k < nv; k++) {
      glp_set_col_bnds(l.P, ng + k + 1, GLP_FR, 0, 0);
    }
    *reason = lp_solve(&l) == LP_OPTIMAL
                  ? "the torques needed exceed the torque limit"
                  : "no contact forces within the friction cones hold the robot";
  } else if (s == LP_INFEASIBLE) {
    *reason = "no contact forces within the friction cones hold the robot";
  }
  if (s == LP_OPTIMAL) {
    statics_solution(&l, m, nc, c, edges, G, sF, E, col, taum, f);
  }

  /* without max_torque, the joints' effort limits: the torques found stand when within them,
     else the program is solved again with them as bounds */
  if (s == LP_OPTIMAL && max_torque <= 0 && beyond_effort(m, taum)) {
    for (int k = 0; k < nv; k++) {
      double lim = m->jnt_effort[m->dof_body[k]];
      if (lim > 0) {
        glp_set_col_bnds(l.P, ng + k + 1, GLP_DB, -lim / sF, lim / sF);
      }
    }
    s = lp_solve(&l);
    if (s == LP_OPTIMAL) {
      statics_solution(&l, m, nc, c, edges, G, sF, E, col, taum, f);
    } else if (s == LP_INFEASIBLE) {
      *reason = "the torques needed exceed the joints' effort limits";
    }
  }
  free(x), free(E), free(col);
  lp_free(&l);
  if (s == LP_FAIL || s == LP_UNBOUNDED) {
    return fail(err, SPART_ENUM, "the equilibrium program failed (GLPK)");
  }
  return s == LP_OPTIMAL;
}
