#!/usr/bin/env bats
# Joint kinds of several coordinates (issue 13): floating, ball (spherical), planar in URDF, the
# `world` idiom, the summary, the model JSON's n_v.  Their dynamics against chains of one-dof
# joints: tests/unit/test_kinds.c (tests/lib.bats), and through every command
# (tests/kindcheck.py, the last test here).

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
  sed 's/"type":	3/"type":	9/' "$T/f.json" > "$T/g.json"
  run --separate-stderr urdf2robot "$T/g.json"
  [[ "$stderr" == *"type 9, expected 0 (fixed), 1 (revolute), 2 (prismatic), 3 (floating), 4 (ball), 5 (planar), 6 (sincos), 7 (spquat) or 8 (helical)"* ]]
}

@test "records: qm has n_q entries, um, umdot, taum n_v; CSV columns qm_1..qm_<n_q>, um_1..um_<n_v>" {
  run --separate-stderr spart-id -m "$J/ball.urdf" <<< '{"qm": [1, 0, 0, 0, 0.2], "um": [1, 2, 3, 4]}'
  [ "$status" -eq 0 ]
  [[ "$output" == '{"tau0":['*'],"taum":['*','*','*','*']}' ]]
  [[ "$output" != *'"taum":['*','*','*','*','*']}' ]]
  run --separate-stderr spart-id -m "$J/ball.urdf" <<< '{"qm": [1, 0, 0, 0], "um": [1, 2, 3, 4]}'
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"qm: expected 5 numbers"* || "$stderr" == *"qm"*"5"* ]]
  run --separate-stderr spart-id -m "$J/ball.urdf" <<< '{"qm": [1, 0, 0, 0, 0.2], "um": [1, 2, 3, 4, 5]}'
  [ "$status" -eq 1 ]
  run --separate-stderr spart-id -m "$J/ball.urdf" -o csv <<< $'qm_1,qm_2,qm_3,qm_4,qm_5,um_1,um_2,um_3,um_4\n1,0,0,0,0.2,1,2,3,4'
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "tau0_1,tau0_2,tau0_3,tau0_4,tau0_5,tau0_6,taum_1,taum_2,taum_3,taum_4" ]
  run --separate-stderr spart-id -m "$J/ball.urdf" -o csv <<< $'qm_1,qm_2,qm_3,qm_4,um_1\n1,0,0,0,1'
  [ "$status" -ne 0 ]
  [[ "$stderr" == *"qm has 4 columns, model needs 5"* ]]
}

@test "a joint's quaternion is normalised within 1e-6 of unit norm, else refused naming the joint" {
  a=$(spart-id -m "$J/ball.urdf" <<< '{"qm": [0.6, 0.8, 0, 0, 0.2], "um": [1, 2, 3, 4]}')
  b=$(spart-id -m "$J/ball.urdf" <<< '{"qm": [0.6000003, 0.8000004, 0, 0, 0.2], "um": [1, 2, 3, 4]}')
  python3 -c 'import json, sys
a, b = json.loads(sys.argv[1]), json.loads(sys.argv[2])
assert max(abs(x - y) for k in a for x, y in zip(a[k], b[k])) < 1e-12' "$a" "$b"
  run --separate-stderr spart-id -m "$J/ball.urdf" <<< '{"qm": [0.6, 0.81, 0, 0, 0.2]}'
  [ "$status" -eq 1 ]
  [[ "$stderr" == "spart-id: <stdin>:1: joint 'sh': quaternion of norm 1.0"*", expected 1 (within 1e-06)" ]]
  # a quaternion not given is no identity nor 0: qm is never defaulted
  run --separate-stderr spart-id -m "$J/floating_tree.urdf" <<< '{"r0": [0, 0, 0]}'
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [[ "$stderr" == "spart-id: <stdin>:1: no qm: the model has 10 joint coordinates and the record must give them"* ]]
}

@test "the base attitude as q0 [w, x, y, z] (CSV q0_1..q0_4) gives what its R0 gives; both given is refused" {
  r0='"R0": [0, 0, 1, 1, 0, 0, 0, 1, 0]'
  rec='"qm": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6], "u0": [0.1, 0, 0.2, 1, 2, 3]'
  a=$(spart-id -m "$MODELS/branched_arm.urdf" <<< "{$r0, $rec}")
  b=$(spart-id -m "$MODELS/branched_arm.urdf" <<< "{\"q0\": [0.5, 0.5, 0.5, 0.5], $rec}")
  [ -n "$a" ] && [ "$a" = "$b" ]
  c=$(spart-id -m "$MODELS/branched_arm.urdf" -o json <<< $'q0_1,q0_2,q0_3,q0_4,qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,u0_1,u0_2,u0_3,u0_4,u0_5,u0_6\n0.5,0.5,0.5,0.5,0.1,0.2,0.3,0.4,0.5,0.6,0.1,0,0.2,1,2,3')
  [ "$a" = "$c" ]
  run --separate-stderr spart-id -m "$MODELS/branched_arm.urdf" <<< "{$r0, \"q0\": [1, 0, 0, 0], $rec}"
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-id: <stdin>:1: R0 and q0 are both given: give one" ]
  run --separate-stderr spart-id -m "$MODELS/branched_arm.urdf" <<< "{\"q0\": [1, 0, 0, 0.01], $rec}"
  [ "$status" -eq 1 ]
  [[ "$stderr" == "spart-id: <stdin>:1: q0: norm 1.0000499987500624, expected a unit quaternion [w, x, y, z] (within 1e-6)" ]]
}

@test "spart-kin writes qmdot for um (quaternion rates q (0, w) / 2) and um for qmdot" {
  run spart-kin -m "$J/ball.urdf" --only qmdot <<< '{"qm": [1, 0, 0, 0, 0.3], "um": [0.2, 0.4, 0.6, 0.8]}'
  [ "$output" = '{"qmdot":[0,0.1,0.2,0.3,0.8]}' ]
  # a model whose n_q = n_v but whose rates are not um (planar: qmdot is R(theta) v) writes
  # them too (cos(pi/2) in doubles); one whose rates are um writes none
  run spart-kin -m "$J/planar.urdf" --only qmdot <<< '{"qm": [0, 0, 1.5707963267948966, 0], "um": [1, 2, 3, 4]}'
  [ "$output" = '{"qmdot":[-2,1.0000000000000002,3,4]}' ]
  run spart-kin -m "$J/ball_chain.urdf" --only qmdot <<< '{"qm": [0, 0, 1, 0], "um": [1, 2, 3, 4]}'
  [ "$output" = '{}' ]
  # the planar joint's qmdot given: um = [R(theta)' (xdot, ydot); thetadot]
  run spart-kin -m "$J/planar.urdf" --only um <<< '{"qm": [0, 0, 1.5707963267948966, 0], "qmdot": [0, 1, 3, 4]}'
  [ "$output" = '{"um":[1,6.123233995736766e-17,3,4]}' ] # cos(pi/2) in doubles
  run spart-kin -m "$J/floating_tree.urdf" --only qmdot,um <<< '{"qm": [0, 1, 0, 0, 0, 0, 0, 0, 0, 0], "qmdot": [1, 0, 0.5, 0, 0, 7, 8, 9, 2, 3]}'
  [ "$output" = '{"qmdot":[1,0,0.5,0,0,7,8,9,2,3],"um":[1,1,0,0,7,8,9,2,3]}' ]
  run --separate-stderr spart-kin -m "$J/ball.urdf" <<< '{"qm": [1, 0, 0, 0, 0.3], "um": [1, 2, 3, 4], "qmdot": [0, 0, 0, 0, 0]}'
  [ "$stderr" = "spart-kin: <stdin>:1: um and qmdot are both given: give one" ]
}

@test "every command on ball, planar, floating, sin-cos and spquat joints gives the chain's answers mapped by the velocity map (1e-9)" {
  run python3 "$BATS_TEST_DIRNAME/kindcheck.py" "$J"
  echo "$output" | grep -v '^ok' || true
  [ "$status" -eq 0 ]
  # every command, both bases, every kind
  for what in "spart-kin RL" "spart-kin --diffkin" "Jmdot E + Jm E' = Jmdot of the chain" "spart-gim H of the chain" \
      "spart-gim G of the chain" "spart-id --gravity" "spart-fd then spart-id: taum" \
      "d(kinetic energy)/dt" "spart-gim H positive definite" "Jmdot = central difference"; do
    for k in "ball (fixed" "ball (floating" "planar (fixed" "planar (floating" "floating (fixed" "floating (floating" \
        "sincos (fixed" "sincos (floating" "spquat (fixed" "spquat (floating"; do
      grep "^ok " <<< "$output" | grep -F "$k base): " | grep -qF "$what" || { echo "missing: $k $what"; false; }
    done
  done
  for k in ball planar floating sincos spquat; do
    [[ "$output" == *"ok $k: spart-contact --fixed-base feasible"* ]]
    [[ "$output" == *"ok $k: spart-sim then spart-kin rL of every link at t = 0.2"* ]]
  done
  [[ "${lines[-1]}" == *" passed, 0 failed" ]]
}

@test "the world idiom gives exactly the outputs without the world link, through every command and option" {
  C='"contacts": [{"link": "base", "point": [0.3, 0.2, -0.3], "normal": [0, 0, 1], "mu": 0.5}, {"link": 1, "point": [0, 0, 0], "normal": [0, 0.2, 1], "mu": 0.5}]'
  for case in "$J/floating_tree.urdf|0.1, 0.9, 0.3, -0.2, 0.24, 0.1, 0.2, 0.3, 0.4, 0.5|9" \
              "$J/ball.urdf|0.9, 0.1, 0.3, -0.2, 0.24|4" "$MODELS/branched_arm.urdf|0.1, 0.2, 0.3, 0.4, 0.5, 0.6|6"; do
    IFS='|' read -r model qm nv <<< "$case"
    with_world "$model" "$T/w.urdf" base
    um=$(seq -s, 1 "$nv" | sed 's/,/, /g')
    rec="{\"R0\": [0, 0, 1, 1, 0, 0, 0, 1, 0], \"r0\": [1, 2, 3], \"qm\": [$qm], \"um\": [$um], \"u0\": [0.1, 0, 0.2, 1, 2, 3], \"u0dot\": [1, 2, 3, 0, 1, 0], \"umdot\": [$um], \"taum\": [$um], \"tau0\": [1, 0, 0, 0, 1, 0]}"
    rec=$(python3 -c 'import json, math, sys
r = json.loads(sys.argv[1])
if sys.argv[2] != "branched_arm.urdf":  # a unit quaternion
    a = 1 if "floating" in sys.argv[2] else 0
    n = math.sqrt(sum(x * x for x in r["qm"][a:a + 4]))
    r["qm"][a:a + 4] = [x / n for x in r["qm"][a:a + 4]]
print(json.dumps(r))' "$rec" "${model##*/}")
    ran=0
    for cmd in "spart-id" "spart-id --floating --gravity 0,0,-9.81" "spart-id --fixed-base" \
        "spart-fd" "spart-fd --fixed-base --gravity 1,0,-9" "spart-gim --coriolis --inverse --gravity 0,0,-9.81" \
        "spart-gim --fixed-base --coriolis" "spart-kin --diffkin --inertia --mcb --com --momentum --energy --gravity 0,0,-9.81 --frame 1,base" \
        "spart-jac --link 1 --dot --point 0.1,0.2,0.3" "spart-jac --noc --com --dot" \
        "spart-sim --duration 0.01 --dt 0.005 --accelerations" "spart-sim --duration 0.01 --integrator dopri5 --fixed-base --gravity 0,0,-9.81" \
        "spart-contact --gravity 0,0,-9.81|$C" "spart-contact --gravity 0,0,-9.81 --fixed-base|$C"; do
      IFS='|' read -r c extra <<< "$cmd"
      r=$rec
      if [[ $c == *fixed-base* ]]; then
        r=$(python3 -c 'import json, sys; r = json.loads(sys.argv[1]); r["u0"] = r["u0dot"] = [0] * 6; print(json.dumps(r))' "$r")
      fi
      if [ -n "$extra" ]; then
        r=$(python3 -c 'import json, sys; r = json.loads(sys.argv[1]); print(json.dumps({k: r[k] for k in ("R0", "qm")} | json.loads("{" + sys.argv[2] + "}")))' "$r" "$extra")
      fi
      a=$($c -m "$T/w.urdf" <<< "$r")
      b=$($c -m "$model" <<< "$r")
      [ -n "$a" ] && [ "$a" = "$b" ] || { echo "differ: $c on ${model##*/}"; false; }
      ran=$((ran + 1))
    done
    [ "$ran" -eq 14 ]
  done
}

@test "a planar joint's plane: x, y by spart-model(5)'s rule for a normal other than z, against the chain along them" {
  # normal +-e_k: x = +-e_(k+1), y = e_(k+2); else x = the joint frame's x (y when |a_x| >= 0.6)
  # made normal to a, y = a x x
  for c in "0 1 0|0 0 1|1 0 0" "0 -1 0|0 0 -1|1 0 0" "1 0 0|0 1 0|0 0 1" "-1 0 0|0 -1 0|0 0 1" \
           "0.6 0 0.8|0 1 0|-0.8 0 0.6" "0 0.6 0.8|1 0 0|0 0.8 -0.6"; do
    IFS='|' read -r n x y <<< "$c"
    run python3 "$BATS_TEST_DIRNAME/kindcheck.py" "$J" --planar "$n" "$x" "$y"
    echo "$output" | grep -v '^ok' || true
    [ "$status" -eq 0 ]
    [[ "$output" == *"ok planar normal $n (floating base): spart-gim H of the chain = E'H E"* ]]
    [[ "$output" == *"ok planar normal $n (fixed base): spart-kin RL of every link"* ]]
  done
  # the wrong plane is found out
  run python3 "$BATS_TEST_DIRNAME/kindcheck.py" "$J" --planar "0 1 0" "1 0 0" "0 0 1"
  [ "$status" -eq 1 ]
}

@test "urdf2robot --revolute sincos, --floating spquat: kinds 6 and 7 with their n_q, read back the same; bad values are usage errors" {
  run urdf2robot --revolute sincos "$J/ball_chain.urdf"
  [ "$status" -eq 0 ]
  echo "$output" > "$T/sc.json"
  python3 - "$T/sc.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
assert m["n_q"] == 8 and m["n_v"] == 4, (m["n_q"], m["n_v"])
assert [j["type"] for j in m["joints"]] == [6, 6, 6, 6], [j["type"] for j in m["joints"]]
assert [j["q_id"] for j in m["joints"]] == [1, 3, 5, 7]
PY
  run urdf2robot "$T/sc.json"
  [ "$output" = "$(cat "$T/sc.json")" ]
  # and back: the model JSON made revolute again is the URDF's
  [ "$(urdf2robot --revolute angle "$T/sc.json")" = "$(urdf2robot "$J/ball_chain.urdf")" ]
  run urdf2robot --floating spquat -s "$J/floating_tree.urdf"
  [[ "$output" == *"spquat nq 6 nv 6"* ]]
  [[ "$output" == *"n_q 9"* ]]
  [ "$(urdf2robot --floating quaternion "$J/floating_tree.urdf")" = "$(urdf2robot "$J/floating_tree.urdf")" ]
  run --separate-stderr urdf2robot --revolute cos "$J/ball_chain.urdf"
  [ "$status" -eq 2 ]
  [ "${stderr%%$'\n'*}" = "urdf2robot: --revolute: expected angle or sincos, got 'cos'" ]
  run --separate-stderr urdf2robot --floating euler "$J/floating_tree.urdf"
  [ "$status" -eq 2 ]
  [[ "$stderr" == "urdf2robot: --floating: expected quaternion or spquat, got 'euler'"* ]]
  # a model JSON's type 9 is no kind
  sed 's/"type":\t6/"type":\t9/' "$T/sc.json" > "$T/bad.json"
  run --separate-stderr urdf2robot "$T/bad.json"
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"type 9, expected 0 (fixed), "*"7 (spquat) or 8 (helical)" ]]
}

@test "a sin-cos pair is normalised within 1e-6 of unit norm, else refused naming the joint; spart-kin gives its rates" {
  urdf2robot --revolute sincos "$J/ball_chain.urdf" > "$T/sc.json"
  run spart-kin -m "$T/sc.json" --only qmdot <<< '{"qm": [0.6, 0.8000001, 0, 1, 0, 1, 0, 1], "um": [2, 0, 0, 0]}'
  [ "$status" -eq 0 ]
  python3 -c "import json,sys; q=json.loads(sys.argv[1])['qmdot']; assert abs(q[0]-1.6)<1e-6 and abs(q[1]+1.2)<1e-6 and q[2:]==[0]*6, q" "$output"
  run --separate-stderr spart-kin -m "$T/sc.json" <<< '{"qm": [0.6, 0.9, 0, 1, 0, 1, 0, 1]}'
  [ "$status" -eq 1 ]
  [[ "$stderr" == "spart-kin: <stdin>:1: joint 'sh_z': [sin, cos] of norm 1.08"*", expected 1 (within 1e-06)" ]]
}

@test "sin-cos and spquat joints in spart-sim: the pair on its circle to 1e-12, momentum kept to 1e-9, energy to 1e-8" {
  urdf2robot --revolute sincos "$J/ball_chain.urdf" > "$T/sc.json"
  urdf2robot --floating spquat "$J/floating_tree.urdf" > "$T/sp.json"
  # model|qm|um|where a sin-cos pair starts in qm (-1: none)
  while IFS='|' read -r model qm um a; do
    rec="{\"qm\":[$qm],\"u0\":[0.2,-0.1,0.3,0.5,-0.2,0.1],\"um\":[$um]}"
    spart-sim -m "$model" --no-friction --duration 10 -o csv <<< "$rec" > "$T/sim.csv"
    spart-kin -m "$model" --momentum --energy --only momentum,kinetic_energy -o json \
      < "$T/sim.csv" > "$T/kin.jsonl"
    python3 - "$T/sim.csv" "$T/kin.jsonl" "$a" <<'PY'
import csv, json, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
kin = [json.loads(l) for l in open(sys.argv[2])]
a = int(sys.argv[3])
assert len(rows) == 10001 == len(kin), len(rows)
if a >= 0:
    worst = max(abs(math.hypot(float(r["qm_%d" % (a + 1)]), float(r["qm_%d" % (a + 2)])) - 1)
                for r in rows)
    assert worst <= 1e-12, worst
    # it turns past pi: no wrap in [sin, cos]
    angles = [math.atan2(float(r["qm_%d" % (a + 1)]), float(r["qm_%d" % (a + 2)])) for r in rows]
    assert max(abs(x - y) for x, y in zip(angles, angles[1:])) > 6, "never crossed pi"
norm = lambda v: math.sqrt(sum(x * x for x in v))
h0, e0 = kin[0]["momentum"], kin[0]["kinetic_energy"]
for k in kin:
    h = k["momentum"]
    for i, j in ((0, 3), (3, 6)):
        assert norm([x - y for x, y in zip(h[i:j], h0[i:j])]) / norm(h0[i:j]) < 1e-9, k
    assert abs(k["kinetic_energy"] - e0) < 1e-8 * e0, (k["kinetic_energy"], e0)
PY
  done <<EOF2
$T/sc.json|0,1,0,1,0,1,0.6,0.8|0.5,-0.4,0.3,2|6
$T/sp.json|0.2,0.1,-0.2,0.3,0.4,0.3,-0.1,0.05,0.2|0.5,1.1,-0.7,0.9,0.3,-0.4,0.2,0.6,-0.3|-1
EOF2
}

@test "a qmdot with a part along its quaternion is refused, as a non-unit quaternion is, not projected away" {
  run --separate-stderr spart-kin -m "$J/ball.urdf" --only um <<< '{"qm": [1, 0, 0, 0, 0.3], "qmdot": [0.5, 0.1, 0.2, 0.3, 0.8]}'
  [ "$status" -eq 1 ]
  [[ "$stderr" == "spart-kin: <stdin>:1: joint '"*"': qmdot has a part 0.5 along the quaternion (of "*"): the rate of a unit quaternion is tangent to it (within 1e-06)" ]]
  [ -z "$output" ]
  # spart-sim's initial state too
  run --separate-stderr spart-sim -m "$J/ball.urdf" --duration 0.001 <<< '{"qm": [1, 0, 0, 0, 0.3], "qmdot": [0.5, 0.1, 0.2, 0.3, 0.8]}'
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  # a tangent rate at a turned quaternion, to rounding: q (0, w) / 2 computed here, and um = w
  read -r rec w < <(python3 -c '
import json, math
c, s = math.cos(0.35), math.sin(0.35)
q = [c, s * 0.6, 0, s * 0.8]
w = [0.3, -1.1, 0.7]
p = [0] + w
qd = [(q[0] * p[0] - q[1] * p[1] - q[2] * p[2] - q[3] * p[3]) / 2,
      (q[0] * p[1] + q[1] * p[0] + q[2] * p[3] - q[3] * p[2]) / 2,
      (q[0] * p[2] - q[1] * p[3] + q[2] * p[0] + q[3] * p[1]) / 2,
      (q[0] * p[3] + q[1] * p[2] - q[2] * p[1] + q[3] * p[0]) / 2]
print(json.dumps({"qm": q + [0.3], "qmdot": qd + [0.8]}).replace(" ", ""), ",".join(map(str, w)))
')
  run -0 spart-kin -m "$J/ball.urdf" --only um <<< "$rec"
  python3 -c '
import json, sys
um = json.loads(sys.argv[1])["um"]
w = [float(x) for x in sys.argv[2].split(",")]
assert all(abs(a - b) < 1e-12 for a, b in zip(um, w + [0.8])), (um, w)
' "$output" "$w"
  # the part along q just past 1e-6 of the rate: refused
  run -1 spart-kin -m "$J/ball.urdf" --only um <<< '{"qm": [1, 0, 0, 0, 0.3], "qmdot": [2e-6, 1, 0, 0, 0]}'
  run -0 spart-kin -m "$J/ball.urdf" --only um <<< '{"qm": [1, 0, 0, 0, 0.3], "qmdot": [5e-7, 1, 0, 0, 0]}'
}
