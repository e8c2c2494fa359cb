import ResonanceModel
import Testing

@testable import ResonanceStore

@Suite("Row: columns by name, found once, and rows decoded whole")
struct RowTests {
  private struct Pair: RowDecodable, Equatable {
    var id: Int64
    var label: String?

    init(id: Int64, label: String?) {
      self.id = id
      self.label = label
    }

    init(row: Row) throws(StoreError) {
      guard let id = row.int64("id") else {
        throw StoreError(.sqlite(code: 19), message: "a pair without an id")
      }
      self.init(id: id, label: row.text("label"))
    }
  }

  private func database() throws -> Connection {
    let db = try Connection(path: ":memory:")
    try db.execute("CREATE TABLE t (id INTEGER, label TEXT, at_ms INTEGER, offset_s INTEGER)")
    try db.execute("INSERT INTO t VALUES (1, 'one', 1000, 3600), (2, NULL, NULL, NULL)")
    return db
  }

  @Test("names are SQLite's: a table's column bare, an expression by its alias; NULLs default")
  func byName() throws {
    let db = try database()
    let rows = try db.rows(
      "SELECT t.id, t.label, COUNT(*) OVER () AS total, at_ms FROM t ORDER BY t.id")
    #expect(rows[0].columns.names == ["id", "label", "total", "at_ms"])
    #expect(rows[0].int64("id") == 1)
    #expect(rows[0].string("label") == "one")
    #expect(rows[0].int("total") == 2)
    #expect(rows[1].text("label") == nil)
    #expect(rows[1].string("label") == "")
    #expect(rows[1].int("at_ms") == 0)
    #expect(rows[1].int64("at_ms") == nil)
    #expect(rows[0].double("at_ms") == 1000)
    #expect(rows[0].bool("id") == true)
  }

  @Test("a column found once reads what its name reads, in every row of its statement")
  func foundOnce() throws {
    let db = try database()
    let statement = try db.prepare("SELECT id, label, at_ms, offset_s FROM t ORDER BY id")
    let id = statement.column("id")
    let label = statement.column("label")
    let at = statement.column("at_ms")
    let offset = statement.column("offset_s")
    let read = try statement.fetch { row in
      (
        row.int64(id), row.text(label), row.string(label), row.double(at), row.int(offset),
        row.timestamp(at, offset: offset), row.timestamp("at_ms", offset: "offset_s")
      )
    }
    #expect(read.count == 2)
    #expect(read[0].0 == 1 && read[0].1 == "one" && read[0].2 == "one" && read[0].3 == 1000)
    #expect(read[0].5 == Timestamp(millisecondsSinceEpoch: 1000, utcOffsetSeconds: 3600))
    #expect(read[0].5 == read[0].6)
    #expect(read[1].1 == nil && read[1].2 == "" && read[1].3 == nil && read[1].4 == 0)
    #expect(read[1].5 == Timestamp(millisecondsSinceEpoch: 0, utcOffsetSeconds: 0))
  }

  @Test("fetch decodes every row in order, and a row that does not decode names the store")
  func fetch() throws {
    let db = try database()
    #expect(
      try db.fetch(Pair.self, "SELECT id, label FROM t ORDER BY id")
        == [Pair(id: 1, label: "one"), Pair(id: 2, label: nil)])
    #expect(try db.fetch(Pair.self, "SELECT id, label FROM t WHERE id > ?", [5]).isEmpty)
    do {
      _ = try db.fetch(Pair.self, "SELECT at_ms AS id, label FROM t ORDER BY id")
      Issue.record("expected the NULL id to fail")
    } catch {
      #expect(error.kind == .sqlite(code: 19))
      #expect(error.message == "a pair without an id")
      #expect(error.path == ":memory:")
    }
    // The statement was reset: the connection goes on.
    #expect(try db.row("SELECT COUNT(*) AS n FROM t")?.int("n") == 2)
  }

  @Test("a closed set's text decodes, and other text is an error naming the type and value")
  func closedSet() throws {
    let db = try Connection(path: ":memory:")
    let good = try #require(try db.row("SELECT 'hr' AS signal"))
    #expect(try good.decoded(Signal.self, "signal") == .heartRate)
    let bad = try #require(try db.row("SELECT 'pulse' AS signal"))
    #expect(throws: StoreError.self) { try bad.decoded(Signal.self, "signal") }
    do {
      _ = try bad.decoded(Signal.self, "signal")
    } catch {
      #expect(error.message == "unexpected Signal 'pulse'")
    }
  }
}
