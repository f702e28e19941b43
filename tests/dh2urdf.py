"""Write the URDF of a DH description (SPART's DH structure or a Toolbox table), an independent
path to the model that dh2robot builds: homogeneous 4x4 matrices, products and inverses in plain
Python, following SPART's DH_Serial2robot and DH_Rs and the Toolbox's Link.A.  The URDF keeps the
viscous friction (damping) and a symmetric Coulomb friction only when asked to (--drive), as URDF
has no armature.

usage: dh2urdf.py DH.json [--drive] > robot.urdf"""
import json
import math
import sys


def mul(A, B):
    return [[sum(A[i][k] * B[k][j] for k in range(4)) for j in range(4)] for i in range(4)]


def inv(T):
    R = [[T[c][r] for c in range(3)] for r in range(3)]
    p = [-sum(R[r][k] * T[k][3] for k in range(3)) for r in range(3)]
    return [R[0] + [p[0]], R[1] + [p[1]], R[2] + [p[2]], [0, 0, 0, 1]]


def trans(x, y, z):
    return [[1, 0, 0, x], [0, 1, 0, y], [0, 0, 1, z], [0, 0, 0, 1]]


def rotz(t):
    c, s = math.cos(t), math.sin(t)
    return [[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]


def rotx(t):
    c, s = math.cos(t), math.sin(t)
    return [[1, 0, 0, 0], [0, c, -s, 0], [0, s, c, 0], [0, 0, 0, 1]]


def rpy(T):
    """roll, pitch, yaw with R = Rz(yaw) Ry(pitch) Rx(roll)"""
    cp = math.hypot(T[0][0], T[1][0])
    pitch = math.atan2(-T[2][0], cp)
    if cp < 1e-10:
        return 0.0, pitch, math.atan2(-T[0][1], T[1][1])
    return math.atan2(T[2][1], T[2][2]), pitch, math.atan2(T[1][0], T[0][0])


def origin(T):
    return '<origin xyz="%r %r %r" rpy="%r %r %r"/>' % (T[0][3], T[1][3], T[2][3], *rpy(T))


def inertia(I):
    """3x3, or the Toolbox's 3 (principal) or 6 (Ixx Iyy Izz Ixy Iyz Ixz) numbers"""
    if isinstance(I[0], list):
        return I[0][0], I[1][1], I[2][2], I[0][1], I[0][2], I[1][2]
    if len(I) == 3:
        return I[0], I[1], I[2], 0, 0, 0
    return I[0], I[1], I[2], I[3], I[5], I[4]


def link(name, T, mass, I):
    return ('<link name="%s"><inertial>%s<mass value="%r"/><inertia ixx="%r" iyy="%r" izz="%r" '
            'ixy="%r" ixz="%r" iyz="%r"/></inertial></link>' % (name, origin(T), mass, *inertia(I)))


def main():
    dh = json.load(open(sys.argv[1]))
    drive = "--drive" in sys.argv
    spart = "man" in dh
    links = dh["man"] if spart else dh["links"]
    conv = "spart" if spart else dh["dh"]
    base = dh.get("base", {})
    out = ['<robot name="dh">', link("Base", trans(0, 0, 0), base.get("mass", 0),
                                       base.get("I", [0, 0, 0]))]

    # frame of joint 1 in the base link frame (the base link frame is its CoM frame)
    before = base.get("T_L0_J1" if spart else "T", trans(0, 0, 0))
    n = len(links)
    for i, L in enumerate(links):
        prismatic = L.get("type") in (2, "prismatic")
        if spart:
            A = mul(rotz(L["DH"]["theta"]), mul(trans(0, 0, L["DH"]["d"]),
                                                mul(trans(L["DH"]["a"], 0, 0),
                                                    rotx(L["DH"]["alpha"]))))
            if i == n - 1:
                A = mul(A, mul(rotz(dh.get("EE", {}).get("theta", 0)),
                               trans(0, 0, dh.get("EE", {}).get("d", 0))))
            com = mul(A, inv(trans(*L["b"])))  # link.T = [R s] / [I b]
            after = mul(com, trans(*L["b"]))    # the next joint, b from the CoM
            jT, mass, I = before, L["mass"], L["I"]
        else:
            off = L.get("offset", 0)
            theta = off if not prismatic else L.get("theta", 0)
            d = L.get("d", 0) if not prismatic else off
            r = L.get("r", [0, 0, 0])
            if conv == "standard":
                A = mul(mul(rotz(theta), trans(0, 0, d)), mul(trans(L.get("a", 0), 0, 0),
                                                              rotx(L.get("alpha", 0))))
                jT = before
            else:
                A = mul(rotz(theta), trans(0, 0, d))
                jT = mul(before, mul(rotx(L.get("alpha", 0)), trans(L.get("a", 0), 0, 0)))
            com = mul(A, trans(*r))
            after = A
            mass, I = L.get("m", 0), L.get("I", [0, 0, 0])
        name = "L%d" % (i + 1)
        out.append(link(name, com, mass, I))
        axis = -1 if L.get("flip") else 1
        extra = ""
        if drive:
            G = L.get("G", 1)
            Tc = L.get("Tc", 0)
            Tc = Tc[0] if isinstance(Tc, list) else Tc
            extra = '<dynamics damping="%r" friction="%r"/>' % (G * G * L.get("B", 0),
                                                                 abs(G) * Tc)
        out.append('<joint name="J%d" type="%s"><parent link="%s"/><child link="%s"/>%s'
                   '<axis xyz="0 0 %d"/>%s</joint>'
                   % (i + 1, "prismatic" if prismatic else "continuous",
                      "Base" if i == 0 else "L%d" % i, name, origin(jT), axis, extra))
        before = after
    out.append("</robot>")
    print("\n".join(out))


main()
