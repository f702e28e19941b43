/* passes.h -- spart-codegen's algorithms on symbols (kinematics.c, dynamics.c): lib/'s passes
 * run once on the graph's values instead of numbers, in the joint frames F_i
 * (spart_joint_constants), the model's numbers constants of the code.  Each mirrors a recursion
 * of lib/ (named at it); tests/spart-codegen.bats holds the generated code equal to spart's
 * commands on every bundled model and on random trees' states. */
#ifndef SPART_CODEGEN_PASSES_H
#define SPART_CODEGEN_PASSES_H

#include "graph.h"
#include "spart.h"

/* the generator's state: the graph, the model and its data, and what the passes share */
typedef struct gen {
  cg g;
  const spart_model *m;
  const spart_data *d;
  int fixed;
  sx *Q, *rho; /* (nb x 9), (nb x 3): F_i in F_p (spart_xup's) */
  double *cj;  /* (nb x SPART_CJ) the dynamics' bodies, fixed joints merged (spart_merge_fixed) */
  int *cpar;   /* (nb) the dynamics' parent of a body, -1 for one merged into a body above */
  int *role;   /* (nv) a degree of freedom's role in its branch pair (cg_branch_roles) */
} gen;

/* kinematics.c: body i's joint transform at q into G->Q, G->rho, from its constant part T (9)
   and r (3) */
void cg_xup_one(gen *G, const sx *q, int i, const double *T, const double *r);
/* the pose of every link's CoM frame (spart_fk): T (nb x 16) row-major 4x4, [0] the base */
void cg_fk(gen *G, const sx R0[9], const sx r0[3], const sx *q, sx *T);
/* the Jacobian of every link's CoM (spart_jacobian at the CoM), links 1 to nb - 1: Jm
   ((nb - 1) x 6 x nv, link i's 6 x nv matrix row-major at 6 nv (i - 1)) and, unless J0 is
   NULL, J0 ((nb - 1) x 36, the base's 6 x 6 of link i at 36 (i - 1)) */
void cg_jac(gen *G, const sx R0[9], const sx r0[3], const sx *q, sx *J0, sx *Jm);

/* dynamics.c: inverse dynamics (spart_rnea): tau (6 + nv) at R0 (9), q, v = [u0; um],
   a = [u0dot; umdot] (6 + nv each), gravity g3, with the armature, without the friction */
void cg_rnea(gen *G, const sx R0[9], const sx *q, const sx *v, const sx *a, const sx g3[3],
             sx *tau);
/* the friction forces of the joints at the velocities um (spart_friction), into fr (nv) */
void cg_friction(gen *G, const sx *um, sx *fr);
/* the mass matrix (spart_crba): H ((6 + nv)^2, row-major) at R0 (9), q, with the armature */
void cg_crba(gen *G, const sx R0[9], const sx *q, sx *H);
/* the parent of each degree of freedom of u = [u0; um] in the tree of H (6 + nv), -1 for a
   root; fixed: the joints' alone */
void cg_dof_parents(const spart_model *m, int fixed, int *lam);
/* x = H^-1 b for the degrees of freedom lo..n-1 of H (n x n, overwritten), in place in b, by
   the factorisation H = L' D L that keeps the tree's sparsity (lam the parents); 0, or -1 out
   of memory */
int cg_ltdl_solve(cg *g, sx *H, int n, int lo, const int *lam, sx *b);

#endif
