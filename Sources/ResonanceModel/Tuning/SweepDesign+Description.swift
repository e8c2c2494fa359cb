/// A design in words, as `sweep_runs.design`, the stored tuning report and every output that
/// names the design say it: `sobol (1024 points)`, `random (500 points, seed 7)`,
/// `grid, step 0.1 (36036 points)`.
///
/// The text is also the design's `Codable` form (a single string), so the JSON the store keeps
/// is the one it kept when the design travelled as text.
extension SweepDesign: CustomStringConvertible, Codable {
  /// The design in words: its kind, the parameters it reads and its size.
  package var description: String {
    switch kind {
    case .sobol: "sobol (\(points) points)"
    case .random: "random (\(points) points, seed \(seed))"
    case .grid: "grid, step \(step) (\(count) points)"
    }
  }

  /// The design `description` names; nil when the text is not exactly what `description`
  /// writes (so a grid's size must be the one its step gives). The parameters the kind does
  /// not read take their defaults.
  package init?(description text: String) {
    func number(_ text: Substring, suffix: String) -> Substring? {
      text.hasSuffix(suffix) ? text.dropLast(suffix.count) : nil
    }
    if text.hasPrefix("sobol (") {
      guard let n = number(text.dropFirst("sobol (".count), suffix: " points)"),
        let points = Int(n)
      else { return nil }
      self.init(kind: .sobol, points: points)
    } else if text.hasPrefix("random (") {
      let rest = text.dropFirst("random (".count)
      let parts = rest.split(separator: " points, seed ", maxSplits: 1)
      guard parts.count == 2, let points = Int(parts[0]),
        let s = number(parts[1], suffix: ")"), let seed = UInt64(s)
      else { return nil }
      self.init(kind: .random, points: points, seed: seed)
    } else if text.hasPrefix("grid, step ") {
      let rest = text.dropFirst("grid, step ".count)
      let parts = rest.split(separator: " (", maxSplits: 1)
      // A step whose 1/step is past 1,000 would overflow the count; no grid has one.
      guard parts.count == 2, let step = Double(parts[0]), step >= 0.001, step <= 1 else {
        return nil
      }
      self.init(kind: .grid, step: step)
    } else {
      return nil
    }
    guard description == text else { return nil }
  }

  /// Decodes the design from its description.
  ///
  /// - Throws: `DecodingError.dataCorrupted` when the string is not a design's description.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let design = SweepDesign(description: text) else {
      throw DecodingError.dataCorruptedError(
        in: container,
        debugDescription: "expected a sweep design such as "
          + "'sobol (1024 points)', found '\(text)'")
    }
    self = design
  }

  /// Encodes the design as its description.
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
