import Foundation
import ResonanceIO
import ResonanceModel
import Testing

@testable import ResonanceIngest

/// A decision log's lines read through `TraceReader`: the records, the header's version and
/// the warnings.
private func readLog(_ lines: [String]) throws -> (
  records: [DecisionRecord], version: Int, warnings: [Diagnostic]
) {
  let (file, diagnostics) = try TraceReader.read(
    path: "decisions.jsonl", data: Data(lines.joined(separator: "\n").utf8))
  guard case .decisions(let records) = file.content else {
    Issue.record("expected a decision log, found \(file.format)")
    return ([], file.version, diagnostics)
  }
  #expect(file.format == "resonance.decision-log")
  #expect(file.samples == records.count)
  return (records, file.version, diagnostics)
}

@Suite("Decision log, version 1: six decimals, the header's weights and policy")
struct DecisionLogVersion1Tests {
  static let header = """
    {"format":"resonance.decision-log","version":1,"generator":"Resonance DJ",\
    "app":"Resonance DJ 1.4","weights":{"bpm":0.3,"energy":0.2,"familiarity":0.1,\
    "historical":0.15,"context":0.25,"recency":0.35,"time_of_day":0.05},\
    "policy":{"kind":"epsilon-greedy","epsilon":0.1},\
    "components":["bpm","energy","familiarity","historical","context","recency","time_of_day"]}
    """

  /// Two admitted candidates (the second chosen), one rejected, an outcome.
  static let first = """
    {"t":"2022-06-01T15:18:49.033Z","offset":-25200,"decision":7,"session":3,"need":"calm",\
    "context":"relax","local_hour":8.3136,"stress":0.6158,"max_play_count":30,"previous":null,\
    "recent_artists":["Momar","Lota Monelo"],"candidates":[\
    {"song":"1481664696","artist":"Lota Monelo","bpm":114,"energy":0.611,"valence":0.455,\
    "plays":9,"learned":null,"last_played":null,\
    "c":[0.991151,0.911,0.375,0.5,0.883,0,0],"base":0.764238,"score":0.764238,"p":0.05},\
    {"song":"1500000001","artist":"Nadia Sol","bpm":70,"energy":0.25,"valence":0.5,\
    "plays":2,"learned":-0.25,"last_played":"2022-06-01T14:00:00.500Z",\
    "c":[0.991151,0.95,0.125,0.375,0.95,0.25,0],"base":0.512345,"score":0.512345,\
    "p":0.95}],\
    "rejected":[{"song":"1487750875","reason":"same-artist"}],"chosen":"1500000001",\
    "outcome":{"listened_ms":4100,"duration_ms":231000,"skipped":true,"completed":false}}
    """

  /// The next decision: a song before it, no outcome.
  static let second = """
    {"t":"2022-06-01T15:22:40.000Z","offset":-25200,"decision":8,"session":3,"need":"calm",\
    "context":"relax","local_hour":8.3778,"stress":0.6,"max_play_count":30,\
    "previous":{"bpm":70,"energy":0.25,"valence":0.5},"recent_artists":["Nadia Sol"],\
    "candidates":[{"song":"1481664696","artist":"Lota Monelo","bpm":114,"energy":0.611,\
    "valence":0.455,"plays":9,"learned":null,"last_played":null,\
    "c":[0.125,0.589,0.375,0.5,0.883,0,0],"base":0.411111,"score":0.422222,"p":1}],\
    "rejected":[],"chosen":"1481664696"}
    """

  @Test("a version-1 log reads: the header's weights and policy on the app's other defaults")
  func headerSettings() throws {
    let (records, version, warnings) = try readLog([Self.header, Self.first, Self.second])
    #expect(warnings.isEmpty, "\(warnings)")
    #expect(version == 1)
    #expect(records.map(\.decision) == [7, 8])
    #expect(records.allSatisfy { $0.version == 1 })
    var expected = UserPreferences.appDefault.with(
      weights: ScoringWeights(
        bpm: 0.3, energy: 0.2, familiarity: 0.1, historical: 0.15, context: 0.25,
        recency: 0.35, timeOfDay: 0.05))
    expected.policy = LoggingPolicy(kind: .epsilonGreedy, temperature: 0.05, epsilon: 0.1)
    #expect(records[0].preferences == expected)
    #expect(records[1].preferences == nil, "unchanged settings are not repeated")
  }

  @Test("a version-1 decision gives its moment, candidates, rejected songs and outcome")
  func decisionFields() throws {
    let (records, _, _) = try readLog([Self.header, Self.first, Self.second])
    let record = try #require(records.first)
    #expect(
      record.time == Timestamp(millisecondsSinceEpoch: 1_654_096_729_033, utcOffsetSeconds: -25200))
    #expect(record.session == 3)
    #expect(record.need == "calm" && record.context == "relax")
    #expect(record.localHour == 8.3136 && record.stress == 0.6158)
    #expect(record.maxPlayCount == 30)
    #expect(record.previous == nil)
    #expect(record.recentArtists == ["Momar", "Lota Monelo"])
    #expect(record.heartRate == nil && record.adjuster == nil)
    #expect(record.candidates.map(\.song) == ["1481664696", "1500000001"])
    #expect(record.chosen == "1500000001")
    #expect(record.chosenArtist == "Nadia Sol")
    let chosen = record.candidates[1]
    #expect(
      chosen.inputs
        == CandidateInputs(
          artist: "Nadia Sol", features: SongFeatures(bpm: 70, energy: 0.25, valence: 0.5),
          plays: 2, learned: -0.25, lastPlayedMs: 1_654_092_000_500))
    #expect(chosen.components.vector == [0.991151, 0.95, 0.125, 0.375, 0.95, 0.25, 0])
    #expect(chosen.baseScore == 0.512345 && chosen.finalScore == 0.512345)
    #expect(chosen.propensity == 0.95)
    #expect(record.candidates[0].inputs.learned == nil)
    #expect(record.candidates[0].inputs.lastPlayedMs == nil)
    #expect(record.rejected == [RejectedCandidate(song: "1487750875", reason: "same-artist")])
    #expect(record.rejected[0].inputs == nil, "version 1 gives only the song and the reason")
    #expect(
      record.outcome
        == DecisionOutcome(listenedMs: 4100, durationMs: 231_000, skipped: true, completed: false))
    let next = records[1]
    #expect(next.previous == SongFeatures(bpm: 70, energy: 0.25, valence: 0.5))
    #expect(next.outcome == nil)
    #expect(next.rejected.isEmpty)
    #expect(next.candidates[0].finalScore == 0.422222)
  }
}

@Suite("Decision log, version 2: exact numbers, settings, heart rate and the adjuster")
struct DecisionLogVersion2Tests {
  static let preferences = """
    {"bpmWeight":0.3,"contextWeight":0.1,"energyWeight":0.2,"familiarityWeight":0.2,\
    "historicalWeight":0.2,"morningBPMCap":115,"morningEndHour":9.5,"morningStartHour":5,\
    "nightBPMCap":90,"nightEndHour":6,"nightHardCapBPM":105,"nightStartHour":23,\
    "policy":{"epsilon":0,"kind":"softmax","temperature":0.07},"recencyPenaltyWeight":0.25,\
    "recencyWindowMinutes":180,"repeatBlockMinutes":45,"sameArtistLimit":1,\
    "sameArtistWindow":4,"timeOfDayPenaltyWeight":0.15}
    """

  static let headerPreferences = UserPreferences(
    bpmWeight: 0.3, energyWeight: 0.2, familiarityWeight: 0.2, historicalWeight: 0.2,
    contextWeight: 0.1, recencyPenaltyWeight: 0.25, timeOfDayPenaltyWeight: 0.15,
    morningBPMCap: 115, morningStartHour: 5, morningEndHour: 9.5, nightBPMCap: 90,
    nightStartHour: 23, nightEndHour: 6, recencyWindowMinutes: 180, repeatBlockMinutes: 45,
    sameArtistLimit: 1, sameArtistWindow: 4, nightHardCapBPM: 105,
    policy: LoggingPolicy(kind: .softmax, temperature: 0.07, epsilon: 0))

  static let header =
    #"{"format":"resonance.decision-log","version":2,"generator":"resonance synth","#
    + #""app":"Resonance DJ 2.0","preferences":"# + preferences + "}"

  /// Decision `n` at minute `n` past 2022-06-01T15:00Z, with one admitted candidate and
  /// one rejected (with its inputs), and `extra` keys (`"preferences":…,`) before them.
  static func line(_ n: Int, extra: String = "") -> String {
    """
    {"t":"2022-06-01T15:0\(n):00.000Z","offset":3600,"decision":\(n),"session":1,\
    "need":"energy","context":"workout","local_hour":16.0\(n),"stress":0.25,\
    "max_play_count":40,"previous":null,"recent_artists":[],"heart_rate":98.7,\
    "adjuster":{"baseline_heart_rate":91.5,"bpm_ceiling":null,"consecutive_skips":2,\
    "familiarity_boost":1.25},\(extra)"candidates":[{"song":"a\(n)","artist":"Ana",\
    "bpm":128,"energy":0.85,"valence":0.6,"plays":3,"learned":0.5,"last_played":null,\
    "c":[1,1,0.1,0.75,0.95,0,0],"base":0.5,"score":0.5,"p":1}],\
    "rejected":[{"song":"b\(n)","artist":"Ben","bpm":131,"energy":0.8,"valence":0.4,\
    "plays":12,"learned":null,"last_played":"2022-06-01T14:00:00.500Z",\
    "reason":"played-recently"}],"chosen":"a\(n)",\
    "outcome":{"listened_ms":180000,"duration_ms":180000,"skipped":false,"completed":true}}
    """
  }

  @Test("the header's settings go to the first decision; a line's own take over from it on")
  func preferencesCarried() throws {
    let changed = """
      {"bpmWeight":0.1,"contextWeight":0.3,"energyWeight":0.2,"familiarityWeight":0.2,\
      "historicalWeight":0.2,"morningBPMCap":120,"morningEndHour":9,"morningStartHour":5,\
      "nightBPMCap":95,"nightEndHour":5,"nightHardCapBPM":110,"nightStartHour":22,\
      "policy":{"epsilon":0.2,"kind":"epsilon-greedy","temperature":0.05},\
      "recencyPenaltyWeight":0.3,"recencyWindowMinutes":240,"repeatBlockMinutes":60,\
      "sameArtistLimit":0,"sameArtistWindow":3,"timeOfDayPenaltyWeight":0.2}
      """
    let (records, version, warnings) = try readLog([
      Self.header, Self.line(1), Self.line(2, extra: #""preferences":"# + changed + ","),
      Self.line(3),
    ])
    #expect(warnings.isEmpty, "\(warnings)")
    #expect(version == 2)
    #expect(records.map(\.version) == [2, 2, 2])
    #expect(records[0].preferences == Self.headerPreferences)
    var expected = UserPreferences.appDefault
    expected.bpmWeight = 0.1
    expected.energyWeight = 0.2
    expected.contextWeight = 0.3
    expected.familiarityWeight = 0.2
    expected.policy = LoggingPolicy(kind: .epsilonGreedy, temperature: 0.05, epsilon: 0.2)
    #expect(records[1].preferences == expected)
    #expect(records[2].preferences == nil)
  }

  @Test("a line's settings on the very first decision win over the header's")
  func firstLineOverridesHeader() throws {
    var own = Self.headerPreferences
    own.sameArtistLimit = 2
    let text = Self.preferences.replacingOccurrences(
      of: #""sameArtistLimit":1"#, with: #""sameArtistLimit":2"#)
    let (records, _, _) = try readLog([
      Self.header, Self.line(1, extra: #""preferences":"# + text + ","), Self.line(2),
    ])
    #expect(records.map(\.preferences) == [own, nil])
  }

  @Test("heart rate, the adjuster's state and the rejected candidates' inputs are read")
  func adjusterAndRejected() throws {
    let (records, _, _) = try readLog([Self.header, Self.line(4)])
    let record = try #require(records.first)
    #expect(record.heartRate == 98.7)
    #expect(
      record.adjuster
        == AdjusterState(
          baselineHeartRate: 91.5, bpmCeiling: nil, consecutiveSkips: 2, familiarityBoost: 1.25))
    #expect(
      record.rejected == [
        RejectedCandidate(
          song: "b4", reason: "played-recently",
          inputs: CandidateInputs(
            artist: "Ben", features: SongFeatures(bpm: 131, energy: 0.8, valence: 0.4),
            plays: 12, learned: nil, lastPlayedMs: 1_654_092_000_500))
      ])
    #expect(record.time.utcOffsetSeconds == 3600)
    #expect(
      record.outcome
        == DecisionOutcome(
          listenedMs: 180_000, durationMs: 180_000, skipped: false, completed: true)
    )
  }

  /// Doubles whose shortest decimal needs up to 17 significant digits: sums that do not come
  /// out round, a seeded spread over 0 … 1, the smallest subnormal.
  static let exactValues: [Double] = {
    var values: [Double] = [
      0.1 + 0.2, 1.0 / 3, 2.0 / 3, 0.7642376251220712, 0.07034762812883534, 1e-05,
      0.1 * 3, 1 - 0x1p-53, 0.9911505004882849, 0.6 + 0.15,
    ]
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    while values.count < 59 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      values.append(Double(state >> 11) * 0x1p-53)
    }
    values.append(.leastNonzeroMagnitude)
    return values
  }()

  /// The significant digits of a double's shortest decimal (`0.30000000000000004`: 17).
  static func significantDigits(_ value: Double) -> Int {
    let mantissa = "\(value)".prefix { $0 != "e" }.filter(\.isNumber)
    return mantissa.drop { $0 == "0" }.count
  }

  @Test("every number of a version-2 line reads back as exactly the double that was written")
  func exactDoubles() throws {
    // Six candidates of ten numbers each: c[0…6], base, score, p.
    let values = Self.exactValues
    #expect("\(values[0])" == "0.30000000000000004" && "\(values[5])" == "1e-05")
    #expect(values.filter { Self.significantDigits($0) == 17 }.count >= 10)
    var candidates: [String] = []
    for k in 0..<6 {
      let v = values[(10 * k)..<(10 * k + 10)].map { "\($0)" }
      candidates.append(
        #"{"song":"s\#(k)","artist":"A","bpm":\#(v[0]),"energy":\#(v[1]),"valence":\#(v[2]),"#
          + #""plays":1,"learned":\#(v[3]),"last_played":null,"#
          + #""c":[\#(v[0...6].joined(separator: ","))],"base":\#(v[7]),"score":\#(v[8]),"#
          + #""p":\#(v[9])}"#)
    }
    let line =
      #"{"t":"2022-06-01T15:00:00.000Z","offset":0,"decision":1,"need":"calm","#
      + #""context":"relax","local_hour":\#(values[11]),"stress":\#(values[12]),"#
      + #""max_play_count":9,"heart_rate":\#(values[13]),"candidates":["#
      + candidates.joined(separator: ",") + #"],"chosen":"s0"}"#
    #expect(line.contains("0.30000000000000004") && line.contains("\"p\":5e-324"))
    let (records, _, warnings) = try readLog([Self.header, line])
    #expect(warnings.isEmpty, "\(warnings)")
    let record = try #require(records.first)
    try #require(record.candidates.count == 6)
    var read: [Double] = []
    for c in record.candidates {
      read += c.components.vector + [c.baseScore, c.finalScore, c.propensity]
    }
    for (got, written) in zip(read, values) {
      #expect(got.bitPattern == written.bitPattern, "\(written) came back as \(got)")
    }
    #expect(record.candidates.last?.propensity == .leastNonzeroMagnitude)
    let inputs = record.candidates.map(\.inputs)
    #expect(inputs[2].features.bpm.bitPattern == values[20].bitPattern)
    #expect(inputs[2].learned?.bitPattern == values[23].bitPattern)
    #expect(record.localHour?.bitPattern == values[11].bitPattern)
    #expect(record.stress?.bitPattern == values[12].bitPattern)
    #expect(record.heartRate?.bitPattern == values[13].bitPattern)
  }
}

@Suite("Decision log: files refused, lines skipped")
struct DecisionLogRefusalTests {
  @Test("a header of a version this build does not read refuses the file at line 1")
  func newerVersion() throws {
    let header =
      #"{"format":"resonance.decision-log","version":4,"preferences":"#
      + DecisionLogVersion2Tests.preferences + "}"
    let error = try #require(throws: IngestError.self) {
      _ = try readLog([header, DecisionLogVersion2Tests.line(1)])
    }
    #expect(error.kind == .malformed)
    #expect(error.location == SourceLocation(file: "decisions.jsonl", line: 1, column: 1))
    #expect(
      error.message.contains(
        "expected \"version\" 1 to 3 for resonance.decision-log (the versions this build reads), found 4 (written by a newer app?)"
      ))
  }

  @Test(
    "a trace header's version must be a whole number this build reads; none is version 1",
    arguments: [
      ("999", "found 999 (written by a newer app?)"), ("0", "found 0"),
      (#""1""#, #"found "1" (a string)"#), ("1.5", "found 1.5 (not a whole number)"),
      ("true", "found true (a boolean)"), ("null", "found null"),
    ])
  func versions(version: String, found: String) throws {
    let header = #"{"format":"resonance.watch-trace","version":"# + version + "}"
    let line = #"{"t":"2024-01-01T00:00:00Z","offset":0,"hr":60}"#
    let error = try #require(throws: IngestError.self) {
      _ = try TraceReader.read(path: "w.jsonl", data: Data((header + "\n" + line).utf8))
    }
    #expect(error.kind == .malformed)
    #expect(error.location == SourceLocation(file: "w.jsonl", line: 1, column: 1))
    #expect(
      error.message
        == "expected \"version\" 1 for resonance.watch-trace (the versions this build reads), "
        + found)
    let (file, _) = try TraceReader.read(
      path: "w.jsonl", data: Data(("{\"format\":\"resonance.watch-trace\"}\n" + line).utf8))
    #expect(file.version == 1 && file.samples == 1)
  }

  @Test("a version-2 header without the settings in force refuses the file at line 1")
  func headerWithoutPreferences() throws {
    let header = #"{"format":"resonance.decision-log","version":2,"app":"Resonance DJ"}"#
    let error = try #require(throws: IngestError.self) {
      _ = try readLog([header, DecisionLogVersion2Tests.line(1)])
    }
    #expect(error.location.line == 1)
    #expect(error.message.hasPrefix("expected"))
    #expect(error.message.contains("\"preferences\""))
  }

  @Test("a version-2 header whose settings lack a key refuses the file, naming the key")
  func incompletePreferences() throws {
    let settings = DecisionLogVersion2Tests.preferences.replacingOccurrences(
      of: #""nightHardCapBPM":105,"#, with: "")
    let header =
      #"{"format":"resonance.decision-log","version":2,"preferences":"# + settings + "}"
    let error = try #require(throws: IngestError.self) {
      _ = try readLog([header, DecisionLogVersion2Tests.line(1)])
    }
    #expect(error.location.line == 1)
    #expect(error.message.contains("preferences.nightHardCapBPM"))
  }

  static let malformed: [(String, String, String)] = [
    (#""p":1}"#, #""p":"x"}"#, "candidates[0].p: expected a number"),
    ("[1,1,0.1,0.75,0.95,0,0]", "[1,1,0.1,0.75,0.95,0]", "candidates[0].c: expected the seven"),
    (#"{"t":"2022-06-01T15:03:00.000Z","#, "{", "t: expected this key"),
    (#""t":"2022-06-01T15:03:00.000Z""#, #""t":"yesterday""#, #"expected "t" as an ISO 8601"#),
    (#""plays":3,"#, "", "plays"),
    (
      #""listened_ms":180000"#, #""listened_ms":9223372036854775000"#,
      "outcome.listened_ms: expected milliseconds up to a week"
    ),
  ]

  @Test(
    "a decision line with a bad candidate or time is skipped with a warning naming its line and key",
    arguments: malformed)
  func skippedLine(original: String, broken: String, message: String) throws {
    let line = DecisionLogVersion2Tests.line(3)
    try #require(line.contains(original))
    let bad = line.replacingOccurrences(of: original, with: broken)
    let (records, _, warnings) = try readLog([
      DecisionLogVersion2Tests.header, DecisionLogVersion2Tests.line(1), bad,
      DecisionLogVersion2Tests.line(5),
    ])
    #expect(records.map(\.decision) == [1, 5])
    try #require(warnings.count == 1)
    #expect(warnings[0].severity == .warning)
    #expect(warnings[0].location?.line == 3)
    #expect(warnings[0].message.hasPrefix("line skipped: "))
    #expect(warnings[0].message.contains(message), "\(warnings[0].message)")
  }

  @Test("when the first decision line is skipped, the header's settings go to the next one")
  func headerSettingsSurviveASkippedLine() throws {
    let bad = DecisionLogVersion2Tests.line(1).replacingOccurrences(
      of: #""p":1}"#, with: #""p":"x"}"#)
    let (records, _, warnings) = try readLog([
      DecisionLogVersion2Tests.header, bad, DecisionLogVersion2Tests.line(2),
    ])
    #expect(warnings.map(\.location?.line) == [2])
    #expect(records.map(\.decision) == [2])
    #expect(records.first?.preferences == DecisionLogVersion2Tests.headerPreferences)
  }
}

@Suite("Decision log: propensities that cannot be, and settings out of range")
struct DecisionLogImpossibleNumbersTests {
  @Test(
    "a propensity outside [0, 1] is kept with a warning at its line, saying evaluation leaves it out",
    arguments: ["1.5", "-0.5", "1e308"])
  func outsideUnitInterval(p: String) throws {
    let bad = DecisionLogVersion2Tests.line(2).replacingOccurrences(
      of: #""p":1}"#, with: #""p":\#(p)}"#)
    let (records, _, warnings) = try readLog([
      DecisionLogVersion2Tests.header, DecisionLogVersion2Tests.line(1), bad,
    ])
    #expect(records.map(\.decision) == [1, 2])
    #expect(records.last?.candidates.first?.propensity == Double(p))
    try #require(warnings.count == 1)
    #expect(warnings[0].location?.line == 3)
    #expect(
      warnings[0].message
        == "candidates[0].p: expected a probability in [0, 1], found \(Double(p)!); the decision is kept but left out of evaluation"
    )
  }

  @Test(
    "the chosen song's propensity of 0 is a warning; one below 1e-6 is read as 1e-6, said at its line"
  )
  func chosenZeroOrTiny() throws {
    let zero = DecisionLogVersion2Tests.line(2).replacingOccurrences(
      of: #""p":1}"#, with: #""p":0}"#)
    let tiny = DecisionLogVersion2Tests.line(3).replacingOccurrences(
      of: #""p":1}"#, with: #""p":1e-300}"#)
    let (records, _, warnings) = try readLog([
      DecisionLogVersion2Tests.header, DecisionLogVersion2Tests.line(1), zero, tiny,
    ])
    #expect(records.count == 3)
    #expect(warnings.map(\.location?.line) == [3, 4])
    #expect(warnings.first?.message.contains("the chosen song's propensity is 0") == true)
    #expect(
      warnings.last?.message
        == "candidates[0].p: the chosen song's propensity 1e-300 is below 1e-06; evaluation reads it as 1e-06"
    )
  }

  @Test(
    "settings out of range in a log's header refuse the file at line 1; in a line, skip the line",
    arguments: [
      (
        #""temperature":0.07"#, #""temperature":0"#,
        "preferences.policy.temperature: expected a temperature in (0, 100]"
      ),
      (
        #""bpmWeight":0.3"#, #""bpmWeight":-0.3"#,
        "preferences.bpmWeight: expected a finite number ≥ 0, found -0.3"
      ),
      (
        #""nightStartHour":23"#, #""nightStartHour":99"#,
        "preferences.nightStartHour: expected an hour in [0, 24), found 99.0"
      ),
    ])
  func settingsOutOfRange(original: String, broken: String, message: String) throws {
    let settings = DecisionLogVersion2Tests.preferences.replacingOccurrences(
      of: original, with: broken)
    try #require(settings != DecisionLogVersion2Tests.preferences)
    let header =
      #"{"format":"resonance.decision-log","version":2,"preferences":"# + settings + "}"
    let error = try #require(throws: IngestError.self) {
      _ = try readLog([header, DecisionLogVersion2Tests.line(1)])
    }
    #expect(error.location.line == 1)
    #expect(error.message.contains(message), "\(error.message)")
    let (records, _, warnings) = try readLog([
      DecisionLogVersion2Tests.header, DecisionLogVersion2Tests.line(1),
      DecisionLogVersion2Tests.line(2, extra: #""preferences":"# + settings + ","),
    ])
    #expect(records.map(\.decision) == [1])
    #expect(warnings.map(\.location?.line) == [3])
    #expect(warnings.first?.message.contains(message) == true, "\(warnings)")
  }
}

@Suite("Recordings read in parts")
struct TracePartsTests {
  @Test(
    "a Watch recording of 20,000 lines goes out in parts of 8,192: the first names it, the rest continue it"
  )
  func watchParts() throws {
    var text = #"{"format":"resonance.watch-trace","version":1,"generator":"test"}"# + "\n"
    for i in 0..<20_000 {
      text +=
        #"{"t":"2024-01-15T08:\#(String(format: "%02d", i / 600 % 60)):\#(String(format: "%02d", i / 10 % 60)).\#(i % 10)00Z","offset":3600,"hr":\#(60 + i % 20)}"#
        + "\n"
    }
    var lines = LineReader(MemorySource(Array(text.utf8), name: "w.jsonl"), maximumLength: 1 << 20)
    var parts: [TraceFile] = []
    let log = try TraceReader.stream(path: "w.jsonl", lines: &lines) { part in
      parts.append(part)
      return true
    }
    #expect(log.count == 0)
    #expect(parts.map(\.samples) == [8192, 8192, 3616])
    #expect(parts.map(\.continues) == [false, true, true])
    #expect(parts[0].started?.millisecondsSinceEpoch == 1_705_305_600_000)
    var heartRates: [Double] = []
    for part in parts {
      guard case .watch(let readings) = part.content else {
        Issue.record("expected Watch readings")
        return
      }
      heartRates += readings.compactMap(\.heartRate)
    }
    #expect(heartRates == (0..<20_000).map { Double(60 + $0 % 20) })
    // Read whole, the same recording.
    var again = LineReader(MemorySource(Array(text.utf8), name: "w.jsonl"), maximumLength: 1 << 20)
    let (whole, _) = try TraceReader.read(path: "w.jsonl", lines: &again)
    #expect(whole.samples == 20_000 && !whole.continues)
  }

  @Test("an empty recording is one part, with no samples")
  func emptyRecording() throws {
    let text = #"{"format":"resonance.mood","version":1,"generator":"test"}"# + "\n"
    var lines = LineReader(MemorySource(Array(text.utf8), name: "m.jsonl"), maximumLength: 1 << 20)
    var parts: [TraceFile] = []
    _ = try TraceReader.stream(path: "m.jsonl", lines: &lines) { part in
      parts.append(part)
      return true
    }
    #expect(parts.count == 1 && parts[0].samples == 0 && !parts[0].continues)
  }
}

@Suite("Decision log, version 3: an experiment's arms in the header, each decision's arm")
struct DecisionLogVersion3Tests {
  /// A plan of two arms: the header's settings, and the same with familiarity at 0.9.
  static let candidate = DecisionLogVersion2Tests.preferences.replacingOccurrences(
    of: #""familiarityWeight":0.2"#, with: #""familiarityWeight":0.9"#)

  static func header(arms: String? = nil) -> String {
    let arms =
      arms
      ?? #"[{"name":"in-force","preferences":"# + DecisionLogVersion2Tests.preferences
      + #"},{"name":"candidate","preferences":"# + candidate + "}]"
    return #"{"format":"resonance.decision-log","version":3,"preferences":"#
      + DecisionLogVersion2Tests.preferences
      + #","experiment":{"seed":77,"start":"2022-06-01","arms":"# + arms + "}}"
  }

  @Test(
    "each decision names its arm; the settings are stated where the arm changes, the header's where a line names none"
  )
  func armsRead() throws {
    let lines = [
      Self.header(),
      DecisionLogVersion2Tests.line(1, extra: #""arm":"candidate","#),
      DecisionLogVersion2Tests.line(2, extra: #""arm":"candidate","#),
      DecisionLogVersion2Tests.line(3, extra: #""arm":"in-force","#),
      DecisionLogVersion2Tests.line(4),
      DecisionLogVersion2Tests.line(5, extra: #""arm":"candidate","#),
    ]
    let (records, version, warnings) = try readLog(lines)
    #expect(version == 3 && warnings.isEmpty)
    #expect(records.map(\.arm) == ["candidate", "candidate", "in-force", nil, "candidate"])
    #expect(records.allSatisfy { $0.experimentSeed == 77 })
    var familiar = DecisionLogVersion2Tests.headerPreferences
    familiar.familiarityWeight = 0.9
    let header = DecisionLogVersion2Tests.headerPreferences
    #expect(records.map(\.preferences) == [familiar, nil, header, header, familiar])
  }

  @Test(
    "a version-3 header without its arms, an arm whose settings are out of range, and a line naming no arm of the header are refused, each named",
    arguments: [
      (nil as String?, "", "expected the header's \"experiment\" with its seed and arms", 1),
      (
        #"[{"name":"in-force","preferences":"#
          + DecisionLogVersion2Tests.preferences.replacingOccurrences(
            of: #""bpmWeight":0.3"#, with: #""bpmWeight":-2"#) + "}]",
        "", "experiment.arms.0.preferences.bpmWeight", 1
      ),
      (
        "", #""arm":"other","#,
        #"arm: expected one of the header's arms ("in-force", "candidate"), found "other""#, 2
      ),
    ] as [(String?, String, String, Int)])
  func refused(arms: String?, extra: String, message: String, line: Int) throws {
    let header =
      switch arms {
      case nil:
        #"{"format":"resonance.decision-log","version":3,"preferences":"#
          + DecisionLogVersion2Tests.preferences + "}"
      case ""?: Self.header()
      case let arms?: Self.header(arms: arms)
      }
    do {
      let (records, _, warnings) = try readLog([
        header, DecisionLogVersion2Tests.line(1, extra: extra),
      ])
      // A line that cannot be read is skipped with a warning naming it.
      #expect(line == 2 && records.isEmpty)
      #expect(warnings.contains { $0.message.contains(message) }, "\(warnings)")
    } catch let error as IngestError {
      #expect(line == 1 && error.location.line == 1)
      #expect(error.message.contains(message), "\(error.message)")
    }
  }
}
