/// The DJ's logged decisions as offline evaluation reads them: for every decision, its admitted
/// candidates' seven component values, the chance the logging policy gave each, the one chosen,
/// and what followed. Struct-of-arrays, so that scoring many preference vectors runs over
/// contiguous memory.
///
/// Decision `d`'s candidates are the rows `rowStart[d] ..< rowStart[d + 1]`; every per-row
/// array has `rowStart.last` elements, every per-decision array `count`. Row-major
/// `components` holds seven values a row, in `ScoringWeights`' order (bpm, energy,
/// familiarity, historical, context, recency, time of day).
package struct LoggedDecisions: Sendable, Equatable {
  /// The policy the decisions were logged under (a target policy keeps its kind and
  /// temperature, and changes the preferences).
  package var policy: LoggingPolicy
  /// Row offsets, `count + 1` of them, the first 0.
  package var rowStart: [Int]
  /// Seven component values a row, each in 0 … 1.
  package var components: [Double]
  /// Each row's transition smoothness from the song before, 0 … 1 (0 when there was none).
  package var smoothness: [Double]
  /// The logging policy's probability of each row; a decision's sum to 1.
  package var propensity: [Double]
  /// Per decision: whether its final scores blend in smoothness (a song played before it).
  package var blends: [Bool]
  /// Per decision: the factor the real-time adjuster put on the familiarity weight (1: none).
  package var familiarityBoost: [Double]
  /// Per decision: the chosen row, counted from the decision's first.
  package var chosen: [Int]
  /// Per decision: when it was made, in the offset the person lived in.
  package var time: [Timestamp]
  package var context: [ActivityContext]
  package var need: [Need]
  /// Per decision, what followed the chosen song: kept (not skipped) …
  package var kept: [Bool]
  /// … the share of it heard, 0 … 1 …
  package var listenShare: [Double]
  /// … the physiological response toward the need, in the signal's units with the sign that
  /// means "better" (HRV up for calm, heart rate up for energy); nil where unmeasured …
  package var response: [Double?]
  /// … and the seed's quality of the session it was in, 0 … 1; nil where there is none.
  package var sessionQuality: [Double?]
  /// Empty, or per decision the response reward as evaluation reads it when some responses
  /// were not measured: the missing-response model's doubly robust value (ResonanceTuning's
  /// `MissingResponses`), nil where the model has nothing to go on. Empty: each decision's
  /// measured response score, and no reward where none was measured.
  package var responseReward: [Double?]

  package init(
    policy: LoggingPolicy, rowStart: [Int] = [0], components: [Double] = [],
    smoothness: [Double] = [], propensity: [Double] = [], blends: [Bool] = [],
    familiarityBoost: [Double] = [], chosen: [Int] = [], time: [Timestamp] = [],
    context: [ActivityContext] = [], need: [Need] = [], kept: [Bool] = [],
    listenShare: [Double] = [], response: [Double?] = [], sessionQuality: [Double?] = [],
    responseReward: [Double?] = []
  ) {
    self.policy = policy
    self.rowStart = rowStart
    self.components = components
    self.smoothness = smoothness
    self.propensity = propensity
    self.blends = blends
    self.familiarityBoost = familiarityBoost
    self.chosen = chosen
    self.time = time
    self.context = context
    self.need = need
    self.kept = kept
    self.listenShare = listenShare
    self.response = response
    self.sessionQuality = sessionQuality
    self.responseReward = responseReward
  }

  /// Decisions.
  package var count: Int { rowStart.count - 1 }
  /// Candidate rows over every decision.
  package var rows: Int { rowStart.last ?? 0 }
  /// The rows of decision `d`.
  package func rows(of d: Int) -> Range<Int> { rowStart[d]..<rowStart[d + 1] }

  /// Reserves room for `decisions` more decisions and `rows` more candidate rows.
  package mutating func reserve(decisions: Int, rows: Int) {
    let d = count + decisions
    let r = self.rows + rows
    rowStart.reserveCapacity(d + 1)
    components.reserveCapacity(7 * r)
    smoothness.reserveCapacity(r)
    propensity.reserveCapacity(r)
    blends.reserveCapacity(d)
    familiarityBoost.reserveCapacity(d)
    chosen.reserveCapacity(d)
    time.reserveCapacity(d)
    context.reserveCapacity(d)
    need.reserveCapacity(d)
    kept.reserveCapacity(d)
    listenShare.reserveCapacity(d)
    response.reserveCapacity(d)
    sessionQuality.reserveCapacity(d)
  }
}
