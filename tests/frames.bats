#!/usr/bin/env bats
# URDF link frames (spart-kin --frame, --attitude), the base's <inertial> origin in the model,
# and the tool point of spart-jac --point.

load helper

check() { PYTHONPATH="$BATS_TEST_DIRNAME" python3 -c "from spartcheck import *; from math import *; $1"; }

# a base with an offset <inertial>, a link with none and a link with a turned and moved one
two_links() {
  cat > "$1" <<'URDF'
<robot name="two">
  <link name="base"><inertial><origin xyz="0.1 -0.2 0.3" rpy="0.3 -0.2 0.5"/><mass value="4"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="2" iyz="0" izz="3"/></inertial></link>
  <link name="plain"><inertial><mass value="1"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="offset"><inertial><origin xyz="0.2 0.05 -0.1" rpy="-0.4 0.7 1.1"/>
    <mass value="2"/><inertia ixx="0.3" ixy="0" ixz="0" iyy="0.2" iyz="0" izz="0.1"/></inertial>
  </link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="plain"/>
    <origin xyz="0 0 0.5" rpy="0 0.2 0"/><axis xyz="0 1 0"/></joint>
  <joint name="j2" type="prismatic"><parent link="plain"/><child link="offset"/>
    <origin xyz="0.3 0 0" rpy="0.1 0 0"/><axis xyz="1 0 0"/></joint>
</robot>
URDF
}

PYDEFS='
def rpy(r, p, y):
    cr, sr, cp, sp, cy, sy = cos(r), sin(r), cos(p), sin(p), cos(y), sin(y)
    return [[cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
            [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
            [-sp, cp * sr, cp * cr]]
def quat(q):
    w, x, y, z = q
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]
def tr(A):
    return [list(r) for r in zip(*A)]
def add(a, b):
    return [x + y for x, y in zip(a, b)]
'

@test "a link's URDF frame is its CoM frame moved back by its <inertial> origin, the base's too" {
  two_links "$BATS_TEST_TMPDIR/two.urdf"
  check "$PYDEFS"'
m = "'"$BATS_TEST_TMPDIR"'/two.urdf"
st = {"R0": rpy(0.2, -0.3, 0.9), "r0": [1, 2, 3], "qm": [0.7, 0.25]}
k = run(["spart-kin", "-m", m, "--frame", "base,plain,offset"], st)[0]
# base: R0 = RF B, r0 = rF + RF b
B, b = rpy(0.3, -0.2, 0.5), [0.1, -0.2, 0.3]
close(matmul(k["RF"][0], B), st["R0"], 1e-14, "base R")
close(add(k["rF"][0], matvec(k["RF"][0], b)), st["r0"], 1e-14, "base r")
# a link without an <inertial> origin: the CoM frame itself
close(k["RF"][1], k["RL"][0], 1e-15, "plain R")
close(k["rF"][1], k["rL"][0], 1e-15, "plain r")
# the other: RL = RF B, rL = rF + RF b
B, b = rpy(-0.4, 0.7, 1.1), [0.2, 0.05, -0.1]
close(matmul(k["RF"][2], B), k["RL"][1], 1e-14, "offset R")
close(add(k["rF"][2], matvec(k["RF"][2], b)), k["rL"][1], 1e-14, "offset r")
# and its origin slid q2 along the joint axis from the joint position, as URDF has it
close(k["rF"][2], add(k["rJ"][1], [0.25 * e for e in k["e"][1]]), 1e-14, "prismatic origin")
'
}

@test "quaternions [w,x,y,z] and roll-pitch-yaw of the frames give back their rotation matrices" {
  check "$PYDEFS"'
m = "'"$MODELS"'/kuka_iiwa.urdf"
names = ",".join(["lbr_iiwa_link_%d" % i for i in range(8)])
for qm in ([0.3, -1.2, 2.1, 0.4, -2.9, 1.5, 0.2], [0, 1.5707963267948966, 0, 0, 0, 0, 0]):
    k = run(["spart-kin", "-m", m, "--frame", names, "--attitude", "matrix,quat,rpy"],
            {"qm": qm, "R0": rpy(0.1, 0.2, -0.3)})[0]
    assert len(k["RF"]) == 8
    for R, q, a in zip(k["RF"], k["qF"], k["rpyF"]):
        assert q[0] >= 0 and abs(sum(c * c for c in q) - 1) < 1e-15
        close(quat(q), R, 4e-15, "quat")
        close(rpy(*a), R, 4e-15, "rpy")
        assert -pi / 2 <= a[1] <= pi / 2
'
}

@test "a quarter turn about z is the quaternion [cos 45, 0, 0, sin 45] and yaw pi/2" {
  cat > "$BATS_TEST_TMPDIR/z.urdf" <<'URDF'
<robot name="z"><link name="a"/><link name="b"/>
<joint name="j" type="continuous"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/></joint>
</robot>
URDF
  check '
k = run(["spart-kin", "-m", "'"$BATS_TEST_TMPDIR"'/z.urdf", "--frame", "b", "--attitude",
         "quat,rpy"], {"qm": [pi / 2]})[0]
close(k["qF"], [[sqrt(0.5), 0, 0, sqrt(0.5)]], 2e-16, "q")
close(k["rpyF"], [[0, 0, pi / 2]], 2e-16, "rpy")
assert "RF" not in k and "rF" in k, sorted(k)
'

  # pitch at the gimbal lock: roll 0, the turn about z in yaw
  run spart-kin -m "$BATS_TEST_TMPDIR/z.urdf" --frame a --attitude rpy --only rpyF \
    <<< '{"R0": [[0, 0, 1], [0, 1, 0], [-1, 0, 0]], "qm": [0]}'
  [ "$output" = '{"rpyF":[[0,1.5707963267948966,0]]}' ]
}

@test "--frame in CSV writes rF and RF columns; misuse of --frame and --attitude is refused" {
  run spart-kin -m "$MODELS/SC_3DoF.urdf" --frame 0,2 --only rF,qF --attitude quat -o csv <<< '{"qm": [0, 0, 0]}'
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "rF_1_1,rF_1_2,rF_1_3,rF_2_1,rF_2_2,rF_2_3,qF_1_1,qF_1_2,qF_1_3,qF_1_4,qF_2_1,qF_2_2,qF_2_3,qF_2_4" ]
  run --separate-stderr spart-kin -m "$MODELS/SC_3DoF.urdf" --attitude quat <<< '{}'
  [ "$status" -eq 2 ]
  [ "${stderr_lines[0]}" = "spart-kin: --attitude needs --frame" ]
  run --separate-stderr spart-kin -m "$MODELS/SC_3DoF.urdf" --frame 1 --attitude euler <<< '{}'
  [ "$status" -eq 2 ]
  [ "${stderr_lines[0]}" = "spart-kin: --attitude: expected matrix, quat or rpy (or a list), got 'euler'" ]
  run --separate-stderr spart-kin -m "$MODELS/SC_3DoF.urdf" --frame 1 --frame 2 <<< '{}'
  [ "$status" -eq 2 ]
  run --separate-stderr spart-kin -m "$MODELS/SC_3DoF.urdf" --frame 1,tool <<< '{}'
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "spart-kin: --frame: no link named 'tool'" ]
  run --separate-stderr spart-kin -m "$MODELS/SC_3DoF.urdf" --frame 9 <<< '{}'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-kin: --frame 9: model has links 0 to 5" ]
}

@test "the base's <inertial> origin is kept in the model JSON as base_link.T and read back" {
  run urdf2robot "$MODELS/kuka_iiwa.urdf"
  [ "$status" -eq 0 ]
  [[ "$output" == *'"T":	[[1, 0, 0, -0.1], [0, 1, 0, 0], [0, 0, 1, 0.07], [0, 0, 0, 1]]'* ]]
  urdf2robot "$MODELS/kuka_iiwa.urdf" > "$BATS_TEST_TMPDIR/k.json"
  st='{"qm": [0.3, -1.2, 2.1, 0.4, -2.9, 1.5, 0.2], "r0": [1, 2, 3]}'
  a=$(spart-kin -m "$MODELS/kuka_iiwa.urdf" --frame 0,3 <<< "$st")
  b=$(spart-kin -m "$BATS_TEST_TMPDIR/k.json" --frame 0,3 <<< "$st")
  [ "$a" = "$b" ]
  [[ "$a" == *'"rF":[[1.1,2,2.93],'* ]]
  # a base T that is not a rotation is refused
  sed 's/\[\[1, 0, 0, -0.1\]/[[2, 0, 0, -0.1]/' "$BATS_TEST_TMPDIR/k.json" > "$BATS_TEST_TMPDIR/bad.json"
  run --separate-stderr spart-kin -m "$BATS_TEST_TMPDIR/bad.json" <<< '{"r0": [0, 0, 0]}'
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"T does not hold a rotation matrix"* ]]
}

@test "spart-jac --point needs --link, and --dot needs --link or --noc" {
  run --separate-stderr spart-jac -m "$MODELS/SC_3DoF.urdf" --noc --point 1,0,0 <<< '{}'
  [ "$status" -eq 2 ]
  [ "${stderr_lines[0]}" = "spart-jac: --point does nothing without --link" ]
  run --separate-stderr spart-jac -m "$MODELS/SC_3DoF.urdf" --com --dot <<< '{}'
  [ "$status" -eq 2 ]
  [ "${stderr_lines[0]}" = "spart-jac: --dot does nothing without --link" ]
  run --separate-stderr spart-jac -m "$MODELS/SC_3DoF.urdf" --com --only r_point <<< '{}'
  [ "$status" -eq 2 ]
  [ "${stderr_lines[0]}" = "spart-jac: --only r_point: spart-jac writes it only with --link" ]
}
