import Foundation
import ResonanceModel
import Testing

@testable import ResonanceSynth

/// The generator's own model stays inside the ranges docs/synth.md documents.
@Suite("synth: the simulated person's distributions")
struct SynthModelTests {
  static let history: SynthHistory = {
    var configuration = SynthConfiguration()
    configuration.months = 3
    configuration.songs = 200
    configuration.seed = 3
    return LifeSimulator.run(configuration)
  }()

  @Test("sleep: 6–9 hours a night on average, deep 10–25%, REM 15–30%")
  func sleep() {
    let nights = Self.history.nights
    let hours = nights.map { Double($0.wakeMs - $0.bedMs) / 3_600_000 }
    let mean = hours.reduce(0, +) / Double(hours.count)
    #expect(mean > 6 && mean < 9, "mean sleep \(mean) h")
    let deep = nights.map(\.deepShare).reduce(0, +) / Double(nights.count)
    let rem = nights.map(\.remShare).reduce(0, +) / Double(nights.count)
    #expect(deep > 0.10 && deep < 0.25)
    #expect(rem > 0.15 && rem < 0.30)
  }

  @Test("music moves the body through its lag from the instant a song starts, never before")
  func musicResponse() throws {
    let history = Self.history
    let tauMs = Physiology.musicLagMinutes * 60_000
    // A session's first play: nothing of earlier music is left (sessions are minutes apart),
    // so the body answers only once the song plays, and then exactly as the lag does.
    let firsts = Dictionary(grouping: history.plays, by: \.session).values.compactMap {
      $0.min { $0.startMs < $1.startMs }
    }
    var checked = 0
    for play in firsts where play.playedMs > 60_000 {
      let effect =
        history.songs[play.song].hrEffectBPM * (LibraryGenerator.contextGain[play.context] ?? 1)
      guard abs(effect) > 1,
        history.musicDrives.allSatisfy({
          $0.endMs <= play.startMs - 30 * 60_000 || $0.startMs >= play.startMs
        })
      else { continue }
      #expect(abs(history.music(at: play.startMs - 1_000).hr) < 1e-6)
      let lagged = effect * (1 - exp(-30_000 / tauMs))
      #expect(abs(history.music(at: play.startMs + 30_000).hr - lagged) < 1e-4 * abs(effect))
      checked += 1
    }
    #expect(checked > 20)
    // At every minute's mark the instant's response is the minute series' value: one lag.
    let first = history.minute(history.plays[history.plays.count / 2].startMs)
    for m in first..<(first + 600) {
      let mark = history.t0Ms + Int64(m) * 60_000
      #expect(abs(history.music(at: mark).hr - Double(history.musicHR[m])) < 1e-3)
    }
  }

  @Test("resting heart rate stays in 50–75 BPM and drifts down over the months")
  func restingHeartRate() {
    let history = Self.history
    let first = Physiology.restingHR(history, day: 0)
    let last = Physiology.restingHR(history, day: history.days.count - 1)
    #expect(first > 50 && first < 75 && last > 50 && last < 75)
    #expect(history.person.restingHRDriftPerYear < 0)
  }

  @Test("skips: 30–55% of DJ picks, 10–35% of all plays within 5 s")
  func skips() {
    let plays = Self.history.plays
    let dj = plays.filter(\.byDJ)
    let djSkipShare = Double(dj.filter(\.isSkipped).count) / Double(dj.count)
    #expect(djSkipShare > 0.30 && djSkipShare < 0.55, "DJ skip share \(djSkipShare)")
    let early =
      Double(plays.filter { $0.isSkipped && $0.playedMs < 5_000 }.count) / Double(plays.count)
    #expect(early > 0.10 && early < 0.35, "early skip share \(early)")
  }

  @Test("20–100 plays a day; sessions in every context")
  func playsPerDay() {
    let history = Self.history
    let perDay = Double(history.plays.count) / Double(history.days.count)
    #expect(perDay > 20 && perDay < 100, "\(perDay) plays a day")
    let contexts = Set(history.sessions.map(\.context))
    #expect(contexts.isSuperset(of: [.commute, .deepWork, .workout, .preSleep, .relax]))
  }

  @Test("the offset changes with daylight saving and travel")
  func offsets() {
    let calendar = SynthCalendar(
      firstDay: Timestamp.days(fromYear: 2022, month: 1, day: 1), trips: [])
    // 2022-03-13 02:00 PST = 10:00 UTC: daylight saving begins.
    #expect(calendar.offset(utcMs: 1_647_165_599_000) == -28_800)
    #expect(calendar.offset(utcMs: 1_647_165_600_000) == -25_200)
    // 2022-11-06 02:00 PDT = 09:00 UTC: it ends.
    #expect(calendar.offset(utcMs: 1_667_725_199_000) == -25_200)
    #expect(calendar.offset(utcMs: 1_667_725_200_000) == -28_800)
    let history = Self.history
    let offsets = Set(
      history.days.map {
        history.calendar.offset(utcMs: history.calendar.utcMs(day: $0.day, localMinutes: 720))
      })
    #expect(offsets.count >= 2, "a trip changes the offset: \(offsets)")
  }

  @Test("a few songs strongly calming, a few activating, most near neutral")
  func effects() {
    let songs = Self.history.songs
    let neutral = songs.filter { $0.effectKind == .neutral }
    #expect(Double(neutral.count) / Double(songs.count) > 0.7)
    #expect(songs.contains { $0.effectKind == .calming && $0.hrEffectBPM <= -3 })
    #expect(songs.contains { $0.effectKind == .activating && $0.hrEffectBPM >= 3 })
    #expect(neutral.allSatisfy { abs($0.hrEffectBPM) < 3 })
  }
}
