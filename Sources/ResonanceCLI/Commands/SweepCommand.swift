import ResonanceModel
import ResonanceStages

/// `resonance sweep`: every point of a design over the seven weights, estimated offline on
/// the DJ's logged decisions.
struct SweepCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "sweep",
    abstract:
      "Estimate, from the DJ's own log, how every point of a design over its seven weights would have done.",
    discussion: """
      Reads the DJ's decisions from the store, which must exist (resonance ingest reads the \
      decision log; resonance analyze adds the heart rate and HRV around each play and the \
      sessions' quality), and estimates, for the preferences in force and for every point of \
      the design, the mean reward the app's own policy (its softmax and temperature) would \
      have earned with those weights, by off-policy evaluation: each logged choice reweighted \
      by how much likelier the point makes it, with a reward model cross-fitted by month \
      (doubly robust by default). docs/tuning.md explains every estimator and diagnostic.

      The design lays the five ranking weights on the simplex and each penalty strength from \
      0 to 0.5; then every point is rescaled so that its choices over the log's decisions \
      are as spread — its softmax's mean entropy is — as the preferences in force's. Under a \
      softmax, scaling the weights is the same as changing the temperature: the design \
      compares tastes at the app's greediness, not greedier or more random DJs. The CSV \
      gives the weights as evaluated.

      Every point's estimates (the chosen reward, the keep rate and the response score, the \
      effective sample size, the largest weight, the agreement share) go into the store \
      (sweep_runs, sweep_points) and to a CSV, with the Pareto front of keep rate against \
      response marked. The best point of a sweep is chosen on the whole history, so its \
      estimate is optimistic: resonance tune chooses on earlier months and judges on later \
      ones. On a terminal it shows the points evaluated so far.
      """,
    examples: [
      Example("resonance sweep", "1,024 Sobol points, composite reward, doubly robust."),
      Example(
        "resonance sweep --design grid --step 0.1 --reward keep --out /tmp/grid.csv",
        "Every weight vector on a 0.1 grid, judged by the keep rate."),
    ])

  @OptionGroup var store: StoreOptions

  @Option(
    name: "out", placeholder: "FILE",
    help: "Where the CSV of every point goes. Default: Reports/sweep.csv.", parser: .nonEmpty)
  var csvPath = "Reports/sweep.csv"

  @Flag(
    name: "intervals",
    help:
      "Also give every point's value a 90% interval, from a bootstrap over blocks of a week of days (at most 1,000 points)."
  )
  var withIntervals: Bool

  @OptionGroup var tuning: TuningOptions
  @OptionGroup var output: OutputOptions

  func validate() throws(UsageError) {
    if withIntervals, tuning.design.count > 1_000 {
      throw UsageError(
        "'--intervals' takes at most 1,000 points; the design has \(tuning.design.count)",
        hint: "resonance sweep --intervals --points 200")
    }
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let request = SweepRequest(
      store: try store.location(context.environment), days: tuning.days.days,
      design: tuning.design, reward: tuning.reward, estimator: tuning.estimator,
      product: tuning.product, intervals: withIntervals, csvPath: csvPath)
    context.show(try SweepStage(request).run(progress: context.progress(output)), output)
    return .ok
  }
}
