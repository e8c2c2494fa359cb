import Dispatch

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
