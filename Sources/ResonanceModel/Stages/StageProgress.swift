/// How a stage tells whoever runs it what it is doing: the steps of long work, how far each
/// has got, and messages for the person (warnings, notes, the errors it met and went on after).
///
/// The CLI draws a step as a progress bar when standard error is a terminal (nothing when it is
/// not, or under `--quiet`) and prints messages on standard error; the demo passes its own on
/// to the stages it runs; tests pass `SilentProgress` or a recorder. A stage calls it from the
/// thread it runs on.
package protocol StageProgress: Sendable {
  /// A step of the work begins: what it is (`analyze: sessions`), and how much there is to
  /// do, when known. A step ends before the next begins.
  func begin(_ step: String, total: Int64?, unit: WorkUnit)
  /// `done` units of the current step are finished.
  func advance(to done: Int64)
  /// The current step is over.
  func end()
  /// A message for the person, printed as it is met.
  func notice(_ notice: StageNotice)
}

/// What a step's counts measure, which decides how they are shown.
package enum WorkUnit: Sendable, Equatable {
  /// Plain counts: points, months, pages, sessions.
  case items(String)
  /// Bytes of a file read.
  case bytes
}

/// A message a stage sends while it works: an error it met and went on after (shown even under
/// `--quiet`), or a warning or note (not under `--quiet`).
package struct StageNotice: Sendable, Equatable, CustomStringConvertible {
  package enum Kind: Sendable, Equatable {
    /// An input that failed; the stage went on with the next (`error: …`).
    case error
    /// A warning, a note, a word on what is happening; the text carries its own prefix.
    case message
  }

  package var kind: Kind
  package var text: String

  package init(_ kind: Kind, _ text: String) {
    self.kind = kind
    self.text = text
  }

  /// A warning, note or status line.
  package static func message(_ text: String) -> StageNotice { StageNotice(.message, text) }

  package var description: String { text }
}

extension StageProgress {
  /// Runs `body` as one step of `total` units, ending the step however `body` leaves.
  package func step<T, Failure: Error>(
    _ name: String, total: Int64?, unit: WorkUnit, _ body: () throws(Failure) -> T
  ) throws(Failure) -> T {
    begin(name, total: total, unit: unit)
    defer { end() }
    return try body()
  }

  /// Sends a warning, note or status line.
  package func say(_ text: String) { notice(.message(text)) }
}

/// Progress nobody watches: for a stage run inside another or by a test.
package struct SilentProgress: StageProgress {
  package init() {}
  package func begin(_ step: String, total: Int64?, unit: WorkUnit) {}
  package func advance(to done: Int64) {}
  package func end() {}
  package func notice(_ notice: StageNotice) {}
}
