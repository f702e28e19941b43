#!/usr/bin/env bats
# spart-draw: SVG pictures of the robot at state records, checked as XML (xmllint) and as
# rendered pixels (rsvg-convert, scripts/deps.sh)

bats_require_minimum_version 1.5.0
load helper

# a box of 0.2 on a prismatic joint along x over a massless base: box_robot FILE
box_robot() {
  cat > "$1" <<'EOF'
<robot name="boxbot">
  <link name="b"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="s"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><geometry><box size="0.2 0.2 0.2"/></geometry></visual></link>
  <joint name="x" type="prismatic"><parent link="b"/><child link="s"/><origin xyz="0 0.5 0"/><axis xyz="1 0 0"/>
    <limit lower="-5" upper="5" effort="1" velocity="1"/></joint>
</robot>
EOF
}

@test "spart-draw: every bundled robot in every view is valid SVG that rsvg-convert renders" {
  for f in "$MODELS"/*.urdf; do
    n=$(urdf2robot "$f" | python3 -c 'import json, sys; print(json.load(sys.stdin)["n_q"])')
    python3 -c "import json; print(json.dumps({'qm': [0.3] * $n}))" > "$BATS_TEST_TMPDIR/s.jsonl"
    for v in front side top iso; do
      spart-draw -m "$f" --view "$v" < "$BATS_TEST_TMPDIR/s.jsonl" > "$BATS_TEST_TMPDIR/p.svg"
      xmllint --noout "$BATS_TEST_TMPDIR/p.svg"
      rsvg-convert "$BATS_TEST_TMPDIR/p.svg" -o "$BATS_TEST_TMPDIR/p.png"
      [ -s "$BATS_TEST_TMPDIR/p.png" ]
    done
  done
}

@test "spart-draw: the box is drawn where the kinematics put it (rendered pixels of two states)" {
  box_robot "$BATS_TEST_TMPDIR/box.urdf"
  printf '{"qm": [0]}\n{"qm": [1]}\n' |
    spart-draw -m "$BATS_TEST_TMPDIR/box.urdf" --view top --frames > "$BATS_TEST_TMPDIR/b.svg"
  xmllint --noout "$BATS_TEST_TMPDIR/b.svg"
  rsvg-convert "$BATS_TEST_TMPDIR/b.svg" -o "$BATS_TEST_TMPDIR/b.png"
  python3 - "$BATS_TEST_TMPDIR/b.svg" "$BATS_TEST_TMPDIR/b.png" <<'PY'
import re, struct, sys, zlib
svg = open(sys.argv[1]).read()
W = int(re.search(r'width="(\d+)"', svg).group(1))
vb = [float(x) for x in re.search(r'viewBox="([^"]+)"', svg).group(1).split()]
scale = W / vb[2]          # pixels a metre
w = vb[2] / 2              # each frame's width, metres
# decode the PNG (8-bit RGBA, not interlaced)
data = open(sys.argv[2], "rb").read()
pos, idat = 8, b""
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        pw, ph, depth, ctype = struct.unpack(">IIBB", body[:10])
        assert depth == 8 and ctype == 6
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
raw, rows, prev, k = zlib.decompress(idat), [], bytearray(pw * 4), 0
for y in range(ph):
    f, line = raw[k], bytearray(raw[k + 1:k + 1 + pw * 4]); k += 1 + pw * 4
    for i in range(len(line)):
        a = line[i - 4] if i >= 4 else 0; b = prev[i]; c = prev[i - 4] if i >= 4 else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line); prev = line
# the box's fill: its top face's colour (shaded faces are opaque, the shade the light's)
fill = re.search(r'<polygon [^>]*fill="#([0-9a-f]{6})"', svg).group(1)
want = [int(fill[i:i + 2], 16) for i in (0, 2, 4)]
xs = [[], []]
for y in range(ph):
    for x in range(pw):
        px = rows[y][4 * x:4 * x + 3]
        if all(abs(px[i] - want[i]) <= 3 for i in range(3)):
            xs[0 if x < pw / 2 else 1].append(x)
(l0, r0), (l1, r1) = (min(xs[0]), max(xs[0])), (min(xs[1]), max(xs[1]))
# 0.2 m wide in each, and moved by the frame's width plus the joint's 1 m
for l, r in ((l0, r0), (l1, r1)):
    assert abs((r - l + 1) - 0.2 * scale) <= 3, (l, r, scale)
assert abs((l1 - l0) - (w + 1) * scale) <= 2, (l0, l1, w, scale)
PY
}

@test "spart-draw: several records are an animation, the first frame shown; contacts draw the support polygon" {
  q='[0.1, 0.4, -0.8, -0.1, 0.4, -0.8, 0.1, 0.4, -0.8, -0.1, 0.4, -0.8]'
  c='[{"link": "fl_shank", "mu": 0.8}, {"link": "fr_shank", "mu": 0.8}, {"link": "hl_shank", "mu": 0.8}, {"link": "hr_shank", "mu": 0.8}]'
  printf '{"qm": %s, "contacts": %s}\n{"qm": %s}\n' "$q" "$c" "$q" |
    spart-draw -m "$MODELS/quadruped.urdf" --gravity 0,0,-9.81 --view iso > "$BATS_TEST_TMPDIR/a.svg"
  xmllint --noout "$BATS_TEST_TMPDIR/a.svg"
  [ "$(grep -c '<animate ' "$BATS_TEST_TMPDIR/a.svg")" -eq 2 ]
  [ "$(grep -c 'fill="#c8e6c9"' "$BATS_TEST_TMPDIR/a.svg")" -eq 1 ]
  rsvg-convert "$BATS_TEST_TMPDIR/a.svg" -o "$BATS_TEST_TMPDIR/a.png"
  # contacts without --gravity; a bad view
  run --separate-stderr spart-draw -m "$MODELS/quadruped.urdf" <<< "{\"qm\": $q, \"contacts\": $c}"
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"needs --gravity"* ]]
  [ -z "$output" ]
  run --separate-stderr spart-draw -m "$MODELS/quadruped.urdf" --view back <<< "{\"qm\": $q}"
  [ "$status" -eq 2 ]
  [[ "$stderr" == *"--view: expected front, side, top or iso, got 'back'"* ]]
}

@test "spart-draw: a sphere of radius 0 (a point) is a dot where the kinematics put it; valid SVG" {
  # tests/data/shapes/point_foot.urdf seen from the side (right +x, up +z): the toe 0.1 m
  # right of the knee and 0.5 m below it, a dot of the collision shapes' colour
  spart-draw -m "$TOP/tests/data/shapes/point_foot.urdf" <<< '{"r0": [0.3, 0.2, 1], "qm": [0]}' > "$BATS_TEST_TMPDIR/p.svg"
  xmllint --noout "$BATS_TEST_TMPDIR/p.svg"
  rsvg-convert "$BATS_TEST_TMPDIR/p.svg" -o "$BATS_TEST_TMPDIR/p.png"
  python3 - "$BATS_TEST_TMPDIR/p.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
svg = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
dots = [c for c in svg.iter(ns + "circle") if c.get("fill") == "#ffcc80"]
knee = [c for c in svg.iter(ns + "circle") if c.get("fill") == "#ffffff"]
assert len(dots) == 1 and len(knee) == 1, (dots, knee)
d, k = dots[0], knee[0]
assert float(d.get("r")) > 0
dx = float(d.get("cx")) - float(k.get("cx"))
dy = float(d.get("cy")) - float(k.get("cy"))  # SVG's y is down
assert abs(dx - 0.1) < 1e-5 and abs(dy - 0.5) < 1e-5, (dx, dy)
PY
}

@test "spart-draw: --help names its options" {
  run spart-draw --help
  [ "$status" -eq 0 ]
  [[ "$output" == *"--view VIEW"* && "$output" == *"--frames"* ]]
}

@test "spart-draw reads CSV as every command does: the picture of the same records as JSON" {
  T="$BATS_TEST_TMPDIR"
  spart-states -m "$MODELS/kuka_iiwa.urdf" --random 3 --seed 4 -o csv > "$T/s.csv"
  spart-states -m "$MODELS/kuka_iiwa.urdf" --random 3 --seed 4 -o json > "$T/s.jsonl"
  run --separate-stderr spart-draw -m "$MODELS/kuka_iiwa.urdf" --frames < "$T/s.csv"
  [ "$status" -eq 0 ]
  # (its links are meshes not bundled: one line says so)
  [ "${#stderr_lines[@]}" -eq 1 ]
  [[ "$stderr" == "spart-draw: warning: 10 mesh files not found (16 shapes not drawn): "* ]]
  printf '%s\n' "$output" > "$T/csv.svg"
  xmllint --noout "$T/csv.svg"
  [ "$(grep -c '<g id="frame' "$T/csv.svg")" -eq 3 ]
  spart-draw -m "$MODELS/kuka_iiwa.urdf" --frames < "$T/s.jsonl" > "$T/json.svg"
  cmp "$T/csv.svg" "$T/json.svg"
  # by joint name too, with -i csv
  spart-states -m "$MODELS/kuka_iiwa.urdf" --normalize --by-name < "$T/s.csv" |
    spart-draw -m "$MODELS/kuka_iiwa.urdf" --frames -i csv > "$T/named.svg"
  cmp "$T/named.svg" "$T/json.svg"
  # contacts have no CSV column: one named so is refused, not ignored
  run --separate-stderr spart-draw -m "$MODELS/kuka_iiwa.urdf" <<< $'contacts,qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\n1,0,0,0,0,0,0,0'
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "spart-draw: <stdin>:1: column 'contacts': contacts are read from JSON records only, not CSV (use -i json)" ]
  # spart-contact, whose records must give contacts, still refuses CSV
  run --separate-stderr spart-contact -m "$MODELS/kuka_iiwa.urdf" --gravity 0,0,-9.81 < "$T/s.csv"
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"contacts are read from JSON records only, not CSV (use -i json)" ]]
}

@test "spart-draw with no record, or -k and bad records, writes a valid SVG document or exits non-zero with nothing" {
  T="$BATS_TEST_TMPDIR"
  M="$MODELS/kuka_iiwa.urdf"
  q='[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]'
  # no record: an empty picture, exit 0
  for f in json csv; do
    for strip in "" --frames; do
      run --separate-stderr spart-draw -m "$M" -i $f $strip < /dev/null
      [ "$status" -eq 0 ]
      printf '%s\n' "$output" > "$T/e.svg"
      xmllint --noout "$T/e.svg"
      [ "$(grep -c '<g id' "$T/e.svg")" -eq 0 ]
    done
  done
  printf 'qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\n' | spart-draw -m "$M" > "$T/h.svg"
  xmllint --noout "$T/h.svg"
  # -k, every record bad: a valid document of no frame, exit 1
  run --separate-stderr spart-draw -m "$M" -k <<< $'{"qm": [1]}\n{"qm": [1, 2]}'
  [ "$status" -eq 1 ]
  printf '%s\n' "$output" > "$T/k.svg"
  xmllint --noout "$T/k.svg"
  [ "$(grep -c '<g id' "$T/k.svg")" -eq 0 ]
  # -k: the good records drawn, as they are alone; a record whose contacts fail while it is
  # drawn leaves nothing of its picture
  spart-draw -m "$M" --frames --gravity 0,0,-9.81 <<< "{\"qm\": $q}" > "$T/one.svg"
  run --separate-stderr spart-draw -m "$M" --frames -k --gravity 0,0,-9.81 <<< "{\"qm\": [1]}
{\"qm\": $q, \"contacts\": [{\"link\": \"no_such_link\", \"point\": [0, 0, 0]}]}
{\"qm\": $q}"
  [ "$status" -eq 1 ]
  [ "${#stderr_lines[@]}" -eq 4 ] # the bad records, the meshes not found, the count
  [[ "${stderr_lines[1]}" == "spart-draw: <stdin>:2: contacts[0].link: no link 'no_such_link'"* ]]
  [[ "${stderr_lines[2]}" == "spart-draw: warning: 10 mesh files not found"* ]]
  printf '%s\n' "$output" > "$T/k2.svg"
  cmp "$T/k2.svg" "$T/one.svg"
  # without -k a bad record: exit 1, nothing written
  run --separate-stderr spart-draw -m "$M" <<< "{\"qm\": $q}"$'\n{"qm": [1]}'
  [ "$status" -eq 1 ]
  [ -z "$output" ]
}

@test "spart-draw --stance: the holds' contacts drawn (a dot and a normal each) with their support polygon, as the same contacts given in the record are" {
  G="$TOP/tests/data/go1.urdf" S="$TOP/docs/go1-stance.json" T="$BATS_TEST_TMPDIR"
  echo '{"targets": [{"link": "trunk", "position": [0, 0, 0.30], "R": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}]}' |
    spart-ik -m "$G" --stance "$S" --only qm,R0,r0 > "$T/go1.json"
  spart-draw -m "$G" --gravity 0,0,-9.81 --stance "$S" --view iso < "$T/go1.json" > "$T/held.svg"
  xmllint --noout "$T/held.svg"
  rsvg-convert "$T/held.svg" -o "$T/held.png"
  # the same contacts in the record, each in its foot's frame (RF' (c - rF), by hand)
  PYTHONPATH="$BATS_TEST_DIRNAME" python3 - "$G" "$S" "$T/go1.json" > "$T/given.json" <<'PY'
import json, sys
from contactcheck import stance_contacts
G, S, o = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
print(json.dumps(dict(o, contacts=stance_contacts(G, S, o))))
PY
  spart-draw -m "$G" --gravity 0,0,-9.81 --view iso < "$T/given.json" > "$T/given.svg"
  cmp "$T/held.svg" "$T/given.svg"
  # four contact dots and four normals, the support polygon once
  [ "$(grep -c '<circle[^>]*fill="#c62828"' "$T/held.svg")" -eq 4 ]
  [ "$(grep -c '<polyline[^>]*fill="#c62828"' "$T/held.svg")" -eq 4 ]
  [ "$(grep -c 'fill="#c8e6c9"' "$T/held.svg")" -eq 1 ]
  # the dots where the contacts are: side view, right +x, up +z (y down in SVG): the
  # ground's contacts share one height, two pairs of x 0.38 m apart
  spart-draw -m "$G" --gravity 0,0,-9.81 --stance "$S" < "$T/go1.json" |
    python3 -c '
import sys, xml.etree.ElementTree as ET
dots = [(float(c.get("cx")), float(c.get("cy"))) for c in ET.parse(sys.stdin).getroot().iter("{http://www.w3.org/2000/svg}circle") if c.get("fill") == "#c62828"]
assert len(dots) == 4 and max(y for _, y in dots) - min(y for _, y in dots) < 1e-5, dots
xs = sorted(x for x, _ in dots)
assert abs(xs[1] - xs[0]) < 1e-5 and abs(xs[3] - xs[2]) < 1e-5 and abs(xs[2] - xs[0] - 0.38) < 1e-5, xs
'
}

# the SVG's polygons of a fill test (python's lambda on the colour's RGB), in document order,
# and whether two convex polygons overlap by more than touching (separating axes)
svg_polys_py='
import re, sys
def polys(svg):
    out = []
    for m in re.finditer(r"<polygon points=\"([^\"]+)\"[^>]*fill=\"#([0-9a-f]{6})\"", svg):
        pts = [tuple(map(float, p.split(","))) for p in m.group(1).split()]
        rgb = tuple(int(m.group(2)[i:i + 2], 16) for i in (0, 2, 4))
        out.append((pts, rgb))
    return out
def overlap(a, b, eps=1e-6):
    for poly in (a, b):
        for i in range(len(poly)):
            (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % len(poly)]
            nx, ny = y1 - y0, x0 - x1
            pa = [nx * x + ny * y for x, y in a]
            pb = [nx * x + ny * y for x, y in b]
            scale = (nx * nx + ny * ny) ** 0.5
            if min(pa) >= max(pb) - eps * scale or min(pb) >= max(pa) - eps * scale:
                return False
    return True
'

@test "spart-draw: faces are depth-sorted: a small cube on the far end of a long flat box is drawn over it, face by face (iso and side)" {
  # a plate 2 x 2 x 0.05 (collision only: orange) and a cube of 0.2 on its far corner (visual:
  # grey); seen iso from (1,-1,1) the cube's origin is farther than the plate's, so ordering
  # whole shapes draws the plate over the cube
  cat > "$BATS_TEST_TMPDIR/plate.urdf" <<'URDF'
<robot name="plate">
  <link name="plate"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><box size="2 2 0.05"/></geometry></collision></link>
  <link name="cube"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><geometry><box size="0.2 0.2 0.2"/></geometry></visual></link>
  <joint name="j" type="prismatic"><parent link="plate"/><child link="cube"/><origin xyz="-0.7 0.7 0.125"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>
URDF
  for v in iso side front; do
    spart-draw -m "$BATS_TEST_TMPDIR/plate.urdf" --view $v <<< '{"qm": [0]}' > "$BATS_TEST_TMPDIR/p.svg"
    rsvg-convert "$BATS_TEST_TMPDIR/p.svg" -o "$BATS_TEST_TMPDIR/p.png"
    python3 -c "$svg_polys_py"'
svg = open(sys.argv[1]).read()
ps = polys(svg)
grey = [i for i, (p, c) in enumerate(ps) if c[0] < c[2]]      # the cube: blue-grey
orange = [i for i, (p, c) in enumerate(ps) if c[0] > c[2]]    # the plate
assert grey and orange, (len(grey), len(orange))
pairs = [(i, j) for i in grey for j in orange if overlap(ps[i][0], ps[j][0])]
if sys.argv[2] == "iso":
    assert pairs, "the cube should cover part of the plate"
late = [(i, j) for i, j in pairs if j > i]
assert not late, ("plate faces over the cube", late[:5])
print(sys.argv[2], len(grey), len(orange), len(pairs))
' "$BATS_TEST_TMPDIR/p.svg" $v
  done
}

@test "spart-draw: the skeleton goes through the joints that move: ANYmal C's and Go1's massless camera and sensor frames have no line and fixed joints no dot, unless --frames-all" {
  A="$TOP/tests/data/example-robot-data/robots/anymal_c_simple_description/urdf/anymal.urdf"
  for M in "$A" "$TOP/tests/data/go1.urdf"; do
    urdf2robot --package-path "$TOP/tests/data" "$M" > "$BATS_TEST_TMPDIR/m.json" 2> /dev/null
    echo '{"r0": [0, 0, 0.6], "qm": [0, 0.6, -1.2, 0, 0.6, -1.2, 0, -0.6, 1.2, 0, -0.6, 1.2]}' > "$BATS_TEST_TMPDIR/s.jsonl"
    for all in "" --frames-all; do
      spart-draw -m "$BATS_TEST_TMPDIR/m.json" --view iso $all < "$BATS_TEST_TMPDIR/s.jsonl" > "$BATS_TEST_TMPDIR/p.svg"
      rsvg-convert "$BATS_TEST_TMPDIR/p.svg" -o "$BATS_TEST_TMPDIR/p.png"
      # the expected counts from the URDF itself: a dot a moving joint; a line to each link
      # whose joint moves or that has mass and is welded (through fixed joints) to a link
      # that moves (a foot); with --frames-all, one line and one dot a joint
      python3 - "$M" "$BATS_TEST_TMPDIR/p.svg" "$all" <<'PY'
import re, sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
mass = {l.get("name"): float(l.find("inertial/mass").get("value")) if l.find("inertial/mass") is not None else 0.0
        for l in r.findall("link")}
joint = {j.find("child").get("link"): j for j in r.findall("joint")}
def moving(link):
    return link in joint and joint[link].get("type") != "fixed"
def shown(link):
    if moving(link):
        return True
    if mass[link] <= 0:
        return False
    p = joint[link].find("parent").get("link")
    while p in joint and not moving(p):
        p = joint[p].find("parent").get("link")
    return p in joint
svg = open(sys.argv[2]).read()
dots = svg.count('fill="#ffffff" stroke="#1a237e"')
lines = len(re.findall(r'<polyline [^>]*stroke="#1a237e"', svg))
if sys.argv[3]:
    want_dots = want_lines = len(joint)
else:
    want_dots = sum(moving(l) for l in joint)
    want_lines = sum(shown(l) for l in joint)
    massless = sum(mass[l] <= 0 and not moving(l) for l in joint)
    assert massless >= 5 and want_dots == 12, (massless, want_dots)
print(sys.argv[1], dots, want_dots, lines, want_lines)
assert dots == want_dots and lines == want_lines, (dots, want_dots, lines, want_lines)
PY
    done
  done
}

# the contact arrows of an SVG (side view: up is +z) read back with the scale the picture states:
# their forces' sum (x, z) against the weight of model $1 (its masses, 9.81), within $3 of it
arrows_sum_weight() {
  python3 - "$1" "$2" "$3" <<'PY'
import json, re, sys
m = json.load(open(sys.argv[1]))
weight = 9.81 * (m["base_link"]["mass"] + sum(l["mass"] for l in m["links"]))
tol = float(sys.argv[3])
svg = open(sys.argv[2]).read()
per_m = float(re.search(r"contact forces: ([0-9.eE+-]+) N a metre of arrow", svg).group(1))
arrows = re.findall(r'<path class="force" d="M ([-0-9.e]+) ([-0-9.e]+) L ([-0-9.e]+) ([-0-9.e]+)', svg)
fx = sum(float(b) - float(a) for a, _, b, _ in arrows) * per_m
fz = -sum(float(b) - float(a) for _, a, _, b in arrows) * per_m   # SVG's y is down
print(len(arrows), "arrows:", fx, fz, "weight", weight)
assert len(arrows) >= 4
assert abs(fz - weight) < tol * weight and abs(fx) < tol * weight, (fx, fz, weight)
PY
}

@test "spart-draw: spart-contact's contact forces of the standing quadruped are arrows from its feet that sum to its weight, on the scale the picture states" {
  T="$BATS_TEST_TMPDIR"
  urdf2robot "$MODELS/quadruped.urdf" > "$T/q.json"
  q='[0.1, 0.4, -0.8, -0.1, 0.4, -0.8, 0.1, 0.4, -0.8, -0.1, 0.4, -0.8]'
  c='[{"link": "fl_shank", "mu": 0.8}, {"link": "fr_shank", "mu": 0.8}, {"link": "hl_shank", "mu": 0.8}, {"link": "hr_shank", "mu": 0.8}]'
  # spart-contact's forces, and the contacts they are at, in one record
  f=$(printf '{"qm": %s, "contacts": %s}\n' "$q" "$c" |
    spart-contact -m "$T/q.json" --gravity 0,0,-9.81 --keep-state --only contact_forces)
  printf '{"contacts": %s, %s\n' "$c" "${f#\{}" > "$T/c.jsonl"
  spart-draw -m "$T/q.json" --gravity 0,0,-9.81 < "$T/c.jsonl" > "$T/p.svg"
  xmllint --noout "$T/p.svg"
  rsvg-convert "$T/p.svg" -o "$T/p.png"
  arrows_sum_weight "$T/q.json" "$T/p.svg" 1e-4
  # forces whose rows the contacts do not give: refused
  printf '{"contacts": %s, "qm": %s, "contact_forces": [[0, 0, 1]]}\n' "$c" "$q" > "$T/bad.jsonl"
  run --separate-stderr spart-draw -m "$T/q.json" --gravity 0,0,-9.81 < "$T/bad.jsonl"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "spart-draw: <stdin>:1: contact_forces: 1 rows, the contacts give 4 points" ]
}

@test "spart-draw: spart-sim's contact_forces of the quadruped standing on the ground are arrows at the shapes' contact points that sum to its weight" {
  T="$BATS_TEST_TMPDIR"
  urdf2robot "$MODELS/quadruped.urdf" > "$T/q.json"
  q='[0,0.4,-0.8,0,0.4,-0.8,0,0.4,-0.8,0,0.4,-0.8]'
  echo "{\"t\": 0, \"qm\": $q}" > "$T/ref.json"
  echo "{\"r0\": [0.02, 0, 0.3984], \"qm\": $q}" |
    spart-sim -m "$T/q.json" --gravity 0,0,-9.81 --ground --integrator implicit --duration 1.5 \
      --every 1500 \
      --contact-forces --control pd --kp 300 --kd 1.5 --reference "$T/ref.json" | tail -n 1 > "$T/s.jsonl"
  spart-draw -m "$T/q.json" --gravity 0,0,-9.81 < "$T/s.jsonl" > "$T/p.svg"
  xmllint --noout "$T/p.svg"
  rsvg-convert "$T/p.svg" -o "$T/p.png"
  grep -q '>t = 1.5 s<' "$T/p.svg"
  # standing still under PD, not exactly at rest: within 2 %
  arrows_sum_weight "$T/q.json" "$T/p.svg" 0.02
  # from the feet's lowest points, on the ground (edge-on from the side: its grid's lines at
  # z = 0), a millimetre or so into it
  python3 - "$T/p.svg" <<'PY'
import re, sys
svg = open(sys.argv[1]).read()
ground = {float(y) for pts in re.findall(r'<polyline points="([^"]+)"[^>]*stroke="#cfd8dc"', svg)
          for p in pts.split() for y in [p.split(",")[1]]}
assert len(ground) == 1, ground
y0 = ground.pop()
starts = [float(y) for y in re.findall(r'<path class="force" d="M [-0-9.e]+ ([-0-9.e]+)', svg)]
assert len(starts) >= 4 and all(0 < y - y0 < 3e-3 for y in starts), (y0, starts)
PY
}

@test "spart-draw: each frame of a strip or an animation is labelled with its t; --labels names the links" {
  T="$BATS_TEST_TMPDIR"
  printf '{"t": 0, "qm": [0]}\n{"t": 0.25, "qm": [0.5]}\n{"t": 1e-3, "qm": [1]}\n' > "$T/s.jsonl"
  box_robot "$T/box.urdf"
  for strip in --frames ""; do
    spart-draw -m "$T/box.urdf" --labels $strip < "$T/s.jsonl" > "$T/p.svg"
    xmllint --noout "$T/p.svg"
    rsvg-convert "$T/p.svg" -o "$T/p.png"
    python3 - "$T/p.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
svg = ET.parse(sys.argv[1]).getroot()
frames = [g for g in svg.iter(ns + "g") if g.get("id", "").startswith("frame")]
assert len(frames) == 3
for g, t in zip(frames, ("0", "0.25", "0.001")):
    texts = [x.text for x in g.iter(ns + "text")]
    assert ("t = %s s" % t) in texts, texts
    assert "b" in texts and "s" in texts, texts   # the links' names
PY
  done
  # no t, no label; no --labels, no names
  spart-draw -m "$T/box.urdf" <<< '{"qm": [0]}' > "$T/n.svg"
  ! grep -q '<text' "$T/n.svg"
}

@test "spart-draw: an animation's memory is bounded (frames kept in a temporary file): 4,000 records of the quadruped take no more than 100 do, within 8 MB" {
  T="$BATS_TEST_TMPDIR"
  urdf2robot "$MODELS/quadruped.urdf" > "$T/q.json"
  spart-states -m "$T/q.json" --random 4000 --seed 3 > "$T/s.jsonl"
  head -n 100 "$T/s.jsonl" > "$T/s100.jsonl"
  /usr/bin/time -f %M -o "$T/rss100" spart-draw -m "$T/q.json" --view iso < "$T/s100.jsonl" > /dev/null
  /usr/bin/time -f %M -o "$T/rss" spart-draw -m "$T/q.json" --view iso < "$T/s.jsonl" > "$T/p.svg"
  [ "$(grep -c '<g id="frame' "$T/p.svg")" -eq 4000 ]
  tail -n 1 "$T/p.svg" | grep -q '</svg>'
  echo "peak RSS: 100 records $(cat "$T/rss100") kB, 4000 records $(cat "$T/rss") kB"
  # (not under AddressSanitizer, whose quarantine keeps what is freed: 249 MB)
  sanitized spart-draw libasan || [ "$(cat "$T/rss")" -lt $(( $(cat "$T/rss100") + 8192 )) ]
}

@test "spart-draw: docs/ holds the README's pictures as scripts/pictures.sh makes them (ANYmal C, Go1, the quadruped standing and in simulation), byte for byte; rsvg-convert renders each" {
  T="$BATS_TEST_TMPDIR"
  SPART_BIN="${SPART_BIN:-$TOP/bin}" run --separate-stderr sh "$TOP/scripts/pictures.sh" "$T/docs"
  [ "$status" -eq 0 ]
  # one line: ANYmal's links whose only shapes are its visual DAEs (not bundled) are not drawn
  [ "${#stderr_lines[@]}" -eq 1 ]
  [[ "$stderr" == "spart-draw: warning: 18 mesh files not found (41 shapes not drawn): "* ]]
  for n in anymal go1 quadruped quadruped-sim; do
    xmllint --noout "$T/docs/$n.svg"
    [ -s "$T/docs/$n.png" ]
    # the arrows and the ground in the pictures that have them
    case $n in quadruped-sim) grep -q 'class="force"' "$T/docs/$n.svg" ;; esac
    grep -q 'stroke="#cfd8dc"' "$T/docs/$n.svg"
    cmp "$T/docs/$n.svg" "$TOP/docs/$n.svg" || { echo "docs/$n.svg is stale: sh scripts/pictures.sh"; false; }
    cmp "$T/docs/$n.png" "$TOP/docs/$n.png" || { echo "docs/$n.png is stale: sh scripts/pictures.sh"; false; }
  done
  grep -q '(docs/anymal.png)' "$TOP/README.md"
  grep -q '(docs/quadruped-sim.png)' "$TOP/README.md"
}

@test "spart-draw: --view-box fixes the picture's extent, whatever the records; a bad one is a usage error" {
  box_robot "$BATS_TEST_TMPDIR/box.urdf"
  for q in 0 3; do
    spart-draw -m "$BATS_TEST_TMPDIR/box.urdf" --view-box -1,-0.5,3,1.5 <<< "{\"qm\": [$q]}" > "$BATS_TEST_TMPDIR/p$q.svg"
    grep -q 'viewBox="0 0 4.4 2.4"' "$BATS_TEST_TMPDIR/p$q.svg"
  done
  run --separate-stderr spart-draw -m "$BATS_TEST_TMPDIR/box.urdf" --view-box 1,0,0,1 <<< '{"qm": [0]}'
  [ "$status" -eq 2 ]
  [ -z "$output" ]
  [ "${stderr_lines[0]}" = "spart-draw: --view-box: expected u0,v0,u1,v1 with u0 < u1 and v0 < v1, got '1,0,0,1'" ]
}

@test "spart-draw's new options complete in bash: --frames-all, --labels, --no-ground, --view-box (a value of the user's own)" {
  run -0 complete_tree spart-draw --frames
  [ "$output" = "$(printf -- '--frames\n--frames-all')" ]
  run -0 complete_tree spart-draw --lab
  [ "$output" = "--labels" ]
  run -0 complete_tree spart-draw --no-g
  [ "$output" = "--no-ground" ]
  run -0 complete_tree spart-draw --view
  [ "$output" = "$(printf -- '--view\n--view-box')" ]
  run -0 complete_tree spart-draw --view-box ''
  [ -z "$output" ]
}

# a one-link URDF at $1 whose visual is the mesh file $2 placed at xyz $3, rpy $4
mesh_robot() {
  cat > "$1" <<URDF
<robot name="m"><link name="body"><inertial><mass value="1"/><inertia ixx="0.002" iyy="0.002" izz="0.002" ixy="0" ixz="0" iyz="0"/></inertial>
<visual><origin xyz="$3" rpy="$4"/><geometry><mesh filename="$2"/></geometry></visual></link></robot>
URDF
}

# python: the SVG's polygons of 3 points (x, y each), and a view's axes (right, up, toward)
svg_tris_py='
import math, re
def svg_tris(path):
    svg = open(path).read()
    out = []
    for m in re.finditer(r"<polygon points=\"([^\"]+)\"", svg):
        pts = [tuple(map(float, p.split(","))) for p in m.group(1).split()]
        assert len(pts) == 3, ("a face that is not a triangle", pts)
        out.append(pts)
    return out
def unit(v):
    n = math.sqrt(sum(x * x for x in v))
    return [x / n for x in v]
def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
def dot(a, b):
    return sum(x * y for x, y in zip(a, b))
def axes(view):
    t = unit({"front": [1, 0, 0], "side": [0, -1, 0], "top": [0, 0, 1], "iso": [1, -1, 1]}[view])
    r = [1, 0, 0] if view == "top" else unit(cross([0, 0, 1], t))
    return r, cross(t, r), t
'

@test "spart-draw: an STL octahedron drawn as its triangles: the faces toward the viewer (4 in front and iso views), each a polygon at its vertices' projections" {
  T=$BATS_TEST_TMPDIR
  python3 "$BATS_TEST_DIRNAME/meshes.py" octahedron stl "$T/oct.stl"
  mesh_robot "$T/oct.urdf" oct.stl "0.1 -0.2 0.3" "0 0 0"
  mesh_robot "$T/turned.urdf" oct.stl "0.1 -0.2 0.3" "0.3 -0.2 0.5"
  for u in oct turned; do
    for v in front iso top; do
      echo '{"r0": [0.5, 0.25, -1]}' | spart-draw -m "$T/$u.urdf" --view $v > "$T/$u-$v.svg"
      python3 -c "$svg_tris_py"'
import sys
u, view, path = sys.argv[1:]
# the octahedron of radius 0.1 (tests/meshes.py), turned by rpy and moved by xyz + r0
rpy = [0.3, -0.2, 0.5] if u == "turned" else [0, 0, 0]
c, s = [math.cos(a) for a in rpy], [math.sin(a) for a in rpy]
Rx = [[1, 0, 0], [0, c[0], -s[0]], [0, s[0], c[0]]]
Ry = [[c[1], 0, s[1]], [0, 1, 0], [-s[1], 0, c[1]]]
Rz = [[c[2], -s[2], 0], [s[2], c[2], 0], [0, 0, 1]]
mul = lambda A, B: [[sum(A[i][k] * B[k][j] for k in range(3)) for j in range(3)] for i in range(3)]
R = mul(Rz, mul(Ry, Rx))
p = [0.1 + 0.5, -0.2 + 0.25, 0.3 - 1]
r, up, t = axes(view)
front = []
for sx in (1, -1):
    for sy in (1, -1):
        for sz in (1, -1):
            vs = [[0.1 * sx, 0, 0], [0, 0.1 * sy, 0], [0, 0, 0.1 * sz]]
            w = [[sum(R[i][k] * q[k] for k in range(3)) + p[i] for i in range(3)] for q in vs]
            n = [sum(R[i][k] * x for k, x in enumerate((sx, sy, sz))) for i in range(3)]
            if dot(n, t) > 1e-9:
                front.append([(dot(q, r), dot(q, up)) for q in w])
tris = svg_tris(path)
# the picture: x = u + ox, y = oy - v; the offsets from the extents of both
ox = min(x for f in tris for x, _ in f) - min(a for f in front for a, _ in f)
oy = min(y for f in tris for _, y in f) + max(b for f in front for _, b in f)
want = sorted(sorted((round(a + ox, 4), round(oy - b, 4)) for a, b in f) for f in front)
got = sorted(sorted((round(x, 4), round(y, 4)) for x, y in f) for f in tris)
print(u, view, len(front), len(tris))
assert len(got) == len(want) and (view == "top" or u == "turned" or len(got) == 4), (len(got), len(want))
for g, w in zip(got, want):
    assert max(abs(a - b) for P, Q in zip(g, w) for a, b in zip(P, Q)) <= 2e-4, (g, w)
' $u $v "$T/$u-$v.svg"
    done
  done
}

@test "spart-draw: a dense mesh (a sphere of 4680 triangles) drawn decimated: at most SPART_FACES_MAX (1024) faces both sides together, its silhouette as wide and tall as the sphere within 3%" {
  T=$BATS_TEST_TMPDIR
  python3 - "$T/sph.stl" <<'PY'
import math, sys
# a UV sphere of radius 0.2 about (0.05, 0, 0): 40 bands of 60, counter-clockwise from outside
nl, nm, r = 40, 60, 0.2
def p(i, j):
    ph, th = -math.pi / 2 + math.pi * i / nl, 2 * math.pi * j / nm
    return (0.05 + r * math.cos(ph) * math.cos(th), r * math.cos(ph) * math.sin(th), r * math.sin(ph))
t = []
for i in range(nl):
    for j in range(nm):
        a, b, c, d = p(i, j), p(i, j + 1), p(i + 1, j + 1), p(i + 1, j)
        t += ([(a, b, c)] if i > 0 else []) + ([(a, c, d)] if i < nl - 1 else [])
assert len(t) == 4680
with open(sys.argv[1], "w") as f:
    f.write("solid s\n")
    for tri in t:
        f.write(" facet normal 0 0 0\n  outer loop\n")
        f.write("".join("   vertex %.9g %.9g %.9g\n" % v for v in tri))
        f.write("  endloop\n endfacet\n")
    f.write("endsolid s\n")
PY
  mesh_robot "$T/a.urdf" sph.stl "0 0 0" "0 0 0"
  mesh_robot "$T/b.urdf" sph.stl "0 0 0" "0 0 3.14159265358979"
  for u in a b; do
    echo '{"r0": [0, 0, 0]}' | spart-draw -m "$T/$u.urdf" --view front > "$T/$u.svg"
  done
  # the same picture again: the decimation is deterministic
  echo '{"r0": [0, 0, 0]}' | spart-draw -m "$T/a.urdf" --view front | cmp - "$T/a.svg"
  python3 -c "$svg_tris_py"'
import sys
n = []
for path in sys.argv[1:]:
    tris = svg_tris(path)
    xs, ys = [x for f in tris for x, _ in f], [y for f in tris for _, y in f]
    print(path, len(tris), max(xs) - min(xs), max(ys) - min(ys))
    assert abs(max(xs) - min(xs) - 0.4) <= 0.012 and abs(max(ys) - min(ys) - 0.4) <= 0.012
    n.append(len(tris))
assert sum(n) <= 1024 and min(n) >= 300, n
' "$T/a.svg" "$T/b.svg"
}

@test "spart-draw: the Panda (--package-path tests/data) drawn with its collision STLs as their triangles, rendered by rsvg-convert" {
  T=$BATS_TEST_TMPDIR
  P="$TOP/tests/data/example-robot-data/robots/panda_description/urdf/panda.urdf"
  urdf2robot --package-path "$TOP/tests/data" "$P" > "$T/panda.json" 2> /dev/null
  echo '{"qm": [0, -0.5, 0, -2, 0, 1.5, 0.8, 0.02, 0.02]}' | spart-draw -m "$T/panda.json" --view iso > "$T/p.svg"
  rsvg-convert "$T/p.svg" -o "$T/p.png"
  [ -s "$T/p.png" ]
  # every face a triangle (its meshes'), at least as many as the front of its 11 meshes' 1-in-3
  python3 -c "$svg_tris_py"'
import json, sys
m = json.load(open(sys.argv[1]))
total = sum(len(s.get("triangles", [])) for s in m["shapes"])
tris = svg_tris(sys.argv[2])
print(total, len(tris))
assert total > 2000 and total / 3 <= len(tris) <= total, (total, len(tris))
' "$T/panda.json" "$T/p.svg"
}
