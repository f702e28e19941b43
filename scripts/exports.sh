#!/bin/sh
# exports.sh [BUILD] -- every name libspart.a exports is declared in one of the library's headers,
# and each one its installed headers (lib/spart.h, lib/spart_sim.h, lib/spart_text.h) declare is used by a
# command or tested: named in src/, tests/, bench/ or fuzz/.  The names are the archive's own
# (nm, BUILD/libspart.a, default build: run make first).  And spart_data in spart.h shows none
# of the library's own arrays: no member of it is named as one of struct spart_own's
# (spart_internal.h) or as one of those issue 26 took out of it (the joint constants' and the
# pair lanes' below), and spart.h names no layout of them (SPART_JC, SPART_JP).  Exit 1 at any
# fault, each said.
set -eu
cd "$(dirname "$0")/.."
a=${1:-build}/libspart.a
[ -f "$a" ] || { echo "exports.sh: $a: not built (make)" >&2; exit 2; }
fail=0
pub=0
for s in $(nm -g --defined-only "$a" | awk 'NF == 3 { print $3 }' | sort -u); do
  # a declaration: a line that starts with its type and names it before a parenthesis
  decl="^[a-z].*[ *]$s("
  if grep -q "$decl" lib/spart.h lib/spart_sim.h lib/spart_text.h; then
    pub=$((pub + 1))
    if ! grep -rqw "$s" src tests bench fuzz; then
      echo "exports.sh: $s: in the installed headers, but no command uses it and no test"
      fail=1
    fi
  elif ! grep -q "$decl" lib/spart_internal.h lib/base/spu.h; then
    echo "exports.sh: $s: exported by libspart.a, declared in none of its headers"
    fail=1
  fi
done
# the members of a struct: its text from the line that opens it to the one that closes it (each
# given by how it starts), comments left out, the last name before each ';' or ',':
# members FILE OPENING CLOSING
members() {
  awk -v a="$2" -v b="$3" 'index($0, a) == 1 { on = 1; next } on && index($0, b) == 1 { exit }
    on { s = s $0 " " }
    END {
      gsub(/\/\*([^*]|\*+[^*\/])*\*+\//, " ", s)
      n = split(s, part, /[;,]/)
      for (i = 1; i < n; i++) {
        if (match(part[i], /[A-Za-z_][A-Za-z0-9_]*(\[[A-Za-z0-9_ +*]*\])* *$/)) {
          x = substr(part[i], RSTART)
          sub(/[[ ].*/, "", x)
          print x
        }
      }
    }' "$1"
}
data=$(members lib/spart.h 'typedef struct spart_data {' '} spart_data;')
own=$(members lib/spart_internal.h 'struct spart_own {' '};')
[ -n "$data" ] || { echo "exports.sh: lib/spart.h: no spart_data"; fail=1; }
[ -n "$own" ] || { echo "exports.sh: lib/spart_internal.h: no struct spart_own"; fail=1; }
for x in $(printf '%s\n' "$own" jc jp bQ brho bv ba bf bR xS0 mark IA pA U D u buf_ | LC_ALL=C sort -u); do
  if echo "$data" | grep -qx "$x"; then
    echo "exports.sh: lib/spart.h: spart_data has a member $x, one of the library's own"
    fail=1
  fi
done
if grep -nE 'SPART_JC|SPART_JP' lib/spart.h; then
  echo "exports.sh: lib/spart.h: names the layouts of the joint constants"
  fail=1
fi
[ $fail -eq 0 ] && echo "ok: $pub names of spart.h, spart_sim.h and spart_text.h, each used or tested;" \
  "spart_data shows none of the library's own arrays"
exit $fail
