"""derivcheck.py -- spart-id --derivatives and spart-fd --derivatives, --linearize against central
finite differences of spart-id and spart-fd themselves, at random states, and the identities
that tie them to spart-gim's H.

usage: derivcheck.py MODEL flying|fixed [--mimic]

The states: spart-states --random's qm, um, umdot, taum (seed 7; with --mimic, whose records
hold the system's coordinates, which spart-states does not write, the leaders' coordinates drawn
here, seeded), and for a flying base a random R0, r0, u0, u0dot, tau0 and wF0; gravity
0,0,-9.81.  The configuration is moved on its manifold along the velocity coordinates: R0
exp(h [e_k]x) (u0's omega0 is in the base frame), r0 + h e_k, a ball or floating joint's
quaternion q exp(h e_k / 2) (its angular velocity is in the frame after it), a floating joint's
position p + h R(q) e_k (its linear velocity too), every other joint's coordinate + h; h = 1e-6.
The velocities and forces by +-1e-4: the functions are quadratic and linear in them (exact
differences but for rounding and the Coulomb friction's jump at 0, which no random velocity is
that near).  Every perturbed record of a state goes through one run of the command.

Checks: each derivative matrix within 1e-6 of its largest entry of the differences; the
identities to 1e-10 of their scale: dtau_du u = 2 (ID(q, u, 0) - ID(q, 0, 0)) with
--no-friction, dudot_dq = -H^-1 dtau_dq at (q, u, FD(q, u, tau)) (dtau_dq from spart-id at
spart-fd's accelerations, H from spart-gim), dudot_dtau H = I, and A, B built of the derivatives.
Prints one line a check; exit 1 if any fails."""
import json
import math
import random
import subprocess
import sys

H_Q, H_U, TOL, TOL_ID = 1e-6, 1e-4, 1e-6, 1e-10
NQ = {1: 1, 2: 1, 3: 7, 4: 4, 8: 1}
NV = {1: 1, 2: 1, 3: 6, 4: 3, 8: 1}

model, mode = sys.argv[1], sys.argv[2]
mimic = sys.argv[3:] == ["--mimic"]
flying = mode == "flying"
opts = ["-m", model, "--gravity", "0,0,-9.81"] + (["--mimic"] if mimic else [])
opts += [] if flying else ["--fixed-base"]
failed = 0


def run(cmd, records, extra=()):
    out = subprocess.run(cmd + opts + list(extra), input="".join(json.dumps(r) + "\n" for r in records),
                         capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def rot(w):
    """exp([w]x) by Rodrigues"""
    t = math.sqrt(sum(x * x for x in w))
    if t == 0:
        return [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    k = [x / t for x in w]
    c, s = math.cos(t), math.sin(t)
    K = [[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]]
    return [[(i == j) + s * K[i][j] + (1 - c) * sum(K[i][l] * K[l][j] for l in range(3))
             for j in range(3)] for i in range(3)]


def mul(A, B):
    return [[sum(A[i][k] * B[k][j] for k in range(len(B))) for j in range(len(B[0]))]
            for i in range(len(A))]


def qmul(a, b):
    w1, x1, y1, z1 = a
    w2, x2, y2, z2 = b
    return [w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
            w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2]


def qrot(q):
    w, x, y, z = q
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]


# the joints' kinds and coordinates, in velocity order (with --mimic the leaders' alone)
m = json.loads(subprocess.run(["urdf2robot", model], capture_output=True, text=True,
                              check=True).stdout)
joints = [j for j in m["joints"] if j["type"] != 0 and not (mimic and j.get("mimic"))]
dofs = []  # (kind, first coordinate, k within the joint)
qa = 0
for j in joints:
    if j["type"] not in NV:
        sys.exit("derivcheck.py: joint kind %d not handled here" % j["type"])
    dofs += [(j["type"], qa, k) for k in range(NV[j["type"]])]
    qa += NQ[j["type"]]
nv, b = len(dofs), 6 if flying else 0
n = b + nv


def moved(x, k, h, what):
    """x moved by h along coordinate k: what 'q', 'u' or 'tau'"""
    y = json.loads(json.dumps(x))
    if what != "q":
        base, joint = {"u": ("u0", "um"), "tau": ("tau0", "taum")}[what]
        if k < b:
            y[base][k] += h
        else:
            y[joint][k - b] += h
        return y
    if k < 3 and b:
        y["R0"] = mul(y["R0"], rot([h if i == k else 0 for i in range(3)]))
    elif k < b:
        y["r0"][k - 3] += h
    else:
        kind, a, i = dofs[k - b]
        q = y["qm"]
        if kind in (3, 4) and i < 3:
            e = [0, 0, 0]
            e[i] = h / 2
            t = math.sqrt(sum(v * v for v in e))
            d = [math.cos(t)] + [v / t * math.sin(t) for v in e]
            q[a:a + 4] = qmul(q[a:a + 4], d)
        elif kind == 3:
            R = qrot(q[a:a + 4])
            for r in range(3):
                q[a + 4 + r] += h * R[r][i - 3]
        else:
            q[a] += h
    return y


def vec(r, base, joint):
    return (r[base] if b else []) + r[joint]


def check(name, worst, tol):
    global failed
    ok = worst <= tol
    failed += not ok
    print("%s %s %s: %s (worst %.3g)" % ("ok" if ok else "FAIL", model.split("/")[-1], mode, name,
                                         worst))


def rel(A, D):
    s = max(abs(v) for row in D for v in row) or 1e-300
    return max(abs(A[i][j] - D[i][j]) for i in range(len(D)) for j in range(len(D))) / s


# the states
rng = random.Random(7)
if mimic:
    states = [{"qm": [rng.uniform(-0.5, 0.5) for _ in range(nv)],
               "um": [rng.uniform(-1, 1) for _ in range(nv)],
               "umdot": [rng.uniform(-1, 1) for _ in range(nv)],
               "taum": [rng.uniform(-1, 1) for _ in range(nv)]} for _ in range(3)]
else:
    out = subprocess.run(["spart-states", "-m", model, "--random", "3", "--seed", "7",
                          "--velocities", "--accelerations", "--forces"], capture_output=True,
                         text=True, check=True).stdout
    states = [json.loads(line) for line in out.splitlines()]
for x in states:
    if flying:
        x["R0"] = rot([rng.uniform(-2, 2) for _ in range(3)])
        x["r0"] = [rng.uniform(-1, 1) for _ in range(3)]
        for f in ("u0", "u0dot", "tau0", "wF0"):
            x[f] = [rng.uniform(-1, 1) for _ in range(6)]
    else:
        x["u0"] = [0] * 6
        x["tau0"] = [0] * 6

worst = {}
for x in states:
    dI = run(["spart-id", "--derivatives"], [x])[0]
    dF = run(["spart-fd", "--derivatives", "--linearize"], [x])[0]
    for cmd, outs, ders in (("spart-id", ("tau0", "taum"), (("q", "dtau_dq"), ("u", "dtau_du"))),
                            ("spart-fd", ("u0dot", "umdot"),
                             (("q", "dudot_dq"), ("u", "dudot_du"), ("tau", "dudot_dtau")))):
        got = dI if cmd == "spart-id" else dF
        for what, name in ders:
            h = H_Q if what == "q" else H_U
            recs = [moved(x, k, s * h, what) for k in range(n) for s in (1, -1)]
            r = run([cmd], recs)
            D = [[0] * n for _ in range(n)]
            for k in range(n):
                fp, fm = vec(r[2 * k], *outs), vec(r[2 * k + 1], *outs)
                for i in range(n):
                    D[i][k] = (fp[i] - fm[i]) / (2 * h)
            worst[name] = max(worst.get(name, 0), rel(got[name], D))
    # A and B are the derivatives
    A, B = dF["A"], dF["B"]
    e = 0
    for i in range(n):
        for j in range(n):
            e = max(e, abs(A[i][j]), abs(A[i][n + j] - (i == j)), abs(A[n + i][j] - dF["dudot_dq"][i][j]),
                    abs(A[n + i][n + j] - dF["dudot_du"][i][j]), abs(B[i][j]),
                    abs(B[n + i][j] - dF["dudot_dtau"][i][j]))
    worst["A, B"] = max(worst.get("A, B", 0), e)
    # dtau_du u = 2 (ID(q, u, 0) - ID(q, 0, 0)), no friction
    z = dict(x, u0dot=[0] * 6, umdot=[0] * nv)
    r = run(["spart-id", "--derivatives", "--no-friction"], [z, dict(z, u0=[0] * 6, um=[0] * nv)])
    u = vec(x, "u0", "um")
    lhs = [sum(r[0]["dtau_du"][i][k] * u[k] for k in range(n)) for i in range(n)]
    rhs = [2 * (p - q) for p, q in zip(vec(r[0], "tau0", "taum"), vec(r[1], "tau0", "taum"))]
    s = max(abs(v) for v in rhs) or 1
    worst["dtau_du u"] = max(worst.get("dtau_du u", 0), max(abs(p - q) for p, q in zip(lhs, rhs)) / s)
    # dudot_dq = -H^-1 dtau_dq at FD, dudot_dtau H = I
    a = dict(x, u0dot=dF["u0dot"] if flying else [0] * 6, umdot=dF["umdot"])
    dq = run(["spart-id", "--derivatives"], [a])[0]["dtau_dq"]
    g = run(["spart-gim"], [x])[0]
    H = g["H"] if flying else g["Hm"]
    HdF = mul(H, dF["dudot_dq"])
    s = max(abs(v) for row in dq for v in row)
    worst["H dudot_dq = -dtau_dq"] = max(worst.get("H dudot_dq = -dtau_dq", 0), max(
        abs(HdF[i][j] + dq[i][j]) for i in range(n) for j in range(n)) / s)
    P = mul(dF["dudot_dtau"], H)
    worst["dudot_dtau H = I"] = max(worst.get("dudot_dtau H = I", 0), max(
        abs(P[i][j] - (i == j)) for i in range(n) for j in range(n)))

for name in ("dtau_dq", "dtau_du", "dudot_dq", "dudot_du", "dudot_dtau"):
    check(name + " = central differences", worst[name], TOL)
for name in ("A, B", "dtau_du u", "H dudot_dq = -dtau_dq", "dudot_dtau H = I"):
    check(name, worst[name], TOL_ID)
sys.exit(1 if failed else 0)
