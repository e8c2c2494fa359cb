import Foundation
import ResonanceModel
import Testing

@testable import ResonanceSynth

/// What `synth --cohort` plants in each member (docs/synth.md, "A cohort").
@Suite("synth: a cohort member's planted effects")
struct CohortTests {
  @Test(
    "members' effects are drawn from the population: the same seed and index give the same draw, 4,000 draws have its mean and spread"
  )
  func population() {
    #expect(CohortPopulation.draw(seed: 9, index: 3) == CohortPopulation.draw(seed: 9, index: 3))
    #expect(CohortPopulation.draw(seed: 9, index: 3) != CohortPopulation.draw(seed: 9, index: 4))
    let draws = (1...4_000).map { CohortPopulation.draw(seed: 11, index: $0) }
    let columns: [[Double]] = [
      draws.map(\.tempoHeartRatePer10BPM), draws.map(\.eveningMusicAsleepMinutes),
      draws.map(\.practiceNightSDNNMs),
    ]
    for (values, effect) in zip(columns, CohortPopulation.effects) {
      let mean = values.reduce(0, +) / Double(values.count)
      let sd = (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1))
        .squareRoot()
      // Four standard errors of the mean, and of the SD (τ / √(2n)).
      #expect(abs(mean - effect.mu) < 4 * effect.tau / 63.2, "\(effect.name) mean \(mean)")
      #expect(abs(sd - effect.tau) < 4 * effect.tau / 89.4, "\(effect.name) sd \(sd)")
    }
  }

  @Test(
    "the planted tempo slope replaces the library's own: base effects have no trend on tempo, tempo terms exactly the planted one"
  )
  func tempo() {
    let lone = LibraryGenerator.songs(count: 400, seed: 4, effectScale: 1)
    #expect(lone.allSatisfy { $0.tempoEffectBPM == 0 })
    let songs = LibraryGenerator.songs(count: 400, seed: 4, effectScale: 1, tempoSlope: 1.7)
    func slope(_ y: [Double]) -> Double {
      let x = songs.map(\.features.bpm)
      let mx = x.reduce(0, +) / Double(x.count)
      let my = y.reduce(0, +) / Double(y.count)
      let sxy = zip(x, y).reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) }
      return sxy / x.reduce(0) { $0 + ($1 - mx) * ($1 - mx) }
    }
    #expect(abs(slope(songs.map(\.hrEffectBPM))) < 1e-12)
    #expect(abs(slope(songs.map(\.tempoEffectBPM)) * 10 - 1.7) < 1e-12)
    // Only the effects change: names, features and HRV effects are the lone person's draws.
    #expect(zip(songs, lone).allSatisfy { $0.title == $1.title && $0.features == $1.features })
  }

  /// One month of a member, with `asleep` minutes planted after evening music.
  static func member(asleep: Double) -> SynthHistory {
    var configuration = SynthConfiguration()
    configuration.songs = 80
    configuration.seed = 21
    configuration.planted = PlantedEffects(
      tempoHeartRatePer10BPM: 1, eveningMusicAsleepMinutes: asleep, practiceNightSDNNMs: 8)
    return LifeSimulator.run(configuration)
  }

  /// Minutes asleep (any stage but awake) in each night.
  static func asleepMinutes(_ history: SynthHistory) -> [Int] {
    history.nights.map { night in
      (history.minute(night.bedMs)..<history.minute(night.wakeMs)).filter {
        history.sleep[$0] != SleepStage.awake.rawValue
      }.count
    }
  }

  @Test(
    "after an evening with music a member falls asleep sooner by the planted minutes; other nights are as they were"
  )
  func eveningMusic() {
    let none = Self.member(asleep: 0)
    let planted = Self.member(asleep: 15)
    let before = Self.asleepMinutes(none)
    let after = Self.asleepMinutes(planted)
    #expect(before.count == after.count && before.count >= 28)
    var gained: [Int] = []
    for (i, night) in planted.nights.enumerated() {
      let hadMusic = Physiology.eveningMusic(planted, bedMs: night.bedMs)
      if hadMusic { gained.append(after[i] - before[i]) }
      // Each stage's length is rounded to the minute (and a shorter night may have a cycle
      // fewer), which moves a night by a few minutes; the planted 15 are the rest.
      #expect(
        abs(after[i] - before[i] - (hadMusic ? 15 : 0)) <= 6,
        "night \(i): \(before[i]) → \(after[i]), music \(hadMusic)")
    }
    #expect(gained.count >= 8 && gained.count < planted.nights.count)
    let mean = Double(gained.reduce(0, +)) / Double(gained.count)
    #expect(abs(mean - 15) < 1, "gained \(gained)")
    // A lone person has no latency: asleep from bed, as before cohorts.
    var lone = SynthConfiguration()
    lone.songs = 80
    lone.seed = 21
    let history = LifeSimulator.run(lone)
    let first = history.nights[0]
    #expect(history.sleep[history.minute(first.bedMs)] != SleepStage.awake.rawValue)
  }

  @Test("practice raises the night's SDNN by the member's planted value, and the truth says so")
  func practice() {
    let history = Self.member(asleep: 0)
    #expect(Practice.nightSDNNMs(history.configuration) == 8)
    #expect(Practice.nightSDNN(history) == 8)  // no --step: every practice night alike
    #expect(Practice.nightSDNNMs(SynthConfiguration()) == 5)
  }
}
