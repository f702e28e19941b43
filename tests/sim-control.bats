#!/usr/bin/env bats
# spart-sim --control: closed-loop control of the joints (PD with gravity compensation, computed
# torque, gravity compensation) to a reference, checked against closed forms computed here: the
# reference's sines, a pendulum's acceleration at its effort limit, the momentum a controller
# cannot change, a ball joint's orientation reached.

load helper

IIWA="$MODELS/kuka_iiwa.urdf"

# sines of 0.5 rad at 0.5 Hz (a phase a joint) every H s for T s as JSON lines (FILE), and the
# initial state on them (FILE.init): sines H T FILE [csv]
sines() {
  python3 - "$@" <<'PY'
import json, math, sys
h, T, path = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
csv = len(sys.argv) > 4
w = 2 * math.pi * 0.5
def rec(t):
    return {"t": t, "qm": [0.5 * math.sin(w * t + 0.3 * j) for j in range(7)],
            "um": [0.5 * w * math.cos(w * t + 0.3 * j) for j in range(7)],
            "umdot": [-0.5 * w * w * math.sin(w * t + 0.3 * j) for j in range(7)]}
with open(path, "w") as f:
    if csv:
        f.write(",".join(["t"] + ["%s_%d" % (k, j + 1) for k in ("qm", "um", "umdot")
                                  for j in range(7)]) + "\n")
    for k in range(int(round(T / h)) + 1):
        r = rec(k * h)
        if csv:
            f.write(",".join(repr(x) for x in [r["t"]] + r["qm"] + r["um"] + r["umdot"]) + "\n")
        else:
            f.write(json.dumps(r) + "\n")
r = rec(0)
with open(path + ".init", "w") as f:
    f.write(json.dumps({"qm": r["qm"], "um": r["um"]}) + "\n")
PY
}

@test "kuka_iiwa under computed torque with the exact model tracks sines (0.5 rad, 0.5 Hz, given every 0.5 ms) within 1e-5 rad after 1 s at a 0.5 ms step" {
  sines 0.0005 1.5 "$BATS_TEST_TMPDIR/ref.json"
  run -0 --separate-stderr spart-sim -m "$IIWA" --fixed-base --gravity 0,0,-9.81 --duration 1.5 \
    --dt 0.0005 --every 20 --control ctc --kp 400 --kd 40 --reference "$BATS_TEST_TMPDIR/ref.json" \
    < "$BATS_TEST_TMPDIR/ref.json.init"
  [ -z "$stderr" ]
  echo "$output" | python3 -c '
import json, math, sys
worst = 0
for line in sys.stdin:
    r = json.loads(line)
    t = r["t"]
    e = max(abs(q - 0.5 * math.sin(math.pi * t + 0.3 * j)) for j, q in enumerate(r["qm"]))
    if t >= 1:
        worst = max(worst, e)
print("largest error after 1 s:", worst)
assert 0 < worst < 1e-5, worst'
}

@test "the reference as CSV gives the trajectory of the same reference as JSON, byte for byte" {
  sines 0.01 0.3 "$BATS_TEST_TMPDIR/ref.json"
  sines 0.01 0.3 "$BATS_TEST_TMPDIR/ref.csv" csv
  spart-sim -m "$IIWA" --fixed-base --gravity 0,0,-9.81 --duration 0.3 --every 50 --control ctc \
    --kp 100 --kd 20 --reference "$BATS_TEST_TMPDIR/ref.json" < "$BATS_TEST_TMPDIR/ref.json.init" \
    > "$BATS_TEST_TMPDIR/a"
  spart-sim -m "$IIWA" --fixed-base --gravity 0,0,-9.81 --duration 0.3 --every 50 --control ctc \
    --kp 100 --kd 20 --reference "$BATS_TEST_TMPDIR/ref.csv" < "$BATS_TEST_TMPDIR/ref.json.init" \
    > "$BATS_TEST_TMPDIR/b"
  cmp "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
  [ "$(wc -l < "$BATS_TEST_TMPDIR/a")" -eq 7 ]
}

@test "kuka_iiwa under gravity compensation alone stays still to 1e-9 rad over 5 s (and falls without it)" {
  q='[0.3,0.8,-0.4,-1.2,0.5,0.7,0.2]'
  check='
import json, sys
q0, still = json.loads(sys.argv[1]), sys.argv[2] == "still"
worst = max(max(abs(a - b) for a, b in zip(json.loads(l)["qm"], q0)) for l in sys.stdin)
print("largest move:", worst)
assert worst <= 1e-9 if still else worst > 0.1'
  echo "{\"qm\": $q}" | spart-sim -m "$IIWA" --fixed-base --gravity 0,0,-9.81 --duration 5 \
    --every 100 --control gravity | python3 -c "$check" "$q" still
  echo "{\"qm\": $q}" | spart-sim -m "$IIWA" --fixed-base --gravity 0,0,-9.81 --duration 1 \
    --every 100 | python3 -c "$check" "$q" falls
}

@test "a force beyond the effort limit is clipped to it, and the run says so once on stderr, naming the joint" {
  # a horizontal pendulum: 2 kg at 0.5 m on a joint about y, inertia 0.01 about its CoM, effort
  # limit 4 N m; the gravity compensation asks 2 * 9.81 * 0.5 = 9.81 N m, it gets 4
  cat > "$BATS_TEST_TMPDIR/p.urdf" <<'URDF'
<robot name="p"><link name="b"/>
<joint name="j" type="revolute"><parent link="b"/><child link="l"/><axis xyz="0 1 0"/><limit lower="-3" upper="3" effort="4" velocity="10"/></joint>
<link name="l"><inertial><origin xyz="0.5 0 0"/><mass value="2"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link></robot>
URDF
  run -0 --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/p.urdf" --fixed-base \
    --gravity 0,0,-9.81 --duration 0.01 --every 10 --control gravity --accelerations \
    <<< '{"qm": [0]}'
  [ "$stderr" = "spart-sim: <stdin>:1: the controller's forces met the effort limits and were clipped in 41 of 41 evaluations, first at t = 0 on joint 1 'j'" ]
  # about y, +q turns x towards -z: gravity's torque is +m g l; the joint's -4
  echo "$output" | head -1 | python3 -c '
import json, sys
a = json.loads(sys.stdin.read())["umdot"][0]
want = (2 * 9.81 * 0.5 - 4) / (0.01 + 2 * 0.5 ** 2)
print(a, want)
assert abs(a - want) <= 1e-12 * abs(want)'
}

@test "controller torques add to --inputs' and to the record's" {
  q='{"qm": [0.3,0.8,-0.4,-1.2,0.5,0.7,0.2], "taum": [1,0,0,0,0,0,0]}'
  # gravity compensated, 1 N m on joint 1: the accelerations of spart-fd for 1 N m alone
  want=$(echo '{"qm": [0.3,0.8,-0.4,-1.2,0.5,0.7,0.2], "taum": [1,0,0,0,0,0,0]}' |
    spart-fd -m "$IIWA" --fixed-base | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["umdot"]))')
  got=$(echo "$q" | spart-sim -m "$IIWA" --fixed-base --gravity 0,0,-9.81 --duration 0.001 \
    --control gravity --accelerations | head -1 | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["umdot"]))')
  python3 -c '
import json, sys
a, b = json.loads(sys.argv[1]), json.loads(sys.argv[2])
assert max(abs(x - y) for x, y in zip(a, b)) < 1e-9, (a, b)' "$want" "$got"
  printf 't,taum_1,taum_2,taum_3,taum_4,taum_5,taum_6,taum_7\n0,1,0,0,0,0,0,0\n' > "$BATS_TEST_TMPDIR/in.csv"
  got=$(echo '{"qm": [0.3,0.8,-0.4,-1.2,0.5,0.7,0.2]}' | spart-sim -m "$IIWA" --fixed-base \
    --gravity 0,0,-9.81 --duration 0.001 --control gravity --accelerations \
    --inputs "$BATS_TEST_TMPDIR/in.csv" | head -1 | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["umdot"]))')
  python3 -c '
import json, sys
a, b = json.loads(sys.argv[1]), json.loads(sys.argv[2])
assert max(abs(x - y) for x, y in zip(a, b)) < 1e-9, (a, b)' "$want" "$got"
}

@test "a ball joint under PD reaches its reference orientation (the error in its tangent space), the long way round refused" {
  cat > "$BATS_TEST_TMPDIR/ball.urdf" <<'URDF'
<robot name="ball"><link name="b"/>
<joint name="j" type="ball"><parent link="b"/><child link="l"/></joint>
<link name="l"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.2" izz="0.3" ixy="0" ixz="0" iyz="0"/></inertial></link></robot>
URDF
  # the reference: a turn of 2.5 rad about (1,2,2)/3; the start: identity
  ref=$(python3 -c '
import math, json
a = 2.5; n = [1/3, 2/3, 2/3]
print(json.dumps({"t": 0, "qm": [math.cos(a/2)] + [math.sin(a/2) * x for x in n]}))')
  echo "$ref" > "$BATS_TEST_TMPDIR/ref.json"
  echo '{"qm": [1,0,0,0]}' | spart-sim -m "$BATS_TEST_TMPDIR/ball.urdf" --fixed-base \
    --duration 10 --every 10000 --control pd --kp 2 --kd 1 --reference "$BATS_TEST_TMPDIR/ref.json" |
    tail -1 | python3 -c '
import json, sys
q = json.loads(sys.stdin.read())["qm"]
r = json.loads(sys.argv[1])["qm"]
d = abs(sum(a * b for a, b in zip(q, r)))
print(q, r, d)
assert d > 1 - 1e-10' "$ref"
}

@test "a free-floating spacecraft under PD: the joints reach the reference, the momentum stays zero to RK4's error (h^4)" {
  python3 -c '
import json
print(json.dumps({"t": 0, "qm": [0.2, -0.3, 0.1, 0.4, 0.0, 0.2, -0.1] * 2}))' > "$BATS_TEST_TMPDIR/ref.json"
  for dt in 0.001 0.0005; do
    echo '{"qm": [0,0,0,0,0,0,0,0,0,0,0,0,0,0]}' | spart-sim -m "$MODELS/2_iiwa_base.urdf" \
      --duration 20 --dt $dt --every 100 --control pd --kp 5 --kd 1 \
      --reference "$BATS_TEST_TMPDIR/ref.json" -o csv > "$BATS_TEST_TMPDIR/sim$dt.csv"
    spart-kin -m "$MODELS/2_iiwa_base.urdf" --momentum --only momentum -o json \
      < "$BATS_TEST_TMPDIR/sim$dt.csv" > "$BATS_TEST_TMPDIR/h$dt"
  done
  python3 -c '
import json, sys
big = [max(max(abs(x) for x in json.loads(l)["momentum"]) for l in open(f)) for f in sys.argv[1:]]
print("largest momentum at 1 ms and 0.5 ms:", big)
assert big[0] < 2e-7 and big[0] / big[1] > 12' "$BATS_TEST_TMPDIR/h0.001" "$BATS_TEST_TMPDIR/h0.0005"
  tail -1 "$BATS_TEST_TMPDIR/sim0.001.csv" | python3 -c '
import sys
row = [float(x) for x in sys.stdin.read().split(",")]
q = row[13:27]
want = [0.2, -0.3, 0.1, 0.4, 0.0, 0.2, -0.1] * 2
print(q)
assert max(abs(a - b) for a, b in zip(q, want)) < 1e-4'
}

@test "spart-sim --control -j 2 over several initial states writes what one thread writes, byte for byte" {
  sines 0.01 0.5 "$BATS_TEST_TMPDIR/ref.json"
  python3 -c '
import json
for k in range(5):
    print(json.dumps({"id": k, "qm": [0.1 * k] * 7, "um": [0.05 * k] * 7}))' > "$BATS_TEST_TMPDIR/init.json"
  for j in 1 2; do
    spart-sim -j $j -m "$IIWA" --fixed-base --gravity 0,0,-9.81 --duration 0.5 --every 10 \
      --control ctc --kp 100 --kd 20 --reference "$BATS_TEST_TMPDIR/ref.json" \
      < "$BATS_TEST_TMPDIR/init.json" > "$BATS_TEST_TMPDIR/out$j"
  done
  cmp "$BATS_TEST_TMPDIR/out1" "$BATS_TEST_TMPDIR/out2"
  [ "$(wc -l < "$BATS_TEST_TMPDIR/out1")" -eq 255 ]
}

@test "spart-sim --control refuses what it cannot do: exit 2 for usage, 1 for a bad reference" {
  s='{"qm": [0,0,0,0,0,0,0]}'
  printf '{"t": 0, "qm": [0,0,0,0,0,0,0]}\n' > "$BATS_TEST_TMPDIR/r.json"
  run -2 spart-sim -m "$IIWA" --duration 1 --control pdx <<< "$s"
  [ "${lines[0]}" = "spart-sim: --control: expected pd, ctc or gravity, got 'pdx'" ]
  run -2 spart-sim -m "$IIWA" --duration 1 --kp 1 <<< "$s"
  [ "${lines[0]}" = "spart-sim: --kp does nothing without --control" ]
  run -2 spart-sim -m "$IIWA" --duration 1 --control pd --kp 1 --kd 1 <<< "$s"
  [ "${lines[0]}" = "spart-sim: --control pd needs --reference FILE" ]
  run -2 spart-sim -m "$IIWA" --duration 1 --control gravity <<< "$s"
  [ "${lines[0]}" = "spart-sim: --control gravity does nothing without --gravity" ]
  run -2 spart-sim -m "$IIWA" --duration 1 --control gravity --kp 1 <<< "$s"
  [ "${lines[0]}" = "spart-sim: --control gravity takes no --kp" ]
  run -2 --separate-stderr spart-sim -m "$IIWA" --duration 1 --control pd --kp 1,2 --kd 1 \
    --reference "$BATS_TEST_TMPDIR/r.json" <<< "$s"
  [ "$stderr" = "spart-sim: --kp: expected one gain or 7 (one a velocity coordinate), got '1,2'" ]
  [ -z "$output" ]
  printf '{"t": 0, "qm": [0,0,0,0,0,0,0]}\n{"t": 0, "qm": [0,0,0,0,0,0,0]}\n' > "$BATS_TEST_TMPDIR/r2.json"
  run -1 --separate-stderr spart-sim -m "$IIWA" --duration 1 --control pd --kp 1 --kd 1 \
    --reference "$BATS_TEST_TMPDIR/r2.json" <<< "$s"
  [ "$stderr" = "spart-sim: $BATS_TEST_TMPDIR/r2.json:2: times must increase" ]
  [ -z "$output" ]
  printf '{"qm": [0,0,0,0,0,0,0]}\n' > "$BATS_TEST_TMPDIR/r3.json"
  run -1 --separate-stderr spart-sim -m "$IIWA" --duration 1 --control pd --kp 1 --kd 1 \
    --reference "$BATS_TEST_TMPDIR/r3.json" <<< "$s"
  [ "$stderr" = "spart-sim: $BATS_TEST_TMPDIR/r3.json:1: no time 't'" ]
  printf '{"t": 0, "um": [0,0,0,0,0,0,0]}\n' > "$BATS_TEST_TMPDIR/r4.json"
  run -1 --separate-stderr spart-sim -m "$IIWA" --duration 1 --control pd --kp 1 --kd 1 \
    --reference "$BATS_TEST_TMPDIR/r4.json" <<< "$s"
  [ "$stderr" = "spart-sim: $BATS_TEST_TMPDIR/r4.json:1: no qm: the model has 7 joint coordinates and the record must give them (the configuration is never defaulted)" ]
}

@test "bash completion: spart-sim's new options, --control's laws" {
  complete_words() {
    PATH="$TOP/bin:$PATH" bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
      _spart "$1" "${COMP_WORDS[-1]}" "${COMP_WORDS[-2]}"; printf "%s\n" "${COMPREPLY[@]}"' \
      _ "$TOP/completion/spart.bash" "$@"
  }
  run -0 complete_words spart-sim --contr
  [ "$output" = "--control" ]
  run -0 complete_words spart-sim --contact
  [ "$output" = "--contact-forces" ]
  run -0 complete_words spart-sim --control ''
  [ "$output" = "$(printf 'pd\nctc\ngravity')" ]
  run -0 complete_words spart-sim --s
  [ "$output" = "$(printf -- '--seq\n--slip\n--stiffness')" ]
}

@test "every joint kind under control (planar, ball, floating, prismatic), fixed and floating base: computed torque holds the reference still and brings a state back to it" {
  cat > "$BATS_TEST_TMPDIR/kinds.urdf" <<'URDF'
<robot name="kinds"><link name="b"><inertial><mass value="5"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
<joint name="jp" type="planar"><parent link="b"/><child link="a"/><axis xyz="0 0 1"/><origin xyz="0 0 0.1"/></joint>
<link name="a"><inertial><origin xyz="0.1 0 0"/><mass value="1"/><inertia ixx="0.01" iyy="0.02" izz="0.03" ixy="0" ixz="0" iyz="0"/></inertial></link>
<joint name="jb" type="ball"><parent link="a"/><child link="c"/><origin xyz="0.2 0 0"/></joint>
<link name="c"><inertial><origin xyz="0 0 0.1"/><mass value="1"/><inertia ixx="0.02" iyy="0.01" izz="0.03" ixy="0" ixz="0" iyz="0"/></inertial></link>
<joint name="jf" type="floating"><parent link="c"/><child link="d"/><origin xyz="0 0 0.2"/></joint>
<link name="d"><inertial><origin xyz="0.05 0 0"/><mass value="0.5"/><inertia ixx="0.01" iyy="0.01" izz="0.02" ixy="0" ixz="0" iyz="0"/></inertial></link>
<joint name="jr" type="prismatic"><parent link="d"/><child link="e"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="100" velocity="1"/></joint>
<link name="e"><inertial><mass value="0.3"/><inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial></link></robot>
URDF
  python3 - "$BATS_TEST_TMPDIR" <<'PY'
import json, math, sys
d = sys.argv[1]
def quat(ax, a):
    n = math.sqrt(sum(x * x for x in ax))
    return [math.cos(a / 2)] + [math.sin(a / 2) * x / n for x in ax]
ref = [0.1, -0.2, 0.3] + quat([1, 2, 3], 0.7) + quat([0, 1, 1], -0.5) + [0.05, 0.02, -0.03, 0.1]
open(d + "/ref.json", "w").write(json.dumps({"t": 0, "qm": ref}) + "\n")
open(d + "/still.json", "w").write(json.dumps({"qm": ref}) + "\n")
open(d + "/off.json", "w").write(json.dumps({"qm": [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]}) + "\n")
PY
  check='
import json, sys
ref = json.load(open(sys.argv[1]))["qm"]
q = json.loads(sys.stdin.read().splitlines()[-1])["qm"]
err = max(abs(a - b) for a, b in zip(q, ref))
print("largest error:", err)
assert err < float(sys.argv[2])'
  spart-sim -m "$BATS_TEST_TMPDIR/kinds.urdf" --fixed-base --gravity 0,0,-9.81 --duration 2 \
    --every 2000 --control ctc --kp 100 --kd 20 --reference "$BATS_TEST_TMPDIR/ref.json" \
    < "$BATS_TEST_TMPDIR/still.json" | python3 -c "$check" "$BATS_TEST_TMPDIR/ref.json" 1e-15
  for base in --fixed-base ""; do
    spart-sim -m "$BATS_TEST_TMPDIR/kinds.urdf" $base --gravity 0,0,-9.81 --duration 5 \
      --every 5000 --control ctc --kp 25 --kd 10 --reference "$BATS_TEST_TMPDIR/ref.json" \
      < "$BATS_TEST_TMPDIR/off.json" | python3 -c "$check" "$BATS_TEST_TMPDIR/ref.json" 1e-8
  done
}

@test "rk4 past its stability under PD is refused before the run, the largest stable step named within 0.2% of the closed form; at 0.95 of it the run is a 10 times finer run's" {
  # one joint of inertia 0.01 and damping 0.2 under PD 400, 2: 0.01 z^2 + 2.2 z + 400 = 0,
  # z = -110 +- 167 i, whose largest stable step rk4limit.py finds along the roots' rays
  cat > "$BATS_TEST_TMPDIR/j.urdf" <<'URDF'
<robot name="one"><link name="b"/>
<joint name="j" type="continuous"><parent link="b"/><child link="l"/><axis xyz="0 0 1"/><dynamics damping="0.2"/></joint>
<link name="l"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link></robot>
URDF
  echo '{"t": 0, "qm": [1]}' > "$BATS_TEST_TMPDIR/ref.json"
  h=$(python3 "$BATS_TEST_DIRNAME/rk4limit.py" 0.01 2.2 400)
  opts=(-m "$BATS_TEST_TMPDIR/j.urdf" --fixed-base --control pd --kp 400 --kd 2
    --reference "$BATS_TEST_TMPDIR/ref.json" --only t,qm)
  dt=$(python3 -c "print(1.01 * $h)")
  run -1 --separate-stderr spart-sim "${opts[@]}" --duration 1 --dt "$dt" <<< '{"qm": [0]}'
  [ -z "$output" ]
  [[ "$stderr" == "spart-sim: <stdin>:1: t = 0: --dt $dt is an unstable step for rk4 with the controller's gains (the fastest at joint 1 'j'): the largest stable step here is "*" s (use a smaller --dt, or --integrator implicit or dopri5)" ]]
  named=$(sed 's/.*stable step here is \([^ ]*\) s.*/\1/' <<< "$stderr")
  python3 -c 'import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); print(a, b)
assert 0.998 * b <= a <= b' "$named" "$h"
  # at 0.95 of it the run settles on the reference as a run at a tenth of the step does (at
  # 1.01 of it, let run, it grows past 80 rad in 2 s)
  dt=$(python3 -c "print(0.95 * $h)")
  run -0 spart-sim "${opts[@]}" --duration 2 --dt "$dt" --every 1000 <<< '{"qm": [0]}'
  a=${lines[-1]}
  run -0 spart-sim "${opts[@]}" --duration 2 --dt "$(python3 -c "print($dt / 10)")" --every 10000 \
    <<< '{"qm": [0]}'
  python3 -c '
import json, sys
a, b = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print(a, b)
assert a["t"] == b["t"] == 2 and abs(a["qm"][0] - b["qm"][0]) < 1e-9 and abs(a["qm"][0] - 1) < 1e-9
' "$a" "${lines[-1]}"
}

@test "kuka_iiwa under PD 100, 10 at 1 ms is refused (the controller's gains on joint 7, a step of 0.24 ms named), not written diverged; at 0.97 of the step named it is a 10 times finer run's to 1e-6 rad" {
  echo '{"t": 0, "qm": [0, 0, 0, 0, 0, 0, 0]}' > "$BATS_TEST_TMPDIR/ref.json"
  st='{"qm": [0, 0.5, 0, -1, 0, 0.5, 0]}'
  opts=(-m "$IIWA" --fixed-base --gravity 0,0,-9.81 --control pd --kp 100 --kd 10
    --reference "$BATS_TEST_TMPDIR/ref.json" --duration 0.05 --only t,qm)
  run -1 --separate-stderr spart-sim "${opts[@]}" <<< "$st"
  [ -z "$output" ]
  [[ "$stderr" == "spart-sim: <stdin>:1: t = 0: --dt 0.001 is an unstable step for rk4 with the controller's gains (the fastest at joint 7 'lbr_iiwa_joint_7'): the largest stable step here is 0.000"*" s (use a smaller --dt, or --integrator implicit or dopri5)" ]]
  named=$(sed 's/.*stable step here is \([^ ]*\) s.*/\1/' <<< "$stderr")
  # (the limit moves with the arm's inertia: 0.97 of the initial one holds over the run)
  dt=$(python3 -c "print(0.05 / __import__('math').ceil(0.05 / (0.97 * $named)))")
  run -0 spart-sim "${opts[@]}" --dt "$dt" <<< "$st"
  a=${lines[-1]}
  run -0 spart-sim "${opts[@]}" --dt "$(python3 -c "print($dt / 10)")" <<< "$st"
  python3 -c '
import json, sys
a, b = json.loads(sys.argv[1]), json.loads(sys.argv[2])
d = max(abs(x - y) for x, y in zip(a["qm"], b["qm"]))
print("largest difference", d, a["qm"])
assert a["t"] == b["t"] == 0.05 and d < 1e-6 and abs(a["qm"][1] - 0.5) > 0.01
' "$a" "${lines[-1]}"
}

# a reference file FILE of TEXT refused with MESSAGE (the file's path before it), nothing
# written: bad_reference FILE TEXT MESSAGE
bad_reference() {
  printf "$2" > "$BATS_TEST_TMPDIR/$1"
  run -1 --separate-stderr spart-sim -m "$IIWA" --duration 1 --control pd --kp 1 --kd 1 \
    --reference "$BATS_TEST_TMPDIR/$1" <<< '{"qm": [0,0,0,0,0,0,0]}'
  [ "$stderr" = "spart-sim: $BATS_TEST_TMPDIR/$1$3" ]
  [ -z "$output" ]
}

@test "--reference refuses a key or column it does not read, as --inputs does, before anything is written" {
  bad_reference r.json '{"t": 0, "qm": [0,0,0,0,0,0,0], "kp": 3}\n' \
    ":1: key 'kp' is not a reference's: a record gives t, qm and optionally um, umdot"
  bad_reference r.csv 't,qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7,taum_1\n0,0,0,0,0,0,0,0,1\n' \
    ":2: column 'taum_1' is not a reference's: a record gives t, qm and optionally um, umdot"
  # --inputs: the same words
  printf '{"t": 0, "kp": 3}\n' > "$BATS_TEST_TMPDIR/in.json"
  run -1 --separate-stderr spart-sim -m "$IIWA" --duration 1 --inputs "$BATS_TEST_TMPDIR/in.json" \
    <<< '{"qm": [0,0,0,0,0,0,0]}'
  [ "$stderr" = "spart-sim: $BATS_TEST_TMPDIR/in.json:1: key 'kp' is not an input: a record gives t and any of tau0, taum, wF0, wFm" ]
}
