import Foundation
import ResonanceBrain
import ResonanceIO
import ResonanceModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes the Resonance apps' own recordings, in the JSON Lines formats of `docs/formats.md`:
/// one header object, then one object per event or sample; gzip'd (`.jsonl.gz`) when the
/// configuration compresses.
struct TraceWriters {
  let history: SynthHistory

  /// Calendar months of the period as (index, first UTC ms, end UTC ms, label `yyyy-MM`).
  var months: [(start: Int64, end: Int64, label: String)] {
    var result: [(Int64, Int64, String)] = []
    let first = history.calendar.firstDay
    var (year, month, _) = Timestamp.civil(fromDays: first)
    var startDay = first
    let lastDay = first + Int64(history.days.count)
    while startDay < lastDay {
      var nextYear = year
      var nextMonth = month + 1
      if nextMonth > 12 {
        nextMonth = 1
        nextYear += 1
      }
      let nextDay = min(lastDay, Timestamp.days(fromYear: nextYear, month: nextMonth, day: 1))
      let a = history.calendar.utcMs(day: Int(startDay - first), localMinutes: 0)
      let b = history.calendar.utcMs(day: Int(nextDay - first), localMinutes: 0)
      result.append((a, b, "\(year)-\(month < 10 ? "0" : "")\(month)"))
      startDay = nextDay
      (year, month) = (nextYear, nextMonth)
    }
    return result
  }

  private func header(
    _ line: inout TextBuilder, format: String, version: Int = 1, extra: String = ""
  ) {
    line.add("{\"format\":\"")
    line.add(format)
    line.add("\",\"version\":")
    line.int(version)
    line.add(",\"generator\":\"resonance synth\"")
    line.add(extra)
    line.add("}\n")
  }

  private func stamp(_ line: inout TextBuilder, _ ms: Int64) {
    line.add("{\"t\":\"")
    line.isoUTC(ms, milliseconds: true)
    line.add("\",\"offset\":")
    line.int(Int(history.calendar.offset(utcMs: ms)))
  }

  // MARK: - Decision log

  /// The settings as the decision log's header and the preference file write them: JSON, keys
  /// sorted, every number the shortest that reads back exactly.
  static func preferencesJSON(_ preferences: UserPreferences) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    // Encoding a struct of numbers and strings cannot fail.
    return (try? encoder.encode(preferences)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
  }

  /// A candidate's inputs: `"song":…,"artist":…,"bpm":…,…,"last_played":…`.
  private func inputs(_ line: inout TextBuilder, _ c: Candidate) {
    line.add("{\"song\":")
    line.jsonString(c.songID ?? "")
    line.add(",\"artist\":")
    line.jsonString(c.artist)
    line.add(",\"bpm\":")
    line.exact(c.features.bpm)
    line.add(",\"energy\":")
    line.exact(c.features.energy)
    line.add(",\"valence\":")
    line.exact(c.features.valence)
    line.add(",\"plays\":")
    line.int(c.playCount)
    line.add(",\"learned\":")
    if let learned = c.learnedEffect { line.exact(learned) } else { line.add("null") }
    line.add(",\"last_played\":")
    if let last = c.lastPlayedAtMs {
      line.add("\"")
      line.isoUTC(last, milliseconds: true)
      line.add("\"")
    } else {
      line.add("null")
    }
  }

  /// The DJ's decision log, version 2: the header holds the settings in force; every decision
  /// line the moment, the heart rate and the adjuster's state, each admitted candidate's
  /// inputs, seven component values, scores and propensity, the rejected candidates with
  /// their inputs and the filter, the chosen song and the outcome. Every number is the
  /// shortest that reads back exactly. One file per month, so that a switch of settings at a
  /// month's start (`--dj-from`) shows in the header of the first file it governs.
  ///
  /// A month with days of an experiment is written in version 3: the header holds the
  /// settings outside the experiment's days and the plan's seed, first day and every arm's
  /// settings, and each decision on the plan's days names its arm.
  func writeDecisions(to folder: String) throws -> [String] {
    var files: [String] = []
    for month in months {
      let decisions = history.decisions.filter {
        $0.moment.nowMs >= month.start && $0.moment.nowMs < month.end
      }
      guard !decisions.isEmpty else { continue }
      let arms = decisions.map { history.djArm(atMs: $0.moment.nowMs) }
      let plan = arms.contains { $0 != nil } ? history.configuration.experiment : nil
      var extra =
        ",\"app\":\"Resonance DJ (simulated)\",\"preferences\":"
        + Self.preferencesJSON(
          plan == nil ? history.djPreferences(atMs: month.start) : history.djFilePreferences)
      if let plan {
        extra += ",\"experiment\":{\"seed\":\(plan.seed),\"start\":\"\(plan.start)\",\"arms\":["
        for (i, arm) in plan.arms.enumerated() {
          var name = TextBuilder()
          name.jsonString(arm.name)
          extra += (i > 0 ? "," : "") + "{\"name\":" + String(decoding: name.bytes, as: UTF8.self)
          extra += ",\"preferences\":" + Self.preferencesJSON(arm.preferences) + "}"
        }
        extra += "]}"
      }
      extra +=
        ",\"components\":[\"bpm\",\"energy\",\"familiarity\",\"historical\",\"context\",\"recency\",\"time_of_day\"]"
      let path = folder + "/decisions-\(month.label).jsonl"
      let out = try openRecording(path)
      var line = TextBuilder()
      header(&line, format: "resonance.decision-log", version: plan == nil ? 2 : 3, extra: extra)
      for (decision, arm) in zip(decisions, arms) {
        let m = decision.moment
        stamp(&line, m.nowMs)
        line.add(",\"decision\":")
        line.int(decision.id)
        line.add(",\"session\":")
        line.int(decision.session)
        if let plan, let arm {
          line.add(",\"arm\":")
          line.jsonString(plan.arms[arm].name)
        }
        line.add(
          ",\"need\":\"\(m.need.rawValue)\",\"context\":\"\(m.context.rawValue)\",\"local_hour\":")
        line.exact(m.localHour)
        line.add(",\"stress\":")
        line.exact(m.stress)
        line.add(",\"max_play_count\":\(m.maxPlayCount),\"previous\":")
        if let p = m.previous {
          line.add("{\"bpm\":")
          line.exact(p.bpm)
          line.add(",\"energy\":")
          line.exact(p.energy)
          line.add(",\"valence\":")
          line.exact(p.valence)
          line.add("}")
        } else {
          line.add("null")
        }
        line.add(",\"recent_artists\":[")
        for (i, artist) in m.recentArtists.enumerated() {
          if i > 0 { line.add(",") }
          line.jsonString(artist)
        }
        let a = decision.adjuster
        line.add("],\"heart_rate\":")
        line.exact(decision.heartRate)
        line.add(",\"adjuster\":{\"baseline_heart_rate\":")
        if let baseline = a.baselineHeartRate { line.exact(baseline) } else { line.add("null") }
        line.add(",\"bpm_ceiling\":")
        if let ceiling = a.bpmCeiling { line.exact(ceiling) } else { line.add("null") }
        line.add(",\"consecutive_skips\":")
        line.int(a.consecutiveSkips)
        line.add(",\"familiarity_boost\":")
        line.exact(a.familiarityBoost)
        line.add("},\"candidates\":[")
        for (i, scored) in decision.scored.enumerated() {
          if i > 0 { line.add(",") }
          inputs(&line, decision.candidates[scored.index])
          line.add(",\"c\":[")
          for (j, value) in scored.components.vector.enumerated() {
            if j > 0 { line.add(",") }
            line.exact(value)
          }
          line.add("],\"base\":")
          line.exact(scored.baseScore)
          line.add(",\"score\":")
          line.exact(scored.finalScore)
          line.add(",\"p\":")
          line.exact(scored.propensity)
          line.add("}")
        }
        line.add("],\"rejected\":[")
        let admitted = Set(decision.scored.map(\.index))
        var first = true
        for (i, c) in decision.candidates.enumerated() where !admitted.contains(i) {
          if !first { line.add(",") }
          first = false
          let reason =
            GuardFilters.rejection(
              of: c, at: m, preferences: history.djPreferences(atMs: m.nowMs), adjuster: a)?
            .rawValue ?? "none"
          inputs(&line, c)
          line.add(",\"reason\":\"\(reason)\"}")
        }
        let play = history.plays[decision.play]
        let song = history.songs[play.song]
        line.add(
          "],\"chosen\":\"\(song.catalogID)\",\"outcome\":{\"listened_ms\":\(play.playedMs),\"duration_ms\":\(song.durationMs),\"skipped\":\(play.isSkipped),\"completed\":\(play.isComplete)}}\n"
        )
        if line.bytes.count > 1 << 16 {
          try out.write(bytes: line.bytes)
          line.clear()
        }
      }
      try out.write(bytes: line.bytes)
      try out.close()
      files.append(out.path)
    }
    return files
  }

  // MARK: - One-step truth

  /// `decisions-truth.jsonl.gz` (`DecisionTruthFile`): a header, then one line per logged
  /// decision with its number, time, admitted songs in the log's order, and each one's skip
  /// chance, expected share heard and expected response score, to six decimals. Always
  /// compressed.
  func writeDecisionTruth(to path: String) throws -> String {
    let out = try GzipWriter(path: path)
    var line = TextBuilder()
    let person = history.person
    line.add(
      "{\"format\":\"\(DecisionTruthFile.format)\",\"version\":\(DecisionTruthFile.version),\"person\":\"\(person.kind.rawValue)\",\"seed\":\(history.configuration.seed),\"fields\":[\"skip\",\"share\",\"response\"]}\n"
    )
    for decision in history.decisions {
      line.add("{\"decision\":")
      line.int(decision.id)
      line.add(",\"time_ms\":\(decision.moment.nowMs),\"songs\":[")
      for (i, scored) in decision.scored.enumerated() {
        if i > 0 { line.add(",") }
        line.add("\"\(history.songs[decision.candidateSongs[scored.index]].catalogID)\"")
      }
      for (name, value) in [
        ("skip", \CandidateTruth.skip), ("share", \CandidateTruth.share),
        ("response", \CandidateTruth.response),
      ] {
        line.add("],\"\(name)\":[")
        for (i, truth) in decision.truth.enumerated() {
          if i > 0 { line.add(",") }
          line.number(truth[keyPath: value], 6)
        }
      }
      line.add("]}\n")
      if line.bytes.count > 1 << 16 {
        try out.write(bytes: line.bytes)
        line.clear()
      }
    }
    try out.write(bytes: line.bytes)
    try out.close()
    return path
  }

  // MARK: - Watch sensor trace

  /// The Watch's stream while the DJ runs: heart rate every 5 s, SDNN once a minute, and the
  /// stationary and workout flags (→ BiometricSample). One file per month.
  func writeWatch(to folder: String) throws -> [String] {
    var files: [String] = []
    for month in months {
      let sessions = history.sessions.filter {
        $0.byDJ && $0.startMs >= month.start && $0.startMs < month.end
      }
      guard !sessions.isEmpty else { continue }
      let path = folder + "/watch-\(month.label).jsonl"
      let out = try openRecording(path)
      var line = TextBuilder()
      header(
        &line, format: "resonance.watch-trace",
        extra: ",\"device\":\"Apple Watch\",\"hr_interval_s\":5,\"hrv_interval_s\":60")
      for session in sessions {
        var t = session.startMs - 60_000
        while t <= session.endMs {
          let activity = Activity(rawValue: history.activity[history.minute(t)]) ?? .rest
          stamp(&line, t)
          line.add(",\"hr\":")
          line.number(WatchSensor.heartRate(history, at: t), 1)
          if (t - session.startMs) % 60_000 == 0 {
            line.add(",\"hrv\":")
            line.number(WatchSensor.hrv(history, at: t), 1)
          }
          line.add(
            activity == .walking || activity == .workout
              ? ",\"stationary\":false" : ",\"stationary\":true")
          line.add(activity == .workout ? ",\"workout\":true}\n" : ",\"workout\":false}\n")
          t += 5_000
        }
        try out.write(bytes: line.bytes)
        line.clear()
      }
      try out.close()
      files.append(out.path)
    }
    return files
  }

  // MARK: - Mac context trace

  /// The Mac companion's context every five minutes of a working day: Focus mode, the front
  /// app's category, and whether a meeting is on (→ MacOSContext). One file per month.
  func writeMac(to folder: String) throws -> [String] {
    var files: [String] = []
    var rng = SplitMix64(seed: history.configuration.seed, stream: "mac")
    for month in months {
      let path = folder + "/mac-\(month.label).jsonl"
      var line = TextBuilder()
      header(
        &line, format: "resonance.mac-context",
        extra: ",\"device\":\"MacBook Pro\",\"interval_s\":300")
      var any = false
      for plan in history.days where plan.isWorkday {
        let dayStart = history.calendar.utcMs(day: plan.day, localMinutes: 0)
        guard dayStart >= month.start && dayStart < month.end else { continue }
        any = true
        let from = (plan.commutes.first?.end ?? 540) + 5
        let to = plan.commutes.last?.start ?? 1050
        for minute in stride(from: from, to: to, by: 5.0) {
          let t = history.calendar.utcMs(day: plan.day, localMinutes: minute)
          let inMeeting = plan.meetings.contains { minute >= $0.start && minute < $0.end }
          let deep = plan.deepWork.contains { minute >= $0.start && minute < $0.end }
          stamp(&line, t)
          line.add(",\"focus\":")
          line.add(deep && !inMeeting ? "\"Work\"" : "null")
          line.add(",\"app_category\":\"")
          line.add(
            inMeeting
              ? "video-conferencing"
              : deep
                ? rng.pick(["developer-tools", "developer-tools", "productivity", "reference"])
                : rng.pick(["browser", "communication", "productivity", "entertainment"]))
          line.add("\",\"meeting\":")
          line.add(inMeeting ? "true}\n" : "false}\n")
        }
      }
      guard any else { continue }
      let out = try openRecording(path)
      try out.write(bytes: line.bytes)
      try out.close()
      files.append(out.path)
    }
    return files
  }

  // MARK: - Mood inputs

  /// The mood inputs, one file; returns the path written (`.gz` added when compressing).
  func writeMood(to path: String) throws -> String {
    var line = TextBuilder()
    header(&line, format: "resonance.mood")
    for mood in history.moods {
      stamp(&line, mood.timeMs)
      line.add(",\"device\":\"\(mood.device.rawValue)\"")
      if let tap = mood.tap {
        line.add(",\"tap\":\"\(tap > 0 ? "😊" : tap < 0 ? "😔" : "😐")\"}\n")
      } else {
        line.add(",\"valence\":")
        line.number(mood.valence ?? 0.5, 2)
        line.add(",\"energy\":")
        line.number(mood.energy ?? 0.5, 2)
        line.add("}\n")
      }
    }
    let out = try openRecording(path)
    try out.write(bytes: line.bytes)
    try out.close()
    return out.path
  }

  // MARK: - Files

  /// Opens the recording at `path` (a `.jsonl` name) as it is, or as a gzip stream at
  /// `path.gz` when the configuration compresses, as the apps ship their recordings.
  func openRecording(_ path: String) throws(IOError) -> any RecordingOutput {
    if history.configuration.compresses { return try GzipWriter(path: path + ".gz") }
    return try OutputFile(path: path)
  }
}

/// Where a recording's bytes go: a plain file or a gzip stream. `path` is the file written.
protocol RecordingOutput: AnyObject {
  var path: String { get }
  func write(bytes: some Collection<UInt8>) throws(IOError)
  func close() throws(IOError)
}

extension OutputFile: RecordingOutput {}
extension GzipWriter: RecordingOutput {}
