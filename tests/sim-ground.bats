#!/usr/bin/env bats
# spart-sim --ground: compliant contact of the collision shapes with a plane, checked against
# closed forms computed here: a box at rest on its four corners (height, forces), its energy
# after the impact (kinetic + potential + the contacts' springs), a sphere rolling and sliding
# down a slope, the bundled quadruped standing under PD (its feet from spart-kin --frame).

load helper

@test "a 1 kg box dropped from 0.5 m comes to rest within 2 s at 0.1 m less mg/(4k), its contact forces its weight, its energy never growing after the impact" {
  bodies
  for k in default 2000; do
    kk=$(drop_box $k)
    python3 - "$BATS_TEST_TMPDIR/drop.jsonl" "$kk" <<'PY'
import json, sys
k = float(sys.argv[2])
m, g, I = 1.0, 9.81, 1.0 / 150
corners = [(x, y, z) for x in (-0.1, 0.1) for y in (-0.1, 0.1) for z in (-0.1, 0.1)]
energy, first = [], None
for line in open(sys.argv[1]):
    r = json.loads(line)
    R, p, u = r["R0"], r["r0"], r["u0"]
    depth = [max(0.0, -(p[2] + sum(R[2][a] * c[a] for a in range(3)))) for c in corners]
    if first is None and max(depth) > 0:
        first = r["t"]
    e = 0.5 * m * sum(v * v for v in u[3:]) + 0.5 * I * sum(w * w for w in u[:3]) + m * g * p[2] \
        + sum(0.5 * k * d * d for d in depth)
    energy.append((r["t"], e))
    last = r
# at rest by 2 s: the height, the velocity, the forces
rest = [json.loads(l) for l in open(sys.argv[1]) if json.loads(l)["t"] >= 2]
want = 0.1 - m * g / (4 * k)
for r in rest:
    assert abs(r["r0"][2] - want) <= 1e-3 * want, (r["t"], r["r0"][2], want)
    assert max(abs(v) for v in r["u0"]) < 1e-6, r["u0"]
fz = sum(f[2] for f in last["contact_forces"])
print("k", k, "height", last["r0"][2], "want", want, "forces", fz)
assert abs(fz - m * g) <= 1e-6 * m * g, fz
assert len(last["contact_forces"]) == 8 and all(len(f) == 3 for f in last["contact_forces"])
# the energy: kept in the fall (RK4's error), never growing from the first impact on
assert first is not None and 0.28 < first < 0.29, first  # sqrt(2 0.4 / g)
fall = [e for t, e in energy if t < first]
assert max(fall) - min(fall) < 1e-9, max(fall) - min(fall)
after = [e for t, e in energy if t >= first]
grow = max(b - a for a, b in zip(after, after[1:]))
print("largest growth after the impact:", grow, "energy lost:", after[0] - after[-1])
assert grow <= 1e-9, grow
d = m * g / (4 * k)  # at rest: the CoM at 0.1 - d, four springs d deep
assert abs(after[-1] - (m * g * (0.1 - d) + 4 * 0.5 * k * d * d)) < 1e-9, after[-1]
PY
  done
}

@test "a sphere on a 20 degree slope rolls at (5/7) g sin 20 with friction enough, and slides at g (sin 20 - 0.1 cos 20) with mu 0.1, within 1%" {
  bodies
  # at rest on the plane, pressed in by its static depth mg cos(20) / k
  n=$(python3 "$BATS_TEST_DIRNAME/slopefit.py" plane)
  python3 "$BATS_TEST_DIRNAME/slopefit.py" ball > "$BATS_TEST_TMPDIR/init.json"
  spart-sim -m "$BATS_TEST_TMPDIR/ball.urdf" --gravity 0,0,-9.81 --ground "$n" --duration 3 \
    --every 10 < "$BATS_TEST_TMPDIR/init.json" | python3 "$BATS_TEST_DIRNAME/slopefit.py" roll
  spart-sim -m "$BATS_TEST_TMPDIR/ball.urdf" --gravity 0,0,-9.81 --ground "$n" --mu 0.1 \
    --slip 0.005 --duration 3 --every 10 < "$BATS_TEST_TMPDIR/init.json" |
    python3 "$BATS_TEST_DIRNAME/slopefit.py" slide 0.1
}

@test "the bundled quadruped under PD to its nominal configuration stands for 5 s: base height within 1 cm of its steady value, feet sliding less than 1 mm" {
  q='[0,0.4,-0.8,0,0.4,-0.8,0,0.4,-0.8,0,0.4,-0.8]'
  echo "{\"t\": 0, \"qm\": $q}" > "$BATS_TEST_TMPDIR/ref.json"
  # the feet (spheres of 0.02 at the shanks' ends) touching z = 0: the hip 0.4 cos(0.4) above
  echo "{\"r0\": [0.02, 0, $(python3 -c 'import math; print(0.4 * math.cos(0.4) + 0.02 + 0.01)')], \"qm\": $q}" |
    spart-sim -m "$MODELS/quadruped.urdf" --gravity 0,0,-9.81 --ground --duration 5 --dt 0.0002 \
      --every 50 --control pd --kp 300 --kd 1.5 --reference "$BATS_TEST_TMPDIR/ref.json" > "$BATS_TEST_TMPDIR/stand.jsonl"
  spart-kin -m "$MODELS/quadruped.urdf" --frame fl_shank,fr_shank,hl_shank,hr_shank --only rF,RF \
    < "$BATS_TEST_TMPDIR/stand.jsonl" > "$BATS_TEST_TMPDIR/feet.jsonl"
  python3 - "$BATS_TEST_TMPDIR/stand.jsonl" "$BATS_TEST_TMPDIR/feet.jsonl" <<'PY'
import json, sys
states = [json.loads(l) for l in open(sys.argv[1])]
frames = [json.loads(l) for l in open(sys.argv[2])]
assert len(states) == 501 and states[-1]["t"] == 5
z = [s["r0"][2] for s in states]
steady = z[-1]
print("base height: steady", steady, "range", min(z), max(z))
assert max(abs(h - steady) for h in z) < 0.01
feet = [[[p[i] - 0.2 * R[i][2] for i in range(3)] for R, p in zip(f["RF"], f["rF"])] for f in frames]
slide = max(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5
            for fs in feet for a, b in zip(fs, feet[0]))
print("largest foot slide:", slide, "feet heights:", [f[2] for f in feet[-1]])
assert slide < 1e-3
assert all(0.0185 < f[2] < 0.02 for f in feet[-1])  # pressed in, by less than a millimetre
PY
}

@test "--ground NX,NY,NZ,D as its own argument or after '=', the default plane the same, contact_forces in CSV as n x 3 columns" {
  bodies
  echo '{"r0": [0, 0, 0.2]}' > "$BATS_TEST_TMPDIR/s.json"
  spart-sim -m "$BATS_TEST_TMPDIR/box.urdf" --gravity 0,0,-9.81 --ground --duration 0.5 --every 50 \
    --contact-forces < "$BATS_TEST_TMPDIR/s.json" > "$BATS_TEST_TMPDIR/a"
  spart-sim -m "$BATS_TEST_TMPDIR/box.urdf" --gravity 0,0,-9.81 --ground 0,0,2,0 --duration 0.5 \
    --every 50 --contact-forces < "$BATS_TEST_TMPDIR/s.json" > "$BATS_TEST_TMPDIR/b"
  spart-sim -m "$BATS_TEST_TMPDIR/box.urdf" --gravity 0,0,-9.81 --ground=0,0,1,0 --duration 0.5 \
    --every 50 --contact-forces < "$BATS_TEST_TMPDIR/s.json" > "$BATS_TEST_TMPDIR/c"
  cmp "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
  cmp "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/c"
  run -0 spart-sim -m "$BATS_TEST_TMPDIR/box.urdf" --gravity 0,0,-9.81 --ground --duration 0.5 \
    --every 500 --contact-forces -o csv < "$BATS_TEST_TMPDIR/s.json"
  [[ "${lines[0]}" == *,um_1,*contact_forces_1_1,contact_forces_1_2,contact_forces_1_3,* ]] ||
    [[ "${lines[0]}" == *,contact_forces_1_1,contact_forces_1_2,contact_forces_1_3,* ]]
  [[ "${lines[0]}" == *,contact_forces_8_3 ]]
  # a plane 0.1 below: the box falls further
  spart-sim -m "$BATS_TEST_TMPDIR/box.urdf" --gravity 0,0,-9.81 --ground 0,0,1,-0.1 --duration 2 \
    --every 2000 < "$BATS_TEST_TMPDIR/s.json" | tail -1 |
    python3 -c 'import json, sys; z = json.loads(sys.stdin.read())["r0"][2]; print(z); assert abs(z - (0.1 - 0.1 - 0.001)) < 1e-6'
}

@test "spart-sim --ground with -j 2 over several initial states writes what one thread writes, byte for byte" {
  q='[0,0.4,-0.8,0,0.4,-0.8,0,0.4,-0.8,0,0.4,-0.8]'
  echo "{\"t\": 0, \"qm\": $q}" > "$BATS_TEST_TMPDIR/ref.json"
  for h in 0.40 0.45 0.5 0.55; do echo "{\"r0\": [0, 0, $h], \"qm\": $q}"; done > "$BATS_TEST_TMPDIR/init.json"
  for j in 1 2; do
    spart-sim -j $j -m "$MODELS/quadruped.urdf" --gravity 0,0,-9.81 --ground --duration 0.5 \
      --dt 0.0002 --every 100 --control pd --kp 300 --kd 1.5 --reference "$BATS_TEST_TMPDIR/ref.json" \
      --contact-forces < "$BATS_TEST_TMPDIR/init.json" > "$BATS_TEST_TMPDIR/out$j"
  done
  cmp "$BATS_TEST_TMPDIR/out1" "$BATS_TEST_TMPDIR/out2"
  [ "$(wc -l < "$BATS_TEST_TMPDIR/out1")" -eq 104 ]
}

@test "--ground: spheres of radius 0 are points: a 1 kg body on three point feet 0.1 m below its CoM rests at 0.1 - mg/(3k), each foot holding mg/3" {
  cat > "$BATS_TEST_TMPDIR/tri.urdf" <<'URDF'
<robot name="tri"><link name="body"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
<collision><origin xyz="0.1 0 -0.1"/><geometry><sphere radius="0"/></geometry></collision>
<collision><origin xyz="-0.05 0.08660254037844387 -0.1"/><geometry><sphere radius="0.0"/></geometry></collision>
<collision><origin xyz="-0.05 -0.08660254037844387 -0.1"/><geometry><sphere radius="0"/></geometry></collision></link></robot>
URDF
  run -0 spart-sim -m "$BATS_TEST_TMPDIR/tri.urdf" --gravity 0,0,-9.81 --ground --stiffness 2000 \
    --duration 3 --every 3000 --contact-forces <<< '{"r0": [0, 0, 0.3]}'
  python3 -c '
import json, sys
r = json.loads(sys.argv[1].splitlines()[-1])
assert r["t"] == 3 and abs(r["r0"][2] - (0.1 - 9.81 / 6000)) < 1e-9, r
assert len(r["contact_forces"]) == 3, r
assert all(abs(f[2] - 9.81 / 3) < 1e-9 and abs(f[0]) < 1e-9 and abs(f[1]) < 1e-9 for f in r["contact_forces"]), r' "$output"
}

@test "spart-sim --ground refuses what it cannot do: exit 2 for usage, 1 for a model without collision shapes" {
  bodies
  s='{"r0": [0, 0, 1]}'
  run -2 spart-sim -m "$BATS_TEST_TMPDIR/box.urdf" --duration 1 --ground <<< "$s"
  [ "${lines[0]}" = "spart-sim: --ground without a plane is the one through 0 against gravity: give --gravity, or the plane NX,NY,NZ,D" ]
  run -2 spart-sim -m "$BATS_TEST_TMPDIR/box.urdf" --duration 1 --mu 0.5 <<< "$s"
  [ "${lines[0]}" = "spart-sim: --mu does nothing without --ground" ]
  run -2 spart-sim -m "$BATS_TEST_TMPDIR/box.urdf" --duration 1 --ground=0,0,0,1 <<< "$s"
  [ "${lines[0]}" = "spart-sim: --ground: expected NX,NY,NZ,D with a normal that is not zero, got '0,0,0,1'" ]
  run -2 spart-sim -m "$BATS_TEST_TMPDIR/box.urdf" --duration 1 --ground 0,0,1,0 --stiffness -1 <<< "$s"
  [ "${lines[0]}" = "spart-sim: --stiffness: expected a stiffness > 0 in N/m, got '-1'" ]
  run -2 spart-sim -m "$BATS_TEST_TMPDIR/box.urdf" --duration 1 --ground 0,0,1,0 --slip 0 <<< "$s"
  [ "${lines[0]}" = "spart-sim: --slip: expected a speed > 0 in m/s, got '0'" ]
  run -1 --separate-stderr spart-sim -m "$MODELS/SC_3DoF.urdf" --duration 1 \
    --ground 0,0,1,0 <<< '{"qm": [0,0,0]}'
  [ "$stderr" = "spart-sim: --ground: the model has no collision shapes to touch it" ]
  [ -z "$output" ]
}

@test "spart-sim --ground: a model whose collision shapes are all meshes is told so (which, and why none touch), not that it has none" {
  run -1 --separate-stderr spart-sim -m "$MODELS/kuka_lwr.urdf" --fixed-base --duration 1 \
    --ground 0,0,1,0 <<< '{"qm": [0,0,0,0,0,0,0]}'
  [ "$stderr" = "spart-sim: --ground: the model's 8 collision shapes are meshes not read, which the ground cannot touch; the first, 'meshes_kuka_lwr/convex/arm_base_convex.stl' on link 'calib_kuka_arm_base_link', was not found" ]
  [ -z "$output" ]
  # one mesh, an STL file that is there: read, it touches with its hull's vertices
  printf 'solid t\nfacet normal 0 0 0\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n' > "$BATS_TEST_TMPDIR/t.stl"
  cat > "$BATS_TEST_TMPDIR/m.urdf" <<'URDF'
<robot name="m"><link name="body"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
<collision><geometry><mesh filename="t.stl"/></geometry></collision></link></robot>
URDF
  run -0 --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/m.urdf" --duration 0.01 --ground 0,0,1,0 <<< '{"r0": [0, 0, 1]}'
  [ -z "$stderr" ]
}

@test "the README's quadruped example runs: dropped, it lands and stands, gnuplot draws stand.png" {
  readme_dir stand.gp
  # the block: from the q= line before nominal.json's to the line that writes stand.csv
  python3 -c '
import sys
lines = open(sys.argv[1]).read().split("\n")
end = next(i for i, l in enumerate(lines) if l.endswith("> stand.csv"))
start = max(i for i in range(end) if lines[i].startswith("    q="))
print("\n".join(l[4:] for l in lines[start:end + 1]))' "$TOP/README.md" > example.sh
  [ "$(wc -l < example.sh)" -eq 5 ]
  bash -e example.sh
  python3 - <<'PY'
import csv, math
rows = list(csv.DictReader(open("stand.csv")))
assert len(rows) == 301 and rows[-1]["t"] == "3"
z = [float(r["r0_3"]) for r in rows]
touch = 0.4 * math.cos(0.4) + 0.02 + 0.01  # the base's CoM when the feet touch z = 0
late = [h for r, h in zip(rows, z) if float(r["t"]) >= 0.7]
print("lowest", min(z), "stands at", z[-1], "touching at", touch)
assert z[0] == 0.5 and min(z) > 0.37          # it fell 0.1 m and did not collapse
assert max(late) - min(late) < 1e-3            # standing from 0.7 s on
assert 0 < touch - z[-1] < 0.005               # a few millimetres below touching
PY
  if command -v gnuplot > /dev/null; then
    gnuplot scripts/stand.gp
    [ "$(head -c 8 stand.png | od -An -c | tr -d ' ')" = '211PNG\r\n032\n' ]
  fi
}

# a quadruped whose stance loads its feet sideways (tests/data/splayed_quadruped.urdf: the legs
# splayed outward, the front knees bent forward and the hind ones backward, a payload off the
# torso's centre); $1 the extra options of spart-sim; its states and feet (spart-kin) in
# $BATS_TEST_TMPDIR/stand.jsonl, feet.jsonl, the foot spheres' centres printed as JSON
splayed_stand() {
  local model="$BATS_TEST_DIRNAME/data/splayed_quadruped.urdf"
  local q='[0.3,-0.7,1.3,-0.3,-0.7,1.3,0.3,0.7,-1.3,-0.3,0.7,-1.3]'
  echo "{\"t\": 0, \"qm\": $q}" > "$BATS_TEST_TMPDIR/ref.json"
  # the base high enough that the feet (spheres of 0.03 at the shanks' ends) are 0.5 mm above
  # z = 0
  local z
  z=$(echo "{\"qm\": $q}" | spart-kin -m "$model" --frame lf_shank,rf_shank,lh_shank,rh_shank \
    --only rF,RF | python3 -c '
import json, sys
f = json.loads(sys.stdin.read())
print(0.0305 - min(p[2] - 0.25 * R[2][2] for R, p in zip(f["RF"], f["rF"])))')
  echo "{\"r0\": [0, 0, $z], \"qm\": $q}" |
    spart-sim -m "$model" --gravity 0,0,-9.81 --ground --duration 5 --dt 0.0002 --every 50 --control pd \
      --kp 1000 --kd 10 --reference "$BATS_TEST_TMPDIR/ref.json" "$@" > "$BATS_TEST_TMPDIR/stand.jsonl"
  spart-kin -m "$model" --frame lf_shank,rf_shank,lh_shank,rh_shank --only rF,RF \
    < "$BATS_TEST_TMPDIR/stand.jsonl" > "$BATS_TEST_TMPDIR/feet.jsonl"
}

@test "a quadruped with splayed legs, knees forward in front and backward behind and an off-centre payload stands 5 s under PD: base height within 1 cm of its steady value, feet sliding less than 1 mm" {
  splayed_stand
  python3 - "$BATS_TEST_TMPDIR/stand.jsonl" "$BATS_TEST_TMPDIR/feet.jsonl" <<'PY'
import json, sys
states = [json.loads(l) for l in open(sys.argv[1])]
frames = [json.loads(l) for l in open(sys.argv[2])]
assert len(states) == 501 and states[-1]["t"] == 5
z = [s["r0"][2] for s in states]
print("base height: steady", z[-1], "range", min(z), max(z))
assert max(abs(h - z[-1]) for h in z) < 0.01
feet = [[[p[i] - 0.25 * R[i][2] for i in range(3)] for R, p in zip(f["RF"], f["rF"])] for f in frames]
# the feet spread sideways and carry sideways loads: outside the hips, splayed
assert all(abs(f[1]) > 0.25 for f in feet[0]), feet[0]
slide = max(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5
            for fs in feet for a, b in zip(fs, feet[0]))
print("largest foot slide:", slide, "feet heights:", [f[2] for f in feet[-1]])
assert slide < 1e-3, slide
assert all(0.025 < f[2] < 0.03 for f in feet[-1])  # pressed in, by less than 5 mm
PY
}

@test "a block on a 20 degree slope stays put with mu 0.5 (tan 20 = 0.36 < 0.5): it moves less than 1 mm in 2 s after settling; with mu 0.3 it slides at g (sin 20 - 0.3 cos 20) within 1%" {
  bodies
  # on its face, turned 20 degrees about y (its z the plane's normal), pressed in by its static
  # depth mg cos(20) / (4 k), k the default stiffness mg / 4 mm
  n=$(python3 "$BATS_TEST_DIRNAME/slopefit.py" plane)
  python3 "$BATS_TEST_DIRNAME/slopefit.py" block > "$BATS_TEST_TMPDIR/init.json"
  spart-sim -m "$BATS_TEST_TMPDIR/box.urdf" --gravity 0,0,-9.81 --ground "$n" --mu 0.5 \
    --duration 3 --every 10 < "$BATS_TEST_TMPDIR/init.json" | python3 "$BATS_TEST_DIRNAME/slopefit.py" hold
  spart-sim -m "$BATS_TEST_TMPDIR/box.urdf" --gravity 0,0,-9.81 --ground "$n" --mu 0.3 \
    --duration 3 --every 10 < "$BATS_TEST_TMPDIR/init.json" |
    python3 "$BATS_TEST_DIRNAME/slopefit.py" slide 0.3
}

@test "--tangential-stiffness, --tangential-damping: refused without --ground, with --slip, or not > 0; completed by bash; a stiffer spring holds a block on a slope closer to where it was put" {
  bodies
  s='{"r0": [0, 0, 1]}'
  run -2 spart-sim -m "$BATS_TEST_TMPDIR/box.urdf" --duration 1 --tangential-stiffness 1000 <<< "$s"
  [ "${lines[0]}" = "spart-sim: --tangential-stiffness does nothing without --ground" ]
  run -2 spart-sim -m "$BATS_TEST_TMPDIR/box.urdf" --duration 1 --ground 0,0,1,0 --slip 0.1 \
    --tangential-damping 5 <<< "$s"
  [ "${lines[0]}" = "spart-sim: --tangential-damping with --slip: the regularised friction that --slip chooses has no tangential spring" ]
  run -2 spart-sim -m "$BATS_TEST_TMPDIR/box.urdf" --duration 1 --ground 0,0,1,0 --tangential-damping 0 <<< "$s"
  [ "${lines[0]}" = "spart-sim: --tangential-damping: expected a damping > 0 in N s/m, got '0'" ]
  run -2 spart-sim -m "$BATS_TEST_TMPDIR/box.urdf" --duration 1 --ground 0,0,1,0 --tangential-stiffness -3 <<< "$s"
  [ "${lines[0]}" = "spart-sim: --tangential-stiffness: expected a stiffness > 0 in N/m, got '-3'" ]
  run -0 bash -c 'PATH="$1/bin:$PATH"; . "$1/completion/spart.bash"; COMP_WORDS=(spart-sim --tang); COMP_CWORD=1
    _spart spart-sim --tang spart-sim; printf "%s\n" "${COMPREPLY[@]}"' _ "$TOP"
  [ "$output" = "$(printf -- '--tangential-stiffness\n--tangential-damping')" ] ||
    [ "$output" = "$(printf -- '--tangential-damping\n--tangential-stiffness')" ]
  # on a 20 degree slope (mu 1) the block settles by its tilt (its front corners pressed in
  # more) and the springs' deflection, mg sin 20 / (4 KT) a corner: 10 times the stiffness,
  # about a tenth of the latter (at 0.5 ms: the stiffer springs' dampers past rk4's stability
  # at 1 ms, whose block drifted sideways)
  n=$(python3 -c 'import math; t = math.radians(20); print("%r,0,%r,0" % (-math.sin(t), math.cos(t)))')
  python3 -c '
import json, math
t = math.radians(20); c, s = math.cos(t), math.sin(t); d = 9.81 * c / (4 * 9.81 / 4e-3)
print(json.dumps({"R0": [[c, 0, -s], [0, 1, 0], [s, 0, c]], "r0": [(0.1 - d) * -s, 0, (0.1 - d) * c]}))' \
    > "$BATS_TEST_TMPDIR/init.json"
  for kt in 2452.5 24525; do
    spart-sim -m "$BATS_TEST_TMPDIR/box.urdf" --gravity 0,0,-9.81 --ground "$n" --duration 1 \
      --dt 0.0005 --every 2000 --tangential-stiffness $kt < "$BATS_TEST_TMPDIR/init.json" | tail -1
  done | python3 -c '
import json, math, sys
t = math.radians(20)
down = [-math.cos(t), 0, -math.sin(t)]
s = [sum(a * b for a, b in zip(json.loads(l)["r0"], down)) for l in sys.stdin]
want = 9.81 * math.sin(t) / (4 * 2452.5)
print("settled by", s, "a corner spring deflected by", want)
assert 0.5 * want < s[0] < 3 * want and s[0] - s[1] > 0.9 * want * 0.8, s'
}

@test "spart-sim --ground with dopri5: -j 2 writes what one thread writes, and the block sliding down a slope agrees with rk4's" {
  bodies
  n=$(python3 -c 'import math; t = math.radians(20); print("%r,0,%r,0" % (-math.sin(t), math.cos(t)))')
  python3 -c '
import json, math
t = math.radians(20); c, s = math.cos(t), math.sin(t)
for v in (0, 0.5, 1, 2):
    print(json.dumps({"id": v, "R0": [[c, 0, -s], [0, 1, 0], [s, 0, c]], "r0": [0.1 * -s, 0, 0.1 * c + 0.01],
                      "u0": [0, 0, 0, -v * c, 0.3 * v, -v * s]}))' > "$BATS_TEST_TMPDIR/init.json"
  for j in 1 2; do
    spart-sim -j $j -m "$BATS_TEST_TMPDIR/box.urdf" --gravity 0,0,-9.81 --ground "$n" --mu 0.4 \
      --duration 1 --every 100 --integrator dopri5 --contact-forces < "$BATS_TEST_TMPDIR/init.json" \
      > "$BATS_TEST_TMPDIR/out$j"
  done
  cmp "$BATS_TEST_TMPDIR/out1" "$BATS_TEST_TMPDIR/out2"
  [ "$(wc -l < "$BATS_TEST_TMPDIR/out1")" -eq 44 ]
  spart-sim -m "$BATS_TEST_TMPDIR/box.urdf" --gravity 0,0,-9.81 --ground "$n" --mu 0.4 \
    --duration 1 --every 1000 --dt 0.0001 < "$BATS_TEST_TMPDIR/init.json" > "$BATS_TEST_TMPDIR/rk4"
  python3 - "$BATS_TEST_TMPDIR/out1" "$BATS_TEST_TMPDIR/rk4" <<'PY'
import json, sys
a = [json.loads(l) for l in open(sys.argv[1])]
b = [json.loads(l) for l in open(sys.argv[2])]
assert [r["t"] for r in a] == [r["t"] for r in b]
err = max(abs(x - y) for r, s in zip(a, b) for x, y in zip(r["r0"], s["r0"]))
print("dopri5 against rk4 at 0.1 ms: largest difference of r0", err)
assert err < 1e-4, err
PY
}

@test "a contact that makes rk4's step unstable stops the run at its time, naming the link and the largest stable step (the closed form's within 0.2%), nothing unstable written; resting on it, refused at 1.02 of that step and a 10 times finer run's at 0.95 of it" {
  bodies
  # the ball (1 kg) on one contact along the line through its CoM, without friction: 1 z^2 +
  # 1400 z + 1e6 = 0, whose largest stable step rk4limit.py gives
  h=$(python3 "$BATS_TEST_DIRNAME/rk4limit.py" 1 1400 1e6)
  opts=(-m "$BATS_TEST_TMPDIR/ball.urdf" --gravity 0,0,-9.81 --ground --mu 0 --stiffness 1e6
    --damping 1400 --only t,r0)
  dt=$(python3 -c "print(1.02 * $h)")
  run -1 --separate-stderr spart-sim "${opts[@]}" --duration 0.6 --dt "$dt" <<< '{"r0": [0, 0, 0.3]}'
  # it falls 0.2 m (0.202 s), stopped at the first step that brings the contact
  [[ "$stderr" =~ ^"spart-sim: <stdin>:1: t = "([0-9.]+)": --dt $dt is an unstable step for rk4 with the ground's stiffness at link 0 'ball': the largest stable step here is "([0-9.e-]+)" s (use a smaller --dt, or --integrator implicit or dopri5)"$ ]]
  python3 - "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}" "$h" "$dt" "${lines[-1]}" <<'PY'
import json, math, sys
t, named, h, dt = (float(x) for x in sys.argv[1:5])
last = json.loads(sys.argv[5])
print(t, named, h, last)
assert 0.998 * h <= named <= h
assert math.sqrt(0.4 / 9.81) < t < math.sqrt(0.4 / 9.81) + dt
assert abs(last["t"] - (t - dt)) < 1e-12 and last["r0"][2] > 0.1  # the state before, in the air
PY
  # resting on the ground, pressed 2 um past its rest (in its linear range, the contact never
  # lost): at 1.02 of the step refused before the run (let run, it leaves the ground within
  # 0.1 s); at 0.95 of it every state is within the 2 um of a run at a tenth of the step, the
  # last at rest at 0.1 - mg/k as that run's
  st='{"r0": [0, 0, 0.09998819]}'
  run -1 --separate-stderr spart-sim "${opts[@]}" --duration 0.2 --dt "$dt" <<< "$st"
  [ -z "$output" ]
  [[ "$stderr" == "spart-sim: <stdin>:1: t = 0: --dt $dt is an unstable step for rk4 with the ground's stiffness at link 0 'ball': "* ]]
  dt=$(python3 -c "print(0.2 / __import__('math').ceil(0.2 / (0.95 * $h)))")
  spart-sim "${opts[@]}" --duration 0.2 --dt "$dt" <<< "$st" > "$BATS_TEST_TMPDIR/a.jsonl"
  spart-sim "${opts[@]}" --duration 0.2 --dt "$(python3 -c "print($dt / 10)")" --every 10 \
    <<< "$st" > "$BATS_TEST_TMPDIR/b.jsonl"
  python3 - "$BATS_TEST_TMPDIR/a.jsonl" "$BATS_TEST_TMPDIR/b.jsonl" <<'PY'
import json, sys
a, b = ([json.loads(l) for l in open(f)] for f in sys.argv[1:3])
assert len(a) == len(b) > 70 and all(abs(x["t"] - y["t"]) < 1e-12 for x, y in zip(a, b))
worst = max(abs(x["r0"][2] - y["r0"][2]) for x, y in zip(a, b))
print("largest difference", worst, "last", a[-1], b[-1])
assert worst < 2e-6
assert abs(a[-1]["r0"][2] - b[-1]["r0"][2]) < 1e-12 and abs(a[-1]["r0"][2] - (0.1 - 9.81e-6)) < 1e-12
PY
}


@test "the README's quadruped at 1 ms, not its 0.5 ms: Kd 10 refused before the run (the controller's gains), Kd 5 stopped when its feet touch (the ground's stiffness at a shank)" {
  q='[0,0.4,-0.8,0,0.4,-0.8,0,0.4,-0.8,0,0.4,-0.8]'
  echo "{\"t\": 0, \"qm\": $q}" > "$BATS_TEST_TMPDIR/nominal.json"
  opts=(-m "$MODELS/quadruped.urdf" --gravity 0,0,-9.81 --ground --control pd --kp 300
    --reference "$BATS_TEST_TMPDIR/nominal.json" --duration 3 --every 20 --only t,r0)
  run -1 --separate-stderr spart-sim "${opts[@]}" --kd 10 <<< "{\"r0\": [0, 0, 0.5], \"qm\": $q}"
  [ -z "$output" ]
  [[ "$stderr" == "spart-sim: <stdin>:1: t = 0: --dt 0.001 is an unstable step for rk4 with the controller's gains (the fastest at joint "*"): the largest stable step here is 0.000"*" s (use a smaller --dt, or --integrator implicit or dopri5)" ]]
  run -1 --separate-stderr spart-sim "${opts[@]}" --kd 5 <<< "{\"r0\": [0, 0, 0.5], \"qm\": $q}"
  [[ "$stderr" =~ ^"spart-sim: <stdin>:1: t = 0.14"[0-9]*": --dt 0.001 is an unstable step for rk4 with the ground's stiffness at link "[0-9]+" '"[a-z]+_shank"': the largest stable step here is 0.000"[0-9]+" s (use a smaller --dt, or --integrator implicit or dopri5)"$ ]]
  # the states before the feet touch are written, the last in the air
  [ "${#lines[@]}" -eq 8 ]
  [[ "${lines[-1]}" == '{"t":0.14,'* ]]
}

@test "--ground: no plane with zero gravity refused; normals of 1e200 and 1e-300 are the plane z = 0 (no overflow, no underflow); numbers that are not finite said so" {
  bodies
  s='{"r0": [0, 0, 0.3]}'
  run -2 --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/ball.urdf" --duration 1 --gravity 0,0,0 --ground <<< "$s"
  [ "$stderr" = "spart-sim: --ground without a plane is the one through 0 against gravity, which is zero: give a gravity that is not, or the plane NX,NY,NZ,D" ]
  [ -z "$output" ]
  # the ball rests at 0.1 - mg/k on z = 0 whatever the normal's length
  for n in 0,0,1,0 0,0,1e200,0 0,0,1e-300,0 0,0,3e-300,0; do
    spart-sim -m "$BATS_TEST_TMPDIR/ball.urdf" --gravity 0,0,-9.81 --ground "$n" --duration 1 \
      --every 1000 --only r0 <<< "$s" | tail -1
  done | python3 -c '
import json, sys
z = [json.loads(l)["r0"][2] for l in sys.stdin]
print(z)
assert len(z) == 4 and len(set(z)) == 1 and abs(z[0] - (0.1 - 0.004)) < 1e-9'
  for o in "--ground 0,0,1e400,0" "--ground=0,0,1e400,0" "--ground --mu 1e400" "--ground --damping nan" \
    "--ground --stiffness inf" "--dt 1e400" "--duration inf" "--ground --gravity 0,0,-1e999"; do
    run -2 --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/ball.urdf" --duration 1 $o <<< "$s"
    echo "$o: $stderr"
    [[ "${stderr%%$'\n'*}" == *" is not a finite number" || "${stderr%%$'\n'*}" == *" has a number that is not finite" ]]
  done
  run -2 --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/ball.urdf" --duration 1 --ground --gravity 0,0,-1 --mu 1e400 <<< "$s"
  [ "${stderr%%$'\n'*}" = "spart-sim: --mu: '1e400' is not a finite number" ]
  run -2 --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/ball.urdf" --duration 1 --ground 0,0,0,1 <<< "$s"
  [ "${stderr%%$'\n'*}" = "spart-sim: --ground: expected NX,NY,NZ,D with a normal that is not zero, got '0,0,0,1'" ]
}

@test "--ground's defaults are spart-sim(1)'s closed forms, the library's (spart_ground_defaults): the quadruped dropped with --ground alone writes what it writes with --stiffness M g / 4 mm, --damping 2 sqrt(k M), --mu 1 and the tangential ones k and 2 sqrt(k m) given, byte for byte (M its mass, m its lightest body with collision shapes)" {
  urdf2robot "$MODELS/quadruped.urdf" > "$BATS_TEST_TMPDIR/q.json"
  given=$(python3 - "$BATS_TEST_TMPDIR/q.json" <<'PY'
import json, math, sys
m = json.load(open(sys.argv[1]))
mass = [m["base_link"]["mass"]] + [l["mass"] for l in sorted(m["links"], key=lambda l: l["id"])]
M = 0.0
for x in mass:  # the library's order: body 0 to n
    M += x
touch = {s["link"] for s in m["shapes"] if s["role"] == "collision" and s["kind"] != "mesh"}
light = min(mass[i] for i in touch if mass[i] > 0)
k = M * 9.81 / 4e-3
c, ct = 2 * math.sqrt(k * M), 2 * math.sqrt(k * light)
print(f"--stiffness {k!r} --damping {c!r} --mu 1 --tangential-stiffness {k!r} --tangential-damping {ct!r}")
PY
)
  echo "$given"
  s='{"r0": [0, 0, 0.45], "qm": [0, 0.6, -1.2, 0, 0.6, -1.2, 0, -0.6, 1.2, 0, -0.6, 1.2]}'
  spart-sim -m "$MODELS/quadruped.urdf" --gravity 0,0,-9.81 --ground --duration 0.3 --dt 0.0002 \
    --every 50 --contact-forces <<< "$s" > "$BATS_TEST_TMPDIR/default.jsonl"
  spart-sim -m "$MODELS/quadruped.urdf" --gravity 0,0,-9.81 --ground $given --duration 0.3 \
    --dt 0.0002 --every 50 --contact-forces <<< "$s" > "$BATS_TEST_TMPDIR/given.jsonl"
  # it lands: the contact forces are the ground's
  python3 -c 'import json, sys
f = [abs(x) for l in open(sys.argv[1]) for c in json.loads(l)["contact_forces"] for x in c]
assert max(f) > 10, max(f)' "$BATS_TEST_TMPDIR/default.jsonl"
  cmp "$BATS_TEST_TMPDIR/default.jsonl" "$BATS_TEST_TMPDIR/given.jsonl"
}

@test "--ground and --control gravity take the model's own gravity (urdf2robot --gravity), a --gravity given overriding it" {
  bodies
  urdf2robot --gravity 0,0,-9.81 "$BATS_TEST_TMPDIR/ball.urdf" > "$BATS_TEST_TMPDIR/ball.json"
  # dropped from 0.3 m above z = 0 (the plane against the model's gravity), falling for 0.2 s
  # before it touches: 0.3 - g t^2 / 2 with the model's g, or with the one given
  for g in "" "--gravity 0,0,-1"; do
    spart-sim -m "$BATS_TEST_TMPDIR/ball.json" --ground $g --duration 0.2 --every 200 \
      --only t,r0 <<< '{"r0": [0, 0, 0.3]}' | tail -1
  done | python3 -c '
import json, sys
z = [json.loads(l)["r0"][2] for l in sys.stdin]
print(z)
assert len(z) == 2 and abs(z[0] - (0.3 - 9.81 * 0.2 ** 2 / 2)) < 1e-9 and abs(z[1] - (0.3 - 0.2 ** 2 / 2)) < 1e-9'
  # the iiwa's model with gravity held still by --control gravity alone
  urdf2robot --gravity 0,0,-9.81 "$MODELS/kuka_iiwa.urdf" > "$BATS_TEST_TMPDIR/iiwa.json"
  echo '{"qm": [0.3,0.8,-0.4,-1.2,0.5,0.7,0.2]}' | spart-sim -m "$BATS_TEST_TMPDIR/iiwa.json" \
    --fixed-base --duration 1 --every 1000 --control gravity --only qm | tail -1 | python3 -c '
import json, sys
q = json.loads(sys.stdin.read())["qm"]
want = [0.3, 0.8, -0.4, -1.2, 0.5, 0.7, 0.2]
assert max(abs(a - b) for a, b in zip(q, want)) < 1e-9, q'
}

@test "a record written with --contact-forces starts a run: its contact_forces pass through as in_contact_forces (JSON and CSV), never as this run's (none in free fall)" {
  bodies
  spart-sim -m "$BATS_TEST_TMPDIR/ball.urdf" --gravity 0,0,-9.81 --ground --contact-forces \
    --duration 0.5 --every 500 <<< '{"r0": [0, 0, 0.3]}' | tail -1 > "$BATS_TEST_TMPDIR/rest.json"
  grep -q '"contact_forces":\[\[0,0,9.8' "$BATS_TEST_TMPDIR/rest.json"
  # lifted 1 m and let fall: no contact, no contact_forces
  sed 's/"r0":\[0,0,/"r0":[0,0,1+/; s/1+0\./1./' "$BATS_TEST_TMPDIR/rest.json" > "$BATS_TEST_TMPDIR/up.json"
  run -0 spart-sim -m "$BATS_TEST_TMPDIR/ball.urdf" --gravity 0,0,-9.81 --duration 0.002 < "$BATS_TEST_TMPDIR/up.json"
  [ "${#lines[@]}" -eq 3 ]
  for l in "${lines[@]}"; do
    python3 -c '
import json, sys
r = json.loads(sys.argv[1])
assert "contact_forces" not in r and r["in_contact_forces"][0][2] > 9.8 and r["in_t"] == 0.5, r' "$l"
  done
  # with the ground: this run's forces, 0 in the air, beside the record's
  run -0 spart-sim -m "$BATS_TEST_TMPDIR/ball.urdf" --gravity 0,0,-9.81 --ground --contact-forces \
    --duration 0.002 < "$BATS_TEST_TMPDIR/up.json"
  python3 -c '
import json, sys
r = json.loads(sys.argv[1])
assert r["contact_forces"] == [[0, 0, 0]] and r["in_contact_forces"][0][2] > 9.8, r' "${lines[-1]}"
  # CSV: the columns contact_forces_1_K as in_contact_forces_1_K
  spart-sim -m "$BATS_TEST_TMPDIR/ball.urdf" --gravity 0,0,-9.81 --ground --contact-forces \
    --duration 0.5 --every 500 -o csv <<< '{"r0": [0, 0, 0.3]}' | sed '2d' > "$BATS_TEST_TMPDIR/rest.csv"
  run -0 spart-sim -m "$BATS_TEST_TMPDIR/ball.urdf" --gravity 0,0,-9.81 --duration 0.001 < "$BATS_TEST_TMPDIR/rest.csv"
  [[ "${lines[0]}" == "in_t,in_contact_forces_1_1,in_contact_forces_1_2,in_contact_forces_1_3,t,"* ]]
  [[ "${lines[0]}" != *",contact_forces"* ]]
}

@test "--ground names once, at the start, the links whose collision shapes are all meshes (the ground touches none), not those without collision shapes" {
  cat > "$BATS_TEST_TMPDIR/mesh.urdf" <<'URDF'
<robot name="m"><link name="base"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
<collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision></link>
<joint name="j" type="revolute"><parent link="base"/><child link="foot"/><origin xyz="0 0 -0.3"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="10" velocity="10"/></joint>
<link name="foot"><inertial><mass value="0.5"/><inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial>
<collision><geometry><mesh filename="no_such_foot.stl"/></geometry></collision></link>
<joint name="k" type="fixed"><parent link="base"/><child link="plain"/><origin xyz="0.3 0 0"/></joint>
<link name="plain"><inertial><mass value="0.1"/><inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial></link>
</robot>
URDF
  printf '{"r0": [0, 0, 1], "qm": [0]}\n{"r0": [0, 0, 2], "qm": [0]}\n' > "$BATS_TEST_TMPDIR/init.json"
  for j in 1 2; do
    run -0 --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/mesh.urdf" --gravity 0,0,-9.81 --ground \
      --duration 0.002 -j $j < "$BATS_TEST_TMPDIR/init.json"
    [ "$stderr" = "spart-sim: --ground: a link whose collision shapes are all meshes not read, which the ground does not touch (spheres, boxes, capsules, cylinders and the meshes read it does): 'foot'" ]
    [ "${#lines[@]}" -eq 6 ]
  done
  # without --ground, nothing to say
  run -0 --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/mesh.urdf" --gravity 0,0,-9.81 \
    --duration 0.002 < "$BATS_TEST_TMPDIR/init.json"
  [ -z "$stderr" ]
}
