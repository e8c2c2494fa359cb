#!/usr/bin/env bash
# `make validate-cohort`: one simulated cohort through the whole pipeline, its pooled estimates
# judged against the population synth planted (docs/cohort.md, "Validation").
#
# resonance synth --cohort PERSONS --compress (the files as they ship, a tenth of the size)
# draws each person's three person-level effects from a fixed population (cohort-truth.json);
# every person then runs cohort/run-person.sh (ingest → analyze → breathing → tune → export),
# $(nproc) at a time; resonance cohort pool pools the hand-offs; scripts/validate_cohort.py
# sets each pooled μ beside its interval and the planted μ, the pooled τ beside the planted τ
# (goal: within 35%), and each person's estimate beside their own planted value. A benchmark-like run, not a test: it reports, and fails only when a
# command fails.
#
# COHORT_PERSONS=N  persons (default 100)     COHORT_MONTHS=M  months each (default 3)
# COHORT_SCALE=F    --scale (default 0.1)     COHORT_SEED=S    the seed, fixed in advance
# JOBS=N            persons at a time (default nproc)
# Resumable: a person whose hand-off is complete is skipped (run-person.sh), so an interrupted
# run goes on where it stopped; other arguments or another binary start over.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

PERSONS=${COHORT_PERSONS:-100}
MONTHS=${COHORT_MONTHS:-3}
SCALE=${COHORT_SCALE:-0.1}
SEED=${COHORT_SEED:-20261206}
JOBS=${JOBS:-$(nproc)}
BIN="$ROOT/.build/release/resonance"
WORK="$ROOT/.bench/validate-cohort"
test -x "$BIN" || { echo "error: $BIN not found: build first (make build)" >&2; exit 1; }

# The cohort is simulated and run again only when its arguments or the binary change (the same
# binary and arguments write the same bytes).
args="--cohort $PERSONS --months $MONTHS --scale $SCALE --seed $SEED --compress"
key="$args $(sha256sum "$BIN" | cut -d' ' -f1)"
mkdir -p "$WORK"
if [ "$(cat "$WORK/synth-args.txt" 2>/dev/null)" != "$key" ]; then
  rm -rf "$WORK/data" "$WORK/cohort" "$WORK/stores" "$WORK/report"
  echo "simulating: resonance synth --out $WORK/data $args"
  # shellcheck disable=SC2086
  "$BIN" synth --out "$WORK/data" $args --quiet
  echo "$key" > "$WORK/synth-args.txt"
fi

start=$(date +%s)
echo "running $PERSONS persons, $JOBS at a time (cohort/run-person.sh)…"
# Each store (about 50 MB at 3 months) is removed once its hand-off is written: what is judged
# is the hand-off, and 100 stores would take 5 GB.
export BIN WORK
# shellcheck disable=SC2016
ls "$WORK/data" | grep '^person-' | xargs -P "$JOBS" -I{} sh -c \
  'cohort/run-person.sh "$BIN" "$WORK/data/$1" "$1" "$WORK/cohort" "$WORK/stores" && rm -f "$WORK/stores/$1.sqlite"' \
  sh {} > "$WORK/run.log" 2>&1 || { tail -20 "$WORK/run.log" >&2; exit 1; }
echo "pipeline: $(( $(date +%s) - start )) s for $PERSONS persons"

"$BIN" cohort pool "$WORK/cohort" --out "$WORK/report" --quiet
python3 scripts/validate_cohort.py "$WORK/data/cohort-truth.json" "$WORK/report/pooled.csv" \
  "$WORK/cohort" | tee "$WORK/summary.txt"
