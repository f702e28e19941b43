# helper.bash -- loaded by every tests/*.bats file.
# The commands under test come from $SPART_BIN (an installed tree), else from the build's bin/;
# the C unit drivers (tests/lib.bats) from $SPART_UNIT, else build/tests.
bats_require_minimum_version 1.5.0

TOP="$(cd "$BATS_TEST_DIRNAME/.." && pwd)"
PATH="${SPART_BIN:-$TOP/bin}:$PATH"
export LC_ALL=C
# the Python checks must not leave tests/__pycache__ in the tree
export PYTHONDONTWRITEBYTECODE=1
MODELS="$TOP/models"
REF="$BATS_TEST_DIRNAME/reference"

# the state of a reference case as one JSON line: state REF-FILE
state() {
  python3 -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1]))["state"]))' "$1"
}

# a chain of N unit-mass links on revolute joints, as URDF in FILE: big_chain N FILE
big_chain() {
  python3 - "$1" "$2" <<'PY'
import sys
with open(sys.argv[2], "w") as f:
    f.write('<robot name="chain">\n<link name="l0"/>\n')
    for i in range(1, int(sys.argv[1]) + 1):
        f.write('<link name="l%d"><inertial><mass value="1"/><inertia ixx="0" ixy="0" ixz="0" '
                'iyy="0" iyz="0" izz="0"/></inertial></link><joint name="j%d" '
                'type="revolute"><parent link="l%d"/><child link="l%d"/></joint>\n' % (i, i, i - 1, i))
    f.write('</robot>\n')
PY
}

# the shell lines of a man page's EXAMPLES as man(1) shows them (what a reader copies is what
# runs), into FILE: man_examples PAGE FILE
man_examples() {
  mandoc -Tascii -O width=1000 "$1" | col -b |
    sed -n '/^EXAMPLES/,/^SEE ALSO/s/^[[:space:]]*\$ //p' > "$2"
}

# whether a command runs under a sanitizer (ASan, TSan; or the one named, libasan or libtsan):
# its binary, or the one a wrapper script runs (scripts/tsan.sh's, which adds -j 3), linked with
# it: sanitized COMMAND [LIB]
sanitized() {
  local f
  f=$(command -v "$1") || return 1
  if ! ldd "$f" > /dev/null 2>&1; then
    f=$(sed -n 's/^exec "\([^"]*\)".*/\1/p' "$f" | head -n 1)
  fi
  [ -n "$f" ] && ldd "$f" 2>/dev/null | grep -q "${2:-libasan\\|libtsan}"
}

# the ground tests' bodies (sim-ground.bats, sim-implicit.bats) in $BATS_TEST_TMPDIR: a 1 kg
# box, a 0.2 m cube, its collision box (box.urdf); a 1 kg sphere of radius 0.1, solid: 2/5 m r^2
# (ball.urdf)
bodies() {
  cat > "$BATS_TEST_TMPDIR/box.urdf" <<'URDF'
<robot name="box"><link name="box"><inertial><mass value="1"/><inertia ixx="0.0066666666666666667" iyy="0.0066666666666666667" izz="0.0066666666666666667" ixy="0" ixz="0" iyz="0"/></inertial>
<collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision></link></robot>
URDF
  cat > "$BATS_TEST_TMPDIR/ball.urdf" <<'URDF'
<robot name="ball"><link name="ball"><inertial><mass value="1"/><inertia ixx="0.004" iyy="0.004" izz="0.004" ixy="0" ixz="0" iyz="0"/></inertial>
<collision><geometry><sphere radius="0.1"/></geometry></collision></link></robot>
URDF
}

# a README example's folder: the test's own, with the models and the gnuplot script SCRIPT
# (scripts/) it reads: readme_dir SCRIPT (then in it)
readme_dir() {
  cd "$BATS_TEST_TMPDIR" || return 1
  ln -s "$TOP/models" models
  mkdir scripts && cp "$TOP/scripts/$1" scripts/
}

# the box (bodies) dropped from 0.5 m onto the ground for 3 s, its contact forces written to
# drop.jsonl in $BATS_TEST_TMPDIR, the ground's stiffness K (default: the ground's own, mg /
# 4 mm), spart-sim's OPTIONS added: drop_box K [OPTIONS...]; prints the stiffness
drop_box() {
  local opt=() k=$1
  shift
  if [ "$k" = default ]; then
    k=$(python3 -c 'print(9.81 / 4e-3)')
  else
    opt=(--stiffness "$k")
  fi
  echo '{"r0": [0, 0, 0.5]}' | spart-sim -m "$BATS_TEST_TMPDIR/box.urdf" --gravity 0,0,-9.81 \
    --ground "${opt[@]}" --duration 3 --contact-forces "$@" > "$BATS_TEST_TMPDIR/drop.jsonl"
  echo "$k"
}

# the bash completion's candidates for the last word of a command line, the commands from BIN
# and the completion from FILE: complete_with BIN FILE COMMAND WORDS...
complete_with() {
  PATH="$1:$PATH" bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
    _spart "$1" "${COMP_WORDS[-1]}" "${COMP_WORDS[-2]}"; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$2" "${@:3}"
}

# the same with the commands under test and the tree's completion file: complete_tree COMMAND
# WORDS...
complete_tree() {
  complete_with "${SPART_BIN:-$TOP/bin}" "$TOP/completion/spart.bash" "$@"
}
