internal import CXML

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A name or value handed to an `XMLEventHandler`: UTF-8 bytes that are valid only during the
/// callback (copy what you keep). Entities are already decoded.
package struct XMLText {
  package let bytes: UnsafeBufferPointer<UInt8>

  /// Whether the bytes equal `literal`.
  package func equals(_ literal: StaticString) -> Bool {
    literal.withUTF8Buffer { other in
      other.count == bytes.count
        && (bytes.count == 0 || memcmp(other.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
    }
  }

  /// The bytes as a `String` (a copy).
  package var string: String { String(decoding: bytes, as: UTF8.self) }

  package var isEmpty: Bool { bytes.isEmpty }
}

/// The attributes of a start tag, in document order.
package struct XMLAttributes {
  // libxml2's SAX2 layout: five pointers per attribute (localname, prefix, URI, value, end).
  fileprivate let base: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
  package let count: Int

  /// Attributes in libxml2's SAX2 layout at `base`: for each, its local name (NUL-terminated),
  /// prefix, URI, and its value's start and end.
  package init(sax2 base: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, count: Int) {
    self.base = base
    self.count = count
  }

  /// The local name of attribute `index`.
  package func name(at index: Int) -> XMLText {
    let name = base![index * 5]!
    return XMLText(
      bytes: UnsafeBufferPointer(
        start: name, count: strlen(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))))
  }

  /// Where the local name of attribute `index` is stored. libxml2 interns names for the whole
  /// document, so one name always comes at one address and another name never does: a handler
  /// can recognise names it has seen by address alone.
  package func nameAddress(at index: Int) -> UnsafeRawPointer {
    UnsafeRawPointer(base![index * 5]!)
  }

  /// The value of attribute `index` (not NUL-terminated in libxml2; the length is exact).
  package func value(at index: Int) -> XMLText {
    let start = base![index * 5 + 3]!
    let end = base![index * 5 + 4]!
    return XMLText(bytes: UnsafeBufferPointer(start: start, count: end - start))
  }

  /// The value of the attribute named `name`, if present.
  ///
  /// The names are compared byte by byte where they are, without measuring them first: a
  /// shorter name's NUL differs from the literal (which holds none) before the comparison
  /// could read past it. This is called for every attribute looked up by name, and `strlen`
  /// and `memcmp` calls cost more than the few bytes compared.
  package func value(_ name: StaticString) -> XMLText? {
    name.withUTF8Buffer { literal in
      search: for i in 0..<count {
        let stored = base![i * 5]!
        for j in literal.indices where stored[j] != literal[j] { continue search }
        if stored[literal.count] == 0 { return value(at: i) }
      }
      return nil
    }
  }
}

/// Receives a document's elements as the parser meets them.
package protocol XMLEventHandler: AnyObject {
  func startElement(_ name: XMLText, attributes: XMLAttributes, line: Int)
  func endElement(_ name: XMLText)
  /// Whether the handler wants text content; when false (the default) `characters` is never
  /// called and the parser skips the callback altogether.
  var wantsCharacters: Bool { get }
  /// A run of text content (possibly one of several for one text node; entities decoded).
  func characters(_ text: XMLText)
}

extension XMLEventHandler {
  package var wantsCharacters: Bool { false }
  package func characters(_ text: XMLText) {}
}

/// A document that is not well-formed XML, with where the parser gave up.
package struct XMLParseError: Error, Sendable, Equatable, CustomStringConvertible {
  package var message: String
  package var line: Int
  package var column: Int

  package var description: String { "\(line):\(column): \(message)" }
}

/// libxml2's SAX2 push parser: feed it bytes in chunks of any size (from a file, an inflating
/// zip entry), and it calls the handler per element in constant memory.
///
/// Every XML file the tool reads goes through this one configuration, hardened against files
/// made to attack a parser (docs/reliability.md):
/// - an entity declaration stops the parse with an error naming the entity and its line: a
///   declared entity can read another file (`SYSTEM "file:///…"`) or expand without bound
///   (a billion laughs). XML's five predefined entities and character references still decode;
/// - the external-entity loader refuses every URI, local or remote, so no DTD or entity is
///   ever fetched, whatever the document says;
/// - libxml2's own limits stay on (no `XML_PARSE_HUGE`): 10 MB for one text node or attribute
///   value, 256 levels of nesting — far beyond any real export.
///
/// Foundation's `XMLParser` is not used: on Linux it crashes on the `#IMPLIED` attribute
/// declarations every Apple Health export's DTD has (see `docs/performance.md`).
package final class XMLPushParser {
  /// Repairs applied to the bytes before parsing, for documents known to need them.
  package struct Repairs: Sendable, Equatable {
    /// Blank out the internal DTD subset (`<!DOCTYPE … [ … ]>`), keeping every line and column
    /// where it was. Nothing the tool reads depends on the DTD, and iOS 16 wrote a broken one.
    package var stripsInternalSubset = false
    /// Replace vertical tabs (0x0B, not allowed in XML) with spaces.
    package var replacesVerticalTabs = false

    package init(stripsInternalSubset: Bool = false, replacesVerticalTabs: Bool = false) {
      self.stripsInternalSubset = stripsInternalSubset
      self.replacesVerticalTabs = replacesVerticalTabs
    }
  }

  /// What the repairs found.
  package struct RepairReport: Sendable, Equatable {
    /// An internal DTD subset was blanked out.
    package var strippedInternalSubset = false
    /// The stripped subset was not well-formed on its own (the iOS 16 export's DTD).
    package var internalSubsetWasMalformed = false
    /// Vertical tabs replaced.
    package var verticalTabs = 0
    /// The first line where a vertical tab was replaced.
    package var firstVerticalTabLine: Int?
  }

  private var context: xmlParserCtxtPtr?
  private let box: HandlerBox
  private let repairs: Repairs
  package private(set) var report = RepairReport()
  /// Bytes held back until the end of the internal subset has been seen.
  private var prolog: [UInt8] = []
  private var prologDone: Bool
  private var scratch: [UInt8] = []

  /// - Parameters:
  ///   - handler: receives the events; the parser does not keep it alive.
  ///   - repairs: byte-level repairs to apply before parsing.
  package init(handler: any XMLEventHandler, repairs: Repairs = Repairs()) {
    box = HandlerBox(handler)
    self.repairs = repairs
    prologDone = !repairs.stripsInternalSubset
  }

  deinit {
    if let context {
      xmlFreeDoc(context.pointee.myDoc)
      xmlFreeParserCtxt(context)
    }
  }

  /// Parses the next piece of the document.
  ///
  /// - Throws: `XMLParseError` at the first well-formedness error.
  package func feed(_ bytes: UnsafeRawBufferPointer) throws(XMLParseError) {
    if context == nil { try start() }
    guard bytes.count > 0 else { return }
    if !prologDone {
      prolog.append(contentsOf: bytes)
      guard let end = XMLPushParser.endOfProlog(prolog) else {
        if prolog.count > 16 << 20 { prologDone = true } else { return }
        return try feedPending()
      }
      blankInternalSubset(upTo: end)
      prologDone = true
      return try feedPending()
    }
    if repairs.replacesVerticalTabs, memchr(bytes.baseAddress!, 0x0B, bytes.count) != nil {
      scratch.removeAll(keepingCapacity: true)
      scratch.append(contentsOf: bytes)
      replaceVerticalTabs(&scratch)
      return try parse(array: scratch)
    }
    try parse(bytes)
  }

  /// Parses the next piece of the document, given as an array.
  package func feed(array: [UInt8]) throws(XMLParseError) {
    var failure: XMLParseError?
    array.withUnsafeBytes { raw in
      do throws(XMLParseError) { try feed(raw) } catch { failure = error }
    }
    if let failure { throw failure }
  }

  private func parse(array: [UInt8]) throws(XMLParseError) {
    var failure: XMLParseError?
    array.withUnsafeBytes { raw in
      do throws(XMLParseError) { try parse(raw) } catch { failure = error }
    }
    if let failure { throw failure }
  }

  private func feedPending() throws(XMLParseError) {
    var pending = prolog
    prolog = []
    if repairs.replacesVerticalTabs { replaceVerticalTabs(&pending) }
    try parse(array: pending)
  }

  private func replaceVerticalTabs(_ bytes: inout [UInt8]) {
    // The parser has consumed up to about where this chunk starts.
    var line = context == nil ? 1 : self.line
    for i in bytes.indices {
      if bytes[i] == 0x0A { line += 1 }
      if bytes[i] == 0x0B {
        bytes[i] = 0x20
        report.verticalTabs += 1
        if report.firstVerticalTabLine == nil { report.firstVerticalTabLine = line }
      }
    }
  }

  /// The index just past `]>` when the bytes hold a whole internal subset; the prolog's length
  /// when they hold none (the root element has begun); `nil` when more bytes are needed.
  static func endOfProlog(_ bytes: [UInt8]) -> Int? {
    guard let doctype = find(Array("<!DOCTYPE".utf8), in: bytes, from: 0) else {
      // No DOCTYPE yet: done once an element other than <? or <! has started.
      var i = 0
      while let lt = find([UInt8(ascii: "<")], in: bytes, from: i) {
        guard lt + 1 < bytes.count else { return nil }
        if bytes[lt + 1] != UInt8(ascii: "?") && bytes[lt + 1] != UInt8(ascii: "!") { return 0 }
        i = lt + 1
      }
      return nil
    }
    guard let open = find([UInt8(ascii: "[")], in: bytes, from: doctype),
      find([UInt8(ascii: ">")], in: bytes, from: doctype).map({ $0 > open }) ?? true
    else {
      // A DOCTYPE without an internal subset: nothing to strip.
      return find([UInt8(ascii: ">")], in: bytes, from: doctype) == nil ? nil : 0
    }
    guard let close = find(Array("]>".utf8), in: bytes, from: open) else { return nil }
    return close + 2
  }

  private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
    guard needle.count <= bytes.count else { return nil }
    var i = start
    while i + needle.count <= bytes.count {
      if bytes[i] == needle[0] && Array(bytes[i..<(i + needle.count)]) == needle { return i }
      i += 1
    }
    return nil
  }

  /// Replaces `<!DOCTYPE … ]>` with spaces (newlines kept), after checking whether it parses.
  private func blankInternalSubset(upTo end: Int) {
    guard end > 0, let start = XMLPushParser.find(Array("<!DOCTYPE".utf8), in: prolog, from: 0)
    else { return }
    report.strippedInternalSubset = true
    let subset = Array(prolog[start..<end])
    report.internalSubsetWasMalformed = !XMLPushParser.isWellFormed(
      Array("<?xml version=\"1.0\"?>\n".utf8) + subset + Array("\n<HealthData/>".utf8))
    for i in start..<end where prolog[i] != 0x0A { prolog[i] = 0x20 }
  }

  /// Whether `bytes` parse as a whole document.
  static func isWellFormed(_ bytes: [UInt8]) -> Bool {
    final class Ignore: XMLEventHandler {
      func startElement(_ name: XMLText, attributes: XMLAttributes, line: Int) {}
      func endElement(_ name: XMLText) {}
    }
    let ignore = Ignore()
    let parser = XMLPushParser(handler: ignore)
    do {
      try parser.feed(array: bytes)
      try parser.finish()
      return true
    } catch {
      return false
    }
  }

  private func parse(_ bytes: UnsafeRawBufferPointer) throws(XMLParseError) {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return }
    var offset = 0
    while offset < bytes.count {
      // xmlParseChunk takes an Int32 length.
      let n = min(bytes.count - offset, 1 << 30)
      let code = xmlParseChunk(
        context, base.advanced(by: offset).assumingMemoryBound(to: CChar.self), Int32(n), 0)
      if code != 0 || box.error != nil { throw currentError(code) }
      offset += n
    }
  }

  /// Ends the document; a document cut short fails here.
  ///
  /// - Throws: `XMLParseError` when the document is incomplete or malformed at its end.
  package func finish() throws(XMLParseError) {
    if context == nil { try start() }
    if !prologDone {
      prologDone = true
      try feedPending()
    }
    let code = xmlParseChunk(context, nil, 0, 1)
    if code != 0 || box.error != nil {
      if let open = openElements(), box.errorCode == Int32(XML_ERR_DOCUMENT_END.rawValue) {
        // libxml2's push parser calls a document cut short "Extra content at the end of the
        // document"; say what happened, as xmllint does.
        let end = box.error.map { ($0.line, $0.column) } ?? (line, 0)
        let innermost = open.last!
        throw XMLParseError(
          message:
            "the document ended early, inside <\(innermost.name)> opened at line \(innermost.line)"
            + (open.count > 1 ? " (\(open.count) elements left open)" : "")
            + ": is the file cut short?",
          line: end.0, column: end.1)
      }
      throw currentError(code)
    }
  }

  /// The elements still open, outermost first, with the lines they opened on; nil when none.
  private func openElements() -> [(name: String, line: Int)]? {
    guard let context, context.pointee.nameNr > 0, let names = context.pointee.nameTab else {
      return nil
    }
    let count = Int(context.pointee.nameNr)
    return (0..<count).map { i in
      let name = names[i].map { String(cString: $0) } ?? "?"
      let line = i < box.openLines.count ? Int(box.openLines[i]) : 0
      return (name, line)
    }
  }

  /// The line the parser has reached (1-based).
  package var line: Int {
    context.map { Int(xmlSAX2GetLineNumber(UnsafeMutableRawPointer($0))) } ?? 1
  }

  private func start() throws(XMLParseError) {
    var handler = xmlSAXHandler()
    handler.initialized = XML_SAX2_MAGIC
    handler.startElementNs = { context, localname, _, _, _, _, count, _, attributes in
      guard let context, let localname else { return }
      let name = XMLText(
        bytes: UnsafeBufferPointer(
          start: localname,
          count: strlen(UnsafeRawPointer(localname).assumingMemoryBound(to: CChar.self))))
      let line = Int(xmlSAX2GetLineNumber(context))
      HandlerBox.borrow(context) { box in
        box.openLines.append(Int32(truncatingIfNeeded: line))
        box.handler?.startElement(
          name,
          attributes: XMLAttributes(
            sax2: UnsafeMutableRawPointer(attributes)?.assumingMemoryBound(
              to: UnsafePointer<UInt8>?.self), count: Int(count)),
          line: line)
      }
    }
    handler.endElementNs = { context, localname, _, _ in
      guard let context, let localname else { return }
      let name = XMLText(
        bytes: UnsafeBufferPointer(
          start: localname,
          count: strlen(UnsafeRawPointer(localname).assumingMemoryBound(to: CChar.self))))
      HandlerBox.borrow(context) { box in
        _ = box.openLines.popLast()
        box.handler?.endElement(name)
      }
    }
    if box.handler?.wantsCharacters == true {
      handler.characters = { context, bytes, count in
        guard let context, let bytes else { return }
        HandlerBox.borrow(context) { box in
          box.handler?.characters(
            XMLText(bytes: UnsafeBufferPointer(start: bytes, count: Int(count))))
        }
      }
    }
    // Only XML's five predefined entities resolve; a declared one stops the parse first.
    handler.getEntity = { _, name in xmlGetPredefinedEntity(name) }
    handler.entityDecl = { context, name, _, _, _, _ in
      guard let context else { return }
      let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
      let box = Unmanaged<HandlerBox>.fromOpaque(parser.pointee._private).takeUnretainedValue()
      if box.error == nil {
        let entity = name.map { String(cString: $0) } ?? "?"
        box.error = XMLParseError(
          message:
            "the document declares the entity '\(entity)': entity declarations are refused, "
            + "since they can read other files or expand without bound",
          line: Int(xmlSAX2GetLineNumber(context)),
          column: Int(xmlSAX2GetColumnNumber(context)))
        box.errorCode = Int32(XML_ERR_ENTITY_PROCESSING.rawValue)
      }
      xmlStopParser(parser)
    }
    // Structured errors carry line and column; the variadic callbacks cannot be set from Swift.
    handler.serror = { context, error in
      guard let context, let error else { return }
      let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
      let box = Unmanaged<HandlerBox>.fromOpaque(parser.pointee._private).takeUnretainedValue()
      if error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue, box.error == nil {
        var message = error.pointee.message.map { String(cString: $0) } ?? "malformed XML"
        // libxml2's own size limits (without XML_PARSE_HUGE: 10,000,000 bytes for a name, an
        // attribute value or a text node) speak of its internals; say what they mean.
        if message.contains("Huge input lookup") || message.contains("too long")
          || message.contains("huge")
        {
          message =
            "a value or name longer than libxml2's limit of 10,000,000 bytes (no real export's is near it); libxml2 said: "
            + message.trimmingCharacters()
        }
        box.error = XMLParseError(
          message: message.trimmingCharacters(), line: Int(error.pointee.line),
          column: Int(error.pointee.int2))
        box.errorCode = error.pointee.code
      }
    }
    _ = XMLPushParser.refuseExternalEntities
    guard let context = xmlCreatePushParserCtxt(&handler, nil, nil, 0, nil) else {
      throw XMLParseError(message: "cannot create an XML parser", line: 0, column: 0)
    }
    // The handler box travels in the context's private slot; the context is the SAX user data.
    context.pointee._private = Unmanaged.passUnretained(box).toOpaque()
    context.pointee.userData = UnsafeMutableRawPointer(context)
    // No network, and `&amp;` in an attribute delivered as `&` rather than `&#38;` (NOENT: only
    // the predefined entities can be substituted, above). libxml2's size limits stay on: they
    // bound one token, not the document, and exports are gigabytes of small tokens.
    xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOENT.rawValue))
    self.context = context
  }

  /// Installs, once per process, an external-entity loader that loads nothing: libxml2 asks it
  /// for every external DTD, entity or XInclude, and each request fails as "failed to load
  /// external entity".
  private static let refuseExternalEntities: Void = {
    xmlSetExternalEntityLoader { _, _, _ in nil }
  }()

  private func currentError(_ code: Int32) -> XMLParseError {
    if let error = box.error { return error }
    return XMLParseError(message: "malformed XML (libxml2 error \(code))", line: line, column: 0)
  }
}

/// Holds the handler for the C callbacks, and the first error they saw. The parser owns the
/// box and the box the handler; the handler does not refer back, so there is no cycle.
private final class HandlerBox {
  let handler: (any XMLEventHandler)?
  var error: XMLParseError?
  /// libxml2's code for `error`.
  var errorCode: Int32 = 0
  /// The line each open element started on, outermost first.
  var openLines: [Int32] = []

  init(_ handler: any XMLEventHandler) { self.handler = handler }

  /// Calls `body` with the box behind a parser context, borrowed rather than retained: the
  /// parser keeps it alive, and a retain and release per event add up over millions of them.
  static func borrow(_ context: UnsafeMutableRawPointer, _ body: (HandlerBox) -> Void) {
    let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
    Unmanaged<HandlerBox>.fromOpaque(parser.pointee._private)._withUnsafeGuaranteedRef(body)
  }
}

extension String {
  fileprivate func trimmingCharacters() -> String {
    var text = self
    while let last = text.last, last == "\n" || last == " " { text.removeLast() }
    return text
  }
}
