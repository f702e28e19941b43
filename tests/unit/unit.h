/* unit.h -- what the model-driven unit drivers (test_dynamics, test_recursions,
 * test_derivatives) share: each model of their command line loaded and named. */
#ifndef SPART_UNIT_H
#define SPART_UNIT_H

#include <stdio.h>
#include <string.h>

#include "spart.h"

/* The model of the file path, *name its file name (path's last part); NULL after printing
   "FAIL NAME: why" and counting it in *nfail. */
static inline spart_model *unit_model(const char *path, const char **name, int *nfail) {
  spart_err err = {0};
  spart_model *m = spart_model_load(path, &err);
  *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  if (!m) {
    printf("FAIL %s: %s\n", *name, err.msg);
    ++*nfail;
  }
  return m;
}

#endif
