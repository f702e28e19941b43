/* spart_mimic.c -- mimic joints coupled to their leaders: the system's coordinates (q = K qc + o,
 * v = K vc) and its forces and matrices from the tree's (K' f, A K, K' A K) */
#include <stdio.h>
#include <string.h>

#include "spart.h"
#include "spart_internal.h"


/* joint i's name ("?" for none: a coupled follower and its leader have names) */
static const char *nm(const spart_model *m, int i) {
  return m->jnt_name[i] ? m->jnt_name[i] : "?";
}


/* the body of the joint named name, or -1 */
static int joint_named(const spart_model *m, const char *name) {
  for (int i = 1; i < m->nb; i++) {
    if (m->jnt_name[i] && strcmp(m->jnt_name[i], name) == 0) {
      return i;
    }
  }
  return -1;
}


/* whether joint i has one coordinate and one degree of freedom (revolute, prismatic, helical):
   a follower's q = k0 q_leader + k1, of the same kind or another (a rack and pinion: a
   prismatic joint following a revolute one) */
static int one_dof(const spart_model *m, int i) {
  return m->jnt_nq[i] == 1 && m->jnt_nv[i] == 1;
}


/* follower i's free leader, its multiplier and offset to it in k (2), resolving a chain of
   mimics; -1 with err filled when the chain is bad */
static int resolve(const spart_model *m, int i, double k[2], spart_err *err) {
  char chain[400];
  int at = i, len = snprintf(chain, sizeof chain, "'%s'", nm(m, i));
  k[0] = 1;
  k[1] = 0;
  for (int steps = 0; m->jnt_mimic[at]; steps++) {
    int l = joint_named(m, m->jnt_mimic[at]);
    if (l < 0) { /* spart_model_check's check_mimic refused it before */
      return spart_err_set(err, SPART_EDATA, 0, "joint '%s': mimics unknown joint '%s'",
                           nm(m, at), m->jnt_mimic[at]);
    }
    if (len < (int)sizeof chain) {
      len += snprintf(chain + len, sizeof chain - (size_t)len, " -> '%s'", nm(m, l));
    }
    if (!one_dof(m, at) || !one_dof(m, l)) {
      int f = one_dof(m, at) ? l : at;
      return spart_err_set(err, SPART_EDATA, 0, "joint '%s': a coupled mimic joint and its "
                           "leader are revolute, prismatic or helical, not a %s joint", nm(m, f),
                           spart_joint_name(m->jnt_type[f]));
    }
    if (l == i || steps >= m->nb) {
      return spart_err_set(err, SPART_EDATA, 0, "joint '%s': mimics form a cycle: %s",
                           nm(m, i), chain);
    }
    /* q_at = a q_l + b: k of q_at becomes k of q_l */
    const double *ab = m->jnt_mimic_k + 2 * at;
    k[1] += k[0] * ab[1];
    k[0] *= ab[0];
    at = l;
  }
  return at;
}


int spart_mimic_setup(spart_model *m, spart_err *err) {
  int *leader = m->jnt_qadrc; /* scratch first: each follower's free leader */

  /* the followers' leaders and couplings */
  for (int i = 0; i < m->nb; i++) {
    double *k = m->jnt_couple + 2 * i;
    k[0] = 1;
    k[1] = 0;
    leader[i] = -1;
    if (m->coupled && i > 0 && m->jnt_mimic[i]) {
      leader[i] = resolve(m, i, k, err);
      if (leader[i] < 0) {
        return -SPART_EDATA;
      }
    }
  }

  /* the system's numbering: the tree's without the followers, each at its leader's (whose
     body comes before it or after it: a second pass) */
  int nq = 0, nv = 0;
  for (int i = 0; i < m->nb; i++) {
    if (leader[i] >= 0) {
      m->jnt_vadrc[i] = -2 - leader[i]; /* set below */
      continue;
    }
    m->jnt_vadrc[i] = m->jnt_nv[i] > 0 ? nv : -1;
    leader[i] = m->jnt_nq[i] > 0 ? nq : -1; /* leader[] is jnt_qadrc */
    nq += m->jnt_nq[i];
    nv += m->jnt_nv[i];
  }
  for (int i = 0; i < m->nb; i++) {
    if (m->jnt_vadrc[i] <= -2) {
      int l = -2 - m->jnt_vadrc[i];
      m->jnt_vadrc[i] = m->jnt_vadrc[l];
      m->jnt_qadrc[i] = m->jnt_qadrc[l];
    }
  }
  m->nqc = nq;
  m->nvc = nv;
  return 0;
}


int spart_mimic_couple(spart_model *m, spart_err *err) {
  m->coupled = 1;
  if (spart_mimic_setup(m, err) != 0) {
    m->coupled = 0;
    spart_mimic_setup(m, NULL);
    return -SPART_EDATA;
  }
  return 0;
}


/* q = K qc + o (offset 1) or K qc (offset 0) */
static void expand_q(const spart_model *m, const double *qc, int offset, double *q) {
  for (int i = 1; i < m->nb; i++) {
    const double *k = m->jnt_couple + 2 * i;
    const int a = m->jnt_qadr[i], c = m->jnt_qadrc[i];
    if (m->coupled && m->jnt_mimic[i]) {
      q[a] = k[0] * qc[c] + (offset ? k[1] : 0);
    } else {
      for (int j = 0; j < m->jnt_nq[i]; j++) {
        q[a + j] = qc[c + j];
      }
    }
  }
}


void spart_mimic_q(const spart_model *m, const double *qc, double *q) {
  expand_q(m, qc, 1, q);
}


void spart_mimic_qdot(const spart_model *m, const double *qcdot, double *qdot) {
  expand_q(m, qcdot, 0, qdot);
}


void spart_mimic_v(const spart_model *m, const double *vc, double *v) {
  for (int j = 0; j < m->nv; j++) {
    const int i = m->dof_body[j], r = m->jnt_vadrc[i] + j - m->jnt_vadr[i];
    v[j] = m->jnt_couple[2 * i] * vc[r];
  }
}


void spart_mimic_qc(const spart_model *m, const double *q, double *qc) {
  for (int i = 1; i < m->nb; i++) {
    if (!(m->coupled && m->jnt_mimic[i])) {
      for (int j = 0; j < m->jnt_nq[i]; j++) {
        qc[m->jnt_qadrc[i] + j] = q[m->jnt_qadr[i] + j];
      }
    }
  }
}


void spart_mimic_vc(const spart_model *m, const double *v, double *vc) {
  for (int i = 1; i < m->nb; i++) {
    if (!(m->coupled && m->jnt_mimic[i])) {
      for (int j = 0; j < m->jnt_nv[i]; j++) {
        vc[m->jnt_vadrc[i] + j] = v[m->jnt_vadr[i] + j];
      }
    }
  }
}


void spart_mimic_lift(const spart_model *m, const double *fc, double *f) {
  for (int j = 0; j < m->nv; j++) {
    const int i = m->dof_body[j], r = m->jnt_vadrc[i] + j - m->jnt_vadr[i];
    f[j] = m->coupled && m->jnt_mimic[i] ? 0 : fc[r];
  }
}


/* the system's index (b + ...) of the tree's degree of freedom j (b + ...) and its weight in K */
static int column(const spart_model *m, int b, int j, double *w) {
  if (j < b) {
    *w = 1;
    return j;
  }
  const int i = m->dof_body[j - b];
  *w = m->jnt_couple[2 * i];
  return b + m->jnt_vadrc[i] + (j - b) - m->jnt_vadr[i];
}


void spart_mimic_force(const spart_model *m, int b, const double *f, double *fc) {
  memset(fc, 0, (size_t)(b + m->nvc) * sizeof(double));
  for (int j = 0; j < b + m->nv; j++) {
    double w;
    int r = column(m, b, j, &w);
    fc[r] += w * f[j];
  }
}


void spart_mimic_cols(const spart_model *m, int b, int rows, const double *A, double *Ac) {
  const int n = b + m->nv, nc = b + m->nvc;
  memset(Ac, 0, (size_t)rows * (size_t)nc * sizeof(double));
  for (int j = 0; j < n; j++) {
    double w;
    int r = column(m, b, j, &w);
    for (int k = 0; k < rows; k++) {
      Ac[k * nc + r] += w * A[k * n + j];
    }
  }
}


void spart_mimic_matrix(const spart_model *m, int b, const double *A, double *Ac) {
  const int n = b + m->nv, nc = b + m->nvc;
  memset(Ac, 0, (size_t)nc * (size_t)nc * sizeof(double));
  for (int j = 0; j < n; j++) {
    double wj;
    int rj = column(m, b, j, &wj);
    for (int k = 0; k < n; k++) {
      double wk;
      int rk = column(m, b, k, &wk);
      Ac[rj * nc + rk] += wj * wk * A[j * n + k];
    }
  }
}


size_t spart_mimic_fd_work(const spart_model *m) {
  size_t n = 6 + (size_t)m->nv, nc = 6 + (size_t)m->nvc;
  return n * n + nc * nc + 2 * n + nc;
}
