import Synchronization

/// Moves a chain of byte sources to another thread, checked by the compiler.
///
/// Sources are not `Sendable` (one thread reads them at a time), so a `@Sendable` thread body
/// cannot capture one. The hand-off takes the chain as a `sending` value: the compiler then
/// rejects any later use of the chain, or of any source inside it, on the sending side, which
/// is what makes reading it on the receiving thread safe. The receiver takes it out once.
///
/// ```swift
/// let source = PeekableSource(wrapping: try InputFile.open(path))
/// let head = try source.peek(upTo: 4096)  // recognise on this thread…
/// let handoff = ByteSourceHandoff(source)  // …`source` is unusable here from now on
/// Thread {
///   guard let source = handoff.take() else { return }
///   try? source.forEachChunk { parser.feed($0) }
/// }.start()
/// ```
///
/// No `@unchecked Sendable` is involved: `Mutex` is `Sendable` whatever it holds, because it
/// only ever gives its value out as `sending`.
package final class ByteSourceHandoff: Sendable {
  private let slot: Mutex<(any ByteSource)?>

  /// Holds `source` (and every source it wraps) until `take()`.
  package init(_ source: sending any ByteSource) {
    slot = Mutex(source)
  }

  /// The source handed over; nil after the first call.
  package func take() -> sending (any ByteSource)? {
    slot.withLock { $0.take() }
  }
}
