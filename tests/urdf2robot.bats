#!/usr/bin/env bats
# urdf2robot: URDF (or model JSON) in, SPART's robot structure out.
# The reference files tests/reference/<model>-s?.json were computed by the SPART toolkit itself
# (MATLAB urdf2robot and Kinematics) on the models in models/.

bats_require_minimum_version 1.5.0
load helper

# write stdin to $BATS_TEST_TMPDIR/NAME and print the path: f=$(urdf NAME <<'EOF' ... EOF)
urdf() {
  cat > "$BATS_TEST_TMPDIR/$1"
  printf '%s\n' "$BATS_TEST_TMPDIR/$1"
}

# check a Python expression over the model JSON d (and helpers close, T, R, p): check FILE EXPR
check() {
  python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def close(a, b, tol=1e-12):
    if isinstance(a, list):
        return len(a) == len(b) and all(close(x, y, tol) for x, y in zip(a, b))
    return abs(a - b) <= tol
def R(T): return [row[:3] for row in T[:3]]
def p(T): return [row[3] for row in T[:3]]
if not eval("(" + sys.argv[2] + ")"):
    sys.exit("failed: %s" % sys.argv[2])
PY
}

# run urdf2robot on FILE and expect exit 1, no output and exactly the stderr line MESSAGE
bad() {
  run --separate-stderr urdf2robot "$1"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "$2" ]
}

# run COMMAND... measuring it: sets status, output, stderr as run does, ms (wall time) and rss
# (peak resident memory, KB)
bounded() {
  python3 - "$BATS_TEST_TMPDIR" "$@" <<'PY'
import resource, subprocess, sys, time
tmp, cmd = sys.argv[1], sys.argv[2:]
t = time.time()
p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
t = time.time() - t
open(tmp + "/b.out", "wb").write(p.stdout)
open(tmp + "/b.err", "wb").write(p.stderr)
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
open(tmp + "/b.usage", "w").write("%d %d %d\n" % (p.returncode, t * 1000, rss))
PY
  read -r status ms rss < "$BATS_TEST_TMPDIR/b.usage"
  output=$(cat "$BATS_TEST_TMPDIR/b.out")
  stderr=$(cat "$BATS_TEST_TMPDIR/b.err")
  echo "# $*: exit $status, $ms ms, $rss KB"
}

# two_links with a sed script applied, as $BATS_TEST_TMPDIR/NAME; prints the path
variant() {
  two_links > /dev/null
  sed "$2" "$BATS_TEST_TMPDIR/two.urdf" > "$BATS_TEST_TMPDIR/$1"
  printf '%s\n' "$BATS_TEST_TMPDIR/$1"
}

# a valid two-link URDF with a revolute joint, to derive broken variants from
two_links() {
  urdf "${1:-two.urdf}" <<'EOF'
<?xml version="1.0"?>
<robot name="two">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="revolute">
    <parent link="a"/>
    <child link="b"/>
    <origin xyz="0 0 1" rpy="0 0 0"/>
    <axis xyz="0 0 1"/>
  </joint>
</robot>
EOF
}


# --- the bundled models against SPART's own output ---

@test "every bundled URDF gives SPART's n_q, n_links_joints and link, joint and q keys" {
  for model in "$MODELS"/*.urdf; do
    name=$(basename "$model" .urdf)
    [ -f "$REF/$name-s1.json" ] || continue
    urdf2robot "$model" > "$BATS_TEST_TMPDIR/$name.json"
    python3 - "$BATS_TEST_TMPDIR/$name.json" "$REF/$name-s1.json" <<'PY'
import json, sys
got, ref = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
for key in ("n_q", "n_links_joints", "keys"):
    if got[key] != ref[key]:
        sys.exit("%s: %s differs: %r != %r" % (sys.argv[1], key, got[key], ref[key]))
PY
  done
}

@test "link and joint transforms reproduce SPART's kinematics at every reference state" {
  for ref in "$REF"/*-s[0-9].json; do
    name=$(basename "$ref" .json)
    name=${name%-s*}
    urdf2robot "$MODELS/$name.urdf" > "$BATS_TEST_TMPDIR/$name.json"
    python3 "$BATS_TEST_DIRNAME/urdf2robot_fk.py" "$BATS_TEST_TMPDIR/$name.json" "$ref" 1e-12
  done
}

@test "every bundled URDF parses, and its model JSON reads back to the same bytes" {
  for model in "$MODELS"/*.urdf; do
    name=$(basename "$model" .urdf)
    urdf2robot "$model" > "$BATS_TEST_TMPDIR/$name.json"
    urdf2robot "$BATS_TEST_TMPDIR/$name.json" > "$BATS_TEST_TMPDIR/$name.again.json"
    cmp "$BATS_TEST_TMPDIR/$name.json" "$BATS_TEST_TMPDIR/$name.again.json"
    urdf2robot - < "$BATS_TEST_TMPDIR/$name.json" | cmp - "$BATS_TEST_TMPDIR/$name.json"
  done
}

@test "numbers are written so that they read back to the same double" {
  f=$(urdf exact.urdf <<'EOF'
<robot name="exact">
  <link name="a"><inertial><origin xyz="0.2775 0 0.07"/><mass value="0.1"/>
    <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
  <link name="b"/>
  <joint name="j" type="fixed">
    <parent link="a"/><child link="b"/><origin xyz="0.36 0 0.1525" rpy="0 0.1 0"/>
  </joint>
</robot>
EOF
  )
  urdf2robot "$f" > "$BATS_TEST_TMPDIR/x.json"
  # cJSON_Print would write 0.0825 for both, which is not the same double
  check "$BATS_TEST_TMPDIR/x.json" 'p(d["joints"][0]["T"]) == [0.36 - 0.2775, 0, 0.1525 - 0.07]'
  check "$BATS_TEST_TMPDIR/x.json" 'd["base_link"]["mass"] == 0.1'
  check "$BATS_TEST_TMPDIR/x.json" 'R(d["joints"][0]["T"])[0][2] == __import__("math").sin(0.1)'
}

@test "the model JSON has the documented keys in a fixed order and SPART's connectivity maps" {
  urdf2robot "$MODELS/ManiSat_2Arm_2_2_Fixed.urdf" > "$BATS_TEST_TMPDIR/m.json"
  check "$BATS_TEST_TMPDIR/m.json" 'list(d) == ["version", "name", "n_q", "n_links_joints",
    "base_link", "links", "joints", "con", "keys"] and d["version"] == 1'
  check "$BATS_TEST_TMPDIR/m.json" 'list(d["links"][0]) == ["id", "name", "parent_joint", "T",
    "mass", "inertia"] and list(d["joints"][0]) == ["id", "name", "type", "q_id", "parent_link",
    "child_link", "axis", "T"]'
  # tree: base -> 1 (LFA) -> 2 (LA) -> 3 (LB); base -> 4 (LFC) -> 5 (LC) -> 6 (LD)
  check "$BATS_TEST_TMPDIR/m.json" '[j["parent_link"] for j in d["joints"]] == [0, 1, 2, 0, 4, 5]'
  check "$BATS_TEST_TMPDIR/m.json" 'd["con"]["child_base"] == [1, 0, 0, 1, 0, 0]'
  check "$BATS_TEST_TMPDIR/m.json" 'd["con"]["branch"][2] == [1, 1, 1, 0, 0, 0] and
    d["con"]["branch"][5] == [0, 0, 0, 1, 1, 1]'
  check "$BATS_TEST_TMPDIR/m.json" 'd["con"]["child"][1] == [1, 0, 0, 0, 0, 0] and
    d["con"]["child"][3] == [0] * 6'
  check "$BATS_TEST_TMPDIR/m.json" '[j["q_id"] for j in d["joints"]] == [-1, 1, 2, -1, 3, 4]'
}


# --- URDF semantics ---

@test "a branched tree is numbered depth-first with children in joint file order" {
  f=$(urdf tree.urdf <<'EOF'
<robot name="tree">
  <link name="z_leaf"/>
  <link name="y_mid"/>
  <link name="base"/>
  <link name="x_second"/>
  <link name="w_first"/>
  <joint name="to_second" type="fixed"><parent link="base"/><child link="x_second"/></joint>
  <joint name="to_leaf" type="prismatic"><parent link="y_mid"/><child link="z_leaf"/></joint>
  <joint name="to_first" type="revolute"><parent link="base"/><child link="w_first"/></joint>
  <joint name="to_mid" type="continuous"><parent link="x_second"/><child link="y_mid"/></joint>
</robot>
EOF
  )
  urdf2robot "$f" > "$BATS_TEST_TMPDIR/t.json"
  check "$BATS_TEST_TMPDIR/t.json" 'd["keys"]["link_id"] == {"base": 0, "x_second": 1,
    "y_mid": 2, "z_leaf": 3, "w_first": 4}'
  check "$BATS_TEST_TMPDIR/t.json" 'list(d["keys"]["link_id"]) == ["base", "x_second", "y_mid",
    "z_leaf", "w_first"]'
  check "$BATS_TEST_TMPDIR/t.json" '[j["name"] for j in d["joints"]] == ["to_second", "to_mid",
    "to_leaf", "to_first"]'
  check "$BATS_TEST_TMPDIR/t.json" '[j["parent_link"] for j in d["joints"]] == [0, 1, 2, 0]'
  check "$BATS_TEST_TMPDIR/t.json" '[j["type"] for j in d["joints"]] == [0, 1, 2, 1]'
  check "$BATS_TEST_TMPDIR/t.json" 'd["keys"]["q_id"] == {"to_mid": 1, "to_leaf": 2,
    "to_first": 3} and d["n_q"] == 3'
}

@test "missing origin, axis, xyz, rpy and inertial take the URDF defaults" {
  f=$(urdf defaults.urdf <<'EOF'
<robot name="defaults">
  <link name="a"><inertial><mass value="2"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
  <link name="b"/>
  <link name="c"><inertial><origin xyz="1 2 3"/><mass value="0"/>
    <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
  <link name="d"/>
  <joint name="j1" type="revolute"><parent link="a"/><child link="b"/></joint>
  <joint name="j2" type="fixed"><parent link="b"/><child link="c"/></joint>
  <joint name="j3" type="prismatic"><parent link="c"/><child link="d"/><origin rpy="0 0 0"/></joint>
</robot>
EOF
  )
  urdf2robot "$f" > "$BATS_TEST_TMPDIR/d.json"
  check "$BATS_TEST_TMPDIR/d.json" 'd["base_link"]["mass"] == 2 and
    d["base_link"]["inertia"] == [[1, 0, 0], [0, 0, 0], [0, 0, 0]]'
  check "$BATS_TEST_TMPDIR/d.json" 'd["links"][0]["mass"] == 0 and
    d["links"][0]["inertia"] == [[0] * 3] * 3'
  check "$BATS_TEST_TMPDIR/d.json" 'd["links"][0]["T"] == [[1, 0, 0, 0], [0, 1, 0, 0],
    [0, 0, 1, 0], [0, 0, 0, 1]] and d["joints"][0]["T"] == d["links"][0]["T"]'
  check "$BATS_TEST_TMPDIR/d.json" 'd["links"][1]["T"] == [[1, 0, 0, 1], [0, 1, 0, 2],
    [0, 0, 1, 3], [0, 0, 0, 1]] and d["links"][1]["mass"] == 0'
  check "$BATS_TEST_TMPDIR/d.json" '[j["axis"] for j in d["joints"]] == [[1, 0, 0], [0, 0, 0],
    [1, 0, 0]]'
  # joint 3 sits at the origin of link c, which is (1 2 3) from link c's CoM frame
  check "$BATS_TEST_TMPDIR/d.json" 'p(d["joints"][2]["T"]) == [-1, -2, -3]'
}

@test "axes are normalised and a fixed joint keeps the axis it was given, as SPART does" {
  f=$(urdf axes.urdf <<'EOF'
<robot name="axes">
  <link name="a"/>
  <link name="b"/>
  <link name="c"/>
  <joint name="j1" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 3 4"/></joint>
  <joint name="j2" type="fixed"><parent link="b"/><child link="c"/><axis xyz="0 0 2"/></joint>
</robot>
EOF
  )
  urdf2robot "$f" > "$BATS_TEST_TMPDIR/a.json"
  check "$BATS_TEST_TMPDIR/a.json" 'close(d["joints"][0]["axis"], [0, 0.6, 0.8])'
  check "$BATS_TEST_TMPDIR/a.json" 'd["joints"][1]["axis"] == [0, 0, 1] and
    d["joints"][1]["q_id"] == -1'
}

@test "rpy of an inertial origin turns the link frame and the frames of its child joints" {
  f=$(urdf rpy.urdf <<'EOF'
<robot name="rpy">
  <link name="a">
    <inertial><origin xyz="0.5 0 0" rpy="0 0 1.5707963267948966"/><mass value="1"/>
      <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial>
  </link>
  <link name="b">
    <inertial><origin xyz="0 0 0" rpy="1.5707963267948966 0 0"/><mass value="1"/>
      <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial>
  </link>
  <joint name="j" type="revolute">
    <parent link="a"/><child link="b"/>
    <origin xyz="1 0 0" rpy="0 0 0"/>
  </joint>
</robot>
EOF
  )
  urdf2robot "$f" > "$BATS_TEST_TMPDIR/r.json"
  # link b: Rx(pi/2)
  check "$BATS_TEST_TMPDIR/r.json" 'close(R(d["links"][0]["T"]),
    [[1, 0, 0], [0, 0, -1], [0, 1, 0]])'
  # joint: inverse of (Rz(pi/2), (0.5 0 0)) times (1, (1 0 0)): rotation Rz(-pi/2), p = (0, -0.5, 0)
  check "$BATS_TEST_TMPDIR/r.json" 'close(R(d["joints"][0]["T"]),
    [[0, 1, 0], [-1, 0, 0], [0, 0, 1]])'
  check "$BATS_TEST_TMPDIR/r.json" 'close(p(d["joints"][0]["T"]), [0, -0.5, 0])'
}

@test "an inertia is copied as given, as a full symmetric matrix" {
  f=$(urdf inertia.urdf <<'EOF'
<robot name="i">
  <link name="a">
    <inertial>
      <mass value="3"/>
      <inertia ixx="1" iyy="2" izz="2.5" ixy="0.1" ixz="-0.2" iyz="0.3"/>
    </inertial>
  </link>
</robot>
EOF
  )
  urdf2robot "$f" > "$BATS_TEST_TMPDIR/i.json"
  check "$BATS_TEST_TMPDIR/i.json" 'd["base_link"]["inertia"] == [[1, 0.1, -0.2], [0.1, 2, 0.3],
    [-0.2, 0.3, 2.5]] and d["n_links_joints"] == 0 and d["links"] == []'
}

@test "only direct children of robot count as links and joints" {
  f=$(urdf nested.urdf <<'EOF'
<robot name="n">
  <link name="a"/>
  <gazebo><link name="ghost"/></gazebo>
  <transmission name="t"><joint name="ghost_joint"/></transmission>
</robot>
EOF
  )
  urdf2robot "$f" > "$BATS_TEST_TMPDIR/n.json"
  check "$BATS_TEST_TMPDIR/n.json" 'd["n_links_joints"] == 0 and d["keys"]["link_id"] == {"a": 0}'
}


# --- command line ---

@test "--help prints the usage on stdout and exits 0" {
  run --separate-stderr urdf2robot --help
  [ "$status" -eq 0 ]
  [[ "$output" == "Usage: urdf2robot "* ]]
  [[ "$output" == *"--summary"* ]]
  [ -z "$stderr" ]
  run --separate-stderr urdf2robot -h
  [ "$status" -eq 0 ]
}

@test "--version prints the program name and version" {
  run --separate-stderr urdf2robot --version
  [ "$status" -eq 0 ]
  [[ "$output" =~ ^urdf2robot\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
}

@test "a bad option is a usage error with exit 2 and a hint" {
  run --separate-stderr urdf2robot --frobnicate "$MODELS/SC_3DoF.urdf"
  [ "$status" -eq 2 ]
  [ -z "$output" ]
  [ "${stderr_lines[0]}" = "urdf2robot: unknown option '--frobnicate'" ]
  [ "${stderr_lines[1]}" = "Try 'urdf2robot --help'." ]
  run --separate-stderr urdf2robot -x
  [ "$status" -eq 2 ]
  [ "${stderr_lines[0]}" = "urdf2robot: unknown option '-x'" ]
  run --separate-stderr urdf2robot -o
  [ "$status" -eq 2 ]
  [ "${stderr_lines[0]}" = "urdf2robot: option '-o' needs a value" ]
  run --separate-stderr urdf2robot a.urdf b.urdf
  [ "$status" -eq 2 ]
  [ "${stderr_lines[1]}" = "Try 'urdf2robot --help'." ]
}

@test "standard input is read without FILE or with -, and named <stdin> in messages" {
  run --separate-stderr urdf2robot < "$MODELS/SC_3DoF.urdf"
  [ "$status" -eq 0 ]
  [[ "$output" == *'"n_links_joints":	5'* ]]
  f=$(two_links)
  sed 's/0 0 1"\/>/0 0 0"\/>/' "$f" > "$BATS_TEST_TMPDIR/zero.urdf"
  run --separate-stderr urdf2robot - < "$BATS_TEST_TMPDIR/zero.urdf"
  [ "$status" -eq 1 ]
  [ "$stderr" = "urdf2robot: <stdin>:9: joint 'j': zero axis" ]
}

@test "-o names the output format (json, summary, dot), as in every command; -s and --dot are the same" {
  cd "$BATS_TEST_TMPDIR" # (where an older urdf2robot would write its -o FILE)
  f="$MODELS/SC_3DoF.urdf"
  run -0 urdf2robot -o json "$f"
  [ "$output" = "$(urdf2robot "$f")" ]
  [[ "$output" == "{"* ]]
  run -0 urdf2robot --output summary "$f"
  [ "$output" = "$(urdf2robot -s "$f")" ]
  [[ "$output" == "robot 'Chaser'"* ]]
  run -0 urdf2robot -o dot "$f"
  [ "$output" = "$(urdf2robot --dot "$f")" ]
  [[ "$output" == "digraph "* ]]
  # the same format twice is that format; two formats are a usage error
  run -0 urdf2robot -o summary -s "$f"
  [[ "$output" == "robot 'Chaser'"* ]]
  run --separate-stderr urdf2robot -o json --dot "$f"
  [ "$status" -eq 2 ] && [ -z "$output" ]
  [ "${stderr_lines[0]}" = "urdf2robot: --output json and --dot may not be combined" ]
  run --separate-stderr urdf2robot -s -o dot "$f"
  [ "$status" -eq 2 ]
  [ "${stderr_lines[0]}" = "urdf2robot: --summary and --output dot may not be combined" ]
}

@test "-o FILE (the output file before) is refused with exit 2, saying to redirect, and writes no file" {
  cd "$BATS_TEST_TMPDIR"
  run --separate-stderr urdf2robot -o arm.json "$MODELS/SC_3DoF.urdf"
  [ "$status" -eq 2 ] && [ -z "$output" ]
  [ "${stderr_lines[0]}" = "urdf2robot: --output: expected json, summary or dot, got 'arm.json': -o is the format, not a file; redirect the output instead (urdf2robot ... > arm.json)" ]
  [ "${stderr_lines[1]}" = "Try 'urdf2robot --help'." ]
  [ ! -e arm.json ]
  run --separate-stderr urdf2robot --output=out.json "$MODELS/SC_3DoF.urdf"
  [ "$status" -eq 2 ]
  [[ "${stderr_lines[0]}" == *"got 'out.json'"*"(urdf2robot ... > out.json)" ]]
  [ ! -e out.json ]
}

@test "a missing input file is bad input (exit 1)" {
  run --separate-stderr urdf2robot "$BATS_TEST_TMPDIR/nope.urdf"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "urdf2robot: cannot open $BATS_TEST_TMPDIR/nope.urdf: No such file or directory" ]
}

@test "a write error (disk full) is reported once and exits 3, for the model, the summary and --help" {
  for args in "$MODELS/2_iiwa_base.urdf" "-s $MODELS/2_iiwa_base.urdf" "-o dot $MODELS/2_iiwa_base.urdf" "--help" "--version"; do
    # shellcheck disable=SC2086
    run --separate-stderr bash -c 'urdf2robot "$@" > /dev/full' _ $args
    [ "$status" -eq 3 ]
    [ "$stderr" = "urdf2robot: write error: No space left on device" ]
  done
}

@test "a closed output pipe ends urdf2robot quietly" {
  # 5 MB of model JSON: more than a pipe holds, so urdf2robot is still writing when head leaves
  python3 - "$BATS_TEST_TMPDIR/chain.urdf" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write('<robot name="chain">\n<link name="l0"/>\n')
    for i in range(1, 10001):
        f.write('<link name="l%d"/><joint name="j%d" type="revolute"><parent link="l%d"/>'
                '<child link="l%d"/></joint>\n' % (i, i, i - 1, i))
    f.write('</robot>\n')
PY
  run --separate-stderr bash -c 'urdf2robot "$1" | head -n 1; echo "${PIPESTATUS[0]}" >&2' _ \
    "$BATS_TEST_TMPDIR/chain.urdf"
  [ "$status" -eq 0 ]
  [ "$output" = "{" ]
  # killed by SIGPIPE (128 + 13), silently
  [ "$stderr" = 141 ]
  # where SIGPIPE is ignored, the write fails with EPIPE: exit 3, silently too
  run --separate-stderr bash -c 'trap "" PIPE; urdf2robot "$1" | head -n 1; echo "${PIPESTATUS[0]}" >&2' _ \
    "$BATS_TEST_TMPDIR/chain.urdf"
  [ "$output" = "{" ]
  [ "$stderr" = 3 ]
}

@test "--summary draws the tree with masses, totals and warnings" {
  f=$(urdf summary.urdf <<'EOF'
<robot name="sum">
  <link name="body"><inertial><mass value="10"/>
    <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="arm"><inertial><mass value="2.5"/>
    <inertia ixx="1" iyy="1" izz="3" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="tip"/>
  <joint name="shoulder" type="revolute">
    <parent link="body"/><child link="arm"/><axis xyz="0 0 1"/>
  </joint>
  <joint name="tool" type="fixed"><parent link="arm"/><child link="tip"/></joint>
</robot>
EOF
  )
  run --separate-stderr urdf2robot --summary "$f"
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "robot 'sum'" ]
  [ "${lines[1]}" = "0 body  mass 10" ]
  [ "${lines[2]}" = "  1 arm  mass 2.5  <- joint 1 shoulder revolute axis 0 0 1 q 1" ]
  [ "${lines[3]}" = "    2 tip  mass 0  <- joint 2 tool fixed" ]
  [[ "$output" == *$'\ntotal mass 12.5\nn_q 1\nn_links_joints 2\n'* ]]
  # a massless tool frame on a fixed joint is normal
  [[ "$output" != *"massless"* ]]
  [[ "$output" == *"warning: link 1 'arm': principal inertias 1 1 3 violate the triangle"* ]]
  [[ "$output" != *"link 0 'body':"* ]]
}

@test "--summary also reads a model JSON" {
  urdf2robot "$MODELS/SC_3DoF.urdf" > "$BATS_TEST_TMPDIR/sc.json"
  run --separate-stderr urdf2robot -s "$BATS_TEST_TMPDIR/sc.json"
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "robot 'Chaser'" ]
  [[ "$output" == *"total mass 130"* ]]
  [[ "$output" == *"5 Link_EE  mass 0  <- joint 5 Joint_EE fixed"* ]]
  [[ "$output" != *"warning"* ]]
}

@test "--summary warns about a massless link that moves, not about sensor and tool frames" {
  f=$(urdf frames.urdf <<'EOF'
<robot name="frames">
  <link name="base"><inertial><mass value="10"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <link name="arm"><inertial><origin xyz="0.5 0 0"/><mass value="2"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="camera"/>
  <link name="tool"/>
  <link name="tcp"/>
  <link name="slider"/>
  <link name="flywheel"><inertial><mass value="0"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="pusher"><inertial><mass value="0"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="wrist"/>
  <link name="hand"><inertial><mass value="1"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="dial"><inertial><mass value="0"/>
    <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="arm"/></joint>
  <joint name="cam" type="fixed"><parent link="arm"/><child link="camera"/></joint>
  <joint name="flange" type="fixed"><parent link="arm"/><child link="tool"/></joint>
  <joint name="tcp_frame" type="fixed"><parent link="tool"/><child link="tcp"/></joint>
  <joint name="slide" type="prismatic"><parent link="arm"/><child link="slider"/></joint>
  <joint name="spin" type="continuous"><parent link="arm"/><child link="flywheel"/></joint>
  <joint name="push" type="prismatic"><parent link="arm"/><child link="pusher"/></joint>
  <joint name="wrist_1" type="revolute"><parent link="arm"/><child link="wrist"/></joint>
  <joint name="wrist_2" type="revolute"><parent link="wrist"/><child link="hand"/></joint>
  <joint name="turn" type="continuous"><parent link="arm"/><child link="dial"/></joint>
</robot>
EOF
  )
  run --separate-stderr urdf2robot --summary "$f"
  [ "$status" -eq 0 ]
  # the camera, tool and tcp frames are fixed; the flywheel has inertia to turn; the wrist carries
  # the hand; the slider, the pusher (inertia, but no mass to push) and the dial carry nothing
  warnings=$(printf '%s\n' "$output" | grep '^warning')
  [ "$warnings" = "warning: link 5 'slider' is massless and moves: joint 5 'slide' carries no mass
warning: link 7 'pusher' is massless and moves: joint 7 'push' carries no mass
warning: link 10 'dial' is massless and moves: joint 10 'turn' carries no mass and no inertia" ]
  # a robot with no mass at all says so once
  run --separate-stderr urdf2robot --summary "$(two_links)"
  [ "$(printf '%s\n' "$output" | grep '^warning')" = "warning: every link is massless" ]
}

# a gripper whose right finger mimics the left one (MIMIC: the <mimic> element, or nothing)
gripper() {
  sed "s|@MIMIC@|$1|" > "$BATS_TEST_TMPDIR/gripper.urdf" <<'EOF'
<robot name="gripper">
  <link name="palm"><inertial><mass value="1"/>
    <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <link name="left"><inertial><mass value="0.1"/>
    <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial></link>
  <link name="right"><inertial><mass value="0.1"/>
    <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial></link>
  <joint name="finger_l" type="prismatic"><parent link="palm"/><child link="left"/>
    <axis xyz="0 1 0"/><limit lower="0" upper="0.04" effort="10" velocity="1"/></joint>
  <joint name="finger_r" type="prismatic"><parent link="palm"/><child link="right"/>
    <axis xyz="0 -1 0"/><limit lower="0" upper="0.04" effort="10" velocity="1"/>
    @MIMIC@
  </joint>
</robot>
EOF
  printf '%s\n' "$BATS_TEST_TMPDIR/gripper.urdf"
}

@test "--summary names the joints with <mimic>, free without --mimic, as SPART and KDL" {
  f=$(gripper '<mimic joint="finger_l" multiplier="-0.5" offset="0.01"/>')
  run --separate-stderr urdf2robot --summary "$f"
  [ "$status" -eq 0 ]
  tree="  2 right  mass 0.1  <- joint 2 finger_r prismatic axis 0 -1 0 q 2 limits 0 0.04 effort 10"
  tree="$tree velocity 1"
  [ "${lines[3]}" = "$tree mimics finger_l" ]
  note="mimic: joint 2 'finger_r' follows joint 'finger_l' (-0.5 x + 0.01), free without --mimic"
  [[ "$output" == *$'\n'"$note"* ]]
  # still two degrees of freedom
  [ "${lines[5]}" = "n_q 2" ]
  # the model JSON keeps it, and --summary reads it back from there
  urdf2robot "$f" > "$BATS_TEST_TMPDIR/g.json"
  check "$BATS_TEST_TMPDIR/g.json" 'd["joints"][1]["mimic"] == {"joint": "finger_l",
    "multiplier": -0.5, "offset": 0.01} and "mimic" not in d["joints"][0] and d["n_q"] == 2'
  run --separate-stderr urdf2robot --summary "$BATS_TEST_TMPDIR/g.json"
  [[ "$output" == *"$tree mimics finger_l"*"$note"* ]]
  urdf2robot "$BATS_TEST_TMPDIR/g.json" | cmp - "$BATS_TEST_TMPDIR/g.json"
  # multiplier 1 and offset 0 by default, as URDF says
  f=$(gripper '<mimic joint="finger_l"/>')
  urdf2robot "$f" > "$BATS_TEST_TMPDIR/g.json"
  check "$BATS_TEST_TMPDIR/g.json" 'd["joints"][1]["mimic"] == {"joint": "finger_l",
    "multiplier": 1, "offset": 0}'
  # no <mimic>, no "mimic" and no note
  f=$(gripper '')
  urdf2robot "$f" > "$BATS_TEST_TMPDIR/g.json"
  check "$BATS_TEST_TMPDIR/g.json" 'all("mimic" not in j for j in d["joints"])'
  run --separate-stderr urdf2robot --summary "$f"
  [[ "$output" != *mimic* ]]
}

@test "a <mimic> or a model JSON mimic that names no other joint, or a bad number, is refused" {
  f=$(gripper '<mimic multiplier="2"/>')
  bad "$f" "urdf2robot: $f:12: joint 'finger_r': <mimic> without joint"
  f=$(gripper '<mimic joint="finger_x"/>')
  bad "$f" "urdf2robot: $f:12: joint 'finger_r': mimics unknown joint 'finger_x'"
  f=$(gripper '<mimic joint="finger_r"/>')
  bad "$f" "urdf2robot: $f:12: joint 'finger_r': mimics itself"
  f=$(gripper '<mimic joint="finger_l" multiplier="-1x"/>')
  bad "$f" "urdf2robot: $f:12: joint 'finger_r': mimic multiplier: expected a number, got '-1x'"
  f=$(gripper '<mimic joint="finger_l" offset="NaN"/>')
  bad "$f" "urdf2robot: $f:12: joint 'finger_r': mimic offset: expected a finite number, got 'NaN'"
  # the same in a model JSON
  f=$(gripper '<mimic joint="finger_l"/>')
  urdf2robot "$f" > "$BATS_TEST_TMPDIR/g.json"
  edit() {
    python3 - "$BATS_TEST_TMPDIR/g.json" "$BATS_TEST_TMPDIR/e.json" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
    printf '%s\n' "$BATS_TEST_TMPDIR/e.json"
  }
  e=$(edit 'd["joints"][1]["mimic"]["joint"] = "finger_x"')
  bad "$e" "urdf2robot: $e:1: joint 'finger_r': mimics unknown joint 'finger_x'"
  e=$(edit 'd["joints"][1]["mimic"]["joint"] = "finger_r"')
  bad "$e" "urdf2robot: $e:1: joint 'finger_r': mimics itself"
  e=$(edit 'd["joints"][1]["mimic"] = "finger_l"')
  bad "$e" "urdf2robot: $e:1: joints[1].mimic: expected an object, got a string"
  e=$(edit 'del d["joints"][1]["mimic"]["joint"]')
  bad "$e" "urdf2robot: $e:1: joints[1].mimic.joint: expected a joint name, got nothing"
  e=$(edit 'd["joints"][1]["mimic"]["multiplier"] = "2"')
  bad "$e" "urdf2robot: $e:1: joints[1].mimic.multiplier: expected a finite number, got a string"
  # multiplier and offset may be left out, as in URDF
  e=$(edit 'del d["joints"][1]["mimic"]["multiplier"]; del d["joints"][1]["mimic"]["offset"]')
  urdf2robot "$e" | cmp - "$BATS_TEST_TMPDIR/g.json"
}

@test "--summary prints names with control characters escaped as in C" {
  f=$(urdf esc.urdf <<'EOF'
<robot name="r&#127;[31m">
  <link name="a&#10;b"/>
  <link name="c&#9;d\e"><inertial><mass value="1"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="3"/></inertial></link>
  <joint name="j&#13;&#127;1" type="revolute"><parent link="a&#10;b"/><child link="c&#9;d\e"/></joint>
</robot>
EOF
  )
  run --separate-stderr urdf2robot --summary "$f"
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "robot 'r\x7f[31m'" ]
  [ "${lines[1]}" = '0 a\nb  mass 0' ]
  [ "${lines[2]}" = '  1 c\td\\e  mass 1  <- joint 1 j\r\x7f1 revolute axis 1 0 0 q 1' ]
  [ "${lines[3]}" = "total mass 1" ]
  [ "${lines[6]}" = \
    "warning: link 1 'c\\td\\\\e': principal inertias 1 1 3 violate the triangle inequality" ]
  # no control character but the line ends, in the tree and in warnings
  [[ "$output" != *[$'\t\r\e\x7f']* ]]
  # from a model JSON, any control character
  urdf2robot "$f" | python3 -c '
import json, sys
d = json.load(sys.stdin)
d["name"] = "r\x1b[31m\x01"
d["joints"][0]["name"] = "j\n"
print(json.dumps(d))' > "$BATS_TEST_TMPDIR/esc.json"
  run --separate-stderr urdf2robot --summary "$BATS_TEST_TMPDIR/esc.json"
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "robot 'r\x1b[31m\x01'" ]
  [ "${lines[2]}" = '  1 c\td\\e  mass 1  <- joint 1 j\n revolute axis 1 0 0 q 1' ]
}

@test "a 10,000-link chain parses quickly on a small stack" {
  python3 - "$BATS_TEST_TMPDIR/chain.urdf" <<'PY'
import sys
n = 10000
with open(sys.argv[1], "w") as f:
    f.write('<robot name="chain">\n')
    for i in range(n + 1):
        f.write('<link name="l%d"><inertial><origin xyz="0 0 0.05"/><mass value="1"/>'
                '<inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>\n' % i)
    for i in reversed(range(n)):
        f.write('<joint name="j%d" type="revolute"><parent link="l%d"/><child link="l%d"/>'
                '<origin xyz="0 0 0.1"/><axis xyz="0 1 0"/></joint>\n' % (i + 1, i, i + 1))
    f.write('</robot>\n')
PY
  start=$(date +%s%N)
  run --separate-stderr bash -c 'ulimit -s 512 && urdf2robot --summary "$1"' _ \
    "$BATS_TEST_TMPDIR/chain.urdf"
  elapsed=$(( ($(date +%s%N) - start) / 1000000 ))
  [ "$status" -eq 0 ]
  [ "${lines[10002]}" = "total mass 10001" ]
  [ "${lines[10004]}" = "n_links_joints 10000" ]
  [[ "${lines[10001]}" == *"[depth 10000] 10000 l10000  mass 1  <- joint 10000 j10000 revolute"* ]]
  echo "# took $elapsed ms" >&3
  [ "$elapsed" -lt 5000 ]
}

@test "lines past 65535 are reported exactly" {
  {
    echo '<robot name="long">'
    echo '<link name="a"/>'
    yes '<!-- -->' | head -n 70000
    echo '<link name="b"><inertial><mass value="heavy"/></inertial></link>'
    echo '<joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>'
    echo '</robot>'
  } > "$BATS_TEST_TMPDIR/long.urdf"
  bad "$BATS_TEST_TMPDIR/long.urdf" \
    "urdf2robot: $BATS_TEST_TMPDIR/long.urdf:70003: link 'b': mass value: expected a number, got 'heavy'"
}


# --- bad input: one line on stderr, nothing on stdout, exit 1 ---

@test "text that is not XML is refused with libxml2's message and line" {
  f=$(urdf notxml.urdf <<'EOF'
<robot name="r">
  <link name="a">
</robot>
EOF
  )
  bad "$f" "urdf2robot: $f:3: opening and ending tag mismatch: link line 2 and robot"
}

@test "empty input is refused" {
  : > "$BATS_TEST_TMPDIR/empty.urdf"
  bad "$BATS_TEST_TMPDIR/empty.urdf" "urdf2robot: $BATS_TEST_TMPDIR/empty.urdf: empty input"
  run --separate-stderr urdf2robot < /dev/null
  [ "$status" -eq 1 ]
  [ "$stderr" = "urdf2robot: <stdin>: empty input" ]
}

@test "a document without a robot root element is refused" {
  f=$(urdf norobot.urdf <<'EOF'
<?xml version="1.0"?>
<model name="r">
  <link name="a"/>
</model>
EOF
  )
  bad "$f" "urdf2robot: $f:2: no <robot> element"
}

@test "a xacro file is recognised by its elements and its expressions" {
  f=$(urdf arm.urdf.xacro <<'EOF'
<?xml version="1.0"?>
<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <link name="a"/>
  <xacro:property name="length" value="1"/>
</robot>
EOF
  )
  bad "$f" "urdf2robot: $f:4: this is a xacro file: run xacro first"
  f=$(urdf expr.urdf <<'EOF'
<robot name="r">
  <link name="a">
    <inertial><origin xyz="0 0 ${length/2}"/></inertial>
  </link>
</robot>
EOF
  )
  bad "$f" "urdf2robot: $f:3: this is a xacro file: run xacro first"
}

@test "a robot without links is refused" {
  f=$(urdf nolinks.urdf <<'EOF'
<robot name="r">
  <material name="grey"/>
</robot>
EOF
  )
  bad "$f" "urdf2robot: $f:1: no links in <robot>"
}

@test "several root links are refused and named" {
  f=$(urdf roots.urdf <<'EOF'
<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <link name="c"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
</robot>
EOF
  )
  bad "$f" "urdf2robot: $f:4: 2 root links (children of no joint): 'a', 'c'"
}

@test "a robot whose links all have parents has no root link" {
  f=$(urdf noroot.urdf <<'EOF'
<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j1" type="fixed"><parent link="a"/><child link="b"/></joint>
  <joint name="j2" type="fixed"><parent link="b"/><child link="a"/></joint>
</robot>
EOF
  )
  bad "$f" "urdf2robot: $f:1: no root link: every link is the child of a joint (a loop)"
}

@test "a link with two parent joints is a loop" {
  f=$(urdf twoparents.urdf <<'EOF'
<robot name="r">
  <link name="A"/>
  <link name="B"/>
  <link name="C"/>
  <joint name="j0" type="fixed"><parent link="A"/><child link="C"/></joint>
  <joint name="j1" type="fixed"><parent link="A"/><child link="B"/></joint>
  <joint name="j2" type="revolute"><parent link="C"/><child link="B"/></joint>
</robot>
EOF
  )
  bad "$f" "urdf2robot: $f:7: link 'B' has two parent joints 'j1' and 'j2'"
}

@test "joints in a cycle cut off from the root are refused" {
  f=$(urdf cycle.urdf <<'EOF'
<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <link name="c"/>
  <joint name="j1" type="fixed"><parent link="b"/><child link="c"/></joint>
  <joint name="j2" type="fixed"><parent link="c"/><child link="b"/></joint>
</robot>
EOF
  )
  bad "$f" "urdf2robot: $f:5: joint 'j1' is not reachable from the root link 'a' (a loop)"
}

@test "a joint naming an unknown link is refused" {
  f=$(variant u.urdf 's/child link="b"/child link="bee"/')
  bad "$f" "urdf2robot: $f:7: joint 'j': unknown child link 'bee'"
  f=$(variant u.urdf 's/parent link="a"/parent link="ay"/')
  bad "$f" "urdf2robot: $f:6: joint 'j': unknown parent link 'ay'"
}

@test "a joint without a parent or a child is refused" {
  f=$(variant p.urdf '/<parent/d')
  bad "$f" "urdf2robot: $f:5: joint 'j': no parent link"
  f=$(variant c.urdf 's/<child link="b"\/>/<child\/>/')
  bad "$f" "urdf2robot: $f:7: joint 'j': no child link"
}

@test "duplicate link or joint names are refused" {
  f=$(urdf duplinks.urdf <<'EOF'
<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <link name="a"/>
</robot>
EOF
  )
  bad "$f" "urdf2robot: $f:4: two links named 'a'"
  f=$(urdf dupjoints.urdf <<'EOF'
<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <link name="c"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
  <joint name="j" type="fixed"><parent link="a"/><child link="c"/></joint>
</robot>
EOF
  )
  bad "$f" "urdf2robot: $f:6: two joints named 'j'"
}

@test "links and joints without names are refused" {
  f=$(urdf noname.urdf <<'EOF'
<robot name="r">
  <link name="a"/>
  <link/>
</robot>
EOF
  )
  bad "$f" "urdf2robot: $f:3: link without a name"
  f=$(variant nonamej.urdf 's/joint name="j"/joint/')
  bad "$f" "urdf2robot: $f:5: joint without a name"
}

@test "unknown joint types are refused by name" {
  f=$(variant t.urdf 's/type="revolute"/type="foo"/')
  bad "$f" "urdf2robot: $f:5: joint 'j': unknown joint type 'foo'"
  f=$(variant t.urdf 's/ type="revolute"//')
  bad "$f" "urdf2robot: $f:5: joint 'j': no type"
}

@test "a zero axis on a moving joint is refused" {
  f=$(variant z.urdf 's/axis xyz="0 0 1"/axis xyz="0 0 0"/')
  bad "$f" "urdf2robot: $f:9: joint 'j': zero axis"
}

@test "non-numeric, non-finite or miscounted numbers are refused with what was found" {
  f=$(variant n.urdf 's/xyz="0 0 1" rpy/xyz="a b c" rpy/')
  bad "$f" "urdf2robot: $f:8: joint 'j': origin xyz: expected 3 numbers, got 'a b c'"
  f=$(variant n.urdf 's/rpy="0 0 0"/rpy="0 0"/')
  bad "$f" "urdf2robot: $f:8: joint 'j': origin rpy: expected 3 numbers, got '0 0'"
  f=$(variant n.urdf 's/axis xyz="0 0 1"/axis xyz="0 nan 1"/')
  bad "$f" "urdf2robot: $f:9: joint 'j': axis xyz: expected 3 numbers, got '0 nan 1'"
  f=$(variant n.urdf 's/axis xyz="0 0 1"/axis xyz="0 0 1 0"/')
  bad "$f" "urdf2robot: $f:9: joint 'j': axis xyz: expected 3 numbers, got '0 0 1 0'"
  f=$(urdf mass.urdf <<'EOF'
<robot name="r">
  <link name="a">
    <inertial>
      <mass value="1e999"/>
    </inertial>
  </link>
</robot>
EOF
  )
  bad "$f" "urdf2robot: $f:4: link 'a': mass value: expected a finite number, got '1e999'"
  f=$(urdf inertia.urdf <<'EOF'
<robot name="r">
  <link name="a">
    <inertial>
      <mass value="0"/><inertia ixx="1" iyy="1" izz="1" ixy="0.1x" ixz="0" iyz="0"/>
    </inertial>
  </link>
</robot>
EOF
  )
  bad "$f" "urdf2robot: $f:4: link 'a': inertia ixy: expected a number, got '0.1x'"
}

# one link a with a full <inertial>, the placeholders @MASS@ @IXX@ @XYZ@ @RPY@ replaced: inertial
# NAME MASS IXX XYZ RPY; prints the path
inertial() {
  sed -e "s|@MASS@|$2|" -e "s|@IXX@|$3|" -e "s|@XYZ@|$4|" -e "s|@RPY@|$5|" > "$BATS_TEST_TMPDIR/$1" <<'EOF'
<robot name="r">
  <link name="a">
    <inertial>
      <origin xyz="@XYZ@" rpy="@RPY@"/>
      <mass value="@MASS@"/>
      <inertia ixx="@IXX@" ixy="0" ixz="0" iyy="2" iyz="0" izz="3"/>
    </inertial>
  </link>
</robot>
EOF
  printf '%s\n' "$BATS_TEST_TMPDIR/$1"
}

@test "URDF numbers are xs:double's decimals: a hex float, a word or a unit is refused by name" {
  # what xs:double's decimal form allows, blanks around and between numbers included
  f=$(inertial ok.urdf "+1." ".5E+1" "-0 1e-2\&#9;\&#10;00.250" " 0 0 2 ")
  urdf2robot "$f" > "$BATS_TEST_TMPDIR/ok.json"
  check "$BATS_TEST_TMPDIR/ok.json" 'd["base_link"]["mass"] == 1 and
    d["base_link"]["inertia"] == [[5, 0, 0], [0, 2, 0], [0, 0, 3]]'
  # the rest, refused (strtod would read 0x1p-3 as 0.125, 1e1m as 10 and infinity as inf)
  f=$(inertial m.urdf "0x1p-3" 1 "0 0 0" "0 0 0")
  bad "$f" "urdf2robot: $f:5: link 'a': mass value: expected a number, got '0x1p-3'"
  for v in 0.5m 1e1m 0x10 infinity inf nan 1,5 1.5e e5 . - "" "1 2" 1d0 --1 +-1 "1e+" ½; do
    f=$(inertial m.urdf "$v" 1 "0 0 0" "0 0 0")
    bad "$f" "urdf2robot: $f:5: link 'a': mass value: expected a number, got '$v'"
  done
  f=$(inertial i.urdf 1 "1kg.m2" "0 0 0" "0 0 0")
  bad "$f" "urdf2robot: $f:6: link 'a': inertia ixx: expected a number, got '1kg.m2'"
  f=$(inertial x.urdf 1 1 "0 0 0x1" "0 0 0")
  bad "$f" "urdf2robot: $f:4: link 'a': inertial origin xyz: expected 3 numbers, got '0 0 0x1'"
  f=$(inertial x.urdf 1 1 "0,0,0" "0 0 0")
  bad "$f" "urdf2robot: $f:4: link 'a': inertial origin xyz: expected 3 numbers, got '0,0,0'"
  # xs:double's INF and NaN are numbers, but not finite ones; so is what overflows a double
  for v in INF -INF +INF NaN 1e309 -2e400; do
    f=$(inertial m.urdf "$v" 1 "0 0 0" "0 0 0")
    bad "$f" "urdf2robot: $f:5: link 'a': mass value: expected a finite number, got '$v'"
  done
  f=$(inertial r.urdf 1 1 "0 0 0" "0 NaN 0")
  bad "$f" "urdf2robot: $f:4: link 'a': inertial origin rpy: expected 3 finite numbers, got '0 NaN 0'"
  # the joints' numbers go through the same reader
  f=$(variant j.urdf 's/axis xyz="0 0 1"/axis xyz="0 0 0x1"/')
  bad "$f" "urdf2robot: $f:9: joint 'j': axis xyz: expected 3 numbers, got '0 0 0x1'"
  f=$(variant j.urdf 's|<axis|<limit lower="-1rad" upper="1"/><axis|')
  bad "$f" "urdf2robot: $f:9: joint 'j': limit lower: expected a number, got '-1rad'"
  f=$(variant j.urdf 's|<axis|<dynamics damping="0x1p1"/><axis|')
  bad "$f" "urdf2robot: $f:9: joint 'j': dynamics damping: expected a number, got '0x1p1'"
}

@test "an <inertial> needs <mass value> and <inertia> with its six attributes, as for urdfdom" {
  f=$(inertial full.urdf 1 1 "0 0 0" "0 0 0")
  sed 's|<mass value="1"/>||' "$f" > "$BATS_TEST_TMPDIR/nomass.urdf"
  bad "$BATS_TEST_TMPDIR/nomass.urdf" \
    "urdf2robot: $BATS_TEST_TMPDIR/nomass.urdf:3: link 'a': <inertial> without <mass>"
  # a typo does not make a massless link
  sed 's|<mass value=|<mass valu=|' "$f" > "$BATS_TEST_TMPDIR/valu.urdf"
  bad "$BATS_TEST_TMPDIR/valu.urdf" \
    "urdf2robot: $BATS_TEST_TMPDIR/valu.urdf:5: link 'a': <mass> without value"
  sed '/<inertia /d' "$f" > "$BATS_TEST_TMPDIR/noinertia.urdf"
  bad "$BATS_TEST_TMPDIR/noinertia.urdf" \
    "urdf2robot: $BATS_TEST_TMPDIR/noinertia.urdf:3: link 'a': <inertial> without <inertia>"
  for a in ixx ixy ixz iyy iyz izz; do
    sed "s| $a=\"[^\"]*\"||" "$f" > "$BATS_TEST_TMPDIR/no$a.urdf"
    bad "$BATS_TEST_TMPDIR/no$a.urdf" \
      "urdf2robot: $BATS_TEST_TMPDIR/no$a.urdf:6: link 'a': <inertia> without $a"
  done
  # a link without <inertial> is massless, as for urdfdom and KDL; an <origin> is not required
  sed '/<origin /d' "$f" > "$BATS_TEST_TMPDIR/noorigin.urdf"
  urdf2robot "$BATS_TEST_TMPDIR/noorigin.urdf" > "$BATS_TEST_TMPDIR/noorigin.json"
  check "$BATS_TEST_TMPDIR/noorigin.json" 'd["base_link"]["mass"] == 1'
  f=$(two_links)
  urdf2robot "$f" > "$BATS_TEST_TMPDIR/two.json"
  check "$BATS_TEST_TMPDIR/two.json" 'd["base_link"]["mass"] == 0 and d["links"][0]["mass"] == 0
    and d["links"][0]["inertia"] == [[0] * 3] * 3'
}

@test "the XML declaration's version does not matter, as for urdfdom and PyBullet" {
  f=$(two_links)
  urdf2robot "$f" > "$BATS_TEST_TMPDIR/want.json"
  # PyBullet's exporter writes 0.0; the version read is 1.0, whatever the file says, quietly
  for decl in '<?xml version="0.0" ?>' "<?xml version='2.0' encoding='UTF-8'?>" \
    '<?xml version = "1" standalone="yes"?>' '<?xml encoding="utf-8"?>' '<?xml?>' \
    $'\xef\xbb\xbf<?xml version="0.0"?>'; do
    printf '%s\n' "$decl" > "$BATS_TEST_TMPDIR/v.urdf"
    tail -n +2 "$f" >> "$BATS_TEST_TMPDIR/v.urdf"
    run --separate-stderr urdf2robot "$BATS_TEST_TMPDIR/v.urdf"
    echo "$decl: $status $stderr"
    [ "$status" -eq 0 ]
    [ -z "$stderr" ]
    [ "$output" = "$(cat "$BATS_TEST_TMPDIR/want.json")" ]
  done
  # the encoding it names still counts, and lines are still the file's
  printf '<?xml\nversion="0.0"\nencoding="ISO-8859-1"?>\n<robot name="caf\xe9">\n<link name="a"/>\n' \
    > "$BATS_TEST_TMPDIR/latin1.urdf"
  printf '<link name="b"><inertial><mass value="x"/></inertial></link>\n%s\n</robot>\n' \
    '<joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>' \
    >> "$BATS_TEST_TMPDIR/latin1.urdf"
  bad "$BATS_TEST_TMPDIR/latin1.urdf" \
    "urdf2robot: $BATS_TEST_TMPDIR/latin1.urdf:6: link 'b': mass value: expected a number, got 'x'"
  sed -i 's|<mass value="x"/>|<mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>|' \
    "$BATS_TEST_TMPDIR/latin1.urdf"
  urdf2robot "$BATS_TEST_TMPDIR/latin1.urdf" > "$BATS_TEST_TMPDIR/latin1.json"
  check "$BATS_TEST_TMPDIR/latin1.json" 'd["name"] == "caf\u00e9" and d["links"][0]["mass"] == 1'
  # a version that is not a string, or no declaration end, is still not XML
  printf '<?xml version=0.0?>\n<robot name="r"><link name="a"/></robot>\n' > "$BATS_TEST_TMPDIR/v.urdf"
  run --separate-stderr urdf2robot "$BATS_TEST_TMPDIR/v.urdf"
  [ "$status" -eq 1 ]
  [[ "$stderr" == "urdf2robot: $BATS_TEST_TMPDIR/v.urdf:1: "* ]]
}

@test "a negative mass is refused" {
  f=$(urdf negmass.urdf <<'EOF'
<robot name="r">
  <link name="a">
    <inertial>
      <mass value="-2"/>
    </inertial>
  </link>
</robot>
EOF
  )
  bad "$f" "urdf2robot: $f:4: link 'a': negative mass -2"
}

@test "an entity bomb is refused at once, without expanding anything" {
  f=$(urdf bomb.urdf <<'EOF'
<?xml version="1.0"?>
<!DOCTYPE robot [
  <!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa">
  <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
  <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
  <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
  <!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">
  <!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">
  <!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;">
]>
<robot name="&g;"><link name="&g;"/></robot>
EOF
  )
  bounded urdf2robot "$f"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "urdf2robot: $f:3: entity declarations are not allowed" ]
  [ "$ms" -lt 2000 ]
  [ "$rss" -lt 50000 ]
}

@test "a quadratic blowup (one 50 kB entity used 50,000 times) is refused at once" {
  python3 - "$BATS_TEST_TMPDIR/quad.urdf" <<'PY'
import sys
open(sys.argv[1], "w").write('<?xml version="1.0"?>\n<!DOCTYPE robot [\n<!ENTITY big "%s">\n]>\n'
                             '<robot name="r"><link name="a">%s</link></robot>\n'
                             % ("x" * 50000, "&big;" * 50000))
PY
  bounded urdf2robot "$BATS_TEST_TMPDIR/quad.urdf"
  [ "$status" -eq 1 ]
  [ "$stderr" = "urdf2robot: $BATS_TEST_TMPDIR/quad.urdf:3: entity declarations are not allowed" ]
  [ "$ms" -lt 2000 ]
  [ "$rss" -lt 50000 ]
}

@test "an external entity is refused and the file it names is never read" {
  f=$(urdf xxe.urdf <<'EOF'
<?xml version="1.0"?>
<!DOCTYPE robot [
  <!ENTITY secret SYSTEM "file:///etc/passwd">
]>
<robot name="&secret;"><link name="a"/></robot>
EOF
  )
  bad "$f" "urdf2robot: $f:3: entity declarations are not allowed"
  f=$(urdf pe.urdf <<'EOF'
<?xml version="1.0"?>
<!DOCTYPE robot [
  <!ENTITY % remote SYSTEM "http://example.com/evil.dtd">
  %remote;
]>
<robot name="r"><link name="a"/></robot>
EOF
  )
  bad "$f" "urdf2robot: $f:3: entity declarations are not allowed"
}

@test "an entity that no DTD here declares is refused, not dropped" {
  f=$(urdf extdtd.urdf <<'EOF'
<?xml version="1.0"?>
<!DOCTYPE robot SYSTEM "http://example.com/robot.dtd">
<robot name="r">
  <link name="a&undeclared;"/>
</robot>
EOF
  )
  bad "$f" "urdf2robot: $f:4: entity 'undeclared' not defined"
}

@test "an external DTD, XInclude, a stylesheet or a schema location never opens a connection" {
  # a listener on the loopback: a connection to it would be a fetch
  run python3 - <<'PY'
import socket, subprocess
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(8)
s.settimeout(0.3)
url = "http://127.0.0.1:%d" % s.getsockname()[1]
docs = [
    '<!DOCTYPE robot SYSTEM "%s/robot.dtd">\n<robot name="r"><link name="a"/></robot>',
    '<!DOCTYPE robot PUBLIC "-//X//DTD R//EN" "%s/robot.dtd">\n<robot name="r"><link name="a"/></robot>',
    '<robot name="r" xmlns:xi="http://www.w3.org/2001/XInclude"><link name="a"/>'
    '<xi:include href="%s/more.urdf"/><xi:include href="/etc/passwd" parse="text"/></robot>',
    '<?xml-stylesheet type="text/xsl" href="%s/s.xsl"?>\n<robot name="r" '
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
    'xsi:noNamespaceSchemaLocation="%s/s.xsd"><link name="a"/></robot>',
]
for doc in docs:
    doc = '<?xml version="1.0"?>\n' + doc.replace("%s", url)
    p = subprocess.run(["urdf2robot", "-s", "-"], input=doc, capture_output=True, text=True,
                       timeout=20)
    assert p.returncode == 0 and p.stderr == "", (doc, p.stderr)
    # nothing was included: the base link alone
    assert "n_links_joints 0" in p.stdout and "root:" not in p.stdout, p.stdout
    try:
        c, _ = s.accept()
        raise SystemExit("urdf2robot connected to %s for %s" % (url, doc))
    except socket.timeout:
        pass
print("no connection")
PY
  [ "$status" -eq 0 ]
  [ "$output" = "no connection" ]
}

@test "an attribute of 20 MB is refused quickly, in bounded memory" {
  python3 -c 'import sys; open(sys.argv[1], "w").write(
    "<robot name=\"r\">\n<link name=\"%s\"/></robot>\n" % ("x" * 20000000))' \
    "$BATS_TEST_TMPDIR/attr.urdf"
  bounded urdf2robot "$BATS_TEST_TMPDIR/attr.urdf"
  [ "$status" -eq 1 ]
  [ "$stderr" = "urdf2robot: $BATS_TEST_TMPDIR/attr.urdf:2: attValue length too long" ]
  [ "$ms" -lt 2000 ]
  # the file is read whole (20 MB), and libxml2 holds at most 10 MB of it (not under
  # ThreadSanitizer, whose shadow memory took 210 MB)
  sanitized urdf2robot libtsan || [ "$rss" -lt 100000 ]
}

@test "an element with more than 1000 attributes is refused before libxml2 compares them all" {
  # libxml2 2.9 checks every attribute against every other: 200,000 take minutes
  python3 - "$BATS_TEST_TMPDIR/attrs.urdf" <<'PY'
import sys
attrs = " ".join('a%d="1"' % i for i in range(200000))
open(sys.argv[1], "w").write('<robot name="r">\n<!-- <x a="1"> -->\n<link name="a" %s/>\n</robot>\n'
                             % attrs)
PY
  bounded urdf2robot "$BATS_TEST_TMPDIR/attrs.urdf"
  [ "$status" -eq 1 ]
  [ "$stderr" = "urdf2robot: $BATS_TEST_TMPDIR/attrs.urdf:3: an element with more than 1000 attributes" ]
  [ "$ms" -lt 2000 ]
  # 1000 are fine (name and 999 more); '=' in values, comments and CDATA is no attribute
  python3 - "$BATS_TEST_TMPDIR/ok.urdf" <<'PY'
import sys
attrs = " ".join('a%d="x=y"' % i for i in range(999))
open(sys.argv[1], "w").write('<robot name="r"><link name="a" %s/><!-- %s --><x><![CDATA[%s]]></x>'
                             '</robot>\n' % (attrs, "=" * 2000, "=" * 2000))
PY
  run --separate-stderr urdf2robot -s "$BATS_TEST_TMPDIR/ok.urdf"
  [ "$status" -eq 0 ]
}

@test "elements nested 100,000 deep are refused quickly at depth 256" {
  python3 -c 'import sys; open(sys.argv[1], "w").write(
    "<robot name=\"r\"><link name=\"a\"/>" + "<g>" * 100000 + "</g>" * 100000 + "</robot>")' \
    "$BATS_TEST_TMPDIR/deep.urdf"
  bounded bash -c 'ulimit -s 1024 && exec urdf2robot "$1"' _ "$BATS_TEST_TMPDIR/deep.urdf"
  [ "$status" -eq 1 ]
  [ "$stderr" = "urdf2robot: $BATS_TEST_TMPDIR/deep.urdf:1: excessive depth in document: 256" ]
  [ "$ms" -lt 2000 ]
  # 200 levels are fine
  python3 -c 'import sys; open(sys.argv[1], "w").write(
    "<robot name=\"r\"><link name=\"a\"/>" + "<g>" * 200 + "</g>" * 200 + "</robot>")' \
    "$BATS_TEST_TMPDIR/deep.urdf"
  run --separate-stderr bash -c 'ulimit -s 1024 && urdf2robot -s "$1"' _ "$BATS_TEST_TMPDIR/deep.urdf"
  [ "$status" -eq 0 ]
}

@test "two million elements are read in time and memory linear in the file" {
  for n in 500000 2000000; do
    python3 -c 'import sys; open(sys.argv[1], "w").write(
      "<robot name=\"r\"><link name=\"a\"/>" + "<gazebo/>" * int(sys.argv[2]) + "</robot>")' \
      "$BATS_TEST_TMPDIR/many.urdf" "$n"
    bounded urdf2robot -s "$BATS_TEST_TMPDIR/many.urdf"
    [ "$status" -eq 0 ]
    eval "ms$n=$ms rss$n=$rss"
  done
  # 4.5 MB against 18 MB: some 140 bytes a node in libxml2's tree, 4 times as many
  [ "$rss2000000" -lt $((rss500000 * 9 / 2)) ]
  [ "$ms2000000" -lt $((ms500000 * 6 + 500)) ]
}

@test "out of memory is reported as such (exit 3), never as bad XML" {
  if sanitized urdf2robot; then
    skip "a sanitizer needs more address space than the limits here"
  fi
  big_chain 20000 "$BATS_TEST_TMPDIR/big.urdf"
  ran=0
  for kb in 40000 50000 60000 70000 80000 100000 120000 160000; do
    # 99: too little to even load the libraries (127)
    run --separate-stderr bash -c 'ulimit -v "$1" && urdf2robot -s "$2" > /dev/null
      s=$?; [ "$s" -ne 127 ] || s=99; exit "$s"' _ "$kb" "$BATS_TEST_TMPDIR/big.urdf"
    echo "# ulimit -v $kb: exit $status: $stderr"
    [ "$status" -ne 99 ] || continue
    ran=$((ran + 1))
    [ "$status" -eq 0 ] || [ "$status:$stderr" = "3:urdf2robot: out of memory" ]
  done
  [ "$ran" -gt 0 ]
}

@test "libxml2's messages are one line, and libxml2 prints nothing itself" {
  printf '<robot name="\x92en"><link name="a"/></robot>\n' > "$BATS_TEST_TMPDIR/latin.urdf"
  bad "$BATS_TEST_TMPDIR/latin.urdf" \
    "urdf2robot: $BATS_TEST_TMPDIR/latin.urdf:1: input is not proper UTF-8, indicate encoding !"
  # an encoding error is raised outside the parser: libxml2 would print it on stderr
  printf '<?xml version="1.0" encoding="ISO-2022-JP"?><robot name="\x1b$B\xff\xff"><link name="a"/></robot>' \
    > "$BATS_TEST_TMPDIR/jis.urdf"
  bad "$BATS_TEST_TMPDIR/jis.urdf" "urdf2robot: $BATS_TEST_TMPDIR/jis.urdf:1: input conversion failed due to input error, bytes 0xFF 0xFF 0x22 0x3E"
}

@test "a name with a newline is one line in a message" {
  f=$(urdf nl.urdf <<'EOF'
<robot name="r">
  <link name="a&#10;b"/>
  <link name="a&#10;b"/>
</robot>
EOF
  )
  bad "$f" "urdf2robot: $f:3: two links named 'a?b'"
}

@test "an element with a namespace prefix is not a URDF element" {
  f=$(urdf ns.urdf <<'EOF'
<robot name="r" xmlns:g="http://example.com/gazebo" xmlns="http://example.com/default">
  <link name="a"/>
  <g:link name="ghost"/>
  <g:joint name="gj" type="fixed"><parent link="a"/><child link="ghost"/></g:joint>
</robot>
EOF
  )
  urdf2robot "$f" > "$BATS_TEST_TMPDIR/ns.json"
  check "$BATS_TEST_TMPDIR/ns.json" 'd["n_links_joints"] == 0 and d["keys"]["link_id"] == {"a": 0}'
}


# --- bad model JSON ---

@test "a model JSON of the wrong shape is refused, naming the field and what it holds" {
  urdf2robot "$MODELS/SC_3DoF.urdf" > "$BATS_TEST_TMPDIR/m.json"
  edit() {
    python3 - "$BATS_TEST_TMPDIR/m.json" "$BATS_TEST_TMPDIR/e.json" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
  }
  e="$BATS_TEST_TMPDIR/e.json"
  # bad, with the line of the fault in the message (a line of the file) taken out
  badl() {
    run --separate-stderr urdf2robot "$1"
    echo "got: $stderr"
    [ "$status" -eq 1 ]
    [[ "$stderr" =~ ^"urdf2robot: $1:"([0-9]+)": " ]]
    [ "${BASH_REMATCH[1]}" -ge 1 ] && [ "${BASH_REMATCH[1]}" -le "$(wc -l < "$1")" ]
    [ "${stderr/$1:${BASH_REMATCH[1]}:/$1:}" = "$2" ]
  }
  edit 'd["links"][2]["T"] = d["links"][2]["T"][:3]'
  badl "$e" "urdf2robot: $e: links[2].T: expected 4x4 numbers, got 3x4 numbers"
  edit 'del d["links"][1]["mass"]'
  badl "$e" "urdf2robot: $e: links[1].mass: expected a finite number, got nothing"
  edit 'd["joints"][0]["axis"] = "z"'
  badl "$e" "urdf2robot: $e: joints[0].axis: expected 3 numbers, got a string"
  edit 'd["links"].pop()'
  badl "$e" "urdf2robot: $e: links: expected 5 links (n_links_joints), got an array of 4 items"
  edit 'd["n_q"] = 4'
  badl "$e" "urdf2robot: $e: n_q: expected 3 (the joints' coordinates), got 4"
  edit 'd["joints"][1]["parent_link"] = 5'
  badl "$e" "urdf2robot: $e: joint 'Joint_1': parent link 5 must be below 2"
  edit 'd["joints"][2]["q_id"] = 1'
  badl "$e" "urdf2robot: $e: joint 'Joint_2': q_id 1, expected 2"
  edit 'd["links"][3]["name"] = "Link_0"'
  badl "$e" "urdf2robot: $e: two links named 'Link_0'"
  edit 'd["links"][0]["inertia"][0][1] = 1'
  badl "$e" "urdf2robot: $e: links[0].inertia: not symmetric"
  printf '{"version": 1,\n "name": }' > "$e"
  bad "$e" "urdf2robot: $e:2: not JSON: expected a value, got '}'"
}

@test "names missing from a model JSON come from its keys, else L<id> and J<id>" {
  urdf2robot "$MODELS/SC_3DoF.urdf" > "$BATS_TEST_TMPDIR/m.json"
  python3 - "$BATS_TEST_TMPDIR/m.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
del d["links"][0]["name"], d["joints"][0]["name"], d["links"][1]["name"]
del d["keys"]["link_id"]["Link_1"]
json.dump(d, open(sys.argv[1], "w"))
PY
  urdf2robot "$BATS_TEST_TMPDIR/m.json" > "$BATS_TEST_TMPDIR/n.json"
  check "$BATS_TEST_TMPDIR/n.json" '[l["name"] for l in d["links"]][:3] ==
    ["Link_0", "L2", "Link_2"]'
  check "$BATS_TEST_TMPDIR/n.json" 'd["joints"][0]["name"] == "Spacecraft_Manipulator_Joint"'
}


# --- the manual ---

@test "every example in urdf2robot(1) and spart-model(5) runs" {
  cd "$BATS_TEST_TMPDIR"
  ln -s "$MODELS" models
  for page in "$TOP/man/urdf2robot.1" "$TOP/man/spart-model.5"; do
    sed -n 's/^\.Dl \$ //p' "$page" > examples.sh
    [ -s examples.sh ]
    run --separate-stderr bash -e examples.sh
    [ "$status" -eq 0 ]
    [ -z "$stderr" ]
  done
}

@test "the bundled model JSONs are what urdf2robot makes of their URDFs (make models)" {
  for f in "$MODELS"/*.urdf; do
    run urdf2robot "$f"
    [ "$status" -eq 0 ]
    [ "$output" = "$(cat "${f%.urdf}.json")" ]
  done
}

@test "the model keeps every joint's effort and velocity limits, and --summary shows them" {
  f=$(urdf lim.urdf <<'EOF'
<robot name="lim">
  <link name="base"><inertial><mass value="1"/>
    <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <link name="a"><inertial><mass value="0.5"/>
    <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial></link>
  <link name="b"><inertial><mass value="0.5"/>
    <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial></link>
  <link name="c"><inertial><mass value="0.5"/>
    <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial></link>
  <joint name="ja" type="revolute"><parent link="base"/><child link="a"/>
    <axis xyz="0 0 1"/><limit lower="-1.5" upper="2" effort="12.5" velocity="0.75"/></joint>
  <joint name="jb" type="continuous"><parent link="a"/><child link="b"/>
    <axis xyz="0 1 0"/><limit effort="3" velocity="6.25"/></joint>
  <joint name="jc" type="prismatic"><parent link="b"/><child link="c"/>
    <axis xyz="1 0 0"/><limit lower="0" upper="0.2" effort="0" velocity="0"/></joint>
</robot>
EOF
)
  urdf2robot "$f" > "$BATS_TEST_TMPDIR/lim.json"
  # a continuous joint has effort and velocity limits but no range; 0 is no limit
  check "$BATS_TEST_TMPDIR/lim.json" 'd["joints"][0]["effort_limit"] == 12.5 and
    d["joints"][0]["velocity_limit"] == 0.75 and d["joints"][0]["limit"] == [-1.5, 2] and
    d["joints"][1]["effort_limit"] == 3 and d["joints"][1]["velocity_limit"] == 6.25 and
    "limit" not in d["joints"][1] and "effort_limit" not in d["joints"][2] and
    "velocity_limit" not in d["joints"][2]'
  # the model JSON reads back to the same bytes, and the summary is the same from both
  urdf2robot "$BATS_TEST_TMPDIR/lim.json" | cmp - "$BATS_TEST_TMPDIR/lim.json"
  run -0 urdf2robot --summary "$f"
  [ "${lines[2]}" = "  1 a  mass 0.5  <- joint 1 ja revolute axis 0 0 1 q 1 limits -1.5 2 effort 12.5 velocity 0.75" ]
  [ "${lines[3]}" = "    2 b  mass 0.5  <- joint 2 jb revolute axis 0 1 0 q 2 effort 3 velocity 6.25" ]
  [ "${lines[4]}" = "      3 c  mass 0.5  <- joint 3 jc prismatic axis 1 0 0 q 3 limits 0 0.2" ]
  summary="$output"
  run -0 urdf2robot --summary "$BATS_TEST_TMPDIR/lim.json"
  [ "$output" = "$summary" ]
  # the bundled arms keep their data sheets' limits
  run -0 urdf2robot --summary "$MODELS/kuka_iiwa.urdf"
  [[ "${lines[2]}" == *" limits -2.96706 2.96706 effort 300 velocity 10 "* ]]
}

@test "a negative effort or velocity limit is refused, in a URDF and in a model JSON" {
  f=$(variant ne.urdf 's|<axis|<limit effort="-1" velocity="1"/><axis|')
  bad "$f" "urdf2robot: $f:9: joint 'j': limit: negative effort"
  f=$(variant nv.urdf 's|<axis|<limit effort="1" velocity="-2"/><axis|')
  bad "$f" "urdf2robot: $f:9: joint 'j': limit: negative velocity"
  f=$(variant nn.urdf 's|<axis|<limit effort="x" velocity="1"/><axis|')
  bad "$f" "urdf2robot: $f:9: joint 'j': limit effort: expected a number, got 'x'"
  urdf2robot "$(variant ok.urdf 's|<axis|<limit effort="1" velocity="2"/><axis|')" |
    sed 's/"velocity_limit":\([[:space:]]*\)2/"velocity_limit":\1-2/' > "$BATS_TEST_TMPDIR/nv.json"
  grep -q '"velocity_limit":[[:space:]]*-2' "$BATS_TEST_TMPDIR/nv.json"
  run --separate-stderr urdf2robot "$BATS_TEST_TMPDIR/nv.json"
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"nv.json:"*": joint 'j': negative velocity limit -2" ]]
}

@test "a UTF-16 URDF is read as XML whatever its file name (with or without a byte order mark)" {
  python3 -c '
import sys
s = open(sys.argv[1]).read()
open(sys.argv[2] + "/a.json", "wb").write(s.encode("utf-16"))
open(sys.argv[2] + "/b", "wb").write(s.encode("utf-16-be"))
open(sys.argv[2] + "/c.model", "wb").write(s.encode("utf-16-le"))
' "$MODELS/kuka_iiwa.urdf" "$BATS_TEST_TMPDIR"
  ref=$(spart-id -m "$MODELS/kuka_iiwa.urdf" --fixed-base --gravity 0,0,-9.81 <<< '{"qm": [0, 0.5, 0, -1, 0, 0.5, 0]}')
  for f in a.json b c.model; do
    run -0 spart-id -m "$BATS_TEST_TMPDIR/$f" --fixed-base --gravity 0,0,-9.81 <<< '{"qm": [0, 0.5, 0, -1, 0, 0.5, 0]}'
    [ "$output" = "$ref" ]
  done
}
