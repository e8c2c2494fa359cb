import ResonanceModel
import Testing

@testable import ResonanceBrain

@Suite("State engine: a state vector every 30 seconds")
struct StateEngineTests {
  let second = Int64(1000)
  let minute = Int64(60_000)
  let hour = Int64(3_600_000)
  /// 2024-01-15T12:00:00Z, so that a birth year of 1984 makes the person 40.
  let noon = Int64(1_705_320_000_000)

  /// Equal within 1e-9 (the formulas' constants, like 0.7, are not exact in binary).
  func close(_ a: Double?, _ b: Double) -> Bool {
    guard let a else { return false }
    return abs(a - b) <= 1e-9
  }

  func sample(_ timeMs: Int64, _ value: Double) -> SignalSample {
    SignalSample(timeMs: timeMs, value: value)
  }

  func mood(_ timeMs: Int64, tap: Int? = nil, valence: Double? = nil, energy: Double? = nil)
    -> MoodInput
  {
    MoodInput(
      time: Timestamp(millisecondsSinceEpoch: timeMs), device: "watch", tap: tap,
      valence: valence, energy: energy)
  }

  /// One period from `noon` lasting `durationMs`, with the given inputs.
  func run(
    durationMs: Int64, context: ActivityContext = .general, heartRate: [SignalSample] = [],
    hrv: [SignalSample] = [], resting: [SignalSample] = [], age: PersonAge = .years(40),
    mood: [MoodInput] = []
  ) -> [StateTick] {
    StateEngine.ticks(
      periods: [StatePeriod(startMs: noon, endMs: noon + durationMs, context: context)],
      heartRate: heartRate, hrv: hrv, restingHeartRate: resting, age: age, mood: mood)
  }

  @Test(
    "the seed's numbers: resting 60, age 40 → max 180, HR 120 → arousal 0.5; HRV 50 → energy 0.5")
  func seedNumbers() throws {
    #expect(close(StateEngine.maxHeartRate(ageYears: 40), 180))
    let ticks = run(
      durationMs: 30 * second, heartRate: [sample(noon - minute, 120)],
      hrv: [sample(noon - 5 * minute, 50)], resting: [sample(noon - hour, 60)])
    let tick = try #require(ticks.first)
    #expect(ticks.count == 1 && tick.timeMs == noon)
    #expect(close(tick.state.arousal, 0.5))
    #expect(tick.state.stress == 0.5)
    #expect(close(tick.state.energy, 0.6 * 0.5 + 0.4 * 0.5))
    #expect(tick.state.focus == 0.5)
    #expect(tick.state.valence == 0.5)
    #expect(tick.need == .moodLift)
    #expect(close(tick.evidence.maxHeartRate, 180) && tick.evidence.isAgeKnown)
    #expect(tick.evidence.restingHeartRate == 60 && tick.evidence.restingSource == .record)
    #expect(tick.evidence.heartRate == sample(noon - minute, 120))
    #expect(
      tick.evidence.hrv == sample(noon - 5 * minute, 50) && tick.evidence.hrvFreshness == .fresh)
  }

  @Test("arousal is clamped to 0…1 and missing without a reading, a baseline or a reserve")
  func arousalBounds() {
    #expect(StateEngine.arousal(heartRate: 50, resting: 60, maximum: 180) == 0)
    #expect(StateEngine.arousal(heartRate: 200, resting: 60, maximum: 180) == 1)
    #expect(StateEngine.arousal(heartRate: 90, resting: 60, maximum: 180) == 0.25)
    #expect(StateEngine.arousal(heartRate: nil, resting: 60, maximum: 180) == nil)
    #expect(StateEngine.arousal(heartRate: 90, resting: nil, maximum: 180) == nil)
    #expect(StateEngine.arousal(heartRate: 90, resting: 180, maximum: 180) == nil)
    #expect(StateEngine.energy(arousal: 1, stress: 0) == 1)
    #expect(StateEngine.energy(arousal: nil, stress: 0.5) == nil)
    #expect(StateEngine.energy(arousal: 0.5, stress: nil) == nil)
  }

  @Test("age: from the birth year at the period's UTC year, else the documented 40")
  func age() throws {
    #expect(StateEngine.age(.birthYear(1984), atMs: noon) == (40, true))
    #expect(StateEngine.age(.years(30), atMs: noon) == (30, true))
    #expect(StateEngine.age(.unknown, atMs: noon) == (40, false))
    #expect(StateEngine.age(.birthYear(2030), atMs: noon) == (40, false))
    #expect(close(StateEngine.maxHeartRate(ageYears: 30), 187))
    let tick = try #require(run(durationMs: 1, age: .unknown).first)
    #expect(close(tick.evidence.maxHeartRate, 180) && !tick.evidence.isAgeKnown)
  }

  @Test("the baseline is refreshed every 30 minutes from the latest resting record at or before")
  func restingRefresh() {
    let resting = [
      sample(noon - 2 * hour, 64),
      sample(noon - hour, 60),
      sample(noon + 10 * minute, 55),  // known from +10 min: used from the +30 min refresh
      sample(noon + 60 * minute, 70),  // exactly at the +60 min refresh: used from then
      sample(noon + 75 * minute, 99),  // after the last refresh: never used
    ]
    let ticks = run(durationMs: 80 * minute, resting: resting)
    #expect(ticks.count == 160)
    func baseline(atMinute m: Int64) -> Double? {
      ticks.first { $0.timeMs == noon + m * minute }?.evidence.restingHeartRate
    }
    #expect(baseline(atMinute: 0) == 60)
    #expect(baseline(atMinute: 29) == 60)
    #expect(baseline(atMinute: 30) == 55)
    #expect(baseline(atMinute: 59) == 55)
    #expect(baseline(atMinute: 60) == 70)
    #expect(baseline(atMinute: 79) == 70)
    #expect(ticks.allSatisfy { $0.evidence.restingSource == .record })
  }

  @Test("without a resting record: the 5th percentile of the last 24 hours' heart rate, or none")
  func restingFallback() {
    // 100 samples of 50 … 149 bpm over the previous 24 hours: the 5th of them is 54.
    let day = (0..<100).map { sample(noon - 23 * hour + Int64($0) * 10 * minute, Double(50 + $0)) }
    let fallback = StateEngine.restingBaseline(atMs: noon, records: [], heartRate: day)
    #expect(fallback.bpm == 54 && fallback.source == .percentile)
    // A record older than 7 days does not count.
    let old = [sample(noon - 8 * 24 * hour, 58)]
    #expect(
      StateEngine.restingBaseline(atMs: noon, records: old, heartRate: day) == (54, .percentile))
    let recent = [sample(noon - 6 * 24 * hour, 58)]
    #expect(
      StateEngine.restingBaseline(atMs: noon, records: recent, heartRate: day) == (58, .record))
    // Fewer than 30 samples: no baseline, so no arousal.
    let few = Array(day.suffix(29))
    #expect(
      StateEngine.restingBaseline(atMs: noon, records: [], heartRate: few) == (nil, .unavailable))
    let ticks = run(durationMs: minute, heartRate: few)
    #expect(
      ticks.allSatisfy { $0.state.arousal == nil && $0.evidence.restingSource == .unavailable })
  }

  @Test(
    "mood weight: 0.7 at entry, 0.35 at 7.5 min, 0 at 15 and 20 min",
    arguments: [
      (Int64(0), 0.7), (Int64(450_000), 0.35), (Int64(900_000), 0.0), (Int64(1_200_000), 0.0),
    ])
  func moodWeight(elapsedMs: Int64, weight: Double) {
    #expect(abs(StateEngine.moodWeight(elapsedMs: elapsedMs) - weight) < 1e-12)
  }

  @Test("valence blends a 😊 tap into the stress-based base and lets it fade over 15 minutes")
  func moodBlend() throws {
    let ticks = run(
      durationMs: 21 * minute, hrv: [sample(noon, 50)], mood: [mood(noon, tap: 1)])
    func at(_ ms: Int64) throws -> StateTick {
      try #require(ticks.first { $0.timeMs == noon + ms })
    }
    // Base 0.75 − 0.5 × 0.5 = 0.5; the tap is valence 1.
    #expect(try close(at(0).state.valence, 0.3 * 0.5 + 0.7 * 1))
    #expect(try close(at(450_000).state.valence, 0.65 * 0.5 + 0.35 * 1))
    #expect(try at(450_000).evidence.mood == sample(noon, 1))
    #expect(try at(15 * minute).state.valence == 0.5)
    #expect(try at(15 * minute).evidence.mood == nil && at(15 * minute).evidence.moodWeight == 0)
    #expect(try at(20 * minute).state.valence == 0.5)
  }

  @Test("a mood input as valence: taps to 0, 0.5, 1; the slider as given; energy alone is none")
  func moodValence() {
    #expect(StateEngine.moodValence(mood(0, tap: -1)) == 0)
    #expect(StateEngine.moodValence(mood(0, tap: 0)) == 0.5)
    #expect(StateEngine.moodValence(mood(0, tap: 1)) == 1)
    #expect(StateEngine.moodValence(mood(0, valence: 0.62, energy: 0.4)) == 0.62)
    #expect(StateEngine.moodValence(mood(0, valence: 1.4)) == 1)
    #expect(StateEngine.moodValence(mood(0, energy: 0.4)) == nil)
    #expect(StateEngine.moodValence(mood(0, valence: .nan)) == nil)
  }

  @Test("a later mood input replaces an earlier one; one without valence is ignored")
  func moodReplacement() throws {
    let inputs = [
      mood(noon - 5 * minute, tap: -1), mood(noon - minute, valence: 0.8),
      mood(noon, energy: 0.9),
    ]
    let tick = try #require(run(durationMs: 1, hrv: [sample(noon, 50)], mood: inputs).first)
    #expect(tick.evidence.mood == sample(noon - minute, 0.8))
    let weight = 0.7 * (1 - 1.0 / 15)
    #expect(abs(tick.evidence.moodWeight - weight) < 1e-12)
    #expect(close(tick.state.valence, (1 - weight) * 0.5 + weight * 0.8))
  }

  @Test("heart rate older than 10 minutes is missing: no arousal or energy, never an invented one")
  func staleHeartRate() throws {
    let ticks = run(
      durationMs: 2 * minute, heartRate: [sample(noon - 9 * minute, 120)],
      hrv: [sample(noon, 50)], resting: [sample(noon - hour, 60)])
    #expect(ticks.map(\.timeMs) == [0, 30, 60, 90].map { noon + $0 * second })
    #expect(close(ticks[0].state.arousal, 0.5) && close(ticks[2].state.arousal, 0.5))
    #expect(ticks[2].evidence.heartRate != nil)  // exactly 10 minutes old
    #expect(ticks[3].state.arousal == nil && ticks[3].evidence.heartRate == nil)
    #expect(ticks[3].state.energy == nil)
    #expect(ticks[3].state.stress == 0.5 && ticks[3].state.valence == 0.5)
  }

  @Test("HRV: fresh to 30 minutes, carried to 6 hours, then missing — no stress, energy or valence")
  func hrvFreshness() throws {
    let hrv = [sample(noon, 25)]
    let fresh = try #require(run(durationMs: 1, hrv: hrv).first)
    #expect(fresh.evidence.hrvFreshness == .fresh && fresh.state.stress == 1)
    func tick(after ms: Int64) throws -> StateTick {
      try #require(
        StateEngine.ticks(
          periods: [StatePeriod(startMs: noon + ms, endMs: noon + ms + 1, context: .deepWork)],
          heartRate: [], hrv: hrv, restingHeartRate: [], age: .years(40), mood: []
        ).first)
    }
    #expect(try tick(after: 30 * minute).evidence.hrvFreshness == .fresh)
    #expect(try tick(after: 30 * minute + 1).evidence.hrvFreshness == .carried)
    let carried = try tick(after: 6 * hour)
    #expect(carried.evidence.hrvFreshness == .carried && carried.state.stress == 1)
    #expect(carried.need == .calm)  // HRV 25 ms: stress 1 forces calm even in deep work
    let missing = try tick(after: 6 * hour + 1)
    #expect(missing.evidence.hrvFreshness == .missing && missing.evidence.hrv == nil)
    #expect(missing.state.stress == nil && missing.state.energy == nil)
    #expect(missing.state.valence == nil)
    #expect(missing.need == .focus)  // unknown stress cannot force calm
    #expect(missing.state.focus == 0.8)
  }

  @Test(
    "focus by context; pre-sleep is penalised by arousal",
    arguments: [
      (ActivityContext.deepWork, 0.8), (.workout, 0.3), (.general, 0.5), (.commute, 0.4),
      (.wakeUp, 0.4), (.relax, 0.3),
    ])
  func focus(context: ActivityContext, expected: Double) {
    #expect(StateEngine.focus(context: context, arousal: 0.9) == expected)
    #expect(StateEngine.focus(context: context, arousal: nil) == expected)
  }

  @Test("pre-sleep focus: 0.3 × (1 − arousal), none without arousal")
  func preSleepFocus() {
    #expect(StateEngine.focus(context: .preSleep, arousal: 0) == 0.3)
    #expect(close(StateEngine.focus(context: .preSleep, arousal: 0.5), 0.15))
    #expect(StateEngine.focus(context: .preSleep, arousal: 1) == 0)
    #expect(StateEngine.focus(context: .preSleep, arousal: nil) == nil)
  }

  @Test("empty inputs: no periods, no ticks; a period without readings, ticks of unknowns")
  func emptyInputs() throws {
    #expect(
      StateEngine.ticks(
        periods: [], heartRate: [], hrv: [], restingHeartRate: [], age: .unknown, mood: []
      ).isEmpty)
    let ticks = run(durationMs: minute, context: .workout)
    #expect(ticks.count == 2)
    let tick = try #require(ticks.first)
    #expect(
      tick.state == StateVector(arousal: nil, stress: nil, energy: nil, focus: 0.3, valence: nil))
    #expect(tick.need == .energy)
    #expect(tick.evidence.restingSource == .unavailable && tick.evidence.hrvFreshness == .missing)
    #expect(tick.evidence.mood == nil && tick.evidence.moodWeight == 0)
  }

  @Test("NaN, zero and negative readings are left out")
  func badReadings() throws {
    let tick = try #require(
      run(
        durationMs: 1, heartRate: [sample(noon - minute, 90), sample(noon, .nan)],
        hrv: [sample(noon - minute, 50), sample(noon, 0)],
        resting: [sample(noon - hour, 60), sample(noon, -1)]
      ).first)
    #expect(tick.evidence.heartRate?.value == 90)
    #expect(tick.evidence.hrv?.value == 50)
    #expect(tick.evidence.restingHeartRate == 60)
  }

  @Test("ticks every 30 s from each period's start, before its end; each names its period")
  func tickSpacing() {
    let start = noon + 12_345  // not on a 30-second boundary: ticks follow the period
    let periods = [
      StatePeriod(startMs: start, endMs: start + 95 * second, context: .general),
      StatePeriod(startMs: start + hour, endMs: start + hour + 10 * second, context: .relax),
      StatePeriod(startMs: start + 2 * hour, endMs: start + 2 * hour, context: .relax),
      StatePeriod(startMs: start + 3 * hour, endMs: start + 3 * hour - 1, context: .relax),
      StatePeriod(startMs: start, endMs: start + 60 * second, context: .workout),
    ]
    let ticks = StateEngine.ticks(
      periods: periods, heartRate: [], hrv: [], restingHeartRate: [], age: .unknown, mood: [])
    #expect(
      ticks.map(\.timeMs)
        == [0, 30, 60, 90].map { start + $0 * second } + [start + hour]
        + [0, 30].map { start + $0 * second })
    #expect(ticks.map(\.period) == [0, 0, 0, 0, 1, 4, 4])
    #expect(
      ticks.map(\.context) == [.general, .general, .general, .general, .relax, .workout, .workout])
  }

  @Test("deterministic, and the same whatever order the readings come in")
  func determinism() {
    var rng = SplitMix(seed: 42)
    let heartRate = (0..<2_000).map {
      sample(noon - hour + Int64($0) * 5 * second, 60 + rng.unit() * 80)
    }
    let hrv = (0..<60).map { sample(noon - hour + Int64($0) * 3 * minute, 20 + rng.unit() * 60) }
    let moods = (0..<10).map { mood(noon + Int64($0) * 6 * minute, tap: Int(rng.unit() * 3) - 1) }
    let resting = [sample(noon - 3 * hour, 58)]
    let periods = [
      StatePeriod(startMs: noon - 30 * minute, endMs: noon + 40 * minute, context: .deepWork),
      StatePeriod(startMs: noon + 45 * minute, endMs: noon + 90 * minute, context: .preSleep),
    ]
    func run(_ hr: [SignalSample], _ v: [SignalSample], _ m: [MoodInput]) -> [StateTick] {
      StateEngine.ticks(
        periods: periods, heartRate: hr, hrv: v, restingHeartRate: resting, age: .birthYear(1984),
        mood: m)
    }
    let first = run(heartRate, hrv, moods)
    #expect(first.count == 140 + 90)
    #expect(first == run(heartRate, hrv, moods))
    #expect(first == run(heartRate.reversed(), hrv.reversed(), moods.reversed()))
    #expect(
      first.allSatisfy { tick in
        [
          tick.state.arousal, tick.state.stress, tick.state.energy, tick.state.focus,
          tick.state.valence,
        ]
        .allSatisfy { $0.map { (0...1).contains($0) } ?? true }
      })
  }
}

/// A small seeded generator (SplitMix64), so the test data are the same on every run.
private struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func unit() -> Double {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    z ^= z >> 31
    return Double(z >> 11) / Double(1 << 53)
  }
}
