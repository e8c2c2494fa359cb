import ResonanceBrain
import ResonanceModel
import Testing

@testable import ResonanceTuning

/// Decision records made the way the app makes them: the guard filters remove candidates, the
/// engine scores the rest under the preferences and the adjuster, and the line logs it all.
enum LoggedRecords {
  /// 2024-01-01T12:00Z, ms; the decisions are made at 14:00 local (no time-of-day cap).
  static let t0: Int64 = 1_704_110_400_000

  /// The app's defaults with the softmax a little warmer.
  static let settings: UserPreferences = {
    var settings = UserPreferences.appDefault
    settings.bpmWeight = 0.3
    settings.contextWeight = 0.1
    settings.policy = LoggingPolicy(kind: .softmax, temperature: 0.1, epsilon: 0)
    return settings
  }()

  /// Four songs for decision `n`: calm and slow, middling and heard three hours ago, fast and
  /// new, and one by the artist just played (the same-artist filter removes it).
  static func playlist(_ n: Int, nowMs: Int64) -> [(song: String, inputs: CandidateInputs)] {
    [
      (
        "s\(n)-0",
        CandidateInputs(
          artist: "Ana", features: SongFeatures(bpm: 70 + Double(n), energy: 0.3, valence: 0.5),
          plays: 5, learned: 0.2, lastPlayedMs: nil)
      ),
      (
        "s\(n)-1",
        CandidateInputs(
          artist: "Ben", features: SongFeatures(bpm: 96, energy: 0.55, valence: 0.65), plays: 20,
          learned: nil, lastPlayedMs: nowMs - 3 * 3_600_000)
      ),
      (
        "s\(n)-2",
        CandidateInputs(
          artist: "Cleo", features: SongFeatures(bpm: 124, energy: 0.85, valence: 0.7),
          plays: 0, learned: -0.5, lastPlayedMs: nil)
      ),
      (
        "s\(n)-3",
        CandidateInputs(
          artist: "Dan", features: SongFeatures(bpm: 80, energy: 0.4, valence: 0.4), plays: 2,
          learned: nil, lastPlayedMs: nil)
      ),
    ]
  }

  /// Decision `n`, `n` minutes after `t0`, scored under `scoredUnder` (stated on the line
  /// when `stated`), the adjuster and the song before.
  static func record(
    _ n: Int, version: Int = 2, scoredUnder preferences: UserPreferences = settings,
    stated: Bool = false, need: Need = .calm, context: ActivityContext = .relax,
    previous: SongFeatures? = nil, adjuster: AdjusterState = AdjusterState(),
    chosen: Int = 0,
    outcome: DecisionOutcome? = DecisionOutcome(
      listenedMs: 90_000, durationMs: 180_000, skipped: false, completed: false)
  ) -> DecisionRecord {
    let nowMs = t0 + Int64(n) * 60_000
    let moment = DecisionMoment(
      need: need, context: context, nowMs: nowMs, localHour: 14, stress: 0.3,
      previous: previous, recentArtists: ["Dan"], maxPlayCount: 30)
    var admitted: [(song: String, inputs: CandidateInputs)] = []
    var rejected: [RejectedCandidate] = []
    for (song, inputs) in playlist(n, nowMs: nowMs) {
      let candidate = Candidate(
        songID: song, artist: inputs.artist, features: inputs.features, playCount: inputs.plays,
        learnedEffect: inputs.learned, lastPlayedAtMs: inputs.lastPlayedMs)
      if let reason = GuardFilters.rejection(
        of: candidate, at: moment, preferences: preferences, adjuster: adjuster)
      {
        rejected.append(
          RejectedCandidate(
            song: song, reason: reason.rawValue, inputs: version >= 2 ? inputs : nil))
      } else {
        admitted.append((song, inputs))
      }
    }
    let scored = DecisionEngine.score(
      admitted.map {
        Candidate(
          songID: $0.song, artist: $0.inputs.artist, features: $0.inputs.features,
          playCount: $0.inputs.plays, learnedEffect: $0.inputs.learned,
          lastPlayedAtMs: $0.inputs.lastPlayedMs)
      }, at: moment, preferences: preferences, adjuster: adjuster)
    precondition(scored.count == admitted.count, "the filters ran before scoring")
    let candidates = zip(admitted, scored).map { entry, s in
      LoggedCandidate(
        song: entry.song, inputs: entry.inputs, components: s.components,
        baseScore: s.baseScore, finalScore: s.finalScore, propensity: s.propensity)
    }
    return DecisionRecord(
      time: Timestamp(millisecondsSinceEpoch: nowMs, utcOffsetSeconds: -25_200), decision: n,
      session: 1, need: need.rawValue, context: context.rawValue,
      chosen: candidates[chosen].song, outcome: outcome, version: version,
      preferences: stated ? preferences : nil, localHour: 14, stress: 0.3, maxPlayCount: 30,
      previous: previous, recentArtists: ["Dan"], heartRate: version >= 2 ? 72 : nil,
      adjuster: version >= 2 ? adjuster : nil, candidates: candidates, rejected: rejected)
  }

  /// `record` as version 1 wrote it: components and scores to 6 decimals, `p` to 8.
  static func roundedLikeVersion1(_ record: DecisionRecord) -> DecisionRecord {
    func round(_ x: Double, _ places: Double) -> Double { (x * places).rounded() / places }
    var copy = record
    for i in copy.candidates.indices {
      let c = copy.candidates[i]
      copy.candidates[i].components = ScoringComponents(
        vector: c.components.vector.map { round($0, 1e6) })
      copy.candidates[i].baseScore = round(c.baseScore, 1e6)
      copy.candidates[i].finalScore = round(c.finalScore, 1e6)
      copy.candidates[i].propensity = round(c.propensity, 1e8)
    }
    return copy
  }
}

@Suite("Replay check: the engine run again on the log reproduces it, within the log's precision")
struct DecisionReplayTests {
  /// Three decisions: version 2 with the settings, a song before and a boosted familiarity;
  /// version 2 under a BPM ceiling that rejects the fast song; version 1 under its own.
  static func history() -> [DecisionRecord] {
    var version1 = LoggedRecords.settings
    version1.familiarityWeight = 0.3
    return [
      LoggedRecords.record(
        1, stated: true, previous: SongFeatures(bpm: 90, energy: 0.5, valence: 0.5),
        adjuster: AdjusterState(baselineHeartRate: 70, consecutiveSkips: 3, familiarityBoost: 1.5)),
      LoggedRecords.record(
        2, adjuster: AdjusterState(baselineHeartRate: 70, bpmCeiling: 110, consecutiveSkips: 0)),
      LoggedRecords.record(3, version: 1, scoredUnder: version1, stated: true, need: .focus),
    ]
  }

  @Test("a log the engine wrote replays exactly: every difference 0, counted by version")
  func exact() {
    let records = Self.history()
    #expect(records[1].rejected.map(\.reason) == ["bpm-ceiling", "same-artist"])
    let check = DecisionReplay.check(records)
    #expect(check.passed, "\(String(describing: check.firstMismatch))")
    #expect(check.replayed == 3)
    #expect(check.byVersion == [1: 1, 2: 2])
    #expect(check.notReplayable.isEmpty)
    #expect(check.largestScoreDifference == 0)
    #expect(check.largestPropensityRelativeDifference == 0)
  }

  @Test("a version-1 log rounded to six and eight decimals still passes")
  func roundedVersion1() {
    let records = Self.history().map { record in
      var copy = LoggedRecords.roundedLikeVersion1(record)
      copy.version = 1
      copy.rejected = copy.rejected.map { RejectedCandidate(song: $0.song, reason: $0.reason) }
      return copy
    }
    let check = DecisionReplay.check(records)
    #expect(check.passed, "\(String(describing: check.firstMismatch))")
    #expect(check.byVersion == [1: 3])
    #expect(check.largestScoreDifference > 0 && check.largestScoreDifference <= 5e-7)
  }

  @Test("a version-2 score off by 1e-8 fails, naming the first decision and song that differ")
  func version2Nudge() throws {
    var records = Self.history()
    records[1].candidates[1].finalScore += 1e-8
    records[2].version = 2
    records[2].candidates[0].baseScore += 1e-6
    let check = DecisionReplay.check(records)
    #expect(!check.passed)
    let mismatch = try #require(check.firstMismatch)
    #expect(mismatch.decision == 2)
    #expect(mismatch.version == 2)
    #expect(mismatch.time == records[1].time)
    #expect(mismatch.detail.contains("song s2-1"), "\(mismatch.detail)")
    #expect(check.replayed == 3, "a mismatch does not stop the check")
    #expect(abs(check.largestScoreDifference - 1e-6) < 1e-12)
  }

  @Test(
    "a version-1 score may be off by its rounding, 4e-7, but not 6e-7",
    arguments: [(4e-7, true), (6e-7, false), (-4e-7, true), (-6e-7, false)])
  func version1ScoreTolerance(nudge: Double, passes: Bool) {
    var record = LoggedRecords.record(4, version: 1, stated: true)
    record.candidates[1].components.energy += nudge
    let check = DecisionReplay.check([record])
    #expect(check.passed == passes)
    #expect(abs(check.largestScoreDifference - abs(nudge)) < 1e-12)
    if !passes {
      #expect(check.firstMismatch?.decision == 4)
      #expect(check.firstMismatch?.detail.contains("song s4-1") == true)
    }
  }

  @Test(
    "a version-1 propensity may be off by 0.5e-4 of itself, not 2e-4; version 2 not at all",
    arguments: [(1, 0.5e-4, true), (1, 2e-4, false), (1, -2e-4, false), (2, 0.5e-4, false)])
  func propensityTolerance(version: Int, relative: Double, passes: Bool) throws {
    var record = LoggedRecords.record(5, version: version, stated: true)
    let p = record.candidates[0].propensity
    try #require(p > 0.01)
    record.candidates[0].propensity = p * (1 + relative)
    let check = DecisionReplay.check([record])
    #expect(check.passed == passes)
    #expect(abs(check.largestPropensityRelativeDifference - abs(relative)) < 1e-3 * abs(relative))
    if !passes {
      #expect(check.firstMismatch?.detail.contains("propensity") == true)
      #expect(check.firstMismatch?.detail.contains("song s5-0") == true)
    }
  }

  @Test("a version-2 rejected song whose logged reason the guard filters do not give is reported")
  func rejectedReason() throws {
    var records = Self.history()
    #expect(records[1].rejected[0].reason == "bpm-ceiling")
    records[1].rejected[0].reason = "night-bpm"
    let check = DecisionReplay.check(records)
    let mismatch = try #require(check.firstMismatch)
    #expect(mismatch.decision == 2)
    #expect(mismatch.detail.contains("song s2-2"))
    #expect(mismatch.detail.contains("night-bpm") && mismatch.detail.contains("bpm-ceiling"))
  }

  @Test("a version-2 rejected song the guard filters would admit is reported")
  func rejectedButAdmissible() throws {
    var records = Self.history()
    records[1].adjuster?.bpmCeiling = 130
    let check = DecisionReplay.check(records)
    let mismatch = try #require(check.firstMismatch)
    #expect(mismatch.decision == 2)
    #expect(mismatch.detail.contains("not at all"), "\(mismatch.detail)")
  }

  @Test("a version-1 rejected song without inputs is taken as logged")
  func version1Rejected() {
    var record = LoggedRecords.record(6, version: 1, stated: true)
    record.rejected = [RejectedCandidate(song: "s6-3", reason: "night-bpm")]
    #expect(DecisionReplay.check([record]).passed)
  }

  @Test("the settings stated carry forward to the decisions after them")
  func preferencesInForce() {
    var other = LoggedRecords.settings
    other.recencyPenaltyWeight = 0.1
    let records = [
      LoggedRecords.record(1),
      LoggedRecords.record(2, stated: true),
      LoggedRecords.record(3),
      LoggedRecords.record(4, scoredUnder: other, stated: true),
      LoggedRecords.record(5, scoredUnder: other),
    ]
    #expect(
      DecisionReplay.preferencesInForce(records) == [
        nil, LoggedRecords.settings, LoggedRecords.settings, other, other,
      ])
    // Decision 5 was scored under `other`, so it replays only if `other` carried forward.
    let check = DecisionReplay.check(records)
    #expect(check.passed, "\(String(describing: check.firstMismatch))")
    #expect(check.replayed == 4)
    #expect(check.notReplayable == [.noPreferences: 1])
  }

  @Test("decisions that cannot be replayed are counted by why, and the rest still checked")
  func notReplayable() {
    var unknownNeed = LoggedRecords.record(3)
    unknownNeed.need = "sleep"
    var noHour = LoggedRecords.record(4)
    noHour.localHour = nil
    var unknownContext = LoggedRecords.record(5)
    unknownContext.context = "gardening"
    var empty = LoggedRecords.record(6)
    empty.candidates = []
    let records = [
      LoggedRecords.record(1), LoggedRecords.record(2, stated: true), unknownNeed, noHour,
      unknownContext, empty, LoggedRecords.record(7),
    ]
    let check = DecisionReplay.check(records)
    #expect(check.passed)
    #expect(check.replayed == 2)
    #expect(check.notReplayable == [.noPreferences: 1, .incompleteLine: 3, .noCandidates: 1])
  }
}

@Suite("Decision log assembler: the history as offline evaluation reads it")
struct DecisionLogAssemblerTests {
  static let greedy: UserPreferences = {
    var settings = LoggedRecords.settings
    settings.policy = LoggingPolicy(kind: .greedy, temperature: 0, epsilon: 0)
    return settings
  }()

  static let before = SongFeatures(bpm: 100, energy: 0.6, valence: 0.5)

  /// Ten decisions: one under another policy, five used (calm, energy, focus, mood lift,
  /// calm), and one each chosen outside the admitted, without an outcome, with a need this
  /// build does not know, and chosen at propensity 0.
  static func history() -> DecisionHistory {
    func outcome(_ listened: Int64, of duration: Int64?, skipped: Bool) -> DecisionOutcome {
      DecisionOutcome(
        listenedMs: listened, durationMs: duration, skipped: skipped, completed: !skipped)
    }
    var records = [
      LoggedRecords.record(0, scoredUnder: greedy, stated: true),
      LoggedRecords.record(
        1, stated: true, need: .calm,
        adjuster: AdjusterState(consecutiveSkips: 2, familiarityBoost: 1.25), chosen: 1,
        outcome: outcome(90_000, of: 180_000, skipped: false)),
      LoggedRecords.record(
        2, need: .energy, context: .workout, previous: before,
        outcome: outcome(10_000, of: 200_000, skipped: true)),
      LoggedRecords.record(
        3, version: 1, need: .focus, context: .deepWork, chosen: 1,
        outcome: outcome(120_000, of: nil, skipped: false)),
      LoggedRecords.record(
        4, need: .moodLift, context: .commute,
        adjuster: AdjusterState(consecutiveSkips: 3, familiarityBoost: 1.5),
        outcome: outcome(150_000, of: 150_000, skipped: false)),
      LoggedRecords.record(5),
      LoggedRecords.record(6, outcome: nil),
      LoggedRecords.record(7),
      LoggedRecords.record(8),
      LoggedRecords.record(9, outcome: outcome(60_000, of: 240_000, skipped: false)),
    ]
    records[5].chosen = "s5-3"  // removed by the same-artist filter
    records[7].need = "sleep"
    records[8].candidates[0].propensity = 0
    let followUp = PlayFollowUp(
      heartRateBefore: 70, heartRateDuring: 65, hrvBefore: 40, hrvDuring: 46,
      sessionQuality: 0.8)
    var followUps = [PlayFollowUp?](repeating: followUp, count: records.count)
    followUps[2] = PlayFollowUp(
      heartRateBefore: 80, heartRateDuring: 92, hrvBefore: 30, hrvDuring: 20)
    followUps[3] = PlayFollowUp(
      heartRateBefore: 60, heartRateDuring: 70, hrvBefore: 50, hrvDuring: 45, sessionQuality: 0.4)
    followUps[4] = PlayFollowUp(
      heartRateBefore: 75, heartRateDuring: 78, hrvBefore: 30, hrvDuring: 40, sessionQuality: 0.6)
    followUps[9] = nil
    return DecisionHistory(records: records, followUps: followUps)
  }

  @Test("the used decisions' rows, components, propensities and choices are the log's")
  func rows() throws {
    let history = Self.history()
    let assembled = try DecisionLogAssembler.assemble(history)
    let log = assembled.decisions
    #expect(assembled.recordIndex == [1, 2, 3, 4, 9])
    let used = assembled.recordIndex.map { history.records[$0] }
    #expect(log.count == 5)
    var starts = [0]
    for record in used { starts.append(starts.last! + record.candidates.count) }
    #expect(log.rowStart == starts)
    #expect(log.components == used.flatMap { $0.candidates.flatMap(\.components.vector) })
    #expect(log.propensity == used.flatMap { $0.candidates.map(\.propensity) })
    #expect(log.chosen == [1, 0, 1, 0, 0])
    #expect(log.time == used.map(\.time))
    #expect(log.need == [.calm, .energy, .focus, .moodLift, .calm])
    #expect(log.context == [.relax, .workout, .deepWork, .commute, .relax])
    #expect(log.policy == LoggedRecords.settings.policy, "the policy in force at the last")
    #expect(assembled.inForce == Array(repeating: LoggedRecords.settings, count: 5))
    try log.checkConsistency()
  }

  @Test("blends and smoothness follow the song before; the boost is the adjuster's")
  func blendsAndBoost() throws {
    let history = Self.history()
    let log = try DecisionLogAssembler.assemble(history).decisions
    #expect(log.blends == [false, true, false, false, false])
    #expect(log.familiarityBoost == [1.25, 1, 1, 1.5, 1], "no adjuster (version 1) is 1")
    let energy = history.records[2].candidates.map {
      TransitionController.smoothness(from: Self.before, to: $0.inputs.features)
    }
    #expect(Array(log.smoothness[log.rows(of: 1)]) == energy)
    #expect(energy.allSatisfy { $0 > 0 })
    #expect(log.smoothness[log.rows(of: 0)].allSatisfy { $0 == 0 })
  }

  @Test(
    "outcomes: kept, share heard, the response toward the need (HRV for calm and focus, heart rate for energy and mood lift) and session quality"
  )
  func outcomes() throws {
    let log = try DecisionLogAssembler.assemble(Self.history()).decisions
    #expect(log.kept == [true, false, true, true, true])
    #expect(log.listenShare[0] == 0.5 && log.listenShare[1] == 0.05)
    #expect(log.listenShare[2].isNaN, "no duration, no share")
    #expect(log.listenShare[3] == 1 && log.listenShare[4] == 0.25)
    #expect(log.response == [6, 12, -5, 3, nil])
    #expect(log.sessionQuality == [0.8, nil, 0.4, 0.6, nil])
  }

  @Test("decisions left out are counted by why")
  func exclusions() throws {
    let assembled = try DecisionLogAssembler.assemble(Self.history())
    #expect(
      assembled.excluded == [
        .otherPolicy: 1, .chosenNotAdmitted: 1, .noOutcome: 1, .notReplayable: 1,
        .zeroPropensity: 1,
      ])
  }

  @Test("an empty history assembles to an empty, consistent log under the app's policy")
  func empty() throws {
    let assembled = try DecisionLogAssembler.assemble(DecisionHistory(records: [], followUps: []))
    #expect(assembled.decisions.count == 0)
    #expect(assembled.decisions.policy == UserPreferences.appDefault.policy)
    #expect(assembled.excluded.isEmpty)
    try assembled.decisions.checkConsistency()
  }
}
