/* graph.c -- spart-codegen's expressions (graph.h): nodes made once (hashed), operations folded
 * where an operand is a constant, and the nodes an output needs marked live. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"

static int is_c(sx a, double c) {
  return a.id < 0 && a.c == c;
}


static uint64_t sx_bits(sx a) {
  uint64_t b;
  if (a.id >= 0) {
    return (uint64_t)a.id + 1;
  }
  memcpy(&b, &a.c, sizeof b);
  return b ^ 0x5555555555555555ull;
}


static int sx_same(sx a, sx b) {
  return a.id == b.id && (a.id >= 0 || memcmp(&a.c, &b.c, sizeof a.c) == 0);
}


static uint64_t node_hash(const node *x) {
  uint64_t h = cg_mix(cg_mix((uint64_t)x->op, sx_bits(x->a)), sx_bits(x->b));
  h = cg_mix(h, (uint64_t)x->idx);
  return cg_mix(h, (uint64_t)(uintptr_t)x->arr);
}


static int node_same(const node *x, const node *y) {
  return x->op == y->op && sx_same(x->a, y->a) && sx_same(x->b, y->b) && x->arr == y->arr &&
         x->idx == y->idx;
}


static int rehash(cg *g, int cap) {
  int *h = calloc((size_t)cap, sizeof(int));
  if (!h) {
    return -1;
  }
  for (int k = 0; k < g->nn; k++) {
    size_t p = node_hash(g->n + k) & (size_t)(cap - 1);
    while (h[p]) {
      p = (p + 1) & (size_t)(cap - 1);
    }
    h[p] = k + 1;
  }
  free(g->hash);
  g->hash = h;
  g->hcap = cap;
  return 0;
}


/* the node of x, made when new */
static sx mk(cg *g, node x) {
  if (g->oom) {
    return ZERO;
  }
  if (2 * (g->nn + 1) > g->hcap && rehash(g, g->hcap ? 2 * g->hcap : 1024) != 0) {
    g->oom = 1;
    return ZERO;
  }
  size_t p = node_hash(&x) & (size_t)(g->hcap - 1);
  for (; g->hash[p]; p = (p + 1) & (size_t)(g->hcap - 1)) {
    if (node_same(g->n + g->hash[p] - 1, &x)) {
      return (sx){g->hash[p] - 1, 0};
    }
  }
  if (g->nn == g->cap) {
    int cap = g->cap ? 2 * g->cap : 1024;
    node *n = realloc(g->n, (size_t)cap * sizeof(node));
    if (!n) {
      g->oom = 1;
      return ZERO;
    }
    g->n = n;
    g->cap = cap;
  }
  x.live = 0;
  g->n[g->nn] = x;
  g->hash[p] = g->nn + 1;
  return (sx){g->nn++, 0};
}


sx cg_op(cg *g, int op, sx a, sx b) {
  if ((op == N_ADD || op == N_MUL) && a.id > b.id && b.id >= 0) {
    sx t = a; /* one order of the operands: a b and b a are one node */
    a = b;
    b = t;
  }
  node x = {op, a, b, NULL, 0, 0, 0};
  return mk(g, x);
}


sx cg_in(cg *g, const char *arr, int idx) {
  node x = {N_IN, ZERO, ZERO, arr, idx, idx, 0};
  return mk(g, x);
}


sx cg_neg(cg *g, sx a) {
  if (a.id < 0) {
    return cg_cst(-a.c);
  }
  if (g->n[a.id].op == N_NEG) {
    return g->n[a.id].a;
  }
  return cg_op(g, N_NEG, a, ZERO);
}


sx cg_add(cg *g, sx a, sx b) {
  if (a.id < 0 && b.id < 0) {
    return cg_cst(a.c + b.c);
  }
  if (is_c(a, 0)) {
    return b;
  }
  if (is_c(b, 0)) {
    return a;
  }
  if (b.id >= 0 && g->n[b.id].op == N_NEG) {
    return cg_op(g, N_SUB, a, g->n[b.id].a);
  }
  if (a.id >= 0 && g->n[a.id].op == N_NEG) {
    return cg_op(g, N_SUB, b, g->n[a.id].a);
  }
  return cg_op(g, N_ADD, a, b);
}


sx cg_sub(cg *g, sx a, sx b) {
  if (a.id < 0 && b.id < 0) {
    return cg_cst(a.c - b.c);
  }
  if (is_c(b, 0)) {
    return a;
  }
  if (is_c(a, 0)) {
    return cg_neg(g, b);
  }
  if (sx_same(a, b)) {
    return ZERO; /* x - x of a finite x (w x w of a cross product) */
  }
  if (b.id >= 0 && g->n[b.id].op == N_NEG) {
    return cg_op(g, N_ADD, a, g->n[b.id].a);
  }
  return cg_op(g, N_SUB, a, b);
}


sx cg_mul(cg *g, sx a, sx b) {
  if (a.id < 0 && b.id < 0) {
    return cg_cst(a.c * b.c);
  }
  if (b.id < 0) { /* the constant first */
    sx t = a;
    a = b;
    b = t;
  }
  if (a.id < 0) {
    if (a.c == 0) {
      return ZERO;
    }
    if (a.c == 1) {
      return b;
    }
    if (a.c == -1) {
      return cg_neg(g, b);
    }
  }
  return cg_op(g, N_MUL, a, b);
}


sx cg_div(cg *g, sx a, sx b) {
  if (a.id < 0 && b.id < 0) {
    return cg_cst(a.c / b.c);
  }
  if (is_c(b, 1)) {
    return a;
  }
  if (is_c(a, 0)) {
    return ZERO;
  }
  return cg_op(g, N_DIV, a, b);
}


/* a0 b0 + a1 b1 + a2 b2 */
sx cg_dot3(cg *g, const sx a[3], const sx b[3]) {
  return cg_add(g, cg_add(g, cg_mul(g, a[0], b[0]), cg_mul(g, a[1], b[1])), cg_mul(g, a[2], b[2]));
}


void cg_cross3(cg *g, sx r[3], const sx a[3], const sx b[3]) {
  sx x = cg_sub(g, cg_mul(g, a[1], b[2]), cg_mul(g, a[2], b[1]));
  sx y = cg_sub(g, cg_mul(g, a[2], b[0]), cg_mul(g, a[0], b[2]));
  sx z = cg_sub(g, cg_mul(g, a[0], b[1]), cg_mul(g, a[1], b[0]));
  r[0] = x, r[1] = y, r[2] = z;
}


/* r = R v, r = R' v (R row-major) */
void cg_mulmv(cg *g, sx r[3], const sx R[9], const sx v[3]) {
  sx t[3];
  for (int k = 0; k < 3; k++) {
    t[k] = cg_dot3(g, R + 3 * k, v);
  }
  memcpy(r, t, sizeof t);
}


void cg_mulmtv(cg *g, sx r[3], const sx R[9], const sx v[3]) {
  sx t[3];
  for (int k = 0; k < 3; k++) {
    sx c[3] = {R[k], R[3 + k], R[6 + k]};
    t[k] = cg_dot3(g, c, v);
  }
  memcpy(r, t, sizeof t);
}


/* r = I v for a symmetric I (6: xx yy zz xy xz yz) */
void cg_mulsv(cg *g, sx r[3], const sx I[6], const sx v[3]) {
  const sx r0[3] = {I[0], I[3], I[4]}, r1[3] = {I[3], I[1], I[5]}, r2[3] = {I[4], I[5], I[2]};
  sx t[3] = {cg_dot3(g, r0, v), cg_dot3(g, r1, v), cg_dot3(g, r2, v)};
  memcpy(r, t, sizeof t);
}


void cg_output(cg *g, const char *arr, int idx, sx v) {
  if (g->oom) {
    return;
  }
  if (g->no == g->ocap) {
    int cap = g->ocap ? 2 * g->ocap : 256;
    out *o = realloc(g->o, (size_t)cap * sizeof(out));
    if (!o) {
      g->oom = 1;
      return;
    }
    g->o = o;
    g->ocap = cap;
  }
  g->o[g->no++] = (out){arr, idx, v};
}


void cg_reset(cg *g) {
  g->nn = g->no = 0;
  if (g->hash) {
    memset(g->hash, 0, (size_t)g->hcap * sizeof(int));
  }
}


void cg_free(cg *g) {
  free(g->n);
  free(g->hash);
  free(g->o);
}


void cg_mark(cg *g, sx a) {
  if (a.id >= 0 && !g->n[a.id].live) {
    node *x = g->n + a.id;
    x->live = 1;
    cg_mark(g, x->a); /* operands are older nodes: a chain of at most nn */
    cg_mark(g, x->b);
  }
}
