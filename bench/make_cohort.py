#!/usr/bin/env python3
"""Writes N hand-off partitions directly, without the pipeline, for bench/cohort.sh.

Usage: make_cohort.py N DIR

Each DIR/person=pNNNNN/ gets songs.parquet (150 songs in the hand-off's songs schema, zstd,
as `resonance export` writes it; docs/cohort.md), effects.json with the four person-level
effects drawn from a planted population, and a complete manifest.json whose effects.json
digest is right, so that `resonance cohort pool` reads every person.
"""

import hashlib
import json
import os
import random
import sys

import pyarrow as pa
import pyarrow.parquet as pq

n, root = int(sys.argv[1]), sys.argv[2]
rng = random.Random(30)
songs = 150
schema = [("song_id", pa.int64(), False), ("title", pa.string(), False), ("artist", pa.string(), True),
          ("genre", pa.string(), True), ("plays", pa.int64(), False), ("skips", pa.int64(), False),
          ("bpm", pa.float64(), True), ("bpm_sd", pa.float64(), True), ("bpm_source", pa.string(), True),
          ("energy", pa.float64(), True), ("valence", pa.float64(), True), ("familiarity", pa.float64(), True)]
for signal in ("hr", "hrv"):
    schema += [(f"{signal}_effect", pa.float64(), True), (f"{signal}_effect_se", pa.float64(), True),
               (f"{signal}_effect_low90", pa.float64(), True), (f"{signal}_effect_high90", pa.float64(), True),
               (f"{signal}_plays", pa.int64(), True), (f"{signal}_minutes", pa.float64(), True)]
arrow_schema = pa.schema([pa.field(name, kind, nullable) for name, kind, nullable in schema])
population = {"tempo_hr_per_10bpm": (0.4, 0.3), "evening_music_asleep_min": (8, 6),
              "breathing_practice_night_sdnn_ms": (4, 2), "tuning_held_out_gain": (0.01, 0.01)}

for i in range(1, n + 1):
    person = f"p{i:05d}"
    folder = os.path.join(root, f"person={person}")
    os.makedirs(folder, exist_ok=True)
    columns = {}
    for name, kind, _ in schema:
        if kind == pa.string():
            columns[name] = [f"{name} {k}" for k in range(songs)]
        elif kind == pa.int64():
            columns[name] = [rng.randrange(1, 200) for _ in range(songs)]
        else:
            columns[name] = [rng.gauss(0, 3) for _ in range(songs)]
    pq.write_table(pa.table(columns, schema=arrow_schema), os.path.join(folder, "songs.parquet"),
                   compression="zstd", use_dictionary=False, write_statistics=False)
    effects = []
    for name, (mu, tau) in population.items():
        se = rng.uniform(0.5, 1.5) * (tau or 1) / 2
        effects.append({"name": name, "estimate": rng.gauss(mu, tau) + rng.gauss(0, se), "se": se,
                        "n": 100, "method": "generated"})
    text = json.dumps({"effects": effects, "format_version": 1, "person": person,
                       "tune_recommendation": rng.choice(["change", "keep"])}, indent=2) + "\n"
    open(os.path.join(folder, "effects.json"), "w").write(text)
    manifest = {"complete": True, "format": "resonance-hand-off", "person": person, "schema_version": 1,
                "files": [{"name": "effects.json", "rows": None, "bytes": len(text.encode()),
                           "sha256": hashlib.sha256(text.encode()).hexdigest()}]}
    json.dump(manifest, open(os.path.join(folder, "manifest.json"), "w"), indent=2)
