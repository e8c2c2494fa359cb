#!/usr/bin/env bash
# make bench-traces: the Resonance apps' recordings (decision log, Watch and Mac traces, mood,
# breathing sessions: JSON Lines) ingested, beside references timed in the same run:
#   python json.loads    bench/traces_reference.py: every line of the same files parsed with
#                        json.loads, one at a time, nothing kept (.gz files through the gzip
#                        module); goal: resonance ingest at least 1.5x as fast
#   Health alone         resonance ingest of the same synth year's export.xml alone; goal: the
#                        whole year's directory (Health, listening histories, recordings) in at
#                        most 1.5x its time
# on a year of resonance synth (--months 12, default scale) in .bench/traces-year, and on a copy
# of its recordings with every file gzipped (.bench/traces-gz: .jsonl.gz, decompression timed on
# both sides). Each command runs RUNS times, in turn, so that all see the same moments of a
# shared machine; each figure is the median wall time, with the largest peak RSS. resonance
# ingests into a fresh store every time. A goal not met is reported, not an error: the script
# fails only when a command fails.
#
# BIN=PATH   the resonance binary (default .build/release/resonance)
# RUNS=N     runs of each command (default 3)
# The year and the gzipped copy are generated once and reused while the binary's version is
# unchanged (generated.txt holds it).
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/.."

BIN=${BIN:-.build/release/resonance}
RUNS=${RUNS:-3}
WORK=.bench
DATA=$WORK/traces-year
GZ=$WORK/traces-gz
DB=$WORK/traces.sqlite
mkdir -p "$WORK"

test -x "$BIN" || { echo "error: $BIN not found: build first (make build) or give BIN=PATH" >&2; exit 1; }

# measure CMD…: "seconds kilobytes" of one run (bench/measure.sh).
source bench/measure.sh
# bench_record …: a row of make bench's one table (bench/record.sh).
source bench/record.sh

want="$("$BIN" --version) synth --months 12"
if [ -f "$DATA/generated.txt" ] && [ "$(cat "$DATA/generated.txt")" = "$want" ]; then
  echo "reusing $DATA (same binary version)"
else
  echo "generating a 12-month synth year into $DATA…"
  rm -rf "$DATA" "$GZ"
  "$BIN" synth --out "$DATA" --months 12 --quiet
  echo "$want" > "$DATA/generated.txt"
fi
HEALTH="$DATA/apple_health_export/export.xml"
TRACES="$DATA/resonance"
test -f "$HEALTH" && test -d "$TRACES" || { echo "error: $DATA has no $HEALTH or $TRACES" >&2; exit 1; }
if [ ! -f "$GZ/generated.txt" ] || [ "$(cat "$GZ/generated.txt")" != "$want" ]; then
  echo "gzipping the recordings into $GZ…"
  rm -rf "$GZ"
  (cd "$TRACES" && find . -name '*.jsonl' -print) | while read -r f; do
    mkdir -p "$GZ/$(dirname "$f")"
    gzip -6 -c "$TRACES/$f" > "$GZ/$f.gz"
  done
  echo "$want" > "$GZ/generated.txt"
fi

echo "machine: $(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores," \
  "$(awk '/^MemTotal:/ { printf "%.0f", $2 / 1048576 }' /proc/meminfo) GB RAM"
echo "resonance: $BIN, $("$BIN" --version) (worktree at $(git rev-parse --short HEAD 2>/dev/null || echo '?'))"
echo "python: $(python3 --version 2>&1)"
files=$(find "$TRACES" -name '*.jsonl' | wc -l)
bytes=$(find "$TRACES" -name '*.jsonl' -printf '%s\n' | awk '{ s += $1 } END { print s }')
gz_bytes=$(find "$GZ" -name '*.jsonl.gz' -printf '%s\n' | awk '{ s += $1 } END { print s }')
year_bytes=$(du -sb "$DATA" | cut -f1)
echo "recordings: $files files, $bytes bytes ($gz_bytes gzipped); the year: $year_bytes bytes," \
  "of which $(stat -c %s "$HEALTH") the Health export"
cat "$HEALTH" > /dev/null
find "$TRACES" "$GZ" -type f -exec cat {} + > /dev/null

# ingest PATH: resonance ingest of PATH into a fresh store; "seconds kilobytes".
ingest() {
  rm -f "$DB" "$DB-wal" "$DB-shm"
  measure "$BIN" ingest "$1" --db "$DB" --quiet --json
}
# complete: stops the benchmark when the last ingest's summary reports a file not imported
# whole (run after `read … < <(ingest …)` has returned, so that its output is all written).
complete() {
  python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))
bad = [i["file"] for i in s["imports"] if i["status"] != "complete"] + [f if isinstance(f, str) else json.dumps(f) for f in s.get("failed", [])]
sys.exit("error: resonance ingest: not complete: " + ", ".join(bad) if bad or s["exit_status"] else 0)' "$WORK/out.txt" >&2
}

py=() rs=() rs_kb=() pyz=() rsz=() rsz_kb=() health=() year=() year_kb=()
for run in $(seq "$RUNS"); do
  echo "run $run of $RUNS (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  read -r s kb < <(measure python3 bench/traces_reference.py "$TRACES")
  echo "  python json.loads, recordings:     $s s  $(cat "$WORK/out.txt")"
  py+=("$s")
  read -r s kb < <(ingest "$TRACES")
  complete
  echo "  resonance ingest, recordings:      $s s  $((kb / 1024)) MB"
  rs+=("$s") rs_kb+=("$kb")
  read -r s kb < <(measure python3 bench/traces_reference.py "$GZ")
  echo "  python json.loads, gzipped:        $s s"
  pyz+=("$s")
  read -r s kb < <(ingest "$GZ")
  complete
  echo "  resonance ingest, gzipped:         $s s  $((kb / 1024)) MB"
  rsz+=("$s") rsz_kb+=("$kb")
  read -r s kb < <(ingest "$HEALTH")
  complete
  echo "  resonance ingest, Health alone:    $s s  $((kb / 1024)) MB"
  health+=("$s")
  read -r s kb < <(ingest "$DATA")
  complete
  echo "  resonance ingest, the whole year:  $s s  $((kb / 1024)) MB"
  year+=("$s") year_kb+=("$kb")
done

m_py=$(bench_median "${py[@]}") m_rs=$(bench_median "${rs[@]}")
m_pyz=$(bench_median "${pyz[@]}") m_rsz=$(bench_median "${rsz[@]}")
m_health=$(bench_median "${health[@]}") m_year=$(bench_median "${year[@]}")
echo
echo "| what | resonance s (median) | reference | reference s (median) | ratio | goal |"
echo "|---|---:|---|---:|---:|---|"
verdict() { awk -v a="$1" -v b="$2" -v op="$3" 'BEGIN { ok = (op == ">=") ? (a >= b) : (a <= b); print ok ? "met" : "NOT met" }'; }
sp=$(awk -v r="$m_rs" -v p="$m_py" 'BEGIN { printf "%.2f", p / r }')
spz=$(awk -v r="$m_rsz" -v p="$m_pyz" 'BEGIN { printf "%.2f", p / r }')
ry=$(awk -v y="$m_year" -v h="$m_health" 'BEGIN { printf "%.2f", y / h }')
echo "| recordings, $files files | $m_rs | python json.loads | $m_py | ${sp}x as fast | >= 1.5x: $(verdict "$sp" 1.5 '>=') |"
echo "| recordings gzipped | $m_rsz | python json.loads + gzip | $m_pyz | ${spz}x as fast | >= 1.5x: $(verdict "$spz" 1.5 '>=') |"
echo "| the whole synth year | $m_year | resonance ingest, Health alone | $m_health | ${ry}x its time | <= 1.5x: $(verdict "$ry" 1.5 '<=') |"

bench_record traces "resonance ingest, a synth year's recordings ($files JSON Lines files, $bytes bytes; median of $RUNS)" \
  "$m_rs" "$(bench_max "${rs_kb[@]}")" "python json.loads line by line (median of $RUNS)" "$m_py" "speed >= 1.5"
bench_record traces "resonance ingest, the same recordings gzipped ($gz_bytes bytes of .jsonl.gz; median of $RUNS)" \
  "$m_rsz" "$(bench_max "${rsz_kb[@]}")" "python json.loads line by line, gzip module (median of $RUNS)" "$m_pyz" "speed >= 1.5"
bench_record traces "resonance ingest, a whole synth year ($year_bytes bytes: Health, listening, recordings; median of $RUNS)" \
  "$m_year" "$(bench_max "${year_kb[@]}")" "resonance ingest of its Health export alone (median of $RUNS)" "$m_health" "ratio <= 1.5"
