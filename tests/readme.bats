#!/usr/bin/env bats
# The README's pipeline, as written: a URDF and a trajectory CSV to the torques, a limits check,
# a gnuplot picture of computed beside measured torques, and a spart-cmp regression check.
# Where gnuplot is not installed, the plot's data stage is checked instead: every column the
# gnuplot script plots is in the CSV it reads.
# spart(7) and the README's table of commands name every command (src/*.c).

load helper

# the README's "    $ " lines of the pipeline section
pipeline() {
  sed -n '/^## From a URDF and a trajectory/,/^## /s/^    \$ //p' "$TOP/README.md"
}

setup() {
  cd "$BATS_TEST_TMPDIR"
  ln -s "$TOP/models" models
  ln -s "$TOP/examples" examples
  ln -s "${SPART_BIN:-$TOP/bin}" bin
}

@test "the README's pipeline runs: torques, limits, the plot (or its data), the regression check" {
  pipeline > steps.sh
  [ "$(wc -l < steps.sh)" -eq 5 ]
  grep -q '^gnuplot examples/torques.gp$' steps.sh
  if ! command -v gnuplot > /dev/null; then
    # the data stage: the columns torques.gp plots, each there
    sed -i 's|^gnuplot examples/torques.gp$|python3 "$0.check"|' steps.sh
    cat > steps.sh.check <<'PY'
import csv, re
gp = open("examples/torques.gp").read()
head = next(csv.reader(open("torques.csv")))
names = ["time"] + [f % j for f in re.findall(r"sprintf\('(\w+_%d)', j\)\)\)", gp) for j in range(1, 8)]
assert len(names) == 15, names
missing = [n for n in names if n not in head]
assert not missing, missing
rows = list(csv.DictReader(open("torques.csv")))
assert len(rows) == 101 and all(r[n] for r in rows for n in names)
print("data stage: %d rows of %s" % (len(rows), " ".join(names)))
PY
  fi
  run --separate-stderr bash -e steps.sh
  echo "$output" "$stderr"
  [ "$status" -eq 0 ]
  [[ "${lines[-1]}" == "101 records: equal within the tolerances" ]]
  if command -v gnuplot > /dev/null; then
    [ -s torques.png ]
  fi
  # the computed torques follow the measured ones to their 0.3 N m sensor error, independently
  python3 - <<'PY'
import csv
for r in csv.DictReader(open("torques.csv")):
    for j in range(1, 8):
        assert abs(float(r["taum_%d" % j]) - float(r["meas_%d" % j])) <= 0.3 + 1e-3, r
PY
}

@test "the README's regression check fails on a changed model" {
  pipeline | sed -n '2p' | sed 's|models/kuka_iiwa.urdf|heavy.json|' > steps.sh
  # the iiwa with its last link 10% heavier
  urdf2robot models/kuka_iiwa.urdf | python3 -c 'import json, sys
d = json.load(sys.stdin); d["links"][-1]["mass"] *= 1.1; json.dump(d, sys.stdout)' > heavy.json
  PATH="$PWD/bin:$PATH" bash -e steps.sh
  run -1 bin/spart-cmp --fields taum --atol taum=1e-9 examples/iiwa_torques_ref.csv torques.csv
  [[ "${lines[0]}" == "record 2 (examples/iiwa_torques_ref.csv:3, torques.csv:3): taum_1: "* ]]
}

@test "spart(7) and the README's table list every command, each with its man page: the lists cannot drift" {
  # 5fb268f's spart(7) left out spart-draw, spart-codegen and spart-states.  The commands are
  # the programs of src/*.c (one main each); spart(7) names each in its list of commands
  # (.It Xr NAME 1) and in SEE ALSO, and names no command that is not one
  local f c cmds=()
  for f in "$TOP"/src/*.c; do
    c=${f##*/}
    cmds+=("${c%.c}")
  done
  [ "${#cmds[@]}" -ge 13 ]
  local page="$TOP/man/spart.7" missing=()
  sed -n '/^\.Sh SEE ALSO/,$p' "$page" > see_also
  for c in "${cmds[@]}"; do
    [ -s "$TOP/man/$c.1" ] || missing+=("$c: no man/$c.1")
    grep -qx "\.It Xr $c 1" "$page" || missing+=("$c: not in spart(7)'s list of commands")
    grep -qx "\.Xr $c 1 ,\{0,1\}" see_also || missing+=("$c: not in spart(7)'s SEE ALSO")
    grep -q "^| \`$c\` |" "$TOP/README.md" || missing+=("$c: not in the README's table")
  done
  printf '%s\n' "${missing[@]}"
  [ "${#missing[@]}" -eq 0 ]
  # and nothing else: each listed command is one of src/*.c
  run -0 sed -n 's/^\.It Xr \([^ ]*\) 1$/\1/p' "$page"
  [ "$(printf '%s\n' "${lines[@]}" | sort)" = "$(printf '%s\n' "${cmds[@]}" | sort)" ]
}

@test "the README's linear model: A of the iiwa held at a pose has real positive eigenvalues, the LQR gain from A and B in one line of python3-scipy makes every closed-loop real part negative" {
  sed -n '/^## A linear model and an LQR gain/,/^## /s/^    \$ //p' "$TOP/README.md" > steps.sh
  [ "$(wc -l < steps.sh)" -eq 4 ]
  # Debian's python3 has python3-scipy (scripts/deps.sh): first in PATH if the first has no scipy
  if ! python3 -c 'import scipy' 2> /dev/null && /usr/bin/python3 -c 'import scipy' 2> /dev/null; then
    mkdir py && ln -s /usr/bin/python3 py/python3
    sed -i "1a export PATH=\"$PWD/py:\$PATH\"" steps.sh
  fi
  run --separate-stderr bash -e steps.sh
  echo "$output" "$stderr"
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -ge 2 ]
  # the eigenvalues' real parts as the README says them (numpy prints them over lines)
  local eig closed
  eig=$(echo "${lines[@]:0:${#lines[@]}-1}" | tr -d '[]')
  closed=${lines[-1]}
  python3 - "$eig" "$closed" <<'PY'
import sys
re = [float(v) for v in sys.argv[1].split()]
assert len(re) == 14, re
pos = sorted(v for v in re if v > 1e-9)
assert pos == [0.924, 4.404], pos
assert sum(1 for v in re if abs(v) < 1e-9) == 2, re
assert float(sys.argv[2]) == -0.667, sys.argv[2]
PY
  # A and B are what spart-fd --derivatives writes, in the README's places
  python3 - <<'PY'
import json, subprocess
L = json.load(open("lin.json"))
A, B = L["A"], L["B"]
assert len(A) == 14 and len(B) == 14 and all(len(r) == 7 for r in B)
assert all(A[i][j] == 0 and A[i][7 + j] == (i == j) and B[i][j] == 0 for i in range(7) for j in range(7))
PY
}

@test "the README's Go1 stance: spart-ik puts the feet on docs/go1-stance.json's points, spart-contact --stance finds it feasible with the CoM inside, spart-draw --stance draws its four contacts" {
  # the block from its t= line to the picture
  python3 -c '
import sys
lines = open(sys.argv[1]).read().split("\n")
start = next(i for i, l in enumerate(lines) if l.startswith("    t=") and "trunk" in l)
stop = next(i for i in range(start, len(lines)) if lines[i].endswith("> go1.svg"))
print("\n".join(l[4:] for l in lines[start:stop + 1]))' "$TOP/README.md" > steps.sh
  [ "$(wc -l < steps.sh)" -eq 7 ]
  mkdir tests && ln -s "$TOP/tests/data" tests/data && ln -s "$TOP/docs" docs
  run --separate-stderr bash -e steps.sh
  echo "$output" "$stderr"
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  [[ "$output" =~ ^'{"com_margin":0.129'[0-9]*',"feasible":true}'$ ]]
  xmllint --noout go1.svg
  rsvg-convert go1.svg -o go1.png
  [ "$(grep -c '<circle[^>]*fill="#c62828"' go1.svg)" -eq 4 ]
  [ "$(grep -c 'fill="#c8e6c9"' go1.svg)" -eq 1 ]
  # the feet where the stance holds them, to 1e-9
  spart-kin -m tests/data/go1.urdf --frame FR_foot,FL_foot,RR_foot,RL_foot --only rF < go1.json |
    python3 -c '
import json, math, sys
rF = json.load(sys.stdin)["rF"]
S = json.load(open("docs/go1-stance.json"))
for r, h in zip(rF, S["holds"]):
    assert math.dist(r, h["position"]) < 1e-9, (r, h)
'
}

@test "the Quick start's demo: at most 15 lines of 80 columns, a PNG of the quadruped standing on its weight, three commands to try that run" {
  command -v rsvg-convert > /dev/null || skip "no rsvg-convert (librsvg2-bin: scripts/deps.sh)"
  # the commands under test, not a build of the tree (SPART_BIN); its files in DIR
  run --separate-stderr env SPART_BIN="${SPART_BIN:-$TOP/bin}" sh "$TOP/scripts/demo.sh" demo
  printf '%s\n' "$output" "# stderr:" "$stderr"
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  [ "${#lines[@]}" -le 15 ]
  # (each as wide as with the default folder, build/demo)
  local l
  for l in "${lines[@]}"; do
    l=${l//"$BATS_TEST_TMPDIR/demo"/build/demo}
    [ "${#l}" -le 80 ] || { echo "too wide: $l"; false; }
  done
  # the picture: a PNG, drawn from the standing state's SVG
  [ "$(head -c 8 demo/stand.png | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
  grep -q '<svg' demo/stand.svg
  [[ "$output" == *"demo/stand.png"* ]]
  # it stands: its feet bear its weight (16.8 kg), its base above the ground
  local fz z
  fz=$(sed -n 's/.*its feet bear \([0-9.]*\) N.*/\1/p' <<< "$output")
  z=$(sed -n 's/.*its base at z = \([0-9.]*\) m.*/\1/p' <<< "$output")
  awk -v f="$fz" -v z="$z" 'BEGIN { exit !(f > 0.99 * 16.8 * 9.81 && f < 1.01 * 16.8 * 9.81 &&
    z > 0.3 && z < 0.5) }'
  # the last three lines: commands to try next, which run from the top of the clone with the
  # commands on the PATH
  [[ "${lines[-4]}" == "Try next"* ]]
  local cmd
  for cmd in "${lines[@]: -3}"; do
    case $cmd in
      "  man -l "*) [ -s "$TOP/${cmd#  man -l }" ] ;;
      *) (cd "$TOP" && PATH="${SPART_BIN:-$TOP/bin}:$PATH" bash -e -c "$cmd" > /dev/null) ;;
    esac
  done
}

@test "the README's Examples run as written from the top of the clone, after its Quick start's PATH line" {
  command -v gnuplot > /dev/null || skip "no gnuplot (gnuplot-nox: scripts/deps.sh)"
  ln -s "$TOP/scripts" scripts
  mkdir tests && ln -s "$TOP/tests/data" tests/data && ln -s "$TOP/docs" docs
  # the recorded trajectory an example reads
  cp examples/iiwa_traj.csv trajectory.csv
  # the Quick start's line that puts the clone's bin/ on the PATH, then every Examples block
  sed -n '/^## Quick start/,/^## /s/^    \(export PATH="\$PWD\/bin:\$PATH"\)$/\1/p' \
    "$TOP/README.md" > steps.sh
  [ "$(wc -l < steps.sh)" -eq 1 ]
  sed -n '/^## Examples/,/^## /s/^    //p' "$TOP/README.md" >> steps.sh
  [ "$(grep -c '^urdf2robot\|^ *spart-' steps.sh)" -ge 10 ]
  # the commands from that line alone: the PATH without the tests' own entry
  run --separate-stderr env PATH="${PATH#"${SPART_BIN:-$TOP/bin}:"}" bash -e steps.sh
  echo "$output" "$stderr"
  [ "$status" -eq 0 ]
  [ -s polygon.png ] && [ -s swing.png ] && [ -s stand.png ] && grep -q '<svg' quadruped.svg
  [ "$(wc -l < torques.csv)" -eq 102 ]
}
