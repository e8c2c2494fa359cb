import Foundation
import ResonanceIngest
import ResonanceModel
import Synchronization
import Testing

@testable import ResonanceSynth

@Suite("synth --compress: every file as it ships", .serialized)
struct CompressedOutputTests {
  static var configuration: SynthConfiguration {
    var configuration = SynthFolder.small
    configuration.compresses = true
    return configuration
  }

  static let compressed = Result { try SynthFolder(configuration) }
  /// The same person written plain.
  static let plain = Result { try SynthFolder() }

  @Test("compressing also zips the Health export, and is part of the configuration's equality")
  func configurationImpliesZip() {
    #expect(Self.configuration.writesZip)
    #expect(Self.configuration != SynthFolder.small)
    var zipOnly = SynthFolder.small
    zipOnly.writesZip = true
    #expect(Self.configuration != zipOnly)
  }

  @Test("writes zips and .jsonl.gz files only, and the same arguments give identical bytes")
  func deterministic() throws {
    let first = try Self.compressed.get()
    let second = try SynthFolder(Self.configuration)
    #expect(first.files == second.files)
    for file in first.files {
      let a = try Data(contentsOf: first.url(file))
      let b = try Data(contentsOf: second.url(file))
      #expect(a == b, "\(file) differs between two runs with the same arguments")
    }
    let recordings = first.files.filter { $0.hasPrefix("resonance/") }
    #expect(!recordings.isEmpty)
    #expect(recordings.allSatisfy { $0.hasSuffix(".jsonl.gz") }, "\(recordings)")
    #expect(
      first.files.filter { !$0.hasPrefix("resonance/") } == [
        "Apple_Media_Services.zip", "decisions-truth.jsonl.gz", "export.zip",
        "my_spotify_data.zip", "truth.json",
      ])
    // Every recording the plain folder has, compressed under the same name plus .gz.
    let plain = try Self.plain.get()
    #expect(
      recordings == plain.files.filter { $0.hasPrefix("resonance/") }.map { $0 + ".gz" })
  }

  @Test(
    "Python's zipfile and gzip open every file, members laid out as the services ship them, content as written plain"
  )
  func python() throws {
    let compressed = try Self.compressed.get()
    let plain = try Self.plain.get()
    let script = """
      import gzip, io, os, sys, zipfile
      packed, plain = sys.argv[1], sys.argv[2]
      def same(data, relative):
          with open(os.path.join(plain, relative), 'rb') as f:
              assert data == f.read(), relative + ' differs from the plain file'
      activity = 'Apple_Media_Services/Apple Music Activity/'
      with zipfile.ZipFile(os.path.join(packed, 'Apple_Media_Services.zip')) as z:
          assert z.testzip() is None
          names = z.namelist()
          assert names == [activity + n for n in (
              'Apple Music - Play History Daily Tracks.csv',
              'Apple Music Library Tracks.json.zip',
              'Apple Music Play Activity.csv')], names
          for n in ('Apple Music - Play History Daily Tracks.csv', 'Apple Music Play Activity.csv'):
              same(z.read(activity + n), 'Apple Media Services/Apple Music Activity/' + n)
          with zipfile.ZipFile(io.BytesIO(z.read(activity + 'Apple Music Library Tracks.json.zip'))) as inner:
              assert inner.namelist() == ['Apple Music Library Tracks.json'], inner.namelist()
              same(inner.read('Apple Music Library Tracks.json'),
                   'Apple Media Services/Apple Music Activity/Apple Music Library Tracks.json')
      spotify = 'Spotify Extended Streaming History'
      with zipfile.ZipFile(os.path.join(packed, 'my_spotify_data.zip')) as z:
          assert z.testzip() is None
          names = z.namelist()
          assert len(names) == 1 and names[0].startswith(spotify + '/Streaming_History_Audio_'), names
          same(z.read(names[0]), names[0])
      with zipfile.ZipFile(os.path.join(packed, 'export.zip')) as z:
          assert z.testzip() is None
          same(z.read('apple_health_export/export.xml'), 'apple_health_export/export.xml')
      count = 0
      for root, _, files in os.walk(os.path.join(packed, 'resonance')):
          for name in files:
              path = os.path.join(root, name)
              with gzip.open(path, 'rb') as f:
                  data = f.read()
              same(data, os.path.relpath(path, packed)[:-len('.gz')])
              count += 1
      print(count, 'recordings')
      """
    let (status, output) = try SynthFolder.run(
      "python3", ["-c", script, compressed.path, plain.path])
    #expect(status == 0, "\(output)")
  }

  @Test(
    "ingest reads the compressed folder to the same counts as the plain one: plays, decisions, biometric samples, Health records, breathing sessions"
  )
  func ingest() throws {
    let compressed = try Self.compressed.get()
    let plain = try Self.plain.get()
    let packed = ImportCounter.count(compressed.path)
    let unpacked = ImportCounter.count(plain.path)
    #expect(packed.failures.isEmpty, "\(packed.failures)")
    #expect(unpacked.failures.isEmpty, "\(unpacked.failures)")
    // What synth planted is passed over, and nothing else.
    #expect(Set(packed.skipped) == ["decisions-truth.jsonl.gz", "truth.json"])
    #expect(packed == unpacked)
    let history = compressed.history
    #expect(packed.decisions == history.decisions.count)
    #expect(packed.breathingSessions == history.breathing.count)
    #expect(packed.healthRecords > 0 && packed.biometricSamples > 0)
    #expect(packed.plays >= history.plays.count, "every play, some reported twice")
    #expect(packed.imports["apple-music-play-activity"] == 1)
    #expect(packed.imports["apple-music-library-tracks"] == 1)
    #expect(packed.imports["spotify-extended-history"] == 1)
    #expect(packed.imports["apple-health"] == 1)
  }
}

/// What ingest's walk over a folder sends a store, counted instead of stored.
final class ImportCounter: ImportSink {
  struct Counts: Equatable {
    /// Imports begun, by format name.
    var imports: [String: Int] = [:]
    var rows = 0
    var warnings = 0
    var healthRecords = 0
    var healthItems = 0
    var plays = 0
    var decisions = 0
    var biometricSamples = 0
    var breathingSessions = 0
    var macSnapshots = 0
    var moods = 0
    var recordingSamples = 0
    var failures: [String] = []
    /// Base names of the inputs no reader knew.
    var skipped: [String] = []
  }

  private let counts = Mutex(Counts())

  /// Walks `path` as `resonance ingest PATH` does and returns what it found.
  static func count(_ path: String) -> Counts {
    let counter = ImportCounter()
    InputWalker(sink: counter).walk(path: path)
    return counter.counts.withLock { $0 }
  }

  func emit(_ event: ImportEvent) -> Bool {
    counts.withLock { c in
      switch event {
      case .begin(_, let format, _): c.imports[format.name, default: 0] += 1
      case .batch(let batch): Self.add(batch, to: &c)
      case .end(_, _, let summary):
        c.rows += summary.rows
        c.warnings += summary.warnings
        c.recordingSamples += summary.samples
      case .failed(let error, _): c.failures.append("\(error)")
      case .skipped(let input): c.skipped.append((input.name as NSString).lastPathComponent)
      case .notImported, .unchanged, .sourceEnded: break
      }
    }
    return true
  }

  private static func add(_ batch: ImportBatch, to c: inout Counts) {
    switch batch {
    case .health(let items):
      c.healthItems += items.count
      c.healthRecords += items.count(where: { if case .record = $0 { true } else { false } })
    case .plays(let plays): c.plays += plays.count
    case .recording(let trace):
      switch trace.content {
      case .watch(let readings): c.biometricSamples += readings.count
      case .decisions(let decisions): c.decisions += decisions.count
      case .breathing: c.breathingSessions += 1
      case .mac(let snapshots): c.macSnapshots += snapshots.count
      case .mood(let moods): c.moods += moods.count
      }
    case .songs, .playlists, .expectedPlays, .restart: break
    }
  }

  func reusableHealthBatch() -> [HealthItem] { [] }

  func progress(_ bytesRead: Int64) {}
}
