#!/usr/bin/env bats
# CSV as users' tools write it (spart-model(5), READING CSV): a header that names no state
# column, names that look like state columns, RFC 4180 quotes, other delimiters, comment lines,
# pass-through columns named like outputs, text that JSON cannot hold.  Never a state the user
# did not give.

load helper

M() { echo "$MODELS/kuka_iiwa.urdf"; }

# the iiwa's header and one row, cells joined by $1 (default ','), each wrapped in $2
row() {
  python3 - "${1:-,}" "${2:-}" <<'PY'
import sys
d, q = sys.argv[1], sys.argv[2]
names = ["time"] + [f"qm_{j}" for j in range(1, 8)] + [f"um_{j}" for j in range(1, 8)]
vals = ["0.25"] + [repr(0.1 * j) for j in range(1, 8)] + [repr(-0.2 * j) for j in range(1, 8)]
print(d.join(q + n + q for n in names))
print(d.join(q + v + q for v in vals))
PY
}

@test "a header that names no state column is an error that lists the columns expected" {
  for h in x_1 time 'time,x_1,x_2' '"time";"x_1"'; do
    run --separate-stderr spart-kin -m "$(M)" -o csv <<< "$h"$'\n1'
    [ "$status" -eq 1 ]
    [[ "$stderr" == "spart-kin: <stdin>:1: the header names no state column"*"; expected R0_1_1..R0_3_3, r0_1..r0_3, qm_1..qm_7, u0_1..u0_6, um_1..um_7, u0dot_1..u0dot_6, umdot_1..umdot_7" ]]
    [ -z "$output" ]
  done
  run --separate-stderr spart-kin -m "$(M)" -o csv <<< $'time;x_1\n1;2'
  [[ "$stderr" == "spart-kin: <stdin>:1: the header names no state column (read as ';'-separated); expected "* ]]
  # state columns of a field the command does not read are no state for it
  run --separate-stderr spart-kin -m "$(M)" -o csv <<< $'taum_1,taum_2,taum_3,taum_4,taum_5,taum_6,taum_7\n1,2,3,4,5,6,7'
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"the header names no state column"* ]]
}

@test "a URDF given as states is refused, not read as a header" {
  run --separate-stderr spart-kin -m "$(M)" < "$(M)"
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-kin: <stdin>:1: expected a CSV header, got XML (a URDF is a model: give it with -m)" ]
  [ -z "$output" ]
}

@test "a column that looks like a state column and is not one is an error naming it" {
  for h in QM_1 Qm_1 qm1 QM1 qm_0 qm_03 qm_+1 qm_-1 qm_8 qm qm_1_1 qm_1x 'qm_ 1' UM_2 um10 \
           wFm_8_1 wFm_1_7 wFm_1 wFm_0_1 R0_1 R0_4_1 r0_1_1 wfm_1_1 TAU0_1 u0dot1; do
    run --separate-stderr spart-kin -m "$(M)" -o csv <<< "time,$h,qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7"$'\n'"0,1,0,0,0,0,0,0,0"
    [ "$status" -eq 1 ] || { echo "accepted: $h"; false; }
    [[ "$stderr" == "spart-kin: <stdin>:1: column '$h' is not a state column: "* ]] ||
      { echo "$h: $stderr"; false; }
    [ -z "$output" ]
  done
  run --separate-stderr spart-kin -m "$(M)" -o csv <<< $'QM_1\n1'
  [ "$stderr" = "spart-kin: <stdin>:1: column 'QM_1' is not a state column: state columns are qm_I (case matters)" ]
  run --separate-stderr spart-kin -m "$(M)" -o csv <<< $'qm_8\n1'
  [ "$stderr" = "spart-kin: <stdin>:1: column 'qm_8' is not a state column: qm_I takes I from 1 to 7, without sign or leading zeros" ]
  # names of the user's own that merely start like one pass through
  run --separate-stderr spart-kin -m "$(M)" -o csv --only r_com <<< $'qmax,um_limit_note,x_1,qm_1\n1,2,3,0.5'
  [ "$status" -ne 0 ] # um_limit_note: um_ followed by no index is a state column's name gone wrong
  run --separate-stderr spart-kin -m "$(M)" -o csv --only r_com <<< $'qmax,x_1,time_qm_1,qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\n1,3,4,0.5,0,0,0,0,0,0'
  [ "$status" -eq 0 ]
  [[ "${lines[0]}" == qmax,x_1,time_qm_1,r_com_1,r_com_2,r_com_3 ]]
}

@test "RFC 4180: quoted header names and quoted numbers give what plain ones give" {
  plain=$(row , | spart-id -m "$(M)" --fixed-base -o csv)
  quoted=$(row , '"' | spart-id -m "$(M)" --fixed-base -o csv)
  [ -n "$plain" ]
  # the pass-through time keeps its quotes; the computed values are the same
  [ "$(sed -n 2p <<< "$quoted")" = "\"0.25\"$(sed -n 2p <<< "$plain" | cut -c5-)" ]
  [ "$(sed -n 1p <<< "$quoted")" = "$(sed -n 1p <<< "$plain")" ]
}

@test "RFC 4180: a quoted cell may hold commas, quotes and line breaks: one record, with or without -k" {
  printf 'note,qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\n"a, ""b""\nc",0.1,0.2,0.3,0.4,0.5,0.6,0.7\nplain,0,0,0,0,0,0,0\n' > "$BATS_TEST_TMPDIR/in.csv"
  for k in "" -k; do
    run --separate-stderr spart-kin -m "$(M)" $k --only r_com -o json < "$BATS_TEST_TMPDIR/in.csv"
    [ "$status" -eq 0 ]
    [ "${#lines[@]}" -eq 2 ]
    python3 -c 'import json, sys; assert json.loads(sys.argv[1])["note"] == "a, \"b\"\nc", sys.argv[1]' "${lines[0]}"
    run --separate-stderr spart-kin -m "$(M)" $k --only r_com -o csv < "$BATS_TEST_TMPDIR/in.csv"
    [ "$status" -eq 0 ]
    python3 - "$output" <<'PY'
import csv, io, sys
rows = list(csv.reader(io.StringIO(sys.argv[1])))
assert len(rows) == 3, rows
assert rows[1][0] == 'a, "b"\nc' and rows[2][0] == "plain", rows
assert rows[0] == ["note", "r_com_1", "r_com_2", "r_com_3"]
PY
  done
  # the record's line is where it starts; the row after it is read on its own
  printf 'note,qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\n"a\nb",x,0,0,0,0,0,0\nplain,0,0,0,0,0,0,0\n' |
    { run --separate-stderr spart-kin -o json -m "$(M)" -k --only r_com
      [ "$status" -eq 1 ]
      [ "${#lines[@]}" -eq 1 ]
      [[ "${lines[0]}" == '{"note":"plain",'* ]]
      [[ "$stderr" == "spart-kin: <stdin>:2: column 'qm_1': 'x' is not a finite number"* ]]; }
}

@test "RFC 4180: a quote never closed, or text after a closing quote, is an error" {
  printf 'note,qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\n"a,0,0,0,0,0,0,0\nb,0,0,0,0,0,0,0\n' |
    { run --separate-stderr spart-kin -o json -m "$(M)" -k
      [ "$status" -eq 1 ]
      [ -z "$output" ]
      [[ "$stderr" == "spart-kin: <stdin>:2: column 1 'note': its quote is never closed"* ]]; }
  printf 'note,qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\n"a"b,0,0,0,0,0,0,0\nb,0,0,0,0,0,0,0\n' |
    { run --separate-stderr spart-kin -o json -m "$(M)" -k --only r_com
      [ "$status" -eq 1 ]
      [ "${#lines[@]}" -eq 1 ]
      [[ "$stderr" == "spart-kin: <stdin>:2: column 1 'note': text after its closing quote"* ]]; }
}

@test "pass-through cells are written back quoted where CSV needs it" {
  # from a ';'-separated file a cell may hold a comma; an unquoted cell may hold a quote
  printf 'note;x;qm_1;qm_2;qm_3;qm_4;qm_5;qm_6;qm_7\na,b;say "hi";0;0;0;0;0;0;0\n' |
    { run --separate-stderr spart-kin -m "$(M)" -o csv --only r_com
      [ "$status" -eq 0 ]
      python3 - "$output" <<'PY'
import csv, io, sys
rows = list(csv.reader(io.StringIO(sys.argv[1])))
assert rows[0][:2] == ["note", "x"] and rows[1][:2] == ["a,b", 'say "hi"'], rows
assert all(len(r) == 5 for r in rows), rows
PY
    }
}

@test "tab- and semicolon-separated files give what the comma-separated one gives" {
  comma=$(row , | spart-id -m "$(M)" --fixed-base -o csv)
  semi=$(row ';' | spart-id -m "$(M)" --fixed-base -o csv)
  tab=$(row $'\t' | spart-id -m "$(M)" --fixed-base -o csv)
  [ -n "$comma" ]
  [ "$semi" = "$comma" ]
  [ "$tab" = "$comma" ]
  # a decimal comma in a ';' file is no number
  run --separate-stderr spart-kin -m "$(M)" <<< $'qm_1;qm_2;qm_3;qm_4;qm_5;qm_6;qm_7\n0,5;0;0;0;0;0;0'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-kin: <stdin>:2: column 'qm_1': '0,5' is not a finite number" ]
}

@test "lines starting with # are skipped before the header only; after it they are records" {
  printf '# logger v2\n#\ntime,qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\n#1,0,0,0,0,0,0,0\n2,0,0,0,0,0,0,0\n' |
    { run --separate-stderr spart-kin -o json -m "$(M)" --only r_com
      [ "$status" -eq 0 ]
      [ "${#lines[@]}" -eq 2 ]
      [[ "${lines[0]}" == '{"time":"#1",'* ]]
      [[ "${lines[1]}" == '{"time":2,'* ]]; }
  # a '#' in a state cell is a bad number, not a comment
  printf 'qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\n#0,0,0,0,0,0,0\n' |
    { run --separate-stderr spart-kin -m "$(M)"
      [ "$status" -eq 1 ]
      [ "$stderr" = "spart-kin: <stdin>:2: column 'qm_1': '#0' is not a finite number" ]; }
  # a commented header is a comment: the row after it would be the header, and is refused
  printf '#time,qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\n0,0.1,0,0,0,0,0,0\n1,0.2,0,0,0,0,0,0\n' |
    { run --separate-stderr spart-kin -m "$(M)"
      [ "$status" -eq 1 ]
      [ -z "$output" ]
      [[ "$stderr" == "spart-kin: <stdin>:2: the header names no state column; expected "*" (line 1, a comment, names some: remove its '#')" ]]; }
}

@test "a pass-through column named like an output becomes in_NAME; the computed one keeps its name" {
  # measured torques beside the states: spart-id does not read taum, it computes it
  python3 -c '
print(",".join([f"taum_{j}" for j in range(1, 8)] + [f"qm_{j}" for j in range(1, 8)]))
print(",".join(["9"] * 7 + ["0.3"] * 7))' > "$BATS_TEST_TMPDIR/in.csv"
  run --separate-stderr spart-id -m "$(M)" --fixed-base -o csv < "$BATS_TEST_TMPDIR/in.csv"
  [ "$status" -eq 0 ]
  [[ "${lines[0]}" == in_taum_1,in_taum_2,in_taum_3,in_taum_4,in_taum_5,in_taum_6,in_taum_7,tau0_1,*,taum_1,taum_2,taum_3,taum_4,taum_5,taum_6,taum_7 ]]
  [[ "${lines[1]}" == 9,9,9,9,9,9,9,* ]]
  python3 - "$output" <<'PY'
import csv, io, sys
rows = list(csv.reader(io.StringIO(sys.argv[1])))
assert len(set(rows[0])) == len(rows[0]), rows[0]
PY
  # the same in JSON output, where the keys are the outputs' names
  printf 'r_com,in_r_com,qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\n1,2,0,0,0,0,0,0,0\n' |
    { run --separate-stderr spart-kin -o json -m "$(M)" --only r_com
      [ "$status" -eq 0 ]
      python3 -c '
import json, sys
def once(pairs):
    keys = [k for k, _ in pairs]
    assert len(keys) == len(set(keys)), keys
    return dict(pairs)
r = json.loads(sys.argv[1], object_pairs_hook=once)
assert r["in_in_r_com"] == 1 and r["in_r_com"] == 2 and len(r["r_com"]) == 3, r' "$output"; }
  # two pass-through columns of one name are refused
  run --separate-stderr spart-kin -m "$(M)" <<< $'time,time,qm_1\n1,2,3'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-kin: <stdin>:1: column 'time' appears twice" ]
}

@test "CSV output quotes a name the readers would read otherwise: a '#' first, blanks at its ends" {
  # a header starting with '#' was skipped as a comment line; blanks around a name are dropped
  in='{"#id": 1, " t ": "a", "qm": [0.1, 0, 0, 0, 0, 0, 0]}'
  spart-kin -m "$(M)" --only r_com -o csv <<< "$in" > "$BATS_TEST_TMPDIR/c.csv"
  spart-kin -m "$(M)" --only r_com <<< "$in" > "$BATS_TEST_TMPDIR/c.json"
  [ "$(head -n 1 "$BATS_TEST_TMPDIR/c.csv")" = '"#id"," t ",r_com_1,r_com_2,r_com_3' ]
  run spart-cmp "$BATS_TEST_TMPDIR/c.csv" "$BATS_TEST_TMPDIR/c.json"
  [ "$status" -eq 0 ]
  [[ "$output" == *"1 records: equal within the tolerances" ]]
  # and a command reads it back: the names pass through whole
  run --separate-stderr bash -c 'printf "%s\n" "$(head -n 1 "$0"),qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7" "$(tail -n 1 "$0"),0,0,0,0,0,0,0" | spart-kin -m "$1" --only r_com -o json' "$BATS_TEST_TMPDIR/c.csv" "$(M)"
  [ "$status" -eq 0 ]
  [[ "$output" == '{"#id":1," t ":"a","r_com_1":'* ]]
}

@test "JSON output of pass-through text is valid UTF-8: control bytes escaped, other bytes refused" {
  printf 'x,qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\na\0b\001\303\251,0,0,0,0,0,0,0\n' |
    { run --separate-stderr spart-kin -o json -m "$(M)" --only r_com
      [ "$status" -eq 0 ]
      python3 -c '
import json, sys
r = json.loads(sys.argv[1])
assert r["x"] == "a\0b\x01\u00e9", r' "$output"; }
  printf 'x,qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\ncaf\351,0,0,0,0,0,0,0\n' |
    { run --separate-stderr spart-kin -o json -m "$(M)" --only r_com
      [ "$status" -eq 1 ]
      [ -z "$output" ]
      [ "$stderr" = "spart-kin: <stdin>:2: column 'x': text that is not UTF-8, which JSON output cannot carry (use -o csv)" ]; }
  # CSV output carries the bytes as they came
  printf 'x,qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\ncaf\351,0,0,0,0,0,0,0\n' |
    spart-kin -m "$(M)" --only r_com -o csv | tail -n 1 | grep -q $'^caf\351,'
}

@test "line numbers past 2^31 are right in messages (64-bit counters)" {
  # 2^31 + 1 blank lines (written a MiB at a time), then a header naming nothing
  python3 -c 'import os
b = b"\n" * (1 << 20)
for _ in range(2048): os.write(1, b)
os.write(1, b"\ntime\n1\n")' |
    { run --separate-stderr spart-kin -m "$(M)"
      [ "$status" -eq 1 ]
      [[ "$stderr" == "spart-kin: <stdin>:2147483650: the header names no state column"* ]]; }
}

@test "CSV cells are the very text the JSON writer gives each number (the CSV writer's memo of numbers it wrote lately)" {
  # spart-kin repeats numbers within a row (its poses' columns), so its CSV writer copies their
  # text from a memo; JSON writes every number afresh: the two texts of each number are equal,
  # zeros, negative zeros and numbers that share a memo slot included
  python3 - > "$BATS_TEST_TMPDIR/kin.jsonl" <<'PY'
import json, random
random.seed(3)
for k in range(400):
    q = [random.choice([0.0, -0.0, 0.5, random.uniform(-3, 3)]) for _ in range(7)]
    print(json.dumps({"qm": q, "um": [random.uniform(-1, 1) for _ in range(7)]}))
PY
  spart-kin -m "$(M)" -o json < "$BATS_TEST_TMPDIR/kin.jsonl" > "$BATS_TEST_TMPDIR/kin.json"
  spart-kin -m "$(M)" -o csv < "$BATS_TEST_TMPDIR/kin.jsonl" > "$BATS_TEST_TMPDIR/kin.csv"
  run python3 - "$BATS_TEST_TMPDIR/kin.json" "$BATS_TEST_TMPDIR/kin.csv" <<'PY'
import csv, json, sys
def flat(v):
    return [x for e in v for x in flat(e)] if isinstance(v, list) else [v]
rows = list(csv.reader(open(sys.argv[2])))
head, rows = rows[0], rows[1:]
recs = [json.loads(l, parse_float=str, parse_int=str) for l in open(sys.argv[1])]
assert len(recs) == len(rows) == 400, (len(recs), len(rows))
n = 0
for r, row in zip(recs, rows):
    cells = [x for k, v in r.items() for x in flat(v)]
    assert cells == row, (n, [(a, b) for a, b in zip(cells, row) if a != b][:3])
    n += len(cells)
print(n, "numbers")
PY
  [ "$status" -eq 0 ]
  [[ "$output" == *" numbers" ]]
}
