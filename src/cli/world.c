/* world.c -- spart-sim's world: a controller of the joints (--control, --kp, --kd, --reference)
 * and a ground with compliant contact (--ground, --mu, --stiffness, --damping, --slip,
 * --tangential-stiffness, --tangential-damping, --contact-forces); their options, the
 * reference file read, the contact spheres of the model's collision shapes, the contact forces
 * written, the effort limits' report */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "spart_text.h"

struct cli_world {
  const cli_world_opts *o; /* its options */
  spart_scene *scene;
  spart_control *control;
  spart_ground ground;
  spart_reference ref;
  double *t, *qm, *um, *umdot; /* the reference's records */
  double *kp, *kd;             /* (nv) */
  int *body;                   /* (n) the contact spheres */
  unsigned char *seen;         /* (n) those found in the ground (spart_ground's seen) */
  double *centre, *radius;
  double *force, *wF; /* (n x 3) the contact forces written; (nb x 6) scratch */
};


/* whether s is four comma-separated numbers, finite or not (--ground's plane) */
static int plane_like(const char *s) {
  const char *p = s;
  for (int k = 0; k < 4; k++) {
    char *end;
    (void)strtod(p, &end);
    if (end == p || *end != (k < 3 ? ',' : '\0')) {
      return 0;
    }
    p = end + 1;
  }
  return 1;
}


int cli_world_control(const cli_arg *a) {
  int *law = a->at;
  *law = strcmp(a->value, "pd") == 0        ? SPART_CONTROL_PD
         : strcmp(a->value, "ctc") == 0     ? SPART_CONTROL_CTC
         : strcmp(a->value, "gravity") == 0 ? SPART_CONTROL_GRAVITY
                                            : 0;
  return *law ? -1
              : cli_usage(a->tool->name, "--control: expected pd, ctc or gravity, got '%s'",
                          a->value);
}


int cli_world_ground(const cli_arg *a) {
  cli_world_opts *w = a->at;
  const char *arg = a->value, *prog = a->tool->name;
  w->ground = 1;
  /* --ground NX,NY,NZ,D as well as --ground=NX,NY,NZ,D */
  if (!arg && optind < a->argc && plane_like(a->argv[optind])) {
    arg = a->argv[optind++];
  }
  if (arg) {
    if (cli_vec(arg, w->plane, 4) != 0 || !(spart_ground_plane(w->plane) > 0)) {
      return cli_bad_number(prog, "--ground", "NX,NY,NZ,D with a normal that is not zero", arg);
    }
    if (!isfinite(w->plane[3])) {
      return cli_usage(prog, "--ground: the plane's distance from 0, D / |N|, is not finite: "
                       "'%s'", arg);
    }
    w->has_plane = 1;
  }
  return -1;
}


int cli_world_check(const cli_world_opts *w, int mimic, const char *prog) {
  /* the ground's numbers, given when not NaN */
  static const char *const number[] = {"--mu",   "--stiffness",          "--damping",
                                       "--slip", "--tangential-stiffness", "--tangential-damping"};
  const double v[] = {w->mu, w->stiffness, w->damping, w->slip, w->tstiffness, w->tdamping};
  int given = 0, has_gains = w->kp || w->kd;
  while (given < 6 && isnan(v[given])) {
    given++;
  }
  if (w->control == SPART_CONTROL_GRAVITY && (has_gains || w->reference)) {
    return cli_usage(prog, "--control gravity takes no %s",
                     w->reference ? "--reference"
                     : w->kp      ? "--kp"
                                  : "--kd");
  }
  if (w->control && w->control != SPART_CONTROL_GRAVITY && !(w->kp && w->kd && w->reference)) {
    return cli_usage(prog, "--control %s needs %s", w->control == SPART_CONTROL_PD ? "pd" : "ctc",
                     !w->kp   ? "--kp"
                     : !w->kd ? "--kd"
                              : "--reference FILE");
  }
  if (!w->control && (has_gains || w->reference)) {
    return cli_usage(prog, "%s does nothing without --control",
                     w->kp   ? "--kp"
                     : w->kd ? "--kd"
                             : "--reference");
  }
  if (!w->ground && (given < 6 || w->contact_forces)) {
    return cli_usage(prog, "%s does nothing without --ground",
                     given < 6 ? number[given] : "--contact-forces");
  }
  if (!isnan(w->slip) && (!isnan(w->tstiffness) || !isnan(w->tdamping))) {
    return cli_usage(prog,
                     "%s with --slip: the regularised friction that --slip chooses has no "
                     "tangential spring",
                     !isnan(w->tstiffness) ? "--tangential-stiffness" : "--tangential-damping");
  }
  if ((w->control || w->ground) && mimic) {
    return cli_usage(prog,
                     "%s with --mimic: the controller and the ground act on the tree's "
                     "joints, not on coupled ones",
                     w->control ? "--control" : "--ground");
  }
  return -1;
}


/* --ground: one line naming the links whose collision shapes are all meshes not read, which the
   ground does not touch (a robot's feet among them would sink through it); none when no shape
   gives a contact (the ground then refuses the model) */
static void untouchable(cli_session *s) {
  const spart_model *m = s->m;
  char list[1024];
  size_t at = 0;
  int nlink = 0;
  list[0] = 0;
  if (spart_ground_spheres(m, NULL, NULL, NULL, 0) == 0) {
    return;
  }
  for (int i = 0; i < m->nb; i++) {
    int ncol = 0, nmesh = 0;
    for (int k = 0; k < m->nshape; k++) {
      if (m->shape_body[k] == i && m->shape_role[k] == SPART_SHAPE_COLLISION) {
        ncol++;
        nmesh += m->shape_kind[k] == SPART_SHAPE_MESH && m->shape_mesh[k] != SPART_MESH_READ;
      }
    }
    if (ncol > 0 && nmesh == ncol) {
      int w = snprintf(list + at, sizeof list - at, "%s'%s'", nlink ? ", " : "", m->body_name[i]);
      at = w > 0 && (size_t)w < sizeof list - at ? at + (size_t)w : at;
      nlink++;
    }
  }
  if (nlink > 0) {
    cli_error(s->tool->name, NULL, 0, "--ground: %s whose collision shapes are all meshes not "
              "read, which the ground does not touch (spheres, boxes, capsules, cylinders and the "
              "meshes read it does): %s", nlink > 1 ? "links" : "a link", list);
  }
}


int cli_world_read(cli_session *s, const cli_world_opts *w, char **text, size_t *len) {
  const char *name = w->reference;
  *text = NULL;
  *len = 0;
  if (w->ground && s->m) {
    untouchable(s);
  }
  if (!name) {
    return 0;
  }
  FILE *f = strcmp(name, "-") == 0 ? NULL : fopen(name, "r");
  if (!f) {
    cli_error(s->tool->name, NULL, 0, "--reference: cannot open %s: %s", name,
              strcmp(name, "-") == 0 ? "the states come on standard input" : strerror(errno));
    s->status = CLI_EXIT_DATA;
    return -1;
  }
  return cli_read_whole(s, f, name, text, len);
}


/* --kp or --kd (opt): one number for all or one a velocity coordinate, each >= 0, into g (nv);
   0, or -1 after reporting */
static int gains(cli_session *s, const char *opt, const char *text, double *g) {
  const int nv = s->m->nv;
  int n = 1;
  for (const char *p = text; *p; p++) {
    n += *p == ',';
  }
  const char *inf = cli_not_finite(text);
  if (inf || (n != 1 && n != nv) || cli_vec(text, g, n) != 0) {
    if (inf) {
      cli_error(s->tool->name, NULL, 0, "%s: '%s' %s", opt, text, inf);
    } else {
      cli_error(s->tool->name, NULL, 0,
                "%s: expected one gain or %d (one a velocity coordinate), "
                "got '%s'",
                opt, nv, text);
    }
    s->status = CLI_EXIT_USAGE;
    return -1;
  }
  for (int k = 0; k < n; k++) {
    if (!(g[k] >= 0)) {
      cli_error(s->tool->name, NULL, 0, "%s: a gain < 0: '%s'", opt, text);
      s->status = CLI_EXIT_USAGE;
      return -1;
    }
  }
  for (int k = n; k < nv; k++) {
    g[k] = g[0];
  }
  return 0;
}


/* the reference's records from text into w (grown as they come); 0, or -1 after reporting */
static int reference(cli_session *s, cli_world *w, const char *text, size_t len) {
  const char *name = w->o->reference, *prog = s->tool->name;
  const size_t nq = (size_t)s->m->nq, nv = (size_t)s->m->nv;
  FILE *f = fmemopen((void *)text, len, "r");
  cli_reader *rd =
      f ? cli_reader_new(f, name, CLI_FMT_AUTO, 0, CLI_READS(qm) | CLI_READS(um) | CLI_READS(umdot))
        : NULL;
  int n = 0, cap = 0, rc = 0;
  unsigned has = 0;
  if (!rd) {
    cli_error(prog, NULL, 0, "out of memory");
    s->status = CLI_EXIT_IO;
    rc = -1;
  }
  while (rc == 0) {
    spart_err err = {0};
    spart_model *m = s->m;
    cli_record *rec = NULL; /* set only when a record was read (r > 0) */
    double t;
    int r = cli_read(rd, &m, &rec, &err);
    const cli_state *st = r > 0 ? &rec->st : NULL;
    if (r == 0) {
      break;
    }
    const char *bad = NULL;
    unsigned h = r > 0 ? st->has & (CLI_READS(qm) | CLI_READS(um) | CLI_READS(umdot)) : 0;
    int pr = r < 0 ? 0 : cli_record_number(rec, "t", &t);
    if (r < 0) {
      bad = err.msg;
    } else if (pr <= 0) {
      bad = pr < 0 ? "t is not a finite number" : "no time 't'";
    } else if (nq > 0 && !(h & CLI_READS(qm))) {
      bad = "no qm: a reference gives the joints' positions";
    } else if (n > 0 && h != has) {
      bad = "um and umdot given in some records and not in others";
    } else if (n > 0 && !(t > w->t[n - 1])) {
      bad = "times must increase";
    }
    if (bad) {
      cli_error(prog, name, r < 0 ? err.line : st->line, "%s", bad);
      s->status = r < 0 && err.code != SPART_EDATA ? CLI_EXIT_IO : CLI_EXIT_DATA;
      rc = -1;
      break;
    }
    /* nothing but t and the joints' states: another key would be dropped unread */
    if (cli_only_time(s, rd, rec, name, "a reference's", "t, qm and optionally um, umdot") != 0) {
      rc = -1;
      break;
    }
    has = h;
    if (n == cap) {
      cap = cap ? 2 * cap : 256;
      double *p[4] = {realloc(w->t, (size_t)cap * sizeof(double)),
                      realloc(w->qm, (size_t)cap * (nq + 1) * sizeof(double)),
                      realloc(w->um, (size_t)cap * (nv + 1) * sizeof(double)),
                      realloc(w->umdot, (size_t)cap * (nv + 1) * sizeof(double))};
      w->t = p[0] ? p[0] : w->t;
      w->qm = p[1] ? p[1] : w->qm;
      w->um = p[2] ? p[2] : w->um;
      w->umdot = p[3] ? p[3] : w->umdot;
      if (!p[0] || !p[1] || !p[2] || !p[3]) {
        cli_error(prog, NULL, 0, "out of memory");
        s->status = CLI_EXIT_IO;
        rc = -1;
        break;
      }
    }
    w->t[n] = t;
    memcpy(w->qm + (size_t)n * nq, st->x.qm, nq * sizeof(double));
    memcpy(w->um + (size_t)n * nv, st->x.um, nv * sizeof(double));
    memcpy(w->umdot + (size_t)n * nv, st->x.umdot, nv * sizeof(double));
    n++;
  }
  if (rc == 0 && n == 0) {
    cli_error(prog, name, 0, "no records: expected a time t, qm, and optionally um, umdot");
    s->status = CLI_EXIT_DATA;
    rc = -1;
  }
  cli_reader_free(rd);
  if (f) {
    fclose(f);
  }
  w->ref.n = n;
  w->ref.t = w->t;
  w->ref.qm = w->qm;
  w->ref.um = has & CLI_READS(um) ? w->um : NULL;
  w->ref.umdot = has & CLI_READS(umdot) ? w->umdot : NULL;
  return rc;
}


/* why a model gives the ground no contact spheres: no collision shapes, or meshes not read
   only, reported */
static void no_contacts(const cli_session *s) {
  static const char *const state[] = {"", "", "was not found",
                                      "is of a format that is not read"};
  const spart_model *m = s->m;
  const char *link;
  int nmesh = 0, first = -1;
  for (int k = 0; k < m->nshape; k++) {
    if (m->shape_role[k] == SPART_SHAPE_COLLISION) { /* all meshes: none gave a sphere */
      first = first < 0 ? k : first;
      nmesh++;
    }
  }
  if (first < 0) {
    cli_error(s->tool->name, NULL, 0, "--ground: the model has no collision shapes to touch it");
    return;
  }
  link = m->body_name[m->shape_body[first]];
  cli_error(s->tool->name, NULL, 0, "--ground: the model's %d collision shape%s not read, "
            "which the ground cannot touch; the first, '%s' on link '%s', %s", nmesh,
            nmesh > 1 ? "s are meshes" : " is a mesh",
            m->shape_file[first], link ? link : "?", state[m->shape_mesh[first]]);
}


/* the ground: its plane, the contact spheres of the model's collision shapes, the parameters
   given or their defaults; 0, or -1 after reporting */
static int ground(cli_session *s, cli_world *w) {
  const cli_world_opts *o = w->o;
  const spart_model *m = s->m;
  spart_ground *g = &w->ground;
  int n = spart_ground_spheres(m, NULL, NULL, NULL, 0);
  w->body = malloc(((size_t)n + 1) * sizeof(int));
  w->centre = malloc(((size_t)n + 1) * 4 * sizeof(double));
  w->force = calloc(3 * (size_t)n + 1, sizeof(double));
  w->wF = calloc(6 * (size_t)m->nb, sizeof(double));
  w->seen = calloc((size_t)n + 1, 1);
  if (!w->body || !w->centre || !w->force || !w->wF || !w->seen) {
    cli_error(s->tool->name, NULL, 0, "out of memory");
    s->status = CLI_EXIT_IO;
    return -1;
  }
  w->radius = w->centre + 3 * ((size_t)n + 1);
  spart_ground_spheres(m, w->body, w->centre, w->radius, n);
  if (n == 0) {
    no_contacts(s);
    s->status = CLI_EXIT_DATA;
    return -1;
  }
  /* the parameters given (the plane too), the others NaN: their defaults the library's */
  g->n = n;
  g->body = w->body;
  g->centre = w->centre;
  g->radius = w->radius;
  g->seen = w->seen;
  if (o->has_plane) {
    memcpy(g->normal, o->plane, 3 * sizeof(double));
    g->offset = o->plane[3];
  } else {
    g->normal[0] = NAN; /* through 0 against gravity */
  }
  g->stiffness = o->stiffness;
  g->damping = o->damping;
  g->mu = o->mu;
  g->law = isnan(o->slip) ? SPART_GROUND_STICK : SPART_GROUND_SLIP;
  g->slip = isnan(o->slip) ? 0 : o->slip;
  g->tstiffness = o->tstiffness;
  g->tdamping = o->tdamping;
  g->implicit = o->implicit;
  int r = spart_ground_defaults(m, s->gravity, g);
  if (r == -1) {
    cli_error(s->tool->name, NULL, 0, "--ground without a plane is the one through 0 against "
              "gravity%s, or the plane NX,NY,NZ,D", s->gravity ? ", which is zero: give a "
              "gravity that is not" : ": give --gravity");
    s->status = CLI_EXIT_USAGE;
    return -1;
  }
  if (r != 0) {
    cli_error(s->tool->name, NULL, 0,
              "--ground: the model has no mass: give --stiffness, --damping and "
              "--tangential-damping");
    s->status = CLI_EXIT_DATA;
    return -1;
  }
  return 0;
}


void cli_world_close(cli_session *s, cli_world *w) {
  if (!w) {
    return;
  }
  spart_control *c = w->control;
  if (c && c->nclip > 0 && s) {
    int i = s->m->dof_body[c->vclip];
    char bt[32];
    bt[spu_dtoa(bt, c->tclip)] = 0;
    cli_error(s->tool->name, cli_reader_name(s->rd), s->st->line,
              "the controller's forces met the effort limits and were clipped in %ld of %ld "
              "evaluations, first at t = %s on joint %d '%s'",
              c->nclip, c->neval, bt, i, s->m->jnt_name[i]);
  }
  spart_scene_free(w->scene);
  spart_control_free(c);
  free(w->t);
  free(w->qm);
  free(w->um);
  free(w->umdot);
  free(w->kp);
  free(w->body);
  free(w->centre);
  free(w->force);
  free(w->wF);
  free(w->seen);
  free(w);
}


cli_world *cli_world_open(cli_session *s, const cli_world_opts *o, const char *text, size_t len) {
  const spart_model *m = s->m;
  cli_world *w = calloc(1, sizeof(*w));
  if (!w || !(w->scene = spart_scene_new(m))) {
    cli_error(s->tool->name, NULL, 0, "out of memory");
    s->status = CLI_EXIT_IO;
    cli_world_close(NULL, w);
    return NULL;
  }
  w->o = o;
  if (o->control == SPART_CONTROL_GRAVITY && !s->gravity) {
    cli_error(s->tool->name, NULL, 0, "--control gravity does nothing without --gravity");
    s->status = CLI_EXIT_USAGE;
    cli_world_close(NULL, w);
    return NULL;
  }
  if (o->control) {
    spart_control *c = w->control = spart_control_new(m);
    w->kp = calloc(2 * (size_t)m->nv + 1, sizeof(double));
    if (!c || !w->kp) {
      cli_error(s->tool->name, NULL, 0, "out of memory");
      s->status = CLI_EXIT_IO;
      cli_world_close(NULL, w);
      return NULL;
    }
    w->kd = w->kp + m->nv;
    if ((o->kp && (gains(s, "--kp", o->kp, w->kp) != 0 || gains(s, "--kd", o->kd, w->kd) != 0)) ||
        (o->reference && reference(s, w, text, len) != 0)) {
      cli_world_close(NULL, w);
      return NULL;
    }
    c->law = o->control;
    c->kp = w->kp;
    c->kd = w->kd;
    c->ref = &w->ref;
    c->flags = (s->o.fixed_base ? SPART_FD_FIXED : 0) | (s->o.no_friction ? 0 : SPART_FD_FRICTION);
    c->gravity = s->gravity;
    w->scene->control = c;
  }
  if (o->ground) {
    if (ground(s, w) != 0) {
      cli_world_close(NULL, w);
      return NULL;
    }
    w->scene->ground = &w->ground;
  }
  return w;
}


spart_scene *cli_world_scene(cli_world *w) {
  return w && (w->scene->control || w->scene->ground) ? w->scene : NULL;
}


void cli_world_put(cli_session *s, cli_world *w, const spart_sim *sim) {
  if (!w || !w->o->contact_forces) {
    return;
  }
  const spart_model *m = s->m;
  memset(w->wF, 0, 6 * (size_t)m->nb * sizeof(double));
  const spart_ground_out out = {w->wF, w->force, NULL};
  spart_ground_forces(m, s->d, &w->ground, sim->x, sim->nz > 0 ? sim->z : NULL, &out);
  cli_put(s->wr, "contact_forces", w->force, w->ground.n, 3, -1);
}
