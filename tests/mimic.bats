#!/usr/bin/env bats
# --mimic: mimic joints coupled to their leaders.  The coupled system's matrices and forces
# against the free model's (the same URDF without --mimic) mapped by K, q_free = K q + o:
# H = K' H_free K, tau = K' tau_free.  tests/data/gripper_mimic.urdf: dofs wrist, finger_1,
# tip_1_joint, finger_2, finger_2 = -1.5 finger_1 + 0.2.

load helper

G="$BATS_TEST_DIRNAME/data/gripper_mimic.urdf"

# python with the cross-check helpers and the gripper's K (4 x 3) and o
check() {
  PYTHONPATH="$BATS_TEST_DIRNAME" python3 -c "from spartcheck import *
G = '$G'
K = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, -1.5, 0]]
o = [0, 0, 0, 0.2]
def Ku(b):  # K of [u0; um] (b = 6) or of um (b = 0)
    return [[float(i == j) for j in range(b)] + [0.0] * 3 for i in range(b)] + \
           [[0.0] * b + row for row in K]
def T(A): return [list(r) for r in zip(*A)]
def full_q(q): return [x + c for x, c in zip(matvec(K, q), o)]
def full_v(u): return matvec(K, u)
$1"
}

@test "spart-gim --mimic: H, C, Cu, G are K' (.) K and K' (.) of the free model's, Hinv H's inverse" {
  check '
q, u0, um = [0.3, -0.2, 0.004], [0.1, -0.2, 0.3, 0.4, 0.5, -0.6], [0.7, -1.1, 0.05]
R0 = [0.36, 0.48, -0.8, -0.8, 0.6, 0, 0.48, 0.64, 0.6]
opts = ["--coriolis", "--gravity", "0,0,-9.81", "--inverse"]
c = run(["spart-gim", "-m", G, "--mimic"] + opts, {"R0": R0, "qm": q, "u0": u0, "um": um})[0]
f = run(["spart-gim", "-m", G] + opts, {"R0": R0, "qm": full_q(q), "u0": u0, "um": full_v(um)})[0]
Kb = Ku(6)
close(c["H"], matmul(T(Kb), matmul(f["H"], Kb)), 1e-12, "H")
close(c["C"], matmul(T(Kb), matmul(f["C"], Kb)), 1e-12, "C")
close(c["Cu"], matvec(T(Kb), f["Cu"]), 1e-12, "Cu")
close(c["G"], matvec(T(Kb), f["G"]), 1e-12, "G")
close(c["Hm"], [r[6:] for r in c["H"][6:]], 0, "Hm")
close(c["H0m"], [r[6:] for r in c["H"][:6]], 0, "H0m")
close(matmul(c["H"], c["Hinv"]), [[float(i == j) for j in range(9)] for i in range(9)], 1e-9, "Hinv")
assert len(c["Hm"]) == 3 and len(f["Hm"]) == 4
# a fixed base: the joints block
c = run(["spart-gim", "-m", G, "--mimic", "--fixed-base"] + opts, {"qm": q, "um": um})[0]
f = run(["spart-gim", "-m", G, "--fixed-base"] + opts, {"qm": full_q(q), "um": full_v(um)})[0]
close(c["Hm"], matmul(T(K), matmul(f["Hm"], K)), 1e-12, "Hm fixed")
close(c["Cm"], matmul(T(K), matmul(f["Cm"], K)), 1e-12, "Cm fixed")
close(c["G"], matvec(T(K), f["G"]), 1e-12, "G fixed")
close(matmul(c["Hm"], c["Hinv"]), [[float(i == j) for j in range(3)] for i in range(3)], 1e-9, "Hinv fixed")
'
}

@test "spart-id --mimic: tau is K' tau_free at q_free = K q + o, u_free = K u, udot_free = K udot" {
  check '
st = {"qm": [0.3, -0.2, 0.004], "u0": [0.1, -0.2, 0.3, 0.4, 0.5, -0.6], "um": [0.7, -1.1, 0.05],
      "u0dot": [1, 2, -1, 0.5, -0.3, 0.2], "umdot": [-2, 3, 0.4],
      "wFm": [[0.1, 0, 0.2, 1, -1, 0.5], [0, 0.3, 0, 0, 2, 0], [0, 0, 0, 0, 0, 1],
              [0.2, 0.1, 0, -1, 0, 0]]}
free = dict(st, qm=full_q(st["qm"]), um=full_v(st["um"]), umdot=full_v(st["umdot"]))
for opts in ([], ["--gravity", "0,0,-9.81"], ["--no-friction"], ["--fixed-base"]):
    s, fr = (st, free) if opts != ["--fixed-base"] else \
        ({k: v for k, v in st.items() if k[:2] != "u0"}, {k: v for k, v in free.items() if k[:2] != "u0"})
    c = run(["spart-id", "-m", G, "--mimic"] + opts, s)[0]
    f = run(["spart-id", "-m", G] + opts, fr)[0]
    close(c["tau0"], f["tau0"], 1e-12, f"tau0 {opts}")
    close(c["taum"], matvec(T(K), f["taum"]), 1e-12, f"taum {opts}")
    assert len(c["taum"]) == 3
# --floating: the base acceleration that leaves tau0 = 0, the same for the system
s = {k: v for k, v in st.items() if k != "u0dot"}
c = run(["spart-id", "-m", G, "--mimic", "--floating"], s)[0]
f = run(["spart-id", "-m", G, "--floating"], {k: v for k, v in free.items() if k != "u0dot"})[0]
close(c["u0dot"], f["u0dot"], 1e-12, "u0dot")
close(c["taum"], matvec(T(K), f["taum"]), 1e-12, "taum floating")
'
}

@test "spart-jac --mimic: Jm, Jmdot, N, Ndot, Jm_com are the free model's times K; J u is the link's twist" {
  check '
q, u0, um = [0.3, -0.2, 0.004], [0.1, -0.2, 0.3, 0.4, 0.5, -0.6], [0.7, -1.1, 0.05]
for link in ("finger_2_link", "tip_1"):
    opts = ["--link", link, "--point", "0.01,0.02,0.03", "--dot", "--noc", "--com"]
    c = run(["spart-jac", "-m", G, "--mimic"] + opts, {"qm": q, "u0": u0, "um": um})[0]
    f = run(["spart-jac", "-m", G] + opts, {"qm": full_q(q), "u0": u0, "um": full_v(um)})[0]
    for k in ("Jm", "Jmdot", "Jm_com"):
        close(c[k], matmul(f[k], K), 1e-12, k)
    for k in ("N", "Ndot"):
        close(c[k], matmul(f[k], Ku(6)), 1e-12, k)
    for k in ("J0", "J0dot", "r_point", "J0_com"):
        close(c[k], f[k], 0, k)
    # the twist of the point, J0 u0 + Jm um, is the free model'"'"'s at u_free = K u
    close([a + b for a, b in zip(matvec(c["J0"], u0), matvec(c["Jm"], um))],
          [a + b for a, b in zip(matvec(f["J0"], u0), matvec(f["Jm"], full_v(um)))], 1e-12, "twist")
    assert len(c["Jm"][0]) == 3
'
}

@test "spart-fd --mimic then spart-id --mimic returns the forces, floating and fixed base" {
  check '
st = {"R0": [0.36, 0.48, -0.8, -0.8, 0.6, 0, 0.48, 0.64, 0.6], "qm": [0.3, -0.2, 0.004],
      "u0": [0.1, -0.2, 0.3, 0.4, 0.5, -0.6], "um": [0.7, -1.1, 0.05],
      "tau0": [0.1, 0.2, -0.3, 1, -2, 3], "taum": [0.5, -0.2, 0.1],
      "wFm": [[0.1, 0, 0.2, 1, -1, 0.5], [0, 0.3, 0, 0, 2, 0], [0, 0, 0, 0, 0, 1], [0.2, 0.1, 0, -1, 0, 0]]}
for opts in ([], ["--gravity", "0,0,-9.81"], ["--no-friction"], ["--fixed-base", "--gravity", "1,2,-9"]):
    s = {k: v for k, v in st.items() if k[:2] != "u0" and k != "tau0"} if "--fixed-base" in opts else st
    a = run(["spart-fd", "-m", G, "--mimic"] + opts, s)[0]
    assert len(a["umdot"]) == 3
    back = dict(s, umdot=a["umdot"])
    if "u0dot" in a:
        back["u0dot"] = a["u0dot"]
    tau = run(["spart-id", "-m", G, "--mimic"] + opts, back)[0]
    close(tau["taum"], s["taum"], 1e-9, f"taum {opts}")
    if "--fixed-base" not in opts:
        close(tau["tau0"], s["tau0"], 1e-9, f"tau0 {opts}")
'
}

@test "spart-sim --mimic: the coupled system keeps its kinetic energy (K' H K) and its accelerations are spart-fd's" {
  check '
st = {"qm": [0.3, -0.2, 0.004], "u0": [0.1, -0.2, 0.3, 0.01, 0.02, -0.03], "um": [0.7, -1.1, 0.05]}
out = run(["spart-sim", "-m", G, "--mimic", "--no-friction", "--duration", "0.2", "--dt", "0.05",
           "--integrator", "dopri5", "--rtol", "1e-12", "--atol", "1e-14", "--accelerations"], st)
assert len(out) == 5 and len(out[-1]["qm"]) == 3
def energy(r):
    H = run(["spart-gim", "-m", G, "--mimic"], {"R0": r["R0"], "qm": r["qm"]})[0]["H"]
    u = r["u0"] + r["um"]
    return 0.5 * sum(a * b for a, b in zip(u, matvec(H, u)))
e0 = energy(out[0])
for r in out[1:]:
    close(energy(r), e0, 1e-9, "energy at t = %g" % r["t"])
a = run(["spart-fd", "-m", G, "--mimic", "--no-friction"], dict(st))[0]
close(out[0]["umdot"], a["umdot"], 0, "umdot")
close(out[0]["u0dot"], a["u0dot"], 0, "u0dot")
'
}

@test "spart-kin --mimic: the poses, twists, CoM and energies of the free model at q_free = K q + o, u_free = K u" {
  check '
st = {"qm": [0.3, -0.2, 0.004], "u0": [0.1, -0.2, 0.3, 0.4, 0.5, -0.6], "um": [0.7, -1.1, 0.05],
      "u0dot": [1, 2, -1, 0.5, -0.3, 0.2], "umdot": [-2, 3, 0.4]}
free = dict(st, qm=full_q(st["qm"]), um=full_v(st["um"]), umdot=full_v(st["umdot"]))
opts = ["--momentum", "--energy", "--gravity", "0,0,-9.81", "--frame", "finger_2_link,tip_1"]
c = run(["spart-kin", "-m", G, "--mimic"] + opts, st)[0]
f = run(["spart-kin", "-m", G] + opts, free)[0]
assert sorted(c) == sorted(f)
for k in c:
    close(c[k], f[k], 0, k)
# the kinetic energy is 1/2 u'"'"' (K'"'"' H K) u
H = run(["spart-gim", "-m", G, "--mimic"], {"qm": st["qm"]})[0]["H"]
u = st["u0"] + st["um"]
close(c["kinetic_energy"], 0.5 * sum(a * b for a, b in zip(u, matvec(H, u))), 1e-12, "energy")
'
}

@test "spart-id --mimic reads CSV rows of the reduced coordinates, two at a time as one" {
  printf 'qm_1,qm_2,qm_3,um_1,um_2,um_3,umdot_1,umdot_2,umdot_3,t\n' > "$BATS_TEST_TMPDIR/in.csv"
  for k in 1 2 3 4 5; do
    printf '0.%d,-0.2,0.00%d,0.7,-1.%d,0.05,-2,3,0.%d,%d\n' $k $k $k $k $k >> "$BATS_TEST_TMPDIR/in.csv"
  done
  spart-id -m "$G" --mimic --gravity 0,0,-9.81 -o json < "$BATS_TEST_TMPDIR/in.csv" > "$BATS_TEST_TMPDIR/csv.json"
  check '
import csv, json
rows = list(csv.DictReader(open("'"$BATS_TEST_TMPDIR/in.csv"'")))
out = [json.loads(l) for l in open("'"$BATS_TEST_TMPDIR/csv.json"'")]
assert len(out) == 5
for r, c in zip(rows, out):
    q = [float(r[f"qm_{k}"]) for k in (1, 2, 3)]
    um = [float(r[f"um_{k}"]) for k in (1, 2, 3)]
    ud = [float(r[f"umdot_{k}"]) for k in (1, 2, 3)]
    one = run(["spart-id", "-m", G, "--mimic", "--gravity", "0,0,-9.81"], {"qm": q, "um": um, "umdot": ud})[0]
    close(c["taum"], one["taum"], 0, "row")
    f = run(["spart-id", "-m", G, "--gravity", "0,0,-9.81"],
            {"qm": full_q(q), "um": full_v(um), "umdot": full_v(ud)})[0]
    close(c["taum"], matvec(T(K), f["taum"]), 1e-12, "K tau")
'
  # the free model's columns are refused: the system has 3 coordinates
  run --separate-stderr spart-id -m "$G" --mimic <<< $'qm_1,qm_2,qm_3,qm_4\n0,0,0,0'
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"column 'qm_4' is not a state column: qm_I takes I from 1 to 3"* ]]
}

@test "urdf2robot --mimic writes the couplings, and its model JSON gives the same outputs" {
  urdf2robot --mimic "$G" > "$BATS_TEST_TMPDIR/c.json"
  urdf2robot "$G" > "$BATS_TEST_TMPDIR/f.json"
  python3 - "$BATS_TEST_TMPDIR/c.json" "$BATS_TEST_TMPDIR/f.json" <<'PY'
import json, sys
c, f = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert c["mimic_coupled"] is True and "mimic_coupled" not in f
assert c["joints"][3]["mimic"] == {"joint": "finger_1", "multiplier": -1.5, "offset": 0.2}
del c["mimic_coupled"]
assert c == f
PY
  # read back: the same JSON, the same summary, the same numbers as the URDF with --mimic
  urdf2robot "$BATS_TEST_TMPDIR/c.json" | cmp - "$BATS_TEST_TMPDIR/c.json"
  diff <(urdf2robot --summary "$BATS_TEST_TMPDIR/c.json") <(urdf2robot --mimic --summary "$G")
  st='{"qm": [0.3, -0.2, 0.004], "um": [0.7, -1.1, 0.05], "u0": [0.1, 0, 0, 0, 0.2, 0]}'
  for cmd in "spart-gim --coriolis --inverse" "spart-id --gravity 0,0,-9.81"; do
    diff <($cmd -m "$BATS_TEST_TMPDIR/c.json" <<< "$st") <($cmd -m "$G" --mimic <<< "$st")
    # the model in the record couples as well
    diff <(python3 -c 'import json, sys; d = json.loads(sys.argv[1]); d["robot"] = json.load(open(sys.argv[2])); print(json.dumps(d))' "$st" "$BATS_TEST_TMPDIR/c.json" | $cmd) \
         <($cmd -m "$G" --mimic <<< "$st")
  done
  # "mimic_coupled" must be a boolean
  sed 's/"mimic_coupled":.*true/"mimic_coupled": 1/' "$BATS_TEST_TMPDIR/c.json" > "$BATS_TEST_TMPDIR/b.json"
  run --separate-stderr urdf2robot "$BATS_TEST_TMPDIR/b.json"
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"mimic_coupled: expected true or false, got a number" ]]
}

@test "--summary lists the couplings: free without --mimic, coupled with it" {
  run --separate-stderr urdf2robot --summary "$G"
  [ "$status" -eq 0 ]
  [[ "$output" == *$'\n'"mimic: joint 4 'finger_2' follows joint 'finger_1' (-1.5 x + 0.2), free without --mimic" ]]
  [[ "$output" != *coupled* ]]
  [[ "$output" == *$'\n'"n_q 4"$'\n'* ]]
  run --separate-stderr urdf2robot --mimic --summary "$G"
  [ "$status" -eq 0 ]
  [[ "$output" == *$'\n'"mimic: joint 4 'finger_2' follows joint 'finger_1' (-1.5 x + 0.2), coupled: not a coordinate"$'\n'* ]]
  [[ "$output" == *$'\n'"coupled n_q 3, n_v 3: the lengths of qm and um" ]]
}

@test "without --mimic the follower is a free degree of freedom: outputs of 4 joints" {
  out=$(spart-gim -m "$G" <<< '{"qm": [0.1, 0.2, 0.003, 0.4]}')
  python3 -c 'import json, sys; d = json.loads(sys.argv[1]); assert len(d["Hm"]) == 4' "$out"
  run --separate-stderr spart-id -m "$G" <<< '{"qm": [0.1, 0.2, 0.003]}'
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"qm has 3 values, model needs 4"* ]]
}

# the gripper with finger_2's <mimic> replaced, and a third finger: mimic_model MIMIC [FINGER3]
mimic_model() {
  sed "s|<mimic joint=\"finger_1\" multiplier=\"-1.5\" offset=\"0.2\"/>|$1|; s|</robot>|$2</robot>|" \
    "$G" > "$BATS_TEST_TMPDIR/m.urdf"
  printf '%s\n' "$BATS_TEST_TMPDIR/m.urdf"
}

FINGER3='<link name="f3"><inertial><mass value="0.1"/><inertia ixx="0.0001" ixy="0" ixz="0" iyy="0.0001" iyz="0" izz="0.0001"/></inertial></link><joint name="finger_3" type="revolute"><parent link="palm"/><child link="f3"/><origin xyz="0.02 0 0.06"/><axis xyz="0 1 0"/>@M3@</joint>'

@test "a chain of mimics is resolved to its free leader: q3 = 2 q2 - 0.1 = -3 q1 + 0.3" {
  f=$(mimic_model '<mimic joint="finger_1" multiplier="-1.5" offset="0.2"/>' \
        "${FINGER3/@M3@/<mimic joint=\"finger_2\" multiplier=\"2\" offset=\"-0.1\"/>}")
  run --separate-stderr urdf2robot --mimic --summary "$f"
  [ "$status" -eq 0 ]
  [[ "$output" == *"coupled n_q 3, n_v 3"* ]]
  check '
f = "'"$f"'"
K5 = K + [[0, -3, 0]]
q, um = [0.3, -0.2, 0.004], [0.7, -1.1, 0.05]
qf = full_q(q) + [-3 * q[1] + 0.3]
c = run(["spart-gim", "-m", f, "--mimic", "--fixed-base"], {"qm": q, "um": um})[0]
fr = run(["spart-gim", "-m", f, "--fixed-base"], {"qm": qf, "um": matvec(K5, um)})[0]
close(c["Hm"], matmul(T(K5), matmul(fr["Hm"], K5)), 1e-12, "Hm chain")
close(c["Cm"], matmul(T(K5), matmul(fr["Cm"], K5)), 1e-12, "Cm chain")
'
}

@test "--mimic refuses, in one line: a cycle, a joint of several coordinates, an unknown leader; a leader of another kind is coupled" {
  f=$(mimic_model '<mimic joint="finger_3"/>' "${FINGER3/@M3@/<mimic joint=\"finger_2\"/>}")
  run --separate-stderr urdf2robot --mimic "$f"
  [ "$status" -eq 1 ]
  [ "$stderr" = "urdf2robot: $f: joint 'finger_2': mimics form a cycle: 'finger_2' -> 'finger_3' -> 'finger_2'" ]
  # without --mimic they are only shown
  run --separate-stderr urdf2robot --summary "$f"
  [ "$status" -eq 0 ]
  # a revolute joint following a prismatic one (a rack and pinion): coupled, one coordinate less
  f=$(mimic_model '<mimic joint="tip_1_joint"/>')
  run --separate-stderr urdf2robot --mimic --summary "$f"
  [ "$status" -eq 0 ]
  [[ "$output" == *"follows joint 'tip_1_joint' (1 x + 0), coupled: not a coordinate"* ]]
  f=$(mimic_model '<mimic joint="finger_x"/>')
  run --separate-stderr urdf2robot --mimic "$f"
  [ "$status" -eq 1 ]
  [[ "$stderr" == "urdf2robot: $f:"*": joint 'finger_2': mimics unknown joint 'finger_x'" ]]
  # a ball joint as a follower
  f=$(mimic_model '' '<link name="f3"/><joint name="ball_3" type="ball"><parent link="palm"/><child link="f3"/><mimic joint="finger_1"/></joint>')
  run --separate-stderr urdf2robot --mimic "$f"
  [ "$status" -eq 1 ]
  [ "$stderr" = "urdf2robot: $f: joint 'ball_3': a coupled mimic joint and its leader are revolute, prismatic or helical, not a ball joint" ]
  # the same through a command's -m
  run --separate-stderr spart-id -m "$f" --mimic <<< '{}'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-id: $f: joint 'ball_3': a coupled mimic joint and its leader are revolute, prismatic or helical, not a ball joint" ]
}

@test "--mimic needs -m; spart-contact refuses a coupled model" {
  run --separate-stderr spart-id --mimic <<< '{}'
  [ "$status" -eq 2 ]
  [[ "${stderr%%$'\n'*}" == "spart-id: --mimic needs -m FILE"* ]]
  run --separate-stderr spart-contact --gravity 0,0,-9.81 -m "$G" --mimic <<< '{"qm": [0, 0, 0]}'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-contact: <stdin>:1: coupled mimic joints (--mimic, \"mimic_coupled\") are not yet supported by spart-contact" ]
  [ -z "$output" ]
}

@test "--check-limits with --mimic checks the followers too, by the system's columns" {
  run --separate-stderr spart-id -m "$G" --mimic --check-limits <<< '{"qm": [0.1, 0.45, 0.003], "um": [0, 1.5, 0]}'
  [ "$status" -eq 4 ]
  [ "${stderr_lines[0]}" = "spart-id: <stdin>:1: joint 'finger_1': um_2 = 1.5 exceeds velocity limit 1" ]
  [ "${stderr_lines[1]}" = "spart-id: <stdin>:1: joint 'finger_2': um_2 = -2.25 exceeds velocity limit 2" ]
  # finger_2 = -1.5 * 0.9 + 0.2 = -1.15 is below its lower limit -1
  run --separate-stderr spart-id -m "$G" --mimic --check-limits <<< '{"qm": [0.1, 0.9, 0.003]}'
  [ "$status" -eq 4 ]
  [ "${stderr_lines[0]}" = "spart-id: <stdin>:1: joint 'finger_1': qm_2 = 0.9 > upper limit 0.5" ]
  [ "${stderr_lines[1]}" = "spart-id: <stdin>:1: joint 'finger_2': qm_2 = -1.1500000000000001 < lower limit -1" ]
}
