# objsyms.sh -- sourced by the scripts that read the calls between files from the built objects
# (layers.sh, cli-calls.sh, codegen-calls.sh): from the repository's top, a scratch folder $dir
# removed at exit, fail=0, and obj_symbols to gather what each object defines and needs.
set -eu
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
: > "$dir/defs"
: > "$dir/uses"

# obj_symbols OBJECT NAME: "symbol NAME" lines, of the names OBJECT defines into $dir/defs and of
# those it needs into $dir/uses; obj_sorted when all are in: both sorted, for join
obj_symbols() {
  nm -g --defined-only "$1" | awk -v f="$2" 'NF == 3 { print $3, f }' >> "$dir/defs"
  nm -u "$1" | awk -v f="$2" '{ print $NF, f }' >> "$dir/uses"
}
obj_sorted() {
  sort -o "$dir/defs" "$dir/defs"
  sort -o "$dir/uses" "$dir/uses"
}
