import Testing

@testable import ResonanceIO

@Suite("Fixed-layout date parsing")
struct FixedDateParserTests {
  func health(_ text: String) -> (String, Int32)? {
    var text = text
    return text.withUTF8 { FixedDateParser.healthDate($0) }.map {
      ($0.iso8601UTC, $0.utcOffsetSeconds)
    }
  }

  func timeOfDay(_ text: String) -> Int? {
    var text = text
    return text.withUTF8 { FixedDateParser.timeOfDay($0) }.map(Int.init)
  }

  @Test("Health export dates, with their offset")
  func healthDates() {
    #expect(health("2024-01-15 08:30:00 -0800")! == ("2024-01-15T16:30:00Z", -28_800))
    #expect(health("2016-11-14 07:25:41 +0530")! == ("2016-11-14T01:55:41Z", 19_800))
    #expect(health("2024-01-15 08:30:00") == nil)
    #expect(health("2024-13-15 08:30:00 -0800") == nil)
    #expect(health("2024-01-15T08:30:00 -0800") == nil)
  }

  @Test("times of day in the locale formats beat lists use")
  func times() {
    #expect(timeOfDay("6:14:48.94 PM") == ((18 * 60 + 14) * 60 + 48) * 1000 + 940)
    #expect(timeOfDay("12:00:00.88 AM") == 880)
    #expect(timeOfDay("12:30:00.00 PM") == 45_000_000)
    #expect(timeOfDay("20:14:07.68") == ((20 * 60 + 14) * 60 + 7) * 1000 + 680)
    #expect(timeOfDay("08:34:05,10") == ((8 * 60 + 34) * 60 + 5) * 1000 + 100)
    #expect(timeOfDay("6:14:48.94\u{202F}PM") == ((18 * 60 + 14) * 60 + 48) * 1000 + 940)
    #expect(timeOfDay("noon") == nil)
    #expect(timeOfDay("25:00:00") == nil)
  }
}
