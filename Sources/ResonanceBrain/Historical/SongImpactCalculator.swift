import ResonanceModel

/// `SongImpactCalculator` (the seed's `Historical/`): heart rate and HRV before and during a
/// play or a session, the impact the learning loop and the reports read.
///
/// Windows: heart rate, the 10 minutes before the play's start against the play itself (start
/// to end); HRV, whose samples are minutes apart at best (the Watch's ~1-minute SDNN readings,
/// a few an hour), the 30 minutes before against the play and the 5 minutes after it (the
/// response may lag the music). A sample exactly at the start belongs to the play.
package enum SongImpactCalculator {
  package static let heartRateBeforeMs: Int64 = 10 * 60_000
  package static let hrvBeforeMs: Int64 = 30 * 60_000
  package static let hrvAfterMs: Int64 = 5 * 60_000

  /// Heart rate around a play, from samples in time order.
  package static func heartRate(
    _ samples: [SignalSample], startMs: Int64, endMs: Int64
  ) -> SignalChange {
    change(
      samples, before: (startMs - heartRateBeforeMs)..<startMs,
      during: startMs..<max(endMs, startMs + 1))
  }

  /// HRV around a play, from samples in time order.
  package static func hrv(_ samples: [SignalSample], startMs: Int64, endMs: Int64) -> SignalChange {
    change(
      samples, before: (startMs - hrvBeforeMs)..<startMs,
      during: startMs..<(max(endMs, startMs) + hrvAfterMs))
  }

  static func change(_ samples: [SignalSample], before: Range<Int64>, during: Range<Int64>)
    -> SignalChange
  {
    let (beforeSum, beforeCount) = sum(samples, in: before)
    let (duringSum, duringCount) = sum(samples, in: during)
    return SignalChange(
      before: beforeCount > 0 ? beforeSum / Double(beforeCount) : nil,
      during: duringCount > 0 ? duringSum / Double(duringCount) : nil,
      samplesBefore: beforeCount, samplesDuring: duringCount)
  }

  /// Sum and count of the finite values in `window`, found by binary search (samples sorted).
  private static func sum(_ samples: [SignalSample], in window: Range<Int64>) -> (Double, Int) {
    var total = 0.0
    var count = 0
    var i = samples.partitioningIndex { $0.timeMs >= window.lowerBound }
    while i < samples.count, samples[i].timeMs < window.upperBound {
      if samples[i].value.isFinite {
        total += samples[i].value
        count += 1
      }
      i += 1
    }
    return (total, count)
  }
}

extension SongImpactCalculator {
  /// Both signals around one play.
  package static func biometrics(
    playID: Int64, startMs: Int64, endMs: Int64, heartRate: [SignalSample], hrv: [SignalSample]
  ) -> PlayBiometrics {
    PlayBiometrics(
      playID: playID, heartRate: self.heartRate(heartRate, startMs: startMs, endMs: endMs),
      hrv: self.hrv(hrv, startMs: startMs, endMs: endMs))
  }
}
