#!/usr/bin/env python3
"""The hand-off's Parquet files read back by pyarrow and DuckDB (`make conformance`).

Usage: parquet_conformance.py COHORT_PARQUET COHORT_CSV DOCS_COHORT_MD

COHORT_PARQUET and COHORT_CSV hold the same persons exported by `resonance export` in each
format. For every person and table, checks that:
- pyarrow reads the file, with each column's type and nullability as docs/cohort.md lists them;
- every value equals the CSV export's (parsed by the documented rules), and, for doubles, bit
  for bit;
- DuckDB reads the file to the same values as pyarrow;
- the manifest's rows and SHA-256 match the files;
and that DuckDB's `read_parquet('…/person=*/TABLE.parquet', hive_partitioning = true)` reads
every table over the whole cohort, with `person` as text and each person's row count.
Prints what it checked; exits 1 on any problem.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import json
import math
import os
import re
import struct
import sys

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

TYPES = {
    "boolean": pa.bool_(),
    "int32": pa.int32(),
    "int64": pa.int64(),
    "double": pa.float64(),
    "string": pa.string(),
    "timestamp[ms, UTC]": pa.timestamp("ms", tz="UTC"),
    "date": pa.date32(),
}


def documented(path: str) -> dict[str, list[tuple[str, str, bool]]]:
    """The column tables under `#### name` in docs/cohort.md."""
    tables: dict[str, list[tuple[str, str, bool]]] = {}
    current = None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("#### "):
            current = line[5:].strip()
            tables[current] = []
        elif line.startswith("#"):
            current = None
        elif current and line.startswith("| `"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            tables[current].append((cells[0].strip("`"), cells[1], cells[2] == "yes"))
    return tables


def parsed(text: str, kind: str):
    """A CSV field as the documented rules write it; None for an empty field."""
    if text == "":
        return None
    if kind == "boolean":
        return {"true": True, "false": False}[text]
    if kind in ("int32", "int64"):
        return int(text)
    if kind == "double":
        return float(text)
    if kind == "timestamp[ms, UTC]":
        m = re.fullmatch(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d{3})?Z", text)
        assert m, f"not an ISO 8601 instant: {text!r}"
        base = dt.datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S").replace(tzinfo=dt.timezone.utc)
        return base + dt.timedelta(milliseconds=int(m.group(2)[1:]) if m.group(2) else 0)
    if kind == "date":
        return dt.date.fromisoformat(text)
    return text


def same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return struct.pack("<d", a) == struct.pack("<d", b) or (math.isnan(a) and math.isnan(b))
    return a == b


def main() -> int:
    parquet_root, csv_root, docs = sys.argv[1:4]
    tables = documented(docs)
    problems: list[str] = []
    checked = {"files": 0, "values": 0}
    persons = sorted(p for p in os.listdir(parquet_root) if p.startswith("person="))
    if len(persons) < 2:
        problems.append(f"{parquet_root}: fewer than two persons")
    rows_by_person: dict[str, dict[str, int]] = {}
    for person in persons:
        folder = os.path.join(parquet_root, person)
        manifest = json.load(open(os.path.join(folder, "manifest.json"), encoding="utf-8"))
        rows_by_person[person] = {}
        for entry in manifest["files"]:
            path = os.path.join(folder, entry["name"])
            data = open(path, "rb").read()
            if hashlib.sha256(data).hexdigest() != entry["sha256"] or len(data) != entry["bytes"]:
                problems.append(f"{path}: not the manifest's size and SHA-256")
        for name, columns in tables.items():
            path = os.path.join(folder, name + ".parquet")
            table = pq.read_table(path)
            checked["files"] += 1
            rows = next(e["rows"] for e in manifest["files"] if e["name"] == name + ".parquet")
            rows_by_person[person][name] = rows
            if table.num_rows != rows:
                problems.append(f"{path}: {table.num_rows} rows, the manifest says {rows}")
            schema = [(f.name, f.type, f.nullable) for f in table.schema]
            expected = [(c, TYPES[t], n) for c, t, n in columns]
            if schema != expected:
                problems.append(f"{path}: schema {schema} is not docs/cohort.md's {expected}")
                continue
            arrow_rows = table.to_pylist()
            duck = duckdb.sql(f"SELECT * FROM read_parquet('{path}')").fetchall()
            with open(os.path.join(csv_root, person, name + ".csv"), newline="", encoding="utf-8") as f:
                reader = csv.reader(f)
                header = next(reader)
                csv_rows = list(reader)
            if header != [c for c, _, _ in columns]:
                problems.append(f"{name}.csv of {person}: header {header}")
            if len(csv_rows) != len(arrow_rows) or len(duck) != len(arrow_rows):
                problems.append(f"{path}: {len(arrow_rows)} rows, CSV {len(csv_rows)}, DuckDB {len(duck)}")
                continue
            for i, (row, line, drow) in enumerate(zip(arrow_rows, csv_rows, duck)):
                for j, (column, kind, _) in enumerate(columns):
                    value = row[column]
                    from_csv = parsed(line[j], kind)
                    if kind == "string" and value == "" and from_csv is None:
                        from_csv = ""  # CSV has one empty field for both
                    if not same(value, from_csv):
                        problems.append(f"{path}: row {i} {column}: pyarrow {value!r}, CSV {from_csv!r}")
                    if not same(value, drow[j]):
                        problems.append(f"{path}: row {i} {column}: pyarrow {value!r}, DuckDB {drow[j]!r}")
                    checked["values"] += 1
    for name in tables:
        pattern = os.path.join(parquet_root, "person=*", name + ".parquet")
        relation = duckdb.sql(
            f"SELECT person, count(*) FROM read_parquet('{pattern}', hive_partitioning = true) GROUP BY person ORDER BY person")
        counts = dict(relation.fetchall())
        person_type = duckdb.sql(
            f"SELECT typeof(person) FROM read_parquet('{pattern}', hive_partitioning = true) LIMIT 1").fetchall()
        if person_type and person_type[0][0] != "VARCHAR":
            problems.append(f"{name}: person read as {person_type[0][0]}")
        for person, rows in rows_by_person.items():
            key = person.split("=", 1)[1]
            if counts.get(key, 0) != rows[name]:
                problems.append(f"{name}: DuckDB's hive read gives {counts.get(key, 0)} rows for {key}, the manifest {rows[name]}")
    print(f"parquet conformance: {len(persons)} persons, {checked['files']} files, {checked['values']:,} values "
          f"(pyarrow {pa.__version__}, DuckDB {duckdb.__version__})")
    for p in problems[:50]:
        print("PROBLEM", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
