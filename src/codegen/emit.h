/* emit.h -- spart-codegen's C text (emit.c): what a function's body and the file are written
 * with. */
#ifndef SPART_CODEGEN_EMIT_H
#define SPART_CODEGEN_EMIT_H

#include <stdio.h>

#include "graph.h"

/* the body of a function: the nodes its outputs need and the outputs, in cg_schedule's order,
   in pairs where g->pairs (cg_pair); g->sincos and g->vec set when it calls the file's sine
   and cosine or uses the pair type */
void cg_write(cg *g, FILE *f);

/* the file's sine and cosine of one angle, P_sincos, and the pointer P_sincos_call the
   functions call it through */
void cg_put_sincos(FILE *f, const char *P);

/* the pair of doubles P_v2 and its operations (P_V2, P_L, P_VADD, ...) */
void cg_put_vector(FILE *f, const char *P);

/* the model's name as the file's first comment may hold it */
void cg_put_name(FILE *f, const char *name);

#endif
