#!/usr/bin/env bats
# spart-cmp: two record streams, JSON or CSV in any mix, compared field by field within
# tolerances; exit 0 equal, 1 not, 2 trouble.

load helper

setup() {
  cd "$BATS_TEST_TMPDIR"
  # the same records as CSV and as JSON lines, written by hand: arrays are their CSV columns
  printf 'time,taum_1,taum_2,R0_1_1,note\n0,1,-2,1,"a, b"\n0.5,1e-3,250,0.5,x\n' > a.csv
  printf '%s\n' '{"note": "a, b", "taum": [1.0, -2], "time": 0, "R0": [[1]]}' \
    '{"time": 0.5, "taum": [0.001, 2.5e2], "R0": [[0.5]], "note": "x"}' > a.json
}

@test "the same records as CSV and as JSON lines are equal, in either order and from stdin" {
  run -0 spart-cmp a.csv a.json
  [ "${lines[-1]}" = "2 records: equal within the tolerances" ]
  run -0 spart-cmp a.json a.csv
  run -0 spart-cmp - a.csv < a.json
  run -0 spart-cmp -q a.csv a.json
  [ -z "$output" ]
}

@test "a difference is named (record, lines, field, values, error) and exits 1" {
  sed 's/,250,/,250.5,/' a.csv > b.csv
  run -1 spart-cmp a.json b.csv
  [ "${lines[0]}" = "record 2 (a.json:2, b.csv:3): taum_2: 250 vs 250.5: error 0.5 > 0 (atol 0 + rtol 0 * 250)" ]
  # the largest error of each field, by field (taum_1 and taum_2 are taum)
  [[ "$output" == *$'\n'"taum                    4          0.5        2        0.002        2"$'\n'* ]]
  [ "${lines[-1]}" = "2 records: differ" ]
  run -1 spart-cmp -q a.json b.csv
  [ -z "$output" ]
}

@test "--atol and --rtol, for all fields or per field; the last that names a field wins" {
  sed 's/,250,/,250.5,/' a.csv > b.csv
  run -0 spart-cmp --atol 0.5 a.json b.csv
  run -1 spart-cmp --atol 0.49 a.json b.csv
  run -0 spart-cmp --rtol 0.002 a.json b.csv       # 0.5 <= 0.002 * 250.5
  run -1 spart-cmp --rtol 0.0019 a.json b.csv
  run -0 spart-cmp --atol taum=0.5 a.json b.csv
  run -1 spart-cmp --atol time=1 a.json b.csv
  run -1 spart-cmp --atol 1 --atol taum=0.1 a.json b.csv
  run -0 spart-cmp --atol taum=0.1 --atol taum=1 a.json b.csv
  # a field's name is the whole name before its indices: tau does not name taum
  run -1 spart-cmp --atol tau=1 a.json b.csv
}

@test "texts, missing fields, and a stream that ends first are differences" {
  sed 's/"x"/"y"/' a.json > b.json
  run -1 spart-cmp a.csv b.json
  [ "${lines[0]}" = "record 2 (a.csv:3, b.json:2): note: 'x' vs 'y'" ]
  sed 's/, "R0": \[\[1\]\]//' a.json > c.json
  run -1 spart-cmp a.json c.json
  [ "${lines[0]}" = "record 1 (a.json:1, c.json:1): R0_1_1: only in a.json" ]
  # --fields: only those, the others ignored
  run -0 spart-cmp --fields taum,time a.json c.json
  head -n 1 a.json > d.json
  run -1 spart-cmp a.json d.json
  [ "${lines[0]}" = "d.json ends after record 1, a.json goes on" ]
  # a number against a text
  sed 's/"x"/0/' a.json > e.json
  run -1 spart-cmp a.json e.json
  [ "${lines[0]}" = "record 2 (a.json:2, e.json:2): note: 'x' vs '0'" ]
}

@test "--max limits the differences listed, not the verdict" {
  for i in 1 2 3 4 5; do echo "{\"x\": $i}"; done > f.json
  for i in 1 2 3 4 5; do echo "{\"x\": $((i + 10))}"; done > g.json
  run -1 spart-cmp --max 2 f.json g.json
  [ "$(grep -c '^record' <<< "$output")" -eq 2 ]
  [[ "$output" == *"... 5 differences in all"* ]]
}

@test "errors exit 2: usage, a missing file, a bad record, both inputs stdin" {
  run --separate-stderr spart-cmp a.csv
  [ "$status" -eq 2 ]
  [ "${stderr_lines[0]}" = "spart-cmp: expected two inputs A B, got 1" ]
  run --separate-stderr spart-cmp a.csv nosuch.csv
  [ "$status" -eq 2 ]
  [ "$stderr" = "spart-cmp: cannot open nosuch.csv: No such file or directory" ]
  printf 'a,b\n1,2\n3\n' > bad.csv
  run --separate-stderr spart-cmp bad.csv bad.csv
  [ "$status" -eq 2 ]
  [ "$stderr" = "spart-cmp: bad.csv:3: expected 2 fields, got 1" ]
  run --separate-stderr spart-cmp - - < a.csv
  [ "$status" -eq 2 ]
  run --separate-stderr spart-cmp --atol x=-1 a.csv a.csv
  [ "$status" -eq 2 ]
  [ "${stderr_lines[0]}" = "spart-cmp: --atol: expected [FIELD=]X, X >= 0, got 'x=-1'" ]
  run --separate-stderr spart-cmp --bogus a.csv a.csv
  [ "$status" -eq 2 ]
  run -0 spart-cmp --help
  [[ "$output" == *"--atol [FIELD=]A"* ]]
}

@test "spart-id's CSV and JSON outputs of one trajectory compare equal; a change of model does not" {
  printf 'time,qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\n0,0,0.5,0,-1,0,0.5,0\n0.01,0,0.51,0,-1,0,0.5,0\n' > t.csv
  spart-id -m "$MODELS/kuka_iiwa.urdf" --fixed-base --gravity 0,0,-9.81 -o csv < t.csv > id.csv
  spart-id -m "$MODELS/kuka_iiwa.urdf" --fixed-base --gravity 0,0,-9.81 -o json < t.csv > id.json
  run -0 spart-cmp id.csv id.json
  spart-id -m "$MODELS/kuka_lwr.urdf" --fixed-base --gravity 0,0,-9.81 -o json < t.csv > lwr.json
  run -1 spart-cmp id.csv lwr.json
  [[ "${lines[0]}" == "record 1 (id.csv:2, lwr.json:1): "* ]]
}

@test "every example in spart-cmp(1) runs" {
  ln -s "$TOP/models" models
  man_examples "$TOP/man/spart-cmp.1" examples.sh
  [ "$(wc -l < examples.sh)" -eq 5 ]
  run --separate-stderr bash -e examples.sh
  echo "$stderr"
  [ "$status" -eq 0 ]
  [[ "$output" == *"1 records: equal within the tolerances" ]]
}

@test "--fields naming a field that no record has is trouble (exit 2), not equal" {
  printf '{"taum": [1, 2]}\n' > a.json
  printf '{"taum": [6, 12]}\n' > b.json
  run -2 spart-cmp -f tuam a.json b.json
  [ "$output" = "spart-cmp: --fields: no record of a.json or b.json has a field 'tuam'" ]
  run -2 spart-cmp -f taum,tuam a.json b.json
  run -1 spart-cmp -f taum a.json b.json
  # a field in one stream only is found, and a difference
  printf '{"tuam": [1, 2]}\n' > c.json
  run -1 spart-cmp -f tuam a.json c.json
  [ "${lines[0]}" = "record 1 (a.json:1, c.json:1): tuam_1: only in c.json" ]
}

@test "a finite value and an infinity never agree, whatever the tolerance; equal infinities do" {
  printf 'x,y\n5,1\n' > a.csv
  printf 'x,y\ninf,1\n' > b.csv
  printf 'x,y\n-inf,1\n' > c.csv
  for tol in "" "--rtol 0.5" "--rtol 1e300" "--atol 1e308 --rtol 1"; do
    run -1 spart-cmp $tol a.csv b.csv
    [ "${lines[0]}" = "record 1 (a.csv:2, b.csv:2): x: 5 vs inf: an infinity agrees only with itself" ]
    run -1 spart-cmp $tol b.csv a.csv
    run -1 spart-cmp $tol b.csv c.csv
    run -0 spart-cmp $tol b.csv b.csv
    run -0 spart-cmp $tol c.csv c.csv
  done
}

@test "NaN agrees with NaN of the same text only, as spart-cmp(1) says" {
  printf 'x\nnan\n' > a.csv
  printf 'x\nnan\n' > b.csv
  printf 'x\n1\n' > c.csv
  printf '{"x": null}\n' > d.json
  run -0 spart-cmp a.csv b.csv
  run -1 spart-cmp --atol 1e300 a.csv c.csv
  [ "${lines[0]}" = "record 1 (a.csv:2, c.csv:2): x: 'nan' vs '1'" ]
  run -1 spart-cmp a.csv d.json
  [ "${lines[0]}" = "record 1 (a.csv:2, d.json:1): x: 'nan' vs 'null'" ]
  grep -q 'NaN' "$TOP/man/spart-cmp.1"
}

@test "two values that flatten to one name are refused (exit 2)" {
  printf '{"a_1": 5, "a": [4]}\n' > a.json
  printf '{"a": [4]}\n' > b.json
  run -2 spart-cmp a.json b.json
  [ "$output" = "spart-cmp: a.json:1: two values named 'a_1' (a key, or an array's flattened column, given twice): which to compare is not known" ]
  run -2 spart-cmp b.json a.json
  printf 'a_1,a_1\n4,5\n' > c.csv
  run -2 spart-cmp c.csv c.csv
}

@test "values named by joint compare as the field they belong to: --fields, --atol, the report; CSV and JSON alike" {
  M="$MODELS/kuka_iiwa.urdf"
  spart-states -m "$M" --random 3 --seed 2 --accelerations -o csv > s.csv
  spart-id -m "$M" --gravity 0,0,-9.81 --by-name -o csv < s.csv > a.csv
  spart-id -m "$M" --gravity 0,0,-9.81 --by-name -o json < s.csv > a.json
  grep -q '"taum":{"lbr_iiwa_joint_1":' a.json
  # joint 1's torque 1e-8 N m off
  python3 - <<'PY'
import csv
rows = list(csv.reader(open("a.csv")))
i = rows[0].index("taum.lbr_iiwa_joint_1")
rows[2][i] = repr(float(rows[2][i]) + 1e-8)
csv.writer(open("b.csv", "w"), lineterminator="\n").writerows(rows)
PY
  run -1 spart-cmp a.csv b.csv
  [[ "${lines[0]}" == "record 2 (a.csv:3, b.csv:3): taum.lbr_iiwa_joint_1: "*": error 1e-08 > 0 "* ]]
  # the report's field is taum, its 21 values (not taum.lbr_iiwa_joint, the name cut at _1)
  [[ "$output" == *$'\n'"taum                   21        1e-08        2"* ]]
  ! grep -q '^taum\.lbr' <<< "$output"
  run -0 spart-cmp --atol taum=1e-7 a.csv b.csv
  run -1 spart-cmp --atol taum=1e-9 a.csv b.csv
  run -0 spart-cmp --atol taum.lbr_iiwa_joint_1=1e-7 a.csv b.csv
  run -1 spart-cmp --atol taum.lbr_iiwa_joint_2=1e-7 a.csv b.csv
  run -1 spart-cmp -f taum a.csv b.csv
  run -0 spart-cmp -f tau0 a.csv b.csv
  # JSON objects keyed by joint name are the same values as the CSV columns
  run -0 spart-cmp a.csv a.json
  run -0 spart-cmp --atol taum=1e-7 -f taum b.csv a.json
  # a joint of several values: CSV qm.fl.K, JSON {"qm": {"fl": [...]}}
  F="$BATS_TEST_DIRNAME/data/joints/floating_tree.urdf"
  q='{"qm": [0.3, 0.5, 0.5, 0.5, 0.5, 1, 2, 3, -0.2, 0.4]}'
  spart-sim -m "$F" --duration 0.002 --dt 0.001 --by-name -o csv <<< "$q" > f.csv
  spart-sim -m "$F" --duration 0.002 --dt 0.001 --by-name -o json <<< "$q" > f.json
  grep -q '"fl":\[' f.json
  run -0 spart-cmp f.csv f.json
  [[ "$output" == *$'\n'"qm "*$'\n'* ]]
  run -0 spart-cmp -f qm,um f.json f.csv
}
