/* session.c -- a command's session: its model, data, reader and writer, records read one or two
 * at a time, bad records reported (skipped with --keep-going), results written */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "records.h"


/* seconds on a monotonic clock */
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


static void bad_record(cli_session *s, long long line, int code, const char *msg);


/* the name of input file f in messages */
static const char *in_name(const cli_opts *o, int f) {
  return o->nfiles == 0 || strcmp(o->files[f], "-") == 0 ? "<stdin>" : o->files[f];
}


/* open input file f as s->in; 0, or -1 with err filled */
static int in_open(cli_session *s, int f, spart_err *err) {
  const char *name = in_name(&s->o, f);
  s->file = f;
  s->in = strcmp(name, "<stdin>") == 0 ? stdin : fopen(name, "r");
  if (!s->in) {
    cli_errf(err, SPART_EDATA, 0, "cannot open %s: %s", name, strerror(errno));
    return -1;
  }
  return 0;
}


/* close the input file being read (not stdin) */
static void in_close(cli_session *s) {
  if (s->in && s->in != stdin) {
    fclose(s->in);
  }
  s->in = NULL;
}


spart_model *cli_model_load_with(const char *path, const char *const *packages, int npackages,
                                 int automass, double density, spart_err *err) {
  /* the package directories given, then ROS_PACKAGE_PATH's (DIR:DIR...) */
  const char *env = getenv("ROS_PACKAGE_PATH");
  char *copy = env ? strdup(env) : NULL;
  size_t n = (size_t)npackages + 1;
  const char **dirs;
  spart_urdf_opts o = {0};
  spart_model *m;
  for (const char *c = copy; c && *c; c++) {
    n += *c == ':';
  }
  dirs = malloc(n * sizeof *dirs);
  if (!dirs || (env && !copy)) {
    free(dirs);
    free(copy);
    cli_errf(err, SPART_ENOMEM, 0, "out of memory");
    return NULL;
  }
  for (int k = 0; k < npackages; k++) {
    dirs[o.npackages++] = packages[k];
  }
  for (char *tok = copy, *next; tok; tok = next) {
    next = strchr(tok, ':');
    if (next) {
      *next++ = '\0';
    }
    if (*tok) {
      dirs[o.npackages++] = tok;
    }
  }
  o.packages = dirs;
  o.automass = automass;
  o.density = density;
  m = strcmp(path, "-") == 0 ? spart_model_read_opts(STDIN_FILENO, "<stdin>", &o, err)
                             : spart_model_load_opts(path, &o, err);
  free(dirs);
  free(copy);
  return m;
}


spart_model *cli_model_load(const char *path, spart_err *err) {
  return cli_model_load_with(path, NULL, 0, SPART_AUTOMASS_OFF, 0, err);
}


/* what the model says where the options say nothing (spart-model(5)): a base fixed to the world
   is read as with --fixed-base (not with --floating-base, nor spart-id's --floating), its
   gravity as --gravity; 0, or CLI_EXIT_USAGE after the message (an output --only names that the
   base fixed does not write) */
static int model_defaults(cli_session *s) {
  const cli_tool *t = s->tool;
  unsigned on = s->o.given;
  if (cli_takes(t, "fixed-base") && s->m->fixed_base && !s->o.floating_base) {
    s->o.fixed_base = 1;
    on |= CLI_ON_FIXED;
  }
  if (cli_takes(t, "gravity") && s->m->has_gravity && !s->o.has_gravity) {
    memcpy(s->o.gravity, s->m->gravity, sizeof s->o.gravity);
    s->o.has_gravity = 1;
    s->gravity = s->o.gravity;
    on |= CLI_ON_GRAVITY;
  }
  return cli_gates_check(t, s->o.given, on, s->o.only);
}


cli_session *cli_session_open(const cli_tool *t, const cli_opts *o, int *status) {
  cli_session *s = calloc(1, sizeof(*s));
  spart_err err = {0};
  if (!s) {
    cli_error(t->name, NULL, 0, "out of memory");
    *status = CLI_EXIT_IO;
    return NULL;
  }
  s->tool = t;
  s->o = *o;
  s->link = -1;
  s->gravity = s->o.has_gravity ? s->o.gravity : NULL;
  s->tty = isatty(STDERR_FILENO);
  s->t0 = s->tick = now();
  if (o->model) {
    s->m = cli_model_load(o->model, &err); /* "-": stdin, which then holds no records */
    if (s->m && o->mimic && spart_mimic_couple(s->m, &err) != 0) {
      spart_model_free(s->m);
      s->m = NULL;
    }
    if (!s->m) {
      /* a file that cannot be opened names itself in the message */
      cli_error(t->name, err.code == SPART_EIO ? NULL : o->model, err.line, "%s", err.msg);
      /* a model that cannot be read is bad input (exit 1); no memory for it is a system error */
      *status = err.code == SPART_ENOMEM ? CLI_EXIT_IO : CLI_EXIT_DATA;
      free(s);
      return NULL;
    }
    if (model_defaults(s) != 0) {
      *status = CLI_EXIT_USAGE;
      spart_model_free(s->m);
      free(s);
      return NULL;
    }
    s->d = spart_data_new(s->m);
    if (t->resolve && t->resolve(s) != 0) {
      *status = CLI_EXIT_DATA; /* reported by cli_session_link */
      s->status = CLI_EXIT_DATA;
      s->nbad = s->npart = 0;
      cli_session_close(s);
      return NULL;
    }
  }
  /* the first file operand that opens (one that does not is a bad input, as a model) */
  while (in_open(s, s->file, &err) != 0) {
    bad_record(s, 0, SPART_EDATA, err.msg);
    if (s->stop || ++s->file >= o->nfiles) {
      *status = s->status;
      s->nbad = s->npart = 0;
      cli_session_close(s);
      return NULL;
    }
  }
  s->rd = cli_reader_new(s->in, in_name(o, s->file), o->input, o->seq, t->reads);
  if (s->rd && o->keep_state) {
    cli_reader_keep(s->rd, (t->reads & CLI_WRITES_LATER) ? t->outputs : NULL);
  }
  s->wr = cli_writer_new(stdout, o->output, o->seq, o->unbuffered);
  if (s->wr) {
    cli_writer_only(s->wr, o->only);
    s->wr->outputs = (t->reads & CLI_WRITES_LATER) ? t->outputs : NULL;
  }
  if ((o->model && !s->d) || !s->rd || !s->wr) {
    cli_error(t->name, NULL, 0, "out of memory");
    *status = CLI_EXIT_IO;
    s->status = CLI_EXIT_IO;
    cli_session_close(s);
    return NULL;
  }
  return s;
}


cli_session *cli_session_start(const cli_tool *t, void *own, int argc, char **argv, int *status) {
  cli_opts o;
  *status = cli_parse(&o, t, own, argc, argv);
  return *status < 0 ? cli_session_open(t, &o, status) : NULL;
}


void cli_session_kinematics(cli_session *s) {
  const cli_state *st = s->st;
  spart_fk(s->m, s->d, &st->x);
  spart_velocity(s->m, s->d, &st->x);
}


static void bad_record(cli_session *s, long long line, int code, const char *msg);


/* spart-contact's linear programs have no coupled mimic joints (spart_contact.c): it refuses
   a model with them, never a wrong answer */
static int coupled_unsupported(cli_session *s) {
  if (!s->m->coupled || strcmp(s->tool->name, "spart-contact") != 0) {
    return 0;
  }
  bad_record(s, s->st->line, SPART_EDATA,
             "coupled mimic joints (--mimic, \"mimic_coupled\") "
             "are not yet supported by spart-contact");
  return 1;
}


/* report a bad record: skip it with --keep-going, else stop */
static void bad_record(cli_session *s, long long line, int code, const char *msg) {
  if (s->wr) {
    cli_discard(s->wr);
  }
  if (code == SPART_EPIPE) {
    s->status = CLI_EXIT_IO; /* the reader has gone: stop quietly */
    s->stop = 1;
    return;
  }
  if (code == SPART_EIO || code == SPART_ENOMEM) {
    cli_error(s->tool->name, line > 0 ? cli_reader_name(s->rd) : NULL, line, "%s", msg);
    s->status = CLI_EXIT_IO;
    s->stop = 1;
    return;
  }
  cli_error(s->tool->name, s->rd && line > 0 ? cli_reader_name(s->rd) : NULL, line, "%s", msg);
  if (s->status == CLI_EXIT_OK) {
    s->status = CLI_EXIT_DATA;
  }
  s->nbad++;
  s->stop = !s->o.keep_going;
}


#define FIXED_MOVES "--fixed-base: u0 and u0dot must be zero"

/* --fixed-base with a record that moves the base: u0 and u0dot are 0 unless the record gives
   them */
static int fixed_bad(const cli_session *s, const cli_state *st) {
  if (!s->o.fixed_base || !(st->has & (CLI_READS(u0) | CLI_READS(u0dot)))) {
    return 0;
  }
  for (int k = 0; k < 6; k++) {
    if (st->x.u0[k] != 0 || st->x.u0dot[k] != 0) {
      return 1;
    }
  }
  return 0;
}


/* on a terminal, a line of progress every half second: records so far and records/s */
static void progress(cli_session *s, int last) {
  double t = now();
  if (!last && t < s->tick + 0.5) {
    return;
  }
  if (s->nrec > 0 || last) {
    double dt = t - s->t0;
    fprintf(stderr, "\r%s: %ld records, %.0f records/s%s", s->tool->name, s->nrec,
            dt > 0 ? (double)s->nrec / dt : 0.0, last ? "\n" : "");
  }
  s->tick = t;
}


/* on to the next file operand that opens (one that does not is a bad input); 0 when none */
static int next_file(cli_session *s) {
  in_close(s);
  while (s->file + 1 < s->o.nfiles && !s->stop) {
    spart_err err = {0}; /* (once a file, not a record) */
    if (in_open(s, s->file + 1, &err) == 0) {
      cli_reader_next_input(s->rd, s->in, in_name(&s->o, s->file));
      return 1;
    }
    bad_record(s, 0, SPART_EDATA, err.msg);
  }
  return 0;
}


int cli_next(cli_session *s) {
  s->npair = 0;
  cli_discard(s->wr); /* what a record that failed put */
  if (s->tty && (s->nrec & 1023) == 0 && s->nrec > 0) {
    progress(s, 0);
  }
  while (!s->stop) {
    spart_err err; /* filled only on failure: not cleared as a whole for every record */
    err.code = 0;
    err.line = 0;
    err.msg[0] = 0;
    spart_model *m = s->m ? s->m : (spart_model *)cli_reader_model(s->rd);
    int r = cli_read(s->rd, &m, &s->rec, &err);
    s->st = r > 0 ? &s->rec->st : s->st;
    if (r == 0 && next_file(s)) {
      continue;
    }
    if (r == 0) {
      return 0;
    }
    if (r < 0) {
      bad_record(s, err.line, err.code, err.msg);
      continue;
    }
    if (!s->d) {
      s->d = spart_data_new(m);
      if (!s->d) {
        bad_record(s, s->st->line, SPART_ENOMEM, "out of memory");
        return 0;
      }
    }
    if (!s->m) {
      s->m = m;
      s->m_borrowed = 1;
      if (model_defaults(s) != 0) { /* the first record's model */
        s->status = CLI_EXIT_USAGE;
        s->stop = 1;
        return 0;
      }
    }
    if (s->o.by_name) {
      cli_writer_by_name(s->wr, m);
    }
    if (fixed_bad(s, s->st)) {
      bad_record(s, s->st->line, SPART_EDATA, FIXED_MOVES);
      continue;
    }
    if (s->nrec == 0 && coupled_unsupported(s)) { /* the model is the first record's */
      continue;
    }
    s->nrec++;
    return 1;
  }
  return 0;
}


int cli_next_pair(cli_session *s, int most, const spart_state *x[2]) {
  if (!cli_next(s)) {
    return 0;
  }
  x[0] = &s->st->x;
  if (most < 2 || s->stop) {
    return 1;
  }
  /* the next record too, when the reader has it at hand; one --fixed-base refuses is reported
     in its turn, by the next read */
  spart_model *m = s->m;
  cli_record *rec[2];
  int n = cli_read2(s->rd, &m, rec);
  if (n == 2 && fixed_bad(s, &rec[1]->st)) {
    spart_err err;
    cli_errf(&err, SPART_EDATA, rec[1]->st.line, FIXED_MOVES);
    cli_reader_later(s->rd, &err);
    n = 1;
  }
  s->rec = rec[0];
  s->st = &rec[0]->st;
  x[0] = &s->st->x;
  if (n == 2) {
    s->nrec++;
    s->pair[0] = rec[0];
    s->pair[1] = rec[1];
    s->npair = 2;
    x[1] = &rec[1]->st.x;
  }
  return n;
}


void cli_turn(cli_session *s, int k) {
  if (s->npair == 2) { /* else one record: it is the current one */
    s->rec = s->pair[k];
    s->st = &s->rec->st;
  }
}


void cli_fail(cli_session *s, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  bad_record(s, s->st ? s->st->line : 0, SPART_EDATA, msg);
}


void cli_fail_singular(cli_session *s) {
  int i = s->d->warn_body[SPART_WARN_SINGULAR];
  if (i == 0) {
    cli_fail(s, "singular inertia at link 0: the base can move without moving any mass");
  } else {
    cli_fail(s, "singular inertia at link %d: joint %d can move without moving any mass", i, i);
  }
}


void cli_write(cli_session *s) {
  spart_err err; /* filled only on failure */
  err.code = 0;
  err.line = 0;
  err.msg[0] = 0;
  if (cli_emit(s->wr, s->rec, &err) != 0) {
    bad_record(s, err.line, err.code, err.msg);
  } else if (s->mark_arg) {
    s->mark(s, s->mark_arg);
  }
}


/* link arg of option opt on the session's model: id:N, name:NAME, or bare, an id when it reads
   as one and a name when not (an id and another link's name at once is refused); -1 after
   reporting */
static int find_link(cli_session *s, const char *opt, const char *arg) {
  const char *v = arg;
  char *end = NULL;
  /* id:N and name:NAME say which; a bare argument is an id when it reads as one, a name when
     it does not, and an error when it is both, of different links */
  int by_id = strncmp(arg, "id:", 3) == 0, by_name = strncmp(arg, "name:", 5) == 0;
  v += by_id ? 3 : by_name ? 5 : 0;
  long id = by_name ? -1 : strtol(v, &end, 10);
  int is_id = !by_name && end != v && *end == 0, named = by_id ? -1 : spart_model_body(s->m, v);
  if (by_id && !is_id) {
    cli_fail(s, "%s %s: not a link id (id:N, N from 0 to %d)", opt, arg, s->m->nb - 1);
  } else if (is_id && (id < 0 || id >= s->m->nb) && named < 0) {
    cli_fail(s, "%s %s: model has links 0 to %d", opt, arg, s->m->nb - 1);
  } else if (is_id && named >= 0 && named != id) {
    cli_fail(s, "%s %s: ambiguous: link %ld, or link %d named '%s' (write id:%s or name:%s)", opt,
             arg, id, named, v, v, v);
  } else if (is_id && named < 0) {
    return (int)id;
  } else if (named < 0) {
    cli_fail(s, "%s: no link named '%s'", opt, v);
  } else {
    return named;
  }
  s->stop = 1; /* no record can be computed */
  return -1;
}


int cli_session_link(cli_session *s, const char *link) {
  if (s->link < 0) { /* resolved once: the model does not change */
    s->link = find_link(s, "--link", link);
  }
  return s->link;
}


const int *cli_session_frames(cli_session *s, const char *list, int *n) {
  if (!s->frames) { /* resolved once, as --link */
    int count = 1;
    for (const char *p = list; *p; p++) {
      count += *p == ',';
    }
    int *ids = malloc((size_t)count * sizeof(int));
    char *one = malloc(strlen(list) + 1);
    if (!ids || !one) {
      free(ids);
      free(one);
      bad_record(s, s->st ? s->st->line : 0, SPART_ENOMEM, "out of memory");
      return NULL;
    }
    for (int k = 0; k < count; k++) {
      size_t len = strcspn(list, ",");
      memcpy(one, list, len);
      one[len] = 0;
      list += len + 1;
      if ((ids[k] = find_link(s, "--frame", one)) < 0) {
        free(ids);
        free(one);
        return NULL;
      }
    }
    free(one);
    s->frames = ids;
    s->nframes = count;
  }
  *n = s->nframes;
  return s->frames;
}


double *cli_session_buf(cli_session *s, int slot, size_t n) {
  if (n > s->nbuf[slot]) {
    double *p = realloc(s->buf[slot], n * sizeof(double));
    if (!p) {
      bad_record(s, s->st ? s->st->line : 0, SPART_ENOMEM, "out of memory");
      return NULL;
    }
    s->buf[slot] = p;
    s->nbuf[slot] = n;
  }
  return s->buf[slot];
}


cli_session *cli_session_clone(const cli_session *s, int fmt, const cli_session *from,
                               void (*mark)(struct cli_session *, void *)) {
  cli_session *w = calloc(1, sizeof(*w));
  if (!w) {
    return NULL;
  }
  /* shared: the command, its options (not its file operands: the worker reads blocks), the
     model (borrowed), what its options resolved, the clock of the progress line */
  w->tool = s->tool;
  w->o = s->o;
  w->o.nfiles = 0;
  w->m = s->m;
  w->m_borrowed = 1;
  w->gravity = s->gravity;
  w->link = s->link;
  w->frames = s->frames;
  w->nframes = s->nframes;
  w->t0 = s->t0;
  w->tick = s->tick;
  w->none = s->none;
  w->mark = mark;
  /* its own (the rest is zero: no record, no counts, no scratch, nothing held) */
  w->status = CLI_EXIT_OK;
  w->d = spart_data_new(s->m);
  w->rd = cli_reader_new(s->in, cli_reader_name(s->rd), fmt, s->o.seq, s->tool->reads);
  w->wr = cli_writer_new(stdout, s->o.output, s->o.seq, s->o.unbuffered);
  if (w->rd && s->o.keep_state) {
    cli_reader_keep(w->rd, (s->tool->reads & CLI_WRITES_LATER) ? s->tool->outputs : NULL);
  }
  if (w->wr) {
    cli_writer_only(w->wr, s->o.only);
    w->wr->outputs = (s->tool->reads & CLI_WRITES_LATER) ? s->tool->outputs : NULL;
    cli_writer_hold(w->wr);
  }
  if (!w->d || !w->rd || !w->wr ||
      (from &&
       (cli_reader_share(w->rd, from->rd, s->m) != 0 || cli_writer_share(w->wr, from->wr) != 0))) {
    w->frames = NULL; /* s's */
    cli_session_free_clone(w);
    return NULL;
  }
  w->nrec = from ? 1 : 0; /* the first record's checks (cli_next) are made */
  return w;
}


void cli_session_free_clone(cli_session *w) {
  if (w) {
    cli_reader_free(w->rd);
    cli_writer_free(w->wr);
    spart_data_free(w->d);
    for (int k = 0; k < 4; k++) {
      free(w->buf[k]);
    }
    free(w);
  }
}


int cli_session_close(cli_session *s) {
  if (s->tty && now() > s->t0 + 0.5) {
    progress(s, 1);
  }
  if (s->none && s->nrec == 0 && s->status == CLI_EXIT_OK) { /* -j: the blocks' records summed */
    cli_error(s->tool->name, NULL, 0, "%s", s->none);
    s->status = CLI_EXIT_DATA;
  }
  if (s->nbad > 0 && s->o.keep_going && s->npart == 0) {
    cli_error(s->tool->name, NULL, 0, "%ld bad records skipped", s->nbad);
  } else if (s->nbad > 0 && s->o.keep_going) { /* the records before a fault are written */
    cli_error(s->tool->name, NULL, 0, "%ld bad records: %ld skipped, %ld partly written", s->nbad,
              s->nbad - s->npart, s->npart);
  }
  if (s->wr) {
    spart_err err; /* the records the writer holds back */
    err.code = 0;
    err.line = 0;
    err.msg[0] = 0;
    if (cli_flush(s->wr, &err) != 0) {
      bad_record(s, err.line, err.code, err.msg);
    }
  }
  if (s->nlimits > 0) {
    cli_error(s->tool->name, NULL, 0, "%ld of %ld records leave the joint limits", s->nlimits,
              s->nrec);
    s->status = s->status == CLI_EXIT_OK ? CLI_EXIT_LIMITS : s->status;
  }
  int status = s->status;
  const char *name = s->tool->name;
  cli_reader_free(s->rd);
  in_close(s);
  cli_writer_free(s->wr);
  spart_data_free(s->d);
  if (!s->m_borrowed) {
    spart_model_free(s->m);
  }
  for (int k = 0; k < 4; k++) {
    free(s->buf[k]);
  }
  free(s->frames);
  free(s);
  spart_contact_release(); /* GLPK's environment, when a support polygon or an LP made it */
  return cli_finish(name, status);
}
