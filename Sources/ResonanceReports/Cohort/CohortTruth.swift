import ResonanceModel

/// `cohort-truth.json`, which `resonance synth --cohort` writes beside its members: the
/// population every member's effects were drawn from, and each member's draw
/// (`docs/synth.md`, "A cohort"). `make validate-cohort` judges a pooled estimate by it.
///
/// ```json
/// {"effects": {"tempo_hr_per_10bpm": {"mu": 1, "tau": 0.5}, …},
///  "format_version": 1, "seed": 7,      (seeds past 2^63 − 1 are strings)
///  "persons": [{"person": "person-0001", "seed": 7, "plays": 912,
///               "effects": {"tempo_hr_per_10bpm": 1.31, …}}, …]}
/// ```
package enum CohortTruth {
  package static let fileName = "cohort-truth.json"

  /// One member as written.
  package struct Member: Sendable, Equatable {
    /// The member's folder name, which is also the pseudonym `cohort/run-person.sh` exports
    /// it under.
    package var folder: String
    package var seed: UInt64
    package var planted: PlantedEffects
    package var plays: Int

    package init(folder: String, seed: UInt64, planted: PlantedEffects, plays: Int) {
      self.folder = folder
      self.seed = seed
      self.planted = planted
      self.plays = plays
    }
  }

  /// The document for a cohort drawn from `seed`.
  package static func json(seed: UInt64, members: [Member]) -> JSONValue {
    let population = Dictionary(
      uniqueKeysWithValues: CohortPopulation.effects.map {
        ($0.name.rawValue, JSONValue.object(["mu": .number($0.mu), "tau": .number($0.tau)]))
      })
    return [
      "format_version": 1, "seed": number(seed), "effects": .object(population),
      "persons": .array(
        members.map { member in
          [
            "person": .string(member.folder), "seed": number(member.seed),
            "plays": .integer(member.plays),
            "effects": .object(
              Dictionary(
                uniqueKeysWithValues: CohortPopulation.effects.map {
                  ($0.name.rawValue, JSONValue.number(member.planted.value(of: $0.name)))
                })),
          ]
        }),
    ]
  }

  /// A seed as a JSON number, or as a string past what a signed 64-bit number holds.
  private static func number(_ seed: UInt64) -> JSONValue {
    Int64(exactly: seed).map(JSONValue.int) ?? .string(String(seed))
  }
}
