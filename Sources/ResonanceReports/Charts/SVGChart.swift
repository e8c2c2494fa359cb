import ResonanceModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Charts as self-contained SVG, the way GitHub shows them (through `<img>`, so no scripts
/// and no external references): a white background of their own, so they read the same in a
/// light and a dark page; axes with units; text as text; every mark inside one
/// `<g class="plot">` group. `docs/reports.md` says why resonance writes its own SVG rather
/// than call gnuplot.
///
/// A chart is a frame (title, axis labels, the ranges) and marks: lines, bands (an interval
/// along x), points, and whiskers (an interval per row, for forest plots). Coordinates are
/// written with one decimal, so the same data give the same bytes on every machine.
package struct SVGChart: Sendable {
  /// One thing drawn.
  package enum Mark: Sendable {
    /// A polyline through the points, in x order; a gap where a point is missing.
    case line([Point], series: Int)
    /// The area between a lower and an upper value along x.
    case band([Interval], series: Int)
    /// Dots.
    case points([Point], series: Int)
    /// Larger dots with a dark ring, drawn over the rest: the points a reader should find.
    case markers([Point], series: Int)
    /// A horizontal interval with a dot at its estimate, one per category row (y is the
    /// row's index, from the top).
    case whiskers([Interval], series: Int)
    /// A horizontal reference line at a y value (or vertical at an x value, for forest plots).
    case reference(Double, vertical: Bool)
  }

  package struct Point: Sendable, Equatable {
    package var x: Double
    package var y: Double
    package init(_ x: Double, _ y: Double) {
      self.x = x
      self.y = y
    }
  }

  /// An interval at a position: along x for a band (position x, values low…high in y), along
  /// y for whiskers (position the row, values low…high in x, `estimate` the dot).
  package struct Interval: Sendable, Equatable {
    package var position: Double
    package var low: Double
    package var high: Double
    package var estimate: Double?
    package init(_ position: Double, low: Double, high: Double, estimate: Double? = nil) {
      self.position = position
      self.low = low
      self.high = high
      self.estimate = estimate
    }
  }

  /// How an axis labels its ticks.
  package enum Scale: Sendable, Equatable {
    /// Numbers.
    case linear
    /// Days since 1970-01-01, labelled as dates.
    case days
    /// Category rows (whiskers): the labels, top to bottom.
    case categories([String])
  }

  /// With `.categories`, each row's full name when its label is shortened (aligned with the
  /// rows; empty for none): a reader sees it on hovering the label, and a screen reader or a
  /// search reads it from the label's `<title>`.
  package var categoryTitles: [String] = []

  package var title: String
  package var xLabel: String
  package var yLabel: String
  package var xScale: Scale = .linear
  package var yScale: Scale = .linear
  package var marks: [Mark] = []
  /// The series' names, for the legend (none for a single unnamed series).
  package var legend: [String] = []
  /// The series each legend entry names, when not 0, 1, 2, … in order.
  package var legendSeries: [Int] = []
  package var width = 720.0
  package var height = 360.0

  package init(title: String, xLabel: String, yLabel: String) {
    self.title = title
    self.xLabel = xLabel
    self.yLabel = yLabel
  }

  /// Colours per series: a palette readable by people with the common colour-vision
  /// deficiencies (Okabe and Ito), on white.
  static let palette = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"]

  /// The SVG text.
  package func svg() -> String {
    var left = 64.0
    if case .categories(let rows) = yScale {
      // Room for the longest row label at about 7.4 px a character (DejaVu Sans, 12 px).
      left = min(380, 20 + 7.4 * Double(rows.map(\.count).max() ?? 0))
    }
    let right = xScale == .days ? 44.0 : 24.0
    let (top, bottom) = (40.0, legend.isEmpty ? 52.0 : 72.0)
    let plotWidth = width - left - right
    let plotHeight = height - top - bottom
    let (xRange, yRange) = ranges()
    let xTicks = ticks(xRange, scale: xScale)
    let yTicks = ticks(yRange, scale: yScale)
    let xMin = xScale == .days ? xRange.lowerBound : xTicks.first?.value ?? xRange.lowerBound
    let xMax = xScale == .days ? xRange.upperBound : xTicks.last?.value ?? xRange.upperBound
    let yMin = yTicks.first?.value ?? yRange.lowerBound
    let yMax = yTicks.last?.value ?? yRange.upperBound
    func px(_ x: Double) -> Double {
      left + (xMax > xMin ? (x - xMin) / (xMax - xMin) : 0.5) * plotWidth
    }
    func py(_ y: Double) -> Double {
      if case .categories(let rows) = yScale {
        return top + (y + 0.5) / Double(max(1, rows.count)) * plotHeight
      }
      return top + (yMax > yMin ? (yMax - y) / (yMax - yMin) : 0.5) * plotHeight
    }
    var out = """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(n(width))" height="\(n(height))" \
      viewBox="0 0 \(n(width)) \(n(height))" font-family="Helvetica, Arial, sans-serif" \
      font-size="12" role="img">

      """
    out += "<title>\(escaped(title))</title>\n"
    out += "<rect class=\"background\" x=\"0\" y=\"0\" width=\"\(n(width))\" "
    out += "height=\"\(n(height))\" fill=\"#ffffff\"/>\n"
    out += "<text x=\"\(n(left))\" y=\"22\" font-size=\"15\" fill=\"#111111\">"
    out += "\(escaped(title))</text>\n"
    // Grid and ticks.
    out += "<g class=\"axes\" stroke=\"#dddddd\" stroke-width=\"1\">\n"
    for tick in yTicks {
      out += "<line x1=\"\(n(left))\" y1=\"\(n(py(tick.value)))\" x2=\"\(n(left + plotWidth))\" "
      out += "y2=\"\(n(py(tick.value)))\"/>\n"
    }
    if !yScale.isCategories {
      for tick in xTicks {
        out += "<line x1=\"\(n(px(tick.value)))\" y1=\"\(n(top))\" x2=\"\(n(px(tick.value)))\" "
        out += "y2=\"\(n(top + plotHeight))\"/>\n"
      }
    }
    out += "<rect x=\"\(n(left))\" y=\"\(n(top))\" width=\"\(n(plotWidth))\" "
    out += "height=\"\(n(plotHeight))\" fill=\"none\" stroke=\"#888888\"/>\n"
    out += "</g>\n"
    out += "<g class=\"ticks\" fill=\"#333333\">\n"
    for tick in xTicks {
      out += "<text x=\"\(n(px(tick.value)))\" y=\"\(n(top + plotHeight + 16))\" "
      out += "text-anchor=\"middle\">\(escaped(tick.label))</text>\n"
    }
    for (i, tick) in yTicks.enumerated() {
      out += "<text x=\"\(n(left - 6))\" y=\"\(n(py(tick.value) + 4))\" "
      out += "text-anchor=\"end\">\(escaped(tick.label))"
      if yScale.isCategories, i < categoryTitles.count, categoryTitles[i] != tick.label {
        out += "<title>\(escaped(categoryTitles[i]))</title>"
      }
      out += "</text>\n"
    }
    out += "</g>\n"
    out += "<text class=\"x-label\" x=\"\(n(left + plotWidth / 2))\" "
    out += "y=\"\(n(top + plotHeight + 36))\" text-anchor=\"middle\" fill=\"#111111\">"
    out += "\(escaped(xLabel))</text>\n"
    if !yScale.isCategories {
      let y = top + plotHeight / 2
      out += "<text class=\"y-label\" x=\"16\" y=\"\(n(y))\" text-anchor=\"middle\" "
      out += "transform=\"rotate(-90 16 \(n(y)))\" fill=\"#111111\">\(escaped(yLabel))</text>\n"
    }
    // The marks.
    out += "<g class=\"plot\">\n"
    for mark in marks {
      switch mark {
      case .band(let intervals, let series):
        let ordered = intervals.sorted { $0.position < $1.position }
        guard ordered.count > 1 else { continue }
        let upper = ordered.map { "\(n(px($0.position))),\(n(py($0.high)))" }
        let lower = ordered.reversed().map { "\(n(px($0.position))),\(n(py($0.low)))" }
        out += "<polygon points=\"\((upper + lower).joined(separator: " "))\" "
        out += "fill=\"\(color(series))\" fill-opacity=\"0.18\" stroke=\"none\"/>\n"
      case .line(let points, let series):
        for run in runs(points.sorted { $0.x < $1.x }) where !run.isEmpty {
          if run.count == 1 {
            out += "<circle cx=\"\(n(px(run[0].x)))\" cy=\"\(n(py(run[0].y)))\" r=\"2.5\" "
            out += "fill=\"\(color(series))\"/>\n"
            continue
          }
          let d = run.enumerated().map { i, p in
            (i == 0 ? "M" : "L") + "\(n(px(p.x))),\(n(py(p.y)))"
          }
          out += "<path d=\"\(d.joined(separator: " "))\" fill=\"none\" "
          out += "stroke=\"\(color(series))\" stroke-width=\"2\"/>\n"
        }
      case .points(let points, let series):
        for p in points where p.x.isFinite && p.y.isFinite {
          out += "<circle cx=\"\(n(px(p.x)))\" cy=\"\(n(py(p.y)))\" r=\"3\" "
          out += "fill=\"\(color(series))\" fill-opacity=\"0.75\"/>\n"
        }
      case .markers(let points, let series):
        for p in points where p.x.isFinite && p.y.isFinite {
          out += "<circle cx=\"\(n(px(p.x)))\" cy=\"\(n(py(p.y)))\" r=\"6\" "
          out += "fill=\"\(color(series))\" stroke=\"#111111\" stroke-width=\"1.5\"/>\n"
        }
      case .whiskers(let intervals, let series):
        for row in intervals {
          let y = py(row.position)
          out += "<line x1=\"\(n(px(row.low)))\" y1=\"\(n(y))\" x2=\"\(n(px(row.high)))\" "
          out += "y2=\"\(n(y))\" stroke=\"\(color(series))\" stroke-width=\"2\"/>\n"
          if let estimate = row.estimate {
            out += "<circle cx=\"\(n(px(estimate)))\" cy=\"\(n(y))\" r=\"3.5\" "
            out += "fill=\"\(color(series))\"/>\n"
          }
        }
      case .reference(let value, let vertical):
        if vertical {
          out += "<line x1=\"\(n(px(value)))\" y1=\"\(n(top))\" x2=\"\(n(px(value)))\" "
          out += "y2=\"\(n(top + plotHeight))\" stroke=\"#555555\" stroke-dasharray=\"4 3\"/>\n"
        } else {
          out += "<line x1=\"\(n(left))\" y1=\"\(n(py(value)))\" x2=\"\(n(left + plotWidth))\" "
          out += "y2=\"\(n(py(value)))\" stroke=\"#555555\" stroke-dasharray=\"4 3\"/>\n"
        }
      }
    }
    out += "</g>\n"
    if !legend.isEmpty {
      out += "<g class=\"legend\" fill=\"#111111\">\n"
      var x = left
      let y = height - 14
      for (i, name) in legend.enumerated() {
        out += "<rect x=\"\(n(x))\" y=\"\(n(y - 9))\" width=\"10\" height=\"10\" "
        out += "fill=\"\(color(i < legendSeries.count ? legendSeries[i] : i))\"/>\n"
        out += "<text x=\"\(n(x + 14))\" y=\"\(n(y))\">\(escaped(name))</text>\n"
        x += 28 + 7 * Double(name.count)
      }
      out += "</g>\n"
    }
    out += "</svg>\n"
    return out
  }

  /// The data's extent in x and y, padded a little; categories span their rows.
  private func ranges() -> (ClosedRange<Double>, ClosedRange<Double>) {
    var xs: [Double] = []
    var ys: [Double] = []
    for mark in marks {
      switch mark {
      case .line(let points, _), .points(let points, _), .markers(let points, _):
        xs += points.map(\.x)
        ys += points.map(\.y)
      case .band(let intervals, _):
        xs += intervals.map(\.position)
        ys += intervals.flatMap { [$0.low, $0.high] }
      case .whiskers(let intervals, _):
        xs += intervals.flatMap { [$0.low, $0.high] + ($0.estimate.map { [$0] } ?? []) }
      case .reference(let value, let vertical):
        if vertical { xs.append(value) } else { ys.append(value) }
      }
    }
    func span(_ values: [Double]) -> ClosedRange<Double> {
      let finite = values.filter(\.isFinite)
      guard let low = finite.min(), let high = finite.max() else { return 0...1 }
      if low == high { return (low - 1)...(high + 1) }
      return low...high
    }
    return (span(xs), span(ys))
  }

  /// Ticks at round values (1, 2 or 5 × 10^k) that cover the range; dates for days.
  private func ticks(_ range: ClosedRange<Double>, scale: Scale) -> [(value: Double, label: String)]
  {
    switch scale {
    case .categories(let rows):
      return rows.enumerated().map { (Double($0.offset), $0.element) }
    case .days:
      // Inside the data's range, at most about seven labels: every day or two, Mondays a
      // week or two apart, or the first of every month, second month, quarter or half year.
      let low = Int64(range.lowerBound.rounded(.up))
      let high = Int64(range.upperBound.rounded(.down))
      let span = high - low
      var days: [Int64] = []
      if span <= 14 {
        days = Array(stride(from: low, through: high, by: span <= 7 ? 1 : 2))
      } else if span <= 90 {
        let monday = low + (7 - Self.weekday(low)) % 7
        days = Array(stride(from: monday, through: high, by: span <= 45 ? 7 : 14))
      } else {
        let months: Int64 = span <= 200 ? 1 : span <= 400 ? 2 : span <= 800 ? 3 : 6
        var (year, month, _) = Timestamp.civil(fromDays: low)
        var day = Timestamp.days(fromYear: year, month: month, day: 1)
        while day <= high {
          if day >= low, (month - 1) % months == 0 { days.append(day) }
          month += 1
          if month > 12 {
            month = 1
            year += 1
          }
          day = Timestamp.days(fromYear: year, month: month, day: 1)
        }
      }
      return days.map { (Double($0), CalendarDay(daysSinceEpoch: $0).description) }
    case .linear:
      let span = range.upperBound - range.lowerBound
      let raw = span / 5
      let magnitude = pow(10, (raw > 0 ? log10(raw) : 0).rounded(.down))
      let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? raw
      let first = (range.lowerBound / step).rounded(.down) * step
      let last = (range.upperBound / step).rounded(.up) * step
      let places = max(0, -Int(log10(step).rounded(.down)))
      return stride(from: first, through: last + step / 2, by: step).map {
        ($0, Format.fixed($0, places))
      }
    }
  }

  /// The points split where one is missing (NaN).
  private func runs(_ points: [Point]) -> [[Point]] {
    var runs: [[Point]] = [[]]
    for p in points {
      if p.y.isFinite && p.x.isFinite {
        runs[runs.count - 1].append(p)
      } else if !runs[runs.count - 1].isEmpty {
        runs.append([])
      }
    }
    return runs
  }

  /// Monday 0 … Sunday 6 of a day count (1970-01-01 was a Thursday).
  static func weekday(_ days: Int64) -> Int64 { ((days + 3) % 7 + 7) % 7 }

  private func color(_ series: Int) -> String { Self.palette[series % Self.palette.count] }

  /// A coordinate with one decimal.
  private func n(_ value: Double) -> String { Format.fixed(value, 1) }

  /// Text for XML: `&`, `<`, `>` and `"` escaped, and every character XML 1.0 forbids (the
  /// C0 controls but tab and line breaks, which are spaces here, and U+FFFE/U+FFFF) as U+FFFD,
  /// so a title with an ESC byte leaves the file well-formed.
  private func escaped(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "\t", "\n", "\r": out += " "
      case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
        out += "\u{FFFD}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}

extension SVGChart.Scale {
  var isCategories: Bool {
    if case .categories = self { return true }
    return false
  }
}
