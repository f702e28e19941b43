#!/bin/sh
# codegen-calls.sh [BUILD] -- spart-codegen's generator keeps its shape (src/codegen/README.md):
# each file of src/codegen calls only the files below it (graph < pair, schedule < emit;
# graph < kinematics < dynamics; codegen.c the top), so no circle of calls between them; each
# name it exports is cg_* (between its files) or codegen_* (its interface, codegen.c's), and
# outside the folder no object calls a cg_* name and only src/spart-codegen.c a codegen_* one;
# of src/cli it calls cli_memfile_* alone.  The calls are the built objects' own (nm: what each
# object needs and which object defines it), in BUILD/src (default build: run make first).
# Exit 1 at any fault, each said on a line.  CODEGEN_CALLS_SHOW=1: the calls between its files
# listed too, a line "caller callee" each.
. "$(dirname "$0")/objsyms.sh"
b=${1:-build}

# the files each file of the folder may call (itself included)
allowed() {
  case $1 in
    graph) echo "graph" ;;
    pair | schedule) echo "graph $1" ;;
    emit) echo "graph pair schedule emit" ;;
    kinematics) echo "graph kinematics" ;;
    dynamics) echo "graph kinematics dynamics" ;;
    codegen) echo "graph pair schedule emit kinematics dynamics codegen" ;;
    *) echo "" ;;
  esac
}

for f in src/codegen/*.c; do
  n=${f#src/codegen/}
  n=${n%.c}
  if [ -z "$(allowed "$n")" ]; then
    echo "codegen-calls.sh: $f: a file this script does not place (add it to allowed())"
    fail=1
  fi
  [ -f "$b/${f%.c}.o" ] || { echo "codegen-calls.sh: $b/${f%.c}.o: not built (make)" >&2; exit 2; }
done

# what each object defines and needs: "symbol file" lines (file: src/codegen/NAME, src/cli/NAME,
# src/COMMAND)
for o in "$b"/src/codegen/*.o "$b"/src/cli/*.o "$b"/src/*.o; do
  f=${o#"$b"/}
  f=${f%.o}
  [ -f "$f.c" ] || continue # none, or left by a source since moved or removed
  obj_symbols "$o" "$f"
done
obj_sorted

# the names the folder exports
while read -r sym f; do
  case $f in src/codegen/*) ;; *) continue ;; esac
  case $sym in
    cg_*) ;;
    codegen_*)
      [ "$f" = src/codegen/codegen ] || {
        echo "codegen-calls.sh: $f.c exports $sym: the interface codegen_* is codegen.c's"
        fail=1
      }
      ;;
    *)
      echo "codegen-calls.sh: $f.c exports $sym: not cg_* nor codegen_* (static, or named so)"
      fail=1
      ;;
  esac
done < "$dir/defs"

# caller callee symbol, for the calls between two files
join "$dir/uses" "$dir/defs" | awk '$2 != $3 { print $2, $3, $1 }' | sort -u > "$dir/calls"
: > "$dir/edges"
while read -r from to sym; do
  case $from in
    src/codegen/*)
      case $to in
        src/codegen/*)
          echo "$from $to" >> "$dir/edges"
          nf=${from#src/codegen/}
          nt=${to#src/codegen/}
          case " $(allowed "$nf") " in
            *" $nt "*) ;;
            *)
              echo "codegen-calls.sh: $from.c calls $sym of $to.c: $nf.c may not call $nt.c"
              fail=1
              ;;
          esac
          ;;
        src/cli/*)
          case $sym in
            cli_memfile_*) ;;
            *)
              echo "codegen-calls.sh: $from.c calls $sym of $to.c: of src/cli only cli_memfile_*"
              fail=1
              ;;
          esac
          ;;
      esac
      ;;
    *)
      case $to in
        src/codegen/*)
          case $from:$sym in
            src/spart-codegen:codegen_*) ;;
            *)
              echo "codegen-calls.sh: $from.c calls $sym of $to.c: only src/spart-codegen.c" \
                "calls the folder, through codegen.h"
              fail=1
              ;;
          esac
          ;;
      esac
      ;;
  esac
done < "$dir/calls"

# a circle: tsort names it
sort -u -o "$dir/edges" "$dir/edges"
[ -z "${CODEGEN_CALLS_SHOW:-}" ] || cat "$dir/edges"
if ! tsort "$dir/edges" > /dev/null 2> "$dir/loop"; then
  echo "codegen-calls.sh: a circle of calls between these files of src/codegen:"
  grep -v 'input contains a loop' "$dir/loop" | sed 's/^tsort: /  /'
  fail=1
fi

if [ $fail -eq 0 ]; then
  files=$(find src/codegen -name '*.c' | wc -l)
  echo "ok: $files files of src/codegen, $(wc -l < "$dir/edges") calls between files, one way," \
    "no circle"
fi
exit $fail
