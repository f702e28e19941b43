#!/bin/sh
# fuzz.sh -- build the libFuzzer harnesses of fuzz/ (clang, AddressSanitizer and
# UndefinedBehaviorSanitizer) into build/fuzz, replay the kept crash inputs of tests/data/fuzz,
# then fuzz each reader for a bounded time.  Run by `make fuzz`; scripts/fuzz-deps.sh installs
# what it needs.
#
#   FUZZ_SECONDS   seconds for each harness (default 60)
#   FUZZ_TARGETS   which harnesses (default "urdf model json csv")
#   FUZZ_FLAGS     more libFuzzer flags, e.g. "-runs=10000000"
#   FUZZ_CC        the compiler (default clang)
#
# One process at a time, one core.  The corpora grow in build/fuzz/corpus/NAME; a crash leaves
# build/fuzz/crash-NAME-* and exit 1: keep it in tests/data/fuzz/NAME/ once fixed.
set -eu
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
targets=${FUZZ_TARGETS:-urdf model json csv}
cc=${FUZZ_CC:-clang}
out=build/fuzz
san="-fsanitize=address,undefined -fno-sanitize-recover=all"
cflags="-std=c11 -g -O1 -fno-omit-frame-pointer $san -Wall -Wextra -Werror"
# shellcheck disable=SC2089,SC2090 # the quotes are the macro's: SPART_VERSION is "fuzz"
cppflags="-D_POSIX_C_SOURCE=200809L -DSPART_VERSION=\"fuzz\" -Ilib -Ilib/base -Ifuzz \
  $(pkg-config --cflags libxml-2.0)"
libs="-lcjson -lglpk $(pkg-config --libs libxml-2.0) -lm -lpthread"

if ! command -v "$cc" > /dev/null 2>&1; then
  echo "fuzz.sh: $cc not found: run sh scripts/fuzz-deps.sh" >&2
  exit 2
fi

# the library (and the command-line framework of src/cli, when there), instrumented for
# coverage, in its own folder (make's objects in build/lib stay as make built them)
headers="lib/*.h lib/*/*.h"
if ls src/cli/*.c > /dev/null 2>&1; then
  cppflags="$cppflags -Isrc/cli"
  headers="$headers src/cli/*.h"
fi
mkdir -p "$out/obj"
for src in lib/*/*.c src/cli/*.c; do
  [ -f "$src" ] || continue
  obj="$out/obj/$(basename "$src" .c).o"
  # shellcheck disable=SC2086 # the headers' patterns expand here
  if [ ! -f "$obj" ] || [ -n "$(find "$src" $headers -newer "$obj" 2> /dev/null)" ]; then
    # shellcheck disable=SC2086,SC2090
    $cc $cflags -fsanitize=fuzzer-no-link $cppflags -c -o "$obj" "$src"
  fi
done
for t in $targets; do
  # shellcheck disable=SC2086,SC2090
  $cc $cflags -fsanitize=fuzzer $cppflags -o "$out/fuzz_$t" "fuzz/fuzz_$t.c" "$out"/obj/*.o $libs
done

# seed corpora: the bundled models, their model JSON, fuzz/seeds, the kept crash inputs
for t in $targets; do
  mkdir -p "$out/corpus/$t"
  for f in fuzz/seeds/"$t"/* tests/data/fuzz/"$t"/*; do
    [ -f "$f" ] && cp "$f" "$out/corpus/$t/"
  done
done
case " $targets " in *" urdf "*) cp models/*.urdf "$out/corpus/urdf/" ;; esac
case " $targets " in
  *" model "*)
    [ -x bin/urdf2robot ] || make -s bin/urdf2robot # run without make fuzz, on a fresh clone
    for f in models/*.urdf; do
      bin/urdf2robot "$f" > "$out/corpus/model/$(basename "$f" .urdf).json"
    done
    ;;
esac
case " $targets " in
  *" json "*)
    python3 - "$out/corpus/json/reference.json" tests/reference/SC_3DoF-s*.json <<'PY'
import json, sys
with open(sys.argv[1], "w") as out:
    for ref in sys.argv[2:]:
        out.write(json.dumps(json.load(open(ref))["state"]) + "\n")
PY
    ;;
esac

# replay the kept inputs, then fuzz one harness at a time
status=0
for t in $targets; do
  if ls tests/data/fuzz/"$t"/* > /dev/null 2>&1; then
    "$out/fuzz_$t" -runs=1 tests/data/fuzz/"$t"/* > "$out/replay-$t.log" 2>&1 || {
      echo "fuzz.sh: $t: a kept input fails again (see $out/replay-$t.log)" >&2
      status=1
    }
  fi
  rc=0
  # shellcheck disable=SC2086
  "$out/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -dict="fuzz/$t.dict" -artifact_prefix="$out/crash-$t-" -print_final_stats=1 \
    ${FUZZ_FLAGS:-} "$out/corpus/$t" > "$out/fuzz-$t.log" 2>&1 || rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/fuzz-$t.log")
  secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$out/fuzz-$t.log")
  ncorp=$(find "$out/corpus/$t" -type f | wc -l)
  if [ "$rc" -ne 0 ] ||
    grep -q '^==[0-9]*==ERROR\|^SUMMARY\|check failed\|deadly signal\|ALARM\|out-of-memory' \
      "$out/fuzz-$t.log"; then
    echo "fuzz_$t: FAILED (exit $rc) after ${runs:-?} runs: see $out/fuzz-$t.log, $out/crash-$t-*"
    status=1
  else
    echo "fuzz_$t: ${runs:-?} runs in ${secs:-?} s, no crash, corpus $ncorp inputs"
  fi
done
exit $status
