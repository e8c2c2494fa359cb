import Foundation

/// A store file's bytes, but for the two counters SQLite's header keeps of write transactions:
/// the file change counter (offset 24) and the version-valid-for number (offset 92). A Health
/// import writes with a rollback journal (`Store.beginBulkWrite()`), and switching the
/// journal mode there and back moves them whether the import commits or not; every page of
/// content, the rest of the header included, is compared.
func storeBytes(_ path: String) throws -> Data {
  var data = try Data(contentsOf: URL(fileURLWithPath: path))
  for offset in [24, 92] where data.count >= offset + 4 {
    data.replaceSubrange(offset..<(offset + 4), with: [0, 0, 0, 0])
  }
  return data
}
