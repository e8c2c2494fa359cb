import Foundation
import ResonanceBrain
import ResonanceIO
import ResonanceModel

/// Writes a simulated history into a folder, in the real export formats, with `truth.json`
/// beside it.
package struct SynthWriter {
  /// What was written, for the command's summary.
  package struct Summary: Sendable {
    package var files: [WrittenFile] = []
    package var plays = 0
    package var decisions = 0
    package var days = 0
  }

  package let history: SynthHistory
  package let folder: String
  /// With an experiment, the history before it simulated alone: the files that span the
  /// whole period (the Health export, the Play Activity CSV) hold its records before the
  /// plan's first day, then `history`'s from it, so that everything before that day is
  /// byte for byte what `synth --months M` wrote.
  package let alone: SynthHistory?

  package init(history: SynthHistory, alone: SynthHistory? = nil, folder: String) {
    self.history = history
    self.alone = alone
    self.folder = folder
  }

  /// The UTC instant the experiment's first day begins, local time; nil without one.
  var experimentStartMs: Int64? {
    guard alone != nil else { return nil }
    return history.calendar.utcMs(day: history.configuration.historyDayCount, localMinutes: 0)
  }

  /// Writes every file. `progress` receives a short label of what is being written.
  package func write(progress: (String) -> Void = { _ in }) throws -> Summary {
    let files = FileManager.default
    var summary = Summary()
    summary.plays = history.plays.count
    summary.decisions = history.decisions.count
    summary.days = history.days.count
    func folder(_ relative: String) throws -> String {
      let path = self.folder + "/" + relative
      try files.createDirectory(atPath: path, withIntermediateDirectories: true)
      return path
    }
    func record(_ path: String) {
      let attributes = try? files.attributesOfItem(atPath: path)
      let size = (attributes?[.size] as? NSNumber)?.int64Value ?? 0
      summary.files.append(
        WrittenFile(path: String(path.dropFirst(self.folder.count + 1)), bytes: size))
    }

    // Apple Health.
    progress("Apple Health export")
    let healthFolder = try folder("apple_health_export")
    let exportPath = healthFolder + "/export.xml"
    let exportFile = try OutputFile(path: exportPath)
    var health = HealthExportWriter(history: history, out: exportFile)
    var routes: [(name: String, gpx: String)] = []
    if let alone, let boundary = experimentStartMs {
      try health.writeHeader()
      var before = HealthExportWriter(history: alone, out: exportFile)
      before.window = .min..<boundary
      try before.writeRecords { _ in }
      health.window = boundary ..< .max
      try health.writeRecords { _ in }
      try health.writeEnd()
      routes = before.routes
    } else {
      try health.write { _ in }
    }
    routes += health.routes
    try exportFile.close()
    if history.configuration.writesZip {
      let zipPath = self.folder + "/export.zip"
      let zip = try ZipWriter(path: zipPath, modificationTime: zipTime)
      try zip.add(name: "apple_health_export/export.xml", contentsOfFile: exportPath)
      try zip.add(name: "apple_health_export/export_cda.xml", bytes: Array(cda.utf8))
      for route in routes {
        try zip.add(
          name: "apple_health_export/workout-routes/\(route.name)", bytes: Array(route.gpx.utf8))
      }
      try zip.close()
      try files.removeItem(atPath: healthFolder)
      record(zipPath)
    } else {
      record(exportPath)
    }

    // Apple Music and Spotify. Compressed, each service's folder is written, zipped as the
    // service delivers it, then removed.
    progress("listening histories")
    let compresses = history.configuration.compresses
    var listening = ListeningWriters(history: history)
    let apple = try folder("Apple Media Services/Apple Music Activity")
    if let alone, let boundary = experimentStartMs {
      let out = try OutputFile(path: apple + "/" + Self.playActivity)
      var before = ListeningWriters(history: alone)
      try before.writePlayActivity(to: out, window: .min..<boundary)
      try listening.writePlayActivity(to: out, window: boundary ..< .max, header: false)
      try out.close()
    } else {
      try listening.writePlayActivity(to: apple + "/" + Self.playActivity)
    }
    try listening.writeDailyTracks(to: apple + "/" + Self.dailyTracks)
    try listening.writeLibraryTracks(to: apple + "/" + Self.libraryTracks)
    if compresses {
      let zipPath = self.folder + "/Apple_Media_Services.zip"
      try zipAppleMediaServices(activity: apple, to: zipPath)
      try files.removeItem(atPath: self.folder + "/Apple Media Services")
      record(zipPath)
    } else {
      for name in [Self.playActivity, Self.dailyTracks, Self.libraryTracks] {
        record(apple + "/" + name)
      }
    }
    let spotifyPlays = history.plays.filter { $0.service == .spotify }
    if let first = spotifyPlays.first, let last = spotifyPlays.last {
      let (a, b) = (year(first.startMs), year(last.startMs))
      let years = a == b ? "\(a)" : "\(a)-\(b)"
      let spotifyFolder = "Spotify Extended Streaming History"
      let name = "Streaming_History_Audio_\(years)_0.json"
      let path = try folder(spotifyFolder) + "/" + name
      if try listening.writeSpotify(to: path) {
        if compresses {
          // my_spotify_data.zip holds the folder as it is, by the same name.
          let zipPath = self.folder + "/my_spotify_data.zip"
          let zip = try ZipWriter(path: zipPath, modificationTime: zipTime)
          try zip.add(name: spotifyFolder + "/" + name, contentsOfFile: path)
          try zip.close()
          try files.removeItem(atPath: self.folder + "/" + spotifyFolder)
          record(zipPath)
        } else {
          record(path)
        }
      }
    }

    // The apps' own recordings.
    progress("trace recordings")
    let traces = TraceWriters(history: history)
    for path in try traces.writeDecisions(to: folder("resonance/decisions")) { record(path) }
    for path in try traces.writeWatch(to: folder("resonance/watch")) { record(path) }
    for path in try traces.writeMac(to: folder("resonance/mac")) { record(path) }
    record(try traces.writeMood(to: folder("resonance/mood") + "/mood-inputs.jsonl"))
    progress("breathing sessions")
    let breathingFolder = try folder("resonance/breathing")
    var breathingTruth: [SynthTruth.Breathing] = []
    for session in history.breathing {
      let recording = BreathingRecorder.record(session, history: history)
      let out = try traces.openRecording(
        breathingFolder + "/breathing-\(pad4(session.id + 1)).jsonl")
      try out.write(bytes: recording.text)
      try out.close()
      record(out.path)
      let name = (out.path as NSString).lastPathComponent
      let cycle = session.pattern.phases.reduce(0) { $0 + $1.seconds }
      breathingTruth.append(
        .init(
          session: session.id + 1, file: "resonance/breathing/" + name,
          pattern: session.pattern.rawValue, started: iso(session.startMs),
          adherence: recording.adherence, trueRateBpm: recording.trueRate,
          pacerRateBpm: 60 / cycle, expression: session.expression,
          plantedSdnnChangeMs: session.plantedChange))
    }

    progress("truth.json")
    let truthPath = self.folder + "/truth.json"
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.keyEncodingStrategy = .convertToSnakeCase
    try encoder.encode(truth(breathing: breathingTruth)).write(to: URL(fileURLWithPath: truthPath))
    record(truthPath)
    progress("decisions-truth.jsonl.gz")
    record(try traces.writeDecisionTruth(to: self.folder + "/" + Self.decisionTruth))
    return summary
  }

  private func truth(breathing: [SynthTruth.Breathing]) -> SynthTruth {
    let c = history.configuration
    let plays = history.plays
    let djPlays = plays.filter(\.byDJ)
    // The settings from `dj_from` on, the whole period's without it (`SynthTruth.App`).
    let dj = history.djFilePreferences
    return SynthTruth(
      generator: .init(
        command: "resonance synth", seed: c.seed, months: c.months, songs: c.songs, scale: c.scale,
        start: String(format: "%04d-%02d-%02d", c.start.year, c.start.month, c.start.day),
        person: c.person.rawValue, tasteContrast: c.tasteContrast, effectScale: c.effectScale,
        zip: c.writesZip, djPreferences: c.djPreferencesSource,
        djFrom: c.djFromDay.map { String(iso($0 * 86_400_000).prefix(10)) },
        experimentStart: c.experiment?.start),
      person: .init(
        birthYear: history.person.birthYear, restingHrStart: history.person.restingHRStart,
        restingHrDriftPerYear: history.person.restingHRDriftPerYear,
        hrvBaseMs: history.person.hrvBaseMs, kind: history.person.kind.rawValue,
        preferences: history.person.preferences, traits: history.person.traits,
        targetSkipShare: history.person.targetSkipShare),
      app: .init(
        weights: dj.weights, policy: dj.policy.kind.rawValue, temperature: dj.policy.temperature,
        epsilon: dj.policy.epsilon),
      genrePriors: GenrePrior.table,
      contextGain: Dictionary(
        uniqueKeysWithValues: LibraryGenerator.contextGain.map { ($0.key.rawValue, $0.value) }),
      songs: history.songs.map {
        .init(
          catalogId: $0.catalogID, persistentId: $0.persistentID, spotifyUri: $0.spotifyURI,
          title: $0.title, artist: $0.artist, album: $0.album, genre: $0.genre,
          durationMs: $0.durationMs, bpm: $0.features.bpm, energy: $0.features.energy,
          valence: $0.features.valence, libraryBpm: $0.libraryBPM,
          effectKind: $0.effectKind.rawValue,
          hrEffectBpm: $0.hrEffectBPM, hrvEffectMs: $0.hrvEffectMs,
          tempoEffectBpm: history.configuration.planted == nil ? nil : $0.tempoEffectBPM)
      },
      trips: history.calendar.trips,
      nights: history.nights.map {
        .init(
          bed: iso($0.bedMs), wake: iso($0.wakeMs), deepShare: $0.deepShare, remShare: $0.remShare,
          listeningNudge: $0.listeningNudge, eveningMusic: $0.eveningMusic,
          asleepGainMin: $0.asleepGainMinutes)
      },
      breathing: breathing,
      practice: .init(
        acuteSdnnMs: breathing.isEmpty
          ? 0 : breathing.reduce(0) { $0 + $1.plantedSdnnChangeMs } / Double(breathing.count),
        nightSdnnMs: Practice.nightSDNN(history), morningRestingHrBpm: Practice.morningRestingHRBPM),
      step: c.stepDay.map {
        .init(
          date: String(iso($0 * 86_400_000).prefix(10)),
          restingHrBpm: Physiology.Step.restingHRBPM, sdnnFactor: Physiology.Step.sdnnFactor)
      },
      planted: c.planted.map(SynthTruth.Planted.init),
      eveningMusic: c.eveningAsleepMinutes.map {
        .init(
          asleepMin: $0, windowMin: ExperimentPlan.Evening.standardWindowMinutes,
          musicMin: ReportStatistics.eveningMusicMinutes)
      },
      plays: .init(
        total: plays.count, byDj: plays.filter(\.byDJ).count,
        skipped: plays.filter(\.isSkipped).count,
        skippedWithin5S: plays.filter { $0.isSkipped && $0.playedMs < 5_000 }.count,
        appleMusic: plays.filter { $0.service == .appleMusic }.count,
        spotify: plays.filter { $0.service == .spotify }.count, sessions: history.sessions.count,
        decisions: history.decisions.count, djSkipped: djPlays.filter(\.isSkipped).count,
        djListenShare: djPlays.isEmpty
          ? 0
          : djPlays.reduce(0) {
            $0 + min(1, Double($1.playedMs) / Double(history.songs[$1.song].durationMs))
          } / Double(djPlays.count)),
      djMonths: djMonths(),
      sessions: history.sessions.map {
        .init(startMs: $0.startMs, endMs: $0.endMs, context: $0.context.rawValue, byDj: $0.byDJ)
      },
      privacy: .init(
        appleIdNumber: ListeningWriters.appleIDNumber,
        deviceIdentifier: ListeningWriters.deviceIdentifier, clientIp: ListeningWriters.clientIP,
        spotifyUsername: ListeningWriters.spotifyUsername))
  }

  /// The closed-loop value of the DJ's policy in each month of the decision log
  /// (`SynthTruth.DJMonth`), from the full-precision truth and propensities the log's lines
  /// and `decisions-truth.jsonl.gz` round.
  private func djMonths() -> [SynthTruth.DJMonth] {
    TraceWriters(history: history).months.compactMap { month in
      let decisions = history.decisions.filter {
        $0.moment.nowMs >= month.start && $0.moment.nowMs < month.end
      }
      guard !decisions.isEmpty else { return nil }
      let n = Double(decisions.count)
      func mean(_ value: KeyPath<CandidateTruth, Double>) -> Double {
        var total = 0.0
        for decision in decisions {
          for (scored, truth) in zip(decision.scored, decision.truth) {
            total += scored.propensity * truth[keyPath: value]
          }
        }
        return total / n
      }
      let skipped = decisions.filter { history.plays[$0.play].isSkipped }.count
      return SynthTruth.DJMonth(
        month: month.label, decisions: decisions.count, skip: mean(\.skip),
        share: mean(\.share), response: mean(\.response), skipped: Double(skipped) / n)
    }
  }

  /// The one-step truth of every logged decision, beside truth.json (`DecisionTruthFile`).
  package static let decisionTruth = "decisions-truth.jsonl.gz"

  /// The Apple Music files, as written into the activity folder.
  private static let playActivity = "Apple Music Play Activity.csv"
  private static let dailyTracks = "Apple Music - Play History Daily Tracks.csv"
  private static let libraryTracks = "Apple Music Library Tracks.json"

  /// Seconds since the epoch stamped on every zip entry: the first simulated instant, so the
  /// same arguments give the same archives.
  private var zipTime: Int { Int(history.t0Ms / 1000) }

  /// Writes `Apple_Media_Services.zip` as privacy.apple.com delivers it (inside the download's
  /// outer zip): the CSVs under `Apple_Media_Services/Apple Music Activity/`, and the library
  /// JSON beside them in a zip of its own, `Apple Music Library Tracks.json.zip`. The inner zip
  /// is made in `activity`, which the caller removes.
  private func zipAppleMediaServices(activity: String, to zipPath: String) throws {
    let libraryZip = Self.libraryTracks + ".zip"
    let inner = try ZipWriter(path: activity + "/" + libraryZip, modificationTime: zipTime)
    try inner.add(name: Self.libraryTracks, contentsOfFile: activity + "/" + Self.libraryTracks)
    try inner.close()
    let zip = try ZipWriter(path: zipPath, modificationTime: zipTime)
    // Name order, as the folder's files are walked when it is not zipped.
    for name in [Self.dailyTracks, libraryZip, Self.playActivity] {
      try zip.add(
        name: "Apple_Media_Services/Apple Music Activity/" + name,
        contentsOfFile: activity + "/" + name)
    }
    try zip.close()
  }

  private func iso(_ ms: Int64) -> String { Timestamp.iso8601UTC(millisecondsSinceEpoch: ms) }

  private func year(_ ms: Int64) -> Int64 { Timestamp.civil(fromDays: ms / 86_400_000).year }

  private func pad4(_ n: Int) -> String {
    let digits = String(n)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  /// A small `export_cda.xml`, which real zips carry and importers skip.
  private var cda: String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <ClinicalDocument xmlns="urn:hl7-org:v3">
     <title>Health Data</title>
    </ClinicalDocument>

    """
  }
}
