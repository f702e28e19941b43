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

# run COMMAND... measuring it: sets status, output, stderr as run does, ms (CPU time) and rss
# (peak resident memory, KB)
bounded() {
  python3 - "$BATS_TEST_TMPDIR" "$@" <<'PY'
import resource, subprocess, sys
tmp, cmd = sys.argv[1], sys.argv[2:]
p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
open(tmp + "/b.out", "wb").write(p.stdout)
open(tmp + "/b.err", "wb").write(p.stderr)
# its CPU time (user and system), which other work on the machine leaves as it is
u = resource.getrusage(resource.RUSAGE_CHILDREN)
t, rss = u.ru_utime + u.ru_stime, u.ru_maxrss
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
  [ "${lines[6]}" = "base: floating (--fixed-base to hold it)" ]
  [ "${lines[8]}" = \
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
    "urdf2robot: $BATS_TEST_TMPDIR/noinertia.urdf:3: link 'a': <inertial> without <inertia> (--automass gives it its collision shapes' inertia)"
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
  # quickly: libxml2 stops at its 10 MB limit (a sanitizer's own time is not the reader's: 2.07 s
  # under ThreadSanitizer on a loaded machine)
  sanitized urdf2robot || [ "$ms" -lt 2000 ]
  # the file is read whole (20 MB), and libxml2 holds at most 10 MB of it (not under a
  # sanitizer: ThreadSanitizer's shadow memory took 210 MB, AddressSanitizer's 102 MB)
  sanitized urdf2robot || [ "$rss" -lt 100000 ]
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

# ---- shapes: <collision> and <visual> geometry (spart-model(5) "shapes") ----

# a base with an <inertial> origin and a link, every primitive, origins turned
shapes_urdf() {
  urdf shapes.urdf <<'EOF'
<robot name="shapes">
  <link name="base">
    <inertial><origin xyz="0.1 0.2 0.3" rpy="0.3 0 0"/><mass value="2"/>
      <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision name="hull"><origin xyz="1 2 3" rpy="0 0 1.5707963267948966"/>
      <geometry><box size="0.4 0.2 0.1"/></geometry></collision>
    <visual><geometry><sphere radius="0.5"/></geometry></visual>
  </link>
  <link name="arm">
    <inertial><origin xyz="0 0 0.5"/><mass value="1"/>
      <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><origin xyz="0 0 0.5" rpy="1.5707963267948966 0 0"/>
      <geometry><cylinder radius="0.05" length="1"/></geometry></visual>
    <collision><geometry><capsule radius="0.1" length="0.8"/></geometry></collision>
    <collision><origin xyz="0 0 1"/>
      <geometry><mesh filename="package://nowhere/arm.dae" scale="2 2 2"/></geometry></collision>
  </link>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/>
    <origin xyz="0 0 1"/><axis xyz="0 1 0"/></joint>
</robot>
EOF
}

@test "shapes: each <collision> and <visual> in link order, its frame in the URDF link frame, not the CoM's" {
  f=$(shapes_urdf)
  urdf2robot "$f" > "$BATS_TEST_TMPDIR/m.json"
  m="$BATS_TEST_TMPDIR/m.json"
  check "$m" 'len(d["shapes"]) == 5 and [s["link"] for s in d["shapes"]] == [0, 0, 1, 1, 1]'
  check "$m" '[s["role"] for s in d["shapes"]] == ["collision", "visual", "visual", "collision", "collision"]'
  check "$m" '[s["kind"] for s in d["shapes"]] == ["box", "sphere", "cylinder", "capsule", "mesh"]'
  # the box: turned a quarter about z, at (1, 2, 3) of the base's URDF frame (not its CoM's)
  check "$m" 'close(d["shapes"][0]["T"], [[0, -1, 0, 1], [1, 0, 0, 2], [0, 0, 1, 3], [0, 0, 0, 1]], 1e-15)'
  check "$m" 'd["shapes"][0]["name"] == "hull" and d["shapes"][0]["size"] == [0.4, 0.2, 0.1]'
  check "$m" 'd["shapes"][1]["radius"] == 0.5 and "name" not in d["shapes"][1]'
  check "$m" 'close(d["shapes"][2]["T"], [[1, 0, 0, 0], [0, 0, -1, 0], [0, 1, 0, 0.5], [0, 0, 0, 1]], 1e-15)'
  check "$m" 'd["shapes"][2]["radius"] == 0.05 and d["shapes"][2]["length"] == 1'
  check "$m" 'd["shapes"][3]["radius"] == 0.1 and d["shapes"][3]["length"] == 0.8'
  check "$m" 'd["shapes"][4]["file"] == "package://nowhere/arm.dae" and d["shapes"][4]["scale"] == [2, 2, 2]'
  check "$m" 'd["shapes"][4]["mesh"] == "missing" and "bounds" not in d["shapes"][4]'
  # read back, the same bytes
  run urdf2robot "$m"
  [ "$status" -eq 0 ]
  [ "$output" = "$(cat "$m")" ]
}

@test "shapes: every bundled URDF gives its models/*.json; those without geometry have no shapes, as before" {
  for f in "$MODELS"/*.urdf; do
    (cd "$MODELS" && urdf2robot "${f##*/}") | cmp - "${f%.urdf}.json"
    if ! grep -q '<collision\|<visual' "$f"; then
      ! grep -q '"shapes"' "${f%.urdf}.json"
    else
      grep -q '"shapes"' "${f%.urdf}.json"
    fi
  done
}

@test "shapes: the bundled quadruped's feet are collision spheres at the shanks' ends" {
  m="$MODELS/quadruped.json"
  for leg in fl fr hl hr; do
    check "$m" '[(s["radius"], p(s["T"])) for s in d["shapes"] if s["role"] == "collision" and d["keys"]["link_id"]["'$leg'_shank"] == s["link"]] == [(0.02, [0, 0, -0.2])]'
  done
}

@test "shapes: a bad shape is refused with its place" {
  f=$(urdf b1.urdf <<'EOF'
<robot name="b"><link name="a"><collision><geometry><box size="1 2"/></geometry></collision></link></robot>
EOF
)
  bad "$f" "urdf2robot: $f:1: link 'a': box size: expected 3 numbers, got '1 2'"
  f=$(urdf b2.urdf <<'EOF'
<robot name="b"><link name="a"><visual><geometry><sphere radius="-0.1"/></geometry></visual></link></robot>
EOF
)
  bad "$f" "urdf2robot: $f:1: link 'a': sphere with a radius -0.1 that is negative (0 is a point)"
  f=$(urdf b6.urdf <<'EOF'
<robot name="b"><link name="a"><visual><geometry><cylinder radius="0" length="1"/></geometry></visual></link></robot>
EOF
)
  bad "$f" "urdf2robot: $f:1: link 'a': cylinder with a size 0 that is not positive"
  f=$(urdf b3.urdf <<'EOF'
<robot name="b"><link name="a"><visual><geometry><cone radius="1"/></geometry></visual></link></robot>
EOF
)
  bad "$f" "urdf2robot: $f:1: link 'a': unknown geometry <cone>"
  f=$(urdf b4.urdf <<'EOF'
<robot name="b"><link name="a"><collision><origin xyz="0 0 0"/></collision></link></robot>
EOF
)
  bad "$f" "urdf2robot: $f:1: link 'a': <collision> without <geometry>"
  f=$(urdf b5.urdf <<'EOF'
<robot name="b"><link name="a"><collision><geometry><mesh/></geometry></collision></link></robot>
EOF
)
  bad "$f" "urdf2robot: $f:1: link 'a': <mesh> without filename"
}

@test "shapes: a model JSON's shapes are checked" {
  f=$(shapes_urdf)
  urdf2robot "$f" > "$BATS_TEST_TMPDIR/m.json"
  python3 - "$BATS_TEST_TMPDIR/m.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for name, change in [("link", lambda s: s.update(link=5)), ("kind", lambda s: s.update(kind="cone")),
                     ("role", lambda s: s.update(role="both")), ("radius", lambda s: s.update(radius=-1))]:
    e = json.loads(json.dumps(d))
    change(e["shapes"][1])
    json.dump(e, open(sys.argv[1][:-5] + "-" + name + ".json", "w"), indent=1)
PY
  run --separate-stderr urdf2robot "$BATS_TEST_TMPDIR/m-link.json"
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"shapes[1].link: expected a link from 0 to 1, in order, got 5" ]]
  run --separate-stderr urdf2robot "$BATS_TEST_TMPDIR/m-kind.json"
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"shapes[1].kind: expected box, cylinder, sphere, capsule or mesh, got a string"* ]]
  run --separate-stderr urdf2robot "$BATS_TEST_TMPDIR/m-role.json"
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"shapes[1].role: expected"* ]]
  run --separate-stderr urdf2robot "$BATS_TEST_TMPDIR/m-radius.json"
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"shapes[1]: sphere size -1: expected a size >= 0 (0 is a point)" ]]
}

@test "shapes: a sphere of radius 0 is a point (Drake's point contacts, as urdfdom reads it): written, read back" {
  urdf2robot "$TOP/tests/data/shapes/point_foot.urdf" > "$BATS_TEST_TMPDIR/m.json"
  check "$BATS_TEST_TMPDIR/m.json" '[(s["name"], s["kind"], s.get("radius"), p(s["T"])) for s in d["shapes"]] == [("shank", "box", None, [0.1, 0, -0.25]), ("toe", "sphere", 0, [0.1, 0, -0.5])]'
  urdf2robot "$BATS_TEST_TMPDIR/m.json" | cmp - "$BATS_TEST_TMPDIR/m.json"
  run -0 urdf2robot --summary "$TOP/tests/data/shapes/point_foot.urdf"
  [[ "$output" == *"shape: link 1 'shin' collision sphere 'toe' radius 0 at (0.1, 0, -0.5)"* ]]
}

# ---- meshes and automass ----

# write meshes into DIR: a cube of side 2 (binary STL, cube.stl), an icosphere of radius 1
# subdivided LEVEL times (ASCII STL, ico.stl), the cube with one triangle left out (open.stl)
# and turned inside out (inside.stl), an OBJ file (x.obj): meshes DIR LEVEL
meshes() {
  python3 - "$1" "$2" <<'PY'
import math, struct, sys
d, level = sys.argv[1], int(sys.argv[2])
def binary(name, tris):
    with open(d + "/" + name, "wb") as f:
        f.write(b"solid but binary".ljust(80, b" "))
        f.write(struct.pack("<I", len(tris)))
        for t in tris:
            f.write(struct.pack("<3f", 0, 0, 0))
            for v in t:
                f.write(struct.pack("<3f", *v))
            f.write(b"\0\0")
def ascii(name, tris):
    with open(d + "/" + name, "w") as f:
        f.write("solid ico\n")
        for t in tris:
            f.write(" facet normal 0 0 0\n  outer loop\n")
            for v in t:
                f.write("   vertex %.17g %.17g %.17g\n" % v)
            f.write("  endloop\n endfacet\n")
        f.write("endsolid ico\n")
# the cube [-1, 1]^3, outward triangles
cube = []
for ax in range(3):
    for s in (-1, 1):
        u, w = (ax + 1) % 3, (ax + 2) % 3
        def pt(a, b):
            p = [0, 0, 0]; p[ax] = s; p[u] = a; p[w] = b; return tuple(float(x) for x in p)
        q = [pt(-1, -1), pt(1, -1), pt(1, 1), pt(-1, 1)]
        if s < 0:
            q = q[::-1]
        cube += [(q[0], q[1], q[2]), (q[0], q[2], q[3])]
binary("cube.stl", cube)
binary("open.stl", cube[:-1])
binary("inside.stl", [t[::-1] for t in cube])
# the icosphere
t = (1 + 5 ** 0.5) / 2
V = [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0), (0, -1, t), (0, 1, t), (0, -1, -t), (0, 1, -t),
     (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]
F = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4), (11, 10, 2),
     (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8), (3, 8, 9), (4, 9, 5),
     (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1)]
def unit(p):
    n = math.sqrt(sum(x * x for x in p)); return tuple(x / n for x in p)
V = [unit(v) for v in V]
for _ in range(level):
    cache, F2 = {}, []
    def mid(a, b):
        k = (min(a, b), max(a, b))
        if k not in cache:
            cache[k] = len(V); V.append(unit(tuple((x + y) / 2 for x, y in zip(V[a], V[b]))))
        return cache[k]
    for a, b, c in F:
        ab, bc, ca = mid(a, b), mid(b, c), mid(c, a)
        F2 += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
    F = F2
ascii("ico.stl", [tuple(V[i] for i in f) for f in F])
# the smallest distance from the centre to a face's plane: the mesh holds that ball
rmin = 1
for f in F:
    a, b, c = (V[i] for i in f)
    n = [(b[1]-a[1])*(c[2]-a[2])-(b[2]-a[2])*(c[1]-a[1]), (b[2]-a[2])*(c[0]-a[0])-(b[0]-a[0])*(c[2]-a[2]),
         (b[0]-a[0])*(c[1]-a[1])-(b[1]-a[1])*(c[0]-a[0])]
    rmin = min(rmin, abs(sum(x * y for x, y in zip(n, a))) / math.sqrt(sum(x * x for x in n)))
open(d + "/rmin", "w").write(repr(rmin))
open(d + "/x.obj", "w").write("v 0 0 0\n")
PY
}

# a one-link robot whose link 'a' holds the collision geometry GEOM and the <inertial> INERTIAL
# (its base 'b' has mass 1): geom_urdf NAME INERTIAL GEOM
geom_urdf() {
  urdf "$1" <<EOF
<robot name="g">
  <link name="b"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="a">$2
    $3
  </link>
  <joint name="j" type="revolute"><parent link="b"/><child link="a"/><origin xyz="0.1 0.2 0.3" rpy="0.1 0.2 0.3"/><axis xyz="0 0 1"/></joint>
</robot>
EOF
}

# the link 'a' of model JSON FILE against mass M, CoM C (3) and inertia I (3x3), to TOL: link_is
# FILE M C I TOL
link_is() {
  python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
l = d["links"][0]
M, C, I, tol = float(sys.argv[2]), json.loads(sys.argv[3]), json.loads(sys.argv[4]), float(sys.argv[5])
got = [l["mass"]] + [r[3] for r in l["T"][:3]] + sum(l["inertia"], [])
want = [M] + C + sum(I, [])
R = [r[:3] for r in l["T"][:3]]
bad = [(k, g, w) for k, (g, w) in enumerate(zip(got, want)) if abs(g - w) > tol * max(1, abs(w))]
if bad or R != [[1, 0, 0], [0, 1, 0], [0, 0, 1]]:
    sys.exit("got %r, want %r: %r" % (got, want, bad))
PY
}

# inertia of a shape with principal moments P (3) turned by rpy and moved to p, about the
# composite CoM, in the link frame: python
PYROT='
import math
def rpy(r, p, y):
    cr, sr, cp, sp, cy, sy = math.cos(r), math.sin(r), math.cos(p), math.sin(p), math.cos(y), math.sin(y)
    return [[cy*cp, cy*sp*sr - sy*cr, cy*sp*cr + sy*sr], [sy*cp, sy*sp*sr + cy*cr, sy*sp*cr - cy*sr], [-sp, cp*sr, cp*cr]]
def turn(R, P):
    return [[sum(R[i][k] * P[k] * R[j][k] for k in range(3)) for j in range(3)] for i in range(3)]
def shift(I, m, d):
    return [[I[i][j] + m * ((i == j) * sum(x * x for x in d) - d[i] * d[j]) for j in range(3)] for i in range(3)]
def add(A, B):
    return [[A[i][j] + B[i][j] for j in range(3)] for i in range(3)]
'

@test "automass: a box a x b x c of mass m: m(b^2+c^2)/12 ... about its centre, moved and turned by its origin" {
  f=$(geom_urdf box.urdf '<inertial><mass value="3"/></inertial>' \
      '<collision><origin xyz="0.5 -0.25 2" rpy="0.4 -0.7 1.2"/><geometry><box size="0.3 0.5 0.7"/></geometry></collision>')
  urdf2robot --automass "$f" > "$BATS_TEST_TMPDIR/m.json"
  I=$(python3 -c "$PYROT"'
import json
a, b, c, m = 0.3, 0.5, 0.7, 3
P = [m * (b*b + c*c) / 12, m * (a*a + c*c) / 12, m * (a*a + b*b) / 12]
print(json.dumps(turn(rpy(0.4, -0.7, 1.2), P)))')
  link_is "$BATS_TEST_TMPDIR/m.json" 3 '[0.5, -0.25, 2]' "$I" 1e-14
  # unturned, the diagonal itself
  f=$(geom_urdf box0.urdf '<inertial><mass value="3"/></inertial>' \
      '<collision><geometry><box size="0.3 0.5 0.7"/></geometry></collision>')
  urdf2robot --automass "$f" > "$BATS_TEST_TMPDIR/m0.json"
  link_is "$BATS_TEST_TMPDIR/m0.json" 3 '[0, 0, 0]' '[[0.185, 0, 0], [0, 0.145, 0], [0, 0, 0.085]]' 1e-15
}

@test "automass: cylinder, sphere and capsule by their closed forms, from <mass> or --density" {
  f=$(geom_urdf cyl.urdf '<inertial><mass value="2"/></inertial>' \
      '<collision><origin xyz="0 0 1" rpy="1.5707963267948966 0 0"/><geometry><cylinder radius="0.1" length="0.6"/></geometry></collision>')
  urdf2robot --automass "$f" > "$BATS_TEST_TMPDIR/c.json"
  I=$(python3 -c "$PYROT"'
import json
r, h, m = 0.1, 0.6, 2
print(json.dumps(turn(rpy(math.pi / 2, 0, 0), [m * (3*r*r + h*h) / 12, m * (3*r*r + h*h) / 12, m * r*r / 2])))')
  link_is "$BATS_TEST_TMPDIR/c.json" 2 '[0, 0, 1]' "$I" 1e-14
  # a sphere of radius 0.2 at 1000 kg/m^3, no <inertial> at all
  f=$(geom_urdf sph.urdf '' '<collision><geometry><sphere radius="0.2"/></geometry></collision>')
  urdf2robot --automass --density 1000 "$f" > "$BATS_TEST_TMPDIR/s.json"
  read -r M J < <(python3 -c 'import math; m = 1000 * 4 / 3 * math.pi * 0.2**3; print(repr(m), repr(0.4 * m * 0.04))')
  link_is "$BATS_TEST_TMPDIR/s.json" "$M" '[0, 0, 0]' "[[$J, 0, 0], [0, $J, 0], [0, 0, $J]]" 1e-14
  # a capsule: its cylinder and two hemispheres (3r/8 from their flat faces, 83/320 m r^2 about
  # their CoMs across the axis), put together here by the parallel-axis theorem
  f=$(geom_urdf cap.urdf '<inertial><mass value="5"/></inertial>' \
      '<collision><geometry><capsule radius="0.1" length="0.4"/></geometry></collision>')
  urdf2robot --automass "$f" > "$BATS_TEST_TMPDIR/k.json"
  I=$(python3 -c '
import json, math
r, h, M = 0.1, 0.4, 5
vc, vh = math.pi * r*r * h, 2 / 3 * math.pi * r**3
rho = M / (vc + 2 * vh)
mc, mh = rho * vc, rho * vh
d = h / 2 + 3 * r / 8
ixx = mc * (3*r*r + h*h) / 12 + 2 * (83 / 320 * mh * r*r + mh * d*d)
izz = mc * r*r / 2 + 2 * (2 / 5 * mh * r*r)
print(json.dumps([[ixx, 0, 0], [0, ixx, 0], [0, 0, izz]]))')
  link_is "$BATS_TEST_TMPDIR/k.json" 5 '[0, 0, 0]' "$I" 1e-13
}

@test "automass: several shapes put together by the parallel-axis theorem; visual shapes do not count" {
  f=$(geom_urdf two.urdf '<inertial><mass value="4"/></inertial>' \
      '<collision><origin xyz="0.2 0 0" rpy="0 0 0.5"/><geometry><box size="0.2 0.1 0.3"/></geometry></collision>
    <collision><origin xyz="-0.1 0.3 0.1"/><geometry><sphere radius="0.15"/></geometry></collision>
    <visual><geometry><box size="5 5 5"/></geometry></visual>')
  urdf2robot --automass "$f" > "$BATS_TEST_TMPDIR/t.json"
  read -r C I < <(python3 -c "$PYROT"'
import json
vb, vs = 0.2 * 0.1 * 0.3, 4 / 3 * math.pi * 0.15**3
rho = 4 / (vb + vs)
mb, ms = rho * vb, rho * vs
pb, ps = [0.2, 0, 0], [-0.1, 0.3, 0.1]
c = [(mb * x + ms * y) / 4 for x, y in zip(pb, ps)]
Ib = turn(rpy(0, 0, 0.5), [mb * (0.01 + 0.09) / 12, mb * (0.04 + 0.09) / 12, mb * (0.04 + 0.01) / 12])
Is = turn(rpy(0, 0, 0), [0.4 * ms * 0.0225] * 3)
I = add(shift(Ib, mb, [x - y for x, y in zip(pb, c)]), shift(Is, ms, [x - y for x, y in zip(ps, c)]))
print(json.dumps(c).replace(" ", ""), json.dumps(I).replace(" ", ""))')
  link_is "$BATS_TEST_TMPDIR/t.json" 4 "$C" "$I" 1e-14
  run urdf2robot --automass --summary "$f"
  [ "$status" -eq 0 ]
  [[ "$output" == *"automass: link 1 'a' mass 4, CoM ("*") from its collision shapes"* ]]
  [[ "$output" != *"automass: link 0"* ]]
}

@test "automass: an STL cube is the box, an STL icosphere the sphere within its faceting" {
  meshes "$BATS_TEST_TMPDIR" 3
  f=$(geom_urdf cube.urdf '<inertial><mass value="2"/></inertial>' \
      '<collision><origin xyz="1 2 3" rpy="0.3 0.2 0.1"/><geometry><mesh filename="cube.stl" scale="0.1 0.2 0.3"/></geometry></collision>')
  urdf2robot --automass "$f" > "$BATS_TEST_TMPDIR/cube.json"
  I=$(python3 -c "$PYROT"'
import json
a, b, c, m = 0.2, 0.4, 0.6, 2
print(json.dumps(turn(rpy(0.3, 0.2, 0.1), [m * (b*b + c*c) / 12, m * (a*a + c*c) / 12, m * (a*a + b*b) / 12])))')
  link_is "$BATS_TEST_TMPDIR/cube.json" 2 '[1, 2, 3]' "$I" 1e-12
  check "$BATS_TEST_TMPDIR/cube.json" 'close(d["shapes"][0]["bounds"], [[-0.1, -0.2, -0.3], [0.1, 0.2, 0.3]], 1e-8) and d["shapes"][0]["mesh"] == "read"'
  # the icosphere (1280 faces, ASCII) of radius 1 at 1000 kg/m^3 holds the ball of radius rmin
  # (its faces' nearest distance) and lies in the unit ball: its volume is between theirs, and
  # so is each moment over the mass, 2/5 r^2 (faceting's error at this level: 1 - rmin = 0.4%)
  f=$(geom_urdf ico.urdf '' '<collision><geometry><mesh filename="ico.stl"/></geometry></collision>')
  urdf2robot --automass --density 1000 "$f" > "$BATS_TEST_TMPDIR/ico.json"
  python3 - "$BATS_TEST_TMPDIR/ico.json" "$(cat "$BATS_TEST_TMPDIR/rmin")" <<'PY'
import json, math, sys
l = json.load(open(sys.argv[1]))["links"][0]
rmin, m = float(sys.argv[2]), l["mass"]
assert 0.995 < rmin < 0.997, rmin
assert 1000 * 4 / 3 * math.pi * rmin**3 < m < 1000 * 4 / 3 * math.pi, m
for k in range(3):
    assert 0.4 * rmin**2 < l["inertia"][k][k] / m < 0.4, l["inertia"]
    assert abs(l["T"][k][3]) < 1e-12
    for j in range(3):
        assert j == k or abs(l["inertia"][k][j]) < 1e-12 * m
PY
}

@test "automass: a mirrored mesh (scale -1 1 1, a left part from a right one) is the mirror image: the same mass, x of the CoM and the xy, xz products negated" {
  # the tetrahedron (0, a e_x, b e_y, c e_z), a b c = 0.5 0.25 1 (exact in binary STL's floats),
  # its faces outward; of mass m: CoM (a, b, c)/4, I_xx = 3 m (b^2 + c^2)/80 (and round),
  # I_xy = m a b/80 (the tensor's entry, -integral of x y about the CoM), I_xz, I_yz alike
  python3 - "$BATS_TEST_TMPDIR/tet.stl" <<'PY'
import struct, sys
V = [(0, 0, 0), (0.5, 0, 0), (0, 0.25, 0), (0, 0, 1)]
with open(sys.argv[1], "wb") as f:
    f.write(b"tetrahedron".ljust(80, b" "))
    F = [(0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3)]
    f.write(struct.pack("<I", len(F)))
    for t in F:
        f.write(struct.pack("<3f", 0, 0, 0) + b"".join(struct.pack("<3f", *V[i]) for i in t) + b"\0\0")
PY
  I() {  # the inertia with the sign s of x: I sx
    python3 -c 'import json, sys
s, m, a, b, c = float(sys.argv[1]), 2, 0.5, 0.25, 1
print(json.dumps([[3*m*(b*b + c*c)/80, s*m*a*b/80, s*m*a*c/80], [s*m*a*b/80, 3*m*(a*a + c*c)/80, m*b*c/80],
                  [s*m*a*c/80, m*b*c/80, 3*m*(a*a + b*b)/80]]))' "$1"
  }
  for case in "1 1 1|0.125|1" "-1 1 1|-0.125|-1" "1 -1 -1|0.125|-1"; do
    IFS='|' read -r sc cx s <<< "$case"
    f=$(geom_urdf tet.urdf '<inertial><mass value="2"/></inertial>' \
        "<collision><geometry><mesh filename=\"tet.stl\" scale=\"$sc\"/></geometry></collision>")
    urdf2robot --automass "$f" > "$BATS_TEST_TMPDIR/t.json"
    if [ "$sc" = "1 -1 -1" ]; then  # turned half a turn about x: y and z negated, xy and xz too
      link_is "$BATS_TEST_TMPDIR/t.json" 2 "[$cx, -0.0625, -0.25]" "$(I "$s")" 1e-15
    else
      link_is "$BATS_TEST_TMPDIR/t.json" 2 "[$cx, 0.0625, 0.25]" "$(I "$s")" 1e-15
    fi
  done
}

@test "automass: spart-gim's H of an automassed model is that of the model written with those inertias" {
  f=$(urdf auto.urdf <<'EOF'
<robot name="auto">
  <link name="b"><inertial><mass value="2"/></inertial>
    <collision><origin xyz="0.1 0 0"/><geometry><box size="0.4 0.3 0.2"/></geometry></collision></link>
  <link name="a"><inertial><mass value="1.5"/></inertial>
    <collision><origin xyz="0 0 0.25" rpy="0.2 0.1 0"/><geometry><cylinder radius="0.05" length="0.5"/></geometry></collision>
    <collision><origin xyz="0 0 0.5"/><geometry><sphere radius="0.08"/></geometry></collision></link>
  <joint name="j" type="revolute"><parent link="b"/><child link="a"/><origin xyz="0.2 0 0.1"/><axis xyz="0 1 0"/></joint>
</robot>
EOF
)
  # the same robot with the inertias written out, computed here
  python3 -c "$PYROT"'
import sys
def box(m, a, b, c): return [m * (b*b + c*c) / 12, m * (a*a + c*c) / 12, m * (a*a + b*b) / 12]
vc, vs = math.pi * 0.05**2 * 0.5, 4 / 3 * math.pi * 0.08**3
rho = 1.5 / (vc + vs)
mc, ms = rho * vc, rho * vs
pc, ps = [0, 0, 0.25], [0, 0, 0.5]
c = [(mc * x + ms * y) / 1.5 for x, y in zip(pc, ps)]
Ic = turn(rpy(0.2, 0.1, 0), [mc * (3 * 0.0025 + 0.25) / 12] * 2 + [mc * 0.0025 / 2])
Is = turn(rpy(0, 0, 0), [0.4 * ms * 0.0064] * 3)
I = add(shift(Ic, mc, [x - y for x, y in zip(pc, c)]), shift(Is, ms, [x - y for x, y in zip(ps, c)]))
B = box(2, 0.4, 0.3, 0.2)
def inertial(m, c, I):
    return ("<inertial><origin xyz=\"%r %r %r\"/><mass value=\"%r\"/><inertia ixx=\"%r\" iyy=\"%r\" izz=\"%r\" ixy=\"%r\" ixz=\"%r\" iyz=\"%r\"/></inertial>"
            % (c[0], c[1], c[2], m, I[0][0], I[1][1], I[2][2], I[0][1], I[0][2], I[1][2]))
open(sys.argv[1], "w").write("""<robot name="hand">
  <link name="b">%s</link>
  <link name="a">%s</link>
  <joint name="j" type="revolute"><parent link="b"/><child link="a"/><origin xyz="0.2 0 0.1"/><axis xyz="0 1 0"/></joint>
</robot>""" % (inertial(2, [0.1, 0, 0], [[B[0], 0, 0], [0, B[1], 0], [0, 0, B[2]]]), inertial(1.5, c, I)))
' "$BATS_TEST_TMPDIR/hand.urdf"
  urdf2robot --automass "$f" > "$BATS_TEST_TMPDIR/auto.json"
  for q in 0 0.7 -2.1; do
    echo "{\"R0\": [[0.36, 0.48, -0.8], [-0.8, 0.6, 0], [0.48, 0.64, 0.6]], \"qm\": [$q]}"
  done > "$BATS_TEST_TMPDIR/states.jsonl"
  spart-gim -m "$BATS_TEST_TMPDIR/auto.json" < "$BATS_TEST_TMPDIR/states.jsonl" > "$BATS_TEST_TMPDIR/a.out"
  spart-gim -m "$BATS_TEST_TMPDIR/hand.urdf" < "$BATS_TEST_TMPDIR/states.jsonl" > "$BATS_TEST_TMPDIR/h.out"
  python3 - "$BATS_TEST_TMPDIR/a.out" "$BATS_TEST_TMPDIR/h.out" <<'PY'
import json, sys
A = [json.loads(l) for l in open(sys.argv[1])]
B = [json.loads(l) for l in open(sys.argv[2])]
assert len(A) == len(B) == 3
def flat(x): return sum((flat(y) for y in x), []) if isinstance(x, list) else [x]
for a, b in zip(A, B):
    for k in ("H0", "H0m", "Hm"):
        x, y = flat(a[k]), flat(b[k])
        assert len(x) == len(y) and max(abs(u - v) for u, v in zip(x, y)) <= 1e-12, (k, x, y)
PY
}

@test "automass: a missing <inertia> names --automass; an open, inside-out, missing or other mesh is refused by name" {
  meshes "$BATS_TEST_TMPDIR" 0
  f=$(geom_urdf open.urdf '<inertial><mass value="1"/></inertial>' \
      '<collision><geometry><mesh filename="open.stl"/></geometry></collision>')
  bad "$f" "urdf2robot: $f:3: link 'a': <inertial> without <inertia> (--automass gives it its collision shapes' inertia)"
  run --separate-stderr urdf2robot --automass "$f"
  [ "$status" -eq 1 ]
  [ "$stderr" = "urdf2robot: $f:3: link 'a': automass: mesh 'open.stl' is not closed (an edge is not shared by exactly two triangles that agree on their orientation)" ]
  # a link of mass 1 whose one collision shape is mesh M, refused with E (after 'FILE:'):
  # refused NAME M E
  refused() {
    f=$(geom_urdf "$1.urdf" '<inertial><mass value="1"/></inertial>' \
        "<collision><geometry><mesh filename=\"$2\"/></geometry></collision>")
    run --separate-stderr urdf2robot --automass "$f"
    [ "$status" -eq 1 ]
    [ "$stderr" = "urdf2robot: $f:$3" ]
  }
  refused inside inside.stl "3: link 'a': automass: mesh 'inside.stl' has no positive volume (its triangles face inwards)"
  refused gone gone.stl "3: link 'a': automass: mesh 'gone.stl' was not found"
  refused obj x.obj "4: link 'a': mesh 'x.obj': not a mesh Assimp reads (OBJ-file is too small.)"
  refused fmt x.notamesh "3: link 'a': automass: mesh 'x.notamesh' is not of a format that is read"
  # no mass and no density; no collision geometry where <inertia> is missing
  f=$(geom_urdf nomass.urdf '' '<collision><geometry><sphere radius="1"/></geometry></collision>')
  run --separate-stderr urdf2robot --automass "$f"
  [ "$status" -eq 1 ]
  [ "$stderr" = "urdf2robot: $f:3: link 'a': automass: no <mass> and no density given" ]
  f=$(geom_urdf nogeom.urdf '<inertial><mass value="1"/></inertial>' '<visual><geometry><sphere radius="1"/></geometry></visual>')
  run --separate-stderr urdf2robot --automass "$f"
  [ "$status" -eq 1 ]
  [ "$stderr" = "urdf2robot: $f:3: link 'a': <inertial> without <inertia>, and no collision geometry to give it one" ]
  # usage
  run --separate-stderr urdf2robot --density 5 "$f"
  [ "$status" -eq 2 ]
  [[ "$stderr" == *"--density is for --automass"* ]]
  run --separate-stderr urdf2robot --automass --density -1 "$f"
  [ "$status" -eq 2 ]
  run --separate-stderr urdf2robot --automass=some "$f"
  [ "$status" -eq 2 ]
}

@test "automass: a sphere of radius 0 (a point) adds nothing; a link of points only is refused when it needs an inertia, kept under =all" {
  # a box and a point: the box's mass properties, as the box alone
  f=$(geom_urdf bp.urdf '<inertial><mass value="3"/></inertial>' \
      '<collision><geometry><box size="0.3 0.5 0.7"/></geometry></collision>
    <collision><origin xyz="1 2 3"/><geometry><sphere radius="0"/></geometry></collision>')
  urdf2robot --automass "$f" > "$BATS_TEST_TMPDIR/bp.json"
  link_is "$BATS_TEST_TMPDIR/bp.json" 3 '[0, 0, 0]' '[[0.185, 0, 0], [0, 0.145, 0], [0, 0, 0.085]]' 1e-15
  # points only, and no <inertia>: nothing to divide the mass over
  f=$(geom_urdf pts.urdf '<inertial><mass value="3"/></inertial>' \
      '<collision><geometry><sphere radius="0"/></geometry></collision>
    <collision><origin xyz="1 0 0"/><geometry><sphere radius="0.0"/></geometry></collision>')
  run --separate-stderr urdf2robot --automass "$f"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "urdf2robot: $f:3: link 'a': automass: its collision shapes are points (spheres of radius 0), of no volume" ]
  # points only, with an <inertia>: =all leaves it as it is
  f=$(geom_urdf ptsi.urdf '<inertial><origin xyz="9 9 9"/><mass value="3"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>' \
      '<collision><geometry><sphere radius="0"/></geometry></collision>')
  urdf2robot --automass=all "$f" > "$BATS_TEST_TMPDIR/ptsi.json"
  link_is "$BATS_TEST_TMPDIR/ptsi.json" 3 '[9, 9, 9]' '[[1, 0, 0], [0, 1, 0], [0, 0, 1]]' 0
}

@test "automass=all replaces every link's inertia that has collision geometry; without it nothing changes" {
  f=$(geom_urdf all.urdf '<inertial><origin xyz="9 9 9"/><mass value="3"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>' \
      '<collision><geometry><box size="0.3 0.5 0.7"/></geometry></collision>')
  urdf2robot --automass=all "$f" > "$BATS_TEST_TMPDIR/all.json"
  link_is "$BATS_TEST_TMPDIR/all.json" 3 '[0, 0, 0]' '[[0.185, 0, 0], [0, 0.145, 0], [0, 0, 0.085]]' 1e-15
  urdf2robot --automass "$f" > "$BATS_TEST_TMPDIR/some.json"
  link_is "$BATS_TEST_TMPDIR/some.json" 3 '[9, 9, 9]' '[[1, 0, 0], [0, 1, 0], [0, 0, 1]]' 0
  # the base (no collision geometry) keeps its own
  check "$BATS_TEST_TMPDIR/all.json" 'd["base_link"]["mass"] == 1'
}

@test "meshes: STL read relative to the URDF or through package:// (--package-path, ROS_PACKAGE_PATH); others kept as references" {
  mkdir -p "$BATS_TEST_TMPDIR/pk/share/mybot/meshes" "$BATS_TEST_TMPDIR/other"
  meshes "$BATS_TEST_TMPDIR/pk/share/mybot/meshes" 1
  f=$(geom_urdf pkg.urdf '' '<visual><geometry><mesh filename="package://mybot/meshes/ico.stl" scale="2 2 2"/></geometry></visual>
    <visual><geometry><mesh filename="package://mybot/meshes/x.notamesh"/></geometry></visual>
    <visual><geometry><mesh filename="package://mybot/meshes/none.stl"/></geometry></visual>')
  mv "$f" "$BATS_TEST_TMPDIR/other/"
  f="$BATS_TEST_TMPDIR/other/pkg.urdf"
  run urdf2robot --summary "$f"
  [ "$status" -eq 0 ]
  [[ "$output" == *"'package://mybot/meshes/x.notamesh' at (0, 0, 0): not read (a format Assimp does not know), kept as a reference"* ]]
  [[ "$output" == *"warning: 2 mesh files not found (2 shapes kept as references): 'package://mybot/meshes/ico.stl', 'package://mybot/meshes/none.stl'; --package-path DIR"* ]]
  # the package's directory, or a directory that holds it
  for dir in "$BATS_TEST_TMPDIR/pk/share" "$BATS_TEST_TMPDIR/pk/share/mybot"; do
    run urdf2robot --summary --package-path "$dir" "$f"
    [[ "$output" == *"'package://mybot/meshes/ico.stl' scale 2 2 2 at (0, 0, 0): read"* ]]
    [[ "$output" == *"warning: 1 mesh file not found (1 shape kept as a reference): 'package://mybot/meshes/none.stl'; --package-path DIR"* ]]
  done
  ROS_PACKAGE_PATH="/nonexistent:$BATS_TEST_TMPDIR/pk/share" urdf2robot "$f" > "$BATS_TEST_TMPDIR/p.json"
  check "$BATS_TEST_TMPDIR/p.json" '[s["mesh"] for s in d["shapes"]] == ["read", "format", "missing"]'
  check "$BATS_TEST_TMPDIR/p.json" 'close(d["shapes"][0]["bounds"], [[-2, -2, -2], [2, 2, 2]], 1e-7)'
  # a relative name is relative to the URDF, wherever urdf2robot runs
  f=$(geom_urdf rel.urdf '' '<visual><geometry><mesh filename="pk/share/mybot/meshes/cube.stl"/></geometry></visual>')
  (cd / && urdf2robot "$f") > "$BATS_TEST_TMPDIR/r.json"
  check "$BATS_TEST_TMPDIR/r.json" 'd["shapes"][0]["mesh"] == "read" and d["shapes"][0]["bounds"] == [[-1, -1, -1], [1, 1, 1]]'
  # a broken STL is bad data, named
  printf 'solid x\n facet normal 0 0 0\n outer loop\n vertex 0 0 0\n vertex 1 0 0\n endloop\n' > "$BATS_TEST_TMPDIR/pk/share/mybot/meshes/cube.stl"
  run --separate-stderr urdf2robot "$f"
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"link 'a': mesh 'pk/share/mybot/meshes/cube.stl': not a mesh Assimp reads (STL: "* ]]
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
