import ResonanceModel

/// What `resonance breathing` prints: a row per session, then the months and the patterns
/// compared; or the same as JSON.
package enum BreathingReport {
  /// The table for people.
  package static func table(
    _ sessions: [BreathingSessionResult], months: [BreathingGroup], patterns: [BreathingGroup]
  ) -> String {
    let n = Format.optional
    var out =
      "session  pattern  score  rate/min (pacer)  PLV   lag s  in sync  coherence (Hz)  RSA   HRV before→after  expression\n"
    for s in sessions {
      let a = s.result
      out +=
        [
          Format.padded("\(s.session)", 8), Format.padded(s.pattern, 8),
          Format.padded(n(a.resonanceScore, 0), 6),
          Format.padded("\(n(a.breathsPerMinute, 1)) (\(n(a.pacerBreathsPerMinute, 1)))", 17),
          Format.padded(n(a.phaseLocking, 2), 5), Format.padded(n(a.lagSeconds, 1), 6),
          Format.padded(a.inSyncShare.map { Format.fixed($0 * 100, 0) + "%" } ?? "–", 8),
          Format.padded("\(n(a.coherence, 2)) (\(n(a.coherencePeakHz, 3)))", 15),
          Format.padded(n(a.rsaAmplitude, 1), 5),
          Format.padded("\(n(a.hrvBefore, 1))→\(n(a.hrvAfter, 1))", 17),
          a.dominantExpression ?? "–",
        ].joined(separator: " ") + "\n"
    }
    if !months.isEmpty {
      out += "\nmonth    sessions  mean score  mean PLV\n"
      for month in months {
        out +=
          Format.padded(month.name, 9) + Format.padded("\(month.sessions)", 10)
          + Format.padded(n(month.meanScore, 1), 12) + n(month.meanPhaseLocking, 2) + "\n"
      }
    }
    out += "\npattern  sessions  mean score  mean rate/min  mean PLV\n"
    for group in patterns {
      out +=
        Format.padded(group.name, 9) + Format.padded("\(group.sessions)", 10)
        + Format.padded(n(group.meanScore, 1), 12)
        + Format.padded(n(group.meanBreathsPerMinute, 1), 15) + n(group.meanPhaseLocking, 2)
        + "\n"
    }
    return out
  }

  /// The patterns in one line: `box (4): score 72, 5.9 breaths/min, PLV 0.81; …`.
  package static func patternsLine(_ patterns: [BreathingGroup]) -> String {
    patterns.map { g in
      "\(g.name) (\(g.sessions)): score \(Format.optional(g.meanScore, 0)), "
        + "\(Format.optional(g.meanBreathsPerMinute, 1)) breaths/min, PLV "
        + Format.optional(g.meanPhaseLocking, 2)
    }.joined(separator: "; ")
  }

  /// The sessions, months and patterns as `--json` gives them (`docs/cli.md`).
  package static func json(
    _ sessions: [BreathingSessionResult], months: [BreathingGroup], patterns: [BreathingGroup]
  ) -> JSONValue {
    [
      "format_version": 1, "sessions": .array(sessions.map(json)),
      "patterns": .array(
        patterns.map {
          [
            "pattern": .string($0.name), "sessions": .integer($0.sessions),
            "mean_score": .number($0.meanScore), "mean_rate": .number($0.meanBreathsPerMinute),
            "mean_plv": .number($0.meanPhaseLocking),
          ]
        }),
      "months": .array(
        months.map {
          [
            "month": .string($0.name), "sessions": .integer($0.sessions),
            "mean_score": .number($0.meanScore), "mean_plv": .number($0.meanPhaseLocking),
          ]
        }),
    ]
  }

  static func json(_ s: BreathingSessionResult) -> JSONValue {
    let a = s.result
    return [
      "file": .string(s.file), "session": .integer(s.session), "pattern": .string(s.pattern),
      "started": .text(s.started?.iso8601UTC), "resonance_score": .number(a.resonanceScore),
      "events": .integer(a.events), "matched": .integer(a.matched), "breaths": .integer(a.breaths),
      "breaths_per_minute": .number(a.breathsPerMinute),
      "rate_variability": .number(a.rateVariability),
      "pacer_breaths_per_minute": .number(a.pacerBreathsPerMinute),
      "phase_locking": .number(a.phaseLocking), "lag_seconds": .number(a.lagSeconds),
      "in_sync_share": .number(a.inSyncShare), "coherence": .number(a.coherence),
      "coherence_peak_hz": .number(a.coherencePeakHz), "rsa_amplitude": .number(a.rsaAmplitude),
      "hrv_before": .number(a.hrvBefore), "hrv_after": .number(a.hrvAfter),
      "dominant_expression": .text(a.dominantExpression),
      "notes": .array(a.notes.map { .string($0) }),
    ]
  }
}
