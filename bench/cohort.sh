#!/usr/bin/env bash
# The cohort at scale (docs/cohort.md, "At scale"): N hand-off partitions written directly by
# bench/make_cohort.py (pyarrow, from PyPI into .bench/venv), then DuckDB reading every
# person's songs.parquet through the Hive partitions, and resonance cohort pool over them all.
#
#   bench/cohort.sh [N]   (default 10000; BIN= another build)
set -euo pipefail
cd "$(dirname "$0")/.."

N=${1:-10000}
BIN=${BIN:-.build/release/resonance}
WORK=.bench/cohort
VENV=.bench/venv
test -x "$BIN" || { echo "error: $BIN not found: build first (make build)" >&2; exit 1; }
if [ ! -x "$VENV/bin/python" ]; then
  echo "creating $VENV…"
  python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c "import pyarrow, duckdb" 2>/dev/null; then
  echo "installing pyarrow and duckdb from PyPI into $VENV…"
  "$VENV/bin/pip" install --quiet pyarrow duckdb
fi
PY="$VENV/bin/python"
source bench/measure.sh
source bench/record.sh

mkdir -p "$WORK"
if [ "$(ls "$WORK/set" 2>/dev/null | wc -l)" -ne "$N" ]; then
  echo "writing $N hand-off partitions into $WORK/set…"
  rm -rf "$WORK/set"
  "$PY" bench/make_cohort.py "$N" "$WORK/set"
fi

cat >"$WORK/read_partitions.py" <<PY
import duckdb
rows = duckdb.sql("""
  SELECT person, count(*) AS songs, avg(hr_effect) AS mean_hr_effect
  FROM read_parquet('$WORK/set/person=*/songs.parquet', hive_partitioning = true)
  GROUP BY person""").fetchall()
assert len(rows) == $N, len(rows)
print(len(rows))
PY
read -r duck_s duck_kb < <(measure "$PY" "$WORK/read_partitions.py")
read -r pool_s pool_kb < <(measure "$BIN" cohort pool "$WORK/set" --out "$WORK/report" -q)
grep -q '"persons"' <("$BIN" cohort pool "$WORK/set" --out "$WORK/report" --json)

echo "cohort: $N persons: DuckDB read_parquet over the partitions ${duck_s} s (${duck_kb} kB),"
echo "        resonance cohort pool ${pool_s} s (${pool_kb} kB)"
bench_record cohort "resonance cohort pool, $N hand-offs" "$pool_s" "$pool_kb" \
  "DuckDB read_parquet, $N partitions" "$duck_s" - - - "rss < 400"
