"""wrenchcheck.py -- spart-id --joint-wrenches checked from spart-kin's outputs alone (issue 29):

- S'w = taum for every joint (1e-12 of the scale): the joint's columns of spart-kin --diffkin's
  pm (its motion subspace at the link CoM, inertial frame) against w moved to the CoM
- the Newton-Euler balance of every link (1e-9): the wrench of its joint, less its children's,
  plus its external wrench and weight, is the rate of its momentum [I alpha + w x I w; m a]
  (spart-kin's tL, tLdot, Im, rJ, rL; the masses from the model JSON)
- the base's: tau0 of spart-id (the reaction of the ground with --fixed-base) balances the
  wrenches of the base's joints, its external wrench and its weight, and its own momentum rate

usage: wrenchcheck.py MODEL [--fixed-base] [--floating]
(armature-free models, spart-id --no-friction: taum is then S'w exactly); a model JSON of
urdf2robot --revolute sincos or --floating spquat too
"""
import json
import math
import subprocess
import sys

from spartcheck import run, matvec, close

model = sys.argv[1]
fixed = "--fixed-base" in sys.argv
mj = json.loads(subprocess.run(["urdf2robot", model], capture_output=True, text=True,
                               check=True).stdout)
n, nq, nv = mj["n_links_joints"], mj["n_q"], mj.get("n_v", mj["n_q"])
parent = [None] + [j["parent_link"] for j in mj["joints"]]
mass = [mj["base_link"]["mass"]] + [l["mass"] for l in mj["links"]]
g = [0.3, -0.5, -9.81]


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def moved(w, frm, to):
    """the wrench w at point frm, at point to: [n + (frm - to) x f; f]"""
    d = [a - b for a, b in zip(frm, to)]
    return [a + b for a, b in zip(w[:3], cross(d, w[3:]))] + w[3:]


# a state with every joint away from zero, unit quaternions (the model's joint neutral moved)
qm = [0.3 * math.sin(1.3 * k + 0.5) for k in range(nq)]
# a quaternion needs unit norm: normalise runs of four after a floating or ball joint
qa = 0
for j in mj["joints"]:
    t = j["type"]
    k = {0: 0, 1: 1, 2: 1, 3: 7, 4: 4, 5: 3, 6: 2, 7: 6}[t]
    if t in (3, 4):
        s = math.sqrt(sum(x * x for x in qm[qa:qa + 4]))
        qm[qa:qa + 4] = [x / s for x in qm[qa:qa + 4]]
    if t == 6:
        s = math.hypot(qm[qa], qm[qa + 1])
        qm[qa:qa + 2] = [x / s for x in qm[qa:qa + 2]]
    qa += k
u0 = [0.0] * 6 if fixed else [0.2, -0.1, 0.3, 0.5, -0.2, 0.1]
u0d = [0.0] * 6 if fixed else [-0.4, 0.2, 0.1, 0.3, 0.6, -0.5]
rec = {"R0": [[0.36, 0.48, -0.8], [-0.8, 0.6, 0], [0.48, 0.64, 0.6]], "r0": [0.4, -0.3, 0.2],
       "qm": qm, "u0": u0, "um": [0.4 * math.cos(0.7 * k) for k in range(nv)],
       "u0dot": u0d, "umdot": [0.9 * math.sin(1.1 * k + 0.2) for k in range(nv)],
       "wF0": [0.1, -0.2, 0.3, 1, -2, 0.5],
       "wFm": [[0.05 * math.sin(i + k) for k in range(6)] for i in range(n)]}
fb = ["--fixed-base"] if fixed else []
ido = run(["spart-id", "-m", model, "--no-friction", "--joint-wrenches", "--gravity",
           ",".join(map(str, g))] + fb, rec)[0]
kin = run(["spart-kin", "-m", model, "--diffkin", "--inertia"], rec)[0]
W = ido["joint_wrenches"]
assert len(W) == n and all(len(w) == 6 for w in W), "joint_wrenches is n x 6"
rL, rJ, tL, tLd, Im, pm = kin["rL"], kin["rJ"], kin["tL"], kin["tLdot"], kin["Im"], kin["pm"]

# S'w = taum: pm has one row per degree of freedom (a fixed joint one row of zeros)
row, v = 0, 0
for i in range(1, n + 1):
    nvi = {0: 0, 1: 1, 2: 1, 3: 6, 4: 3, 5: 3, 6: 1, 7: 6}[mj["joints"][i - 1]["type"]]
    wc = moved(W[i - 1], rJ[i - 1], rL[i - 1])
    got = [sum(a * b for a, b in zip(pm[row + k], wc)) for k in range(nvi)]
    close(got, ido["taum"][v:v + nvi], 1e-12, f"S'w = taum at joint {i}")
    row += max(nvi, 1)
    v += nvi


def rate(I, w, al, m, a):
    return [x + y for x, y in zip(matvec(I, al), cross(w, matvec(I, w)))] + [m * x for x in a]


# every link: w_i - sum w_c + wF_i + m g = momentum rate, at its CoM
for i in range(1, n + 1):
    tot = moved(W[i - 1], rJ[i - 1], rL[i - 1])
    for c in range(1, n + 1):
        if parent[c] == i:
            tot = [a - b for a, b in zip(tot, moved(W[c - 1], rJ[c - 1], rL[i - 1]))]
    tot = [a + b for a, b in zip(tot, rec["wFm"][i - 1])]
    tot = tot[:3] + [a + mass[i] * b for a, b in zip(tot[3:], g)]
    want = rate(Im[i - 1], tL[i - 1][:3], tLd[i - 1][:3], mass[i], tLd[i - 1][3:])
    close(tot, want, 1e-9, f"Newton-Euler balance of link {i}")

# the base: tau0 (torque in the base frame, force inertial) is the root joint's wrench
R0 = rec["R0"]
tau0 = ido["tau0"]
tot = matvec(R0, tau0[:3]) + tau0[3:]
for c in range(1, n + 1):
    if parent[c] == 0:
        tot = [a - b for a, b in zip(tot, moved(W[c - 1], rJ[c - 1], rec["r0"]))]
tot = [a + b for a, b in zip(tot, rec["wF0"])]
tot = tot[:3] + [a + mass[0] * b for a, b in zip(tot[3:], g)]
w0 = kin["t0"][:3]  # inertial (SPART t0 = P0 u0)
al0 = kin["t0dot"][:3]
I0 = kin["I0"]
want = rate(I0, w0, al0, mass[0], kin["t0dot"][3:])
close(tot, want, 1e-9, "the base: tau0 balances its joints' wrenches")
print(model, "ok", "fixed" if fixed else "floating")
