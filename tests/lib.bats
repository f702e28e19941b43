#!/usr/bin/env bats
# The C unit drivers of tests/unit (built into build/tests, or $SPART_UNIT) and the command-level
# golden comparison.

load helper

UNIT="${SPART_UNIT:-$TOP/build/tests}"

@test "libspart matches SPART's own outputs on every reference case to 1e-9" {
  run "$UNIT/test_golden" "$MODELS" "$REF"/*.json
  echo "$output" | grep -v '^ok' || true
  [ "$status" -eq 0 ]
  [[ "${lines[-1]}" == *" passed, 0 failed" ]]
}

@test "every command's outputs match SPART's on every reference case to 1e-9" {
  run python3 "$BATS_TEST_DIRNAME/golden.py" "$REF"/*.json
  echo "$output" | grep -v '^ok' || true
  [ "$status" -eq 0 ]
  [[ "${lines[-1]}" == *" passed, 0 failed" ]]
}

@test "physics identities hold on every bundled model, a forking tree included" {
  run "$UNIT/test_dynamics" "$MODELS"/*.urdf
  echo "$output" | grep -v '^ok' || true
  [ "$status" -eq 0 ]
  [[ "$output" == *"branched_arm.urdf: FD(ID(udot)) = udot"* ]]
  [[ "${lines[-1]}" == *" passed, 0 failed" ]]
}

@test "numbers are read as strtod reads them and written shortest, reading back exactly" {
  run "$UNIT/test_num" 1000000
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "${lines[-1]}" == "4 passed, 0 failed" ]]
}
