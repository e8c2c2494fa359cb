import ResonanceLinear
import ResonanceModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Everything resonance measures in one breathing-pacer session; `docs/breathing.md` gives each
/// formula. A metric that cannot be computed is `nil`, with the reason in `notes`.
@dynamicMemberLookup
package struct BreathingAnalysis: Sendable {
  /// The band the waveform is filtered to before breaths are found: 0.03–1 Hz (1.8–60
  /// breaths/min), low enough for 4-7-8's 3.2 breaths/min.
  package static let band = (0.03, 1.0)
  /// Waveform resampling rate, Hz.
  package static let rate = 30.0
  /// A cycle whose peak-to-trough is under this share of the median is not a breath.
  package static let minimumAmplitude = 0.3
  /// The live nudge says "In sync" when the phase-locking value over the last 10 s is at least
  /// this; otherwise "Slow down".
  package static let inSyncPLV = 0.7
  package static let nudgeWindowSeconds = 10.0
  /// Coherence needs this many seconds of pulse (one 64 s window, as the published method).
  package static let coherenceMinimumSeconds = 64.0

  /// The app's score, with the events behind it.
  package var score: ResonanceScore
  /// Every figure, as the store keeps it (`analysis.breathsPerMinute` reads `result`'s).
  package var result: BreathingResult

  package init(_ recording: BreathingRecording) {
    score = ResonanceScore(pacer: recording.pacer, trace: recording.trace)
    result = BreathingResult(
      resonanceScore: score.score, events: score.events.count, matched: score.matched, breaths: 0,
      breathsPerMinute: nil, rateVariability: nil, pacerBreathsPerMinute: nil, phaseLocking: nil,
      lagSeconds: nil, inSyncShare: nil, coherence: nil, coherencePeakHz: nil, rsaAmplitude: nil,
      hrvBefore: nil, hrvAfter: nil, dominantExpression: nil, notes: [])
    result.hrvBefore = recording.hrv.first?.value
    result.hrvAfter = recording.hrv.count > 1 ? recording.hrv.last?.value : nil
    result.dominantExpression = BreathingAnalysis.mode(recording.expressions.map(\.label))
    let cycle = recording.schedule.reduce(0) { $0 + $1.seconds }
    result.pacerBreathsPerMinute = cycle > 0 ? 60 / cycle : nil
    if recording.pacer.isEmpty {
      result.notes.append("no pacer schedule: no Resonance Score or phase locking")
    }

    let trace = recording.trace
    guard trace.count >= 2, let first = trace.first?.t, let last = trace.last?.t, last > first
    else {
      result.notes.append("no waveform: no breathing rate")
      return
    }
    let values = trace.map(\.value)
    if (values.max() ?? 0) - (values.min() ?? 0) < 1e-9 {
      result.notes.append("the waveform is flat: no breathing rate or phase locking")
      return
    }
    // A camera trace pinned at its extremes (clipped) still counts, with a note.
    let top = values.max() ?? 0
    let bottom = values.min() ?? 0
    let pinned = values.filter { $0 >= top - 1e-9 || $0 <= bottom + 1e-9 }.count
    if Double(pinned) / Double(values.count) >= 0.05 {
      result.notes.append(
        "the waveform is clipped: \(Int((100 * Double(pinned) / Double(values.count)).rounded()))% of samples sit at its maximum or minimum"
      )
    }
    let gaps = zip(trace.dropFirst(), trace).filter { $0.t - $1.t > 1 }.count
    if gaps > 0 {
      result.notes.append("\(gaps) gaps of more than 1 s in the waveform (interpolated across)")
    }
    let even = Resample.linear(times: trace.map(\.t), values: values, rate: Self.rate)
    let filtered = FFT.bandPass(even, sampleRate: Self.rate, low: Self.band.0, high: Self.band.1)
    let cycles = BreathingAnalysis.breathCycles(filtered)
    result.breaths = cycles.count
    if !cycles.isEmpty {
      let periods = cycles.map { Double($0.end - $0.start) / Self.rate }
      result.breathsPerMinute = 60 / (periods.reduce(0, +) / Double(periods.count))
      let rates = periods.map { 60 / $0 }
      if rates.count >= 2 {
        let mean = rates.reduce(0, +) / Double(rates.count)
        result.rateVariability = sqrt(
          rates.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(rates.count - 1))
      }
      result.rsaAmplitude = BreathingAnalysis.rsa(cycles, start: first, pulse: recording.pulse)
    } else {
      result.notes.append("no complete breath in the waveform")
    }

    if !recording.pacer.isEmpty, let pacerRate = result.pacerBreathsPerMinute {
      let target = BreathingAnalysis.pacerWaveform(recording.pacer, start: first, count: even.count)
      let a = FFT.analyticPhase(filtered)
      let b = FFT.analyticPhase(
        FFT.bandPass(target, sampleRate: Self.rate, low: Self.band.0, high: Self.band.1))
      let (plv, angle) = BreathingAnalysis.locking(a, b, 0..<even.count)
      result.phaseLocking = plv
      result.lagSeconds = -angle / (2 * Double.pi) * (60 / pacerRate)
      let window = Int(Self.nudgeWindowSeconds * Self.rate)
      if even.count >= window {
        var inSync = 0
        var windows = 0
        for end in stride(from: window, through: even.count, by: Int(Self.rate)) {
          windows += 1
          if BreathingAnalysis.locking(a, b, (end - window)..<end).plv >= Self.inSyncPLV {
            inSync += 1
          }
        }
        result.inSyncShare = Double(inSync) / Double(windows)
      }
    }

    let pulse = recording.pulse
    if let p0 = pulse.first?.t, let p1 = pulse.last?.t, p1 - p0 >= Self.coherenceMinimumSeconds {
      (result.coherence, result.coherencePeakHz) = BreathingAnalysis.coherence(pulse)
    } else {
      result.notes.append(
        "coherence needs \(Int(Self.coherenceMinimumSeconds)) s of pulse; this session has \(Int(((pulse.last?.t ?? 0) - (pulse.first?.t ?? 0)).rounded())) s"
      )
    }
  }

  /// Breath cycles: from one rising zero crossing of the filtered waveform to the next, cycles
  /// smaller than `minimumAmplitude` × the median merged into their neighbour.
  static func breathCycles(_ x: [Double]) -> [(start: Int, end: Int)] {
    var rising: [Int] = []
    for i in 1..<x.count where x[i - 1] < 0 && x[i] >= 0 { rising.append(i) }
    guard rising.count >= 2 else { return [] }
    func amplitude(_ a: Int, _ b: Int) -> Double {
      let slice = x[a..<b]
      return (slice.max() ?? 0) - (slice.min() ?? 0)
    }
    let amplitudes = zip(rising, rising.dropFirst()).map { amplitude($0, $1) }
    let median = amplitudes.sorted()[amplitudes.count / 2]
    var cycles: [(Int, Int)] = []
    var start = rising[0]
    for end in rising.dropFirst() where amplitude(start, end) >= minimumAmplitude * median {
      cycles.append((start, end))
      start = end
    }
    return cycles
  }

  /// The pacer as a waveform on the resampled grid: rising over each inhale, falling over each
  /// exhale (a half cosine), flat through holds.
  static func pacerWaveform(
    _ pacer: [BreathingRecording.PacerEvent], start: Double, count: Int
  ) -> [Double] {
    var out = [Double](repeating: 0, count: count)
    var level = 0.0
    var index = 0
    for i in 0..<count {
      let t = start + Double(i) / rate
      while index + 1 < pacer.count && pacer[index + 1].t <= t { index += 1 }
      guard t >= pacer[0].t else {
        out[i] = level
        continue
      }
      let phase = pacer[index]
      let end = index + 1 < pacer.count ? pacer[index + 1].t : phase.t + 4
      let progress = min(1, max(0, (t - phase.t) / max(0.001, end - phase.t)))
      let ease = (1 - cos(Double.pi * progress)) / 2
      switch phase.phase {
      case .inhale: level = ease
      case .exhale: level = 1 - ease
      case .hold: break
      }
      out[i] = level
    }
    return out
  }

  /// The phase-locking value |mean e^{i(a−b)}| over `range`, and the mean angle.
  static func locking(_ a: [Double], _ b: [Double], _ range: Range<Int>) -> (
    plv: Double, angle: Double
  ) {
    var c = 0.0
    var s = 0.0
    for i in range {
      c += cos(a[i] - b[i])
      s += sin(a[i] - b[i])
    }
    let n = Double(range.count)
    return (sqrt(c * c + s * s) / n, atan2(s, c))
  }

  /// Coherence as published (McCraty & Zayas 2014): the pulse resampled at 2 Hz, its Hann-
  /// windowed periodogram (zero-padded to 512 points); the highest peak in 0.04–0.26 Hz; peak
  /// power within ±0.015 Hz of it, divided by total power (0.0033–0.4 Hz) minus peak power.
  static func coherence(_ pulse: [BreathingRecording.Sample]) -> (Double?, Double?) {
    let x = Resample.linear(times: pulse.map(\.t), values: pulse.map(\.value), rate: 2)
    let n = x.count
    let mean = x.reduce(0, +) / Double(n)
    let tapered = x.enumerated().map {
      ($1 - mean) * (0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n)))
    }
    let length = max(512, n)
    let power = FFT.powerSpectrum(tapered, length: length)
    let frequency = { (k: Int) in Double(k) * 2 / Double(length) }
    let peakBins = power.indices.filter { frequency($0) >= 0.04 && frequency($0) <= 0.26 }
    guard let peak = peakBins.max(by: { power[$0] < power[$1] }) else { return (nil, nil) }
    let peakHz = frequency(peak)
    let peakPower = power.indices.filter { abs(frequency($0) - peakHz) <= 0.015 }.reduce(0) {
      $0 + power[$1]
    }
    let total = power.indices.filter { frequency($0) >= 0.0033 && frequency($0) <= 0.4 }.reduce(0) {
      $0 + power[$1]
    }
    guard total > peakPower else { return (nil, peakHz) }
    return (peakPower / (total - peakPower), peakHz)
  }

  /// Mean peak-to-trough pulse per breath, over breaths with two pulse readings or more.
  static func rsa(
    _ cycles: [(start: Int, end: Int)], start: Double, pulse: [BreathingRecording.Sample]
  ) -> Double? {
    var amplitudes: [Double] = []
    for cycle in cycles {
      let from = start + Double(cycle.start) / rate
      let to = start + Double(cycle.end) / rate
      let inside = pulse.filter { $0.t >= from && $0.t < to }.map(\.value)
      if inside.count >= 2, let high = inside.max(), let low = inside.min() {
        amplitudes.append(high - low)
      }
    }
    return amplitudes.isEmpty ? nil : amplitudes.reduce(0, +) / Double(amplitudes.count)
  }

  static func mode(_ labels: [String]) -> String? {
    var counts: [String: Int] = [:]
    for label in labels { counts[label, default: 0] += 1 }
    return counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
  }
}

extension BreathingAnalysis {
  /// A figure of `result`, by its name.
  package subscript<Value>(dynamicMember keyPath: KeyPath<BreathingResult, Value>) -> Value {
    result[keyPath: keyPath]
  }
}
