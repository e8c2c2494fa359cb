import ResonanceIO
import ResonanceModel

/// Reads iTunes' and Music.app's `Library.xml`, an XML property list: the songs with their
/// genre, duration, tempo and play and skip counts, and the user's playlists in order.
///
/// A library holds counts, not listens, so the file gives songs and playlists and no plays.
/// Videos and podcasts are left out. Only the fields a song reference names are kept: never
/// `Location` (file paths hold the user's name) nor `Library Persistent ID`.
package enum MusicLibraryReader {
  /// How much of the start of a file `looksLike` looks at.
  package static let prefixLength = 4096

  /// Whether the first bytes of a file are those of a Music library: an XML property list
  /// with one of the library's top-level keys.
  package static func looksLike(_ prefix: [UInt8]) -> Bool {
    let head = Array(prefix.prefix(prefixLength))
    let isXML = ["<?xml", "<!DOCTYPE plist", "<plist"].contains { head.contains(utf8: $0) }
    let isLibrary = [
      "<key>Tracks</key>", "<key>Library Persistent ID</key>", "<key>Major Version</key>",
    ].contains { head.contains(utf8: $0) }
    return isXML && isLibrary
  }

  /// - Throws: `IngestError(.malformed)` at the line and column where the XML stops being
  ///   well-formed; `IngestError(.unrecognized)` for a property list without a `Tracks`
  ///   dictionary, or XML that is not a property list.
  package static func read(path: String, bytes: [UInt8]) throws -> (ListeningFile, [Diagnostic]) {
    try read(path: path, source: MemorySource(bytes, name: path))
  }

  /// Reads the library a chunk of the file at a time: memory holds the songs, not the file.
  package static func read(path: String, source: any ByteSource) throws -> (
    ListeningFile, [Diagnostic]
  ) {
    let handler = LibraryPlistHandler()
    let parser = XMLPushParser(handler: handler)
    let notALibrary = IngestError(
      .unrecognized, at: SourceLocation(file: path),
      "expected a Music library (an XML property list with a Tracks dictionary)")
    do {
      try source.forEachChunk(chunkSize: 1 << 16) { chunk in
        try parser.feed(array: Array(chunk.bindMemory(to: UInt8.self)))
        if handler.isNotAPropertyList { throw notALibrary }
        if let line = handler.tooLongLine {
          throw IngestError(
            .malformed, at: SourceLocation(file: path, line: line),
            "a value longer than \(LibraryPlistHandler.maximumValueBytes >> 20) MiB, the most one may be (no real library's is near it)"
          )
        }
      }
      try parser.finish()
    } catch let error as XMLParseError {
      throw IngestError(
        .malformed, at: SourceLocation(file: path, line: error.line, column: error.column),
        "malformed XML: \(error.message)")
    }
    guard handler.sawTracks, !handler.isNotAPropertyList else { throw notALibrary }

    var diagnostics: [Diagnostic] = []
    var playlists: [PlaylistReference] = []
    for playlist in handler.playlists {
      var songs: [SongReference] = []
      for item in playlist.items {
        if let index = handler.songIndex[item.trackID] {
          songs.append(handler.songs[index])
        } else if !handler.leftOut.contains(item.trackID) {
          diagnostics.append(
            Diagnostic(
              .warning,
              "playlist item skipped: track \(item.trackID) is not in the library's tracks",
              at: SourceLocation(file: path, line: item.line)))
        }
      }
      playlists.append(
        PlaylistReference(
          name: playlist.name ?? "", libraryPersistentID: playlist.persistentID, songs: songs))
    }
    return (
      ListeningFile(
        kind: .musicLibraryXML, songs: handler.songs, playlists: playlists,
        rows: handler.trackCount),
      diagnostics
    )
  }
}

/// The SAX handler behind `MusicLibraryReader`: a state machine over the property list's
/// `dict`/`array` nesting that keeps only the keys a song or playlist reference needs.
private final class LibraryPlistHandler: XMLEventHandler {
  /// What a `dict` or `array` is, from where it sits.
  enum Role {
    case plist, root, tracks, track, playlists, playlist, items, item, ignored
  }

  struct Frame {
    var role: Role
    /// The key whose value comes next, in a dictionary.
    var key: String?
  }

  /// One track's fields, as far as read.
  struct Track {
    var trackID: Int64?
    var name: String?
    var artist: String?
    var albumArtist: String?
    var album: String?
    var genre: String?
    var totalTime: Int64?
    var bpm: Double?
    var playCount: Int64?
    var skipCount: Int64?
    var persistentID: String?
    var isVideoOrPodcast = false
  }

  struct Playlist {
    var name: String?
    var persistentID: String?
    var isMaster = false
    var items: [(trackID: Int64, line: Int)] = []
  }

  private var stack: [Frame] = []
  private var text: [UInt8] = []
  private var collecting = false
  private var leafLine = 0
  private var track = Track()
  private var trackKey: String?
  private var playlist = Playlist()
  private var itemTrackID: Int64?
  private var itemLine = 0

  /// The root element is not `plist`, or the property list's top level is not a dictionary.
  private(set) var isNotAPropertyList = false
  /// Whether the top-level `Tracks` dictionary was read to its end.
  private(set) var sawTracks = false
  private(set) var trackCount = 0
  private(set) var songs: [SongReference] = []
  /// Track ID → index into `songs`.
  private(set) var songIndex: [Int64: Int] = [:]
  /// Track IDs of the videos and podcasts left out, which playlists may name.
  private(set) var leftOut: Set<Int64> = []
  private(set) var playlists: [Playlist] = []

  var wantsCharacters: Bool { true }

  /// The longest value collected, in bytes; a longer one stops the read (`tooLongLine`).
  static let maximumValueBytes = 1 << 20
  /// The line of the first value longer than `maximumValueBytes`, once one is met.
  private(set) var tooLongLine: Int?

  func characters(_ text: XMLText) {
    guard collecting else { return }
    guard self.text.count + text.bytes.count <= Self.maximumValueBytes else {
      collecting = false
      if tooLongLine == nil { tooLongLine = leafLine }
      return
    }
    self.text.append(contentsOf: text.bytes)
  }

  func startElement(_ name: XMLText, attributes: XMLAttributes, line: Int) {
    guard let top = stack.last else {
      if name.equals("plist") {
        stack.append(Frame(role: .plist))
      } else {
        isNotAPropertyList = true
      }
      return
    }
    if name.equals("dict") || name.equals("array") {
      let isDict = name.equals("dict")
      let role: Role
      switch (top.role, isDict, top.key) {
      case (.plist, true, _): role = .root
      case (.plist, false, _):
        isNotAPropertyList = true
        role = .ignored
      case (.root, true, "Tracks"?): role = .tracks
      case (.root, false, "Playlists"?): role = .playlists
      case (.tracks, true, _):
        role = .track
        track = Track()
        trackKey = top.key
      case (.playlists, true, _):
        role = .playlist
        playlist = Playlist()
      case (.playlist, false, "Playlist Items"?): role = .items
      case (.items, true, _):
        role = .item
        itemTrackID = nil
      default: role = .ignored
      }
      stack.append(Frame(role: role))
      return
    }
    text.removeAll(keepingCapacity: true)
    leafLine = line
    if name.equals("key") {
      collecting = top.role != .ignored
    } else {
      collecting = top.key.map { wants($0, in: top.role) } ?? false
    }
  }

  func endElement(_ name: XMLText) {
    guard !stack.isEmpty else { return }
    if name.equals("key") {
      if collecting { stack[stack.count - 1].key = String(decoding: text, as: UTF8.self) }
      collecting = false
      return
    }
    if name.equals("dict") || name.equals("array") {
      let frame = stack.removeLast()
      finish(frame.role)
      if !stack.isEmpty { stack[stack.count - 1].key = nil }
      return
    }
    if name.equals("plist") {
      stack.removeLast()
      return
    }
    let top = stack[stack.count - 1]
    if let key = top.key {
      if name.equals("true") || name.equals("false") {
        boolean(key, name.equals("true"), in: top.role)
      } else if collecting {
        value(key, in: top.role)
      }
    }
    collecting = false
    stack[stack.count - 1].key = nil
  }

  /// Whether the value of `key` in a container of `role` is kept.
  private func wants(_ key: String, in role: Role) -> Bool {
    switch role {
    case .track:
      switch key {
      case "Track ID", "Name", "Artist", "Album Artist", "Album", "Genre", "Total Time", "BPM",
        "Play Count", "Skip Count", "Persistent ID":
        true
      default: false
      }
    case .playlist: key == "Name" || key == "Playlist Persistent ID"
    case .item: key == "Track ID"
    default: false
    }
  }

  private func value(_ key: String, in role: Role) {
    switch role {
    case .track:
      switch key {
      case "Track ID": track.trackID = integer()
      case "Name": track.name = string()
      case "Artist": track.artist = string()
      case "Album Artist": track.albumArtist = string()
      case "Album": track.album = string()
      case "Genre": track.genre = string()
      case "Total Time": track.totalTime = integer()
      case "BPM": track.bpm = integer().map(Double.init) ?? Double(string() ?? "")
      case "Play Count": track.playCount = integer()
      case "Skip Count": track.skipCount = integer()
      case "Persistent ID": track.persistentID = string()
      default: break
      }
    case .playlist:
      if key == "Name" { playlist.name = string() }
      if key == "Playlist Persistent ID" { playlist.persistentID = string() }
    case .item:
      if key == "Track ID" {
        itemTrackID = integer()
        itemLine = leafLine
      }
    default: break
    }
  }

  private func boolean(_ key: String, _ value: Bool, in role: Role) {
    switch role {
    case .track:
      if value, ["Has Video", "Movie", "TV Show", "Podcast"].contains(key) {
        track.isVideoOrPodcast = true
      }
    case .playlist:
      if key == "Master" { playlist.isMaster = value }
    default: break
    }
  }

  private func finish(_ role: Role) {
    switch role {
    case .tracks: sawTracks = true
    case .track:
      trackCount += 1
      let id = track.trackID ?? trackKey.flatMap { Int64($0) }
      if track.isVideoOrPodcast {
        if let id { leftOut.insert(id) }
        return
      }
      if let id { songIndex[id] = songs.count }
      songs.append(
        SongReference(
          title: track.name, artist: track.artist ?? track.albumArtist, album: track.album,
          genre: track.genre, durationMs: track.totalTime,
          libraryPersistentID: track.persistentID,
          bpm: track.bpm.flatMap { $0 > 0 ? $0 : nil }, playCount: track.playCount.map(Int.init),
          skipCount: track.skipCount.map(Int.init)))
    case .playlist:
      if !playlist.isMaster { playlists.append(playlist) }
    case .item:
      if let itemTrackID { playlist.items.append((itemTrackID, itemLine)) }
    default: break
    }
  }

  /// The collected text, or nil when empty.
  private func string() -> String? {
    text.isEmpty ? nil : String(decoding: text, as: UTF8.self)
  }

  /// The collected text as a decimal integer (spaces around it allowed).
  private func integer() -> Int64? {
    guard let text = string() else { return nil }
    return Int64(text.trimmingSpaces())
  }
}

extension String {
  /// The string without leading and trailing spaces, tabs and line breaks.
  fileprivate func trimmingSpaces() -> Substring {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    guard let first = firstIndex(where: { !isSpace($0) }),
      let last = lastIndex(where: { !isSpace($0) })
    else { return "" }
    return self[first...last]
  }
}

extension Array where Element == UInt8 {
  /// Whether the bytes hold `needle`'s UTF-8 anywhere.
  func contains(utf8 needle: String) -> Bool {
    let pattern = Array(needle.utf8)
    guard !pattern.isEmpty, pattern.count <= count else { return pattern.isEmpty }
    var i = 0
    while i + pattern.count <= count {
      if self[i] == pattern[0], self[i..<(i + pattern.count)].elementsEqual(pattern) { return true }
      i += 1
    }
    return false
  }
}
