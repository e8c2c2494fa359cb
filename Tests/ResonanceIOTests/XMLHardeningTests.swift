import Foundation
import Testing

@testable import ResonanceIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one XML configuration every reader uses, against documents made to attack a parser:
/// entities that read files or the network, entities that expand without bound, and internal
/// subsets hidden from the Health export's repair behind a processing instruction or a comment.
@Suite("XML push parser: hardened against hostile documents")
struct XMLHardeningTests {
  /// Parses `text` in one piece; the error, if any.
  func failure(_ text: String, repairs: XMLPushParser.Repairs = .init()) -> (
    XMLParseError?, Recorder
  ) {
    let recorder = Recorder()
    let parser = XMLPushParser(handler: recorder, repairs: repairs)
    do {
      try parser.feed(array: Array(text.utf8))
      try parser.finish()
      return (nil, recorder)
    } catch {
      return (error, recorder)
    }
  }

  static let laughs: String = {
    var text = "<!ENTITY lol \"lol\">\n"
    var previous = "lol"
    for level in 1...9 {
      text += "<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">\n"
      previous = "lol\(level)"
    }
    return text
  }()

  @Test("an entity declaration stops the parse, naming the entity and its line")
  func declarationRefused() throws {
    let (error, recorder) = failure(
      "<?xml version=\"1.0\"?>\n<!DOCTYPE r [\n<!ENTITY greeting \"hello\">\n]>\n<r a=\"&greeting;\"/>\n"
    )
    let refused = try #require(error)
    #expect(refused.message.contains("'greeting'") && refused.message.contains("refused"))
    #expect(refused.line == 3)
    #expect(recorder.events.isEmpty)
  }

  @Test("a billion laughs fails at its first declaration, at once and in little memory")
  func billionLaughs() throws {
    let clock = ContinuousClock()
    let start = clock.now
    let (error, recorder) = failure(
      "<?xml version=\"1.0\"?>\n<!DOCTYPE r [\n\(Self.laughs)]>\n<r>&lol9;</r>\n")
    #expect(try #require(error).message.contains("'lol'"))
    #expect(recorder.events.isEmpty)
    // Expanded, the document would be 3 GB of "lol"; refused, it is microseconds of work.
    #expect(clock.now - start < .seconds(5))
  }

  @Test("a file:// entity, general or parameter, is never read")
  func fileEntities() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "xml-hardening-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let secret = folder.appendingPathComponent("secret.txt").path
    try "TOP-SECRET".write(toFile: secret, atomically: true, encoding: .utf8)
    for subset in [
      "<!ENTITY x SYSTEM \"file://\(secret)\">", "<!ENTITY % p SYSTEM \"file://\(secret)\">%p;",
    ] {
      // In element content, where an external entity is legal XML and libxml2 would read it.
      let text = TextRecorder()
      let parser = XMLPushParser(handler: text)
      var refused: XMLParseError?
      do {
        try parser.feed(
          array: Array("<?xml version=\"1.0\"?>\n<!DOCTYPE r [\(subset)]>\n<r>&x;</r>\n".utf8))
        try parser.finish()
      } catch { refused = error }
      #expect(
        refused?.message.contains("refused") == true, "\(subset): \(String(describing: refused))")
      #expect(!text.text.contains("TOP-SECRET"))
    }
    // An external DTD is never loaded either: the document parses as if it had none.
    let (error, recorder) = failure(
      "<?xml version=\"1.0\"?>\n<!DOCTYPE r SYSTEM \"file://\(secret)\">\n<r a=\"1\"/>\n")
    #expect(error == nil)
    #expect(recorder.events == ["<r@3 a=1", "</r"])
  }

  @Test("no entity or DTD reaches the network, not even a loopback listener")
  func network() throws {
    let listener = try LoopbackListener()
    let url = "http://127.0.0.1:\(listener.port)"
    let documents = [
      "<!DOCTYPE r [<!ENTITY x SYSTEM \"\(url)/x\">]>\n<r>&x;</r>",
      "<!DOCTYPE r [<!ENTITY % p SYSTEM \"\(url)/p\">%p;]>\n<r/>",
      "<!DOCTYPE r SYSTEM \"\(url)/r.dtd\">\n<r/>",
      "<!DOCTYPE r PUBLIC \"-//X//Y\" \"\(url)/public.dtd\">\n<r/>",
    ]
    for document in documents {
      _ = failure("<?xml version=\"1.0\"?>\n" + document + "\n")
      _ = failure(
        "<?xml version=\"1.0\"?>\n" + document + "\n",
        repairs: .init(stripsInternalSubset: true))
    }
    #expect(listener.connections() == 0)
  }

  @Test(
    "a subset the Health repair cannot see, behind a processing instruction or a comment, is refused",
    arguments: ["<?x <!DOCTYPE y [ ]> ?>", "<!-- <!DOCTYPE y [ ]> -->"])
  func hiddenSubset(_ decoy: String) throws {
    let (error, recorder) = failure(
      "<?xml version=\"1.0\"?>\n\(decoy)\n<!DOCTYPE HealthData [\n\(Self.laughs)]>\n"
        + "<HealthData><Record sourceName=\"&lol9;\"/></HealthData>\n",
      repairs: .init(stripsInternalSubset: true))
    let refused = try #require(error)
    #expect(refused.message.contains("'lol'"))
    #expect(refused.line == 4)
    #expect(!recorder.events.joined().contains("lollol"))
  }

  @Test("the five predefined entities and character references still decode")
  func predefined() throws {
    let handler = TextRecorder()
    let parser = XMLPushParser(handler: handler)
    try parser.feed(
      array: Array(
        "<r a=\"&amp;&lt;&gt;&quot;&apos;&#233;\">&amp;&lt;&gt;&quot;&apos;&#x2019;</r>".utf8))
    try parser.finish()
    #expect(handler.attribute == "&<>\"'é")
    #expect(handler.text == "&<>\"'\u{2019}")
  }

  @Test("libxml2's own limits are on: a text node over 10 MB is an error, not a gigabyte")
  func tokenLimit() throws {
    let (error, _) = failure("<r>" + String(repeating: "a", count: 10_000_001) + "</r>")
    #expect(error != nil)
  }
}

/// Keeps a document's text and its last attribute value.
final class TextRecorder: XMLEventHandler {
  var text = ""
  var attribute = ""
  var wantsCharacters: Bool { true }
  func startElement(_ name: XMLText, attributes: XMLAttributes, line: Int) {
    if attributes.count > 0 { attribute = attributes.value(at: 0).string }
  }
  func endElement(_ name: XMLText) {}
  func characters(_ text: XMLText) { self.text += text.string }
}

/// A TCP listener on 127.0.0.1 that only counts who knocked: connections the kernel completed
/// wait in its backlog, so accepting without blocking counts them.
final class LoopbackListener {
  let socket: Int32
  let port: UInt16

  init() throws {
    #if canImport(Glibc)
      let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = Darwin.socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw POSIXError(.EIO) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(fd, pointer, length) == 0 && listen(fd, 16) == 0
          && getsockname(fd, pointer, &length) == 0
      }
    }
    guard bound else {
      close(fd)
      throw POSIXError(.EADDRNOTAVAIL)
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    socket = fd
    port = UInt16(bigEndian: address.sin_port)
  }

  deinit { close(socket) }

  /// How many connections arrived since the last call.
  func connections() -> Int {
    var count = 0
    while case let client = accept(socket, nil, nil), client >= 0 {
      close(client)
      count += 1
    }
    return count
  }
}
