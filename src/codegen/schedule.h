/* schedule.h -- spart-codegen's order of a function's statements (schedule.c).  An item is what
 * one statement writes: a live node but an input (a pair by its lane-1 node), or output k of the
 * graph, numbered nn + k. */
#ifndef SPART_CODEGEN_SCHEDULE_H
#define SPART_CODEGEN_SCHEDULE_H

#include "graph.h"

/* the operand values of item x (its pair's too), into o; their count */
int cg_item_values(const cg *g, int x, sx o[4]);

/* the items in the order to write them (*nseq of them, malloc'd), each after its operands, for
   few values held at once; NULL when out of memory or when pairs wait on each other */
int *cg_schedule(const cg *g, int *nseq);

#endif
