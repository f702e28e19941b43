#!/bin/sh
# cli-calls.sh [-l] [BUILD] -- src/cli's calls go one way (src/cli/README.md): no circle of
# calls between its files, and no circle of includes between its files or the library's headers.
# The calls are the built objects' own (nm: what each object of BUILD/src/cli needs and which
# of them defines it; default build: run make first); the includes are the sources' own
# `#include "..."` lines.  Exit 1 at any fault, each said on a line.  With -l, only the files
# that are in a circle (of calls or of includes), one a line, every one (the circles tsort names
# may leave some out); exit 1 when there is any.
. "$(dirname "$0")/objsyms.sh"
list=0
if [ "${1:-}" = -l ]; then
  list=1
  shift
fi
b=${1:-build}

# what each object defines and needs: "symbol file" lines
for f in src/cli/*.c; do
  o="$b/${f%.c}.o"
  [ -f "$o" ] || { echo "cli-calls.sh: $o: not built (make)" >&2; exit 2; }
  obj_symbols "$o" "$f"
done
obj_sorted

# caller callee, for the calls between two files of src/cli
join "$dir/uses" "$dir/defs" | awk '$2 != $3 { print $2, $3 }' | sort -u > "$dir/calls"

# includer included, for the headers of src/cli and lib/ and the sources of src/cli
for f in src/cli/*.c src/cli/*.h lib/*.h lib/base/*.h; do
  d=$(dirname "$f")
  sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f" | while read -r h; do
    for cand in "$d/$h" "src/cli/$h" "lib/$h" "lib/base/$h"; do
      if [ -f "$cand" ]; then
        echo "$f $cand"
        break
      fi
    done
  done
done | sort -u > "$dir/includes"

# -l: the files that reach themselves (the closure of each graph, Floyd-Warshall)
if [ $list -eq 1 ]; then
  for g in calls includes; do
    awk '{ e[$1, $2] = 1; v[$1]; v[$2] }
      END {
        for (k in v) for (i in v) if ((i, k) in e) for (j in v) if ((k, j) in e) e[i, j] = 1
        for (i in v) if ((i, i) in e) print i
      }' "$dir/$g"
  done | sort -u > "$dir/circled"
  cat "$dir/circled"
  if [ -s "$dir/circled" ]; then
    exit 1
  fi
  exit 0
fi

# a circle: tsort names it
if ! tsort "$dir/calls" > /dev/null 2> "$dir/loop"; then
  echo "cli-calls.sh: a circle of calls between these files of src/cli:"
  grep -v 'input contains a loop' "$dir/loop" | sed 's/^tsort: /  /'
  fail=1
fi

if ! tsort "$dir/includes" > /dev/null 2> "$dir/iloop"; then
  echo "cli-calls.sh: a circle of includes between these files:"
  grep -v 'input contains a loop' "$dir/iloop" | sed 's/^tsort: /  /'
  fail=1
fi

if [ $fail -eq 0 ]; then
  files=$(ls src/cli/*.c | wc -l)
  echo "ok: $files files of src/cli, $(wc -l < "$dir/calls") calls between files, no circle"
fi
exit $fail
