#!/bin/sh
# valgrind.sh -- every command under valgrind memcheck on good and bad input: no error, no leak
# (what libraries spart links keep at exit, not spart's: scripts/valgrind.supp).
set -eu
cd "$(dirname "$0")/.."
bin=${SPART_BIN:-bin}
vg="valgrind -q --suppressions=scripts/valgrind.supp --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99"
fail=0
check() { # expected-status input command...
  want=$1 input=$2
  shift 2
  set +e
  printf '%s\n' "$input" | $vg "$@" > /dev/null 2> /tmp/spart-vg.$$
  got=$?
  set -e
  if [ "$got" -ne "$want" ]; then
    echo "FAIL (exit $got, expected $want): $*" >&2
    cat /tmp/spart-vg.$$ >&2
    fail=1
  else
    echo "ok: $*"
  fi
}
st=$(python3 -c 'import json; print(json.dumps(json.load(open("tests/reference/2_iiwa_base-s1.json"))["state"]))')
m=models/2_iiwa_base.urdf
for f in models/*.urdf; do
  check 0 "" "$bin/urdf2robot" "$f"
  check 0 "" "$bin/urdf2robot" --summary "$f"
done
check 1 "<robot><link name='a'/><link name='a'/></robot>" "$bin/urdf2robot"
feet='"contacts": [{"link": "fl_shank", "point": [0,0,-0.2], "normal": [0,0,1], "mu": 0.6}, {"link": "fr_shank", "point": [0,0,-0.2], "normal": [0,0,1], "mu": 0.6}, {"link": "hl_shank", "point": [0,0,-0.2], "normal": [0,0,1], "mu": 0.6}, {"link": "hr_shank", "point": [0,0,-0.2], "normal": [0,0,1], "mu": 0.6}]'
check 0 "{\"qm\": [0,0.4,-0.8,0,0.4,-0.8,0,0.4,-0.8,0,0.4,-0.8], $feet}" "$bin/spart-contact" -m models/quadruped.urdf --gravity 0,0,-9.81
check 1 '{"qm": [0,0.4,-0.8,0,0.4,-0.8,0,0.4,-0.8,0,0.4,-0.8], "contacts": [{"link": "wheel", "point": [0,0,0], "normal": [0,0,1], "mu": 0}]}' "$bin/spart-contact" -m models/quadruped.urdf --gravity 0,0,-9.81
check 1 "not xml" "$bin/urdf2robot"
check 1 "" "$bin/urdf2robot" /nonexistent.urdf
check 2 "" "$bin/urdf2robot" --bad
check 0 "$st" "$bin/spart-kin" -m "$m"
check 0 "$st" "$bin/spart-jac" -m "$m" --link 5 --dot --noc
check 0 "$st" "$bin/spart-gim" -m "$m" --coriolis --gravity 0,0,-9.81 --inverse
check 0 "$st" "$bin/spart-fd" -m "$m" --gravity 0,0,-9.81
check 0 "$st" "$bin/spart-id" -m "$m"
check 0 "$st" "$bin/spart-id" -m "$m" --floating
check 0 '{"qm": [1,2,3,4,5,6,7]}' "$bin/spart-id" -m models/kuka_iiwa.urdf -o csv
check 0 '{"qm": [1,2,3,4,5,6,7]}' "$bin/spart-fd" -m models/kuka_iiwa.urdf --fixed-base
check 0 "{\"robot\": $("$bin/urdf2robot" models/SC_3DoF.urdf | tr -d '\n'), \"qm\": [0.1, 0.2, 0.3], \"um\": [1, 2, 3]}" \
  "$bin/spart-gim"
for f in models/*.dh.json; do
  check 0 "" "$bin/dh2robot" "$f"
  check 0 "" "$bin/dh2robot" --summary "$f"
done
check 1 '{"dh": "standard", "links": [{"alpah": 1}]}' "$bin/dh2robot"
check 1 '{"n": 1, "man": [{}]}' "$bin/dh2robot"
check 0 '{"qm": [1,2,3,4,5,6], "um": [1,-1,0,1,2,3], "umdot": [1,2,3,4,5,6]}' "$bin/spart-id" \
  -m models/puma560.dh.json --fixed-base --gravity 0,0,-9.81
check 0 '{"qm": [1,2,3,4,5,6], "um": [1,-1,0,1,2,3], "taum": [1,2,3,4,5,6]}' "$bin/spart-fd" \
  -m models/puma560.dh.json --fixed-base
check 1 '{"qm": [1]}' "$bin/spart-id" -m "$m"
check 1 '{"qm": [1, 2,}' "$bin/spart-kin" -m "$m" -k
check 1 "$(printf 'time,qm_1,qm_2,qm_3\n1,2,3,4\n1,2')" "$bin/spart-kin" -m models/SC_3DoF.urdf -o csv
# CSV rows read two at a time by spart-id, a bad row the second of a pair and one the first
rows=$(printf 't,qm_1,qm_2,qm_3,um_1,um_2,um_3,u0_1,u0_2,u0_3,u0_4,u0_5,u0_6\n%s\n%s\n%s\n%s\n%s' \
  0,1,2,3,1,1,1,0,0,0,0,0,0 1,1,2,3,1,1,1,0.5,0,0,0,0,0 2,1,2,3,1e300,1,1,0,0,0,0,0,0 \
  3,1,2,3,1,1,1,0,0,0,0,0,0 4,1,2,3,1,1,1,0,0,0,0,0,0)
check 1 "$rows" "$bin/spart-id" -m models/SC_3DoF.urdf --fixed-base -k -o csv
check 1 "$rows" "$bin/spart-id" -m models/SC_3DoF.urdf --fixed-base -o csv
check 1 '{}' "$bin/spart-jac" -m "$m" --link nosuch
check 1 '{}' "$bin/spart-id" -m /nonexistent.urdf
check 2 '{}' "$bin/spart-fd" --frobnicate
# spart-sim: a short run with both integrators, and a record the model refuses
check 0 '{"qm": [0, 0, 0], "taum": [0.5, 0, 0], "um": [0.1, 0, 0]}' "$bin/spart-sim" -m models/SC_3DoF.urdf --duration 0.01 -o csv
check 0 '{"qm": [0, 0, 0], "taum": [0.5, 0, 0]}' "$bin/spart-sim" -m models/SC_3DoF.urdf --duration 0.01 --integrator dopri5
check 1 '{"qm": [1, 2]}' "$bin/spart-sim" -m models/SC_3DoF.urdf --duration 0.01
# several initial states, a trajectory each, one of them refused, -k; one thread and three
sims=$(printf '{"qm": [0, 0, 0]}\n{"qm": [1, 2]}\n{"qm": [0.1, 0, 0]}')
check 1 "$sims" "$bin/spart-sim" -m models/SC_3DoF.urdf --duration 0.01 -k
check 1 "$sims" "$bin/spart-sim" -m models/SC_3DoF.urdf --duration 0.01 -k -j 3
# -j 3 on records with a bad one, -k; and a run stopped by it
rows=$(printf 'qm_1,qm_2,qm_3\n0,0,0\n1,x,0\n0.1,0,0\n0.2,0,0')
check 1 "$rows" "$bin/spart-id" -m models/SC_3DoF.urdf -j 3 -k
check 1 "$rows" "$bin/spart-kin" -m models/SC_3DoF.urdf -j 3
# --inputs in JSON (its times read as JSON numbers) and in CSV
printf '[{"t": 0, "taum": [1, 0, 0]}, {"t": 0.005, "taum": [0, 1, 0]}]\n' > /tmp/spart-vg-in.$$.json
printf 't,taum_1,taum_2,taum_3\n0,1,0,0\n0.005,2,0,0\n' > /tmp/spart-vg-in.$$.csv
check 0 '{"qm": [0, 0, 0]}' "$bin/spart-sim" -m models/SC_3DoF.urdf --duration 0.01 --inputs /tmp/spart-vg-in.$$.json
check 0 '{"qm": [0, 0, 0]}' "$bin/spart-sim" -m models/SC_3DoF.urdf --duration 0.01 --inputs /tmp/spart-vg-in.$$.csv
rm -f /tmp/spart-vg-in.$$.json /tmp/spart-vg-in.$$.csv
# spart-cmp: equal and different streams, JSON against CSV, and a file that is not there
printf 'taum_1,taum_2\n1,2\n' > /tmp/spart-vg-a.$$
check 0 '{"taum": [1, 2]}' "$bin/spart-cmp" /tmp/spart-vg-a.$$ -
check 1 '{"taum": [1, 2.5]}' "$bin/spart-cmp" /tmp/spart-vg-a.$$ -
check 2 '' "$bin/spart-cmp" /tmp/spart-vg-a.$$ /nonexistent.csv
# spart-codegen: the floating base's code and header, the fixed base's frames alone, a joint it
# does not generate, bad usage
check 0 '' "$bin/spart-codegen" -m "$m"
check 0 '' "$bin/spart-codegen" -m "$m" --header
check 0 '' "$bin/spart-codegen" -m models/kuka_iiwa.urdf --fixed-base --functions fk,jac
in='<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>'
planar="<robot name='r'><link name='a'/><link name='b'>$in</link><link name='c'>$in</link>
<joint name='j' type='revolute'><parent link='a'/><child link='b'/><axis xyz='0 0 1'/>
<limit lower='-1' upper='1' effort='1' velocity='1'/></joint>
<joint name='k' type='planar'><parent link='b'/><child link='c'/></joint></robot>"
check 1 "$planar" "$bin/spart-codegen" -m -
check 2 '' "$bin/spart-codegen" -m "$m" --functions nothing
# spart-states, spart-draw, dh2robot: records made, normalised and drawn; a DH arm read
check 0 '' "$bin/spart-states" -m "$m" --random 3 --velocities --forces
check 0 "$st" "$bin/spart-states" -m "$m" --normalize
check 0 "$st" "$bin/spart-draw" -m "$m"
check 1 '{"qm": [0]}' "$bin/spart-draw" -m "$m"
check 0 '' "$bin/dh2robot" models/puma560.dh.json
check 1 '{"dh": "standard"}' "$bin/dh2robot"
# meshes through Assimp (STL, COLLADA) and their hulls; the Panda drawn with its meshes from
# the model JSON, and its mesh contacts dropped on the ground by the implicit step
d=/tmp/spart-vg-d.$$
mkdir -p "$d"
panda=tests/data/example-robot-data/robots/panda_description/urdf/panda.urdf
anymal=tests/data/example-robot-data/robots/anymal_c_simple_description/urdf/anymal.urdf
check 0 '' "$bin/urdf2robot" --package-path tests/data "$panda"
check 0 '' "$bin/urdf2robot" --summary --package-path tests/data "$anymal"
"$bin/urdf2robot" --package-path tests/data "$panda" > "$d/panda.json"
pq='{"qm": [0, -0.5, 0, -2, 0, 1.5, 0.8, 0.02, 0.02]}'
check 0 "$pq" "$bin/spart-draw" -m "$d/panda.json" --view iso --gravity 0,0,-9.81
check 0 '{"qm": [0, 0.5, 0, -1, 0, 1, 0]}' "$bin/spart-draw" -m models/kuka_iiwa.urdf
check 0 "$pq" "$bin/spart-sim" -m "$d/panda.json" --fixed-base --gravity 0,0,-9.81 \
  --duration 0.02 --integrator implicit
printf '{"t": 0, "qm": [0, 0.4, -0.8, 0, 0.4, -0.8, 0, 0.4, -0.8, 0, 0.4, -0.8]}\n' > "$d/ref.json"
check 0 '{"r0": [0, 0, 0.45], "qm": [0, 0.4, -0.8, 0, 0.4, -0.8, 0, 0.4, -0.8, 0, 0.4, -0.8]}' \
  "$bin/spart-sim" -m models/quadruped.urdf --gravity 0,0,-9.81 --ground --duration 0.05 \
  --integrator implicit --control pd --kp 300 --kd 5 --reference "$d/ref.json"
# derivatives and the linear model
check 0 "$st" "$bin/spart-id" -m "$m" --derivatives
check 0 '{"qm": [1,2,3,4,5,6,7], "um": [1,0,0,0,0,0,1]}' "$bin/spart-id" -m models/kuka_iiwa.urdf \
  --fixed-base --derivatives -o csv
check 0 "$st" "$bin/spart-fd" -m "$m" --derivatives
check 0 '{"qm": [0,0.5,0,-1,0,1,0]}' "$bin/spart-fd" -m models/kuka_iiwa.urdf --fixed-base \
  --gravity 0,0,-9.81 --linearize
check 2 "$st" "$bin/spart-id" -m "$m" --floating --derivatives
# spart-ik: a full pose, a position alone, a stance, one it cannot reach; spart-contact with the
# stance and writing one back
t='{"link": "lbr_iiwa_link_7", "position": [0.4, 0.2, 0.6], "R": [[0, 0, 1], [0, 1, 0], [-1, 0, 0]]}'
check 0 "{\"qm\": [0, 0, 0, 0, 0, 0, 0], \"targets\": [$t]}" "$bin/spart-ik" -m models/kuka_iiwa.urdf --fixed-base
check 0 '{"targets": [{"link": 7, "point": [0, 0, 0.126], "position": [0.5, 0, 0.4]}]}' \
  "$bin/spart-ik" -m models/kuka_iiwa.urdf --fixed-base
check 1 '{"targets": [{"link": 7, "position": [5, 0, 0.4]}]}' "$bin/spart-ik" -m models/kuka_iiwa.urdf --fixed-base
h() { printf '{"link": "%s_shank", "point": [0, 0, -0.2], "position": [%s, 0], "contacts": [{"point": [0, 0, -0.2], "normal": [0, 0, 1], "mu": 0.6}]}' "$1" "$2"; }
printf '{"holds": [%s, %s, %s, %s]}\n' "$(h fl 0.2,0.15)" "$(h fr 0.2,-0.15)" "$(h hl -0.3,0.15)" \
  "$(h hr -0.3,-0.15)" > "$d/feet.json"
q0='{"qm": [0, 0.4, -0.8, 0, 0.4, -0.8, 0, 0.4, -0.8, 0, 0.4, -0.8], "targets": [{"link": "torso", "position": [-0.05, 0, 0.35], "quat": [1, 0, 0, 0]}]}'
check 0 "$q0" "$bin/spart-ik" -m models/quadruped.urdf --stance "$d/feet.json"
printf "%s\n" "$q0" | "$bin/spart-ik" -m models/quadruped.urdf --stance "$d/feet.json" > "$d/pose.json"
check 0 "$(cat "$d/pose.json")" "$bin/spart-contact" -m models/quadruped.urdf --gravity 0,0,-9.81 \
  --stance "$d/feet.json" --write-stance "$d/again.json"
check 0 "$(cat "$d/pose.json")" "$bin/spart-draw" -m models/quadruped.urdf --gravity 0,0,-9.81 \
  --stance "$d/feet.json"
rm -rf "$d"
rm -f /tmp/spart-vg.$$ /tmp/spart-vg-a.$$
exit $fail
