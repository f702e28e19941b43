#!/bin/sh
# pictures.sh -- the README's pictures, made by spart-draw and rendered by rsvg-convert: ANYmal C
# and the Go1 standing (their collision shapes: ANYmal's DAE meshes are not bundled), the
# quadruped standing with its support polygon, and the quadruped standing in simulation with
# its contact forces.  Writes NAME.svg and NAME.png into DIR (default docs/); spart-draw.bats
# checks that docs/ holds what it makes.
#   sh scripts/pictures.sh [DIR]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${SPART_BIN:-$top/bin}
out=${1:-$top/docs}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$top"

# draw NAME [spart-draw's options] < RECORDS: NAME.svg, and NAME.png 800 pixels wide
draw() {
  name=$1
  shift
  "$bin/spart-draw" "$@" > "$out/$name.svg"
  rsvg-convert -w 800 "$out/$name.svg" -o "$out/$name.png"
}

g=0,0,-9.81
# ANYmal C and the Go1, their feet on the ground (z = 0)
"$bin/urdf2robot" --package-path tests/data \
  tests/data/example-robot-data/robots/anymal_c_simple_description/urdf/anymal.urdf \
  > "$tmp/anymal.json" 2> /dev/null
echo '{"r0": [0, 0, 0.4945], "qm": [0, 0.6, -1.2, 0, 0.6, -1.2, 0, -0.6, 1.2, 0, -0.6, 1.2]}' |
  draw anymal -m "$tmp/anymal.json" --gravity $g --view iso
"$bin/urdf2robot" tests/data/go1.urdf > "$tmp/go1.json" 2> /dev/null
echo '{"r0": [0, 0, 0.359], "qm": [0, 0.67, -1.3, 0, 0.67, -1.3, 0, 0.67, -1.3, 0, 0.67, -1.3]}' |
  draw go1 -m "$tmp/go1.json" --gravity $g --view iso

# the quadruped standing on its feet (spheres of 0.02 at the shanks' ends) with its support
# polygon (the README's example)
q='[0,0.4,-0.8,0,0.4,-0.8,0,0.4,-0.8,0,0.4,-0.8]'
feet=$(for l in fl fr hl hr; do printf '{"link":"%s_shank","mu":0.6},' $l; done)
echo "{\"r0\": [0, 0, 0.3984], \"qm\": $q, \"contacts\": [${feet%,}]}" |
  draw quadruped -m models/quadruped.urdf --gravity $g --view iso

# the quadruped standing in simulation under PD, 1.5 s after it was put down: the ground's
# forces on its feet (spart-sim's contact_forces)
echo "{\"t\": 0, \"qm\": $q}" > "$tmp/ref.json"
echo "{\"r0\": [0.02, 0, 0.3984], \"qm\": $q}" |
  "$bin/spart-sim" -m models/quadruped.urdf --gravity $g --ground --integrator implicit \
    --duration 1.5 --every 1500 \
    --contact-forces --control pd --kp 300 --kd 1.5 --reference "$tmp/ref.json" |
  tail -n 1 | draw quadruped-sim -m models/quadruped.urdf --gravity $g --view iso
