#!/usr/bin/env bats
# spart-id: flying, floating and fixed bases.

load helper

check() { PYTHONPATH="$BATS_TEST_DIRNAME" python3 -c "from spartcheck import *; $1"; }

@test "--floating gives the base acceleration at which the base needs no force" {
  check '
m = "'"$MODELS"'/2_iiwa_base.urdf"
st = {"qm": [0.1 * k for k in range(14)], "um": [0.2] * 14, "umdot": [1, -1] * 7,
      "u0": [0.1, 0.2, 0.3, 0, 0, 0]}
fl = run(["spart-id", "-m", m, "--floating"], st)[0]
assert sorted(fl) == ["taum", "u0dot"], sorted(fl)
fly = run(["spart-id", "-m", m], dict(st, u0dot=fl["u0dot"]))[0]
close(fly["tau0"], [0] * 6, 1e-10, "tau0")
close(fly["taum"], fl["taum"], 1e-12, "taum")
'
}

@test "--fixed-base torques are Hm umdot + Cm um + G + the URDF's damping 0.5 um" {
  check '
m = "'"$MODELS"'/kuka_iiwa.urdf"
st = {"qm": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7], "um": [1, 0, -1, 0, 1, 0, -1],
      "umdot": [3, 2, 1, 0, -1, -2, -3]}
tau = run(["spart-id", "-m", m, "--fixed-base", "--gravity", "0,0,-9.81"], st)[0]
g = run(["spart-gim", "-m", m, "--fixed-base", "--gravity", "0,0,-9.81"],
        {"qm": st["qm"], "um": st["um"]})[0]
want = [a + b + c + 0.5 * d for a, b, c, d in
        zip(matvec(g["Hm"], st["umdot"]), matvec(g["Cm"], st["um"]), g["G"], st["um"])]
close(tau["taum"], want, 1e-10, "taum")
'
}

@test "--floating and --fixed-base together are a usage error" {
  run --separate-stderr spart-id --floating --fixed-base -m "$MODELS/kuka_iiwa.urdf"
  [ "$status" -eq 2 ]
  [ "${stderr_lines[0]}" = "spart-id: --floating and --fixed-base may not be combined" ]
}

@test "a field given by some of its CSV columns only is refused" {
  printf 'qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7,umdot_3\n0,0,0,0,0,0,0,2\n' |
    { run --separate-stderr spart-id -m "$MODELS/kuka_iiwa.urdf";
      [ "$status" -eq 1 ]
      [ "$stderr" = "spart-id: <stdin>:1: umdot has 1 columns, model needs 7: no column umdot_1, umdot_2, umdot_4 and 3 more" ]; }
}

@test "CSV in, CSV out: the time column passes through and values equal JSON mode" {
  printf 'time,qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7,umdot_1,umdot_2,umdot_3,umdot_4,umdot_5,umdot_6,umdot_7\n0.5,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0,0,2,0,0,0,0\n' |
    { run --separate-stderr spart-id -m "$MODELS/kuka_iiwa.urdf" -o csv;
      [ "$status" -eq 0 ]
      [ "${lines[0]}" = "time,tau0_1,tau0_2,tau0_3,tau0_4,tau0_5,tau0_6,taum_1,taum_2,taum_3,taum_4,taum_5,taum_6,taum_7" ]
      [[ "${lines[1]}" == 0.5,* ]]
      json=$(spart-id -m "$MODELS/kuka_iiwa.urdf" -o csv <<< '{"qm": [0.1,0.2,0.3,0.4,0.5,0.6,0.7], "umdot": [0,0,2,0,0,0,0]}')
      [ "0.5,$(sed -n 2p <<< "$json")" = "${lines[1]}" ]; }
}

@test "--joint-wrenches: S'w = taum (1e-12), each link's Newton-Euler balance and the base's tau0 (1e-9), from spart-kin's outputs" {
  J="$BATS_TEST_DIRNAME/data/joints"
  urdf2robot --revolute sincos "$J/ball_chain.urdf" > "$BATS_TEST_TMPDIR/sc.json"
  urdf2robot --floating spquat "$J/floating_tree.urdf" > "$BATS_TEST_TMPDIR/sp.json"
  for m in "$MODELS/kuka_iiwa.urdf" "$MODELS/2_iiwa_base.urdf" "$MODELS/branched_arm.urdf" \
      "$MODELS/box_slider.urdf" "$J/floating_tree.urdf" "$J/ball.urdf" "$J/planar.urdf" \
      "$BATS_TEST_TMPDIR/sc.json" "$BATS_TEST_TMPDIR/sp.json"; do
    for fb in "" --fixed-base; do
      run python3 "$BATS_TEST_DIRNAME/wrenchcheck.py" "$m" $fb
      echo "$output"
      [ "$status" -eq 0 ]
    done
  done
}

@test "--joint-wrenches: n x 6 in CSV as joint_wrenches_i_k; taum the same bits with and without it, in pairs, one by one and with -j 2" {
  m="$MODELS/kuka_iiwa.urdf"
  for k in 1 2 3 4 5; do
    echo "{\"qm\": [0.$k, 0.5, 0, -1, 0, 0.5, 0], \"um\": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.$k], \"umdot\": [1, 0, 0, 0, 0, 0, $k]}"
  done > "$BATS_TEST_TMPDIR/s.jsonl"
  spart-id -m "$m" --fixed-base --gravity 0,0,-9.81 --only taum < "$BATS_TEST_TMPDIR/s.jsonl" > "$BATS_TEST_TMPDIR/a"
  spart-id -m "$m" --fixed-base --gravity 0,0,-9.81 --joint-wrenches < "$BATS_TEST_TMPDIR/s.jsonl" > "$BATS_TEST_TMPDIR/w"
  jq -c '{taum}' "$BATS_TEST_TMPDIR/w" | cmp - "$BATS_TEST_TMPDIR/a"
  [ "$(jq -c '.joint_wrenches | length, (.[0] | length)' "$BATS_TEST_TMPDIR/w" | sort -u | tr '\n' ' ')" = "6 7 " ]
  spart-id -m "$m" --fixed-base --gravity 0,0,-9.81 --joint-wrenches -j 2 < "$BATS_TEST_TMPDIR/s.jsonl" | cmp - "$BATS_TEST_TMPDIR/w"
  run spart-id -m "$m" --fixed-base --joint-wrenches --only joint_wrenches -o csv < "$BATS_TEST_TMPDIR/s.jsonl"
  [ "${lines[0]%%,joint_wrenches_2_1*}" = "joint_wrenches_1_1,joint_wrenches_1_2,joint_wrenches_1_3,joint_wrenches_1_4,joint_wrenches_1_5,joint_wrenches_1_6" ]
  [[ "${lines[0]}" == *",joint_wrenches_7_6" ]]
  [ "${#lines[@]}" -eq 6 ]
  # the output only with the option
  run --separate-stderr spart-id -m "$m" --only joint_wrenches < "$BATS_TEST_TMPDIR/s.jsonl"
  [ "$status" -eq 2 ]
  [[ "$stderr" == "spart-id: --only joint_wrenches: spart-id writes it only with --joint-wrenches"* ]]
}
