#!/usr/bin/env bats
# spart-kin: which outputs a record gets, CSV naming.

load helper

@test "poses only without velocities, twists with um, twist rates with umdot" {
  run --separate-stderr spart-kin -m "$MODELS/SC_3DoF.urdf" <<< $'{"qm": [0, 0, 0]}\n{"qm": [0, 0, 0], "um": [1, 0, 0]}\n{"qm": [0, 0, 0], "umdot": [1, 0, 0]}'
  [ "$status" -eq 0 ]
  keys() { python3 -c 'import json, sys; print(" ".join(json.loads(sys.argv[1])))' "$1"; }
  [ "$(keys "${lines[0]}")" = "RJ RL rJ rL e g r_com" ]
  [ "$(keys "${lines[1]}")" = "RJ RL rJ rL e g r_com t0 tL" ]
  [ "$(keys "${lines[2]}")" = "RJ RL rJ rL e g r_com t0 tL t0dot tLdot" ]
}

@test "CSV output names per-link matrices name_link_row_col" {
  run --separate-stderr spart-kin -m "$MODELS/SC_3DoF.urdf" -o csv <<< '{"qm": [0, 0, 0]}'
  [ "$status" -eq 0 ]
  [[ "${lines[0]}" == RJ_1_1_1,RJ_1_1_2,RJ_1_1_3,RJ_1_2_1,* ]]
  [[ "${lines[0]}" == *,r_com_1,r_com_2,r_com_3 ]]
}

@test "CSV input takes any column order, and R0 and wFm by index" {
  a=$(printf 'qm_3,R0_1_1,R0_1_2,R0_1_3,R0_2_1,R0_2_2,R0_2_3,R0_3_1,R0_3_2,R0_3_3,qm_1,qm_2\n0.3,0,-1,0,1,0,0,0,0,1,0.1,0.2\n' |
      spart-kin -o json -m "$MODELS/SC_3DoF.urdf")
  b=$(spart-kin -o json -m "$MODELS/SC_3DoF.urdf" <<< '{"qm": [0.1, 0.2, 0.3], "R0": [[0, -1, 0], [1, 0, 0], [0, 0, 1]]}')
  [ -n "$a" ]
  [ "$a" = "$b" ]
}
