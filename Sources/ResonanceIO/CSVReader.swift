/// A fast RFC 4180 tokenizer over bytes in memory: fields separated by commas, records by
/// `\n` or `\r\n`, quoted fields with `""` for a quote and line breaks inside them.
///
/// Fields are handed out as byte ranges into the buffer; only quoted fields holding a doubled
/// quote, and fields holding a NUL byte, are copied. A UTF-8 byte-order mark at the start is
/// skipped. NUL bytes are removed from fields (text with a NUL would end at it wherever it
/// went next, a C string or SQLite); `CSVRecord.fieldsWithNUL` names the fields that had one,
/// for the reader to warn.
///
/// ```swift
/// var reader = CSVReader(bytes: data)
/// while let record = try reader.next() {
///   print(reader.line, record.string(0))
/// }
/// ```
package struct CSVReader {
  /// The bytes in hand: the whole input, or (reading a source) a window of it from the current
  /// record on.
  private var bytes: [UInt8]
  private var position: Int
  private var nextLine = 1
  /// The line (1-based) the last record returned by `next()` began on.
  package private(set) var line = 0
  private var ranges: [Range<Int>] = []
  private var unescaped: [Int: [UInt8]] = [:]
  /// The fields of the current record that held NUL bytes, now removed.
  fileprivate private(set) var nulFields: [Int] = []
  /// Where more bytes come from; nil once the input is all in `bytes`.
  private var source: (any ByteSource)?
  /// Bytes asked of the source per read.
  private let chunkSize: Int

  /// A reader of bytes in memory.
  package init(bytes: [UInt8]) {
    self.bytes = bytes
    position = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    source = nil
    chunkSize = 0
  }

  /// A reader of a stream, holding a window of about `chunkSize` bytes (more only for a
  /// record longer than that): memory stays flat however long the file.
  ///
  /// - Throws: `IOError` from the first read.
  package init(source: any ByteSource, chunkSize: Int = 1 << 20) throws(IOError) {
    bytes = []
    position = 0
    self.source = source
    self.chunkSize = max(chunkSize, 16)
    while bytes.count < 3, self.source != nil { try refill() }
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
  }

  /// Whether the record ended inside a quoted field (the file is cut short).
  package private(set) var endedInsideQuotes = false

  /// The longest record read, in bytes: a real export's rows are at most a few kilobytes, and
  /// a longer one (a field of gigabytes in a small gzip) would be held whole.
  package static let maximumRecordBytes = 1 << 20

  /// The next record, or nil at the end of the input. Blank lines are skipped.
  ///
  /// - Throws: `IOError` when the source cannot be read (never for bytes in memory);
  ///   `CSVRecordTooLong` for a record longer than `maximumRecordBytes`.
  package mutating func next() throws -> CSVRecord? {
    while true {
      // Blank lines are passed before the record's start is kept, so a window of nothing
      // but line breaks is dropped at the next refill.
      skipBlankLines()
      let startLine = nextLine
      let startPosition = position
      if let complete = scanRecord() {
        guard position - startPosition <= Self.maximumRecordBytes else {
          throw CSVRecordTooLong(line: startLine, limit: Self.maximumRecordBytes)
        }
        return complete ? CSVRecord(reader: self) : nil
      }
      // The window ends inside this record: read on, and scan it again from its start.
      position = startPosition
      nextLine = startLine
      guard bytes.count - startPosition <= Self.maximumRecordBytes else {
        throw CSVRecordTooLong(line: startLine, limit: Self.maximumRecordBytes)
      }
      try refill()
    }
  }

  /// Passes line breaks at `position`, counting lines.
  private mutating func skipBlankLines() {
    var p = position
    var lines = nextLine
    bytes.withUnsafeBufferPointer { b in
      while p < b.count, b[p] == 0x0A || b[p] == 0x0D {
        if b[p] == 0x0A { lines += 1 }
        p += 1
      }
    }
    position = p
    nextLine = lines
  }

  /// Moves the unread bytes to the front and appends the source's next chunk; at the end of
  /// the source, drops it.
  private mutating func refill() throws(IOError) {
    guard let source else { return }
    if position > 0 {
      bytes.removeSubrange(0..<position)
      position = 0
    }
    let n = try source.append(to: &bytes, chunkSize: chunkSize)
    if n == 0 { self.source = nil }
  }

  /// Tokenizes the record at `position`: true when one was read, false at the end of the
  /// input, nil when the window ends before the record does and the source has more.
  private mutating func scanRecord() -> Bool? {
    ranges.removeAll(keepingCapacity: true)
    unescaped.removeAll(keepingCapacity: true)
    nulFields.removeAll(keepingCapacity: true)
    let count = bytes.count
    let streaming = source != nil
    // Skip blank lines.
    while position < count, bytes[position] == 0x0A || bytes[position] == 0x0D {
      if bytes[position] == 0x0A { nextLine += 1 }
      position += 1
    }
    guard position < count else { return streaming ? nil : false }
    line = nextLine
    let data = bytes
    return data.withUnsafeBufferPointer { b -> Bool? in
      var i = position
      while true {
        if i < count, b[i] == 0x22 {
          // Quoted field.
          i += 1
          let start = i
          var hasEscapes = false
          var hasNUL = false
          var closed = false
          while i < count {
            let c = b[i]
            if c == 0 { hasNUL = true }
            if c == 0x22 {
              if i + 1 < count, b[i + 1] == 0x22 {
                hasEscapes = true
                i += 2
                continue
              }
              // A quote as the window's last byte may be the first of a doubled one.
              if i + 1 == count, streaming { return nil }
              closed = true
              break
            }
            if c == 0x0A { nextLine += 1 }
            i += 1
          }
          if !closed {
            if streaming { return nil }
            endedInsideQuotes = true
          }
          let end = i
          if closed { i += 1 }
          if hasEscapes || hasNUL {
            var copy: [UInt8] = []
            copy.reserveCapacity(end - start)
            var j = start
            while j < end {
              if b[j] != 0 { copy.append(b[j]) }
              j += b[j] == 0x22 ? 2 : 1
            }
            unescaped[ranges.count] = copy
            if hasNUL { nulFields.append(ranges.count) }
          }
          ranges.append(start..<end)
          // Anything between the closing quote and the separator is kept out.
          while i < count, b[i] != 0x2C, b[i] != 0x0A { i += 1 }
        } else {
          let start = i
          var hasNUL = false
          while i < count, b[i] != 0x2C, b[i] != 0x0A {
            if b[i] == 0 { hasNUL = true }
            i += 1
          }
          var end = i
          if end > start, b[end - 1] == 0x0D { end -= 1 }
          if hasNUL {
            unescaped[ranges.count] = b[start..<end].filter { $0 != 0 }
            nulFields.append(ranges.count)
          }
          ranges.append(start..<end)
        }
        // The window ended before the record's separator or line end.
        if i >= count, streaming { return nil }
        if i < count, b[i] == 0x2C {
          i += 1
          if i == count {
            if streaming { return nil }
            ranges.append(i..<i)
          }
          continue
        }
        if i < count { i += 1 }  // the newline
        nextLine += 1
        break
      }
      position = i
      return true
    }
  }

  fileprivate func fieldCount() -> Int { ranges.count }

  fileprivate func withField<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if let copy = unescaped[index] { return copy.withUnsafeBufferPointer(body) }
    let range = ranges[index]
    return bytes.withUnsafeBufferPointer { b in
      body(UnsafeBufferPointer(rebasing: b[range]))
    }
  }
}

/// One record of a `CSVReader`: valid until the reader's next call to `next()`.
package struct CSVRecord {
  fileprivate let reader: CSVReader

  /// The number of fields.
  package var count: Int { reader.fieldCount() }

  /// The fields (by index) that held NUL bytes, which the reader removed.
  package var fieldsWithNUL: [Int] { reader.nulFields }

  /// Field `index` as bytes (empty when the record has fewer fields).
  package func withBytes<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    guard index >= 0, index < count else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
    return reader.withField(index, body)
  }

  /// Field `index` as a string; empty when absent.
  package func string(_ index: Int) -> String {
    withBytes(index) { String(decoding: $0, as: UTF8.self) }
  }

  /// Field `index` as a string, or nil when absent or empty.
  package func nonEmpty(_ index: Int) -> String? {
    withBytes(index) { $0.isEmpty ? nil : String(decoding: $0, as: UTF8.self) }
  }

  /// Field `index` as a signed decimal integer (no spaces, no fraction), or nil.
  package func int(_ index: Int) -> Int64? {
    withBytes(index) { b in
      guard !b.isEmpty else { return nil }
      var i = 0
      var negative = false
      if b[0] == UInt8(ascii: "-") {
        negative = true
        i = 1
      }
      guard i < b.count else { return nil }
      var value: Int64 = 0
      while i < b.count {
        let d = b[i] &- 48
        guard d < 10 else { return nil }
        let (m, o1) = value.multipliedReportingOverflow(by: 10)
        let (a, o2) = m.addingReportingOverflow(Int64(d))
        guard !o1, !o2 else { return nil }
        value = a
        i += 1
      }
      return negative ? -value : value
    }
  }

  /// Whether field `index` equals `literal` byte for byte.
  package func equals(_ index: Int, _ literal: StaticString) -> Bool {
    withBytes(index) { b in
      literal.withUTF8Buffer { l in
        l.count == b.count && (b.isEmpty || zip(l, b).allSatisfy { $0 == $1 })
      }
    }
  }
}

/// A CSV record longer than the reader takes (`CSVReader.maximumRecordBytes`), at the line it
/// begins on.
package struct CSVRecordTooLong: Error, Sendable, Equatable {
  package var line: Int
  package var limit: Int

  package var message: String {
    "a row longer than \(limit >> 20) MiB, the most one may be (no real export's is near it)"
  }
}
