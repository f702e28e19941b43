#!/usr/bin/env python3
"""Run every spart command on the reference cases and compare with SPART's own outputs.

usage: golden.py REF.json...   (the commands come from PATH; the models from ../models)

Each file in tests/reference was computed by the SPART toolkit (MATLAB) for one of its example
models at a random state: "state" holds the inputs, "expected" the outputs under the names of
spart-records(5) ("fd" is SPART's FD, "floating" its Floating_ID).  A value matches when it is within
1e-9 of the expected one, relative to the largest magnitude of that output.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(HERE, "..", "models")
failures = 0
checks = 0


def flat(x):
    if isinstance(x, list):
        return [v for e in x for v in flat(e)]
    return [x]


def compare(case, what, got, want):
    global failures, checks
    checks += 1
    g, w = flat(got), flat(want)
    if len(g) != len(w):
        failures += 1
        print(f"FAIL {case} {what}: {len(g)} values, expected {len(w)}")
        return
    scale = max([abs(v) for v in w] + [1e-300])
    worst = max([abs(a - b) / scale for a, b in zip(g, w)] + [0])
    if worst > 1e-9:
        failures += 1
        print(f"FAIL {case} {what}: relative error {worst:.3g}")


def run(cmd, text):
    p = subprocess.run(cmd, input=text, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr}")
    return [json.loads(line) for line in p.stdout.splitlines()]


def main(paths):
    for path in paths:
        ref = json.load(open(path))
        case = os.path.basename(path)
        model = os.path.join(MODELS, ref["model"])
        st, ex = ref["state"], ref["expected"]
        line = json.dumps(st)
        n = ref["n_links_joints"]

        out = run(["spart-kin", "-m", model], line)[0]
        for k in ["RJ", "RL", "rJ", "rL", "e", "g", "r_com", "t0", "tL", "t0dot", "tLdot"]:
            compare(case, "spart-kin " + k, out[k], ex[k])

        # SPART DiffKinematics (P0, pm) and I_I (I0, Im)
        out = run(["spart-kin", "-m", model, "--diffkin", "--inertia"], line)[0]
        for k in ["P0", "pm", "I0", "Im"]:
            compare(case, "spart-kin --diffkin --inertia " + k, out[k], ex[k])

        for i in range(1, n + 1):
            out = run(["spart-jac", "-m", model, "--link", str(i), "--dot"], line)[0]
            for k in ["J0", "Jm", "J0dot", "Jmdot"]:
                compare(case, f"spart-jac --link {i} {k}", out[k], ex[k][i - 1])
        out = run(["spart-jac", "-m", model, "--noc"], line)[0]
        compare(case, "spart-jac --noc N", out["N"], ex["N"])

        out = run(["spart-gim", "-m", model], line)[0]
        for k in ["H0", "H0m", "Hm", "H", "C0", "C0m", "Cm0", "Cm", "C"]:
            compare(case, "spart-gim " + k, out[k], ex[k])

        # SPART knows no friction: the URDF <dynamics> of the kuka models stay out
        out = run(["spart-id", "-m", model, "--no-friction"], line)[0]
        compare(case, "spart-id tau0", out["tau0"], ex["tau0"])
        compare(case, "spart-id taum", out["taum"], ex["taum"])
        out = run(["spart-id", "-m", model, "--floating", "--no-friction"], line)[0]
        compare(case, "spart-id --floating taum", out["taum"], ex["floating"]["taum"])
        compare(case, "spart-id --floating u0dot", out["u0dot"], ex["floating"]["u0dot"])

        out = run(["spart-fd", "-m", model, "--no-friction"], line)[0]
        compare(case, "spart-fd u0dot", out["u0dot"], ex["fd"]["u0dot"])
        compare(case, "spart-fd umdot", out["umdot"], ex["fd"]["umdot"])

        # the model inside the record instead of -m
        robot = json.loads(subprocess.run(["urdf2robot", model], capture_output=True,
                                          text=True, check=True).stdout)
        out = run(["spart-fd", "--no-friction"], json.dumps(dict(robot=robot, **st)))[0]
        compare(case, "spart-fd (model in the record) umdot", out["umdot"], ex["fd"]["umdot"])

    print(f"{checks - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
