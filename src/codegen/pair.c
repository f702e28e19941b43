/* pair.c -- spart-codegen's pairs (pair.h): two branches of the tree of one shape (two arms on a
 * base, a quadruped's legs) make the same expressions on other numbers.  Each two such nodes are
 * one statement on a pair of doubles, the older in lane 0 (an SSE2 instruction for two: the
 * code, whose speed follows its size, halves where the branches are alike).  SLP vectorisation,
 * done here where the branches are known: the degrees of freedom of the second branch take the
 * roles of the first's (cg_branch_roles), and a node is paired with an older one of its shape
 * whose operands match its own (cg_pair). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "pair.h"


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
static void node_sigs(const cg *g, uint64_t *sig) {
  for (int x = 0; x < g->nn; x++) {
    const node *n = g->n + x;
    if (n->op == N_IN) {
      sig[x] = cg_mix(cg_mix(0x1F, text_hash(n->arr)), (uint64_t)n->role);
      continue;
    }
    uint64_t a = n->a.id < 0 ? 0xC057 : sig[n->a.id], b = n->b.id < 0 ? 0xC057 : sig[n->b.id];
    if ((n->op == N_ADD || n->op == N_MUL) && a > b) {
      uint64_t t = a;
      a = b;
      b = t;
    }
    sig[x] = cg_mix(cg_mix(cg_mix(0x2F, (uint64_t)n->op), a), b);
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
void cg_operands(const node *y, int sw, sx o[2]) {
  o[0] = sw ? y->b : y->a;
  o[1] = sw ? y->a : y->b;
}


/* how well y pairs with x (its operands b a when sw): the links' sum, equal constants above
   others; -1 when they cannot pair */
static int pair_score(const cg *g, const uint64_t *sig, int x, int y, int sw) {
  const node *nx = g->n + x;
  sx o[2];
  cg_operands(g->n + y, sw, o);
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
  cg_operands(g->n + y, g->swp[y], o);
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
      cg_operands(n, g->swp[y], o);
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
int cg_pair(cg *g) {
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
  node_sigs(g, sig);
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


/* ---------------------------------------------------------------------------------------------
 * the branches: which degrees of freedom of the model stand for which (the inputs' roles)
 */

/* a subtree's shape: its root's joint kind and degrees of freedom, then its children's shapes
   in order */
static uint64_t shape(const spart_model *m, int i) {
  uint64_t h = cg_mix(cg_mix(0x3F, (uint64_t)m->jnt_type[i]), (uint64_t)m->jnt_nv[i]);
  for (int c = i + 1; c < m->nb; c++) {
    if (m->body_parent[c] == i) {
      h = cg_mix(h, shape(m, c));
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
int cg_branch_roles(const spart_model *m, int *role) {
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
