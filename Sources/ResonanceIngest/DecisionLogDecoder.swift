import Foundation
import ResonanceIO
import ResonanceModel

/// Decodes the DJ's decision log (`docs/formats.md`, versions 1 to 3) into `DecisionRecord`s.
///
/// A line is read by a byte scanner (`scannedLine(_:)`, in `DecisionLogDecoder+Scanner.swift`)
/// when it is a well-formed decision; any other line, and the header, go through `JSONDecoder`,
/// so that what is refused and the message saying why are the decoder's. Neither goes through
/// `JSONSerialization`: on Linux its number parsing is not correctly rounded (about four in ten
/// shortest round-trip doubles came back one unit in the last place off), and a version-2
/// replay must start from exactly the values the app scored with. The scanner's numbers are
/// correctly rounded too (an exact division for short decimals, `Double(_:)` for the rest).
struct DecisionLogDecoder {
  /// The log's version, 1 to 3.
  let version: Int
  /// The header's preferences, until the first decision takes them.
  private var pending: UserPreferences?
  /// Version 3: the settings outside the experiment's days (the header's), the experiment's
  /// seed and arms, and the arm the last decision ran (nil: the header's settings), so that
  /// a decision states its settings where they change.
  private var outside: UserPreferences?
  private var experiment: ExperimentHeader?
  private var lastArm: String??
  /// Whether the header states the settings in force (a version-1 header may not).
  let statesPreferences: Bool
  /// Whether lines go to the scanner first (tests turn it off to compare with the decoder).
  var usesScanner = true
  private let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return decoder
  }()

  /// The longest listen an outcome may report: a week.
  static let longestListenMs: Int64 = 7 * 86_400_000

  /// The versions this build reads.
  static let versions = 1...3

  /// Reads the header: versions 2 and 3 must carry the full preferences in force (version 3:
  /// outside the experiment's days), and version 3 the experiment's seed and every arm's
  /// full preferences; version 1 gives its weights and policy, which stand on the app's
  /// other defaults.
  ///
  /// - Throws: a message for `IngestError` when the version is unknown or a version-2 or 3
  ///   header's preferences or arms are missing or incomplete.
  init(header: [UInt8], version: Int) throws(DecodeFailure) {
    guard Self.versions.contains(version) else {
      throw DecodeFailure(
        "expected decision log version 1, 2 or 3, found \(version) (written by a newer app?)")
    }
    self.version = version
    do {
      let head = try decoder.decode(Header.self, from: Data(header))
      if version >= 2 {
        guard let preferences = head.preferences else {
          throw DecodeFailure(
            "expected the header's \"preferences\" (version \(version) records the settings in force)"
          )
        }
        pending = preferences
        outside = preferences
        if version == 3 {
          guard let experiment = head.experiment, !experiment.arms.isEmpty else {
            throw DecodeFailure(
              "expected the header's \"experiment\" with its seed and arms (version 3 records every arm's settings)"
            )
          }
          for (i, arm) in experiment.arms.enumerated() {
            if let bad = arm.preferences.firstOutOfRange {
              throw DecodeFailure(
                "\((["experiment", "arms", "\(i)", "preferences"] + bad.keyPath).joined(separator: ".")): expected \(bad.expected), found \(bad.found)"
              )
            }
          }
          self.experiment = experiment
        }
      } else if let weights = head.weights {
        var preferences = UserPreferences.appDefault.with(weights: weights.scoring)
        if let policy = head.policy { preferences.policy = policy.logging }
        pending = preferences
      }
      if let bad = pending?.firstOutOfRange {
        throw DecodeFailure(
          "\((["preferences"] + bad.keyPath).joined(separator: ".")): expected \(bad.expected), found \(bad.found)"
        )
      }
      statesPreferences = pending != nil
    } catch let failure as DecodeFailure {
      throw failure
    } catch {
      throw DecodeFailure("header: " + Self.describe(error))
    }
  }

  /// Decodes one decision line; what is kept but cannot be used as logged (a propensity that
  /// is no probability, or one too small to weigh) goes to `warnings`.
  ///
  /// - Throws: `DecodeFailure` naming the key that is missing or of the wrong type.
  mutating func decode(_ line: [UInt8], warnings: inout [String]) throws(DecodeFailure)
    -> DecisionRecord
  {
    let entry: Line
    if usesScanner, let scanned = Self.scannedLine(line) {
      entry = scanned
    } else {
      do {
        entry = try decoder.decode(Line.self, from: Data(line))
      } catch {
        throw DecodeFailure(Self.describe(error))
      }
    }
    guard let time = FixedDateParser.isoUTC(entry.t) else {
      throw DecodeFailure("expected \"t\" as an ISO 8601 UTC instant, found \"\(entry.t)\"")
    }
    let offset = entry.offset ?? 0
    guard BreathingRecordingReader.utcOffsets.contains(offset) else {
      throw DecodeFailure(
        "offset: expected a UTC offset in seconds within 18 hours (±64800), found \(offset)")
    }
    var outcome: DecisionOutcome?
    if let o = entry.outcome {
      // A listen longer than a week is no listen; the play's end would also overflow past
      // the end of time.
      guard o.listenedMs <= Self.longestListenMs else {
        throw DecodeFailure(
          "outcome.listened_ms: expected milliseconds up to a week (\(Self.longestListenMs)), found \(o.listenedMs)"
        )
      }
      outcome = DecisionOutcome(
        listenedMs: max(0, o.listenedMs), durationMs: o.durationMs, skipped: o.skipped ?? false,
        completed: o.completed)
    }
    var candidates: [LoggedCandidate] = []
    candidates.reserveCapacity(entry.candidates.count)
    for (i, c) in entry.candidates.enumerated() {
      guard let inputs = try c.inputs(at: "candidates[\(i)]"), let values = c.c, let base = c.base,
        let score = c.score, let p = c.p
      else {
        throw DecodeFailure(
          "candidates[\(i)]: expected \"c\", \"base\", \"score\" and \"p\" with the inputs")
      }
      guard values.count == 7 else {
        throw DecodeFailure(
          "candidates[\(i)].c: expected the seven component values, found \(values.count)")
      }
      candidates.append(
        LoggedCandidate(
          song: c.song ?? "", inputs: inputs, components: ScoringComponents(vector: values),
          baseScore: base, finalScore: score, propensity: p))
    }
    Self.checkPropensities(candidates, chosen: entry.chosen, warnings: &warnings)
    var rejected: [RejectedCandidate] = []
    for (i, r) in (entry.rejected ?? []).enumerated() {
      rejected.append(
        RejectedCandidate(
          song: r.song ?? "", reason: r.reason ?? "", inputs: try r.inputs(at: "rejected[\(i)]")))
    }
    if let bad = entry.preferences?.firstOutOfRange {
      throw DecodeFailure(
        "\((["preferences"] + bad.keyPath).joined(separator: ".")): expected \(bad.expected), found \(bad.found)"
      )
    }
    // The header's settings go to the first decision read; a line's own override them. In
    // version 3 a line's arm names its settings, the header's outside the experiment's days,
    // and a decision states them where they change.
    var preferences = entry.preferences
    if let experiment {
      var armed: UserPreferences?
      if let name = entry.arm {
        guard let arm = experiment.arms.first(where: { $0.name == name }) else {
          throw DecodeFailure(
            "arm: expected one of the header's arms ("
              + experiment.arms.map { "\"\($0.name)\"" }.joined(separator: ", ")
              + "), found \"\(name)\"")
        }
        armed = arm.preferences
      }
      if lastArm == nil || lastArm! != entry.arm {
        preferences = preferences ?? armed ?? outside
      }
      lastArm = .some(entry.arm)
      pending = nil
    } else if let header = pending {
      preferences = preferences ?? header
      pending = nil
    }
    return DecisionRecord(
      time: Timestamp(millisecondsSinceEpoch: time, utcOffsetSeconds: Int32(offset)),
      decision: entry.decision, session: entry.session, need: entry.need,
      context: entry.context, chosen: entry.chosen, outcome: outcome, version: version,
      preferences: preferences, arm: entry.arm, experimentSeed: experiment?.seed,
      localHour: entry.localHour, stress: entry.stress,
      maxPlayCount: entry.maxPlayCount, previous: entry.previous?.features,
      recentArtists: entry.recentArtists ?? [], heartRate: entry.heartRate,
      adjuster: entry.adjuster, candidates: candidates, rejected: rejected)
  }

  /// Warns of propensities the decision is kept with but evaluation cannot read as logged: one
  /// outside [0, 1] (the decision is left out of evaluation), a chosen song's 0 (it could not
  /// have been chosen: left out too), and a chosen song's below `propensityFloor` (read as it).
  static func checkPropensities(
    _ candidates: [LoggedCandidate], chosen: String?, warnings: inout [String]
  ) {
    for (i, c) in candidates.enumerated() where !c.hasProbability {
      warnings.append(
        "candidates[\(i)].p: expected a probability in [0, 1], found \(c.propensity); the decision is kept but left out of evaluation"
      )
    }
    guard let i = candidates.firstIndex(where: { $0.song == chosen }),
      candidates[i].hasProbability
    else { return }
    let p = candidates[i].propensity
    if p == 0 {
      warnings.append(
        "candidates[\(i)].p: the chosen song's propensity is 0, so the policy could not have chosen it; the decision is left out of evaluation"
      )
    } else if p < LoggedCandidate.propensityFloor {
      warnings.append(
        "candidates[\(i)].p: the chosen song's propensity \(p) is below \(LoggedCandidate.propensityFloor); evaluation reads it as \(LoggedCandidate.propensityFloor)"
      )
    }
  }

  /// What went wrong, with the key path: `candidates[3].p: expected a number, found a string`.
  private static func describe(_ error: any Error) -> String {
    func path(_ keys: [any CodingKey]) -> String {
      let text = CodingPath.text(keys)
      return text.isEmpty ? "the line" : text
    }
    switch error as? DecodingError {
    case .keyNotFound(let key, let context)?:
      let keys = context.codingPath + [key]
      return "\(path(keys)): expected this key, found none"
    case .typeMismatch(let type, let context)?:
      return "\(path(context.codingPath)): expected \(Self.name(type)), found another type"
    case .valueNotFound(let type, let context)?:
      return "\(path(context.codingPath)): expected \(Self.name(type)), found null"
    case .dataCorrupted(let context)?:
      return context.codingPath.isEmpty
        ? "expected one JSON object" : "\(path(context.codingPath)): unreadable value"
    default:
      return "expected one JSON object"
    }
  }

  private static func name(_ type: Any.Type) -> String {
    switch type {
    case is Double.Type, is Int.Type, is Int64.Type: "a number"
    case is String.Type: "a string"
    case is Bool.Type: "true or false"
    default: "an object or array"
    }
  }

  /// An error the reader turns into a line's warning or the file's error.
  struct DecodeFailure: Error {
    var message: String
    init(_ message: String) { self.message = message }
  }

  // MARK: - The format

  private struct Header: Decodable {
    var preferences: UserPreferences?
    var weights: Weights?
    var policy: Policy?
    var experiment: ExperimentHeader?
  }

  /// Version 3's `experiment`: the plan's seed and first day, and every arm's settings.
  private struct ExperimentHeader: Decodable {
    var seed: UInt64
    var start: String?
    var arms: [ExperimentPlan.Arm]
  }

  /// Version 1's `weights`.
  private struct Weights: Decodable {
    var bpm: Double
    var energy: Double
    var familiarity: Double
    var historical: Double
    var context: Double
    var recency: Double
    var timeOfDay: Double

    var scoring: ScoringWeights {
      ScoringWeights(
        bpm: bpm, energy: energy, familiarity: familiarity, historical: historical,
        context: context, recency: recency, timeOfDay: timeOfDay)
    }
  }

  /// Version 1's `policy`: the kind and the one parameter it uses.
  private struct Policy: Decodable {
    var kind: LoggingPolicy.Kind
    var temperature: Double?
    var epsilon: Double?

    var logging: LoggingPolicy {
      LoggingPolicy(kind: kind, temperature: temperature ?? 0.05, epsilon: epsilon ?? 0)
    }
  }

  struct Line: Decodable, Equatable {
    var t: String
    var offset: Int?
    var decision: Int
    var session: Int?
    var need: String?
    var context: String?
    var localHour: Double?
    var stress: Double?
    var maxPlayCount: Int?
    var previous: Features?
    var recentArtists: [String]?
    var heartRate: Double?
    var adjuster: AdjusterState?
    var preferences: UserPreferences?
    var candidates: [Candidate]
    var rejected: [Candidate]?
    var chosen: String?
    var outcome: Outcome?
    /// Version 3: the experiment's arm the decision ran; nil outside the experiment's days.
    var arm: String?
  }

  struct Features: Decodable, Equatable {
    var bpm: Double
    var energy: Double
    var valence: Double

    var features: SongFeatures { SongFeatures(bpm: bpm, energy: energy, valence: valence) }
  }

  /// An admitted candidate (inputs and scores) or a rejected one (version 1: song and reason;
  /// version 2: the inputs too).
  struct Candidate: Decodable, Equatable {
    var song: String?
    var artist: String?
    var bpm: Double?
    var energy: Double?
    var valence: Double?
    var plays: Int?
    var learned: Double?
    var lastPlayed: String?
    var c: [Double]?
    var base: Double?
    var score: Double?
    var p: Double?
    var reason: String?

    /// The inputs, when the entry has them; nil when it has none of them.
    func inputs(at path: String) throws(DecodeFailure) -> CandidateInputs? {
      guard let artist, let bpm, let energy, let valence, let plays else {
        if artist == nil && bpm == nil && energy == nil && valence == nil && plays == nil {
          return nil
        }
        throw DecodeFailure(
          "\(path): expected \"artist\", \"bpm\", \"energy\", \"valence\" and \"plays\" together"
        )
      }
      var last: Int64?
      if let lastPlayed {
        guard let ms = FixedDateParser.isoUTC(lastPlayed) else {
          throw DecodeFailure(
            "\(path).last_played: expected an ISO 8601 UTC instant or null, found \"\(lastPlayed)\""
          )
        }
        last = ms
      }
      return CandidateInputs(
        artist: artist, features: SongFeatures(bpm: bpm, energy: energy, valence: valence),
        plays: plays, learned: learned, lastPlayedMs: last)
    }
  }

  struct Outcome: Decodable, Equatable {
    var listenedMs: Int64
    var durationMs: Int64?
    var skipped: Bool?
    var completed: Bool?
  }
}
