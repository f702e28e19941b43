#!/bin/sh
# bench.sh -- what `make bench` runs.
#  1. Streaming: a 1M-row kuka_iiwa trajectory CSV (time + qm, um, umdot: 22 columns) through
#     spart-id (all its outputs, and --only taum), spart-fd and spart-kin, in rows/s, against a
#     naive C filter that reads every field with strtod and writes 7 numbers with
#     printf("%.17g") (bench/naive.c); peak memory for 100k and 1M rows, and for 10M rows
#     streamed through a pipe.
#  2. Two cores: the same spart-id run split with GNU parallel (if it is installed), wall and CPU
#     seconds: GNU parallel's copying (parts through pipes, outputs through temporary files)
#     costs about as much CPU as spart-id itself; then spart-id -j 2 against -j 1 (rows/s, CPU
#     seconds, peak memory for 100k and all the rows, both threads on one CPU).
#  3. Per call: libspart's algorithms without I/O (bench/bench_lib.c), GCC's and a Clang-built
#     libspart's (when clang is installed), ROUNDS rounds interleaved: the best 64-call batch and
#     the median over the rounds of each round's median batch, with the rounds' range (measured
#     here, the CPU and the date said); one RK4 step of spart_sim among them; spart-sim's 10 s of
#     kuka_iiwa at 1 kHz end to end.  The peers (Pinocchio, RBDL, KDL) cannot be built here: the
#     comparison with them is the ratios of one side-by-side run, recorded with its date, machine
#     and flags, and printed as such.
#     The derivatives of ID and FD against one ID and FD call, beside Pinocchio's figures as its
#     authors report them (named as reported, with the source's address).
#     Then spart_ik: kuka_iiwa full poses from zero (IK_POSES of them, 10,000 by default), how many
#     are met to 1e-10, the median and 95th percentile time a solve, beside TRAC-IK's reported
#     figures (named as reported).
#  4. spart-contact: microseconds per record of the legged robots on their feet, each group of
#     outputs (force closure, the support polygon, the equilibrium torques) and all of them.
#  5. spart-codegen (codegen_bench): the code it writes for kuka_iiwa (fixed base) and
#     2_iiwa_base (floating), built with GCC and Clang (-O2), against libspart built by the same
#     compiler, in one process taking turns batch by batch (bench/bench_codegen.c): inverse
#     dynamics, mass matrix, forward dynamics, medians and best batches, best of 3 runs.
#     BENCH_ONLY=codegen (make bench-codegen) runs this part alone.
#  6. spart-sim in a world (scripts/bench_world.sh, alone: make bench-world): 10 s at 1 kHz of
#     the quadruped on the ground under PD and of kuka_iiwa under computed torque.
# Environment: ROWS (default 1000000), BIG (10M-row run: 1 to do it, default 1), BENCH_DIR,
# CONTACT_ROWS (spart-contact records, default 2000); ROUNDS (per-call rounds, default 10),
# BATCHES (batches a round, default 2000), BENCH_CLANG (0: no Clang-built libspart, default 1),
# BENCH_PART (all, the default, or per-call: part 3 only, as tests/bench.bats runs it, small);
# BASE, another built tree of spart (its bin/ and its library, e.g. a worktree of an older
# commit): each streaming and per-call figure is measured for it too, interleaved in the same
# run, with the ratio of this tree's speed to its (above 1: this tree is faster).
set -eu
cd "$(dirname "$0")/.."
ROWS=${ROWS:-1000000}
BIG=${BIG:-1}
ROUNDS=${ROUNDS:-10}
BATCHES=${BATCHES:-2000}
part=${BENCH_PART:-all}
case $part in all | per-call) ;; *) echo "bench.sh: BENCH_PART: all or per-call, not '$part'" >&2; exit 2 ;; esac
dir=${BENCH_DIR:-${TMPDIR:-/tmp}/spart-bench.$$} # one a run: two runs at once do not share it
mkdir -p "$dir"
cc=${CC:-cc}
flags="-std=c11 -O3 -D_POSIX_C_SOURCE=200809L -Ilib -Ilib/base"
if [ "$part" = all ]; then
  $cc $flags -o "$dir/gen" bench/gen.c -lm
  $cc $flags -o "$dir/naive" bench/naive.c
fi
# the library make built (build/libspart.a; the command-line framework too, if it is apart)
libs=build/libspart.a
[ -f build/libspart-cli.a ] && libs="-Isrc/cli build/libspart-cli.a $libs"
# shellcheck disable=SC2086
$cc $flags -flto=auto -o "$dir/bench_lib" bench/bench_lib.c $libs -lcjson -lglpk \
  $(pkg-config --libs libxml-2.0 assimp) -lm
# the same per-call harness on a Clang-built libspart (issue 18 compares both compilers), when
# clang is installed: the library built by make in a build folder of its own under $dir
clang_lib=
if [ "${BENCH_CLANG:-1}" = 1 ] && [ "$cc" != clang ] && command -v clang > /dev/null 2>&1 &&
  make -s CC=clang BUILD="$dir/clang" BIN="$dir/clang/bin" "$dir/clang/libspart.a" > /dev/null 2>&1; then
  clibs=$dir/clang/libspart.a
  [ -f build/libspart-cli.a ] && make -s CC=clang BUILD="$dir/clang" BIN="$dir/clang/bin" \
    "$dir/clang/libspart-cli.a" > /dev/null 2>&1 && clibs="-Isrc/cli $dir/clang/libspart-cli.a $clibs"
  # shellcheck disable=SC2086
  clang $flags -flto -o "$dir/bench_lib_clang" bench/bench_lib.c $clibs -lcjson -lglpk \
    $(pkg-config --libs libxml-2.0 assimp) -lm && clang_lib=$dir/bench_lib_clang
fi
m=models/kuka_iiwa.urdf
base=${BASE:-}
if [ -n "$base" ]; then
  blibs=$base/build/libspart.a
  [ -f "$blibs" ] || blibs=$base/lib/libspart.a
  [ -f "$base/build/libspart-cli.a" ] && blibs="-I$base/src/cli $base/build/libspart-cli.a $blibs"
  # shellcheck disable=SC2086
  $cc -std=c11 -O3 -D_POSIX_C_SOURCE=200809L -I"$base/lib" -flto=auto -o "$dir/bench_lib_base" \
    "$base/bench/bench_lib.c" $blibs -lcjson -lglpk $(pkg-config --libs libxml-2.0 assimp) -lm
  echo "(BASE=$base: its figures beside, and this tree's speed over its)"
fi

# spart-codegen's code against libspart (bench/bench_codegen.c), GCC and Clang, the best of three
# runs of each figure: codegen_bench MODEL fixed|floating
codegen_bench() {
  cmodel=$1 ckind=$2
  cflag=
  [ "$ckind" = fixed ] && cflag=--fixed-base
  cdir=$dir/codegen
  mkdir -p "$cdir"
  bin/spart-codegen -m "$cmodel" $cflag > "$cdir/robot.c"
  bin/spart-codegen -m "$cmodel" $cflag --header > "$cdir/robot.h"
  echo "spart-codegen $cmodel ($ckind base): the generated code (-O2) and libspart, per call"
  for ccomp in gcc clang; do
    # each libspart as make built it, linked as bench_lib is (its LTO)
    if [ "$ccomp" = gcc ]; then clib=build/libspart.a clto=-flto=auto; else clib=$dir/clang/libspart.a clto=-flto; fi
    if ! command -v $ccomp > /dev/null 2>&1 || [ ! -f "$clib" ]; then
      echo "  $ccomp: not installed"
      continue
    fi
    $ccomp -std=c99 -O2 $clto -D_POSIX_C_SOURCE=200809L -Ilib -I"$cdir" -o "$cdir/bench_$ccomp" \
      bench/bench_codegen.c "$cdir/robot.c" "$clib" -lcjson -lglpk \
      $(pkg-config --libs libxml-2.0 assimp) -lm
    for i in 1 2 3; do "$cdir/bench_$ccomp" "$cmodel"; done | awk -v comp="$ccomp" '
      /generated median/ {
        name = $1 " " $2
        gm = $5; gb = $9 + 0; lm = $12; lb = $16 + 0
        if (!(name in bgm)) { order[++n] = name; bgm[name] = gm; bgb[name] = gb; blm[name] = lm; blb[name] = lb }
        if (gm < bgm[name]) bgm[name] = gm
        if (gb < bgb[name]) bgb[name] = gb
        if (lm < blm[name]) blm[name] = lm
        if (lb < blb[name]) blb[name] = lb
      }
      END {
        for (i = 1; i <= n; i++) {
          k = order[i]
          printf "  %-5s %-17s generated median %.3f us, best batch %.3f; libspart %.3f, %.3f: %.2fx, %.2fx\n",
            comp, k, bgm[k], bgb[k], blm[k], blb[k], blm[k] / bgm[k], blb[k] / bgb[k]
        }
      }'
  done
}
codegen_section() {
  echo "== spart-codegen against libspart, measured here (medians and best batches of 64 calls, best of 3 runs)"
  codegen_bench models/kuka_iiwa.urdf fixed
  codegen_bench models/2_iiwa_base.urdf floating
}
if [ "${BENCH_ONLY:-}" = codegen ]; then
  codegen_section
  exit 0
fi

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
  # the output's pages written back now, not during the next measurement (spart-kin: 6 GB)
  rm -f "$dir/out"
  sync
}

if [ "$part" = all ]; then
echo "== streaming $ROWS rows of kuka_iiwa (22 CSV columns in), one core"
"$dir/gen" 7 "$ROWS" > "$dir/id.csv"
"$dir/gen" 7 "$ROWS" taum > "$dir/fd.csv"
set -- $(measure "$dir/id.csv" "$dir/naive")
naive=$1
printf '%-44s %7.3f s %10.0f rows/s   1.00x   %6d KiB\n' "naive (strtod, printf %.17g)" \
  "$naive" "$(echo "$ROWS $naive" | awk '{ print $1 / $2 }')" "$2"
# spart-id writes tau0 (6) and taum (7); with --only taum, the floor's 7 numbers
for cmd in "spart-id --fixed-base -o csv:id" "spart-id --fixed-base --only taum -o csv:id" \
  "spart-fd --fixed-base -o csv:fd" "spart-kin -o csv:id"; do
  args=${cmd%:*}
  input=$dir/${cmd#*:}.csv
  # with BASE: three runs of each, interleaved, the best of each (one run's CPU seconds vary by
  # a few per cent, as much as the difference measured)
  if [ -n "$base" ]; then
    best=
    bbest=
    for i in 1 2 3; do
      # shellcheck disable=SC2086
      set -- $(measure "$input" bin/$args -m "$m")
      best=$(echo "$1 $2 $best" | awk 'NF < 4 || $1 < $3 { print $1, $2; next } { print $3, $4 }')
      # shellcheck disable=SC2086
      set -- $(measure "$input" "$base"/bin/$args -m "$m")
      bbest=$(echo "$1 $bbest" | awk 'NF < 2 || $1 < $2 { print $1; next } { print $2 }')
    done
    # shellcheck disable=SC2086
    set -- $best
  else
    # shellcheck disable=SC2086
    set -- $(measure "$input" bin/$args -m "$m")
  fi
  printf '%-44s %7.3f s %10.0f rows/s %6.2fx   %6d KiB\n' "$args" "$1" \
    "$(echo "$ROWS $1" | awk '{ print $1 / $2 }')" "$(echo "$naive $1" | awk '{ print $1 / $2 }')" "$2"
  if [ -n "$base" ]; then
    printf '%-44s %7.3f s %10.0f rows/s   this tree %.3fx its speed (best of 3 each)\n' "  BASE" \
      "$bbest" "$(echo "$ROWS $bbest" | awk '{ print $1 / $2 }')" "$(echo "$bbest $1" | awk '{ print $1 / $2 }')"
  fi
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
  # the recipe of README.md and spart-id(1), every part but the first dropping its header row,
  # against one run: wall seconds, and CPU seconds (user + system, with the child processes)
  echo "== two cores: GNU parallel --pipepart --keep-order --header, repeated headers dropped"
  timed() {
    t0=$(date +%s.%N)
    if [ -x /usr/bin/time ]; then
      /usr/bin/time -f "%U %S" -o "$dir/time" "$@"
      cpu=$(awk '{ printf "%.2f", $1 + $2 }' "$dir/time")
    else
      "$@"
      cpu="?"
    fi
    wall=$(echo "$t0 $(date +%s.%N)" | awk '{ printf "%.2f", $2 - $1 }')
  }
  # shellcheck disable=SC2016
  timed sh -c 'parallel --pipepart -a "$1" --keep-order --header : --block -1 -j 2 \
    "bin/spart-id --fixed-base -o csv -m $2 | tail -n +\$(({#} > 1 ? 2 : 1))" > "$3"' \
    sh "$dir/id.csv" "$m" "$dir/par.csv"
  wall2=$wall cpu2=$cpu
  # shellcheck disable=SC2016
  timed sh -c 'bin/spart-id --fixed-base -o csv -m "$2" < "$1" > "$3"' \
    sh "$dir/id.csv" "$m" "$dir/one.csv"
  if cmp -s "$dir/one.csv" "$dir/par.csv"; then
    same="identical output"
  else
    same="OUTPUT DIFFERS"
  fi
  echo "$wall $cpu $wall2 $cpu2" | awk -v same="$same" '{ printf "1 core %.2f s (CPU %s s), " \
    "2 cores %.2f s (CPU %s s): %.2fx, %s\n", $1, $2, $3, $4, $1 / $3, same }'
else
  echo "== two cores: GNU parallel is not installed (apt-get install parallel)"
fi

# -j 2 against -j 1 in the same run, interleaved, best wall time of 3 each; CPU seconds (user +
# system) say what the threads cost beside the records (on a loaded machine the wall ratio is
# below what an idle one gives: the load average is printed with it)
echo "== two cores: spart-id -j 2 against -j 1 ($(nproc) CPUs online; load average $(cut -d' ' -f1-3 /proc/loadavg))"
jobs_run() { # N: wall seconds, CPU seconds, peak KiB of one run with -j N
  t0=$(date +%s.%N)
  /usr/bin/time -f "%U %S %M" -o "$dir/time" bin/spart-id --fixed-base -o csv -m "$m" -j "$1" \
    < "$dir/id.csv" > "$dir/j$1.csv"
  t1=$(date +%s.%N)
  echo "$t0 $t1 $(cat "$dir/time")" | awk '{ printf "%.3f %.3f %d\n", $2 - $1, $3 + $4, $5 }'
}
if [ -x /usr/bin/time ]; then
  w1=999 w2=999
  for i in 1 2 3; do
    set -- $(jobs_run 1)
    if [ "$(echo "$1 $w1" | awk '{ print ($1 < $2) }')" = 1 ]; then w1=$1 c1=$2 k1=$3; fi
    set -- $(jobs_run 2)
    if [ "$(echo "$1 $w2" | awk '{ print ($1 < $2) }')" = 1 ]; then w2=$1 c2=$2 k2=$3; fi
  done
  cmp -s "$dir/j1.csv" "$dir/j2.csv" && same="identical output" || same="OUTPUT DIFFERS"
  echo "$ROWS $w1 $c1 $k1 $w2 $c2 $k2" | awk -v same="$same" '{
    printf "-j 1: %.3f s %10.0f rows/s, CPU %.2f s, %d KiB\n", $2, $1 / $2, $3, $4
    printf "-j 2: %.3f s %10.0f rows/s, CPU %.2f s, %d KiB: %.2fx the rows/s of -j 1, CPU %.2fx, %s\n",
      $5, $1 / $5, $6, $7, $2 / $5, $6 / $3, same }'
  # peak memory of -j 2 against the number of rows: its blocks, not the input
  set -- $(measure "$dir/id100k.csv" bin/spart-id --fixed-base -o csv -m "$m" -j 2)
  echo "-j 2 peak memory: 100,000 rows $2 KiB, $ROWS rows $k2 KiB"
  if command -v taskset > /dev/null 2>&1; then
    # both threads on one CPU: the wall time of -j 2 is then its CPU time, its overhead alone
    t0=$(date +%s.%N)
    taskset -c 0 bin/spart-id --fixed-base -o csv -m "$m" -j 2 < "$dir/id.csv" > /dev/null
    t1=$(date +%s.%N)
    echo "$t0 $t1 $w1" | awk '{ printf "-j 2 on one CPU (taskset -c 0): %.3f s, %.2fx the wall time of -j 1\n", $2 - $1, ($2 - $1) / $3 }'
  fi
  rm -f "$dir/j1.csv" "$dir/j2.csv"
fi

fi # the streaming and two-core parts

# the machine and the compilers, said with every figure measured here
cpu=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo 2> /dev/null | head -n 1)
[ -n "$cpu" ] || cpu=$(uname -m)
here="$(date -u +%Y-%m-%d), $(nproc) CPUs online, $cpu"
echo "== per call, no I/O: measured here ($here)"
echo "  libspart as make builds it (-O3, LTO; bench/bench_lib.c): GCC $($cc -dumpfullversion -dumpversion 2> /dev/null | head -n 1)$([ -n "$clang_lib" ] &&
  echo ", Clang $(clang -dumpversion 2> /dev/null)")"
if [ -n "$base" ]; then
  echo "  each figure: the lowest of 3 runs' median batch (64 calls), this tree's and BASE's interleaved"
else
  echo "  each figure: the time a call of the best batch (64 calls) of all, and the median over $ROUNDS rounds"
  echo "  of each round's median of $BATCHES batches, with the rounds' range and spread (a moving clock shows there)"
fi
# the lowest of the medians of the lines bench_lib printed, each algorithm (with BASE)
best_of() {
  awk '
    /us\/call/ {
      t = $(NF - 1)
      name = $0
      sub(/ +(best|median) .*/, "", name)
      if (!(name in best)) {
        order[++n] = name
        best[name] = t
      } else if (t < best[name]) {
        best[name] = t
      }
      next
    }
    !($0 in said) { said[$0] = 1; print }
    END {
      for (i = 1; i <= n; i++) {
        printf "%-44s median %.3f us/call (best of 3 runs)\n", order[i], best[order[i]]
      }
    }'
}
# with BASE: three runs each, interleaved, and this tree's speed over BASE's per algorithm (the
# medians: BASE's older bench_lib may print no best batch)
compare3() {
  for i in 1 2 3; do "$dir/bench_lib" "$@" | sed 's/^/N /'; "$dir/bench_lib_base" "$@" | sed 's/^/B /'; done |
    awk '
      /us\/call/ {
        who = $1
        t = $(NF - 1)
        name = $0
        sub(/^[NB] +/, "", name)
        sub(/ +(best|median) .*/, "", name)
        # an algorithm by its name before the parenthesis, so that a tree that gets there by
        # another sequence of calls is still compared
        key = name
        sub(/ +\(.*/, "", key)
        if (who == "N") label[key] = name
        if (!(key in seen)) { seen[key] = 1; order[++n] = key }
        k = who SUBSEP key
        if (!(k in best) || t < best[k]) best[k] = t
        next
      }
      /^N / && !(substr($0, 3) in said) { said[substr($0, 3)] = 1; print substr($0, 3) }
      END {
        for (i = 1; i <= n; i++) {
          key = order[i]
          name = key in label ? label[key] : key
          if (!(("N" SUBSEP key) in best)) {
            printf "%-44s BASE %.3f us/call (this tree has none)\n", name, best["B" SUBSEP key]
          } else if (!(("B" SUBSEP key) in best)) {
            printf "%-44s median %.3f us/call (BASE has none)\n", name, best["N" SUBSEP key]
          } else {
            nn = best["N" SUBSEP key]
            bb = best["B" SUBSEP key]
            printf "%-44s median %.3f us/call, BASE %.3f: this tree %.2fx its speed\n", name, nn, bb, bb / nn
          }
        }
      }'
}
# ROUNDS runs of bench_lib, GCC's and Clang's interleaved: for each algorithm and compiler the
# best batch of all the rounds, the median of the rounds' medians, their range and spread
rounds() {
  r=0
  while [ "$r" -lt "$ROUNDS" ]; do
    "$dir/bench_lib" "$1" "$2" "$BATCHES" | sed 's/^/GCC /'
    if [ -n "$clang_lib" ]; then "$clang_lib" "$1" "$2" "$BATCHES" | sed 's/^/Clang /'; fi
    r=$((r + 1))
  done | awk '
    /us\/call/ {
      who = $1
      name = $0
      sub(/^[A-Za-z]+ +/, "", name)
      sub(/ +best .*/, "", name)
      if (!(name in seen)) { seen[name] = 1; names[++nn] = name }
      if (!(who in seenw)) { seenw[who] = 1; whos[++nw] = who }
      k = who SUBSEP name
      if (!(k in best) || $(NF - 3) < best[k]) best[k] = $(NF - 3)
      med[k, ++n[k]] = $(NF - 1)
      next
    }
    /^GCC / && !(substr($0, 5) in said) { said[substr($0, 5)] = 1; print "  " substr($0, 5) }
    END {
      for (i = 1; i <= nn; i++) {
        for (w = 1; w <= nw; w++) {
          k = whos[w] SUBSEP names[i]
          c = n[k]
          for (x = 1; x <= c; x++) v[x] = med[k, x]
          for (x = 2; x <= c; x++) {
            t = v[x]
            for (y = x - 1; y >= 1 && v[y] > t; y--) v[y + 1] = v[y]
            v[y + 1] = t
          }
          m = c % 2 ? v[(c + 1) / 2] : (v[c / 2] + v[c / 2 + 1]) / 2
          printf "  %-40s %-5s best %.3f, median %.3f us/call (rounds %.3f-%.3f, spread %.0f%%)\n",
            w == 1 ? names[i] : "", whos[w], best[k], m, v[1], v[c], 100 * (v[c] - v[1]) / v[1]
          medof[k] = m
        }
      }
      # the derivatives against the calls they are measured by (issue 42: ID derivatives at
      # most 5x one ID call and at least 3x faster than central differences, FD derivatives at
      # most 8x one FD call), GCC medians
      id = medof["GCC", "inverse dynamics (rnea, own kinematics)"]
      did = medof["GCC", "ID derivatives (dtau_dq, dtau_du)"]
      cd = medof["GCC", "ID derivatives by central differences"]
      fd = medof["GCC", "forward dynamics (aba, own kinematics)"]
      dfd = medof["GCC", "FD derivatives (dudot_dq, _du, _dtau)"]
      if (id > 0 && did > 0 && cd > 0 && fd > 0 && dfd > 0) {
        printf "  derivatives (medians, measured here): of ID %.2fx one ID call, " \
          "central differences %.2fx them; of FD %.2fx one FD call\n", did / id, cd / did, dfd / fd
      }
    }'
}
per_call() {
  if [ -n "$base" ]; then compare3 "$@"; else rounds "$@"; fi
}
per_call models/kuka_iiwa.urdf fixed
if [ "$part" = all ]; then
  # spart-sim end to end: 10 s at 1 kHz (10,000 RK4 steps), every state written, and every 100th
  for every in 1 100; do
    t0=$(date +%s.%N)
    echo '{"qm": [0, 0.5, 0, -1, 0, 0.5, 0]}' | bin/spart-sim -m "$m" --fixed-base \
      --gravity 0,0,-9.81 --duration 10 --every $every -o csv > "$dir/sim.csv"
    echo "$t0 $(date +%s.%N) $(($(wc -l < "$dir/sim.csv") - 1))" | awk -v e=$every '{
      printf "spart-sim kuka_iiwa, 10 s at 1 kHz (10,000 RK4 steps), every %-3d %.3f s wall, %d records (measured here)\n",
        e, $2 - $1, $3 }'
  done
fi
per_call models/2_iiwa_base.urdf floating
# Pinocchio's derivatives as their authors report them (issue 42: our ratios beside its, named as
# reported); only what a source says, with its address
echo "  Pinocchio's derivatives as their authors report them (Carpentier and Mansard, RSS 2018), recorded, not measured here: finite differences cost n + 1 calls of the function (the paper's introduction, docslib.org/doc/12353851); the analytical derivatives' ratio to one RNEA call is in no source at hand (the abstract, jcarpent.github.io/publication/rss2018/, gives times on their machine only), so none is quoted"
# spart_ik (spart-ik's solver): kuka_iiwa, full pose targets of its last link from random
# configurations within the limits, solved from zero; TRAC-IK's figures as its authors report them
echo "== inverse kinematics (spart_ik, the commands' defaults), measured here ($here)"
"$dir/bench_lib" "$m" ik lbr_iiwa_link_7 "${IK_POSES:-10000}"
echo "  TRAC-IK as its authors report it (the sample results of its README, bitbucket.org/traclabs/trac_ik, as issue 41 quotes them), recorded, not measured here: KUKA iiwa 14, 10,000 random reachable poses, tolerance 1e-5, 5 ms timeout: TRAC-IK 99.84% solved, 0.31 ms on average; KDL's joint-limited Newton solver 37.64%, 3.38 ms"
# The peers cannot be built here (Pinocchio and RBDL are not in Debian 12, and CI has no
# network): their comparison is the one side-by-side run recorded in issue 31, as spart's time
# over theirs, never another machine's absolute figures rescaled.  Every line that names a peer
# says so, with its source.
echo "== the peers, recorded, not measured here: one side-by-side run on a 2-vCPU AMD EPYC (znver3) virtual machine on 2026-11-28 (issue 31): Pinocchio 3.7.0 and RBDL 3.3.1 built from source, GCC 12 and Clang 14 -O3 -march=native, interleaved and pinned, 30 rounds; spart's time over the peer's:"
tag="recorded 2026-11-28, AMD EPYC znver3, not measured here"
echo "  mass matrix, over Pinocchio 3.7.0's: 0.91-0.92 ($tag)"
echo "  ID, mass matrix, FD, kuka_iiwa fixed and 2_iiwa_base floating, GCC and Clang, over the faster"
echo "    of Pinocchio 3.7.0 and RBDL 3.3.1 on each: 0.55-0.91 ($tag)"
echo "  KDL: no figure (that run did not time it; none is recorded)"
if [ "$part" = all ]; then
codegen_section
# spart-contact: records of the bundled legged robots on their feet, the legs swept; seconds per
# record of each group of outputs (--only solves only the programs its outputs need)
echo "== spart-contact per record (GLPK's simplex; ${CONTACT_ROWS:=2000} records, 8-edge cones)"
python3 - "$CONTACT_ROWS" "$dir" <<'PY'
import json, math, sys
n, d = int(sys.argv[1]), sys.argv[2]
with open(d + "/quad.jsonl", "w") as f:
    for k in range(n):
        a = 0.3 * math.sin(k)
        q = [0.1 * math.cos(k), 0.4 + a, -0.8] * 4
        feet = [{"link": l + "_shank", "point": [0, 0, -0.2], "normal": [0, 0, 1], "mu": 0.6}
                for l in ("fl", "fr", "hl", "hr")]
        f.write(json.dumps({"qm": q, "contacts": feet}) + "\n")
with open(d + "/human.jsonl", "w") as f:
    for k in range(n):
        a = 0.2 * math.sin(k)
        q = [0, 0, -0.3 + a, 0.6, -0.3 - a, 0] * 2
        feet = [{"link": s + "_foot", "point": [x, y, -0.05], "normal": [0, 0, 1], "mu": 0.8}
                for s in ("l", "r") for x in (0.1, -0.1) for y in (0.05, -0.05)]
        f.write(json.dumps({"qm": q, "contacts": feet}) + "\n")
PY
for robot in quad:quadruped:4 human:humanoid:8; do
  in=$dir/${robot%%:*}.jsonl
  rest=${robot#*:}
  for only in force_closure support_polygon feasible \
    force_closure,com_equilibrium,support_polygon,support_halfplanes,com_margin,feasible,taum,contact_forces,reason; do
    set -- $(measure "$in" bin/spart-contact -m "models/${rest%:*}.urdf" --gravity 0,0,-9.81 --only "$only")
    label=$only
    [ "${#only}" -gt 30 ] && label="all outputs"
    printf '%-10s %2s contacts  %-20s %8.1f us/record\n' "${rest%:*}" "${rest#*:}" "$label" \
      "$(echo "$1 $CONTACT_ROWS" | awk '{ print 1e6 * $1 / $2 }')"
  done
done

# 6. spart-sim in a world (ground contact, closed-loop control): its own script
BENCH_DIR=$dir sh scripts/bench_world.sh
fi
rm -rf "$dir"
