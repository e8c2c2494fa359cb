#!/usr/bin/env bash
# make bench-analyze: `resonance analyze` over a 12-month default-scale history against the goal
# "a 12-month default-scale history analyses in under 20 s", beside a reference timed in the
# same run on the same store (and, on the way, the year ingested twice: the second run, every
# file unchanged, against "at most 5% of the first import's time"):
#   bench/analyze_reference.py   the core of the analysis in vectorised numpy (sessions by
#                                30-minute gaps; per play, mean heart rate 10 min before and
#                                during, HRV 30 min before and during + 5 min, by searchsorted
#                                and cumulative sums), reading the store with sqlite3, checked
#                                against the play_biometrics table resonance analyze wrote
# The set is generated once by `resonance synth` (fixed seed) into .bench/analyze/set and reused
# while the command and the generator's sources are unchanged (.bench/analyze/generated.txt);
# it is ingested once per run into a fresh .bench/analyze/ingested.sqlite. Each command then
# runs three times under /usr/bin/time -v; the table gives the median wall time and the largest
# peak RSS. analyze is timed twice over: the first analysis of a store (each run on a fresh copy
# of the ingested one), and `analyze --rebuild` on a store that holds an analysis, which it
# replaces (what a run after upgrading resonance does; without --rebuild and with nothing new
# imported, analyze only reports that the tables are up to date), and the run after a new
# import: the store analysed without the last month's Watch trace, that file then ingested
# (not timed), analyze keeping the sessions the new month cannot reach. resonance analyze is read
# through --json (plays, sessions, seconds), so the script keeps working as the analysis grows. A goal not met is reported, not an error: the script fails
# only when a command fails or the reference disagrees with the store.
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/.."

BIN=.build/release/resonance
REF=bench/analyze_reference.py
RUNS=3
GOAL_S=20
WORK=.bench/analyze
SET="$WORK/set"
DB="$WORK/store.sqlite"
VENV=.bench/venv
SYNTH=("$BIN" synth --out "$SET" --months 12)
mkdir -p "$WORK"

test -x "$BIN" || { echo "error: $BIN not found: build first (make build)" >&2; exit 1; }

# numpy in the benchmarks' virtual env (the one bench/ingest.sh installs healthkit-to-sqlite
# into), from PyPI the first time.
if [ ! -x "$VENV/bin/python" ]; then
  echo "creating $VENV…"
  python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c "import numpy" 2>/dev/null; then
  echo "installing numpy from PyPI into $VENV…"
  "$VENV/bin/pip" install --quiet numpy
fi
PY="$VENV/bin/python"

# measure CMD…: "seconds kilobytes" of one run (bench/measure.sh).
source bench/measure.sh
# bench_record: the summary into the table of every benchmark (bench/record.sh).
source bench/record.sh

# The set, once per command and generator: the stamp holds the command, the SHA-256 of the
# generator's sources (Sources/ResonanceSynth), and the seconds and peak RSS generation took.
STAMP="$WORK/generated.txt"
synth_sha=$(find Sources/ResonanceSynth -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
want="${SYNTH[*]} | $synth_sha"
if [ -d "$SET" ] && [ -f "$STAMP" ] && [ "$(sed -n 1p "$STAMP")" = "$want" ]; then
  read -r gen_s gen_kb < <(sed -n 2p "$STAMP")
  echo "reusing $SET (same command and generator; generating took ${gen_s} s)"
else
  echo "generating: ${SYNTH[*]}…"
  rm -rf "$STAMP" "$SET"
  r=$(measure "${SYNTH[@]}" --quiet)
  read -r gen_s gen_kb <<< "$r"
  printf '%s\n%s %s\n' "$want" "$gen_s" "$gen_kb" > "$STAMP"
fi

# The ingested store is kept as $INGESTED; each first analysis runs on a fresh copy of it.
INGESTED="$WORK/ingested.sqlite"
echo "ingesting $SET into a fresh $INGESTED…"
rm -f "$INGESTED" "$INGESTED-wal" "$INGESTED-shm"
r=$(measure "$BIN" ingest "$SET" --db "$INGESTED" --quiet)
read -r ing_s ing_kb <<< "$r"
# The same files again: each is hashed as its bytes are, found imported whole, and passed over
# with no reader running (the goal: at most 5% of the first import, timed in this run).
r=$(measure "$BIN" ingest "$SET" --db "$INGESTED" --quiet)
read -r again_s again_kb <<< "$r"
# The incremental case: the set without its last Watch month (hard links, no copy), analysed;
# then that month ingested. Each timed run analyses a fresh copy of the result.
PARTIAL="$WORK/partial.sqlite"
LATE=$(find "$SET/resonance/watch" -name 'watch-*.jsonl' | sort | tail -1)
rm -rf "$WORK/partial-set" "$PARTIAL" "$PARTIAL-wal" "$PARTIAL-shm"
cp -al "$SET" "$WORK/partial-set"
rm "$WORK/partial-set/resonance/watch/$(basename "$LATE")"
"$BIN" ingest "$WORK/partial-set" --db "$PARTIAL" --quiet
"$BIN" analyze --db "$PARTIAL" --quiet
"$BIN" ingest "$LATE" --db "$PARTIAL" --quiet
after_new_month() {
  rm -f "$DB" "$DB-wal" "$DB-shm"
  cp "$PARTIAL" "$DB"
  measure "$BIN" analyze --db "$DB" --json
}
first_analysis() {
  rm -f "$DB" "$DB-wal" "$DB-shm"
  cp "$INGESTED" "$DB"
  measure "$BIN" analyze --db "$DB" --json
}

# analyze's JSON: "plays sessions seconds plays_with_hr_delta plays_with_hrv_delta" ("-" for a
# count this build does not report), and the keys it reports (what this build's analysis
# covers). Only plays, sessions and seconds are relied on.
json_line() {
  python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(d["plays"], d["sessions"], d["seconds"], d.get("plays_with_hr_delta", "-"), d.get("plays_with_hrv_delta", "-"))' "$1"
}
json_keys() {
  python3 -c 'import json, sys; print(",".join(sorted(json.load(open(sys.argv[1])))))' "$1"
}

# Runs a measured command (measure …, or a function ending in one) $RUNS times; $2, a function
# over the output file, gives a line starting "plays sessions", which must be the same every
# run. Adds "name|seconds of each run|peak kB of each run|that line" to results.
results=()
run() {
  local name=$1 digest=$2 times=() kbs=() r s kb line first=""
  shift 2
  for _ in $(seq "$RUNS"); do
    r=$("$@")
    read -r s kb <<< "$r"
    line=$("$digest" "$WORK/out.txt")
    if [ -n "$first" ] && [ "$(cut -d' ' -f1,2 <<< "$line")" != "$(cut -d' ' -f1,2 <<< "$first")" ]; then
      echo "error: $name gave '$line', the run before '$first'" >&2
      exit 1
    fi
    first=$line
    times+=("$s")
    kbs+=("$kb")
    echo "  $name: ${s} s, $((kb / 1024)) MB ($line)" >&2
  done
  results+=("$name|${times[*]}|${kbs[*]}|$line")
}
ref_line() { sed -n 1p "$1"; }

build=$(git log -1 --format=%h)
if [ -n "$(git status --porcelain -- Sources Package.swift)" ]; then build="$build+uncommitted"; fi
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "timing, $RUNS runs each…"
run "resonance analyze, first after ingest" json_line first_analysis
run "resonance analyze --rebuild, again (replacing its results)" json_line measure "$BIN" analyze --db "$DB" --rebuild --json
run "resonance analyze after a new month of Watch data ($(basename "$LATE"))" json_line after_new_month
kept=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1])).get("sessions_kept", "-"))' "$WORK/out.txt")
an_line=$(json_line "$WORK/out.txt")
read -r an_plays an_sessions _ an_hr an_hrv <<< "$an_line"
an_keys=$(json_keys "$WORK/out.txt")
run "numpy reference (bench/analyze_reference.py)" ref_line measure "$PY" "$REF" "$DB"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# The reference is known to do the same work: the same plays as analyze, and every per-play
# mean and count the same as the play_biometrics analyze wrote. Its sessions are the
# gap-bounded runs; analyze splits those further where the context changes for good, so it
# reports at least as many.
read -r rf_plays rf_sessions rf_hr rf_hrv < "$WORK/out.txt"
if [ "$rf_plays" != "$an_plays" ] || [ "$an_sessions" -lt "$rf_sessions" ]; then
  echo "error: the reference found $rf_plays plays in $rf_sessions gap-bounded runs, analyze $an_plays in $an_sessions sessions" >&2
  exit 1
fi
if [ "$an_hr" != "-" ] && [ "$rf_hr $rf_hrv" != "$an_hr $an_hrv" ]; then
  echo "error: plays with an HR/HRV change: reference $rf_hr/$rf_hrv, analyze $an_hr/$an_hrv" >&2
  exit 1
fi
if ! "$PY" "$REF" "$DB" --check > "$WORK/check.txt"; then
  cat "$WORK/check.txt" >&2
  echo "error: the reference disagrees with play_biometrics" >&2
  exit 1
fi

echo
echo "$(date -u +%Y-%m-%d), build $build, $(nproc) cores, $("$PY" --version)," \
  "numpy $("$PY" -c 'import numpy; print(numpy.__version__)')," \
  "SQLite $("$PY" -c 'import sqlite3; print(sqlite3.sqlite_version)') (python);" \
  "load average $load_before before the timings, $load_after after"
echo "set: ${SYNTH[*]} ($(du -sb "$SET" | cut -f1) bytes); store $(stat -c %s "$INGESTED") bytes after ingest"
echo
python3 - "$GOAL_S" "${results[@]}" <<'PY'
import statistics, sys
goal = float(sys.argv[1])
print("| what | plays | sessions | wall s (median of 3) | single runs s | peak RSS MB | goal | met |")
print("|---|---:|---:|---:|---|---:|---|---|")
for line in sys.argv[2:]:
    name, times, kbs, out = line.split("|")
    plays, sessions = (int(x) for x in out.split()[:2])
    runs = [float(t) for t in times.split()]
    s = statistics.median(runs)
    mb = max(int(k) for k in kbs.split()) / 1024
    if name.startswith("resonance"):
        g, met = f"< {goal:g} s", ("yes" if s < goal else "**no**")
    else:
        g, met = "reference", ""
    print(f"| {name} | {plays:,} | {sessions:,} | {s:.2f} | {', '.join(f'{r:.2f}' for r in runs)} | {mb:.1f} | {g} | {met} |")
PY
echo
echo "after the new month, analyze kept $kept sessions as the run before had stored them"
echo "analyze --json reports: $an_keys (its own 'seconds', without process start and exit, in the last run of each row: $(cut -d'|' -f4 <<< "${results[0]}" | cut -d' ' -f3), $(cut -d'|' -f4 <<< "${results[1]}" | cut -d' ' -f3))"
grep "^check:" "$WORK/check.txt"
echo "not part of the goal: generating took ${gen_s} s (peak RSS $((gen_kb / 1024)) MB); ingesting took ${ing_s} s (peak RSS $((ing_kb / 1024)) MB)."
echo "ingesting the same files again took ${again_s} s (peak RSS $((again_kb / 1024)) MB), against ${ing_s} s the first time"
bench_record analyze "resonance ingest again, the same 12 months (every file unchanged)" \
  "$again_s" "$again_kb" "the first ingest of the same files, this run" "$ing_s" "ratio <= 0.05"

# The table of every benchmark: each resonance row against the numpy reference and the goal,
# the medians and largest peaks the table above shows.
for line in "${results[@]}"; do
  IFS='|' read -r ref_name ref_times _ _ <<< "$line"
  if [[ $ref_name == "numpy reference"* ]]; then break; fi
done
read -ra ref_times <<< "$ref_times"
for line in "${results[@]}"; do
  IFS='|' read -r name times kbs out <<< "$line"
  read -ra times <<< "$times"
  read -ra kbs <<< "$kbs"
  [[ $name == resonance* ]] || continue
  bench_record analyze "$name, 12 months, ${out%% *} plays (median of $RUNS)" \
    "$(bench_median "${times[@]}")" "$(bench_max "${kbs[@]}")" \
    "$ref_name" "$(bench_median "${ref_times[@]}")" "time < $GOAL_S"
done
