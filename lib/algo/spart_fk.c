/* spart_fk.c -- kinematics, twists and twist rates of every link (SPART Kinematics,
 * DiffKinematics, Velocities, Accelerations, I_I, Center_of_Mass), forward passes over the
 * parent array */
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"


/* the dof column S_v (dof_S: e_k in F_i at its origin, or any column) at link i's CoM in the
   inertial frame, F_i being W, gc the CoM from F_i's origin (inertial): [W s_w; W s_v + W s_w x
   gc] (SPART's pm) */
static void dof_column(double S[6], const spart_model *m, int v, const double W[9],
                       const double gc[3]) {
  int k = m->dof_axis[v];
  if (k < 0) { /* S_v not one unit column (a helical joint's) */
    const double *s = m->dof_S + 6 * v;
    double lin[3], c[3];
    spu_mulmv3(S, W, s);
    spu_mulmv3(lin, W, s + 3);
    spu_cross(c, S, gc);
    for (int r = 0; r < 3; r++) {
      S[3 + r] = lin[r] + c[r];
    }
    return;
  }
  memset(S, 0, 6 * sizeof(double));
  if (k < 3) {
    S[0] = W[k];
    S[1] = W[3 + k];
    S[2] = W[6 + k];
    spu_cross(S + 3, S, gc);
  } else {
    S[3] = W[k - 3];
    S[4] = W[k];
    S[5] = W[k + 3];
  }
}


void spart_fk(const spart_model *m, spart_data *d, const spart_state *s) {
  const double *R0 = s->R0, *r0 = s->r0, *qm = s->qm;
  /* the base: F_0 is its CoM frame at (R0, r0); positions are kept from r0, so that no
     difference of two of them loses digits to a large r0 (an orbit's) */
  memcpy(d->xrotF, R0, 9 * sizeof(double));
  memset(d->xposF, 0, 3 * sizeof(double));
  memcpy(d->r0, r0, 3 * sizeof(double));
  memcpy(d->P0, R0, 9 * sizeof(double));

  double mass = 0, com[3] = {0, 0, 0};
  const double *jc = d->own_->jc;
  for (int i = 0; i < m->nb; i++) {
    const double *c = jc + SPART_JC * i;
    double *W = d->xrotF + 9 * i, *rL = d->xpos + 3 * i;
    if (i == 0) {
      memset(rL, 0, 3 * sizeof(double));
    } else {
      /* F_i from F_p: at q = 0 W_p T, at the joint's position rJ = o_p + W_p r, then the joint's
         motion (spart_joint_move): W_i = W_p T X_J(q), o_i = rJ + its displacement dJ */
      int p = m->body_parent[i];
      const double *Wp = d->xrotF + 9 * p, *op = d->xposF + 3 * p;
      double rJ[3], dJ[3] = {0, 0, 0}, gc[3];
      spu_mulmm3(W, Wp, c + SPART_JC_T);
      spu_mulmv3(rJ, Wp, c + SPART_JC_R);
      spart_joint_move(m, i, qm, W, dJ);

      /* the joint's position rJ, axis e, the joint to CoM vector g (its displacement, then F_i's
         origin to the CoM) and the CoM rL (SPART Kinematics) */
      spu_mulmv3(gc, W, c + SPART_JC_C);
      for (int k = 0; k < 3; k++) {
        double g = dJ[k] + gc[k];
        rJ[k] += op[k];
        d->xposJ[3 * i + k] = rJ[k];
        d->xposF[3 * i + k] = rJ[k] + dJ[k];
        d->xg[3 * i + k] = g;
        rL[k] = rJ[k] + g;
      }
      spu_mulmv3(d->xaxis + 3 * i, W, c + SPART_JC_AX);

      /* the degrees of freedom at the link CoM (SPART DiffKinematics' pm) */
      for (int v = m->jnt_vadr[i], end = v + m->jnt_nv[i]; v < end; v++) {
        dof_column(d->xS + 6 * v, m, v, W, gc);
      }
    }

    /* the link frame RL = W CR (columns of W when CR is a signed permutation), its inertia in
       the inertial frame (SPART I_I), the mass moments for the CoM */
    double *RL = d->xrot + 9 * i;
    const double *P = c + SPART_JC_CRP;
    if (P[0] == 1 && P[1] == 2 && P[2] == 3) {
      memcpy(RL, W, 9 * sizeof(double));
    } else if (P[0] != 0) {
      for (int j = 0; j < 3; j++) {
        double sg = P[j] > 0 ? 1 : -1;
        int k = (int)(sg * P[j]) - 1;
        RL[j] = sg * W[k];
        RL[3 + j] = sg * W[3 + k];
        RL[6 + j] = sg * W[6 + k];
      }
    } else {
      spu_mulmm3(RL, W, c + SPART_JC_CR);
    }
    spu_rotsym3(d->xI + 6 * i, RL, m->body_inertia + 6 * i);
    mass += m->body_mass[i];
    for (int k = 0; k < 3; k++) {
      com[k] += m->body_mass[i] * rL[k];
    }
  }

  /* centre of mass of the system (SPART Center_of_Mass) */
  d->mass = mass;
  for (int k = 0; k < 3; k++) {
    d->com[k] = mass > 0 ? com[k] / mass : 0;
  }
}


void spart_joint_frames(const spart_model *m, spart_data *d) {
  for (int i = 1; i < m->nb; i++) {
    spu_mulmm3(d->xrotJ + 9 * i, d->xrot + 9 * m->body_parent[i], m->jnt_rot + 9 * i);
  }
}


void spart_velocity(const spart_model *m, spart_data *d, const spart_state *s) {
  const double *u0 = s->u0, *um = s->um;
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


void spart_acceleration(const spart_model *m, spart_data *d, const spart_state *s) {
  const double *um = s->um, *u0dot = s->u0dot, *umdot = s->umdot;
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


void spart_world(const spart_data *d, const double x[3], double r[3]) {
  for (int k = 0; k < 3; k++) {
    r[k] = d->r0[k] + x[k];
  }
}


void spart_inertias(const spart_model *m, const spart_data *d, double *I) {
  for (int i = 0; i < m->nb; i++) {
    spu_sym_to_mat3(I + 9 * i, d->xI + 6 * i);
  }
}
