#!/usr/bin/env bats
# spart-gim: inertia matrices against inverse dynamics, Klampt-style extras.

load helper

check() { PYTHONPATH="$BATS_TEST_DIRNAME" python3 -c "from spartcheck import *; $1"; }

@test "column k of H is spart-id at udot = e_k with no velocity" {
  check '
m = "'"$MODELS"'/branched_arm.urdf"
q = [0.3, -0.5, 0.7, 0.2, 0.1, -0.4]
H = run(["spart-gim", "-m", m], {"qm": q})[0]["H"]
for k in range(12):
    ud = [0.0] * 12
    ud[k] = 1.0
    tau = run(["spart-id", "-m", m], {"qm": q, "u0dot": ud[:6], "umdot": ud[6:]})[0]
    close(tau["tau0"] + tau["taum"], [row[k] for row in H], 1e-12, f"column {k}")
'
}

@test "H is symmetric and Hinv is its inverse" {
  check '
m = "'"$MODELS"'/2_iiwa_base.urdf"
out = run(["spart-gim", "-m", m, "--inverse"], {"qm": [0.1 * k for k in range(14)]})[0]
H, Hi = out["H"], out["Hinv"]
close(H, [list(r) for r in zip(*H)], 0, "symmetry")
close(matmul(H, Hi), [[float(i == j) for j in range(20)] for i in range(20)], 1e-10, "H Hinv")
'
}

@test "--coriolis is C u and --gravity is the torque that holds the weight" {
  check '
m = "'"$MODELS"'/branched_arm.urdf"
st = {"qm": [0.3, -0.5, 0.7, 0.2, 0.1, -0.4], "u0": [0.1, -0.2, 0.3, 0.4, 0.5, -0.6],
      "um": [1, -1, 0.5, 0.2, -0.3, 0.7]}
out = run(["spart-gim", "-m", m, "--coriolis", "--gravity", "0,0,-9.81"], st)[0]
u = st["u0"] + st["um"]
close(out["Cu"], matvec(out["C"], u), 1e-12, "Cu = C u")
tau = run(["spart-id", "-m", m, "--gravity", "0,0,-9.81"], {"qm": st["qm"]})[0]
close(out["G"], tau["tau0"] + tau["taum"], 1e-12, "G")
'
}

@test "--fixed-base writes the joint blocks only" {
  run --separate-stderr spart-gim -m "$MODELS/kuka_iiwa.urdf" --fixed-base --inverse <<< '{"qm": [0, 0, 0, 0, 0, 0, 0], "um": [1,0,0,0,0,0,0]}'
  [ "$status" -eq 0 ]
  check '
import json
out = json.loads("""'"$output"'""")
assert sorted(out) == ["Cm", "Hinv", "Hm"], sorted(out)
assert len(out["Hm"]) == 7 and len(out["Hm"][0]) == 7
close(matmul(out["Hm"], out["Hinv"]), [[float(i == j) for j in range(7)] for i in range(7)], 1e-10)
'
}

@test "C is written only when the record gives velocities" {
  run --separate-stderr spart-gim -m "$MODELS/SC_3DoF.urdf" <<< $'{"qm": [0, 0, 0]}\n{"qm": [0, 0, 0], "um": [0, 1, 0]}'
  [ "$status" -eq 0 ]
  [[ "${lines[0]}" != *'"C"'* ]]
  [[ "${lines[1]}" == *'"C0":'*'"C":'* ]]
}

@test "a fixed base with no moving joint: JSON gives empty matrices, CSV (no columns) is refused" {
  printf '<robot name="b"><link name="a"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link></robot>\n' \
    > "$BATS_TEST_TMPDIR/base.urdf"
  run --separate-stderr spart-gim -m "$BATS_TEST_TMPDIR/base.urdf" --fixed-base <<< '{"r0": [0, 0, 0]}'
  [ "$status" -eq 0 ]
  [ "$output" = '{"Hm":[]}' ]
  for c in spart-gim spart-fd; do
    run --separate-stderr "$c" -m "$BATS_TEST_TMPDIR/base.urdf" --fixed-base -o csv <<< '{"r0": [0, 0, 0]}'
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [ "$stderr" = "$c: <stdin>:1: no values to write as CSV (no moving joint, or --only names none written): use -o json" ]
  done
  # a pass-through column is something to write (beside a state column: one there must be)
  run spart-fd -m "$BATS_TEST_TMPDIR/base.urdf" --fixed-base -o csv <<< $'time,r0_1,r0_2,r0_3\n1.5,0,0,0'
  [ "$status" -eq 0 ]
  [ "$output" = $'time\n1.5' ]
}
