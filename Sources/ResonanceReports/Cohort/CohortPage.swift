import ResonanceModel

/// `cohort.md` and its files (`resonance cohort pool`): each person-level effect pooled by the
/// random-effects model, with its forest plot and funnel, the per-person estimates and the
/// pooled table as CSV, and the share of persons `tune` told to change.
package enum CohortPage {
  /// Persons a forest plot shows at most (the first by pseudonym); the funnel shows them all.
  package static let forestRows = 60

  /// The words and unit of each effect.
  static func describe(_ name: PersonEffect.Name) -> (label: String, unit: String, places: Int) {
    switch name {
    case .tempoHeartRate: ("heart rate per 10 BPM of tempo", "bpm", 2)
    case .eveningMusicAsleep: ("minutes asleep after evening music", "min", 1)
    case .practiceNightSDNN: ("overnight SDNN after breathing practice", "ms", 2)
    case .tuningHeldOutGain: ("tune's held-out gain", "reward", 4)
    }
  }

  package static func files(_ result: CohortPoolResult) -> [ReportFile] {
    var text = "# The cohort: what music and breathing do, person by person and pooled\n\n"
    text += "\(Format.count(result.persons.count, "person")) read from their hand-offs "
    text += "(`resonance export`, docs/cohort.md)"
    if !result.incomplete.isEmpty {
      text += "; \(Format.count(result.incomplete.count, "folder")) skipped without a "
      text += "complete manifest"
    }
    if !result.refused.isEmpty {
      text += "; \(Format.count(result.refused.count, "hand-off")) refused: "
      // Folder names come from the file system: escaped, as any text on a page is.
      text += result.refused.map { "\(Markdown.escape($0.folder)) (\($0.reason))" }
        .joined(separator: "; ")
    }
    text += ".\n\n"
    text += "Each effect is pooled by a random-effects model: the persons' true effects are "
    text += "drawn from a normal distribution with mean μ and spread τ. μ's interval is "
    text += "Hartung–Knapp's, τ² is estimated by REML, the prediction interval is where a new "
    text += "person's effect would fall, and I² is the share of the spread between persons' "
    text += "estimates that is not noise (docs/cohort.md). "
    text += "Levels: \(Format.fixed(100 * level(result), 0))%.\n\n"

    var files: [ReportFile] = []
    var rows: [[String]] = []
    for (name, pooled) in result.pooled {
      let d = describe(name)
      rows.append([
        name.rawValue, String(pooled.persons), Format.fixed(pooled.mu, d.places),
        "\(Format.fixed(pooled.lower, d.places)) … \(Format.fixed(pooled.upper, d.places))",
        Format.fixed(pooled.tau, d.places),
        pooled.predictionLower.map { l in
          "\(Format.fixed(l, d.places)) … \(Format.optional(pooled.predictionUpper, d.places))"
        } ?? "–",
        "\(Format.fixed(100 * pooled.i2, 0))%", d.unit,
      ])
    }
    if rows.isEmpty {
      text += "No effect has two persons with an estimate yet: nothing to pool.\n\n"
    } else {
      text += Markdown.table(
        header: [
          "effect", "persons", "μ", "interval for μ", "τ", "prediction interval", "I²", "unit",
        ], rows: rows, alignments: ["l", "r", "r", "r", "r", "r", "r", "l"])
      text += "\n"
    }
    let tuned = result.tuned
    text += "## Tuning\n\n"
    if tuned.persons == 0 {
      text += "No person's hand-off has a `tune` run.\n\n"
    } else {
      let share = Double(tuned.change) / Double(tuned.persons)
      text += "`tune` said `change` for \(tuned.change) of \(tuned.persons) persons with a "
      text += "tuning run (\(Format.fixed(100 * share, 0))%). The pooled tuning gain, where "
      text += "there is one, is each person's held-out gain, never a best point's in-sample "
      text += "estimate.\n\n"
    }

    for (name, pooled) in result.pooled {
      let d = describe(name)
      let estimates = result.persons.compactMap { p in
        p.effects.first { $0.name == name }.map { (person: p.person, effect: $0) }
      }
      text += "## \(d.label.prefix(1).uppercased() + d.label.dropFirst()) (`\(name.rawValue)`)\n\n"
      text += "μ = \(Format.fixed(pooled.mu, d.places)) \(d.unit) "
      text += "(\(Format.fixed(pooled.lower, d.places)) … \(Format.fixed(pooled.upper, d.places)))"
      text += ", τ = \(Format.fixed(pooled.tau, d.places)) \(d.unit) over "
      text += "\(Format.count(pooled.persons, "person")).\n\n"
      let forest = "forest-\(name.rawValue).svg"
      let funnel = "funnel-\(name.rawValue).svg"
      files.append(ReportFile(name: forest, text: forestChart(name, estimates, pooled)))
      files.append(ReportFile(name: funnel, text: funnelChart(name, estimates, pooled)))
      if estimates.count > forestRows {
        text += "The forest shows the first \(forestRows) persons by pseudonym; the funnel "
        text += "shows all \(estimates.count).\n\n"
      }
      text += "![Forest plot of \(d.label)](\(forest))\n\n![Funnel of \(d.label)](\(funnel))\n\n"
    }
    text += "Files: [pooled.csv](pooled.csv) (one row per effect), "
    text += "[effects.csv](effects.csv) (one row per person and effect).\n"

    var pooledCSV = CSVTable(header: [
      "effect", "persons", "mu", "se", "lower", "upper", "level", "tau", "tau2",
      "prediction_lower", "prediction_upper", "q", "i2",
    ])
    for (name, p) in result.pooled {
      pooledCSV.append([
        .text(name.rawValue), .integer(p.persons), .number(p.mu), .number(p.se),
        .number(p.lower), .number(p.upper), .number(p.level), .number(p.tau), .number(p.tau2),
        .number(p.predictionLower), .number(p.predictionUpper), .number(p.q), .number(p.i2),
      ])
    }
    var effectsCSV = CSVTable(header: ["person", "effect", "estimate", "se", "n", "method"])
    for person in result.persons {
      for e in person.effects {
        effectsCSV.append([
          .text(person.person), .text(e.name.rawValue), .number(e.estimate), .number(e.se),
          .integer(e.n), .text(e.method),
        ])
      }
    }
    return [ReportFile(name: "cohort.md", text: text)] + files + [
      ReportFile(name: "pooled.csv", text: pooledCSV.text),
      ReportFile(name: "effects.csv", text: effectsCSV.text),
    ]
  }

  private static func level(_ result: CohortPoolResult) -> Double {
    result.pooled.first?.effect.level ?? 0.95
  }

  /// Each person's estimate with its interval at the pooled level (normal), in pseudonym
  /// order, then the pooled μ with its interval as the last row; a line at μ.
  static func forestChart(
    _ name: PersonEffect.Name, _ estimates: [(person: String, effect: PersonEffect)],
    _ pooled: PooledEffect
  ) -> String {
    let d = describe(name)
    let shown = Array(estimates.prefix(forestRows))
    let z = 1.959963984540054
    var chart = SVGChart(title: "\(d.label) by person", xLabel: d.unit, yLabel: "person")
    chart.yScale = .categories(shown.map(\.person) + ["pooled μ"])
    chart.marks = [
      .reference(pooled.mu, vertical: true),
      .whiskers(
        shown.enumerated().map { i, e in
          SVGChart.Interval(
            Double(i), low: e.effect.estimate - z * e.effect.se,
            high: e.effect.estimate + z * e.effect.se, estimate: e.effect.estimate)
        }, series: 0),
      .whiskers(
        [
          SVGChart.Interval(
            Double(shown.count), low: pooled.lower, high: pooled.upper, estimate: pooled.mu)
        ], series: 1),
    ]
    return chart.svg()
  }

  /// Each person's estimate against its standard error, with a line at μ: asymmetry (small
  /// studies on one side) would show a bias in who has estimates.
  static func funnelChart(
    _ name: PersonEffect.Name, _ estimates: [(person: String, effect: PersonEffect)],
    _ pooled: PooledEffect
  ) -> String {
    let d = describe(name)
    var chart = SVGChart(
      title: "\(d.label): estimate against its standard error", xLabel: d.unit,
      yLabel: "standard error (\(d.unit))")
    chart.marks = [
      .reference(pooled.mu, vertical: true),
      .points(estimates.map { SVGChart.Point($0.effect.estimate, $0.effect.se) }, series: 0),
    ]
    return chart.svg()
  }
}
