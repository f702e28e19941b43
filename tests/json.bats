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
