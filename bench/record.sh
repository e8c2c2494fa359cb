# Sourced by the benchmarks, beside bench/measure.sh: bench_record appends a benchmark's summary
# figures to one results file, from which bench/table.py prints the table of every benchmark
# (make bench writes it into docs/performance.md).
#
#   bench_record BENCH WHAT SECONDS PEAK_KB [REFERENCE REF_SECONDS GOAL]...
#
# BENCH    the benchmark (synth, ingest, listening, analyze, sweep, demo)
# WHAT     what resonance did, for a reader ("resonance ingest, 1,088,869,350-byte export")
# SECONDS  resonance's figure in seconds, as the script prints it (a median where it runs more
#          than once)
# PEAK_KB  resonance's peak RSS in kB (the largest of its runs)
# then one or more triples, each one row of the table (none: one row, no reference, no goal):
# REFERENCE    the reference timed in the same run ("-" or "": none)
# REF_SECONDS  its figure in seconds ("-" or "": none)
# GOAL         "-" or "" for none, else KEY OP NUMBER, OP one of < <= > >=:
#                time OP S      resonance's seconds against S        (time < 10)
#                ratio OP R     resonance's seconds ÷ the reference's (ratio <= 0.25)
#                speed OP X     the reference's seconds ÷ resonance's (speed >= 1.2: 1.2× as fast)
#                rss OP MB      resonance's peak RSS in MB of 1024 kB (rss < 64)
# bench/table.py decides whether each goal is met.
#
# Example (bench/ingest.sh):
#   bench_record ingest "resonance ingest, $BYTES-byte export" "$rs_s" "$rs_kb" \
#     "xmllint --stream --noout" "$xl_s" "speed >= 1.2" "healthkit-to-sqlite" "$hk_s" "speed >= 12" \
#     - - "rss < 64"
#
# The file is $BENCH_RESULTS, else .bench/results.tsv (relative to the repository, where the
# scripts run), tab-separated, one row per triple (see BENCH_RESULTS_HEADER). Each row also
# carries the run (the time this file was sourced and the shell's PID: bench/table.py shows only
# each benchmark's latest run), when it was recorded, the load average when the script started
# and when the row was recorded, the SHA-256 of the binary ($BIN, else the release build) and
# the commit (+uncommitted when Sources or Package.swift differ from it). A malformed call
# stops the benchmark.

BENCH_RESULTS_HEADER='# bench/record.sh v1	run	recorded	bench	what	seconds	peak_kb	reference	ref_seconds	goal	load_start	load_recorded	binary_sha256	commit'
: "${BENCH_RUN_ID:=$(date -u +%Y-%m-%dT%H:%M:%SZ)/$$}"
: "${BENCH_LOAD_START:=$(cut -d' ' -f1-3 /proc/loadavg)}"
BENCH_BIN_SHA=
BENCH_COMMIT=

bench_record() {
  if [ $# -lt 4 ] || [ $((($# - 4) % 3)) -ne 0 ]; then
    echo "error: usage: bench_record BENCH WHAT SECONDS PEAK_KB [REFERENCE REF_SECONDS GOAL]... (got $# arguments)" >&2
    return 1
  fi
  local bench=$1 what=$2 seconds=$3 kb=$4 file=${BENCH_RESULTS:-.bench/results.tsv}
  local number='^[0-9]+([.][0-9]+)?$' goal_re='^(time|ratio|speed|rss) (<|<=|>|>=) [0-9]+([.][0-9]+)?$'
  local ref ref_s goal recorded load bin
  shift 4
  if [ $# -eq 0 ]; then set -- - - -; fi
  what=${what//[$'\t\n']/ }
  if ! [[ $seconds =~ $number ]] || ! [[ $kb =~ ^[0-9]+$ ]]; then
    echo "error: bench_record $bench '$what': seconds '$seconds' and peak kB '$kb' must be numbers" >&2
    return 1
  fi
  if [ -z "$BENCH_BIN_SHA" ]; then
    bin=${BIN:-.build/release/resonance}
    BENCH_BIN_SHA=$(sha256sum "$bin" | cut -c1-12)
    BENCH_COMMIT=$(git rev-parse --short HEAD)
    if [ -n "$(git status --porcelain -- Sources Package.swift)" ]; then
      BENCH_COMMIT="$BENCH_COMMIT+uncommitted"
    fi
  fi
  recorded=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  mkdir -p "$(dirname "$file")"
  if [ ! -s "$file" ]; then echo "$BENCH_RESULTS_HEADER" > "$file"; fi
  while [ $# -gt 0 ]; do
    ref=$1 ref_s=$2 goal=$3
    shift 3
    [ "$ref" != - ] || ref=
    [ "$ref_s" != - ] || ref_s=
    [ "$goal" != - ] || goal=
    ref=${ref//[$'\t\n']/ }
    if [ -n "$ref_s" ] && ! [[ $ref_s =~ $number ]]; then
      echo "error: bench_record $bench '$what': reference seconds '$ref_s' must be a number" >&2
      return 1
    fi
    if { [ -n "$ref" ] && [ -z "$ref_s" ]; } || { [ -z "$ref" ] && [ -n "$ref_s" ]; }; then
      echo "error: bench_record $bench '$what': a reference needs both its name and its seconds" >&2
      return 1
    fi
    if [ -n "$goal" ] && ! [[ $goal =~ $goal_re ]]; then
      echo "error: bench_record $bench '$what': goal '$goal' is not KEY OP NUMBER (time, ratio, speed, rss; < <= > >=)" >&2
      return 1
    fi
    if [[ $goal =~ ^(ratio|speed) ]] && [ -z "$ref_s" ]; then
      echo "error: bench_record $bench '$what': goal '$goal' needs a reference" >&2
      return 1
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$BENCH_RUN_ID" "$recorded" \
      "$bench" "$what" "$seconds" "$kb" "$ref" "$ref_s" "$goal" "$BENCH_LOAD_START" "$load" \
      "$BENCH_BIN_SHA" "$BENCH_COMMIT" >> "$file"
  done
}

# bench_median NUMBER…: the median (the mean of the middle two for an even count), as
# python's statistics.median gives it; an odd count prints the middle number as it was given.
bench_median() {
  printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 }
    END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.6g\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

# bench_max NUMBER…: the largest.
bench_max() {
  printf '%s\n' "$@" | sort -g | tail -1
}
