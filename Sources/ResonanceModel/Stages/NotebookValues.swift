/// What `resonance notebook run` asks: notebooks to re-run against a store, or to check.
package struct NotebookRequest: Sendable {
  package var store: StoreLocation
  package var files: [String]
  /// Write nothing; report the notebooks whose outputs are stale.
  package var checksOnly: Bool
  /// Runs a notebook's `resonance` blocks: the command line's own runner, which knows the
  /// commands.
  package var runner: any NotebookCommandRunner
  /// The environment the blocks' commands see (the store is passed as `RESONANCE_DB`).
  package var environment: [String: String]
  /// What each `sql` block may take.
  package var limits: QueryLimits

  package init(
    store: StoreLocation, files: [String], checksOnly: Bool, runner: any NotebookCommandRunner,
    environment: [String: String], limits: QueryLimits = .standard
  ) {
    self.store = store
    self.files = files
    self.checksOnly = checksOnly
    self.runner = runner
    self.environment = environment
    self.limits = limits
  }
}

/// The limits one query of a notebook's `sql` block runs under: wall-clock time, and the size
/// of any value (string or blob) it makes.
package struct QueryLimits: Sendable, Equatable {
  package var seconds: Double
  package var valueBytes: Int

  /// A minute, and values up to 100 MB: far beyond any query of a store, while a runaway
  /// (`WITH RECURSIVE` without an end, `randomblob(3e9)`) stops in time.
  package static let standard = QueryLimits(seconds: 60, valueBytes: 100 << 20)

  package init(seconds: Double, valueBytes: Int) {
    self.seconds = seconds
    self.valueBytes = valueBytes
  }
}

/// Runs one command line for a notebook's `resonance` block. The notebook stage decides which
/// commands a block may run; the runner knows how they parse and runs them.
package protocol NotebookCommandRunner: Sendable {
  /// The positional arguments `words` (after `resonance COMMAND`) give the command named
  /// `command`, or nil when they do not parse.
  func positionals(of words: [String], for command: String) -> [String]?
  /// Runs `words` (the command and its arguments, without `resonance`).
  func run(_ words: [String], environment: [String: String]) -> NotebookCommandOutput
}

/// What a command run for a notebook block printed, and how it ended.
package struct NotebookCommandOutput: Sendable, Equatable {
  package var status: Int32
  package var standardOutput: String
  package var standardError: String

  package init(status: Int32, standardOutput: String, standardError: String) {
    self.status = status
    self.standardOutput = standardOutput
    self.standardError = standardError
  }
}

/// What became of each notebook.
package struct NotebookResult: Sendable, Equatable {
  package struct Outcome: Sendable, Equatable {
    package enum State: String, Sendable, Equatable {
      /// A re-run wrote what was there.
      case unchanged
      /// A re-run changed the outputs, and they were written.
      case updated
      /// The outputs are not what a re-run writes (`--check`: nothing written).
      case stale
    }

    package var file: String
    package var blocks: Int
    package var failed: Int
    package var state: State
    /// With `--check`, the difference between the notebook and a re-run of it.
    package var difference: String?

    package init(file: String, blocks: Int, failed: Int, state: State, difference: String?) {
      self.file = file
      self.blocks = blocks
      self.failed = failed
      self.state = state
      self.difference = difference
    }
  }

  package var notebooks: [Outcome]

  package init(notebooks: [Outcome]) { self.notebooks = notebooks }

  /// Whether a block failed or a notebook is stale (the command then exits 1).
  package var hasProblems: Bool { notebooks.contains { $0.failed > 0 || $0.state == .stale } }
}
