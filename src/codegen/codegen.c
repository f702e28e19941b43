/* codegen.c -- spart-codegen's file (codegen.h): which models are generated, and the file for
 * one: its functions, each from its arguments (the graph's inputs) through the passes on
 * symbols (passes.h: lib/'s algorithms) to its outputs, their statements written by emit.c; or,
 * with --header, their declarations.  The model's numbers come from the library (the joint
 * constants jc of spart_joint_constants, the degrees of freedom's axes and screws of
 * spart_joint_setup, the links on fixed joints merged by spart_merge_fixed); this folder only
 * writes text. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "codegen.h"
#include "emit.h"
#include "graph.h"
#include "pair.h"
#include "passes.h"
#include "spart_internal.h"

const char *codegen_refuse(const spart_model *m) {
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


/* the inputs of an argument array, or n zeros when arr is NULL; those of a joint array
   (joint: one entry a degree of freedom) stand for their degree of freedom's role */
static void inputs_of(gen *G, sx *x, const char *arr, int n, int joint) {
  for (int k = 0; k < n; k++) {
    x[k] = arr ? cg_in(&G->g, arr, k) : ZERO;
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


/* a function's first inputs: the graph emptied, R0 the base's orientation (the identity for a
   fixed base) */
static void begin(gen *G, sx R0[9]) {
  cg_reset(&G->g);
  if (G->fixed) {
    identity(R0);
  } else {
    inputs(G, R0, "R0", 9);
  }
}


/* the joints' coordinates q (nq): q, or the floating base's qm */
static void coords(gen *G, sx *q) {
  joint_inputs(G, q, G->fixed ? "q" : "qm", G->m->nq);
}


/* a vector of the state (6 + nv): the base's six, base (zeros for a fixed base), then the
   joints', fixed or floating */
static void state_inputs(gen *G, sx *x, const char *base, const char *fixed,
                         const char *floating) {
  inputs(G, x, G->fixed ? NULL : base, 6);
  joint_inputs(G, x + 6, G->fixed ? fixed : floating, G->m->nv);
}


typedef struct proto {
  int fn;
  const char *fixed, *floating;
} proto;

static const proto protos[] = {
    {CODEGEN_ID, "id(const double *q, const double *v, const double *a, const double *g, "
                "double *tau)",
     "id(const double *R0, const double *qm, const double *u0, const double *um, "
     "const double *u0dot, const double *umdot, const double *g, double *tau0, double *taum)"},
    {CODEGEN_MASS, "mass(const double *q, double *H)", "mass(const double *R0, const double *qm, "
                                                      "double *H)"},
    {CODEGEN_FD, "fd(const double *q, const double *v, const double *tau, const double *g, "
                "double *a)",
     "fd(const double *R0, const double *qm, const double *u0, const double *um, "
     "const double *tau0, const double *taum, const double *g, double *u0dot, double *umdot)"},
    {CODEGEN_FK, "fk(const double *q, double *T)", "fk(const double *R0, const double *r0, "
                                                  "const double *qm, double *T)"},
    {CODEGEN_JAC, "jac(const double *q, double *J)",
     "jac(const double *R0, const double *r0, const double *qm, double *J0, double *Jm)"},
};


static void put_proto(FILE *f, const codegen_opts *o, const proto *p, const char *end) {
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
  begin(G, R0);
  coords(G, q);
  state_inputs(G, v, "u0", "v", "um");
  state_inputs(G, a, "u0dot", "a", "umdot");
  inputs(G, g3, "g", 3);
  cg_rnea(G, R0, q, v, a, g3, tau);
  sx *frv = calloc((size_t)m->nv + 1, sizeof(sx));
  if (!frv) {
    G->g.oom = 1;
    free(x);
    return;
  }
  cg_friction(G, v + 6, frv);
  if (!fixed) {
    for (int k = 0; k < 6; k++) {
      cg_output(&G->g, "tau0", k, tau[k]);
    }
  }
  for (int j = 0; j < m->nv; j++) {
    cg_output(&G->g, fixed ? "tau" : "taum", j, cg_add(&G->g, tau[6 + j], frv[j]));
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
  begin(G, R0);
  coords(G, q);
  cg_crba(G, R0, q, H);
  for (int r = lo; r < n; r++) {
    for (int c = lo; c < n; c++) {
      cg_output(&G->g, "H", (r - lo) * nn + c - lo, H[r * n + c]);
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
  begin(G, R0);
  coords(G, q);
  state_inputs(G, v, "u0", "v", "um");
  state_inputs(G, tau, "tau0", "tau", "taum");
  inputs(G, zero, NULL, n);
  inputs(G, g3, "g", 3);
  /* H udot = tau - friction - c, c the forces at udot = 0 (spart_rnea), H by spart_crba, solved
     with the base's linear rows and columns in its own frame: T' H T z = T' (tau - c),
     udot = T z, T = diag(1, R0, 1) (a rotation: the same solution), which the passes make with R0
     the identity and gravity in the base's frame, R0 then only at the base's force and
     acceleration (rnea's tau0 = [n; R0 f], crba's base rows R0 F, made and turned back, are not
     made) */
  identity(I3);
  cg_mulmtv(&G->g, gb, R0, g3);
  cg_rnea(G, I3, q, v, zero, gb, bias);
  cg_mulmtv(&G->g, tau + 3, R0, tau + 3);
  cg_friction(G, v + 6, b + 6);
  for (int k = 0; k < 6; k++) {
    b[k] = cg_sub(&G->g, tau[k], bias[k]);
  }
  for (int j = 0; j < m->nv; j++) {
    b[6 + j] = cg_sub(&G->g, cg_sub(&G->g, tau[6 + j], b[6 + j]), bias[6 + j]);
  }
  cg_crba(G, I3, q, H);
  cg_dof_parents(m, fixed, lam);
  if (cg_ltdl_solve(&G->g, H, n, lo, lam, b) != 0) {
    G->g.oom = 1;
  }
  cg_mulmv(&G->g, b + 3, R0, b + 3);
  if (!fixed) {
    for (int k = 0; k < 6; k++) {
      cg_output(&G->g, "u0dot", k, b[k]);
    }
  }
  for (int j = 0; j < m->nv; j++) {
    cg_output(&G->g, fixed ? "a" : "umdot", j, b[6 + j]);
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
  begin(G, R0);
  inputs(G, r0, fixed ? NULL : "r0", 3);
  coords(G, q);
  cg_fk(G, R0, r0, q, T);
  for (int k = 16; k < 16 * m->nb; k++) {
    cg_output(&G->g, "T", k - 16, T[k]);
  }
  cg_write(&G->g, f);
  free(x);
}


/* the links' CoM Jacobians, written in the order their columns are made: link by link, each
   column's six rows, then the base's columns */
static void body_jac(gen *G, FILE *f) {
  const spart_model *m = G->m;
  cg *g = &G->g;
  int fixed = G->fixed, nl = m->nb - 1, nv = m->nv;
  sx R0[9], r0[3], *x = calloc((size_t)(m->nq + 6 * nv * nl + 36 * nl + 1), sizeof(sx));
  if (!x) {
    g->oom = 1;
    return;
  }
  sx *q = x, *Jm = q + m->nq, *J0 = Jm + 6 * nv * nl;
  begin(G, R0);
  inputs(G, r0, fixed ? NULL : "r0", 3);
  coords(G, q);
  cg_jac(G, R0, r0, q, fixed ? NULL : J0, Jm);
  for (int i = 0; i < nl && !g->oom; i++) {
    for (int j = 0; j < nv; j++) {
      for (int r = 0; r < 6; r++) {
        int k = 6 * nv * i + r * nv + j;
        cg_output(g, fixed ? "J" : "Jm", k, Jm[k]);
      }
    }
    for (int c = 0; c < 3 && !fixed; c++) {
      for (int r = 0; r < 3; r++) {
        static const int at[4][2] = {{0, 0}, {0, 3}, {3, 0}, {3, 3}}; /* the 3 x 3 blocks */
        for (int b = 0; b < 4; b++) {
          int k = 36 * i + 6 * (at[b][0] + r) + at[b][1] + c;
          cg_output(g, "J0", k, J0[k]);
        }
      }
    }
  }
  cg_write(g, f);
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




int codegen_write(FILE *f, const spart_model *m, const spart_data *d, const codegen_opts *o) {
  const char *P = o->prefix;
  int nv = m->nv, n = o->fixed_base ? nv : 6 + nv;
  fprintf(f, "/* %s -- the dynamics of the robot '", o->header ? "declarations" : "source");
  cg_put_name(f, m->name ? m->name : "");
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
      (G.g.pairs = cg_branch_roles(m, G.role)) < 0) {
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
    cg_put_vector(f, P);
  }
  if (!oom && G.g.sincos) {
    cg_put_sincos(f, P);
  }
  if (!oom) {
    fwrite(mf.text, 1, mf.len, f);
  }
  free(mf.text);
  cg_free(&G.g);
  free(G.Q), free(G.cj), free(G.cpar), free(G.role);
  return oom || ferror(f) ? -1 : 0;
}
