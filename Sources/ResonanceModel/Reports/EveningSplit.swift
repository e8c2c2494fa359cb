/// The evenings with music split in two by what was played, and the nights after each part
/// compared (`ReportStatistics.musicSplits`): the sleep page's "which evening music" section.
package struct EveningSplit: Sendable, Equatable {
  /// The evening's figure the split goes by.
  package enum Measure: String, Sendable, Equatable, CaseIterable {
    /// The minutes-heard-weighted mean heart-rate effect of the songs (bpm against the
    /// person's average song): below the threshold is *calmer*, at or above it *more
    /// energising*.
    case heartRateEffect = "hr_effect"
    /// The minutes-heard-weighted mean tempo of the songs (BPM): below the threshold is
    /// *slower*, at or above it *faster*.
    case tempo
  }

  /// Where the threshold comes from.
  package enum Rule: Sendable, Equatable {
    /// Zero: songs that lower heart rate against the average song, against the rest.
    case zero
    /// The median of the evenings' figures (the tempo split always; halves).
    case median
    /// The median, because a split at zero would have left fewer than
    /// `ReportStatistics.balancedShare` of the evenings on one side: how they fell at zero.
    case medianForBalance(belowZero: Int, atOrAboveZero: Int)
  }

  package var measure: Measure
  package var rule: Rule
  /// Evenings whose figure is below it are the first group ("with" in `comparisons`), the
  /// others the second; nil when no evening has the figure.
  package var threshold: Double?
  /// Evenings with music, with the figure or without.
  package var eveningsWithMusic: Int
  /// Evenings with music that have the figure, below the threshold and at or above it.
  package var below: Int
  package var atOrAbove: Int
  /// For the heart-rate split, the share of those evenings' heard minutes whose song has an
  /// estimate, 0…1 (nil for the tempo split, and with no evening).
  package var coveredShare: Double?
  /// Every outcome of `ReportStatistics.sleepComparisons`, first group against second.
  package var comparisons: [GroupComparison]

  /// A split from its parts, as described on each property.
  package init(
    measure: Measure, rule: Rule, threshold: Double?, eveningsWithMusic: Int, below: Int,
    atOrAbove: Int, coveredShare: Double? = nil, comparisons: [GroupComparison]
  ) {
    self.measure = measure
    self.rule = rule
    self.threshold = threshold
    self.eveningsWithMusic = eveningsWithMusic
    self.below = below
    self.atOrAbove = atOrAbove
    self.coveredShare = coveredShare
    self.comparisons = comparisons
  }

  /// Evenings with music that have the figure.
  package var evenings: Int { below + atOrAbove }
}
