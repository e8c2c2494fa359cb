import ResonanceModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Draws one breathing-pacer recording: the pacer's phase events, the chest waveform the
/// camera would see (following the pacer in the phases the person followed, breathing at their
/// own pace in the others), pulse rate with respiratory sinus arrhythmia, HRV before and after,
/// the SDK's rate estimate and the facial expression.
struct BreathingRecorder {
  static let sampleRateHz = 30.0
  /// The person's own breathing rate when not following the pacer, breaths/min.
  static func ownRate(_ session: SynthBreathing, seed: UInt64) -> Double {
    9 + 7 * HashNoise.uniform(seed, key: UInt64(session.id), salt: 11)
  }

  struct Recording {
    var text: [UInt8]
    /// Share of inhale and exhale phases followed.
    var adherence: Double
    /// Breaths per minute the waveform actually holds.
    var trueRate: Double
  }

  static func record(_ session: SynthBreathing, history: SynthHistory) -> Recording {
    var rng = SplitMix64(seed: history.configuration.seed ^ UInt64(session.id), stream: "breathing")
    let phases = session.pattern.phases
    let seconds = session.pattern.sessionSeconds
    let own = ownRate(session, seed: history.configuration.seed)
    let offset = history.calendar.offset(utcMs: session.startMs)

    // The pacer schedule, and for each phase whether it was followed.
    var schedule: [(start: Double, end: Double, phase: String, followed: Bool)] = []
    var t = 0.0
    var i = 0
    var lastFollowed = false
    while t < seconds {
      let (phase, length) = phases[i % phases.count]
      let followed = phase == "hold" ? lastFollowed : rng.chance(session.adherence)
      if phase != "hold" { lastFollowed = followed }
      schedule.append((t, min(seconds, t + length), phase, followed))
      t += length
      i += 1
    }
    let moving = schedule.filter { $0.phase != "hold" }
    let adherence = Double(moving.filter(\.followed).count) / Double(max(1, moving.count))
    var breaths = 0.0
    for segment in schedule {
      if segment.followed {
        if segment.phase == "inhale" { breaths += 1 }
      } else {
        breaths += own / 60 * (segment.end - segment.start)
      }
    }
    let trueRate = breaths / (seconds / 60)

    var text = TextBuilder()
    text.add(
      "{\"format\":\"resonance.breathing\",\"version\":1,\"generator\":\"resonance synth\",\"session\":"
    )
    text.int(session.id + 1)
    text.add(",\"pattern\":\"\(session.pattern.rawValue)\",\"phases\":[")
    for (k, p) in phases.enumerated() {
      if k > 0 { text.add(",") }
      text.add("{\"phase\":\"\(p.phase)\",\"seconds\":")
      text.number(p.seconds, 1)
      text.add("}")
    }
    text.add("],\"started\":\"")
    text.isoUTC(session.startMs, milliseconds: true)
    text.add("\",\"offset\":")
    text.int(Int(offset))
    text.add(",\"duration_s\":")
    text.number(seconds, 1)
    text.add(",\"trace_rate_hz\":30}\n")

    text.add("{\"t\":0,\"hrv\":")
    text.number(session.hrvBefore, 1)
    text.add("}\n")
    var position = 0.5
    var segmentIndex = 0
    var segmentStartPosition = 0.5
    let drift = rng.uniform(0, 2 * Double.pi)
    let samples = Int(seconds * sampleRateHz)
    for n in 0..<samples {
      let time = Double(n) / sampleRateHz
      while segmentIndex < schedule.count - 1 && time >= schedule[segmentIndex].end {
        segmentIndex += 1
        segmentStartPosition = position
      }
      let segment = schedule[segmentIndex]
      if abs(time - segment.start) < 0.5 / sampleRateHz {
        text.add("{\"t\":")
        text.number(time, 3)
        text.add(",\"pacer\":\"\(segment.phase)\"}\n")
      }
      let progress = (time - segment.start) / max(0.001, segment.end - segment.start)
      if segment.followed {
        let target: Double =
          segment.phase == "inhale" ? 1 : segment.phase == "exhale" ? 0 : segmentStartPosition
        let ease = (1 - cos(Double.pi * min(1, progress))) / 2
        position = segmentStartPosition + (target - segmentStartPosition) * ease
      } else {
        position = 0.5 + 0.42 * sin(2 * Double.pi * own / 60 * time + drift)
      }
      let value = position + 0.05 * sin(2 * Double.pi * time / 40 + drift) + rng.normal(0, 0.015)
      text.add("{\"t\":")
      text.number(time, 3)
      text.add(",\"trace\":")
      text.fixed(value, 4)
      text.add("}\n")
      if n % Int(sampleRateHz) == 0 {
        let ms = session.startMs + Int64(time * 1000)
        let pulse = history.heartRate(at: ms) + 6 * (position - 0.5) + rng.normal(0, 0.4)
        text.add("{\"t\":")
        text.number(time, 3)
        text.add(",\"pulse\":")
        text.fixed(pulse, 1)
        text.add(",\"rate\":")
        text.fixed(trueRate + rng.normal(0, 0.8), 1)
        text.add("}\n")
        if n % Int(4 * sampleRateHz) == 0 {
          text.add("{\"t\":")
          text.number(time, 3)
          text.add(
            ",\"expression\":\"\(rng.chance(0.7) ? session.expression : rng.pick(Extras.expressions))\"}\n"
          )
        }
      }
    }
    text.add("{\"t\":")
    text.number(seconds, 3)
    text.add(",\"hrv\":")
    text.number(session.hrvAfter, 1)
    text.add("}\n")
    return Recording(text: text.bytes, adherence: adherence, trueRate: trueRate)
  }
}
