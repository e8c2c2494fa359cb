import Foundation
import Testing

@testable import ResonanceCLI

/// A series in Tests/Fixtures/hrv.
func hrvFixturePath(_ name: String) -> String {
  URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/hrv/\(name)").path
}

/// A reference JSON scripts/hrv-references.py wrote beside a series.
func hrvReferenceObject(_ name: String) throws -> [String: Any] {
  let data = try Data(contentsOf: URL(fileURLWithPath: hrvFixturePath(name)))
  return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

/// `resonance hrv … --json`'s one series.
func hrvJSONSeries(_ arguments: [String]) throws -> [String: Any] {
  let result = runResonance(["hrv"] + arguments + ["--json"])
  #expect(result.status == .ok, "\(result.err)")
  let object = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any]
  let series = try #require(object?["series"] as? [[String: Any]])
  return try #require(series.first)
}

@Suite("hrv command")
struct HRVCommandTests {
  @Test("one interval per line: text and JSON, NeuroKit2's figures with artefacts off")
  func plain() throws {
    let text = runResonance(["hrv", hrvFixturePath("rr-synthetic.txt"), "--artefacts", "off"])
    #expect(text.status == .ok)
    #expect(text.out.contains("300 intervals, 0 removed"))
    #expect(text.out.contains("SDNN     34.89 ms"))
    let json = runResonance([
      "hrv", hrvFixturePath("rr-synthetic.txt"), "--artefacts", "off", "--json",
    ])
    let object = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any]
    #expect(object?["format_version"] as? Int == 1)
    let series = try #require(object?["series"] as? [[String: Any]])
    #expect(series.count == 1 && object?["mean"] is NSNull)
    let metrics = series.first?["metrics"] as? [String: Any]
    #expect(abs((metrics?["rmssd"] as? Double ?? 0) - 46.266_206_597_361_09) < 1e-9)
  }

  @Test("CSV with a header, JSON arrays, seconds; an empty file is exit 65")
  func formats() throws {
    let folder = try TemporaryFolder()
    let csv = folder.file("rr.csv")
    try "time,RR (ms)\n0.0,800\n0.8,820\n1.62,810\n".write(
      toFile: csv, atomically: true, encoding: .utf8)
    #expect(runResonance(["hrv", csv]).out.contains("MeanNN   810.00 ms"))
    let json = folder.file("rr.json")
    try "{\"rr\": [0.8, 0.82, 0.81]}".write(toFile: json, atomically: true, encoding: .utf8)
    #expect(runResonance(["hrv", json]).out.contains("MeanNN   810.00 ms"))
    let one = folder.file("one.txt")
    try "800\n".write(toFile: one, atomically: true, encoding: .utf8)
    #expect(runResonance(["hrv", one]).out.contains("SDNN     null (series too short)"))
    let empty = folder.file("empty.txt")
    try "\n".write(toFile: empty, atomically: true, encoding: .utf8)
    let result = runResonance(["hrv", empty])
    #expect(result.status == .dataError)
    #expect(result.err.contains("expected RR intervals"))
    #expect(runResonance(["hrv", folder.file("missing.txt")]).status == .noInput)
    #expect(runResonance(["hrv", csv, "--artefacts", "maybe"]).status == .usage)
  }

  // Issue 16: on pyHRV's real 5-minute NN series NeuroKit2, Kubios and pyHRV report RMSSD
  // 101 ms; resonance used to drop 31 intervals by default and report 69.
  @Test("by default the real nsrdb series is taken as it is: NeuroKit2's SDNN, RMSSD, pNN50")
  func defaultIsNeuroKit2() throws {
    let path = hrvFixturePath("real-nsrdb.txt")
    let text = runResonance(["hrv", path])
    #expect(text.status == .ok)
    #expect(text.out.contains("337 intervals, 0 removed (artefacts: off)"))
    #expect(text.out.contains("RMSSD    101.30 ms"))
    let reference = try hrvReferenceObject("real-nsrdb.neurokit2.json")
    let series = try hrvJSONSeries([path])
    let metrics = try #require(series["metrics"] as? [String: Any])
    for (key, nk) in [("sdnn", "HRV_SDNN"), ("rmssd", "HRV_RMSSD"), ("pnn50", "HRV_pNN50")] {
      let value = try #require(metrics[key] as? Double)
      let expected = try #require(reference[nk] as? Double)
      #expect(abs(value - expected) <= 1e-3 * expected, "\(key): \(value) vs \(expected)")
    }
  }

  @Test("with artefacts off it says how many intervals look like artefacts, and what to try")
  func suspectsReported() throws {
    let path = hrvFixturePath("real-nsrdb.txt")
    let text = runResonance(["hrv", path]).out
    #expect(
      text.contains(
        "5 of 337 intervals look like artefacts by the Kubios method (numbers 33, 74, 119, 235, 245, counting from 1)"
      ))
    #expect(
      text.contains("--artefacts kubios corrects them, or --artefacts malik drops intervals by"))
    let series = try hrvJSONSeries([path])
    #expect(series["suspected_artefacts"] as? Int == 5)
    #expect(series["suspected_artefact_intervals"] as? [Int] == [33, 74, 119, 235, 245])
    #expect(series["corrected"] as? Int == 0 && series["removed"] as? Int == 0)
    let clean = runResonance(["hrv", hrvFixturePath("real-systole-ecg.txt")]).out
    #expect(clean.contains("no interval looks like an artefact by the Kubios method"))
    #expect(!clean.contains("--artefacts kubios"))
  }

  @Test("--artefacts malik still drops 31 of nsrdb's intervals; kubios corrects 5 of them")
  func options() throws {
    let path = hrvFixturePath("real-nsrdb.txt")
    let malik = runResonance(["hrv", path, "--artefacts", "malik"])
    #expect(malik.out.contains("337 intervals, 31 removed (artefacts: malik)"))
    #expect(!malik.out.contains("look like artefacts"))
    let malikJSON = try hrvJSONSeries([path, "--artefacts", "malik"])
    #expect(malikJSON["removed"] as? Int == 31)
    let malikRMSSD = try #require((malikJSON["metrics"] as? [String: Any])?["rmssd"] as? Double)
    #expect((60...75).contains(malikRMSSD))

    let kubios = runResonance(["hrv", path, "--artefacts", "kubios"])
    #expect(kubios.out.contains("337 intervals, 5 corrected (artefacts: kubios)"))
    #expect(kubios.out.contains("RMSSD    98.41 ms"))
    let kubiosJSON = try hrvJSONSeries([path, "--artefacts", "kubios"])
    #expect(kubiosJSON["corrected"] as? Int == 5 && kubiosJSON["removed"] as? Int == 0)
    #expect(kubiosJSON["suspected_artefacts"] as? Int == 5)
  }

  @Test("the help page gives the three ways and the default")
  func help() {
    let help = runResonance(["hrv", "--help"]).out
    #expect(help.contains("off|kubios|malik"))
    #expect(help.contains("Default: off"))
    #expect(help.contains("Lipponen & Tarvainen"))
  }
}
