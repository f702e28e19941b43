/* spart-gim -- generalized and convective inertia matrices */
#include <stddef.h>
#include <string.h>

#include "cli.h"

/* its own options */
typedef struct gim_opts {
  int coriolis, inverse; /* --coriolis, --inverse */
} gim_opts;

/* their bits in the gates */
enum { ON_CORIOLIS = CLI_ON_OWN << 0, ON_INVERSE = CLI_ON_OWN << 1 };

/* the base's blocks but with --fixed-base; Cu, G, Hinv with their options */
static const cli_gate gates[] = {{"H0,H0m,H,C0,C0m,Cm0,C", 0, CLI_ON_FIXED, 0},
                                 {"Cu", ON_CORIOLIS, 0, 0},
                                 {"G", CLI_ON_GRAVITY, 0, 0},
                                 {"Hinv", ON_INVERSE, 0, 0},
                                 {"Cu", 0, 0, ON_CORIOLIS},
                                 {"G", 0, 0, CLI_ON_GRAVITY},
                                 {"Hinv", 0, 0, ON_INVERSE},
                                 {NULL, 0, 0, 0}};

static const cli_option options[] = {
    CLI_FLAG("coriolis", offsetof(gim_opts, coriolis), ON_CORIOLIS,
             "      --coriolis       also Cu = C u, the Coriolis and centrifugal forces "
             "(Newton-Euler)\n"),
    CLI_SHARED("gravity", "      --gravity G      gx,gy,gz: also G, the generalized forces that "
                          "hold the weight m*g\n"),
    CLI_FLAG("inverse", offsetof(gim_opts, inverse), ON_INVERSE,
             "      --inverse        also Hinv, the inverse of H\n"),
    CLI_SHARED("fixed-base",
               "      --fixed-base     the base does not move: writes only the joint blocks Hm, "
               "Cm (and\n"
               "                       Cu, G, Hinv of the joints)\n"),
    CLI_SHARED("floating-base", NULL),
    CLI_END};

static const cli_tool tool = {
    .name = "spart-gim",
    .synopsis = "[OPTIONS] [-m MODEL] < STATES",
    .help =
        "Inertia matrices (SPART GIM by composite rigid bodies, CIM).  For each state record,\n"
        "writes the generalized inertia matrix H of u = [u0; um], and with velocities the\n"
        "convective inertia matrix C, so that H udot + C u = [tau0; taum] + N' wF.\n\n"
        "Outputs: H0 (6x6), H0m (6 x n_v), Hm (n_v x n_v), H; with velocities (u0 or um) also\n"
        "C0, C0m, Cm0, Cm, C.\n\n",
    .options = options,
    .reads = CLI_READS_VEL,
    .outputs = "H0,H0m,Hm,H,C0,C0m,Cm0,Cm,C,Cu,G,Hinv",
    .gates = gates};


/* put the blocks of A (H or C) that the base mode writes: all four for a floating base, the
   joints' only for a fixed one (first the 6x6, 6 x nq, nq x 6, nq x nq blocks, then A) */
static void put_blocks(cli_session *s, const char *const names[5], const double *A, double *blk,
                       int with_m0) {
  int nq = s->m->nvc, nv = 6 + nq;
  double *A0 = blk, *A0m = A0 + 36, *Am0 = A0m + 6 * nq, *Am = Am0 + 6 * nq;
  spart_split(s->m, A, A0, A0m, Am0, Am);
  if (!s->o.fixed_base) {
    cli_put(s->wr, names[0], A0, 6, 6, -1);
    cli_put(s->wr, names[1], A0m, 6, nq, -1);
    if (with_m0) {
      cli_put(s->wr, names[2], Am0, nq, 6, -1);
    }
  }
  cli_put(s->wr, names[3], Am, nq, nq, -1);
  if (!s->o.fixed_base) {
    cli_put(s->wr, names[4], A, nv, nv, -1);
  }
}


/* the system's matrix (K' A K) or forces (K' f, cols 0) of the tree's A in place, for coupled
   mimic joints (spart_mimic.c); b: 6 with the base, 0 for the joints alone; work: A's size */
static void coupled(const cli_session *s, int b, int cols, double *A, double *work) {
  size_t n = (size_t)b + (size_t)s->m->nv;
  if (!s->m->coupled) {
    return;
  }
  memcpy(work, A, (cols ? n * n : n) * sizeof(double));
  if (cols) {
    spart_mimic_matrix(s->m, b, work, A);
  } else {
    spart_mimic_force(s->m, b, work, A);
  }
}


/* the inertia matrices of one record, and the extras asked for */
static int compute(cli_session *s) {
  static const char *const hnames[5] = {"H0", "H0m", NULL, "Hm", "H"};
  static const char *const cnames[5] = {"C0", "C0m", "Cm0", "Cm", "C"};
  const cli_opts *o = &s->o;
  const gim_opts *own = s->o.own;
  const cli_state *st = s->st;
  size_t nq = (size_t)s->m->nv, nv = 6 + nq, sk = o->fixed_base ? 6 : 0;
  size_t ns = 6 + (size_t)s->m->nvc - sk; /* the outputs' (the system's: spart_mimic.c) */
  double *H = cli_session_buf(s, 0, 3 * nv * nv), *C = H ? H + nv * nv : NULL;
  double *Hs = H ? C + nv * nv : NULL; /* the joints' block alone, fixed base */
  double *blk = cli_session_buf(s, 1, 4 * (36 + 12 * nq + nq * nq) + 2 * nv);
  double *inv = own->inverse ? cli_session_buf(s, 2, 3 * nv * nv + 2 * nv) : NULL;
  double *work = s->m->coupled ? cli_session_buf(s, 3, nv * nv) : NULL;
  if (!H || !blk || (own->inverse && !inv) || (s->m->coupled && !work)) {
    return -1;
  }
  double *Cu = blk + 2 * (36 + 12 * nq + nq * nq), *G = Cu + nv;
  spart_crba(s->m, s->d, &st->x, 0, H);
  coupled(s, 6, 1, H, work);
  put_blocks(s, hnames, H, blk, 0);
  if (st->has & (1u << CLI_F_u0 | 1u << CLI_F_um)) {
    cli_session_kinematics(s); /* C works on the poses and twists */
    spart_cim(s->m, s->d, C);
    coupled(s, 6, 1, C, work);
    put_blocks(s, cnames, C, blk + 36 + 12 * nq + nq * nq, 1);
  }
  if (own->coriolis) {
    spart_state v = st->x; /* the record's velocities alone */
    v.u0dot = v.umdot = v.wF = NULL;
    spart_rnea(s->m, s->d, &v, NULL, Cu);
    coupled(s, 6, 0, Cu, work);
    cli_put(s->wr, "Cu", Cu + sk, (int)ns, -1, -1);
  }
  if (o->has_gravity) {
    spart_state rest = st->x; /* the record's pose at rest */
    rest.u0 = rest.um = rest.u0dot = rest.umdot = rest.wF = NULL;
    spart_rnea(s->m, s->d, &rest, o->gravity, G);
    coupled(s, 6, 0, G, work);
    cli_put(s->wr, "G", G + sk, (int)ns, -1, -1);
  }
  if (own->inverse) {
    if (o->fixed_base) {
      spart_crba(s->m, s->d, &st->x, 1, Hs);
      coupled(s, 0, 1, Hs, work);
    }
    double *iw = inv + nv * nv;
    int bad;
    if (s->m->coupled) { /* the system's own degrees of freedom: a Cholesky of K' H K */
      bad = spart_spd_inverse(o->fixed_base ? Hs : H, (int)ns, iw, inv);
    } else {
      bad = spart_gim_inverse(s->m, s->d, o->fixed_base, o->fixed_base ? Hs : H, iw, inv);
    }
    if (bad != 0 && s->m->coupled) {
      cli_fail(s, "singular inertia: the system can move without moving any mass");
      return -1;
    }
    if (bad != 0) {
      cli_fail_singular(s);
      return -1;
    }
    cli_put(s->wr, "Hinv", inv, (int)ns, (int)ns, -1);
  }
  return 0;
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
  gim_opts o = {0};
  int status;
  cli_session *s = cli_session_start(&tool, &o, argc, argv, &status);
  if (!s) {
    return status;
  }
  return cli_run(s, records, 0);
}
