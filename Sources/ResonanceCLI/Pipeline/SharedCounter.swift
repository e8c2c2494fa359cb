import Synchronization

/// An integer shared between threads (bytes read, for the progress bar), as a reference so
/// closures can hold it.
final class SharedCounter: Sendable {
  private let storage = Atomic<Int64>(0)

  func add(_ amount: Int64) { storage.add(amount, ordering: .relaxed) }
  var value: Int64 { storage.load(ordering: .relaxed) }
}

/// A flag one thread raises and another checks.
final class SharedFlag: Sendable {
  private let storage = Atomic<Bool>(false)

  func raise() { storage.store(true, ordering: .relaxed) }
  var isRaised: Bool { storage.load(ordering: .relaxed) }
}
