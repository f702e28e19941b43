/* spart_json.c -- a strict JSON scanner (RFC 8259): tokens one at a time over a text in memory,
 * with the line of each.  Numbers follow the RFC's grammar exactly, strings are valid UTF-8 with
 * no NUL (escaped or not), no object repeats a key, containers nest at most SPART_JSON_DEPTH deep.
 * Memory: the open containers and the keys of the open objects. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_internal.h"
#include "spart_text.h"

/* what may come next */
enum { WANT_VALUE, WANT_KEY, WANT_COLON, WANT_AFTER, WANT_DONE };

/* objects with more keys than this are checked for a repeated key when they close */
#define LINEAR_KEYS 32


static int jfail(spart_json *j, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int jfail(spart_json *j, long line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(j->msg, sizeof j->msg, fmt, ap);
  va_end(ap);
  j->eline = line;
  j->tok = -1;
  return -1;
}


static int joom(spart_json *j) {
  j->oom = 1;
  return jfail(j, j->line, "out of memory");
}


void spart_json_init(spart_json *j, const char *s, size_t len, long line) {
  memset(j, 0, sizeof *j);
  j->s = s;
  j->len = len;
  j->line = line;
}


void spart_json_reset(spart_json *j, const char *s, size_t len, long line) {
  spart_json keep = *j;
  spart_json_init(j, s, len, line);
  j->stack = keep.stack;
  j->capstack = keep.capstack;
  j->keys = keep.keys;
  j->capkeys = keep.capkeys;
  j->arena = keep.arena;
  j->acap = keep.acap;
  j->sbuf = keep.sbuf;
  j->scap = keep.scap;
}


void spart_json_free(spart_json *j) {
  free(j->stack);
  free(j->keys);
  free(j->arena);
  free(j->sbuf);
  j->stack = NULL;
  j->keys = NULL;
  j->arena = NULL;
  j->sbuf = NULL;
}


const char *spart_printable(char out[SPART_PRINTABLE], const char *s, size_t n) {
  size_t k = 0, i = 0;
  while (i < n) {
    const unsigned char *c = (const unsigned char *)s + i;
    size_t len = *c >= 0x80 ? spart_utf8_len(c, n - i) : 1;
    if (i + (len ? len : 1) > 40) {
      break;
    }
    if (*c < 0x20 || *c == 0x7f || *c == '\'' || *c == '\\' || len == 0) {
      k += (size_t)snprintf(out + k, 8, "\\x%02x", *c);
      i++;
    } else {
      memcpy(out + k, c, len); /* printable ASCII, or a whole UTF-8 character */
      k += len;
      i += len;
    }
  }
  if (i < n) {
    k += (size_t)snprintf(out + k, 8, "...");
  }
  out[k] = 0;
  return out;
}


/* the length of the UTF-8 sequence at s (n bytes left), or 0 if it is not one (overlong forms,
   surrogates and code points past U+10FFFF are not) */
size_t spart_utf8_len(const unsigned char *s, size_t n) {
  unsigned c = s[0];
  if (c < 0x80) {
    return 1;
  }
  if (c >= 0xc2 && c <= 0xdf) {
    return n >= 2 && (s[1] & 0xc0) == 0x80 ? 2 : 0;
  }
  if (c >= 0xe0 && c <= 0xef) {
    unsigned lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
    return n >= 3 && s[1] >= lo && s[1] <= hi && (s[2] & 0xc0) == 0x80 ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    unsigned lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
    return n >= 4 && s[1] >= lo && s[1] <= hi && (s[2] & 0xc0) == 0x80 &&
                   (s[3] & 0xc0) == 0x80
               ? 4
               : 0;
  }
  return 0;
}


/* append n bytes to the decoded string */
static int sput(spart_json *j, const char *p, size_t n) {
  if (j->slen + n + 1 > j->scap) {
    size_t c = j->scap ? j->scap : 64;
    while (c < j->slen + n + 1) {
      c *= 2;
    }
    char *b = realloc(j->sbuf, c);
    if (!b) {
      return joom(j);
    }
    j->sbuf = b;
    j->scap = c;
  }
  memcpy(j->sbuf + j->slen, p, n);
  j->slen += n;
  j->sbuf[j->slen] = 0;
  return 0;
}


/* four hex digits at p */
static long hex4(const char *p) {
  long v = 0;
  for (int k = 0; k < 4; k++) {
    char c = p[k];
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F'                                ? c - 'A' + 10
                                                                  : -1;
    if (d < 0) {
      return -1;
    }
    v = 16 * v + d;
  }
  return v;
}


/* the string at j->pos (a '"'): j->str and j->strlen are its text, decoded (into sbuf when it
   has escapes) */
static int scan_string(spart_json *j) {
  const char *s = j->s;
  size_t i = j->pos + 1, from = i;
  int esc = 0;
  j->slen = 0;
  for (;;) {
    if (i >= j->len) {
      return jfail(j, j->line, "invalid JSON: unterminated string");
    }
    unsigned char c = (unsigned char)s[i];
    if (c == '"') {
      break;
    }
    if (c < 0x20) {
      return jfail(j, j->line, c == 0 ? "invalid JSON: a NUL byte in a string"
                                      : "invalid JSON: control character 0x%02x in a string",
                   c);
    }
    if (c >= 0x80) {
      size_t n = spart_utf8_len((const unsigned char *)s + i, j->len - i);
      if (n == 0) {
        return jfail(j, j->line, "invalid JSON: a string that is not UTF-8 (byte 0x%02x)", c);
      }
      i += n;
      continue;
    }
    if (c != '\\') {
      i++;
      continue;
    }

    /* an escape: the text before it, then what it stands for */
    if (!esc) {
      esc = 1;
      j->slen = 0;
    }
    if (sput(j, s + from, i - from)) {
      return -1;
    }
    if (i + 1 >= j->len) {
      return jfail(j, j->line, "invalid JSON: unterminated string");
    }
    char e = s[i + 1], out[4];
    const char *simple = strchr("\"\\/bfnrt", e);
    if (e && simple) {
      static const char to[] = "\"\\/\b\f\n\r\t";
      out[0] = to[simple - "\"\\/bfnrt"];
      if (sput(j, out, 1)) {
        return -1;
      }
      i += 2;
    } else if (e == 'u') {
      long u = i + 6 <= j->len ? hex4(s + i + 2) : -1;
      i += 6;
      if (u >= 0xd800 && u <= 0xdbff) { /* a surrogate pair */
        long lo = i + 6 <= j->len && s[i] == '\\' && s[i + 1] == 'u' ? hex4(s + i + 2) : -1;
        if (lo < 0xdc00 || lo > 0xdfff) {
          return jfail(j, j->line, "invalid JSON: \\u%04lx is half a surrogate pair: not UTF-8",
                       u);
        }
        u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
        i += 6;
      } else if (u >= 0xdc00 && u <= 0xdfff) {
        return jfail(j, j->line, "invalid JSON: \\u%04lx is half a surrogate pair: not UTF-8", u);
      } else if (u < 0) {
        return jfail(j, j->line, "invalid JSON: \\u without 4 hex digits");
      }
      size_t n;
      if (u < 0x80) {
        out[0] = (char)u;
        n = 1;
      } else if (u < 0x800) {
        out[0] = (char)(0xc0 | u >> 6);
        out[1] = (char)(0x80 | (u & 0x3f));
        n = 2;
      } else if (u < 0x10000) {
        out[0] = (char)(0xe0 | u >> 12);
        out[1] = (char)(0x80 | (u >> 6 & 0x3f));
        out[2] = (char)(0x80 | (u & 0x3f));
        n = 3;
      } else {
        out[0] = (char)(0xf0 | u >> 18);
        out[1] = (char)(0x80 | (u >> 12 & 0x3f));
        out[2] = (char)(0x80 | (u >> 6 & 0x3f));
        out[3] = (char)(0x80 | (u & 0x3f));
        n = 4;
      }
      if (sput(j, out, n)) {
        return -1;
      }
    } else {
      char txt[SPART_PRINTABLE];
      return jfail(j, j->line, "invalid JSON: unknown escape '\\%s' in a string",
                   spart_printable(txt, s + i + 1, 1));
    }
    from = i;
  }
  if (esc) {
    if (sput(j, s + from, i - from)) {
      return -1;
    }
    j->str = j->sbuf;
    j->strlen = j->slen;
  } else {
    j->str = s + from;
    j->strlen = i - from;
  }
  j->pos = i + 1;
  return 0;
}


/* the number at j->pos: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static int scan_number(spart_json *j) {
  const char *s = j->s;
  size_t i = j->pos, n = j->len;
#define DIGITS(at) ((at) < n && s[at] >= '0' && s[at] <= '9')
  i += s[i] == '-';
  if (!DIGITS(i)) {
    goto bad;
  }
  if (s[i] == '0') {
    i++;
    if (DIGITS(i)) {
      goto bad; /* 01 */
    }
  } else {
    while (DIGITS(i)) {
      i++;
    }
  }
  if (i < n && s[i] == '.') {
    i++;
    if (!DIGITS(i)) {
      goto bad; /* 1. */
    }
    while (DIGITS(i)) {
      i++;
    }
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    i += i < n && (s[i] == '+' || s[i] == '-');
    if (!DIGITS(i)) {
      goto bad;
    }
    while (DIGITS(i)) {
      i++;
    }
  }
  if (i < n && (s[i] == '.' || s[i] == 'e' || s[i] == 'E' || (s[i] >= '0' && s[i] <= '9') ||
                (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z'))) {
    goto bad; /* 0.5.1, 0x1, 1e5e */
  }
#undef DIGITS
  j->str = s + j->pos;
  j->strlen = i - j->pos;
  j->pos = i;
  return 0;
bad:;
  char txt[SPART_PRINTABLE];
  size_t e = j->pos;
  while (e < n && e - j->pos < 30 && strchr(",]} \t\r\n", s[e]) == NULL) {
    e++;
  }
  return jfail(j, j->line, "invalid JSON: '%s' is not a JSON number",
               spart_printable(txt, s + j->pos, e - j->pos));
}


double spart_json_number(const spart_json *j) {
  char buf[64], *end;
  if (j->strlen < sizeof buf) {
    memcpy(buf, j->str, j->strlen);
    buf[j->strlen] = 0;
    return strtod(buf, &end);
  }
  char *big = malloc(j->strlen + 1);
  if (!big) {
    return strtod(j->str, &end); /* the text after a number is not part of one */
  }
  memcpy(big, j->str, j->strlen);
  big[j->strlen] = 0;
  double x = strtod(big, &end);
  free(big);
  return x;
}


/* the key just read, for the open object: refused if the object has it already */
static int add_key(spart_json *j) {
  spart_json_key *k;
  int from = j->stack[j->depth - 1].keys;
  if (j->nkeys == j->capkeys) {
    int c = j->capkeys ? 2 * j->capkeys : 16;
    spart_json_key *p = realloc(j->keys, (size_t)c * sizeof *p);
    if (!p) {
      return joom(j);
    }
    j->keys = p;
    j->capkeys = c;
  }
  if (memchr(j->str, 0, j->strlen)) {
    char txt[SPART_PRINTABLE];
    return jfail(j, j->line, "key '%s' holds a NUL (\\u0000)",
                 spart_printable(txt, j->str, j->strlen));
  }
  k = j->keys + j->nkeys;
  k->len = j->strlen;
  k->line = j->line;
  k->idx = j->nkeys - from;
  if (j->str == j->sbuf) { /* decoded: kept in the arena */
    if (j->alen + j->strlen > j->acap) {
      size_t c = j->acap ? j->acap : 256;
      while (c < j->alen + j->strlen) {
        c *= 2;
      }
      char *a = realloc(j->arena, c);
      if (!a) {
        return joom(j);
      }
      j->arena = a;
      j->acap = c;
    }
    memcpy(j->arena + j->alen, j->str, j->strlen);
    k->p = NULL;
    k->off = j->alen;
    j->alen += j->strlen;
  } else {
    k->p = j->str;
    k->off = 0;
  }
  j->nkeys++;
  if (j->nkeys - from <= LINEAR_KEYS) {
    for (int i = from; i < j->nkeys - 1; i++) {
      const char *a = j->keys[i].p ? j->keys[i].p : j->arena + j->keys[i].off;
      if (j->keys[i].len == j->strlen && memcmp(a, j->str, j->strlen) == 0) {
        char path[200];
        return jfail(j, j->line, "%s is given twice", spart_json_path(j, path, sizeof path));
      }
    }
  }
  return 0;
}


static int cmp_key(const void *pa, const void *pb) {
  const spart_json_key *a = pa, *b = pb;
  size_t n = a->len < b->len ? a->len : b->len;
  int c = memcmp(a->p, b->p, n);
  if (c == 0 && a->len != b->len) {
    c = a->len < b->len ? -1 : 1;
  }
  return c ? c : a->idx < b->idx ? -1 : a->idx > b->idx;
}


/* a big object closes: a key it repeats (past the first LINEAR_KEYS) is found by sorting */
static int check_keys(spart_json *j) {
  int from = j->stack[j->depth - 1].keys, n = j->nkeys - from;
  if (n <= LINEAR_KEYS) {
    return 0;
  }
  spart_json_key *k = j->keys + from;
  for (int i = 0; i < n; i++) {
    k[i].p = k[i].p ? k[i].p : j->arena + k[i].off;
  }
  qsort(k, (size_t)n, sizeof *k, cmp_key);
  const spart_json_key *dup = NULL;
  for (int i = 1; i < n; i++) {
    if (k[i].len == k[i - 1].len && memcmp(k[i].p, k[i - 1].p, k[i].len) == 0 &&
        (!dup || k[i].idx < dup->idx)) {
      dup = k + i;
    }
  }
  if (dup) {
    char txt[SPART_PRINTABLE];
    return jfail(j, dup->line, "'%s' is given twice in one object",
                 spart_printable(txt, dup->p, dup->len));
  }
  return 0;
}


/* a container opens */
static int push(spart_json *j, char type) {
  if (j->depth == SPART_JSON_DEPTH) {
    return jfail(j, j->line, "invalid JSON: nested deeper than %d", SPART_JSON_DEPTH);
  }
  if (j->depth == j->capstack) {
    int c = j->capstack ? 2 * j->capstack : 16;
    spart_json_level *p = realloc(j->stack, (size_t)c * sizeof *p);
    if (!p) {
      return joom(j);
    }
    j->stack = p;
    j->capstack = c;
  }
  j->stack[j->depth].type = type;
  j->stack[j->depth].keys = j->nkeys;
  j->stack[j->depth].index = 0;
  j->stack[j->depth].alen = j->alen;
  j->depth++;
  return 0;
}


/* a container closes */
static int pop(spart_json *j) {
  spart_json_level *l = j->stack + j->depth - 1;
  if (l->type == '{' && check_keys(j)) {
    return -1;
  }
  j->nkeys = l->keys;
  j->alen = l->alen;
  j->depth--;
  j->want = j->depth ? WANT_AFTER : WANT_DONE;
  return 0;
}


int spart_json_next(spart_json *j) {
  const char *s = j->s;
  if (j->tok < 0) {
    return -1;
  }
  for (;;) {
    /* blanks */
    while (j->pos < j->len) {
      char c = s[j->pos];
      if (c == '\n') {
        j->line++;
      } else if (c != ' ' && c != '\t' && c != '\r') {
        break;
      }
      j->pos++;
    }
    j->tpos = j->pos;
    j->tline = j->line;
    if (j->pos >= j->len) {
      if (j->want != WANT_DONE) {
        return jfail(j, j->line, "invalid JSON: unexpected end of input");
      }
      return j->tok = SPART_JSON_END;
    }
    char c = s[j->pos];
    if (j->want == WANT_DONE) {
      char txt[SPART_PRINTABLE];
      return jfail(j, j->line, "invalid JSON: text after the end: '%s'",
                   spart_printable(txt, s + j->pos, j->len - j->pos));
    }
    spart_json_level *l = j->depth ? j->stack + j->depth - 1 : NULL;

    /* what comes after a value or a key: a comma, a colon or the end of a container */
    if (j->want == WANT_COLON) {
      if (c != ':') {
        break;
      }
      j->pos++;
      j->want = WANT_VALUE;
      continue;
    }
    if (j->want == WANT_AFTER) {
      if (c == ',') {
        j->pos++;
        j->want = l->type == '{' ? WANT_KEY : WANT_VALUE;
        j->first = 0;
        l->index += l->type == '[';
        continue;
      }
      if (c == (l->type == '{' ? '}' : ']')) {
        j->pos++;
        if (pop(j)) {
          return -1;
        }
        return j->tok = c == '}' ? SPART_JSON_OBJECT_END : SPART_JSON_ARRAY_END;
      }
      break;
    }

    /* a key, or the end of an empty object */
    if (j->want == WANT_KEY) {
      if (c == '}' && j->first) {
        j->pos++;
        if (pop(j)) {
          return -1;
        }
        return j->tok = SPART_JSON_OBJECT_END;
      }
      if (c != '"') {
        break;
      }
      if (scan_string(j) || add_key(j)) {
        return -1;
      }
      j->want = WANT_COLON;
      return j->tok = SPART_JSON_KEY;
    }

    /* a value, or the end of an empty array */
    if (c == ']' && j->first && l && l->type == '[') {
      j->pos++;
      if (pop(j)) {
        return -1;
      }
      return j->tok = SPART_JSON_ARRAY_END;
    }
    if (c == '{' || c == '[') {
      if (push(j, c)) {
        return -1;
      }
      j->pos++;
      j->first = 1;
      j->want = c == '{' ? WANT_KEY : WANT_VALUE;
      return j->tok = c == '{' ? SPART_JSON_OBJECT : SPART_JSON_ARRAY;
    }
    int after = j->depth ? WANT_AFTER : WANT_DONE;
    if (c == '"') {
      if (scan_string(j)) {
        return -1;
      }
      if (memchr(j->str, 0, j->strlen)) {
        char path[200];
        return jfail(j, j->tline, "%s%sa string holds a NUL (\\u0000)",
                     spart_json_path(j, path, sizeof path), j->depth ? ": " : "");
      }
      j->first = 0;
      j->want = after;
      return j->tok = SPART_JSON_STRING;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      if (scan_number(j)) {
        return -1;
      }
      j->first = 0;
      j->want = after;
      return j->tok = SPART_JSON_NUMBER;
    }
    static const struct {
      const char *word;
      int tok;
    } words[] = {{"true", SPART_JSON_TRUE}, {"false", SPART_JSON_FALSE}, {"null", SPART_JSON_NULL}};
    for (int w = 0; w < 3; w++) {
      size_t n = strlen(words[w].word);
      if (j->len - j->pos >= n && memcmp(s + j->pos, words[w].word, n) == 0 &&
          (j->len - j->pos == n || !((s[j->pos + n] >= 'a' && s[j->pos + n] <= 'z') ||
                                    (s[j->pos + n] >= 'A' && s[j->pos + n] <= 'Z') ||
                                    (s[j->pos + n] >= '0' && s[j->pos + n] <= '9')))) {
        j->pos += n;
        j->first = 0;
        j->want = after;
        return j->tok = words[w].tok;
      }
    }
    break;
  }

  /* what is there is not what may come */
  static const char *const wanted[] = {"a value", "a key in double quotes", "':'",
                                       "',' or the end of the container"};
  char txt[SPART_PRINTABLE];
  size_t e = j->pos;
  while (e < j->len && e - j->pos < 20 && s[e] != '\n') {
    e++;
  }
  if ((unsigned char)s[j->pos] == 0) {
    return jfail(j, j->line, "invalid JSON: a NUL byte");
  }
  return jfail(j, j->line, "invalid JSON: expected %s, got '%s'", wanted[j->want],
               spart_printable(txt, s + j->pos, e - j->pos));
}


int spart_json_skip(spart_json *j) {
  int depth = j->tok == SPART_JSON_OBJECT || j->tok == SPART_JSON_ARRAY;
  while (depth > 0) {
    int t = spart_json_next(j);
    if (t < 0) {
      return -1;
    }
    depth += (t == SPART_JSON_OBJECT || t == SPART_JSON_ARRAY) -
             (t == SPART_JSON_OBJECT_END || t == SPART_JSON_ARRAY_END);
  }
  return 0;
}


const char *spart_json_path(const spart_json *j, char *buf, size_t n) {
  size_t k = 0;
  buf[0] = 0;
  for (int d = 0; d < j->depth && k + 1 < n; d++) {
    const spart_json_level *l = j->stack + d;
    int last = d + 1 < j->depth ? j->stack[d + 1].keys : j->nkeys;
    if (l->type == '[') {
      k += (size_t)snprintf(buf + k, n - k, "[%d]", l->index);
    } else if (last > l->keys) {
      const spart_json_key *key = j->keys + last - 1;
      char txt[SPART_PRINTABLE];
      spart_printable(txt, key->p ? key->p : j->arena + key->off, key->len);
      k += (size_t)snprintf(buf + k, n - k, "%s%s", k ? "." : "", txt);
    }
    k = k < n ? k : n - 1;
  }
  return buf;
}


int spart_json_check(const char *s, size_t len, long line, spart_err *err) {
  spart_json j;
  int t;
  spart_json_init(&j, s, len, line);
  do {
    t = spart_json_next(&j);
  } while (t > 0);
  if (t < 0) {
    err->code = j.oom ? SPART_ENOMEM : SPART_EDATA;
    err->line = (int)j.eline;
    snprintf(err->msg, sizeof err->msg, "%s", j.msg);
  }
  spart_json_free(&j);
  return t < 0 ? -err->code : 0;
}


long spart_json_line_of(const char *s, size_t len, long line, const char *path) {
  spart_json j;
  long found = 0;
  const char *p = path;
  spart_json_init(&j, s, len, line);
  if (spart_json_next(&j) < 0) {
    spart_json_free(&j);
    return 0;
  }
  found = j.tline;
  /* one component of the path at a time: ".key" or "key" or "[index]" */
  while (*p) {
    int t = j.tok;
    if (*p == '.') {
      p++;
    }
    if (*p == '[' && t == SPART_JSON_ARRAY) {
      char *end;
      long want = strtol(p + 1, &end, 10), i = 0;
      if (*end != ']') {
        break;
      }
      p = end + 1;
      int hit = 0;
      while ((t = spart_json_next(&j)) > 0 && t != SPART_JSON_ARRAY_END) {
        if (i++ == want) {
          hit = 1;
          break;
        }
        if (spart_json_skip(&j)) {
          break;
        }
      }
      if (!hit) {
        break;
      }
      found = j.tline;
    } else if (*p != '[' && t == SPART_JSON_OBJECT) {
      size_t n = strcspn(p, ".[");
      int hit = 0;
      while ((t = spart_json_next(&j)) == SPART_JSON_KEY) {
        if (j.strlen == n && memcmp(j.str, p, n) == 0) {
          hit = 1;
          break;
        }
        if (spart_json_next(&j) < 0 || spart_json_skip(&j)) {
          break;
        }
      }
      if (!hit || spart_json_next(&j) < 0) {
        break;
      }
      p += n;
      found = j.tline;
    } else {
      break;
    }
  }
  spart_json_free(&j);
  return found;
}
