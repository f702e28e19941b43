/* read_lines.c -- the readers' input: a reader made and freed, its input read in blocks and
 * cut in lines (a byte order mark and CR line ends dropped), several inputs one after another,
 * and -j's blocks fed in (cli_reader_feed, cli_reader_block).  Memory is O(one record). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "reader.h"

/* ---- reading lines ---- */

cli_reader *cli_reader_new(void *in, const char *name, int format, int seq, unsigned reads) {
  cli_reader *rd = calloc(1, sizeof(*rd));
  if (rd) {
    rd->in = in;
    rd->fd = fileno(in);
    rd->name = name;
    rd->format = rd->format0 = format;
    rd->seq = seq;
    rd->reads = reads ? reads : ~0u;
    rd->reads |= (rd->reads & 1u << CLI_F_R0) ? 1u << CLI_F_q0 : 0;    /* q0 stands for R0 */
    rd->reads |= (rd->reads & 1u << CLI_F_um) ? 1u << CLI_F_qmdot : 0; /* qmdot for um */
  }
  return rd;
}


/* free what a CSV header made: the columns, their names, the cells, the pass-through list */
void rd_header_free(cli_reader *rd) {
  for (int k = 0; k < rd->ncol; k++) {
    free(rd->colname[k]);
  }
  free(rd->colname);
  free(rd->cols);
  free(rd->cell);
  free(rd->pass);
}


void cli_reader_free(cli_reader *rd) {
  if (!rd) {
    return;
  }
  rd_header_free(rd);
  free(rd->buf);
  free(rd->rec);
  cli_record_free(&rd->r);
  cli_record_free(&rd->h);
  spart_json_free(&rd->js);
  free(rd->given);
  free(rd->arena);
  free(rd->aoff);
  free(rd->nr.name);
  free(rd->nr.text);
  free(rd->nr.v);
  spart_model_free(rd->own);
  free(rd);
}


const spart_model *cli_reader_model(const cli_reader *rd) {
  return rd->own;
}


/* up to n bytes of input into p: from the file descriptor when the stream has one (a read
   returns what has come, so that records stream), else through stdio; the count, 0 at the end,
   or -1 */
static long fill(cli_reader *rd, char *p, size_t n) {
  if (rd->fd >= 0) {
    ssize_t r;
    do {
      r = read(rd->fd, p, n);
    } while (r < 0 && errno == EINTR);
    return (long)r;
  }
  size_t r = fread(p, 1, n, rd->in);
  return r == 0 && ferror(rd->in) ? -1 : (long)r;
}


void rd_skip_blank_lines(cli_reader *rd) {
  while (rd->bpos < rd->bend && rd->buf[rd->bpos] == '\n') {
    rd->bpos++;
    rd->lineno++;
  }
}


/* read the next line: rd->line points to it in the input block, without its end of line and
   with a 0 after it; 1, 0 at the end, or -1.  Past SPART_MAX_RECORD the rest of the line is read
   and dropped. */
int rd_next_line(cli_reader *rd, spart_err *err) {
  const size_t most = (size_t)SPART_MAX_RECORD - 2; /* bytes in a line, without its \n */
  char *nl = NULL;
  size_t n;
  int over = 0;
  if (rd->pending) {
    rd->pending = 0;
    rd->pos = 0;
    return 1;
  }
  if (rd->nlfrom && rd->nlfrom == rd->buf + rd->bpos) {
    nl = rd->buf + rd->nlnext;
  }
  rd->nlfrom = NULL;
  for (; !nl;) {
    size_t have = rd->bend - rd->bpos;
    nl = have ? memchr(rd->buf + rd->bpos, '\n', have) : NULL;
    if (nl || rd->eof) {
      break;
    }
    if (have > most) {
      over = 1; /* too long: drop what is there, keep looking for the end of the line */
      rd->bpos = rd->bend;
      have = 0;
    }
    /* make room: the partial line to the front, the block twice as big if it fills it */
    if (rd->bpos > 0) {
      memmove(rd->buf, rd->buf + rd->bpos, have);
      rd->bend = have;
      rd->bpos = 0;
    }
    if (rd->bend + 1 >= rd->bcap) {
      size_t c = rd->bcap ? 2 * rd->bcap : 1 << 17;
      char *p = realloc(rd->buf, c);
      if (!p) {
        return cli_errf(err, SPART_ENOMEM, rd->lineno + 1, "out of memory"), -1;
      }
      rd->buf = p;
      rd->bcap = c;
    }
    errno = 0;
    long r = fill(rd, rd->buf + rd->bend, rd->bcap - 1 - rd->bend);
    if (r < 0) {
      return cli_errf(err, SPART_EIO, 0, "read error: %s", strerror(errno)), -1;
    }
    rd->eof = r == 0;
    rd->bend += (size_t)r;
  }
  n = nl ? (size_t)(nl - (rd->buf + rd->bpos)) : rd->bend - rd->bpos;
  if (n == 0 && !nl && !over) {
    return 0;
  }
  rd->line = rd->buf + rd->bpos;
  rd->bpos += n + (nl != NULL);
  rd->lineno++;
  if (over || n > most) {
    return cli_errf(err, SPART_EDATA, rd->lineno, "line longer than %d bytes", SPART_MAX_RECORD),
           -1;
  }
  while (n > 0 && rd->line[n - 1] == '\r') {
    n--;
  }
  rd->line[n] = 0; /* the \n, a \r, or the spare byte after the block */

  /* a UTF-8 byte order mark at the start of the stream is not data */
  if (rd->lineno == 1) {
    size_t bom = cli_bom(rd->line, n);
    rd->line += bom;
    n -= bom;
  }
  rd->pos = 0;
  rd->len = n;
  return 1;
}


/* give the current line back: the next next_line returns it again */
void rd_unread_line(cli_reader *rd) {
  rd->pending = 1;
  rd->pos = rd->len;
}


/* ---- its inputs ---- */

int cli_reader_format(const cli_reader *rd) {
  return rd->format;
}


const char *cli_reader_name(const cli_reader *rd) {
  return rd->name;
}


int cli_reader_input(const cli_reader *rd) {
  return rd->input;
}


void cli_reader_next_input(cli_reader *rd, void *in, const char *name) {
  rd->nlfrom = NULL;
  /* what a CSV header made goes: the next input has its own; the model and the state stay */
  rd_header_free(rd);
  rd->colname = NULL;
  rd->cols = NULL;
  rd->cell = NULL;
  rd->pass = NULL;
  rd->ncol = rd->npass = 0;
  rd->has = 0;
  rd->in = in;
  rd->fd = fileno(in);
  rd->name = name;
  rd->format = rd->format0;
  rd->bpos = rd->bend = 0;
  rd->eof = rd->pending = rd->started = rd->dead = 0;
  rd->lineno = 0;
  rd->array = 0;
  rd->pos = rd->len = 0;
  rd->delim = 0;
  rd->input++;
  if (rd->stm) {
    rd_state_reset(rd, rd->stm); /* a CSV reader sets the defaults once an input */
  }
}


int cli_reader_feed(cli_reader *rd, const char *p, size_t n, long long lines, int fd) {
  rd->nlfrom = NULL;
  if (n + 1 > rd->bcap) {
    size_t c = n + 1 > (1 << 17) ? n + 1 : 1 << 17;
    char *b = malloc(c);
    if (!b) {
      return -1;
    }
    free(rd->buf);
    rd->buf = b;
    rd->bcap = c;
  }
  memcpy(rd->buf, p, n);
  rd->bpos = 0;
  rd->bend = n;
  rd->fd = fd;
  rd->eof = fd < 0;
  rd->pending = 0;
  rd->pos = rd->len = 0;
  rd->lineno = lines;
  return 0;
}


void cli_reader_block(cli_reader *rd, char **p, size_t *cap, size_t n, long long lines) {
  rd->nlfrom = NULL;
  char *b = rd->buf;
  size_t c = rd->bcap;
  rd->buf = *p;
  rd->bcap = *cap;
  *p = b;
  *cap = c;
  rd->bpos = 0;
  rd->bend = n;
  rd->fd = -1;
  rd->eof = 1;
  rd->pending = 0;
  rd->pos = rd->len = 0;
  rd->lineno = lines;
}


int cli_reader_dead(const cli_reader *rd) {
  return rd->dead;
}


size_t cli_bom(const char *p, size_t n) {
  return n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
}
