#!/usr/bin/env python3
"""Exact comparison of two resonance stores, or of two `--json` outputs.

Called by scripts/compare-stores.sh, which documents the modes:

    compare_stores.py stores A.sqlite B.sqlite [--ignore-column TABLE.COLUMN]...
    compare_stores.py json A.json B.json [--allow-added KEY]...

Exit 0 when equal, 1 when something differs, 2 on a usage or input error.
Standard library only.
"""

import json
import math
import pathlib
import sqlite3
import struct
import sys
import urllib.parse

# What is never compared: wall-clock timings of the runs that wrote the store.
EXCLUDED_TABLES = {"schema_migrations": "migration timestamps"}
EXCLUDED_COLUMNS = {
    "imports": ("started_at_ms", "finished_at_ms"),
    "analysis_runs": ("started_at_ms", "finished_at_ms"),
}
SHOWN_DIFFS = 5  # differing cells printed per table
SHOWN_JSON_DIFFS = 40  # differences printed per JSON pair


class UsageError(Exception):
    pass


# ----------------------------------------------------------------------------- values


def bits(x):
    return struct.pack("<d", x)


def same_value(a, b):
    """Exact equality: same storage class, integers equal, reals bit for bit, texts and blobs equal."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return bits(a) == bits(b)
    return a == b


def show(v):
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, bytes):
        return "x'%s'%s" % (v[:16].hex(), "…" if len(v) > 16 else "")
    if isinstance(v, str):
        s = v if len(v) <= 60 else v[:57] + "…"
        return json.dumps(s, ensure_ascii=False)
    if v is None:
        return "NULL"
    return str(v)


def kind(v):
    return {int: "integer", float: "real", str: "text", bytes: "blob", type(None): "null"}.get(type(v), type(v).__name__)


def float_gap(a, b):
    """Absolute difference of two numbers, or None when one is not a number."""
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) and not isinstance(b, bool):
        try:
            d = abs(float(a) - float(b))
        except OverflowError:
            return math.inf
        return d
    return None


def sort_key(v):
    """SQLite's BINARY ordering across storage classes: NULL < numbers < text < blob."""
    if v is None:
        return (0, 0)
    if isinstance(v, (int, float)):
        return (1, v)
    if isinstance(v, str):
        return (2, v.encode("utf-8"))
    return (3, v)


# ----------------------------------------------------------------------------- stores


def open_store(path):
    p = pathlib.Path(path)
    if not p.is_file():
        raise UsageError("no such store: %s" % path)
    uri = "file:%s?mode=ro" % urllib.parse.quote(str(p.resolve()))
    con = sqlite3.connect(uri, uri=True)
    con.text_factory = str
    return con


def qi(name):
    return '"' + name.replace('"', '""') + '"'


def schema_objects(con):
    rows = con.execute(
        "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
    ).fetchall()
    return {(t, n): (tbl, sql) for t, n, tbl, sql in rows}


def columns(con, table):
    # name, declared type, not null, default, position in the primary key (0 = not in it), hidden
    return [
        (r[1], r[2], r[3], r[4], r[5], r[6]) for r in con.execute("PRAGMA table_xinfo(%s)" % qi(table)).fetchall()
    ]


def without_rowid(con, table):
    try:
        con.execute("SELECT rowid FROM %s LIMIT 0" % qi(table))
        return False
    except sqlite3.OperationalError:
        return True


def ordering(con, table, kind_, cols):
    """(key column expressions, key names, positional) for reading a table in a stable order."""
    if kind_ == "view":
        exprs = [qi(c) + " COLLATE BINARY" for c in cols]
        return exprs, [], True
    pk = sorted((c for c in columns(con, table) if c[4] > 0), key=lambda c: c[4])
    if pk:
        return [qi(c[0]) + " COLLATE BINARY" for c in pk], [c[0] for c in pk], False
    if without_rowid(con, table):  # cannot happen: WITHOUT ROWID needs a primary key
        exprs = [qi(c) + " COLLATE BINARY" for c in cols]
        return exprs, [], True
    return ["rowid"], ["rowid"], False


def read_rows(con, table, key_names, order_exprs, cols, positional):
    select = [qi(k) if k != "rowid" else "rowid" for k in key_names] + [qi(c) for c in cols]
    if positional:
        select = [qi(c) for c in cols]
    sql = "SELECT %s FROM %s ORDER BY %s" % (", ".join(select) or "1", qi(table), ", ".join(order_exprs) or "1")
    cur = con.execute(sql)
    nk = 0 if positional else len(key_names)
    i = 0
    while True:
        chunk = cur.fetchmany(5000)
        if not chunk:
            return
        for row in chunk:
            i += 1
            if positional:
                yield (i,), row
            else:
                yield row[:nk], row[nk:]


def show_key(key_names, key, positional):
    if positional:
        return "row %d" % key[0]
    return "(" + ", ".join("%s=%s" % (n, show(v)) for n, v in zip(key_names, key)) + ")"


def rows_equal(ra, rb):
    if ra != rb:
        return False
    for x, y in zip(ra, rb):
        if type(x) is not type(y):
            return False
        if x == 0 and isinstance(x, float) and bits(x) != bits(y):
            return False
    return True


def compare_table(ca, cb, table, kind_, ignored_extra):
    """Returns (equal, lines)."""
    lines_detail = []
    problems = []
    cols_a = columns(ca, table)
    cols_b = columns(cb, table)
    names_a = [c[0] for c in cols_a]
    names_b = [c[0] for c in cols_b]
    if cols_a != cols_b:
        only_a = [n for n in names_a if n not in names_b]
        only_b = [n for n in names_b if n not in names_a]
        if only_a:
            problems.append("columns only in A: %s" % ", ".join(only_a))
        if only_b:
            problems.append("columns only in B: %s" % ", ".join(only_b))
        changed = [
            n for n in names_a if n in names_b and cols_a[names_a.index(n)][1:] != cols_b[names_b.index(n)][1:]
        ]
        if changed:
            problems.append("column definitions differ: %s" % ", ".join(changed))
        if not only_a and not only_b and not changed:
            problems.append("column order differs")

    excluded = list(EXCLUDED_COLUMNS.get(table, ())) + sorted(ignored_extra.get(table, ()))
    for c in excluded:
        if c not in names_a and c not in names_b:
            problems.append("excluded column %s does not exist" % c)
    common = [n for n in names_a if n in names_b and n not in excluded]

    n_a = ca.execute("SELECT count(*) FROM %s" % qi(table)).fetchone()[0]
    n_b = cb.execute("SELECT count(*) FROM %s" % qi(table)).fetchone()[0]
    if n_a != n_b:
        problems.append("%d rows in A, %d in B" % (n_a, n_b))

    order_a, keys_a, pos_a = ordering(ca, table, kind_, common)
    order_b, keys_b, pos_b = ordering(cb, table, kind_, common)
    if (keys_a, pos_a) != (keys_b, pos_b):
        problems.append("keys differ: %s in A, %s in B" % (",".join(keys_a) or "none", ",".join(keys_b) or "none"))
        # read both in A's order where B has the same columns, else positionally
        if all(k in names_b or k == "rowid" for k in keys_a):
            order_b, keys_b, pos_b = order_a, keys_a, pos_a
        else:
            order_a, keys_a, pos_a = [qi(c) for c in common], [], True
            order_b, keys_b, pos_b = order_a, keys_a, pos_a
    key_names, positional = keys_a, pos_a

    it_a = read_rows(ca, table, key_names, order_a, common, positional)
    it_b = read_rows(cb, table, key_names, order_b, common, positional)
    ra = next(it_a, None)
    rb = next(it_b, None)
    differing_rows = 0
    only_a = 0
    only_b = 0
    per_column = {}
    largest_gap = None
    shown = 0
    while ra is not None or rb is not None:
        if rb is None or (ra is not None and [sort_key(v) for v in ra[0]] < [sort_key(v) for v in rb[0]]):
            only_a += 1
            if shown < SHOWN_DIFFS:
                lines_detail.append("    %s  only in A" % show_key(key_names, ra[0], positional))
                shown += 1
            ra = next(it_a, None)
            continue
        if ra is None or [sort_key(v) for v in rb[0]] < [sort_key(v) for v in ra[0]]:
            only_b += 1
            if shown < SHOWN_DIFFS:
                lines_detail.append("    %s  only in B" % show_key(key_names, rb[0], positional))
                shown += 1
            rb = next(it_b, None)
            continue
        if not rows_equal(ra[1], rb[1]) or not rows_equal(ra[0], rb[0]):
            differing_rows += 1
            for col, x, y in zip(common, ra[1], rb[1]):
                if same_value(x, y):
                    continue
                per_column[col] = per_column.get(col, 0) + 1
                gap = float_gap(x, y)
                if gap is not None and (largest_gap is None or gap > largest_gap[0]):
                    largest_gap = (gap, col, show_key(key_names, ra[0], positional))
                if shown < SHOWN_DIFFS:
                    note = ""
                    if type(x) is not type(y):
                        note = "  (%s in A, %s in B)" % (kind(x), kind(y))
                    lines_detail.append(
                        "    %s  %s: A=%s  B=%s%s" % (show_key(key_names, ra[0], positional), col, show(x), show(y), note)
                    )
                    shown += 1
        ra = next(it_a, None)
        rb = next(it_b, None)

    if differing_rows:
        problems.append(
            "%d rows differ (%s)" % (differing_rows, ", ".join("%s: %d" % kv for kv in sorted(per_column.items())))
        )
    if only_a:
        problems.append("%d keys only in A" % only_a)
    if only_b:
        problems.append("%d keys only in B" % only_b)
    if largest_gap is not None:
        problems.append("largest absolute difference %r (%s at %s)" % largest_gap)
    total_shown = differing_rows + only_a + only_b
    if total_shown and shown < sum(per_column.values()) + only_a + only_b:
        lines_detail.append("    …")

    label = table + (" (view)" if kind_ == "view" else "")
    suffix = ""
    if excluded:
        suffix = "  (not compared: %s)" % ", ".join(excluded)
    if problems:
        return False, ["DIFF  %-28s %s%s" % (label, "; ".join(problems), suffix)] + lines_detail
    return True, ["same  %-28s %d rows%s" % (label, n_a, suffix)]


def compare_stores(path_a, path_b, ignored_extra):
    """Prints one line per table (and per schema check) as it goes; returns whether all is equal."""
    ca = open_store(path_a)
    cb = open_store(path_b)
    equal = True

    def emit(lines):
        for line in lines:
            print(line, flush=True)

    ua = ca.execute("PRAGMA user_version").fetchone()[0]
    ub = cb.execute("PRAGMA user_version").fetchone()[0]
    if ua == ub:
        emit(["same  %-28s %d" % ("(user_version)", ua)])
    else:
        equal = False
        emit(["DIFF  %-28s A=%d  B=%d" % ("(user_version)", ua, ub)])

    oa = schema_objects(ca)
    ob = schema_objects(cb)

    # indexes and triggers: same names on the same tables with the same SQL
    aux_a = {k: v for k, v in oa.items() if k[0] in ("index", "trigger")}
    aux_b = {k: v for k, v in ob.items() if k[0] in ("index", "trigger")}
    if aux_a == aux_b:
        emit(["same  %-28s %d" % ("(indexes and triggers)", len(aux_a))])
    else:
        equal = False
        lines = ["DIFF  %-28s %d in A, %d in B" % ("(indexes and triggers)", len(aux_a), len(aux_b))]
        for k in sorted(set(aux_a) | set(aux_b)):
            if k not in aux_b:
                lines.append("    %s %s only in A" % k)
            elif k not in aux_a:
                lines.append("    %s %s only in B" % k)
            elif aux_a[k] != aux_b[k]:
                lines.append("    %s %s defined differently" % k)
        emit(lines)

    rel_a = {n: t for (t, n) in oa if t in ("table", "view")}
    rel_b = {n: t for (t, n) in ob if t in ("table", "view")}
    for name in sorted(set(ignored_extra) - (set(rel_a) | set(rel_b))):
        raise UsageError("--ignore-column names a table neither store has: %s" % name)
    for name in sorted(set(rel_a) | set(rel_b)):
        if name not in rel_b:
            equal = False
            emit(["DIFF  %-28s only in A (%s)" % (name, rel_a[name])])
            continue
        if name not in rel_a:
            equal = False
            emit(["DIFF  %-28s only in B (%s)" % (name, rel_b[name])])
            continue
        if rel_a[name] != rel_b[name]:
            equal = False
            emit(["DIFF  %-28s a %s in A, a %s in B" % (name, rel_a[name], rel_b[name])])
            continue
        if name in EXCLUDED_TABLES:
            emit(["skip  %-28s (excluded: %s)" % (name, EXCLUDED_TABLES[name])])
            continue
        if rel_a[name] == "view" and oa[("view", name)][1] != ob[("view", name)][1]:
            equal = False
            emit(["DIFF  %-28s the view's definition differs" % (name + " (view)")])
        ok, lines = compare_table(ca, cb, name, rel_a[name], ignored_extra)
        equal = equal and ok
        emit(lines)
    return equal


def main_stores(args):
    paths = []
    ignored = {}
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--ignore-column" or a.startswith("--ignore-column="):
            if "=" in a:
                v = a.split("=", 1)[1]
            else:
                i += 1
                if i >= len(args):
                    raise UsageError("--ignore-column needs TABLE.COLUMN")
                v = args[i]
            if "." not in v:
                raise UsageError("--ignore-column needs TABLE.COLUMN, found %r" % v)
            t, c = v.split(".", 1)
            ignored.setdefault(t, set()).add(c)
        elif a.startswith("-"):
            raise UsageError("unknown option %s" % a)
        else:
            paths.append(a)
        i += 1
    if len(paths) != 2:
        raise UsageError("stores needs two stores: A.sqlite B.sqlite")
    print("compare stores  A=%s  B=%s" % tuple(paths))
    for t in sorted(ignored):
        print("note  %-28s ignored on request: %s" % (t, ", ".join(sorted(ignored[t]))))
    equal = compare_stores(paths[0], paths[1], ignored)
    print("stores: same" if equal else "stores: DIFFERENT")
    return 0 if equal else 1


# ----------------------------------------------------------------------------- JSON


# Keys that end in _seconds but hold a measured value, not a run's timing: compared like any other.
NOT_TIMINGS = {"lag_seconds"}  # breathing: the breath's lag behind the pacer (breathing_results.lag_s)


def is_timing_key(k):
    return k not in NOT_TIMINGS and (k == "seconds" or k.endswith("_seconds"))


def jkind(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "real"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def jshow(v):
    if isinstance(v, (dict, list)):
        s = json.dumps(v, ensure_ascii=False, sort_keys=True)
        return s if len(s) <= 80 else s[:77] + "…"
    if isinstance(v, float):
        return repr(v)
    return json.dumps(v, ensure_ascii=False)


def jpath(parent, key):
    if isinstance(key, int):
        return "%s[%d]" % (parent, key)
    if key.isidentifier():
        return "%s.%s" % (parent, key)
    return "%s[%s]" % (parent, json.dumps(key, ensure_ascii=False))


class JsonCompare:
    def __init__(self, allow_added):
        self.allow_added = set(allow_added)
        self.diffs = []  # (tag, path, text)
        self.allowed = []
        self.notes = []
        self.numbers = 0
        self.ignored = 0
        self.largest_gap = None

    def walk(self, a, b, path):
        ka, kb = jkind(a), jkind(b)
        if ka in ("integer", "real") and kb in ("integer", "real"):
            self.numbers += 1
            if ka != kb or (ka == "real" and bits(a) != bits(b)) or (ka == "integer" and a != b):
                gap = float_gap(a, b)
                if gap is not None and (self.largest_gap is None or gap > self.largest_gap[0]):
                    self.largest_gap = (gap, path)
                note = "" if ka == kb else "  (%s in A, %s in B)" % (ka, kb)
                self.diffs.append(("DIFF", path, "A=%s  B=%s%s" % (jshow(a), jshow(b), note)))
            return
        if ka != kb:
            self.diffs.append(("DIFF", path, "A=%s  B=%s  (%s in A, %s in B)" % (jshow(a), jshow(b), ka, kb)))
            return
        if ka == "object":
            for k in a:
                if is_timing_key(k):
                    self.ignored += 1
                    continue
                if k not in b:
                    self.diffs.append(("REMOVED", jpath(path, k), "A=%s" % jshow(a[k])))
                else:
                    self.walk(a[k], b[k], jpath(path, k))
            for k in b:
                if k in a or is_timing_key(k):
                    if k not in a:
                        self.ignored += 1
                    continue
                if k in self.allow_added:
                    self.allowed.append(("ADDED", jpath(path, k), "B=%s  (allowed)" % jshow(b[k])))
                else:
                    self.diffs.append(("ADDED", jpath(path, k), "B=%s" % jshow(b[k])))
            if list(k for k in a if k in b) != list(k for k in b if k in a):
                # not a value: reported, not counted
                self.notes.append(("ORDER", path, "the same keys in another order"))
            return
        if ka == "array":
            for i in range(min(len(a), len(b))):
                self.walk(a[i], b[i], jpath(path, i))
            for i in range(len(b), len(a)):
                self.diffs.append(("REMOVED", jpath(path, i), "A=%s" % jshow(a[i])))
            for i in range(len(a), len(b)):
                self.diffs.append(("ADDED", jpath(path, i), "B=%s" % jshow(b[i])))
            return
        if a != b:
            self.diffs.append(("DIFF", path, "A=%s  B=%s" % (jshow(a), jshow(b))))


def load_json(path):
    p = pathlib.Path(path)
    if not p.is_file():
        raise UsageError("no such file: %s" % path)
    text = p.read_text(encoding="utf-8")
    try:
        # object_pairs_hook keeps duplicate keys visible as a difference in key order/content
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise UsageError("%s: not JSON: %s" % (path, e))


def main_json(args):
    paths = []
    allow = []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--allow-added" or a.startswith("--allow-added="):
            if "=" in a:
                allow.append(a.split("=", 1)[1])
            else:
                i += 1
                if i >= len(args):
                    raise UsageError("--allow-added needs a key")
                allow.append(args[i])
        elif a.startswith("-"):
            raise UsageError("unknown option %s" % a)
        else:
            paths.append(a)
        i += 1
    if len(paths) != 2:
        raise UsageError("json needs two files: A.json B.json")
    a = load_json(paths[0])
    b = load_json(paths[1])
    cmp = JsonCompare(allow)
    cmp.walk(a, b, "$")
    for tag, path, text in cmp.diffs[:SHOWN_JSON_DIFFS]:
        print("%-7s %s  %s" % (tag, path, text))
    if len(cmp.diffs) > SHOWN_JSON_DIFFS:
        print("…       %d more differences" % (len(cmp.diffs) - SHOWN_JSON_DIFFS))
    for tag, path, text in cmp.allowed + cmp.notes:
        print("%-7s %s  %s" % (tag, path, text))
    name = "%s vs %s" % (paths[0], paths[1])
    facts = "%d numbers compared, %d timing keys ignored" % (cmp.numbers, cmp.ignored)
    if cmp.diffs:
        extra = ""
        if cmp.largest_gap is not None:
            extra = "; largest absolute difference %r at %s" % cmp.largest_gap
        print("DIFF  %s  %d differences (%s%s)" % (name, len(cmp.diffs), facts, extra))
        return 1
    print("same  %s  (%s)" % (name, facts))
    return 0


def main(argv):
    if len(argv) < 1 or argv[0] not in ("stores", "json"):
        raise UsageError("usage: compare_stores.py stores A B [--ignore-column T.C]... | json A B [--allow-added KEY]...")
    if argv[0] == "stores":
        return main_stores(argv[1:])
    return main_json(argv[1:])


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except UsageError as e:
        print("compare-stores: error: %s" % e, file=sys.stderr)
        sys.exit(2)
    except sqlite3.Error as e:
        print("compare-stores: sqlite error: %s" % e, file=sys.stderr)
        sys.exit(2)
