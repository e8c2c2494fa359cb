import ResonanceModel

/// `sleep.md`'s "which evening music" section: the evenings with music split by what was
/// played in them, and its CSV, `sleep-by-music.csv`.
extension SleepPage {
  /// How the page names a split's two parts and its figure.
  struct SplitWords {
    let title: String
    let first: String
    let second: String
    let unit: String
    let places: Int

    init(_ measure: EveningSplit.Measure) {
      switch measure {
      case .heartRateEffect:
        self.init(
          title: "Calmer against more energising songs", first: "calmer",
          second: "more energising", unit: "bpm", places: 2)
      case .tempo:
        self.init(
          title: "Slower against faster songs", first: "slower", second: "faster", unit: "BPM",
          places: 1)
      }
    }

    init(title: String, first: String, second: String, unit: String, places: Int) {
      self.title = title
      self.first = first
      self.second = second
      self.unit = unit
      self.places = places
    }
  }

  /// The comparison table's rows: each outcome's counts, means, difference and adjusted
  /// difference, time asleep to two places and the others to one.
  static func comparisonRows(_ comparisons: [GroupComparison]) -> [[String]] {
    comparisons.map { c in
      let places = c.unit == "h" ? 2 : 1
      return [
        "\(c.label) (\(c.unit))", "\(c.nightsWith) / \(c.nightsWithout)",
        Format.optional(c.meanWith, places), Format.optional(c.meanWithout, places),
        Figures.interval(c.difference, c.low90, c.high90, places),
        Figures.interval(c.adjusted, c.adjustedLow90, c.adjustedHigh90, places),
      ]
    }
  }

  /// The section, from `## Which evening music` to its statement that these are
  /// associations; empty when there are no splits.
  static func musicSection(_ splits: [EveningSplit], eveningHours: Double) -> String {
    guard !splits.isEmpty else { return "" }
    var text = "## Which evening music\n\n"
    text += "The evenings with music again, now split in two by what was played in them. Each "
    text += "evening's figure is a mean over the songs heard in the "
    text += "\(Format.fixed(eveningHours, 0)) hours before bedtime, each song weighted by the "
    text += "minutes it was heard then (`sleep.csv` has every evening's figures). The nights "
    text += "after the two parts are compared as above: the difference is the mean after the "
    text += "first part less the mean after the second, with its bootstrap 90% interval and its "
    text += "figure adjusted for the weekday, a workout and the bedtime.\n\n"
    for split in splits {
      text += splitText(split)
    }
    text += "**These too are associations, not causes.** Nobody chose the evenings' music at "
    text += "random: calmer or slower songs may go with a quieter evening, tiredness or a "
    text += "mood that shapes the night as well, and the songs' effects "
    text += "and tempi are themselves estimates. Both splits compare evenings with music only; "
    text += "the regression takes out only the weekday, workouts and the bedtime.\n\n"
    return text
  }

  /// One split's subsection: how its figure is made, where the evenings were split, the table,
  /// and which outcomes had too few nights to compare.
  static func splitText(_ split: EveningSplit) -> String {
    let words = SplitWords(split.measure)
    var text = "### \(words.title)\n\n"
    switch split.measure {
    case .heartRateEffect:
      text += "An evening's *song effect* is the mean of its songs' heart-rate effects from the "
      text += "song-response model (the change in heart rate while a song plays, against the "
      text += "person's average song, as `songs.md` gives them); songs without an estimate are "
      text += "left out. "
      guard split.evenings > 0 else {
        text += "No evening with music has a song with a heart-rate estimate yet: "
        text += "`resonance analyze` fits them from the heart-rate readings around the plays.\n\n"
        return text
      }
      text +=
        split.evenings == split.eveningsWithMusic
        ? "All \(split.evenings) evenings with music had "
        : "\(split.evenings) of the \(split.eveningsWithMusic) evenings with music had "
      text += "a song with an estimate, and \(Figures.percent(split.coveredShare)) of their "
      text += "listening was of songs with one. "
    case .tempo:
      text += "An evening's *tempo* is the mean BPM of its songs, each song's best estimate "
      text += "(its library's BPM, else its genre's estimate, as `songs.md` counts them). "
      guard split.evenings > 0 else {
        text += "No evening with music has a song with a tempo estimate yet: "
        text += "`resonance analyze` writes them.\n\n"
        return text
      }
    }
    let threshold = split.threshold ?? 0
    let at = "\(Figures.signed(threshold, words.places)) \(words.unit)"
    let parts =
      "\(split.below) *\(words.first)* evenings (below) against \(split.atOrAbove) "
      + "*\(words.second)* ones (at or above)"
    switch split.rule {
    case .zero:
      text += "They are split at 0 bpm: \(split.below) *\(words.first)* evenings, whose songs "
      text += "lower heart rate against the average song (below 0), against \(split.atOrAbove) "
      text += "*\(words.second)* ones (0 or more).\n\n"
    case .median where split.measure == .tempo:
      text += "The \(split.evenings) evenings with music that have one are split at their "
      text += "median tempo, \(Format.fixed(threshold, words.places)) BPM: the \(parts).\n\n"
    case .median:
      text += "They are split at their median, \(at): the \(parts).\n\n"
    case .medianForBalance(let belowZero, let atOrAboveZero):
      text += "At 0 bpm the split would be \(belowZero) against \(atOrAboveZero), fewer than a "
      text += "quarter of the evenings on one side, so it is at their median, \(at): the "
      text += "\(parts). Both parts' songs may then lower, or both raise, heart rate against "
      text += "the average song; the split says only which evenings' songs were calmer.\n\n"
    }
    text += Markdown.table(
      header: [
        "outcome", "nights \(words.first) / \(words.second)", "mean \(words.first)",
        "mean \(words.second)", "difference (90%)", "adjusted (90%)",
      ],
      rows: comparisonRows(split.comparisons), alignments: ["l", "r", "r", "r", "r", "r"])
    text += "\n"
    if let sentence = tooFew(split.comparisons, words: words) { text += sentence + "\n\n" }
    return text
  }

  /// The sentence naming the outcomes with fewer than five nights after either part, with
  /// their counts; nil when every outcome was compared.
  static func tooFew(_ comparisons: [GroupComparison], words: SplitWords) -> String? {
    let short = comparisons.filter { $0.difference == nil }
    guard !short.isEmpty else { return nil }
    let named = short.map { "\($0.label) (\($0.nightsWith) / \($0.nightsWithout))" }
    let which =
      short.count == comparisons.count
      ? "every outcome: " + named.joined(separator: ", ") : named.joined(separator: ", ")
    return "A comparison needs at least five nights after \(words.first) evenings and five "
      + "after \(words.second) ones, with the figure measured; too few for \(which), so "
      + (short.count == 1 ? "that row gives" : "those rows give") + " counts and no difference."
  }

  /// `sleep-by-music.csv`: one row per split and outcome.
  static func musicCSV(_ splits: [EveningSplit]) -> CSVTable {
    var csv = CSVTable(header: [
      "split", "rule", "threshold", "evenings_below", "evenings_at_or_above", "covered_share",
      "outcome", "unit", "nights_below", "nights_at_or_above", "mean_below", "mean_at_or_above",
      "difference", "difference_low90", "difference_high90", "adjusted_difference",
      "adjusted_low90", "adjusted_high90",
    ])
    for split in splits {
      let rule =
        switch split.rule {
        case .zero: "zero"
        case .median: "median"
        case .medianForBalance: "median_for_balance"
        }
      for c in split.comparisons {
        csv.append([
          .text(split.measure.rawValue), .text(rule), .value(split.threshold),
          .integer(split.below), .integer(split.atOrAbove), .value(split.coveredShare),
          .text(c.outcome), .text(c.unit), .integer(c.nightsWith), .integer(c.nightsWithout),
          .value(c.meanWith), .value(c.meanWithout), .value(c.difference), .value(c.low90),
          .value(c.high90), .value(c.adjusted), .value(c.adjustedLow90),
          .value(c.adjustedHigh90),
        ])
      }
    }
    return csv
  }
}
