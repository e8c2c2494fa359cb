import Foundation
import ResonanceModel
import ResonanceReports
import ResonanceSynth

/// `resonance synth`: a simulated person's history, written in the real export formats with
/// the truth beside it.
package struct SynthStage: Stage {
  package let request: SynthRequest

  package init(_ request: SynthRequest) { self.request = request }

  /// - Throws: `StageError` for a preference file that is missing (`missingInput`),
  ///   unreadable (`io`) or not one (`badData`), and for a folder that cannot be created;
  ///   `IOError` from writing.
  package func run(progress: any StageProgress) throws -> SynthResult {
    // Zip entry times are DOS local time: in UTC they are the same bytes on every machine.
    setenv("TZ", "UTC0", 1)
    tzset()
    var configuration = request.configuration
    if let path = request.djPreferencesPath {
      configuration.djPreferences = try PreferenceFile.read(at: path).preferences
      configuration.djPreferencesSource = (path as NSString).lastPathComponent
    }
    let folder = request.folder
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw StageError(.io, "\(folder): cannot create the folder")
    }
    let started = Date()
    let history = progress.step(
      "synth: living", total: Int64(configuration.dayCount), unit: .items("days")
    ) {
      LifeSimulator.run(configuration) { done, _ in progress.advance(to: Int64(done)) }
    }
    progress.say("synth: simulated \(history.days.count) days, \(history.plays.count) plays")
    let summary = try SynthWriter(history: history, folder: folder).write { label in
      progress.say("synth: writing \(label)")
    }
    return SynthResult(
      folder: folder, days: history.days.count, plays: history.plays.count,
      files: summary.files, seconds: Date().timeIntervalSince(started))
  }
}

extension PreferenceFile {
  /// The preference file at `path`.
  ///
  /// - Throws: `StageError`: `missingInput` for no such file, `io` when it cannot be read,
  ///   `badData` when it is not a preference file or a setting is out of range (at the
  ///   setting's line and column, else `path:1:1`).
  static func read(at path: String) throws(StageError) -> PreferenceFile {
    guard FileManager.default.fileExists(atPath: path) else {
      throw StageError(.missingInput, "\(path): no such file")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw StageError(.io, "\(path): cannot be read")
    }
    do {
      return try PreferenceFile(data: data)
    } catch {
      throw StageError(
        .badData, "\(path):\(error.line ?? 1):\(error.column ?? 1): \(error.message)")
    }
  }
}

extension SynthResult: ConsolePresentable {
  package var text: String {
    SynthSummary.line(folder: folder, files: files, seconds: seconds) + "\n"
  }
  package var json: String {
    SynthSummary.json(folder: folder, days: days, plays: plays, files: files, seconds: seconds).text
  }
}
