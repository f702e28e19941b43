/* read_json.c -- JSON input: objects one a line, pretty-printed, RFC 7464 or in an array; their
 * members to the state record's fields (by joint name too), the others passed through; the same
 * objects as named values (spart-cmp); and the frame -j cuts JSON blocks by. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "reader.h"

/* gather one JSON object's text into rd->rec; returns 1, 0 at the end, or -1.  A line that
   starts with RS, or with '{' where the record could not go on with an object inside "robot"
   (the only member that holds objects), starts a new record: the one gathered so far was cut
   short.  A pretty-printed record (Python's indent=0 puts each element on its own line) is one
   record. */
int rd_json_gather(cli_reader *rd, long long *start, spart_err *err) {
  int depth = 0, instr = 0, esc = 0;
  int robot = 0; /* the member at depth 1 is "robot" */
  char last = 0; /* the last character outside strings that is not blank */
  char key[6];   /* the start of the last string at depth 1 */
  size_t keylen = 0;
  rd->reclen = 0;
  *start = 0;
  for (;;) {
    if (rd->pos >= rd->len) {
      int r = rd_next_line(rd, err);
      if (r <= 0) {
        if (r == 0 && rd->reclen > 0) {
          return cli_errf(err, SPART_EDATA, *start, "unterminated JSON object"), -1;
        }
        if (r == 0 && rd->array) {
          long long at = rd->array;
          rd->array = 0;
          return cli_errf(err, SPART_EDATA, at, "unterminated JSON array (no ']')"), -1;
        }
        return r;
      }
      int inside = robot && depth >= 2 && !instr && (last == '[' || last == ',' || last == ':');
      if (rd->reclen > 0 && rd->len > 0 &&
          ((rd->line[0] == '{' && !inside) || rd->line[0] == 0x1e)) {
        rd_unread_line(rd); /* a new record starts: the one gathered so far is cut short */
        return cli_errf(err, SPART_EDATA, *start, "unterminated JSON object"), -1;
      }
      if (rd->reclen > 0) {
        if (cli_grow(&rd->rec, &rd->reccap, rd->reclen + 2) != 0) {
          return cli_errf(err, SPART_ENOMEM, rd->lineno, "out of memory"), -1;
        }
        rd->rec[rd->reclen++] = '\n';
      }
    }
    const char *s = rd->line;
    size_t from = rd->pos;
    while (rd->pos < rd->len) {
      char ch = s[rd->pos];
      if (rd->reclen == 0 && rd->pos == from && depth == 0 &&
          (ch == ' ' || ch == '\t' || ch == 0x1e || ch == ',')) {
        from = ++rd->pos; /* blanks, record separators and commas between records */
        continue;
      }
      /* a JSON array of records (jq -s, Miller's JSON): its brackets around them */
      if (rd->reclen == 0 && rd->pos == from && depth == 0 &&
          ((ch == '[' && !rd->array) || (ch == ']' && rd->array))) {
        rd->array = ch == '[' ? rd->lineno : 0;
        from = ++rd->pos;
        continue;
      }
      if (depth == 0 && ch != '{') {
        char txt[200];
        cli_errf(
            err, SPART_EDATA, rd->lineno, "expected a JSON object, got '%s'",
            spart_printable(txt, s + rd->pos, rd->len - rd->pos < 20 ? rd->len - rd->pos : 20));
        rd->pos = rd->len;
        return -1;
      }
      if (!*start) {
        *start = rd->lineno;
      }
      rd->pos++;
      if (instr) {
        instr = !(ch == '"' && !esc);
        esc = ch == '\\' && !esc;
        if (depth == 1 && instr && keylen < sizeof key) {
          key[keylen++] = ch;
        }
        if (depth == 1 && !instr && (last == '{' || last == ',')) { /* a key at depth 1 */
          robot = keylen == 5 && memcmp(key, "robot", 5) == 0;
        }
        continue;
      }
      if (ch == 0x1e) {
        rd->pos--; /* RFC 7464: a record separator ends any record */
        return cli_errf(err, SPART_EDATA, *start, "unterminated JSON object"), -1;
      }
      instr = ch == '"';
      keylen = 0;
      if (!instr && ch != ' ' && ch != '\t' && ch != '\r') {
        last = ch;
      }
      depth += (ch == '{') - (ch == '}');
      if (depth == 0) {
        break;
      }
    }
    size_t n = rd->pos - from;
    if (rd->reclen + n > SPART_MAX_RECORD) {
      return cli_errf(err, SPART_EDATA, *start, "record longer than %d bytes", SPART_MAX_RECORD),
             -1;
    }
    if (cli_grow(&rd->rec, &rd->reccap, rd->reclen + n + 1) != 0) {
      return cli_errf(err, SPART_ENOMEM, *start, "out of memory"), -1;
    }
    memcpy(rd->rec + rd->reclen, s + from, n);
    rd->reclen += n;
    rd->rec[rd->reclen] = 0;
    if (depth == 0 && rd->reclen > 0) {
      return 1;
    }
  }
}


/* the scanner's fault as the reader's */
int rd_json_fault(const spart_json *j, spart_err *err) {
  return cli_errf(err, j->oom ? SPART_ENOMEM : SPART_EDATA, j->eline, "%s", j->msg);
}


/* fill v (count values) from the JSON array that comes next: flat, or (cols > 1, rows > 0) rows
   of cols numbers, not a mix of both */
static int json_values(spart_json *j, double *v, int count, int rows, int cols, const char *name,
                       long long line, spart_err *err) {
  int n = 0, shape = 0, t = spart_json_next(j); /* shape: 1 flat, 2 rows */
  if (t != SPART_JSON_ARRAY) {
    return t < 0 ? rd_json_fault(j, err)
                 : cli_errf(err, SPART_EDATA, line, "%s: expected an array of %d numbers", name,
                            count);
  }
  while ((t = spart_json_next(j)) != SPART_JSON_ARRAY_END) {
    if (t == SPART_JSON_ARRAY && cols > 1 && rows > 0 && shape != 1) {
      int nc = 0;
      shape = 2;
      while ((t = spart_json_next(j)) != SPART_JSON_ARRAY_END) {
        double x = t == SPART_JSON_NUMBER ? spart_json_number(j) : NAN;
        if (t < 0) {
          return rd_json_fault(j, err);
        }
        if (!isfinite(x)) {
          return cli_errf(err, SPART_EDATA, line, "%s[%d][%d] is not a finite number", name,
                          (n - nc) / cols + 1, nc + 1);
        }
        if (n < count) {
          v[n] = x;
        }
        n++, nc++;
      }
      if (nc != cols) {
        return cli_errf(err, SPART_EDATA, line, "%s: row %d has %d values, expected %d", name,
                        (n - nc) / cols + 1, nc, cols);
      }
      continue;
    }
    if (t < 0) {
      return rd_json_fault(j, err);
    }
    if (shape == 2 || (shape == 1 && t == SPART_JSON_ARRAY && cols > 1 && rows > 0)) {
      return cli_errf(err, SPART_EDATA, line,
                      "%s mixes rows and numbers: give %d rows of %d numbers, or %d numbers", name,
                      rows, cols, count);
    }
    double x = t == SPART_JSON_NUMBER ? spart_json_number(j) : NAN;
    if (!isfinite(x)) {
      return cli_errf(err, SPART_EDATA, line, "%s[%d] is not a finite number", name, n + 1);
    }
    shape = 1;
    if (n < count) {
      v[n] = x;
    }
    n++;
  }
  if (n != count) {
    if (shape == 2 || cols > 1) {
      return cli_errf(err, SPART_EDATA, line, "%s has %d values, model needs %dx%d", name, n, rows,
                      cols);
    }
    return cli_errf(err, SPART_EDATA, line, "%s has %d values, model needs %d", name, n, count);
  }
  return 0;
}


/* field k (v, the record's vector) given as an object keyed by joint name, next in j: a number
   for a joint of one value, an array for one of more (a ball joint's quaternion); every joint
   with values named once */
static int json_by_name(cli_reader *rd, spart_json *j, const spart_model *m, int k, double *v,
                        long long line, spart_err *err) {
  const char *field = cli_fields[k].name;
  int vel = cli_fields[k].rows == -2, t = spart_json_next(j); /* the '{' */
  if (t < 0) {
    return rd_json_fault(j, err);
  }
  memset(rd->given, 0, (size_t)m->nb);
  while ((t = spart_json_next(j)) == SPART_JSON_KEY) {
    int at, i = cli_joint_find(m, j->str, j->strlen);
    int n = i > 0 ? cli_joint_span(m, i, vel, 1, &at) : 0;
    char label[300], txt[200];
    if (n == 0) {
      return cli_joint_refuse(m, field, j->str, j->strlen, line, err);
    }
    snprintf(label, sizeof(label), "%s.%s", field, spart_printable(txt, j->str, j->strlen));
    if (rd->given[i]) {
      return cli_errf(err, SPART_EDATA, line, "%s is given twice", label);
    }
    rd->given[i] = 1;
    if (n > 1) {
      if (json_values(j, v + at, n, 0, 1, label, line, err)) {
        return -err->code;
      }
      continue;
    }
    t = spart_json_next(j);
    if (t < 0) {
      return rd_json_fault(j, err);
    }
    double x = t == SPART_JSON_NUMBER ? spart_json_number(j) : NAN;
    if (!isfinite(x)) {
      return cli_errf(err, SPART_EDATA, line, "%s is not a finite number", label);
    }
    v[at] = x;
  }
  if (t != SPART_JSON_OBJECT_END) {
    return rd_json_fault(j, err);
  }
  for (int i = 1; i < m->nb; i++) {
    int at;
    if (!rd->given[i] && cli_joint_span(m, i, vel, 1, &at) > 0) {
      return cli_errf(err, SPART_EDATA, line,
                      "%s by joint name gives no '%s': every joint's values are given", field,
                      m->jnt_name[i] ? m->jnt_name[i] : "?");
    }
  }
  return 0;
}


/* whether the value that comes next in j (after blanks and the ':') is an object */
static int json_next_object(const spart_json *j) {
  size_t pos = j->pos;
  while (pos < j->len && strchr(" \t\r\n:", j->s[pos]) && j->s[pos]) {
    pos++;
  }
  return pos < j->len && j->s[pos] == '{';
}


/* the model of the record's "robot" member: the first record's, when no -m gave one */
static int json_robot(cli_reader *rd, spart_json *j, long long start, spart_err *err) {
  int t;
  if (spart_json_next(j) < 0) { /* the record's '{' */
    return rd_json_fault(j, err);
  }
  while ((t = spart_json_next(j)) == SPART_JSON_KEY) {
    int robot = j->strlen == 5 && memcmp(j->str, "robot", 5) == 0;
    if (spart_json_next(j) < 0) {
      break;
    }
    if (robot) {
      size_t from = j->tpos;
      long line = j->tline;
      if (spart_json_skip(j)) {
        break;
      }
      spart_err merr = {0};
      char keep = rd->rec[j->pos];
      rd->rec[j->pos] = 0;
      rd->own = spart_model_parse_at(rd->rec + from, line, &merr);
      rd->rec[j->pos] = keep;
      if (!rd->own) {
        return cli_errf(err, merr.code == SPART_ENOMEM ? SPART_ENOMEM : SPART_EDATA,
                        merr.line ? merr.line : start, "robot: %s", merr.msg);
      }
      return 0;
    }
    if (spart_json_skip(j)) {
      break;
    }
  }
  if (t < 0 || j->tok < 0) {
    return rd_json_fault(j, err);
  }
  return cli_errf(err, SPART_EDATA, start, "no model: give -m FILE or a \"robot\" key");
}


/* the state field a JSON key that is none looks like: another case (QM), a CSV column's name
   (qm_1, qm1, qm.JOINT, UM.JOINT), the name and more after '_' (qm_dot), as a CSV header
   refuses them; -1 for a key of the user's own */
static int key_lookalike(const char *key, size_t n) {
  for (int k = 0; k < 2 * CLI_NFIELD; k++) { /* its own case first (r0.x is r0's, not R0's) */
    const char *name = cli_fields[k % CLI_NFIELD].name;
    size_t f = strlen(name);
    if (n >= f && (k < CLI_NFIELD ? strncmp(key, name, f) : strncasecmp(key, name, f)) == 0 &&
        (n == f || key[f] == '_' || key[f] == '.' || strspn(key + f, "0123456789") == n - f)) {
      return k % CLI_NFIELD;
    }
  }
  return -1;
}


/* member key (j->str) whose value comes next in j passes through: into the record (its key,
   its text for CSV, its value as it came), its value skipped; 0, or -1 with err filled */
static int json_pass(cli_reader *rd, spart_json *j, long long start, spart_err *err) {
  cli_record *r = &rd->r;
  if (cli_record_room(r) != 0) {
    return cli_errf(err, SPART_ENOMEM, start, "out of memory");
  }
  cli_pass *p = &r->pass[r->npass];
  long key = cli_record_text(r, j->str, j->strlen);
  int t = spart_json_next(j);
  if (t < 0) {
    return rd_json_fault(j, err);
  }
  size_t val = j->tpos;
  long csv = 0;
  p->clen = -1;
  if (t == SPART_JSON_STRING || t == SPART_JSON_NUMBER) {
    csv = cli_record_text(r, j->str, j->strlen);
    p->clen = (long)j->strlen;
  } else if (t == SPART_JSON_TRUE || t == SPART_JSON_FALSE || t == SPART_JSON_NULL) {
    const char *w = t == SPART_JSON_TRUE ? "true" : t == SPART_JSON_FALSE ? "false" : "";
    csv = cli_record_text(r, w, strlen(w));
    p->clen = (long)strlen(w);
  }
  if (key < 0 || csv < 0) {
    return cli_errf(err, SPART_ENOMEM, start, "out of memory");
  }
  if (spart_json_skip(j)) {
    return rd_json_fault(j, err);
  }
  long json = cli_record_text(r, rd->rec + val, j->pos - val);
  if (json < 0) {
    return cli_errf(err, SPART_ENOMEM, start, "out of memory");
  }
  p->name = (size_t)key;
  p->cell = (size_t)csv;
  p->json = (size_t)json;
  p->jlen = (long)(j->pos - val);
  r->npass++;
  return 0;
}


/* field k, read from rd->rec at from to the scanner's place, passes through as it came too
   (--keep-state); 0, or -1 with err filled */
static int json_keep(cli_reader *rd, int k, size_t from, long long start, spart_err *err) {
  cli_record *r = &rd->r;
  if (cli_record_room(r) != 0) {
    return cli_errf(err, SPART_ENOMEM, start, "out of memory");
  }
  while (from < rd->js.pos && rd->rec[from] != '[' && rd->rec[from] != '{') {
    from++;
  }
  long key = cli_record_text(r, cli_fields[k].name, strlen(cli_fields[k].name));
  long json = key < 0 ? -1 : cli_record_text(r, rd->rec + from, rd->js.pos - from);
  if (key < 0 || json < 0) {
    return cli_errf(err, SPART_ENOMEM, start, "out of memory");
  }
  r->pass[r->npass] = (cli_pass){(size_t)key, 0, (size_t)json, -1, (long)(rd->js.pos - from)};
  r->npass++; /* (an array: no CSV cell) */
  return 0;
}


/* a list a command reads itself (contacts, targets), its key read: its value's text kept in the
   record's text (at *at, *len bytes), its first line in *line; 0, or the fault's -code */
static int json_list(cli_reader *rd, spart_json *j, long *at, size_t *len, long long *line,
                     long long start, spart_err *err) {
  if (spart_json_next(j) < 0) {
    return rd_json_fault(j, err);
  }
  size_t from = j->tpos;
  *line = j->tline;
  if (spart_json_skip(j)) {
    return rd_json_fault(j, err);
  }
  *at = cli_record_text(&rd->r, rd->rec + from, j->pos - from);
  if (*at < 0) {
    return cli_errf(err, SPART_ENOMEM, start, "out of memory");
  }
  *len = j->pos - from;
  return 0;
}


/* the state fields of the record in rd->rec */
static int json_fields(cli_reader *rd, spart_model **m, long long start, spart_err *err) {
  spart_json *j = &rd->js;
  int t, had_robot = !*m;
  if (!*m) {
    spart_json_reset(j, rd->rec, rd->reclen, start);
    if (json_robot(rd, j, start, err)) {
      return -err->code;
    }
    *m = rd->own;
  }
  if (rd->stm != *m && rd_state_init(rd, *m) != 0) {
    return cli_errf(err, SPART_ENOMEM, start, "out of memory");
  }
  rd_state_reset(rd, *m);
  rd->r.st.line = start;
  rd->r.npass = 0;
  rd->r.tlen = rd->r.tnames = 0;

  /* the members, one at a time */
  spart_json_reset(j, rd->rec, rd->reclen, start);
  if (spart_json_next(j) < 0) { /* the record's '{' */
    return rd_json_fault(j, err);
  }
  while ((t = spart_json_next(j)) == SPART_JSON_KEY) {
    int k = rd_field_find(j->str, j->strlen), count;
    if (j->strlen == 5 && memcmp(j->str, "robot", 5) == 0) {
      if (!had_robot) {
        return cli_errf(err, SPART_EDATA, start,
                        rd->own ? "robot: only the first record may carry the model"
                                : "robot: the model is given by -m");
      }
      if (spart_json_next(j) < 0 || spart_json_skip(j)) {
        return rd_json_fault(j, err);
      }
      continue;
    }
    if (k < 0 && (rd->reads & CLI_READS_CONTACTS) && j->strlen == 8 &&
        memcmp(j->str, "contacts", 8) == 0) { /* kept as text, for src/cli/contacts.c */
      if (json_list(rd, j, &rd->r.contacts_at, &rd->r.st.contacts_len, &rd->r.st.contacts_line,
                    start, err)) {
        return -err->code;
      }
      continue;
    }
    if (k < 0 && (rd->reads & CLI_READS_TARGETS) && j->strlen == 7 &&
        memcmp(j->str, "targets", 7) == 0) { /* kept as text, for src/cli/targets.c */
      if (json_list(rd, j, &rd->r.targets_at, &rd->r.st.targets_len, &rd->r.st.targets_line,
                    start, err)) {
        return -err->code;
      }
      continue;
    }
    if (k < 0 && key_lookalike(j->str, j->strlen) >= 0) {
      char txt[200];
      k = key_lookalike(j->str, j->strlen);
      size_t f = strlen(cli_fields[k].name);
      int by = rd_by_name_field(k) && j->strlen > f && j->str[f] == '.'; /* um.JOINT */
      return cli_errf(err, SPART_EDATA, start,
                      "key '%s' is not a state field: the field is %s, an array%s (case matters)",
                      spart_printable(txt, j->str, j->strlen), cli_fields[k].name,
                      by ? " or an object keyed by joint name" : "");
    }
    if (k < 0 && rd_foreign_find(j->str, j->strlen) >= 0) {
      return rd_foreign_refuse(rd_foreign_find(j->str, j->strlen), "key", j->str, j->strlen, start,
                               err);
    }
    if (k < 0 || !(rd->reads & 1u << k)) { /* the user's own, or a field this command does not
                                              read: it passes through */
      if (json_pass(rd, j, start, err) != 0) {
        return -err->code;
      }
      continue;
    }
    rd->r.st.has |= 1u << k;
    double *v = rd_field_ptr(rd, *m, k, &count);
    size_t from = j->pos; /* before the value: blanks, maybe the ':' */
    if (rd_by_name_field(k) && json_next_object(j)
            ? json_by_name(rd, j, *m, k, v, start, err)
            : json_values(j, v, count, rd_field_rows(*m, k), cli_fields[k].cols, cli_fields[k].name,
                          start, err)) {
      return -err->code;
    }
    if ((rd->keep & 1u << k) && json_keep(rd, k, from, start, err) != 0) { /* --keep-state */
      return -err->code;
    }
  }
  if (t == SPART_JSON_OBJECT_END) {
    t = spart_json_next(j);
  }
  if (t != SPART_JSON_END) {
    return rd_json_fault(j, err);
  }
  if (rd->r.contacts_at >= 0) { /* the record's text has stopped moving */
    rd->r.st.contacts = rd->r.text + rd->r.contacts_at;
  }
  if (rd->r.targets_at >= 0) {
    rd->r.st.targets = rd->r.text + rd->r.targets_at;
  }
  if (!(rd->r.st.has & rd->reads) && !rd->r.st.contacts && !rd->r.st.targets &&
      !(rd->reads & CLI_READS_NONE_OK)) {
    /* never the defaults alone: the record gives no state (or contacts) */
    char want[200] = "";
    for (int k = 0, n = 0; k < CLI_NFIELD; k++) {
      if (rd->reads & 1u << k) {
        n += snprintf(want + n, sizeof(want) - (size_t)n, "%s%s", n ? " " : "", cli_fields[k].name);
      }
    }
    return cli_errf(err, SPART_EDATA, start, "the record gives no state field; expected some of %s",
                    want);
  }
  if (rd_qm_missing(rd, *m, rd->r.st.has, 0, start, err) != 0) {
    return -SPART_EDATA;
  }
  return 1;
}


static int json_record(cli_reader *rd, spart_model **m, spart_err *err) {
  long long start;
  int r = rd_json_gather(rd, &start, err);
  if (r <= 0) {
    return r;
  }
  return json_fields(rd, m, start, err);
}


/* the value that comes next in j, under the name in *name (n bytes, grown as the value nests:
   arrays add _I from 1, objects .KEY, an array inside an object .I as CSV names a joint's values
   by name, qm.JOINT.K); 0 or -1 with err filled */
static int named_json_value(cli_reader *rd, spart_json *j, char **name, size_t *cap, size_t n,
                            long long line, spart_err *err) {
  int t = spart_json_next(j);
  if (t < 0) {
    return rd_json_fault(j, err), -1;
  }
  if (t == SPART_JSON_ARRAY || t == SPART_JSON_OBJECT) {
    int end = t == SPART_JSON_ARRAY ? SPART_JSON_ARRAY_END : SPART_JSON_OBJECT_END;
    for (int i = 1;; i++) {
      size_t k = n;
      if (t == SPART_JSON_OBJECT) {
        int kt = spart_json_next(j);
        if (kt < 0) {
          return rd_json_fault(j, err), -1;
        }
        if (kt == end) {
          return 0;
        }
        if (cli_grow(name, cap, n + j->strlen + 2) != 0) {
          return cli_errf(err, SPART_ENOMEM, line, "out of memory"), -1;
        }
        (*name)[k++] = '.';
        memcpy(*name + k, j->str, j->strlen);
        k += j->strlen;
      } else {
        /* peek: the end of the array, or an element */
        size_t pos = j->pos;
        while (pos < j->len && strchr(" \t\r\n", j->s[pos])) {
          pos++;
        }
        if (pos < j->len && j->s[pos] == ']') {
          return spart_json_next(j) < 0 ? (rd_json_fault(j, err), -1) : 0;
        }
        if (cli_grow(name, cap, n + 24) != 0) {
          return cli_errf(err, SPART_ENOMEM, line, "out of memory"), -1;
        }
        k += (size_t)snprintf(*name + k, 24, memchr(*name, '.', n) ? ".%d" : "_%d", i);
      }
      if (named_json_value(rd, j, name, cap, k, line, err) != 0) {
        return -1;
      }
    }
  }
  const char *text = t == SPART_JSON_TRUE    ? "true"
                     : t == SPART_JSON_FALSE ? "false"
                     : t == SPART_JSON_NULL  ? "null"
                                             : j->str;
  size_t tn = t == SPART_JSON_NUMBER || t == SPART_JSON_STRING ? j->strlen : strlen(text);
  double v = t == SPART_JSON_NUMBER ? spart_json_number(j) : NAN;
  if (rd_named_add(rd, *name, n, text, tn, v) != 0) {
    return cli_errf(err, SPART_ENOMEM, line, "out of memory"), -1;
  }
  return 0;
}


static int named_json(cli_reader *rd, spart_err *err) {
  long long start;
  int r = rd_json_gather(rd, &start, err);
  if (r <= 0) {
    return r;
  }
  spart_json *j = &rd->js;
  char *name = NULL;
  size_t cap = 0;
  int t;
  rd->nr.line = start;
  spart_json_reset(j, rd->rec, rd->reclen, start);
  if (spart_json_next(j) < 0) {
    return rd_json_fault(j, err);
  }
  while ((t = spart_json_next(j)) == SPART_JSON_KEY) {
    if (cli_grow(&name, &cap, j->strlen + 1) != 0) {
      free(name);
      return cli_errf(err, SPART_ENOMEM, start, "out of memory");
    }
    size_t n = j->strlen;
    memcpy(name, j->str, n);
    if (named_json_value(rd, j, &name, &cap, n, start, err) != 0) {
      free(name);
      return -err->code;
    }
  }
  free(name);
  if (t == SPART_JSON_OBJECT_END) {
    t = spart_json_next(j);
  }
  return t == SPART_JSON_END ? 1 : rd_json_fault(j, err);
}


/* ---- the frame (-j's blocks) ---- */

/* JSON: braces and strings counted; between objects only blanks, commas and line ends.  What
   json_gather reads besides (an array's brackets, RS, text between objects) is bad: a block
   cannot be cut there, one thread reads on. */
static void json_frame(cli_frame *f, const char *buf, size_t len, int eof) {
  size_t i = f->scan;
  const unsigned char *b = (const unsigned char *)buf;
  if (f->line + f->lines == 0 && i == 0) {
    i = cli_bom(buf, len);
  }
  for (; i < len && !f->bad; i++) {
    if (f->instr && !f->esc) { /* the plain part of a string */
      while (i < len && b[i] != '"' && b[i] != '\\' && b[i] != '\n') {
        i++;
      }
    } else if (!f->instr && f->depth > 0) { /* numbers, commas, brackets */
      while (i < len && b[i] != '"' && b[i] != '{' && b[i] != '}' && b[i] != '\n' && b[i] != 0x1e) {
        i++;
      }
    }
    if (i == len) {
      break;
    }
    unsigned char ch = b[i];
    if (ch == '\n') {
      f->lines++;
      f->esc = 0;
      if (!f->instr && f->depth == 0 && rd_frame_cut(f, i)) {
        i++;
        break;
      }
    } else if (f->instr) {
      f->instr = !(ch == '"' && !f->esc);
      f->esc = ch == '\\' && !f->esc;
    } else if (ch == '"') {
      f->instr = 1;
    } else if (ch == '{') {
      f->depth++;
    } else if (ch == '}') {
      f->bad = --f->depth < 0;
    } else if (ch == 0x1e) {
      f->bad = 1;
    } else if (f->depth == 0 && ch == '\r') {
      if (i + 1 == len && !eof) {
        break; /* trailing (the reader drops it) or not: the next byte tells */
      }
      f->bad = i + 1 < len && b[i + 1] != '\r' && b[i + 1] != '\n';
    } else if (f->depth == 0 && ch != ' ' && ch != '\t' && ch != ',') {
      f->bad = 1;
    }
  }
  f->scan = i;
}


const cli_input cli_read_json = {CLI_FMT_JSON, json_record, named_json, json_frame};
