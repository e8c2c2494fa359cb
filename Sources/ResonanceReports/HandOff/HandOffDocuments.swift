import ResonanceModel

/// The JSON documents of a hand-off (docs/cohort.md): `effects.json`, what `cohort pool`
/// reads, and `manifest.json`, written last, whose presence says the hand-off is whole.
/// Neither holds a time of writing: the same store exports to the same bytes.
package enum HandOffDocuments {
  /// The hand-off's layout version: `cohort pool` refuses a person whose manifest has
  /// another.
  package static let schemaVersion = 1

  /// `effects.json`: the person, one entry per effect the data allowed, and `tune`'s last
  /// recommendation (`change` or `keep`; null without a tuning run).
  package static func effects(
    person: String, _ effects: [PersonEffect], tuneRecommendation: String?
  ) -> String {
    JSONValue.object([
      "format_version": .int(Int64(schemaVersion)), "person": .string(person),
      "tune_recommendation": .text(tuneRecommendation),
      "effects": .array(effects.map(json)),
    ]).text
  }

  /// One person-level effect as `effects.json` and `export --json` write it.
  package static func json(_ effect: PersonEffect) -> JSONValue {
    [
      "name": .string(effect.name.rawValue), "estimate": .number(effect.estimate),
      "se": .number(effect.se), "n": .int(Int64(effect.n)), "method": .string(effect.method),
    ]
  }

  /// One file of a hand-off as the manifest and `export --json` list it.
  package static func json(_ file: ExportResult.File) -> JSONValue {
    [
      "name": .string(file.name), "rows": .integer(file.rows), "bytes": .int(Int64(file.bytes)),
      "sha256": .string(file.sha256),
    ]
  }

  /// What the manifest records beside the files.
  package struct Manifest: Sendable, Equatable {
    package var person: String
    package var toolVersion: String
    package var storeSchemaVersion: Int
    /// A digest that tells one store from another (`ExportStage` says how it is made).
    package var store: String
    package var format: HandOffFormat
    package var range: (from: String, to: String)?
    package var files: [ExportResult.File]

    package init(
      person: String, toolVersion: String, storeSchemaVersion: Int, store: String,
      format: HandOffFormat, range: (from: String, to: String)?, files: [ExportResult.File]
    ) {
      self.person = person
      self.toolVersion = toolVersion
      self.storeSchemaVersion = storeSchemaVersion
      self.store = store
      self.format = format
      self.range = range
      self.files = files
    }

    package static func == (a: Manifest, b: Manifest) -> Bool {
      a.person == b.person && a.toolVersion == b.toolVersion && a.store == b.store
        && a.storeSchemaVersion == b.storeSchemaVersion && a.format == b.format
        && a.range?.from == b.range?.from && a.range?.to == b.range?.to && a.files == b.files
    }
  }

  /// `manifest.json`.
  package static func manifest(_ m: Manifest) -> String {
    JSONValue.object([
      "format": "resonance-hand-off", "schema_version": .int(Int64(schemaVersion)),
      "person": .string(m.person), "tool_version": .string(m.toolVersion),
      "store_schema_version": .int(Int64(m.storeSchemaVersion)), "store": .string(m.store),
      "table_format": .string(m.format.rawValue),
      "data_range": m.range.map { ["from": .string($0.from), "to": .string($0.to)] } ?? .null,
      "complete": true,
      "files": .array(m.files.map(json)),
    ]).text
  }
}
