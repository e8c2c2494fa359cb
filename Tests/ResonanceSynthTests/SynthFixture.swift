import Foundation
import ResonanceModel
import ResonanceSynth

/// A small simulated person written to a temporary folder, shared by the synth tests.
final class SynthFolder: Sendable {
  let path: String
  let history: SynthHistory

  init(_ configuration: SynthConfiguration = SynthFolder.small) throws {
    path =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("resonance-synth-\(UUID().uuidString)").path
    let run = LifeSimulator.runWithHistory(configuration)
    history = run.whole
    _ = try SynthWriter(history: run.whole, alone: run.alone, folder: path).write()
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  static var small: SynthConfiguration {
    var configuration = SynthConfiguration()
    configuration.months = 1
    configuration.songs = 120
    configuration.scale = 0.2
    configuration.seed = 7
    return configuration
  }

  /// Every regular file under the folder, relative to it, sorted.
  var files: [String] {
    let walker = FileManager.default.enumerator(atPath: path)
    var found: [String] = []
    while let item = walker?.nextObject() as? String {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: path + "/" + item, isDirectory: &isDirectory),
        !isDirectory.boolValue
      {
        found.append(item)
      }
    }
    return found.sorted()
  }

  func url(_ relative: String) -> URL { URL(fileURLWithPath: path + "/" + relative) }

  /// Runs a tool and returns its exit status and combined output.
  static func run(_ tool: String, _ arguments: [String]) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [tool] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, output)
  }
}
