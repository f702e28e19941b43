/* record.c -- the record a reader fills (cli_record): its state fields (names, shapes), the
 * arrays sized for a model, the defaults, the names other toolkits give the fields, the fields
 * --keep-state passes on; its pass-through values, their texts its own, copied, and a number
 * among them.  No I/O. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "reader.h"

const cli_field_def cli_fields[CLI_NFIELD] = {
    {"R0", 3, 3},    {"r0", 1, 3},     {"qm", 0, 1},    {"u0", 1, 6},    {"um", -2, 1},
    {"u0dot", 1, 6}, {"umdot", -2, 1}, {"tau0", 1, 6},  {"taum", -2, 1}, {"wF0", 1, 6},
    {"wFm", -1, 6},  {"q0", 1, 4},     {"qmdot", 0, 1},
};


/* size the state for model m; defaults are set by state_reset */
/* the record's arrays in buf (18 + 2 nqc + 3 nvc + 6 nb doubles: u0, u0dot, tau0, then the
   joints' and the wrenches), then for a model with coupled mimic joints the tree's (2 nq +
   3 nv) */
size_t rd_state_len(const spart_model *m) {
  size_t tree = m->coupled ? 2 * (size_t)m->nq + 3 * (size_t)m->nv : 0;
  return 18 + 2 * (size_t)m->nqc + 3 * (size_t)m->nvc + 6 * (size_t)m->nb + tree;
}


static void state_carve(cli_state *st, double *buf, const spart_model *m) {
  size_t nv = (size_t)m->nvc;
  spart_state *x = &st->x;
  x->nb = m->nb;
  x->nq = m->nq;
  x->nv = m->nv;
  x->u0 = buf;
  x->u0dot = buf + 6;
  x->tau0 = buf + 12;
  x->qm = buf + 18;
  x->um = x->qm + m->nqc;
  x->umdot = x->um + nv;
  x->taum = x->umdot + nv;
  x->wF = x->taum + nv;
  st->qmdot = x->wF + 6 * (size_t)m->nb;
  if (m->coupled) { /* the tree's vectors, after the record's */
    x->qm = st->qmdot + m->nqc;
    x->um = x->qm + m->nq;
    x->umdot = x->um + m->nv;
    x->taum = x->umdot + m->nv;
    st->qmdot = x->taum + m->nv;
  }
}


/* the record's vectors in the tree's (spart_mimic.c), for coupled mimic joints */
void rd_state_expand(cli_reader *rd, const spart_model *m) {
  cli_state *in = &rd->vin, *st = &rd->r.st;
  spart_mimic_q(m, in->x.qm, st->x.qm);
  spart_mimic_v(m, in->x.um, st->x.um);
  spart_mimic_v(m, in->x.umdot, st->x.umdot);
  spart_mimic_lift(m, in->x.taum, st->x.taum);
  spart_mimic_qdot(m, in->qmdot, st->qmdot);
}


/* a record's arrays for model m, its own (their values zero) */
static int record_size(cli_record *r, const spart_model *m) {
  size_t n = rd_state_len(m);
  double *v = realloc(r->vals, (n + 1) * sizeof(double));
  if (!v) {
    return -1;
  }
  r->vals = v;
  r->nvals = n;
  r->contacts_at = r->targets_at = -1;
  memset(v, 0, (n + 1) * sizeof(double));
  state_carve(&r->st, v, m);
  return 0;
}


int rd_state_init(cli_reader *rd, const spart_model *m) {
  unsigned char *given = realloc(rd->given, (size_t)m->nb);
  if (!given) {
    return -1;
  }
  rd->given = given;
  if (record_size(&rd->r, m) != 0 || record_size(&rd->h, m) != 0) {
    return -1;
  }
  rd->vin = rd->r.st;
  if (m->coupled) {
    spart_model uncoupled = *m; /* the record's arrays alone */
    uncoupled.coupled = 0;
    state_carve(&rd->vin, rd->r.vals, &uncoupled);
  }
  rd->stm = m;
  return 0;
}


void rd_state_reset(cli_reader *rd, const spart_model *m) {
  cli_state *st = &rd->r.st;
  static const double eye[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  memcpy(st->x.R0, eye, sizeof(eye));
  memset(st->x.r0, 0, sizeof(st->x.r0));
  memset(rd->r.vals, 0, rd->r.nvals * sizeof(double)); /* u0, u0dot, tau0 among them */
  if (m->nq != m->nv) {
    spart_joint_neutral(m, st->x.qm); /* a quaternion not given is the identity */
    if (m->coupled) {
      spart_mimic_qc(m, st->x.qm, rd->vin.x.qm);
    }
  }
  st->has = 0;
  st->contacts = st->targets = NULL;
  rd->r.contacts_at = rd->r.targets_at = -1;
}


/* rows of field k for model m */
int rd_field_rows(const spart_model *m, int k) {
  int r = cli_fields[k].rows;
  return r == 0 ? m->nqc : r == -2 ? m->nvc : r < 0 ? m->nb - 1 : r;
}


/* where field k's values are read (the record's vectors into rd->vin), and how many there are */
double *rd_field_ptr(cli_reader *rd, const spart_model *m, int k, int *count) {
  cli_state *st = &rd->r.st, *in = &rd->vin;
  *count = rd_field_rows(m, k) * cli_fields[k].cols;
  switch (k) {
    case CLI_F_R0: return st->x.R0;
    case CLI_F_r0: return st->x.r0;
    case CLI_F_qm: return in->x.qm;
    case CLI_F_u0: return st->x.u0;
    case CLI_F_um: return in->x.um;
    case CLI_F_u0dot: return st->x.u0dot;
    case CLI_F_umdot: return in->x.umdot;
    case CLI_F_tau0: return st->x.tau0;
    case CLI_F_taum: return in->x.taum;
    case CLI_F_wF0: return in->x.wF;
    case CLI_F_q0: return st->q0;
    case CLI_F_qmdot: return in->qmdot;
    default: return in->x.wF + 6;
  }
}


/* other toolkits' names for the state fields: a key or column named so is refused with the
   name spart gives it, never passed through while the command computes at the default */
static const struct {
  const char *name, *who;
  int field;
} foreign[] = {
    {"q", "Pinocchio, RigidBodyDynamics.jl, Robotics Toolbox", CLI_F_qm},
    {"qd", "Robotics Toolbox", CLI_F_um},
    {"qdd", "Robotics Toolbox", CLI_F_umdot},
    {"dq", "libfranka", CLI_F_um},
    {"ddq", "libfranka", CLI_F_umdot},
    {"v", "Pinocchio, RigidBodyDynamics.jl", CLI_F_um},
    {"vd", "RigidBodyDynamics.jl", CLI_F_umdot},
    {"a", "Pinocchio", CLI_F_umdot},
    {"tau", "Pinocchio, Robotics Toolbox", CLI_F_taum},
    {"position", "ROS joint_states", CLI_F_qm},
    {"velocity", "ROS joint_states", CLI_F_um},
    {"effort", "ROS joint_states", CLI_F_taum},
};


/* the entry of foreign[] that a key or column (n bytes) is: the name itself, with digits
   (q1), with _ and indices (qd_1, q_1_2), or with '.' and a joint's name (position.joint1);
   -1 for none.  In any case (QD, Tau, Position), but for the one-letter names: V or A may be a
   logger's volts and amperes. */
int rd_foreign_find(const char *h, size_t n) {
  for (int f = 0; f < (int)(sizeof(foreign) / sizeof(foreign[0])); f++) {
    size_t len = strlen(foreign[f].name);
    if (n < len ||
        (len == 1 ? memcmp(h, foreign[f].name, len) : strncasecmp(h, foreign[f].name, len)) != 0) {
      continue;
    }
    const char *r = h + len, *end = h + n;
    if (r == end || *r == '.') {
      return f;
    }
    size_t d = strspn(r, "0123456789");
    if (d > 0 && (size_t)(end - r) == d) {
      return f;
    }
    if (*r == '_' && r + 1 < end) {
      for (r++; r < end && ((*r >= '0' && *r <= '9') || (*r == '_' && r[-1] != '_')); r++) {
      }
      if (r == end && end[-1] != '_') {
        return f;
      }
    }
  }
  return -1;
}


/* the message for h (n bytes), another toolkit's name foreign[f]; what: "key" or "column" */
int rd_foreign_refuse(int f, const char *what, const char *h, size_t n, long long line,
                      spart_err *err) {
  char txt[200];
  return cli_errf(err, SPART_EDATA, line, "%s '%s': '%s' (%s) is %s here%s", what,
                  spart_printable(txt, h, n), foreign[f].name, foreign[f].who,
                  cli_fields[foreign[f].field].name,
                  strncmp(foreign[f].who, "ROS", 3) == 0
                      ? " (a joint's may be keyed by its name: spart-records(5))"
                      : "");
}


/* a record that gives no qm for a model with joint coordinates (nqc > 0), when the command
   reads qm: the configuration is never defaulted.  has: the fields the record (or the CSV
   header) gives; csv: the header's message.  0, or -SPART_EDATA with err filled. */
int rd_qm_missing(const cli_reader *rd, const spart_model *m, unsigned has, int csv, long long line,
                  spart_err *err) {
  if (!(rd->reads & 1u << CLI_F_qm) || m->nqc == 0 || (has & 1u << CLI_F_qm) ||
      (rd->reads != ~0u && (rd->reads & CLI_QM_OPTIONAL))) {
    return 0;
  }
  /* outputs of another command (spart-id's taum into spart-fd, spart-fd's umdot into spart-id)
     without the state they were computed at: that command's --keep-state passes it on */
  static const int outs[] = {CLI_F_taum, CLI_F_tau0, CLI_F_umdot, CLI_F_u0dot};
  char why[160] = "";
  for (size_t i = 0; i < sizeof(outs) / sizeof(outs[0]) && !why[0]; i++) {
    if (has & 1u << outs[i]) {
      snprintf(why, sizeof(why),
               "; if it is another command's output (it gives %s), give that command "
               "--keep-state to pass on the state it read",
               cli_fields[outs[i]].name);
    }
  }
  if (csv) {
    char cols[40];
    snprintf(cols, sizeof(cols), "qm_1..qm_%d", m->nqc);
    cols[m->nqc > 1 ? sizeof(cols) - 1 : 4] = 0; /* one joint coordinate: qm_1 */
    return cli_errf(err, SPART_EDATA, line,
                    "the header has no %s: the model's joint configuration is never defaulted%s",
                    cols, why);
  }
  return cli_errf(err, SPART_EDATA, line,
                  "no qm: the model has %d joint coordinates and the record must give them (the "
                  "configuration is never defaulted)%s",
                  m->nqc, why);
}


int rd_field_find(const char *name, size_t len) {
  for (int k = 0; k < CLI_NFIELD; k++) {
    if (strlen(cli_fields[k].name) == len && memcmp(cli_fields[k].name, name, len) == 0) {
      return k;
    }
  }
  return -1;
}


void cli_reader_keep(cli_reader *rd, const char *outputs) {
  unsigned out = 0;
  for (const char *p = outputs; p && *p;) {
    size_t n = strcspn(p, ",");
    int k = rd_field_find(p, n);
    out |= k >= 0 ? 1u << k : 0;
    p += n + (p[n] == ',');
  }
  /* the stand-ins go with what they stand for: q0 with R0, qmdot with um (and qm) */
  out |= out & 1u << CLI_F_R0 ? 1u << CLI_F_q0 : 0;
  out |= out & (1u << CLI_F_um | 1u << CLI_F_qm) ? 1u << CLI_F_qmdot : 0;
  rd->keep = ((1u << CLI_NFIELD) - 1) & ~out;
}


/* whether field k may be given by joint name: the joints' vectors */
int rd_by_name_field(int k) {
  return k == CLI_F_qm || k == CLI_F_um || k == CLI_F_umdot || k == CLI_F_taum || k == CLI_F_qmdot;
}


/* ---- records of named values (spart-cmp) ---- */

/* append n bytes and a 0 to the arena; its offset, or (size_t)-1 when out of memory */
static size_t arena_add(cli_reader *rd, const char *p, size_t n) {
  size_t at = rd->alen;
  if (cli_grow(&rd->arena, &rd->acap, rd->alen + n + 1) != 0) {
    return (size_t)-1;
  }
  memcpy(rd->arena + at, p, n);
  rd->arena[at + n] = 0;
  rd->alen += n + 1;
  return at;
}


/* add a value: its name (n bytes at name), its text and its number (NAN: not one); 0 or -1 */
int rd_named_add(cli_reader *rd, const char *name, size_t n, const char *text, size_t tn,
                 double v) {
  cli_named *r = &rd->nr;
  if (r->n == rd->ncap) {
    int cap = rd->ncap ? 2 * rd->ncap : 64;
    size_t *o = realloc(rd->aoff, 2 * (size_t)cap * sizeof *o);
    double *pv = o ? realloc(r->v, (size_t)cap * sizeof *pv) : NULL;
    if (pv) {
      r->v = pv;
    }
    const char **pn = pv ? realloc(r->name, (size_t)cap * sizeof *pn) : NULL;
    if (pn) {
      r->name = pn;
    }
    const char **pt = pn ? realloc(r->text, (size_t)cap * sizeof *pt) : NULL;
    if (o) {
      rd->aoff = o;
    }
    if (!pt) {
      return -1;
    }
    r->text = pt;
    rd->ncap = cap;
  }
  size_t a = arena_add(rd, name, n), b = arena_add(rd, text, tn);
  if (a == (size_t)-1 || b == (size_t)-1) {
    return -1;
  }
  rd->aoff[2 * r->n] = a;
  rd->aoff[2 * r->n + 1] = b;
  r->v[r->n++] = v;
  return 0;
}


/* ---- the record's pass-through values (its own texts) ---- */

int cli_record_room(cli_record *r) {
  if (r->npass == r->passcap) {
    int c = r->passcap ? 2 * r->passcap : 8;
    cli_pass *p = realloc(r->pass, (size_t)c * sizeof(*p));
    if (!p) {
      return -1;
    }
    r->pass = p;
    r->passcap = c;
  }
  return 0;
}


long cli_record_text(cli_record *r, const char *s, size_t n) {
  if (cli_grow(&r->text, &r->tcap, r->tlen + n + 1) != 0) {
    return -1;
  }
  memcpy(r->text + r->tlen, s, n);
  r->text[r->tlen + n] = 0;
  r->tlen += n + 1;
  return (long)(r->tlen - n - 1);
}


/* the array at p of src's values, at the same place in dst's */
static double *same_place(const cli_record *dst, const cli_record *src, const double *p) {
  return p ? dst->vals + (p - src->vals) : NULL;
}


int cli_record_copy(cli_record *dst, const cli_record *src) {
  if (src->npass > dst->passcap) {
    cli_pass *p = realloc(dst->pass, (size_t)src->npass * sizeof(*p));
    if (!p) {
      return -1;
    }
    dst->pass = p;
    dst->passcap = src->npass;
  }
  if (src->tlen > 0 && cli_grow(&dst->text, &dst->tcap, src->tlen) != 0) {
    return -1;
  }
  if (src->nvals > dst->nvals) {
    double *v = realloc(dst->vals, src->nvals * sizeof(double));
    if (!v) {
      return -1;
    }
    dst->vals = v;
    dst->nvals = src->nvals;
  }
  /* the state's values, its arrays in dst's own values, at the places they have in src's */
  dst->st = src->st;
  dst->st.x.u0 = same_place(dst, src, src->st.x.u0);
  dst->st.x.u0dot = same_place(dst, src, src->st.x.u0dot);
  dst->st.x.tau0 = same_place(dst, src, src->st.x.tau0);
  dst->st.x.qm = same_place(dst, src, src->st.x.qm);
  dst->st.x.um = same_place(dst, src, src->st.x.um);
  dst->st.x.umdot = same_place(dst, src, src->st.x.umdot);
  dst->st.x.taum = same_place(dst, src, src->st.x.taum);
  dst->st.x.wF = same_place(dst, src, src->st.x.wF);
  dst->st.qmdot = same_place(dst, src, src->st.qmdot);
  memcpy(dst->vals, src->vals, src->nvals * sizeof(double));
  dst->file = src->file;
  dst->input = src->input;
  dst->format = src->format;
  dst->delim = src->delim;
  dst->npass = src->npass;
  dst->tlen = src->tlen;
  dst->tnames = src->tnames;
  dst->contacts_at = src->contacts_at;
  dst->st.contacts = src->contacts_at >= 0 ? dst->text + src->contacts_at : NULL;
  dst->targets_at = src->targets_at;
  dst->st.targets = src->targets_at >= 0 ? dst->text + src->targets_at : NULL;
  if (src->npass > 0) {
    memcpy(dst->pass, src->pass, (size_t)src->npass * sizeof(*src->pass));
  }
  if (src->tlen > 0) {
    memcpy(dst->text, src->text, src->tlen);
  }
  return 0;
}


void cli_record_free(cli_record *r) {
  free(r->vals);
  free(r->pass);
  free(r->text);
}


int cli_record_number(const cli_record *r, const char *name, double *v) {
  for (int p = 0; p < cli_record_npass(r); p++) {
    if (strcmp(cli_record_pass_name(r, p), name) == 0) {
      int csv = r->format == CLI_FMT_CSV;
      size_t n;
      const char *cell = csv ? cli_record_pass_cell(r, p, &n) : cli_record_pass_json(r, p, &n);
      char txt[64], *end;
      /* in JSON a number (the scanner checked its form), not a string or another value */
      if (n >= sizeof(txt) ||
          (!csv && !(n > 0 && (*cell == '-' || (*cell >= '0' && *cell <= '9'))))) {
        return -1;
      }
      if (csv) {
        n = cli_unquote(txt, cell, n);
      } else {
        memcpy(txt, cell, n);
        txt[n] = 0;
      }
      *v = strtod(txt, &end);
      return n > 0 && end == txt + n && isfinite(*v) ? 1 : -1;
    }
  }
  return 0;
}
