#!/bin/sh
# fuzz-deps.sh -- the Debian packages `make fuzz` needs beyond scripts/deps.sh: clang with
# libFuzzer and the sanitizer runtimes (Debian 12: clang 14 and libclang-rt-14-dev).
# As root, installs them with apt-get when missing; otherwise prints the command to run.
set -eu

# libFuzzer is there when clang can name its library
if command -v clang > /dev/null 2>&1 &&
  [ -e "$(clang -print-file-name=libclang_rt.fuzzer-x86_64.a)" ]; then
  exit 0
fi
missing="clang libclang-rt-dev"
if [ "$(id -u)" -eq 0 ]; then
  echo "fuzz-deps.sh: installing $missing" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $missing >&2
else
  echo "fuzz-deps.sh: run: sudo apt-get install $missing" >&2
  exit 1
fi
