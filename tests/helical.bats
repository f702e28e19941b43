#!/usr/bin/env bats
# Helical (screw) joints (issue 29): Drake's URDF type="screw" with
# <drake:screw_thread_pitch value="P"/>, P metres along the axis per revolution; the model
# JSON's "pitch".  Against the same robot with each helical joint a revolute joint and a
# massless prismatic one coupled to it by <mimic> (h = P / (2 pi), --mimic): tests/helixcheck.py.
# The fast paths against the reference recursions on random trees with helical joints:
# tests/unit/test_recursions.c (tests/lib.bats).

load helper

H="$BATS_TEST_DIRNAME/data/helical"

setup() {
  T="$BATS_TEST_TMPDIR"
}

# helix_arm.urdf with its first joint's pitch element replaced by $1, into $T/e.urdf
pitch_variant() {
  sed "s|<drake:screw_thread_pitch value=\"-0.02\"/>|$1|" "$H/helix_arm.urdf" > "$T/e.urdf"
}

@test "urdf2robot reads a screw joint as helical: its pitch in the summary and the model JSON" {
  run -0 --separate-stderr urdf2robot --summary "$H/helix_arm.urdf"
  [[ "$output" == *"<- joint 1 j1 helical axis 0 0 1 pitch -0.02 m/rev q 1 limits -3 3"* ]]
  [[ "$output" == *"<- joint 3 j3 helical axis 0.266904 0.534808 0.801712 pitch 0.05 m/rev q 3"* ]]
  [[ "$output" == *"n_q 4"* ]]
  urdf2robot "$H/helix_arm.urdf" > "$T/h.json"
  python3 - "$T/h.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["joints"]
assert [x["type"] for x in j] == [8, 1, 8, 2], j
assert [x.get("pitch") for x in j] == [-0.02, None, 0.05, None], j
assert j[0]["limit"] == [-3, 3]
PY
  # the model JSON read back: the same model, the same outputs byte for byte
  run -0 urdf2robot "$T/h.json"
  [ "$output" = "$(cat "$T/h.json")" ]
  spart-states -m "$H/helix_arm.urdf" --random 5 --seed 3 --velocities --accelerations \
    > "$T/s.jsonl"
  for c in "spart-kin" "spart-gim --gravity 0,0,-9.81" "spart-id" "spart-fd --fixed-base"; do
    a=$($c -m "$H/helix_arm.urdf" < "$T/s.jsonl")
    b=$($c -m "$T/h.json" < "$T/s.jsonl")
    [ "$a" = "$b" ]
  done
}

@test "the pitch's sign is Drake's: a positive pitch moves the child along +axis as it turns by the right hand" {
  # a quarter turn of j1 (pitch -0.02) moves l1 by -0.005 along z; of j3 (0.05) by +0.0125
  # along its axis
  run -0 spart-kin -m "$H/helix_arm.urdf" --only rL <<< '{"qm": [0, 0, 0, 0]}'
  a=$output
  run -0 spart-kin -m "$H/helix_arm.urdf" --only rL <<< '{"qm": [1.5707963267948966, 0, 0, 0]}'
  b=$output
  run -0 spart-kin -m "$H/helix_arm.urdf" --only rL,e <<< '{"qm": [0, 0, 1.5707963267948966, 0]}'
  python3 - "$a" "$b" "$output" <<'PY'
import json, math, sys
a, b, c = (json.loads(x) for x in sys.argv[1:])
# l1's CoM (0.01, 0.02, 0.15 from the joint) turned by pi/2 about z, 0.005 down
pa, pb = a["rL"][0], b["rL"][0]
assert abs(pb[2] - pa[2] + 0.005) < 1e-15, (pa, pb)
assert abs(pb[0] - (pa[0] - 0.01 - 0.02)) < 1e-15 and abs(pb[1] - (pa[1] + 0.01 - 0.02)) < 1e-15
# l4 moves with l3: its CoM's move from a has a part 0.0125 along j3's axis (the rest turns
# about it, normal to it)
e = c["e"][2]
d = [x - y for x, y in zip(c["rL"][3], a["rL"][3])]
assert abs(sum(x * y for x, y in zip(d, e)) - 0.0125) < 1e-15, d
PY
}

@test "a URDF's screw joint without its pitch, or a bad one, is refused in one line" {
  pitch_variant ''
  run -1 --separate-stderr urdf2robot "$T/e.urdf"
  [ "$stderr" = "urdf2robot: $T/e.urdf:12: joint 'j1': a screw joint without <drake:screw_thread_pitch value=\"P\"/> (P metres per revolution)" ]
  [ -z "$output" ]
  pitch_variant '<drake:screw_thread_pitch/>'
  run -1 --separate-stderr urdf2robot "$T/e.urdf"
  [ "$stderr" = "urdf2robot: $T/e.urdf:18: joint 'j1': <drake:screw_thread_pitch> without value" ]
  pitch_variant '<drake:screw_thread_pitch value="fine"/>'
  run -1 --separate-stderr urdf2robot "$T/e.urdf"
  [ "$stderr" = "urdf2robot: $T/e.urdf:18: joint 'j1': screw_thread_pitch value: expected a number, got 'fine'" ]
  # not finite: no number (inf, nan), or out of range
  for v in inf nan 1e999 -1e400; do
    pitch_variant "<drake:screw_thread_pitch value=\"$v\"/>"
    run -1 --separate-stderr spart-kin -m "$T/e.urdf" <<< '{"qm": [0, 0, 0, 0]}'
    case $v in
      inf | nan) w="a number" ;;
      *) w="a finite number" ;;
    esac
    [ "$stderr" = "spart-kin: $T/e.urdf:18: joint 'j1': screw_thread_pitch value: expected $w, got '$v'" ]
    [ -z "$output" ]
  done
  # the pitch without the drake prefix is no pitch (the element is Drake's)
  pitch_variant '<screw_thread_pitch value="0.02"/>'
  run -1 --separate-stderr urdf2robot "$T/e.urdf"
  [[ "$stderr" == *"a screw joint without <drake:screw_thread_pitch"* ]]
}

@test "the drake prefix is read whether or not the document declares its namespace" {
  sed 's| xmlns:drake="http://drake.mit.edu"||' "$H/helix_arm.urdf" > "$T/nons.urdf"
  ! grep -q xmlns "$T/nons.urdf"
  a=$(urdf2robot "$H/helix_arm.urdf")
  b=$(urdf2robot "$T/nons.urdf")
  [ "$a" = "$b" ]
}

@test "the model JSON's pitch: required of a helical joint, refused on another kind, a number" {
  urdf2robot "$H/helix_arm.urdf" > "$T/h.json"
  edit() {
    python3 - "$T/h.json" "$T/e.json" "$1" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(m, open(sys.argv[2], "w"))
PY
  }
  edit 'del m["joints"][0]["pitch"]'
  run -1 --separate-stderr urdf2robot "$T/e.json"
  [ "$stderr" = "urdf2robot: $T/e.json:1: joints[0].pitch: expected a finite number, got nothing" ]
  edit 'm["joints"][1]["pitch"] = 0.01'
  run -1 --separate-stderr spart-id -m "$T/e.json" <<< '{"qm": [0, 0, 0, 0]}'
  [ "$stderr" = "spart-id: $T/e.json:1: joint 'j2': a pitch on a revolute joint (only a helical joint has one)" ]
  edit 'm["joints"][0]["pitch"] = "0.01"'
  run -1 --separate-stderr urdf2robot "$T/e.json"
  [ "$stderr" = "urdf2robot: $T/e.json:1: joints[0].pitch: expected a finite number, got a string" ]
  [ "${#stderr_lines[@]}" -eq 1 ]
  # a pitch of 0 is a revolute joint's motion
  edit 'm["joints"][0]["pitch"] = 0; m["joints"][2]["pitch"] = 0'
  edit2() { sed 's/"type":8/"type":1/g; s/"type": 8/"type": 1/g; s/"pitch": 0, //g' "$T/e.json" > "$T/r.json"; }
  edit2
  s='{"qm": [0.3, -0.2, 0.5, 0.05], "um": [0.1, 0.2, -0.3, 0.1], "umdot": [1, 2, 3, 4]}'
  [ "$(spart-id -m "$T/e.json" <<< "$s")" = "$(spart-id -m "$T/r.json" <<< "$s")" ]
}

@test "helical against the revolute + prismatic pair coupled by the pitch: every command to 1e-9" {
  run python3 "$BATS_TEST_DIRNAME/helixcheck.py" "$H/helix_arm.urdf" "$H/helix_pair.urdf"
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *" 0 failed" ]]
  for q in RL tL momentum Jm Jmdot AG "H " "Cu " "G " umdot u0dot taum tau0 Hm \
    "spart-contact support_polygon" "spart-sim qm"; do
    [[ "$output" == *"ok $q"* ]] || { echo "missing: $q"; false; }
  done
}

@test "spart-sim keeps a free helical arm's energy and momentum" {
  rec='{"qm": [0.4, -0.7, 1.2, 0.03], "u0": [0.2, -0.1, 0.3, 0.5, -0.2, 0.1], "um": [1.5, -0.8, 2.5, 0.3]}'
  spart-sim -m "$H/helix_arm.urdf" --no-friction --no-limits --duration 5 -o csv <<< "$rec" \
    > "$T/sim.csv"
  spart-kin -m "$H/helix_arm.urdf" --momentum --energy --only momentum,kinetic_energy -o json \
    < "$T/sim.csv" > "$T/kin.jsonl"
  python3 - "$T/kin.jsonl" <<'PY'
import json, math, sys
kin = [json.loads(l) for l in open(sys.argv[1])]
assert len(kin) == 5001, len(kin)
norm = lambda v: math.sqrt(sum(x * x for x in v))
h0, e0 = kin[0]["momentum"], kin[0]["kinetic_energy"]
for k in kin:
    h = k["momentum"]
    for i, j in ((0, 3), (3, 6)):
        assert norm([x - y for x, y in zip(h[i:j], h0[i:j])]) / norm(h0[i:j]) < 1e-9, k
    assert abs(k["kinetic_energy"] - e0) < 1e-8 * e0, (k["kinetic_energy"], e0)
PY
}

@test "spart-states: a helical joint's angle within its limits; spart-fd then spart-id returns the forces" {
  spart-states -m "$H/helix_arm.urdf" --random 200 --seed 29 --velocities --accelerations \
    --forces > "$T/s.jsonl"
  spart-fd -m "$H/helix_arm.urdf" --gravity 0,0,-9.81 < "$T/s.jsonl" > "$T/fd.jsonl"
  python3 - "$T/s.jsonl" "$T/fd.jsonl" "$H/helix_arm.urdf" <<'PY'
import json, subprocess, sys
st = [json.loads(l) for l in open(sys.argv[1])]
fd = [json.loads(l) for l in open(sys.argv[2])]
lim = [(-3, 3), (-2, 2), (-2.5, 2.5), (-0.1, 0.1)]
for s in st:
    assert all(lo <= q <= hi for q, (lo, hi) in zip(s["qm"], lim)), s["qm"]
# both ends of j1's range are reached within a tenth of it
q1 = [s["qm"][0] for s in st]
assert min(q1) < -2.4 and max(q1) > 2.4, (min(q1), max(q1))
recs = "".join(json.dumps(dict(s, umdot=f["umdot"], u0dot=f["u0dot"])) + "\n"
               for s, f in zip(st, fd))
out = subprocess.run(["spart-id", "-m", sys.argv[3], "--gravity", "0,0,-9.81"], input=recs,
                     capture_output=True, text=True, check=True).stdout.splitlines()
for s, o in zip(st, out):
    t = json.loads(o)["taum"]
    assert max(abs(a - b) for a, b in zip(t, s["taum"])) < 1e-9 * max(1, max(map(abs, t))), (t, s)
PY
}

@test "spart-codegen: a helical arm's code compiles and equals spart-id, -gim, -fd, -kin, -jac" {
  cd "$T"
  local kind fb
  for kind in fixed floating; do
    fb=()
    [ $kind = fixed ] && fb=(--fixed-base)
    spart-codegen -m "$H/helix_arm.urdf" "${fb[@]}" > robot.c
    spart-codegen -m "$H/helix_arm.urdf" "${fb[@]}" --header > robot.h
    cc -std=c99 -O2 -Wall -Wextra -Werror -I. -o drv "$TOP/tests/codegen_driver.c" robot.c -lm
    run python3 "$TOP/tests/codegencheck.py" "$H/helix_arm.urdf" $kind ./drv 6 29
    echo "$kind: $output"
    [ "$status" -eq 0 ]
  done
}

@test "spart-draw draws a helical arm; a turn of a helical joint moves the picture" {
  run -0 spart-draw -m "$H/helix_arm.urdf" --view front <<< '{"qm": [0.5, -0.3, 1.0, 0.05]}'
  [[ "$output" == "<svg"* || "$output" == "<?xml"* ]]
  [[ "$output" == *"</svg>"* ]]
  a=$(spart-draw -m "$H/helix_arm.urdf" --view front <<< '{"qm": [0.5, -0.3, 1.0, 0.05]}')
  b=$(spart-draw -m "$H/helix_arm.urdf" --view front <<< '{"qm": [0.5, -0.3, 2.0, 0.05]}')
  [ "$a" != "$b" ]
}

@test "a helical joint as a coupled mimic leader or follower" {
  # j2 follows helical j1 (q2 = 0.5 q1): the system's coordinates j1, j3, j4
  sed 's|<limit lower="-2" upper="2" effort="8" velocity="2"/>|&<mimic joint="j1" multiplier="0.5"/>|' \
    "$H/helix_arm.urdf" > "$T/m.urdf"
  run -0 --separate-stderr urdf2robot --mimic --summary "$T/m.urdf"
  [[ "$output" == *"coupled n_q 3, n_v 3"* ]]
  # the coupled ID is K' tau of the free tree's at q = K qc (K = [1 0 0; 0.5 0 0; 0 1 0; 0 0 1])
  python3 - "$T/m.urdf" <<'PY'
import json, subprocess, sys
f = sys.argv[1]
run = lambda a, r: json.loads(subprocess.run(a, input=json.dumps(r), capture_output=True,
                                             text=True, check=True).stdout)
qc, uc, ac = [0.3, -0.4, 0.02], [0.5, 1.1, -0.2], [1.0, -2.0, 0.5]
K = [[1, 0, 0], [0.5, 0, 0], [0, 1, 0], [0, 0, 1]]
mv = lambda x: [sum(k * v for k, v in zip(row, x)) for row in K]
c = run(["spart-id", "-m", f, "--mimic", "--fixed-base"], {"qm": qc, "um": uc, "umdot": ac})
t = run(["spart-id", "-m", f, "--fixed-base"], {"qm": mv(qc), "um": mv(uc), "umdot": mv(ac)})
kt = [sum(K[r][j] * t["taum"][r] for r in range(4)) for j in range(3)]
assert max(abs(a - b) for a, b in zip(c["taum"], kt)) < 1e-12, (c, kt)
PY
  # a helical follower of a revolute leader: j3 follows j2
  sed 's|<limit lower="-2.5" upper="2.5" effort="5" velocity="3"/>|&<mimic joint="j2" multiplier="-2" offset="0.1"/>|' \
    "$H/helix_arm.urdf" > "$T/f.urdf"
  run -0 --separate-stderr urdf2robot --mimic --summary "$T/f.urdf"
  [[ "$output" == *"mimic: joint 3 'j3' follows joint 'j2' (-2 x + 0.1), coupled: not a coordinate"* ]]
}
