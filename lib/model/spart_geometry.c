/* spart_geometry.c -- mass properties of shapes at uniform density (Klampt's automass): closed
 * forms for the primitives, the signed tetrahedra of a closed triangle mesh, and a link's
 * shapes put together by the parallel-axis theorem */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"

static const double PI = 3.14159265358979323846;


/* a directed edge of a triangle, sorted to pair each with its reverse */
typedef struct edge {
  int a, b;
} edge;



int spart_mesh_closed(const spart_mesh *mesh) {
  size_t n = 3 * (size_t)mesh->ntri;
  edge *e = malloc((n ? n : 1) * sizeof *e);
  int closed = 1;
  if (!e) {
    return -SPART_ENOMEM;
  }
  for (int t = 0; t < mesh->ntri; t++) {
    for (int k = 0; k < 3; k++) {
      e[3 * t + k].a = mesh->tri[3 * t + k];
      e[3 * t + k].b = mesh->tri[3 * t + (k + 1) % 3];
    }
  }
  qsort(e, n, sizeof *e, spart_edge_cmp);
  /* each directed edge once, and its reverse once */
  for (size_t k = 0; k < n && closed; k++) {
    edge r = {e[k].b, e[k].a};
    closed = (k + 1 == n || spart_edge_cmp(e + k, e + k + 1) != 0) && e[k].a != e[k].b &&
             bsearch(&r, e, n, sizeof *e, spart_edge_cmp) != NULL;
  }
  free(e);
  return closed;
}


int spart_mesh_volume(const spart_mesh *mesh, const double scale[3], double *vol, double c[3],
                      double I[6]) {
  /* sums over the tetrahedra (0, a, b, c) of each triangle: volume, first moment and the
     second moments C = integral of x x' (Tonon; Eberly's polyhedral mass properties) */
  double V = 0, S[3] = {0, 0, 0}, C[9] = {0}, M[9];
  /* a scale of negative determinant (a mirrored mesh: a left part from a right one) reverses
     every triangle's winding: its tetrahedra's signs turned back */
  const double sign = scale[0] * scale[1] * scale[2] < 0 ? -1 : 1;
  for (int t = 0; t < mesh->ntri; t++) {
    double p[3][3], cr[3], sum[3], det;
    for (int k = 0; k < 3; k++) {
      for (int j = 0; j < 3; j++) {
        p[k][j] = scale[j] * mesh->vert[3 * mesh->tri[3 * t + k] + j];
      }
    }
    spu_cross(cr, p[1], p[2]);
    det = sign * spu_dot3(p[0], cr); /* 6 times the signed volume */
    for (int j = 0; j < 3; j++) {
      sum[j] = p[0][j] + p[1][j] + p[2][j];
    }
    V += det / 6;
    for (int j = 0; j < 3; j++) {
      S[j] += det / 24 * sum[j];
    }
    for (int r = 0; r < 3; r++) {
      for (int s = 0; s < 3; s++) {
        C[3 * r + s] += det / 120 * (p[0][r] * p[0][s] + p[1][r] * p[1][s] + p[2][r] * p[2][s] +
                                     sum[r] * sum[s]);
      }
    }
  }
  if (!(V > 0)) {
    return -SPART_EDATA; /* inside out, or flat */
  }
  for (int j = 0; j < 3; j++) {
    c[j] = S[j] / V;
  }
  /* the second moments about the centroid, then the inertia tensor tr(C) 1 - C */
  for (int r = 0; r < 3; r++) {
    for (int s = 0; s < 3; s++) {
      M[3 * r + s] = C[3 * r + s] - V * c[r] * c[s];
    }
  }
  I[0] = M[4] + M[8];
  I[1] = M[0] + M[8];
  I[2] = M[0] + M[4];
  I[3] = -M[1];
  I[4] = -M[2];
  I[5] = -M[5];
  *vol = V;
  return 0;
}


int spart_primitive_volume(int kind, const double size[3], double *vol, double c[3],
                           double I[6]) {
  const double a = size[0], b = size[1], h = size[1], r = size[0];
  double V;
  c[0] = c[1] = c[2] = 0;
  I[3] = I[4] = I[5] = 0;
  if (kind == SPART_SHAPE_BOX) {
    const double cz = size[2];
    V = a * b * cz;
    I[0] = V * (b * b + cz * cz) / 12;
    I[1] = V * (a * a + cz * cz) / 12;
    I[2] = V * (a * a + b * b) / 12;
  } else if (kind == SPART_SHAPE_CYLINDER) {
    V = PI * r * r * h;
    I[0] = I[1] = V * (3 * r * r + h * h) / 12;
    I[2] = V * r * r / 2;
  } else if (kind == SPART_SHAPE_SPHERE) {
    V = 4 * PI * r * r * r / 3;
    I[0] = I[1] = I[2] = 2 * V * r * r / 5;
  } else if (kind == SPART_SHAPE_CAPSULE) {
    /* the cylinder, and the two hemispheres (together a ball's mass), each at 3r/8 from the
       end of the cylinder it caps */
    const double mc = PI * r * r * h, ms = 4 * PI * r * r * r / 3;
    V = mc + ms;
    I[0] = I[1] = mc * (h * h / 12 + r * r / 4) + ms * (2 * r * r / 5 + h * h / 4 + 3 * h * r / 8);
    I[2] = mc * r * r / 2 + ms * 2 * r * r / 5;
  } else {
    return -SPART_EDATA;
  }
  *vol = V;
  return 0;
}


/* R I R' for I as xx yy zz xy xz yz */
static void rotate_inertia(const double R[9], const double I[6], double out[9]) {
  const double J[9] = {I[0], I[3], I[4], I[3], I[1], I[5], I[4], I[5], I[2]};
  double RJ[9];
  for (int r = 0; r < 3; r++) {
    for (int c = 0; c < 3; c++) {
      RJ[3 * r + c] = R[3 * r] * J[c] + R[3 * r + 1] * J[3 + c] + R[3 * r + 2] * J[6 + c];
    }
  }
  for (int r = 0; r < 3; r++) {
    for (int c = 0; c < 3; c++) {
      out[3 * r + c] = RJ[3 * r] * R[3 * c] + RJ[3 * r + 1] * R[3 * c + 1] +
                       RJ[3 * r + 2] * R[3 * c + 2];
    }
  }
}


int spart_automass(spart_model *m, int i, const spart_mesh *meshes, double mass,
                   double density, spart_err *err) {
  double V = 0, com[3] = {0, 0, 0}, J[9] = {0}, rho;
  int n = 0, points = 0;
  const char *link = m->body_name[i] ? m->body_name[i] : "?";

  /* each collision shape's volume, centroid and inertia (unit density) in the link frame */
  for (int pass = 0; pass < 2; pass++) {
    for (int s = 0; s < m->nshape; s++) {
      double v = 0, c[3] = {0, 0, 0}, I[6] = {0, 0, 0, 0, 0, 0}, x[3], IR[9];
      const double *R = m->shape_rot + 9 * s;
      if (m->shape_body[s] != i || m->shape_role[s] != SPART_SHAPE_COLLISION) {
        continue;
      }
      if (spart_shape_point(m, s)) { /* no volume: nothing to add */
        points += pass == 0;
        continue;
      }
      if (m->shape_kind[s] != SPART_SHAPE_MESH) {
        spart_primitive_volume(m->shape_kind[s], m->shape_size + 3 * s, &v, c, I);
      } else if (m->shape_mesh[s] != SPART_MESH_READ || !meshes || !meshes[s].ntri) {
        return spart_err_set(err, SPART_EDATA, 0, "link '%s': automass: mesh '%.200s' %s", link,
                             m->shape_file[s],
                             m->shape_mesh[s] == SPART_MESH_MISSING
                                 ? "was not found" : "is not of a format that is read");
      } else {
        int closed = spart_mesh_closed(meshes + s);
        if (closed < 0) {
          return spart_err_set(err, SPART_ENOMEM, 0, "out of memory");
        }
        if (!closed) {
          return spart_err_set(err, SPART_EDATA, 0, "link '%s': automass: mesh '%.200s' is not "
                               "closed (an edge is not shared by exactly two triangles that "
                               "agree on their orientation)", link, m->shape_file[s]);
        }
        if (spart_mesh_volume(meshes + s, m->shape_size + 3 * s, &v, c, I)) {
          return spart_err_set(err, SPART_EDATA, 0, "link '%s': automass: mesh '%.200s' has no "
                               "positive volume (its triangles face inwards)", link,
                               m->shape_file[s]);
        }
      }
      spu_mulmv3(x, R, c);
      for (int k = 0; k < 3; k++) {
        x[k] += m->shape_pos[3 * s + k];
      }
      if (pass == 0) {
        V += v;
        for (int k = 0; k < 3; k++) {
          com[k] += v * x[k];
        }
        n++;
        continue;
      }
      /* pass 1: about the link's centroid, by the parallel-axis theorem */
      rotate_inertia(R, I, IR);
      for (int k = 0; k < 3; k++) {
        x[k] -= com[k];
      }
      for (int r = 0; r < 3; r++) {
        for (int c2 = 0; c2 < 3; c2++) {
          J[3 * r + c2] += IR[3 * r + c2] + v * ((r == c2) * spu_dot3(x, x) - x[r] * x[c2]);
        }
      }
    }
    if (pass == 0 && n == 0) {
      return spart_err_set(err, SPART_EDATA, 0, "link '%s': automass: %s", link,
                           points ? "its collision shapes are points (spheres of radius 0), "
                                    "of no volume"
                                  : "no collision shapes");
    }
    for (int k = 0; pass == 0 && k < 3; k++) {
      com[k] /= V;
    }
  }

  /* the density: the link's mass over the volume, else the one given */
  if (mass >= 0) {
    rho = mass / V;
  } else if (density > 0) {
    rho = density;
  } else {
    return spart_err_set(err, SPART_EDATA, 0, "link '%s': automass: no <mass> and no density "
                         "given", link);
  }
  m->body_mass[i] = rho * V;
  memcpy(m->body_pos + 3 * i, com, sizeof com);
  for (int k = 0; k < 9; k++) {
    m->body_rot[9 * i + k] = k % 4 == 0;
  }
  m->body_inertia[6 * i] = rho * J[0];
  m->body_inertia[6 * i + 1] = rho * J[4];
  m->body_inertia[6 * i + 2] = rho * J[8];
  m->body_inertia[6 * i + 3] = rho * J[1];
  m->body_inertia[6 * i + 4] = rho * J[2];
  m->body_inertia[6 * i + 5] = rho * J[5];
  return 0;
}
