"""kindcheck.py -- the joint kinds of several coordinates (ball, planar, floating inside a tree)
against the same models with each such joint as a chain of one-degree-of-freedom joints (massless
links between), through the commands (issue 13):

- the chain's coordinates qc give the kind's qk(qc), and its rates the kind's velocity v = E qc',
  E the velocity map; so v' = E qc'' + E' qc', with E' by the complex step (exact, no difference)
- same poses, CoMs, twists, twist rates, momentum, energies (spart-kin); Jacobians J_chain = J E,
  their derivatives J_chain' = J' E + J E' (spart-jac, --noc and --com included); H_chain = E'H E,
  G_chain = E'G, C_chain qc' = E'(C v + H E' qc') (spart-gim); ID: tau_chain = E'tau (spart-id);
  FD: v' = E qc'' + E' qc' for tau_chain = E'tau (spart-fd); fixed and floating base, to 1e-9
- on the kinds alone: spart-kin's qmdot against the complex-step derivative of qk(qc(t)), pm
  through t_i = B_ip t_p + pm_i v_i, FD then ID returns the forces, H symmetric positive
  definite, the derivatives J' against central differences along the motion, and the central
  difference of the kinetic energy against the power of the forces
- spart-contact and spart-sim give the same answers on both models

usage: kindcheck.py DIR   (DIR holds ball*.urdf, planar*.urdf, floating*.urdf)
       kindcheck.py DIR --planar "NX NY NZ" "XX XY XZ" "YX YY YZ"
           the planar pair only, its joint's normal N, and the chain's prismatic joints along X
           and Y, its revolute about N (the plane's axes by spart-model(5)'s rule)
prints one line a check, then "N passed, N failed"
"""
import cmath
import json
import math
import os
import re
import subprocess
import sys
import tempfile

from spartcheck import run, matmul, matvec

DIR = sys.argv[1]
npass = nfail = 0


def flat(x):
    return [v for e in x for v in flat(e)] if isinstance(x, list) else [x]


def check(name, what, a, b, tol=1e-9):
    global npass, nfail
    fa, fb = flat(a), flat(b)
    if len(fa) != len(fb):
        ok, err, scale = False, float("nan"), 0
    else:
        scale = max([abs(v) for v in fb] + [1.0])
        err = max([abs(p - q) for p, q in zip(fa, fb)] + [0.0])
        ok = err <= tol * scale
    print(f"{'ok' if ok else 'FAIL'} {name}: {what} (error {err:.3g}, scale {scale:.3g})")
    if ok:
        npass += 1
    else:
        nfail += 1


def T(A):
    return [list(r) for r in zip(*A)]


def real(x):
    return [real(e) for e in x] if isinstance(x, list) else x.real


def imag(x, h):
    return [imag(e, h) for e in x] if isinstance(x, list) else x.imag / h


# rotations and quaternions, complex-safe (the complex step)
def rot(axis, t):
    c, s = cmath.cos(t), cmath.sin(t)
    i, j = (axis + 1) % 3, (axis + 2) % 3
    R = [[0] * 3 for _ in range(3)]
    R[axis][axis] = 1
    R[i][i], R[i][j], R[j][i], R[j][j] = c, -s, s, c
    return R


def qmul(a, b):
    return [a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
            a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
            a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
            a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]]


def quat_zyx(a, b, c):
    """the quaternion of Rz(a) Ry(b) Rx(c)"""
    qz = [cmath.cos(a / 2), 0, 0, cmath.sin(a / 2)]
    qy = [cmath.cos(b / 2), 0, cmath.sin(b / 2), 0]
    qx = [cmath.cos(c / 2), cmath.sin(c / 2), 0, 0]
    return qmul(qmul(qz, qy), qx)


def euler_rates(b, c):
    """w in the frame after of the rates of z, y, x angles: Rx'Ry' e_z, Rx' e_y, e_x (columns)"""
    Ry, Rx = rot(1, b), rot(0, c)
    col0 = matvec(T(Rx), matvec(T(Ry), [0, 0, 1]))
    col1 = matvec(T(Rx), [0, 1, 0])
    return [[col0[r], col1[r], 1 if r == 0 else 0] for r in range(3)]


def block(n, m, blocks):
    """an n x m matrix of (row, col, matrix) blocks"""
    E = [[0] * m for _ in range(n)]
    for r0, c0, B in blocks:
        for r, row in enumerate(B):
            for c, x in enumerate(row):
                E[r0 + r][c0 + c] = x
    return E


def ball_map(qc):
    a, b, c, el = qc
    return quat_zyx(a, b, c) + [el], block(4, 4, [(0, 0, euler_rates(b, c)), (3, 3, [[1]])])


def planar_map(qc):
    x, y, th, el = qc
    c, s = cmath.cos(th), cmath.sin(th)
    return [x, y, th, el], block(4, 4, [(0, 0, [[c, s], [-s, c]]), (2, 2, [[1, 0], [0, 1]])])


def floating_map(qc):
    j1, px, py, pz, a, b, c, el, side = qc
    R = matmul(matmul(rot(2, a), rot(1, b)), rot(0, c))
    E = block(9, 9, [(0, 0, [[1]]), (1, 4, euler_rates(b, c)), (4, 1, T(R)),
                     (7, 7, [[1, 0], [0, 1]])])
    return [j1] + quat_zyx(a, b, c) + [px, py, pz, el, side], E


def sincos_map(qc):
    """the sin-cos revolute joints of the chain's revolute ones: q [sin, cos] each, v = qc'"""
    n = len(qc)
    return ([f(x) for x in qc for f in (cmath.sin, cmath.cos)],
            [[1 if r == c else 0 for c in range(n)] for r in range(n)])


def spquat_map(qc):
    """floating_map's with the quaternion as its stereographic projection x / (1 + w)"""
    q, E = floating_map(qc)
    return [q[0]] + [x / (1 + q[1]) for x in q[2:5]] + q[5:], E


PAIRS = [
    # name, kind, chain, map, qc, first chain joint of each kind joint
    ("ball", "ball.urdf", "ball_chain.urdf", ball_map, [0.7, -0.4, 1.1, 0.3], {"sh": "sh_z"}),
    ("planar", "planar.urdf", "planar_chain.urdf", planar_map, [0.2, -0.6, 0.7, 0.3],
     {"pl": "pl_x"}),
    ("floating", "floating_tree.urdf", "floating_chain.urdf", floating_map,
     [-0.5, 0.1, -0.2, 0.35, 0.7, -0.4, 1.1, 0.3, 0.15], {"fl": "fl_px"}),
    # the same motion in RigidBodyDynamics.jl's other coordinates (urdf2robot --revolute sincos,
    # --floating spquat): the kind model is the converter's output
    ("sincos", ("ball_chain.urdf", "--revolute", "sincos"), "ball_chain.urdf", sincos_map,
     [0.7, -0.4, 2.9, -2.3], {}),
    ("spquat", ("floating_tree.urdf", "--floating", "spquat"), "floating_chain.urdf", spquat_map,
     [-0.5, 0.1, -0.2, 0.35, 0.7, -0.4, 1.1, 0.3, 0.15], {"fl": "fl_px"}),
]

H_CS = 1e-30  # the complex step
NV = [0, 1, 1, 6, 3, 3, 1, 6]  # degrees of freedom of the model JSON's joint types


def mapped(fmap, qc, qcd, qcdd):
    """the kind's q, v, v' and E, E' for the chain's q, q', q''"""
    qk, E = fmap(qc)
    qk, E = real(qk), real(E)
    qz, Ez = fmap([complex(x, H_CS * y) for x, y in zip(qc, qcd)])
    qkd, Ed = imag(qz, H_CS), imag(Ez, H_CS)
    v = matvec(E, qcd)
    vd = [a + b for a, b in zip(matvec(E, qcdd), matvec(Ed, qcd))]
    return qk, qkd, v, vd, E, Ed


def model_json(path):
    return json.loads(subprocess.run(["urdf2robot", path], capture_output=True, text=True,
                                     check=True).stdout)


def names(mj):
    links = {l["name"]: l["id"] for l in mj["links"]}
    joints = {j["name"]: j["id"] for j in mj["joints"]}
    return links, joints


def rodrigues(w, t):
    """exp(t [w]) (3x3)"""
    th = math.sqrt(sum(x * x for x in w)) * t
    K = [[0, -w[2] * t, w[1] * t], [w[2] * t, 0, -w[0] * t], [-w[1] * t, w[0] * t, 0]]
    K2 = matmul(K, K)
    s = math.sin(th) / th if th else 1
    c = (1 - math.cos(th)) / th ** 2 if th else 0.5
    return [[(r == k) + s * K[r][k] + c * K2[r][k] for k in range(3)] for r in range(3)]


def rows(M, idx):
    return [M[i] for i in idx]


def bigE(E, off, one=1):
    """[1 0; 0 E] with an identity of off rows (a zero block when one is 0: E's derivative)"""
    n, m = len(E), len(E[0])
    return block(off + n, off + m, [(0, 0, [[one if r == c else 0 for c in range(off)]
                                           for r in range(off)]), (off, off, E)])


def kind_model(fk):
    """the path of the kind's model: a URDF of DIR, or (URDF, urdf2robot's options...) converted
    into a model JSON"""
    if isinstance(fk, str):
        return f"{DIR}/{fk}"
    out = subprocess.run(["urdf2robot"] + list(fk[1:]) + [f"{DIR}/{fk[0]}"], capture_output=True,
                         text=True, check=True).stdout
    path = os.path.join(tempfile.mkdtemp(), fk[0].replace(".urdf", ".json"))
    with open(path, "w") as f:
        f.write(out)
    return path


def pair_checks(name, fk, fc, fmap, qc, first):
    kpath, cpath = kind_model(fk), f"{DIR}/{fc}"
    mk, mc = model_json(kpath), model_json(cpath)
    lk, jk = names(mk)
    lc, jc = names(mc)
    nk, nc = len(mk["links"]), len(mc["links"])
    lmap = {lk[n]: lc[n] for n in lk}  # kind link id -> chain link id
    jmap = {jk[n]: jc[first.get(n, n)] for n in jk}  # kind joint id -> chain joint id
    one_dof = [jk[n] for n in jk if n not in first]
    nqc = len(qc)
    qcd = [0.3 * math.sin(1.7 * k + 0.4) for k in range(nqc)]
    qcdd = [0.8 * math.cos(2.3 * k + 0.1) for k in range(nqc)]
    qk, qkd, v, vd, E, Ed = mapped(fmap, qc, qcd, qcdd)
    R0 = real(rot(1, 0.4))
    g = [0.3, -0.5, -9.81]
    links = sorted(lk.values())

    for fixed in (False, True):
        base = "fixed" if fixed else "floating"
        u0 = [0.0] * 6 if fixed else [0.2, -0.1, 0.3, 0.5, -0.2, 0.1]
        u0d = [0.0] * 6 if fixed else [-0.4, 0.2, 0.1, 0.3, 0.6, -0.5]
        wk = [[0.1 * math.sin(i + k) for k in range(6)] for i in range(nk)]
        wc = [[0.0] * 6 for _ in range(nc)]
        for i in links:
            wc[lmap[i] - 1] = wk[i - 1]
        common = {"R0": R0, "r0": [0.4, -0.3, 0.2], "u0": u0, "u0dot": u0d}
        rk = dict(common, qm=qk, um=v, umdot=vd)
        rc = dict(common, qm=qc, um=qcd, umdot=qcdd)
        off = 0 if fixed else 6
        EB, EBd = bigE(E, off), bigE(Ed, off, 0)
        fb = ["--fixed-base"] if fixed else []
        tag = f"{name} ({base} base)"

        # spart-kin: poses, CoMs, twists, rates, momentum, energy; qmdot
        opts = ["--energy", "--momentum", "--com", "--gravity", ",".join(map(str, g)),
                "--inertia", "--frame", ",".join(lk)]
        ok_, oc = (run(["spart-kin", "-m", p] + opts, r)[0] for p, r in ((kpath, rk), (cpath, rc)))
        for key in ("RL", "rL", "tL", "tLdot", "Im"):
            check(tag, f"spart-kin {key} of every link",
                  [ok_[key][i - 1] for i in links], [oc[key][lmap[i] - 1] for i in links])
        for key in ("RJ", "rJ"):
            check(tag, f"spart-kin {key} of every joint (the chain's first)",
                  [ok_[key][j - 1] for j in links], [oc[key][jmap[j] - 1] for j in links])
        for key in ("e", "g"):
            check(tag, f"spart-kin {key} of the one-dof joints",
                  [ok_[key][j - 1] for j in one_dof], [oc[key][jmap[j] - 1] for j in one_dof])
        for key in ("r_com", "t0", "t0dot", "v_com", "momentum", "kinetic_energy",
                    "potential_energy", "rF", "RF", "I0"):
            check(tag, f"spart-kin {key}", ok_[key], oc[key])
        for n in first:
            e = ok_["e"][jk[n] - 1]
            if n == "pl":  # the planar joint's normal, the chain's revolute about it
                check(tag, "spart-kin e of the planar joint: its normal", e,
                      oc["e"][jc["pl_z"] - 1])
            else:
                check(tag, f"spart-kin e of the {name} joint: none (0)", e, [0, 0, 0], 0)
        check(tag, "spart-kin g = rL - rJ",
              ok_["g"], [[a - b for a, b in zip(x, y)] for x, y in zip(ok_["rL"], ok_["rJ"])])
        # every kind here has coordinate rates other than its velocity (planar, spquat: n_q = n_v)
        check(tag, "spart-kin qmdot = d qk(qc(t))/dt", ok_.get("qmdot"), qkd)

        # spart-kin --diffkin: t_i = B_ip t_p + pm_i v_i (pm one row a degree of freedom)
        dk = run(["spart-kin", "-m", kpath, "--diffkin"], rk)[0]
        pm, tw = dk["pm"], dk["tL"]
        vadr, r = [], 0
        for i in links:
            nv = NV[mk["joints"][i - 1]["type"]]
            vadr.append((r, nv))
            r += max(nv, 1)
        want, vi = [], 0
        for i in links:
            p = mk["joints"][i - 1]["parent_link"]
            tp = dk["t0"] if p == 0 else tw[p - 1]
            B = dk["Bij"][(i - 1) * nk + p - 1] if p else dk["Bi0"][i - 1]
            t = matvec(B, tp)
            r0_, nv = vadr[i - 1]
            for k in range(nv):
                t = [a + b * v[vi + k] for a, b in zip(t, pm[r0_ + k])]
            vi += nv
            want.append(t)
        check(tag, "spart-kin --diffkin: tL_i = B_ip t_p + pm_i v_i", tw, want)

        # spart-jac: every link, a point, the derivatives; the CoM; the NOC
        for i in links:
            for extra in ([], ["--point", "0.1,-0.2,0.05"]):
                cmd = ["spart-jac", "--dot"] + extra
                jk_ = run(cmd + ["-m", kpath, "--link", str(i)], rk)[0]
                jc_ = run(cmd + ["-m", cpath, "--link", str(lmap[i])], rc)[0]
                pt = " at a point" if extra else ""
                check(tag, f"spart-jac link {i}{pt}: J0", jk_["J0"], jc_["J0"])
                check(tag, f"spart-jac link {i}{pt}: Jm E = Jm of the chain",
                      matmul(jk_["Jm"], E), jc_["Jm"])
                check(tag, f"spart-jac link {i}{pt}: J0dot", jk_["J0dot"], jc_["J0dot"])
                Jd = [[a + b for a, b in zip(x, y)]
                      for x, y in zip(matmul(jk_["Jmdot"], E), matmul(jk_["Jm"], Ed))]
                check(tag, f"spart-jac link {i}{pt}: Jmdot E + Jm E' = Jmdot of the chain", Jd,
                      jc_["Jmdot"])
        ck = run(["spart-jac", "--com", "--noc", "--dot", "-m", kpath], rk)[0]
        cc = run(["spart-jac", "--com", "--noc", "--dot", "-m", cpath], rc)[0]
        check(tag, "spart-jac --com: J0_com", ck["J0_com"], cc["J0_com"])
        check(tag, "spart-jac --com: Jm_com E", matmul(ck["Jm_com"], E), cc["Jm_com"])
        brow = list(range(6)) + [6 * lmap[i] + r for i in links for r in range(6)]
        Ek6 = bigE(E, 6)
        check(tag, "spart-jac --noc: N [1 0; 0 E] = N of the chain (base and links)",
              matmul(ck["N"], Ek6), rows(cc["N"], brow))
        Nd = [[a + b for a, b in zip(x, y)]
              for x, y in zip(matmul(ck["Ndot"], Ek6), matmul(ck["N"], bigE(Ed, 6, 0)))]
        check(tag, "spart-jac --noc --dot: Ndot", Nd, rows(cc["Ndot"], brow))

        # spart-gim: H, G, C u; H symmetric positive definite
        gopts = ["--coriolis", "--gravity", ",".join(map(str, g))] + fb
        gk = run(["spart-gim", "-m", kpath] + gopts, rk)[0]
        gc = run(["spart-gim", "-m", cpath] + gopts, rc)[0]
        Hk = gk["Hm"] if fixed else gk["H"]
        Hc = gc["Hm"] if fixed else gc["H"]
        Ck = gk["Cm"] if fixed else gk["C"]
        Cc = gc["Cm"] if fixed else gc["C"]
        check(tag, "spart-gim H of the chain = E'H E", matmul(T(EB), matmul(Hk, EB)), Hc)
        check(tag, "spart-gim G of the chain = E'G", matvec(T(EB), gk["G"]), gc["G"])
        uk = (u0 if not fixed else []) + v
        uc = (u0 if not fixed else []) + qcd
        HEd = matvec(Hk, matvec(EBd, uc))
        check(tag, "spart-gim Cu of the chain = E'(Cu + H E' qc')",
              matvec(T(EB), [a + b for a, b in zip(gk["Cu"], HEd)]), gc["Cu"])
        check(tag, "spart-gim C qc' of the chain = E'(C v + H E' qc')",
              matvec(T(EB), [a + b for a, b in zip(matvec(Ck, uk), HEd)]), matvec(Cc, uc))
        asym = max(abs(Hk[r][c] - Hk[c][r]) for r in range(len(Hk)) for c in range(len(Hk)))
        L = [row[:] for row in Hk]
        piv = math.inf
        for j in range(len(L)):
            for k in range(j):
                for r in range(j, len(L)):
                    L[r][j] -= L[r][k] * L[j][k]
            piv = min(piv, L[j][j])
            s = math.sqrt(max(L[j][j], 0))
            for r in range(j, len(L)):
                L[r][j] = L[r][j] / s if s else math.inf
        check(tag, "spart-gim H symmetric", asym, 0, 0)
        check(tag, f"spart-gim H positive definite (least pivot {piv:.3g})", piv > 0, True, 0)

        # spart-id: tau of the chain = E'tau at the mapped accelerations, with gravity and wrenches
        for io in (["--gravity", ",".join(map(str, g))], ["--floating"]):
            if fixed and io == ["--floating"]:
                continue
            iopts = io + fb
            ik = run(["spart-id", "-m", kpath] + iopts, dict(rk, wF0=wk[0], wFm=wk))[0]
            ic = run(["spart-id", "-m", cpath] + iopts, dict(rc, wF0=wk[0], wFm=wc))[0]
            what = " ".join(io)
            check(tag, f"spart-id {what}: taum of the chain = E'taum", matvec(T(E), ik["taum"]),
                  ic["taum"])
            if "--floating" in io:
                check(tag, f"spart-id {what}: u0dot", ik["u0dot"], ic["u0dot"])
            else:
                check(tag, f"spart-id {what}: tau0", ik["tau0"], ic["tau0"])

        # spart-fd: the kind's v' = E qc'' + E' qc' for the chain's E'tau; then spart-id returns tau
        tk = [0.7 * math.cos(1.3 * k) for k in range(len(v))]
        t0 = [] if fixed else [0.2, -0.3, 0.1, 1.5, -0.7, 0.4]
        fopts = ["--gravity", ",".join(map(str, g))] + fb
        st = dict(common, tau0=t0 or [0] * 6, wF0=wk[0])
        fk_ = run(["spart-fd", "-m", kpath] + fopts, dict(st, qm=qk, um=v, taum=tk, wFm=wk))[0]
        fc_ = run(["spart-fd", "-m", cpath] + fopts,
                  dict(st, qm=qc, um=qcd, taum=matvec(T(E), tk), wFm=wc))[0]
        check(tag, "spart-fd: umdot = E qc'' + E' qc'", fk_["umdot"],
              [a + b for a, b in zip(matvec(E, fc_["umdot"]), matvec(Ed, qcd))])
        if not fixed:
            check(tag, "spart-fd: u0dot", fk_["u0dot"], fc_["u0dot"])
        back = run(["spart-id", "-m", kpath] + fopts,
                   dict(common, qm=qk, um=v, wF0=wk[0], wFm=wk, umdot=fk_["umdot"],
                        u0dot=fk_.get("u0dot", [0] * 6)))[0]
        check(tag, "spart-fd then spart-id: taum", back["taum"], tk)
        if not fixed:
            check(tag, "spart-fd then spart-id: tau0", back["tau0"], t0)

        # derivatives along the motion, central differences: J', kinetic energy against power
        h = 1e-5

        def moved(s):
            Rs = matmul(R0, rodrigues(u0[:3], s))
            q = [a + s * b for a, b in zip(qk, qkd)]  # qkd: spart-kin's qmdot, checked above
            return dict(common, R0=Rs, r0=[a + s * b for a, b in zip(common["r0"], u0[3:])],
                        qm=q, um=[a + s * b for a, b in zip(v, fk_["umdot"])],
                        u0=[a + s * b for a, b in zip(u0, fk_.get("u0dot", [0] * 6))])
        i = links[-1]
        jp, jm = (run(["spart-jac", "-m", kpath, "--link", str(i)], moved(s))[0] for s in (h, -h))
        jd = run(["spart-jac", "-m", kpath, "--link", str(i), "--dot"], rk)[0]
        fd = [[(a - b) / (2 * h) for a, b in zip(x, y)] for x, y in zip(jp["Jm"], jm["Jm"])]
        check(tag, f"spart-jac link {i}: Jmdot = central difference of Jm", jd["Jmdot"], fd, 1e-7)
        fd0 = [[(a - b) / (2 * h) for a, b in zip(x, y)] for x, y in zip(jp["J0"], jm["J0"])]
        check(tag, f"spart-jac link {i}: J0dot = central difference of J0", jd["J0dot"], fd0, 1e-7)
        ep, em = (run(["spart-kin", "-m", kpath, "--energy", "--only", "kinetic_energy"],
                      moved(s))[0]["kinetic_energy"] for s in (h, -h))
        # the power of the forces without gravity: u'tau, tau from spart-id at the motion's
        # accelerations (the wrenches' included)
        nog = run(["spart-id", "-m", kpath] + fb,
                  dict(common, qm=qk, um=v, umdot=fk_["umdot"], u0dot=fk_.get("u0dot", [0] * 6)))
        power = sum(a * b for a, b in zip(v, nog[0]["taum"]))
        if not fixed:
            power += sum(a * b for a, b in zip(u0, nog[0]["tau0"]))
        check(tag, "d(kinetic energy)/dt (spart-kin --energy) = u'tau", (ep - em) / (2 * h), power,
              1e-7)

    # spart-contact: the statics of the whole robot agree (contacts on the last link and the base)
    rec = {"R0": R0, "u0": [0] * 6, "contacts": [
        {"link": "base", "point": [x, y, -0.3], "normal": [0, 0, 1], "mu": 0.5}
        for x, y in ((0.3, 0.2), (-0.3, 0.2), (-0.3, -0.2), (0.3, -0.2))]}
    for fixed in (False, True):
        fb = ["--fixed-base"] if fixed else []
        a = run(["spart-contact", "-m", kpath, "--gravity", "0,0,-9.81"] + fb, dict(rec, qm=qk))[0]
        b = run(["spart-contact", "-m", cpath, "--gravity", "0,0,-9.81"] + fb, dict(rec, qm=qc))[0]
        for key in ("force_closure", "com_equilibrium", "feasible"):
            check(name, f"spart-contact {' '.join(fb)} {key}", a[key], b[key], 0)
        for key in ("support_polygon", "com_margin"):
            if a.get(key) is not None or b.get(key) is not None:
                check(name, f"spart-contact {key}", a[key], b[key])

    # spart-sim: a short free-floating run of both: the same motion of every link
    init = {"R0": R0, "qm": None, "um": None, "u0": [0.2, -0.1, 0.3, 0.5, -0.2, 0.1]}
    sopts = ["--duration", "0.2", "--dt", "0.05", "--integrator", "dopri5", "--rtol", "1e-12",
             "--atol", "1e-13", "--gravity", "0,0,-9.81"]
    sk = run(["spart-sim", "-m", kpath] + sopts, dict(init, qm=qk, um=v))[-1]
    sc = run(["spart-sim", "-m", cpath] + sopts, dict(init, qm=qc, um=qcd))[-1]
    pk = run(["spart-kin", "-m", kpath], {k: sk[k] for k in ("R0", "r0", "qm", "u0", "um")})[0]
    pc = run(["spart-kin", "-m", cpath], {k: sc[k] for k in ("R0", "r0", "qm", "u0", "um")})[0]
    for key in ("RL", "rL", "tL"):
        check(name, f"spart-sim then spart-kin {key} of every link at t = 0.2",
              [pk[key][i - 1] for i in links], [pc[key][lmap[i] - 1] for i in links], 1e-8)


def axis(text, joint, xyz):
    """text with joint's <axis xyz> replaced"""
    pat = r'(<joint name="%s".*?<axis xyz=")[^"]*(")' % joint
    new, n = re.subn(pat, lambda m: m.group(1) + xyz + m.group(2), text, count=1, flags=re.S)
    assert n == 1, joint
    return new


if len(sys.argv) == 6 and sys.argv[2] == "--planar":
    nrm, px, py = sys.argv[3:]
    tmp = tempfile.mkdtemp()
    with open(f"{DIR}/planar.urdf") as f:
        kind = axis(f.read(), "pl", nrm)
    with open(f"{DIR}/planar_chain.urdf") as f:
        chain = axis(axis(axis(f.read(), "pl_x", px), "pl_y", py), "pl_z", nrm)
    for name, text in (("planar.urdf", kind), ("planar_chain.urdf", chain)):
        with open(f"{tmp}/{name}", "w") as f:
            f.write(text)
    DIR = tmp
    PAIRS = [(f"planar normal {nrm}", "planar.urdf", "planar_chain.urdf", planar_map,
              [0.2, -0.6, 0.7, 0.3], {"pl": "pl_x"})]
for p in PAIRS:
    pair_checks(*p)
print(f"{npass} passed, {nfail} failed")
sys.exit(1 if nfail else 0)
