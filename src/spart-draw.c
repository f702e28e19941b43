/* spart-draw -- an SVG picture of the robot at each state record: its links' shapes, skeleton,
 * CoM and, for records with contacts, the support polygon and the CoM's projection on it */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* its own options */
typedef struct draw_opts {
  int view;           /* --view: SPART_VIEW_* */
  int frames;         /* --frames: side by side */
  const char *stance; /* --stance FILE, or NULL */
  cli_stance held;    /* its holds (resolve): their contacts are every record's */
} draw_opts;


/* --view VIEW */
static int view_arg(const cli_arg *a) {
  static const char *const names[SPART_VIEWS] = {"front", "side", "top", "iso"};
  for (int q = 0; q < SPART_VIEWS; q++) {
    if (strcmp(a->value, names[q]) == 0) {
      *(int *)a->at = q;
      return -1;
    }
  }
  return cli_usage(a->tool->name, "--view: expected front, side, top or iso, got '%s'", a->value);
}


/* --stance needs the model of -m (its links are resolved before the records) */
static int check(const cli_tool *t, void *own, cli_opts *o) {
  const draw_opts *k = own;
  return k->stance ? cli_stance_needs_model(t, "stance", o) : -1;
}


/* --stance: its holds, once the model is read */
static int resolve(cli_session *s) {
  draw_opts *o = s->o.own;
  return o->stance ? cli_stance_read(s, o->stance, &o->held) : 0;
}


static const cli_option options[] = {
    {"view", 0, CLI_ARG_ONE, view_arg, offsetof(draw_opts, view), 0, 0, NULL,
     "      --view VIEW      front (from +x), side (from -y, the default), top (from +z) or\n"
     "                       iso (from (1,-1,1)): an orthographic projection\n"},
    CLI_FLAG("frames", offsetof(draw_opts, frames), 0,
             "      --frames         the records' pictures side by side, not animated\n"),
    CLI_SHARED("gravity", "      --gravity GX,GY,GZ  the gravity of the support polygon (records "
                          "with contacts)\n"),
    {"stance", 0, CLI_ARG_ONE, cli_opt_text, offsetof(draw_opts, stance), 1, 0, NULL,
     "      --stance FILE    add the contacts of the stance's holds to every record's\n"},
    CLI_END};

static const cli_tool tool = {
    .name = "spart-draw",
    .synopsis = "[OPTIONS] [--view front|side|top|iso] [--frames] [-m MODEL] < STATES",
    .help =
        "Draw the robot at each state record as SVG on standard output: each link's shapes\n"
        "(visual, else collision; a mesh read as its bounding box), the skeleton (joint to "
        "joint,\n"
        "joint origins as dots and their axes), the system's CoM (black) and, for a record with\n"
        "contacts (as spart-contact's, --gravity then needed), the support polygon (green) and "
        "the\n"
        "CoM's projection on it along gravity.  Several records make an animation (one record a\n"
        "second), or with --frames a strip of pictures side by side.\n\n",
    .options = options,
    .reads = CLI_READS_POSE | CLI_READS_CONTACTS,
    .check = check,
    .resolve = resolve};

/* the picture: its view (--view), frames drawn so far, whether memory ran out */
static int view = SPART_VIEW_SIDE, frame = 0, oom = 0;
static cli_svg pic;


static void add(int cls, double depth, const double *uv, int n, double r) {
  oom |= cli_svg_add(&pic, frame, cls, depth, uv, n, r) != 0;
}


/* a point from r0 (as d->xpos) in the view */
static void at(const spart_data *d, const double x[3], double uvd[3]) {
  double w[3];
  spart_world(d, x, w);
  spart_view_project(view, w, uvd);
}


/* each contact's point, a dot, and its normal, a line (x: the points from r0) */
static void contact_points(cli_session *s, const spart_contact *c, int nc, const double *x,
                           double scale) {
  for (int k = 0; k < nc; k++) {
    double w[3], e[3], a[3], b[3], seg[4];
    spart_world(s->d, x + 3 * k, w);
    for (int j = 0; j < 3; j++) {
      e[j] = w[j] + 0.1 * scale * c[k].normal[j];
    }
    spart_view_project(view, w, a);
    spart_view_project(view, e, b);
    seg[0] = a[0], seg[1] = a[1], seg[2] = b[0], seg[3] = b[1];
    add(CLI_SVG_CONTACT, 0, seg, 2, 0);
    add(CLI_SVG_CONTACT, a[2], a, 1, scale / 80);
  }
}


/* the support polygon and the CoM's projection, for a record with contacts (its own, and
   --stance's) */
static void support(cli_session *s, double scale) {
  const draw_opts *o = s->o.own;
  spart_contact *c = NULL;
  int cap = 0, nc = 0;
  if ((s->st->contacts && cli_contacts(s, &c, &cap, &nc) != 0) ||
      (o->stance && cli_stance_contacts(s, &o->held, 0, &c, &cap, &nc) != 0)) {
    free(c);
    return;
  }
  if (!s->gravity) {
    cli_fail(s, "contacts: the support polygon needs --gravity");
    free(c);
    return;
  }
  int vcap = 4 * nc * SPART_CONTACT_EDGES + 16;
  double *vert = malloc(2 * (size_t)vcap * sizeof *vert),
         *half = malloc(3 * (size_t)vcap * sizeof *half);
  double *x = malloc(3 * (size_t)nc * sizeof *x), U[3], V[3], n[3], gn, h = INFINITY;
  spart_support sp = {.cap = vcap, .vert = vert, .half = half, .margin = NAN};
  const spart_stance stance = {nc, c, SPART_CONTACT_EDGES};
  spart_err err = {0};
  if (!vert || !half || !x) {
    oom = 1;
  } else if (spart_support_polygon(s->m, s->d, &stance, s->gravity, &sp, &err) != 0) {
    cli_fail(s, "%s", err.msg);
  } else {
    spart_support_axes(s->gravity, U, V);
    gn = sqrt(s->gravity[0] * s->gravity[0] + s->gravity[1] * s->gravity[1] +
              s->gravity[2] * s->gravity[2]);
    for (int k = 0; k < 3; k++) {
      n[k] = -s->gravity[k] / gn;
    }
    /* the support's plane: through the lowest contact point */
    spart_contact_points(s->m, s->d, &stance, x);
    contact_points(s, c, nc, x, scale);
    for (int k = 0; k < nc; k++) {
      double w[3];
      spart_world(s->d, x + 3 * k, w);
      h = fmin(h, w[0] * n[0] + w[1] * n[1] + w[2] * n[2]);
    }
    double *uv = malloc(2 * (size_t)(sp.nvert + 1) * sizeof *uv), depth = 0;
    for (int k = 0; uv && k < sp.nvert && sp.bounded; k++) {
      double X[3], q[3];
      for (int j = 0; j < 3; j++) {
        X[j] = sp.vert[2 * k] * U[j] + sp.vert[2 * k + 1] * V[j] + h * n[j];
      }
      spart_view_project(view, X, q);
      uv[2 * k] = q[0];
      uv[2 * k + 1] = q[1];
      depth += q[2] / sp.nvert;
    }
    if (uv && sp.bounded && sp.nvert > 0) {
      add(CLI_SVG_SUPPORT, depth, uv, sp.nvert, 0);
    }
    if (uv) {
      double com[3], X[3], q[3], off;
      spart_world(s->d, s->d->com, com);
      off = com[0] * n[0] + com[1] * n[1] + com[2] * n[2] - h;
      for (int j = 0; j < 3; j++) {
        X[j] = com[j] - off * n[j];
      }
      spart_view_project(view, X, q);
      add(CLI_SVG_COMP, q[2], q, 1, scale / 60);
    }
    oom |= !uv;
    free(uv);
  }
  free(vert);
  free(half);
  free(x);
  free(c);
}


/* the picture of the current record, as frame `frame` */
static void draw(cli_session *s) {
  const spart_model *m = s->m;
  spart_data *d = s->d;
  const cli_state *st = s->st;
  double uv[2 * SPART_OUTLINE_MAX], depth, scale = 0, a[3], b[3], seg[4];
  spart_fk(m, d, &st->x);
  /* the robot's size, for dots and axes: its joints' spread */
  for (int i = 1; i < m->nb; i++) {
    scale = fmax(
        scale, sqrt(d->xposJ[3 * i] * d->xposJ[3 * i] + d->xposJ[3 * i + 1] * d->xposJ[3 * i + 1] +
                    d->xposJ[3 * i + 2] * d->xposJ[3 * i + 2]));
  }
  for (int s2 = 0; s2 < m->nshape; s2++) {
    for (int k = 0; k < 6; k++) {
      scale = fmax(scale, fabs(m->shape_bound[6 * s2 + k]));
    }
  }
  scale = scale > 0 ? scale : 1;
  /* shapes: visual, else collision (a link whose visual shapes are all meshes not read has
     none to draw) */
  for (int s2 = 0; s2 < m->nshape; s2++) {
    int i = m->shape_body[s2], vis = 0;
    int cls = m->shape_role[s2] == SPART_SHAPE_VISUAL ? CLI_SVG_VISUAL : CLI_SVG_COLLISION;
    for (int k = 0; k < m->nshape; k++) {
      vis |= m->shape_body[k] == i && m->shape_role[k] == SPART_SHAPE_VISUAL &&
             (m->shape_kind[k] != SPART_SHAPE_MESH || m->shape_mesh[k] == SPART_MESH_READ);
    }
    if ((cls == CLI_SVG_VISUAL) == vis) {
      int n = spart_shape_outline(m, d, s2, view, uv, &depth);
      if (n > 0) {
        add(cls, depth, uv, n, n == 1 ? scale / 100 : 0); /* a point: a dot */
      }
    }
  }
  /* the skeleton: each joint from its parent's (the base: its URDF link frame's origin) */
  for (int i = 1; i < m->nb; i++) {
    int p = m->body_parent[i];
    double R[9], o[3];
    if (p == 0) {
      spart_link_frame(m, d, 0, R, o);
      at(d, o, a);
    } else {
      at(d, d->xposJ + 3 * p, a);
    }
    at(d, d->xposJ + 3 * i, b);
    seg[0] = a[0], seg[1] = a[1], seg[2] = b[0], seg[3] = b[1];
    add(CLI_SVG_BONE, 0, seg, 2, 0);
    if (spart_joint_has_axis(m->jnt_type[i])) {
      double e[3];
      for (int k = 0; k < 3; k++) {
        e[k] = d->xposJ[3 * i + k] + 0.15 * scale * d->xaxis[3 * i + k];
      }
      at(d, e, a);
      seg[0] = b[0], seg[1] = b[1], seg[2] = a[0], seg[3] = a[1];
      add(CLI_SVG_AXIS, 0, seg, 2, 0);
    }
    add(CLI_SVG_JOINT, b[2], b, 1, scale / 50);
  }
  at(d, d->com, a);
  add(CLI_SVG_COM, a[2], a, 1, scale / 40);
  if (st->contacts || ((const draw_opts *)s->o.own)->stance) {
    support(s, scale);
  }
  frame++;
}


/* each record's picture; a record that fails while drawn (its contacts) leaves none */
static void records(cli_session *s) {
  while (cli_next(s)) {
    long bad = s->nbad;
    int items = pic.n;
    draw(s);
    if (s->nbad != bad) {
      cli_svg_drop(&pic, items);
      frame--;
    }
  }
}


int main(int argc, char **argv) {
  draw_opts o = {.view = SPART_VIEW_SIDE};
  int status;
  cli_session *s = cli_session_start(&tool, &o, argc, argv, &status);
  if (!s) {
    cli_stance_free(&o.held);
    return status;
  }
  view = o.view;
  records(s);
  /* the picture, when every record was read: of those drawn, every one or with --keep-going
     the good ones, maybe none (an empty picture); written before the session closes stdout */
  int whole =
      s->status == CLI_EXIT_OK || (s->o.keep_going && !s->stop && s->status == CLI_EXIT_DATA);
  if (oom) {
    cli_error(tool.name, NULL, 0, "out of memory");
    s->status = CLI_EXIT_IO;
  } else if (whole && cli_svg_write(stdout, &pic, frame, o.frames, 1.0)) {
    s->status = CLI_EXIT_IO;
  }
  cli_svg_free(&pic);
  cli_stance_free(&o.held);
  return cli_session_close(s);
}
