import ResonanceModel

@testable import ResonanceIO

/// A reader of the Parquet files `ParquetWriter` writes, written from the format's
/// specification for the tests: Thrift's compact protocol decoded generically, then the
/// footer's schema and column chunks followed to each page, its Zstandard frame opened, its
/// definition levels (RLE and bit-packed runs) and PLAIN values decoded. `make conformance`
/// reads the same files with pyarrow and DuckDB; this one lets `make test` fail without them.
struct ParquetTestReader {
  /// A decoded compact-protocol value.
  indirect enum Value: Equatable {
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case binary([UInt8])
    case list([Value])
    case fields([Int16: Value])

    var int: Int64? { if case .int(let v) = self { v } else { nil } }
    var string: String? {
      if case .binary(let b) = self { String(decoding: b, as: UTF8.self) } else { nil }
    }
    var list: [Value] { if case .list(let l) = self { l } else { [] } }
    subscript(_ id: Int16) -> Value? { if case .fields(let f) = self { f[id] } else { nil } }
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  let bytes: [UInt8]
  let metadata: Value

  init(_ bytes: [UInt8]) throws {
    guard bytes.count >= 12, Array(bytes.prefix(4)) == Array("PAR1".utf8),
      Array(bytes.suffix(4)) == Array("PAR1".utf8)
    else { throw Failure(description: "no PAR1 magic at both ends") }
    let length = bytes[bytes.count - 8..<bytes.count - 4].reversed().reduce(0) { $0 << 8 | Int($1) }
    var cursor = bytes.count - 8 - length
    self.bytes = bytes
    metadata = try Self.readStruct(bytes, &cursor)
    guard cursor == bytes.count - 8 else { throw Failure(description: "footer length mismatch") }
  }

  /// The columns' names, physical types and whether each is optional, from the schema.
  var schema: [(name: String, type: Int64, optional: Bool, logical: Value?)] {
    (metadata[2]?.list ?? []).dropFirst().map {
      ($0[4]?.string ?? "", $0[1]?.int ?? -1, $0[3]?.int == 1, $0[10])
    }
  }

  var rowCount: Int64 { metadata[3]?.int ?? -1 }

  /// Every value of the column at `index`, nil where missing, over all row groups, as
  /// `ColumnTable.Values` of the schema's type (`logical` tells timestamps and dates).
  func column(_ index: Int) throws -> [Value?] {
    let optional = schema[index].optional
    var out: [Value?] = []
    for group in metadata[4]?.list ?? [] {
      let chunk = group[1]?.list[index]
      guard let meta = chunk?[3], let offset = meta[9]?.int, meta[4]?.int == 6 else {
        throw Failure(description: "a column chunk without ZSTD metadata")
      }
      var cursor = Int(offset)
      let header = try Self.readStruct(bytes, &cursor)
      guard let compressed = header[3]?.int, let size = header[2]?.int,
        let count = header[5]?[1]?.int
      else { throw Failure(description: "a page header without sizes") }
      guard let body = Zstd.decompress(Array(bytes[cursor..<cursor + Int(compressed)])),
        body.count == size
      else { throw Failure(description: "a page that is not one zstd frame of its size") }
      var at = 0
      var present = [Bool](repeating: true, count: Int(count))
      if optional {
        let levelBytes = Self.littleEndian(body, at: at, width: 4)
        at += 4
        present = try Self.levels(Array(body[at..<at + Int(levelBytes)]), count: Int(count))
        at += Int(levelBytes)
      }
      var bit = 0
      for isPresent in present {
        guard isPresent else {
          out.append(nil)
          continue
        }
        switch meta[1]?.int {
        case 0:
          out.append(.bool(body[at + bit / 8] >> (bit % 8) & 1 == 1))
          bit += 1
        case 1:
          out.append(
            .int(Int64(Int32(truncatingIfNeeded: Self.littleEndian(body, at: at, width: 4)))))
          at += 4
        case 2:
          out.append(.int(Int64(bitPattern: Self.littleEndian(body, at: at, width: 8))))
          at += 8
        case 5:
          out.append(.double(Double(bitPattern: Self.littleEndian(body, at: at, width: 8))))
          at += 8
        case 6:
          let n = Int(Self.littleEndian(body, at: at, width: 4))
          out.append(.binary(Array(body[at + 4..<at + 4 + n])))
          at += 4 + n
        default: throw Failure(description: "an unexpected physical type")
        }
      }
      if bit > 0 { at += (bit + 7) / 8 }
      guard at == body.count else { throw Failure(description: "bytes left over in a page") }
    }
    return out
  }

  // MARK: Decoding

  private static func littleEndian(_ b: [UInt8], at: Int, width: Int) -> UInt64 {
    (0..<width).reversed().reduce(0) { $0 << 8 | UInt64(b[at + $1]) }
  }

  /// The RLE/bit-packing hybrid at bit width 1.
  static func levels(_ b: [UInt8], count: Int) throws -> [Bool] {
    var out: [Bool] = []
    var cursor = 0
    while out.count < count {
      let header = varint(b, &cursor)
      if header & 1 == 0 {
        let value = b[cursor] == 1
        cursor += 1
        out += [Bool](repeating: value, count: Int(header >> 1))
      } else {
        let groups = Int(header >> 1)
        for i in 0..<groups * 8 { out.append(b[cursor + i / 8] >> (i % 8) & 1 == 1) }
        cursor += groups
      }
    }
    guard cursor == b.count else { throw Failure(description: "definition levels too long") }
    return Array(out.prefix(count))
  }

  private static func varint(_ b: [UInt8], _ cursor: inout Int) -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      let byte = b[cursor]
      cursor += 1
      value |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { return value }
      shift += 7
    }
  }

  private static func zigzag(_ v: UInt64) -> Int64 {
    Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1)
  }

  static func readStruct(_ b: [UInt8], _ cursor: inout Int) throws -> Value {
    var fields: [Int16: Value] = [:]
    var last: Int16 = 0
    while true {
      let header = b[cursor]
      cursor += 1
      if header == 0 { return .fields(fields) }
      let delta = Int16(header >> 4)
      let id = delta == 0 ? Int16(zigzag(varint(b, &cursor))) : last + delta
      last = id
      fields[id] = try readValue(b, &cursor, type: header & 0x0F)
    }
  }

  private static func readValue(_ b: [UInt8], _ cursor: inout Int, type: UInt8) throws -> Value {
    switch type {
    case 1: return .bool(true)
    case 2: return .bool(false)
    case 3:
      cursor += 1
      return .int(Int64(Int8(bitPattern: b[cursor - 1])))
    case 4, 5, 6: return .int(zigzag(varint(b, &cursor)))
    case 7:
      let v = Double(bitPattern: littleEndian(b, at: cursor, width: 8))
      cursor += 8
      return .double(v)
    case 8:
      let n = Int(varint(b, &cursor))
      cursor += n
      return .binary(Array(b[cursor - n..<cursor]))
    case 9:
      let header = b[cursor]
      cursor += 1
      var size = Int(header >> 4)
      if size == 15 { size = Int(varint(b, &cursor)) }
      let element = header & 0x0F
      return .list(
        try (0..<size).map { _ in
          // A boolean element is a whole byte in a list.
          if element == 1 || element == 2 {
            cursor += 1
            return .bool(b[cursor - 1] == 1)
          }
          return try readValue(b, &cursor, type: element)
        })
    case 12: return try readStruct(b, &cursor)
    default: throw Failure(description: "thrift type \(type) not expected")
    }
  }
}
