import Foundation
import ResonanceBrain
import ResonanceIO
import ResonanceModel
import ResonanceStore

/// `resonance validate`: how well the analyses recover what `resonance synth` planted.
struct ValidateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "validate",
    abstract: "Compare the store's analyses with the truth a simulated person planted.",
    discussion: """
      Reads truth.json (written by resonance synth beside the files it made) and the store the \
      files were ingested into and analysed (resonance analyze), and reports how well the \
      analyses recover the truth, each figure beside its goal:

      breathing: Spearman's correlation of the Resonance Score and of the phase-locking value \
      with the planted adherence (goal ≥ 0.8), and for sessions that followed the pacer \
      throughout, the largest breathing-rate error (goal ≤ 0.5 breaths/min).

      sessions: the share of plays whose reconstructed session has the context they were lived \
      in.

      song effects on heart rate and HRV: how often the 90% intervals cover the planted effect \
      (goal 0.85–0.95), how many songs differ from the average song, and Spearman's \
      correlation with the planted effects over songs with at least 8 plays (goal ≥ 0.8 at \
      --effect-scale 3).

      song features: the error of the tempo, energy and valence estimates per source, and how \
      often the planted value lies within their intervals.

      docs/validation.md holds its output for the sample and two 12-month sets.
      """,
    options: [
      OptionDefinition(
        "truth", .value(placeholder: "FILE"),
        help: "The truth.json of the simulated person. Required."),
      CommonOptions.db, CommonOptions.json,
    ],
    examples: [
      Example(
        "resonance validate --truth Datasets/sample/truth.json --db Reports/demo.sqlite",
        "Validate the demo's store against the sample's truth.")
    ])

  var truthPath: String
  var storePath: String
  var isJSON: Bool

  init(parsed: ParsedArguments, environment: [String: String]) throws(UsageError) {
    guard let truth = parsed.value("truth") else {
      throw UsageError(
        "missing '--truth FILE' for 'validate'",
        hint: "write 'resonance validate --truth truth.json'")
    }
    truthPath = truth
    storePath = CommonOptions.storePath(parsed, environment)
    isJSON = parsed.flag("json")
  }

  func run(in context: CommandContext) throws -> ExitCode {
    var data = Data()
    try InputFile(path: truthPath).forEachChunk { data.append(contentsOf: $0) }
    guard let truth = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      truth["songs"] is [[String: Any]] || truth["breathing"] is [[String: Any]]
    else {
      throw CommandError(
        .dataError, "\(truthPath): expected a truth.json written by resonance synth")
    }
    let store = try CommonOptions.openStore(path: storePath, environment: context.environment)
    let breathing = try Self.breathing(truth, store)
    let effects = try Self.songEffects(truth, store)
    let features = try Self.features(truth, store)
    let contexts = try Self.contexts(truth, store)
    guard breathing != nil || !effects.isEmpty || !features.isEmpty else {
      throw CommandError(
        .noInput,
        "\(storePath): nothing in the store matches \(truthPath) (ingest the person's files and run resonance analyze first)"
      )
    }
    if isJSON {
      var object: [String: Any] = [:]
      if let breathing { object["breathing"] = breathing.json }
      if let contexts { object["sessions"] = contexts.json }
      if !effects.isEmpty {
        object["song_effects"] = Dictionary(
          uniqueKeysWithValues: effects.map { ($0.signal, $0.json) })
      }
      if !features.isEmpty {
        object["song_features"] = Dictionary(
          uniqueKeysWithValues: features.map { ($0.feature, $0.json) })
      }
      let json = try JSONSerialization.data(
        withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
      context.console.out(String(decoding: json, as: UTF8.self) + "\n")
    } else {
      if let breathing { context.console.out(breathing.text(truthPath) + "\n") }
      if let contexts { context.console.out(contexts.text + "\n") }
      for effect in effects { context.console.out(effect.text + "\n") }
      if !features.isEmpty {
        context.console.out(
          "song features against the planted ones (mean absolute error; share within ± 1.645 sd):\n"
            + features.map(\.text).joined(separator: "\n") + "\n")
      }
    }
    return .ok
  }

  static func f(_ x: Double?) -> String { x.map { ProgressReporter.fixed($0, 3) } ?? "–" }

  static func nullable(_ x: Double?) -> Any { x.map { $0 as Any } ?? NSNull() }

  /// The breathing analysis against the planted adherence and rates.
  struct BreathingValidation {
    var sessions: Int
    var spearmanScore: Double?
    var spearmanPLV: Double?
    var followed: Int
    var maxError: Double?

    var met: Bool {
      (spearmanScore ?? 0) >= 0.8 && (spearmanPLV ?? 0) >= 0.8 && (maxError ?? 0) <= 0.5
    }

    var json: [String: Any] {
      [
        "sessions": sessions, "spearman_score_adherence": nullable(spearmanScore),
        "spearman_plv_adherence": nullable(spearmanPLV), "followed_sessions": followed,
        "max_rate_error_followed": nullable(maxError), "goals_met": met,
      ]
    }

    func text(_ truthPath: String) -> String {
      """
      breathing: \(sessions) sessions matched to \(truthPath)
        Spearman(Resonance Score, planted adherence)  \(f(spearmanScore))   goal ≥ 0.8
        Spearman(phase locking, planted adherence)    \(f(spearmanPLV))   goal ≥ 0.8
        sessions that followed the pacer throughout   \(followed)
        largest breathing-rate error among them       \(f(maxError)) breaths/min   goal ≤ 0.5
        goals \(met ? "met" : "NOT met")
      """
    }
  }

  static func breathing(_ truth: [String: Any], _ store: Store) throws -> BreathingValidation? {
    guard let planted = truth["breathing"] as? [[String: Any]] else { return nil }
    var bySession: [Int: [String: Any]] = [:]
    for entry in planted {
      if let session = entry["session"] as? Int { bySession[session] = entry }
    }
    var adherence: [Double] = []
    var scores: [Double] = []
    var locking: [Double] = []
    var followedErrors: [Double] = []
    for (_, _, recording) in try store.breathingRecordings() {
      guard let entry = bySession[recording.session], let a = entry["adherence"] as? Double else {
        continue
      }
      let analysis = BreathingAnalysis(recording)
      adherence.append(a)
      scores.append(analysis.score.score ?? -1)
      locking.append(analysis.phaseLocking ?? -1)
      if a >= 0.999, let rate = analysis.breathsPerMinute,
        let planted = entry["true_rate_bpm"] as? Double
      {
        followedErrors.append(abs(rate - planted))
      }
    }
    guard !adherence.isEmpty else { return nil }
    return BreathingValidation(
      sessions: adherence.count, spearmanScore: Statistics.spearman(scores, adherence),
      spearmanPLV: Statistics.spearman(locking, adherence), followed: followedErrors.count,
      maxError: followedErrors.max())
  }

  /// One signal's song effects against the planted ones.
  struct EffectValidation {
    var signal: String
    var effectScale: Double
    var songs: Int
    var covered: Int
    var distinguishable: Int
    var distinguishableRightSign: Int
    var songsWithEightPlays: Int
    var spearman: Double?

    var coverage: Double? { songs > 0 ? Double(covered) / Double(songs) : nil }
    var coverageMet: Bool { (0.85...0.95).contains(coverage ?? 0) }
    /// The issue's recovery goal, set where the planted signal is strong (scale ≥ 3).
    var spearmanGoal: Double? { effectScale >= 3 ? 0.8 : nil }

    var json: [String: Any] {
      [
        "songs": songs, "interval_coverage": nullable(coverage),
        "coverage_goal_met": coverageMet, "distinguishable_from_zero": distinguishable,
        "distinguishable_right_sign": distinguishableRightSign,
        "songs_with_8_plays": songsWithEightPlays, "spearman_vs_planted": nullable(spearman),
        "spearman_goal": nullable(spearmanGoal), "effect_scale": effectScale,
      ]
    }

    var text: String {
      let name = signal == "hr" ? "heart rate (bpm)" : "HRV (SDNN ms)"
      let goal =
        spearmanGoal.map { "goal ≥ \(ProgressReporter.fixed($0, 1))" } ?? "no goal at this scale"
      return """
        song effects on \(name): \(songs) songs estimated (effect scale \(ProgressReporter.fixed(effectScale, 1)))
          90% intervals covering the planted effect      \(f(coverage))   goal 0.85–0.95
          distinguishable from the average song          \(distinguishable) (\(distinguishableRightSign) with the planted sign)
          Spearman(estimate, planted), ≥ 8 plays         \(f(spearman)) over \(songsWithEightPlays) songs   \(goal)
        """
    }
  }

  /// The song-response estimates against the planted effects. The estimates are relative to
  /// the exposure-weighted mean song, and a planted effect shows scaled by the gain of the
  /// context each play was lived in (`sessions` in truth.json), so the truth each interval is
  /// judged against is the planted effect × the mean gain over the song's non-workout plays,
  /// each weighted by the minutes with a reading while it played, minus the same
  /// exposure-weighted mean.
  static func songEffects(_ truth: [String: Any], _ store: Store) throws -> [EffectValidation] {
    guard let planted = truth["songs"] as? [[String: Any]] else { return [] }
    let gains = truth["context_gain"] as? [String: Double] ?? [:]
    let generator = truth["generator"] as? [String: Any]
    let scale = generator?["effect_scale"] as? Double ?? 1
    var byCatalog: [String: [String: Any]] = [:]
    for song in planted {
      if let id = song["catalog_id"] as? String { byCatalog[id] = song }
    }
    let lived = livedSessions(truth)
    let plays = try store.playsInSessions().filter { $0.context != .workout }
    let estimates = try store.effectEstimates()
    let catalog = try store.songCatalogIDs()
    var results: [EffectValidation] = []
    for (signal, key, kind) in [
      ("hr", "hr_effect_bpm", Signal.heartRate), ("hrv", "hrv_effect_ms", .hrv),
    ] {
      // Each play counts by the minutes with a reading while it played, as the model sees it.
      let times = try store.signal(kind).map(\.timeMs)
      var gainSum: [Int64: Double] = [:]
      var weights: [Int64: Double] = [:]
      for play in plays {
        let minutes = Double(
          measuredMinutes(times, from: play.heard.startMs, to: play.heard.endMs))
        guard minutes > 0 else { continue }
        let context = lived.context(at: play.heard.startMs) ?? play.context.rawValue
        gainSum[play.songID, default: 0] += minutes * (gains[context] ?? 1)
        weights[play.songID, default: 0] += minutes
      }
      var rows: [(estimate: SongEffectEstimate, planted: Double, shown: Double)] = []
      for e in estimates where e.signal == kind {
        guard let id = catalog[e.songID], let effect = byCatalog[id]?[key] as? Double else {
          continue
        }
        let weight = weights[e.songID] ?? 0
        let gain = weight > 0 ? (gainSum[e.songID] ?? 0) / weight : 1
        rows.append((e, effect, effect * gain))
      }
      guard !rows.isEmpty else { continue }
      let totalMinutes = rows.reduce(0.0) { $0 + $1.estimate.minutes }
      let level =
        totalMinutes > 0
        ? rows.reduce(0.0) { $0 + $1.estimate.minutes * $1.shown } / totalMinutes : 0
      var covered = 0
      var distinguishable = 0
      var rightSign = 0
      for row in rows {
        let target = row.shown - level
        if row.estimate.low90 <= target, target <= row.estimate.high90 { covered += 1 }
        if row.estimate.low90 > 0 || row.estimate.high90 < 0 {
          distinguishable += 1
          if (row.estimate.estimate > 0) == (target > 0) { rightSign += 1 }
        }
      }
      let frequent = rows.filter { $0.estimate.plays >= 8 }
      results.append(
        EffectValidation(
          signal: signal, effectScale: scale, songs: rows.count, covered: covered,
          distinguishable: distinguishable, distinguishableRightSign: rightSign,
          songsWithEightPlays: frequent.count,
          spearman: frequent.count >= 3
            ? Statistics.spearman(frequent.map(\.estimate.estimate), frequent.map(\.planted))
            : nil))
    }
    return results
  }

  /// One feature's estimates against the planted values, split by where each came from.
  struct FeatureValidation {
    var feature: String
    /// Per source (`library`, `genre-ridge`, `genre-prior`, `fallback`): songs, mean absolute
    /// error, and how many planted values fall within the estimate ± 1.645 sd.
    var bySource: [(source: String, songs: Int, meanAbsoluteError: Double, covered: Int)]

    var json: [String: Any] {
      Dictionary(
        uniqueKeysWithValues: bySource.map {
          (
            $0.source,
            [
              "songs": $0.songs, "mean_absolute_error": $0.meanAbsoluteError,
              "interval_coverage": Double($0.covered) / Double($0.songs),
            ] as [String: Any]
          )
        })
    }

    var text: String {
      let parts = bySource.map {
        "\($0.source) \(ProgressReporter.fixed($0.meanAbsoluteError, feature == "bpm" ? 1 : 3)) over \($0.songs) songs (\(ProgressReporter.fixed(Double($0.covered) / Double($0.songs), 2)))"
      }
      return "  \(feature): " + parts.joined(separator: "; ")
    }
  }

  /// The stored song features (BPM, energy, valence) against the planted ones.
  static func features(_ truth: [String: Any], _ store: Store) throws -> [FeatureValidation] {
    guard let planted = truth["songs"] as? [[String: Any]] else { return [] }
    var byCatalog: [String: [String: Any]] = [:]
    for song in planted {
      if let id = song["catalog_id"] as? String { byCatalog[id] = song }
    }
    let catalog = try store.songCatalogIDs()
    let rows = try store.songFeatures()
    var results: [FeatureValidation] = []
    let features: [(String, KeyPath<SongFeatureEstimate, Estimate>)] = [
      ("bpm", \.bpm), ("energy", \.energy), ("valence", \.valence),
    ]
    for (name, feature) in features {
      var groups: [String: (songs: Int, error: Double, covered: Int)] = [:]
      for row in rows {
        guard let id = catalog[row.songID], let plantedValue = byCatalog[id]?[name] as? Double
        else { continue }
        let estimate = row[keyPath: feature]
        let error = abs(estimate.value - plantedValue)
        var group = groups[estimate.source.rawValue, default: (0, 0, 0)]
        group.songs += 1
        group.error += error
        if error <= SongResponseModel.z90 * estimate.sd { group.covered += 1 }
        groups[estimate.source.rawValue] = group
      }
      guard !groups.isEmpty else { continue }
      results.append(
        FeatureValidation(
          feature: name,
          bySource: groups.keys.sorted().map { key in
            let g = groups[key]!
            return (key, g.songs, g.error / Double(g.songs), g.covered)
          }))
    }
    return results
  }

  /// How many distinct minutes hold a reading in [from, to), over sorted reading times.
  static func measuredMinutes(_ times: [Int64], from: Int64, to: Int64) -> Int {
    var minutes = 0
    var last = Int64.min
    var i = times.partitioningIndex { $0 >= from }
    while i < times.count, times[i] < to {
      let minute = (times[i] - from) / 60_000
      if minute != last {
        minutes += 1
        last = minute
      }
      i += 1
    }
    return minutes
  }

  /// The sessions truth.json says were lived, in time order.
  struct LivedSessions {
    var starts: [Int64] = []
    var ends: [Int64] = []
    var contexts: [String] = []

    /// The context of the lived session holding `ms`, if one does.
    func context(at ms: Int64) -> String? {
      let i = starts.partitioningIndex { $0 > ms } - 1
      return i >= 0 && ms <= ends[i] ? contexts[i] : nil
    }
  }

  static func livedSessions(_ truth: [String: Any]) -> LivedSessions {
    var lived = LivedSessions()
    let sessions = (truth["sessions"] as? [[String: Any]] ?? []).compactMap {
      s -> (Int64, Int64, String)? in
      guard let start = (s["start_ms"] as? NSNumber)?.int64Value,
        let end = (s["end_ms"] as? NSNumber)?.int64Value, let context = s["context"] as? String
      else { return nil }
      return (start, end, context)
    }.sorted { $0.0 < $1.0 }
    for (start, end, context) in sessions {
      lived.starts.append(start)
      lived.ends.append(end)
      lived.contexts.append(context)
    }
    return lived
  }

  /// How often session reconstruction gave a play the context it was lived in.
  struct ContextValidation {
    var plays: Int
    var agreeing: Int
    /// The most frequent disagreements: lived → reconstructed, with their play counts.
    var confusions: [(lived: String, found: String, plays: Int)]

    var share: Double { plays > 0 ? Double(agreeing) / Double(plays) : 0 }

    var json: [String: Any] {
      [
        "plays": plays, "agreeing": agreeing, "share": share,
        "confusions": confusions.map {
          ["lived": $0.lived, "reconstructed": $0.found, "plays": $0.plays] as [String: Any]
        },
      ]
    }

    var text: String {
      let top = confusions.prefix(3).map { "\($0.lived) → \($0.found) \($0.plays)" }
      return
        "sessions: \(agreeing) of \(plays) plays (\(f(share))) in a session given the context they were lived in"
        + (top.isEmpty ? "" : "; most often confused: " + top.joined(separator: ", "))
    }
  }

  static func contexts(_ truth: [String: Any], _ store: Store) throws -> ContextValidation? {
    let lived = livedSessions(truth)
    guard !lived.starts.isEmpty else { return nil }
    var plays = 0
    var agreeing = 0
    var confusions: [String: Int] = [:]
    for play in try store.playsInSessions() {
      guard let context = lived.context(at: play.heard.startMs) else { continue }
      plays += 1
      if context == play.context.rawValue {
        agreeing += 1
      } else {
        confusions[context + "\u{0}" + play.context.rawValue, default: 0] += 1
      }
    }
    guard plays > 0 else { return nil }
    let ranked = confusions.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
    return ContextValidation(
      plays: plays, agreeing: agreeing,
      confusions: ranked.map {
        let parts = $0.key.split(separator: "\u{0}", omittingEmptySubsequences: false)
        return (String(parts[0]), String(parts[1]), $0.value)
      })
  }
}
