#!/bin/sh
# bench.sh -- what `make bench` runs.
#  1. Streaming: a 1M-row kuka_iiwa trajectory CSV (time + qm, um, umdot: 22 columns) through
#     spart-id, spart-fd and spart-kin, in rows/s, against a naive C filter that reads every
#     field with strtod and writes 7 numbers with printf("%.17g") (bench/naive.c); peak memory
#     for 100k and 1M rows, and for 10M rows streamed through a pipe.
#  2. Two cores: the same spart-id run split with GNU parallel, if it is installed.
#  3. Per call: libspart's algorithms without I/O (bench/bench_lib.c), medians of 128,000 calls.
# Environment: ROWS (default 1000000), BIG (10M-row run: 1 to do it, default 1), BENCH_DIR.
set -eu
cd "$(dirname "$0")/.."
ROWS=${ROWS:-1000000}
BIG=${BIG:-1}
dir=${BENCH_DIR:-${TMPDIR:-/tmp}/spart-bench}
mkdir -p "$dir"
cc=${CC:-cc}
flags="-std=c11 -O3 -D_POSIX_C_SOURCE=200809L -Ilib"
$cc $flags -o "$dir/gen" bench/gen.c -lm
$cc $flags -o "$dir/naive" bench/naive.c
$cc $flags -flto=auto -o "$dir/bench_lib" bench/bench_lib.c lib/libspart.a -lcjson \
  $(pkg-config --libs libxml-2.0) -lm
m=models/kuka_iiwa.urdf

# seconds of user+system time, and peak memory in KiB, of a command reading $1
measure() {
  input=$1
  shift
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f "%U %S %M" -o "$dir/time" "$@" < "$input" > "$dir/out"
    awk '{ printf "%.3f %d\n", $1 + $2, $3 }' "$dir/time"
  else
    t0=$(date +%s.%N)
    "$@" < "$input" > "$dir/out"
    t1=$(date +%s.%N)
    echo "$t0 $t1" | awk '{ printf "%.3f 0\n", $2 - $1 }'
  fi
}

echo "== streaming $ROWS rows of kuka_iiwa (22 CSV columns in), one core"
"$dir/gen" 7 "$ROWS" > "$dir/id.csv"
"$dir/gen" 7 "$ROWS" taum > "$dir/fd.csv"
set -- $(measure "$dir/id.csv" "$dir/naive")
naive=$1
printf '%-44s %7.3f s %10.0f rows/s   1.00x   %6d KiB\n' "naive (strtod, printf %.17g)" \
  "$naive" "$(echo "$ROWS $naive" | awk '{ print $1 / $2 }')" "$2"
for cmd in "spart-id --fixed-base -o csv:id" "spart-fd --fixed-base -o csv:fd" \
  "spart-kin -o csv:id"; do
  args=${cmd%:*}
  input=$dir/${cmd#*:}.csv
  # shellcheck disable=SC2086
  set -- $(measure "$input" bin/$args -m "$m")
  printf '%-44s %7.3f s %10.0f rows/s %6.2fx   %6d KiB\n' "$args" "$1" \
    "$(echo "$ROWS $1" | awk '{ print $1 / $2 }')" "$(echo "$naive $1" | awk '{ print $1 / $2 }')" "$2"
done

echo "== peak memory of spart-id against the number of rows"
head -n 100001 "$dir/id.csv" > "$dir/id100k.csv"
set -- $(measure "$dir/id100k.csv" bin/spart-id --fixed-base -o csv -m "$m")
echo "100,000 rows: $2 KiB"
set -- $(measure "$dir/id.csv" bin/spart-id --fixed-base -o csv -m "$m")
echo "$ROWS rows: $2 KiB"
if [ "$BIG" = 1 ] && [ -x /usr/bin/time ]; then
  "$dir/gen" 7 10000000 | /usr/bin/time -f "%e s, %M KiB" -o "$dir/time" \
    bin/spart-id --fixed-base -o csv -m "$m" | tail -n 1 > /dev/null
  echo "10,000,000 rows through a pipe: $(cat "$dir/time")"
fi

if command -v parallel > /dev/null 2>&1; then
  echo "== two cores: GNU parallel --pipepart --keep-order --header, repeated headers dropped"
  t0=$(date +%s.%N)
  parallel --pipepart -a "$dir/id.csv" --keep-order --header : --block -1 -j 2 \
    bin/spart-id --fixed-base -o csv -m "$m" | awk 'NR == 1 { h = $0; print; next } $0 != h' \
    > "$dir/par.csv"
  t1=$(date +%s.%N)
  t2=$(date +%s.%N)
  bin/spart-id --fixed-base -o csv -m "$m" < "$dir/id.csv" > "$dir/one.csv"
  t3=$(date +%s.%N)
  if cmp -s "$dir/one.csv" "$dir/par.csv"; then
    same="identical output"
  else
    same="OUTPUT DIFFERS"
  fi
  echo "$t0 $t1 $t2 $t3" | awk -v same="$same" '{ printf "1 core %.2f s, 2 cores %.2f s: %.2fx, %s\n", $4 - $3, $2 - $1, ($4 - $3) / ($2 - $1), same }'
else
  echo "== two cores: GNU parallel is not installed (apt-get install parallel)"
fi

echo "== per call, no I/O (medians of 128,000 calls; C++ figures measured on this machine)"
"$dir/bench_lib" models/kuka_iiwa.urdf fixed
echo "  reference: inverse dynamics 0.47 us (RBDL), mass matrix 0.51 us (Pinocchio), forward dynamics 1.5 us (RBDL)"
"$dir/bench_lib" models/2_iiwa_base.urdf floating
echo "  reference: inverse dynamics 1.08 us, mass matrix 1.28 us, forward dynamics 3.6 us"
rm -rf "$dir"
