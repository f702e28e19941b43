/* contacts.c -- the lists of a state record a command reads itself: spart-contact's "contacts"
 * and spart-ik's "targets", the JSON text the reader kept (CLI_READS_CONTACTS,
 * CLI_READS_TARGETS), read by the strict scanner into the library's point contacts and inverse
 * kinematics targets. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
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


/* a "mu" value into *mu; NULL, or what is wrong with it */
static const char *friction(spart_json *j, double *mu) {
  if (spart_json_next(j) != SPART_JSON_NUMBER) {
    return ".mu: expected a number";
  }
  *mu = spart_json_number(j);
  if (!isfinite(*mu)) {
    return ".mu is not finite: a friction coefficient is a finite number >= 0";
  }
  return *mu >= 0 ? NULL : ".mu is negative: a friction coefficient is >= 0";
}


/* the normal n made unit; NULL, or what is wrong with it (".normal is zero") */
static const char *unit_normal(double n[3]) {
  /* any length but zero: scaled by its largest component first, so that a short normal
     (1e-300) is a direction as a long one is; one whose components are all subnormal has lost
     its direction's digits to underflow */
  double big = fmax(fabs(n[0]), fmax(fabs(n[1]), fabs(n[2])));
  if (!isfinite(big)) {
    return ".normal is not finite";
  }
  if (big == 0) {
    return ".normal is zero";
  }
  if (big < DBL_MIN) {
    return ".normal is too short to give a direction (its components are below 2.2e-308, where "
           "doubles lose digits)";
  }
  for (int q = 0; q < 3; q++) {
    n[q] /= big;
  }
  double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  for (int q = 0; q < 3; q++) {
    n[q] /= len;
  }
  return NULL;
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
      const char *why = friction(j, &c->mu);
      if (why) {
        return bad(s, j, k, why);
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
  const char *why = unit_normal(c->normal);
  return why ? bad(s, j, k, why) : 0;
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


/* the record's contact_forces (JSON: an array of [fx, fy, fz]; CSV: the columns
   contact_forces_I_J) into *f (malloc'd, n x 3): their number, 0 for none, -1 after a fault */
int cli_contact_forces(cli_session *s, double **f) {
  const cli_record *r = s->rec;
  int n = 0, cap = 0;
  *f = NULL;
  for (int p = 0; p < cli_record_npass(r); p++) {
    size_t len;
    const char *j = cli_record_pass_json(r, p, &len);
    if (!j || strcmp(cli_record_pass_name(r, p), "contact_forces") != 0) {
      continue;
    }
    const char *end = j + len;
    /* its numbers, 3 a row: what is not a number is a bracket, a comma or a space */
    while (j < end) {
      char *e;
      if (strchr("[], \t\r\n", *j)) {
        j++;
        continue;
      }
      double v = strtod(j, &e);
      if (e == j || e > end || !isfinite(v)) {
        cli_fail(s, "contact_forces: expected rows of 3 finite numbers");
        return -1;
      }
      if (n == cap) {
        cap = cap ? 2 * cap : 48;
        double *g = realloc(*f, (size_t)cap * sizeof *g);
        if (!g) {
          cli_fail(s, "out of memory");
          return -1;
        }
        *f = g;
      }
      (*f)[n++] = v;
      j = e;
    }
  }
  for (int i = 1, more = n == 0; more; i++) {
    for (int k = 1; more && k <= 3; k++) {
      char name[64];
      double v;
      snprintf(name, sizeof name, "contact_forces_%d_%d", i, k);
      more = cli_record_number(r, name, &v) == 1;
      if (more && n == cap) {
        cap = cap ? 2 * cap : 48;
        double *g = realloc(*f, (size_t)cap * sizeof *g);
        if (!g) {
          cli_fail(s, "out of memory");
          return -1;
        }
        *f = g;
      }
      if (more) {
        (*f)[n++] = v;
      }
    }
  }
  if (n % 3) {
    cli_fail(s, "contact_forces: expected rows of 3 numbers, got %d numbers", n);
    return -1;
  }
  return n / 3;
}


/* ---------------------------------------------------------------------------------------------
 * spart-ik's targets: a record's "targets"; and the holds of a stance file (Klampt's: a link's
 * contacts with the environment, in the inertial frame, and the IK constraint that keeps the
 * link there, a target), which spart-ik's, spart-contact's and spart-draw's --stance read
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
  T_CONTACTS = 256,
  T_FRAME = 512
};

/* where a target is read: the model, the list's name in messages ("targets", "holds"), the
   stance whose holds are read (their contacts into it; no CoM, no frame), or NULL for a
   record's targets, the stance's contacts room, and the fault's message and line */
typedef struct tlist {
  const spart_model *m;
  const char *name;
  cli_stance *holds;
  int ccap;
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


/* the key of a target's member, T_*, or 0 (a hold's: its contacts, no CoM, no frame) */
static int target_key(const tlist *c, const spart_json *j) {
  static const char *const names[] = {"link", "point",  "position", "R",        "quat",
                                      "weight", "com", "com_xy",   "contacts", "frame"};
  for (int q = 0; q < 10; q++) {
    if (strlen(names[q]) == j->strlen && memcmp(j->str, names[q], j->strlen) == 0) {
      int key = 1 << q;
      return (c->holds ? key & (T_COM | T_COM_XY | T_FRAME) : key == T_CONTACTS) ? 0 : key;
    }
  }
  return 0;
}


/* contact q of hold k (its '{' read) into x: "point", "normal" (made unit) and "mu", each
   once; 0 or -1 (c->msg) */
static int hold_contact(tlist *c, spart_json *j, int k, int q, spart_contact *x) {
  static const char *const names[] = {"point", "normal", "mu"};
  int t, seen = 0;
  char what[300], txt[200];
  while ((t = spart_json_next(j)) == SPART_JSON_KEY) {
    int key = 0;
    for (int a = 0; a < 3; a++) {
      key = strlen(names[a]) == j->strlen && memcmp(j->str, names[a], j->strlen) == 0 ? 1 << a
                                                                                     : key;
    }
    const char *why = NULL;
    if (!key) {
      snprintf(what, sizeof what, ".contacts[%d]: unknown key '%s' (a hold's contact has "
               "\"point\", \"normal\", \"mu\")", q, spart_printable(txt, j->str, j->strlen));
      return tbad(c, j, k, what);
    }
    seen |= key;
    if (key == 1 && numbers(j, x->point, 3) != 0) {
      why = ".point: expected [x, y, z]";
    } else if (key == 2 && numbers(j, x->normal, 3) != 0) {
      why = ".normal: expected [nx, ny, nz]";
    } else if (key == 4) {
      why = friction(j, &x->mu);
    }
    if (why) {
      snprintf(what, sizeof what, ".contacts[%d]%s", q, why);
      return tbad(c, j, k, what);
    }
  }
  if (t != SPART_JSON_OBJECT_END) {
    return tbad(c, j, -1, "");
  }
  int a = 0;
  while (seen & 1 << a) {
    a++;
  }
  if (a < 3) {
    snprintf(what, sizeof what, ".contacts[%d]: no \"%s\"", q, names[a]);
    return tbad(c, j, k, what);
  }
  const char *why = unit_normal(x->normal);
  if (why) {
    snprintf(what, sizeof what, ".contacts[%d]%s", q, why);
    return tbad(c, j, k, what);
  }
  return 0;
}


/* the contacts of hold k (its "contacts" key read) after the stance's; 0 or -1 (c->msg) */
static int hold_contacts(tlist *c, spart_json *j, int k) {
  cli_stance *h = c->holds;
  int t, q = 0;
  if (spart_json_next(j) != SPART_JSON_ARRAY) {
    return tbad(c, j, k, ".contacts: expected an array of {\"point\", \"normal\", \"mu\"}");
  }
  while ((t = spart_json_next(j)) != SPART_JSON_ARRAY_END) {
    if (t != SPART_JSON_OBJECT) {
      return tbad(c, j, k, ".contacts: expected an array of {\"point\", \"normal\", \"mu\"}");
    }
    if (h->nc == c->ccap) {
      spart_contact *g = realloc(h->c, sizeof *g * (size_t)(c->ccap = 2 * c->ccap + 8));
      if (!g) {
        return tbad(c, j, -1, "out of memory");
      }
      h->c = g;
    }
    spart_contact *x = h->c + h->nc++;
    memset(x, 0, sizeof *x);
    if (hold_contact(c, j, k, q++, x) != 0) {
      return -1;
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
    return hold_contacts(c, j, k);
  case T_FRAME:
    if (spart_json_next(j) != SPART_JSON_STRING ||
        !((j->strlen == 4 && memcmp(j->str, "root", 4) == 0) ||
          (j->strlen == 8 && memcmp(j->str, "inertial", 8) == 0))) {
      return tbad(c, j, k, ".frame: expected \"root\" or \"inertial\"");
    }
    t->root = j->strlen == 4;
    return 0;
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


/* the holds of the stance text (len bytes) into c->holds (its arrays grown); 0, or -1 with
   c->msg, c->line */
static int holds(tlist *c, const char *text, size_t len) {
  cli_stance *h = c->holds;
  spart_json j;
  int tok, r = 0, seen = 0, cap = 0;
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
      int n = h->nhold;
      if (n == cap) {
        spart_ik_target *g = realloc(h->hold, sizeof *g * (size_t)(cap = 2 * cap + 4));
        int *f = g ? realloc(h->first, sizeof *f * (size_t)(cap + 1)) : NULL;
        h->hold = g ? g : h->hold;
        h->first = f ? f : h->first;
        if (!f) {
          r = tbad(c, &j, -1, "out of memory");
          break;
        }
      }
      if (tok != SPART_JSON_OBJECT) {
        r = tbad(c, &j, n, ": expected an object {\"link\", \"contacts\", \"point\", "
                           "\"position\", ...}");
        break;
      }
      memset(h->hold + n, 0, sizeof *h->hold);
      h->first[n] = h->nc;
      r = target(c, &j, n, h->hold + n);
      h->nhold++;
      h->first[n + 1] = h->nc;
      for (int q = h->first[n]; r == 0 && q < h->nc; q++) {
        h->c[q].body = h->hold[n].body; /* the hold's link: its contacts' */
      }
    }
  }
  if (r == 0 && (!seen || spart_json_next(&j) != SPART_JSON_END)) {
    r = tbad(c, &j, -1, seen ? "expected the end of the stance" : "no \"holds\"");
  }
  spart_json_free(&j);
  return r;
}


void cli_stance_free(cli_stance *h) {
  free(h->hold);
  free(h->first);
  free(h->c);
  memset(h, 0, sizeof *h);
}


int cli_stance_read(cli_session *s, const char *path, cli_stance *h) {
  char *text = NULL;
  size_t len = 0;
  tlist c = {.m = s->m, .name = "holds", .holds = h};
  memset(h, 0, sizeof *h);
  FILE *f = fopen(path, "r");
  if (!f) {
    cli_error(s->tool->name, NULL, 0, "cannot open %s: %s", path, strerror(errno));
    return -1;
  }
  if (cli_read_whole(s, f, path, &text, &len) != 0) {
    return -1;
  }
  int r = holds(&c, text, len);
  if (r != 0) {
    cli_error(s->tool->name, path, c.line, "%s", c.msg);
    cli_stance_free(h);
  }
  free(text);
  return r;
}

