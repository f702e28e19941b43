#!/bin/sh
# helgrind.sh -- the commands' threads (-j) under valgrind's helgrind and drd: a CSV and a JSON
# trajectory, good and with bad records (-k and not), through spart-id, spart-kin and
# spart-contact with -j 3, and spart-sim's trajectories from several initial states, one
# failing; any error either tool reports fails (exit 99).
set -eu
cd "$(dirname "$0")/.."
bin=${SPART_BIN:-bin}
dir=${TMPDIR:-/tmp}/spart-helgrind.$$
mkdir -p "$dir"
trap 'rm -rf "$dir"' EXIT INT TERM
cc -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Ilib -o "$dir/gen" bench/gen.c -lm
"$dir/gen" 7 3000 > "$dir/id.csv"
# a bad row in the middle
awk 'NR == 1500 { print "1,2,3" } { print }' "$dir/id.csv" > "$dir/bad.csv"
# the same as JSON records: {"time": T, "qm": [...], "um": [...], "umdot": [...]}
awk -F, 'NR > 1 { printf "{\"time\": %s, \"qm\": [%s", $1, $2; for (i = 3; i <= 22; i++)
  printf (i == 9 ? "], \"um\": [%s" : i == 16 ? "], \"umdot\": [%s" : ", %s"), $i; print "]}" }' \
  "$dir/id.csv" > "$dir/id.json"
m=models/kuka_iiwa.urdf
feet='"contacts": [{"link": "fl_shank", "point": [0,0,-0.2], "normal": [0,0,1], "mu": 0.6}, {"link": "fr_shank", "point": [0,0,-0.2], "normal": [0,0,1], "mu": 0.6}, {"link": "hl_shank", "point": [0,0,-0.2], "normal": [0,0,1], "mu": 0.6}, {"link": "hr_shank", "point": [0,0,-0.2], "normal": [0,0,1], "mu": 0.6}]'
for k in $(seq 1 300); do
  echo "{\"qm\": [0,0.4,-0.8,0,0.4,-0.8,0,0.4,-0.8,0,0.4,-0.8], $feet}"
done > "$dir/feet.json"
# initial states of the iiwa, the fourth's torque overflowing its velocities
for k in 0 1 2 3 4 5; do
  echo "{\"id\": $k, \"qm\": [0.$k, 0.5, 0, -1, 0, 0.5, 0], \"taum\": [$([ $k = 3 ] && echo 1e308 || echo 0), 0, 0, 0, 0, 0, 1]}"
done > "$dir/states.json"
fail=0
check() { # want tool input command...
  want=$1 tool=$2 input=$3
  shift 3
  set +e
  valgrind -q --tool="$tool" --error-exitcode=99 "$@" < "$input" > /dev/null 2> "$dir/err"
  got=$?
  set -e
  if [ "$got" -ne "$want" ]; then
    echo "FAIL ($tool: exit $got, expected $want): $*" >&2
    head -n 40 "$dir/err" >&2
    fail=1
  else
    echo "ok ($tool): $*"
  fi
}
for tool in helgrind drd; do
  check 0 $tool "$dir/id.csv" "$bin/spart-id" -m $m --fixed-base -j 3
  check 0 $tool "$dir/id.json" "$bin/spart-id" -m $m --fixed-base -j 3 -o csv
  check 1 $tool "$dir/bad.csv" "$bin/spart-id" -m $m --fixed-base -j 3
  check 1 $tool "$dir/bad.csv" "$bin/spart-id" -m $m --fixed-base -j 3 -k
  check 0 $tool "$dir/id.csv" "$bin/spart-kin" -m $m -j 3 --check-limits
  check 0 $tool "$dir/feet.json" "$bin/spart-contact" -m models/quadruped.urdf \
    --gravity 0,0,-9.81 -j 3
  check 1 $tool "$dir/states.json" "$bin/spart-sim" -m $m --fixed-base --duration 0.05 -j 3 -k
done
exit $fail
