/* fuzz_csv.c -- libFuzzer harness for the CSV reader: a header and rows against
   models/SC_3DoF.urdf, as spart-kin -m models/SC_3DoF.urdf -o csv -k reads them (CSV unless
   the input starts with a brace) */
#include "fuzz_records.h"


int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fuzz_records_init();
  return 0;
}


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fuzz_records(data, size, CLI_FMT_AUTO, 0, 0);
}
