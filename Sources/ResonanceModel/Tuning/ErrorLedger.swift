/// How `resonance tune` keeps its false-change rate at the level when it is run again every
/// month (`docs/tuning.md`, "Running tune every month"): the error rate α = 1 − level is a
/// budget, spent across runs over the months that are new since the last run, for one
/// **family** of tests — the preferences in force. A new family (the person changed their
/// preferences) starts a new budget.
///
/// A run through month M of a family whose history begins at month O (its first run's first
/// month) has read n = M − O + 1 months; all runs through n months may spend α · g(n) in total,
/// with g(n) = n / (n + 3): half of α by the third month, two thirds by the sixth, four fifths
/// by the twelfth, never all of it. A run spends the difference from the family's newest run
/// before it. However many runs there are, their spending sums to less than α, so the chance
/// that any of them says `change` when no candidate is better is at most α (Bonferroni over
/// runs, which needs no model of how their evidence overlaps).
package enum ErrorLedger {
  /// The months at which half the budget is spent.
  package static let halfSpentAt = 3.0

  /// g(n): the share of the budget all runs through `months` months may spend.
  package static func share(months n: Int) -> Double {
    n <= 0 ? 0 : Double(n) / (Double(n) + halfSpentAt)
  }

  /// One run's line in the ledger.
  package struct Entry: Sendable, Equatable, Codable {
    /// The family: the preferences in force, as canonical JSON.
    package var family: String
    /// The family's first month (`YYYY-MM`) and the run's last.
    package var firstMonth: String
    package var throughMonth: String
    /// Months from the first to the last, both counted (n).
    package var months: Int
    /// The budget α as this run was asked for it, and what it spent of it.
    package var alpha: Double
    package var spent: Double

    package init(
      family: String, firstMonth: String, throughMonth: String, months: Int, alpha: Double,
      spent: Double
    ) {
      self.family = family
      self.firstMonth = firstMonth
      self.throughMonth = throughMonth
      self.months = months
      self.alpha = alpha
      self.spent = spent
    }
  }

  /// What a run may spend, and why.
  package struct Allowance: Sendable, Equatable, Codable {
    package enum Kind: String, Sendable, Codable {
      /// The family's first run, or one through a month after its newest: it spends, and is
      /// recorded.
      case new
      /// A run through a month the family has already been tested through: the same test
      /// again, at the same spending; nothing more is recorded.
      case repeated
      /// A run through a month before the family's newest that it was never tested through:
      /// later runs have spent its share, so it can only keep.
      case retrospective
    }
    package var kind: Kind
    /// What the run spends: the error rate its tests share.
    package var spent: Double
    /// What the family's earlier runs spent, in total.
    package var spentBefore: Double
    /// The line to record (`kind == .new`), or the one repeated.
    package var entry: Entry?
    /// The family's newest month before this run, if any.
    package var newestBefore: String?
  }

  /// A month (`YYYY-MM`) as a count of months, for differences; nil for other text.
  package static func index(_ month: String) -> Int? {
    let parts = month.split(separator: "-")
    guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, let y = Int(parts[0]),
      let m = Int(parts[1]), (1...12).contains(m)
    else { return nil }
    return y * 12 + m - 1
  }

  /// What an experiment on a family holds of its budget (`docs/experiments.md`, "Merging
  /// with tune's evidence"): a randomised experiment is one more test that the family's
  /// preferences should change, so its error rate comes out of the same budget α. It is set
  /// at the experiment's first analysis, and later `tune` runs of the family spend at most
  /// what is left beside it.
  package struct Reservation: Sendable, Equatable, Codable {
    package var family: String
    /// The plan's seed and first day, which name the experiment.
    package var seed: UInt64
    package var start: String
    package var alpha: Double

    package init(family: String, seed: UInt64, start: String, alpha: Double) {
      self.family = family
      self.seed = seed
      self.start = start
      self.alpha = alpha
    }
  }

  /// The error rate an experiment on `family` may test at: half of what the family's budget
  /// `alpha` has left after its `tune` runs (`entries`) and its other experiments
  /// (`reserved`), so that `tune` keeps the other half for the months to come. Every test of
  /// the family then spends, in all, at most `alpha` (Bonferroni across runs and experiments).
  package static func experimentShare(
    family: String, alpha: Double, entries: [Entry], reserved: [Reservation]
  ) -> Double {
    let spent = entries.filter { $0.family == family }.reduce(0) { $0 + $1.spent }
    let held = reserved.filter { $0.family == family }.reduce(0) { $0 + $1.alpha }
    return max(0, alpha - spent - held) / 2
  }

  /// The allowance of a run of `family` whose history runs from `first` to `through`, asked
  /// at error rate `alpha`, given every entry of the ledger (any family's) and what the
  /// family's experiments hold (`reserved`): the run spends its months' share, but never more
  /// than the family has left beside its experiments.
  package static func allowance(
    family: String, first: String, through: String, alpha: Double, entries: [Entry],
    reserved: [Reservation] = []
  ) -> Allowance {
    let mine = entries.filter { $0.family == family }.sorted {
      (index($0.throughMonth) ?? 0) < (index($1.throughMonth) ?? 0)
    }
    let spentBefore = mine.reduce(0) { $0 + $1.spent }
    if let same = mine.first(where: { $0.throughMonth == through }) {
      return Allowance(
        kind: .repeated, spent: same.spent, spentBefore: spentBefore - same.spent, entry: same,
        newestBefore: mine.last { $0.throughMonth != through }?.throughMonth)
    }
    let origin = mine.first?.firstMonth ?? first
    let m = index(through) ?? 0
    let newest = mine.last
    if let newest, m < (index(newest.throughMonth) ?? 0) {
      return Allowance(
        kind: .retrospective, spent: 0, spentBefore: spentBefore, entry: nil,
        newestBefore: newest.throughMonth)
    }
    let n = m - (index(origin) ?? m) + 1
    let held = reserved.filter { $0.family == family }.reduce(0) { $0 + $1.alpha }
    let scheduled = alpha * (share(months: n) - share(months: newest?.months ?? 0))
    let spent = max(0, min(scheduled, alpha - spentBefore - held))
    return Allowance(
      kind: .new, spent: spent, spentBefore: spentBefore,
      entry: Entry(
        family: family, firstMonth: origin, throughMonth: through, months: n, alpha: alpha,
        spent: spent),
      newestBefore: newest?.throughMonth)
  }
}
