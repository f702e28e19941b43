/* spart-states -- state records of a model: random within its limits, or its zero
 * configuration: options -> model -> records written (src/cli/states.c) */
#include "cli.h"


int main(int argc, char **argv) {
  cli_states o;
  int status = cli_states_parse(&o, argc, argv);
  return status < 0 ? cli_states_write(&o) : status;
}
