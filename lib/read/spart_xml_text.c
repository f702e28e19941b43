/* spart_xml_text.c -- the XML text that libxml2 is not asked about, for the URDF reader
 * (spart_urdf.c, the only file that uses libxml2): a start tag with too many attributes, found
 * before libxml2 parses; the XML declaration's version made 1.0; lists of xs:double numbers */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spart.h"
#include "spart_internal.h"


/* XML white space: between attributes, and the separators of a list of numbers */
static int is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}


int spart_xml_crowded_tag(const char *buf, size_t len) {
  const char *p = buf, *end = buf + len;

  while ((p = memchr(p, '<', (size_t)(end - p))) != NULL) {
    const char *close = NULL, *q;
    int nattr = 0;
    char quote = 0;

    /* the markup that starts at p, and where it ends */
    if (end - p >= 4 && memcmp(p, "<!--", 4) == 0) {
      for (q = p + 4; q + 3 <= end && !close; q++) {
        close = memcmp(q, "-->", 3) == 0 ? q + 3 : NULL;
      }
    } else if (end - p >= 9 && memcmp(p, "<![CDATA[", 9) == 0) {
      for (q = p + 9; q + 3 <= end && !close; q++) {
        close = memcmp(q, "]]>", 3) == 0 ? q + 3 : NULL;
      }
    } else if (end - p >= 2 && p[1] == '?') {
      for (q = p + 2; q + 2 <= end && !close; q++) {
        close = memcmp(q, "?>", 2) == 0 ? q + 2 : NULL;
      }
    } else {
      /* a start tag or a declaration: to the '>' outside quotes */
      for (q = p + 1; q < end && !close; q++) {
        if (quote) {
          quote = *q == quote ? 0 : quote;
        } else if (*q == '"' || *q == '\'') {
          quote = *q;
        } else if (*q == '>') {
          close = q + 1;
        } else if (*q == '=' && p[1] != '!' && ++nattr > SPART_XML_MAX_ATTRIBUTES) {
          int line = 1;
          for (q = buf; q < p; q++) {
            line += *q == '\n';
          }
          return line;
        }
      }
    }
    p = close ? close : end;
  }
  return 0;
}


int spart_xml_version(const char *buf, size_t len, char **copy, size_t *copy_len) {
  static const char v10[] = " version=\"1.0\"";
  const char *end = buf + len, *p = buf, *q, *rest = NULL;
  size_t head, nl = 0;

  *copy = NULL;
  if (len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) {
    p += 3; /* a UTF-8 byte order mark */
  }
  if (end - p < 7 || memcmp(p, "<?xml", 5) != 0 || !(is_blank(p[5]) || p[5] == '?')) {
    return 0;
  }
  head = (size_t)(p + 5 - buf);
  for (q = p + 5; q < end && is_blank(*q); q++) {
  }
  if (end - q < 7 || memcmp(q, "version", 7) != 0) {
    rest = p + 5; /* no version: give it one */
  } else {
    const char *val, *close;
    for (q += 7; q < end && is_blank(*q); q++) {
    }
    if (q == end || *q != '=') {
      return 0; /* malformed: libxml2 says so */
    }
    for (q++; q < end && is_blank(*q); q++) {
    }
    if (q == end || (*q != '"' && *q != '\'')) {
      return 0;
    }
    val = q + 1;
    close = memchr(val, *q, (size_t)(end - val));
    if (!close || memchr(val, '>', (size_t)(close - val))) {
      return 0;
    }
    if (close - val == 3 && memcmp(val, "1.0", 3) == 0) {
      return 0;
    }
    rest = close + 1;
  }
  for (q = p + 5; q < rest; q++) {
    nl += *q == '\n';
  }
  *copy_len = head + sizeof v10 - 1 + nl + (size_t)(end - rest);
  *copy = malloc(*copy_len + 1);
  if (!*copy) {
    return -1;
  }
  memcpy(*copy, buf, head);
  memcpy(*copy + head, v10, sizeof v10 - 1);
  memset(*copy + head + sizeof v10 - 1, '\n', nl);
  memcpy(*copy + head + sizeof v10 - 1 + nl, rest, (size_t)(end - rest));
  (*copy)[*copy_len] = '\0';
  return 0;
}


/* the length of the decimal number of xs:double at p (sign, digits with an optional '.', an
   optional exponent), or 0: no hex float, no "inf" or "nan", no locale */
static size_t decimal(const char *p) {
  size_t k = 0, mant = 0;
  k += *p == '+' || *p == '-';
  while (isdigit((unsigned char)p[k])) {
    k++;
    mant++;
  }
  if (p[k] == '.') {
    k++;
    while (isdigit((unsigned char)p[k])) {
      k++;
      mant++;
    }
  }
  if (mant == 0) {
    return 0;
  }
  if (p[k] == 'e' || p[k] == 'E') {
    size_t e = k + 1 + (p[k + 1] == '+' || p[k + 1] == '-');
    if (!isdigit((unsigned char)p[e])) {
      return 0;
    }
    while (isdigit((unsigned char)p[e])) {
      e++;
    }
    k = e;
  }
  return k;
}


/* xs:double's other lexical forms, which spart refuses as not finite */
static size_t special(const char *p) {
  static const char *const word[] = {"INF", "+INF", "-INF", "NaN"};
  for (size_t w = 0; w < sizeof word / sizeof *word; w++) {
    size_t n = strlen(word[w]);
    if (strncmp(p, word[w], n) == 0) {
      return n;
    }
  }
  return 0;
}


int spart_xml_doubles(const char *s, double *v, int n) {
  const char *p = s;
  int infinite = 0;
  for (int k = 0; k < n; k++) {
    size_t len, sp;
    while (is_blank(*p)) {
      p++;
    }
    len = decimal(p);
    sp = len ? 0 : special(p);
    if ((!len && !sp) || (p[len + sp] && !is_blank(p[len + sp]))) {
      return -1;
    }
    if (len) {
      v[k] = strtod(p, NULL); /* strtod reads this grammar, and stops where it ends */
    }
    infinite |= sp > 0 || !isfinite(v[k]);
    p += len + sp;
  }
  while (is_blank(*p)) {
    p++;
  }
  return *p ? -1 : infinite ? -2 : 0;
}
