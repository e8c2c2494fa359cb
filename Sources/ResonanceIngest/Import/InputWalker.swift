import Foundation
import ResonanceIO
import ResonanceModel

/// Walks what the user named — a file, a folder, standard input (`-`) — opening each input
/// once and reading it once, front to back: zip archives member by member (zips inside zips
/// too, to `maximumZipDepth`), gzip streams inflated on the way. Each input is recognised from
/// its first bytes, then streamed into its reader, or abandoned after its first MiB when no
/// reader knows it. Everything it finds goes to the sink as `ImportEvent`s, in order.
///
/// Each import's digest is of the bytes it was read from: a file's (a gzip file's compressed
/// bytes), or a zip member's inflated bytes — what the ledger records. A plain Health export
/// on disk is hashed by a thread that re-reads it from the page cache (`TrailingFileHasher`),
/// off the parser's thread.
///
/// A file on disk is also hashed whole, as its bytes are (a zip as the zip, never inflated),
/// and the walk says so when it is done with it (`sourceEnded`), so that the store can record
/// the files it imported whole. A file whose size one of `known` has is hashed before anything
/// else: when the digest is known too, the file is unchanged since it was imported whole, and
/// it is passed over (`unchanged`) without a reader running on it.
///
/// Not `Sendable`: it runs on the reading thread.
package final class InputWalker {
  /// How deep zips inside zips are entered: a zip inside the fourth level is passed over.
  package static let maximumZipDepth = 4

  private let sink: any ImportSink
  /// Read every input as this format instead of recognising it (`--as`); archives are still
  /// opened.
  private let forced: ImportFormat?
  /// The files the store imported whole before.
  private let known: ImportedSources

  /// - Parameter known: the files on disk the store recorded as imported whole; one of them
  ///   met again is passed over, unless `forced` asks for another reading of it.
  package init(
    sink: any ImportSink, forced: ImportFormat? = nil, known: ImportedSources = ImportedSources()
  ) {
    self.sink = sink
    self.forced = forced
    self.known = known
  }

  /// Walks one path from the command line; `-` is standard input.
  package func walk(path: String) {
    if path != "-" {
      // stat, not FileManager.fileExists: a file inside a folder the user may not enter
      // exists, and must be "permission denied", not "no such file".
      var info = stat()
      guard stat(path, &info) == 0 else {
        fail(InputFile.error(errno, path: path))
        return
      }
      if info.st_mode & S_IFMT == S_IFDIR {
        walkFolder(path)
        return
      }
    }
    do {
      walkFile(try InputFile.open(path: path), isExplicit: true)
    } catch {
      fail(error)
    }
  }

  /// A folder, file by file in name order, hidden files and folders left out. The Health exports in it
  /// come first (an `.xml` whose root is `HealthData`, the largest of its folder): the other
  /// files of an unpacked export's folder are its parts, named as not imported.
  private func walkFolder(_ path: String) {
    var files: [String] = []
    listFiles(in: path, into: &files)
    files.sort()
    var healthFolders: [String] = []
    if forced == nil || forced == .appleHealth {
      for file in files where file.lowercased().hasSuffix(".xml") {
        let folder = (file as NSString).deletingLastPathComponent
        guard !healthFolders.contains(folder),
          let (location, parts) = HealthExportLocator.locate(folder: folder),
          location == .file(path: file)
        else { continue }
        do {
          let opened = try InputFile.open(path: file)
          if try passOverIfUnchanged(opened) {
            // Its folder's other files are its parts, passed over with it.
            healthFolders.append(folder)
            continue
          }
          let input = PeekableSource(wrapping: opened)
          guard forced == .appleHealth || recognize(input) == .format(.appleHealth) else {
            continue
          }
          healthFolders.append(folder)
          let digest = importStream(input, format: .appleHealth, file: opened)
          _ = sink.emit(.sourceEnded(file: opened.name, digest: digest))
          if !parts.isEmpty { _ = sink.emit(.notImported(file: file, parts: parts)) }
        } catch {
          fail(error)
        }
      }
    }
    for file in files where !healthFolders.contains(where: { file.hasPrefix($0 + "/") }) {
      // What `resonance synth` planted is the answer key, not the person's data.
      if SkippedInput.simulationTruthNames.contains((file as NSString).lastPathComponent) {
        _ = sink.emit(
          .skipped(SkippedInput(name: file, reason: .simulationTruth, isExplicit: false)))
        continue
      }
      do {
        walkFile(try InputFile.open(path: file), isExplicit: false)
      } catch {
        fail(error)
      }
    }
  }

  /// Appends the files under `folder` (hidden files and folders left out) to `files`. A folder
  /// that cannot be listed is a failure of its own (`permission denied`), and the walk goes on.
  private func listFiles(in folder: String, into files: inout [String]) {
    guard let directory = opendir(folder) else {
      fail(InputFile.error(errno, path: folder))
      return
    }
    defer { closedir(directory) }
    var folders: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard !name.hasPrefix(".") else { continue }
      let full = (folder as NSString).appendingPathComponent(name)
      // Links are followed to files, not to folders (a link to a parent would never end). A
      // link to nowhere, or an entry removed since the listing, has nothing to read.
      var info = stat()
      guard lstat(full, &info) == 0 else { continue }
      if info.st_mode & S_IFMT == S_IFDIR {
        folders.append(full)
      } else if info.st_mode & S_IFMT == S_IFLNK || info.st_mode & S_IFMT == S_IFREG,
        stat(full, &info) == 0, info.st_mode & S_IFMT == S_IFREG
      {
        files.append(full)
      }
    }
    for subfolder in folders.sorted() { listFiles(in: subfolder, into: &files) }
  }

  /// One file: a zip, a gzip stream, or a file a reader knows; passed over when it is
  /// unchanged since it was imported whole. A file on disk ends with `sourceEnded`, which
  /// carries its digest when it was read to its end.
  private func walkFile(_ file: InputFile, isExplicit: Bool) {
    var digest: FileDigest?
    do {
      if try passOverIfUnchanged(file) { return }
      let input = PeekableSource(wrapping: file)
      digest = try walkStream(
        input, depth: 0, isExplicit: isExplicit, file: file.isRegularFile ? file : nil)
    } catch {
      fail(error)
    }
    if file.isRegularFile { _ = sink.emit(.sourceEnded(file: file.name, digest: digest)) }
  }

  /// A stream by its first bytes. `file` is the file on disk it is, when it is one (a plain
  /// Health export is then hashed by re-reading it).
  ///
  /// - Returns: the digest and size of the stream's bytes as read, when it was read (nil for
  ///   one passed over, or one whose only import failed).
  private func walkStream(
    _ input: PeekableSource, depth: Int, isExplicit: Bool, file: InputFile?
  ) throws -> FileDigest? {
    switch recognize(input) {
    case .zip:
      // The zip's own bytes, hashed as the archive reader takes them, then to the end.
      let hashing = HashingSource(wrapping: input)
      try walkZip(ZipStream(reading: hashing), depth: depth + 1)
      try drain(hashing)
      return FileDigest(sha256: hashing.finalize(), bytes: hashing.byteCount)
    case .gzip:
      let hashing = HashingSource(wrapping: input)
      let inflated = PeekableSource(wrapping: try GzipSource(wrapping: hashing))
      let inner = recognize(inflated)
      if inner == .zip {
        try walkZip(ZipStream(reading: inflated), depth: depth + 1)
        try drain(hashing)
        return FileDigest(sha256: hashing.finalize(), bytes: hashing.byteCount)
      } else if case .format(let format) = forcedOr(inner) {
        return importStream(inflated, format: format, hashing: hashing)
      } else {
        skip(inflated, isExplicit: isExplicit)
        return nil
      }
    case let recognition:
      guard case .format(let format) = forcedOr(recognition) else {
        skip(input, isExplicit: isExplicit)
        return nil
      }
      return importStream(input, format: format, file: format == .appleHealth ? file : nil)
    }
  }

  /// Passes over a regular file the store imported whole before: hashed as its bytes are
  /// (never parsed), only when its size is one a recorded file has.
  ///
  /// - Returns: whether it was passed over (the sink was told `unchanged`).
  private func passOverIfUnchanged(_ file: InputFile) throws -> Bool {
    guard forced == nil, file.isRegularFile, let size = file.expectedByteCount,
      known.hasFile(ofSize: size)
    else { return false }
    let hash = SHA256()
    let again = try InputFile(path: file.path)
    try again.forEachChunk { hash.update($0) }
    let sha256 = hash.finalize()
    guard known.contains(bytes: size, sha256: sha256) else { return false }
    _ = sink.emit(.unchanged(file: file.name, sha256: sha256))
    return true
  }

  /// Reads what is left of `source` (a zip's central directory after its last member), so
  /// that its digest covers the whole file.
  private func drain(_ source: HashingSource) throws(IOError) {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
    defer { buffer.deallocate() }
    while try source.read(into: buffer) > 0 {}
  }

  /// Every member of a zip, in archive order. Hidden files and macOS resource forks are left
  /// out; a zip deeper than `maximumZipDepth` is passed over, named. When the archive held a
  /// Health export, its other members are the export's parts (ECG files, routes, the CDA
  /// document), named as not imported rather than as files no reader knows.
  private func walkZip(_ zip: ZipStream, depth: Int) throws {
    var names: [String] = []
    var skipped: [SkippedInput] = []
    var health: String?
    while let (member, source) = try zip.nextMember() {
      names.append(member.name)
      let base = (member.name as NSString).lastPathComponent
      guard !member.isDirectory, !base.hasPrefix("."), !member.name.hasPrefix("__MACOSX/")
      else { continue }
      let input = PeekableSource(wrapping: source)
      do {
        var held: [SkippedInput] = []
        if try walkMember(input, depth: depth, skipped: &held) == .appleHealth {
          health = source.name
        }
        skipped += held
      } catch {
        fail(error)
      }
    }
    if let health {
      let parts = HealthExportLocator.unimportedParts(names)
      skipped.removeAll { entry in
        let lower = entry.name.lowercased()
        return ["electrocardiograms/", "clinical-records/", "workout-routes/", "export_cda"]
          .contains { lower.contains($0) }
      }
      if !parts.isEmpty { _ = sink.emit(.notImported(file: health, parts: parts)) }
    }
    for entry in skipped { _ = sink.emit(.skipped(entry)) }
  }

  /// One member of a zip: a zip (entered, unless it is too deep), a gzip stream (inflated,
  /// and what it holds taken the same way), or a file a reader knows. Returns the format it
  /// was imported as, if it was.
  private func walkMember(
    _ input: PeekableSource, depth: Int, skipped: inout [SkippedInput]
  ) throws -> ImportFormat? {
    let hashing = HashingSource(wrapping: input)
    var content = PeekableSource(wrapping: hashing)
    var recognition = recognize(content)
    if recognition == .gzip {
      // The gzip layer reads what recognition peeked at, then the rest.
      content = PeekableSource(wrapping: try GzipSource(wrapping: content))
      recognition = recognize(content)
    }
    if recognition == .zip {
      guard depth < Self.maximumZipDepth else {
        skipped.append(
          SkippedInput(
            name: input.name, reason: .tooDeep(limit: Self.maximumZipDepth), isExplicit: false))
        return nil
      }
      try walkZip(ZipStream(reading: content), depth: depth + 1)
      return nil
    }
    guard case .format(let format) = forcedOr(recognition) else {
      skipped.append(
        SkippedInput(
          name: input.name, reason: .unrecognised(found: opening(content)), isExplicit: false))
      return nil
    }
    importStream(content, format: format, hashing: hashing)
    return format
  }

  /// Reads one recognised stream into the store's side: `begin`, the reader's batches, then
  /// `end` with the digest, or `failed`.
  ///
  /// - Parameters:
  ///   - hashing: the layer that hashes the bytes the digest is of, below decompression; nil
  ///     to hash what the reader reads.
  ///   - file: the regular file on disk `input` reads, re-read by a trailing thread for the
  ///     digest instead.
  @discardableResult
  private func importStream(
    _ input: PeekableSource, format: ImportFormat, hashing: HashingSource? = nil,
    file: InputFile? = nil
  ) -> FileDigest? {
    let digest: any ImportDigest
    let source: any ByteSource
    if let file, file.isRegularFile {
      let hasher = TrailingDigest(TrailingFileHasher(file: file), over: input)
      digest = hasher
      source = hasher
    } else if let hashing {
      digest = HashedDigest(hashing)
      source = input
    } else {
      let hasher = HashingSource(wrapping: input)
      digest = HashedDigest(hasher)
      source = hasher
    }
    let counted = CountingSource(source, sink: sink)
    guard
      sink.emit(
        .begin(file: input.name, format: format, expectedBytes: input.expectedByteCount))
    else { return nil }
    do {
      let summary = try ImportRegistry.reader(for: format).read(counted, into: sink)
      let sha = try digest.finish()
      _ = sink.emit(.end(sha256: sha, bytes: digest.bytes, summary: summary))
      return FileDigest(sha256: sha, bytes: digest.bytes)
    } catch let broken as BrokenFile {
      let sha = (try? digest.finish()) ?? ""
      _ = sink.emit(
        .failed(
          broken.error,
          partial: PartialRead(sha256: sha, bytes: digest.bytes, summary: broken.summary)))
    } catch {
      _ = try? digest.finish()
      _ = sink.emit(.failed(error, partial: nil))
    }
    return nil
  }

  /// An input no reader knows: an error when the user named it, else noted; either way, no
  /// more than its first MiB was read.
  private func skip(_ input: PeekableSource, isExplicit: Bool) {
    _ = sink.emit(
      .skipped(
        SkippedInput(
          name: input.name, reason: .unrecognised(found: opening(input)),
          isExplicit: isExplicit)))
  }

  private func opening(_ input: PeekableSource) -> String {
    ImportRegistry.opening((try? input.peek(upTo: 40)) ?? [])
  }

  /// What `input` is, from its first 64 KiB, or up to 1 MiB for an XML document whose root
  /// element has not appeared by then.
  private func recognize(_ input: PeekableSource) -> ImportRegistry.Recognition {
    guard let prefix = try? input.peek(upTo: ImportRegistry.firstLook) else { return .unknown }
    let recognition = ImportRegistry.recognize(prefix)
    guard recognition == .unknown, ImportRegistry.wantsMore(prefix),
      let more = try? input.peek(upTo: PeekableSource.recognitionLimit)
    else { return recognition }
    return ImportRegistry.recognize(more)
  }

  /// The forced format in place of a recognised one (containers stay containers).
  private func forcedOr(_ recognition: ImportRegistry.Recognition)
    -> ImportRegistry.Recognition
  {
    guard let forced, recognition != .zip, recognition != .gzip else { return recognition }
    return .format(forced)
  }

  private func fail(_ error: any Error) {
    _ = sink.emit(.failed(error, partial: nil))
  }
}

/// Where an import's digest comes from, and how many bytes it covers.
private protocol ImportDigest: AnyObject {
  var bytes: Int64 { get }
  /// The digest, once the reader has ended.
  func finish() throws(IOError) -> String
}

/// The digest a `HashingSource` layer computes as the bytes pass.
private final class HashedDigest: ImportDigest {
  let hashing: HashingSource
  init(_ hashing: HashingSource) { self.hashing = hashing }
  var bytes: Int64 { hashing.byteCount }
  func finish() throws(IOError) -> String { hashing.finalize() }
}

/// A file's bytes on their way to the reader, hashed by a thread that re-reads the file and
/// trails them.
private final class TrailingDigest: ImportDigest, ByteSource {
  let hasher: TrailingFileHasher
  let inner: any ByteSource
  private(set) var bytes: Int64 = 0

  init(_ hasher: TrailingFileHasher, over inner: any ByteSource) {
    self.hasher = hasher
    self.inner = inner
  }

  var name: String { inner.name }
  var expectedByteCount: Int64? { inner.expectedByteCount }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws(IOError) -> Int {
    let n = try inner.read(into: buffer)
    hasher.advance(by: n)
    bytes += Int64(n)
    return n
  }

  func finish() throws(IOError) -> String { try hasher.finish() }
}

/// Tells the sink how far the reader has read, for the progress bar.
private final class CountingSource: ByteSource {
  let inner: any ByteSource
  let sink: any ImportSink
  private var count: Int64 = 0

  init(_ inner: any ByteSource, sink: any ImportSink) {
    self.inner = inner
    self.sink = sink
  }

  var name: String { inner.name }
  var expectedByteCount: Int64? { inner.expectedByteCount }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws(IOError) -> Int {
    let n = try inner.read(into: buffer)
    count += Int64(n)
    sink.progress(count)
    return n
  }
}
