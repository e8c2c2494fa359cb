internal import CCrypto

/// An incremental SHA-256 digest, computed by OpenSSL's libcrypto.
///
/// The ingest ledger keys every imported file on its digest, so a file seen before is
/// recognised whatever its name. Feed bytes in any number of pieces, then read `hexDigest`.
///
/// ```swift
/// let hasher = SHA256()
/// hasher.update(Array("abc".utf8))
/// hasher.finalize() // "ba7816bf…f20015ad"
/// ```
package final class SHA256 {
  private let context: OpaquePointer
  private var finished: String?

  package init() {
    // Allocation failure here means the process is out of memory; nothing the input controls.
    guard let context = EVP_MD_CTX_new() else { preconditionFailure("EVP_MD_CTX_new failed") }
    self.context = context
    let ok = EVP_DigestInit_ex(context, EVP_sha256(), nil)
    precondition(ok == 1, "EVP_DigestInit_ex(sha256) failed")
  }

  deinit { EVP_MD_CTX_free(context) }

  /// Adds bytes to the digest. Calling it after `finalize()` is a programmer error.
  package func update(_ bytes: UnsafeRawBufferPointer) {
    precondition(finished == nil, "SHA256.update after finalize")
    guard let base = bytes.baseAddress, bytes.count > 0 else { return }
    EVP_DigestUpdate(context, base, bytes.count)
  }

  /// Adds the bytes of an array to the digest.
  package func update(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { update($0) }
  }

  /// Ends the digest and returns it as 64 lower-case hex digits; later calls return the same.
  package func finalize() -> String {
    if let finished { return finished }
    var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
    var length: UInt32 = 0
    EVP_DigestFinal_ex(context, &digest, &length)
    let hex = SHA256.hex(digest.prefix(Int(length)))
    finished = hex
    return hex
  }

  /// The SHA-256 of a whole file, read in 1 MiB chunks (constant memory).
  ///
  /// - Throws: `IOError` when the file is missing or cannot be read.
  package static func hexDigest(ofFileAt path: String) throws(IOError) -> String {
    let file = try InputFile(path: path)
    let hasher = SHA256()
    do {
      try file.forEachChunk { hasher.update($0) }
    } catch let error as IOError {
      throw error
    } catch {
      throw IOError(.failed, path: path, reason: "\(error)")
    }
    return hasher.finalize()
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  private static func hex(_ bytes: some Sequence<UInt8>) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(64)
    for byte in bytes {
      out.append(hexDigits[Int(byte >> 4)])
      out.append(hexDigits[Int(byte & 0x0F)])
    }
    return String(decoding: out, as: UTF8.self)
  }
}
