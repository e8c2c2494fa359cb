import ResonanceIO
import Testing

@testable import ResonanceReports

/// What the report writer's fuzz harness (`Fuzz/ReportText`) found, each kept as the input it
/// was minimised to and the rule it broke.
@Suite("report escaping: fuzz findings")
struct EscapingFindingTests {
  /// A title holding `\|`: escaping only the pipe wrote `\\|`, an escaped backslash and then a
  /// pipe that ends the cell (GFM splits a row before it reads inlines).
  @Test("a backslash before a pipe stays in its cell, in the table and in the HTML")
  func backslashBeforePipe() {
    let title = #"<]! /\|\|\,&&gt/V p>"#
    let table = Markdown.table(header: ["song", "plays"], rows: [[title, "1"]])
    let html = MarkdownHTML.render(table)
    #expect(html.components(separatedBy: "<td").count - 1 == 2, "\(html)")
    #expect(html.contains(#"/\|\|\,"#), "\(html)")
  }

  /// A quote followed by a combining mark is one Swift `Character`, unequal to `"`: replacing
  /// quotes character by character left it undoubled, and the row read back as three fields.
  @Test("a quote followed by a combining mark is doubled: the row reads back as two fields")
  func quoteBeforeCombiningMark() throws {
    let title = "Q\"qq\u{2}\"\u{653}ot\u{E5} \"pq\"\t,q\" \"q\""
    var csv = CSVTable(header: ["song", "plays"])
    csv.append([.text(title), .integer(1)])
    var reader = CSVReader(bytes: Array(csv.text.utf8))
    var rows: [[String]] = []
    while let record = try reader.next() {
      rows.append((0..<record.count).map { record.string($0) })
    }
    #expect(rows.count == 2)
    #expect(rows.last?.count == 2, "\(rows)")
    #expect(rows.last?.first == title.replacingOccurrences(of: "\u{2}", with: "\u{FFFD}"))
  }
}
