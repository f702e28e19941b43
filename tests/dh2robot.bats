#!/usr/bin/env bats
# dh2robot: DH descriptions to models, checked against the same robots written as URDF by an
# independent path (tests/dh2urdf.py); the drive train against hand-computed values.
load helper

check() {
  python3 -c "import sys; sys.path.insert(0, '$BATS_TEST_DIRNAME')
from spartcheck import *
import json, math, random, subprocess
$1"
}

# every command's outputs on the two models, at random states, to 1e-9: same_outputs A B [OPTS]
same_outputs() {
  check '
a, b, opts = "'"$1"'", "'"$2"'", "'"${3:-}"'".split()
n = json.loads(subprocess.run(["dh2robot", a], capture_output=True, text=True, check=True).stdout)["n_q"]
random.seed(7)
for trial in range(4):
    st = {"qm": [random.uniform(-2, 2) for _ in range(n)], "um": [random.uniform(-1, 1) for _ in range(n)],
          "umdot": [random.uniform(-1, 1) for _ in range(n)], "taum": [random.uniform(-1, 1) for _ in range(n)],
          "u0": [random.uniform(-1, 1) for _ in range(6)], "u0dot": [random.uniform(-1, 1) for _ in range(6)],
          "tau0": [random.uniform(-1, 1) for _ in range(6)], "r0": [0.1, -0.2, 0.3]}
    base = dict(st)
    if "--fixed-base" in opts:
        base = {k: v for k, v in st.items() if k not in ("u0", "u0dot")}
    for cmd, s in [(["spart-kin"], st), (["spart-jac", "--link", str(n), "--dot"], st),
                   (["spart-jac", "--noc"], st), (["spart-gim", "--coriolis"] + opts, base),
                   (["spart-fd", "--gravity", "0,0,-9.81"] + opts, base),
                   (["spart-id", "--gravity", "0,0,-9.81"] + opts, base)]:
        if "--fixed-base" in opts and cmd[0] in ("spart-kin", "spart-jac"):
            s = base
        x = run(cmd + ["-m", a], s)[0]
        y = run(cmd + ["-m", b], s)[0]
        assert list(x) == list(y), (cmd, list(x), list(y))
        for k in x:
            close(x[k], y[k], 1e-9, " ".join(cmd) + " " + k)
'
}

@test "SPART's DH structure: SPART's numbering and names (DH_Serial2robot)" {
  run dh2robot "$MODELS/spart_tutorial.dh.json"
  [ "$status" -eq 0 ]
  check '
m = json.loads("""'"$output"'""")
assert m["n_q"] == 5 and m["n_links_joints"] == 5, m
assert m["base_link"]["name"] == "Base" and m["base_link"]["mass"] == 20
assert [l["name"] for l in m["links"]] == ["L1", "L2", "L3", "L4", "L5"]
assert [j["name"] for j in m["joints"]] == ["J1", "J2", "J3", "J4", "J5"]
assert [j["q_id"] for j in m["joints"]] == [1, 2, 3, 4, 5]
assert [j["parent_link"] for j in m["joints"]] == [0, 1, 2, 3, 4]
assert all(j["axis"] == [0, 0, 1] for j in m["joints"])
assert m["joints"][0]["T"] == [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0.05], [0, 0, 0, 1]]
# joint 2 sits b1 = (0, L1/2, 0) from link 1 CoM, in link 1 frame
assert m["joints"][1]["T"] == [[1, 0, 0, 0], [0, 1, 0, 0.0625], [0, 0, 1, 0], [0, 0, 0, 1]]
'
}

@test "SPART's DH structure: every command equals the same robot written as URDF (1e-9)" {
  python3 "$BATS_TEST_DIRNAME/dh2urdf.py" "$MODELS/spart_tutorial.dh.json" > "$BATS_TEST_TMPDIR/t.urdf"
  same_outputs "$MODELS/spart_tutorial.dh.json" "$BATS_TEST_TMPDIR/t.urdf"
}

@test "a Toolbox standard DH table (puma560, without its drive train) equals its URDF (1e-9)" {
  python3 - "$MODELS/puma560.dh.json" > "$BATS_TEST_TMPDIR/bare.json" <<'PY'
import json, sys
dh = json.load(open(sys.argv[1]))
for l in dh["links"]:
    for k in ("Jm", "B", "Tc", "G"):
        l.pop(k)
dh["base"] = {"mass": 10, "I": [1, 2, 3]}  # floating: a massless base would spin freely about z1
print(json.dumps(dh))
PY
  python3 "$BATS_TEST_DIRNAME/dh2urdf.py" "$BATS_TEST_TMPDIR/bare.json" > "$BATS_TEST_TMPDIR/p.urdf"
  same_outputs "$BATS_TEST_TMPDIR/bare.json" "$BATS_TEST_TMPDIR/p.urdf" --fixed-base
  same_outputs "$BATS_TEST_TMPDIR/bare.json" "$BATS_TEST_TMPDIR/p.urdf"
}

@test "a Toolbox modified DH table with offset, flip, a prismatic joint and a base frame equals its URDF" {
  cat > "$BATS_TEST_TMPDIR/mod.json" <<'EOF'
{"dh": "modified", "base": {"T": [[0, -1, 0, 0.1], [1, 0, 0, 0], [0, 0, 1, 0.2], [0, 0, 0, 1]],
  "mass": 5, "I": [0.1, 0.2, 0.3]},
 "links": [
  {"d": 0.3, "a": 0, "alpha": 0, "offset": 0.4, "m": 2, "r": [0.1, 0.02, -0.03], "I": [0.02, 0.03, 0.04, 0.001, 0.002, 0.003]},
  {"type": "prismatic", "theta": -0.5, "a": 0.25, "alpha": -1.5707963267948966, "offset": 0.1, "m": 1.5, "r": [0, 0.1, 0.05],
   "I": [[0.05, 0.001, 0], [0.001, 0.04, 0.002], [0, 0.002, 0.03]]},
  {"d": 0.05, "a": 0.4, "alpha": 1.2, "flip": true, "m": 1, "r": [0.2, 0, 0], "I": [0.01, 0.02, 0.02]}
 ]}
EOF
  python3 "$BATS_TEST_DIRNAME/dh2urdf.py" "$BATS_TEST_TMPDIR/mod.json" > "$BATS_TEST_TMPDIR/mod.urdf"
  same_outputs "$BATS_TEST_TMPDIR/mod.json" "$BATS_TEST_TMPDIR/mod.urdf"
  # the same table read as standard DH is another robot
  sed 's/"modified"/"standard"/' "$BATS_TEST_TMPDIR/mod.json" > "$BATS_TEST_TMPDIR/std.json"
  python3 "$BATS_TEST_DIRNAME/dh2urdf.py" "$BATS_TEST_TMPDIR/std.json" > "$BATS_TEST_TMPDIR/std.urdf"
  same_outputs "$BATS_TEST_TMPDIR/std.json" "$BATS_TEST_TMPDIR/std.urdf"
  run ! same_outputs "$BATS_TEST_TMPDIR/std.json" "$BATS_TEST_TMPDIR/mod.urdf"
}

@test "armature: H is the rigid H plus G^2 Jm on its diagonal, by the published puma560 values" {
  python3 - "$MODELS/puma560.dh.json" > "$BATS_TEST_TMPDIR/bare.json" <<'PY'
import json, sys
dh = json.load(open(sys.argv[1]))
for l in dh["links"]:
    l.pop("Jm")
print(json.dumps(dh))
PY
  check '
st = {"qm": [0.1, -0.4, 0.7, 0.2, -0.3, 1.1]}
h = run(["spart-gim", "--fixed-base", "-m", "'"$MODELS"'/puma560.dh.json"], st)[0]["Hm"]
r = run(["spart-gim", "--fixed-base", "-m", "'"$BATS_TEST_TMPDIR"'/bare.json"], st)[0]["Hm"]
# G^2 Jm by hand: the Toolbox reflected motor inertias
arm = [62.6111**2 * 200e-6, 107.815**2 * 200e-6, 53.7063**2 * 200e-6, 76.0364**2 * 33e-6,
       71.923**2 * 33e-6, 76.686**2 * 33e-6]
for i in range(6):
    for j in range(6):
        close([h[i][j] - r[i][j]], [arm[i] if i == j else 0], 1e-12, f"H[{i}][{j}]")
'
}

@test "friction and armature: a one-joint arm's torque by hand, each sign of qd, --no-friction" {
  cat > "$BATS_TEST_TMPDIR/p.json" <<'EOF'
{"dh": "standard", "links": [{"a": 0, "m": 2, "r": [0.5, 0, 0], "I": [0.01, 0.02, 0.03],
  "Jm": 0.001, "G": -10, "B": 0.002, "Tc": [0.3, -0.4]}]}
EOF
  check '
m = "'"$BATS_TEST_TMPDIR"'/p.json"
for q, qd, qdd in [(0.3, 2.0, 1.5), (-1.1, -0.5, -2.0), (2.0, 0.0, 0.7)]:
    st = {"qm": [q], "um": [qd], "umdot": [qdd]}
    # (Izz + m l^2 + G^2 Jm) qdd + G^2 B qd + |G| Tc(sign qd) + m g l cos q, gravity -y
    coulomb = 10 * (0.3 if qd > 0 else -0.4 if qd < 0 else 0)
    rigid = (0.03 + 2 * 0.25 + 100 * 0.001) * qdd + 2 * 9.81 * 0.5 * math.cos(q)
    want = rigid + 100 * 0.002 * qd + coulomb
    for base in (["--fixed-base"], []):
        out = run(["spart-id", "-m", m, "--gravity", "0,-9.81,0"] + base, st)[0]
        close(out["taum"], [want], 1e-12, f"taum at qd {qd} {base}")
        out = run(["spart-id", "-m", m, "--gravity", "0,-9.81,0", "--no-friction"] + base, st)[0]
        close(out["taum"], [rigid], 1e-12, f"taum --no-friction at qd {qd} {base}")
    st = {"qm": [q], "um": [qd], "taum": [want]}
    out = run(["spart-fd", "-m", m, "--gravity", "0,-9.81,0", "--fixed-base"], st)[0]
    close(out["umdot"], [qdd], 1e-12, f"FD umdot at qd {qd}")
'
}

@test "FD inverts ID with the drive train on: puma560 fixed and floating, SPART tutorial with friction" {
  python3 - "$MODELS/spart_tutorial.dh.json" > "$BATS_TEST_TMPDIR/tut.json" <<'PY'
import json, sys
dh = json.load(open(sys.argv[1]))
for i, l in enumerate(dh["man"]):
    l.update(Jm=1e-4 * (i + 1), G=50 + i, B=1e-4, Tc=[0.01 * i, -0.02])
print(json.dumps(dh))
PY
  check '
random.seed(3)
for m, n, opts in [("'"$MODELS"'/puma560.dh.json", 6, ["--fixed-base"]),
                   ("'"$MODELS"'/puma560.dh.json", 6, []),
                   ("'"$BATS_TEST_TMPDIR"'/tut.json", 5, [])]:
    for trial in range(5):
        st = {"qm": [random.uniform(-2, 2) for _ in range(n)], "um": [random.uniform(-1, 1) for _ in range(n)],
              "umdot": [random.uniform(-1, 1) for _ in range(n)]}
        if not opts:
            st["u0"] = [random.uniform(-1, 1) for _ in range(6)]
        g = ["--gravity", "0,0,-9.81"]
        if opts:
            tau = run(["spart-id", "-m", m] + g + opts, st)[0]
            fd = run(["spart-fd", "-m", m] + g + opts, dict(st, taum=tau["taum"]))[0]
        else:
            tau = run(["spart-id", "-m", m, "--floating"] + g, st)[0]
            fd = run(["spart-fd", "-m", m] + g, dict(st, taum=tau["taum"]))[0]
            close(fd["u0dot"], tau["u0dot"], 1e-9, "u0dot")
        close(fd["umdot"], st["umdot"], 1e-9, f"umdot {m} {opts}")
'
}

@test "URDF <dynamics damping friction>: ID adds damping qd + friction sign(qd), FD takes it off" {
  sed 's|<dynamics damping="0.5"/>|<dynamics damping="0.5" friction="0.2"/>|' \
    "$MODELS/kuka_iiwa.urdf" > "$BATS_TEST_TMPDIR/k.urdf"
  check '
m = "'"$BATS_TEST_TMPDIR"'/k.urdf"
st = {"qm": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7], "um": [1, 0, -1, 0.5, 2, 0, -0.1],
      "umdot": [3, 2, 1, 0, -1, -2, -3]}
a = run(["spart-id", "-m", m, "--fixed-base"], st)[0]["taum"]
b = run(["spart-id", "-m", m, "--fixed-base", "--no-friction"], st)[0]["taum"]
want = [0.5 * v + (0.2 if v > 0 else -0.2 if v < 0 else 0) for v in st["um"]]
close([x - y for x, y in zip(a, b)], want, 1e-12, "friction")
fd = run(["spart-fd", "-m", m, "--fixed-base"], dict(st, taum=a))[0]
close(fd["umdot"], st["umdot"], 1e-9, "umdot")
'
}

@test "limits and the drive train are kept in the model JSON and shown by --summary" {
  run urdf2robot --summary "$MODELS/kuka_iiwa.urdf"
  [ "$status" -eq 0 ]
  [[ "${lines[2]}" == *"q 1 limits -2.96706 2.96706 effort 300 velocity 10 damping 0.5" ]]
  run dh2robot --summary "$MODELS/puma560.dh.json"
  [ "$status" -eq 0 ]
  [[ "${lines[2]}" == *"q 1 limits -2.79253 2.79253 armature 0.78403 damping 5.80182 friction 24.7314 -27.2358" ]]
  dh2robot "$MODELS/puma560.dh.json" > "$BATS_TEST_TMPDIR/p.json"
  run urdf2robot "$BATS_TEST_TMPDIR/p.json"
  [ "$output" = "$(cat "$BATS_TEST_TMPDIR/p.json")" ]
  check '
j = json.load(open("'"$BATS_TEST_TMPDIR"'/p.json"))["joints"][1]
close([j["armature"], j["damping"]], [107.815**2 * 200e-6, 107.815**2 * 0.817e-3], 1e-15, "J2")
close(j["friction"], [107.815 * 0.126, -107.815 * 0.071], 1e-15, "J2 friction")
close(j["limit"], [-math.pi / 4, 5 * math.pi / 4], 1e-15, "J2 limit")
'
}

@test "dh2robot: bad DH descriptions get one line naming the field, exit 1" {
  bad() {
    printf '%s\n' "$1" > "$BATS_TEST_TMPDIR/bad.json"
    run --separate-stderr dh2robot "$BATS_TEST_TMPDIR/bad.json"
    [ "$status" -eq 1 ] && [ -z "$output" ] && [ "${#stderr_lines[@]}" -eq 1 ] &&
      { [ "${stderr_lines[0]}" = "dh2robot: $BATS_TEST_TMPDIR/bad.json:1: $2" ] ||
        [[ "${stderr_lines[0]}" = "dh2robot: $BATS_TEST_TMPDIR/bad.json: "@(joint|link)" "* ]]; } ||
      { echo "got: $status ${stderr_lines[*]}"; return 1; }
  }
  bad '{"dh": "craig", "links": [{}]}' 'dh: expected "standard" or "modified", got a string'
  bad '{"dh": "standard", "links": []}' 'links: expected an array of at least one link, got an empty array'
  bad '{"dh": "standard", "links": [{"alpah": 1}]}' "links[0]: unknown field 'alpah'"
  bad '{"dh": "standard", "links": [{"theta": 1}]}' 'links[0].theta: the joint variable of a revolute joint: use offset'
  bad '{"dh": "standard", "links": [{"type": "prismatic", "d": 1}]}' 'links[0].d: the joint variable of a prismatic joint: use offset'
  bad '{"dh": "standard", "links": [{"type": "spherical"}]}' 'links[0].type: expected "revolute" or "prismatic", got a string'
  bad '{"dh": "standard", "links": [{"I": [1, 2]}]}' 'links[0].I: expected 3x3, 3 or 6 numbers, got 2 numbers'
  bad '{"dh": "standard", "links": [{"Tc": [-0.1, 0.1]}]}' "joint 'J1': friction -0.1 0.1 does not oppose motion: expected [>= 0, <= 0] (for qd > 0, qd < 0)"
  bad '{"dh": "standard", "links": [{"qlim": [1, -1]}]}' "joint 'J1': limits 1 > -1"
  bad '{"dh": "standard", "links": [{"m": -1}]}' "link 'L1': negative mass -1"
  bad '{"dh": "standard", "links": [{"flip": 1}]}' 'links[0].flip: expected true or false, got a number'
  bad '{"dh": "standard", "tool": [], "links": [{}]}' "unknown field 'tool' in a Toolbox DH table"
  bad '{"n": 2, "man": [{"type": 1, "DH": {"d": 0, "alpha": 0, "a": 0, "theta": 0}, "b": [0, 0, 0], "mass": 1, "I": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}], "base": {"T_L0_J1": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], "mass": 1, "I": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}}' 'n: expected 1 (the links of man), got 2'
  bad '{"n": 1, "man": [{"type": 0, "DH": {"d": 0, "alpha": 0, "a": 0, "theta": 0}, "b": [0, 0, 0], "mass": 1, "I": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}], "base": {"T_L0_J1": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], "mass": 1, "I": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}}' 'man[0].type: expected 1 (revolute) or 2 (prismatic), got 0'
  bad '{"n": 1, "man": [{"type": 1, "DH": {"d": 0, "alpha": 0, "a": 0}, "b": [0, 0, 0], "mass": 1, "I": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}], "base": {"T_L0_J1": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], "mass": 1, "I": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}}' 'man[0].DH.theta: expected a finite number, got nothing'
  bad '{"n": 1, "man": [{"type": 1, "DH": {"d": 0, "alpha": 0, "a": 0, "theta": 0}, "b": [0, 0, 0], "mass": 1, "I": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}]}' 'base: expected an object, got nothing'
}

@test "URDF <dynamics> and <limit> errors name the line" {
  bad() {
    printf '%s\n' "$1" > "$BATS_TEST_TMPDIR/bad.urdf"
    run --separate-stderr urdf2robot "$BATS_TEST_TMPDIR/bad.urdf"
    [ "$status" -eq 1 ] && [ -z "$output" ] &&
      [ "${stderr_lines[0]}" = "urdf2robot: $BATS_TEST_TMPDIR/bad.urdf:$2" ] ||
      { echo "got: $status ${stderr_lines[*]}"; return 1; }
  }
  j='<robot name="r"><link name="a"/><link name="b"/>
<joint name="j" type="revolute"><parent link="a"/><child link="b"/>'
  bad "$j"'
<dynamics damping="-1"/></joint></robot>' "3: joint 'j': dynamics: negative damping"
  bad "$j"'
<dynamics friction="x"/></joint></robot>' "3: joint 'j': dynamics friction: expected a number, got 'x'"
  bad "$j"'
<limit lower="1" upper="-1" effort="1" velocity="1"/></joint></robot>' "3: joint 'j': limit lower 1 > upper -1"
  # a continuous joint has no limits; a revolute one without lower and upper has none either
  printf '%s\n' '<robot name="r"><link name="a"/><link name="b"/><link name="c"/>
<joint name="j" type="continuous"><parent link="a"/><child link="b"/><limit lower="1" upper="-1"/></joint>
<joint name="k" type="revolute"><parent link="b"/><child link="c"/><limit effort="1" velocity="1"/></joint></robot>' \
    > "$BATS_TEST_TMPDIR/ok.urdf"
  run urdf2robot "$BATS_TEST_TMPDIR/ok.urdf"
  [ "$status" -eq 0 ]
  [[ "$output" != *'"limit"'* ]]
  # (effort and velocity limits it keeps)
  [[ "$output" == *'"effort_limit"'* ]]
}

@test "--no-friction is taken by spart-id and spart-fd only" {
  run --separate-stderr spart-gim --no-friction -m "$MODELS/kuka_iiwa.urdf"
  [ "$status" -eq 2 ]
  [ "${stderr_lines[0]}" = "spart-gim: unknown option '--no-friction'" ]
  spart-id --help | grep -q -- '--no-friction'
  spart-fd --help | grep -q -- '--no-friction'
}

@test "every example in dh2robot(1) runs, and the worked example prints what the page shows" {
  cd "$BATS_TEST_TMPDIR"
  ln -s "$TOP/models" models
  # the examples as man(1) shows them, so that what a reader copies is what runs
  mandoc -Tascii -O width=1000 "$TOP/man/dh2robot.1" | col -b > page.txt
  sed -n '/^EXAMPLES/,/^SEE ALSO/s/^[[:space:]]*\$ //p' page.txt > examples.sh
  [ "$(wc -l < examples.sh)" -eq 5 ]
  run --separate-stderr bash -e examples.sh
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  shown=$(sed -n '/^EXAMPLES/,/^SEE ALSO/p' page.txt | grep -A1 '^[[:space:]]*tau0_1,' | sed 's/^[[:space:]]*//')
  [ "$shown" = "$(tail -n 2 <<< "$output")" ]
  # and the page's sum by hand
  python3 -c "import math; v = 0.945 + 0.4 + 3 + 9.81 * math.cos(0.3); assert abs(v - ${output##*,}) < 1e-12"
  run spart-id -m arm.dh.json --fixed-base --gravity 0,-9.81,0 --no-friction <<< '{"qm": [0.3], "um": [2], "umdot": [1.5]}'
  [[ "$output" == *'"taum":[10.31685'* ]]
}

@test "dh2robot: --help, --version, usage errors, -o FORMAT, stdin, a full disk" {
  run --separate-stderr dh2robot --help
  [ "$status" -eq 0 ] && [ -z "$stderr" ]
  [ "${lines[0]}" = "Usage: dh2robot [-o json|summary|dot] [--gravity G] [--fixed-base|--floating-base] [FILE|-]" ]
  [[ "$output" == *"SPART's DH structure"*"a Toolbox table"*"--summary"*"Exit status: 0 success"* ]]
  run dh2robot --version
  [[ "$output" =~ ^dh2robot\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
  run --separate-stderr dh2robot --frobnicate
  [ "$status" -eq 2 ]
  [ "${stderr_lines[0]}" = "dh2robot: unknown option '--frobnicate'" ]
  [ "${stderr_lines[1]}" = "Try 'dh2robot --help'." ]
  # -o is the format (the output file before: refused, saying to redirect)
  run --separate-stderr dh2robot -o "$BATS_TEST_TMPDIR/p.json" - < "$MODELS/puma560.dh.json"
  [ "$status" -eq 2 ] && [ -z "$output" ]
  [ "${stderr_lines[0]}" = "dh2robot: --output: expected json, summary or dot, got '$BATS_TEST_TMPDIR/p.json': -o is the format, not a file; redirect the output instead (dh2robot ... > $BATS_TEST_TMPDIR/p.json)" ]
  [ ! -e "$BATS_TEST_TMPDIR/p.json" ]
  run -0 dh2robot -o summary - < "$MODELS/puma560.dh.json"
  [ "$output" = "$(dh2robot -s "$MODELS/puma560.dh.json")" ]
  run -0 dh2robot -o json - < "$MODELS/puma560.dh.json"
  [ "$output" = "$(dh2robot "$MODELS/puma560.dh.json")" ]
  run --separate-stderr dh2robot - <<< '{"dh": "standard", "links": [{"m": "x"}]}'
  [ "$status" -eq 1 ]
  [ "$stderr" = "dh2robot: <stdin>:1: links[0].m: expected a finite number, got a string" ]
  run --separate-stderr bash -c 'dh2robot "$1" > /dev/full' _ "$MODELS/puma560.dh.json"
  [ "$status" -eq 3 ]
  [ "$stderr" = "dh2robot: write error: No space left on device" ]
}
