import Foundation
import ResonanceBrain
import ResonanceIO
import ResonanceModel
import Testing

@testable import ResonanceSynth

/// `--person` and `--taste-contrast`: a taste drawn per seed, the kinds' traits, and the
/// expectations `decisions-truth.jsonl.gz` holds.
@Suite("synth: person kinds and the one-step truth")
struct PersonKindTests {
  /// Euclidean distance of a person's weights from the app's.
  static func distance(_ weights: ScoringWeights) -> Double {
    zip(weights.vector, ScoringWeights.appDefault.vector).map { ($0 - $1) * ($0 - $1) }
      .reduce(0, +).squareRoot()
  }

  @Test("a null person's weights are the app's; an app-model person's are drawn per seed")
  func tastePerSeed() {
    #expect(SynthPerson.make(seed: 1, kind: .null).preferences == .appDefault)
    #expect(SynthPerson.make(seed: 1, kind: .null).traits == PersonTraits())
    let drawn = (1...5).map { SynthPerson.make(seed: UInt64($0), kind: .appModel).preferences }
    #expect(Set(drawn.map(\.vector)).count == 5, "five seeds, five tastes")
    #expect(drawn.allSatisfy { $0 != .appDefault })
    #expect(drawn.allSatisfy { $0.vector.allSatisfy { (0...1).contains($0) } })
  }

  @Test("--taste-contrast scales how far the taste lies from the app's: 0 is the app's")
  func contrast() {
    #expect(SynthPerson.make(seed: 4, kind: .appModel, tasteContrast: 0).preferences == .appDefault)
    let seeds = (1...20).map(UInt64.init)
    func mean(_ contrast: Double) -> Double {
      seeds.map {
        Self.distance(
          SynthPerson.make(seed: $0, kind: .appModel, tasteContrast: contrast).preferences)
      }.reduce(0, +) / Double(seeds.count)
    }
    let (one, three) = (mean(1), mean(3))
    // 0.12 · √7 ≈ 0.32 expected at contrast 1, before clamping to 0 … 1.
    #expect(one > 0.2 && one < 0.4, "\(one)")
    #expect(three > 2.2 * one, "contrast 3: \(three) against \(one) (clamping takes some)")
  }

  @Test("each kind carries its own traits; mixed persons draw different mixes")
  func traits() {
    let satiation = SynthPerson.make(seed: 2, kind: .satiation).traits
    #expect(satiation.satiation > 0 && satiation.artistAffinitySpread == 0)
    let drift = SynthPerson.make(seed: 2, kind: .drift).traits
    #expect(drift.driftPerMonth.vector.contains { $0 != 0 } && drift.satiation == 0)
    let hidden = SynthPerson.make(seed: 2, kind: .hiddenFeature).traits
    #expect(hidden.latentTraitWeight > 0 && hidden.artistAffinitySpread > 0)
    #expect(SynthPerson.make(seed: 2, kind: .flat).traits.isFlat)
    let mixes = Set(
      (1...16).map { seed -> [Bool] in
        let t = SynthPerson.make(seed: UInt64(seed), kind: .mixed).traits
        return [
          t.satiation > 0, t.driftPerMonth.vector.contains { $0 != 0 }, t.latentTraitWeight > 0,
        ]
      })
    #expect(mixes.count >= 4, "16 seeds draw at least four of the eight mixes: \(mixes)")
  }

  @Test("E[min(U(a, b), cap)] and the lag's mean, against hand computation")
  func expectations() {
    func hr(_ ms: Double) -> Double { OutcomeExpectation.lagMean(listenedMs: ms, usesHRV: false) }
    #expect(OutcomeExpectation.meanOfMin(uniform: (0, 10), cap: 20) == 5)
    #expect(OutcomeExpectation.meanOfMin(uniform: (0, 10), cap: -1) == -1)
    // cap 5 on U(0, 10): half the mass below (mean 2.5), half at 5: 3.75.
    #expect(abs(OutcomeExpectation.meanOfMin(uniform: (0, 10), cap: 5) - 3.75) < 1e-12)
    // Heart rate over 3 minutes of a 1.5-minute lag: 1 − (1.5/3)(1 − e^−2).
    #expect(abs(hr(180_000) - (1 - 0.5 * (1 - exp(-2)))) < 1e-12)
    // A complete, kept 200 s song with time to spare: the share all but the scrubs' loss.
    let kept = OutcomeExpectation.truth(
      skip: 0, durationMs: 200_000, remainingMs: 10_000_000, effect: 4, usesHRV: false,
      isFlat: false)
    #expect(abs(kept.share - (1 - OutcomeExpectation.scrubLoss)) < 1e-12)
    #expect(abs(kept.response - (0.5 + 4 * hr(200_000) / 20)) < 1e-12)
    // With 100 s of the session left, a kept song is heard for half.
    let cut = OutcomeExpectation.truth(
      skip: 0, durationMs: 200_000, remainingMs: 100_000, effect: 0, usesHRV: false,
      isFlat: false)
    #expect(abs(cut.share - 0.5) < 1e-12 && cut.response == 0.5)
  }

  @Test("a flat person's candidates all have the same truth, whatever their length")
  func flatTruth() {
    let short = OutcomeExpectation.truth(
      skip: 0.42, durationMs: 120_000, remainingMs: 60_000, effect: 0, usesHRV: true,
      isFlat: true)
    let long = OutcomeExpectation.truth(
      skip: 0.42, durationMs: 400_000, remainingMs: 60_000, effect: 0, usesHRV: true,
      isFlat: true)
    #expect(abs(short.share - long.share) < 1e-12 && short.response == long.response)
  }

  @Test(
    "decisions-truth.jsonl.gz: one line per logged decision, its songs the log's, the expectations the simulation's"
  )
  func truthFile() throws {
    var configuration = SynthFolder.small
    configuration.person = .flat
    let folder = try SynthFolder(configuration)
    let truth = try DecisionTruthFile.read(path: folder.path + "/decisions-truth.jsonl.gz")
    let decisions = folder.history.decisions
    #expect(truth.count == decisions.count && !decisions.isEmpty)
    for decision in decisions {
      let line = try #require(truth[decision.id])
      #expect(line.timeMs == decision.moment.nowMs)
      #expect(
        line.songs
          == decision.scored.map {
            folder.history.songs[decision.candidateSongs[$0.index]].catalogID
          })
      // Flat: every candidate the same, the DJ's skip chance the target share.
      #expect(line.candidates.allSatisfy { abs($0.skip - 0.42) < 1e-9 })
      #expect(Set(line.candidates.map(\.share)).count == 1)
      #expect(line.candidates.allSatisfy { $0.response == 0.5 })
    }
    let dj = folder.history.plays.filter(\.byDJ)
    let share = Double(dj.filter(\.isSkipped).count) / Double(dj.count)
    #expect(abs(share - 0.42) < 0.06, "a flat person skips the target share: \(share)")
  }

  @Test("a file that is not a decisions truth is refused at its line")
  func badTruthFile() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("bad-truth-\(UUID().uuidString).jsonl.gz").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let out = try GzipWriter(path: path)
    try out.write(
      "{\"format\":\"resonance.decisions-truth\",\"version\":1}\n{\"decision\":0,\"time_ms\":1,\"songs\":[\"a\"],\"skip\":[0.5],\"share\":[]}\n"
    )
    try out.close()
    #expect {
      _ = try DecisionTruthFile.read(path: path)
    } throws: { error in
      "\(error)".hasPrefix(path + ":2:1: expected decision, time_ms")
    }
  }
}
