/* spart-kin -- poses, twists and twist rates of every link */
#include <stddef.h>
#include <string.h>

#include "cli.h"

/* its own options */
typedef struct kin_opts {
  const char *frame; /* --frame LINK,...: the URDF link frames to write, or NULL */
  int attitude;      /* --attitude: the forms of their orientations, ATT_* bits */
  int diffkin, inertia, mcb, com, momentum, energy;
} kin_opts;

/* --attitude's forms */
enum { ATT_MATRIX = 1, ATT_QUAT = 2, ATT_RPY = 4 };

/* their bits in the gates */
enum {
  ON_COM = CLI_ON_OWN << 0,
  ON_FRAME = CLI_ON_OWN << 1,
  ON_DIFFKIN = CLI_ON_OWN << 2,
  ON_INERTIA = CLI_ON_OWN << 3,
  ON_MCB = CLI_ON_OWN << 4,
  ON_MOMENTUM = CLI_ON_OWN << 5,
  ON_ENERGY = CLI_ON_OWN << 6
};

/* the outputs of each option, and what it changes */
static const cli_gate gates[] = {{"rF,RF,qF,rpyF", ON_FRAME, 0, 0},
                                 {"P0,pm,Bi0,Bij", ON_DIFFKIN, 0, 0},
                                 {"I0,Im", ON_INERTIA, 0, 0},
                                 {"M0_tilde,Mm_tilde", ON_MCB, 0, 0},
                                 {"v_com", ON_COM, 0, 0},
                                 {"momentum", ON_MOMENTUM, 0, 0},
                                 {"kinetic_energy", ON_ENERGY, 0, 0},
                                 {"potential_energy", ON_ENERGY | CLI_ON_GRAVITY, 0, 0},
                                 {"rF,RF,qF,rpyF", 0, 0, ON_FRAME},
                                 {"P0,pm,Bi0,Bij", 0, 0, ON_DIFFKIN},
                                 {"I0,Im", 0, 0, ON_INERTIA},
                                 {"M0_tilde,Mm_tilde", 0, 0, ON_MCB},
                                 {"v_com", 0, 0, ON_COM},
                                 {"momentum", 0, 0, ON_MOMENTUM},
                                 {"kinetic_energy,potential_energy", 0, 0, ON_ENERGY},
                                 {"potential_energy", 0, 0, CLI_ON_GRAVITY},
                                 {NULL, 0, 0, 0}};


/* --frame LINK,...: all in one list */
static int frame_arg(const cli_arg *a) {
  const char **frame = a->at;
  if (*frame) {
    return cli_usage(a->tool->name, "--frame: give all the links in one list (a,b)");
  }
  *frame = a->value;
  return -1;
}


/* --attitude FORMS: matrix, quat, rpy, comma-separated, into ATT_* bits */
static int attitude_arg(const cli_arg *a) {
  static const char *const name[3] = {"matrix", "quat", "rpy"};
  int *bits = a->at;
  *bits = 0;
  for (const char *p = a->value;; p++) {
    size_t n = strcspn(p, ",");
    int k = 0;
    while (k < 3 && !(strlen(name[k]) == n && strncmp(p, name[k], n) == 0)) {
      k++;
    }
    if (k == 3) {
      return cli_usage(a->tool->name,
                       "--attitude: expected matrix, quat or rpy (or a list), got '%s'",
                       a->value);
    }
    *bits |= 1 << k;
    p += n;
    if (*p == 0) {
      return -1;
    }
  }
}


static int check(const cli_tool *t, void *own, cli_opts *o) {
  kin_opts *k = own;
  if (k->attitude && !k->frame) {
    return cli_usage(t->name, "--attitude needs --frame");
  }
  if (!k->attitude) {
    k->attitude = ATT_MATRIX;
  }
  if (o->has_gravity && !k->energy) {
    return cli_usage(t->name, "--gravity needs --energy");
  }
  return -1;
}


/* --frame's links in the model of -m, before the records */
static int resolve(cli_session *s) {
  const kin_opts *o = s->o.own;
  int n;
  return o->frame && !cli_session_frames(s, o->frame, &n) ? -1 : 0;
}


#define AT(f) offsetof(kin_opts, f)

static const cli_option options[] = {
    {"frame", 0, CLI_ARG_ONE, frame_arg, AT(frame), 0, ON_FRAME, NULL,
     "      --frame LINK,... the poses of these links' URDF frames (ids or names, as\n"
     "                       spart-jac --link): rF (k x 3) their origins, and RF (k x 3x3)\n"},
    {"attitude", 0, CLI_ARG_ONE, attitude_arg, AT(attitude), 0, 0, NULL,
     "      --attitude FORMS their orientations as matrix (RF, the default), quat (qF,\n"
     "                       k x 4: [w,x,y,z]) and/or rpy (rpyF, k x 3: roll, pitch, yaw)\n"},
    CLI_FLAG("diffkin", AT(diffkin), ON_DIFFKIN,
             "      --diffkin        SPART DiffKinematics: P0 (6x6), pm (n x 6; a joint of k\n"
             "                       degrees of freedom has k rows), Bi0 (n x 6x6),\n"
             "                       Bij (n*n x 6x6, block (i-1)*n+j-1)\n"),
    CLI_FLAG("inertia", AT(inertia), ON_INERTIA,
             "      --inertia        SPART I_I: I0 (3x3), Im (n x 3x3), inertial frame\n"),
    CLI_FLAG("mcb", AT(mcb), ON_MCB,
             "      --mcb            SPART MCB: M0_tilde (6x6), Mm_tilde (n x 6x6)\n"),
    CLI_FLAG("com", AT(com), ON_COM,
             "      --com            v_com (3): the velocity of the system's CoM\n"),
    CLI_FLAG("momentum", AT(momentum), ON_MOMENTUM,
             "      --momentum       momentum (6): [angular about the system's CoM; linear]\n"),
    CLI_FLAG("energy", AT(energy), ON_ENERGY,
             "      --energy         kinetic_energy; with --gravity also potential_energy\n"),
    CLI_SHARED("gravity",
               "      --gravity GX,GY,GZ  the gravity of potential_energy (-M g . r_com)\n"),
    CLI_SHARED("check-limits",
               "      --check-limits   report on stderr each record whose joint positions qm or\n"
               "                       velocities um pass the model's limits, one line a limit; "
               "exit 4\n"
               "                       at the end if any did\n"),
    CLI_END};

#undef AT

static const cli_tool tool = {
    .name = "spart-kin",
    .synopsis = "[OPTIONS] [-m MODEL] < STATES",
    .help =
        "Kinematics (SPART Kinematics, Velocities, Accelerations, Center_of_Mass).  For each "
        "state\n"
        "record, writes the poses of every joint and link (inertial frame), and their twists "
        "when\n"
        "the record gives velocities or accelerations, and twist rates when it gives\n"
        "accelerations (u0dot or umdot).\n\n"
        "Outputs: RJ, RL (n x 3x3: joint and link orientations), rJ, rL (n x 3: joint "
        "positions,\n"
        "link CoMs), e (n x 3: joint axes), g (n x 3: joint to link CoM), r_com (3: system "
        "CoM);\n"
        "t0 (6), tL (n x 6) with velocities or accelerations; t0dot (6), tLdot (n x 6) with\n"
        "accelerations; qmdot (n_q: the joints' coordinate rates of um) when a joint has a\n"
        "quaternion (n_q != n_v) and the record gives um, and um (n_v) when it gives qmdot "
        "instead.\n"
        "Twists are [omega; v] at link CoMs, all in the inertial frame.\n\n",
    .options = options,
    .reads = CLI_READS_VEL | CLI_READS(u0dot) | CLI_READS(umdot),
    .outputs = "RJ,RL,rJ,rL,e,g,r_com,t0,tL,t0dot,tLdot,rF,RF,qF,rpyF,P0,pm,Bi0,Bij,I0,Im,"
               "M0_tilde,Mm_tilde,v_com,momentum,kinetic_energy,potential_energy,qmdot,um",
    .gates = gates,
    .check = check,
    .resolve = resolve};


/* the URDF frames of --frame: origins rF, orientations RF, qF, rpyF, in r (19 k doubles, k the
   frames) */
static void frames(cli_session *s, const int *ids, int k, double *r) {
  const kin_opts *o = s->o.own;
  double *R = r + 3 * k, *q = R + 9 * k, *rpy = q + 4 * k;
  for (int f = 0; f < k; f++) {
    spart_link_pose(s->m, s->d, ids[f], R + 9 * f, r + 3 * f);
    spart_rot_quat(q + 4 * f, R + 9 * f);
    spart_rot_rpy(rpy + 3 * f, R + 9 * f);
  }
  cli_put(s->wr, "rF", r, k, 3, -1);
  if (o->attitude & ATT_MATRIX) {
    cli_put(s->wr, "RF", R, k, 3, 3);
  }
  if (o->attitude & ATT_QUAT) {
    cli_put(s->wr, "qF", q, k, 4, -1);
  }
  if (o->attitude & ATT_RPY) {
    cli_put(s->wr, "rpyF", rpy, k, 3, -1);
  }
}


/* the outputs asked for by --diffkin, --inertia, --mcb, --com, --momentum, --energy; 0, or -1 */
static int extras(cli_session *s) {
  const kin_opts *o = s->o.own;
  const spart_model *m = s->m;
  spart_data *d = s->d;
  size_t n = (size_t)m->nb - 1;
  if (o->diffkin) {
    int npm = spart_diffkin_pm_rows(m);
    double *P0 = cli_session_buf(s, 2, 36 + 6 * (size_t)npm + 36 * n + 36 * n * n);
    if (!P0) {
      return -1;
    }
    double *pm = P0 + 36, *Bi0 = pm + 6 * (size_t)npm, *Bij = Bi0 + 36 * n;
    spart_diffkin(m, d, P0, pm, Bi0, Bij);
    cli_put(s->wr, "P0", P0, 6, 6, -1);
    cli_put(s->wr, "pm", pm, npm, 6, -1);
    cli_put(s->wr, "Bi0", Bi0, (int)n, 6, 6);
    cli_put(s->wr, "Bij", Bij, (int)(n * n), 6, 6);
  }
  double *I = o->inertia || o->mcb ? cli_session_buf(s, 3, 45 * (n + 1)) : NULL;
  if ((o->inertia || o->mcb) && !I) {
    return -1;
  }
  if (o->inertia) {
    spart_inertias(m, d, I);
    cli_put(s->wr, "I0", I, 3, 3, -1);
    cli_put(s->wr, "Im", I + 9, (int)n, 3, 3);
  }
  if (o->mcb) {
    double *M = I + 9 * (n + 1);
    spart_mcb(m, d, M, M + 36);
    cli_put(s->wr, "M0_tilde", M, 6, 6, -1);
    cli_put(s->wr, "Mm_tilde", M + 36, (int)n, 6, 6);
  }
  return 0;
}


/* the joints' coordinate rates qmdot of um (RigidBodyDynamics.jl's
   velocity_to_configuration_derivative), when they differ from um; um when the record gave
   qmdot (the reader turned them into um); with coupled mimic joints, the system's (the free
   joints', spart_mimic.c).  qd (n_q + n_qc + n_vc) holds them until the record is written */
static void rates(cli_session *s, double *qd) {
  const cli_state *st = s->st;
  const spart_model *m = s->m;
  double *qdc = qd + m->nq, *umc = qdc + m->nqc;
  if (spart_joint_rates_differ(m) && (st->has & 1u << CLI_F_um)) {
    spart_qdot_of_v(m, st->x.qm, st->x.um, qd);
    spart_mimic_qc(m, qd, qdc);
    cli_put(s->wr, "qmdot", m->coupled ? qdc : qd, m->nqc, -1, -1);
  }
  if (st->has & 1u << CLI_F_qmdot) {
    spart_mimic_vc(m, st->x.um, umc);
    cli_put(s->wr, "um", m->coupled ? umc : st->x.um, m->nvc, -1, -1);
  }
}


/* poses, and twists and rates when the record gives them, put as outputs; 0, or -1 */
static int compute(cli_session *s) {
  const kin_opts *o = s->o.own;
  cli_session_kinematics(s);
  const unsigned vel = 1u << CLI_F_u0 | 1u << CLI_F_um;
  const unsigned acc = 1u << CLI_F_u0dot | 1u << CLI_F_umdot;
  const cli_state *st = s->st;
  spart_data *d = s->d;
  int n = s->m->nb - 1;
  double *pos = cli_session_buf(s, 0, 6 * (size_t)n + 3);
  if (!pos) {
    return -1;
  }
  spart_joint_frames(s->m, d);

  spart_positions(s->m, d, pos, pos + 3 * n, pos + 6 * n);
  cli_put(s->wr, "RJ", d->xrotJ + 9, n, 3, 3);
  cli_put(s->wr, "RL", d->xrot + 9, n, 3, 3);
  cli_put(s->wr, "rJ", pos, n, 3, -1);
  cli_put(s->wr, "rL", pos + 3 * n, n, 3, -1);
  cli_put(s->wr, "e", d->xaxis + 3, n, 3, -1);
  cli_put(s->wr, "g", d->xg + 3, n, 3, -1);
  cli_put(s->wr, "r_com", pos + 6 * n, 3, -1, -1);
  if (st->has & (vel | acc)) {
    cli_put(s->wr, "t0", d->t, 6, -1, -1);
    cli_put(s->wr, "tL", d->t + 6, n, 6, -1);
  }
  if (st->has & acc) {
    spart_acceleration(s->m, d, &st->x);
    cli_put(s->wr, "t0dot", d->tdot, 6, -1, -1);
    cli_put(s->wr, "tLdot", d->tdot + 6, n, 6, -1);
  }
  /* v_com, momentum, the energies, qmdot, then the frames: one buffer, each output kept until
     the record is written */
  int k = 0;
  const int *ids = o->frame ? cli_session_frames(s, o->frame, &k) : NULL;
  size_t nq = (size_t)s->m->nq + (size_t)s->m->nqc + (size_t)s->m->nvc; /* rates' */
  double *sys = !o->frame || ids ? cli_session_buf(s, 1, 11 + nq + 19 * (size_t)k) : NULL;
  if (!sys) {
    return -1;
  }
  if (ids) {
    frames(s, ids, k, sys + 11 + nq);
  }
  if (extras(s) != 0) {
    return -1;
  }
  if (o->com) {
    spart_com_velocity(s->m, d, sys);
    cli_put(s->wr, "v_com", sys, 3, -1, -1);
  }
  if (o->momentum) {
    spart_momentum(s->m, d, sys + 3);
    cli_put(s->wr, "momentum", sys + 3, 6, -1, -1);
  }
  if (o->energy) {
    sys[9] = spart_kinetic_energy(s->m, d);
    cli_put(s->wr, "kinetic_energy", sys + 9, -1, -1, -1);
    if (s->gravity) {
      sys[10] = spart_potential_energy(s->m, d, s->gravity);
      cli_put(s->wr, "potential_energy", sys + 10, -1, -1, -1);
    }
  }
  rates(s, sys + 11);
  return 0;
}


/* the records of the input (or of a block of it, with -j) */
static void records(cli_session *s) {
  while (cli_next(s)) {
    if (compute(s) == 0) {
      cli_check_limits(s, s->st->x.qm, s->st->x.um, NULL);
      cli_write(s);
    }
  }
}


int main(int argc, char **argv) {
  kin_opts o = {0};
  int status;
  cli_session *s = cli_session_start(&tool, &o, argc, argv, &status);
  if (!s) {
    return status;
  }
  return cli_run(s, records, 0);
}
