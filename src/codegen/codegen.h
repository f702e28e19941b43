/* codegen.h -- spart-codegen's generator (src/codegen/README.md): a model's algorithms as C99
 * source specialised to it.  What src/spart-codegen.c calls; the rest of the folder is its own
 * (its files' headers are inside it). */
#ifndef SPART_CODEGEN_H
#define SPART_CODEGEN_H

#include <stdio.h>

#include "spart.h"

/* the functions a file may hold (codegen_opts.functions) */
enum { CODEGEN_ID = 1, CODEGEN_MASS = 2, CODEGEN_FD = 4, CODEGEN_FK = 8, CODEGEN_JAC = 16 };

typedef struct codegen_opts {
  const char *prefix;  /* the functions' names: PREFIX_id, ... */
  int header;          /* the declarations instead of the source */
  int fixed_base;      /* the fixed-base forms (q, v, a, tau) instead of the floating base's
                          (-1 in spart-codegen's options: neither given, the model's) */
  unsigned functions;  /* CODEGEN_* */
} codegen_opts;

/* Why the model cannot be generated (one line), or NULL when it can. */
const char *codegen_refuse(const spart_model *m);

/* The source (or with o->header the declarations) of o's functions for the model, d its data
   (the joint constants); 0, or -1 when out of memory or a write failed. */
int codegen_write(FILE *f, const spart_model *m, const spart_data *d, const codegen_opts *o);

#endif
