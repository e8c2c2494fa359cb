import Testing

@testable import ResonanceModel

@Suite("Timestamp")
struct TimestampTests {
  @Test(
    "formats UTC milliseconds as ISO 8601 with a Z",
    arguments: [
      (Int64(0), "1970-01-01T00:00:00Z"),
      (1_705_336_200_000, "2024-01-15T16:30:00Z"),
      (1_705_336_200_250, "2024-01-15T16:30:00.250Z"),
      (951_782_400_000, "2000-02-29T00:00:00Z"),
      (-1, "1969-12-31T23:59:59.999Z"),
      (4_102_444_799_000, "2099-12-31T23:59:59Z"),
    ])
  func formats(milliseconds: Int64, expected: String) {
    #expect(Timestamp.iso8601UTC(millisecondsSinceEpoch: milliseconds) == expected)
  }

  @Test("days from a civil date and back agree over four centuries")
  func civilRoundTrip() {
    for days in stride(from: Int64(-146_097), through: 146_097, by: 37) {
      let (y, m, d) = Timestamp.civil(fromDays: days)
      #expect(Timestamp.days(fromYear: y, month: m, day: d) == days)
    }
    #expect(Timestamp.days(fromYear: 2024, month: 1, day: 15) == 19_737)
  }

  @Test("people see the local time it was lived in, then UTC; a zero offset only once")
  func shown() {
    let evening = Timestamp(millisecondsSinceEpoch: 1_705_336_200_250, utcOffsetSeconds: -28_800)
    #expect(evening.iso8601Local == "2024-01-15T08:30:00-08:00")
    #expect(evening.shown == "2024-01-15 08:30 -08:00 (2024-01-15T16:30:00.250Z)")
    // Kolkata, across midnight UTC: the local day is the next one.
    let india = Timestamp(
      millisecondsSinceEpoch: 1_705_336_200_000 + 8 * 3_600_000, utcOffsetSeconds: 19_800)
    #expect(india.shown == "2024-01-16 06:00 +05:30 (2024-01-16T00:30:00Z)")
    #expect(Timestamp(millisecondsSinceEpoch: 0).shown == "1970-01-01T00:00:00Z")
  }

  @Test("orders by instant, whatever the offset")
  func ordering() {
    let a = Timestamp(millisecondsSinceEpoch: 1000, utcOffsetSeconds: -25_200)
    let b = Timestamp(millisecondsSinceEpoch: 2000, utcOffsetSeconds: 3600)
    #expect(a < b)
    #expect(!(b < a))
  }
}

@Suite("SourceLocation and Diagnostic")
struct SourceLocationTests {
  @Test("prints only what it knows")
  func description() {
    #expect(SourceLocation(file: "export.xml").description == "export.xml")
    #expect(SourceLocation(file: "export.xml", line: 12).description == "export.xml:12")
    #expect(
      SourceLocation(file: "a.zip!export.xml", line: 12, column: 7).description
        == "a.zip!export.xml:12:7")
  }

  @Test("a diagnostic reads like a compiler's")
  func diagnostic() {
    let warning = Diagnostic(
      .warning, "stray 0x0B character", at: SourceLocation(file: "export.xml", line: 3, column: 9))
    #expect(warning.description == "warning: export.xml:3:9: stray 0x0B character")
    #expect(Diagnostic.Severity.note < .warning && Diagnostic.Severity.warning < .error)
  }
}
