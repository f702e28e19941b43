#!/usr/bin/env bats
# urdf2robot --dot (and dh2robot --dot): the kinematic tree as Graphviz.

load helper

@test "--dot writes links with masses and joints with kind, axis and q, parent -> joint -> child" {
  cat > "$BATS_TEST_TMPDIR/two.urdf" <<'EOF'
<robot name="tw&quot;o">
  <link name="base"><inertial><mass value="1.5"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <link name="arm"><inertial><mass value="0.25"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="2"/></inertial></link>
  <link name="tool"/>
  <joint name="shoulder" type="prismatic"><parent link="base"/><child link="arm"/>
    <axis xyz="0 1 0"/></joint>
  <joint name="flange" type="fixed"><parent link="arm"/><child link="tool"/></joint>
</robot>
EOF
  run -0 urdf2robot --dot "$BATS_TEST_TMPDIR/two.urdf"
  diff - <(printf '%s\n' "$output") <<'EOF'
digraph "tw\"o" {
  node [shape=box];
  L0 [label="base\nlink 0, mass 1.5"];
  L1 [label="arm\nlink 1, mass 0.25"];
  L2 [label="tool\nlink 2, mass 0"];
  J1 [shape=ellipse, label="shoulder\nprismatic\naxis 0 1 0, q 1"];
  L0 -> J1;
  J1 -> L1;
  J2 [shape=ellipse, style=dashed, label="flange\nfixed"];
  L1 -> J2;
  J2 -> L2;
}
EOF
}

@test "--dot of a branching tree has the model JSON's parents, links and joints" {
  for m in "$MODELS/branched_arm.urdf" "$MODELS/2_iiwa_base.urdf"; do
    urdf2robot --dot "$m" > "$BATS_TEST_TMPDIR/t.dot"
    urdf2robot "$m" > "$BATS_TEST_TMPDIR/t.json"
    python3 - "$BATS_TEST_TMPDIR/t.dot" "$BATS_TEST_TMPDIR/t.json" <<'PY'
import json, re, sys
dot, d = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
edges = re.findall(r"^  (\w+) -> (\w+);$", dot, re.M)
want = []
for j in d["joints"]:
    want += [("L%d" % j["parent_link"], "J%d" % j["id"]), ("J%d" % j["id"], "L%d" % j["child_link"])]
assert sorted(edges) == sorted(want), (edges, want)
labels = dict(re.findall(r'^  (\w+) \[.*label="([^"]*)"\];$', dot, re.M))
names = [d["base_link"]["name"]] + [l["name"] for l in d["links"]]
masses = [d["base_link"]["mass"]] + [l["mass"] for l in d["links"]]
for i, (n, mass) in enumerate(zip(names, masses)):
    name, rest = labels["L%d" % i].split("\\n")
    assert name == n and abs(float(rest.split("mass ")[1]) - mass) <= 1e-5 * max(1, mass), labels["L%d" % i]
for j in d["joints"]:
    lab = labels["J%d" % j["id"]].split("\\n")
    assert lab[0] == j["name"], lab
    if j["q_id"] > 0:
        assert lab[2] == "axis %s, q %d" % (" ".join("%g" % a for a in j["axis"]), j["q_id"]), lab
PY
  done
}

@test "--dot and --summary together are a usage error; dh2robot draws a DH chain" {
  run --separate-stderr urdf2robot --dot -s "$MODELS/SC_3DoF.urdf"
  [ "$status" -eq 2 ]
  [ "${stderr_lines[0]}" = "urdf2robot: --summary and --dot may not be combined" ]
  run -0 dh2robot --dot "$MODELS/puma560.dh.json"
  [ "$(grep -c ' -> ' <<< "$output")" -eq 12 ]
  run -0 urdf2robot --help
  [[ "$output" == *"--dot"* ]]
}

@test "--dot of joints of several coordinates: no axis on ball and floating joints, their q and v ranges" {
  run -0 urdf2robot --dot "$BATS_TEST_DIRNAME/data/joints/floating_tree.urdf"
  [[ "$output" == *'J2 [shape=ellipse, label="fl\nfloating\nq 2..8, v 2..7"];'* ]]
  [[ "$output" == *'J3 [shape=ellipse, label="el\nrevolute\naxis 0 1 0, q 9, v 8"];'* ]]
  run -0 urdf2robot --dot "$BATS_TEST_DIRNAME/data/joints/ball.urdf"
  [[ "$output" == *'label="sh\nball\nq 1..4, v 1..3"];'* ]]
  run -0 urdf2robot --dot "$BATS_TEST_DIRNAME/data/joints/planar.urdf"
  [[ "$output" == *'label="pl\nplanar\naxis 0 0 1, q 1..3, v 1..3"];'* ]]
}
