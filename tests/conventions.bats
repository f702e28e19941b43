#!/usr/bin/env bats
# Conventions users bring from ROS and Pinocchio: a robot bolted to the world (a root link named
# world, massless, with a fixed joint) is a fixed base; gravity kept with the model; the same
# --check-limits in every command that has it; what the README says of -l and of quaternions.

load helper

setup() {
  T=$BATS_TEST_TMPDIR
  # a pendulum bolted 0.5 m above the world's origin: one revolute joint about y, its 1 kg link's
  # CoM 0.5 m along x, 0.1 kg m^2 about its CoM
  cat > "$T/table.urdf" <<'EOF'
<robot name="table">
  <link name="world"/>
  <joint name="bolt" type="fixed"><parent link="world"/><child link="base"/><origin xyz="0 0 0.5"/></joint>
  <link name="base"><inertial><mass value="2"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 1 0"/><origin xyz="0 0 0.1"/>
    <limit lower="-1" upper="1" effort="5" velocity="2"/></joint>
  <link name="arm"><inertial><origin xyz="0.5 0 0"/><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
</robot>
EOF
  # the same robot without the idiom: its root is the base link
  sed -e '/link name="world"/d' -e '/joint name="bolt"/d' "$T/table.urdf" > "$T/free.urdf"
}

# the one number of a JSON output field: field KEY INDEX < JSON
field() {
  python3 -c 'import json, sys; print(repr(json.loads(sys.stdin.readline())[sys.argv[1]][int(sys.argv[2])]))' "$1" "$2"
}

@test "a URDF bolted to a world link is a fixed base: spart-fd holds it, umdot = m g l / I" {
  run --separate-stderr spart-fd -m "$T/table.urdf" --gravity 0,0,-9.81 <<< '{"qm": [0]}'
  [ "$status" -eq 0 ]
  # no base acceleration written: the base does not fall (8e0d7f7: u0dot_6 = -9.81)
  [[ "$output" != *u0dot* ]]
  # the pendulum level: torque m g l = 9.81 * 0.5, inertia about the axis 0.1 + 1 * 0.5^2
  run -0 python3 -c 'import json, sys
u = json.loads(sys.argv[1])["umdot"][0]
assert abs(u - 9.81 * 0.5 / 0.35) < 1e-12, u' "$output"
  # as the same model with --fixed-base given, and as the URDF without the idiom held fixed
  diff <(spart-fd -m "$T/table.urdf" --gravity 0,0,-9.81 <<< '{"qm": [0.3]}') \
    <(spart-fd -m "$T/table.urdf" --gravity 0,0,-9.81 --fixed-base <<< '{"qm": [0.3]}')
  diff <(spart-fd -m "$T/table.urdf" --gravity 0,0,-9.81 <<< '{"qm": [0.3]}') \
    <(spart-fd -m "$T/free.urdf" --gravity 0,0,-9.81 --fixed-base <<< '{"qm": [0.3]}')
  # --floating-base overrides it: the whole robot falls freely
  run -0 spart-fd -m "$T/table.urdf" --gravity 0,0,-9.81 --floating-base <<< '{"qm": [0]}'
  [ "$(echo "$output" | field u0dot 5)" = "-9.810000000000002" ]
  run -2 spart-fd -m "$T/table.urdf" --fixed-base --floating-base <<< '{"qm": [0]}'
}

@test "every command that takes --fixed-base reads the bolted model as with it" {
  local s='{"qm": [0.3], "um": [0.2], "umdot": [0.1], "taum": [1]}'
  local cmd
  for cmd in spart-id spart-fd "spart-gim --coriolis" "spart-sim --duration 0.01 --every 5"; do
    # shellcheck disable=SC2086
    diff <($cmd -m "$T/table.urdf" --gravity 0,0,-9.81 <<< "$s") \
      <($cmd -m "$T/table.urdf" --gravity 0,0,-9.81 --fixed-base <<< "$s")
    # a base that moves is refused, as with --fixed-base; --floating-base lets it move
    # shellcheck disable=SC2086
    run -1 $cmd -m "$T/table.urdf" --gravity 0,0,-9.81 <<< '{"qm": [0.3], "u0": [0, 0, 0, 1, 0, 0]}'
    [[ "$output" == *"u0 and u0dot must be zero"* ]]
    # shellcheck disable=SC2086
    run -0 $cmd -m "$T/table.urdf" --gravity 0,0,-9.81 --floating-base <<< '{"qm": [0.3], "u0": [0, 0, 0, 1, 0, 0]}'
  done
  # where the base's freedom shows in the numbers, --floating-base changes them (spart-id's
  # forces at a base held still are the same: tau0 is then the base's reaction)
  for cmd in spart-fd "spart-gim --coriolis" "spart-sim --duration 0.01 --every 5"; do
    # shellcheck disable=SC2086
    if diff <($cmd -m "$T/table.urdf" --gravity 0,0,-9.81 <<< "$s") \
      <($cmd -m "$T/table.urdf" --gravity 0,0,-9.81 --floating-base <<< "$s") > /dev/null; then
      echo "$cmd: the same with --floating-base"
      false
    fi
  done
  # the model in the record, as with -m
  urdf2robot "$T/table.urdf" > "$T/table.json"
  diff <(python3 -c 'import json, sys; print(json.dumps({"robot": json.load(open(sys.argv[1])), "qm": [0.3]}))' "$T/table.json" |
           spart-fd --gravity 0,0,-9.81 --only umdot) \
    <(spart-fd -m "$T/table.urdf" --gravity 0,0,-9.81 --fixed-base --only umdot <<< '{"qm": [0.3]}')
}

@test "the model JSON and --summary say the base: fixed to the world, or floating; urdf2robot's options override" {
  run -0 urdf2robot "$T/table.urdf"
  [ "$(echo "$output" | python3 -c 'import json, sys; print(json.load(sys.stdin)["fixed_base"])')" = True ]
  run -0 urdf2robot --summary "$T/table.urdf"
  [[ "$output" == *$'\n'"base: fixed to the world"* ]]
  run -0 urdf2robot --summary "$T/free.urdf"
  [[ "$output" == *$'\n'"base: floating"* ]]
  run -0 urdf2robot "$T/free.urdf"
  [[ "$output" != *fixed_base* ]]
  # the bundled models have no such world link: they stay floating, as SPART computes them
  local f
  for f in "$MODELS"/*.urdf; do
    run -0 urdf2robot --summary "$f"
    [[ "$output" == *$'\n'"base: floating"* ]]
  done
  run -0 urdf2robot --floating-base "$T/table.urdf"
  [[ "$output" != *fixed_base* ]]
  run -0 urdf2robot --fixed-base "$T/free.urdf"
  [[ "$output" == *'"fixed_base":'*true* ]]
  # read back: a model JSON keeps it; a bad value is refused with its key
  urdf2robot --fixed-base "$T/free.urdf" > "$T/fixed.json"
  run -0 urdf2robot --summary "$T/fixed.json"
  [[ "$output" == *$'\n'"base: fixed to the world"* ]]
  sed 's/"fixed_base":[[:space:]]*true/"fixed_base": 1/' "$T/fixed.json" > "$T/bad.json"
  run -1 urdf2robot "$T/bad.json"
  [[ "$output" == *fixed_base* ]]
}

@test "urdf2robot and dh2robot --gravity keep gravity in the model: every command uses it unless given --gravity" {
  run -0 urdf2robot --gravity 0,0,-9.81 "$MODELS/kuka_iiwa.urdf"
  echo "$output" > "$T/iiwa.json"
  run -0 urdf2robot --summary "$T/iiwa.json"
  [[ "$output" == *$'\n'"gravity 0 0 -9.81"* ]]
  run -0 urdf2robot --summary "$MODELS/kuka_iiwa.urdf"
  [[ "$output" == *$'\n'"gravity: none"* ]]
  local q='{"qm": [0, 0.5, 0, -1, 0, 0.5, 0]}'
  # the model's gravity, as --gravity given
  diff <(spart-id -m "$T/iiwa.json" --fixed-base <<< "$q") \
    <(spart-id -m "$MODELS/kuka_iiwa.urdf" --fixed-base --gravity 0,0,-9.81 <<< "$q")
  diff <(spart-gim -m "$T/iiwa.json" --fixed-base --only G <<< "$q") \
    <(spart-gim -m "$MODELS/kuka_iiwa.urdf" --fixed-base --gravity 0,0,-9.81 --only G <<< "$q")
  diff <(spart-fd -m "$T/iiwa.json" --fixed-base <<< "$q") \
    <(spart-fd -m "$MODELS/kuka_iiwa.urdf" --fixed-base --gravity 0,0,-9.81 <<< "$q")
  diff <(spart-kin -m "$T/iiwa.json" --energy --only potential_energy <<< "$q") \
    <(spart-kin -m "$MODELS/kuka_iiwa.urdf" --energy --gravity 0,0,-9.81 --only potential_energy <<< "$q")
  diff <(spart-sim -m "$T/iiwa.json" --fixed-base --duration 0.01 --every 10 <<< "$q") \
    <(spart-sim -m "$MODELS/kuka_iiwa.urdf" --fixed-base --gravity 0,0,-9.81 --duration 0.01 --every 10 <<< "$q")
  # --gravity overrides it: none at all
  run -0 spart-id -m "$T/iiwa.json" --fixed-base --gravity 0,0,0 --only taum <<< "$q"
  [ "$output" = '{"taum":[0,0,0,0,0,0,0]}' ]
  # a DH arm too
  run -0 dh2robot --gravity 0,0,-9.81 "$MODELS/puma560.dh.json"
  echo "$output" > "$T/puma.json"
  local p='{"qm": [0, 0.8, -0.8, 0, 0.5, 0]}'
  diff <(spart-id -m "$T/puma.json" --fixed-base <<< "$p") \
    <(spart-id -m "$MODELS/puma560.dh.json" --fixed-base --gravity 0,0,-9.81 <<< "$p")
  run -0 dh2robot --summary --gravity 0,0,-9.81 "$MODELS/puma560.dh.json"
  [[ "$output" == *$'\n'"gravity 0 0 -9.81"* ]]
  run -2 urdf2robot --gravity 0,0 "$MODELS/kuka_iiwa.urdf"
}

@test "--check-limits: positions, velocities and efforts, exit 4, in spart-id, spart-kin and spart-sim" {
  # the pendulum at rest past its upper limit (qm 1.2 > 1): each command reports it, exit 4
  local s='{"qm": [1.2]}'
  run --separate-stderr spart-id -m "$T/table.urdf" --check-limits <<< "$s"
  [ "$status" -eq 4 ] && [[ "$stderr" == *"qm_1 = 1.2 > upper limit 1"* ]]
  run --separate-stderr spart-kin -m "$T/table.urdf" --check-limits <<< "$s"
  [ "$status" -eq 4 ] && [[ "$stderr" == *"qm_1 = 1.2 > upper limit 1"* ]]
  run --separate-stderr spart-sim -m "$T/table.urdf" --check-limits --duration 0.002 <<< "$s"
  [ "$status" -eq 4 ] && [[ "$stderr" == *"qm_1 = 1.2 > upper"* ]]
  [[ "$stderr" == *"1 of 1 records leave the joint limits" ]]
  # a velocity past its limit (3 > 2): each command reports it
  s='{"qm": [0], "um": [3]}'
  run --separate-stderr spart-id -m "$T/table.urdf" --check-limits <<< "$s"
  [ "$status" -eq 4 ] && [[ "$stderr" == *"um_1 = 3 exceeds velocity limit 2"* ]]
  run --separate-stderr spart-kin -m "$T/table.urdf" --check-limits <<< "$s"
  [ "$status" -eq 4 ] && [[ "$stderr" == *"um_1 = 3 exceeds velocity limit 2"* ]]
  run --separate-stderr spart-sim -m "$T/table.urdf" --check-limits --duration 0.002 <<< "$s"
  [ "$status" -eq 4 ] && [[ "$stderr" == *"um_1 = 3 exceeds velocity limit 2"* ]]
  # an effort past its limit (6 > 5): the torque spart-id computes, the torque spart-sim holds
  run --separate-stderr spart-id -m "$T/table.urdf" --check-limits <<< '{"qm": [0], "umdot": [20]}'
  [ "$status" -eq 4 ] && [[ "$stderr" == *"taum_1 = 7 exceeds effort limit 5"* ]]
  run --separate-stderr spart-sim -m "$T/table.urdf" --check-limits --duration 0.002 <<< '{"qm": [0], "taum": [6]}'
  [ "$status" -eq 4 ] && [[ "$stderr" == *"taum_1 = 6 exceeds effort limit 5"* ]]
  # within every limit: exit 0, nothing said
  for cmd in spart-id spart-kin "spart-sim --duration 0.002"; do
    # shellcheck disable=SC2086
    run --separate-stderr $cmd -m "$T/table.urdf" --check-limits <<< '{"qm": [0.1], "um": [0.5]}'
    [ "$status" -eq 0 ] && [ -z "$stderr" ]
  done
  # each command's --help says the same status
  for cmd in spart-id spart-kin spart-sim; do
    run -0 $cmd --help
    [[ "$output" == *"4 a record left the joint"*"limits (--check-limits)"* ]]
    [[ "$output" != *"(exit 1)"* ]]
  done
}

@test "the README says what -l and the quaternions are: -l is spart-jac's link, tf's order is [x,y,z,w]" {
  run -1 grep -q 'as tf gives it' "$TOP/README.md"
  run -1 grep -q 'as tf would give it' "$TOP/man/spart-kin.1"
  grep -q '\[x, *y, *z, *w\]' "$TOP/README.md"
  # every command that takes --link takes -l for it; spart-kin's links are --frame's
  local cmd
  for cmd in spart-id spart-fd spart-gim spart-kin spart-jac spart-sim spart-contact; do
    if $cmd --help | grep -Eq -- '^ +(-l, )?--link '; then
      $cmd --help | grep -q -- '-l, --link'
    fi
  done
  run -1 grep -q -- '`-l` the link,' "$TOP/README.md"
}
