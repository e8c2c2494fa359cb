import ResonanceModel

/// The options `resonance sweep` and `resonance tune` share: the days, the design, the reward,
/// the estimator, and how the kernel computes its products.
struct TuningOptions: ParsableArguments {
  @OptionGroup var days: DayOptions

  @Option(
    name: "design", placeholder: "sobol|grid|random",
    help:
      "How the preference vectors are laid out: a Sobol sequence (default), a grid with --step, or random points (--seed).",
    parser: .oneOfCases)
  var kind = SweepDesign.Kind.sobol

  @Option(
    name: "points", placeholder: "N",
    help: "Points of a Sobol or random design, 1–1000000. Default: 1024.",
    parser: .integer(in: 1...1_000_000))
  var points: Int?

  @Option(
    name: "step", placeholder: "S",
    help:
      "The grid's step for the five ranking weights on the simplex and the two penalties from 0 to 0.5; 1/S must be a whole number from 2 to 40. Default: 0.1 (36,036 points).",
    parser: .gridStep)
  var step: Double?

  @Option(
    name: "seed", placeholder: "S", help: "The random design's seed. Default: 1.", parser: .natural)
  var seed: UInt64 = 1

  @Option(
    name: "reward", placeholder: "composite|keep|listen-share|response",
    help:
      "What counts as a good outcome of one decision (docs/tuning.md): the composite (default) of kept, share heard and the response toward the need; or one of them.",
    parser: .oneOfCases)
  var reward = TuningSettings().reward

  @Option(
    name: "estimator", placeholder: "dr|snips|ips|dm|sndr|switch-dr|dros",
    help:
      "The off-policy estimator: doubly robust (default), self-normalised or plain inverse propensity, the direct method, self-normalised DR, or DR switched to the model on heavy weights or with shrunk weights (their threshold chosen by SLOPE).",
    parser: .oneOfCases)
  var estimator = TuningSettings().estimator

  @Option(
    name: "product", placeholder: "simd|blas",
    help:
      "How the kernel computes scores: a vectorised loop (default) or BLAS dgemm; the same results (docs/performance.md).",
    parser: .oneOfCases)
  var product = TuningSettings().product

  /// The design the options describe.
  var design: SweepDesign {
    SweepDesign(kind: kind, points: points ?? 1024, step: step ?? 0.1, seed: seed)
  }

  func validate() throws(UsageError) {
    if reward == .sessionQuality {
      throw UsageError(
        "'--reward session-quality' cannot be estimated one decision at a time: a session's "
          + "quality depends on every song chosen in it, so crediting it to each decision "
          + "alone biases the estimate (docs/tuning.md, \"Rewards\")",
        hint: "--reward composite; resonance report shows session quality per session")
    }
    if kind == .grid, points != nil {
      throw UsageError(
        "'--points' is for a Sobol or random design; a grid's size follows from '--step'",
        hint: "--design grid --step 0.1")
    }
    if kind != .grid, step != nil {
      throw UsageError("'--step' is for '--design grid'", hint: "--design grid --step 0.1")
    }
    if kind == .grid, design.count > 2_000_000 {
      throw UsageError(
        "a grid with step \(design.step) has \(design.count) points, more than 2,000,000",
        hint: "use a larger --step, or --design sobol --points N")
    }
  }

  /// The options as given, for the preference file's `command`.
  var spelled: [String] {
    var spelled: [String] = []
    if let from = days.from { spelled += ["--from", from.description] }
    if let to = days.to { spelled += ["--to", to.description] }
    spelled += ["--design", kind.rawValue]
    spelled += kind == .grid ? ["--step", "\(design.step)"] : ["--points", "\(design.points)"]
    if kind == .random { spelled += ["--seed", "\(design.seed)"] }
    spelled += ["--reward", reward.rawValue, "--estimator", estimator.rawValue]
    return spelled
  }
}

extension ValueParser where Value == Double {
  /// A grid step whose reciprocal is a whole number from 2 to 40.
  static var gridStep: ValueParser<Double> {
    ValueParser(expected: "a step such as 0.25, 0.1 or 0.05 (1/step from 2 to 40)") {
      guard let step = Double($0), step > 0 else { return nil }
      let n = (1 / step).rounded()
      return abs(1 / step - n) < 1e-9 && (2...40).contains(n) ? step : nil
    }
  }
}
