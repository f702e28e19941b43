#!/bin/sh
# demo.sh -- a real pipeline on a bundled model, told in a few lines: the quadruped
# (models/quadruped.urdf) dropped onto the ground and standing under PD control (spart-sim),
# the joint torques and foot forces that hold it (spart-contact), its picture (spart-draw, then
# rsvg-convert to a PNG); then three commands to try next.
# sh scripts/demo.sh [DIR]: its files go to DIR (default: build/demo in the clone).
# SPART_BIN: run that tree's commands (no dependency step, no build).
set -eu
here=$(pwd)
cd "$(dirname "$0")/.."
top=$(pwd)
case ${1:-} in
  '') out="$top/build/demo" ;;
  /*) out=$1 ;;
  *) out="$here/$1" ;;
esac
if [ -z "${SPART_BIN:-}" ]; then
  sh scripts/deps.sh
  # everything: the commands, and the unit drivers scripts/test.sh runs next
  make -s -j"$(getconf _NPROCESSORS_ONLN 2> /dev/null || echo 1)" all unit
fi
bin=${SPART_BIN:-$top/bin}
mkdir -p "$out"
m=models/quadruped.urdf
q='[0,0.4,-0.8,0,0.4,-0.8,0,0.4,-0.8,0,0.4,-0.8]'
feet='[{"link":"fl_shank","mu":0.6},{"link":"fr_shank","mu":0.6},'
feet="$feet"'{"link":"hl_shank","mu":0.6},{"link":"hr_shank","mu":0.6}]'
g=0,0,-9.81

# the files as the clone's folder names them
d=${out#"$top"/}

"$bin/urdf2robot" --summary "$m" > "$out/quadruped.txt"
echo "spart demo: $m, $(sed -n 's/^total mass //p' "$out/quadruped.txt") kg on four" \
  "legs, $(sed -n 's/^n_q //p' "$out/quadruped.txt") joints"

echo "{\"t\": 0, \"qm\": $q}" > "$out/nominal.json"
echo "{\"r0\": [0, 0, 0.5], \"qm\": $q}" |
  "$bin/spart-sim" -m "$m" --gravity "$g" --ground --control pd --kp 300 --kd 5 \
    --reference "$out/nominal.json" --duration 2 --integrator implicit --every 100 \
    --contact-forces > "$out/stand.jsonl"
jq -rs --arg d "$d" '"1. spart-sim: dropped from 0.5 m, PD on its joints, 2 s at 1 kHz: " +
  "it stands,\n   its base at z = \(.[-1].r0[2] * 1000 | round / 1000) m " +
  "(\(length) states: \($d)/stand.jsonl)"' "$out/stand.jsonl"

tail -n 1 "$out/stand.jsonl" | jq -c --argjson feet "$feet" '{t, R0, r0, qm, contacts: $feet}' \
  > "$out/last.json"
"$bin/spart-contact" -m "$m" --gravity "$g" < "$out/last.json" > "$out/hold.json"
jq -r '([.contact_forces[][2]] | add * 10 | round / 10) as $fz |
  (.taum | map(fabs) | max * 100 | round / 100) as $tau |
  "2. spart-contact: its feet bear \($fz) N, its weight; the torques that hold\n" +
  "   it there: \($tau) N m at most (feasible: \(.feasible))"' "$out/hold.json"

"$bin/spart-draw" -m "$m" --gravity "$g" --view iso < "$out/last.json" > "$out/stand.svg"
rsvg-convert -o "$out/stand.png" "$out/stand.svg"
echo "3. spart-draw, rsvg-convert: its picture, the support polygon in green:"
echo "   $d/stand.png"

echo "Try next, here after export PATH=\"\$PWD/bin:\$PATH\" (or make install: README):"
echo "  urdf2robot --summary models/kuka_iiwa.urdf"
echo "  spart-kin -m $m --only r_com < $d/stand.jsonl"
echo "  man -l man/spart.7"
