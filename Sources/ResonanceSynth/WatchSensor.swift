import ResonanceModel

/// What the Watch reads: the true signal plus measurement noise that is a pure function of the
/// instant, so the app's in-loop measurements and the written trace agree to the digit.
package enum WatchSensor {
  /// Heart-rate measurement noise, BPM (standard deviation).
  package static let heartRateNoise = 1.5
  /// HRV (SDNN) measurement noise, ms.
  package static let hrvNoise = 3.0

  /// The heart rate the Watch reports at `utcMs`, rounded to 0.1 BPM.
  package static func heartRate(_ history: SynthHistory, at utcMs: Int64) -> Double {
    let noise = HashNoise.normal(
      history.configuration.seed, key: UInt64(bitPattern: utcMs), salt: 1)
    return ((history.heartRate(at: utcMs) + heartRateNoise * noise) * 10).rounded() / 10
  }

  /// The SDNN the Watch reports for the minute starting at `utcMs`, rounded to 0.1 ms.
  package static func hrv(_ history: SynthHistory, at utcMs: Int64) -> Double {
    let noise = HashNoise.normal(
      history.configuration.seed, key: UInt64(bitPattern: utcMs), salt: 2)
    return (max(5, history.hrv(at: utcMs) + hrvNoise * noise) * 10).rounded() / 10
  }
}

/// Normal noise keyed by a value rather than drawn in sequence.
enum HashNoise {
  static func normal(_ seed: UInt64, key: UInt64, salt: UInt64) -> Double {
    var rng = SplitMix64(
      seed: seed ^ (key &* 0x9E37_79B9_7F4A_7C15) ^ (salt &* 0xD6E8_FEB8_6659_FD93))
    return rng.normal()
  }

  static func uniform(_ seed: UInt64, key: UInt64, salt: UInt64) -> Double {
    var rng = SplitMix64(
      seed: seed ^ (key &* 0x9E37_79B9_7F4A_7C15) ^ (salt &* 0xD6E8_FEB8_6659_FD93))
    return rng.uniform()
  }
}
