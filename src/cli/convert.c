/* convert.c -- the model converters (urdf2robot, dh2robot): their options, the model read
 * (and the messages of one that cannot be), the model written in the format asked for. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* a converter's options: the output format, urdf2robot's own, the file */
enum { CLI_CONV_JSON, CLI_CONV_SUMMARY, CLI_CONV_DOT };
typedef struct cli_convert {
  const char *prog;
  const char *in; /* FILE, "-" for stdin */
  int format;     /* CLI_CONV_* */
  int mimic;      /* --mimic: couple the mimic joints (spart_mimic_couple) */
  int kinds[2];   /* --revolute, --floating: the kind the revolute and floating joints are made
                     (spart_joint_retype), or -1 to keep them */
  int base;       /* --fixed-base 1, --floating-base 0, else -1: the model's (a URDF's world) */
  int has_gravity; /* --gravity: gravity kept in the model */
  double gravity[3];
  int automass;   /* --automass[=all]: SPART_AUTOMASS_* */
  double density; /* --density RHO, 0 if not given */
  const char **packages; /* --package-path DIR, each (malloc'd array of argv's strings) */
  int npackages;
} cli_convert;

/* the output formats, by CLI_CONV_*: -o's values, and as options named in messages */
static const char *const format_name[] = {"json", "summary", "dot"};
static const char *const output_opt[] = {"--output json", "--output summary", "--output dot"};


/* set the format to f (opt: the option as named in messages); -1 to go on, or CLI_EXIT_USAGE
   after the message when another format was given before (named in the formats' order) */
static int set_format(cli_convert *o, int f, const char *opt, const char **given) {
  if (*given && f != o->format) {
    return cli_usage(o->prog, "%s and %s may not be combined", f < o->format ? opt : *given,
                     f < o->format ? *given : opt);
  }
  o->format = f;
  *given = opt;
  return -1;
}


/* -o FORMAT; -1 to go on, or CLI_EXIT_USAGE after the message */
static int output_arg(cli_convert *o, const char *arg, const char **given) {
  for (int f = 0; f < 3; f++) {
    if (strcmp(arg, format_name[f]) == 0) {
      return set_format(o, f, output_opt[f], given);
    }
  }
  /* -o FILE was the output file before: say what does that now */
  return cli_usage(o->prog,
                   "--output: expected json, summary or dot, got '%s': -o is the format, not "
                   "a file; redirect the output instead (%s ... > %s)",
                   arg, o->prog, arg);
}


/* --revolute angle|sincos, --floating quaternion|spquat: the kind the revolute (w 0) or floating
   (w 1) joints are made (the pair's other kind's too); -1 to go on, or CLI_EXIT_USAGE after the
   message */
static int kind_arg(cli_convert *o, int w, const char *arg) {
  static const char *const word[2][2] = {{"angle", "sincos"}, {"quaternion", "spquat"}};
  static const int kind[2][2] = {{SPART_JNT_REVOLUTE, SPART_JNT_SINCOS},
                                 {SPART_JNT_FLOATING, SPART_JNT_SPQUAT}};
  for (int k = 0; k < 2; k++) {
    if (strcmp(arg, word[w][k]) == 0) {
      o->kinds[w] = kind[w][k];
      return -1;
    }
  }
  return cli_usage(o->prog, "%s: expected %s or %s, got '%s'", w ? "--floating" : "--revolute",
                   word[w][0], word[w][1], arg);
}


static void help(const cli_convert *o, const char *about) {
  const int urdf = strcmp(o->prog, "urdf2robot") == 0;
  printf("Usage: %s [-o json|summary|dot]%s [--gravity G] [--fixed-base|--floating-base] "
         "[FILE|-]\n%s\n", o->prog,
         urdf ? " [--mimic] [--revolute angle|sincos] [--floating quaternion|spquat]\n"
                "       [--automass[=all]] [--density RHO] [--package-path DIR]"
              : "",
         about);
  fputs("  -o, --output FORMAT  json (the model JSON, the default), summary or dot; the\n"
        "                     output goes to standard output (redirect it: > FILE)\n"
        "  -s, --summary      same as -o summary: a human-readable tree with masses and\n"
        "                     warnings\n"
        "      --dot          same as -o dot: the kinematic tree as Graphviz (links, joints\n"
        "                     with kind and axis, masses): dot -Tsvg draws it\n",
        stdout);
  if (urdf) {
    fputs("      --mimic        couple each mimic joint to its leader (q = multiplier\n"
          "                     q_leader + offset): the followers are no coordinates\n"
          "      --revolute KIND  angle (the default: q the angle) or sincos (q = [sin, cos]\n"
          "                     of the angle, one velocity: RigidBodyDynamics.jl's\n"
          "                     SinCosRevolute) for every revolute and continuous joint\n"
          "      --floating KIND  quaternion (the default: [w x y z], then the position) or\n"
          "                     spquat (the quaternion's stereographic projection, then the\n"
          "                     position: RigidBodyDynamics.jl's SPQuatFloating) for every\n"
          "                     floating joint of the tree\n"
          "      --automass[=all]\n"
          "                     give each link with collision geometry but no <inertia>\n"
          "                     (=all: each link with collision geometry) the mass, CoM\n"
          "                     and inertia of its collision shapes at uniform density\n"
          "      --density RHO  that density (kg/m^3) for a link without <mass>; a link\n"
          "                     with <mass> has its mass spread over its shapes\n"
          "      --package-path DIR\n"
          "                     look for package://NAME/... meshes in DIR/NAME (or DIR\n"
          "                     itself when it is named NAME), before ROS_PACKAGE_PATH's\n"
          "                     directories; may be given again\n",
          stdout);
  }
  fputs("      --gravity G    gx,gy,gz: the gravity kept with the model, which every command\n"
        "                     uses unless given --gravity\n"
        "      --fixed-base   the model's base is fixed to the world: every command reads it\n"
        "                     as with --fixed-base (a URDF whose root is a link named world\n"
        "                     without <inertial>, with a fixed joint to the robot, says so)\n"
        "      --floating-base  the model's base is free, whatever the URDF says\n",
        stdout);
  fputs("  -h, --help         show this help and exit\n"
        "  -V, --version      show the version and exit\n\n"
        "Exit status: 0 success, 1 bad input, 2 bad usage, 3 I/O or system error.\n",
        stdout);
}


/* the command line into o (about: what --help says after the usage line): -1 to go on, or the
   exit status (after --help, --version or a usage error, which it reports) */
static int parse(cli_convert *o, const char *prog, const char *about, int argc, char **argv) {
  static const struct option all[] = {{"summary", no_argument, NULL, 's'},
                                      {"dot", no_argument, NULL, 'D'},
                                      {"output", required_argument, NULL, 'o'},
                                      {"help", no_argument, NULL, 'h'},
                                      {"version", no_argument, NULL, 'V'},
                                      {"gravity", required_argument, NULL, 'G'},
                                      {"fixed-base", no_argument, NULL, 'F'},
                                      {"floating-base", no_argument, NULL, 'B'},
                                      {"mimic", no_argument, NULL, 'M'},
                                      {"revolute", required_argument, NULL, 'R'},
                                      {"floating", required_argument, NULL, 'K'},
                                      {"automass", optional_argument, NULL, 'A'},
                                      {"density", required_argument, NULL, 'Y'},
                                      {"package-path", required_argument, NULL, 'P'},
                                      {NULL, 0, NULL, 0}};
  /* --mimic, --revolute, --floating and the geometry's options for urdf2robot only: a DH arm
     has no mimic joints, no kinds to choose and no shapes */
  const int n = strcmp(prog, "urdf2robot") == 0 ? 14 : 8;
  struct option longopts[15];
  memcpy(longopts, all, (size_t)n * sizeof all[0]);
  memset(&longopts[n], 0, sizeof longopts[n]);
  const char *given = NULL; /* the option that gave the format */
  int c;
  o->prog = prog;
  o->in = "-";
  o->format = CLI_CONV_JSON;
  o->mimic = 0;
  o->kinds[0] = o->kinds[1] = -1;
  o->base = -1;
  o->has_gravity = 0;
  o->automass = SPART_AUTOMASS_OFF;
  o->density = 0;
  o->npackages = 0;
  o->packages = NULL;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, ":so:hV", longopts, NULL)) != -1) {
    int r = -1;
    if (c == 's') {
      r = set_format(o, CLI_CONV_SUMMARY, "--summary", &given);
    } else if (c == 'D') {
      r = set_format(o, CLI_CONV_DOT, "--dot", &given);
    } else if (c == 'M') {
      o->mimic = 1;
    } else if (c == 'R' || c == 'K') {
      r = kind_arg(o, c == 'K', optarg);
    } else if (c == 'G') {
      if (o->has_gravity) {
        return cli_usage(prog, "--gravity given twice");
      }
      if (cli_vec(optarg, o->gravity, 3) != 0) {
        return cli_usage(prog, "--gravity: expected gx,gy,gz, got '%s'", optarg);
      }
      o->has_gravity = 1;
    } else if (c == 'F' || c == 'B') {
      if (o->base >= 0 && o->base != (c == 'F')) {
        return cli_usage(prog, "--fixed-base and --floating-base may not be combined");
      }
      o->base = c == 'F';
    } else if (c == 'A') {
      if (optarg && strcmp(optarg, "all") != 0) {
        return cli_usage(prog, "--automass: expected nothing or =all, got '%s'", optarg);
      }
      o->automass = optarg ? SPART_AUTOMASS_ALL : SPART_AUTOMASS_MISSING;
    } else if (c == 'Y') {
      if (cli_vec(optarg, &o->density, 1) || !(o->density > 0)) {
        return cli_usage(prog, "--density: expected a positive number (kg/m^3), got '%s'",
                         optarg);
      }
    } else if (c == 'P') {
      if (!o->packages) {
        o->packages = malloc((size_t)argc * sizeof *o->packages);
        if (!o->packages) {
          cli_error(prog, NULL, 0, "out of memory");
          return CLI_EXIT_IO;
        }
      }
      o->packages[o->npackages++] = optarg;
    } else if (c == 'o') {
      r = output_arg(o, optarg, &given);
    } else if (c == 'h') {
      help(o, about);
      return cli_finish(prog, CLI_EXIT_OK);
    } else if (c == 'V') {
      return cli_version(prog);
    } else {
      return cli_bad_option(prog, c, argv);
    }
    if (r >= 0) {
      return r;
    }
  }
  if (argc - optind > 1) {
    return cli_usage(prog, "too many arguments: one FILE at most");
  }
  if (o->density > 0 && !o->automass) {
    return cli_usage(prog, "--density is for --automass");
  }
  o->in = optind < argc ? argv[optind] : o->in;
  return -1;
}


/* the model of the converter's FILE (spart_model_load), or NULL after reporting why, with
   *status the exit status */
static spart_model *read_model(const cli_convert *o, int *status) {
  spart_err err = {0};
  spart_model *m = cli_model_load_with(o->in, o->packages, o->npackages, o->automass,
                                       o->density, &err);
  const char *hint = "";
  free(o->packages);
  /* --revolute, --floating: each joint of the pair's other kind made the one asked for */
  static const int pair[2][2] = {{SPART_JNT_REVOLUTE, SPART_JNT_SINCOS},
                                 {SPART_JNT_FLOATING, SPART_JNT_SPQUAT}};
  for (int w = 0; w < 2 && m; w++) {
    const int to = o->kinds[w], from = to == pair[w][0] ? pair[w][1] : pair[w][0];
    if (to >= 0 && spart_joint_retype(m, from, to, &err) != 0) {
      spart_model_free(m);
      m = NULL;
    }
  }
  if (m && o->mimic && spart_mimic_couple(m, &err) != 0) {
    spart_model_free(m);
    m = NULL;
  }
  if (m) {
    if (o->base >= 0) {
      m->fixed_base = o->base;
    }
    if (o->has_gravity) {
      memcpy(m->gravity, o->gravity, sizeof m->gravity);
      m->has_gravity = 1;
    }
    return m;
  }
  /* a URDF link without <inertia>: automass can give it one */
  if (!o->automass && strstr(err.msg, ": <inertial> without <inertia>")) {
    hint = " (--automass gives it its collision shapes' inertia)";
  }
  if (err.code == SPART_EDATA) {
    cli_error(o->prog, strcmp(o->in, "-") ? o->in : "<stdin>", err.line, "%s%s", err.msg, hint);
  } else {
    cli_error(o->prog, NULL, 0, "%s", err.msg);
  }
  /* an input that cannot be read is bad input (exit 1); out of memory is a system error */
  *status = err.code == SPART_ENOMEM ? CLI_EXIT_IO : CLI_EXIT_DATA;
  return NULL;
}


/* the model m written in the format asked for to stdout, m freed and stdout closed; returns the
   exit status */
static int write_model(const cli_convert *o, spart_model *m) {
  char *text = o->format == CLI_CONV_SUMMARY ? cli_model_summary(m)
               : o->format == CLI_CONV_DOT   ? cli_model_dot(m)
                                             : spart_model_json(m);
  spart_model_free(m);
  if (!text) {
    cli_error(o->prog, NULL, 0, "out of memory");
    return CLI_EXIT_IO;
  }
  fputs(text, stdout);
  if (o->format == CLI_CONV_JSON) {
    putchar('\n');
  }
  free(text);
  return cli_finish(o->prog, CLI_EXIT_OK);
}


int cli_convert_main(const char *prog, const char *about, int argc, char **argv) {
  cli_convert o;
  int status = parse(&o, prog, about, argc, argv);
  spart_model *m = status < 0 ? read_model(&o, &status) : NULL;
  return m ? write_model(&o, m) : status;
}
