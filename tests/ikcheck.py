"""spart-ik's independent checks: the targets made by forward kinematics (spart-states,
spart-kin) and the solutions' forward kinematics (spart-kin) against them; the joint limits read
from the model JSON (urdf2robot)."""
import json
import math
import subprocess

from spartcheck import run


def limits(model):
    """q_id (1-based) -> [lower, upper] of each limited joint, from urdf2robot's model JSON."""
    m = json.loads(subprocess.run(["urdf2robot", model], capture_output=True, text=True,
                                  check=True).stdout)
    return {j["q_id"]: j["limit"] for j in m["joints"] if j.get("q_id", -1) > 0 and "limit" in j}


def random_states(model, n, seed):
    out = subprocess.run(["spart-states", "-m", model, "--random", str(n), "--seed", str(seed)],
                         capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def frames(model, recs, links, fixed=True):
    """Each record's poses of the links' URDF frames: [(rF, RF)], by spart-kin --frame."""
    cmd = ["spart-kin", "-m", model, "--frame", ",".join(str(x) for x in links),
           "--only", "rF,RF,r_com"]
    return [(o["rF"], o["RF"], o["r_com"]) for o in run(cmd, *recs)]


def point(rF, RF, p):
    return [rF[k] + sum(RF[k][c] * p[c] for c in range(3)) for k in range(3)]


def angle(Ra, Rb):
    """The angle of Ra' Rb (rad), accurate for small angles (from its skew part)."""
    M = [[sum(Ra[k][a] * Rb[k][b] for k in range(3)) for b in range(3)] for a in range(3)]
    s = 0.5 * math.sqrt((M[2][1] - M[1][2]) ** 2 + (M[0][2] - M[2][0]) ** 2 +
                        (M[1][0] - M[0][1]) ** 2)
    c = 0.5 * (M[0][0] + M[1][1] + M[2][2] - 1)
    return math.atan2(s, c)


def check(model, recs, outs, tol, fixed=True):
    """The outputs' forward kinematics meet the records' targets within tol (position m,
    orientation rad), their qm within the model's limits; ik_error agrees.  Returns the largest
    errors seen."""
    lim = limits(model)
    states = []
    for r, o in zip(recs, outs):
        s = {"qm": o["qm"]}
        for k in ("R0", "r0"):
            if k in o:
                s[k] = o[k]
            elif k in r:
                s[k] = r[k]
        states.append(s)
        for q, (lo, hi) in lim.items():
            assert lo <= o["qm"][q - 1] <= hi, f"qm_{q} = {o['qm'][q - 1]} outside [{lo}, {hi}]"
    links = sorted({t["link"] for r in recs for t in r["targets"] if "link" in t}, key=str)
    fk = frames(model, states, links or [0], fixed)
    worst = [0.0, 0.0]
    for r, o, (rF, RF, com) in zip(recs, outs, fk):
        ep = er = 0.0
        for t in r["targets"]:
            if "com" in t:
                ep = max(ep, math.dist(com, t["com"]))
                continue
            if "com_xy" in t:
                ep = max(ep, math.dist(com[:2], t["com_xy"]))
                continue
            i = links.index(t["link"])
            ep = max(ep, math.dist(point(rF[i], RF[i], t.get("point", [0, 0, 0])), t["position"]))
            if "R" in t:
                er = max(er, angle(RF[i], t["R"]))
        assert ep <= tol and er <= tol, f"errors {ep:g} m, {er:g} rad over {tol:g}: {r} -> {o}"
        assert abs(o["ik_error"][0] - ep) <= 1e-12 and abs(o["ik_error"][1] - er) <= 1e-12, \
            f"ik_error {o['ik_error']}, seen {ep:g} {er:g}"
        worst = [max(worst[0], ep), max(worst[1], er)]
    return worst
