import ResonanceStore

/// The options that mean the same on every command that takes them.
enum CommonOptions {
  static let db = OptionDefinition(
    "db", .value(placeholder: "PATH"),
    help: "The store to use; created when missing. Default: $RESONANCE_DB, else ./resonance.sqlite."
  )
  static let json = OptionDefinition(
    "json", .flag, help: "Print a machine-readable JSON summary on standard output instead of text."
  )
  static let quiet = OptionDefinition(
    "quiet", short: "q", .flag, help: "Print nothing but errors; no progress bar.")

  /// The store path: `--db`, else `$RESONANCE_DB`, else `./resonance.sqlite`.
  static func storePath(_ parsed: ParsedArguments, _ environment: [String: String]) -> String {
    if let path = parsed.value("db") { return path }
    if let path = environment["RESONANCE_DB"], !path.isEmpty { return path }
    return "resonance.sqlite"
  }

  /// How long to wait for another run's lock: `$RESONANCE_BUSY_TIMEOUT` seconds, else 30.
  static func busyTimeoutMilliseconds(_ environment: [String: String]) throws(UsageError) -> Int32 {
    guard let text = environment["RESONANCE_BUSY_TIMEOUT"] else { return 30_000 }
    guard let seconds = Double(text), seconds >= 0, seconds <= 86_400 else {
      throw UsageError(
        "invalid RESONANCE_BUSY_TIMEOUT '\(text)'", hint: "expected seconds from 0 to 86400")
    }
    return Int32(seconds * 1000)
  }

  /// Opens the store at `path`, creating and migrating it as needed.
  static func openStore(path: String, environment: [String: String]) throws -> Store {
    try Store(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds(environment))
  }
}
