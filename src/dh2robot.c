/* dh2robot -- read a Denavit-Hartenberg description and write the model JSON (or its summary, or
 * its tree as Graphviz): options -> read -> write (src/cli/convert.c) */
#include "cli.h"

static const char about[] =
    "Read a serial arm described by Denavit-Hartenberg parameters, as JSON, and write the\n"
    "model JSON of the SPART toolkit (spart-model(5)): base link Base, links L1..Ln, joints\n"
    "J1..Jn.  Two forms (dh2robot(1)):\n"
    "  SPART's DH structure   {\"n\", \"man\": [{\"type\" 1|2, \"DH\": {d alpha a theta}, \"b\",\n"
    "                         \"mass\", \"I\"}...], \"EE\": {theta d}, \"base\": {\"T_L0_J1\",\n"
    "                         \"mass\", \"I\"}}: exactly SPART's DH_Serial2robot\n"
    "  a Toolbox table        {\"dh\": \"standard\"|\"modified\", \"links\": [{\"type\", "
    "\"d\"|\"theta\",\n"
    "                         \"a\", \"alpha\", \"offset\", \"flip\", \"qlim\", \"m\", \"r\", "
    "\"I\", \"Jm\",\n"
    "                         \"B\", \"Tc\", \"G\"}...], \"base\": {\"T\", \"mass\", \"I\"}}\n"
    "Links of either form may give a drive train (Jm B Tc G) and limits (qlim).  Without FILE,\n"
    "or with -, read standard input.  Any model file the other commands take is read too.\n";


int main(int argc, char **argv) {
  return cli_convert_main("dh2robot", about, argc, argv);
}
