/* spart_urdf_tree.c -- a URDF's tree on the file indices of its links and joints: found by
 * name, and numbered as SPART's urdf2robot numbers it (spart_urdf.c reads the names, the joints'
 * parent and child links, and says which joints the numbering leaves out) */
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_internal.h"


static int cmp_named(const void *a, const void *b) {
  const spart_named *x = a, *y = b;
  int c = strcmp(x->name, y->name);
  return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}


int spart_names_sort(spart_named *v, int n) {
  int dup = -1;
  qsort(v, (size_t)n, sizeof *v, cmp_named);
  for (int k = 1; k < n; k++) {
    if (strcmp(v[k - 1].name, v[k].name) == 0 && (dup < 0 || v[k].idx < dup)) {
      dup = v[k].idx;
    }
  }
  return dup;
}


int spart_names_find(const spart_named *v, int n, const char *name) {
  int lo = 0, hi = n - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2, c = strcmp(name, v[mid].name);
    if (c == 0) {
      return v[mid].idx;
    }
    if (c < 0) {
      hi = mid - 1;
    } else {
      lo = mid + 1;
    }
  }
  return -1;
}


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
