import ResonanceModel

/// What `resonance synth` prints once it has written the files.
package enum SynthSummary {
  /// `synth: wrote 189 files, 550.1 MB, to DIR in 2.7 s`; for a cohort, `synth: wrote 20
  /// persons, 3781 files, …`.
  package static func line(
    folder: String, files: [WrittenFile], seconds: Double, persons: Int? = nil
  ) -> String {
    let total = files.reduce(Int64(0)) { $0 + $1.bytes }
    let members = persons.map { Format.count($0, "person") + ", " } ?? ""
    return
      "synth: wrote \(members)\(files.count) files, "
      + "\(Format.fixed(Double(total) / 1e6, 1)) MB, to \(folder) in \(Format.fixed(seconds, 1)) s"
  }

  /// The run as `--json` gives it: the folder, what was lived, every file with its size.
  /// For a cohort, `persons` is the members written, `days` each member's and `plays` all
  /// members'; `persons` is `null` for one person.
  package static func json(
    folder: String, days: Int, plays: Int, files: [WrittenFile], seconds: Double,
    persons: Int? = nil
  ) -> JSONValue {
    [
      "format_version": 1, "folder": .string(folder), "days": .integer(days),
      "plays": .integer(plays), "persons": .integer(persons),
      "files": .array(files.map { ["path": .string($0.path), "bytes": .integer($0.bytes)] }),
      "bytes": .integer(files.reduce(Int64(0)) { $0 + $1.bytes }), "seconds": .number(seconds),
    ]
  }
}
