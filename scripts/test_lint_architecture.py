#!/usr/bin/env python3
"""Self-test of scripts/lint-architecture.py: a fake tree per rule, each finding at its line.

Run by `make lint` (`python3 scripts/test_lint_architecture.py`); standard library only.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

_SCRIPT = Path(__file__).resolve().parent / "lint-architecture.py"
_spec = importlib.util.spec_from_file_location("lint_architecture", _SCRIPT)
assert _spec and _spec.loader
lint = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = lint  # dataclasses look their module up while it loads
_spec.loader.exec_module(lint)

# A Package.swift whose targets follow DESIGN.md's graph.
CLEAN_PACKAGE = """\
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "resonance",
  targets: [
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3"),
    .target(name: "ResonanceModel"),
    .target(name: "ResonanceStore", dependencies: ["ResonanceModel", "CSQLite"]),
    .target(name: "ResonanceStages", dependencies: ["ResonanceModel", "ResonanceStore"]),
    .target(
      name: "ResonanceCLI",
      dependencies: ["ResonanceModel", "ResonanceStages"]),
    .executableTarget(name: "resonance", dependencies: ["ResonanceCLI"]),
    .testTarget(name: "ResonanceCLITests", dependencies: ["ResonanceCLI", "ResonanceStore"]),
  ]
)
"""

# A small tree that breaks no rule, written into each test's temporary root first.
CLEAN_TREE = {
    "Package.swift": CLEAN_PACKAGE,
    "Sources/CSQLite/module.modulemap": 'module CSQLite [system] { header "shim.h" }\n',
    "Sources/CSQLite/shim.h": "#include <sqlite3.h>\n",
    "Sources/ResonanceModel/Song.swift": """\
        import Foundation

        /// A song.
        package struct Song: Sendable {
          package var title: String
        }
        """,
    "Sources/ResonanceStore/SQLite/Row.swift": """\
        internal import CSQLite

        // Positional reads are this folder's own business.
        func first(_ row: Row) -> Int { row.int(0) + (row[1].int64 ?? 0) }
        """,
    "Sources/ResonanceStore/Store+Songs.swift": """\
        import ResonanceModel

        extension Store {
          func songs() throws -> [String] {
            try connection.rows("SELECT title FROM songs ORDER BY id").map { $0.string("title") }
          }
        }
        """,
    "Sources/ResonanceStages/Analyze.swift": """\
        import ResonanceModel
        import ResonanceStore

        /// Numeric code with literal indices stays clear of the row rule.
        func mean(_ values: [Double]) -> Double { (values[0] + values[1]) / 2 }
        """,
    "Sources/ResonanceCLI/Commands/AnalyzeCommand.swift": """\
        import ResonanceStages

        // DemoCommand runs this one's stage too; a comment may name it.
        struct AnalyzeCommand: ParsableCommand {
          var help = "prints what analyze did; not SELECT-ed from anything"
          var note = #"a raw string, \\(not an interpolation)"#
        }
        """,
    "Sources/ResonanceCLI/Commands/DemoCommand.swift": """\
        import ResonanceStages

        /* A block comment naming AnalyzeCommand /* nested */ and SELECT x FROM y. */
        struct DemoCommand: ParsableCommand {
          func run() { print("\\(Demo.steps.map { "step \\($0)" }) done") }
        }
        """,
    "Sources/ResonanceCLI/Arguments/ParsableCommand.swift": """\
        /// What every command is.
        protocol ParsableCommand {}
        """,
    "Sources/resonance/main.swift": "import ResonanceCLI\n\nResonance.main()\n",
    "scripts/lint-allow.txt": "# path  reason\n",
}


class LintArchitectureTests(unittest.TestCase):
    def setUp(self) -> None:
        self._directory = tempfile.TemporaryDirectory()
        self.root = Path(self._directory.name)
        for name, text in CLEAN_TREE.items():
            self.write(name, text)

    def tearDown(self) -> None:
        self._directory.cleanup()

    def write(self, name: str, text: str) -> None:
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")

    def findings(self) -> list[str]:
        return [str(f) for f in lint.Lint(self.root).run()]

    def assertFinding(self, location: str, fragment: str) -> None:
        """Exactly one finding starts with `location` and mentions `fragment`."""
        found = [f for f in self.findings() if f.startswith(location + ": error: ")]
        self.assertEqual(len(found), 1, f"{location}: {self.findings()}")
        self.assertIn(fragment, found[0])

    def test_a_clean_tree_passes_with_one_summary_line(self) -> None:
        self.assertEqual(self.findings(), [])
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = lint.main(["--root", str(self.root)])
        self.assertEqual(status, 0)
        self.assertEqual(len(out.getvalue().splitlines()), 1)
        self.assertIn("clean", out.getvalue())

    def test_findings_are_printed_sorted_and_exit_1(self) -> None:
        self.write("Sources/ResonanceModel/Z.swift", "import ResonanceStore\n")
        self.write("Sources/ResonanceModel/A.swift", "\nimport ResonanceIO\n")
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            status = lint.main(["--root", str(self.root)])
        self.assertEqual(status, 1)
        lines = out.getvalue().splitlines()
        self.assertEqual(lines, sorted(lines))
        self.assertTrue(lines[0].startswith("Sources/ResonanceModel/A.swift:2: error: "))

    # 1
    def test_cli_over_its_budget_points_at_the_largest_file(self) -> None:
        body = "let x = 1\n"
        self.write("Sources/ResonanceCLI/Big.swift", body * 1_500)
        self.write("Sources/ResonanceCLI/Bigger.swift", body * 1_100)
        self.write("Sources/ResonanceCLI/Biggest.swift", body * 1_600)
        # Within the 600-line rule's allow-list, so only the budget speaks.
        self.write(
            "scripts/lint-allow.txt",
            "Sources/ResonanceCLI/Big.swift  test\nSources/ResonanceCLI/Bigger.swift  test\n"
            "Sources/ResonanceCLI/Biggest.swift  test\n")
        self.assertFinding("Sources/ResonanceCLI/Biggest.swift:1", "budget of 2,800")

    # 2
    def test_a_command_that_names_another_is_reported_where_it_does(self) -> None:
        self.write(
            "Sources/ResonanceCLI/Commands/DemoCommand.swift",
            """\
            import ResonanceStages

            // AnalyzeCommand in a comment is fine.
            struct DemoCommand: ParsableCommand {
              func run() throws {
                try AnalyzeCommand().run()
              }
            }
            """)
        self.assertFinding("Sources/ResonanceCLI/Commands/DemoCommand.swift:6", "AnalyzeCommand")
        self.assertEqual(len(self.findings()), 1)

    def test_a_command_found_by_its_conformance_counts_too(self) -> None:
        self.write(
            "Sources/ResonanceCLI/Commands/Report.swift",
            "import ResonanceStages\n\nstruct Report: ParsableCommand {\n  var x = 1\n}\n")
        self.write(
            "Sources/ResonanceCLI/Commands/DemoCommand.swift",
            "import ResonanceStages\n\nstruct DemoCommand: ParsableCommand {\n"
            "  let next = Report.self\n}\n")
        self.assertFinding("Sources/ResonanceCLI/Commands/DemoCommand.swift:4", "Report")

    # 3
    def test_sql_outside_the_store_in_each_kind_of_literal(self) -> None:
        self.write(
            "Sources/ResonanceStages/Leak.swift",
            '''\
            import ResonanceStore

            let a = "SELECT id FROM songs"
            let b = """
              some text
              DELETE FROM plays
              """
            let c = #"PRAGMA user_version"#
            let d = "count: \\("INSERT INTO x".count)"
            // let e = "DROP TABLE songs"
            ''')
        self.assertFinding("Sources/ResonanceStages/Leak.swift:3", "SELECT id FROM")
        self.assertFinding("Sources/ResonanceStages/Leak.swift:6", "DELETE FROM")
        self.assertFinding("Sources/ResonanceStages/Leak.swift:8", "PRAGMA")
        self.assertFinding("Sources/ResonanceStages/Leak.swift:9", "INSERT INTO")
        self.assertEqual(len(self.findings()), 4)

    def test_sql_inside_the_store_is_its_business(self) -> None:
        self.write(
            "Sources/ResonanceStore/Writer.swift",
            'let s = "UPDATE songs SET title = ? WHERE id = ?"\n')
        self.assertEqual(self.findings(), [])

    # 4
    def test_positional_row_reads_outside_store_sqlite(self) -> None:
        self.write(
            "Sources/ResonanceStore/Store+Plays.swift",
            """\
            import ResonanceModel

            extension Store {
              func plays() throws -> [Int64] {
                try connection.rows("SELECT id, title FROM plays").map {
                  $0.optionalInt64(0) ?? 0
                }
              }
              func title(_ row: Row) -> String? { row[1].string }
              func count(_ r: Row) -> Int { r.int(2) }
              // row.string(3) in a comment is not a read.
            }
            """)
        self.write(
            "Sources/ResonanceStages/Plays.swift",
            "import ResonanceStore\n\nfunc f(_ rows: [Row]) -> Double? { rows.first?[0].double }\n"
            "func g(_ row: Row) -> String { row.string(4) }\n")
        self.assertFinding("Sources/ResonanceStore/Store+Plays.swift:6", ".optionalInt64(0)")
        self.assertFinding("Sources/ResonanceStore/Store+Plays.swift:9", "row[1].string")
        self.assertFinding("Sources/ResonanceStore/Store+Plays.swift:10", ".int(2)")
        self.assertFinding("Sources/ResonanceStages/Plays.swift:4", ".string(4)")
        self.assertEqual(len(self.findings()), 4)

    def test_files_that_do_not_import_the_store_are_not_read_for_rows(self) -> None:
        self.write(
            "Sources/ResonanceModel/Numbers.swift",
            "func f(_ r: [[Double]]) -> Double { r[0].double + Double(x.int(3)) }\n")
        self.assertEqual(self.findings(), [])

    # 5
    def test_a_long_file_and_the_allow_list(self) -> None:
        long = "let x = 1\n" * 601
        self.write("Sources/ResonanceModel/Long.swift", long)
        self.assertFinding("Sources/ResonanceModel/Long.swift:1", "601 lines")
        self.write(
            "scripts/lint-allow.txt",
            """\
            # path  reason
            Sources/ResonanceModel/Long.swift  one table, split when the vocabulary settles
            Sources/ResonanceModel/Song.swift  no longer long
            Sources/ResonanceModel/Gone.swift  removed since
            Sources/ResonanceModel/Bare.swift
            """)
        self.write("Sources/ResonanceModel/Bare.swift", long)
        self.assertFinding("scripts/lint-allow.txt:3", "stale entry")
        self.assertFinding("scripts/lint-allow.txt:4", "does not exist")
        self.assertFinding("scripts/lint-allow.txt:5", "without a reason")
        self.assertEqual(len(self.findings()), 3)

    def test_exactly_600_lines_is_within_the_limit(self) -> None:
        self.write("Sources/ResonanceModel/Long.swift", "let x = 1\n" * 600)
        self.assertEqual(self.findings(), [])

    # 6
    def test_imports_outside_the_graph_in_every_form(self) -> None:
        self.write(
            "Sources/ResonanceCLI/Commands/StatusCommand.swift",
            """\
            import ResonanceStages
            @testable import ResonanceStore
            package import ResonanceBrain
            @_exported import ResonanceIO
            public import struct ResonanceTuning.Sweep
            #if canImport(Glibc)
              import Glibc
            #endif

            struct StatusCommand: ParsableCommand {}
            """)
        path = "Sources/ResonanceCLI/Commands/StatusCommand.swift"
        self.assertFinding(f"{path}:2", "imports ResonanceStore")
        self.assertFinding(f"{path}:3", "imports ResonanceBrain")
        self.assertFinding(f"{path}:4", "imports ResonanceIO")
        self.assertFinding(f"{path}:5", "imports ResonanceTuning")
        self.assertEqual(len(self.findings()), 4)

    def test_a_c_module_only_through_internal_import(self) -> None:
        self.write(
            "Sources/ResonanceStore/SQLite/Connection.swift",
            "import CSQLite\n\nfinal class Connection {}\n")
        self.assertFinding("Sources/ResonanceStore/SQLite/Connection.swift:1", "internal import")
        self.assertEqual(len(self.findings()), 1)

    def test_package_dependencies_follow_the_graph(self) -> None:
        self.write(
            "Package.swift",
            CLEAN_PACKAGE.replace(
                '      dependencies: ["ResonanceModel", "ResonanceStages"]),',
                '      dependencies: [\n        "ResonanceModel", "ResonanceStages",\n'
                '        "ResonanceStore",\n      ]),'))
        self.assertFinding("Package.swift:15", "target ResonanceCLI depends on ResonanceStore")
        self.assertEqual(len(self.findings()), 1)

    def test_a_module_missing_from_the_table(self) -> None:
        self.write("Sources/ResonanceExtra/Thing.swift", "import ResonanceModel\n")
        self.assertFinding("Sources/ResonanceExtra/Thing.swift:1", "not in DESIGN.md")


class LexerTests(unittest.TestCase):
    def test_literals_comments_and_interpolations(self) -> None:
        lexed = lint.lex_swift(
            'let a = "x\\(f("y")) z" // "no"\n'
            '/* "no" /* "no" */ */ let b = ##"r"#"##\n'
            'let c = """\n  m "q"\n  """\n')
        self.assertEqual([l.text for l in lexed.literals], ["x  z", "y", 'r"#', '\n  m "q"\n  '])
        self.assertEqual(lexed.literals[1].lines, [1])
        self.assertEqual(lexed.literals[3].lines[1], 4)
        self.assertNotIn("no", lexed.code)
        self.assertIn("f(", lexed.bare)
        self.assertEqual(len(lexed.bare.splitlines()), 5)


if __name__ == "__main__":
    unittest.main()
