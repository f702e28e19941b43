#!/bin/sh
# runtests.sh -- run the bats suite on every core (TAP on stdout as each file ends), then one
# closing line "N passed, N failed" and an exit status that says whether all passed.
# SPART_TEST_JOBS: the test files run at once (default: one a CPU; 1 without GNU parallel,
# which bats' --jobs needs).  Arguments: the bats files to run (default: all of tests/).
set -u
cd "$(dirname "$0")/.." || exit 1
out=${TMPDIR:-/tmp}/spart-tests.$$
trap 'rm -f "$out"' EXIT INT TERM
jobs=${SPART_TEST_JOBS:-$(getconf _NPROCESSORS_ONLN 2> /dev/null || echo 1)}
if ! command -v parallel > /dev/null 2>&1; then
  [ "$jobs" -le 1 ] || echo "runtests.sh: no GNU parallel (Debian's parallel): one at a time" >&2
  jobs=1
fi
# parallel's notice is for its users, not for a test run
export PARALLEL="${PARALLEL:+$PARALLEL }--will-cite"
# in a git checkout, what the tests leave behind in the tree (they must write in their
# temporary directories; build/ is the build's)
left() {
  if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
    git status --porcelain --untracked-files=all | grep -v ' build/' || true
  fi
}
# the files that take longest first (each is a few of the suite's minutes of CPU), then the rest:
# the files run side by side, each file's tests one after another (bats' within-file parallel
# runs wait on a semaphore polled each second: most tests take less)
if [ "$#" -eq 0 ]; then
  set -- tests/spart-codegen.bats tests/build.bats tests/hardening.bats tests/urdf2robot.bats \
    tests/sim-implicit.bats tests/lib.bats
  for f in tests/*.bats; do
    case " $* " in *" $f "*) ;; *) set -- "$@" "$f" ;; esac
  done
fi
before=$(left)
if [ "$jobs" -gt 1 ]; then
  bats --jobs "$jobs" --no-parallelize-within-files --tap "$@" | tee "$out"
else
  bats --tap "$@" | tee "$out"
fi
after=$(left)
status=$(grep -c '^ok ' "$out")
failed=$(grep -c '^not ok ' "$out")
planned=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$out" | head -n 1)
if [ "$after" != "$before" ]; then
  printf 'the tests changed the tree:\n%s\n' "$after"
  failed=$((failed + 1))
fi
# tests planned that never reported (a bats file that stopped) count as failed
if [ "$((status + failed))" -lt "${planned:-0}" ]; then
  failed=$((${planned:-0} - status))
fi
echo "$status passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$status" -gt 0 ] && [ "$status" -eq "${planned:-0}" ]
