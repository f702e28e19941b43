/* spart_dh.c -- the model of a serial arm given by Denavit-Hartenberg parameters: SPART's
 * DH_Serial2robot (with DH_Rs), and the Robotics Toolbox's standard and modified DH links, with
 * the drive train reflected to the joints */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"


/* standard DH (SPART DH_Rs at q = 0): R = Rz(theta) Rx(alpha), s = [a cos(theta), a sin(theta), d]
 */
static void dh_standard(double R[9], double s[3], double theta, double d, double a, double alpha) {
  double ct = cos(theta), st = sin(theta), ca = cos(alpha), sa = sin(alpha);
  const double M[9] = {ct, -st * ca, st * sa, st, ct * ca, -ct * sa, 0, sa, ca};
  memcpy(R, M, sizeof M);
  s[0] = a * ct;
  s[1] = a * st;
  s[2] = d;
}


/* rotation about a coordinate axis k (0 x, 2 z) by angle q */
static void rot_axis(double R[9], int k, double q) {
  double e[3] = {0, 0, 0};
  e[k] = 1;
  spu_axisangle(R, e, q);
}


/* (R, p) = (Ra, pa) * (Rb, pb) */
static void compose(double R[9], double p[3], const double Ra[9], const double pa[3],
                    const double Rb[9], const double pb[3]) {
  double t[3];
  spu_mulmm3(R, Ra, Rb);
  spu_mulmv3(t, Ra, pb);
  for (int k = 0; k < 3; k++) {
    p[k] = pa[k] + t[k];
  }
}


/* link i's frame (body_rot, body_pos) in its joint frame, and joint i's frame in the previous
   link frame (jnt_rot, jnt_pos) */
static void dh_frames(spart_model *m, const spart_dh *dh, int i) {
  const spart_dh_link *l = dh->link + i - 1, *prev = i > 1 ? l - 1 : NULL;
  static const double eye[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  double R[9], s[3], Rj[9], pj[3], *Rb = m->body_rot + 9 * i, *pb = m->body_pos + 3 * i;
  /* at q = 0: SPART's theta and d; the Toolbox's joint variable is its offset */
  int spart = dh->convention == SPART_DH_SPART, revolute = l->type == SPART_JNT_REVOLUTE;
  double theta = spart || !revolute ? l->theta : l->offset;
  double d = spart || revolute ? l->d : l->offset;

  /* the frame the joint sits in: the base's (T_L0_J1, base), else the previous link's, seen from
     that link's CoM (SPART: b from the CoM to the joint; Toolbox: -r, r the CoM) */
  if (prev) {
    memcpy(Rj, eye, sizeof eye);
    for (int k = 0; k < 3; k++) {
      pj[k] = dh->convention == SPART_DH_SPART ? prev->com[k] : -prev->com[k];
    }
  } else {
    memcpy(Rj, dh->base_R, sizeof Rj);
    memcpy(pj, dh->base_p, sizeof pj);
  }

  if (dh->convention == SPART_DH_MODIFIED) {
    /* joint frame = frame i-1 Rx(alpha) Tx(a); link frame = Rz(theta) Tz(d), CoM at r */
    const double pa[3] = {l->a, 0, 0}, pd[3] = {0, 0, d};
    rot_axis(R, 0, l->alpha);
    compose(m->jnt_rot + 9 * i, m->jnt_pos + 3 * i, Rj, pj, R, pa);
    rot_axis(R, 2, theta);
    compose(Rb, pb, R, pd, eye, l->com);
    return;
  }
  memcpy(m->jnt_rot + 9 * i, Rj, sizeof Rj);
  memcpy(m->jnt_pos + 3 * i, pj, sizeof pj);
  dh_standard(R, s, theta, d, l->a, l->alpha);
  if (dh->convention == SPART_DH_STANDARD) {
    /* link frame i at the distal end, CoM at r */
    compose(Rb, pb, R, s, eye, l->com);
    return;
  }

  /* SPART: the last link takes the end-effector's Rz(theta) Tz(d); the CoM is b before the next
     joint: link.T = [R s] [R_EE s_EE] / [I b] */
  if (i == dh->n) {
    double Re[9], pe[3] = {0, 0, dh->ee_d}, R2[9], s2[3];
    rot_axis(Re, 2, dh->ee_theta);
    compose(R2, s2, R, s, Re, pe);
    memcpy(R, R2, sizeof R);
    memcpy(s, s2, sizeof s);
  }
  spu_mulmv3(pb, R, l->com);
  memcpy(Rb, R, sizeof R);
  for (int k = 0; k < 3; k++) {
    pb[k] = s[k] - pb[k];
  }
}


/* "L3", "J3", or a copy of name */
static char *dh_name(const char *name, char kind, int i) {
  char buf[32];
  if (!name) {
    snprintf(buf, sizeof buf, "%c%d", kind, i);
    name = buf;
  }
  return strdup(name);
}


spart_model *spart_dh_model(const spart_dh *dh, spart_err *err) {
  spart_model *m = spart_model_new(dh->n + 1);
  int oom = !m;

  /* base link, named as DH_Serial2robot names it */
  if (m) {
    m->name = dh_name(dh->name ? dh->name : "DH robot", 0, 0);
    m->body_name[0] = dh_name("Base", 0, 0);
    m->body_parent[0] = -1;
    m->body_mass[0] = dh->base_mass;
    memcpy(m->body_inertia, dh->base_inertia, 6 * sizeof(double));
    oom = !m->name || !m->body_name[0];
  }

  /* links L1..Ln and joints J1..Jn about z, each on the one before */
  for (int i = 1; !oom && i <= dh->n; i++) {
    const spart_dh_link *l = dh->link + i - 1;
    double G = l->G;
    m->body_name[i] = dh_name(NULL, 'L', i);
    m->jnt_name[i] = dh_name(NULL, 'J', i);
    oom = !m->body_name[i] || !m->jnt_name[i];
    m->body_parent[i] = i - 1;
    m->body_mass[i] = l->mass;
    memcpy(m->body_inertia + 6 * i, l->inertia, 6 * sizeof(double));
    m->jnt_type[i] = l->type;
    m->jnt_qadr[i] = i - 1;
    m->jnt_axis[3 * i + 2] = l->flip ? -1 : 1;
    dh_frames(m, dh, i);

    /* the drive train seen from the joint: G^2 Jm, G^2 B, |G| Tc */
    m->jnt_armature[i] = G * G * l->Jm;
    m->jnt_damping[i] = G * G * l->B;
    m->jnt_friction[2 * i] = fabs(G) * l->Tc[0];
    m->jnt_friction[2 * i + 1] = fabs(G) * l->Tc[1];
    m->jnt_limited[i] = l->limited;
    memcpy(m->jnt_range + 2 * i, l->qlim, 2 * sizeof(double));
  }

  if (oom) {
    spart_model_free(m);
    if (err) {
      err->code = SPART_ENOMEM;
      err->line = 0;
      snprintf(err->msg, sizeof err->msg, "out of memory");
    }
    return NULL;
  }
  if (spart_model_check(m, err)) {
    spart_model_free(m);
    return NULL;
  }
  return m;
}
