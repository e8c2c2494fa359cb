import Foundation
import Testing

@testable import ResonanceIO

@Suite("SHA256")
struct SHA256Tests {
  // FIPS 180-2 test vectors.
  @Test(
    "matches the published test vectors",
    arguments: [
      ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
      ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
      (
        "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
      ),
    ])
  func vectors(input: String, expected: String) {
    let hasher = SHA256()
    hasher.update(Array(input.utf8))
    #expect(hasher.finalize() == expected)
  }

  @Test("a million 'a's fed in uneven pieces give the published digest")
  func incremental() {
    let hasher = SHA256()
    let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 7919)
    var remaining = 1_000_000
    while remaining > 0 {
      let n = min(remaining, chunk.count)
      hasher.update(Array(chunk.prefix(n)))
      remaining -= n
    }
    #expect(hasher.finalize() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    #expect(hasher.finalize() == hasher.finalize())
  }

  @Test("hashes a file in chunks, equal to hashing its bytes at once")
  func file() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("sha-\(UUID().uuidString).bin").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    // Three 1 MiB chunks and a ragged tail, in a pattern with no short period.
    let bytes = (0..<(3 << 20) + 17).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let whole = SHA256()
    whole.update(bytes)
    #expect(try SHA256.hexDigest(ofFileAt: path) == whole.finalize())
  }

  @Test("a missing file is .missing, a folder is .unreadable")
  func errors() {
    #expect(throws: IOError(.missing, path: "/no/such/file", reason: "no such file or directory")) {
      try SHA256.hexDigest(ofFileAt: "/no/such/file")
    }
    do {
      _ = try SHA256.hexDigest(ofFileAt: FileManager.default.temporaryDirectory.path)
      Issue.record("hashing a folder should fail")
    } catch {
      #expect(error.kind == .unreadable)
    }
  }
}
