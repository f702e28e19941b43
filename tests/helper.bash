# helper.bash -- loaded by every tests/*.bats file.
# The commands under test come from $SPART_BIN (an installed tree), else from the build's bin/.
bats_require_minimum_version 1.5.0

TOP="$(cd "$BATS_TEST_DIRNAME/.." && pwd)"
PATH="${SPART_BIN:-$TOP/bin}:$PATH"
export LC_ALL=C
MODELS="$TOP/models"
REF="$BATS_TEST_DIRNAME/reference"

# the state of a reference case as one JSON line: state REF-FILE
state() {
  python3 -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1]))["state"]))' "$1"
}
