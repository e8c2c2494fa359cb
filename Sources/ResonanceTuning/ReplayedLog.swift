import ResonanceModel

/// The decision history read once, a stretch at a time, into what `Tuner` and `Sweeper` need
/// from it: the replay check (`DecisionReplay`), the log evaluation reads
/// (`DecisionLogAssembler`) and the preferences in force at the last decision.
///
/// Only the assembled numbers stay. A stretch's records (each candidate's song and artist,
/// inputs and logged scores) are dropped once read, so a decade of decisions costs the memory
/// of its candidates' components and propensities, not of its lines; and stretches read one
/// after another give what the whole history read at once does, bit for bit.
package struct ReplayedLog: Sendable {
  /// What the replay found, over every stretch added.
  package private(set) var check = ReplayCheck()
  /// The preferences in force at the history's last decision: the last stated at or before
  /// it, the app's when none was.
  package let inForce: UserPreferences
  private var builder: DecisionLogAssembler.Builder
  /// The preferences stated last in the stretches added so far.
  private var current: UserPreferences?
  /// Whether each stretch is replayed (the sweep estimates without replaying).
  private let replays: Bool

  /// Decisions read, over every stretch.
  package var records: Int { builder.records }

  /// An empty log, for a history whose last decision has `lastStated` in force (nil when it
  /// has none); with `replays` false, `check` stays empty.
  package init(lastStated: UserPreferences?, replays: Bool = true) {
    inForce = lastStated ?? .appDefault
    builder = DecisionLogAssembler.Builder(policy: inForce.policy)
    self.replays = replays
  }

  /// A whole history read at once: the reference the stretches are checked against. The
  /// preferences in force are the last stated outside an experiment's days.
  package init(_ history: DecisionHistory, replays: Bool = true) {
    self.init(
      lastStated: history.records.last { $0.preferences != nil && $0.arm == nil }?.preferences
        ?? DecisionReplay.preferencesInForce(history.records).last ?? nil,
      replays: replays)
    add(history)
  }

  /// Replays and assembles the next stretch of the history.
  ///
  /// - Complexity: O(candidates of the stretch).
  package mutating func add(_ stretch: DecisionHistory) {
    let inForce = stretch.records.map { record in
      if let stated = record.preferences { current = stated }
      return current
    }
    if replays { DecisionReplay.check(stretch.records, inForce: inForce, into: &check) }
    builder.add(stretch, inForce: inForce)
  }

  /// The log evaluation reads, with the missing-response model's rewards.
  ///
  /// - Throws: `TuningError` of kind `fitFailed` when the missing-response model cannot be
  ///   fitted.
  package consuming func assembled() throws(TuningError) -> DecisionLogAssembler.Assembled {
    try builder.finish()
  }
}
