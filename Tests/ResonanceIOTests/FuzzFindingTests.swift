import Testing

@testable import ResonanceIO

/// The inputs `make fuzz` found that crashed the parsers here (docs/reliability.md, "Fuzzing").
@Suite("Inputs the fuzz harnesses found, at the parsers")
struct FuzzFindingTests {
  func timeOfDay(_ text: String) -> Int? {
    var text = text
    return text.withUTF8 { FixedDateParser.timeOfDay($0) }.map(Int.init)
  }

  /// HealthXML harness: twenty digits overflowed the hour's arithmetic.
  @Test(
    "a time of day whose hour, minute or second has more than two digits is none",
    arguments: [
      "10000000000000000000", "99999999999999999999:00:00", "6:14:4800000000000000000000",
      "006:14:48",
    ])
  func timeOfDayDigits(text: String) {
    #expect(timeOfDay(text) == nil)
  }

  @Test("one or two digits still read")
  func timeOfDayShort() {
    #expect(timeOfDay("6:14:48.94 PM") == ((18 * 60 + 14) * 60 + 48) * 1000 + 940)
    #expect(timeOfDay("20:4:7,10") == ((20 * 60 + 4) * 60 + 7) * 1000 + 100)
  }
}
