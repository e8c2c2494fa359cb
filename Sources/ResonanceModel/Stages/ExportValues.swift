/// The file formats `resonance export` writes a person's tables in.
package enum HandOffFormat: String, Sendable, Equatable, CaseIterable {
  case parquet, csv
}

/// What `resonance export` asks: one store's derived tables, under a pseudonym, into a cohort
/// folder.
package struct ExportRequest: Sendable, Equatable {
  package var store: StoreLocation
  package var format: HandOffFormat
  /// The cohort folder: the hand-off goes to `folder/person=ID/`.
  package var folder: String
  /// The pseudonym the user chose (`HandOffPerson.isValid`).
  package var person: String
  /// Whether a hand-off of another store already in the person's folder may be overwritten.
  package var replace: Bool
  /// The tool's version, for the manifest.
  package var toolVersion: String

  package init(
    store: StoreLocation, format: HandOffFormat, folder: String, person: String,
    replace: Bool = false, toolVersion: String
  ) {
    self.store = store
    self.format = format
    self.folder = folder
    self.person = person
    self.replace = replace
    self.toolVersion = toolVersion
  }
}

/// What `resonance export` wrote: the person's folder and each file with its rows.
package struct ExportResult: Sendable, Equatable {
  package struct File: Sendable, Equatable {
    package var name: String
    /// The table's rows; nil for `effects.json`.
    package var rows: Int?
    package var bytes: Int
    package var sha256: String

    package init(name: String, rows: Int?, bytes: Int, sha256: String) {
      self.name = name
      self.rows = rows
      self.bytes = bytes
      self.sha256 = sha256
    }
  }

  package var folder: String
  package var person: String
  package var files: [File]
  package var effects: [PersonEffect]
  /// Whether the folder held a hand-off before, and whether it was another store's.
  package var replaced: Bool

  package init(
    folder: String, person: String, files: [File], effects: [PersonEffect], replaced: Bool
  ) {
    self.folder = folder
    self.person = person
    self.files = files
    self.effects = effects
    self.replaced = replaced
  }
}

/// The pseudonym a hand-off goes under.
package enum HandOffPerson {
  /// What a pseudonym may be: a letter, then up to 63 letters, digits, `_` or `-`. It starts
  /// with a letter so that a Hive-partitioned reader keeps it as text (DuckDB reads
  /// `person=007` as the number 7).
  package static let pattern = "^[A-Za-z][A-Za-z0-9_-]{0,63}$"

  package static func isValid(_ id: String) -> Bool {
    let scalars = Array(id.unicodeScalars)
    guard let first = scalars.first, scalars.count <= 64, first.isASCIILetter else {
      return false
    }
    return scalars.dropFirst().allSatisfy {
      $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
    }
  }
}

extension Unicode.Scalar {
  fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
