#!/usr/bin/env bash
# make bench-ingest: resonance's Apple Health import beside two references, in one run, on the
# same generated export of a gigabyte or more:
#   xmllint --stream --noout   libxml2's own streaming reader (parse only, nothing stored)
#   healthkit-to-sqlite        the popular Python importer (PyPI), in a virtual env of its own
# Prints wall time, MB/s (MB = 10^6 bytes of XML), peak RSS and resonance's ratio to each.
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=.build/release/resonance
DATA=${BENCH_DATA:-Datasets/generated/bench-gb}
XML="$DATA/apple_health_export/export.xml"
WORK=.bench
mkdir -p "$WORK"

if [ ! -f "$XML" ]; then
  echo "generating a 12-month export at 4x density into $DATA (about 1.1 GB)…"
  "$BIN" synth --out "$DATA" --months 12 --scale 4 --quiet
fi
BYTES=$(stat -c %s "$XML")

if [ ! -x "$WORK/venv/bin/healthkit-to-sqlite" ]; then
  echo "installing healthkit-to-sqlite from PyPI into $WORK/venv…"
  python3 -m venv "$WORK/venv"
  "$WORK/venv/bin/pip" install --quiet healthkit-to-sqlite
fi

# measure CMD…: "seconds kilobytes" of one run (bench/measure.sh).
source bench/measure.sh

rm -f "$WORK/resonance.sqlite" "$WORK/resonance.sqlite-wal" "$WORK/resonance.sqlite-shm" "$WORK/hk.db"
echo "export: $XML, $BYTES bytes"
read -r xl_s xl_kb < <(measure xmllint --stream --noout "$XML")
read -r rs_s rs_kb < <(measure "$BIN" ingest "$XML" --db "$WORK/resonance.sqlite" --quiet)
read -r hk_s hk_kb < <(measure "$WORK/venv/bin/healthkit-to-sqlite" --xml --silent "$XML" "$WORK/hk.db")

python3 - "$BYTES" "$xl_s" "$xl_kb" "$rs_s" "$rs_kb" "$hk_s" "$hk_kb" <<'PY'
import sys
b, xs, xk, rs, rk, hs, hk = (float(x) for x in sys.argv[1:])
rows = [("xmllint --stream --noout", xs, xk), ("resonance ingest", rs, rk), ("healthkit-to-sqlite", hs, hk)]
print(f"| tool | wall s | MB/s | peak RSS MB |")
print(f"|---|---:|---:|---:|")
for name, s, k in rows:
    print(f"| {name} | {s:.2f} | {b / 1e6 / s:.1f} | {k / 1024:.1f} |")
print(f"resonance vs xmllint --stream: {xs / rs:.2f}x   (goal 1.2x)")
print(f"resonance vs healthkit-to-sqlite: {hs / rs:.1f}x   (goal 12x)")
print(f"resonance peak memory: {rk / 1024:.1f} MB   (goal under 64 MB)")
PY
