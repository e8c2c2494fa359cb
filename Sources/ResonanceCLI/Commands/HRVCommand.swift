import Foundation
import ResonanceBrain
import ResonanceIO
import ResonanceIngest
import ResonanceModel
import ResonanceStore

/// `resonance hrv`: HRV metrics of one RR-interval file.
struct HRVCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "hrv",
    abstract: "Compute HRV metrics (time domain, Poincaré, LF/HF) of an RR-interval file.",
    discussion: """
      Reads RR intervals in milliseconds — one per line as Polar and Elite HRV export them, a \
      CSV column (RR, RR (ms), IBI, interval…), or a JSON array — and prints MeanNN, SDNN, \
      RMSSD, SDSD, pNN50, pNN20, SD1, SD2 and mean HR, with NeuroKit2's definitions, and LF, HF \
      and LF/HF by Welch's method on the series resampled at 4 Hz, for series of 120 s or more \
      (see docs/hrv.md). A metric the series is too short for is null, with the reason.

      Artefacts: by default Malik's rule drops intervals outside 300–2000 ms or more than 20% \
      from the median of the last five kept; --artefacts off keeps the raw series, which gives \
      NeuroKit2's plain figures.
      """,
    arguments: [
      ArgumentDefinition(
        "FILE", help: "The RR-interval file (or --from/--to for the store).", required: false)
    ],
    options: [
      OptionDefinition(
        "from", .value(placeholder: "DATE"),
        help:
          "With --to: the Health beat lists in the store whose records start from this day (YYYY-MM-DD, UTC)."
      ),
      OptionDefinition(
        "to", .value(placeholder: "DATE"), help: "The day after the last one, YYYY-MM-DD (UTC)."),
      CommonOptions.db,
      OptionDefinition(
        "artefacts", .value(placeholder: "malik|off"),
        help: "How ectopic and missed beats are handled. Default: malik."),
      CommonOptions.json,
    ],
    examples: [
      Example("resonance hrv rr.txt", "Metrics of a Polar RR export, with artefacts removed."),
      Example("resonance hrv session.csv --artefacts off --json", "Raw-series metrics as JSON."),
      Example(
        "resonance hrv --from 2022-06-01 --to 2022-06-08",
        "Each Health beat list of that week in ./resonance.sqlite, with the mean over them."),
    ])

  var path: String?
  var range: (from: Int64, to: Int64)?
  var storePath: String
  var handling: RRSeries.ArtefactHandling
  var isJSON: Bool

  init(parsed: ParsedArguments, environment: [String: String]) throws(UsageError) {
    path = parsed.positionals.first
    storePath = CommonOptions.storePath(parsed, environment)
    switch (parsed.value("from"), parsed.value("to")) {
    case (nil, nil): range = nil
    case (let from?, let to?):
      guard let a = HRVCommand.day(from), let b = HRVCommand.day(to), a < b else {
        throw UsageError(
          "invalid '--from \(from) --to \(to)'",
          hint: "expected two days YYYY-MM-DD, the first before the second")
      }
      range = (a, b)
    default:
      throw UsageError(
        "'--from' and '--to' go together", hint: "resonance hrv --from 2022-06-01 --to 2022-06-08")
    }
    isJSON = parsed.flag("json")
    let text = parsed.value("artefacts") ?? "malik"
    guard let handling = RRSeries.ArtefactHandling(rawValue: text) else {
      throw UsageError(
        "invalid value '\(text)' for '--artefacts'", hint: "expected 'malik' or 'off'")
    }
    self.handling = handling
  }

  func validate() throws(UsageError) {
    if (path == nil) == (range == nil) {
      throw UsageError(
        "give an RR file or --from/--to, one of the two", hint: "resonance hrv rr.txt")
    }
  }

  /// Midnight UTC of a `YYYY-MM-DD` day, in milliseconds.
  static func day(_ text: String) -> Int64? {
    let parts = text.split(separator: "-").compactMap { Int64($0) }
    guard parts.count == 3, (1...12).contains(parts[1]), (1...31).contains(parts[2]) else {
      return nil
    }
    return Timestamp.days(fromYear: parts[0], month: parts[1], day: parts[2]) * 86_400_000
  }

  func run(in context: CommandContext) throws -> ExitCode {
    guard let path else { return try runOverStore(context) }
    var data = Data()
    try InputFile(path: path).forEachChunk { data.append(contentsOf: $0) }
    let (raw, diagnostics) = try RRFileReader.read(path: path, data: data)
    for diagnostic in diagnostics.prefix(20) { context.report(diagnostic.description) }
    let (rr, removed) = RRSeries.cleaned(raw, handling)
    let metrics = HRVMetrics(rr: rr)
    let frequency = HRVFrequency(rr: rr)
    if isJSON {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      let report = Report(
        file: path, intervals: raw.count, removed: removed, artefacts: handling.rawValue,
        metrics: metrics, frequency: frequency)
      context.console.out(String(decoding: try encoder.encode(report), as: UTF8.self) + "\n")
    } else {
      context.console.out(text(metrics, frequency, intervals: raw.count, removed: removed))
    }
    return .ok
  }

  /// Each beat list in the store in the range, one row each, then the mean over them.
  private func runOverStore(_ context: CommandContext) throws -> ExitCode {
    guard let range else { return .usage }
    let store = try CommonOptions.openStore(path: storePath, environment: context.environment)
    let lists = try store.beatLists(fromMs: range.from, toMs: range.to)
    guard !lists.isEmpty else {
      throw CommandError(.noInput, "\(storePath): no Health beat lists in that range")
    }
    var rows: [(start: Timestamp, count: Int, removed: Int, metrics: HRVMetrics)] = []
    for list in lists {
      let (rr, removed) = RRSeries.cleaned(RRSeries.intervals(from: list.beats), handling)
      rows.append((list.start, rr.count, removed, HRVMetrics(rr: rr)))
    }
    func mean(_ values: [Double?]) -> Double? {
      let present = values.compactMap { $0 }
      return present.isEmpty ? nil : present.reduce(0, +) / Double(present.count)
    }
    if isJSON {
      let objects: [[String: Any]] = rows.map { row in
        func v(_ x: Double?) -> Any { x.map { $0 as Any } ?? NSNull() }
        return [
          "start": row.start.iso8601UTC, "intervals": row.count, "removed": row.removed,
          "mean_nn": v(row.metrics.meanNN), "sdnn": v(row.metrics.sdnn),
          "rmssd": v(row.metrics.rmssd),
          "pnn50": v(row.metrics.pnn50), "sd1": v(row.metrics.sd1), "sd2": v(row.metrics.sd2),
          "mean_hr": v(row.metrics.meanHR),
        ]
      }
      let data = try JSONSerialization.data(
        withJSONObject: ["lists": objects, "artefacts": handling.rawValue],
        options: [.prettyPrinted, .sortedKeys])
      context.console.out(String(decoding: data, as: UTF8.self) + "\n")
      return .ok
    }
    var out = "start (UTC)           intervals  MeanNN  SDNN   RMSSD  pNN50  SD1    SD2    HR\n"
    func f(_ x: Double?, _ width: Int) -> String {
      (x.map { ProgressReporter.fixed($0, 1) } ?? "–").padding(
        toLength: width, withPad: " ", startingAt: 0)
    }
    for row in rows {
      let m = row.metrics
      out +=
        row.start.iso8601UTC.padding(toLength: 22, withPad: " ", startingAt: 0)
        + "\(row.count)".padding(toLength: 11, withPad: " ", startingAt: 0)
        + f(m.meanNN, 8) + f(m.sdnn, 7) + f(m.rmssd, 7) + f(m.pnn50, 7) + f(m.sd1, 7) + f(m.sd2, 7)
        + f(m.meanHR, 5) + "\n"
    }
    out +=
      "mean over \(rows.count) lists".padding(toLength: 33, withPad: " ", startingAt: 0)
      + f(mean(rows.map(\.metrics.meanNN)), 8) + f(mean(rows.map(\.metrics.sdnn)), 7)
      + f(mean(rows.map(\.metrics.rmssd)), 7) + f(mean(rows.map(\.metrics.pnn50)), 7)
      + f(mean(rows.map(\.metrics.sd1)), 7) + f(mean(rows.map(\.metrics.sd2)), 7)
      + f(mean(rows.map(\.metrics.meanHR)), 5) + "\n"
    out += "(Apple's lists span about a minute: too short for LF/HF, which need 120 s.)\n"
    context.console.out(out)
    return .ok
  }

  /// The JSON form: metric keys in snake case, absent ones `null`.
  struct Report: Encodable {
    var file: String
    var intervals: Int
    var removed: Int
    var artefacts: String
    var metrics: HRVMetrics
    var frequency: HRVFrequency

    enum CodingKeys: String, CodingKey { case file, intervals, removed, artefacts, metrics }
    enum MetricKeys: String, CodingKey {
      case meanNN = "mean_nn", sdnn, rmssd, sdsd, pnn50, pnn20, sd1, sd2, meanHR = "mean_hr"
      case lf, hf, lfhf = "lf_hf", frequencyReason = "frequency_null_reason"
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(file, forKey: .file)
      try container.encode(intervals, forKey: .intervals)
      try container.encode(removed, forKey: .removed)
      try container.encode(artefacts, forKey: .artefacts)
      var m = container.nestedContainer(keyedBy: MetricKeys.self, forKey: .metrics)
      try m.encode(metrics.meanNN, forKey: .meanNN)
      try m.encode(metrics.sdnn, forKey: .sdnn)
      try m.encode(metrics.rmssd, forKey: .rmssd)
      try m.encode(metrics.sdsd, forKey: .sdsd)
      try m.encode(metrics.pnn50, forKey: .pnn50)
      try m.encode(metrics.pnn20, forKey: .pnn20)
      try m.encode(metrics.sd1, forKey: .sd1)
      try m.encode(metrics.sd2, forKey: .sd2)
      try m.encode(metrics.meanHR, forKey: .meanHR)
      try m.encode(frequency.lf, forKey: .lf)
      try m.encode(frequency.hf, forKey: .hf)
      try m.encode(frequency.lfhf, forKey: .lfhf)
      try m.encode(frequency.reason, forKey: .frequencyReason)
    }
  }

  private func text(_ m: HRVMetrics, _ f: HRVFrequency, intervals: Int, removed: Int) -> String {
    func value(_ x: Double?, _ unit: String) -> String {
      x.map { ProgressReporter.fixed($0, 2) + unit } ?? "null (series too short)"
    }
    let rows: [(String, String)] = [
      ("MeanNN", value(m.meanNN, " ms")), ("SDNN", value(m.sdnn, " ms")),
      ("RMSSD", value(m.rmssd, " ms")), ("SDSD", value(m.sdsd, " ms")),
      ("pNN50", value(m.pnn50, " %")), ("pNN20", value(m.pnn20, " %")),
      ("SD1", value(m.sd1, " ms")), ("SD2", value(m.sd2, " ms")),
      ("mean HR", value(m.meanHR, " BPM")),
      ("LF", f.lf.map { ProgressReporter.fixed($0, 2) + " ms²" } ?? "null (\(f.reason ?? ""))"),
      ("HF", f.hf.map { ProgressReporter.fixed($0, 2) + " ms²" } ?? "null (\(f.reason ?? ""))"),
      ("LF/HF", f.lfhf.map { ProgressReporter.fixed($0, 3) } ?? "null"),
    ]
    var out =
      "\(path ?? ""): \(intervals) intervals, \(removed) removed (artefacts: \(handling.rawValue))\n"
    for (name, text) in rows {
      out += name.padding(toLength: 9, withPad: " ", startingAt: 0) + text + "\n"
    }
    return out
  }
}
