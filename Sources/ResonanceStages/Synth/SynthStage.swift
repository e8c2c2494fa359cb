import Foundation
import ResonanceModel
import ResonanceReports
import ResonanceSynth
import Synchronization

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
      let file = try PreferenceFile.read(at: path)
      configuration.djPreferences = file.preferences
      configuration.djPreferencesSource = (path as NSString).lastPathComponent
      configuration.experiment = file.experiment
      if file.experiment != nil, configuration.djFromMonth != nil {
        throw StageError(
          .badData,
          "\(path): holds an experiment, whose arms say what the DJ runs and when; leave out"
            + " '--dj-from'")
      }
      if let problem = configuration.dayProblem {
        throw StageError(.badData, "\(path): \(problem)")
      }
    }
    try Self.createFolder(request.folder)
    if let count = request.cohort {
      return try cohort(of: count, like: configuration, progress: progress)
    }
    let started = Date()
    let history = progress.step(
      "synth: living", total: Int64(configuration.dayCount), unit: .items("days")
    ) {
      LifeSimulator.runWithHistory(configuration) { done, _ in progress.advance(to: Int64(done)) }
    }
    progress.say(
      "synth: simulated \(history.whole.days.count) days, \(history.whole.plays.count) plays")
    let summary = try SynthWriter(
      history: history.whole, alone: history.alone, folder: request.folder
    ).write { label in
      progress.say("synth: writing \(label)")
    }
    return SynthResult(
      folder: request.folder, days: history.whole.days.count, plays: history.whole.plays.count,
      files: summary.files, seconds: Date().timeIntervalSince(started))
  }

  /// `count` members, each a whole person in its own folder with effects drawn from
  /// `CohortPopulation`, then `cohort-truth.json`: the population and every member's draw.
  /// Members are simulated and written one per core at a time; each depends only on its own
  /// seed and draw, so the files are the same however many run together. The first failure
  /// stops the others taking a new member and is thrown.
  private func cohort(
    of count: Int, like base: SynthConfiguration, progress: any StageProgress
  ) throws -> SynthResult {
    let started = Date()
    let workers = max(1, min(count, ProcessInfo.processInfo.activeProcessorCount))
    let state = Mutex(CohortProgress())
    progress.step("synth: cohort", total: Int64(count), unit: .items("persons")) {
      DispatchQueue.concurrentPerform(iterations: workers) { _ in
        while let index = state.withLock({ $0.take(upTo: count) }) {
          do {
            let member = try self.member(index, of: count, like: base)
            let done = state.withLock { $0.finished(member) }
            progress.advance(to: Int64(done))
          } catch {
            state.withLock { $0.failed(error) }
          }
        }
      }
    }
    let finished = state.withLock { $0 }
    if let failure = finished.failure { throw failure }
    let members = finished.members.sorted { $0.member.folder < $1.member.folder }
    var files = members.flatMap(\.files)
    let truth = CohortTruth.json(seed: base.seed, members: members.map(\.member)).text
    let path = request.folder + "/" + CohortTruth.fileName
    guard FileManager.default.createFile(atPath: path, contents: Data(truth.utf8)) else {
      throw StageError(.io, "\(path): cannot be written")
    }
    files.append(WrittenFile(path: CohortTruth.fileName, bytes: Int64(truth.utf8.count)))
    return SynthResult(
      folder: request.folder, days: base.dayCount,
      plays: members.reduce(0) { $0 + $1.member.plays }, files: files,
      seconds: Date().timeIntervalSince(started), persons: count)
  }

  /// Member `index` of `count` simulated and written into its folder: the member as
  /// `cohort-truth.json` lists it, and its files by their paths in the cohort's folder.
  private func member(_ index: Int, of count: Int, like base: SynthConfiguration) throws
    -> (member: CohortTruth.Member, files: [WrittenFile])
  {
    var configuration = base
    configuration.seed = base.seed &+ UInt64(index - 1)
    let planted = CohortPopulation.draw(seed: base.seed, index: index)
    configuration.planted = planted
    let name = SynthRequest.memberFolder(index, of: count)
    let folder = request.folder + "/" + name
    try Self.createFolder(folder)
    let history = LifeSimulator.run(configuration)
    let summary = try SynthWriter(history: history, folder: folder).write { _ in }
    return (
      CohortTruth.Member(
        folder: name, seed: configuration.seed, planted: planted, plays: history.plays.count),
      summary.files.map { WrittenFile(path: name + "/" + $0.path, bytes: $0.bytes) }
    )
  }

  private static func createFolder(_ folder: String) throws(StageError) {
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw StageError(.io, "\(folder): cannot create the folder")
    }
  }
}

/// The shared state of a cohort's workers: the next member to take, the members written, and
/// the first failure.
private struct CohortProgress {
  var next = 1
  var members: [(member: CohortTruth.Member, files: [WrittenFile])] = []
  var failure: (any Error)?

  /// The next member's index, or nil when all are taken or one has failed.
  mutating func take(upTo count: Int) -> Int? {
    guard failure == nil, next <= count else { return nil }
    defer { next += 1 }
    return next
  }

  /// Records a written member; returns how many are written.
  mutating func finished(_ member: (member: CohortTruth.Member, files: [WrittenFile])) -> Int {
    members.append(member)
    return members.count
  }

  mutating func failed(_ error: any Error) {
    if failure == nil { failure = error }
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
    SynthSummary.line(folder: folder, files: files, seconds: seconds, persons: persons) + "\n"
  }
  package var json: String {
    SynthSummary.json(
      folder: folder, days: days, plays: plays, files: files, seconds: seconds, persons: persons
    ).text
  }
}
