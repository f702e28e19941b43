#!/usr/bin/env bats
# make bench says where its figures come from: each figure measured here says so (the date, the
# CPU, the compilers), each per-call figure is a best batch and a median over rounds with their
# range; every figure of a peer (Pinocchio, RBDL, KDL), which cannot be built here, is labelled
# recorded, with its date and machine, and is never rescaled.  The bench's per-call part runs on
# a tiny configuration (10 batches, one round): its output's form is checked, not its times.

load helper

setup_file() {
  OUT="$BATS_FILE_TMPDIR/bench.out"
  export OUT
  # the bench times the plain build (bin/, build/libspart.a), which a sanitizer's run of the
  # suite (make sanitize, make tsan) does not make: its tests skip there
  sanitized spart-id && return
  BENCH_PART=per-call ROUNDS=2 BATCHES=10 BENCH_CLANG=0 BENCH_DIR="$BATS_FILE_TMPDIR/b" \
    sh "$TOP/scripts/bench.sh" > "$OUT" 2> "$BATS_FILE_TMPDIR/bench.err" || true
}

@test "make bench's per-call part runs and labels its own figures measured here: date, CPU, compiler" {
  if sanitized spart-id; then
    skip "the bench times the plain build, not a sanitizer's"
  fi
  cat "$BATS_FILE_TMPDIR/bench.err"
  cat "$OUT"
  grep -q "^== per call, no I/O: measured here ($(date -u +%Y-%m-%d), [0-9]* CPUs online, .*)$" "$OUT"
  grep -q "GCC [0-9]" "$OUT"
  # the two models, eight algorithms each, every one the best batch, the median over the rounds,
  # their range and spread
  [ "$(grep -c 'us/call' "$OUT")" -eq 16 ]
  # the derivatives' ratios, each model's
  [ "$(grep -Ec "^  derivatives \(medians, measured here\): of ID [0-9.]+x one ID call, central differences [0-9.]+x them; of FD [0-9.]+x one FD call$" "$OUT")" -eq 2 ]
  run -0 python3 - "$OUT" <<'PY'
import re, sys
pat = re.compile(r"GCC +best (\d+\.\d+), median (\d+\.\d+) us/call \(rounds (\d+\.\d+)-(\d+\.\d+), spread \d+%\)$")
n = 0
for line in open(sys.argv[1]):
    if "us/call" in line:
        m = pat.search(line)
        assert m, line
        best, med, lo, hi = map(float, m.groups())
        assert 0 < best <= lo <= med <= hi, line
        n += 1
assert n == 16, n
PY
}

@test "every peer figure make bench prints is labelled recorded, with its date and machine; none is measured or scaled" {
  if sanitized spart-id; then
    skip "the bench times the plain build, not a sanitizer's"
  fi
  local peers='Pinocchio|RBDL|KDL'
  grep -Eq "$peers" "$OUT"
  # every line that names a peer says recorded; every line with a peer's ratio gives the source
  run -0 python3 - "$OUT" <<'PY'
import re, sys
peer = re.compile(r"Pinocchio|RBDL|KDL")
ratio = re.compile(r"\d\.\d+-\d\.\d+|\d+\.\d+ *us|\d+\.\d+x")
lines = open(sys.argv[1]).read().splitlines()
named = [l for l in lines if peer.search(l)]
assert named, "no peer named"
for l in named:
    assert "recorded" in l, "a peer not labelled recorded: " + l
    assert "measured on this machine" not in l and "scaled" not in l, l
    if ratio.search(l):
        assert "2026-11-28" in l and "AMD EPYC" in l and "not measured here" in l, l
# the source in full once: the run's date, machine, versions, compilers and flags
head = [l for l in lines if l.startswith("== the peers")]
assert len(head) == 1, head
for w in ("2026-11-28", "AMD EPYC (znver3)", "Pinocchio 3.7.0", "RBDL 3.3.1", "GCC 12", "Clang 14",
          "-O3 -march=native", "interleaved and pinned", "30 rounds"):
    assert w in head[0], (w, head[0])
# no absolute peer time (microseconds) anywhere: ratios only
for l in named:
    assert not re.search(r"\d+\.\d+ *us", l), l
PY
}

@test "the README's per-call and peer claims are labelled: spart's measured (best batch, median, spread), the peers' recorded" {
  run -0 python3 - "$TOP/README.md" <<'PY'
import re, sys
text = re.sub(r"\s+", " ", open(sys.argv[1]).read())
sentences = re.split(r"(?<=\.) (?=[A-Z`])", text)
peer = re.compile(r"Pinocchio|RBDL|KDL")
for s in sentences:
    if peer.search(s):
        assert "measured on the same kind of machine" not in s, s
        if re.search(r"\d\.\d+", s):
            assert "recorded" in s.lower() and "2026-11-28" in s, s
# the per-call claims: best batch and median with the spread
per = [s for s in sentences if "us/call" in s or re.search(r"\d+\.\d+ us\b", s)]
assert per, "no per-call figure"
assert any("best batch" in s and "median" in s for s in per), per
PY
}

@test "make bench's inverse kinematics: kuka_iiwa full poses from zero, at least 99.5% met to 1e-10, all within the limits, the times a solve said; TRAC-IK's figures labelled reported" {
  if sanitized spart-id; then
    skip "the bench times the plain build, not a sanitizer's"
  fi
  grep -q "^== inverse kinematics (spart_ik, the commands' defaults), measured here ($(date -u +%Y-%m-%d), " "$OUT"
  run -0 python3 - "$OUT" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
m = re.search(r"  (\d+) full poses of lbr_iiwa_link_7, from zero: (\d+) met to 1e-10 \((\d+\.\d+)%\), "
              r"(\d+) within the limits; median (\d+\.\d) us a solve, 95th percentile (\d+\.\d) us", text)
assert m, text
n, met, pct, within = int(m[1]), int(m[2]), float(m[3]), int(m[4])
assert n == 10000 and met >= 9950 and within == n, m[0]
trac = [l for l in text.splitlines() if "TRAC-IK" in l]
assert len(trac) == 1 and "as its authors report it" in trac[0] and "not measured here" in trac[0], trac
PY
}

@test "make bench prints Pinocchio's derivative figures beside the measured ratios as their authors report them: the source's address, recorded, no time of theirs" {
  if sanitized spart-id; then
    skip "the bench times the plain build, not a sanitizer's"
  fi
  run -0 python3 - "$OUT" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
ours = [i for i, l in enumerate(lines) if l.startswith("  derivatives (medians, measured here)")]
theirs = [i for i, l in enumerate(lines) if "Pinocchio's derivatives as their authors report them" in l]
assert len(ours) == 2 and len(theirs) == 1, (ours, theirs)
l = lines[theirs[0]]
assert theirs[0] == ours[1] + 1, "not beside ours"
for w in ("Carpentier and Mansard, RSS 2018", "recorded, not measured here", "n + 1 calls",
          "docslib.org/doc/12353851", "jcarpent.github.io/publication/rss2018/"):
    assert w in l, (w, l)
assert not re.search(r"\d+(\.\d+)? *(us|ms)\b", l), l
PY
}
