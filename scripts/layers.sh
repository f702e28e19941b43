#!/bin/sh
# layers.sh [BUILD] -- libspart's layers hold (lib/README.md): every source of lib/ is in a
# layer's folder; no file calls a function defined in a layer it may not call (base < model <
# read, and model < algo < sim; read and algo do not call each other); no circle of calls
# between files anywhere in lib/; no file of lib/ includes a header of src/.  The calls are
# the built objects' own (nm: what each object needs and which object defines it), in
# BUILD/lib/LAYER (default build: run make first).  Exit 1 at any fault, each said on a line.
. "$(dirname "$0")/objsyms.sh"
b=${1:-build}

# the layers, and the layers each may call (its own included)
allowed() {
  case $1 in
    base) echo "base" ;;
    model) echo "base model" ;;
    read) echo "base model read" ;;
    algo) echo "base model algo" ;;
    sim) echo "base model algo sim" ;;
    *) echo "" ;;
  esac
}

for f in lib/*.c; do
  [ -f "$f" ] || continue
  echo "layers.sh: $f: not in a layer's folder (lib/base, model, read, algo, sim)"
  fail=1
done
for f in lib/*/*.c; do
  layer=${f#lib/}
  layer=${layer%%/*}
  if [ -z "$(allowed "$layer")" ]; then
    echo "layers.sh: $f: lib/$layer is not a layer"
    fail=1
  fi
  [ -f "$b/${f%.c}.o" ] || { echo "layers.sh: $b/${f%.c}.o: not built (make)" >&2; exit 2; }
  if grep -n '^#include "' "$f" | grep -Ev '"(spart|spart_sim|spart_text|spart_internal|spu)\.h"'; then
    echo "layers.sh: $f: includes a header that is not the library's"
    fail=1
  fi
done

# what each object defines and needs: "symbol file" lines
for o in "$b"/lib/*/*.o; do
  f=${o#"$b"/}
  f=${f%.o}
  obj_symbols "$o" "$f"
done
obj_sorted

# caller callee symbol, for the calls between two files of lib/
join "$dir/uses" "$dir/defs" | awk '$2 != $3 { print $2, $3, $1 }' | sort -u > "$dir/calls"
while read -r from to sym; do
  lf=${from#lib/}
  lf=${lf%%/*}
  lt=${to#lib/}
  lt=${lt%%/*}
  case " $(allowed "$lf") " in
    *" $lt "*) ;;
    *)
      echo "layers.sh: $from.c calls $sym of $to.c: lib/$lf may not call lib/$lt"
      fail=1
      ;;
  esac
done < "$dir/calls"

# a circle: tsort names it
awk '{ print $1, $2 }' "$dir/calls" | sort -u > "$dir/edges"
if ! tsort "$dir/edges" > /dev/null 2> "$dir/loop"; then
  echo "layers.sh: a circle of calls between these files of lib/:"
  grep -v 'input contains a loop' "$dir/loop" | sed 's/^tsort: /  /'
  fail=1
fi

if [ $fail -eq 0 ]; then
  files=$(find lib -mindepth 2 -name '*.c' | wc -l)
  echo "ok: $files files in 5 layers, $(wc -l < "$dir/edges") calls between files, no circle"
fi
exit $fail
