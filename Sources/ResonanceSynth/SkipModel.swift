/// How likely the simulated person is to skip a song (`docs/synth.md`, "Keeps and skips").
///
/// The chance is linear in how far the song's utility to the person falls below a fixed
/// reference: the mean utility of every song the context's playlist offered at that moment
/// (what a DJ choosing blindly would give). The reference does not move with what was played,
/// so a DJ that chooses better lowers the skip share for good, and an offline estimate that
/// holds the history fixed measures the same quantity the closed loop does.
enum SkipModel {
  /// Skip chance per unit of utility below the reference, DJ plays and the person's own.
  static let djSlope = 3.0
  static let ownSlope = 2.0
  /// Added to the person's target skip share for DJ plays, so that the app's default
  /// preferences give that share: a DJ under the defaults plays songs worth more than the
  /// reference. Chosen by measuring: seed 1's twelve months give 0.426 (`docs/synth.md`).
  static let djCalibration = 0.46
  /// The skip share of the person's own choices at the reference.
  static let ownBase = 0.37

  static func chance(utility: Double, reference: Double, byDJ: Bool, targetSkipShare: Double)
    -> Double
  {
    byDJ
      ? max(0.03, min(0.95, targetSkipShare + djCalibration + djSlope * (reference - utility)))
      : max(0.02, min(0.6, ownBase + ownSlope * (reference - utility)))
  }

  /// A flat person's skip chance, the same for every song: the target share for a DJ pick,
  /// the base for the person's own.
  static func flatChance(byDJ: Bool, targetSkipShare: Double) -> Double {
    byDJ ? targetSkipShare : ownBase
  }
}
