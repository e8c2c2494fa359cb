import ResonanceModel
import ResonanceStore
import ResonanceTuning

extension Store {
  /// The decisions within `days` (every one when the range is open), read a stretch of
  /// about `stretch` decisions at a time, replayed and assembled (`ReplayedLog`): the same
  /// log as `decisionHistory(in:)` read whole gives, while only one stretch's records are in
  /// memory at once. A log states its preferences once, at its first decision: the first
  /// decision kept gets the preferences in force at it, as `decisionHistory(in:)` does.
  /// Every stretch is read from one snapshot of the store (`snapshot(_:)`), so an `ingest` or
  /// `analyze` committing meanwhile changes none of them.
  ///
  /// - Parameters:
  ///   - replays: whether the engine replays each decision (`tune`), or only assembles
  ///     (`sweep`).
  ///   - progress: told of the decisions read.
  func replayedLog(
    in days: DayRange, replays: Bool, stretch: Int = 512, label: String,
    progress: any StageProgress
  ) throws -> ReplayedLog {
    try snapshot {
      try readLog(in: days, replays: replays, stretch: stretch, label: label, progress: progress)
    }
  }

  private func readLog(
    in days: DayRange, replays: Bool, stretch: Int, label: String, progress: any StageProgress
  ) throws -> ReplayedLog {
    let marks = try decisionTimeline()
    let kept =
      days.isAll ? Array(marks.indices) : marks.indices.filter { days.contains(marks[$0].time) }
    // The preferences in force at the first decision kept, and at the last: the last stated
    // outside an experiment's days, whose decisions run their arms' (`docs/experiments.md`).
    var first: UserPreferences?
    var last: UserPreferences?
    if let start = kept.first {
      first = marks[...start].last { $0.preferences != nil }?.preferences
      last = marks[...start].last { $0.preferences != nil && $0.arm == nil }?.preferences ?? first
      for i in kept.dropFirst() where marks[i].preferences != nil && marks[i].arm == nil {
        last = marks[i].preferences
      }
    }
    var log = ReplayedLog(lastStated: last, replays: replays)
    guard let start = kept.first, let end = kept.last else { return log }
    progress.begin(
      "\(label): reading \(replays ? "and replaying " : "")"
        + "\(Format.grouped(kept.count)) logged decisions", total: Int64(kept.count),
      unit: .items("decisions"))
    defer { progress.end() }
    var read = 0
    var patched = false
    // Stretches of whole milliseconds: decisions made at the same instant are read together.
    var lower = start
    while lower <= end {
      var upper = min(lower + stretch, end + 1)
      while upper <= end,
        marks[upper].time.millisecondsSinceEpoch
          == marks[upper - 1].time.millisecondsSinceEpoch
      {
        upper += 1
      }
      let range =
        marks[lower].time
        .millisecondsSinceEpoch..<(upper <= end ? marks[upper].time.millisecondsSinceEpoch : .max)
      var history = try decisionHistory(in: range)
      if !days.isAll {
        let keep = history.records.indices.filter { days.contains(history.records[$0].time) }
        history = DecisionHistory(
          records: keep.map { history.records[$0] }, followUps: keep.map { history.followUps[$0] })
      }
      if !patched, !history.records.isEmpty {
        if history.records[0].preferences == nil { history.records[0].preferences = first }
        patched = true
      }
      read += history.records.count
      log.add(history)
      progress.advance(to: Int64(read))
      lower = upper
    }
    return log
  }
}
