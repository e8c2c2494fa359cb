#!/usr/bin/env bash
# make bench-decade: one person's history at 1 year and at YEARS years (default 10), both with
# a library of 3,000 songs at scale 1, every step timed once with its peak RSS, each YEARS
# figure beside the 1-year one of the same run:
#   synth, ingest (into a fresh store), analyze, analyze after one new month of Watch data,
#   breathing, sweep, tune (--no-ledger), report
# The goals (issue 30, "Ten years at bounded memory"): every step but synth within 400 MB; analyze
# on YEARS at most 8× its 1-year time; analyze after a new month within 10 s; tune and report at
# most 5× their 1-year times. synth may hold a life in memory: its figure is reported, not judged.
# A goal not met is reported, not an error.
#
# The sets are generated once per command and generator into .bench/decade (at 10 years about
# 18 GB of files, and the store about 10 GB more: check the free space first) and reused. The
# binary is copied there first, so a build during the run does not change what is timed.
# STEPS="…" runs a subset of the step names above (the set and store are made when missing);
# at 10 years tune alone runs for about an hour here.
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/.."

YEARS=${YEARS:-10}
SONGS=3000
STEPS=${STEPS:-synth ingest analyze new-month breathing sweep tune report}
WORK=.bench/decade
mkdir -p "$WORK"
test -x .build/release/resonance || { echo "error: build first (make build)" >&2; exit 1; }
BIN="$WORK/resonance"
cp .build/release/resonance "$BIN"

source bench/measure.sh
source bench/record.sh

synth_sha=$(find Sources/ResonanceSynth -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
has_step() { [[ " $STEPS " == *" $1 "* ]]; }

declare -A SECONDS_OF KB_OF
# step NAME YEARS CMD…: CMD measured; its seconds and peak kB kept under NAME/YEARS.
step() {
  local name=$1 years=$2 r
  shift 2
  echo "  $name, $years year(s)…" >&2
  r=$(measure "$@")
  read -r SECONDS_OF["$name/$years"] KB_OF["$name/$years"] <<< "$r"
  echo "    ${SECONDS_OF[$name/$years]} s, $((KB_OF[$name/$years] / 1024)) MB" >&2
}

for years in 1 "$YEARS"; do
  set_dir="$WORK/set-$years"
  store="$WORK/store-$years.sqlite"
  months=$((12 * years))
  want="synth --months $months --songs $SONGS | $synth_sha"
  if [ -d "$set_dir" ] && [ "$(sed -n 1p "$set_dir.txt" 2>/dev/null)" = "$want" ]; then
    echo "reusing $set_dir (same command and generator)"
    read -r s kb < <(sed -n 2p "$set_dir.txt")
    SECONDS_OF["synth/$years"]=$s KB_OF["synth/$years"]=$kb
  else
    rm -rf "$set_dir" "$set_dir.txt" "$store" "$store.txt"
    echo "generating $years year(s): resonance synth --months $months --songs $SONGS…"
    step synth "$years" "$BIN" synth --out "$set_dir" --months "$months" --songs "$SONGS" --quiet
    printf '%s\n%s %s\n' "$want" "${SECONDS_OF[synth/$years]}" "${KB_OF[synth/$years]}" > "$set_dir.txt"
  fi
  echo "$years year(s): $(du -sh "$set_dir" | cut -f1) of files"
  if has_step ingest || [ ! -f "$store" ]; then
    rm -f "$store" "$store-wal" "$store-shm"
    step ingest "$years" "$BIN" ingest "$set_dir" --db "$store" --quiet
  fi
  if has_step analyze || has_step new-month; then
    step analyze "$years" "$BIN" analyze --db "$store" --rebuild --quiet
  fi
  if has_step new-month; then
    # The history without its last Watch month (hard links), analysed; then that month
    # ingested, and analyze timed on what it brings.
    partial="$WORK/partial-$years.sqlite"
    late=$(find "$set_dir/resonance/watch" -name 'watch-*.jsonl' | sort | tail -1)
    rm -rf "$WORK/partial-set" "$partial" "$partial-wal" "$partial-shm"
    cp -al "$set_dir" "$WORK/partial-set"
    rm "$WORK/partial-set/resonance/watch/$(basename "$late")"
    "$BIN" ingest "$WORK/partial-set" --db "$partial" --quiet
    "$BIN" analyze --db "$partial" --quiet
    "$BIN" ingest "$late" --db "$partial" --quiet
    step new-month "$years" "$BIN" analyze --db "$partial" --quiet
    rm -rf "$WORK/partial-set" "$partial" "$partial-wal" "$partial-shm"
  fi
  if has_step breathing; then step breathing "$years" "$BIN" breathing --db "$store" --quiet; fi
  if has_step sweep; then
    step sweep "$years" "$BIN" sweep --db "$store" --out "$WORK/sweep-$years.csv" --quiet
  fi
  if has_step tune; then
    step tune "$years" "$BIN" tune --db "$store" --no-ledger --out "$WORK/preferences-$years.json" --quiet
  fi
  if has_step report; then
    rm -rf "$WORK/report-$years"
    step report "$years" "$BIN" report --db "$store" --out "$WORK/report-$years" --quiet
  fi
  echo "$years year(s): store $(stat -c %s "$store") bytes"
done

# record NAME GOAL_RATIO: the YEARS row beside the 1-year one, with the ratio goal when given
# (- for none) and the memory goal (none for synth).
record() {
  local name=$1 ratio=$2 what memory="rss <= 400"
  [ -n "${SECONDS_OF[$name/$YEARS]:-}" ] || return 0
  what="resonance $name, $YEARS years of 3,000 songs"
  [ "$name" = new-month ] && what="resonance analyze after one new month, $YEARS years"
  [ "$name" = synth ] && memory=-
  bench_record decade "$what" "${SECONDS_OF[$name/$YEARS]}" "${KB_OF[$name/$YEARS]}" \
    "the same, 1 year" "${SECONDS_OF[$name/1]:-}" "$ratio" - - "$memory"
}
record synth -
record ingest -
record analyze "ratio <= 8"
if [ -n "${SECONDS_OF[new-month/$YEARS]:-}" ]; then
  bench_record decade "resonance analyze after one new month, $YEARS years" \
    "${SECONDS_OF[new-month/$YEARS]}" "${KB_OF[new-month/$YEARS]}" \
    "the same, 1 year" "${SECONDS_OF[new-month/1]:-}" "time <= 10" - - "rss <= 400"
fi
record breathing -
record sweep -
record tune "ratio <= 5"
record report "ratio <= 5"

echo
echo "| step | 1 year s | 1 year MB | $YEARS years s | $YEARS years MB | ratio |"
echo "|---|---:|---:|---:|---:|---:|"
for name in synth ingest analyze new-month breathing sweep tune report; do
  [ -n "${SECONDS_OF[$name/$YEARS]:-}" ] || continue
  python3 -c 'import sys
n, a, ak, b, bk = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
print(f"| {n} | {a:.1f} | {ak/1024:.0f} | {b:.1f} | {bk/1024:.0f} | {b/a:.1f}× |")' \
    "$name" "${SECONDS_OF[$name/1]}" "${KB_OF[$name/1]}" "${SECONDS_OF[$name/$YEARS]}" "${KB_OF[$name/$YEARS]}"
done
