#!/usr/bin/env bats
# CSV and JSON-lines streaming: columns, pass-through, formats, splitting across cores.

load helper

M() { echo "$MODELS/kuka_iiwa.urdf"; }

# a small trajectory: time, label, qm, um, umdot of the iiwa, in the given column order
traj() {
  python3 - "$@" <<'PY'
import math, sys
cols = ["time", "label"] + [f"{f}_{j}" for f in ("qm", "um", "umdot") for j in range(1, 8)]
args = sys.argv[1:]
rows = int(args.pop(0)) if args and args[0].isdigit() else 3
order = args or cols
print(",".join(order))
for r in range(rows):
    v = {"time": f"{r * 0.01:.2f}", "label": f"pose{r}"}
    for j in range(1, 8):
        v[f"qm_{j}"] = repr(0.3 * math.sin(r + j))
        v[f"um_{j}"] = repr(0.2 * math.cos(r + j))
        v[f"umdot_{j}"] = repr(-0.1 * math.sin(r + j))
    print(",".join(v[c] for c in order))
PY
}

@test "CSV rows give exactly the JSON-mode results, and the time column passes through" {
  traj > "$BATS_TEST_TMPDIR/t.csv"
  run --separate-stderr spart-id -m "$(M)" --fixed-base -o csv < "$BATS_TEST_TMPDIR/t.csv"
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -eq 4 ]
  [[ "${lines[0]}" == time,label,tau0_1,* ]]
  printf '%s\n' "${lines[@]}" > "$BATS_TEST_TMPDIR/csv.out"
  python3 - "$BATS_TEST_TMPDIR/t.csv" "$BATS_TEST_TMPDIR/csv.out" "$(M)" <<'PY'
import csv, json, subprocess, sys
rows = list(csv.DictReader(open(sys.argv[1])))
out = list(csv.DictReader(open(sys.argv[2])))
for r, o in zip(rows, out):
    st = {f: [float(r[f"{f}_{j}"]) for j in range(1, 8)] for f in ("qm", "um", "umdot")}
    js = json.loads(subprocess.run(["spart-id", "-m", sys.argv[3], "--fixed-base"],
                                   input=json.dumps(st), capture_output=True, text=True,
                                   check=True).stdout)
    assert o["time"] == r["time"] and o["label"] == r["label"], (o, r)
    got = [float(o[f"taum_{j}"]) for j in range(1, 8)]
    assert got == js["taum"], (got, js["taum"])  # the same doubles, not merely close
    assert [float(o[f"tau0_{j}"]) for j in range(1, 7)] == js["tau0"]
PY
}

@test "columns may come in any order" {
  a=$(traj | spart-id -m "$(M)" --fixed-base -o csv | cut -d, -f3-)
  shuffled=$(python3 -c '
import random
cols = ["time", "label"] + [f"{f}_{j}" for f in ("qm", "um", "umdot") for j in range(1, 8)]
random.seed(7); random.shuffle(cols); print(" ".join(cols))')
  b=$(traj $shuffled | spart-id -m "$(M)" --fixed-base -o csv)
  # pass-through columns keep their input order, then the outputs
  b=$(echo "$b" | python3 -c '
import csv, sys
r = list(csv.reader(sys.stdin))
k = [i for i, c in enumerate(r[0]) if c.startswith(("tau0", "taum"))]
for row in r:
    print(",".join(row[i] for i in k))')
  [ -n "$a" ]
  [ "$a" = "$b" ]
}

@test "a missing column of a field is named, with the count the model needs" {
  traj 2 time qm_1 qm_2 qm_3 qm_4 qm_5 qm_6 um_1 > "$BATS_TEST_TMPDIR/t.csv"
  run --separate-stderr spart-id -m "$(M)" < "$BATS_TEST_TMPDIR/t.csv"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "spart-id: <stdin>:1: qm has 6 columns, model needs 7: no column qm_7" ]
}

@test "a row with an extra field is refused with its line; rows before it are out" {
  { traj 3; echo "9,x,$(printf '0,%.0s' $(seq 21))0"; } > "$BATS_TEST_TMPDIR/t.csv"
  run --separate-stderr spart-id -m "$(M)" -o csv < "$BATS_TEST_TMPDIR/t.csv"
  [ "$status" -eq 1 ]
  [ "${#lines[@]}" -eq 4 ]
  [ "$stderr" = "spart-id: <stdin>:5: expected 23 fields, got 24" ]
}

@test "a CSV of a header only gives no output and exit 0" {
  traj 0 > "$BATS_TEST_TMPDIR/t.csv"
  [ "$(wc -l < "$BATS_TEST_TMPDIR/t.csv")" -eq 1 ]
  run --separate-stderr spart-id -m "$(M)" -o csv < "$BATS_TEST_TMPDIR/t.csv"
  [ "$status" -eq 0 ]
  [ -z "$output" ]
  [ -z "$stderr" ]
}

@test "CRLF line ends read as LF line ends" {
  traj > "$BATS_TEST_TMPDIR/lf.csv"
  sed 's/$/\r/' "$BATS_TEST_TMPDIR/lf.csv" > "$BATS_TEST_TMPDIR/crlf.csv"
  grep -q $'\r' "$BATS_TEST_TMPDIR/crlf.csv"
  a=$(spart-id -m "$(M)" -o csv < "$BATS_TEST_TMPDIR/lf.csv")
  b=$(spart-id -m "$(M)" -o csv < "$BATS_TEST_TMPDIR/crlf.csv")
  [ -n "$a" ]
  [ "$a" = "$b" ]
}

@test "comment lines and quoted pass-through cells with commas are kept apart" {
  printf '# recorded 2026-11-21\ntime,note,qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\n0.5,"a, b",0,0,0,0,0,0,0\n' |
    { run --separate-stderr spart-id -m "$(M)" -o csv;
      [ "$status" -eq 0 ]
      [[ "${lines[1]}" == '0.5,"a, b",'* ]]; }
}

@test "CSV in, JSON out carries pass-through cells as numbers written as they were, or strings" {
  traj 1 | { run --separate-stderr spart-id -o json -m "$(M)" --fixed-base;
    [ "$status" -eq 0 ]
    [[ "$output" == '{"time":0.00,"label":"pose0","tau0":'* ]]; }
}

@test "RFC 7464 sequences in and out with --seq" {
  printf '\x1e{"qm": [0, 0, 0, 0, 0, 0, 0]}\n\x1e{"qm": [1, 0, 0, 0, 0, 0, 0]}\n' |
    { run --separate-stderr spart-id -m "$(M)" --seq;
      [ "$status" -eq 0 ]
      [ "${#lines[@]}" -eq 2 ]
      [[ "${lines[0]}" == $'\x1e{"tau0":'* ]]; }
}

@test "split across two cores with GNU parallel, the output is that of one run" {
  traj 400 > "$BATS_TEST_TMPDIR/t.csv"
  one=$(spart-id -m "$(M)" --fixed-base -o csv < "$BATS_TEST_TMPDIR/t.csv")
  # every part but the first drops the header row it repeats (README, spart-id(1))
  two=$(parallel --pipepart -a "$BATS_TEST_TMPDIR/t.csv" --keep-order --header : --block 5k -j 2 \
          "spart-id -m '$(M)' --fixed-base -o csv | tail -n +\$(({#} > 1 ? 2 : 1))")
  [ "$(echo "$one" | wc -l)" -eq 401 ]
  [ "$one" = "$two" ]
}

@test "no progress on stderr when stderr is not a terminal" {
  traj 50 | { run --separate-stderr spart-id -m "$(M)" -o csv;
    [ "$status" -eq 0 ]
    [ -z "$stderr" ]; }
}

@test "on a terminal, progress shows records and records/s, and the final count" {
  traj 3000 > "$BATS_TEST_TMPDIR/t.csv"
  # script(1) gives the command a terminal; a slow reader makes the run last over half a second
  run script -qec "(cat '$BATS_TEST_TMPDIR/t.csv'; sleep 1) | spart-id -m '$(M)' -o csv > /dev/null" /dev/null
  [ "$status" -eq 0 ]
  last=$(printf '%s' "$output" | tr '\r' '\n' | grep . | tail -n 1)
  [[ "$last" =~ ^spart-id:\ 3000\ records,\ [0-9]+\ records/s ]]
}

@test "wFm of a one-link model takes a link and a component index in CSV" {
  cat > "$BATS_TEST_TMPDIR/one.urdf" <<'URDF'
<robot name="one"><link name="b"><inertial><mass value="2"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
<link name="l"><inertial><origin xyz="0.5 0 0"/><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
<joint name="j" type="revolute"><parent link="b"/><child link="l"/><axis xyz="0 0 1"/></joint></robot>
URDF
  a=$(printf 'qm_1,wFm_1_1,wFm_1_2,wFm_1_3,wFm_1_4,wFm_1_5,wFm_1_6\n0,0,0,0,0,1,0\n' | spart-fd -o json -m "$BATS_TEST_TMPDIR/one.urdf")
  b=$(spart-fd -o json -m "$BATS_TEST_TMPDIR/one.urdf" <<< '{"qm": [0], "wFm": [[0, 0, 0, 0, 1, 0]]}')
  [ -n "$a" ]
  [ "$a" = "$b" ]
}

@test "a UTF-8 byte order mark before JSON or CSV is not data" {
  a=$(printf '\xef\xbb\xbf{"qm": [0, 0.5, 0, -1, 0, 0.5, 0]}\n' | spart-id -m "$(M)")
  b=$(printf '{"qm": [0, 0.5, 0, -1, 0, 0.5, 0]}\n' | spart-id -m "$(M)")
  [ -n "$a" ]
  [ "$a" = "$b" ]
  run --separate-stderr bash -c "printf '\xef\xbb\xbftime,qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\n1,0,0,0,0,0,0,0\n' | spart-id -m '$(M)' -o csv"
  [ "$status" -eq 0 ]
  [[ "${lines[0]}" == time,tau0_1,* ]]
}

@test "an unterminated JSON record costs only itself, with --keep-going" {
  run --separate-stderr spart-id -m "$(M)" -k <<< $'{"qm": [0, 0, 0, 0, 0, 0, 0]\n{"qm": [1, 0, 0, 0, 0, 0, 0]}\n{"qm": [0, 0, 0, 0, 0, 0, 0]}'
  [ "$status" -eq 1 ]
  [ "${#lines[@]}" -eq 2 ]
  [ "${stderr_lines[0]}" = "spart-id: <stdin>:1: unterminated JSON object" ]
  printf '\x1e{"qm": [0, 0\n\x1e{"qm": [0, 0, 0, 0, 0, 0, 0]}\n\x1e{"qm": [0, 0, 0, 0, 0, 0, 0]}\n' |
    { run --separate-stderr spart-id -m "$(M)" -k --seq;
      [ "$status" -eq 1 ]
      [ "${#lines[@]}" -eq 2 ]; }
}

@test "--csv on JSON input is refused, not read as a header" {
  run --separate-stderr spart-id -m "$(M)" --csv <<< '{"qm": [0, 0, 0, 0, 0, 0, 0]}'
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "spart-id: <stdin>:1: expected a CSV header, got JSON (use -i json)" ]
}

@test "pass-through cells keep their text in JSON output: long integers, trailing zeros, quotes" {
  printf 't_ns,gain,note,"odd ""name""",qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\n1700000000123456789,0.10,"a, ""b""",x,0,0,0,0,0,0,0\n' |
    { run --separate-stderr spart-id -o json -m "$(M)";
      [ "$status" -eq 0 ]
      [[ "$output" == '{"t_ns":1700000000123456789,"gain":0.10,"note":"a, \"b\"","odd \"name\"":"x","tau0":'* ]]; }
}

@test "state columns a command does not read pass through unchanged" {
  printf 'time,taum_1,taum_2,qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\n0.5,1,2,0,0,0,0,0,0,0\n' |
    { run --separate-stderr spart-kin -m "$(M)" -o csv;
      [ "$status" -eq 0 ]
      [[ "${lines[0]}" == time,taum_1,taum_2,RJ_1_1_1,* ]]
      [[ "${lines[1]}" == 0.5,1,2,* ]]; }
}

@test "a rotation written with 6 decimals is a rotation; a skewed one is not" {
  run --separate-stderr spart-kin -m "$(M)" <<< '{"R0": [[0.936293, -0.289629, 0.198669], [0.312992, 0.944702, -0.097843], [-0.159345, 0.153792, 0.975170]], "qm": [0, 0, 0, 0, 0, 0, 0]}'
  [ "$status" -eq 0 ]
  run --separate-stderr spart-kin -m "$(M)" <<< '{"R0": [[1, 0.01, 0], [0, 1, 0], [0, 0, 1]], "qm": [0, 0, 0, 0, 0, 0, 0]}'
  [ "$status" -eq 1 ]
  [[ "$stderr" == "spart-kin: <stdin>:1: R0 is not a rotation"* ]]
}

@test "a key given twice, or a robot beside -m, is refused" {
  run --separate-stderr spart-id -m "$(M)" <<< '{"qm": [0,0,0,0,0,0,0], "qm": [1,0,0,0,0,0,0]}'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-id: <stdin>:1: qm is given twice" ]
  run --separate-stderr spart-id -m "$(M)" <<< '{"robot": {}}'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-id: <stdin>:1: robot: the model is given by -m" ]
  run --separate-stderr spart-id -m - <<< '{"r0": [0, 0, 0]}'
  [ "$status" -eq 2 ]
}

@test "a column index too large for an int is out of range, not wrapped" {
  run --separate-stderr spart-id -m "$(M)" <<< $'wFm_1000000000_6\n1'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-id: <stdin>:1: column 'wFm_1000000000_6' is not a state column: wFm_I_J takes I from 1 to 7 and J from 1 to 6, without sign or leading zeros" ]
  run --separate-stderr spart-id -m "$(M)" <<< $'wFm_1_99999999999999999999999\n1'
  [ "$status" -eq 1 ]
}

@test "a NUL byte in a CSV row is data: the row's own line is named, the NUL shown as \\x00" {
  run --separate-stderr spart-kin -m "$MODELS/SC_3DoF.urdf" -o csv \
    < <(printf 'qm_1,qm_2,qm_3\n1,2,3\n4,5\0,6\n7,8,9\n')
  [ "$status" -eq 1 ]
  [ "${#lines[@]}" -eq 2 ]
  [ "$stderr" = "spart-kin: <stdin>:3: column 'qm_2': '5\\x00' is not a finite number" ]
}

@test "rows read two at a time give the outputs and errors of records read one at a time" {
  # spart-id computes two CSV rows together when both are in the input block; JSON records are
  # always one at a time.  Bad rows (a moving base with --fixed-base, a result that overflows)
  # are the second of a pair and the first of one.
  cd "$BATS_TEST_TMPDIR"
  python3 - <<'PY'
import json, math
rows = []
for r in range(11):
    q = [math.sin(0.3 * r + k) for k in range(7)]
    u = [math.cos(0.2 * r + k) for k in range(7)]
    a = [0.1 * r - 0.05 * k for k in range(7)]
    u0 = [0.0] * 6
    if r == 3:
        u0[1] = 0.5          # --fixed-base: the base may not move
    if r == 6:
        u = [1e200] * 7      # forces that overflow
    rows.append((q, u, a, u0))
with open("s.csv", "w") as f:
    f.write(",".join(["t"] + [f"qm_{k}" for k in range(1, 8)] + [f"um_{k}" for k in range(1, 8)]
                     + [f"umdot_{k}" for k in range(1, 8)] + [f"u0_{k}" for k in range(1, 7)]) + "\n")
    for r, (q, u, a, u0) in enumerate(rows):
        f.write(",".join([str(r)] + [repr(x) for x in q + u + a + u0]) + "\n")
with open("s.json", "w") as f:
    for q, u, a, u0 in rows:
        f.write(json.dumps({"qm": q, "um": u, "umdot": a, "u0": u0}) + "\n")
PY
  for g in "" "--gravity 0,0,-9.81" "--no-friction"; do
    run --separate-stderr spart-id -m "$MODELS/kuka_iiwa.urdf" --fixed-base -k -o csv $g < s.csv
    [ "$status" -eq 1 ]
    cut -d, -f2- <<< "$output" > csv.out
    printf '%s\n' "${stderr_lines[@]}" > csv.err
    run --separate-stderr spart-id -m "$MODELS/kuka_iiwa.urdf" --fixed-base -k -o csv $g < s.json
    [ "$status" -eq 1 ]
    printf '%s\n' "$output" > json.out
    printf '%s\n' "${stderr_lines[@]}" > json.err
    cmp csv.out json.out
    [ "$(wc -l < csv.out)" -eq 10 ] # the header and 9 good rows
    # the same messages, in the same order, on CSV lines one more (the header)
    [ "$(cut -d: -f4- csv.err)" = "$(cut -d: -f4- json.err)" ]
    [ "$(grep -c . csv.err)" -eq 3 ]
    [ "$(grep '<stdin>' csv.err | cut -d: -f3 | tr '\n' ' ')" = "5 8 " ]
    [ "$(grep '<stdin>' json.err | cut -d: -f3 | tr '\n' ' ')" = "4 7 " ]
  done
  # without --keep-going the run stops at the first bad row, the first or the second of a pair
  run --separate-stderr spart-id -m "$MODELS/kuka_iiwa.urdf" --fixed-base -o csv < s.csv
  [ "$status" -eq 1 ]
  [ "${#lines[@]}" -eq 4 ] # the header and rows 0, 1, 2
  [ "$stderr" = "spart-id: <stdin>:5: --fixed-base: u0 and u0dot must be zero" ]
  run --separate-stderr spart-id -m "$MODELS/kuka_iiwa.urdf" -o csv < s.csv
  [ "$status" -eq 1 ]
  [ "${#lines[@]}" -eq 7 ] # the header and rows 0 to 5
  [ "$stderr" = "spart-id: <stdin>:8: result tau0 is not finite" ]
  # --floating computes each row alone, the same
  run --separate-stderr spart-id -m "$MODELS/kuka_iiwa.urdf" --floating -k -o csv < s.csv
  [ "$status" -eq 1 ]
  cut -d, -f2- <<< "$output" > csv.out
  run --separate-stderr spart-id -m "$MODELS/kuka_iiwa.urdf" --floating -k -o csv < s.json
  [ "$status" -eq 1 ]
  printf '%s\n' "$output" > json.out
  cmp csv.out json.out
  [ "$(wc -l < csv.out)" -eq 11 ]
}
