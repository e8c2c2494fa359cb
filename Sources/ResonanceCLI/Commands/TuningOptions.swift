import Foundation
import ResonanceModel
import ResonanceStore
import ResonanceTuning

/// The options `resonance sweep` and `resonance tune` share: the design, the reward, the
/// estimator, the days, and how the kernel computes its products.
struct TuningOptions {
  static let design = Option<SweepDesign.Kind>(
    "design", placeholder: "sobol|grid|random",
    help:
      "How the preference vectors are laid out: a Sobol sequence (default), a grid with --step, or random points (--seed).",
    parser: .oneOfCases)
  static let points = Option(
    "points", placeholder: "N",
    help: "Points of a Sobol or random design, 1–1000000. Default: 1024.",
    parser: .integer(in: 1...1_000_000))
  static let step = Option(
    "step", placeholder: "S",
    help:
      "The grid's step for the five ranking weights on the simplex and the two penalties from 0 to 0.5; 1/S must be a whole number from 2 to 40. Default: 0.1 (36,036 points).",
    parser: ValueParser<Double>(
      expected: "a step such as 0.25, 0.1 or 0.05 (1/step from 2 to 40)"
    ) {
      guard let step = Double($0), step > 0 else { return nil }
      let n = (1 / step).rounded()
      return abs(1 / step - n) < 1e-9 && (2...40).contains(n) ? step : nil
    })
  static let seed = Option(
    "seed", placeholder: "S", help: "The random design's seed. Default: 1.", parser: .natural)
  static let reward = Option<Reward>(
    "reward", placeholder: "composite|keep|listen-share|response|session-quality",
    help:
      "What counts as a good outcome (docs/tuning.md): the composite (default) of kept, share heard and the response toward the need; or one of them; or the session's quality.",
    parser: .oneOfCases)
  static let estimator = Option<Estimator>(
    "estimator", placeholder: "dr|snips|ips|dm",
    help:
      "The off-policy estimator: doubly robust (default), self-normalised or plain inverse propensity, or the direct method.",
    parser: .oneOfCases)
  static let product = Option<SweepKernel.Product>(
    "product", placeholder: "simd|blas",
    help:
      "How the kernel computes scores: a vectorised loop (default) or BLAS dgemm; the same results (docs/performance.md).",
    parser: .oneOfCases)

  static let options: [any ArgumentOption] = [
    Option.from, Option.to, design, points, step, seed, reward, estimator, product,
  ]

  var days: DayRange
  var design: SweepDesign
  var reward: Reward
  var estimator: Estimator
  var product: SweepKernel.Product
  /// The options as given, for the preference file's `command`.
  var spelled: [String]

  init(_ parsed: ParsedArguments, command: String) throws(UsageError) {
    days = DayRange(from: parsed[Option.from], to: parsed[Option.to])
    if let from = days.from, let to = days.to, from >= to {
      throw UsageError(
        "'\(Option.from.spelling)' must be before '\(Option.to.spelling)'",
        hint: "resonance \(command) --from 2022-06-01 --to 2023-06-01")
    }
    let kind = parsed[Self.design] ?? .sobol
    if kind == .grid, parsed[Self.points] != nil {
      throw UsageError(
        "'--points' is for a Sobol or random design; a grid's size follows from '--step'",
        hint: "resonance \(command) --design grid --step 0.1")
    }
    if kind != .grid, parsed[Self.step] != nil {
      throw UsageError(
        "'--step' is for '--design grid'", hint: "resonance \(command) --design grid --step 0.1")
    }
    design = SweepDesign(
      kind: kind, points: parsed[Self.points] ?? 1024, step: parsed[Self.step] ?? 0.1,
      seed: parsed[Self.seed] ?? 1)
    if kind == .grid, design.count > 2_000_000 {
      throw UsageError(
        "a grid with step \(design.step) has \(design.count) points, more than 2,000,000",
        hint: "use a larger --step, or --design sobol --points N")
    }
    reward = parsed[Self.reward] ?? .composite
    estimator = parsed[Self.estimator] ?? .dr
    product = parsed[Self.product] ?? .simd
    var spelled: [String] = []
    if let from = days.from { spelled += ["--from", from.description] }
    if let to = days.to { spelled += ["--to", to.description] }
    spelled += ["--design", kind.rawValue]
    spelled += kind == .grid ? ["--step", "\(design.step)"] : ["--points", "\(design.points)"]
    if kind == .random { spelled += ["--seed", "\(design.seed)"] }
    spelled += ["--reward", reward.rawValue, "--estimator", estimator.rawValue]
    self.spelled = spelled
  }

  /// The store's decision history within the days asked for.
  func history(_ store: Store) throws -> DecisionHistory {
    let all = try store.decisionHistory()
    guard days.from != nil || days.to != nil else { return all }
    let keep = all.records.indices.filter { days.contains(all.records[$0].time) }
    return DecisionHistory(
      records: keep.map { all.records[$0] }, followUps: keep.map { all.followUps[$0] })
  }
}
