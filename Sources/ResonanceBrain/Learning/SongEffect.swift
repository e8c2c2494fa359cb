import ResonanceModel

/// The seed's learning update: an exponential moving average with α = 0.4 for a song's first
/// five plays in a context and 0.2 after.
package enum SongEffectUpdater {
  package static let coldStartAlpha = 0.4
  package static let steadyAlpha = 0.2
  package static let coldStartPlays = 5

  /// The smoothing factor for the next update of an effect that has `sampleCount` plays.
  package static func alpha(sampleCount: Int) -> Double {
    sampleCount < coldStartPlays ? coldStartAlpha : steadyAlpha
  }

  /// The per-score targets one listen gives, each clamped to −1 … 1:
  /// calm = calm credit + skip penalty; energy = energy credit + skip penalty;
  /// focus = ½ calm credit + skip penalty; mood = (listen share − ½) + skip penalty.
  package static func targets(
    credit: ResponseCreditCalculator.Credit, skipPenalty: Double, listenFraction: Double
  ) -> (calm: Double, energy: Double, focus: Double, mood: Double) {
    func c(_ x: Double) -> Double { max(-1, min(1, x)) }
    return (
      c(credit.calm + skipPenalty), c(credit.energy + skipPenalty),
      c(0.5 * credit.calm + skipPenalty), c(listenFraction - 0.5 + skipPenalty)
    )
  }

  /// `effect` after one more listen.
  package static func updated(
    _ effect: LearnedSongEffect, credit: ResponseCreditCalculator.Credit, skipPenalty: Double,
    listenFraction: Double
  ) -> LearnedSongEffect {
    let a = alpha(sampleCount: effect.sampleCount)
    let t = targets(credit: credit, skipPenalty: skipPenalty, listenFraction: listenFraction)
    var next = effect
    next.calm += a * (t.calm - effect.calm)
    next.energy += a * (t.energy - effect.energy)
    next.focus += a * (t.focus - effect.focus)
    next.mood += a * (t.mood - effect.mood)
    next.sampleCount += 1
    return next
  }
}
