#!/usr/bin/env bash
# make bench-synth: time and size of resonance synth for a realistic year and a 1 GB export.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.build/release/resonance
WORK=.bench/synth
rm -rf "$WORK"
mkdir -p "$WORK"
# bench_record: each run into the table of every benchmark (bench/record.sh); synth has no
# reference and no goal.
source bench/record.sh
for args in "--months 12" "--months 12 --scale 4"; do
  out="$WORK/$(echo "$args" | tr -d ' -')"
  /usr/bin/time -o "$WORK/time.txt" -f "%e %M" "$BIN" synth --out "$out" $args --quiet
  read -r s kb < "$WORK/time.txt"
  xml=$(stat -c %s "$out/apple_health_export/export.xml")
  total=$(du -sb "$out" | cut -f1)
  echo "resonance synth $args: ${s} s, peak RSS $((kb / 1024)) MB, export.xml $xml bytes, $total bytes in all"
  bench_record synth "resonance synth $args: export.xml $xml bytes, $total bytes in all" "$s" "$kb"
  rm -rf "$out"
done
