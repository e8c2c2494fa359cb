import Foundation
import ResonanceModel
import Synchronization
import Testing

@testable import ResonanceIngest

/// A store's side that takes the first `accepted` Health batches and then gives up, as the
/// writer does when a write fails.
final class GivingUpSink: ImportSink {
  struct Seen {
    var offered = 0
    var records = 0
    var ended = 0
  }
  let seen = Mutex(Seen())
  let accepted: Int

  init(accepted: Int) { self.accepted = accepted }

  func emit(_ event: ImportEvent) -> Bool {
    seen.withLock { seen in
      switch event {
      case .batch(.health(let items)):
        seen.offered += 1
        guard seen.offered <= accepted else { return false }
        seen.records += items.count
        return true
      case .end, .failed:
        seen.ended += 1
        return true
      default:
        return true
      }
    }
  }

  func reusableHealthBatch() -> [HealthItem] { [] }
  func progress(_ bytesRead: Int64) {}
}

@Suite("The Health export reader, on its three threads")
struct HealthExportReaderTests {
  /// An export of `count` heart-rate records, one per minute.
  static func export(records count: Int) throws -> (folder: URL, file: String) {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("resonance-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
    for i in 0..<count {
      let minute = i % 60
      let hour = (i / 60) % 24
      let day = 1 + (i / 1440) % 28
      let time = String(format: "2024-03-%02d %02d:%02d:00 -0700", day, hour, minute)
      text +=
        " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Jane’s Watch\" device=\"&lt;&lt;HKDevice: 0x2\(i % 9)&gt;, name:Apple Watch&gt;\" unit=\"count/min\" startDate=\"\(time)\" endDate=\"\(time)\" value=\"\(60 + i % 50)\"/>\n"
    }
    text += "</HealthData>\n"
    let file = folder.appendingPathComponent("export.xml").path
    try text.write(toFile: file, atomically: true, encoding: .utf8)
    return (folder, file)
  }

  @Test("every record reaches the sink, in batches, whatever the thread it was built on")
  func allRecords() throws {
    let (folder, file) = try Self.export(records: 20_000)
    defer { try? FileManager.default.removeItem(at: folder) }
    let sink = GivingUpSink(accepted: .max)
    InputWalker(sink: sink).walk(path: file)
    let seen = sink.seen.withLock { $0 }
    #expect(seen.records == 20_000)
    #expect(seen.offered >= 20_000 / HealthExportReader.itemsPerBatch)
    #expect(seen.ended == 1)
  }

  @Test("when the store's side gives up, reading stops soon after, and nothing hangs")
  func givingUp() throws {
    let (folder, file) = try Self.export(records: 60_000)
    defer { try? FileManager.default.removeItem(at: folder) }
    let sink = GivingUpSink(accepted: 1)
    InputWalker(sink: sink).walk(path: file)
    let seen = sink.seen.withLock { $0 }
    #expect(seen.records == HealthExportReader.itemsPerBatch)
    // The refused batch, and the reader's last flush: the batches recorded but not yet
    // replayed when it gave up are dropped, not built into records.
    #expect(seen.offered <= 3, "\(seen.offered) batches offered after the first refusal")
    #expect(seen.ended == 1)
  }
}
