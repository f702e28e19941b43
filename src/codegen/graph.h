/* graph.h -- spart-codegen's expressions (graph.c): a value is a constant or a node (one line
 * `const double tN = ...;` of the file), nodes hashed so that an expression met twice is one node
 * (the trigonometry of a joint once), each operation folded when an operand is a constant (0
 * and 1 of the model drop out).  The graph cg also holds what the writing of a function's
 * statements keeps (emit.c): the pairs of pair.c, the prefix, what the file must define. */
#ifndef SPART_CODEGEN_GRAPH_H
#define SPART_CODEGEN_GRAPH_H

#include <stdint.h>

typedef struct sx {
  int id;   /* the node, or -1: the constant c */
  double c;
} sx;

enum { N_IN, N_ADD, N_SUB, N_MUL, N_DIV, N_NEG, N_SIN, N_COS, N_GT0, N_LT0, N_SC };

typedef struct node {
  int op;
  sx a, b;
  const char *arr; /* N_IN: the argument array and the index in it */
  int idx;
  int role; /* N_IN: what it stands for in its branch pair (cg_pair): idx, or the degree of
               freedom at its place in the first branch */
  int live;
} node;

typedef struct out {
  const char *arr;
  int idx;
  sx v;
} out;

typedef struct cg {
  node *n;
  int nn, cap;
  int *hash; /* open addressing: node ids + 1, 0 empty */
  int hcap;
  out *o;
  int no, ocap;
  int oom;
  const char *prefix; /* of the file's sincos */
  int sincos;         /* some function calls it */
  int pairs;          /* the model has branch pairs (inputs of other roles): cg_pair them */
  int *part;          /* in cg_write, when pairs: a node's pair partner, or -1 */
  char *lane, *swp;   /* its lane (0: the older node); swp[y]: lane 1 takes y's operands as
                         (b, a), ADD and MUL only */
  int vec;            /* some function has pairs: the file defines the vector type */
} cg;

static const sx ZERO = {-1, 0}, ONE = {-1, 1};

/* the constant c */
static inline sx cg_cst(double c) {
  return (sx){-1, c};
}

/* a hash of h and x (the nodes', the pairs' shapes) */
static inline uint64_t cg_mix(uint64_t h, uint64_t x) {
  h ^= x + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h;
}

/* the node of operation op (N_*) on a and b (ZERO for a unary one), made when new */
sx cg_op(cg *g, int op, sx a, sx b);
/* the input arr[idx] (N_IN, its role idx until the caller sets it) */
sx cg_in(cg *g, const char *arr, int idx);
/* -a, a + b, a - b, a b, a / b, each folded where an operand is a constant that allows it */
sx cg_neg(cg *g, sx a);
sx cg_add(cg *g, sx a, sx b);
sx cg_sub(cg *g, sx a, sx b);
sx cg_mul(cg *g, sx a, sx b);
sx cg_div(cg *g, sx a, sx b);
/* a0 b0 + a1 b1 + a2 b2; r = a x b; r = R v, r = R' v (R row-major); r = I v for a symmetric I
   (6: xx yy zz xy xz yz) */
sx cg_dot3(cg *g, const sx a[3], const sx b[3]);
void cg_cross3(cg *g, sx r[3], const sx a[3], const sx b[3]);
void cg_mulmv(cg *g, sx r[3], const sx R[9], const sx v[3]);
void cg_mulmtv(cg *g, sx r[3], const sx R[9], const sx v[3]);
void cg_mulsv(cg *g, sx r[3], const sx I[6], const sx v[3]);
/* arr[idx] = v, an output of the function being made */
void cg_output(cg *g, const char *arr, int idx, sx v);
/* a's node and those it is made of live (written) */
void cg_mark(cg *g, sx a);
/* the graph emptied for the next function (its memory kept); its memory freed */
void cg_reset(cg *g);
void cg_free(cg *g);

#endif
