#!/usr/bin/env bash
# compare-stores.sh — shows that two builds of resonance store and report the same values.
#
# It proves, for one data set, that a new build writes a store identical to the old build's
# (every table and view, every row, every value: integers equal, reals bit for bit, texts and
# NULLs equal) and prints the same analyze, breathing, validate and status JSON (every number
# exactly). Only wall-clock timings are left out: the table schema_migrations, the
# started_at_ms/finished_at_ms columns of imports and analysis_runs, and JSON keys named
# `seconds` or ending in `_seconds` (except `lag_seconds`, a measured breathing lag, which is
# compared). Nothing else is skipped unless asked for on the command line, and the output
# names what was skipped.
#
# Two things differ between two runs of the same build, so `run` offers an option for each:
#   --ignore-column breathing_results.analysed_at_ms   the wall-clock time `breathing` wrote
#                                                     its rows (a timing column by nature)
#   --deterministic-hashing   runs both builds with SWIFT_DETERMINISTIC_HASHING=1. Without it,
#       a build from before e699e8e gives analyze's JSON `song_responses.*.genre_sd` a last
#       bit that differs from run to run: it summed the genre means in Dictionary order, which
#       Swift randomises per process (later builds sum them in genre order).
#
# Usage:
#   scripts/compare-stores.sh stores A.sqlite B.sqlite [--ignore-column TABLE.COLUMN]...
#       One line per table: `same  TABLE  N rows`, or `DIFF  TABLE  …` followed by the first
#       differing rows (key, column, value in A, value in B) and the largest absolute
#       difference of the numbers that differ.
#   scripts/compare-stores.sh json A.json B.json [--allow-added KEY]...
#       Every difference with its path (`$.song_responses.hr.noise_sd`); keys on one side only
#       are ADDED (only in B) or REMOVED (only in A) and count as differences, except a key
#       named with --allow-added that exists only in B.
#   scripts/compare-stores.sh run OLD_BIN NEW_BIN DATA_DIR WORK_DIR [--allow-added KEY]...
#                                 [--ignore-column TABLE.COLUMN]... [--deterministic-hashing]
#       For each binary: a fresh store WORK_DIR/{old,new}.sqlite, `ingest DATA_DIR`,
#       `analyze --json`, `breathing --json`, `validate --truth DATA_DIR/truth.json --json`,
#       `status --json`; outputs in WORK_DIR/{old,new}-{analyze,breathing,validate,status}.json,
#       standard error in WORK_DIR/{old,new}-*.log, step times in WORK_DIR/timings.txt. Then the
#       two stores and each pair of outputs are compared as above, and a one-line verdict ends it.
#       The store records file paths as given, so compare runs made with the same DATA_DIR.
#
# Example (a 12-month simulated person, the old build against the new):
#   old/.build/release/resonance synth --out /tmp/year12 --months 12
#   scripts/compare-stores.sh run old/.build/release/resonance .build/release/resonance \
#       /tmp/year12 /tmp/old-vs-new --deterministic-hashing \
#       --ignore-column breathing_results.analysed_at_ms
#
# Exit status: 0 everything equal, 1 something differs, 2 a usage or input error (or a command
# that failed in `run`). Needs bash and python3 (standard library only: scripts/compare_stores.py).

set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
compare_py="$here/compare_stores.py"

usage() {
  sed -n '/^# Usage:/,/^# that failed in/p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  exit "${1:-2}"
}

die() {
  echo "compare-stores: error: $*" >&2
  exit 2
}

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# run_step SIDE BIN STEP OUT ERR ARGS… — runs one command, records its time and exit code
# in the globals step_rc and step_seconds; never stops the script itself.
run_step() {
  local side=$1 bin=$2 step=$3 out=$4 err=$5
  shift 5
  local t0 t1
  t0=$(now)
  step_rc=0
  if [[ $out == "$err" ]]; then
    "$bin" "$@" >"$out" 2>&1 || step_rc=$?
  else
    "$bin" "$@" >"$out" 2>"$err" || step_rc=$?
  fi
  t1=$(now)
  step_seconds=$(elapsed "$t0" "$t1")
  printf '%-4s %-10s %8s s  exit %d\n' "$side" "$step" "$step_seconds" "$step_rc" | tee -a "$work/timings.txt"
}

run_mode() {
  [[ $# -ge 4 ]] || usage
  local old_bin=$1 new_bin=$2 data=$3
  work=$4
  shift 4
  local json_opts=() store_opts=() hashing=random
  while [[ $# -gt 0 ]]; do
    case $1 in
      --allow-added) [[ $# -ge 2 ]] || die "--allow-added needs a key"; json_opts+=(--allow-added "$2"); shift 2 ;;
      --allow-added=*) json_opts+=("$1"); shift ;;
      --ignore-column) [[ $# -ge 2 ]] || die "--ignore-column needs TABLE.COLUMN"; store_opts+=(--ignore-column "$2"); shift 2 ;;
      --ignore-column=*) store_opts+=("$1"); shift ;;
      --deterministic-hashing) hashing=deterministic; shift ;;
      *) die "unknown option for run: $1" ;;
    esac
  done
  [[ -x $old_bin ]] || die "OLD_BIN is not an executable: $old_bin"
  [[ -x $new_bin ]] || die "NEW_BIN is not an executable: $new_bin"
  [[ -d $data ]] || die "DATA_DIR is not a folder: $data"
  [[ -f $data/truth.json ]] || die "no truth.json in $data"
  mkdir -p "$work"
  : >"$work/timings.txt"
  if [[ $hashing == deterministic ]]; then
    export SWIFT_DETERMINISTIC_HASHING=1
    echo "note: both builds run with SWIFT_DETERMINISTIC_HASHING=1" | tee -a "$work/timings.txt"
  fi

  declare -A rc_of=()
  local side bin db
  for side in old new; do
    if [[ $side == old ]]; then bin=$old_bin; else bin=$new_bin; fi
    db="$work/$side.sqlite"
    rm -f "$db" "$db-wal" "$db-shm" "$db-journal"
    rm -f "$work/$side"-{ingest,analyze,breathing,validate,status}.{json,log}
    echo "$side: $("$bin" --version 2>&1 || true) ($bin)" | tee -a "$work/timings.txt"

    # ingest prints its summary on standard error; standard output goes to the log as well
    run_step "$side" "$bin" ingest "$work/$side-ingest.log" "$work/$side-ingest.log" \
      ingest "$data" --db "$db"
    [[ $step_rc -eq 0 ]] || die "$side ingest ($bin ingest $data) exited $step_rc; see $work/$side-ingest.log"

    run_step "$side" "$bin" analyze "$work/$side-analyze.json" "$work/$side-analyze.log" \
      analyze --db "$db" --json
    [[ $step_rc -eq 0 ]] || die "$side analyze ($bin analyze) exited $step_rc; see $work/$side-analyze.log"

    run_step "$side" "$bin" breathing "$work/$side-breathing.json" "$work/$side-breathing.log" \
      breathing --db "$db" --json
    rc_of[$side-breathing]=$step_rc
    run_step "$side" "$bin" validate "$work/$side-validate.json" "$work/$side-validate.log" \
      validate --truth "$data/truth.json" --db "$db" --json
    rc_of[$side-validate]=$step_rc
    run_step "$side" "$bin" status "$work/$side-status.json" "$work/$side-status.log" \
      status --db "$db" --json
    rc_of[$side-status]=$step_rc
  done

  local failures=() step rc
  echo
  echo "== exit codes"
  for step in breathing validate status; do
    if [[ ${rc_of[old-$step]} -ne ${rc_of[new-$step]} ]]; then
      echo "DIFF  $step exits ${rc_of[old-$step]} (old), ${rc_of[new-$step]} (new)"
      failures+=("$step exit code")
    else
      echo "same  $step exits ${rc_of[old-$step]}"
    fi
  done

  echo
  echo "== stores"
  rc=0
  python3 "$compare_py" stores "$work/old.sqlite" "$work/new.sqlite" ${store_opts[@]+"${store_opts[@]}"} || rc=$?
  [[ $rc -le 1 ]] || die "comparing the stores failed (exit $rc)"
  [[ $rc -eq 0 ]] || failures+=("stores")

  for step in analyze breathing validate status; do
    echo
    echo "== $step --json"
    rc=0
    python3 "$compare_py" json "$work/old-$step.json" "$work/new-$step.json" ${json_opts[@]+"${json_opts[@]}"} || rc=$?
    [[ $rc -le 1 ]] || die "comparing the $step outputs failed (exit $rc)"
    [[ $rc -eq 0 ]] || failures+=("$step json")
  done

  echo
  if [[ ${#failures[@]} -eq 0 ]]; then
    echo "VERDICT: same — the stores and every output are equal ($old_bin vs $new_bin on $data)"
    return 0
  fi
  local IFS=,
  echo "VERDICT: DIFFERENT — ${failures[*]} (see above; outputs in $work)"
  return 1
}

[[ $# -ge 1 ]] || usage
mode=$1
shift
case $mode in
  stores | json) exec python3 "$compare_py" "$mode" "$@" ;;
  run) run_mode "$@" ;;
  -h | --help | help) usage 0 ;;
  *) echo "compare-stores: error: unknown mode '$mode'" >&2; usage ;;
esac
