import ResonanceModel
import Testing

@testable import ResonanceBrain

@Suite("Session reconstruction and the context cascade")
struct SessionReconstructorTests {
  /// 2024-03-06 (a Wednesday) 00:00 UTC.
  let wednesday = Int64(1_709_683_200_000)
  let minute = Int64(60_000)
  let hour = Int64(3_600_000)

  func play(_ id: Int64, at ms: Int64, offset: Int32 = 0, minutes: Int64 = 3, skipped: Bool = false)
    -> HistoricalPlay
  {
    HistoricalPlay(
      id: id, start: Timestamp(millisecondsSinceEpoch: ms, utcOffsetSeconds: offset),
      endMs: ms + minutes * minute, playedMs: minutes * minute, mediaDurationMs: 3 * minute,
      wasSkipped: skipped)
  }

  @Test("a gap longer than 30 minutes after a play's end opens a new session; the gap is settable")
  func gaps() {
    let plays = [
      play(1, at: wednesday + 14 * hour), play(2, at: wednesday + 14 * hour + 4 * minute),
      play(3, at: wednesday + 14 * hour + 7 * minute + 31 * minute),
    ]
    let none = { (_: Timestamp) in ContextEvidence() }
    #expect(SessionReconstructor.sessions(plays, evidence: none).map(\.playIDs) == [[1, 2], [3]])
    #expect(
      SessionReconstructor.sessions(plays, gapMs: 40 * minute, evidence: none).map(\.playIDs)
        == [[1, 2, 3]])
    #expect(SessionReconstructor.sessions([], evidence: none).isEmpty)
    // Out of order in, in order out.
    #expect(
      SessionReconstructor.sessions(plays.reversed(), evidence: none).map(\.playIDs) == [
        [1, 2], [3],
      ])
  }

  @Test("midnight, daylight saving and a new offset on a trip do not split a session")
  func clockChanges() {
    let none = { (_: Timestamp) in ContextEvidence() }
    // 23:50 and 00:05 local (UTC−8).
    let midnight = [
      play(1, at: wednesday + 7 * hour + 50 * minute, offset: -28_800),
      play(2, at: wednesday + 8 * hour + 5 * minute, offset: -28_800),
    ]
    let sessions = SessionReconstructor.sessions(midnight, evidence: none)
    #expect(sessions.map(\.playIDs) == [[1, 2]])
    #expect(sessions.first?.context == .preSleep)
    // US daylight saving, 2024-03-10: 01:55 PST, then 03:05 PDT, ten minutes later.
    let dst = Int64(1_710_064_500_000)
    let spring = [
      play(3, at: dst, offset: -28_800), play(4, at: dst + 10 * minute, offset: -25_200),
    ]
    #expect(SessionReconstructor.sessions(spring, evidence: none).map(\.playIDs) == [[3, 4]])
    // Landing in Paris: the same listening, a new offset.
    let trip = [
      play(5, at: wednesday, offset: -28_800), play(6, at: wednesday + 5 * minute, offset: 3_600),
    ]
    #expect(SessionReconstructor.sessions(trip, evidence: none).map(\.playIDs) == [[5, 6]])
  }

  @Test(
    "the cascade: workout, then the Mac, then motion, then the hour (weekend-aware), then general")
  func cascade() {
    let weekday10 = Timestamp(millisecondsSinceEpoch: wednesday + 10 * hour)
    let everything = ContextEvidence(
      inWorkout: true, macFocus: "Work", macAppCategory: "developer-tools", inMeeting: true,
      isMoving: true)
    #expect(ContextCascade.context(everything, at: weekday10) == .workout)
    var evidence = everything
    evidence.inWorkout = false
    #expect(ContextCascade.context(evidence, at: weekday10) == .deepWork)
    #expect(
      ContextCascade.context(ContextEvidence(inMeeting: true), at: weekday10) == .deepWork)
    #expect(
      ContextCascade.context(ContextEvidence(macAppCategory: "games"), at: weekday10) == .general)
    #expect(ContextCascade.context(ContextEvidence(isMoving: true), at: weekday10) == .commute)
    let saturday = wednesday + 3 * 86_400_000
    func at(_ base: Int64, _ hours: Double) -> ActivityContext {
      ContextCascade.context(
        ContextEvidence(), at: Timestamp(millisecondsSinceEpoch: base + Int64(hours * 3_600_000)))
    }
    #expect(at(wednesday, 7) == .wakeUp && at(wednesday, 9.5) == .general)
    #expect(at(saturday, 9.5) == .wakeUp && at(saturday, 14) == .relax)
    #expect(at(wednesday, 14) == .general && at(wednesday, 19) == .relax)
    #expect(at(wednesday, 22) == .preSleep && at(saturday, 22) == .relax)
    #expect(at(wednesday, 3) == .general)
    #expect(LocalTime.weekday(Timestamp(millisecondsSinceEpoch: wednesday)) == 3)
    #expect(
      LocalTime.weekday(Timestamp(millisecondsSinceEpoch: wednesday, utcOffsetSeconds: -3_600)) == 2
    )
  }

  @Test(
    "skip rate, engagement over plays with a duration, and the majority context (ties to the higher)"
  )
  func summary() {
    var plays = [
      play(1, at: wednesday + 19 * hour, minutes: 3),
      play(2, at: wednesday + 19 * hour + 3 * minute, minutes: 1, skipped: true),
      play(3, at: wednesday + 19 * hour + 5 * minute, minutes: 2, skipped: true),
      play(4, at: wednesday + 19 * hour + 8 * minute, minutes: 3),
    ]
    plays[3].mediaDurationMs = nil
    let workoutAtFirst = { (t: Timestamp) in
      ContextEvidence(
        inWorkout: t.millisecondsSinceEpoch < self.wednesday + 19 * self.hour + 4 * self.minute)
    }
    let session = SessionReconstructor.sessions(plays, evidence: workoutAtFirst)[0]
    #expect(session.skipRate == 0.5)
    #expect(abs((session.engagement ?? 0) - (1.0 + 1.0 / 3 + 2.0 / 3) / 3) < 1e-12)
    // Two plays in a workout, two relaxing in the evening: a tie, and workout ranks higher.
    #expect(session.context == .workout)
    #expect(session.endMs == wednesday + 19 * hour + 11 * minute)
  }
}

extension SessionReconstructorTests {
  @Test("listening from work into the walk home is two sessions; a short excursion stays inside")
  func contextRuns() {
    // Sixteen back-to-back plays from 17:00: the Mac says Work for the first seven, then one
    // play with nothing to say (the Mac asleep, the Watch quiet), then two more at work, then
    // six while walking.
    let plays = (0..<16).map { play(Int64($0), at: wednesday + 17 * hour + Int64($0) * 3 * minute) }
    let evidence = { (t: Timestamp) -> ContextEvidence in
      let index = (t.millisecondsSinceEpoch - self.wednesday - 17 * self.hour) / (3 * self.minute)
      switch index {
      case 7: return ContextEvidence()
      case 0..<10: return ContextEvidence(macFocus: "Work")
      default: return ContextEvidence(isMoving: true)
      }
    }
    let sessions = SessionReconstructor.sessions(plays, evidence: evidence)
    #expect(sessions.map(\.context) == [.deepWork, .commute])
    #expect(sessions.map(\.playIDs) == [Array(0..<10), Array(10..<16)])
    #expect(sessions[0].endMs == plays[9].endMs)

    // Two plays of walking at the start join the run after them: no run of three, no split.
    let shortStart = SessionReconstructor.runs([
      .commute, .commute, .deepWork, .deepWork, .deepWork,
    ])
    #expect(shortStart.map(\.range) == [0..<5] && shortStart.map(\.context) == [.deepWork])
    #expect(SessionReconstructor.runs([.relax, .workout]).map(\.context) == [nil])
  }
}

@Suite("History analysis: evidence from the stored signals")
struct HistoryAnalysisTests {
  let minute = Int64(60_000)

  @Test("a workout covers its span; a Mac snapshot speaks for 10 minutes; motion for 2 either side")
  func evidence() {
    let signals = HistoryAnalysis.Signals(
      workouts: [TimeSpan(startMs: 100 * minute, endMs: 140 * minute)],
      mac: [
        MacContextSnapshot(
          time: Timestamp(millisecondsSinceEpoch: 200 * minute), focusMode: "Work",
          appCategory: "developer-tools", inMeeting: false)
      ],
      motion: [
        MotionReading(timeMs: 300 * minute, isMoving: true),
        MotionReading(timeMs: 310 * minute, isMoving: false),
      ], heartRate: [], hrv: [])
    #expect(HistoryAnalysis.evidence(at: 120 * minute, signals).inWorkout)
    #expect(!HistoryAnalysis.evidence(at: 141 * minute, signals).inWorkout)
    #expect(HistoryAnalysis.evidence(at: 209 * minute, signals).macFocus == "Work")
    #expect(HistoryAnalysis.evidence(at: 211 * minute, signals).macFocus == nil)
    #expect(HistoryAnalysis.evidence(at: 199 * minute, signals).macFocus == nil)
    #expect(HistoryAnalysis.evidence(at: 298 * minute, signals).isMoving == true)
    #expect(HistoryAnalysis.evidence(at: 305 * minute, signals).isMoving == nil)
    #expect(HistoryAnalysis.evidence(at: 311 * minute, signals).isMoving == false)
  }

  @Test("sessions carry the heart-rate change against the 10 minutes before their first play")
  func sessionBiometrics() {
    let start = Int64(1_709_740_800_000)  // a Wednesday, 16:00 UTC
    let plays = (0..<3).map { i in
      HistoricalPlay(
        id: Int64(i), start: Timestamp(millisecondsSinceEpoch: start + Int64(i) * 4 * minute),
        endMs: start + Int64(i + 1) * 4 * minute, playedMs: 4 * minute,
        mediaDurationMs: 4 * minute, wasSkipped: false)
    }
    let heartRate = [
      SignalSample(timeMs: start - 5 * minute, value: 60),
      SignalSample(timeMs: start + 5 * minute, value: 70),
      SignalSample(timeMs: start + 9 * minute, value: 74),
    ]
    let analysis = HistoryAnalysis(
      plays: plays,
      signals: .init(workouts: [], mac: [], motion: [], heartRate: heartRate, hrv: []))
    #expect(analysis.sessions.count == 1)
    #expect(analysis.sessions[0].heartRate.delta == 12)
    #expect(analysis.sessions[0].hrv.delta == nil)
    #expect(analysis.plays.map(\.heartRate.samplesDuring) == [0, 1, 1])
  }
}

@Suite("Learning replay over history")
struct LearningReplayTests {
  @Test("an early skip, then a full calming listen: the seed's numbers, by hand; contexts apart")
  func handWorked() {
    let listens = [
      LearningReplay.Listen(
        songID: 7, startMs: 2_000, context: .relax, listenFraction: 1, markedSkipped: false,
        hrDeltaBPM: -2, hrvDeltaMs: 5),
      LearningReplay.Listen(
        songID: 7, startMs: 1_000, context: .relax, listenFraction: 0.1, markedSkipped: true,
        hrDeltaBPM: nil, hrvDeltaMs: nil),
      LearningReplay.Listen(
        songID: 7, startMs: 3_000, context: .workout, listenFraction: nil, markedSkipped: false,
        hrDeltaBPM: nil, hrvDeltaMs: nil),
    ]
    let effects = LearningReplay.replay(listens)
    // First (in time): −0.3 penalty, no credit: targets −0.3, −0.3, −0.3 and mood 0.1 − 0.5 − 0.3;
    // α 0.4 from 0. Then HRV +5 ms → calm 0.5, HR −2 → energy −0.2 (confidence 1, heard in full):
    // calm −0.12 + 0.4 × 0.62, energy −0.12 + 0.4 × −0.08, focus −0.12 + 0.4 × 0.37,
    // mood −0.28 + 0.4 × 0.78.
    #expect(effects.map(\.context) == [.workout, .relax])
    let relax = effects.first { $0.context == .relax }
    #expect(relax?.effect.sampleCount == 2 && relax?.updatedAtMs == 2_000)
    #expect(abs((relax?.effect.calm ?? 9) - 0.128) < 1e-12)
    #expect(abs((relax?.effect.energy ?? 9) - -0.152) < 1e-12)
    #expect(abs((relax?.effect.focus ?? 9) - 0.028) < 1e-12)
    #expect(abs((relax?.effect.mood ?? 9) - 0.032) < 1e-12)
    // A scrobble-like play (no share known, not skipped) counts as heard: mood target 0.5.
    let workout = effects.first { $0.context == .workout }
    #expect(workout?.effect.sampleCount == 1 && abs((workout?.effect.mood ?? 9) - 0.2) < 1e-12)
  }
}
