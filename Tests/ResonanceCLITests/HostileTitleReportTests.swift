import Foundation
import Testing

@testable import ResonanceCLI
@testable import ResonanceStore

/// Song titles come from files anyone can write. The whole report, Markdown, HTML, SVG and
/// CSV, over a store whose every song carries one of these titles, must parse as each format
/// and carry them as text: one escaping layer per format (docs/reports.md, "Titles from
/// anywhere").
@Suite("report: hostile song titles")
struct HostileTitleReportTests {
  /// Titles built to break a format: line breaks of every kind, HTML and Markdown markup, a
  /// terminal escape, spreadsheet formulas, table pipes and quotes.
  static let titles = [
    "Line\r\nBreak", "Only\rCR", "Only\nLF", "Tab\there", "Para\u{2029}graph",
    "<script>alert(1)</script>", "<iframe src=https://example.invalid>", "[x](javascript:alert(1))",
    "![i](file:///etc/passwd)", "<javascript:alert(1)>", "Esc\u{1B}[31mRed", "Bell\u{07}",
    "=HYPERLINK(\"http://example.invalid\")", "+1+1", "-2+3", "@SUM(A1)", "\tLeading tab",
    "Pipe | in | title", "Back\\slash\\", "Quote \"q\"", "Comma, here", "&amp; &lt;b&gt;",
    "**bold** _it_ `code`", "Emoji 🎵 fine",
  ]

  /// Checks every file the report wrote; prints one line per problem and exits 1 if any.
  static let checker = #"""
    import csv, html.parser, os, re, sys, xml.etree.ElementTree as ET
    folder = sys.argv[1]
    problems = []
    controls = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
    def cells(line):
        return len(re.split(r"(?<!\\)\|", line.strip().strip("|")))
    formula = set("=+-@\t\r")
    number = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")
    seen = {"csv": 0, "svg": 0, "md": 0, "html": 0, "defused": 0}
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if os.path.isdir(path):
            continue
        text = open(path, encoding="utf-8", newline="").read()
        if controls.search(text):
            problems.append(f"{name}: a control character")
        if name.endswith(".csv"):
            seen["csv"] += 1
            rows = list(csv.reader(open(path, newline="", encoding="utf-8")))
            for i, row in enumerate(rows[1:], 2):
                if len(row) != len(rows[0]):
                    problems.append(f"{name}:{i}: {len(row)} cells against {len(rows[0])}")
                for cell in row:
                    if cell[:1] in formula and not number.match(cell):
                        problems.append(f"{name}:{i}: formula cell {cell!r}")
                    if cell.startswith("'") and cell[1:2] in formula:
                        seen["defused"] += 1
        elif name.endswith(".svg"):
            seen["svg"] += 1
            try:
                ET.parse(path)
            except ET.ParseError as e:
                problems.append(f"{name}: not XML: {e}")
        elif name.endswith(".md"):
            seen["md"] += 1
            lines = text.split("\n")
            header = None
            for i, line in enumerate(lines, 1):
                if not line.startswith("|"):
                    header = None
                    continue
                if header is None:
                    header = cells(line)
                elif cells(line) != header:
                    problems.append(f"{name}:{i}: {cells(line)} cells against {header}")
                if re.search(r"(?<!\\)<[A-Za-z/!?]", line) or re.search(r"(?<!\\)\]\(javascript", line):
                    problems.append(f"{name}:{i}: markup in a cell: {line[:80]}")
        elif name.endswith(".html"):
            seen["html"] += 1
            lower = text.lower()
            if re.search(r"<(script|iframe)", lower):
                problems.append(f"{name}: a script or iframe tag")
            if re.search(r'(href|src)="\s*(javascript|file):', lower):
                problems.append(f"{name}: a javascript: or file: link")
            html.parser.HTMLParser().feed(text)
    print(seen)
    for p in problems:
        print("PROBLEM", p)
    sys.exit(1 if problems or seen["defused"] == 0 else 0)
    """#

  @Test("every page, CSV, chart and HTML page parses, and no title becomes markup or a formula")
  func hostileTitles() throws {
    let stores = try TuningStores.shared.get()
    let folder = try TemporaryFolder()
    let db = try stores.copy(stores.analyzed, into: folder)
    do {
      let store = try Store(path: db)
      let ids = try store.connection.rows("SELECT id FROM songs ORDER BY id").map { $0.int("id") }
      for (k, id) in ids.enumerated() {
        let title = Self.titles[k % Self.titles.count]
        let artist = Self.titles[(k + 7) % Self.titles.count]
        try store.connection.execute(
          "UPDATE songs SET title = ?, artist = ? WHERE id = ?", [title, artist, id])
      }
    }
    let out = folder.file("report")
    let result = runResonance(["report", "--db", db, "--out", out, "--html", "-q"])
    #expect(result.status == .ok, "\(result.err)")
    let (status, output) = try TuningStores.python(Self.checker, [out])
    #expect(status == 0, "\(output)")
    // The titles are there as text: the songs page names the script tag, escaped.
    let songs = try String(contentsOfFile: out + "/songs.md", encoding: .utf8)
    #expect(songs.contains("\\<script>alert(1)\\</script>"))
    let page = try String(contentsOfFile: out + "/songs.html", encoding: .utf8)
    #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
  }
}
