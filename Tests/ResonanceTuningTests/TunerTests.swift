import Foundation
import ResonanceBrain
import ResonanceModel
import Testing

@testable import ResonanceTuning

/// A DJ's history made the way the app makes it: the decision engine scores each playlist
/// under the logging preferences, the softmax picks, and the outcome is planted by a rule the
/// test chooses, read off the chosen song's components.
enum TuningWorld {
  /// 2024-01-01T00:00 local at UTC−7 (07:00Z), ms.
  static let firstMidnightMs: Int64 = 1_704_092_400_000
  static let offsetSeconds: Int32 = -25_200
  static let dayMs: Int64 = 86_400_000
  /// January to May 2024.
  static let fiveMonths = 152
  /// January and February 2024.
  static let twoMonths = 60

  /// The app's weights, logged by a softmax warm enough that other weights have support.
  static let logging: UserPreferences = {
    var preferences = UserPreferences.appDefault
    preferences.policy = LoggingPolicy(kind: .softmax, temperature: 0.15, epsilon: 0)
    return preferences
  }()

  /// `days` days from 2024-01-01 with `perDay` decisions each, between 10:00 and 20:00 local
  /// (no tempo cap), of 5 … 7 made-up songs by artists not heard recently (the guard filters
  /// admit them all); contexts drawn from `contexts` (repeats weigh). A decision is kept with
  /// the chance `keepChance` gives its chosen song's components.
  static func history(
    days: Int, perDay: Int, seed: UInt64, preferences: UserPreferences = logging,
    contexts: [ActivityContext] = ActivityContext.allCases,
    keepChance: (ScoringComponents) -> Double,
    fromDay change: (day: Int, keepChance: (ScoringComponents) -> Double)? = nil
  ) -> DecisionHistory {
    var random = TestRandom(seed: seed)
    var records: [DecisionRecord] = []
    var followUps: [PlayFollowUp?] = []
    for day in 0..<days {
      let hours = (0..<perDay).map { _ in random.uniform(10, 20) }.sorted()
      for hour in hours {
        let n = records.count
        let nowMs = firstMidnightMs + Int64(day) * dayMs + Int64(hour * 3_600_000)
        let previous: SongFeatures? =
          random.chance(0.5)
          ? SongFeatures(
            bpm: random.uniform(60, 170), energy: random.uniform(), valence: random.uniform())
          : nil
        let moment = DecisionMoment(
          need: random.pick(Need.allCases), context: random.pick(contexts), nowMs: nowMs,
          localHour: hour, stress: random.uniform(), previous: previous, recentArtists: [],
          maxPlayCount: 40)
        let inputs = (0..<random.int(5...7)).map { i in
          CandidateInputs(
            artist: "artist \(i)",
            features: SongFeatures(
              bpm: random.uniform(60, 170), energy: random.uniform(), valence: random.uniform()),
            plays: random.int(0...40), learned: random.chance(0.6) ? random.uniform(-1, 1) : nil,
            lastPlayedMs: random.chance(0.3)
              ? nowMs - Int64(random.uniform(70, 400) * 60_000) : nil)
        }
        let songs = inputs.indices.map { "d\(n)-\($0)" }
        let scored = DecisionEngine.score(
          zip(songs, inputs).map { song, c in
            Candidate(
              songID: song, artist: c.artist, features: c.features, playCount: c.plays,
              learnedEffect: c.learned, lastPlayedAtMs: c.lastPlayedMs)
          }, at: moment, preferences: preferences, adjuster: AdjusterState())
        precondition(scored.count == inputs.count, "the guard filters admit every song")
        let candidates = scored.map { s in
          LoggedCandidate(
            song: songs[s.index], inputs: inputs[s.index], components: s.components,
            baseScore: s.baseScore, finalScore: s.finalScore, propensity: s.propensity)
        }
        let chosen = DecisionEngine.choose(scored, uniform: random.uniform())
        let components = scored[chosen].components
        let kept: Bool
        if let change, day >= change.day {
          kept = random.chance(change.keepChance(components))
        } else {
          kept = random.chance(keepChance(components))
        }
        let durationMs: Int64 = 200_000
        let share = kept ? random.uniform(0.6, 1) : random.uniform(0.02, 0.2)
        records.append(
          DecisionRecord(
            time: Timestamp(millisecondsSinceEpoch: nowMs, utcOffsetSeconds: offsetSeconds),
            decision: n, session: n / 4, need: moment.need.rawValue,
            context: moment.context.rawValue, chosen: candidates[chosen].song,
            outcome: DecisionOutcome(
              listenedMs: Int64(share * Double(durationMs)), durationMs: durationMs,
              skipped: !kept, completed: kept && share > 0.95),
            version: 2, preferences: n == 0 ? preferences : nil, localHour: hour,
            stress: moment.stress, maxPlayCount: 40, previous: previous, recentArtists: [],
            heartRate: 72, adjuster: AdjusterState(), candidates: candidates))
        followUps.append(
          random.chance(0.5) ? PlayFollowUp(sessionQuality: random.uniform()) : nil)
      }
    }
    return DecisionHistory(records: records, followUps: followUps)
  }

  /// Songs whose tempo matches the need are kept: 0.1 at no match, 0.9 at a perfect one.
  static func tempoMatters(_ c: ScoringComponents) -> Double { 0.1 + 0.8 * c.bpm }

  /// Outcomes that owe nothing to the songs.
  static func coinFlip(_: ScoringComponents) -> Double { 0.6 }

  /// Songs the logging weights score highly are kept, steeply: the person's taste is the
  /// DJ's own, so no other weights do better at its greediness, but a colder DJ would.
  static func scoreMatters(_ c: ScoringComponents) -> Double {
    let score = SongScorer.baseScore(c, weights: logging.weights)
    return 1 / (1 + exp(-12 * (score - 0.45)))
  }

  /// The small design the tests use.
  static var settings: TuningSettings {
    var settings = TuningSettings()
    settings.design = SweepDesign(kind: .sobol, points: 64)
    return settings
  }
}

@Suite("Tuner: choose on the earlier months, judge on the last")
struct TunerTests {
  static let planted = TuningWorld.history(
    days: TuningWorld.fiveMonths, perDay: 24, seed: 11, keepChance: TuningWorld.tempoMatters)

  @Test(
    "when tempo decides what is kept, tune recommends a change toward tempo, judged on the last month"
  )
  func plantedChange() throws {
    let history = Self.planted
    let report = try Tuner.tune(history, settings: TuningWorld.settings)
    #expect(report.recommendation == .change, "\(report.reason)")
    #expect(report.replay.replayed == history.records.count)
    #expect(report.replay.firstMismatch == nil)
    #expect(report.decisions == history.records.count)
    #expect(report.months == ["2024-01", "2024-02", "2024-03", "2024-04", "2024-05"])
    #expect(report.folds.map(\.month) == ["2024-02", "2024-03", "2024-04", "2024-05"])
    let forward = try #require(report.forwardGain)
    #expect(forward.lower > TuningWorld.settings.margin, "\(forward)")
    #expect(forward.lower <= forward.estimate && forward.estimate <= forward.upper)
    #expect(report.judgedDecisions == report.folds.map(\.decisions).reduce(0, +))
    // Pooled, the gain is the folds' gains weighted by their decisions (a month without a
    // choice keeps the preferences in force and gains nothing).
    let weighted = report.folds.map { Double($0.decisions) * ($0.gain ?? 0) }.reduce(0, +)
    #expect(abs(forward.estimate - weighted / Double(report.judgedDecisions ?? 0)) < 1e-12)
    let candidate = try #require(report.candidate)
    #expect(report.recommended == candidate)
    #expect(
      candidate.bpmWeight > TuningWorld.logging.bpmWeight,
      "the candidate's tempo weight \(candidate.bpmWeight)")
    #expect(candidate.policy == TuningWorld.logging.policy, "only the weights are tuned")
    let heldOut = try #require(report.heldOut)
    #expect(heldOut.month == "2024-05")
    #expect(heldOut.decisions == history.records.count * 31 / 152)
    #expect(heldOut.gain.lower > 0, "\(heldOut.gain)")
    #expect(
      heldOut.gain.lower <= heldOut.gain.estimate && heldOut.gain.estimate <= heldOut.gain.upper)
    #expect(heldOut.gain.level == 0.95)
    #expect(heldOut.effectiveSampleSize >= 200, "the default bar")
    #expect(abs(heldOut.chosenValue - heldOut.inForceValue - heldOut.gain.estimate) < 1e-12)
    #expect((heldOut.keepChangePer100 ?? 0) > 0, "kept songs per 100 rise")
    #expect(report.reason.contains("2024-05") && report.reason.contains("interval"))
    #expect((report.selectionGain ?? 0) > 0)
  }

  @Test(
    "when the DJ's own scores decide what is kept, the temperature judged apart finds more exploitation; the file takes it only with tuneTemperature, and then as one more test"
  )
  func temperatureApart() throws {
    let history = TuningWorld.history(
      days: TuningWorld.fiveMonths, perDay: 24, seed: 12, keepChance: TuningWorld.scoreMatters)
    let report = try Tuner.tune(history, settings: TuningWorld.settings)
    let t = try #require(report.temperature)
    #expect(t.inForce == 0.15 && t.factors == Tuner.temperatureFactors)
    #expect(t.folds.map(\.month) == report.folds.map(\.month))
    #expect(t.claimed, "\(t.reason)")
    #expect((t.candidateFactor ?? 1) < 1, "\(t.reason)")
    #expect(t.reason.contains("more exploitation"), "\(t.reason)")
    #expect(t.reason.contains("--tune-temperature"), "\(t.reason)")
    #expect(!t.applied && report.recommended.policy == TuningWorld.logging.policy)
    #expect(report.level == 0.95, "reported, not tested")
    var settings = TuningWorld.settings
    settings.tuneTemperature = true
    let tuned = try Tuner.tune(history, settings: settings)
    #expect(tuned.level == 1 - 0.05 / 2, "the temperature is a second test")
    let applied = try #require(tuned.temperature)
    if tuned.candidate == nil || tuned.reason.hasPrefix("the weights in force stay") {
      #expect(applied.applied, "\(applied.reason)")
      #expect(tuned.recommendation == .change)
      #expect(tuned.recommended.weights == TuningWorld.logging.weights)
      let factor = try #require(applied.candidateFactor)
      #expect(abs(tuned.recommended.policy.temperature - 0.15 * factor) < 1e-15)
      #expect(tuned.reason.contains("the temperature changes from 0.15 to"), "\(tuned.reason)")
    } else {
      #expect(!applied.applied && applied.reason.contains("the weights change"))
    }
    // Outcomes that owe nothing to the songs: no temperature is better either.
    let flat = try Tuner.tune(
      TuningWorld.history(
        days: TuningWorld.fiveMonths, perDay: 24, seed: 13, keepChance: TuningWorld.coinFlip),
      settings: settings)
    #expect(flat.temperature?.claimed == false, "\(flat.temperature?.reason ?? "")")
    #expect(flat.recommended.policy == TuningWorld.logging.policy)
  }

  @Test(
    "Switch-DR and DRos tune too: each fold's τ or λ is one of the grid's, chosen before the month, and the planted change is found",
    arguments: [Estimator.switchDR, .dros])
  func tunedEstimators(estimator: Estimator) throws {
    var settings = TuningWorld.settings
    settings.estimator = estimator
    let report = try Tuner.tune(Self.planted, settings: settings)
    #expect(report.estimator == estimator)
    #expect(report.recommendation == .change, "\(report.reason)")
    let grid = EstimatorSums.parameters(estimator)
    for fold in report.folds where fold.weights != nil {
      if let parameter = fold.estimatorParameter {
        #expect(grid.contains(parameter) && parameter.isFinite, "\(fold)")
      }
    }
    #expect(report.folds.contains { $0.weights != nil })
    // Stored and read back, the parameter stays.
    let decoded = try JSONDecoder().decode(
      [TuningFold].self, from: try JSONEncoder().encode(report.folds))
    #expect(decoded == report.folds)
  }

  @Test(
    "when tempo stops mattering in the last month, the pooled gain still clears the margin but the candidate's own gain there does not clear 0: keep, saying so"
  )
  func candidateMustClearZero() throws {
    // 2024-05-01 is day 121.
    let history = TuningWorld.history(
      days: TuningWorld.fiveMonths, perDay: 24, seed: 11, keepChance: TuningWorld.tempoMatters,
      fromDay: (121, TuningWorld.coinFlip))
    let report = try Tuner.tune(history, settings: TuningWorld.settings)
    #expect(report.clearsMargin == true, "\(String(describing: report.forwardGain))")
    #expect(report.clearsZero == false, "\(String(describing: report.heldOut?.gain))")
    #expect(report.recommendation == .keep)
    #expect(report.recommended == TuningWorld.logging)
    #expect(report.reason.contains("not clearly above 0"), "\(report.reason)")
    // The same world without the change in May: both clear, and it is a change.
    let planted = try Tuner.tune(Self.planted, settings: TuningWorld.settings)
    #expect(planted.clearsMargin == true && planted.clearsZero == true)
  }

  @Test(
    "when outcomes owe nothing to the songs, tune keeps the preferences on at least 9 of 10 seeds, saying why"
  )
  func nullKeep() throws {
    // Each seed's held-out interval has a 2.5% chance of lying above 0 by luck alone; a
    // change on more than one of ten would be a rule that claims too much.
    var kept = 0
    for seed: UInt64 in 21...30 {
      let history = TuningWorld.history(
        days: TuningWorld.fiveMonths, perDay: 24, seed: seed, keepChance: TuningWorld.coinFlip)
      let report = try Tuner.tune(history, settings: TuningWorld.settings)
      guard report.recommendation == .keep else { continue }
      kept += 1
      #expect(report.recommended == TuningWorld.logging)
      #expect(
        report.reason.contains("interval") || report.reason.contains("effective sample size")
          || report.reason.contains("enough support"), "\(report.reason)")
    }
    #expect(kept >= 9, "kept on \(kept) of 10")
  }

  @Test("a bar no design point can clear on the selection months keeps the preferences, saying so")
  func noSupport() throws {
    var settings = TuningWorld.settings
    settings.minimumESS = 5_000
    let report = try Tuner.tune(Self.planted, settings: settings)
    #expect(report.recommendation == .keep)
    #expect(
      report.reason
        == "no preferences in the design did clearly better than those in force on the "
        + "selection months (2024-01…2024-04): none has a gain whose lower 95% bound is above "
        + "+0.0100 with enough support")
    #expect(report.candidate == nil && report.heldOut == nil)
    #expect(report.folds.count == 4 && report.folds.allSatisfy { $0.gain == nil })
    #expect(report.forwardGain?.estimate == 0, "choosing nothing gains nothing")
  }

  @Test("a month's outcomes reach no choice judged before it: folds choose on the past alone")
  func foldsSeeOnlyThePast() throws {
    // The same history with April's outcomes turned over: the folds judged on February and
    // March chose on January and on January–February alone, reward models included, so they
    // must not move; April's and May's may.
    let history = Self.planted
    var turned = history
    for (i, record) in turned.records.enumerated()
    where CalendarMonth(record.time).description == "2024-04" {
      var outcome = try #require(record.outcome)
      outcome.skipped.toggle()
      outcome.completed = !outcome.skipped
      turned.records[i].outcome = outcome
    }
    let a = try Tuner.tune(history, settings: TuningWorld.settings)
    let b = try Tuner.tune(turned, settings: TuningWorld.settings)
    #expect(Array(a.folds.prefix(2)) == Array(b.folds.prefix(2)))
    #expect(a.folds[2].gain != b.folds[2].gain)
  }

  @Test("two months of decisions are too little history: keep, and nothing is held out")
  func twoMonths() throws {
    let history = TuningWorld.history(
      days: TuningWorld.twoMonths, perDay: 10, seed: 3, keepChance: TuningWorld.tempoMatters)
    let report = try Tuner.tune(history, settings: TuningWorld.settings)
    #expect(report.recommendation == .keep)
    #expect(report.reason.hasPrefix("too little history"), "\(report.reason)")
    #expect(report.reason.contains("2 months"))
    #expect(report.months == ["2024-01", "2024-02"])
    #expect(report.heldOut == nil && report.candidate == nil && report.folds.isEmpty)
    #expect(report.recommended == TuningWorld.logging)
    #expect(report.decisions == 600)
  }

  @Test("no decision log at all: keep the app's defaults, saying there is no log")
  func noLog() throws {
    let report = try Tuner.tune(
      DecisionHistory(records: [], followUps: []), settings: TuningWorld.settings)
    #expect(report.recommendation == .keep)
    #expect(report.reason.hasPrefix("no decision log"), "\(report.reason)")
    #expect(report.recommended == .appDefault)
    #expect(report.decisions == 0 && report.months.isEmpty && report.heldOut == nil)
    #expect(report.from == nil && report.to == nil)
  }

  @Test("the same history gives the same report, interval and all")
  func deterministic() throws {
    let history = TuningWorld.history(
      days: TuningWorld.fiveMonths, perDay: 12, seed: 5, keepChance: TuningWorld.tempoMatters)
    var settings = TuningWorld.settings
    settings.minimumESS = 50
    let first = try Tuner.tune(history, settings: settings)
    let second = try Tuner.tune(history, settings: settings)
    #expect(first == second)
    let heldOut = try #require(first.heldOut)
    #expect(heldOut.gain.lower.isFinite && heldOut.gain.upper > heldOut.gain.lower)
  }

  @Test(
    "by context: a context with fewer held-out decisions than the bar is not tried; every test, the general one too, is judged at 1 − 0.05/k"
  )
  func byContext() throws {
    // Relax and workout carry most decisions; the other five a handful each.
    let contexts: [ActivityContext] =
      Array(repeating: .relax, count: 12) + Array(repeating: .workout, count: 8)
      + [.deepWork, .commute, .preSleep, .wakeUp, .general]
    let history = TuningWorld.history(
      days: TuningWorld.fiveMonths, perDay: 24, seed: 11, contexts: contexts,
      keepChance: TuningWorld.tempoMatters)
    var settings = TuningWorld.settings
    settings.byContext = true
    settings.minimumESS = 100
    let report = try Tuner.tune(history, settings: settings)
    #expect(report.contexts.map(\.context) == ActivityContext.allCases)
    let tried = report.contexts.filter { $0.heldOutDecisions >= 100 }
    #expect(Set(tried.map(\.context)) == [.relax, .workout])
    for c in report.contexts where c.heldOutDecisions < 100 {
      #expect(c.reason.hasSuffix("not tried"), "\(c.context): \(c.reason)")
      #expect(c.reason.hasPrefix("\(c.heldOutDecisions) decisions in 2024-05"))
      #expect(!c.claimed && c.gain == nil && c.weights == nil)
    }
    #expect(report.contexts.map(\.heldOutDecisions).reduce(0, +) == report.heldOut?.decisions)
    for c in tried {
      let gain = try #require(c.gain, "\(c.context): \(c.reason)")
      // Two contexts tried and the general test: three tests.
      #expect(gain.level == 1 - 0.05 / 3, "\(c.context)")
      if c.reason.contains("interval") {
        #expect(c.reason.contains("98.33%"), "\(c.context): \(c.reason)")
      }
      #expect(
        c.claimed == (gain.lower > settings.margin && (c.effectiveSampleSize ?? 0) >= 100),
        "\(c.context): \(c.reason)")
      if c.claimed {
        // The reason gives the interval and the bar it cleared.
        #expect(
          c.reason.contains("\(Tuner.signed(gain.lower)) … \(Tuner.signed(gain.upper))")
            && c.reason.hasSuffix("above \(Tuner.margin(settings.margin))"),
          "\(c.context): \(c.reason)")
      }
    }
    #expect(report.contexts.contains { $0.claimed }, "tempo matters in every context")
    #expect(report.level == 1 - 0.05 / 3 && report.forwardGain?.level == 1 - 0.05 / 3)
  }
}

@Suite("Tuner's interval from day batches, and quantiles")
struct TunerBootstrapTests {
  /// A DR estimate whose per-decision terms are `values`: its value is their mean.
  static func estimate(_ values: [Double]) -> PolicyEstimate {
    PolicyEstimate(
      estimator: .dr, reward: .keep, clipping: nil,
      value: values.isEmpty ? nil : values.reduce(0, +) / Double(values.count),
      decisions: Array(values.indices), form: EstimatorForm(.dr),
      terms: (0..<EstimatorSums.baseStride).map { slot in
        slot == EstimatorSums.doublyRobust
          ? values
          : Array(repeating: slot == EstimatorSums.measured ? 1 : 0, count: values.count)
      },
      weights: Array(repeating: 1, count: values.count),
      diagnostics: EstimateDiagnostics(
        decisions: values.count, leftOut: 0, effectiveSampleSize: Double(values.count),
        largestWeight: 1, clippedDecisions: 0, agreementShare: 1, clippingTable: []))
  }

  static func days(_ counts: [Int]) -> [CalendarDay] {
    counts.enumerated().flatMap { day, count in
      Array(repeating: CalendarDay(daysSinceEpoch: 19_700 + Int64(day)), count: count)
    }
  }

  @Test("when every day gains the same, the interval has no width")
  func constantGain() {
    // Ten days of eight decisions; within a day the gains differ, but each day's sum is 2.
    let a = (0..<80).map { i in [0.75, 0.5, 1, 0.25][i % 4] }
    let b = (0..<80).map { i in [0.25, 0.5, 0.5, 0][i % 4] }
    let interval = Tuner.interval(
      Self.estimate(a), Self.estimate(b), days: Self.days(Array(repeating: 8, count: 10)),
      level: 0.95)
    #expect(interval.estimate == 0.3125)
    #expect(interval.lower == 0.3125 && interval.upper == 0.3125)
    #expect(interval.level == 0.95)
  }

  @Test(
    "two days are two batches and one degree of freedom: the interval is t(1) standard errors wide"
  )
  func twoDays() {
    // Day one gains 0, day two gains 1 (50 decisions each): the estimate is 0.5; the days'
    // contributions are ∓0.25, so the standard error is √(2 · 2 · 0.25²) = 0.5, and the 95%
    // interval is 0.5 ± 12.706 · 0.5.
    let a = Array(repeating: 0.5, count: 50) + Array(repeating: 1.0, count: 50)
    let b = Array(repeating: 0.5, count: 50) + Array(repeating: 0.0, count: 50)
    let interval = Tuner.interval(
      Self.estimate(a), Self.estimate(b), days: Self.days([50, 50]), level: 0.95)
    #expect(interval.estimate == 0.5)
    #expect(abs(interval.upper - (0.5 + 12.706_204_736 * 0.5)) < 1e-8)
    #expect(abs(interval.lower - (0.5 - 12.706_204_736 * 0.5)) < 1e-8)
  }

  @Test("a month of daily gains: estimate ± t(27) times the days' spread, worked by hand")
  func aMonthOfDays() {
    // 28 days from 2024-01-01 (day 19,723), one decision a day gaining 1 in the first week,
    // 0 in the second, 2 in the third, 1 in the fourth: estimate 1; the days' contributions
    // (gain − 1)/28 are 0, −1/28, 1/28 and 0 a week at a time, so
    // se = √(28/27 · 14 · (1/28)²) = √(1/54), on 27 degrees of freedom.
    let gains = (0..<28).map { [1.0, 0, 2, 1][$0 / 7] }
    let days = (0..<28).map { CalendarDay(daysSinceEpoch: 19_723 + Int64($0)) }
    let interval = Tuner.interval(
      Self.estimate(gains), Self.estimate(Array(repeating: 0, count: 28)), days: days,
      level: 0.9)
    let se = (1.0 / 54).squareRoot()
    #expect(interval.estimate == 1)
    #expect(abs(interval.upper - (1 + 1.703_288_446 * se)) < 1e-8)
    #expect(abs(interval.lower - (1 - 1.703_288_446 * se)) < 1e-8)
  }

  @Test("a single day gives no interval, only the estimate")
  func oneDay() {
    let interval = Tuner.interval(
      Self.estimate([1, 0, 1]), Self.estimate([0, 0, 0]), days: Self.days([3]), level: 0.95)
    #expect(abs(interval.estimate - 2.0 / 3) < 1e-15)
    #expect(interval.lower.isNaN && interval.upper.isNaN)
  }

  @Test(
    "quantiles interpolate linearly between order statistics",
    arguments: [
      ([1.0, 2, 3, 4], 0.5, 2.5), ([0.0, 10], 0.25, 2.5), ([0.0, 10], 0, 0), ([0.0, 10], 1, 10),
      ([1.0, 2, 3, 4, 5], 0.25, 2), ([1.0, 2, 3, 4, 5], 0.1, 1.4), ([7.0], 0.3, 7),
      ([0.0, 1, 1, 1], 0.025, 0.075),
    ])
  func quantile(sorted: [Double], q: Double, expected: Double) {
    #expect(abs(Statistics.quantile(sorted, q) - expected) < 1e-12)
  }

  @Test("the quantile of nothing is not a number")
  func emptyQuantile() {
    #expect(Statistics.quantile([], 0.5).isNaN)
  }
}
