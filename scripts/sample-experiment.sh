#!/bin/sh
# Writes the committed sample's experiment into DIR (Datasets/sample-experiment by `make
# sample`, a scratch folder by `make sample-check`): the plan `resonance demo` makes on the
# sample — the preferences in force against DIR's candidate.json, the person's own weights —
# carried out by the simulated DJ for the two months after the sample, of which the decision
# logs are kept. `docs/experiments.md` and Datasets/README.md say what it shows.
#
# Usage: scripts/sample-experiment.sh BIN DIR SAMPLE_PERSON_ARGS...
set -eu
bin=$1
out=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
"$bin" ingest Datasets/sample --db "$work/store.sqlite" --quiet
# The plan's options are the demo's (DemoStage.experimentMargin, .experimentDays).
"$bin" experiment plan --db "$work/store.sqlite" \
  --candidate Datasets/sample-experiment/candidate.json --margin 0.05 --max-days 56 \
  --out "$work/plan.json" --quiet
"$bin" synth --out "$work/person" --months 6 "$@" --dj-preferences "$work/plan.json" --quiet
mkdir -p "$out/resonance/decisions"
for month in 2022-10 2022-11; do
  cp "$work/person/resonance/decisions/decisions-$month.jsonl.gz" "$out/resonance/decisions/"
done
