import ResonanceModel

/// Plays without a decision log, as pairwise learning-to-rank reads them: per session, each
/// played song's seven component values at the moment it started and whether it was kept.
/// Struct-of-arrays, like `LoggedDecisions`.
///
/// Session s's plays are `sessionStart[s] ..< sessionStart[s + 1]`; `components` holds seven
/// values a play in `ScoringWeights`' order, each 0 … 1; `kept` one flag a play.
package struct PlayOutcomes: Sendable, Equatable {
  /// Play offsets, one more than the sessions, the first 0.
  package var sessionStart: [Int]
  /// Seven component values a play, row-major.
  package var components: [Double]
  /// Per play: kept (true) or skipped (false).
  package var kept: [Bool]

  /// Plays from their arrays (empty by default).
  ///
  /// - Precondition: the arrays fit together as described on the type.
  package init(sessionStart: [Int] = [0], components: [Double] = [], kept: [Bool] = []) {
    precondition(sessionStart.first == 0, "session offsets start at 0")
    precondition(zip(sessionStart, sessionStart.dropFirst()).allSatisfy { $0 <= $1 })
    precondition(components.count == 7 * kept.count && sessionStart.last == kept.count)
    self.sessionStart = sessionStart
    self.components = components
    self.kept = kept
  }

  /// Sessions.
  package var count: Int { sessionStart.count - 1 }
  /// Plays over every session.
  package var plays: Int { kept.count }
  /// The plays of session `s`.
  package func plays(of s: Int) -> Range<Int> { sessionStart[s]..<sessionStart[s + 1] }

  /// Adds a session: its plays' components and kept flags, in play order.
  ///
  /// - Precondition: one kept flag per play.
  package mutating func append(session components: [ScoringComponents], kept: [Bool]) {
    precondition(components.count == kept.count, "one kept flag per play")
    for c in components { self.components += c.vector }
    self.kept += kept
    sessionStart.append(self.kept.count)
  }
}
