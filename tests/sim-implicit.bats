#!/usr/bin/env bats
# spart-sim --integrator implicit (one dynamics evaluation a step, the dampers and Kd implicit)
# and the joint limits held in simulation, against closed forms computed here: a box at rest on
# its corners, a block on a slope, a ball rolling, a pendulum resting on its limit spring; the
# bundled quadruped and Unitree's Go1 standing under PD at 1 kHz.

load helper

# an inverted pendulum: a 1 kg link whose CoM is 0.5 m above its joint at q = 0 (about y, its
# own inertia 0.01), gravity turning it towards its upper limit UPPER: pendulum UPPER FILE
pendulum() {
  cat > "$2" <<URDF
<robot name="pend"><link name="b"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
<joint name="j" type="revolute"><parent link="b"/><child link="l"/><axis xyz="0 1 0"/><limit lower="-1" upper="$1" effort="100" velocity="100"/></joint>
<link name="l"><inertial><origin xyz="0 0 0.5"/><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link></robot>
URDF
}

@test "implicit at 1 ms: a 1 kg box dropped from 0.5 m rests at 0.1 m less mg/(4k) within 1 um, its contact forces its weight to 1e-6, no energy gained after the first impact" {
  bodies
  for k in default 2000; do
    kk=$(drop_box $k --integrator implicit)
    python3 - "$BATS_TEST_TMPDIR/drop.jsonl" "$kk" <<'PY'
import json, sys
k = float(sys.argv[2])
m, g, I = 1.0, 9.81, 1.0 / 150
corners = [(x, y, z) for x in (-0.1, 0.1) for y in (-0.1, 0.1) for z in (-0.1, 0.1)]
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 3001 and rows[-1]["t"] == 3
energy = []
for r in rows:
    R, p, u = r["R0"], r["r0"], r["u0"]
    depth = [max(0.0, -(p[2] + sum(R[2][a] * c[a] for a in range(3)))) for c in corners]
    e = 0.5 * m * sum(v * v for v in u[3:]) + 0.5 * I * sum(w * w for w in u[:3]) + m * g * p[2]
    energy.append((r["t"], e, e + sum(0.5 * k * d * d for d in depth), max(depth) > 0))
first = min(i for i, x in enumerate(energy) if x[3])
assert 0.28 < energy[first][0] < 0.29, energy[first][0]  # sqrt(2 0.4 / g)
# no energy gained: the energy with the springs' never grows from the first contact on, and a
# state out of contact after it has less than the last one before it
grow = max(b[2] - a[2] for a, b in zip(energy[first:], energy[first + 1:]))
assert grow <= 1e-9, grow
assert all(e <= energy[first - 1][1] for t, e, _, c in energy[first:] if not c)
# at rest: the height within 1 um, the forces the weight to 1e-6
want = 0.1 - m * g / (4 * k)
for r in rows[2000:]:
    assert abs(r["r0"][2] - want) <= 1e-6, (r["t"], r["r0"][2], want)
    fz = sum(f[2] for f in r["contact_forces"])
    assert abs(fz - m * g) <= 1e-6 * m * g, fz
print("k", k, "height", rows[-1]["r0"][2], "want", want, "growth", grow)
PY
  done
}

@test "implicit at 1 ms: a block on a 20 degree slope moves less than 1 mm from 1 s to 3 s at mu 0.5, slides at g (sin 20 - 0.3 cos 20) at mu 0.3, and a ball rolls at 5/7 g sin 20, within 1%" {
  bodies
  fit=(python3 "$BATS_TEST_DIRNAME/slopefit.py")
  n=$("${fit[@]}" plane)
  "${fit[@]}" block > "$BATS_TEST_TMPDIR/block.json"
  "${fit[@]}" ball > "$BATS_TEST_TMPDIR/ball.json"
  run=(spart-sim --gravity 0,0,-9.81 --ground "$n" --duration 3 --every 10 --integrator implicit)
  "${run[@]}" -m "$BATS_TEST_TMPDIR/box.urdf" --mu 0.5 < "$BATS_TEST_TMPDIR/block.json" | "${fit[@]}" hold
  "${run[@]}" -m "$BATS_TEST_TMPDIR/box.urdf" --mu 0.3 < "$BATS_TEST_TMPDIR/block.json" |
    "${fit[@]}" slide 0.3
  "${run[@]}" -m "$BATS_TEST_TMPDIR/ball.urdf" < "$BATS_TEST_TMPDIR/ball.json" | "${fit[@]}" roll
}

# stand.py STATES FEET: from 0.5 s on all four feet carry load, nothing else touches, each foot's
# contact point moves less than 1 mm horizontally, the base less than 5 mm; no foot's normal
# force returns to zero after its touchdown
STAND='
import json, sys
states = [json.loads(l) for l in open(sys.argv[1])]
feet = [json.loads(l)["rF"] for l in open(sys.argv[2])]
assert states[-1]["t"] == 5 and len(states) == len(feet) == 5001
n = len(states[0]["contact_forces"])
# the feet: the spheres loaded at the end, four (for the quadruped those of argv[3])
idx = [j for j in range(n) if states[-1]["contact_forces"][j][2] > 0]
assert len(idx) == 4 and (len(sys.argv) < 4 or idx == [int(j) for j in sys.argv[3].split(",")]), idx
touch, lift = [None] * 4, 0
for s in states:
    f = s["contact_forces"]
    for k, j in enumerate(idx):
        if touch[k] is None and f[j][2] > 0:
            touch[k] = s["t"]
        lift += touch[k] is not None and not f[j][2] > 0
    if s["t"] >= 0.5:
        assert all(f[j][2] > 0 for j in idx), (s["t"], [f[j] for j in idx])
        assert all(f[j] == [0, 0, 0] for j in range(n) if j not in idx), s["t"]
late = [(s, p) for s, p in zip(states, feet) if s["t"] >= 0.5]
slide = max(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 for _, ps in late
            for a, b in zip(ps, late[0][1]))
b0 = late[0][0]["r0"]
drift = max(((s["r0"][0] - b0[0]) ** 2 + (s["r0"][1] - b0[1]) ** 2) ** 0.5 for s, _ in late)
print("touchdowns", touch, "lift-offs", lift, "feet slide", slide, "base drift", drift)
assert None not in touch and lift == 0 and slide < 1e-3 and drift < 5e-3
'

@test "implicit at 1 ms: the bundled quadruped dropped from 0.5 m under PD (Kp 300 Kd 5, Kp 1000 Kd 10) stands from 0.5 s to 5 s on its four feet, no foot lifting off after its touchdown, feet sliding < 1 mm, base drifting < 5 mm" {
  q='[0,0.4,-0.8,0,0.4,-0.8,0,0.4,-0.8,0,0.4,-0.8]'
  echo "{\"t\": 0, \"qm\": $q}" > "$BATS_TEST_TMPDIR/ref.json"
  for gains in "300 5" "1000 10"; do
    set -- $gains
    echo "{\"r0\": [0, 0, 0.5], \"qm\": $q}" | spart-sim -m "$MODELS/quadruped.urdf" \
      --gravity 0,0,-9.81 --ground --duration 5 --contact-forces --integrator implicit \
      --control pd --kp $1 --kd $2 --reference "$BATS_TEST_TMPDIR/ref.json" > "$BATS_TEST_TMPDIR/stand.jsonl"
    # the feet's contact points: the spheres (radius 0.02) 0.2 below the shanks' frames
    spart-kin -m "$MODELS/quadruped.urdf" --frame fl_shank,fr_shank,hl_shank,hr_shank --only rF,RF \
      < "$BATS_TEST_TMPDIR/stand.jsonl" | python3 -c '
import json, sys
for l in sys.stdin:
    f = json.loads(l)
    print(json.dumps({"rF": [[p[i] - 0.2 * R[i][2] for i in range(3)] for R, p in zip(f["RF"], f["rF"])]}))' \
      > "$BATS_TEST_TMPDIR/feet.jsonl"
    # its contact spheres: the torso's eight corners, then the four feet
    python3 -c "$STAND" "$BATS_TEST_TMPDIR/stand.jsonl" "$BATS_TEST_TMPDIR/feet.jsonl" 8,9,10,11
  done
}

# Unitree's Go1 at thigh 0.8, calf -1.5 dropped 3 cm above touchdown: its model G, pose q and the
# base's height z set, the reference of that pose in $BATS_TEST_TMPDIR/ref.json
go1_drop() {
  G="$BATS_TEST_DIRNAME/data/go1.urdf"
  q='[0,0.8,-1.5,0,0.8,-1.5,0,0.8,-1.5,0,0.8,-1.5]'
  echo "{\"t\": 0, \"qm\": $q}" > "$BATS_TEST_TMPDIR/ref.json"
  # the feet's centres at r0 = 0; their spheres (radius 0.02) 3 cm above z = 0
  z=$(echo "{\"qm\": $q}" | spart-kin -m "$G" --frame FR_foot --only rF |
    python3 -c 'import json, sys; print(0.05 - json.load(sys.stdin)["rF"][0][2])')
}

@test "implicit at 1 ms: Unitree's Go1 dropped 3 cm above touchdown under PD to thigh 0.8, calf -1.5 (Kp 300 Kd 5, Kp 1000 Kd 10) stands from 0.5 s to 5 s, no foot lifting off" {
  go1_drop
  for gains in "300 5" "1000 10"; do
    set -- $gains
    echo "{\"r0\": [0, 0, $z], \"qm\": $q}" | spart-sim -m "$G" --gravity 0,0,-9.81 --ground \
      --duration 5 --contact-forces --integrator implicit --control pd --kp $1 --kd $2 \
      --reference "$BATS_TEST_TMPDIR/ref.json" > "$BATS_TEST_TMPDIR/stand.jsonl"
    spart-kin -m "$G" --frame FR_foot,FL_foot,RR_foot,RL_foot --only rF \
      < "$BATS_TEST_TMPDIR/stand.jsonl" > "$BATS_TEST_TMPDIR/feet.jsonl"
    python3 -c "$STAND" "$BATS_TEST_TMPDIR/stand.jsonl" "$BATS_TEST_TMPDIR/feet.jsonl"
    # the four loaded at the end are the feet: on the ground (their centres a radius above it,
    # less the static depth) and carrying the robot's weight
    python3 - "$BATS_TEST_TMPDIR/stand.jsonl" "$BATS_TEST_TMPDIR/feet.jsonl" "$(urdf2robot "$G")" <<'PY'
import json, sys
last = json.loads(open(sys.argv[1]).readlines()[-1])
feet = json.loads(open(sys.argv[2]).readlines()[-1])["rF"]
M = sum(l["mass"] for l in json.loads(sys.argv[3])["links"]) + json.loads(sys.argv[3])["base_link"]["mass"]
fz = sum(f[2] for f in last["contact_forces"])
print("feet heights", [p[2] for p in feet], "forces", fz, "weight", M * 9.81)
assert all(0.018 < p[2] < 0.02 for p in feet)
assert abs(fz - M * 9.81) < 1e-6 * M * 9.81
PY
  done
}

@test "implicit: first order (the error against a fine rk4 run halves with the step), where rk4 at 1 ms is refused: kuka_iiwa under PD 100, 10, a floating spacecraft under PD, both under computed torque" {
  st='{"qm": [0.3, 0.5, -0.2, -1, 0.2, 0.4, 0.1], "um": [0.5, 0, -0.5, 0.2, 0, 0.1, 1]}'
  echo '{"t": 0, "qm": [0, 0.6, 0, -1.2, 0, 0.5, 0]}' > "$BATS_TEST_TMPDIR/ref.json"
  arm=(-m "$MODELS/kuka_iiwa.urdf" --fixed-base --gravity 0,0,-9.81 --control pd --kp 100 --kd 10
       --reference "$BATS_TEST_TMPDIR/ref.json" --duration 0.5 --every 1000000)
  run -1 --separate-stderr spart-sim "${arm[@]}" --dt 0.001 <<< "$st"
  [[ "$stderr" == *"unstable step for rk4 with the controller's gains"* ]]
  spart-sim "${arm[@]}" --dt 0.00002 <<< "$st" | tail -n 1 > "$BATS_TEST_TMPDIR/fine.json"
  for dt in 0.001 0.0005 0.00025; do
    spart-sim "${arm[@]}" --dt $dt --integrator implicit <<< "$st" | tail -n 1 > "$BATS_TEST_TMPDIR/$dt.json"
  done
  sc=(-m "$MODELS/2_iiwa_base.urdf" --control pd --kp 50 --kd 20 --duration 0.5 --every 1000000
      --reference "$BATS_TEST_TMPDIR/sref.json")
  python3 -c 'import json; print(json.dumps({"t": 0, "qm": [0.5] * 14}))' > "$BATS_TEST_TMPDIR/sref.json"
  ss='{"qm": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], "u0": [0.1, -0.2, 0.3, 0, 0, 0], "um": [0.5, 0, -0.5, 0.2, 0, 0.1, 1, 0, 0, 0, 0, 0, 0, 0]}'
  spart-sim "${sc[@]}" --dt 0.00002 <<< "$ss" | tail -n 1 > "$BATS_TEST_TMPDIR/sfine.json"
  for dt in 0.001 0.0005 0.00025; do
    spart-sim "${sc[@]}" --dt $dt --integrator implicit <<< "$ss" | tail -n 1 > "$BATS_TEST_TMPDIR/s$dt.json"
  done
  # computed torque (its damping Hs Kd) on the arm, and on the spacecraft's free base
  for law in arm sc; do
    if [ $law = arm ]; then
      o=(-m "$MODELS/kuka_iiwa.urdf" --fixed-base --gravity 0,0,-9.81 --reference "$BATS_TEST_TMPDIR/ref.json")
      s="$st"
    else
      o=(-m "$MODELS/2_iiwa_base.urdf" --reference "$BATS_TEST_TMPDIR/sref.json")
      s="$ss"
    fi
    o+=(--control ctc --kp 400 --kd 40 --duration 0.5 --every 1000000)
    spart-sim "${o[@]}" --dt 0.00002 <<< "$s" | tail -n 1 > "$BATS_TEST_TMPDIR/c${law}fine.json"
    for dt in 0.001 0.0005 0.00025; do
      spart-sim "${o[@]}" --dt $dt --integrator implicit <<< "$s" | tail -n 1 \
        > "$BATS_TEST_TMPDIR/c$law$dt.json"
    done
  done
  python3 - "$BATS_TEST_TMPDIR" <<'PY'
import json, sys
d = sys.argv[1]
for pre in ("", "s", "carm", "csc"):
    ref = json.load(open("%s/%sfine.json" % (d, pre)))
    err = {}
    for dt in ("0.001", "0.0005", "0.00025"):
        r = json.load(open("%s/%s%s.json" % (d, pre, dt)))
        assert r["t"] == 0.5
        err[dt] = max(abs(x - y) for x, y in zip(r["qm"] + r["um"] + r["u0"], ref["qm"] + ref["um"] + ref["u0"]))
    print(pre or "arm", err)
    for a, b in (("0.001", "0.0005"), ("0.0005", "0.00025")):
        assert 1.7 < err[a] / err[b] < 2.3, (a, b, err[a] / err[b])
    assert err["0.001"] < 0.02
PY
}

@test "--integrator implicit: refused with --mimic and with dopri5's options; -j 2 writes what one thread writes" {
  run -2 --separate-stderr spart-sim -m "$BATS_TEST_DIRNAME/data/gripper_mimic.urdf" --mimic \
    --duration 1 --integrator implicit <<< '{}'
  [ "${stderr_lines[0]}" = "spart-sim: --integrator implicit with --mimic: the implicit step does not take coupled mimic joints" ]
  run -2 --separate-stderr spart-sim -m "$MODELS/kuka_iiwa.urdf" --duration 1 --integrator implicit \
    --rtol 1e-6 <<< '{}'
  [[ "$stderr" == "spart-sim: --rtol, --atol and --max-steps are dopri5's"* ]]
  printf '%s\n' '{"id": 1, "r0": [0, 0, 0.5]}' '{"id": 2, "r0": [0, 0, 0.4], "u0": [1, 0, 0, 0, 0, 0]}' \
    '{"id": 3, "r0": [0, 0, 0.3]}' > "$BATS_TEST_TMPDIR/in.jsonl"
  cat > "$BATS_TEST_TMPDIR/box.urdf" <<'URDF'
<robot name="box"><link name="box"><inertial><mass value="1"/><inertia ixx="0.0066666666666666667" iyy="0.0066666666666666667" izz="0.0066666666666666667" ixy="0" ixz="0" iyz="0"/></inertial>
<collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision></link></robot>
URDF
  o=(-m "$BATS_TEST_TMPDIR/box.urdf" --gravity 0,0,-9.81 --ground --duration 1 --integrator implicit)
  [ "$(spart-sim "${o[@]}" -j 2 < "$BATS_TEST_TMPDIR/in.jsonl")" = "$(spart-sim "${o[@]}" < "$BATS_TEST_TMPDIR/in.jsonl")" ]
}

@test "joint limits held: an inverted pendulum falling onto its limit stops there, at rest past it by the limit spring's static deflection (to 1e-6 rad), never 3 degrees past, rk4 and implicit; --check-limits still reports it; --no-limits lets it through" {
  pendulum 1 "$BATS_TEST_TMPDIR/p.urdf"
  for integ in rk4 implicit; do
    spart-sim -m "$BATS_TEST_TMPDIR/p.urdf" --fixed-base --gravity 0,0,-9.81 --duration 3 \
      --integrator $integ <<< '{"qm": [0.1]}' > "$BATS_TEST_TMPDIR/$integ.jsonl"
    python3 - "$BATS_TEST_TMPDIR/$integ.jsonl" $integ <<'PY'
import json, math, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
q = [r["qm"][0] for r in rows]
m, g, l, Iy = 1.0, 9.81, 0.5, 0.01
w = 1000.0  # the limits' rate, every integrator's
k = (Iy + m * l * l) * w ** 2  # the limit default spring: its own inertia times w^2
d = 0.0  # at rest: k d = m g l sin(1 + d)
for _ in range(100):
    d = m * g * l * math.sin(1 + d) / k
print("past the limit: most", max(q) - 1, "at rest", q[-1] - 1, "static deflection", d)
assert max(q) - 1 < math.radians(3)
assert all(abs(x - 1 - d) < 1e-6 for x in q[-500:])
assert d < math.radians(0.1)
PY
  done
  run -4 --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/p.urdf" --fixed-base --gravity 0,0,-9.81 \
    --duration 3 --check-limits --integrator implicit <<< '{"qm": [0.1]}'
  [[ "${stderr_lines[0]}" == "spart-sim: <stdin>:1: t = "*": joint 1 'j' leaves its limits: qm_1 = "*" > upper" ]]
  spart-sim -m "$BATS_TEST_TMPDIR/p.urdf" --fixed-base --gravity 0,0,-9.81 --duration 3 --no-limits \
    <<< '{"qm": [0.1]}' | tail -n 1 | python3 -c 'import json, sys; q = json.load(sys.stdin)["qm"][0]; print(q); assert q > 2'
}

@test "joint limits: a joint inside its limits moves exactly as with --no-limits (rk4, dopri5, implicit, byte for byte); rk4 past the limit spring's stability is refused naming it" {
  st='{"qm": [0.1, 0.5, -0.3, -1, 0.2, 0.4, 0], "um": [0.5, 0, -0.5, 0.2, 0, 0.1, 1]}'
  o=(-m "$MODELS/kuka_iiwa.urdf" --fixed-base --gravity 0,0,-9.81 --duration 0.3)
  for integ in rk4 dopri5 implicit; do
    spart-sim "${o[@]}" --integrator $integ <<< "$st" > "$BATS_TEST_TMPDIR/on.jsonl"
    spart-sim "${o[@]}" --integrator $integ --no-limits <<< "$st" > "$BATS_TEST_TMPDIR/off.jsonl"
    cmp "$BATS_TEST_TMPDIR/on.jsonl" "$BATS_TEST_TMPDIR/off.jsonl"
    [ "$(wc -l < "$BATS_TEST_TMPDIR/on.jsonl")" -ge 2 ]
  done
  # the pendulum onto its limit at a 20 ms step: the spring (1000/s, critical) is past rk4's
  pendulum 1 "$BATS_TEST_TMPDIR/p.urdf"
  run -1 --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/p.urdf" --fixed-base \
    --gravity 0,0,-9.81 --duration 3 --dt 0.02 <<< '{"qm": [0.1]}'
  [[ "$stderr" == *"is an unstable step for rk4 with the limit spring of joint 1 'j': the largest stable step here is"* ]]
}

@test "joint limits: kuka_iiwa let go in gravity for 2 s keeps every joint within its limits to 1 degree, and a gripper's fingers falling along their prismatic joints within theirs to 1 mm (rk4 and implicit)" {
  cat > "$BATS_TEST_TMPDIR/hand.urdf" <<'URDF'
<robot name="hand"><link name="hand"><inertial><mass value="0.8"/><inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial></link>
<joint name="f1" type="prismatic"><parent link="hand"/><child link="left"/><axis xyz="0 0 1"/><limit lower="0" upper="0.04" effort="20" velocity="0.2"/></joint>
<link name="left"><inertial><mass value="0.1"/><inertia ixx="1e-5" iyy="1e-5" izz="1e-5" ixy="0" ixz="0" iyz="0"/></inertial></link>
<joint name="f2" type="prismatic"><parent link="hand"/><child link="right"/><axis xyz="0 0 -1"/><limit lower="0" upper="0.04" effort="20" velocity="0.2"/></joint>
<link name="right"><inertial><mass value="0.1"/><inertia ixx="1e-5" iyy="1e-5" izz="1e-5" ixy="0" ixz="0" iyz="0"/></inertial></link></robot>
URDF
  for integ in rk4 implicit; do
    spart-sim -m "$MODELS/kuka_iiwa.urdf" --fixed-base --gravity 0,0,-9.81 --duration 2 --every 10 \
      --integrator $integ <<< '{"qm": [0, 1.5, 0, 0.5, 0, 1, 0], "um": [2, 0, 1, 0, 3, 0, 5]}' > "$BATS_TEST_TMPDIR/arm.jsonl"
    spart-sim -m "$BATS_TEST_TMPDIR/hand.urdf" --fixed-base --gravity 0,0,-9.81 --duration 2 \
      --integrator $integ <<< '{"qm": [0.02, 0.02]}' > "$BATS_TEST_TMPDIR/hand.jsonl"
    python3 - "$BATS_TEST_TMPDIR/arm.jsonl" "$BATS_TEST_TMPDIR/hand.jsonl" "$(urdf2robot "$MODELS/kuka_iiwa.urdf")" $integ <<'PY'
import json, math, sys
lim = [j["limit"] for j in json.loads(sys.argv[3])["joints"] if j["type"] != 0]
rows = [json.loads(l) for l in open(sys.argv[1])]
past = max(max(q - hi, lo - q) for r in rows for q, (lo, hi) in zip(r["qm"], lim))
print("arm: most past a limit", math.degrees(past), "degrees; at the end", rows[-1]["qm"])
assert past < math.radians(1)
assert any(max(q - hi, lo - q) > -0.01 for q, (lo, hi) in zip(rows[-1]["qm"], lim))  # one on its limit
rows = [json.loads(l) for l in open(sys.argv[2])]
past = max(max(q - 0.04, -q) for r in rows for q in r["qm"])
print("fingers: most past a limit", past, "m; at the end", rows[-1]["qm"])
assert past < 1e-3
w = 1000.0  # the limits' rate, every integrator's
assert abs(rows[-1]["qm"][0] + 0.1 * 9.81 / (0.1 * w ** 2)) < 1e-6  # at rest: mg / k below 0
assert abs(rows[-1]["qm"][1] - 0.04 - 0.1 * 9.81 / (0.1 * w ** 2)) < 1e-6  # mg / k above 0.04
PY
  done
}

@test "bash completion: --integrator's implicit, --no-limits; spart-sim --help names them" {
  complete_words() {
    PATH="$TOP/bin:$PATH" bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
      _spart "$1" "${COMP_WORDS[-1]}" "${COMP_WORDS[-2]}"; printf "%s\n" "${COMPREPLY[@]}"' \
      _ "$TOP/completion/spart.bash" "$@"
  }
  run -0 complete_words spart-sim --integrator ''
  [ "$output" = "$(printf 'rk4\ndopri5\nimplicit')" ]
  run -0 complete_words spart-sim --no-l
  [ "$output" = "--no-limits" ]
  run -0 spart-sim --help
  [[ "$output" == *"--no-limits"* && "$output" == *"or implicit"* ]]
}

@test "the README's quadruped at 1 kHz by the implicit step runs: it lands without a foot lifting off again and stands, gnuplot draws stand.png" {
  readme_dir stand.gp
  # the q= and nominal.json lines of the RK4 example, then the implicit one's block
  python3 -c '
import sys
lines = open(sys.argv[1]).read().split("\n")
q = next(i for i, l in enumerate(lines) if l.endswith("> nominal.json")) - 1
end = next(i for i, l in enumerate(lines) if l.startswith("    ") and "--integrator implicit" in l)
start = max(i for i in range(end) if lines[i].startswith("    echo"))
stop = next(i for i in range(end, len(lines)) if lines[i].endswith("> stand.csv"))
print("\n".join(l[4:] for l in lines[q:q + 2] + lines[start:stop + 1]))' "$TOP/README.md" > example.sh
  [ "$(wc -l < example.sh)" -eq 6 ]
  grep -q -- "--integrator implicit" example.sh
  bash -e example.sh
  # the same run with the contact forces: no foot's force back to zero after its touchdown
  sed 's/-o csv/--contact-forces -o json/; s/> stand.csv/> forces.jsonl/' example.sh > forces.sh
  bash -e forces.sh
  python3 - <<'PY'
import csv, json
rows = list(csv.DictReader(open("stand.csv")))
assert len(rows) == 301 and rows[-1]["t"] == "3"
z = [float(r["r0_3"]) for r in rows if float(r["t"]) >= 1]
print("base height from 1 s:", min(z), max(z))
assert max(z) - min(z) < 1e-3
touch, lift = [None] * 4, 0
for l in open("forces.jsonl"):
    r = json.loads(l)
    for k, f in enumerate(r["contact_forces"][8:]):
        touch[k] = r["t"] if touch[k] is None and f[2] > 0 else touch[k]
        lift += touch[k] is not None and not f[2] > 0
print("touchdowns", touch, "lift-offs", lift)
assert None not in touch and lift == 0
PY
  if command -v gnuplot > /dev/null; then
    gnuplot scripts/stand.gp
    [ -s stand.png ]
  fi
}

@test "implicit: a joint's Coulomb friction F holds it under a steady torque below F (still to 1e-6 rad over 2 s), and above F it turns at (tau - F) / I, q within (tau - F) / I h t of the closed form; no chatter at rest" {
  cat > "$BATS_TEST_TMPDIR/f.urdf" <<'URDF'
<robot name="f"><link name="b"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
<joint name="j" type="continuous"><parent link="b"/><child link="l"/><axis xyz="0 0 1"/><dynamics damping="0" friction="0.2"/></joint>
<link name="l"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.02" ixy="0" ixz="0" iyz="0"/></inertial></link></robot>
URDF
  for tau in 0.1 -0.15 0.5; do
    spart-sim -m "$BATS_TEST_TMPDIR/f.urdf" --fixed-base --duration 2 --integrator implicit \
      <<< "{\"qm\": [0], \"taum\": [$tau]}" > "$BATS_TEST_TMPDIR/f.jsonl"
    python3 - "$BATS_TEST_TMPDIR/f.jsonl" "$tau" <<'PY'
import json, sys
tau, F, I, h = float(sys.argv[2]), 0.2, 0.02, 0.001
rows = [json.loads(l) for l in open(sys.argv[1])]
q = [r["qm"][0] for r in rows]
if abs(tau) < F:
    print("tau", tau, "most moved", max(abs(x) for x in q))
    assert max(abs(x) for x in q) < 1e-6
else:
    a = (tau - F) / I
    err = max(abs(x - a * r["t"] ** 2 / 2) - a * h * r["t"] for x, r in zip(q, rows))
    print("tau", tau, "q(2)", q[-1], "closed form", a * 2, "worst beyond a h t", err)
    assert err <= 1e-12
    # accelerating from the second step on at exactly (tau - F) / I
    um = [r["um"][0] for r in rows]
    assert all(abs((b - c) / h - a) < 1e-9 * a for b, c in zip(um[2:], um[1:]))
PY
  done
}

@test "implicit: a box thrown sideways onto the ground (mu 0.5) lands, slides and stops where a fine rk4 run puts it, first order (1 ms within 2 mm, the error halving with the step); past the explicit springs' bound the step is refused naming the term" {
  bodies
  s='{"r0": [0, 0, 0.3], "u0": [0, 0, 0, 2, 0.5, 0]}'
  o=(-m "$BATS_TEST_TMPDIR/box.urdf" --gravity 0,0,-9.81 --ground --mu 0.5 --duration 1 --every 1000000)
  spart-sim "${o[@]}" --dt 0.00002 <<< "$s" | tail -n 1 > "$BATS_TEST_TMPDIR/fine.json"
  for dt in 0.001 0.0005 0.00025; do
    spart-sim "${o[@]}" --dt $dt --integrator implicit <<< "$s" | tail -n 1 > "$BATS_TEST_TMPDIR/$dt.json"
  done
  python3 - "$BATS_TEST_TMPDIR" <<'PY'
import json, sys
d = sys.argv[1]
ref = json.load(open(d + "/fine.json"))
assert ref["t"] == 1 and abs(ref["r0"][0] - 0.5168) < 1e-3 and max(map(abs, ref["u0"])) < 1e-6
err = {}
for dt in ("0.001", "0.0005", "0.00025"):
    r = json.load(open("%s/%s.json" % (d, dt)))
    assert r["t"] == 1 and max(map(abs, r["u0"])) < 1e-6  # at rest
    err[dt] = max(abs(x - y) for x, y in zip(r["r0"] + sum(r["R0"], []), ref["r0"] + sum(ref["R0"], [])))
print("errors", err)
assert err["0.001"] < 2e-3
for a, b in (("0.001", "0.0005"), ("0.0005", "0.00025")):
    assert 1.4 < err[a] / err[b] < 2.6, (a, b, err[a] / err[b])
PY
  # the bundled quadruped collapsing at 20 ms: the ground's tangential spring on a shank's
  # contact is past h^2 kt / m <= 4 + 2 h ct / m (it diverged, or ran to a wrong answer, before)
  q='[0,0,0,0,0,0,0,0,0,0,0,0]'
  run -1 --separate-stderr spart-sim -m "$MODELS/quadruped.urdf" --gravity 0,0,-9.81 --ground \
    --duration 2 --dt 0.02 --integrator implicit <<< "{\"r0\": [0, 0, 0.5], \"qm\": $q}"
  [[ "$stderr" == "spart-sim: <stdin>:1: t = 0.14: --dt 0.02 is an unstable step for the implicit step with the ground's stiffness at link "*": the largest stable step here is 0.01"*" s (use a smaller --dt, or --integrator dopri5)" ]]
  [ "$(echo "$output" | wc -l)" -eq 7 ]  # the states before it
  # a pendulum under PD at Kp 1e6 (Kd 0): h^2 Kp / I = 4 at h = 2 sqrt(I / Kp)
  pendulum 3 "$BATS_TEST_TMPDIR/p.urdf"
  echo '{"t": 0, "qm": [0.5]}' > "$BATS_TEST_TMPDIR/ref.json"
  I=0.26  # its inertia about the joint: 0.01 + 1 0.5^2
  for dt in 0.00101 0.00103; do
    run --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/p.urdf" --fixed-base --duration 0.1 --dt $dt \
      --integrator implicit --control pd --kp 1e6 --kd 0 --reference "$BATS_TEST_TMPDIR/ref.json" <<< '{"qm": [0]}'
    echo "$dt: $status $stderr"
    if [ $dt = 0.00101 ]; then [ $status -eq 0 ]; else [ $status -eq 1 ]; fi
  done
  [[ "$stderr" == *"the controller's gains (the fastest at joint 1 'j'): the largest stable step here is 0.00101"* ]]
}

@test "joint limits: Franka's Panda let go in gravity for 2 s (the implicit step at 1 ms and dopri5, fixed base) keeps every revolute joint within its limits to 1 degree and its fingers within theirs to 1 mm, from three poses" {
  P="$BATS_TEST_DIRNAME/data/example-robot-data/robots/panda_description/urdf/panda.urdf"
  urdf2robot --package-path "$BATS_TEST_DIRNAME/data" "$P" > "$BATS_TEST_TMPDIR/panda.json"
  for q in '[0, -0.785, 0, -2.356, 0, 1.571, 0.785, 0.02, 0.02]' \
    '[0.5, 0.3, -0.5, -1.0, 1.0, 2.0, -1.0, 0.01, 0.03]' '[0, 0, 0, -0.1, 0, 0, 0, 0.04, 0]'; do
    for integ in implicit dopri5; do
    spart-sim -m "$BATS_TEST_TMPDIR/panda.json" --fixed-base --gravity 0,0,-9.81 --duration 2 \
      --integrator $integ <<< "{\"qm\": $q}" > "$BATS_TEST_TMPDIR/panda.jsonl"
    python3 - "$BATS_TEST_TMPDIR/panda.jsonl" "$BATS_TEST_TMPDIR/panda.json" <<'PY'
import json, math, sys
joints = [j for j in json.load(open(sys.argv[2]))["joints"] if j["type"] != 0]
assert [j["type"] for j in joints] == [1] * 7 + [2] * 2  # 7 revolute, 2 prismatic fingers
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 2001 and rows[-1]["t"] == 2
past = [max(max(r["qm"][i] - j["limit"][1], j["limit"][0] - r["qm"][i]) for r in rows)
        for i, j in enumerate(joints)]
fast = max(abs(u) for r in rows for u in r["um"][:7])
print("most past: revolute", math.degrees(max(past[:7])), "deg, fingers", max(past[7:]), "m;",
      "fastest joint", fast, "rad/s")
assert max(past[:7]) < math.radians(1) and max(past[7:]) < 1e-3
assert fast > 10  # it fell: its joints were driven into their limits
assert max(past) > -1e-3  # and met them
PY
    done
  done
}

# lift.py STATES: the four spheres loaded at the end touch down and their normal forces never
# return to zero after
LIFT='
import json, sys
states = [json.loads(l) for l in open(sys.argv[1])]
n = len(states[0]["contact_forces"])
idx = [j for j in range(n) if states[-1]["contact_forces"][j][2] > 0]
assert len(idx) == 4, idx
touch, lift = [None] * 4, 0
for s in states:
    for k, j in enumerate(idx):
        fz = s["contact_forces"][j][2]
        touch[k] = s["t"] if touch[k] is None and fz > 0 else touch[k]
        lift += touch[k] is not None and not fz > 0
print("touchdowns", touch, "lift-offs", lift)
assert None not in touch and lift == 0
'

@test "the ground's default damping takes an impact without rebound under rk4 and dopri5 too (critical for the whole robot on one contact): the bundled quadruped dropped from 0.5 m (rk4 at 0.2 ms, dopri5) and Go1 from 3 cm (rk4 at 0.05 ms) under PD (Kp 300 Kd 5, Kp 1000 Kd 10) land without a foot lifting off again; rk4 at 1 ms is refused naming the ground" {
  q='[0,0.4,-0.8,0,0.4,-0.8,0,0.4,-0.8,0,0.4,-0.8]'
  echo "{\"t\": 0, \"qm\": $q}" > "$BATS_TEST_TMPDIR/ref.json"
  for gains in "300 5 --dt 0.0002" "1000 10 --dt 0.0002" "300 5 --integrator dopri5" "1000 10 --integrator dopri5"; do
    set -- $gains
    echo "{\"r0\": [0, 0, 0.5], \"qm\": $q}" | spart-sim -m "$MODELS/quadruped.urdf" --gravity 0,0,-9.81 \
      --ground --duration 2 --contact-forces --control pd --kp $1 --kd $2 $3 $4 \
      --reference "$BATS_TEST_TMPDIR/ref.json" 2> /dev/null > "$BATS_TEST_TMPDIR/land.jsonl"
    python3 -c "$LIFT" "$BATS_TEST_TMPDIR/land.jsonl"
  done
  run -1 --separate-stderr spart-sim -m "$MODELS/quadruped.urdf" --gravity 0,0,-9.81 --ground \
    --duration 2 --control pd --kp 300 --kd 5 --reference "$BATS_TEST_TMPDIR/ref.json" <<< "{\"r0\": [0, 0, 0.5], \"qm\": $q}"
  [[ "$stderr" == *": --dt 0.001 is an unstable step for rk4 with the ground's stiffness at link "*"_shank': the largest stable step here is 0.000"* ]]
  go1_drop
  for gains in "300 5" "1000 10"; do
    set -- $gains
    echo "{\"r0\": [0, 0, $z], \"qm\": $q}" | spart-sim -m "$G" --gravity 0,0,-9.81 --ground \
      --duration 1 --dt 0.00005 --every 10 --contact-forces --control pd --kp $1 --kd $2 \
      --reference "$BATS_TEST_TMPDIR/ref.json" 2> /dev/null > "$BATS_TEST_TMPDIR/land.jsonl"
    python3 -c "$LIFT" "$BATS_TEST_TMPDIR/land.jsonl"
  done
}

@test "implicit: its error estimate warns once a trajectory past --tol-implicit (default 1 cm): the limp quadruped dropped at 5 ms (exit 0, every state written); not at 1 ms under PD; 0 silences it; refused without the implicit step" {
  drop=(-m "$MODELS/quadruped.urdf" --gravity 0,0,-9.81 --ground --duration 2 --integrator implicit)
  limp='{"r0": [0, 0, 0.5], "qm": [0,0,0,0,0,0,0,0,0,0,0,0]}'
  run -0 --separate-stderr spart-sim "${drop[@]}" --dt 0.005 <<< "$limp"$'\n'"$limp"
  [ "${#lines[@]}" -eq 802 ]
  [ "${#stderr_lines[@]}" -eq 2 ]
  for k in 0 1; do
    [[ "${stderr_lines[$k]}" =~ ^"spart-sim: <stdin>:$((k + 1)): t = "[0-9.]+": the implicit step's error estimate passed --tol-implicit 0.01 m, "0\.[1-9][0-9]?" m at t = 2 (the links' positions, the steps' own errors added up): take a smaller --dt, or --integrator rk4 or dopri5"$ ]]
  done
  run -0 --separate-stderr spart-sim "${drop[@]}" --dt 0.005 --tol-implicit 0 <<< "$limp"
  [ -z "$stderr" ] && [ "${#lines[@]}" -eq 401 ]
  # not at 1 ms on the bundled quadruped and Go1 standing under PD, nor on a box sliding to rest
  q='[0,0.4,-0.8,0,0.4,-0.8,0,0.4,-0.8,0,0.4,-0.8]'
  echo "{\"t\": 0, \"qm\": $q}" > "$BATS_TEST_TMPDIR/ref.json"
  run -0 --separate-stderr spart-sim -m "$MODELS/quadruped.urdf" --gravity 0,0,-9.81 --ground \
    --duration 5 --integrator implicit --control pd --kp 300 --kd 5 \
    --reference "$BATS_TEST_TMPDIR/ref.json" <<< "{\"r0\": [0, 0, 0.5], \"qm\": $q}"
  [ -z "$stderr" ] && [ "${#lines[@]}" -eq 5001 ]
  go1_drop
  run -0 --separate-stderr spart-sim -m "$G" --gravity 0,0,-9.81 --ground --duration 5 \
    --integrator implicit --control pd --kp 300 --kd 5 --reference "$BATS_TEST_TMPDIR/ref.json" \
    <<< "{\"r0\": [0, 0, $z], \"qm\": $q}"
  [ -z "$stderr" ]
  bodies
  run -0 --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/box.urdf" --gravity 0,0,-9.81 --ground \
    --mu 0.5 --duration 1 --integrator implicit <<< '{"r0": [0, 0, 0.3], "u0": [0, 0, 0, 2, 0.5, 0]}'
  [ -z "$stderr" ]
  run -2 --separate-stderr spart-sim "${drop[@]/implicit/rk4}" --tol-implicit 0.1 <<< "$limp"
  [ "${stderr_lines[0]}" = "spart-sim: --tol-implicit is the implicit step's: add --integrator implicit" ]
  run -2 --separate-stderr spart-sim "${drop[@]}" --tol-implicit -1 <<< "$limp"
  [[ "$stderr" == "spart-sim: --tol-implicit: "* ]]
  run -0 spart-sim --help
  [[ "$output" == *"--tol-implicit E the implicit step's error estimate"* ]]
  run -0 bash -c '. "$1"; COMP_WORDS=(spart-sim --tol-i); COMP_CWORD=1; _spart spart-sim --tol-i spart-sim
    printf "%s\n" "${COMPREPLY[@]}"' _ "$TOP/completion/spart.bash"
  [ "$output" = "--tol-implicit" ]
}

@test "implicit: its error estimate (the links' positions) is within 0.5 to 5 times the true error, the largest over the run against a fine rk4 run: a box thrown sideways at 1 ms and 5 ms, kuka_iiwa under PD at 1 ms" {
  bodies
  box=(-m "$BATS_TEST_TMPDIR/box.urdf" --gravity 0,0,-9.81 --ground --mu 0.5 --duration 1)
  bs='{"r0": [0, 0, 0.3], "u0": [0, 0, 0, 2, 0.5, 0]}'
  echo '{"t": 0, "qm": [0, 0.6, 0, -1.2, 0, 0.5, 0]}' > "$BATS_TEST_TMPDIR/ref.json"
  arm=(-m "$MODELS/kuka_iiwa.urdf" --fixed-base --gravity 0,0,-9.81 --control pd --kp 100 --kd 2
       --reference "$BATS_TEST_TMPDIR/ref.json" --duration 0.5)
  as='{"qm": [0.3, 0.5, -0.2, -1, 0.2, 0.4, 0.1], "um": [0.5, 0, -0.5, 0.2, 0, 0.1, 1]}'
  # each on a 10 ms grid, the links' CoMs by spart-kin; the estimate at the end from the line
  # that a tolerance of 1e-12 m brings
  sim() { # NAME MODEL STATE DT EVERY OPTIONS...
    local name=$1 model=$2 st=$3 dt=$4 every=$5
    shift 5
    spart-sim "$@" --dt $dt --every $every <<< "$st" 2> "$BATS_TEST_TMPDIR/$name.err" \
      > "$BATS_TEST_TMPDIR/$name.sim.jsonl"
    spart-kin -m "$model" --only rL < "$BATS_TEST_TMPDIR/$name.sim.jsonl" \
      > "$BATS_TEST_TMPDIR/$name.jsonl"
  }
  sim boxfine "$BATS_TEST_TMPDIR/box.urdf" "$bs" 0.00002 500 "${box[@]}"
  sim armfine "$MODELS/kuka_iiwa.urdf" "$as" 0.00002 500 "${arm[@]}"
  for dt in 0.001 0.005; do
    sim box$dt "$BATS_TEST_TMPDIR/box.urdf" "$bs" $dt $((10 / ${dt#0.00})) "${box[@]}" \
      --integrator implicit --tol-implicit 1e-12
  done
  sim arm0.001 "$MODELS/kuka_iiwa.urdf" "$as" 0.001 10 "${arm[@]}" --integrator implicit \
    --tol-implicit 1e-12
  python3 - "$BATS_TEST_TMPDIR" <<'PY'
import json, math, re, sys
d = sys.argv[1]
def links(name):  # the base's CoM r0 and the links' CoMs rL, state by state
    base = [json.loads(l)["r0"] for l in open("%s/%s.sim.jsonl" % (d, name))]
    kin = [json.loads(l)["rL"] for l in open("%s/%s.jsonl" % (d, name))]
    return [[r] + rL for r, rL in zip(base, kin)]
for run, fine in (("box0.001", "boxfine"), ("box0.005", "boxfine"), ("arm0.001", "armfine")):
    a, b = links(run), links(fine)
    assert len(a) == len(b) > 50, (len(a), len(b))
    true = max(math.dist(p, q) for x, y in zip(a, b) for p, q in zip(x, y))
    est = float(re.search(r", ([0-9.e-]+) m at t = ", open("%s/%s.err" % (d, run)).read()).group(1))
    print(run, "estimate", est, "true", true, "ratio", est / true)
    assert 0.5 * true <= est <= 5 * true, (run, est, true)
PY
}
