/* spart_fk.c -- kinematics, twists and twist rates of every link (SPART Kinematics,
 * DiffKinematics, Velocities, Accelerations, I_I, Center_of_Mass), forward passes over the
 * parent array */
#include <math.h>
#include <string.h>

#include "spart.h"
#include "spu.h"


/* joint i at its coordinate qm[jnt_qadr] (Featherstone's jcalc in SPART's frames, from the
   joint constants): Rloc, link i's frame in its parent link's frame, and off, link i's CoM from
   joint i in the parent link's frame.  The coordinate's screw (dof_screw) turns the link by h0 q
   about the joint axis and moves it by h1 q along it; a joint without one is at q = 0. */
static void jcalc(const spart_model *m, const spart_data *d, int i, const double *qm,
                  double Rloc[9], double off[3]) {
  const double *c = d->jc + SPART_JC * i;
  double cq = 1, sq = 0, x = 0;
  for (int j = m->jnt_qadr[i], end = j + m->jnt_nq[i]; j < end; j++) {
    const double *h = m->dof_screw + 2 * (m->jnt_vadr[i] + j - m->jnt_qadr[i]);
    spu_sincos(h[0] * qm[j], &sq, &cq);
    x = h[1] * qm[j];
  }
  double vq = 1 - cq;
  for (int k = 0; k < 9; k++) {
    Rloc[k] = cq * c[SPART_JC_P1 + k] + vq * c[SPART_JC_P2 + k] + sq * c[SPART_JC_P3 + k];
  }
  for (int k = 0; k < 3; k++) {
    off[k] = cq * c[SPART_JC_V1 + k] + vq * c[SPART_JC_V2 + k] + sq * c[SPART_JC_V3 + k] +
             x * c[SPART_JC_JA + k];
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
    int p = m->body_parent[i];
    const double *Rp = d->xrot + 9 * p, *rp = d->xpos + 3 * p, *c = d->jc + SPART_JC * i;
    double *rJ = d->xposJ + 3 * i, *RL = d->xrot + 9 * i, *rL = d->xpos + 3 * i;
    double *e = d->xaxis + 3 * i, *g = d->xg + 3 * i, Rloc[9], off[3], tmp[3];

    /* joint position and axis (SPART Kinematics: rJ, e) */
    spu_mulmv3(tmp, Rp, m->jnt_pos + 3 * i);
    for (int k = 0; k < 3; k++) {
      rJ[k] = rp[k] + tmp[k];
    }
    spu_mulmv3(e, Rp, c + SPART_JC_JA);

    /* joint displacement: the link frame RL and the joint-to-CoM vector g */
    jcalc(m, d, i, qm, Rloc, off);
    spu_mulmm3(RL, Rp, Rloc);
    spu_mulmv3(g, Rp, off);
    for (int k = 0; k < 3; k++) {
      rL[k] = rJ[k] + g[k];
    }

    /* motion subspace pm of each degree of freedom at the link CoM (SPART DiffKinematics): a
       rotation h0 about the axis e and a translation h1 along it, [h0 e; h0 e x g + h1 e] */
    for (int v = m->jnt_vadr[i], end = v + m->jnt_nv[i]; v < end; v++) {
      double h0 = m->dof_screw[2 * v], h1 = m->dof_screw[2 * v + 1], *S = d->xS + 6 * v, exg[3];
      spu_cross(exg, e, g);
      for (int k = 0; k < 3; k++) {
        S[k] = h0 * e[k];
        S[3 + k] = h0 * exg[k] + h1 * e[k];
      }
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
    int p = m->body_parent[i];
    double dr[3], *t = d->t + 6 * i;
    for (int k = 0; k < 3; k++) {
      dr[k] = d->xpos[3 * i + k] - d->xpos[3 * p + k];
    }
    spu_mshift(t, d->t + 6 * p, dr);
    if (um) {
      for (int v = m->jnt_vadr[i], end = v + m->jnt_nv[i]; v < end; v++) {
        const double *S = d->xS + 6 * v, ua = um[v];
        for (int k = 0; k < 6; k++) {
          t[k] += S[k] * ua;
        }
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
    int p = m->body_parent[i], v0 = m->jnt_vadr[i], v1 = v0 + m->jnt_nv[i];
    const double *tp = d->t + 6 * p, *ti = d->t + 6 * i;
    double dr[3], dv[3], *c = d->c + 6 * i, *a_i = d->tdot + 6 * i;
    for (int k = 0; k < 3; k++) {
      dr[k] = d->xpos[3 * i + k] - d->xpos[3 * p + k];
      dv[k] = tp[3 + k] - ti[3 + k];
    }

    /* velocity product: [0; (v_p - v_i) x w_p] + Omega_i pm_i um_i */
    c[0] = c[1] = c[2] = 0;
    spu_cross(c + 3, dv, tp);
    for (int v = v0; um && v < v1; v++) {
      double om[6], ua = um[v];
      spu_omega(om, ti, d->xS + 6 * v);
      for (int k = 0; k < 6; k++) {
        c[k] += om[k] * ua;
      }
    }
    spu_mshift(a_i, d->tdot + 6 * p, dr);
    for (int k = 0; k < 6; k++) {
      a_i[k] += c[k];
    }
    for (int v = v0; umdot && v < v1; v++) {
      const double *S = d->xS + 6 * v, ud = umdot[v];
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
