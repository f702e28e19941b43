#!/usr/bin/env bats
# spart-ik: inverse kinematics, each solution checked by forward kinematics of another command
# (spart-kin --frame of the qm, R0, r0 written) against the targets, the joint limits read from
# the model JSON (urdf2robot), the targets made by spart-states --random and spart-kin.

load helper

IIWA="$MODELS/kuka_iiwa.urdf"
DUAL="$MODELS/2_iiwa_base.urdf"
check() { PYTHONPATH="$BATS_TEST_DIRNAME" python3 -c "import json, math; from spartcheck import *; from ikcheck import *; $1"; }

@test "--help names the options and outputs; bad values are usage errors" {
  run spart-ik --help
  [ "$status" -eq 0 ]
  [[ "$output" == *"--restarts K"* && "$output" == *"--best-effort"* && "$output" == *"ik_error"* ]]
  run --separate-stderr spart-ik -m "$IIWA" --restarts -1 < /dev/null
  [ "$status" -eq 2 ]
  [ "${stderr%%$'\n'*}" = "spart-ik: --restarts: expected a whole number 0..1000000000, got '-1'" ]
  run --separate-stderr spart-ik -m "$IIWA" --max-iterations 0 < /dev/null
  [ "$status" -eq 2 ]
  run --separate-stderr spart-ik -m "$IIWA" --tolerance 0 < /dev/null
  [ "$status" -eq 2 ]
  run --separate-stderr spart-ik -m "$IIWA" --fixed-base --only R0 < /dev/null
  [ "$status" -eq 2 ]
}

@test "kuka_iiwa: full poses of lbr_iiwa_link_7 from 200 random configurations, from zero: all met to 1e-10 within the limits" {
  check '
recs = [{"qm": [0] * 7, "targets": [{"link": "lbr_iiwa_link_7", "position": rF[0], "R": RF[0]}]}
        for rF, RF, _ in frames("'"$IIWA"'", random_states("'"$IIWA"'", 200, 7), ["lbr_iiwa_link_7"])]
outs = run(["spart-ik", "-m", "'"$IIWA"'", "--fixed-base", "-k"], *recs)
assert len(outs) >= 199, len(outs)
w = check("'"$IIWA"'", recs, outs, 1e-10)
print(len(outs), w)
'
}

@test "the same seed gives the same bytes with -j 1 and -j 3; another seed still meets the targets" {
  spart-states -m "$IIWA" --random 60 --seed 3 | spart-kin -m "$IIWA" --frame lbr_iiwa_link_7 --only rF,RF |
    python3 -c '
import json, sys
for l in sys.stdin:
    o = json.loads(l)
    print(json.dumps({"qm": [0] * 7, "targets": [{"link": 7, "position": o["rF"][0], "R": o["RF"][0]}]}))' > "$BATS_TEST_TMPDIR/t.jsonl"
  spart-ik -m "$IIWA" --fixed-base --seed 11 < "$BATS_TEST_TMPDIR/t.jsonl" > "$BATS_TEST_TMPDIR/a"
  spart-ik -m "$IIWA" --fixed-base --seed 11 -j 3 < "$BATS_TEST_TMPDIR/t.jsonl" > "$BATS_TEST_TMPDIR/b"
  cmp "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
  [ "$(wc -l < "$BATS_TEST_TMPDIR/a")" -eq 60 ]
}

@test "position only: a tool point of the 7-joint arm, 100 targets; the redundant solution stays near the guess" {
  check '
M = "'"$IIWA"'"
P = [0, 0, 0.126]
starts = random_states(M, 100, 21)
recs = []
for s, (rF, RF, _) in zip(starts, frames(M, random_states(M, 100, 22), [7])):
    recs.append({"qm": s["qm"], "targets": [{"link": 7, "point": P, "position": point(rF[0], RF[0], P)}]})
outs = run(["spart-ik", "-m", M, "--fixed-base"], *recs)
check(M, recs, outs, 1e-10)
# a target the guess already meets: the guess itself, untouched
same = [{"qm": r["qm"], "targets": [{"link": 7, "point": P, "position": point(rF[0], RF[0], P)}]}
        for r, (rF, RF, _) in zip(starts[:5], frames(M, starts[:5], [7]))]
for r, o in zip(same, run(["spart-ik", "-m", M, "--fixed-base"], *same)):
    assert o["qm"] == r["qm"], (o, r)
'
}

@test "the dual-arm spacecraft: both hands at full poses at once, the base floating (R0, r0 written)" {
  check '
M = "'"$DUAL"'"
recs = []
for rF, RF, _ in frames(M, random_states(M, 40, 5), ["lbr_iiwa_link_7", "lbr_iiwa_link_7_2"]):
    recs.append({"qm": [0] * 14, "targets": [{"link": "lbr_iiwa_link_7", "position": rF[0], "R": RF[0]},
                                             {"link": "lbr_iiwa_link_7_2", "position": rF[1], "quat": None}]})
    q = [0.0] * 4
    R = RF[1]
    # the second hand as a quaternion [w, x, y, z] (w >= 0), from its matrix
    w = math.sqrt(max(0.0, 1 + R[0][0] + R[1][1] + R[2][2])) / 2
    q = [w, (R[2][1] - R[1][2]) / (4 * w), (R[0][2] - R[2][0]) / (4 * w), (R[1][0] - R[0][1]) / (4 * w)]
    recs[-1]["targets"][1]["quat"] = q
    recs[-1]["targets"][1]["R"] = R
outs = run(["spart-ik", "-m", M], *[{"qm": r["qm"], "targets": [r["targets"][0], {k: v for k, v in r["targets"][1].items() if k != "R"}]} for r in recs])
assert all("R0" in o and "r0" in o for o in outs)
check(M, recs, outs, 1e-9)
'
}

@test "a CoM target and a CoM x-y target are met (spart-kin r_com)" {
  check '
M = "'"$IIWA"'"
fk = frames(M, random_states(M, 30, 9), [7])
recs = [{"targets": [{"com": com}]} for _, _, com in fk[:15]]
recs += [{"targets": [{"com_xy": com[:2]}, {"link": 7, "position": rF[0]}]} for rF, _, com in fk[15:]]
outs = run(["spart-ik", "-m", M, "--fixed-base"], *recs)
check(M, recs, outs, 1e-10)
'
}

# an arm of two revolute joints about z with limits off zero, 0.5 m links: arm FILE
arm() {
  cat > "$1" <<'URDF'
<robot name="arm">
  <link name="base"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <link name="upper"><inertial><origin xyz="0.25 0 0"/><mass value="1"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="fore"><inertial><origin xyz="0.25 0 0"/><mass value="1"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/><axis xyz="0 0 1"/><limit lower="0.2" upper="1.0" effort="1" velocity="1"/></joint>
  <joint name="elbow" type="revolute"><parent link="upper"/><child link="fore"/><origin xyz="0.5 0 0"/><axis xyz="0 0 1"/><limit lower="-1.5" upper="-0.1" effort="1" velocity="1"/></joint>
</robot>
URDF
}

@test "without qm the first guess is the middle of the limits: a target met there leaves it" {
  arm "$BATS_TEST_TMPDIR/arm.urdf"
  target=$(echo '{"qm": [0.6, -0.8]}' | spart-kin -m "$BATS_TEST_TMPDIR/arm.urdf" --frame fore --only rF,RF |
    python3 -c '
import json, sys
o = json.load(sys.stdin)
p = [o["rF"][0][k] + 0.5 * o["RF"][0][k][0] for k in range(3)]
print(json.dumps({"targets": [{"link": "fore", "point": [0.5, 0, 0], "position": p}]}))')
  run --separate-stderr spart-ik -m "$BATS_TEST_TMPDIR/arm.urdf" --fixed-base <<< "$target"
  [ "$status" -eq 0 ]
  [[ "$output" == '{"qm":[0.6,-0.8],"ik_error":['* ]]
  # the elbow's other solution (+0.8) is beyond its limits: a guess there is brought back
  run --separate-stderr spart-ik -m "$BATS_TEST_TMPDIR/arm.urdf" --fixed-base <<< "${target%\}}, \"qm\": [0.9, 0.8]}"
  [ "$status" -eq 0 ]
  check '
o = json.loads("""'"$output"'""")
assert abs(o["qm"][0] - 0.6) < 1e-9 and abs(o["qm"][1] + 0.8) < 1e-9 and o["ik_error"][0] <= 1e-10, o
'
}

@test "an unreachable target (2 m from the base): reported with its error, exit 1, nothing written; -k goes on; --best-effort writes it" {
  far='{"qm": [0, 0, 0, 0, 0, 0, 0], "targets": [{"link": "lbr_iiwa_link_7", "position": [2, 0, 0]}]}'
  near='{"qm": [0, 0, 0, 0, 0, 0, 0], "targets": [{"link": "lbr_iiwa_link_7", "position": [0.3, 0.2, 0.5]}]}'
  run --separate-stderr spart-ik -m "$IIWA" --fixed-base --restarts 3 <<< "$far"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [[ "$stderr" =~ ^"spart-ik: <stdin>:1: targets not met: error "(0.9|1.0)[0-9]*" m, 0 rad (tolerance 1e-10) after 4 attempts"$ ]]
  run --separate-stderr spart-ik -m "$IIWA" --fixed-base --restarts 3 -k <<< "$far"$'\n'"$near"
  [ "$status" -eq 1 ]
  [ "$(echo "$output" | wc -l)" -eq 1 ]
  [[ "$output" == '{"qm":'*'"ik_error":['*'e-1'* ]]
  run --separate-stderr spart-ik -m "$IIWA" --fixed-base --restarts 3 --best-effort <<< "$far"
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  check '
o = json.loads("""'"$output"'""")
assert 0.9 < o["ik_error"][0] < 1.1 and o["ik_error"][1] == 0, o
'
}

@test "bad targets are bad records: an unknown link, no targets, a matrix that is not a rotation, both R and quat; CSV input is refused" {
  run --separate-stderr spart-ik -m "$IIWA" <<< '{"qm": [0,0,0,0,0,0,0], "targets": [{"link": "nope", "position": [0, 0, 1]}]}'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-ik: <stdin>:1: targets[0].link: no link 'nope' in the model (ids 0..7)" ]
  run --separate-stderr spart-ik -m "$IIWA" <<< '{"qm": [0,0,0,0,0,0,0]}'
  [ "$status" -eq 1 ]
  [[ "$stderr" == "spart-ik: <stdin>:1: no targets: "* ]]
  run --separate-stderr spart-ik -m "$IIWA" <<< '{"targets": [{"link": 7, "position": [0, 0, 1], "R": [[1, 0, 0], [0, 1, 0], [0, 0, -1]]}]}'
  [ "$status" -eq 1 ]
  [[ "$stderr" == "spart-ik: <stdin>:1: targets[0].R is not a rotation"* ]]
  run --separate-stderr spart-ik -m "$IIWA" <<< '{"targets": [{"link": 7, "position": [0, 0, 1], "R": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "quat": [1, 0, 0, 0]}]}'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-ik: <stdin>:1: targets[0]: R and quat are both given: give one" ]
  run --separate-stderr spart-ik -m "$IIWA" <<< '{"targets": [{"link": 7, "position": [0, 0, 1], "weight": 0}]}'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-ik: <stdin>:1: targets[0].weight: expected a finite number > 0" ]
  run --separate-stderr spart-ik -m "$IIWA" <<< $'qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\n0,0,0,0,0,0,0'
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"targets are read from JSON records only, not CSV (use -i json)" ]]
}

@test "--root-frame: targets in the root link's frame (the iiwa's sits at (0.1, 0, -0.07) at R0 = I, r0 = 0), the base pose written in it" {
  root=$(echo '{"qm": [0,0,0,0,0,0,0]}' | spart-kin -m "$IIWA" --frame 0 --only rF)
  [ "$root" = '{"rF":[[0.1,0,-0.07]]}' ]
  check '
M = "'"$IIWA"'"
recs = []
for rF, RF, _ in frames(M, random_states(M, 20, 13), [7]):
    p = [rF[0][0] - 0.1, rF[0][1], rF[0][2] + 0.07]
    recs.append({"qm": [0] * 7, "targets": [{"link": 7, "position": p, "R": RF[0]}]})
# held base: the root-frame targets met where tf puts them
outs = run(["spart-ik", "-m", M, "--fixed-base", "--root-frame"], *recs)
fk = frames(M, [{"qm": o["qm"]} for o in outs], [7])
for r, (rF, RF, _) in zip(recs, fk):
    t = r["targets"][0]["position"]
    assert math.dist([rF[0][0] - 0.1, rF[0][1], rF[0][2] + 0.07], t) < 1e-10
# floating: R0, r0 written in the root frame, where the targets are met
outs = run(["spart-ik", "-m", M, "--root-frame"], *recs)
check(M, recs, outs, 1e-10)
'
}

@test "ball, floating and planar joints are moved on their manifolds: unit quaternions written, targets met" {
  for model in ball floating_tree planar; do
    M="$TOP/tests/data/joints/$model.urdf"
    check '
M = "'"$M"'"
recs = [{"qm": s["qm"], "targets": [{"link": "fore", "position": rF[0], "R": RF[0]}]}
        for s, (rF, RF, _) in zip(random_states(M, 20, 2), frames(M, random_states(M, 20, 3), ["fore"]))]
outs = run(["spart-ik", "-m", M, "--fixed-base"], *recs)
check(M, recs, outs, 1e-10)
# the quaternions unit: spart-states --normalize leaves them as they are
again = run(["spart-states", "-m", M, "--normalize"], *[{"qm": o["qm"]} for o in outs])
assert [a["qm"] for a in again] == [o["qm"] for o in outs]
'
  done
}

@test "every example in the man page runs, its answers within the tolerance" {
  cd "$BATS_TEST_TMPDIR"
  ln -s "$TOP/models" models
  man_examples "$TOP/man/spart-ik.1" examples.sh
  [ "$(wc -l < examples.sh)" -ge 5 ]
  run --separate-stderr bash -e examples.sh
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  [ "${#lines[@]}" -eq 4 ]
  for l in "${lines[@]}"; do
    check '
o = json.loads("""'"$l"'""")
assert max(o["ik_error"]) <= 1e-10, o
'
  done
}

@test "coupled mimic joints (--mimic): the follower moves with its leader; the targets met, the follower within its own limits" {
  check '
M = "'"$TOP/tests/data/gripper_mimic.urdf"'"
kin = ["spart-kin", "-m", M, "--mimic", "--frame", "finger_2_link,tip_1", "--only", "rF,RF"]
fk = run(kin, *[{"qm": s["qm"][:3]} for s in random_states(M, 30, 4)])
recs = [{"qm": [0, 0, 0], "targets": [{"link": "finger_2_link", "position": o["rF"][0], "R": o["RF"][0]},
                                      {"link": "tip_1", "position": o["rF"][1]}]} for o in fk]
outs = run(["spart-ik", "-m", M, "--mimic", "--fixed-base"], *recs)
for r, o, f in zip(recs, outs, run(kin, *[{"qm": o["qm"]} for o in outs])):
    t = r["targets"]
    assert math.dist(f["rF"][0], t[0]["position"]) <= 1e-10 and math.dist(f["rF"][1], t[1]["position"]) <= 1e-10, (r, o)
    assert angle(f["RF"][0], t[0]["R"]) <= 1e-10, (r, o)
    q = o["qm"]
    # the model: wrist [-3, 3], finger_1 [-0.5, 0.5], tip [0, 0.01]; finger_2 = -1.5 finger_1 + 0.2 in [-1, 1]
    assert -3 <= q[0] <= 3 and -0.5 <= q[1] <= 0.5 and 0 <= q[2] <= 0.01 and -1 <= -1.5 * q[1] + 0.2 <= 1, q
'
}

@test "a trajectory of targets from one guess gives a smooth trajectory of qm: nearby targets, nearby solutions" {
  check '
M = "'"$IIWA"'"
guess = [0.3, 0.6, -0.2, -1.2, 0.1, 0.8, 0.2]
rF, RF, _ = frames(M, [{"qm": guess}], [7])[0]
# the tool point (position only: four redundant degrees of freedom) along a circle of 5 cm
P = [0, 0, 0.126]
c = point(rF[0], RF[0], P)
path = [[c[0] + 0.05 * math.cos(2 * math.pi * k / 100) - 0.05, c[1] + 0.05 * math.sin(2 * math.pi * k / 100), c[2]]
        for k in range(101)]
recs = [{"qm": guess, "targets": [{"link": 7, "point": P, "position": p}]} for p in path]
outs = run(["spart-ik", "-m", M, "--fixed-base", "--restarts", "0"], *recs)
check(M, recs, outs, 1e-10)
step = max(max(abs(a - b) for a, b in zip(o["qm"], n["qm"])) for o, n in zip(outs, outs[1:]))
# 3.1 mm between targets: the joints move by a few milliradians, never jump to another branch
assert step < 0.05, step
assert max(abs(a - b) for a, b in zip(outs[0]["qm"], guess)) < 1e-9
print(step)
'
}

@test "other fields pass through; CSV output, --by-name and --only as every command; q0 as the base's first guess" {
  run --separate-stderr spart-ik -m "$IIWA" --fixed-base -o csv --by-name <<< '{"targets": [{"link": 7, "position": [0.5, 0, 0.4]}], "time": 3}'
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "time,qm.lbr_iiwa_joint_1,qm.lbr_iiwa_joint_2,qm.lbr_iiwa_joint_3,qm.lbr_iiwa_joint_4,qm.lbr_iiwa_joint_5,qm.lbr_iiwa_joint_6,qm.lbr_iiwa_joint_7,ik_error_1,ik_error_2" ]
  [[ "${lines[1]}" == 3,* ]]
  run --separate-stderr spart-ik -m "$IIWA" --only ik_error <<< '{"q0": [1, 0, 0, 0], "targets": [{"link": 7, "position": [0.5, 0, 0.4]}], "time": 3}'
  [ "$status" -eq 0 ]
  [[ "$output" == '{"time":3,"ik_error":['* ]]
  check '
o = json.loads("""'"$output"'""")
assert max(o["ik_error"]) <= 1e-10, o
'
}

# a stance of the bundled quadruped's four feet (the shanks' ends) on flat ground: stance FILE
stance() {
  python3 - "$1" <<'PY'
import json, sys
feet = {"fl": [0.2, 0.15, 0], "fr": [0.2, -0.15, 0], "hl": [-0.3, 0.15, 0], "hr": [-0.3, -0.15, 0]}
holds = [{"link": l + "_shank", "contacts": [{"point": p, "normal": [0, 0, 1], "mu": 0.6}],
          "point": [0, 0, -0.2], "position": p} for l, p in feet.items()]
json.dump({"holds": holds}, open(sys.argv[1], "w"))
PY
}

@test "--stance: the holds' constraints added to the record's targets: the quadruped's four feet on their points to 1e-9, its trunk at a height; spart-contact finds the pose feasible, the CoM inside the support polygon" {
  stance "$BATS_TEST_TMPDIR/stance.json"
  Q='[0, 0.4, -0.8, 0, 0.4, -0.8, 0, 0.4, -0.8, 0, 0.4, -0.8]'
  for h in 0.30 0.35 0.40; do
    echo "{\"qm\": $Q, \"targets\": [{\"link\": \"torso\", \"position\": [-0.05, 0, $h], \"R\": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}]}"
  done > "$BATS_TEST_TMPDIR/in.jsonl"
  spart-ik -m "$MODELS/quadruped.urdf" --stance "$BATS_TEST_TMPDIR/stance.json" < "$BATS_TEST_TMPDIR/in.jsonl" > "$BATS_TEST_TMPDIR/out.jsonl"
  check '
M = "'"$MODELS/quadruped.urdf"'"
S = json.load(open("'"$BATS_TEST_TMPDIR/stance.json"'"))
recs = [json.loads(l) for l in open("'"$BATS_TEST_TMPDIR/in.jsonl"'")]
outs = [json.loads(l) for l in open("'"$BATS_TEST_TMPDIR/out.jsonl"'")]
assert len(outs) == 3
full = [{"qm": r["qm"], "targets": r["targets"] + [{k: h[k] for k in ("link", "point", "position")} for h in S["holds"]]} for r in recs]
check(M, full, outs, 1e-9)
# the contacts of the holds at the feet, as spart-contact takes them (in the frame of the link)
contacts = [{"link": h["link"], "point": h["point"], "normal": c["normal"], "mu": c["mu"]}
            for h in S["holds"] for c in h["contacts"]]
st = run(["spart-contact", "-m", M, "--gravity", "0,0,-9.81", "--only", "feasible,com_margin"],
         *[{"qm": o["qm"], "R0": o["R0"], "r0": o["r0"], "contacts": contacts} for o in outs])
for s in st:
    assert s["feasible"] is True and s["com_margin"] > 0, s
'
}

@test "--stance: a record may give no targets; a bad stance file is refused with its name and line; --stance needs -m" {
  stance "$BATS_TEST_TMPDIR/stance.json"
  run --separate-stderr spart-ik -m "$MODELS/quadruped.urdf" --stance "$BATS_TEST_TMPDIR/stance.json" <<< '{"qm": [0, 0.4, -0.8, 0, 0.4, -0.8, 0, 0.4, -0.8, 0, 0.4, -0.8]}'
  [ "$status" -eq 0 ]
  [[ "$output" == '{"R0":'* ]]
  printf '{"holds": [\n{"link": "nope", "position": [0, 0, 0]}]}\n' > "$BATS_TEST_TMPDIR/bad.json"
  run --separate-stderr spart-ik -m "$MODELS/quadruped.urdf" --stance "$BATS_TEST_TMPDIR/bad.json" <<< '{"qm": [0, 0.4, -0.8, 0, 0.4, -0.8, 0, 0.4, -0.8, 0, 0.4, -0.8]}'
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "spart-ik: $BATS_TEST_TMPDIR/bad.json:2: holds[0].link: no link 'nope' in the model (ids 0..12)" ]
  printf '{"holds": [{"link": "fl_shank", "com": [0, 0, 0]}]}\n' > "$BATS_TEST_TMPDIR/bad.json"
  run --separate-stderr spart-ik -m "$MODELS/quadruped.urdf" --stance "$BATS_TEST_TMPDIR/bad.json" < /dev/null
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-ik: $BATS_TEST_TMPDIR/bad.json:1: holds[0]: unknown key 'com'" ]
  run --separate-stderr spart-ik --stance "$BATS_TEST_TMPDIR/stance.json" < /dev/null
  [ "$status" -eq 2 ]
  [ "${stderr%%$'\n'*}" = "spart-ik: --stance: the stance's links are read in the model of -m: give -m" ]
}

@test "a target's \"frame\": \"root\": that target in the root link's frame (the iiwa's at (0.1, 0, -0.07)), the others inertial; a bad frame refused" {
  check '
M = "'"$IIWA"'"
recs = []
for rF, RF, _ in frames(M, random_states(M, 20, 17), [4, 7]):
    root = {"link": 7, "position": [rF[1][0] - 0.1, rF[1][1], rF[1][2] + 0.07], "R": RF[1], "frame": "root"}
    recs.append({"qm": [0] * 7, "targets": [root, {"link": 4, "position": rF[0], "frame": "inertial"}]})
outs = run(["spart-ik", "-m", M, "--fixed-base"], *recs)
for r, o, (rF, RF, _) in zip(recs, outs, frames(M, [{"qm": o["qm"]} for o in outs], [4, 7])):
    t7, t4 = r["targets"]
    assert math.dist([rF[1][0] - 0.1, rF[1][1], rF[1][2] + 0.07], t7["position"]) < 1e-10, (r, o)
    assert angle(RF[1], t7["R"]) < 1e-10 and math.dist(rF[0], t4["position"]) < 1e-10, (r, o)
# the base free: R0, r0 written in the inertial frame, where the root target'"'"'s inertial point is met
free = run(["spart-ik", "-m", M], *[{"qm": [0] * 7, "targets": r["targets"][:1]} for r in recs])
inertial = [{"qm": [0] * 7, "targets": [dict(r["targets"][0], position=[p + d for p, d in zip(r["targets"][0]["position"], [0.1, 0, -0.07])])]} for r in recs]
check(M, inertial, free, 1e-10)
'
  run --separate-stderr spart-ik -m "$IIWA" <<< '{"targets": [{"link": 7, "position": [0.4, 0, 0.5], "frame": "tf"}]}'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-ik: <stdin>:1: targets[0].frame: expected \"root\" or \"inertial\"" ]
}

@test "--root-frame: a com_xy target in a root frame that is not level is met along that frame's own x and y" {
  # the iiwa held with its base tilted 0.5 rad about x: the root link's frame is not level
  check '
M = "'"$IIWA"'"
c, s = math.cos(0.5), math.sin(0.5)
R0 = [[1, 0, 0], [0, c, -s], [0, s, c]]
xy = [[0.05 * math.cos(k), 0.05 * math.sin(k)] for k in range(8)]
recs = [{"R0": R0, "qm": [0.1] * 7, "targets": [{"com_xy": p}]} for p in xy]
for opts, key in ((["--root-frame"], None), ([], "root")):
    if key:
        recs = [{"R0": R0, "qm": [0.1] * 7, "targets": [{"com_xy": p, "frame": key}]} for p in xy]
    outs = run(["spart-ik", "-m", M, "--fixed-base"] + opts, *recs)
    for p, (rF, RF, com) in zip(xy, frames(M, [{"R0": R0, "qm": o["qm"]} for o in outs], [0])):
        # the CoM in the root link frame: RF0^T (com - rF0)
        d = [com[k] - rF[0][k] for k in range(3)]
        loc = [sum(RF[0][k][a] * d[k] for k in range(3)) for a in range(3)]
        assert math.dist(loc[:2], p) < 1e-10, (opts, key, loc, p)
'
}

# the stance's feet checked: spart-ik's solutions OUT (JSON lines) of model M meet the holds of
# stance S to 1e-9 (each foot's point, by spart-kin --frame), and the contacts are where the
# feet touch the ground (each contact one radius R below its hold's point); then spart-contact
# --stance S finds each feasible, the CoM inside the support polygon (margin > 0)
stance_holds() {
  check '
M, S, R = "'"$1"'", json.load(open("'"$2"'")), '"$3"'
outs = [json.loads(l) for l in open("'"$4"'")]
assert outs
holds = S["holds"]
for h in holds:
    c = h["contacts"][0]["point"]
    assert math.dist(c, [h["position"][0], h["position"][1], h["position"][2] - R]) < 1e-15, h
kin = ["spart-kin", "-m", M, "--frame", ",".join(h["link"] for h in holds), "--only", "rF,RF"]
for o, k in zip(outs, run(kin, *[{"qm": o["qm"], "R0": o["R0"], "r0": o["r0"]} for o in outs])):
    for h, rF, RF in zip(holds, k["rF"], k["RF"]):
        assert math.dist(point(rF, RF, h["point"]), h["position"]) <= 1e-9, (h, o)
st = run(["spart-contact", "-m", M, "--gravity", "0,0,-9.81", "--stance", "'"$2"'",
          "--only", "feasible,com_margin,support_polygon"], *outs)
assert len(st) == len(outs)
for s in st:
    assert s["feasible"] is True and s["com_margin"] > 0, s
    print(s["com_margin"], len(s["support_polygon"]))
'
}

@test "Go1's four feet on flat ground from a stance file (docs/go1-stance.json), its trunk 0.30 m up: feet on their points to 1e-9, spart-contact --stance finds it feasible, the CoM inside the support polygon" {
  G="$TOP/tests/data/go1.urdf"
  # no qm: from the middle of the limits (knees bent back, as Go1's are)
  echo '{"targets": [{"link": "trunk", "position": [0, 0, 0.30], "R": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}]}' |
    spart-ik -m "$G" --stance "$TOP/docs/go1-stance.json" > "$BATS_TEST_TMPDIR/out.jsonl"
  run stance_holds "$G" "$TOP/docs/go1-stance.json" 0.02 "$BATS_TEST_TMPDIR/out.jsonl"
  echo "$output"
  [ "$status" -eq 0 ]
  # the trunk's origin where its target puts it
  check '
o = json.loads(open("'"$BATS_TEST_TMPDIR/out.jsonl"'").readline())
assert max(o["ik_error"]) <= 1e-10 and abs(o["r0"][2] - 0.30) < 1e-9, o
'
}

# ANYmal C's stance: its feet (LF_FOOT...: a collision sphere of radius 0.03 at (0, 0, 0.0225)
# of the foot's frame) held with the sphere's centre 0.03 m above each point: stance FILE
anymal_stance() {
  python3 - "$1" <<'PY'
import json, sys
feet = {"LF": [0.46, 0.30], "RF": [0.46, -0.30], "LH": [-0.46, 0.30], "RH": [-0.46, -0.30]}
holds = [{"link": l + "_FOOT", "contacts": [{"point": p + [0], "normal": [0, 0, 1], "mu": 0.6}],
          "point": [0, 0, 0.0225], "position": p + [0.03]} for l, p in feet.items()]
json.dump({"holds": holds}, open(sys.argv[1], "w"))
PY
}

@test "ANYmal C's four feet on flat ground, its base 0.45 m up: feet on their points to 1e-9 (from a guess with its knees bent inwards, and from none), feasible by spart-contact --stance, the CoM inside the support polygon" {
  A="$TOP/tests/data/example-robot-data/robots/anymal_c_simple_description/urdf/anymal.urdf"
  anymal_stance "$BATS_TEST_TMPDIR/anymal.json"
  t='"targets": [{"link": "base", "position": [0, 0, 0.45], "R": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}]'
  # the guess: ANYmal's X (front knees back, hind knees forward: LF, RF, LH, RH); without one,
  # from zero (the middle of HFE's and KFE's limits, legs straight), it finds the same
  printf '{"qm": [0, 0.6, -1.2, 0, 0.6, -1.2, 0, -0.6, 1.2, 0, -0.6, 1.2], %s}\n{%s}\n' "$t" "$t" |
    spart-ik -m "$A" --stance "$BATS_TEST_TMPDIR/anymal.json" > "$BATS_TEST_TMPDIR/out.jsonl"
  run stance_holds "$A" "$BATS_TEST_TMPDIR/anymal.json" 0.03 "$BATS_TEST_TMPDIR/out.jsonl"
  echo "$output"
  [ "$status" -eq 0 ]
  check '
a, b = [json.loads(l) for l in open("'"$BATS_TEST_TMPDIR/out.jsonl"'")]
assert abs(a["r0"][2] - 0.45) < 1e-9 and max(abs(x - y) for x, y in zip(a["qm"], b["qm"])) < 1e-6, (a, b)
# the knees inwards: front HFE > 0, KFE < 0; hind the opposite
q = a["qm"]
assert q[1] > 0 > q[2] and q[4] > 0 > q[5] and q[7] < 0 < q[8] and q[10] < 0 < q[11], q
'
}
