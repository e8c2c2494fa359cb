#!/usr/bin/env bash
# bench/ingest-ab.sh OLD_BIN NEW_BIN [RUNS]: two builds of resonance importing the same Apple
# Health export, interleaved (old, new, old, new, …) so that both see the same machine state,
# each into a fresh store; prints every run and the medians, and the new build's time as a
# share of the old one's. Used to show a change to the import path cost no speed.
#
# The export is the bench's (make bench-ingest generates it: 12 months at 4x density, about
# 1.1 GB); BENCH_DATA names another folder holding apple_health_export/export.xml.
set -euo pipefail
cd "$(dirname "$0")/.."

OLD=${1:?usage: bench/ingest-ab.sh OLD_BIN NEW_BIN [RUNS]}
NEW=${2:?usage: bench/ingest-ab.sh OLD_BIN NEW_BIN [RUNS]}
RUNS=${3:-3}
DATA=${BENCH_DATA:-Datasets/generated/bench-gb}
XML="$DATA/apple_health_export/export.xml"
WORK=.bench/ab
mkdir -p "$WORK"
if [ ! -f "$XML" ]; then
  echo "generating a 12-month export at 4x density into $DATA (about 1.1 GB)…"
  "$NEW" synth --out "$DATA" --months 12 --scale 4 --quiet
fi
echo "export: $XML, $(stat -c %s "$XML") bytes; $RUNS runs each, interleaved"

source bench/measure.sh

old=()
new=()
for run in $(seq "$RUNS"); do
  for which in old new; do
    bin=$OLD
    [ "$which" = new ] && bin=$NEW
    rm -f "$WORK/$which.sqlite" "$WORK/$which.sqlite-wal" "$WORK/$which.sqlite-shm"
    read -r s kb < <(measure "$bin" ingest "$XML" --db "$WORK/$which.sqlite" --quiet)
    echo "run $run  $which  ${s} s  $((kb / 1024)) MB"
    if [ "$which" = old ]; then old+=("$s"); else new+=("$s"); fi
  done
done

python3 - "${old[*]}" "${new[*]}" <<'PY'
import statistics, sys
old = [float(x) for x in sys.argv[1].split()]
new = [float(x) for x in sys.argv[2].split()]
mo, mn = statistics.median(old), statistics.median(new)
print(f"median old {mo:.2f} s, new {mn:.2f} s: new/old = {mn / mo:.3f}")
PY
