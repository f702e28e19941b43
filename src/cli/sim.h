/* sim.h -- spart-sim's part of src/cli: its --inputs file (inputs.c) and its world, a
 * controller and a ground (world.c), with the world's options; spart-sim's main includes it
 * beside cli.h */
#ifndef SPART_CLI_SIM_H
#define SPART_CLI_SIM_H

#include <math.h>

#include "cli.h"
#include "spart_sim.h"

/* ---------------------------------------------------------------------------------------------
 * --inputs FILE (inputs.c): forces over time, a time t and any of tau0, taum, wF0, wFm a record
 * (JSON or CSV), t increasing, read from its start by every trajectory
 */

/* First cli_inputs_read of the file name: a regular file is left where it is (*text NULL: each
   trajectory opens it), another (a pipe) read whole into *text (malloc'd), *len bytes; 0, or -1
   after reporting (s->status set). */
int cli_inputs_read(cli_session *s, const char *name, char **text, size_t *len);

/* The stream f (then closed) read whole into *text (malloc'd, *len bytes, room for one more);
   0, or -1 after reporting a read error of name or no memory (s->status set, *text NULL).
   *text NULL and *len 0 on entry. */
int cli_read_whole(cli_session *s, FILE *f, const char *name, char **text, size_t *len);

/* Open the file name, or the text cli_inputs_read gave (not NULL), and read its first record
   (a file with none is refused), for the session's model: NULL after reporting (s->status
   set). */
typedef struct cli_inputs cli_inputs;
cli_inputs *cli_inputs_open(cli_session *s, const char *name, const char *text, size_t len);

/* Hold the forces of the records whose time has come by t (within slack) in the state x (its
   tau0, taum, wF), the last one's (zero-order hold): 1 when some did, 0 when none, -1 after
   reporting a bad record.  in NULL: none. */
int cli_inputs_hold(cli_session *s, cli_inputs *in, double t, double slack, spart_state *x);

/* The time of the next record not yet held, or INFINITY (in NULL too). */
double cli_inputs_next(const cli_inputs *in);

/* Close it; NULL is allowed. */
void cli_inputs_close(cli_inputs *in);

/* A record of a file of records over time (--inputs, --reference: name) that holds no key or
   column but t besides the fields rd reads: 0, or -1 after reporting the first other one as
   "key 'K' is not WHAT: a record gives GIVES" (it would be dropped unread). */
int cli_only_time(cli_session *s, cli_reader *rd, const cli_record *rec, const char *name,
                  const char *what, const char *gives);

/* ---------------------------------------------------------------------------------------------
 * the world (world.c): a controller of the joints and a ground, and their options
 */

/* the world's options, rows of spart-sim's table */
typedef struct cli_world_opts {
  int control;           /* --control: SPART_CONTROL_*, 0 none */
  const char *kp, *kd;   /* --kp, --kd: one gain or one a velocity coordinate (comma-separated) */
  const char *reference; /* --reference FILE */
  int ground;            /* --ground */
  int has_plane;         /* --ground NX,NY,NZ,D given: plane (the normal made unit, D with it) */
  double plane[4];
  /* --mu, --stiffness, --damping, --slip, --tangential-stiffness, --tangential-damping; NaN
     when not given (the ground's defaults: spart_ground_defaults) */
  double mu, stiffness, damping, slip, tstiffness, tdamping;
  int contact_forces; /* --contact-forces */
  int implicit;       /* --integrator implicit (spart_ground.implicit: the damping's default) */
} cli_world_opts;

/* the world's options before the command line: none given */
#define CLI_WORLD_OPTS                                                                          \
  {.mu = NAN, .stiffness = NAN, .damping = NAN, .slip = NAN, .tstiffness = NAN, .tdamping = NAN}

/* The parses of --control LAW (pd, ctc, gravity: the int at at) and of --ground [NX,NY,NZ,D]
   (the cli_world_opts at at; the plane also as the next argument, --ground NX,NY,NZ,D):
   cli_option.parse's. */
int cli_world_control(const cli_arg *a);
int cli_world_ground(const cli_arg *a);

/* The world's options w together (mimic: --mimic given): -1 to go on, or CLI_EXIT_USAGE after
   the message. */
int cli_world_check(const cli_world_opts *w, int mimic, const char *prog);

/* --reference FILE of w read whole into *text (malloc'd, *len bytes; NULL without
   --reference), once before the trajectories; 0, or -1 after reporting (s->status set). */
int cli_world_read(cli_session *s, const cli_world_opts *w, char **text, size_t *len);

/* The world of a trajectory on the session's model with the options o (which it keeps): the
   controller with its gains and the reference parsed from text, the ground with the contact
   spheres of the model's collision shapes (spart_ground_spheres) and its parameters (given, or
   spart_ground_defaults's); NULL after reporting (s->status set).  cli_world_scene: what
   spart_sim.scene takes (NULL for a NULL world).  cli_world_put: the contact forces at sim's
   state (--contact-forces) put in the record being written.  cli_world_close: report when the
   controller met the effort limits (one line on stderr naming the trajectory's record; s NULL:
   not), then free. */
typedef struct cli_world cli_world;
cli_world *cli_world_open(cli_session *s, const cli_world_opts *o, const char *text, size_t len);
spart_scene *cli_world_scene(cli_world *w);
void cli_world_put(cli_session *s, cli_world *w, const spart_sim *sim);
void cli_world_close(cli_session *s, cli_world *w);

#endif
