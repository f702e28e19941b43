"""The largest step h that the classical Runge-Kutta method takes stably for the oscillator
m x'' + c x' + k x = 0, from its two roots z (closed form) and RK4's stability function
R(w) = 1 + w + w^2/2 + w^3/6 + w^4/24: the largest h with |R(s z)| <= 1 for every s <= h, found
along each root's ray by a fine scan and bisection, for the step checks of spart-sim
(tests/sim-control.bats, tests/sim-ground.bats); independent of libspart.
Usage: rk4limit.py M C K -> h (s)."""
import cmath
import sys


def gain(w):
    return abs(1 + w + w * w / 2 + w ** 3 / 6 + w ** 4 / 24)


def ray(z):
    """the largest s with |R(t z)| <= 1 for t in (0, s]"""
    lo, t = 0.0, 0.0
    while True:
        t += 1e-4 / abs(z)
        if gain(t * z) > 1:
            break
        lo = t
    hi = t
    for _ in range(60):
        mid = (lo + hi) / 2
        if gain(mid * z) > 1:
            hi = mid
        else:
            lo = mid
    return lo


def main():
    m, c, k = (float(x) for x in sys.argv[1:4])
    d = cmath.sqrt(c * c - 4 * m * k)
    roots = [(-c + d) / (2 * m), (-c - d) / (2 * m)]
    print(repr(min(ray(z) for z in roots if abs(z) > 0)))


main()
