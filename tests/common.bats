#!/usr/bin/env bats
# Behaviour shared by the five compute commands: help, usage errors, models, bad records,
# streaming.  Each test runs every command.

load helper

CMDS="spart-kin spart-jac spart-gim spart-fd spart-id"

# the extra arguments a command needs to run at all
args() { [ "$1" = spart-jac ] && echo "--link 3" || true; }

@test "--help prints usage on stdout and exits 0" {
  for c in $CMDS; do
    run --separate-stderr "$c" --help
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" == "Usage: $c "* ]]
    [[ "$output" == *"Exit status: 0 ok, 1 bad input, 2 bad usage, 3 I/O error"* ]]
    [ -z "$stderr" ]
  done
}

@test "--version prints the name and version" {
  for c in $CMDS; do
    run --separate-stderr "$c" --version
    [ "$status" -eq 0 ]
    [[ "$output" =~ ^$c\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
  done
}

@test "an unknown option is a usage error: one line, a hint, exit 2" {
  for c in $CMDS; do
    run --separate-stderr "$c" --frobnicate
    [ "$status" -eq 2 ]
    [ -z "$output" ]
    [ "${stderr_lines[0]}" = "$c: unknown option '--frobnicate'" ]
    [ "${stderr_lines[1]}" = "Try '$c --help'." ]
  done
}

@test "a bad option value is a usage error" {
  run --separate-stderr spart-id --gravity 0,0 -m "$MODELS/kuka_iiwa.urdf"
  [ "$status" -eq 2 ]
  [ "${stderr_lines[0]}" = "spart-id: --gravity: expected gx,gy,gz, got '0,0'" ]
  run --separate-stderr spart-fd -o xml -m "$MODELS/kuka_iiwa.urdf"
  [ "$status" -eq 2 ]
  [ "${stderr_lines[0]}" = "spart-fd: --output: expected json or csv, got 'xml'" ]
  run --separate-stderr spart-jac -m "$MODELS/kuka_iiwa.urdf"
  [ "$status" -eq 2 ]
  [ "${stderr_lines[0]}" = "spart-jac: --link ID|NAME, --noc, --com or --centroidal is required" ]
}

@test "a missing model file is bad input: one line, exit 1, no output" {
  for c in $CMDS; do
    run --separate-stderr "$c" $(args "$c") -m /nonexistent/robot.urdf <<< '{"r0": [0, 0, 0]}'
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [ "$stderr" = "$c: cannot open /nonexistent/robot.urdf: No such file or directory" ]
  done
}

@test "a model that is not a robot is bad input with its file and line" {
  printf '{"name": "x",\n "n_q": "seven"}\n' > "$BATS_TEST_TMPDIR/bad.json"
  for c in $CMDS; do
    run --separate-stderr "$c" $(args "$c") -m "$BATS_TEST_TMPDIR/bad.json" <<< '{"r0": [0, 0, 0]}'
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [[ "$stderr" == "$c: $BATS_TEST_TMPDIR/bad.json:"* ]]
    [ "${#stderr_lines[@]}" -eq 1 ]
  done
}

@test "empty input gives no output and exit 0" {
  for c in $CMDS; do
    run --separate-stderr "$c" $(args "$c") -m "$MODELS/kuka_iiwa.urdf" < /dev/null
    [ "$status" -eq 0 ]
    [ -z "$output" ]
    [ -z "$stderr" ]
  done
}

@test "a field of the wrong length names the field, the line and the sizes" {
  for c in $CMDS; do
    run --separate-stderr "$c" $(args "$c") -m "$MODELS/kuka_iiwa.urdf" \
      <<< $'{"qm": [0, 0, 0, 0, 0, 0, 0]}\n{"qm": [1, 2, 3]}'
    [ "$status" -eq 1 ]
    [ "${#lines[@]}" -eq 1 ]
    [ "$stderr" = "$c: <stdin>:2: qm has 3 values, model needs 7" ]
  done
}

@test "malformed records: unknown key, bad JSON, not a number, wrong shape" {
  m="$MODELS/kuka_iiwa.urdf"
  run --separate-stderr spart-id -m "$m" <<< '{"qm_dot": [0]}'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-id: <stdin>:1: key 'qm_dot' is not a state field: the field is qm, an array (case matters)" ]
  run --separate-stderr spart-id -m "$m" <<< '{"qm": [1, 2,}'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-id: <stdin>:1: invalid JSON: expected a value, got '}'" ]
  run --separate-stderr spart-fd -m "$m" <<< '{"um": [1, 2, 3, "x", 5, 6, 7]}'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-fd: <stdin>:1: um[4] is not a finite number" ]
  run --separate-stderr spart-fd -m "$m" <<< '{"um": [1, 2, 3, 1e999, 5, 6, 7]}'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-fd: <stdin>:1: um[4] is not a finite number" ]
  run --separate-stderr spart-kin -m "$m" <<< '{"R0": [[1, 0, 0], [0, 1, 0]]}'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-kin: <stdin>:1: R0 has 6 values, model needs 3x3" ]
  run --separate-stderr spart-id -m "$m" <<< '{"wFm": [[1, 2, 3, 4, 5]]}'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-id: <stdin>:1: wFm: row 1 has 5 values, expected 6" ]
  run --separate-stderr spart-id -m "$m" <<< '[1, 2]'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-id: <stdin>:1: expected a JSON object, got '1, 2]'" ]
  [ -z "$output" ]
}

@test "a NaN in a CSV row is refused with its column and line" {
  printf 'qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\n0,0,0,0,0,0,0\n0,0,nan,0,0,0,0\n' |
    { run --separate-stderr spart-kin -o json -m "$MODELS/kuka_iiwa.urdf";
      [ "$status" -eq 1 ]
      [ "${#lines[@]}" -eq 1 ]
      [ "$stderr" = "spart-kin: <stdin>:3: column 'qm_3': 'nan' is not a finite number" ]; }
}

@test "a row with too few fields stops the run after the rows before it" {
  printf 'time,qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\n0,1,2,3,4,5,6,7\n1,1,2,3,4,5,6,7\n2,1,2,3\n3,1,2,3,4,5,6,7\n' \
    > "$BATS_TEST_TMPDIR/t.csv"
  run --separate-stderr spart-id -m "$MODELS/kuka_iiwa.urdf" -o csv < "$BATS_TEST_TMPDIR/t.csv"
  [ "$status" -eq 1 ]
  [ "${#lines[@]}" -eq 3 ]
  [[ "${lines[0]}" == time,tau0_1,* ]]
  [ "$stderr" = "spart-id: <stdin>:4: expected 8 fields, got 4" ]
}

@test "--keep-going skips bad records, writes the good ones and exits 1" {
  run --separate-stderr spart-fd -k -m "$MODELS/kuka_iiwa.urdf" \
    <<< $'{"qm": [0, 0, 0, 0, 0, 0, 0]}\n{"qm": [1]}\n{"qm": [0, 0, 0, 0, 0, 0, 0], "um": [1, 2, 3, 4, 5, 6, 7]}'
  [ "$status" -eq 1 ]
  [ "${#lines[@]}" -eq 2 ]
  [ "${stderr_lines[0]}" = "spart-fd: <stdin>:2: qm has 1 values, model needs 7" ]
  [ "${stderr_lines[1]}" = "spart-fd: 1 bad records skipped" ]
}

@test "a pretty-printed JSON object spanning lines is one record" {
  run --separate-stderr spart-id -m "$MODELS/kuka_iiwa.urdf" \
    <<< $'{\n  "qm": [0.1, 0.2, 0.3,\n         0.4, 0.5, 0.6, 0.7]\n}\n{"qm": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]}'
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -eq 2 ]
  [ "${lines[0]}" = "${lines[1]}" ]
}

@test "10,000 streamed records come out one per record, in order" {
  python3 -c '
import json
for k in range(10000):
    print(json.dumps({"qm": [k * 1e-4, 0, 0, 0, 0, 0, 0]}))' > "$BATS_TEST_TMPDIR/in.jsonl"
  run --separate-stderr spart-kin -m "$MODELS/kuka_iiwa.urdf" < "$BATS_TEST_TMPDIR/in.jsonl"
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -eq 10000 ]
  printf '%s\n' "${lines[@]}" > "$BATS_TEST_TMPDIR/out.jsonl"
  python3 - "$BATS_TEST_TMPDIR/out.jsonl" <<'PY'
import json, math, sys
prev = None
for k, line in enumerate(open(sys.argv[1])):
    e = json.loads(line)["RL"][1]
    c = e[0][0]
    # qm_1 = k * 1e-4 rotates every link after joint 1: the records must stay in input order
    if prev is not None and k < 5000:
        assert abs(c - prev) < 1e-3, (k, c, prev)
    prev = c
PY
}

@test "the model can come with the record instead of -m" {
  robot=$(urdf2robot "$MODELS/kuka_iiwa.urdf" | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)))')
  for c in $CMDS; do
    want=$("$c" $(args "$c") -m "$MODELS/kuka_iiwa.urdf" <<< '{"qm": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]}')
    got=$("$c" $(args "$c") <<< "{\"robot\": $robot, \"qm\": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]}")
    python3 -c 'import json, sys; assert json.loads(sys.argv[1]) == json.loads(sys.argv[2])' \
      "$got" "$want"
  done
}

@test "without -m a record without a model is bad input" {
  run --separate-stderr spart-id <<< '{"qm": [1]}'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-id: <stdin>:1: no model: give -m FILE or a \"robot\" key" ]
}

@test "a closed output pipe ends the run quietly" {
  yes '{"qm": [0, 0, 0, 0, 0, 0, 0]}' | head -n 20000 > "$BATS_TEST_TMPDIR/in.jsonl"
  run --separate-stderr bash -c "spart-kin -m '$MODELS/kuka_iiwa.urdf' < '$BATS_TEST_TMPDIR/in.jsonl' | head -n 1"
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -eq 1 ]
  [ -z "$stderr" ]
}

@test "a write error is reported and exits 3" {
  run --separate-stderr bash -c "spart-id -m '$MODELS/kuka_iiwa.urdf' <<< '{\"qm\": [0, 0, 0, 0, 0, 0, 0]}' > /dev/full"
  [ "$status" -eq 3 ]
  [ "$stderr" = "spart-id: write error: No space left on device" ]
}

@test "every example in the compute commands' man pages runs" {
  cd "$BATS_TEST_TMPDIR"
  ln -s "$TOP/models" models
  for c in $CMDS; do
    man_examples "$TOP/man/$c.1" examples.sh
    [ -s examples.sh ]
    run --separate-stderr bash -e examples.sh
    echo "$c: $stderr"
    [ "$status" -eq 0 ]
    [ -n "$output" ]
  done
}

@test "an orbit-scale base position changes no output but the positions, which move by it" {
  # positions are kept from r0 inside: no difference of two of them loses digits to r0
  cd "$BATS_TEST_TMPDIR"
  m="$MODELS/branched_arm.urdf"
  s='"qm": [0.1, -0.2, 0.3, 0.4, -0.5, 0.6], "um": [1, -1, 0.5, 0.2, 0.3, -0.4], "u0": [0.1, 0.2, 0.3, 1, 2, 3], "u0dot": [0.3, -0.1, 0.2, 0.5, 0.1, -0.2], "umdot": [1, 2, 3, 4, 5, 6]'
  nq=$(urdf2robot "$m" | python3 -c 'import json, sys; print(json.load(sys.stdin)["n_q"])')
  [ "$nq" -eq 6 ]
  for c in "spart-jac --link 5 --dot --noc" "spart-gim --coriolis" spart-fd; do
    near=$($c -m "$m" <<< "{\"r0\": [0, 0, 0], $s}")
    far=$($c -m "$m" <<< "{\"r0\": [7000000, 1000, -3000000], $s}")
    [ -n "$near" ]
    [ "$near" = "$far" ]
  done
  spart-kin -m "$m" <<< "{\"r0\": [0, 0, 0], $s}" > near.json
  spart-kin -m "$m" <<< "{\"r0\": [7000000, 1000, -3000000], $s}" > far.json
  python3 - near.json far.json <<'PY'
import json, sys
near, far = (json.load(open(f)) for f in sys.argv[1:])
r0 = [7000000, 1000, -3000000]
assert near.keys() == far.keys()
for key in near:
    if key in ("rJ", "rL", "r_com"):
        a = near[key] if key != "r_com" else [near[key]]
        b = far[key] if key != "r_com" else [far[key]]
        for p, q in zip(a, b):
            assert all(abs(q[k] - r0[k] - p[k]) <= 1e-9 for k in range(3)), (key, p, q)
    else:
        assert near[key] == far[key], key
PY
}

@test "--only writes just the outputs named, in the command's order, values unchanged" {
  cd "$BATS_TEST_TMPDIR"
  m="$MODELS/kuka_iiwa.urdf"
  s='{"qm": [0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7], "um": [1, -1, 0.5, 0.2, 0.3, -0.4, 0.9], "umdot": [1, 2, 3, 4, 5, 6, 7]}'
  for c in "spart-kin:rL,RJ" "spart-jac --link 3 --dot:Jmdot" "spart-gim --coriolis:Cu,Hm" \
    "spart-fd --fixed-base:umdot" "spart-id:taum" "spart-id --floating:u0dot,taum"; do
    cmd=${c%:*} only=${c#*:}
    all=$($cmd -m "$m" <<< "$s")
    some=$($cmd -m "$m" --only "$only" <<< "$s")
    python3 - "$all" "$some" "$only" <<'PY'
import json, sys
full, part, only = json.loads(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3].split(",")
passed = [k for k in full if k not in only and k in part]  # the input fields not read pass
part = {k: v for k, v in part.items() if k not in passed}
assert list(part) == [k for k in full if k in only], (list(part), only)
assert all(part[k] == full[k] for k in part)
PY
  done
  # CSV: the same columns as cut from the whole row
  spart-id -m "$m" -o csv <<< "$s" | cut -d, -f7- > all.csv
  spart-id -m "$m" -o csv --only taum <<< "$s" > some.csv
  cmp all.csv some.csv
  head -n 1 some.csv | grep -qx 'taum_1,taum_2,taum_3,taum_4,taum_5,taum_6,taum_7'
}

@test "--only names nothing the command does not write: a usage error" {
  for bad in foo taum,foo "" taum, ,taum; do
    run --separate-stderr spart-id --only "$bad" -m "$MODELS/kuka_iiwa.urdf"
    [ "$status" -eq 2 ]
    [ -z "$output" ]
    [[ "${stderr_lines[0]}" == "spart-id: --only: '"*"' is not an output of spart-id (tau0,taum,u0dot,joint_wrenches,dtau_dq,dtau_du)" ]]
  done
  run --separate-stderr spart-id --only taum --only tau0 -m "$MODELS/kuka_iiwa.urdf"
  [ "$status" -eq 2 ]
  [ "${stderr_lines[0]}" = "spart-id: --only: give all the names in one list (a,b)" ]
  run --separate-stderr spart-kin --only tau0 -m "$MODELS/kuka_iiwa.urdf"
  [ "$status" -eq 2 ]
  [ "${stderr_lines[0]}" = "spart-kin: --only: 'tau0' is not an output of spart-kin (RJ,RL,rJ,rL,e,g,r_com,t0,tL,t0dot,tLdot,rF,RF,qF,rpyF,P0,pm,Bi0,Bij,I0,Im,M0_tilde,Mm_tilde,v_com,momentum,kinetic_energy,potential_energy,qmdot,um)" ]
  # named, but not written with these options: a usage error (it used to write '{}')
  run --separate-stderr spart-id --only u0dot -m "$MODELS/kuka_iiwa.urdf" <<< '{"qm": [0,0,0,0,0,0,0]}'
  [ "$status" -eq 2 ]
  [ -z "$output" ]
  [ "${stderr_lines[0]}" = "spart-id: --only u0dot: spart-id writes it only with --floating" ]
}

@test "options that do nothing in a combination are usage errors, one line each" {
  M="$MODELS/kuka_iiwa.urdf"
  check() { # check 'MESSAGE' COMMAND ARGS...
    local want=$1
    shift
    run --separate-stderr "$@" -m "$M" <<< '{"qm": [0,0,0,0,0,0,0]}'
    [ "$status" -eq 2 ]
    [ -z "$output" ]
    [ "${stderr_lines[0]}" = "$want" ]
    [ "${stderr_lines[1]}" = "Try '$1 --help'." ]
  }
  check "spart-jac: --dot does nothing without --link" spart-jac --com --dot
  check "spart-jac: --point does nothing without --link" spart-jac --noc --point 0,0,0.1
  check "spart-jac: --dot does nothing with --only J0: it changes only J0dot,Jmdot,Ndot,AGdot_u" \
    spart-jac --link 3 --dot --only J0
  check "spart-jac: --noc does nothing with --only J0,Jm: it changes only N,Ndot" \
    spart-jac --link 3 --noc --only J0,Jm
  check "spart-jac: --link does nothing with --only N: it changes only J0,Jm,r_point,J0dot,Jmdot" \
    spart-jac --link 3 --noc --only N
  check "spart-jac: --only N: spart-jac writes it only with --noc" spart-jac --link 3 --only N
  check "spart-jac: --only J0dot: spart-jac writes it only with --dot" spart-jac --link 3 --only J0dot
  check "spart-id: --only u0dot: spart-id writes it only with --floating" spart-id --only u0dot
  check "spart-id: --only tau0: spart-id writes it only without --floating" \
    spart-id --floating --only tau0
  check "spart-fd: --only u0dot: spart-fd writes it only without --fixed-base" \
    spart-fd --fixed-base --only u0dot
  check "spart-gim: --only H0: spart-gim writes it only without --fixed-base" \
    spart-gim --fixed-base --only H0
  check "spart-gim: --only Cu: spart-gim writes it only with --coriolis" spart-gim --only Cu
  check "spart-gim: --coriolis does nothing with --only H: it changes only Cu" \
    spart-gim --coriolis --only H
  check "spart-gim: --inverse does nothing with --only H: it changes only Hinv" \
    spart-gim --inverse --only H
  check "spart-gim: --gravity does nothing with --only Hm: it changes only G" \
    spart-gim --gravity 0,0,-9.81 --only Hm
  check "spart-id: --seq: RFC 7464 records are JSON; not with -o csv" spart-id --seq -o csv
  check "spart-id: --input: json and csv both given" spart-id --csv -i json
  check "spart-jac: --link given twice" spart-jac --link 2 --link 3
  check "spart-jac: --point given twice" spart-jac --link 2 --point 0,0,0 --point 0,0,1
  check "spart-id: --gravity given twice" spart-id --gravity 0,0,-9 --gravity 0,0,-9.81
  check "spart-id: --output given twice" spart-id -o csv -o json
  run --separate-stderr spart-id -m "$M" -m "$M" < /dev/null
  [ "$status" -eq 2 ]
  [ "${stderr_lines[0]}" = "spart-id: --model given twice" ]
  # the combinations that do something still run
  for args in "spart-jac --link 3 --noc --dot" "spart-jac --noc --dot" "spart-jac --link 3 --dot --only J0,Jmdot" \
      "spart-id --floating --only u0dot" "spart-gim --coriolis --only H,Cu" "spart-id -i csv --csv"; do
    run --separate-stderr $args -m "$M" <<< $'qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\n0,0,0,0,0,0,0'
    [ "$status" -eq 0 ]
  done
}

@test "an option without its value says so, for every command" {
  for c in $CMDS; do
    for o in --model -m --only -o --output -i; do
      run --separate-stderr "$c" $(args "$c") "$o"
      [ "$status" -eq 2 ]
      [ "${stderr_lines[0]}" = "$c: option '$o' needs a value" ]
      [ "${stderr_lines[1]}" = "Try '$c --help'." ]
    done
  done
  run --separate-stderr spart-jac -m "$MODELS/kuka_iiwa.urdf" --link
  [ "${stderr_lines[0]}" = "spart-jac: option '--link' needs a value" ]
}

@test "the converters and spart-cmp word a missing value and an unknown option as every command does" {
  for c in urdf2robot dh2robot; do
    for o in -o --output; do
      run --separate-stderr "$c" "$o"
      [ "$status" -eq 2 ]
      [ "${stderr_lines[0]}" = "$c: option '$o' needs a value" ]
      [ "${stderr_lines[1]}" = "Try '$c --help'." ]
    done
    # an option that takes no value given one is named as written
    run --separate-stderr "$c" --summary=yes
    [ "$status" -eq 2 ]
    [ "${stderr_lines[0]}" = "$c: unknown option '--summary=yes'" ]
  done
  for o in --atol --rtol --fields -f --max -n; do
    run --separate-stderr spart-cmp a b "$o"
    [ "$status" -eq 2 ]
    [ "${stderr_lines[0]}" = "spart-cmp: option '$o' needs a value" ]
  done
  run --separate-stderr spart-cmp --quiet=yes a b
  [ "${stderr_lines[0]}" = "spart-cmp: unknown option '--quiet=yes'" ]
  run --separate-stderr spart-cmp -x a b
  [ "${stderr_lines[0]}" = "spart-cmp: unknown option '-x'" ]
  [ "${stderr_lines[1]}" = "Try 'spart-cmp --help'." ]
}
