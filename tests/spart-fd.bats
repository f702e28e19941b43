#!/usr/bin/env bats
# spart-fd: forward dynamics inverts spart-id, on every kind of base.

load helper

check() { PYTHONPATH="$BATS_TEST_DIRNAME" python3 -c "from spartcheck import *; $1"; }

@test "spart-fd on the forces of spart-id gives back the accelerations (floating base, forking tree)" {
  check '
m = "'"$MODELS"'/branched_arm.urdf"
st = {"qm": [0.3, -0.5, 0.7, 0.2, 0.1, -0.4], "u0": [0.1, -0.2, 0.3, 0.4, 0.5, -0.6],
      "um": [1, -1, 0.5, 0.2, -0.3, 0.7], "u0dot": [1, 2, 3, -1, -2, -3],
      "umdot": [0.5, -0.5, 1, 2, -1, 0.3], "wFm": [[0.1 * k] * 6 for k in range(7)]}
tau = run(["spart-id", "-m", m, "--gravity", "0,0,-9.81"], st)[0]
ins = dict(st, tau0=tau["tau0"], taum=tau["taum"])
del ins["u0dot"], ins["umdot"]
acc = run(["spart-fd", "-m", m, "--gravity", "0,0,-9.81"], ins)[0]
close(acc["u0dot"], st["u0dot"], 1e-10, "u0dot")
close(acc["umdot"], st["umdot"], 1e-10, "umdot")
'
}

@test "spart-fd --fixed-base inverts spart-id --fixed-base and writes umdot only" {
  check '
m = "'"$MODELS"'/kuka_iiwa.urdf"
st = {"qm": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7], "um": [1, 0, -1, 0, 1, 0, -1],
      "umdot": [3, 2, 1, 0, -1, -2, -3]}
tau = run(["spart-id", "-m", m, "--fixed-base", "--gravity", "0,0,-9.81"], st)[0]
acc = run(["spart-fd", "-m", m, "--fixed-base", "--gravity", "0,0,-9.81"],
          {"qm": st["qm"], "um": st["um"], "taum": tau["taum"]})[0]
assert sorted(acc) == ["umdot"], sorted(acc)
close(acc["umdot"], st["umdot"], 1e-10, "umdot")
'
}

@test "spart-fd --fixed-base refuses a moving base" {
  run --separate-stderr spart-fd -m "$MODELS/kuka_iiwa.urdf" --fixed-base <<< '{"qm": [0, 0, 0, 0, 0, 0, 0], "u0": [0, 0, 1, 0, 0, 0]}'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-fd: <stdin>:1: --fixed-base: u0 and u0dot must be zero" ]
}

@test "a massless subtree on a moving joint is reported as singular, not written as NaN" {
  cat > "$BATS_TEST_TMPDIR/m.urdf" <<'URDF'
<robot name="r"><link name="b"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
<joint name="j" type="revolute"><parent link="b"/><child link="l"/><axis xyz="0 0 1"/></joint><link name="l"/></robot>
URDF
  run --separate-stderr spart-fd -m "$BATS_TEST_TMPDIR/m.urdf" <<< '{"qm": [0], "taum": [1]}'
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "spart-fd: <stdin>:1: singular inertia at link 1: joint 1 can move without moving any mass" ]
}
