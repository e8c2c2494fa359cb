import ResonanceIO
import ResonanceModel

/// Writes the listening histories the services deliver: Apple Music's Play Activity CSV,
/// Play History Daily Tracks CSV and Library Tracks JSON, and Spotify's Extended Streaming
/// History JSON — with the quirks real downloads have.
struct ListeningWriters {
  let history: SynthHistory
  private var rng: SplitMix64

  init(history: SynthHistory) {
    self.history = history
    rng = SplitMix64(seed: history.configuration.seed, stream: "listening-files")
  }

  /// Columns of the Play Activity CSV, in Apple's alphabetical order since 2019 (a subset of
  /// the 134 a 2025 export has; no artist column, as in recent exports). The account and
  /// device columns are there because real files have them; resonance must drop them.
  static let playActivityColumns = [
    "Album Name", "Apple ID Number", "Apple Music Subscription", "Auto Play", "Build Version",
    "Client IP Address", "Container Album Name", "Container Artist Name",
    "Container Origin Type", "Container Type", "Device Identifier",
    "End Position In Milliseconds", "End Reason Type", "Event End Timestamp",
    "Event Reason Hint Type", "Event Start Timestamp", "Event Type", "Feature Name", "Item Type",
    "Media Duration In Milliseconds", "Media Type", "Offline", "Play Duration Milliseconds",
    "Repeat Play", "Shuffle Play", "Song Name", "Source Type", "Start Position In Milliseconds",
    "UTC Offset In Seconds", "User\u{2019}s Audio Quality", "User\u{2019}s Playback Format",
  ]

  /// The account values the privacy rules must keep out of the store (also in truth.json).
  static let appleIDNumber = "20938475612"
  static let deviceIdentifier = "4C2F0E9A7B3D4F1E9A8B7C6D5E4F3A2B1C0D9E8F"
  static let clientIP = "203.0.113.47"
  static let spotifyUsername = "jane.listener.1991"

  private struct Row {
    var eventType: String
    var startMs: Int64
    var endMs: Int64?
    var startPosition: Int
    var endPosition: Int
    var playedMs: Int
    var endReason: String
    var song: Int?
    var offset: Int32
    var shuffle: Bool
    var byDJ: Bool
    var itemType = "ITUNES_STORE_CONTENT"
  }

  /// `Apple Music Play Activity.csv`.
  mutating func writePlayActivity(to path: String) throws {
    let out = try OutputFile(path: path)
    try writePlayActivity(to: out)
    try out.close()
  }

  /// The Play Activity CSV's rows that start in `window` (every row is drawn, so that the
  /// draws are the whole file's), after its header line when `header` is set: an
  /// experiment's file is the history's own rows before the plan's first day, then the whole
  /// period's from it (`SynthWriter`).
  mutating func writePlayActivity(
    to out: OutputFile, window: Range<Int64> = .min ..< .max, header: Bool = true
  ) throws {
    var rows: [Row] = []
    for play in history.plays where play.service == .appleMusic {
      let offset = history.calendar.offset(utcMs: play.startMs)
      func row(_ type: String, _ start: Int64, _ from: Int, _ to: Int, _ reason: String) -> Row {
        Row(
          eventType: type, startMs: start, endMs: start + Int64(to - from), startPosition: from,
          endPosition: to, playedMs: to - from, endReason: reason, song: play.song, offset: offset,
          shuffle: play.shuffle, byDJ: play.byDJ)
      }
      rows.append(row("PLAY_START", play.startMs, 0, 0, ""))
      let finalReason: String
      if play.isSkipped {
        finalReason =
          rng.chance(0.1) ? "MANUALLY_SELECTED_PLAYBACK_OF_A_DIFF_ITEM" : "TRACK_SKIPPED_FORWARDS"
      } else if play.isComplete {
        finalReason = "NATURAL_END_OF_TRACK"
      } else {
        finalReason = "PLAYBACK_MANUALLY_PAUSED"
      }
      if let pause = play.pause {
        rows.append(
          row(
            "PLAY_END", play.startMs, 0, pause.atMs,
            rng.pick(["PLAYBACK_MANUALLY_PAUSED", "PLAYBACK_SUSPENDED"])))
        let resume = play.startMs + Int64(pause.atMs + pause.lengthMs)
        rows.append(row("PLAY_START", resume, pause.atMs, pause.atMs, ""))
        rows.append(row("PLAY_END", resume, pause.atMs, play.playedMs, finalReason))
      } else if let scrub = play.scrub {
        rows.append(row("PLAY_END", play.startMs, 0, scrub.atMs, "SCRUB_BEGIN"))
        let resume = play.startMs + Int64(scrub.atMs) + Int64(rng.int(300...1500))
        rows.append(
          row(
            "PLAY_END", resume, scrub.atMs + scrub.jumpMs, play.playedMs + scrub.jumpMs, finalReason
          ))
      } else {
        rows.append(row("PLAY_END", play.startMs, 0, play.playedMs, finalReason))
      }
      if rng.chance(0.03) {
        var lyric = row("LYRIC_DISPLAY", play.startMs + 15_000, 0, 0, "")
        lyric.endMs = nil
        rows.append(lyric)
      }
    }
    // Rows without a song: non-catalog aggregates with absurd durations, as real files have.
    for _ in 0..<max(2, history.plays.count / 400) {
      let t = history.t0Ms + Int64(rng.uniform(0, Double(history.minuteCount) * 60_000))
      rows.append(
        Row(
          eventType: "PLAY_END", startMs: t, endMs: t + 1000, startPosition: 0, endPosition: 0,
          playedMs: rng.chance(0.5) ? -rng.int(1000...5_974_836) : rng.int(10_000_000...59_310_000),
          endReason: "NOT_APPLICABLE", song: nil, offset: history.calendar.offset(utcMs: t),
          shuffle: false, byDJ: false, itemType: "AGGREGATE_NON_CATALOG_PLAY_TIME"))
    }
    // Chronological; a listen's PLAY_START before its PLAY_END.
    func rank(_ type: String) -> Int { type == "PLAY_START" ? 0 : type == "PLAY_END" ? 1 : 2 }
    rows.sort { ($0.startMs, rank($0.eventType)) < ($1.startMs, rank($1.eventType)) }

    var line = TextBuilder()
    if header {
      for (i, column) in Self.playActivityColumns.enumerated() {
        if i > 0 { line.add(",") }
        line.csvField(column)
      }
      line.add("\n")
    }
    for row in rows {
      let song = row.song.map { history.songs[$0] }
      let fields: [String] = [
        song?.album ?? "", Self.appleIDNumber, "true", row.byDJ ? "AUTO_ON" : "AUTO_OFF",
        "iOS-16.1-20B82", Self.clientIP, song?.album ?? "",
        // Container Artist Name is almost always empty.
        rng.chance(0.002) ? (song?.artist ?? "") : "",
        row.byDJ ? "THIRD_PARTY_APP" : "LIBRARY", row.byDJ ? "PLAYLIST" : "ALBUM",
        Self.deviceIdentifier, "\(row.endPosition)", row.endReason,
        row.endMs.map { iso($0) } ?? "", row.eventType == "PLAY_END" ? "USER" : "",
        iso(row.startMs), row.eventType, row.byDJ ? "resonance-dj" : "library / songs",
        row.itemType, song.map { "\($0.durationMs)" } ?? "", "AUDIO", "false",
        "\(row.playedMs)", "REPEAT_OFF", row.shuffle ? "SHUFFLE_ON" : "SHUFFLE_OFF",
        song?.title ?? "", "ORIGINATING_DEVICE", "\(row.startPosition)", "\(row.offset)",
        "HIGH_QUALITY", "AAC",
      ]
      // A fifth of the rows lose their end timestamp, as in real exports.
      var written = fields
      if row.eventType == "PLAY_END", rng.chance(0.2) { written[13] = "" }
      guard window.contains(row.startMs) else { continue }
      for (i, field) in written.enumerated() {
        if i > 0 { line.add(",") }
        line.csvField(field)
      }
      line.add("\n")
      if line.bytes.count > 1 << 16 {
        try out.write(bytes: line.bytes)
        line.clear()
      }
    }
    try out.write(bytes: line.bytes)
  }

  private func iso(_ ms: Int64) -> String {
    var text = TextBuilder()
    text.isoUTC(ms, milliseconds: true)
    return String(decoding: text.bytes, as: UTF8.self)
  }

  /// `Apple Music - Play History Daily Tracks.csv`: per song per local day; the same listening
  /// as the Play Activity file, never to be counted twice.
  mutating func writeDailyTracks(to path: String) throws {
    struct Day {
      var hours: Set<Int> = []
      var duration = 0
      var plays = 0
      var skips = 0
      var lastReason = ""
    }
    var days: [String: Day] = [:]
    var order: [String] = []
    for play in history.plays where play.service == .appleMusic {
      let offset = history.calendar.offset(utcMs: play.startMs)
      var date = TextBuilder()
      date.civil(play.startMs + Int64(offset) * 1000)
      let stamp = String(decoding: date.bytes, as: UTF8.self)
      let key =
        "\(stamp.prefix(4))\(stamp.dropFirst(5).prefix(2))\(stamp.dropFirst(8).prefix(2))|\(play.song)"
      if days[key] == nil { order.append(key) }
      var day = days[key] ?? Day()
      day.hours.insert(Int(stamp.dropFirst(11).prefix(2)) ?? 0)
      day.duration += play.playedMs
      day.plays += 1
      if play.isSkipped { day.skips += 1 }
      day.lastReason =
        play.isSkipped
        ? "TRACK_SKIPPED_FORWARDS"
        : play.isComplete ? "NATURAL_END_OF_TRACK" : "PLAYBACK_MANUALLY_PAUSED"
      days[key] = day
    }
    let out = try OutputFile(path: path)
    var line = TextBuilder()
    line.add(
      "Country,Track Identifier,Media type,Date Played,Hours,Play Duration Milliseconds,End Reason Type,Source Type,Play Count,Skip Count,Ignore For Recommendations,Track Reference,Track Description\n"
    )
    for key in order {
      let parts = key.split(separator: "|")
      let song = history.songs[Int(parts[1]) ?? 0]
      let day = days[key] ?? Day()
      let fields = [
        "USA", song.catalogID, "AUDIO", String(parts[0]),
        day.hours.sorted().map(String.init).joined(separator: ", "), "\(day.duration)",
        day.lastReason, "ORIGINATING_DEVICE", "\(day.plays)", "\(day.skips)", "false",
        song.catalogID, "\(song.artist) - \(song.title)",
      ]
      for (i, field) in fields.enumerated() {
        if i > 0 { line.add(",") }
        line.csvField(field)
      }
      line.add("\n")
    }
    try out.write(bytes: line.bytes)
    try out.close()
  }

  /// `Apple Music Library Tracks.json`: the library with genre, duration, BPM (0 when unknown,
  /// as most tracks are) and play and skip counts.
  func writeLibraryTracks(to path: String) throws {
    var plays = [Int](repeating: 0, count: history.songs.count)
    var skips = [Int](repeating: 0, count: history.songs.count)
    var last = [Int64?](repeating: nil, count: history.songs.count)
    for play in history.plays where play.service == .appleMusic {
      plays[play.song] += 1
      if play.isSkipped { skips[play.song] += 1 }
      last[play.song] = play.startMs
    }
    let out = try OutputFile(path: path)
    var text = TextBuilder()
    text.add("[\n")
    for (i, song) in history.songs.enumerated() {
      text.add("  {\"Track Identifier\": ")
      text.int(1_000_000 + i)
      text.add(", \"Title\": ")
      text.jsonString(song.title)
      text.add(", \"Artist\": ")
      text.jsonString(song.artist)
      text.add(", \"Album\": ")
      text.jsonString(song.album)
      text.add(", \"Genre\": ")
      text.jsonString(song.genre)
      text.add(", \"Track Duration\": ")
      text.int(song.durationMs)
      text.add(", \"Track Play Count\": ")
      text.int(plays[i])
      text.add(", \"Skip Count\": ")
      text.int(skips[i])
      text.add(", \"Beats Per Minute\": ")
      text.int(song.libraryBPM ?? 0)
      text.add(", \"Apple Music Track Identifier\": ")
      text.add(song.catalogID)
      text.add(", \"Content Type\": \"Song\", \"Date Added To Library\": ")
      var added = TextBuilder()
      added.isoUTC(history.t0Ms - Int64(i + 1) * 86_400_000 * 3, milliseconds: false)
      text.jsonString(String(decoding: added.bytes, as: UTF8.self))
      if let lastPlayed = last[i] {
        text.add(", \"Last Played Date\": ")
        var date = TextBuilder()
        date.isoUTC(lastPlayed, milliseconds: false)
        text.jsonString(String(decoding: date.bytes, as: UTF8.self))
      }
      text.add(i == history.songs.count - 1 ? "}\n" : "},\n")
    }
    text.add("]\n")
    try out.write(bytes: text.bytes)
    try out.close()
  }

  /// Spotify's Extended Streaming History: `ts` is when the stream stopped.
  mutating func writeSpotify(to path: String) throws -> Bool {
    let plays = history.plays.filter { $0.service == .spotify }
    guard !plays.isEmpty else { return false }
    let out = try OutputFile(path: path)
    var text = TextBuilder()
    text.add("[\n")
    for (i, play) in plays.enumerated() {
      let song = history.songs[play.song]
      text.add("  {\"ts\": \"")
      text.isoUTC(play.startMs + Int64(play.playedMs), milliseconds: false)
      text.add("\", \"username\": ")
      text.jsonString(Self.spotifyUsername)
      text.add(", \"platform\": \"ios\", \"ms_played\": ")
      text.int(play.playedMs)
      text.add(", \"conn_country\": \"US\", \"ip_addr\": ")
      text.jsonString(Self.clientIP)
      text.add(", \"master_metadata_track_name\": ")
      text.jsonString(song.title)
      text.add(", \"master_metadata_album_artist_name\": ")
      text.jsonString(song.artist)
      text.add(", \"master_metadata_album_album_name\": ")
      text.jsonString(song.album)
      text.add(", \"spotify_track_uri\": ")
      text.jsonString(song.spotifyURI)
      text.add(
        ", \"episode_name\": null, \"episode_show_name\": null, \"spotify_episode_uri\": null, \"reason_start\": "
      )
      let previous = i > 0 ? plays[i - 1] : nil
      let continued = previous.map { $0.session == play.session } ?? false
      let startReason = !continued ? "clickrow" : previous!.isSkipped ? "fwdbtn" : "trackdone"
      text.jsonString(startReason)
      text.add(", \"reason_end\": ")
      text.jsonString(play.isSkipped ? "fwdbtn" : play.isComplete ? "trackdone" : "endplay")
      text.add(", \"shuffle\": ")
      text.add(play.shuffle ? "true" : "false")
      text.add(", \"skipped\": ")
      text.add(play.isSkipped ? "true" : "false")
      text.add(", \"offline\": false, \"offline_timestamp\": ")
      text.int(Int((play.startMs + Int64(play.playedMs)) / 1000))
      text.add(", \"incognito_mode\": false}")
      text.add(i == plays.count - 1 ? "\n" : ",\n")
    }
    text.add("]\n")
    try out.write(bytes: text.bytes)
    try out.close()
    return true
  }
}
