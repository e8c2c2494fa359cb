/// One person-level effect as `resonance export` hands it on in `effects.json`, and as
/// `resonance cohort pool` reads it: an estimate with its standard error, the observations it
/// rests on, and how it was estimated.
package struct PersonEffect: Sendable, Equatable, Codable {
  /// The effects a hand-off can carry, by the name `effects.json` gives them.
  package enum Name: String, Sendable, Codable, CaseIterable {
    /// The slope of the songs' heart-rate effects on their tempo: bpm of heart rate per
    /// 10 BPM of tempo.
    case tempoHeartRate = "tempo_hr_per_10bpm"
    /// Minutes asleep after an evening with music against one without, adjusted for the
    /// weekday, a workout that day and the bedtime.
    case eveningMusicAsleep = "evening_music_asleep_min"
    /// That night's overnight SDNN on days with breathing practice against days without,
    /// adjusted for the weekday and a workout, ms.
    case practiceNightSDNN = "breathing_practice_night_sdnn_ms"
    /// `resonance tune`'s held-out gain: the chosen preferences against those in force on the
    /// month they were not chosen on, in the tuning reward's units.
    case tuningHeldOutGain = "tuning_held_out_gain"
  }

  package var name: Name
  package var estimate: Double
  package var se: Double
  /// What the estimate rests on: songs, nights, days or decisions (`unitOfN`).
  package var n: Int
  package var method: String

  package init(name: Name, estimate: Double, se: Double, n: Int, method: String) {
    self.name = name
    self.estimate = estimate
    self.se = se
    self.n = n
    self.method = method
  }
}
