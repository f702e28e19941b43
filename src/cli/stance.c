/* stance.c -- a stance's contacts (Klampt's, in the inertial frame) made a record's, points of
 * their links where the record puts them; and the stance of a record written (spart-contact's
 * --write-stance).  The stance file is read by contacts.c (cli_stance_read). */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "spart_text.h"


int cli_stance_needs_model(const cli_tool *t, const char *option, const cli_opts *o) {
  if (!o->model) {
    return cli_usage(t->name, "--%s: the stance's links are read in the model of -m: give -m",
                     option);
  }
  return -1;
}


int cli_stance_contacts(cli_session *s, const cli_stance *h, int check, spart_contact **c,
                        int *cap, int *nc) {
  const spart_model *m = s->m;
  if (*nc + h->nc > *cap) {
    spart_contact *g = realloc(*c, sizeof **c * (size_t)(*nc + h->nc));
    if (!g) {
      cli_fail(s, "out of memory");
      return -1;
    }
    *c = g, *cap = *nc + h->nc;
  }
  spart_fk(m, s->d, &s->st->x);
  for (int k = 0; check && k < h->nhold; k++) {
    double e[2];
    spart_ik_target_error(m, s->d, h->hold + k, e);
    if (e[0] > CLI_HOLD_TOLERANCE || e[1] > CLI_HOLD_TOLERANCE) {
      cli_fail(s, "holds[%d]: link '%s' is %.3g m, %.3g rad from where its hold puts it (the "
               "stance's contacts are on the link there: spart-ik --stance solves for it)",
               k, m->body_name[h->hold[k].body], e[0], e[1]);
      return -1;
    }
  }
  /* each point the link's, where the record puts the link */
  for (int q = 0; q < h->nc; q++) {
    spart_contact *x = *c + *nc + q;
    *x = h->c[q];
    spart_link_local(m, s->d, x->body, h->c[q].point, x->point);
  }
  *nc += h->nc;
  if (*nc == 0) {
    cli_fail(s, "no contacts: the record gives none and the stance's holds have none");
    return -1;
  }
  return 0;
}


/* a number to f, in the shortest form that reads back to it (-0 as 0) */
static void put_number(FILE *f, double x) {
  char b[32];
  spu_dtoa(b, x == 0 ? 0 : x);
  fputs(b, f);
}


/* a JSON array of n numbers to f */
static void put_numbers(FILE *f, const double *v, int n) {
  fputc('[', f);
  for (int k = 0; k < n; k++) {
    fputs(k ? ", " : "", f);
    put_number(f, v[k]);
  }
  fputc(']', f);
}


/* a name as a JSON string to f (model names: no quote or control character, which the model's
   reader refuses... escaped all the same) */
static void put_name(FILE *f, const char *name) {
  fputc('"', f);
  for (const char *p = name; *p; p++) {
    if (*p == '"' || *p == '\\') {
      fprintf(f, "\\%c", *p);
    } else if ((unsigned char)*p < 0x20) {
      fprintf(f, "\\u%04x", (unsigned)*p);
    } else {
      fputc(*p, f);
    }
  }
  fputc('"', f);
}


int cli_stance_text(cli_session *s, const spart_contact *c, int nc, cli_memfile *out) {
  const spart_model *m = s->m;
  FILE *f = cli_memfile_open(out);
  if (!f) {
    cli_fail(s, "out of memory");
    return -1;
  }
  spart_fk(m, s->d, &s->st->x);
  fprintf(f, "{\"holds\": [");
  int nh = 0;
  for (int k = 0; k < nc; k++) {
    int i = c[k].body, first = 1, n = 0;
    double mean[3] = {0, 0, 0}, R[9], r[3];
    for (int q = 0; q < k; q++) {
      first &= c[q].body != i;
    }
    if (!first) {
      continue; /* the link's hold is written */
    }
    fprintf(f, "%s\n  {\"link\": ", nh++ ? "," : "");
    put_name(f, m->body_name[i]);
    fprintf(f, ", \"contacts\": [");
    /* its contacts in the inertial frame, each where the record puts it */
    for (int q = k; q < nc; q++) {
      double x[3], w[3];
      if (c[q].body != i) {
        continue;
      }
      spart_link_point(m, s->d, i, c[q].point, x);
      spart_world(s->d, x, w);
      fprintf(f, "%s{\"point\": ", n ? ", " : "");
      put_numbers(f, w, 3);
      fprintf(f, ", \"normal\": ");
      put_numbers(f, c[q].normal, 3);
      fprintf(f, ", \"mu\": ");
      put_number(f, c[q].mu);
      fputc('}', f);
      for (int a = 0; a < 3; a++) {
        mean[a] += c[q].point[a];
      }
      n++;
    }
    /* the constraint: the contacts' mean point of the link, where it is, and the link's frame */
    for (int a = 0; a < 3; a++) {
      mean[a] /= n;
    }
    spart_link_point(m, s->d, i, mean, r);
    spart_world(s->d, r, r);
    fprintf(f, "],\n   \"point\": ");
    put_numbers(f, mean, 3);
    fprintf(f, ", \"position\": ");
    put_numbers(f, r, 3);
    spart_link_pose(m, s->d, i, R, r);
    fprintf(f, ", \"R\": [");
    for (int a = 0; a < 3; a++) {
      fprintf(f, "%s", a ? ", " : "");
      put_numbers(f, R + 3 * a, 3);
    }
    fprintf(f, "]}");
  }
  fprintf(f, "\n]}\n");
  if (cli_memfile_close(f, out) != 0) {
    cli_fail(s, "out of memory");
    return -1;
  }
  return 0;
}
