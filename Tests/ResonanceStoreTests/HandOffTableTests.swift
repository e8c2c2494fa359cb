import Foundation
import ResonanceModel
import Testing

@testable import ResonanceStore

@Suite("hand-off tables")
struct HandOffTableTests {
  static let cohortDocs = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
      "docs/cohort.md")

  /// The rows of the table under `#### name` in docs/cohort.md: column, type, missing.
  static func documented(_ table: String, in text: String) -> [(String, String, String)] {
    let lines = text.components(separatedBy: "\n")
    guard let heading = lines.firstIndex(of: "#### \(table)") else { return [] }
    var rows: [(String, String, String)] = []
    for line in lines[(heading + 1)...] {
      if line.hasPrefix("#") { break }
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count >= 3, cells[0].hasPrefix("`") else { continue }
      rows.append((cells[0].trimmingCharacters(in: ["`"]), cells[1], cells[2]))
    }
    return rows
  }

  @Test(
    "an empty store gives every table with its columns, and docs/cohort.md lists each column with its type and whether it may be missing",
    arguments: HandOffTable.allCases)
  func documentedColumns(table: HandOffTable) throws {
    let folder = try TemporaryFolder()
    let store = try Store(path: folder.file("empty.sqlite"))
    let columns = try store.handOffTable(table)
    #expect(columns.name == table.rawValue)
    #expect(columns.rowCount == 0)
    let docs = try String(contentsOf: Self.cohortDocs, encoding: .utf8)
    let rows = Self.documented(table.rawValue, in: docs)
    #expect(rows.map(\.0) == columns.columns.map(\.name))
    #expect(rows.map(\.1) == columns.columns.map(\.values.typeName))
    #expect(rows.map(\.2) == columns.columns.map { $0.nullable ? "yes" : "no" })
  }
}

@Suite("hand-off snapshot")
struct HandOffSnapshotTests {
  @Test("reads inside a snapshot do not see what another connection commits meanwhile")
  func snapshot() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("store.sqlite")
    let writer = try Store(path: path)
    let reader = try Store(readingAt: path)
    let count = "SELECT count(*) AS n FROM sleep_nights"
    let insert = """
      INSERT INTO sleep_nights (evening, bedtime_ms, bedtime_offset_s, wake_ms, wake_offset_s,
        time_in_bed_ms, primary_source) VALUES (?, 0, 0, 1, 0, 1, 'watch')
      """
    let (before, during) = try reader.snapshot { () throws -> (Int, Int) in
      let before = try reader.handOffTable(.nights).rowCount
      try writer.connection.execute(insert, ["2024-01-01"])
      return (before, try reader.handOffTable(.nights).rowCount)
    }
    #expect(before == 0 && during == 0)
    #expect(try reader.connection.row(count)?.int("n") == 1)
  }
}

@Suite("hand-off bad data")
struct HandOffBadDataTests {
  @Test("a required value out of its type's range is a named error, not a crash")
  func offsetOutOfRange() throws {
    let folder = try TemporaryFolder()
    let store = try Store(path: folder.file("store.sqlite"))
    try store.connection.execute(
      """
      INSERT INTO sleep_nights (evening, bedtime_ms, bedtime_offset_s, wake_ms, wake_offset_s,
        time_in_bed_ms, primary_source) VALUES ('2024-01-01', 0, 9999999999, 1, 0, 1, 'watch')
      """)
    #expect {
      try store.handOffTable(.nights)
    } throws: { error in
      "\(error)".contains("nights.bedtime_offset_s has no value in row 1")
    }
  }
}
