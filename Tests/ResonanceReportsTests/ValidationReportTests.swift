import ResonanceModel
import Testing

@testable import ResonanceReports

@Suite("Validation report")
struct ValidationReportTests {
  /// The 12-month set's figures (`docs/validation.md`), every goal met.
  static let met = ValidationReport(
    breathing: BreathingValidation(
      sessions: 146, spearmanScore: 0.9122260028944232, spearmanPhaseLocking: 0.9816070751338943,
      followedSessions: 19, maxRateError: 0.28208386277001285),
    contexts: ContextValidation(
      plays: 22197, agreeing: 20406,
      confusions: [
        .init(lived: .general, reconstructed: .relax, plays: 535),
        .init(lived: .relax, reconstructed: .general, plays: 439),
        .init(lived: .commute, reconstructed: .deepWork, plays: 208),
        .init(lived: .preSleep, reconstructed: .relax, plays: 139),
      ]),
    effects: [
      EffectValidation(
        signal: .heartRate, effectScale: 1, songs: 186, covered: 165, distinguishable: 77,
        distinguishableRightSign: 76, songsWithEightPlays: 171, spearman: 0.8580795353637171,
        spearmanGoal: nil),
      EffectValidation(
        signal: .hrv, effectScale: 1, songs: 180, covered: 162, distinguishable: 52,
        distinguishableRightSign: 52, songsWithEightPlays: 162, spearman: 0.7194115961787341,
        spearmanGoal: nil),
    ],
    features: [
      FeatureValidation(
        feature: .bpm,
        bySource: [
          .init(
            source: .genreRidge, songs: 295, meanAbsoluteError: 13.099076877084801, covered: 267
          ),
          .init(source: .library, songs: 105, meanAbsoluteError: 1.1714285714285715, covered: 103),
        ]),
      FeatureValidation(
        feature: .energy,
        bySource: [
          .init(
            source: .genrePrior, songs: 400, meanAbsoluteError: 0.10126499999999995, covered: 393)
        ]),
    ])

  @Test("the text is docs/validation.md's, with no mark where every goal is met")
  func textMet() {
    #expect(
      Self.met.lines(truthPath: "/tmp/v12/truth.json") == [
        "breathing: 146 sessions matched to /tmp/v12/truth.json",
        "  Spearman(Resonance Score, planted adherence)  0.912   goal ≥ 0.8",
        "  Spearman(phase locking, planted adherence)    0.982   goal ≥ 0.8",
        "  sessions that followed the pacer throughout   19",
        "  largest breathing-rate error among them       0.282 breaths/min   goal ≤ 0.5",
        "  goals met",
        "sessions: 20406 of 22197 plays (0.919) in a session given the context they were lived in; most often confused: general → relax 535, relax → general 439, commute → deep-work 208",
        "song effects on heart rate (bpm): 186 songs estimated (effect scale 1.0)",
        "  90% intervals covering the planted effect      0.887   goal 0.85–0.95",
        "  distinguishable from the average song          77 (76 with the planted sign)",
        "  Spearman(estimate, planted), ≥ 8 plays         0.858 over 171 songs   no goal at this scale",
        "song effects on HRV (SDNN ms): 180 songs estimated (effect scale 1.0)",
        "  90% intervals covering the planted effect      0.900   goal 0.85–0.95",
        "  distinguishable from the average song          52 (52 with the planted sign)",
        "  Spearman(estimate, planted), ≥ 8 plays         0.719 over 162 songs   no goal at this scale",
        "song features against the planted ones (mean absolute error; share within ± 1.645 sd):",
        "  bpm: genre-ridge 13.1 over 295 songs (0.91); library 1.2 over 105 songs (0.98)",
        "  energy: genre-prior 0.101 over 400 songs (0.98)",
      ])
    #expect(Self.met.missedGoalsLine == nil)
  }

  @Test("a missed goal says 'goal NOT met' on its line, and the missed goals line names it")
  func textMissed() {
    var report = Self.met
    report.breathing?.spearmanScore = nil
    report.effects[1].covered = 132  // 0.733
    report.effects[0].effectScale = 3
    report.effects[0].spearmanGoal = .rankCorrelation
    report.effects[0].spearman = 0.79
    let lines = report.lines(truthPath: "t.json")
    #expect(
      lines[1] == "  Spearman(Resonance Score, planted adherence)  –   goal ≥ 0.8 — goal NOT met")
    #expect(lines[2] == "  Spearman(phase locking, planted adherence)    0.982   goal ≥ 0.8")
    #expect(lines[5] == "  goals NOT met")
    #expect(lines[7] == "song effects on heart rate (bpm): 186 songs estimated (effect scale 3.0)")
    #expect(
      lines[10]
        == "  Spearman(estimate, planted), ≥ 8 plays         0.790 over 171 songs   goal ≥ 0.8 — goal NOT met"
    )
    #expect(
      lines[12]
        == "  90% intervals covering the planted effect      0.733   goal 0.85–0.95 — goal NOT met"
    )
    #expect(lines.filter { $0.contains("goal NOT met") }.count == 3)
    #expect(
      report.missedGoalsLine
        == "validate: 3 goals not met: breathing: Spearman(Resonance Score, planted adherence) – (goal ≥ 0.8); song effects on heart rate (bpm): Spearman(estimate, planted) 0.790 (goal ≥ 0.8); song effects on HRV (SDNN ms): 90% interval coverage 0.733 (goal 0.85–0.95)"
    )
  }

  @Test("JSON keys and values are the command's documented shape")
  func json() throws {
    guard case .object(let top) = Self.met.json else {
      Issue.record("not an object")
      return
    }
    #expect(
      top.keys.sorted() == [
        "breathing", "changes", "format_version", "goals_met", "practice", "sessions",
        "song_effects", "song_features", "tuning",
      ])
    #expect(top["format_version"] == 1 && top["goals_met"] == true)
    #expect(
      top["breathing"]
        == [
          "sessions": 146, "spearman_score_adherence": .double(0.9122260028944232),
          "spearman_plv_adherence": .double(0.9816070751338943), "followed_sessions": 19,
          "max_rate_error_followed": .double(0.28208386277001285), "goals_met": true,
        ])
    guard case .object(let sessions) = top["sessions"] else {
      Issue.record("no sessions")
      return
    }
    #expect(sessions.keys.sorted() == ["agreeing", "confusions", "plays", "share"])
    guard case .array(let confusions) = sessions["confusions"] else {
      Issue.record("no confusions")
      return
    }
    #expect(confusions.count == 4)
    #expect(confusions[2] == ["lived": "commute", "reconstructed": "deep-work", "plays": 208])
    guard case .object(let effects) = top["song_effects"] else {
      Issue.record("no song_effects")
      return
    }
    #expect(effects.keys.sorted() == ["hr", "hrv"])
    #expect(
      effects["hrv"]
        == [
          "songs": 180, "interval_coverage": .double(0.9), "coverage_goal_met": true,
          "distinguishable_from_zero": 52, "distinguishable_right_sign": 52,
          "songs_with_8_plays": 162, "spearman_vs_planted": .double(0.7194115961787341),
          "spearman_goal": nil, "spearman_goal_met": nil, "effect_scale": .double(1),
        ])
    #expect(
      top["song_features"]
        == [
          "bpm": [
            "genre-ridge": [
              "songs": 295, "mean_absolute_error": .double(13.099076877084801),
              "interval_coverage": .double(267.0 / 295),
            ],
            "library": [
              "songs": 105, "mean_absolute_error": .double(1.1714285714285715),
              "interval_coverage": .double(103.0 / 105),
            ],
          ],
          "energy": [
            "genre-prior": [
              "songs": 400, "mean_absolute_error": .double(0.10126499999999995),
              "interval_coverage": .double(0.9825),
            ]
          ],
        ])
  }

  @Test("JSON: a missed goal is false, the Spearman goal a number where it applies, nil is null")
  func jsonMissed() {
    var report = ValidationReport(
      breathing: BreathingValidation(
        sessions: 2, spearmanScore: nil, spearmanPhaseLocking: nil, followedSessions: 0,
        maxRateError: nil),
      effects: [
        EffectValidation(
          signal: .heartRate, effectScale: 3, songs: 10, covered: 8, distinguishable: 0,
          distinguishableRightSign: 0, songsWithEightPlays: 2, spearman: nil,
          spearmanGoal: .rankCorrelation)
      ])
    #expect(report.hasMissedGoal)
    guard case .object(let top) = report.json else {
      Issue.record("not an object")
      return
    }
    #expect(
      top.keys.sorted() == [
        "breathing", "changes", "format_version", "goals_met", "practice", "sessions",
        "song_effects", "song_features", "tuning",
      ])
    #expect(top["sessions"] == .null && top["song_features"] == .null && top["goals_met"] == false)
    #expect(
      top["breathing"]
        == [
          "sessions": 2, "spearman_score_adherence": nil, "spearman_plv_adherence": nil,
          "followed_sessions": 0, "max_rate_error_followed": nil, "goals_met": false,
        ])
    #expect(
      top["song_effects"]
        == [
          "hr": [
            "songs": 10, "interval_coverage": .double(0.8), "coverage_goal_met": false,
            "distinguishable_from_zero": 0, "distinguishable_right_sign": 0,
            "songs_with_8_plays": 2, "spearman_vs_planted": nil, "spearman_goal": .double(0.8),
            "spearman_goal_met": false,
            "effect_scale": .double(3),
          ]
        ])
    report.effects = []
    report.breathing = nil
    #expect(
      report.json
        == [
          "format_version": 1, "goals_met": true, "breathing": nil, "sessions": nil,
          "song_effects": nil, "song_features": nil, "tuning": nil, "practice": nil,
          "changes": nil,
        ] && report.lines(truthPath: "t").isEmpty)
  }

  @Test(
    "practice and changes: each effect with planted, estimate, interval and covered; each signal right or not"
  )
  func practiceAndChanges() throws {
    var report = ValidationReport()
    report.practice = PracticeValidation(effects: [
      .init(name: "practice_acute_sdnn_ms", planted: 5, estimate: 4.5, low90: 3.5, high90: 5.5),
      .init(name: "practice_night_sdnn_ms", planted: 5, estimate: nil, low90: nil, high90: nil),
    ])
    report.changes = ChangeValidation(
      planted: CalendarDay("2023-01-10"),
      findings: [
        .init(signal: .restingHeartRate, flagged: CalendarDay("2023-01-12"), searched: true),
        .init(signal: .morningLnRMSSD, flagged: nil, searched: true),
      ])
    guard case .object(let top) = report.json else {
      Issue.record("not an object")
      return
    }
    #expect(
      top["practice"]
        == [
          "practice_acute_sdnn_ms": [
            "planted": .double(5), "estimate": .double(4.5), "low90": .double(3.5),
            "high90": .double(5.5), "covered": true,
          ],
          "practice_night_sdnn_ms": [
            "planted": .double(5), "estimate": nil, "low90": nil, "high90": nil, "covered": nil,
          ],
        ])
    #expect(
      top["changes"]
        == [
          "planted": "2023-01-10", "tolerance_days": 14,
          "signals": [
            "resting_hr_bpm": ["flagged": "2023-01-12", "searched": true, "right": true],
            "morning_ln_rmssd": ["flagged": nil, "searched": true, "right": false],
          ],
        ])
    let lines = report.lines(truthPath: "t")
    #expect(lines.contains { $0.contains("+4.50 (+3.50 … +5.50)   planted +5.00   covered") })
    #expect(lines.contains { $0.contains("too few days") })
    #expect(lines.contains { $0.contains("flagged from 2023-01-12   right") })
    #expect(lines.contains { $0.contains("none flagged   WRONG") })
  }

  @Test("the one-step truth: its JSON object and its line, the gain signed")
  func oneStep() {
    let report = ValidationReport(
      tuning: OneStepTruth(
        reward: .keep, decisions: 4_210, inForce: 0.55, preferences: 0.5625,
        estimatedGains: [.dr: 0.01, .switchDR: 0.02]))
    #expect(!report.isEmpty, "a one-step truth alone is a report")
    guard case .object(let top) = report.json else {
      Issue.record("not an object")
      return
    }
    #expect(
      top["tuning"]
        == [
          "reward": "keep", "decisions": 4_210,
          "one_step": ["in_force": 0.55, "preferences": 0.5625, "gain": .double(0.5625 - 0.55)],
          "estimated_gain": ["dr": 0.01, "switch-dr": 0.02], "best_point": nil,
        ])
    #expect(
      report.lines(truthPath: "t")
        == [
          "one-step truth (keep, 4,210 decisions): preferences in force 0.5500, the file's "
            + "0.5625, gain +0.0125"
        ])
  }

  @Test("goals read as the text gives them")
  func goalText() {
    #expect(ValidationReport.text(.rankCorrelation) == "≥ 0.8")
    #expect(ValidationReport.text(.breathingRateError) == "≤ 0.5")
    #expect(ValidationReport.text(.intervalCoverage) == "0.85–0.95")
  }
}
