/// What the breathing analysis measured in one session, as the store keeps it.
package struct BreathingResult: Sendable, Equatable {
  package var resonanceScore: Double?
  package var events: Int
  package var matched: Int
  package var breaths: Int
  package var breathsPerMinute: Double?
  package var rateVariability: Double?
  package var pacerBreathsPerMinute: Double?
  package var phaseLocking: Double?
  package var lagSeconds: Double?
  package var inSyncShare: Double?
  package var coherence: Double?
  package var coherencePeakHz: Double?
  package var rsaAmplitude: Double?
  package var hrvBefore: Double?
  package var hrvAfter: Double?
  package var dominantExpression: String?
  package var notes: [String]

  package init(
    resonanceScore: Double?, events: Int, matched: Int, breaths: Int, breathsPerMinute: Double?,
    rateVariability: Double?, pacerBreathsPerMinute: Double?, phaseLocking: Double?,
    lagSeconds: Double?, inSyncShare: Double?, coherence: Double?, coherencePeakHz: Double?,
    rsaAmplitude: Double?, hrvBefore: Double?, hrvAfter: Double?, dominantExpression: String?,
    notes: [String]
  ) {
    self.resonanceScore = resonanceScore
    self.events = events
    self.matched = matched
    self.breaths = breaths
    self.breathsPerMinute = breathsPerMinute
    self.rateVariability = rateVariability
    self.pacerBreathsPerMinute = pacerBreathsPerMinute
    self.phaseLocking = phaseLocking
    self.lagSeconds = lagSeconds
    self.inSyncShare = inSyncShare
    self.coherence = coherence
    self.coherencePeakHz = coherencePeakHz
    self.rsaAmplitude = rsaAmplitude
    self.hrvBefore = hrvBefore
    self.hrvAfter = hrvAfter
    self.dominantExpression = dominantExpression
    self.notes = notes
  }
}
