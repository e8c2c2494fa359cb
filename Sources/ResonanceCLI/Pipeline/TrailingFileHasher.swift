import Foundation
import ResonanceIO
import Synchronization

/// The SHA-256 of a file that another thread is parsing, computed on a thread of its own that
/// reads the file again (from the page cache) and trails the parser: it hashes exactly the
/// bytes the parser has been handed, so the digest is the one hashing them in line would give,
/// even when parsing stops part-way. Hashing a gigabyte is about a tenth of the parsing
/// thread's work; here it runs wherever a core has room.
final class TrailingFileHasher: Sendable {
  /// Bytes the parser has been handed so far.
  private let handed = Atomic<Int64>(0)
  private let isFinished = Atomic<Bool>(false)
  /// Signalled whenever `handed` grows or the parser finishes.
  private let wake = DispatchSemaphore(value: 0)
  private let done = DispatchSemaphore(value: 0)
  private let outcome = Mutex<Result<String, IOError>?>(nil)

  /// Starts hashing the file at `path` as the parser is handed its bytes.
  init(path: String) {
    let thread = Thread { [self] in
      let result: Result<String, IOError>
      do throws(IOError) {
        result = .success(try digest(path))
      } catch {
        result = .failure(error)
      }
      outcome.withLock { $0 = result }
      done.signal()
    }
    thread.start()
  }

  /// The parser has been handed the next `count` bytes of the file.
  func advance(by count: Int) {
    handed.add(Int64(count), ordering: .releasing)
    wake.signal()
  }

  /// The parser will be handed nothing more: waits for the hash of what it was handed.
  ///
  /// - Throws: `IOError` when the file could not be read again.
  func finish() throws(IOError) -> String {
    isFinished.store(true, ordering: .releasing)
    wake.signal()
    done.wait()
    return try outcome.withLock { $0 ?? .success("") }.get()
  }

  private func digest(_ path: String) throws(IOError) -> String {
    let file = try InputFile(path: path)
    let hasher = SHA256()
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    defer { buffer.deallocate() }
    var hashed: Int64 = 0
    while true {
      // Finished first: once it is set, `handed` is final.
      let finished = isFinished.load(ordering: .acquiring)
      let target = handed.load(ordering: .acquiring)
      guard hashed < target else {
        if finished { return hasher.finalize() }
        wake.wait()
        continue
      }
      let wanted = min(buffer.count, Int(target - hashed))
      let count = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]))
      guard count > 0 else {
        throw IOError(.failed, path: path, reason: "the file became shorter while it was read")
      }
      hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
      hashed += Int64(count)
    }
  }
}
