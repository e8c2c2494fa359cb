#!/usr/bin/env python3
"""One Markdown table of every benchmark, from the rows bench/record.sh appended.

    python3 bench/table.py [--results FILE] [--bin BINARY] [--write docs/performance.md]

Reads $BENCH_RESULTS (else .bench/results.tsv), keeps each benchmark's latest run, and prints
a header (the machine, the build, when, the load average before and after) and one row per
recorded figure: resonance's seconds, the reference timed in the same run, the ratio, the goal
and whether it is met, and resonance's peak RSS. --write replaces the text between
<!-- bench-table:start --> and <!-- bench-table:end --> in the given file with the same text.
The machine and the build are read when the table is made (make bench makes it right after the
runs); a row recorded with another binary is pointed out.
"""

import argparse
import datetime
import hashlib
import operator
import os
import platform
import subprocess
import sys

START, END = "<!-- bench-table:start -->", "<!-- bench-table:end -->"
COLUMNS = ("run", "recorded", "bench", "what", "seconds", "peak_kb", "reference", "ref_seconds",
           "goal", "load_start", "load_recorded", "binary_sha256", "commit")
ORDER = ("synth", "ingest", "traces", "listening", "analyze", "sweep", "demo", "cohort", "decade")  # make bench's order
OPS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
SHOWN_OPS = {"<": "<", "<=": "≤", ">": ">", ">=": "≥"}


def read_rows(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) != len(COLUMNS):
                sys.exit(f"error: {path}:{n}: {len(fields)} fields, not {len(COLUMNS)}")
            row = dict(zip(COLUMNS, fields))
            row["seconds"] = float(row["seconds"])
            row["peak_kb"] = int(row["peak_kb"])
            row["ref_seconds"] = float(row["ref_seconds"]) if row["ref_seconds"] else None
            rows.append(row)
    return rows


def latest_runs(rows):
    """Each benchmark's rows from its latest run, in make bench's order, then the others."""
    last = {}
    for r in rows:
        if r["bench"] not in last or r["recorded"] >= last[r["bench"]][0]:
            last[r["bench"]] = (r["recorded"], r["run"])
    kept = [r for r in rows if r["run"] == last[r["bench"]][1]]
    rank = {b: i for i, b in enumerate(ORDER)}
    return sorted(kept, key=lambda r: rank.get(r["bench"], len(ORDER)))  # stable: recorded order


def judge(row):
    """(goal as shown, ratio as shown, met as shown, met or None)."""
    s, ref, mb = row["seconds"], row["ref_seconds"], row["peak_kb"] / 1024
    ratio = f"{s / ref:.3g}×" if ref else "—"
    if not row["goal"]:
        return "—", ratio, "", None
    key, op, limit = row["goal"].split()
    limit_f = float(limit)
    shown = SHOWN_OPS[op]
    if key == "time":
        figure, goal = s, f"{shown} {limit} s"
    elif key == "ratio":
        figure, goal = s / ref, f"{shown} {limit}× the reference's time"
    elif key == "speed":
        inverse = {"<": ">", "<=": "≥", ">": "<", ">=": "≤"}[op]
        figure = ref / s
        goal = f"{shown} {limit}× the reference's speed (ratio {inverse} {1 / limit_f:.3g})"
        ratio = f"{ratio} (speed {figure:.3g}×)"
    else:  # rss
        figure, goal = mb, f"peak RSS {shown} {limit} MB"
    if not ref and key in ("time", "rss"):
        ratio = f"{figure / limit_f:.3g}× the goal"
    met = OPS[op](figure, limit_f)
    return goal, ratio, ("yes" if met else "**no**"), met


def run(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        return out.strip().splitlines()[0] if out.strip() else "?"
    except (OSError, subprocess.CalledProcessError):
        return None


def machine():
    model, flags = None, set()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                k, _, v = line.partition(":")
                k = k.strip()
                if k == "model name" and model is None:
                    model = v.strip()
                elif k in ("flags", "Features") and not flags:
                    flags = set(v.split())
    except OSError:
        pass
    model = model or platform.processor() or platform.machine()
    simd = sorted(flags & {"avx2", "fma", "avx512f", "asimd", "sve"})
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    ram = "? GiB"
    try:
        with open("/proc/meminfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    ram = f"{int(line.split()[1]) / 1024 ** 2:.1f} GiB"
    except OSError:
        pass
    distro = ""
    try:
        with open("/etc/os-release", encoding="utf-8") as f:
            for line in f:
                if line.startswith("PRETTY_NAME="):
                    distro = line.split("=", 1)[1].strip().strip('"') + ", "
    except OSError:
        pass
    swift = run(["swift", "--version"]) or "swift not found"
    return (f"{model}{' (' + ' '.join(simd) + ')' if simd else ''}, {cores} cores, {ram} RAM, "
            f"{distro}Linux {platform.release()}; {swift}")


def build(binary, rows):
    commit = run(["git", "rev-parse", "--short", "HEAD"]) or "?"
    status = subprocess.run(["git", "status", "--porcelain", "--", "Sources", "Package.swift"],
                            capture_output=True, text=True).stdout
    state = ("uncommitted changes in Sources or Package.swift" if status.strip()
             else "Sources and Package.swift as committed")
    parts = [f"commit `{commit}` ({state})"]
    if not os.access(binary, os.X_OK):
        return "; ".join(parts + [f"{binary} not found"]), None
    parts.append(f"`{binary}` says `{run([binary, '--version']) or '?'}`")
    # Which build: the native-CPU one compiles the sweep kernel with -target-cpu native
    # (Package.swift); RESONANCE_PORTABLE=1 builds for the baseline. The release build's
    # command lines are in .build/release.yaml, written with the binary.
    release = os.path.realpath(".build/release")
    if os.path.dirname(os.path.realpath(binary)) == release and os.path.exists(".build/release.yaml"):
        with open(".build/release.yaml", encoding="utf-8") as f:
            manifest = f.read()
        if '"-target-cpu","native"' in manifest:
            kind = "native-CPU build (sweep kernel `-target-cpu native`"
            kind += ", FMA)" if "RESONANCE_FMA" in manifest else ", no FMA)"
        else:
            kind = "portable build (`RESONANCE_PORTABLE=1`: the architecture's baseline)"
        if os.environ.get("RESONANCE_PORTABLE") is not None and "native" in kind:
            kind += "; RESONANCE_PORTABLE is set now, so the next `make build` makes a portable one"
    else:
        kind = ("portable build, by RESONANCE_PORTABLE" if os.environ.get("RESONANCE_PORTABLE")
                is not None else "native-CPU or portable: unknown (not .build/release)")
    parts.append(kind)
    digest = hashlib.sha256()
    with open(binary, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    sha = digest.hexdigest()[:12]
    mtime = os.path.getmtime(binary)
    built = datetime.datetime.fromtimestamp(mtime, datetime.timezone.utc)
    parts.append(f"SHA-256 {sha}…, built {built:%Y-%m-%d %H:%M} UTC")
    newer = [path for path in ["Package.swift"] + [os.path.join(d, n) for d, _, names in
                                                    os.walk("Sources") for n in names]
             if os.path.getmtime(path) > mtime]
    if newer:
        parts.append(f"**{len(newer)} source files changed since it was built** (such as "
                     f"{min(newer, key=os.path.getmtime)})")
    others = sorted({r["binary_sha256"] for r in rows} - {sha})
    note = None
    if others:
        which = sorted({r["bench"] for r in rows if r["binary_sha256"] != sha})
        note = (f"**{', '.join(which)}: recorded with another binary** "
                f"({', '.join(o + '…' for o in others)}; commit "
                f"{', '.join(sorted({r['commit'] for r in rows if r['binary_sha256'] != sha}))})")
    return "; ".join(parts), note


def cell(text):
    return str(text).replace("|", "\\|")


def table(rows, binary, results):
    first = min(rows, key=lambda r: r["run"])
    last = max(rows, key=lambda r: r["recorded"])
    began = first["run"].split("/")[0].replace("T", " ").rstrip("Z")
    ended = last["recorded"].replace("T", " ").rstrip("Z")
    if ended[:10] == began[:10]:
        ended = ended[11:]
    build_line, note = build(binary, rows)
    out = [f"**Machine**: {machine()}.  ",
           f"**Build**: {build_line}.  ",
           f"**Run**: {began} to {ended} UTC; load average (1, 5, 15 min) "
           f"{first['load_start']} when the first benchmark started, "
           f"{last['load_recorded']} after the last.  "]
    if note:
        out.append(note + ".  ")
    out += ["",
            "| benchmark | what | resonance s | reference, same run | reference s | ratio | goal "
            "| met | peak RSS MB |",
            "|---|---|---:|---|---:|---:|---|---|---:|"]
    judged = []
    for r in rows:
        goal, ratio, met_shown, met = judge(r)
        if met is not None:
            judged.append(met)
        ref_s = f"{r['ref_seconds']:.2f}" if r["ref_seconds"] is not None else ""
        out.append(f"| {cell(r['bench'])} | {cell(r['what'])} | {r['seconds']:.2f} "
                   f"| {cell(r['reference']) or '—'} | {ref_s} | {ratio} | {goal} | {met_shown} "
                   f"| {r['peak_kb'] / 1024:.1f} |")
    missing = [b for b in ORDER if b not in {r["bench"] for r in rows}]
    out += ["",
            f"{sum(judged)} of {len(judged)} goals met."
            + (f" No rows from: {', '.join(missing)}." if missing else "")
            + f" From `{results}`: each benchmark's latest run."]
    return "\n".join(out)


def write(path, text):
    with open(path, encoding="utf-8") as f:
        doc = f.read()
    start, end = doc.find(START), doc.find(END)
    if start < 0 or end < start:
        sys.exit(f"error: {path} has no {START} … {END} markers")
    with open(path, "w", encoding="utf-8") as f:
        f.write(doc[:start + len(START)] + "\n" + text + "\n" + doc[end:])


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--results", default=os.environ.get("BENCH_RESULTS") or ".bench/results.tsv",
                   help="the results file (default: $BENCH_RESULTS, else .bench/results.tsv)")
    p.add_argument("--bin", default=os.environ.get("RESONANCE_BIN") or ".build/release/resonance",
                   help="the binary the build line describes (default: $RESONANCE_BIN, else "
                        "the release build)")
    p.add_argument("--write", metavar="FILE",
                   help="also put the table between the bench-table markers in FILE")
    args = p.parse_args()
    # Paths as given, from where it was run; git and .build from the repository.
    results, binary = os.path.abspath(args.results), os.path.abspath(args.bin)
    doc = os.path.abspath(args.write) if args.write else None
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.chdir(root)
    shown = lambda path: path if os.path.relpath(path).startswith("..") else os.path.relpath(path)
    args.results, args.bin = shown(results), shown(binary)
    if not os.path.exists(args.results):
        sys.exit(f"error: {args.results} not found: run make bench (or a make bench-* target)")
    rows = latest_runs(read_rows(args.results))
    if not rows:
        sys.exit(f"error: {args.results} holds no rows: run make bench (or a make bench-* target)")
    text = table(rows, args.bin, args.results)
    print(text)
    if doc:
        write(doc, text)


if __name__ == "__main__":
    main()
