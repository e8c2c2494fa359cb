#!/usr/bin/env python3
"""How far `resonance tune`'s answers can be trusted, on simulated people of every kind.

A benchmark-like harness (`make validate-tuning`), not a test. Every person is simulated by
`resonance synth` from a seed in a range declared below before any run, ingested, analysed and
tuned; what tune said is judged against what the simulation planted (docs/synth.md, "One-step
truth" and "Closed-loop value"). Three groups, each answering one question of
docs/validation.md ("Tuning on people it was not built for"):

- **coverage** (`--per-kind` four-month people of each non-null kind, at taste contrast 1):
  `tune --level 0.9 --no-ledger` once; the written candidate's interval on the last month
  (`held_out`) and the pooled forward-chaining interval (`forward_gain`) against the one-step
  truth of what they estimate (`validate --preferences`); every estimator's estimate of one
  fixed target against its truth (the bias / sd / root-MSE table).
- **null** (`--nulls` fourteen-month histories: a third `null`, a third `flat`, a third a
  misspecified person whose DJ already runs that person's best point): every candidate's true
  gain is 0 for `null` and `flat`, and at most the residual gain the harness reports for the
  third. Tune once on the first four months (`--to`, at 90%, no ledger), then as a person
  would every month for a year (95% with the store's error ledger, `--to` the end of month 3,
  4, …, 14). A change is false when the written preferences' true one-step gain on the month
  they were judged on is not above 0.
- **power** (`--power` four-month `mixed` people at taste contrast 3, screened by their best
  design point's one-step gain ≥ 0.03): tune as a person would (95%, the ledger); each change
  and each best point run forward for three months by `synth --dj-preferences FILE --dj-from`,
  against the same three months under the preferences in force.

Every change in any group is run forward the same way: its realised three-month composite
gain (the closed-loop value, truth.json's `dj_months`) must have the sign claimed.

Before the groups it runs four named cases: the committed sample, a `null` and a `flat`
person say `keep`; an `app-model` person at `--taste-contrast 3` says `change`.

Usage:

    scripts/validate-tuning.py [--bin PATH] [--work DIR] [--per-kind N] [--nulls N]
                               [--power N] [--jobs N] [--no-cases] [--resume] [--summarize]

It prints a Markdown summary and writes it, with one CSV row per person, into WORK.
"""

import argparse
import concurrent.futures
import csv
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time

from binomial import clopper_pearson

# Seeds, declared before any run and disjoint from those development used (docs/validation.md
# lists them; the harness's earlier versions drew 20001-20105 and 30001-30006).
COVERAGE_SEEDS = range(40_001, 41_001)
NULL_SEEDS = range(50_001, 51_001)
POWER_SEEDS = range(60_001, 61_001)

COVERAGE_KINDS = ["app-model", "satiation", "drift", "hidden-feature", "mixed"]
# The null group's kinds, in turn; `best:KIND` is a KIND person whose DJ runs their best point.
NULL_KINDS = ["null", "flat", "best:satiation", "null", "flat", "best:drift", "null", "flat",
              "best:hidden-feature", "null", "flat", "best:mixed"]
POWER_CONTRAST = 3
POWER_THRESHOLD = 0.03
LEVEL = 0.9
MONTHS = 4
NULL_MONTHS = 14
RERUN_FIRST = 3
# The reruns' design: smaller than the default 1,024 points so that twelve runs on each of
# sixty histories fit the time; the rule and the ledger are the default ones.
RERUN_POINTS = 256
FORWARD_MONTHS = 3
START = (2022, 6)
PERSON = ["--songs", "120", "--scale", "0.05"]
ESTIMATORS = ["ips", "snips", "dm", "dr", "sndr", "switch-dr", "dros"]
WEIGHT_KEYS = ["bpm", "energy", "familiarity", "historical", "context", "recency", "time_of_day"]
# The far end of the null and flat persons' estimator target: context first, as no kind's
# taste is.
CONTEXT_LEANING = {"bpm": 0.05, "energy": 0.05, "familiarity": 0.10, "historical": 0.10,
                   "context": 0.70, "recency": 0.30, "time_of_day": 0.20}
# The composite's weights (docs/tuning.md, "Rewards"), for the closed-loop value.
COMPOSITE = {"keep": 0.4, "share": 0.3, "response": 0.3}


def run(args):
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(args)} exited {done.returncode}: {done.stderr}")
    return done


def month(offset):
    """The first day of the month `offset` months after the start: `YYYY-MM-01`."""
    index = START[0] * 12 + START[1] - 1 + offset
    return f"{index // 12:04d}-{index % 12 + 1:02d}-01"


def month_label(offset):
    return month(offset)[:7]


def preference_file(weights, path, template):
    """A preference file with `weights` on `template`'s other settings (a file tune wrote)."""
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
    return path


class Person:
    """One simulated person's folder and store under WORK, removed when done."""

    def __init__(self, binary, work, name, synth_args):
        self.binary, self.name, self.synth_args = binary, name, synth_args
        self.folder = f"{work}/{name}"
        self.store = self.folder + ".sqlite"
        self.clean()
        os.makedirs(self.folder + "-files", exist_ok=True)

    def file(self, name):
        return f"{self.folder}-files/{name}"

    def clean(self):
        for path in (self.folder, self.folder + "-files", self.folder + "-forward"):
            shutil.rmtree(path, ignore_errors=True)
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(self.store + suffix):
                os.remove(self.store + suffix)

    def build(self, extra=()):
        run([self.binary, "synth", "--out", self.folder, "-q"] + self.synth_args + list(extra))
        run([self.binary, "ingest", self.folder, "--db", self.store, "-q"])
        run([self.binary, "analyze", "--db", self.store, "-q"])

    def tune(self, *options, out="prefs.json"):
        path = self.file(out)
        done = run([self.binary, "tune", "--db", self.store, "--out", path, "--json", "-q"]
                   + list(options))
        return json.loads(done.stdout), path

    def validate(self, prefs, *options):
        done = run([self.binary, "validate", "--truth", f"{self.folder}/truth.json", "--db",
                    self.store, "--preferences", prefs, "--json", "-q"] + list(options))
        return json.loads(done.stdout)["tuning"]

    def one_step(self, prefs, start, end):
        return self.validate(prefs, "--from", start, "--to", end)["one_step"]["gain"]

    def forward(self, prefs, start_offset, base_args=None):
        """The closed-loop composite, skip and decisions over FORWARD_MONTHS months from the
        month `start_offset`, with the DJ running `prefs` from then on (None: as in force)."""
        folder = self.folder + "-forward"
        shutil.rmtree(folder, ignore_errors=True)
        args = list(base_args if base_args is not None else self.synth_args)
        args = replace_months(args, start_offset + FORWARD_MONTHS)
        if prefs is not None:
            args += ["--dj-preferences", prefs, "--dj-from", month(start_offset)]
        run([self.binary, "synth", "--out", folder, "-q"] + args)
        truth = json.load(open(f"{folder}/truth.json"))
        shutil.rmtree(folder, ignore_errors=True)
        wanted = {month_label(start_offset + k) for k in range(FORWARD_MONTHS)}
        rows = [m for m in truth["dj_months"] if m["month"] in wanted]
        n = sum(m["decisions"] for m in rows)
        value = sum(m["decisions"] * (COMPOSITE["keep"] * (1 - m["skip"])
                                      + COMPOSITE["share"] * m["share"]
                                      + COMPOSITE["response"] * m["response"]) for m in rows) / n
        skip = sum(m["decisions"] * m["skip"] for m in rows) / n
        return value, skip


def replace_months(args, months):
    args = list(args)
    i = args.index("--months")
    args[i + 1] = str(months)
    return args


def estimator_row(person, template, kind, in_force, start=None, end=None):
    """Every estimator's gain of a fixed target over the history (or `start`…`end`), beside
    its one-step truth: halfway from the weights in force to the person's own first-day
    weights (for null and flat people, to a point that leans on context)."""
    truth = json.load(open(f"{person.folder}/truth.json"))
    far = CONTEXT_LEANING if kind in ("null", "flat") else truth["person"]["preferences"]
    target = {k: (in_force[k] + far[k]) / 2 for k in WEIGHT_KEYS}
    path = preference_file(target, person.file("target.json"), template)
    options = ["--from", start, "--to", end] if start else []
    tuning = person.validate(path, *options)
    row = {"target_truth": tuning["one_step"]["gain"]}
    for name, gain in tuning["estimated_gain"].items():
        row[f"est_{name}"] = gain
    return row


def judge_single(person, tuned, template, end_offset):
    """The held-out and forward intervals of one tune run against their one-step truths."""
    row = {}
    held = tuned["held_out"]
    if held is not None and tuned["candidate"] is not None:
        path = preference_file(tuned["candidate"], person.file("candidate.json"), template)
        start, end = held["month"] + "-01", month(end_offset)
        row.update(held_gain=held["gain"], held_lower=held["lower"], held_upper=held["upper"],
                   held_truth=person.one_step(path, start, end))
    forward = tuned["forward_gain"]
    if forward is not None:
        total, weight = 0.0, 0
        for i, fold in enumerate(tuned["folds"]):
            if fold["weights"] is not None:
                path = preference_file(fold["weights"], person.file(f"fold{i}.json"), template)
                offset = month_offset(fold["month"])
                total += person.one_step(path, month(offset), month(offset + 1)) * fold["decisions"]
            weight += fold["decisions"]
        row.update(forward_gain=forward["gain"], forward_lower=forward["lower"],
                   forward_upper=forward["upper"], forward_truth=total / weight if weight else 0)
    return row


def month_offset(label):
    year, number = map(int, label.split("-")[:2])
    return year * 12 + number - 1 - (START[0] * 12 + START[1] - 1)


def closed_loop(person, prefs, base_args=None, best=None):
    """The realised gain of running `prefs` forward from the end of month MONTHS against the
    preferences in force, and, with `best`, of the best point too (composite and skip)."""
    base_value, base_skip = person.forward(None, MONTHS, base_args)
    value, skip = person.forward(prefs, MONTHS, base_args)
    row = {"loop_gain": value - base_value, "loop_skip_drop": base_skip - skip}
    if best is not None:
        best_value, best_skip = person.forward(best, MONTHS, base_args)
        row.update(best_loop_gain=best_value - base_value, best_loop_skip_drop=base_skip - best_skip)
    return row


# ------------------------------------------------------------------------------------------
# The groups.

def coverage_person(binary, work, seed, kind):
    person = Person(binary, work, f"coverage-{kind}-{seed}",
                    ["--months", str(MONTHS), "--seed", str(seed), "--person", kind] + PERSON)
    try:
        person.build()
        # One run on a fresh store, judged at the level it states: --no-ledger keeps the level
        # LEVEL rather than the first run's share of the error rate (docs/tuning.md).
        tuned, prefs = person.tune("--level", str(LEVEL), "--no-ledger")
        template = json.load(open(prefs))
        row = {"group": "coverage", "seed": seed, "kind": kind,
               "recommendation": tuned["recommendation"],
               "clears_margin": tuned["clears_margin"], "clears_zero": tuned["clears_zero"]}
        row.update(estimator_row(person, template, kind, tuned["in_force"]))
        row.update(judge_single(person, tuned, template, MONTHS))
        if tuned["recommendation"] == "change":
            row.update(claimed=tuned["forward_gain"]["gain"])
            row.update(closed_loop(person, prefs))
        return row
    finally:
        person.clean()


def null_person(binary, work, seed, kind):
    """A fourteen-month null history: one run on the first four months, then a year of
    monthly reruns with the ledger."""
    base = ["--months", str(NULL_MONTHS), "--seed", str(seed)] + PERSON
    real_kind = kind.split(":")[-1]
    person = Person(binary, work, f"null-{kind.replace(':', '-')}-{seed}",
                    base + ["--person", real_kind])
    try:
        row = {"group": "null", "seed": seed, "kind": kind}
        if kind.startswith("best:"):
            # The pilot: the first four months under the app's defaults, the person's best
            # point found on them; then the whole history lived with the DJ running it.
            pilot = Person(binary, work, f"pilot-{real_kind}-{seed}",
                           replace_months(person.synth_args, MONTHS))
            try:
                pilot.build()
                _, prefs = pilot.tune("--level", str(LEVEL), "--no-ledger", "--points", "64")
                template = json.load(open(prefs))
                tuning = pilot.validate(prefs, "--best-point")
                best = tuning["best_point"]
                row.update(pilot_best_gain=best["gain"])
                best_path = preference_file(best["weights"], person.file("best.json"), template)
            finally:
                pilot.clean()
            person.synth_args += ["--dj-preferences", best_path]
        person.build()
        tuned, prefs = person.tune("--level", str(LEVEL), "--no-ledger", "--to", month(MONTHS))
        template = json.load(open(prefs))
        row.update(recommendation=tuned["recommendation"], clears_margin=tuned["clears_margin"],
                   clears_zero=tuned["clears_zero"])
        row.update(estimator_row(person, template, real_kind, tuned["in_force"], month(0),
                                 month(MONTHS)))
        row.update(judge_single(person, tuned, template, MONTHS))
        if kind.startswith("best:"):
            # What the best point found on the pilot leaves on the history it lived: the best
            # design point's gain over it there.
            tuning = person.validate(prefs, "--best-point", "--from", month(0), "--to",
                                     month(MONTHS))
            row.update(residual_gain=tuning["best_point"]["gain"])
        if tuned["recommendation"] == "change" and not kind.startswith("best:"):
            # Run forward from the end of month four, against the same months as lived. (A
            # best-point person's DJ runs their best point before the switch, which --dj-from
            # cannot state; their changes are judged by the one-step truth alone.)
            row.update(claimed=tuned["forward_gain"]["gain"])
            row.update(closed_loop(person, prefs,
                                   base_args=replace_months(person.synth_args, MONTHS)))
        # The reruns: the default level with the ledger, through month 3, 4, …, 14.
        changes, false, levels, first = 0, 0, [], ""
        for m in range(RERUN_FIRST, NULL_MONTHS + 1):
            rerun, path = person.tune("--points", str(RERUN_POINTS), "--to", month(m),
                                      out="rerun.json")
            levels.append(rerun["level"])
            if rerun["recommendation"] != "change":
                continue
            changes += 1
            first = first or month_label(m - 1)
            truth = person.one_step(path, month(m - 1), month(m))
            if truth <= 0:
                false += 1
        row.update(reruns=len(levels), rerun_changes=changes, rerun_false=false,
                   rerun_first_change=first, first_level=levels[0], last_level=levels[-1])
        return row
    finally:
        person.clean()


def power_person(binary, work, seed):
    kind = "mixed"
    person = Person(binary, work, f"power-{seed}",
                    ["--months", str(MONTHS), "--seed", str(seed), "--person", kind,
                     "--taste-contrast", str(POWER_CONTRAST)] + PERSON)
    try:
        person.build()
        # As a person runs it: the default level with the store's error ledger.
        tuned, prefs = person.tune()
        template = json.load(open(prefs))
        best = person.validate(prefs, "--best-point")["best_point"]
        row = {"group": "power", "seed": seed, "kind": f"mixed×{POWER_CONTRAST}",
               "recommendation": tuned["recommendation"], "clears_margin": tuned["clears_margin"],
               "clears_zero": tuned["clears_zero"], "best_gain": best["gain"]}
        if best["gain"] >= POWER_THRESHOLD or tuned["recommendation"] == "change":
            best_path = preference_file(best["weights"], person.file("best.json"), template)
            if tuned["recommendation"] == "change":
                row.update(claimed=tuned["forward_gain"]["gain"])
                row.update(closed_loop(person, prefs, best=best_path))
            else:
                base_value, base_skip = person.forward(None, MONTHS)
                value, skip = person.forward(best_path, MONTHS)
                row.update(best_loop_gain=value - base_value, best_loop_skip_drop=base_skip - skip)
        return row
    finally:
        person.clean()


# The named cases: (what, synth options or None for the committed sample, what tune must say).
CASES = [
    ("the committed sample", None, "keep"),
    ("a null person (seed 1)", ["--person", "null", "--seed", "1"], "keep"),
    ("a flat person (seed 1)", ["--person", "flat", "--seed", "1"], "keep"),
    ("an app-model person at --taste-contrast 3 (seed 1)",
     ["--person", "app-model", "--taste-contrast", "3", "--seed", "1"], "change"),
]


def named_case(binary, work, name, options):
    person = Person(binary, work, "case", ["--months", "4", "--songs", "160", "--scale", "0.1"]
                    + (options or []))
    try:
        if options is None:
            run([binary, "ingest", "Datasets/sample", "--db", person.store, "-q"])
            run([binary, "analyze", "--db", person.store, "-q"])
        else:
            person.build()
        tuned, _ = person.tune()
        return tuned["recommendation"], tuned["reason"]
    finally:
        person.clean()


# ------------------------------------------------------------------------------------------
# The summary.

def share(k, n):
    lo, hi = clopper_pearson(k, n)
    return f"{k}/{n} ({k / n:.2f}; {lo:.2f}–{hi:.2f})" if n else "–"


def covered(row, name):
    lower, upper, truth = row.get(f"{name}_lower"), row.get(f"{name}_upper"), row.get(f"{name}_truth")
    if lower is None or upper is None or truth is None or any(map(math.isnan, (lower, upper))):
        return None
    # No month chose anything: the gain is 0 by construction, with no interval to judge.
    if upper <= lower:
        return None
    return lower <= truth <= upper


def slope(pairs):
    """Least squares slope of estimate on truth, its 95% interval, and a bootstrap one."""
    n = len(pairs)
    if n < 3:
        return None
    mx = sum(t for t, _ in pairs) / n
    my = sum(e for _, e in pairs) / n
    sxx = sum((t - mx) ** 2 for t, _ in pairs)
    if sxx == 0:
        return None
    b = sum((t - mx) * (e - my) for t, e in pairs) / sxx
    a = my - b * mx
    s2 = sum((e - a - b * t) ** 2 for t, e in pairs) / (n - 2)
    se = math.sqrt(s2 / sxx)
    # A seeded bootstrap over the runs.
    state = 12345
    boots = []
    for _ in range(2000):
        sample = []
        for _ in range(n):
            state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
            sample.append(pairs[(state >> 33) % n])
        bx = sum(t for t, _ in sample) / n
        by = sum(e for _, e in sample) / n
        bxx = sum((t - bx) ** 2 for t, _ in sample)
        if bxx > 0:
            boots.append(sum((t - bx) * (e - by) for t, e in sample) / bxx)
    boots.sort()
    return b, b - 1.96 * se, b + 1.96 * se, boots[int(0.025 * len(boots))], boots[int(0.975 * len(boots)) - 1]


def summary(rows, seconds):
    took = f" in {seconds / 60:.1f} min" if seconds is not None else " (from runs.csv)"
    lines = [f"# validate-tuning: {len(rows)} people{took}", ""]
    lines += coverage_summary(rows)
    lines += null_summary([r for r in rows if r["group"] == "null"])
    lines += power_summary([r for r in rows if r["group"] == "power"])
    lines += loop_summary(rows)
    lines += estimator_table([r for r in rows if r["group"] in ("coverage", "null")])
    return "\n".join(lines) + "\n"


def coverage_summary(rows):
    lines = [f"## Coverage: intervals at {LEVEL:.0%} against the one-step truth", "",
             "| group / kind | people | change | held-out covers | forward covers | "
             "mean est − truth (held-out) |", "|---|---:|---:|---:|---:|---:|"]
    kinds = [("coverage", k) for k in COVERAGE_KINDS] + [("null", k) for k in
                                                       sorted(set(NULL_KINDS))]
    for group, kind in kinds + [("all", "all")]:
        mine = [r for r in rows if r["group"] in ("coverage", "null")
                and (group == "all" or (r["group"] == group and r["kind"] == kind))]
        if not mine:
            continue
        changes = sum(r["recommendation"] == "change" for r in mine)
        cells = []
        for name in ("held", "forward"):
            marks = [c for c in (covered(r, name) for r in mine) if c is not None]
            cells.append(share(sum(marks), len(marks)))
        errors = [r["held_gain"] - r["held_truth"] for r in mine if "held_truth" in r]
        bias = f"{sum(errors) / len(errors):+.4f}" if errors else "–"
        label = "all" if group == "all" else f"{group}: {kind}"
        lines.append(f"| {label} | {len(mine)} | {changes} | {cells[0]} | {cells[1]} | {bias} |")
    pairs = [(r["held_truth"], r["held_gain"]) for r in rows
             if r["group"] == "coverage" and "held_truth" in r]
    fit = slope(pairs)
    if fit:
        lines += ["", f"Slope of the estimated on the true held-out gain over {len(pairs)} "
                  f"coverage runs: {fit[0]:.2f} (least squares, 95% interval {fit[1]:.2f}–"
                  f"{fit[2]:.2f}; a bootstrap over the runs gives {fit[3]:.2f}–{fit[4]:.2f})."]
    return lines + [""]


def null_summary(rows):
    if not rows:
        return []
    single = sum(r["recommendation"] == "change" for r in rows)
    lo, hi = clopper_pearson(single, len(rows))
    ended = sum(r["rerun_false"] > 0 for r in rows)
    rlo, rhi = clopper_pearson(ended, len(rows))
    lines = ["## False changes on null histories", "",
             f"One run on the first {MONTHS} months ({LEVEL:.0%}, no ledger): {single} of "
             f"{len(rows)} said change (Clopper–Pearson 95%: {lo:.3f}–{hi:.3f}).", "",
             f"Monthly reruns (95% with the ledger, `--to` the end of month {RERUN_FIRST} to "
             f"{NULL_MONTHS}, {RERUN_POINTS}-point design): {ended} of {len(rows)} histories "
             f"ended in a false change (Clopper–Pearson 95%: {rlo:.3f}–{rhi:.3f}); "
             f"{sum(r['rerun_changes'] for r in rows)} of {sum(r['reruns'] for r in rows)} runs "
             f"said change, {sum(r['rerun_false'] for r in rows)} of them false; levels tested "
             f"from {min(r['first_level'] for r in rows):.4f} on the first run to "
             f"{max(r['last_level'] for r in rows):.4f} on the last.", "",
             "| kind | histories | single-run changes | histories with a false rerun change | "
             "reruns saying change | residual gain of the best point (median, max) |",
             "|---|---:|---:|---:|---:|---:|"]
    for kind in sorted(set(r["kind"] for r in rows)):
        mine = [r for r in rows if r["kind"] == kind]
        residual = [r["residual_gain"] for r in mine if "residual_gain" in r]
        res = f"{statistics.median(residual):+.4f}, {max(residual):+.4f}" if residual else "–"
        lines.append(f"| {kind} | {len(mine)} | {sum(r['recommendation'] == 'change' for r in mine)}"
                     f" | {sum(r['rerun_false'] > 0 for r in mine)} | "
                     f"{sum(r['rerun_changes'] for r in mine)}/{sum(r['reruns'] for r in mine)} | "
                     f"{res} |")
    return lines + [""]


def power_summary(rows):
    if not rows:
        return []
    eligible = [r for r in rows if r["best_gain"] >= POWER_THRESHOLD]
    changed = [r for r in eligible if r["recommendation"] == "change"]
    lines = ["## Power on mixed people", "",
             f"{len(rows)} `mixed` people at taste contrast {POWER_CONTRAST}, tune at 95% with the "
             f"ledger; {len(eligible)} have a best design point whose one-step composite gain is at "
             f"least {POWER_THRESHOLD} (median {statistics.median(r['best_gain'] for r in rows):+.4f}"
             f" over all). `change` on {share(len(changed), len(eligible))} of them."]
    recovered = [r["loop_skip_drop"] / r["best_loop_skip_drop"] for r in changed
                 if r.get("best_loop_skip_drop", 0) > 0 and "loop_skip_drop" in r]
    if recovered:
        lines += ["", f"Closed loop, three months forward: the changed preferences recovered a "
                  f"median {statistics.median(recovered):.2f} of the best point's skip reduction "
                  f"(over {len(recovered)} changes; quartiles "
                  f"{quantile(recovered, 0.25):.2f}–{quantile(recovered, 0.75):.2f})."]
    return lines + [""]


def loop_summary(rows):
    changed = [r for r in rows if "loop_gain" in r]
    if not changed:
        return ["## Closed loop", "", "No change to run forward.", ""]
    right = sum((r["loop_gain"] > 0) == (r["claimed"] > 0) for r in changed)
    ratios = [r["loop_gain"] / r["held_truth"] for r in changed
              if r.get("held_truth", 0) > 0.002]
    lines = ["## Closed loop", "",
             f"Every change run forward three months (`synth --dj-preferences --dj-from`) against "
             f"the same months under the preferences in force: the realised composite gain has "
             f"the sign claimed in {share(right, len(changed))}; median realised gain "
             f"{statistics.median(r['loop_gain'] for r in changed):+.4f} against a median claimed "
             f"{statistics.median(r['claimed'] for r in changed):+.4f}."]
    if ratios:
        lines += ["", f"Closed-loop gain over the one-step truth of the held-out month, per "
                  f"change: median {statistics.median(ratios):.2f} (quartiles "
                  f"{quantile(ratios, 0.25):.2f}–{quantile(ratios, 0.75):.2f}, {len(ratios)} "
                  f"changes)."]
    return lines + [""]


def quantile(values, q):
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def estimator_table(rows):
    """Bias, standard deviation and root MSE (all ×100) of every estimator's gain of the fixed
    target against its one-step truth, per kind and over all, and the estimator of least MSE."""
    lines = ["## Every estimator on one fixed target per person", "",
             "The gain over the first four months; ×100: bias / sd / root MSE.", "",
             "| kind | people | " + " | ".join(ESTIMATORS) + " |",
             "|---|---:|" + "---:|" * len(ESTIMATORS)]
    best = None
    kinds = COVERAGE_KINDS + sorted(set(NULL_KINDS))
    for kind in kinds + ["all"]:
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
        lines += ["", f"Least MSE over every person: {best[0]} (root MSE {100 * best[1]:.3f} ×10⁻²)."]
    return lines + [""]


FIELDS = ["group", "seed", "kind", "recommendation", "clears_margin", "clears_zero",
          "held_gain", "held_lower", "held_upper", "held_truth", "forward_gain", "forward_lower",
          "forward_upper", "forward_truth", "claimed", "loop_gain", "loop_skip_drop",
          "best_gain", "best_loop_gain", "best_loop_skip_drop", "pilot_best_gain",
          "residual_gain", "reruns", "rerun_changes", "rerun_false",
          "rerun_first_change", "first_level", "last_level", "target_truth"] + \
    [f"est_{e}" for e in ESTIMATORS]
TEXT = {"group", "kind", "recommendation", "clears_margin", "clears_zero", "rerun_first_change"}
INTEGER = {"seed", "reruns", "rerun_changes", "rerun_false"}


def parse(row):
    """A runs.csv row back as the groups made it: numbers as numbers, empty cells left out."""
    parsed = {}
    for key, value in row.items():
        if value == "" and key != "rerun_first_change":
            continue
        parsed[key] = value if key in TEXT else int(value) if key in INTEGER else float(value)
    return parsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=".build/release/resonance")
    parser.add_argument("--work", default=".bench/validate-tuning")
    parser.add_argument("--per-kind", type=int, default=15,
                        help="coverage people of each non-null kind")
    parser.add_argument("--nulls", type=int, default=60, help="null histories, with reruns")
    parser.add_argument("--power", type=int, default=30, help="mixed people at contrast 3")
    parser.add_argument("--jobs", type=int, default=2, help="people simulated at once")
    parser.add_argument("--no-cases", action="store_true", help="skip the four named cases")
    parser.add_argument("--resume", action="store_true",
                        help="keep WORK/runs.csv's people and run only the missing ones")
    parser.add_argument("--summarize", action="store_true",
                        help="only summarise WORK/runs.csv, as far as a run got")
    args = parser.parse_args()
    binary = os.path.abspath(args.bin)
    os.makedirs(args.work, exist_ok=True)
    work = os.path.abspath(args.work)
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

    jobs = []
    seeds = iter(COVERAGE_SEEDS)
    for _ in range(args.per_kind):
        for kind in COVERAGE_KINDS:
            jobs.append(("coverage", next(seeds), kind))
    seeds = iter(NULL_SEEDS)
    for i in range(args.nulls):
        jobs.append(("null", next(seeds), NULL_KINDS[i % len(NULL_KINDS)]))
    seeds = iter(POWER_SEEDS)
    for _ in range(args.power):
        jobs.append(("power", next(seeds), "mixed"))

    rows, done = [], set()
    if args.resume and os.path.exists(f"{work}/runs.csv"):
        rows = [parse(row) for row in csv.DictReader(open(f"{work}/runs.csv"))]
        done = {(r["group"], r["seed"]) for r in rows}
    todo = [j for j in jobs if (j[0], j[1]) not in done]
    lock = threading.Lock()

    def one(job):
        group, seed, kind = job
        if group == "coverage":
            return coverage_person(binary, work, seed, kind)
        if group == "null":
            return null_person(binary, work, seed, kind)
        return power_person(binary, work, seed)

    # Each person's row is written as it ends, so a run stopped early can be summarised
    # (--summarize) or finished (--resume).
    with open(f"{work}/runs.csv", "a" if done else "w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=FIELDS)
        if not done:
            writer.writeheader()
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            futures = {pool.submit(one, job): job for job in todo}
            for future in concurrent.futures.as_completed(futures):
                group, seed, kind = futures[future]
                row = future.result()
                with lock:
                    rows.append(row)
                    writer.writerow(row)
                    out.flush()
                print(f"validate-tuning: {len(rows)}/{len(jobs)}: {group} {kind} seed {seed}: "
                      f"{row['recommendation']} ({(time.time() - started) / 60:.1f} min)",
                      file=sys.stderr, flush=True)
    rows.sort(key=lambda r: (r["group"], r["kind"], r["seed"]))
    text = summary(rows, time.time() - started)
    text += ("\n## Named cases\n\nTune as a person runs it: 95% with the store's error ledger, a "
             "first run through four months testing at 97.14%.\n\n" + "\n".join(cases) + "\n")
    with open(f"{work}/summary.md", "w") as out:
        out.write(text)
    print(text, end="")


if __name__ == "__main__":
    main()
