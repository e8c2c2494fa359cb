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
  /// The quality of the available component values: their weighted mean, the weights
  /// renormalised over them; no score when none is available.
  package init(values: [QualityComponent: Double]) {
    // Summed in the seed's order, not the dictionary's (which changes from run to run), so
    // the same session scores the same to the last bit.
    let present = QualityComponent.allCases.filter { values[$0] != nil }
    let total = present.reduce(0) { $0 + $1.weight }
    self.init(
      score: present.isEmpty ? nil : present.reduce(0) { $0 + $1.weight * values[$1]! } / total,
      values: values)
  }

  /// A component's share of the score after renormalising (0 when it is missing).
  package func weight(of component: QualityComponent) -> Double {
    guard values[component] != nil else { return 0 }
    return component.weight / basis.reduce(0) { $0 + $1.weight }
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

  /// Every analysed session's quality, in order: each matched to its next night
  /// (`SleepNights.nextNights`), the nights scored against the medians of all of them.
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

  private static func clamp(_ x: Double) -> Double { min(1, max(0, x)) }
}
