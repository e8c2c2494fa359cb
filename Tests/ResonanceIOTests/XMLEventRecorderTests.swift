import Testing

@testable import ResonanceIO

/// Remembers where each name it was given was stored, by name.
final class AddressBook: XMLEventHandler {
  var addresses: [String: Set<UnsafeRawPointer>] = [:]
  func startElement(_ name: XMLText, attributes: XMLAttributes, line: Int) {
    addresses[name.string, default: []].insert(UnsafeRawPointer(name.bytes.baseAddress!))
    for i in 0..<attributes.count {
      addresses[attributes.name(at: i).string, default: []].insert(attributes.nameAddress(at: i))
    }
  }
  func endElement(_ name: XMLText) {
    addresses[name.string, default: []].insert(UnsafeRawPointer(name.bytes.baseAddress!))
  }
}

@Suite("XML events recorded on one thread, replayed on another")
struct XMLEventRecorderTests {
  static let document = """
    <?xml version="1.0" encoding="UTF-8"?>
    <HealthData locale="en_US">
     <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Jane’s Watch" device="&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch&gt;" value="61"/>
     <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Jane’s Watch" value="" unit="count/min">
      <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="0"/>
     </Record>
     <Workout workoutActivityType="HKWorkoutActivityTypeRunning"><WorkoutEvent type="pause"/></Workout>
     <Me/>
    </HealthData>

    """

  /// The events of `text` through the recorder, in batches of about `batchBytes` bytes, and
  /// a replayer, into `handler`; returns how many batches there were.
  @discardableResult
  static func replay(_ text: String, batchBytes: Int, into handler: some XMLEventHandler) throws
    -> Int
  {
    var batches: [XMLEventBatch] = []
    let recorder = XMLEventRecorder(batchBytes: batchBytes) { full in
      batches.append(full)
      return XMLEventBatch()
    }
    let parser = XMLPushParser(handler: recorder)
    try parser.feed(array: Array(text.utf8))
    try parser.finish()
    recorder.flush()
    let replayer = XMLEventReplayer()
    for batch in batches { replayer.replay(batch, into: handler) }
    return batches.count
  }

  /// The events of `text` straight from the parser, to compare replays with.
  static func parsed(_ text: String) throws -> Recorder {
    let direct = Recorder()
    let parser = XMLPushParser(handler: direct)
    try parser.feed(array: Array(text.utf8))
    try parser.finish()
    return direct
  }

  @Test(
    "replayed, the handler gets what the parser gave: names, decoded values, empty ones, lines",
    arguments: [1, 16, 1 << 20])
  func sameEvents(batchBytes: Int) throws {
    let direct = try Self.parsed(Self.document)
    let replayed = Recorder()
    let batches = try Self.replay(Self.document, batchBytes: batchBytes, into: replayed)
    #expect(replayed.events == direct.events)
    #expect(
      replayed.events.contains(
        "<Record@3 type=HKQuantityTypeIdentifierHeartRate sourceName=Jane’s Watch device=<<HKDevice: 0x1>, name:Apple Watch> value=61"
      ))
    #expect(
      replayed.events.contains(
        "<Record@4 type=HKQuantityTypeIdentifierHeartRate sourceName=Jane’s Watch value= unit=count/min"
      ))
    // One byte per batch: every start tag with a value ends one, so names first used in one
    // batch are met again in later ones.
    #expect(batches > (batchBytes == 1 ? 5 : 0))
  }

  @Test("each name is kept at one address across batches, as libxml2 keeps it for a document")
  func stableNames() throws {
    let book = AddressBook()
    try Self.replay(Self.document, batchBytes: 1, into: book)
    #expect(book.addresses["Record"]?.count == 1)
    #expect(book.addresses["type"]?.count == 1)
    #expect(book.addresses["value"]?.count == 1)
    // Different names, different addresses.
    let all = book.addresses.values.map { $0.first! }
    #expect(Set(all).count == book.addresses.count)
  }

  @Test("a document with more names than the recorder's first table still numbers each once")
  func manyNames() throws {
    var text = "<root>"
    for i in 0..<600 { text += "<e\(i) a\(i)=\"\(i)\"/>" }
    text += "</root>"
    let direct = try Self.parsed(text)
    let replayed = Recorder()
    try Self.replay(text, batchBytes: 64, into: replayed)
    #expect(replayed.events == direct.events)
    #expect(replayed.events.count == 1202)
  }

  /// The recorder gathers an element's words, and the replayer its attribute layout, in
  /// buffers sized for 16 attributes at first: an element with more makes both grow, and one
  /// with fewer after it must not see the larger element's leftovers.
  @Test("elements with more attributes than the first buffers hold replay exactly")
  func manyAttributes() throws {
    var text = "<root><wide"
    for i in 0..<40 { text += " a\(i)=\"value \(i)\"" }
    text += "/><narrow b=\"1\"/><wide"
    for i in 0..<70 { text += " a\(i)=\"\(i)\"" }
    text += "></wide><narrow/></root>"
    let direct = try Self.parsed(text)
    for batchBytes in [1, 1 << 20] {
      let replayed = Recorder()
      try Self.replay(text, batchBytes: batchBytes, into: replayed)
      #expect(replayed.events == direct.events)
    }
    #expect(direct.events.contains { $0.hasPrefix("<wide") && $0.hasSuffix("a69=69") })
    #expect(direct.events.contains("<narrow@1 b=1"))
  }

  @Test("a bounded queue delivers in order across threads and ends with nil")
  func queue() {
    let queue = BoundedQueue<[Int]>(capacity: 2)
    WorkerThread.start {
      for i in 0..<100 { queue.push([i, i * i]) }
      queue.close()
    }
    var received: [[Int]] = []
    while let next = queue.pop() { received.append(next) }
    #expect(received == (0..<100).map { [$0, $0 * $0] })
  }
}
