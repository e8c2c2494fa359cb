#!/usr/bin/env bash
# One person's pipeline, as a cohort runs it on each person: ingest → analyze → breathing →
# tune → export, into the cohort folder's partition person=ID/.
#
#   cohort/run-person.sh RESONANCE DATA ID COHORT WORK
#
# RESONANCE is the resonance binary; DATA the person's export folder (or file); ID their
# pseudonym; COHORT the cohort folder; WORK a folder for the person's store and the preference
# file tune writes (WORK/ID.sqlite, WORK/ID-preferences.json).
#
# Resumable: a person whose hand-off is complete (COHORT/person=ID/manifest.json) is skipped.
# Idempotent: otherwise the person's store is built afresh from DATA (a store a stopped run
# left is removed first), so a re-run writes the same hand-off, byte for byte, but for the time
# tune ran (tuning.parquet's ran_at, and so the manifest's digest of it).
set -euo pipefail

if [ $# -ne 5 ]; then
  echo "usage: $0 RESONANCE DATA ID COHORT WORK" >&2
  exit 64
fi
resonance=$1 data=$2 id=$3 cohort=$4 work=$5
manifest="$cohort/person=$id/manifest.json"

if [ -s "$manifest" ] && grep -q '"complete": true' "$manifest"; then
  echo "$id: hand-off complete, skipped"
  exit 0
fi

mkdir -p "$work"
store="$work/$id.sqlite"
rm -f "$store" "$store-wal" "$store-shm" "$work/$id-preferences.json"
"$resonance" ingest "$data" --db "$store" -q
"$resonance" analyze --db "$store" -q
"$resonance" breathing --db "$store" -q
# The person's preference file beside their store (every task shares the working folder).
"$resonance" tune --db "$store" --out "$work/$id-preferences.json" -q
# --replace: a partition without a complete manifest is this person's stopped run.
"$resonance" export --db "$store" --out "$cohort" --person "$id" --replace -q
echo "$id: hand-off written"
