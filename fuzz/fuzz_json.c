/* fuzz_json.c -- libFuzzer harness for the state-JSON reader: a stream of JSON records (RFC 7464
   records when the input starts with RS), read twice: against models/SC_3DoF.urdf, as
   spart-kin -m models/SC_3DoF.urdf -i json -k [--seq] reads them, and with the model in the
   first record ("robot"), as spart-kin -i json -k [--seq] reads them */
#include "fuzz_records.h"


int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fuzz_records_init();
  return 0;
}


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  int seq = size > 0 && data[0] == 0x1e;
  fuzz_records(data, size, CLI_FMT_JSON, seq, 0);
  return fuzz_records(data, size, CLI_FMT_JSON, seq, 1);
}
