/* spart-draw -- an SVG picture of the robot at each state record: its links' shapes, skeleton,
 * CoM and, for records with contacts, the support polygon and the CoM's projection on it */
#include <errno.h>
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
  int frames_all;     /* --frames-all: every frame in the skeleton, fixed massless ones too */
  int labels;         /* --labels: the links' names */
  int no_ground;      /* --no-ground */
  int fixed;          /* --view-box given: box is the picture's extent */
  double box[4];      /* --view-box U0,V0,U1,V1 */
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


/* --view-box U0,V0,U1,V1 */
static int box_arg(const cli_arg *a) {
  double *b = a->at;
  if (cli_vec(a->value, b, 4) != 0 || !(b[2] > b[0]) || !(b[3] > b[1])) {
    return cli_usage(a->tool->name,
                     "--view-box: expected u0,v0,u1,v1 with u0 < u1 and v0 < v1, got '%s'",
                     a->value);
  }
  ((draw_opts *)a->o->own)->fixed = 1;
  return -1;
}


static const cli_option options[] = {
    {"view", 0, CLI_ARG_ONE, view_arg, offsetof(draw_opts, view), 0, 0, NULL,
     "      --view VIEW      front (from +x), side (from -y, the default), top (from +z) or\n"
     "                       iso (from (1,-1,1)): an orthographic projection\n"},
    CLI_FLAG("frames", offsetof(draw_opts, frames), 0,
             "      --frames         the records' pictures side by side, not animated\n"),
    CLI_SHARED("gravity",
               "      --gravity GX,GY,GZ  the gravity of the ground, the support polygon and the\n"
               "                       contact forces' points (default: the model's)\n"),
    CLI_FLAG("frames-all", offsetof(draw_opts, frames_all), 0,
             "      --frames-all     the skeleton through every frame, fixed massless ones\n"
             "                       (cameras, sensors) too, a dot on every joint\n"),
    CLI_FLAG("labels", offsetof(draw_opts, labels), 0,
             "      --labels         the links' names\n"),
    CLI_FLAG("no-ground", offsetof(draw_opts, no_ground), 0,
             "      --no-ground      no ground grid\n"),
    {"view-box", 0, CLI_ARG_ONE, box_arg, offsetof(draw_opts, box), 0, 0, NULL,
     "      --view-box U0,V0,U1,V1  the picture's extent in the view's plane (metres, u right,\n"
     "                       v up; default: what the frames cover)\n"},
    {"stance", 0, CLI_ARG_ONE, cli_opt_text, offsetof(draw_opts, stance), 1, 0, NULL,
     "      --stance FILE    add the contacts of the stance's holds to every record's\n"},
    CLI_END};

static const cli_tool tool = {
    .name = "spart-draw",
    .synopsis = "[OPTIONS] [--view front|side|top|iso] [--frames] [-m MODEL] < STATES",
    .help =
        "Draw the robot at each state record as SVG on standard output: each link's shapes\n"
        "(visual, else collision; a mesh read as its bounding box) as faces sorted by depth and\n"
        "shaded against one light, the skeleton through the joints that move (their origins as\n"
        "dots and their axes), the system's CoM (black), the ground's grid (z = 0 against\n"
        "gravity, when gravity is known), for a record with contacts (as spart-contact's) the\n"
        "support polygon (green) and the CoM's projection on it, and for a record with\n"
        "contact_forces (spart-contact's, spart-sim's) arrows from their points, on one scale the\n"
        "picture states.  Several records make an animation (one record a second), or with\n"
        "--frames a strip of pictures side by side, each labelled with its t.\n\n",
    .options = options,
    .reads = CLI_READS_POSE | CLI_READS_CONTACTS,
    .check = check,
    .resolve = resolve};


/* the picture: its options, its items, whether memory ran out; the contact forces' scale (N a
   metre of arrow, 0 until a record has some) */
static const draw_opts *opt;
static int oom = 0;
static double per_m = 0;
static cli_svg pic;


static cli_svg_item *add(int cls, double depth, const double *uv, int n, double r) {
  cli_svg_item *it = cli_svg_add(&pic, cls, depth, uv, n, r);
  oom |= !it;
  return it;
}


/* a point from r0 (as d->xpos) in the view */
static void at(const spart_data *d, const double x[3], double uvd[3]) {
  double w[3];
  spart_world(d, x, w);
  spart_view_project(opt->view, w, uvd);
}


/* the segment a-b (inertial) as an item of class cls */
static void segment(int cls, const double a[3], const double b[3]) {
  double p[3], q[3], seg[4];
  spart_view_project(opt->view, a, p);
  spart_view_project(opt->view, b, q);
  seg[0] = p[0], seg[1] = p[1], seg[2] = q[0], seg[3] = q[1];
  add(cls, (p[2] + q[2]) / 2, seg, 2, 0);
}


/* each contact's point, a dot, and its normal, a line (x: the points from r0) */
static void contact_points(cli_session *s, const spart_contact *c, int nc, const double *x,
                           double scale) {
  for (int k = 0; k < nc; k++) {
    double w[3], e[3], a[3];
    spart_world(s->d, x + 3 * k, w);
    for (int j = 0; j < 3; j++) {
      e[j] = w[j] + 0.1 * scale * c[k].normal[j];
    }
    segment(CLI_SVG_CONTACT, w, e);
    spart_view_project(opt->view, w, a);
    add(CLI_SVG_CONTACT, a[2], a, 1, scale / 80);
  }
}


/* the support polygon and the CoM's projection, for a record with contacts (nc of them, c) */
static void support(cli_session *s, const spart_contact *c, int nc, double scale) {
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
      spart_view_project(opt->view, X, q);
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
      spart_view_project(opt->view, X, q);
      add(CLI_SVG_COMP, q[2], q, 1, scale / 120);
    }
    oom |= !uv;
    free(uv);
  }
  free(vert);
  free(half);
  free(x);
}


/* the points (from r0, nf x 3) of the contact forces: the record's contacts' (c, nc), else the
   ground's contact spheres' lowest points (spart-sim's order); 0, or -1 after a fault */
static int forces_at(cli_session *s, const spart_contact *c, int nc, int nf, double *x) {
  if (c) {
    const spart_stance stance = {nc, c, SPART_CONTACT_EDGES};
    if (nc != nf) {
      cli_fail(s, "contact_forces: %d rows, the contacts give %d points", nf, nc);
      return -1;
    }
    spart_contact_points(s->m, s->d, &stance, x);
    return 0;
  }
  if (!s->gravity) {
    cli_fail(s, "contact_forces: their points on the ground need --gravity");
    return -1;
  }
  int n = spart_ground_points(s->m, s->d, s->gravity, x, nf);
  if (n != nf) {
    cli_fail(s, "contact_forces: %d rows, the model's collision shapes have %d contact points "
                "(give the record's contacts)", nf, n);
    return -1;
  }
  return 0;
}


/* the record's contact forces as arrows from their points, the scale set at the first: the
   robot's weight (the largest force without gravity) its size, rounded to 1, 2 or 5 times
   a power of ten */
static void forces(cli_session *s, const spart_contact *c, int nc, double size) {
  double *f, *x;
  int nf = cli_contact_forces(s, &f);
  if (nf <= 0) {
    free(f);
    return;
  }
  x = malloc(3 * (size_t)nf * sizeof *x);
  oom |= !x;
  if (x && forces_at(s, c, nc, nf, x) == 0) {
    if (per_m == 0) {
      double w = 0, e;
      for (int i = 0; s->gravity && i < s->m->nb; i++) {
        w += s->m->body_mass[i];
      }
      w *= s->gravity ? sqrt(s->gravity[0] * s->gravity[0] + s->gravity[1] * s->gravity[1] +
                             s->gravity[2] * s->gravity[2])
                      : 0;
      for (int j = 0; !(w > 0) && j < nf; j++) {
        w = fmax(w, sqrt(f[3 * j] * f[3 * j] + f[3 * j + 1] * f[3 * j + 1] +
                         f[3 * j + 2] * f[3 * j + 2]));
      }
      per_m = w > 0 ? w / size : 1;
      e = pow(10, floor(log10(per_m)));
      per_m = per_m / e > 5 ? 10 * e : per_m / e > 2 ? 5 * e : per_m / e > 1 ? 2 * e : e;
      char note[96];
      snprintf(note, sizeof note, "contact forces: %g N a metre of arrow", per_m);
      pic.note = strdup(note);
      oom |= !pic.note;
    }
    for (int j = 0; j < nf; j++) {
      double a[3], b[3];
      if (f[3 * j] == 0 && f[3 * j + 1] == 0 && f[3 * j + 2] == 0) {
        continue; /* a contact apart */
      }
      spart_world(s->d, x + 3 * j, a);
      for (int k = 0; k < 3; k++) {
        b[k] = a[k] + f[3 * j + k] / per_m;
      }
      segment(CLI_SVG_FORCE, a, b);
    }
  }
  free(x);
  free(f);
}


/* shape s2's faces, shaded, or its dot (a point) */
static void shape(const spart_model *m, const spart_data *d, int s2, int cls, double size,
                  double *xyz, int *nvert) {
  double uv[2 * (SPART_OUTLINE_MAX > SPART_FACET ? SPART_OUTLINE_MAX : SPART_FACET)], depth;
  spart_faces out = {xyz, nvert, SPART_FACES_MAX, SPART_FACE_VERTS_MAX};
  int nf = spart_shape_faces(m, d, s2, size / 8, &out);
  oom |= nf == -SPART_ENOMEM;
  if (nf == 0 && spart_shape_outline(m, d, s2, opt->view, uv, &depth) == 1) {
    add(cls, depth, uv, 1, size / 100); /* a point: a dot */
  }
  for (int k = 0, v = 0; k < nf; v += nvert[k++]) {
    double shade = spart_view_face(opt->view, xyz + 3 * v, nvert[k], uv, &depth);
    cli_svg_item *it = shade >= 0 ? add(cls, depth, uv, nvert[k], 0) : NULL;
    if (it) {
      it->shade = shade;
    }
  }
}


/* the skeleton: each joint shown from its nearest ancestor shown (the base: its URDF link
   frame's origin), a dot on those that move, their axes; with --labels the links' names */
static void skeleton(const spart_model *m, spart_data *d, double size) {
  double a[3], b[3], R[9], o[3];
  for (int i = opt->labels ? 0 : 1; i < m->nb; i++) {
    int show = opt->frames_all ? 2 : spart_view_joint(m, i), p = m->body_parent[i];
    if (i > 0 && show == 0) {
      continue;
    }
    while (!opt->frames_all && p > 0 && spart_view_joint(m, p) == 0) {
      p = m->body_parent[p];
    }
    spart_link_pose(m, d, i, R, b);
    if (i > 0) {
      if (p <= 0) {
        spart_link_frame(m, d, 0, R, o);
        spart_world(d, o, a);
      } else {
        spart_world(d, d->xposJ + 3 * p, a);
      }
      spart_world(d, d->xposJ + 3 * i, b);
      segment(CLI_SVG_BONE, a, b);
    }
    spart_view_project(opt->view, b, o);
    if (opt->labels) {
      cli_svg_item *it = add(CLI_SVG_LABEL, o[2], o, 1, 0);
      if (it) {
        it->text = strdup(m->body_name[i]);
        oom |= !it->text;
      }
    }
    if (i > 0 && show == 2) {
      if (spart_joint_has_axis(m->jnt_type[i])) {
        for (int k = 0; k < 3; k++) {
          a[k] = b[k] + 0.08 * size * d->xaxis[3 * i + k];
        }
        segment(CLI_SVG_AXIS, b, a);
      }
      add(CLI_SVG_JOINT, o[2], o, 1, size / 100);
    }
  }
}


/* the picture of the current record, a frame */
static void draw(cli_session *s, double *xyz, int *nvert) {
  const spart_model *m = s->m;
  spart_data *d = s->d;
  const cli_state *st = s->st;
  double a[3], size, centre[3];
  spart_fk(m, d, &st->x);
  size = spart_view_size(m, d, centre);
  /* the ground: a grid about the robot's foot */
  if (s->gravity && !opt->no_ground) {
    double seg[6 * 64];
    int n = spart_view_grid(s->gravity, centre, 0.4 * size, seg, 64);
    for (int k = 0; k < n && k < 64; k++) {
      segment(CLI_SVG_GROUND, seg + 6 * k, seg + 6 * k + 3);
    }
  }
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
      shape(m, d, s2, cls, size, xyz, nvert);
    }
  }
  skeleton(m, d, size);
  at(d, d->com, a);
  add(CLI_SVG_COM, a[2], a, 1, size / 70);
  /* contacts (the record's, then --stance's): the support polygon, the contact points, and the
     contact forces at their points */
  spart_contact *c = NULL;
  int cap = 0, nc = 0;
  const int with = st->contacts || opt->stance;
  if (with && ((st->contacts && cli_contacts(s, &c, &cap, &nc) != 0) ||
               (opt->stance && cli_stance_contacts(s, &opt->held, 0, &c, &cap, &nc) != 0))) {
    free(c);
    c = NULL;
  } else if (with) {
    if (!s->gravity) {
      cli_fail(s, "contacts: the support polygon needs --gravity");
    } else {
      support(s, c, nc, size);
    }
  }
  if (!s->stop && (!with || c)) {
    forces(s, c, nc, size);
  }
  free(c);
}


/* each record's picture; a record that fails while drawn (its contacts) leaves none */
static void records(cli_session *s) {
  double *xyz = malloc(3 * SPART_FACE_VERTS_MAX * sizeof *xyz);
  int *nvert = malloc(SPART_FACES_MAX * sizeof *nvert);
  if (!xyz || !nvert) {
    oom = 1;
  }
  while (!oom && cli_next(s)) {
    long bad = s->nbad;
    double t = NAN;
    draw(s, xyz, nvert);
    if (s->nbad != bad) {
      cli_svg_drop(&pic, 0);
    } else if (cli_record_number(s->rec, "t", &t) != 1) {
      t = NAN;
    }
    if (s->nbad == bad && cli_svg_frame(&pic, t) != 0) {
      oom = 1;
    }
  }
  free(xyz);
  free(nvert);
}


/* 1 when a link has a mesh not found and no shape that draw() can draw */
static int bare_link(const spart_model *m) {
  for (int i = 0; i < m->nb; i++) {
    int missing = 0, drawn = 0;
    for (int k = 0; k < m->nshape; k++) {
      if (m->shape_body[k] == i) {
        int mesh = m->shape_kind[k] == SPART_SHAPE_MESH;
        missing |= mesh && m->shape_mesh[k] == SPART_MESH_MISSING;
        drawn |= !mesh || m->shape_mesh[k] == SPART_MESH_READ;
      }
    }
    if (missing && !drawn) {
      return 1;
    }
  }
  return 0;
}


int main(int argc, char **argv) {
  draw_opts o = {.view = SPART_VIEW_SIDE};
  int status;
  cli_session *s = cli_session_start(&tool, &o, argc, argv, &status);
  if (!s) {
    cli_stance_free(&o.held);
    return status;
  }
  opt = &o;
  if (cli_svg_start(&pic) != 0) {
    cli_error(tool.name, NULL, 0, "a temporary file for the picture: %s", strerror(errno));
    s->status = CLI_EXIT_IO;
    return cli_session_close(s);
  }
  pic.fixed = o.fixed;
  memcpy(pic.box, o.box, sizeof pic.box);
  records(s);
  /* the picture, when every record was read: of those drawn, every one or with --keep-going
     the good ones, maybe none (an empty picture); written before the session closes stdout */
  int whole =
      s->status == CLI_EXIT_OK || (s->o.keep_going && !s->stop && s->status == CLI_EXIT_DATA);
  if (oom) {
    cli_error(tool.name, NULL, 0, "out of memory, or the picture's temporary file failed");
    s->status = CLI_EXIT_IO;
  } else if (whole && cli_svg_write(stdout, &pic, o.frames, 1.0)) {
    s->status = CLI_EXIT_IO;
  } else if (whole && s->m && bare_link(s->m)) {
    /* a link left with nothing to draw, its meshes not found: one line for them all */
    char *missing = cli_missing_meshes(s->m, "not drawn");
    cli_error(tool.name, NULL, 0, "warning: %s", missing ? missing : "meshes not found");
    free(missing);
  }
  cli_svg_free(&pic);
  cli_stance_free(&o.held);
  return cli_session_close(s);
}
