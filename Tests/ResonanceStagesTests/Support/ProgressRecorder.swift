import ResonanceModel
import Synchronization

/// Progress that remembers what a stage told it, in order.
final class ProgressRecorder: StageProgress {
  private let recorded = Mutex<[String]>([])

  var events: [String] { recorded.withLock { $0 } }

  func begin(_ step: String, total: Int64?, unit: WorkUnit) {
    recorded.withLock { $0.append("begin \(step)" + (total.map { " \($0)" } ?? "")) }
  }
  func advance(to done: Int64) { recorded.withLock { $0.append("advance \(done)") } }
  func end() { recorded.withLock { $0.append("end") } }
  func notice(_ notice: StageNotice) {
    recorded.withLock { $0.append((notice.kind == .error ? "error " : "say ") + notice.text) }
  }
}
