import Foundation
import ResonanceIO
import ResonanceModel
import Testing

@testable import ResonanceIngest

/// Reads a fixture from `Tests/Fixtures/health/`.
func healthFixture(_ name: String) -> String {
  URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/health/\(name)").path
}

/// What the reader produced from a whole file.
struct HealthRead: Sendable {
  var items: [HealthItem]
  var counts: HealthReadCounts
  var diagnostics: [Diagnostic]
  var warningCount: Int
  var report: XMLPushParser.RepairReport
}

/// Parses a whole export with the Health reader and returns what it produced.
func readHealth(_ path: String) throws -> HealthRead {
  var items: [HealthItem] = []
  let reader = AppleHealthReader(file: (path as NSString).lastPathComponent, batchSize: 3) {
    items += $0
  }
  let parser = XMLPushParser(
    handler: reader, repairs: .init(stripsInternalSubset: true, replacesVerticalTabs: true))
  try InputFile(path: path).forEachChunk(chunkSize: 333) { try parser.feed($0) }
  try parser.finish()
  reader.flush()
  return HealthRead(
    items: items, counts: reader.counts, diagnostics: reader.diagnostics,
    warningCount: reader.warningCount, report: parser.report)
}

@Suite("Apple Health reader")
struct AppleHealthReaderTests {
  static let quirks = Result { try readHealth(healthFixture("quirks.xml")) }

  var records: [HealthRecord] {
    get throws {
      try Self.quirks.get().items.compactMap { if case .record(let r) = $0 { r } else { nil } }
    }
  }

  @Test("reads every good Record, skips the bad ones with their line, and counts beats")
  func counts() throws {
    let reader = try Self.quirks.get()
    #expect(reader.counts.records == 20)
    #expect(reader.counts.beats == 5)
    #expect(reader.counts.workouts == 1)
    #expect(reader.counts.correlations == 1)
    #expect(reader.counts.activitySummaries == 1)
    #expect(reader.warningCount == 2)
    let lines = reader.diagnostics.compactMap(\.location?.line)
    #expect(lines.count == 2)
    #expect(reader.diagnostics[0].message.contains("missing startDate"))
    #expect(
      reader.diagnostics[1].message.contains(
        "expected a date like 2024-01-15 08:30:00 -0800, found startDate '2024-01-15 8:40'"))
    #expect(reader.counts.notImported == ["ClinicalRecord": 1])
  }

  @Test("a quantity record keeps value, unit, offsets, device fields but never the address")
  func quantity() throws {
    let hr = try #require(try records.first { $0.type == "HKQuantityTypeIdentifierHeartRate" })
    #expect(hr.value == 72 && hr.valueText == "72" && hr.unit == "count/min")
    #expect(hr.start.iso8601UTC == "2024-01-15T16:30:00Z" && hr.start.utcOffsetSeconds == -28_800)
    #expect(hr.creation?.iso8601UTC == "2024-01-15T16:31:02Z")
    #expect(
      hr.provenance.device
        == HealthDevice(
          name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch", hardware: "Watch6,2",
          software: "10.2"))
    #expect(hr.metadata == [MetadataEntry(key: "HKMetadataKeyHeartRateMotionContext", value: "1")])
  }

  @Test("units are normalised for analysis with the original kept")
  func units() throws {
    let all = try records
    let energy = try #require(all.first { $0.type.hasSuffix("ActiveEnergyBurned") })
    #expect(
      energy.unit == "Cal" && energy.normalizedUnit == "kcal" && energy.normalizedValue == 4.5)
    let distance = try #require(all.first { $0.type.hasSuffix("DistanceWalkingRunning") })
    #expect(
      distance.normalizedUnit == "km" && abs((distance.normalizedValue ?? 0) - 0.402_336) < 1e-9)
    let mass = try #require(all.first { $0.type.hasSuffix("BodyMass") })
    #expect(mass.normalizedUnit == "kg" && abs((mass.normalizedValue ?? 0) - 68.038_855_5) < 1e-6)
  }

  @Test("beat times become absolute: the record's date, three locale formats, midnight rollover")
  func beats() throws {
    let hrv = try records.filter { $0.type.hasSuffix("HeartRateVariabilitySDNN") }
    #expect(hrv.count == 2)
    let first = hrv[0].beats.map { Timestamp.iso8601UTC(millisecondsSinceEpoch: $0.timeMs) }
    #expect(
      first == ["2024-01-16T07:59:31.250Z", "2024-01-16T07:59:59.900Z", "2024-01-16T08:00:00.880Z"])
    #expect(hrv[0].beats.map(\.bpm) == [61, 62, 60])
    let second = hrv[1].beats.map { Timestamp.iso8601UTC(millisecondsSinceEpoch: $0.timeMs) }
    #expect(second == ["2024-01-16T19:14:07.680Z", "2024-01-16T19:14:08.710Z"])
  }

  @Test("identifying metadata is dropped; the rest, unknown keys included, is kept")
  func privacy() throws {
    let reader = try Self.quirks.get()
    #expect(reader.counts.metadataDropped == 2)
    let mass = try #require(try records.first { $0.type.hasSuffix("BodyMass") })
    #expect(
      mass.metadata == [MetadataEntry(key: "Modified Date", value: "2024-01-15 15:56:05 +0000")])
    let future = try #require(
      try records.first { $0.type == "HKQuantityTypeIdentifierFutureThing" })
    #expect(future.metadata == [MetadataEntry(key: "SomeNewKey", value: "kept")])
  }

  /// The reader tells a MetadataEntry's attributes apart by where the parser keeps their
  /// names, and judges a repeated value once: neither may depend on the order of attributes,
  /// and a value judged an identifier stays dropped each time it comes back.
  @Test("metadata attributes in any order, unknown ones beside them, repeated values judged alike")
  func metadataAttributeOrder() throws {
    var items: [HealthItem] = []
    let reader = AppleHealthReader(file: "export.xml") { items += $0 }
    let parser = XMLPushParser(handler: reader)
    let dates = #"startDate="2024-01-15 08:30:00 -0800" endDate="2024-01-15 08:30:00 -0800""#
    let record = { (entries: String) in
      #"<Record type="T" sourceName="S" "# + dates + #" value="1">"# + entries + "</Record>"
    }
    let input =
      "<HealthData>"
      + record(
        #"<MetadataEntry key="HKTimeZone" value="Europe/Berlin"/>"#
          + #"<MetadataEntry value="Europe/Paris" key="HKTimeZone"/>"#
          + #"<MetadataEntry note="n" value="ok" key="Other"/>"#
          + #"<MetadataEntry key="NoValue"/>"#
          + #"<MetadataEntry value="orphan"/>"#)
      + record(
        #"<MetadataEntry value="jane@example.com" key="Contact"/>"#
          + #"<MetadataEntry key="Contact" value="jane@example.com"/>"#
          + #"<MetadataEntry key="Europe" value="Europe/Berlin"/>"#)
      + "</HealthData>"
    try parser.feed(array: Array(input.utf8))
    try parser.finish()
    reader.flush()
    let metadata = items.compactMap { if case .record(let r) = $0 { r.metadata } else { nil } }
    #expect(
      metadata == [
        [
          MetadataEntry(key: "HKTimeZone", value: "Europe/Berlin"),
          MetadataEntry(key: "HKTimeZone", value: "Europe/Paris"),
          MetadataEntry(key: "Other", value: "ok"),
          MetadataEntry(key: "NoValue", value: ""),
        ],
        [MetadataEntry(key: "Europe", value: "Europe/Berlin")],
      ])
    #expect(reader.counts.metadataDropped == 2)
  }

  @Test("sleep in both eras, mindful sessions with and without a value")
  func categories() throws {
    let all = try records
    let sleep = all.filter { $0.type == "HKCategoryTypeIdentifierSleepAnalysis" }.map(\.valueText)
    #expect(
      sleep.contains("HKCategoryValueSleepAnalysisAsleep")
        && sleep.contains("HKCategoryValueSleepAnalysisAsleepREM"))
    let mindful = all.filter { $0.type == "HKCategoryTypeIdentifierMindfulSession" }
    #expect(mindful.map(\.valueText) == ["", "HKCategoryValueNotApplicable"])
    #expect(mindful.allSatisfy { $0.value == nil })
  }

  @Test("a Correlation carries its Records, which are not counted a second time")
  func correlation() throws {
    let items = try Self.quirks.get().items
    let correlation = try #require(
      items.compactMap { if case .correlation(let c) = $0 { c } else { nil } }.first)
    #expect(correlation.records.count == 2)
    #expect(correlation.metadata == [MetadataEntry(key: "HKWasUserEntered", value: "0")])
  }

  @Test("a workout keeps events, statistics, its route's summary and HKTimeZone")
  func workout() throws {
    let items = try Self.quirks.get().items
    let workout = try #require(
      items.compactMap { if case .workout(let w) = $0 { w } else { nil } }.first)
    #expect(workout.activityType == "HKWorkoutActivityTypeRunning" && workout.duration == 30.5)
    #expect(
      workout.events.map(\.type) == [
        "HKWorkoutEventTypePause", "HKWorkoutEventTypeResume", "HKWorkoutEventTypeSegment",
      ])
    #expect(workout.statistics.first { $0.type.hasSuffix("HeartRate") }?.maximum == 171)
    #expect(
      workout.routes == [
        .init(
          sourceName: "Jane’s Apple Watch", start: workout.start, end: workout.end,
          filePath: "/workout-routes/route_2024-01-15_6.00pm.gpx")
      ])
    #expect(workout.timeZone == "America/Los_Angeles")
  }

  @Test("from Me only the year of birth")
  func me() throws {
    let items = try Self.quirks.get().items
    let years = items.compactMap { if case .birthYear(let y) = $0 { y } else { nil } }
    #expect(years == [1988])
  }

  @Test("iOS 16's broken DTD and a stray vertical tab are repaired and reported")
  func brokenExport() throws {
    let read = try readHealth(healthFixture("ios16-broken-dtd.xml"))
    let (items, reader, report) = (read.items, read, read.report)
    #expect(report.internalSubsetWasMalformed)
    #expect(report.verticalTabs == 1)
    #expect(reader.counts.records == 3)
    let steps = items.compactMap {
      if case .record(let r) = $0, r.type.hasSuffix("StepCount") { r } else { nil }
    }
    #expect(steps.first?.provenance.sourceName == "Phone  Two")
    let hrv = items.compactMap { if case .record(let r) = $0, !r.beats.isEmpty { r } else { nil } }
    #expect(
      hrv.first?.beats.map { Timestamp.iso8601UTC(millisecondsSinceEpoch: $0.timeMs) } == [
        "2022-09-30T07:34:05.100Z", "2022-09-30T07:34:06.040Z",
      ])
    #expect(!items.contains { if case .birthYear = $0 { true } else { false } })
  }
}

@Suite("Health details")
struct HealthDetailTests {
  @Test("device strings: commas inside values, identifiers ignored")
  func device() {
    let d = DeviceDescription.parse(
      "<<HKDevice: 0x283c95f90>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch2,4, software:4.3.1, localIdentifier:ABC-123>"
    )
    #expect(
      d
        == HealthDevice(
          name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch", hardware: "Watch2,4",
          software: "4.3.1"))
  }

  @Test("device strings: fields by their keys in any order, the address and identifiers out")
  func deviceAnyOrder() {
    let d = DeviceDescription.parse(
      "name:Apple Watch, HKDevice: 0xfeedface, localIdentifier:7C2E1B0A-5D4F-4E3A-9B8C-1A2B3C4D5E6F, model:Watch, hardware:Watch6,2"
    )
    #expect(d == HealthDevice(name: "Apple Watch", model: "Watch", hardware: "Watch6,2"))
    let named = DeviceDescription.parse(
      "<<HKDevice: 0x2c3a4b5d6>, name:owner@example.net, manufacturer:Apple Inc., model:iPhone>")
    #expect(named == HealthDevice(manufacturer: "Apple Inc.", model: "iPhone"))
    let comma = DeviceDescription.parse("<<HKDevice: 0x1>, name:Jane, Apple Watch, model:Watch>")
    #expect(comma.name == "Jane, Apple Watch" && comma.model == "Watch")
  }

  @Test(
    "device strings separated by ',' without a space or by ';' keep no localIdentifier or serial",
    arguments: [
      "<<HKDevice: 0x1>,name:Apple Watch,manufacturer:Apple Inc.,localIdentifier:ABC-123,serial:C02XL0GXJG5H,hardware:Watch6,2>",
      "name:Apple Watch;manufacturer:Apple Inc.; localIdentifier:ABC-123; serial:C02XL0GXJG5H;hardware:Watch6,2",
    ])
  func deviceOtherSeparators(text: String) {
    let d = DeviceDescription.parse(Substring(text))
    #expect(
      d == HealthDevice(name: "Apple Watch", manufacturer: "Apple Inc.", hardware: "Watch6,2"))
  }

  /// The privacy rules judge what the exports say about people and devices; the song
  /// identifiers the listening formats define name recordings, and the listening readers keep
  /// them: the UUID rule's counter-example is a MusicBrainz ID, which stays.
  @Test("song identifiers are kept: a MusicBrainz recording ID, a Spotify URI, a catalog ID")
  func songIdentifiersKept() throws {
    let mbid = "3f4b8c2e-5d6a-4b7c-8d9e-0a1b2c3d4e5f"
    #expect(PrivacyFilter.isIdentifyingValue(mbid), "a UUID, were it metadata")
    let listen =
      #"{"listened_at":1710057600,"track_metadata":{"track_name":"Paper Lanterns","artist_name":"Lumen Drift","mbid_mapping":{"recording_mbid":"\#(mbid)"},"additional_info":{"spotify_id":"https://open.spotify.com/track/0VjIjW4GlUZAMYd2vXMi3b"}}}"#
    let (listens, _) = try ListenBrainzReader.read(path: "2024/3.jsonl", bytes: Array(listen.utf8))
    #expect(listens.plays.first?.song.musicBrainzRecordingID == mbid)
    #expect(listens.plays.first?.song.spotifyURI == "spotify:track:0VjIjW4GlUZAMYd2vXMi3b")
    let (library, _) = try AppleMusicLibraryTracksReader.read(
      path: "l.json",
      bytes: Array(
        #"[{"Track Identifier":1,"Title":"T","Content Type":"Song","Apple Music Track Identifier":1481664696}]"#
          .utf8))
    #expect(library.songs.first?.appleCatalogID == "1481664696")
  }

  @Test("Jane's and Jane’s are one source; a no-break space is a space")
  func sourceKey() {
    #expect(
      HealthProvenance.sourceKey("Jane’s iPhone") == HealthProvenance.sourceKey("Jane's iPhone"))
    #expect(HealthProvenance.sourceKey("Apple\u{00A0}Watch") == "Apple Watch")
  }

  @Test("the export XML is the largest non-CDA .xml, whatever its localised name")
  func locator() {
    let chosen = HealthExportLocator.choose([
      ("apple_health_export/export_cda.xml", 900), ("apple_health_export/导出.xml", 500),
      ("apple_health_export/workout-routes/route.gpx", 9000),
    ])
    #expect(chosen == "apple_health_export/导出.xml")
    #expect(
      HealthExportLocator.unimportedParts([
        "a/electrocardiograms/ecg_1.csv", "a/clinical-records/x.json",
      ]) == ["electrocardiogram files": 1, "clinical records": 1])
  }

  @Test("privacy rules: identifier keys and values are dropped")
  func privacy() {
    #expect(PrivacyFilter.dropsMetadata(key: "Withings User Identifier", value: "1"))
    #expect(PrivacyFilter.dropsMetadata(key: "Link", value: "app://x?userid=9"))
    #expect(!PrivacyFilter.dropsMetadata(key: "HKTimeZone", value: "Europe/Paris"))
  }

  @Test(
    "keys match in NFKC with case and everything but letters and digits folded away",
    arguments: [
      "User-ID", "user_id", "USER ID", "UserID", "E-mail", "e_mail", "Email Address",
      "Device-Identifier", "Serial Number", "Phone", "Phone-Number", "IP", "MAC-Address",
      // Any other separator, dash or space, and other widths: NFKC and letters only.
      "user.id", "User:ID", "User\u{2010}ID", "E\u{2013}mail", "User\u{00A0}ID",
      "\u{FF45}mail", "ＵＳＥＲ＿ＩＤ", "IP Addr", "Session-ID", "Password",
    ])
  func foldedKeys(key: String) {
    #expect(PrivacyFilter.isIdentifyingKey(key))
  }

  @Test(
    "keys that only look like identifiers are kept",
    arguments: [
      "HKTimeZone", "HKMetadataKeyHeadphoneGain", "Modified Date", "HKWasUserEntered",
      "HKMetadataKeyHeartRateMotionContext", "Microphone Level", "Equipment",
    ])
  func ordinaryKeys(key: String) {
    #expect(!PrivacyFilter.isIdentifyingKey(key))
  }

  @Test(
    "values carrying an e-mail, IP, MAC, UUID, 0x address, token, phone, IMEI or serial are dropped, in any width or %-escape",
    arguments: [
      "jane.doe@example.com", "mail me: a@b.io.", "192.0.2.44", "host 10.0.0.1:8080",
      "2001:db8:85a3::8a2e:370:7334", "fe80::1%en0", "::1",
      "2001:0db8:0000:0000:0000:ff00:0042:8329",
      "00:1A:7D:DA:71:13", "00-1a-7d-da-71-13", "7C2E1B0A-5D4F-4E3A-9B8C-1A2B3C4D5E6F",
      "sync-0b9e4f3c-2d1a-4c5b-8e7f-9a0b1c2d3e4f", "<HKObject 0x600003c2a1b0>", "0xfeedface",
      "withings-bd2://timeline/measure?UserID=48229&date=1674746237",
      "https://example.com/callback?TOKEN=abc", "acct ACCOUNT_ID=77",
      // Other widths and escapes of '@'; identifiers without their separators.
      "x\u{FF20}y.com", "x%40y.com", "mail: jane\u{FF0E}doe\u{FF20}example\u{FF0E}com",
      "7c2e1b0a5d4f4e3a9b8c1a2b3c4d5e6f", "001A7DDA7113", "sensor 001a7dda7113",
      // Query strings, tokens, secrets.
      "https://a.example/cb?user=jane", "https://a.example/cb?session=abc123",
      "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTYifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
      "password=hunter2",
      // Phones, an IMEI (with and without dashes), a serial number.
      "+1 (555) 010-9999", "+44 20 7946 0958", "call (555) 010-9999", "555-010-9999",
      "555.010.9999", "490154203237518", "IMEI 35-209900-176148-1", "serial C02XL0GXJG5H",
    ])
  func identifyingValues(value: String) {
    #expect(PrivacyFilter.isIdentifyingValue(value))
  }

  @Test(
    "ordinary values are kept: times, dates, versions, numbers, zones, song identifiers",
    arguments: [
      "08:30:00", "2024-01-15 15:56:05 +0000", "America/Los_Angeles", "12.5", "10.2.1", "1",
      "kept", "HKWorkoutSwimmingLocationTypePool", "256.1.1.1", "1e-3", "0x1f", "12:30",
      "Watch6,2", "a@b", "2024-01-15", "healthsync://open?record=1674833733&kind=197",
      "x=1", "00:1A:7D:DA:71:1", "1:2:3:4:5:6:7",
      // Song identifiers the formats define, and numbers shaped like none of the above.
      "spotify:track:0VjIjW4GlUZAMYd2vXMi3b", "1481664696", "USRC17607839", "202401151230",
      "490154203237519", "+0000", "deadbeefcafe", "eyJhbGciOiJIUzI1NiJ9", "2024-01-15 08:30",
      "v17.4.1 (21E236)", "ＷＡＴＣＨ６,２", "100% charged",
    ])
  func ordinaryValues(value: String) {
    #expect(!PrivacyFilter.isIdentifyingValue(value))
  }
}

@Suite("Breathing recording reader")
struct BreathingRecordingReaderTests {
  @Test("out-of-order samples are put in order with a warning; unknown lines are named")
  func disorder() throws {
    let text = """
      {"format":"resonance.breathing","version":1,"session":3,"pattern":"box","phases":[{"phase":"inhale","seconds":4}]}
      {"t":0,"pacer":"inhale"}
      {"t":0.066,"trace":0.2}
      {"t":0.033,"trace":0.1}
      {"t":1,"mystery":true}
      """
    let (recording, diagnostics) = try BreathingRecordingReader.read(
      path: "r.jsonl", data: Data(text.utf8))
    #expect(recording.trace.map(\.t) == [0.033, 0.066])
    #expect(
      diagnostics.map(\.description).contains(
        "warning: r.jsonl: waveform timestamps were out of order; put in order"))
    #expect(
      diagnostics.map(\.description).contains(
        "warning: r.jsonl:5: line skipped: no field this format knows"))
    #expect(recording.schedule.count == 1 && recording.session == 3)
  }

  @Test("a file without our header is refused")
  func notOurs() {
    #expect(throws: IngestError.self) {
      try BreathingRecordingReader.read(path: "x", data: Data("{\"t\":0}\n".utf8))
    }
  }
}

@Suite("Health reader numbers")
struct HealthNumberTests {
  @Test("plain decimals read exactly as strtod reads them; anything else is left to strtod")
  func plainDecimals() {
    func read(_ text: String) -> Double? {
      Array(text.utf8).withUnsafeBufferPointer { AppleHealthReader.plainDecimal($0) }
    }
    for text in [
      "61", "0.078", "-0", "-12.5", "5.", ".5", "123456789012345", "0.1", "0.3", "98.6",
      "1.00000000000001", "72.0000", "-0.000001",
    ] {
      let expected = strtod(text, nil)
      #expect(read(text)?.bitPattern == expected.bitPattern, "\(text)")
    }
    for text in [
      "", "-", ".", "1.2.3", "+5", "1e3", " 61", "1234567890123456", "1.000000000000001", "0x10",
      "nan",
    ] {
      #expect(read(text) == nil, "\(text)")
    }
  }
}

@Suite("Health reader string sharing")
struct InternerTests {
  /// Every answer must be the bytes asked for, whichever of the recent strings, the table or a
  /// new string gives it: keys cycling through more strings than a slot remembers, unique
  /// values, and short text (kept inline, never looked up) beside long.
  @Test("the interner answers every byte sequence with a string of exactly those bytes")
  func answersTheBytesAskedFor() {
    var interner = Interner()
    let keys =
      (0..<20).map { "HKMetadataKeyHeartRateMotionContext\($0)" } + [
        "", "a", "ä€𝄞", "Zeitzone für München ✓",
      ]
    var asked = 0
    for round in 0..<50 {
      for (i, key) in keys.enumerated() {
        let slot: Interner.Slot = i % 2 == 0 ? .type : .other
        let got = Array(key.utf8).withUnsafeBufferPointer { interner.string($0, slot: slot) }
        #expect(got == key)
        asked += 1
      }
      let unique = "2024-01-\(round) 08:30:00 +0000"
      #expect(
        Array(unique.utf8).withUnsafeBufferPointer { interner.string($0, slot: .other) } == unique)
    }
    #expect(asked == 1200)
  }

  @Test("thousands of distinct strings (the table grows) each come back as asked, twice")
  func growsAndKeepsAnswering() {
    var interner = Interner()
    let sources = (0..<3000).map { "Source \($0) of an unusually long name" }
    for _ in 0..<2 {
      for source in sources {
        let got = Array(source.utf8).withUnsafeBufferPointer { interner.string($0, slot: .source) }
        #expect(got == source)
      }
    }
  }

  /// The metadata keys' table: a key's identifying flag is worked out once and then read back,
  /// so a fact given for the wrong string (two strings in one place) would drop or keep the
  /// wrong entries. More strings than places, sharing prefixes, lengths and last bytes as
  /// Apple's keys do, in a repeating order and then shuffled.
  @Test("recent strings answer every string with its own bytes and its own fact")
  func recentStringsKeepEachStringsFact() {
    var table = RecentStrings<Int>(size: 16)
    let strings =
      (0..<40).map { "HKMetadataKey\($0 % 2 == 0 ? "Sync" : "Heart")Identifier\($0)" }
      + ["", "a", "HKTimeZone", "HKTimeZonf", "ä€𝄞 Zeitzone", "12345678", "12345679"]
    var computed = 0
    func fact(_ s: String) -> Int {
      computed += 1
      return s.utf8.reduce(7) { $0 &* 31 &+ Int($1) }
    }
    var generator = SystemRandomNumberGenerator()
    for round in 0..<20 {
      let order = round < 10 ? strings : strings.shuffled(using: &generator)
      for string in order {
        let got = Array(string.utf8).withUnsafeBufferPointer { table.string($0, fact: fact) }
        #expect(got.string == string)
        #expect(got.fact == string.utf8.reduce(7) { $0 &* 31 &+ Int($1) }, "\(string)")
      }
    }
    // A string asked twice in a row is found the second time: its fact is not worked out again.
    let before = computed
    for _ in 0..<3 {
      _ = Array("HKTimeZone".utf8).withUnsafeBufferPointer { table.string($0, fact: fact) }
    }
    #expect(computed - before <= 1)
  }
}
