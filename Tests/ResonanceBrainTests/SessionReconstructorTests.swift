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
