#!/usr/bin/env bats
# What a record's names mean: qm is never defaulted, other toolkits' names are refused with
# spart's, a pass-through name an output has becomes in_NAME in CSV as in JSON, and the joints'
# vectors may be keyed by joint name (spart-records(5)).

load helper

M="$MODELS/kuka_iiwa.urdf"
J="$BATS_TEST_DIRNAME/data/joints"
Q7='[0.1, 0.2, 0.3, -0.4, 0.5, 0.6, 0.7]'
# the iiwa's joints by name: names JSON-ARRAY
names() {
  python3 -c 'import json, sys
v = json.loads(sys.argv[1])
print(json.dumps({"lbr_iiwa_joint_%d" % (k + 1): x for k, x in enumerate(v)}))' "$1"
}

@test "a record without qm is refused by every command that reads states, JSON and CSV, every path" {
  for c in "spart-kin" "spart-jac --link 3" "spart-gim" "spart-fd" "spart-id" "spart-contact --gravity 0,0,-9.81"; do
    # shellcheck disable=SC2086
    run --separate-stderr $c -m "$M" <<< '{"um": [1, 0, 0, 0, 0, 0, 0]}'
    echo "$c: $status $stderr"
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [[ "$stderr" == "${c%% *}: <stdin>:1: no qm: the model has 7 joint coordinates and the record must give them (the configuration is never defaulted)" ]]
  done
  # CSV: the header says it before any row (the fast path, -j and spart-id's pairs of rows read
  # rows under that header only)
  rows=$'time,um_1,um_2,um_3,um_4,um_5,um_6,um_7\n0,1,0,0,0,0,0,0\n1,1,0,0,0,0,0,0'
  for j in 1 2; do
    run --separate-stderr spart-id -m "$M" --fixed-base -j $j <<< "$rows"
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [ "$stderr" = "spart-id: <stdin>:1: the header has no qm_1..qm_7: the model's joint configuration is never defaulted" ]
  done
  # the model in the record, no -m
  run --separate-stderr spart-fd <<< "{\"robot\": $(urdf2robot "$M"), \"taum\": [1, 0, 0, 0, 0, 0, 0]}"
  [ "$status" -eq 1 ]
  [[ "$stderr" == "spart-fd: <stdin>:1: no qm: "* ]]
  # spart-sim's initial state
  run --separate-stderr spart-sim -m "$M" --duration 0.01 <<< '{"taum": [1, 0, 0, 0, 0, 0, 0]}'
  [ "$status" -eq 1 ]
  [[ "$stderr" == "spart-sim: <stdin>:1: no qm: "* ]]
  # -k: each such record reported, the others computed
  run --separate-stderr spart-kin -k -m "$M" --only r_com <<< $'{"um": [1, 0, 0, 0, 0, 0, 0]}\n{"qm": '"$Q7"$'}\n{}'
  [ "$status" -eq 1 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ "${stderr_lines[0]}" == "spart-kin: <stdin>:1: no qm: "* ]]
  # a model without moving joints needs none
  run --separate-stderr spart-kin -m "$MODELS/Simple_Spacecraft.urdf" --only r_com <<< '{"u0": [0, 0, 1, 0, 0, 0]}'
  [ "$status" -eq 0 ]
  [ "$output" != "" ]
}

@test "another command's outputs piped on without --keep-state: refused, the message names --keep-state" {
  s='{"qm": '"$Q7"', "um": [0.1, 0, 0, 0, 0, 0, 0], "umdot": [1, 2, 3, 4, 5, 6, 7]}'
  # spart-id's taum into spart-fd (today at q = 0: umdot far from the one it started from)
  run --separate-stderr bash -c 'spart-id -m "$0" --fixed-base --gravity 0,0,-9.81 -o csv <<< "$1" | spart-fd -m "$0" --fixed-base --gravity 0,0,-9.81' "$M" "$s"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "spart-fd: <stdin>:1: the header has no qm_1..qm_7: the model's joint configuration is never defaulted; if it is another command's output (it gives taum), give that command --keep-state to pass on the state it read" ]
  # spart-fd's umdot into spart-id, JSON
  run --separate-stderr bash -c 'spart-fd -m "$0" --fixed-base <<< "$1" | spart-id -m "$0" --fixed-base' "$M" "$s"
  [ "$status" -eq 1 ]
  [[ "$stderr" == "spart-id: <stdin>:1: no qm: "*"(it gives umdot), give that command --keep-state to pass on the state it read" ]]
  # with --keep-state the pipeline gives back the accelerations it started from
  run --separate-stderr bash -c 'spart-id -m "$0" --fixed-base --gravity 0,0,-9.81 --keep-state <<< "$1" | spart-fd -m "$0" --fixed-base --gravity 0,0,-9.81 --only umdot' "$M" "$s"
  [ "$status" -eq 0 ]
  python3 -c 'import json, sys
u = json.loads(sys.argv[1])["umdot"]
assert max(abs(a - b) for a, b in zip(u, range(1, 8))) < 1e-9, u' "$output"
}

@test "other toolkits' names are refused with spart's field, in JSON keys and CSV columns" {
  base='"qm": [0, 0, 0, 0, 0, 0, 0]'
  check() { # KEY-OR-COLUMN SPART-FIELD TOOLKIT
    run --separate-stderr spart-id -m "$M" --fixed-base <<< "{$base, \"$1\": [1, 1, 1, 1, 1, 1, 1]}"
    echo "$1: $status $output $stderr"
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [[ "$stderr" == "spart-id: <stdin>:1: key '$1': '$1' ($3) is $2 here"* ]]
    run --separate-stderr spart-id -m "$M" --fixed-base -o csv <<< "qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7,${1}_1"$'\n0,0,0,0,0,0,0,1'
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [[ "$stderr" == "spart-id: <stdin>:1: column '${1}_1': '$1' ($3) is $2 here"* ]]
  }
  check qdd umdot "Robotics Toolbox"
  check qd um "Robotics Toolbox"
  check q qm "Pinocchio, RigidBodyDynamics.jl, Robotics Toolbox"
  check dq um libfranka
  check ddq umdot libfranka
  check v um "Pinocchio, RigidBodyDynamics.jl"
  check a umdot Pinocchio
  check tau taum "Pinocchio, Robotics Toolbox"
  check position qm "ROS joint_states"
  check velocity um "ROS joint_states"
  check effort taum "ROS joint_states"
  # digits run on, and a joint's name after a dot
  for h in q1 qd1 position.joint_a; do
    run --separate-stderr spart-kin -m "$M" -o csv <<< "qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7,$h"$'\n0,0,0,0,0,0,0,1'
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"column '$h': "*" here"* ]]
  done
  # names of the user's own that merely start like one pass through; case matters (volts)
  run --separate-stderr spart-kin -m "$M" -o csv --only r_com <<< $'V,A,quality,tau_note,qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\n1,2,3,4,0,0,0,0,0,0,0'
  [ "$status" -eq 0 ]
  [[ "${lines[0]}" == V,A,quality,tau_note,r_com_1,r_com_2,r_com_3 ]]
  run --separate-stderr spart-kin -m "$M" --only r_com <<< "{$base, \"V\": 1, \"velocity_note\": \"x\"}"
  [ "$status" -eq 0 ]
  [[ "$output" == '{"V":1,"velocity_note":"x","r_com":'* ]]
}

@test "a state field's name in another case is refused by joint name as by index, CSV and JSON" {
  # CSV columns FIELD.JOINT in another case (they passed through while um was computed as 0)
  for f in UM Um uM Umdot UMDOT Qm TAUM; do
    low=$(tr '[:upper:]' '[:lower:]' <<< "$f")
    run --separate-stderr spart-kin -m "$M" --energy -o csv <<< "qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7,$f.lbr_iiwa_joint_1"$'\n0,0,0,0,0,0,0,1'
    echo "$f: $status $output $stderr"
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [ "$stderr" = "spart-kin: <stdin>:1: column '$f.lbr_iiwa_joint_1' is not a state column: state columns are ${low}_I or $low.JOINT (case matters)" ]
    # as by index
    run --separate-stderr spart-kin -m "$M" --energy -o csv <<< "qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7,${f}_1"$'\n0,0,0,0,0,0,0,1'
    [ "$status" -eq 1 ]
    [[ "$stderr" == "spart-kin: <stdin>:1: column '${f}_1' is not a state column: state columns are ${low}_I (case matters)" ]]
  done
  # a field that joints do not name, by a joint's name
  run --separate-stderr spart-kin -m "$M" -o csv <<< $'r0.x,qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\n1,0,0,0,0,0,0,0'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-kin: <stdin>:1: column 'r0.x' is not a state column: state columns are r0_I" ]
  # JSON: a key named as a CSV column by joint name, in any case (it passed through)
  for k in um.lbr_iiwa_joint_1 UM.lbr_iiwa_joint_1 Umdot.lbr_iiwa_joint_2; do
    run --separate-stderr spart-kin -m "$M" --energy <<< "{\"qm\": $Q7, \"$k\": 1}"
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [[ "$stderr" == "spart-kin: <stdin>:1: key '$k' is not a state field: the field is u"*", an array or an object keyed by joint name (case matters)" ]]
  done
  # the right names are read: the kinetic energy of um.JOINT is that of um_I
  named=$(printf ',um.lbr_iiwa_joint_%d' 1 2 3 4 5 6 7)
  e1=$(spart-kin -m "$M" --energy --only kinetic_energy -o csv <<< "qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7$named"$'\n0,0,0,0,0,0,0,0,1,0,0,0,0,0' | tail -n 1)
  e2=$(spart-kin -m "$M" --energy --only kinetic_energy -o csv <<< "qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7,um_1,um_2,um_3,um_4,um_5,um_6,um_7"$'\n0,0,0,0,0,0,0,0,1,0,0,0,0,0' | tail -n 1)
  [ "$e1" = "$e2" ]
  python3 -c 'import sys; assert float(sys.argv[1]) > 0.01' "$e1"
}

@test "other toolkits' names in another case are refused with spart's field, but V, A and Q pass through" {
  base='"qm": [0, 0, 0, 0, 0, 0, 0]'
  for n in QD:um Qdd:umdot DQ:um Tau:taum TAU:taum Position:qm VELOCITY:um Effort:taum Vd:umdot; do
    k=${n%%:*} f=${n#*:}
    run --separate-stderr spart-id -m "$M" --fixed-base <<< "{$base, \"$k\": [1, 1, 1, 1, 1, 1, 1]}"
    echo "$k: $status $output $stderr"
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [[ "$stderr" == "spart-id: <stdin>:1: key '$k': '"*"' ("*") is $f here"* ]]
    for h in "${k}_1" "$k.lbr_iiwa_joint_1"; do
      run --separate-stderr spart-id -m "$M" --fixed-base -o csv <<< "qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7,$h"$'\n0,0,0,0,0,0,0,1'
      [ "$status" -eq 1 ]
      [ -z "$output" ]
      [[ "$stderr" == "spart-id: <stdin>:1: column '$h': '"*"' ("*") is $f here"* ]]
    done
  done
  run --separate-stderr spart-kin -m "$M" -o csv --only r_com <<< $'V,A,Q,Tau_note,qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\n1,2,3,4,0,0,0,0,0,0,0'
  [ "$status" -eq 0 ]
  [[ "${lines[0]}" == V,A,Q,Tau_note,r_com_1,r_com_2,r_com_3 ]]
}

@test "a pass-through column named like a scalar output is in_NAME in CSV as in JSON" {
  run --separate-stderr spart-kin -m "$MODELS/SC_3DoF.urdf" --energy --only kinetic_energy -o csv <<< $'kinetic_energy,qm_1,qm_2,qm_3,um_1,um_2,um_3\n5,0,0,0,1,0,0'
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "in_kinetic_energy,kinetic_energy" ]
  [[ "${lines[1]}" == 5,* ]]
  run --separate-stderr spart-kin -m "$MODELS/SC_3DoF.urdf" --energy --only kinetic_energy <<< '{"kinetic_energy": 5, "qm": [0, 0, 0], "um": [1, 0, 0]}'
  [[ "$output" == '{"in_kinetic_energy":5,"kinetic_energy":'* ]]
  # spart-sim's t: its output reads back into the next command
  run --separate-stderr bash -c 'printf "t,qm_1,qm_2,qm_3\n5,0.1,0.2,0.3\n" | spart-sim -m "$0" --fixed-base --duration 0.002 --dt 0.001 -o csv' "$MODELS/SC_3DoF.urdf"
  [ "$status" -eq 0 ]
  [[ "${lines[0]}" == in_t,t,R0_1_1,* ]]
  [ "${#lines[@]}" -eq 4 ]
  run --separate-stderr bash -c 'printf "t,qm_1,qm_2,qm_3\n5,0.1,0.2,0.3\n" | spart-sim -m "$0" --fixed-base --duration 0.002 --dt 0.001 -o csv | spart-kin -m "$0" --only r_com -o csv' "$MODELS/SC_3DoF.urdf"
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "in_t,t,r_com_1,r_com_2,r_com_3" ]
}

@test "states by joint name: JSON objects and CSV qm.JOINT columns give the positional outputs' bytes" {
  q=$(names "$Q7")
  u=$(names '[0.5, -1, 2, 0.25, 0, 3, -2]')
  a=$(names '[1, 2, 3, 4, 5, 6, 7]')
  pos='"qm": '"$Q7"', "um": [0.5, -1, 2, 0.25, 0, 3, -2]'
  byn='"qm": '"$q"', "um": '"$u"
  # each command with the fields it reads (one it does not read passes through as it came)
  for c in "spart-id --fixed-base --gravity 0,0,-9.81:umdot" "spart-kin:umdot" "spart-fd:taum" "spart-gim --coriolis:" "spart-jac --link 7 --dot:"; do
    f=${c#*:}
    more=${f:+, \"$f\": [1, 2, 3, 4, 5, 6, 7]}
    mbyn=${f:+, \"$f\": $a}
    # shellcheck disable=SC2086
    want=$(${c%:*} -m "$M" <<< "{$pos$more}")
    # shellcheck disable=SC2086
    got=$(${c%:*} -m "$M" <<< "{$byn$mbyn}")
    [ -n "$want" ] && [ "$want" = "$got" ] || { echo "$c: $want / $got"; false; }
  done
  # CSV, columns in any order, one thread and two (the fast path, -j)
  python3 - "$BATS_TEST_TMPDIR" <<'PY'
import random, sys
random.seed(7)
d = sys.argv[1]
rows = [[random.uniform(-1, 1) for _ in range(14)] for _ in range(3000)]
with open(d + "/pos.csv", "w") as f:
    f.write("time," + ",".join("qm_%d" % k for k in range(1, 8)) + "," + ",".join("um_%d" % k for k in range(1, 8)) + "\n")
    for i, r in enumerate(rows):
        f.write("%d," % i + ",".join(repr(x) for x in r) + "\n")
cols = ["qm.lbr_iiwa_joint_%d" % k for k in range(1, 8)] + ["um.lbr_iiwa_joint_%d" % k for k in range(1, 8)]
order = list(range(14))
random.shuffle(order)
with open(d + "/name.csv", "w") as f:
    f.write("time," + ",".join(cols[k] for k in order) + "\n")
    for i, r in enumerate(rows):
        f.write("%d," % i + ",".join(repr(r[k]) for k in order) + "\n")
PY
  for j in 1 2; do
    want=$(spart-id -m "$M" --fixed-base --gravity 0,0,-9.81 -j $j < "$BATS_TEST_TMPDIR/pos.csv")
    got=$(spart-id -m "$M" --fixed-base --gravity 0,0,-9.81 -j $j < "$BATS_TEST_TMPDIR/name.csv")
    [ "$(wc -l <<< "$want")" -eq 3001 ]
    [ "$want" = "$got" ]
  done
  # multi-coordinate joints: qm.JOINT.K, JSON arrays
  fq='"qm": [0.3, 0.5, 0.5, 0.5, 0.5, 1, 2, 3, -0.2, 0.4]'
  pos=$(spart-fd -m "$J/floating_tree.urdf" <<< "{$fq, \"taum\": [1, 2, 3, 4, 5, 6, 7, 8, 9]}")
  byn=$(spart-fd -m "$J/floating_tree.urdf" <<< '{"qm": {"j1": 0.3, "fl": [0.5, 0.5, 0.5, 0.5, 1, 2, 3], "el": -0.2, "side": 0.4}, "taum": {"side": 9, "el": 8, "fl": [2, 3, 4, 5, 6, 7], "j1": 1}}')
  [ -n "$pos" ] && [ "$pos" = "$byn" ]
  csv=$(spart-fd -m "$J/floating_tree.urdf" -o json <<< $'qm.j1,qm.fl.1,qm.fl.2,qm.fl.3,qm.fl.4,qm.fl.5,qm.fl.6,qm.fl.7,qm.el,qm.side,taum_1,taum_2,taum_3,taum_4,taum_5,taum_6,taum_7,taum_8,taum_9\n0.3,0.5,0.5,0.5,0.5,1,2,3,-0.2,0.4,1,2,3,4,5,6,7,8,9')
  [ "$pos" = "$csv" ]
}

@test "by joint name: every moving joint once, names the model has (the nearest named), no value twice" {
  bad() { # INPUT MESSAGE [FORMAT]
    run --separate-stderr spart-kin -m "$M" --only r_com <<< "$1"
    echo "$stderr"
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [ "$stderr" = "spart-kin: <stdin>:1: $2" ]
  }
  bad '{"qm": {"lbr_iiwa_joint_1": 0.1}}' "qm by joint name gives no 'lbr_iiwa_joint_2': every joint's values are given"
  bad '{"qm": {"lbr_iiwa_joint_1": 0.1, "lbr_iiwa_jiont_2": 0}}' "qm: the model has no joint 'lbr_iiwa_jiont_2'; the nearest is 'lbr_iiwa_joint_2'"
  bad '{"qm": {"lbr_iiwa_joint_1": [0.1]}}' "qm.lbr_iiwa_joint_1 is not a finite number"
  bad $'time,qm.lbr_iiwa_joint_1,qm_1\n0,1,2' "columns 'qm.lbr_iiwa_joint_1' and 'qm_1' give the same value"
  bad $'qm.lbr_iiwa_joint_9\n1' "qm: the model has no joint 'lbr_iiwa_joint_9'; the nearest is 'lbr_iiwa_joint_1'"
  bad $'qm.lbr_iiwa_joint_1.1\n1' "column 'qm.lbr_iiwa_joint_1.1': joint 'lbr_iiwa_joint_1' has 1 value: the column is qm.lbr_iiwa_joint_1"
  bad $'qm.lbr_iiwa_joint_1,qm.lbr_iiwa_joint_2\n1,2' "qm has 2 columns, model needs 7: no column qm.lbr_iiwa_joint_3, qm.lbr_iiwa_joint_4, qm.lbr_iiwa_joint_5 and 2 more"
  run --separate-stderr spart-kin -m "$J/floating_tree.urdf" <<< $'qm.fl\n1'
  [ "$stderr" = "spart-kin: <stdin>:1: column 'qm.fl': joint 'fl' has 7 values: columns qm.fl.1..qm.fl.7" ]
  run --separate-stderr spart-kin -m "$J/floating_tree.urdf" <<< $'um.fl.7\n1'
  [ "$stderr" = "spart-kin: <stdin>:1: column 'um.fl.7': joint 'fl' has 6 values" ]
  # a fixed joint has no coordinate
  run --separate-stderr spart-kin -m "$MODELS/SC_3DoF.urdf" <<< '{"qm": {"Joint_1": 0, "Joint_2": 0, "Joint_3": 0, "Joint_EE": 0}}'
  [ "$stderr" = "spart-kin: <stdin>:1: qm: joint 'Joint_EE' is fixed: it has no coordinate" ]
}

@test "a CSV field given by some of its joints' columns names the joints' columns it lacks" {
  # the iiwa without joint 1's column, by name: its name, not only a count
  h=$(printf 'qm.lbr_iiwa_joint_%d,' 2 3 4 5 6 7)
  run --separate-stderr spart-kin -m "$M" --only r_com <<< "${h%,}"$'\n1,2,3,4,5,6'
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "spart-kin: <stdin>:1: qm has 6 columns, model needs 7: no column qm.lbr_iiwa_joint_1" ]
  # a joint of several values and one of one, by name beside a field by index
  run --separate-stderr spart-kin -m "$J/floating_tree.urdf" --only r_com <<< $'qm.j1,qm.fl.1,qm.fl.2,qm.fl.3,qm.fl.4,qm.fl.5,qm.fl.6,um_1\n0,1,0,0,0,0,0,1'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-kin: <stdin>:1: qm has 7 columns, model needs 10: no column qm.fl.7, qm.el, qm.side" ]
  # by index, the indices
  run --separate-stderr spart-kin -m "$M" --only r_com <<< $'qm_1,qm_2,qm_3,qm_5,qm_6,qm_7\n1,2,3,4,5,6'
  [ "$stderr" = "spart-kin: <stdin>:1: qm has 6 columns, model needs 7: no column qm_4" ]
}

@test "--by-name CSV headers quote joint names as RFC 4180 says and keep them whole: they read back to the same numbers" {
  # the iiwa with joints named with a comma, quotes, a line break, blanks at an end, and two
  # 600-byte names alike in their first 590 (cut at 511 bytes, they were one column's name)
  T="$BATS_TEST_TMPDIR"
  python3 - "$M" "$T/odd.urdf" <<'PY'
import sys
s = open(sys.argv[1]).read()
names = ["a,b", 'say &quot;hi&quot;', "j" * 590 + "0123456789", "j" * 590 + "9876543210",
         "two&#10;lines", " padded ", "#7"]
for k, n in enumerate(names):
    s = s.replace('name="lbr_iiwa_joint_%d"' % (k + 1), 'name="%s"' % n)
open(sys.argv[2], "w").write(s)
PY
  spart-states -m "$T/odd.urdf" --random 3 --seed 5 --velocities --accelerations -o csv > "$T/s.csv"
  run --separate-stderr spart-states -m "$T/odd.urdf" --normalize --by-name -o csv "$T/s.csv"
  [ "$status" -eq 0 ]
  printf '%s\n' "$output" > "$T/named.csv"
  # the header is RFC 4180's: each joint's column named whole
  python3 - "$T/named.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
names = ["a,b", 'say "hi"', "j" * 590 + "0123456789", "j" * 590 + "9876543210", "two\nlines",
         " padded ", "#7"]
assert rows[0][-7:] == ["qm." + n for n in names], rows[0]
assert len(rows) == 4 and all(len(r) == len(rows[0]) for r in rows), rows
PY
  # read back: spart-id computes what it computes from the states by index
  a=$(spart-id -m "$T/odd.urdf" --gravity 0,0,-9.81 --only taum -o csv < "$T/s.csv")
  run --separate-stderr spart-id -m "$T/odd.urdf" --gravity 0,0,-9.81 --only taum -o csv < "$T/named.csv"
  [ "$status" -eq 0 ]
  [ -n "$a" ] && [ "$output" = "$a" ]
  # taum by name, with the state by name, into spart-fd: the accelerations it started from
  spart-id -m "$T/odd.urdf" --gravity 0,0,-9.81 --keep-state --by-name -o csv < "$T/named.csv" > "$T/id.csv"
  head -c 2000 "$T/id.csv" | grep -q '"taum.a,b","taum.say ""hi""",taum.jjj'
  spart-fd -m "$T/odd.urdf" --gravity 0,0,-9.81 --only umdot -o json < "$T/id.csv" > "$T/fd.jsonl"
  python3 - "$T/s.csv" "$T/fd.jsonl" <<'PY'
import csv, json, sys
given = [[float(r["umdot_%d" % k]) for k in range(1, 8)] for r in csv.DictReader(open(sys.argv[1]))]
got = [json.loads(l)["umdot"] for l in open(sys.argv[2])]
assert len(got) == len(given) == 3, (got, given)
err = max(abs(a - b) for g, w in zip(got, given) for a, b in zip(g, w))
assert err < 1e-9, err
PY
}

@test "--by-name writes the joints' vectors keyed by joint name; -j gives the same bytes" {
  run --separate-stderr spart-id -m "$MODELS/SC_3DoF.urdf" --fixed-base --gravity 0,0,-9.81 --by-name --only taum <<< '{"qm": [0.3, 0.5, 0]}'
  [ "$status" -eq 0 ]
  pos=$(spart-id -m "$MODELS/SC_3DoF.urdf" --fixed-base --gravity 0,0,-9.81 --only taum <<< '{"qm": [0.3, 0.5, 0]}')
  python3 -c 'import json, sys
a, b = json.loads(sys.argv[1]), json.loads(sys.argv[2])
assert list(a["taum"]) == ["Joint_1", "Joint_2", "Joint_3"], a
assert list(a["taum"].values()) == b["taum"], (a, b)' "$output" "$pos"
  run --separate-stderr spart-id -m "$MODELS/SC_3DoF.urdf" --fixed-base --gravity 0,0,-9.81 --by-name --only taum -o csv <<< '{"qm": [0.3, 0.5, 0]}'
  [ "${lines[0]}" = "taum.Joint_1,taum.Joint_2,taum.Joint_3" ]
  # a ball joint's quaternion: an array, CSV qm.JOINT.K; the output reads back as input
  run --separate-stderr spart-sim -m "$J/floating_tree.urdf" --duration 0.002 --dt 0.001 --by-name -o csv <<< '{"qm": [0.3, 0.5, 0.5, 0.5, 0.5, 1, 2, 3, -0.2, 0.4]}'
  [ "$status" -eq 0 ]
  [[ "${lines[0]}" == *",qm.j1,qm.fl.1,qm.fl.2,qm.fl.3,qm.fl.4,qm.fl.5,qm.fl.6,qm.fl.7,qm.el,qm.side,"*",um.fl.6,um.el,um.side" ]]
  a=$(spart-sim -m "$J/floating_tree.urdf" --duration 0.002 --dt 0.001 --by-name -o csv <<< '{"qm": [0.3, 0.5, 0.5, 0.5, 0.5, 1, 2, 3, -0.2, 0.4]}' | spart-kin -m "$J/floating_tree.urdf" --only rL)
  b=$(spart-sim -m "$J/floating_tree.urdf" --duration 0.002 --dt 0.001 -o csv <<< '{"qm": [0.3, 0.5, 0.5, 0.5, 0.5, 1, 2, 3, -0.2, 0.4]}' | spart-kin -m "$J/floating_tree.urdf" --only rL)
  [ -n "$a" ] && [ "$a" = "$b" ]
  # -j: the bytes of one thread
  seq 0 0.0001 2 | awk '{ print "{\"qm\": [" $1 ", 0.5, 0]}" }' > "$BATS_TEST_TMPDIR/s.jsonl"
  one=$(spart-id -m "$MODELS/SC_3DoF.urdf" --by-name -o csv < "$BATS_TEST_TMPDIR/s.jsonl")
  two=$(spart-id -m "$MODELS/SC_3DoF.urdf" --by-name -o csv -j 2 < "$BATS_TEST_TMPDIR/s.jsonl")
  [ "$one" = "$two" ]
  [[ "$one" == *taum.Joint_3* ]]
  # a command without a joint vector among its outputs: a usage error
  run --separate-stderr spart-gim -m "$M" --by-name <<< '{}'
  [ "$status" -eq 2 ]
  [[ "$stderr" == "spart-gim: --by-name: spart-gim writes no joint vector"* ]]
}
