/* cli.h -- the commands' side of spart: options, messages, the session, and the records they
 * read and write (JSON objects or CSV rows in, JSON lines or CSV out).  The library (lib/spart.h)
 * computes; this talks: argv, stdin, stdout and stderr appear only here and in src/<command>.c. */
#ifndef SPART_CLI_H
#define SPART_CLI_H

#include <stdio.h>

#include "spart.h"

/* exit codes of every command (each man page's EXIT STATUS) */
enum { CLI_EXIT_OK = 0, CLI_EXIT_DATA = 1, CLI_EXIT_USAGE = 2, CLI_EXIT_IO = 3 };
/* --check-limits: every record read and computed, and some left the joint limits */
enum { CLI_EXIT_LIMITS = 4 };

/* ---------------------------------------------------------------------------------------------
 * records: state vectors in (read.c, one file a format: read_json.c, read_csv.c), results out
 * (write.c, one file a format: write_json.c, write_csv.c)
 */

/* state fields, in spart-records(5)'s order; bit (1 << CLI_F_*) of cli_state.has */
enum {
  CLI_F_R0,
  CLI_F_r0,
  CLI_F_qm,
  CLI_F_u0,
  CLI_F_um,
  CLI_F_u0dot,
  CLI_F_umdot,
  CLI_F_tau0,
  CLI_F_taum,
  CLI_F_wF0,
  CLI_F_wFm,
  CLI_F_q0,    /* the base attitude as a quaternion, instead of R0 */
  CLI_F_qmdot, /* the joints' coordinate rates, instead of um */
  CLI_NFIELD
};

/* input and output formats */
enum { CLI_FMT_AUTO = 0, CLI_FMT_JSON, CLI_FMT_CSV };

/* one input record; fields the record does not give keep their defaults (spart-records(5); qm
   has none when the model has joints) */
typedef struct cli_state {
  spart_state x;   /* the state the commands give the library, the tree's (coupled mimic joints'
                      vectors expanded): R0 (identity), r0, qm (quaternions normalised), u0, um,
                      u0dot, umdot, tau0, taum, its arrays the record's own; wF (nb x 6, [0] =
                      wF0) NULL when the record gives no wrench (the library then does no work
                      for zeros) */
  double q0[4];    /* base orientation as a unit quaternion [w x y z] (given: R0 is set from it) */
  double *qmdot;   /* (nq) joint coordinate rates (given: um is set from them) */
  unsigned has;    /* bit (1 << CLI_F_*) for each field given */
  long long line;  /* input line where the record starts */
  const char *contacts; /* the JSON text of the record's "contacts" (a command that reads them,
                           CLI_READS_CONTACTS), or NULL; in its record's text */
  size_t contacts_len;
  long long contacts_line; /* its first line */
  const char *targets; /* the same of its "targets" (spart-ik's, CLI_READS_TARGETS), or NULL */
  size_t targets_len;
  long long targets_line;
} cli_state;

/* a value of a record that passes through to the output (a JSON key or CSV column the command
   does not read, or a state field --keep-state keeps): offsets into its record's text of its
   name, of its text as a CSV cell (a CSV input's cell as it came, quotes and all; a JSON value's
   text for CSV: a string decoded, a number, true or false as they came, null empty) and of a
   JSON input's value as it came; clen -1: no CSV cell (a JSON array or object), jlen -1: no
   JSON value (a CSV input) */
typedef struct cli_pass {
  size_t name, cell, json;
  long clen, jlen;
} cli_pass;

/* A record read: a value, which no I/O is needed to read or write (record.c).  Its state
   fields (st; st.line its line; its arrays' values in vals, "contacts" text in text: all its
   own), the input it came from (file, the name in messages; input, 0
   for the first; format, CLI_FMT_JSON or CLI_FMT_CSV, and a CSV input's delimiter), and its
   values that pass through, their names and texts in text, its own. */
typedef struct cli_record {
  cli_state st;
  double *vals;      /* the values of st's arrays (st.x.qm, st.x.u0...: their own, carved from
                        it) */
  size_t nvals;
  long contacts_at;  /* st.contacts's text in text (where st.contacts points), or -1 */
  long targets_at;   /* st.targets's, or -1 */
  const char *file;
  int input, format;
  char delim;
  int npass, passcap;
  cli_pass *pass;
  char *text;
  size_t tlen, tcap;
  size_t tnames; /* a CSV input's: text[0, tnames) its names, the same every row */
} cli_record;

/* The number in the record's pass-through CSV column or JSON key called name (a time stamp): 1
   with *v set, 0 when the record has no such column or key, -1 when the cell is not a finite
   number (in JSON, a number: not a string, an array, null...). */
int cli_record_number(const cli_record *r, const char *name, double *v);

typedef struct cli_reader cli_reader;
typedef struct cli_writer cli_writer;

/* A reader of records from in (name is used in messages, e.g. "<stdin>"); it reads in its own
   blocks, from the file descriptor when in has one, so nothing else should read in.  format is
   CLI_FMT_AUTO (JSON when the first line that is not blank starts with '{', '[' or RS, else
   CSV), JSON or CSV; seq: RFC 7464; reads: the fields (1 << CLI_F_*) the command uses (0: all),
   the others passing through to the output (JSON keys and CSV columns alike). */
cli_reader *cli_reader_new(void *in, const char *name, int format, int seq, unsigned reads);
void cli_reader_free(cli_reader *rd);

/* Read the next record.  When *m is NULL the record must hold the model as "robot" (JSON), and
   *m receives it (the reader frees it).  Returns 1 with *rec set, 0 at the end, or -SPART_EDATA
   / -SPART_EIO with err filled (err->line is the record's line).  After -SPART_EDATA the reader
   has skipped the bad record and may be read again.  *rec is the reader's until the next call:
   read it, do not write it (a CSV reader sets the defaults of the fields its columns do not
   give once, not at every row). */
int cli_read(cli_reader *rd, spart_model **m, cli_record **rec, spart_err *err);

/* Up to two records at once, for the algorithms that compute two together (spart_rnea_pair):
   the record cli_read gave last and, when the reader has the next at hand (the next CSV row,
   whole in the input block already: reading it waits for no input), the next.  Returns 2 with
   rec[0] the first (a copy, its own) and rec[1] the next, or 1 with rec[0] the first alone;
   both valid until the next read.  The next record's fault, if reading it failed, is what the
   next read returns, in its turn. */
int cli_read2(cli_reader *rd, spart_model **m, cli_record *rec[2]);

/* A record of named values, for commands that read any records (spart-cmp): every JSON key or
   CSV column, a JSON array flattened as CSV names its columns (name_i, name_i_j, from 1), a
   nested object as name.key; each value's text as it came (a CSV cell without its quotes, a
   JSON string decoded, true, false, null) and its number, NAN when it is not one. */
typedef struct cli_named {
  int n;             /* values */
  const char **name; /* (n) their names */
  const char **text; /* (n) their texts */
  double *v;         /* (n) their numbers, or NAN */
  long long line;    /* input line where the record starts */
} cli_named;

/* Read the next record of named values (a reader made with reads = 0); as cli_read: 1 with *rec
   set (the reader's until the next call), 0 at the end, or a negative SPART_E* with err filled. */
int cli_read_named(cli_reader *rd, const cli_named **rec, spart_err *err);
/* Go on reading from in (named name in messages) after the end of the input before: a new
   input, with its own format (unless the reader was made for one) and CSV header; the model and
   the line count start again. */
void cli_reader_next_input(cli_reader *rd, void *in, const char *name);

/* The name of the reader's input, its format (CLI_FMT_AUTO until its first line is read), and
   the number of inputs before it (0 for the first). */
const char *cli_reader_name(const cli_reader *rd);
int cli_reader_format(const cli_reader *rd);
int cli_reader_input(const cli_reader *rd);

/* The state fields the command reads pass through to the output too (--keep-state), as the
   fields it does not read do; not those in outputs (comma-separated, as cli_tool's; NULL:
   none), whether --only writes them or not: spart-sim's, whose output is of another instant
   than its input (its initial qm beside a later umdot). */
void cli_reader_keep(cli_reader *rd, const char *outputs);

/* Write the joints' vectors (qm, qmdot, um, umdot, taum) keyed by the joint names of model m
   (--by-name): JSON objects, CSV columns taum.JOINT (taum.JOINT.K for a joint of several
   values); NULL: as arrays, taum_1... */
void cli_writer_by_name(cli_writer *wr, const spart_model *m);

/* The model a reader took from the input (NULL if none). */
const spart_model *cli_reader_model(const cli_reader *rd);

/* A writer of records to out: format CLI_FMT_JSON (one object a line) or CLI_FMT_CSV
   (a header row first), or CLI_FMT_AUTO: the format of the reader of the first record; seq:
   RFC 7464 records; unbuffered: flush after each record.  Whole records are written 64 KiB at
   a time (each at once with unbuffered or on a terminal); cli_writer_free writes what is left,
   cli_flush writes it and says how that went. */
cli_writer *cli_writer_new(void *out, int format, int seq, int unbuffered);
void cli_writer_free(cli_writer *wr);

/* Write the records held back.  Returns 0, or -SPART_EIO (-SPART_EPIPE: the reader has gone). */
int cli_flush(cli_writer *wr, spart_err *err);

/* Whether the n bytes at name are one of the comma-separated names of list. */
int cli_listed(const char *list, const char *name, size_t n);

/* Write only the fields named in names (comma-separated; the string must outlive the writer),
   or every field when names is NULL. */
void cli_writer_only(cli_writer *wr, const char *names);

/* Add a field to the record being built: dims d0 x d1 x d2 (d1, d2 = -1 for fewer; 0 is an
   empty dimension), values row-major.  v must stay valid until cli_emit.  d0 = -1 writes v as
   a scalar.  A field cli_writer_only leaves out is dropped. */
void cli_put(cli_writer *wr, const char *name, const double *v, int d0, int d1, int d2);

/* Add the fields of the state x (model m's, the tree's vectors) that fields names (1 << CLI_F_*,
   R0 to taum), in that order, as a record holds them: the joints' vectors of a model with
   coupled mimic joints the system's (spart_mimic_qc, spart_mimic_vc), made in scratch (nqc + 3
   nvc doubles; NULL without coupling), which, as x's arrays, must stay valid until cli_emit.
   Each array of x that fields names is not NULL. */
void cli_put_state(cli_writer *wr, const spart_model *m, const spart_state *x, unsigned fields,
                   double *scratch);

/* Add a field whose value is JSON text written as it is (true, false, null, a quoted string
   without escapes); s must stay valid until cli_emit.  JSON output only: a CSV writer leaves
   it out. */
void cli_put_text(cli_writer *wr, const char *name, const char *s);

/* Write the record built so far, the outputs of record r (NULL: none), its pass-through values
   in front.  Returns 0, -SPART_EDATA when the fields differ from the CSV header, or -SPART_EIO
   (for this record or ones held back before it). */
int cli_emit(cli_writer *wr, const cli_record *r, spart_err *err);

/* Drop the record built so far. */
void cli_discard(cli_writer *wr);

/* ---------------------------------------------------------------------------------------------
 * command-line support (messages.c, options.c, session.c): with the commands, the only code that
 * writes to stderr
 */

/* Print "prog: where:line: message" on stderr; where NULL drops "where:line: ", line 0 drops
   ":line".  A trailing newline is added. */
void cli_error(const char *prog, const char *where, long long line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The messages of cli_error from this thread kept in m (its text p[0, len), grown as they come)
   instead of written to stderr (NULL: stderr again); cli_error_at: the bytes kept so far. */
typedef struct cli_msgs {
  char *p;
  size_t len, cap;
} cli_msgs;
void cli_error_to(cli_msgs *m);
size_t cli_error_at(void);

/* Print "prog: message" and "Try 'prog --help'." on stderr; returns CLI_EXIT_USAGE. */
int cli_usage(const char *prog, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Flush and close stdout; on failure print "prog: write error: strerror" (unless status is
   already CLI_EXIT_IO, reported) and return CLI_EXIT_IO, else return status unchanged.  A
   closed pipe (EPIPE) is quiet. */
int cli_finish(const char *prog, int status);

/* Parse "x,y,z" (exactly n finite numbers separated by commas) into v; 0 or -1. */
int cli_vec(const char *s, double *v, int n);

/* The usage message of option opt's value arg that is not what it takes: "opt: 'arg' is not a
   finite number" when a number of it (a comma-separated list) reads as infinite, NaN or too
   large for a double, else "opt: expected WHAT, got 'arg'"; returns CLI_EXIT_USAGE. */
int cli_bad_number(const char *prog, const char *opt, const char *what, const char *arg);

/* What cli_bad_number says of arg when a number of it is not finite ("is not a finite number",
   "has a number that is not finite"), else NULL. */
const char *cli_not_finite(const char *arg);

/* The message of what getopt_long (with ':' first in its option string) returned for an option
   it refused, c (':' a missing value, else an unknown option), on stderr with the usage hint:
   the same words in every command.  Returns CLI_EXIT_USAGE. */
int cli_bad_option(const char *prog, int c, char **argv);

/* --version: "prog VERSION" on stdout, closed; returns the exit code. */
int cli_version(const char *prog);

/* ---------------------------------------------------------------------------------------------
 * options (options.c): every command takes the common ones (-m, -i, -o, --only, -j...); its own
 * are the rows of its table, beside its main (cli_tool.options), among them the shared ones it
 * takes by name (CLI_SHARED: --fixed-base, --gravity...); getopt_long's table is made of the
 * common rows and the command's at run time.  The common and shared options' values are in
 * cli_opts, the command's own in a struct of its own (cli_opts.own): a new option of one
 * command is a row of its table and a field of its struct.
 */

typedef struct cli_tool cli_tool;
typedef struct cli_option cli_option;
typedef struct cli_opts cli_opts;

/* an option given, to its row's parse: the command, the row, its value (NULL when none is
   given), where the value goes (the row's at: in the command's own options, or in o for a
   common or shared option), the options so far and the command line (argv[optind]: the
   argument after the option's) */
typedef struct cli_arg {
  const cli_tool *tool;
  const cli_option *opt;
  const char *value;
  void *at;
  cli_opts *o;
  int argc;
  char **argv;
} cli_arg;

/* an option's value: none, one (--name V, --name=V, -l V), or one only after '=' */
enum { CLI_ARG_NONE, CLI_ARG_ONE, CLI_ARG_MAYBE };

/* A row of an option table: --name (and -letter, when not 0) and its value (CLI_ARG_*); what
   it does when given: parse (-1 to go on, else the exit status after the message; NULL: a
   flag, the int at at set to 1); at: where its value goes (offsetof the command's own
   options' struct); once: given a second time, a usage error ("--name given twice"); on: its
   bit in the command's gates (cli_gate) when given, or 0; what: its value in messages ("a time
   > 0 in s"), for cli_opt_positive and cli_opt_nonnegative; help: its lines in --help, in the
   table's order (NULL: none, another row's tell it).  A table ends with a row of name NULL. */
struct cli_option {
  const char *name;
  int letter;
  int arg;
  int (*parse)(const cli_arg *a);
  size_t at;
  int once;
  unsigned on;
  const char *what;
  const char *help;
};

/* A row naming a shared option the command takes (options.c's: fixed-base, floating-base,
   gravity, no-friction, check-limits; their values in cli_opts), with its lines in the
   command's --help (NULL: the shared row's usual words, if any: --floating-base's are the
   common part's). */
#define CLI_SHARED_AT ((size_t)-1)
#define CLI_SHARED(name, help) {(name), 0, 0, NULL, CLI_SHARED_AT, 0, 0, NULL, (help)}
/* a flag of the command's own: the int at at set to 1 when given, its gate bit on */
#define CLI_FLAG(name, at, on, help) {(name), 0, CLI_ARG_NONE, NULL, (at), 0, (on), NULL, (help)}
/* the row that ends a table */
#define CLI_END {NULL, 0, 0, NULL, 0, 0, 0, NULL, NULL}

/* Parses of a row's value: the text itself (a const char *); a finite number > 0, or >= 0 (a
   double; else "--name: expected WHAT, got 'V'" with the row's what, or cli_bad_number's "is
   not a finite number"). */
int cli_opt_text(const cli_arg *a);
int cli_opt_positive(const cli_arg *a);
int cli_opt_nonnegative(const cli_arg *a);

/* the options an output depends on (cli_gate), as bits: the shared options', then a command's
   own, which it numbers CLI_ON_OWN << k in the order of its table (a message names the lowest
   bit an output misses) */
enum { CLI_ON_FIXED = 1 << 0, CLI_ON_GRAVITY = 1 << 1, CLI_ON_OWN = 1 << 2 };

/* a command: name, the line after "Usage: NAME", the text of its own options and outputs, the
   options and the state fields it takes */
#define CLI_READS(f) (1u << CLI_F_##f)
#define CLI_READS_POSE (CLI_READS(R0) | CLI_READS(r0) | CLI_READS(qm))
#define CLI_READS_VEL (CLI_READS_POSE | CLI_READS(u0) | CLI_READS(um))
#define CLI_READS_WRENCH (CLI_READS(wF0) | CLI_READS(wFm))
#define CLI_READS_CONTACTS (1u << 16) /* the JSON key "contacts", kept as text (src/cli/contacts.c);
                                         a CSV column of that name is refused */
#define CLI_READS_NONE_OK (1u << 17) /* a record may give none of the fields read (they default:
                                        spart-sim's --inputs, a time alone holding zero forces) */
#define CLI_READS_ANY_NORM (1u << 18) /* qm's quaternions and [sin, cos] pairs, and q0, of any
                                         norm but 0, made unit (spart_joint_unit), not refused
                                         off unit norm (spart-states --normalize) */
#define CLI_NEEDS_CONTACTS (1u << 19) /* every record gives contacts (spart-contact): a CSV input,
                                         which cannot, is refused */
#define CLI_READS_TARGETS (1u << 21) /* the JSON key "targets", kept as text (src/cli/targets.c),
                                        as contacts are; a CSV column of that name is refused */
#define CLI_QM_OPTIONAL (1u << 22) /* a record may leave qm out (spart-ik: its first guess is then
                                      the command's own); st.has says whether it gave it */
#define CLI_WRITES_LATER (1u << 20) /* its outputs are of a later instant than the record read
                                       (spart-sim's states): --keep-state keeps none of the
                                       fields it can write, and a value named like any of them,
                                       written or not, passes through as in_NAME */

/* Which outputs an option combination writes, and what an option changes, so that an option
   that does nothing is refused: outputs are written only when every option of when is given and
   none of unless (when = unless = 0: an option, opt, that changes the outputs listed; an
   option given whose outputs are none of those written is an error).  A list ends with
   outputs NULL. */
typedef struct cli_gate {
  const char *outputs; /* comma-separated */
  unsigned when, unless, opt;
} cli_gate;

struct cli_session;

struct cli_tool {
  const char *name;
  const char *synopsis;
  const char *help;          /* --help's text after the usage line: what it does and writes */
  const cli_option *options; /* its options: its own and the shared ones it takes (CLI_SHARED),
                                in --help's order; NULL: none */
  unsigned reads;            /* state fields read, 1 << CLI_F_*, and CLI_READS_* */
  const char *outputs; /* the output keys it can write, comma-separated, in its order (--only);
                          NULL: no --only */
  const cli_gate *gates; /* NULL: every output always, no option without effect to find */
  /* its options together, once the command line is read: check, after the checks of the
     input and output and before those of the other common options and the gates; finish,
     after all of them: its options completed (the defaults of those not given) and the checks
     that need them.  Each -1 to go on, or CLI_EXIT_USAGE after the message; NULL: none */
  int (*check)(const cli_tool *t, void *own, cli_opts *o);
  int (*finish)(const cli_tool *t, void *own, cli_opts *o);
  /* what its options name in the model (links), once the model of -m is read and before the
     input is opened (cli_session_open): 0, or -1 after reporting (exit 1); NULL: nothing */
  int (*resolve)(struct cli_session *s);
};

/* Whether the command takes the option --name (its table names it). */
int cli_takes(const cli_tool *t, const char *name);

struct cli_opts {
  const char *model; /* -m FILE, or NULL: the model comes with the record */
  int mimic;         /* --mimic: couple the model's mimic joints (spart_mimic_couple) */
  const char *only;  /* --only NAMES: the output keys to write (comma-separated), or NULL */
  int input, output; /* CLI_FMT_*; output AUTO: the input's format */
  int seq, unbuffered, keep_going, keep_state;
  int by_name; /* --by-name: joint vectors written keyed by joint name */
  int jobs; /* -j N: threads computing records (jobs.c), 1 by default */
  char **files;     /* the file operands, in order ("-": stdin); none: stdin */
  int nfiles;
  /* the shared options, of the commands that take them */
  int fixed_base;    /* --fixed-base (or the model's, cli_session_open) */
  int floating_base; /* --floating-base, or a command's option that frees the base (spart-id's
                        --floating): not fixed, whatever the model says */
  int no_friction;   /* --no-friction */
  int check_limits;  /* --check-limits */
  int has_gravity;   /* --gravity (or the model's, cli_session_open) */
  double gravity[3];
  unsigned given; /* the gate bits (cli_option.on) of the options given */
  void *own;      /* the command's own options (its struct, filled by its rows) */
};

/* An output --only names that the options on do not write, an option given (asked) that
   changes no output written: a usage error (reported), CLI_EXIT_USAGE; 0 when there is none.
   on: the gate bits in effect (the model's fixed base and gravity included), asked: those of
   the options given. */
int cli_gates_check(const cli_tool *t, unsigned asked, unsigned on, const char *only);

/* a running command: its options, model, data, reader, writer and exit status */
typedef struct cli_session {
  const cli_tool *tool;
  cli_opts o;
  spart_model *m; /* from -m, else owned by the reader */
  spart_data *d;
  cli_reader *rd;
  cli_writer *wr;
  cli_state *st;       /* the current record's state (&rec->st) */
  cli_record *rec;     /* the current record */
  int file;            /* the file operand being read (o.files[file]) */
  FILE *in;            /* its stream (stdin for "-" or no operand) */
  const double *gravity; /* --gravity, or NULL */
  int status;            /* exit code so far */
  int stop;              /* no more records: an error without --keep-going */
  int m_borrowed;        /* the model belongs to the reader */
  long nbad;             /* bad records */
  long npart;            /* of them, those partly written before the fault (spart-sim) */
  int link;              /* --link resolved, or -1 */
  int *frames, nframes;  /* --frame resolved, or NULL */
  long nrec;             /* records read */
  long nlimits;          /* records that left the joint limits (--check-limits) */
  int tty;               /* stderr is a terminal: show progress */
  double t0, tick;       /* start, last progress line (monotonic seconds) */
  double *buf[4];        /* scratch arrays for outputs, see cli_session_buf */
  size_t nbuf[4];
  /* two records at once (cli_next_pair): those the reader gave, npair of them (0: one alone) */
  cli_record *pair[2];
  int npair;
  const char *none; /* the message when the whole input held no record (spart-sim's), or NULL */
  /* -j: called with mark_arg at each record written (cli_write) while mark_arg is not NULL: a
     worker's record ends in its block (jobs.c gives it to cli_session_clone) */
  void (*mark)(struct cli_session *s, void *arg);
  void *mark_arg;
} cli_session;

/* the model converters (urdf2robot, dh2robot; convert.c): options -o json|summary|dot (-s,
   --dot), urdf2robot's own, -h, -V and one FILE (default stdin), read by spart_model_load and
   written to stdout in that format; about: what --help says after the usage line.  Returns the
   exit status. */
int cli_convert_main(const char *prog, const char *about, int argc, char **argv);

/* spart-states (states.c): its options, then the records it writes, made (--random, --zero),
   or read and written back normalised (--normalize, in a session).  Returns the exit
   status. */
int cli_states_main(int argc, char **argv);

/* The converters' outputs other than the model JSON, malloc'd (NULL when out of memory): a
   human-readable tree of the model with masses and warnings (summary.c); its kinematic tree as
   a Graphviz digraph (dot.c), a box for each link (name, id, mass), an ellipse for each joint
   (name, kind; a moving one's axis and q_id, a fixed one dashed), edges parent link -> joint ->
   child link. */
char *cli_model_summary(const spart_model *m);

/* One line (no program, no newline; malloc'd) for all the model's meshes not found: their
   number, the shapes' and what becomes of them (fate: "kept as a reference", "not drawn"; a
   reference's plural made here), the first CLI_MISSING_LISTED names, where meshes are looked
   for (urdf2robot's --package-path for a reference kept, else ROS_PACKAGE_PATH); NULL when none
   is missing (or out of memory). */
#define CLI_MISSING_LISTED 3
char *cli_missing_meshes(const spart_model *m, const char *fate);
char *cli_model_dot(const spart_model *m);

/* spart-draw's picture (svg.c): items in the view's plane (u right, v up, the picture's units
   those of the model), a frame (a record) at a time, each of a class that sets its layer and
   style */
enum {
  CLI_SVG_SUPPORT = 0, /* the support polygon, under everything */
  CLI_SVG_VISUAL,      /* a visual shape's face (or outline, a dot) */
  CLI_SVG_COLLISION,   /* a collision shape's (a link without visual shapes) */
  CLI_SVG_BONE,        /* the skeleton: joint to joint */
  CLI_SVG_AXIS,        /* a joint's axis */
  CLI_SVG_JOINT,       /* a joint's origin (a dot) */
  CLI_SVG_COM,         /* the system's CoM */
  CLI_SVG_COMP,        /* its projection on the support along gravity */
  CLI_SVG_CONTACT,     /* a contact's point (a dot) and its normal (a line) */
  CLI_SVG_GROUND,      /* a line of the ground's grid */
  CLI_SVG_FORCE,       /* a contact force: an arrow from its point (2 points) */
  CLI_SVG_LABEL,       /* a text at its point (a link's name) */
  CLI_SVG_CLASSES
};
typedef struct cli_svg_item {
  int cls, n;
  double depth; /* toward the viewer: the far ones drawn first, within a layer */
  double r;     /* a dot's radius (its one point the centre), 0 for a line or polygon */
  double shade; /* a face's shade in [0, 1] (its class's colour times it), or -1: not a face */
  double *pts;  /* (n x 2) */
  char *text;   /* a label's text (malloc'd), else NULL */
} cli_svg_item;
typedef struct cli_svg {
  cli_svg_item *item; /* the frame being drawn's */
  int n, cap;
  FILE *spool;        /* the frames drawn (a temporary file) */
  int nframes, any;   /* how many; whether lo, hi hold what they cover */
  double lo[2], hi[2];
  int fixed;          /* 1: box (lo u, lo v, hi u, hi v) is the picture's extent */
  double box[4];
  char *note;         /* a line written under the picture (malloc'd), or NULL */
} cli_svg;

/* Start a picture: 0, or -1 when no temporary file could be made (errno). */
int cli_svg_start(cli_svg *g);
/* Add an item to the frame being drawn (uv: n x 2, copied); the item, or NULL when out of
   memory. */
cli_svg_item *cli_svg_add(cli_svg *g, int cls, double depth, const double *uv, int n, double r);
/* Drop the frame's items after the first n (a record that failed while drawn). */
void cli_svg_drop(cli_svg *g, int n);
/* End the frame being drawn (its time t, NaN: none written), its items sorted and spooled; 0
   or -1 on a write error. */
int cli_svg_frame(cli_svg *g, double t);
/* Write the picture of the frames to f: one after the other every seconds, looping (SVG
   animation; a renderer without animation shows the first), or side by side (strip); of no
   frame, an empty picture; 0 or -1 on a write or read error. */
int cli_svg_write(FILE *f, cli_svg *g, int strip, double seconds);
void cli_svg_free(cli_svg *g);

/* spart-cmp's comparison of two streams' records (compare.c): the options, then what was seen */
#define CLI_CMP_MAXTOL 64 /* --atol and --rtol given */
typedef struct cli_cmp_tolerance {
  const char *field; /* NULL: every field */
  size_t len;
  double atol, rtol; /* NAN: not this one */
} cli_cmp_tolerance;

typedef struct cli_cmp {
  cli_cmp_tolerance tols[CLI_CMP_MAXTOL];
  int ntol;
  const char *fields; /* --fields NAMES, or NULL: every field */
  unsigned long long seen; /* --fields: bit k, the k-th name (the first 64) matched a value */
  long max;           /* differences listed at most */
  int quiet;          /* nothing written */
  const char *a, *b;  /* the inputs' names in messages */
  long ndiff, nrec;   /* differences and records so far */
  struct cli_cmp_stat *st; /* each field's largest errors */
  int nst;
  int *ia, *ib, ca, cb; /* scratch: the records' values in name order */
} cli_cmp;

/* --atol or --rtol (rel) [FIELD=]X, named opt in messages; 0, or CLI_EXIT_USAGE after the
   message */
int cli_cmp_tol(cli_cmp *c, const char *prog, const char *opt, const char *s, int rel);

/* Compare the next two records field by field, listing the differences on stdout (the first
   max of them) and noting each field's largest errors; 0, -1 out of memory, or -2 after the
   message (prog's) of a record where two values flatten to one name. */
int cli_cmp_records(cli_cmp *c, const char *prog, const cli_named *ra, const cli_named *rb);

/* The first --fields name that matched no value of any record, or NULL (its length in *len). */
const char *cli_cmp_unseen(const cli_cmp *c, size_t *len);

/* One input ended before the other (a_goes_on: the first goes on): a difference. */
void cli_cmp_ended(cli_cmp *c, int a_goes_on);

/* Write the count of differences, each field's largest errors and the verdict (not with quiet). */
void cli_cmp_report(const cli_cmp *c);

void cli_cmp_free(cli_cmp *c);

/* Parse the command line of command t: the common and shared options into o, its own into own
   (its struct, its defaults set: the rows' at are in it).  Returns -1 to go on, or an exit code
   (after --help, --version or a usage error, which it reports). */
int cli_parse(cli_opts *o, const cli_tool *t, void *own, int argc, char **argv);

/* The model of the file path (spart_model_load), or of stdin for "-" ("<stdin>" in messages);
   a URDF's package:// meshes are looked for in ROS_PACKAGE_PATH's directories. */
spart_model *cli_model_load(const char *path, spart_err *err);

/* The same with the package directories packages (npackages; before ROS_PACKAGE_PATH's), and
   automass (SPART_AUTOMASS_*) at density (spart_urdf_opts). */
spart_model *cli_model_load_with(const char *path, const char *const *packages, int npackages,
                                 int automass, double density, spart_err *err);

/* Open the session: load the model (-m) and make the reader and writer.  NULL on failure (reported,
 *status set). */
cli_session *cli_session_open(const cli_tool *t, const cli_opts *o, int *status);

/* Parse the command line and open the session: NULL when there is nothing more to do, with
 *status the exit code (after --help, a usage error or a model that cannot be read). */
cli_session *cli_session_start(const cli_tool *t, void *own, int argc, char **argv, int *status);

/* Kinematics and twists of the current record (spart_fk, spart_velocity), for the algorithms
   that need them. */
void cli_session_kinematics(cli_session *s);

/* Read the next record into s->st (making s->m and s->d at the first one when the model comes
   with the records).  Reports bad records; returns 1, or 0 when there are no more to compute. */
int cli_next(cli_session *s);

/* The same for up to most (1 or 2) records at once, for the algorithms that compute two records
   together (spart_rnea_pair): a second when the reader has it whole at hand (the next CSV row,
   in the input block already), else one.  x[k] is record k's state, valid until the next call;
   record 0 is the current one (s->st).  A second record that is bad is reported after the first
   is written, by the next call.  Returns 2, 1, or 0 when there are no more. */
int cli_next_pair(cli_session *s, int most, const spart_state *x[2]);

/* Make record k (0 or 1) of those cli_next_pair read the current one (s->st): the one cli_write
   writes, with its pass-through cells, and cli_fail names.  Records are written in order. */
void cli_turn(cli_session *s, int k);

/* Report a failure of the current record (a singular matrix...), as cli_next does for bad
   input: the record is skipped, and the run stops unless --keep-going. */
void cli_fail(cli_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* cli_fail with the one message of a singular inertia (spart_aba, spart_gim_inverse,
   spart_floating_id), at the body they left in d->warn_body. */
void cli_fail_singular(cli_session *s);

/* Write the current record's outputs (cli_put on s->wr); reports errors. */
void cli_write(cli_session *s);

/* Resolve link, --link's value, on the session's model (once: the session keeps it): id:N,
   name:NAME, or bare, an id when it reads as one and a name when not (an id and another link's
   name at once is refused); -1 after reporting. */
int cli_session_link(cli_session *s, const char *link);

/* Resolve --frame's links, list (comma-separated; as --link, each), on the session's model
   (once): their ids, *n of them, or NULL after reporting. */
const int *cli_session_frames(cli_session *s, const char *list, int *n);

/* A scratch array of n doubles owned by the session (reused, grown as needed); NULL after
   reporting when out of memory. */
double *cli_session_buf(cli_session *s, int slot, size_t n);

/* --check-limits: report on stderr each joint limit the current record passes with positions qm,
   velocities um and joint forces taum (each NULL: not checked), one line each, and count the
   record (cli_session_close then exits CLI_EXIT_LIMITS).  Nothing without --check-limits. */
void cli_check_limits(cli_session *s, const double *qm, const double *um, const double *taum);

/* The current record's "contacts" (CLI_READS_CONTACTS; contacts.c) into *c (grown as needed,
   *cap entries), *nc of them: a JSON array of {"link": NAME or ID, "point": [x,y,z], "normal":
   [nx,ny,nz], "mu": MU}, each key once, the normal made unit.  0, or -1 after reporting the
   fault (cli_fail: an unknown link, a zero normal, a negative mu, no contacts...). */
int cli_contacts(cli_session *s, spart_contact **c, int *cap, int *nc);
/* The current record's "contact_forces" (spart-contact's, spart-sim's: a JSON array of
   [fx, fy, fz], or the CSV columns contact_forces_I_J) into *f (malloc'd, rows x 3, NULL for
   none): the rows, 0 when the record has none, or -1 after reporting the fault (cli_fail: not
   rows of 3 finite numbers). */
int cli_contact_forces(cli_session *s, double **f);

/* The current record's "targets" (CLI_READS_TARGETS; contacts.c) into *t (grown as needed,
   *cap entries), *nt of them: a JSON array of {"link": NAME or ID, "point": [x,y,z] (default 0),
   "position": [x,y,z], "R": 3x3 or "quat": [w,x,y,z] (optional), "weight": W (default 1)},
   {"com": [x,y,z]} or {"com_xy": [x,y]} (a weight too), each key once, each with "frame":
   "root" or "inertial" (optional: its root); R made the rotation nearest it.  0, or -1 after
   reporting the fault (cli_fail). */
int cli_targets(cli_session *s, spart_ik_target **t, int *cap, int *nt);

/* A stance (Klampt's; spart-stance(5)): holds, each a link's contacts with the environment and
   the IK constraint that keeps the link there */
typedef struct cli_stance {
  int nhold;
  spart_ik_target *hold; /* (nhold) each hold's constraint, a link's target (inertial frame) */
  int *first;            /* (nhold + 1) hold k's contacts are c[first[k] .. first[k+1]) */
  int nc;
  spart_contact *c;      /* (nc) the holds' contacts: body the hold's link, point in the
                            inertial frame (Klampt's; not the link's), normal unit */
} cli_stance;

/* The stance of the file path (--stance; contacts.c), on the session's model, into *h (its
   arrays malloc'd: cli_stance_free): a JSON object {"holds": [{"link": NAME or ID,
   "contacts": [{"point", "normal", "mu"}, ...] (optional), "point", "position", "R" or
   "quat", "weight": as a target's}, ...]}.  0, or -1 after reporting the fault with the
   file's name and line (cli_error). */
int cli_stance_read(cli_session *s, const char *path, cli_stance *h);
void cli_stance_free(cli_stance *h);

/* A command's check (cli_tool.check) of --OPTION, a stance file given: its links are named in
   the model of -m, which must be given.  -1 to go on, or CLI_EXIT_USAGE after the message. */
int cli_stance_needs_model(const cli_tool *t, const char *option, const cli_opts *o);

/* how far (m, rad) a link may be from where its hold puts it (cli_stance_contacts' check) */
#define CLI_HOLD_TOLERANCE 1e-6

/* The stance's contacts at the current record's configuration appended to *c (grown as needed,
   *cap entries), *nc of them: each point made its link's (spart_link_local) where the record
   puts the link; with check, a record whose link is not where its hold puts it (beyond
   CLI_HOLD_TOLERANCE) is refused.  0, or -1 after reporting (cli_fail; no contacts at all
   too).  Runs spart_fk. */
int cli_stance_contacts(cli_session *s, const cli_stance *h, int check, spart_contact **c,
                        int *cap, int *nc);

/* The stance of the current record's nc contacts c (spart-contact --write-stance), as JSON
   text into out (cli_memfile's; the caller frees out->text): a hold for each link touched, in
   the order of its first contact, of its contacts in the inertial frame where the record puts
   them and the constraint that keeps the link at the pose it has (point: its contacts' mean
   point in the link's frame; position: where that is; R: the link frame's orientation).  0, or
   -1 after reporting (cli_fail).  Runs spart_fk. */
typedef struct cli_memfile cli_memfile;
int cli_stance_text(cli_session *s, const spart_contact *c, int nc, cli_memfile *out);

/* Run body, a command's loop over its records (while (cli_next(s)) ...), over the whole input,
   then close the session (cli_session_close); returns the exit code.  With -j N (jobs.c) the
   input is cut in blocks of whole records, at most most records each (0: any number), and body
   runs on each block in one of N threads, on a session of its own (its reader reads the block,
   its writer and its messages are held), the outputs and messages written in input order: those
   of one thread. */
#define CLI_MAX_JOBS 256
int cli_run(cli_session *s, void (*body)(cli_session *s), long most);

/* Print warning totals, free everything, close stdout; returns the exit code. */
int cli_session_close(cli_session *s);

/* A session for a -j worker (jobs.c), cloned from s by its owner: s's command, options, model
   (borrowed) and resolved --link/--frame; its own data, a reader of format fmt (fed the blocks;
   from's CSV header when from is given), a writer that holds its records (from's header), no
   records or counts yet; mark called at each record written while s->mark_arg is set.  NULL
   when out of memory.  cli_session_free_clone frees it (not s's). */
cli_session *cli_session_clone(const cli_session *s, int fmt, const cli_session *from,
                               void (*mark)(struct cli_session *, void *));
void cli_session_free_clone(cli_session *w);

/* ---------------------------------------------------------------------------------------------
 * text made in memory through a FILE (memfile.c): cli_memfile_open's stream, written with
 * stdio; cli_memfile_close closes it and returns 0 with the whole text in mf (NUL-terminated,
 * malloc'd: the caller frees mf->text), or -1 when any of it was lost (out of memory; mf empty)
 */
struct cli_memfile {
  char *text;   /* the text written, NUL-terminated */
  size_t len;   /* its length */
  size_t cap;   /* text's allocation */
  int lost;     /* a write could not be kept */
};

FILE *cli_memfile_open(cli_memfile *mf);
int cli_memfile_close(FILE *f, cli_memfile *mf);

/* The text (len bytes) saved as the file path, whole: on failure, reported ("prog: cannot
   write PATH: ...") and the file removed.  0, or CLI_EXIT_IO. */
int cli_save(const char *prog, const char *path, const char *text, size_t len);

#endif
