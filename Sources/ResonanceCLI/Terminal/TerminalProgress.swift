import ResonanceModel
import Synchronization

/// A stage's progress on the terminal: each step a bar on standard error (only when it is a
/// terminal and the command is not `--quiet`), each message a line on standard error (errors
/// always, the rest not under `--quiet`).
final class TerminalProgress: StageProgress {
  private let console: any Console
  private let isQuiet: Bool
  private let bar = Mutex<ProgressReporter?>(nil)

  init(console: any Console, isQuiet: Bool) {
    self.console = console
    self.isQuiet = isQuiet
  }

  func begin(_ step: String, total: Int64?, unit: WorkUnit) {
    let console = console
    let isEnabled = !isQuiet
    bar.withLock { bar in
      bar?.finish()
      bar = ProgressReporter(
        label: step, total: total, unit: unit, console: console, isEnabled: isEnabled)
      bar?.update(0)
    }
  }

  func advance(to done: Int64) { bar.withLock { $0?.update(done) } }

  func end() {
    bar.withLock { bar in
      bar?.finish()
      bar = nil
    }
  }

  func notice(_ notice: StageNotice) {
    switch notice.kind {
    case .error: console.err("error: \(notice.text)\n")
    case .message: if !isQuiet { console.err(notice.text + "\n") }
    }
  }
}
