"""helixcheck.py -- helical joints (issue 29) against the same robot with each helical joint a
revolute joint, a massless link and a prismatic joint on the same axis at the same origin, the
prismatic one a <mimic> of the revolute by h = P / (2 pi), coupled (--mimic): the two systems
have the same coordinates, so at random states (spart-states on the helical model) the two
give, to 1e-9 of each quantity's scale:

- poses and twists of the links (spart-kin RL, rL, tL; the pair's massless links left out),
  the joints' positions and axes (rJ, e), the CoM, the momentum and the kinetic energy
- Jacobians of a link's CoM and of a point on it, their derivatives, the CoM Jacobian and the
  centroidal momentum matrix (spart-jac)
- H, C, C u and G (spart-gim), FD (spart-fd) and ID (spart-id), each with a floating and a
  fixed base
- the statics of spart-contact (the pair free at q and h q: it takes no coupled model) and a
  short run of spart-sim

usage: helixcheck.py HELICAL.urdf PAIR.urdf
prints one line a quantity (its worst deviation), then "N passed, N failed"
"""
import math
import sys

from spartcheck import run

HEL, PAIR = sys.argv[1], sys.argv[2]
npass = nfail = 0


def flat(x):
    return [v for e in x for v in flat(e)] if isinstance(x, list) else [x]


def worst(a, b):
    fa, fb = flat(a), flat(b)
    if len(fa) != len(fb):
        return float("inf"), 1.0
    scale = max([abs(v) for v in fb] + [1.0])
    return max([abs(p - q) for p, q in zip(fa, fb)] + [0.0]), scale


dev = {}


def check(what, a, b):
    err, scale = worst(a, b)
    e, s = dev.get(what, (0.0, 1.0))
    if err / scale >= e / s:
        dev[what] = (err, scale)


# the helical model's links and joints among the pair's: the pair's links less its massless
# l1_mid and l3_mid, each helical joint as the pair's revolute joint
hel_links = ["l1", "l2", "l3", "l4"]
pair_links = ["l1_mid", "l1", "l2", "l3_mid", "l3", "l4"]
LK = [pair_links.index(n) for n in hel_links]
JK = [0, 2, 3, 5]  # j1, j2, j3, j4 among j1, j1_lin, j2, j3, j3_lin, j4

states = run(["spart-states", "-m", HEL, "--random", "12", "--seed", "29", "--velocities",
              "--accelerations", "--forces"])
G = "0.3,-0.2,-9.81"
for k, s in enumerate(states):
    s["R0"] = [[1, 0, 0], [0, 0.6, -0.8], [0, 0.8, 0.6]] if k % 2 else [[1, 0, 0], [0, 1, 0],
                                                                         [0, 0, 1]]
    s["r0"] = [0.1 * k, -0.2, 0.3]
    s["u0"] = [0.1, -0.2, 0.3 - 0.05 * k, 0.4, 0.1, -0.3]
    s["u0dot"] = [0.2, 0.1, -0.1, 0.3, -0.2, 0.05 * k]
    s["tau0"] = [0.5, -0.1, 0.2, 1.0, -2.0, 0.3]


def both(args, recs, quantities, pick=None):
    h = run(["spart-" + args[0], "-m", HEL] + args[1:], *recs)
    p = run(["spart-" + args[0], "-m", PAIR, "--mimic"] + args[1:], *recs)
    for rh, rp in zip(h, p):
        for q in quantities:
            b = rp[q]
            if pick and q in pick:
                b = [b[i] for i in pick[q]]
            check(q if not args[1:] else q + " (" + " ".join(args[1:]) + ")", rh[q], b)


link_pick = {q: LK for q in ("RL", "rL", "tL")}
link_pick.update({q: JK for q in ("rJ", "e")})
both(["kin", "--momentum", "--energy"], states,
     ["RL", "rL", "tL", "rJ", "e", "r_com", "t0", "momentum", "kinetic_energy"], link_pick)
for link in ("l1", "l3", "l4"):
    both(["jac", "--link", link, "--dot", "--com", "--centroidal"], states,
         ["J0", "Jm", "J0dot", "Jmdot", "J0_com", "Jm_com", "AG", "AGdot_u"])
    both(["jac", "--link", link, "--point", "0.1,-0.05,0.2", "--dot"], states,
         ["J0", "Jm", "J0dot", "Jmdot", "r_point"])
fixed = [{k: v for k, v in s.items() if k not in ("u0", "u0dot", "tau0")} for s in states]
for base, recs in (([], states), (["--fixed-base"], fixed)):
    gim = ["H", "C", "Cu", "G"] if not base else ["Hm", "Cm", "Cu", "G"]
    both(["gim", "--coriolis", "--gravity", G] + base, recs, gim)
    both(["fd", "--gravity", G] + base, recs, ["umdot"] + ([] if base else ["u0dot"]))
    both(["id", "--gravity", G] + base, recs, ["taum"] + ([] if base else ["tau0"]))

# spart-contact (which takes no coupled model): the pair free, at the helical joints' q and h q;
# the statics of the whole robot agree (contacts on the base)
H1, H3 = -0.02 / (2 * math.pi), 0.05 / (2 * math.pi)
contacts = [{"link": "base", "point": [x, y, -0.3], "normal": [0, 0, 1], "mu": 0.5}
            for x, y in ((0.3, 0.2), (-0.3, 0.2), (-0.3, -0.2), (0.3, -0.2))]
for s in states[:4]:
    q = s["qm"]
    qp = [q[0], H1 * q[0], q[1], q[2], H3 * q[2], q[3]]
    for fb in ([], ["--fixed-base"]):
        rec = {"R0": s["R0"], "u0": [0] * 6, "contacts": contacts}
        a = run(["spart-contact", "-m", HEL, "--gravity", G] + fb, dict(rec, qm=q))[0]
        b = run(["spart-contact", "-m", PAIR, "--gravity", G] + fb, dict(rec, qm=qp))[0]
        for key in ("force_closure", "com_equilibrium", "feasible", "support_polygon",
                    "com_margin"):
            if a.get(key) is not None or b.get(key) is not None:
                check("spart-contact " + key, a[key], b[key])

# spart-sim: a short run of both from the same state, the same motion
sopts = ["--duration", "0.2", "--dt", "0.05", "--integrator", "dopri5", "--rtol", "1e-12",
         "--atol", "1e-13", "--gravity", G]
init = {k: states[1][k] for k in ("R0", "r0", "qm", "u0", "um")}
a = run(["spart-sim", "-m", HEL] + sopts, init)
b = run(["spart-sim", "-m", PAIR, "--mimic"] + sopts, init)
for key in ("R0", "r0", "qm", "u0", "um"):
    check("spart-sim " + key, [r[key] for r in a], [r[key] for r in b])

for what, (err, scale) in dev.items():
    ok = err <= 1e-9 * scale
    print(f"{'ok' if ok else 'FAIL'} {what}: worst deviation {err:.3g} (scale {scale:.3g})")
    npass += ok
    nfail += not ok
print(f"{npass} passed, {nfail} failed")
sys.exit(1 if nfail else 0)
