import Foundation
import Testing

@testable import ResonanceIO

#if canImport(Glibc)
  import Glibc
#endif

/// Writes `bytes` to `fd` on a thread of its own, then closes it, as a shell's `<(…)` would.
private func writeOnThread(_ bytes: [UInt8], to fd: Int32) {
  Thread {
    var sent = 0
    while sent < bytes.count {
      let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + sent, $0.count - sent) }
      if n <= 0 { break }
      sent += n
    }
    close(fd)
  }.start()
}

/// Opens the FIFO at `path` for writing on a thread of its own (which blocks until a reader
/// opens it), writes `bytes` and closes it.
private func writeFIFO(_ bytes: [UInt8], at path: String) {
  Thread {
    let fd = open(path, O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    var sent = 0
    while sent < bytes.count {
      let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + sent, $0.count - sent) }
      if n <= 0 { break }
      sent += n
    }
    close(fd)
  }.start()
}

@Suite("InputFile as a byte source")
struct InputFileTests {
  @Test("a regular file reads front to back, knows its size, and can seek")
  func regularFile() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let bytes = patternBytes(300_001)
    let path = try folder.write("plain.bin", bytes)
    let file = try InputFile.open(path: path)
    #expect(file.name == path)
    #expect(file.isRegularFile)
    #expect(file.isSeekable)
    #expect(file.expectedByteCount == 300_001)
    #expect(try readAll(file, chunk: 65_536) == bytes)
    #expect(try file.seek(to: -10, from: .end) == 299_991)
    #expect(try readAll(file) == Array(bytes.suffix(10)))
  }

  @Test("'-' reads standard input once, through a duplicate, named 'standard input'")
  func standardInput() throws {
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    let bytes = patternBytes(200_000)
    writeOnThread(bytes, to: fds[1])
    let file = try InputFile.open(path: "-", standardInput: fds[0])
    #expect(file.name == "standard input")
    #expect(file.path == "-")
    #expect(!file.isRegularFile)
    #expect(file.expectedByteCount == nil)
    #expect(try readAll(file, chunk: 8192) == bytes)
    #expect(throws: IOError.self) { try file.seek(to: 0, from: .start) }
    // The original descriptor stays open: the file closed its duplicate only.
    withExtendedLifetime(file) {}
    #expect(fcntl(fds[0], F_GETFD) >= 0)
    close(fds[0])
  }

  @Test("standard input redirected from a regular file is a regular file from its offset")
  func standardInputFromFile() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let bytes = patternBytes(10_000)
    let path = try folder.write("redirected.bin", bytes)
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    defer { close(fd) }
    #expect(lseek(fd, 100, SEEK_SET) == 100)
    let file = try InputFile.open(path: "-", standardInput: fd)
    #expect(file.isRegularFile)
    #expect(file.expectedByteCount == 9_900)
    #expect(try readAll(file) == Array(bytes[100...]))
  }

  @Test("a /dev/fd/N path (process substitution) reads the pipe once")
  func processSubstitution() throws {
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    defer { close(fds[0]) }
    let bytes = patternBytes(150_000, seed: 7)
    writeOnThread(bytes, to: fds[1])
    let file = try InputFile.open(path: "/dev/fd/\(fds[0])")
    #expect(!file.isRegularFile)
    #expect(file.expectedByteCount == nil)
    #expect(try readAll(file, chunk: 4096) == bytes)
  }

  @Test("a FIFO is opened once and read to its end")
  func fifo() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.file("fifo")
    #expect(mkfifo(path, 0o600) == 0)
    let bytes = patternBytes(500_000, seed: 3)
    writeFIFO(bytes, at: path)
    let file = try InputFile.open(path: path)
    #expect(!file.isRegularFile)
    #expect(try readAll(file, chunk: 65_536) == bytes)
    #expect(try readAll(file).isEmpty)
  }

  @Test("nothing at the path is .missing")
  func missing() {
    #expect(throws: IOError(.missing, path: "/no/such/file", reason: "no such file or directory")) {
      try InputFile.open(path: "/no/such/file")
    }
  }

  @Test("a folder is .unreadable")
  func folder() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    #expect(throws: IOError(.unreadable, path: folder.path, reason: "is a directory")) {
      try InputFile.open(path: folder.path)
    }
  }

  @Test("permission denied is .unreadable with reason 'permission denied'")
  func permissionDenied() {
    #expect(
      InputFile.error(EACCES, path: "x")
        == IOError(.unreadable, path: "x", reason: "permission denied"))
  }

  @Test(
    "a file without read permission cannot be opened",
    .enabled(if: geteuid() != 0, "root reads any file"))
  func unreadableFile() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = try folder.write("secret", [1, 2, 3])
    #expect(chmod(path, 0) == 0)
    #expect(throws: IOError(.unreadable, path: path, reason: "permission denied")) {
      try InputFile.open(path: path)
    }
  }
}
