#!/usr/bin/env python3
"""A pooled cohort against the population synth planted in it.

    python3 scripts/validate_cohort.py COHORT-TRUTH.json POOLED.csv COHORT-DIR [--informative]

For each effect cohort-truth.json plants: the planted μ beside the pooled μ and its interval
(covered or not), the planted τ beside the pooled τ (goal: within 35%), and, over the persons,
the mean and spread of each person's estimate less their own planted value with the share whose
95% interval (estimate ± 1.96 se) covers it. Effects pooled without a planted value (the
tuning gain) are listed as pooled. --informative (make cohort-check's 20 persons, too few to
judge τ by) prints the figures without a verdict on the goals. Standard library only.
"""

import csv
import glob
import json
import math
import os
import sys

TAU_GOAL = 0.35


def main():
    truth_path, pooled_path, cohort = sys.argv[1:4]
    informative = "--informative" in sys.argv[4:]
    truth = json.load(open(truth_path, encoding="utf-8"))
    pooled = {row["effect"]: row for row in csv.DictReader(open(pooled_path, encoding="utf-8"))}
    planted = {p["person"]: p["effects"] for p in truth["persons"]}
    estimates = {}
    for path in glob.glob(os.path.join(cohort, "person=*", "effects.json")):
        person = os.path.basename(os.path.dirname(path))[len("person="):]
        for effect in json.load(open(path, encoding="utf-8"))["effects"]:
            estimates.setdefault(effect["name"], {})[person] = (effect["estimate"], effect["se"])

    print(f"cohort of {len(truth['persons'])} persons, seed {truth['seed']}")
    met = True
    for name, population in truth["effects"].items():
        row = pooled.get(name)
        if row is None:
            print(f"{name}: not pooled (no person had an estimate)")
            met = False
            continue
        mu, lower, upper = float(row["mu"]), float(row["lower"]), float(row["upper"])
        tau = float(row["tau"])
        covered = lower <= population["mu"] <= upper
        tau_error = abs(tau - population["tau"]) / population["tau"]
        met = met and covered and tau_error <= TAU_GOAL
        print(f"{name} ({row['persons']} persons)")
        print(f"  mu:  planted {population['mu']:.4g}, pooled {mu:.4g}, "
              f"{float(row['level']):.0%} interval [{lower:.4g}, {upper:.4g}]: "
              f"{'covers' if covered else 'MISSES'} the planted value")
        print(f"  tau: planted {population['tau']:.4g}, pooled {tau:.4g}: "
              f"{tau_error:.0%} off (goal within {TAU_GOAL:.0%}: {'met' if tau_error <= TAU_GOAL else 'NOT MET'})")
        errors, hits = [], 0
        for person, (estimate, se) in estimates.get(name, {}).items():
            value = planted[person][name]
            errors.append(estimate - value)
            hits += abs(estimate - value) <= 1.96 * se
        if errors:
            mean = sum(errors) / len(errors)
            sd = math.sqrt(sum((e - mean) ** 2 for e in errors) / max(1, len(errors) - 1))
            print(f"  persons: estimate less own planted value, mean {mean:+.3g} (sd {sd:.3g}); "
                  f"95% interval covers it for {hits} of {len(errors)} ({hits / len(errors):.0%})")
    for name, row in pooled.items():
        if name not in truth["effects"]:
            print(f"{name} ({row['persons']} persons, nothing planted): pooled mu {float(row['mu']):.4g} "
                  f"[{float(row['lower']):.4g}, {float(row['upper']):.4g}], tau {float(row['tau']):.4g}")
    if informative:
        print("informative only: no verdict on the goals at this size (make validate-cohort judges them)")
    else:
        print("goals: " + ("all met" if met else "NOT all met"))


if __name__ == "__main__":
    main()
