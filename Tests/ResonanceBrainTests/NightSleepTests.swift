import ResonanceModel
import Testing

@testable import ResonanceBrain

@Suite("Nights from sleep analysis, and each session's next night")
struct NightSleepTests {
  static let minute = Int64(60_000)
  static let hour = Int64(3_600_000)
  /// 2024-03-06, a Wednesday, as a local day number.
  static let day = Timestamp.days(fromYear: 2024, month: 3, day: 6)
  static let pst: Int32 = -28_800
  static let pdt: Int32 = -25_200

  /// Local `h:m` on local day `day` in `offset`; hours past 24 run into the next day.
  static func at(_ day: Int64, _ h: Int64, _ m: Int64 = 0, offset: Int32 = 0) -> Timestamp {
    Timestamp(
      millisecondsSinceEpoch: day * 86_400_000 + h * hour + m * minute - Int64(offset) * 1000,
      utcOffsetSeconds: offset)
  }

  static func record(
    _ value: SleepValue, _ source: String, _ start: Timestamp, _ end: Timestamp
  ) -> SleepInterval {
    SleepInterval(start: start, end: end, value: value, source: source)
  }

  /// Minutes, for comparing durations.
  static func minutes(_ ms: Int64?) -> Int64? { ms.map { $0 / minute } }

  /// An iOS 16+ night: the iPhone's in-bed span, the Watch's stages inside it.
  static func stagedNight(_ d: Int64 = day, offset: Int32 = 0) -> [SleepInterval] {
    let w = "Anna's Apple Watch"
    func t(_ h: Int64, _ m: Int64) -> Timestamp { at(d, h, m, offset: offset) }
    return [
      record(.inBed, "Anna's iPhone", t(22, 50), t(31, 5)),
      record(.core, w, t(23, 0), t(24, 30)),
      record(.deep, w, t(24, 30), t(25, 30)),
      record(.core, w, t(25, 30), t(26, 30)),
      record(.rem, w, t(26, 30), t(27, 30)),
      record(.awake, w, t(27, 30), t(27, 45)),
      record(.core, w, t(27, 45), t(29, 45)),
      record(.rem, w, t(29, 45), t(30, 45)),
      record(.awake, w, t(30, 45), t(31, 0)),
    ]
  }

  @Test("a stage-era night: span, asleep time, efficiency, deep and REM shares by hand")
  func stagedNight() throws {
    let nights = SleepNights.nights(from: Self.stagedNight().reversed())
    let night = try #require(nights.first)
    #expect(nights.count == 1)
    #expect(night.bedtime == Self.at(Self.day, 22, 50))
    #expect(night.wake == Self.at(Self.day, 31, 5))
    #expect(night.sleepOnset == Self.at(Self.day, 23, 0))
    #expect(night.eveningDay == Self.day)
    #expect(night.primarySource == "Anna's Apple Watch")
    // 22:50–07:05 is 495 minutes; asleep 90 + 60 + 60 + 60 + 120 + 60 = 450.
    #expect(Self.minutes(night.timeInBedMs) == 495)
    #expect(Self.minutes(night.asleepMs) == 450)
    #expect(night.awakeMinutes == 45)
    #expect(abs(try #require(night.efficiency) - 450.0 / 495) < 1e-12)
    #expect(abs(try #require(night.deepShare) - 60.0 / 450) < 1e-12)
    #expect(abs(try #require(night.remShare) - 120.0 / 450) < 1e-12)
    #expect(abs(try #require(night.restorativeShare) - 180.0 / 450) < 1e-12)
  }

  @Test("an old-era night of in-bed and asleep spans has no stage shares, never invented ones")
  func oldEraNight() throws {
    let asleep = try #require(SleepValue(healthKit: "HKCategoryValueSleepAnalysisAsleep"))
    let d = Self.day
    let intervals = [
      Self.record(.inBed, "iPhone", Self.at(d, 23, 0), Self.at(d, 31, 0)),
      Self.record(asleep, "Watch", Self.at(d, 23, 20), Self.at(d, 26, 0)),
      // Before iOS 16 the Watch's awake minutes are the gaps between its asleep spans.
      Self.record(asleep, "Watch", Self.at(d, 26, 30), Self.at(d, 30, 40)),
    ]
    let night = try #require(SleepNights.nights(from: intervals).first)
    #expect(Self.minutes(night.timeInBedMs) == 480)
    #expect(Self.minutes(night.asleepMs) == 410)  // 160 + 250
    #expect(night.awakeMinutes == 70)
    #expect(abs(try #require(night.efficiency) - 410.0 / 480) < 1e-12)
    #expect(night.deepShare == nil && night.remShare == nil && night.restorativeShare == nil)
    #expect(night.stagedMs == nil)
  }

  @Test("an in-bed span alone gives a night with no asleep time, efficiency or shares")
  func inBedOnly() throws {
    let d = Self.day
    let night = try #require(
      SleepNights.nights(from: [Self.record(.inBed, "iPhone", Self.at(d, 23), Self.at(d, 31))])
        .first)
    #expect(Self.minutes(night.timeInBedMs) == 480)
    #expect(night.asleepMs == nil && night.efficiency == nil && night.awakeMinutes == nil)
    #expect(night.sleepOnset == nil && night.deepShare == nil)
  }

  @Test("iPhone, Watch and a third-party app overlapping: each moment counted once")
  func overlappingSources() throws {
    let d = Self.day
    func t(_ h: Int64, _ m: Int64) -> Timestamp { Self.at(d, h, m) }
    let w = "Watch"
    let intervals = [
      Self.record(.inBed, "iPhone", t(23, 0), t(31, 0)),
      // AutoSleep says asleep throughout; it has more asleep time than the Watch, but no stages.
      Self.record(.asleepUnspecified, "AutoSleep", t(23, 15), t(30, 45)),
      Self.record(.core, w, t(23, 30), t(26, 0)),
      Self.record(.awake, w, t(26, 0), t(26, 10)),
      Self.record(.core, w, t(26, 10), t(27, 0)),
      Self.record(.deep, w, t(27, 0), t(28, 0)),
      // The Watch is off the wrist 04:00–04:30: AutoSleep fills the gap.
      Self.record(.rem, w, t(28, 30), t(30, 30)),
    ]
    let night = try #require(SleepNights.nights(from: intervals).first)
    #expect(night.primarySource == "Watch")
    #expect(Self.minutes(night.timeInBedMs) == 480)
    // Union 23:15–06:45 (450) less the Watch's 10 awake minutes; not 450 + 440.
    #expect(Self.minutes(night.asleepMs) == 440)
    #expect(Self.minutes(night.stagedMs) == 380)  // 150 + 50 + 60 + 120
    #expect(night.awakeMinutes == 40)
    #expect(abs(try #require(night.deepShare) - 60.0 / 380) < 1e-12)
    #expect(abs(try #require(night.remShare) - 120.0 / 380) < 1e-12)
    #expect(night.sleepOnset == t(23, 15))
    // The same records twice (two imports of one night) change nothing.
    #expect(SleepNights.nights(from: intervals + intervals).first == night)
  }

  @Test("an afternoon nap is not the night, and of two evening periods the longer is")
  func napIsNotTheNight() throws {
    let d = Self.day
    let nap = Self.record(.asleepUnspecified, "Watch", Self.at(d, 14, 0), Self.at(d, 15, 0))
    let doze = Self.record(.asleepUnspecified, "Watch", Self.at(d, 20, 0), Self.at(d, 20, 40))
    let nights = SleepNights.nights(from: [nap, doze] + Self.stagedNight())
    #expect(nights.count == 1)
    #expect(nights.first?.bedtime == Self.at(d, 22, 50))
    #expect(SleepNights.periods(from: [nap, doze] + Self.stagedNight()).count == 3)
    // A day with only a nap has no night.
    #expect(SleepNights.nights(from: [nap]).isEmpty)
    // A period starting at 01:30 belongs to the evening before.
    let late = Self.record(.asleepUnspecified, "Watch", Self.at(d, 25, 30), Self.at(d, 31, 0))
    #expect(SleepNights.nights(from: [late]).first?.eveningDay == d)
  }

  @Test("nights across daylight-saving changes last their real length, each on its own evening")
  func daylightSaving() throws {
    // US spring forward: 2024-03-10 02:00 PST becomes 03:00 PDT.
    let saturday = Timestamp.days(fromYear: 2024, month: 3, day: 9)
    let spring = [
      Self.record(
        .inBed, "iPhone", Self.at(saturday, 23, 0, offset: Self.pst),
        Self.at(saturday, 31, 0, offset: Self.pdt)),
      Self.record(
        .asleepUnspecified, "Watch", Self.at(saturday, 23, 10, offset: Self.pst),
        Self.at(saturday, 30, 50, offset: Self.pdt)),
    ]
    let sunday = Self.stagedNight(saturday + 1, offset: Self.pdt)
    let nights = SleepNights.nights(from: spring + sunday)
    #expect(nights.map(\.eveningDay) == [saturday, saturday + 1])
    // 23:00 PST to 07:00 PDT is 7 hours, not 8.
    #expect(Self.minutes(nights.first?.timeInBedMs) == 420)
    #expect(Self.minutes(nights.first?.asleepMs) == 400)
    #expect(nights.first?.wake.utcOffsetSeconds == Self.pdt)
    #expect(Self.minutes(nights.last?.timeInBedMs) == 495)

    // Fall back: 2024-11-03 02:00 PDT becomes 01:00 PST; 23:00 to 07:00 is 9 hours.
    let fall = Timestamp.days(fromYear: 2024, month: 11, day: 2)
    let autumn = SleepNights.nights(from: [
      Self.record(
        .asleepUnspecified, "Watch", Self.at(fall, 23, 0, offset: Self.pdt),
        Self.at(fall, 31, 0, offset: Self.pst))
    ])
    #expect(Self.minutes(autumn.first?.timeInBedMs) == 540)
    #expect(autumn.first?.eveningDay == fall)
  }

  @Test("a night abroad is judged by the offset it was recorded in, not UTC")
  func offsetChange() {
    let tokyo: Int32 = 32_400
    // 23:30 in Tokyo is 14:30 UTC: an afternoon by UTC, an evening where the person was.
    let nights = SleepNights.nights(from: Self.stagedNight(Self.day, offset: tokyo))
    #expect(nights.count == 1)
    #expect(nights.first?.eveningDay == Self.day)
    #expect(nights.first?.bedtime.utcOffsetSeconds == tokyo)
  }

  @Test("empty and degenerate records give no nights")
  func empty() {
    #expect(SleepNights.nights(from: []).isEmpty)
    let d = Self.day
    let zero = Self.record(.core, "Watch", Self.at(d, 23), Self.at(d, 23))
    let backwards = Self.record(.core, "Watch", Self.at(d, 24), Self.at(d, 23))
    #expect(SleepNights.nights(from: [zero, backwards]).isEmpty)
    #expect(SleepNights.nextNight(sessionStartMs: 0, sessionEndMs: 1, in: []) == nil)
    #expect(SleepNights.nextNights(for: [], in: []).isEmpty)
  }

  static func session(_ start: Timestamp, _ end: Timestamp) -> ListeningSession {
    ListeningSession(
      playIDs: [1], start: start, endMs: end.millisecondsSinceEpoch, context: .relax,
      skipRate: 0, engagement: 1)
  }

  @Test("each session is given the first night it fell asleep after, within 18 hours")
  func nextNight() throws {
    let d = Self.day
    // Two nights, 22:50 bedtime and 23:00 sleep onset, and a third two days later.
    let nights = SleepNights.nights(
      from: Self.stagedNight(d) + Self.stagedNight(d + 1) + Self.stagedNight(d + 3))
    #expect(nights.count == 3)
    let sessions = [
      Self.session(Self.at(d, 20), Self.at(d, 21)),  // the evening before → that night
      Self.session(Self.at(d, 22, 52), Self.at(d, 23, 30)),  // music in bed → that night
      Self.session(Self.at(d, 27), Self.at(d, 27, 20)),  // 03:00, asleep already → 19.5 h: none
      Self.session(Self.at(d, 30), Self.at(d, 30, 30)),  // 06:00 → the next evening, 16 h 20 later
      Self.session(Self.at(d + 2, 20), Self.at(d + 2, 21)),  // no night that evening: none
      Self.session(Self.at(d + 5, 20), Self.at(d + 5, 21)),  // after the last night: none
    ]
    let matched = SleepNights.nextNights(for: sessions, in: nights.reversed())
    #expect(matched.map { $0?.eveningDay } == [d, d, nil, d + 1, nil, nil])
    // The reach is settable: 20 hours lets the 03:00 session reach the next evening.
    #expect(
      SleepNights.nextNight(
        sessionStartMs: sessions[2].start.millisecondsSinceEpoch,
        sessionEndMs: sessions[2].endMs, in: nights, reachMs: 20 * Self.hour)?.eveningDay == d + 1)
  }
}
