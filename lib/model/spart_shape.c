/* spart_shape.c -- the links' shapes in the model: their arrays, kinds and checks, their bounding
 * boxes (a primitive's, a mesh's), the shapes of a link (where they are at a state:
 * spart_shape_pose.c, above the kinematics) */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_internal.h"

/* doubles per shape: rot 9, pos 3, size 3, bound 6; ints: body, kind, role, mesh; names 2 */
#define SDOUBLE 21
#define SINT 4
#define SNAME 2

/* rotations must be orthonormal to this tolerance (as the model's) */

static const char *const kind_name[SPART_SHAPE_KINDS] = {"box", "cylinder", "sphere", "capsule",
                                                         "mesh"};


const char *spart_shape_kind_name(int kind) {
  return kind >= 0 && kind < SPART_SHAPE_KINDS ? kind_name[kind] : NULL;
}


int spart_shape_kind_of(const char *name) {
  for (int k = 0; k < SPART_SHAPE_KINDS; k++) {
    if (strcmp(name, kind_name[k]) == 0) {
      return k;
    }
  }
  return -1;
}


/* free the shapes' names and arrays, none left */
void spart_shapes_free(spart_model *m) {
  for (int s = 0; s < m->nshape; s++) {
    free(m->shape_name[s]);
    free(m->shape_file[s]);
  }
  free(m->shape_buf_);
  free(m->shape_hull);
  free(m->hull_vert);
  free(m->mesh_vert);
  free(m->mesh_tri);
  m->shape_buf_ = NULL;
  m->shape_hull = m->shape_vert = m->shape_tri = m->mesh_tri = NULL;
  m->hull_vert = m->mesh_vert = NULL;
  m->nshape = 0;
  m->shape_body = m->shape_kind = m->shape_role = m->shape_mesh = NULL;
  m->shape_rot = m->shape_pos = m->shape_size = m->shape_bound = NULL;
  m->shape_name = m->shape_file = NULL;
}


int spart_model_shapes(spart_model *m, int nshape) {
  size_t n = (size_t)nshape;
  double *d;
  char **p;
  int *k;

  spart_shapes_free(m);
  if (nshape <= 0) {
    return 0;
  }
  if (n > SIZE_MAX / 1024 ||
      !(m->shape_buf_ = calloc(n, SDOUBLE * sizeof(double) + SNAME * sizeof(char *) +
                                      SINT * sizeof(int)))) {
    return -SPART_ENOMEM;
  }
  if (!(m->shape_hull = calloc(3 * (n + 1), sizeof(int)))) {
    free(m->shape_buf_);
    m->shape_buf_ = NULL;
    return -SPART_ENOMEM;
  }
  m->shape_vert = m->shape_hull + n + 1;
  m->shape_tri = m->shape_hull + 2 * (n + 1);
  d = m->shape_buf_;
  m->shape_rot = d;
  m->shape_pos = d + 9 * n;
  m->shape_size = d + 12 * n;
  m->shape_bound = d + 15 * n;
  p = (char **)(d + SDOUBLE * n);
  m->shape_name = p;
  m->shape_file = p + n;
  k = (int *)(p + SNAME * n);
  m->shape_body = k;
  m->shape_kind = k + n;
  m->shape_role = k + 2 * n;
  m->shape_mesh = k + 3 * n;
  for (size_t s = 0; s < n; s++) {
    m->shape_name[s] = m->shape_file[s] = NULL;
    for (int c = 0; c < 9; c += 4) {
      m->shape_rot[9 * s + c] = 1;
    }
  }
  m->nshape = nshape;
  return 0;
}


void spart_shape_box(int kind, const double size[3], double bound[6]) {
  double h[3] = {0, 0, 0};
  if (kind == SPART_SHAPE_BOX) {
    h[0] = size[0] / 2;
    h[1] = size[1] / 2;
    h[2] = size[2] / 2;
  } else if (kind == SPART_SHAPE_CYLINDER || kind == SPART_SHAPE_CAPSULE) {
    h[0] = h[1] = size[0];
    h[2] = size[1] / 2 + (kind == SPART_SHAPE_CAPSULE ? size[0] : 0);
  } else if (kind == SPART_SHAPE_SPHERE) {
    h[0] = h[1] = h[2] = size[0];
  }
  for (int c = 0; c < 3; c++) {
    bound[c] = -h[c];
    bound[3 + c] = h[c];
  }
}


void spart_mesh_box(const spart_mesh *mesh, const double scale[3], double bound[6]) {
  for (int v = 0; v < mesh->nvert; v++) {
    for (int c = 0; c < 3; c++) {
      double x = scale[c] * mesh->vert[3 * v + c];
      if (v == 0 || x < bound[c]) {
        bound[c] = x;
      }
      if (v == 0 || x > bound[3 + c]) {
        bound[3 + c] = x;
      }
    }
  }
}


/* rows (cols doubles or ints each) appended to *arr, whose rows so far are at[nshape]; shape s's
   and the later shapes' starts at[] moved; 0 or -1 out of memory */
static int append(void **arr, int *at, int nshape, int s, const void *rows, int n, size_t row) {
  size_t have = (size_t)at[nshape];
  char *a = realloc(*arr, (have + (size_t)n) * row + 1);
  if (!a) {
    return -1;
  }
  memcpy(a + have * row, rows, (size_t)n * row);
  *arr = a;
  for (int k = s + 1; k <= nshape; k++) {
    at[k] = (int)have + n;
  }
  return 0;
}


int spart_shape_mesh_set(spart_model *m, int s, const double *vert, int nvert, const int *tri,
                         int ntri, const double *hull, int nhull) {
  void *v = m->mesh_vert, *t = m->mesh_tri, *h = m->hull_vert;
  int rc = append(&v, m->shape_vert, m->nshape, s, vert, nvert, 3 * sizeof *vert);
  m->mesh_vert = v;
  rc = rc ? rc : append(&t, m->shape_tri, m->nshape, s, tri, ntri, 3 * sizeof *tri);
  m->mesh_tri = t;
  rc = rc ? rc : append(&h, m->shape_hull, m->nshape, s, hull, nhull, 3 * sizeof *hull);
  m->hull_vert = h;
  return rc ? -SPART_ENOMEM : 0;
}


int spart_shape_mesh_put(spart_model *m, int s, const spart_mesh *mesh) {
  const double *z = m->shape_size + 3 * s;
  const int mirror = z[0] * z[1] * z[2] < 0;
  double *v = malloc(((size_t)mesh->nvert * 6 + 1) * sizeof *v), *h = v + 3 * mesh->nvert;
  int *t = malloc(((size_t)mesh->ntri * 3 + (size_t)mesh->nvert + 1) * sizeof *t);
  int *idx = t + 3 * mesh->ntri, nh = v && t ? 0 : -SPART_ENOMEM, rc;
  for (int k = 0; k < 3 * mesh->nvert && !nh; k++) {
    v[k] = z[k % 3] * mesh->vert[k];
  }
  for (int k = 0; k < mesh->ntri && !nh; k++) { /* a mirror's triangles turned back */
    t[3 * k] = mesh->tri[3 * k];
    t[3 * k + 1] = mesh->tri[3 * k + (mirror ? 2 : 1)];
    t[3 * k + 2] = mesh->tri[3 * k + (mirror ? 1 : 2)];
  }
  nh = nh ? nh : spart_hull(v, mesh->nvert, idx);
  for (int k = 0; k < nh; k++) {
    memcpy(h + 3 * k, v + 3 * idx[k], 3 * sizeof *h);
  }
  rc = nh < 0 ? nh : spart_shape_mesh_set(m, s, v, mesh->nvert, t, mesh->ntri, h, nh);
  free(v);
  free(t);
  return rc;
}


int spart_shape_mesh(const spart_model *m, int s, const double **vert, int *nvert,
                     const int **tri) {
  int ntri = m->shape_tri[s + 1] - m->shape_tri[s];
  *nvert = m->shape_vert[s + 1] - m->shape_vert[s];
  *vert = *nvert ? m->mesh_vert + 3 * (size_t)m->shape_vert[s] : NULL;
  *tri = ntri ? m->mesh_tri + 3 * (size_t)m->shape_tri[s] : NULL;
  return ntri;
}


int spart_shape_hull(const spart_model *m, int s, const double **pts) {
  int n = m->shape_hull[s + 1] - m->shape_hull[s];
  *pts = n ? m->hull_vert + 3 * (size_t)m->shape_hull[s] : NULL;
  return n;
}


int spart_shape_point(const spart_model *m, int s) {
  return m->shape_kind[s] == SPART_SHAPE_SPHERE && m->shape_size[3 * s] == 0;
}


int spart_shapes_check(spart_model *m, spart_err *err) {
  for (int s = 0; s < m->nshape; s++) {
    const int b = m->shape_body[s], kind = m->shape_kind[s];
    const double *sz = m->shape_size + 3 * s;
    double *v = m->shape_rot + 9 * s;
    if (b < 0 || b >= m->nb || (s > 0 && b < m->shape_body[s - 1])) {
      return spart_err_set(err, SPART_EDATA, 0, "shapes[%d].link: expected a link from %d to "
                           "%d, in order, got %d", s, s > 0 ? m->shape_body[s - 1] : 0,
                           m->nb - 1, b);
    }
    if (kind < 0 || kind >= SPART_SHAPE_KINDS) {
      return spart_err_set(err, SPART_EDATA, 0, "shapes[%d]: unknown kind %d", s, kind);
    }
    if (m->shape_role[s] != SPART_SHAPE_COLLISION && m->shape_role[s] != SPART_SHAPE_VISUAL) {
      return spart_err_set(err, SPART_EDATA, 0, "shapes[%d]: unknown role %d", s,
                           m->shape_role[s]);
    }
    if ((kind == SPART_SHAPE_MESH) != (m->shape_file[s] != NULL) ||
        (kind == SPART_SHAPE_MESH) != (m->shape_mesh[s] != SPART_MESH_NONE)) {
      return spart_err_set(err, SPART_EDATA, 0, "shapes[%d]: a mesh and only a mesh has a file",
                           s);
    }
    for (int k = 0; k < SDOUBLE; k++) {
      double *x = k < 9 ? v + k : k < 12 ? m->shape_pos + 3 * s + k - 9
                        : k < 15 ? m->shape_size + 3 * s + k - 12
                                 : m->shape_bound + 6 * s + k - 15;
      if (!isfinite(*x)) {
        return spart_err_set(err, SPART_EDATA, 0, "shapes[%d]: a number is not finite", s);
      }
      *x = *x == 0 ? 0 : *x; /* -0 becomes 0, as the model's */
    }
    if (!spart_is_rotation(v)) {
      return spart_err_set(err, SPART_EDATA, 0, "shapes[%d]: T does not hold a rotation matrix",
                           s);
    }
    /* sizes: positive where the kind has them, 0 where not; a mesh's scale not 0; a capsule's
       length and a sphere's radius (a point) may be 0 */
    for (int c = 0; c < 3; c++) {
      int used = kind == SPART_SHAPE_BOX || kind == SPART_SHAPE_MESH ||
                 ((kind == SPART_SHAPE_CYLINDER || kind == SPART_SHAPE_CAPSULE) && c < 2) ||
                 (kind == SPART_SHAPE_SPHERE && c == 0);
      int zero = (kind == SPART_SHAPE_CAPSULE && c == 1) || kind == SPART_SHAPE_SPHERE;
      int bad = !used                   ? sz[c] != 0
                : kind == SPART_SHAPE_MESH ? sz[c] == 0
                : zero                     ? sz[c] < 0
                                           : !(sz[c] > 0);
      if (bad) {
        return spart_err_set(err, SPART_EDATA, 0, "shapes[%d]: %s size %g: expected %s", s,
                             kind_name[kind], sz[c],
                             !used ? "0 (not used by the kind)"
                             : kind == SPART_SHAPE_MESH   ? "a scale that is not 0"
                             : kind == SPART_SHAPE_SPHERE ? "a size >= 0 (0 is a point)"
                                                          : "a positive size");
      }
    }
  }
  return 0;
}


int spart_link_shapes(const spart_model *m, int i, int roles, int *idx, int most) {
  int n = 0;
  for (int s = 0; s < m->nshape; s++) {
    if (m->shape_body[s] == i && (m->shape_role[s] & roles)) {
      if (n < most) {
        idx[n] = s;
      }
      n++;
    }
  }
  return n;
}
