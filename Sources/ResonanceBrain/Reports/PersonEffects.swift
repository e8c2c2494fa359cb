import ResonanceLinear
import ResonanceModel

/// The person-level effects a hand-off carries (`effects.json`, docs/cohort.md): each one
/// estimate with its standard error, from the same statistics the report's pages show, so a
/// cohort pools what each person's report says.
package enum PersonEffects {
  /// Songs with a heart-rate estimate that the tempo slope needs at the least.
  package static let minimumSongs = 10

  /// Every effect the values allow, in `PersonEffect.Name`'s order.
  package static func all(
    songs: [TempoSong], sleep: [GroupComparison],
    practice: PracticeEffects?, heldOut: HeldOutEvidence?
  ) -> [PersonEffect] {
    [
      tempoOnHeartRate(songs), eveningMusicOnAsleep(sleep),
      practice.flatMap(practiceOnNightSDNN), heldOut.flatMap(tuningGain),
    ].compactMap { $0 }
  }

  /// A song's heart-rate effect estimate beside its tempo, and whether the tempo is the
  /// song's own (the library's BPM) or a genre's estimate.
  package struct TempoSong: Sendable, Equatable {
    package var bpm: Double
    package var isMeasured: Bool
    package var estimate: Double
    package var se: Double

    package init(bpm: Double, isMeasured: Bool, estimate: Double, se: Double) {
      self.bpm = bpm
      self.isMeasured = isMeasured
      self.estimate = estimate
      self.se = se
    }
  }

  /// Heart rate per 10 BPM of tempo: the weighted least-squares slope of the songs'
  /// heart-rate effect estimates on their tempo, each song weighted by its estimate's inverse
  /// variance. Only songs whose tempo is measured (the library's BPM) count: a tempo estimated
  /// from the genre errs by an amount the slope cannot tell from tempo, and a slope on such
  /// tempi is diluted toward zero (regression dilution). On a simulated person with 0.92 bpm
  /// per 10 BPM planted, the slope over all 147 songs was 0.62; over the 57 with their own
  /// BPM, 0.91. Its standard error is the weighted fit's, widened by the residuals' dispersion
  /// when they scatter more than the songs' own errors say (the multiplicative-dispersion
  /// meta-regression, Thompson & Sharp 1999), never narrowed. Nil with fewer than
  /// `minimumSongs` such songs or no spread of tempo.
  package static func tempoOnHeartRate(_ songs: [TempoSong]) -> PersonEffect? {
    let rows = songs.filter {
      $0.isMeasured && $0.bpm.isFinite && $0.estimate.isFinite && $0.se.isFinite && $0.se > 0
    }
    guard rows.count >= minimumSongs else { return nil }
    let weights = rows.map { 1 / ($0.se * $0.se) }
    let total = weights.reduce(0, +)
    let meanX = zip(rows, weights).reduce(0) { $0 + $1.1 * $1.0.bpm } / total
    let meanY = zip(rows, weights).reduce(0) { $0 + $1.1 * $1.0.estimate } / total
    var sxx = 0.0
    var sxy = 0.0
    for (row, w) in zip(rows, weights) {
      sxx += w * (row.bpm - meanX) * (row.bpm - meanX)
      sxy += w * (row.bpm - meanX) * (row.estimate - meanY)
    }
    guard sxx > 0 else { return nil }
    let slope = sxy / sxx
    var residual = 0.0
    for (row, w) in zip(rows, weights) {
      let r = row.estimate - meanY - slope * (row.bpm - meanX)
      residual += w * r * r
    }
    let dispersion = max(1, residual / Double(rows.count - 2))
    return PersonEffect(
      name: .tempoHeartRate, estimate: 10 * slope, se: 10 * (dispersion / sxx).squareRoot(),
      n: rows.count, method: "weighted least squares over songs with a library BPM")
  }

  /// Minutes asleep after evening music: the sleep page's adjusted difference in time asleep
  /// (hours) in minutes.
  package static func eveningMusicOnAsleep(_ comparisons: [GroupComparison]) -> PersonEffect? {
    guard let asleep = comparisons.first(where: { $0.outcome == "asleep_h" }),
      let estimate = asleep.adjusted, let se = asleep.adjustedSE
    else { return nil }
    return PersonEffect(
      name: .eveningMusicAsleep, estimate: 60 * estimate, se: 60 * se,
      n: asleep.nightsWith + asleep.nightsWithout,
      method: "least squares with weekday, workout and bedtime")
  }

  /// Overnight SDNN after breathing practice: the breathing page's adjusted comparison.
  package static func practiceOnNightSDNN(_ practice: PracticeEffects) -> PersonEffect? {
    guard let day = practice.days.first(where: { $0.outcome == "night_sdnn_ms" }),
      let estimate = day.adjusted, let se = day.se
    else { return nil }
    return PersonEffect(
      name: .practiceNightSDNN, estimate: estimate, se: se, n: day.daysWith + day.daysWithout,
      method: "least squares with weekday and workout")
  }

  /// `tune`'s held-out gain. Its interval is Student's t over day batches and the number of
  /// days is not kept, so the standard error is the half-width over the normal quantile at
  /// the interval's level: a little larger than the batches' own (about 3% with 30 days).
  package static func tuningGain(_ heldOut: HeldOutEvidence) -> PersonEffect? {
    let gain = heldOut.gain
    let z = NormalDistribution.quantile((1 + gain.level) / 2)
    guard gain.estimate.isFinite, gain.upper > gain.lower, z > 0 else { return nil }
    return PersonEffect(
      name: .tuningHeldOutGain, estimate: gain.estimate, se: (gain.upper - gain.lower) / (2 * z),
      n: heldOut.decisions, method: "held-out month, day batches")
  }
}
