#!/bin/sh
# test.sh -- install what the build and the tests need (as root), build quietly (a compiler's
# errors still show; make V=1 shows its command lines), then run the whole suite on every core
# (scripts/runtests.sh): TAP as it goes, and last the line "N passed, N failed".
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh
make -s -j"$(getconf _NPROCESSORS_ONLN 2> /dev/null || echo 1)" all unit
exec sh scripts/runtests.sh
