import ResonanceModel

/// What `resonance validate` prints: the report as lines for people and as JSON.
extension ValidationReport {
  /// The report as lines: each part the store had something for, each figure beside its goal;
  /// a missed goal is marked `goal NOT met`.
  ///
  /// - Parameter truthPath: The truth.json as the command was given it, named in the
  ///   breathing heading.
  package func lines(truthPath: String) -> [String] {
    var lines: [String] = []
    if let breathing { lines += Self.lines(breathing, truthPath: truthPath) }
    if let contexts { lines.append(Self.line(contexts)) }
    for effect in effects { lines += Self.lines(effect) }
    if !features.isEmpty {
      lines.append(
        "song features against the planted ones (mean absolute error; share within ± 1.645 sd):")
      lines += features.map(Self.line)
    }
    if let practice { lines += Self.lines(practice) }
    if let changes { lines += Self.lines(changes) }
    if let tuning {
      lines.append(
        "one-step truth (\(tuning.reward.rawValue), \(Format.grouped(tuning.decisions)) decisions): "
          + "preferences in force \(Format.fixed(tuning.inForce, 4)), the file's "
          + "\(Format.fixed(tuning.preferences, 4)), gain \(tuning.gain >= 0 ? "+" : "")\(Format.fixed(tuning.gain, 4))"
      )
      if let best = tuning.bestPoint {
        let gain = best.value - tuning.inForce
        lines.append(
          "  best of \(Format.grouped(best.points)) design points, as greedy as those in force: "
            + "\(TuningReportText.weights(best.weights)), one-step \(Format.fixed(best.value, 4)), "
            + "gain \(gain >= 0 ? "+" : "")\(Format.fixed(gain, 4))")
      }
    }
    return lines
  }

  /// The missed goals in one line for standard error, or `nil` when every goal is met:
  /// `validate: 2 goals not met: …`.
  package var missedGoalsLine: String? {
    var missed: [String] = []
    if let breathing {
      let named = [
        ("breathing: Spearman(Resonance Score, planted adherence)", breathing.scoreCheck),
        ("breathing: Spearman(phase locking, planted adherence)", breathing.phaseLockingCheck),
        ("breathing: largest breathing-rate error", breathing.rateErrorCheck),
      ]
      missed += named.filter { !$0.1.isMet }.map { Self.describe($0.0, $0.1) }
    }
    for effect in effects {
      let name = "song effects on \(Self.name(effect.signal))"
      if !effect.coverageCheck.isMet {
        missed.append(Self.describe("\(name): 90% interval coverage", effect.coverageCheck))
      }
      if let check = effect.spearmanCheck, !check.isMet {
        missed.append(Self.describe("\(name): Spearman(estimate, planted)", check))
      }
    }
    guard !missed.isEmpty else { return nil }
    let goals = missed.count == 1 ? "goal" : "goals"
    return "validate: \(missed.count) \(goals) not met: " + missed.joined(separator: "; ")
  }

  /// The report as `--json` gives it (`docs/cli.md`): every part, each with its figures and
  /// whether its goals are met, or null when the store had nothing for it.
  package var json: JSONValue {
    [
      "format_version": 1, "goals_met": .bool(!hasMissedGoal),
      "breathing": breathing.map(Self.json) ?? .null,
      "sessions": contexts.map(Self.json) ?? .null,
      "song_effects": effects.isEmpty
        ? .null
        : .object(
          Dictionary(uniqueKeysWithValues: effects.map { ($0.signal.rawValue, Self.json($0)) })),
      "song_features": features.isEmpty
        ? .null
        : .object(
          Dictionary(uniqueKeysWithValues: features.map { ($0.feature.rawValue, Self.json($0)) })),
      "practice": practice.map(Self.json) ?? .null,
      "changes": changes.map(Self.json) ?? .null,
      "tuning": tuning.map {
        [
          "reward": .string($0.reward.rawValue), "decisions": .integer($0.decisions),
          "one_step": [
            "in_force": .number($0.inForce), "preferences": .number($0.preferences),
            "gain": .number($0.gain),
          ],
          "estimated_gain": .object(
            Dictionary(
              uniqueKeysWithValues: $0.estimatedGains.map { ($0.key.rawValue, .number($0.value)) }
            )),
          "best_point": Self.json($0.bestPoint, inForce: $0.inForce),
        ]
      } ?? .null,
    ]
  }

  /// Breathing practice's estimates, one line each, beside the planted effect.
  static func lines(_ p: PracticeValidation) -> [String] {
    let words = [
      "practice_acute_sdnn_ms": "within a session, SDNN after − before (ms)",
      "practice_night_sdnn_ms": "that night's overnight SDNN (ms)",
      "practice_morning_resting_hr_bpm": "the next morning's resting heart rate (bpm)",
    ]
    return ["breathing practice against the planted effects (90% intervals):"]
      + p.effects.map { e in
        let label = (words[e.name] ?? e.name).padding(toLength: 46, withPad: " ", startingAt: 0)
        let estimate =
          e.estimate == nil ? "too few days" : Figures.interval(e.estimate, e.low90, e.high90, 2)
        let covered = e.covered.map { $0 ? "covered" : "NOT covered" } ?? "–"
        return "  \(label) \(estimate)   planted \(Figures.signed(e.planted, 2))   \(covered)"
      }
  }

  /// The sustained-change rule's findings, one line a signal.
  static func lines(_ c: ChangeValidation) -> [String] {
    let planted = c.planted.map { "planted from \($0.description)" } ?? "none planted"
    return [
      "sustained change (\(planted); found within \(ChangeValidation.toleranceDays) days counts):"
    ]
      + c.findings.map { f in
        let label = f.signal.label.padding(toLength: 28, withPad: " ", startingAt: 0)
        let flagged =
          !f.searched
          ? "too few days to look"
          : f.flagged.map { "flagged from \($0.description)" } ?? "none flagged"
        return "  \(label) \(flagged)   \(c.isRight(f) ? "right" : "WRONG")"
      }
  }

  static func json(_ p: PracticeValidation) -> JSONValue {
    .object(
      Dictionary(
        uniqueKeysWithValues: p.effects.map { e in
          (
            e.name,
            [
              "planted": .number(e.planted), "estimate": e.estimate.map(JSONValue.number) ?? .null,
              "low90": e.low90.map(JSONValue.number) ?? .null,
              "high90": e.high90.map(JSONValue.number) ?? .null,
              "covered": e.covered.map(JSONValue.bool) ?? .null,
            ] as JSONValue
          )
        }))
  }

  static func json(_ c: ChangeValidation) -> JSONValue {
    [
      "planted": c.planted.map { .string($0.description) } ?? .null,
      "tolerance_days": .integer(Int(ChangeValidation.toleranceDays)),
      "signals": .object(
        Dictionary(
          uniqueKeysWithValues: c.findings.map { f in
            (
              f.signal.rawValue,
              [
                "flagged": f.flagged.map { .string($0.description) } ?? .null,
                "searched": .bool(f.searched), "right": .bool(c.isRight(f)),
              ] as JSONValue
            )
          })),
    ]
  }

  /// The best design point as `--json` gives it, or null without `--best-point`.
  static func json(_ best: OneStepTruth.BestPoint?, inForce: Double) -> JSONValue {
    guard let best else { return .null }
    return [
      "weights": TuningReportText.json(best.weights), "value": .number(best.value),
      "gain": .number(best.value - inForce), "points": .integer(best.points),
    ]
  }

  /// `≥ 0.8`, `≤ 0.5`, `0.85–0.95`.
  static func text(_ goal: Goal) -> String {
    switch goal {
    case .atLeast(let bound): "≥ \(bound)"
    case .atMost(let bound): "≤ \(bound)"
    case .within(let range): "\(range.lowerBound)–\(range.upperBound)"
    }
  }

  /// `goal ≥ 0.8`, followed by ` — goal NOT met` when the figure misses it.
  static func goal(_ check: GoalCheck) -> String {
    "goal \(text(check.goal))" + (check.isMet ? "" : " — goal NOT met")
  }

  /// `heart rate (bpm)` or `HRV (SDNN ms)`.
  static func name(_ signal: Signal) -> String {
    switch signal {
    case .heartRate: "heart rate (bpm)"
    case .hrv: "HRV (SDNN ms)"
    }
  }

  static func describe(_ name: String, _ check: GoalCheck) -> String {
    "\(name) \(Format.optional(check.figure, 3)) (goal \(text(check.goal)))"
  }

  static func lines(_ b: BreathingValidation, truthPath: String) -> [String] {
    let f = { (x: Double?) in Format.optional(x, 3) }
    return [
      "breathing: \(b.sessions) sessions matched to \(truthPath)",
      "  Spearman(Resonance Score, planted adherence)  \(f(b.spearmanScore))   \(goal(b.scoreCheck))",
      "  Spearman(phase locking, planted adherence)    \(f(b.spearmanPhaseLocking))   \(goal(b.phaseLockingCheck))",
      "  sessions that followed the pacer throughout   \(b.followedSessions)",
      "  largest breathing-rate error among them       \(f(b.maxRateError)) breaths/min   \(goal(b.rateErrorCheck))",
      "  goals \(b.isMet ? "met" : "NOT met")",
    ]
  }

  static func line(_ c: ContextValidation) -> String {
    let top = c.confusions.prefix(3).map {
      "\($0.lived.rawValue) → \($0.reconstructed.rawValue) \($0.plays)"
    }
    return
      "sessions: \(c.agreeing) of \(c.plays) plays (\(Format.fixed(c.share, 3))) in a session given the context they were lived in"
      + (top.isEmpty ? "" : "; most often confused: " + top.joined(separator: ", "))
  }

  static func lines(_ e: EffectValidation) -> [String] {
    let f = { (x: Double?) in Format.optional(x, 3) }
    let spearmanGoal = e.spearmanCheck.map(goal) ?? "no goal at this scale"
    return [
      "song effects on \(name(e.signal)): \(e.songs) songs estimated (effect scale \(Format.fixed(e.effectScale, 1)))",
      "  90% intervals covering the planted effect      \(f(e.coverage))   \(goal(e.coverageCheck))",
      "  distinguishable from the average song          \(e.distinguishable) (\(e.distinguishableRightSign) with the planted sign)",
      "  Spearman(estimate, planted), ≥ 8 plays         \(f(e.spearman)) over \(e.songsWithEightPlays) songs   \(spearmanGoal)",
    ]
  }

  static func line(_ v: FeatureValidation) -> String {
    let places = v.feature == .bpm ? 1 : 3
    let parts = v.bySource.map {
      "\($0.source.rawValue) \(Format.fixed($0.meanAbsoluteError, places)) over \($0.songs) songs (\(Format.fixed($0.coverage, 2)))"
    }
    return "  \(v.feature.rawValue): " + parts.joined(separator: "; ")
  }

  static func json(_ b: BreathingValidation) -> JSONValue {
    [
      "sessions": .integer(b.sessions), "spearman_score_adherence": .number(b.spearmanScore),
      "spearman_plv_adherence": .number(b.spearmanPhaseLocking),
      "followed_sessions": .integer(b.followedSessions),
      "max_rate_error_followed": .number(b.maxRateError), "goals_met": .bool(b.isMet),
    ]
  }

  static func json(_ c: ContextValidation) -> JSONValue {
    [
      "plays": .integer(c.plays), "agreeing": .integer(c.agreeing), "share": .number(c.share),
      "confusions": .array(
        c.confusions.map {
          [
            "lived": .string($0.lived.rawValue),
            "reconstructed": .string($0.reconstructed.rawValue), "plays": .integer($0.plays),
          ]
        }),
    ]
  }

  static func json(_ e: EffectValidation) -> JSONValue {
    let spearmanGoal: Double? =
      switch e.spearmanGoal {
      case .atLeast(let bound): bound
      default: nil
      }
    return [
      "songs": .integer(e.songs), "interval_coverage": .number(e.coverage),
      "coverage_goal_met": .bool(e.coverageCheck.isMet),
      "distinguishable_from_zero": .integer(e.distinguishable),
      "distinguishable_right_sign": .integer(e.distinguishableRightSign),
      "songs_with_8_plays": .integer(e.songsWithEightPlays),
      "spearman_vs_planted": .number(e.spearman), "spearman_goal": .number(spearmanGoal),
      "spearman_goal_met": e.spearmanCheck.map { .bool($0.isMet) } ?? .null,
      "effect_scale": .number(e.effectScale),
    ]
  }

  static func json(_ v: FeatureValidation) -> JSONValue {
    .object(
      Dictionary(
        uniqueKeysWithValues: v.bySource.map {
          (
            $0.source.rawValue,
            [
              "songs": .integer($0.songs), "mean_absolute_error": .number($0.meanAbsoluteError),
              "interval_coverage": .number($0.coverage),
            ] as JSONValue
          )
        }))
  }
}
