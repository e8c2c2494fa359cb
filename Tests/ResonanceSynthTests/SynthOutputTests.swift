import Foundation
import ResonanceBrain
import ResonanceIO
import ResonanceIngest
import ResonanceModel
import ResonanceTuning
import Testing

@testable import ResonanceSynth

@Suite("synth: files in the real formats", .serialized)
struct SynthOutputTests {
  static let folder = Result { try SynthFolder() }

  func folder() throws -> SynthFolder { try Self.folder.get() }

  @Test("the same seed gives byte-identical files; another seed does not")
  func determinism() throws {
    let first = try folder()
    let second = try SynthFolder()
    #expect(first.files == second.files)
    for file in first.files {
      let a = try Data(contentsOf: first.url(file))
      let b = try Data(contentsOf: second.url(file))
      #expect(a == b, "\(file) differs between two runs with the same seed")
    }
    var other = SynthFolder.small
    other.seed = 8
    let third = try SynthFolder(other)
    #expect(
      try Data(contentsOf: third.url("apple_health_export/export.xml"))
        != Data(contentsOf: first.url("apple_health_export/export.xml")))
  }

  @Test("the Health export is well-formed XML (xmllint --noout)")
  func xmllint() throws {
    let (status, output) = try SynthFolder.run(
      "xmllint", ["--noout", try folder().path + "/apple_health_export/export.xml"])
    #expect(status == 0, "\(output)")
  }

  @Test("every JSON file parses, and every JSON Lines file line by line")
  func json() throws {
    let folder = try folder()
    for file in folder.files {
      let data = try Data(contentsOf: folder.url(file))
      if file.hasSuffix(".json") {
        #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "\(file)")
      } else if file.hasSuffix(".jsonl") {
        let lines = data.split(separator: UInt8(ascii: "\n"))
        #expect(lines.count > 1, "\(file) has a header and at least one line")
        for (number, line) in lines.enumerated() {
          let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
          #expect(object != nil, "\(file):\(number + 1)")
          if number == 0 {
            #expect((object?["format"] as? String)?.hasPrefix("resonance.") == true)
          }
        }
      }
    }
  }

  @Test("every CSV row has as many fields as the header (Python's csv module)")
  func csv() throws {
    let folder = try folder()
    let script = """
      import csv, sys
      for path in sys.argv[1:]:
          with open(path, newline='', encoding='utf-8') as f:
              rows = list(csv.reader(f))
          width = len(rows[0])
          bad = [i + 1 for i, row in enumerate(rows) if len(row) != width]
          if bad or len(rows) < 2:
              print(path, 'rows with the wrong width:', bad[:5], 'rows:', len(rows))
              sys.exit(1)
      """
    let csvFiles = folder.files.filter { $0.hasSuffix(".csv") }.map { folder.path + "/" + $0 }
    #expect(csvFiles.count == 2)
    let (status, output) = try SynthFolder.run("python3", ["-c", script] + csvFiles)
    #expect(status == 0, "\(output)")
  }

  @Test(
    "the decision log (version 2) reads back through ingest, and replaying the engine on it reproduces every number exactly"
  )
  func decisionLog() throws {
    let folder = try folder()
    let logs = folder.files.filter { $0.hasPrefix("resonance/decisions/") }.sorted()
    #expect(!logs.isEmpty)
    var records: [DecisionRecord] = []
    for file in logs {
      let (trace, diagnostics) = try TraceReader.read(
        path: file, data: try Data(contentsOf: folder.url(file)))
      #expect(diagnostics.isEmpty, "\(diagnostics)")
      #expect(trace.version == 2)
      guard case .decisions(let decisions) = trace.content else {
        Issue.record("\(file) is not read as a decision log")
        continue
      }
      #expect(decisions.first?.preferences == .appDefault, "the header's settings")
      records += decisions
    }
    #expect(records.count == folder.history.decisions.count)
    for record in records {
      let total = record.candidates.reduce(0.0) { $0 + $1.propensity }
      #expect(abs(total - 1) < 1e-12, "decision \(record.decision): propensities sum to \(total)")
      #expect(record.adjuster != nil && record.heartRate != nil)
    }
    let check = DecisionReplay.check(records)
    #expect(check.passed, "\(check.firstMismatch.map(\.detail) ?? "")")
    #expect(check.replayed == records.count)
    #expect(check.largestScoreDifference == 0)
    #expect(check.largestPropensityRelativeDifference == 0)
    #expect(
      records.contains { !$0.rejected.isEmpty && $0.rejected.allSatisfy { $0.inputs != nil } })
  }

  @Test("truth.json holds what was planted")
  func truth() throws {
    let folder = try folder()
    let data = try Data(contentsOf: folder.url("truth.json"))
    let truth = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect((truth["songs"] as? [Any])?.count == 120)
    for key in [
      "person", "app", "genre_priors", "context_gain", "nights", "breathing", "plays", "privacy",
    ] {
      #expect(truth[key] != nil, "truth.json lacks \(key)")
    }
    let breathing = truth["breathing"] as? [[String: Any]] ?? []
    #expect(!breathing.isEmpty)
    for session in breathing {
      let adherence = session["adherence"] as? Double ?? -1
      #expect(adherence >= 0 && adherence <= 1)
      #expect(
        FileManager.default.fileExists(
          atPath: folder.path + "/" + (session["file"] as? String ?? "")))
    }
  }
}

@Suite("synth --zip")
struct SynthZipTests {
  @Test("export.zip holds the same export, the CDA file and the GPX routes, all well-formed")
  func zip() throws {
    var configuration = SynthFolder.small
    configuration.writesZip = true
    let zipped = try SynthFolder(configuration)
    let plain = try SynthFolder()
    #expect(!FileManager.default.fileExists(atPath: zipped.path + "/apple_health_export"))
    let script = """
      import sys, zipfile, subprocess, tempfile, os
      zipped, plain = sys.argv[1], sys.argv[2]
      z = zipfile.ZipFile(zipped)
      names = z.namelist()
      assert 'apple_health_export/export.xml' in names, names
      assert 'apple_health_export/export_cda.xml' in names, names
      routes = [n for n in names if n.startswith('apple_health_export/workout-routes/') and n.endswith('.gpx')]
      assert routes, names
      assert z.read('apple_health_export/export.xml') == open(plain, 'rb').read()
      with tempfile.TemporaryDirectory() as d:
          z.extractall(d)
          for n in names:
              subprocess.run(['xmllint', '--noout', os.path.join(d, n)], check=True)
      print(len(routes), 'routes')
      """
    let (status, output) = try SynthFolder.run(
      "python3",
      ["-c", script, zipped.path + "/export.zip", plain.path + "/apple_health_export/export.xml"])
    #expect(status == 0, "\(output)")
  }
}
