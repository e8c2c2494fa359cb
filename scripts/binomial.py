"""The exact (Clopper–Pearson) binomial interval the validation harnesses report shares with.

Standard library only; imported by scripts/validate-tuning.py and scripts/validate-experiments.py
(Python puts a script's own folder first on its path).
"""
import math


def clopper_pearson(k, n, level=0.95):
    """The exact binomial interval for k of n, by bisection on the binomial distribution."""
    def cdf(p, k):
        return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k + 1))

    def bisect(increasing, target):
        lo, hi = 0.0, 1.0
        for _ in range(60):
            mid = (lo + hi) / 2
            if increasing(mid) < target:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    if n == 0:
        return 0.0, 1.0
    tail = (1 - level) / 2
    lower = 0.0 if k == 0 else bisect(lambda p: 1 - cdf(p, k - 1), tail)
    upper = 1.0 if k == n else bisect(lambda p: -cdf(p, k), -tail)
    return lower, upper
