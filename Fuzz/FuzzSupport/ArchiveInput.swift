import ResonanceIngest

#if canImport(Glibc)
  import Glibc
#endif

/// Reads the input as `resonance ingest PATH` does, through `InputWalker`: recognised by its
/// first bytes, zip archives entered member by member (zips inside zips too), gzip inflated on
/// the way, and each member handed to the reader that knows it.
///
/// A regular file is read through libarchive's seekable zip reader (from the central
/// directory), a pipe through its streaming one (from the local headers), so each input is
/// walked as both: the harnesses `ArchiveFile` and `ArchivePipe`.
package enum ArchiveInput {
  /// Walks the input written to a regular file (in `$TMPDIR`, or `/tmp`), then removes it.
  package static func walkFile(_ data: UnsafePointer<UInt8>?, _ size: Int) {
    let folder = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    let path = "\(folder)/resonance-fuzz-\(getpid()).bin"
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    precondition(fd >= 0, "cannot write \(path)")
    let written = write(fd, data, size)
    close(fd)
    precondition(written == size, "cannot write \(path)")
    InputWalker(sink: DiscardingSink()).walk(path: path)
    unlink(path)
  }

  /// Walks the input read from a pipe (`/dev/fd/N`, as a shell's `<(…)` gives it): as much of
  /// it as the pipe holds (1 MiB, more than libFuzzer's inputs here).
  package static func walkPipe(_ data: UnsafePointer<UInt8>?, _ size: Int) {
    var ends: [Int32] = [0, 0]
    precondition(pipe(&ends) == 0, "cannot make a pipe")
    // F_SETPIPE_SZ (Linux; not exported to Swift): room for the whole input, so that writing
    // it before the walk reads it cannot block.
    _ = fcntl(ends[1], 1031, Int32(1 << 20))
    _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
    var offset = 0
    while let data, offset < size {
      let n = write(ends[1], data + offset, size - offset)
      if n <= 0 { break }
      offset += n
    }
    close(ends[1])
    InputWalker(sink: DiscardingSink()).walk(path: "/dev/fd/\(ends[0])")
    close(ends[0])
  }
}
