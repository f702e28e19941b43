/* svg.c -- spart-draw's output: the picture's items (faces, lines, dots, arrows, labels in the
 * view's plane), gathered a frame at a time and kept in a temporary file, then written as one
 * SVG document, its frames animated or side by side: memory bounded by one frame's items */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* each class's layer (what is drawn over what) and style */
static const int layer[CLI_SVG_CLASSES] = {1, 2, 2, 3, 3, 4, 4, 4, 4, 0, 5, 6};
static const char *const style[CLI_SVG_CLASSES] = {
    "fill=\"#c8e6c9\" fill-opacity=\"0.8\" stroke=\"#2e7d32\"",        /* support */
    "fill=\"#90a4ae\" fill-opacity=\"0.85\" stroke=\"#263238\"",       /* visual */
    "fill=\"#ffcc80\" fill-opacity=\"0.85\" stroke=\"#e65100\"",       /* collision */
    "fill=\"none\" stroke=\"#1a237e\" stroke-linecap=\"round\"",       /* bone */
    "fill=\"none\" stroke=\"#d81b60\"",                                /* axis */
    "fill=\"#ffffff\" stroke=\"#1a237e\"",                             /* joint */
    "fill=\"#000000\" stroke=\"#ffeb3b\"",                             /* com */
    "fill=\"#2e7d32\" stroke=\"#ffffff\"",                             /* com projection */
    "fill=\"#c62828\" stroke=\"#c62828\"",                           /* contact */
    "fill=\"none\" stroke=\"#cfd8dc\"",                                /* ground */
    "fill=\"none\" stroke=\"#c62828\" stroke-linecap=\"round\"",       /* force */
    "fill=\"#212121\""};                                               /* label */
/* the base colours of shaded faces, by class (visual, collision) */
static const int base[2][3] = {{0x90, 0xa4, 0xae}, {0xff, 0xb7, 0x4d}};

/* a frame in the spool: its items (sorted), then each item with its points and text */
typedef struct {
  int n;
  double t;
} frame_head;
typedef struct {
  int cls, n, len;
  double r, shade;
} item_head;


int cli_svg_start(cli_svg *g) {
  memset(g, 0, sizeof *g);
  g->spool = tmpfile();
  return g->spool ? 0 : -1;
}


cli_svg_item *cli_svg_add(cli_svg *g, int cls, double depth, const double *uv, int n, double r) {
  cli_svg_item *it;
  if (g->n == g->cap) {
    int cap = g->cap ? 2 * g->cap : 256;
    cli_svg_item *v = realloc(g->item, (size_t)cap * sizeof *v);
    if (!v) {
      return NULL;
    }
    g->item = v;
    g->cap = cap;
  }
  it = g->item + g->n;
  memset(it, 0, sizeof *it);
  it->pts = malloc(2 * (size_t)(n ? n : 1) * sizeof *it->pts);
  if (!it->pts) {
    return NULL;
  }
  memcpy(it->pts, uv, 2 * (size_t)n * sizeof *uv);
  it->cls = cls;
  it->depth = depth;
  it->n = n;
  it->r = r;
  it->shade = -1;
  g->n++;
  return it;
}


void cli_svg_drop(cli_svg *g, int n) {
  for (int k = n; k < g->n; k++) {
    free(g->item[k].pts);
    free(g->item[k].text);
  }
  g->n = n < g->n ? n : g->n;
}


void cli_svg_free(cli_svg *g) {
  cli_svg_drop(g, 0);
  free(g->item);
  free(g->note);
  if (g->spool) {
    fclose(g->spool);
  }
  memset(g, 0, sizeof *g);
}


static int by_layer(const void *a, const void *b) {
  const cli_svg_item *x = a, *y = b;
  if (layer[x->cls] != layer[y->cls]) {
    return (layer[x->cls] > layer[y->cls]) - (layer[x->cls] < layer[y->cls]);
  }
  return (x->depth > y->depth) - (x->depth < y->depth); /* far first */
}


int cli_svg_frame(cli_svg *g, double t) {
  const frame_head fh = {g->n, t};
  int bad = fwrite(&fh, sizeof fh, 1, g->spool) != 1;
  if (g->n > 0) {
    qsort(g->item, (size_t)g->n, sizeof *g->item, by_layer);
  }
  for (int i = 0; i < g->n && !bad; i++) {
    const cli_svg_item *it = g->item + i;
    const item_head ih = {it->cls, it->n, it->text ? (int)strlen(it->text) : 0, it->r,
                          it->shade};
    /* what the items cover (a label's text aside) */
    for (int k = 0; k < it->n; k++) {
      for (int c = 0; c < 2; c++) {
        double a = it->pts[2 * k + c] - it->r, b = it->pts[2 * k + c] + it->r;
        g->lo[c] = g->any ? fmin(g->lo[c], a) : a;
        g->hi[c] = g->any ? fmax(g->hi[c], b) : b;
      }
      g->any = 1;
    }
    bad |= fwrite(&ih, sizeof ih, 1, g->spool) != 1 ||
           fwrite(it->pts, sizeof *it->pts, 2 * (size_t)it->n, g->spool) != 2 * (size_t)it->n ||
           fwrite(it->text ? it->text : "", 1, (size_t)ih.len, g->spool) != (size_t)ih.len;
  }
  cli_svg_drop(g, 0);
  g->nframes++;
  return bad ? -1 : 0;
}


/* a number in the picture's units, short */
static void num(FILE *f, double x) {
  fprintf(f, "%.6g", fabs(x) < 5e-7 ? 0 : x);
}


/* text with XML's special characters escaped */
static void text(FILE *f, const char *s) {
  for (; *s; s++) {
    switch (*s) {
      case '<': fputs("&lt;", f); break;
      case '>': fputs("&gt;", f); break;
      case '&': fputs("&amp;", f); break;
      default: fputc(*s, f);
    }
  }
}


/* a text element's start at (x, y): its glyphs drawn at 10 units then scaled to the picture's
   (renderers draw tiny font sizes badly), px pixels of a stroke's width sw high */
static void text_at(FILE *f, double x, double y, double sw, double px, const char *attrs) {
  fprintf(f, "<text transform=\"translate(");
  num(f, x);
  fputc(' ', f);
  num(f, y);
  fprintf(f, ") scale(");
  num(f, sw * px / 10);
  fprintf(f, ")\" font-size=\"10\" font-family=\"sans-serif\" %s>", attrs);
}


/* item it (its points pts, text txt) at the offset (ox, oy), y up; sw a stroke's width */
static void item(FILE *f, const item_head *it, const double *pts, const char *txt, double ox,
                 double oy, double sw) {
  if (it->cls == CLI_SVG_LABEL) {
    text_at(f, ox + pts[0] + 3 * sw, oy - pts[1] - 3 * sw, sw, 9, style[it->cls]);
    text(f, txt);
    fprintf(f, "</text>\n");
    return;
  }
  if (it->cls == CLI_SVG_FORCE) {
    /* an arrow: its shaft from the point, its head at the tip */
    double x0 = ox + pts[0], y0 = oy - pts[1], x1 = ox + pts[2], y1 = oy - pts[3];
    double dx = x1 - x0, dy = y1 - y0, l = sqrt(dx * dx + dy * dy), h = fmin(6 * sw, l / 3);
    fprintf(f, "<path class=\"force\" d=\"M ");
    num(f, x0);
    fputc(' ', f);
    num(f, y0);
    fprintf(f, " L ");
    num(f, x1);
    fputc(' ', f);
    num(f, y1);
    if (l > 0) {
      for (int sg = -1; sg <= 1; sg += 2) {
        fprintf(f, sg < 0 ? " M " : " L ");
        num(f, x1 - h * (dx + sg * 0.5 * dy) / l);
        fputc(' ', f);
        num(f, y1 - h * (dy - sg * 0.5 * dx) / l);
        if (sg < 0) {
          fprintf(f, " L ");
          num(f, x1);
          fputc(' ', f);
          num(f, y1);
        }
      }
    }
    fprintf(f, "\" %s stroke-width=\"", style[it->cls]);
    num(f, 2 * sw);
    fprintf(f, "\"/>\n");
    return;
  }
  if (it->r > 0) {
    fprintf(f, "<circle cx=\"");
    num(f, ox + pts[0]);
    fprintf(f, "\" cy=\"");
    num(f, oy - pts[1]);
    fprintf(f, "\" r=\"");
    num(f, it->r);
  } else {
    fprintf(f, "<%s points=\"", it->n == 2 ? "polyline" : "polygon");
    for (int q = 0; q < it->n; q++) {
      if (q) {
        fputc(' ', f);
      }
      num(f, ox + pts[2 * q]);
      fputc(',', f);
      num(f, oy - pts[2 * q + 1]);
    }
  }
  if (it->shade >= 0) {
    /* a shaded face: its class's colour times its shade, edges in its own colour (their width
       and joins the frame's) */
    const int *c = base[it->cls == CLI_SVG_COLLISION];
    int v[3];
    for (int k = 0; k < 3; k++) {
      v[k] = (int)lround(c[k] * it->shade);
    }
    fprintf(f, "\" fill=\"#%02x%02x%02x\" stroke=\"#%02x%02x%02x", v[0], v[1], v[2], v[0], v[1],
            v[2]);
  } else {
    fprintf(f, "\" %s stroke-width=\"", style[it->cls]);
    num(f, it->cls == CLI_SVG_BONE ? 3 * sw : sw);
  }
  fprintf(f, "\"/>\n");
}


/* the spool's next frame written at (ox, oy): 0, or -1 when the spool could not be read */
static int frame_items(FILE *f, cli_svg *g, int n, double ox, double oy, double sw, double **pts,
                       size_t *npts, char **txt, size_t *ntxt) {
  for (int i = 0; i < n; i++) {
    item_head ih;
    if (fread(&ih, sizeof ih, 1, g->spool) != 1 || ih.n < 0 || ih.len < 0) {
      return -1;
    }
    if (2 * (size_t)ih.n > *npts || (size_t)ih.len + 1 > *ntxt) {
      size_t np = 2 * (size_t)ih.n > *npts ? 2 * (size_t)ih.n : *npts;
      size_t nt = (size_t)ih.len + 1 > *ntxt ? (size_t)ih.len + 1 : *ntxt;
      double *p = realloc(*pts, np * sizeof *p);
      char *c = p ? realloc(*txt, nt) : NULL;
      *pts = p ? p : *pts;
      *txt = c ? c : *txt;
      if (!c) {
        return -1;
      }
      *npts = np;
      *ntxt = nt;
    }
    if (fread(*pts, sizeof **pts, 2 * (size_t)ih.n, g->spool) != 2 * (size_t)ih.n ||
        fread(*txt, 1, (size_t)ih.len, g->spool) != (size_t)ih.len) {
      return -1;
    }
    (*txt)[ih.len] = 0;
    item(f, &ih, *pts, *txt, ox, oy, sw);
  }
  return 0;
}


int cli_svg_write(FILE *f, cli_svg *g, int strip, double seconds) {
  double lo[2] = {-0.5, -0.5}, hi[2] = {0.5, 0.5};
  const int nframes = g->nframes;
  if (g->any) {
    memcpy(lo, g->lo, sizeof lo);
    memcpy(hi, g->hi, sizeof hi);
  }
  if (g->fixed) {
    memcpy(lo, g->box, sizeof lo);
    memcpy(hi, g->box + 2, sizeof hi);
  }
  double w = hi[0] - lo[0], h = hi[1] - lo[1], size, pad, stroke, foot;
  int cols = strip && nframes > 0 ? nframes : 1, bad = 0;
  size = fmax(fmax(w, h), 1e-9);
  pad = 0.05 * size;
  stroke = size / 400;
  foot = g->note ? 16 * stroke : 0; /* room for the note under the frames */
  w += 2 * pad;
  h += 2 * pad;
  fprintf(f,
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"",
          (int)ceil(600 * cols * w / fmax(w, h)), (int)ceil(600 * (h + foot) / fmax(w, h)));
  num(f, 0);
  fputc(' ', f);
  num(f, 0);
  fputc(' ', f);
  num(f, cols * w);
  fputc(' ', f);
  num(f, h + foot);
  fprintf(f, "\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n");
  double *pts = NULL;
  char *txt = NULL;
  size_t npts = 0, ntxt = 0;
  bad |= fflush(g->spool) != 0 || fseek(g->spool, 0, SEEK_SET) != 0;
  for (int fr = 0; fr < nframes && !bad; fr++) {
    /* frame fr: shifted into its column, y up */
    double ox = (strip ? fr * w : 0) + pad - lo[0], oy = pad + hi[1];
    frame_head fh;
    if (fread(&fh, sizeof fh, 1, g->spool) != 1) {
      bad = 1;
      break;
    }
    fprintf(f, "<g id=\"frame%d\"%s stroke-linejoin=\"round\" stroke-width=\"", fr,
            !strip && fr > 0 ? " display=\"none\"" : "");
    num(f, stroke / 2);
    fprintf(f, "\">\n");
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
    bad |= frame_items(f, g, fh.n, ox, oy, stroke, &pts, &npts, &txt, &ntxt) != 0;
    if (!isnan(fh.t)) {
      /* its time, at its top left */
      text_at(f, ox + lo[0] - pad / 2, oy - hi[1] - pad / 2 + 12 * stroke, stroke, 12,
              "class=\"t\" fill=\"#212121\"");
      fprintf(f, "t = %.6g s</text>\n", fh.t);
    }
    fprintf(f, "</g>\n");
  }
  if (g->note) {
    text_at(f, pad / 2, h + foot - 4 * stroke, stroke, 10, "class=\"note\" fill=\"#c62828\"");
    text(f, g->note);
    fprintf(f, "</text>\n");
  }
  free(pts);
  free(txt);
  fprintf(f, "</svg>\n");
  return bad || ferror(f) ? -1 : 0;
}
