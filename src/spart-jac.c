/* spart-jac -- geometric Jacobian of a point on a link, its derivative, the NOC matrix */
#include <stddef.h>
#include <string.h>

#include "cli.h"

/* its own options */
typedef struct jac_opts {
  const char *link; /* --link ID|NAME, or NULL */
  int has_point;    /* --point given: */
  double point[3];  /* a point of the link, in its URDF frame */
  int dot, noc, com, centroidal;
  int reference;    /* --reference: SPART_REF_*, -1 when not given */
} jac_opts;

/* their bits in the gates */
enum {
  ON_LINK = CLI_ON_OWN << 0,
  ON_POINT = CLI_ON_OWN << 1,
  ON_DOT = CLI_ON_OWN << 2,
  ON_NOC = CLI_ON_OWN << 3,
  ON_COM = CLI_ON_OWN << 4,
  ON_CENTROIDAL = CLI_ON_OWN << 5,
  ON_REFERENCE = CLI_ON_OWN << 6
};

/* the Jacobians need --link, r_point --point too, their derivatives --dot too, N --noc, Ndot
   --dot too, the CoM's Jacobian --com; what --link, --point, --dot, --noc and --com change */
static const cli_gate gates[] = {{"J0,Jm", ON_LINK, 0, 0},
                                 {"r_point", ON_LINK | ON_POINT, 0, 0},
                                 {"J0dot,Jmdot", ON_LINK | ON_DOT, 0, 0},
                                 {"N", ON_NOC, 0, 0},
                                 {"Ndot", ON_NOC | ON_DOT, 0, 0},
                                 {"J0_com,Jm_com", ON_COM, 0, 0},
                                 {"AG", ON_CENTROIDAL, 0, 0},
                                 {"AGdot_u", ON_CENTROIDAL | ON_DOT, 0, 0},
                                 {"J0,Jm,r_point,J0dot,Jmdot", 0, 0, ON_LINK},
                                 {"J0,Jm,r_point,J0dot,Jmdot", 0, 0, ON_POINT},
                                 {"J0dot,Jmdot,Ndot,AGdot_u", 0, 0, ON_DOT},
                                 {"N,Ndot", 0, 0, ON_NOC},
                                 {"J0_com,Jm_com", 0, 0, ON_COM},
                                 {"AG,AGdot_u", 0, 0, ON_CENTROIDAL},
                                 {"J0,Jm", 0, 0, ON_REFERENCE},
                                 {NULL, 0, 0, 0}};


/* --point X,Y,Z */
static int point_arg(const cli_arg *a) {
  jac_opts *o = a->at;
  if (cli_vec(a->value, o->point, 3) != 0) {
    return cli_usage(a->tool->name, "--point: expected x,y,z, got '%s'", a->value);
  }
  o->has_point = 1;
  return -1;
}


/* --reference world|local|aligned (SPART_REF_*) */
static int reference_arg(const cli_arg *a) {
  static const char *const name[3] = {"aligned", "local", "world"};
  for (int k = 0; k < 3; k++) {
    if (strcmp(a->value, name[k]) == 0) {
      *(int *)a->at = k;
      return -1;
    }
  }
  return cli_usage(a->tool->name, "--reference: expected world, local or aligned, got '%s'",
                   a->value);
}


static int check(const cli_tool *t, void *own, cli_opts *o) {
  const jac_opts *j = own;
  (void)o;
  if (j->reference > 0 && j->dot) {
    return cli_usage(t->name, "--reference %s with --dot: the derivatives are given in the "
                     "aligned frame only", j->reference == SPART_REF_LOCAL ? "local" : "world");
  }
  if (!j->link && !j->noc && !j->com && !j->centroidal) {
    return cli_usage(t->name, "--link ID|NAME, --noc, --com or --centroidal is required");
  }
  return -1;
}


/* --link in the model of -m, before the records */
static int resolve(cli_session *s) {
  const jac_opts *o = s->o.own;
  return o->link && cli_session_link(s, o->link) < 0 ? -1 : 0;
}


#define AT(f) offsetof(jac_opts, f)

static const cli_option options[] = {
    {"link", 'l', CLI_ARG_ONE, cli_opt_text, AT(link), 1, ON_LINK, NULL,
     "  -l, --link ID|NAME   the link: its id (0 is the base) or its URDF name\n"},
    {"point", 0, CLI_ARG_ONE, point_arg, 0, 1, ON_POINT, NULL,
     "      --point X,Y,Z    a point fixed to the link (a tool frame), in the link's URDF frame\n"
     "                       (the frame its <inertial> origin is given in); default: the CoM\n"},
    CLI_FLAG("dot", AT(dot), ON_DOT,
             "      --dot            also the time derivatives J0dot, Jmdot (and Ndot with "
             "--noc)\n"),
    CLI_FLAG("noc", AT(noc), ON_NOC,
             "      --noc            the natural orthogonal complement N (--link then optional)\n"),
    CLI_FLAG("com", AT(com), ON_COM,
             "      --com            the Jacobian of the system's CoM (--link then optional)\n"),
    CLI_FLAG("centroidal", AT(centroidal), ON_CENTROIDAL,
             "      --centroidal     the centroidal momentum matrix AG (--link then optional)\n"),
    {"reference", 0, CLI_ARG_ONE, reference_arg, AT(reference), 0, ON_REFERENCE, NULL,
     "      --reference REF  the frame of J0, Jm: aligned (the default: inertial axes, the\n"
     "                       point's velocity), local (the link's URDF frame's axes) or\n"
     "                       world (inertial axes, the velocity of the link's point at the\n"
     "                       inertial origin); [omega; v], angular first, in every one\n"},
    CLI_END};

#undef AT

static const cli_tool tool = {
    .name = "spart-jac",
    .synopsis = "--link ID|NAME [--point X,Y,Z] [--dot] [--noc] [--com] [--centroidal] [OPTIONS] "
                "[-m MODEL] < STATES",
    .help =
        "Jacobians (SPART Jacob, Jacobdot, NOC, NOCdot).  For each state record, writes the\n"
        "geometric Jacobian of a point on a link: its twist [omega; v] (inertial frame) is\n"
        "J0 u0 + Jm um.\n\n"
        "Outputs: J0 (6x6), Jm (6 x n_v); with --point also r_point (3), the point's position;\n"
        "with --dot also J0dot, Jmdot (needs the velocities); with --noc, N (6(n+1) x (6+n_v)):\n"
        "the twists of the base and of every link CoM, [t0; tL] = N [u0; um], and with --dot\n"
        "also Ndot; with --com, J0_com (3x6), Jm_com (3 x n_v): the velocity of the system's CoM\n"
        "is J0_com u0 + Jm_com um; with --centroidal, AG (6 x (6+n_v)): the momentum about the\n"
        "system's CoM, [angular; linear] as spart-kin --momentum, is AG [u0; um], and with --dot\n"
        "also AGdot_u (6), its rate at zero accelerations.\n\n",
    .options = options,
    .reads = CLI_READS_VEL,
    .outputs = "J0,Jm,r_point,J0dot,Jmdot,N,Ndot,J0_com,Jm_com,AG,AGdot_u",
    .gates = gates,
    .check = check,
    .resolve = resolve};


/* put a matrix of rows x (b + n_v) columns: for coupled mimic joints (W not NULL) the
   system's, A K (spart_mimic.c), at W + *off, which moves past it (the outputs stay until the
   record is written) */
static void put_cols(cli_session *s, const char *name, const double *A, int rows, int b,
                     double *W, size_t *off) {
  int nc = b + s->m->nvc;
  if (W) {
    spart_mimic_cols(s->m, b, rows, A, W + *off);
    A = W + *off;
    *off += (size_t)rows * (size_t)nc;
  }
  cli_put(s->wr, name, A, rows, nc, -1);
}


/* --reference local|world: J0, Jm (J) of link i's point x (NULL: its CoM) in that frame */
static void reference(cli_session *s, int i, const double *x, double *J) {
  const jac_opts *opt = s->o.own;
  double R[9], o[3], pw[3];
  spart_link_pose(s->m, s->d, i, R, o);
  spart_world(s->d, x ? x : s->d->xpos + 3 * i, pw);
  spart_jacobian_reference(opt->reference, R, pw, 6, J);
  spart_jacobian_reference(opt->reference, R, pw, s->m->nv, J + 36);
}


/* --centroidal: AG, with --dot AGdot_u; 0, or -1 */
static int centroidal(cli_session *s, double *W, size_t *off) {
  const jac_opts *o = s->o.own;
  const size_t nc = 6 + (size_t)s->m->nv;
  double *A = cli_session_buf(s, 3, 12 * nc + 6);
  if (!A) {
    return -1;
  }
  spart_centroidal(s->m, s->d, A, A + 6 * nc);
  put_cols(s, "AG", A, 6, 6, W, off);
  if (o->dot) {
    spart_centroidal_bias(s->m, s->d, &s->st->x, A + 12 * nc);
    cli_put(s->wr, "AGdot_u", A + 12 * nc, 6, -1, -1);
  }
  return 0;
}


/* the Jacobian of the point, its derivative, the NOC */
static int compute(cli_session *s) {
  cli_session_kinematics(s);
  const jac_opts *o = s->o.own;
  int nq = s->m->nv, n = s->m->nb - 1, i = o->link ? cli_session_link(s, o->link) : 0;
  double x[3], *p = o->has_point ? x : NULL;
  size_t nN = 6 * ((size_t)n + 1) * (6 + (size_t)nq), off = 0;
  double *J = cli_session_buf(s, 0, 2 * (36 + 6 * (size_t)nq) + 3 + 18 + 3 * (size_t)nq);
  double *N = o->noc ? cli_session_buf(s, 1, (o->dot ? 2 : 1) * nN) : NULL;
  /* coupled mimic joints: room for the system's Jm, Jmdot, N, Ndot, Jm_com, AG */
  double *W = s->m->coupled ? cli_session_buf(s, 2, 2 * nN + 21 * (size_t)nq + 37) : NULL;
  if (i < 0 || !J || (o->noc && !N) || (s->m->coupled && !W)) {
    return -1;
  }
  double *rp = J + 2 * (36 + 6 * nq), *Jc = rp + 3;
  if (o->link) {
    if (p) {
      spart_link_point(s->m, s->d, i, o->point, x);
      spart_world(s->d, x, rp);
    }
    spart_jacobian(s->m, s->d, i, p, J, J + 36);
    if (o->reference > 0) {
      reference(s, i, p, J);
    }
    cli_put(s->wr, "J0", J, 6, 6, -1);
    put_cols(s, "Jm", J + 36, 6, 0, W, &off);
    if (p) {
      cli_put(s->wr, "r_point", rp, 3, -1, -1);
    }
    if (o->dot) {
      double *Jdot = J + 36 + 6 * nq;
      spart_jacobian_dot(s->m, s->d, i, p, Jdot, Jdot + 36);
      cli_put(s->wr, "J0dot", Jdot, 6, 6, -1);
      put_cols(s, "Jmdot", Jdot + 36, 6, 0, W, &off);
    }
  }
  if (o->noc) {
    spart_noc(s->m, s->d, N);
    put_cols(s, "N", N, 6 * (n + 1), 6, W, &off);
    if (o->dot) {
      spart_noc_dot(s->m, s->d, N + nN);
      put_cols(s, "Ndot", N + nN, 6 * (n + 1), 6, W, &off);
    }
  }
  if (o->com) {
    spart_com_jacobian(s->m, s->d, Jc, Jc + 18);
    cli_put(s->wr, "J0_com", Jc, 3, 6, -1);
    put_cols(s, "Jm_com", Jc + 18, 3, 0, W, &off);
  }
  return o->centroidal ? centroidal(s, W, &off) : 0;
}


/* the records of the input (or of a block of it, with -j) */
static void records(cli_session *s) {
  while (cli_next(s)) {
    if (compute(s) == 0) {
      cli_write(s);
    }
  }
}


int main(int argc, char **argv) {
  jac_opts o = {.reference = -1};
  int status;
  cli_session *s = cli_session_start(&tool, &o, argc, argv, &status);
  if (!s) {
    return status;
  }
  return cli_run(s, records, 0);
}
