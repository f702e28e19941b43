/* spart_mesh.c -- triangle meshes from files through Assimp (the only file that uses it): STL
 * (binary and ASCII), OBJ, COLLADA and the other formats Assimp reads, every node's transform
 * applied (a COLLADA file's <unit> among them; its up axis not, as RViz shows the file: in the
 * frame the URDF gives it), into a spart_mesh (vertices shared by triangles merged when their
 * coordinates are equal) */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include "spart.h"
#include "spart_internal.h"

/* the most triangles read (a 1 GiB binary STL holds some 21 million) */
#define MAX_TRI 50000000


void spart_mesh_free(spart_mesh *mesh) {
  if (mesh) {
    free(mesh->vert);
    free(mesh->tri);
    mesh->vert = NULL;
    mesh->tri = NULL;
    mesh->nvert = mesh->ntri = 0;
  }
}


/* Assimp's single-precision number as the double of the shortest decimal that reads back as
   it: what the file wrote when it wrote at most 9 digits (0.1 in an ASCII file is 0.1, not
   0.100000001490116); any other float is itself */
static double decimal(float f) {
  char s[32];
  for (int p = 1; p <= 9 && isfinite(f); p++) {
    snprintf(s, sizeof s, "%.*g", p, (double)f);
    if (strtof(s, NULL) == f) {
      return strtod(s, NULL);
    }
  }
  return f;
}


/* a corner of a triangle and its place, sorted to merge equal corners */
typedef struct corner {
  double x[3];
  int k;
} corner;

static int cmp_corner(const void *a, const void *b) {
  const corner *p = a, *q = b;
  for (int k = 0; k < 3; k++) {
    if (p->x[k] != q->x[k]) {
      return p->x[k] < q->x[k] ? -1 : 1;
    }
  }
  return (p->k > q->k) - (p->k < q->k);
}


/* the triangles of the scene's meshes under node n, at the transform T (3 x 4, row-major) of
   the nodes above it, counted into *ntri and, when raw, their corners (9 each) into raw */
static void node_triangles(const struct aiScene *sc, const struct aiNode *n, const double P[12],
                           double *raw, size_t *ntri, int upright) {
  const struct aiMatrix4x4 *a = &n->mTransformation;
  float A[12] = {a->a1, a->a2, a->a3, a->a4, a->b1, a->b2, a->b3, a->b4,
                 a->c1, a->c2, a->c3, a->c4};
  double T[12];
  if (upright) {
    /* a COLLADA scene's root: its visual scene, whose own transform is the identity, times
       the file's <unit> scale and the turn of its <up_axis> to Y up; the turn undone (a Z-up
       file in its own axes, as RViz shows it), the scale kept (one of its columns' length) */
    const float u = sqrtf(A[0] * A[0] + A[4] * A[4] + A[8] * A[8]);
    for (int k = 0; k < 12; k++) {
      A[k] = k % 5 == 0 ? u : 0;
    }
  }
  for (int r = 0; r < 3; r++) { /* T = P [A; 0 0 0 1] */
    for (int c = 0; c < 4; c++) {
      T[4 * r + c] = c == 3 ? P[4 * r + 3] : 0;
      for (int k = 0; k < 3; k++) {
        T[4 * r + c] += P[4 * r + k] * decimal(A[4 * k + c]);
      }
    }
  }
  for (unsigned i = 0; i < n->mNumMeshes; i++) {
    const struct aiMesh *me = sc->mMeshes[n->mMeshes[i]];
    for (unsigned f = 0; f < me->mNumFaces; f++) {
      const struct aiFace *fa = me->mFaces + f;
      if (fa->mNumIndices != 3) {
        continue; /* a point or a line */
      }
      for (int k = 0; raw && k < 3; k++) {
        const struct aiVector3D *v = me->mVertices + fa->mIndices[k];
        const double x[3] = {decimal(v->x), decimal(v->y), decimal(v->z)};
        for (int r = 0; r < 3; r++) {
          raw[9 * *ntri + 3 * k + r] = T[4 * r] * x[0] + T[4 * r + 1] * x[1] +
                                       T[4 * r + 2] * x[2] + T[4 * r + 3];
        }
      }
      ++*ntri;
    }
  }
  for (unsigned c = 0; c < n->mNumChildren; c++) {
    node_triangles(sc, n->mChildren[c], T, raw, ntri, 0);
  }
}


/* the mesh of ntri triangles whose corners are raw (9 ntri): equal corners merged */
static int build(spart_mesh *mesh, const double *raw, int ntri, spart_err *err) {
  int n = 3 * ntri, nv = 0;
  corner *c = malloc((size_t)n * sizeof *c);
  mesh->tri = malloc((size_t)n * sizeof *mesh->tri);
  mesh->vert = malloc((size_t)n * 3 * sizeof *mesh->vert);
  if (!c || !mesh->tri || !mesh->vert) {
    free(c);
    spart_mesh_free(mesh);
    return spart_err_set(err, SPART_ENOMEM, 0, "out of memory");
  }
  for (int k = 0; k < n; k++) {
    memcpy(c[k].x, raw + 3 * k, sizeof c[k].x);
    c[k].k = k;
  }
  qsort(c, (size_t)n, sizeof *c, cmp_corner);
  for (int k = 0; k < n; k++) {
    if (nv == 0 || memcmp(mesh->vert + 3 * (nv - 1), c[k].x, sizeof c[k].x) != 0) {
      memcpy(mesh->vert + 3 * nv++, c[k].x, sizeof c[k].x);
    }
    mesh->tri[c[k].k] = nv - 1;
  }
  mesh->nvert = nv;
  mesh->ntri = ntri;
  free(c);
  return 0;
}


/* Assimp's last message, on one line */
static const char *assimp_message(char out[SPART_PRINTABLE]) {
  const char *s = aiGetErrorString();
  return spart_printable(out, s ? s : "", s ? strlen(s) : 0);
}


int spart_mesh_read(const char *path, spart_mesh *mesh, spart_err *err) {
  static const double I[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
  const struct aiScene *sc;
  double *raw = NULL;
  size_t ntri = 0;
  int rc;

  mesh->nvert = mesh->ntri = 0;
  mesh->vert = NULL;
  mesh->tri = NULL;
  if (access(path, R_OK) != 0) {
    return spart_err_set(err, SPART_EIO, 0, "cannot open %s: %s", path, strerror(errno));
  }
  /* no property store (aiCreatePropertyStore throws, out of a C caller's reach, when it has no
     memory): a COLLADA file's turn to Y up is undone at its root (node_triangles) */
  sc = aiImportFile(path, aiProcess_Triangulate | aiProcess_SortByPType);
  if (!sc || !sc->mRootNode) {
    /* once more: Assimp says an allocation that failed as a file it could not open or read,
       which a second reading tells apart (a file it does not read fails again, the same) */
    aiReleaseImport(sc);
    sc = aiImportFile(path, aiProcess_Triangulate | aiProcess_SortByPType);
  }
  if (!sc || !sc->mRootNode) {
    char msg[SPART_PRINTABLE];
    const char *why = assimp_message(msg);
    aiReleaseImport(sc);
    if (!*why || strstr(why, "bad_alloc") || strcmp(why, "Unknown exception") == 0) {
      /* Assimp's allocation failed: what it says then (an exception that is not a reading's) */
      return spart_err_set(err, SPART_ENOMEM, 0, "out of memory");
    }
    return spart_err_set(err, SPART_EDATA, 0, "not a mesh Assimp reads (%s)", why);
  }
  const char *dot = strrchr(path, '.');
  const int collada = dot && (strcasecmp(dot, ".dae") == 0 || strcasecmp(dot, ".zae") == 0);
  node_triangles(sc, sc->mRootNode, I, NULL, &ntri, collada);
  if (ntri == 0 || ntri > MAX_TRI) {
    aiReleaseImport(sc);
    return spart_err_set(err, SPART_EDATA, 0, ntri ? "more than %d triangles" : "no triangles",
                         MAX_TRI);
  }
  raw = malloc(ntri * 9 * sizeof *raw);
  if (!raw) {
    aiReleaseImport(sc);
    return spart_err_set(err, SPART_ENOMEM, 0, "out of memory");
  }
  ntri = 0;
  node_triangles(sc, sc->mRootNode, I, raw, &ntri, collada);
  aiReleaseImport(sc);
  for (size_t k = 0; k < 9 * ntri; k++) {
    if (!isfinite(raw[k])) {
      free(raw);
      return spart_err_set(err, SPART_EDATA, 0, "triangle %zu: a number is not finite",
                           k / 9 + 1);
    }
  }
  rc = build(mesh, raw, (int)ntri, err);
  free(raw);
  return rc;
}


int spart_mesh_format(const char *name) {
  /* Assimp's list of extensions ("*.3ds;*.obj;..."), asked for once: it is never empty but when
     Assimp could not allocate (aiIsExtensionSupported would then say "no" and a mesh it reads
     would silently become a reference) */
  static struct aiString list;
  const char *dot = strrchr(name, '.'), *slash = strrchr(name, '/');
  if (!dot || (slash && dot < slash) || !dot[1]) {
    return 0;
  }
  if (list.length == 0) {
    aiGetExtensionList(&list);
    if (list.length == 0) {
      return -SPART_ENOMEM;
    }
  }
  size_t n = strlen(dot + 1);
  for (const char *p = list.data; (p = strstr(p, "*.")) != NULL; p += 2) {
    if (strncasecmp(p + 2, dot + 1, n) == 0 && (p[2 + n] == ';' || p[2 + n] == '\0')) {
      return 1;
    }
  }
  return 0;
}
