/* urdf2robot -- read a URDF (or a model JSON) and write the model JSON, SPART's robot structure */
#include "spart.h"

static const char usage[] =
    "Usage: urdf2robot [-s] [-o FILE] [FILE|-]\n"
    "Read a URDF robot description (or a model JSON, or a DH description: dh2robot(1)) and\n"
    "write the model JSON of the SPART toolkit (spart-model(5)): links and joints numbered\n"
    "depth-first from the base link.\n"
    "Without FILE, or with -, read standard input.\n"
    "\n"
    "  -s, --summary      write a human-readable tree with masses and warnings instead\n"
    "  -o, --output FILE  write to FILE instead of standard output (only on success)\n"
    "  -h, --help         show this help and exit\n"
    "  -V, --version      show the version and exit\n"
    "\n"
    "Exit status: 0 success, 1 bad input, 2 bad usage, 3 I/O or system error.\n";


int main(int argc, char **argv) {
  return spart_convert_main("urdf2robot", usage, argc, argv);
}
