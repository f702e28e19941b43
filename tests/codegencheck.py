"""codegencheck.py -- tests/spart-codegen.bats: the code spart-codegen wrote for a model, built
with tests/codegen_driver.c, against spart's own commands at random states.

usage: codegencheck.py MODEL fixed|floating DRIVER [N [SEED]]

Draws N random states (a random rotation R0, positions, velocities, accelerations, forces and
one gravity for the run), runs DRIVER on them and spart-id, spart-gim, spart-fd, spart-kin and
spart-jac (each link) on the same states as JSON records, and compares every number: each must
agree to 1e-12 relative to the largest magnitude of its field in that record (at least 1).
Prints the largest such error of each field; exit 1 at the first that is over."""
import json
import math
import random
import subprocess
import sys

TOL = 1e-12


def run(cmd, lines):
    p = subprocess.run(cmd, input="".join(lines), capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("codegencheck: %s: exit %d: %s" % (" ".join(cmd), p.returncode, p.stderr))
    return [json.loads(l) for l in p.stdout.splitlines()]


def flat(x):
    if isinstance(x, list):
        return [y for e in x for y in flat(e)]
    return [x]


def rotation(rng):
    w, x, y, z = (rng.gauss(0, 1) for _ in range(4))
    n = math.sqrt(w * w + x * x + y * y + z * z)
    w, x, y, z = w / n, x / n, y / n, z / n
    return [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
            2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
            2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]


def main():
    model, kind, driver = sys.argv[1:4]
    n = int(sys.argv[4]) if len(sys.argv) > 4 else 20
    rng = random.Random(int(sys.argv[5]) if len(sys.argv) > 5 else 1)
    fixed = kind == "fixed"
    base = ["--fixed-base"] if fixed else []
    summary = json.loads(subprocess.run(["urdf2robot", model], capture_output=True, text=True,
                                        check=True).stdout)
    nq = summary["n_q"]
    nl = summary["n_links_joints"]
    g = [rng.uniform(-10, 10) for _ in range(3)]
    grav = ["--gravity", ",".join(repr(x) for x in g)]
    u = lambda k, s=1.0: [rng.uniform(-s, s) for _ in range(k)]
    states, nums = [], []
    for _ in range(n):
        s = {"R0": rotation(rng), "r0": u(3), "qm": u(nq, math.pi), "u0": u(6), "um": u(nq, 2),
             "u0dot": u(6), "umdot": u(nq, 2), "tau0": u(6), "taum": u(nq, 5)}
        if fixed:
            s.update(R0=[1, 0, 0, 0, 1, 0, 0, 0, 1], r0=[0, 0, 0], u0=[0] * 6, u0dot=[0] * 6,
                     tau0=[0] * 6)
            x = s["qm"] + s["um"] + s["umdot"] + s["taum"] + g
        else:
            x = (s["R0"] + s["r0"] + s["qm"] + s["u0"] + s["um"] + s["u0dot"] + s["umdot"] +
                 s["tau0"] + s["taum"] + g)
        states.append(s)
        nums.append(" ".join(repr(v) for v in x) + "\n")
    got = [json.loads(l) for l in subprocess.run([driver], input="".join(nums),
                                                 capture_output=True, text=True,
                                                 check=True).stdout.splitlines()]
    if len(got) != n:
        sys.exit("codegencheck: the driver wrote %d records for %d states" % (len(got), n))

    def rec(s, keys):
        r = {k: s[k] for k in keys}
        r["R0"] = [s["R0"][0:3], s["R0"][3:6], s["R0"][6:9]]
        return json.dumps(r) + "\n"

    st = ["R0", "r0", "qm", "u0", "um", "u0dot", "umdot"]
    ids = run(["spart-id", "-m", model] + base + grav, [rec(s, st) for s in states])
    gims = run(["spart-gim", "-m", model] + base, [rec(s, ["R0", "qm"]) for s in states])
    fds = run(["spart-fd", "-m", model] + base + grav,
              [rec(s, ["R0", "qm", "u0", "um", "tau0", "taum"]) for s in states])
    kins = run(["spart-kin", "-m", model], [rec(s, ["R0", "r0", "qm"]) for s in states])
    jacs = [run(["spart-jac", "-m", model, "--link", str(i)],
                [rec(s, ["R0", "r0", "qm"]) for s in states]) for i in range(1, nl + 1)]
    worst, bad = {}, {}
    for k in range(n):
        want = {"taum": flat(ids[k]["taum"]), "umdot": flat(fds[k]["umdot"])}
        if fixed:
            want["H"] = flat(gims[k]["Hm"])
        else:
            want["H"] = flat(gims[k]["H"])
            want["tau0"] = flat(ids[k]["tau0"])
            want["u0dot"] = flat(fds[k]["u0dot"])
        T = []
        for i in range(nl):
            R, r = kins[k]["RL"][i], kins[k]["rL"][i]
            T += R[0] + [r[0]] + R[1] + [r[1]] + R[2] + [r[2]] + [0, 0, 0, 1]
        want["T"] = T
        want["Jm"] = [x for i in range(nl) for x in flat(jacs[i][k]["Jm"])]
        if not fixed:
            want["J0"] = [x for i in range(nl) for x in flat(jacs[i][k]["J0"])]
        for f, w in want.items():
            h = got[k][f]
            if len(h) != len(w):
                sys.exit("codegencheck: %s: %d numbers, spart gives %d" % (f, len(h), len(w)))
            scale = max([1.0] + [abs(x) for x in w])
            err = max([abs(a - b) / scale for a, b in zip(h, w)] + [0.0])
            worst[f] = max(worst.get(f, 0.0), err)
            if not err <= TOL and f not in bad:
                bad[f] = "codegencheck: %s %s state %d: %s differs by %.3g (relative), over %g" % (
                    model, kind, k, f, err, TOL)
    print(" ".join("%s %.2g" % kv for kv in sorted(worst.items())))
    if bad:
        sys.exit("\n".join(bad.values()))


main()
