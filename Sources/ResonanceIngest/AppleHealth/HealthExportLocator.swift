import Foundation
import ResonanceIO

/// Where a Health export's XML is: a plain file, a member of `export.zip`, or a file in the
/// unpacked `apple_health_export/` folder.
package enum HealthExportLocation: Sendable, Equatable {
  case file(path: String)
  case zipMember(zip: String, member: String, size: Int64?)

  /// The name the ledger and messages use: the path as given, or `ZIP!MEMBER`.
  package var displayName: String {
    switch self {
    case .file(let path): path
    case .zipMember(let zip, let member, _): "\(zip)!\(member)"
    }
  }
}

/// Finds the export's XML and names the parts that will not be imported.
package enum HealthExportLocator {
  /// The export XML is the largest `.xml` that is not the CDA document, whatever its localised
  /// name (`export.xml`, `exportar.xml`, `导出.xml`).
  package static func choose(_ candidates: [(name: String, size: Int64)]) -> String? {
    candidates
      .filter {
        $0.name.lowercased().hasSuffix(".xml") && !$0.name.lowercased().contains("export_cda")
          && !$0.name.contains("__MACOSX")
      }
      .max { $0.size < $1.size }?.name
  }

  /// Parts of an export that resonance does not import, by kind, from the member names.
  package static func unimportedParts(_ names: [String]) -> [String: Int] {
    var parts: [String: Int] = [:]
    for name in names where !name.hasSuffix("/") {
      let lower = name.lowercased()
      if lower.contains("electrocardiograms/") {
        parts["electrocardiogram files", default: 0] += 1
      } else if lower.contains("clinical-records/") {
        parts["clinical records", default: 0] += 1
      } else if lower.contains("workout-routes/") {
        parts["workout route GPS files", default: 0] += 1
      } else if lower.contains("export_cda") {
        parts["CDA document (export_cda.xml)", default: 0] += 1
      }
    }
    return parts
  }

  /// The export inside a zip, and the parts not imported.
  package static func locate(zip path: String) throws(IOError) -> (
    HealthExportLocation, [String: Int]
  )? {
    let entries = try ZipReader(path: path).entries()
    guard let member = choose(entries.map { ($0.name, $0.size ?? 0) }) else { return nil }
    let size = entries.first { $0.name == member }?.size
    return (.zipMember(zip: path, member: member, size: size), unimportedParts(entries.map(\.name)))
  }

  /// The export in an unpacked `apple_health_export/` folder: its largest `.xml` that is not
  /// the CDA document, and the parts beside it that are not imported.
  package static func locate(folder path: String) -> (HealthExportLocation, [String: Int])? {
    let files = FileManager.default
    var candidates: [(String, Int64)] = []
    var names: [String] = []
    for item in (try? files.contentsOfDirectory(atPath: path)) ?? [] {
      let full = path + "/" + item
      var isDirectory: ObjCBool = false
      guard files.fileExists(atPath: full, isDirectory: &isDirectory) else { continue }
      if isDirectory.boolValue {
        let inside = (try? files.contentsOfDirectory(atPath: full)) ?? []
        names += inside.map { "\(item)/\($0)" }
        continue
      }
      names.append(item)
      guard item.lowercased().hasSuffix(".xml") else { continue }
      let size = (try? files.attributesOfItem(atPath: full)[.size] as? NSNumber)??.int64Value ?? 0
      candidates.append((full, size))
    }
    guard let chosen = choose(candidates.map { (name: $0.0, size: $0.1) }) else { return nil }
    return (.file(path: chosen), unimportedParts(names))
  }

  /// Whether the first bytes of a file look like a Health export (an XML document whose root
  /// is `HealthData`).
  package static func looksLikeHealthExport(_ prefix: [UInt8]) -> Bool {
    let text = String(decoding: prefix, as: UTF8.self)
    return text.contains("<HealthData")
  }

  /// Whether the export a locator chose really is one: its first bytes hold a `HealthData`
  /// root (a zip of listening files may hold some other `.xml`, a Music library say).
  package static func isHealthExport(_ location: HealthExportLocation) throws -> Bool {
    struct Enough: Error {}
    var prefix: [UInt8] = []
    do {
      switch location {
      case .file(let path):
        try InputFile(path: path).forEachChunk {
          prefix.append(contentsOf: $0.prefix(65_536))
          throw Enough()
        }
      case .zipMember(let zip, let member, _):
        try ZipReader(path: zip).read(entry: member) {
          prefix.append(contentsOf: $0.prefix(65_536))
          throw Enough()
        }
      }
    } catch is Enough {}
    return looksLikeHealthExport(prefix)
  }
}
