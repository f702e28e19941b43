/* jobs.c -- -j N: the input cut in blocks of whole records, computed by N threads, each on a
 * session of its own, the outputs and messages written in input order: those of one thread.
 * Each thread (the main one too) reads and cuts its block itself, one at a time, computes it,
 * and writes it in its turn (or leaves it for the thread writing then): no block is copied
 * from one thread to another, and a block's records are written at the points one thread
 * writes them, its messages between.  The thread whose block is the next to write writes it
 * as it computes it, holding what one thread holds; another holds its block's output until its
 * turn, waiting for it once it holds MOST_HELD: memory is bounded whatever a block's output (a
 * spart-sim trajectory of an hour) */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "records.h"

#define BLOCK (1 << 17) /* input bytes read for a block: its whole records */
#define MOST_PENDING                                                        \
  (8 << 20) /* bytes with no record boundary a line split can cut: the rest \
               of the input is read by one thread */
#define MOST_HELD                                                             \
  (4 << 20) /* bytes of output, messages and marks a worker holds for a block \
               not the next to write: then it waits for its turn */

/* where a record of a block ends in its output, with the messages and counts then (since the
   block began; nrec: the worker's): a point where one thread may have written (run_mark) */
typedef struct mark {
  size_t out, err;
  long nrec, nbad, npart, nlimits;
} mark;

typedef struct pool pool;
typedef struct job job;

/* a block's record ends since what of it was written; with the pool and the block, for the
   worker to write its block as it computes it once it is the next to write */
struct cli_marks {
  mark *m;
  size_t n, cap;
  int fail; /* out of memory: a mark is missing */
  pool *p;
  job *j;
  size_t look; /* the bytes held when the worker looks again whether its turn has come */
};

/* a worker's block: its input, the lines before it, and what computing it gave */
struct job {
  char *in;
  size_t inlen, incap;
  long long line;
  long seq;      /* its number in the input */
  int busy;      /* computed, not yet written (under the pool's out) */
  int stream;    /* its turn came while computed: its worker writes it as it goes (the writer's) */
  size_t wo, we; /* the bytes of its output and messages written so far (stream) */
  char *out;     /* the records written (the worker's writer's buffer, exchanged) */
  size_t outlen, outcap;
  cli_msgs msg;        /* the messages */
  struct cli_marks mk; /* the records' ends */
  long nrec0;          /* the worker's records before the block */
  int status, stop, dead;
  long nbad, npart, nrec, nlimits;
};

/* the input, read by the worker whose turn it is and cut at record boundaries: buf[0, cut) is
   whole records */
typedef struct cutter {
  int fd, fmt, eof;
  int file; /* fd is a regular file: always ready */
  int rerr; /* errno of a read error, or 0 */
  char *buf;
  size_t len, cap;
  cli_frame f; /* where buf's records end, by the input format's grammar (cli_frame_scan) */
} cutter;

struct pool {
  cli_session *s;
  void (*body)(cli_session *);
  cli_session **w; /* the workers' sessions; w[0] the main thread's */
  job *jobs;       /* w[k]'s two blocks, jobs[2k] and jobs[2k + 1] */
  int nw;
  pthread_t *tid; /* the threads of w[1..nthreads] */
  int nthreads;
  /* the input (under in): read and cut by one worker at a time */
  pthread_mutex_t in;
  cutter c;
  long nread; /* blocks read */
  int end;    /* 1 while blocks come, else what next_block gave last: 0, -1, -2 */
  /* the output (under out): the blocks written in their order, each by the worker whose block
     is the next to write when it is computed, or by the one writing then; or as it is computed
     by its worker, once it is the next to write (stream) */
  pthread_mutex_t out;
  pthread_cond_t next;
  long turn;   /* the block written next */
  job **slot;  /* the blocks computed, not yet written: block n's at n % 2nw */
  int writing; /* a worker is writing blocks, or streams one: the writer's state is its */
  int abort;   /* the run has stopped: no more blocks read or written */
  /* the writer's state, the worker's whose turn it is: the output after one thread's last write
     (the records it would hold back), carry[coff, coff + clen) */
  char *carry;
  size_t ccap, coff, clen;
  int eager;
};


/* ---- the cut ---- */

/* read more input: up to a block (then its records, all whole but the last, are cut), or on
   when the buffer holds no cut yet; 0 at its end or on a read error (c->rerr) */
static int more(cutter *c) {
  if (c->eof) {
    return 0;
  }
  if (c->cap - c->len <= BLOCK) {
    size_t cap = c->cap < 2 * BLOCK ? 2 * BLOCK : 2 * c->cap;
    char *b = realloc(c->buf, cap);
    if (!b) {
      c->rerr = ENOMEM;
      c->eof = 1;
      return 0;
    }
    c->buf = b;
    c->cap = cap;
  }
  /* a byte spare: the reader ends the block with a 0 */
  size_t want = c->len < BLOCK ? BLOCK - c->len : c->cap - c->len - 1;
  ssize_t r;
  do {
    r = read(c->fd, c->buf + c->len, want);
  } while (r < 0 && errno == EINTR);
  if (r <= 0) {
    c->rerr = r < 0 ? errno : 0;
    c->eof = 1;
    return 0;
  }
  c->len += (size_t)r;
  return 1;
}


/* whether the input has something at once: its end, or bytes to read (a file always has) */
static int ready(const cutter *c) {
  struct pollfd p = {c->fd, POLLIN, 0};
  return c->eof || c->file || poll(&p, 1, 0) != 0;
}


/* the next block into j: 1, 0 at the end of the input, -1 when the rest must be read by one
   thread (c->buf holds what was read of it), -2 on a read error (c->rerr) before any record.
   The block is the cutter's buffer itself, the bytes after the cut copied to j's, which the
   cutter reads on in. */
static int next_block(cutter *c, job *j) {
  for (;;) {
    cli_frame_scan(&c->f, c->fmt, c->buf, c->len, c->eof);
    if ((c->f.most > 0 && c->f.units >= c->f.most) ||
        (c->f.cut > 0 && (c->len >= BLOCK || c->f.bad || !ready(c)))) {
      break;
    }
    if (c->f.bad || c->len - c->f.cut > MOST_PENDING) {
      return -1;
    }
    if (!more(c)) {
      if (c->rerr) {
        return c->f.cut > 0 ? 1 : -2;
      }
      cli_frame_scan(&c->f, c->fmt, c->buf, c->len, c->eof);
      c->f.cut = c->len; /* the last: what it holds, whole or not */
      c->f.clines = c->f.lines;
      if (c->f.cut == 0) {
        return 0;
      }
      break;
    }
  }
  size_t rest = c->len - c->f.cut;
  if (cli_grow(&j->in, &j->incap, rest + 1) != 0) {
    c->rerr = ENOMEM;
    return -2;
  }
  memcpy(j->in, c->buf + c->f.cut, rest);
  char *b = j->in;
  size_t cap = j->incap;
  j->in = c->buf;
  j->incap = c->cap;
  j->inlen = c->f.cut;
  j->line = c->f.line;
  c->buf = b;
  c->cap = cap;
  c->len = rest;
  c->f.scan -= c->f.cut;
  c->f.line += c->f.clines;
  c->f.lines -= c->f.clines;
  c->f.cut = 0;
  c->f.clines = 0;
  c->f.units = 0;
  return 1;
}


/* the format of the input (cli_detect, the readers' rule): 1, or 0 when it cannot be cut (a
   JSON array or RFC 7464: one thread reads it) */
static int detect(cutter *c) {
  while (c->len < 3 && more(c)) {
  }
  size_t i = cli_bom(c->buf, c->len);
  while (c->fmt == CLI_FMT_AUTO) {
    c->fmt = cli_detect(c->buf, c->len, c->eof, &i);
    if (c->fmt == CLI_FMT_AUTO && (c->len > MOST_PENDING || !more(c))) {
      return 0; /* blanks only so far: one thread reads them as they come (memory bounded) */
    }
  }
  return 1;
}


/* ---- the workers ---- */

static void turn(pool *p, cli_session *w, job *j);


/* the bytes a worker holds for its block: output, messages, marks */
static size_t held(const cli_session *w, const job *j) {
  return w->wr->pend + j->msg.len + j->mk.n * sizeof(mark);
}


/* a worker's record just written (held) in its block (the session's mark hook, arg its block's
   marks): where it ends, with the messages and counts so far, so that the block is written as
   one thread would have written it; there the worker may write its block so far (its turn), or
   wait for its turn (it holds too much), or be told to stop (s->stop: the run has stopped) */
static void run_mark(cli_session *s, void *arg) {
  struct cli_marks *k = arg;
  /* the block written as it goes, or whether its turn has come looked at: at k->look bytes of
     output (turn), or when the marks held grow */
  int look = s->wr->pend >= k->look;
  if (k->n == k->cap) {
    size_t cap = k->cap ? 2 * k->cap : 512;
    mark *m = realloc(k->m, cap * sizeof(*m));
    look = 1;
    if (!m) {
      k->fail = 1;
    } else {
      k->m = m;
      k->cap = cap;
    }
  }
  if (!k->fail) {
    k->m[k->n++] = (mark){s->wr->pend, cli_error_at(), s->nrec, s->nbad, s->npart, s->nlimits};
  }
  if (look) {
    turn(k->p, s, k->j);
  }
}


/* compute block j on session w: its records (their ends marked), messages, counts */
static void run_block(pool *p, cli_session *w, job *j) {
  j->nrec0 = w->nrec;
  w->stop = 0;
  w->status = CLI_EXIT_OK;
  w->nbad = w->npart = w->nlimits = 0;
  j->msg.len = 0;
  j->mk.n = 0;
  j->mk.fail = 0;
  j->mk.p = p;
  j->mk.j = j;
  j->mk.look = p->eager ? 0 : CLI_WRITE_AT;
  j->stream = 0;
  j->wo = j->we = 0;
  w->mark_arg = &j->mk;
  cli_error_to(&j->msg);
  cli_reader_block(w->rd, &j->in, &j->incap, j->inlen, j->line);
  p->body(w);
  cli_error_to(NULL);
  w->mark_arg = NULL;
  j->outlen = cli_writer_take(w->wr, &j->out, &j->outcap);
  j->status = w->status;
  j->stop = w->stop;
  j->dead = cli_reader_dead(w->rd);
  j->nbad = w->nbad;
  j->npart = w->npart;
  j->nrec = w->nrec - j->nrec0;
  j->nlimits = w->nlimits;
}


static void merge_status(cli_session *s, int status) {
  if (status == CLI_EXIT_IO || (status != CLI_EXIT_OK && s->status == CLI_EXIT_OK)) {
    s->status = status;
  }
}


/* a write to stdout that failed: reported as the writer does (write.c); the run stops */
static void write_failed(cli_session *s) {
  if (errno != EPIPE) {
    cli_error(s->tool->name, NULL, 0, "write error: %s", strerror(errno));
  }
  s->status = CLI_EXIT_IO;
  s->stop = 1;
}


/* what one thread writes at a record's end when it writes: the records it held back, then n
   bytes at b; 0, or -1 (errno) */
static int put(pool *p, const char *b, size_t n) {
  size_t c = p->clen;
  p->clen = 0;
  errno = 0;
  return (c > 0 && fwrite(p->carry + p->coff, 1, c, stdout) != c) ||
                 (n > 0 && fwrite(b, 1, n, stdout) != n) ||
                 (p->s->o.unbuffered && fflush(stdout) != 0)
             ? -1
             : 0;
}


/* the n bytes at b (whole records) held back after those held; 0, or -1 out of memory */
static int carry(pool *p, job *j, size_t o) {
  size_t n = j->outlen - o;
  if (n == 0) {
    return 0;
  }
  if (p->clen == 0) { /* the block's buffer becomes the carry's, and the carry's the block's */
    char *b = p->carry;
    size_t cap = p->ccap;
    p->carry = j->out;
    p->ccap = j->outcap;
    p->coff = o;
    p->clen = n;
    j->out = b;
    j->outcap = cap;
    return 0;
  }
  /* a block none of whose records was a write point: less than CLI_WRITE_AT in all */
  memmove(p->carry, p->carry + p->coff, p->clen);
  p->coff = 0;
  if (cli_grow(&p->carry, &p->ccap, p->clen + n) != 0) {
    return -1;
  }
  memcpy(p->carry + p->clen, j->out + o, n);
  p->clen += n;
  return 0;
}


/* block j's records up to its last mark (out its output, j->msg its messages) written as one
   thread would have written them: at the points one thread writes them (write.c's cli_emit:
   every CLI_WRITE_AT bytes of whole records, or every record when eager), the messages before
   each point first; *o and *e the bytes of each written.  0; or -1 when the run stops: a mark
   missing, or a write that failed (the counts those of the records before it to the session's) */
static int write_marks(pool *p, job *j, const char *out, size_t *o, size_t *e) {
  cli_session *s = p->s;
  if (j->mk.fail) {
    cli_error(s->tool->name, NULL, 0, "out of memory");
    s->status = CLI_EXIT_IO;
    s->stop = 1;
    return -1;
  }
  for (size_t i = 0; i < j->mk.n; i++) {
    const mark *m = &j->mk.m[i];
    if (!p->eager && p->clen + (m->out - *o) < CLI_WRITE_AT) {
      continue;
    }
    if (m->err > *e) {
      fwrite(j->msg.p + *e, 1, m->err - *e, stderr);
      *e = m->err;
    }
    if (put(p, out + *o, m->out - *o) != 0) {
      s->nbad += m->nbad;
      s->npart += m->npart;
      s->nrec += m->nrec - j->nrec0;
      s->nlimits += m->nlimits;
      write_failed(s);
      return -1;
    }
    *o = m->out;
  }
  return 0;
}


/* write block j (what its worker has not written as it computed it) as one thread would have:
   write_marks, then its last messages; the rest held back; its counts to the session's */
static void write_block(pool *p, job *j) {
  cli_session *s = p->s;
  size_t e = j->we, o = j->wo;
  if (write_marks(p, j, j->out, &o, &e) != 0) {
    return;
  }
  if (j->msg.len > e) {
    fwrite(j->msg.p + e, 1, j->msg.len - e, stderr);
  }
  if (carry(p, j, o) != 0) {
    cli_error(s->tool->name, NULL, 0, "out of memory");
    s->status = CLI_EXIT_IO;
    s->stop = 1;
    return;
  }
  merge_status(s, j->status);
  s->nbad += j->nbad;
  s->npart += j->npart;
  s->nrec += j->nrec;
  s->nlimits += j->nlimits;
  s->stop |= j->stop || j->dead;
}


/* w's block j written up to its output's byte o and its messages' byte e: its marks dropped (those
   left are no write point), and its buffers emptied when all is written (else what is left kept
   where it is: no copy; the next write point writes it) */
static void written(cli_session *w, job *j, size_t o, size_t e) {
  if (o == w->wr->pend) {
    w->wr->pend = w->wr->len = o = 0;
  }
  if (e == j->msg.len) {
    j->msg.len = e = 0;
  }
  j->wo = o;
  j->we = e;
  j->mk.n = 0;
}


/* w computing block j, at a record's end: when j is the next to write (and no worker writes
   another), the writer's from then to its end, written as it goes (write_marks, the messages at
   once: what one thread would have written by then); when not and w holds MOST_HELD, w waits
   for j's turn (holding no lock: the other workers compute, write, read on); when the run has
   stopped, j's computing stops too (none of it is written) */
static void turn(pool *p, cli_session *w, job *j) {
  if (!j->stream) {
    size_t h = held(w, j);
    pthread_mutex_lock(&p->out);
    while (!p->abort && (p->turn != j->seq || p->writing) && h >= MOST_HELD) {
      pthread_cond_wait(&p->next, &p->out);
    }
    int abort = p->abort;
    if (!abort && p->turn == j->seq && !p->writing) {
      p->writing = 1;
      j->stream = 1;
    }
    pthread_mutex_unlock(&p->out);
    if (abort) {
      w->stop = 1;
      written(w, j, w->wr->pend, j->msg.len); /* none of it will be */
      return;
    }
    if (!j->stream) {
      j->mk.look = p->eager ? 0 : w->wr->pend + CLI_WRITE_AT;
      return;
    }
  }
  size_t o = j->wo, e = j->we;
  cli_error_to(NULL); /* a write error is the writer's message, at once */
  int r = write_marks(p, j, w->wr->buf, &o, &e);
  if (r == 0 && j->msg.len > e) {
    fwrite(j->msg.p + e, 1, j->msg.len - e, stderr);
    e = j->msg.len;
  }
  cli_error_to(&j->msg);
  if (r != 0) {
    pthread_mutex_lock(&p->out);
    p->abort = 1;
    pthread_mutex_unlock(&p->out);
    w->stop = 1;
    o = w->wr->pend;
    e = j->msg.len;
  }
  written(w, j, o, e);
  /* the next write point: where one thread's held records pass CLI_WRITE_AT (or the next
     record, eager) */
  j->mk.look =
      p->eager ? 0 : j->wo + CLI_WRITE_AT - (p->clen < CLI_WRITE_AT ? p->clen : CLI_WRITE_AT);
}


/* the blocks whose turn it is written, in their order, by the worker that holds the writer (p->out
   locked; released while writing); then the writer is free again */
static void write_turns(pool *p) {
  job *x;
  while ((x = p->slot[p->turn % (2 * p->nw)]) && x->seq == p->turn) {
    int abort = p->abort;
    pthread_mutex_unlock(&p->out);
    if (!abort) {
      write_block(p, x);
    }
    pthread_mutex_lock(&p->out);
    p->abort |= p->s->stop;
    p->slot[p->turn % (2 * p->nw)] = NULL;
    x->busy = 0;
    p->turn++;
    pthread_cond_broadcast(&p->next);
  }
  p->writing = 0;
  pthread_cond_broadcast(&p->next); /* a worker waiting for its turn (turn) */
}


/* a worker's loop: a block read and cut, computed (written as it goes once its turn comes), and
   put in its slot; then, unless another worker is writing, the blocks whose turn it is written,
   in their order (the worker whose block is late writes the others' after it).  Each worker has
   two blocks: the one it computes, and one that may wait for its turn; it waits when both do,
   or when the one it computes holds MOST_HELD before its turn. */
static void work(pool *p, int k) {
  cli_session *w = p->w[k];
  for (int n = 0;; n++) {
    job *j = &p->jobs[2 * k + (n & 1)];
    pthread_mutex_lock(&p->out);
    while (j->busy) {
      pthread_cond_wait(&p->next, &p->out);
    }
    int abort = p->abort;
    pthread_mutex_unlock(&p->out);
    pthread_mutex_lock(&p->in);
    int r = p->end == 1 && !abort ? next_block(&p->c, j) : 0;
    if (r <= 0) {
      p->end = p->end == 1 && !abort ? r : p->end;
      pthread_mutex_unlock(&p->in);
      break;
    }
    j->seq = p->nread++;
    pthread_mutex_unlock(&p->in);
    run_block(p, w, j);
    pthread_mutex_lock(&p->out);
    j->busy = 1;
    p->slot[j->seq % (2 * p->nw)] = j;
    if (j->stream || !p->writing) { /* the writer's already, or free */
      p->writing = 1;
      write_turns(p);
    }
    pthread_mutex_unlock(&p->out);
  }
}


struct worker_arg {
  pool *p;
  int k;
};


static void *worker(void *arg) {
  struct worker_arg *a = arg;
  work(a->p, a->k);
  return NULL;
}


/* ---- the main thread ---- */

/* the rest of the input (what c holds, then its file descriptor) read and computed by w, one
   thread, writing as it goes after the records held back; what it holds back at the end is the
   session's, written when it closes */
static void serial(pool *p, cli_session *w, cutter *c) {
  cli_session *s = p->s;
  w->stop = 0;
  w->status = CLI_EXIT_OK;
  w->nbad = w->npart = w->nlimits = 0;
  long nrec = w->nrec;
  w->wr->hold = 0;
  w->wr->pend = 0;
  if (cli_reader_feed(w->rd, c->buf, c->len, c->f.line, c->eof ? -1 : c->fd) != 0 ||
      (p->clen > 0 && cli_writer_pend(w->wr, p->carry + p->coff, p->clen) != 0)) {
    cli_error(s->tool->name, NULL, 0, "out of memory");
    s->status = CLI_EXIT_IO;
    return;
  }
  p->clen = 0;
  p->body(w);
  if (w->wr->pend > 0 && cli_writer_pend(s->wr, w->wr->buf, w->wr->pend) != 0) {
    cli_error(s->tool->name, NULL, 0, "out of memory");
    w->status = CLI_EXIT_IO;
  }
  w->wr->pend = 0;
  merge_status(s, w->status);
  s->nbad += w->nbad;
  s->npart += w->npart;
  s->nrec += w->nrec - nrec;
  s->nlimits += w->nlimits;
  s->stop |= w->stop;
}


int cli_run(cli_session *s, void (*body)(cli_session *), long most) {
  /* one thread: as always; and for what blocks cannot hold: records that bring their model,
     several inputs (each its own header), RFC 7464 */
  if (s->o.jobs <= 1 || !s->m || s->o.nfiles > 1 || s->o.seq || s->stop) {
    body(s);
    return cli_session_close(s);
  }
  pool p = {0};
  struct stat st;
  cutter *c = &p.c;
  p.s = s;
  p.body = body;
  p.nw = s->o.jobs;
  p.eager = s->wr->eager;
  p.w = calloc((size_t)p.nw, sizeof(*p.w));
  p.tid = calloc((size_t)p.nw, sizeof(*p.tid));
  p.jobs = calloc(2 * (size_t)p.nw, sizeof(*p.jobs));
  p.slot = calloc(2 * (size_t)p.nw, sizeof(*p.slot));
  pthread_mutex_init(&p.in, NULL);
  pthread_mutex_init(&p.out, NULL);
  pthread_cond_init(&p.next, NULL);
  c->fd = fileno(s->in);
  c->file = fstat(c->fd, &st) == 0 && S_ISREG(st.st_mode);
  c->fmt = s->o.input;
  c->f.most = most;
  int cuts = detect(c) && !c->rerr;
  if (p.w && p.tid && p.jobs && p.slot) {
    p.w[0] = cli_session_clone(s, c->fmt, NULL, run_mark);
  }
  if (!p.w || !p.tid || !p.jobs || !p.slot || !p.w[0]) {
    cli_error(s->tool->name, NULL, 0, "out of memory");
    s->status = CLI_EXIT_IO;
    cuts = 0;
    s->stop = 1;
  }

  /* blocks computed here, one after the other, up to the first record written (the CSV header
     is then read, the output's made: the other workers start from them), then by every worker,
     this thread too */
  p.end = cuts ? 1 : c->rerr ? -2 : -1;
  while (!s->stop && p.end == 1 && p.w[0]->wr->nrec == 0) {
    job *j = &p.jobs[0];
    p.end = next_block(c, j);
    if (p.end == 1) {
      j->seq = p.nread++;
      run_block(&p, p.w[0], j); /* written as it goes (its turn) */
      pthread_mutex_lock(&p.out);
      j->busy = 1;
      p.slot[j->seq % (2 * p.nw)] = j;
      p.writing = 1;
      write_turns(&p);
      pthread_mutex_unlock(&p.out);
    }
  }
  if (!s->stop && p.end == 1) {
    static struct worker_arg args[CLI_MAX_JOBS];
    /* the sessions made (from the session's state, which the threads then change), then the
       threads; out of memory, or no thread: fewer workers */
    int n = 1;
    while (n < p.nw &&
           (p.w[n] = cli_session_clone(s, cli_reader_format(p.w[0]->rd), p.w[0], run_mark))) {
      n++;
    }
    for (int k = 1; k < n; k++) {
      args[k] = (struct worker_arg){&p, k};
      if (pthread_create(&p.tid[k], NULL, worker, &args[k]) != 0) {
        break;
      }
      p.nthreads = k;
    }
    work(&p, 0);
    for (int k = 1; k <= p.nthreads; k++) {
      pthread_join(p.tid[k], NULL);
    }
  }
  if (!s->stop && p.end == -2) {
    /* the reader's message */
    cli_error(s->tool->name, NULL, 0, c->rerr == ENOMEM ? "out of memory" : "read error: %s",
              strerror(c->rerr));
    s->status = CLI_EXIT_IO;
  } else if (!s->stop && p.end == -1 && p.w[0]) {
    serial(&p, p.w[0], c);
  }
  /* the records held back: written when the session closes, as one thread's */
  if (p.clen > 0 && cli_writer_pend(s->wr, p.carry + p.coff, p.clen) != 0) {
    cli_error(s->tool->name, NULL, 0, "out of memory");
    s->status = CLI_EXIT_IO;
  }
  for (int k = 0; k < p.nw && p.w; k++) {
    cli_session_free_clone(p.w[k]);
  }
  for (int k = 0; k < 2 * p.nw && p.jobs; k++) {
    free(p.jobs[k].in);
    free(p.jobs[k].out);
    free(p.jobs[k].msg.p);
    free(p.jobs[k].mk.m);
  }
  free(p.w);
  free(p.tid);
  free(p.jobs);
  free(p.slot);
  free(c->buf);
  free(p.carry);
  pthread_mutex_destroy(&p.in);
  pthread_mutex_destroy(&p.out);
  pthread_cond_destroy(&p.next);
  return cli_session_close(s);
}
