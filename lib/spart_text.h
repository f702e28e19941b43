/* spart_text.h -- the text machinery of libspart, for the commands and programs that read and
 * write spart's records: a strict JSON scanner, a value quoted in a one-line message, and doubles
 * to and from decimal text, exact.  A program that computes with a model needs only spart.h;
 * this header is installed beside it, and includes it (spart_err).  See spart(3).
 */
#ifndef SPART_TEXT_H
#define SPART_TEXT_H

#include <stddef.h>

#include "spart.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------
 * a strict JSON scanner (RFC 8259, spart_json.c), the model readers' and the records': tokens
 * one at a time over a text in memory, each with its line.  Numbers follow the RFC's grammar
 * exactly (no 1., 01, +1, .5, NaN), strings are valid UTF-8 with no NUL (\u0000), no object
 * repeats a key ("PATH is given twice"), containers nest at most SPART_JSON_DEPTH deep; the
 * struct is the scanner's state, which a caller only reads (tok, str, strlen, tline, msg).
 */
#define SPART_JSON_DEPTH 256
enum {
  SPART_JSON_END = 0, /* the end of the text, after one whole value */
  SPART_JSON_OBJECT,
  SPART_JSON_OBJECT_END,
  SPART_JSON_ARRAY,
  SPART_JSON_ARRAY_END,
  SPART_JSON_KEY, /* str, strlen: the key, decoded */
  SPART_JSON_STRING,
  SPART_JSON_NUMBER, /* str, strlen: its text; spart_json_number reads it */
  SPART_JSON_TRUE,
  SPART_JSON_FALSE,
  SPART_JSON_NULL
};
typedef struct spart_json_key {
  const char *p; /* the key in the text, or NULL: at off in the arena */
  size_t off, len;
  long line;
  int idx; /* its place in its object */
} spart_json_key;
typedef struct spart_json_level {
  char type;  /* '{' or '[' */
  int keys;   /* where its keys start in keys */
  int index;  /* the element read (arrays), from 0 */
  size_t alen; /* the arena's length when it opened */
} spart_json_level;
typedef struct spart_json {
  const char *s;     /* the text */
  size_t len, pos;   /* its length, what is read */
  long line;         /* line at pos */
  int tok;           /* the last token, -1 after an error */
  size_t tpos;       /* where the last token starts */
  long tline;        /* its line */
  const char *str;   /* a key's or string's text (decoded), a number's text */
  size_t strlen;
  int want, first;   /* what may come next; a container has just opened */
  spart_json_level *stack;
  int depth, capstack;
  spart_json_key *keys; /* the keys of the open objects */
  int nkeys, capkeys;
  char *arena;          /* decoded keys */
  size_t alen, acap;
  char *sbuf;           /* the decoded string */
  size_t slen, scap;
  int oom;              /* the error is: out of memory */
  long eline;           /* the error's line */
  char msg[256];        /* the error */
} spart_json;

/* Scan s (len bytes; its first line is line; reset: again, keeping the memory of j, which init
   or a zeroed struct started); spart_json_next returns the next token or -1
   (j->msg, j->eline, j->oom); spart_json_skip reads past the value whose first token was just
   read; spart_json_number: the value of a number token. */
void spart_json_init(spart_json *j, const char *s, size_t len, long line);
void spart_json_reset(spart_json *j, const char *s, size_t len, long line); /* keeps memory */
int spart_json_next(spart_json *j);
int spart_json_skip(spart_json *j);
double spart_json_number(const spart_json *j);
void spart_json_free(spart_json *j);

/* ---------------------------------------------------------------------------------------------
 * text in messages
 */

/* The length of the UTF-8 sequence at s (n bytes left), 0 if none (overlong forms, surrogates
   and code points past U+10FFFF are not UTF-8). */
size_t spart_utf8_len(const unsigned char *s, size_t n);

/* Text for a one-line message (the library's and the commands'), in out: the first 40 bytes of
   the n at s, cut between characters, then "..." when there were more; control characters,
   DEL, ' and \ and bytes that are not UTF-8 as \xNN, UTF-8 characters as they are. */
#define SPART_PRINTABLE 200
const char *spart_printable(char out[SPART_PRINTABLE], const char *s, size_t n);

/* ---------------------------------------------------------------------------------------------
 * numbers in text (spu_num.c): how the library and the commands read and write doubles, so that
 * a number written reads back to the same double
 */

/* Read a decimal number at s like strtod (it is strtod's result, bit for bit), faster for plain
   decimals; *end is set past the number (== s when there is none).  lim (or NULL) bounds what may
   be read ahead 8 bytes at a time; the text must end in a character that is not a digit. */
double spu_strtod(const char *s, const char *lim, const char **end);

/* Write x in the shortest decimal that reads back to the same double ("-0" for -0, printf's
   "inf"/"nan" for those); buf holds at least 32 bytes.  Returns the length. */
int spu_dtoa(char *buf, double x);

#ifdef __cplusplus
}
#endif

#endif
