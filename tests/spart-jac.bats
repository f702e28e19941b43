#!/usr/bin/env bats
# spart-jac: links by id or name, points, derivatives, the NOC.

load helper

check() { PYTHONPATH="$BATS_TEST_DIRNAME" python3 -c "from spartcheck import *; $1"; }

@test "a link named is the link of that id" {
  a=$(spart-jac -m "$MODELS/kuka_iiwa.urdf" --link lbr_iiwa_link_5 <<< '{"qm": [1,2,3,4,5,6,7]}')
  b=$(spart-jac -m "$MODELS/kuka_iiwa.urdf" --link 5 <<< '{"qm": [1,2,3,4,5,6,7]}')
  [ -n "$a" ]
  [ "$a" = "$b" ]
}

@test "the Jacobian of a point in the URDF link frame maps u to the point's twist from spart-kin" {
  check '
m = "'"$MODELS"'/branched_arm.urdf"
st = {"qm": [0.3, -0.5, 0.7, 0.2, 0.1, -0.4], "u0": [0.1, -0.2, 0.3, 0.4, 0.5, -0.6],
      "um": [1, -1, 0.5, 0.2, -0.3, 0.7]}
p = [0.1, -0.2, 0.05]
J = run(["spart-jac", "-m", m, "--link", "slider_b", "--point", "0.1,-0.2,0.05"], st)[0]
k = run(["spart-kin", "-m", m, "--frame", "slider_b"], st)[0]
i = 5  # slider_b is link 5 in depth-first order
# the point: p in the link frame (rF, RF), its twist moved from the CoM rL
x = [a + b for a, b in zip(k["rF"][0], matvec(k["RF"][0], p))]
close(J["r_point"], x, 1e-12, "r_point")
r, t = k["rL"][i - 1], k["tL"][i - 1]
d = [a - b for a, b in zip(x, r)]
assert max(abs(c) for c in [a - b for a, b in zip(k["rF"][0], r)]) > 1e-3, "CoM off the frame"
w = t[:3]
v = [t[3] + w[1] * d[2] - w[2] * d[1], t[4] + w[2] * d[0] - w[0] * d[2], t[5] + w[0] * d[1] - w[1] * d[0]]
tw = [a + b for a, b in zip(matvec(J["J0"], st["u0"]), matvec(J["Jm"], st["um"]))]
close(tw, w + v, 1e-12, "J u")
'
}

@test "--noc stacks the twists of the base and of every link" {
  check '
m = "'"$MODELS"'/branched_arm.urdf"
st = {"qm": [0.3, -0.5, 0.7, 0.2, 0.1, -0.4], "u0": [0.1, -0.2, 0.3, 0.4, 0.5, -0.6],
      "um": [1, -1, 0.5, 0.2, -0.3, 0.7]}
N = run(["spart-jac", "-m", m, "--noc"], st)[0]["N"]
k = run(["spart-kin", "-m", m], st)[0]
close(matvec(N, st["u0"] + st["um"]), k["t0"] + [x for t in k["tL"] for x in t], 1e-12, "N u")
'
}

@test "a link out of range or unknown is bad input, found once before any record" {
  run --separate-stderr spart-jac -m "$MODELS/kuka_iiwa.urdf" --link 99 <<< '{"qm": [0, 0, 0, 0, 0, 0, 0]}'
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "spart-jac: --link 99: model has links 0 to 7" ]
  run --separate-stderr spart-jac -m "$MODELS/kuka_iiwa.urdf" --link wrist -k <<< $'{"qm": [0, 0, 0, 0, 0, 0, 0]}\n{"qm": [0, 0, 0, 0, 0, 0, 0]}'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-jac: --link: no link named 'wrist'" ]
  run --separate-stderr spart-jac -m "$MODELS/kuka_iiwa.urdf" --link wrist < /dev/null
  [ "$status" -eq 1 ]
  robot=$(urdf2robot "$MODELS/SC_3DoF.urdf" | tr -d '\n')
  run --separate-stderr spart-jac --link 9 <<< "{\"robot\": $robot, \"qm\": [0, 0, 0]}"
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-jac: <stdin>:1: --link 9: model has links 0 to 5" ]
}

@test "--link that is an id and another link's name is refused; id: and name: pick one" {
  # link 1 is named "a", link 2 is named "1"
  cat > "$BATS_TEST_TMPDIR/named.urdf" <<'URDF'
<robot name="named">
  <link name="b"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="a"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="1"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="ja" type="revolute"><parent link="b"/><child link="a"/><origin xyz="1 0 0"/><axis xyz="0 0 1"/></joint>
  <joint name="j1" type="revolute"><parent link="a"/><child link="1"/><origin xyz="1 0 0"/><axis xyz="0 0 1"/></joint>
</robot>
URDF
  m="$BATS_TEST_TMPDIR/named.urdf"
  run --separate-stderr spart-jac -m "$m" --link 1 <<< '{"qm": [0, 0]}'
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "spart-jac: --link 1: ambiguous: link 1, or link 2 named '1' (write id:1 or name:1)" ]
  # the CoM of link 1 is 1 m from the base's along x, that of link 2 at 2 m: J0's v row y
  # holds -x of the point from r0 (w x r)
  run --separate-stderr spart-jac -m "$m" --link id:1 --only J0 <<< '{"qm": [0, 0]}'
  [ "$status" -eq 0 ]
  [ "$output" = '{"J0":[[1,0,0,0,0,0],[0,1,0,0,0,0],[0,0,1,0,0,0],[0,0,0,1,0,0],[0,0,1,0,1,0],[0,-1,0,0,0,1]]}' ]
  [ "$(spart-jac -m "$m" --link a --only J0 <<< '{"qm": [0, 0]}')" = "$output" ]
  [ "$(spart-jac -m "$m" --link name:a --only J0 <<< '{"qm": [0, 0]}')" = "$output" ]
  run --separate-stderr spart-jac -m "$m" --link name:1 --only J0 <<< '{"qm": [0, 0]}'
  [ "$status" -eq 0 ]
  [ "$output" = '{"J0":[[1,0,0,0,0,0],[0,1,0,0,0,0],[0,0,1,0,0,0],[0,0,0,1,0,0],[0,0,2,0,1,0],[0,-2,0,0,0,1]]}' ]
  [ "$(spart-jac -m "$m" --link 2 --only J0 <<< '{"qm": [0, 0]}')" = "$output" ]
  [ "$(spart-jac -m "$m" --link id:2 --only J0 <<< '{"qm": [0, 0]}')" = "$output" ]
  # an id that is the link's own name is no ambiguity; prefixes are checked
  run --separate-stderr spart-jac -m "$MODELS/kuka_iiwa.urdf" --link id:lbr_iiwa_link_7 <<< '{"qm": [0, 0, 0, 0, 0, 0, 0]}'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-jac: --link id:lbr_iiwa_link_7: not a link id (id:N, N from 0 to 7)" ]
  run --separate-stderr spart-jac -m "$MODELS/kuka_iiwa.urdf" --link id:8 <<< '{"qm": [0, 0, 0, 0, 0, 0, 0]}'
  [ "$stderr" = "spart-jac: --link id:8: model has links 0 to 7" ]
  run --separate-stderr spart-jac -m "$MODELS/kuka_iiwa.urdf" --link name:7 <<< '{"qm": [0, 0, 0, 0, 0, 0, 0]}'
  [ "$stderr" = "spart-jac: --link: no link named '7'" ]
  [ "$(spart-jac -m "$MODELS/kuka_iiwa.urdf" --link name:lbr_iiwa_link_7 <<< '{"qm": [0, 0, 0, 0, 0, 0, 0]}')" = \
    "$(spart-jac -m "$MODELS/kuka_iiwa.urdf" --link 7 <<< '{"qm": [0, 0, 0, 0, 0, 0, 0]}')" ]
}

@test "--dot needs no more than the velocities and adds J0dot and Jmdot" {
  run --separate-stderr spart-jac -m "$MODELS/SC_3DoF.urdf" --link 5 --dot <<< '{"qm": [0, 0, 0], "um": [1, 2, 3]}'
  [ "$status" -eq 0 ]
  [[ "$output" == '{"J0":'*'"Jm":'*'"J0dot":'*'"Jmdot":'* ]]
}

@test "--centroidal: AG [u0; um] is spart-kin's momentum (1e-12); with --dot AGdot_u is the central difference of AG u along the motion at constant u" {
  J="$BATS_TEST_DIRNAME/data/joints"
  urdf2robot --revolute sincos "$J/ball_chain.urdf" > "$BATS_TEST_TMPDIR/sc.json"
  check '
import math
def rodrigues(w, t):
    th = math.sqrt(sum(x * x for x in w)) * t
    K = [[0, -w[2] * t, w[1] * t], [w[2] * t, 0, -w[0] * t], [-w[1] * t, w[0] * t, 0]]
    K2 = matmul(K, K)
    s = math.sin(th) / th if th else 1
    c = (1 - math.cos(th)) / th ** 2 if th else 0.5
    return [[(r == k) + s * K[r][k] + c * K2[r][k] for k in range(3)] for r in range(3)]
R0 = [[0.36, 0.48, -0.8], [-0.8, 0.6, 0], [0.48, 0.64, 0.6]]
u0 = [0.2, -0.1, 0.3, 0.5, -0.2, 0.1]
for m, nq, nv, plain in (("'"$MODELS"'/kuka_iiwa.urdf", 7, 7, True),
                         ("'"$MODELS"'/2_iiwa_base.urdf", 14, 14, True),
                         ("'"$MODELS"'/branched_arm.urdf", 6, 6, True),
                         ("'"$J"'/floating_tree.urdf", 10, 9, False),
                         ("'"$BATS_TEST_TMPDIR"'/sc.json", 8, 4, False)):
    qm = [0.3 * math.sin(1.3 * k + 0.5) for k in range(nq)]
    if not plain and nq == 10:   # the floating joint: a unit quaternion after joint 1
        s = math.sqrt(sum(x * x for x in qm[1:5])); qm[1:5] = [x / s for x in qm[1:5]]
    if not plain and nq == 8:    # sin-cos pairs
        qm = [f(0.7 * k - 1) for k in range(4) for f in (math.sin, math.cos)]
    um = [0.4 * math.cos(0.7 * k) for k in range(nv)]
    st = {"R0": R0, "r0": [0.4, -0.3, 0.2], "qm": qm, "u0": u0, "um": um}
    a = run(["spart-jac", "-m", m, "--centroidal", "--dot"], st)[0]
    h = run(["spart-kin", "-m", m, "--momentum", "--only", "momentum"], st)[0]["momentum"]
    assert sorted(a) == ["AG", "AGdot_u"], sorted(a)
    assert len(a["AG"]) == 6 and all(len(r) == 6 + nv for r in a["AG"])
    close(matvec(a["AG"], u0 + um), h, 1e-12, m + ": AG u = momentum")
    if plain:  # qm moves at um: AG(t) u by central differences
        e = 1e-5
        def moved(t):
            return dict(st, R0=matmul(R0, rodrigues(u0[:3], t)),
                        r0=[p + t * v for p, v in zip(st["r0"], u0[3:])],
                        qm=[q + t * v for q, v in zip(qm, um)])
        hp, hm = (matvec(run(["spart-jac", "-m", m, "--centroidal"], moved(t))[0]["AG"], u0 + um)
                  for t in (e, -e))
        close(a["AGdot_u"], [(p - q) / (2 * e) for p, q in zip(hp, hm)], 1e-7,
              m + ": AGdot_u = d(AG u)/dt")
'
  # the option is needed for its outputs, and --dot for AGdot_u
  run --separate-stderr spart-jac -m "$MODELS/kuka_iiwa.urdf" --centroidal --only AGdot_u <<< '{"qm": [0,0,0,0,0,0,0]}'
  [ "$status" -eq 2 ]
  [[ "$stderr" == "spart-jac: --only AGdot_u: spart-jac writes it only with --dot"* ]]
  run spart-jac -m "$MODELS/kuka_iiwa.urdf" --centroidal -o csv <<< '{"qm": [0,0,0,0,0,0,0]}'
  [[ "${lines[0]}" == "AG_1_1,AG_1_2,"*",AG_6_13" ]]
}

@test "--reference local and world: the aligned Jacobian turned by the link frame's R' and moved to the origin by [1 0; [p]x 1] (1e-14)" {
  check '
def T(A):
    return [list(r) for r in zip(*A)]
def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
m = "'"$MODELS"'/kuka_iiwa.urdf"
st = {"R0": [[0.36, 0.48, -0.8], [-0.8, 0.6, 0], [0.48, 0.64, 0.6]], "r0": [1, -2, 0.5],
      "qm": [0.1, 0.5, -0.3, -1, 0.2, 0.5, 0.7], "u0": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6],
      "um": [0.7, -0.6, 0.5, -0.4, 0.3, -0.2, 0.1]}
for link in ("lbr_iiwa_link_7", "lbr_iiwa_link_3", "0"):
    for pt in ([], ["--point", "0.1,-0.05,0.2"]):
        J = {r: run(["spart-jac", "-m", m, "--link", link, "--reference", r] + pt, st)[0]
             for r in ("aligned", "local", "world")}
        plain = run(["spart-jac", "-m", m, "--link", link] + pt, st)[0]
        assert plain["J0"] == J["aligned"]["J0"] and plain["Jm"] == J["aligned"]["Jm"]
        name = "lbr_iiwa_link_0" if link == "0" else link
        k = run(["spart-kin", "-m", m, "--frame", name], st)[0]
        R = k["RF"][0]
        p = J["aligned"]["r_point"] if pt else (k["rL"][int(link[-1]) - 1] if link != "0" else st["r0"])
        for key in ("J0", "Jm"):
            A = J["aligned"][key]
            Rt = T(R)
            cols = list(zip(*A))
            loc = [matvec(Rt, list(c[:3])) + matvec(Rt, list(c[3:])) for c in cols]
            close(J["local"][key], T(loc), 1e-14, f"{link} {pt} {key} local")
            wor = [list(c[:3]) + [v + x for v, x in zip(c[3:], cross(p, c[:3]))] for c in cols]
            close(J["world"][key], T(wor), 1e-14, f"{link} {pt} {key} world")
        # the world frame: the twist of the body point at the origin, v_O = v_p - w x p
        t = matvec(J["world"]["Jm"], st["um"])
        ta = matvec(J["aligned"]["Jm"], st["um"])
        close(t[3:], [a - b for a, b in zip(ta[3:], cross(ta[:3], p))], 1e-14, "v_O")
'
  run --separate-stderr spart-jac -m "$MODELS/kuka_iiwa.urdf" --link 3 --reference body <<< '{"qm": [0,0,0,0,0,0,0]}'
  [ "$status" -eq 2 ]
  [ "${stderr_lines[0]}" = "spart-jac: --reference: expected world, local or aligned, got 'body'" ]
  run --separate-stderr spart-jac -m "$MODELS/kuka_iiwa.urdf" --link 3 --reference local --dot <<< '{"qm": [0,0,0,0,0,0,0]}'
  [ "$status" -eq 2 ]
  [ "${stderr_lines[0]}" = "spart-jac: --reference local with --dot: the derivatives are given in the aligned frame only" ]
  run --separate-stderr spart-jac -m "$MODELS/kuka_iiwa.urdf" --com --reference world <<< '{"qm": [0,0,0,0,0,0,0]}'
  [ "$status" -eq 2 ]
  [ "${stderr_lines[0]}" = "spart-jac: --reference does nothing without --link" ]
}
