#!/bin/sh
# demo.sh -- a real pipeline on a bundled model: the dual-arm spacecraft 2_iiwa_base.
# URDF -> model JSON -> a trajectory of joint states -> inverse dynamics -> joint torques.
set -eu
cd "$(dirname "$0")/.."
if [ -z "${SPART_BIN:-}" ]; then
  sh scripts/deps.sh
  make -s all
fi
bin=${SPART_BIN:-bin}
tmp=${TMPDIR:-/tmp}/spart-demo.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT INT TERM

echo "== the model: urdf2robot --summary models/2_iiwa_base.urdf" >&2
"$bin/urdf2robot" --summary models/2_iiwa_base.urdf >&2
"$bin/urdf2robot" models/2_iiwa_base.urdf > "$tmp/robot.json"

echo "== a 5-row trajectory (time, 14 joint angles, velocities, accelerations) -> spart-id" >&2
awk 'BEGIN {
  printf "time"; for (i = 1; i <= 14; i++) printf ",qm_%d", i
  for (i = 1; i <= 14; i++) printf ",um_%d", i
  for (i = 1; i <= 14; i++) printf ",umdot_%d", i
  printf "\n"
  for (k = 0; k < 5; k++) {
    t = k * 0.01; printf "%.2f", t
    for (i = 1; i <= 14; i++) printf ",%.6f", 0.5 * sin(t + i)
    for (i = 1; i <= 14; i++) printf ",%.6f", 0.5 * cos(t + i)
    for (i = 1; i <= 14; i++) printf ",%.6f", -0.5 * sin(t + i)
    printf "\n"
  }
}' | "$bin/spart-id" -m "$tmp/robot.json" --floating -o csv
