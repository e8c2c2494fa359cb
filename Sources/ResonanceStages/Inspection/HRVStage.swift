import Foundation
import ResonanceBrain
import ResonanceIO
import ResonanceIngest
import ResonanceModel
import ResonanceReports
import ResonanceStore

/// `resonance hrv`: the HRV metrics of an RR-interval file, or of the Health export's beat
/// lists in the store.
package struct HRVStage: Stage {
  package let request: HRVRequest

  package init(_ request: HRVRequest) { self.request = request }

  /// - Throws: `IOError` for a file that cannot be read, `IngestError` for one that is not an
  ///   RR series; `StageError.missingInput` when the store, or any beat list in the days, is
  ///   missing.
  package func run(progress: any StageProgress) throws -> HRVResult {
    switch request.input {
    case .file(let path):
      let file = try InputFile.open(path: path)
      let (raw, diagnostics) = try RRFileReader.read(
        path: file.name, data: Data(try file.readAll()))
      for diagnostic in diagnostics.prefix(20) { progress.say(diagnostic.description) }
      let series = HRVSeries(rr: raw, handling: request.artefacts, file: file.name, start: nil)
      return HRVResult(series: [series], mean: nil, artefacts: request.artefacts)
    case .store(let location, let days):
      let lists = try location.existing(for: "hrv").beatLists(in: days)
      guard !lists.isEmpty else {
        throw StageError(
          .missingInput,
          "\(location.path): no Health beat lists"
            + (days.isAll ? " (a Health export's HRV records hold them)" : " in those days"))
      }
      let series = lists.map {
        HRVSeries(
          rr: RRSeries.intervals(from: $0.beats), handling: request.artefacts, file: nil,
          start: $0.start)
      }
      return HRVResult(
        series: series, mean: HRVMetrics.mean(of: series.map(\.metrics)),
        artefacts: request.artefacts)
    }
  }
}

extension HRVResult: ConsolePresentable {
  package var text: String {
    if let mean {
      return HRVReport.table(series, mean: mean, artefacts: artefacts.rawValue)
    }
    return series.map { HRVReport.text($0, artefacts: artefacts.rawValue) }.joined()
  }

  package var json: String {
    HRVReport.json(series, mean: mean, artefacts: artefacts.rawValue).text
  }
}
