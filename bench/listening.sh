#!/usr/bin/env bash
# make bench-listening: resonance's listening-history ingest against the goal "one million Play
# Activity rows or Spotify entries ingest in under 10 s", beside references timed in the same run
# on the same files:
#   python csv.reader        every row of the Play Activity CSV read (parse only, nothing kept)
#   python json.load         the Spotify file parsed into Python objects (nothing else)
#   sqlite3 INSERT … SELECT  1M generated rows into a copy of the store's playback_events (its
#                            schema as `sqlite3 STORE .schema playback_events` prints it, the
#                            store's pragmas, the per-song index rebuilt after the load as
#                            resonance's bulk load does): what SQLite alone costs for the rows
# Every command runs three times under /usr/bin/time -v, resonance into a fresh store each time;
# the table gives the median wall time and the largest peak RSS. The files are generated once by
# bench/make_listening.py into .bench/listening/ and reused while the generator is unchanged.
# A goal not met is reported, not an error: the script fails only when a command fails.
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/.."

BIN=.build/release/resonance
GEN=bench/make_listening.py
ROWS=${BENCH_ROWS:-1000000}
RUNS=3
GOAL_S=10
WORK=.bench/listening
CSV="$WORK/play_activity.csv"
JSON="$WORK/spotify_extended.json"
mkdir -p "$WORK"

test -x "$BIN" || { echo "error: $BIN not found: build first (make build)" >&2; exit 1; }
PY=python3
if [ -x .bench/venv/bin/python ]; then PY=.bench/venv/bin/python; fi

# measure CMD…: "seconds kilobytes" of one run (bench/measure.sh).
source bench/measure.sh
# bench_record: the summary into the table of every benchmark (bench/record.sh).
source bench/record.sh

# The files, once per generator version and row count: the stamp holds the generator's SHA-256,
# the row count and the seconds and peak RSS generation took.
STAMP="$WORK/generated.txt"
want="$(sha256sum "$GEN" | cut -d' ' -f1) $ROWS"
if [ -f "$CSV" ] && [ -f "$JSON" ] && [ -f "$STAMP" ] && [ "$(cut -d' ' -f1,2 "$STAMP")" = "$want" ]; then
  read -r _ _ gen_s gen_kb < "$STAMP"
  echo "reusing $CSV and $JSON (generator unchanged; generating took ${gen_s} s)"
else
  echo "generating $ROWS rows of each history into $WORK with $GEN…"
  rm -f "$STAMP" "$CSV" "$JSON"
  r=$(measure python3 "$GEN" "$ROWS" "$CSV.part" "$JSON.part")
  read -r gen_s gen_kb <<< "$r"
  mv "$CSV.part" "$CSV"
  mv "$JSON.part" "$JSON"
  echo "$want $gen_s $gen_kb" > "$STAMP"
fi

# A Watch recording of WATCH_LINES lines (a reading every 5 s: 2M lines is about 115 days),
# written once beside the histories: the trace reader streams it into the store in parts, so
# its peak RSS is held to the same bound as the histories'.
WATCH_LINES=${BENCH_WATCH_LINES:-2000000}
WATCH="$WORK/watch.jsonl"
if [ ! -f "$WATCH" ] || [ "$(($(wc -l < "$WATCH") - 1))" -ne "$WATCH_LINES" ]; then
  echo "writing a Watch recording of $WATCH_LINES lines into $WATCH…"
  python3 - "$WATCH_LINES" "$WATCH.part" <<'PY'
import sys, datetime
n, out = int(sys.argv[1]), sys.argv[2]
start = datetime.datetime(2022, 1, 1, tzinfo=datetime.timezone.utc)
with open(out, "w") as f:
    f.write('{"format":"resonance.watch-trace","version":1,"generator":"bench"}\n')
    for i in range(n):
        t = (start + datetime.timedelta(seconds=5 * i)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        f.write('{"t":"%s","offset":3600,"hr":%d,"hrv":%.1f,"stationary":%s}\n'
                % (t, 55 + i * 7 % 40, 30 + i * 13 % 50 / 2, "true" if i % 3 else "false"))
PY
  mv "$WATCH.part" "$WATCH"
fi
JSONL_LOADS='import json, sys
n = 0
with open(sys.argv[1], encoding="utf-8") as f:
    next(f)
    for line in f:
        json.loads(line)
        n += 1
print(n)'

# resonance into a fresh store for each run.
ingest() {
  rm -f "$WORK/$2.sqlite" "$WORK/$2.sqlite-wal" "$WORK/$2.sqlite-shm"
  measure "$BIN" ingest "$1" --db "$WORK/$2.sqlite" -q
}

# The references. csv.reader and json.load print the rows they saw, checked against the files'
# row counts (the CSV may hold one more than asked: a paused play is two rows).
CSV_READ='import csv, sys
n = 0
with open(sys.argv[1], newline="", encoding="utf-8") as f:
    r = csv.reader(f)
    next(r)
    for _ in r:
        n += 1
print(n)'
JSON_LOAD='import json, sys
with open(sys.argv[1], encoding="utf-8") as f:
    print(len(json.load(f)))'

# sqlite3: a store's playback_events (from the resonance runs), then the timed load.
floor_sql() {
  local song_index
  song_index=$(sqlite3 "$WORK/play_activity.sqlite" ".schema playback_events" | grep 'INDEX playback_events_song')
  cat <<SQL
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
PRAGMA cache_size = -16384;
BEGIN;
DROP INDEX playback_events_song;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < $ROWS - 1)
INSERT INTO playback_events (import_id, song_id, source, sources, start_ms, start_offset_s,
  offset_source, end_ms, end_offset_s, played_ms, media_duration_ms, listen_fraction,
  was_skipped, completed, end_reason, start_reason, shuffle, decision)
SELECT 1, 1 + i * 7919 % 5000, 'apple-music', 'apple-music', 1420070400000 + i * 600000, -25200,
  'source', 1420070400000 + i * 600000 + 120000 + i % 240000, -25200, 120000 + i % 240000,
  360000, (120000 + i % 240000) / 360000.0, i % 3 = 0, i % 3 != 0,
  CASE WHEN i % 3 = 0 THEN 'TRACK_SKIPPED_FORWARDS' ELSE 'NATURAL_END_OF_TRACK' END,
  NULL, 0, NULL
FROM n;
SELECT count(*) FROM playback_events;
$song_index
COMMIT;
SQL
}
floor() {
  rm -f "$WORK/floor.sqlite" "$WORK/floor.sqlite-wal" "$WORK/floor.sqlite-shm"
  sqlite3 "$WORK/play_activity.sqlite" ".schema playback_events" | sqlite3 "$WORK/floor.sqlite"
  floor_sql > "$WORK/floor.sql"
  measure sqlite3 -bail "$WORK/floor.sqlite" ".read $WORK/floor.sql"
}

# Runs a measured command $RUNS times; the last line of its output, when $3 is not empty, must
# be $3. Adds "name|rows|seconds of each run|peak kB of each run" to results.
results=()
run() {
  local name=$1 rows=$2 expect=$3 times=() kbs=() r s kb
  shift 3
  for _ in $(seq "$RUNS"); do
    r=$("$@")
    read -r s kb <<< "$r"
    if [ -n "$expect" ] && [ "$(tail -1 "$WORK/out.txt")" != "$expect" ]; then
      echo "error: $name saw $(tail -1 "$WORK/out.txt") rows, not $expect" >&2
      exit 1
    fi
    times+=("$s")
    kbs+=("$kb")
    echo "  $name: ${s} s, $((kb / 1024)) MB" >&2
  done
  results+=("$name|$rows|${times[*]}|${kbs[*]}")
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "timing, $RUNS runs each…"
csv_rows=$(($(wc -l < "$CSV") - 1))
run "resonance ingest, Play Activity CSV" "$csv_rows" "" ingest "$CSV" play_activity
run "resonance ingest, Spotify JSON" "$ROWS" "" ingest "$JSON" spotify
run "python csv.reader, Play Activity CSV" "$csv_rows" "$csv_rows" measure "$PY" -c "$CSV_READ" "$CSV"
run "python json.load, Spotify JSON" "$ROWS" "$ROWS" measure "$PY" -c "$JSON_LOAD" "$JSON"
run "sqlite3 INSERT … SELECT into playback_events" "$ROWS" "$ROWS" floor
run "resonance ingest, Watch recording" "$WATCH_LINES" "" ingest "$WATCH" watch
run "python json.loads per line, Watch recording" "$WATCH_LINES" "$WATCH_LINES" measure "$PY" -c "$JSONL_LOADS" "$WATCH"
events_pa=$(sqlite3 "$WORK/play_activity.sqlite" "SELECT count(*) FROM playback_events")
events_sp=$(sqlite3 "$WORK/spotify.sqlite" "SELECT count(*) FROM playback_events")
samples_watch=$(sqlite3 "$WORK/watch.sqlite" "SELECT count(*) FROM biometric_samples")
if [ "$samples_watch" -ne "$WATCH_LINES" ]; then
  echo "error: resonance stored $samples_watch Watch samples of $WATCH_LINES" >&2
  exit 1
fi
if [ "$events_pa" -eq 0 ] || [ "$events_sp" -eq 0 ]; then
  echo "error: resonance stored no plays ($events_pa from the CSV, $events_sp from the JSON)" >&2
  exit 1
fi

echo
echo "$(date -u +%Y-%m-%d), $(nproc) cores, $("$PY" --version), sqlite3 $(sqlite3 --version | cut -d' ' -f1);" \
  "CSV $(stat -c %s "$CSV") bytes, JSON $(stat -c %s "$JSON") bytes;" \
  "load average $load_before before the timings, $(cut -d' ' -f1-3 /proc/loadavg) after"
echo
python3 - "$GOAL_S" "${results[@]}" <<'PY'
import statistics, sys
goal = float(sys.argv[1])
print("| what | rows | wall s (median of 3) | rows/s | peak RSS MB | goal | met |")
print("|---|---:|---:|---:|---:|---|---|")
for line in sys.argv[2:]:
    name, rows, times, kbs = line.split("|")
    rows, s = int(rows), statistics.median(float(t) for t in times.split())
    mb = max(int(k) for k in kbs.split()) / 1024
    if name.startswith("resonance") and "Watch" in name:
        g, met = "peak RSS < 128 MB", ("yes" if mb < 128 else "**no**")
    elif name.startswith("resonance"):
        g, met = f"< {goal:g} s", ("yes" if s < goal else "**no**")
    else:
        g, met = "reference", ""
    print(f"| {name} | {rows:,} | {s:.2f} | {rows / s:,.0f} | {mb:.1f} | {g} | {met} |")
PY
echo
echo "rows: input rows read. The stores hold $events_pa plays from the CSV (a paused play's two" \
  "PLAY_END rows are one play) and $events_sp from the Spotify file."
echo "generator, not part of the goal: python3 $GEN $ROWS took ${gen_s} s, peak RSS $((gen_kb / 1024)) MB."

# The table of every benchmark: each resonance row against its Python reference (and the goal)
# and against the sqlite3 floor, the medians and largest peaks the table above shows.
declare -A wall peak
for line in "${results[@]}"; do
  IFS='|' read -r name _ times kbs <<< "$line"
  read -ra times <<< "$times"
  read -ra kbs <<< "$kbs"
  wall[$name]=$(bench_median "${times[@]}")
  peak[$name]=$(bench_max "${kbs[@]}")
done
floor_name="sqlite3 INSERT … SELECT into playback_events"
# Every single input within 128 MB of peak RSS, whatever its size (the hardening issue's bound).
bench_record listening "resonance ingest, Play Activity CSV, $csv_rows rows (median of $RUNS)" \
  "${wall[resonance ingest, Play Activity CSV]}" "${peak[resonance ingest, Play Activity CSV]}" \
  "python csv.reader, the same CSV" "${wall[python csv.reader, Play Activity CSV]}" "time < $GOAL_S" \
  "$floor_name, $ROWS rows" "${wall[$floor_name]}" - - - "rss < 128"
bench_record listening "resonance ingest, Spotify JSON, $ROWS entries (median of $RUNS)" \
  "${wall[resonance ingest, Spotify JSON]}" "${peak[resonance ingest, Spotify JSON]}" \
  "python json.load, the same JSON" "${wall[python json.load, Spotify JSON]}" "time < $GOAL_S" \
  "$floor_name, $ROWS rows" "${wall[$floor_name]}" - - - "rss < 128"
bench_record listening "resonance ingest, Watch recording, $WATCH_LINES lines (median of $RUNS)" \
  "${wall[resonance ingest, Watch recording]}" "${peak[resonance ingest, Watch recording]}" \
  "python json.loads per line, the same file" "${wall[python json.loads per line, Watch recording]}" - \
  - - "rss < 128"
