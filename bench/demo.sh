#!/usr/bin/env bash
# make bench-demo: the main job's wall time against the goal "make demo under 60 s after the
# build": `resonance demo` (a fresh store; ingest, analyze, breathing, sweep, tune, the whole
# report) and the notebooks re-run against its store, each timed under /usr/bin/time -v
# (bench/measure.sh), $BENCH_RUNS times (default 3), medians reported. It writes into
# .bench/demo, not Reports/, and checks the notebooks without rewriting them.
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/.."

BIN=${RESONANCE_BIN:-.build/release/resonance}
RUNS=${BENCH_RUNS:-3}
GOAL_S=60
WORK=.bench/demo
mkdir -p "$WORK"
test -x "$BIN" || { echo "error: $BIN not found: build first (make build)" >&2; exit 1; }
source bench/measure.sh
# bench_record: the summary into the table of every benchmark (bench/record.sh).
source bench/record.sh

demo_walls=()
notebook_walls=()
kbs=()
for _ in $(seq "$RUNS"); do
  read -r s kb <<< "$(measure "$BIN" demo --reports "$WORK/reports" --quiet)"
  demo_walls+=("$s")
  kbs+=("$kb")
  echo "  resonance demo: $s s wall, $((kb / 1024)) MB peak" >&2
  read -r s kb <<< "$(measure "$BIN" notebook run notebooks-md/*.md --db "$WORK/reports/demo.sqlite" --check --quiet)"
  notebook_walls+=("$s")
  kbs+=("$kb")
  echo "  resonance notebook run --check: $s s wall, $((kb / 1024)) MB peak" >&2
done
median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
d=$(median "${demo_walls[@]}")
n=$(median "${notebook_walls[@]}")
total=$(awk -v a="$d" -v b="$n" 'BEGIN { printf "%.2f", a + b }')
met=$(awk -v t="$total" -v g="$GOAL_S" 'BEGIN { print (t < g) ? "met" : "NOT met" }')
echo
echo "| what | seconds (median of $RUNS) |"
echo "|---|---:|"
echo "| resonance demo: Datasets/sample into a fresh store and the whole report | $d |"
echo "| resonance notebook run: the three notebooks | $n |"
echo "| together, against the goal of $GOAL_S s | $total |"
echo
echo "make demo after the build < $GOAL_S s: $met ($total s)"
bench_record demo "make demo after the build: resonance demo and notebook run, medians of $RUNS added" \
  "$total" "$(bench_max "${kbs[@]}")" - - "time < $GOAL_S"
