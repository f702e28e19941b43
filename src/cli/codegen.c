/* codegen.c -- a model's algorithms as C99 source specialised to it (spart-codegen): the
 * algorithms of lib/ (spart_rnea, spart_crba, spart_fk, spart_jacobian) run once on symbols
 * instead of numbers, each operation folded when an operand is a constant of the model (0 and 1
 * of the joint axes and transforms drop out) and the rest written as straight-line C.  The
 * model's numbers come from the library (the joint constants jc of spart_joint_constants,
 * the degrees of freedom's axes and screws of spart_joint_setup); this file only writes text.
 * Two branches of one shape are written in pairs, two values a statement (cg_pair). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "spart_internal.h"
#include "spart_text.h"

/* ---------------------------------------------------------------------------------------------
 * the expressions: a value is a constant or a node (one line `const double tN = ...;`), nodes
 * hashed so that an expression met twice is one node (the trigonometry of a joint once)
 */

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


static sx cst(double c) {
  return (sx){-1, c};
}


static int is_c(sx a, double c) {
  return a.id < 0 && a.c == c;
}


static uint64_t mix(uint64_t h, uint64_t x) {
  h ^= x + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h;
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
  uint64_t h = mix(mix(mix((uint64_t)x->op, sx_bits(x->a)), sx_bits(x->b)), (uint64_t)x->idx);
  return mix(h, (uint64_t)(uintptr_t)x->arr);
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


static sx op2(cg *g, int op, sx a, sx b) {
  if ((op == N_ADD || op == N_MUL) && a.id > b.id && b.id >= 0) {
    sx t = a; /* one order of the operands: a b and b a are one node */
    a = b;
    b = t;
  }
  node x = {op, a, b, NULL, 0, 0, 0};
  return mk(g, x);
}


static sx in(cg *g, const char *arr, int idx) {
  node x = {N_IN, ZERO, ZERO, arr, idx, idx, 0};
  return mk(g, x);
}


static sx neg(cg *g, sx a) {
  if (a.id < 0) {
    return cst(-a.c);
  }
  if (g->n[a.id].op == N_NEG) {
    return g->n[a.id].a;
  }
  return op2(g, N_NEG, a, ZERO);
}


static sx add(cg *g, sx a, sx b) {
  if (a.id < 0 && b.id < 0) {
    return cst(a.c + b.c);
  }
  if (is_c(a, 0)) {
    return b;
  }
  if (is_c(b, 0)) {
    return a;
  }
  if (b.id >= 0 && g->n[b.id].op == N_NEG) {
    return op2(g, N_SUB, a, g->n[b.id].a);
  }
  if (a.id >= 0 && g->n[a.id].op == N_NEG) {
    return op2(g, N_SUB, b, g->n[a.id].a);
  }
  return op2(g, N_ADD, a, b);
}


static sx sub(cg *g, sx a, sx b) {
  if (a.id < 0 && b.id < 0) {
    return cst(a.c - b.c);
  }
  if (is_c(b, 0)) {
    return a;
  }
  if (is_c(a, 0)) {
    return neg(g, b);
  }
  if (sx_same(a, b)) {
    return ZERO; /* x - x of a finite x (w x w of a cross product) */
  }
  if (b.id >= 0 && g->n[b.id].op == N_NEG) {
    return op2(g, N_ADD, a, g->n[b.id].a);
  }
  return op2(g, N_SUB, a, b);
}


static sx mul(cg *g, sx a, sx b) {
  if (a.id < 0 && b.id < 0) {
    return cst(a.c * b.c);
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
      return neg(g, b);
    }
  }
  return op2(g, N_MUL, a, b);
}


static sx divide(cg *g, sx a, sx b) {
  if (a.id < 0 && b.id < 0) {
    return cst(a.c / b.c);
  }
  if (is_c(b, 1)) {
    return a;
  }
  if (is_c(a, 0)) {
    return ZERO;
  }
  return op2(g, N_DIV, a, b);
}


/* a0 b0 + a1 b1 + a2 b2 */
static sx dot3(cg *g, const sx a[3], const sx b[3]) {
  return add(g, add(g, mul(g, a[0], b[0]), mul(g, a[1], b[1])), mul(g, a[2], b[2]));
}


static void cross3(cg *g, sx r[3], const sx a[3], const sx b[3]) {
  sx x = sub(g, mul(g, a[1], b[2]), mul(g, a[2], b[1]));
  sx y = sub(g, mul(g, a[2], b[0]), mul(g, a[0], b[2]));
  sx z = sub(g, mul(g, a[0], b[1]), mul(g, a[1], b[0]));
  r[0] = x, r[1] = y, r[2] = z;
}


/* r = R v, r = R' v (R row-major) */
static void mulmv(cg *g, sx r[3], const sx R[9], const sx v[3]) {
  sx t[3];
  for (int k = 0; k < 3; k++) {
    t[k] = dot3(g, R + 3 * k, v);
  }
  memcpy(r, t, sizeof t);
}


static void mulmtv(cg *g, sx r[3], const sx R[9], const sx v[3]) {
  sx t[3];
  for (int k = 0; k < 3; k++) {
    sx c[3] = {R[k], R[3 + k], R[6 + k]};
    t[k] = dot3(g, c, v);
  }
  memcpy(r, t, sizeof t);
}


/* r = I v for a symmetric I (6: xx yy zz xy xz yz) */
static void mulsv(cg *g, sx r[3], const sx I[6], const sx v[3]) {
  const sx r0[3] = {I[0], I[3], I[4]}, r1[3] = {I[3], I[1], I[5]}, r2[3] = {I[4], I[5], I[2]};
  sx t[3] = {dot3(g, r0, v), dot3(g, r1, v), dot3(g, r2, v)};
  memcpy(r, t, sizeof t);
}


static void output(cg *g, const char *arr, int idx, sx v) {
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


static void cg_reset(cg *g) {
  g->nn = g->no = 0;
  if (g->hash) {
    memset(g->hash, 0, (size_t)g->hcap * sizeof(int));
  }
}


static void cg_free(cg *g) {
  free(g->n);
  free(g->hash);
  free(g->o);
}


/* the text of a constant: shortest digits that read back, negative ones in parentheses */
static void put_const(FILE *f, double c) {
  char buf[40];
  spu_dtoa(buf, c);
  if (!strpbrk(buf, ".eEn")) {
    strcat(buf, ".0");
  }
  fprintf(f, c < 0 ? "(%s)" : "%s", buf);
}


/* a value as a scalar: a constant, a node's tN, or its lane of the pair pN it is in */
static void put_ref(const cg *g, FILE *f, sx a) {
  if (a.id < 0) {
    put_const(f, a.c);
  } else if (g->part && g->part[a.id] >= 0) {
    int l = g->lane[a.id];
    fprintf(f, "%s_L(p%d, %d)", g->prefix, l ? a.id : g->part[a.id], l);
  } else {
    fprintf(f, "t%d", a.id);
  }
}


static void mark(cg *g, sx a) {
  if (a.id >= 0 && !g->n[a.id].live) {
    node *x = g->n + a.id;
    x->live = 1;
    mark(g, x->a); /* operands are older nodes: a chain of at most nn */
    mark(g, x->b);
  }
}


/* ---------------------------------------------------------------------------------------------
 * pairs: two branches of the tree of one shape (two arms on a base, a quadruped's legs) make
 * the same expressions on other numbers.  Each two such nodes are one statement on a pair of
 * doubles, the older in lane 0 (an SSE2 instruction for two: the code, whose speed follows its
 * size, halves where the branches are alike).  SLP vectorisation, done here where the branches
 * are known: a node is paired with an older one of its shape whose operands match its own
 */

/* the links of an operand into a pair (link_of), in the order of their worth: pair_score sums
   them, and pair_cost counts those below LK_CONST as an instruction each */
enum { LK_NONE = -1, LK_GATHER, LK_SPLAT, LK_CONST, LK_VEC };

/* the older nodes of its shape that a node looks at for its partner */
enum { PAIR_WINDOW = 64 };

/* the hash of a text */
static uint64_t text_hash(const char *t) {
  uint64_t h = 0xCBF29CE484222325ull;
  for (; *t; t++) {
    h = (h ^ (unsigned char)*t) * 0x100000001B3ull;
  }
  return h;
}


/* a node's shape: its operation over its operands' shapes (commuting ones in either order); an
   input by its array and role; a constant whatever its value.  Shapes and roles only choose
   which nodes are tried as pairs: a pair computes each of its nodes' own operation on their
   own operands, so a wrong match (or a hash collision) costs speed, never a number */
static void cg_sig(const cg *g, uint64_t *sig) {
  for (int x = 0; x < g->nn; x++) {
    const node *n = g->n + x;
    if (n->op == N_IN) {
      sig[x] = mix(mix(0x1F, text_hash(n->arr)), (uint64_t)n->role);
      continue;
    }
    uint64_t a = n->a.id < 0 ? 0xC057 : sig[n->a.id], b = n->b.id < 0 ? 0xC057 : sig[n->b.id];
    if ((n->op == N_ADD || n->op == N_MUL) && a > b) {
      uint64_t t = a;
      a = b;
      b = t;
    }
    sig[x] = mix(mix(mix(0x2F, (uint64_t)n->op), a), b);
  }
}


static int pairable(const node *x) {
  return x->live && x->op >= N_ADD && x->op <= N_NEG;
}


/* how a pair's lanes a (lane 0) and b take an operand: one pair already (LK_VEC), two
   constants, one value in both lanes (LK_SPLAT), two values of one shape packed (LK_GATHER) */
static int link_of(const cg *g, const uint64_t *sig, sx a, sx b) {
  if (a.id < 0 || b.id < 0) {
    return a.id < 0 && b.id < 0 ? LK_CONST : LK_NONE;
  }
  if (a.id == b.id) {
    return LK_SPLAT;
  }
  if (g->part[a.id] == b.id && g->lane[a.id] == 0) {
    return LK_VEC;
  }
  return sig[a.id] == sig[b.id] ? LK_GATHER : LK_NONE;
}


/* y's operands, b a when sw */
static void operands(const node *y, int sw, sx o[2]) {
  o[0] = sw ? y->b : y->a;
  o[1] = sw ? y->a : y->b;
}


/* how well y pairs with x (its operands b a when sw): the links' sum, equal constants above
   others; -1 when they cannot pair */
static int pair_score(const cg *g, const uint64_t *sig, int x, int y, int sw) {
  const node *nx = g->n + x;
  sx o[2];
  operands(g->n + y, sw, o);
  if (nx->op != g->n[y].op) {
    return -1;
  }
  int la = link_of(g, sig, nx->a, o[0]), lb = link_of(g, sig, nx->b, o[1]);
  if (la == LK_NONE || lb == LK_NONE) {
    return -1;
  }
  return 2 * (la + lb) + (nx->a.id < 0 && nx->a.c == o[0].c) + (nx->b.id < 0 && nx->b.c == o[1].c);
}


typedef struct sig_id {
  uint64_t sig;
  int id;
} sig_id;

static int sig_id_cmp(const void *pa, const void *pb) {
  const sig_id *a = pa, *b = pb;
  if (a->sig != b->sig) {
    return a->sig < b->sig ? -1 : 1;
  }
  return (a->id > b->id) - (a->id < b->id);
}



/* what pair y's lanes cost, in instructions, more than two scalar nodes would: one for each
   operand packed or splat and one when lane 1 is also read alone, less the one instruction
   saved and the packing that each pair reading it whole would need without it */
static int pair_cost(const cg *g, const uint64_t *sig, int y, const char *alone,
                     const int *whole) {
  const node *x = g->n + g->part[y];
  sx o[2];
  operands(g->n + y, g->swp[y], o);
  int c = -1 - whole[y];
  c += link_of(g, sig, x->a, o[0]) < LK_CONST;
  c += x->op != N_NEG && link_of(g, sig, x->b, o[1]) < LK_CONST;
  return c + alone[y];
}


/* alone[x]: node x is read as a scalar (by an unpaired node, an output, or a pair that packs
   it); whole[y]: the pairs that read pair y (its newer node) whole */
static void read_alone(const cg *g, const uint64_t *sig, char *alone, int *whole) {
  memset(alone, 0, (size_t)g->nn);
  memset(whole, 0, (size_t)g->nn * sizeof *whole);
  for (int y = 0; y < g->nn; y++) {
    const node *n = g->n + y;
    if (!n->live || n->op == N_IN) {
      continue;
    }
    if (g->part[y] < 0) {
      for (int k = 0; k < 2; k++) {
        sx a = k ? n->b : n->a;
        if (a.id >= 0) {
          alone[a.id] = 1;
        }
      }
    } else if (g->lane[y] == 1) {
      const node *x = g->n + g->part[y];
      sx o[2];
      operands(n, g->swp[y], o);
      for (int k = 0; k < 2; k++) {
        sx a = k ? x->b : x->a;
        int l = link_of(g, sig, a, o[k]);
        if (l == LK_VEC) {
          whole[o[k].id]++;
        } else if (a.id >= 0) {
          alone[a.id] = 1;
          if (o[k].id >= 0) {
            alone[o[k].id] = 1;
          }
        }
      }
    }
  }
  for (int k = 0; k < g->no; k++) {
    if (g->o[k].v.id >= 0) {
      alone[g->o[k].v.id] = 1;
    }
  }
}


static void unpair(cg *g, int y) {
  g->part[g->part[y]] = -1;
  g->part[y] = -1;
}


/* the pairs of the live nodes: each, oldest first, with the older unpaired node of its shape
   that scores best (of the PAIR_WINDOW nearest), then those that cost more than they save
   undone until none does.  0, or -1 out of memory. */
static int cg_pair(cg *g) {
  int nn = g->nn, ne = 0;
  uint64_t *sig = malloc((size_t)nn * sizeof *sig);
  sig_id *ord = malloc((size_t)nn * sizeof *ord);
  int *pos = malloc((size_t)nn * sizeof *pos);
  char *alone = malloc((size_t)nn);
  int *whole = malloc((size_t)nn * sizeof *whole);
  if (!sig || !ord || !pos || !alone || !whole) {
    free(sig), free(ord), free(pos), free(alone), free(whole);
    return -1;
  }
  cg_sig(g, sig);
  for (int x = 0; x < nn; x++) {
    g->part[x] = -1;
    g->lane[x] = g->swp[x] = 0;
    if (pairable(g->n + x)) {
      ord[ne++] = (sig_id){sig[x], x};
    }
  }
  qsort(ord, (size_t)ne, sizeof *ord, sig_id_cmp);
  for (int k = 0; k < ne; k++) {
    pos[ord[k].id] = k;
  }
  for (int y = 0; y < nn; y++) {
    int best = -1, bscore = -1, bsw = 0, nsw = g->n[y].op == N_ADD || g->n[y].op == N_MUL;
    if (!pairable(g->n + y)) {
      continue;
    }
    for (int k = pos[y] - 1; k >= 0 && k >= pos[y] - PAIR_WINDOW && ord[k].sig == sig[y]; k--) {
      int x = ord[k].id;
      for (int sw = 0; sw <= nsw && g->part[x] < 0; sw++) {
        int s = pair_score(g, sig, x, y, sw);
        if (s > bscore) {
          best = x, bscore = s, bsw = sw;
        }
      }
    }
    if (best >= 0) {
      g->part[best] = y, g->part[y] = best;
      g->lane[best] = 0, g->lane[y] = 1, g->swp[y] = (char)bsw;
    }
  }
  for (int undone = 1, round = 0; undone && round < 16; round++) {
    undone = 0;
    read_alone(g, sig, alone, whole);
    for (int y = 0; y < nn; y++) {
      if (g->part[y] >= 0 && g->lane[y] == 1 && pair_cost(g, sig, y, alone, whole) > 0) {
        unpair(g, y);
        undone = 1;
      }
    }
  }
  free(sig), free(ord), free(pos), free(alone), free(whole);
  return 0;
}


/* 1 if x is written as a statement (an item): a live node but an input and but lane 0 of a
   pair (a pair is written by its lane-1 node), or an output nn + k */
static int is_item(const cg *g, int x) {
  if (x >= g->nn) {
    return 1;
  }
  const node *n = g->n + x;
  return n->live && n->op != N_IN && !(g->part && g->part[x] >= 0 && g->lane[x] == 0);
}


/* the item that writes node x: its partner when x is lane 0 of a pair */
static int item_of(const cg *g, int x) {
  return g->part && g->part[x] >= 0 && g->lane[x] == 0 ? g->part[x] : x;
}


/* the operand values of item x (its pair's too), into o; their count */
static int item_values(const cg *g, int x, sx o[4]) {
  if (x >= g->nn) {
    o[0] = g->o[x - g->nn].v;
    return 1;
  }
  o[0] = g->n[x].a, o[1] = g->n[x].b;
  if (g->part && g->part[x] >= 0) {
    o[2] = g->n[g->part[x]].a, o[3] = g->n[g->part[x]].b;
    return 4;
  }
  return 2;
}


/* the items item x waits for (the non-input nodes of its operands, as items), distinct, into
   d; their count */
static int sched_operands(const cg *g, int x, int d[4]) {
  sx o[4];
  int no = item_values(g, x, o), nd = 0;
  for (int k = 0; k < no; k++) {
    int id = o[k].id, dup = 0;
    if (id < 0 || g->n[id].op == N_IN) {
      continue;
    }
    id = item_of(g, id);
    for (int l = 0; l < nd; l++) {
      dup |= d[l] == id;
    }
    if (!dup) {
      d[nd++] = id;
    }
  }
  return nd;
}


/* a min-heap of item ids (one of cg_schedule's buckets) */
typedef struct heap {
  int *v;
  int n;
} heap;

static void heap_push(heap *h, int x) {
  int k = h->n++;
  for (; k > 0 && h->v[(k - 1) / 2] > x; k = (k - 1) / 2) {
    h->v[k] = h->v[(k - 1) / 2];
  }
  h->v[k] = x;
}


static int heap_pop(heap *h) {
  int top = h->v[0], x = h->v[--h->n], k = 0;
  for (;;) {
    int c = 2 * k + 1;
    if (c >= h->n) {
      break;
    }
    if (c + 1 < h->n && h->v[c + 1] < h->v[c]) {
      c++;
    }
    if (h->v[c] >= x) {
      break;
    }
    h->v[k] = h->v[c];
    k = c;
  }
  h->v[k] = x;
  return top;
}


/* the scores an item can have: -1 (it ends nothing and makes a value) to 4 (it ends four) */
enum { SCORE_LO = -1, SCORE_HI = 4, NSCORE = SCORE_HI - SCORE_LO + 1 };

/* cg_schedule's items: uses left (rem), the score of one waiting (score_of), 1 while it waits
   and 2 once written (state), and the waiting ones in a heap for each score */
typedef struct sched {
  const cg *g;
  int *rem, *score_of, *state;
  heap bucket[NSCORE];
} sched;

/* item x ready: it waits with its score, the operands it ends less the value it makes */
static void sched_ready(sched *s, int x) {
  int d[4], nd = sched_operands(s->g, x, d), score = -(x < s->g->nn && s->rem[x] > 0);
  for (int k = 0; k < nd; k++) {
    score += s->rem[d[k]] == 1;
  }
  s->score_of[x] = score;
  s->state[x] = 1;
  heap_push(s->bucket + score - SCORE_LO, x);
}

/* the order of the items to write (live nodes but the inputs, pairs, and the outputs, nn + k),
   for few values held at once: straight-line code is spilled by the compiler where more values
   are live than it has registers, and x86's two-operand SSE copies a value it must keep.  A list
   scheduler: of the items whose operands are written, the next is the one that ends the most
   values (the last use of an operand) less the one it makes, the earliest made on a tie (the
   algorithm's own order).  The ready items wait in a heap for each score; an item's score only
   grows while it waits (when it becomes an operand's last user), each growth a new entry and
   the old one passed over.  NULL when out of memory or when pairs wait on each other (the
   caller then writes without them). */
static int *cg_schedule(const cg *g, int *nseq) {
  int nn = g->nn, ni = nn + g->no, n = 0, nitems = 0;
  int *mem = calloc((size_t)(9 + 2 * NSCORE) * ni + 1, sizeof(int));
  if (!mem) {
    return NULL;
  }
  /* per item: uses left, operands not yet written, its users (from ustart, four at most each),
     its score while it waits (score_of), 1 while it waits, 2 once written (state) */
  int *rem = mem, *wait = rem + ni, *ustart = wait + ni, *user = ustart + ni + 1;
  int *fill = user + 4 * ni, *score_of = fill + ni, *state = score_of + ni;
  int *seq = malloc((size_t)ni * sizeof(int));
  sched S = {g, rem, score_of, state, {{NULL, 0}}};
  if (!seq) {
    free(mem);
    return NULL;
  }
  for (int b = 0; b < NSCORE; b++) {
    S.bucket[b] = (heap){state + ni + 2 * b * ni, 0}; /* each entry of at most 2 ni pushes */
  }
  /* the users of each item (CSR by counting), the operands each item waits for */
  for (int x = 0; x < ni; x++) {
    int d[4], nd;
    if (!is_item(g, x)) {
      continue;
    }
    nitems++;
    nd = sched_operands(g, x, d);
    wait[x] = nd;
    for (int k = 0; k < nd; k++) {
      rem[d[k]]++;
    }
  }
  for (int x = 0; x < nn; x++) {
    ustart[x + 1] = ustart[x] + rem[x];
  }
  for (int x = nn; x < ni; x++) {
    ustart[x + 1] = ustart[x];
  }
  memcpy(fill, ustart, (size_t)ni * sizeof(int));
  for (int x = 0; x < ni; x++) {
    int d[4], nd;
    if (!is_item(g, x)) {
      continue;
    }
    nd = sched_operands(g, x, d);
    for (int k = 0; k < nd; k++) {
      user[fill[d[k]]++] = x;
    }
  }
  for (int x = 0; x < ni; x++) {
    if (is_item(g, x) && wait[x] == 0) {
      sched_ready(&S, x);
    }
  }
  for (int b = NSCORE - 1; b >= 0;) {
    if (S.bucket[b].n == 0) {
      b--;
      continue;
    }
    int x = heap_pop(S.bucket + b), d[4], nd;
    if (state[x] != 1 || score_of[x] != b + SCORE_LO) {
      continue; /* written, or waiting with a higher score */
    }
    nd = sched_operands(g, x, d);
    state[x] = 2;
    seq[n++] = x;
    for (int k = 0; k < nd; k++) {
      if (--rem[d[k]] == 1) { /* its last user, if waiting, now ends it */
        for (int u = ustart[d[k]]; u < ustart[d[k] + 1]; u++) {
          int y = user[u];
          if (state[y] == 1) {
            score_of[y]++;
            heap_push(S.bucket + score_of[y] - SCORE_LO, y);
          }
        }
      }
    }
    for (int u = ustart[x]; x < nn && u < ustart[x + 1]; u++) {
      if (--wait[user[u]] == 0) {
        sched_ready(&S, user[u]);
      }
    }
    b = NSCORE - 1;
  }
  free(mem);
  if (n < nitems) {
    free(seq);
    return NULL;
  }
  *nseq = n;
  return seq;
}


/* the operand of a pair whose lanes take a and b: the pair they are, or the two packed */
static void put_lanes(const cg *g, FILE *f, sx a, sx b) {
  if (a.id >= 0 && b.id >= 0 && g->part[a.id] == b.id && g->lane[a.id] == 0) {
    fprintf(f, "p%d", b.id);
    return;
  }
  fprintf(f, "%s_V2(", g->prefix);
  put_ref(g, f, a);
  fputs(", ", f);
  put_ref(g, f, b);
  fputc(')', f);
}


static void put_pair(cg *g, FILE *f, int y) {
  static const char *const vop[] = {"", "VADD", "VSUB", "VMUL", "VDIV", "VNEG"};
  const node *x = g->n + g->part[y];
  sx o[2];
  operands(g->n + y, g->swp[y], o);
  fprintf(f, "  const %s_v2 p%d = %s_%s(", g->prefix, y, g->prefix, vop[x->op]);
  put_lanes(g, f, x->a, o[0]);
  if (x->op != N_NEG) {
    fputs(", ", f);
    put_lanes(g, f, x->b, o[1]);
  }
  fputs(");\n", f);
  g->vec = 1;
}


static void put_node(cg *g, FILE *f, int k) {
  static const char *const sym[] = {"", " + ", " - ", " * ", " / "};
  const node *x = g->n + k;
  if (g->part && g->part[k] >= 0) {
    put_pair(g, f, k);
    return;
  }
  if (x->op == N_SC) {
    fprintf(f, "  double s%d, c%d;\n  %s_sincos_call(", k, k, g->prefix);
    put_ref(g, f, x->a);
    fprintf(f, ", &s%d, &c%d);\n", k, k);
    g->sincos = 1;
    return;
  }
  fprintf(f, "  const double t%d = ", k);
  switch (x->op) {
  case N_IN: fprintf(f, "%s[%d]", x->arr, x->idx); break;
  case N_NEG: fputc('-', f), put_ref(g, f, x->a); break;
  case N_SIN: fprintf(f, "s%d", x->a.id); break;
  case N_COS: fprintf(f, "c%d", x->a.id); break;
  case N_GT0: fputs("(double)(", f), put_ref(g, f, x->a), fputs(" > 0)", f); break;
  case N_LT0: fputs("(double)(", f), put_ref(g, f, x->a), fputs(" < 0)", f); break;
  default: put_ref(g, f, x->a), fputs(sym[x->op], f), put_ref(g, f, x->b); break;
  }
  fputs(";\n", f);
}


static void put_out(const cg *g, FILE *f, int k) {
  fprintf(f, "  %s[%d] = ", g->o[k].arr, g->o[k].idx);
  put_ref(g, f, g->o[k].v);
  fputs(";\n", f);
}


/* item x: its inputs not yet read (each read where first used), then it */
static void put_item(cg *g, FILE *f, int x, char *read) {
  sx o[4];
  int no = item_values(g, x, o);
  for (int k = 0; k < no; k++) {
    int id = o[k].id;
    if (id >= 0 && g->n[id].op == N_IN && !read[id]) {
      read[id] = 1;
      put_node(g, f, id);
    }
  }
  if (x < g->nn) {
    put_node(g, f, x);
  } else {
    put_out(g, f, x - g->nn);
  }
}


/* the body of a function: the nodes its outputs need and the outputs, in cg_schedule's order,
   in pairs where the model has branch pairs (without, when they wait on each other; the
   algorithm's order when memory is short) */
static void cg_write(cg *g, FILE *f) {
  int nseq = 0, *seq = NULL;
  char *read = calloc((size_t)g->nn + 1, 1);
  for (int k = 0; k < g->no; k++) {
    mark(g, g->o[k].v);
  }
  if (read && g->pairs) {
    g->part = malloc(((size_t)g->nn + 1) * sizeof(int));
    g->lane = malloc((size_t)g->nn + 1);
    g->swp = malloc((size_t)g->nn + 1);
    if (g->part && g->lane && g->swp && cg_pair(g) == 0) {
      seq = cg_schedule(g, &nseq);
    }
    if (!seq) {
      free(g->part), free(g->lane), free(g->swp);
      g->part = NULL, g->lane = g->swp = NULL;
    }
  }
  if (read && !seq) {
    seq = cg_schedule(g, &nseq);
  }
  if (seq) {
    for (int k = 0; k < nseq; k++) {
      put_item(g, f, seq[k], read);
    }
  } else {
    for (int k = 0; k < g->nn; k++) {
      if (g->n[k].live) {
        put_node(g, f, k);
      }
    }
    for (int k = 0; k < g->no; k++) {
      put_out(g, f, k);
    }
  }
  free(g->part), free(g->lane), free(g->swp);
  g->part = NULL, g->lane = g->swp = NULL;
  free(seq);
  free(read);
}


/* ---------------------------------------------------------------------------------------------
 * the algorithms on symbols: lib/'s passes in the joint frames F_i (spart_joint_constants)
 */

typedef struct gen {
  cg g;
  const spart_model *m;
  const spart_data *d;
  int fixed;
  sx *Q, *rho; /* (nb x 9), (nb x 3): F_i in F_p (spart_xup's) */
  double *cj;  /* (nb x SPART_CJ) the dynamics' bodies, fixed joints merged (spart_merge_fixed) */
  int *cpar;   /* (nb) the dynamics' parent of a body, -1 for one merged into a body above */
  int *role;   /* (nv) a degree of freedom's role in its branch pair (branch_roles) */
} gen;


static const double *jc(const gen *G, int i) {
  return G->d->own_->jc + SPART_JC * i;
}


/* the joint transform of body i at the coordinates q (spart_xup's one_screw), its constant part
   T (9) and r (3): the model's (jc) or the dynamics' (spart_merge_fixed) */
static void xup_one(gen *G, const sx *q, int i, const double *T, const double *r) {
  const spart_model *m = G->m;
  cg *g = &G->g;
  sx *Q = G->Q + 9 * i, *rho = G->rho + 3 * i;
  for (int k = 0; k < 9; k++) {
    Q[k] = cst(T[k]);
  }
  for (int k = 0; k < 3; k++) {
    rho[k] = cst(r[k]);
  }
  if (m->jnt_nv[i] == 0) {
    return;
  }
  const double *h = m->dof_screw + 2 * m->jnt_vadr[i];
  sx x = q[m->jnt_qadr[i]];
  if (h[0] != 0) {
    sx ang = mul(g, cst(h[0]), x);
    sx sc = op2(g, N_SC, ang, ZERO); /* the sine and cosine of one call */
    sx s = op2(g, N_SIN, sc, ZERO), c = op2(g, N_COS, sc, ZERO);
    for (int l = 0; l < 9; l += 3) {
      Q[l] = add(g, mul(g, c, cst(T[l])), mul(g, s, cst(T[l + 1])));
      Q[l + 1] = sub(g, mul(g, c, cst(T[l + 1])), mul(g, s, cst(T[l])));
    }
  }
  if (h[1] != 0) {
    sx z = mul(g, cst(h[1]), x);
    for (int l = 0; l < 3; l++) {
      rho[l] = add(g, rho[l], mul(g, z, cst(T[3 * l + 2])));
    }
  }
}


/* the joint transforms of every body (the nodes are made where first needed: a pass that
   takes them body by body makes each just before its use, fewer values held at once) */
static void xup(gen *G, const sx *q) {
  for (int i = 1; i < G->m->nb; i++) {
    xup_one(G, q, i, jc(G, i) + SPART_JC_T, jc(G, i) + SPART_JC_R);
  }
}


/* res = X' f: [Q n + rho x Q f; Q f] (spart_rnea's force_up) */
static void force_up(cg *g, sx res[6], const sx Q[9], const sx rho[3], const sx f[6]) {
  sx r[6], rf[3];
  mulmv(g, r, Q, f);
  mulmv(g, r + 3, Q, f + 3);
  cross3(g, rf, rho, r + 3);
  for (int k = 0; k < 3; k++) {
    r[k] = add(g, r[k], rf[k]);
  }
  memcpy(res, r, sizeof r);
}


/* y = Q' x (tr) or Q x for body i's joint rotation Q = T Rz(h0 q) (xup_one's) kept in its two
   factors: T' x by the constant T, then the turn by the joint's sine and cosine (or the
   reverse).  For a vector taken through the joint once this is as cheap as Q's own entries,
   which need not then be made nor held from the forward pass to the backward one */
static void joint_rot(gen *G, const sx *q, int i, const double *T, int tr, sx y[3],
                      const sx x[3]) {
  cg *g = &G->g;
  const double *h = G->m->dof_screw + 2 * G->m->jnt_vadr[i];
  sx Tc[9], u[3], s = ZERO, c = ONE;
  for (int k = 0; k < 9; k++) {
    Tc[k] = cst(T[k]);
  }
  if (G->m->jnt_nv[i] > 0 && h[0] != 0) {
    sx sc = op2(g, N_SC, mul(g, cst(h[0]), q[G->m->jnt_qadr[i]]), ZERO);
    s = op2(g, N_SIN, sc, ZERO), c = op2(g, N_COS, sc, ZERO);
  }
  if (tr) { /* Rz' T' x */
    mulmtv(g, u, Tc, x);
    y[0] = add(g, mul(g, c, u[0]), mul(g, s, u[1]));
    y[1] = sub(g, mul(g, c, u[1]), mul(g, s, u[0]));
    y[2] = u[2];
  } else { /* T Rz x */
    u[0] = sub(g, mul(g, c, x[0]), mul(g, s, x[1]));
    u[1] = add(g, mul(g, s, x[0]), mul(g, c, x[1]));
    u[2] = x[2];
    mulmv(g, y, Tc, u);
  }
}


/* the Newton-Euler force of a body, at its origin, from its angular velocity w, angular
   acceleration al and the classical acceleration ao of its origin (the origin's acceleration as
   a point, not the spatial one: ao = a + w x v), its CoM at c (NULL: at the origin):
   f = m (ao + al x c + w x (w x c)) at the CoM, n = Ic al + w x Ic w + c x f.  Equal to
   spart_rnea's I a + v x* I v; the body's linear velocity, which neither needs, is never made. */
static void body_force(cg *g, sx f[6], const double *Ic, double mass, const double *c,
                       const sx w[3], const sx al[3], const sx ao[3]) {
  sx I[6], Iw[3], wIw[3], ac[3], cc[3], m = cst(mass);
  for (int k = 0; k < 6; k++) {
    I[k] = cst(Ic[k]);
  }
  for (int k = 0; k < 3; k++) {
    ac[k] = ao[k];
    cc[k] = cst(c ? c[k] : 0);
  }
  if (c) {
    sx wc[3], wwc[3], alc[3];
    cross3(g, wc, w, cc);
    cross3(g, wwc, w, wc);
    cross3(g, alc, al, cc);
    for (int k = 0; k < 3; k++) {
      ac[k] = add(g, ac[k], add(g, alc[k], wwc[k]));
    }
  }
  mulsv(g, f, I, al);
  mulsv(g, Iw, I, w);
  cross3(g, wIw, w, Iw);
  for (int k = 0; k < 3; k++) {
    f[k] = add(g, f[k], wIw[k]);
    f[3 + k] = mul(g, m, ac[k]);
  }
  if (c) {
    sx nc[3];
    cross3(g, nc, cc, f + 3);
    for (int k = 0; k < 3; k++) {
      f[k] = add(g, f[k], nc[k]);
    }
  }
}


/* inverse dynamics (spart_rnea's recursion, RBDA table 5.1): tau (6 + nv) at R0 (9), q,
   v = [u0; um], a = [u0dot; umdot] (6 + nv each), gravity g (3), with the armature; the
   friction is the caller's.  The forward pass carries each body's angular velocity w, angular
   acceleration al and its origin's classical acceleration ao (RBDA 2.11: ao = a + w x v of the
   spatial a, v), which need no linear velocity: from the parent p through the joint (Q, rho),
   ao = Q' (ao_p + al_p x rho + w_p x (w_p x rho)), then for the degree of freedom S = [sw; sv]
   at the rate qd, qdd: w += sw qd, al += sw qdd + (w x sw) qd,
   ao += sv qdd + 2 qd (w_before x sv) + qd^2 (sw x sv)  (equal to a + S qdd + v x S qd) */
static void rnea(gen *G, const sx R0[9], const sx *q, const sx *v, const sx *a, const sx g3[3],
                 sx *tau) {
  const spart_model *m = G->m;
  cg *g = &G->g;
  int nb = m->nb;
  sx *W = calloc((size_t)nb * 15, sizeof(sx));
  if (!W) {
    g->oom = 1;
    return;
  }
  sx *A = W + 3 * nb, *F = A + 6 * nb, ga[3];

  /* base, in its frame: w0, w0dot, ao = R0' (r0ddot - g) */
  for (int k = 0; k < 3; k++) {
    W[k] = v[k];
    A[k] = a[k];
    ga[k] = sub(g, a[3 + k], g3[k]);
  }
  mulmtv(g, A + 3, R0, ga);
  body_force(g, F, G->cj + SPART_CJ_IC, G->cj[SPART_CJ_M], G->cj + SPART_CJ_C, W, A, A + 3);

  for (int i = 1; i < nb; i++) {
    int p = G->cpar[i];
    if (p < 0) {
      continue; /* merged into a body above it (spart_merge_fixed) */
    }
    const double *cj = G->cj + SPART_CJ * i;
    sx *wi = W + 3 * i, *ai = A + 6 * i, *wp = W + 3 * p, *ap = A + 6 * p;
    sx *rho = G->rho + 3 * i, wr[3], wwr[3], ar[3], t[3];
    xup_one(G, q, i, cj + SPART_CJ_T, cj + SPART_CJ_R);
    cross3(g, wr, wp, rho);
    cross3(g, wwr, wp, wr);
    cross3(g, ar, ap, rho);
    for (int k = 0; k < 3; k++) {
      t[k] = add(g, ap[3 + k], add(g, ar[k], wwr[k]));
    }
    joint_rot(G, q, i, cj + SPART_CJ_T, 1, wi, wp);
    joint_rot(G, q, i, cj + SPART_CJ_T, 1, ai, ap);
    joint_rot(G, q, i, cj + SPART_CJ_T, 1, ai + 3, t);
    for (int j = m->jnt_vadr[i], end = j + m->jnt_nv[i]; j < end; j++) {
      sx sw[3], sv[3], wsv[3], swsv[3], wsw[3], qd = v[6 + j], qdd = a[6 + j];
      for (int k = 0; k < 3; k++) {
        sw[k] = cst(m->dof_S[6 * j + k]);
        sv[k] = cst(m->dof_S[6 * j + 3 + k]);
      }
      cross3(g, wsv, wi, sv);
      cross3(g, swsv, sw, sv);
      sx qd2 = mul(g, qd, qd), qdx2 = mul(g, cst(2), qd);
      for (int k = 0; k < 3; k++) {
        sx lin = add(g, mul(g, sv[k], qdd), mul(g, wsv[k], qdx2));
        ai[3 + k] = add(g, ai[3 + k], add(g, lin, mul(g, swsv[k], qd2)));
        wi[k] = add(g, wi[k], mul(g, sw[k], qd));
      }
      cross3(g, wsw, wi, sw);
      for (int k = 0; k < 3; k++) {
        ai[k] = add(g, ai[k], add(g, mul(g, sw[k], qdd), mul(g, wsw[k], qd)));
      }
    }
    body_force(g, F + 6 * i, cj + SPART_CJ_IC, cj[SPART_CJ_M], cj + SPART_CJ_C, wi, ai, ai + 3);
  }

  /* backward pass: tau_i = S_i' f_i + armature qdd, f_p += X_i' f_i */
  for (int i = nb - 1; i > 0; i--) {
    if (G->cpar[i] < 0) {
      continue;
    }
    sx *f = F + 6 * i, *fp = F + 6 * G->cpar[i], fx[6];
    for (int j = m->jnt_vadr[i], end = j + m->jnt_nv[i]; j < end; j++) {
      sx t = ZERO;
      for (int k = 0; k < 6; k++) {
        t = add(g, t, mul(g, cst(m->dof_S[6 * j + k]), f[k]));
      }
      tau[6 + j] = add(g, t, mul(g, cst(m->jnt_armature[i]), a[6 + j]));
    }
    sx rf[3];
    joint_rot(G, q, i, G->cj + SPART_CJ * i + SPART_CJ_T, 0, fx, f);
    joint_rot(G, q, i, G->cj + SPART_CJ * i + SPART_CJ_T, 0, fx + 3, f + 3);
    cross3(g, rf, G->rho + 3 * i, fx + 3); /* force_up's, Q in its factors */
    for (int k = 0; k < 6; k++) {
      fp[k] = add(g, fp[k], k < 3 ? add(g, fx[k], rf[k]) : fx[k]);
    }
  }

  /* base: tau0 = [torque (base frame); R0 force] */
  for (int k = 0; k < 3; k++) {
    tau[k] = F[k];
  }
  mulmv(g, tau + 3, R0, F + 3);
  free(W);
}


/* the friction forces of the joints at the velocities um (spart_friction), into fr (nv) */
static void friction(gen *G, const sx *um, sx *fr) {
  const spart_model *m = G->m;
  cg *g = &G->g;
  for (int j = 0; j < m->nv; j++) {
    int i = m->dof_body[j];
    const double *c = m->jnt_friction + 2 * i;
    sx t = mul(g, cst(m->jnt_damping[i]), um[j]);
    if (c[0] != 0) {
      t = add(g, t, mul(g, cst(c[0]), op2(g, N_GT0, um[j], ZERO)));
    }
    if (c[1] != 0) {
      t = add(g, t, mul(g, cst(c[1]), op2(g, N_LT0, um[j], ZERO)));
    }
    fr[j] = t;
  }
}


/* the compact inertia (m, h, J: xx yy zz xy xz yz) X' I X of a child's I in its parent's frame
   (spu_inertparent_add's: turned, J = Q J_i Q', h = Q h_i, then moved by rho, spu_inertshift) */
static void inert_up(cg *g, sx res[10], const sx Q[9], const sx rho[3], const sx I[10]) {
  static const int sym[9] = {0, 3, 4, 3, 1, 5, 4, 5, 2};
  sx J[9], QJ[9], Jt[9], h[3], r[10];
  for (int k = 0; k < 9; k++) {
    J[k] = I[4 + sym[k]];
  }
  for (int a = 0; a < 3; a++) {
    for (int b = 0; b < 3; b++) {
      const sx col[3] = {J[b], J[3 + b], J[6 + b]};
      QJ[3 * a + b] = dot3(g, Q + 3 * a, col);
    }
  }
  for (int a = 0; a < 3; a++) {
    for (int b = a; b < 3; b++) {
      Jt[3 * a + b] = dot3(g, QJ + 3 * a, Q + 3 * b);
    }
  }
  mulmv(g, h, Q, I + 1);
  /* h' = h + m d;  J' = J - d h' - h d' + 2 (h.d) 1 - m (d d' - |d|^2 1) */
  sx m = I[0], hd = dot3(g, h, rho), dd = dot3(g, rho, rho);
  sx diag = add(g, mul(g, cst(2), hd), mul(g, m, dd));
  static const int pa[6] = {0, 1, 2, 0, 0, 1}, pb[6] = {0, 1, 2, 1, 2, 2};
  for (int k = 0; k < 6; k++) {
    int a = pa[k], b = pb[k];
    sx t = sub(g, Jt[3 * a + b], add(g, mul(g, rho[a], h[b]), mul(g, h[a], rho[b])));
    t = sub(g, t, mul(g, m, mul(g, rho[a], rho[b])));
    r[4 + k] = a == b ? add(g, t, diag) : t;
  }
  r[0] = m;
  for (int k = 0; k < 3; k++) {
    r[1 + k] = add(g, h[k], mul(g, m, rho[k]));
  }
  memcpy(res, r, sizeof r);
}


/* the force I S of a compact inertia for the motion S: [J w + h x v; m v - h x w] */
static void inert_mul(cg *g, sx f[6], const sx I[10], const sx S[6]) {
  static const int sym[9] = {0, 3, 4, 3, 1, 5, 4, 5, 2};
  sx J[9], hv[3], hw[3];
  for (int k = 0; k < 9; k++) {
    J[k] = I[4 + sym[k]];
  }
  mulmv(g, f, J, S);
  cross3(g, hv, I + 1, S + 3);
  cross3(g, hw, I + 1, S);
  for (int k = 0; k < 3; k++) {
    f[k] = add(g, f[k], hv[k]);
    f[3 + k] = sub(g, mul(g, I[0], S[3 + k]), hw[k]);
  }
}


/* the generalized inertia matrix (spart_crba): H ((6 + nv)^2, row-major) at R0 (9), q; the
   joints' armature on its diagonal */
static void crba(gen *G, const sx R0[9], const sx *q, sx *H) {
  const spart_model *m = G->m;
  cg *g = &G->g;
  int nb = m->nb, n = 6 + m->nv;
  sx *IC = calloc((size_t)nb * 10, sizeof(sx));
  if (!IC) {
    g->oom = 1;
    return;
  }
  for (int i = 1; i < nb; i++) {
    if (G->cpar[i] >= 0) {
      xup_one(G, q, i, G->cj + SPART_CJ * i + SPART_CJ_T, G->cj + SPART_CJ * i + SPART_CJ_R);
    }
  }
  for (int k = 0; k < n * n; k++) {
    H[k] = ZERO;
  }
  /* the bodies alone (the base about its CoM; fixed joints' bodies merged: spart_merge_fixed), then
     IC_p += X_i' IC_i X_i (RBDA table 6.2) */
  for (int i = 0; i < nb; i++) {
    for (int k = 0; k < 10; k++) {
      IC[10 * i + k] = cst(G->cj[SPART_CJ * i + SPART_CJ_IO + k]);
    }
  }
  for (int i = nb - 1; i > 0; i--) {
    if (G->cpar[i] < 0) {
      continue;
    }
    sx t[10], *p = IC + 10 * G->cpar[i];
    inert_up(g, t, G->Q + 9 * i, G->rho + 3 * i, IC + 10 * i);
    for (int k = 0; k < 10; k++) {
      p[k] = add(g, p[k], t[k]);
    }
  }

  /* each degree of freedom: F = IC_i S, H_jj = S' F, then carried up the tree, H_kj = S_k' F at
     every degree of freedom k above, B' F at the base */
  for (int j = 0; j < m->nv; j++) {
    int i = m->dof_body[j];
    sx S[6], F[6];
    for (int k = 0; k < 6; k++) {
      S[k] = cst(m->dof_S[6 * j + k]);
    }
    inert_mul(g, F, IC + 10 * i, S);
    for (int b = i; b > 0; b = G->cpar[b]) {
      for (int k = m->jnt_vadr[b], end = k + m->jnt_nv[b]; k < end && k <= j; k++) {
        sx t = ZERO;
        for (int c = 0; c < 6; c++) {
          t = add(g, t, mul(g, cst(m->dof_S[6 * k + c]), F[c]));
        }
        if (k == j) {
          t = add(g, t, cst(m->jnt_armature[i]));
        }
        H[(6 + k) * n + 6 + j] = H[(6 + j) * n + 6 + k] = t;
      }
      force_up(g, F, G->Q + 9 * b, G->rho + 3 * b, F); /* into the parent's frame */
    }
    sx f0[3];
    mulmv(g, f0, R0, F + 3);
    for (int k = 0; k < 3; k++) {
      H[k * n + 6 + j] = H[(6 + j) * n + k] = F[k];
      H[(3 + k) * n + 6 + j] = H[(6 + j) * n + 3 + k] = f0[k];
    }
  }

  /* the base: H0 = [J, [h]x R0'; R0 [h]x', m 1] (spart_base_inertia) */
  static const int sym[9] = {0, 3, 4, 3, 1, 5, 4, 5, 2};
  const sx *I0 = IC;
  for (int r = 0; r < 3; r++) {
    for (int c = 0; c < 3; c++) {
      H[n * r + c] = I0[4 + sym[3 * r + c]];
      H[n * (r + 3) + c + 3] = r == c ? I0[0] : ZERO;
    }
  }
  for (int c = 0; c < 3; c++) {
    sx k[3];
    cross3(g, k, I0 + 1, R0 + 3 * c);
    for (int r = 0; r < 3; r++) {
      H[n * r + 3 + c] = H[n * (3 + c) + r] = k[r];
    }
  }
  free(IC);
}


/* the parent of each degree of freedom of u = [u0; um] in the tree of H (-1 for the first):
   the base's six a chain, a joint's first the last of the nearest joint above (jnt_up), the
   base's last at the root; fixed: the joints alone (the base's are not in the system) */
static void dof_parents(const spart_model *m, int fixed, int *lam) {
  for (int k = 0; k < 6; k++) {
    lam[k] = fixed ? -1 : k - 1;
  }
  for (int j = 0; j < m->nv; j++) {
    int i = m->dof_body[j], up = m->jnt_up[i];
    if (j > m->jnt_vadr[i]) {
      lam[6 + j] = 6 + j - 1;
    } else if (up > 0) {
      lam[6 + j] = 6 + m->jnt_vadr[up] + m->jnt_nv[up] - 1;
    } else {
      lam[6 + j] = fixed ? -1 : 5;
    }
  }
}


/* x = H^-1 b for the degrees of freedom lo..n-1 of H (n x n, row-major, overwritten), in place
   in b: H = L' D L with the tree's sparsity (Featherstone's LTDL, RBDA 6.5), lam the parents.
   What a subtree takes from the entries above it is summed by the tree, not in one chain:
   T_k[i n + j] (i, j above k) is what k's subtree takes from H[i][j], k's own a H[k][j] plus
   its children's T_c, and it is taken when i is reached; Tb_k[j] the same for b[j].  Two
   branches of one shape then make alike sums (cg_pair), with as many operations as one chain.
   0, or -1 out of memory. */
static int ltdl_solve(cg *g, sx *H, int n, int lo, const int *lam, sx *b) {
  sx **T = calloc((size_t)n, sizeof(sx *));
  int err = !T;
  for (int k = n - 1; !err && k >= lo; k--) {
    size_t nt = (size_t)n * n + n; /* T_k, then Tb_k */
    T[k] = malloc(nt * sizeof(sx));
    if (!T[k]) {
      err = 1;
      break;
    }
    for (size_t e = 0; e < nt; e++) {
      T[k][e] = ZERO;
    }
    for (int c = k + 1; c < n; c++) { /* the children's sums: in T_k, or taken from row k */
      for (int i = k; T[c] && lam[c] == k && i >= lo; i = lam[i]) {
        for (int j = i; j >= lo; j = lam[j]) {
          if (i == k) {
            H[k * n + j] = sub(g, H[k * n + j], T[c][k * n + j]);
          } else {
            T[k][i * n + j] = add(g, T[k][i * n + j], T[c][i * n + j]);
          }
        }
      }
    }
    sx inv = divide(g, ONE, H[k * n + k]);
    for (int i = lam[k]; i >= lo; i = lam[i]) {
      sx a = mul(g, H[k * n + i], inv);
      for (int j = i; j >= lo; j = lam[j]) {
        T[k][i * n + j] = add(g, mul(g, a, H[k * n + j]), T[k][i * n + j]);
      }
      H[k * n + i] = a;
    }
    H[k * n + k] = inv; /* kept as its inverse */
  }
  /* L' y = b, D z = y, L x = z */
  for (int i = n - 1; !err && i >= lo; i--) {
    sx *Tb = T[i] + (size_t)n * n;
    for (int c = i + 1; c < n; c++) {
      for (int j = i; T[c] && lam[c] == i && j >= lo; j = lam[j]) {
        sx *Tc = T[c] + (size_t)n * n;
        if (j == i) {
          b[i] = sub(g, b[i], Tc[i]);
        } else {
          Tb[j] = add(g, Tb[j], Tc[j]);
        }
      }
    }
    for (int j = lam[i]; j >= lo; j = lam[j]) {
      Tb[j] = add(g, mul(g, H[i * n + j], b[i]), Tb[j]);
    }
  }
  for (int i = lo; !err && i < n; i++) {
    b[i] = mul(g, b[i], H[i * n + i]);
  }
  for (int i = lo; !err && i < n; i++) {
    for (int j = lam[i]; j >= lo; j = lam[j]) {
      b[i] = sub(g, b[i], mul(g, H[i * n + j], b[j]));
    }
  }
  for (int k = 0; T && k < n; k++) {
    free(T[k]);
  }
  free(T);
  return err ? -1 : 0;
}


/* the pose of every link's CoM frame (spart_fk): T (nb x 16) row-major 4x4, [0] the base */
static void fk(gen *G, const sx R0[9], const sx r0[3], const sx *q, sx *T) {
  const spart_model *m = G->m;
  cg *g = &G->g;
  int nb = m->nb;
  sx *R = calloc((size_t)nb * 12, sizeof(sx));
  if (!R) {
    g->oom = 1;
    return;
  }
  sx *p = R + 9 * nb;
  xup(G, q);
  memcpy(R, R0, 9 * sizeof(sx));
  memcpy(p, r0, 3 * sizeof(sx));
  for (int i = 1; i < nb; i++) {
    int par = m->body_parent[i];
    sx *Ri = R + 9 * i, *Rp = R + 9 * par, *Q = G->Q + 9 * i, t[3];
    for (int a = 0; a < 3; a++) {
      for (int b = 0; b < 3; b++) {
        const sx col[3] = {Q[b], Q[3 + b], Q[6 + b]};
        Ri[3 * a + b] = dot3(g, Rp + 3 * a, col);
      }
    }
    mulmv(g, t, Rp, G->rho + 3 * i);
    for (int k = 0; k < 3; k++) {
      p[3 * i + k] = add(g, p[3 * par + k], t[k]);
    }
  }
  /* the link frames: RL = R CR, rL = p + R c */
  for (int i = 0; i < nb; i++) {
    const double *CR = jc(G, i) + SPART_JC_CR, *c = jc(G, i) + SPART_JC_C;
    sx *Ti = T + 16 * i, cc[3] = {cst(c[0]), cst(c[1]), cst(c[2])}, t[3];
    for (int a = 0; a < 3; a++) {
      for (int b = 0; b < 3; b++) {
        const sx col[3] = {cst(CR[b]), cst(CR[3 + b]), cst(CR[6 + b])};
        Ti[4 * a + b] = dot3(g, R + 9 * i + 3 * a, col);
      }
    }
    mulmv(g, t, R + 9 * i, cc);
    for (int k = 0; k < 3; k++) {
      Ti[4 * k + 3] = add(g, p[3 * i + k], t[k]);
      Ti[12 + k] = ZERO;
    }
    Ti[15] = ONE;
  }
  free(R);
}


/* ---------------------------------------------------------------------------------------------
 * the file
 */

/* a subtree's shape: its root's joint kind and degrees of freedom, then its children's shapes
   in order */
static uint64_t shape(const spart_model *m, int i) {
  uint64_t h = mix(mix(0x3F, (uint64_t)m->jnt_type[i]), (uint64_t)m->jnt_nv[i]);
  for (int c = i + 1; c < m->nb; c++) {
    if (m->body_parent[c] == i) {
      h = mix(h, shape(m, c));
    }
  }
  return h;
}


/* b's subtree stands for a's, body by body in order: its degrees of freedom take a's roles */
static void map_subtree(const spart_model *m, int a, int b, int *role, char *taken) {
  taken[a] = taken[b] = 1;
  for (int u = 0; u < m->jnt_nv[b]; u++) {
    role[m->jnt_vadr[b] + u] = m->jnt_vadr[a] + u;
  }
  for (int ca = a + 1, cb = b + 1; ca < m->nb && cb < m->nb; ca++, cb++) {
    while (ca < m->nb && m->body_parent[ca] != a) {
      ca++;
    }
    while (cb < m->nb && m->body_parent[cb] != b) {
      cb++;
    }
    if (ca < m->nb && cb < m->nb) {
      map_subtree(m, ca, cb, role, taken);
    }
  }
}


/* each degree of freedom's role (cg_pair): itself, or in the second of two sibling subtrees of
   one shape, the first's at its place (siblings paired in order: a quadruped's legs two and
   two).  1 if two subtrees with degrees of freedom are alike, else 0; -1 out of memory. */
static int branch_roles(const spart_model *m, int *role) {
  uint64_t *sh = malloc((size_t)m->nb * sizeof *sh);
  char *taken = calloc((size_t)m->nb, 1);
  int pairs = 0;
  if (!sh || !taken) {
    free(sh), free(taken);
    return -1;
  }
  for (int j = 0; j < m->nv; j++) {
    role[j] = j;
  }
  for (int i = 1; i < m->nb; i++) {
    sh[i] = shape(m, i);
  }
  for (int a = 1; a < m->nb; a++) {
    for (int b = a + 1; b < m->nb && !taken[a]; b++) {
      if (!taken[b] && m->body_parent[b] == m->body_parent[a] && sh[b] == sh[a]) {
        map_subtree(m, a, b, role, taken);
        pairs |= m->jnt_sub[2 * a + 1] > m->jnt_sub[2 * a]; /* some degree of freedom */
      }
    }
  }
  free(sh), free(taken);
  return pairs;
}


const char *cli_codegen_refuse(const spart_model *m) {
  if (m->coupled) {
    return "coupled mimic joints are not generated (leave out --mimic: they stay free joints)";
  }
  for (int i = 1; i < m->nb; i++) {
    if (m->jnt_nv[i] > 0 && (m->jnt_nq[i] != 1 || m->jnt_nv[i] != 1)) {
      return "only revolute, continuous, prismatic, helical and fixed joints are generated";
    }
    if (m->jnt_nv[i] > 0 && m->jnt_nq[i] != m->jnt_nv[i]) {
      return "only joints with as many coordinates as degrees of freedom are generated";
    }
  }
  return NULL;
}


static void begin(gen *G) {
  cg_reset(&G->g);
}


/* the inputs of an argument array, or n zeros when arr is NULL; those of a joint array
   (joint: one entry a degree of freedom) stand for their degree of freedom's role */
static void inputs_of(gen *G, sx *x, const char *arr, int n, int joint) {
  for (int k = 0; k < n; k++) {
    x[k] = arr ? in(&G->g, arr, k) : ZERO;
    if (x[k].id >= 0) {
      G->g.n[x[k].id].role = joint ? G->role[k] : k;
    }
  }
}


static void inputs(gen *G, sx *x, const char *arr, int n) {
  inputs_of(G, x, arr, n, 0);
}


static void joint_inputs(gen *G, sx *x, const char *arr, int n) {
  inputs_of(G, x, arr, n, 1);
}


static void identity(sx R[9]) {
  for (int k = 0; k < 9; k++) {
    R[k] = k % 4 == 0 ? ONE : ZERO;
  }
}


typedef struct proto {
  int fn;
  const char *fixed, *floating;
} proto;

static const proto protos[] = {
    {CLI_CG_ID, "id(const double *q, const double *v, const double *a, const double *g, "
                "double *tau)",
     "id(const double *R0, const double *qm, const double *u0, const double *um, "
     "const double *u0dot, const double *umdot, const double *g, double *tau0, double *taum)"},
    {CLI_CG_MASS, "mass(const double *q, double *H)", "mass(const double *R0, const double *qm, "
                                                      "double *H)"},
    {CLI_CG_FD, "fd(const double *q, const double *v, const double *tau, const double *g, "
                "double *a)",
     "fd(const double *R0, const double *qm, const double *u0, const double *um, "
     "const double *tau0, const double *taum, const double *g, double *u0dot, double *umdot)"},
    {CLI_CG_FK, "fk(const double *q, double *T)", "fk(const double *R0, const double *r0, "
                                                  "const double *qm, double *T)"},
    {CLI_CG_JAC, "jac(const double *q, double *J)",
     "jac(const double *R0, const double *r0, const double *qm, double *J0, double *Jm)"},
};


static void put_proto(FILE *f, const cli_codegen *o, const proto *p, const char *end) {
  fprintf(f, "void %s_%s%s", o->prefix, o->fixed_base ? p->fixed : p->floating, end);
}


/* the functions' bodies, each from its arguments (fixed base: q, v, a, tau; floating: R0, qm,
   u0, um, ...; the base's missing arguments are constants, identity and zeros) to its outputs */
static void body_id(gen *G, FILE *f) {
  const spart_model *m = G->m;
  int n = 6 + m->nv, fixed = G->fixed;
  sx R0[9], g3[3], *x = calloc((size_t)(m->nq + 3 * n), sizeof(sx));
  if (!x) {
    G->g.oom = 1;
    return;
  }
  sx *q = x, *v = q + m->nq, *a = v + n, *tau = a + n;
  begin(G);
  if (fixed) {
    identity(R0);
  } else {
    inputs(G, R0, "R0", 9);
  }
  joint_inputs(G, q, fixed ? "q" : "qm", m->nq);
  inputs(G, v, fixed ? NULL : "u0", 6);
  joint_inputs(G, v + 6, fixed ? "v" : "um", m->nv);
  inputs(G, a, fixed ? NULL : "u0dot", 6);
  joint_inputs(G, a + 6, fixed ? "a" : "umdot", m->nv);
  inputs(G, g3, "g", 3);
  rnea(G, R0, q, v, a, g3, tau);
  sx *frv = calloc((size_t)m->nv + 1, sizeof(sx));
  if (!frv) {
    G->g.oom = 1;
    free(x);
    return;
  }
  friction(G, v + 6, frv);
  if (!fixed) {
    for (int k = 0; k < 6; k++) {
      output(&G->g, "tau0", k, tau[k]);
    }
  }
  for (int j = 0; j < m->nv; j++) {
    output(&G->g, fixed ? "tau" : "taum", j, add(&G->g, tau[6 + j], frv[j]));
  }
  cg_write(&G->g, f);
  free(frv);
  free(x);
}


static void body_mass(gen *G, FILE *f) {
  const spart_model *m = G->m;
  int n = 6 + m->nv, fixed = G->fixed, lo = fixed ? 6 : 0, nn = n - lo;
  sx R0[9], *x = calloc((size_t)(m->nq + n * n), sizeof(sx));
  if (!x) {
    G->g.oom = 1;
    return;
  }
  sx *q = x, *H = q + m->nq;
  begin(G);
  if (fixed) {
    identity(R0);
  } else {
    inputs(G, R0, "R0", 9);
  }
  joint_inputs(G, q, fixed ? "q" : "qm", m->nq);
  crba(G, R0, q, H);
  for (int r = lo; r < n; r++) {
    for (int c = lo; c < n; c++) {
      output(&G->g, "H", (r - lo) * nn + c - lo, H[r * n + c]);
    }
  }
  cg_write(&G->g, f);
  free(x);
}


static void body_fd(gen *G, FILE *f) {
  const spart_model *m = G->m;
  int n = 6 + m->nv, fixed = G->fixed, lo = fixed ? 6 : 0;
  sx R0[9], g3[3], *x = calloc((size_t)(m->nq + 5 * n + n * n), sizeof(sx));
  int *lam = calloc((size_t)n, sizeof(int));
  if (!x || !lam) {
    free(x);
    free(lam);
    G->g.oom = 1;
    return;
  }
  sx *q = x, *v = q + m->nq, *tau = v + n, *zero = tau + n, *bias = zero + n, *b = bias + n;
  sx *H = b + n, I3[9], gb[3];
  begin(G);
  if (fixed) {
    identity(R0);
  } else {
    inputs(G, R0, "R0", 9);
  }
  joint_inputs(G, q, fixed ? "q" : "qm", m->nq);
  inputs(G, v, fixed ? NULL : "u0", 6);
  joint_inputs(G, v + 6, fixed ? "v" : "um", m->nv);
  inputs(G, tau, fixed ? NULL : "tau0", 6);
  joint_inputs(G, tau + 6, fixed ? "tau" : "taum", m->nv);
  inputs(G, zero, NULL, n);
  inputs(G, g3, "g", 3);
  /* H udot = tau - friction - c, c the forces at udot = 0 (spart_rnea), H by spart_crba, solved
     with the base's linear rows and columns in its own frame: T' H T z = T' (tau - c),
     udot = T z, T = diag(1, R0, 1) (a rotation: the same solution), which the passes make with R0
     the identity and gravity in the base's frame, R0 then only at the base's force and
     acceleration (rnea's tau0 = [n; R0 f], crba's base rows R0 F, made and turned back, are not
     made) */
  identity(I3);
  mulmtv(&G->g, gb, R0, g3);
  rnea(G, I3, q, v, zero, gb, bias);
  mulmtv(&G->g, tau + 3, R0, tau + 3);
  friction(G, v + 6, b + 6);
  for (int k = 0; k < 6; k++) {
    b[k] = sub(&G->g, tau[k], bias[k]);
  }
  for (int j = 0; j < m->nv; j++) {
    b[6 + j] = sub(&G->g, sub(&G->g, tau[6 + j], b[6 + j]), bias[6 + j]);
  }
  crba(G, I3, q, H);
  dof_parents(m, fixed, lam);
  if (ltdl_solve(&G->g, H, n, lo, lam, b) != 0) {
    G->g.oom = 1;
  }
  mulmv(&G->g, b + 3, R0, b + 3);
  if (!fixed) {
    for (int k = 0; k < 6; k++) {
      output(&G->g, "u0dot", k, b[k]);
    }
  }
  for (int j = 0; j < m->nv; j++) {
    output(&G->g, fixed ? "a" : "umdot", j, b[6 + j]);
  }
  cg_write(&G->g, f);
  free(lam);
  free(x);
}


static void body_fk(gen *G, FILE *f) {
  const spart_model *m = G->m;
  int fixed = G->fixed;
  sx R0[9], r0[3], *x = calloc((size_t)(m->nq + 16 * m->nb), sizeof(sx));
  if (!x) {
    G->g.oom = 1;
    return;
  }
  sx *q = x, *T = q + m->nq;
  begin(G);
  if (fixed) {
    identity(R0);
  } else {
    inputs(G, R0, "R0", 9);
  }
  inputs(G, r0, fixed ? NULL : "r0", 3);
  joint_inputs(G, q, fixed ? "q" : "qm", m->nq);
  fk(G, R0, r0, q, T);
  for (int k = 16; k < 16 * m->nb; k++) {
    output(&G->g, "T", k - 16, T[k]);
  }
  cg_write(&G->g, f);
  free(x);
}


/* the Jacobian of every link's CoM (spart_jacobian at the CoM): for a degree of freedom k of a
   joint on the path to link i, [S_w; S_v + S_w x (rL_i - p_k)] turned into the inertial frame
   (pm's column at the CoM), 0 elsewhere; the base's [R0, 0; -[rL_i - r0]x R0, 1] */
static void body_jac(gen *G, FILE *f) {
  const spart_model *m = G->m;
  cg *g = &G->g;
  int fixed = G->fixed, nb = m->nb, nv = m->nv;
  sx R0[9], r0[3], *x = calloc((size_t)(m->nq + 16 * nb + 12 * nb), sizeof(sx));
  if (!x) {
    g->oom = 1;
    return;
  }
  sx *q = x, *T = q + m->nq, *R = T + 16 * nb, *p = R + 9 * nb;
  begin(G);
  if (fixed) {
    identity(R0);
  } else {
    inputs(G, R0, "R0", 9);
  }
  inputs(G, r0, fixed ? NULL : "r0", 3);
  joint_inputs(G, q, fixed ? "q" : "qm", m->nq);
  fk(G, R0, r0, q, T);
  /* the joint frames F_i in the inertial frame again (fk's, the same nodes) */
  memcpy(R, R0, 9 * sizeof(sx));
  memcpy(p, r0, 3 * sizeof(sx));
  for (int i = 1; i < nb; i++) {
    int par = m->body_parent[i];
    sx *Ri = R + 9 * i, *Rp = R + 9 * par, *Q = G->Q + 9 * i, t[3];
    for (int a = 0; a < 3; a++) {
      for (int b = 0; b < 3; b++) {
        const sx col[3] = {Q[b], Q[3 + b], Q[6 + b]};
        Ri[3 * a + b] = dot3(g, Rp + 3 * a, col);
      }
    }
    mulmv(g, t, Rp, G->rho + 3 * i);
    for (int k = 0; k < 3; k++) {
      p[3 * i + k] = add(g, p[3 * par + k], t[k]);
    }
  }
  for (int i = 1; i < nb; i++) {
    const sx rL[3] = {T[16 * i + 3], T[16 * i + 7], T[16 * i + 11]};
    int row0 = 6 * nv * (i - 1);
    for (int j = 0; j < nv; j++) {
      int b = m->dof_body[j], on = 0;
      for (int k = i; k > 0 && !on; k = m->body_parent[k]) {
        on = k == b;
      }
      sx col[6] = {ZERO, ZERO, ZERO, ZERO, ZERO, ZERO};
      if (on) {
        sx Sw[3], Sv[3], w[3], lin[3], d[3], wd[3];
        for (int k = 0; k < 3; k++) {
          Sw[k] = cst(m->dof_S[6 * j + k]);
          Sv[k] = cst(m->dof_S[6 * j + 3 + k]);
          d[k] = sub(g, rL[k], p[3 * b + k]);
        }
        mulmv(g, w, R + 9 * b, Sw);
        mulmv(g, lin, R + 9 * b, Sv);
        cross3(g, wd, w, d);
        for (int k = 0; k < 3; k++) {
          col[k] = w[k];
          col[3 + k] = add(g, lin[k], wd[k]);
        }
      }
      for (int r = 0; r < 6; r++) {
        output(g, fixed ? "J" : "Jm", row0 + r * nv + j, col[r]);
      }
    }
    if (!fixed) {
      sx d[3];
      for (int k = 0; k < 3; k++) {
        d[k] = sub(g, rL[k], r0[k]);
      }
      for (int c = 0; c < 3; c++) {
        const sx e[3] = {R0[c], R0[3 + c], R0[6 + c]};
        sx wd[3];
        cross3(g, wd, e, d);
        for (int r = 0; r < 3; r++) {
          output(g, "J0", 36 * (i - 1) + 6 * r + c, e[r]);
          output(g, "J0", 36 * (i - 1) + 6 * r + 3 + c, ZERO);
          output(g, "J0", 36 * (i - 1) + 6 * (3 + r) + c, wd[r]);
          output(g, "J0", 36 * (i - 1) + 6 * (3 + r) + 3 + c, r == c ? ONE : ZERO);
        }
      }
    }
  }
  cg_write(&G->g, f);
  free(x);
}


/* the argument names a function of the state has (for the (void) of the unused ones) */
static const char *const fixed_args[] = {"q", "v", "a", "g", "tau", "H", "T", "J", NULL};
static const char *const floating_args[] = {"R0",  "r0",   "qm",   "u0",   "um",    "u0dot",
                                            "umdot", "tau0", "taum", "g",    "H",     "T",
                                            "J0",  "Jm",   NULL};


/* (void) each argument of the prototype text, so that a model without joints compiles clean */
static void unused(FILE *f, const char *text, int fixed) {
  for (const char *const *a = fixed ? fixed_args : floating_args; *a; a++) {
    char pat[16];
    snprintf(pat, sizeof pat, "*%s,", *a);
    int has = strstr(text, pat) != NULL;
    snprintf(pat, sizeof pat, "*%s)", *a);
    has = has || strstr(text, pat) != NULL;
    if (has) {
      fprintf(f, "  (void)%s;\n", *a);
    }
  }
}


/* the file's sine and cosine of one angle: x = k pi/2 + r, |r| <= pi/4, pi/2 in three parts so
   that k times each is exact for |k| < 2^20, then the Taylor series of both to r^15 and r^16
   (the first term left out is below 7e-17 at pi/4), the quadrant by a table; libm's sin and cos
   beyond 1e5 and at 0 (-0 stays -0).  What spart's own joints compute (lib/base/spu_vec.c), in
   C99.  The functions call it through a volatile pointer, so that it is never inlined: Clang
   inlined it at every joint, and the larger code ran slower (2_iiwa_base's ID 35 KB, not 24 KB,
   and 10% slower). */
static void put_sincos(FILE *f, const char *P) {
  fprintf(f,
          "\nstatic void %s_sincos(double x, double *s, double *c) {\n"
          "  if (!(fabs(x) < 1e5) || x == 0) {\n"
          "    *s = sin(x);\n"
          "    *c = cos(x);\n"
          "    return;\n"
          "  }\n"
          "  const double k = (x * 0x1.45f306dc9c883p-1 + 0x1.8p52) - 0x1.8p52;\n"
          "  const double r = ((x - k * 0x1.921fb544p+0) - k * 0x1.0b4611a6p-34) -\n"
          "                   k * 0x1.3198a2e037073p-69;\n"
          "  const int n = (int)k & 3;\n"
          "  const double r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;\n"
          "  const double ps = (-1.0 / 6 + 1.0 / 120 * r2) + "
          "(-1.0 / 5040 + 1.0 / 362880 * r2) * r4 +\n"
          "                    ((-1.0 / 39916800 + 1.0 / 6227020800 * r2) - "
          "1.0 / 1307674368000 * r4) * r8;\n"
          "  const double pc = (1.0 / 24 - 1.0 / 720 * r2) + "
          "(1.0 / 40320 - 1.0 / 3628800 * r2) * r4 +\n"
          "                    ((1.0 / 479001600 - 1.0 / 87178291200 * r2) + "
          "1.0 / 20922789888000 * r4) * r8;\n"
          "  const double sr = r + r * r2 * ps, cr = 1 - r2 * 0.5 + r2 * r2 * pc;\n"
          "  const double v[5] = {sr, cr, -sr, -cr, sr};\n"
          "  *s = v[n];\n"
          "  *c = v[n + 1];\n"
          "}\n"
          "\n"
          "/* the functions call it through this pointer: one copy of it, which no compiler\n"
          "   inlines at each joint (larger code, and large straight-line code runs slower) */\n"
          "static void (*volatile %s_sincos_call)(double, double *, double *) =\n"
          "    %s_sincos;\n",
          P, P, P);
}


/* the pair of doubles (cg_pair): GCC's and Clang's vector type, one SSE2 register and
   instruction for both lanes; a struct of two, each operation written twice, for any other C99
   compiler or where SPART_CODEGEN_SCALAR is defined (the same numbers, each lane the same
   operations in the same order, where the compiler fuses no a b + c: -ffp-contract=off, GCC's
   default under -std=c99) */
static void put_vector(FILE *f, const char *P) {
  fprintf(f,
          "\n/* two branches of the tree alike (two arms on one base): their values in pairs,\n"
          "   lane 0 the first branch's, each pair one statement */\n"
          "#if defined(__GNUC__) && !defined(SPART_CODEGEN_SCALAR)\n"
          "typedef double %s_v2 __attribute__((vector_size(16)));\n"
          "#define %s_V2(a, b) ((%s_v2){(a), (b)})\n"
          "#define %s_L(v, k) ((v)[k])\n"
          "#define %s_VADD(a, b) ((a) + (b))\n"
          "#define %s_VSUB(a, b) ((a) - (b))\n"
          "#define %s_VMUL(a, b) ((a) * (b))\n"
          "#define %s_VDIV(a, b) ((a) / (b))\n"
          "#define %s_VNEG(a) (-(a))\n"
          "#else\n"
          "typedef struct {\n"
          "  double e[2];\n"
          "} %s_v2;\n"
          "#define %s_V2(a, b) ((%s_v2){{(a), (b)}})\n"
          "#define %s_L(v, k) ((v).e[k])\n",
          P, P, P, P, P, P, P, P, P, P, P, P, P);
  static const char *const op[] = {"ADD", "+", "SUB", "-", "MUL", "*", "DIV", "/"};
  for (int k = 0; k < 8; k += 2) {
    fprintf(f, "#define %s_V%s(a, b) %s_V2(%s_L(a, 0) %s %s_L(b, 0), %s_L(a, 1) %s %s_L(b, 1))\n",
            P, op[k], P, P, op[k + 1], P, P, op[k + 1], P);
  }
  fprintf(f, "#define %s_VNEG(a) %s_V2(-%s_L(a, 0), -%s_L(a, 1))\n#endif\n", P, P, P, P);
}


/* the model's name in the file's first comment (the only text of the model the file holds):
   each byte printable ASCII (space to '~') as itself, but '%', '\\' and a byte that makes with
   the one before it a comment's end or start (* /, / *) or a trigraph's ?? as %XX, its hex
   value, as is every other byte (a control, a newline, UTF-8's): no name ends the comment,
   starts a line (a preprocessor directive) or splices one, with or without -trigraphs */
static void put_name(FILE *f, const char *name) {
  int last = 0;
  for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
    int pair = (last == '*' && *c == '/') || (last == '/' && *c == '*') ||
               (last == '?' && *c == '?');
    if (*c < ' ' || *c > '~' || *c == '%' || *c == '\\' || pair) {
      fprintf(f, "%%%02X", *c);
      last = 0;
    } else {
      fputc(*c, f);
      last = *c;
    }
  }
}


int cli_codegen_write(FILE *f, const spart_model *m, const spart_data *d,
                      const cli_codegen *o) {
  const char *P = o->prefix;
  int nv = m->nv, n = o->fixed_base ? nv : 6 + nv;
  fprintf(f, "/* %s -- the dynamics of the robot '", o->header ? "declarations" : "source");
  put_name(f, m->name ? m->name : "");
  fprintf(f,
          "' (%d links, %d joint degrees of freedom, %s base), written by spart-codegen for this "
          "model alone: C99, <math.h> only.\n"
          " * Arrays row-major, SI units, angles in radians; spart-codegen(1). */\n",
          m->nb - 1, nv, o->fixed_base ? "fixed" : "floating");
  if (o->header) {
    /* the prefix with each letter's case swapped: one guard a prefix (arm ARM_CODEGEN_H, ARM
       arm_CODEGEN_H), the default robot's ROBOT_CODEGEN_H */
    char guard[96];
    size_t k = 0;
    for (const char *c = P; *c && k + 8 < sizeof guard; c++) {
      guard[k++] = (char)(*c >= 'a' && *c <= 'z'   ? *c - 'a' + 'A'
                          : *c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a'
                                                   : *c);
    }
    guard[k] = 0;
    fprintf(f, "#ifndef %s_CODEGEN_H\n#define %s_CODEGEN_H\n\n", guard, guard);
    fprintf(f,
            "#define %s_NQ %d /* coordinates q */\n#define %s_NV %d /* degrees of freedom v */\n",
            P, m->nq, P, nv);
    fprintf(f, "#define %s_NLINKS %d /* links 1..n (the base is 0) */\n", P, m->nb - 1);
    fprintf(f, "#define %s_N %d /* the order of H: %s */\n", P, n,
            o->fixed_base ? "nv" : "6 + nv");
    fprintf(f, "#define %s_FIXED_BASE %d\n\n", P, o->fixed_base);
    for (size_t k2 = 0; k2 < sizeof protos / sizeof protos[0]; k2++) {
      if (o->functions & (unsigned)protos[k2].fn) {
        put_proto(f, o, protos + k2, ";\n");
      }
    }
    fprintf(f, "\n#endif\n");
    return ferror(f) ? -1 : 0;
  }
  fprintf(f, "#include <math.h>\n");
  gen G = {{0}, m, d, o->fixed_base, NULL, NULL, NULL, NULL, NULL};
  G.g.prefix = P;
  G.Q = calloc((size_t)m->nb * 12, sizeof(sx));
  G.cj = malloc((size_t)m->nb * SPART_CJ * sizeof(double));
  G.cpar = malloc((size_t)m->nb * sizeof(int));
  G.role = malloc(((size_t)m->nv + 1) * sizeof(int));
  if (!G.Q || !G.cj || !G.cpar || !G.role || spart_merge_fixed(m, d, G.cj, G.cpar) != 0 ||
      (G.g.pairs = branch_roles(m, G.role)) < 0) {
    free(G.Q), free(G.cj), free(G.cpar), free(G.role);
    return -1;
  }
  G.rho = G.Q + 9 * m->nb;
  /* the functions first, in memory: what they call (the vector type, sincos) goes before them */
  cli_memfile mf;
  FILE *body_f = cli_memfile_open(&mf);
  void (*body[])(gen *, FILE *) = {body_id, body_mass, body_fd, body_fk, body_jac};
  for (size_t k = 0; body_f && k < sizeof protos / sizeof protos[0]; k++) {
    if (!(o->functions & (unsigned)protos[k].fn)) {
      continue;
    }
    const char *ptext = o->fixed_base ? protos[k].fixed : protos[k].floating;
    fputc('\n', body_f);
    put_proto(body_f, o, protos + k, " {\n");
    unused(body_f, ptext, o->fixed_base);
    body[k](&G, body_f);
    fputs("}\n", body_f);
  }
  int oom = !body_f || cli_memfile_close(body_f, &mf) != 0 || G.g.oom;
  if (!oom && G.g.vec) {
    put_vector(f, P);
  }
  if (!oom && G.g.sincos) {
    put_sincos(f, P);
  }
  if (!oom) {
    fwrite(mf.text, 1, mf.len, f);
  }
  free(mf.text);
  cg_free(&G.g);
  free(G.Q), free(G.cj), free(G.cpar), free(G.role);
  return oom || ferror(f) ? -1 : 0;
}
