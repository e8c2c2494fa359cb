#!/usr/bin/env python3
"""Whether `resonance experiment`'s answers can be trusted, on simulated people.

A benchmark-like harness (`make validate-experiments`), not a test. Every person is simulated
by `resonance synth` from a seed in a range declared below before any run: four months of
history, ingested; `resonance experiment plan` on it; then the same life carried on with the
DJ running the plan (`synth --dj-preferences PLAN`), ingested into the same store (only the new
days are added), and `resonance experiment analyze` as a person would run it. Two groups, each
answering one question of docs/experiments.md ("Validation"):

- **null** (`--nulls` people, half `null` — the app's preferences are the person's best — and
  half `flat` — skips do not depend on the song): the candidate leans on context, as no
  person's taste does, so its true gain is at most 0. The plan is for a +0.05 gain within 112
  days, and `analyze` is run after every day of it: a person who adopts on any day adopted
  falsely. The goal: at most 6 adopt in 60.
- **power** (`--power` `mixed` people at taste contrast 2): `tune` as a person runs it; where it
  says `keep`, the best design point (`validate --best-point`) is run forward for three months
  against the preferences in force (the closed-loop gain in keep rate, truth.json's
  `dj_months`). A person whose best point gains at least +0.02 in keep rate that way is the
  experiment's case: the plan puts that point against the preferences in force for the
  smallest worthwhile gain, +0.02, within `--max-days`; the share of plans that fit is
  reported, and each plan is carried out (to `--max-days` when it does not fit) with `analyze`
  at the end of every whole cycle. The goal: `adopt` within the plan on at least 80% of the
  people whose plan fits (`--max-days 3500` lets plans run as long as they need). Beside it,
  the best point's closed-loop gain over the plan's own months (what the experiment
  estimates, which for a person whose taste drifts is not the three months' gain), and each
  person's floor: the days any design randomising their history's decisions would need for
  +0.02, were every decision an independent coin.
- **evening** (`--evening` `mixed` people with `synth --evening-asleep 15`: a night after ten
  minutes of music in the hour before bed gains 15 minutes asleep): `analyze` on the history,
  then `experiment plan --question evening-music` within `--max-days`, carried out by the
  simulated DJ (which models the music played by hand on no-music evenings) and analysed at the
  end of every whole cycle. The goal: the music effect's confidence sequence (calm evenings
  against no-music ones, per evening with music) covers the planted +15 minutes at the plan's
  end on at least 90% of the people; how often it covers at every look is reported beside it.

Usage:

    scripts/validate-experiments.py [--bin PATH] [--work DIR] [--nulls N] [--power N]
                                    [--evening N] [--max-days N] [--jobs N] [--summarize]

It prints a Markdown summary and writes it, with one CSV row per person, into WORK.
"""

import argparse
import concurrent.futures
import csv
import datetime
import json
import math
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time

from binomial import clopper_pearson

# Seeds, declared before any run (docs/experiments.md lists them), disjoint from every range
# validate-tuning.py draws.
NULL_SEEDS = range(70_001, 71_001)
POWER_SEEDS = range(71_001, 72_001)
EVENING_SEEDS = range(72_001, 73_001)

MONTHS = 4
START = "2022-10-01"  # the day after four months from 2022-06-01
PERSON = ["--songs", "120", "--scale", "0.05"]
POWER_CONTRAST = 2
FORWARD_MONTHS = 3
NULL_MARGIN, NULL_DAYS = 0.05, 112
POWER_GAIN = 0.02
ADOPT_GOAL, NULL_GOAL = 0.8, 6 / 60
EVENING_MINUTES, COVER_GOAL = 15, 0.9
WEIGHT_NAMES = {
    "bpm": "bpmWeight", "energy": "energyWeight", "familiarity": "familiarityWeight",
    "historical": "historicalWeight", "context": "contextWeight",
    "recency": "recencyPenaltyWeight", "time_of_day": "timeOfDayPenaltyWeight",
}
# The null and flat people's candidate: context first, as no kind's taste is.
CONTEXT_LEANING = {"bpm": 0.05, "energy": 0.05, "familiarity": 0.10, "historical": 0.10,
                   "context": 0.70, "recency": 0.30, "time_of_day": 0.20}
TEMPLATE = "Datasets/sample-experiment/candidate.json"

FIELDS = ["group", "seed", "kind", "recommendation", "best_loop_keep_gain", "qualifies",
          "plan_days", "days_needed", "fits", "detectable_gain", "days_analysed", "adopted",
          "adopt_day", "final_decision", "final_estimate", "final_lower", "final_upper",
          "followed_days", "days_with_decisions", "music_estimate", "music_lower",
          "music_upper", "covers_final", "covers_always", "calm_music", "none_music",
          "usual_music", "evenings", "true_gain", "decisions_per_day", "history_keep_rate", "floor_days",
          "plan_loop_keep_gain", "drifts"]


def run(args, allowed=(0,)):
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode not in allowed:
        raise RuntimeError(f"{' '.join(args)} exited {done.returncode}: {done.stderr}")
    return done


def day(offset):
    """`START` plus `offset` days, `YYYY-MM-DD`."""
    return (datetime.date.fromisoformat(START) + datetime.timedelta(days=offset)).isoformat()


def months_through(days):
    """The calendar months `synth --months` needs to reach `days` days from `START`."""
    start = datetime.date.fromisoformat(START)
    end = start + datetime.timedelta(days=days - 1)
    return MONTHS + (end.year - start.year) * 12 + end.month - start.month + 1


def preference_file(weights, path, template):
    """A preference file with `weights` on `template`'s other settings."""
    file = json.loads(json.dumps(template))
    for key, name in WEIGHT_NAMES.items():
        file["preferences"][name] = weights[key]
    with open(path, "w") as out:
        json.dump(file, out)
    return path


def plan_fields(planned):
    """A row's fields from `experiment plan --json`: its length and power, nothing adopted yet."""
    power = planned["power"]
    return {"plan_days": planned["days"], "days_needed": power["days_needed"],
            "fits": power["fits"], "detectable_gain": power["detectable_gain"],
            "adopted": False}


class Person:
    """One simulated person's folders and store under WORK, removed when done."""

    def __init__(self, binary, work, name, synth_args):
        self.binary, self.synth_args = binary, synth_args
        self.folder = f"{work}/{name}"
        self.store = self.folder + ".sqlite"
        self.clean()
        os.makedirs(self.folder + "-files")

    def file(self, name):
        return f"{self.folder}-files/{name}"

    def clean(self):
        for suffix in ("", "-files", "-forward", "-experiment"):
            shutil.rmtree(self.folder + suffix, ignore_errors=True)
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(self.store + suffix):
                os.remove(self.store + suffix)

    def synth(self, folder, months, extra=()):
        run([self.binary, "synth", "--out", folder, "-q", "--months", str(months)]
            + self.synth_args + list(extra))

    def build(self, analyze):
        self.synth(self.folder, MONTHS)
        run([self.binary, "ingest", self.folder, "--db", self.store, "-q"])
        if analyze:
            run([self.binary, "analyze", "--db", self.store, "-q"])

    def keep_rate(self, prefs, months=MONTHS + FORWARD_MONTHS):
        """The closed-loop keep rate from the history's end to the end of the `months`-th
        month (FORWARD_MONTHS months by default), the DJ running `prefs` from then on (None:
        the preferences in force)."""
        folder = self.folder + "-forward"
        shutil.rmtree(folder, ignore_errors=True)
        extra = ["--dj-preferences", prefs, "--dj-from", START] if prefs else []
        self.synth(folder, months, extra)
        truth = json.load(open(f"{folder}/truth.json"))
        shutil.rmtree(folder, ignore_errors=True)
        rows = [m for m in truth["dj_months"] if m["month"] >= START[:7]]
        n = sum(m["decisions"] for m in rows)
        return sum(m["decisions"] * (1 - m["skip"]) for m in rows) / n

    def carry_out(self, plan_args, max_days, seed):
        """Plans an experiment from START, has the DJ carry it out and ingests its days;
        returns the plan's path, `plan --json` and the carried-out run's truth.json."""
        plan_path = self.file("plan.json")
        planned = json.loads(run([
            self.binary, "experiment", "plan", "--db", self.store, "--max-days", str(max_days),
            "--start", START, "--seed", str(seed), "--out", plan_path, "--json", "-q"]
            + plan_args).stdout)
        folder = self.folder + "-experiment"
        self.synth(folder, months_through(planned["days"]),
                   ["--dj-preferences", plan_path])
        truth = json.load(open(f"{folder}/truth.json"))
        run([self.binary, "ingest", folder, "--db", self.store, "-q"])
        shutil.rmtree(folder, ignore_errors=True)
        return plan_path, planned, truth

    def experiment(self, candidate, margin, max_days, seed, analyse_days):
        """Plans, carries out and analyses an experiment; `analyse_days(plan)` gives the
        plan's day offsets after which `analyze` runs."""
        plan_path, planned, _ = self.carry_out(
            ["--candidate", candidate, "--margin", str(margin)], max_days, seed)
        row = plan_fields(planned)
        analysed = 0
        for offset in analyse_days(planned):
            result = json.loads(run([
                self.binary, "experiment", "analyze", "--db", self.store, "--plan", plan_path,
                "--as-of", day(offset), "--json", "-q"]).stdout)
            analysed += 1
            if result["decision"] == "adopt" and not row["adopted"]:
                row.update(adopted=True, adopt_day=offset + 1)
        contrast = result["contrast"] or {}
        row.update(days_analysed=analysed, final_decision=result["decision"],
                   final_estimate=contrast.get("estimate"), final_lower=contrast.get("lower"),
                   final_upper=contrast.get("upper"),
                   followed_days=result["compliance"]["followed_days"],
                   days_with_decisions=result["compliance"]["days_with_decisions"])
        return row


def decision_floor(store, gain):
    """The history's DJ decisions a day (with an outcome, over the days from its first to its
    last) and their keep rate, and the fewest days any design randomising them could show
    `gain` in: were every decision an independent coin and no day unlike another, a fixed
    two-sided 5% test with 90% power needs (1.96 + 1.28)² · 2p(1 − p) / gain² decisions per
    arm (docs/experiments.md, "Why no plan for +0.02 fits")."""
    with sqlite3.connect(store) as db:
        n, kept, first, last = db.execute(
            "SELECT count(*), sum(1 - skipped), min(time_ms + offset_s * 1000),"
            " max(time_ms + offset_s * 1000) FROM dj_decisions WHERE skipped IS NOT NULL"
        ).fetchone()
    days = last // 86_400_000 - first // 86_400_000 + 1
    per_day, p = n / days, kept / n
    per_arm = (1.959964 + 1.281552) ** 2 * 2 * p * (1 - p) / gain ** 2
    return {"decisions_per_day": per_day, "history_keep_rate": p,
            "floor_days": math.ceil(2 * per_arm / per_day)}


def null_person(binary, work, seed, kind, template):
    person = Person(binary, work, f"null-{seed}",
                    ["--seed", str(seed), "--person", kind] + PERSON)
    try:
        person.build(analyze=False)
        candidate = preference_file(CONTEXT_LEANING, person.file("candidate.json"), template)
        row = {"group": "null", "seed": seed, "kind": kind}
        # Analysed after every day of the plan, as a person looking daily would.
        row.update(person.experiment(candidate, NULL_MARGIN, NULL_DAYS, seed,
                                     lambda plan: range(plan["days"])))
        return row
    finally:
        person.clean()


def power_person(binary, work, seed, max_days):
    person = Person(binary, work, f"power-{seed}",
                    ["--seed", str(seed), "--person", "mixed", "--taste-contrast",
                     str(POWER_CONTRAST)] + PERSON)
    try:
        person.build(analyze=True)
        prefs = person.file("tuned.json")
        tuned = json.loads(run([binary, "tune", "--db", person.store, "--out", prefs, "--json",
                                "-q"]).stdout)
        row = {"group": "power", "seed": seed, "kind": f"mixed×{POWER_CONTRAST}",
               "recommendation": tuned["recommendation"], "qualifies": False}
        if tuned["recommendation"] != "keep":
            return row
        # validate exits 1 when a goal of its own is missed; its figures are what is read.
        best = json.loads(run([binary, "validate", "--truth", f"{person.folder}/truth.json",
                               "--db", person.store, "--preferences", prefs, "--best-point",
                               "--json", "-q"], allowed=(0, 1)).stdout)["tuning"]["best_point"]
        best_path = preference_file(best["weights"], person.file("best.json"),
                                    json.load(open(prefs)))
        gain = person.keep_rate(best_path) - person.keep_rate(None)
        row.update(best_loop_keep_gain=gain, qualifies=gain >= POWER_GAIN)
        if gain < POWER_GAIN:
            return row
        row.update(decision_floor(person.store, POWER_GAIN))
        # Analysed at the end of every whole cycle: the sequence moves a cycle at a time.
        row.update(person.experiment(
            best_path, POWER_GAIN, max_days, seed,
            lambda plan: range(plan["cycle_days"] - 1, plan["days"], plan["cycle_days"])))
        # What the experiment estimates: the gain over its own months, which for a person
        # whose taste drifts is not the gain of the three months after the history.
        months = months_through(row["plan_days"])
        row["plan_loop_keep_gain"] = (person.keep_rate(best_path, months)
                                      - person.keep_rate(None, months))
        drift = json.load(open(f"{person.folder}/truth.json"))["person"]["traits"]["drift_per_month"]
        row["drifts"] = any(v != 0 for v in drift.values())
        return row
    finally:
        person.clean()


def evening_person(binary, work, seed, max_days):
    person = Person(binary, work, f"evening-{seed}",
                    ["--seed", str(seed), "--person", "mixed", "--evening-asleep",
                     str(EVENING_MINUTES)] + PERSON)
    try:
        person.build(analyze=True)
        plan_path, planned, truth = person.carry_out(
            ["--question", "evening-music"], max_days, seed)
        days = planned["days"]
        gains = [n["asleep_gain_min"] for n in truth["nights"]
                 if n.get("evening_music") and n["bed"][:10] >= START]
        row = {"group": "evening", "seed": seed, "kind": "mixed", **plan_fields(planned),
               "covers_always": True, "true_gain": sum(gains) / len(gains) if gains else None}
        cycle = planned["cycle_days"]
        for offset in range(cycle - 1, days, cycle):
            result = json.loads(run([
                binary, "experiment", "analyze", "--db", person.store, "--plan", plan_path,
                "--as-of", day(offset), "--json", "-q"]).stdout)
            effect = result["evenings"]["music_effect"]
            if effect["estimate"] is None:
                continue
            lower = effect["lower"] if effect["lower"] is not None else -math.inf
            upper = effect["upper"] if effect["upper"] is not None else math.inf
            covers = lower <= EVENING_MINUTES <= upper
            row["covers_always"] = row["covers_always"] and covers
            if result["decision"] == "adopt" and not row["adopted"]:
                row.update(adopted=True, adopt_day=offset + 1)
        arms = {a["arm"]: a for a in result["evenings"]["arms"]}
        contrast = result["contrast"] or {}
        row.update(final_decision=result["decision"], final_estimate=contrast.get("estimate"),
                   final_lower=contrast.get("lower"), final_upper=contrast.get("upper"),
                   music_estimate=effect["estimate"], music_lower=effect["lower"],
                   music_upper=effect["upper"], covers_final=covers,
                   calm_music=arms["calm"]["with_music"], none_music=arms["none"]["with_music"],
                   usual_music=arms["usual"]["with_music"], evenings=arms["calm"]["evenings"]
                   + arms["none"]["evenings"] + arms["usual"]["evenings"])
        return row
    finally:
        person.clean()


def share(k, n):
    if n == 0:
        return "— (none)"
    low, high = clopper_pearson(k, n)
    return f"{k} of {n} ({100 * k / n:.0f}%, 95% {100 * low:.0f}–{100 * high:.0f}%)"


def summary(rows, seconds, max_days):
    text = "# validate-experiments\n\n"
    if seconds is not None:
        text += f"{len(rows)} people in {seconds / 60:.1f} min.\n\n"
    nulls = [r for r in rows if r["group"] == "null"]
    if nulls:
        adopted = [r for r in nulls if r["adopted"]]
        text += "## Null and flat people, analysed every day\n\n"
        text += (f"Adopted: {share(len(adopted), len(nulls))} — the goal at most "
                 f"{NULL_GOAL * 100:.0f}% ({'met' if len(adopted) <= NULL_GOAL * len(nulls) else 'NOT met'}).\n\n")
        for kind in ("null", "flat"):
            group = [r for r in nulls if r["kind"] == kind]
            k = sum(1 for r in group if r["adopted"])
            text += f"- `{kind}`: {share(k, len(group))}\n"
        days = sum(int(r["days_analysed"] or 0) for r in nulls)
        followed = sum(int(r["followed_days"] or 0) for r in nulls)
        with_decisions = sum(int(r["days_with_decisions"] or 0) for r in nulls)
        text += (f"\n{days:,} analyses in all; the logs show {followed:,} of {with_decisions:,} "
                 "days with decisions ran their planned arm.\n\n")
    power = [r for r in rows if r["group"] == "power"]
    if power:
        keep = [r for r in power if r["recommendation"] == "keep"]
        cases = [r for r in power if r["qualifies"]]
        fit = [r for r in cases if r["fits"]]
        text += "## People whose best point gains +0.02 or more, where tune says keep\n\n"
        text += (f"{len(power)} `mixed` people at taste contrast {POWER_CONTRAST}: tune said "
                 f"keep for {len(keep)}; the best point gained at least +{POWER_GAIN} in keep "
                 f"rate over {FORWARD_MONTHS} months in closed loop for {len(cases)}.\n\n")
        text += f"- plans that fit `--max-days`: {share(len(fit), len(cases))}\n"
        k = sum(1 for r in fit if r["adopted"])
        text += (f"- adopted within the plan, of those that fit: {share(k, len(fit))} — the goal "
                 f"at least {ADOPT_GOAL * 100:.0f}%"
                 + (f" ({'met' if fit and k >= ADOPT_GOAL * len(fit) else 'NOT met'})\n" if fit
                    else " (no plan fits: it cannot be judged)\n"))
        adopt_days = sorted(int(r["adopt_day"]) / int(r["plan_days"]) for r in fit if r["adopted"])
        if adopt_days:
            text += (f"- the day they adopted, as a share of their plan's days: median "
                     f"{adopt_days[len(adopt_days) // 2]:.2f} (from {adopt_days[0]:.2f} to "
                     f"{adopt_days[-1]:.2f})\n")
        if any(r.get("plan_loop_keep_gain") not in (None, "") for r in fit):
            held = [r for r in fit if float(r["plan_loop_keep_gain"]) >= POWER_GAIN]
            k = sum(1 for r in held if r["adopted"])
            text += (f"- … of those whose best point also gains at least +{POWER_GAIN} over the "
                     f"plan's own months in closed loop: {share(k, len(held))}\n")
            for drifts, name in ((False, "steady"), (True, "drifting")):
                group = [r for r in fit if r["drifts"] == drifts]
                k = sum(1 for r in group if r["adopted"])
                text += f"- … of those whose taste is {name}: {share(k, len(group))}\n"
        ended = [r for r in cases if r["final_estimate"] not in (None, "")]
        truths = [("the closed-loop gain of the three months after the history",
                   "best_loop_keep_gain")]
        if any(r.get("plan_loop_keep_gain") not in (None, "") for r in ended):
            truths.append(("the closed-loop gain over the plan's own months",
                           "plan_loop_keep_gain"))
        for name, key in truths if ended else ():
            misses = [float(r["final_estimate"]) - float(r[key]) for r in ended]
            mean = sum(misses) / len(misses)
            sd = math.sqrt(sum((m - mean) ** 2 for m in misses) / max(1, len(misses) - 1))
            covers = sum(1 for r in ended if r["final_lower"] not in (None, "")
                         and float(r["final_lower"]) <= float(r[key]) <= float(r["final_upper"]))
            text += (f"- the final estimate less {name}: mean {mean:+.4f} (standard error "
                     f"{sd / math.sqrt(len(misses)):.4f}); the final interval covers it for "
                     f"{share(covers, len(ended))}\n")
        rest = [r for r in cases if not r["fits"]]
        k = sum(1 for r in rest if r["adopted"])
        text += f"- adopted within `--max-days`, of those whose plan does not fit: {share(k, len(rest))}\n"
        needed = sorted(int(r["days_needed"]) for r in cases if r["days_needed"] not in (None, ""))
        if needed:
            text += (f"- days a plan needs for 90% power at +{POWER_GAIN}: median "
                     f"{needed[len(needed) // 2]:,} (from {needed[0]:,} to {needed[-1]:,})\n")
        floors = sorted(int(r["floor_days"]) for r in cases if r.get("floor_days") not in (None, ""))
        if floors:
            rates = sorted(float(r["decisions_per_day"]) for r in cases
                           if r.get("decisions_per_day") not in (None, ""))
            below = sum(1 for f in floors if f <= max_days)
            text += (f"- the floor, were every decision an independent coin and no day unlike "
                     f"another (a fixed two-sided 5% test, 90% power, +{POWER_GAIN}): median "
                     f"{floors[len(floors) // 2]:,} days (from {floors[0]:,} to {floors[-1]:,}) "
                     f"at {rates[len(rates) // 2]:.0f} decisions a day (from {rates[0]:.0f} to "
                     f"{rates[-1]:.0f}); within `--max-days`: {below} of {len(floors)}\n")
        gains = sorted(float(r["best_loop_keep_gain"]) for r in cases)
        if gains:
            text += (f"- the best points' closed-loop gains in keep rate: median "
                     f"{gains[len(gains) // 2]:+.3f} (from {gains[0]:+.3f} to {gains[-1]:+.3f})\n")
    evening = [r for r in rows if r["group"] == "evening"]
    if evening:
        covered = sum(1 for r in evening if r["covers_final"])
        always = sum(1 for r in evening if r["covers_always"])
        text += f"## Evening music, a planted +{EVENING_MINUTES} minutes asleep\n\n"
        text += (f"- the music effect's interval covers +{EVENING_MINUTES} at the plan's end: "
                 f"{share(covered, len(evening))} — the goal at least {COVER_GOAL * 100:.0f}% "
                 f"({'met' if covered >= COVER_GOAL * len(evening) else 'NOT met'})\n")
        text += f"- …at every look (each whole cycle): {share(always, len(evening))}\n"
        estimates = sorted(float(r["music_estimate"]) for r in evening if r["music_estimate"] not in (None, ""))
        bounded = [r for r in evening if r["music_lower"] not in (None, "") and r["music_upper"] not in (None, "")]
        widths = sorted(float(r["music_upper"]) - float(r["music_lower"]) for r in bounded)
        if estimates:
            mean = sum(estimates) / len(estimates)
            text += (f"- estimates: mean {mean:+.1f}, median {estimates[len(estimates) // 2]:+.1f} "
                     f"(from {estimates[0]:+.1f} to {estimates[-1]:+.1f}); bounded on "
                     f"{len(bounded)} of {len(evening)}, median width {widths[len(widths) // 2]:.0f} min\n"
                     if widths else "")
        gains = [float(r["true_gain"]) for r in evening if r["true_gain"] not in (None, "")]
        if gains:
            text += (f"- minutes asleep truth.json shows gained on nights with music: mean "
                     f"{sum(gains) / len(gains):.2f}\n")
        n = {k: sum(int(r[k] or 0) for r in evening) for k in ("calm_music", "none_music", "usual_music", "evenings")}
        text += (f"- evenings with music: calm {n['calm_music']:,}, usual {n['usual_music']:,}, "
                 f"none {n['none_music']:,} (hand-played), of {n['evenings']:,} evenings in all\n")
        adopted = sum(1 for r in evening if r["adopted"])
        text += f"- an arm adopted against usual: {share(adopted, len(evening))}\n"
        needed = sorted(int(r["days_needed"]) for r in evening if r["days_needed"] not in (None, ""))
        if needed:
            text += (f"- days a plan needs for 90% power at +{EVENING_MINUTES} min against usual: "
                     f"median {needed[len(needed) // 2]:,}\n")
    return text


def parse(row):
    for key in ("seed",):
        row[key] = int(row[key])
    for key in ("adopted", "fits", "qualifies", "covers_final", "covers_always", "drifts"):
        row[key] = row.get(key) == "True"
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=".build/release/resonance")
    parser.add_argument("--work", default=".bench/validate-experiments")
    parser.add_argument("--nulls", type=int, default=60, help="null and flat people")
    parser.add_argument("--power", type=int, default=60, help="mixed people screened")
    parser.add_argument("--evening", type=int, default=0,
                        help="people with a planted evening-music effect")
    parser.add_argument("--max-days", type=int, default=120)
    parser.add_argument("--jobs", type=int, default=2, help="people simulated at once")
    parser.add_argument("--summarize", action="store_true",
                        help="only summarise WORK/runs.csv, as far as a run got")
    args = parser.parse_args()
    binary = os.path.abspath(args.bin)
    os.makedirs(args.work, exist_ok=True)
    work = os.path.abspath(args.work)
    if args.summarize:
        rows = [parse(row) for row in csv.DictReader(open(f"{work}/runs.csv"))]
        print(summary(rows, None, args.max_days), end="")
        return
    template = json.load(open(TEMPLATE))
    started = time.time()
    jobs = [("null", seed, "null" if i % 2 == 0 else "flat")
            for i, seed in zip(range(args.nulls), NULL_SEEDS)]
    jobs += [("power", seed, "mixed") for _, seed in zip(range(args.power), POWER_SEEDS)]
    jobs += [("evening", seed, "mixed") for _, seed in zip(range(args.evening), EVENING_SEEDS)]
    rows, lock = [], threading.Lock()

    def one(job):
        group, seed, kind = job
        if group == "null":
            return null_person(binary, work, seed, kind, template)
        if group == "evening":
            return evening_person(binary, work, seed, args.max_days)
        return power_person(binary, work, seed, args.max_days)

    with open(f"{work}/runs.csv", "w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=FIELDS)
        writer.writeheader()
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            futures = {pool.submit(one, job): job for job in jobs}
            for future in concurrent.futures.as_completed(futures):
                group, seed, kind = futures[future]
                try:
                    row = future.result()
                except Exception:
                    # Stop at once rather than run every queued person before saying so.
                    pool.shutdown(wait=False, cancel_futures=True)
                    print(f"validate-experiments: {group} {kind} seed {seed} failed",
                          file=sys.stderr, flush=True)
                    raise
                with lock:
                    rows.append(row)
                    writer.writerow(row)
                    out.flush()
                print(f"validate-experiments: {len(rows)}/{len(jobs)}: {group} {kind} seed "
                      f"{seed}: {'adopt' if row.get('adopted') else row.get('final_decision') or row.get('recommendation')} "
                      f"({(time.time() - started) / 60:.1f} min)", file=sys.stderr, flush=True)
    rows.sort(key=lambda r: (r["group"], r["seed"]))
    text = summary(rows, time.time() - started, args.max_days)
    with open(f"{work}/summary.md", "w") as out:
        out.write(text)
    print(text, end="")


if __name__ == "__main__":
    main()
