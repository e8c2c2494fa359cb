import ResonanceModel

extension QualityComponent {
  /// The seed's weight: skip rate 0.25, HRV response 0.30, engagement 0.25, next-night sleep
  /// 0.20 (they sum to 1).
  package var weight: Double {
    switch self {
    case .skip: 0.25
    case .hrv: 0.30
    case .engagement: 0.25
    case .sleep: 0.20
    }
  }
}

extension SessionQuality {
  /// The quality of the measured component values and the predicted ones: their weighted mean,
  /// the weights renormalised over those present; no score when none is.
  package init(
    values: [QualityComponent: Double], predicted: [QualityComponent: Double] = [:]
  ) {
    // Summed in the seed's order, not the dictionary's (which changes from run to run), so
    // the same session scores the same to the last bit.
    let all = values.merging(predicted) { measured, _ in measured }
    let present = QualityComponent.allCases.filter { all[$0] != nil }
    let total = present.reduce(0) { $0 + $1.weight }
    self.init(
      score: present.isEmpty ? nil : present.reduce(0) { $0 + $1.weight * all[$1]! } / total,
      values: values, predicted: predicted)
  }

  /// A component's share of the score after renormalising (0 when it is neither measured nor
  /// predicted).
  package func weight(of component: QualityComponent) -> Double {
    guard values[component] != nil || predicted[component] != nil else { return 0 }
    let present = QualityComponent.allCases.filter { values[$0] != nil || predicted[$0] != nil }
    return component.weight / present.reduce(0) { $0 + $1.weight }
  }
}

/// The person's typical night: medians over their nights, what a night's sleep score is
/// measured against.
package struct SleepBaseline: Sendable, Equatable {
  /// Median efficiency over nights that have one.
  package var efficiency: Double?
  /// Median deep + REM share over nights with stages.
  package var restorativeShare: Double?

  package init(efficiency: Double?, restorativeShare: Double?) {
    self.efficiency = efficiency
    self.restorativeShare = restorativeShare
  }

  /// The medians over every night given.
  ///
  /// - Complexity: O(n log n) for n nights.
  package init(nights: [NightSleep]) {
    efficiency = Statistics.median(nights.compactMap(\.efficiency))
    restorativeShare = Statistics.median(nights.compactMap(\.restorativeShare))
  }
}

/// `SessionQualityScorer` (the seed's `Learning/`): the composite of skip rate, HRV response,
/// engagement and next-night sleep.
///
/// Components, each 0…1 (`docs/brain.md`, "Sleep and session quality"):
/// - skip: 1 − skip rate;
/// - HRV: 0.5 + ΔSDNN / 20 ms, clamped (+10 ms → 1, −10 ms → 0; the calm credit's scale);
/// - engagement: the session's mean share of each song heard;
/// - sleep: the next night against the person's own medians (`sleepScore(_:baseline:)`).
/// A missing or non-finite component is left out and the others' weights renormalised.
package enum SessionQualityScorer {
  /// ΔSDNN that moves the HRV component from 0.5 to 1 (or 0): 10 ms.
  package static let hrvFullScaleMs = 10.0
  /// Distance from the person's median that moves a sleep part from 0.5 to 1 (or 0): 0.10.
  package static let sleepFullScale = 0.10

  /// The HRV component for a session's change in SDNN (ms): clamp(0.5 + Δ / 20, 0, 1).
  package static func hrvComponent(deltaMs: Double) -> Double {
    clamp(0.5 + deltaMs / (2 * hrvFullScaleMs))
  }

  /// A night's sleep score, 0…1, against the person's medians: the mean of an efficiency part
  /// and a deep + REM part, each clamp(0.5 + (night − median) / 0.20, 0, 1), so a night at
  /// the median scores 0.5 and one 10 points above it 1. A part the night or the baseline
  /// lacks is left out; `nil` when both are.
  package static func sleepScore(_ night: NightSleep, baseline: SleepBaseline) -> Double? {
    var parts: [Double] = []
    for (value, median) in [
      (night.efficiency, baseline.efficiency),
      (night.restorativeShare, baseline.restorativeShare),
    ] {
      guard let value, let median, value.isFinite, median.isFinite else { continue }
      parts.append(clamp(0.5 + (value - median) / (2 * sleepFullScale)))
    }
    return parts.isEmpty ? nil : parts.reduce(0, +) / Double(parts.count)
  }

  /// The composite from its inputs; any of them may be missing.
  ///
  /// - Parameters:
  ///   - skipRate: skips / plays, 0…1 (clamped).
  ///   - hrvDeltaMs: the session's change in SDNN, ms.
  ///   - engagement: mean share heard, 0…1 (clamped).
  ///   - sleepScore: the next night's score, 0…1 (clamped).
  package static func quality(
    skipRate: Double?, hrvDeltaMs: Double?, engagement: Double?, sleepScore: Double?
  ) -> SessionQuality {
    var values: [QualityComponent: Double] = [:]
    if let skipRate, skipRate.isFinite { values[.skip] = 1 - clamp(skipRate) }
    if let hrvDeltaMs, hrvDeltaMs.isFinite { values[.hrv] = hrvComponent(deltaMs: hrvDeltaMs) }
    if let engagement, engagement.isFinite { values[.engagement] = clamp(engagement) }
    if let sleepScore, sleepScore.isFinite { values[.sleep] = clamp(sleepScore) }
    return SessionQuality(values: values)
  }

  /// A reconstructed session's quality, with its HRV change and its next night (if any).
  package static func quality(
    _ session: ListeningSession, hrvDeltaMs: Double?, nextNight: NightSleep?,
    baseline: SleepBaseline
  ) -> SessionQuality {
    quality(
      skipRate: session.skipRate, hrvDeltaMs: hrvDeltaMs, engagement: session.engagement,
      sleepScore: nextNight.flatMap { sleepScore($0, baseline: baseline) })
  }

  /// Every analysed session's quality from its measured parts, in order: each matched to its
  /// next night (`SleepNights.nextNights`), the nights scored against the medians of all of
  /// them. `completed` predicts the parts a session lacks.
  ///
  /// - Complexity: O((s + n) log n) for s sessions and n nights.
  package static func qualities(_ sessions: [SessionBiometrics], nights: [NightSleep])
    -> [SessionQuality]
  {
    let baseline = SleepBaseline(nights: nights)
    let next = SleepNights.nextNights(for: sessions.map(\.session), in: nights)
    return zip(sessions, next).map { s, night in
      quality(s.session, hrvDeltaMs: s.hrv.delta, nextNight: night, baseline: baseline)
    }
  }

  /// The fewest of the person's sessions with a component whose mean may stand in for it.
  package static let minimumForPrediction = 5

  /// The qualities with every component a session lacks predicted from the person's own
  /// sessions, so that sessions with and without an HRV reading (or a next night) are scored
  /// on the same four parts: a missing component is the mean of that component over the
  /// person's sessions in the same context that measured it, or over all their sessions that
  /// did when the context has fewer than `minimumForPrediction`; with fewer than that overall
  /// it stays missing and the weights are renormalised over the rest. A session with no
  /// measured component keeps no score.
  ///
  /// - Complexity: O(s) for s sessions.
  package static func completed(_ qualities: [SessionQuality], contexts: [ActivityContext])
    -> [SessionQuality]
  {
    precondition(qualities.count == contexts.count, "one context per session")
    let means = ComponentMeans(qualities, contexts: contexts)
    return zip(qualities, contexts).map { q, context in
      guard !q.values.isEmpty else { return q }
      var predicted: [QualityComponent: Double] = [:]
      for component in QualityComponent.allCases where q.values[component] == nil {
        predicted[component] = means.prediction(component, context: context)
      }
      return SessionQuality(values: q.values, predicted: predicted)
    }
  }

  /// How far the rule moves the mean quality of the sessions that measured `component` when
  /// their measurement is hidden: each such session scored again with the component predicted
  /// from the *other* sessions (leave-one-out, by the rule of `completed`), against its score
  /// as measured; and the same shift under the seed's own rule (the component left out, the
  /// weights renormalised), for comparison. Nil when no session measured it.
  package static func maskingShift(
    _ qualities: [SessionQuality], contexts: [ActivityContext], component: QualityComponent
  ) -> (sessions: Int, predicted: Double, renormalised: Double)? {
    precondition(qualities.count == contexts.count, "one context per session")
    let means = ComponentMeans(qualities, contexts: contexts)
    var count = 0
    var predictedShift = 0.0
    var renormalisedShift = 0.0
    for (q, context) in zip(qualities, contexts) {
      guard let value = q.values[component], let score = q.score else { continue }
      var hidden = q.values
      hidden[component] = nil
      var predicted = q.predicted
      predicted[component] = means.prediction(component, context: context, leavingOut: value)
      guard let masked = SessionQuality(values: hidden, predicted: predicted).score,
        let renormalised = SessionQuality(values: hidden, predicted: q.predicted).score
      else { continue }
      count += 1
      predictedShift += masked - score
      renormalisedShift += renormalised - score
    }
    guard count > 0 else { return nil }
    return (count, predictedShift / Double(count), renormalisedShift / Double(count))
  }

  private static func clamp(_ x: Double) -> Double { min(1, max(0, x)) }
}

/// Per component, the sums and counts of its measured values, by context and overall: what
/// a missing component is predicted from.
private struct ComponentMeans {
  var byContext: [QualityComponent: [ActivityContext: (sum: Double, count: Int)]] = [:]
  var overall: [QualityComponent: (sum: Double, count: Int)] = [:]

  init(_ qualities: [SessionQuality], contexts: [ActivityContext]) {
    for (q, context) in zip(qualities, contexts) {
      for component in QualityComponent.allCases {
        guard let v = q.values[component] else { continue }
        byContext[component, default: [:]][context, default: (0, 0)].sum += v
        byContext[component, default: [:]][context, default: (0, 0)].count += 1
        overall[component, default: (0, 0)].sum += v
        overall[component, default: (0, 0)].count += 1
      }
    }
  }

  /// The context's mean of `component`, else the overall one, each over at least
  /// `minimumForPrediction` sessions, with one measured `value` taken out of both when given.
  func prediction(
    _ component: QualityComponent, context: ActivityContext, leavingOut value: Double? = nil
  )
    -> Double?
  {
    let minimum = SessionQualityScorer.minimumForPrediction
    for (sum, count) in [byContext[component]?[context], overall[component]].compactMap({ $0 }) {
      let n = count - (value == nil ? 0 : 1)
      if n >= minimum { return (sum - (value ?? 0)) / Double(n) }
    }
    return nil
  }
}
