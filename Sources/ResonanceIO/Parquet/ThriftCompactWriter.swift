/// Apache Thrift's compact protocol, the writing half and only what Parquet's metadata uses:
/// structs of i16/i32/i64, booleans, doubles, binary strings, lists and nested structs.
///
/// A field is written as a header byte (the id's difference from the previous field's id in
/// the high nibble when it is 1–15, else a zigzag varint id after it; the type in the low
/// nibble), then its value. Integers are zigzag varints; a list is its size and element type,
/// then its elements; a struct ends with a stop byte, and each struct counts its field ids
/// from zero (thrift's compact protocol specification, `TCompactProtocol`).
struct ThriftCompactWriter {
  /// The compact protocol's type codes.
  enum FieldType: UInt8 {
    case booleanTrue = 1
    case booleanFalse = 2
    case i16 = 4
    case i32 = 5
    case i64 = 6
    case double = 7
    case binary = 8
    case list = 9
    case `struct` = 12
  }

  private(set) var bytes: [UInt8] = []
  /// The last field id written in each open struct, innermost last.
  private var lastFieldIDs: [Int16] = [0]

  // MARK: Fields

  mutating func field(_ id: Int16, i32 value: Int32) {
    fieldHeader(id, .i32)
    varint(zigzag(Int64(value)))
  }

  mutating func field(_ id: Int16, i64 value: Int64) {
    fieldHeader(id, .i64)
    varint(zigzag(value))
  }

  mutating func field(_ id: Int16, bool value: Bool) {
    fieldHeader(id, value ? .booleanTrue : .booleanFalse)
  }

  mutating func field(_ id: Int16, string value: String) {
    fieldHeader(id, .binary)
    binary(Array(value.utf8))
  }

  /// A struct-valued field: `body` writes its fields.
  mutating func field(_ id: Int16, struct body: (inout ThriftCompactWriter) -> Void) {
    fieldHeader(id, .struct)
    structBody(body)
  }

  /// A list of structs.
  mutating func field<Element>(
    _ id: Int16, structs elements: [Element],
    _ body: (inout ThriftCompactWriter, Element) -> Void
  ) {
    fieldHeader(id, .list)
    listHeader(count: elements.count, .struct)
    for element in elements { structBody { body(&$0, element) } }
  }

  mutating func field(_ id: Int16, i32s values: [Int32]) {
    fieldHeader(id, .list)
    listHeader(count: values.count, .i32)
    for value in values { varint(zigzag(Int64(value))) }
  }

  mutating func field(_ id: Int16, strings values: [String]) {
    fieldHeader(id, .list)
    listHeader(count: values.count, .binary)
    for value in values { binary(Array(value.utf8)) }
  }

  /// Ends the outermost struct (the document): its stop byte.
  mutating func stop() {
    bytes.append(0)
  }

  // MARK: Encoding

  private mutating func structBody(_ body: (inout ThriftCompactWriter) -> Void) {
    lastFieldIDs.append(0)
    body(&self)
    bytes.append(0)
    lastFieldIDs.removeLast()
  }

  private mutating func fieldHeader(_ id: Int16, _ type: FieldType) {
    let last = lastFieldIDs[lastFieldIDs.count - 1]
    precondition(id > last, "thrift fields are written in increasing id order")
    let delta = id - last
    if delta <= 15 {
      bytes.append(UInt8(delta) << 4 | type.rawValue)
    } else {
      bytes.append(type.rawValue)
      varint(zigzag(Int64(id)))
    }
    lastFieldIDs[lastFieldIDs.count - 1] = id
  }

  private mutating func listHeader(count: Int, _ type: FieldType) {
    if count < 15 {
      bytes.append(UInt8(count) << 4 | type.rawValue)
    } else {
      bytes.append(0xF0 | type.rawValue)
      varint(UInt64(count))
    }
  }

  private mutating func binary(_ value: [UInt8]) {
    varint(UInt64(value.count))
    bytes.append(contentsOf: value)
  }

  private func zigzag(_ value: Int64) -> UInt64 {
    UInt64(bitPattern: (value << 1) ^ (value >> 63))
  }

  private mutating func varint(_ value: UInt64) {
    Self.appendVarint(value, to: &bytes)
  }

  /// `value` as an unsigned LEB128 varint, seven bits a byte, low first: Thrift's compact
  /// integers, and the run headers of Parquet's RLE/bit-packing hybrid.
  static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
    var value = value
    while value >= 0x80 {
      bytes.append(UInt8(value & 0x7F) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(value))
  }
}
