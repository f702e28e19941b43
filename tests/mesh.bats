#!/usr/bin/env bats
# meshes read through Assimp (STL, OBJ, COLLADA): the same cube in each format gives the same
# automass and contact points; a COLLADA file's unit and node transforms, its up axis left as
# RViz leaves it; the convex hull's vertices, each once, as the ground's and spart-contact's
# contact points (a tilted cube and an octahedron dropped rest on them); the Panda's and ANYmal's
# files against an independent reading; one line for the meshes not found.  The meshes are
# written by tests/meshes.py.

load helper

mesh() {
  python3 "$BATS_TEST_DIRNAME/meshes.py" "$@"
}

# a one-link URDF whose collision shape is the mesh FILE (in the test's directory), turned by
# RPY, with INERTIAL (XML, may be empty): one_link NAME FILE RPY INERTIAL; prints its path
one_link() {
  cat > "$BATS_TEST_TMPDIR/$1.urdf" <<URDF
<robot name="$1"><link name="body">$4<collision><origin rpy="$3"/><geometry><mesh filename="$2"/></geometry></collision></link></robot>
URDF
  echo "$BATS_TEST_TMPDIR/$1.urdf"
}

INERTIA='<inertial><mass value="1"/><inertia ixx="0.002" iyy="0.002" izz="0.002" ixy="0" ixz="0" iyz="0"/></inertial>'

@test "the same cube as ASCII and binary STL, OBJ and COLLADA: automass, hull and spart-contact's contact points equal to 1e-12" {
  cd "$BATS_TEST_TMPDIR"
  for f in stl binstl obj dae; do
    ext=$f; [ $f = binstl ] && ext=b.stl
    mesh box $f "box.$ext"
    u=$(one_link "a_$f" "box.$ext" "0 0 0" '<inertial><mass value="2"/></inertial>')
    urdf2robot --automass "$u" > "auto_$f.json"
    # contacts from geometry: level (a face's 4 corners) and turned (one corner)
    for rpy in "0 0 0" "0.3 0.2 0.1"; do
      u=$(one_link "c_$f" "box.$ext" "$rpy" "$INERTIA")
      echo '{"r0": [0, 0, 1], "contacts": [{"link": 0, "mu": 0.5}]}' |
        spart-contact -m "$u" --gravity 0,0,-9.81 >> "contact_$f.json"
    done
    urdf2robot "$u" > "model_$f.json"
  done
  python3 - <<'PY'
import json
def close(a, b, tol=1e-12):
    if isinstance(a, list):
        return len(a) == len(b) and all(close(x, y, tol) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and not isinstance(a, bool):
        return abs(a - b) <= tol
    return a == b
def load(k, f):
    text = open(k + "_" + f + ".json").read()
    return [json.loads(l) for l in text.splitlines()] if k == "contact" else [json.loads(text)]
ref = {k: load(k, "stl") for k in ("auto", "contact", "model")}
# the STL's own against closed forms: a 0.2 x 0.3 x 0.4 box of 2 kg centred at (0.1, 0.2, 0.3)
b = ref["auto"][0]["base_link"]
m, (x, y, z) = 2, (0.2, 0.3, 0.4)
want = [m * (y * y + z * z) / 12, m * (x * x + z * z) / 12, m * (x * x + y * y) / 12]
assert close([b["inertia"][k][k] for k in range(3)], want), b["inertia"]
assert close(ref["model"][0]["shapes"][0]["bounds"], [[0, 0.05, 0.1], [0.2, 0.35, 0.5]])
hull = sorted(map(tuple, ref["model"][0]["shapes"][0]["hull"]))
assert len(hull) == 8 and len(set(hull)) == 8, hull
assert len(ref["contact"][0]["support_polygon"]) == 4, ref["contact"][0]
assert len(ref["contact"][1]["support_polygon"]) == 1, ref["contact"][1]
for f in ("binstl", "obj", "dae"):
    for k in ref:
        got = load(k, f)
        for g in got + ref[k]:  # the robot's and the file's names differ
            g.pop("name", None)
            for sh in g.get("shapes", []):
                sh.pop("file", None)
                sh.get("hull", []).sort()
        assert close(got, ref[k]), (f, k, got, ref[k])
print("equal")
PY
}

@test "a COLLADA file in millimetres (<unit meter=\"0.001\">, Z_UP) is read in metres in the URDF's axes; Y_UP is not turned either (as RViz shows them)" {
  cd "$BATS_TEST_TMPDIR"
  mesh box dae mm.dae --unit 0.001
  mesh box dae yup.dae --up Y_UP
  mesh tilted dae tilt.dae
  for f in mm yup tilt; do
    urdf2robot "$(one_link "$f" "$f.dae" "0 0 0" "")" > "$f.json"
  done
  python3 - <<'PY'
import json, math
def bounds(f):
    return json.load(open(f))["shapes"][0]["bounds"]
for f in ("mm", "yup"):
    got = bounds(f + ".json")
    want = [[0, 0.05, 0.1], [0.2, 0.35, 0.5]]
    assert all(abs(g - w) <= 1e-12 for a, b in zip(got, want) for g, w in zip(a, b)), (f, got)
# the tilted cube: its node's rotation (30 deg about x, then 20 deg about y) applied
a, b = math.radians(30), math.radians(20)
rx = [[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]]
ry = [[math.cos(b), 0, math.sin(b)], [0, 1, 0], [-math.sin(b), 0, math.cos(b)]]
R = [[sum(ry[i][k] * rx[k][j] for k in range(3)) for j in range(3)] for i in range(3)]
corners = [[sum(R[i][k] * c[k] for k in range(3)) for i in range(3)]
           for c in ([x, y, z] for x in (-.05, .05) for y in (-.05, .05) for z in (-.05, .05))]
s = json.load(open("tilt.json"))["shapes"][0]
assert len(s["hull"]) == 8
for c in corners:
    assert min(max(abs(p - q) for p, q in zip(c, h)) for h in s["hull"]) <= 1e-8, c
PY
}

@test "the convex hull's vertices, each once: a cube whose faces are cut into squares gives its 8 corners, an octahedron its 6; the model JSON carries them and spart-contact reads them back" {
  cd "$BATS_TEST_TMPDIR"
  mesh fine stl fine.stl
  mesh octahedron obj oct.obj
  u=$(one_link fine fine.stl "0 0 0" "$INERTIA")
  urdf2robot "$u" > fine.json
  urdf2robot "$(one_link oct oct.obj "0 0 0" "")" > oct.json
  python3 - <<'PY'
import json
s = json.load(open("fine.json"))["shapes"][0]
assert len(s["vertices"]) == 98 and len(s["triangles"]) == 192, (len(s["vertices"]), len(s["triangles"]))
assert sorted(map(tuple, s["hull"])) == [(x, y, z) for x in (-.5, .5) for y in (-.5, .5) for z in (-.5, .5)], s["hull"]
o = json.load(open("oct.json"))["shapes"][0]["hull"]
assert sorted(map(tuple, o)) == sorted([(.1, 0, 0), (-.1, 0, 0), (0, .1, 0), (0, -.1, 0), (0, 0, .1), (0, 0, -.1)]), o
PY
  # the model JSON gives the same contact points as the URDF
  for m in "$u" fine.json; do
    echo '{"r0": [0, 0, 1], "contacts": [{"link": 0, "mu": 0.5}]}' |
      spart-contact -m "$m" --gravity 0,0,-9.81 --only support_polygon
  done > both
  [ "$(sed -n 1p both)" = "$(sed -n 2p both)" ]
  python3 -c 'import json, sys; p = json.loads(open("both").readline())["support_polygon"]
assert len(p) == 4 and all(abs(abs(x) - 0.5) <= 1e-12 for v in p for x in v), p' 
  # a model JSON's mesh rows are checked
  python3 -c 'import json; d = json.load(open("fine.json")); d["shapes"][0]["triangles"][0] = [0, 1, 98]; json.dump(d, open("bad.json", "w"))'
  run -1 --separate-stderr urdf2robot bad.json
  [[ "$stderr" == *"shapes[0].triangles: expected rows of 3 vertex indices below 98"* ]]
}

@test "a cube cut into 7 x 7 squares a face, turned and moved and written in floats (ASCII STL): its hull is its 8 corners, not some 60 to 140 of its vertices" {
  cd "$BATS_TEST_TMPDIR"
  python3 - <<'PY'
import math, struct
f32 = lambda v: struct.unpack("<f", struct.pack("<f", v))[0]
w, x, y, z = (v / math.sqrt(30) for v in (1, 2, -3, 4))
R = [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]
turn = lambda p: [f32(sum(R[i][k] * p[k] for k in range(3)) + 1) for i in range(3)]
m, out = 7, ["solid c"]
for ax in range(3):
    for side in (-0.5, 0.5):
        for a in range(m):
            for b in range(m):
                def P(i, j):
                    p = [0, 0, 0]
                    p[ax], p[(ax + 1) % 3], p[(ax + 2) % 3] = side, -0.5 + i / m, -0.5 + j / m
                    return turn(p)
                q = [P(a, b), P(a + 1, b), P(a + 1, b + 1), P(a, b + 1)][::1 if side > 0 else -1]
                for t in ((q[0], q[1], q[2]), (q[0], q[2], q[3])):
                    out += [" facet normal 0 0 0", "  outer loop"]
                    out += ["   vertex %.9g %.9g %.9g" % tuple(v) for v in t]
                    out += ["  endloop", " endfacet"]
open("turned.stl", "w").write("\n".join(out + ["endsolid c", ""]))
open("corners", "w").write(repr([turn([sx / 2, sy / 2, sz / 2]) for sx in (-1, 1)
                                 for sy in (-1, 1) for sz in (-1, 1)]))
PY
  urdf2robot "$(one_link turned turned.stl "0 0 0" "")" > turned.json
  python3 - <<'PY'
import json
h = json.load(open("turned.json"))["shapes"][0]["hull"]
want = eval(open("corners").read())
assert len(h) == 8, len(h)
assert all(min(max(abs(a - b) for a, b in zip(p, c)) for c in want) <= 1e-6 for p in h), h
PY
}

# a body of 1 kg whose collision shape is the STL mesh SHAPE, dropped from 0.3 m, turned a little,
# with spart-sim's INTEGRATOR: drop SHAPE INTEGRATOR; then rest.py checks it
drop() {
  cd "$BATS_TEST_TMPDIR"
  mesh "$1" stl "$1.stl"
  u=$(one_link "$1" "$1.stl" "0.05 0.03 0" "$INERTIA")
  urdf2robot "$u" > "$1.json"
  echo '{"r0": [0, 0, 0.3]}' | spart-sim -m "$u" --gravity 0,0,-9.81 --ground --duration 3 \
    --contact-forces --integrator "$2" > "$1.$2.jsonl"
}

rest() {
  python3 - "$BATS_TEST_TMPDIR/$1.json" "$BATS_TEST_TMPDIR/$1.$2.jsonl" "$3" "$4" <<'PY'
import json, math, sys
model = json.load(open(sys.argv[1]))
rows = [json.loads(l) for l in open(sys.argv[2])]
nrest, centre = int(sys.argv[3]), float(sys.argv[4])
m, g = 1.0, 9.81
k = m * g / 4e-3  # the ground's default stiffness: the weight on four contacts 1 mm deep
s = model["shapes"][0]
T = s["T"]
hull = [[sum(T[i][j] * h[j] for j in range(3)) + T[i][3] for i in range(3)] for h in s["hull"]]
for r in rows[2000:]:
    R, p = r["R0"], r["r0"]
    z = sorted(p[2] + sum(R[2][j] * h[j] for j in range(3)) for h in hull)
    # it rests on its nrest lowest hull vertices, each pressed in by its share of the weight
    for d in z[:nrest]:
        assert abs(d + m * g / (nrest * k)) <= 1e-6, (r["t"], z)
    assert z[nrest] > 0.01, z
    # the CoM at the face's distance less that penetration
    assert abs(p[2] - (centre - m * g / (nrest * k))) <= 1e-6, (r["t"], p[2])
    fz = sum(f[2] for f in r["contact_forces"])
    assert abs(fz - m * g) <= 1e-6 * m * g, fz
    assert len(r["contact_forces"]) == len(hull)
print(sys.argv[2], rows[-1]["r0"][2])
PY
}

@test "an STL octahedron and a tilted STL cube dropped on the ground rest on their lowest hull vertices (within the static penetration), the contact forces their weight (1e-6), implicit and rk4" {
  for integ in implicit rk4; do
    drop tilted $integ
    rest tilted $integ 4 0.05
    drop octahedron $integ
    rest octahedron $integ 3 "$(python3 -c 'print(0.1 / 3 ** 0.5)')"
  done
}

@test "the Panda's collision STLs and ANYmal's foot.dae (--package-path tests/data): bounds as a python reading of the files gives, hulls of sane sizes" {
  d="$TOP/tests/data/example-robot-data/robots"
  urdf2robot --package-path "$TOP/tests/data" "$d/panda_description/urdf/panda.urdf" > "$BATS_TEST_TMPDIR/panda.json"
  cat > "$BATS_TEST_TMPDIR/foot.urdf" <<URDF
<robot name="f"><link name="foot"><visual><geometry><mesh filename="package://example-robot-data/robots/anymal_c_simple_description/meshes/foot.dae"/></geometry></visual></link></robot>
URDF
  urdf2robot --package-path "$TOP/tests/data" "$BATS_TEST_TMPDIR/foot.urdf" > "$BATS_TEST_TMPDIR/foot.json"
  python3 - "$d" "$BATS_TEST_TMPDIR/panda.json" "$BATS_TEST_TMPDIR/foot.json" <<'PY'
import json, os, struct, sys, xml.etree.ElementTree as ET
d = sys.argv[1]
def short(f):  # a float as the shortest decimal that reads back as it (the reader's)
    for p in range(1, 10):
        s = "%.*g" % (p, f)
        if struct.unpack("<f", struct.pack("<f", float(s)))[0] == f:
            return float(s)
    return f
def box(pts):
    return [[min(p[c] for p in pts) for c in range(3)], [max(p[c] for p in pts) for c in range(3)]]
panda = json.load(open(sys.argv[2]))
read = [s for s in panda["shapes"] if s.get("mesh") == "read"]
col = [s for s in read if s["role"] == "collision"]
assert len(col) == 9, len(col)  # link0 .. link7 and the hand (the fingers' are boxes)
for s in col:
    name = s["file"].split("/")[-1]
    data = open(os.path.join(d, "panda_description/meshes/collision", name), "rb").read()
    n = struct.unpack("<I", data[80:84])[0]
    assert len(data) == 84 + 50 * n
    pts = set()
    for t in range(n):
        v = struct.unpack("<9f", data[84 + 50 * t + 12:84 + 50 * t + 48])
        pts.update(tuple(short(x) for x in v[3 * k:3 * k + 3]) for k in range(3))
    sc = s["scale"]
    want = box([[sc[c] * p[c] for c in range(3)] for p in pts])
    assert s["bounds"] == want, (name, s["bounds"], want)
    assert len(s["vertices"]) == len(pts), name
    assert 8 <= len(s["hull"]) <= len(pts), (name, len(s["hull"]), len(pts))
    # every vertex inside the hull's box, the hull's box the mesh's
    assert box(s["hull"]) == want, name
print("panda", [(s["file"].split("/")[-1], len(s["vertices"]), len(s["hull"])) for s in col])
# foot.dae: the positions of its one geometry, its node's identity matrix, metres, Z up
f = json.load(open(sys.argv[3]))["shapes"][0]
ns = {"c": "http://www.collada.org/2005/11/COLLADASchema"}
root = ET.parse(os.path.join(d, "anymal_c_simple_description/meshes/foot.dae")).getroot()
mats = [m.text.split() for m in root.iter("{%s}matrix" % ns["c"])]
assert all([float(x) for x in m] == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] for m in mats)
arr = [a for a in root.iter("{%s}float_array" % ns["c"]) if "position" in a.get("id").lower()]
assert len(arr) == 1
x = [short(struct.unpack("<f", struct.pack("<f", float(v)))[0]) for v in arr[0].text.split()]
pts = [x[3 * k:3 * k + 3] for k in range(len(x) // 3)]
assert f["bounds"] == box(pts), (f["bounds"], box(pts))
assert 8 <= len(f["hull"]) < len(f["vertices"]), (len(f["hull"]), len(f["vertices"]))
print("foot", len(f["vertices"]), len(f["triangles"]), len(f["hull"]))
PY
}

@test "meshes not found are one line of the summary for the whole model (how many, the first names, where they are looked for), not one a shape" {
  run -0 urdf2robot --summary "$MODELS/2_iiwa_base.urdf"
  [ "$(grep -c 'not found' <<< "$output")" -eq 1 ]
  [[ "$output" == *"warning: 8 mesh files not found (32 shapes kept as references): '../Utilities/URDF_Models/meshes_iiwa/link_0.stl', '../Utilities/URDF_Models/meshes_iiwa/link_1.stl', '../Utilities/URDF_Models/meshes_iiwa/link_2.stl' and 5 more; --package-path DIR (package://) or the URDF's directory (a relative name)"* ]]
  run -0 urdf2robot --summary "$TOP/tests/data/example-robot-data/robots/panda_description/urdf/panda.urdf"
  [ "$(grep -c 'not found' <<< "$output")" -eq 1 ]
  [[ "$output" == *"warning: 19 mesh files not found (20 shapes kept as references): 'package://example-robot-data/robots/panda_description/meshes/visual/link0.dae', 'package://example-robot-data/robots/panda_description/meshes/collision/link0.stl', 'package://example-robot-data/robots/panda_description/meshes/visual/link1.dae' and 16 more; --package-path DIR"* ]]
  # found there: those its files are missing from (the visual DAEs but a finger's) only
  run -0 urdf2robot --summary --package-path "$TOP/tests/data" "$TOP/tests/data/example-robot-data/robots/panda_description/urdf/panda.urdf"
  [ "$(grep -c 'not found' <<< "$output")" -eq 1 ]
  [[ "$output" == *"warning: 9 mesh files not found (9 shapes kept as references): 'package://example-robot-data/robots/panda_description/meshes/visual/link0.dae',"* ]]
}

@test "spart-draw says in one line when a link has nothing to draw, its meshes not found; a link drawn by its other shapes is not a warning" {
  cd "$BATS_TEST_TMPDIR"
  local inertial='<inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>'
  # link a: a visual mesh not found beside a collision box (drawn: the box); link b: a mesh only
  cat > m.urdf <<URDF
<robot name="m"><link name="a">$inertial<visual><geometry><mesh filename="package://x/a.stl"/></geometry></visual>
<collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
<link name="b">$inertial<visual><geometry><mesh filename="b.obj"/></geometry></visual>
<collision><geometry><mesh filename="b.obj"/></geometry></collision></link>
<joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/><origin xyz="0 0 0.5"/>
<limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>
URDF
  run -0 --separate-stderr spart-draw -m m.urdf <<< '{"qm": [0], "t": 0}'$'\n''{"qm": [1], "t": 1}'
  [ "$stderr" = "spart-draw: warning: 2 mesh files not found (3 shapes not drawn): 'package://x/a.stl', 'b.obj'; ROS_PACKAGE_PATH=DIR (package://) or the URDF's directory (a relative name)" ]
  printf '%s\n' "$output" > m.svg
  xmllint --noout m.svg
  # link b drawn by a box of its own: no line
  sed 's|<collision><geometry><mesh filename="b.obj"/>|<collision><geometry><box size="0.1 0.1 0.1"/>|' m.urdf > m2.urdf
  run -0 --separate-stderr spart-draw -m m2.urdf <<< '{"qm": [0]}'
  [ -z "$stderr" ]
}

@test "spart_shape_mesh and spart_shape_hull give a program a mesh's triangles and hull in its frame, its scale applied: the cut cube scaled 2 0.5 1 has volume 1 by its signed tetrahedra, 98 vertices, 8 hull corners" {
  cd "$BATS_TEST_TMPDIR"
  mesh fine stl fine.stl
  cat > s.urdf <<'URDF'
<robot name="s"><link name="a"><visual><geometry><mesh filename="fine.stl" scale="2 0.5 1"/></geometry></visual></link></robot>
URDF
  cat > m.c <<'C'
#include <stdio.h>
#include "spart.h"
int main(int argc, char **argv) {
  spart_err err;
  spart_model *m = argc > 1 ? spart_model_load(argv[1], &err) : NULL;
  const double *v, *h;
  const int *t;
  int nv, nt, nh;
  double vol = 0;
  if (!m) {
    return 1;
  }
  nt = spart_shape_mesh(m, 0, &v, &nv, &t);
  nh = spart_shape_hull(m, 0, &h);
  for (int k = 0; k < nt; k++) { /* the signed volume of (0, a, b, c) */
    const double *a = v + 3 * t[3 * k], *b = v + 3 * t[3 * k + 1], *c = v + 3 * t[3 * k + 2];
    vol += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
            a[2] * (b[0] * c[1] - b[1] * c[0])) / 6;
  }
  printf("%d %d %d %.15g %g %g %g\n", nv, nt, nh, vol, h[0], h[1], h[2]);
  spart_model_free(m);
  return 0;
}
C
  # the library of the build under test: build/, or make sanitize's build/asan/ (its commands'
  # folder's parent), linked with the sanitizers' runtime then
  local lib="$TOP/build/libspart.a" san=""
  if [ -n "${SPART_BIN:-}" ] && [ -f "$SPART_BIN/../libspart.a" ]; then
    lib="$SPART_BIN/../libspart.a"
  fi
  ! sanitized urdf2robot libasan || san="-fsanitize=address,undefined"
  cc -std=c11 -Wall -Wextra -Werror $san -I"$TOP/lib" -o m m.c "$lib" \
    -lcjson -lglpk $(pkg-config --libs libxml-2.0 assimp) -lm -lpthread
  run -0 ./m s.urdf
  [ "$output" = "98 192 8 1 -1 -0.25 -0.5" ]
}
