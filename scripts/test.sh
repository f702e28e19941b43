#!/bin/sh
# test.sh -- install what the build and the tests need (as root), then run the whole suite.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh
make test
