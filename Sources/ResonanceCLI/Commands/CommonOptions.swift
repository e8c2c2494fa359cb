import Foundation
import ResonanceModel
import ResonanceStore

extension Option where Value == String {
  /// `--db PATH`: the store.
  static let db = Option(
    "db", placeholder: "PATH",
    help:
      "The store to use; created when missing. Default: $RESONANCE_DB, else ./resonance.sqlite.",
    parser: ValueParser(expected: "a file path (not empty, not ':memory:')") {
      $0.isEmpty || $0 == ":memory:" ? nil : $0
    })

  /// `--db PATH` for the commands that only read a store: one that is not there is exit 66.
  static let existingDB = Option(
    "db", placeholder: "PATH",
    help:
      "The store to read; it must exist. Default: $RESONANCE_DB, else ./resonance.sqlite.",
    parser: Option<String>.db.parser)
}

extension Option where Value == CalendarDay {
  /// `--from DATE`: the first day taken, in the person's local time.
  static let from = Option(
    "from", placeholder: "DATE",
    help: "From this day on (YYYY-MM-DD, the local time the data was lived in).",
    parser: .day)

  /// `--to DATE`: the day after the last one taken.
  static let to = Option(
    "to", placeholder: "DATE",
    help: "Up to this day, not including it (YYYY-MM-DD, local time).", parser: .day)
}

extension ValueParser where Value == CalendarDay {
  /// A calendar day, `YYYY-MM-DD`.
  static var day: ValueParser<CalendarDay> {
    ValueParser(expected: "a day YYYY-MM-DD") { CalendarDay($0) }
  }
}

extension Flag {
  /// `--json`: results as one JSON document on standard output.
  static let json = Flag(
    "json",
    help: "Print the results as one JSON document on standard output (docs/cli.md gives its shape)."
  )
  /// `--quiet`: nothing but errors (and the JSON, when asked for).
  static let quiet = Flag(
    "quiet", short: "q",
    help:
      "Print no progress and no summary; errors still go to standard error, --json still prints."
  )
}

/// `--json` and `--quiet`, which every command takes and which mean the same everywhere.
struct OutputOptions {
  static let options: [any ArgumentOption] = [Flag.json, Flag.quiet]

  var isJSON: Bool
  var isQuiet: Bool

  init(_ parsed: ParsedArguments) {
    isJSON = parsed[Flag.json]
    isQuiet = parsed[Flag.quiet]
  }

  /// Nothing printed but errors (a stage another command runs for itself).
  init(quietly: Bool) {
    isJSON = false
    isQuiet = quietly
  }

  /// Whether a summary for people is printed: neither `--json` nor `--quiet`.
  var isText: Bool { !isJSON && !isQuiet }
}

/// `--db` with the environment: where the store is, and how long to wait for another run.
struct StoreOptions {
  var path: String
  var busyTimeoutMilliseconds: Int32

  /// The store path: `--db`, else `$RESONANCE_DB`, else `./resonance.sqlite`.
  init(_ parsed: ParsedArguments, _ environment: [String: String]) throws(UsageError) {
    if let path = parsed[Option.db] {
      self.path = path
    } else if let path = environment["RESONANCE_DB"], !path.isEmpty {
      self.path = path
    } else {
      path = "resonance.sqlite"
    }
    busyTimeoutMilliseconds = 30_000
    if let text = environment["RESONANCE_BUSY_TIMEOUT"] {
      guard let seconds = Double(text), seconds >= 0, seconds <= 86_400 else {
        throw UsageError(
          "invalid RESONANCE_BUSY_TIMEOUT '\(text)'", hint: "expected seconds from 0 to 86400")
      }
      busyTimeoutMilliseconds = Int32(seconds * 1000)
    }
  }

  /// Opens the store, creating and migrating it as needed.
  func open() throws -> Store {
    try Store(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
  }

  /// Opens a store that must already exist (a command that only reads): a missing file is
  /// exit 66, and nothing is created.
  func openExisting(for command: String) throws -> Store {
    try requireExisting(for: command)
    return try open()
  }

  /// Exit 66 when the store is not there, naming what makes one; nothing is opened.
  func requireExisting(for command: String) throws {
    guard FileManager.default.fileExists(atPath: path) else {
      throw CommandError(
        .noInput,
        "\(path): no store here; import the files first (resonance ingest FILES --db \(path)), then resonance \(command)"
      )
    }
  }
}

/// The files commands write beside their output (reports, CSVs, preference files).
enum OutputFiles {
  /// Writes a file, creating its folder; a failure is exit 74 naming the path.
  static func write(_ text: String, to path: String) throws {
    try write(Data(text.utf8), to: path)
  }

  static func write(_ data: Data, to path: String) throws {
    let folder = (path as NSString).deletingLastPathComponent
    do {
      if !folder.isEmpty {
        try FileManager.default.createDirectory(
          atPath: folder, withIntermediateDirectories: true)
      }
      try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw CommandError(.ioError, "\(path): cannot write: \(error.localizedDescription)")
    }
  }
}
