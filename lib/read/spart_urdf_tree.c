/* spart_urdf_tree.c -- a URDF's tree numbered as SPART's urdf2robot numbers it, on the joints'
 * parent and child links as file indices (spart_urdf.c reads them, and says which joints the
 * numbering leaves out) */
#include <stdlib.h>

#include "spart.h"
#include "spart_internal.h"


int spart_urdf_number(int nl, int nj, const int *parent, const int *child, int root, int *jid) {
  int *start = calloc((size_t)nl + 1, sizeof *start);
  int *pos = malloc(((size_t)nl + 1) * sizeof *pos);
  int *kids = malloc(((size_t)nj + 1) * sizeof *kids);
  int *stack = malloc(((size_t)nj + 1) * sizeof *stack);
  int sp = 0, id = 1, rc = 0;

  if (!start || !pos || !kids || !stack) {
    rc = -SPART_ENOMEM;
  }
  for (int j = 0; j < nj; j++) {
    jid[j] = 0;
  }

  /* the child joints of each link, in file order: kids[start[l] .. start[l + 1]) */
  for (int j = 0; j < nj && !rc; j++) {
    start[parent[j] + 1]++;
  }
  for (int l = 0; l < nl && !rc; l++) {
    start[l + 1] += start[l];
    pos[l] = start[l];
  }
  for (int j = 0; j < nj && !rc; j++) {
    kids[pos[parent[j]]++] = j;
  }

  /* explicit stack: push children last to first so the first pops first */
  for (int k = rc ? 0 : start[root + 1] - 1; !rc && k >= start[root]; k--) {
    stack[sp++] = kids[k];
  }
  while (sp > 0) {
    int j = stack[--sp], c = child[j];
    jid[j] = id++;
    for (int k = start[c + 1] - 1; k >= start[c]; k--) {
      stack[sp++] = kids[k];
    }
  }
  free(start);
  free(pos);
  free(kids);
  free(stack);
  return rc;
}
