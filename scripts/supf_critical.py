#!/usr/bin/env python3
"""The bar hrv.md's sustained-change rule uses (docs/reports.md, "Baselines and sustained changes").

The rule's statistic is the largest F, over every split leaving 15% each side, of a step added
to a least-squares line. Andrews' (1993) tables are for a break with no other regressor; with
the line in the model the statistic runs higher (a step and a slope share what they explain),
so its null distribution is simulated here: white-noise series of n values, the same fit, the
same trimming. Prints the 90/95/99% points for each n.

    python3 scripts/supf_critical.py            # n = 120, 365, 1000, 3650
    python3 scripts/supf_critical.py 365 20000  # one length, 20,000 series

Needs numpy. Takes about a minute for the default lengths on two cores.
"""
import sys

import numpy as np


def sup_f(n, reps, rng, trim=0.15):
    t = np.arange(n) / n
    line = np.column_stack([np.ones(n), t])
    hat = line @ np.linalg.pinv(line)
    lo, hi = int(np.ceil(trim * n)), int(np.floor((1 - trim) * n))
    # Each split's step column with the line projected out, at unit length: the step's
    # explained sum of squares is then the squared projection of the line's residuals.
    steps = []
    for k in range(lo, hi + 1):
        d = (np.arange(n) >= k).astype(float)
        r = d - hat @ d
        steps.append(r / np.sqrt(r @ r))
    steps = np.array(steps)
    out = np.empty(reps)
    for i in range(reps):
        e = rng.standard_normal(n)
        e -= hat @ e
        rss = e @ e
        best = ((steps @ e) ** 2).max()
        out[i] = best / ((rss - best) / (n - 3))
    return out


def main():
    rng = np.random.default_rng(1993)
    lengths = [int(sys.argv[1])] if len(sys.argv) > 1 else [120, 365, 1000, 3650]
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else None
    print("n      90%    95%    99%   (series)")
    for n in lengths:
        r = reps or (20000 if n <= 1000 else 4000)
        f = sup_f(n, r, rng)
        q = np.quantile(f, [0.90, 0.95, 0.99])
        print(f"{n:<6} {q[0]:6.2f} {q[1]:6.2f} {q[2]:6.2f}   ({r})")


if __name__ == "__main__":
    main()
