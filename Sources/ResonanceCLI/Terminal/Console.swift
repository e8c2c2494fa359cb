import ResonanceModel
import ResonanceStages
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a command's text goes: standard output for results, standard error for messages and
/// progress. Tests substitute a capturing console.
///
/// Text written through `out` and `err` has its control characters shown as escapes
/// (`TerminalText`): messages quote file names and file contents, and a file's ESC or BEL must
/// not act on the user's terminal. Only `progress` writes the two control sequences the
/// progress bar needs, around text that is escaped too.
package protocol Console: Sendable {
  /// Writes results (tables, JSON) to standard output.
  func out(_ text: String)
  /// Writes messages and warnings to standard error.
  func err(_ text: String)
  /// Draws `line` over the current line of standard error (a progress bar frame); an empty
  /// line clears it.
  func progress(_ line: String)
  /// Whether standard error is a terminal (progress bars are drawn only then).
  var isErrorTerminal: Bool { get }
}

extension Console {
  /// A progress frame as the terminal gets it: carriage return, the escaped text, erase to the
  /// end of the line.
  static func progressFrame(_ line: String) -> String {
    "\r" + TerminalText.escapingControls(line) + "\u{1B}[K"
  }
}

/// Text on its way to a terminal, with every character that could act on the terminal shown as
/// an escape instead (`\u{1B}`): C0 controls but line feed and tab (ESC, BEL, carriage return,
/// backspace…), DEL, C1 controls (U+0080–U+009F, CSI among them) and the bidirectional
/// overrides and isolates (U+202A–U+202E, U+2066–U+2069) that reorder what is shown.
package enum TerminalText {
  package static func escapingControls(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      if isUnsafe(scalar) {
        out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0A, 0x09: false
    case 0x00..<0x20, 0x7F..<0xA0, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }
}

/// The process's real standard output and error, written with `write(2)`.
package struct StandardConsole: Console {
  package init() {}

  package func out(_ text: String) {
    StandardConsole.write(TerminalText.escapingControls(text), to: 1)
  }
  package func err(_ text: String) {
    StandardConsole.write(TerminalText.escapingControls(text), to: 2)
  }
  package func progress(_ line: String) { StandardConsole.write(Self.progressFrame(line), to: 2) }
  package var isErrorTerminal: Bool { isatty(2) == 1 }

  private static func write(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let n = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if n < 0, errno == EINTR { continue }
        // A closed pipe (`resonance status | head`) is not worth failing over.
        if n <= 0 { return }
        offset += n
      }
    }
  }
}

/// A console that keeps everything written to it, for tests.
package final class CapturingConsole: Console {
  private let buffers = Mutex<(out: String, err: String)>(("", ""))
  package let isErrorTerminal: Bool

  package init(isErrorTerminal: Bool = false) { self.isErrorTerminal = isErrorTerminal }

  package func out(_ text: String) {
    buffers.withLock { $0.out += TerminalText.escapingControls(text) }
  }
  package func err(_ text: String) {
    buffers.withLock { $0.err += TerminalText.escapingControls(text) }
  }
  package func progress(_ line: String) {
    buffers.withLock { $0.err += Self.progressFrame(line) }
  }
  /// Everything written to standard output so far.
  package var standardOutput: String { buffers.withLock { $0.out } }
  /// Everything written to standard error so far.
  package var standardError: String { buffers.withLock { $0.err } }
}

/// What a running command may use: its console, the environment and the working folder.
package struct CommandContext: Sendable {
  package var console: any Console
  package var environment: [String: String]

  package init(console: any Console, environment: [String: String]) {
    self.console = console
    self.environment = environment
  }

  /// Prints a diagnostic-style message on standard error: `warning: …`, `note: …`.
  package func report(_ text: String) { console.err(text + "\n") }

  /// The progress a stage run by a command reports: bars and messages on standard error.
  func progress(_ output: OutputOptions) -> TerminalProgress {
    TerminalProgress(console: console, isQuiet: output.isQuiet)
  }

  /// Prints a stage's result as the output options ask: its JSON, its text, or nothing.
  func show(_ result: some ConsolePresentable, _ output: OutputOptions) {
    if output.isJSON {
      console.out(result.json)
    } else if !output.isQuiet {
      console.out(result.text)
    }
  }
}
