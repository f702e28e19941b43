#!/usr/bin/env bats
# spart-states: random records within the limits, the zero configuration (issue 29).

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
  [ "${stderr_lines[0]}" = "spart-states: give one of --random N and --zero" ]
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

@test "spart-fd then spart-id on random records returns their forces (1e-9), floating and fixed base" {
  urdf2robot --floating spquat "$J/floating_tree.urdf" > "$T/sp.json"
  for m in "$MODELS/kuka_iiwa.urdf" "$MODELS/2_iiwa_base.urdf" "$J/floating_tree.urdf" "$T/sp.json"; do
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
