import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a command's text goes: standard output for results, standard error for messages and
/// progress. Tests substitute a capturing console.
package protocol Console: Sendable {
  /// Writes results (tables, JSON) to standard output.
  func out(_ text: String)
  /// Writes messages, warnings and progress to standard error.
  func err(_ text: String)
  /// Whether standard error is a terminal (progress bars are drawn only then).
  var isErrorTerminal: Bool { get }
}

/// The process's real standard output and error, written with `write(2)`.
package struct StandardConsole: Console {
  package init() {}

  package func out(_ text: String) { StandardConsole.write(text, to: 1) }
  package func err(_ text: String) { StandardConsole.write(text, to: 2) }
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

  package func out(_ text: String) { buffers.withLock { $0.out += text } }
  package func err(_ text: String) { buffers.withLock { $0.err += text } }
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
}
