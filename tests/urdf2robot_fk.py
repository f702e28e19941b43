#!/usr/bin/env python3
"""Forward kinematics of a model JSON the way SPART's Kinematics.m does it, compared with a
SPART reference file (tests/reference/*-s?.json, made by the SPART toolkit itself).

usage: urdf2robot_fk.py MODEL.json REFERENCE.json [TOL]; exit 1 and a message on a mismatch."""
import json
import math
import sys


def matmul(a, b):
    return [[sum(a[r][k] * b[k][c] for k in range(len(b))) for c in range(len(b[0]))]
            for r in range(len(a))]


def axis_angle(e, q):
    c, s, v = math.cos(q), math.sin(q), 1 - math.cos(q)
    x, y, z = e
    return [[c + v * x * x, v * x * y - s * z, v * x * z + s * y],
            [v * x * y + s * z, c + v * y * y, v * y * z - s * x],
            [v * x * z - s * y, v * y * z + s * x, c + v * z * z]]


def homog(R, p):
    return [R[0] + [p[0]], R[1] + [p[1]], R[2] + [p[2]], [0, 0, 0, 1]]


def main():
    model = json.load(open(sys.argv[1]))
    ref = json.load(open(sys.argv[2]))
    tol = float(sys.argv[3]) if len(sys.argv) > 3 else 1e-9
    st, ex = ref["state"], ref["expected"]
    n = model["n_links_joints"]
    T0 = homog(st["R0"], st["r0"])
    TJ, TL = [None] * (n + 1), [T0] + [None] * n
    worst = 0.0
    for i in range(1, n + 1):
        j, link = model["joints"][i - 1], model["links"][i - 1]
        TJ[i] = matmul(TL[j["parent_link"]], j["T"])
        R = [row[:3] for row in TJ[i][:3]]
        if j["type"] == 1:
            M = homog(axis_angle(j["axis"], st["qm"][j["q_id"] - 1]), [0, 0, 0])
        elif j["type"] == 2:
            q = st["qm"][j["q_id"] - 1]
            M = homog([[1, 0, 0], [0, 1, 0], [0, 0, 1]], [a * q for a in j["axis"]])
        else:
            M = homog([[1, 0, 0], [0, 1, 0], [0, 0, 1]], [0, 0, 0])
        TL[i] = matmul(matmul(TJ[i], M), link["T"])
        got = {
            "RJ": R,
            "rJ": [TJ[i][r][3] for r in range(3)],
            "RL": [row[:3] for row in TL[i][:3]],
            "rL": [TL[i][r][3] for r in range(3)],
            "e": [sum(R[r][k] * j["axis"][k] for k in range(3)) for r in range(3)],
        }
        got["g"] = [got["rL"][r] - got["rJ"][r] for r in range(3)]
        for key, val in got.items():
            flat_got = sum(val, []) if isinstance(val[0], list) else val
            want = ex[key][i - 1]
            flat_want = sum(want, []) if isinstance(want[0], list) else want
            for a, b in zip(flat_got, flat_want):
                worst = max(worst, abs(a - b))
                if abs(a - b) > tol:
                    sys.exit("%s of link %d: got %r, SPART has %r" % (key, i, val, want))
    print("max deviation %.3g" % worst)


main()
