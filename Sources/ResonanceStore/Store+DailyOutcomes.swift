import ResonanceModel

extension Store {
  /// Per local day with DJ decisions, the share of them kept (not skipped), in day order:
  /// the outcome an experiment on the DJ's preferences is planned on. Decisions without an
  /// outcome are left out; a day with none has no entry.
  package func dailyKeepRates() throws(StoreError) -> [(day: CalendarDay, rate: Double)] {
    let statement = try connection.prepare(
      "SELECT time_ms, offset_s, skipped FROM dj_decisions WHERE skipped IS NOT NULL ORDER BY time_ms"
    )
    var kept: [CalendarDay: (kept: Int, all: Int)] = [:]
    while try statement.step() {
      let r = statement.currentRow()
      let day = CalendarDay(r.timestamp("time_ms", offset: "offset_s"))
      let skipped = r.bool("skipped") ?? true
      kept[day, default: (0, 0)].kept += skipped ? 0 : 1
      kept[day, default: (0, 0)].all += 1
    }
    return kept.keys.sorted().map { ($0, Double(kept[$0]!.kept) / Double(kept[$0]!.all)) }
  }
}
