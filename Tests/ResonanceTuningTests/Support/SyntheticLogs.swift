import ResonanceBrain
import ResonanceModel
import ResonanceTuning

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Decision logs for the tests: one built by the Brain's own decision engine on made-up
/// candidates and moments, and one with random components and a known reward model.
enum SyntheticLogs {
  /// 2024-01-01T12:00:00Z (05:00 at UTC−7, the offset the logs are lived in), ms.
  static let start: Int64 = 1_704_110_400_000
  static let dayMs: Int64 = 86_400_000

  /// A log of `count` decisions made by `DecisionEngine.score` under `preferences` and
  /// `policy`, spread evenly over `days` days; each decision has 4 … 8 made-up candidates, and
  /// a random familiarity boost (1, 1.25 or 1.5) multiplies the familiarity weight as the
  /// real-time adjuster would. Outcomes are random.
  static func engineLog(
    count: Int, preferences: UserPreferences, policy: LoggingPolicy, days: Int = 90,
    seed: UInt64
  ) -> LoggedDecisions {
    var random = TestRandom(seed: seed)
    var log = LoggedDecisions(policy: policy)
    let artists = (0..<12).map { "artist \($0)" }
    for d in 0..<count {
      let nowMs = start + Int64(d) * Int64(days) * dayMs / Int64(count)
      let previous: SongFeatures? =
        random.chance(0.7)
        ? SongFeatures(
          bpm: random.uniform(60, 170), energy: random.uniform(), valence: random.uniform())
        : nil
      let moment = DecisionMoment(
        need: random.pick(Need.allCases), context: random.pick(ActivityContext.allCases),
        nowMs: nowMs, localHour: random.uniform(0, 24), stress: random.uniform(),
        previous: previous, recentArtists: (0..<3).map { _ in random.pick(artists) },
        maxPlayCount: 40)
      let candidates = (0..<random.int(4...8)).map { i in
        Candidate(
          songID: "song-\(d)-\(i)", artist: random.pick(artists),
          features: SongFeatures(
            bpm: random.uniform(60, 170), energy: random.uniform(), valence: random.uniform()),
          playCount: random.int(0...40),
          learnedEffect: random.chance(0.6) ? random.uniform(-1, 1) : nil,
          lastPlayedAtMs: random.chance(0.4)
            ? nowMs - Int64(random.uniform(0, 600) * 60_000) : nil)
      }
      let boost = random.pick([1.0, 1.0, 1.25, 1.5])
      var weights = preferences.weights
      weights.familiarity *= boost
      let scored = DecisionEngine.score(
        candidates, at: moment, weights: weights, policy: SelectionPolicy(policy))
      let chosen = DecisionEngine.choose(scored, uniform: random.uniform())
      for candidate in scored {
        log.components += candidate.components.vector
        log.smoothness.append(
          previous.map {
            TransitionController.smoothness(from: $0, to: candidates[candidate.index].features)
          } ?? 0)
        log.propensity.append(candidate.propensity)
      }
      log.rowStart.append(log.propensity.count)
      log.blends.append(previous != nil)
      log.familiarityBoost.append(boost)
      log.chosen.append(chosen)
      log.time.append(Timestamp(millisecondsSinceEpoch: nowMs, utcOffsetSeconds: -25_200))
      log.context.append(moment.context)
      log.need.append(moment.need)
      let kept = random.chance(0.6)
      log.kept.append(kept)
      log.listenShare.append(kept ? random.uniform(0.6, 1) : random.uniform(0, 0.3))
      log.response.append(random.chance(0.3) ? random.uniform(-15, 15) : nil)
      log.sessionQuality.append(random.chance(0.8) ? random.uniform() : nil)
    }
    return log
  }

  /// The chance that a candidate row with components `c` is kept, in the synthetic world:
  /// high only when tempo and energy both match well, an interaction a linear reward model
  /// cannot represent.
  static func keepChance(_ c: ArraySlice<Double>) -> Double {
    let bpm = c[c.startIndex]
    let energy = c[c.startIndex + 1]
    let historical = c[c.startIndex + 3]
    return 0.1 + 0.8 * (bpm > 0.6 && energy > 0.6 ? 1 : 0) * historical * historical
  }

  /// A log whose rows have random components, logged by softmax at `temperature` under
  /// `preferences`, with kept drawn from `keepChance`; also the keep chance of every row, so
  /// the true value of any target can be computed exactly.
  static func knownRewardLog(
    count: Int, candidates: Int = 5, preferences: UserPreferences, temperature: Double,
    days: Int = 90, seed: UInt64
  ) -> (log: LoggedDecisions, keepChance: [Double]) {
    var random = TestRandom(seed: seed)
    var log = LoggedDecisions(
      policy: LoggingPolicy(kind: .softmax, temperature: temperature, epsilon: 0))
    for d in 0..<count {
      for _ in 0..<candidates {
        log.components += (0..<7).map { k in k >= 5 ? random.uniform() * 0.5 : random.uniform() }
        log.smoothness.append(random.uniform())
        log.propensity.append(0)
      }
      log.rowStart.append(log.propensity.count)
      log.blends.append(random.chance(0.7))
      log.familiarityBoost.append(1)
      log.chosen.append(0)
      log.time.append(
        Timestamp(millisecondsSinceEpoch: start + Int64(d) * Int64(days) * dayMs / Int64(count)))
      log.context.append(random.pick(ActivityContext.allCases))
      log.need.append(random.pick(Need.allCases))
      log.kept.append(false)
      log.listenShare.append(0)
      log.response.append(nil)
      log.sessionQuality.append(nil)
    }
    log.propensity = TargetPolicy.probabilities(log, preferences)
    let chance = (0..<log.rows).map { keepChance(log.components[(7 * $0)..<(7 * $0 + 7)]) }
    for d in 0..<log.count {
      let rows = log.rows(of: d)
      var u = random.uniform()
      var pick = rows.count - 1
      for (i, r) in rows.enumerated() {
        u -= log.propensity[r]
        if u < 0 {
          pick = i
          break
        }
      }
      log.chosen[d] = pick
      log.kept[d] = random.chance(chance[rows.lowerBound + pick])
      log.listenShare[d] = log.kept[d] ? 1 : 0.1
    }
    return (log, chance)
  }

  /// The exact mean keep chance per decision of a target with probabilities `target`.
  static func trueValue(_ log: LoggedDecisions, target: [Double], keepChance: [Double]) -> Double {
    var total = 0.0
    for d in 0..<log.count {
      for r in log.rows(of: d) { total += target[r] * keepChance[r] }
    }
    return total / Double(log.count)
  }
}
