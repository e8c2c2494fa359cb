import Testing

@testable import ResonanceModel

@Suite("The error ledger: tune's error rate spent across runs")
struct ErrorLedgerTests {
  static let family = #"{"weights":"app"}"#

  /// Runs through each month of `through` in turn, recording each new line; what each spent.
  static func runs(_ through: [String], first: String = "2024-01", alpha: Double = 0.05)
    -> (spent: [Double], entries: [ErrorLedger.Entry])
  {
    var entries: [ErrorLedger.Entry] = []
    var spent: [Double] = []
    for month in through {
      let allowance = ErrorLedger.allowance(
        family: family, first: first, through: month, alpha: alpha, entries: entries)
      spent.append(allowance.spent)
      if allowance.kind == .new, let entry = allowance.entry { entries.append(entry) }
    }
    return (spent, entries)
  }

  @Test(
    "an experiment takes half of what the family has left; tune's later runs never spend past the rest, so tune and experiments together stay within α"
  )
  func experimentsShareTheBudget() throws {
    let (_, entries) = Self.runs(["2024-04"])  // 4/7 of α spent
    let other = ErrorLedger.Reservation(family: "other", seed: 1, start: "2024-05-01", alpha: 0.04)
    let first = ErrorLedger.experimentShare(
      family: Self.family, alpha: 0.05, entries: entries, reserved: [other])
    #expect(abs(first - 0.05 * 3 / 7 / 2) < 1e-15, "another family's experiment is not this one's")
    let held = ErrorLedger.Reservation(
      family: Self.family, seed: 1, start: "2024-05-01", alpha: first)
    let second = ErrorLedger.experimentShare(
      family: Self.family, alpha: 0.05, entries: entries, reserved: [held, other])
    #expect(abs(second - first / 2) < 1e-15)

    // Monthly tune runs for ten years beside the experiment: their schedule would reach
    // α·120/123 in all, but they stop at what the experiment leaves.
    var all = entries
    var total = entries.reduce(0) { $0 + $1.spent }
    for month in 5...124 {
      let through =
        "\(2024 + (month - 1) / 12)-" + (((month - 1) % 12 + 1) < 10 ? "0" : "")
        + "\((month - 1) % 12 + 1)"
      let allowance = ErrorLedger.allowance(
        family: Self.family, first: "2024-01", through: through, alpha: 0.05, entries: all,
        reserved: [held, other])
      #expect(allowance.kind == .new)
      total += allowance.spent
      if let entry = allowance.entry { all.append(entry) }
    }
    #expect(total + held.alpha <= 0.05 + 1e-15)
    #expect(total + held.alpha > 0.05 - 1e-9, "the rest is spent, not lost")
    // Without the experiment the same runs would have spent their schedule: more.
    let (plain, _) = Self.runs(
      (5...124).map { m in
        "\(2024 + (m - 1) / 12)-" + (((m - 1) % 12 + 1) < 10 ? "0" : "") + "\((m - 1) % 12 + 1)"
      })
    #expect(plain.reduce(0, +) > total - entries.reduce(0) { $0 + $1.spent })
  }

  @Test("the share is n/(n+3): half by the third month, four fifths by the twelfth")
  func share() {
    #expect(ErrorLedger.share(months: 0) == 0)
    #expect(ErrorLedger.share(months: 3) == 0.5)
    #expect(abs(ErrorLedger.share(months: 6) - 2.0 / 3) < 1e-15)
    #expect(ErrorLedger.share(months: 12) == 0.8)
  }

  @Test("a first run through four months spends 4/7 of α; the next month, the difference")
  func firstAndNext() throws {
    let first = ErrorLedger.allowance(
      family: Self.family, first: "2024-01", through: "2024-04", alpha: 0.05, entries: [])
    #expect(first.kind == .new && first.newestBefore == nil && first.spentBefore == 0)
    #expect(abs(first.spent - 0.05 * 4 / 7) < 1e-15)
    let entry = try #require(first.entry)
    #expect(entry.months == 4 && entry.firstMonth == "2024-01" && entry.throughMonth == "2024-04")
    let next = ErrorLedger.allowance(
      family: Self.family, first: "2024-01", through: "2024-05", alpha: 0.05, entries: [entry])
    #expect(next.kind == .new && next.newestBefore == "2024-04")
    #expect(abs(next.spent - 0.05 * (5.0 / 8 - 4.0 / 7)) < 1e-15)
    #expect(abs(next.spentBefore - first.spent) < 1e-15)
    // Three months later instead: the three new months' share at once.
    let later = ErrorLedger.allowance(
      family: Self.family, first: "2024-01", through: "2024-07", alpha: 0.05, entries: [entry])
    #expect(abs(later.spent - 0.05 * (7.0 / 10 - 4.0 / 7)) < 1e-15)
  }

  @Test("the months count from the family's first month, whatever --from a later run takes")
  func originIsTheFamilys() throws {
    let (_, entries) = Self.runs(["2024-04"])
    let trimmed = ErrorLedger.allowance(
      family: Self.family, first: "2024-03", through: "2024-05", alpha: 0.05, entries: entries)
    #expect(trimmed.entry?.months == 5 && trimmed.entry?.firstMonth == "2024-01")
    // Across a new year.
    let (_, december) = Self.runs(["2024-12"], first: "2024-10")
    let january = ErrorLedger.allowance(
      family: Self.family, first: "2024-10", through: "2025-01", alpha: 0.05, entries: december)
    #expect(january.entry?.months == 4)
  }

  @Test("a run again through a tested month repeats its test: the same spending, no new line")
  func repeated() {
    let (spent, entries) = Self.runs(["2024-04", "2024-05", "2024-04", "2024-05"])
    #expect(entries.count == 2)
    #expect(spent[2] == spent[0] && spent[3] == spent[1])
    let again = ErrorLedger.allowance(
      family: Self.family, first: "2024-01", through: "2024-04", alpha: 0.2, entries: entries)
    #expect(again.kind == .repeated && again.spent == spent[0], "a new --level spends no more")
  }

  @Test("a run through an untested month before the newest spends nothing")
  func retrospective() {
    let (_, entries) = Self.runs(["2024-06"])
    let back = ErrorLedger.allowance(
      family: Self.family, first: "2024-01", through: "2024-05", alpha: 0.05, entries: entries)
    #expect(back.kind == .retrospective && back.spent == 0 && back.entry == nil)
    #expect(back.newestBefore == "2024-06")
  }

  @Test("other preferences in force have a budget of their own")
  func families() {
    let (_, entries) = Self.runs(["2024-04", "2024-05", "2024-06"])
    let other = ErrorLedger.allowance(
      family: #"{"weights":"tuned"}"#, first: "2024-01", through: "2024-07", alpha: 0.05,
      entries: entries)
    #expect(other.kind == .new && other.spentBefore == 0 && other.newestBefore == nil)
    #expect(abs(other.spent - 0.05 * 0.7) < 1e-15)
  }

  @Test("ten years of monthly runs spend less than α in all")
  func neverMoreThanAlpha() {
    let months = (3..<123).map { n in
      let m = 2024 * 12 + n
      return "\(m / 12)-" + (m % 12 + 1 < 10 ? "0" : "") + "\(m % 12 + 1)"
    }
    let (spent, entries) = Self.runs(months)
    #expect(entries.count == 120)
    #expect(spent.allSatisfy { $0 > 0 })
    let total = spent.reduce(0, +)
    #expect(total < 0.05 && abs(total - 0.05 * 123 / 126) < 1e-12)
  }

  @Test("months parse as YYYY-MM only", arguments: ["2024-1", "24-01", "2024-13", "x", ""])
  func badMonths(text: String) {
    #expect(ErrorLedger.index(text) == nil)
  }
}
