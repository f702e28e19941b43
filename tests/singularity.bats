#!/usr/bin/env bats
# One singularity test for spart-fd, spart-gim --inverse and spart-id --floating, relative to
# what each degree of freedom moves: a heavy station with a light mirror is inverted by all,
# a robot scaled by 1e-12 or 1e+12 (lengths, masses or both) gets the scaled answers, and a
# model that really is singular is refused by all with the same message.

load helper

# a URDF with every length times L, every mass times M: scaled SRC L M > DEST
setup_file() {
  cat > "$BATS_FILE_TMPDIR/scaled.py" <<'PY'
import re, sys
src, L, M = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
t = open(src).read()
num = lambda s, f: repr(float(s) * f)
t = re.sub(r'(<origin[^>]*?xyz=")([^"]*)"',
           lambda m: m.group(1) + " ".join(num(x, L) for x in m.group(2).split()) + '"', t)
t = re.sub(r'(<mass\s+value=")([^"]*)"', lambda m: m.group(1) + num(m.group(2), M) + '"', t)
t = re.sub(r'\b(i[xyz][xyz]=")([^"]*)"', lambda m: m.group(1) + num(m.group(2), M * L * L) + '"', t)
sys.stdout.write(t)
PY
}
scaled() { python3 "$BATS_FILE_TMPDIR/scaled.py" "$@"; }

# a 420 t station with a 0.5 kg mirror on a two-axis gimbal, 40 m from its CoM
station() {
  cat > "$BATS_TEST_TMPDIR/station.urdf" <<'EOF'
<robot name="station">
  <link name="station"><inertial><mass value="420000"/><inertia ixx="1.3e8" iyy="1.0e8" izz="2.0e8" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="yoke"><inertial><mass value="0.3"/><inertia ixx="2e-5" iyy="2e-5" izz="1e-5" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="mirror"><inertial><mass value="0.5"/><inertia ixx="4e-5" iyy="2e-5" izz="2e-5" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="az" type="revolute"><parent link="station"/><child link="yoke"/><origin xyz="40 10 5"/><axis xyz="0 0 1"/></joint>
  <joint name="el" type="revolute"><parent link="yoke"/><child link="mirror"/><origin xyz="0 0 0.02"/><axis xyz="0 1 0"/></joint>
</robot>
EOF
  printf '%s\n' "$BATS_TEST_TMPDIR/station.urdf"
}

# check that H Hinv = I, that FD gives Hinv tau and that FD(ID(udot)) = udot, for the model
# MODEL with (FIXED = 1) or without a fixed base: agree MODEL FIXED
agree() {
  python3 - "$@" <<'PY'
import json, subprocess, sys
model, fixed = sys.argv[1], sys.argv[2] == "1"
base = ["--fixed-base"] if fixed else []
def run(cmd, rec):
    p = subprocess.run(cmd + ["-m", model] + base, input=json.dumps(rec), capture_output=True,
                       text=True)
    assert p.returncode == 0 and p.stderr == "", (cmd, p.stderr)
    return json.loads(p.stdout)
q = [0.3, 0.2]
g = run(["spart-gim", "--inverse"], {"qm": q})
H, Hi = (g["Hm"], g["Hinv"]) if fixed else (g["H"], g["Hinv"])
n = len(H)
# H Hinv = I, column by column relative to the size of Hinv's column (H spans 13 decades)
for c in range(n):
    col = max(abs(Hi[k][c]) for k in range(n))
    for r in range(n):
        x = sum(H[r][k] * Hi[k][c] for k in range(n))
        scale = max(abs(H[r][k]) * col for k in range(n))
        assert abs(x - (r == c)) <= 1e-9 * max(scale, 1), ("H Hinv", r, c, x)
# spart-fd at rest, without gravity: udot = Hinv tau
tau = [3e-5, -2e-5] if fixed else [10, -20, 5, 300, -100, 200, 3e-5, -2e-5]
rec = {"qm": q, "taum": tau[-2:]}
if not fixed:
    rec["tau0"] = tau[:6]
f = run(["spart-fd"], rec)
udot = f["umdot"] if fixed else f["u0dot"] + f["umdot"]
for r in range(n):
    want = sum(Hi[r][k] * tau[k] for k in range(n))
    assert abs(udot[r] - want) <= 1e-9 * max(abs(Hi[r][k] * tau[k]) for k in range(n)), \
        ("FD = Hinv tau", r, udot[r], want)
assert abs(udot[-1]) > 0.1  # the mirror moves
# FD(ID(udot)) = udot, with velocities
want = [0.01, -0.02, 0.03, 0.1, 0.2, -0.3, 2.0, -1.5]
st = {"qm": q, "um": [0.4, -0.7], "umdot": want[6:]}
if not fixed:
    st.update({"u0": [0.001, 0.002, -0.001, 0.1, 0, 0], "u0dot": want[:6]})
i = run(["spart-id"], st)
st.update({"taum": i["taum"], "tau0": i["tau0"]})
f = run(["spart-fd"], st)
got = f["umdot"] if fixed else f["u0dot"] + f["umdot"]
for a, b in zip(got, want[6:] if fixed else want):
    assert abs(a - b) <= 1e-8 * max(1, abs(b)), ("FD(ID)", got, want)
PY
}


@test "a 420 t station with a 0.5 kg gimbal mirror is inverted by spart-gim and spart-fd alike" {
  m=$(station)
  agree "$m" 0
  agree "$m" 1
}

@test "a robot scaled by 1e-12 or 1e+12 gets the scaled answers from every inverting command" {
  run python3 - "$MODELS/kuka_iiwa.urdf" "$BATS_TEST_TMPDIR" "$BATS_FILE_TMPDIR/scaled.py" <<'PY'
import json, subprocess, sys
src, tmp, scaler = sys.argv[1:]
def run(cmd, model, rec):
    p = subprocess.run(cmd + ["-m", model], input=json.dumps(rec), capture_output=True, text=True)
    assert p.returncode == 0 and p.stderr == "", (cmd, model, p.stderr)
    return json.loads(p.stdout)
def close(a, b, what):
    top = max(abs(x) for x in b)
    for x, y in zip(a, b):
        assert abs(x - y) <= 1e-8 * top, (what, a, b)
q = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]
taum, tau0, umdot = [1, -2, 3, -1, 0.5, 0.2, -0.1], [0.3, -0.2, 0.1, 5, -3, 2], [1, 2, -1, 0.5, 3, -2, 1]
ref = {}
for L, M in [(1, 1), (1e-12, 1), (1, 1e-12), (1e-12, 1e-12), (1e12, 1), (1, 1e12), (1e12, 1e12),
             (1e-12, 1e12)]:
    model = "%s/k_%g_%g.urdf" % (tmp, L, M)
    with open(model, "w") as out:
        subprocess.run(["python3", scaler, src, str(L), str(M)], stdout=out, check=True)
    # torques M L^2, forces M L: joint and base angular accelerations are the same, the base's
    # linear ones times L; Hinv = S^-1 Hinv_1 S^-1 / M with S = L on rotations, 1 on translations
    s = [L, L, L, 1, 1, 1] + [L] * 7
    f = run(["spart-fd"], model, {"qm": q, "taum": [t * M * L * L for t in taum],
                                  "tau0": [t * M * L * (L if k < 3 else 1) for k, t in enumerate(tau0)]})
    fd = f["u0dot"][:3] + [x / L for x in f["u0dot"][3:]] + f["umdot"]
    g = run(["spart-gim", "--inverse", "--only", "Hinv"], model, {"qm": q})
    hinv = [g["Hinv"][r][c] * M * s[r] * s[c] for r in range(13) for c in range(13)]
    gf = run(["spart-gim", "--inverse", "--fixed-base", "--only", "Hinv"], model, {"qm": q})
    hinvf = [gf["Hinv"][r][c] * M * L * L for r in range(7) for c in range(7)]
    i = run(["spart-id", "--floating"], model, {"qm": q, "umdot": umdot})
    idf = [t / (M * L * L) for t in i["taum"]] + i["u0dot"][:3] + [x / L for x in i["u0dot"][3:]]
    got = {"fd": fd, "Hinv": hinv, "Hinv fixed": hinvf, "id": idf}
    if (L, M) == (1, 1):
        ref = got
    for k in got:
        close(got[k], ref[k], (k, L, M))
    print("ok", L, M)
PY
  echo "$output"
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -eq 8 ]
}

@test "a model that is really singular is refused by spart-fd and spart-gim with one message, at any scale" {
  # a massless link on a revolute joint
  cat > "$BATS_TEST_TMPDIR/tip.urdf" <<'EOF'
<robot name="tip">
  <link name="base"><inertial><mass value="10"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="arm"><inertial><origin xyz="0.5 0 0"/><mass value="2"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="tip"/>
  <joint name="j1" type="revolute"><parent link="base"/><child link="arm"/><origin xyz="0 0 1"/><axis xyz="0 0 1"/></joint>
  <joint name="j2" type="revolute"><parent link="arm"/><child link="tip"/><origin xyz="1 0 0"/><axis xyz="0 1 0"/></joint>
</robot>
EOF
  # a massless hub whose wheel turns freely on the same axis: singular only up to roundoff
  cat > "$BATS_TEST_TMPDIR/hub.urdf" <<'EOF'
<robot name="hub">
  <link name="base"><inertial><mass value="10"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="hub"/>
  <link name="wheel"><inertial><origin xyz="0.3 0.1 0.2" rpy="0.1 0.2 0.3"/><mass value="2"/><inertia ixx="0.1" iyy="0.2" izz="0.3" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="hub"/><origin xyz="0.5 0 0" rpy="0.3 0.4 0.5"/><axis xyz="0.6 0 0.8"/></joint>
  <joint name="j2" type="revolute"><parent link="hub"/><child link="wheel"/><origin xyz="0.3 0 0.4"/><axis xyz="0.6 0 0.8"/></joint>
</robot>
EOF
  for case in "tip 2" "hub 1"; do
    read -r name link <<< "$case"
    for s in "1 1" "1e-12 1" "1 1e-12" "1e12 1e12"; do
      # shellcheck disable=SC2086
      scaled "$BATS_TEST_TMPDIR/$name.urdf" $s > "$BATS_TEST_TMPDIR/m.urdf"
      for cmd in "spart-fd" "spart-fd --fixed-base" "spart-gim --inverse" \
        "spart-gim --inverse --fixed-base"; do
        # shellcheck disable=SC2086
        run --separate-stderr $cmd -m "$BATS_TEST_TMPDIR/m.urdf" <<< '{"qm": [0.2, 0.3]}'
        echo "$name $s $cmd: $status ${output:0:100} $stderr"
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [ "$stderr" = "${cmd%% *}: <stdin>:1: singular inertia at link $link: joint $link can move without moving any mass" ]
      done
    done
  done
}

@test "a base without inertia about a line is refused at link 0 by spart-fd, spart-gim and spart-id" {
  # two point masses: no inertia about the line through them, whatever the frames say
  cat > "$BATS_TEST_TMPDIR/line.urdf" <<'EOF'
<robot name="line">
  <link name="base"><inertial><mass value="1"/>
    <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
  <link name="tip"><inertial><origin xyz="0.1 0 0" rpy="0.3 0.2 0.1"/><mass value="1"/>
    <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
  <joint name="j" type="fixed">
    <parent link="base"/><child link="tip"/><origin xyz="0.7 0 0" rpy="0.1 0.5 0.7"/>
  </joint>
</robot>
EOF
  for s in "1 1" "1e-12 1e12" "1e12 1e-12"; do
    # shellcheck disable=SC2086
    scaled "$BATS_TEST_TMPDIR/line.urdf" $s > "$BATS_TEST_TMPDIR/m.urdf"
    for cmd in "spart-fd" "spart-gim --inverse" "spart-id --floating"; do
      # shellcheck disable=SC2086
      run --separate-stderr $cmd -m "$BATS_TEST_TMPDIR/m.urdf" <<< '{"tau0": [1, 0, 0, 0, 0, 0], "r0": [0, 0, 0]}'
      echo "$s $cmd: $status ${output:0:100} $stderr"
      [ "$status" -eq 1 ]
      [ -z "$output" ]
      [ "$stderr" = "${cmd%% *}: <stdin>:1: singular inertia at link 0: the base can move without moving any mass" ]
    done
  done
}
