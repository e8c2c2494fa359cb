#!/usr/bin/env python3
"""The architecture lint: the house rules of ../shared/DESIGN.md that a compiler does not check.

Run by `make lint` after `swift format lint`. It reads `Sources/` and `Package.swift` under the
repository root (the folder above this script, or `--root`), prints every finding as
`path:line: error: message`, sorted, and exits 1 when there is any; otherwise it prints one
summary line and exits 0. Python 3 standard library only.

The checks (docs/architecture.md, "What `make lint` checks"):

1. CLI line budget: all of `Sources/ResonanceCLI/**/*.swift` together has at most
   `CLI_LINE_BUDGET` lines. The finding points at the largest file.
2. No command names another command: in `Sources/ResonanceCLI/Commands/`, a file that declares
   a command type does not mention another command type. Command types are the names matching
   `[A-Z][A-Za-z0-9]*Command` declared there with `struct`, `enum` or `final class`, and any
   type declared there as conforming to `ParsableCommand`. Comments are ignored.
3. No SQL outside the Store: no Swift string literal outside `Sources/ResonanceStore/` holds
   upper-case SQL (`SQL_PATTERNS`). Single-line, multi-line (`\"\"\"`) and raw (`#"…"#`) literals
   are read by a small lexer that also skips comments; an interpolation's code is not part of
   its literal.
4. No positional row read outside `Sources/ResonanceStore/SQLite/`: `ROW_READ_PATTERNS`, in code
   (not comments or strings) of the files that are in `ResonanceStore` or import it. A heuristic,
   kept narrow so that numeric code stays clear of it: the method forms `.string(3)`, `.int(3)`,
   `.optionalInt64(3)` with a literal index (Row's positional readers; nothing else in those
   files takes a bare integer that way), and a subscript with a literal index read as a value,
   `x[3].double` / `.string` / `.int64` (SQLiteValue's accessors), only on receivers a row goes
   by: `row`, `r`, a name ending in `Row`/`row`, `$0` or `$1` (optionally `?`-chained). So
   `values[0]` or `samples[i].value` never match; a row under another name (`sample[0].double`)
   is missed, the price of no false positives.
5. No file over `MAX_FILE_LINES` lines in `Sources/` unless `scripts/lint-allow.txt` lists it
   (`path  reason`, `#` comments) with a reason. An entry without a reason, for a file that is
   no longer over the limit, or for a file that no longer exists is itself a finding.
6. The import graph: every `import` (with any attribute or access level) in a module's folder
   names a module in `ALLOWED_IMPORTS[module]` or `ALWAYS_ALLOWED`; the dependencies of each
   of those targets in `Package.swift` are held to the same graph; a C module is imported only
   as `internal import` (DESIGN: no C type appears in a signature outside the wrappers). A
   folder of `Sources/` that is neither in the graph nor a C module is a finding too.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

# ---------------------------------------------------------------------------------------------
# The rules as data. The module table is ../shared/DESIGN.md's ("Modules (SwiftPM targets)"),
# the one source of truth for who may import whom; change it there first, then here.

# 2,500 when the rule was set, with thirteen commands; each command added since brings at most
# 100 lines of its own (export, cohort).
CLI_LINE_BUDGET = 2_800
MAX_FILE_LINES = 600
ALLOW_LIST = "scripts/lint-allow.txt"

# The system-library targets, one per Debian C library (CZstd may arrive later).
C_MODULES = {"CSQLite", "CXML", "CArchive", "CCrypto", "CBLAS", "CFFT", "CGSL", "CZstd", "CCmark"}

# Modules every target may import: the platform's.
ALWAYS_ALLOWED = {
    "Foundation", "FoundationEssentials", "Dispatch", "Synchronization", "Glibc", "Darwin", "os",
}

_BELOW_STAGES = {
    "ResonanceModel": {"Foundation"},
    "ResonanceIO": {"ResonanceModel", "CCrypto", "CArchive", "CXML", "CZstd", "CCmark"},
    "ResonanceIngest": {"ResonanceModel", "ResonanceIO"},
    "ResonanceStore": {"ResonanceModel", "CSQLite"},
    "ResonanceLinear": {"CBLAS", "CFFT", "CGSL"},
    "ResonanceBrain": {"ResonanceModel", "ResonanceLinear"},
    "ResonanceTuning": {"ResonanceModel", "ResonanceBrain", "ResonanceLinear"},
    "ResonanceSynth": {"ResonanceModel", "ResonanceIO", "ResonanceBrain"},
    "ResonanceReports": {"ResonanceModel", "ResonanceIO"},
}
ALLOWED_IMPORTS: dict[str, set[str]] = {
    **_BELOW_STAGES,
    # The use cases: the only place that wires Store, Brain, Tuning and Reports together.
    "ResonanceStages": set(_BELOW_STAGES),
    "ResonanceCLI": {"ResonanceStages", "ResonanceModel"},
    "resonance": {"ResonanceCLI"},
}

# Upper-case SQL in a string literal (case matters: prose says "select", SQL says SELECT).
SQL_PATTERNS = [
    r"\bSELECT\b[\s\S]*?\bFROM\b",
    r"\bINSERT\s+INTO\b",
    r"\bINSERT\s+OR\b",
    r"\bUPDATE\s+\w+\s+SET\b",
    r"\bDELETE\s+FROM\b",
    r"\bCREATE\s+(?:TEMP(?:ORARY)?\s+)?TABLE\b",
    r"\bCREATE\s+(?:UNIQUE\s+)?INDEX\b",
    r"\bCREATE\s+(?:TEMP(?:ORARY)?\s+)?VIEW\b",
    r"\bDROP\s+TABLE\b",
    r"\bPRAGMA\s",
    r"\bBEGIN\s+IMMEDIATE\b",
    r"\bALTER\s+TABLE\b",
]

# Positional reads of a Row (see check 4 above for why these and no more).
ROW_READ_PATTERNS = [
    r"\.(?:string|int|optionalInt64)\(\s*\d+\s*\)",
    r"(?<![\w$])(?:r|row|\w*Row|\$[01])\??\s*\[\s*\d+\s*\]\s*\.(?:double|string|int64)\b",
]
ROW_READS_ALLOWED_UNDER = "Sources/ResonanceStore/SQLite/"

# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Finding:
    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: error: {self.message}"


@dataclass
class Literal:
    """A string literal's text, an interpolation standing as one space, and the line each
    character of it is on."""

    text: str
    lines: list[int]


@dataclass
class Lexed:
    """A Swift file split for the checks.

    `code` is the file with its comments blanked out; `bare` has the string literals blanked
    out too (an interpolation's code stays: it is code). Newlines are kept, so offsets give
    the same lines as in the file. `literals` are the file's string literals.
    """

    code: str
    bare: str
    literals: list[Literal]


@dataclass
class _Code:
    # Open parentheses of an interpolation's code; None at the top level.
    depth: int | None


@dataclass
class _String:
    close: str
    escape: str
    multiline: bool
    literal: Literal


def lex_swift(source: str) -> Lexed:
    """Splits Swift source into code, comments and string literals.

    Handles `//` and nested `/* */` comments, `"…"`, `\"\"\"…\"\"\"` and raw `#"…"#`
    literals (any number of `#`), escapes, and interpolations `\\(…)` (`\\#(…)` in a raw
    literal), literals nested inside them included. An unterminated single-line literal ends
    at its line's end.
    """
    code: list[str] = []
    bare: list[str] = []
    literals: list[Literal] = []
    n = len(source)
    line = 1
    stack: list[_Code | _String] = [_Code(None)]
    opener = re.compile(r'(#*)("""|")')

    def put(text: str, kind: str) -> None:
        """Adds source text as code, comment or string (its delimiters and contents)."""
        nonlocal line
        for ch in text:
            blank = "\n" if ch == "\n" else " "
            code.append(blank if kind == "comment" else ch)
            bare.append(ch if kind == "code" else blank)
            if ch == "\n":
                line += 1

    i = 0
    while i < n:
        top = stack[-1]
        ch = source[i]
        if isinstance(top, _Code):
            if source.startswith("//", i):
                end = source.find("\n", i)
                end = n if end < 0 else end
                put(source[i:end], "comment")
                i = end
                continue
            if source.startswith("/*", i):
                level, j = 0, i
                while j < n:
                    if source.startswith("/*", j):
                        level, j = level + 1, j + 2
                    elif source.startswith("*/", j):
                        level, j = level - 1, j + 2
                        if level == 0:
                            break
                    else:
                        j += 1
                put(source[i:j], "comment")
                i = j
                continue
            if ch in '#"' and (m := opener.match(source, i)):
                hashes, quotes = m.group(1), m.group(2)
                literal = Literal("", [])
                literals.append(literal)
                stack.append(_String(quotes + hashes, "\\" + hashes, quotes == '"""', literal))
                put(m.group(0), "string")
                i = m.end()
                continue
            if top.depth is not None and ch == "(":
                top.depth += 1
            elif top.depth is not None and ch == ")":
                top.depth -= 1
                if top.depth == 0:
                    stack.pop()
                    put(ch, "string")
                    inner = stack[-1]
                    assert isinstance(inner, _String)
                    inner.literal.text += " "
                    inner.literal.lines.append(line)
                    i += 1
                    continue
            put(ch, "code")
            i += 1
            continue
        # In a string literal.
        if source.startswith(top.close, i):
            put(top.close, "string")
            stack.pop()
            i += len(top.close)
            continue
        if source.startswith(top.escape, i) and i + len(top.escape) < n:
            after = i + len(top.escape)
            if source[after] == "(":
                put(source[i : after + 1], "string")
                stack.append(_Code(1))
                i = after + 1
                continue
            for c in source[i : after + 1]:
                top.literal.text += c
                top.literal.lines.append(line)
                put(c, "string")
            i = after + 1
            continue
        top.literal.text += ch
        top.literal.lines.append(line)
        put(ch, "string")
        i += 1
        if ch == "\n" and not top.multiline:
            stack.pop()
    return Lexed("".join(code), "".join(bare), literals)


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def line_count(path: Path) -> int:
    with path.open("rb") as f:
        data = f.read()
    return data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)


class Lint:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.findings: list[Finding] = []
        self._lexed: dict[Path, Lexed] = {}
        self.sources = root / "Sources"
        self.swift_files = sorted(self.sources.rglob("*.swift")) if self.sources.is_dir() else []

    def rel(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()

    def lexed(self, path: Path) -> Lexed:
        if path not in self._lexed:
            self._lexed[path] = lex_swift(path.read_text(encoding="utf-8", errors="replace"))
        return self._lexed[path]

    def report(self, path: Path | str, line: int, message: str) -> None:
        name = path if isinstance(path, str) else self.rel(path)
        self.findings.append(Finding(name, line, message))

    def module_of(self, path: Path) -> str:
        return path.relative_to(self.sources).parts[0]

    # 1 ----------------------------------------------------------------------------------------
    def check_cli_budget(self) -> None:
        files = [p for p in self.swift_files if self.rel(p).startswith("Sources/ResonanceCLI/")]
        if not files:
            return
        counts = {p: line_count(p) for p in files}
        total = sum(counts.values())
        if total > CLI_LINE_BUDGET:
            largest = max(files, key=lambda p: (counts[p], self.rel(p)))
            self.report(
                largest, 1,
                f"Sources/ResonanceCLI has {total:,} lines of Swift, over its budget of "
                f"{CLI_LINE_BUDGET:,} (its largest file, {counts[largest]:,} lines, is this one): "
                "move work into the stages layer")

    # 2 ----------------------------------------------------------------------------------------
    def check_commands(self) -> None:
        folder = self.sources / "ResonanceCLI" / "Commands"
        files = [p for p in self.swift_files if folder in p.parents]
        declared: dict[Path, set[str]] = {}
        declaration = re.compile(
            r"\b(?:struct|enum|final\s+class)\s+([A-Z][A-Za-z0-9]*Command)\b"
            r"|\b(?:struct|enum|class)\s+([A-Z][A-Za-z0-9]*)\s*(?:<[^>{]*>)?\s*:[^{]*"
            r"\bParsableCommand\b")
        for path in files:
            names = set()
            for match in declaration.finditer(self.lexed(path).code):
                names.add(match.group(1) or match.group(2))
            declared[path] = names
        commands = set().union(*declared.values()) if declared else set()
        if not commands:
            return
        mention = re.compile(r"\b(" + "|".join(sorted(map(re.escape, commands))) + r")\b")
        for path in files:
            own = declared[path]
            if not own:
                continue
            code = self.lexed(path).code
            for match in mention.finditer(code):
                if match.group(1) in own:
                    continue
                self.report(
                    path, line_of(code, match.start()),
                    f"{'/'.join(sorted(own))} names {match.group(1)}: a command calls a stage, "
                    "never another command")

    # 3 ----------------------------------------------------------------------------------------
    def check_sql(self) -> None:
        patterns = [re.compile(p) for p in SQL_PATTERNS]
        files = [
            p for p in self.swift_files if not self.rel(p).startswith("Sources/ResonanceStore/")
        ]
        if (self.root / "Package.swift").is_file():
            files.append(self.root / "Package.swift")
        for path in files:
            for literal in self.lexed(path).literals:
                hits = [m for p in patterns if (m := p.search(literal.text))]
                if not hits:
                    continue
                first = min(hits, key=lambda m: m.start())
                snippet = " ".join(first.group(0).split())
                if len(snippet) > 40:
                    snippet = snippet[:37] + "..."
                self.report(
                    path, literal.lines[first.start()],
                    f"SQL in a string literal ('{snippet}'): SQL lives in ResonanceStore")

    # 4 ----------------------------------------------------------------------------------------
    def check_row_reads(self) -> None:
        patterns = [re.compile(p) for p in ROW_READ_PATTERNS]
        imports_store = re.compile(
            r"^[ \t]*(?:@\w+[ \t]+)*(?:\w+[ \t]+)?import[ \t]+ResonanceStore\b", re.M)
        for path in self.swift_files:
            name = self.rel(path)
            if name.startswith(ROW_READS_ALLOWED_UNDER):
                continue
            bare = self.lexed(path).bare
            if not (name.startswith("Sources/ResonanceStore/") or imports_store.search(bare)):
                continue
            for p in patterns:
                for m in p.finditer(bare):
                    self.report(
                        path, line_of(bare, m.start()),
                        f"positional row read '{m.group(0)}': read the column by name, as "
                        "row.int64(\"id\") does (positions are for Store/SQLite only)")

    # 5 ----------------------------------------------------------------------------------------
    def check_file_sizes(self) -> None:
        allowed: dict[str, tuple[int, str]] = {}
        allow_path = self.root / ALLOW_LIST
        if allow_path.is_file():
            for number, raw in enumerate(allow_path.read_text(encoding="utf-8").splitlines(), 1):
                entry = raw.split("#", 1)[0].strip()
                if not entry:
                    continue
                parts = entry.split(None, 1)
                if len(parts) < 2:
                    self.report(ALLOW_LIST, number, f"'{parts[0]}' is allowed without a reason")
                allowed[parts[0]] = (number, parts[1] if len(parts) > 1 else "")
        files = sorted(p for p in self.sources.rglob("*") if p.is_file())
        for path in files:
            name = self.rel(path)
            count = line_count(path)
            if count <= MAX_FILE_LINES:
                continue
            if name in allowed:
                continue
            self.report(
                path, 1,
                f"{count:,} lines, over the {MAX_FILE_LINES}-line limit: split it by concern "
                f"(Type+Concern.swift), or list it in {ALLOW_LIST} with a reason")
        for name, (number, _) in sorted(allowed.items()):
            path = self.root / name
            if not path.is_file():
                self.report(ALLOW_LIST, number, f"stale entry: {name} does not exist")
            elif line_count(path) <= MAX_FILE_LINES:
                self.report(
                    ALLOW_LIST, number,
                    f"stale entry: {name} has {line_count(path):,} lines, within the "
                    f"{MAX_FILE_LINES}-line limit; remove it")

    # 6 ----------------------------------------------------------------------------------------
    def c_modules(self) -> set[str]:
        found = {
            d.name for d in self.sources.iterdir()
            if d.is_dir() and (d / "module.modulemap").is_file()
        } if self.sources.is_dir() else set()
        return C_MODULES | found

    def check_imports(self) -> None:
        c_modules = self.c_modules()
        statement = re.compile(
            r"^[ \t]*((?:@[\w]+(?:\([^)\n]*\))?[ \t]+)*)"
            r"((?:public|package|internal|fileprivate|private)[ \t]+)?import[ \t]+"
            r"(?:(?:typealias|struct|class|enum|protocol|let|var|func)[ \t]+)?([A-Za-z_]\w*)",
            re.M)
        if self.sources.is_dir():
            for folder in sorted(d for d in self.sources.iterdir() if d.is_dir()):
                if folder.name not in ALLOWED_IMPORTS and folder.name not in c_modules:
                    first = min(folder.rglob("*.swift"), default=None)
                    self.report(
                        first or folder, 1,
                        f"module {folder.name} is not in DESIGN.md's module table "
                        "(add it there and to ALLOWED_IMPORTS in scripts/lint-architecture.py)")
        for path in self.swift_files:
            module = self.module_of(path)
            allowed = ALLOWED_IMPORTS.get(module)
            bare = self.lexed(path).bare
            for m in statement.finditer(bare):
                attributes, access, name = m.group(1) or "", (m.group(2) or "").strip(), m.group(3)
                line = line_of(bare, m.start(3))
                if name in c_modules and (access != "internal" or "@_exported" in attributes):
                    self.report(
                        path, line,
                        f"C module {name} imported without 'internal import': no C type may "
                        "appear in a signature outside the wrapper")
                if allowed is None or name in allowed or name in ALWAYS_ALLOWED:
                    continue
                self.report(
                    path, line,
                    f"{module} imports {name}, which DESIGN.md's table does not allow "
                    f"({module} may import: {', '.join(sorted(allowed)) or 'nothing'})")
        self.check_package()

    def check_package(self) -> None:
        package = self.root / "Package.swift"
        if not package.is_file():
            return
        text = lex_swift(package.read_text(encoding="utf-8")).code
        for m in re.finditer(r"\.(?:target|executableTarget)\s*\(", text):
            body_start = m.end()
            level, j = 1, body_start
            while j < len(text) and level:
                level += {"(": 1, ")": -1}.get(text[j], 0)
                j += 1
            body = text[body_start : j - 1]
            name_match = re.search(r'\bname\s*:\s*"([^"]+)"', body)
            if not name_match or name_match.group(1) not in ALLOWED_IMPORTS:
                continue
            target = name_match.group(1)
            allowed = ALLOWED_IMPORTS[target]
            deps = re.search(r"\bdependencies\s*:\s*\[", body)
            if not deps:
                continue
            level, k = 1, deps.end()
            while k < len(body) and level:
                level += {"[": 1, "]": -1}.get(body[k], 0)
                k += 1
            listing = body[deps.end() : k - 1]
            for dep in re.finditer(
                    r'\.(?:product|target|byName)\s*\(\s*name\s*:\s*"([^"]+)"[^)]*\)|"([^"]+)"',
                    listing):
                name = dep.group(1) or dep.group(2)
                if name in allowed or name in ALWAYS_ALLOWED:
                    continue
                self.report(
                    "Package.swift", line_of(text, body_start + deps.end() + dep.start()),
                    f"target {target} depends on {name}, which DESIGN.md's table does not "
                    f"allow ({target} may import: {', '.join(sorted(allowed)) or 'nothing'})")

    def run(self) -> list[Finding]:
        self.check_cli_budget()
        self.check_commands()
        self.check_sql()
        self.check_row_reads()
        self.check_file_sizes()
        self.check_imports()
        return sorted(set(self.findings))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--root", type=Path, default=Path(__file__).resolve().parent.parent,
        help="the repository root (default: the folder above scripts/)")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    lint = Lint(root)
    findings = lint.run()
    for finding in findings:
        print(finding)
    if findings:
        print(f"lint-architecture: {len(findings)} finding(s)", file=sys.stderr)
        return 1
    cli = sum(line_count(p) for p in lint.swift_files
              if lint.rel(p).startswith("Sources/ResonanceCLI/"))
    print(f"lint-architecture: {len(lint.swift_files)} Swift files clean "
          f"(CLI {cli:,} of {CLI_LINE_BUDGET:,} lines; files within {MAX_FILE_LINES} lines; "
          "imports as DESIGN.md's table)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
