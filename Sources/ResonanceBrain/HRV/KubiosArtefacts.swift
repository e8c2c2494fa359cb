import ResonanceModel

/// The beats of an RR series that look like artefacts by Lipponen & Tarvainen's method (2019,
/// "A robust algorithm for heart rate variability time series artefact correction using novel
/// beat classification", *J Med Eng Technol* 43(3):173–181), the one Kubios HRV uses, with the
/// parameters and the windowing of NeuroKit2 0.3.0's `signal_fixpeaks(method="kubios")`, so that
/// the same series gives the same flags (`Tests/Fixtures/hrv/<name>.kubios.json`).
///
/// ```swift
/// let artefacts = KubiosArtefacts(rr: rr)   // rr in ms
/// artefacts.longShort                       // [33, 74, 119, 235, 245] on real-nsrdb
/// artefacts.intervals                       // [32, 73, 118, 234, 244]
/// ```
///
/// The method looks at each beat's interval in two ways. The change from the previous interval
/// (dRR) and the deviation from the 11-beat running median (mRR, a shortening counted twice)
/// are each divided by a threshold that follows the recording: 5.2 times the quartile deviation
/// of their magnitude over a 91-beat window. A beat whose normalised dRR exceeds 1 is then
/// classified by where it falls beside its neighbours: **ectopic** (a short–long or long–short
/// pair), **missed** (an interval about twice the median: one beat not detected), **extra** (two
/// intervals that add up to about one: a beat detected twice) or **long/short** (any other
/// outlier).
///
/// Indices are beats, as NeuroKit2 gives them: beat 0 opens the series and beat *k* closes
/// interval *k* − 1, so beat *k* is the *k*-th interval counting from 1. Like NeuroKit2, beat 0
/// takes the mean interval and the mean change as its own, and the windows are cut short at
/// either end of the series. A series of fewer than two intervals has no flag; where a threshold is zero (a stretch of identical intervals) the
/// normalised value is NaN and, as in NeuroKit2, flags nothing by that test. Values that are
/// not finite are left out first.
///
/// - Complexity: O(*n* · *w* log *w*) for *n* intervals and the 91-beat window *w*.
package struct KubiosArtefacts: Sendable, Equatable {
  /// Beats in a short–long or long–short pair, as an ectopic beat makes.
  package var ectopic: [Int]
  /// Beats closing an interval about twice the running median: a beat went undetected.
  package var missed: [Int]
  /// Beats that split one interval in two: a beat detected where there was none.
  package var extra: [Int]
  /// Other beats too far from their neighbours or from the running median.
  package var longShort: [Int]

  /// The dRR threshold's coefficients of the ectopic test (the paper's c1 and c2).
  package static let c1 = 0.13
  package static let c2 = 0.17
  /// The thresholds' multiple of the quartile deviation (the paper's α).
  package static let alpha = 5.2
  /// The window, in beats, of the quartile deviation behind both thresholds.
  package static let thresholdWindow = 91
  /// The window, in beats, of the running median mRR is taken from.
  package static let medianWindow = 11

  /// How many beats are flagged, of every kind.
  package var count: Int { ectopic.count + missed.count + extra.count + longShort.count }

  /// Every flagged beat, in order.
  package var beats: [Int] { (ectopic + missed + extra + longShort).sorted() }

  /// The intervals the flagged beats close, as 0-based indices into the series (beat 0, which
  /// closes none, is left out).
  package var intervals: [Int] { beats.filter { $0 > 0 }.map { $0 - 1 } }

  package init(ectopic: [Int], missed: [Int], extra: [Int], longShort: [Int]) {
    self.ectopic = ectopic
    self.missed = missed
    self.extra = extra
    self.longShort = longShort
  }

  /// The flags of an RR series, intervals in milliseconds, in order.
  package init(rr: [Double]) {
    var elapsed = 0.0
    var times = [elapsed]
    for interval in rr where interval.isFinite {
      elapsed += interval
      times.append(elapsed)
    }
    self.init(beatTimes: times)
  }

  /// The flags of a series of beat times in milliseconds, ascending (NeuroKit2's peaks at
  /// 1000 Hz).
  package init(beatTimes times: [Double]) {
    self.init(ectopic: [], missed: [], extra: [], longShort: [])
    let n = times.count
    guard n >= 3 else { return }

    // Periods in seconds, one per beat, as NeuroKit2 takes them: the first is a stand-in.
    var rr = [0.0] + zip(times.dropFirst(), times).map { ($0 - $1) / 1000 }
    rr[0] = HRVMetrics.mean(Array(rr.dropFirst()))
    var change = [0.0] + zip(rr.dropFirst(), rr).map { $0 - $1 }
    change[0] = HRVMetrics.mean(Array(change.dropFirst()))
    let dRR = Self.normalised(change, by: Self.threshold(change))

    // The two subspaces: how the neighbours of each dRR moved.
    func padded(_ k: Int) -> Double {
      // Mirror images at either end without repeating the edge (NumPy's "reflect").
      dRR[k < 0 ? -k : k >= n ? 2 * (n - 1) - k : k]
    }
    var s12 = [Double](repeating: 0, count: n)
    var s22 = [Double](repeating: 0, count: n)
    for k in 0..<n {
      if dRR[k] > 0 {
        s12[k] = Self.largest(padded(k - 1), padded(k + 1))
      } else if dRR[k] < 0 {
        s12[k] = Self.smallest(padded(k - 1), padded(k + 1))
      }
      if dRR[k] >= 0 {
        s22[k] = Self.smallest(padded(k + 1), padded(k + 2))
      } else if dRR[k] < 0 {
        s22[k] = Self.largest(padded(k + 1), padded(k + 2))
      }
    }

    let median = Self.running(rr, window: Self.medianWindow) {
      Statistics.median(Array($0)) ?? .nan
    }
    // An interval shorter than the median counts twice its deviation, as the method has it.
    let deviation = zip(rr, median).map { $0 - $1 < 0 ? 2 * ($0 - $1) : $0 - $1 }
    let medianThreshold = Self.threshold(deviation)
    let mRR = Self.normalised(deviation, by: medianThreshold)

    var i = 0
    while i < n - 2 {
      // NaN (a zero threshold) passes this test and fails every later one, as in NeuroKit2.
      if abs(dRR[i]) <= 1 {
        i += 1
        continue
      }
      let isEarlyThenLate = dRR[i] > 1 && s12[i] < -Self.c1 * dRR[i] - Self.c2
      let isLateThenEarly = dRR[i] < -1 && s12[i] > -Self.c1 * dRR[i] + Self.c2
      if isEarlyThenLate || isLateThenEarly {
        ectopic.append(i)
        i += 1
        continue
      }
      if !(abs(dRR[i]) > 1 || abs(mRR[i]) > 3) {
        i += 1
        continue
      }
      // The next beat is judged too when its change is the smaller of the two that follow.
      let candidates = abs(dRR[i + 1]) < abs(dRR[i + 2]) ? [i, i + 1] : [i]
      for j in candidates {
        i += 1
        let isLong = dRR[j] > 1 && s22[j] < -1
        let isShort = dRR[j] < -1 && s22[j] > 1
        guard isLong || isShort || abs(mRR[j]) > 3 else { continue }
        let isHalved = abs(rr[j] / 2 - median[j]) < medianThreshold[j]
        let isSplit = abs(rr[j] + rr[j + 1] - median[j]) < medianThreshold[j]
        if isShort && isSplit {
          extra.append(j)
        } else if isLong && isHalved {
          missed.append(j)
        } else {
          longShort.append(j)
        }
      }
    }
  }

  /// α times the quartile deviation of |x| over the centred window around each value.
  static func threshold(_ x: [Double]) -> [Double] {
    running(x.map(abs), window: thresholdWindow) { window in
      let sorted = window.sorted()
      return alpha * (Statistics.quantile(sorted, 0.75) - Statistics.quantile(sorted, 0.25)) / 2
    }
  }

  /// `x` divided by `threshold`, NaN where the threshold is zero.
  static func normalised(_ x: [Double], by threshold: [Double]) -> [Double] {
    zip(x, threshold).map { $1 != 0 ? $0 / $1 : .nan }
  }

  /// `statistic` of the centred window of `window` values (odd) around each value, the window
  /// cut short at either end (pandas' `rolling(window, center=True, min_periods=1)`).
  static func running(
    _ x: [Double], window: Int, _ statistic: (ArraySlice<Double>) -> Double
  ) -> [Double] {
    let half = window / 2
    return x.indices.map { k in statistic(x[max(0, k - half)...min(x.count - 1, k + half)]) }
  }

  /// The larger of two values, NaN when either is (NumPy's `max`).
  static func largest(_ a: Double, _ b: Double) -> Double { a.isNaN || b.isNaN ? .nan : max(a, b) }

  /// The smaller of two values, NaN when either is (NumPy's `min`).
  static func smallest(_ a: Double, _ b: Double) -> Double {
    a.isNaN || b.isNaN ? .nan : min(a, b)
  }
}
