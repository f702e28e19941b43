/* spart_urdf.c -- a URDF document to a model, with the numbering and frames of SPART's urdf2robot;
   the only file that uses libxml2 (the text it is not asked about and the lists of numbers:
   spart_xml_text.c; the tree's names and numbering: spart_urdf_tree.c; mesh files: spart_file.c) */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include "spart.h"
#include "spart_internal.h"
#include "spu.h"

/* what the libxml2 callbacks learn, reached through ctxt->_private */
typedef struct xstate {
  xmlParserCtxtPtr ctxt; /* the parser, for the line of errors raised without it */
  int entity_line; /* line of the first entity declaration, 0 if none */
  int fatal;       /* msg holds a fatal error */
  int oom;         /* libxml2 ran out of memory */
  int line;        /* line of msg */
  char msg[400];   /* the first (fatal) error, empty if none */
} xstate;

/* a <link> or <joint> child of <robot> */
typedef struct uelem {
  xmlNode *node;
  char *name;        /* from xmlGetNoNsProp */
  int parent, child; /* joints: file indices of the links */
  int type;          /* joints: SPART_JNT_* */
  int bounded;       /* joints: revolute or prismatic, whose <limit> gives lower and upper */
  int up;            /* links: file index of the parent joint, -1 for none */
  int id;            /* SPART id; 0 until numbered */
} uelem;

/* everything spart_urdf_parse holds */
typedef struct urdf {
  spart_err *err;
  xmlDoc *doc;
  xmlNode *robot;
  uelem *link, *jnt;
  spart_named *byname; /* (nl) links sorted by name */
  spart_named *jbyname; /* (nj) joints sorted by name */
  int nl, nj, root;
  int world, wjoint; /* the world idiom's link and floating joint, left out; -1 if none */
  const spart_urdf_opts *opts; /* where meshes are, automass */
  spart_mesh *mesh;  /* (nshape) the meshes read, for automass; empty for the others */
  int nmesh;
  int fixed_world;   /* the root is a link named world bolted to the robot: a fixed base */
  int *auto_need;    /* (nb) automass: 0 not for this link, 1 when it has collision shapes, 2
                        needed (an <inertial> without <inertia>) */
  double *auto_mass; /* (nb) its <mass>, -1 when it gives none */
} urdf;


/* a fault of the URDF at line, and running out of memory, into err (spart_err_set: one line,
   control characters as '?'); -SPART_EDATA, -SPART_ENOMEM */
#define fail(err, line, ...) spart_err_set(err, SPART_EDATA, line, __VA_ARGS__)
#define oom(err) spart_err_set(err, SPART_ENOMEM, 0, "out of memory")


/* the line of an element; past 65534 on_start keeps it in psvi (xmlGetLineNo would take the line
   of the next text node instead) */
static int line_of(const xmlNode *node) {
  long line = 0;
  if (node) {
    line = node->line == 65535 && node->psvi ? (long)(ptrdiff_t)node->psvi : xmlGetLineNo(node);
  }
  return line > 0 && line <= INT_MAX ? (int)line : 0;
}


/* ---------------------------------------------------------------------------------------------
 * parsing the XML
 */

/* an entity declaration: refuse it and stop */
static void on_entity(void *ctx, const xmlChar *name, int type, const xmlChar *public_id,
                      const xmlChar *system_id, xmlChar *content) {
  xmlParserCtxtPtr ctxt = ctx;
  xstate *st = ctxt->_private;
  (void)name;
  (void)type;
  (void)public_id;
  (void)system_id;
  (void)content;
  if (!st->entity_line) {
    st->entity_line = ctxt->input ? ctxt->input->line : 1;
  }
  xmlStopParser(ctxt);
}


static void on_unparsed(void *ctx, const xmlChar *name, const xmlChar *public_id,
                        const xmlChar *system_id, const xmlChar *notation) {
  on_entity(ctx, name, 0, public_id, system_id, NULL);
  (void)notation;
}


/* an element: as libxml2's own handler, but keep lines past 65534 in psvi (as libxml2 does for
   text nodes under XML_PARSE_BIG_LINES) */
static void on_start(void *ctx, const xmlChar *localname, const xmlChar *prefix,
                     const xmlChar *uri, int nb_namespaces, const xmlChar **namespaces,
                     int nb_attributes, int nb_defaulted, const xmlChar **attributes) {
  xmlParserCtxtPtr ctxt = ctx;
  xmlSAX2StartElementNs(ctx, localname, prefix, uri, nb_namespaces, namespaces, nb_attributes,
                        nb_defaulted, attributes);
  if (ctxt->node && ctxt->input && ctxt->input->line >= 65535) {
    ctxt->node->psvi = (void *)(ptrdiff_t)ctxt->input->line;
  }
}


/* libxml2 errors: keep the first fatal one (or else the first error), print nothing, and only
   the first line of it ("input is not proper UTF-8, ...\nBytes: 0x92 ..."); namespace errors are
   left to the xacro check */
#if LIBXML_VERSION >= 21200
static void keep_error(xstate *st, const xmlError *e) {
#else
static void keep_error(xstate *st, xmlErrorPtr e) {
#endif
  char *huge;
  size_t n;
  if (st && e && e->code == XML_ERR_NO_MEMORY) {
    st->oom = 1;
  }
  if (!st || !e || !e->message || e->level < XML_ERR_ERROR || e->domain == XML_FROM_NAMESPACE ||
      st->fatal || (st->msg[0] && e->level != XML_ERR_FATAL)) {
    return;
  }
  snprintf(st->msg, sizeof st->msg, "%s", e->message);
  st->msg[strcspn(st->msg, "\r\n")] = '\0';
  huge = strstr(st->msg, "use XML_PARSE_HUGE"); /* an option of libxml2, not of urdf2robot */
  if (huge) {
    *huge = '\0';
  }
  n = strlen(st->msg);
  while (n > 0 && (isspace((unsigned char)st->msg[n - 1]) || st->msg[n - 1] == ',')) {
    st->msg[--n] = '\0';
  }
  if (!isupper((unsigned char)st->msg[1])) { /* "Unsupported ..." but not "XML ..." */
    st->msg[0] = (char)tolower((unsigned char)st->msg[0]);
  }
  st->line = e->line > 0 ? e->line : st->ctxt && st->ctxt->input ? st->ctxt->input->line : 0;
  st->fatal = e->level == XML_ERR_FATAL;
}


/* an error of the parser context */
#if LIBXML_VERSION >= 21200
static void on_error(void *ctx, const xmlError *e) {
#else
static void on_error(void *ctx, xmlErrorPtr e) {
#endif
  xmlParserCtxtPtr ctxt = ctx;
  keep_error(ctxt ? ctxt->_private : NULL, e);
}


/* an error that libxml2 raises without a context (encoding conversion, I/O): it would print it
   on stderr ("encoding error : input conversion failed ...") */
#if LIBXML_VERSION >= 21200
static void on_global_error(void *ctx, const xmlError *e) {
#else
static void on_global_error(void *ctx, xmlErrorPtr e) {
#endif
  keep_error(ctx, e);
}


/* libxml2's messages outside the structured ones (its generic channel, which would print them
   on stderr) while a URDF is read: with the parse's own errors structured (parse_xml), what
   comes here is libxml2's "Memory allocation failed" of its string copies (an attribute's copy
   that failed reads as no attribute), or a message it could not build (NULL), either of which
   makes the read a failure for lack of memory; any other message is dropped, as before */
static void on_generic_error(void *ctx, const char *fmt, ...) {
  const char *text = fmt;
  if (strcmp(fmt, "%s") == 0) { /* a message built beforehand: NULL when that failed */
    va_list ap;
    va_start(ap, fmt);
    text = va_arg(ap, const char *);
    va_end(ap);
  }
  if (!text || strstr(text, "emory")) { /* Memory allocation failed, out of memory */
    ((xstate *)ctx)->oom = 1;
  }
}


/* parse buf into u->doc: no network, no entities, no DTD loading, errors kept, not printed */
static int parse_xml(urdf *u, const char *buf, int len) {
  xstate st = {0};
  xmlParserCtxtPtr ctxt;
  xmlStructuredErrorFunc old_serror;
  void *old_sctx;
  int wellformed;

  st.line = spart_xml_crowded_tag(buf, (size_t)len);
  if (st.line) {
    return fail(u->err, st.line, "an element with more than %d attributes",
                SPART_XML_MAX_ATTRIBUTES);
  }
  xmlInitParser();

  /* errors raised without the context come to st too, for the parse only */
  old_serror = xmlStructuredError;
  old_sctx = xmlStructuredErrorContext;
  xmlSetStructuredErrorFunc(&st, on_global_error);
  ctxt = xmlCreateMemoryParserCtxt(buf, len);
  if (!ctxt) {
    xmlSetStructuredErrorFunc(old_sctx, old_serror);
    return oom(u->err);
  }
  xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
                              XML_PARSE_BIG_LINES);
  ctxt->_private = &st;
  st.ctxt = ctxt;
  ctxt->sax->entityDecl = on_entity;
  ctxt->sax->unparsedEntityDecl = on_unparsed;
  ctxt->sax->serror = on_error;
  ctxt->sax->startElementNs = on_start;
  xmlParseDocument(ctxt);
  u->doc = ctxt->myDoc;
  ctxt->myDoc = NULL;
  wellformed = ctxt->wellFormed;
  st.oom |= ctxt->errNo == XML_ERR_NO_MEMORY;
  xmlFreeParserCtxt(ctxt);
  xmlSetStructuredErrorFunc(old_sctx, old_serror);

  if (st.oom) {
    return oom(u->err); /* not "not XML": libxml2 may have had no memory left for a message */
  }
  if (st.entity_line) {
    return fail(u->err, st.entity_line, "entity declarations are not allowed");
  }
  if (!u->doc || !wellformed || st.msg[0]) {
    return fail(u->err, st.line, "%s", st.msg[0] ? st.msg : "not XML");
  }
  return 0;
}


/* the root must be <robot>, and nothing may come from xacro */
static int check_root(urdf *u) {
  xmlNode *root = xmlDocGetRootElement(u->doc), *node = root;

  /* walk every element without recursion */
  while (node) {
    if (node->type == XML_ELEMENT_NODE) {
      const char *ns = node->ns && node->ns->href ? (const char *)node->ns->href : "";
      if (strstr(ns, "ros.org/wiki/xacro") || strncmp((const char *)node->name, "xacro:", 6) == 0) {
        return fail(u->err, line_of(node), "this is a xacro file: run xacro first");
      }
      if (node->children) {
        node = node->children;
        continue;
      }
    }
    while (node && node != root && !node->next) {
      node = node->parent;
    }
    node = node && node != root ? node->next : NULL;
  }
  if (!root || strcmp((const char *)root->name, "robot") != 0) {
    return fail(u->err, root ? line_of(root) : 0, "no <robot> element");
  }
  u->robot = root;
  return 0;
}


/* ---------------------------------------------------------------------------------------------
 * links and joints
 */

/* an element of that name, in no namespace or the default one: <x:link> is not a link, as for
   urdfdom, which sees the name "x:link" */
static int is_el(const xmlNode *node, const char *name) {
  return node->type == XML_ELEMENT_NODE && (!node->ns || !node->ns->prefix) &&
         strcmp((const char *)node->name, name) == 0;
}


static xmlNode *child_el(const xmlNode *parent, const char *name) {
  for (xmlNode *c = parent ? parent->children : NULL; c; c = c->next) {
    if (is_el(c, name)) {
      return c;
    }
  }
  return NULL;
}


/* an element of Drake's URDF extensions, <drake:name>: its prefix drake whether or not the
   document declares the namespace (Drake's parser matches the name as written) */
static xmlNode *drake_el(const xmlNode *parent, const char *name) {
  for (xmlNode *c = parent ? parent->children : NULL; c; c = c->next) {
    const char *n = (const char *)c->name;
    if (c->type != XML_ELEMENT_NODE) {
      continue;
    }
    if (c->ns && c->ns->prefix ? strcmp((const char *)c->ns->prefix, "drake") == 0 &&
                                     strcmp(n, name) == 0
                               : strncmp(n, "drake:", 6) == 0 && strcmp(n + 6, name) == 0) {
      return c;
    }
  }
  return NULL;
}


static char *prop(const xmlNode *node, const char *name) {
  return node ? (char *)xmlGetNoNsProp(node, (const xmlChar *)name) : NULL;
}


/* sort (name, index) pairs; a name given twice is an error at its second place */
static int sort_names(urdf *u, spart_named *v, const uelem *e, int n, const char *kind) {
  int dup;
  for (int k = 0; k < n; k++) {
    v[k].name = e[k].name;
    v[k].idx = k;
  }
  dup = spart_names_sort(v, n);
  if (dup >= 0) {
    return fail(u->err, line_of(e[dup].node), "two %ss named '%s'", kind, e[dup].name);
  }
  return 0;
}


/* file index of the link named name, or -1 */
static int find_link(const urdf *u, const char *name) {
  return spart_names_find(u->byname, u->nl, name);
}


/* the <link> and <joint> children of <robot>, with names, unique */
static int collect(urdf *u) {
  int l = 0, j = 0, rc;

  for (xmlNode *c = u->robot->children; c; c = c->next) {
    u->nl += is_el(c, "link");
    u->nj += is_el(c, "joint");
  }
  if (u->nl == 0) {
    return fail(u->err, line_of(u->robot), "no links in <robot>");
  }
  u->link = calloc((size_t)u->nl, sizeof *u->link);
  u->jnt = calloc((size_t)u->nj + 1, sizeof *u->jnt);
  u->byname = malloc((size_t)u->nl * sizeof *u->byname);
  u->jbyname = malloc(((size_t)u->nj + 1) * sizeof *u->jbyname);
  if (!u->link || !u->jnt || !u->byname || !u->jbyname) {
    return oom(u->err);
  }
  for (xmlNode *c = u->robot->children; c; c = c->next) {
    int islink = is_el(c, "link");
    uelem *e = islink ? u->link + l++ : is_el(c, "joint") ? u->jnt + j++ : NULL;
    if (!e) {
      continue;
    }
    e->node = c;
    e->up = -1;
    e->name = prop(c, "name");
    if (!e->name || !e->name[0]) {
      return fail(u->err, line_of(c), "%s without a name", islink ? "link" : "joint");
    }
  }

  /* names are unique */
  rc = sort_names(u, u->jbyname, u->jnt, u->nj, "joint");
  return rc ? rc : sort_names(u, u->byname, u->link, u->nl, "link");
}


/* joint j's type, parent and child */
static int connect_joint(urdf *u, int j) {
  uelem *e = u->jnt + j;
  xmlNode *pe = child_el(e->node, "parent"), *ce = child_el(e->node, "child");
  char *type = prop(e->node, "type"), *pn = prop(pe, "link"), *cn = prop(ce, "link");
  int rc = 0;

  /* type */
  if (!type) {
    rc = fail(u->err, line_of(e->node), "joint '%s': no type", e->name);
  } else if (strcmp(type, "revolute") == 0 || strcmp(type, "continuous") == 0) {
    e->type = SPART_JNT_REVOLUTE;
    e->bounded = type[0] == 'r';
  } else if (strcmp(type, "prismatic") == 0) {
    e->type = SPART_JNT_PRISMATIC;
    e->bounded = 1;
  } else if (strcmp(type, "screw") == 0) { /* Drake's: its pitch in <drake:screw_thread_pitch> */
    e->type = SPART_JNT_HELICAL;
    e->bounded = 1;
  } else if (strcmp(type, "fixed") == 0) {
    e->type = SPART_JNT_FIXED;
  } else if (strcmp(type, "floating") == 0) {
    e->type = SPART_JNT_FLOATING;
  } else if (strcmp(type, "ball") == 0 || strcmp(type, "spherical") == 0) {
    e->type = SPART_JNT_BALL;
  } else if (strcmp(type, "planar") == 0) {
    e->type = SPART_JNT_PLANAR;
  } else {
    rc = fail(u->err, line_of(e->node), "joint '%s': unknown joint type '%s'", e->name, type);
  }

  /* parent and child links */
  if (!rc && !pn) {
    rc = fail(u->err, line_of(pe ? pe : e->node), "joint '%s': no parent link", e->name);
  } else if (!rc && !cn) {
    rc = fail(u->err, line_of(ce ? ce : e->node), "joint '%s': no child link", e->name);
  } else if (!rc && (e->parent = find_link(u, pn)) < 0) {
    rc = fail(u->err, line_of(pe), "joint '%s': unknown parent link '%s'", e->name, pn);
  } else if (!rc && (e->child = find_link(u, cn)) < 0) {
    rc = fail(u->err, line_of(ce), "joint '%s': unknown child link '%s'", e->name, cn);
  } else if (!rc && u->link[e->child].up >= 0) {
    rc = fail(u->err, line_of(e->node), "link '%s' has two parent joints '%s' and '%s'", cn,
              u->jnt[u->link[e->child].up].name, e->name);
  } else if (!rc) {
    u->link[e->child].up = j;
  }
  xmlFree(type);
  xmlFree(pn);
  xmlFree(cn);
  return rc;
}


/* the one root link: no joint's child */
static int find_root(urdf *u) {
  char list[256] = "";
  size_t len = 0;
  int nroot = 0, second = -1;

  u->root = -1;
  for (int l = 0; l < u->nl; l++) {
    if (u->link[l].up >= 0) {
      continue;
    }
    if (nroot++ == 0) {
      u->root = l;
    } else if (second < 0) {
      second = l;
    }
    if (len < sizeof list - 1) {
      int n = snprintf(list + len, sizeof list - len, "%s'%s'", len ? ", " : "",
                       u->link[l].name);
      len = n < 0 ? sizeof list : len + (size_t)n;
    }
  }
  if (nroot == 0) {
    return fail(u->err, line_of(u->robot), "no root link: every link is the child of a joint "
                "(a loop)");
  }
  if (nroot > 1) {
    return fail(u->err, line_of(u->link[second].node), "%d root links (children of no joint): "
                "%s", nroot, list);
  }
  return 0;
}


/* the `world` idiom of ROS: a root link without <inertial> whose one child joint is floating
   marks a floating base; that link and joint are left out and the joint's child is the root */
static void find_world(urdf *u) {
  int n = 0, j = -1;
  u->world = u->wjoint = -1;
  if (child_el(u->link[u->root].node, "inertial")) {
    return;
  }
  for (int k = 0; k < u->nj; k++) {
    if (u->jnt[k].parent == u->root) {
      n++;
      j = k;
    }
  }
  if (n == 1 && u->jnt[j].type == SPART_JNT_FLOATING) {
    u->world = u->root;
    u->wjoint = j;
    u->root = u->jnt[j].child;
  }
  /* ROS's arm on a table: a root named world, massless, with a fixed joint to the robot, is
     the world itself; it stays the base (body 0, where the joint's origin places the robot)
     and the model says the base is fixed */
  u->fixed_world = n == 1 && u->jnt[j].type == SPART_JNT_FIXED &&
                   strcmp((const char *)u->link[u->root].name, "world") == 0;
}


/* SPART's numbering (spart_urdf_number): the ids of the joints and their child links */
static int number(urdf *u) {
  int *parent = malloc(((size_t)u->nj + 1) * sizeof *parent);
  int *child = malloc(((size_t)u->nj + 1) * sizeof *child);
  int *id = malloc(((size_t)u->nj + 1) * sizeof *id);
  int rc = !parent || !child || !id ? oom(u->err) : 0;

  for (int j = 0; j < u->nj && !rc; j++) {
    parent[j] = u->jnt[j].parent;
    child[j] = u->jnt[j].child;
  }
  if (!rc && spart_urdf_number(u->nl, u->nj, parent, child, u->root, id)) {
    rc = oom(u->err);
  }
  for (int j = 0; j < u->nj && !rc; j++) {
    u->jnt[j].id = u->link[u->jnt[j].child].id = id[j];
  }

  /* joints left out hang in a loop off the tree */
  for (int j = 0; j < u->nj && !rc; j++) {
    if (u->jnt[j].id == 0 && j != u->wjoint) {
      rc = fail(u->err, line_of(u->jnt[j].node), "joint '%s' is not reachable from the root "
                "link '%s' (a loop)", u->jnt[j].name, u->link[u->root].name);
    }
  }
  free(parent);
  free(child);
  free(id);
  return rc;
}


/* ---------------------------------------------------------------------------------------------
 * numbers
 */

/* attribute attr of el as n finite numbers into v; v is left alone when el or attr is missing.
   The one reader of every number in a URDF. */
static int attr_nums(urdf *u, const xmlNode *el, const char *attr, double *v, int n,
                     const char *owner, const char *what) {
  char *s = prop(el, attr);
  int rc = 0, bad = s ? spart_xml_doubles(s, v, n) : 0;
  const char *finite = bad == -2 ? " finite" : "";
  if (bad && (strstr(s, "${") || strstr(s, "$("))) {
    rc = fail(u->err, line_of(el), "this is a xacro file: run xacro first");
  } else if (bad && n == 1) {
    rc = fail(u->err, line_of(el), "%s: %s: expected a%s number, got '%.60s'", owner, what,
              finite, s);
  } else if (bad) {
    rc = fail(u->err, line_of(el), "%s: %s: expected %d%s numbers, got '%.60s'", owner, what, n,
              finite, s);
  }
  xmlFree(s);
  return rc;
}


/* attribute attr of el, which must be there, as n finite numbers into v */
static int need_nums(urdf *u, const xmlNode *el, const char *attr, double *v, int n,
                     const char *owner, const char *what) {
  char *s = prop(el, attr);
  int rc = 0;
  if (!s) {
    rc = fail(u->err, line_of(el), "%s: <%s> without %s", owner, (const char *)el->name, attr);
  }
  xmlFree(s);
  return rc ? rc : attr_nums(u, el, attr, v, n, owner, what);
}


/* an <origin xyz rpy> (missing: identity) as R, p */
static int origin(urdf *u, const xmlNode *el, double R[9], double p[3], const char *owner,
                  const char *what) {
  double rpy[3] = {0, 0, 0};
  char w[64];
  p[0] = p[1] = p[2] = 0;
  snprintf(w, sizeof w, "%s xyz", what);
  if (attr_nums(u, el, "xyz", p, 3, owner, w)) {
    return -SPART_EDATA;
  }
  snprintf(w, sizeof w, "%s rpy", what);
  if (attr_nums(u, el, "rpy", rpy, 3, owner, w)) {
    return -SPART_EDATA;
  }
  spu_rpy(R, rpy);
  return 0;
}


/* body id for automass (need 1: when it has collision shapes, 2: it must), with its <mass>
   (-1: none) */
static void mark_automass(urdf *u, int id, int need, double mass) {
  if (u->auto_need && u->opts && u->opts->automass) {
    u->auto_need[id] = need;
    u->auto_mass[id] = mass;
  }
}


/* link l's <inertial> into body id: CoM frame, mass, inertia.  As for urdfdom, a link without
   <inertial> is massless at the link frame, and an <inertial> needs <mass value> and <inertia>
   with all six attributes. */
static int read_link(urdf *u, spart_model *m, int l, int id) {
  /* URDF's order, and where each goes in body_inertia (xx yy zz xy xz yz) */
  static const char *const attr[6] = {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"};
  static const int slot[6] = {0, 3, 4, 1, 5, 2};
  xmlNode *in = child_el(u->link[l].node, "inertial"), *mass = child_el(in, "mass");
  xmlNode *inertia = child_el(in, "inertia");
  char owner[300];

  snprintf(owner, sizeof owner, "link '%s'", u->link[l].name);
  m->body_name[id] = strdup(u->link[l].name);
  if (!m->body_name[id]) {
    return oom(u->err);
  }
  if (!in) {
    mark_automass(u, id, 1, -1);
    return 0;
  }
  if (origin(u, child_el(in, "origin"), m->body_rot + 9 * id, m->body_pos + 3 * id, owner,
             "inertial origin")) {
    return -SPART_EDATA;
  }
  if (!mass) {
    return fail(u->err, line_of(in), "%s: <inertial> without <mass>", owner);
  }
  if (need_nums(u, mass, "value", m->body_mass + id, 1, owner, "mass value")) {
    return -SPART_EDATA;
  }
  if (m->body_mass[id] < 0) {
    return fail(u->err, line_of(mass), "%s: negative mass %g", owner, m->body_mass[id]);
  }
  if (!inertia && u->opts && u->opts->automass) {
    mark_automass(u, id, 2, m->body_mass[id]);
    return 0;
  }
  if (!inertia) {
    return fail(u->err, line_of(in), "%s: <inertial> without <inertia>", owner);
  }
  if (u->opts && u->opts->automass == SPART_AUTOMASS_ALL) {
    mark_automass(u, id, 1, m->body_mass[id]);
  }
  for (int k = 0; k < 6; k++) {
    char w[16];
    snprintf(w, sizeof w, "inertia %s", attr[k]);
    if (need_nums(u, inertia, attr[k], m->body_inertia + 6 * id + slot[k], 1, owner, w)) {
      return -SPART_EDATA;
    }
  }
  return 0;
}


/* a moving joint's <dynamics damping friction> (viscous, Coulomb) and <limit lower upper effort
   velocity> */
static int joint_drive(urdf *u, spart_model *m, int j, int id, const char *owner) {
  xmlNode *dyn = child_el(u->jnt[j].node, "dynamics"), *lim = child_el(u->jnt[j].node, "limit");
  double f = 0, *r = m->jnt_range + 2 * id;
  char *lower, *upper;

  if (attr_nums(u, dyn, "damping", m->jnt_damping + id, 1, owner, "dynamics damping") ||
      attr_nums(u, dyn, "friction", &f, 1, owner, "dynamics friction")) {
    return -SPART_EDATA;
  }
  if (m->jnt_damping[id] < 0 || f < 0) {
    return fail(u->err, line_of(dyn), "%s: dynamics: negative %s", owner,
                f < 0 ? "friction" : "damping");
  }
  m->jnt_friction[2 * id] = f;
  m->jnt_friction[2 * id + 1] = -f;

  /* effort and velocity limits, of any moving joint: absent or 0, none */
  if (attr_nums(u, lim, "effort", m->jnt_effort + id, 1, owner, "limit effort") ||
      attr_nums(u, lim, "velocity", m->jnt_velocity + id, 1, owner, "limit velocity")) {
    return -SPART_EDATA;
  }
  if (m->jnt_effort[id] < 0 || m->jnt_velocity[id] < 0) {
    return fail(u->err, line_of(lim), "%s: limit: negative %s", owner,
                m->jnt_effort[id] < 0 ? "effort" : "velocity");
  }

  /* limits: lower and upper default to 0 (URDF), a continuous joint has none */
  lower = prop(lim, "lower");
  upper = prop(lim, "upper");
  m->jnt_limited[id] = u->jnt[j].bounded && (lower || upper);
  xmlFree(lower);
  xmlFree(upper);
  if (!m->jnt_limited[id]) {
    return 0;
  }
  if (attr_nums(u, lim, "lower", r, 1, owner, "limit lower") ||
      attr_nums(u, lim, "upper", r + 1, 1, owner, "limit upper")) {
    return -SPART_EDATA;
  }
  if (r[0] > r[1]) {
    return fail(u->err, line_of(lim), "%s: limit lower %g > upper %g", owner, r[0], r[1]);
  }
  return 0;
}


/* a joint's <mimic joint multiplier offset> (default 1 and 0), kept but not enforced: the joint
   stays an independent degree of freedom, as in SPART and KDL */
static int read_mimic(urdf *u, spart_model *m, int j, int id, const char *owner) {
  xmlNode *mim = child_el(u->jnt[j].node, "mimic");
  double *k = m->jnt_mimic_k + 2 * id;
  char *name;
  int rc = 0, other;

  if (!mim) {
    return 0;
  }
  name = prop(mim, "joint");
  other = name ? spart_names_find(u->jbyname, u->nj, name) : -1;
  k[0] = 1;
  if (!name || !name[0]) {
    rc = fail(u->err, line_of(mim), "%s: <mimic> without joint", owner);
  } else if (other < 0) {
    rc = fail(u->err, line_of(mim), "%s: mimics unknown joint '%s'", owner, name);
  } else if (other == j) {
    rc = fail(u->err, line_of(mim), "%s: mimics itself", owner);
  } else if (attr_nums(u, mim, "multiplier", k, 1, owner, "mimic multiplier") ||
             attr_nums(u, mim, "offset", k + 1, 1, owner, "mimic offset")) {
    rc = -SPART_EDATA;
  } else if (!(m->jnt_mimic[id] = strdup(name))) {
    rc = oom(u->err);
  }
  xmlFree(name);
  return rc;
}


/* a screw joint's pitch, which it must have: <drake:screw_thread_pitch value="P"/> (Drake's
   URDF extension), P metres along the axis per revolution, positive a right-handed screw */
static int read_pitch(urdf *u, spart_model *m, int j, int id, const char *owner) {
  xmlNode *el = drake_el(u->jnt[j].node, "screw_thread_pitch");
  char *s = prop(el, "value");
  int rc = 0;
  if (!el) {
    rc = fail(u->err, line_of(u->jnt[j].node), "%s: a screw joint without "
              "<drake:screw_thread_pitch value=\"P\"/> (P metres per revolution)", owner);
  } else if (!s) {
    rc = fail(u->err, line_of(el), "%s: <drake:screw_thread_pitch> without value", owner);
  } else {
    rc = attr_nums(u, el, "value", m->jnt_pitch + id, 1, owner, "screw_thread_pitch value");
  }
  xmlFree(s);
  return rc;
}


/* joint j into joint id: type, parent, axis and T = inverse(parent CoM frame) * origin */
static int read_joint(urdf *u, spart_model *m, int j, int id) {
  const uelem *e = u->jnt + j;
  xmlNode *ax = child_el(e->node, "axis");
  int pid = e->parent == u->root ? 0 : u->link[e->parent].id;
  const double *Rp = m->body_rot + 9 * pid, *pp = m->body_pos + 3 * pid;
  double *a = m->jnt_axis + 3 * id, Ro[9], po[3], Rpt[9], d[3], norm;
  char owner[300];

  snprintf(owner, sizeof owner, "joint '%s'", e->name);
  a[0] = spart_joint_has_axis(e->type);
  a[1] = a[2] = 0;
  if (origin(u, child_el(e->node, "origin"), Ro, po, owner, "origin") ||
      attr_nums(u, ax, "xyz", a, 3, owner, "axis xyz")) {
    return -SPART_EDATA;
  }
  m->jnt_type[id] = e->type;
  m->body_parent[id] = pid;

  /* the axis: (1 0 0) by default, unit; fixed joints keep theirs (SPART's e), 0 by default */
  norm = sqrt(spu_dot3(a, a));
  if (norm == 0 && spart_joint_has_axis(e->type)) {
    return fail(u->err, line_of(ax), "%s: zero axis", owner);
  }
  for (int k = 0; k < 3 && norm > 0; k++) {
    a[k] /= norm;
  }

  /* from the parent link's CoM frame (Rp, pp) to the joint frame (Ro, po) */
  for (int r = 0; r < 3; r++) {
    for (int c = 0; c < 3; c++) {
      Rpt[3 * r + c] = Rp[3 * c + r];
    }
    d[r] = po[r] - pp[r];
  }
  spu_mulmm3(m->jnt_rot + 9 * id, Rpt, Ro);
  spu_mulmtv3(m->jnt_pos + 3 * id, Rp, d);
  if ((spart_joint_nv(e->type) > 0 && joint_drive(u, m, j, id, owner)) ||
      (spart_joint_pitched(e->type) && read_pitch(u, m, j, id, owner)) ||
      read_mimic(u, m, j, id, owner)) {
    return -u->err->code;
  }
  m->jnt_name[id] = strdup(e->name);
  return m->jnt_name[id] ? 0 : oom(u->err);
}



/* ---------------------------------------------------------------------------------------------
 * shapes: <collision> and <visual> geometry
 */

/* a mesh's file: read when it is there and of a format Assimp reads (its bounds into the model,
   the mesh into u->mesh[s] for automass, the hull and the triangles); a reference only
   otherwise */
static int read_mesh(urdf *u, spart_model *m, int s, const xmlNode *el, const char *owner) {
  const char *file = m->shape_file[s];
  spart_mesh *mesh = u->mesh + s;
  int none, rc;
  char *path;

  rc = spart_mesh_format(file);
  if (rc < 0) {
    return oom(u->err);
  }
  if (rc == 0) {
    m->shape_mesh[s] = SPART_MESH_FORMAT;
    return 0;
  }
  path = spart_mesh_file(u->opts, file, &none);
  if (!path) {
    return oom(u->err);
  }
  if (none) {
    m->shape_mesh[s] = SPART_MESH_MISSING;
    free(path);
    return 0;
  }
  rc = spart_mesh_read(path, mesh, u->err);
  free(path);
  if (rc == -SPART_ENOMEM) {
    return rc;
  }
  if (rc) {
    char msg[sizeof u->err->msg];
    snprintf(msg, sizeof msg, "%s", u->err->msg);
    return fail(u->err, line_of(el), "%s: mesh '%.200s': %s", owner, file, msg);
  }
  m->shape_mesh[s] = SPART_MESH_READ;
  spart_mesh_box(mesh, m->shape_size + 3 * s, m->shape_bound + 6 * s);
  return spart_shape_mesh_put(m, s, mesh) ? oom(u->err) : 0;
}


/* the <geometry> of a <collision> or <visual> el into shape s */
static int read_geometry(urdf *u, spart_model *m, int s, const xmlNode *el, const char *owner) {
  static const char *const what[] = {"box", "cylinder", "sphere", "capsule", "mesh"};
  xmlNode *geo = child_el(el, "geometry"), *g = NULL;
  double *sz = m->shape_size + 3 * s;
  char w[80];
  int kind = -1, rc = 0;

  for (xmlNode *c = geo ? geo->children : NULL; c && kind < 0; c = c->next) {
    for (int k = 0; k < SPART_SHAPE_KINDS && c->type == XML_ELEMENT_NODE; k++) {
      if (is_el(c, what[k])) {
        kind = k;
        g = c;
      }
    }
    if (kind < 0 && c->type == XML_ELEMENT_NODE) {
      return fail(u->err, line_of(c), "%s: unknown geometry <%s>", owner,
                  (const char *)c->name);
    }
  }
  if (!geo || kind < 0) {
    return fail(u->err, line_of(geo ? geo : el), "%s: <%s> without %s", owner,
                (const char *)el->name, geo ? "a shape in <geometry>" : "<geometry>");
  }
  m->shape_kind[s] = kind;
  snprintf(w, sizeof w, "%s", what[kind]);
  if (kind == SPART_SHAPE_BOX) {
    rc = need_nums(u, g, "size", sz, 3, owner, "box size");
  } else if (kind == SPART_SHAPE_SPHERE) {
    rc = need_nums(u, g, "radius", sz, 1, owner, "sphere radius");
  } else if (kind != SPART_SHAPE_MESH) {
    snprintf(w, sizeof w, "%s radius", what[kind]);
    rc = need_nums(u, g, "radius", sz, 1, owner, w);
    snprintf(w, sizeof w, "%s length", what[kind]);
    rc = rc ? rc : need_nums(u, g, "length", sz + 1, 1, owner, w);
  } else {
    char *file = prop(g, "filename");
    sz[0] = sz[1] = sz[2] = 1;
    if (!file || !file[0]) {
      xmlFree(file);
      return fail(u->err, line_of(g), "%s: <mesh> without filename", owner);
    }
    m->shape_file[s] = strdup(file);
    xmlFree(file);
    if (!m->shape_file[s]) {
      return oom(u->err);
    }
    rc = attr_nums(u, g, "scale", sz, 3, owner, "mesh scale");
    if (!rc && (sz[0] == 0 || sz[1] == 0 || sz[2] == 0)) {
      return fail(u->err, line_of(g), "%s: mesh scale with a 0", owner);
    }
    return rc ? rc : read_mesh(u, m, s, g, owner);
  }
  /* a sphere of radius 0 is a point (Drake's point contacts, as urdfdom reads them) */
  if (!rc && kind == SPART_SHAPE_SPHERE && !(sz[0] >= 0)) {
    rc = fail(u->err, line_of(g), "%s: sphere with a radius %g that is negative (0 is a point)",
              owner, sz[0]);
  }
  for (int c = 0; c < 3 && !rc && kind != SPART_SHAPE_SPHERE; c++) {
    int used = kind == SPART_SHAPE_BOX || c < 2;
    if (used && !(sz[c] > 0) && !(kind == SPART_SHAPE_CAPSULE && c == 1 && sz[c] == 0)) {
      rc = fail(u->err, line_of(g), "%s: %s with a size %g that is not positive", owner,
                what[kind], sz[c]);
    }
  }
  if (!rc) {
    spart_shape_box(kind, sz, m->shape_bound + 6 * s);
  }
  return rc;
}


/* the shapes of link l (body id) from s on, each <collision> and <visual> in file order; count
   only (m NULL): how many */
static int read_link_shapes(urdf *u, spart_model *m, int l, int id, int *s) {
  char owner[300];
  snprintf(owner, sizeof owner, "link '%s'", u->link[l].name);
  for (xmlNode *c = u->link[l].node->children; c; c = c->next) {
    int col = is_el(c, "collision");
    char *name;
    if (!col && !is_el(c, "visual")) {
      continue;
    }
    if (!m) {
      (*s)++;
      continue;
    }
    m->shape_body[*s] = id;
    m->shape_role[*s] = col ? SPART_SHAPE_COLLISION : SPART_SHAPE_VISUAL;
    name = prop(c, "name");
    if (name && name[0] && !(m->shape_name[*s] = strdup(name))) {
      xmlFree(name);
      return oom(u->err);
    }
    xmlFree(name);
    if (origin(u, child_el(c, "origin"), m->shape_rot + 9 * *s, m->shape_pos + 3 * *s, owner,
               col ? "collision origin" : "visual origin") ||
        read_geometry(u, m, *s, c, owner)) {
      return -u->err->code;
    }
    (*s)++;
  }
  return 0;
}


/* every link's shapes into the model, in body order */
static int read_shapes(urdf *u, spart_model *m) {
  int *link_of = malloc((size_t)m->nb * sizeof *link_of), n = 0, s = 0, rc = 0;
  if (!link_of) {
    return oom(u->err);
  }
  for (int l = 0; l < u->nl; l++) {
    if (l != u->world) {
      link_of[l == u->root ? 0 : u->link[l].id] = l;
    }
  }
  for (int i = 0; i < m->nb; i++) {
    read_link_shapes(u, NULL, link_of[i], i, &n);
  }
  if (n > 0) {
    u->mesh = calloc((size_t)n, sizeof *u->mesh);
    u->nmesh = u->mesh ? n : 0;
    rc = !u->mesh || spart_model_shapes(m, n) ? oom(u->err) : 0;
  }
  for (int i = 0; i < m->nb && n > 0 && !rc; i++) {
    rc = read_link_shapes(u, m, link_of[i], i, &s);
  }
  free(link_of);
  return rc;
}



/* ---------------------------------------------------------------------------------------------
 * automass: inertias from the collision shapes (spart_geometry.c)
 */

static int alloc_automass(urdf *u, int nb) {
  if (!u->opts || !u->opts->automass) {
    return 0;
  }
  u->auto_need = calloc((size_t)nb, sizeof *u->auto_need);
  u->auto_mass = calloc((size_t)nb, sizeof *u->auto_mass);
  return u->auto_need && u->auto_mass ? 0 : oom(u->err);
}


/* the links marked for automass get their shapes' mass properties; the model notes which */
static int automass(urdf *u, spart_model *m) {
  int *link_of;
  if (!u->auto_need) {
    return 0;
  }
  link_of = malloc((size_t)m->nb * sizeof *link_of);
  m->body_automass = calloc((size_t)m->nb, sizeof *m->body_automass);
  if (!link_of || !m->body_automass) {
    free(link_of);
    return oom(u->err);
  }
  for (int l = 0; l < u->nl; l++) {
    if (l != u->world) {
      link_of[l == u->root ? 0 : u->link[l].id] = l;
    }
  }
  for (int i = 0; i < m->nb; i++) {
    const xmlNode *node = u->link[link_of[i]].node;
    int rc, shapes = spart_link_shapes(m, i, SPART_SHAPE_COLLISION, NULL, 0), solid = 0;
    for (int s = 0; s < m->nshape; s++) {
      solid += m->shape_body[s] == i && m->shape_role[s] == SPART_SHAPE_COLLISION &&
               !spart_shape_point(m, s);
    }
    /* a link that may keep its own inertia keeps it when its shapes have no volume (points) */
    if (!u->auto_need[i] || (!solid && u->auto_need[i] == 1)) {
      continue;
    }
    if (!shapes) {
      free(link_of);
      return fail(u->err, line_of(child_el(node, "inertial")), "link '%s': <inertial> without "
                  "<inertia>, and no collision geometry to give it one", m->body_name[i]);
    }
    rc = spart_automass(m, i, u->mesh, u->auto_mass[i], u->opts->density, u->err);
    if (rc) {
      free(link_of);
      if (rc == -SPART_EDATA) {
        u->err->line = line_of(node);
      }
      return rc;
    }
    m->body_automass[i] = 1;
  }
  free(link_of);
  return 0;
}

/* the model, in SPART's numbering */
static spart_model *build(urdf *u) {
  spart_model *m = spart_model_new(u->nl - (u->world >= 0));
  char *name = prop(u->robot, "name");
  int rc = 0, nq = 0;

  if (!m) {
    xmlFree(name);
    oom(u->err);
    return NULL;
  }
  m->name = strdup(name ? name : "");
  xmlFree(name);
  rc = m->name ? 0 : oom(u->err);
  m->body_parent[0] = -1;

  /* links first (joint frames need their parent's CoM frame), their shapes and the CoM frames
     automass gives, then joints, in file order */
  rc = rc ? rc : alloc_automass(u, m->nb);
  for (int l = 0; l < u->nl && !rc; l++) {
    if (l != u->world) {
      rc = read_link(u, m, l, l == u->root ? 0 : u->link[l].id);
    }
  }
  rc = rc ? rc : read_shapes(u, m);
  rc = rc ? rc : automass(u, m);
  for (int j = 0; j < u->nj && !rc; j++) {
    if (j != u->wjoint) {
      rc = read_joint(u, m, j, u->jnt[j].id);
    }
  }

  /* the base's CoM frame is the reference (joints 1.. hang from it); its T, the CoM frame in
     the URDF link frame, stays for the link frame's pose (spart_link_frame) */
  for (int i = 1; i < m->nb; i++) {
    int k = spart_joint_nq(m->jnt_type[i]);
    m->jnt_qadr[i] = k > 0 ? nq : -1;
    nq += k;
  }
  m->fixed_base = u->fixed_world;
  if (rc || spart_model_check(m, u->err)) {
    spart_model_free(m);
    return NULL;
  }
  return m;
}


spart_model *spart_urdf_parse(const char *buf, size_t len, spart_err *err) {
  return spart_urdf_parse_opts(buf, len, NULL, err);
}


spart_model *spart_urdf_parse_opts(const char *buf, size_t len, const spart_urdf_opts *o,
                                   spart_err *err) {
  spart_err dummy = {0};
  urdf u = {0};
  spart_model *m = NULL;
  char *copy;
  size_t k = 0;
  int rc;

  u.err = err ? err : &dummy;
  u.opts = o;
  u.err->code = 0;
  u.err->line = 0;
  while (k < len && isspace((unsigned char)buf[k])) {
    k++;
  }
  if (k == len) {
    fail(u.err, 0, "empty input");
    return NULL;
  }
  if (spart_xml_version(buf, len, &copy, &len)) {
    oom(u.err);
    return NULL;
  }
  if (len > INT_MAX) {
    fail(u.err, 0, "input larger than %d bytes", INT_MAX);
    free(copy);
    return NULL;
  }

  /* parse, check, connect, number, build; libxml2's generic messages to gen */
  xmlGenericErrorFunc old_generic = xmlGenericError;
  void *old_gctx = xmlGenericErrorContext;
  xstate gen = {0};
  xmlSetGenericErrorFunc(&gen, on_generic_error);
  rc = parse_xml(&u, copy ? copy : buf, (int)len);
  free(copy);
  rc = rc ? rc : check_root(&u);
  rc = rc ? rc : collect(&u);
  for (int j = 0; j < u.nj && !rc; j++) {
    rc = connect_joint(&u, j);
  }
  rc = rc ? rc : find_root(&u);
  if (!rc) {
    find_world(&u);
  }
  rc = rc ? rc : number(&u);
  if (!rc) {
    m = build(&u);
  }
  xmlSetGenericErrorFunc(old_gctx, old_generic);
  if (gen.oom) {
    spart_model_free(m);
    m = NULL;
    oom(u.err);
  }

  /* clean up */
  for (int l = 0; l < u.nl && u.link; l++) {
    xmlFree(u.link[l].name);
  }
  for (int j = 0; j < u.nj && u.jnt; j++) {
    xmlFree(u.jnt[j].name);
  }
  free(u.link);
  free(u.jnt);
  free(u.byname);
  free(u.jbyname);
  for (int s = 0; s < u.nmesh; s++) {
    spart_mesh_free(u.mesh + s);
  }
  free(u.mesh);
  free(u.auto_need);
  free(u.auto_mass);
  xmlFreeDoc(u.doc);
  return m;
}

