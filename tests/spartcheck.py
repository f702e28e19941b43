"""Small helpers for the command cross-checks in tests/*.bats: run a command on JSON records,
and plain-list linear algebra (no numpy)."""
import json
import subprocess


def run(cmd, *records):
    """Run cmd (a list) on the records (dicts); return the output records."""
    text = "".join(json.dumps(r) + "\n" for r in records)
    p = subprocess.run(cmd, input=text, capture_output=True, text=True)
    if p.returncode != 0:
        raise AssertionError(f"{cmd} exited {p.returncode}: {p.stderr}")
    return [json.loads(line) for line in p.stdout.splitlines()]


def matvec(A, x):
    return [sum(a * b for a, b in zip(row, x)) for row in A]


def matmul(A, B):
    return [[sum(A[i][k] * B[k][j] for k in range(len(B))) for j in range(len(B[0]))]
            for i in range(len(A))]


def close(a, b, tol=1e-9, what=""):
    """Assert that two nested lists of numbers agree to tol relative to their scale."""
    def flat(x):
        return [v for e in x for v in flat(e)] if isinstance(x, list) else [x]
    fa, fb = flat(a), flat(b)
    assert len(fa) == len(fb), f"{what}: {len(fa)} values against {len(fb)}"
    scale = max([abs(v) for v in fb] + [1.0])
    err = max([abs(p - q) for p, q in zip(fa, fb)] + [0.0])
    assert err <= tol * scale, f"{what}: error {err:g} at scale {scale:g}"
