import ResonanceModel

extension StateEngine {
  /// The state every 30 seconds of each period, from the readings at or before each tick.
  ///
  /// Ticks fall at `startMs`, `startMs + 30 s`, … while before `endMs`, so a period shorter
  /// than 30 seconds has one tick and an empty or reversed one has none. Periods are taken in
  /// the order given and each tick names its period's index; overlapping periods each get
  /// their own ticks. At a tick the engine uses only readings at or before it:
  /// - heart rate: the latest sample at most 10 minutes old, else no arousal;
  /// - resting baseline: at the period's start and every 30 minutes after, the latest resting
  ///   record at most 7 days old, else the 5th percentile (to the whole bpm) of the heart rate
  ///   of the 24 hours before, given at least 30 samples, else none (no arousal);
  /// - HRV: the latest reading, fresh up to 30 minutes old, carried (flagged) up to 6 hours,
  ///   else no stress, energy or valence;
  /// - mood: the latest input with a valence, weighted 0.7 falling to 0 over 15 minutes.
  ///
  /// Readings need not be sorted (they are sorted when they are not); non-finite and
  /// non-positive heart rate, HRV and resting values are left out.
  ///
  /// - Complexity: O(T + S + P log S) for T ticks, S samples and P periods when the inputs
  ///   are sorted — binary search finds each period's first reading and cursors move forward
  ///   tick by tick; the resting fallback adds O(samples in 24 h) per refresh that needs it.
  /// - Parameters:
  ///   - periods: the spans to estimate over, each with its context.
  ///   - heartRate: heart-rate samples, bpm.
  ///   - hrv: HRV (SDNN) readings, ms.
  ///   - restingHeartRate: resting-HR records (bpm), each at the instant it became known.
  ///   - age: the person's birth year or age, for the maximum heart rate.
  ///   - mood: manual mood inputs; those without a valence are ignored.
  /// - Returns: the ticks, period by period, each in time order.
  package static func ticks(
    periods: [StatePeriod], heartRate: [SignalSample], hrv: [SignalSample],
    restingHeartRate: [SignalSample], age: PersonAge, mood: [MoodInput]
  ) -> [StateTick] {
    let heartRate = cleaned(heartRate)
    let hrv = cleaned(hrv)
    let resting = cleaned(restingHeartRate)
    let mood = sortedByTime(
      mood.compactMap { input in
        moodValence(input).map {
          SignalSample(timeMs: input.time.millisecondsSinceEpoch, value: $0)
        }
      })

    var ticks: [StateTick] = []
    ticks.reserveCapacity(
      periods.reduce(0) { total, p in
        p.endMs > p.startMs ? total + Int((p.endMs - p.startMs - 1) / tickMs) + 1 : total
      })

    for (index, period) in periods.enumerated() where period.endMs > period.startMs {
      let (ageYears, isAgeKnown) = self.age(age, atMs: period.startMs)
      let maximum = maxHeartRate(ageYears: ageYears)
      var hrCursor = firstIndex(after: period.startMs, in: heartRate)
      var hrvCursor = firstIndex(after: period.startMs, in: hrv)
      var moodCursor = firstIndex(after: period.startMs, in: mood)
      var nextRefreshMs = period.startMs
      var baseline: (bpm: Double?, source: RestingSource) = (nil, .unavailable)

      var t = period.startMs
      while t < period.endMs {
        if t >= nextRefreshMs {
          baseline = restingBaseline(atMs: t, records: resting, heartRate: heartRate)
          nextRefreshMs += restingRefreshMs
        }
        advance(&hrCursor, through: t, in: heartRate)
        advance(&hrvCursor, through: t, in: hrv)
        advance(&moodCursor, through: t, in: mood)

        let hrSample = latest(
          before: hrCursor, in: heartRate, atMs: t, maxAgeMs: heartRateStalenessMs)
        let hrvSample = latest(before: hrvCursor, in: hrv, atMs: t, maxAgeMs: hrvCarryMs)
        let freshness: HRVFreshness =
          hrvSample.map { t - $0.timeMs <= hrvFreshMs ? .fresh : .carried } ?? .missing
        var moodSample = moodCursor > 0 ? mood[moodCursor - 1] : nil
        let weight = moodSample.map { moodWeight(elapsedMs: t - $0.timeMs) } ?? 0
        if weight == 0 { moodSample = nil }

        let arousal = self.arousal(
          heartRate: hrSample?.value, resting: baseline.bpm, maximum: maximum)
        let stress = hrvSample.map { NeedRule.stress(hrvMs: $0.value) }
        ticks.append(
          StateTick(
            timeMs: t, period: index, context: period.context,
            state: StateVector(
              arousal: arousal, stress: stress, energy: energy(arousal: arousal, stress: stress),
              focus: focus(context: period.context, arousal: arousal),
              valence: valence(stress: stress, mood: moodSample?.value, weight: weight)),
            need: need(context: period.context, stress: stress),
            evidence: StateEvidence(
              heartRate: hrSample, restingHeartRate: baseline.bpm, restingSource: baseline.source,
              maxHeartRate: maximum, isAgeKnown: isAgeKnown, hrv: hrvSample,
              hrvFreshness: freshness, mood: moodSample, moodWeight: weight)))
        t += tickMs
      }
    }
    return ticks
  }

  /// The resting baseline at a refresh instant: the latest record at or before it, at most
  /// 7 days old; else the 5th percentile of the previous 24 hours' heart rate (at least 30
  /// samples), to the whole bpm; else none.
  ///
  /// - Complexity: O(log R + log S), plus O(samples in the 24 hours) for the fallback.
  package static func restingBaseline(
    atMs refreshMs: Int64, records: [SignalSample], heartRate: [SignalSample]
  ) -> (bpm: Double?, source: RestingSource) {
    let r = firstIndex(after: refreshMs, in: records)
    if r > 0, refreshMs - records[r - 1].timeMs <= restingRecordMaxAgeMs {
      return (records[r - 1].value, .record)
    }
    let low = firstIndex(after: refreshMs - restingFallbackWindowMs, in: heartRate)
    let high = firstIndex(after: refreshMs, in: heartRate)
    let count = high - low
    guard count >= restingFallbackMinimumSamples else { return (nil, .unavailable) }
    // A histogram of whole bpm finds the percentile in one pass, with no sort.
    var bins = [Int](repeating: 0, count: 301)
    for i in low..<high { bins[Int(min(300, heartRate[i].value.rounded()))] += 1 }
    let rank = max(1, Int((restingFallbackPercentile * Double(count)).rounded(.up)))
    var seen = 0
    for (bpm, n) in bins.enumerated() {
      seen += n
      if seen >= rank { return (Double(bpm), .percentile) }
    }
    return (nil, .unavailable)  // unreachable: the bins hold `count` ≥ `rank` samples
  }

  /// The finite, positive readings, in time order.
  static func cleaned(_ samples: [SignalSample]) -> [SignalSample] {
    sortedByTime(samples.filter { $0.value.isFinite && $0.value > 0 })
  }

  static func sortedByTime(_ samples: [SignalSample]) -> [SignalSample] {
    var isSorted = true
    var i = 1
    while i < samples.count, isSorted {
      isSorted = samples[i - 1].timeMs <= samples[i].timeMs
      i += 1
    }
    return isSorted ? samples : samples.sorted { $0.timeMs < $1.timeMs }
  }

  /// The index of the first sample later than `timeMs` (binary search over sorted samples).
  static func firstIndex(after timeMs: Int64, in samples: [SignalSample]) -> Int {
    samples.partitioningIndex { $0.timeMs > timeMs }
  }

  /// Moves a cursor past every sample at or before `timeMs`.
  static func advance(_ cursor: inout Int, through timeMs: Int64, in samples: [SignalSample]) {
    while cursor < samples.count, samples[cursor].timeMs <= timeMs { cursor += 1 }
  }

  /// The sample just before the cursor, if it is at most `maxAgeMs` older than `timeMs`.
  static func latest(
    before cursor: Int, in samples: [SignalSample], atMs timeMs: Int64, maxAgeMs: Int64
  ) -> SignalSample? {
    guard cursor > 0, timeMs - samples[cursor - 1].timeMs <= maxAgeMs else { return nil }
    return samples[cursor - 1]
  }
}
