import ResonanceLinear
import ResonanceModel

/// LF and HF power of an RR series, by a documented spectral method:
///
/// 1. the RR values (ms) are placed at their beat times (the running sum of the intervals) and
///    resampled at 4 Hz by linear interpolation;
/// 2. Welch's method (SciPy's definition): 256-sample segments (64 s) overlapping by half, each
///    with its mean removed and a Hann window, zero-padded to 1024 points (0.0039 Hz bins);
/// 3. band power by the trapezoid rule over the bins in [low, high): LF 0.04–0.15 Hz,
///    HF 0.15–0.40 Hz, in ms².
///
/// The series must span at least 120 s (`minimumSeconds`) — three cycles of the slowest LF
/// frequency and two Welch segments — or both powers are `nil` with the reason. Apple's
/// one-minute beat lists are too short, always.
extension HRVFrequency {
  package static let resampleRate = 4.0
  package static let segmentLength = 256
  package static let fftLength = 1024
  package static let minimumSeconds = 120.0
  package static let lfBand = (0.04, 0.15)
  package static let hfBand = (0.15, 0.40)

  /// The LF and HF power of `rr` (ms, in order).
  package init(rr: [Double]) {
    let rr = rr.filter { $0.isFinite && $0 > 0 }
    var times: [Double] = []
    var elapsed = 0.0
    for interval in rr {
      elapsed += interval / 1000
      times.append(elapsed)
    }
    let span = (times.last ?? 0) - (times.first ?? 0)
    guard rr.count >= 3, span >= HRVFrequency.minimumSeconds else {
      self.init(
        lf: nil, hf: nil, lfhf: nil,
        reason:
          "needs at least \(Int(HRVFrequency.minimumSeconds)) s of intervals; this series spans \(Int(span.rounded())) s"
      )
      return
    }
    let even = Resample.linear(times: times, values: rr, rate: HRVFrequency.resampleRate)
    guard
      let spectrum = WelchSpectrum(
        even, sampleRate: HRVFrequency.resampleRate, segmentLength: HRVFrequency.segmentLength,
        overlap: HRVFrequency.segmentLength / 2, fftLength: HRVFrequency.fftLength)
    else {
      self.init(lf: nil, hf: nil, lfhf: nil, reason: "too few samples for one spectral segment")
      return
    }
    let lf = spectrum.power(from: HRVFrequency.lfBand.0, to: HRVFrequency.lfBand.1)
    let hf = spectrum.power(from: HRVFrequency.hfBand.0, to: HRVFrequency.hfBand.1)
    self.init(lf: lf, hf: hf, lfhf: hf > 0 ? lf / hf : nil, reason: nil)
  }
}
