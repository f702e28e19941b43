"""Cross-checks of spart-contact (tests/spart-contact.bats): the bundled legged robots' records,
and the dynamics identity G(q) = [0; taum] + sum J_i' f_i checked against spart-id and spart-jac,
which know nothing of contacts."""
import math
import xml.etree.ElementTree as ET

from spartcheck import run

G = [0, 0, -9.81]


def com_offsets(urdf):
    """Each link's <inertial> origin in its URDF frame (the bundled models have rpy 0)."""
    out = {}
    for link in ET.parse(urdf).getroot().iter("link"):
        o = link.find("inertial/origin")
        out[link.get("name")] = [float(v) for v in o.get("xyz").split()] if o is not None else [0, 0, 0]
    return out


def quadruped(q, mu=0.6):
    """The quadruped on its four feet (the shanks' ends), legs set by q (12)."""
    feet = [{"link": f"{leg}_shank", "point": [0, 0, -0.2], "normal": [0, 0, 1], "mu": mu}
            for leg in ("fl", "fr", "hl", "hr")]
    return {"qm": q, "r0": [0, 0, 0.4], "contacts": feet}


def humanoid(q, mu=0.8):
    """The humanoid on its two feet, four contacts at each sole's corners, legs set by q (12)."""
    cs = [{"link": f"{side}_foot", "point": [x, y, -0.05], "normal": [0, 0, 1], "mu": mu}
          for side in ("l", "r") for x in (0.1, -0.1) for y in (0.05, -0.05)]
    return {"qm": q, "r0": [0, 0, 1.1], "contacts": cs}


def statics(urdf, rec, args=()):
    """spart-contact's output for rec, checked: the identity to 1e-9 (absolute), every force in
    its friction cone; returns the output."""
    out = run(["spart-contact", "-m", urdf, "--gravity", ",".join(map(str, G)), *args], rec)[0]
    if not out["feasible"]:
        return out
    state = {k: v for k, v in rec.items() if k != "contacts"}
    tau = run(["spart-id", "-m", urdf, "--gravity", ",".join(map(str, G))], state)[0]
    gen = tau["tau0"] + tau["taum"]
    rhs = [0.0] * 6 + out["taum"]
    for c, f in zip(rec["contacts"], out["contact_forces"]):
        # spart-jac's --point is in the link's URDF frame, like the contact's point
        J = run(["spart-jac", "-m", urdf, "--link", c["link"], "--point", ",".join(map(repr, c["point"]))],
                state)[0]
        for j in range(6):
            rhs[j] += sum(J["J0"][3 + k][j] * f[k] for k in range(3))
        for j in range(len(out["taum"])):
            rhs[6 + j] += sum(J["Jm"][3 + k][j] * f[k] for k in range(3))
        n = c["normal"]
        fn = sum(a * b for a, b in zip(f, n))
        ft = math.sqrt(max(sum(a * a for a in f) - fn * fn, 0))
        assert fn >= -1e-12 and ft <= c["mu"] * fn + 1e-9, f"force {f} outside its cone"
    err = max(abs(a - b) for a, b in zip(gen, rhs))
    assert err <= 1e-9, f"G - [0; tau] - sum J'f: {err}"
    return out


def contact_points(urdf, rec):
    """The contacts' positions from spart-kin: rL + RL (p - c), c the link's inertial origin in
    its URDF frame (the link frame is the CoM frame; the bundled models' inertials have rpy 0)."""
    state = {k: v for k, v in rec.items() if k != "contacts"}
    k = run(["spart-kin", "-m", urdf], state)[0]
    offs = com_offsets(urdf)
    out = []
    for c in rec["contacts"]:
        i = link_id(urdf, c["link"])
        R, r = k["RL"][i - 1], k["rL"][i - 1]
        p = [a - b for a, b in zip(c["point"], offs[c["link"]])]
        out.append([r[a] + sum(R[a][b] * p[b] for b in range(3)) for a in range(3)])
    return out


def link_id(urdf, name):
    """The id urdf2robot gives a link (the summary's numbering)."""
    import subprocess
    text = subprocess.run(["urdf2robot", "--summary", urdf], capture_output=True, text=True).stdout
    for line in text.splitlines():
        w = line.split()
        if len(w) > 1 and w[0].isdigit() and w[1] == name:
            return int(w[0])
    raise AssertionError(f"no link {name}")


def hull(points):
    """The convex hull of 2-D points, counter-clockwise (Andrew's monotone chain)."""
    pts = sorted(set(map(tuple, points)))
    def half(seq):
        h = []
        for p in seq:
            while len(h) >= 2 and (h[-1][0] - h[-2][0]) * (p[1] - h[-2][1]) - (h[-1][1] - h[-2][1]) * (p[0] - h[-2][0]) <= 1e-12:
                h.pop()
            h.append(p)
        return h[:-1]
    return half(pts) + half(pts[::-1])


def stance_contacts(model, stance, rec):
    """The contacts of the holds of stance (a stance file's JSON) as a record gives them, each
    point in its link's frame at rec's pose, RF' (c - rF) with the frame's pose by spart-kin."""
    k = run(["spart-kin", "-m", model, "--frame", ",".join(h["link"] for h in stance["holds"]),
             "--only", "rF,RF"], rec)[0]
    cs = []
    for h, rF, RF in zip(stance["holds"], k["rF"], k["RF"]):
        for c in h.get("contacts", []):
            d = [c["point"][a] - rF[a] for a in range(3)]
            cs.append({"link": h["link"], "normal": c["normal"], "mu": c["mu"],
                       "point": [sum(RF[a][b] * d[a] for a in range(3)) for b in range(3)]})
    return cs
