/* emit.c -- spart-codegen's C text (emit.h): a function's statements, each node or pair one
 * line in cg_schedule's order, and the file's own text the functions call (sincos, the pair
 * type) or that names the model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "graph.h"
#include "pair.h"
#include "schedule.h"
#include "spart_text.h"

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
  cg_operands(g->n + y, g->swp[y], o);
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
  int no = cg_item_values(g, x, o);
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
void cg_write(cg *g, FILE *f) {
  int nseq = 0, *seq = NULL;
  char *read = calloc((size_t)g->nn + 1, 1);
  for (int k = 0; k < g->no; k++) {
    cg_mark(g, g->o[k].v);
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
 * the file's own text: the functions' sine and cosine, the pair type, the model's name
 */

/* the file's sine and cosine of one angle: x = k pi/2 + r, |r| <= pi/4, pi/2 in three parts so
   that k times each is exact for |k| < 2^20, then the Taylor series of both to r^15 and r^16
   (the first term left out is below 7e-17 at pi/4), the quadrant by a table; libm's sin and cos
   beyond 1e5 and at 0 (-0 stays -0).  What spart's own joints compute (lib/base/spu_vec.c), in
   C99.  The functions call it through a volatile pointer, so that it is never inlined: Clang
   inlined it at every joint, and the larger code ran slower (2_iiwa_base's ID 35 KB, not 24 KB,
   and 10% slower). */
void cg_put_sincos(FILE *f, const char *P) {
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
void cg_put_vector(FILE *f, const char *P) {
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
void cg_put_name(FILE *f, const char *name) {
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
