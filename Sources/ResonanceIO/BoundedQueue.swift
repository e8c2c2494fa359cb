import Foundation

/// A first-in first-out queue between one producer thread and one consumer, holding at most
/// `capacity` elements: the producer waits when it is full, so a fast parser cannot run ahead
/// of the writer and fill memory.
package final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
  // Checked by hand: every access to `items` and `isClosed` holds `condition`'s lock.
  private let condition = NSCondition()
  // Taken slots are set to nil at once, so a popped element is not kept alive by the queue.
  private var items: [Element?] = []
  private var head = 0
  private var isClosed = false
  private let capacity: Int

  package init(capacity: Int) {
    precondition(capacity > 0)
    self.capacity = capacity
  }

  /// Adds an element, waiting while the queue is full. Returns `false` if the consumer closed it.
  @discardableResult
  package func push(_ element: Element) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while items.count - head >= capacity && !isClosed { condition.wait() }
    guard !isClosed else { return false }
    items.append(element)
    condition.broadcast()
    return true
  }

  /// The next element, waiting while the queue is empty; `nil` once it is closed and drained.
  package func pop() -> Element? {
    condition.lock()
    defer { condition.unlock() }
    while head == items.count && !isClosed { condition.wait() }
    guard head < items.count else { return nil }
    let element = items[head]
    items[head] = nil
    head += 1
    if head > 16 && head * 2 > items.count {
      items.removeFirst(head)
      head = 0
    }
    condition.broadcast()
    return element
  }

  /// No more elements will come (producer) or be taken (consumer).
  package func close() {
    condition.lock()
    isClosed = true
    condition.broadcast()
    condition.unlock()
  }
}
