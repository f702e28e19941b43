/* spart_momentum.c -- the system's motion as a whole: the velocity and Jacobian of its centre of
 * mass, its momentum and energies, and SPART's composite inertias (MCB) */
#include <string.h>

#include "spart.h"
#include "spu.h"


void spart_com_velocity(const spart_model *m, const spart_data *d, double v[3]) {
  /* sum m_i v_i / M; without mass the CoM is r0 (spart_fk), moving at r0dot */
  memset(v, 0, 3 * sizeof(double));
  for (int i = 0; i < m->nb; i++) {
    for (int k = 0; k < 3; k++) {
      v[k] += m->body_mass[i] * d->t[6 * i + 3 + k];
    }
  }
  for (int k = 0; k < 3; k++) {
    v[k] = d->mass > 0 ? v[k] / d->mass : d->t[3 + k];
  }
}


void spart_com_jacobian(const spart_model *m, spart_data *d, double J0[18], double *Jm) {
  /* backward pass: mass and first moment (from r0) of every subtree, in d->f */
  for (int i = 0; i < m->nb; i++) {
    double *s = d->f + 6 * i;
    s[0] = m->body_mass[i];
    for (int k = 0; k < 3; k++) {
      s[1 + k] = m->body_mass[i] * d->xpos[3 * i + k];
    }
  }
  for (int i = m->nb - 1; i > 0; i--) {
    double *s = d->f + 6 * i, *sp = d->f + 6 * m->body_parent[i];
    for (int k = 0; k < 4; k++) {
      sp[k] += s[k];
    }
  }

  /* the base: a turn omega0 (base frame) moves the CoM by (R0 omega0) x (r_com - r0), a
     translation moves it as much */
  memset(J0, 0, 18 * sizeof(double));
  for (int c = 0; c < 3; c++) {
    double col[3] = {d->P0[c], d->P0[3 + c], d->P0[6 + c]}, x[3];
    spu_cross(x, col, d->com);
    for (int r = 0; r < 3; r++) {
      J0[6 * r + c] = x[r];
    }
    J0[6 * c + 3 + c] = 1;
  }

  /* a degree of freedom of body j moves its subtree (mass M_j, first moment h_j):
     (M_j pm_v + pm_w x (h_j - M_j r_j)) / M */
  memset(Jm, 0, 3 * (size_t)m->nv * sizeof(double));
  if (!(d->mass > 0)) {
    return;
  }
  for (int v = 0; v < m->nv; v++) {
    int j = m->dof_body[v];
    const double *S = d->xS + 6 * v, *s = d->f + 6 * j;
    double arm[3], x[3];
    for (int k = 0; k < 3; k++) {
      arm[k] = s[1 + k] - s[0] * d->xpos[3 * j + k];
    }
    spu_cross(x, S, arm);
    for (int r = 0; r < 3; r++) {
      Jm[(size_t)m->nv * r + v] = (s[0] * S[3 + r] + x[r]) / d->mass;
    }
  }
}


void spart_momentum(const spart_model *m, const spart_data *d, double h[6]) {
  /* [sum I_i w_i + (r_i - r_com) x m_i v_i; sum m_i v_i] */
  memset(h, 0, 6 * sizeof(double));
  for (int i = 0; i < m->nb; i++) {
    const double *t = d->t + 6 * i, mi = m->body_mass[i];
    double Iw[3], arm[3], x[3], p[3];
    spu_mulsv3(Iw, d->xI + 6 * i, t);
    for (int k = 0; k < 3; k++) {
      arm[k] = d->xpos[3 * i + k] - d->com[k];
      p[k] = mi * t[3 + k];
    }
    spu_cross(x, arm, p);
    for (int k = 0; k < 3; k++) {
      h[k] += Iw[k] + x[k];
      h[3 + k] += p[k];
    }
  }
}


void spart_centroidal(const spart_model *m, const spart_data *d, double *AG, double *work) {
  const int nc = 6 + m->nv;
  memset(AG, 0, 6 * (size_t)nc * sizeof(double));
  /* each body's CoM Jacobian J_i, its momentum about the CoM [I w + arm x m v; m v] a column */
  for (int i = 0; i < m->nb; i++) {
    const double mi = m->body_mass[i];
    double arm[3];
    spart_jacobian(m, d, i, NULL, work, work + 36);
    for (int k = 0; k < 3; k++) {
      arm[k] = d->xpos[3 * i + k] - d->com[k];
    }
    for (int c = 0; c < nc; c++) {
      const double *J = c < 6 ? work + c : work + 36 + (c - 6);
      const int st = c < 6 ? 6 : m->nv; /* row stride of J0 or Jm */
      double w[3] = {J[0], J[st], J[2 * st]}, p[3], Iw[3], x[3];
      for (int k = 0; k < 3; k++) {
        p[k] = mi * J[(3 + k) * st];
      }
      spu_mulsv3(Iw, d->xI + 6 * i, w);
      spu_cross(x, arm, p);
      for (int k = 0; k < 3; k++) {
        AG[k * nc + c] += Iw[k] + x[k];
        AG[(3 + k) * nc + c] += p[k];
      }
    }
  }
}


void spart_centroidal_bias(const spart_model *m, spart_data *d, const spart_state *s,
                           double h[6]) {
  spart_state rest = *s; /* the state's velocities, zero accelerations */
  rest.u0dot = rest.umdot = NULL;
  spart_acceleration(m, d, &rest);
  memset(h, 0, 6 * sizeof(double));
  for (int i = 0; i < m->nb; i++) {
    const double *t = d->t + 6 * i, *a = d->tdot + 6 * i, mi = m->body_mass[i];
    double Ia[3], Iw[3], wIw[3], arm[3], p[3], x[3];
    spu_mulsv3(Ia, d->xI + 6 * i, a);
    spu_mulsv3(Iw, d->xI + 6 * i, t);
    spu_cross(wIw, t, Iw);
    for (int k = 0; k < 3; k++) {
      arm[k] = d->xpos[3 * i + k] - d->com[k];
      p[k] = mi * a[3 + k];
    }
    spu_cross(x, arm, p);
    for (int k = 0; k < 3; k++) {
      h[k] += Ia[k] + wIw[k] + x[k];
      h[3 + k] += p[k];
    }
  }
}


double spart_kinetic_energy(const spart_model *m, const spart_data *d) {
  /* 1/2 sum (w_i . I_i w_i + m_i v_i . v_i) */
  double e = 0;
  for (int i = 0; i < m->nb; i++) {
    const double *t = d->t + 6 * i;
    double Iw[3];
    spu_mulsv3(Iw, d->xI + 6 * i, t);
    e += spu_dot3(t, Iw) + m->body_mass[i] * spu_dot3(t + 3, t + 3);
  }
  return e / 2;
}


double spart_potential_energy(const spart_model *m, const spart_data *d, const double g[3]) {
  /* -M g . r_com, 0 at the inertial origin */
  (void)m;
  double r[3];
  for (int k = 0; k < 3; k++) {
    r[k] = d->r0[k] + d->com[k];
  }
  return -d->mass * spu_dot3(g, r) + 0.0; /* + 0.0: no -0 */
}


void spart_mcb(const spart_model *m, const spart_data *d, double M0[36], double *Mm) {
  /* compact inertias (spu_inertbody) of every link about its own CoM, inertial axes, in the
     first 10 doubles of its block of Mm; the base's in c0 */
  double c0[10], tmp[10];
  spu_inertbody(c0, m->body_mass[0], d->xI);
  for (int i = 1; i < m->nb; i++) {
    spu_inertbody(Mm + 36 * (i - 1), m->body_mass[i], d->xI + 6 * i);
  }

  /* backward pass: each subtree's inertia moved to its parent's CoM and added (SPART's
     Mm_tilde_p += Bip' Mm_tilde_i Bip) */
  for (int i = m->nb - 1; i > 0; i--) {
    int p = m->body_parent[i];
    double dr[3], *cp = p > 0 ? Mm + 36 * (p - 1) : c0;
    for (int k = 0; k < 3; k++) {
      dr[k] = d->xpos[3 * i + k] - d->xpos[3 * p + k];
    }
    spu_inertshift(tmp, Mm + 36 * (i - 1), dr);
    for (int k = 0; k < 10; k++) {
      cp[k] += tmp[k];
    }
  }

  /* 6x6 matrices [J [h]x; [h]x' m] (+ 0.0: no -0 from a zero h) */
  spu_inert_to_mat6(M0, c0);
  for (int k = 0; k < 36; k++) {
    M0[k] += 0.0;
  }
  for (int i = 1; i < m->nb; i++) {
    double *M = Mm + 36 * (i - 1);
    memcpy(tmp, M, sizeof tmp);
    spu_inert_to_mat6(M, tmp);
    for (int k = 0; k < 36; k++) {
      M[k] += 0.0;
    }
  }
}
