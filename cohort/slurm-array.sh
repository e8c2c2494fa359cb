#!/usr/bin/env bash
# A Slurm job array over a cohort: task i runs person i of PERSONS through
# cohort/run-person.sh (docs/cohort.md, "On a cluster").
#
#   sbatch --array=0-$((N - 1)) cohort/slurm-array.sh PERSONS COHORT WORK [RESONANCE]
#
# Submit it from the folder that holds cohort/ (the tasks find run-person.sh there); add
# --chdir=DIR for where their output files go.
# PERSONS is a file with one line per person, `ID DATA` (the pseudonym, then the folder or
# file of their exports); COHORT the cohort folder the hand-offs go to; WORK a folder for the
# persons' stores; RESONANCE the binary (default: resonance on PATH). Each task is one person
# on one CPU; a task whose person is already complete exits at once, so the same array can be
# submitted again after a failure, and only the persons left over run.
#SBATCH --job-name=resonance-cohort
#SBATCH --cpus-per-task=1
#SBATCH --output=resonance-cohort-%A_%a.out
set -euo pipefail

persons=$1 cohort=$2 work=$3 resonance=${4:-resonance}
task=${SLURM_ARRAY_TASK_ID:?"submit with sbatch --array"}
line=$(sed -n "$((task + 1))p" "$persons")
if [ -z "$line" ]; then
  echo "task $task: no line $((task + 1)) in $persons" >&2
  exit 66
fi
read -r id data <<<"$line"
# sbatch runs a copy of this script from its spool, so run-person.sh is found from the folder
# the array was submitted from (the one holding cohort/), or beside this script when run by
# hand.
runner="${SLURM_SUBMIT_DIR:-.}/cohort/run-person.sh"
[ -x "$runner" ] || runner="$(dirname "$(readlink -f "$0")")/run-person.sh"
exec "$runner" "$resonance" "$data" "$id" "$cohort" "$work"
