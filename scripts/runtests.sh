#!/bin/sh
# runtests.sh -- run the bats suite (TAP on stdout as it goes), then one closing line
# "N passed, N failed" and an exit status that says whether all passed.
set -u
cd "$(dirname "$0")/.."
out=${TMPDIR:-/tmp}/spart-tests.$$
trap 'rm -f "$out"' EXIT INT TERM
bats --tap tests | tee "$out"
status=$(grep -c '^ok ' "$out")
failed=$(grep -c '^not ok ' "$out")
planned=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$out" | head -n 1)
echo "$status passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$status" -gt 0 ] && [ "$status" -eq "${planned:-0}" ]
