import Foundation

/// The preference file (`docs/formats.md`): the DJ's settings `resonance tune` recommends, the
/// recommendation itself, and the evidence behind it. JSON, or a property list the app reads;
/// keys are camel case throughout, as the app's `UserPreferences` decodes them.
package struct PreferenceFile: Sendable, Equatable, Codable {
  package static let formatName = "resonance.preferences"
  package static let currentVersion = 1

  /// Whether the DJ's settings should change.
  package enum Recommendation: String, Sendable, Equatable, Codable {
    /// The evidence clears the bar: use `preferences`.
    case change
    /// It does not: `preferences` are the ones already in force.
    case keep
  }

  /// The file's format name, always `resonance.preferences`.
  package var format: String
  package var version: Int
  package var recommendation: Recommendation
  /// The settings to run: the tuned ones after `change`, those in force after `keep`.
  package var preferences: UserPreferences
  /// Per-context settings where a context's own evidence cleared the bar (`--by-context`);
  /// the general `preferences` hold elsewhere.
  package var contexts: [String: UserPreferences]?
  /// How the recommendation was reached; nil for a file written by hand.
  package var evidence: TuningEvidence?
  /// A randomised experiment for the DJ to carry out (`resonance experiment plan`): each
  /// arm's preferences and the day each runs; `preferences` hold outside its days.
  package var experiment: ExperimentPlan?

  package init(
    recommendation: Recommendation, preferences: UserPreferences,
    contexts: [String: UserPreferences]? = nil, evidence: TuningEvidence? = nil,
    experiment: ExperimentPlan? = nil
  ) {
    format = Self.formatName
    version = Self.currentVersion
    self.recommendation = recommendation
    self.preferences = preferences
    self.contexts = contexts
    self.evidence = evidence
    self.experiment = experiment
  }

  /// The file's two encodings.
  package enum Encoding: String, Sendable, CaseIterable {
    case json
    case plist
  }

  /// The file's bytes: JSON with sorted keys and a final newline, or an XML property list.
  package func encoded(as encoding: Encoding) throws -> Data {
    switch encoding {
    case .json:
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
      return try encoder.encode(self) + Data("\n".utf8)
    case .plist:
      let encoder = PropertyListEncoder()
      encoder.outputFormat = .xml
      return try encoder.encode(self)
    }
  }

  /// Reads a preference file in either encoding (a JSON file starts with `{`), every setting
  /// within its range (`UserPreferences.firstOutOfRange`).
  ///
  /// - Throws: `PreferenceFileError` saying what was expected and what was found, with the
  ///   line and column of a setting out of range.
  package init(data: Data) throws(PreferenceFileError) {
    let first = data.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
    let file: PreferenceFile
    do {
      if first == UInt8(ascii: "{") {
        file = try JSONDecoder().decode(PreferenceFile.self, from: data)
      } else {
        file = try PropertyListDecoder().decode(PreferenceFile.self, from: data)
      }
    } catch let error as DecodingError {
      throw PreferenceFileError(Self.describe(error))
    } catch {
      throw PreferenceFileError("expected a JSON object or a property list")
    }
    guard file.format == Self.formatName else {
      throw PreferenceFileError(
        "expected \"format\": \"\(Self.formatName)\", found \"\(file.format)\"")
    }
    guard (1...Self.currentVersion).contains(file.version) else {
      throw PreferenceFileError(
        Self.currentVersion == 1
          ? "expected version 1, found \(file.version)"
          : "expected version 1 to \(Self.currentVersion), found \(file.version)")
    }
    var settings: [(path: [String], preferences: UserPreferences)] = [
      (["preferences"], file.preferences)
    ]
    for (context, preferences) in (file.contexts ?? [:]).sorted(by: { $0.key < $1.key }) {
      settings.append((["contexts", context], preferences))
    }
    // Arm i's settings are under the (i + 1)-th "preferences" key after "arms".
    for (i, arm) in (file.experiment?.arms ?? []).enumerated() {
      settings.append(
        (["experiment", "arms"] + Array(repeating: "preferences", count: i + 1), arm.preferences))
    }
    for (path, preferences) in settings {
      guard let bad = preferences.firstOutOfRange else { continue }
      let keyPath = path + bad.keyPath
      let at = Self.locate(keyPath, in: data, json: first == UInt8(ascii: "{"))
      let named =
        path.first == "experiment"
        ? ["experiment", "arms", "\(path.count - 3)", "preferences"] + bad.keyPath : keyPath
      throw PreferenceFileError(
        "\"\(named.joined(separator: "."))\": expected \(bad.expected), found \(bad.found)",
        line: at?.line, column: at?.column)
    }
    self = file
  }

  /// Where a key path's last key is written: each key found after the one before it, as a JSON
  /// key (`"key"` then `:`) or a property list's `<key>key</key>`. Nil when not found.
  static func locate(_ keyPath: [String], in data: Data, json: Bool) -> (line: Int, column: Int)? {
    let bytes = [UInt8](data)
    var position = 0
    var found = 0
    for key in keyPath {
      let token = Array((json ? "\"\(key)\"" : "<key>\(key)</key>").utf8)
      var hit: Int?
      var i = position
      while i + token.count <= bytes.count {
        if bytes[i] == token[0], bytes[i..<(i + token.count)].elementsEqual(token) {
          var j = i + token.count
          while j < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[j]) { j += 1 }
          if !json || (j < bytes.count && bytes[j] == UInt8(ascii: ":")) {
            hit = i
            break
          }
        }
        i += 1
      }
      guard let hit else { return nil }
      found = hit
      position = hit + token.count
    }
    let before = bytes[..<found]
    let line = before.count { $0 == 0x0A } + 1
    let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
    return (line, String(decoding: bytes[lineStart..<found], as: UTF8.self).count + 1)
  }

  private static func describe(_ error: DecodingError) -> String {
    let path = CodingPath.text
    switch error {
    case .keyNotFound(let key, let context):
      return "expected the key \"\(path(context.codingPath + [key]))\", found none"
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      return "\"\(path(context.codingPath))\": \(context.debugDescription)"
    case .dataCorrupted(let context):
      return context.codingPath.isEmpty
        ? "expected a JSON object or a property list"
        : "\"\(path(context.codingPath))\": \(context.debugDescription)"
    @unknown default:
      return "expected a preference file"
    }
  }
}

/// A preference file that cannot be read, with what was expected and what was found.
package struct PreferenceFileError: Error, Sendable, Equatable, CustomStringConvertible {
  package var message: String
  /// Where in the file, when known (a setting out of range).
  package var line: Int?
  package var column: Int?

  package init(_ message: String, line: Int? = nil, column: Int? = nil) {
    self.message = message
    self.line = line
    self.column = column
  }

  package var description: String { message }
}

/// What a recommendation rests on (`resonance tune`): the data, the estimator, the
/// forward-chaining gain with its interval, and the diagnostics that decide whether an
/// estimate is trusted.
package struct TuningEvidence: Sendable, Equatable, Codable {
  /// The local dates of the first and last decision used.
  package var from: String
  package var to: String
  /// Decisions replayed and used, and the months they span.
  package var decisions: Int
  package var months: Int
  /// The estimator and the reward the gain was estimated with.
  package var estimator: Estimator
  package var reward: Reward
  /// The gain of choosing on the past over the preferences in force, on the months the
  /// choosing never saw (forward chaining, pooled); nil with too little history. Files written
  /// before format 2 of `tune --json` call it `heldOutGain`, which is still read.
  package var forwardGain: Interval?
  /// The written preferences' own gain on the month they were not chosen on (the last); nil
  /// without a candidate, and in older files.
  package var heldOut: Interval?
  /// Effective sample size of the chosen preferences on the last month.
  package var effectiveSampleSize: Double?
  /// Share of the last month's decisions where the chosen preferences' likeliest song is the
  /// one logged.
  package var agreementShare: Double?
  /// Forward-chaining folds, one per month after the first.
  package var folds: Int
  /// Why the recommendation is what it is, in a sentence.
  package var reason: String
  /// The command that wrote the file.
  package var command: String

  /// Evidence from its parts, as described on each property.
  package init(
    from: String, to: String, decisions: Int, months: Int, estimator: Estimator, reward: Reward,
    forwardGain: Interval?, heldOut: Interval? = nil, effectiveSampleSize: Double?,
    agreementShare: Double?, folds: Int, reason: String, command: String
  ) {
    self.from = from
    self.to = to
    self.decisions = decisions
    self.months = months
    self.estimator = estimator
    self.reward = reward
    self.forwardGain = forwardGain
    self.heldOut = heldOut
    self.effectiveSampleSize = effectiveSampleSize
    self.agreementShare = agreementShare
    self.folds = folds
    self.reason = reason
    self.command = command
  }

  private enum CodingKeys: String, CodingKey {
    case from, to, decisions, months, estimator, reward, forwardGain, heldOut
    case effectiveSampleSize, agreementShare, folds, reason, command
  }

  /// The forward gain's name before format 2, read and never written.
  private enum LegacyKeys: String, CodingKey { case heldOutGain }

  /// Reads the evidence, the forward gain under either of its names (encoding is
  /// synthesized, under today's names).
  package init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    from = try c.decode(String.self, forKey: .from)
    to = try c.decode(String.self, forKey: .to)
    decisions = try c.decode(Int.self, forKey: .decisions)
    months = try c.decode(Int.self, forKey: .months)
    estimator = try c.decode(Estimator.self, forKey: .estimator)
    reward = try c.decode(Reward.self, forKey: .reward)
    forwardGain =
      try c.decodeIfPresent(Interval.self, forKey: .forwardGain)
      ?? decoder.container(keyedBy: LegacyKeys.self)
      .decodeIfPresent(Interval.self, forKey: .heldOutGain)
    heldOut = try c.decodeIfPresent(Interval.self, forKey: .heldOut)
    effectiveSampleSize = try c.decodeIfPresent(Double.self, forKey: .effectiveSampleSize)
    agreementShare = try c.decodeIfPresent(Double.self, forKey: .agreementShare)
    folds = try c.decode(Int.self, forKey: .folds)
    reason = try c.decode(String.self, forKey: .reason)
    command = try c.decode(String.self, forKey: .command)
  }

  /// An estimate with a two-sided interval at `level`.
  package struct Interval: Sendable, Equatable, Codable {
    package var estimate: Double
    package var lower: Double
    package var upper: Double
    package var level: Double

    package init(estimate: Double, lower: Double, upper: Double, level: Double) {
      self.estimate = estimate
      self.lower = lower
      self.upper = upper
      self.level = level
    }
  }
}
