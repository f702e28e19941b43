#!/bin/sh
# tsan.sh -- what `make tsan` runs after building the commands with ThreadSanitizer in
# build/tsan: the bats suite (or the files named, e.g. tests/jobs.bats) with every command that
# takes -j run with -j 3 (a wrapper a command in build/tsan/jobs), so that each test's records
# go through the threads; its outputs must be those of one thread, and any data race ThreadSanitizer
# sees fails the command (exit 66).
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
wrap=build/tsan/jobs
mkdir -p "$wrap"
for f in build/tsan/bin/*; do
  c=${f##*/}
  rm -f "$wrap/$c" # a link an older run made: writing through it would overwrite the command
  case $c in
    urdf2robot | dh2robot | spart-cmp | spart-states | spart-codegen) ln -sf "$top/$f" "$wrap/$c" ;;
    *) printf '#!/bin/sh\nexec "%s" -j 3 "$@"\n' "$top/$f" > "$wrap/$c" && chmod +x "$wrap/$c" ;;
  esac
done
TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}"
export TSAN_OPTIONS
if [ $# -gt 0 ]; then
  SPART_BIN="$top/$wrap" SPART_UNIT="$top/build/tsan/tests" bats --tap "$@"
else
  SPART_BIN="$top/$wrap" SPART_UNIT="$top/build/tsan/tests" sh scripts/runtests.sh
fi
