import Foundation
import ResonanceBrain
import ResonanceIO
import ResonanceModel
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

  @Test("every decision's propensities sum to one, and replaying the scorer reproduces the log")
  func decisionLog() throws {
    let folder = try folder()
    let logs = folder.files.filter { $0.hasPrefix("resonance/decisions/") }
    #expect(!logs.isEmpty)
    var decisions = 0
    for file in logs {
      let lines = try Data(contentsOf: folder.url(file)).split(separator: UInt8(ascii: "\n"))
      let header = try JSONSerialization.jsonObject(with: Data(lines[0])) as? [String: Any]
      let w = header?["weights"] as? [String: Double] ?? [:]
      let weights = ScoringWeights(
        bpm: w["bpm"] ?? .nan, energy: w["energy"] ?? .nan, familiarity: w["familiarity"] ?? .nan,
        historical: w["historical"] ?? .nan, context: w["context"] ?? .nan,
        recency: w["recency"] ?? .nan, timeOfDay: w["time_of_day"] ?? .nan)
      #expect(weights == .appDefault)
      for line in lines.dropFirst() {
        let d = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
        let logged = d["candidates"] as? [[String: Any]] ?? []
        let total = logged.reduce(0.0) { $0 + ($1["p"] as? Double ?? 0) }
        #expect(
          abs(total - 1) < 1e-6, "decision \(d["decision"] ?? "?"): propensities sum to \(total)")
        try replay(d, weights: weights)
        decisions += 1
      }
    }
    #expect(decisions == folder.history.decisions.count)
  }

  /// Rebuilds the decision from the log's inputs alone and scores it again.
  private func replay(_ d: [String: Any], weights: ScoringWeights) throws {
    func time(_ text: String?) -> Int64? {
      guard let text else { return nil }
      return FixedDateParser.isoUTC(text)
    }
    let previous = (d["previous"] as? [String: Double]).map {
      SongFeatures(bpm: $0["bpm"] ?? 0, energy: $0["energy"] ?? 0, valence: $0["valence"] ?? 0)
    }
    let moment = DecisionMoment(
      need: Need(rawValue: d["need"] as? String ?? "") ?? .calm,
      context: ActivityContext(rawValue: d["context"] as? String ?? "") ?? .general,
      nowMs: try #require(time(d["t"] as? String)), localHour: d["local_hour"] as? Double ?? 0,
      stress: d["stress"] as? Double ?? 0, previous: previous,
      recentArtists: d["recent_artists"] as? [String] ?? [],
      maxPlayCount: d["max_play_count"] as? Int ?? 0)
    let logged = d["candidates"] as? [[String: Any]] ?? []
    let candidates = logged.map { c in
      Candidate(
        songID: c["song"] as? String, artist: c["artist"] as? String ?? "",
        features: SongFeatures(
          bpm: c["bpm"] as? Double ?? 0, energy: c["energy"] as? Double ?? 0,
          valence: c["valence"] as? Double ?? 0),
        playCount: c["plays"] as? Int ?? 0, learnedEffect: c["learned"] as? Double,
        lastPlayedAtMs: time(c["last_played"] as? String))
    }
    // The log lists only admitted candidates, so none may be filtered now.
    let rescored = DecisionEngine.score(
      candidates, at: moment, weights: weights, policy: .softmax(temperature: 0.05))
    #expect(rescored.count == logged.count)
    for (again, log) in zip(rescored, logged) {
      let components = log["c"] as? [Double] ?? []
      for (a, b) in zip(again.components.vector, components) { #expect(abs(a - b) < 1e-6) }
      #expect(abs(again.baseScore - (log["base"] as? Double ?? .nan)) < 1e-6)
      #expect(abs(again.finalScore - (log["score"] as? Double ?? .nan)) < 1e-6)
      #expect(abs(again.propensity - (log["p"] as? Double ?? .nan)) < 1e-6)
    }
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
