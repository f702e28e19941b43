#!/usr/bin/env bats
# --check-limits of spart-id and spart-kin: each joint limit a record passes (position, velocity,
# effort of the model's <limit>) on stderr, the records still written, exit 4 at the end.

load helper

# one link on a revolute joint about z through its CoM: Izz = 2, so that taum = 2 umdot by hand
# (no gravity, no velocity product); limits: q in [-1, 1], |um| <= 3, |taum| <= 10
setup() {
  cat > "$BATS_TEST_TMPDIR/one.urdf" <<'EOF'
<robot name="one">
  <link name="base"><inertial><mass value="1"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <link name="arm"><inertial><mass value="1"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="2"/></inertial></link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="arm"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="10" velocity="3"/></joint>
</robot>
EOF
  M="$BATS_TEST_TMPDIR/one.urdf"
  # line 2 within, line 3 at every limit (within), line 4 past three, line 5 below the lower
  printf 'time,qm_1,um_1,umdot_1\n0,0,0,0\n1,1,-3,5\n2,1.5,-3.5,-6\n3,-1.25,0,0\n' \
    > "$BATS_TEST_TMPDIR/traj.csv"
}

limits_lines() {
  printf '%s\n' \
    "$1: <stdin>:4: joint 'shoulder': qm_1 = 1.5 > upper limit 1" \
    "$1: <stdin>:4: joint 'shoulder': um_1 = -3.5 exceeds velocity limit 3" \
    ${2:+"$1: <stdin>:4: joint 'shoulder': taum_1 = -12 exceeds effort limit 10"} \
    "$1: <stdin>:5: joint 'shoulder': qm_1 = -1.25 < lower limit -1" \
    "$1: 2 of 4 records leave the joint limits"
}

@test "spart-id --check-limits reports each limit passed (row, joint, value, limit) and exits 4" {
  run --separate-stderr spart-id -m "$M" --fixed-base --check-limits -o csv < "$BATS_TEST_TMPDIR/traj.csv"
  [ "$status" -eq 4 ]
  [ "$stderr" = "$(limits_lines spart-id effort)" ]
  # every record is still written, with the forces 2 umdot
  [ "${#lines[@]}" -eq 5 ]
  [ "$(cut -d, -f1,8 <<< "$output" | tr '\n' ' ')" = "time,taum_1 0,0 1,10 2,-12 3,0 " ]
  # the same from JSON records, one at a time (spart-id computes CSV rows two at a time)
  python3 -c 'import csv, json, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(json.dumps({"qm": [float(r["qm_1"])], "um": [float(r["um_1"])], "umdot": [float(r["umdot_1"])]}))' \
    "$BATS_TEST_TMPDIR/traj.csv" > "$BATS_TEST_TMPDIR/traj.jsonl"
  run --separate-stderr spart-id -m "$M" --fixed-base --check-limits < "$BATS_TEST_TMPDIR/traj.jsonl"
  [ "$status" -eq 4 ]
  # (a JSON record's line: one line earlier, no header)
  [ "$stderr" = "$(limits_lines spart-id effort | sed 's/<stdin>:4:/<stdin>:3:/; s/<stdin>:5:/<stdin>:4:/')" ]
  # a file operand: the messages name the file, as every other message about a record does
  run --separate-stderr spart-id -m "$M" --fixed-base --check-limits -o csv "$BATS_TEST_TMPDIR/traj.csv"
  [ "$status" -eq 4 ]
  [ "$stderr" = "$(limits_lines spart-id effort | sed "s|<stdin>|$BATS_TEST_TMPDIR/traj.csv|")" ]
  # --floating: the force of the floating-base inverse dynamics is checked
  run --separate-stderr spart-id -m "$M" --floating --check-limits <<< '{"qm": [0], "umdot": [100]}'
  [ "$status" -eq 4 ]
  [[ "${stderr_lines[0]}" == "spart-id: <stdin>:1: joint 'shoulder': taum_1 = "*" exceeds effort limit 10" ]]
}

@test "without --check-limits, or within the limits, nothing is said and the exit is 0" {
  run --separate-stderr spart-id -m "$M" --fixed-base -o csv < "$BATS_TEST_TMPDIR/traj.csv"
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  head -n 3 "$BATS_TEST_TMPDIR/traj.csv" > "$BATS_TEST_TMPDIR/ok.csv"
  run --separate-stderr spart-id -m "$M" --fixed-base --check-limits -o csv < "$BATS_TEST_TMPDIR/ok.csv"
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  run --separate-stderr spart-kin -m "$M" --check-limits < "$BATS_TEST_TMPDIR/ok.csv"
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  # a model without limits has none to pass
  urdf2robot "$M" | python3 -c 'import json, sys
d = json.load(sys.stdin)
for j in d["joints"]:
    for k in ("limit", "effort_limit", "velocity_limit"):
        j.pop(k)
json.dump(d, sys.stdout)' > "$BATS_TEST_TMPDIR/free.json"
  run --separate-stderr spart-id -m "$BATS_TEST_TMPDIR/free.json" --check-limits -o csv < "$BATS_TEST_TMPDIR/traj.csv"
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
}

@test "spart-kin --check-limits reports positions and velocities" {
  run --separate-stderr spart-kin -m "$M" --check-limits --only r_com < "$BATS_TEST_TMPDIR/traj.csv"
  [ "$status" -eq 4 ]
  [ "$stderr" = "$(limits_lines spart-kin)" ]
  [ "${#lines[@]}" -eq 5 ] # CSV in, CSV out: the header and the four rows
  [ "${lines[0]}" = "time,r_com_1,r_com_2,r_com_3" ]
}

@test "a bad record with --check-limits exits 1, as bad input does; other commands refuse it" {
  printf 'qm_1\n2\nx\n' > "$BATS_TEST_TMPDIR/bad.csv"
  run --separate-stderr spart-kin -m "$M" --check-limits -k --only r_com < "$BATS_TEST_TMPDIR/bad.csv"
  [ "$status" -eq 1 ]
  [ "${stderr_lines[0]}" = "spart-kin: <stdin>:2: joint 'shoulder': qm_1 = 2 > upper limit 1" ]
  [ "${stderr_lines[1]}" = "spart-kin: <stdin>:3: column 'qm_1': 'x' is not a finite number" ]
  for c in spart-gim spart-fd "spart-jac --link 1"; do
    run --separate-stderr $c -m "$M" --check-limits <<< '{}'
    [ "$status" -eq 2 ]
    [ "${stderr_lines[0]}" = "${c%% *}: unknown option '--check-limits'" ]
  done
  run -0 spart-id --help
  [[ "$output" == *"--check-limits"*"4 a record left the joint"* ]]
  run -0 spart-kin --help
  [[ "$output" == *"--check-limits"* ]]
}

@test "the bundled iiwa's data-sheet limits: a joint past 170 degrees is reported" {
  # lbr_iiwa_joint_1: lower -2.96705972839 (170 degrees), upper the same
  run --separate-stderr spart-kin -m "$MODELS/kuka_iiwa.urdf" --check-limits --only r_com <<< '{"qm": [-3, 0, 0, 0, 0, 0, 0]}'
  [ "$status" -eq 4 ]
  [ "${stderr_lines[0]}" = "spart-kin: <stdin>:1: joint 'lbr_iiwa_joint_1': qm_1 = -3 < lower limit -2.96705972839" ]
}
