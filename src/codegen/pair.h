/* pair.h -- spart-codegen's pairs (pair.c): two branches of one shape written two values a
 * statement.  cg_branch_roles finds the branches in the model, cg_pair the pairs of nodes in
 * the graph (g->part, g->lane, g->swp, which emit.c writes from). */
#ifndef SPART_CODEGEN_PAIR_H
#define SPART_CODEGEN_PAIR_H

#include "graph.h"
#include "spart.h"

/* each degree of freedom's role (the N_IN nodes' role): itself, or in the second of two
   sibling subtrees of one shape, the first's at its place.  1 if two subtrees with degrees of
   freedom are alike, else 0; -1 out of memory. */
int cg_branch_roles(const spart_model *m, int *role);

/* the pairs of the live nodes into g->part (a node's partner, or -1), g->lane (0: the older)
   and g->swp (lane 1 takes its operands as (b, a)), each pair paying for itself in
   instructions.  0, or -1 out of memory. */
int cg_pair(cg *g);

/* y's operands (a, b), or (b, a) when sw: lane 1's as its pair takes them */
void cg_operands(const node *y, int sw, sx o[2]);

#endif
