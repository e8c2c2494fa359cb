import Foundation
import ResonanceIO
import ResonanceIngest
import ResonanceModel
import ResonanceStore

/// Imports one recording of the apps' own formats, plain or gzip, in one transaction.
enum TraceImport {
  struct Result {
    var file: String
    var format: String
    var samples: Int
    var diagnostics: [Diagnostic]
    var previousImport: ImportEntry?
  }

  /// The file's bytes (gzip undone) when its first line is one of our formats' headers.
  static func recognize(path: String) throws -> (raw: [UInt8], text: [UInt8])? {
    var raw: [UInt8] = []
    try InputFile(path: path).forEachChunk { raw.append(contentsOf: $0) }
    let text = Decompression.isGzip(raw) ? try Decompression.gunzip(raw, path: path) : raw
    let firstLine = text.prefix { $0 != UInt8(ascii: "\n") }
    guard TraceReader.format(ofFirstLine: firstLine) != nil else { return nil }
    return (raw, text)
  }

  static func run(path: String, raw: [UInt8], text: [UInt8], store: Store) throws -> Result {
    let (file, diagnostics) = try TraceReader.read(path: path, data: Data(text))
    let hasher = SHA256()
    hasher.update(raw)
    let sha = hasher.finalize()
    var result = Result(
      file: path, format: file.format, samples: file.samples, diagnostics: diagnostics)
    if let previous = try store.existingImport(sha256: sha, importer: file.format) {
      result.previousImport = previous
      return result
    }
    let now = Clock.nowMilliseconds()
    try store.connection.transaction {
      let id = try store.insertImport(
        ImportEntry(
          file: path, sha256: sha, importer: file.format, status: .complete, records: file.samples,
          warnings: diagnostics.count),
        bytes: Int64(raw.count), startedAt: now, finishedAt: now)
      try store.insertTrace(file, importID: id)
    }
    return result
  }
}
