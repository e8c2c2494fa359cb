"""The reference for `make bench-sweep`: resonance's sweep kernel as blocked NumPy.

Reads the DJ's decision log from a resonance store with sqlite3, as `Store.decisionRecords`
and `DecisionLogAssembler` do:

  decisions   in time order (ORDER BY time_ms, import_id, decision); a decision is used when
              preferences have been stated by then (the last `preferences` at or before it),
              they name the policy in force at the last decision, the line has its need,
              context, hour, stress and play-count scale, it has an outcome (listened_ms), it
              has admitted candidates (none lacking components or inputs), its chosen song is
              one of them (the first match) and that row's propensity is positive
  per row     the admitted candidates (rejected IS NULL) by position: the seven components
              c_bpm … c_time_of_day, the logged propensity p, and the transition smoothness
              from the previous song (TransitionController.smoothness: the mean of
              max(0, 1 − |Δbpm|/40) and 1 − min(1, |Δenergy|)) when the decision has one
  reward      keep: 1 − skipped

and folds them as SweepInput's doc comment says: sign +1 for the five matches and −1 for the
two penalties, familiarity times the decision's boost (familiarity_boost, 1 without an
adjuster state or when NULL), and for a decision after a song 0.7 × that plus an offset of
0.3 × smoothness. The preference vectors are read from the CSV `resonance sweep --out` wrote
(its seven weight columns, every point, the preferences in force included).

Then, timed on its own (not the SQL load, not the ridge fit), the same blocked computation as
the kernel, with NumPy's default threading: per block of vectors (--vectors, 2,048) and, inside
it, per block of whole decisions (--rows, at most 512 rows; a longer decision alone):
scores = A_block @ W + offset (one matmul: the offset is an eighth column of A against a row of
ones in W), each decision's maximum subtracted, e = exp((s − max)/temperature) over the block,
each decision's Σe and Σe·q (a sum and a dot product over the decision's rows), the chosen row's
e (a gather); then per decision and vector π = e_chosen / Σe, w = π / p_logged and
dm = Σe·q / Σe, and per vector Σw, Σw², Σw·r, Σdm and max w. The per-decision steps run on
views of the block's rows (np.maximum.reduceat and np.add.reduceat over axis 0 measured 2–4×
slower). q is a fixed per-row keep-rate prediction: a ridge fit (λ = 1) of keep on the chosen
rows' seven components and an intercept, done before the timing — in the loop it costs what any
per-row array would.

Checks, per point: the IPS keep rate Σw·r / decisions and the effective sample size
(Σw)² / Σw² against the CSV's `value` and `effective_sample_size`, 1e-9 relative; prints the
largest differences (and the largest weight's, for information).

Prints one JSON object: decisions, rows, vectors, seconds (the blocked computation), the
checks, what was left out and why. Exits 1 when a check fails (0 with --report: bench/sweep.sh
judges the check after its table), and with a message on bad input.

Every CSV given is checked; the first gives the points, and the others must hold the same.
--rows and --vectors set the block sizes.

usage: sweep_reference.py STORE CSV [CSV…] [--rows N] [--vectors N] [--report]
"""

import csv
import json
import sqlite3
import sys
import time

import numpy as np

TOLERANCE = 1e-9
# Block sizes (whole decisions of at most ROWS_PER_BLOCK rows; vectors); see sweep().
ROWS_PER_BLOCK = 512
VECTORS_PER_BLOCK = 2048
WEIGHT_COLUMNS = [
    "bpm_weight", "energy_weight", "familiarity_weight", "historical_weight", "context_weight",
    "recency_penalty_weight", "time_of_day_penalty_weight",
]
SIGNS = np.array([1, 1, 1, 1, 1, -1, -1], dtype=np.float64)
BASE_SHARE = 0.7      # TransitionController.baseShare
BPM_JUMP_LIMIT = 40.0  # TransitionController.bpmJumpLimit
NEEDS = {"energy", "calm", "focus", "mood-lift"}
CONTEXTS = {"workout", "deep-work", "commute", "pre-sleep", "wake-up", "relax", "general"}

DECISIONS_SQL = """
SELECT id, need, context, chosen, preferences, local_hour, stress, max_play_count,
  previous_bpm, previous_energy, previous_valence, consecutive_skips, familiarity_boost,
  listened_ms, skipped
FROM dj_decisions ORDER BY time_ms, import_id, decision
"""
# Every candidate line (admitted and rejected) by decision and position, as the store reads
# them: an admitted one lacking a component's first column or its inputs empties its decision.
CANDIDATES_SQL = """
SELECT decision_id, song,
  c_bpm IS NULL OR artist IS NULL OR bpm IS NULL OR energy IS NULL OR valence IS NULL
    OR plays IS NULL,
  bpm, energy, c_bpm, c_energy, c_familiarity, c_historical, c_context, c_recency,
  c_time_of_day, p
FROM dj_candidates WHERE rejected IS NULL ORDER BY decision_id, position
"""


def load(path):
    """The used decisions' folded rows and per-decision arrays, and what was left out."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    decisions = con.execute(DECISIONS_SQL).fetchall()
    rows = con.execute(CANDIDATES_SQL).fetchall()
    con.close()

    # Candidate lines grouped by decision id: [first, end) into `rows`.
    ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
    cut = np.flatnonzero(np.diff(ids)) + 1
    starts = np.concatenate(([0], cut))
    ends = np.concatenate((cut, [len(rows)]))
    span = {int(ids[s]): (int(s), int(e)) for s, e in zip(starts, ends)}

    # The preferences in force at each decision, and the policy at the last.
    policies = {}
    in_force = []
    current = None
    for d in decisions:
        if d[4] is not None:
            current = d[4]
            if current not in policies:
                policies[current] = json.loads(current)["policy"]
        in_force.append(current)
    if in_force and in_force[-1] is not None:
        policy = policies[in_force[-1]]
    else:
        policy = {"kind": "softmax", "temperature": 0.05, "epsilon": 0}  # the app's default
    if policy["kind"] != "softmax":
        sys.exit(f"error: the log's policy is {policy['kind']}; the reference does softmax only")

    excluded = {}
    used_rows = []     # (first, end) into `rows` of each used decision
    chosen = []        # the chosen row, counted from the decision's first
    previous = []      # (bpm, energy) of the song before, or None
    boost = []
    kept = []
    for d, prefs in zip(decisions, in_force):
        (did, need, context, song, _, hour, stress, max_plays, p_bpm, p_energy, p_valence,
         skips, fam_boost, listened, skipped) = d
        first, end = span.get(did, (0, 0))
        replayable = (prefs is not None and need in NEEDS and context in CONTEXTS
                      and hour is not None and stress is not None and max_plays is not None
                      and end > first and not any(rows[i][2] for i in range(first, end)))
        if not replayable:
            why = "cannot be replayed"
        elif policies[prefs] != policy:
            why = "logged under another policy"
        elif listened is None:
            why = "no outcome"
        else:
            at = next((i - first for i in range(first, end) if rows[i][1] == song), None)
            if at is None:
                why = "chosen song not among the admitted"
            elif not rows[first + at][12] > 0:
                why = "chosen with propensity 0"
            else:
                why = None
        if why:
            excluded[why] = excluded.get(why, 0) + 1
            continue
        used_rows.append((first, end))
        chosen.append(at)
        blends = p_bpm is not None and p_energy is not None and p_valence is not None
        previous.append((p_bpm, p_energy) if blends else None)
        boost.append(fam_boost if skips is not None and fam_boost is not None else 1.0)
        kept.append(0.0 if skipped == 1 else 1.0)

    counts = np.array([e - f for f, e in used_rows], dtype=np.int64)
    take = np.concatenate([np.arange(f, e) for f, e in used_rows]) if used_rows else \
        np.zeros(0, dtype=np.int64)
    numeric = np.array([rows[i][3:] for i in take], dtype=np.float64).reshape(-1, 10)
    bpm, energy = numeric[:, 0], numeric[:, 1]
    components = numeric[:, 2:9]
    propensity = numeric[:, 9]

    n = len(used_rows)
    row_start = np.concatenate(([0], np.cumsum(counts)))
    decision_of_row = np.repeat(np.arange(n), counts)
    blends = np.array([p is not None for p in previous], dtype=bool)
    prev_bpm = np.array([p[0] if p else np.nan for p in previous], dtype=np.float64)
    prev_energy = np.array([p[1] if p else np.nan for p in previous], dtype=np.float64)
    boost = np.array(boost, dtype=np.float64)

    # Smoothness from the song before (0 without one), then the fold.
    tempo = np.maximum(0.0, 1 - np.abs(bpm - prev_bpm[decision_of_row]) / BPM_JUMP_LIMIT)
    energy_c = 1 - np.minimum(1.0, np.abs(energy - prev_energy[decision_of_row]))
    row_blends = blends[decision_of_row]
    smoothness = np.where(row_blends, (tempo + energy_c) / 2, 0.0)
    folded = components * SIGNS
    folded[:, 2] *= boost[decision_of_row]
    folded = np.where(row_blends[:, None], BASE_SHARE * folded, folded)
    offset = np.where(row_blends, (1 - BASE_SHARE) * smoothness, 0.0)

    chosen_row = row_start[:-1] + np.array(chosen, dtype=np.int64)
    return {
        "folded": folded, "offset": offset, "components": components,
        "row_start": row_start, "chosen_row": chosen_row,
        "logged": propensity[chosen_row], "keep": np.array(kept, dtype=np.float64),
        "temperature": float(policy["temperature"]), "excluded": excluded,
    }


def ridge_keep(components, chosen_row, keep, lam=1.0):
    """q per row: a ridge fit (λ on the slopes) of keep on the chosen rows' components."""
    x = np.hstack((np.ones((len(chosen_row), 1)), components[chosen_row]))
    penalty = lam * np.eye(x.shape[1])
    penalty[0, 0] = 0
    beta = np.linalg.solve(x.T @ x + penalty, x.T @ keep)
    return np.hstack((np.ones((len(components), 1)), components)) @ beta


def blocks(row_start, rows_per_block):
    """[(d0, d1)]: runs of whole decisions of at most rows_per_block rows (a longer one alone)."""
    out = []
    d0, n = 0, len(row_start) - 1
    while d0 < n:
        d1 = int(np.searchsorted(row_start, row_start[d0] + rows_per_block, side="right")) - 1
        d1 = min(max(d1, d0 + 1), n)
        out.append((d0, d1))
        d0 = d1
    return out


def sweep(data, weights, q, rows_per_block, vectors_per_block):
    """Per vector Σw, Σw², Σw·r, Σdm and max w, block by block: the timed computation.

    Blocks of vectors outside, blocks of whole decisions inside (each block's scores are
    rows × vectors, reused in place). Within a block the per-decision steps run on views of
    the block's rows: a reduction over a decision's rows is a vectorised loop across the
    vectors, where np.maximum.reduceat / np.add.reduceat over axis 0 measured 2–4× slower.
    """
    row_start, chosen_row = data["row_start"], data["chosen_row"]
    logged, keep = data["logged"], data["keep"]
    inverse_temperature = 1 / data["temperature"]
    # The offset as an eighth column against a row of ones: A_block @ W + offset in one matmul.
    a = np.ascontiguousarray(np.hstack((data["folded"], data["offset"][:, None])))
    m = len(weights)
    sum_w = np.zeros(m)
    sum_w2 = np.zeros(m)
    sum_wr = np.zeros(m)
    sum_dm = np.zeros(m)
    max_w = np.zeros(m)
    plan = blocks(row_start, rows_per_block)
    largest = max(int(row_start[d1] - row_start[d0]) for d0, d1 in plan)
    most = max(d1 - d0 for d0, d1 in plan)
    for j0 in range(0, m, vectors_per_block):
        j1 = min(m, j0 + vectors_per_block)
        w8 = np.ascontiguousarray(np.vstack((weights[j0:j1].T, np.ones((1, j1 - j0)))))
        scratch = np.empty((largest, j1 - j0))
        total_scratch = np.empty((most, j1 - j0))
        direct_scratch = np.empty((most, j1 - j0))
        for d0, d1 in plan:
            r0, r1 = int(row_start[d0]), int(row_start[d1])
            bounds = (row_start[d0:d1 + 1] - r0).tolist()
            s = scratch[:r1 - r0]
            np.matmul(a[r0:r1], w8, out=s)
            for b, e in zip(bounds[:-1], bounds[1:]):
                v = s[b:e]
                v -= v.max(axis=0)
            s *= inverse_temperature
            np.exp(s, out=s)
            total = total_scratch[:d1 - d0]
            direct = direct_scratch[:d1 - d0]
            qb = q[r0:r1]
            for i, (b, e) in enumerate(zip(bounds[:-1], bounds[1:])):
                np.sum(s[b:e], axis=0, out=total[i])
                np.dot(qb[b:e], s[b:e], out=direct[i])
            w = s[chosen_row[d0:d1] - r0]
            w /= total
            w /= logged[d0:d1, None]
            sum_w[j0:j1] += w.sum(axis=0)
            sum_w2[j0:j1] += np.einsum("dj,dj->j", w, w)
            sum_wr[j0:j1] += keep[d0:d1] @ w
            direct /= total
            sum_dm[j0:j1] += direct.sum(axis=0)
            np.maximum(max_w[j0:j1], w.max(axis=0), out=max_w[j0:j1])
    return sum_w, sum_w2, sum_wr, sum_dm, max_w, len(plan)


def read_csv(path):
    """The points' weights (vectors × 7) and their value, ESS and largest weight."""
    with open(path, newline="", encoding="utf-8") as f:
        table = list(csv.DictReader(f))
    missing = [c for c in WEIGHT_COLUMNS + ["value", "effective_sample_size", "largest_weight"]
               if table and c not in table[0]]
    if not table or missing:
        sys.exit(f"error: {path}: no points, or no column {', '.join(missing)}")
    weights = np.array([[float(r[c]) for c in WEIGHT_COLUMNS] for r in table], dtype=np.float64)

    def column(name):
        return np.array([float(r[name]) if r[name] != "" else np.nan for r in table])
    return weights, column("value"), column("effective_sample_size"), column("largest_weight")


def largest_relative(ours, theirs):
    """The largest relative difference and where (NaN on one side only counts as infinite)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        diff = np.abs(ours - theirs) / np.maximum(np.abs(theirs), 1e-300)
    diff = np.where(np.isnan(ours) & np.isnan(theirs), 0.0, diff)
    diff = np.where(np.isnan(ours) ^ np.isnan(theirs), np.inf, diff)
    at = int(np.argmax(diff))
    return float(diff[at]), at


def option(args, name, default):
    """The integer after `name` in args (removed from them), or default."""
    if name not in args:
        return default
    i = args.index(name)
    value = int(args[i + 1])
    del args[i:i + 2]
    return value


def main():
    args = sys.argv[1:]
    report_only = "--report" in args
    args = [a for a in args if a != "--report"]
    rows_per_block = option(args, "--rows", ROWS_PER_BLOCK)
    vectors_per_block = option(args, "--vectors", VECTORS_PER_BLOCK)
    if len(args) < 2:
        sys.exit("usage: sweep_reference.py STORE CSV [CSV…] [--rows N] [--vectors N] [--report]")
    data = load(args[0])
    n = len(data["chosen_row"])
    if n == 0:
        sys.exit("error: no decision can be evaluated")
    tables = [read_csv(path) for path in args[1:]]
    weights = tables[0][0]
    for path, table in zip(args[2:], tables[1:]):
        if not np.array_equal(table[0], weights):
            sys.exit(f"error: {path} has other points than {args[1]}")
    q = ridge_keep(data["components"], data["chosen_row"], data["keep"])

    started = time.perf_counter()
    sum_w, sum_w2, sum_wr, sum_dm, max_w, block_count = sweep(
        data, weights, q, rows_per_block, vectors_per_block)
    seconds = time.perf_counter() - started

    ips = sum_wr / n
    with np.errstate(invalid="ignore", divide="ignore"):
        our_ess = np.where(sum_w2 > 0, sum_w * sum_w / sum_w2, 0.0)
    checks = []
    for path, (_, value, ess, largest_weight) in zip(args[1:], tables):
        value_diff, value_at = largest_relative(ips, value)
        ess_diff, ess_at = largest_relative(our_ess, ess)
        weight_diff, weight_at = largest_relative(max_w, largest_weight)
        checks.append({
            "csv": path,
            "value_max_relative_difference": value_diff, "value_worst_point": value_at,
            "value_there": [float(ips[value_at]), float(value[value_at])],
            "ess_max_relative_difference": ess_diff, "ess_worst_point": ess_at,
            "ess_there": [float(our_ess[ess_at]), float(ess[ess_at])],
            "largest_weight_max_relative_difference": weight_diff,
            "largest_weight_worst_point": weight_at,
            "agree": bool(value_diff <= TOLERANCE and ess_diff <= TOLERANCE),
        })
    agree = all(c["agree"] for c in checks)
    print(json.dumps({
        "decisions": n, "rows": int(data["row_start"][-1]), "vectors": len(weights),
        "blocks": block_count, "rows_per_block": rows_per_block,
        "vectors_per_block": vectors_per_block, "seconds": seconds,
        "temperature": data["temperature"], "excluded": data["excluded"],
        "dm": "q = ridge fit (lambda 1) of keep on the chosen rows' seven components, per row",
        "dm_mean_of_points": float(np.mean(sum_dm / n)),
        "tolerance": TOLERANCE, "checks": checks, "agree": agree,
    }))
    sys.exit(0 if agree or report_only else 1)


if __name__ == "__main__":
    main()
