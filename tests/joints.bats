#!/usr/bin/env bats
# Joint kinds of several coordinates (issue 13): floating, ball (spherical), planar in URDF, the
# `world` idiom, the summary, the model JSON's n_v.  Their dynamics against chains of one-dof
# joints: tests/unit/test_kinds.c (tests/lib.bats).

load helper

J="$BATS_TEST_DIRNAME/data/joints"

setup() {
  T="$BATS_TEST_TMPDIR"
}

# URDF with a world link and a floating joint to the root of $1, into $2
with_world() {
  sed '/<robot name/a\
  <link name="world"/>\
  <joint name="world_joint" type="floating">\
    <origin xyz="1 2 3" rpy="0.1 0.2 0.3"/>\
    <parent link="world"/>\
    <child link="'"$3"'"/>\
  </joint>' "$1" > "$2"
}

@test "the world idiom: a floating joint from an inertia-less root with no other child is the base" {
  with_world "$MODELS/branched_arm.urdf" "$T/w.urdf" base
  grep -q 'link name="world"' "$T/w.urdf"
  urdf2robot "$T/w.urdf" > "$T/w.json"
  urdf2robot "$MODELS/branched_arm.urdf" > "$T/b.json"
  cmp "$T/w.json" "$T/b.json"
  urdf2robot --summary "$T/w.urdf" > "$T/w.txt"
  urdf2robot --summary "$MODELS/branched_arm.urdf" | cmp - "$T/w.txt"
  rec='{"qm": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6], "um": [1, 2, 3, 4, 5, 6], "u0": [0.1, 0, 0.2, 1, 2, 3]}'
  for cmd in "spart-id" "spart-gim" "spart-kin" "spart-jac --link 3"; do
    a=$($cmd -m "$T/w.urdf" <<< "$rec")
    b=$($cmd -m "$MODELS/branched_arm.urdf" <<< "$rec")
    [ -n "$a" ] && [ "$a" = "$b" ]
  done
}

@test "a floating joint elsewhere is a joint of the tree: a world link with inertia or two children" {
  with_world "$MODELS/branched_arm.urdf" "$T/w.urdf" base
  sed 's|<link name="world"/>|<link name="world"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>|' "$T/w.urdf" > "$T/wi.urdf"
  run urdf2robot --summary "$T/wi.urdf"
  [ "$status" -eq 0 ]
  [[ "$output" == *"0 world  mass 1"* ]]
  [[ "$output" == *"<- joint 1 world_joint floating nq 7 nv 6 q 1..7 v 1..6"* ]]
  [[ "$output" == *$'n_q 13\nn_v 12\n'* ]]
}

@test "floating, ball, spherical and planar joints are read; the summary gives kind, nq, nv, q and v" {
  run urdf2robot --summary "$J/floating_tree.urdf"
  [ "$status" -eq 0 ]
  [[ "$output" == *"<- joint 1 j1 revolute axis 0 0 1 q 1 v 1"* ]]
  [[ "$output" == *"<- joint 2 fl floating nq 7 nv 6 q 2..8 v 2..7"* ]]
  [[ "$output" == *"<- joint 3 el revolute axis 0 1 0 q 9 v 8"* ]]
  [[ "$output" == *$'n_q 10\nn_v 9\nn_links_joints 4'* ]]
  run urdf2robot --summary "$J/ball.urdf"
  [[ "$output" == *"<- joint 1 sh ball nq 4 nv 3 q 1..4 v 1..3"* ]]
  run urdf2robot --summary "$J/planar.urdf"
  [[ "$output" == *"<- joint 1 pl planar axis 0 0 1 nq 3 nv 3 q 1..3 v 1..3"* ]]
  sed 's/type="ball"/type="spherical"/' "$J/ball.urdf" > "$T/s.urdf"
  urdf2robot "$T/s.urdf" | cmp - <(urdf2robot "$J/ball.urdf")
}

@test "the model JSON of a model with quaternions has n_v, reads back the same, and n_v is checked" {
  urdf2robot "$J/floating_tree.urdf" > "$T/f.json"
  grep -q '"n_v":	9' "$T/f.json"
  grep -q '"type":	3' "$T/f.json"
  urdf2robot "$T/f.json" | cmp - "$T/f.json"
  ! grep -q n_v <(urdf2robot "$MODELS/kuka_iiwa.urdf")
  sed 's/"n_v":	9/"n_v":	10/' "$T/f.json" > "$T/g.json"
  run --separate-stderr urdf2robot "$T/g.json"
  [ "$status" -ne 0 ]
  [[ "$stderr" == *"n_v: expected 9 (the joints' degrees of freedom), got 10" ]]
  sed 's/"type":	3/"type":	6/' "$T/f.json" > "$T/g.json"
  run --separate-stderr urdf2robot "$T/g.json"
  [[ "$stderr" == *"type 6, expected 0 (fixed), 1 (revolute), 2 (prismatic), 3 (floating), 4 (ball) or 5 (planar)"* ]]
}
