#!/usr/bin/env bash
# docs/validation.md, "Twenty fresh years": twelve simulated months per seed, ingested,
# analysed and validated; prints each year's song-interval coverage, the breathing-practice
# estimates against the planted effects, and the sustained changes flagged.
#   scripts/fresh-seeds.sh OUT "EXTRA SYNTH ARGS" SEED...
#   scripts/fresh-seeds.sh /tmp/fresh "" 401 402 403 404 405
#   scripts/fresh-seeds.sh /tmp/stepped "--step 2022-12-10" 301 302 303 304 305
# then: python3 scripts/calming_check.py /tmp/fresh/s401 …
set -u
BIN=${RESONANCE_BIN:-.build/release/resonance}
OUT=$1; shift; EXTRA=$1; shift
mkdir -p "$OUT"
for s in "$@"; do
  d=$OUT/s$s; rm -rf "$d" "$d.sqlite"
  $BIN synth --out "$d" --months 12 --seed "$s" --quiet $EXTRA || exit 1
  $BIN ingest "$d" --db "$d.sqlite" --quiet || exit 1
  $BIN analyze --db "$d.sqlite" --quiet || exit 1
  $BIN validate --truth "$d/truth.json" --db "$d.sqlite" --json > "$OUT/v$s.json"
  python3 - "$OUT/v$s.json" "$s" <<'PY'
import json, sys
v = json.load(open(sys.argv[1])); s = sys.argv[2]
cov = {k: (e['songs'], round(e['interval_coverage'], 3)) for k, e in (v['song_effects'] or {}).items()}
practice = {k: (round(e['planted'], 2), e['estimate'] and round(e['estimate'], 2), e['covered'])
            for k, e in (v['practice'] or {}).items()}
changes = v['changes']
print('seed', s, 'coverage', cov)
print('   practice (planted, estimate, covered)', practice)
print('   changes: planted', changes and changes['planted'],
      {k: (x['flagged'], x['right']) for k, x in (changes['signals'] if changes else {}).items()})
PY
done
