import ResonanceModel

/// What `resonance cohort pool` prints: the persons read, skipped and refused, then a line per
/// pooled effect.
package enum CohortSummary {
  package static func text(_ result: CohortPoolResult) -> String {
    var text =
      "cohort: \(Format.count(result.persons.count, "person")) read, "
      + "\(result.incomplete.count) skipped without a complete manifest, "
      + "\(result.refused.count) refused\n"
    for (name, p) in result.pooled {
      let places = CohortPage.describe(name).places
      text +=
        "cohort: \(name.rawValue): μ = \(Format.fixed(p.mu, places)) "
        + "(\(Format.fixed(p.lower, places)) … \(Format.fixed(p.upper, places))), "
        + "τ = \(Format.fixed(p.tau, places)), I² = \(Format.fixed(100 * p.i2, 0))%, "
        + "\(Format.count(p.persons, "person"))\n"
    }
    let tuned = result.tuned
    if tuned.persons > 0 {
      text += "cohort: tune said change for \(tuned.change) of \(tuned.persons) persons\n"
    }
    return text
      + "cohort: wrote \(result.files.count) files into \(result.out)/ (start with cohort.md)\n"
  }

  /// `--json` (`docs/cli.md`).
  package static func json(_ result: CohortPoolResult) -> JSONValue {
    let left: ([CohortPoolResult.Left]) -> JSONValue = { list in
      .array(list.map { ["folder": .string($0.folder), "reason": .string($0.reason)] })
    }
    let tuned = result.tuned
    return .object([
      "format_version": 1, "out": .string(result.out), "persons": .int(Int64(result.persons.count)),
      "incomplete": left(result.incomplete), "refused": left(result.refused),
      "tune": ["persons": .int(Int64(tuned.persons)), "change": .int(Int64(tuned.change))],
      "effects": .array(
        result.pooled.map { name, p in
          [
            "name": .string(name.rawValue), "persons": .int(Int64(p.persons)),
            "mu": .number(p.mu), "se": .number(p.se), "lower": .number(p.lower),
            "upper": .number(p.upper), "level": .number(p.level), "tau": .number(p.tau),
            "prediction_lower": .number(p.predictionLower),
            "prediction_upper": .number(p.predictionUpper), "q": .number(p.q),
            "i2": .number(p.i2),
          ]
        }),
      "files": .array(result.files.map { .string($0) }),
    ])
  }
}
