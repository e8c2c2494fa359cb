import Testing

@testable import ResonanceStore

@Suite("Connection and Statement")
struct ConnectionTests {
  @Test("values round-trip through bind and column reads")
  func roundTrip() throws {
    let db = try Connection(path: ":memory:")
    try db.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n)")
    try db.execute(
      "INSERT INTO t VALUES (?, ?, ?, ?, ?)",
      [Int64.max, 2.5, "Jane’s iPhone", SQLiteValue.blob([0, 1, 255]), SQLiteValue.null])
    let row = try #require(try db.row("SELECT i, r, s, b, n FROM t"))
    #expect(
      row.values == [
        .integer(.max), .real(2.5), .text("Jane’s iPhone"), .blob([0, 1, 255]), .null,
      ])
  }

  @Test("a statement that does not compile reports the SQL and SQLite's message")
  func prepareError() throws {
    let db = try Connection(path: ":memory:")
    let sql = "SELECT * FROM missing_table"
    do {
      _ = try db.prepare(sql)
      Issue.record("expected an error")
    } catch {
      #expect(error.sql == sql)
      #expect(error.kind == .sqlite(code: 1))
      #expect(error.message.contains("no such table: missing_table"))
      #expect(error.description.contains("while running: SELECT * FROM missing_table"))
    }
  }

  @Test("a constraint failure while stepping carries the SQL")
  func stepError() throws {
    let db = try Connection(path: ":memory:")
    try db.execute("CREATE TABLE t (x INTEGER NOT NULL UNIQUE)")
    let insert = try db.prepare("INSERT INTO t (x) VALUES (?)")
    try insert.execute([1])
    do {
      try insert.execute([1])
      Issue.record("expected a uniqueness error")
    } catch {
      #expect(error.kind == .sqlite(code: 19))
      #expect(error.sql == "INSERT INTO t (x) VALUES (?)")
    }
    // The statement is usable again after the failure.
    try insert.execute([2])
    #expect(try db.row("SELECT COUNT(*) FROM t")?.int(0) == 2)
  }

  @Test("binding the wrong number of arguments is an error, not a silent NULL")
  func bindCount() throws {
    let db = try Connection(path: ":memory:")
    try db.execute("CREATE TABLE t (a, b)")
    #expect(throws: StoreError.self) { try db.execute("INSERT INTO t VALUES (?, ?)", [1]) }
  }

  @Test("a transaction that throws leaves nothing behind")
  func rollback() throws {
    struct Boom: Error {}
    let db = try Connection(path: ":memory:")
    try db.execute("CREATE TABLE t (x)")
    #expect(throws: Boom.self) {
      try db.transaction {
        try db.execute("INSERT INTO t VALUES (1)")
        throw Boom()
      }
    }
    #expect(try db.row("SELECT COUNT(*) FROM t")?.int(0) == 0)
  }

  @Test("a statement reused for many rows resets between them")
  func reuse() throws {
    let db = try Connection(path: ":memory:")
    try db.execute("CREATE TABLE t (x INTEGER)")
    let insert = try db.prepare("INSERT INTO t (x) VALUES (?)")
    try db.transaction {
      for x in 0..<1000 { try insert.execute([x]) }
    }
    let sum = try db.row("SELECT COUNT(*), SUM(x) FROM t")
    #expect(sum?.int(0) == 1000)
    #expect(sum?.int(1) == 499_500)
  }

  @Test("a value bound only when it changes is stored on every row, whatever bound between")
  func bindIfChanged() throws {
    let db = try Connection(path: ":memory:")
    try db.execute("CREATE TABLE t (row INTEGER, i INTEGER, s TEXT)")
    let insert = try db.prepare("INSERT INTO t (row, i, s) VALUES (?, ?, ?)")
    let composed = "caf\u{E9}"  // é as one code point
    let decomposed = "cafe\u{301}"  // e and a combining accent: equal to Swift's ==
    let long = String(repeating: "x", count: 40)  // longer than what is remembered
    // (i, s) per row, and how the row binds them: `true` through bindIfChanged, `false` through
    // the plain binds (which the next bindIfChanged must not mistake for its own).
    let rows: [(Int64?, String?, Bool)] = [
      (7, "count/min", true), (7, "count/min", true), (nil, nil, true), (nil, nil, true),
      (7, "count/min", true), (8, "count/min", false), (7, "count/min", true),
      (7, composed, true), (7, decomposed, true), (7, decomposed, true), (7, "", true),
      (7, long, true), (7, long, true), (7, "", true), (7, long, false), (7, "", true),
    ]
    for (index, (i, s, sticky)) in rows.enumerated() {
      insert.bind(Int64(index), at: 1)
      if sticky {
        insert.bindIfChanged(i, at: 2)
        insert.bindIfChanged(s, at: 3)
      } else {
        insert.bind(i, at: 2)
        insert.bindRowText(s, at: 3)
      }
      try insert.run()
    }
    let stored = try db.prepare("SELECT i, CAST(s AS BLOB) FROM t ORDER BY row").rows()
    #expect(stored.count == rows.count)
    for (row, (i, s, _)) in zip(stored, rows) {
      #expect(row.values[0] == (i.map { .integer($0) } ?? .null))
      #expect(row.values[1] == (s.map { .blob(Array($0.utf8)) } ?? .null))
    }
  }
}
