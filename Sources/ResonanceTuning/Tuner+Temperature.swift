import ResonanceBrain
import ResonanceModel

/// The softmax temperature as its own dimension (`docs/tuning.md`, "Greediness, judged
/// apart"): the weights are compared at the greediness in force (`Greediness`), so a colder
/// or warmer DJ is never a weight vector's doing; whether the DJ should exploit more, or
/// explore more, is asked of the weights in force at other temperatures, by the same forward
/// chaining and the same bar, and reported beside the weights' answer.
extension Tuner {
  /// The temperatures tried, as factors of the one in force: below 1 exploits more (the
  /// likeliest song is chosen more often), above 1 explores more.
  package static let temperatureFactors: [Double] = [0.5, 0.7, 1.4, 2]

  /// The weights in force at each of `temperatureFactors` times the log's temperature, chosen
  /// on the months before each judged month and judged on it, pooled; and the factor chosen on
  /// every month before the last, judged on the last.
  static func temperature(
    log: LoggedDecisions, monthOf: [Int], months: [CalendarMonth], folds: [FoldModels],
    rewards: [Reward], inForce: UserPreferences, settings: TuningSettings, level: Double
  ) throws(TuningError) -> TemperatureTuning {
    let chain = try Self.chain(
      log: log, monthOf: monthOf, months: months, folds: folds, where: { _ in true },
      rewards: rewards, inForce: inForce, design: [], settings: settings, level: level,
      temperatures: temperatureFactors)
    let temperature = log.policy.temperature
    var result = TemperatureTuning(
      inForce: temperature, factors: temperatureFactors, folds: chain.folds,
      forwardGain: chain.gain)
    let held = months.count - 1
    guard let last = chain.last, let factor = chain.folds.last?.temperatureFactor else {
      result.reason =
        "no other temperature did clearly better than \(Format.trimmed(temperature)) on the "
        + "selection months (\(months[0])…\(months[held - 1]))"
      return result
    }
    result.candidateFactor = factor
    result.heldOut = last.evidence.gain
    result.heldOutESS = last.evidence.effectiveSampleSize
    let way = factor < 1 ? "more exploitation" : "more exploration"
    let what =
      "\(way) (×\(Format.trimmed(factor)): temperature \(Format.trimmed(temperature * factor)))"
    guard let pooled = chain.gain else {
      result.reason = "\(what) was chosen, but no month after the first could be judged"
      return result
    }
    let own = last.evidence.gain
    let words =
      "\(what) would gain \(signed(pooled.estimate)) pooled over the \(chain.judgedMonths) "
      + "months judged by a choice made before them (\(percent(level)) interval "
      + "\(signed(pooled.lower)) … \(signed(pooled.upper))), and \(signed(own.estimate)) on "
      + "\(months[held]), the month it was not chosen on (\(signed(own.lower)) … "
      + "\(signed(own.upper)))"
    result.claimed =
      pooled.lower > settings.margin && own.lower > 0
      && last.evidence.effectiveSampleSize >= settings.minimumESS
    result.reason =
      result.claimed
      ? words + ": clearly better, by the weights' bar"
      : words + ": not clearly better, by the weights' bar ("
        + (last.evidence.effectiveSampleSize < settings.minimumESS
          ? "effective sample size \(Int(last.evidence.effectiveSampleSize.rounded())) "
            + "on \(months[held])"
          : pooled.lower <= settings.margin
            ? "the pooled interval reaches \(margin(settings.margin))"
            : "its own interval reaches 0")
        + ")"
    return result
  }

  /// The temperature's verdict on the file: with `tuneTemperature`, a claimed temperature is
  /// written when the weights stay (a `keep` becomes a `change` of the temperature alone);
  /// when the weights change it is not, since it was judged with the weights in force.
  static func settleTemperature(_ report: inout TuningReport, settings: TuningSettings) {
    guard var t = report.temperature, t.claimed, let factor = t.candidateFactor else { return }
    if !settings.tuneTemperature {
      t.reason += "; not written: --tune-temperature lets the file change the temperature"
    } else if report.recommendation == .change {
      t.reason +=
        "; not written: it was judged with the weights in force, and the weights change"
    } else {
      t.applied = true
      t.reason += "; written (--tune-temperature)"
      report.recommendation = .change
      report.recommended = report.inForce
      report.recommended.policy.temperature = t.inForce * factor
      report.reason =
        "the weights in force stay (\(report.reason)), and the temperature changes from "
        + "\(Format.trimmed(t.inForce)) to \(Format.trimmed(t.inForce * factor)): " + t.reason
    }
    report.temperature = t
  }
}
