#!/usr/bin/env bash
# `make cohort-check`: the cohort fan-out on a real Slurm, on this machine alone.
#
# Installs Debian's slurm-wlm and munge when missing, under a policy-rc.d that exits 101 (no
# init system here: the packages' scripts must start nothing); starts munged as the munge
# user and slurmctld and slurmd in the foreground (-D) on loopback only, stopped by a trap
# however this script ends; simulates COHORT_PERSONS persons (2 months, --scale 0.1), submits
# them with `sbatch --array --wait` (cohort/slurm-array.sh → cohort/run-person.sh), checks
# every hand-off, submits the array again (every person is skipped: resumable), and pools;
# then runs cohort/Snakefile under Snakemake 7 over four of them and compares the hand-offs.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

PERSONS=${COHORT_PERSONS:-20}
BIN="$ROOT/.build/release/resonance"
WORK="$ROOT/.build/cohort-check"
test -x "$BIN" || { echo "error: $BIN not found: build first (make build)" >&2; exit 1; }

if [ "$(id -u)" -eq 0 ]; then sudo=(); else sudo=(sudo); fi

# --- Slurm and munge from Debian, their services never started by the packages.
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  echo "installing slurm-wlm and munge (Debian) for the cohort check…"
  policy=/usr/sbin/policy-rc.d
  saved=""
  if [ -e "$policy" ]; then saved=$(mktemp); "${sudo[@]}" cp -p "$policy" "$saved"; fi
  printf '#!/bin/sh\nexit 101\n' | "${sudo[@]}" tee "$policy" >/dev/null
  "${sudo[@]}" chmod 755 "$policy"
  restore() {
    if [ -n "$saved" ]; then "${sudo[@]}" cp -p "$saved" "$policy"; else "${sudo[@]}" rm -f "$policy"; fi
  }
  trap restore EXIT
  echo "+ ${sudo[*]:+${sudo[*]} }apt-get install -y slurm-wlm munge"
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
    slurm-wlm munge >/dev/null
  restore
  trap - EXIT
fi

rm -rf "$WORK"
mkdir -p "$WORK"/{state,spool,log,data,stores}
HOST=$(hostname -s)
CPUS=$(nproc)
MEMORY=$(awk '/MemTotal/ { printf "%d", $2 / 1024 * 0.8 }' /proc/meminfo)

# --- munge: a key of its own when the package made none, the daemon as the munge user.
if [ ! -s /etc/munge/munge.key ]; then
  "${sudo[@]}" mungekey --create --force 2>/dev/null \
    || "${sudo[@]}" dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
  "${sudo[@]}" chown munge:munge /etc/munge/munge.key
  "${sudo[@]}" chmod 400 /etc/munge/munge.key
fi
"${sudo[@]}" mkdir -p /run/munge /var/log/munge /var/lib/munge
"${sudo[@]}" chown munge:munge /run/munge /var/log/munge /var/lib/munge
started_munge=0
if ! pgrep -x munged >/dev/null; then
  "${sudo[@]}" runuser -u munge -- /usr/sbin/munged
  started_munge=1
fi

# --- Slurm: one node, loopback only, no accounting.
export SLURM_CONF="$WORK/slurm.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=resonance-check
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=46817
SlurmdPort=46818
SlurmUser=root
AuthType=auth/munge
CommunicationParameters=NoCtldInAddrAny,NoInAddrAny
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
ReturnToService=2
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/log/slurmctld.log
SlurmdLogFile=$WORK/log/slurmd.log
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=$MEMORY State=UNKNOWN
PartitionName=check Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF

pids=()
stop() {
  for pid in "${pids[@]}"; do "${sudo[@]}" kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [ "$started_munge" = 1 ]; then "${sudo[@]}" pkill -x munged || true; fi
}
trap stop EXIT
"${sudo[@]}" env SLURM_CONF="$SLURM_CONF" slurmctld -D -i -f "$SLURM_CONF" \
  >"$WORK/log/slurmctld.out" 2>&1 &
pids+=($!)
"${sudo[@]}" env SLURM_CONF="$SLURM_CONF" slurmd -D -f "$SLURM_CONF" >"$WORK/log/slurmd.out" 2>&1 &
pids+=($!)

# The node comes up idle within seconds; 60 s is a broken configuration.
for _ in $(seq 60); do
  state=$(sinfo -h -N -o '%T' 2>/dev/null | head -1 || true)
  [ "$state" = idle ] && break
  sleep 1
done
if [ "$state" != idle ]; then
  echo "error: the Slurm node is '${state:-not answering}' after 60 s; logs in $WORK/log" >&2
  tail -20 "$WORK"/log/*.log >&2 || true
  exit 1
fi
echo "slurm: node $HOST idle ($CPUS CPUs), loopback only"

# --- The persons: simulated apart from the array, as a study's exports would arrive: a cohort
# from synth --cohort (person i has seed i), each with effects drawn from its planted population.
persons="$WORK/persons.txt"
: >"$persons"
rm -rf "$WORK/data"
"$BIN" synth --out "$WORK/data" --cohort "$PERSONS" --months 2 --scale 0.1 --seed 1 -q
for i in $(seq 1 "$PERSONS"); do
  id=$(printf 'person-%04d' "$i")
  echo "$id $WORK/data/$id" >>"$persons"
done

# Submitted from the project's folder (where the tasks find cohort/run-person.sh), the
# tasks running in WORK (their output files).
submit() {
  sbatch --array=0-$((PERSONS - 1)) --wait --chdir="$WORK" cohort/slurm-array.sh \
    "$persons" "$WORK/cohort" "$WORK/stores" "$BIN" >/dev/null
}
started=$(date +%s)
# sbatch --wait exits with the highest task's status: the check below names what failed.
submit || echo "warning: some tasks of the array failed" >&2
elapsed=$(($(date +%s) - started))

complete=$(grep -l '"complete": true' "$WORK"/cohort/person=*/manifest.json 2>/dev/null | wc -l)
if [ "$complete" -ne "$PERSONS" ]; then
  echo "error: $complete of $PERSONS hand-offs complete; task logs in $WORK" >&2
  tail -5 "$WORK"/resonance-cohort-*.out >&2 || true
  exit 1
fi
# Every task wrote into its own files: nothing in the shared working folder but the tasks' logs.
stray=$(cd "$WORK" && ls -A | grep -v -E '^(state|spool|log|data|stores|cohort|persons\.txt|slurm\.conf|slurm(ctld|d)\.pid|resonance-cohort-.*\.out)$' || true)
if [ -n "$stray" ]; then
  echo "error: the tasks wrote into their working folder: $stray" >&2
  exit 1
fi
echo "slurm: $PERSONS persons through ingest → analyze → breathing → tune → export in ${elapsed} s"

# Resumable: the same array again skips every person and changes no file.
before=$(cat "$WORK"/cohort/person=*/manifest.json | sha256sum)
submit || { echo "error: the second submission failed" >&2; exit 1; }
skipped=$(grep -l "hand-off complete, skipped" "$WORK"/resonance-cohort-*.out | wc -l)
after=$(cat "$WORK"/cohort/person=*/manifest.json | sha256sum)
if [ "$before" != "$after" ] || [ "$skipped" -lt "$PERSONS" ]; then
  echo "error: the second submission re-ran persons ($skipped skipped) or changed a hand-off" >&2
  exit 1
fi
echo "slurm: submitted again, all $PERSONS persons skipped, no hand-off changed"

"$BIN" cohort pool "$WORK/cohort" --out "$WORK/report"
# Beside the population synth planted: 20 persons of 2 months say little (make validate-cohort
# is the judged run), but a pooled figure far from its planted value shows here first.
python3 scripts/validate_cohort.py "$WORK/data/cohort-truth.json" "$WORK/report/pooled.csv" \
  "$WORK/cohort" --informative

# The same pipeline under Snakemake 7 (cohort/Snakefile, local executor) for the first four
# persons: the same hand-offs, byte for byte, but for the time tune ran.
VENV="$ROOT/.build/cohort-venv"
if [ ! -x "$VENV/bin/snakemake" ]; then
  echo "installing snakemake 7 from PyPI into $VENV…"
  python3 -m venv "$VENV"
  # pulp 2.8 renamed the function Snakemake 7 asks for its solvers.
  "$VENV/bin/pip" install --quiet "snakemake<8" "pulp<2.8"
fi
head -4 "$persons" >"$WORK/persons-snakemake.txt"
(cd "$WORK" && "$VENV/bin/snakemake" -s "$ROOT/cohort/Snakefile" --cores "$CPUS" --quiet \
  --config persons="$WORK/persons-snakemake.txt" cohort="$WORK/cohort-snakemake" \
  work="$WORK/stores-snakemake" resonance="$BIN" >"$WORK/log/snakemake.out" 2>&1) \
  || { tail -20 "$WORK/log/snakemake.out" >&2; exit 1; }
for folder in "$WORK"/cohort-snakemake/person=*; do
  for file in "$folder"/*; do
    name=$(basename "$file")
    case "$name" in tuning.parquet | manifest.json) continue ;; esac
    cmp -s "$file" "$WORK/cohort/$(basename "$folder")/$name" \
      || { echo "error: $folder/$name differs from the Slurm run's" >&2; exit 1; }
  done
done
test -s "$WORK/cohort-snakemake-report/cohort.md"
echo "snakemake: 4 persons through cohort/Snakefile, the same hand-offs as Slurm's, pooled"
