import Dispatch
import Synchronization

/// A connection's writes run in order on one background thread, so that the code deciding what
/// to write (song identity, play merging) and SQLite work at the same time, on two cores.
///
/// The connection is opened without SQLite's own mutex, so it must never be used by two threads
/// at once: the owner only *enqueues* writes, and before it touches the connection itself — a
/// read, a write whose result it needs — it calls `sync()`, which waits until every enqueued
/// write has run. The first failing write stops the rest; `sync()` throws its error.
final class SerialWrites: Sendable {
  private struct Work: @unchecked Sendable {
    // Runs only on `queue`, one at a time, never while the owner uses the connection.
    let body: () throws(StoreError) -> Void
  }

  private let queue = DispatchQueue(label: "resonance.store.writes")
  /// At most this many writes wait, so a fast producer cannot fill memory.
  private let slots = DispatchSemaphore(value: 64)
  private let failure = Mutex<StoreError?>(nil)

  /// Runs `body` after every write enqueued before it.
  func enqueue(_ body: @escaping () throws(StoreError) -> Void) {
    slots.wait()
    let work = Work(body: body)
    queue.async { [self] in
      defer { slots.signal() }
      guard failure.withLock({ $0 == nil }) else { return }
      do throws(StoreError) {
        try work.body()
      } catch {
        failure.withLock { $0 = error }
      }
    }
  }

  /// Waits until every enqueued write has run; throws the first one's error.
  func sync() throws(StoreError) {
    queue.sync {}
    if let error = failure.withLock({ $0 }) { throw error }
  }

  /// Waits for the enqueued writes, ignoring their errors (for paths already failing).
  func drain() { queue.sync {} }
}
