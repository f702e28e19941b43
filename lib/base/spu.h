/* spu.h -- self-contained math utilities of libspart: "spu_" marks a function that takes no
 * model and no data (spart_model, spart_data), only numbers, as MuJoCo's mju_ does; "spart_"
 * functions take a model or data.
 *
 * 3-vectors, row-major 3x3 matrices (9), symmetric 3x3 matrices (6: xx yy zz xy xz yz), and the
 * spatial algebra of SPART's formulation: twists [omega; v] and wrenches [n; f] referred to a
 * point and projected in the inertial frame, so that moving the reference point by d is the only
 * transform (SPART's Bij = [1 0; skew(rj - ri) 1]).  Outputs come first; in-place is allowed only
 * where a comment says so.
 */
#ifndef SPU_H
#define SPU_H

#include <string.h>

/* ---- pairs of doubles (GCC's and Clang's vector types: one SSE2 instruction does both lanes;
   the pair paths of spart_rnea, spart_aba, spart_crba, the joint transform, spu_sincos2) ---- */
typedef double v2 __attribute__((vector_size(16)));

/* the pair at p, p[0] and p[1] (no alignment needed) */
static inline v2 spu_load2(const double *p) {
  v2 x;
  memcpy(&x, p, sizeof x);
  return x;
}

/* p[0], p[1] = x */
static inline void spu_store2(double *p, v2 x) {
  memcpy(p, &x, sizeof x);
}

/* ---- 3-vectors and 3x3 matrices (spu_vec.c) ---- */

/* v (n values) divided by its norm, or left as it is when its norm is 1 within 4 DBL_EPSILON
   (a vector already unit keeps its bits: dividing again would move its last bits, and a vector
   made unit here is within that band, so doing it twice is doing it once); 0, or -1 when the
   norm is 0 or not finite (no direction: v is left) */
int spu_unit(double *v, int n);

/* res = a x b (res may alias neither) */
void spu_cross(double res[restrict 3], const double a[3], const double b[3]);

/* a . b */
double spu_dot3(const double a[3], const double b[3]);

/* res = R * v (res must not alias v) */
void spu_mulmv3(double res[restrict 3], const double R[9], const double v[3]);

/* res = R' * v (res must not alias v) */
void spu_mulmtv3(double res[restrict 3], const double R[9], const double v[3]);

/* res = A * B (res must not alias A or B) */
void spu_mulmm3(double res[restrict 9], const double A[9], const double B[9]);

/* res = I * v for a symmetric I (6 numbers) */
void spu_mulsv3(double res[restrict 3], const double I[6], const double v[3]);

/* M = the symmetric I (6 numbers: xx yy zz xy xz yz) as a full 3x3 matrix */
void spu_sym_to_mat3(double M[9], const double I[6]);

/* res = R * I * R' for a symmetric I (6 numbers) */
void spu_rotsym3(double res[restrict 6], const double R[9], const double I[6]);

/* *s = sin(x), *c = cos(x), within an ulp or so: reduction by pi/2 in three parts
   (Cody-Waite) and Taylor polynomials on [-pi/4, pi/4]; libm's beyond |x| = 1e5.  Exact at 0. */
void spu_sincos(double x, double *s, double *c);

/* spu_sincos of x[0] and x[1], to s[0], c[0] and s[1], c[1]: the same values, both together */
void spu_sincos2(const double x[2], double s[2], double c[2]);

/* rotation by angle q about the unit axis a (SPART's Euler_DCM(a, q)') */
void spu_axisangle(double R[9], const double a[3], double q);

/* rotation of URDF roll-pitch-yaw (fixed axes X, Y, Z): Rz(y) Ry(p) Rx(r) */
void spu_rpy(double R[9], const double rpy[3]);

/* the rotation exp([w]x) by the angle |w| about w (Rodrigues), accurate near 0 */
void spu_expso3(double R[9], const double w[3]);

/* res = Jr(th)^-1 w: the rate of th for R exp([th]x) turning at the body rate w (the inverse of
   SO(3)'s right Jacobian, the exponential map's dexp^-1) */
void spu_dexpinv3(double res[restrict 3], const double th[3], const double w[3]);

/* R made orthonormal again after rounding (one Newton step of the polar decomposition) */
void spu_orthonormalize3(double R[9]);

/* ---- spatial algebra (spu_spatial.c) ---- */

/* twist moved from point a to point b = a + d: res = [w; v + w x d] (in place allowed) */
void spu_mshift(double res[6], const double m[6], const double d[3]);

/* wrench moved from point b = a + d to point a: res = [n + d x f; f] (in place allowed) */
void spu_fshift(double res[6], const double f[6], const double d[3]);

/* res = Omega * m, SPART's Omega = diag(skew(w), skew(w)): [w x m_w; w x m_v] */
void spu_omega(double res[6], const double w[3], const double m[6]);

/* a . b for 6-vectors (motion . force) */
double spu_dot6(const double a[6], const double b[6]);

/* res = I * m for a compact spatial inertia I (10 numbers: mass, h = mass * CoM offset,
   J = rotational inertia about the reference point, symmetric 6) */
void spu_inertmul(double res[6], const double I[10], const double m[6]);

/* res = I moved from point b = a + d to point a, i.e. B' I B with B the twist shift by d;
   in place allowed */
void spu_inertshift(double res[10], const double I[10], const double d[3]);

/* res = [f0..2; R f3..5]: a spatial vector's linear part turned by R (res may not alias f) */
void spu_rotlin(double res[6], const double R[9], const double f[6]);

/* res += X' I X: the compact inertia I of a child frame, Q (9) with its origin at rho (3) in
   its parent's, seen in the parent's frame at the parent's origin, added to res (the composite
   inertia of the parent; res may alias none of the others) */
void spu_inertparent_add(double res[10], const double Q[9], const double rho[3],
                         const double I[10]);

/* res = [J 0; 0 m] for a body at its CoM: compact inertia from mass and rotational inertia */
void spu_inertbody(double res[10], double mass, const double J[6]);

/* 6x6 matrix of a compact inertia (row-major) */
void spu_inert_to_mat6(double M[36], const double I[10]);

/* M (6x6, row-major, symmetric) moved from point b = a + d to point a: B' M B; in place */
void spu_mat6shift(double M[36], const double d[3]);

/* M -= U U' / D for a 6x6 row-major M (the articulated-body update, RBDA eq. 7.36) */
void spu_mat6_downdate(double M[36], const double U[6], double D);

/* res = M * v for a 6x6 row-major M */
void spu_mulm6v(double res[6], const double M[36], const double v[6]);

/* ---- the same algebra as 6x6 matrices (spu_spatial.c), Featherstone's Pluecker forms, for the
   reference recursions (spart_rnea_ref, spart_crba_ref, spart_aba_ref): motion vectors [w; v]
   and forces [n; f] in one frame at its origin ---- */

/* X (6x6, row-major): the motion transform from a parent frame to a child frame whose axes are
   Q (9, the child's axes in the parent's, row-major) with its origin at rho (3, in the
   parent's): X m = [Q' w; Q' (v + w x rho)] (RBDA's [E 0; -E [r]x E], E = Q', r = rho); X' f
   carries a child's force to the parent */
void spu_xform6(double X[36], const double Q[9], const double rho[3]);

/* res = M' v for a 6x6 row-major M (res may not alias v) */
void spu_mulm6tv(double res[6], const double M[36], const double v[6]);

/* res = v x m (RBDA's crm(v) m) and res = v x* f (crf(v) f) for a motion v (res may alias
   neither) */
void spu_crossm6(double res[6], const double v[6], const double m[6]);
void spu_crossf6(double res[6], const double v[6], const double f[6]);

/* res += X' M X for 6x6 row-major X and M (res may alias neither) */
void spu_mat6_congruence_add(double res[36], const double X[36], const double M[36]);

/* ---- numbers in text (spu_num.c): declared in spart.h, the commands use them too ---- */

/* ---- small dense linear algebra (spu_linalg.c) ---- */

/* The one singularity test of spart's factorizations (Cholesky, articulated bodies): a pivot,
   the inertia left to a degree of freedom once others are eliminated, is sound when it is above
   SPU_PIVOT_TOL times scale, a positive measure of what that degree of freedom moves in the same
   units (spart_dof_scale).  Below, fewer than 4 of its digits would survive the roundoff of the
   subtractions that made it. */
#define SPU_PIVOT_TOL 1e-12
int spu_pivot_ok(double pivot, double scale);

/* Solve A x = b for a symmetric positive definite n x n A (row-major, overwritten by its
   Cholesky factor); b (n x nrhs) is overwritten by x.  Pivot j must pass spu_pivot_ok against
   scale[j], or against A's diagonal entry A[j][j] before elimination when scale is NULL.
   Returns 0, or 1 + j for the first pivot j that fails (A is singular, or nearly). */
int spu_cholsolve(double *A, double *b, int n, int nrhs, const double *scale);

/* Solve A x = b for a general n x n A (row-major, overwritten by its elimination) by Gaussian
   elimination with partial pivoting; b (n x nrhs, row-major) is overwritten by x (the identity
   given as b: A's inverse).  Returns 0, or -1 when a pivot is 0 or not finite. */
int spu_lusolve(double *A, double *b, int n, int nrhs);

/* the eigenvalues of a symmetric 3x3 I (xx yy zz xy xz yz), ascending (cyclic Jacobi) */
void spu_eigsym3(double ev[3], const double I[6]);

/* ---- convex polygons in the plane (spu_polygon.c): vertices (n x 2) counter-clockwise ---- */

/* Drop the vertices of v that repeat the one before (within tol) or lie on the segment between
   their neighbours (within tol of its line); returns the number left (in place). */
int spu_polygon_clean(double *v, int n, double tol);

/* The half-planes a . x <= b of the polygon v (n vertices), as rows [a1, a2, b] with |a| = 1
   into h: one an edge for n >= 3; for a segment (n = 2) or a point (n = 1), 4 (its line from
   both sides and its ends).  h holds 3 max(n, 4) doubles.  Returns their number. */
int spu_polygon_halfplanes(double *h, const double *v, int n);

/* The signed distance from p to the boundary of the polygon v (n vertices) with half-planes h
   (nh rows): inside (>= 0), the distance to the nearest edge's line; outside (< 0), minus the
   distance to the nearest point of the polygon. */
double spu_polygon_margin(const double *v, int n, const double *h, int nh, const double p[2]);

#endif
