import ResonanceModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A progress bar for long work, drawn on standard error: done/total, rate and ETA.
///
/// It draws only when standard error is a terminal and the command is not `--quiet`, so logs
/// and pipes never see it. Redraws are throttled to ten a second, so calling `update` per
/// record costs a clock read.
///
/// ```
/// ingest export.xml [=========>          ]  47%  141.2/300.0 MB  152.3 MB/s  ETA 0:01
/// ```
package final class ProgressReporter {
  /// What the counts measure, which decides how they are printed: items by name, bytes in
  /// MB (10⁶ bytes).
  package typealias Unit = WorkUnit

  private let label: String
  private let total: Int64?
  private let unit: Unit
  private let console: any Console
  private let isEnabled: Bool
  private let start: Double
  private var lastDraw = -Double.infinity
  private var drewSomething = false

  /// - Parameters:
  ///   - label: what is being done, e.g. `ingest export.xml`.
  ///   - total: the count at which the work is done, when known; without it no bar or ETA.
  ///   - isEnabled: pass `false` under `--quiet`; the console's terminal check is added.
  package init(
    label: String, total: Int64?, unit: Unit, console: any Console, isEnabled: Bool
  ) {
    self.label = label
    self.total = total
    self.unit = unit
    self.console = console
    self.isEnabled = isEnabled && console.isErrorTerminal
    self.start = ProgressReporter.monotonicSeconds()
  }

  /// Reports that `done` units are finished; redraws when 0.1 s have passed since the last.
  package func update(_ done: Int64) {
    guard isEnabled else { return }
    let now = ProgressReporter.monotonicSeconds()
    guard now - lastDraw >= 0.1 else { return }
    lastDraw = now
    drewSomething = true
    let text = ProgressReporter.line(
      label: label, done: done, total: total, unit: unit, elapsedSeconds: now - start)
    console.progress(text)
  }

  /// Clears the bar, leaving the line free for the command's summary.
  package func finish() {
    guard isEnabled, drewSomething else { return }
    console.progress("")
  }

  /// The text of one frame of the bar; pure, so tests can pin it.
  package static func line(
    label: String, done: Int64, total: Int64?, unit: Unit, elapsedSeconds: Double,
    barWidth: Int = 20
  ) -> String {
    var parts = [label]
    let rate = elapsedSeconds > 0 ? Double(done) / elapsedSeconds : 0
    if let total, total > 0 {
      let fraction = min(1, max(0, Double(done) / Double(total)))
      let filled = Int((fraction * Double(barWidth)).rounded(.down))
      var bar = String(repeating: "=", count: filled)
      if filled < barWidth {
        bar += ">" + String(repeating: " ", count: barWidth - filled - 1)
      }
      parts.append("[\(bar)]")
      parts.append(pad("\(Int((fraction * 100).rounded(.down)))%", 4))
      parts.append("\(amount(done, unit, withUnit: false))/\(amount(total, unit, withUnit: true))")
    } else {
      parts.append(amount(done, unit, withUnit: true))
    }
    parts.append(rateText(rate, unit))
    if let total, total > 0, rate > 0, done < total {
      parts.append("ETA \(Format.clock(Double(total - done) / rate))")
    }
    return parts.joined(separator: "  ")
  }

  private static func amount(_ value: Int64, _ unit: Unit, withUnit: Bool) -> String {
    switch unit {
    case .bytes:
      let text = Format.fixed(Double(value) / 1e6, 1)
      return withUnit ? text + " MB" : text
    case .items(let name):
      return withUnit ? "\(Format.grouped(value)) \(name)" : Format.grouped(value)
    }
  }

  private static func rateText(_ rate: Double, _ unit: Unit) -> String {
    switch unit {
    case .bytes: return Format.fixed(rate / 1e6, 1) + " MB/s"
    case .items(let name):
      return rate >= 10_000
        ? Format.fixed(rate / 1000, 1) + "k \(name)/s" : "\(Int(rate)) \(name)/s"
    }
  }

  private static func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
  }

  private static func monotonicSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }
}
