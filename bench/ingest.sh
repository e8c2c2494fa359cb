#!/usr/bin/env bash
# make bench-ingest: resonance's Apple Health import beside two references, in one run, on
# three generated exports of about a gigabyte each:
#   synth             resonance synth --months 12 --scale 4 (Datasets/generated/bench-gb)
#   foreign-typical   bench/make_foreign_health.py --mix typical: a generator written apart
#                     from synth, after the real format (escaped device string on every record,
#                     metadata on about a third of records, a beat list on every HRV record)
#   foreign-metadata  the same generator, --mix metadata-heavy: several MetadataEntry children
#                     on nearly every record, as third-party sync apps write them
# and on each of them:
#   xmllint --stream --noout   libxml2's own streaming reader (parse only, nothing stored)
#   sax-floor                  libxml2's SAX2 push parser with callbacks that do nothing
#                              (bench/sax_floor.c, compiled here): the parse's physical limit
#   resonance ingest           into a fresh store (--quiet --json: the summary is kept)
#                              (these three RUNS times, in turn)
#   healthkit-to-sqlite        the popular Python importer (PyPI), in a virtual env of its own
# Prints the machine, one row per (export, tool) with the median wall time and each run's,
# MB/s (MB = 10^6 bytes of XML), the largest peak RSS and the median CPU time (user+sys; the
# load average is printed before each export), then each export's ratios of medians against the
# goals (>= 1.6x xmllint --stream, >= 12x healthkit-to-sqlite, peak RSS < 64 MB) with resonance's
# time over the bare SAX parse's beside them (no goal: how far from the limit), and checks
# what resonance stored against the counts the foreign generator wrote. A goal not met is
# reported, not an error: the script fails only when a command fails.
#
# BIN=PATH          the resonance binary (default .build/release/resonance)
# SKIP_HK=1         leave healthkit-to-sqlite out (it takes minutes per export)
# RUNS=N            runs of xmllint and resonance per export, taken in turn (default 3; the
#                   medians are judged: one run on this shared machine moves by 20%)
# FOREIGN_BYTES=N   size of each foreign export (default 1000000000)
# BENCH_DATA=DIR    where the synth export is (default Datasets/generated/bench-gb)
# The foreign exports are generated once into .bench/foreign-typical/ and
# .bench/foreign-metadata/ (export.xml, export.stats.json) and reused while the generator, the
# mix and the size are unchanged (generated.txt holds them).
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${BIN:-.build/release/resonance}
SKIP_HK=${SKIP_HK:-0}
RUNS=${RUNS:-3}
FOREIGN_BYTES=${FOREIGN_BYTES:-1000000000}
DATA=${BENCH_DATA:-Datasets/generated/bench-gb}
SYNTH_XML="$DATA/apple_health_export/export.xml"
GEN=bench/make_foreign_health.py
WORK=.bench
mkdir -p "$WORK"

test -x "$BIN" || { echo "error: $BIN not found: build first (make build) or give BIN=PATH" >&2; exit 1; }

if [ ! -f "$SYNTH_XML" ]; then
  echo "generating a 12-month export at 4x density into $DATA (about 1.1 GB)…"
  "$BIN" synth --out "$DATA" --months 12 --scale 4 --quiet
fi

# foreign MIX DIR: DIR/export.xml of that mix, generated unless the one there was written by
# this generator, mix and size.
foreign() {
  local mix=$1 dir=$2
  local want
  want="$(sha256sum "$GEN" | cut -d' ' -f1) $mix $FOREIGN_BYTES"
  mkdir -p "$dir"
  if [ -f "$dir/export.xml" ] && [ -f "$dir/generated.txt" ] && [ "$(cat "$dir/generated.txt")" = "$want" ]; then
    echo "reusing $dir/export.xml (generator, mix and size unchanged)"
  else
    echo "generating $dir/export.xml ($mix, about $FOREIGN_BYTES bytes) with $GEN…"
    rm -f "$dir/export.xml" "$dir/generated.txt"
    python3 "$GEN" --mix "$mix" --bytes "$FOREIGN_BYTES" --out "$dir/export.xml.part" --stats "$dir/export.stats.json"
    mv "$dir/export.xml.part" "$dir/export.xml"
    echo "$want" > "$dir/generated.txt"
  fi
}
foreign typical "$WORK/foreign-typical"
foreign metadata-heavy "$WORK/foreign-metadata"

if [ "$SKIP_HK" != 1 ] && [ ! -x "$WORK/venv/bin/healthkit-to-sqlite" ]; then
  echo "installing healthkit-to-sqlite from PyPI into $WORK/venv…"
  python3 -m venv "$WORK/venv"
  "$WORK/venv/bin/pip" install --quiet healthkit-to-sqlite
fi

# The bare SAX parse: bench/sax_floor.c with the C compiler there is (the Swift toolchain's
# clang when Debian's cc is not installed), against libxml2-dev, which the build needs anyway.
SAX="$WORK/sax-floor"
if [ ! -x "$SAX" ] || [ bench/sax_floor.c -nt "$SAX" ]; then
  cc=${CC:-$(command -v cc || command -v clang || true)}
  [ -n "$cc" ] || { echo "error: no C compiler (cc or clang) for bench/sax_floor.c" >&2; exit 1; }
  # shellcheck disable=SC2046
  "$cc" -O2 -o "$SAX" bench/sax_floor.c $(xml2-config --cflags --libs)
fi

# measure CMD…: "seconds kilobytes" of one run (bench/measure.sh).
source bench/measure.sh
# bench_record …: a row of make bench's one table (bench/record.sh).
source bench/record.sh

hk_version=skipped
if [ "$SKIP_HK" != 1 ]; then
  hk_version=$("$WORK/venv/bin/pip" show healthkit-to-sqlite 2>/dev/null | awk '/^Version:/ { print $2 }')
fi
echo "machine: $(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores," \
  "$(awk '/^MemTotal:/ { printf "%.0f", $2 / 1048576 }' /proc/meminfo) GB RAM"
echo "resonance: $BIN, $("$BIN" --version) (worktree at $(git rev-parse --short HEAD 2>/dev/null || echo '?'))"
echo "xmllint: $(xmllint --version 2>&1 | head -n 1); healthkit-to-sqlite: $hk_version"

RESULTS="$WORK/ingest-results.tsv"
: > "$RESULTS"
# row LABEL BYTES TOOL SECONDS KB: one line of $RESULTS, with the user+system CPU seconds of the
# run just measured (from bench/measure.sh's $WORK/time.txt): on a shared machine the CPU time
# moves less than the wall time.
row() {
  local cpu
  cpu=$(awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { printf "%.2f", u + s }' "$WORK/time.txt")
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$cpu" >> "$RESULTS"
}
# run_export LABEL XML: the three tools on one export, rows appended to $RESULTS; resonance's
# JSON summary and standard error (of its last run) kept as $WORK/ingest-LABEL.json and .err.
# xmllint, the bare SAX parse and resonance run $RUNS times, in turn (xmllint, sax-floor,
# resonance, xmllint, …), so that all see the same moments of a shared machine; the goals are
# judged on their medians and resonance's largest peak RSS. healthkit-to-sqlite, minutes a run,
# runs once.
run_export() {
  local label=$1 xml=$2 s kb hk=(- - -) run
  local bytes xl=() sx=() rs=() rs_kb=()
  bytes=$(stat -c %s "$xml")
  cat "$xml" > /dev/null  # into the page cache: every tool reads the file warm
  echo "[$label] $xml: $bytes bytes; load average $(cut -d' ' -f1-3 /proc/loadavg)"
  for run in $(seq "$RUNS"); do
    read -r s kb < <(measure xmllint --stream --noout "$xml")
    row "$label" "$bytes" xmllint "$s" "$kb"
    xl+=("$s")
    read -r s kb < <(measure "$SAX" "$xml")
    row "$label" "$bytes" sax-floor "$s" "$kb"
    sx+=("$s")
    rm -f "$WORK/resonance.sqlite" "$WORK/resonance.sqlite-wal" "$WORK/resonance.sqlite-shm"
    read -r s kb < <(measure "$BIN" ingest "$xml" --db "$WORK/resonance.sqlite" --quiet --json)
    cp "$WORK/out.txt" "$WORK/ingest-$label.json"
    cp "$WORK/err.txt" "$WORK/ingest-$label.err"
    row "$label" "$bytes" resonance "$s" "$kb"
    rs+=("$s")
    rs_kb+=("$kb")
    echo "  run $run of $RUNS: xmllint ${xl[-1]} s, bare SAX ${sx[-1]} s, resonance $s s"
  done
  if [ "$SKIP_HK" != 1 ]; then
    rm -f "$WORK/hk.db"
    read -r s kb < <(measure "$WORK/venv/bin/healthkit-to-sqlite" --xml --silent "$xml" "$WORK/hk.db")
    row "$label" "$bytes" healthkit-to-sqlite "$s" "$kb"
    hk=("healthkit-to-sqlite" "$s" "speed >= 12")
  fi
  bench_record ingest "resonance ingest, $label export ($bytes bytes; median of $RUNS)" \
    "$(bench_median "${rs[@]}")" "$(bench_max "${rs_kb[@]}")" \
    "xmllint --stream --noout (median of $RUNS)" "$(bench_median "${xl[@]}")" "speed >= 1.6" \
    "bare libxml2 SAX parse, bench/sax_floor.c (median of $RUNS; the limit, no goal)" \
    "$(bench_median "${sx[@]}")" - \
    "${hk[@]}" - - "rss < 64"
}
run_export synth "$SYNTH_XML"
run_export foreign-typical "$WORK/foreign-typical/export.xml"
run_export foreign-metadata "$WORK/foreign-metadata/export.xml"

python3 - "$RESULTS" "$WORK" <<'PY'
import json, os, statistics, sys
results, work = sys.argv[1], sys.argv[2]
rows = [line.rstrip("\n").split("\t") for line in open(results) if line.strip()]
names = {"xmllint": "xmllint --stream --noout", "sax-floor": "bare libxml2 SAX parse (bench/sax_floor.c)",
         "resonance": "resonance ingest", "healthkit-to-sqlite": "healthkit-to-sqlite"}
runs, order = {}, []
for label, b, tool, s, kb, cpu in rows:
    if label not in runs:
        runs[label] = {"bytes": int(b)}
        order.append(label)
    runs[label].setdefault(tool, []).append((float(s), int(kb), float(cpu)))
median = statistics.median  # as bench_median gives it (bench/record.sh)
print()
print("| export | tool | runs | wall s (median) | each run, s | MB/s | peak RSS MB (largest) | CPU s (median, user+sys) |")
print("|---|---|---:|---:|---|---:|---:|---:|")
for label in order:
    b = runs[label]["bytes"]
    for tool in ("xmllint", "sax-floor", "resonance", "healthkit-to-sqlite"):
        if tool not in runs[label]:
            continue
        got = runs[label][tool]
        s = median([g[0] for g in got])
        kb = max(g[1] for g in got)
        each = ", ".join(f"{g[0]:.2f}" for g in got)
        runs[label][tool] = (s, kb)
        print(f"| {label} ({b / 1e9:.2f} GB) | {names[tool]} | {len(got)} | {s:.2f} | {each} | "
              f"{b / 1e6 / s:.1f} | {kb / 1024:.1f} | {median([g[2] for g in got]):.2f} |")

print()
print("| export | vs xmllint --stream (goal >= 1.6x) | vs healthkit-to-sqlite (goal >= 12x) | resonance peak RSS (goal < 64 MB) | time over the bare SAX parse's (no goal) |")
print("|---|---|---|---|---|")
missed = []
verdict = lambda ok: "met" if ok else "NOT met"
for label in order:
    r = runs[label]
    rs, rk = r["resonance"]
    xs = r["xmllint"][0]
    cells = [f"{xs / rs:.2f}x {verdict(xs / rs >= 1.6)}"]
    if xs / rs < 1.6:
        missed.append(f"{label}: xmllint")
    if "healthkit-to-sqlite" in r:
        hs = r["healthkit-to-sqlite"][0]
        cells.append(f"{hs / rs:.1f}x {verdict(hs / rs >= 12)}")
        if hs / rs < 12:
            missed.append(f"{label}: healthkit-to-sqlite")
    else:
        cells.append("skipped (SKIP_HK=1)")
    cells.append(f"{rk / 1024:.1f} MB {verdict(rk / 1024 < 64)}")
    if rk / 1024 >= 64:
        missed.append(f"{label}: memory")
    cells.append(f"{rs / r['sax-floor'][0]:.2f}x")
    print(f"| {label} | " + " | ".join(cells) + " |")
print()
print("every goal met on every export" if not missed else "goals not met: " + "; ".join(missed))

# What resonance stored, against what the foreign generator says it wrote.
print()
for label in order:
    try:
        imp = json.load(open(os.path.join(work, f"ingest-{label}.json")))["imports"][0]
    except (OSError, ValueError, KeyError, IndexError) as e:
        print(f"[{label}] no import summary ({e})")
        continue
    err = open(os.path.join(work, f"ingest-{label}.err"), errors="replace").read().splitlines()
    line = (f"[{label}] resonance stored {imp['records_added']} records, {imp['beats_added']} beats, "
            f"{imp['workouts_added']} workouts; {imp['metadata_dropped']} identifying metadata entries dropped; "
            f"{imp['warnings']} warnings; not imported: {imp.get('not_imported') or 'nothing'}; status {imp['status']}")
    print(line)
    for e in err[:5]:
        print(f"    stderr: {e}")
    stats_path = os.path.join(work, label, "export.stats.json")
    if not os.path.exists(stats_path):
        continue
    st = json.load(open(stats_path))
    expect = {
        "records": (st["records_total"], imp["records_added"]),
        "beats": (st["beats"], imp["beats_added"]),
        "workouts": (st["workouts"], imp["workouts_added"]),
        "warnings": (0, imp["warnings"]),
        "identifying metadata dropped (docs/privacy.md)": (
            st["metadata_identifying"] + st["workout_metadata_identifying"] + st["route_metadata_identifying"],
            imp["metadata_dropped"]),
    }
    bad = [f"{k}: wrote {w}, got {g}" for k, (w, g) in expect.items() if w != g]
    print(f"    generator wrote {st['records_total']} records ({st['metadata_share'] * 100:.1f}% with metadata, "
          f"{st['metadata_entries']} entries), {st['beats']} beats, {st['workouts']} workouts: "
          + ("all as expected" if not bad else "DIFFERENT: " + "; ".join(bad)))
PY
