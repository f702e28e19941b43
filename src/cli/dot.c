/* dot.c -- the kinematic tree of a model as Graphviz (urdf2robot, dh2robot -o dot): links,
 * joints with kind and axis, masses */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"


/* s (or "L3", "J3" when it is NULL) inside a DOT string: quotes and backslashes escaped, control
   characters as \xNN */
static void dot_name(FILE *f, const char *s, char kind, int i) {
  if (!s) {
    fprintf(f, "%c%d", kind, i);
    return;
  }
  for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
    if (*c == '"' || *c == '\\') {
      fprintf(f, "\\%c", *c);
    } else if (*c < 0x20 || *c == 0x7f) {
      fprintf(f, "\\\\x%02x", *c);
    } else {
      fputc(*c, f);
    }
  }
}


char *cli_model_dot(const spart_model *m) {
  cli_memfile mf;
  FILE *f = cli_memfile_open(&mf);
  if (!f) {
    return NULL;
  }
  fputs("digraph \"", f);
  dot_name(f, m->name ? m->name : "robot", 0, 0);
  fputs("\" {\n  node [shape=box];\n", f);

  /* links: boxes with their masses */
  for (int i = 0; i < m->nb; i++) {
    fprintf(f, "  L%d [label=\"", i);
    dot_name(f, m->body_name[i], 'L', i);
    fprintf(f, "\\nlink %d, mass %g\"];\n", i, m->body_mass[i]);
  }

  /* joints: ellipses with kind, axis and coordinate, between parent and child link */
  for (int i = 1; i < m->nb; i++) {
    const double *a = m->jnt_axis + 3 * i;
    fprintf(f, "  J%d [shape=ellipse%s, label=\"", i, m->jnt_qadr[i] < 0 ? ", style=dashed" : "");
    dot_name(f, m->jnt_name[i], 'J', i);
    fprintf(f, "\\n%s", spart_joint_name(m->jnt_type[i]));
    if (m->jnt_qadr[i] >= 0) {
      int nq = m->jnt_nq[i], nv = m->jnt_nv[i], q = m->jnt_qadr[i] + 1, v = m->jnt_vadr[i] + 1;
      fputs("\\n", f);
      if (spart_joint_has_axis(m->jnt_type[i])) {
        fprintf(f, "axis %g %g %g, ", a[0], a[1], a[2]);
      }
      if (nq > 1 || nv > 1) { /* several coordinates: their ranges in q and v (as --summary) */
        fprintf(f, "q %d..%d, v %d..%d", q, q + nq - 1, v, v + nv - 1);
      } else if (m->nq != m->nv) { /* the v index when q's differs */
        fprintf(f, "q %d, v %d", q, v);
      } else {
        fprintf(f, "q %d", q);
      }
    }
    fprintf(f, "\"];\n  L%d -> J%d;\n  J%d -> L%d;\n", m->body_parent[i], i, i, i);
  }
  fputs("}\n", f);
  return cli_memfile_close(f, &mf) == 0 ? mf.text : NULL;
}
