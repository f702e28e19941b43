/* kinematics.c -- spart-codegen's kinematics on symbols (passes.h): each body's joint transform
 * at the coordinates (spart_xup's), the link frames (spart_fk's) and the links' CoM Jacobians
 * (spart_jacobian's), from the joint constants jc of spart_joint_constants. */
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "passes.h"
#include "spart_internal.h"

static const double *jc(const gen *G, int i) {
  return G->d->own_->jc + SPART_JC * i;
}


/* the joint transform of body i at the coordinates q (spart_xup's one_screw), its constant part
   T (9) and r (3): the model's (jc) or the dynamics' (spart_merge_fixed) */
void cg_xup_one(gen *G, const sx *q, int i, const double *T, const double *r) {
  const spart_model *m = G->m;
  cg *g = &G->g;
  sx *Q = G->Q + 9 * i, *rho = G->rho + 3 * i;
  for (int k = 0; k < 9; k++) {
    Q[k] = cg_cst(T[k]);
  }
  for (int k = 0; k < 3; k++) {
    rho[k] = cg_cst(r[k]);
  }
  if (m->jnt_nv[i] == 0) {
    return;
  }
  const double *h = m->dof_screw + 2 * m->jnt_vadr[i];
  sx x = q[m->jnt_qadr[i]];
  if (h[0] != 0) {
    sx ang = cg_mul(g, cg_cst(h[0]), x);
    sx sc = cg_op(g, N_SC, ang, ZERO); /* the sine and cosine of one call */
    sx s = cg_op(g, N_SIN, sc, ZERO), c = cg_op(g, N_COS, sc, ZERO);
    for (int l = 0; l < 9; l += 3) {
      Q[l] = cg_add(g, cg_mul(g, c, cg_cst(T[l])), cg_mul(g, s, cg_cst(T[l + 1])));
      Q[l + 1] = cg_sub(g, cg_mul(g, c, cg_cst(T[l + 1])), cg_mul(g, s, cg_cst(T[l])));
    }
  }
  if (h[1] != 0) {
    sx z = cg_mul(g, cg_cst(h[1]), x);
    for (int l = 0; l < 3; l++) {
      rho[l] = cg_add(g, rho[l], cg_mul(g, z, cg_cst(T[3 * l + 2])));
    }
  }
}


/* the joint transforms of every body (the nodes are made where first needed: a pass that
   takes them body by body makes each just before its use, fewer values held at once) */
static void xup(gen *G, const sx *q) {
  for (int i = 1; i < G->m->nb; i++) {
    cg_xup_one(G, q, i, jc(G, i) + SPART_JC_T, jc(G, i) + SPART_JC_R);
  }
}


/* the joint frames F_i in the inertial frame, R (nb x 9) and p (nb x 3), from the base's pose
   R0, r0 and the joint transforms G->Q, G->rho (xup's) */
static void joint_frames(gen *G, const sx R0[9], const sx r0[3], sx *R, sx *p) {
  const spart_model *m = G->m;
  cg *g = &G->g;
  memcpy(R, R0, 9 * sizeof(sx));
  memcpy(p, r0, 3 * sizeof(sx));
  for (int i = 1; i < m->nb; i++) {
    int par = m->body_parent[i];
    sx *Ri = R + 9 * i, *Rp = R + 9 * par, *Q = G->Q + 9 * i, t[3];
    for (int a = 0; a < 3; a++) {
      for (int b = 0; b < 3; b++) {
        const sx col[3] = {Q[b], Q[3 + b], Q[6 + b]};
        Ri[3 * a + b] = cg_dot3(g, Rp + 3 * a, col);
      }
    }
    cg_mulmv(g, t, Rp, G->rho + 3 * i);
    for (int k = 0; k < 3; k++) {
      p[3 * i + k] = cg_add(g, p[3 * par + k], t[k]);
    }
  }
}


void cg_fk(gen *G, const sx R0[9], const sx r0[3], const sx *q, sx *T) {
  const spart_model *m = G->m;
  cg *g = &G->g;
  int nb = m->nb;
  sx *R = calloc((size_t)nb * 12, sizeof(sx));
  if (!R) {
    g->oom = 1;
    return;
  }
  sx *p = R + 9 * nb;
  xup(G, q);
  joint_frames(G, R0, r0, R, p);
  /* the link frames: RL = R CR, rL = p + R c */
  for (int i = 0; i < nb; i++) {
    const double *CR = jc(G, i) + SPART_JC_CR, *c = jc(G, i) + SPART_JC_C;
    sx *Ti = T + 16 * i, cc[3] = {cg_cst(c[0]), cg_cst(c[1]), cg_cst(c[2])}, t[3];
    for (int a = 0; a < 3; a++) {
      for (int b = 0; b < 3; b++) {
        const sx col[3] = {cg_cst(CR[b]), cg_cst(CR[3 + b]), cg_cst(CR[6 + b])};
        Ti[4 * a + b] = cg_dot3(g, R + 9 * i + 3 * a, col);
      }
    }
    cg_mulmv(g, t, R + 9 * i, cc);
    for (int k = 0; k < 3; k++) {
      Ti[4 * k + 3] = cg_add(g, p[3 * i + k], t[k]);
      Ti[12 + k] = ZERO;
    }
    Ti[15] = ONE;
  }
  free(R);
}


/* for a degree of freedom k of a joint on the path to link i, [S_w; S_v + S_w x (rL_i - p_k)]
   turned into the inertial frame (pm's column at the CoM), 0 elsewhere; the base's
   [R0, 0; -[rL_i - r0]x R0, 1] */
void cg_jac(gen *G, const sx R0[9], const sx r0[3], const sx *q, sx *J0, sx *Jm) {
  const spart_model *m = G->m;
  cg *g = &G->g;
  int nb = m->nb, nv = m->nv;
  sx *T = calloc((size_t)nb * 28, sizeof(sx));
  if (!T) {
    g->oom = 1;
    return;
  }
  sx *R = T + 16 * nb, *p = R + 9 * nb;
  cg_fk(G, R0, r0, q, T);
  /* the joint frames F_i in the inertial frame again (fk's, the same nodes) */
  joint_frames(G, R0, r0, R, p);
  for (int i = 1; i < nb; i++) {
    const sx rL[3] = {T[16 * i + 3], T[16 * i + 7], T[16 * i + 11]};
    sx *Ji = Jm + 6 * nv * (i - 1);
    for (int j = 0; j < nv; j++) {
      int b = m->dof_body[j], on = 0;
      for (int k = i; k > 0 && !on; k = m->body_parent[k]) {
        on = k == b;
      }
      sx col[6] = {ZERO, ZERO, ZERO, ZERO, ZERO, ZERO};
      if (on) {
        sx Sw[3], Sv[3], w[3], lin[3], d[3], wd[3];
        for (int k = 0; k < 3; k++) {
          Sw[k] = cg_cst(m->dof_S[6 * j + k]);
          Sv[k] = cg_cst(m->dof_S[6 * j + 3 + k]);
          d[k] = cg_sub(g, rL[k], p[3 * b + k]);
        }
        cg_mulmv(g, w, R + 9 * b, Sw);
        cg_mulmv(g, lin, R + 9 * b, Sv);
        cg_cross3(g, wd, w, d);
        for (int k = 0; k < 3; k++) {
          col[k] = w[k];
          col[3 + k] = cg_add(g, lin[k], wd[k]);
        }
      }
      for (int r = 0; r < 6; r++) {
        Ji[r * nv + j] = col[r];
      }
    }
    if (J0) {
      sx d[3], *J0i = J0 + 36 * (i - 1);
      for (int k = 0; k < 3; k++) {
        d[k] = cg_sub(g, rL[k], r0[k]);
      }
      for (int c = 0; c < 3; c++) {
        const sx e[3] = {R0[c], R0[3 + c], R0[6 + c]};
        sx wd[3];
        cg_cross3(g, wd, e, d);
        for (int r = 0; r < 3; r++) {
          J0i[6 * r + c] = e[r];
          J0i[6 * r + 3 + c] = ZERO;
          J0i[6 * (3 + r) + c] = wd[r];
          J0i[6 * (3 + r) + 3 + c] = r == c ? ONE : ZERO;
        }
      }
    }
  }
  free(T);
}
