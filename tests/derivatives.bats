#!/usr/bin/env bats
# Derivatives of the dynamics (issue 42): spart_rnea_derivatives, spart_fd_derivatives (the C
# driver tests/unit/test_derivatives.c), spart-id --derivatives, spart-fd --derivatives and
# --linearize against central finite differences of the commands and the identities.

load helper

UNIT="${SPART_UNIT:-$TOP/build/tests}"

@test "the library's derivatives of ID and FD equal central differences (1e-6) on every model, every joint kind, flying and fixed, friction or none, coupled mimics; dudot_dtau H = I and dtau_du u = 2 (ID(u) - ID(0)) to 1e-10" {
  run "$UNIT/test_derivatives" "$MODELS"/*.urdf "$MODELS"/*.json "$BATS_TEST_DIRNAME/data"/*.urdf "$BATS_TEST_DIRNAME/data"/joints/*.urdf "$BATS_TEST_DIRNAME/data"/helical/*.urdf
  echo "$output" | grep -v '^ok' || true
  [ "$status" -eq 0 ]
  [[ "$output" == *"ok ball.urdf flying friction: dudot_dq"* ]]
  [[ "$output" == *"ok gripper_mimic.urdf coupled fixed: dtau_dq"* ]]
  [[ "$output" == *"ok helix_pair.urdf coupled flying: dudot_du"* ]]
  [[ "${lines[-1]}" == "1064 passed, 0 failed" ]]
}
