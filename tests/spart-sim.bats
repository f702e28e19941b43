#!/usr/bin/env bats
# spart-sim: the state moved through time, checked against conservation laws (momentum, energy
# from spart-kin's kinematics and the model, tests/simcheck.py), closed forms, spart-fd and
# spart-gim, and the order of RK4.

load helper

# the free-floating spacecraft with two arms, moving, and constant joint torques
SC='{"qm":[0,0,0,0,0,0,0,0,0,0,0,0,0,0],"um":[0.3,-0.2,0.1,0.4,-0.5,0.2,0.1,-0.3,0.2,0.1,0.4,-0.2,0.3,0.1],"u0":[0.05,-0.02,0.03,0.1,0,-0.1]'
TAU='"taum":[0.1,-0.2,0.05,0.1,0.03,-0.02,0.01,0.05,0.1,-0.1,0.02,0.03,-0.01,0.02]'

# momentum and energy of spart-sim's CSV SIM of model URDF, one JSON line a record
conserved() {
  urdf2robot "$1" > "$BATS_TEST_TMPDIR/model.json"
  spart-kin -m "$1" -o json < "$2" > "$BATS_TEST_TMPDIR/kin.jsonl"
  python3 "$BATS_TEST_DIRNAME/simcheck.py" "$BATS_TEST_TMPDIR/model.json" "$2" \
    "$BATS_TEST_TMPDIR/kin.jsonl"
}

# a one-joint arm: a rod of inertia 0.5 about the joint's z axis (its CoM on the axis)
one_joint() {
  cat > "$BATS_TEST_TMPDIR/one.urdf" <<'URDF'
<robot name="one"><link name="b"><inertial><mass value="10"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
<joint name="j" type="continuous"><parent link="b"/><child link="l"/><axis xyz="0 0 1"/></joint>
<link name="l"><inertial><mass value="2"/><inertia ixx="0.3" iyy="0.4" izz="0.5" ixy="0" ixz="0" iyz="0"/></inertial></link></robot>
URDF
}

@test "spart-sim --help says what it does and exits 0" {
  run -0 spart-sim --help
  [[ "$output" == *"Usage: spart-sim"* ]]
  [[ "$output" == *"--duration T"* ]]
  [[ "$output" == *"--integrator"* ]]
}

@test "spart-sim refuses bad usage with exit 2" {
  run --separate-stderr spart-sim -m "$MODELS/kuka_iiwa.urdf" <<< '{}'
  [ "$status" -eq 2 ]
  [ "${stderr%%$'\n'*}" = "spart-sim: --duration T is required" ]
  run --separate-stderr spart-sim -m "$MODELS/kuka_iiwa.urdf" --duration 1 --rtol 1e-3 <<< '{}'
  [ "$status" -eq 2 ]
  [ "${stderr%%$'\n'*}" = "spart-sim: --rtol, --atol and --max-steps are dopri5's: add --integrator dopri5" ]
  run --separate-stderr spart-sim -m "$MODELS/kuka_iiwa.urdf" --duration 1 --dt -1 <<< '{}'
  [ "$status" -eq 2 ]
  [ "${stderr%%$'\n'*}" = "spart-sim: --dt: expected a step > 0 in s, got '-1'" ]
  run --separate-stderr spart-sim -m "$MODELS/kuka_iiwa.urdf" --duration 1 --every 0 <<< '{}'
  [ "$status" -eq 2 ]
  run --separate-stderr spart-sim -m "$MODELS/kuka_iiwa.urdf" --duration 1 --integrator euler <<< '{}'
  [ "$status" -eq 2 ]
  [ "${stderr%%$'\n'*}" = "spart-sim: --integrator: expected rk4, dopri5 or implicit, got 'euler'" ]
}

@test "spart-sim writes t, R0, r0, qm, u0, um every K steps from 0 to T, and at T" {
  run -0 spart-sim -m "$MODELS/kuka_iiwa.urdf" --fixed-base --duration 0.0105 --every 4 \
    --gravity 0,0,-9.81 <<< '{"qm": [0, 0, 0, 0, 0, 0, 0]}'
  python3 -c '
import json, sys
recs = [json.loads(l) for l in sys.argv[1].splitlines()]
assert [r["t"] for r in recs] == [0, 0.004, 0.008, 0.0105], [r["t"] for r in recs]
assert list(recs[0]) == ["t", "R0", "r0", "qm", "u0", "um"], list(recs[0])
assert recs[-1]["qm"] != recs[0]["qm"]
' "$output"
}

@test "free-floating spacecraft, constant torques: momentum about the CoM and linear momentum kept to 1e-9 over 10 s" {
  spart-sim -m "$MODELS/2_iiwa_base.urdf" --no-friction --no-limits --duration 10 --every 500 -o csv \
    <<< "$SC,$TAU}" > "$BATS_TEST_TMPDIR/sim.csv"
  conserved "$MODELS/2_iiwa_base.urdf" "$BATS_TEST_TMPDIR/sim.csv" > "$BATS_TEST_TMPDIR/mom.jsonl"
  python3 - "$BATS_TEST_TMPDIR/mom.jsonl" <<'PY'
import json, math, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert len(recs) == 21 and recs[-1]["t"] == 10
h0 = recs[0]["momentum"]
norm = lambda v: math.sqrt(sum(x * x for x in v))
for r in recs:
    h = r["momentum"]
    for part, (a, b) in (("angular", (0, 3)), ("linear", (3, 6))):
        err = norm([x - y for x, y in zip(h[a:b], h0[a:b])]) / norm(h0[a:b])
        assert err < 1e-9, (r["t"], part, err)
# the torques do work: the energy grows, so the momentum kept is not a robot at rest
assert recs[-1]["kinetic_energy"] > 10 * recs[0]["kinetic_energy"]
PY
}

@test "free-floating spacecraft, no torque, no friction: kinetic energy kept to 1e-8, and it is u'Hu/2 of spart-gim" {
  spart-sim -m "$MODELS/2_iiwa_base.urdf" --no-friction --no-limits --duration 10 --every 1000 -o csv \
    <<< "$SC}" > "$BATS_TEST_TMPDIR/sim.csv"
  conserved "$MODELS/2_iiwa_base.urdf" "$BATS_TEST_TMPDIR/sim.csv" > "$BATS_TEST_TMPDIR/e.jsonl"
  spart-gim -m "$MODELS/2_iiwa_base.urdf" -o json < "$BATS_TEST_TMPDIR/sim.csv" > "$BATS_TEST_TMPDIR/gim.jsonl"
  python3 - "$BATS_TEST_TMPDIR/e.jsonl" "$BATS_TEST_TMPDIR/sim.csv" "$BATS_TEST_TMPDIR/gim.jsonl" <<'PY'
import csv, json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
e0 = recs[0]["kinetic_energy"]
assert e0 > 0.5
for r in recs:
    assert abs(r["kinetic_energy"] - e0) < 1e-8 * e0, (r["t"], r["kinetic_energy"], e0)
for row, line, r in zip(csv.DictReader(open(sys.argv[2])), open(sys.argv[3]), recs):
    H = json.loads(line)["H"]
    u = [float(row["u0_%d" % k]) for k in range(1, 7)] + \
        [float(row["um_%d" % k]) for k in range(1, 15)]
    T = 0.5 * sum(u[i] * H[i][j] * u[j] for i in range(20) for j in range(20))
    assert abs(T - r["kinetic_energy"]) < 1e-10 * e0, (row["t"], T, r["kinetic_energy"])
PY
}

@test "a one-joint arm under constant torque follows q0 + u0 t + tau t^2 / (2 I) to 1e-12" {
  one_joint
  run -0 spart-sim -m "$BATS_TEST_TMPDIR/one.urdf" --fixed-base --duration 2 --every 100 \
    <<< '{"qm": [0.3], "um": [-0.7], "taum": [0.25]}'
  python3 -c '
import json, sys
recs = [json.loads(l) for l in sys.argv[1].splitlines()]
assert len(recs) == 21
for r in recs:
    t = r["t"]
    q = 0.3 - 0.7 * t + 0.25 * t * t / (2 * 0.5)
    u = -0.7 + 0.25 * t / 0.5
    assert abs(r["qm"][0] - q) < 1e-12, (t, r["qm"][0], q)
    assert abs(r["um"][0] - u) < 1e-12, (t, r["um"][0], u)
' "$output"
}

@test "--inputs holds each row's forces from its time on (zero-order hold), with rk4 and dopri5" {
  one_joint
  printf 't,taum_1\n0,0.25\n0.5,-0.5\n1.25,0\n' > "$BATS_TEST_TMPDIR/in.csv"
  for integ in rk4 dopri5; do
    run -0 spart-sim -m "$BATS_TEST_TMPDIR/one.urdf" --fixed-base --duration 2 --every 50 \
      --integrator $integ --inputs "$BATS_TEST_TMPDIR/in.csv" <<< '{"qm": [0.3], "um": [-0.7], "taum": [9]}'
    python3 -c '
import json, sys
def exact(t):
    q, u, t0 = 0.3, -0.7, 0.0
    for start, end, tau in ((0, 0.5, 0.25), (0.5, 1.25, -0.5), (1.25, 99, 0)):
        if t <= start:
            break
        h = min(t, end) - start
        q, u = q + u * h + tau * h * h / 2 / 0.5, u + tau * h / 0.5
    return q, u
recs = [json.loads(l) for l in sys.argv[1].splitlines()]
assert len(recs) == 41
for r in recs:
    q, u = exact(r["t"])
    assert abs(r["qm"][0] - q) < 1e-11 and abs(r["um"][0] - u) < 1e-11, (r["t"], r["qm"], q)
' "$output"
  done
}

@test "--inputs: a file without a time column, or with times that do not increase, is refused" {
  one_joint
  printf 'time,taum_1\n0,1\n' > "$BATS_TEST_TMPDIR/in.csv"
  run --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/one.urdf" --duration 1 \
    --inputs "$BATS_TEST_TMPDIR/in.csv" <<< '{"qm": [0]}'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-sim: $BATS_TEST_TMPDIR/in.csv:2: no time column 't'" ]
  printf 't,taum_1\n0,1\n0.5,2\n0.5,3\n' > "$BATS_TEST_TMPDIR/in.csv"
  run --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/one.urdf" --duration 1 \
    --inputs "$BATS_TEST_TMPDIR/in.csv" <<< '{"qm": [0]}'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-sim: $BATS_TEST_TMPDIR/in.csv:4: t = 0.5 after t = 0.5: times must increase" ]
}

@test "--inputs as JSON lines, a JSON array or CSV: the same forces, the same trajectory" {
  # the free-floating iiwa: base forces, joint torques, wrenches on the base and on link 3;
  # fields a JSON record leaves out are zero, as CSV's zeros
  python3 - "$BATS_TEST_TMPDIR" <<'PY'
import json, sys
d = sys.argv[1]
rows = [(0, {"tau0": [0.1, 0, -0.2, 1, 0, 0], "taum": [1, -2, 0.5, 0, 0.3, 0, 0.1]}),
        (0.0035, {"taum": [0, 1, 0, -1, 0, 1, 0], "wFm": [[0] * 6, [0] * 6, [0, 0, 0.2, 0, 3, 0]] + [[0] * 6] * 4}),
        (0.006, {"wF0": [0, 0.5, 0, 0, 0, -2]}),
        (0.0121, {"tau0": [0, 0, 0, 0, 0, 1]})]
zero = {"tau0": [0] * 6, "taum": [0] * 7, "wF0": [0] * 6, "wFm": [[0] * 6] * 7}
with open(d + "/in.jsonl", "w") as f:
    for t, r in rows:
        f.write(json.dumps(dict(t=t, **r)) + "\n")
with open(d + "/in.json", "w") as f:
    json.dump([dict(r, t=t) for t, r in rows], f, indent=1)
with open(d + "/in.csv", "w") as f:
    cols = ["t"] + ["tau0_%d" % k for k in range(1, 7)] + ["taum_%d" % k for k in range(1, 8)] + \
        ["wF0_%d" % k for k in range(1, 7)] + \
        ["wFm_%d_%d" % (i, k) for i in range(1, 8) for k in range(1, 7)]
    f.write(",".join(cols) + "\n")
    for t, r in rows:
        v = dict(zero, **r)
        f.write(",".join(map(str, [t] + v["tau0"] + v["taum"] + v["wF0"] + sum(v["wFm"], []))) + "\n")
PY
  for form in jsonl json csv; do
    for integ in rk4 dopri5; do
      spart-sim -m "$MODELS/kuka_iiwa.urdf" --duration 0.02 --every 2 --integrator $integ \
        --inputs "$BATS_TEST_TMPDIR/in.$form" <<< '{"qm": [0, 0.5, 0, -1, 0, 0.5, 0], "taum": [9, 9, 9, 9, 9, 9, 9]}' \
        > "$BATS_TEST_TMPDIR/$form.$integ"
    done
  done
  for integ in rk4 dopri5; do
    cmp "$BATS_TEST_TMPDIR/csv.$integ" "$BATS_TEST_TMPDIR/jsonl.$integ"
    cmp "$BATS_TEST_TMPDIR/csv.$integ" "$BATS_TEST_TMPDIR/json.$integ"
  done
  # the forces did act, each from its time: the base moved, and the run differs from one with
  # the first row held throughout
  head -n 2 "$BATS_TEST_TMPDIR/in.jsonl" | sed -n 1p > "$BATS_TEST_TMPDIR/first.jsonl"
  spart-sim -m "$MODELS/kuka_iiwa.urdf" --duration 0.02 --every 2 --inputs "$BATS_TEST_TMPDIR/first.jsonl" \
    <<< '{"qm": [0, 0.5, 0, -1, 0, 0.5, 0]}' > "$BATS_TEST_TMPDIR/first.rk4"
  [ "$(head -n 2 "$BATS_TEST_TMPDIR/first.rk4")" = "$(head -n 2 "$BATS_TEST_TMPDIR/csv.rk4")" ]
  ! cmp -s "$BATS_TEST_TMPDIR/first.rk4" "$BATS_TEST_TMPDIR/csv.rk4"
  [ "$(wc -l < "$BATS_TEST_TMPDIR/csv.rk4")" -eq 11 ]
}

@test "--inputs in JSON or CSV: no time, a time that is not a finite number, times that do not increase, no records are refused" {
  one_joint
  sim() {
    run --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/one.urdf" --duration 1 \
      --inputs "$BATS_TEST_TMPDIR/$1" <<< '{"qm": [0]}'
    [ "$status" -eq 1 ]
  }
  printf '{"taum": [1]}\n' > "$BATS_TEST_TMPDIR/in.jsonl"
  sim in.jsonl
  [ "$stderr" = "spart-sim: $BATS_TEST_TMPDIR/in.jsonl:1: no time key 't'" ]
  [ -z "$output" ] # refused before the run
  printf '[{"t": 0, "taum": [1]},\n {"taum": [2]}]\n' > "$BATS_TEST_TMPDIR/in.json"
  sim in.json
  [ "$stderr" = "spart-sim: $BATS_TEST_TMPDIR/in.json:2: no time key 't'" ]
  for t in '"0"' null '[0]' 1e999 true; do
    printf '{"t": %s, "taum": [1]}\n' "$t" > "$BATS_TEST_TMPDIR/in.jsonl"
    sim in.jsonl
    [ "$stderr" = "spart-sim: $BATS_TEST_TMPDIR/in.jsonl:1: t is not a finite number" ]
  done
  for t in nan inf '' x 1e999; do
    printf 't,taum_1\n%s,1\n' "$t" > "$BATS_TEST_TMPDIR/in.csv"
    sim in.csv
    [ "$stderr" = "spart-sim: $BATS_TEST_TMPDIR/in.csv:2: t is not a finite number" ]
  done
  printf '{"t": 0, "taum": [1]}\n{"t": 0.5, "taum": [2]}\n{"t": 0.25, "taum": [3]}\n' > "$BATS_TEST_TMPDIR/in.jsonl"
  sim in.jsonl
  [ "$stderr" = "spart-sim: $BATS_TEST_TMPDIR/in.jsonl:3: t = 0.25 after t = 0.5: times must increase" ]
  [ -z "$output" ] # every record read before the run
  printf '[{"t": 0, "taum": [1]}, {"t": 0, "taum": [2]}]\n' > "$BATS_TEST_TMPDIR/in.json"
  sim in.json
  [ "$stderr" = "spart-sim: $BATS_TEST_TMPDIR/in.json:1: t = 0 after t = 0: times must increase" ]
  for empty in '' '[]' 't,taum_1\n'; do
    printf "$empty" > "$BATS_TEST_TMPDIR/in.x"
    sim in.x
    [ "$stderr" = "spart-sim: $BATS_TEST_TMPDIR/in.x: no records: expected a time t and any of tau0, taum, wF0, wFm" ]
  done
}

@test "a fixed-base arm under gravity: spart-fd on the output matches the finite differences of its velocities" {
  spart-sim -m "$MODELS/kuka_iiwa.urdf" --fixed-base --no-friction --gravity 0,0,-9.81 \
    --duration 0.5 -o csv <<< '{"qm": [0, 0.3, 0, -0.5, 0, 0.3, 0], "um": [0.2, 0, -0.2, 0.1, 0, 0.1, 0.3]}' \
    > "$BATS_TEST_TMPDIR/sim.csv"
  spart-fd -m "$MODELS/kuka_iiwa.urdf" --fixed-base --no-friction --gravity 0,0,-9.81 -o csv \
    < "$BATS_TEST_TMPDIR/sim.csv" > "$BATS_TEST_TMPDIR/fd.csv"
  python3 - "$BATS_TEST_TMPDIR/sim.csv" "$BATS_TEST_TMPDIR/fd.csv" <<'PY'
import csv, sys
sim = list(csv.DictReader(open(sys.argv[1])))
fd = list(csv.DictReader(open(sys.argv[2])))
assert len(sim) == len(fd) == 501
assert [r["t"] for r in fd] == [r["t"] for r in sim]  # t passes through spart-fd
# central differences at h and 2h, and their Richardson extrapolation (error O(h^4)); the arm
# falls: its accelerations change by a tenth of themselves over the run
worst = worst_plain = 0
for k in range(2, 499):
    for j in range(1, 8):
        u = lambda i: float(sim[i]["um_%d" % j])
        t = lambda i: float(sim[i]["t"])
        d1 = (u(k + 1) - u(k - 1)) / (t(k + 1) - t(k - 1))
        d2 = (u(k + 2) - u(k - 2)) / (t(k + 2) - t(k - 2))
        a = float(fd[k]["umdot_%d" % j])
        worst_plain = max(worst_plain, abs(d1 - a) / (1 + abs(a)))
        worst = max(worst, abs((4 * d1 - d2) / 3 - a) / (1 + abs(a)))
assert worst_plain < 1e-2, worst_plain
assert worst < 1e-6, worst
PY
}

@test "halving the RK4 step shrinks the error about 16 times" {
  for dt in 0.01 0.005 0.000625; do
    spart-sim -m "$MODELS/kuka_iiwa.urdf" --fixed-base --no-friction --no-limits \
      --gravity 0,0,-9.81 --duration 1 --dt $dt --every 1000000 <<< '{"qm": [0.1, 0.5, -0.3, -1, 0.2, 0.4, 0], "um": [0.5, 0, -0.5, 0.2, 0, 0.1, 1]}' \
      | tail -n 1 > "$BATS_TEST_TMPDIR/$dt.json"
  done
  python3 - "$BATS_TEST_TMPDIR" <<'PY'
import json, sys
d = sys.argv[1]
r = {dt: json.load(open("%s/%s.json" % (d, dt))) for dt in ("0.01", "0.005", "0.000625")}
assert all(x["t"] == 1 for x in r.values())
ref = r["0.000625"]["qm"] + r["0.000625"]["um"]
err = lambda a: max(abs(x - y) for x, y in zip(r[a]["qm"] + r[a]["um"], ref))
ratio = err("0.01") / err("0.005")
assert 12 < ratio < 20, ratio
PY
}

@test "dopri5 agrees with a fine RK4 run to its tolerance and writes at the requested times" {
  S='{"qm": [0.1, 0.5, -0.3, -1, 0.2, 0.4, 0], "um": [0.5, 0, -0.5, 0.2, 0, 0.1, 1]}'
  spart-sim -m "$MODELS/kuka_iiwa.urdf" --fixed-base --no-friction --no-limits \
    --gravity 0,0,-9.81 --duration 1 --dt 0.000125 --every 800 <<< "$S" > "$BATS_TEST_TMPDIR/rk4.jsonl"
  spart-sim -m "$MODELS/kuka_iiwa.urdf" --fixed-base --no-friction --no-limits \
    --gravity 0,0,-9.81 --duration 1 --dt 0.1 --integrator dopri5 --rtol 1e-9 --atol 1e-12 <<< "$S" > "$BATS_TEST_TMPDIR/dp.jsonl"
  python3 - "$BATS_TEST_TMPDIR/rk4.jsonl" "$BATS_TEST_TMPDIR/dp.jsonl" <<'PY'
import json, sys
a = [json.loads(l) for l in open(sys.argv[1])]
b = [json.loads(l) for l in open(sys.argv[2])]
assert [r["t"] for r in b] == [k / 10 for k in range(11)], [r["t"] for r in b]
for x, y in zip(a, b):
    assert abs(x["t"] - y["t"]) < 1e-15
    for u, v in zip(x["qm"] + x["um"], y["qm"] + y["um"]):
        assert abs(u - v) < 1e-7 * (1 + abs(u)), (x["t"], u, v)
PY
}

@test "R0 stays a rotation to 1e-12 while the spacecraft tumbles" {
  spart-sim -m "$MODELS/2_iiwa_base.urdf" --no-friction --duration 20 --every 1000 \
    <<< '{"qm":[0,0,0,0,0,0,0,0,0,0,0,0,0,0],"u0":[3,-2,5,0,0,0],"um":[1,-1,1,-1,1,-1,1,1,-1,1,-1,1,-1,1]}' > "$BATS_TEST_TMPDIR/sim.jsonl"
  python3 - "$BATS_TEST_TMPDIR/sim.jsonl" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
turned = 0
for r in recs:
    R = r["R0"]
    for i in range(3):
        for j in range(3):
            d = sum(R[k][i] * R[k][j] for k in range(3)) - (i == j)
            assert abs(d) < 1e-12, (r["t"], i, j, d)
    turned = max(turned, abs(R[0][0] - 1))
assert turned > 0.5  # the base did turn
PY
}

@test "spart-sim's CSV is read back by spart-id, the time passing through" {
  spart-sim -m "$MODELS/kuka_iiwa.urdf" --fixed-base --duration 0.01 -o csv --accelerations \
    <<< '{"qm": [0, 0, 0, 0, 0, 0, 0], "um": [0.5, 0, -0.5, 0.2, 0, 0.1, 1], "taum": [1, 2, 3, 4, 5, 6, 7]}' > "$BATS_TEST_TMPDIR/sim.csv"
  run -0 spart-id -m "$MODELS/kuka_iiwa.urdf" --fixed-base -o csv < "$BATS_TEST_TMPDIR/sim.csv"
  python3 - "$output" <<'PY'
import csv, io, sys
rows = list(csv.DictReader(io.StringIO(sys.argv[1])))
assert len(rows) == 11 and rows[-1]["t"] == "0.01"
# the accelerations written are those of the torques (friction included, as spart-fd)
for r in rows:
    assert all(abs(float(r["taum_%d" % j]) - j) < 1e-9 * j + 1e-6 for j in range(1, 8)), r
PY
}

@test "spart-fd on spart-sim's output returns the accelerations written (1e-9), JSON and CSV, forces kept with --keep-state" {
  # the free-floating iiwa in gravity with friction: no forces, then constant forces that
  # --keep-state passes on to spart-fd with each state
  S='{"u0": [0.1, -0.2, 0.3, 0, 0.5, 0], "qm": [0, 0.3, 0, -0.5, 0, 0.3, 0], "um": [0.2, 0, -0.2, 0.1, 0, 0.1, 0.3]'
  F='"tau0": [0.5, 0, -1, 2, 0, 1], "taum": [1, -2, 3, 0, 1, 0, -1], "wF0": [0, 0, 1, 0, -3, 0]'
  for fmt in json csv; do
    for rec in "$S}" "$S, $F}"; do
      keep=$([[ "$rec" == *taum* ]] && echo --keep-state || true)
      # the initial state in the format (a CSV output passes on CSV cells only)
      [ $fmt = json ] && printf '%s\n' "$rec" > "$BATS_TEST_TMPDIR/s0" || python3 -c '
import json, sys
r = json.loads(sys.argv[1])
print(",".join("%s_%d" % (k, j + 1) for k in r for j in range(len(r[k]))))
print(",".join(str(x) for k in r for x in r[k]))' "$rec" > "$BATS_TEST_TMPDIR/s0"
      spart-sim -m "$MODELS/kuka_iiwa.urdf" --gravity 0,0,-9.81 --duration 0.05 --every 10 \
        --accelerations $keep < "$BATS_TEST_TMPDIR/s0" > "$BATS_TEST_TMPDIR/sim.$fmt"
      spart-fd -m "$MODELS/kuka_iiwa.urdf" --gravity 0,0,-9.81 < "$BATS_TEST_TMPDIR/sim.$fmt" \
        > "$BATS_TEST_TMPDIR/fd.$fmt"
      # with the forces: spart-fd read them (it does not pass them on), the state's kept
      [ -z "$keep" ] || grep -q 'taum' "$BATS_TEST_TMPDIR/sim.$fmt"
      python3 - "$BATS_TEST_TMPDIR/fd.$fmt" $fmt <<'PY'
import csv, json, sys
path, fmt = sys.argv[1:3]
if fmt == "json":
    recs = [json.loads(l) for l in open(path)]
    get = lambda r, k, n: r[k]
else:
    recs = list(csv.DictReader(open(path)))
    get = lambda r, k, n: [float(r["%s_%d" % (k, j)]) for j in range(1, n + 1)]
assert len(recs) == 6 and float(recs[-1]["t"]) == 0.05, len(recs)
for r in recs:
    for k, n in (("u0dot", 6), ("umdot", 7)):
        a, b = get(r, "in_" + k, n), get(r, k, n)
        assert all(abs(x - y) <= 1e-9 * (1 + abs(x)) for x, y in zip(a, b)), (r["t"], k, a, b)
PY
    done
  done
}

@test "spart-id on spart-sim's output returns the forces held, JSON and CSV" {
  S='{"qm": [0, 0, 0, 0, 0, 0, 0], "u0": [0.1, -0.2, 0.3, 0, 0.5, 0], "um": [0.5, 0, -0.5, 0.2, 0, 0.1, 1], "tau0": [0.5, 0, -1, 2, 0, 1], "taum": [1, 2, 3, 4, 5, 6, 7]}'
  for fmt in json csv; do
    spart-sim -m "$MODELS/kuka_iiwa.urdf" --gravity 0,0,-9.81 --duration 0.01 --every 5 \
      --accelerations -o $fmt <<< "$S" | spart-id -m "$MODELS/kuka_iiwa.urdf" --gravity 0,0,-9.81 \
      > "$BATS_TEST_TMPDIR/id.$fmt"
    python3 - "$BATS_TEST_TMPDIR/id.$fmt" $fmt <<'PY'
import csv, json, sys
path, fmt = sys.argv[1:]
if fmt == "json":
    recs = [json.loads(l) for l in open(path)]
    get = lambda r, k, n: r[k]
else:
    recs = list(csv.DictReader(open(path)))
    get = lambda r, k, n: [float(r["%s_%d" % (k, j)]) for j in range(1, n + 1)]
assert [float(r["t"]) for r in recs] == [0, 0.005, 0.01], [r["t"] for r in recs]
for r in recs:
    for k, want in (("tau0", [0.5, 0, -1, 2, 0, 1]), ("taum", [1, 2, 3, 4, 5, 6, 7])):
        assert all(abs(x - y) < 1e-9 * (1 + abs(y)) for x, y in zip(get(r, k, len(want)), want)), (r["t"], k, get(r, k, len(want)))
PY
  done
}

@test "an initial state in CSV gives CSV, unless -o json" {
  one_joint
  run -0 spart-sim -m "$BATS_TEST_TMPDIR/one.urdf" --fixed-base --duration 0.002 <<< $'qm_1,um_1,taum_1\n0.3,-0.7,0.25'
  [ "${lines[0]}" = "t,R0_1_1,R0_1_2,R0_1_3,R0_2_1,R0_2_2,R0_2_3,R0_3_1,R0_3_2,R0_3_3,r0_1,r0_2,r0_3,qm_1,u0_1,u0_2,u0_3,u0_4,u0_5,u0_6,um_1" ]
  [ "${#lines[@]}" -eq 4 ]
  csv="$output"
  run -0 spart-sim -m "$BATS_TEST_TMPDIR/one.urdf" --fixed-base --duration 0.002 -o json <<< $'qm_1,um_1,taum_1\n0.3,-0.7,0.25'
  [ "${lines[2]:0:14}" = '{"t":0.002,"R0' ]
  # the same run as from JSON
  run -0 spart-sim -m "$BATS_TEST_TMPDIR/one.urdf" --fixed-base --duration 0.002 -o csv <<< '{"qm": [0.3], "um": [-0.7], "taum": [0.25]}'
  [ "$output" = "$csv" ]
}

@test "u0dot, umdot only with --accelerations, which does nothing without them" {
  one_joint
  run --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/one.urdf" --duration 1 --only t,umdot <<< '{"qm": [0]}'
  [ "$status" -eq 2 ]
  [ "${stderr%%$'\n'*}" = "spart-sim: --only umdot: spart-sim writes it only with --accelerations" ]
  run --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/one.urdf" --duration 1 --accelerations --only t,qm <<< '{"qm": [0]}'
  [ "$status" -eq 2 ]
  [ "${stderr%%$'\n'*}" = "spart-sim: --accelerations does nothing with --only t,qm: it changes only u0dot,umdot" ]
  run -0 spart-sim -m "$BATS_TEST_TMPDIR/one.urdf" --fixed-base --duration 0.001 --accelerations --only t,umdot <<< '{"qm": [0], "taum": [0.25]}'
  [ "$output" = $'{"t":0,"umdot":[0.5]}\n{"t":0.001,"umdot":[0.5]}' ]
}

@test "--keep-state with --inputs is refused: the forces kept would not be those held" {
  one_joint
  printf 't,taum_1\n0,1\n' > "$BATS_TEST_TMPDIR/in.csv"
  run --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/one.urdf" --duration 1 --keep-state \
    --inputs "$BATS_TEST_TMPDIR/in.csv" <<< '{"taum": [2]}'
  [ "$status" -eq 2 ]
  [ "${stderr%%$'\n'*}" = "spart-sim: --keep-state with --inputs: the initial record's forces, kept, are not those held from the inputs" ]
}

@test "a record spart-sim wrote with --accelerations starts the next run: its accelerations are not passed on, the run goes on as one" {
  one_joint
  S='{"qm": [0.3], "um": [-0.7], "taum": [0.25]}'
  spart-sim -m "$BATS_TEST_TMPDIR/one.urdf" --fixed-base --duration 0.01 --accelerations <<< "$S" > "$BATS_TEST_TMPDIR/whole.jsonl"
  spart-sim -m "$BATS_TEST_TMPDIR/one.urdf" --fixed-base --duration 0.005 --accelerations <<< "$S" \
    | tail -n 1 | sed 's/}$/,"taum":[0.25]}/' > "$BATS_TEST_TMPDIR/half.json"
  run -0 spart-sim -m "$BATS_TEST_TMPDIR/one.urdf" --fixed-base --duration 0.005 < "$BATS_TEST_TMPDIR/half.json"
  python3 - "$BATS_TEST_TMPDIR/whole.jsonl" "$output" <<'PY'
import json, sys
whole = [json.loads(l) for l in open(sys.argv[1])][5:]
rest = [json.loads(l) for l in sys.argv[2].splitlines()]
assert len(rest) == 6
for a, b in zip(whole, rest):
    assert "umdot" not in b and "u0dot" not in b and "in_umdot" not in b, list(b)
    assert (a["qm"], a["um"]) == (b["qm"], b["um"]), (a, b)
PY
}

@test "a singular model is reported with the time, exit 1" {
  cat > "$BATS_TEST_TMPDIR/m.urdf" <<'URDF'
<robot name="r"><link name="b"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
<joint name="j" type="revolute"><parent link="b"/><child link="l"/><axis xyz="0 0 1"/></joint><link name="l"/></robot>
URDF
  run --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/m.urdf" --duration 1 <<< '{"qm": [0], "taum": [1]}'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-sim: <stdin>:1: t = 0: singular inertia at link 1: joint 1 can move without moving any mass" ]
  [ -z "$output" ]
}

@test "a state that stops being finite is reported with the time and the field, exit 1" {
  one_joint
  run --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/one.urdf" --fixed-base --duration 1 \
    <<< '{"qm": [0], "taum": [1e308]}'
  [ "$status" -eq 1 ]
  # um overflows first (2nd stage); spart_aba no longer fails on it, so the state is looked at
  [ "$stderr" = "spart-sim: <stdin>:1: t = 0: um is not finite within the step to t = 0.001" ]
  [ "$(printf '%s\n' "$output" | wc -l)" -eq 1 ]
}

# the iiwa's initial states, N of them, each with an id, as JSON lines in FILE.jsonl, a JSON
# array in FILE.json and CSV rows in FILE.csv: states N FILE
states() {
  python3 - "$1" "$2" <<'PY'
import json, sys
n, out = int(sys.argv[1]), sys.argv[2]
recs = [{"id": "s%d" % k, "qm": [0.1 * k, 0.5, 0, -1, 0, 0.5, 0],
         "um": [0, 0.2 * k, 0, 0, -0.1 * k, 0, 0], "taum": [0, 0, 0, 0, 0, 0, k]} for k in range(n)]
with open(out + ".jsonl", "w") as f:
    f.writelines(json.dumps(r) + "\n" for r in recs)
json.dump(recs, open(out + ".json", "w"), indent=1)
with open(out + ".csv", "w") as f:
    f.write(",".join(["id"] + ["%s_%d" % (k, j) for k in ("qm", "um", "taum") for j in range(1, 8)]) + "\n")
    for r in recs:
        f.write(",".join([r["id"]] + [repr(x) for k in ("qm", "um", "taum") for x in r[k]]) + "\n")
PY
}

@test "several initial states: one trajectory each, in input order, those of a run a state (JSON lines, a JSON array, CSV)" {
  states 4 "$BATS_TEST_TMPDIR/s"
  opts=(-m "$MODELS/kuka_iiwa.urdf" --fixed-base --gravity 0,0,-9.81 --duration 0.05 --every 5)
  # one run a state, the outputs one after another (CSV: the header once)
  for k in 1 2 3 4; do
    sed -n "${k}p" "$BATS_TEST_TMPDIR/s.jsonl" | spart-sim "${opts[@]}"
  done > "$BATS_TEST_TMPDIR/each.jsonl"
  for k in 2 3 4 5; do
    sed -n "1p;${k}p" "$BATS_TEST_TMPDIR/s.csv" | spart-sim "${opts[@]}" | { [ $k -eq 2 ] && cat || tail -n +2; }
  done > "$BATS_TEST_TMPDIR/each.csv"
  [ "$(wc -l < "$BATS_TEST_TMPDIR/each.jsonl")" -eq 44 ] # 0 to 0.05 every 5 ms: 11 a state
  spart-sim "${opts[@]}" < "$BATS_TEST_TMPDIR/s.jsonl" > "$BATS_TEST_TMPDIR/all.jsonl"
  cmp "$BATS_TEST_TMPDIR/each.jsonl" "$BATS_TEST_TMPDIR/all.jsonl"
  spart-sim "${opts[@]}" < "$BATS_TEST_TMPDIR/s.json" > "$BATS_TEST_TMPDIR/all.json"
  cmp "$BATS_TEST_TMPDIR/each.jsonl" "$BATS_TEST_TMPDIR/all.json"
  spart-sim "${opts[@]}" < "$BATS_TEST_TMPDIR/s.csv" > "$BATS_TEST_TMPDIR/all.csv"
  cmp "$BATS_TEST_TMPDIR/each.csv" "$BATS_TEST_TMPDIR/all.csv"
  # each record names its trajectory by the id passed through; each starts at t = 0
  python3 - "$BATS_TEST_TMPDIR/all.jsonl" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert [r["id"] for r in recs] == ["s%d" % k for k in range(4) for _ in range(11)]
assert [r["t"] for r in recs[::11]] == [0] * 4 and list(recs[0])[:2] == ["id", "t"]
assert recs[10]["qm"] != recs[21]["qm"]  # different trajectories
PY
  # dopri5 and --inputs: each trajectory from its own start (the step size, the inputs' first row)
  printf 't,taum_1,taum_2,taum_3,taum_4,taum_5,taum_6,taum_7\n0,1,0,0,0,0,0,0\n0.01,-2,0,0,0,0,0,0\n0.02,0.5,0,0,0,0,0,0\n' > "$BATS_TEST_TMPDIR/in.csv"
  for k in 1 2 3; do
    sed -n "${k}p" "$BATS_TEST_TMPDIR/s.jsonl" |
      spart-sim "${opts[@]}" --integrator dopri5 --inputs "$BATS_TEST_TMPDIR/in.csv"
  done > "$BATS_TEST_TMPDIR/each.jsonl"
  head -n 3 "$BATS_TEST_TMPDIR/s.jsonl" |
    spart-sim "${opts[@]}" --integrator dopri5 --inputs "$BATS_TEST_TMPDIR/in.csv" > "$BATS_TEST_TMPDIR/all.jsonl"
  cmp "$BATS_TEST_TMPDIR/each.jsonl" "$BATS_TEST_TMPDIR/all.jsonl"
  # --inputs from a pipe, read once: the same
  head -n 3 "$BATS_TEST_TMPDIR/s.jsonl" |
    spart-sim "${opts[@]}" --integrator dopri5 --inputs <(cat "$BATS_TEST_TMPDIR/in.csv") > "$BATS_TEST_TMPDIR/pipe.jsonl"
  cmp "$BATS_TEST_TMPDIR/each.jsonl" "$BATS_TEST_TMPDIR/pipe.jsonl"
}

@test "several initial states: a bad one, or a trajectory that fails, stops the run after the trajectories before it; -k goes on" {
  one_joint
  printf '{"id": 1, "qm": [0]}\n{"id": 2, "qm": [0, 1]}\n{"id": 3, "qm": [0], "taum": [1e308]}\n{"id": 4, "qm": [1]}\n' > "$BATS_TEST_TMPDIR/s.jsonl"
  run --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/one.urdf" --fixed-base --duration 0.002 < "$BATS_TEST_TMPDIR/s.jsonl"
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-sim: <stdin>:2: qm has 2 values, model needs 1" ]
  [ "${#lines[@]}" -eq 3 ] # the first trajectory: t = 0, 0.001, 0.002
  [[ "${lines[2]}" == '{"id":1,"t":0.002,'* ]]
  run --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/one.urdf" --fixed-base --duration 0.002 -k < "$BATS_TEST_TMPDIR/s.jsonl"
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-sim: <stdin>:2: qm has 2 values, model needs 1
spart-sim: <stdin>:3: t = 0: um is not finite within the step to t = 0.001
spart-sim: 2 bad records: 1 skipped, 1 partly written" ]
  # the same count with threads
  run --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/one.urdf" --fixed-base --duration 0.002 -k -j 3 < "$BATS_TEST_TMPDIR/s.jsonl"
  [ "$status" -eq 1 ]
  [ "${stderr##*$'\n'}" = "spart-sim: 2 bad records: 1 skipped, 1 partly written" ]
  # the first, the third's t = 0 (written before its step failed), the fourth
  [ "$(printf '%s\n' "${lines[@]}" | cut -d, -f1-2 | tr '\n' ' ')" = '{"id":1,"t":0 {"id":1,"t":0.001 {"id":1,"t":0.002 {"id":3,"t":0 {"id":4,"t":0 {"id":4,"t":0.001 {"id":4,"t":0.002 ' ]
  # a bad --inputs file stops the run at the first trajectory, -k or not
  printf 't,taum_1\n0,1\n0.001,2\n0.0005,3\n' > "$BATS_TEST_TMPDIR/in.csv"
  run --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/one.urdf" --fixed-base --duration 0.002 -k \
    --inputs "$BATS_TEST_TMPDIR/in.csv" <<< $'{"qm": [0]}\n{"qm": [1]}'
  [ "$status" -eq 1 ]
  # the times as the records write them; nothing written: every row is read before the run
  [ "$stderr" = "spart-sim: $BATS_TEST_TMPDIR/in.csv:4: t = 0.0005 after t = 0.001: times must increase" ]
  [ -z "$output" ]
}

@test "no initial state is an error" {
  one_joint
  for input in /dev/null <(printf '\n\n') <(printf 'qm_1\n'); do
    run --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/one.urdf" --duration 0.002 < "$input"
    [ "$status" -eq 1 ]
    [ "$stderr" = "spart-sim: no initial state on stdin" ]
    [ -z "$output" ]
  done
  # file operands: the message says where it looked
  : > "$BATS_TEST_TMPDIR/none.json"
  run --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/one.urdf" --duration 0.002 \
    "$BATS_TEST_TMPDIR/none.json" "$BATS_TEST_TMPDIR/none.json"
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-sim: no initial state in the files given" ]
  [ -z "$output" ]
}

@test "--check-limits reports a joint when it leaves its limits, exit 4 as the other commands" {
  run --separate-stderr spart-sim -m "$MODELS/kuka_iiwa.urdf" --fixed-base --no-friction \
    --duration 1 --every 1000 --check-limits <<< '{"qm": [2.9, 0, 0, 0, 0, 0, 0], "um": [1, 0, 0, 0, 0, 0, 0]}'
  [ "$status" -eq 4 ]
  [ "${#lines[@]}" -eq 2 ]
  [[ "$stderr" == "spart-sim: <stdin>:1: t = 0.0"*": joint "*" leaves its limits: qm_1 = "*" > upper"$'\n'"spart-sim: 1 of 1 records leave the joint limits" ]]
  # several initial states: each message names its trajectory's record
  run --separate-stderr spart-sim -m "$MODELS/kuka_iiwa.urdf" --fixed-base --no-friction \
    --duration 1 --every 1000 --check-limits <<< $'{"qm": [0, 0, 0, 0, 0, 0, 0]}\n{"qm": [2.9, 0, 0, 0, 0, 0, 0], "um": [1, 0, 0, 0, 0, 0, 0]}'
  [ "$status" -eq 4 ]
  [[ "$stderr" == "spart-sim: <stdin>:2: t = 0.0"*": joint "*" leaves its limits: qm_1 = "*" > upper"$'\n'"spart-sim: 1 of 2 records leave the joint limits" ]]
}

@test "every example in spart-sim(1) runs" {
  cd "$BATS_TEST_TMPDIR"
  ln -s "$TOP/models" models
  man_examples "$TOP/man/spart-sim.1" examples.sh
  [ "$(wc -l < examples.sh)" -eq 3 ]
  run --separate-stderr bash -e examples.sh
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -eq $((28 + 1 + 3 * 11)) ]
  # the three trajectories, their ids passing through, -j 2 as -j 1
  [ "$(printf '%s\n' "${lines[@]:29}" | cut -d, -f1 | uniq -c | tr -s ' ')" = "$(printf ' 11 a\n 11 b\n 11 c')" ]
  sed -n 3p examples.sh | sed 's/-j 2/-j 1/' > one.sh
  [ "$(bash -e one.sh)" = "$(printf '%s\n' "${lines[@]:28}")" ]
}

@test "the README's simulation runs: the arm swings, the base turns in reaction, gnuplot plots it" {
  cd "$BATS_TEST_TMPDIR"
  ln -s "$TOP/models" models
  mkdir scripts && cp "$TOP/scripts/swing.gp" scripts/
  sed -n '/^    echo .*"taum": \[0.5/,/> swing.csv$/p' "$TOP/README.md" > example.sh
  [ "$(wc -l < example.sh)" -eq 2 ]
  bash -e example.sh
  python3 - <<'PY'
import csv, math
rows = list(csv.DictReader(open("swing.csv")))
assert len(rows) == 201 and rows[-1]["t"] == "4"
yaw = [math.atan2(float(r["R0_2_1"]), float(r["R0_1_1"])) for r in rows]
# the shoulder turned to its limit (2.9671), where the limit's spring holds it
assert 2.9 < float(rows[-1]["qm_1"]) < 2.9671 + 0.01, rows[-1]["qm_1"]
assert max(abs(y) for y in yaw) > 0.005  # and the base turned, by its own accord
PY
  if command -v gnuplot > /dev/null; then
    run -0 gnuplot -e "set terminal dumb" scripts/swing.gp
    [[ "$output" == *"base (yaw)"* ]]
  fi
}

@test "a lone body tumbling about its intermediate axis keeps its angular momentum R0 I omega to 1e-10" {
  # the flip of the intermediate axis (Dzhanibekov): R0 turns by large angles about moving axes,
  # which the exponential map's derivative (dexp^-1) must follow at RK4's order
  cat > "$BATS_TEST_TMPDIR/body.urdf" <<'URDF'
<robot name="body"><link name="b"><inertial><mass value="3"/><inertia ixx="1" iyy="2" izz="3" ixy="0" ixz="0" iyz="0"/></inertial></link></robot>
URDF
  run -0 spart-sim -m "$BATS_TEST_TMPDIR/body.urdf" --duration 10 --every 100 <<< '{"u0": [0.1, 3, 0.2, 0, 0, 0]}'
  python3 -c '
import json, sys
I = [1, 2, 3]
recs = [json.loads(l) for l in sys.argv[1].splitlines()]
def L(r):
    R, w = r["R0"], r["u0"][:3]
    return [sum(R[i][k] * I[k] * w[k] for k in range(3)) for i in range(3)]
L0 = L(recs[0])
err = max(max(abs(a - b) for a, b in zip(L(r), L0)) for r in recs) / max(map(abs, L0))
assert err < 1e-10, err
assert min(r["u0"][1] for r in recs) < -2.9  # it flipped
' "$output"
}

@test "memory does not grow with the duration" {
  [ -x /usr/bin/time ] || skip "no /usr/bin/time"
  for T in 1 100; do
    /usr/bin/time -f %M -o "$BATS_TEST_TMPDIR/$T.kib" spart-sim -m "$MODELS/kuka_iiwa.urdf" \
      --fixed-base --duration $T --every 1000 -o csv <<< '{"qm": [0, 0, 0, 0, 0, 0, 0]}' > /dev/null
  done
  [ "$(cat "$BATS_TEST_TMPDIR/100.kib")" -lt $(( $(cat "$BATS_TEST_TMPDIR/1.kib") + 512 )) ]
}

# a free-floating model with a quaternion joint: a ball joint, or a floating joint in the tree
quat_models() {
  J="$BATS_TEST_DIRNAME/data/joints"
  # model|qm (quaternions unit)|um|taum|where the quaternion starts in qm
  echo "$J/ball.urdf|0.9233805168766387,0.10259783520851541,0.3077935056255462,-0.20519567041703082,0.3|1.3,-2.4,0.5,1.6|0.1,-0.2,0.05,0.1|0"
  echo "$J/floating_tree.urdf|0.2,0.5,0.5,0.5,0.5,0.1,-0.2,0.3,0.4,0.05|0.5,1.1,-0.7,0.9,0.3,-0.4,0.2,0.6,-0.3|0.01,0.005,-0.01,0.002,0.01,-0.005,0.003,0.01,-0.02|1"
}

@test "quaternion joints (ball, floating in a tree) on their manifold: unit to 1e-12 at every step, momentum kept to 1e-9, energy to 1e-8" {
  while IFS='|' read -r model qm um taum a; do
    for tau in "$taum" "0"; do
      rec="{\"qm\":[$qm],\"u0\":[0.2,-0.1,0.3,0.5,-0.2,0.1],\"um\":[$um]"
      [ "$tau" = 0 ] && rec="$rec}" || rec="$rec,\"taum\":[$tau]}"
      spart-sim -m "$model" --no-friction --duration 10 -o csv <<< "$rec" > "$BATS_TEST_TMPDIR/sim.csv"
      spart-kin -m "$model" --momentum --energy --only momentum,kinetic_energy -o json \
        < "$BATS_TEST_TMPDIR/sim.csv" > "$BATS_TEST_TMPDIR/kin.jsonl"
      python3 - "$BATS_TEST_TMPDIR/sim.csv" "$BATS_TEST_TMPDIR/kin.jsonl" "$a" "$tau" <<'PY'
import csv, json, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
kin = [json.loads(l) for l in open(sys.argv[2])]
a, torque = int(sys.argv[3]), sys.argv[4] != "0"
assert len(rows) == 10001 == len(kin) and float(rows[-1]["t"]) == 10, len(rows)
# the quaternion: unit at every step, and it turns (not a joint at rest)
worst = max(abs(math.sqrt(sum(float(r["qm_%d" % (a + k)]) ** 2 for k in range(1, 5))) - 1)
            for r in rows)
assert worst <= 1e-12, worst
quat = lambda r: [float(r["qm_%d" % (a + k)]) for k in range(1, 5)]
assert max(abs(x - y) for x, y in zip(quat(rows[-1]), quat(rows[0]))) > 0.1
norm = lambda v: math.sqrt(sum(x * x for x in v))
h0, e0 = kin[0]["momentum"], kin[0]["kinetic_energy"]
for k in kin:
    h = k["momentum"]
    for part, (i, j) in (("angular", (0, 3)), ("linear", (3, 6))):
        err = norm([x - y for x, y in zip(h[i:j], h0[i:j])]) / norm(h0[i:j])
        assert err < 1e-9, (k["t"], part, err)
    if not torque:
        assert abs(k["kinetic_energy"] - e0) < 1e-8 * e0, (k["t"], k["kinetic_energy"], e0)
if torque:  # the torques do work
    assert abs(kin[-1]["kinetic_energy"] - e0) > 1e-3 * e0
print(sys.argv[3], "quaternion norm error", worst)
PY
    done
  done < <(quat_models)
}

@test "--inputs: a key or column other than t and the forces is refused, not dropped" {
  one_joint
  for rec in '"qm": [1]' '"um": [1]' '"bogus": 3' '"tau_m": [1]'; do
    printf '{"t": 0, "taum": [1], %s}\n' "$rec" > "$BATS_TEST_TMPDIR/in.jsonl"
    run --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/one.urdf" --duration 0.01 \
      --inputs "$BATS_TEST_TMPDIR/in.jsonl" <<< '{"qm": [0]}'
    [ "$status" -eq 1 ]
    key=${rec#\"}
    [ "$stderr" = "spart-sim: $BATS_TEST_TMPDIR/in.jsonl:1: key '${key%%\"*}' is not an input: a record gives t and any of tau0, taum, wF0, wFm" ]
    [ -z "$output" ]
  done
  printf 't,taum_1,tau_m_1\n0,1,2\n' > "$BATS_TEST_TMPDIR/in.csv"
  run --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/one.urdf" --duration 0.01 \
    --inputs "$BATS_TEST_TMPDIR/in.csv" <<< '{"qm": [0]}'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-sim: $BATS_TEST_TMPDIR/in.csv:2: column 'tau_m_1' is not an input: a record gives t and any of tau0, taum, wF0, wFm" ]
}

@test "--inputs: a record with only t holds zero forces (JSON and CSV)" {
  one_joint
  # taum 0.25 from 0, nothing from 0.5: the joint (inertia 0.5) speeds up to 0.25 and stays
  printf '{"t": 0, "taum": [0.25]}\n{"t": 0.5}\n' > "$BATS_TEST_TMPDIR/in.jsonl"
  printf 't\n0\n' > "$BATS_TEST_TMPDIR/in.csv"
  run -0 spart-sim -m "$BATS_TEST_TMPDIR/one.urdf" --fixed-base --duration 1 --every 250 \
    --only t,um --inputs "$BATS_TEST_TMPDIR/in.jsonl" <<< '{"qm": [0], "taum": [9]}'
  python3 -c '
import json, sys
recs = [json.loads(l) for l in sys.argv[1].splitlines()]
assert [r["t"] for r in recs] == [0, 0.25, 0.5, 0.75, 1], recs
for r in recs:
    u = 0.25 * min(r["t"], 0.5) / 0.5
    assert abs(r["um"][0] - u) < 1e-12, (r, u)
' "$output"
  # a time alone from t = 0: no force at all (the initial record's taum is not held)
  run -0 spart-sim -m "$BATS_TEST_TMPDIR/one.urdf" --fixed-base --duration 0.01 --every 10 \
    --only t,um --inputs "$BATS_TEST_TMPDIR/in.csv" <<< '{"qm": [0], "taum": [9]}'
  [ "$output" = $'{"t":0,"um":[0]}\n{"t":0.01,"um":[0]}' ]
}

@test "--inputs: times out of order are refused before the run, even past the duration" {
  one_joint
  printf 't,taum_1\n0,1\n5,2\n4,3\n' > "$BATS_TEST_TMPDIR/in.csv"
  for integ in rk4 dopri5; do
    run --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/one.urdf" --duration 0.01 \
      --integrator $integ --inputs "$BATS_TEST_TMPDIR/in.csv" <<< '{"qm": [0]}'
    [ "$status" -eq 1 ]
    [ "$stderr" = "spart-sim: $BATS_TEST_TMPDIR/in.csv:4: t = 4 after t = 5: times must increase" ]
    [ -z "$output" ]
  done
  # from a pipe too
  run --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/one.urdf" --duration 0.01 \
    --inputs <(cat "$BATS_TEST_TMPDIR/in.csv") <<< '{"qm": [0]}'
  [ "$status" -eq 1 ]
  [ -z "$output" ]
}

@test "--keep-state --only: no state field of another instant than the record's t" {
  rec='{"qm": [0, 0.5, 0, -1, 0, 0.5, 0], "qmdot": [0.1, 0, 0, 0, 0, 0, 0], "taum": [1, 0, 0, 0, 0, 0, 0], "id": 7}'
  run -0 spart-sim -m "$MODELS/kuka_iiwa.urdf" --fixed-base --duration 0.002 --keep-state \
    --only t,umdot --accelerations <<< "$rec"
  python3 -c '
import json, sys
recs = [json.loads(l) for l in sys.argv[1].splitlines()]
assert len(recs) == 3
for r in recs:
    assert sorted(r) == ["id", "t", "taum", "umdot"], r   # the forces held and the id, no qm or qmdot
    assert r["taum"] == [1, 0, 0, 0, 0, 0, 0] and r["id"] == 7
' "$output"
  # CSV in and out: the same
  printf 'qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7,um_1,um_2,um_3,um_4,um_5,um_6,um_7,taum_1,taum_2,taum_3,taum_4,taum_5,taum_6,taum_7\n0,0.5,0,-1,0,0.5,0,0.1,0,0,0,0,0,0,1,0,0,0,0,0,0\n' > "$BATS_TEST_TMPDIR/in.csv"
  run -0 spart-sim -m "$MODELS/kuka_iiwa.urdf" --fixed-base --duration 0.002 --keep-state \
    --only t,um -o csv < "$BATS_TEST_TMPDIR/in.csv"
  [ "${lines[0]}" = "taum_1,taum_2,taum_3,taum_4,taum_5,taum_6,taum_7,t,um_1,um_2,um_3,um_4,um_5,um_6,um_7" ]
  # the state written is the state at t: its um_1 changes from record to record
  [ "$(cut -d, -f9 <<< "$output" | sort -u | wc -l)" -eq 4 ]
}

@test "times and values in messages are written as the records write them (shortest round trip)" {
  cat > "$BATS_TEST_TMPDIR/lim.urdf" <<'URDF'
<robot name="one"><link name="b"><inertial><mass value="10"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
<joint name="j" type="revolute"><parent link="b"/><child link="l"/><axis xyz="0 0 1"/><limit lower="-1" upper="0.04" effort="10" velocity="10"/></joint>
<link name="l"><inertial><mass value="2"/><inertia ixx="0.3" iyy="0.4" izz="0.5" ixy="0" ixz="0" iyz="0"/></inertial></link></robot>
URDF
  # q = t^2 (taum 1 on inertia 0.5) passes 0.04 at t = 0.2
  run --separate-stderr spart-sim -m "$BATS_TEST_TMPDIR/lim.urdf" --fixed-base --duration 0.5 \
    --dt 0.1 --check-limits --no-limits <<< '{"qm": [0], "taum": [1]}'
  [ "$status" -eq 4 ]
  [[ "$stderr" == "spart-sim: <stdin>:1: t = 0.2: joint 1 'j' leaves its limits: qm_1 = "* ]]
  # the same texts as in the record of t = 0.2
  q=$(grep '"t":0.2,' <<< "$output" | sed 's/.*"qm":\[\([^]]*\)\].*/\1/')
  [ "${stderr%%$'\n'*}" = "spart-sim: <stdin>:1: t = 0.2: joint 1 'j' leaves its limits: qm_1 = $q > upper" ]
}

@test "rk4 past its stability for the joints' damping is refused with the largest stable step, not written diverged" {
  st='{"qm": [0, 0.5, 0, -1, 0, 0.5, 0]}'
  opts=(-m "$MODELS/kuka_iiwa.urdf" --fixed-base --gravity 0,0,-9.81 --duration 0.05 --only t,qm)
  for dt in 0.01 0.006; do
    run --separate-stderr spart-sim "${opts[@]}" --dt $dt <<< "$st"
    [ "$status" -eq 1 ]
    [ -z "$output" ] # nothing written
    [[ "$stderr" == "spart-sim: <stdin>:1: t = 0: --dt $dt is an unstable step for rk4 with the damping of joint 7 'lbr_iiwa_joint_7': the largest stable step here is "*" s (use a smaller --dt, or --integrator implicit or dopri5)" ]]
  done
  hmax=$(sed 's/.*stable step here is \([^ ]*\) s.*/\1/' <<< "$stderr")
  # the step named is stable: a run at 0.97 of it (and at 0.001) agrees with dopri5 at a tight
  # tolerance (1e-6 rad), an independent integration
  run -0 spart-sim "${opts[@]}" --integrator dopri5 --rtol 1e-11 --atol 1e-13 --dt 0.05 <<< "$st"
  ref=${lines[-1]}
  for dt in $(python3 -c "print(0.05 / __import__('math').ceil(0.05 / (0.97 * $hmax)))") 0.001; do
    run -0 spart-sim "${opts[@]}" --dt $dt <<< "$st"
    python3 -c '
import json, sys
a, b = json.loads(sys.argv[1]), json.loads(sys.argv[2])
assert a["t"] == b["t"] == 0.05, (a["t"], b["t"])
assert max(abs(x - y) for x, y in zip(a["qm"], b["qm"])) < 1e-6, (a, b)
' "${lines[-1]}" "$ref"
  done
}

@test "dopri5 on a joint held by Coulomb friction ends with one line naming the cause; --coulomb-scale gets through" {
  # the puma560's joints have Coulomb friction: held still under gravity they stick
  opts=(-m "$MODELS/puma560.dh.json" --fixed-base --gravity 0,0,-9.81 --integrator dopri5 --duration 0.1)
  run --separate-stderr timeout 120 spart-sim "${opts[@]}" --max-steps 20000 <<< '{"qm": [0, 0, 0, 0, 0, 0]}'
  [ "$status" -eq 1 ]
  [[ "$stderr" == "spart-sim: <stdin>:1: t = "*": dopri5 took 20000 steps without reaching t = 0.001 (its step is now "*" s): a joint held by Coulomb friction, or too stiff dynamics (--coulomb-scale V smooths it)" ]]
  [ "$(wc -l <<< "$stderr")" -eq 1 ]
  [ "${#lines[@]}" -eq 1 ] # t = 0 only
  # the default limit ends it too
  run --separate-stderr timeout 300 spart-sim "${opts[@]}" --only t <<< '{"qm": [0, 0, 0, 0, 0, 0]}'
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"dopri5 took 100000 steps without reaching"* ]]
  # the smoothed law: a run, and the same as rk4 at a fine step with the same law (1e-7 rad)
  run -0 spart-sim "${opts[@]}" --coulomb-scale 0.01 --rtol 1e-10 --atol 1e-12 --dt 0.1 --only t,qm <<< '{"qm": [0, 0, 0, 0, 0, 0]}'
  a=${lines[-1]}
  run -0 spart-sim -m "$MODELS/puma560.dh.json" --fixed-base --gravity 0,0,-9.81 --duration 0.1 \
    --coulomb-scale 0.01 --dt 0.0001 --only t,qm <<< '{"qm": [0, 0, 0, 0, 0, 0]}'
  python3 -c '
import json, sys
a, b = json.loads(sys.argv[1]), json.loads(sys.argv[2])
assert a["t"] == b["t"] == 0.1
assert max(abs(x - y) for x, y in zip(a["qm"], b["qm"])) < 1e-7, (a, b)
assert abs(a["qm"][1]) > 1e-3 # the arm sags: the friction does not hold it
' "$a" "${lines[-1]}"
  run -2 spart-sim "${opts[@]}" --coulomb-scale 0 <<< '{"qm": [0, 0, 0, 0, 0, 0]}'
  run -2 spart-sim -m "$MODELS/puma560.dh.json" --duration 1 --max-steps 10 <<< '{"qm": [0, 0, 0, 0, 0, 0]}'
}
