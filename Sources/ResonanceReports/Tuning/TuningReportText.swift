import ResonanceModel

/// What `resonance tune` prints: the decision and its evidence for people, and as JSON.
package enum TuningReportText {
  package static func json(_ w: ScoringWeights) -> JSONValue {
    [
      "bpm": .number(w.bpm), "energy": .number(w.energy), "familiarity": .number(w.familiarity),
      "historical": .number(w.historical), "context": .number(w.context),
      "recency": .number(w.recency), "time_of_day": .number(w.timeOfDay),
    ]
  }

  static func weights(_ w: ScoringWeights) -> String {
    let f = { (x: Double) in Format.fixed(x, 2) }
    return
      "tempo \(f(w.bpm)), energy \(f(w.energy)), familiarity \(f(w.familiarity)), "
      + "learned \(f(w.historical)), context \(f(w.context)); recency penalty "
      + "\(f(w.recency)), time-of-day penalty \(f(w.timeOfDay))"
  }

  static func interval(_ i: TuningEvidence.Interval) -> String {
    let f = { (x: Double) in x.isNaN ? "n/a" : (x >= 0 ? "+" : "−") + Format.fixed(abs(x), 4) }
    let percent = i.level * 100
    let level = Format.fixed(percent, percent == percent.rounded() ? 0 : 2)
    return "\(f(i.estimate)) (\(level)% interval \(f(i.lower)) … \(f(i.upper)))"
  }

  /// The summary lines, each starting `tune: `.
  package static func lines(_ report: TuningReport, outPath: String?) -> [String] {
    let count = Format.grouped(_:) as (Int) -> String
    let r = report.replay
    var lines: [String] = []
    let versions = r.byVersion.sorted { $0.key < $1.key }.map { "v\($0.key) \(count($0.value))" }
      .joined(separator: ", ")
    lines.append(
      "tune: replayed \(count(r.replayed)) logged decisions (\(versions.isEmpty ? "none" : versions)): "
        + (r.firstMismatch == nil
          ? "every score and propensity reproduced (largest differences "
            + "\(Format.scientific(r.largestScoreDifference)) in a score, "
            + "\(Format.scientific(r.largestPropensityRelativeDifference)) relative in a propensity)"
          : "MISMATCH at \(r.firstMismatch!)"))
    let excluded = report.excluded.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
    var used = "tune: \(count(report.decisions)) decisions used"
    if let first = report.months.first, let last = report.months.last {
      used += " over \(report.months.count) months (\(first)…\(last))"
    }
    if !excluded.isEmpty { used += "; left out: " + excluded.joined(separator: ", ") }
    lines.append(
      used + "; \(report.estimator.rawValue) estimates of \(report.reward.rawValue), "
        + "design \(report.design)")
    if let clipped = report.clippedPropensities {
      lines.append("tune" + SweepReport.clippingNote(clipped).dropFirst("sweep".count))
    }
    if !report.folds.isEmpty {
      let gains = report.folds.compactMap(\.gain)
      let positive = gains.filter { $0 > 0 }.count
      var line =
        "tune: forward chaining: choosing on the months before each of "
        + "\(report.folds.count) month\(report.folds.count == 1 ? "" : "s"), "
      if gains.isEmpty {
        line += "no point cleared the rule"
      } else {
        line +=
          "a point cleared the rule for \(gains.count), and gained in the month after in "
          + "\(positive)"
      }
      let parameters = report.folds.filter { $0.weights != nil }.map {
        $0.estimatorParameter.map { Format.fixed($0, $0 < 1 ? 2 : 0) } ?? "∞"
      }
      if report.estimator.isTuned, !parameters.isEmpty {
        line +=
          " (\(report.estimator == .switchDR ? "τ" : "λ") chosen with each by SLOPE: "
          + parameters.joined(separator: ", ") + ")"
      }
      if let gain = report.forwardGain {
        line +=
          "; pooled over \(count(report.judgedDecisions ?? 0)) judged decisions, "
          + "choosing on the past gained \(interval(gain))"
      }
      lines.append(line)
      lines.append(
        "tune: every gain here is one step at a time: what the DJ's choice at each logged "
          + "moment would have earned, the history before it as it was (docs/tuning.md, "
          + "\"What the intervals estimate\")")
    }
    if let candidate = report.candidate {
      lines.append("tune: candidate: \(weights(candidate.weights))")
      if let gain = report.selectionGain, let ess = report.selectionESS {
        lines.append(
          "tune: on the selection months it gained \(Format.fixed(gain, 4)) (ESS "
            + "\(Format.fixed(ess, 0))); that figure is optimistic, the months judged after "
            + "their choice decide")
      }
    }
    if let h = report.heldOut {
      lines.append(
        "tune: the candidate on \(h.month), the last month (\(count(h.decisions)) decisions): "
          + "in force \(Format.fixed(h.inForceValue, 4)), candidate \(Format.fixed(h.chosenValue, 4)), "
          + "gain \(interval(h.gain)); ESS \(Format.fixed(h.effectiveSampleSize, 0)), "
          + "largest weight \(Format.fixed(h.largestWeight, 1)), agreement "
          + "\(Format.fixed(100 * h.agreementShare, 0))%")
      if let keep = h.keepChangePer100 {
        lines.append(
          "tune: in plain words: about \(Format.fixed(abs(keep), 1)) "
            + (keep >= 0 ? "more songs kept" : "fewer songs kept")
            + " per 100 the DJ plays, had it run the candidate on \(h.month)")
      }
    }
    for c in report.contexts {
      lines.append(
        "tune: context \(c.context.rawValue): \(c.claimed ? "CLAIMED" : "not claimed") — \(c.reason)"
      )
    }
    if let p = report.pairwise {
      lines.append(
        "tune: cross-check (biased: the plays you chose yourself, ranked pairwise, kept over "
          + "skipped, \(count(p.pairs)) pairs in \(count(p.sessions)) sessions): "
          + "\(weights(p.weights)); pairwise accuracy \(Format.fixed(p.pairwiseAccuracy, 2)), "
          + "cosine with the recommended weights \(Format.fixed(p.agreementWithRecommended, 2))")
    } else {
      lines.append(
        "tune: cross-check: no session of songs you chose yourself has both a kept and a "
          + "skipped play (or resonance analyze has not estimated their features)")
    }
    if let t = report.temperature {
      let factors = t.factors.map { "×" + Format.trimmed($0) }
      lines.append(
        "tune: the temperature, judged apart (the weights in force at "
          + factors.dropLast().joined(separator: ", ") + " and \(factors.last ?? "")"
          + " of their temperature, \(Format.trimmed(t.inForce)), chosen and judged the same "
          + "way): " + t.reason)
    }
    if let spending = report.spending { lines.append(ledger(spending, level: report.level)) }
    lines.append(
      "tune: recommendation: \(report.recommendation.rawValue.uppercased()) — \(report.reason)")
    if let outPath { lines.append("tune: wrote \(outPath)") }
    return lines
  }

  /// The ledger's line: what this run spent of its family's error rate, and the level that
  /// gave.
  static func ledger(_ s: ErrorLedger.Allowance, level: Double) -> String {
    let alpha = s.entry?.alpha ?? 0
    let spent = Format.fixed(s.spent, 4)
    let tested = Format.fixed(100 * level, 2) + "%"
    switch s.kind {
    case .new:
      let months = s.entry.map { "\($0.firstMonth)…\($0.throughMonth), \($0.months) months" } ?? ""
      return "tune: error rate: "
        + (s.newestBefore.map {
          "runs for these preferences before this one, through \($0), spent "
            + Format.fixed(s.spentBefore, 4)
        } ?? "the first run for these preferences")
        + "; this one (\(months)) spends \(spent) of \(Format.fixed(alpha, 2)), tested at \(tested) "
        + "(docs/tuning.md, \"Running tune every month\")"
    case .repeated:
      return "tune: error rate: a run through \(s.entry?.throughMonth ?? "") for these "
        + "preferences was made before; this one repeats its test, spending the same \(spent) "
        + "at \(tested), nothing more"
    case .retrospective:
      return "tune: error rate: runs for these preferences through \(s.newestBefore ?? "") have "
        + "spent the share of every earlier month; this run through an earlier one spends nothing"
    }
  }

  /// What every interval of `--json` estimates (`estimand`): the one-step value on the
  /// decisions judged, not the value of a history lived under the new preferences
  /// (`docs/tuning.md`, "What the intervals estimate").
  static let oneStep = "one-step"

  package static func json(_ report: TuningReport, outPath: String?) -> JSONValue {
    let r = report.replay
    var heldOut: JSONValue = .null
    if let h = report.heldOut {
      heldOut = [
        "month": .string(h.month), "decisions": .integer(h.decisions),
        "in_force": .number(h.inForceValue), "candidate": .number(h.chosenValue),
        "gain": .number(h.gain.estimate), "lower": .number(h.gain.lower),
        "upper": .number(h.gain.upper), "level": .number(h.gain.level),
        "estimand": .string(oneStep), "effective_sample_size": .number(h.effectiveSampleSize),
        "largest_weight": .number(h.largestWeight), "agreement_share": .number(h.agreementShare),
        "keep_change_per_100": .number(h.keepChangePer100),
        "clipping": .array(
          h.clipping.map { ["threshold": .number($0.threshold), "gain": .number($0.gain)] }),
      ]
    }
    return [
      "format_version": 2, "recommendation": .string(report.recommendation.rawValue),
      "clears_margin": report.clearsMargin.map { .bool($0) } ?? .null,
      "clears_zero": report.clearsZero.map { .bool($0) } ?? .null,
      "reason": .string(report.reason), "out": .text(outPath),
      "reward": .string(report.reward.rawValue),
      "estimator": .string(report.estimator.rawValue),
      "design": .string(report.design.description), "design_points": .integer(report.designPoints),
      "decisions": .integer(report.decisions), "months": .array(report.months.map { .string($0) }),
      "from": .text(report.from), "to": .text(report.to),
      "excluded": .object(report.excluded.mapValues { .integer($0) }),
      "clipped_propensities": .integer(report.clippedPropensities ?? 0),
      "replay": [
        "replayed": .integer(r.replayed),
        "by_version": .object(
          Dictionary(uniqueKeysWithValues: r.byVersion.map { ("\($0.key)", .integer($0.value)) })),
        "not_replayable": .object(r.notReplayable.mapValues { .integer($0) }),
        "largest_score_difference": .number(r.largestScoreDifference),
        "largest_propensity_relative_difference": .number(r.largestPropensityRelativeDifference),
        "first_mismatch": .text(r.firstMismatch),
      ],
      "in_force": json(report.inForce.weights), "recommended": json(report.recommended.weights),
      "candidate": report.candidate.map { json($0.weights) } ?? .null,
      "selection_gain": .number(report.selectionGain),
      "forward_gain": report.forwardGain.map { g -> JSONValue in
        [
          "gain": .number(g.estimate), "lower": .number(g.lower), "upper": .number(g.upper),
          "level": .number(g.level), "decisions": .integer(report.judgedDecisions ?? 0),
          "estimand": .string(oneStep),
        ]
      } ?? .null,
      "selection_effective_sample_size": .number(report.selectionESS),
      "folds": .array(
        report.folds.map {
          [
            "month": .string($0.month), "decisions": .integer($0.decisions),
            "gain": .number($0.gain), "weights": $0.weights.map(json) ?? .null,
            "estimator_parameter": .number($0.estimatorParameter),
          ]
        }),
      "held_out": heldOut,
      "contexts": .array(
        report.contexts.map { c in
          [
            "context": .string(c.context.rawValue), "decisions": .integer(c.decisions),
            "held_out_decisions": .integer(c.heldOutDecisions),
            "weights": c.weights.map(json) ?? .null, "gain": .number(c.gain?.estimate),
            "lower": .number(c.gain?.lower), "upper": .number(c.gain?.upper),
            "level": .number(c.gain?.level), "estimand": .string(oneStep),
            "effective_sample_size": .number(c.effectiveSampleSize), "claimed": .bool(c.claimed),
            "reason": .string(c.reason),
          ]
        }),
      "pairwise": report.pairwise.map { p in
        [
          "plays": .integer(p.plays), "sessions": .integer(p.sessions),
          "pairs": .integer(p.pairs), "weights": json(p.weights),
          "pairwise_accuracy": .number(p.pairwiseAccuracy),
          "cosine_with_recommended": .number(p.agreementWithRecommended),
        ]
      } ?? .null,
      "minimum_effective_sample_size": .number(report.minimumESS),
      "level": .number(report.level), "margin": .number(report.margin),
      "temperature": report.temperature.map { t -> JSONValue in
        [
          "in_force": .number(t.inForce), "factors": .array(t.factors.map { .number($0) }),
          "candidate_factor": .number(t.candidateFactor),
          "forward_gain": t.forwardGain.map { g -> JSONValue in
            [
              "gain": .number(g.estimate), "lower": .number(g.lower), "upper": .number(g.upper),
              "level": .number(g.level), "estimand": .string(oneStep),
            ]
          } ?? .null,
          "held_out": t.heldOut.map { g -> JSONValue in
            [
              "gain": .number(g.estimate), "lower": .number(g.lower), "upper": .number(g.upper),
              "estimand": .string(oneStep), "effective_sample_size": .number(t.heldOutESS),
            ]
          } ?? .null,
          "folds": .array(
            t.folds.map {
              [
                "month": .string($0.month), "factor": .number($0.temperatureFactor),
                "gain": .number($0.gain),
              ]
            }),
          "claimed": .bool(t.claimed), "applied": .bool(t.applied), "reason": .string(t.reason),
        ]
      } ?? .null,
      "ledger": report.spending.map { s -> JSONValue in
        [
          "kind": .string(s.kind.rawValue), "spent": .number(s.spent),
          "spent_before": .number(s.spentBefore), "alpha": .number(s.entry?.alpha),
          "first_month": .text(s.entry?.firstMonth), "through_month": .text(s.entry?.throughMonth),
          "months": s.entry.map { .integer($0.months) } ?? .null,
          "newest_before": .text(s.newestBefore),
        ]
      } ?? .null,
    ]
  }
}
