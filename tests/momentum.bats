#!/usr/bin/env bats
# SPART's functions as outputs: DiffKinematics (P0, pm, Bi0, Bij), MCB, NOCdot, the centre of
# mass's velocity and Jacobian, momentum and energies, checked against identities with other
# commands' outputs and the model (the golden P0, pm, I0, Im are in tests/golden.py).

load helper

check() { PYTHONPATH="$BATS_TEST_DIRNAME" python3 -c "from spartcheck import *; from math import *; $1"; }

PYDEFS='
import json, subprocess
def model(path):
    return json.loads(subprocess.run(["urdf2robot", path], capture_output=True, text=True).stdout)
def masses(mj):
    return ([mj["base_link"]["mass"]] + [l["mass"] for l in mj["links"]],
            [mj["base_link"]["inertia"]] + [l["inertia"] for l in mj["links"]])
def tr(A):
    return [list(r) for r in zip(*A)]
def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
def dot(a, b):
    return sum(x * y for x, y in zip(a, b))
def sub(a, b):
    return [x - y for x, y in zip(a, b)]
def expso3(w):
    th = sqrt(dot(w, w))
    if th == 0:
        return [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    k = [c / th for c in w]
    K = [[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]]
    K2 = matmul(K, K)
    return [[(i == j) + sin(th) * K[i][j] + (1 - cos(th)) * K2[i][j] for j in range(3)]
            for i in range(3)]
ST = {"R0": [[0.36, 0.48, -0.8], [-0.8, 0.6, 0], [0.48, 0.64, 0.6]], "r0": [0.5, -1, 2],
      "u0": [0.3, -0.2, 0.5, 0.1, 0.4, -0.3]}
def state(m, seed=1):
    n = len(m["links"])
    nq = m["n_q"]
    st = dict(ST)
    st["qm"] = [0.3 * (k % 5) - 0.5 + 0.1 * seed for k in range(nq)]
    st["um"] = [0.7 - 0.25 * (k % 4) for k in range(nq)]
    return st
'

@test "momentum is the sum of m v and I w + (r - r_com) x m v over the links of spart-kin" {
  check "$PYDEFS"'
for f in ["kuka_iiwa", "branched_arm", "ManiSat_2Arm_2_2"]:
    path = "'"$MODELS"'/" + f + ".urdf"
    mj = model(path)
    st = state(mj)
    k = run(["spart-kin", "-m", path, "--momentum", "--com"], st)[0]
    mass, inertia = masses(mj)
    R = [st["R0"]] + k["RL"]
    r = [st["r0"]] + k["rL"]
    t = [k["t0"]] + k["tL"]
    M = sum(mass)
    lin = [sum(m * tw[3 + c] for m, tw in zip(mass, t)) for c in range(3)]
    ang = [0, 0, 0]
    for m, I, Ri, ri, tw in zip(mass, inertia, R, r, t):
        Iw = matvec(matmul(matmul(Ri, I), tr(Ri)), tw[:3])
        mv = [m * c for c in tw[3:]]
        ang = [a + b + c for a, b, c in zip(ang, Iw, cross(sub(ri, k["r_com"]), mv))]
    close(k["momentum"], ang + lin, 1e-13, f + " momentum")
    close(k["v_com"], [c / M for c in lin], 1e-13, f + " v_com")
'
}

@test "kinetic energy is u'Hu/2 with spart-gim's H; potential energy is -M g . r_com" {
  check "$PYDEFS"'
for f in ["kuka_iiwa", "branched_arm", "SC_3DoF"]:
    path = "'"$MODELS"'/" + f + ".urdf"
    mj = model(path)
    st = state(mj, 2)
    g = [0.5, -1, -9.81]
    k = run(["spart-kin", "-m", path, "--energy", "--gravity", "0.5,-1,-9.81"], st)[0]
    H = run(["spart-gim", "-m", path, "--only", "H"], st)[0]["H"]
    u = st["u0"] + st["um"]
    close([k["kinetic_energy"]], [dot(u, matvec(H, u)) / 2], 1e-13, f + " T")
    M = sum(masses(mj)[0])
    close([k["potential_energy"]], [-M * dot(g, k["r_com"])], 1e-13, f + " V")
    k = run(["spart-kin", "-m", path, "--energy"], st)[0]
    assert "potential_energy" not in k
'
}

@test "the CoM Jacobian maps u to v_com, which is the rate of r_com by finite differences" {
  check "$PYDEFS"'
for f in ["kuka_iiwa", "branched_arm", "ManiSat_2Arm_2_2", "SC_3DoF"]:
    path = "'"$MODELS"'/" + f + ".urdf"
    mj = model(path)
    st = state(mj, 3)
    J = run(["spart-jac", "-m", path, "--com"], st)[0]
    v = run(["spart-kin", "-m", path, "--com", "--only", "v_com"], st)[0]["v_com"]
    close(add := [a + b for a, b in zip(matvec(J["J0_com"], st["u0"]), matvec(J["Jm_com"], st["um"]))],
          v, 1e-13, f + " J u")
    # move the state by +-h along u: R0 turns by omega0 h in the base frame
    h = 1e-5
    rc = []
    for s in (h, -h):
        x = dict(st)
        x["R0"] = matmul(st["R0"], expso3([s * c for c in st["u0"][:3]]))
        x["r0"] = [a + s * b for a, b in zip(st["r0"], st["u0"][3:])]
        x["qm"] = [a + s * b for a, b in zip(st["qm"], st["um"])]
        rc.append(run(["spart-kin", "-m", path, "--only", "r_com"], x)[0]["r_com"])
    close(v, [(a - b) / (2 * h) for a, b in zip(*rc)], 1e-8, f + " finite differences")
'
}

@test "Ndot u is [t0dot; tLdot] - N udot from spart-kin's twist rates" {
  check "$PYDEFS"'
for f in ["kuka_iiwa", "branched_arm", "ManiSat_2Arm_2_2"]:
    path = "'"$MODELS"'/" + f + ".urdf"
    mj = model(path)
    st = state(mj, 4)
    st["u0dot"] = [0.2, 0.1, -0.3, 0.5, -0.4, 0.6]
    st["umdot"] = [0.1 * (k % 3) - 0.2 for k in range(mj["n_q"])]
    J = run(["spart-jac", "-m", path, "--noc", "--dot"], st)[0]
    k = run(["spart-kin", "-m", path], st)[0]
    u, ud = st["u0"] + st["um"], st["u0dot"] + st["umdot"]
    rates = k["t0dot"] + [x for t in k["tLdot"] for x in t]
    close([a + b for a, b in zip(matvec(J["N"], ud), matvec(J["Ndot"], u))], rates, 1e-12, f)
'
}

@test "DiffKinematics: tL_i = Bi0 P0 u0 + sum_j Bij pm_j um_j gives spart-kin's twists" {
  check "$PYDEFS"'
for f in ["kuka_iiwa", "branched_arm", "ManiSat_2Arm_2_2", "SC_3DoF"]:
    path = "'"$MODELS"'/" + f + ".urdf"
    mj = model(path)
    st = state(mj, 5)
    k = run(["spart-kin", "-m", path, "--diffkin"], st)[0]
    n = len(mj["links"])
    qid = [j["q_id"] for j in mj["joints"]]
    t0 = matvec(k["P0"], st["u0"])
    close(t0, k["t0"], 1e-14, "t0")
    for i in range(n):
        t = matvec(k["Bi0"][i], t0)
        for j in range(n):
            if qid[j] > 0:
                t = [a + b * st["um"][qid[j] - 1] for a, b in zip(t, matvec(k["Bij"][i * n + j], k["pm"][j]))]
        close(t, k["tL"][i], 1e-13, f + " tL %d" % (i + 1))
'
}

@test "MCB: P0' M0_tilde P0 is spart-gim's H0, and a leaf's Mm_tilde is its own inertia" {
  check "$PYDEFS"'
for f in ["kuka_iiwa", "branched_arm", "ManiSat_2Arm_2_2"]:
    path = "'"$MODELS"'/" + f + ".urdf"
    mj = model(path)
    st = state(mj, 6)
    k = run(["spart-kin", "-m", path, "--mcb", "--diffkin", "--inertia"], st)[0]
    H0 = run(["spart-gim", "-m", path, "--only", "H0"], st)[0]["H0"]
    close(matmul(matmul(tr(k["P0"]), k["M0_tilde"]), k["P0"]), H0, 1e-13, f + " H0")
    n = len(mj["links"])
    parents = {j["parent_link"] for j in mj["joints"]}
    mass = masses(mj)[0]
    for i in range(1, n + 1):
        if i not in parents:
            I = k["Im"][i - 1]
            own = [r + [0, 0, 0] for r in I] + [[0] * 3 + [mass[i] * (a == b) for b in range(3)] for a in range(3)]
            close(k["Mm_tilde"][i - 1], own, 1e-14, f + " leaf %d" % i)
'
}

@test "--gravity without --energy, and --dot with only --com, are usage errors" {
  run --separate-stderr spart-kin -m "$MODELS/SC_3DoF.urdf" --gravity 0,0,-9.81 <<< '{}'
  [ "$status" -eq 2 ]
  [ "${stderr_lines[0]}" = "spart-kin: --gravity needs --energy" ]
  run spart-kin -m "$MODELS/SC_3DoF.urdf" --energy --momentum --com --only kinetic_energy,momentum,v_com <<< '{"qm": [0, 0, 0]}'
  [ "$status" -eq 0 ]
  [ "$output" = '{"v_com":[0,0,0],"momentum":[0,0,0,0,0,0],"kinetic_energy":0}' ]
}
