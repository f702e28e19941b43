#!/usr/bin/env bats
# Numerical edge cases and hostile records through the commands: a singular inertia, a robot
# without mass, non-finite or overflowing numbers get one clear line and exit 1, never a row of
# NaN, inf or roundoff garbage; a closed pipe is quiet.

load helper

CMDS="spart-kin spart-jac spart-gim spart-fd spart-id"

# the extra arguments a command needs to run at all
args() { [ "$1" = spart-jac ] && echo "--link 1" || true; }

# write stdin to $BATS_TEST_TMPDIR/NAME and print the path
file() {
  cat > "$BATS_TEST_TMPDIR/$1"
  printf '%s\n' "$BATS_TEST_TMPDIR/$1"
}

# the command either wrote whole records of finite numbers (exit 0), or refused the record
# with one line "PROG: <stdin>:LINE: ..." and wrote nothing for it (exit 1): sane PROG
sane() {
  [ "$status" -eq 0 ] || [ "$status" -eq 1 ]
  if [ "$status" -eq 1 ]; then
    [ "${#stderr_lines[@]}" -eq 1 ]
    [[ "$stderr" == "$1: <stdin>:"[0-9]*": "* ]]
    [ -z "$output" ]
  else
    [ -z "$stderr" ]
  fi
  [ -n "$output" ] || return 0
  printf '%s\n' "$output" | python3 -c '
import json, math, sys
def bad(c):
    raise ValueError("not a number: " + c)
def walk(v):
    if isinstance(v, list):
        for x in v:
            walk(x)
    elif isinstance(v, dict):
        for x in v.values():
            walk(x)
    else:
        assert isinstance(v, (int, float)) and math.isfinite(v), v
for line in sys.stdin:
    if line.strip():
        walk(json.loads(line, parse_constant=bad))'
}

# a base link and one link of no mass on a revolute joint
massless() {
  file massless.urdf <<'EOF'
<robot name="ghost">
  <link name="base"/>
  <link name="arm"/>
  <joint name="j" type="revolute">
    <parent link="base"/><child link="arm"/><origin xyz="0 0 1"/><axis xyz="0 0 1"/>
  </joint>
</robot>
EOF
}


@test "a massless link on a moving joint is singular in spart-fd, with a floating or a fixed base" {
  m=$(massless)
  for base in "" --fixed-base; do
    # shellcheck disable=SC2086
    run --separate-stderr spart-fd -m "$m" $base <<< '{"qm": [0], "taum": [1]}'
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [ "$stderr" = "spart-fd: <stdin>:1: singular inertia at link 1: joint 1 can move without moving any mass" ]
  done
}

@test "a robot without mass is refused by every dynamics command that must invert an inertia" {
  m=$(massless)
  run --separate-stderr spart-id -m "$m" --floating <<< '{"qm": [0]}'
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "spart-id: <stdin>:1: singular inertia at link 0: the base can move without moving any mass" ]
  run --separate-stderr spart-gim -m "$m" --inverse <<< '{"qm": [0]}'
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "spart-gim: <stdin>:1: singular inertia at link 1: joint 1 can move without moving any mass" ]
  run --separate-stderr spart-fd -m "$m" <<< '{"qm": [0]}'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-fd: <stdin>:1: singular inertia at link 1: joint 1 can move without moving any mass" ]
}

@test "a robot without mass gets finite kinematics, H = 0 and inverse dynamics 0" {
  m=$(massless)
  for c in $CMDS; do
    [ "$c" = spart-fd ] && continue
    run --separate-stderr "$c" $(args "$c") -m "$m" <<< '{"qm": [0.5], "um": [1]}'
    sane "$c"
    [ "$status" -eq 0 ]
  done
  run --separate-stderr spart-id -m "$m" <<< '{"qm": [0], "umdot": [1], "um": [2]}'
  [ "$output" = '{"tau0":[0,0,0,0,0,0],"taum":[0]}' ]
}

@test "a floating base whose inertia is singular only up to roundoff is refused by spart-fd" {
  # two point masses: no inertia about the line through them, whatever the frames say
  m=$(file line.urdf <<'EOF'
<robot name="line">
  <link name="base"><inertial><mass value="1"/><inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
  <link name="tip"><inertial><origin xyz="0.1 0 0" rpy="0.3 0.2 0.1"/><mass value="1"/>
    <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
  <joint name="j" type="fixed">
    <parent link="base"/><child link="tip"/><origin xyz="0.7 0 0" rpy="0.1 0.5 0.7"/>
  </joint>
</robot>
EOF
  )
  run --separate-stderr spart-fd -m "$m" <<< '{"tau0": [1, 0, 0, 0, 0, 0]}'
  echo "got: $output $stderr"
  # not u0dot = 9e17 from a pivot of 1e-17
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [[ "$stderr" == "spart-fd: <stdin>:1: "*singular* ]]
}

@test "spart-gim --inverse refuses an H that is singular only up to roundoff" {
  # a massless base that turns about the joint axis while the arm stands still
  m=$(file floatingarm.urdf <<'EOF'
<robot name="massless_base">
  <link name="base"/>
  <link name="arm">
    <inertial><origin xyz="0.5 0 0"/><mass value="2"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <joint name="j" type="revolute">
    <parent link="base"/><child link="arm"/><origin xyz="0 0 1"/><axis xyz="0 0 1"/>
  </joint>
</robot>
EOF
  )
  run --separate-stderr spart-fd -m "$m" <<< '{"qm": [0]}'
  [ "$status" -eq 1 ]
  [ "$stderr" = "spart-fd: <stdin>:1: singular inertia at link 0: the base can move without moving any mass" ]
  run --separate-stderr spart-gim -m "$m" --inverse <<< '{"qm": [0]}'
  echo "got: ${output:0:300} $stderr"
  # not an "inverse" with entries of 8e15 that is not even symmetric
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "spart-gim: <stdin>:1: singular inertia at link 0: the base can move without moving any mass" ]
}

@test "non-finite numbers are refused in every field of JSON and CSV records" {
  m="$MODELS/SC_3DoF.urdf"
  for c in $CMDS; do
    for rec in '{"qm": [0, 1e999, 0]}' '{"R0": [[1, 0, 0], [0, -1e400, 0], [0, 0, 1]]}' \
      '{"wFm": [[0,0,0,0,0,0],[0,0,0,0,0,0],[0,0,0,0,0,0],[0,0,0,0,0,0],[0,0,0,0,0,-1e999]]}' \
      '{"u0": [NaN, 0, 0, 0, 0, 0]}' '{"tau0": [Infinity, 0, 0, 0, 0, 0]}'; do
      run --separate-stderr "$c" $(args "$c") -m "$m" <<< "$rec"
      [ "$status" -eq 1 ]
      [ -z "$output" ]
      [[ "$stderr" == "$c: <stdin>:1: "* ]]
    done
    for cell in inf -inf nan -nan 1e999 infinity; do
      run --separate-stderr "$c" $(args "$c") -o json -m "$m" <<< $'time,qm_1,qm_2,qm_3\n0,1,2,3\n1,1,'"$cell"$',3'
      [ "$status" -eq 1 ]
      [ "${#lines[@]}" -eq 1 ]
      [ "$stderr" = "$c: <stdin>:3: column 'qm_2': '$cell' is not a finite number" ]
    done
  done
}

@test "non-finite option values are usage errors" {
  run --separate-stderr spart-id -m "$MODELS/SC_3DoF.urdf" --gravity 0,nan,0 <<< '{"r0": [0, 0, 0]}'
  [ "$status" -eq 2 ]
  run --separate-stderr spart-fd -m "$MODELS/SC_3DoF.urdf" --gravity 0,0,1e999 <<< '{"r0": [0, 0, 0]}'
  [ "$status" -eq 2 ]
  run --separate-stderr spart-jac -m "$MODELS/SC_3DoF.urdf" --link 2 --point inf,0,0 <<< '{"r0": [0, 0, 0]}'
  [ "$status" -eq 2 ]
}

@test "finite records whose results overflow are refused, never written as inf or NaN" {
  m="$MODELS/kuka_iiwa.urdf"
  big='1.7e308, 1.7e308, 1.7e308'
  for rec in "{\"um\": [$big, $big, 1.7e308]}" "{\"u0\": [$big, $big]}" \
    "{\"umdot\": [$big, $big, 1.7e308], \"um\": [1e200, 1e200, 1e200, 1e200, 1e200, 1e200, 1e200]}" \
    "{\"wF0\": [$big, $big], \"taum\": [$big, $big, 1.7e308]}" \
    '{"qm": [1e300, -1e300, 1e300, 1e-300, 1e308, 1e308, 1e308]}' \
    '{"R0": [[1e200, 0, 0], [0, 1e200, 0], [0, 0, 1e200]], "u0": [1, 2, 3, 4, 5, 6]}'; do
    while read -r c opts; do
      # shellcheck disable=SC2086
      run --separate-stderr "$c" $opts -m "$m" <<< "$rec"
      echo "$c $opts $rec: $status ${stderr:0:120}"
      sane "$c"
    done <<'CMDS'
spart-kin
spart-jac --link 7 --dot --point 1,1,1
spart-jac --noc
spart-gim --coriolis --inverse --gravity 0,0,-9.81
spart-fd --gravity 0,0,-9.81
spart-fd --fixed-base
spart-id --gravity 0,0,-9.81
spart-id --floating
spart-id --fixed-base
CMDS
  done
}

@test "a base orientation that is not a rotation is refused, naming R0" {
  for c in $CMDS; do
    run --separate-stderr "$c" $(args "$c") -m "$MODELS/SC_3DoF.urdf" \
      <<< '{"R0": [[0, 0, 0], [0, 0, 0], [0, 0, 0]], "qm": [0, 0, 0]}'
    echo "$c: $status $stderr"
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [[ "$stderr" == "$c: <stdin>:1: "*R0* ]]
  done
}

@test "a million blank lines before the first record do not overflow a small stack" {
  { yes '' | head -n 1000000; echo '{"qm": [1, 2, 3]}'; } > "$BATS_TEST_TMPDIR/blank.json"
  for c in spart-kin spart-id; do
    run --separate-stderr bash -c 'ulimit -s 1024 && "$@" < "$0"' "$BATS_TEST_TMPDIR/blank.json" \
      "$c" -m "$MODELS/SC_3DoF.urdf"
    [ "$status" -eq 0 ]
    [ "${#lines[@]}" -eq 1 ]
    [ -z "$stderr" ]
  done
}

@test "a JSON record nested 100,000 deep is refused with one line" {
  python3 -c 'print("{\"qm\": " + "[" * 100000 + "]" * 100000 + "}")' > "$BATS_TEST_TMPDIR/deep.json"
  run --separate-stderr bash -c 'ulimit -s 1024 && spart-kin -m "$1" < "$2"' _ \
    "$MODELS/SC_3DoF.urdf" "$BATS_TEST_TMPDIR/deep.json"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [[ "$stderr" == "spart-kin: <stdin>:1: "* ]]
  [ "${#stderr_lines[@]}" -eq 1 ]
}

@test "a model too big for the memory left is out of memory (exit 3), not bad input" {
  if sanitized urdf2robot; then
    skip "a sanitizer needs more address space than the limits here"
  fi
  big_chain 20000 "$BATS_TEST_TMPDIR/big.urdf"
  urdf2robot "$BATS_TEST_TMPDIR/big.urdf" > "$BATS_TEST_TMPDIR/big.json"
  ran=0
  for c in urdf2robot spart-kin spart-fd; do
    for model in big.urdf big.json; do
      for kb in 60000 80000 100000 150000; do
        # 99: too little to even load the libraries (127)
        run --separate-stderr bash -c 'ulimit -v "$1" && shift && "$@" < /dev/null > /dev/null
          s=$?; [ "$s" -ne 127 ] || s=99; exit "$s"' _ "$kb" "$c" \
          $([ "$c" = urdf2robot ] || echo -m) "$BATS_TEST_TMPDIR/$model"
        echo "# $c $model, ulimit -v $kb: exit $status: $stderr"
        [ "$status" -ne 99 ] || continue
        ran=$((ran + 1))
        [ "$status" -eq 0 ] || [[ "$status:$stderr" == "3:$c: "*"out of memory" ]]
      done
    done
  done
  [ "$ran" -gt 0 ]
}

@test "a closed output pipe ends every command quietly, also where SIGPIPE is ignored" {
  yes '{"qm": [0, 0, 0, 0, 0, 0, 0]}' | head -n 20000 > "$BATS_TEST_TMPDIR/in.jsonl"
  for c in $CMDS; do
    for trap in "" 'trap "" PIPE;'; do
      run --separate-stderr bash -c "$trap"' "$@" < "$0" | head -n 1 > /dev/null' \
        "$BATS_TEST_TMPDIR/in.jsonl" "$c" $(args "$c") -m "$MODELS/kuka_iiwa.urdf"
      echo "$c ($trap): $stderr"
      [ "$status" -eq 0 ]
      [ -z "$stderr" ]
    done
  done
}

@test "a write error is reported once by every command and exits 3" {
  for c in $CMDS; do
    run --separate-stderr bash -c '"$@" <<< "{\"qm\": [0, 0, 0, 0, 0, 0, 0]}" > /dev/full' _ "$c" $(args "$c") \
      -m "$MODELS/kuka_iiwa.urdf"
    echo "$c: $status $stderr"
    [ "$status" -eq 3 ]
    [ "$stderr" = "$c: write error: No space left on device" ]
  done
}

@test "each allocation of reading a URDF with two meshes failed in turn: out of memory (exit 3) or the model, never a crash or bad data" {
  if sanitized urdf2robot; then
    skip "a sanitizer's allocator is not the one the shim replaces"
  fi
  cc -shared -fPIC -O2 -o "$BATS_TEST_TMPDIR/failalloc.so" "$TOP/tests/failalloc.c"
  printf 'solid t\n%s\nendsolid t\n' "$(for f in '0 0 0;0 1 0;1 0 0' '0 0 0;1 0 0;0 0 1' \
    '0 0 0;0 0 1;0 1 0' '1 0 0;0 1 0;0 0 1'; do
    echo "facet normal 0 0 0"; echo "outer loop"
    echo "$f" | tr ';' '\n' | sed 's/^/vertex /'; echo "endloop"; echo "endfacet"; done)" \
    > "$BATS_TEST_TMPDIR/tet.stl"
  inertial='<inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>'
  mesh='<collision><geometry><mesh filename="tet.stl"/></geometry></collision>'
  cat > "$BATS_TEST_TMPDIR/m.urdf" <<URDF
<robot name="m"><link name="a">$inertial</link>
<link name="b">$inertial$mesh$mesh</link>
<joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
<limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>
URDF
  urdf2robot "$BATS_TEST_TMPDIR/m.urdf" > "$BATS_TEST_TMPDIR/whole.json"
  n=$(FAILALLOC_COUNT=1 LD_PRELOAD="$BATS_TEST_TMPDIR/failalloc.so" \
    urdf2robot "$BATS_TEST_TMPDIR/m.urdf" 2>&1 > /dev/null | tail -n 1)
  [ "$n" -gt 100 ]
  oom=0
  for k in $(seq 1 "$n"); do
    run --separate-stderr env FAILALLOC_AT="$k" LD_PRELOAD="$BATS_TEST_TMPDIR/failalloc.so" \
      urdf2robot "$BATS_TEST_TMPDIR/m.urdf"
    if [ "$status" -eq 0 ]; then
      diff <(echo "$output") "$BATS_TEST_TMPDIR/whole.json"
    else
      echo "allocation $k of $n: exit $status: $stderr"
      [ "$status" -eq 3 ]
      [ -z "$output" ]
      [[ "$stderr" == "urdf2robot: "*"out of memory" ]]
      oom=$((oom + 1))
    fi
  done
  [ "$oom" -gt 50 ]
}
