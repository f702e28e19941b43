"""slopefit.py -- a body on the plane through 0 tilted 20 degrees about y, normal
(-sin 20, 0, cos 20) (tests/sim-ground.bats, tests/sim-implicit.bats, with helper.bash's bodies):
  plane      prints the plane as --ground takes it;
  block      prints the initial state of the 1 kg box on its face, turned with the plane,
             pressed in by its static depth mg cos 20 / (4 k) (k the default stiffness, mg / 4 mm);
  ball       prints the ball's, pressed in by mg cos 20 / k;
spart-sim's states (JSON lines on stdin) checked from t = 1 s on against closed forms:
  hold       it moves less than 1 mm down the slope;
  slide MU   it slides at g (sin 20 - MU cos 20), within 1%;
  roll       it rolls (a solid ball) at 5/7 g sin 20, within 1%.
The acceleration is the least-squares fit s = s0 + v0 t + a t^2 / 2 of the distance down the
slope."""
import json
import math
import sys

T20, G = math.radians(20), 9.81
DOWN = [-math.cos(T20), 0, -math.sin(T20)]
C, S = math.cos(T20), math.sin(T20)
if sys.argv[1] == "plane":
    print("%r,0,%r,0" % (-S, C))
    sys.exit(0)
if sys.argv[1] in ("block", "ball"):
    K = 9.81 / 4e-3  # the default stiffness of a 1 kg body: mg / 4 mm
    d = 9.81 * C / (4 * K if sys.argv[1] == "block" else K)
    state = {"r0": [(0.1 - d) * -S, 0, (0.1 - d) * C]}
    if sys.argv[1] == "block":
        state = dict({"R0": [[C, 0, -S], [0, 1, 0], [S, 0, C]]}, **state)
    print(json.dumps(state))
    sys.exit(0)
rows = [json.loads(line) for line in sys.stdin]
ts = [r["t"] for r in rows if r["t"] >= 1]
ss = [sum(a * b for a, b in zip(r["r0"], DOWN)) for r in rows if r["t"] >= 1]
assert len(ts) > 10, len(ts)
if sys.argv[1] == "hold":
    moved = max(abs(s - ss[0]) for s in ss)
    print("held: moved", moved, "m from t = 1 s on; in all", ss[-1])
    assert moved < 1e-3, moved
    sys.exit(0)
A = [[1, t, t * t / 2] for t in ts]
M = [[sum(a[p] * a[q] for a in A) for q in range(3)] + [sum(a[p] * s for a, s in zip(A, ss))]
     for p in range(3)]
for c in range(3):
    for r in range(3):
        if r != c:
            f = M[r][c] / M[c][c]
            M[r] = [x - f * y for x, y in zip(M[r], M[c])]
a = M[2][3] / M[2][2]
if sys.argv[1] == "roll":
    want = 5 / 7 * G * math.sin(T20)
else:
    want = G * (math.sin(T20) - float(sys.argv[2]) * math.cos(T20))
print(" ".join(sys.argv[1:]), "at", a, "want", want)
assert abs(a - want) <= 0.01 * want, (a, want)
