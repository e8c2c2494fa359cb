#!/usr/bin/env python3
"""Judge `resonance tune` on people from an independent generator (standard library only).

`resonance tune` has been validated on people simulated by its own generator (`resonance
synth`). This harness asks the same questions of people from `scripts/independent_person.py`,
whose person model was written without reading synth's: for each of `--persons` people (seeds
from PERSON_SEEDS, declared below before any run; kinds `taste`, `novelty`, `flat` in turn) it

1. generates four months of the app's decision log (version 2) with the exact one-step truth
   beside it (`independent_person.py`: each admitted candidate's keep probability);
2. runs `resonance ingest DIR/resonance --db STORE -q`, `resonance analyze --db STORE -q` and
   `resonance tune --db STORE --reward keep --level 0.9 --no-ledger --json --out PREFS -q`;
3. computes the one-step truth of what tune's intervals estimate. For preferences P on a month's
   logged decisions the value is the mean over decisions of Σ_a π_P(a | x) · E[keep | a, x], π_P
   the app's softmax at the log's temperature (0.05) over final scores rebuilt from the logged
   components as docs/tuning.md section 2 says: base = Σ w·c with the familiarity weight times
   the adjuster's logged boost and the two penalties subtracted, final = 0.7·base + 0.3·
   smoothness (from the logged `previous`) when there is a song before, else base. Under the
   logged preferences this must give the logged propensities; it is asserted to 1e-12 (and the
   logged scores to 1e-12) on every decision before anything is judged;
4. judges: does the held-out interval (`held_out`: the candidate on the last month) cover the
   candidate's true gain over the preferences in force on that month? Does the forward
   interval (`forward_gain`) cover the decision-weighted true gain of each fold's chosen weights
   on its month (a fold with `weights: null` gains 0)? A `change` is false when the written
   candidate's true held-out gain is not above 0 (every change of a `flat` person is false:
   there, every policy's true gain is exactly 0). Beside coverage it gives each interval's
   **noise floor**: tune's DR gain is (1/n)Σ_d [direct-method terms + (w_d − 1)(r_d − q̂)], and
   the keep draw's own noise, (w_d − 1)(r_d − k(a_d)), is a martingale difference no reward
   model removes, so the estimate's sd is at least √(Σ_d Σ_a π₀(a)(w(a) − 1)² k(a)(1 − k(a)))/n
   (w = π/π₀, k the true keep probability). An interval whose half-width is below z_{level}
   times that is narrower than even a perfect reward model would justify.

It prints a Markdown table per kind and writes it to WORK/summary.md (WORK defaults to
`.bench/validate-tuning-independent`), with one CSV row per person in WORK/runs.csv, and the
wall time. Each person's files and store are removed once judged unless `--keep`.

Usage:

    scripts/validate-tuning-independent.py [--persons N] [--first I] [--kinds K,…]
                                           [--bin PATH] [--work DIR] [--keep]

`--bin` defaults to `.build/release/resonance`; `--first` starts at a later index of PERSON_SEEDS
(a further batch of people, disjoint from the first `--persons`); `--kinds` takes only the
kinds given, in turn.
"""

import argparse
import csv
import datetime
import glob
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import independent_person as person_model  # noqa: E402

# Seeds, declared before any run; person i is seed PERSON_SEEDS[i] of kind KINDS[i % 3] (with
# `--kinds`, of the kinds given, in turn; `--first` skips to a later index). Development drew
# 70001-70060 (docs/validation.md lists them); the harness never does.
PERSON_SEEDS = range(71_001, 72_001)
KINDS = ["taste", "novelty", "flat"]
MONTHS = 4
LEVEL = 0.9
PROPENSITY_TOLERANCE = 1e-12
# The two-sided normal quantile at LEVEL, for the noise floor's half-width.
Z = statistics.NormalDist().inv_cdf(0.5 + LEVEL / 2)
WEIGHT_KEYS = ["bpm", "energy", "familiarity", "historical", "context", "recency", "time_of_day"]
PREFERENCE_KEYS = ["bpmWeight", "energyWeight", "familiarityWeight", "historicalWeight",
                   "contextWeight", "recencyPenaltyWeight", "timeOfDayPenaltyWeight"]


def run(args):
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} exited {done.returncode}: {done.stderr}")
    return done


# ---------------------------------------------------------------------------------------------
# The target policy on the logged decisions (docs/tuning.md, section 2), written out here
# rather than taken from the generator so that the check below tests one against the other.

def base_score(c, w):
    return (w[0] * c[0] + w[1] * c[1] + w[2] * c[2] + w[3] * c[3] + w[4] * c[4]
            - w[5] * c[5] - w[6] * c[6])


def smoothness(previous, candidate):
    tempo = max(0.0, 1 - abs(candidate["bpm"] - previous["bpm"]) / 40.0)
    energy = 1 - min(1.0, abs(candidate["energy"] - previous["energy"]))
    return (tempo + energy) / 2


def softmax(scores, temperature):
    best = 0
    for i in range(len(scores)):
        if scores[i] > scores[best]:
            best = i
    top = scores[best]
    weights = [math.exp((s - top) / temperature) for s in scores]
    total = 0.0
    for x in weights:
        total += x
    return [x / total for x in weights]


class Decision:
    __slots__ = ("number", "month", "components", "smooth", "blends", "boost", "keep")

    def final_scores(self, w):
        w = list(w)
        w[2] *= self.boost
        if self.blends:
            return [0.7 * base_score(c, w) + (1 - 0.7) * s
                    for c, s in zip(self.components, self.smooth)]
        return [base_score(c, w) for c in self.components]

    def value(self, w, temperature):
        p = softmax(self.final_scores(w), temperature)
        return sum(a * b for a, b in zip(p, self.keep))

    def noise_floor(self, w, w0, temperature):
        """E over the logging policy of (π_w/π_0 − 1)² · k(1 − k): this decision's share of
        the variance of any doubly robust gain estimate that no reward model can remove (the
        keep draw's own noise, weighted)."""
        p = softmax(self.final_scores(w), temperature)
        p0 = softmax(self.final_scores(w0), temperature)
        return sum(b * (a / b - 1) ** 2 * k * (1 - k) for a, b, k in zip(p, p0, self.keep))


def load(folder):
    """The logged decisions with their truth; checks the logging propensities on the way."""
    _, truth = person_model.read_truth(os.path.join(folder, "independent-truth.jsonl.gz"))
    decisions = []
    largest = 0.0
    preferences = temperature = None
    for path in sorted(glob.glob(os.path.join(folder, "resonance", "decisions", "*.jsonl"))):
        with open(path) as f:
            header = json.loads(f.readline())
            preferences = header["preferences"]
            temperature = preferences["policy"]["temperature"]
            in_force = [float(preferences[k]) for k in PREFERENCE_KEYS]
            for line in f:
                row = json.loads(line)
                d = Decision()
                d.number = row["decision"]
                d.month = local_month(row["t"], row["offset"])
                if d.month != os.path.basename(path)[10:17]:
                    raise AssertionError(f"decision {d.number} is not in its month's file")
                d.components = [c["c"] for c in row["candidates"]]
                previous = row["previous"]
                d.blends = previous is not None
                d.smooth = [smoothness(previous, c) if d.blends else 0.0
                            for c in row["candidates"]]
                d.boost = row["adjuster"]["familiarity_boost"]
                songs, keep = truth[d.number]
                if songs != [c["song"] for c in row["candidates"]]:
                    raise AssertionError(f"decision {d.number}: truth and log list other songs")
                d.keep = keep
                scores = d.final_scores(in_force)
                p = softmax(scores, temperature)
                for c, s, q in zip(row["candidates"], scores, p):
                    largest = max(largest, abs(q - c["p"]), abs(s - c["score"]))
                if largest > PROPENSITY_TOLERANCE:
                    raise AssertionError(
                        f"decision {d.number}: recomputed logging scores or propensities differ "
                        f"from the log by {largest}")
                decisions.append(d)
    return decisions, preferences, temperature, largest


def local_month(t, offset):
    """The local calendar month (`YYYY-MM`) of an ISO UTC instant in its UTC offset."""
    instant = datetime.datetime.strptime(t, "%Y-%m-%dT%H:%M:%S.%fZ")
    return (instant + datetime.timedelta(seconds=offset)).strftime("%Y-%m")


def month_value(decisions, month, weights, temperature):
    rows = [d for d in decisions if d.month == month]
    return sum(d.value(weights, temperature) for d in rows) / len(rows), len(rows)


def month_floor(decisions, month, weights, in_force, temperature):
    """Σ over the month's decisions of their noise floor (see `Decision.noise_floor`)."""
    return sum(d.noise_floor(weights, in_force, temperature)
               for d in decisions if d.month == month)


def vector(weights):
    return [float(weights[k]) for k in WEIGHT_KEYS]


# ---------------------------------------------------------------------------------------------

def judge(binary, work, index, keep_files, kinds=KINDS):
    seed = PERSON_SEEDS[index]
    kind = kinds[index % len(kinds)]
    name = f"{kind}-{seed}"
    folder = os.path.join(work, name)
    store = folder + ".sqlite"
    prefs = folder + "-prefs.json"
    shutil.rmtree(folder, ignore_errors=True)
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(store + suffix):
            os.remove(store + suffix)
    started = time.time()
    stats = person_model.simulate(folder, MONTHS, seed, kind)
    run([binary, "ingest", os.path.join(folder, "resonance"), "--db", store, "-q"])
    run([binary, "analyze", "--db", store, "-q"])
    done = run([binary, "tune", "--db", store, "--reward", "keep", "--level", str(LEVEL),
                "--no-ledger", "--json", "--out", prefs, "-q"])
    tuned = json.loads(done.stdout)
    with open(folder + "-tune.json", "w") as f:
        f.write(done.stdout)
    replay = tuned["replay"]
    if replay["first_mismatch"] is not None or replay["replayed"] != stats["decisions"]:
        raise AssertionError(f"{name}: the log did not replay: {replay}")

    decisions, preferences, temperature, largest = load(folder)
    in_force = vector(tuned["in_force"])
    if in_force != [float(preferences[k]) for k in PREFERENCE_KEYS]:
        raise AssertionError(f"{name}: tune's preferences in force are not the log's")
    row = {"person": name, "kind": kind, "seed": seed, "decisions": len(decisions),
           "skip_share": stats["skipped"] / stats["decisions"],
           "recommendation": tuned["recommendation"], "largest_p_difference": largest,
           "replay_score_difference": replay["largest_score_difference"],
           "reason": tuned["reason"]}

    held = tuned["held_out"]
    if held is not None and tuned["candidate"] is not None:
        month = held["month"]
        base, n = month_value(decisions, month, in_force, temperature)
        cand, _ = month_value(decisions, month, vector(tuned["candidate"]), temperature)
        if n != held["decisions"]:
            raise AssertionError(f"{name}: {n} decisions in {month}, tune used {held['decisions']}")
        floor = Z * math.sqrt(month_floor(decisions, month, vector(tuned["candidate"]),
                                          in_force, temperature)) / n
        row.update(held_month=month, held_gain=held["gain"], held_lower=held["lower"],
                   held_upper=held["upper"], held_truth=cand - base,
                   held_ess=held["effective_sample_size"],
                   held_covered=held["lower"] <= cand - base <= held["upper"],
                   held_half_width=(held["upper"] - held["lower"]) / 2,
                   held_floor_half_width=floor,
                   held_below_floor=(held["upper"] - held["lower"]) / 2 < floor)

    forward = tuned["forward_gain"]
    if forward is not None:
        total, count, variance = 0.0, 0, 0.0
        for fold in tuned["folds"]:
            base, n = month_value(decisions, fold["month"], in_force, temperature)
            if n != fold["decisions"]:
                raise AssertionError(
                    f"{name}: {n} decisions in {fold['month']}, the fold has {fold['decisions']}")
            if fold["weights"] is not None:
                value, _ = month_value(decisions, fold["month"], vector(fold["weights"]),
                                       temperature)
                total += (value - base) * n
                variance += month_floor(decisions, fold["month"], vector(fold["weights"]),
                                        in_force, temperature)
            count += n
        truth = total / count if count else 0.0
        floor = Z * math.sqrt(variance) / count if count else 0.0
        row.update(forward_gain=forward["gain"], forward_lower=forward["lower"],
                   forward_upper=forward["upper"], forward_truth=truth,
                   forward_covered=forward["lower"] <= truth <= forward["upper"],
                   forward_half_width=(forward["upper"] - forward["lower"]) / 2,
                   forward_floor_half_width=floor,
                   forward_below_floor=(forward["upper"] - forward["lower"]) / 2 < floor,
                   folds_chosen=sum(f["weights"] is not None for f in tuned["folds"]))
    changed = tuned["recommendation"] == "change"
    row["false_change"] = changed and not (row.get("held_truth", 0.0) > 0)
    row["seconds"] = time.time() - started
    if not keep_files:
        shutil.rmtree(folder, ignore_errors=True)
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(store + suffix):
                os.remove(store + suffix)
    return row


def summarize(rows, wall):
    def mean(values):
        values = [v for v in values if v is not None]
        return f"{sum(values) / len(values):+.4f}" if values else "–"

    lines = [
        f"## `resonance tune` on independent people ({MONTHS} months, reward keep, "
        f"level {LEVEL:.0%}, no ledger)",
        "",
        "| kind | persons | changes (false) | held-out coverage | forward coverage "
        "| held-out est − truth | forward est − truth | true held-out gain | true forward gain "
        "| held-out / forward narrower than the noise floor |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for kind in KINDS + ["all"]:
        group = [r for r in rows if kind == "all" or r["kind"] == kind]
        if not group:
            continue
        held = [r for r in group if "held_truth" in r]
        fwd = [r for r in group if "forward_truth" in r]
        changes = sum(r["recommendation"] == "change" for r in group)
        false = sum(r["false_change"] for r in group)
        lines.append(
            f"| {kind} | {len(group)} | {changes} ({false}) "
            f"| {sum(r['held_covered'] for r in held)}/{len(held)} "
            f"| {sum(r['forward_covered'] for r in fwd)}/{len(fwd)} "
            f"| {mean([r['held_gain'] - r['held_truth'] for r in held])} "
            f"| {mean([r['forward_gain'] - r['forward_truth'] for r in fwd])} "
            f"| {mean([r['held_truth'] for r in held])} "
            f"| {mean([r['forward_truth'] for r in fwd])} "
            f"| {sum(r['held_below_floor'] for r in held)}/{len(held)} / "
            f"{sum(r['forward_below_floor'] for r in fwd if r['forward_half_width'] > 0)}/"
            f"{sum(r['forward_half_width'] > 0 for r in fwd)} |")
    lines += [
        "",
        "Coverage: the interval's ends bracket the exact one-step truth the generator knows "
        "(held-out: the candidate on the last month; forward: the decision-weighted gain of each "
        "fold's choice on its month, 0 where nothing was chosen). A change is false when the "
        "written candidate's true gain on the last month is not above 0; on `flat` people every "
        "policy's true gain is 0. Estimates and truths are differences in keep rate. The noise "
        "floor is the half-width a normal interval would need if the reward model were perfect: "
        "z · √(Σ_d Σ_a π₀(a)(π(a)/π₀(a) − 1)² k(a)(1 − k(a))) / n, the keep draws' own noise "
        "through the importance weights, which no reward model removes; an interval narrower "
        "than it is too narrow for a doubly robust estimate (forward intervals of [0, 0], where "
        "no month had a choice, are left out of that count).",
        "",
        f"Wall time: {wall:.0f} s for {len(rows)} persons "
        f"({wall / max(1, len(rows)):.1f} s each).",
    ]
    return "\n".join(lines) + "\n"


def interval(row, part):
    """`held-out +0.0300 [+0.0100, +0.0500] truth +0.0250`, or `held-out –` without one."""
    label = "held-out" if part == "held" else part
    if f"{part}_truth" not in row:
        return f"{label} –"
    return (f"{label} {row[part + '_gain']:+.4f} [{row[part + '_lower']:+.4f}, "
            f"{row[part + '_upper']:+.4f}] truth {row[part + '_truth']:+.4f}")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--persons", type=int, default=20)
    parser.add_argument("--bin", default=os.path.join(root, ".build", "release", "resonance"))
    parser.add_argument("--work", default=os.path.join(root, ".bench",
                                                       "validate-tuning-independent"))
    parser.add_argument("--first", type=int, default=0,
                        help="start at this index of PERSON_SEEDS (default 0)")
    parser.add_argument("--kinds", default=",".join(KINDS),
                        help="comma-separated kinds to take in turn (default: all three)")
    parser.add_argument("--keep", action="store_true", help="keep each person's files and store")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    started = time.time()
    rows = []
    kinds = args.kinds.split(",")
    for kind in kinds:
        if kind not in KINDS:
            parser.error(f"unknown kind {kind}; the kinds are {', '.join(KINDS)}")
    for i in range(args.first, args.first + args.persons):
        row = judge(args.bin, args.work, i, args.keep, kinds)
        rows.append(row)
        print(f"{row['person']}: {row['recommendation']:6} {interval(row, 'held')}; "
              f"{interval(row, 'forward')} ({row['seconds']:.1f} s)", flush=True)
    wall = time.time() - started
    fields = []
    for r in rows:
        fields += [k for k in r if k not in fields]
    with open(os.path.join(args.work, "runs.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    summary = summarize(rows, wall)
    with open(os.path.join(args.work, "summary.md"), "w") as f:
        f.write(summary)
    print()
    print(summary, end="")
    print(f"wall time {wall:.1f} s")


if __name__ == "__main__":
    main()
