import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A detached thread of its own for one long piece of work (hashing a file, decoding a
/// parser's events) that must run beside the caller's, not queued behind Dispatch's workers.
/// POSIX threads: this module does without Foundation.
package enum WorkerThread {
  /// Runs `body` on a new thread; when none can be had, on a Dispatch worker (the work then
  /// holds that worker while it waits).
  package static func start(_ body: @escaping @Sendable () -> Void) {
    final class Box: Sendable {
      let body: @Sendable () -> Void
      init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let started = pthread_create(
      &thread, nil,
      { raw in
        let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
        box.body()
        return nil
      }, context)
    guard started == 0 else {
      let box = Unmanaged<Box>.fromOpaque(context).takeRetainedValue()
      DispatchQueue.global().async { box.body() }
      return
    }
    pthread_detach(thread)
  }
}

/// A first-in first-out channel from one thread to another holding at most `capacity`
/// elements: `send` waits while it is full, `receive` while it is empty, and `nil` received
/// means the sender has finished.
package final class BoundedChannel<Element: Sendable>: Sendable {
  private let items = Mutex<[Element?]>([])
  private let free: DispatchSemaphore
  private let filled = DispatchSemaphore(value: 0)

  package init(capacity: Int) {
    precondition(capacity > 0)
    free = DispatchSemaphore(value: capacity)
  }

  /// Adds `element`, waiting for room.
  package func send(_ element: sending Element) {
    free.wait()
    var moving = Optional(element)
    items.withLock { $0.append(moving.take()) }
    filled.signal()
  }

  /// The sender will send nothing more.
  package func finish() {
    free.wait()
    items.withLock { $0.append(nil) }
    filled.signal()
  }

  /// The next element, waiting for one; `nil` once the sender has finished.
  package func receive() -> Element? {
    filled.wait()
    let element = items.withLock { $0.removeFirst() }
    free.signal()
    return element
  }
}
