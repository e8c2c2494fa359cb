#!/usr/bin/env python3
"""How often songs.md's per-context intervals cover what synth planted (docs/validation.md).

For each store and its truth.json (scripts/fresh-seeds.sh makes them: OUT/sN.sqlite beside
OUT/sN/truth.json): every row of song_context_effect_estimates against the planted effect × the
context's gain, centred on the exposure-weighted mean pair as the estimates are.

usage: scripts/context_coverage.py OUT/s401 [OUT/s402 …]
"""
import json
import sqlite3
import sys

for base in sys.argv[1:]:
    truth = json.load(open(base + "/truth.json"))
    planted = {s["catalog_id"]: s for s in truth["songs"]}
    gain = truth["context_gain"]
    db = sqlite3.connect(base + ".sqlite")
    for signal, key in (("hr", "hr_effect_bpm"), ("hrv", "hrv_effect_ms")):
        rows = db.execute(
            """SELECT s.apple_catalog_id, e.context, e.minutes, e.estimate, e.low90, e.high90
               FROM song_context_effect_estimates e JOIN songs s ON s.id = e.song_id
               WHERE e.signal = ?""", (signal,)).fetchall()
        rows = [r for r in rows if r[0] in planted]
        if not rows:
            continue
        truths = [planted[r[0]][key] * gain.get(r[1], 1.0) for r in rows]
        level = sum(r[2] * t for r, t in zip(rows, truths)) / sum(r[2] for r in rows)
        covered = sum(1 for r, t in zip(rows, truths) if r[4] <= t - level <= r[5])
        calming = [(r, t - level) for r, t in zip(rows, truths) if r[5] < 0]
        right = sum(1 for r, t in calming if t < 0)
        print(f"{base} {signal}: {len(rows)} pairs, 90% intervals cover {covered / len(rows):.3f}; "
              f"{len(calming)} listed below 0, {right} of them planted below the mean")
