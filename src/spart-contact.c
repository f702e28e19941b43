/* spart-contact -- contact statics: force closure, the support polygon, CoM equilibrium, and the
 * torques and contact forces that hold a robot on its contacts */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* its own options */
typedef struct contact_opts {
  int edges;          /* --edges K: friction cone edges (SPART_CONTACT_EDGES) */
  double max_torque;  /* --max-torque T, or 0 for none */
  const char *stance; /* --stance FILE, or NULL */
  cli_stance held;    /* its holds (resolve): their contacts are every record's */
  const char *write;  /* --write-stance FILE, or NULL */
  cli_memfile made;   /* the stance made of the record (its text), when made */
} contact_opts;


/* --edges K: a whole number 3..SPART_CONTACT_MAXEDGES */
static int edges_arg(const cli_arg *a) {
  double k;
  if (cli_vec(a->value, &k, 1) != 0 || k != floor(k) || k < 3 || k > SPART_CONTACT_MAXEDGES) {
    return cli_usage(a->tool->name, "--edges: expected a whole number 3..%d, got '%s'",
                     SPART_CONTACT_MAXEDGES, a->value);
  }
  *(int *)a->at = (int)k;
  return -1;
}


/* --max-torque T > 0 */
static int max_torque_arg(const cli_arg *a) {
  double *t = a->at;
  if (cli_vec(a->value, t, 1) != 0 || !(*t > 0)) {
    return cli_usage(a->tool->name, "--max-torque: expected a number > 0, got '%s'", a->value);
  }
  return -1;
}


/* --stance and --write-stance need the model of -m (the stance's links are resolved before the
   records); --write-stance's one record is one thread's */
static int check(const cli_tool *t, void *own, cli_opts *o) {
  const contact_opts *k = own;
  int r = k->stance ? cli_stance_needs_model(t, "stance", o) : -1;
  r = r < 0 && k->write ? cli_stance_needs_model(t, "write-stance", o) : r;
  o->jobs = k->write ? 1 : o->jobs; /* one record: one thread */
  return r;
}


/* --stance: its holds, once the model is read */
static int resolve(cli_session *s) {
  contact_opts *o = s->o.own;
  return o->stance ? cli_stance_read(s, o->stance, &o->held) : 0;
}


static const cli_option options[] = {
    CLI_SHARED("gravity", "      --gravity G      gx,gy,gz (required, not zero; not for --only "
                          "force_closure)\n"),
    {"edges", 0, CLI_ARG_ONE, edges_arg, offsetof(contact_opts, edges), 0, 0, NULL,
     "      --edges K        friction cone edges, 3..64 (default 8)\n"},
    {"max-torque", 0, CLI_ARG_ONE, max_torque_arg, offsetof(contact_opts, max_torque), 0, 0, NULL,
     "      --max-torque T   bound every |taum_k| by T (default: each joint's effort limit)\n"},
    {"stance", 0, CLI_ARG_ONE, cli_opt_text, offsetof(contact_opts, stance), 1, 0, NULL,
     "      --stance FILE    add the contacts of the stance's holds to every record's (Klampt's\n"
     "                       holds; a record may then give none)\n"},
    {"write-stance", 0, CLI_ARG_ONE, cli_opt_text, offsetof(contact_opts, write), 1, 0, NULL,
     "      --write-stance FILE  write the stance of the input's one record to FILE: a hold\n"
     "                       for each link it touches, keeping the link at its pose\n"},
    CLI_SHARED("fixed-base", "      --fixed-base     the base is held: its reaction is free, the "
                             "joints' rows only\n"),
    CLI_SHARED("floating-base", NULL),
    CLI_SHARED("no-friction", "      --no-friction    leave out the joints' friction at the "
                              "record's velocities\n"),
    CLI_END};

static const cli_tool tool = {
    .name = "spart-contact",
    .synopsis = "[OPTIONS] --gravity G [-m MODEL] < STATES",
    .help =
        "Contact statics (Klampt's contact mechanics), by linear programs (GLPK).  Each state\n"
        "record carries \"contacts\": [{\"link\": NAME or ID, \"point\": [x,y,z] (the link's "
        "URDF\n"
        "frame), \"normal\": [nx,ny,nz] (inertial, into the robot), \"mu\": MU}, ...].  JSON "
        "input\n"
        "and output only.  Friction cones are polyhedral: K edges inscribed in the circular "
        "cone.\n\n"
        "Outputs: force_closure (true/false); com_equilibrium (true/false); support_polygon\n"
        "(vertices [x,y] counter-clockwise seen against gravity, in the plane orthogonal to it;\n"
        "null when unbounded); support_halfplanes ([a1,a2,b]: a.x <= b, |a| = 1); com_margin\n"
        "(the CoM's signed distance to the polygon's boundary, < 0 outside; null without one);\n"
        "feasible (true/false); taum (n_v) and contact_forces (n x 3, inertial) holding the\n"
        "robot (G = [0; taum] + sum J_i' f_i, G from inverse dynamics at the record's state),\n"
        "minimising max |taum_k|; or, when none exist, reason.\n\n",
    .options = options,
    .reads = CLI_READS_VEL | CLI_READS(u0dot) | CLI_READS(umdot) | CLI_READS_WRENCH |
             CLI_READS_CONTACTS | CLI_NEEDS_CONTACTS,
    .outputs = "force_closure,com_equilibrium,support_polygon,support_halfplanes,com_margin,"
               "feasible,taum,contact_forces,reason",
    .check = check,
    .resolve = resolve};


static const char *truth(int b) {
  return b ? "true" : "false";
}


/* whether --only asks for one of the outputs in names (comma-separated): a program no output
   needs is not solved */
static int wanted(const cli_session *s, const char *names) {
  for (const char *p = names; *p; p += *p == ',') {
    size_t n = strcspn(p, ",");
    if (!s->o.only || cli_listed(s->o.only, p, n)) {
      return 1;
    }
    p += n;
  }
  return 0;
}


/* the record's contact statics, written; c: its nc contacts */
static void statics(cli_session *s, const spart_contact *c, int nc, char *reason, size_t nr) {
  const contact_opts *o = s->o.own;
  const spart_model *m = s->m;
  const cli_state *st = s->st;
  int ng = nc * o->edges, cap = 4 * ng + 16;
  double *G = cli_session_buf(s, 0, 6 + (size_t)m->nv);
  double *vert = cli_session_buf(s, 1, 2 * (size_t)cap);
  double *half = cli_session_buf(s, 2, 3 * (size_t)cap);
  double *out = cli_session_buf(s, 3, (size_t)m->nv + 3 * (size_t)nc);
  spart_err err = {0};
  spart_support sp = {.cap = cap, .vert = vert, .half = half, .margin = NAN};
  if (!G || !vert || !half || !out) {
    return;
  }
  const spart_stance stance = {nc, c, o->edges};
  spart_statics eq = {s->o.fixed_base, o->max_torque, out, out + m->nv, NULL};

  /* what the motion needs without contacts, then the kinematics the contacts need */
  spart_rnea(m, s->d, &st->x, s->gravity, G);
  if (!s->o.no_friction) {
    spart_friction(m, st->x.um, 1, G + 6);
  }
  spart_fk(m, s->d, &st->x);
  int fc = 0, ok = 0, feas = 0;
  if (wanted(s, "force_closure")) {
    fc = spart_force_closure(m, s->d, &stance, &err);
  }
  if (fc >= 0 && wanted(s, "com_equilibrium,support_polygon,support_halfplanes,com_margin")) {
    ok = spart_support_polygon(m, s->d, &stance, s->gravity, &sp, &err);
  }
  if (fc >= 0 && ok >= 0 && wanted(s, "feasible,taum,contact_forces,reason")) {
    feas = spart_contact_statics(m, s->d, &stance, G, &eq, &err);
  }
  if (fc < 0 || ok < 0 || feas < 0) {
    cli_fail(s, "%s", err.msg);
    return;
  }
  cli_put_text(s->wr, "force_closure", truth(fc));
  cli_put_text(s->wr, "com_equilibrium", truth(sp.com_eq));
  if (sp.bounded) {
    cli_put(s->wr, "support_polygon", sp.vert, sp.nvert, 2, -1);
    cli_put(s->wr, "support_halfplanes", sp.half, sp.nhalf, 3, -1);
  } else {
    cli_put_text(s->wr, "support_polygon", "null");
    cli_put_text(s->wr, "support_halfplanes", "null");
  }
  if (isnan(sp.margin)) {
    cli_put_text(s->wr, "com_margin", "null");
  } else {
    cli_put(s->wr, "com_margin", &sp.margin, -1, -1, -1);
  }
  cli_put_text(s->wr, "feasible", truth(feas));
  if (feas) {
    cli_put(s->wr, "taum", out, m->nv, -1, -1);
    cli_put(s->wr, "contact_forces", out + m->nv, nc, 3, -1);
  } else if (eq.reason) {
    snprintf(reason, nr, "\"%s\"", eq.reason);
    cli_put_text(s->wr, "reason", reason);
  }
  cli_write(s);
}


/* the record's contacts (none with --stance but the holds') and the stance's after them into
   *c (grown, *cap), *nc of them; 0, or -1 after reporting */
static int contacts(cli_session *s, spart_contact **c, int *cap, int *nc) {
  const contact_opts *o = s->o.own;
  *nc = 0;
  if ((s->st->contacts || !o->stance) && cli_contacts(s, c, cap, nc) != 0) {
    return -1;
  }
  return o->stance ? cli_stance_contacts(s, &o->held, 1, c, cap, nc) : 0;
}


/* --write-stance: the stance of the record (of its contacts c) made, the input's first; a
   second record is refused */
static void make_stance(cli_session *s, const spart_contact *c, int nc) {
  contact_opts *o = s->o.own;
  if (o->made.text) {
    cli_fail(s, "--write-stance: a stance is one record's, and the input has more");
  } else {
    cli_stance_text(s, c, nc, &o->made);
  }
}


/* the records of the input (or of a block of it, with -j: the linear programs' memory is each
   thread's, released with the block); --write-stance's file written when the input was its one
   good record */
static void records(cli_session *s) {
  contact_opts *o = s->o.own;
  spart_contact *c = NULL;
  int cap = 0, nc;
  char reason[128];
  while (cli_next(s)) {
    long bad = s->nbad;
    if (contacts(s, &c, &cap, &nc) == 0) {
      statics(s, c, nc, reason, sizeof(reason));
    }
    if (o->write && s->nbad == bad) {
      make_stance(s, c, nc);
    }
  }
  free(c);
  spart_contact_release();
  if (o->write && s->status == CLI_EXIT_OK) {
    if (!o->made.text) {
      cli_error(s->tool->name, NULL, 0, "--write-stance: no record to make a stance of");
      s->status = CLI_EXIT_DATA;
    } else {
      s->status = cli_save(s->tool->name, o->write, o->made.text, o->made.len);
    }
  }
  free(o->made.text);
  o->made.text = NULL;
}


int main(int argc, char **argv) {
  contact_opts o = {.edges = SPART_CONTACT_EDGES};
  int status;
  cli_session *s = cli_session_start(&tool, &o, argc, argv, &status);
  if (!s) {
    cli_stance_free(&o.held);
    return status;
  }
  /* force closure does not depend on gravity: --only force_closure needs none */
  status = 0;
  if ((!s->gravity || (s->gravity[0] == 0 && s->gravity[1] == 0 && s->gravity[2] == 0)) &&
      wanted(s, "com_equilibrium,support_polygon,support_halfplanes,com_margin,feasible,taum,"
                "contact_forces,reason")) {
    status = cli_usage(tool.name, "--gravity gx,gy,gz (not zero) is required: the support "
                                  "polygon is orthogonal to it (--only force_closure needs none)");
  } else if (s->o.output == CLI_FMT_CSV) {
    status = cli_usage(tool.name,
                       "--output csv: the outputs' shapes vary from record to record; use json");
  }
  if (status != 0) {
    cli_session_close(s);
    cli_stance_free(&o.held);
    return status;
  }
  status = cli_run(s, records, 0);
  cli_stance_free(&o.held);
  return status;
}
