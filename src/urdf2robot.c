/* urdf2robot -- read a URDF (or a model JSON) and write the model JSON, SPART's robot
 * structure, its summary or its tree as Graphviz: options -> read -> write (src/cli/convert.c) */
#include "cli.h"

static const char about[] =
    "Read a URDF robot description (or a model JSON, or a DH description: dh2robot(1)) and\n"
    "write the model JSON of the SPART toolkit (spart-model(5)): links and joints numbered\n"
    "depth-first from the base link.\n"
    "Without FILE, or with -, read standard input.\n";


int main(int argc, char **argv) {
  return cli_convert_main("urdf2robot", about, argc, argv);
}
