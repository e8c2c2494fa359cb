import Foundation
import ResonanceModel
import Testing

@testable import ResonanceSynth

/// `SynthTruth.validate(_:)` on small hand-made truths and stores.
@Suite("truth validation")
struct TruthValidationTests {
  static let minute: Int64 = 60_000

  static func truth(
    songs: [SynthTruth.Song] = [], breathing: [SynthTruth.Breathing] = [],
    sessions: [SynthTruth.Session] = [], gains: [String: Double] = [:], effectScale: Double = 1
  ) -> SynthTruth {
    SynthTruth(
      generator: .init(
        command: "resonance synth", seed: 1, months: 1, songs: songs.count, scale: 1,
        start: "2024-01-01", person: "null", tasteContrast: 1, effectScale: effectScale,
        zip: false,
        djPreferences: "app"),
      person: .init(
        birthYear: 1990, restingHrStart: 60, restingHrDriftPerYear: 0, hrvBaseMs: 50,
        kind: "null", preferences: .appDefault, traits: PersonTraits(), targetSkipShare: 0.2),
      app: .init(weights: .appDefault, policy: "softmax", temperature: 0.05, epsilon: 0),
      genrePriors: GenrePrior.table, contextGain: gains, songs: songs, trips: [], nights: [],
      breathing: breathing,
      plays: .init(
        total: 0, byDj: 0, skipped: 0, skippedWithin5S: 0, appleMusic: 0, spotify: 0,
        sessions: sessions.count, decisions: 0, djSkipped: 0, djListenShare: 0),
      sessions: sessions,
      privacy: .init(
        appleIdNumber: "1", deviceIdentifier: "d", clientIp: "0.0.0.0", spotifyUsername: "u"))
  }

  static func song(
    _ id: String, hr: Double = 0, bpm: Double = 120, energy: Double = 0.5
  ) -> SynthTruth.Song {
    .init(
      catalogId: id, persistentId: "P" + id, spotifyUri: "spotify:track:" + id, title: id,
      artist: "Artist", album: "Album", genre: "Pop", durationMs: 180_000, bpm: bpm,
      energy: energy, valence: 0.5, libraryBpm: nil, effectKind: "neutral", hrEffectBpm: hr,
      hrvEffectMs: 0)
  }

  static func session(_ from: Int64, _ to: Int64, _ context: String) -> SynthTruth.Session {
    .init(startMs: from * minute, endMs: to * minute, context: context, byDj: false)
  }

  static func play(_ song: Int64, _ from: Int64, _ to: Int64, _ context: ActivityContext)
    -> SessionPlay
  {
    SessionPlay(
      songID: song, heard: TimeSpan(startMs: from * minute, endMs: to * minute),
      context: context)
  }

  static func estimate(
    _ song: Int64, minutes: Double, estimate: Double, low: Double, high: Double
  ) -> SongEffectEstimate {
    SongEffectEstimate(
      songID: song, signal: .heartRate, plays: 10, minutes: minutes, unpooled: estimate,
      genreMean: 0, estimate: estimate, sd: (high - low) / 3.29, low90: low, high90: high)
  }

  static func analysed(_ session: Int, score: Double?, locking: Double?, rate: Double? = nil)
    -> ValidationInputs.BreathingSession
  {
    .init(
      session: session,
      result: BreathingResult(
        resonanceScore: score, events: 0, matched: 0, breaths: 0, breathsPerMinute: rate,
        rateVariability: nil, pacerBreathsPerMinute: nil, phaseLocking: locking,
        lagSeconds: nil, inSyncShare: nil, coherence: nil, coherencePeakHz: nil,
        rsaAmplitude: nil, hrvBefore: nil, hrvAfter: nil, dominantExpression: nil, notes: []))
  }

  static func planted(_ session: Int, adherence: Double, rate: Double = 6)
    -> SynthTruth.Breathing
  {
    .init(
      session: session, file: "resonance/breathing/b.jsonl", pattern: "resonance",
      started: "2024-01-01T08:00:00Z", adherence: adherence, trueRateBpm: rate,
      pacerRateBpm: 6, expression: "neutral")
  }

  /// Two songs over two lived sessions: 0–10 min relaxing (gain 0.5), 20–30 min commuting
  /// (gain 1.5, reconstructed as general), with a heart-rate reading every 30 s.
  static let songs = [song("a", hr: 2, bpm: 120, energy: 0.5), song("b", hr: -2, bpm: 100)]
  static let lived = [session(0, 10, "relax"), session(20, 30, "commute")]
  static let gains = ["relax": 0.5, "commute": 1.5, "general": 1, "workout": 3]
  static let readings = stride(from: Int64(0), to: 40 * minute, by: 30_000).map {
    SignalReading(timeMs: $0, value: 70, isMoving: false)
  }
  static let plays = [
    play(1, 0, 2, .relax),  // a: 2 measured minutes at the relax gain
    play(2, 4, 6, .relax),  // b: 2 minutes at the relax gain
    play(1, 20, 24, .general),  // a: 4 minutes, lived commuting (gain 1.5, not general's 1)
    play(2, 25, 26, .workout),  // workouts are left out of the gains, but their context counts
    play(2, 26, 27, .workout),
    play(1, 35, 36, .commute),  // outside every lived session: its own context's gain, 1.5
  ]

  @Test("an interval is judged against the planted effect × its plays' lived-context gain")
  func effects() throws {
    // a: gain (2·0.5 + 4·1.5 + 1·1.5)/7 = 8.5/7, shows 17/7; b: gain 0.5 (its workout plays
    // are left out), shows −1. The exposure-weighted mean is (3·17/7 − 1)/4 = 11/7, so the
    // targets are a: 6/7 ≈ 0.857, b: −18/7. a's interval 0.84…0.9 covers it, and would not
    // cover 0.714 (the reconstructed context's gain), 0.833 (plays weighted alike, or the play
    // outside the lived sessions dropped), 1 (no gains) or 1.107 (workout plays counted);
    // b's interval does not cover its target.
    let inputs = ValidationInputs(
      effectEstimates: [
        Self.estimate(1, minutes: 3, estimate: 0.85, low: 0.84, high: 0.9),
        Self.estimate(2, minutes: 1, estimate: -0.4, low: -1, high: 0.2),
        Self.estimate(3, minutes: 5, estimate: 9, low: 8, high: 10),  // not in the truth
      ],
      catalogIDs: [1: "a", 2: "b", 3: "zz"], plays: Self.plays, heartRate: Self.readings)
    let truth = Self.truth(songs: Self.songs, sessions: Self.lived, gains: Self.gains)
    let report = truth.validate(inputs)
    let effect = try #require(report.effects.first)
    #expect(report.effects.count == 1)
    #expect(effect.signal == .heartRate && effect.effectScale == 1)
    #expect(effect.songs == 2 && effect.covered == 1)
    #expect(effect.coverage == 0.5)
    #expect(effect.distinguishable == 1 && effect.distinguishableRightSign == 1)
    #expect(effect.songsWithEightPlays == 2 && effect.spearman == nil)
    #expect(effect.spearmanGoal == nil && effect.goals == [GoalCheck(.intervalCoverage, 0.5)])
    #expect(!effect.coverageCheck.isMet && report.hasMissedGoal)
    #expect(report.breathing == nil && report.features.isEmpty && !report.isEmpty)
  }

  @Test("without readings a play has no weight and the planted effect is taken as it is")
  func unmeasured() throws {
    // a shows 2, b −2; the mean is (3·2 − 2)/4 = 1: targets 1 and −3.
    let inputs = ValidationInputs(
      effectEstimates: [
        Self.estimate(1, minutes: 3, estimate: 1, low: 0.5, high: 1.5),
        Self.estimate(2, minutes: 1, estimate: -3, low: -3.5, high: -2.5),
      ],
      catalogIDs: [1: "a", 2: "b"], plays: Self.plays)
    let report = Self.truth(songs: Self.songs, sessions: Self.lived, gains: Self.gains)
      .validate(inputs)
    let effect = try #require(report.effects.first)
    #expect(effect.covered == 2 && effect.coverage == 1)
    #expect(effect.distinguishable == 2 && effect.distinguishableRightSign == 2)
    #expect(!effect.coverageCheck.isMet, "1.0 is above the 0.85–0.95 goal")
  }

  @Test("the Spearman goal applies from effect scale 3")
  func spearmanGoal() throws {
    let estimates = (1...4).map {
      Self.estimate(Int64($0), minutes: 1, estimate: Double($0), low: -10, high: 10)
    }
    let songs = (1...4).map { Self.song("s\($0)", hr: Double($0) * 0.5) }
    let catalog = Dictionary(uniqueKeysWithValues: (1...4).map { (Int64($0), "s\($0)") })
    let inputs = ValidationInputs(effectEstimates: estimates, catalogIDs: catalog)
    let realistic = try #require(Self.truth(songs: songs).validate(inputs).effects.first)
    #expect(realistic.spearman == 1 && realistic.spearmanGoal == nil)
    #expect(realistic.goals.count == 1)
    let strong = try #require(
      Self.truth(songs: songs, effectScale: 3).validate(inputs).effects.first)
    #expect(strong.spearmanGoal == .rankCorrelation)
    #expect(strong.spearmanCheck == GoalCheck(.rankCorrelation, 1))
    #expect(strong.goals.count == 2)
    // Every interval covers (coverage 1 misses its goal); the ranking meets its own.
    #expect(strong.spearmanCheck?.isMet == true && !strong.coverageCheck.isMet)
  }

  @Test("a play read in another context than lived is a confusion; most plays first")
  func contexts() throws {
    let report = Self.truth(songs: Self.songs, sessions: Self.lived, gains: Self.gains)
      .validate(ValidationInputs(plays: Self.plays))
    let contexts = try #require(report.contexts)
    #expect(contexts.plays == 5 && contexts.agreeing == 2)
    #expect(contexts.share == 0.4)
    #expect(
      contexts.confusions == [
        .init(lived: .commute, reconstructed: .workout, plays: 2),
        .init(lived: .commute, reconstructed: .general, plays: 1),
      ])
    // Contexts alone do not make a report.
    #expect(report.isEmpty && !report.hasMissedGoal)
    let unlived = Self.truth(songs: Self.songs).validate(ValidationInputs(plays: Self.plays))
    #expect(unlived.contexts == nil)
  }

  @Test("breathing: scores and phase locking ranked against adherence; followed sessions' rate")
  func breathing() throws {
    let truth = Self.truth(breathing: [
      Self.planted(1, adherence: 1, rate: 6), Self.planted(2, adherence: 0.8),
      Self.planted(3, adherence: 0.5), Self.planted(4, adherence: 0.2),
    ])
    let analysed = [
      Self.analysed(1, score: 90, locking: 0.95, rate: 6.1),
      Self.analysed(2, score: 70, locking: 0.8, rate: 9),
      Self.analysed(3, score: 50, locking: 0.6),
      Self.analysed(4, score: nil, locking: 0.1),  // no score ranks lowest
      Self.analysed(9, score: 10, locking: 0.99),  // not in the truth
    ]
    let b = try #require(truth.validate(ValidationInputs(breathing: analysed)).breathing)
    #expect(b.sessions == 4)
    #expect(b.spearmanScore == 1 && b.spearmanPhaseLocking == 1)
    #expect(b.followedSessions == 1)
    #expect(abs((b.maxRateError ?? 0) - 0.1) < 1e-12)
    #expect(b.isMet && b.goals.count == 3)

    let off = [Self.analysed(1, score: 90, locking: 0.95, rate: 6.7)] + analysed.dropFirst()
    let missed = try #require(truth.validate(ValidationInputs(breathing: off)).breathing)
    #expect(!missed.rateErrorCheck.isMet && missed.scoreCheck.isMet && !missed.isMet)
    #expect(truth.validate(ValidationInputs(breathing: off)).hasMissedGoal)

    let few = try #require(
      truth.validate(ValidationInputs(breathing: Array(analysed.prefix(2)))).breathing)
    #expect(few.spearmanScore == nil && !few.scoreCheck.isMet)
  }

  @Test("features: error and coverage by estimate source, sources in name order")
  func features() throws {
    let estimates = [
      SongFeatureEstimate(
        songID: 1, bpm: .init(value: 121, sd: 2, source: .library),
        energy: .init(value: 0.6, sd: 0.1, source: .genrePrior),
        valence: .init(value: 0.5, sd: 0.1, source: .genrePrior), familiarity: 0),
      SongFeatureEstimate(
        songID: 2, bpm: .init(value: 110, sd: 5, source: .genreRidge),
        energy: .init(value: 0.5, sd: 0.1, source: .genrePrior),
        valence: .init(value: 0.2, sd: 0.1, source: .genrePrior), familiarity: 0),
    ]
    let report = Self.truth(songs: Self.songs)
      .validate(ValidationInputs(catalogIDs: [1: "a", 2: "b"], features: estimates))
    #expect(report.features.map(\.feature) == [.bpm, .energy, .valence])
    let bpm = report.features[0].bySource
    #expect(
      bpm == [
        .init(source: .genreRidge, songs: 1, meanAbsoluteError: 10, covered: 0),
        .init(source: .library, songs: 1, meanAbsoluteError: 1, covered: 1),
      ])
    let energy = try #require(report.features[1].bySource.first)
    #expect(energy.source == .genrePrior && energy.songs == 2 && energy.covered == 2)
    #expect(abs(energy.meanAbsoluteError - 0.05) < 1e-12)
    // valence: 0 and 0.3 off, at sd 0.1 only the first is within ± 1.645 sd.
    #expect(report.features[2].bySource.first?.coverage == 0.5)
    #expect(!report.isEmpty && !report.hasMissedGoal)
  }

  @Test("nothing matching the truth makes an empty report")
  func empty() {
    let inputs = ValidationInputs(
      breathing: [Self.analysed(7, score: 50, locking: 0.5)],
      effectEstimates: [Self.estimate(1, minutes: 1, estimate: 0, low: -1, high: 1)],
      catalogIDs: [1: "unknown"])
    let report = Self.truth(songs: Self.songs, breathing: [Self.planted(1, adherence: 1)])
      .validate(inputs)
    #expect(report.isEmpty && report.goals.isEmpty)
  }

  @Test("reads the committed sample's truth.json, genre priors included")
  func decodesSample() throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Datasets/sample/truth.json")
    let truth = try SynthTruth(json: Data(contentsOf: url))
    let breathingFiles = try FileManager.default.contentsOfDirectory(
      atPath: url.deletingLastPathComponent().path + "/resonance/breathing")
    #expect(truth.songs.count == 160 && truth.breathing.count == breathingFiles.count)
    #expect(truth.genrePriors == GenrePrior.table)
    #expect(truth.sessions.count == truth.plays.sessions && !truth.sessions.isEmpty)
    #expect(truth.contextGain["relax"] != nil)
    #expect(truth.generator.effectScale == 1)
  }

  @Test("what the writer's snake-case encoder writes reads back equal; other JSON does not")
  func roundTrip() throws {
    let truth = Self.truth(
      songs: Self.songs, breathing: [Self.planted(1, adherence: 0.9)], sessions: Self.lived,
      gains: Self.gains, effectScale: 3)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.keyEncodingStrategy = .convertToSnakeCase
    #expect(try SynthTruth(json: encoder.encode(truth)) == truth)
    for text in ["{}", #"{"songs": []}"#, "[1, 2]", "not json", ""] {
      #expect(throws: (any Error).self) { try SynthTruth(json: Data(text.utf8)) }
    }
  }
}
