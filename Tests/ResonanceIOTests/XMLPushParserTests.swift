import Testing

@testable import ResonanceIO

/// Collects what the parser reports.
final class Recorder: XMLEventHandler {
  var events: [String] = []
  func startElement(_ name: XMLText, attributes: XMLAttributes, line: Int) {
    var text = "<\(name.string)@\(line)"
    for i in 0..<attributes.count {
      text += " \(attributes.name(at: i).string)=\(attributes.value(at: i).string)"
    }
    events.append(text)
  }
  func endElement(_ name: XMLText) { events.append("</\(name.string)") }
}

@Suite("XML push parser (libxml2 SAX2)")
struct XMLPushParserTests {
  func parse(_ text: String, chunk: Int = 7, repairs: XMLPushParser.Repairs = .init())
    throws(XMLParseError)
    -> (Recorder, XMLPushParser)
  {
    let recorder = Recorder()
    let parser = XMLPushParser(handler: recorder, repairs: repairs)
    let bytes = Array(text.utf8)
    var i = 0
    while i < bytes.count {
      try parser.feed(array: Array(bytes[i..<min(bytes.count, i + chunk)]))
      i += chunk
    }
    try parser.finish()
    return (recorder, parser)
  }

  @Test("reports elements, decoded attribute values and lines, whatever the chunking")
  func events() throws {
    let (recorder, _) = try parse(
      "<a x=\"1 &lt;2&gt; &amp; ’\">\n <b y=\"\"/>\n</a>\n", chunk: 3)
    #expect(recorder.events == ["<a@1 x=1 <2> & ’", "<b@2 y=", "</b", "</a"])
  }

  /// Names are compared where libxml2 keeps them, up to the literal's length and then its
  /// NUL: a name the literal is a prefix of, or that is a prefix of the literal, is another.
  @Test("an attribute looked up by name is that name exactly, not one sharing its start")
  func valueByName() throws {
    final class KeyReader: XMLEventHandler {
      var found: [String] = []
      func startElement(_ name: XMLText, attributes: XMLAttributes, line: Int) {
        found.append(attributes.value("key")?.string ?? "-")
      }
      func endElement(_ name: XMLText) {}
    }
    let reader = KeyReader()
    let parser = XMLPushParser(handler: reader)
    try parser.feed(
      array: Array(
        """
        <r><e keys="1" ke="2" k="3"/><e keys="1" key="4"/><e key="" value="5"/>        <e KEY="6"/><e kex="7"/></r>
        """.utf8))
    try parser.finish()
    #expect(reader.found == ["-", "-", "4", "", "-", "-"])
  }

  @Test("the DTD with #IMPLIED attributes that crashes Foundation's parser is fine here")
  func dtd() throws {
    let text = """
      <?xml version="1.0"?>
      <!DOCTYPE HealthData [
      <!ELEMENT HealthData (Record*)>
      <!ATTLIST Record type CDATA #REQUIRED unit CDATA #IMPLIED>
      ]>
      <HealthData><Record type="t"/></HealthData>
      """
    let (recorder, _) = try parse(text)
    #expect(recorder.events.first == "<HealthData@6")
  }

  @Test("a truncated document fails with its line and column")
  func truncated() {
    do {
      _ = try parse("<a>\n<b x=\"1\"/>\n<c")
      Issue.record("a truncated document must fail")
    } catch {
      #expect(error.line == 3)
      #expect(!error.message.isEmpty)
    }
  }

  @Test("a document cut between elements says it ended early, inside which element, and where")
  func endedEarly() {
    do {
      _ = try parse("<?xml version=\"1.0\"?>\n<HealthData>\n <Record a=\"1\">\n  <M/>\n")
      Issue.record("a truncated document must fail")
    } catch {
      #expect(
        error.message
          == "the document ended early, inside <Record> opened at line 3 (2 elements left open): is the file cut short?"
      )
      #expect(error.line == 4 || error.line == 5, "\(error)")
    }
    // Content after the root's end is still what libxml2 calls it.
    do {
      _ = try parse("<a/>\n<b/>\n")
      Issue.record("two roots must fail")
    } catch {
      #expect(error.message.contains("Extra content at the end of the document"), "\(error)")
    }
  }

  @Test("mismatched tags fail")
  func mismatched() {
    #expect(throws: XMLParseError.self) { try parse("<a><b></a>") }
  }

  @Test("iOS 16's broken DTD is blanked out, reported, and lines stay where they were")
  func brokenDTD() throws {
    let text = """
      <?xml version="1.0"?>
      <!DOCTYPE HealthData [
      <!ATTLIST VisionPrescription
        type CDATA #REQUIRED
      <!ELEMENT RightEye EMPTY>
      >
      ]>
      <HealthData>
      <Record type="t"/>
      </HealthData>
      """
    #expect(throws: XMLParseError.self) { try parse(text) }
    let (recorder, parser) = try parse(text, repairs: .init(stripsInternalSubset: true))
    #expect(recorder.events == ["<HealthData@8", "<Record@9 type=t", "</Record", "</HealthData"])
    #expect(parser.report.strippedInternalSubset)
    #expect(parser.report.internalSubsetWasMalformed)
  }

  @Test("a sound DTD is stripped without being called malformed")
  func soundDTD() throws {
    let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE H [\n<!ELEMENT H EMPTY>\n]>\n<H/>"
    let (_, parser) = try parse(text, repairs: .init(stripsInternalSubset: true))
    #expect(parser.report.strippedInternalSubset && !parser.report.internalSubsetWasMalformed)
  }

  @Test("stray vertical tabs are replaced and counted when asked")
  func verticalTabs() throws {
    let text = "<a>\n<b v=\"x\u{0B}y\"/>\n</a>"
    #expect(throws: XMLParseError.self) { try parse(text) }
    let (recorder, parser) = try parse(text, repairs: .init(replacesVerticalTabs: true))
    #expect(recorder.events[1] == "<b@2 v=x y")
    #expect(parser.report.verticalTabs == 1)
  }
}
