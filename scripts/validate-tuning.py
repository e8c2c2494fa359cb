#!/usr/bin/env python3
"""How far `resonance tune`'s answers can be trusted, on simulated people of every kind.

A benchmark-like harness (`make validate-tuning`), not a test. For each replication — a fresh
seed from the range declared below, one person kind — it simulates four months, ingests and
analyses them, runs `tune --level 0.9 --no-ledger --json`, and judges what tune said against the one-step
truth `resonance validate --preferences` computes from what the simulation planted
(docs/synth.md, "One-step truth"):

- the written candidate's interval on the last month (`held_out`) against the candidate's
  true one-step gain on that month;
- the pooled forward-chaining interval (`forward_gain`) against the true one-step gain of
  choosing that way: each judged month's chosen weights (`folds[].weights`; none chosen gains
  0) on that month, weighted by its decisions;
- for the `null` and `flat` kinds, whose true gain is 0 for every candidate, whether tune said
  `change` (a false change);
- every estimator's estimate of one fixed target's gain over the whole history (`validate
  --preferences`'s `estimated_gain`), against its one-step truth: halfway from the weights in
  force (the app's) to the person's own first-day weights (for `null` and `flat`, whose weights
  are the app's, to a fixed point that leans on context), so that the bias, variance and MSE
  table compares the estimators on the same targets, whatever tune chose.

With --reruns N it also lives N null and flat persons through fourteen months and runs tune on
each as a person would, every month for a year (the default level, the store's error ledger,
`--to` the end of each month from the third on): every change is a false one, and the share of
histories that end in one is what the ledger must keep at 5%.

Before the replications it runs four named cases and says whether each gave what it must: the
committed sample, a `null` and a `flat` person say `keep`; an `app-model` person at
`--taste-contrast 3` says `change`.

Seeds come from SEEDS below, declared before any run and disjoint from the seeds development
used (docs/validation.md lists those). Usage:

    scripts/validate-tuning.py [--bin PATH] [--work DIR] [--per-kind N] [--kinds K,K,...]
                               [--reruns N] [--no-cases] [--resume] [--summarize]

It prints a Markdown summary and writes it, with one CSV row per replication, into WORK.
"""

import argparse
import csv
import json
import math
import os
import shutil
import subprocess
import sys
import time

# Declared in advance; development used seeds 1-10, 97 and the ones docs/validation.md lists.
SEEDS = range(20_001, 21_001)
# The monthly reruns' histories: a range of their own, also declared in advance.
RERUN_SEEDS = range(30_001, 31_001)
# A rerun history: its first run through RERUN_FIRST months, then one a month for a year.
RERUN_MONTHS = 14
RERUN_FIRST = 3
# The reruns' design: smaller than the default 1,024 points so that twelve runs on each of
# many histories fit the time; the rule and the ledger are the default ones.
RERUN_POINTS = 256
KINDS = ["app-model", "satiation", "drift", "hidden-feature", "mixed", "null", "flat"]
NULL_KINDS = {"null", "flat"}
LEVEL = 0.9
ESTIMATORS = ["ips", "snips", "dm", "dr", "sndr", "switch-dr", "dros"]
WEIGHT_KEYS = ["bpm", "energy", "familiarity", "historical", "context", "recency", "time_of_day"]
# The far end of the null and flat persons' target: context first, as no kind's taste is.
CONTEXT_LEANING = {"bpm": 0.05, "energy": 0.05, "familiarity": 0.10, "historical": 0.10,
                   "context": 0.70, "recency": 0.30, "time_of_day": 0.20}


def run(args, **kwargs):
    done = subprocess.run(args, capture_output=True, text=True, **kwargs)
    if done.returncode not in (0, 1):
        sys.exit(f"validate-tuning: {' '.join(args)} exited {done.returncode}: {done.stderr}")
    return done


def fresh(folder):
    """Removes a person's folder and store from an earlier run; returns the store's path."""
    store = folder + ".sqlite"
    shutil.rmtree(folder, ignore_errors=True)
    if os.path.exists(store):
        os.remove(store)
    return store


def month_range(month):
    year, number = map(int, month.split("-"))
    after = (year + (number == 12), number % 12 + 1)
    return f"{year:04d}-{number:02d}-01", f"{after[0]:04d}-{after[1]:02d}-01"


def preference_file(template, weights, path):
    names = {
        "bpm": "bpmWeight", "energy": "energyWeight", "familiarity": "familiarityWeight",
        "historical": "historicalWeight", "context": "contextWeight",
        "recency": "recencyPenaltyWeight", "time_of_day": "timeOfDayPenaltyWeight",
    }
    file = json.loads(json.dumps(template))
    file["recommendation"] = "change"
    for key, name in names.items():
        file["preferences"][name] = weights[key]
    with open(path, "w") as out:
        json.dump(file, out)


def one_step(binary, folder, store, prefs, month):
    start, end = month_range(month)
    done = run([binary, "validate", "--truth", f"{folder}/truth.json", "--db", store,
                "--preferences", prefs, "--from", start, "--to", end, "--json", "-q"])
    tuning = json.loads(done.stdout)["tuning"]
    return tuning["one_step"]["gain"], tuning["decisions"]


def estimator_row(binary, folder, store, template, kind, in_force):
    """Every estimator's gain of the fixed target (see the docstring) over the whole history,
    and its one-step truth, as est_<estimator> and target_truth."""
    truth = json.load(open(f"{folder}/truth.json"))
    far = CONTEXT_LEANING if kind in NULL_KINDS else truth["person"]["preferences"]
    target = {k: (in_force[k] + far[k]) / 2 for k in WEIGHT_KEYS}
    path = folder + "-target.json"
    preference_file(template, target, path)
    done = run([binary, "validate", "--truth", f"{folder}/truth.json", "--db", store,
                "--preferences", path, "--json", "-q"])
    tuning = json.loads(done.stdout)["tuning"]
    row = {"target_truth": tuning["one_step"]["gain"]}
    for name, gain in tuning["estimated_gain"].items():
        row[f"est_{name}"] = gain
    return row


def replicate(binary, work, seed, kind):
    folder = f"{work}/{kind}-{seed}"
    store = fresh(folder)
    run([binary, "synth", "--out", folder, "--months", "4", "--seed", str(seed), "--songs", "120",
         "--scale", "0.05", "--person", kind, "-q"])
    run([binary, "ingest", folder, "--db", store, "-q"])
    run([binary, "analyze", "--db", store, "-q"])
    prefs = folder + "-preferences.json"
    # One run on a fresh store, judged at the level it states: --no-ledger keeps the level
    # LEVEL rather than the first run's share of the error rate (docs/tuning.md).
    tuned = json.loads(run([binary, "tune", "--db", store, "--level", str(LEVEL), "--no-ledger",
                            "--out", prefs, "--json", "-q"]).stdout)
    template = json.load(open(prefs))
    row = {"seed": seed, "kind": kind, "recommendation": tuned["recommendation"],
           "clears_margin": tuned["clears_margin"], "clears_zero": tuned["clears_zero"]}
    row.update(estimator_row(binary, folder, store, template, kind, tuned["in_force"]))
    held = tuned["held_out"]
    if held is not None and tuned["candidate"] is not None:
        path = folder + "-candidate.json"
        preference_file(template, tuned["candidate"], path)
        truth, _ = one_step(binary, folder, store, path, held["month"])
        row.update(held_gain=held["gain"], held_lower=held["lower"], held_upper=held["upper"],
                   held_truth=truth)
    forward = tuned["forward_gain"]
    if forward is not None:
        total, weight = 0.0, 0
        for i, fold in enumerate(tuned["folds"]):
            if fold["weights"] is not None:
                path = f"{folder}-fold{i}.json"
                preference_file(template, fold["weights"], path)
                gain, decisions = one_step(binary, folder, store, path, fold["month"])
                total += gain * fold["decisions"]
            weight += fold["decisions"]
        row.update(forward_gain=forward["gain"], forward_lower=forward["lower"],
                   forward_upper=forward["upper"], forward_truth=total / weight if weight else 0)
    shutil.rmtree(folder, ignore_errors=True)
    for path in os.listdir(work):
        if path.startswith(f"{kind}-{seed}") and path.endswith(".sqlite"):
            os.remove(f"{work}/{path}")
    return row


# The named cases: (what, synth options or None for the committed sample, what tune must say).
CASES = [
    ("the committed sample", None, "keep"),
    ("a null person (seed 1)", ["--person", "null", "--seed", "1"], "keep"),
    ("a flat person (seed 1)", ["--person", "flat", "--seed", "1"], "keep"),
    ("an app-model person at --taste-contrast 3 (seed 1)",
     ["--person", "app-model", "--taste-contrast", "3", "--seed", "1"], "change"),
]


def named_case(binary, work, name, options):
    folder = f"{work}/case"
    store = fresh(folder)
    data = "Datasets/sample"
    if options is not None:
        run([binary, "synth", "--out", folder, "--months", "4", "--songs", "160", "--scale", "0.1",
             "-q"] + options)
        data = folder
    run([binary, "ingest", data, "--db", store, "-q"])
    run([binary, "analyze", "--db", store, "-q"])
    tuned = json.loads(run([binary, "tune", "--db", store, "--out", folder + "-prefs.json",
                            "--json", "-q"]).stdout)
    shutil.rmtree(folder, ignore_errors=True)
    os.remove(store)
    return tuned["recommendation"], tuned["reason"]


def rerun_history(binary, work, seed, kind):
    """A null or flat person's RERUN_MONTHS months, with tune run as a person would run it every
    month: at the default level with the store's error ledger, through month RERUN_FIRST, then
    each month after. Every change is a false one; the row says how many runs, how many said
    change, the first month that did, and the levels tested."""
    folder = f"{work}/rerun-{kind}-{seed}"
    store = fresh(folder)
    run([binary, "synth", "--out", folder, "--months", str(RERUN_MONTHS), "--seed", str(seed),
         "--start", "2022-06-01", "--songs", "120", "--scale", "0.05", "--person", kind, "-q"])
    run([binary, "ingest", folder, "--db", store, "-q"])
    run([binary, "analyze", "--db", store, "-q"])
    levels, changes, first_change = [], 0, ""
    for m in range(RERUN_FIRST, RERUN_MONTHS + 1):
        # Through the m-th month: up to the first day of the month after it.
        after = 2022 * 12 + 5 + m
        to = f"{after // 12:04d}-{after % 12 + 1:02d}-01"
        tuned = json.loads(run([binary, "tune", "--db", store, "--points", str(RERUN_POINTS),
                                "--to", to, "--out", folder + "-prefs.json", "--json",
                                "-q"]).stdout)
        levels.append(tuned["level"])
        if tuned["recommendation"] == "change":
            changes += 1
            first_change = first_change or tuned["months"][-1]
    shutil.rmtree(folder, ignore_errors=True)
    os.remove(store)
    return {"seed": seed, "kind": kind, "runs": len(levels), "changes": changes,
            "first_change": first_change, "first_level": levels[0], "last_level": levels[-1]}


def rerun_summary(rows):
    ended = sum(r["changes"] > 0 for r in rows)
    lo, hi = clopper_pearson(ended, len(rows))
    runs = sum(r["runs"] for r in rows)
    said = sum(r["changes"] for r in rows)
    return [f"Monthly reruns ({len(rows)} null and flat histories of {RERUN_MONTHS} months, tune "
            f"at 95% with the ledger through month {RERUN_FIRST} and each month after, "
            f"{RERUN_POINTS}-point design): {ended} of {len(rows)} ended in a false change "
            f"(Clopper–Pearson 95%: {lo:.3f}–{hi:.3f}); {said} of {runs} runs said change; "
            f"levels tested from {min(r['first_level'] for r in rows):.4f} on the first run "
            f"to {max(r['last_level'] for r in rows):.4f} on the last."]


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

    tail = (1 - level) / 2
    # Lower: P(X >= k | p) = tail; upper: P(X <= k | p) = tail.
    lower = 0.0 if k == 0 else bisect(lambda p: 1 - cdf(p, k - 1), tail)
    upper = 1.0 if k == n else bisect(lambda p: -cdf(p, k), -tail)
    return lower, upper


FIELDS = ["seed", "kind", "recommendation", "clears_margin", "clears_zero", "held_gain",
          "held_lower", "held_upper", "held_truth", "forward_gain", "forward_lower",
          "forward_upper", "forward_truth", "target_truth"] + [f"est_{e}" for e in ESTIMATORS]


def parse(row):
    """A runs.csv row back as replicate() made it: numbers as floats, empty cells left out."""
    parsed = {}
    for key, value in row.items():
        if value == "":
            continue
        if key in ("seed",):
            parsed[key] = int(value)
        elif key in ("kind", "recommendation", "clears_margin", "clears_zero"):
            parsed[key] = value
        else:
            parsed[key] = float(value)
    return parsed


def covered(row, name):
    lower, upper, truth = row.get(f"{name}_lower"), row.get(f"{name}_upper"), row.get(f"{name}_truth")
    if lower is None or upper is None or truth is None or any(map(math.isnan, (lower, upper))):
        return None
    # No month chose anything: the gain is 0 by construction, with no interval to judge.
    if upper <= lower:
        return None
    return lower <= truth <= upper


def summary(rows, seconds):
    took = f" in {seconds / 60:.1f} min" if seconds is not None else " (from runs.csv)"
    lines = [f"# validate-tuning: {len(rows)} replications{took}", "",
             f"Intervals at {LEVEL:.0%}; truth: the one-step gain (`validate --preferences`).", "",
             "| kind | runs | change | held-out covers | forward covers | mean est − truth (held-out) |",
             "|---|---:|---:|---:|---:|---:|"]
    for kind in KINDS + ["all"]:
        mine = [r for r in rows if kind == "all" or r["kind"] == kind]
        if not mine:
            continue
        changes = sum(r["recommendation"] == "change" for r in mine)
        cells = []
        for name in ("held", "forward"):
            marks = [c for c in (covered(r, name) for r in mine) if c is not None]
            if marks:
                k, n = sum(marks), len(marks)
                lo, hi = clopper_pearson(k, n)
                cells.append(f"{k}/{n} ({k / n:.2f}; {lo:.2f}–{hi:.2f})")
            else:
                cells.append("–")
        errors = [r["held_gain"] - r["held_truth"] for r in mine if "held_truth" in r]
        bias = f"{sum(errors) / len(errors):+.4f}" if errors else "–"
        lines.append(f"| {kind} | {len(mine)} | {changes} | {cells[0]} | {cells[1]} | {bias} |")
    nulls = [r for r in rows if r["kind"] in NULL_KINDS]
    if nulls:
        false = sum(r["recommendation"] == "change" for r in nulls)
        lo, hi = clopper_pearson(false, len(nulls))
        lines += ["", f"False changes on null and flat persons: {false} of {len(nulls)} "
                  f"(Clopper–Pearson 95%: {lo:.3f}–{hi:.3f})."]
    pairs = [(r["held_truth"], r["held_gain"]) for r in rows
             if r["kind"] not in NULL_KINDS and "held_truth" in r]
    if len(pairs) > 2:
        mx = sum(t for t, _ in pairs) / len(pairs)
        my = sum(e for _, e in pairs) / len(pairs)
        sxx = sum((t - mx) ** 2 for t, _ in pairs)
        if sxx > 0:
            slope = sum((t - mx) * (e - my) for t, e in pairs) / sxx
            lines += ["", f"Slope of estimated on true held-out gain over {len(pairs)} non-null "
                      f"runs: {slope:.2f}."]
    lines += estimator_table(rows)
    return "\n".join(lines) + "\n"


def estimator_table(rows):
    """Bias, standard deviation and root MSE (all ×100) of every estimator's gain of the fixed
    target against its one-step truth, per kind and over all, and the estimator of least MSE."""
    lines = ["", "Every estimator on one fixed target per run (the gain over the whole history; "
             "×100: bias / sd / root MSE):", "",
             "| kind | runs | " + " | ".join(ESTIMATORS) + " |",
             "|---|---:|" + "---:|" * len(ESTIMATORS)]
    best = None
    for kind in KINDS + ["all"]:
        mine = [r for r in rows if (kind == "all" or r["kind"] == kind) and "target_truth" in r]
        if not mine:
            continue
        cells = []
        for e in ESTIMATORS:
            errors = [r[f"est_{e}"] - r["target_truth"] for r in mine if f"est_{e}" in r]
            if not errors:
                cells.append("–")
                continue
            n = len(errors)
            bias = sum(errors) / n
            sd = math.sqrt(sum((x - bias) ** 2 for x in errors) / (n - 1)) if n > 1 else 0.0
            rmse = math.sqrt(sum(x * x for x in errors) / n)
            cells.append(f"{100 * bias:+.2f} / {100 * sd:.2f} / {100 * rmse:.2f}")
            if kind == "all" and (best is None or rmse < best[1]):
                best = (e, rmse)
        lines.append(f"| {kind} | {len(mine)} | " + " | ".join(cells) + " |")
    if best:
        lines += ["", f"Least MSE over every run: {best[0]} (root MSE {100 * best[1]:.2f} ×10⁻²)."]
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=".build/release/resonance")
    parser.add_argument("--work", default=".bench/validate-tuning")
    parser.add_argument("--per-kind", type=int, default=15)
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--no-cases", action="store_true", help="skip the four named cases")
    parser.add_argument("--reruns", type=int, default=0,
                        help="also rerun tune monthly over a year on this many null and flat "
                        "histories (about a minute each)")
    parser.add_argument("--resume", action="store_true",
                        help="keep WORK/runs.csv's replications and run only the missing ones")
    parser.add_argument("--summarize", action="store_true",
                        help="only summarise WORK/runs.csv, as far as a run got")
    args = parser.parse_args()
    binary = os.path.abspath(args.bin)
    os.makedirs(args.work, exist_ok=True)
    work = os.path.abspath(args.work)
    kinds = args.kinds.split(",")
    if args.summarize:
        rows = [parse(row) for row in csv.DictReader(open(f"{work}/runs.csv"))]
        print(summary(rows, None), end="")
        return
    started = time.time()
    cases = []
    for name, options, expected in [] if args.no_cases else CASES:
        said, reason = named_case(binary, work, name, options)
        cases.append(f"- {name}: `{said}` ({'as it must' if said == expected else 'NOT ' + expected}) "
                     f"— {reason}")
        print(f"validate-tuning: {cases[-1]}", file=sys.stderr, flush=True)
    rows = []
    done = set()
    if args.resume and os.path.exists(f"{work}/runs.csv"):
        rows = [parse(row) for row in csv.DictReader(open(f"{work}/runs.csv"))]
        done = {(r["kind"], r["seed"]) for r in rows}
    seeds = iter(SEEDS)
    # Each replication's row is written as it ends, so a run stopped early can be summarised
    # (--summarize) or finished (--resume).
    with open(f"{work}/runs.csv", "a" if done else "w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=FIELDS)
        if not done:
            writer.writeheader()
        for _ in range(args.per_kind):
            for kind in kinds:
                seed = next(seeds)
                if (kind, seed) in done:
                    continue
                rows.append(replicate(binary, work, seed, kind))
                writer.writerow(rows[-1])
                out.flush()
                print(f"validate-tuning: {len(rows)}/{args.per_kind * len(kinds)}: {kind} seed "
                      f"{seed}: {rows[-1]['recommendation']}", file=sys.stderr, flush=True)
    reruns = []
    if args.reruns:
        rerun_seeds = iter(RERUN_SEEDS)
        with open(f"{work}/reruns.csv", "w", newline="") as out:
            writer = csv.DictWriter(out, fieldnames=["seed", "kind", "runs", "changes",
                                                     "first_change", "first_level", "last_level"])
            writer.writeheader()
            for i in range(args.reruns):
                kind = sorted(NULL_KINDS)[i % len(NULL_KINDS)]
                reruns.append(rerun_history(binary, work, next(rerun_seeds), kind))
                writer.writerow(reruns[-1])
                out.flush()
                print(f"validate-tuning: rerun {i + 1}/{args.reruns}: {kind}: "
                      f"{reruns[-1]['changes']} changes in {reruns[-1]['runs']} runs",
                      file=sys.stderr, flush=True)
    text = summary(rows, time.time() - started)
    if reruns:
        text += "\n" + "\n".join(rerun_summary(reruns)) + "\n"
    text += ("\nNamed cases (tune as a person runs it: 95% with the store's error ledger, a "
             "first run through four months testing at 97.14%):\n\n" + "\n".join(cases) + "\n")
    with open(f"{work}/summary.md", "w") as out:
        out.write(text)
    print(text, end="")


if __name__ == "__main__":
    main()
