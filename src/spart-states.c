/* spart-states -- state records of a model: random within its limits, or its zero
 * configuration: options -> model -> records written (src/cli/states.c) */
#include "cli.h"


int main(int argc, char **argv) {
  return cli_states_main(argc, argv);
}
