#!/usr/bin/env bats
# Records through pipelines: output format, file operands, JSON arrays and pass-through keys,
# chained commands (--keep-state), records whose fields differ.

load helper

M() { echo "$MODELS/kuka_iiwa.urdf"; }
Q='"qm": [0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7]'
U='"um": [1, -1, 0.5, 0.2, 0.3, -0.4, 0.9]'
A='"umdot": [1, 2, 3, 4, 5, 6, 7]'

csv_rows() { # a CSV trajectory of N rows: time, qm, um, umdot
  python3 - "$1" <<'PY'
import math, sys
n = 7
print(",".join(["time"] + ["%s_%d" % (f, j) for f in ("qm", "um", "umdot") for j in range(1, n + 1)]))
for i in range(int(sys.argv[1])):
    t = 0.1 * i
    print(",".join(["%.1f" % t] + ["%.6f" % (0.8 * math.sin(t + j)) for j in range(n)] +
                   ["%.6f" % (0.4 * math.cos(t + j)) for j in range(n)] +
                   ["%.6f" % (-0.2 * math.sin(t + j)) for j in range(n)]))
PY
}

@test "CSV in gives CSV out; -o json asks for JSON; JSON in gives JSON out; --seq asks for JSON" {
  csv_rows 2 > "$BATS_TEST_TMPDIR/in.csv"
  run --separate-stderr spart-id -m "$(M)" --only taum < "$BATS_TEST_TMPDIR/in.csv"
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -eq 3 ]
  [ "${lines[0]}" = "time,taum_1,taum_2,taum_3,taum_4,taum_5,taum_6,taum_7" ]
  run --separate-stderr spart-id -m "$(M)" --only taum -o json < "$BATS_TEST_TMPDIR/in.csv"
  [[ "${lines[0]}" == '{"time":0.0,"taum":['* ]]
  run --separate-stderr spart-id -m "$(M)" --only taum --seq < "$BATS_TEST_TMPDIR/in.csv"
  [[ "${lines[0]}" == $'\x1e{"time":0.0,"taum":['* ]]
  run --separate-stderr spart-id -m "$(M)" --only taum <<< "{$Q}"
  [[ "$output" == '{"taum":['* ]]
}

@test "file operands are read in order, '-' is stdin, messages name the file" {
  cd "$BATS_TEST_TMPDIR"
  csv_rows 3 > a.csv
  csv_rows 2 > b.csv
  want=$( (cat a.csv; tail -n +2 b.csv) | spart-id -m "$(M)" --only taum)
  run --separate-stderr spart-id -m "$(M)" --only taum a.csv - < b.csv
  [ "$status" -eq 0 ]
  [ "$output" = "$want" ]
  [ "${#lines[@]}" -eq 6 ]
  # the model from stdin, the records from a file
  run --separate-stderr spart-id -m - --only taum a.csv < "$(M)"
  [ "$output" = "$(spart-id -m "$(M)" --only taum < a.csv)" ]
  # a bad row names its file and line
  printf 'time,qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\n0,0,0,0,0,0,0,0\n1,0,0,x,0,0,0,0\n' > bad.csv
  run --separate-stderr spart-id -m "$(M)" a.csv bad.csv
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-id: bad.csv:3: column 'qm_3': 'x' is not a finite number" ]
  # a file that cannot be opened: one line, exit 1; with -k the others are read
  run --separate-stderr spart-id -m "$(M)" nope.csv a.csv
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "spart-id: cannot open nope.csv: No such file or directory" ]
  run --separate-stderr spart-id -k -m "$(M)" --only taum a.csv nope.csv b.csv
  [ "$status" -eq 1 ]
  [ "${#lines[@]}" -eq 6 ]
  [ "${stderr_lines[0]}" = "spart-id: cannot open nope.csv: No such file or directory" ]
  # files of other columns: refused, never shifted under the first file's header
  printf 'qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\n0,0,0,0,0,0,0\n' > other.csv
  run --separate-stderr spart-id -m "$(M)" --only taum a.csv other.csv
  [ "$status" -eq 1 ]
  [ "${#lines[@]}" -eq 4 ]
  [[ "$stderr" == "spart-id: other.csv:2: this record's own fields differ from the CSV header's"* ]]
  run --separate-stderr spart-id -m "$(M)" a.csv -
  [ "$status" -eq 0 ]
  run --separate-stderr spart-id -m "$(M)" - -
  [ "$status" -eq 2 ]
  [ "${stderr_lines[0]}" = "spart-id: '-' (standard input) given twice" ]
  run --separate-stderr spart-id -m - -
  [ "$status" -eq 2 ]
  [ "${stderr_lines[0]}" = "spart-id: --model -: the records come on standard input; give a file" ]
}

@test "a JSON array of records (jq -s, Miller's JSON) is read as records" {
  printf '[\n{\n  "t": 1,\n  %s\n},\n{\n  "t": 2,\n  %s\n}\n]\n' "$Q" "$Q" |
    { run --separate-stderr spart-id -m "$(M)" --only taum
      [ "$status" -eq 0 ]
      [ "${#lines[@]}" -eq 2 ]
      [ "${lines[1]}" = "$(spart-id -m "$(M)" --only taum <<< "{\"t\": 2, $Q}")" ]; }
  run --separate-stderr spart-id -m "$(M)" --only taum <<< "[{$Q}, {$Q}] [{$Q}]"
  [ "${#lines[@]}" -eq 3 ]
  run --separate-stderr spart-id -m "$(M)" <<< "[{$Q}"
  [ "$status" -eq 1 ]
  [ "${#lines[@]}" -eq 1 ]
  [ "$stderr" = "spart-id: <stdin>:1: unterminated JSON array (no ']')" ]
  run --separate-stderr spart-id -m "$(M)" <<< "[[{$Q}]]"
  [ "$status" -eq 1 ]
  [[ "$stderr" == "spart-id: <stdin>:1: expected a JSON object, got '[{"* ]]
}

@test "JSON keys a command does not read pass through; look-alikes and records without state are errors" {
  run --separate-stderr spart-id -m "$(M)" --only taum <<< "{\"time\": 1.50, \"label\": \"a\\\"b\", $Q, \"meta\": {\"x\": [1]}, \"taum\": [1, 2, 3, 4, 5, 6, 7]}"
  [ "$status" -eq 0 ]
  [[ "$output" == '{"time":1.50,"label":"a\"b","meta":{"x": [1]},"in_taum":[1, 2, 3, 4, 5, 6, 7],"taum":['* ]]
  # the same into CSV: scalars are cells (strings decoded), an array has no cell
  run --separate-stderr spart-id -m "$(M)" --only taum -o csv <<< "{\"time\": 1.50, \"label\": \"a,b\", \"ok\": true, \"none\": null, $Q}"
  [ "$status" -eq 0 ]
  [[ "${lines[1]}" == '1.50,"a,b",true,,'* ]]
  run --separate-stderr spart-id -m "$(M)" -o csv <<< "{\"meta\": [1], $Q}"
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-id: <stdin>:1: key 'meta' holds an array or an object: no CSV cell can carry it (use -o json)" ]
  for key in QM qm_1 qm1 Qm_dot; do
    run --separate-stderr spart-id -m "$(M)" <<< "{\"$key\": [0], $Q}"
    [ "$status" -eq 1 ]
    [ "$stderr" = "spart-id: <stdin>:1: key '$key' is not a state field: the field is qm, an array (case matters)" ]
  done
  for rec in '{}' '{"time": 1}' '{"taum": [1, 2, 3, 4, 5, 6, 7]}'; do
    run --separate-stderr spart-id -m "$(M)" <<< "$rec"
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [ "$stderr" = "spart-id: <stdin>:1: the record gives no state field; expected some of R0 r0 qm u0 um u0dot umdot wF0 wFm q0 qmdot" ]
  done
  run --separate-stderr spart-gim -m "$(M)" <<< '{"umdot": [1, 2, 3, 4, 5, 6, 7]}'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-gim: <stdin>:1: the record gives no state field; expected some of R0 r0 qm u0 um q0 qmdot" ]
}

@test "--keep-state: spart-id into spart-fd gives back the accelerations, CSV and JSON" {
  cd "$BATS_TEST_TMPDIR"
  csv_rows 5 > in.csv
  spart-id -m "$(M)" --fixed-base --keep-state < in.csv > id.csv
  head -n 1 id.csv | grep -q '^time,qm_1,.*,umdot_7,tau0_1,.*,taum_7$'
  spart-fd -m "$(M)" --fixed-base < id.csv > fd.csv
  python3 - <<'PY'
import csv
rows = list(csv.DictReader(open("fd.csv")))
assert len(rows) == 5
for r in rows:
    for j in range(1, 8):
        assert abs(float(r["in_umdot_%d" % j]) - float(r["umdot_%d" % j])) < 1e-9, r
PY
  # JSON to JSON
  run --separate-stderr bash -c "spart-id -m '$(M)' --keep-state <<< '{$Q, $U, $A}' | spart-fd -m '$(M)'"
  [ "$status" -eq 0 ]
  python3 -c '
import json, sys
r = json.loads(sys.argv[1])
assert all(abs(a - b) < 1e-9 for a, b in zip(r["umdot"], [1, 2, 3, 4, 5, 6, 7])), r
assert r["in_umdot"] == [1, 2, 3, 4, 5, 6, 7], r' "$output"
  # spart-kin into spart-jac: the poses pass through, the state goes on
  run --separate-stderr bash -c "spart-kin -m '$(M)' --keep-state --only r_com <<< '{$Q, $U}' | spart-jac -m '$(M)' --link 7 --dot --only J0,Jmdot"
  [ "$status" -eq 0 ]
  direct=$(spart-jac -m "$(M)" --link 7 --dot --only J0,Jmdot <<< "{$Q, $U}")
  python3 -c '
import json, sys
r, d = json.loads(sys.argv[1]), json.loads(sys.argv[2])
assert len(r["r_com"]) == 3 and r["J0"] == d["J0"] and r["Jmdot"] == d["Jmdot"], r' "$output" "$direct"
  # without --keep-state the state does not go on: spart-jac refuses a record of outputs only
  run --separate-stderr bash -c "spart-kin -m '$(M)' --only r_com <<< '{$Q, $U}' | spart-jac -m '$(M)' --link 7"
  [ "$status" -eq 1 ]
  [[ "$stderr" == "spart-jac: <stdin>:1: the record gives no state field"* ]]
}

@test "CSV output of records whose fields differ: the first record's columns, a differing one refused" {
  run --separate-stderr spart-id -m "$(M)" --only taum -o csv <<< "{\"t\": 1, $Q}
{$Q, \"t\": 2}
{\"t\": 3, $Q, \"x\": 1}"
  [ "$status" -eq 1 ]
  [ "${#lines[@]}" -eq 3 ]
  [ "${lines[2]}" = "2,0,0,0,0,0,0,0" ]
  [[ "$stderr" == "spart-id: <stdin>:3: this record's own fields differ from the CSV header's"* ]]
  # outputs that differ (velocities in some records only): refused the same way, never shifted
  run --separate-stderr spart-kin -m "$(M)" --only r_com,t0 -o csv <<< "{$Q}
{$Q, $U}"
  [ "$status" -eq 1 ]
  [ "${#lines[@]}" -eq 2 ]
  [ "$stderr" = "spart-kin: <stdin>:2: this record gives other outputs than the CSV header names" ]
}
