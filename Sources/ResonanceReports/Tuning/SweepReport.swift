import ResonanceModel

/// What `resonance sweep` prints and writes: a summary for people, JSON, and the CSV of every
/// point (`docs/tuning.md` gives the columns).
package enum SweepReport {
  /// The CSV's columns, in order.
  package static let columns = [
    "point", "label", "bpm_weight", "energy_weight", "familiarity_weight", "historical_weight",
    "context_weight", "recency_penalty_weight", "time_of_day_penalty_weight", "value",
    "value_low90", "value_high90", "keep_rate", "response_score", "effective_sample_size",
    "largest_weight", "agreement_share", "pareto",
  ]

  package static func csv(_ sweep: SweepResult) -> CSVTable {
    var table = CSVTable(header: columns)
    for p in sweep.points {
      table.append(
        [.integer(p.index), p.label.map { .text($0) } ?? .empty]
          + p.weights.vector.map { .number($0) }
          + [
            .number(p.value), .number(p.lower), .number(p.upper), .number(p.keepRate),
            .number(p.response),
            .number(p.effectiveSampleSize), .number(p.largestWeight), .number(p.agreementShare),
            .integer(p.isPareto ? 1 : 0),
          ])
    }
    return table
  }

  /// The point with the largest estimate of the chosen reward among those with an effective
  /// sample size of at least `minimumESS`.
  package static func best(_ sweep: SweepResult, minimumESS: Double) -> SweepPoint? {
    sweep.points.dropFirst().filter { $0.value != nil && $0.effectiveSampleSize >= minimumESS }
      .max { $0.value! < $1.value! }
  }

  /// The summary lines, each starting `sweep: `.
  /// The line saying how many chosen propensities were read as the floor.
  package static func clippingNote(_ clipped: Int) -> String {
    "sweep: \(Format.grouped(clipped)) decision\(clipped == 1 ? "" : "s") chosen with a logged "
      + "propensity below \(LoggedCandidate.propensityFloor), read as \(LoggedCandidate.propensityFloor) "
      + "(a weight of at most a million; the ingest warnings name their lines)"
  }

  package static func lines(
    _ sweep: SweepResult, csvPath: String?, run: Int64, minimumESS: Double
  ) -> [String] {
    let f = { (x: Double?) in Format.optional(x, 3) }
    var lines = [
      "sweep: design \(sweep.design), over "
        + "\(Format.grouped(sweep.decisions)) decisions"
        + (sweep.from.map { " from \($0) to \(sweep.to ?? $0)" } ?? "")
        + ", \(sweep.estimator.rawValue) estimates of \(sweep.reward.rawValue); the kernel took "
        + "\(Format.fixed(sweep.kernelSeconds, 2)) s (\(sweep.product.rawValue))"
    ]
    if let clipped = sweep.clippedPropensities {
      lines.append(Self.clippingNote(clipped))
    }
    if let current = sweep.points.first {
      lines.append(
        "sweep: preferences in force: \(sweep.reward.rawValue) \(f(current.value)), keep rate "
          + "\(f(current.keepRate)), response score \(f(current.response))")
    }
    if let best = best(sweep, minimumESS: minimumESS) {
      lines.append(
        "sweep: highest estimate with ESS ≥ \(Int(minimumESS)): point \(best.index), "
          + "\(sweep.reward.rawValue) \(f(best.value)) (ESS \(Format.fixed(best.effectiveSampleSize, 0))); "
          + "chosen on the whole history, so optimistic: resonance tune judges on months the "
          + "choice never saw")
    } else {
      lines.append(
        "sweep: no point has an effective sample size of \(Int(minimumESS)) or more: the log "
          + "supports only preferences close to those in force")
    }
    let pareto = sweep.points.filter(\.isPareto).count
    lines.append(
      "sweep: \(pareto) point\(pareto == 1 ? "" : "s") on the Pareto front of keep rate against "
        + "response; stored as sweep run \(run)"
        + (csvPath.map { ", written to \($0)" } ?? ""))
    return lines
  }

  package static func json(_ sweep: SweepResult, csvPath: String?, run: Int64) -> JSONValue {
    [
      "format_version": 1, "run": .integer(run), "design": .string(sweep.design.description),
      "reward": .string(sweep.reward.rawValue), "estimator": .string(sweep.estimator.rawValue),
      "decisions": .integer(sweep.decisions), "from": .text(sweep.from), "to": .text(sweep.to),
      "kernel_seconds": .number(sweep.kernelSeconds), "product": .string(sweep.product.rawValue),
      "csv": .text(csvPath),
      "points": .array(
        sweep.points.map { p in
          [
            "point": .integer(p.index), "label": .text(p.label),
            "weights": TuningReportText.json(p.weights), "value": .number(p.value),
            "value_low90": .number(p.lower), "value_high90": .number(p.upper),
            "keep_rate": .number(p.keepRate), "response_score": .number(p.response),
            "effective_sample_size": .number(p.effectiveSampleSize),
            "largest_weight": .number(p.largestWeight),
            "agreement_share": .number(p.agreementShare), "pareto": .bool(p.isPareto),
          ]
        }),
    ]
  }
}
