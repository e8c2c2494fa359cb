import Foundation
import ResonanceModel
import ResonanceTuning
import Testing

@testable import ResonanceStages
@testable import ResonanceStore

/// `tune` and `sweep` read the decision log a stretch at a time, so that a decade of it need
/// not be in memory at once. The whole history read at once, as `Tuner` and `Sweeper` take it
/// in memory, is the reference: the stretches must give the same log and the same answers.
@Suite("tune and sweep read the log a stretch at a time, and find what the whole log gives")
struct TuneStretchTests {
  func store() throws -> Store { try Store(path: try TuningStores.shared.get().analyzed) }

  static var settings: TuningSettings {
    var settings = TuningSettings()
    settings.design = SweepDesign(kind: .sobol, points: 64)
    return settings
  }

  @Test(
    "stretches of 1, 37 and 500 decisions assemble the same log and replay the same as the history read whole, and tune the same"
  )
  func wholeHistory() throws {
    let store = try store()
    let whole = ReplayedLog(try store.decisionHistory())
    let reference = try Tuner.tune(whole, settings: Self.settings)
    #expect(reference.decisions > 1_000)
    #expect(reference.replay.replayed > 1_000)
    for stretch in [1, 37, 500] {
      let log = try store.replayedLog(
        in: DayRange(), replays: true, stretch: stretch, label: "tune",
        progress: SilentProgress())
      #expect(log.records == whole.records)
      #expect(log.check == whole.check, "stretch \(stretch)")
      #expect(try log.assembled().decisions == whole.assembled().decisions, "stretch \(stretch)")
      // The whole report once: it depends on the stretches only through the log.
      if stretch == 37 {
        #expect(try Tuner.tune(log, settings: Self.settings) == reference, "stretch \(stretch)")
      }
    }
  }

  @Test(
    "a day range read in stretches gives the in-memory range's log, with the preferences in force at its first decision"
  )
  func dayRange() throws {
    let store = try store()
    let all = try store.decisionHistory().records
    let from = CalendarDay(all[all.count / 3].time)
    let to = CalendarDay(all[2 * all.count / 3].time)
    let days = DayRange(from: from, to: to)
    let inMemory = try store.decisionHistory(in: days)
    // The range starts after the log's header: only the patch gives its first decision the
    // preferences in force.
    #expect(try #require(inMemory.records.first).preferences != nil)
    let whole = ReplayedLog(inMemory)
    let log = try store.replayedLog(
      in: days, replays: true, stretch: 53, label: "tune", progress: SilentProgress())
    #expect(log.records == inMemory.records.count)
    #expect(log.inForce == whole.inForce)
    #expect(log.check == whole.check)
    #expect(try log.assembled().decisions == whole.assembled().decisions)
  }

  @Test("the sweep over stretches is the sweep over the whole history")
  func sweep() throws {
    let store = try store()
    let design = SweepDesign(kind: .sobol, points: 32)
    let reference = try Sweeper.sweep(
      try store.decisionHistory(), design: design, reward: .composite, estimator: .dr)
    let log = try store.replayedLog(
      in: DayRange(), replays: false, stretch: 41, label: "sweep", progress: SilentProgress())
    #expect(log.check == ReplayCheck(), "the sweep replays nothing")
    var swept = try Sweeper.sweep(log, design: design, reward: .composite, estimator: .dr)
    swept.kernelSeconds = reference.kernelSeconds
    #expect(swept == reference)
  }
}
