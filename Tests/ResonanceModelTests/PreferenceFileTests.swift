import Foundation
import Testing

@testable import ResonanceModel

@Suite("Preference file: what `resonance tune` writes and the app reads")
struct PreferenceFileTests {
  /// Tuned settings with a weight that is not a round decimal, and every rule moved.
  static let tuned: UserPreferences = {
    var settings = UserPreferences(
      bpmWeight: 0.1 + 0.2, energyWeight: 0.2, familiarityWeight: 0.1, historicalWeight: 0.25,
      contextWeight: 0.15, recencyPenaltyWeight: 0.35, timeOfDayPenaltyWeight: 0.1,
      morningBPMCap: 115, morningStartHour: 5.5, morningEndHour: 9, nightBPMCap: 90,
      nightStartHour: 23, nightEndHour: 6, recencyWindowMinutes: 180, repeatBlockMinutes: 45,
      sameArtistLimit: 1, sameArtistWindow: 4, nightHardCapBPM: 104.5)
    settings.policy = LoggingPolicy(kind: .epsilonGreedy, temperature: 0.05, epsilon: 0.1)
    return settings
  }()

  static let evidence = TuningEvidence(
    from: "2022-06-01", to: "2022-11-30", decisions: 4_210, months: 6,
    estimator: .dr, reward: .composite,
    forwardGain: TuningEvidence.Interval(
      estimate: 0.031_415_926_535_897_93, lower: 0.012, upper: 0.05, level: 0.9),
    heldOut: TuningEvidence.Interval(estimate: 0.02, lower: 0.004, upper: 0.036, level: 0.9),
    effectiveSampleSize: 812.25, agreementShare: 0.625, folds: 5,
    reason: "the held-out gain's interval is above 0",
    command: "resonance tune --store s.sqlite --out preferences.json")

  static let files: [PreferenceFile] = [
    PreferenceFile(recommendation: .change, preferences: tuned, evidence: evidence),
    PreferenceFile(
      recommendation: .change, preferences: .appDefault,
      contexts: ["workout": tuned, "relax": .appDefault],
      evidence: TuningEvidence(
        from: "2022-06-01", to: "2022-06-30", decisions: 90, months: 1, estimator: .ips,
        reward: .keep, forwardGain: nil, effectiveSampleSize: nil, agreementShare: nil,
        folds: 0, reason: "too little history to hold a month out", command: "resonance tune")),
    PreferenceFile(recommendation: .keep, preferences: .appDefault),
  ]

  @Test(
    "a file reads back equal in either encoding: with evidence, with contexts, written by hand",
    arguments: PreferenceFile.Encoding.allCases, 0..<3)
  func roundTrip(encoding: PreferenceFile.Encoding, index: Int) throws {
    let file = Self.files[index]
    let read = try PreferenceFile(data: try file.encoded(as: encoding))
    #expect(read == file)
    #expect(read.preferences.bpmWeight.bitPattern == file.preferences.bpmWeight.bitPattern)
    #expect(read.format == "resonance.preferences" && read.version == 1)
  }

  @Test("the JSON has sorted camel-case keys, a format and a version, and ends with a newline")
  func jsonShape() throws {
    let data = try Self.files[0].encoded(as: .json)
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.hasSuffix("}\n"))
    #expect(text.contains(#""format" : "resonance.preferences""#))
    #expect(text.contains(#""nightHardCapBPM" : 104.5"#))
    #expect(text.contains(#""kind" : "epsilon-greedy""#))
    let keys = ["contexts", "evidence", "format", "preferences", "recommendation", "version"]
    let top = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(Set(top.keys).isSubset(of: keys) && top["contexts"] == nil)
    let order = keys.compactMap { text.range(of: "\n  \"\($0)\"")?.lowerBound }
    #expect(order.count == 5 && order == order.sorted(), "top-level keys sorted")
  }

  @Test("Python's plistlib reads the property list: the weights, the rules and the recommendation")
  func plistReadByPython() throws {
    let data = try Self.files[0].encoded(as: .plist)
    #expect(data.starts(with: Data("<?xml".utf8)), "an XML property list, not a binary one")
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("preferences-\(UUID().uuidString).plist").path
    try data.write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let script = """
      import plistlib, sys
      with open(sys.argv[1], 'rb') as f:
          d = plistlib.load(f)
      p = d['preferences']
      assert isinstance(p['bpmWeight'], float), type(p['bpmWeight'])
      assert isinstance(p['sameArtistLimit'], int), type(p['sameArtistLimit'])
      print(repr(p['bpmWeight']), d['recommendation'], d['format'], d['version'],
            p['nightHardCapBPM'], p['sameArtistLimit'], p['policy']['kind'],
            repr(d['evidence']['forwardGain']['estimate']))
      """
    let (status, output) = try Self.run("python3", ["-c", script, path])
    #expect(status == 0, "\(output)")
    #expect(
      output
        == "0.30000000000000004 change resonance.preferences 1 104.5 1 epsilon-greedy"
        + " 0.03141592653589793\n")
  }

  /// A file's JSON with `change` applied to its top-level object.
  static func edited(_ change: (inout [String: Any]) -> Void) throws -> Data {
    let data = try files[0].encoded(as: .json)
    var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    change(&object)
    return try JSONSerialization.data(withJSONObject: object)
  }

  /// A preference file is a property list anyone can hand over: Foundation's reader must not
  /// expand a declared entity, read a file for one, or run away with a billion laughs.
  @Test("a property list that declares entities is refused: no file read, no expansion")
  func plistEntities() throws {
    let plist = String(decoding: try Self.files[0].encoded(as: .plist), as: UTF8.self)
    let secret = FileManager.default.temporaryDirectory.appendingPathComponent(
      "preference-secret-\(getpid()).txt")
    try "TOP-SECRET".write(to: secret, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: secret) }
    var laughs = "<!ENTITY l0 \"lol\">"
    for level in 1...9 {
      laughs += "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">"
    }
    for (subset, value) in [
      ("<!ENTITY x SYSTEM \"file://\(secret.path)\">", "&x;"), (laughs, "&l9;"),
      ("<!ENTITY name \"resonance.preferences\">", "&name;"),
    ] {
      let hostile = plist.replacingOccurrences(
        of:
          #"<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">"#,
        with: "<!DOCTYPE plist [\(subset)]>"
      ).replacingOccurrences(
        of: "<string>resonance.preferences</string>", with: "<string>\(value)</string>")
      #expect(hostile.contains(value))
      let clock = ContinuousClock()
      let start = clock.now
      #expect(throws: PreferenceFileError.self) { try PreferenceFile(data: Data(hostile.utf8)) }
      #expect(clock.now - start < .seconds(5))
    }
  }

  @Test("a file of another format is refused, naming the format expected and the one found")
  func otherFormat() throws {
    let data = try Self.edited { $0["format"] = "resonance.decision-log" }
    let error = try #require(throws: PreferenceFileError.self) {
      _ = try PreferenceFile(data: data)
    }
    #expect(
      error.message
        == #"expected "format": "resonance.preferences", found "resonance.decision-log""#)
  }

  @Test(
    "a file of a version this build does not know is refused, naming the one it reads",
    arguments: [0, 2])
  func unknownVersion(version: Int) throws {
    let data = try Self.edited { $0["version"] = version }
    let error = try #require(throws: PreferenceFileError.self) {
      _ = try PreferenceFile(data: data)
    }
    #expect(error.message == "expected version 1, found \(version)")
  }

  @Test(
    "settings without the night's hard cap are refused in either encoding, naming the key",
    arguments: PreferenceFile.Encoding.allCases)
  func missingKey(encoding: PreferenceFile.Encoding) throws {
    let json = try Self.edited {
      var settings = $0["preferences"] as? [String: Any] ?? [:]
      settings["nightHardCapBPM"] = nil
      $0["preferences"] = settings
    }
    var data = json
    if encoding == .plist {
      let object = try JSONSerialization.jsonObject(with: json)
      data = try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0)
      #expect(data.starts(with: Data("<?xml".utf8)))
    }
    let error = try #require(throws: PreferenceFileError.self) {
      _ = try PreferenceFile(data: data)
    }
    #expect(error.message == #"expected the key "preferences.nightHardCapBPM", found none"#)
  }

  @Test(
    "a setting out of range is refused in either encoding, naming the key, its range and its line",
    arguments: PreferenceFile.Encoding.allCases)
  func outOfRange(encoding: PreferenceFile.Encoding) throws {
    let cases: [(String, String, (inout UserPreferences) -> Void, String)] = [
      (
        "preferences", "policy.temperature",
        { $0.policy = LoggingPolicy(kind: .softmax, temperature: 0, epsilon: 0) },
        "expected a temperature in (0, 100] for softmax, found 0.0"
      ),
      (
        "preferences", "energyWeight", { $0.energyWeight = -0.2 },
        "expected a finite number ≥ 0, found -0.2"
      ),
      (
        "preferences", "morningStartHour", { $0.morningStartHour = 99 },
        "expected an hour in [0, 24), found 99.0"
      ),
      (
        "preferences", "policy.epsilon",
        { $0.policy = LoggingPolicy(kind: .epsilonGreedy, temperature: 0, epsilon: 1.5) },
        "expected an ε in [0, 1] for epsilon-greedy, found 1.5"
      ),
      (
        "contexts.workout", "sameArtistWindow", { $0.sameArtistWindow = -1 },
        "expected a whole number in [0, 100], found -1.0"
      ),
    ]
    for (section, key, change, expected) in cases {
      var file = Self.files[1]
      if section == "preferences" {
        change(&file.preferences)
      } else {
        change(&file.contexts!["workout"]!)
      }
      let data = try file.encoded(as: encoding)
      let error = try #require(throws: PreferenceFileError.self) {
        _ = try PreferenceFile(data: data)
      }
      #expect(error.message == "\"\(section).\(key)\": \(expected)")
      // The line holds the key; the column is where it begins.
      let line = try #require(error.line)
      let text = String(decoding: data, as: UTF8.self).split(
        separator: "\n", omittingEmptySubsequences: false)[line - 1]
      let leaf = String(key.split(separator: ".").last!)
      #expect(text.contains(encoding == .json ? "\"\(leaf)\"" : "<key>\(leaf)</key>"), "\(text)")
      #expect(
        text.dropFirst(error.column! - 1).hasPrefix(
          encoding == .json ? "\"\(leaf)\"" : "<key>\(leaf)</key>"))
    }
  }

  @Test("the evidence names its estimator and reward as `--estimator` and `--reward` spell them")
  func evidenceVocabulary() throws {
    let text = String(decoding: try Self.files[1].encoded(as: .json), as: UTF8.self)
    #expect(text.contains(#""estimator" : "ips""#) && text.contains(#""reward" : "keep""#))
    let data = try Self.edited {
      var evidence = $0["evidence"] as? [String: Any] ?? [:]
      evidence["estimator"] = "doubly-robust"
      $0["evidence"] = evidence
    }
    let error = try #require(throws: PreferenceFileError.self) {
      _ = try PreferenceFile(data: data)
    }
    #expect(error.message.hasPrefix(#""evidence.estimator": "#), "\(error.message)")
  }

  @Test(
    "evidence written before format 2 reads its heldOutGain as the forward gain; today's writes forwardGain and heldOut"
  )
  func forwardGainsOldName() throws {
    let text = String(decoding: try Self.files[0].encoded(as: .json), as: UTF8.self)
    #expect(text.contains(#""forwardGain" : {"#) && text.contains(#""heldOut" : {"#))
    #expect(!text.contains("heldOutGain"))
    let old = try Self.edited {
      var evidence = $0["evidence"] as? [String: Any] ?? [:]
      evidence["heldOutGain"] = evidence["forwardGain"]
      evidence["forwardGain"] = nil
      evidence["heldOut"] = nil
      $0["evidence"] = evidence
    }
    let read = try PreferenceFile(data: old)
    #expect(read.evidence?.forwardGain == Self.evidence.forwardGain)
    #expect(read.evidence?.heldOut == nil)
  }

  @Test(
    "a file whose evidence does not parse is refused, naming the key: a gain without its bounds, evidence that is not an object"
  )
  func evidenceThatDoesNotParse() throws {
    let partial = try Self.edited {
      var evidence = $0["evidence"] as? [String: Any] ?? [:]
      evidence["forwardGain"] = ["estimate": 0.03]
      $0["evidence"] = evidence
    }
    let error = try #require(throws: PreferenceFileError.self) {
      _ = try PreferenceFile(data: partial)
    }
    #expect(error.message.contains("evidence.forwardGain.lower"), "\(error.message)")
    let text = try Self.edited { $0["evidence"] = "trust me" }
    let notObject = try #require(throws: PreferenceFileError.self) {
      _ = try PreferenceFile(data: text)
    }
    #expect(notObject.message.contains("evidence"), "\(notObject.message)")
  }

  @Test("bytes that are neither JSON nor a property list are refused as such")
  func notAFile() throws {
    for text in ["", "format = resonance.preferences\n", "{\"format\": "] {
      let error = try #require(throws: PreferenceFileError.self) {
        _ = try PreferenceFile(data: Data(text.utf8))
      }
      #expect(error.message.hasPrefix("expected"), "\(text): \(error.message)")
    }
  }

  /// Runs a tool found on the path; its exit status and what it printed.
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
