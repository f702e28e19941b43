#!/usr/bin/env bats
# spart-contact: force closure, the support polygon, CoM equilibrium, equilibrium torques and
# contact forces, checked against hand-computed geometry and against spart-id and spart-jac.

load helper

check() { PYTHONPATH="$BATS_TEST_DIRNAME" python3 -c "import math; from spartcheck import *; from contactcheck import *; $1"; }

BOX="$MODELS/box_slider.urdf"
# the box's four bottom corners, frictionless, normals up
CORNERS='"qm": [0, 0], "contacts": [{"link": "box", "point": [1, 0.5, -0.25], "normal": [0, 0, 2], "mu": 0}, {"link": "box", "point": [-1, 0.5, -0.25], "normal": [0, 0, 1], "mu": 0}, {"link": 0, "point": [-1, -0.5, -0.25], "normal": [0, 0, 1], "mu": 0}, {"link": 0, "point": [1, -0.5, -0.25], "normal": [0, 0, 1], "mu": 0}]'

@test "--help lists the outputs; --gravity is required; a bad --edges or -o csv is a usage error" {
  run spart-contact --help
  [ "$status" -eq 0 ]
  [[ "$output" == *"support_halfplanes"* && "$output" == *"--edges K"* ]]
  run --separate-stderr spart-contact -m "$BOX" <<< "{$CORNERS}"
  [ "$status" -eq 2 ]
  [ "${stderr%%$'\n'*}" = "spart-contact: --gravity gx,gy,gz (not zero) is required: the support polygon is orthogonal to it (--only force_closure needs none)" ]
  run --separate-stderr spart-contact -m "$BOX" --gravity 0,0,-9.81 --edges 2 <<< "{$CORNERS}"
  [ "$status" -eq 2 ]
  [ "${stderr%%$'\n'*}" = "spart-contact: --edges: expected a whole number 3..64, got '2'" ]
  run --separate-stderr spart-contact -m "$BOX" --gravity 0,0,-9.81 -o csv <<< "{$CORNERS}"
  [ "$status" -eq 2 ]
}

@test "a box on four frictionless corners: the polygon is their hull, counter-clockwise" {
  run --separate-stderr spart-contact -m "$BOX" --gravity 0,0,-9.81 --only support_polygon,support_halfplanes,com_margin,force_closure <<< "{$CORNERS}"
  [ "$status" -eq 0 ]
  [ "$output" = '{"force_closure":false,"support_polygon":[[1,0.5],[-1,0.5],[-1,-0.5],[1,-0.5]],"support_halfplanes":[[0,1,0.5],[-1,0,1],[0,-1,0.5],[1,0,1]],"com_margin":0.5}' ]
}

@test "the box: CoM inside the hull <=> equilibrium <=> feasible; the margin is the distance to the nearest edge" {
  check '
import json
C = json.loads("""{'"$CORNERS"'}""")["contacts"]
recs = [{"qm": [qx, qy], "contacts": C} for qx in (-2.6, -1.9, -0.4, 0, 1.2, 2.1, 3) for qy in (-1.4, -0.6, 0.3, 0.9, 1.5)]
outs = run(["spart-contact", "-m", "'"$BOX"'", "--gravity", "0,0,-9.81"], *recs)
seen = set()
for r, o in zip(recs, outs):
    cx, cy = r["qm"][0] / 2, r["qm"][1] / 2  # two equal masses: the box at 0, the slider at q
    dx, dy = abs(cx) - 1, abs(cy) - 0.5
    want = min(-dx, -dy) if dx <= 0 and dy <= 0 else -math.hypot(max(dx, 0), max(dy, 0))
    assert abs(o["com_margin"] - want) < 1e-12, (r["qm"], o["com_margin"], want)
    assert o["com_equilibrium"] == (want > 0) == o["feasible"], (r["qm"], o)
    seen.add(o["feasible"])
assert seen == {True, False}
'
}

@test "tilted normals with friction narrow the polygon as the cones say: half-width sin(2 atan mu) / sin(2 alpha)" {
  check '
recs = []
cases = [(30, 0.2), (30, 0.7), (50, 0.3), (20, 0.3)]
for a, mu in cases:
    s, c = math.sin(math.radians(a)), math.cos(math.radians(a))
    recs.append({"qm": [0, 0], "contacts": [{"link": 0, "point": [x, y, -0.25], "normal": [-x * s, 0, c], "mu": mu}
                              for x in (1, -1) for y in (0.5, -0.5)]})
outs = run(["spart-contact", "-m", "'"$BOX"'", "--gravity", "0,0,-9.81"], *recs)
for (a, mu), o in zip(cases, outs):
    phi, al = math.atan(mu), math.radians(a)
    w = math.sin(2 * phi) / math.sin(2 * al) if al > phi else 1  # the cones hold the vertical: the hull
    key = lambda p: (round(p[0], 6), round(p[1], 6))
    close(sorted(o["support_polygon"], key=key), sorted([[w, 0.5], [-w, 0.5], [-w, -0.5], [w, -0.5]], key=key), 1e-12, str(a))
'
}

@test "friction widens the polygon past the contacts' hull when they are at different heights: 0 <= x <= mu h" {
  # floor contacts at x = 0 (normal up, friction mu) and a frictionless wall h higher at x = 1
  # pushing in -x: the wall's push n, held by the floor's friction (n <= mu m g), balances the
  # CoM's moment c m g = h n, so the CoM may be anywhere in 0 <= x <= mu h, |y| <= 0.5, beyond
  # the hull of the contacts (x <= 1) when mu h > 1; a polyhedral cone of K edges inscribed in
  # the circular one holds mu cos(pi/K) to mu along x
  check '
for mu, h, K in [(0.5, 4.0, 8), (0.5, 4.0, 64), (0.2, 1.5, 8)]:
    rec = {"qm": [0, 0], "contacts": [{"link": 0, "point": [0, y, -0.25], "normal": [0, 0, 1], "mu": mu} for y in (0.5, -0.5)]
                     + [{"link": 0, "point": [1, y, h - 0.25], "normal": [-1, 0, 0], "mu": 0} for y in (0.5, -0.5)]}
    o = run(["spart-contact", "-m", "'"$BOX"'", "--gravity", "0,0,-9.81", "--edges", str(K), "--only", "support_polygon"], rec)[0]
    P = o["support_polygon"]
    xs, ys = [p[0] for p in P], [p[1] for p in P]
    assert abs(min(xs)) <= 1e-9 and abs(min(ys) + 0.5) <= 1e-9 and abs(max(ys) - 0.5) <= 1e-9, P
    assert mu * h * math.cos(math.pi / K) - 1e-9 <= max(xs) <= mu * h + 1e-9, (mu, h, K, P)
    assert (max(xs) > 1) == (mu * h > 1.1), (mu, h, P)
'
}

@test "contacts on the base are in its URDF frame, not its CoM frame: kuka_iiwa's <inertial> is 0.1 m off" {
  # the base's URDF origin is at -(-0.1, 0, 0.07) from its CoM (r0 = 0, R0 = 1): feet at
  # (+-0.3, +-0.3, 0) there are the square [-0.2, 0.4] x [-0.3, 0.3], whose margin for the
  # system's CoM (from spart-kin) is its distance to the nearest side
  check '
m = "'"$MODELS"'/kuka_iiwa.urdf"
rec = {"qm": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7],
       "contacts": [{"link": "lbr_iiwa_link_0", "point": [x, y, 0], "normal": [0, 0, 1], "mu": 0.5}
                    for x in (0.3, -0.3) for y in (0.3, -0.3)]}
o = statics(m, rec)
c = run(["spart-kin", "-m", m], {"qm": rec["qm"]})[0]["r_com"]
want = min(c[0] + 0.2, 0.4 - c[0], c[1] + 0.3, 0.3 - c[1])
assert o["feasible"] and abs(o["com_margin"] - want) <= 1e-9, (o["com_margin"], want)
'
}

@test "a tetrahedron touched at its four face centres: force closure with friction, not without" {
  check '
v = [[1, 1, 1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1]]
def rec(mu):
    return {"qm": [0, 0], "contacts": [{"link": 0, "point": [-x / 3 for x in p], "normal": [x / math.sqrt(3) for x in p], "mu": mu} for p in v]}
outs = run(["spart-contact", "-m", "'"$BOX"'", "--gravity", "0,0,-9.81", "--only", "force_closure"], rec(0.3), rec(0), rec(0.05))
assert [o["force_closure"] for o in outs] == [True, False, True], outs
'
}

@test "feet on a floor are never in force closure, whatever the friction" {
  check '
q = [0.1, 0.4, -0.8, -0.1, 0.4, -0.8, 0.1, 0.4, -0.8, -0.1, 0.4, -0.8]
outs = run(["spart-contact", "-m", "'"$MODELS"'/quadruped.urdf", "--gravity", "0,0,-9.81", "--only", "force_closure,feasible"], quadruped(q, 0.5), quadruped(q, 5))
assert [o["force_closure"] for o in outs] == [False, False] and outs[1]["feasible"], outs
'
}

@test "a quadruped on four feet: G = [0; taum] + sum J'f to 1e-9, forces in their cones; CoM outside -> infeasible" {
  check '
m = "'"$MODELS"'/quadruped.urdf"
seen = set()
for hp in (-1.2, -0.9, 0.4, 1.0, 1.3):
    q = [0.1, hp, -0.8, -0.1, hp, -0.8, 0.1, hp, -0.8, -0.1, hp, -0.8]
    o = statics(m, quadruped(q))
    if abs(o["com_margin"]) > 1e-6:
        assert o["feasible"] == o["com_equilibrium"] == (o["com_margin"] > 0), (hp, o)
        seen.add(o["feasible"])
assert seen == {True, False}
statics(m, dict(quadruped(q), u0=[0.1, 0.2, -0.1, 0.3, 0, 0.1], um=[0.5] * 12, umdot=[1, -1] * 6))
'
}

@test "a humanoid on two feet: the polygon is the soles' hull, the same identity, a CoM past the toes is infeasible" {
  check '
m = "'"$MODELS"'/humanoid.urdf"
r = humanoid([0, 0.05, -0.3, 0.6, -0.3, -0.05, 0, -0.05, -0.3, 0.6, -0.3, 0.05])
ok = statics(m, r)
assert ok["feasible"] and ok["com_margin"] > 0, ok
# soles level at one height, normals up: the polygon is the hull of the eight corners (spart-kin)
key = lambda p: (round(p[0], 6), round(p[1], 6))
want = hull([p[:2] for p in contact_points(m, r)])
assert len(want) == 4 and len(ok["support_polygon"]) == 4, (want, ok)
close(sorted(ok["support_polygon"], key=key), sorted(map(list, want), key=key), 1e-12, "humanoid hull")
lean = statics(m, humanoid([0, 0, -0.5, 0, 0.5, 0, 0, 0, -0.5, 0, 0.5, 0]))  # the body ahead of the feet
assert not lean["feasible"] and not lean["com_equilibrium"] and lean["com_margin"] < 0, lean
'
}

@test "--fixed-base leaves the base rows to the base; --max-torque says when the torques are the limit" {
  check '
m = "'"$MODELS"'/quadruped.urdf"
q = [0.1, 0.4, -0.8, -0.1, 0.4, -0.8, 0.1, 0.4, -0.8, -0.1, 0.4, -0.8]
free = statics(m, quadruped(q))
t = max(abs(x) for x in free["taum"])
lim = run(["spart-contact", "-m", m, "--gravity", "0,0,-9.81", "--max-torque", str(t / 2)], quadruped(q))[0]
assert not lim["feasible"] and lim["reason"] == "the torques needed exceed the torque limit", lim
fixed = run(["spart-contact", "-m", m, "--gravity", "0,0,-9.81", "--fixed-base", "--only", "taum"], quadruped(q))[0]
assert max(abs(x) for x in fixed["taum"]) < 1e-9, fixed  # the base holds it all; the feet need not push
'
}

@test "bad contacts are one-line errors naming the record: unknown link, zero normal, negative mu, none" {
  bad() {
    run --separate-stderr spart-contact -m "$BOX" --gravity 0,0,-9.81 <<< "$1"
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [ "$stderr" = "$2" ]
  }
  bad '{"qm": [0, 0], "contacts": [{"link": "wheel", "point": [0,0,0], "normal": [0,0,1], "mu": 0}]}' \
    "spart-contact: <stdin>:1: contacts[0].link: no link 'wheel' in the model (ids 0..2)"
  bad '{"qm": [0, 0], "contacts": [{"link": 7, "point": [0,0,0], "normal": [0,0,1], "mu": 0}]}' \
    "spart-contact: <stdin>:1: contacts[0].link: no link '7' in the model (ids 0..2)"
  bad '{"qm": [0, 0], "contacts": [{"link": 0, "point": [0,0,0], "normal": [0,0,1], "mu": 0}, {"link": 0, "point": [0,0,0], "normal": [0,0,0], "mu": 0}]}' \
    "spart-contact: <stdin>:1: contacts[1].normal is zero"
  bad '{"qm": [0, 0], "contacts": [{"link": 0, "point": [0,0,0], "normal": [0,0,1], "mu": -0.1}]}' \
    "spart-contact: <stdin>:1: contacts[0].mu is negative: a friction coefficient is >= 0"
  bad '{"qm": [0, 0], "contacts": []}' "spart-contact: <stdin>:1: contacts: no contacts (an empty list)"
  bad '{"qm": [0, 0]}' \
    "spart-contact: <stdin>:1: no contacts: give \"contacts\": [{\"link\": ..., \"point\": [x,y,z], \"normal\": [nx,ny,nz], \"mu\": MU}, ...]"
  bad '{"qm": [0, 0], "contacts": [{"link": 0, "point": [0,0], "normal": [0,0,1], "mu": 0}]}' \
    "spart-contact: <stdin>:1: contacts[0].point: expected [x, y, z]"
  bad '{"qm": [0, 0], "contacts": [{"link": 0, "point": [0,0,0], "normal": [0,0,1]}]}' \
    "spart-contact: <stdin>:1: contacts[0]: no \"mu\""
  bad '{"qm": [0, 0], "contacts": [{"link": 0, "point": [0,0,0], "normal": [0,0,1], "mu": 0, "radius": 1}]}' \
    "spart-contact: <stdin>:1: contacts[0]: unknown key 'radius'"
  bad $'qm_1,qm_2\n0,0' \
    "spart-contact: <stdin>:1: contacts are read from JSON records only, not CSV (use -i json)"
}

@test "-k reports a bad record and goes on with the next" {
  run --separate-stderr spart-contact -m "$BOX" --gravity 0,0,-9.81 -k --only feasible <<< $'{"qm": [0, 0], "contacts": []}\n{'"$CORNERS"'}'
  [ "$status" -eq 1 ]
  [ "$output" = '{"feasible":true}' ]
}

@test "no support region: null polygon when the contacts can squeeze, [] when nothing holds the CoM" {
  run --separate-stderr spart-contact -m "$BOX" --gravity 0,0,-9.81 --only support_polygon,com_margin,com_equilibrium <<< '{"qm": [0, 0], "contacts": [{"link": 0, "point": [1,0,0], "normal": [-1,0,0], "mu": 0.5}, {"link": 0, "point": [-1,0,0], "normal": [1,0,0], "mu": 0.5}]}
{"qm": [0, 0], "contacts": [{"link": 0, "point": [1,0,0], "normal": [-1,0,0], "mu": 0}]}'
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = '{"com_equilibrium":true,"support_polygon":null,"com_margin":null}' ]
  [ "${lines[1]}" = '{"com_equilibrium":false,"support_polygon":[],"com_margin":null}' ]
}

@test "every example in the man page runs" {
  cd "$BATS_TEST_TMPDIR"
  ln -s "$TOP/models" models
  man_examples "$TOP/man/spart-contact.1" examples.sh
  [ "$(wc -l < examples.sh)" -ge 2 ]
  run --separate-stderr bash -e examples.sh
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  [[ "${lines[0]}" == *'"support_polygon":[[1,0.5],[-1,0.5],[-1,-0.5],[1,-0.5]]'* ]]
}

@test "a segment or a point of support: its vertices, four half-planes, the distance to it" {
  run --separate-stderr spart-contact -m "$BOX" --gravity 0,0,-9.81 --only support_polygon,support_halfplanes,com_margin,com_equilibrium <<< '{"qm": [0, 0], "contacts": [{"link": 0, "point": [0,0,-0.25], "normal": [0,0,1], "mu": 0.5}]}
{"contacts": [{"link": 0, "point": [1,0,-0.25], "normal": [0,0,1], "mu": 0}, {"link": 0, "point": [-1,0,-0.25], "normal": [0,0,1], "mu": 0}], "qm": [0.5, 0.2]}'
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = '{"com_equilibrium":true,"support_polygon":[[0,0]],"support_halfplanes":[[0,-1,0],[0,1,0],[1,0,0],[-1,0,0]],"com_margin":0}' ]
  [ "${lines[1]}" = '{"com_equilibrium":false,"support_polygon":[[1,0],[-1,0]],"support_halfplanes":[[0,1,0],[0,-1,0],[-1,0,1],[1,0,1]],"com_margin":-0.1}' ]
}

# ---- contacts from the links' collision shapes ----

@test "contacts from geometry: the quadruped's feet spheres give the hull of their bottom points (python from the URDF and spart-kin)" {
  q='[0.1, 0.4, -0.8, -0.1, 0.4, -0.8, 0.1, 0.4, -0.8, -0.1, 0.4, -0.8]'
  echo "{\"qm\": $q, \"contacts\": [{\"link\": \"fl_shank\", \"mu\": 0.8}, {\"link\": \"fr_shank\", \"mu\": 0.8}, {\"link\": 9, \"mu\": 0.5}, {\"link\": \"hr_shank\", \"mu\": 0.8}]}" |
    spart-contact -m "$MODELS/quadruped.urdf" --gravity 0,0,-9.81 > "$BATS_TEST_TMPDIR/c.json"
  echo "{\"qm\": $q}" | spart-kin -m "$MODELS/quadruped.urdf" --frame fl_shank,fr_shank,hl_shank,hr_shank > "$BATS_TEST_TMPDIR/k.json"
  python3 - "$MODELS/quadruped.urdf" "$BATS_TEST_TMPDIR/k.json" "$BATS_TEST_TMPDIR/c.json" <<'PY'
import json, sys, xml.etree.ElementTree as ET
robot = ET.parse(sys.argv[1]).getroot()
kin, con = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
pts = []
for k, leg in enumerate(["fl", "fr", "hl", "hr"]):
    link = [l for l in robot.findall("link") if l.get("name") == leg + "_shank"][0]
    col = link.find("collision")
    o = [float(x) for x in col.find("origin").get("xyz").split()]
    r = float(col.find("geometry/sphere").get("radius"))
    R, p = kin["RF"][k], kin["rF"][k]
    c = [p[i] + sum(R[i][j] * o[j] for j in range(3)) for i in range(3)]
    pts.append((c[0], c[1], c[2] - r))
# the convex hull, counter-clockwise seen from above (gravity along -z: the plane's x, y)
P = sorted((x, y) for x, y, z in pts)
def cross(o, a, b): return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
lo, hi = [], []
for q in P:
    while len(lo) >= 2 and cross(lo[-2], lo[-1], q) <= 0: lo.pop()
    lo.append(q)
for q in reversed(P):
    while len(hi) >= 2 and cross(hi[-2], hi[-1], q) <= 0: hi.pop()
    hi.append(q)
hull = lo[:-1] + hi[:-1]
got = con["support_polygon"]
assert len(got) == len(hull) == 4, (got, hull)
s = min(range(4), key=lambda k: (got[k][0] - hull[0][0]) ** 2 + (got[k][1] - hull[0][1]) ** 2)
for k in range(4):
    g, h = got[(s + k) % 4], hull[k]
    assert abs(g[0] - h[0]) <= 1e-9 and abs(g[1] - h[1]) <= 1e-9, (got, hull)
assert len(con["contact_forces"]) == 4
PY
}

@test "contacts from geometry: a box's lowest face's four corners, a tilted box's lowest edge, a standing cylinder's rim" {
  cat > "$BATS_TEST_TMPDIR/b.urdf" <<'EOF'
<robot name="b">
  <link name="base"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><origin xyz="0.1 0 -0.5"/><geometry><box size="0.4 0.2 0.1"/></geometry></collision></link>
  <link name="c"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><cylinder radius="0.1" length="0.2"/></geometry></collision></link>
  <joint name="j" type="fixed"><parent link="base"/><child link="c"/><origin xyz="1 0 -0.45"/></joint>
</robot>
EOF
  run spart-contact -m "$BATS_TEST_TMPDIR/b.urdf" --gravity 0,0,-9.81 --only support_polygon <<< '{"contacts": [{"link": "base", "mu": 0.5}]}'
  [ "$status" -eq 0 ]
  python3 -c '
import json, sys
p = json.loads(sys.argv[1])["support_polygon"]
want = [[0.3, -0.1], [0.3, 0.1], [-0.1, 0.1], [-0.1, -0.1]]
assert len(p) == 4 and all(any(abs(a[0] - b[0]) < 1e-12 and abs(a[1] - b[1]) < 1e-12 for b in p) for a in want), p' "$output"
  # turned 0.3 about x: the lowest edge only, a segment
  run spart-contact -m "$BATS_TEST_TMPDIR/b.urdf" --gravity 0,0,-9.81 --only support_polygon <<< '{"R0": [[1, 0, 0], [0, 0.955336489125606, -0.29552020666134], [0, 0.29552020666134, 0.955336489125606]], "contacts": [{"link": "base", "mu": 0.5}]}'
  [ "$status" -eq 0 ]
  python3 -c '
import json, sys
d = json.loads(sys.argv[1])
p = d["support_polygon"]
assert len(p) == 2 and sorted(round(x, 12) for x, y in p) == [-0.1, 0.3], d' "$output"
  # the cylinder standing on its end: 16 rim points, the hull an inscribed 16-gon of radius 0.1
  run spart-contact -m "$BATS_TEST_TMPDIR/b.urdf" --gravity 0,0,-9.81 --only support_polygon <<< '{"contacts": [{"link": "c", "mu": 0.5}]}'
  [ "$status" -eq 0 ]
  python3 -c '
import json, math, sys
p = json.loads(sys.argv[1])["support_polygon"]
assert len(p) == 16, p
assert all(abs(math.hypot(x - 1, y) - 0.1) < 1e-12 for x, y in p), p' "$output"
}

@test "contacts from geometry: a link without collision shapes, a mesh, a normal without a point are refused" {
  run --separate-stderr spart-contact -m "$MODELS/quadruped.urdf" --gravity 0,0,-9.81 <<< '{"qm": [0,0.4,-0.8,0,0.4,-0.8,0,0.4,-0.8,0,0.4,-0.8], "contacts": [{"link": "fl_hip", "mu": 0.5}]}'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-contact: <stdin>:1: contacts[0]: link 'fl_hip' has no collision shapes: give a point" ]
  run --separate-stderr spart-contact -m "$MODELS/quadruped.urdf" --gravity 0,0,-9.81 <<< '{"qm": [0,0.4,-0.8,0,0.4,-0.8,0,0.4,-0.8,0,0.4,-0.8], "contacts": [{"link": "fl_shank", "normal": [0, 0, 1], "mu": 0.5}]}'
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"contacts[0].normal without a point: a contact from the link's collision shapes has its normal against gravity" ]]
  run --separate-stderr spart-contact -m "$MODELS/kuka_iiwa.urdf" --gravity 0,0,-9.81 <<< '{"qm": [0,0,0,0,0,0,0], "contacts": [{"link": 0, "mu": 0.5}]}'
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"contacts[0]: link 'lbr_iiwa_link_0' has a collision mesh that was not read ('meshes_kuka_iiwa/link_0.stl': not found); give points" ]]
}

@test "contacts from geometry: a sphere of radius 0 (Drake's point contact) is its centre; a leg stands on it" {
  # tests/data/shapes/point_foot.urdf: r0 = (0.3, 0.2, 1) puts the hip's link frame at
  # (0.2, 0.2, 1), the knee at (0.2, 0.2, 0.9), the toe at the knee + Ry(q) (0.1, 0, -0.5):
  # below the shank's box, the lowest point; at q = 0 both CoMs are above it
  leg="$TOP/tests/data/shapes/point_foot.urdf"
  run -0 spart-contact -m "$leg" --gravity 0,0,-9.81 --max-torque 5 \
    <<< '{"r0": [0.3, 0.2, 1], "qm": [0], "contacts": [{"link": "shin", "mu": 0.5}]}'
  python3 -c '
import json, sys
o = json.loads(sys.argv[1])
# one point at (0.3, 0.2): the polygon is it; the weight 3 g on it, the knee holding the hip
# (2 g, 0.1 m from the knee axis): 0.1 * 2 * 9.81
assert o["feasible"] and o["com_equilibrium"], o
assert len(o["support_polygon"]) == 1, o
assert all(abs(a - b) <= 1e-12 for a, b in zip(o["support_polygon"][0], [0.3, 0.2])), o
assert len(o["contact_forces"]) == 1, o
assert all(abs(a - b) <= 1e-9 for a, b in zip(o["contact_forces"][0], [0, 0, 3 * 9.81])), o
assert abs(o["taum"][0] - 0.1 * 2 * 9.81) <= 1e-9, o' "$output"
  # the knee at 0.3: the toe's x is 0.2 + 0.1 cos 0.3 - 0.5 sin 0.3
  run -0 spart-contact -m "$leg" --gravity 0,0,-9.81 --only support_polygon \
    <<< '{"r0": [0.3, 0.2, 1], "qm": [0.3], "contacts": [{"link": "shin", "mu": 0.5}]}'
  python3 -c '
import json, math, sys
p = json.loads(sys.argv[1])["support_polygon"]
want = [0.2 + 0.1 * math.cos(0.3) - 0.5 * math.sin(0.3), 0.2]
assert len(p) == 1 and all(abs(a - b) <= 1e-12 for a, b in zip(p[0], want)), (p, want)' "$output"
}

@test "contacts from geometry: two points of a foot level to rounding both touch (the tolerance from the points' spread)" {
  # a foot of two points 0.17 m apart, tilted 1e-12 rad: their heights differ by 1.7e-13 m
  cat > "$BATS_TEST_TMPDIR/toes.urdf" <<'EOF'
<robot name="toes">
  <link name="foot"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><origin xyz="0.1 0.03 -0.05"/><geometry><sphere radius="0"/></geometry></collision>
    <collision><origin xyz="-0.07 0.03 -0.05"/><geometry><sphere radius="0"/></geometry></collision>
  </link>
</robot>
EOF
  r=$(python3 -c 'import json, math; c, s = math.cos(1e-12), math.sin(1e-12)
print(json.dumps({"R0": [[c, 0, s], [0, 1, 0], [-s, 0, c]], "contacts": [{"link": "foot", "mu": 0.5}]}))')
  run -0 spart-contact -m "$BATS_TEST_TMPDIR/toes.urdf" --gravity 0,0,-9.81 --only support_polygon <<< "$r"
  python3 -c '
import json, sys
p = sorted(json.loads(sys.argv[1])["support_polygon"])
want = [[-0.07, 0.03], [0.1, 0.03]]
assert len(p) == 2 and all(abs(a - b) < 1e-12 for u, w in zip(p, want) for a, b in zip(u, w)), p' "$output"
}

@test "the joints' effort limits bound the torques: feasible false beyond them (reason), true under --max-torque or a higher limit" {
  # tests/data/shapes/point_foot.urdf on its toe's point (given: the test is of the limits alone)
  leg="$BATS_TEST_TMPDIR/leg.urdf"
  sed 's/radius="0.0"/radius="0.01"/' "$TOP/tests/data/shapes/point_foot.urdf" > "$leg"
  r='{"r0": [0.3, 0.2, 1], "qm": [0], "contacts": [{"link": "shin", "point": [0.1, 0, -0.5], "normal": [0, 0, 1], "mu": 0.5}]}'
  # the knee needs 1.962 N m (0.1 m x 2 g), its <limit effort> is 1
  run -0 spart-contact -m "$leg" --gravity 0,0,-9.81 --only feasible,taum,reason <<< "$r"
  [ "$output" = '{"feasible":false,"reason":"the torques needed exceed the joints'"'"' effort limits"}' ]
  # --max-torque replaces the model's limits, above or below
  run -0 spart-contact -m "$leg" --gravity 0,0,-9.81 --only feasible --max-torque 2 <<< "$r"
  [ "$output" = '{"feasible":true}' ]
  run -0 spart-contact -m "$leg" --gravity 0,0,-9.81 --only feasible,reason --max-torque 1.9 <<< "$r"
  [ "$output" = '{"feasible":false,"reason":"the torques needed exceed the torque limit"}' ]
  # the limit raised in the URDF
  sed 's/effort="1"/effort="2"/' "$leg" > "$BATS_TEST_TMPDIR/leg2.urdf"
  run -0 spart-contact -m "$BATS_TEST_TMPDIR/leg2.urdf" --gravity 0,0,-9.81 --only feasible,taum <<< "$r"
  python3 -c '
import json, sys
o = json.loads(sys.argv[1])
assert o["feasible"] and abs(o["taum"][0] - 1.962) <= 1e-9, o' "$output"
  # the quadruped on four feet: its smallest largest torque (3.0 N m) is past fl_knee's limit
  # made 1, but the feet can share the load otherwise: the torques found within every limit,
  # the statics identity holding
  sed '/name="fl_knee"/,/<\/joint>/s/effort="100"/effort="1"/' "$MODELS/quadruped.urdf" > "$BATS_TEST_TMPDIR/q.urdf"
  check '
m = "'"$BATS_TEST_TMPDIR"'/q.urdf"
q = [0.1, 0.4, -0.8, -0.1, 0.4, -0.8, 0.1, 0.4, -0.8, -0.1, 0.4, -0.8]
free = statics("'"$MODELS"'/quadruped.urdf", quadruped(q))
assert abs(free["taum"][2]) > 3, free
o = statics(m, quadruped(q))
assert o["feasible"], o
assert abs(o["taum"][2]) <= 1 + 1e-9, o
assert max(abs(t) for t in o["taum"]) <= 100, o
'
}

@test "messages say what is true: mu not finite, a short normal is a direction, --only force_closure needs no gravity, --help offers no csv" {
  bad() {
    run --separate-stderr spart-contact -m "$BOX" --gravity 0,0,-9.81 <<< "$1"
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [ "$stderr" = "$2" ]
  }
  bad '{"qm": [0, 0], "contacts": [{"link": 0, "point": [0,0,0], "normal": [0,0,1], "mu": 1e400}]}' \
    "spart-contact: <stdin>:1: contacts[0].mu is not finite: a friction coefficient is a finite number >= 0"
  bad '{"qm": [0, 0], "contacts": [{"link": 0, "point": [0,0,0], "normal": [0,0,4e-320], "mu": 0}]}' \
    "spart-contact: <stdin>:1: contacts[0].normal is too short to give a direction (its components are below 2.2e-308, where doubles lose digits)"
  # a normal of any length but zero is its direction: 1e-300 and 1e300 as 1
  for n in 1e-300 1e-13 1 1e300; do
    c=$(sed "s/\"normal\": \[0, 0, 2\]/\"normal\": [0, 0, $n]/" <<< "$CORNERS")
    run -0 spart-contact -m "$BOX" --gravity 0,0,-9.81 <<< "{$c}"
    printf '%s\n' "$output" > "$BATS_TEST_TMPDIR/n$n"
  done
  cmp "$BATS_TEST_TMPDIR/n1" "$BATS_TEST_TMPDIR/n1e-300"
  cmp "$BATS_TEST_TMPDIR/n1" "$BATS_TEST_TMPDIR/n1e-13"
  cmp "$BATS_TEST_TMPDIR/n1" "$BATS_TEST_TMPDIR/n1e300"
  # force closure without gravity: the same answer as with it
  run -0 spart-contact -m "$BOX" --only force_closure <<< "{$CORNERS}"
  [ "$output" = "$(spart-contact -m "$BOX" --gravity 0,0,-9.81 --only force_closure <<< "{$CORNERS}")" ]
  run -2 spart-contact -m "$BOX" --only force_closure,feasible <<< "{$CORNERS}"
  # --help does not offer the CSV it refuses
  run -0 spart-contact --help
  [[ "$output" != *"or csv"* ]]
  [[ "$output" == *"-o, --output FORMAT  json (one object a line), the only one"* ]]
}

GO1="$TOP/tests/data/go1.urdf"
GO1_STANCE="$TOP/docs/go1-stance.json"
# Go1 standing on docs/go1-stance.json, its trunk 0.30 m up (spart-ik --stance): FILE
go1_standing() {
  echo '{"targets": [{"link": "trunk", "position": [0, 0, 0.30], "R": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}]}' |
    spart-ik -m "$GO1" --stance "$GO1_STANCE" --only qm,R0,r0 > "$1"
}

@test "--stance: the holds' contacts are every record's, after its own, each a point of its link where the record puts it: the answers of the same contacts given in the record" {
  go1_standing "$BATS_TEST_TMPDIR/go1.json"
  check '
import json
S = json.load(open("'"$GO1_STANCE"'"))
o = json.load(open("'"$BATS_TEST_TMPDIR/go1.json"'"))
# each contact in its foot frame, RF^T (c - rF), by hand
cs = stance_contacts("'"$GO1"'", S, o)
cmd = ["spart-contact", "-m", "'"$GO1"'", "--gravity", "0,0,-9.81"]
given = run(cmd, dict(o, contacts=cs))[0]
held = run(cmd + ["--stance", "'"$GO1_STANCE"'"], o)[0]
assert given.keys() == held.keys() and held["feasible"] is True, (given, held)
for key in ("support_polygon", "support_halfplanes", "taum", "contact_forces"):
    close(sum(held[key], []) if isinstance(held[key][0], list) else held[key],
          sum(given[key], []) if isinstance(given[key][0], list) else given[key], 1e-9, key)
assert abs(held["com_margin"] - given["com_margin"]) < 1e-9 and held["com_margin"] > 0.1
# a record that gives contacts too: its own first, then the stance'"'"'s
both = run(cmd + ["--stance", "'"$GO1_STANCE"'"], dict(o, contacts=cs[:1]))[0]
assert len(both["contact_forces"]) == 5 and both["feasible"] is True, both
close(sum(both["support_polygon"], []), sum(held["support_polygon"], []), 1e-9, "polygon")
'
}

@test "--stance: a record whose links are not where the holds put them is refused, naming the hold; a bad contact in the stance file is refused with its line; --stance needs -m" {
  run --separate-stderr spart-contact -m "$GO1" --gravity 0,0,-9.81 --stance "$GO1_STANCE" <<< '{"qm": [0, 0.8, -1.6, 0, 0.8, -1.6, 0, 0.8, -1.6, 0, 0.8, -1.6]}'
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [[ "$stderr" =~ ^"spart-contact: <stdin>:1: holds[0]: link 'FR_foot' is 0.3"[0-9]*" m, 0 rad from where its hold puts it" ]]
  printf '{"holds": [{"link": "FR_foot", "position": [0, 0, 0],\n "contacts": [{"point": [0, 0, 0], "normal": [0, 0, 0], "mu": 1}]}]}\n' > "$BATS_TEST_TMPDIR/bad.json"
  run --separate-stderr spart-contact -m "$GO1" --gravity 0,0,-9.81 --stance "$BATS_TEST_TMPDIR/bad.json" < /dev/null
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-contact: $BATS_TEST_TMPDIR/bad.json:2: holds[0].contacts[0].normal is zero" ]
  printf '{"holds": [{"link": "FR_foot", "position": [0, 0, 0], "contacts": [{"point": [0, 0, 0], "mu": 1}]}]}\n' > "$BATS_TEST_TMPDIR/bad.json"
  run --separate-stderr spart-contact -m "$GO1" --gravity 0,0,-9.81 --stance "$BATS_TEST_TMPDIR/bad.json" < /dev/null
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-contact: $BATS_TEST_TMPDIR/bad.json:1: holds[0].contacts[0]: no \"normal\"" ]
  run --separate-stderr spart-contact --gravity 0,0,-9.81 --stance "$GO1_STANCE" < /dev/null
  [ "$status" -eq 2 ]
  [ "${stderr%%$'\n'*}" = "spart-contact: --stance: the stance's links are read in the model of -m: give -m" ]
}

@test "--write-stance: a solved record's stance keeps its pose: spart-ik --stance of it from a perturbed guess puts the feet back to 1e-9; its contacts where the record's are; a second record, or none, writes nothing" {
  go1_standing "$BATS_TEST_TMPDIR/go1.json"
  W="$BATS_TEST_TMPDIR/written.json"
  run --separate-stderr spart-contact -m "$GO1" --gravity 0,0,-9.81 --stance "$GO1_STANCE" --only feasible --write-stance "$W" < "$BATS_TEST_TMPDIR/go1.json"
  [ "$status" -eq 0 ]
  [ "$output" = '{"feasible":true}' ]
  check '
import json
from ikcheck import point
S, W = json.load(open("'"$GO1_STANCE"'")), json.load(open("'"$W"'"))
o = json.load(open("'"$BATS_TEST_TMPDIR/go1.json"'"))
feet = [h["link"] for h in S["holds"]]
assert [h["link"] for h in W["holds"]] == feet, W
kin = ["spart-kin", "-m", "'"$GO1"'", "--frame", ",".join(feet), "--only", "rF,RF"]
k = run(kin, o)[0]
for s, w, rF, RF in zip(S["holds"], W["holds"], k["rF"], k["RF"]):
    # the same contacts, where the record puts them; the hold the link'"'"'s pose: its R, its
    # contact point where it is
    assert len(w["contacts"]) == 1 and w["contacts"][0]["normal"] == [0, 0, 1] and w["contacts"][0]["mu"] == 0.6, w
    close(w["contacts"][0]["point"], s["contacts"][0]["point"], 1e-12, "contact")
    close(point(rF, RF, w["point"]), w["position"], 1e-12, "hold")
    close(w["position"], s["contacts"][0]["point"], 1e-12, "hold")
    close(sum(w["R"], []), sum(RF, []), 1e-15, "R")
# from a perturbed guess, the written stance alone
guess = dict(o, qm=[q + 0.05 * (-1) ** j for j, q in enumerate(o["qm"])],
             r0=[o["r0"][0] + 0.02, o["r0"][1] - 0.01, o["r0"][2] + 0.03])
again = run(["spart-ik", "-m", "'"$GO1"'", "--stance", "'"$W"'"], guess)[0]
k2 = run(kin, again)[0]
for a, b in zip(k["rF"], k2["rF"]):
    close(a, b, 1e-9, "foot")
close(again["qm"], o["qm"], 1e-8, "qm")
'
  # a second record: refused, the file not written
  rm "$W"
  run --separate-stderr spart-contact -m "$GO1" --gravity 0,0,-9.81 --stance "$GO1_STANCE" --only feasible --write-stance "$W" < <(cat "$BATS_TEST_TMPDIR/go1.json" "$BATS_TEST_TMPDIR/go1.json")
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-contact: <stdin>:2: --write-stance: a stance is one record's, and the input has more" ]
  [ ! -e "$W" ]
  run --separate-stderr spart-contact -m "$GO1" --gravity 0,0,-9.81 --write-stance "$W" < /dev/null
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-contact: --write-stance: no record to make a stance of" ]
  [ ! -e "$W" ]
  # from contacts the record gives, its feet's spheres where they touch (contacts from geometry)
  feet='[{"link": "FR_foot", "mu": 0.5}, {"link": "FL_foot", "mu": 0.5}, {"link": "RR_foot", "mu": 0.5}, {"link": "RL_foot", "mu": 0.5}]'
  sed "s/}\$/, \"contacts\": ${feet//\//\\/}}/" "$BATS_TEST_TMPDIR/go1.json" |
    spart-contact -m "$GO1" --gravity 0,0,-9.81 --only feasible --write-stance "$W"
  spart-ik -m "$GO1" --stance "$W" --only qm,R0,r0 < "$BATS_TEST_TMPDIR/go1.json" | spart-contact -m "$GO1" --gravity 0,0,-9.81 --stance "$W" --only feasible | grep -qx '{"feasible":true}'
}

@test "bash completion: --stance and --write-stance complete JSON files; spart-contact --help names them" {
  cd "$BATS_TEST_TMPDIR"
  touch feet.json notes.txt
  for c in spart-contact spart-ik spart-draw; do
    run -0 complete_tree "$c" --stance ''
    [ "$output" = feet.json ]
  done
  run -0 complete_tree spart-contact --write-stance ''
  [ "$output" = feet.json ]
  run -0 complete_tree spart-contact --write
  [ "$output" = --write-stance ]
  run -0 complete_tree spart-draw --sta
  [ "$output" = --stance ]
  run -0 spart-contact --help
  [[ "$output" == *"      --stance FILE "* && "$output" == *"      --write-stance FILE "* ]]
}
