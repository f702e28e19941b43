#!/bin/sh
# same-bytes.sh BASE -- this tree's commands against another built tree's (BASE: its bin/), byte
# for byte: stdout, stderr and the exit status of every run must be the same, for a change that
# must keep every output and every message (a redesign of the readers and writers).  The runs:
# every compute command on every bundled model and test model, JSON lines and CSV (with
# pass-through columns, a quoted cell with a comma, a semicolon CSV with a byte order mark and
# CRLF ends), pretty-printed JSON, RFC 7464, a JSON array, -o json and csv, -j 1 and -j 3,
# --keep-state pipelines, --by-name, spart-cmp over the outputs, spart-sim, spart-contact,
# spart-states, spart-draw, spart-codegen, urdf2robot and dh2robot, malformed inputs (the
# fuzzers' seeds and regressions too) with and without -k, and the options: each command's
# --help, each option with a bad value and twice, every pair of options.  Exit 1 at any
# difference, which is printed with the command that gave it.
set -eu
cd "$(dirname "$0")/.."
[ $# -eq 1 ] || { echo "usage: scripts/same-bytes.sh BASE" >&2; exit 2; }
base=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
runs=0
fail=0

# same IN CMD ARGS...: CMD ARGS < IN through both trees
same() {
  in=$1
  shift
  cmd=$1
  shift
  runs=$((runs + 1))
  set +e
  "$base/bin/$cmd" "$@" < "$in" > "$dir/b.out" 2> "$dir/b.err"
  echo "exit $?" >> "$dir/b.err"
  "bin/$cmd" "$@" < "$in" > "$dir/n.out" 2> "$dir/n.err"
  echo "exit $?" >> "$dir/n.err"
  set -e
  if ! cmp -s "$dir/b.out" "$dir/n.out" || ! cmp -s "$dir/b.err" "$dir/n.err"; then
    fail=1
    echo "DIFF $cmd $* < $in"
    diff "$dir/b.err" "$dir/n.err" | head -4 || true
    cmp "$dir/b.out" "$dir/n.out" || true
  fi
}

# state records of each model: JSON lines, pretty, RFC 7464, an array; CSV two ways; bad ones
python3 - "$dir" models/*.urdf models/*.dh.json tests/data/joints/*.urdf \
  tests/data/gripper_mimic.urdf tests/data/general_axes.urdf <<'PY'
import json, math, os, random, subprocess, sys
d = sys.argv[1]
random.seed(26)
for k, m in enumerate(sys.argv[2:]):
    conv = "bin/urdf2robot" if m.endswith(".urdf") else "bin/dh2robot"
    rob = json.loads(subprocess.run([conv, m, "-o", "json"], capture_output=True, text=True,
                                    check=True).stdout)
    nq, nv = rob["n_q"], rob.get("n_v", rob["n_q"])
    quat = nq != nv
    v = lambda n: [round(random.uniform(-1, 1), random.choice([3, 17])) for _ in range(n)]
    def state(i):
        a = random.uniform(-3, 3)
        s = {"t": i * 0.001, "R0": [[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0],
                                    [0, 0, 1]],
             "r0": v(3), "qm": v(nq), "u0": v(6), "um": v(nv), "u0dot": v(6), "umdot": v(nv),
             "tau0": v(6), "taum": v(nv), "note": "a, \"b\"" if i % 3 == 0 else "c"}
        if quat:  # spart-states gives unit quaternions: take its qm
            s["qm"] = None
        return s
    recs = [state(i) for i in range(12)]
    if quat:
        out = subprocess.run(["bin/spart-states", "-m", m, "--random", "12", "--seed", str(k)],
                             capture_output=True, text=True, check=True).stdout.split("\n")
        for s, line in zip(recs, out):
            s["qm"] = json.loads(line)["qm"]
    b = f"{d}/m{k}"
    open(b + ".model", "w").write(m)
    with open(b + ".jsonl", "w") as f:
        for s in recs:
            f.write(json.dumps(s) + "\n")
    with open(b + ".pretty.json", "w") as f:
        for s in recs[:4]:
            f.write(json.dumps(s, indent=2) + "\n")
    with open(b + ".seq.json", "w") as f:
        for s in recs[:4]:
            f.write("\x1e" + json.dumps(s) + "\n")
    with open(b + ".array.json", "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(s) for s in recs[:4]) + "\n]\n")
    def cols(s):
        h, c = [], []
        for key, val in s.items():
            if key == "R0":
                for i in range(3):
                    for j in range(3):
                        h.append(f"R0_{i+1}_{j+1}"); c.append(repr(val[i][j]))
            elif isinstance(val, list):
                for i, x in enumerate(val):
                    h.append(f"{key}_{i+1}"); c.append(repr(x))
            elif isinstance(val, str):
                h.append(key); c.append('"' + val.replace('"', '""') + '"')
            else:
                h.append(key); c.append(repr(val))
        return h, c
    with open(b + ".csv", "w") as f:
        f.write("# a logger's preamble\n\n" + ",".join(cols(recs[0])[0]) + "\n")
        for i, s in enumerate(recs):
            f.write(",".join(cols(s)[1]) + "\n")
            if i == 5:
                f.write("\n")
    with open(b + ".semi.csv", "w", newline="") as f:
        f.write("\ufeff" + ";".join(cols(recs[0])[0]) + "\r\n")
        for s in recs[:6]:
            f.write(";".join(cols(s)[1]) + "\r\n")
bad = {
    "bad1.json": '{"qm": [1, 2, 3]}\n{"qm": [0, 0, 0, 0, 0, 0, 0], "um": [1e999]}\n',
    "bad2.json": '{"qm": [0, 0, 0, 0, 0, 0, 0]\n{"qm": [0, 0, 0, 0, 0, 0, 0]}\nnot json\n',
    "bad3.json": '[{"qm": [0, 0, 0, 0, 0, 0, 0]}, {"q": [1]}\n',
    "bad4.json": '\x1e{"qm": [0, 0, 0, 0, 0, 0, 0], "R0": [[1,0,0],[0,1,0],[0,0,-1]]}\n\x1e{"qm"\n',
    "bad5.json": '{"qm": [0, 0, 0, 0, 0, 0, 0], "q0": [1, 0, 0, 0.5]}\n{"qm": [0,0,0,0,0,0,0], "qmdot": [1,1,1,1,1,1,1], "um": [0,0,0,0,0,0,0]}\n',
    "bad1.csv": "qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7\n1,2,3,4,5,6\n1,2,3,4,5,6,x\n1,2,3,4,5,6,\"7\"\n\"1,2,3,4,5,6,7\n",
    "bad2.csv": "qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_8\n1,2,3,4,5,6,7\n",
    "bad3.csv": "q1,q2,q3,q4,q5,q6,q7\n1,2,3,4,5,6,7\n",
    "bad4.csv": "qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7,\"a\"b\n1,2,3,4,5,6,7,8\n",
    "bad5.csv": "qm_1,qm_2,qm_3,qm_4,qm_5,qm_6,qm_7,x\n1,2,3,4,5,6,7,\"a\nb\"\n1,2,3,4,5,6,7,\"open\n",
    "empty.json": "\n \n\r\n",
}
for name, text in bad.items():
    open(f"{d}/{name}", "w", newline="").write(text)
PY

for f in "$dir"/m*.jsonl; do
  b=${f%.jsonl}
  m=$(cat "$b.model")
  # the inputs every model runs: JSON lines and CSV
  for in in "$b.jsonl" "$b.csv"; do
    for o in "" "-o csv" "-j 3" "-j 1 -o csv" "-j 3 -o csv --keep-state" "--by-name" "-k"; do
      # shellcheck disable=SC2086
      for run in "spart-kin" "spart-jac --noc" "spart-gim" "spart-id" "spart-id --fixed-base" \
        "spart-id --floating" "spart-fd" "spart-fd --fixed-base"; do
        same "$in" $run -m "$m" $o
      done
    done
  done
  # the other forms of JSON and CSV, and pipelines
  for in in "$b.pretty.json" "$b.seq.json" "$b.array.json" "$b.semi.csv"; do
    for o in "" "-o csv" "-j 3" "--seq"; do
      # shellcheck disable=SC2086
      same "$in" spart-id -m "$m" $o
    done
  done
  "$base/bin/spart-id" -m "$m" --keep-state < "$b.csv" > "$b.id.json" 2> /dev/null || true
  same "$b.id.json" spart-fd -m "$m" --only umdot
  same "$b.id.json" spart-fd -m "$m" -j 3 -o csv
  "$base/bin/spart-kin" -m "$m" -o csv < "$b.jsonl" > "$b.kin.csv" 2> /dev/null || true
  "$base/bin/spart-kin" -m "$m" < "$b.csv" > "$b.kin.json" 2> /dev/null || true
  : > "$dir/empty"
  same "$dir/empty" spart-cmp "$b.kin.csv" "$b.kin.json"
  same "$dir/empty" spart-cmp --rtol 1e-3 -n 3 "$b.jsonl" "$b.csv"
  same "$dir/empty" spart-cmp -f qm,um "$b.semi.csv" "$b.pretty.json"
  same "$b.jsonl" spart-sim -m "$m" --duration 0.003 --every 2
  same "$b.csv" spart-sim -m "$m" --duration 0.002 -o csv -j 3
  same "$dir/empty" spart-states -m "$m" --random 3 --velocities --forces -o csv
  case $m in
    *.urdf) same "$dir/empty" urdf2robot "$m" -o json ;;
    *) same "$dir/empty" dh2robot "$m" -o json ;;
  esac
done

# malformed inputs, the fuzzers' seeds and regressions: messages and exit statuses
K=models/kuka_iiwa.urdf
for in in "$dir"/bad* "$dir/empty.json" fuzz/seeds/json/* fuzz/seeds/csv/* tests/data/fuzz/json/* \
  tests/data/fuzz/csv/*; do
  for o in "" "-k" "-k -j 3" "-o csv -k" "-i csv" "-i json"; do
    # shellcheck disable=SC2086
    same "$in" spart-id -m "$K" $o
    # shellcheck disable=SC2086
    same "$in" spart-kin -m models/SC_3DoF.urdf $o
    # shellcheck disable=SC2086
    same "$in" spart-cmp $o - "$in"
  done
done

# the commands with inputs of their own
BOX=models/box_slider.urdf
printf '%s\n' '{"qm": [0, 0], "contacts": [{"link": "box", "point": [1, 0.5, -0.25], "normal": [0, 0, 2], "mu": 0}, {"link": "box", "point": [-1, 0.5, -0.25], "normal": [0, 0, 1], "mu": 0}, {"link": 0, "point": [-1, -0.5, -0.25], "normal": [0, 0, 1], "mu": 0}, {"link": 0, "point": [1, -0.5, -0.25], "normal": [0, 0, 1], "mu": 0}]}' > "$dir/corners.json"
same "$dir/corners.json" spart-contact -m "$BOX" --gravity 0,0,-9.81
same "$dir/corners.json" spart-contact -m "$BOX" --gravity 0,0,-9.81 -o csv
same "$dir/corners.json" spart-draw -m "$BOX" --gravity 0,0,-9.81
same "$dir/m0.jsonl" spart-draw -m "$(cat "$dir/m0.model")" --frames
same "$dir/empty" spart-codegen -m models/kuka_iiwa.urdf
same "$dir/empty" spart-codegen -m models/2_iiwa_base.urdf --header

# the options: every command's --help and --version; each option of a command's --help with a
# value that is not one and given twice; every pair of them with values that are (the checks of
# options together, in their order), without a model and with one
printf 't,taum_1\n0,1\n' > "$dir/inputs.csv"
printf 't,qm_1\n0,0\n' > "$dir/ref.csv"
value() { # a value option $1 takes for command $2, none for a flag
  case $1 in
    --model) echo models/SC_3DoF.urdf ;;
    --input) echo json ;;
    --output) echo csv ;;
    --jobs) echo 2 ;;
    --only) "$base/bin/$2" --help | sed -n '/--only NAMES/{n;p;}' | tr -d ' ' | cut -d, -f1 ;;
    --gravity) echo 0,0,-9.81 ;;
    --link | --frame) echo 1 ;;
    --point) echo 0,0,0.1 ;;
    --reference) [ "$2" = spart-jac ] && echo local || echo "$dir/ref.csv" ;;
    --attitude) echo quat ;;
    --edges) echo 4 ;;
    --view) echo top ;;
    --integrator) echo dopri5 ;;
    --control) echo pd ;;
    --inputs) echo "$dir/inputs.csv" ;;
    --max-steps | --every) echo 10 ;;
    --duration | --dt | --rtol | --atol | --coulomb-scale | --max-torque | --kp | --kd | --mu | \
      --stiffness | --damping | --slip | --tangential-stiffness | --tangential-damping)
      echo 0.5 ;;
  esac
}
for c in spart-kin spart-jac spart-id spart-fd spart-gim spart-sim spart-contact spart-draw; do
  opts=$("$base/bin/$c" --help | grep -o -- '--[a-z][a-z-]*' | sort -u | grep -v -e '--help' \
    -e '--version' -e '--momentum' -e '--ground')
  same "$dir/empty" "$c" --help
  same "$dir/empty" "$c" --version
  for o in $opts; do
    v=$(value "$o" "$c")
    if [ -n "$v" ]; then
      same "$dir/empty" "$c" "$o" x
      same "$dir/empty" "$c" "$o" "$v" "$o" "$v"
    else
      same "$dir/empty" "$c" "$o" "$o"
    fi
  done
  for m in "" models/SC_3DoF.urdf; do
    for a in $opts --ground; do
      for b in $opts --ground; do
        [ "$a" \< "$b" ] || continue
        # (--csv without a model and -k: the reader says its error again and again, for ever)
        [ -n "$m" ] || [ "$a $b" != "--csv --keep-going" ] || continue
        va=$(value "$a" "$c")
        vb=$(value "$b" "$c")
        # shellcheck disable=SC2086
        same "$dir/empty" "$c" ${m:+-m "$m"} "$a" $va "$b" $vb
      done
    done
  done
done
for c in spart-cmp spart-codegen spart-states urdf2robot dh2robot; do
  same "$dir/empty" "$c" --help
  same "$dir/empty" "$c" --version
  same "$dir/empty" "$c" --bogus
done

echo "$runs runs, $([ $fail = 0 ] && echo "all the same" || echo "DIFFERENCES")"
exit $fail
