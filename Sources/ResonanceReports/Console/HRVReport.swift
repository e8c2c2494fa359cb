import ResonanceModel

/// What `resonance hrv` prints: one series' metrics, or a table of the store's beat lists
/// with their mean; or the same as JSON.
package enum HRVReport {
  /// One series, a metric a line.
  package static func text(_ series: HRVSeries, artefacts: String) -> String {
    let m = series.metrics
    let f = series.frequency
    func value(_ x: Double?, _ unit: String) -> String {
      x.map { Format.fixed($0, 2) + unit } ?? "null (series too short)"
    }
    let rows: [(String, String)] = [
      ("MeanNN", value(m.meanNN, " ms")), ("SDNN", value(m.sdnn, " ms")),
      ("RMSSD", value(m.rmssd, " ms")), ("SDSD", value(m.sdsd, " ms")),
      ("pNN50", value(m.pnn50, " %")), ("pNN20", value(m.pnn20, " %")),
      ("SD1", value(m.sd1, " ms")), ("SD2", value(m.sd2, " ms")),
      ("mean HR", value(m.meanHR, " BPM")),
      ("LF", f.lf.map { Format.fixed($0, 2) + " ms²" } ?? "null (\(f.reason ?? ""))"),
      ("HF", f.hf.map { Format.fixed($0, 2) + " ms²" } ?? "null (\(f.reason ?? ""))"),
      ("LF/HF", f.lfhf.map { Format.fixed($0, 3) } ?? "null"),
    ]
    let handled =
      artefacts == "kubios" ? "\(series.corrected) corrected" : "\(series.removed) removed"
    var out =
      "\(series.file ?? ""): \(series.intervals) intervals, \(handled) (artefacts: \(artefacts))\n"
    for (name, text) in rows { out += Format.padded(name, 9) + text + "\n" }
    if artefacts == "off" { out += suspects(series) + "\n" }
    return out
  }

  /// How many intervals of a series taken as it is look like artefacts, which they are
  /// (numbered from 1, as a one-interval-a-line file numbers its lines), and what would mend
  /// them.
  static func suspects(_ series: HRVSeries) -> String {
    let flagged = series.suspectedArtefacts
    guard !flagged.isEmpty else { return "no interval looks like an artefact by the Kubios method" }
    let shown = flagged.prefix(10).map { "\($0 + 1)" }.joined(separator: ", ")
    let more = flagged.count > 10 ? ", and \(flagged.count - 10) more" : ""
    let one = flagged.count == 1
    return
      "\(flagged.count) of \(series.intervals) intervals \(one ? "looks like an artefact" : "look like artefacts")"
      + " by the Kubios method (\(one ? "number" : "numbers") \(shown)\(more), counting from 1):"
      + " --artefacts kubios corrects \(one ? "it" : "them"),"
      + " or --artefacts malik drops intervals by Malik's rule"
  }

  /// The beat lists, a row each with the time they began (UTC and local), then the mean; with
  /// `artefacts` off, how many intervals look like artefacts by the Kubios method, and that
  /// Malik's rule suits these lists (docs/hrv.md).
  package static func table(_ lists: [HRVSeries], mean: HRVMetrics, artefacts: String) -> String {
    var out =
      "start (UTC)           local              intervals  MeanNN  SDNN   RMSSD  pNN50  SD1    SD2    HR\n"
    // A figure wider than its column still keeps one space before the next.
    func f(_ x: Double?, _ width: Int) -> String {
      let text = Format.optional(x, 1)
      return Format.padded(text, max(width, text.count + 1))
    }
    func metrics(_ m: HRVMetrics) -> String {
      f(m.meanNN, 8) + f(m.sdnn, 7) + f(m.rmssd, 7) + f(m.pnn50, 7) + f(m.sd1, 7) + f(m.sd2, 7)
        + f(m.meanHR, 5)
    }
    for list in lists {
      out +=
        Format.padded(list.start?.iso8601UTC ?? "", 22)
        + Format.padded(list.start.map(Self.local) ?? "", 19)
        + Format.padded("\(list.metrics.count)", 11) + metrics(list.metrics) + "\n"
    }
    out += Format.padded("mean over \(lists.count) lists", 52) + metrics(mean) + "\n"
    out += "(Apple's lists span about a minute: too short for LF/HF, which need 120 s.)\n"
    if artefacts == "off" {
      let flagged = lists.filter { !$0.suspectedArtefacts.isEmpty }
      let count = flagged.reduce(0) { $0 + $1.suspectedArtefacts.count }
      let total = lists.reduce(0) { $0 + $1.intervals }
      out +=
        flagged.isEmpty
        ? "(No interval looks like an artefact by the Kubios method."
        : "(\(count) of \(total) intervals, in \(flagged.count) of \(lists.count) lists, look like"
          + " artefacts by the Kubios method."
      out +=
        " For these lists --artefacts malik suits better, as the report uses it: it also drops"
        + " the gaps where the Watch lost the pulse; docs/hrv.md.)\n"
    }
    return out
  }

  /// `2023-03-01 07:15` in the offset the moment was lived in.
  static func local(_ time: Timestamp) -> String {
    let text = Timestamp.iso8601UTC(
      millisecondsSinceEpoch: time.millisecondsSinceEpoch + Int64(time.utcOffsetSeconds) * 1000)
    return String(text.prefix(16)).replacingOccurrences(of: "T", with: " ")
  }

  /// The series as `--json` gives them (`docs/cli.md`): one shape for a file and for the
  /// store's lists; `mean` is null for a single file.
  package static func json(_ series: [HRVSeries], mean: HRVMetrics?, artefacts: String)
    -> JSONValue
  {
    [
      "format_version": 1, "artefacts": .string(artefacts),
      "series": .array(
        series.map { s in
          [
            "file": .text(s.file), "start": .text(s.start?.iso8601UTC),
            "intervals": .integer(s.intervals), "removed": .integer(s.removed),
            "corrected": .integer(s.corrected),
            "suspected_artefacts": .integer(s.suspectedArtefacts.count),
            "suspected_artefact_intervals": .array(s.suspectedArtefacts.map { .integer($0 + 1) }),
            "metrics": metricsJSON(s.metrics, s.frequency),
          ]
        }),
      "mean": mean.map { metricsJSON($0, nil) } ?? .null,
    ]
  }

  static func metricsJSON(_ m: HRVMetrics, _ f: HRVFrequency?) -> JSONValue {
    [
      "mean_nn": .number(m.meanNN), "sdnn": .number(m.sdnn), "rmssd": .number(m.rmssd),
      "sdsd": .number(m.sdsd), "pnn50": .number(m.pnn50), "pnn20": .number(m.pnn20),
      "sd1": .number(m.sd1), "sd2": .number(m.sd2), "mean_hr": .number(m.meanHR),
      "lf": .number(f?.lf), "hf": .number(f?.hf), "lf_hf": .number(f?.lfhf),
      "frequency_null_reason": .text(f == nil ? "a mean over beat lists" : f?.reason),
    ]
  }
}

extension String {
  fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
