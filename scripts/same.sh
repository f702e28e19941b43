#!/bin/sh
# same.sh BASE -- this tree's outputs against another built tree's (BASE: its bin/, e.g. a
# worktree of an older commit), for a change that must keep every output (a redesign, a faster
# algorithm): every compute command on every bundled model, 20 random states each, fixed and
# floating base, kinematics, Jacobians, inertia matrices, inverse and forward dynamics; each
# field BASE writes within 1e-12 relative (1e-13 absolute near zero) by spart-cmp.  A run BASE
# refuses (an option it does not have) is skipped and said.  Exit 1 at any difference.
# A difference is not always a regression: forward dynamics of an ill-conditioned model differs
# in its last digits between two correct algorithms; check which is closer (spart-id on both).
set -eu
cd "$(dirname "$0")/.."
[ $# -eq 1 ] || { echo "usage: scripts/same.sh BASE" >&2; exit 2; }
base=$1
dir=$(mktemp -d)
fail=0
for m in models/*.urdf models/*.dh.json; do
  python3 - "$m" "$dir" <<'PY'
import json, math, random, subprocess, sys
m, d = sys.argv[1], sys.argv[2]
out = subprocess.run(["bin/urdf2robot" if m.endswith(".urdf") else "bin/dh2robot", m, "-o", "json"], capture_output=True, text=True, check=True).stdout
n = json.loads(out)["n_q"]
random.seed(7)
def rot():
    a, b, c = (random.uniform(-3, 3) for _ in range(3))
    ca, sa, cb, sb, cc, sc = math.cos(a), math.sin(a), math.cos(b), math.sin(b), math.cos(c), math.sin(c)
    Rz = [[ca, -sa, 0], [sa, ca, 0], [0, 0, 1]]; Ry = [[cb, 0, sb], [0, 1, 0], [-sb, 0, cb]]; Rx = [[1, 0, 0], [0, cc, -sc], [0, sc, cc]]
    mul = lambda A, B: [[sum(A[i][k] * B[k][j] for k in range(3)) for j in range(3)] for i in range(3)]
    return mul(mul(Rz, Ry), Rx)
v = lambda k: [random.uniform(-1, 1) for _ in range(k)]
recs = {"kin": [], "acc": [], "fd": [], "flo": [], "fkin": [], "facc": [], "ffd": []}
for _ in range(20):
    s = {"R0": rot(), "r0": v(3), "qm": v(n), "u0": v(6), "um": v(n)}
    recs["kin"].append(s)
    recs["acc"].append(dict(s, u0dot=v(6), umdot=v(n)))
    recs["fd"].append(dict(s, tau0=v(6), taum=v(n)))
    recs["flo"].append(dict(s, umdot=v(n)))
    z = dict(s, u0=[0] * 6)
    recs["fkin"].append(z)
    recs["facc"].append(dict(z, u0dot=[0] * 6, umdot=v(n)))
    recs["ffd"].append(dict(z, taum=v(n)))
for k, r in recs.items():
    with open(f"{d}/{k}.jsonl", "w") as f:
        for x in r: f.write(json.dumps(x) + "\n")
PY
  for run in "spart-kin kin" "spart-jac kin --noc" "spart-jac kin --link 1" "spart-jac fkin --noc --fixed-base" \
    "spart-gim kin" "spart-gim fkin --fixed-base" "spart-id acc" "spart-id facc --fixed-base" \
    "spart-id flo --floating" "spart-fd fd" "spart-fd ffd --fixed-base" "spart-kin acc"; do
    set -- $run
    cmd=$1 in=$2
    shift 2
    "$base/bin/$cmd" -m "$m" "$@" < "$dir/$in.jsonl" > "$dir/b.out" 2> "$dir/b.err" || { echo "skip $m $cmd $*: base: $(head -c 100 "$dir/b.err")"; continue; }
    bin/$cmd -m "$m" "$@" < "$dir/$in.jsonl" > "$dir/n.out" 2> "$dir/n.err" || { echo "FAIL $m $cmd $*: $(head -c 200 "$dir/n.err")"; fail=1; continue; }
    # the fields of BASE's output (this tree may pass the input's through)
    # (those with values: a model without joints writes taum, Hm... as empty arrays, which
    # spart-cmp has nothing of to compare; the bytes of those are same-bytes.sh's)
    f=$(head -1 "$dir/b.out" | python3 -c 'import json,sys
def n(v): return sum(n(e) for e in v) if isinstance(v, list) else 1
print(",".join(k for k, v in json.loads(sys.stdin.readline()).items() if n(v) > 0))')
    if [ -z "$f" ] && cmp "$dir/b.out" "$dir/n.out" > "$dir/cmp" 2>&1; then
      echo "ok $m $cmd $* (no values: the same bytes)"
    elif [ -n "$f" ] && bin/spart-cmp --rtol 1e-12 --atol 1e-13 -f "$f" -n 3 "$dir/b.out" "$dir/n.out" > "$dir/cmp" 2>&1; then
      echo "ok $m $cmd $* ($f)"
    else
      echo "DIFF $m $cmd $*"; head -5 "$dir/cmp"; fail=1
    fi
  done
done
rm -rf "$dir"
exit $fail
