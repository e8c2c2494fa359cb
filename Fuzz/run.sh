#!/usr/bin/env bash
# Runs the fuzz harnesses (built by `make fuzz-build`), one at a time, each for SECONDS on its
# corpus in .build/fuzz/corpus/<Harness> (seeded by Fuzz/seed-corpus.py, grown by libFuzzer,
# never committed). Prints a table of what each did — the figures docs/reliability.md keeps —
# and exits 1 when any harness found something, naming the input that reproduces it.
#
# usage: Fuzz/run.sh SECONDS HARNESS...
#
# Environment: FUZZ_RSS_MB (memory limit, MB; default 2048), FUZZ_TIMEOUT (seconds one input
# may take; default 10), FUZZ_MAX_LEN (largest input libFuzzer makes, bytes; default 65536),
# FUZZ_BIN (where the harnesses are; default .build/fuzz/build/debug).
set -uo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 2 ]; then
  echo "usage: Fuzz/run.sh SECONDS HARNESS..." >&2
  exit 64
fi
seconds=$1
shift
bin=${FUZZ_BIN:-.build/fuzz/build/debug}
root=.build/fuzz
rss=${FUZZ_RSS_MB:-2048}
timeout=${FUZZ_TIMEOUT:-10}
max_len=${FUZZ_MAX_LEN:-65536}
mkdir -p "$root/logs"
# The Swift runtime's own backtracer would handle the crash first (and trip AddressSanitizer
# reading the stack); libFuzzer's handler prints the stack and writes the input instead.
export SWIFT_BACKTRACE=enable=no

summary="$root/summary.md"
{
  echo "| harness | seconds | executions | exec/s | coverage (cov / ft) | corpus (files) | peak RSS (MB) | findings |"
  echo "|---|---:|---:|---:|---:|---:|---:|---|"
} >"$summary"
found=()

for harness in "$@"; do
  program="$bin/Fuzz$harness"
  corpus="$root/corpus/$harness"
  findings="$root/findings/$harness"
  log="$root/logs/$harness.log"
  if [ ! -x "$program" ]; then
    echo "error: $program not found: run make fuzz-build" >&2
    exit 1
  fi
  mkdir -p "$corpus" "$findings"
  echo "fuzzing $harness for ${seconds}s ($(ls "$corpus" | wc -l) inputs in $corpus)"
  start=$(date +%s)
  "$program" "$corpus" -max_total_time="$seconds" -rss_limit_mb="$rss" -timeout="$timeout" \
    -max_len="$max_len" -artifact_prefix="$findings/" -print_final_stats=1 >"$log" 2>&1
  status=$?
  elapsed=$(($(date +%s) - start))

  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  peak=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
  coverage=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1 | sed 's/cov: \([0-9]*\) ft: \([0-9]*\)/\1 \/ \2/')
  files=$(ls "$corpus" | wc -l)
  outcome="none"
  if [ "$status" -ne 0 ]; then
    reproducer=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
    # What it was: a Swift trap names itself in the stack ("Swift runtime failure: arithmetic
    # overflow"), a sanitizer or libFuzzer in its report.
    kind=$(grep -m1 -o -E 'Swift runtime failure: [a-zA-Z -]+|Fatal error: .*' "$log" ||
      grep -m1 -o -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer): [a-zA-Z -]+|ALARM: working on the last Unit|out-of-memory' "$log")
    outcome="exit $status: ${kind:-see $log}${reproducer:+ ($reproducer)}"
    found+=("$harness: $outcome; reproduce with $program ${reproducer:-<input>}; log $log")
  fi
  echo "| $harness | $elapsed | ${runs:-?} | ${rate:-?} | ${coverage:-?} | $files | ${peak:-?} | $outcome |" >>"$summary"
  echo "  ${runs:-?} executions, ${rate:-?}/s, cov/ft ${coverage:-?}, corpus $files files: $outcome"
done

echo
cat "$summary"
if [ ${#found[@]} -gt 0 ]; then
  echo
  for finding in "${found[@]}"; do echo "error: $finding" >&2; done
  exit 1
fi
