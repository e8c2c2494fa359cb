import Foundation
import ResonanceModel
import Testing

@testable import ResonanceReports

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Collects an SVG's elements with their attributes and the group each sits in.
final class SVGElements: NSObject, XMLParserDelegate {
  var elements: [(name: String, attributes: [String: String], inPlot: Bool)] = []
  var texts: [String] = []
  private var groups: [String] = []
  private var text = ""

  static func parse(_ svg: String) -> SVGElements? {
    let collector = SVGElements()
    let parser = XMLParser(data: Data(svg.utf8))
    parser.delegate = collector
    return parser.parse() ? collector : nil
  }

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String] = [:]
  ) {
    elements.append((name, attributes, groups.contains("plot")))
    if name == "g" { groups.append(attributes["class"] ?? "") }
    text = ""
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

  func parser(
    _ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?
  ) {
    if name == "g" { groups.removeLast() }
    if name == "text" || name == "title" { texts.append(text) }
    text = ""
  }
}

@Suite("charts and pages")
struct ChartAndPageTests {
  static func days(_ from: String, _ count: Int) -> [SVGChart.Point] {
    let start = CalendarDay(from)!.daysSinceEpoch
    return (0..<count).map { SVGChart.Point(Double(start + Int64($0)), 50 + Double($0 % 7)) }
  }

  @Test(
    "a chart is XML with its own white background, its title as text, and every mark inside <g class=\"plot\">"
  )
  func structure() throws {
    var chart = SVGChart(title: "Heart & <soul>", xLabel: "local date", yLabel: "bpm")
    chart.xScale = .days
    chart.marks = [
      .band(
        Self.days("2022-06-01", 30).map { .init($0.x, low: $0.y - 2, high: $0.y + 2) }, series: 0),
      .line(Self.days("2022-06-01", 30), series: 0),
      .points(Self.days("2022-06-01", 30), series: 1),
    ]
    chart.legend = ["a", "b"]
    let svg = chart.svg()
    let parsed = try #require(SVGElements.parse(svg), "not XML:\n\(svg)")
    #expect(parsed.elements.first?.name == "svg")
    #expect(parsed.elements.first?.attributes["xmlns"] == "http://www.w3.org/2000/svg")
    let background = try #require(parsed.elements.first { $0.name == "rect" })
    #expect(background.attributes["fill"] == "#ffffff" && background.attributes["width"] == "720.0")
    #expect(parsed.texts.contains("Heart & <soul>"))
    let plot = parsed.elements.filter(\.inPlot)
    #expect(plot.contains { $0.name == "polygon" } && plot.contains { $0.name == "path" })
    #expect(plot.filter { $0.name == "circle" }.count == 30)
    #expect(
      parsed.elements.filter { $0.name == "g" && $0.attributes["class"] == "plot" }.count == 1)
    #expect(chart.svg() == svg)
  }

  @Test("date ticks fall inside the data, at most eight, on month starts over four months")
  func dateTicks() throws {
    var chart = SVGChart(title: "t", xLabel: "x", yLabel: "y")
    chart.xScale = .days
    chart.marks = [.line(Self.days("2022-06-01", 122), series: 0)]
    let labels = try #require(SVGElements.parse(chart.svg())).texts.filter { $0.hasPrefix("2022-") }
    #expect(labels == ["2022-06-01", "2022-07-01", "2022-08-01", "2022-09-01"])
    var week = chart
    week.marks = [.line(Self.days("2022-06-01", 40), series: 0)]
    let weekly = try #require(SVGElements.parse(week.svg())).texts.filter { $0.hasPrefix("2022-") }
    #expect(weekly.first == "2022-06-06" && weekly.count <= 8)
  }

  @Test("a forest plot gives its row labels room, draws a whisker per row and a line at zero")
  func forest() throws {
    var chart = SVGChart(title: "t", xLabel: "bpm", yLabel: "")
    let labels = ["A very long song title — And Its Artist", "Short"]
    chart.yScale = .categories(labels)
    chart.marks = [
      .reference(0, vertical: true),
      .whiskers(
        [.init(0, low: -1, high: 1, estimate: 0.2), .init(1, low: -3, high: -2, estimate: -2.5)],
        series: 0),
    ]
    let parsed = try #require(SVGElements.parse(chart.svg()))
    #expect(parsed.texts.contains(labels[0]))
    let frame = try #require(
      parsed.elements.first { $0.name == "rect" && $0.attributes["fill"] == "none" })
    let left = try #require(Double(frame.attributes["x"] ?? ""))
    #expect(left >= 7 * Double(labels[0].count))
    #expect(parsed.elements.filter { $0.inPlot && $0.name == "line" }.count == 3)
  }

  @Test("pages with nothing to show say why instead of printing empty tables")
  func emptyPages() {
    let range = ReportRange(DayRange())
    let pages = [
      SongsPage.make(
        songs: [], estimates: [], features: [], rankings: [], effects: [], range: range),
      SessionsPage.make(
        sessions: [], overview: SessionOverview(sessions: 0, rated: 0, meanQuality: nil),
        weeks: [], trend: nil, contrast: nil, range: range),
      SleepPage.make(
        evenings: [], comparisons: [], splits: [], range: range, eveningHours: 4,
        eveningMinutes: 10),
      HRVPage.make(
        days: [],
        overview: VitalsOverview(
          days: 0, restingDays: 0, sdnnDays: 0, rmssdDays: 0, meanResting: nil, meanSDNN: nil,
          restingEarlyLate: nil, sdnnEarlyLate: nil), nights: [], range: range),
      BreathingPage.make(
        sessions: [],
        overall: BreathingGroup(
          name: "all", sessions: 0, meanScore: nil, meanBreathsPerMinute: nil,
          meanPhaseLocking: nil), byPattern: [], byMonth: [],
        practice: PracticeEffects(withinSession: nil, days: [], dose: nil), range: range),
      TuningPage.make(sweep: nil, tuning: nil),
    ]
    let reasons = [
      "No song has an estimate yet", "No session in this range", "No night in this range",
      "No day in this range", "No breathing session in this range", "no `resonance tune` run",
    ]
    for (page, reason) in zip(pages, reasons) {
      let text = page.files[0].text
      #expect(text.contains(reason), "\(page.name)")
      #expect(!text.contains("|---"), "\(page.name) printed an empty table")
      #expect(
        page.files.allSatisfy { !$0.name.hasSuffix(".svg") }, "\(page.name) drew an empty chart")
      // The CSVs are still written, with their header.
      #expect(page.files.contains { $0.name.hasSuffix(".csv") } || page.name == "tuning")
    }
  }

  @Test(
    "CSV times carry the offset the moment was lived in, a UTC twin, and the local date and hour")
  func times() {
    let t = Timestamp(millisecondsSinceEpoch: 1_654_095_780_250, utcOffsetSeconds: 7200)
    #expect(ReportTime.iso8601(t) == "2022-06-01T17:03:00+02:00")
    #expect(ReportTime.utc(t) == "2022-06-01T15:03:00Z", "seconds, as the local time keeps them")
    #expect(ReportTime.date(t) == "2022-06-01")
    #expect(ReportTime.hour(t) == 17)
    let west = Timestamp(millisecondsSinceEpoch: 1_654_095_780_000, utcOffsetSeconds: -25200)
    #expect(ReportTime.iso8601(west) == "2022-06-01T08:03:00-07:00")
    #expect(ReportTime.clock(west) == "08:03")
  }

  @Test("the sleep page states the association plainly and its CSV has a row per night")
  func sleepPage() {
    let day = CalendarDay("2022-06-06")!
    let evenings = (0..<12).map { (i: Int) -> EveningNight in
      let shift = Int64(i) * 86_400_000
      let night = NightRecord(
        id: Int64(i), evening: CalendarDay(daysSinceEpoch: day.daysSinceEpoch + Int64(i)),
        bedtime: Timestamp(millisecondsSinceEpoch: 1_654_556_400_000 + shift),
        wake: Timestamp(millisecondsSinceEpoch: 1_654_585_200_000 + shift),
        asleepMs: 25_200_000 + Int64(i % 2) * 3_600_000, deepShare: 0.2, efficiency: 0.9)
      let music = i % 2 == 1
      return EveningNight(
        night: night, eveningMinutes: music ? 40 : 0, eveningMusic: music,
        weekday: i % 7, workoutThatDay: false)
    }
    let comparison = GroupComparison(
      outcome: "asleep_h", label: "time asleep", unit: "h", nightsWith: 6, nightsWithout: 6,
      meanWith: 8, meanWithout: 7, difference: 1, low90: 0.8, high90: 1.2, adjusted: 1,
      adjustedLow90: 0.7, adjustedHigh90: 1.3)
    // An unfavourable outcome on the same page, and one too thin to compare.
    let heart = GroupComparison(
      outcome: "overnight_hr_bpm", label: "overnight heart rate", unit: "bpm", nightsWith: 6,
      nightsWithout: 6, meanWith: 60, meanWithout: 57, difference: 3, low90: 2, high90: 4)
    let deep = GroupComparison(
      outcome: "deep_share_pct", label: "deep sleep", unit: "% of staged sleep", nightsWith: 2,
      nightsWithout: 3, meanWith: 18, meanWithout: 17)
    let page = SleepPage.make(
      evenings: evenings, comparisons: [comparison, deep, heart], splits: [],
      range: ReportRange(DayRange()), eveningHours: 4, eveningMinutes: 10)
    #expect(
      page.headline
        == "after evening music (90% intervals): asleep +60 min (+48 … +72), overnight heart "
        + "rate +3.0 bpm (+2.0 … +4.0) against other nights")
    let text = page.files[0].text
    #expect(text.contains("association, not a cause"))
    #expect(text.contains("+1.00 (+0.80 … +1.20)"))
    let csv = page.files.first { $0.name == "sleep.csv" }!.text
    #expect(csv.split(separator: "\r\n").count == 13)
    #expect(csv.hasPrefix("night_id,evening,bedtime,wake,asleep_h,"))
  }
}

@Suite("hrv's table")
struct HRVTableTests {
  @Test("a figure wider than its column keeps a space before the next one")
  func wideFigures() {
    let metrics = HRVMetrics(
      count: 60, meanNN: 19_565.6, sdnn: 27_670.05, rmssd: 50.0, pnn50: 12.5, sd1: 1.0,
      sd2: 2.0, meanHR: 60.0)
    let series = HRVSeries(
      file: nil, start: Timestamp(millisecondsSinceEpoch: 0), intervals: 60, removed: 0,
      metrics: metrics, frequency: HRVFrequency(lf: nil, hf: nil, lfhf: nil, reason: nil))
    let table = HRVReport.table([series], mean: metrics, artefacts: "off")
    #expect(table.contains("19565.6 27670.1 50.0"), "\(table)")
  }
}

@Suite("songs.md: one source of truth, ranked by effect")
struct SongsPageTests {
  /// Songs 1…14: ids 1–12 lower heart rate with 90% confidence by 1…12 bpm (song 1 the
  /// least), 13 reaches 0 but is below it with a chance of 0.92, 14 (whose long title tests
  /// labels) raises it, 15 cannot be told from 0.
  static let songs = (1...15).map {
    SongRecord(
      id: Int64($0),
      title: $0 == 14 ? "A Very Long Title That Goes On And On Past The Chart" : "Song \($0)",
      artist: "Artist", genre: "pop", plays: 20, skips: 2)
  }

  static func hr(_ id: Int64, _ estimate: Double, sd: Double) -> SongEffectEstimate {
    SongEffectEstimate(
      songID: id, signal: .heartRate, plays: 20, minutes: 60, unpooled: estimate,
      genreMean: 0, estimate: estimate, sd: sd, low90: estimate - 1.645 * sd,
      high90: estimate + 1.645 * sd)
  }

  static let estimates: [SongEffectEstimate] =
    (1...12).map { hr(Int64($0), -Double($0), sd: 0.3) } + [
      hr(13, -1, sd: 0.7), hr(14, 2, sd: 0.5), hr(15, 0.1, sd: 2),
    ]

  @Test(
    "calming songs are those whose interval lies below 0, strongest first, ten at most; likely calming ones are apart and none sits in two lists"
  )
  func calmingLists() throws {
    // The learning loop calls song 14 calming in relax; the model says it raises heart rate.
    let effects = [
      SongEffect(
        songID: 14, context: .relax,
        effect: LearnedSongEffect(calm: 0.8, energy: 0.1, focus: 0, mood: 0, sampleCount: 6),
        updatedAtMs: 0)
    ]
    let page = SongsPage.make(
      songs: Self.songs, estimates: Self.estimates, features: [],
      rankings: [
        (
          .relax,
          [RankedSong(song: Self.songs[13], context: .relax, calm: 0.8, energy: 0.1, samples: 6)],
          []
        )
      ], effects: effects, range: ReportRange(DayRange()))
    let text = try #require(page.files.first { $0.name == "songs.md" }?.text)
    #expect(page.headline.hasSuffix("the most calming: Song 12 — Artist (−12.0 bpm)"))
    let calming = try #require(text.range(of: "#### Calming songs"))
    let likely = try #require(text.range(of: "Likely calming"))
    let energising = try #require(text.range(of: "#### Energising songs"))
    let calmingTable = String(text[calming.upperBound..<likely.lowerBound])
    let rows = calmingTable.split(separator: "\n").filter { $0.hasPrefix("| Song") }
    // Strongest first, ten of twelve, and the page says how many there are.
    #expect(
      rows.first?.hasPrefix("| Song 12 ") == true && rows.last?.hasPrefix("| Song 3 ") == true)
    #expect(rows.count == 10)
    #expect(calmingTable.contains("the 10 strongest of 12"))
    let likelyTable = String(text[likely.lowerBound..<energising.lowerBound])
    #expect(likelyTable.contains("| Song 13 "))
    #expect(!likelyTable.contains("| Song 12 ") && !likelyTable.contains("| A Very Long"))
    #expect(likelyTable.contains("0.92"))
    #expect(
      text[energising.upperBound...].contains(
        "| A Very Long Title That Goes On And On Past The Chart | Artist |"))
    // The DJ's own scores are labelled as its own, and their disagreement is stated.
    #expect(text.contains("These are the DJ's own learned scores"))
    #expect(text.contains("has the sign the model's effect implies for 0 (0%)"))
    #expect(!text.contains("most calming |"))
    // Titles in full in the tables; a chart's shortened label keeps the full one as its title.
    let svg = try #require(page.files.first { $0.name == "songs-hr.svg" }?.text)
    let full = "A Very Long Title That Goes On And On Past The Chart — Artist"
    #expect(svg.contains("<title>\(full)</title>"))
    #expect(text.contains("| \(full) | 0.80 | 6 |"), "the DJ's table, in full")
    #expect(text.contains("a real person's cannot be checked"), "no truth: where it is measured")
  }

  @Test("per context, the model's calming and energising songs there, strongest first")
  func byContext() throws {
    func pair(_ song: Int64, _ context: ActivityContext, _ value: Double, sd: Double)
      -> SongContextEffectEstimate
    {
      SongContextEffectEstimate(
        songID: song, signal: .heartRate, context: context, plays: 5, minutes: 15,
        unpooled: value, overall: -1, estimate: value, sd: sd, low90: value - 1.645 * sd,
        high90: value + 1.645 * sd)
    }
    let pairs = [
      pair(1, .relax, -2, sd: 0.5), pair(2, .relax, -4, sd: 0.5), pair(3, .relax, 3, sd: 0.5),
      pair(4, .relax, -0.5, sd: 1), pair(1, .commute, 0.2, sd: 0.5),
    ]
    let page = SongsPage.make(
      songs: Self.songs, estimates: Self.estimates, features: [], rankings: [], effects: [],
      contextEstimates: pairs, range: ReportRange(DayRange()))
    let text = try #require(page.files.first { $0.name == "songs.md" }?.text)
    let section = try #require(text.range(of: "## Which songs calm me, by context"))
    let rest = String(text[section.upperBound...])
    let relax = try #require(rest.range(of: "### relax"))
    let commute = try #require(rest.range(of: "### commute"))
    let relaxEnd = rest[relax.upperBound...].range(of: "### ")?.lowerBound ?? rest.endIndex
    let relaxTable = String(rest[relax.upperBound..<relaxEnd])
    let rows = relaxTable.split(separator: "\n").filter { $0.hasPrefix("| Song") }
    #expect(rows.map { $0.prefix(9) } == ["| Song 2 ", "| Song 1 ", "| Song 3 "])
    #expect(relaxTable.contains("4 songs estimated here: 2 calming, 1 energising."))
    let commuteEnd = rest[commute.upperBound...].range(of: "### ")?.lowerBound ?? rest.endIndex
    #expect(
      rest[commute.upperBound..<commuteEnd].contains("1 songs estimated here; none apart from 0"))
    let csv = try #require(page.files.first { $0.name == "songs-effects-by-context.csv" }?.text)
    #expect(csv.split(whereSeparator: \.isNewline).count == 6)
  }

  @Test("with a simulated person's truth, the page prints the coverage measured beside 90%")
  func coverage() throws {
    let measured = EffectValidation(
      signal: .heartRate, effectScale: 1, songs: 15, covered: 13, distinguishable: 0,
      distinguishableRightSign: 0, songsWithEightPlays: 0, spearman: nil, spearmanGoal: nil)
    let page = SongsPage.make(
      songs: Self.songs, estimates: Self.estimates, features: [], rankings: [], effects: [],
      coverage: [measured], range: ReportRange(DayRange()))
    let text = try #require(page.files.first { $0.name == "songs.md" }?.text)
    #expect(
      text.contains(
        "with its 90% interval — on this simulated person they cover 87% of the planted "
          + "heart-rate effects (15 songs)"))
  }
}

@Suite("report --html: pages any browser opens, fetching nothing")
struct HTMLReportTests {
  @Test(
    "a page's tables, links and charts: tables rendered, page links to their twins, CSV links kept, the chart inline, markup in text escaped, no script and nothing fetched"
  )
  func page() throws {
    var chart = SVGChart(title: "Effect", xLabel: "x", yLabel: "y")
    chart.marks = [.points([.init(0, 1), .init(1, 2)], series: 0)]
    let files = [
      ReportFile(
        name: "songs.md",
        text: "# Songs: what each one does\n\n"
          + Markdown.table(
            header: ["song", "effect"], rows: [["<script>alert(1)</script>", "−5.6"]],
            alignments: ["l", "r"])
          + "\n![Effect of the songs](songs-hr.svg)\n\n"
          + "Back to [the index](index.md); every song: [songs.csv](songs.csv).\n"),
      ReportFile(name: "songs-hr.svg", text: chart.svg()),
      ReportFile(name: "songs.csv", text: "song_id\r\n1\r\n"),
      ReportFile(name: "index.md", text: "# Index\n\n[Songs](songs.md)\n"),
    ]
    let pages = HTMLReport.pages(files)
    #expect(pages.map(\.name) == ["songs.html", "index.html"])
    let songs = pages[0].text
    #expect(songs.hasPrefix("<!DOCTYPE html>"))
    #expect(songs.contains("<title>Songs: what each one does</title>"))
    #expect(songs.contains("<table>") && songs.contains("<td align=\"right\">−5.6</td>"))
    // The title Markdown.table escaped reaches the page as text.
    #expect(!songs.contains("<script") && songs.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    #expect(songs.contains("href=\"index.html\"") && songs.contains("href=\"songs.csv\""))
    #expect(!songs.contains("<img") && !songs.contains(" src="))
    #expect(songs.contains("<figure class=\"chart\" aria-label=\"Effect of the songs\"><svg"))
    #expect(songs.contains("Content-Security-Policy"))
    #expect(songs.contains("prefers-color-scheme: dark"))
    #expect(pages[1].text.contains("<a href=\"songs.html\">Songs</a>"))
  }
}

@Suite("tuning.md: the reason in plain words")
struct TuningPageWordsTests {
  /// A five-month tune whose folds chose something, with the pooled and held-out intervals
  /// given.
  static func report(
    _ recommendation: PreferenceFile.Recommendation, forward: (Double, Double),
    heldOut: (Double, Double)
  ) -> TuningReport {
    var candidate = UserPreferences.appDefault
    candidate.weights.bpm = 0.4
    var report = TuningReport(
      recommendation: recommendation, reason: "the rule's own words",
      inForce: .appDefault, recommended: recommendation == .change ? candidate : .appDefault,
      candidate: candidate, reward: .keep, estimator: .dr,
      design: SweepDesign(kind: .sobol, points: 64), decisions: 3_000,
      months: ["2024-01", "2024-02", "2024-03", "2024-04", "2024-05"], from: "2024-01-01",
      to: "2024-05-31", excluded: [:],
      replay: ReplaySummary(
        replayed: 3_000, byVersion: [2: 3_000], notReplayable: [:], largestScoreDifference: 0,
        largestPropensityRelativeDifference: 0, firstMismatch: nil),
      selectionGain: 0.03, selectionESS: 900,
      folds: ["2024-02", "2024-03", "2024-04", "2024-05"].map {
        TuningFold(month: $0, decisions: 600, gain: 0.02)
      },
      heldOut: HeldOutEvidence(
        month: "2024-05", decisions: 600, inForceValue: 0.5, chosenValue: 0.52,
        gain: .init(estimate: 0.02, lower: heldOut.0, upper: heldOut.1, level: 0.95),
        effectiveSampleSize: 400, largestWeight: 5, agreementShare: 0.3, clipping: [],
        keepChangePer100: 2),
      contexts: [], pairwise: nil, minimumESS: 200, level: 0.95, margin: 0.01)
    report.forwardGain = .init(estimate: 0.02, lower: forward.0, upper: forward.1, level: 0.95)
    report.judgedDecisions = 2_400
    return report
  }

  @Test(
    "each outcome of the rule is said in plain words, the three conditions are tabled, and the candidate column shows only with a candidate"
  )
  func plainWords() throws {
    let change = TuningPage.make(
      sweep: nil, tuning: Self.report(.change, forward: (0.012, 0.028), heldOut: (0.005, 0.035)))
    let text = try #require(change.files.first?.text)
    #expect(text.contains("In plain words: choosing weights on each month's past did better"))
    #expect(text.contains("by at least +0.012 — more than the 0.01 worth a change"))
    #expect(text.contains("| the pooled gain's lower end is above the margin, 0.010 | yes |"))
    #expect(text.contains("| component | in force | candidate | recommended |"))

    let notZero = TuningPage.make(
      sweep: nil, tuning: Self.report(.keep, forward: (0.012, 0.028), heldOut: (-0.004, 0.044)))
    let kept = try #require(notZero.files.first?.text)
    #expect(kept.contains("did not clearly beat yours on 2024-05"), "\(kept)")
    #expect(kept.contains("could be as low as −0.004"))
    #expect(
      kept.contains("| the chosen preferences' own lower end on the last month is above 0 | no |"))

    let notMargin = TuningPage.make(
      sweep: nil, tuning: Self.report(.keep, forward: (0.004, 0.036), heldOut: (0.005, 0.035)))
    let short = try #require(notMargin.files.first?.text)
    #expect(short.contains("could be as small as +0.004, not above the 0.01 worth a change"))
  }
}
