import ResonanceIO
import ResonanceModel

/// The text and yes/no fields of one JSON history entry, read the one way every JSON reader
/// reads them, each surprise a warning at the entry's line:
///
/// - text of the wrong type (a number, boolean, array or object) is left out — and when it is
///   the title, the whole entry is (`title(_:)` returns `.refused`);
/// - a NUL (`\u0000`) inside text is taken out, where SQLite would otherwise end the text;
/// - a yes/no written as the string `"true"` or `"false"` is read as the boolean; any other
///   value is left out.
struct EntryFields {
  enum Title {
    /// Absent, null or empty: not a song (a podcast episode, say); no warning.
    case none
    /// Present but not text: the entry is left out, with a warning.
    case refused
    case text(String)
  }

  let object: JSONFlatObject
  let location: SourceLocation
  /// What "left out" means for this format: "entry", "track", "listen".
  let entryName: String

  init(_ object: JSONFlatObject, at location: SourceLocation, entryName: String = "entry") {
    self.object = object
    self.location = location
    self.entryName = entryName
  }

  /// The entry's title under `key`.
  func title(_ key: StaticString, warnings: inout [Diagnostic]) -> Title {
    switch object.text(key) {
    case .missing: return .none
    case .notText(let raw):
      warnings.append(
        Diagnostic(
          .warning, "\(entryName) skipped: expected \"\(key)\" as text, found \(raw)",
          at: location))
      return .refused
    case .text(let text, let removedNULs):
      if removedNULs { warnings.append(removedNULWarning(key)) }
      return text.isEmpty ? .none : .text(text)
    }
  }

  /// Text under `key`, nil when absent or of another type (a warning); empty stays empty.
  func text(_ key: StaticString, warnings: inout [Diagnostic]) -> String? {
    switch object.text(key) {
    case .missing: return nil
    case .notText(let raw):
      warnings.append(
        Diagnostic(
          .warning, "\"\(key)\" left out: expected text, found \(raw)", at: location))
      return nil
    case .text(let text, let removedNULs):
      if removedNULs { warnings.append(removedNULWarning(key)) }
      return text
    }
  }

  /// A yes/no under `key`: `true`/`false`, or the strings `"true"`/`"false"`; nil when absent
  /// or anything else (a warning).
  func flag(_ key: StaticString, warnings: inout [Diagnostic]) -> Bool? {
    switch object.flag(key) {
    case .missing: return nil
    case .value(let value): return value
    case .notFlag(let raw):
      warnings.append(
        Diagnostic(
          .warning, "\"\(key)\" left out: expected true or false, found \(raw)", at: location))
      return nil
    }
  }

  private func removedNULWarning(_ key: StaticString) -> Diagnostic {
    Diagnostic(.warning, "NUL character (\\u0000) removed from \"\(key)\"", at: location)
  }
}
