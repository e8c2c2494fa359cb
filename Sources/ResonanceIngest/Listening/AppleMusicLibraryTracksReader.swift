import Foundation
import ResonanceIO
import ResonanceModel

/// Apple Music's `Apple Music Library Tracks.json`: the library with genre, duration, tempo
/// (when not 0), play and skip counts, and the catalog ID that links it to the decision log.
package enum AppleMusicLibraryTracksReader {
  package static func looksLike(_ prefix: [UInt8]) -> Bool {
    let text = String(decoding: prefix.prefix(4096), as: UTF8.self)
    return text.drop { $0.isWhitespace }.first == "["
      && text.contains("\"Track Identifier\"") && text.contains("\"Title\"")
  }

  package static func read(path: String, bytes: [UInt8]) throws -> (ListeningFile, [Diagnostic]) {
    try read(path: path, source: MemorySource(bytes, name: path))
  }

  /// Reads the tracks a window of the file at a time: memory holds the songs, not the file.
  package static func read(path: String, source: any ByteSource) throws -> (
    ListeningFile, [Diagnostic]
  ) {
    var stream: JSONObjectStream
    do {
      stream = try JSONObjectStream(source: source)
    } catch let error as JSONScanError {
      throw IngestError(
        .unrecognized, at: SourceLocation(file: path, line: error.line, column: error.column),
        "\(error.message) (Library Tracks is a JSON array of tracks)")
    }
    var songs: [SongReference] = []
    var diagnostics: [Diagnostic] = []
    var rows = 0
    do {
      while let track = try stream.next() {
        rows += 1
        let location = SourceLocation(file: path, line: stream.line)
        let fields = EntryFields(track, at: location, entryName: "track")
        let title: String
        switch fields.title("Title", warnings: &diagnostics) {
        case .refused: continue
        case .none:
          diagnostics.append(Diagnostic(.warning, "track skipped: no \"Title\"", at: location))
          continue
        case .text(let text): title = text
        }
        if let type = fields.text("Content Type", warnings: &diagnostics), type != "Song" {
          continue
        }
        // Identifiers come as numbers or as strings; 0 means none.
        let catalogID =
          track.int64("Apple Music Track Identifier").map(String.init)
          ?? track.string("Apple Music Track Identifier")
        songs.append(
          SongReference(
            title: title, artist: fields.text("Artist", warnings: &diagnostics),
            album: fields.text("Album", warnings: &diagnostics),
            genre: fields.text("Genre", warnings: &diagnostics).flatMap { $0.isEmpty ? nil : $0 },
            durationMs: track.int64("Track Duration"),
            appleCatalogID: catalogID.flatMap { $0.isEmpty || $0 == "0" ? nil : $0 },
            bpm: track.number("Beats Per Minute").flatMap { $0 > 0 ? $0 : nil },
            playCount: track.int64("Track Play Count").map { Int($0) },
            skipCount: track.int64("Skip Count").map { Int($0) }))
      }
    } catch let error as JSONScanError {
      throw IngestError(
        .malformed, at: SourceLocation(file: path, line: error.line, column: error.column),
        error.message)
    }
    return (ListeningFile(kind: .appleLibraryTracks, songs: songs, rows: rows), diagnostics)
  }
}
