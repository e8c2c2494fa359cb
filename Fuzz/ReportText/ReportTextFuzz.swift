import FuzzSupport
import ResonanceIO
import ResonanceModel
import ResonanceReports

/// The report writer's escaping layers (`docs/reports.md`, "Titles from anywhere"), given the
/// input as a song title: a Markdown table row, a CSV row, an SVG chart's labels and the HTML
/// page must each still be what they claim. A violated rule stops the run like a crash, so
/// libFuzzer keeps the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let title = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  ReportTextRules.check(title)
  return 0
}

enum ReportTextRules {
  static func check(_ title: String) {
    // Markdown: one row of exactly two cells, no line break, no control character.
    let table = Markdown.table(header: ["song", "plays"], rows: [[title, "1"]])
    let lines = table.split(separator: "\n", omittingEmptySubsequences: false)
    require(lines.count == 4 && lines[3].isEmpty, "the table is not three lines")
    require(cells(lines[2]) == 2, "the row has \(cells(lines[2])) cells")
    require(!hasControl(table), "a control character in the Markdown")

    // CSV: read back as one header and one row of two fields; text never starts a formula.
    var csv = CSVTable(header: ["song", "plays"])
    csv.append([.text(title), .integer(1)])
    var reader = CSVReader(bytes: Array(csv.text.utf8))
    var records: [[String]] = []
    while let record = try? reader.next() {
      records.append((0..<record.count).map { record.string($0) })
    }
    require(records.count == 2 && records[1].count == 2, "the CSV reads back as \(records)")
    if let first = records[1][0].unicodeScalars.first {
      require(!"=+-@\t\r".unicodeScalars.contains(first), "a formula cell")
    }

    // SVG: well-formed XML with the title as the chart's title and a row's label.
    var chart = SVGChart(title: title, xLabel: title, yLabel: "")
    chart.yScale = .categories([title])
    chart.categoryTitles = [title]
    chart.marks = [.whiskers([SVGChart.Interval(0, low: -1, high: 1, estimate: 0)], series: 0)]
    let parser = XMLPushParser(handler: Ignored())
    do {
      try parser.feed(array: Array(chart.svg().utf8))
      try parser.finish()
    } catch {
      fail("the SVG is not well-formed XML: \(error)")
    }

    // HTML: the page cmark-gfm renders from the Markdown holds no tag and no script or file
    // link from the title (text that reads "javascript:" is text).
    let html = MarkdownHTML.render("# " + Markdown.escape(title) + "\n\n" + table).lowercased()
    for forbidden in [
      "<script", "<iframe", "<img", "href=\"javascript:", "src=\"javascript:", "src=\"file:",
    ] where html.contains(forbidden) {
      fail("the HTML holds \(forbidden)")
    }
  }

  /// Cells of a Markdown table row: `|` not escaped by a backslash.
  static func cells(_ row: Substring) -> Int {
    var count = 0
    var escaped = false
    for c in row.unicodeScalars {
      if c == "|" && !escaped { count += 1 }
      escaped = c == "\\" && !escaped
    }
    return count - 1
  }

  static func hasControl(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" }
  }

  static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fail(message()) }
  }

  static func fail(_ message: String) -> Never {
    fatalError("report writer: \(message)")
  }

  final class Ignored: XMLEventHandler {
    func startElement(_ name: XMLText, attributes: XMLAttributes, line: Int) {}
    func endElement(_ name: XMLText) {}
  }
}

/// libFuzzer's `main`, under the name SwiftPM links this executable's entry point by.
@_cdecl("FuzzReportText_main")
public func entryPoint(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  FuzzDriver.run(argc, argv, testOneInput)
}
