import ResonanceModel
import Testing

@testable import ResonanceBrain

@Suite("Song scorer, guard filters, transition blend")
struct DecisionTests {
  static let moment = DecisionMoment(
    need: .calm, context: .preSleep, nowMs: 1_700_000_000_000, localHour: 22.5, stress: 0.4,
    previous: nil, recentArtists: ["A"], maxPlayCount: 20)

  static func candidate(
    id: String? = "1", artist: String = "B", bpm: Double = 68, energy: Double = 0.2,
    valence: Double = 0.4, plays: Int = 10, learned: Double? = nil, last: Int64? = nil
  ) -> Candidate {
    Candidate(
      songID: id, artist: artist,
      features: SongFeatures(bpm: bpm, energy: energy, valence: valence),
      playCount: plays, learnedEffect: learned, lastPlayedAtMs: last)
  }

  @Test("a song that matches the need exactly scores full marks on tempo and energy")
  func perfectMatch() {
    let c = SongScorer.components(for: Self.candidate(), at: Self.moment)
    #expect(c.bpm == 1)
    #expect(c.energy == 1)
    #expect(c.familiarity == 0.5)
    #expect(c.historical == 0.5)
    // Pre-sleep asks for energy 0.15 and valence 0.4: 1 − (0.05 + 0) / 2.
    #expect(abs(c.context - 0.975) < 1e-12)
    #expect(c.recency == 0 && c.timeOfDay == 0)
  }

  @Test("tempo falls off as a Gaussian of 15 BPM; energy linearly")
  func falloff() {
    let c = SongScorer.components(for: Self.candidate(bpm: 83, energy: 0.7), at: Self.moment)
    #expect(abs(c.bpm - 0.606_530_659_712_633_4) < 1e-12)  // exp(−½)
    #expect(abs(c.energy - 0.5) < 1e-12)
  }

  @Test("familiarity is boosted by a quarter under high stress or a focus need")
  func familiarityBoost() {
    var stressed = Self.moment
    stressed.stress = 0.7
    let c = SongScorer.components(for: Self.candidate(plays: 8), at: stressed)
    #expect(abs(c.familiarity - 0.5) < 1e-12)  // 8/20 × 1.25
  }

  @Test("learned effects map from −1…1 to 0…1; the penalties decay and cap")
  func historyAndPenalties() {
    let hourAgo = Self.moment.nowMs - 60 * 60_000
    let c = SongScorer.components(
      for: Self.candidate(bpm: 110, learned: -0.6, last: hourAgo), at: Self.moment)
    #expect(abs(c.historical - 0.2) < 1e-12)
    #expect(abs(c.recency - 0.75) < 1e-12)  // 60 of 240 minutes gone
    #expect(abs(c.timeOfDay - 0.5) < 1e-12)  // 15 BPM over the night cap of 95
    #expect(SongScorer.timeOfDayPenalty(bpm: 150, localHour: 7) == 1)
    #expect(SongScorer.timeOfDayPenalty(bpm: 150, localHour: 12) == 0)
  }

  @Test("the base score adds matches and subtracts penalties with their weights")
  func baseScore() {
    let c = ScoringComponents(
      bpm: 1, energy: 0.5, familiarity: 0.2, historical: 0.5, context: 1, recency: 0.5, timeOfDay: 1
    )
    let score = SongScorer.baseScore(c, weights: .appDefault)
    #expect(abs(score - (0.25 + 0.125 + 0.03 + 0.1 + 0.15 - 0.15 - 0.2)) < 1e-12)
  }

  @Test("guard filters reject by id, recency, artist and the night cap")
  func guards() {
    let m = Self.moment
    #expect(GuardFilters.rejection(of: Self.candidate(id: nil), at: m) == .missingID)
    #expect(
      GuardFilters.rejection(of: Self.candidate(last: m.nowMs - 30 * 60_000), at: m)
        == .playedRecently)
    #expect(GuardFilters.rejection(of: Self.candidate(artist: "A"), at: m) == .sameArtist)
    #expect(GuardFilters.rejection(of: Self.candidate(bpm: 128), at: m) == .nightBPM)
    #expect(GuardFilters.rejection(of: Self.candidate(), at: m) == nil)
  }

  @Test("the transition blend is 70% base, 30% smoothness")
  func transition() {
    let a = SongFeatures(bpm: 100, energy: 0.5, valence: 0.5)
    let b = SongFeatures(bpm: 120, energy: 0.7, valence: 0.5)
    #expect(abs(TransitionController.smoothness(from: a, to: b) - 0.65) < 1e-12)
    #expect(abs(TransitionController.finalScore(base: 0.5, next: b, previous: a) - 0.545) < 1e-12)
    #expect(TransitionController.finalScore(base: 0.5, next: b, previous: nil) == 0.5)
  }

  @Test("selection policies give propensities that sum to one; ties go to the first")
  func policies() {
    let scores = [0.5, 0.7, 0.7, 0.1]
    #expect(SelectionPolicy.greedy.propensities(scores) == [0, 1, 0, 0])
    let soft = SelectionPolicy.softmax(temperature: 0.1).propensities(scores)
    #expect(abs(soft.reduce(0, +) - 1) < 1e-12)
    #expect(abs(soft[1] - soft[2]) < 1e-15 && soft[1] > soft[0])
    let greedyish = SelectionPolicy.epsilonGreedy(epsilon: 0.2).propensities(scores)
    #expect(abs(greedyish[1] - 0.85) < 1e-12 && abs(greedyish[0] - 0.05) < 1e-12)
  }

  @Test("the engine falls back to every candidate when the filters leave none")
  func fallback() {
    let scored = DecisionEngine.score(
      [Self.candidate(artist: "A")], at: Self.moment, weights: .appDefault, policy: .greedy)
    #expect(scored.count == 1 && scored[0].propensity == 1)
  }
}

@Suite("Learning calculators")
struct LearningTests {
  @Test("skip penalty: −0.3 early, −0.15 late, nothing after 30%; short unmarked listens count")
  func skipPenalty() {
    #expect(
      SkipPenaltyCalculator.penalty(listenFraction: 0.1, markedSkipped: true, reachedEnd: false)
        == -0.3)
    #expect(
      SkipPenaltyCalculator.penalty(listenFraction: 0.2, markedSkipped: true, reachedEnd: false)
        == -0.15)
    #expect(
      SkipPenaltyCalculator.penalty(listenFraction: 0.5, markedSkipped: true, reachedEnd: false)
        == 0)
    #expect(
      SkipPenaltyCalculator.penalty(listenFraction: 0.1, markedSkipped: false, reachedEnd: false)
        == -0.3)
    #expect(
      SkipPenaltyCalculator.penalty(listenFraction: 1, markedSkipped: false, reachedEnd: true) == 0)
  }

  @Test("response credit scales with confidence (0.7 → 1.0) and listen share")
  func responseCredit() {
    let none = ResponseCreditCalculator.credit(hrvDeltaMs: nil, hrDeltaBPM: nil, listenFraction: 1)
    #expect(none.confidence == 0.7 && none.calm == 0 && none.energy == 0)
    let full = ResponseCreditCalculator.credit(hrvDeltaMs: 5, hrDeltaBPM: -20, listenFraction: 0.5)
    #expect(full.confidence == 1)
    #expect(abs(full.calm - 0.25) < 1e-12)  // 5/10 × 1 × 0.5
    #expect(abs(full.energy + 0.5) < 1e-12)  // clamped −1 × 0.5
  }

  @Test("the EMA uses α = 0.4 for five plays, then 0.2")
  func ema() {
    var effect = LearnedSongEffect()
    let credit = ResponseCreditCalculator.Credit(calm: 1, energy: 0, confidence: 1)
    effect = SongEffectUpdater.updated(effect, credit: credit, skipPenalty: 0, listenFraction: 1)
    #expect(abs(effect.calm - 0.4) < 1e-12)
    for _ in 0..<4 {
      effect = SongEffectUpdater.updated(effect, credit: credit, skipPenalty: 0, listenFraction: 1)
    }
    let before = effect.calm
    effect = SongEffectUpdater.updated(effect, credit: credit, skipPenalty: 0, listenFraction: 1)
    #expect(abs(effect.calm - (before + 0.2 * (1 - before))) < 1e-12)
    #expect(effect.sampleCount == 6)
  }

  @Test("stress is the inverse ratio to 50 ms, and sets the need when high")
  func needRule() {
    #expect(NeedRule.stress(hrvMs: 50) == 0.5)
    #expect(NeedRule.stress(hrvMs: 20) == 1)
    #expect(NeedRule.stress(hrvMs: .nan) == 1)
    #expect(NeedRule.need(context: .workout, stress: 0.9) == .calm)
    #expect(NeedRule.need(context: .deepWork, stress: 0.5) == .focus)
  }
}
