/* spart-gim -- generalized and convective inertia matrices */
#include "spart.h"

static const spart_tool tool = {
    "spart-gim", "[OPTIONS] [-m MODEL] < STATES",
    "Inertia matrices (SPART GIM by composite rigid bodies, CIM).  For each state record,\n"
    "writes the generalized inertia matrix H of u = [u0; um], and with velocities the\n"
    "convective inertia matrix C, so that H udot + C u = [tau0; taum] + N' wF.\n\n"
    "Outputs: H0 (6x6), H0m (6 x n_q), Hm (n_q x n_q), H; with velocities (u0 or um) also\n"
    "C0, C0m, Cm0, Cm, C.\n\n"
    "Options:\n"
    "      --coriolis       also Cu = C u, the Coriolis and centrifugal forces (Newton-Euler)\n"
    "      --gravity G      gx,gy,gz: also G, the generalized forces that hold the weight m*g\n"
    "      --inverse        also Hinv, the inverse of H\n"
    "      --fixed-base     the base does not move: writes only the joint blocks Hm, Cm (and\n"
    "                       Cu, G, Hinv of the joints)\n",
    SPART_OPT_FIXED | SPART_OPT_GRAVITY | SPART_OPT_GIM};


int main(int argc, char **argv) {
  int status;
  spart_session *s = spart_session_start(&tool, argc, argv, &status);
  if (!s) {
    return status;
  }
  const spart_opts o = s->o;
  const unsigned vel = 1u << SPART_F_u0 | 1u << SPART_F_um;
  while (spart_next(s)) {
    spart_state *st = s->st;
    size_t nq = (size_t)s->m->nq, nv = 6 + nq, sk = o.fixed_base ? 6 : 0, ns = nv - sk;
    double *H = spart_session_buf(s, 0, 2 * nv * nv), *C = H ? H + nv * nv : NULL;
    double *blk = spart_session_buf(s, 1, 2 * (36 + 12 * nq + nq * nq) + 2 * nv);
    double *inv = o.inverse ? spart_session_buf(s, 2, 2 * nv * nv) : NULL;
    if (!H || !blk || (o.inverse && !inv)) {
      continue;
    }
    double *H0 = blk, *H0m = H0 + 36, *Hm = H0m + 6 * nq, *C0 = Hm + nq * nq, *C0m = C0 + 36;
    double *Cm0 = C0m + 6 * nq, *Cm = Cm0 + 6 * nq, *Cu = Cm + nq * nq, *G = Cu + nv;
    spart_session_kinematics(s);
    spart_crba(s->m, s->d, o.fixed_base, o.fixed_base ? Hm : H);
    if (!o.fixed_base) {
      spart_split(s->m, H, H0, H0m, NULL, Hm);
    }
    if (o.inverse && spart_spd_inverse(o.fixed_base ? Hm : H, (int)ns, inv + nv * nv, inv)) {
      spart_fail(s, "the inertia matrix is singular");
      continue;
    }
    if (!o.fixed_base) {
      spart_put(s->wr, "H0", H0, 6, 6, -1);
      spart_put(s->wr, "H0m", H0m, 6, (int)nq, -1);
    }
    spart_put(s->wr, "Hm", Hm, (int)nq, (int)nq, -1);
    if (!o.fixed_base) {
      spart_put(s->wr, "H", H, (int)nv, (int)nv, -1);
    }
    if (st->has & vel) {
      spart_cim(s->m, s->d, C);
      spart_split(s->m, C, C0, C0m, Cm0, Cm);
      if (!o.fixed_base) {
        spart_put(s->wr, "C0", C0, 6, 6, -1);
        spart_put(s->wr, "C0m", C0m, 6, (int)nq, -1);
        spart_put(s->wr, "Cm0", Cm0, (int)nq, 6, -1);
      }
      spart_put(s->wr, "Cm", Cm, (int)nq, (int)nq, -1);
      if (!o.fixed_base) {
        spart_put(s->wr, "C", C, (int)nv, (int)nv, -1);
      }
    }
    if (o.coriolis) {
      spart_rnea(s->m, s->d, st->um, NULL, NULL, NULL, NULL, Cu);
      spart_put(s->wr, "Cu", Cu + sk, (int)ns, -1, -1);
    }
    if (o.has_gravity) {
      spart_velocity(s->m, s->d, NULL, NULL);
      spart_rnea(s->m, s->d, NULL, NULL, NULL, NULL, o.gravity, G);
      spart_put(s->wr, "G", G + sk, (int)ns, -1, -1);
    }
    if (o.inverse) {
      spart_put(s->wr, "Hinv", inv, (int)ns, (int)ns, -1);
    }
    spart_session_emit(s);
  }
  return spart_session_close(s);
}
