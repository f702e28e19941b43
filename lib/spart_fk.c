/* spart_fk.c -- kinematics, twists and twist rates of every link (SPART Kinematics,
 * DiffKinematics, Velocities, Accelerations, I_I, Center_of_Mass), forward passes over the
 * parent array */
#include <math.h>
#include <string.h>

#include "spart.h"
#include "spu.h"


/* joint constants (d->jc, SPART_JC a body): with J the joint frame in the parent link, B the
   link frame in the joint frame, b the CoM in the joint frame and a the axis, the link frame in
   the parent link is Rloc(q) = c P1 + (1-c) P2 + s P3 (Rodrigues) and the CoM offset from the
   joint J (Rq b) = c v1 + (1-c) v2 + s v3; SB is the motion subspace in the link's own frame at
   its CoM, constant: [B'a; B'a x B'b] (revolute), [0; B'a] (prismatic).
   spart_rnea works in joint frames F instead (Featherstone's, where S = e_z): F_i is joint i's
   frame turned by A_i (A e_z = a) and moved with the joint, F_0 the base's CoM frame.  At q = 0
   F_i is T_i, at r_i, in F_p; the link's CoM frame is CR_i = A'B at c_i = A'b in F_i, and Ic_i
   is its rotational inertia about the CoM in F_i's axes. */
enum {
  JC_P1 = 0,
  JC_P2 = 9,
  JC_P3 = 18,
  JC_V1 = 27,
  JC_V2 = 30,
  JC_V3 = 33,
  JC_JA = 36,
  JC_SB = SPART_JC_S,
  JC_T = SPART_JC_T,
  JC_R = SPART_JC_R,
  JC_C = SPART_JC_C,
  JC_IC = SPART_JC_IC,
  JC_IO = SPART_JC_IO,
  JC_CR = SPART_JC_CR
};
_Static_assert(JC_CR + 9 == SPART_JC, "joint constants");


/* a rotation A with A e_z = a (a unit): a signed permutation when a is a coordinate axis */
static void axis_frame(double A[9], const double a[3]) {
  double x[3], y[3], t[3] = {0, 0, 0};
  int big = 0;
  for (int k = 1; k < 3; k++) {
    big = fabs(a[k]) > fabs(a[big]) ? k : big;
  }
  if (fabs(a[big]) == 1 && a[(big + 1) % 3] == 0 && a[(big + 2) % 3] == 0) {
    /* x, y the next two axes in cyclic order (x, y, +-a right-handed with a sign on x) */
    memset(x, 0, sizeof x);
    memset(y, 0, sizeof y);
    x[(big + 1) % 3] = a[big];
    y[(big + 2) % 3] = 1;
  } else {
    /* x: the coordinate axis least along a, made normal to it */
    t[fabs(a[0]) < 0.6 ? 0 : 1] = 1;
    double ta = spu_dot3(t, a), nx = 0;
    for (int k = 0; k < 3; k++) {
      x[k] = t[k] - ta * a[k];
      nx += x[k] * x[k];
    }
    nx = sqrt(nx);
    for (int k = 0; k < 3; k++) {
      x[k] /= nx;
    }
    spu_cross(y, a, x);
  }
  for (int r = 0; r < 3; r++) {
    A[3 * r] = x[r];
    A[3 * r + 1] = y[r];
    A[3 * r + 2] = a[r];
  }
}


void spart_joint_constants(const spart_model *m, spart_data *d) {
  double *jc = d->jc;
  /* the base: F_0 is its CoM frame */
  memset(jc, 0, SPART_JC * sizeof(double));
  for (int k = 0; k < 3; k++) {
    jc[JC_CR + 4 * k] = 1;
  }
  for (int i = 1; i < m->nb; i++) {
    const double *J = m->jnt_rot + 9 * i, *B = m->body_rot + 9 * i, *a = m->jnt_axis + 3 * i;
    const double *b = m->body_pos + 3 * i, *cp = jc + SPART_JC * m->body_parent[i];
    double *c = jc + SPART_JC * i, Bta[3], A[9], AB[9], axb[3];
    spu_mulmm3(c + JC_P1, J, B);
    spu_mulmv3(c + JC_JA, J, a);
    spu_mulmtv3(Bta, B, a);
    for (int r = 0; r < 3; r++) {
      for (int k = 0; k < 3; k++) {
        c[JC_P2 + 3 * r + k] = c[JC_JA + r] * Bta[k];
      }
    }
    /* A = J [a]x, P3 = A B */
    for (int r = 0; r < 3; r++) {
      const double *j = J + 3 * r;
      A[3 * r + 0] = j[1] * a[2] - j[2] * a[1];
      A[3 * r + 1] = j[2] * a[0] - j[0] * a[2];
      A[3 * r + 2] = j[0] * a[1] - j[1] * a[0];
    }
    spu_mulmm3(AB, A, B);
    memcpy(c + JC_P3, AB, sizeof(AB));
    spu_mulmv3(c + JC_V1, J, b);
    for (int k = 0; k < 3; k++) {
      c[JC_V2 + k] = c[JC_JA + k] * spu_dot3(a, b);
    }
    spu_cross(axb, a, b);
    spu_mulmv3(c + JC_V3, J, axb);
    memset(c + JC_SB, 0, 6 * sizeof(double));
    if (m->jnt_type[i] == SPART_JNT_REVOLUTE) {
      double Btb[3];
      spu_mulmtv3(Btb, B, b);
      memcpy(c + JC_SB, Bta, sizeof Bta);
      spu_cross(c + JC_SB + 3, Bta, Btb);
    } else if (m->jnt_type[i] == SPART_JNT_PRISMATIC) {
      memcpy(c + JC_SB + 3, Bta, sizeof Bta);
    }

    /* the joint frame F_i: A (the identity for a fixed joint), T = CR_p J A, r = c_p + CR_p p */
    double JA[9];
    if (m->jnt_type[i] == SPART_JNT_FIXED) {
      memset(A, 0, sizeof A);
      A[0] = A[4] = A[8] = 1;
    } else {
      axis_frame(A, a);
    }
    spu_mulmm3(JA, J, A);
    spu_mulmm3(c + JC_T, cp + JC_CR, JA);
    spu_mulmv3(c + JC_R, cp + JC_CR, m->jnt_pos + 3 * i);
    for (int k = 0; k < 3; k++) {
      c[JC_R + k] += cp[JC_C + k];
    }
    /* the link in F_i: CR = A'B, c = A'b, Ic = CR I CR' */
    for (int r = 0; r < 3; r++) {
      for (int k = 0; k < 3; k++) {
        c[JC_CR + 3 * r + k] = A[r] * B[k] + A[3 + r] * B[3 + k] + A[6 + r] * B[6 + k];
      }
    }
    spu_mulmtv3(c + JC_C, A, b);
    spu_rotsym3(c + JC_IC, c + JC_CR, m->body_inertia + 6 * i);
    spu_inertbody(c + JC_IO, m->body_mass[i], c + JC_IC);
    spu_inertshift(c + JC_IO, c + JC_IO, c + JC_C);
  }

  /* spart_rnea_pair's: T, r, c, Ic (the base's own inertia), mass and armature, each twice */
  for (int i = 0; i < m->nb; i++) {
    const double *c = jc + SPART_JC * i;
    double v[SPART_JP], *jp = d->jp + 2 * SPART_JP * i;
    memcpy(v + SPART_JP_T, c + JC_T, 15 * sizeof(double)); /* T, r, c */
    memcpy(v + SPART_JP_IC, i ? c + JC_IC : m->body_inertia, 6 * sizeof(double));
    v[SPART_JP_M] = m->body_mass[i];
    v[SPART_JP_ARM] = m->jnt_armature[i];
    for (int k = 0; k < SPART_JP; k++) {
      jp[2 * k] = jp[2 * k + 1] = v[k];
    }
  }
}


int spart_s_index(const spart_model *m, int i) {
  return m->jnt_type[i] == SPART_JNT_PRISMATIC ? 5 : 2;
}


void spart_xup(const spart_model *m, spart_data *d, const double *qm) {
  /* X_i = T_i Rz(q) at r_i (revolute), T_i at r_i + q T_i e_z (prismatic), T_i at r_i (fixed) */
  for (int i = 1; i < m->nb; i++) {
    const double *T = d->jc + SPART_JC * i + JC_T, *r = d->jc + SPART_JC * i + JC_R;
    double *restrict Q = d->Xrot + 9 * i, *restrict rho = d->Xpos + 3 * i;
    int type = m->jnt_type[i];
    memcpy(rho, r, 3 * sizeof(double));
    if (type == SPART_JNT_REVOLUTE) {
      double sq, cq;
      spu_sincos(qm[m->jnt_qadr[i]], &sq, &cq);
      for (int k = 0; k < 9; k += 3) {
        Q[k] = cq * T[k] + sq * T[k + 1];
        Q[k + 1] = cq * T[k + 1] - sq * T[k];
        Q[k + 2] = T[k + 2];
      }
    } else {
      memcpy(Q, T, 9 * sizeof(double));
      if (type == SPART_JNT_PRISMATIC) {
        for (int k = 0; k < 3; k++) {
          rho[k] += qm[m->jnt_qadr[i]] * T[3 * k + 2];
        }
      }
    }
  }
}


/* joint i at displacement q (Featherstone's jcalc): Rloc, link i's frame in its parent link's
   frame, and off, link i's CoM from joint i in the parent link's frame */
static void jcalc(const spart_model *m, const spart_data *d, int i, double q, double Rloc[9],
                  double off[3]) {
  const double *c = d->jc + SPART_JC * i;
  int type = m->jnt_type[i];
  if (type == SPART_JNT_REVOLUTE) {
    double cq, sq, vq;
    spu_sincos(q, &sq, &cq);
    vq = 1 - cq;
    for (int k = 0; k < 9; k++) {
      Rloc[k] = cq * c[JC_P1 + k] + vq * c[JC_P2 + k] + sq * c[JC_P3 + k];
    }
    for (int k = 0; k < 3; k++) {
      off[k] = cq * c[JC_V1 + k] + vq * c[JC_V2 + k] + sq * c[JC_V3 + k];
    }
  } else {
    memcpy(Rloc, c + JC_P1, 9 * sizeof(double));
    for (int k = 0; k < 3; k++) {
      off[k] = c[JC_V1 + k] + (type == SPART_JNT_PRISMATIC ? c[JC_JA + k] * q : 0);
    }
  }
}


void spart_fk(const spart_model *m, spart_data *d, const double R0[9], const double r0[3],
              const double *qm) {
  /* base link: its CoM frame is (R0, r0); positions are kept from r0, so that no difference of
     two of them loses digits to a large r0 (an orbit's) */
  memcpy(d->xrot, R0, 9 * sizeof(double));
  memset(d->xpos, 0, 3 * sizeof(double));
  memcpy(d->r0, r0, 3 * sizeof(double));
  memcpy(d->P0, R0, 9 * sizeof(double));
  spu_rotsym3(d->xI, R0, m->body_inertia);
  d->mass = m->body_mass[0];
  memset(d->com, 0, 3 * sizeof(double));

  /* forward pass: the link frame and CoM from the parent link's and the joint displacement */
  for (int i = 1; i < m->nb; i++) {
    int p = m->body_parent[i], type = m->jnt_type[i];
    const double *Rp = d->xrot + 9 * p, *rp = d->xpos + 3 * p, *c = d->jc + SPART_JC * i;
    double *rJ = d->xposJ + 3 * i, *RL = d->xrot + 9 * i, *rL = d->xpos + 3 * i;
    double *e = d->xaxis + 3 * i, *g = d->xg + 3 * i, *S = d->xS + 6 * i;
    double q = m->jnt_qadr[i] >= 0 ? qm[m->jnt_qadr[i]] : 0, Rloc[9], off[3], tmp[3];

    /* joint position and axis (SPART Kinematics: rJ, e) */
    spu_mulmv3(tmp, Rp, m->jnt_pos + 3 * i);
    for (int k = 0; k < 3; k++) {
      rJ[k] = rp[k] + tmp[k];
    }
    spu_mulmv3(e, Rp, c + JC_JA);

    /* joint displacement: the link frame RL and the joint-to-CoM vector g */
    jcalc(m, d, i, q, Rloc, off);
    spu_mulmm3(RL, Rp, Rloc);
    spu_mulmv3(g, Rp, off);
    for (int k = 0; k < 3; k++) {
      rL[k] = rJ[k] + g[k];
    }

    /* motion subspace pm at the link CoM (SPART DiffKinematics) */
    memset(S, 0, 6 * sizeof(double));
    if (type == SPART_JNT_REVOLUTE) {
      memcpy(S, e, 3 * sizeof(double));
      spu_cross(S + 3, e, g);
    } else if (type == SPART_JNT_PRISMATIC) {
      memcpy(S + 3, e, 3 * sizeof(double));
    }

    /* inertia in the inertial frame (SPART I_I), mass moments for the CoM */
    spu_rotsym3(d->xI + 6 * i, RL, m->body_inertia + 6 * i);
    d->mass += m->body_mass[i];
    for (int k = 0; k < 3; k++) {
      d->com[k] += m->body_mass[i] * rL[k];
    }
  }

  /* centre of mass of the system (SPART Center_of_Mass) */
  for (int k = 0; k < 3; k++) {
    d->com[k] = d->mass > 0 ? d->com[k] / d->mass : 0;
  }
}


void spart_joint_frames(const spart_model *m, spart_data *d) {
  for (int i = 1; i < m->nb; i++) {
    spu_mulmm3(d->xrotJ + 9 * i, d->xrot + 9 * m->body_parent[i], m->jnt_rot + 9 * i);
  }
}


void spart_velocity(const spart_model *m, spart_data *d, const double *u0, const double *um) {
  /* base: t0 = P0 u0 */
  double *t0 = d->t;
  memset(t0, 0, 6 * sizeof(double));
  if (u0) {
    spu_mulmv3(t0, d->P0, u0);
    memcpy(t0 + 3, u0 + 3, 3 * sizeof(double));
  }

  /* forward pass: t_i = B_ip t_p + pm_i um_i */
  for (int i = 1; i < m->nb; i++) {
    int p = m->body_parent[i], a = m->jnt_qadr[i];
    double dr[3], *t = d->t + 6 * i;
    for (int k = 0; k < 3; k++) {
      dr[k] = d->xpos[3 * i + k] - d->xpos[3 * p + k];
    }
    spu_mshift(t, d->t + 6 * p, dr);
    if (a >= 0 && um) {
      const double *S = d->xS + 6 * i, ua = um[a];
      for (int k = 0; k < 6; k++) {
        t[k] += S[k] * ua;
      }
    }
  }
}


void spart_acceleration(const spart_model *m, spart_data *d, const double *um, const double *u0dot,
                        const double *umdot) {
  /* base: t0dot = Omega0 P0 u0 + P0 u0dot, where Omega0 P0 u0 = [w0 x w0; 0] = 0 */
  double *a0 = d->tdot;
  memset(a0, 0, 6 * sizeof(double));
  memset(d->c, 0, 6 * sizeof(double));
  if (u0dot) {
    spu_mulmv3(a0, d->P0, u0dot);
    memcpy(a0 + 3, u0dot + 3, 3 * sizeof(double));
  }

  /* forward pass (SPART Accelerations): tdot_i = B_ip tdot_p + c_i + pm_i umdot_i */
  for (int i = 1; i < m->nb; i++) {
    int p = m->body_parent[i], a = m->jnt_qadr[i];
    const double *tp = d->t + 6 * p, *ti = d->t + 6 * i;
    double dr[3], dv[3], *c = d->c + 6 * i, *a_i = d->tdot + 6 * i;
    for (int k = 0; k < 3; k++) {
      dr[k] = d->xpos[3 * i + k] - d->xpos[3 * p + k];
      dv[k] = tp[3 + k] - ti[3 + k];
    }

    /* velocity product: [0; (v_p - v_i) x w_p] + Omega_i pm_i um_i */
    c[0] = c[1] = c[2] = 0;
    spu_cross(c + 3, dv, tp);
    if (a >= 0 && um) {
      double om[6], ua = um[a];
      spu_omega(om, ti, d->xS + 6 * i);
      for (int k = 0; k < 6; k++) {
        c[k] += om[k] * ua;
      }
    }
    spu_mshift(a_i, d->tdot + 6 * p, dr);
    for (int k = 0; k < 6; k++) {
      a_i[k] += c[k];
    }
    if (a >= 0 && umdot) {
      const double *S = d->xS + 6 * i, ud = umdot[a];
      for (int k = 0; k < 6; k++) {
        a_i[k] += S[k] * ud;
      }
    }
  }
}


void spart_positions(const spart_model *m, const spart_data *d, double *rJ, double *rL,
                     double r_com[3]) {
  for (int i = 1; i < m->nb; i++) {
    for (int k = 0; k < 3; k++) {
      rJ[3 * (i - 1) + k] = d->r0[k] + d->xposJ[3 * i + k];
      rL[3 * (i - 1) + k] = d->r0[k] + d->xpos[3 * i + k];
    }
  }
  for (int k = 0; k < 3; k++) {
    r_com[k] = d->r0[k] + d->com[k];
  }
}


void spart_point(const spart_data *d, int i, const double local[3], double x[3]) {
  spu_mulmv3(x, d->xrot + 9 * i, local);
  for (int k = 0; k < 3; k++) {
    x[k] += d->xpos[3 * i + k];
  }
}
