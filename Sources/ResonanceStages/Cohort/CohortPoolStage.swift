import Foundation
import ResonanceBrain
import ResonanceIO
import ResonanceModel
import ResonanceReports

/// `resonance cohort pool`: reads every hand-off of a cohort folder (`DIR/person=ID/`, as
/// `resonance export` writes them), pools each person-level effect with the random-effects
/// model (`RandomEffects`) and writes the cohort report.
///
/// A folder without a complete manifest (a person whose export stopped part way, or has not
/// run) is skipped and counted; a hand-off of another schema version, or whose `effects.json`
/// is not the file its manifest describes, is refused by name. Neither stops the others.
package struct CohortPoolStage: Stage {
  package let request: CohortPoolRequest

  package init(_ request: CohortPoolRequest) { self.request = request }

  /// - Throws: `StageError.missingInput` when the folder is not there; `StageError.io` when
  ///   the report cannot be written.
  package func run(progress: any StageProgress) throws -> CohortPoolResult {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: request.folder, isDirectory: &isFolder),
      isFolder.boolValue
    else {
      throw StageError(
        .missingInput,
        "\(request.folder): no cohort folder here; resonance export --out \(request.folder) "
          + "--person ID writes one person's hand-off into it")
    }
    let folders = ((try? FileManager.default.contentsOfDirectory(atPath: request.folder)) ?? [])
      .filter { $0.hasPrefix("person=") }.sorted()
    var persons: [CohortPerson] = []
    var incomplete: [CohortPoolResult.Left] = []
    var refused: [CohortPoolResult.Left] = []
    progress.step(
      "cohort: hand-offs", total: Int64(folders.count), unit: .items("persons")
    ) {
      for (index, name) in folders.enumerated() {
        switch Self.read((request.folder as NSString).appendingPathComponent(name)) {
        case .person(let person): persons.append(person)
        case .incomplete(let reason):
          incomplete.append(.init(folder: name, reason: reason))
          progress.say("warning: \(request.folder)/\(name): skipped: \(reason)")
        case .refused(let reason):
          refused.append(.init(folder: name, reason: reason))
          progress.say("warning: \(request.folder)/\(name): refused: \(reason)")
        }
        progress.advance(to: Int64(index + 1))
      }
    }
    let pooled = PersonEffect.Name.allCases.compactMap { name in
      RandomEffects.pool(
        persons.compactMap { p in
          p.effects.first { $0.name == name }.map { (estimate: $0.estimate, se: $0.se) }
        }, level: request.level
      ).map { (name: name, effect: $0) }
    }
    var result = CohortPoolResult(
      out: request.out, persons: persons, incomplete: incomplete, refused: refused,
      pooled: pooled, files: [])
    for file in CohortPage.files(result) {
      try OutputFiles.write(
        file.text, to: (request.out as NSString).appendingPathComponent(file.name))
      result.files.append(file.name)
    }
    return result
  }

  enum Reading {
    case person(CohortPerson)
    case incomplete(String)
    case refused(String)
  }

  /// One person's folder: its manifest, then `effects.json` checked against it.
  static func read(_ folder: String) -> Reading {
    let manifestPath = (folder as NSString).appendingPathComponent("manifest.json")
    guard let data = FileManager.default.contents(atPath: manifestPath),
      let manifest = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      manifest["complete"] as? Bool == true
    else { return .incomplete("no complete manifest.json (an export that did not finish)") }
    guard let version = manifest["schema_version"] as? Int,
      version == HandOffDocuments.schemaVersion
    else {
      let found = (manifest["schema_version"] as? Int).map(String.init) ?? "none"
      return .refused(
        "hand-off schema version \(found); this build reads \(HandOffDocuments.schemaVersion)")
    }
    let effectsPath = (folder as NSString).appendingPathComponent("effects.json")
    let listed = (manifest["files"] as? [[String: Any]])?.first {
      $0["name"] as? String == "effects.json"
    }
    guard let effectsData = FileManager.default.contents(atPath: effectsPath),
      let digest = listed?["sha256"] as? String
    else { return .refused("effects.json is missing or not in the manifest") }
    let hasher = SHA256()
    hasher.update(Array(effectsData))
    guard hasher.finalize() == digest else {
      return .refused("effects.json is not the file its manifest describes (SHA-256 differs)")
    }
    guard let document = try? JSONSerialization.jsonObject(with: effectsData) as? [String: Any],
      let person = manifest["person"] as? String,
      let entries = document["effects"] as? [[String: Any]]
    else { return .refused("effects.json is not a hand-off's effects") }
    // An effect this build does not know (a later version's) is left out of the pooling.
    let effects = entries.compactMap { entry -> PersonEffect? in
      guard let name = (entry["name"] as? String).flatMap(PersonEffect.Name.init),
        let estimate = (entry["estimate"] as? NSNumber)?.doubleValue,
        let se = (entry["se"] as? NSNumber)?.doubleValue
      else { return nil }
      return PersonEffect(
        name: name, estimate: estimate, se: se, n: entry["n"] as? Int ?? 0,
        method: entry["method"] as? String ?? "")
    }
    return .person(
      CohortPerson(
        person: person, effects: effects,
        tuneRecommendation: document["tune_recommendation"] as? String))
  }
}

extension CohortPoolResult: ConsolePresentable {
  package var text: String { CohortSummary.text(self) }
  package var json: String { CohortSummary.json(self).text }
}
