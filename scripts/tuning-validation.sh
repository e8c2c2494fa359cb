#!/usr/bin/env bash
# The tuning stage against simulated people whose hidden preferences are known
# (docs/validation.md, "Tuning"). Three experiments:
#   (people are --person app-model, the tuner's own model of a person, unless said)
#   1. estimates match reality: 40 Sobol points' offline keep-rate estimates on seed 1's
#      12-month log against the keep rate the simulated DJ really gets with each of them over
#      the 3 months after that year (Spearman, interval coverage, bias);
#   2. tuning helps: seeds 1, 2, 3: tune --reward keep on 12 months, then the 3 months after
#      with the tuned file, the app's defaults and the person's own weights (the oracle);
#   3. no false wins: the null person (--person null), 10 seeds of 6 months: tune and
#      tune --by-context.
# Usage: scripts/tuning-validation.sh [BIN] [WORK] [EXPERIMENTS]   (defaults:
# .build/release/resonance, .bench/tuning-validation, "1 2 3"). Simulated years are reused when
# present; delete WORK to start again.
set -euo pipefail

BIN=${1:-.build/release/resonance}
WORK=${2:-.bench/tuning-validation}
EXPERIMENTS=${3:-1 2 3}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)

# A year of a simulated person, ingested and analysed; reused when present.
year() {  # year NAME SEED MONTHS [synth options…]
  local name=$1 seed=$2 months=$3
  shift 3
  local dir="$WORK/$name"
  if [ ! -f "$dir.sqlite" ]; then
    rm -rf "$dir" "$dir.sqlite"
    "$BIN" synth --out "$dir" --seed "$seed" --months "$months" --scale 0.1 --quiet "$@"
    "$BIN" ingest "$dir" --db "$dir.sqlite" --quiet
    "$BIN" analyze --db "$dir.sqlite" --quiet
  fi
}

# The DJ's true skip share over 3 months from START with a preference file.
skip_share() {  # skip_share SEED START FILE [synth options…]
  local seed=$1 start=$2 file=$3
  shift 3
  local out="$WORK/after-$seed-$(basename "$file" .json)"
  rm -rf "$out"
  "$BIN" synth --out "$out" --seed "$seed" --start "$start" --months 3 --scale 0.05 \
    --dj-preferences "$file" --quiet "$@"
  python3 -c "import json,sys; p=json.load(open(sys.argv[1]))['plays']; print(p['dj_skipped']/p['by_dj'])" \
    "$out/truth.json"
  rm -rf "$out"
}

# A preference file with the given seven weights on the app's other settings.
preferences() {  # preferences FILE bpm energy familiarity historical context recency tod
  python3 - "$@" <<'EOF'
import json, sys
path, *w = sys.argv[1:]
keys = ["bpmWeight", "energyWeight", "familiarityWeight", "historicalWeight", "contextWeight",
        "recencyPenaltyWeight", "timeOfDayPenaltyWeight"]
prefs = {"morningBPMCap": 120, "morningStartHour": 5, "morningEndHour": 9, "nightBPMCap": 95,
         "nightStartHour": 22, "nightEndHour": 5, "recencyWindowMinutes": 240,
         "repeatBlockMinutes": 60, "sameArtistLimit": 0, "sameArtistWindow": 3,
         "nightHardCapBPM": 110,
         "policy": {"kind": "softmax", "temperature": 0.05, "epsilon": 0}}
prefs.update({k: float(v) for k, v in zip(keys, w)})
json.dump({"format": "resonance.preferences", "version": 1, "recommendation": "change",
           "preferences": prefs}, open(path, "w"))
EOF
}

APP="$WORK/app.json"
preferences "$APP" 0.25 0.25 0.15 0.2 0.15 0.3 0.2
# The simulated person's own hidden weights (truth.json's person.preferences).
oracle() {  # oracle TRUTH
  python3 - "$1" <<'EOF'
import json, sys
w = json.load(open(sys.argv[1]))["person"]["preferences"]
print(" ".join(str(w[k]) for k in ["bpm", "energy", "familiarity", "historical", "context",
                                   "recency", "time_of_day"]))
EOF
}

run() { case " $EXPERIMENTS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

if run 1; then
echo "== 1. estimates match reality (seed 1, 40 Sobol points, keep rate)"
year seed1 1 12 --person app-model
"$BIN" sweep --db "$WORK/seed1.sqlite" --design sobol --points 40 --reward keep --intervals \
  --out "$WORK/sweep40.csv" --quiet
python3 - "$WORK/sweep40.csv" > "$WORK/points40.txt" <<'EOF'
import csv, sys
for row in csv.DictReader(open(sys.argv[1])):
    w = [row[k] for k in ["bpm_weight", "energy_weight", "familiarity_weight",
                          "historical_weight", "context_weight", "recency_penalty_weight",
                          "time_of_day_penalty_weight"]]
    print(row["point"], row["value"], row["value_low90"], row["value_high90"],
          row["effective_sample_size"], *w)
EOF
: > "$WORK/truth40.txt"
while read -r point value low high ess w1 w2 w3 w4 w5 w6 w7; do
  file="$WORK/point-$point.json"
  preferences "$file" "$w1" "$w2" "$w3" "$w4" "$w5" "$w6" "$w7"
  share=$(skip_share 1 2023-06-01 "$file" --person app-model)
  echo "$point $value $low $high $ess $share" >> "$WORK/truth40.txt"
done < "$WORK/points40.txt"
python3 - "$WORK/truth40.txt" <<'EOF'
import sys
rows = [list(map(float, line.split())) for line in open(sys.argv[1])]
base = rows[0]; rows = rows[1:]  # point 0 is the preferences in force (the app's)
def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i]); r = [0.0] * len(xs); i = 0
    while i < len(xs):
        j = i
        while j + 1 < len(xs) and xs[order[j + 1]] == xs[order[i]]: j += 1
        for k in range(i, j + 1): r[order[k]] = (i + j) / 2
        i = j + 1
    return r
def spearman(a, b):
    ra, rb = ranks(a), ranks(b); n = len(a); ma = sum(ra) / n; mb = sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    return cov / (sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb)) ** 0.5
est = [r[1] for r in rows]; truth = [1 - r[5] for r in rows]
shift = (1 - base[5]) - base[1]  # the logging policy's own estimate against its 3 later months
print(f"points: {len(rows)}; Spearman(estimate, true keep rate) = {spearman(est, truth):.3f} (goal >= 0.8)")
cover = sum(1 for r, t in zip(rows, truth) if r[2] <= t <= r[3])
cover_shifted = sum(1 for r, t in zip(rows, truth) if r[2] + shift <= t <= r[3] + shift)
print(f"90% intervals covering the true keep rate: {cover}/{len(rows)}; after the period shift: {cover_shifted}/{len(rows)}")
bias = [e - t for e, t in zip(est, truth)]
print(f"in force (the logging policy): estimate {base[1]:.3f}, true {1 - base[5]:.3f} (period shift {shift:+.3f})")
print(f"other points: mean estimate - truth {sum(bias)/len(bias):+.3f}, after the period shift {sum(bias)/len(bias) + shift:+.3f}; mean |error| after it {sum(abs(b + shift) for b in bias)/len(bias):.3f}")
ess = sorted(r[4] for r in rows)
print(f"effective sample sizes: median {ess[len(ess)//2]:.0f}, min {ess[0]:.0f}, max {ess[-1]:.0f}")
EOF
fi

if run 2; then
echo
echo "== 2. tuning helps (seeds 1, 2, 3; tune --reward keep on 12 months; the 3 months after)"
for seed in 1 2 3; do
  year "seed$seed" "$seed" 12 --person app-model
  "$BIN" tune --db "$WORK/seed$seed.sqlite" --reward keep --out "$WORK/tuned-$seed.json" --quiet
  preferences "$WORK/oracle-$seed.json" $(oracle "$WORK/seed$seed/truth.json")
  rec=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['recommendation'])" "$WORK/tuned-$seed.json")
  app=$(skip_share "$seed" 2023-06-01 "$APP" --person app-model)
  tuned=$(skip_share "$seed" 2023-06-01 "$WORK/tuned-$seed.json" --person app-model)
  best=$(skip_share "$seed" 2023-06-01 "$WORK/oracle-$seed.json" --person app-model)
  python3 - "$seed" "$rec" "$app" "$tuned" "$best" <<'EOF'
import sys
seed, rec = sys.argv[1], sys.argv[2]; app, tuned, best = map(float, sys.argv[3:])
share = (app - tuned) / (app - best) if app != best else float("nan")
met = "met" if share >= 0.5 else "NOT met"
print(f"seed {seed}: tune says {rec}; DJ skip share: app {app:.3f}, tuned {tuned:.3f}, oracle {best:.3f}; tuned gets {share:.2f} of the oracle's reduction (goal >= 0.5: {met})")
EOF
done
fi

if run 3; then
echo
echo "== 3. no false wins (null person, --person null, 10 seeds of 6 months)"
keeps=0; quiet_contexts=0
for seed in 1 2 3 4 5 6 7 8 9 10; do
  year "null$seed" "$seed" 6 --person null
  "$BIN" tune --db "$WORK/null$seed.sqlite" --out "$WORK/null-$seed.json" --quiet
  "$BIN" tune --db "$WORK/null$seed.sqlite" --by-context --out "$WORK/null-ctx-$seed.json" --json \
    > "$WORK/null-ctx-$seed.out"
  line=$(python3 - "$WORK/null-$seed.json" "$WORK/null-ctx-$seed.out" <<'EOF'
import json, sys
general = json.load(open(sys.argv[1]))
ctx = json.load(open(sys.argv[2]))
claimed = [c["context"] for c in ctx["contexts"] if c["claimed"]]
tried = [c["context"] for c in ctx["contexts"] if not c["reason"].endswith("not tried")]
print(general["recommendation"], len(claimed), len(tried), general["evidence"]["reason"])
EOF
)
  set -- $line
  [ "$1" = keep ] && keeps=$((keeps + 1))
  [ "$2" = 0 ] && quiet_contexts=$((quiet_contexts + 1))
  echo "seed $seed: $1; by context: $2 claimed of $3 tried; ${*:4}"
done
echo "keep on $keeps of 10 (goal >= 9); no context claimed on $quiet_contexts of 10 (goal >= 9)"
fi
