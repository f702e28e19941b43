#!/usr/bin/env bats
# spart-sim --integrator implicit (one dynamics evaluation a step, the dampers and Kd implicit)
# and the joint limits held in simulation, against closed forms computed here: a box at rest on
# its corners, a block on a slope, a ball rolling, a pendulum resting on its limit spring; the
# bundled quadruped and Unitree's Go1 standing under PD at 1 kHz.

load helper

# a 1 kg box, a 0.2 m cube, its collision box; a 1 kg sphere of radius 0.1 (solid: 2/5 m r^2)
bodies() {
  cat > "$BATS_TEST_TMPDIR/box.urdf" <<'URDF'
<robot name="box"><link name="box"><inertial><mass value="1"/><inertia ixx="0.0066666666666666667" iyy="0.0066666666666666667" izz="0.0066666666666666667" ixy="0" ixz="0" iyz="0"/></inertial>
<collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision></link></robot>
URDF
  cat > "$BATS_TEST_TMPDIR/ball.urdf" <<'URDF'
<robot name="ball"><link name="ball"><inertial><mass value="1"/><inertia ixx="0.004" iyy="0.004" izz="0.004" ixy="0" ixz="0" iyz="0"/></inertial>
<collision><geometry><sphere radius="0.1"/></geometry></collision></link></robot>
URDF
}

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
    opt=""; kk=$(python3 -c 'print(9.81 / 4e-3)')
    if [ $k != default ]; then opt="--stiffness $k"; kk=$k; fi
    echo '{"r0": [0, 0, 0.5]}' | spart-sim -m "$BATS_TEST_TMPDIR/box.urdf" --gravity 0,0,-9.81 \
      --ground $opt --duration 3 --contact-forces --integrator implicit > "$BATS_TEST_TMPDIR/drop.jsonl"
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
  n=$(python3 -c 'import math; t = math.radians(20); print("%r,0,%r,0" % (-math.sin(t), math.cos(t)))')
  python3 -c '
import json, math
t = math.radians(20); c, s = math.cos(t), math.sin(t); d = 9.81 * c / (4 * 9.81 / 4e-3)
print(json.dumps({"R0": [[c, 0, -s], [0, 1, 0], [s, 0, c]], "r0": [(0.1 - d) * -s, 0, (0.1 - d) * c]}))' \
    > "$BATS_TEST_TMPDIR/block.json"
  python3 -c '
import json, math
t = math.radians(20); d = 9.81 * math.cos(t) / (9.81 / 4e-3)
print(json.dumps({"r0": [(0.1 - d) * -math.sin(t), 0, (0.1 - d) * math.cos(t)]}))' > "$BATS_TEST_TMPDIR/ball.json"
  fit='
import json, math, sys
t20, g = math.radians(20), 9.81
down = [-math.cos(t20), 0, -math.sin(t20)]
rows = [json.loads(l) for l in sys.stdin]
assert rows[-1]["t"] == 3
ts = [r["t"] for r in rows if r["t"] >= 1]
ss = [sum(a * b for a, b in zip(r["r0"], down)) for r in rows if r["t"] >= 1]
if sys.argv[1] == "hold":
    moved = max(abs(s - ss[0]) for s in ss)
    print("mu 0.5: moved", moved)
    assert moved < 1e-3, moved
    sys.exit(0)
# least squares: s = s0 + v0 t + a t^2 / 2
A = [[1, t, t * t / 2] for t in ts]
M = [[sum(a[p] * a[q] for a in A) for q in range(3)] + [sum(a[p] * s for a, s in zip(A, ss))]
     for p in range(3)]
for c in range(3):
    for r in range(3):
        if r != c:
            f = M[r][c] / M[c][c]
            M[r] = [x - f * y for x, y in zip(M[r], M[c])]
a = M[2][3] / M[2][2]
want = 5 / 7 * g * math.sin(t20) if sys.argv[1] == "roll" else g * (math.sin(t20) - 0.3 * math.cos(t20))
print(sys.argv[1], a, want)
assert abs(a - want) <= 0.01 * want'
  run=(spart-sim --gravity 0,0,-9.81 --ground "$n" --duration 3 --every 10 --integrator implicit)
  "${run[@]}" -m "$BATS_TEST_TMPDIR/box.urdf" --mu 0.5 < "$BATS_TEST_TMPDIR/block.json" | python3 -c "$fit" hold
  "${run[@]}" -m "$BATS_TEST_TMPDIR/box.urdf" --mu 0.3 < "$BATS_TEST_TMPDIR/block.json" | python3 -c "$fit" slide
  "${run[@]}" -m "$BATS_TEST_TMPDIR/ball.urdf" < "$BATS_TEST_TMPDIR/ball.json" | python3 -c "$fit" roll
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

@test "implicit at 1 ms: Unitree's Go1 dropped 3 cm above touchdown under PD to thigh 0.8, calf -1.5 (Kp 300 Kd 5, Kp 1000 Kd 10) stands from 0.5 s to 5 s, no foot lifting off" {
  G="$BATS_TEST_DIRNAME/data/go1.urdf"
  q='[0,0.8,-1.5,0,0.8,-1.5,0,0.8,-1.5,0,0.8,-1.5]'
  echo "{\"t\": 0, \"qm\": $q}" > "$BATS_TEST_TMPDIR/ref.json"
  # the feet's centres at r0 = 0; their spheres (radius 0.02) 3 cm above z = 0
  z=$(echo "{\"qm\": $q}" | spart-kin -m "$G" --frame FR_foot --only rF |
    python3 -c 'import json, sys; print(0.05 - json.load(sys.stdin)["rF"][0][2])')
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
