/* schedule.c -- spart-codegen's order of a function's statements (schedule.h): a list
 * scheduler that keeps few values held at once, its ready items in a heap for each score. */
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "schedule.h"

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
int cg_item_values(const cg *g, int x, sx o[4]) {
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
  int no = cg_item_values(g, x, o), nd = 0;
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
int *cg_schedule(const cg *g, int *nseq) {
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
