#!/usr/bin/env bash
# `make conformance`, the hand-off's part: two simulated persons run through the pipeline
# (synth → ingest → analyze → breathing → tune) and a third whose only file is a Spotify
# history of hostile titles, each exported as Parquet and as CSV, then every file read back by
# pyarrow and DuckDB (scripts/parquet_conformance.py). pyarrow and DuckDB come from PyPI into
# a virtual environment of the build's; the product never uses them.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --product resonance -Xswiftc -warnings-as-errors >/dev/null
BIN="$(swift build --show-bin-path)/resonance"
WORK=.build/parquet-conformance
VENV=.build/conformance-venv
rm -rf "$WORK"
mkdir -p "$WORK"

if [ ! -x "$VENV/bin/python" ]; then
  echo "creating $VENV…"
  python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c "import pyarrow, duckdb" 2>/dev/null; then
  echo "installing pyarrow and duckdb from PyPI into $VENV…"
  "$VENV/bin/pip" install --quiet pyarrow duckdb
fi

for seed in 1 2; do
  person="$WORK/p$seed"
  "$BIN" synth --out "$person" --months 2 --scale 0.1 --songs 150 --seed "$seed" -q
  "$BIN" ingest "$person" --db "$person.sqlite" -q
  "$BIN" analyze --db "$person.sqlite" -q
  "$BIN" breathing --db "$person.sqlite" -q
  "$BIN" tune --db "$person.sqlite" -q
done

# Titles that break naive writers: quotes, commas, line breaks, a leading formula, combining
# marks, emoji, a NUL escape (removed at ingest, as docs/formats.md says), an empty artist.
python3 - "$WORK/hostile.json" <<'PY'
import json, sys
titles = ['Quote "this", please', "Line\nbreak\r\nand tab\t", "=HYPERLINK(\"x\")", "e\u0301te\u0301",
          "🎧 Night 🌙", "nul\u0000byte", "   spaces   ", "'single'", "back\\slash", "Ünïcödé ß"]
entries = []
for i, title in enumerate(titles * 3):
    entries.append({"ts": f"2024-03-{11 + i // 10:02d}T{8 + i % 10:02d}:00:00Z", "ms_played": 180000 + i,
                    "master_metadata_track_name": title,
                    "master_metadata_album_artist_name": "" if i % 7 == 0 else f"Artist, \"{i % 3}\"",
                    "master_metadata_album_album_name": "Album", "spotify_track_uri": None,
                    "reason_start": "clickrow", "reason_end": "trackdone", "shuffle": False,
                    "skipped": i % 4 == 0})
json.dump(entries, open(sys.argv[1], "w"))
PY
"$BIN" ingest "$WORK/hostile.json" --db "$WORK/hostile.sqlite" -q

for store in p1 p2 hostile; do
  "$BIN" export --db "$WORK/$store.sqlite" --out "$WORK/cohort" --person "$store" -q
  "$BIN" export --db "$WORK/$store.sqlite" --out "$WORK/cohort-csv" --person "$store" \
    --format csv -q
done
"$VENV/bin/python" scripts/parquet_conformance.py "$WORK/cohort" "$WORK/cohort-csv" docs/cohort.md
