"""The momentum and kinetic energy of a robot from spart-kin's output and the model JSON, for
the conservation checks of spart-sim (tests/spart-sim.bats): independent of libspart's dynamics.
Usage: simcheck.py MODEL.json SIM.csv KIN.jsonl (spart-sim's CSV records and spart-kin's of
them, line by line) -> one line a record: t, momentum (6: angular about the CoM, linear),
kinetic energy."""
import csv
import json
import sys


def rot_inertia(R, I):
    """R I R'"""
    RI = [[sum(R[i][k] * I[k][j] for k in range(3)) for j in range(3)] for i in range(3)]
    return [[sum(RI[i][k] * R[j][k] for k in range(3)) for j in range(3)] for i in range(3)]


def mv(A, x):
    return [sum(a * b for a, b in zip(row, x)) for row in A]


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def bodies(model, sim, rec):
    """(mass, inertia about the CoM in the link frame, R, position, twist) a body"""
    R0 = [[float(sim["R0_%d_%d" % (i, j)]) for j in (1, 2, 3)] for i in (1, 2, 3)]
    r0 = [float(sim["r0_%d" % i]) for i in (1, 2, 3)]
    out = [(model["base_link"]["mass"], model["base_link"]["inertia"], R0, r0, rec["t0"])]
    for k, link in enumerate(model["links"]):
        out.append((link["mass"], link["inertia"], rec["RL"][k], rec["rL"][k], rec["tL"][k]))
    return out


def main():
    model = json.load(open(sys.argv[1]))
    for sim, line in zip(csv.DictReader(open(sys.argv[2])), open(sys.argv[3])):
        rec = json.loads(line)
        bs = bodies(model, sim, rec)
        mass = sum(b[0] for b in bs)
        com = [sum(b[0] * b[3][k] for b in bs) / mass for k in range(3)]
        L, p, T = [0, 0, 0], [0, 0, 0], 0
        for m, I, R, x, tw in bs:
            w, v = tw[:3], tw[3:]
            Iw = mv(rot_inertia(R, I), w)
            h = cross([a - c for a, c in zip(x, com)], v)
            L = [L[k] + Iw[k] + m * h[k] for k in range(3)]
            p = [p[k] + m * v[k] for k in range(3)]
            T += 0.5 * (m * sum(a * a for a in v) + sum(a * b for a, b in zip(w, Iw)))
        print(json.dumps({"t": float(sim["t"]), "momentum": L + p, "kinetic_energy": T}))


main()
