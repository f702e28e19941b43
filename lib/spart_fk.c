/* spart_fk.c -- kinematics, twists and twist rates of every link (SPART Kinematics,
 * DiffKinematics, Velocities, Accelerations, I_I, Center_of_Mass), forward passes over the
 * parent array */
#include <string.h>

#include "spart.h"
#include "spu.h"


void spart_fk(const spart_model *m, spart_data *d, const double R0[9], const double r0[3],
              const double *qm) {
  /* base link: its CoM frame is (R0, r0) */
  memcpy(d->xrot, R0, 9 * sizeof(double));
  memcpy(d->xpos, r0, 3 * sizeof(double));
  memcpy(d->P0, R0, 9 * sizeof(double));
  spu_rotsym3(d->xI, R0, m->body_inertia);
  d->mass = m->body_mass[0];
  for (int k = 0; k < 3; k++) {
    d->com[k] = m->body_mass[0] * r0[k];
  }

  /* forward pass: joint frame from the parent link, link frame from the joint displacement */
  for (int i = 1; i < m->nb; i++) {
    int p = m->body_parent[i], type = m->jnt_type[i];
    const double *axis = m->jnt_axis + 3 * i;
    double *RJ = d->xrotJ + 9 * i, *rJ = d->xposJ + 3 * i, *RL = d->xrot + 9 * i;
    double *rL = d->xpos + 3 * i, *e = d->xaxis + 3 * i, *g = d->xg + 3 * i, *S = d->xS + 6 * i;
    double q = m->jnt_qadr[i] >= 0 ? qm[m->jnt_qadr[i]] : 0, tmp[3], RJq[9], off[3];

    spu_mulmm3(RJ, d->xrot + 9 * p, m->jnt_rot + 9 * i);
    spu_mulmv3(tmp, d->xrot + 9 * p, m->jnt_pos + 3 * i);
    for (int k = 0; k < 3; k++) {
      rJ[k] = d->xpos[3 * p + k] + tmp[k];
    }
    spu_mulmv3(e, RJ, axis);

    /* joint displacement T_qm, then the link CoM frame */
    memcpy(off, m->body_pos + 3 * i, sizeof(off));
    if (type == SPART_JNT_REVOLUTE) {
      double Rq[9];
      spu_axisangle(Rq, axis, q);
      spu_mulmm3(RJq, RJ, Rq);
      spu_mulmv3(off, Rq, m->body_pos + 3 * i);
    } else {
      memcpy(RJq, RJ, sizeof(RJq));
      if (type == SPART_JNT_PRISMATIC) {
        for (int k = 0; k < 3; k++) {
          off[k] += axis[k] * q;
        }
      }
    }
    spu_mulmm3(RL, RJq, m->body_rot + 9 * i);
    spu_mulmv3(tmp, RJ, off);
    for (int k = 0; k < 3; k++) {
      rL[k] = rJ[k] + tmp[k];
      g[k] = tmp[k];
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
      for (int k = 0; k < 6; k++) {
        t[k] += d->xS[6 * i + k] * um[a];
      }
    }
  }
}


void spart_acceleration(const spart_model *m, spart_data *d, const double *um,
                        const double *u0dot, const double *umdot) {
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
      double om[6];
      spu_omega(om, ti, d->xS + 6 * i);
      for (int k = 0; k < 6; k++) {
        c[k] += om[k] * um[a];
      }
    }
    spu_mshift(a_i, d->tdot + 6 * p, dr);
    for (int k = 0; k < 6; k++) {
      a_i[k] += c[k] + (a >= 0 && umdot ? d->xS[6 * i + k] * umdot[a] : 0);
    }
  }
}


void spart_point(const spart_data *d, int i, const double local[3], double x[3]) {
  spu_mulmv3(x, d->xrot + 9 * i, local);
  for (int k = 0; k < 3; k++) {
    x[k] += d->xpos[3 * i + k];
  }
}
