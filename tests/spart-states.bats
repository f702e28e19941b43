#!/usr/bin/env bats
# spart-states: random records within the limits, the zero configuration, records read written
# back normalised (issue 29).

load helper

setup() {
  T="$BATS_TEST_TMPDIR"
  J="$BATS_TEST_DIRNAME/data/joints"
}

@test "--help on stdout, exit 0; a bad option or no mode is a usage error (2); a bad model exits 1" {
  run spart-states --help
  [ "$status" -eq 0 ]
  [[ "$output" == "Usage: spart-states -m MODEL"* ]]
  run --separate-stderr spart-states -m "$MODELS/kuka_iiwa.urdf" --bogus
  [ "$status" -eq 2 ]
  run --separate-stderr spart-states -m "$MODELS/kuka_iiwa.urdf"
  [ "$status" -eq 2 ]
  [ "${stderr_lines[0]}" = "spart-states: give one of --random N, --zero and --normalize" ]
  run --separate-stderr spart-states -m "$MODELS/kuka_iiwa.urdf" --random -3
  [ "$status" -eq 2 ]
  [ "${stderr_lines[0]}" = "spart-states: --random: expected a whole number of records, got '-3'" ]
  run --separate-stderr spart-states -m "$MODELS/kuka_iiwa.urdf" --zero --seed 3
  [ "$status" -eq 2 ]
  echo '{' > "$T/bad.json"
  run --separate-stderr spart-states -m "$T/bad.json" --zero
  [ "$status" -eq 1 ]
  [ -z "$output" ]
}

@test "--random: every record within the joint limits, quaternions and sin-cos pairs unit to 1e-15; --zero the identity" {
  urdf2robot --revolute sincos "$J/ball_chain.urdf" > "$T/sc.json"
  urdf2robot --floating spquat "$J/floating_tree.urdf" > "$T/sp.json"
  for m in "$MODELS/kuka_iiwa.urdf" "$MODELS/2_iiwa_base.urdf" "$MODELS/box_slider.urdf" \
      "$J/floating_tree.urdf" "$J/ball.urdf" "$J/planar.urdf" "$T/sc.json" "$T/sp.json"; do
    urdf2robot "$m" > "$T/m.json"
    spart-states -m "$m" --random 500 --seed 11 --velocities --accelerations --forces > "$T/r.jsonl"
    spart-states -m "$m" --zero --velocities > "$T/z.jsonl"
    python3 - "$T/m.json" "$T/r.jsonl" "$T/z.jsonl" <<'PY'
import json, math, sys
m = json.load(open(sys.argv[1]))
recs = [json.loads(l) for l in open(sys.argv[2])]
zero = [json.loads(l) for l in open(sys.argv[3])]
assert len(recs) == 500 and len(zero) == 1
NQ = {0: 0, 1: 1, 2: 1, 3: 7, 4: 4, 5: 3, 6: 2, 7: 6}
NV = {0: 0, 1: 1, 2: 1, 3: 6, 4: 3, 5: 3, 6: 1, 7: 6}
for r in recs:
    assert len(r["qm"]) == m["n_q"] and len(r["um"]) == m.get("n_v", m["n_q"])
    qa = va = 0
    for j in m["joints"]:
        t, q = j["type"], r["qm"][qa:qa + NQ[j["type"]]]
        if "limit" in j and t in (1, 2):
            assert j["limit"][0] <= q[0] <= j["limit"][1], (j["name"], q, j["limit"])
        if t in (3, 4):
            assert abs(math.sqrt(sum(x * x for x in q[:4])) - 1) <= 1e-15, q
        if t == 6:
            assert abs(math.hypot(*q) - 1) <= 1e-15, q
            if "limit" in j:
                a = math.atan2(q[0], q[1])
                assert j["limit"][0] - 1e-15 <= a <= j["limit"][1] + 1e-15, (a, j["limit"])
        if t == 7:
            assert sum(x * x for x in q[:3]) <= 1 + 1e-15, q
        for k in range(NV[t]):
            vmax, emax = j.get("velocity_limit", 1), j.get("effort_limit", 1)
            assert abs(r["um"][va + k]) <= vmax and abs(r["taum"][va + k]) <= emax
            assert abs(r["umdot"][va + k]) <= 1
        qa += NQ[t]
        va += NV[t]
# the zero configuration: quaternions [1, 0, 0, 0], sin-cos [0, 1], every other 0; um 0
z = zero[0]
assert all(v == 0 for v in z["um"])
qa = 0
for j in m["joints"]:
    t, q = j["type"], z["qm"][qa:qa + NQ[j["type"]]]
    want = {3: [1] + [0] * 6, 4: [1, 0, 0, 0], 6: [0, 1]}.get(t, [0] * NQ[t])
    assert q == want, (j["name"], q)
    qa += NQ[t]
PY
  done
}

@test "--random within limits as wide as doubles go ([-1e308, 1.7e308]: their width overflows): N finite records within them, exit 0" {
  cat > "$T/wide.urdf" <<'EOF'
<robot name="wide">
  <link name="a"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <link name="b"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <link name="c"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <joint name="s" type="prismatic"><parent link="a"/><child link="b"/><axis xyz="1 0 0"/>
    <limit lower="-1e308" upper="1.7e308" effort="1.7e308" velocity="1.7e308"/></joint>
  <joint name="r" type="revolute"><parent link="b"/><child link="c"/><axis xyz="0 0 1"/>
    <limit lower="-1.7976931348623157e308" upper="1.7976931348623157e308" effort="1" velocity="1"/></joint>
</robot>
EOF
  for o in json csv; do
    run -0 --separate-stderr spart-states -m "$T/wide.urdf" --random 500 --seed 7 --velocities --forces -o $o
    [ -z "$stderr" ]
    printf '%s\n' "$output" > "$T/w.$o"
  done
  python3 - "$T/w.json" "$T/w.csv" <<'PY'
import csv, json, math, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
rows = list(csv.DictReader(open(sys.argv[2])))
assert len(recs) == len(rows) == 500, (len(recs), len(rows))
lo, hi = [-1e308, -1.7976931348623157e308], [1.7e308, 1.7976931348623157e308]
vmax, fmax = [1.7e308, 1], [1.7e308, 1]
for r, row in zip(recs, rows):
    for k in range(2):
        q, u, t = r["qm"][k], r["um"][k], r["taum"][k]
        assert all(math.isfinite(x) for x in (q, u, t)), r
        assert lo[k] <= q <= hi[k] and -vmax[k] <= u <= vmax[k] and -fmax[k] <= t <= fmax[k], r
        assert float(row["qm_%d" % (k + 1)]) == q, (r, row)
# spread over the range, not stuck at an end: both signs, and values past 1e307
q0 = [r["qm"][0] for r in recs]
assert min(q0) < -1e307 and max(q0) > 1e307, (min(q0), max(q0))
PY
}

@test "the same seed gives the same bytes (JSON and CSV), another seed other records; qm does not depend on what else is asked" {
  m="$MODELS/2_iiwa_base.urdf"
  a=$(spart-states -m "$m" --random 50 --seed 42 | cksum)
  b=$(spart-states -m "$m" --random 50 --seed 42 | cksum)
  c=$(spart-states -m "$m" --random 50 --seed 43 | cksum)
  [ "$a" = "$b" ]
  [ "$a" != "$c" ]
  [ "$(spart-states -m "$m" --random 5 --seed 1 -o csv | cksum)" = "$(spart-states -m "$m" --random 5 --seed 1 -o csv | cksum)" ]
  # the default seed is 0
  [ "$(spart-states -m "$m" --random 5 | cksum)" = "$(spart-states -m "$m" --random 5 --seed 0 | cksum)" ]
  cmp <(spart-states -m "$m" --random 20 --seed 5 | jq -c '{qm}') \
      <(spart-states -m "$m" --random 20 --seed 5 --velocities --forces | jq -c '{qm}')
  # a pinned record: the generator is spart's own (xoshiro256** seeded by splitmix64), the same
  # bits on every machine
  run spart-states -m "$MODELS/kuka_iiwa.urdf" --random 1 --seed 7
  [ "$output" = '{"qm":[1.190244805474983,-0.9267646827998304,2.0153899295776703,2.015217438084502,2.9128235311837662,1.5614718232128686,-2.6832128558859702]}' ]
  run spart-states -m "$m" --random 3 -o csv
  [ "${#lines[@]}" -eq 4 ]
  [[ "${lines[0]}" == "qm_1,qm_2,"*",qm_14" ]]
}

@test "spart-fd then spart-id on random records returns their forces (1e-9), floating and fixed base, coupled mimic joints" {
  urdf2robot --floating spquat "$J/floating_tree.urdf" > "$T/sp.json"
  # coupled mimic joints: a record holds the system's coordinates, the followers' left out
  urdf2robot --mimic "$BATS_TEST_DIRNAME/data/gripper_mimic.urdf" > "$T/gm.json"
  for m in "$MODELS/kuka_iiwa.urdf" "$MODELS/2_iiwa_base.urdf" "$J/floating_tree.urdf" "$T/sp.json" \
    "$T/gm.json"; do
    for fb in "" --fixed-base; do
      spart-states -m "$m" --random 20 --seed 3 --velocities --forces > "$T/s.jsonl"
      spart-fd -m "$m" $fb --gravity 0,0,-9.81 --keep-state < "$T/s.jsonl" > "$T/fd.jsonl"
      spart-id -m "$m" $fb --gravity 0,0,-9.81 < "$T/fd.jsonl" > "$T/id.jsonl"
      python3 - "$T/s.jsonl" "$T/id.jsonl" "$fb" <<'PY'
import json, sys
a = [json.loads(l) for l in open(sys.argv[1])]
b = [json.loads(l) for l in open(sys.argv[2])]
assert len(a) == len(b) == 20
for x, y in zip(a, b):
    scale = max([abs(v) for v in x["taum"]] + [1])
    err = max(abs(p - q) for p, q in zip(x["taum"], y["taum"]))
    assert err <= 1e-9 * scale, err
    if not sys.argv[3]:  # a floating base: no force on it
        assert max(abs(v) for v in y["tau0"]) <= 1e-9 * scale, y["tau0"]
PY
    done
  done
}


# the unit groups of a model JSON's qm: (start, length) of each quaternion and sin-cos pair, and
# the coordinates of an spquat joint (left as they are)
UNITS_PY='
import json
NQ = {0: 0, 1: 1, 2: 1, 3: 7, 4: 4, 5: 3, 6: 2, 7: 6}
def units(path):
    m = json.load(open(path))
    groups, other, qa = [], [], 0
    for j in m["joints"]:
        t = j["type"]
        if t in (3, 4):
            groups.append((qa, 4))
        if t == 6:
            groups.append((qa, 2))
        inside = {3: range(4), 4: range(4), 6: range(2)}.get(t, ())
        other += [qa + k for k in range(NQ[t]) if k not in inside]
        qa += NQ[t]
    return groups, other
'

# records of model $1 (a model JSON at $2) off unit norm, as JSON lines into $3: spart-states'
# random records, each quaternion and sin-cos pair replaced by a vector of random direction and a
# norm from 1e-3 to 1e3 (a few exactly unit, or a scaled unit one), with a time, a text and q0
off_unit() {
  spart-states -m "$1" --random 40 --seed 9 --velocities > "$3.unit"
  python3 - "$2" "$3.unit" "$3" <<PY
$UNITS_PY
import json, random, sys
random.seed(5)
groups, _ = units(sys.argv[1])
with open(sys.argv[3], "w") as out:
    for k, line in enumerate(open(sys.argv[2])):
        r = json.loads(line)
        for a, n in groups:
            if k % 10 == 3:
                r["qm"][a:a + n] = [x * 7.5 for x in r["qm"][a:a + n]]  # the same direction
            elif k % 10 != 5:
                v = [random.gauss(0, 1) for _ in range(n)]
                s = 10 ** random.uniform(-3, 3)
                r["qm"][a:a + n] = [x * s for x in v]
        q0 = [random.gauss(0, 1) * 3 for _ in range(4)]
        out.write(json.dumps({"t": k / 8, "note": "run, 1", "qm": r["qm"], "um": r["um"],
                              "q0": q0}, separators=(",", ":")) + "\n")
PY
}

# check that $3 (JSON lines) is $2 (JSON lines) normalised for model JSON $1: each quaternion and
# pair unit to 1e-15 and v/|v| to 1e-15, every other value the same number
check_unit() {
  python3 - "$1" "$2" "$3" <<PY
$UNITS_PY
import json, math, sys
groups, other = units(sys.argv[1])
a = [json.loads(l) for l in open(sys.argv[2])]
b = [json.loads(l) for l in open(sys.argv[3])]
assert len(a) == len(b) and len(a) > 0
def unit(v):
    n = math.sqrt(sum(x * x for x in v))
    return [x / n for x in v]
for x, y in zip(a, b):
    assert sorted(x) == sorted(y), (list(x), list(y))
    for key in x:
        if key not in ("qm", "q0"):
            assert x[key] == y[key], key
    spans = groups + ([(0, 4)] if "q0" in x else [])
    for a0, n in groups + [("q0", 4)] * ("q0" in x):
        key, a0 = ("q0", 0) if a0 == "q0" else ("qm", a0)
        got, want = y[key][a0:a0 + n], unit(x[key][a0:a0 + n])
        assert abs(math.sqrt(sum(v * v for v in got)) - 1) <= 1e-15, got
        assert max(abs(p - q) for p, q in zip(got, want)) <= 1e-15, (got, want)
    for k in other:
        assert x["qm"][k] == y["qm"][k], k
PY
}

@test "--normalize: with --random, --zero or the made records' options a usage error (2); -i, -j, --keep-going and a file need it" {
  m="$MODELS/kuka_iiwa.urdf"
  for extra in "--random 3" --zero --velocities --accelerations --forces "--seed 1"; do
    run --separate-stderr spart-states -m "$m" --normalize $extra < /dev/null
    [ "$status" -eq 2 ]
    [ -z "$output" ]
  done
  run --separate-stderr spart-states -m "$m" --normalize --random 3
  [ "${stderr_lines[0]}" = "spart-states: give one of --random N, --zero and --normalize" ]
  run --separate-stderr spart-states -m "$m" --normalize --velocities
  [[ "${stderr_lines[0]}" == "spart-states: --normalize writes back the records read: not with"* ]]
  for extra in "-j 2" "-i json" --keep-going --by-name "$T/x.json"; do
    run --separate-stderr spart-states -m "$m" --zero $extra
    [ "$status" -eq 2 ]
    [ -z "$output" ]
  done
  run --separate-stderr spart-states -m "$m" --normalize -i yaml
  [ "$status" -eq 2 ]
  run --separate-stderr spart-states -m "$m" --normalize - -
  [ "$status" -eq 2 ]
  run spart-states --help
  [[ "$output" == *"--normalize"* ]]
}

@test "--normalize: quaternions (ball, floating, q0) and sin-cos pairs of any norm made unit to 1e-15 along the same direction, spquat and the rest as they came (JSON)" {
  urdf2robot --revolute sincos "$J/ball_chain.urdf" > "$T/sc.json"
  urdf2robot --floating spquat "$J/floating_tree.urdf" > "$T/sp.json"
  for m in "$J/floating_tree.urdf" "$J/ball_chain.urdf" "$J/floating_chain.urdf" "$T/sc.json" \
      "$T/sp.json"; do
    urdf2robot "$m" > "$T/m.json"
    off_unit "$m" "$T/m.json" "$T/in.jsonl"
    spart-states -m "$m" --normalize "$T/in.jsonl" > "$T/out.jsonl"
    check_unit "$T/m.json" "$T/in.jsonl" "$T/out.jsonl"
    # the keys the command does not read as they came, in their order, then qm and q0
    head -1 "$T/out.jsonl" | grep -q '^{"t":0.0,"note":"run, 1","um":\[.*\],"qm":\[.*\],"q0":\[.*\]}$'
    # normalised twice is normalised once, and an unchanged record is written as it came
    spart-states -m "$m" --normalize < "$T/out.jsonl" | cmp - "$T/out.jsonl"
  done
}

@test "--normalize: CSV in, CSV out (the other columns first, in their order), -o json, -j 3 the same bytes as -j 1" {
  urdf2robot --revolute sincos "$J/ball_chain.urdf" > "$T/sc.json"
  for m in "$J/floating_tree.urdf" "$T/sc.json"; do
    urdf2robot "$m" > "$T/m.json"
    off_unit "$m" "$T/m.json" "$T/in.jsonl"
    spart-states -m "$m" --normalize "$T/in.jsonl" > "$T/want.jsonl"
    # the same records as CSV: t, note, qm_..., um_..., q0_...
    python3 - "$T/in.jsonl" > "$T/in.csv" <<'PY'
import csv, json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
w = csv.writer(sys.stdout, lineterminator="\n")
r = recs[0]
w.writerow(["t", "note"] + ["%s_%d" % (k, i + 1) for k in ("qm", "um", "q0") for i in range(len(r[k]))])
for r in recs:
    w.writerow([repr(r["t"]), r["note"]] + [repr(x) for k in ("qm", "um", "q0") for x in r[k]])
PY
    spart-states -m "$m" --normalize < "$T/in.csv" > "$T/out.csv"
    nq=$(jq '.qm | length' < "$T/want.jsonl" | head -1)
    nv=$(jq '.um | length' < "$T/want.jsonl" | head -1)
    want="t,note"
    for i in $(seq "$nv"); do want="$want,um_$i"; done
    for i in $(seq "$nq"); do want="$want,qm_$i"; done
    want="$want,q0_1,q0_2,q0_3,q0_4"
    [ "$(head -1 "$T/out.csv")" = "$want" ]
    [ "$(sed -n 2p "$T/out.csv" | cut -d, -f1-3)" = '0.0,"run, 1"' ]
    # the CSV written is the JSON written, value for value
    python3 - "$T/out.csv" "$T/want.jsonl" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
recs = [json.loads(l) for l in open(sys.argv[2])]
assert len(rows) == len(recs)
for row, r in zip(rows, recs):
    assert float(row["t"]) == r["t"] and row["note"] == r["note"]
    for k in ("qm", "um", "q0"):
        assert [float(row["%s_%d" % (k, i + 1)]) for i in range(len(r[k]))] == r[k], k
PY
    # -o json: qm and q0 as from JSON; the other columns keep their CSV names (um_1...)
    spart-states -m "$m" --normalize -o json < "$T/in.csv" > "$T/out.jsonl"
    python3 - "$T/out.jsonl" "$T/want.jsonl" <<'PY'
import json, sys
a = [json.loads(l) for l in open(sys.argv[1])]
b = [json.loads(l) for l in open(sys.argv[2])]
assert len(a) == len(b)
for x, y in zip(a, b):
    assert x["qm"] == y["qm"] and x["q0"] == y["q0"] and x["note"] == y["note"]
    assert [x["um_%d" % (i + 1)] for i in range(len(y["um"]))] == y["um"]
PY
    spart-states -m "$m" --normalize -j 3 < "$T/in.csv" | cmp - "$T/out.csv"
    spart-states -m "$m" --normalize -j 3 < "$T/in.jsonl" | cmp - "$T/want.jsonl"
    # normalised CSV read back: the same bytes
    spart-states -m "$m" --normalize < "$T/out.csv" | cmp - "$T/out.csv"
  done
}

@test "--normalize: records already unit (spart-states --random) and a model without quaternions come out with the same numbers" {
  for m in "$J/floating_tree.urdf" "$J/ball_chain.urdf" "$MODELS/kuka_iiwa.urdf"; do
    spart-states -m "$m" --random 100 --seed 4 > "$T/r.jsonl"
    spart-states -m "$m" --normalize < "$T/r.jsonl" | cmp - "$T/r.jsonl"
    spart-states -m "$m" --random 100 --seed 4 -o csv > "$T/r.csv"
    spart-states -m "$m" --normalize < "$T/r.csv" | cmp - "$T/r.csv"
    # the other format: JSON's records as CSV, CSV's as JSON
    spart-states -m "$m" --normalize -o csv < "$T/r.jsonl" | cmp - "$T/r.csv"
    spart-states -m "$m" --normalize -o json < "$T/r.csv" | cmp - "$T/r.jsonl"
    spart-states -m "$m" --random 20 --seed 4 --velocities --forces > "$T/v.jsonl"
    spart-states -m "$m" --normalize < "$T/v.jsonl" > "$T/vo.jsonl"
    python3 - "$T/v.jsonl" "$T/vo.jsonl" <<'PY'
import json, sys
a = [json.loads(l) for l in open(sys.argv[1])]
b = [json.loads(l) for l in open(sys.argv[2])]
assert a == b and len(a) == 20
PY
  done
  # n_q = n_v: qm's numbers as they came, whatever their text
  printf 'qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\n0.10,-2e-1,3.0,0,1E2,-0.0,7\n' |
    spart-states -m "$MODELS/kuka_iiwa.urdf" --normalize > "$T/k.csv"
  [ "$(sed -n 2p "$T/k.csv")" = "0.1,-0.2,3,0,100,-0,7" ]
}

@test "--normalize: a zero quaternion, a (0, 0) sin-cos pair or a zero q0 refused with its file:line and joint (exit 1); --keep-going goes on" {
  urdf2robot "$J/ball.urdf" > "$T/b.json"
  name=$(jq -r '.joints[] | select(.type == 4) | .name' "$T/b.json" | head -1)
  nq=$(jq '.n_q' "$T/b.json")
  python3 - "$T/b.json" "$T/in.jsonl" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
q = [0.0] * m["n_q"]
NQ = {0: 0, 1: 1, 2: 1, 3: 7, 4: 4, 5: 3, 6: 2, 7: 6}
qa = 0
for j in m["joints"]:
    if j["type"] == 4:
        ball = qa
    qa += NQ[j["type"]]
good = list(q)
good[ball] = 2.0
with open(sys.argv[2], "w") as f:
    f.write(json.dumps({"qm": good}) + "\n")
    f.write(json.dumps({"qm": q}) + "\n")
    f.write(json.dumps({"qm": good}) + "\n")
PY
  run --separate-stderr spart-states -m "$T/b.json" --normalize "$T/in.jsonl"
  [ "$status" -eq 1 ]
  [ "${#stderr_lines[@]}" -eq 1 ]
  [ "${stderr_lines[0]}" = "spart-states: $T/in.jsonl:2: joint '$name': quaternion of norm 0: no direction to normalise to" ]
  [ "${#lines[@]}" -eq 1 ]
  run --separate-stderr spart-states -m "$T/b.json" --normalize --keep-going < "$T/in.jsonl"
  [ "$status" -eq 1 ]
  [ "${stderr_lines[0]}" = "spart-states: <stdin>:2: joint '$name': quaternion of norm 0: no direction to normalise to" ]
  [ "${#lines[@]}" -eq 2 ]
  # a sin-cos pair (0, 0), in CSV
  urdf2robot --revolute sincos "$J/ball_chain.urdf" > "$T/sc.json"
  spart-states -m "$T/sc.json" --zero -o csv > "$T/z.csv"
  sc=$(jq -r '[.joints[] | select(.type == 6)][0].name' "$T/sc.json")
  col=$(jq '[.joints[] | {t: .type, n: ({"0":0,"1":1,"2":1,"3":7,"4":4,"5":3,"6":2,"7":6}[.type|tostring])}] | reduce .[] as $j ({a: 0, at: null}; if $j.t == 6 and .at == null then .at = .a else . end | .a += $j.n) | .at' "$T/sc.json")
  python3 - "$T/z.csv" "$col" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
row = lines[1].split(",")
c = int(sys.argv[2])
row[c] = row[c + 1] = "0"
open(sys.argv[1], "w").write("\n".join([lines[0], lines[1], ",".join(row)]) + "\n")
PY
  run --separate-stderr spart-states -m "$T/sc.json" --normalize "$T/z.csv"
  [ "$status" -eq 1 ]
  [ "${stderr_lines[0]}" = "spart-states: $T/z.csv:3: joint '$sc': [sin, cos] pair of norm 0: no direction to normalise to" ]
  [ "${#lines[@]}" -eq 2 ]
  # a zero q0
  printf '{"qm":[1,0,0,0],"q0":[0,0,0,0]}\n' > "$T/q0.jsonl"
  urdf2robot "$J/ball.urdf" > /dev/null
  run --separate-stderr spart-states -m "$MODELS/kuka_iiwa.urdf" --normalize "$T/q0.jsonl"
  [ "$status" -eq 1 ]
  [[ "${stderr_lines[0]}" == "spart-states: $T/q0.jsonl:1: "* ]]
  # the compute commands still refuse a quaternion off unit norm
  printf '{"qm":[0,0,0,0,0,0,0],"q0":[2,0,0,0]}\n' > "$T/q0.jsonl"
  run --separate-stderr spart-kin -m "$MODELS/kuka_iiwa.urdf" "$T/q0.jsonl"
  [ "$status" -eq 1 ]
  run --separate-stderr spart-states -m "$MODELS/kuka_iiwa.urdf" --normalize "$T/q0.jsonl"
  [ "$status" -eq 0 ]
  [ "$output" = '{"qm":[0,0,0,0,0,0,0],"q0":[1,0,0,0]}' ]
}

@test "--normalize: its output read by the compute commands, spart-kin's poses those of the records normalised by hand (1e-12)" {
  for m in "$J/floating_tree.urdf" "$J/ball_chain.urdf"; do
    urdf2robot "$m" > "$T/m.json"
    off_unit "$m" "$T/m.json" "$T/in.jsonl"
    spart-states -m "$m" --normalize < "$T/in.jsonl" > "$T/out.jsonl"
    # by hand: q / |q| in python
    python3 - "$T/m.json" "$T/in.jsonl" > "$T/hand.jsonl" <<PY
$UNITS_PY
import json, math, sys
groups, _ = units(sys.argv[1])
for line in open(sys.argv[2]):
    r = json.loads(line)
    for key, a, n in [("qm", a, n) for a, n in groups] + [("q0", 0, 4)]:
        v = r[key][a:a + n]
        s = math.sqrt(sum(x * x for x in v))
        r[key][a:a + n] = [x / s for x in v]
    print(json.dumps(r))
PY
    spart-kin -m "$m" < "$T/out.jsonl" > "$T/kin.jsonl"
    spart-kin -m "$m" < "$T/hand.jsonl" > "$T/kin_hand.jsonl"
    python3 - "$T/kin.jsonl" "$T/kin_hand.jsonl" <<'PY'
import json, sys
a = [json.loads(l) for l in open(sys.argv[1])]
b = [json.loads(l) for l in open(sys.argv[2])]
assert len(a) == len(b) == 40
def flat(x):
    return [v for y in x for v in flat(y)] if isinstance(x, list) else [x]
for x, y in zip(a, b):
    for k in ("RJ", "RL", "rJ", "rL", "tL"):
        d = max(abs(p - q) for p, q in zip(flat(x[k]), flat(y[k])))
        assert d <= 1e-12, (k, d)
PY
    for c in spart-gim spart-fd spart-id; do
      "$c" -m "$m" < "$T/out.jsonl" > /dev/null
    done
    # the records as they came are refused by the compute commands (off unit norm)
    run --separate-stderr spart-kin -m "$m" < "$T/in.jsonl"
    [ "$status" -eq 1 ]
  done
}

@test "--normalize --by-name: qm keyed by joint name, read back as the positional record; -i names the input's format" {
  m="$J/floating_tree.urdf"
  urdf2robot "$m" > "$T/m.json"
  off_unit "$m" "$T/m.json" "$T/in.jsonl"
  spart-states -m "$m" --normalize < "$T/in.jsonl" > "$T/pos.jsonl"
  spart-states -m "$m" --normalize --by-name < "$T/in.jsonl" > "$T/names.jsonl"
  # the joints' names in the model's order, each joint's coordinates
  [ "$(head -1 "$T/names.jsonl" | jq -c '.qm | keys_unsorted')" = "$(jq -c '[.joints[] | select(.type != 0) | .name]' "$T/m.json")" ]
  # read by name (it is the same record), and given by name to --normalize again
  spart-kin -m "$m" < "$T/names.jsonl" | cmp - <(spart-kin -m "$m" < "$T/pos.jsonl")
  spart-states -m "$m" --normalize < "$T/names.jsonl" | cmp - "$T/pos.jsonl"
  jq -c 'del(.um)' "$T/names.jsonl" | spart-states -m "$m" --normalize --by-name -o csv > "$T/names.csv"
  name=$(jq -r '[.joints[] | select(.type == 3)][0].name' "$T/m.json")
  head -1 "$T/names.csv" | grep -q ",qm\.$name\.1,qm\.$name\.2,"
  # -i: the input's format named
  spart-states -m "$m" --normalize -i json < "$T/in.jsonl" | cmp - "$T/pos.jsonl"
  run --separate-stderr spart-states -m "$m" --normalize -i csv < "$T/in.jsonl"
  [ "$status" -eq 1 ]
}
