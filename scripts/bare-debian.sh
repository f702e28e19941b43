#!/bin/sh
# bare-debian.sh [DIR] -- the README's Quick start on a bare Debian 12: a minbase bookworm
# chroot in DIR (default /var/tmp/spart-bookworm), a clone of this repository's HEAD in its
# /root/spart, then, as root inside it, `sh scripts/demo.sh`, `sh scripts/test.sh` and
# `CI=true sh .ci/run` (in a second fresh clone).  The first run debootstraps and keeps the
# pristine system in DIR.tar.gz; later runs restore it from there.  Logs go to DIR.logs/.
# Needs root, debootstrap, git and the network to the Debian mirror (the one in
# /etc/apt/sources.list*, or $MIRROR).  Exits non-zero if any of the three fails.
set -eu

dir=${1:-/var/tmp/spart-bookworm}
case $dir in
  /*) ;;
  *) dir=$(pwd)/$dir ;;
esac
dir=${dir%/}
case $dir in
  "" | /) echo "bare-debian.sh: refusing DIR /" >&2; exit 2 ;;
esac
tarball=$dir.tar.gz
logs=$dir.logs
repo=$(cd "$(dirname "$0")/.." && pwd)

[ "$(id -u)" -eq 0 ] || { echo "bare-debian.sh: must run as root (debootstrap, chroot, mount)" >&2; exit 2; }
for tool in debootstrap git tar; do
  command -v "$tool" > /dev/null ||
    { echo "bare-debian.sh: $tool not found (apt-get install $tool)" >&2; exit 2; }
done
commit=$(git -C "$repo" rev-parse HEAD) ||
  { echo "bare-debian.sh: $repo is not a git checkout" >&2; exit 2; }

# the Debian mirror this machine's apt uses for bookworm (deb822 .sources or one-line .list)
if [ -z "${MIRROR:-}" ]; then
  MIRROR=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
                /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '
    /^deb[ \t]/ { u = $2; if ($2 ~ /^\[/) { for (i = 2; i <= NF && $i !~ /\]$/; i++) ; u = $(i + 1); s = $(i + 2) }
                  else s = $3
                  if (s == "bookworm" && !found) { print u; found = 1 } next }
    /^[ \t]*$/ { uris = ""; suites = ""; next }
    /^URIs:/ { uris = $2 } /^Suites:/ { suites = $0 }
    uris != "" && suites ~ /[ \t]bookworm([ \t]|$)/ && !found { print uris; found = 1 }')
  MIRROR=${MIRROR:-http://deb.debian.org/debian}
fi

mounted=""
unmount_all() {
  for m in $mounted; do
    umount "$m" 2>/dev/null || umount -l "$m" || true
  done
  mounted=""
}
trap 'unmount_all' EXIT
trap 'unmount_all; exit 130' INT TERM

# anything still mounted below DIR (a killed earlier run): unmount it before touching DIR
stale=$(awk -v d="$dir/" 'index($2, d) == 1 { print $2 }' /proc/mounts | sort -r)
for m in $stale; do
  umount "$m" 2>/dev/null || umount -l "$m"
done

start=$(date +%s)
rm -rf --one-file-system "$dir"
if [ -f "$tarball" ]; then
  echo "bare-debian.sh: restoring $dir from $tarball" >&2
  mkdir -p "$dir"
  tar -xzpf "$tarball" -C "$dir" --numeric-owner
else
  echo "bare-debian.sh: debootstrap --variant=minbase bookworm $dir $MIRROR" >&2
  debootstrap --variant=minbase bookworm "$dir" "$MIRROR" >&2
  tar -czpf "$tarball.tmp" -C "$dir" --numeric-owner . && mv "$tarball.tmp" "$tarball"
fi
cp /etc/resolv.conf "$dir/etc/resolv.conf"
ready=$(date +%s)

# two fresh clones of HEAD: one for the README's commands, one for .ci/run
for clone in spart spart-ci; do
  git clone -q --no-local "$repo" "$dir/root/$clone"
  git -C "$dir/root/$clone" checkout -q --detach "$commit"
done

mount -t proc proc "$dir/proc" && mounted="$dir/proc $mounted"
mount -t sysfs sysfs "$dir/sys" && mounted="$dir/sys $mounted"
mount --bind /dev "$dir/dev" && mounted="$dir/dev $mounted"
mount --bind /dev/pts "$dir/dev/pts" && mounted="$dir/dev/pts $mounted"
mount -t tmpfs tmpfs "$dir/dev/shm" && mounted="$dir/dev/shm $mounted"

rm -rf "$logs"
mkdir -p "$logs"
summary=""
failed=0
# run NAME CLONE COMMAND: COMMAND as root in /root/CLONE inside the chroot, a bare login's
# environment, no terminal on stdin
run() {
  name=$1 clone=$2 cmd=$3
  echo "== $name: $cmd" >&2
  t0=$(date +%s)
  if chroot "$dir" /usr/bin/env -i HOME=/root USER=root LOGNAME=root SHELL=/bin/sh \
       PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
       /bin/sh -c "cd /root/$clone && $cmd" < /dev/null > "$logs/$name.log" 2>&1; then
    result=pass
  else
    result="FAIL (exit $?)"
    failed=$((failed + 1))
  fi
  t1=$(date +%s)
  counts=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$logs/$name.log" | tail -n 1 || true)
  summary="$summary$(printf '%-6s %-26s %-16s %4ss  %s' "$name" "$cmd" "$result" \
    $((t1 - t0)) "$counts")
"
  if [ "$result" != pass ]; then
    echo "-- last lines of $logs/$name.log:" >&2
    grep -E '^not ok|^#' "$logs/$name.log" | head -n 40 >&2 || true
    tail -n 15 "$logs/$name.log" >&2
  fi
}
run demo spart 'sh scripts/demo.sh'
run test spart 'sh scripts/test.sh'
run ci spart-ci 'CI=true sh .ci/run'
unmount_all
end=$(date +%s)

left=$(awk -v d="$dir/" 'index($2, d) == 1 { print $2 }' /proc/mounts)
[ -z "$left" ] || { echo "bare-debian.sh: still mounted: $left" >&2; failed=$((failed + 1)); }

echo "bare Debian 12 (minbase bookworm, $MIRROR) in $dir, spart $(printf %.12s "$commit")"
echo "chroot ready in $((ready - start))s; logs in $logs/"
printf '%s' "$summary"
echo "total $((end - start))s: $([ "$failed" -eq 0 ] && echo 'all passed' || echo "$failed failed")"
[ "$failed" -eq 0 ]
