#!/usr/bin/env bats
# spart-codegen: a model's dynamics as C99 source; the code compiles alone (GCC and Clang), links
# with -lm only, and gives spart-id's, spart-gim's, spart-fd's, spart-kin's and spart-jac's
# numbers (tests/codegencheck.py, with the driver tests/codegen_driver.c) on every bundled model.

load helper

# the source and declarations of MODEL (fixed|floating) as robot.c and robot.h in the current
# directory: gen MODEL KIND [OPTIONS...]
gen() {
  local m=$1 kind=$2
  shift 2
  local fb=()
  [ "$kind" = fixed ] && fb=(--fixed-base)
  spart-codegen -m "$m" "${fb[@]}" "$@" > robot.c
  spart-codegen -m "$m" "${fb[@]}" "$@" --header > robot.h
}

# the compilers the checks use: GCC and Clang (the one missing is skipped with a note)
compilers() {
  local c
  for c in gcc clang; do
    if command -v $c > /dev/null; then echo $c; else echo "# $c not installed" >&3; fi
  done
}

# every bundled model's code, fixed and floating, written and built once for the tests that read
# it, in $BATS_FILE_TMPDIR/NAME.KIND/: robot.c and robot.h; by each compiler C, C.o (robot.c
# alone, -std=c99 -O2 -Wall -Wextra -Werror), C.drv (tests/codegen_driver.c linked with it and
# -lm alone) and C.log (the compiler's messages, and "ok" when both were built)
setup_file() {
  local m kind c d
  for m in "$MODELS"/*.urdf "$MODELS"/*.dh.json; do
    for kind in fixed floating; do
      d="$BATS_FILE_TMPDIR/${m##*/}.$kind"
      mkdir -p "$d"
      (
        cd "$d" || exit 1
        gen "$m" $kind
        for c in $(compilers 3> /dev/null); do
          { $c -std=c99 -O2 -Wall -Wextra -Werror -c robot.c -o $c.o &&
            $c -std=c99 -O2 -I. -o $c.drv "$TOP/tests/codegen_driver.c" $c.o -lm &&
            echo ok; } > $c.log 2>&1
        done
      )
    done
  done
}

@test "--help writes the usage with every option and exits 0" {
  run -0 --separate-stderr spart-codegen --help
  [[ "$output" == Usage:* ]]
  for o in --model --prefix --header --functions --fixed-base --floating-base --help --version; do
    [[ "$output" == *"$o"* ]]
  done
  [ -z "$stderr" ]
}

@test "bad usage is one line and exit 2: an unknown option, no model, a bad or too long prefix, a bad function" {
  run -2 --separate-stderr spart-codegen --nope
  [ "${stderr_lines[0]}" = "spart-codegen: unknown option '--nope'" ]
  [ "${stderr_lines[1]}" = "Try 'spart-codegen --help'." ]
  run -2 --separate-stderr spart-codegen
  [ "${stderr_lines[0]}" = "spart-codegen: no model: give -m MODEL" ]
  run -2 --separate-stderr spart-codegen -m "$MODELS/kuka_iiwa.urdf" --prefix 9lives
  [ "${stderr_lines[0]}" = "spart-codegen: --prefix: expected a C identifier, got '9lives'" ]
  # a prefix of 65 characters is too long (5fb268f: not a C identifier); of 64 it is taken
  run -2 --separate-stderr spart-codegen -m "$MODELS/kuka_iiwa.urdf" --prefix "$(printf 'a%.0s' {1..65})"
  [ "$stderr" = "$(printf '%s\n%s' "spart-codegen: --prefix: too long: 65 characters, at most 64" \
    "Try 'spart-codegen --help'.")" ]
  run -0 spart-codegen -m "$MODELS/kuka_iiwa.urdf" --prefix "$(printf 'a%.0s' {1..64})" --header
  [[ "$output" == *"void $(printf 'a%.0s' {1..64})_id("* ]]
  run -2 --separate-stderr spart-codegen -m "$MODELS/kuka_iiwa.urdf" --functions id,crba
  [ "${stderr_lines[0]}" = "spart-codegen: --functions: unknown function 'crba' (id, mass, fd, fk, jac)" ]
  [ -z "$output" ]
}

@test "a model it cannot read, or a joint it does not generate, is one line and exit 1, no source" {
  cd "$BATS_TEST_TMPDIR"
  printf '<robot name="r"><link name="a"/>\n<link name="b"/></robot>\n' > two_roots.urdf
  run -1 --separate-stderr spart-codegen -m two_roots.urdf
  [ "${#stderr_lines[@]}" -eq 1 ]
  [[ "${stderr_lines[0]}" == "spart-codegen: two_roots.urdf"* ]]
  [ -z "$output" ]
  cat > ball.urdf << 'EOF'
<robot name="b"><link name="a"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
<link name="c"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
<joint name="j" type="ball"><parent link="a"/><child link="c"/></joint></robot>
EOF
  run -1 --separate-stderr spart-codegen -m ball.urdf
  [ "$stderr" = "spart-codegen: ball.urdf: only revolute, continuous, prismatic, helical and fixed joints are generated" ]
  [ -z "$output" ]
  # mimic joints coupled to their leaders (urdf2robot --mimic) are refused; free, they are joints
  urdf2robot --mimic "$TOP/tests/data/gripper_mimic.urdf" > coupled.json
  run -1 --separate-stderr spart-codegen -m coupled.json
  [ "$stderr" = "spart-codegen: coupled.json: coupled mimic joints are not generated (leave out --mimic: they stay free joints)" ]
  [ -z "$output" ]
  run -0 spart-codegen -m "$TOP/tests/data/gripper_mimic.urdf" --fixed-base
}

@test "every bundled model's code compiles alone with -std=c99 -Wall -Wextra -Werror, fixed and floating" {
  # (setup_file compiled each at -O2, where GCC's and Clang's warnings look further than at -O0)
  local m kind c d
  for m in "$MODELS"/*.urdf "$MODELS"/*.dh.json; do
    for kind in fixed floating; do
      d="$BATS_FILE_TMPDIR/${m##*/}.$kind"
      for c in $(compilers); do
        [ "$(tail -n 1 "$d/$c.log")" = ok ] && [ -s "$d/$c.o" ] ||
          { cat "$d/$c.log"; echo "$c $m $kind"; false; }
      done
      # only <math.h>, and no loop: everything unrolled (the sine and cosine's table aside)
      [ "$(grep -c '#include' "$d/robot.c")" -eq 1 ]
      grep -q '#include <math.h>' "$d/robot.c"
      ! grep -qE '\b(for|while) *\(' "$d/robot.c"
    done
  done
}

@test "the generated code equals spart-id, -gim, -fd, -kin and -jac at random states on every bundled model" {
  local m kind c d
  for m in "$MODELS"/*.urdf "$MODELS"/*.dh.json; do
    for kind in fixed floating; do
      d="$BATS_FILE_TMPDIR/${m##*/}.$kind"
      for c in $(compilers); do
        # the driver links the code with -lm alone (setup_file)
        [ -x "$d/$c.drv" ] || { cat "$d/$c.log"; false; }
        run python3 "$TOP/tests/codegencheck.py" "$m" $kind "$d/$c.drv" 4 7
        echo "$c ${m##*/} $kind: $output"
        [ "$status" -eq 0 ]
      done
    done
  done
}

@test "the symbolic passes mirror the library's recursions: the code of random trees equals spart's, fixed and floating" {
  # src/codegen's kinematics.c and dynamics.c copy lib/'s recursions on symbols: six random
  # trees (tests/codegen_trees.py: every joint kind the generator takes, any axes, a subtree
  # twice in some, so that pairs are made) against spart-id, -gim, -fd, -kin and -jac
  cd "$BATS_TEST_TMPDIR"
  python3 "$TOP/tests/codegen_trees.py" 6 39
  local m kind n=0
  for m in tree*.urdf; do
    for kind in fixed floating; do
      gen "$m" $kind
      cc -std=c99 -O2 -I. -o drv "$TOP/tests/codegen_driver.c" robot.c -lm
      n=$((n + 1))
      run python3 "$TOP/tests/codegencheck.py" "$m" $kind ./drv 3 $n
      echo "$m $kind: $output"
      [ "$status" -eq 0 ]
    done
  done
  [ $n -eq 12 ]
  grep -q 'robot_v2' robot.c # tree5's subtree twice: pairs
}

@test "spart-codegen's generator keeps its shape: its files call one way, no circle, one interface (scripts/codegen-calls.sh)" {
  # src/codegen/README.md: graph < pair, schedule < emit; graph < kinematics < dynamics;
  # codegen.c on top; from outside, spart-codegen's main alone calls it (codegen_*)
  run sh "$TOP/scripts/codegen-calls.sh" "$(dirname "${SPART_UNIT:-$TOP/build/tests}")"
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == "ok: 7 files of src/codegen, "*" calls between files, one way, no circle" ]]
}

@test "two branches alike are written in pairs; a struct of two in their place (any C99 compiler) gives the same numbers to the bit" {
  # 2_iiwa_base's two arms, the quadruped's legs, the humanoid's limbs, and branches.urdf's
  # three legs (one with other axes) with two fingers each: each two values of the branches one
  # statement on robot_v2 (GCC's and Clang's vector type); kuka_iiwa has none.  With
  # SPART_CODEGEN_SCALAR defined the pairs are a struct, each lane's operations written out
  cd "$BATS_TEST_TMPDIR"
  gen "$MODELS/kuka_iiwa.urdf" floating
  ! grep -q 'robot_v2' robot.c
  local m kind c nq nv n d
  for m in "$MODELS"/2_iiwa_base.urdf "$MODELS"/quadruped.urdf "$MODELS"/humanoid.urdf \
    "$TOP"/tests/data/branches.urdf; do
    for kind in fixed floating; do
      # the bundled models' code and vector build from setup_file, branches.urdf's here
      d="$BATS_FILE_TMPDIR/${m##*/}.$kind"
      if [ -d "$d" ]; then
        cp "$d/robot.c" "$d/robot.h" .
      else
        d=.
        gen "$m" $kind
      fi
      grep -q '^  const robot_v2 p[0-9]* = ' robot.c
      nq=$(awk '$2 == "robot_NQ" { print $3 }' robot.h)
      nv=$(awk '$2 == "robot_NV" { print $3 }' robot.h)
      if [ $kind = fixed ]; then n=$((nq + 3 * nv + 3)); else n=$((12 + nq + 18 + 3 * nv + 3)); fi
      python3 -c "import random; random.seed(5)
for r in range(6): print(' '.join('%.17g' % random.uniform(-2, 2) for k in range($n)))" > states
      for c in $(compilers); do
        # the struct's code compiles alone with -pedantic (its warnings at -O2, the build's)
        $c -std=c99 -O2 -pedantic -Wall -Wextra -Werror -DSPART_CODEGEN_SCALAR -c robot.c \
          -o sca.o
        $c -std=c99 -O2 -I. -DSPART_CODEGEN_SCALAR -o sca "$TOP/tests/codegen_driver.c" sca.o -lm
        if [ "$d" = . ]; then
          $c -std=c99 -O2 -I. -o vec "$TOP/tests/codegen_driver.c" robot.c -lm
        else
          [ -x "$d/$c.drv" ] || { cat "$d/$c.log"; false; }
          cp "$d/$c.drv" vec
        fi
        ./vec < states > vec.out
        ./sca < states > sca.out
        [ "$(wc -l < vec.out)" -eq 6 ]
        cmp vec.out sca.out || { echo "$c $m $kind: the struct's numbers differ"; false; }
      done
      run python3 "$TOP/tests/codegencheck.py" "$m" $kind ./sca 3 11
      echo "${m##*/} $kind (struct): $output"
      [ "$status" -eq 0 ]
    done
  done
}

@test "the code of a drive train's friction and armature gives spart-id's and spart-fd's with them" {
  # puma560's DH table has motors, gears and Coulomb friction; without --no-friction spart's
  # commands apply them, as the code does; its torques differ from the rigid bodies' alone
  cd "$BATS_TEST_TMPDIR"
  gen "$MODELS/puma560.dh.json" fixed
  cc -std=c99 -O2 -I. -o drv "$TOP/tests/codegen_driver.c" robot.c -lm
  run -0 python3 "$TOP/tests/codegencheck.py" "$MODELS/puma560.dh.json" fixed ./drv 6 3
  grep -q 'double)(t[0-9]* > 0)' robot.c
  s='{"qm": [0,0.8,-0.8,0,0.5,0], "um": [0.1,-0.2,0.3,0,0,1]}'
  a=$(echo "$s" | spart-id -m "$MODELS/puma560.dh.json" --fixed-base --only taum)
  b=$(echo "$s" | spart-id -m "$MODELS/puma560.dh.json" --fixed-base --only taum --no-friction)
  [ "$a" != "$b" ]
}

@test "--functions writes only those; --prefix names them; --header declares them and the sizes" {
  cd "$BATS_TEST_TMPDIR"
  spart-codegen -m "$MODELS/kuka_iiwa.urdf" --fixed-base --prefix arm --functions fd,id > arm.c
  spart-codegen -m "$MODELS/kuka_iiwa.urdf" --fixed-base --prefix arm --functions fd,id --header > arm.h
  cc -std=c99 -Wall -Wextra -Werror -c arm.c
  run -0 sh -c "nm arm.o | awk '\$2 == \"T\" { print \$3 }' | sort"
  [ "$output" = "$(printf 'arm_fd\narm_id')" ]
  grep -q '^#define arm_NV 7 ' arm.h
  grep -q '^#define arm_FIXED_BASE 1$' arm.h
  [ "$(grep -c '^void arm_' arm.h)" -eq 2 ]
  # the declarations are the definitions' (a conflicting one would not compile)
  printf '#include "arm.h"\n' | cat - arm.c > both.c
  cc -std=c99 -Wall -Wextra -Werror -c both.c
  # the floating base's forms take spart's state
  spart-codegen -m "$MODELS/2_iiwa_base.urdf" --header > sc.h
  grep -q '^void robot_id(const double \*R0, const double \*qm, const double \*u0, const double \*um, const double \*u0dot, const double \*umdot, const double \*g, double \*tau0, double \*taum);$' sc.h
  grep -q '^#define robot_N 20 ' sc.h
}

@test "a model's name is in the code only inside its first comment, as printable ASCII that can neither end it nor start or splice a line" {
  # the name is the only text of the model in the file (link and joint names are not); 5fb268f
  # wrote it as it was, and a name holding */ and a newline put code after the comment (int
  # injected = 1 compiled with -Werror), / * was -Wcomment's error.  Now a byte outside ' '..'~',
  # a % or \, and the second byte of */, /* or ?? (a trigraph, -std=c99's) is %XX
  cd "$BATS_TEST_TMPDIR"
  urdf2robot "$MODELS/kuka_iiwa.urdf" > iiwa.json
  python3 - << 'PY'
import json
m = json.load(open("iiwa.json"))
names = ["r", "x */ int injected = 1; /*\n#define Y", "a /* nested", "*/*/**// ends in *",
         "tail ??/\n#define injected", "back\\\ninjected = 1;", "tab\tbell\x07 caf\u00e9 100% \x7f"]
for k, n in enumerate(names):
    m["name"] = n
    json.dump(m, open("n%d.json" % k, "w"))
PY
  # and from a URDF's robot name
  sed 's|<robot name="lbr_iiwa"|<robot name="x */ int injected = 1; /*\&#10;#define Y"|' \
    "$MODELS/kuka_iiwa.urdf" > n7.urdf
  spart-codegen -m n0.json > n0.c
  spart-codegen -m n0.json --header > n0.h
  local m x c
  for m in n[1-6].json n7.urdf; do
    spart-codegen -m $m > a.c
    spart-codegen -m $m --header > a.h
    for x in c h; do
      # the first line alone differs from the code of the name r: no line added
      cmp <(tail -n +2 a.$x) <(tail -n +2 n0.$x) || { echo "$m: more than the name differs"; false; }
      head -1 a.$x > line
      ! grep -q '[^ -~]' line
      ! grep -qF -e '??' -e '\' line
      # its */ is the second line's end, its /* the first line's start
      [ "$(grep -o '\*/' line | wc -l)" -eq 0 ]
      [ "$(grep -o '/\*' line | wc -l)" -eq 1 ]
      # (its warnings and errors are the front end's: -fsyntax-only, no object)
      for c in $(compilers); do
        $c -std=c99 -Wall -Wextra -Werror -fsyntax-only -x c a.$x || { echo "$c $m .$x"; false; }
      done
      ! cc -std=c99 -E -x c a.$x | grep -q injected
    done
  done
  grep -qF "robot 'x *%2F int injected = 1; /%2A%0A#define Y' (7 links" a.c
  spart-codegen -m n1.json | head -1 | cmp - <(head -1 a.c)
  spart-codegen -m n6.json | grep -qF "robot 'tab%09bell%07 caf%C3%A9 100%25 %7F' (7 links"
  spart-codegen -m n3.json | grep -qF "robot '*%2F*%2F**%2F/ ends in *' (7 links"
}

@test "the headers of prefixes arm and ARM have different guards: both in one file, their codes linked together" {
  # 5fb268f upper-cased the prefix (ARM_CODEGEN_H for both): the second header was skipped.
  # Each letter's case swapped, the guard is one for each prefix (robot's is ROBOT_CODEGEN_H)
  cd "$BATS_TEST_TMPDIR"
  local p
  for p in arm ARM; do
    spart-codegen -m "$MODELS/kuka_iiwa.urdf" --fixed-base --prefix $p --functions id > $p.c
    spart-codegen -m "$MODELS/kuka_iiwa.urdf" --fixed-base --prefix $p --functions id --header > $p.h
  done
  [ "$(sed -n 3p arm.h)" = "#ifndef ARM_CODEGEN_H" ]
  [ "$(sed -n 3p ARM.h)" = "#ifndef arm_CODEGEN_H" ]
  spart-codegen -m "$MODELS/kuka_iiwa.urdf" --header | grep -qx '#ifndef ROBOT_CODEGEN_H'
  cat > both.c << 'C'
#include <stdio.h>
#include "arm.h"
#include "ARM.h"
#include "arm.h"
int main(void) {
  double q[arm_NV] = {0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7}, v[ARM_NV] = {0}, a[arm_NV] = {0};
  double g[3] = {0, 0, -9.81}, t1[arm_NV], t2[ARM_NV];
  arm_id(q, v, a, g, t1);
  ARM_id(q, v, a, g, t2);
  for (int k = 0; k < arm_NV; k++) {
    printf("%.17g %.17g\n", t1[k], t2[k]);
  }
  return 0;
}
C
  local c
  for c in $(compilers); do
    $c -std=c99 -Wall -Wextra -Werror -I. -o both both.c arm.c ARM.c -lm
    run -0 ./both
    [ "${#lines[@]}" -eq 7 ]
    # the same model, the same torques: each line two equal numbers, gravity's not all 0
    ! printf '%s\n' "${lines[@]}" | awk '$1 != $2' | grep -q .
    printf '%s\n' "${lines[@]}" | awk '$1 != 0' | grep -q .
  done
}

@test "a model fixed to the world gives the fixed-base code without --fixed-base, as every command reads it; --floating-base the floating base's" {
  # 5fb268f wrote the floating base's code for a URDF bolted to a world link and a model JSON's
  # "fixed_base": true unless --fixed-base was given; spart-fd, -id, -gim, -sim hold them fixed
  cd "$BATS_TEST_TMPDIR"
  sed 's|^  <link name="lbr_iiwa_link_0">|  <link name="world"/><joint name="bolt" type="fixed"><parent link="world"/><child link="lbr_iiwa_link_0"/></joint>\n&|' \
    "$MODELS/kuka_iiwa.urdf" > world.urdf
  urdf2robot --fixed-base "$MODELS/kuka_iiwa.urdf" > fixed.json
  grep -q '"fixed_base":[[:space:]]*true' fixed.json
  local m h
  for m in world.urdf fixed.json; do
    for h in '' --header; do
      spart-codegen -m $m $h > model.c
      spart-codegen -m $m $h --fixed-base > fixed.c
      cmp model.c fixed.c
      spart-codegen -m $m $h --floating-base > floating.c
      ! cmp -s model.c floating.c
    done
    grep -q '^#define robot_FIXED_BASE 0$' floating.c
    spart-codegen -m $m --header | grep -q '^#define robot_FIXED_BASE 1$'
    # the fixed-base forms: robot_id(q, v, a, g, tau)
    spart-codegen -m $m --header | grep -q '^void robot_id(const double \*q, '
  done
  # the model JSON's: the code of kuka_iiwa.urdf with --fixed-base, and without it floating
  spart-codegen -m fixed.json | cmp - <(spart-codegen -m "$MODELS/kuka_iiwa.urdf" --fixed-base)
  spart-codegen -m fixed.json --floating-base | cmp - <(spart-codegen -m "$MODELS/kuka_iiwa.urdf")
  # the code made without the option gives spart's numbers on it, its base fixed
  spart-codegen -m world.urdf > robot.c
  spart-codegen -m world.urdf --header > robot.h
  cc -std=c99 -O2 -I. -o drv "$TOP/tests/codegen_driver.c" robot.c -lm
  run -0 python3 "$TOP/tests/codegencheck.py" world.urdf fixed ./drv 2 5
  run -2 --separate-stderr spart-codegen -m world.urdf --fixed-base --floating-base
  [ "${stderr_lines[0]}" = "spart-codegen: --floating-base and --fixed-base may not be combined" ]
}

@test "the README's controller compiles on the generated code, runs, and its torques are spart-id's" {
  cd "$BATS_TEST_TMPDIR"
  spart-codegen -m "$MODELS/kuka_iiwa.urdf" --fixed-base --prefix iiwa > iiwa.c
  spart-codegen -m "$MODELS/kuka_iiwa.urdf" --fixed-base --prefix iiwa --header > iiwa.h
  cc -std=c99 -O2 -Wall -Wextra -Werror -I. -o controller "$TOP/examples/controller.c" iiwa.c -lm
  run -0 --separate-stderr ./controller
  [[ "$stderr" == "largest tracking error "* ]]
  # it tracks: the model it controls is the model it simulates
  err=${stderr#largest tracking error }
  err=${err% rad}
  python3 -c "import sys; sys.exit(not float(sys.argv[1]) < 1e-3)" "$err"
  printf '%s\n' "$output" > run.csv
  [ "$(wc -l < run.csv)" -eq 22 ]
  # the README shows these lines of it, and the commands of its header
  for l in 'iiwa_id(q, v, acc, g, tau);' 'iiwa_fd(q, v, tau, g, a);' \
    'acc[k] = ar[k] + kd * (vr[k] - v[k]) + kp * (qr[k] - q[k]);' \
    'cc -std=c99 -O2 -I. -o controller examples/controller.c iiwa.c -lm'; do
    grep -qF "$l" "$TOP/examples/controller.c"
    grep -qF "$l" "$TOP/README.md"
  done
  # the torques it commanded, computed again by spart-id from the records' states
  spart-id -m "$MODELS/kuka_iiwa.urdf" --fixed-base --gravity 0,0,-9.81 -o csv < run.csv > tau.csv
  python3 - tau.csv << 'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 21
for r in rows:
    for k in range(1, 8):
        a, b = float(r["taum_%d" % k]), float(r["in_taum_%d" % k])
        assert abs(a - b) <= 1e-9 * max(1, abs(a)), (r["time"], k, a, b)
EOF
}

@test "the man page's examples run" {
  cd "$BATS_TEST_TMPDIR"
  ln -s "$TOP/models" models
  man_examples "$TOP/man/spart-codegen.1" examples.sh
  [ -s examples.sh ]
  run --separate-stderr bash -e examples.sh
  echo "$stderr"
  [ "$status" -eq 0 ]
  [ -s iiwa.o ]
  [ -s sc.c ]
}

@test "bash completion completes spart-codegen's options, its models and --functions' names" {
  complete_words() {
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
      _spart "$1" "${COMP_WORDS[-1]}" "${COMP_WORDS[-2]}"; printf "%s\n" "${COMPREPLY[@]}"' \
      _ "$TOP/completion/spart.bash" "$@"
  }
  cd "$BATS_TEST_TMPDIR" && touch arm.urdf notes.txt
  run -0 complete_words spart-codegen --fi
  [ "$output" = "$(printf -- '--fixed-base')" ]
  run -0 complete_words spart-codegen --fl
  [ "$output" = "--floating-base" ]
  run -0 complete_words spart-codegen --fu
  [ "$output" = "--functions" ]
  run -0 complete_words spart-codegen --functions m
  [ "$output" = "mass" ]
  run -0 complete_words spart-codegen -m ''
  [ "$output" = "arm.urdf" ]
  run -0 bash -c ". '$TOP/completion/spart.bash'; complete -p spart-codegen"
}
