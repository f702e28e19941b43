#!/usr/bin/env bats
# -j N: records computed by N threads, the output and the messages those of one thread (cmp),
# with CSV and JSON, bad records with and without -k, a closed pipe and a full disk.

load helper

M() { echo "$MODELS/kuka_iiwa.urdf"; }

# a trajectory of the iiwa: time, qm, um, umdot; N rows (enough for many blocks of 128 KiB),
# as CSV in FILE.csv and JSON lines in FILE.json: traj N FILE
traj() {
  python3 - "$1" "$2" <<'PY'
import json, math, sys
n, out = int(sys.argv[1]), sys.argv[2]
cols = ["time"] + [f"{f}_{j}" for f in ("qm", "um", "umdot") for j in range(1, 8)]
with open(out + ".csv", "w") as c, open(out + ".json", "w") as js:
    c.write(",".join(cols) + "\n")
    for r in range(n):
        v = {f: [a * math.sin(0.001 * r * (j + 1) + j) for j in range(7)]
             for f, a in (("qm", 1.2), ("um", 0.7), ("umdot", 2.5))}
        c.write(",".join([f"{r * 0.001:.3f}"] + [repr(x) for f in ("qm", "um", "umdot") for x in v[f]]) + "\n")
        js.write(json.dumps({"time": r * 0.001, **v}) + "\n")
PY
}

# run a command with -j 1 and with -j N (N = the first argument), the input from FILE (the
# second): the same stdout, stderr and exit status, which are left in status, out1 and err1
same() {
  local n=$1 in=$2
  shift 2
  local s1=0 sn=0
  "$@" -j 1 < "$in" > "$BATS_TEST_TMPDIR/out1" 2> "$BATS_TEST_TMPDIR/err1" || s1=$?
  "$@" -j "$n" < "$in" > "$BATS_TEST_TMPDIR/outn" 2> "$BATS_TEST_TMPDIR/errn" || sn=$?
  status=$s1
  echo "exit $s1 and $sn" >&2
  cmp "$BATS_TEST_TMPDIR/out1" "$BATS_TEST_TMPDIR/outn"
  cmp "$BATS_TEST_TMPDIR/err1" "$BATS_TEST_TMPDIR/errn"
  [ "$s1" -eq "$sn" ]
}

setup_file() {
  traj 6000 "$BATS_FILE_TMPDIR/t"
}

@test "-j 2 and -j 3: CSV in, CSV and JSON out, byte for byte those of -j 1 (spart-id)" {
  same 2 "$BATS_FILE_TMPDIR/t.csv" spart-id -m "$(M)" --fixed-base
  [ "$status" -eq 0 ]
  [ "$(wc -l < "$BATS_TEST_TMPDIR/out1")" -eq 6001 ]
  same 3 "$BATS_FILE_TMPDIR/t.csv" spart-id -m "$(M)" --gravity 0,0,-9.81 -o json
  [ "$(wc -l < "$BATS_TEST_TMPDIR/out1")" -eq 6000 ]
  same 2 "$BATS_FILE_TMPDIR/t.csv" spart-id -m "$(M)" --floating --keep-state
}

@test "-j: JSON lines in, JSON and CSV out, and the other commands" {
  same 2 "$BATS_FILE_TMPDIR/t.json" spart-id -m "$(M)" --fixed-base
  [ "$(wc -l < "$BATS_TEST_TMPDIR/out1")" -eq 6000 ]
  same 3 "$BATS_FILE_TMPDIR/t.json" spart-id -m "$(M)" -o csv
  same 2 "$BATS_FILE_TMPDIR/t.csv" spart-kin -m "$(M)" --com --energy --gravity 0,0,-9.81
  same 2 "$BATS_FILE_TMPDIR/t.json" spart-jac -m "$(M)" --link 7 --dot
  same 2 "$BATS_FILE_TMPDIR/t.csv" spart-fd -m "$(M)" --fixed-base
  head -n 801 "$BATS_FILE_TMPDIR/t.csv" > "$BATS_TEST_TMPDIR/short.csv"
  same 2 "$BATS_TEST_TMPDIR/short.csv" spart-gim -m "$(M)" --coriolis --inverse
  [ "$(wc -l < "$BATS_TEST_TMPDIR/out1")" -eq 801 ]
}

@test "-j: the first bad record stops the output after exactly the records before it" {
  # a short row in the middle (line 3001: the 3000th record)
  awk 'NR == 3001 { print "1,2,3"; next } { print }' "$BATS_FILE_TMPDIR/t.csv" > "$BATS_TEST_TMPDIR/bad.csv"
  same 2 "$BATS_TEST_TMPDIR/bad.csv" spart-id -m "$(M)" --fixed-base
  [ "$status" -eq 1 ]
  [ "$(wc -l < "$BATS_TEST_TMPDIR/outn")" -eq 3000 ] # the header and lines 2 to 3000
  grep -qx 'spart-id: <stdin>:3001: expected 22 fields, got 3' "$BATS_TEST_TMPDIR/errn"
  [ "$(wc -l < "$BATS_TEST_TMPDIR/errn")" -eq 1 ]
  # and in JSON: a record with the wrong number of joints
  awk 'NR == 4000 { print "{\"qm\": [1, 2]}"; next } { print }' "$BATS_FILE_TMPDIR/t.json" > "$BATS_TEST_TMPDIR/bad.json"
  same 3 "$BATS_TEST_TMPDIR/bad.json" spart-id -m "$(M)"
  [ "$status" -eq 1 ]
  [ "$(wc -l < "$BATS_TEST_TMPDIR/outn")" -eq 3999 ]
}

@test "-j -k: every bad record reported in input order, the others written, the count at the end" {
  awk 'NR % 1000 == 7 { print "1,2,3"; next } NR == 2500 { print $0 ",9"; next } { print }' \
    "$BATS_FILE_TMPDIR/t.csv" > "$BATS_TEST_TMPDIR/bad.csv"
  same 2 "$BATS_TEST_TMPDIR/bad.csv" spart-id -m "$(M)" --fixed-base -k
  [ "$status" -eq 1 ]
  [ "$(wc -l < "$BATS_TEST_TMPDIR/errn")" -eq 8 ]
  [ "$(sed -n 1p "$BATS_TEST_TMPDIR/errn")" = 'spart-id: <stdin>:7: expected 22 fields, got 3' ]
  [ "$(sed -n 3p "$BATS_TEST_TMPDIR/errn")" = 'spart-id: <stdin>:2007: expected 22 fields, got 3' ]
  [ "$(sed -n 4p "$BATS_TEST_TMPDIR/errn")" = 'spart-id: <stdin>:2500: expected 22 fields, got 23' ]
  [ "$(tail -n 1 "$BATS_TEST_TMPDIR/errn")" = 'spart-id: 7 bad records skipped' ]
  [ "$(wc -l < "$BATS_TEST_TMPDIR/outn")" -eq $((6001 - 7)) ]
  # --check-limits: a message a record that passes a limit, in order, and exit 4
  awk -F, -v OFS=, 'NR > 1 { for (i = 2; i <= 8; i++) $i *= 3 } { print }' "$BATS_FILE_TMPDIR/t.csv" \
    > "$BATS_TEST_TMPDIR/far.csv"
  same 2 "$BATS_TEST_TMPDIR/far.csv" spart-kin -m "$(M)" --check-limits
  [ "$status" -eq 4 ]
  [ "$(wc -l < "$BATS_TEST_TMPDIR/errn")" -gt 100 ]
}

@test "-j: inputs no line split can cut are read as by one thread (a JSON array, a quoted cell over lines, pretty-printed JSON)" {
  python3 - "$BATS_FILE_TMPDIR/t.json" "$BATS_TEST_TMPDIR" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])][:3000]
d = sys.argv[2]
json.dump(recs, open(d + "/array.json", "w"), indent=1)
with open(d + "/pretty.json", "w") as f:
    for k, r in enumerate(recs):
        r["note"] = 'a {"brace"} and a\nline' if k % 7 == 0 else "plain"
        f.write((json.dumps(r, indent=1) if k % 500 == 3 else json.dumps(r)) + "\n")
with open(d + "/quoted.csv", "w") as f:
    f.write("note,time," + ",".join(f"{n}_{j}" for n in ("qm", "um", "umdot") for j in range(1, 8)) + "\n")
    for k, r in enumerate(recs):
        note = '"two\nlines, ""quoted"""' if k % 400 == 5 else ('"a,b"' if k % 3 else "plain")
        f.write(note + "," + ",".join([repr(r["time"])] + [repr(x) for n in ("qm", "um", "umdot") for x in r[n]]) + "\n")
PY
  same 2 "$BATS_TEST_TMPDIR/array.json" spart-id -m "$(M)"
  [ "$(wc -l < "$BATS_TEST_TMPDIR/outn")" -eq 3000 ]
  same 2 "$BATS_TEST_TMPDIR/pretty.json" spart-id -m "$(M)" -o csv
  [ "$(wc -l < "$BATS_TEST_TMPDIR/outn")" -gt 3001 ] # notes over two lines
  same 3 "$BATS_TEST_TMPDIR/quoted.csv" spart-id -m "$(M)"
  grep -q '^"two$' "$BATS_TEST_TMPDIR/outn"
  # a bad CSV header: its one message
  printf '# qm_1 in a comment\nQM_1,qm_2\n1,2\n' > "$BATS_TEST_TMPDIR/h.csv"
  same 2 "$BATS_TEST_TMPDIR/h.csv" spart-id -m "$(M)" -k
  [ "$status" -eq 1 ]
}

@test "-j: a closed pipe stops quietly (exit 3 with SIGPIPE ignored), a full disk is one write error" {
  for j in 1 2 3; do
    sh -c 'trap "" PIPE; (spart-id -m "$1" --fixed-base -j "$2" < "$3" 2> "$4/err"; echo $? > "$4/st") | head -c 10 > /dev/null' \
      sh "$(M)" "$j" "$BATS_FILE_TMPDIR/t.csv" "$BATS_TEST_TMPDIR"
    [ "$(cat "$BATS_TEST_TMPDIR/st")" -eq 3 ]
    [ ! -s "$BATS_TEST_TMPDIR/err" ]
    run --separate-stderr sh -c 'spart-id -m "$1" --fixed-base -j $2 -o json < "$3" > /dev/full' \
      sh "$(M)" $j "$BATS_FILE_TMPDIR/t.csv"
    [ "$status" -eq 3 ]
    [ "$stderr" = 'spart-id: write error: No space left on device' ]
  done
}

@test "-j: a write that fails mid-block stops where -j 1 stops: the same messages, counts and exit" {
  # a bad row every 37 lines, -k: -j 1 reports those before its first write (64 KiB of
  # records), then the write error, then the count of the bad records it had seen
  awk 'NR % 37 == 7 { print "1,2,3"; next } { print }' "$BATS_FILE_TMPDIR/t.csv" > "$BATS_TEST_TMPDIR/bad.csv"
  awk -F, -v OFS=, 'NR > 1 { for (i = 2; i <= 8; i++) $i *= 3 } { print }' "$BATS_TEST_TMPDIR/bad.csv" \
    > "$BATS_TEST_TMPDIR/far.csv"
  for j in 1 2 3; do
    s=0
    spart-id -m "$(M)" --fixed-base -k -j $j < "$BATS_TEST_TMPDIR/bad.csv" > /dev/full \
      2> "$BATS_TEST_TMPDIR/full$j" || s=$?
    echo "exit $s" >> "$BATS_TEST_TMPDIR/full$j"
    s=0
    spart-kin -m "$(M)" --check-limits -k -j $j < "$BATS_TEST_TMPDIR/far.csv" > /dev/full \
      2> "$BATS_TEST_TMPDIR/lim$j" || s=$?
    echo "exit $s" >> "$BATS_TEST_TMPDIR/lim$j"
    # a pipe already closed (SIGPIPE ignored): quiet, the messages before the first write
    python3 - "$(M)" $j "$BATS_TEST_TMPDIR/bad.csv" > "$BATS_TEST_TMPDIR/pipe$j" <<'PY'
import os, signal, subprocess, sys
r, w = os.pipe()
os.close(r)
p = subprocess.run(["spart-id", "-m", sys.argv[1], "--fixed-base", "-k", "-j", sys.argv[2]],
                   stdin=open(sys.argv[3]), stdout=w, stderr=subprocess.PIPE,
                   preexec_fn=lambda: signal.signal(signal.SIGPIPE, signal.SIG_IGN))
print("exit", p.returncode)
sys.stdout.write(p.stderr.decode())
PY
  done
  for j in 2 3; do
    cmp "$BATS_TEST_TMPDIR/full1" "$BATS_TEST_TMPDIR/full$j"
    cmp "$BATS_TEST_TMPDIR/lim1" "$BATS_TEST_TMPDIR/lim$j"
    cmp "$BATS_TEST_TMPDIR/pipe1" "$BATS_TEST_TMPDIR/pipe$j"
  done
  # what -j 1 said: the bad rows in its first 64 KiB of output (about 250 rows), not all 162
  cat "$BATS_TEST_TMPDIR/full1" >&2
  [ "$(tail -n 1 "$BATS_TEST_TMPDIR/full1")" = "exit 3" ]
  grep -qx 'spart-id: write error: No space left on device' "$BATS_TEST_TMPDIR/full1"
  n=$(grep -c 'expected 22 fields' "$BATS_TEST_TMPDIR/full1")
  [ "$n" -ge 3 ] && [ "$n" -le 10 ]
  grep -qx "spart-id: $n bad records skipped" "$BATS_TEST_TMPDIR/full1"
  [ "$(head -n 1 "$BATS_TEST_TMPDIR/pipe1")" = "exit 3" ]
  ! grep -q 'write error' "$BATS_TEST_TMPDIR/pipe1"
  grep -q 'records leave the joint limits' "$BATS_TEST_TMPDIR/lim1"
}

@test "-j: stdout and stderr to one file: the bytes of -j 1 (each message where -j 1 wrote it)" {
  awk -F, -v OFS=, 'NR > 1 { for (i = 2; i <= 8; i++) $i *= 3 } NR % 37 == 7 { print "1,2,3"; next }
    { print }' "$BATS_FILE_TMPDIR/t.csv" > "$BATS_TEST_TMPDIR/far.csv"
  for j in 1 2 3; do
    s=0
    spart-kin -m "$(M)" --check-limits -k -j $j < "$BATS_TEST_TMPDIR/far.csv" > "$BATS_TEST_TMPDIR/all$j" 2>&1 || s=$?
    echo "exit $s" >> "$BATS_TEST_TMPDIR/all$j"
  done
  cmp "$BATS_TEST_TMPDIR/all1" "$BATS_TEST_TMPDIR/all2"
  cmp "$BATS_TEST_TMPDIR/all1" "$BATS_TEST_TMPDIR/all3"
  # the messages among the records (each 64 KiB of them), not all before them
  [ "$(grep -n 'expected 22 fields' "$BATS_TEST_TMPDIR/all1" | tail -n 1 | cut -d: -f1)" -gt 3000 ]
}

@test "-j -u: each block's records are written as they are computed, before the input ends" {
  mkfifo "$BATS_TEST_TMPDIR/in"
  spart-id -m "$(M)" --fixed-base -j 2 -u < "$BATS_TEST_TMPDIR/in" > "$BATS_TEST_TMPDIR/out" 3>&- &
  exec 7> "$BATS_TEST_TMPDIR/in"
  head -n 3 "$BATS_FILE_TMPDIR/t.csv" >&7
  # the two rows come out while the input is still open
  for i in $(seq 1 100); do
    [ "$(wc -l < "$BATS_TEST_TMPDIR/out")" -ge 3 ] && break
    sleep 0.2
  done
  n=$(wc -l < "$BATS_TEST_TMPDIR/out")
  exec 7>&-
  wait
  [ "$n" -eq 3 ]
}

@test "-j 0 is one thread a CPU; a bad count is a usage error" {
  same 0 "$BATS_FILE_TMPDIR/t.csv" spart-id -m "$(M)" --fixed-base
  run --separate-stderr spart-id -m "$(M)" -j x
  [ "$status" -eq 2 ]
  [ "${stderr_lines[0]}" = "spart-id: --jobs: expected a whole number 0..256, got 'x'" ]
  run --separate-stderr spart-kin -m "$(M)" --jobs=-1
  [ "$status" -eq 2 ]
  run spart-fd --help
  [[ "$output" == *"-j, --jobs N"* ]]
  run spart-sim --help
  [[ "$output" == *"-j, --jobs N"* ]]
}

@test "-j: file operands, one or several, give what -j 1 gives" {
  head -n 2001 "$BATS_FILE_TMPDIR/t.csv" > "$BATS_TEST_TMPDIR/a.csv"
  spart-id -m "$(M)" -j 1 "$BATS_FILE_TMPDIR/t.csv" > "$BATS_TEST_TMPDIR/one1"
  spart-id -m "$(M)" -j 2 "$BATS_FILE_TMPDIR/t.csv" > "$BATS_TEST_TMPDIR/one2"
  cmp "$BATS_TEST_TMPDIR/one1" "$BATS_TEST_TMPDIR/one2"
  [ "$(wc -l < "$BATS_TEST_TMPDIR/one2")" -eq 6001 ]
  spart-id -m "$(M)" -j 1 "$BATS_TEST_TMPDIR/a.csv" - < "$BATS_FILE_TMPDIR/t.csv" > "$BATS_TEST_TMPDIR/two1"
  spart-id -m "$(M)" -j 2 "$BATS_TEST_TMPDIR/a.csv" - < "$BATS_FILE_TMPDIR/t.csv" > "$BATS_TEST_TMPDIR/two2"
  cmp "$BATS_TEST_TMPDIR/two1" "$BATS_TEST_TMPDIR/two2"
}

@test "-j 2: peak memory does not grow with the number of rows" {
  [ -x /usr/bin/time ] || skip "no /usr/bin/time"
  if sanitized spart-id; then
    skip "a sanitizer's memory (its quarantine of freed blocks) is not the reader's"
  fi
  for k in 1 2 3 4 5 6 7 8 9 10; do tail -n +2 "$BATS_FILE_TMPDIR/t.csv"; done |
    cat <(head -n 1 "$BATS_FILE_TMPDIR/t.csv") - > "$BATS_TEST_TMPDIR/big.csv"
  /usr/bin/time -f %M -o "$BATS_TEST_TMPDIR/small" spart-id -m "$(M)" -j 2 < "$BATS_FILE_TMPDIR/t.csv" > /dev/null
  /usr/bin/time -f %M -o "$BATS_TEST_TMPDIR/big" spart-id -m "$(M)" -j 2 < "$BATS_TEST_TMPDIR/big.csv" > /dev/null
  small=$(cat "$BATS_TEST_TMPDIR/small") big=$(cat "$BATS_TEST_TMPDIR/big")
  echo "6000 rows: $small KiB, 60000 rows: $big KiB" >&2
  # ten times the rows (22 MB of input), the same blocks: within 1 MiB
  [ "$big" -lt $((small + 1024)) ]
}

@test "-j 3: blank lines before the input's first text are not held in memory (200 MB of them)" {
  [ -x /usr/bin/time ] || skip "no /usr/bin/time"
  if sanitized spart-id; then
    skip "a sanitizer's memory (its quarantine of freed blocks) is not the reader's"
  fi
  { head -c 200000000 /dev/zero | tr '\0' '\n'; cat "$BATS_FILE_TMPDIR/t.csv"; } |
    /usr/bin/time -f %M -o "$BATS_TEST_TMPDIR/rss" spart-id -m "$(M)" -j 3 > "$BATS_TEST_TMPDIR/j3"
  spart-id -m "$(M)" < "$BATS_FILE_TMPDIR/t.csv" > "$BATS_TEST_TMPDIR/j1"
  cmp "$BATS_TEST_TMPDIR/j1" "$BATS_TEST_TMPDIR/j3"
  rss=$(cat "$BATS_TEST_TMPDIR/rss")
  echo "200 MB of blank lines, then 6000 rows: $rss KiB" >&2
  [ "$rss" -lt 100000 ] # it held them all (200 MB) before the fix
}

# N initial states of the iiwa, each with an id, as JSON lines in FILE.jsonl and CSV in
# FILE.csv, the K-th (from 1) bad when K is given (two qm: a CSV row of 17 cells), and the one
# after it failing (a torque that overflows the velocities): states N FILE [K]
states() {
  python3 - "$1" "$2" "${3:-0}" <<'PY'
import json, sys
n, out, bad = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
recs = [{"id": "s%d" % k, "qm": [0.05 * k, 0.5, 0, -1, 0, 0.5, 0],
         "um": [0, 0.2 * k, 0, 0, -0.1 * k, 0, 0], "taum": [0, 0, 0, 0, 0, 0, 0.3 * k]}
        for k in range(n)]
if bad:
    recs[bad - 1]["qm"] = [1, 2]
    recs[bad]["taum"] = [1e308] * 7
with open(out + ".jsonl", "w") as f:
    f.writelines(json.dumps(r) + "\n" for r in recs)
with open(out + ".csv", "w") as f:
    f.write("id," + ",".join("%s_%d" % (k, j) for k in ("qm", "um", "taum") for j in range(1, 8)) + "\n")
    for r in recs:
        f.write(",".join([r["id"]] + [repr(x) for k in ("qm", "um", "taum") for x in r[k]]) + "\n")
PY
}

@test "spart-sim -j: one trajectory a thread, the output those of -j 1 byte for byte (JSON, CSV, dopri5, --inputs)" {
  states 9 "$BATS_TEST_TMPDIR/s"
  sim=(spart-sim -m "$(M)" --fixed-base --gravity 0,0,-9.81 --duration 0.3 --every 3)
  same 2 "$BATS_TEST_TMPDIR/s.jsonl" "${sim[@]}"
  [ "$status" -eq 0 ]
  [ "$(wc -l < "$BATS_TEST_TMPDIR/outn")" -eq $((9 * 101)) ]
  # the trajectories in input order, each those of a run of its own
  sed -n 5p "$BATS_TEST_TMPDIR/s.jsonl" | "${sim[@]}" | cmp - <(sed -n 405,505p "$BATS_TEST_TMPDIR/outn")
  same 3 "$BATS_TEST_TMPDIR/s.csv" "${sim[@]}" --accelerations
  [ "$(wc -l < "$BATS_TEST_TMPDIR/outn")" -eq $((9 * 101 + 1)) ]
  same 2 "$BATS_TEST_TMPDIR/s.jsonl" "${sim[@]}" -o csv --integrator dopri5 --check-limits
  # --check-limits: the joints that leave their limits, each message naming its trajectory
  for k in 1 2 3 4 5; do
    echo "{\"qm\": [2.9, 0, 0, 0, 0, 0, 0], \"um\": [1.$k, 0, 0, 0, 0, 0, 0]}"
  done > "$BATS_TEST_TMPDIR/far.jsonl"
  same 2 "$BATS_TEST_TMPDIR/far.jsonl" "${sim[@]}" --check-limits
  [ "$status" -eq 4 ]
  [ "$(grep -v 'records leave the joint limits$' "$BATS_TEST_TMPDIR/errn" | cut -d: -f3 | uniq | tr '\n' ' ')" = '1 2 3 4 5 ' ]
  [ "$(tail -n 1 "$BATS_TEST_TMPDIR/errn")" = "spart-sim: 5 of 5 records leave the joint limits" ]
  printf 't,taum_1,taum_2,taum_3,taum_4,taum_5,taum_6,taum_7\n0,1,0,0,0,0,0,0\n0.1,-2,0,0,0,0,0,0.5\n' > "$BATS_TEST_TMPDIR/in.csv"
  same 4 "$BATS_TEST_TMPDIR/s.csv" "${sim[@]}" --inputs "$BATS_TEST_TMPDIR/in.csv"
  same 0 "$BATS_TEST_TMPDIR/s.jsonl" "${sim[@]}"
  # one initial state: the trajectory streams as with -j 1
  head -n 1 "$BATS_TEST_TMPDIR/s.jsonl" > "$BATS_TEST_TMPDIR/one.jsonl"
  same 2 "$BATS_TEST_TMPDIR/one.jsonl" "${sim[@]}"
  [ "$(wc -l < "$BATS_TEST_TMPDIR/outn")" -eq 101 ]
}

@test "spart-sim -j: a bad initial state, a trajectory that fails: the run stops as with -j 1, and -k goes on as with -j 1" {
  states 9 "$BATS_TEST_TMPDIR/s" 4
  sim=(spart-sim -m "$(M)" --fixed-base --duration 0.1)
  for f in s.jsonl s.csv; do
    same 2 "$BATS_TEST_TMPDIR/$f" "${sim[@]}"
    [ "$status" -eq 1 ]
    [ "$(wc -l < "$BATS_TEST_TMPDIR/errn")" -eq 1 ]
    grep -Eq '^spart-sim: <stdin>:(4: qm has 2 values|5: expected 22 fields, got 17)' "$BATS_TEST_TMPDIR/errn"
    last=$(tail -n 1 "$BATS_TEST_TMPDIR/outn") # the third trajectory's end
    [[ "$last" == 's2,0.1,'* || "$last" == '{"id":"s2","t":0.1,'* ]]
    same 3 "$BATS_TEST_TMPDIR/$f" "${sim[@]}" -k
    [ "$status" -eq 1 ]
    grep -q '^spart-sim: <stdin>:[56]: t = 0: um is not finite within the step to t = 0.001$' "$BATS_TEST_TMPDIR/errn"
    [ "$(tail -n 1 "$BATS_TEST_TMPDIR/errn")" = 'spart-sim: 2 bad records: 1 skipped, 1 partly written' ]
    [ "$(wc -l < "$BATS_TEST_TMPDIR/outn")" -ge $((7 * 101)) ]
  done
  # with the failing trajectory the first: the others wait, none is written
  sed -n 5,9p "$BATS_TEST_TMPDIR/s.jsonl" > "$BATS_TEST_TMPDIR/first.jsonl"
  same 2 "$BATS_TEST_TMPDIR/first.jsonl" "${sim[@]}"
  [ "$status" -eq 1 ]
  [ "$(wc -l < "$BATS_TEST_TMPDIR/outn")" -eq 1 ]
}

# three initial states of the iiwa, one a line: a 60 s trajectory of each is 20 MB of CSV
three() {
  printf '{"qm":[0,0.5,0,-1,0,0.5,0]}\n{"qm":[0.1,0.5,0,-1,0,0.5,0]}\n{"qm":[0.2,0.5,0,-1,0,0.5,0]}\n'
}

@test "spart-sim -j 2: peak memory that of -j 1 and a block held (4 MiB), whatever the trajectories' length" {
  [ -x /usr/bin/time ] || skip "no /usr/bin/time"
  if sanitized spart-sim; then
    skip "a sanitizer's memory (its quarantine of freed blocks) is not the writer's"
  fi
  three > "$BATS_TEST_TMPDIR/three.jsonl"
  sim=(spart-sim -m "$(M)" --fixed-base --gravity 0,0,-9.81 -o csv)
  for d in 30 120; do
    for j in 1 2; do
      /usr/bin/time -f %M -o "$BATS_TEST_TMPDIR/m$j.$d" "${sim[@]}" --duration $d -j $j \
        < "$BATS_TEST_TMPDIR/three.jsonl" > /dev/null
    done
  done
  read -r a30 < "$BATS_TEST_TMPDIR/m1.30"
  read -r a120 < "$BATS_TEST_TMPDIR/m1.120"
  read -r b30 < "$BATS_TEST_TMPDIR/m2.30"
  read -r b120 < "$BATS_TEST_TMPDIR/m2.120"
  echo "-j 1: $a30 KiB (30 s), $a120 KiB (120 s); -j 2: $b30 KiB, $b120 KiB" >&2
  # the worker whose trajectory is not the next to write holds 4 MiB of it at most (each
  # trajectory 10 MB at 30 s, 40 MB at 120 s: -j 2 held them whole, 136 MB at 120 s)
  [ "$b120" -lt $((a120 + 6 * 1024)) ]
  [ "$b120" -lt $((b30 + 1024)) ]
}

@test "spart-sim -j: long trajectories (more than a worker holds) give -j 1's bytes: CSV, JSON, messages among the rows, a pipe closed mid-way" {
  three > "$BATS_TEST_TMPDIR/three.jsonl"
  sim=(spart-sim -m "$(M)" --fixed-base --gravity 0,0,-9.81 --duration 20)
  same 2 "$BATS_TEST_TMPDIR/three.jsonl" "${sim[@]}" -o csv
  [ "$status" -eq 0 ]
  [ "$(wc -l < "$BATS_TEST_TMPDIR/outn")" -eq $((3 * 20001 + 1)) ]
  same 3 "$BATS_TEST_TMPDIR/three.jsonl" "${sim[@]}" -o json
  # joints that leave their limits mid-way, a bad state, -k: the messages where -j 1 wrote
  # them among the rows (2>&1), and a reader that stops in the second trajectory
  for k in 1 2 3 4 5; do
    [ $k -eq 3 ] && echo '{"qm": [1, 2]}'
    echo "{\"qm\": [2.9, 0, 0, 0, 0, 0, 0], \"um\": [1.$k, 0, 0, 0, 0, 0, 0]}"
  done > "$BATS_TEST_TMPDIR/far.jsonl"
  for j in 1 2 3; do
    s=0
    "${sim[@]}" -o csv --check-limits -k -j $j < "$BATS_TEST_TMPDIR/far.jsonl" > "$BATS_TEST_TMPDIR/all$j" 2>&1 || s=$?
    echo "exit $s" >> "$BATS_TEST_TMPDIR/all$j"
    sh -c 'trap "" PIPE; ("$@" 2> "$0.err"; echo "exit $?" >> "$0.err") | head -c 9000000 > "$0.out"' \
      "$BATS_TEST_TMPDIR/pipe$j" "${sim[@]}" -o csv --check-limits -k -j $j < "$BATS_TEST_TMPDIR/far.jsonl"
  done
  for j in 2 3; do
    cmp "$BATS_TEST_TMPDIR/all1" "$BATS_TEST_TMPDIR/all$j"
    cmp "$BATS_TEST_TMPDIR/pipe1.out" "$BATS_TEST_TMPDIR/pipe$j.out"
    cmp "$BATS_TEST_TMPDIR/pipe1.err" "$BATS_TEST_TMPDIR/pipe$j.err"
  done
  [ "$(tail -n 1 "$BATS_TEST_TMPDIR/all1")" = "exit 1" ]
  # the fourth trajectory's first message after the rows of the first two, among its own
  # (-j 1 writes its rows 64 KiB at a time, its messages at once: a message may cut a row)
  n=$(grep -n 'stdin>:4: t = ' "$BATS_TEST_TMPDIR/all1" | head -n 1 | cut -d: -f1)
  [ "$n" -gt $((2 * 20001)) ] && [ "$n" -lt $((3 * 20001)) ]
  grep -q 'spart-sim: <stdin>:3: qm has 2 values' "$BATS_TEST_TMPDIR/all1"
  [ "$(tail -n 1 "$BATS_TEST_TMPDIR/pipe1.err")" = "exit 3" ]
}
