/* svg.c -- spart-draw's output: the picture's items (outlines, lines, dots in the view's
 * plane, by frame) gathered, then written as one SVG document, its frames animated or side by
 * side */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* each class's layer (what is drawn over what) and style */
static const int layer[CLI_SVG_CLASSES] = {0, 1, 1, 2, 2, 3, 3, 3, 3};
static const char *const style[CLI_SVG_CLASSES] = {
    "fill=\"#c8e6c9\" fill-opacity=\"0.8\" stroke=\"#2e7d32\"",        /* support */
    "fill=\"#90a4ae\" fill-opacity=\"0.85\" stroke=\"#263238\"",       /* visual */
    "fill=\"#ffcc80\" fill-opacity=\"0.85\" stroke=\"#e65100\"",       /* collision */
    "fill=\"none\" stroke=\"#1a237e\" stroke-linecap=\"round\"",       /* bone */
    "fill=\"none\" stroke=\"#d81b60\"",                                /* axis */
    "fill=\"#ffffff\" stroke=\"#1a237e\"",                             /* joint */
    "fill=\"#000000\" stroke=\"#ffeb3b\"",                             /* com */
    "fill=\"#2e7d32\" stroke=\"#ffffff\"",                             /* com projection */
    "fill=\"#c62828\" stroke=\"#c62828\""};                            /* contact */


int cli_svg_add(cli_svg *g, int frame, int cls, double depth, const double *uv, int n,
                double r) {
  cli_svg_item *it;
  if (g->n == g->cap) {
    int cap = g->cap ? 2 * g->cap : 256;
    cli_svg_item *v = realloc(g->item, (size_t)cap * sizeof *v);
    if (!v) {
      return -1;
    }
    g->item = v;
    g->cap = cap;
  }
  it = g->item + g->n;
  it->pts = malloc(2 * (size_t)(n ? n : 1) * sizeof *it->pts);
  if (!it->pts) {
    return -1;
  }
  memcpy(it->pts, uv, 2 * (size_t)n * sizeof *uv);
  it->frame = frame;
  it->cls = cls;
  it->depth = depth;
  it->n = n;
  it->r = r;
  g->n++;
  return 0;
}


void cli_svg_drop(cli_svg *g, int n) {
  for (int k = n; k < g->n; k++) {
    free(g->item[k].pts);
  }
  g->n = n < g->n ? n : g->n;
}


void cli_svg_free(cli_svg *g) {
  cli_svg_drop(g, 0);
  free(g->item);
  memset(g, 0, sizeof *g);
}


/* what the items cover, into lo and hi; a unit square about 0 for none */
static void bounds(const cli_svg *g, double lo[2], double hi[2]) {
  int first = 1;
  lo[0] = lo[1] = -0.5;
  hi[0] = hi[1] = 0.5;
  for (int i = 0; i < g->n; i++) {
    const cli_svg_item *it = g->item + i;
    for (int k = 0; k < it->n; k++) {
      for (int c = 0; c < 2; c++) {
        double a = it->pts[2 * k + c] - it->r, b = it->pts[2 * k + c] + it->r;
        lo[c] = first ? a : fmin(lo[c], a);
        hi[c] = first ? b : fmax(hi[c], b);
      }
      first = 0;
    }
  }
}


static int by_layer(const void *a, const void *b) {
  const cli_svg_item *x = a, *y = b;
  if (x->frame != y->frame) {
    return (x->frame > y->frame) - (x->frame < y->frame);
  }
  if (layer[x->cls] != layer[y->cls]) {
    return (layer[x->cls] > layer[y->cls]) - (layer[x->cls] < layer[y->cls]);
  }
  return (x->depth > y->depth) - (x->depth < y->depth); /* far first */
}


/* a number in the picture's units, short */
static void num(FILE *f, double x) {
  fprintf(f, "%.6g", fabs(x) < 5e-7 ? 0 : x);
}


int cli_svg_write(FILE *f, cli_svg *g, int nframes, int strip, double seconds) {
  double lo[2], hi[2];
  bounds(g, lo, hi);
  double w = hi[0] - lo[0], h = hi[1] - lo[1], size, pad, stroke;
  int cols = strip && nframes > 0 ? nframes : 1;
  size = fmax(fmax(w, h), 1e-9);
  pad = 0.05 * size;
  stroke = size / 400;
  w += 2 * pad;
  h += 2 * pad;
  if (g->n > 0) {
    qsort(g->item, (size_t)g->n, sizeof *g->item, by_layer);
  }
  fprintf(f,
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"",
          (int)ceil(600 * cols * w / fmax(w, h)), (int)ceil(600 * h / fmax(w, h)));
  num(f, 0);
  fputc(' ', f);
  num(f, 0);
  fputc(' ', f);
  num(f, cols * w);
  fputc(' ', f);
  num(f, h);
  fprintf(f, "\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n");
  for (int fr = 0, k = 0; fr < nframes; fr++) {
    /* frame fr: shifted into its column, y up */
    double ox = (strip ? fr * w : 0) + pad - lo[0], oy = pad + hi[1];
    fprintf(f, "<g id=\"frame%d\"%s>\n", fr, !strip && fr > 0 ? " display=\"none\"" : "");
    if (!strip && nframes > 1) {
      double T = seconds * nframes;
      fprintf(f, "<animate attributeName=\"display\" calcMode=\"discrete\" dur=\"%gs\" "
                 "repeatCount=\"indefinite\" ",
              T);
      if (fr == 0) {
        fprintf(f, "values=\"inline;none\" keyTimes=\"0;%g\"/>\n", 1.0 / nframes);
      } else {
        fprintf(f, "values=\"none;inline;none\" keyTimes=\"0;%g;%g\"/>\n", (double)fr / nframes,
                (double)(fr + 1) / nframes);
      }
    }
    for (; k < g->n && g->item[k].frame == fr; k++) {
      const cli_svg_item *it = g->item + k;
      const double sw = it->cls == CLI_SVG_BONE ? 3 * stroke : stroke;
      if (it->r > 0) {
        fprintf(f, "<circle cx=\"");
        num(f, ox + it->pts[0]);
        fprintf(f, "\" cy=\"");
        num(f, oy - it->pts[1]);
        fprintf(f, "\" r=\"");
        num(f, it->r);
      } else {
        fprintf(f, "<%s points=\"", it->n == 2 ? "polyline" : "polygon");
        for (int q = 0; q < it->n; q++) {
          if (q) {
            fputc(' ', f);
          }
          num(f, ox + it->pts[2 * q]);
          fputc(',', f);
          num(f, oy - it->pts[2 * q + 1]);
        }
      }
      fprintf(f, "\" %s stroke-width=\"", style[it->cls]);
      num(f, sw);
      fprintf(f, "\"/>\n");
    }
    fprintf(f, "</g>\n");
  }
  fprintf(f, "</svg>\n");
  return ferror(f) ? -1 : 0;
}
