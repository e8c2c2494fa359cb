import ResonanceModel

/// A flat Parquet file from a `ColumnTable`: the smallest writer that pyarrow, DuckDB and
/// Spark read, and no more (docs/cohort.md lists the types; `make conformance` reads every
/// file back through pyarrow and DuckDB).
///
/// The layout, after Apache Parquet's format specification:
/// - `PAR1`, then the row groups (at most `rowGroupRows` rows each), each holding one column
///   chunk per column, each chunk one version-1 data page: a page header, then the page's
///   body compressed as one Zstandard frame;
/// - a page's body is, for a nullable column, its definition levels (0 missing, 1 present)
///   as the RLE/bit-packing hybrid with a 4-byte length in front, written as runs; then the
///   present values in PLAIN encoding (little-endian numbers, bit-packed booleans, strings as
///   a 4-byte length and their UTF-8 bytes);
/// - the footer: the file metadata in Thrift's compact protocol, its length as 4 bytes, `PAR1`.
///
/// No statistics are written (a reader that skips data by them would need them tested), no
/// dictionary pages, no page index. The same table gives the same bytes.
package enum ParquetWriter {
  /// Rows per row group: a page must stay below 2 GiB, and a reader reads a group at a time.
  package static let rowGroupRows = 262_144

  /// The file's bytes.
  ///
  /// - Parameters:
  ///   - createdBy: the writer's name and version, as readers show it (`created_by`).
  ///   - metadata: key–value pairs for the file's footer, in order.
  package static func file(
    _ table: ColumnTable, createdBy: String, metadata: [(key: String, value: String)] = []
  ) -> [UInt8] {
    var out: [UInt8] = Array("PAR1".utf8)
    var groups: [RowGroup] = []
    var start = 0
    while start < table.rowCount {
      let end = min(start + rowGroupRows, table.rowCount)
      var chunks: [Chunk] = []
      for column in table.columns {
        chunks.append(writeChunk(column, rows: start..<end, into: &out))
      }
      groups.append(RowGroup(chunks: chunks, rows: end - start))
      start = end
    }
    let footer = fileMetadata(table, groups: groups, createdBy: createdBy, metadata: metadata)
    out.append(contentsOf: footer)
    append(UInt32(footer.count), to: &out)
    out.append(contentsOf: Array("PAR1".utf8))
    return out
  }

  // MARK: Pages

  /// Where a column chunk lies and its sizes, for the footer.
  struct Chunk {
    var offset: Int
    var compressedSize: Int
    var uncompressedSize: Int
    var values: Int
  }

  struct RowGroup {
    var chunks: [Chunk]
    var rows: Int
  }

  private static func writeChunk(
    _ column: ColumnTable.Column, rows: Range<Int>, into out: inout [UInt8]
  ) -> Chunk {
    var body: [UInt8] = []
    if column.nullable {
      let levels = definitionLevels(column.values, rows: rows)
      append(UInt32(levels.count), to: &body)
      body.append(contentsOf: levels)
    }
    plainValues(column.values, rows: rows, into: &body)
    let compressed = Zstd.compress(body)

    var header = ThriftCompactWriter()
    header.field(1, i32: 0)  // DATA_PAGE
    header.field(2, i32: Int32(body.count))
    header.field(3, i32: Int32(compressed.count))
    header.field(5) { page in
      page.field(1, i32: Int32(rows.count))
      page.field(2, i32: Encoding.plain)
      page.field(3, i32: Encoding.rle)
      page.field(4, i32: Encoding.rle)
    }
    header.stop()

    let offset = out.count
    out.append(contentsOf: header.bytes)
    out.append(contentsOf: compressed)
    return Chunk(
      offset: offset, compressedSize: header.bytes.count + compressed.count,
      uncompressedSize: header.bytes.count + body.count, values: rows.count)
  }

  /// The rows' definition levels (bit width 1) as RLE runs: each run a varint of its length
  /// shifted left once, then its level in one byte.
  static func definitionLevels(_ values: ColumnTable.Values, rows: Range<Int>) -> [UInt8] {
    var out: [UInt8] = []
    var row = rows.lowerBound
    while row < rows.upperBound {
      let present = !values.isNull(row)
      var end = row + 1
      while end < rows.upperBound, !values.isNull(end) == present { end += 1 }
      ThriftCompactWriter.appendVarint(UInt64(end - row) << 1, to: &out)
      out.append(present ? 1 : 0)
      row = end
    }
    return out
  }

  /// The present values of the rows in PLAIN encoding.
  static func plainValues(
    _ values: ColumnTable.Values, rows: Range<Int>, into out: inout [UInt8]
  ) {
    switch values {
    case .boolean(let v):
      var byte: UInt8 = 0
      var bits = 0
      for value in v[rows] {
        guard let value else { continue }
        if value { byte |= 1 << bits }
        bits += 1
        if bits == 8 {
          out.append(byte)
          byte = 0
          bits = 0
        }
      }
      if bits > 0 { out.append(byte) }
    case .int32(let v), .date(let v):
      for value in v[rows] { if let value { append(UInt32(bitPattern: value), to: &out) } }
    case .int64(let v), .timestampMillis(let v):
      for value in v[rows] { if let value { append(UInt64(bitPattern: value), to: &out) } }
    case .double(let v):
      for value in v[rows] { if let value { append(value.bitPattern, to: &out) } }
    case .string(let v):
      for value in v[rows] {
        guard let value else { continue }
        let utf8 = Array(value.utf8)
        append(UInt32(utf8.count), to: &out)
        out.append(contentsOf: utf8)
      }
    }
  }

  // MARK: Footer

  /// Parquet's enumerations, as the format's Thrift definition numbers them.
  enum Encoding {
    static let plain: Int32 = 0
    static let rle: Int32 = 3
  }

  enum PhysicalType {
    static let boolean: Int32 = 0
    static let int32: Int32 = 1
    static let int64: Int32 = 2
    static let double: Int32 = 5
    static let byteArray: Int32 = 6
  }

  static let zstdCodec: Int32 = 6

  static func physicalType(_ values: ColumnTable.Values) -> Int32 {
    switch values {
    case .boolean: PhysicalType.boolean
    case .int32, .date: PhysicalType.int32
    case .int64, .timestampMillis: PhysicalType.int64
    case .double: PhysicalType.double
    case .string: PhysicalType.byteArray
    }
  }

  private static func fileMetadata(
    _ table: ColumnTable, groups: [RowGroup], createdBy: String,
    metadata: [(key: String, value: String)]
  ) -> [UInt8] {
    var out = ThriftCompactWriter()
    out.field(1, i32: 1)
    // The schema: a root holding every column, then the columns in order.
    let root: ColumnTable.Column? = nil
    out.field(2, structs: [root] + table.columns.map { $0 }) { element, column in
      guard let column else {
        element.field(4, string: "schema")
        element.field(5, i32: Int32(table.columns.count))
        return
      }
      schemaElement(column, into: &element)
    }
    out.field(3, i64: Int64(table.rowCount))
    out.field(4, structs: groups) { element, group in
      element.field(1, structs: Array(zip(table.columns, group.chunks))) { chunk, pair in
        let (column, place) = pair
        chunk.field(2, i64: Int64(place.offset))
        chunk.field(3) { meta in
          meta.field(1, i32: physicalType(column.values))
          meta.field(2, i32s: [Encoding.plain, Encoding.rle])
          meta.field(3, strings: [column.name])
          meta.field(4, i32: zstdCodec)
          meta.field(5, i64: Int64(place.values))
          meta.field(6, i64: Int64(place.uncompressedSize))
          meta.field(7, i64: Int64(place.compressedSize))
          meta.field(9, i64: Int64(place.offset))
        }
      }
      element.field(2, i64: Int64(group.chunks.reduce(0) { $0 + $1.uncompressedSize }))
      element.field(3, i64: Int64(group.rows))
      element.field(5, i64: Int64(group.chunks.first?.offset ?? 0))
      element.field(6, i64: Int64(group.chunks.reduce(0) { $0 + $1.compressedSize }))
    }
    if !metadata.isEmpty {
      out.field(5, structs: metadata) { pair, entry in
        pair.field(1, string: entry.key)
        pair.field(2, string: entry.value)
      }
    }
    out.field(6, string: createdBy)
    out.stop()
    return out.bytes
  }

  /// A column's schema element: its type, `REQUIRED` or `OPTIONAL`, its name, and the
  /// converted and logical types that tell a reader a string, a timestamp or a date.
  private static func schemaElement(
    _ column: ColumnTable.Column, into element: inout ThriftCompactWriter
  ) {
    element.field(1, i32: physicalType(column.values))
    element.field(3, i32: column.nullable ? 1 : 0)
    element.field(4, string: column.name)
    switch column.values {
    case .string:
      element.field(6, i32: 0)  // UTF8
      element.field(10) { logical in logical.field(1) { _ in } }  // STRING
    case .timestampMillis:
      element.field(6, i32: 9)  // TIMESTAMP_MILLIS
      element.field(10) { logical in
        logical.field(8) { timestamp in  // TIMESTAMP
          timestamp.field(1, bool: true)  // isAdjustedToUTC
          timestamp.field(2) { unit in unit.field(1) { _ in } }  // MILLIS
        }
      }
    case .date:
      element.field(6, i32: 6)  // DATE
      element.field(10) { logical in logical.field(6) { _ in } }  // DATE
    case .boolean, .int32, .int64, .double:
      break
    }
  }

  private static func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
  }
}
