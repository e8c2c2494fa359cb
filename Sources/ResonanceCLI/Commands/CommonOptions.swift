import ResonanceModel

/// `--json` and `--quiet`, which every command takes and which mean the same everywhere.
struct OutputOptions: ParsableArguments {
  @Flag(
    name: "json",
    help: "Print the results as one JSON document on standard output (docs/cli.md gives its shape)."
  )
  var isJSON: Bool

  @Flag(
    name: "quiet", short: "q",
    help:
      "Print no progress and no summary; errors still go to standard error, --json still prints."
  )
  var isQuiet: Bool

  /// Whether a summary for people is printed: neither `--json` nor `--quiet`.
  var isText: Bool { !isJSON && !isQuiet }
}

/// `--db` for the commands that read a store: it must exist (`resonance ingest` makes it).
struct StoreOptions: ParsableArguments {
  @Option(
    name: "db", placeholder: "PATH",
    help:
      "The store to read; it must exist (resonance ingest makes it). Default: $RESONANCE_DB, else ./resonance.sqlite.",
    parser: .storePath)
  var path: String?

  /// Where the store is and how long to wait for it, as `StoreLocation.resolve` finds them.
  func location(_ environment: [String: String]) throws(UsageError) -> StoreLocation {
    try StoreLocation.resolved(path, environment)
  }
}

/// `--db` for `resonance ingest`, which creates the store when it is not there.
struct IngestStoreOptions: ParsableArguments {
  @Option(
    name: "db", placeholder: "PATH",
    help:
      "The store to import into; created when missing, once an input is recognised. Default: $RESONANCE_DB, else ./resonance.sqlite.",
    parser: .storePath)
  var path: String?

  /// Where the store is, as `StoreOptions.location(_:)` finds it.
  func location(_ environment: [String: String]) throws(UsageError) -> StoreLocation {
    try StoreLocation.resolved(path, environment)
  }
}

/// `--from` and `--to`: the days taken, in the local time the data was lived in.
struct DayOptions: ParsableArguments {
  @Option(
    name: "from", placeholder: "DATE",
    help: "From this day on (YYYY-MM-DD, the local time the data was lived in).", parser: .day)
  var from: CalendarDay?

  @Option(
    name: "to", placeholder: "DATE",
    help: "Up to this day, not including it (YYYY-MM-DD, local time).", parser: .day)
  var to: CalendarDay?

  var days: DayRange { DayRange(from: from, to: to) }

  func validate() throws(UsageError) {
    if let from, let to, from >= to {
      throw UsageError(
        "'--from' must be before '--to'", hint: "for example --from 2022-06-01 --to 2022-07-01")
    }
  }
}

extension StoreLocation {
  /// `resolve(_:_:)`, its complaint about the environment a usage error.
  static func resolved(_ path: String?, _ environment: [String: String]) throws(UsageError)
    -> StoreLocation
  {
    do { return try resolve(path, environment) } catch {
      throw UsageError(error.message, hint: "expected \(error.expected)")
    }
  }
}

extension ValueParser where Value == String {
  /// A store's path: not empty, not SQLite's `:memory:`, not an SQLite `file:` URI.
  static var storePath: ValueParser<String> {
    ValueParser(expected: StoreLocation.expectedPath) { StoreLocation.isFilePath($0) ? $0 : nil }
  }
}

extension ValueParser where Value == CalendarDay {
  /// A calendar day, `YYYY-MM-DD`.
  static var day: ValueParser<CalendarDay> {
    ValueParser(expected: "a day YYYY-MM-DD") { CalendarDay($0) }
  }
}
