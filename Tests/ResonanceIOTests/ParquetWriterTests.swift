import ResonanceModel
import Testing

@testable import ResonanceIO

@Suite("ParquetWriter")
struct ParquetWriterTests {
  typealias Value = ParquetTestReader.Value

  /// A column's values as the test reader gives them back.
  static func expected(_ values: ColumnTable.Values) -> [Value?] {
    switch values {
    case .boolean(let v): v.map { $0.map(Value.bool) }
    case .int32(let v), .date(let v): v.map { $0.map { .int(Int64($0)) } }
    case .int64(let v), .timestampMillis(let v): v.map { $0.map(Value.int) }
    case .double(let v): v.map { $0.map(Value.double) }
    case .string(let v): v.map { $0.map { .binary(Array($0.utf8)) } }
    }
  }

  static let hostile: [String?] = [
    "plain", "", nil, "a,b", "quote \" inside", "line\nbreak\r\n", "nul\u{0}byte", "é = e\u{301}",
    "🎧 emoji", "=HYPERLINK(\"x\")", String(repeating: "long ", count: 400), nil, nil, "end",
  ]

  static let table = ColumnTable(
    name: "every_type",
    columns: [
      .init("id", nullable: false, .int64((0..<14).map { Int64($0) })),
      .init("title", nullable: true, .string(hostile)),
      .init(
        "flag", nullable: true,
        .boolean([
          true, false, nil, true, true, true, false, true, true, nil, false, true, false, true,
        ])),
      .init(
        "count", nullable: false,
        .int32([0, 1, -1, .max, .min, 7, 8, 9, 10, 11, 12, 13, 14, 15])),
      .init(
        "big", nullable: true,
        .int64([.max, .min, nil, 0, -1, 1, nil, nil, nil, 5, 6, 7, 8, 9])),
      .init(
        "x", nullable: true,
        .double([
          0, -0.0, .leastNonzeroMagnitude, .infinity, -.infinity, .pi, nil, 1e300, 0.1, 123.456,
          nil, -2.5, 3, 4,
        ])),
      .init(
        "at", nullable: true,
        .timestampMillis([
          0, 1_717_171_717_123, -1, nil, 4_102_444_800_000, 1, 2, 3, 4, 5, 6, 7, 8, 9,
        ])),
      .init("day", nullable: true, .date([0, 19_000, -1, nil, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10])),
    ])

  @Test("every type, missing values and hostile text read back equal")
  func roundTrip() throws {
    let reader = try ParquetTestReader(ParquetWriter.file(Self.table, createdBy: "tests"))
    #expect(reader.rowCount == 14)
    for (index, column) in Self.table.columns.enumerated() {
      #expect(try reader.column(index) == Self.expected(column.values), "\(column.name)")
    }
  }

  @Test("the schema names each column with its type, nullability and logical type")
  func schema() throws {
    let reader = try ParquetTestReader(ParquetWriter.file(Self.table, createdBy: "tests"))
    let schema = reader.schema
    #expect(schema.map(\.name) == Self.table.columns.map(\.name))
    // BOOLEAN 0, INT32 1, INT64 2, DOUBLE 5, BYTE_ARRAY 6 (the format's Type enumeration).
    #expect(schema.map(\.type) == [2, 6, 0, 1, 2, 5, 2, 1])
    #expect(schema.map(\.optional) == [false, true, true, false, true, true, true, true])
    #expect(schema[1].logical?[1] == .fields([:]))  // STRING
    #expect(schema[6].logical?[8]?[1] == .bool(true))  // TIMESTAMP, adjusted to UTC
    #expect(schema[6].logical?[8]?[2]?[1] == .fields([:]))  // MILLIS
    #expect(schema[7].logical?[6] == .fields([:]))  // DATE
    #expect(schema[0].logical == nil)
    #expect(reader.metadata[6]?.string == "tests")
  }

  @Test("the same table gives the same bytes")
  func deterministic() {
    #expect(
      ParquetWriter.file(Self.table, createdBy: "tests")
        == ParquetWriter.file(Self.table, createdBy: "tests"))
  }

  @Test("a table without rows keeps its schema and has no row group")
  func empty() throws {
    let table = ColumnTable(
      name: "empty",
      columns: [.init("a", nullable: true, .string([])), .init("b", nullable: false, .double([]))])
    let reader = try ParquetTestReader(ParquetWriter.file(table, createdBy: "tests"))
    #expect(reader.rowCount == 0)
    #expect(reader.schema.map(\.name) == ["a", "b"])
    #expect(reader.metadata[4]?.list.isEmpty == true)
  }

  @Test("a table longer than a row group is split into groups that read back whole")
  func rowGroups() throws {
    let rows = ParquetWriter.rowGroupRows + 5
    let table = ColumnTable(
      name: "long",
      columns: [
        .init("n", nullable: false, .int64((0..<rows).map { Int64($0) })),
        .init(
          "odd", nullable: true, .int32((0..<rows).map { $0 % 2 == 1 ? Int32($0 % 1000) : nil })),
      ])
    let reader = try ParquetTestReader(ParquetWriter.file(table, createdBy: "tests"))
    #expect(reader.metadata[4]?.list.map { $0[3]?.int } == [Int64(ParquetWriter.rowGroupRows), 5])
    #expect(try reader.column(0) == Self.expected(table.columns[0].values))
    #expect(try reader.column(1) == Self.expected(table.columns[1].values))
  }

  @Test("definition levels are runs: 1,000 missing values then 1,000 present take six bytes")
  func levelRuns() throws {
    let values = ColumnTable.Values.int32((0..<2000).map { $0 < 1000 ? nil : 1 })
    let levels = ParquetWriter.definitionLevels(values, rows: 0..<2000)
    #expect(levels.count == 6)
    #expect(try ParquetTestReader.levels(levels, count: 2000) == (0..<2000).map { $0 >= 1000 })
  }

  @Test("a zstd frame opens to the bytes compressed")
  func zstd() {
    let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 * 7 % 251) }
    let frame = Zstd.compress(bytes)
    #expect(frame.count < bytes.count)
    #expect(Zstd.decompress(frame) == bytes)
    #expect(Zstd.decompress(Zstd.compress([])) == [])
  }
}
