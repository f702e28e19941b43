#!/bin/sh
# exports.sh [BUILD] -- every name libspart.a exports is declared in one of the library's headers,
# and each one its installed headers (lib/spart.h, lib/spart_text.h) declare is used by a
# command or tested: named in src/, tests/, bench/ or fuzz/.  The names are the archive's own
# (nm, BUILD/libspart.a, default build: run make first).  Exit 1 at any fault, each said.
set -eu
cd "$(dirname "$0")/.."
a=${1:-build}/libspart.a
[ -f "$a" ] || { echo "exports.sh: $a: not built (make)" >&2; exit 2; }
fail=0
pub=0
for s in $(nm -g --defined-only "$a" | awk 'NF == 3 { print $3 }' | sort -u); do
  # a declaration: a line that starts with its type and names it before a parenthesis
  decl="^[a-z].*[ *]$s("
  if grep -q "$decl" lib/spart.h lib/spart_text.h; then
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
[ $fail -eq 0 ] && echo "ok: $pub names of spart.h and spart_text.h, each used or tested"
exit $fail
