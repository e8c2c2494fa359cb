import ResonanceIO
import ResonanceModel

/// Every format the tool imports, recognised by content: the one list of formats, their
/// readers, and the containers (zip, gzip) the walk opens.
///
/// Adding a listening format means a reader and one entry of `listeningFormats`; recognition,
/// `reader(for:)`, the `--as` names (`formats`), the lists the help and messages give
/// (`listeningFiles`, `expectedInput`) and the store's `mergePrecedence` derive from it, and
/// nothing outside `ResonanceIngest` changes.
package enum ImportRegistry {
  /// What the first bytes of a stream are.
  package enum Recognition: Sendable, Equatable {
    case format(ImportFormat)
    /// A zip archive: its members are walked.
    case zip
    /// A gzip stream: what it inflates to is recognised in turn.
    case gzip
    case unknown
  }

  /// How much of a stream recognition looks at first. An XML document whose root element is
  /// not yet in sight (a long DTD) is looked at again up to `PeekableSource.recognitionLimit`.
  package static let firstLook = 64 * 1024

  /// What a stream starting with `prefix` is.
  package static func recognize(_ prefix: [UInt8]) -> Recognition {
    if prefix.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .zip }
    if GzipSource.hasMagic(prefix) { return .gzip }
    if HealthExportLocator.looksLikeHealthExport(prefix) { return .format(.appleHealth) }
    if let name = TraceReader.format(ofFirstLine: prefix.prefix { $0 != UInt8(ascii: "\n") }),
      let format = RecordingFormat(rawValue: name)
    {
      return .format(.recording(format))
    }
    if let format = listeningFormats.first(where: { $0.recognizes(prefix) }) {
      return .format(.listening(format.kind))
    }
    return .unknown
  }

  /// Whether recognition should look further into a stream it did not recognise within
  /// `prefix`: an XML document whose root element has not appeared yet.
  static func wantsMore(_ prefix: [UInt8]) -> Bool {
    guard prefix.count >= firstLook, let first = prefix.first(where: { !isSpace($0) }),
      first == UInt8(ascii: "<") || first == 0xEF
    else { return false }
    // Past the prolog (`<?…?>`, `<!…>` and the DTD's internal subset) comes the root element.
    var i = 0
    var depth = 0
    while i < prefix.count {
      if prefix[i] == UInt8(ascii: "<"), i + 1 < prefix.count {
        let next = prefix[i + 1]
        if next == UInt8(ascii: "!") || next == UInt8(ascii: "?") {
          depth += 1
        } else if depth == 0 {
          return false
        }
      } else if prefix[i] == UInt8(ascii: ">"), depth > 0 {
        depth -= 1
      }
      i += 1
    }
    return true
  }

  /// The reader of `format`.
  package static func reader(for format: ImportFormat) -> any ExportReader {
    switch format {
    case .appleHealth: HealthExportReader()
    case .listening(let kind):
      if let format = listeningFormat(kind) {
        ListeningFileReader(format: format)
      } else {
        UnknownKindReader(kind: kind)
      }
    case .recording: RecordingReader()
    }
  }

  /// The entry of `listeningFormats` that declares `kind`.
  package static func listeningFormat(_ kind: ListeningFileKind) -> ListeningFormat? {
    listeningFormats.first { $0.kind == kind }
  }

  /// How the start of an unrecognised stream reads, for a message: its first 40 bytes as
  /// text, line breaks flattened, and any other control character (a NUL, an escape that
  /// would drive the terminal) written as `\u{1B}`.
  static func opening(_ prefix: [UInt8]) -> String {
    var text = ""
    for scalar in String(decoding: prefix.prefix(40), as: UTF8.self).unicodeScalars {
      switch scalar.value {
      case 0x0A, 0x0D, 0x09: text += " "
      case 0..<0x20, 0x7F, 0x80..<0xA0:
        text += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default: text.unicodeScalars.append(scalar)
      }
    }
    return text
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }
}
