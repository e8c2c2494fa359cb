"""The reference for bench/traces.sh: every line of every trace file under the given paths
parsed with Python's json.loads, one line at a time, nothing kept.

A file ending in .gz is opened with the gzip module (so decompression is timed, as resonance's
is); any other file is read as it is. Blank lines are passed over, as resonance passes them. No
product code: this is what a short Python script would do with the same files. Prints the
files, lines and bytes (decompressed) it read, and its own seconds, as JSON.

    python3 bench/traces_reference.py DIR_OR_FILE...
"""

import gzip
import json
import os
import sys
import time


def files(paths):
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, names in os.walk(path):
                dirs.sort()
                for name in sorted(names):
                    if name.endswith((".jsonl", ".jsonl.gz")):
                        yield os.path.join(root, name)
        else:
            yield path


def main():
    start = time.perf_counter()
    count = lines = size = 0
    for path in files(sys.argv[1:]):
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rb") as f:
            count += 1
            for line in f:
                size += len(line)
                if line.strip():
                    json.loads(line)
                    lines += 1
    seconds = time.perf_counter() - start
    print(json.dumps({"files": count, "lines": lines, "bytes": size, "seconds": round(seconds, 3)}))


if __name__ == "__main__":
    main()
