/// Why the tuning stage could not evaluate a decision log or fit a model: the log's arrays do
/// not fit together, a logged propensity cannot be divided by, nothing was measured, or a
/// regression could not be solved.
package struct TuningError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong.
  package enum Kind: Equatable, Sendable {
    /// The log's arrays do not fit together (counts, row offsets, a chosen row outside its
    /// decision, a value that is not finite).
    case inconsistentLog
    /// A chosen row's logged propensity is not finite and positive, so no importance weight
    /// can be formed for it.
    case unusablePropensity
    /// No decision has the reward measured.
    case noMeasuredReward
    /// No session has both a kept and a skipped play, so there is no pair to learn from.
    case noPairs
    /// A linear system could not be solved (`ResonanceLinear.LinearAlgebraError`'s message in
    /// `detail`).
    case fitFailed
  }

  /// What went wrong.
  package var kind: Kind
  /// The decision (or session, for `noPairs`) where it went wrong, counted from 0; nil when
  /// it concerns the whole input.
  package var decision: Int?
  /// What was expected and what was found, lower case, no final full stop.
  package var detail: String

  /// An error of `kind` at `decision` (nil: the whole input), described by `detail`.
  package init(_ kind: Kind, decision: Int? = nil, _ detail: String) {
    self.kind = kind
    self.decision = decision
    self.detail = detail
  }

  /// `decision 12: …`, or the detail alone when no decision is named.
  package var description: String {
    decision.map { "decision \($0): \(detail)" } ?? detail
  }
}
