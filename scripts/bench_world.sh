#!/bin/sh
# bench_world.sh -- spart-sim in a world (`make bench-world`, and the last part of `make bench`):
# CPU seconds (user + system, the best of RUNS runs, default 3) of 10 s simulated at 1 kHz with
# every state written (to a file): the bundled quadruped dropped onto the ground (--ground)
# standing under PD, and kuka_iiwa on a fixed base under computed torque (--control ctc) along
# sines given every millisecond; the quadruped under PD with Kd 5 (the gains rk4 needs 0.5 ms
# for) by the implicit step at 1 ms and by rk4 at 0.5 ms (the ground's damper of before given)
# and at 0.2 ms (the default ground, the implicit step's), every millisecond's state written.
# The targets: under 0.5 s and 0.2 s; the implicit step under 0.15 s and a third of rk4's.
# Environment: RUNS, BENCH_DIR.
set -eu
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
dir=${BENCH_DIR:-${TMPDIR:-/tmp}/spart-bench}/world
mkdir -p "$dir"

# the references and initial states
python3 - "$dir" <<'PY'
import json, math, sys
d = sys.argv[1]
q = [0, 0.4, -0.8] * 4
with open(d + "/quad_ref.json", "w") as f:
    f.write(json.dumps({"t": 0, "qm": q}) + "\n")
with open(d + "/quad_init.json", "w") as f:
    f.write(json.dumps({"r0": [0.02, 0, 0.45], "qm": q}) + "\n")
w = math.pi
with open(d + "/iiwa_ref.json", "w") as f:
    for k in range(10001):
        t = k / 1000
        f.write(json.dumps({"t": t, "qm": [0.5 * math.sin(w * t + 0.3 * j) for j in range(7)],
                            "um": [0.5 * w * math.cos(w * t + 0.3 * j) for j in range(7)]}) + "\n")
with open(d + "/iiwa_init.json", "w") as f:
    f.write(json.dumps({"qm": [0.5 * math.sin(0.3 * j) for j in range(7)],
                        "um": [0.5 * w * math.cos(0.3 * j) for j in range(7)]}) + "\n")
PY

# the best CPU seconds of RUNS runs of a command reading $1
best() {
  input=$1
  shift
  b=""
  for _ in $(seq "$RUNS"); do
    if [ -x /usr/bin/time ]; then
      /usr/bin/time -f "%U %S" -o "$dir/time" "$@" < "$input" > "$dir/out"
      s=$(awk '{ printf "%.3f", $1 + $2 }' "$dir/time")
    else
      t0=$(date +%s.%N)
      "$@" < "$input" > "$dir/out"
      s=$(echo "$t0 $(date +%s.%N)" | awk '{ printf "%.3f", $2 - $1 }')
    fi
    b=$(echo "$s ${b:-$s}" | awk '{ print ($1 < $2) ? $1 : $2 }')
  done
  echo "$b"
}

echo "== spart-sim in a world, measured here: 10 s at 1 kHz, every state written, CPU s (best of $RUNS)"
# (rk4 at 1 ms and 0.5 ms with the ground's damper of before, 2 sqrt(k m) on its lightest body
# with contacts, 256.755 N s/m: the default now, 2 sqrt(k M), takes the landing without rebound
# but bounds rk4's step to 0.42 ms)
old="--damping 256.755"
s=$(best "$dir/quad_init.json" bin/spart-sim -m models/quadruped.urdf --gravity 0,0,-9.81 \
  --ground $old --duration 10 --control pd --kp 300 --kd 1.5 --reference "$dir/quad_ref.json")
printf '%-52s %6s s  (target 0.5)  %s states\n' "quadruped dropped on --ground, PD standing" "$s" \
  "$(wc -l < "$dir/out")"
s=$(best "$dir/quad_init.json" bin/spart-sim -m models/quadruped.urdf --gravity 0,0,-9.81 \
  --ground --duration 10 --control pd --kp 300 --kd 5 --reference "$dir/quad_ref.json" \
  --integrator implicit)
printf '%-52s %6s s  (target 0.15)  %s states\n' "quadruped standing, Kd 5, implicit at 1 ms" "$s" \
  "$(wc -l < "$dir/out")"
r=$(best "$dir/quad_init.json" bin/spart-sim -m models/quadruped.urdf --gravity 0,0,-9.81 \
  --ground $old --duration 10 --control pd --kp 300 --kd 5 --reference "$dir/quad_ref.json" \
  --dt 0.0005 --every 2)
ratio=$(echo "$s $r" | awk '{ printf "%.2f", $1 / $2 }')
printf '%-52s %6s s  (the implicit step: %s of it, target 1/3)  %s states\n' \
  "quadruped standing, Kd 5, rk4 at 0.5 ms ($old)" "$r" "$ratio" "$(wc -l < "$dir/out")"
r=$(best "$dir/quad_init.json" bin/spart-sim -m models/quadruped.urdf --gravity 0,0,-9.81 \
  --ground --duration 10 --control pd --kp 300 --kd 5 --reference "$dir/quad_ref.json" \
  --dt 0.0002 --every 5)
ratio=$(echo "$s $r" | awk '{ printf "%.2f", $1 / $2 }')
printf '%-52s %6s s  (the implicit step: %s of it)  %s states\n' \
  "quadruped standing, Kd 5, rk4 at 0.2 ms (its ground)" "$r" "$ratio" "$(wc -l < "$dir/out")"
s=$(best "$dir/iiwa_init.json" bin/spart-sim -m models/kuka_iiwa.urdf --fixed-base \
  --gravity 0,0,-9.81 --duration 10 --control ctc --kp 400 --kd 40 \
  --reference "$dir/iiwa_ref.json")
printf '%-52s %6s s  (target 0.2)  %s states\n' "kuka_iiwa --control ctc along sines" "$s" \
  "$(wc -l < "$dir/out")"
rm -rf "$dir"
