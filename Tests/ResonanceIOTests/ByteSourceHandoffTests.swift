import Foundation
import Synchronization
import Testing

@testable import ResonanceIO

@Suite("ByteSourceHandoff")
struct ByteSourceHandoffTests {
  @Test("a peeked source moves to another thread and reads on there from byte 0")
  func handsOff() throws {
    let bytes = patternBytes(250_000)
    let source = PeekableSource(wrapping: MemorySource(bytes))
    #expect(try source.peek(upTo: 1000) == Array(bytes.prefix(1000)))
    let handoff = ByteSourceHandoff(source)
    let result = ResultBox()
    let done = DispatchSemaphore(value: 0)
    Thread {
      if let source = handoff.take() {
        result.set(try? readAll(source, chunk: 10_000))
      }
      result.setSecondTake(handoff.take() == nil)
      done.signal()
    }.start()
    done.wait()
    #expect(result.bytes == bytes)
    #expect(result.secondTakeWasNil)
  }
}

/// What the reading thread found, handed back under a lock.
private final class ResultBox: Sendable {
  private let state = Mutex<([UInt8]?, Bool)>((nil, false))
  func set(_ bytes: [UInt8]?) { state.withLock { $0.0 = bytes } }
  func setSecondTake(_ isNil: Bool) { state.withLock { $0.1 = isNil } }
  var bytes: [UInt8]? { state.withLock { $0.0 } }
  var secondTakeWasNil: Bool { state.withLock { $0.1 } }
}
