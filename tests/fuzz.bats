#!/usr/bin/env bats
# The inputs that made a fuzz harness (fuzz/, make fuzz) fail, kept in tests/data/fuzz/NAME/ and
# replayed through the real commands: each ends with exit 0 or 1, never a crash; every message
# is one line "PROG: ..."; what reaches stdout is whole.  `make sanitize` replays them under
# AddressSanitizer too, where a memory error fails the test.

load helper

FUZZ="$BATS_TEST_DIRNAME/data/fuzz"

# run a command on FILE (stdin) and check the exit, the messages and the output: PROG FILE ARGS...
replay() {
  local prog=$1 file=$2 line
  shift 2
  # a reader that does not move on loops: 124 after 20 s
  run --separate-stderr timeout 20 "$prog" "$@" < "$file"
  echo "$file: exit $status" >&2
  [ "$status" -eq 0 ] || [ "$status" -eq 1 ]
  for line in "${stderr_lines[@]}"; do
    [[ "$line" == "$prog: "* ]]
    # no carriage return, tab or other control character within a line
    [[ "$line" != *[[:cntrl:]]* ]]
  done
  [ "$status" -eq 0 ] || [ "${#stderr_lines[@]}" -ge 1 ]
}

# every line of stdout is a whole JSON object
json_lines() {
  printf '%s\n' "$output" | python3 -c '
import json, sys
for line in sys.stdin:
    if line.strip():
        assert isinstance(json.loads(line), dict), line'
}


@test "kept URDF inputs are refused or read, with one line of message" {
  for f in "$FUZZ"/urdf/*; do
    replay urdf2robot "$f" -
    [ "$status" -eq 0 ] || [ "${#stderr_lines[@]}" -eq 1 ]
    [ "$status" -eq 1 ] || python3 -c 'import json, sys; json.loads(sys.argv[1])' "$output"
  done
}

@test "kept model JSON inputs are refused or read, with one line of message" {
  for f in "$FUZZ"/model/*; do
    [ -e "$f" ] || continue
    replay urdf2robot "$f" -
    [ "$status" -eq 0 ] || [ "${#stderr_lines[@]}" -eq 1 ]
  done
}

@test "kept state JSON inputs give whole records and one-line messages" {
  for f in "$FUZZ"/json/*; do
    seq=()
    [ "$(head -c 1 "$f" | od -An -tx1 | tr -d ' ')" != 1e ] || seq=(--seq)
    replay spart-kin "$f" -m "$MODELS/SC_3DoF.urdf" -i json -k "${seq[@]}"
    [ "${#seq[@]}" -gt 0 ] || json_lines
    # the model in the first record, as without -m
    replay spart-kin "$f" -i json -k "${seq[@]}"
    [ "${#seq[@]}" -gt 0 ] || json_lines
  done
}

@test "kept CSV inputs give whole rows and one-line messages" {
  for f in "$FUZZ"/csv/*; do
    replay spart-kin "$f" -m "$MODELS/SC_3DoF.urdf" -o csv -k
    # every row has as many cells as the header
    printf '%s\n' "$output" | python3 -c '
import csv, sys
rows = [r for r in csv.reader(sys.stdin) if r]
assert all(len(r) == len(rows[0]) for r in rows), rows'
  done
}
