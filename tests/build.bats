#!/usr/bin/env bats
# The build (Makefile): its output goes to build/ and bin/ only, `make install` puts the commands,
# the man pages and the library for C programs (libspart.a, spart.h, spart.pc), and
# `make uninstall` takes away exactly that.  Each test builds a copy of the tree (make's own
# layout, quick flags) in its temporary directory, so the tree under test is never touched.

load helper

# make in DIR, whatever make runs these tests (its jobserver flags would confuse the inner make):
# mk DIR ARGS...
mk() {
  local dir=$1
  shift
  env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$dir" -j2 CFLAGS="-std=c11 -O0 -g0" "$@"
}

setup_file() {
  # the sources as they are (build output and .git left out), and every file they hold
  export COPY="$BATS_FILE_TMPDIR/tree"
  mkdir -p "$COPY"
  tar -C "$TOP" --exclude=./.git --exclude=./build --exclude=./bin -cf - . | tar -C "$COPY" -xf -
  (cd "$COPY" && find . -type f | LC_ALL=C sort) > "$BATS_FILE_TMPDIR/sources"
  if command -v git > /dev/null 2>&1; then
    git -C "$COPY" init -q && git -C "$COPY" add -A
  fi
  { mk "$COPY" all && mk "$COPY" unit; } > "$BATS_FILE_TMPDIR/make.log" 2>&1 || true
}

# what make install puts under ROOT with PREFIX ROOT/PREFIX-PART, by the tree's own listing:
# expected PREFIX
expected() {
  local f
  for f in "$TOP"/src/*.c; do echo "$1/bin/$(basename "$f" .c)"; done
  for f in "$TOP"/man/*.1; do echo "$1/share/man/man1/${f##*/}"; done
  for f in "$TOP"/man/*.5; do echo "$1/share/man/man5/${f##*/}"; done
  for f in "$TOP"/man/*.3; do echo "$1/share/man/man3/${f##*/}"; done
  for f in "$TOP"/man/*.7; do echo "$1/share/man/man7/${f##*/}"; done
  printf '%s\n' "$1/include/spart.h" "$1/include/spart_sim.h" "$1/include/spart_text.h" \
    "$1/lib/libspart.a" \
    "$1/lib/pkgconfig/spart.pc"
  for f in "$TOP"/models/*.urdf "$TOP"/models/*.json; do echo "$1/share/spart/models/${f##*/}"; done
  for f in "$TOP"/src/*.c; do echo "$1/share/bash-completion/completions/$(basename "$f" .c)"; done
}

@test "a build writes only into build/ and bin/, never beside a source file" {
  cat "$BATS_FILE_TMPDIR/make.log"
  run -0 sh -c 'cd "$COPY" && find . -type f ! -path "./.git/*" ! -path "./build/*" ! -path "./bin/*" | LC_ALL=C sort'
  diff "$BATS_FILE_TMPDIR/sources" - <<< "$output"
  [ -x "$COPY/bin/spart-id" ]
  [ -x "$COPY/bin/dh2robot" ]
  [ -f "$COPY/build/libspart.a" ]
  [ -x "$COPY/build/tests/test_num" ]
  # .gitignore keeps build/ and bin/ out of git, and nothing else of the build is left untracked
  command -v git > /dev/null 2>&1 || skip "no git"
  run -0 git -C "$COPY" status --porcelain --ignored --untracked-files=normal
  echo "$output" | grep -v '^A  ' || true
  [ "$(echo "$output" | grep -v '^A  ' | LC_ALL=C sort)" = "$(printf '!! bin/\n!! build/')" ]
}

@test "make uninstall takes away all that make install put, and only that" {
  local root="$BATS_TEST_TMPDIR/root"
  run -0 mk "$COPY" install DESTDIR="$root" PREFIX=/opt/spart
  run -0 sh -c 'cd "$0" && find . -type f | LC_ALL=C sort' "$root"
  diff <(expected ./opt/spart | LC_ALL=C sort) - <<< "$output"
  cmp "$COPY/bin/spart-id" "$root/opt/spart/bin/spart-id"
  cmp "$TOP/lib/spart.h" "$root/opt/spart/include/spart.h"
  cmp "$TOP/lib/spart_sim.h" "$root/opt/spart/include/spart_sim.h"
  cmp "$TOP/lib/spart_text.h" "$root/opt/spart/include/spart_text.h"
  cmp "$COPY/build/libspart.a" "$root/opt/spart/lib/libspart.a"
  cmp "$TOP/models/kuka_iiwa.urdf" "$root/opt/spart/share/spart/models/kuka_iiwa.urdf"
  cmp "$TOP/completion/spart.bash" "$root/opt/spart/share/bash-completion/completions/spart-cmp"
  # the man pages name the installed models
  sed 's| models/| /opt/spart/share/spart/models/|g' "$TOP/man/spart-model.5" |
    cmp - "$root/opt/spart/share/man/man5/spart-model.5"
  grep -q ' /opt/spart/share/spart/models/kuka_iiwa.urdf' "$root/opt/spart/share/man/man1/spart-id.1"
  # the toolkit at a glance and the library have their pages: man 7 spart, man 3 spart
  [ -s "$root/opt/spart/share/man/man7/spart.7" ]
  [ -s "$root/opt/spart/share/man/man3/spart.3" ]
  grep -q '"/opt/spart/share/spart/models/kuka_iiwa.urdf"' "$root/opt/spart/share/man/man3/spart.3"
  run -0 mk "$COPY" uninstall DESTDIR="$root" PREFIX=/opt/spart
  run -0 find "$root" -type f
  [ -z "$output" ]
  [ ! -e "$root/opt/spart/share/spart" ]
}

@test "a C program of spart.h, the model loader and spart_rnea builds with pkg-config --static spart, and computes as spart-id does" {
  command -v pkg-config > /dev/null 2>&1 || skip "no pkg-config"
  local p="$BATS_TEST_TMPDIR/prefix" t="$BATS_TEST_TMPDIR"
  run -0 mk "$COPY" install PREFIX="$p"
  grep -qx "prefix=$p" "$p/lib/pkgconfig/spart.pc"
  export PKG_CONFIG_PATH="$p/lib/pkgconfig"
  run -0 pkg-config --modversion spart
  [ "$output" = "$(sed -n 's/^VERSION *= *//p' "$TOP/Makefile")" ]
  # the weights' joint forces of a fixed arm at rest, from the library itself
  cat > "$t/grav.c" <<'C'
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <spart.h>

int main(int argc, char **argv) {
  static const double g[3] = {0, 0, -9.81};
  spart_err err;
  spart_model *m = spart_model_load(argv[1], &err), *m2;
  if (m == NULL || argc != 2 + m->nq) {
    fprintf(stderr, "grav: %s\n", m == NULL ? err.msg : "one qm a joint");
    return 1;
  }
  /* the same file from an open descriptor */
  int fd = open(argv[1], O_RDONLY);
  m2 = fd < 0 ? NULL : spart_model_read(fd, argv[1], &err);
  if (fd >= 0) close(fd);
  if (m2 == NULL || m2->nq != m->nq || m2->nb != m->nb) {
    fprintf(stderr, "grav: spart_model_read: %s\n", m2 == NULL ? err.msg : "another model");
    return 1;
  }
  spart_data *d = spart_data_new(m), *d2 = spart_data_new(m2);
  spart_state *x = spart_state_new(m); /* at rest, its qm the arguments */
  double *tau = calloc(6 + (size_t)m->nq, sizeof *tau), *tau2 = calloc(6 + (size_t)m->nq, sizeof *tau2);
  for (int i = 0; i < m->nq; i++) x->qm[i] = atof(argv[2 + i]);
  spart_rnea(m, d, x, g, tau);
  spart_rnea(m2, d2, x, g, tau2);
  for (int i = 0; i < 6 + m->nq; i++) {
    if (tau2[i] != tau[i]) {
      fprintf(stderr, "grav: spart_model_read's model computes another tau_%d\n", i);
      return 1;
    }
    printf("%.17g\n", tau[i]);
  }
  free(tau), free(tau2);
  spart_state_free(x);
  spart_data_free(d), spart_data_free(d2);
  spart_model_free(m), spart_model_free(m2);
  return 0;
}
C
  # the loader's readers need cJSON and libxml2: Libs.private, which --static gives
  # shellcheck disable=SC2046
  run -0 cc -std=c11 $(pkg-config --cflags spart) -o "$t/grav" "$t/grav.c" \
    $(pkg-config --static --libs spart)
  local q="0.3 -0.7 1.1 0.4 -1.3 0.9 0.2"
  # shellcheck disable=SC2086
  "$t/grav" "$MODELS/kuka_iiwa.urdf" $q > "$t/lib.out"
  echo "{\"qm\": [${q// /,}]}" | spart-id -m "$MODELS/kuka_iiwa.urdf" --fixed-base \
    --gravity 0,0,-9.81 -o csv > "$t/cmd.csv"
  run -0 python3 - "$t/lib.out" "$t/cmd.csv" <<'PY'
import csv, sys
lib = [float(x) for x in open(sys.argv[1]).read().split()]
row = list(csv.DictReader(open(sys.argv[2])))[0]
cmd = [float(row["tau0_%d" % i]) for i in range(1, 7)] + \
      [float(row["taum_%d" % i]) for i in range(1, 8)]
assert len(lib) == 13, lib
assert max(abs(x) for x in lib[6:]) > 1, lib  # the arm's weight is felt at its joints
scale = max(abs(x) for x in cmd)
for a, b in zip(lib, cmd):
    assert abs(a - b) <= 1e-12 * scale, (a, b)
print("ok")
PY
}

@test "a program of the model and the algorithms alone links with pkg-config --libs spart, -lspart -lm; spart.h holds no text machinery" {
  command -v pkg-config > /dev/null 2>&1 || skip "no pkg-config"
  local p="$BATS_TEST_TMPDIR/prefix" t="$BATS_TEST_TMPDIR"
  run -0 mk "$COPY" install PREFIX="$p"
  export PKG_CONFIG_PATH="$p/lib/pkgconfig"
  run -0 pkg-config --libs spart
  [ "$(echo $output)" = "-L$p/lib -lspart -lm" ]
  run -0 pkg-config --static --libs spart
  [[ "$output" == *"-lcjson"* && "$output" == *"-lglpk"* && "$output" == *"-lxml2"* ]]
  # the commands' text machinery is in spart_text.h, the library's layouts in no installed header
  run grep -nE 'spu_strtod|spu_dtoa|spart_json|spart_printable|SPART_JC|SPART_JP|cJSON' \
    "$p/include/spart.h"
  [ "$status" -eq 1 ]
  grep -q '^double spu_strtod(' "$p/include/spart_text.h"
  grep -q '^int spart_json_next(spart_json \*j);' "$p/include/spart_text.h"
  # nor the library's own arrays of spart_data (issue 26): a program of the installed spart.h
  # reads d->xpos and d->Ic, and no member of the joint constants, the pair lanes or the
  # algorithms' private scratch
  local x
  for x in xpos Ic jc jp bQ brho bv ba bf bR xS0 mark IA pA U D u buf_; do
    printf '#include <spart.h>\ndouble f(const spart_data *d);\n%s\n' \
      "double f(const spart_data *d) { return *(const double *)&d->$x; }" > "$t/own.c"
    # shellcheck disable=SC2046
    run cc -std=c11 -fsyntax-only $(pkg-config --cflags spart) "$t/own.c"
    echo "$x: $status $output"
    case $x in
      xpos | Ic) [ "$status" -eq 0 ] ;;
      *)
        [ "$status" -ne 0 ]
        [[ "$output" == *"no member named"* ]]
        ;;
    esac
  done
  # a pendulum built by hand: a fixed base of mass 3 and a link of mass 2 whose CoM is 0.5 m
  # along x from a joint about z; under gravity -9.81 y the joint holds m g l cos(q)
  cat > "$t/pend.c" <<'C'
#include <math.h>
#include <stdio.h>
#include <spart.h>

int main(void) {
  static const double g[3] = {0, -9.81, 0};
  spart_err err;
  spart_model *m = spart_model_new(2);
  if (m == NULL) return 1;
  m->body_parent[0] = -1, m->body_parent[1] = 0;
  m->jnt_type[1] = SPART_JNT_REVOLUTE, m->jnt_qadr[0] = -1, m->jnt_qadr[1] = 0;
  m->jnt_axis[5] = 1;
  m->body_mass[0] = 3, m->body_mass[1] = 2;
  m->body_pos[3] = 0.5;
  if (spart_model_check(m, &err) != 0) {
    fprintf(stderr, "pend: %s\n", err.msg);
    return 1;
  }
  spart_data *d = spart_data_new(m);
  spart_state *x = spart_state_new(m);
  if (d == NULL || x == NULL) return 1;
  double tau[7], worst = 0;
  for (double q = -3; q <= 3; q += 0.25) {
    x->qm[0] = q;
    spart_rnea(m, d, x, g, tau);
    worst = fmax(worst, fabs(tau[6] - 2 * 9.81 * 0.5 * cos(q)));
  }
  /* the composite inertias at q = 1: the whole robot's mass at the base, the link's first
     moment m c about its joint */
  double q = 1;
  spart_xup(m, d, &q);
  spart_composite(m, d);
  printf("%d %.3g %.17g %.17g\n", m->nq, worst, d->Ic[0], d->Ic[10 + 1]);
  spart_state_free(x);
  spart_data_free(d);
  spart_model_free(m);
  return 0;
}
C
  # shellcheck disable=SC2046
  run -0 cc -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags spart) -o "$t/pend" "$t/pend.c" \
    $(pkg-config --libs spart)
  run -0 "$t/pend"
  echo "$output"
  read -r nq worst mass mc <<< "$output"
  [ "$nq" = 1 ]
  awk -v w="$worst" -v M="$mass" -v h="$mc" 'BEGIN { exit !(w < 1e-12 && M == 5 && h == 1) }'
  # and it needs nothing but libspart and libm: no reader, no GLPK in the program
  ! nm "$t/pend" | grep -qiE 'cJSON|xmlRead|glp_'
}

@test "spart.h and spart_sim.h from C++: extern \"C\", SPART_VERSION_STRING (the Makefile's VERSION), a program of states links" {
  command -v pkg-config > /dev/null 2>&1 || skip "no pkg-config"
  command -v g++ > /dev/null 2>&1 || skip "no g++ (scripts/deps.sh installs it)"
  local p="$BATS_TEST_TMPDIR/prefix" t="$BATS_TEST_TMPDIR"
  run -0 mk "$COPY" install PREFIX="$p"
  export PKG_CONFIG_PATH="$p/lib/pkgconfig"
  cat > "$t/nq.cpp" <<'CXX'
#include <cstdio>
#include <spart.h>
#include <spart_sim.h>

int main(int argc, char **argv) {
  spart_err err = spart_err();
  spart_model *m = argc == 2 ? spart_model_load(argv[1], &err) : nullptr;
  if (m == nullptr) {
    std::fprintf(stderr, "nq: %s\n", err.msg);
    return 1;
  }
  std::printf("%s %d %d\n", SPART_VERSION_STRING, m->nq, m->nb);
  // a state and the algorithms on it: the weight's joint forces of the arm at rest
  spart_data *d = spart_data_new(m);
  spart_state *x = spart_state_new(m);
  double *tau = new double[6 + m->nv];
  const double g[3] = {0, 0, -9.81};
  spart_rnea(m, d, x, g, tau);
  int bad = !(tau[5] > 0); // the base holds the weight up
  // and let go, it falls at g
  bad |= spart_forward_dynamics(m, d, x, 0, g, tau) != 0 || !(tau[5] > -9.8101 && tau[5] < -9.8099);
  delete[] tau;
  spart_state_free(x);
  spart_data_free(d);
  spart_model_free(m);
  return bad;
}
CXX
  # shellcheck disable=SC2046
  run -0 g++ -std=c++11 -Wall -Wextra -Wpedantic -Werror $(pkg-config --cflags spart) \
    -o "$t/nq" "$t/nq.cpp" $(pkg-config --static --libs spart)
  run -0 "$t/nq" "$MODELS/kuka_iiwa.urdf"
  [ "$output" = "$(sed -n 's/^VERSION *= *//p' "$TOP/Makefile") 7 8" ]
  # the same version in C, and the commands' --version
  printf '#include <stdio.h>\n#include <spart.h>\nint main(void) { puts(SPART_VERSION_STRING); return 0; }\n' > "$t/v.c"
  # shellcheck disable=SC2046
  run -0 cc -std=c11 -Wall -Werror $(pkg-config --cflags spart) -o "$t/v" "$t/v.c"
  run -0 "$t/v"
  [ "$output" = "$(sed -n 's/^VERSION *= *//p' "$TOP/Makefile")" ]
  run -0 "$p/bin/spart-id" --version
  [ "$output" = "spart-id $(sed -n 's/^VERSION *= *//p' "$TOP/Makefile")" ]
}

@test "man 3 spart's example program, as man shows it, builds on the installed library and runs" {
  command -v pkg-config > /dev/null 2>&1 || skip "no pkg-config"
  local p="$BATS_TEST_TMPDIR/prefix" t="$BATS_TEST_TMPDIR"
  run -0 mk "$COPY" install PREFIX="$p"
  export PKG_CONFIG_PATH="$p/lib/pkgconfig"
  # the literal block of EXAMPLES: from its #include to the closing brace
  mandoc -Tascii -O width=1000 "$p/share/man/man3/spart.3" | col -b |
    sed -n '/^EXAMPLES/,/^SEE ALSO/p' | sed 's/^     //' | sed -n '/^#include/,/^}$/p' > "$t/example.c"
  [ "$(grep -c '^#include' "$t/example.c")" -eq 3 ]
  # shellcheck disable=SC2046
  run -0 cc -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags spart) -o "$t/example" \
    "$t/example.c" $(pkg-config --static --libs spart)
  cd "$t"
  run -0 ./example
  [ "$(echo "$output" | tail -n 1 | awk '{ print ($4 < 1e-9) }')" = 1 ]
  # its torques are spart-id's for the same state (the library's spart_rnea has no friction)
  echo "$output" | head -n 7 | awk '{ print $2 }' > lib.out
  echo '{"qm": [0, 0.5, 0, -1, 0, 0.5, 0], "um": [1, 0, 0, 0, 0, 0, 0], "umdot": [0, 0, 0.5, 0, 0, 0, 0]}' |
    "$p/bin/spart-id" -m "$p/share/spart/models/kuka_iiwa.urdf" --fixed-base --gravity 0,0,-9.81 \
      --no-friction --only taum | python3 -c 'import json, sys; [print(repr(x)) for x in json.load(sys.stdin)["taum"]]' > cmd.out
  run -0 python3 - lib.out cmd.out <<'PY'
import sys
a = [float(x) for x in open(sys.argv[1])]
b = [float(x) for x in open(sys.argv[2])]
assert len(a) == len(b) == 7 and max(abs(x) for x in a) > 1, (a, b)
assert all(abs(x - y) <= 1e-12 * max(map(abs, b)) for x, y in zip(a, b)), (a, b)
PY
}

@test "the man pages give no troff warnings (groff -ww) and mandoc's lint is clean" {
  command -v groff > /dev/null 2>&1 || skip "no groff"
  local f
  for f in "$TOP"/man/*.[1-9]; do
    run groff -ww -z -mandoc "$f"
    echo "$f: $output"
    [ "$status" -eq 0 ] && [ -z "$output" ]
  done
  command -v mandoc > /dev/null 2>&1 || skip "no mandoc"
  run -0 mandoc -Tlint -Wwarning "$TOP"/man/*.[1-9]
  [ -z "$output" ]
}

@test "after make install, every man page's example runs with the installed commands and models" {
  local p="$BATS_TEST_TMPDIR/prefix" page
  run -0 mk "$COPY" install PREFIX="$p"
  mkdir "$BATS_TEST_TMPDIR/work" && cd "$BATS_TEST_TMPDIR/work"
  for page in "$p"/share/man/man1/*.1; do
    man_examples "$page" examples.sh
    [ -s examples.sh ]
    # the source tree's models are not here: only the installed ones can be found
    run --separate-stderr env PATH="$p/bin:/usr/bin:/bin" bash -e examples.sh
    echo "${page##*/}: $status $stderr"
    [ "$status" -eq 0 ]
  done
}

@test "the installed bash completion completes every command's options, formats and models" {
  local p="$BATS_TEST_TMPDIR/prefix"
  run -0 mk "$COPY" install PREFIX="$p"
  cd "$BATS_TEST_TMPDIR" && touch arm.urdf notes.txt
  # complete: COMMAND WORDS...: the completions of the last word
  complete_words() {
    complete_with "$p/bin" "$p/share/bash-completion/completions/$1" "$@"
  }
  run -0 complete_words spart-id --check
  [ "$output" = "--check-limits" ]
  run -0 complete_words spart-cmp --r
  [ "$output" = "--rtol" ]
  run -0 complete_words urdf2robot --do
  [ "$output" = "--dot" ]
  run -0 complete_words urdf2robot --d
  [ "$output" = "$(printf -- '--density\n--dot')" ]
  run -0 complete_words spart-states --norm
  [ "$output" = "--normalize" ]
  run -0 complete_words spart-draw --view ''
  [ "$output" = "$(printf 'front\nside\ntop\niso')" ]
  # (models and directories, not other files)
  run -0 complete_words spart-kin -m ''
  [ "$output" = "$(printf 'arm.urdf\nprefix')" ]
  run -0 complete_words spart-fd -i ''
  [ "$output" = "$(printf 'json\ncsv')" ]
  # the converters' -o is a format too
  run -0 complete_words urdf2robot -o ''
  [ "$output" = "$(printf 'json\nsummary\ndot')" ]
  for c in spart-id spart-fd spart-gim spart-jac spart-kin spart-cmp spart-draw urdf2robot dh2robot; do
    [ -f "$p/share/bash-completion/completions/$c" ]
    run -0 complete_words "$c" --h
    [[ "$output" == *--help* ]]
  done
}

@test "CC=clang make builds with clang's flags (llvm-ar, its LTO), and its spart-id gives GCC's torques" {
  command -v clang > /dev/null 2>&1 || skip "no clang"
  command -v llvm-ar > /dev/null 2>&1 || skip "no llvm-ar"
  # every object (clang's warnings, -Werror) and the archives (llvm-ar), and one command linked
  # with its LTO: the other commands' links would only repeat that one
  local objs=() f
  for f in "$TOP"/src/*.c; do
    f=${f##*/}
    objs+=("build/clang/src/${f%.c}.o")
  done
  run -0 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL CC=clang make -s -C "$COPY" -j2 \
    BUILD=build/clang BIN=build/clang/bin "${objs[@]}" build/clang/libspart-codegen.a \
    build/clang/bin/spart-id
  grep -q clang "$COPY/build/clang/flags"
  [ "${#objs[@]}" -ge 13 ]
  for f in "${objs[@]}"; do [ -s "$COPY/$f" ]; done
  local rec='{"qm":[0.1,-0.2,0.3,0.4,-0.5,0.6,0.7],"um":[1,2,3,4,5,6,7],"umdot":[1,-1,1,-1,1,-1,1]}'
  run -0 "$COPY/build/clang/bin/spart-id" -m "$TOP/models/kuka_iiwa.urdf" --fixed-base <<< "$rec"
  local clang_out=$output
  run -0 spart-id -m "$TOP/models/kuka_iiwa.urdf" --fixed-base <<< "$rec"
  python3 -c '
import json, sys
a, b = json.loads(sys.argv[1]), json.loads(sys.argv[2])
assert a.keys() == b.keys() and a["taum"]
for k in a:
    for x, y in zip(a[k], b[k]):
        assert abs(x - y) <= 1e-12 * max(1, abs(x)), (k, x, y)
' "$output" "$clang_out"
}
