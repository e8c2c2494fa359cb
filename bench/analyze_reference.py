"""The reference for `make bench-analyze`: the core of `resonance analyze` in vectorised numpy.

Reads a resonance store with sqlite3 and does the work every analysis of the history starts
with, as a competent numpy user would write it:

  sessions   plays in (start, id) order; a play starting more than 30 minutes after the latest
             end so far opens a new session (SessionReconstructor)
  per play   mean heart rate in the 10 minutes before the play and during it; mean HRV in the
             30 minutes before and during the play plus 5 minutes after (PlayBiometrics), with
             the sample counts behind each, from the samples `Store.signal(_:)` reads: Health
             records of the type (value_normalized, placed at their start) UNION ALL the Watch
             trace's biometric_samples column

Windows are half-open [low, high), a sample at the play's start belongs to the play, and a
play's heart-rate window is at least 1 ms long, as in PlayBiometrics.swift. Each window's sum
and count come from sorted time arrays with np.searchsorted and cumulative sums (of the values
less their mean, so the sums stay small and differences of them exact to ~1e-12).

Prints "plays sessions plays_with_hr_delta plays_with_hrv_delta". With --check, also compares
every per-play mean and count with the play_biometrics table `resonance analyze` wrote into the
same store and prints how many agree (counts exactly, means within 1e-9 absolute); exits 1 when
any does not.

usage: analyze_reference.py STORE [--check]
"""

import sqlite3
import sys

import numpy as np

GAP_MS = 30 * 60_000
HR_BEFORE_MS = 10 * 60_000
HRV_BEFORE_MS = 30 * 60_000
HRV_AFTER_MS = 5 * 60_000
TOLERANCE = 1e-9

SIGNAL_SQL = """
SELECT start_ms, value_normalized FROM health_records
WHERE type_id = (SELECT id FROM health_types WHERE identifier = ?)
  AND value_normalized IS NOT NULL
UNION ALL
SELECT time_ms, {column} FROM biometric_samples WHERE {column} IS NOT NULL
ORDER BY 1
"""


def signal(con, identifier, column):
    """(times, prefix sums of value - mean, mean): finite samples in time order."""
    rows = np.array(con.execute(SIGNAL_SQL.format(column=column), (identifier,)).fetchall(),
                    dtype=np.float64).reshape(-1, 2)
    rows = rows[np.isfinite(rows[:, 1])]
    times = rows[:, 0].astype(np.int64)
    values = rows[:, 1]
    mean = values.mean() if len(values) else 0.0
    prefix = np.concatenate(([0.0], np.cumsum(values - mean)))
    return times, prefix, mean


def window(sig, low, high):
    """Mean (NaN where empty) and count of the samples in [low, high), per play."""
    times, prefix, mean = sig
    lo = np.searchsorted(times, low, side="left")
    hi = np.searchsorted(times, high, side="left")
    count = hi - lo
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.where(count > 0, (prefix[hi] - prefix[lo]) / count + mean, np.nan)
    return means, count


def main():
    args = sys.argv[1:]
    check = "--check" in args
    paths = [a for a in args if a != "--check"]
    if len(paths) != 1:
        sys.exit("usage: analyze_reference.py STORE [--check]")
    con = sqlite3.connect(f"file:{paths[0]}?mode=ro", uri=True)

    plays = np.array(
        con.execute("SELECT id, start_ms, end_ms FROM playback_events ORDER BY start_ms, id")
        .fetchall(), dtype=np.int64).reshape(-1, 3)
    ids, start, end = plays[:, 0], plays[:, 1], plays[:, 2]

    # Sessions: a gap is measured from the latest end so far, not the previous play's end.
    latest_end = np.maximum.accumulate(end)
    sessions = int(len(start) > 0) + int(np.count_nonzero(start[1:] - latest_end[:-1] > GAP_MS))

    hr = signal(con, "HKQuantityTypeIdentifierHeartRate", "hr")
    hrv = signal(con, "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", "hrv")
    result = {
        "hr_before": window(hr, start - HR_BEFORE_MS, start),
        "hr_during": window(hr, start, np.maximum(end, start + 1)),
        "hrv_before": window(hrv, start - HRV_BEFORE_MS, start),
        "hrv_during": window(hrv, start, np.maximum(end, start) + HRV_AFTER_MS),
    }
    with_hr = int(np.count_nonzero((result["hr_before"][1] > 0) & (result["hr_during"][1] > 0)))
    with_hrv = int(np.count_nonzero((result["hrv_before"][1] > 0) & (result["hrv_during"][1] > 0)))
    print(len(ids), sessions, with_hr, with_hrv)
    if check:
        sys.exit(compare(con, ids, result))


def compare(con, ids, result):
    """Every figure against play_biometrics; prints the tally, returns the exit code."""
    columns = list(result)
    stored = dict(
        (row[0], row[1:]) for row in con.execute(
            "SELECT play_id, " + ", ".join(f"{c}, {c.replace('_', '_samples_', 1)}"
                                           for c in columns) + " FROM play_biometrics"))
    agree = 0
    worst = 0.0
    disagreements = []
    for i, play in enumerate(ids.tolist()):
        row = stored.get(play)
        ok = row is not None
        for k, c in enumerate(columns):
            if not ok:
                break
            means, counts = result[c]
            theirs, their_count = row[2 * k], row[2 * k + 1]
            mine = None if np.isnan(means[i]) else float(means[i])
            if int(counts[i]) != their_count or (mine is None) != (theirs is None):
                ok = False
            elif mine is not None:
                worst = max(worst, abs(mine - theirs))
                ok = abs(mine - theirs) <= TOLERANCE
        if ok:
            agree += 1
        elif len(disagreements) < 5:
            disagreements.append((play, row, [(float(result[c][0][i]), int(result[c][1][i]))
                                              for c in columns]))
    print(f"check: {agree} of {len(ids)} plays agree with play_biometrics "
          f"(4 means to {TOLERANCE:g} and 4 sample counts each; largest difference {worst:.1e}; "
          f"{len(stored)} rows stored)")
    for play, row, mine in disagreements:
        print(f"  play {play}: stored {row}, reference {mine}", file=sys.stderr)
    return 0 if agree == len(ids) == len(stored) else 1


if __name__ == "__main__":
    main()
