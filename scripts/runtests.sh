#!/bin/sh
# runtests.sh -- run the bats suite (TAP on stdout as it goes), then one closing line
# "N passed, N failed" and an exit status that says whether all passed.
set -u
cd "$(dirname "$0")/.."
out=${TMPDIR:-/tmp}/spart-tests.$$
trap 'rm -f "$out"' EXIT INT TERM
# in a git checkout, what the tests leave behind in the tree (they must write in their
# temporary directories; build/ is the build's)
left() {
  if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
    git status --porcelain --untracked-files=all | grep -v ' build/' || true
  fi
}
before=$(left)
bats --tap tests | tee "$out"
after=$(left)
status=$(grep -c '^ok ' "$out")
failed=$(grep -c '^not ok ' "$out")
planned=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$out" | head -n 1)
if [ "$after" != "$before" ]; then
  printf 'the tests changed the tree:\n%s\n' "$after"
  failed=$((failed + 1))
fi
echo "$status passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$status" -gt 0 ] && [ "$status" -eq "${planned:-0}" ]
