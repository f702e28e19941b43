/* summary.c -- the human-readable summary of a model (urdf2robot, dh2robot -o summary): its
 * tree, masses, notes, warnings */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* a string that grows, for the summary */
typedef struct sbuf {
  char *s;
  size_t len, cap;
  int oom;
} sbuf;


static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));


static void sb_printf(sbuf *b, const char *fmt, ...) {
  va_list ap;
  int n;
  if (b->oom) {
    return;
  }
  va_start(ap, fmt);
  n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
  va_end(ap);
  if (n < 0) {
    b->oom = 1;
    return;
  }
  if (!b->s || b->len + (size_t)n >= b->cap) {
    /* grow to at least twice the size, then print again */
    size_t cap = b->cap ? 2 * b->cap : 256;
    char *s;
    while (cap <= b->len + (size_t)n) {
      cap *= 2;
    }
    s = realloc(b->s, cap);
    if (!s) {
      b->oom = 1;
      return;
    }
    b->s = s;
    b->cap = cap;
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
  }
  b->len += (size_t)n;
}


/* s with control characters and '\' escaped as in C (\n, \t, \r, \\, \xNN): one line, and
   the same name always reads the same */
static void sb_name(sbuf *b, const char *s) {
  const char *run = s;
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c >= 0x20 && c != 0x7f && c != '\\') {
      continue;
    }
    sb_printf(b, "%.*s", (int)(s - run), run);
    if (c == '\n' || c == '\t' || c == '\r' || c == '\\') {
      sb_printf(b, "\\%c", c == '\n' ? 'n' : c == '\t' ? 't' : c == '\r' ? 'r' : '\\');
    } else {
      sb_printf(b, "\\x%02x", c);
    }
    run = s + 1;
  }
  sb_printf(b, "%s", run);
}


/* name, or kind ('L' or 'J') followed by i ("L3") in buf (n bytes) when name is NULL: the
   library's name for an unnamed link or joint */
static const char *name_or(char *buf, size_t n, const char *name, char kind, int i) {
  if (name) {
    return name;
  }
  snprintf(buf, n, "%c%d", kind, i);
  return buf;
}


/* "link 3 'name'" (kind 'L') or "joint 3 'name'" (kind 'J'), the name escaped */
static void sb_who(sbuf *b, const spart_model *m, char kind, int i) {
  char nm[32];
  const char *name = kind == 'L' ? m->body_name[i] : m->jnt_name[i];
  sb_printf(b, "%s %d '", kind == 'L' ? "link" : "joint", i);
  sb_name(b, name_or(nm, sizeof nm, name, kind, i));
  sb_printf(b, "'");
}


/* the inertia warnings of link i */
static void inertia_warnings(sbuf *b, const spart_model *m, int i) {
  double ev[3], tol;
  spart_principal_inertias(m, i, ev);
  tol = 1e-6 * (fabs(ev[0]) + fabs(ev[1]) + fabs(ev[2]));
  if (ev[0] < -tol) {
    sb_printf(b, "warning: ");
    sb_who(b, m, 'L', i);
    sb_printf(b, ": inertia is not positive semi-definite (principal inertias %g %g %g)\n",
              ev[0], ev[1], ev[2]);
  } else if (ev[0] + ev[1] < ev[2] - tol) {
    sb_printf(b, "warning: ");
    sb_who(b, m, 'L', i);
    sb_printf(b, ": principal inertias %g %g %g violate the triangle inequality\n", ev[0], ev[1],
              ev[2]);
  }
}


/* the tree line of link i and the joint that leads to it */
static void tree_line(sbuf *b, const spart_model *m, int i, int depth) {
  char nm[32];
  sb_printf(b, "%*s", 2 * (depth < 32 ? depth : 32), "");
  if (depth > 32) {
    sb_printf(b, "[depth %d] ", depth);
  }
  sb_printf(b, "%d ", i);
  sb_name(b, name_or(nm, sizeof nm, m->body_name[i], 'L', i));
  sb_printf(b, "  mass %g", m->body_mass[i]);
  if (i > 0) {
    sb_printf(b, "  <- joint %d ", i);
    sb_name(b, name_or(nm, sizeof nm, m->jnt_name[i], 'J', i));
    sb_printf(b, " %s", spart_joint_name(m->jnt_type[i]));
  }
  if (i > 0 && m->jnt_qadr[i] >= 0) {
    const double *a = m->jnt_axis + 3 * i, *f = m->jnt_friction + 2 * i;
    const double *r = m->jnt_range + 2 * i;
    int nq = m->jnt_nq[i], nv = m->jnt_nv[i], q = m->jnt_qadr[i] + 1, v = m->jnt_vadr[i] + 1;
    if (spart_joint_has_axis(m->jnt_type[i])) {
      sb_printf(b, " axis %g %g %g", a[0], a[1], a[2]);
    }
    if (spart_joint_pitched(m->jnt_type[i])) {
      sb_printf(b, " pitch %g m/rev", m->jnt_pitch[i]);
    }
    /* a joint of several coordinates: its sizes and ranges; the v index when q's differs */
    if (nq > 1 || nv > 1) {
      sb_printf(b, " nq %d nv %d q %d..%d", nq, nv, q, q + nq - 1);
    } else {
      sb_printf(b, " q %d", q);
    }
    if (m->nq != m->nv || nq > 1 || nv > 1) {
      sb_printf(b, nv > 1 ? " v %d..%d" : " v %d", v, v + nv - 1);
    }
    if (m->jnt_limited[i]) {
      sb_printf(b, " limits %g %g", r[0], r[1]);
    }
    if (m->jnt_effort[i] != 0) {
      sb_printf(b, " effort %g", m->jnt_effort[i]);
    }
    if (m->jnt_velocity[i] != 0) {
      sb_printf(b, " velocity %g", m->jnt_velocity[i]);
    }
    if (m->jnt_armature[i] != 0) {
      sb_printf(b, " armature %g", m->jnt_armature[i]);
    }
    if (m->jnt_damping[i] != 0) {
      sb_printf(b, " damping %g", m->jnt_damping[i]);
    }
    if (f[0] != 0 || f[1] != 0) {
      sb_printf(b, " friction %g %g", f[0], f[1]);
    }
  }
  if (i > 0 && m->jnt_mimic[i]) {
    sb_printf(b, " mimics ");
    sb_name(b, m->jnt_mimic[i]);
  }
  sb_printf(b, "\n");
}



/* the shapes, one line each (none for a model without), then the links automass gave their
   mass properties */
static void shapes_lines(sbuf *b, const spart_model *m) {
  static const char *const state[] = {"", "read", "not found, kept as a reference",
                                      ("not read (a format Assimp does not know), kept as a "
                                       "reference")};
  int missing = 0;
  for (int s = 0; s < m->nshape; s++) {
    const double *z = m->shape_size + 3 * s, *p = m->shape_pos + 3 * s;
    const int kind = m->shape_kind[s];
    if (kind == SPART_SHAPE_MESH && m->shape_mesh[s] == SPART_MESH_MISSING) {
      missing++; /* one line for them all, below */
      continue;
    }
    sb_printf(b, "shape: ");
    sb_who(b, m, 'L', m->shape_body[s]);
    sb_printf(b, " %s %s",
              m->shape_role[s] == SPART_SHAPE_COLLISION ? "collision" : "visual",
              spart_shape_kind_name(kind));
    if (m->shape_name[s]) {
      sb_printf(b, " '");
      sb_name(b, m->shape_name[s]);
      sb_printf(b, "'");
    }
    if (kind == SPART_SHAPE_BOX) {
      sb_printf(b, " %g x %g x %g", z[0], z[1], z[2]);
    } else if (kind == SPART_SHAPE_SPHERE) {
      sb_printf(b, " radius %g", z[0]);
    } else if (kind != SPART_SHAPE_MESH) {
      sb_printf(b, " radius %g length %g", z[0], z[1]);
    } else {
      sb_printf(b, " '");
      sb_name(b, m->shape_file[s]);
      sb_printf(b, "'");
      if (z[0] != 1 || z[1] != 1 || z[2] != 1) {
        sb_printf(b, " scale %g %g %g", z[0], z[1], z[2]);
      }
    }
    sb_printf(b, " at (%g, %g, %g)", p[0], p[1], p[2]);
    sb_printf(b, "%s%s\n", kind == SPART_SHAPE_MESH ? ": " : "", state[m->shape_mesh[s]]);
  }
  if (missing) {
    char *line = cli_missing_meshes(m, "kept as a reference");
    sb_printf(b, "warning: %s\n", line ? line : "meshes not found");
    free(line);
  }
  for (int i = 0; m->body_automass && i < m->nb; i++) {
    if (m->body_automass[i]) {
      const double *c = m->body_pos + 3 * i;
      sb_printf(b, "automass: ");
      sb_who(b, m, 'L', i);
      sb_printf(b, " mass %g, CoM (%g, %g, %g) from its collision shapes\n", m->body_mass[i],
                c[0], c[1], c[2]);
    }
  }
}

/* 1 when shape s is a mesh not found whose file no shape before it names */
static int first_missing(const spart_model *m, int s) {
  if (m->shape_kind[s] != SPART_SHAPE_MESH || m->shape_mesh[s] != SPART_MESH_MISSING) {
    return 0;
  }
  for (int k = 0; k < s; k++) {
    if (m->shape_mesh[k] == SPART_MESH_MISSING &&
        strcmp(m->shape_file[k], m->shape_file[s]) == 0) {
      return 0;
    }
  }
  return 1;
}


char *cli_missing_meshes(const spart_model *m, const char *fate) {
  sbuf b = {0};
  int n = 0, files = 0, listed = 0;
  for (int s = 0; s < m->nshape; s++) {
    n += m->shape_kind[s] == SPART_SHAPE_MESH && m->shape_mesh[s] == SPART_MESH_MISSING;
    files += first_missing(m, s);
  }
  if (n == 0) {
    return NULL;
  }
  const int ref = strcmp(fate, "kept as a reference") == 0;
  sb_printf(&b, "%d mesh file%s not found (%d shape%s %s): ", files, files > 1 ? "s" : "", n,
            n > 1 ? "s" : "", ref && n > 1 ? "kept as references" : fate);
  for (int s = 0; s < m->nshape; s++) {
    if (first_missing(m, s) && listed++ < CLI_MISSING_LISTED) {
      sb_printf(&b, "%s'", listed > 1 ? ", " : "");
      sb_name(&b, m->shape_file[s]);
      sb_printf(&b, "'");
    }
  }
  if (files > CLI_MISSING_LISTED) {
    sb_printf(&b, " and %d more", files - CLI_MISSING_LISTED);
  }
  /* where: urdf2robot's option, else the environment every command reads */
  sb_printf(&b, "; %s (package://) or the URDF's directory (a relative name)",
            ref ? "--package-path DIR" : "ROS_PACKAGE_PATH=DIR");
  if (b.oom) {
    free(b.s);
    return NULL;
  }
  return b.s;
}


char *cli_model_summary(const spart_model *m) {
  int *depth = calloc((size_t)m->nb, sizeof *depth);
  int *inert = malloc((size_t)m->nb * sizeof *inert);
  double *carried = malloc((size_t)m->nb * sizeof *carried);
  sbuf b = {0};
  double total = 0;

  if (!depth || !inert || !carried) {
    free(depth);
    free(inert);
    free(carried);
    return NULL;
  }

  /* the tree: ids are depth-first, so id order indented by depth draws it */
  sb_printf(&b, "robot '");
  sb_name(&b, m->name ? m->name : "");
  sb_printf(&b, "'\n");
  for (int i = 0; i < m->nb; i++) {
    depth[i] = i > 0 ? depth[m->body_parent[i]] + 1 : 0;
    total += m->body_mass[i];
    tree_line(&b, m, i, depth[i]);
  }
  sb_printf(&b, "total mass %g\nn_q %d\n", total, m->nq);
  if (m->nv != m->nq) {
    sb_printf(&b, "n_v %d\n", m->nv);
  }
  sb_printf(&b, "n_links_joints %d\n", m->nb - 1);
  /* how the commands read it: the base mode and the gravity the model keeps */
  sb_printf(&b, "base: %s\n", m->fixed_base ? "fixed to the world (read as with --fixed-base)"
                                             : "floating (--fixed-base to hold it)");
  if (m->has_gravity) {
    sb_printf(&b, "gravity %g %g %g (used unless --gravity is given)\n", m->gravity[0],
              m->gravity[1], m->gravity[2]);
  } else {
    sb_printf(&b, "gravity: none (give --gravity)\n");
  }

  /* what each link carries, itself included: mass, and whether any inertia is not zero (a
     massless flywheel on a revolute joint) */
  spart_carried(m, carried, inert);

  /* joints that mimic others: coupled (--mimic, the follower no coordinate) or free */
  for (int i = 1; i < m->nb; i++) {
    if (m->jnt_mimic[i]) {
      sb_printf(&b, "mimic: ");
      sb_who(&b, m, 'J', i);
      sb_printf(&b, " follows joint '");
      sb_name(&b, m->jnt_mimic[i]);
      sb_printf(&b, "' (%g x + %g), %s\n", m->jnt_mimic_k[2 * i], m->jnt_mimic_k[2 * i + 1],
                m->coupled ? "coupled: not a coordinate" : "free without --mimic");
    }
  }
  if (m->coupled) {
    sb_printf(&b, "coupled n_q %d, n_v %d: the lengths of qm and um\n", m->nqc, m->nvc);
  }

  shapes_lines(&b, m);

  /* warnings: a moving joint that carries nothing (a singular mass matrix; a massless sensor or
     tool frame on a fixed joint is normal), odd inertias */
  if (total == 0) {
    sb_printf(&b, "warning: every link is massless\n");
  }
  for (int i = 0; i < m->nb; i++) {
    if (i > 0 && total != 0 && m->jnt_qadr[i] >= 0 && carried[i] == 0 &&
        (!spart_joint_rotates(m->jnt_type[i]) || !inert[i])) {
      sb_printf(&b, "warning: ");
      sb_who(&b, m, 'L', i);
      sb_printf(&b, " is massless and moves: ");
      sb_who(&b, m, 'J', i);
      sb_printf(&b, " carries no mass%s\n",
                spart_joint_rotates(m->jnt_type[i]) ? " and no inertia" : "");
    }
    inertia_warnings(&b, m, i);
  }
  free(depth);
  free(inert);
  free(carried);
  if (b.oom) {
    free(b.s);
    return NULL;
  }
  return b.s;
}
