/* contacts.c -- the lists of a state record a command reads itself: spart-contact's "contacts"
 * and spart-ik's "targets", the JSON text the reader kept (CLI_READS_CONTACTS,
 * CLI_READS_TARGETS), read by the strict scanner into the library's point contacts and inverse
 * kinematics targets. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "records.h"
#include "sim.h"
#include "spart_text.h"

enum { KEY_LINK = 1, KEY_POINT = 2, KEY_NORMAL = 4, KEY_MU = 8, KEY_ALL = 15 };


/* the scanner's fault, or the message, for item k of the list called list; -1 */
static int bad_in(cli_session *s, const char *list, const spart_json *j, int k, const char *what) {
  if (j->tok < 0) {
    cli_fail(s, "%s: %s", list, j->msg);
  } else if (k < 0) {
    cli_fail(s, "%s: %s", list, what);
  } else {
    cli_fail(s, "%s[%d]%s", list, k, what);
  }
  return -1;
}


/* the same for contact k */
static int bad(cli_session *s, const spart_json *j, int k, const char *what) {
  return bad_in(s, "contacts", j, k, what);
}


/* n numbers (an array of them) into v; 0 or -1 */
static int numbers(spart_json *j, double *v, int n) {
  int t = spart_json_next(j), got = 0;
  if (t != SPART_JSON_ARRAY) {
    return -1;
  }
  while ((t = spart_json_next(j)) == SPART_JSON_NUMBER) {
    double x = spart_json_number(j);
    if (got < n) {
      v[got] = x;
    }
    got += isfinite(x) ? 1 : n + 1;
  }
  return t == SPART_JSON_ARRAY_END && got == n ? 0 : -1;
}


/* the link of a "link" value: a name, or an id 0..nb-1; -1 if none */
static int link_of(const spart_model *m, spart_json *j, char name[200]) {
  int t = spart_json_next(j);
  name[0] = 0;
  if (t == SPART_JSON_STRING) {
    char *z = malloc(j->strlen + 1); /* the name, NUL-terminated (the scanner lets no NUL in) */
    spart_printable(name, j->str, j->strlen);
    if (!z) {
      return -1;
    }
    memcpy(z, j->str, j->strlen);
    z[j->strlen] = 0;
    int i = spart_model_body(m, z);
    free(z);
    return i;
  }
  if (t == SPART_JSON_NUMBER) {
    double x = spart_json_number(j);
    snprintf(name, 200, "%.*s", (int)(j->strlen < 40 ? j->strlen : 40), j->str);
    return x >= 0 && x < m->nb && x == floor(x) ? (int)x : -1;
  }
  return -2;
}


/* contact k's object (its '{' read) into c; 0 or -1 after reporting */
static int contact(cli_session *s, spart_json *j, int k, spart_contact *c) {
  static const char *const names[] = {"link", "point", "normal", "mu"};
  int t, seen = 0;
  while ((t = spart_json_next(j)) == SPART_JSON_KEY) {
    int key = 0;
    for (int q = 0; q < 4; q++) {
      key =
          strlen(names[q]) == j->strlen && memcmp(j->str, names[q], j->strlen) == 0 ? 1 << q : key;
    }
    char txt[200];
    if (!key) {
      char what[240];
      snprintf(what, sizeof(what), ": unknown key '%s'", spart_printable(txt, j->str, j->strlen));
      return bad(s, j, k, what);
    }
    seen |= key;
    if (key == KEY_LINK) {
      c->body = link_of(s->m, j, txt);
      if (c->body == -2) {
        return bad(s, j, k, ".link: expected a link name or id");
      }
      if (c->body < 0) {
        cli_fail(s, "contacts[%d].link: no link '%s' in the model (ids 0..%d)", k, txt,
                 s->m->nb - 1);
        return -1;
      }
    } else if (key == KEY_POINT && numbers(j, c->point, 3) != 0) {
      return bad(s, j, k, ".point: expected [x, y, z]");
    } else if (key == KEY_NORMAL && numbers(j, c->normal, 3) != 0) {
      return bad(s, j, k, ".normal: expected [nx, ny, nz]");
    } else if (key == KEY_MU) {
      if (spart_json_next(j) != SPART_JSON_NUMBER) {
        return bad(s, j, k, ".mu: expected a number");
      }
      c->mu = spart_json_number(j);
      if (!isfinite(c->mu)) {
        return bad(s, j, k, ".mu is not finite: a friction coefficient is a finite number >= 0");
      }
      if (!(c->mu >= 0)) {
        return bad(s, j, k, ".mu is negative: a friction coefficient is >= 0");
      }
    }
  }
  if (t != SPART_JSON_OBJECT_END) {
    return bad(s, j, -1, "");
  }
  if ((seen & (KEY_LINK | KEY_MU)) == (KEY_LINK | KEY_MU) && !(seen & KEY_POINT)) {
    /* a link without a point: its collision shapes where they touch (from_geometry) */
    if (seen & KEY_NORMAL) {
      return bad(s, j, k, ".normal without a point: a contact from the link's collision shapes "
                          "has its normal against gravity");
    }
    c->point[0] = NAN;
    return 0;
  }
  if (seen != KEY_ALL) {
    int q = 0;
    while (seen & 1 << q) {
      q++;
    }
    char what[40];
    snprintf(what, sizeof(what), ": no \"%s\"", names[q]);
    return bad(s, j, k, what);
  }
  /* any length but zero: scaled by its largest component first, so that a short normal
     (1e-300) is a direction as a long one is; one whose components are all subnormal has lost
     its direction's digits to underflow */
  double big = fmax(fabs(c->normal[0]), fmax(fabs(c->normal[1]), fabs(c->normal[2])));
  if (!isfinite(big)) {
    return bad(s, j, k, ".normal is not finite");
  }
  if (big == 0) {
    return bad(s, j, k, ".normal is zero");
  }
  if (big < DBL_MIN) {
    return bad(s, j, k, ".normal is too short to give a direction (its components are below "
               "2.2e-308, where doubles lose digits)");
  }
  for (int q = 0; q < 3; q++) {
    c->normal[q] /= big;
  }
  double n = sqrt(c->normal[0] * c->normal[0] + c->normal[1] * c->normal[1] +
                  c->normal[2] * c->normal[2]);
  for (int q = 0; q < 3; q++) {
    c->normal[q] /= n;
  }
  return 0;
}



/* the first of body i's collision shapes that is a mesh not read (spart_support_points stops
   at it), or -1 */
static int first_mesh(const spart_model *m, int i) {
  for (int s = 0; s < m->nshape; s++) {
    if (m->shape_body[s] == i && m->shape_role[s] == SPART_SHAPE_COLLISION &&
        m->shape_kind[s] == SPART_SHAPE_MESH && m->shape_mesh[s] != SPART_MESH_READ) {
      return s;
    }
  }
  return -1;
}


/* each contact without a point (point[0] NaN) made the points where its link's collision shapes
   touch a support along gravity (spart_support_points), with the normal against gravity and
   its mu; 0 or -1 after reporting */
static int from_geometry(cli_session *s, spart_contact **c, int *cap, int *nc) {
  const cli_state *st = s->st;
  const spart_model *m = s->m;
  int geo = 0, n = 0, r = 0;
  spart_contact *out;
  double up[3], gn;
  for (int k = 0; k < *nc; k++) {
    geo += isnan((*c)[k].point[0]);
  }
  if (!geo) {
    return 0;
  }
  if (!s->gravity || !((gn = sqrt(s->gravity[0] * s->gravity[0] + s->gravity[1] * s->gravity[1] +
                                  s->gravity[2] * s->gravity[2])) > 0)) {
    cli_fail(s, "contacts: a contact from a link's collision shapes needs --gravity");
    return -1;
  }
  for (int q = 0; q < 3; q++) {
    up[q] = -s->gravity[q] / gn;
  }
  spart_fk(m, s->d, &st->x);
  /* the most points: SPART_DISK_POINTS for each end of each shape, a mesh's hull vertices */
  size_t most = (size_t)*nc + (2 * SPART_DISK_POINTS * ((size_t)m->nshape + 1) +
                               (m->nshape ? (size_t)m->shape_hull[m->nshape] : 0)) * (size_t)geo;
  out = malloc(most * sizeof *out);
  double *pts = malloc(most * 3 * sizeof *pts);
  for (int k = 0; k < *nc && out && pts && !r; k++) {
    const spart_contact *e = *c + k;
    int np;
    if (!isnan(e->point[0])) {
      out[n++] = *e;
      continue;
    }
    np = spart_support_points(m, s->d, e->body, s->gravity, pts, (int)(most - (size_t)n));
    if (np == -1) {
      cli_fail(s, "contacts[%d]: link '%s' has no collision shapes: give a point", k,
               m->body_name[e->body]);
      r = -1;
    } else if (np == -2) {
      int f = first_mesh(m, e->body);
      cli_fail(s, "contacts[%d]: link '%s' has a collision mesh that was not read ('%s': %s); "
               "give points", k, m->body_name[e->body], m->shape_file[f],
               m->shape_mesh[f] == SPART_MESH_MISSING ? "not found" : "not a format read");
      r = -1;
    } else if (np < 0 || (size_t)np > most - (size_t)n) {
      cli_fail(s, "contacts: out of memory");
      r = -1;
    }
    for (int q = 0; q < np && !r; q++) {
      out[n] = *e;
      memcpy(out[n].point, pts + 3 * q, sizeof out[n].point);
      memcpy(out[n].normal, up, sizeof up);
      n++;
    }
  }
  if (!r && (!out || !pts)) {
    cli_fail(s, "contacts: out of memory");
    r = -1;
  }
  free(pts);
  if (r) {
    free(out);
    return -1;
  }
  free(*c);
  *c = out;
  *cap = (int)most;
  *nc = n;
  return 0;
}

/* a list of objects a record gives (its text), each read by item into the k-th element of the
   caller's array (size bytes each, zeroed first) */
typedef struct list_spec {
  const char *name;   /* in messages: "contacts" */
  const char *expect; /* what an element is: ": expected an object {...}" */
  size_t size;
  int (*item)(cli_session *s, spart_json *j, int k, void *x); /* its '{' read; 0 or -1 */
  const char *text;
  size_t len;
  long long line;
} list_spec;


/* the list of l into *arr (grown as needed, *cap elements), *n of them; 0, or -1 after
   reporting (an empty list too) */
static int read_list(cli_session *s, const list_spec *l, void **arr, int *cap, int *n) {
  spart_json j;
  int t, r = 0;
  *n = 0;
  spart_json_init(&j, l->text, l->len, (long)l->line);
  if (spart_json_next(&j) != SPART_JSON_ARRAY) {
    char what[64];
    snprintf(what, sizeof what, "expected an array of %s", l->name);
    r = bad_in(s, l->name, &j, -1, what);
  }
  while (r == 0 && (t = spart_json_next(&j)) != SPART_JSON_ARRAY_END) {
    if (t != SPART_JSON_OBJECT) {
      r = bad_in(s, l->name, &j, *n, l->expect);
      break;
    }
    if (*n == *cap) {
      int m = *cap ? 2 * *cap : 16;
      void *g = realloc(*arr, l->size * (size_t)m);
      if (!g) {
        r = bad_in(s, l->name, &j, -1, "out of memory");
        break;
      }
      *arr = g, *cap = m;
    }
    char *x = (char *)*arr + l->size * (size_t)*n;
    memset(x, 0, l->size);
    r = l->item(s, &j, *n, x);
    (*n)++;
  }
  if (r == 0 && *n == 0) {
    char what[64];
    snprintf(what, sizeof what, "no %s (an empty list)", l->name);
    r = bad_in(s, l->name, &j, -1, what);
  }
  spart_json_free(&j);
  return r;
}


/* contact k, as read_list's item */
static int contact_item(cli_session *s, spart_json *j, int k, void *x) {
  return contact(s, j, k, x);
}


int cli_contacts(cli_session *s, spart_contact **c, int *cap, int *nc) {
  const cli_state *st = s->st;
  if (!st->contacts) {
    cli_fail(s, "no contacts: give \"contacts\": [{\"link\": ..., \"point\": [x,y,z], "
                "\"normal\": [nx,ny,nz], \"mu\": MU}, ...]");
    return -1;
  }
  const list_spec l = {"contacts", ": expected an object {\"link\", \"point\", \"normal\", \"mu\"}",
                       sizeof(**c), contact_item, st->contacts, st->contacts_len,
                       st->contacts_line};
  void *arr = *c;
  int r = read_list(s, &l, &arr, cap, nc);
  *c = arr;
  return r ? r : from_geometry(s, c, cap, nc);
}


/* ---------------------------------------------------------------------------------------------
 * spart-ik's targets: a record's "targets", and the holds of a stance file (--stance), whose
 * IK constraints are targets (Klampt's holds: a link's contacts, skipped here, and the
 * constraint that keeps the link there)
 */

enum {
  T_LINK = 1,
  T_POINT = 2,
  T_POSITION = 4,
  T_R = 8,
  T_QUAT = 16,
  T_WEIGHT = 32,
  T_COM = 64,
  T_COM_XY = 128,
  T_CONTACTS = 256
};

/* where a target is read: the model, the list's name in messages ("targets", "holds"), whether
   its items are holds (a "contacts" key skipped, no CoM), and the fault's message and line */
typedef struct tlist {
  const spart_model *m;
  const char *name;
  int holds;
  char msg[512];
  long long line;
} tlist;


/* the scanner's fault, or the message what, for item k of the list (k < 0: the list) into
   c->msg; -1 */
static int tbad(tlist *c, const spart_json *j, int k, const char *what) {
  c->line = j->tok < 0 ? j->eline : j->tline;
  if (j->tok < 0) {
    snprintf(c->msg, sizeof c->msg, "%s: %s", c->name, j->msg);
  } else if (k < 0) {
    snprintf(c->msg, sizeof c->msg, "%s: %s", c->name, what);
  } else {
    snprintf(c->msg, sizeof c->msg, "%s[%d]%s", c->name, k, what);
  }
  return -1;
}


/* a 3x3 matrix (nested arrays, row-major) into R; 0 or -1 */
static int matrix3(spart_json *j, double R[9]) {
  if (spart_json_next(j) != SPART_JSON_ARRAY) {
    return -1;
  }
  for (int r = 0; r < 3; r++) {
    if (numbers(j, R + 3 * r, 3) != 0) {
      return -1;
    }
  }
  return spart_json_next(j) == SPART_JSON_ARRAY_END ? 0 : -1;
}


/* the rotation nearest R made R (through its quaternion), when R is one to 1e-5 (6 decimals
   give 2e-6; a reflection is not); 0 or -1 */
static int rotation(double R[9]) {
  double q[4], P[9], worst = 0;
  for (int k = 0; k < 9; k++) {
    if (!isfinite(R[k])) {
      return -1;
    }
  }
  spart_rot_quat(q, R);
  spart_quat_rot(P, q);
  for (int k = 0; k < 9; k++) {
    worst = fmax(worst, fabs(P[k] - R[k]));
  }
  memcpy(R, P, sizeof P);
  return worst <= 1e-5 ? 0 : -1;
}


/* the key of a target's member, T_*, or 0 (a hold's: no CoM, its contacts) */
static int target_key(const tlist *c, const spart_json *j) {
  static const char *const names[] = {"link", "point",  "position", "R",       "quat",
                                      "weight", "com", "com_xy",   "contacts"};
  for (int q = 0; q < 9; q++) {
    if (strlen(names[q]) == j->strlen && memcmp(j->str, names[q], j->strlen) == 0) {
      int key = 1 << q;
      return (c->holds ? key & (T_COM | T_COM_XY) : key == T_CONTACTS) ? 0 : key;
    }
  }
  return 0;
}


/* one member of target k (its key read, key a T_*) into t; 0 or -1 (c->msg) */
static int target_member(tlist *c, spart_json *j, int k, int key, spart_ik_target *t) {
  char txt[200];
  double q[4];
  switch (key) {
  case T_LINK:
    t->body = link_of(c->m, j, txt);
    if (t->body == -2) {
      return tbad(c, j, k, ".link: expected a link name or id");
    }
    if (t->body < 0) {
      char what[300];
      snprintf(what, sizeof what, ".link: no link '%s' in the model (ids 0..%d)", txt,
               c->m->nb - 1);
      return tbad(c, j, k, what);
    }
    return 0;
  case T_CONTACTS: /* a hold's contacts: spart-contact's, not a constraint */
    return spart_json_next(j) < 0 || spart_json_skip(j) ? tbad(c, j, k, "") : 0;
  case T_POINT:
    return numbers(j, t->point, 3) ? tbad(c, j, k, ".point: expected [x, y, z]") : 0;
  case T_POSITION:
  case T_COM:
    return numbers(j, t->position, 3)
               ? tbad(c, j, k,
                      key == T_COM ? ".com: expected [x, y, z]" : ".position: expected [x, y, z]")
               : 0;
  case T_COM_XY:
    return numbers(j, t->position, 2) ? tbad(c, j, k, ".com_xy: expected [x, y]") : 0;
  case T_R:
    if (matrix3(j, t->R) != 0) {
      return tbad(c, j, k, ".R: expected [[r11, r12, r13], [r21, ...], [...]]");
    }
    return rotation(t->R)
               ? tbad(c, j, k, ".R is not a rotation (R R' = 1 within 1e-5, determinant +1)")
               : 0;
  case T_QUAT:
    if (numbers(j, q, 4) != 0) {
      return tbad(c, j, k, ".quat: expected [w, x, y, z]");
    }
    if (!(fabs(sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]) - 1) <= 1e-6)) {
      return tbad(c, j, k, ".quat: expected a unit quaternion (within 1e-6)");
    }
    spart_quat_unit(q);
    spart_quat_rot(t->R, q);
    return 0;
  default: /* T_WEIGHT */
    if (spart_json_next(j) != SPART_JSON_NUMBER) {
      return tbad(c, j, k, ".weight: expected a number");
    }
    t->weight = spart_json_number(j);
    return t->weight > 0 && isfinite(t->weight)
               ? 0
               : tbad(c, j, k, ".weight: expected a finite number > 0");
  }
}


/* target k's object (its '{' read) into t; 0 or -1 (c->msg) */
static int target(tlist *c, spart_json *j, int k, spart_ik_target *t) {
  int tok, seen = 0;
  t->weight = 1;
  while ((tok = spart_json_next(j)) == SPART_JSON_KEY) {
    int key = target_key(c, j);
    if (!key) {
      char txt[200], what[240];
      snprintf(what, sizeof(what), ": unknown key '%s'", spart_printable(txt, j->str, j->strlen));
      return tbad(c, j, k, what);
    }
    seen |= key;
    if (target_member(c, j, k, key, t) != 0) {
      return -1;
    }
  }
  if (tok != SPART_JSON_OBJECT_END) {
    return tbad(c, j, -1, "");
  }
  int com = seen & (T_COM | T_COM_XY), link = seen & (T_LINK | T_POINT | T_POSITION | T_R | T_QUAT);
  t->kind = seen & T_COM ? SPART_IK_COM : seen & T_COM_XY ? SPART_IK_COM_XY : SPART_IK_LINK;
  t->oriented = (seen & (T_R | T_QUAT)) != 0;
  if (com == (T_COM | T_COM_XY) || (com && link)) {
    return tbad(c, j, k, ": a target is a link's ({\"link\", \"position\", ...}), "
                "{\"com\": [x, y, z]} or {\"com_xy\": [x, y]}, one of them");
  }
  if (!com && (seen & (T_LINK | T_POSITION)) != (T_LINK | T_POSITION)) {
    return tbad(c, j, k, seen & T_LINK ? ": no \"position\"" : ": no \"link\"");
  }
  if ((seen & (T_R | T_QUAT)) == (T_R | T_QUAT)) {
    return tbad(c, j, k, ": R and quat are both given: give one");
  }
  return 0;
}


/* target k of a record, as read_list's item (its fault reported for the record) */
static int target_item(cli_session *s, spart_json *j, int k, void *x) {
  tlist c = {.m = s->m, .name = "targets"};
  if (target(&c, j, k, x) != 0) {
    cli_fail(s, "%s", c.msg);
    return -1;
  }
  return 0;
}


int cli_targets(cli_session *s, spart_ik_target **t, int *cap, int *nt) {
  const cli_state *st = s->st;
  if (!st->targets) {
    cli_fail(s, "no targets: give \"targets\": [{\"link\": ..., \"position\": [x,y,z]}, "
                "...]");
    return -1;
  }
  const list_spec l = {"targets",
                       ": expected an object {\"link\", \"position\", ...}, {\"com\"} or "
                       "{\"com_xy\"}",
                       sizeof(**t), target_item, st->targets, st->targets_len, st->targets_line};
  void *arr = *t;
  int r = read_list(s, &l, &arr, cap, nt);
  *t = arr;
  return r;
}


/* the holds of the stance text (len bytes) into *t (grown, *cap), *n of them; 0, or -1 with
   c->msg, c->line */
static int holds(tlist *c, const char *text, size_t len, spart_ik_target **t, int *cap, int *n) {
  spart_json j;
  int tok, r = 0, seen = 0;
  spart_json_init(&j, text, len, 1);
  if (spart_json_next(&j) != SPART_JSON_OBJECT) {
    r = tbad(c, &j, -1, "expected a stance object {\"holds\": [...]}");
  }
  while (r == 0 && (tok = spart_json_next(&j)) == SPART_JSON_KEY) {
    if (j.strlen != 5 || memcmp(j.str, "holds", 5) != 0) {
      char txt[200], what[240];
      snprintf(what, sizeof what, "unknown key '%s' (a stance has \"holds\")",
               spart_printable(txt, j.str, j.strlen));
      r = tbad(c, &j, -1, what);
      break;
    }
    seen = 1;
    if (spart_json_next(&j) != SPART_JSON_ARRAY) {
      r = tbad(c, &j, -1, "expected an array of holds");
    }
    while (r == 0 && (tok = spart_json_next(&j)) != SPART_JSON_ARRAY_END) {
      spart_ik_target *g =
          *n < *cap ? *t : realloc(*t, sizeof(**t) * (size_t)(*cap = 2 * *cap + 4));
      if (tok != SPART_JSON_OBJECT || !g) {
        r = tbad(c, &j, *n, g ? ": expected an object {\"link\", \"contacts\", \"point\", "
                                "\"position\", ...}" : ": out of memory");
        break;
      }
      *t = g;
      memset(g + *n, 0, sizeof *g);
      r = target(c, &j, *n, g + *n);
      (*n)++;
    }
  }
  if (r == 0 && (!seen || spart_json_next(&j) != SPART_JSON_END)) {
    r = tbad(c, &j, -1, seen ? "expected the end of the stance" : "no \"holds\"");
  }
  spart_json_free(&j);
  return r;
}


int cli_stance_targets(cli_session *s, const char *path, spart_ik_target **t, int *n) {
  char *text = NULL;
  size_t len = 0;
  int cap = 0;
  tlist c = {.m = s->m, .name = "holds", .holds = 1};
  *t = NULL;
  *n = 0;
  FILE *f = fopen(path, "r");
  if (!f) {
    cli_error(s->tool->name, NULL, 0, "cannot open %s: %s", path, strerror(errno));
    return -1;
  }
  if (cli_read_whole(s, f, path, &text, &len) != 0) {
    return -1;
  }
  int r = holds(&c, text, len, t, &cap, n);
  if (r != 0) {
    cli_error(s->tool->name, path, c.line, "%s", c.msg);
    free(*t);
    *t = NULL;
    *n = 0;
  }
  free(text);
  return r;
}
