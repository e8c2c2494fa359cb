import ResonanceModel
import Testing

@testable import ResonanceTuning

/// A world where the response goes missing for the choices a person skips: two candidates a
/// decision, A kept 80% of the time and B 30%; a kept play is heard to its end, a skipped one
/// for 2% of it; the response score is 0.7 after a kept play and 0.5 after a skip (plus
/// noise), and a skip's response is missing 90% of the time (a kept play's never). So a target
/// that skips less also has its responses measured more often.
private struct SkippedResponseWorld {
  static let keepChance = [0.8, 0.3]
  static let keptScore = 0.7
  static let skippedScore = 0.5
  static let skippedMissing = 0.9

  /// The true composite of always choosing candidate `a`.
  static func composite(always a: Int) -> Double {
    let k = keepChance[a]
    return Reward.keepWeight * k + Reward.listenShareWeight * (k + (1 - k) * 0.02)
      + Reward.responseWeight * (k * keptScore + (1 - k) * skippedScore)
  }

  /// A log of `count` decisions over four months, each choosing A or B with chance ½.
  static func log(count: Int, seed: UInt64) -> LoggedDecisions {
    var random = TestRandom(seed: seed)
    var log = LoggedDecisions(
      policy: LoggingPolicy(kind: .softmax, temperature: 0.05, epsilon: 0))
    for d in 0..<count {
      for a in 0..<2 {
        log.components += a == 0 ? [1, 0, 0, 0, 0, 0, 0] : [0, 0, 0, 0, 0, 0, 0]
        log.smoothness.append(0)
        log.propensity.append(0.5)
      }
      log.rowStart.append(log.propensity.count)
      log.blends.append(false)
      log.familiarityBoost.append(1)
      let a = random.chance(0.5) ? 0 : 1
      log.chosen.append(a)
      log.time.append(
        Timestamp(
          millisecondsSinceEpoch: SyntheticLogs.start + Int64(d) * 120 * SyntheticLogs.dayMs
            / Int64(count), utcOffsetSeconds: -25_200))
      log.context.append(random.pick(ActivityContext.allCases))
      log.need.append(.energy)
      let kept = random.chance(keepChance[a])
      log.kept.append(kept)
      log.listenShare.append(kept ? 1 : 0.02)
      let score = (kept ? keptScore : skippedScore) + random.uniform(-0.1, 0.1)
      let missing = !kept && random.chance(skippedMissing)
      // Stored as the response Δ whose score is `score`: clamp(0.5 + Δ / 20, 0, 1).
      log.response.append(missing ? nil : (score - 0.5) * 20)
      log.sessionQuality.append(nil)
    }
    return log
  }

  /// The estimated gain of always A over always B.
  static func gain(_ log: LoggedDecisions, estimator: Estimator) throws -> Double {
    let evaluator = try OffPolicyEvaluator(log, reward: .composite)
    func always(_ a: Int) -> TargetProbabilities {
      TargetProbabilities(
        probabilities: (0..<log.rows).map { $0 % 2 == a ? 1 : 0 },
        likeliest: .init(repeating: a, count: log.count))
    }
    let valueA = try #require(evaluator.estimate(always(0), estimator: estimator).value)
    let valueB = try #require(evaluator.estimate(always(1), estimator: estimator).value)
    return valueA - valueB
  }
}

@Suite("Missing responses: modelled, not dropped")
struct MissingResponseTests {
  @Test(
    "where skips lose their response, renormalising biases a gain and the model removes it",
    arguments: [Estimator.ips, .dr])
  func unbiased(estimator: Estimator) throws {
    let truth =
      SkippedResponseWorld.composite(always: 0) - SkippedResponseWorld.composite(always: 1)
    var log = SkippedResponseWorld.log(count: 20_000, seed: 41)
    // Renormalised (no model): a skip without its response counts as a near-0 composite
    // instead of one with a 0.5 response score, and B skips far more: the gain comes out
    // about 0.06 too high.
    let renormalised = try SkippedResponseWorld.gain(log, estimator: estimator)
    #expect(renormalised - truth > 0.04)
    log.responseReward = try MissingResponses.fill(log)
    #expect(log.responseReward.count == log.count)
    let modelled = try SkippedResponseWorld.gain(log, estimator: estimator)
    #expect(abs(modelled - truth) < 0.01, "modelled \(modelled), truth \(truth)")
  }

  @Test("a missing response is the model's prediction; a measured one is reweighted by 1/p̂")
  func values() throws {
    let log = SkippedResponseWorld.log(count: 8_000, seed: 7)
    let filled = try MissingResponses.fill(log)
    let missing = (0..<log.count).filter { log.response[$0] == nil }
    #expect(!missing.isEmpty)
    // A missing response (all after skips) is filled near the skipped score.
    let meanMissing = missing.reduce(0.0) { $0 + filled[$1]! } / Double(missing.count)
    #expect(abs(meanMissing - SkippedResponseWorld.skippedScore) < 0.02)
    // A measured response after a skip stands for about ten (p̂ ≈ 0.1, the floor), so its
    // value moves away from the prediction by up to ten times its residual; a kept play's is
    // measured with p̂ near 1 and stays near its own score.
    let kept = (0..<log.count).filter { log.kept[$0] && log.response[$0] != nil }
    let score = { (d: Int) in Reward.responseScore(log.response[d]!) }
    let keptMove = kept.map { abs(filled[$0]! - score($0)) }.max() ?? 0
    #expect(keptMove < 0.05)
  }

  @Test("a log whose responses were all measured keeps its scores (nothing to fill)")
  func complete() throws {
    var log = SkippedResponseWorld.log(count: 500, seed: 3)
    for d in 0..<log.count where log.response[d] == nil { log.response[d] = 0 }
    #expect(try MissingResponses.fill(log).isEmpty)
  }

  @Test("months with nothing measured before them keep their gaps; the first is fitted on itself")
  func forwardFitting() throws {
    var log = SkippedResponseWorld.log(count: 4_000, seed: 5)
    // No response at all in the first month: the model has nothing to fit there.
    let first = CalendarMonth(log.time[0])
    for d in 0..<log.count where CalendarMonth(log.time[d]) == first { log.response[d] = nil }
    let filled = try MissingResponses.fill(log)
    for d in 0..<log.count where CalendarMonth(log.time[d]) == first { #expect(filled[d] == nil) }
    // The second month is predicted from the first, which measured nothing: gaps stay gaps.
    let second = (0..<log.count).first { CalendarMonth(log.time[$0]) > first }!
    let month = CalendarMonth(log.time[second])
    let gaps = (0..<log.count).filter {
      CalendarMonth(log.time[$0]) == month && log.response[$0] == nil
    }
    #expect(!gaps.isEmpty && gaps.allSatisfy { filled[$0] == nil })
    // A later month is modelled from the months before it.
    let last = CalendarMonth(log.time[log.count - 1])
    let lastGaps = (0..<log.count).filter {
      CalendarMonth(log.time[$0]) == last && log.response[$0] == nil
    }
    #expect(!lastGaps.isEmpty && lastGaps.allSatisfy { filled[$0] != nil })
  }
}
