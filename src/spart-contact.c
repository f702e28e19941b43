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
  int edges;         /* --edges K: friction cone edges (SPART_CONTACT_EDGES) */
  double max_torque; /* --max-torque T, or 0 for none */
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


static const cli_option options[] = {
    CLI_SHARED("gravity", "      --gravity G      gx,gy,gz (required, not zero; not for --only "
                          "force_closure)\n"),
    {"edges", 0, CLI_ARG_ONE, edges_arg, offsetof(contact_opts, edges), 0, 0, NULL,
     "      --edges K        friction cone edges, 3..64 (default 8)\n"},
    {"max-torque", 0, CLI_ARG_ONE, max_torque_arg, offsetof(contact_opts, max_torque), 0, 0, NULL,
     "      --max-torque T   bound every |taum_k| by T (default: each joint's effort limit)\n"},
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
               "feasible,taum,contact_forces,reason"};


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


/* the records of the input (or of a block of it, with -j: the linear programs' memory is each
   thread's, released with the block) */
static void records(cli_session *s) {
  spart_contact *c = NULL;
  int cap = 0, nc;
  char reason[128];
  while (cli_next(s)) {
    if (cli_contacts(s, &c, &cap, &nc) == 0) {
      statics(s, c, nc, reason, sizeof(reason));
    }
  }
  free(c);
  spart_contact_release();
}


int main(int argc, char **argv) {
  contact_opts o = {.edges = SPART_CONTACT_EDGES};
  int status;
  cli_session *s = cli_session_start(&tool, &o, argc, argv, &status);
  if (!s) {
    return status;
  }
  /* force closure does not depend on gravity: --only force_closure needs none */
  if ((!s->gravity || (s->gravity[0] == 0 && s->gravity[1] == 0 && s->gravity[2] == 0)) &&
      wanted(s, "com_equilibrium,support_polygon,support_halfplanes,com_margin,feasible,taum,"
                "contact_forces,reason")) {
    cli_usage(tool.name, "--gravity gx,gy,gz (not zero) is required: the support polygon is "
                         "orthogonal to it (--only force_closure needs none)");
    cli_session_close(s);
    return CLI_EXIT_USAGE;
  }
  if (s->o.output == CLI_FMT_CSV) {
    cli_usage(tool.name, "--output csv: the outputs' shapes vary from record to record; use json");
    cli_session_close(s);
    return CLI_EXIT_USAGE;
  }
  return cli_run(s, records, 0);
}
