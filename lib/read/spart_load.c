/* spart_load.c -- the loader: model file or text to model by its URDF, model JSON or DH reader */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "spart.h"
#include "spart_internal.h"


/* the model of a cJSON object, a model JSON or a DH description; path (pathlen bytes) receives
   where in the document a fault the checks find is ("links[2]"), "" if the message says where */
static spart_model *from_cjson(const cJSON *obj, spart_err *err, char *path, size_t pathlen) {
  spart_err dummy = {0};

  err = err ? err : &dummy;
  err->code = 0;
  err->line = 0;
  if (!cJSON_IsObject(obj)) {
    char buf[64];
    spart_err_set(err, SPART_EDATA, 0, "expected a model object, got %s",
                  spart_shape(obj, buf, sizeof buf));
    return NULL;
  }
  if (cJSON_GetObjectItemCaseSensitive(obj, "man") || cJSON_GetObjectItemCaseSensitive(obj, "dh")) {
    return spart_dh_json_read(obj, err);
  }
  return spart_model_json_read(obj, err, path, pathlen);
}


/* blank the value of every top-level "con" member of the object text (len bytes; keeping its
   newlines, so that lines in messages stay right): the reader ignores it, and SPART's n x n maps
   would cost cJSON some 64 bytes a digit.  Text that is not a JSON object is left to cJSON. */
static void drop_con(char *text, size_t len) {
  spart_json j;
  spart_json_init(&j, text, len, 1);
  if (spart_json_next(&j) == SPART_JSON_OBJECT) {
    while (spart_json_next(&j) == SPART_JSON_KEY) {
      int con = j.strlen == 3 && memcmp(j.str, "con", 3) == 0;
      size_t value;
      if (spart_json_next(&j) < 0) {
        break;
      }
      value = j.tpos;
      if (spart_json_skip(&j)) {
        break;
      }
      if (con) {
        for (size_t c = value; c < j.pos; c++) {
          text[c] = text[c] == '\n' ? '\n' : ' ';
        }
        text[value] = '0';
      }
    }
  }
  spart_json_free(&j);
}


/* spart_model_parse_at on a text it may change */
static spart_model *parse_text(char *text, long line, spart_err *err) {
  const char *p = text;
  size_t len = strlen(text), skip = strncmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
  cJSON *obj;
  spart_model *m;

  while (isspace((unsigned char)*p)) {
    p++;
  }
  if (!*p) {
    spart_err_set(err, SPART_EDATA, 0, "empty input");
    return NULL;
  }

  /* the strict scanner first: cJSON takes 1., 01, repeated keys, a key "qm\u0000x" as qm */
  if (spart_json_check(text + skip, len - skip, line, err)) {
    if (strncmp(err->msg, "invalid JSON: ", 14) == 0) {
      memmove(err->msg + 10, err->msg + 14, strlen(err->msg + 14) + 1);
      memcpy(err->msg, "not JSON: ", 10);
    }
    return NULL;
  }

  /* then cJSON's tree: what it cannot build of a text the scanner took is for want of memory */
  drop_con(text + skip, len - skip);
  obj = cJSON_ParseWithOpts(text + skip, NULL, 1);
  if (!obj) {
    spart_err_set(err, SPART_ENOMEM, 0, "out of memory");
    return NULL;
  }
  char path[256] = "";
  m = from_cjson(obj, err, path, sizeof path);
  cJSON_Delete(obj);

  /* a fault in the model: the line of the part of the text it names */
  if (!m && err->code == SPART_EDATA && err->line == 0 && !path[0]) {
    spart_message_path(err->msg, NULL, path, sizeof path);
  }
  if (!m && err->code == SPART_EDATA && err->line == 0 && path[0]) {
    err->line = (int)spart_json_line_of(text + skip, len - skip, line, path);
  }
  return m;
}


spart_model *spart_model_parse_at(const char *text, long line, spart_err *err) {
  char *copy = strdup(text);
  spart_model *m;
  if (!copy) {
    spart_err_set(err, SPART_ENOMEM, 0, "out of memory");
    return NULL;
  }
  m = parse_text(copy, line, err);
  free(copy);
  return m;
}


spart_model *spart_model_parse(const char *text, spart_err *err) {
  return spart_model_parse_at(text, 1, err);
}


/* whether buf is UTF-16 text that starts (after blanks) with '<': XML, whatever its name (a
   byte order mark FF FE or FE FF, or a first character '<' with a NUL byte beside it) */
static int utf16_xml(const char *buf, size_t len) {
  const unsigned char *b = (const unsigned char *)buf;
  if (len >= 2 && ((b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF))) {
    return 1;
  }
  for (size_t k = 0; k + 1 < len; k += 2) {
    unsigned c = b[k] ? b[k] : b[k + 1], other = b[k] ? b[k + 1] : b[k];
    if (other != 0 || c == 0) {
      return 0; /* not one ASCII character in UTF-16 */
    }
    if (!isspace((int)c)) {
      return c == '<';
    }
  }
  return 0;
}


/* the model of the text buf (len bytes, malloc'd: freed here) by the reader its content picks,
   or its name's .urdf */
static spart_model *load(char *buf, size_t len, const char *name, const spart_urdf_opts *o,
                         spart_err *err) {
  size_t nlen = strlen(name);
  const char *p = buf;
  spart_model *m;

  if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) {
    p += 3; /* a UTF-8 byte order mark */
  }
  while (p < buf + len && isspace((unsigned char)*p)) {
    p++;
  }
  if ((nlen >= 5 && strcmp(name + nlen - 5, ".urdf") == 0) || (p < buf + len && *p == '<') ||
      utf16_xml(buf, len)) {
    m = spart_urdf_parse_opts(buf, len, o, err);
  } else if (memchr(buf, '\0', len)) {
    spart_err_set(err, SPART_EDATA, 0, "not JSON: a NUL byte in the input");
    m = NULL;
  } else {
    m = parse_text(buf, 1, err);
  }
  free(buf);
  return m;
}


/* o with its dir the directory of path, when o gives none (dir: room for it); NULL when that
   room cannot be had (the meshes would be looked for elsewhere) */
static const spart_urdf_opts *with_dir(const spart_urdf_opts *o, const char *path,
                                       spart_urdf_opts *copy, char **dir) {
  const char *slash = strrchr(path, '/');
  *dir = NULL;
  if (o && o->dir) {
    return o;
  }
  if (o) {
    *copy = *o;
  } else {
    memset(copy, 0, sizeof *copy);
  }
  if (slash) {
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    *dir = malloc(n + 1);
    if (!*dir) {
      return NULL;
    }
    memcpy(*dir, path, n);
    (*dir)[n] = '\0';
    copy->dir = *dir;
  }
  return copy;
}


spart_model *spart_model_load_opts(const char *path, const spart_urdf_opts *o, spart_err *err) {
  size_t len = 0;
  char *buf = spart_slurp(path, &len, err), *dir;
  spart_urdf_opts copy;
  spart_model *m;
  if (!buf) {
    return NULL;
  }
  o = with_dir(o, path, &copy, &dir);
  if (!o) {
    free(buf);
    spart_err_set(err, SPART_ENOMEM, 0, "out of memory");
    return NULL;
  }
  m = load(buf, len, path, o, err);
  free(dir);
  return m;
}


spart_model *spart_model_load(const char *path, spart_err *err) {
  return spart_model_load_opts(path, NULL, err);
}


spart_model *spart_model_read_opts(int fd, const char *name, const spart_urdf_opts *o,
                                   spart_err *err) {
  size_t len = 0;
  char *buf = spart_slurp_fd(fd, name, &len, err);
  return buf ? load(buf, len, name, o, err) : NULL;
}


spart_model *spart_model_read(int fd, const char *name, spart_err *err) {
  return spart_model_read_opts(fd, name, NULL, err);
}
