#!/usr/bin/env bats
# The JSON readers: model JSON, DH files, inline robots and state records all go through one
# strict scanner (RFC 8259): no repeated key, no key with a NUL, numbers as the RFC writes them,
# strings in UTF-8; errors name their line.

load helper

M="$MODELS/kuka_iiwa.urdf"

# a copy of a bundled model JSON with Python's edits applied, pretty-printed with indent=1:
# edit MODEL EXPR-ON-TEXT-s > FILE
model_text() {
  python3 - "$MODELS/$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = json.dumps(d, indent=1)
print(eval(sys.argv[2]))
PY
}

@test "a key repeated in a model JSON is refused, naming the key and its line" {
  # the first value is good, the second bad: cJSON kept the first and never looked at -7
  model_text SC_3DoF.json 's.replace("\"mass\": ", "\"mass\": 5, \"mass\": -7, \"note\": ", 1)' \
    > "$BATS_TEST_TMPDIR/dup.json"
  line=$(grep -n '"mass": 5, "mass": -7' "$BATS_TEST_TMPDIR/dup.json" | cut -d: -f1)
  [ "$line" -gt 1 ]
  for c in urdf2robot "spart-kin -m"; do
    run --separate-stderr $c "$BATS_TEST_TMPDIR/dup.json" < /dev/null
    echo "$c: $status $stderr"
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [[ "$stderr" == *": $BATS_TEST_TMPDIR/dup.json:$line: base_link.mass is given twice" ]]
  done
  # deeper, and in a big object (keys.link_id, checked when it closes)
  model_text kuka_iiwa.json 's.replace("\"q_id\": 1,", "\"q_id\": 1, \"q_id\": 1,", 1)' \
    > "$BATS_TEST_TMPDIR/dup2.json"
  line=$(grep -n '"q_id": 1, "q_id": 1' "$BATS_TEST_TMPDIR/dup2.json" | cut -d: -f1)
  run --separate-stderr urdf2robot "$BATS_TEST_TMPDIR/dup2.json"
  [ "$status" -eq 1 ]
  [ "$stderr" = "urdf2robot: $BATS_TEST_TMPDIR/dup2.json:$line: joints[0].q_id is given twice" ]
  python3 -c '
import json
keys = ",".join("\"k%d\": %d" % (i, i) for i in range(100))
print("{\"a\": {%s,\n\"k7\": 1}}" % keys)' > "$BATS_TEST_TMPDIR/dup3.json"
  run --separate-stderr urdf2robot "$BATS_TEST_TMPDIR/dup3.json"
  [ "$status" -eq 1 ]
  [ "$stderr" = "urdf2robot: $BATS_TEST_TMPDIR/dup3.json:2: 'k7' is given twice in one object" ]
}

@test "a key repeated in a DH file or an inline robot is refused" {
  sed '0,/"m": /s//"m": 3, "m": /' "$MODELS/puma560.dh.json" > "$BATS_TEST_TMPDIR/dh.json"
  line=$(grep -n '"m": 3, "m": ' "$BATS_TEST_TMPDIR/dh.json" | cut -d: -f1)
  run --separate-stderr dh2robot "$BATS_TEST_TMPDIR/dh.json"
  [ "$status" -eq 1 ]
  [ "$stderr" = "dh2robot: $BATS_TEST_TMPDIR/dh.json:$line: links[0].m is given twice" ]
  python3 -c '
import json
d = json.load(open("'"$MODELS"'/SC_3DoF.json"))
print(json.dumps({"robot": d, "qm": [0, 0, 0]}).replace("\"mass\": ", "\"mass\": 5, \"mass\": ", 2))' |
    { run --separate-stderr spart-kin;
      [ "$status" -eq 1 ]
      [ -z "$output" ]
      [ "$stderr" = "spart-kin: <stdin>:1: robot.base_link.mass is given twice" ]; }
}

@test "a key holding an escaped NUL is not the key before the NUL" {
  run --separate-stderr spart-id -m "$M" <<< '{"qm\u0000x": [1, 0, 0, 0, 0, 0, 0]}'
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "spart-id: <stdin>:1: key 'qm\\x00x' holds a NUL (\\u0000)" ]
  # an escape that spells a key is the key
  a=$(spart-id -m "$M" <<< '{"q\u006d": [1, 0, 0, 0, 0, 0, 0]}')
  b=$(spart-id -m "$M" <<< '{"qm": [1, 0, 0, 0, 0, 0, 0]}')
  [ "$a" = "$b" ]
}

@test "numbers follow RFC 8259: 1., 01, +1, .5, NaN, Infinity, 0x1 are refused" {
  for x in 1. 01 +1 .5 NaN Infinity 0x1 1e 1.5.2 -; do
    run --separate-stderr spart-id -m "$M" <<< "{\"qm\": [$x, 0, 0, 0, 0, 0, 0]}"
    echo "$x: $status $stderr"
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [[ "$stderr" == "spart-id: <stdin>:1: invalid JSON: "* ]]
  done
  model_text SC_3DoF.json 's.replace("\"mass\": ", "\"mass\": 0", 1)' > "$BATS_TEST_TMPDIR/m.json"
  run --separate-stderr urdf2robot "$BATS_TEST_TMPDIR/m.json"
  [ "$status" -eq 1 ]
  [[ "$stderr" == "urdf2robot: $BATS_TEST_TMPDIR/m.json:"[0-9]*": not JSON: '0"*"' is not a JSON number" ]]
  # these are numbers
  for x in 0 -0 1e5 1E+2 -0.5e-3 1.25; do
    run --separate-stderr spart-id -m "$M" <<< "{\"qm\": [$x, 0, 0, 0, 0, 0, 0]}"
    [ "$status" -eq 0 ]
  done
}

@test "strings are UTF-8: a bad byte or half a surrogate pair is refused" {
  printf '{"qm": [0, 0, 0], "robot": {"name": "a\xffb"}}\n' |
    { run --separate-stderr spart-kin;
      [ "$status" -eq 1 ]
      [ "$stderr" = "spart-kin: <stdin>:1: invalid JSON: a string that is not UTF-8 (byte 0xff)" ]; }
  model_text SC_3DoF.json 's.replace("\"name\": \"", "\"name\": \"\\ud800", 1)' > "$BATS_TEST_TMPDIR/m.json"
  run --separate-stderr urdf2robot "$BATS_TEST_TMPDIR/m.json"
  [ "$status" -eq 1 ]
  [ "$stderr" = "urdf2robot: $BATS_TEST_TMPDIR/m.json:3: not JSON: \\ud800 is half a surrogate pair: not UTF-8" ]
  model_text SC_3DoF.json 's.replace("\"name\": \"", "\"name\": \"a\\u0000", 1)' > "$BATS_TEST_TMPDIR/m.json"
  run --separate-stderr urdf2robot "$BATS_TEST_TMPDIR/m.json"
  [ "$status" -eq 1 ]
  [ "$stderr" = "urdf2robot: $BATS_TEST_TMPDIR/m.json:3: name: a string holds a NUL (\\u0000)" ]
}

@test "an error in a model JSON names its line, beside the field" {
  python3 - "$MODELS/SC_3DoF.json" "$BATS_TEST_TMPDIR" <<'PY'
import json, sys
tmp = sys.argv[2]
def put(name, edit):
    d = json.load(open(sys.argv[1]))
    edit(d)
    open(tmp + "/" + name, "w").write(json.dumps(d, indent=1) + "\n")
put("mass.json", lambda d: d["links"][1].update(mass="5 kg"))
put("axis.json", lambda d: d["joints"][2].pop("axis"))
put("neg.json", lambda d: d["links"][2].update(mass=-3))
PY
  f="$BATS_TEST_TMPDIR/mass.json"
  line=$(grep -n '"5 kg"' "$f" | cut -d: -f1)
  run --separate-stderr urdf2robot "$f"
  [ "$status" -eq 1 ]
  [ "$stderr" = "urdf2robot: $f:$line: links[1].mass: expected a finite number, got a string" ]
  # a missing field: the line of the object that lacks it
  f="$BATS_TEST_TMPDIR/axis.json"
  line=$(python3 -c 'import sys; t = open(sys.argv[1]).read().split("\n"); print([i + 1 for i, l in enumerate(t) if l == "  {"][7])' "$f")
  run --separate-stderr spart-kin -m "$f" < /dev/null
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-kin: $f:$line: joints[2].axis: expected 3 numbers, got nothing" ]
  # a check of the whole model: the line of the link it names
  f="$BATS_TEST_TMPDIR/neg.json"
  line=$(python3 -c 'import sys; t = open(sys.argv[1]).read().split("\n"); print([i + 1 for i, l in enumerate(t) if l == "  {"][2])' "$f")
  run --separate-stderr urdf2robot "$f"
  [ "$status" -eq 1 ]
  [ "$stderr" = "urdf2robot: $f:$line: link 'Link_2': negative mass -3" ]
  # in a DH file, and in a robot inside a record, pretty-printed
  printf '{"dh": "standard",\n "links": [{"a": 1},\n  {"a": 1, "m": "x"}]}\n' > "$BATS_TEST_TMPDIR/dh.json"
  run --separate-stderr dh2robot "$BATS_TEST_TMPDIR/dh.json"
  [ "$status" -eq 1 ]
  [ "$stderr" = "dh2robot: $BATS_TEST_TMPDIR/dh.json:3: links[1].m: expected a finite number, got a string" ]
  python3 -c '
import json
d = json.load(open("'"$MODELS"'/SC_3DoF.json"))
d["links"][1]["mass"] = "x"
print(json.dumps({"qm": [0, 0, 0], "robot": d}, indent=0))' > "$BATS_TEST_TMPDIR/rec.json"
  line=$(grep -n '"mass": "x"' "$BATS_TEST_TMPDIR/rec.json" | cut -d: -f1)
  run --separate-stderr spart-kin < "$BATS_TEST_TMPDIR/rec.json"
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-kin: <stdin>:$line: robot: links[1].mass: expected a finite number, got a string" ]
}

@test "a matrix that mixes rows and flat numbers is refused; rows or flat numbers are read" {
  for R0 in '[[1, 0, 0], 0, 1, 0, [0, 0, 1]]' '[1, 0, 0, [0, 1, 0], 0, 0, 1]'; do
    run --separate-stderr spart-kin -m "$M" <<< "{\"R0\": $R0}"
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [ "$stderr" = "spart-kin: <stdin>:1: R0 mixes rows and numbers: give 3 rows of 3 numbers, or 9 numbers" ]
  done
  run --separate-stderr spart-id -m "$MODELS/SC_3DoF.urdf" <<< '{"wFm": [[1, 0, 0, 0, 0, 0], 0, 0, 0, 0, 0, 0, [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]]}'
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"wFm mixes rows and numbers"* ]]
  a=$(spart-kin -m "$M" <<< '{"R0": [[0, -1, 0], [1, 0, 0], [0, 0, 1]], "r0": [[1, 2, 3]], "qm": [0, 0, 0, 0, 0, 0, 0]}')
  b=$(spart-kin -m "$M" <<< '{"R0": [0, -1, 0, 1, 0, 0, 0, 0, 1], "r0": [1, 2, 3], "qm": [0, 0, 0, 0, 0, 0, 0]}')
  [ -n "$a" ]
  [ "$a" = "$b" ]
  # a model JSON's matrices are rows only
  python3 -c '
import json
d = json.load(open("'"$MODELS"'/SC_3DoF.json"))
d["links"][0]["T"][1] = 0
print(json.dumps(d))' > "$BATS_TEST_TMPDIR/m.json"
  run --separate-stderr urdf2robot "$BATS_TEST_TMPDIR/m.json"
  [ "$status" -eq 1 ]
  [ "$stderr" = "urdf2robot: $BATS_TEST_TMPDIR/m.json:1: links[0].T: expected 4x4 numbers, got an array of 4 items" ]
}

@test "a pretty-printed record whose nested objects start lines (indent=0) is one record" {
  python3 -c '
import json
d = json.load(open("'"$MODELS"'/SC_3DoF.json"))
print(json.dumps({"qm": [0, 0, 0.5], "robot": d, "R0": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}, indent=0))
print(json.dumps({"qm": [0, 0, 1], "R0": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}, indent=0))
print(json.dumps({"qm": [0, 0, 1]}, indent=2))' > "$BATS_TEST_TMPDIR/in.json"
  run --separate-stderr spart-kin --only r_com < "$BATS_TEST_TMPDIR/in.json"
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  [ "${#lines[@]}" -eq 3 ]
  want=$(printf '{"qm": [0, 0, 0.5]}\n{"qm": [0, 0, 1]}\n{"qm": [0, 0, 1]}\n' |
    spart-kin -m "$MODELS/SC_3DoF.json" --only r_com)
  [ "$output" = "$want" ]
  # a record cut short is still only itself
  printf '{"qm": [0, 0, 0]\n{"qm": [0, 0, 1]}\n' |
    { run --separate-stderr spart-kin -m "$MODELS/SC_3DoF.json" -k --only r_com;
      [ "$status" -eq 1 ]
      [ "${#lines[@]}" -eq 1 ]
      [ "${stderr_lines[0]}" = "spart-kin: <stdin>:1: unterminated JSON object" ]; }
}

@test "JSON output is UTF-8: pass-through text with a NUL is escaped, text not UTF-8 refused" {
  printf 'note,qm_1,qm_2,qm_3\n"a\001b\000c""d",0,0,0\nok\342\202\254,0,0,0\nbad\377,0,0,0\nlast,0,0,0\n' |
    { run --separate-stderr spart-kin -o json -m "$MODELS/SC_3DoF.urdf" --only r_com -k;
      [ "$status" -eq 1 ]
      [ "${#lines[@]}" -eq 3 ]
      [[ "${lines[0]}" == '{"note":"a\u0001b\u0000c\"d","r_com":'* ]]
      [[ "${lines[1]}" == $'{"note":"ok\342\202\254","r_com":'* ]]
      [[ "${lines[2]}" == '{"note":"last","r_com":'* ]]
      [ "${stderr_lines[0]}" = "spart-kin: <stdin>:4: column 'note': text that is not UTF-8, which JSON output cannot carry (use -o csv)" ]
      printf '%s\n' "$output" | python3 -c 'import json, sys; [json.loads(l) for l in sys.stdin.buffer]'; }
  # CSV output carries the bytes as they are
  printf 'note,qm_1,qm_2,qm_3\nbad\377,0,0,0\n' | spart-kin -m "$MODELS/SC_3DoF.urdf" --only r_com -o csv |
    grep -q $'^bad\377,'
}

@test "a huge record is read in memory proportional to it; past the cap it is refused" {
  if sanitized spart-kin; then
    skip "a sanitizer's memory is not the reader's"
  fi
  # 62 MB: 15.5 million numbers in one record (cJSON's tree took 1.3 GB, 2.5 GB with more digits)
  python3 -c 'import sys; sys.stdout.write("{\"qm\": [" + ",".join(["0.5"] * 15500000) + "]}\n")' \
    > "$BATS_TEST_TMPDIR/big.json"
  run python3 - "$M" "$BATS_TEST_TMPDIR/big.json" <<'PY'
import resource, subprocess, sys
p = subprocess.run(["spart-kin", "-m", sys.argv[1]], stdin=open(sys.argv[2]),
                   capture_output=True, text=True)
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(p.returncode, rss, p.stderr.strip())
PY
  echo "$output"
  read -r code rss msg <<< "$output"
  [ "$code" -eq 1 ]
  [ "$msg" = "spart-kin: <stdin>:1: qm has 15500000 values, model needs 7" ]
  [ "$rss" -lt 200000 ]
  # with too little memory for it: out of memory (exit 3), never "invalid JSON"
  for kb in 100000 200000 400000; do
    run --separate-stderr bash -c 'ulimit -v "$1"; spart-kin -m "$2" < "$3" > /dev/null' _ \
      "$kb" "$M" "$BATS_TEST_TMPDIR/big.json"
    echo "# ulimit -v $kb: $status $stderr"
    [[ "$status:$stderr" == "3:spart-kin: <stdin>:1: out of memory" ||
       "$status:$stderr" == "1:spart-kin: <stdin>:1: qm has 15500000 values, model needs 7" ]]
  done
  # the cap: 64 MiB, one line or many (17,000 lines of 1,000 numbers: each line of the record
  # past the cap is then a bad record of its own, one message each)
  python3 -c 'import sys; sys.stdout.write("{\"qm\": [" + ",\n".join([",".join(["0.5"] * 1000)] * 17000) + "]}\n{\"qm\": [0, 0, 0, 0, 0, 0, 0]}\n")' \
    > "$BATS_TEST_TMPDIR/big.json"
  local st=0
  spart-kin -m "$M" -k --only r_com < "$BATS_TEST_TMPDIR/big.json" > "$BATS_TEST_TMPDIR/out" \
    2> "$BATS_TEST_TMPDIR/err" || st=$?
  [ "$st" -eq 1 ]
  [ "$(head -n 1 "$BATS_TEST_TMPDIR/err")" = "spart-kin: <stdin>:1: record longer than 67108864 bytes" ]
  [ "$(wc -l < "$BATS_TEST_TMPDIR/out")" -eq 1 ]
}

@test "messages quote the input alike in the library and the commands: UTF-8 as it is, other bytes as \\xNN, cut after 40 bytes" {
  # the library's JSON scanner (a model JSON)
  run --separate-stderr urdf2robot < <(printf '{"a": tr\xc3\xbcee}')
  [ "$status" -eq 1 ]
  [ "$stderr" = "urdf2robot: <stdin>:1: not JSON: expected a value, got 'trüee}'" ]
  run --separate-stderr urdf2robot < <(printf '{"a": tr\xffee}')
  [ "$stderr" = "urdf2robot: <stdin>:1: not JSON: expected a value, got 'tr\\xffee}'" ]
  # the commands' record reader (a CSV header)
  run --separate-stderr spart-kin -m "$MODELS/SC_3DoF.urdf" < <(printf 'time,qm_1\xff\n0,1\n')
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-kin: <stdin>:1: column 'qm_1\\xff' is not a state column: qm_I takes I from 1 to 3, without sign or leading zeros" ]
  # a long key: 40 bytes, a UTF-8 character not cut in two
  key="qm_$(printf 'é%.0s' $(seq 30))"
  run --separate-stderr spart-kin -m "$MODELS/SC_3DoF.urdf" <<< "{\"$key\": 1}"
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"'qm_$(printf 'é%.0s' $(seq 18))...'"* ]]
}
