#!/bin/sh
# deps.sh -- make sure the Debian packages spart needs are here: the one list of what the
# build, the demo (scripts/demo.sh) and the tests (scripts/test.sh) run.
# As root, installs the missing ones with apt-get; otherwise prints the command to run.
set -eu

# package: a file it provides
need="
build-essential:/usr/bin/cc
make:/usr/bin/make
pkg-config:/usr/bin/pkg-config
libxml2-dev:/usr/include/libxml2/libxml/parser.h
libcjson-dev:/usr/include/cjson/cJSON.h
libglpk-dev:/usr/include/glpk.h
libassimp-dev:/usr/include/assimp/cimport.h
bats:/usr/bin/bats
python3:/usr/bin/python3
python3-scipy:/usr/lib/python3/dist-packages/scipy/__init__.py
parallel:/usr/bin/parallel
mandoc:/usr/bin/mandoc
bsdextrautils:/usr/bin/col
gnuplot-nox:/usr/bin/gnuplot
jq:/usr/bin/jq
time:/usr/bin/time
librsvg2-bin:/usr/bin/rsvg-convert
libxml2-utils:/usr/bin/xmllint
"
# the tests check that they leave a git checkout's tree as they found it
if [ -d "$(dirname "$0")/../.git" ] || [ -f "$(dirname "$0")/../.git" ]; then
  need="$need git:/usr/bin/git"
fi
missing=""
for entry in $need; do
  pkg=${entry%%:*}
  file=${entry#*:}
  [ -e "$file" ] || missing="$missing $pkg"
done
[ -n "$missing" ] || exit 0

if [ "$(id -u)" -eq 0 ]; then
  echo "deps.sh: installing$missing" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $missing >&2
else
  echo "deps.sh: missing Debian packages:$missing" >&2
  echo "deps.sh: run: sudo apt-get install$missing" >&2
  exit 1
fi
