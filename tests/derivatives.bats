#!/usr/bin/env bats
# Derivatives of the dynamics (issue 42): spart_rnea_derivatives, spart_fd_derivatives (the C
# driver tests/unit/test_derivatives.c), spart-id --derivatives, spart-fd --derivatives and
# --linearize against central finite differences of the commands and the identities.

load helper

UNIT="${SPART_UNIT:-$TOP/build/tests}"

@test "the library's derivatives of ID and FD equal central differences (1e-6) on every model, every joint kind, flying and fixed, friction or none, coupled mimics; dudot_dtau H = I and dtau_du u = 2 (ID(u) - ID(0)) to 1e-10" {
  run "$UNIT/test_derivatives" 0 "$MODELS"/*.urdf "$MODELS"/*.json "$BATS_TEST_DIRNAME/data"/*.urdf "$BATS_TEST_DIRNAME/data"/joints/*.urdf "$BATS_TEST_DIRNAME/data"/helical/*.urdf
  echo "$output" | grep -v '^ok' || true
  [ "$status" -eq 0 ]
  [[ "$output" == *"ok ball.urdf flying friction: dudot_dq"* ]]
  [[ "$output" == *"ok gripper_mimic.urdf coupled fixed: dtau_dq"* ]]
  [[ "$output" == *"ok helix_pair.urdf coupled flying: dudot_du"* ]]
  [[ "${lines[-1]}" == *" passed, 0 failed" ]]
}

@test "the library's derivatives of ID and FD equal central differences (1e-6) on 40 of test_recursions' random trees (every joint kind, branching, random frames, inertias, armature), flying and fixed, friction or none; the identities to 1e-10" {
  run "$UNIT/test_derivatives" 40
  echo "$output" | grep -v '^ok' || true
  [ "$status" -eq 0 ]
  local mode what
  for mode in flying fixed "flying friction" "fixed friction"; do
    for what in dtau_dq dtau_du dudot_dq dudot_du dudot_dtau; do
      [[ "$output" == *"ok 40 random trees ("*" bodies) $mode: $what (worst"* ]]
    done
  done
  for what in revolute prismatic floating ball planar sincos spquat helical; do
    [[ "$output" == *"joints of kind $what"* ]]
  done
  [ "$(echo "$output" | grep -c '^ok random trees: [1-9][0-9]* joints of kind')" -ge 9 ]
  [[ "${lines[-1]}" == *" passed, 0 failed" ]]
}

# derivcheck MODEL flying|fixed [--mimic]: tests/derivcheck.py's checks, each line shown on failure
derivcheck() {
  run python3 "$BATS_TEST_DIRNAME/derivcheck.py" "$@"
  echo "$output" | grep -v '^ok' || true
  [ "$status" -eq 0 ]
  [ "$(echo "$output" | grep -c '^ok')" -eq 9 ]
}

@test "spart-id --derivatives and spart-fd --derivatives, --linearize of kuka_iiwa (fixed base) equal central differences of spart-id and spart-fd (1e-6), and the identities hold to 1e-10" {
  derivcheck "$MODELS/kuka_iiwa.urdf" fixed
}

@test "the derivatives of the dual-arm spacecraft (ManiSat_2Arm_2_2), flying, and of 2_iiwa_base equal central differences, base moved on its manifold" {
  derivcheck "$MODELS/ManiSat_2Arm_2_2.urdf" flying
  derivcheck "$MODELS/ManiSat_2Arm_2_2.urdf" fixed
  derivcheck "$MODELS/2_iiwa_base.urdf" flying
}

@test "the derivatives of the quadruped equal central differences" {
  derivcheck "$MODELS/quadruped.urdf" flying
}

@test "the derivatives of models with a ball joint, a floating joint inside the tree, helical joints and coupled mimic joints equal central differences" {
  derivcheck "$BATS_TEST_DIRNAME/data/joints/ball.urdf" flying
  derivcheck "$BATS_TEST_DIRNAME/data/joints/floating_tree.urdf" flying
  derivcheck "$BATS_TEST_DIRNAME/data/helical/helix_arm.urdf" flying
  derivcheck "$BATS_TEST_DIRNAME/data/gripper_mimic.urdf" flying --mimic
  derivcheck "$BATS_TEST_DIRNAME/data/gripper_mimic.urdf" fixed --mimic
}

@test "spart-id --derivatives with --floating is a usage error, one line and the hint, nothing written" {
  run --separate-stderr spart-id -m "$MODELS/kuka_iiwa.urdf" --floating --derivatives <<< '{"qm": [0, 0, 0, 0, 0, 0, 0]}'
  [ "$status" -eq 2 ]
  [ -z "$output" ]
  [ "${stderr_lines[0]}" = "spart-id: --derivatives and --floating may not be combined (the base's acceleration is solved for: spart-fd --derivatives)" ]
  [ "${stderr_lines[1]}" = "Try 'spart-id --help'." ]
}

@test "the derivative matrices: nested rows in JSON, flattened row-major in CSV, --only picks them, -j 2 writes the same bytes" {
  local m="$MODELS/kuka_iiwa.urdf" s
  spart-states -m "$m" --random 50 --seed 3 --velocities --forces > "$BATS_TEST_TMPDIR/f.json"
  spart-states -m "$m" --random 50 --seed 3 --velocities --accelerations > "$BATS_TEST_TMPDIR/s.json"
  run -0 spart-fd -m "$m" --fixed-base --linearize --only A,B < "$BATS_TEST_TMPDIR/f.json"
  [ "${#lines[@]}" -eq 50 ]
  python3 -c 'import json, sys
r = json.loads(sys.argv[1])
assert sorted(r) == ["A", "B"], sorted(r)
assert len(r["A"]) == 14 and all(len(row) == 14 for row in r["A"])
assert len(r["B"]) == 14 and all(len(row) == 7 for row in r["B"])' "${lines[0]}"
  run -0 spart-id -m "$m" --fixed-base --derivatives --only dtau_du -o csv < "$BATS_TEST_TMPDIR/s.json"
  [ "${#lines[@]}" -eq 51 ]
  [[ "${lines[0]}" == "dtau_du_1_1,dtau_du_1_2,"*",dtau_du_7_7" ]]
  # the CSV's row-major cells are the JSON's rows
  s=$(spart-id -m "$m" --fixed-base --derivatives --only dtau_du < "$BATS_TEST_TMPDIR/s.json" | head -n 1)
  python3 -c 'import json, sys
r = json.loads(sys.argv[1])
cells = [float(v) for v in sys.argv[2].split(",")]
assert cells == [v for row in r["dtau_du"] for v in row]' "$s" "${lines[1]}"
  for c in "spart-id --derivatives:s" "spart-fd --derivatives --linearize:f"; do
    ${c%:*} -m "$m" < "$BATS_TEST_TMPDIR/${c#*:}.json" > "$BATS_TEST_TMPDIR/j1"
    ${c%:*} -m "$m" -j 2 < "$BATS_TEST_TMPDIR/${c#*:}.json" > "$BATS_TEST_TMPDIR/j2"
    [ "$(wc -l < "$BATS_TEST_TMPDIR/j2")" -eq 50 ]
    cmp "$BATS_TEST_TMPDIR/j1" "$BATS_TEST_TMPDIR/j2"
  done
}

@test "--derivatives and --linearize are in --help and the bash completion offers them" {
  run -0 complete_tree spart-id --der
  [ "$output" = "--derivatives" ]
  run -0 complete_tree spart-fd --lin
  [ "$output" = "--linearize" ]
  run -0 complete_tree spart-fd --der
  [ "$output" = "--derivatives" ]
}
